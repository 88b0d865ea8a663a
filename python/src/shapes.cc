// Shapes for the builder: exactsim.box, regular_polygon, polygon, hull, icosahedron.
#include <array>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bindings.h"
#include "exactsim/api/body_spec.h"
#include "exactsim/io/mesh_file.h"
#include "exactsim/math/error.h"

namespace exactsim::py {

namespace pb = pybind11;
using Points = pb::array_t<double, pb::array::c_style | pb::array::forcecast>;

namespace {

// (n, 2) or (n, 3) points from any array-like.
template <class V>
std::vector<V> rows(const Points& a, const char* who) {
  constexpr int d = V::RowsAtCompileTime;
  if (a.ndim() != 2 || a.shape(1) != d)
    throw InputError(std::string(who) + ": expected an (n, " + std::to_string(d) +
                     ") array of points");
  std::vector<V> out(a.shape(0));
  auto r = a.unchecked<2>();
  for (pb::ssize_t i = 0; i < a.shape(0); ++i)
    for (int k = 0; k < d; ++k) out[i][k] = r(i, k);
  return out;
}

pb::array_t<double> vertex_array(const Shape& s) {
  if (const auto* p = std::get_if<ConvexPolygon>(&s)) {
    pb::array_t<double> a({static_cast<pb::ssize_t>(p->size()), pb::ssize_t{2}});
    auto w = a.mutable_unchecked<2>();
    for (int i = 0; i < p->size(); ++i)
      for (int k = 0; k < 2; ++k) w(i, k) = p->vertices[i][k];
    return frozen(a);
  }
  if (std::holds_alternative<Sphere>(s))
    throw InputError("a sphere has no vertices: read its radius (Shape.radius)");
  if (std::holds_alternative<HalfSpace>(s)) throw InputError("a half-space has no vertices");
  const auto& p = std::get<ConvexPolyhedron>(s);
  pb::array_t<double> a({static_cast<pb::ssize_t>(p.num_vertices()), pb::ssize_t{3}});
  auto w = a.mutable_unchecked<2>();
  for (int i = 0; i < p.num_vertices(); ++i)
    for (int k = 0; k < 3; ++k) w(i, k) = p.vertices[i][k];
  return frozen(a);
}

}  // namespace

void bind_shapes(pb::module_& m) {
  pb::class_<PyShape>(m, "Shape",
                      "A convex shape in its own frame: a polygon (2D), a polyhedron, a sphere or "
                      "a half-space (3D), made by box(), regular_polygon(), polygon(), hull(), "
                      "icosahedron(), sphere() or half_space(); or the convex parts of a compound "
                      "body, made by compound() or mesh().")
      .def_property_readonly(
          "dimension",
          [](const PyShape& s) {
            const Shape& first = s.parts.empty() ? s.shape : s.parts.front();
            return std::holds_alternative<ConvexPolygon>(first) ? 2 : 3;
          },
          "2 for polygons, 3 for polyhedra and spheres.")
      .def_property_readonly(
          "radius",
          [](const PyShape& s) -> pb::object {
            if (const auto* sphere = std::get_if<Sphere>(&s.shape); sphere && s.parts.empty())
              return pb::float_(sphere->radius);
            return pb::none();
          },
          "A sphere's radius in m; None for a polytope.")
      .def_property_readonly(
          "vertices",
          [](const PyShape& s) {
            if (!s.parts.empty())
              throw InputError("a compound shape has no single vertex list: read .parts");
            return vertex_array(s.shape);
          },
          "Vertices in the shape's frame, m: a read-only (n, 2) or (n, 3) array (a "
          "polygon's counter-clockwise). InputError for a compound shape (see parts).")
      .def_property_readonly(
          "parts",
          [](const PyShape& s) {
            std::vector<PyShape> out;
            if (s.parts.empty()) out.push_back({s.shape, {}});
            for (const Shape& p : s.parts) out.push_back({p, {}});
            return out;
          },
          "The convex parts: [self] for a convex shape.")
      .def("__repr__", [](const PyShape& ps) {
        if (!ps.parts.empty())
          return "<exactsim.Shape compound of " + std::to_string(ps.parts.size()) + " parts>";
        const Shape& s = ps.shape;
        if (const auto* sphere = std::get_if<Sphere>(&s))
          return "<exactsim.Shape sphere of radius " + std::to_string(sphere->radius) + " m>";
        if (std::holds_alternative<HalfSpace>(s)) return std::string("<exactsim.Shape half-space>");
        const bool planar = std::holds_alternative<ConvexPolygon>(s);
        const auto n = planar ? std::get<ConvexPolygon>(s).size()
                              : std::get<ConvexPolyhedron>(s).num_vertices();
        return std::string("<exactsim.Shape ") + (planar ? "polygon" : "polyhedron") + " with " +
               std::to_string(n) + " vertices>";
      });

  m.def(
      "compound",
      [](const std::vector<PyShape>& shapes) -> PyShape {
        PyShape out;
        for (const PyShape& s : shapes) {
          if (s.parts.empty())
            out.parts.push_back(s.shape);
          else
            out.parts.insert(out.parts.end(), s.parts.begin(), s.parts.end());
        }
        if (out.parts.empty()) throw InputError("compound: give at least one shape");
        return out;
      },
      pb::arg("parts"),
      "The shape of a compound body: convex parts welded in one frame, meeting only at their "
      "boundaries (add_body checks that they do not overlap). Mass properties are the union's; "
      "the parts of one body never collide with each other (docs/python.md \"Compound "
      "bodies\").");
  m.def(
      "box",
      [](pb::args sides) -> PyShape {
        std::vector<double> s;
        for (auto x : sides) s.push_back(number(x, "box[" + std::to_string(s.size()) + "]"));
        if (s.size() == 2) return {make_box(Vec2(s[0], s[1])), {}};
        if (s.size() == 3) return {make_box(Vec3(s[0], s[1], s[2])), {}};
        throw InputError("box: give 2 side lengths (2D) or 3 (3D), got " +
                         std::to_string(s.size()));
      },
      "box(width, height) -> 2D rectangle; box(x, y, z) -> 3D box.\n\n"
      "Full side lengths in m, centred at the origin.");
  m.def(
      "regular_polygon",
      [](int sides, double radius, double phase) -> PyShape {
        return {make_regular_polygon(sides, radius, phase), {}};
      },
      pb::arg("sides"), pb::arg("radius"), pb::arg("phase") = 0.0,
      "Regular 2D polygon centred at the origin: `sides` >= 3 vertices on a circle of "
      "`radius` m, the first at angle `phase` rad from +x.");
  m.def(
      "polygon",
      [](const Points& pts) -> PyShape {
        return {polygon_from_points(rows<Vec2>(pts, "polygon"), HullInput::kRequireConvex), {}};
      },
      pb::arg("points"),
      "Convex 2D polygon from its vertices, an (n, 2) array in m (any order; every point must "
      "be a vertex or on the boundary: InputError otherwise).");
  m.def(
      "hull",
      [](const Points& pts) -> PyShape {
        if (pts.ndim() == 2 && pts.shape(1) == 2)
          return {polygon_from_points(rows<Vec2>(pts, "hull")), {}};
        return {polyhedron_from_points(rows<Vec3>(pts, "hull")), {}};
      },
      pb::arg("points"),
      "Convex hull of an (n, 2) or (n, 3) array of points in m (interior points are dropped): "
      "a polygon or a polyhedron.");
  m.def(
      "icosahedron",
      [](double radius) -> PyShape {
        return {make_icosahedron(radius), {}};
      },
      pb::arg("radius"), "Regular icosahedron centred at the origin, circumradius in m.");
  m.def(
      "sphere",
      [](double radius, std::array<double, 3> centre) -> PyShape {
        return {Sphere{radius, Vec3(centre[0], centre[1], centre[2])}, {}};
      },
      pb::arg("radius"), pb::arg("center") = std::array<double, 3>{0, 0, 0},
      "Sphere of the given radius (m) about `center` (m, the shape's frame), for 3D scenes; "
      "compound() welds several (a clump) or spheres and polyhedra.");
  m.def(
      "half_space",
      [](std::array<double, 3> normal, double offset) -> PyShape {
        return {HalfSpace{Vec3(normal[0], normal[1], normal[2]), offset}, {}};
      },
      pb::arg("normal") = std::array<double, 3>{0, 0, 1}, pb::arg("offset") = 0.0,
      "The solid {x : normal·x <= offset} (the shape's frame, m), for a static body of a 3D "
      "scene: a ground or a wall without edges (docs/scene-format.md \"Half-spaces\"). The "
      "normal points out of the solid; it is scaled to unit length.");
  m.def(
      "mesh",
      [](pb::object path) -> PyShape {
        std::vector<ConvexPolyhedron> parts =
            read_mesh_parts(pb::str(pb::module_::import("os").attr("fspath")(path)));
        if (parts.size() == 1) return {std::move(parts.front()), {}};
        PyShape out;
        for (ConvexPolyhedron& p : parts) out.parts.emplace_back(std::move(p));
        return out;
      },
      pb::arg("path"),
      "The shape of an OBJ or STL (ASCII or binary) mesh file, read as a scene file's `mesh` "
      "shape is (docs/scene-format.md): the hull of its vertices, which must be the mesh "
      "itself (convex), at most 10,000 vertices; an OBJ file with several objects (`o` lines) "
      "gives a compound shape, one convex part per object. InputError names the file and the "
      "reason.");
}

}  // namespace exactsim::py
