#!/usr/bin/env bash
# README command 1: install what is missing, build canvas-gl (release), render every example into demo/, and
# export two animations there.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product canvas-gl
.build/release/canvas-gl examples --render-to demo
# And two animations: the clock as an animated PNG, the digital rain as a short PNG sequence.
mkdir -p demo
.build/release/canvas-gl animate --example clock --duration 2 --quiet -o demo/clock.apng
.build/release/canvas-gl animate --example digital-rain --frames 12 --quiet -o demo/digital-rain/
echo "demo frames written to $(pwd)/demo"
