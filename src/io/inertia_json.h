// Reading an inertia from a scene file and checking it against the accepted ratio range of
// m r² (docs/input-validation.md); shared by the scene and event-scene readers.
#pragma once

#include "json_cursor.h"

namespace exactsim::io {

// A moment (planar value or principal moment) must lie within [kMinInertiaRatio,
// kMaxInertiaRatio] · m r²; `reach` says in the message what r is.
void check_inertia_ratio(const JsonCursor& c, Real moment, Real mass, Real r, const char* reach);

// A symmetric positive definite 3×3 matrix whose principal moments pass check_inertia_ratio.
Mat3 read_inertia3(const JsonCursor& c, Real mass, Real r, const char* reach);

}  // namespace exactsim::io
