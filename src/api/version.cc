#include "exactsim/api/version.h"

namespace exactsim {

const char* version() { return EXACTSIM_VERSION; }  // from CMake: project(exactsim VERSION ...)

}  // namespace exactsim
