#!/usr/bin/env bash
# README command 1: install what is missing, build canvas-gl (release), render every example into demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
swift build -c release --product canvas-gl
.build/release/canvas-gl examples --render-to demo
echo "demo frames written to $(pwd)/demo"
