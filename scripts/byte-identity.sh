#!/usr/bin/env bash
# Records the SHA-256 of every conformance catalogue scene rendered by the reference and by every GLES form.
#
#   scripts/byte-identity.sh CHECKOUT OUT.txt     # CHECKOUT: a clone or worktree of any commit (default: this one)
#   diff <(cut -c1-64,65- OLD.txt) NEW.txt        # the scenes whose bytes changed
#
# The tool in scripts/byte-identity builds in release against CHECKOUT, so an old commit and the head are
# recorded by the same code. Rendering ~4 000 images takes a few minutes on 2 cores.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
checkout="$(cd "${1:-$here/..}" && pwd)"
out="${2:-byte-identity.txt}"
scratch="${BYTE_IDENTITY_BUILD:-$checkout/.build-byte-identity}"
GPUCANVAS_CHECKOUT="$checkout" swift build -c release --package-path "$here/byte-identity" --scratch-path "$scratch" >&2
GPUCANVAS_CHECKOUT="$checkout" "$scratch/release/byte-identity" "$checkout/Tests/ConformanceTests/scenes" "${@:3}" > "$out"
echo "$(wc -l < "$out") digests in $out ($(grep -c error: "$out" || true) errors)" >&2
