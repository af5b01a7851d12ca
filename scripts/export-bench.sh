#!/usr/bin/env bash
# The export measurement of issue #20 (docs/DESIGN-NOTES.md, "Animation export"), reproducible:
#   1. end to end, an S1-like 1024² animation to a PNG sequence through the pipeline, against the sequential
#      baseline (render, then writePNG at libpng's default, one frame after another), interleaved in one
#      process, RUNS times, medians printed (`canvas-gl animate --bench --runs`);
#   2. resident memory over a 10 000-frame export (VmRSS every 1000 frames).
# The animation is S1-fills (../shared/bench/scenes, beside the repository) as NDJSON: FRAMES lines, the shapes
# shifted 3 pt right per frame over the white background (the first command), so every frame is new geometry.
#   scripts/export-bench.sh            # FRAMES=40 RUNS=5
set -euo pipefail
cd "$(dirname "$0")/.."
FRAMES="${FRAMES:-40}"
RUNS="${RUNS:-5}"
SCENE="${SCENE:-../shared/bench/scenes/S1-fills.json}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swift build -c release --product canvas-gl >/dev/null
cg=.build/release/canvas-gl
python3 - "$SCENE" "$FRAMES" >"$work/s1.ndjson" <<'EOF'
import json, sys
scene = json.load(open(sys.argv[1]))
background, shapes = scene["commands"][0], scene["commands"][1:]
for i in range(int(sys.argv[2])):
    frame = dict(scene)
    frame["commands"] = [background, {"op": "translate", "x": (i * 3) % 64, "y": 0}] + shapes
    print(json.dumps(frame, separators=(",", ":")))
EOF
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$cg" animate "$work/s1.ndjson" -o "$work/frames/" --bench --runs "$RUNS" --quiet
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
"$cg" animate --example clock --frames 10000 --size 64x64 -o "$work/memory/" --bench --quiet | grep -E '^(wrote|memory)'
