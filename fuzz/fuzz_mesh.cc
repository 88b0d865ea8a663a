// Fuzzes OBJ and STL reading (src/io/mesh_file.cc) and what the scene reader does with the
// vertices (hull, convexity check). The first byte picks the format; the rest is the file.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "exactsim/geometry/polyhedron.h"
#include "exactsim/io/mesh_file.h"
#include "exactsim/math/error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string name = (data[0] & 1) ? "fuzz.stl" : "fuzz.obj";
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  try {
    const auto pts = exactsim::read_mesh_vertices_from(in, name, 64);
    const auto hull = exactsim::polyhedron_from_points(pts);
    exactsim::check_mesh_is_convex(pts, hull, name);
  } catch (const exactsim::InputError&) {
  }
  return 0;
}
