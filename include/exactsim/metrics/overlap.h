// The papers' accuracy metric: total exact overlap area (2D) or volume (3D) between bodies
// (spec peg.md §5.1 / §5.2 "Metric").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "exactsim/geometry/polygon.h"
#include "exactsim/geometry/polyhedron.h"

namespace exactsim {

// Sum over pairs (i < j), both present, not both static, with overlapping AABBs, of the area
// of their convex intersection (includes body–wall overlap, as the paper's metric does).
Real total_overlap_area(std::span<const WorldPolygon> polygons,
                        std::span<const std::uint8_t> is_static,
                        std::span<const std::uint8_t> present);

// The same for volumes; shapes in body frames with their poses.
Real total_overlap_volume(std::span<const ConvexPolyhedron* const> shapes,
                          std::span<const Pose3> poses, std::span<const Aabb3> boxes,
                          std::span<const std::uint8_t> is_static,
                          std::span<const std::uint8_t> present, IntersectionScratch* scratch);

}  // namespace exactsim
