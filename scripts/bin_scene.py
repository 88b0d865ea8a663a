#!/usr/bin/env python3
"""Balls and boxes poured into a bin, as a scene file (docs/scene-format.md "Spheres").

usage: bin_scene.py [--balls N] [--seed S] > scenes/balls-in-bin-3d.json

N bodies (every fifth a 10 cm box, the others balls of radius 4-8 cm) on a grid of 0.2 m slots
above a 1 m square bin, falling from rest; PEG, mu = 0.3, PLUS impacts with e = 0.5, h = 5 ms, 3 s.
"""
import argparse
import json
import random


def scene(balls, seed):
    rng = random.Random(seed)
    bodies = [{"name": "floor", "static": True, "shape": {"box": [1.4, 1.4, 0.2]},
               "position": [0, 0, -0.1]}]
    for s, (x, y, sx, sy) in enumerate([(-0.55, 0, 0.1, 1.2), (0.55, 0, 0.1, 1.2),
                                        (0, -0.55, 1.2, 0.1), (0, 0.55, 1.2, 0.1)]):
        bodies.append({"name": f"wall{s}", "static": True, "shape": {"box": [sx, sy, 0.6]},
                       "position": [x, y, 0.3]})
    for i in range(balls):
        at = [round(-0.3 + 0.2 * (i % 4) + rng.uniform(-0.01, 0.01), 6),
              round(-0.3 + 0.2 * ((i // 4) % 4) + rng.uniform(-0.01, 0.01), 6),
              round(0.2 + 0.2 * (i // 16), 6)]
        if i % 5 == 4:
            bodies.append({"name": f"box{i}", "shape": {"box": [0.1, 0.1, 0.1]}, "density": 800,
                           "position": at, "orientation": [0.9, 0.1, 0.3, 0.2]})
        else:
            bodies.append({"name": f"ball{i}",
                           "shape": {"sphere": {"radius": round(rng.uniform(0.04, 0.08), 4)}},
                           "density": 1000, "position": at})
    return {"format": "exactsim-scene", "version": 1, "name": "balls-in-bin-3d", "dimension": 3,
            "time": {"step": 0.005, "duration": 3.0},
            "contact": {"model": "peg", "friction": 0.3,
                        "impact": {"model": "plus", "restitution": 0.5}},
            "gravity": [0, 0, -9.81], "bodies": bodies}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--balls", type=int, default=48)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    print(json.dumps(scene(a.balls, a.seed), indent=1))


if __name__ == "__main__":
    main()
