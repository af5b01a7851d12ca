#!/usr/bin/env python3
"""Writes the conformance catalogue: scenes/*.json, each a small scene in gpucanvas-scene/1.

Every scene is rendered by the reference and by each GLES path strategy and compared against DESIGN.md's bar
(ConformanceTests.swift). Run from this folder: `python3 make_catalogue.py` (deterministic: fixed seeds).
The scenes are inputs, not expected pictures; nothing here says what the pixels should be.
"""
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "scenes")
SCENES = {}


def scene(name, commands, size=(128, 128), scale=1, **extra):
    doc = {"format": "gpucanvas-scene/1", "size": list(size), "scale": scale}
    doc.update(extra)
    doc["commands"] = commands
    assert name not in SCENES, name
    SCENES[name] = doc


def fill(path, color, eo=False, aa=True):
    c = {"op": "fill", "path": path, "shading": {"color": color}}
    if eo:
        c["eoFill"] = True
    if not aa:
        c["antialiased"] = False
    return c


def stroke(path, color, width=1, cap="butt", join="miter", miter=10, dash=None, phase=0):
    c = {"op": "stroke", "path": path, "shading": {"color": color}, "lineWidth": width,
         "lineCap": cap, "lineJoin": join, "miterLimit": miter}
    if dash is not None:
        c["dash"] = dash
        c["dashPhase"] = phase
    return c


def star(cx, cy, r_out, r_in, n=5):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = -math.pi / 2 + i * math.pi / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def pentagram(cx, cy, r):
    pts = [(cx + r * math.cos(-math.pi / 2 + i * 4 * math.pi / 5), cy + r * math.sin(-math.pi / 2 + i * 4 * math.pi / 5))
           for i in range(5)]
    return {"elements": [["m", *pts[0]]] + [["l", *p] for p in pts[1:]] + [["z"]]}


def poly(pts, close=True):
    e = [["m", *pts[0]]] + [["l", *p] for p in pts[1:]]
    if close:
        e.append(["z"])
    return {"elements": e}


def r3(v):
    return round(v, 4)


# --- fills: rules, AA, subpixel -------------------------------------------------------------------------
scene("fill-rect-integer", [fill({"rect": [16, 16, 96, 64]}, "#3366CC")])
scene("fill-rect-subpixel", [fill({"rect": [10.3 + 7.1 * i, 12.6 + 9.35 * i, 5.45, 6.2]}, "#CC3333") for i in range(11)])
scene("fill-rect-tiny", [fill({"rect": [8 + 11 * i + 0.17 * i, 20 + 0.31 * i, 0.1 + 0.09 * i, 0.1 + 0.07 * i]}, "black")
                         for i in range(10)])
scene("fill-ellipse", [fill({"ellipse": [10.5, 20.25, 107.3, 80.6]}, "blue")])
scene("fill-circle-small", [fill({"ellipse": [5 + 12 * i + 0.3 * i, 5 + 12 * i + 0.7 * i, 1 + i * 0.8, 1 + i * 0.8]}, "green")
                            for i in range(10)])
scene("fill-star-nonzero", [fill(pentagram(64, 66, 58), "purple")])
scene("fill-star-evenodd", [fill(pentagram(64, 66, 58), "purple", eo=True)])
scene("fill-star-aliased", [fill(pentagram(64, 66, 58), "purple", aa=False)])
scene("fill-star-aliased-evenodd", [fill(pentagram(64, 66, 58), "purple", eo=True, aa=False)])
scene("fill-ellipse-aliased", [fill({"ellipse": [10.5, 20.25, 107.3, 80.6]}, "orange", aa=False)])
scene("fill-ring-nonzero-same-winding", [fill({"elements": [["m", 114, 64], ["c", 114, 91.6, 91.6, 114, 64, 114],
                                                             ["c", 36.4, 114, 14, 91.6, 14, 64], ["c", 14, 36.4, 36.4, 14, 64, 14],
                                                             ["c", 91.6, 14, 114, 36.4, 114, 64], ["z"],
                                                             ["m", 94, 64], ["c", 94, 80.6, 80.6, 94, 64, 94],
                                                             ["c", 47.4, 94, 34, 80.6, 34, 64], ["c", 34, 47.4, 47.4, 34, 64, 34],
                                                             ["c", 80.6, 34, 94, 47.4, 94, 64], ["z"]]}, "teal")])
scene("fill-ring-evenodd", [fill({"elements": [["m", 114, 64], ["c", 114, 91.6, 91.6, 114, 64, 114],
                                               ["c", 36.4, 114, 14, 91.6, 14, 64], ["c", 14, 36.4, 36.4, 14, 64, 14],
                                               ["c", 91.6, 14, 114, 36.4, 114, 64], ["z"],
                                               ["m", 94, 64], ["c", 94, 80.6, 80.6, 94, 64, 94],
                                               ["c", 47.4, 94, 34, 80.6, 34, 64], ["c", 34, 47.4, 47.4, 34, 64, 34],
                                               ["c", 80.6, 34, 94, 47.4, 94, 64], ["z"]]}, "teal", eo=True)])
scene("fill-overlap-winding-3", [fill({"elements": sum([[["m", 20 + 10 * k, 20 + 8 * k], ["l", 100 + 5 * k, 24], ["l", 60, 110 - 6 * k], ["z"]]
                                                          for k in range(3)], [])}, "#80208080")])
scene("fill-overlap-winding-3-evenodd", [fill({"elements": sum([[["m", 20 + 10 * k, 20 + 8 * k], ["l", 100 + 5 * k, 24], ["l", 60, 110 - 6 * k], ["z"]]
                                                                  for k in range(3)], [])}, "#80208080", eo=True)])
scene("fill-description-string", [fill("10 10 m 118 20 l 64 118 l h 20 60 m 60 40 100 80 118 60 c h", "#224488")])
scene("fill-quad-curves", [fill({"elements": [["m", 10, 100], ["q", 64, -40, 118, 100], ["q", 64, 60, 10, 100], ["z"]]}, "#AA5500")])
scene("fill-rounded-rect-circular", [fill({"roundedRect": [12.5, 20.5, 103, 87], "cornerRadius": 24, "style": "circular"}, "indigo")])
scene("fill-rounded-rect-continuous", [fill({"roundedRect": [12.5, 20.5, 103, 87], "cornerRadius": 24, "style": "continuous"}, "indigo")])
scene("fill-arc", [fill({"arc": {"center": [64, 64], "radius": 50, "start": 20, "end": 250, "clockwise": False}}, "mint"),
                   fill({"arc": {"center": [64, 64], "radius": 30, "start": 20, "end": 250, "clockwise": True}}, "#00000080")])
scene("fill-thin-slivers", [fill(poly([(10 + 9 * i, 10), (10.3 + 9 * i + 0.05 * i, 118), (10.1 + 9 * i, 118)]), "black") for i in range(12)])
scene("fill-abutting-rects", [fill({"rect": [16 + 9.6 * i, 20, 9.6, 88]}, "#4060A0") for i in range(10)])
scene("fill-abutting-triangles", [fill(poly([(20, 20), (108, 20), (20.0, 108)]), "#206040"),
                                   fill(poly([(108, 20), (108, 108), (20, 108)]), "#206040")])
scene("fill-far-offcanvas", [fill({"rect": [-1e5, 40, 1e5 + 60.5, 30.25]}, "red"),
                             fill({"rect": [70.5, -5e4, 20, 1e5]}, "blue"),
                             fill({"ellipse": [-300, -300, 1e4, 1e4]}, "#00FF0040"),
                             fill({"rect": [500, 500, 30, 30]}, "black"),
                             fill({"rect": [-200, 10, 30, 30]}, "black")])
scene("fill-coordinates-1e6", [fill(poly([(-1e6, -1e6), (1e6, 20.5), (30.5, 1e6)]), "#8040C0"),
                               fill(poly([(1e6, 1e6), (-1e6, 1e6 + 0.5), (64.25, 80.75)]), "#40C08080")])
scene("fill-clip-edge", [fill({"ellipse": [-20.5, -20.5, 60, 60]}, "red"), fill({"ellipse": [100.5, 90.5, 60, 60]}, "blue"),
                         fill({"rect": [-0.5, 60.5, 129, 6]}, "green")])
# 10 000-segment paths
rnd = random.Random(7)
spiral = [["m", 64, 64]]
for i in range(1, 10000):
    a = i * 0.037
    r = 2 + 58 * i / 10000
    spiral.append(["l", r3(64 + r * math.cos(a)), r3(64 + r * math.sin(a))])
scene("fill-10k-segments-spiral", [fill({"elements": spiral + [["z"]]}, "#305090")])
scene("fill-10k-segments-spiral-evenodd", [fill({"elements": spiral + [["z"]]}, "#305090", eo=True)])
jag = [["m", 4, 124]] + [["l", r3(4 + 120 * i / 9999), r3(20 + 40 * (i % 2) + 30 * math.sin(i / 300))] for i in range(10000)] + [["l", 124, 124], ["z"]]
scene("fill-10k-segments-jagged", [fill({"elements": jag}, "#903050")])

# --- opacity and colour -------------------------------------------------------------------------------------
scene("opacity-overlap", [{"op": "opacity", "value": 0.5}] +
      [fill({"ellipse": [10 + 18 * i, 20 + 9 * i, 60, 60]}, c) for i, c in enumerate(["red", "green", "blue", "orange", "purple"])])
scene("opacity-translucent-colors", [fill({"rect": [10 + 10 * i, 10 + 10 * i, 60, 60]}, "#%02X%02X%02X%02X" % (40 * i, 255 - 30 * i, 128, 40 + 25 * i))
                                     for i in range(7)])
scene("opacity-copy-scopes", [{"op": "copy", "commands": [{"op": "opacity", "value": 0.3}, fill({"rect": [10, 10, 80, 80]}, "black")]},
                              fill({"rect": [40, 40, 80, 80]}, "#FF000080"),
                              {"op": "copy", "commands": [{"op": "opacity", "value": 0.7}, {"op": "translate", "x": 30, "y": 0},
                                                          fill({"ellipse": [10, 60, 60, 60]}, "blue")]}])
scene("color-spaces", [fill({"rect": [8, 8, 50, 50]}, {"space": "displayP3", "rgba": [1, 0.2, 0.1, 1]}),
                       fill({"rect": [70, 8, 50, 50]}, {"space": "sRGBLinear", "rgba": [0.2, 0.5, 0.1, 0.8]}),
                       fill({"rect": [8, 70, 50, 50]}, {"space": "sRGB", "rgba": [0.1, 0.4, 0.9, 0.5]}),
                       fill({"rect": [70, 70, 50, 50]}, "secondary")])
scene("opaque-canvas", [fill({"ellipse": [20, 20, 88, 88]}, "#FF800080")], opaque=True)

# --- transforms ---------------------------------------------------------------------------------------------
scene("transform-rotate", [{"op": "translate", "x": 64, "y": 64}, {"op": "rotate", "degrees": 27},
                           fill({"rect": [-40, -20, 80, 40]}, "#2050A0"), stroke({"rect": [-30, -30, 60, 60]}, "red", 3)])
scene("transform-nonuniform-scale", [{"op": "scale", "x": 3.3, "y": 0.7}, fill({"ellipse": [3, 20, 30, 120]}, "#208040"),
                                     stroke({"ellipse": [5, 40, 25, 80]}, "black", 2)])
scene("transform-skew", [{"op": "concatenate", "value": [1, 0.2, 0.6, 1, -10, 5]}, fill({"rect": [10, 10, 60, 60]}, "#A04020"),
                         stroke({"rect": [30, 30, 50, 50]}, "blue", 4, join="round")])
scene("transform-skew-stroke-pen", [{"op": "transform", "value": [2.5, 0.3, -0.8, 0.6, 20, 30]},
                                    stroke({"elements": [["m", 5, 10], ["c", 20, -20, 40, 90, 50, 30]]}, "black", 5, cap="round")])
scene("transform-scale-factor-2", [fill({"ellipse": [4.25, 8.5, 55, 40]}, "purple"), stroke({"rect": [10.5, 10.5, 40, 40]}, "black", 0.5)],
      size=(64, 64), scale=2)
scene("transform-fractional-scale", [fill({"ellipse": [4.25, 8.5, 55, 40]}, "purple"), stroke({"rect": [10.5, 10.5, 40, 40]}, "black", 1)],
      size=(80, 80), scale=1.37)
scene("transform-mirror", [{"op": "concatenate", "value": [-1, 0, 0, 1, 128, 0]}, fill(pentagram(50, 60, 40), "#AA2288", eo=True),
                           {"op": "concatenate", "value": [1, 0, 0, -1, 0, 128]}, fill({"rect": [10, 10, 30, 20]}, "green")])

# --- strokes: caps, joins, miter limits, dashes, hairlines ----------------------------------------------------
zig = {"elements": [["m", 14, 100], ["l", 40, 30], ["l", 64, 100], ["l", 90, 30], ["l", 114, 100]]}
for cap in ["butt", "round", "square"]:
    scene("stroke-cap-" + cap, [stroke({"elements": [["m", 20, 20 + 22 * i], ["l", 108, 20 + 22 * i + 9 * i]]}, "black", 2 + 4 * i, cap=cap)
                                for i in range(4)])
for join in ["miter", "round", "bevel"]:
    scene("stroke-join-" + join, [stroke(zig, "#204080", 10, join=join)])
    scene("stroke-join-%s-closed" % join, [stroke(poly([(20, 20), (108, 30), (64, 110)]), "#802040", 9, join=join)])
scene("stroke-miter-limit-low", [stroke(zig, "black", 8, join="miter", miter=1.5)])
scene("stroke-miter-limit-switch", [stroke(poly([(10, 110), (10 + 16 * i, 20), (18 + 16 * i, 110)], close=False), "black", 4, miter=m)
                                    for i, m in enumerate([1.2, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0])])
scene("stroke-sharp-angles", [stroke({"elements": [["m", 10, 20 + 14 * i], ["l", 118, 24 + 14 * i], ["l", 10, 28 + 14 * i]]}, "black", 3, join="miter", miter=100)
                              for i in range(7)])
scene("stroke-dash", [stroke({"elements": [["m", 10, 20 + 20 * i], ["l", 118, 20 + 20 * i]]}, "black", 4, dash=[10, 5 + i], phase=0)
                      for i in range(5)])
scene("stroke-dash-phase", [stroke({"elements": [["m", 10, 20 + 20 * i], ["l", 118, 20 + 20 * i]]}, "black", 4, cap="round", dash=[12, 8], phase=3.3 * i)
                            for i in range(5)])
scene("stroke-dash-odd-pattern", [stroke({"ellipse": [14, 14, 100, 100]}, "#206020", 6, cap="square", dash=[9, 4, 2], phase=2)])
scene("stroke-dash-curve", [stroke({"elements": [["m", 10, 64], ["c", 40, -20, 88, 148, 118, 64]]}, "blue", 3, cap="butt", dash=[5, 3], phase=1.5)])
scene("stroke-hairline-0.1", [stroke({"elements": [["m", 10.3, 10 + 12 * i], ["l", 118.7, 14 + 12 * i + 3 * i]]}, "black", 0.1) for i in range(9)])
scene("stroke-hairline-0.5", [stroke({"ellipse": [10 + 6 * i, 10 + 6 * i, 108 - 12 * i, 108 - 12 * i]}, "black", 0.5) for i in range(8)])
scene("stroke-thick-curve", [stroke({"elements": [["m", 20, 100], ["c", 20, 0, 108, 0, 108, 100]]}, "#C06020", 24, cap="round", join="round")])
scene("stroke-curve-tight-turn", [stroke({"elements": [["m", 20, 64], ["c", 140, 10, -10, 10, 108, 64]]}, "black", 8, join="round")])
scene("stroke-zero-length-dots", [stroke({"elements": [["m", 20 + 20 * i, 40], ["l", 20 + 20 * i, 40]]}, "black", 9, cap="round") for i in range(5)] +
      [stroke({"elements": [["m", 20 + 20 * i, 90], ["l", 20 + 20 * i, 90]]}, "black", 9, cap="square") for i in range(5)])
scene("stroke-self-overlap", [stroke({"elements": [["m", 20, 20], ["l", 108, 108], ["l", 108, 20], ["l", 20, 108]]}, "#00000080", 12, join="bevel")])
scene("stroke-translucent-overlaps", [stroke(zig, "#FF000080", 14, cap="round", join="round"), stroke(poly([(20, 20), (108, 30), (64, 110)]), "#0000FF80", 10)])
scene("stroke-far-offcanvas", [stroke({"elements": [["m", -1e5, 30.5], ["l", 1e5, 90.5]]}, "black", 3),
                               stroke({"ellipse": [-5000, -5000, 10128, 10128]}, "red", 40)])
scene("stroke-10k-segments", [stroke({"elements": spiral}, "#000000C0", 0.7)])
scene("stroke-rounded-rect", [stroke({"roundedRect": [14.5, 14.5, 99, 99], "cornerRadius": 30, "style": "continuous"}, "purple", 7)])

# --- mixes ---------------------------------------------------------------------------------------------------
rnd = random.Random(42)
mix = []
for i in range(60):
    x, y, w, h = rnd.uniform(-20, 140), rnd.uniform(-20, 140), rnd.uniform(2, 50), rnd.uniform(2, 50)
    col = "#%02X%02X%02X%02X" % (rnd.randrange(256), rnd.randrange(256), rnd.randrange(256), rnd.randrange(60, 256))
    kind = i % 4
    if kind == 0:
        mix.append(fill({"ellipse": [r3(x), r3(y), r3(w), r3(h)]}, col))
    elif kind == 1:
        mix.append(fill({"roundedRect": [r3(x), r3(y), r3(w), r3(h)], "cornerRadius": r3(min(w, h) / 4), "style": "circular"}, col))
    elif kind == 2:
        mix.append(fill(poly([(r3(x), r3(y)), (r3(x + w), r3(y + h / 3)), (r3(x + w / 3), r3(y + h))]), col, eo=(i % 8 == 2)))
    else:
        mix.append(stroke({"elements": [["m", r3(x), r3(y)], ["c", r3(x + w), r3(y), r3(x), r3(y + h), r3(x + w), r3(y + h)]]}, col,
                          r3(rnd.uniform(0.5, 8)), cap=rnd.choice(["butt", "round", "square"]), join=rnd.choice(["miter", "round", "bevel"])))
scene("mix-random-60", mix)
scene("mix-random-60-large", mix, size=(128, 128), scale=3)
many = [fill({"rect": [(i % 40) * 6.4 + 0.2, (i // 40) * 6.4 + 0.2, 5.9, 5.9]}, "#%02X40%02X" % ((i * 7) % 256, (i * 13) % 256)) for i in range(1000)]
scene("batch-1000-rects", many, size=(256, 160))


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith(".json"):
            os.remove(os.path.join(OUT, f))
    for name, doc in SCENES.items():
        with open(os.path.join(OUT, name + ".json"), "w") as fh:
            json.dump(doc, fh, separators=(",", ":"))
            fh.write("\n")
    print("%d scenes written to %s" % (len(SCENES), OUT))


if __name__ == "__main__":
    main()
