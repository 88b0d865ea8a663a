#!/usr/bin/python3
"""A dense model of the sparse path's interior point on dumped LCPs (docs/performance.md
"The interior point's runs").

Dump the LCPs whose every interior-point start stalled with EXACTSIM_DUMP_LCP=DIR (lcp_io.h;
islands of at most 2,000 rows without free rows), then run one of six methods on the smallest:

  mehrotra       Mehrotra's predictor-corrector with the step rules of src/solvers/interior_point.cc
                 (neighbourhood 1e-5, residual within 10 mu/mu0, the centring step below a step of
                 0.1, the stall rule), from the same cold start
  keep-residual  the same, the corrector aiming the residual at sigma times itself (sigma >= 0.1),
                 no centring step
  path           path following: each target mu centred to within 10 % (the residual kept in
                 proportion to mu) before the next, targets 0.1-0.95 of the last as the last went,
                 a Newton step to the whole residual after each, certified there
  arc-length     pseudo-arc-length continuation of the same path, z w = t mu0, w - N z - b =
                 t r0, in (log z, log t): w = t mu0 / z, so the path is F(x, u) = 0, n equations
                 in n + 1 unknowns, followed by its tangent and a Newton corrector orthogonal to
                 it. t is free to rise where the path turns back (a fold, where following mu
                 stalls), as Lemke's z0 rises and falls
  plain          Mehrotra's predictor-corrector with no neighbourhood, no residual rule and no
                 centring step: each step 0.995 of the way to the orthant's boundary (the stall
                 rule unless --no-stall-rule)
  relaxed        Anitescu's convex relaxation first: each friction cone's normal row gets -mu
                 sigma (its sliding speed times mu), which makes the cones' coupling skew and the
                 LCP monotone but for PEG's slack rows; `plain` on it (no stall rule), then block
                 pivoting (Judice & Pires, at most 30 basis solves, a basis system regularised by
                 1e-10 of N's largest diagonal entry) on the true LCP from the basis of its answer

A run certifies where min w >= -tol and max |z_i w_i| <= tol Z on w = N z + b (z > 0 throughout).
Uses Debian's numpy: run with /usr/bin/python3.

  /usr/bin/python3 bench/interior_point_model.py DIR [--method M] [--limit 12] [--no-stall-rule]
"""
import argparse
import glob
import os
import sys

import numpy as np


def load(path):
    """(N, b, Z, tol) of an exactsim-lcp file (lcp_io.h)."""
    lines = open(path).read().split("\n")

    def value(text):
        text = text.strip()
        return float.fromhex(text) if "x" in text else float(text)

    n, scale, tol, i = None, 0.0, None, 0
    while lines[i].strip() != "q":
        words = lines[i].split()
        if words and words[0] == "n":
            n = int(words[1])
        elif words and words[0] == "impulse_scale":
            scale = value(words[1])
        elif words and words[0] == "note" and "tolerance" in words:
            tol = value(words[words.index("tolerance") + 1])
        i += 1
    b = np.array([value(lines[i + 1 + k]) for k in range(n)])
    i += 1 + n
    nnz = int(lines[i].split()[1])
    N = np.zeros((n, n))
    for k in range(nnz):
        r, c, v = lines[i + 1 + k].split()
        N[int(r), int(c)] = value(v)
    if tol is None:
        tol = 1e-10 * max(1.0, np.abs(b).max())
    return N, b, scale if scale > 0 else 1.0, tol


class Model:
    def __init__(self, N, b, Z, tol):
        self.N, self.b, self.Z, self.tol, self.n = N, b, Z, tol, len(b)
        self.solves = 0

    def certified(self, z, margin=1.0):
        w = self.N @ z + self.b
        return w.min() >= -margin * self.tol and np.abs(z * w).max() <= margin * self.tol * self.Z

    def direction(self, z, w, residual, rc):
        """Newton step of w - N z - b = -residual, z w = ... : -N dz + dw = -residual,
        W dz + Z dw = rc."""
        self.solves += 1
        dz = np.linalg.solve(self.N + np.diag(w / z), rc / z + residual)
        return dz, (rc - w * dz) / z

    def cold_start(self):
        s = np.abs(self.b).max()
        return np.full(self.n, s / np.abs(np.diag(self.N)).max()), np.full(self.n, s)


def to_boundary(x, dx):
    neg = dx < 0
    return min(1.0, (-x[neg] / dx[neg]).min()) if neg.any() else 1.0


def mehrotra(m, keep_residual, stall_rule, max_iterations=100, plain=False):
    """(certified, iterations); the last point in m.z, m.w."""
    z, w = m.cold_start()
    m.z, m.w = z, w
    stop_c, stop_r = 0.5 * m.tol * m.Z, 0.5 * m.tol
    mus, residuals = [], []
    for it in range(max_iterations):
        r = w - m.N @ z - m.b
        mu, res = z @ w / m.n, np.abs(r).max() / stop_r
        if it == 0:
            mu0, res0 = mu, max(res, 1.0)
        m.z, m.w = z, w
        if m.certified(z, 0.5):
            return True, it
        mus.append(mu)
        residuals.append(res)
        if stall_rule and it >= 12 and mu > 0.5 * mus[it - 12] and res > 0.5 * residuals[it - 12]:
            return False, it
        dz, dw = m.direction(z, w, r, -z * w)
        a_aff = min(to_boundary(z, dz), to_boundary(w, dw))
        sigma = min(1.0, max(0.0, ((z + a_aff * dz) @ (w + a_aff * dw) / m.n) / mu)) ** 3
        if keep_residual:
            sigma = max(sigma, 0.1)
        dz, dw = m.direction(z, w, (1 - sigma) * r if keep_residual else r,
                             -z * w - dz * dw + sigma * mu)

        def step(dz, dw):
            a = min(1.0, 0.995 * min(to_boundary(z, dz), to_boundary(w, dw)))
            while a > 1e-10:
                zt, wt = z + a * dz, w + a * dw
                mt = zt @ wt / m.n
                if (zt * wt).min() >= 1e-5 * mt and (1 - a) * res <= 10 * mt / mu0 * res0:
                    break
                a *= 0.8
            return a

        if plain:
            a = min(1.0, 0.995 * min(to_boundary(z, dz), to_boundary(w, dw)))
            z, w = np.maximum(z + a * dz, 1e-300), np.maximum(w + a * dw, 1e-300)
            continue
        a = step(dz, dw)
        if a < 0.1 and not keep_residual:
            dz, dw = m.direction(z, w, r, -z * w + mu)
            a = step(dz, dw)
        z, w = np.maximum(z + a * dz, 1e-300), np.maximum(w + a * dw, 1e-300)
    m.z, m.w = z, w
    return False, max_iterations


def cones(N, b):
    """The friction cones of (N, b): (sigma row, impulse column p, beta columns, mu), from each
    sigma row's shape, w_sigma = mu p - sum beta (b_sigma = 0, no diagonal)."""
    out = []
    for i in range(len(b)):
        if N[i, i] != 0 or b[i] != 0:
            continue
        nz = np.nonzero(N[i])[0]
        beta = [j for j in nz if abs(N[i, j] + 1) < 1e-12]
        p = [j for j in nz if N[i, j] > 0]
        if len(beta) >= 2 and len(p) == 1 and len(beta) + 1 == len(nz):
            out.append((i, p[0], beta, N[i, p[0]]))
    return out


def block_pivoting(m, active, max_solves=30, regularisation=1e-10):
    """Judice & Pires's block principal pivoting from the basic set `active`: every index with
    the wrong sign moves while their count falls (three chances), else the last one alone."""
    N, b, n = m.N, m.b, m.n
    delta = regularisation * np.abs(np.diag(N)).max()
    best, chances = None, 3
    for solves in range(1, max_solves + 1):
        z = np.zeros(n)
        basic = np.nonzero(active)[0]
        if len(basic):
            z[basic] = np.linalg.solve(N[np.ix_(basic, basic)] + delta * np.eye(len(basic)),
                                       -b[basic])
        if z.min() >= -m.tol * m.Z and m.certified(z):
            return True, solves
        w = N @ z + b
        wrong = (active & (z < -m.tol * m.Z)) | (~active & (w < -m.tol))
        count = wrong.sum()
        if count == 0:
            return False, solves  # right signs, but the regularised basis is not complementary
        if best is None or count < best:
            best, chances = count, 3
        elif chances > 0:
            chances -= 1
        else:
            last = np.nonzero(wrong)[0].max()
            wrong = np.zeros(n, dtype=bool)
            wrong[last] = True
        active = active ^ wrong
    return False, max_solves


def relaxed(m):
    """(relaxed certified, its iterations, cones, cones sliding in its answer, true certified,
    basis solves)."""
    found = cones(m.N, m.b)
    R = m.N.copy()
    for sigma, p, _, mu in found:
        R[p, sigma] -= mu
    r = Model(R, m.b, m.Z, m.tol)
    ok, it = mehrotra(r, False, False, 150, plain=True)
    z = r.z
    w = R @ z + m.b
    sliding = sum(1 for sigma, _, _, _ in found if z[sigma] > w[sigma])
    true_ok, solves = block_pivoting(m, z > w)
    return ok, it, len(found), sliding, true_ok, solves


def path_following(m, band=0.1, max_solves=400):
    z, w = m.cold_start()
    r0 = w - m.N @ z - m.b
    mu0 = mu = z @ w / m.n
    scale = np.abs(m.b).max()
    f, fails = 0.2, 0
    while m.solves < max_solves:
        target = f * mu
        t = target / mu0
        zt, wt, centred = z.copy(), w.copy(), False
        for k in range(12):
            r = wt - m.N @ zt - m.b - t * r0
            p = zt * wt
            if (np.abs(r).max() <= 1e-3 * t * np.abs(r0).max() + 1e-13 * scale
                    and p.min() >= (1 - band) * target and p.max() <= (1 + band) * target):
                centred = True
                break
            dz, dw = m.direction(zt, wt, r, target - p)
            a = min(1.0, 0.99 * min(to_boundary(zt, dz), to_boundary(wt, dw)))
            zt, wt = zt + a * dz, wt + a * dw
        if not centred:
            fails += 1
            if f >= 0.95 and fails > 30:
                return False, m.solves
            f = min(0.95, np.sqrt(f))
            continue
        z, w, mu = zt, wt, target
        if k <= 4:
            f = max(0.1, f * f)
        dz, dw = m.direction(z, w, w - m.N @ z - m.b, mu - z * w)
        a = min(1.0, 0.99 * min(to_boundary(z, dz), to_boundary(w, dw)))
        if m.certified(z + a * dz):
            return True, m.solves
    return False, m.solves


def arc_length(m, max_solves=600):
    """Pseudo-arc-length continuation of the infeasible central path in y = (log z, log t)
    from the cold start (t = 1): the tangent from [J; tau_prev] tau = e_{n+1}, a predictor of
    length s along it, and Newton on [F; tau^T (y - y_p)] = 0 (at most 6 solves; the step halves
    where that fails, grows by 1.6 where it took at most 2); certified at each point reached.
    Returns (certified, solves, turns: how often t turned from falling to rising or back again)."""
    N, b, n = m.N, m.b, m.n
    z0, w0 = m.cold_start()
    log_mu0 = np.log(z0 @ w0 / n)
    r0 = w0 - N @ z0 - b
    scale = max(np.abs(b).max(), 1e-300)

    def at(y):
        z, t = np.exp(y[:n]), np.exp(y[n])
        return z, np.exp(log_mu0 + y[n] - y[:n]), t

    def jacobian(y):
        z, w, t = at(y)
        m.solves += 1
        return np.hstack([-np.diag(w) - N * z[None, :], (w - t * r0)[:, None]])

    y = np.concatenate([np.log(z0), [0.0]])
    tau_prev = np.zeros(n + 1)
    tau_prev[n] = -1.0
    s, turns, last = 0.5, 0, -1.0
    while m.solves < max_solves:
        e = np.zeros(n + 1)
        e[n] = 1.0
        tau = np.linalg.solve(np.vstack([jacobian(y), tau_prev]), e)
        tau /= np.linalg.norm(tau)
        if tau @ tau_prev < 0:
            tau = -tau
        if np.sign(tau[n]) != last:
            turns, last = turns + 1, np.sign(tau[n])
        while True:
            yp = y + s * tau
            yc, done = yp.copy(), False
            for k in range(6):
                z, w, t = at(yc)
                f = w - N @ z - b - t * r0
                if k > 0 and np.abs(f).max() <= 1e-3 * t * np.abs(r0).max() + 1e-13 * scale:
                    done = True
                    break
                d = np.linalg.solve(np.vstack([jacobian(yc), tau]),
                                    -np.concatenate([f, [tau @ (yc - yp)]]))
                if np.abs(d[:n]).max() > 2.0:  # z_i changing by more than e^2: too far
                    break
                yc = yc + d
            if done:
                break
            s *= 0.5
            if s < 1e-8 or m.solves >= max_solves:
                return False, m.solves, turns
        y, tau_prev = yc, tau
        if k <= 2:
            s = min(1.6 * s, 5.0)
        if m.certified(np.exp(y[:n])):
            return True, m.solves, turns
    return False, m.solves, turns


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", help="a folder of *-stall.lcp files (or one .lcp file)")
    parser.add_argument("--method", choices=["mehrotra", "keep-residual", "path", "arc-length",
                                             "plain", "relaxed"], default="mehrotra")
    parser.add_argument("--limit", type=int, default=12, help="the smallest this many files")
    parser.add_argument("--no-stall-rule", action="store_true")
    args = parser.parse_args()
    if os.path.isfile(args.dir):
        files = [args.dir]
    else:
        files = glob.glob(os.path.join(args.dir, "*-stall.lcp"))
    if not files:
        sys.exit(f"{args.dir}: no *-stall.lcp files")
    sized = sorted((int(open(f).read().split("\nn ", 1)[1].split()[0]), f) for f in files)
    certified = relaxed_certified = 0
    for n, path in sized[: args.limit]:
        m = Model(*load(path))
        turns = None
        if args.method == "relaxed":
            ok_r, it, count, sliding, ok, solves = relaxed(m)
            relaxed_certified += ok_r
            certified += ok
            print(f"{os.path.basename(path)}  {n} rows  relaxed {'certified' if ok_r else 'not certified'}"
                  f" after {it} iterations, {sliding} of {count} cones sliding; block pivoting on the"
                  f" true LCP {'certified' if ok else 'not certified'} after {solves} basis solves",
                  flush=True)
            continue
        if args.method == "path":
            ok, count = path_following(m)
        elif args.method == "arc-length":
            ok, count, turns = arc_length(m)
        else:
            ok, count = mehrotra(m, args.method == "keep-residual", not args.no_stall_rule,
                                 plain=args.method == "plain")
        certified += ok
        unit = "iterations" if args.method in ("mehrotra", "keep-residual", "plain") else "solves"
        print(f"{os.path.basename(path)}  {n} rows  {'certified' if ok else 'not certified'}"
              f" after {count} {unit}" + (f", t turned back {turns} times" if turns else ""),
              flush=True)
    if args.method == "relaxed":
        print(f"relaxed: the relaxation certified {relaxed_certified} of {min(args.limit, len(sized))}")
    print(f"{args.method}: certified {certified} of {min(args.limit, len(sized))}")


if __name__ == "__main__":
    main()
