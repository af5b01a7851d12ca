#!/usr/bin/env python3
"""Writes the mesh gradient speed-target scenes (issue #32): an S3-gradients-like scene made of mesh gradients
against the same scene made of linear gradients.

Target: "S3-gradients-like scene made of mesh gradients within 2× of the same scene with linear gradients".
Both scenes put the same 600 translucent fills (rects and ellipses, 40–160 px, S3's mix) on a white 1024 × 1024
canvas:
- s3-linear.json: each a 3-stop linear gradient top → bottom of the shape's bounds (`.style(LinearGradient(…,
  startPoint: .top, endPoint: .bottom))`, S3's stop count);
- s3-mesh.json: each a 3 × 3 smooth `MeshGradient` whose rows are those three colours, its middle row's points
  moved by up to a fifth of a cell (so each patch is bent and the colours are bicubic).
Run from anywhere: `python3 scripts/bench/make_mesh_bench.py` (deterministic), then
`.build/release/canvas-gl bench scripts/bench/s3-linear.json scripts/bench/s3-mesh.json --frames 5`.
"""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
COUNT = 600


def colour(rnd):
    return {"space": "sRGB", "rgba": [round(rnd.random(), 4), round(rnd.random(), 4), round(rnd.random(), 4),
                                      round(0.7 + 0.3 * rnd.random(), 4)]}


def items():
    rnd = random.Random(32)
    for _ in range(COUNT):
        w, h = 40 + 120 * rnd.random(), 40 + 120 * rnd.random()
        x, y = -20 + 1004 * rnd.random(), -20 + 1004 * rnd.random()
        rect = [round(x, 3), round(y, 3), round(w, 3), round(h, 3)]
        path = {"rect": rect} if rnd.random() < 0.5 else {"ellipse": rect}
        colours = [colour(rnd) for _ in range(3)]
        bend = [(round((rnd.random() - 0.5) * 0.2, 4), round((rnd.random() - 0.5) * 0.2, 4)) for _ in range(3)]
        yield path, colours, bend


def write(name, commands):
    doc = {"format": "gpucanvas-scene/1", "size": [1024, 1024], "scale": 1,
           "commands": [{"op": "fill", "path": {"rect": [0, 0, 1024, 1024]}, "shading": {"color": "white"}}] + commands}
    with open(os.path.join(HERE, name), "w") as fh:
        json.dump(doc, fh, separators=(",", ":"))
        fh.write("\n")


def main():
    linear, mesh = [], []
    for path, colours, bend in items():
        stops = {"stops": [[0, colours[0]], [0.5, colours[1]], [1, colours[2]]]}
        linear.append({"op": "fill", "path": path, "shading": {"style": {
            "linearGradient": stops, "startPoint": [0.5, 0], "endPoint": [0.5, 1]}}})
        points = []
        for j in range(3):
            for i in range(3):
                dx, dy = bend[i] if j == 1 else (0, 0)
                points.append([i / 2 + (dx if 0 < i < 2 else 0), j / 2 + dy])
        mesh.append({"op": "fill", "path": path, "shading": {"meshGradient": {
            "width": 3, "height": 3, "points": points, "colors": [colours[j] for j in range(3) for _ in range(3)]}}})
    write("s3-linear.json", linear)
    write("s3-mesh.json", mesh)
    print("wrote s3-linear.json and s3-mesh.json (%d fills each) to %s" % (COUNT, HERE))


if __name__ == "__main__":
    main()
