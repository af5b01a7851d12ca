#!/usr/bin/env python3
"""Each S2-strokes stroke, alone, against its exact geometry: how far our stroker is from the true outline.

`bench-truth.py` measures whole images against Skia's drawing at 8×, so the truth there carries Skia's own
stroker. This script takes the geometry from elsewhere: GEOS (through shapely) buffers the finely flattened
curve (400 chords per cubic, far below a pixel off the curve) by half the line width, with round caps and
joins, or flat caps plus the SVG miter join (a miter tip within the limit, else a bevel) at the one corner
where the two cubics meet. That polygon has no self-overlap, so its exact-area coverage, rendered by our
reference backend as an even-odd fill, is the true coverage of the stroke. Against it, per stroke, the script
prints the mean |alpha difference| and the mean signed difference (bias, + is too much ink) over the pixels
any of the three images touches, and the largest difference, for our stroke (reference backend, the same
stroker the GLES backend uses) and for Skia's (skia-python, raster, anti-aliased).

Run from ../shared/bench (its venv has skia-python; add shapely: `.venv/bin/pip install shapely`):

    PYTHONPATH=. .venv/bin/python ../../main/scripts/stroke-truth.py [--count 20]

Example (2026-11-23, the first 20 round and 20 butt/miter strokes that are not dashed): round, ours 0.45
(bias +0.10), Skia 4.58 (bias −0.44); butt/miter, ours 0.50 (+0.13), Skia 5.80 (−0.05). Our largest
differences sit where a path turns back over itself: there the coverage definition (DESIGN.md: accumulated
signed area, then min(|a|, 1)) adds the partial coverage of both overlapping edges.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import skia
from PIL import Image
from shapely.geometry import LineString, Polygon
from shapely.geometry.polygon import orient
from shapely.ops import unary_union

import scenes

HERE = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("--count", type=int, default=20, help="strokes of each kind (default 20)")
parser.add_argument("--canvas-gl", default=os.path.join(HERE, "..", ".build", "release", "canvas-gl"))
args = parser.parse_args()
W, H = scenes.W, scenes.H
CHORDS = 400  # per cubic: a chord of a ≤ 300 px cubic then strays ≪ 0.01 px from the curve
ARC_SEGMENTS = 64  # per quarter circle of a round cap or join


def flatten(start, cubic):
    """`CHORDS` + 1 points along one cubic ("C", x1, y1, x2, y2, x3, y3) from `start`."""
    x0, y0 = start
    _, x1, y1, x2, y2, x3, y3 = cubic
    t = np.linspace(0, 1, CHORDS + 1)
    u = 1 - t
    px = u**3 * x0 + 3 * u**2 * t * x1 + 3 * u * t**2 * x2 + t**3 * x3
    py = u**3 * y0 + 3 * u**2 * t * y1 + 3 * u * t**2 * y2 + t**3 * y3
    return list(zip(px, py))


def unit(v):
    n = math.hypot(*v)
    return (v[0] / n, v[1] / n)


def true_outline(it):
    """The stroke's region as a shapely geometry."""
    h = it["width"] / 2
    (_, x, y), c1, c2 = it["cmds"]
    first, second = flatten((x, y), c1), flatten((c1[5], c1[6]), c2)
    if it["cap"] == "round":
        return LineString(first + second[1:]).buffer(h, quad_segs=ARC_SEGMENTS, cap_style="round", join_style="round")
    # Flat caps; inside each smooth cubic the chords turn by well under a degree, where a miter and a round
    # join differ by ≪ 0.01 px. The corner between the cubics gets the SVG join on its outer side.
    parts = [LineString(p).buffer(h, quad_segs=ARC_SEGMENTS, cap_style="flat", join_style="round") for p in (first, second)]
    p = (c1[5], c1[6])
    t1, t2 = unit((p[0] - c1[3], p[1] - c1[4])), unit((c2[1] - p[0], c2[2] - p[1]))
    cross, dot = t1[0] * t2[1] - t1[1] * t2[0], t1[0] * t2[0] + t1[1] * t2[1]
    if abs(cross) > 1e-12 or dot < 0:
        side = -1 if cross > 0 else 1  # the outer side is away from the turn
        n1, n2 = (-t1[1] * side, t1[0] * side), (-t2[1] * side, t2[0] * side)
        a, b = (p[0] + h * n1[0], p[1] + h * n1[1]), (p[0] + h * n2[0], p[1] + h * n2[1])
        turn = math.acos(max(-1.0, min(1.0, dot)))
        if math.cos(turn / 2) > 0 and 1 / math.cos(turn / 2) <= it["miter_limit"]:
            bisector = unit((n1[0] + n2[0], n1[1] + n2[1]))
            d = h / math.cos(turn / 2)
            parts.append(Polygon([p, a, (p[0] + d * bisector[0], p[1] + d * bisector[1]), b]).buffer(0))
        else:
            parts.append(Polygon([p, a, b]).buffer(0))
    return unary_union(parts)


def scene_path(cmds):
    return " ".join("%r %r m" % c[1:] if c[0] == "M" else "%r %r %r %r %r %r c" % c[1:] for c in cmds)


def polygon_path(geometry):
    rings = []
    for g in getattr(geometry, "geoms", [geometry]):
        g = orient(g)
        for ring in [g.exterior] + list(g.interiors):
            pts = list(ring.coords)[:-1]
            rings.append("%r %r m " % pts[0] + " ".join("%r %r l" % q for q in pts[1:]) + " h")
    return " ".join(rings)


def render_alpha(command, tmp):
    scene = os.path.join(tmp, "s.json")
    png = os.path.join(tmp, "s.png")
    with open(scene, "w") as f:
        json.dump({"format": "gpucanvas-scene/1", "size": [W, H], "commands": [command]}, f)
    subprocess.run([args.canvas_gl, "render", "--backend", "reference", scene, "-o", png], check=True,
                   capture_output=True)
    return np.asarray(Image.open(png)).astype(float)[:, :, 3]


def skia_alpha(it):
    surface = skia.Surface(W, H)
    canvas = surface.getCanvas()
    canvas.clear(0)
    paint = skia.Paint(AntiAlias=True, Color=0xFF000000, Style=skia.Paint.kStroke_Style, StrokeWidth=it["width"])
    paint.setStrokeCap(skia.Paint.kRound_Cap if it["cap"] == "round" else skia.Paint.kButt_Cap)
    paint.setStrokeJoin(skia.Paint.kRound_Join if it["join"] == "round" else skia.Paint.kMiter_Join)
    paint.setStrokeMiter(it["miter_limit"])
    path = skia.Path()
    for c in it["cmds"]:
        path.moveTo(*c[1:]) if c[0] == "M" else path.cubicTo(*c[1:])
    canvas.drawPath(path, paint)
    return surface.makeImageSnapshot().toarray()[:, :, 3].astype(float)


items = scenes.scene_strokes()["items"]
with tempfile.TemporaryDirectory() as tmp:
    for kind in ("round", "butt"):
        picked = [i for i, it in enumerate(items) if not it["dash"] and it["cap"] == kind][: args.count]
        totals = []
        for i in picked:
            it = items[i]
            truth = render_alpha({"op": "fill", "path": polygon_path(true_outline(it)), "eoFill": True,
                                  "shading": {"color": "black"}}, tmp)
            ours = render_alpha({"op": "stroke", "path": scene_path(it["cmds"]), "shading": {"color": "black"},
                                 "lineWidth": it["width"], "lineCap": it["cap"], "lineJoin": it["join"],
                                 "miterLimit": it["miter_limit"]}, tmp)
            theirs = skia_alpha(it)
            touched = ((truth > 0) | (ours > 0) | (theirs > 0)).sum()
            row = []
            for image in (ours, theirs):
                d = image - truth
                row += [np.abs(d).sum() / touched, d.sum() / touched, np.abs(d).max()]
            totals.append(row)
            print("%s #%d width %.2f: ours |d| %.3f bias %+.3f max %3d; skia |d| %.3f bias %+.3f max %3d"
                  % ((kind, i, it["width"]) + tuple(row)), flush=True)
        m = np.array(totals).mean(axis=0)
        print("%s, %d strokes, means: ours |d| %.3f bias %+.3f; skia |d| %.3f bias %+.3f"
              % (kind, len(picked), m[0], m[1], m[3], m[4]))
