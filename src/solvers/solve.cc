// The default LCP stack (spec peg.md §4): lexicographic Lemke → verify → Fischer–Burmeister
// semismooth Newton warm-started from Lemke's last iterate → verify.
#include "exactsim/solvers/lcp.h"

namespace exactsim {

void solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch& s, LcpSolution& out) {
  solve_lemke(lcp, options, s, out);
  const SolveStatus lemke_status = out.certificate.status;
  // A verified Farkas certificate is final: no z can satisfy the constraints.
  if (lemke_status == SolveStatus::kSolved || lemke_status == SolveStatus::kInfeasible ||
      !options.fallback) {
    return;
  }
  const int pivots = out.certificate.pivots;
  // Warm start: Lemke's iterate (NaN-free; zero otherwise).
  if (!out.z.allFinite()) out.z.setZero();
  s.z_best = out.z;  // solve_fischer_burmeister copies its start, aliasing is safe anyway
  LcpSolution fb;
  fb.z.swap(s.fb_z);
  fb.w.swap(s.fb_w);
  fb.ray.swap(s.fb_ray);
  solve_fischer_burmeister(lcp, s.z_best, options, s, fb);
  // The FB answer is reported whenever it solved, or when it is no worse than Lemke's iterate
  // (Lemke's ray/limit status stays visible in primary_status).
  if (fb.certificate.ok() || certificate_violation(fb.certificate, fb.z) <=
                                 certificate_violation(out.certificate, out.z)) {
    out.z.swap(fb.z);
    out.w.swap(fb.w);
    out.certificate = fb.certificate;
    out.certificate.pivots = pivots;
  } else {
    out.certificate.iterations = fb.certificate.iterations;
  }
  out.certificate.primary_status = lemke_status;
  s.fb_z.swap(fb.z);
  s.fb_w.swap(fb.w);
  s.fb_ray.swap(fb.ray);
}

LcpSolution solve_lcp(const Lcp& lcp, const SolverOptions& options, LcpScratch* scratch) {
  LcpScratch local;
  LcpSolution out;
  solve_lcp(lcp, options, scratch ? *scratch : local, out);
  return out;
}

}  // namespace exactsim
