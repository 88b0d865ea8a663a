// The still picture of a run's last frame, without a browser: an SVG file. 2D bodies are drawn as
// polygons; 3D bodies in the replay page's default orthographic view, each body's front faces
// flat-shaded and the bodies painted far to near (docs/viewer.md).
#pragma once

#include <array>
#include <string>

#include "exactsim/viewer/results.h"

namespace exactsim {

// The colour of body i in the picture and on the page: static bodies grey, moving bodies a
// golden-angle sequence of hues. RGB 0…255.
std::array<int, 3> body_colour(const World& world, int i);

// Writes the last frame of `results` to `path` (SVG). InputError if the file cannot be written
// or there is no frame.
void write_final_picture(const RunResults& results, const std::string& path);

}  // namespace exactsim
