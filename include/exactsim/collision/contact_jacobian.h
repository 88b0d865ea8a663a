// Contact Jacobian blocks (docs/collision.md "Conventions"): the column of G for one contact, split
// into the blocks of its two bodies. Sign convention Gᵀν = dψ/dt (positive when the bodies
// separate); a non-negative impulse p pushes A by −n̂ p and B by +n̂ p.
#pragma once

#include "exactsim/collision/contact.h"
#include "exactsim/math/types.h"

namespace exactsim {

// Generalized velocity per body: planar ν = (v_x, v_y, ω) (entries 0..2 of the blocks, the
// rest zero); spatial ν = (v, ω) with ω in the world frame (all 6 entries). x_a, x_b are the
// bodies' centres of mass (= pose positions; 2D: z ignored).
//
//   2D: G_A = [−d; (p_a − x_A) ×₂ (−d)],  G_B = [d; (p_b − x_B) ×₂ d]
//   3D: G_A = [−d; (p_a − x_A) × (−d)],   G_B = [d; (p_b − x_B) × d]
//
// With d = n̂ this is the normal column; with a unit tangent d it is a friction column
// (friction columns, both bodies get their own sign). InputError unless dimension is 2 or 3.
void direction_jacobian(const Vec3& direction, const Vec3& p_a, const Vec3& p_b, int dimension,
                        const Vec3& x_a, const Vec3& x_b, Vec6& g_a, Vec6& g_b);

// The normal column of a contact: direction_jacobian(n̂, p_a, p_a + ψ n̂, …).
void contact_jacobian(const Contact& contact, int dimension, const Vec3& x_a, const Vec3& x_b,
                      Vec6& g_a, Vec6& g_b);

}  // namespace exactsim
