#!/usr/bin/env bash
# CI: a short, deterministic differential fuzz run (scripts/fuzz.py) against the debug canvas-gl.
#
# The same seed and count every time, so a failure here is reproducible anywhere with the command printed
# below. The reducer's self-test runs first (no canvas-gl needed). Failures that match a defect listed in
# KNOWN in scripts/fuzz.py (being fixed elsewhere) are reported but do not fail the run (--known-ok).
# A few minutes on 2 cores (100 scenes × 5 forms and 100 mutants, in a debug build: 851 s with the machine
# shared, its slowest scene 30 s, hence --timeout 120 for a hang). Reduced failing scenes land in
# fuzz-out/ci/ (FUZZ_OUT overrides).
#
#   scripts/fuzz-ci.sh                 # builds canvas-gl (debug) if it is missing
#   CANVAS_GL=path/to/canvas-gl scripts/fuzz-ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${CANVAS_GL:-.build/debug/canvas-gl}
out=${FUZZ_OUT:-fuzz-out/ci}
if [[ ! -x "$exe" ]]; then
    swift build --product canvas-gl
fi
python3 scripts/fuzz.py --self-test
rm -rf "$out"
echo "fuzz-ci: python3 scripts/fuzz.py --seed 20261201 --count 100 --jobs 2 --mode both --known-ok --reduce-seconds 20 --timeout 120 --canvas-gl $exe --out $out"
exec python3 scripts/fuzz.py --seed 20261201 --count 100 --jobs 2 --mode both --known-ok --reduce-seconds 20 --timeout 120 \
    --canvas-gl "$exe" --out "$out"
