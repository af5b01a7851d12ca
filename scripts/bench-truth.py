#!/usr/bin/env python3
"""How far each bench peer's image is from a supersampled ground truth, next to its distance from skia-cpu.

bench.py checks every peer against skia-cpu's image. That is a sanity check, not a measure of accuracy:
Skia's own 1× image carries its stroker's approximation of curve offsets and its anti-aliasing. This script
renders the same scene with the same Skia drawing code at K× resolution (the canvas scaled by K, so Skia's
stroker and rasterizer work K times finer), averages each K×K block (a box filter: the exact-area coverage
of DESIGN.md, up to 1/K² quantisation) and prints, per peer, the mean |RGB difference| against that truth
and against skia-cpu.

Run from ../shared/bench after a bench.py run has written out/<peer>_<scene>.png:

    PYTHONPATH=. .venv/bin/python ../../main/scripts/bench-truth.py S2-strokes [--k 8]

Example (S2-strokes, K = 8, 2026-11-23): skia-cpu 1.70 from the truth; gpucanvas-reference 0.66,
gpucanvas-gles 0.69, blend2d 1.48, skia-gl 2.35.
"""
import argparse
import os
import sys

import numpy as np
from PIL import Image

import peer_skia
import scenes
import skia

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("scene", help="bench scene name, e.g. S2-strokes")
parser.add_argument("--k", type=int, default=8, help="supersampling factor per axis (default 8)")
parser.add_argument("--out", default="out", help="bench.py's output folder (default out)")
args = parser.parse_args()

scene = {s["name"]: s for s in scenes.all_scenes()}.get(args.scene)
if scene is None:
    sys.exit("unknown scene %r (have: %s)" % (args.scene, ", ".join(scenes.SCENE_NAMES)))
k = args.k
if not 1 <= k <= 16:
    sys.exit("--k must be 1…16 (memory grows with k²)")

peer = peer_skia.SkiaPeer(gpu=False, picture=False)
state = peer.prepare(scene)
w, h = scenes.W, scenes.H
surface = skia.Surface(w * k, h * k)
canvas = surface.getCanvas()
canvas.clear(state["bg"])
canvas.scale(k, k)
peer._draw(canvas, state)
big = np.asarray(surface.makeImageSnapshot().toarray())  # N32: BGRA in memory on little-endian hosts
truth = big[..., [2, 1, 0]].astype(np.float64).reshape(h, k, w, k, 3).mean(axis=(1, 3))


def load(peer_name):
    path = os.path.join(args.out, "%s_%s.png" % (peer_name, args.scene))
    return np.asarray(Image.open(path).convert("RGB")).astype(np.float64) if os.path.exists(path) else None


skia_cpu = load("skia-cpu")
names = sorted(f[: -len("_%s.png" % args.scene)] for f in os.listdir(args.out) if f.endswith("_%s.png" % args.scene))
print("%s: mean |RGB difference| (0-255) against Skia at %d× box-filtered, and against skia-cpu" % (args.scene, k))
print("| peer | vs truth | vs skia-cpu |")
print("|---|---:|---:|")
for name in names:
    img = load(name)
    if img is None or img.shape != truth.shape:
        continue
    vs_cpu = "-" if skia_cpu is None else "%.2f" % np.abs(img - skia_cpu).mean()
    print("| %s | %.2f | %s |" % (name, np.abs(img - truth).mean(), vs_cpu))
