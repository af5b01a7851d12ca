#!/usr/bin/env python3
"""Writes the symbol speed-target scenes (issue #19): one symbol drawn 10 000 times against 10 000 solid rectangles.

Target: "A symbol drawn 10 000 times costs ≤ 2× the same number of solid rectangles on llvmpipe". Both scenes
put 10 000 7 × 5 pt items on the same 100 × 100 grid of an 800 × 600 canvas:
- symbol-10k.json: a symbol (a 7 × 5 rounded rect fill, corner radius 2) drawn with
  `{"op": "symbol", "at": [x, y], "anchor": [0, 0]}`, i.e. `context.draw(symbol, at:anchor:)`;
- rects-10k.json: `fill(Path(CGRect(x, y, 7, 5)))` at the same places in the same colour.
Run from anywhere: `python3 scripts/bench/make_symbol_bench.py` (deterministic), then
`.build/release/canvas-gl bench scripts/bench/symbol-10k.json scripts/bench/rects-10k.json --frames 10`.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
COUNT = 10_000
COLUMNS = 100
W, H = 7, 5
COLOR = "#3366CC"


def places():
    for k in range(COUNT):
        yield (k % COLUMNS) * 8, (k // COLUMNS) * 6


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as fh:
        json.dump(doc, fh, separators=(",", ":"))
        fh.write("\n")


def main():
    header = {"format": "gpucanvas-scene/1", "size": [800, 600]}
    symbol = {"size": [W, H], "commands": [{"op": "fill", "path": {"roundedRect": [0, 0, W, H], "cornerRadius": 2},
                                            "shading": {"color": COLOR}}]}
    write("symbol-10k.json", dict(header, resources={"symbols": {"chip": symbol}},
                                  commands=[{"op": "symbol", "symbol": "chip", "at": [x, y], "anchor": [0, 0]}
                                            for x, y in places()]))
    write("rects-10k.json", dict(header, commands=[{"op": "fill", "path": {"rect": [x, y, W, H]}, "shading": {"color": COLOR}}
                                                   for x, y in places()]))
    print("wrote symbol-10k.json and rects-10k.json (%d items each) to %s" % (COUNT, HERE))


if __name__ == "__main__":
    main()
