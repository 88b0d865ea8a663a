// Vertices of OBJ and STL (ASCII or binary) files, for convex `mesh` shapes.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// The distinct vertices of the file (OBJ `v` lines; STL facet vertices). InputError naming the
// file and the line/reason on malformed input, non-finite numbers or more than max_vertices.
// A path that is not a regular file (a FIFO, a device) or a file over 256 MiB is refused
// (docs/input-validation.md).
std::vector<Vec3> read_mesh_vertices(const std::string& path, int max_vertices);

// The same from an open stream; `path` names it in messages and its extension (.obj, .stl)
// selects the format.
std::vector<Vec3> read_mesh_vertices_from(std::istream& in, const std::string& path,
                                          int max_vertices);

// InputError unless every vertex lies on the hull within 1e-9 relative tolerance: the mesh must
// be convex, since the shape used is its hull.
void check_mesh_is_convex(const std::vector<Vec3>& vertices, const ConvexPolyhedron& hull,
                          const std::string& path);

// The convex shape of a mesh file, read as a scene file's `mesh` shape is: its vertices (at
// most limits::kMaxVertices, each coordinate within limits::kMaxCoordinate), their hull, which
// must be the mesh (check_mesh_is_convex), of an accepted size and fullness
// (docs/input-validation.md). InputError naming the file and the reason.
ConvexPolyhedron read_mesh_shape(const std::string& path);

// The convex parts of a mesh file, read as a scene file's `mesh` shape is: one per object (`o`
// line) of an OBJ file with several, each convex and checked as read_mesh_shape checks a file
// (a compound body, docs/api.md "Compound bodies"); otherwise the one shape of read_mesh_shape.
std::vector<ConvexPolyhedron> read_mesh_parts(const std::string& path);

}  // namespace exactsim
