"""One PLUS impact: a ball (m = 1 kg, r = 0.1 m) hits the ground at 2 m/s while sliding at
0.5 m/s. Friction (mu = 0.5) stops the slip, the normal velocity reverses with e = 0.5."""
import exactsim

m, r = 1.0, 0.1
inertia = 0.4 * m * r**2            # solid sphere, kg m^2
a_t = 1 / m + r**2 / inertia        # Delassus entry of a tangent row, 1/kg (= 3.5)
problem = {
    "format": "exactsim-impact", "version": 1,
    "contacts": [{"friction": 0.5, "restitution": {"e": 0.5}}],
    "delassus": [[a_t, 0, 0], [0, a_t, 0], [0, 0, 1 / m]],  # rows t1, t2, n
    "velocity": [0.5, 0.0, -2.0],                            # m/s, v_N < 0 approaches
}
result = exactsim.impact(problem)
t1, t2, n = result["velocity"]
print(f"impulse (t1, t2, n) = {[round(p, 6) for p in result['impulse']]} N s, "
      f"{result['rounds']} round(s), {result['intervals']} interval(s)")
print(f"after: normal velocity {n:.6f} m/s (e * 2 = 1.0), slip {abs(t1):.6f} m/s, "
      f"energy change {result['kinetic_energy_change']:.6f} J")
