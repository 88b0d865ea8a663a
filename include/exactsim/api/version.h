// The exactsim version (the CMake project version, e.g. "0.1.0").
#pragma once

namespace exactsim {

const char* version();

}  // namespace exactsim
