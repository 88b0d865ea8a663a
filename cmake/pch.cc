// Anchor for the precompiled header target (CMakeLists.txt: exactsim_pch).
