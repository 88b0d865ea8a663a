#!/usr/bin/env python3
"""Chains of jointed links as scene files (docs/joints.md "Example" and "Cost").

usage: chain_scene.py chain-2d            > scenes/chain-2d.json  (6 pinned links over a ledge)
       chain_scene.py chain-3d            > scenes/chain-3d.json  (8 ball-jointed links over a post)
       chain_scene.py cost --links N      > chainN.json           (N pinned links onto a floor)
       chain_scene.py cradle              > scenes/pendulum-cradle-2d.json
                                           (five pinned octagons, the first striking the row)

Every chain is released horizontal at height 2 m, the first link joined to the world at x = 0,
each next one to the last at their common end.
"""
import argparse
import json
import math
import sys


def chain(name, dimension, links, length, joint, obstacles, duration):
    width = 0.05
    bodies = list(obstacles)
    joints = []
    for k in range(links):
        x = length * (k + 0.5)
        shape = [length, width] if dimension == 2 else [length, width, width]
        position = [x, 2.0] if dimension == 2 else [x, 0, 2.0]
        body = {"name": f"link{k}", "shape": {"box": shape}, "position": position}
        body["density"] = 500 if dimension == 2 else 700
        bodies.append(body)
        anchor = [length * k, 2.0] if dimension == 2 else [length * k, 0, 2.0]
        pair = [f"link{k}"] if k == 0 else [f"link{k}", f"link{k - 1}"]
        joints.append({"type": joint, "bodies": pair, "anchor": anchor})
    return {"format": "exactsim-scene", "version": 1, "name": name, "dimension": dimension,
            "time": {"step": 0.002, "duration": duration},
            "contact": {"model": "peg", "friction": 0.4}, "bodies": bodies, "joints": joints}


def cradle():
    """Five regular octagons (circumradius 6 cm, flat faces vertical, 1000 kg/m^2) on 1 m pins,
    touching in a row; the first released at 30 degrees strikes the row. e = 1, frictionless,
    PLUS's mixed induced impacts (docs/joints.md "Located impacts")."""
    radius, length, theta = 0.06, 1.0, math.radians(30)
    width = 2 * radius * math.cos(math.pi / 8)
    bodies = [{"name": "floor", "static": True, "shape": {"box": [4.0, 0.2]},
               "position": [0.2, -0.5]}]
    joints = []
    for k in range(5):
        pivot = width * k
        x, y, angle = pivot, 0.0, 0.0
        if k == 0:
            x, y, angle = pivot - length * math.sin(theta), 1 - length * math.cos(theta), -theta
        bodies.append({"name": f"bob{k}", "density": 1000, "position": [x, y],
                       "shape": {"regular_polygon": {"sides": 8, "radius": radius}},
                       "angle": angle + math.pi / 8})
        joints.append({"type": "revolute", "bodies": [f"bob{k}"], "anchor": [pivot, 1.0]})
    return {"format": "exactsim-scene", "version": 1, "name": "pendulum-cradle-2d", "dimension": 2,
            "time": {"step": 0.001, "duration": 3.0},
            "contact": {"model": "peg", "friction": 0.0,
                        "impact": {"model": "plus", "restitution": 1.0, "induced": "mixed"}},
            "bodies": bodies, "joints": joints}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["chain-2d", "chain-3d", "cost", "cradle"])
    parser.add_argument("--links", type=int, default=10, help="links of a cost chain")
    a = parser.parse_args()
    if a.kind == "chain-2d":
        doc = chain("chain-2d", 2, 6, 0.3, "revolute",
                    [{"name": "ledge", "static": True, "shape": {"box": [0.6, 0.2]},
                      "position": [0.9, 1.2]},
                     {"name": "floor", "static": True, "shape": {"box": [4.0, 0.2]},
                      "position": [0.5, -0.1]}], 3.0)
    elif a.kind == "chain-3d":
        doc = chain("chain-3d", 3, 8, 0.25, "ball",
                    [{"name": "post", "static": True, "shape": {"box": [0.3, 0.3, 1.2]},
                      "position": [0.9, 0.05, 0.6]},
                     {"name": "floor", "static": True, "shape": {"box": [6, 6, 0.2]},
                      "position": [0, 0, -0.1]}], 3.0)
    elif a.kind == "cradle":
        doc = cradle()
    else:
        doc = chain(f"chain{a.links}", 2, a.links, 0.3, "revolute",
                    [{"name": "floor", "static": True, "shape": {"box": [100.0, 0.2]},
                      "position": [0, -0.1]}], 2.0)
    if a.kind == "chain-2d":
        doc["joints"][0]["name"] = "pivot"
    json.dump(doc, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
