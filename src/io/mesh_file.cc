#include "exactsim/io/mesh_file.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "exactsim/io/scene_limits.h"
#include "exactsim/io/scene_rules.h"
#include "exactsim/math/error.h"
#include "json_cursor.h"

namespace exactsim {
namespace {

// A mesh file is read whole (binary STL); this bounds the memory and the time it takes.
constexpr std::uintmax_t kMaxMeshFileBytes = 256ull << 20;

// The distinct vertices in first-seen order; the set makes each lookup O(1), so a file of
// millions of repeated triangle corners reads in linear time.
struct VertexSet {
  struct Hash {
    std::size_t operator()(const Vec3& p) const {
      std::size_t h = 0;
      for (int k = 0; k < 3; ++k) {
        const double x = p[k] + 0.0;  // -0 and +0 are the same vertex (Vec3 ==)
        std::uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        h ^= std::hash<std::uint64_t>()(bits) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
      }
      return h;
    }
  };
  std::vector<Vec3> list;
  std::unordered_set<Vec3, Hash> seen;
};

void add_unique(VertexSet& out, const Vec3& p, const std::string& path, int max_vertices) {
  if (!p.allFinite()) throw InputError(path + ": a vertex coordinate is not finite");
  if (out.seen.count(p)) return;
  if (static_cast<int>(out.list.size()) >= max_vertices)
    throw InputError(path + ": more than " + std::to_string(max_vertices) + " vertices");
  out.seen.insert(p);
  out.list.push_back(p);
}

// The distinct vertices of an OBJ file, and where each of its objects (`o` lines) starts in
// them: vertices before the first `o` line, or in a file without one, form the first object.
std::vector<Vec3> read_obj(std::istream& in, const std::string& path, int max_vertices,
                           std::vector<std::size_t>* object_starts = nullptr) {
  VertexSet out;
  std::string line;
  int n = 0;
  bool object_opened = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind("o ", 0) == 0 || line.rfind("o\t", 0) == 0 || line == "o") {
      object_opened = true;
      continue;
    }
    if (line.rfind("v ", 0) != 0 && line.rfind("v\t", 0) != 0) continue;
    std::istringstream ls(line.substr(2));
    Vec3 p;
    if (!(ls >> p.x() >> p.y() >> p.z()))
      throw InputError(path + ": line " + std::to_string(n) + ": a 'v' line needs 3 numbers");
    if (object_starts && (object_opened || object_starts->empty())) {
      // An object's vertices are its own: two parts may share a vertex where they touch.
      out.seen.clear();
      object_opened = false;
      object_starts->push_back(out.list.size());
    }
    add_unique(out, p, path, max_vertices);
  }
  return out.list;
}

std::vector<Vec3> read_ascii_stl(std::istream& in, const std::string& path, int max_vertices) {
  VertexSet out;
  std::string word;
  while (in >> word) {
    if (word != "vertex") continue;
    Vec3 p;
    if (!(in >> p.x() >> p.y() >> p.z()))
      throw InputError(path + ": a 'vertex' entry needs 3 numbers");
    add_unique(out, p, path, max_vertices);
  }
  return out.list;
}

std::vector<Vec3> read_binary_stl(const std::string& bytes, const std::string& path,
                                  int max_vertices) {
  if (bytes.size() < 84) throw InputError(path + ": binary STL shorter than its 84-byte header");
  std::uint32_t count = 0;
  std::memcpy(&count, bytes.data() + 80, 4);
  if (bytes.size() < 84 + 50ull * count)
    throw InputError(path + ": binary STL declares " + std::to_string(count) +
                     " triangles but the file is too short");
  VertexSet out;
  for (std::uint32_t t = 0; t < count; ++t) {
    const char* tri = bytes.data() + 84 + 50ull * t + 12;  // skip the normal
    for (int k = 0; k < 3; ++k) {
      float xyz[3];
      std::memcpy(xyz, tri + 12 * k, 12);
      add_unique(out, Vec3(xyz[0], xyz[1], xyz[2]), path, max_vertices);
    }
  }
  return out.list;
}

}  // namespace

namespace {

// Not a regular file (a FIFO or a device would block or never end) or over the size limit:
// refused before opening (docs/input-validation.md).
void open_mesh_file(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw InputError(path + ": cannot open the mesh file");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path + ": the mesh file is not a regular file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot open the mesh file");
  if (size > kMaxMeshFileBytes)
    throw InputError(path + ": the mesh file is larger than the limit of 256 MiB");
  if (!std::ifstream(path, std::ios::binary))
    throw InputError(path + ": cannot open the mesh file");
}

}  // namespace

std::vector<Vec3> read_mesh_vertices(const std::string& path, int max_vertices) {
  open_mesh_file(path);
  std::ifstream in(path, std::ios::binary);
  return read_mesh_vertices_from(in, path, max_vertices);
}

std::vector<Vec3> read_mesh_vertices_from(std::istream& in, const std::string& path,
                                          int max_vertices) {
  std::string ext = path.substr(path.find_last_of('.') + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  std::vector<Vec3> v;
  if (ext == "obj") {
    v = read_obj(in, path, max_vertices);
  } else if (ext == "stl") {
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const bool ascii = bytes.rfind("solid", 0) == 0 && bytes.find("facet") != std::string::npos;
    if (ascii) {
      std::istringstream s(bytes);
      v = read_ascii_stl(s, path, max_vertices);
    } else {
      v = read_binary_stl(bytes, path, max_vertices);
    }
  } else {
    throw InputError(path + ": unknown mesh format '." + ext + "' (expected .obj or .stl)");
  }
  if (v.size() < 4)
    throw InputError(path + ": " + std::to_string(v.size()) +
                     " distinct vertices, a polyhedron needs at least 4");
  return v;
}

void check_mesh_is_convex(const std::vector<Vec3>& vertices, const ConvexPolyhedron& hull,
                          const std::string& path) {
  Real size = 0;
  for (const Vec3& p : hull.vertices) size = std::max(size, p.cwiseAbs().maxCoeff());
  const Real tol = 1e-9 * std::max(size, Real(1e-300));
  for (std::size_t i = 0; i < vertices.size(); ++i) {
    Real outermost = -std::numeric_limits<Real>::infinity();  // max signed distance to a face plane
    for (const PolyhedronFace& f : hull.faces)
      outermost = std::max(outermost, f.normal.dot(vertices[i]) - f.offset);
    if (outermost < -tol)
      throw InputError(path + ": vertex " + std::to_string(i) +
                       " lies inside the hull: the mesh is not convex (exactsim simulates convex "
                       "shapes; split it into convex parts)");
  }
}

namespace {

// The hull of one object's vertices, which must be the object itself (convex), of an accepted
// size; `what` names the object in messages ("" for a whole file).
ConvexPolyhedron convex_part(const std::vector<Vec3>& pts, const std::string& path,
                             const std::string& what) {
  for (std::size_t i = 0; i < pts.size(); ++i)
    if (!(pts[i].cwiseAbs().maxCoeff() <= limits::kMaxCoordinate))
      throw InputError(path + ": " + what + "vertex " + std::to_string(i) +
                       " has a coordinate beyond " + io::format_number(limits::kMaxCoordinate) +
                       " m (docs/input-validation.md)");
  if (pts.size() < 4)
    throw InputError(path + ": " + what + std::to_string(pts.size()) +
                     " distinct vertices, a polyhedron needs at least 4");
  ConvexPolyhedron hull = polyhedron_from_points(pts);
  check_mesh_is_convex(pts, hull,
                       path + (what.empty() ? "" : ": " + what.substr(0, what.size() - 2)));
  rules::shape(hull);
  return hull;
}

}  // namespace

ConvexPolyhedron read_mesh_shape(const std::string& path) {
  return convex_part(read_mesh_vertices(path, limits::kMaxVertices), path, "");
}

std::vector<ConvexPolyhedron> read_mesh_parts(const std::string& path) {
  std::string ext = path.substr(path.find_last_of('.') + 1);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext != "obj") return {read_mesh_shape(path)};
  open_mesh_file(path);  // the same refusals as read_mesh_vertices
  std::ifstream in(path, std::ios::binary);
  std::vector<std::size_t> starts;
  const std::vector<Vec3> all = read_obj(in, path, limits::kMaxVertices, &starts);
  if (starts.size() > static_cast<std::size_t>(limits::kMaxParts))
    throw InputError(path + ": " + std::to_string(starts.size()) + " objects exceed the limit of " +
                     std::to_string(limits::kMaxParts) + " parts of one body");
  if (starts.size() <= 1) return {convex_part(all, path, "")};
  std::vector<ConvexPolyhedron> parts;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    const std::size_t end = k + 1 < starts.size() ? starts[k + 1] : all.size();
    const std::vector<Vec3> pts(all.begin() + static_cast<std::ptrdiff_t>(starts[k]),
                                all.begin() + static_cast<std::ptrdiff_t>(end));
    parts.push_back(convex_part(pts, path, "object " + std::to_string(k) + ": "));
  }
  return parts;
}

}  // namespace exactsim
