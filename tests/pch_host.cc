// Host of the tests' shared precompiled header (tests/CMakeLists.txt); it runs no test itself.
#include <gtest/gtest.h>
