#!/usr/bin/env bash
# The real-GPU check of issue #4 (conformance and the S1/S2 bench on an NVIDIA card through EGL_EXT_platform_device),
# in two halves, for a session whose `device` tool lends a machine:
#
#   scripts/gpu-device.sh prepare        # here: static release build, scenes and EGL loader packages into .gl/
#   # then, with the device tool: run(command: "bash scripts/gpu-device.sh run", carry: [".gl"])
#
# `prepare` builds canvas-gl with the Swift runtime linked statically (stripped and gzipped, ~23 MB, so the
# working tree stays under the device tool's 64 MiB), copies the bench scenes S1/S2 (../shared does not travel)
# and downloads the amd64 packages of the GL loaders, libpng and libjpeg that a bare device machine lacks.
# `run` unpacks them, points glvnd at NVIDIA's EGL vendor file, prints `canvas-gl info`, compares every
# conformance scene against the reference with both path strategies on DEVICE (default egl-device:0) and
# benches S1/S2 there; the lines and JSON land in $OUT (default .gl/out). `DEVICE=mesa scripts/gpu-device.sh run`
# runs the same steps on llvmpipe, which is how this script is checked without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
GL=.gl

case "${1:-}" in
prepare)
    grep -qx '/.gl/' .git/info/exclude 2>/dev/null || echo /.gl/ >>.git/info/exclude
    mkdir -p "$GL"
    swift build -c release --static-swift-stdlib
    strip -o "$GL/canvas-gl" .build/release/canvas-gl
    gzip -9f "$GL/canvas-gl"
    cp ../shared/bench/scenes/S1-fills.json ../shared/bench/scenes/S2-strokes.json "$GL/"
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    mkdir -p /tmp/amd64/partial
    # shellcheck disable=SC2086
    apt-get $o update -qq
    # shellcheck disable=SC2086
    (cd "$GL" && apt-get $o download libegl1 libglvnd0 libgles2 libopengl0 libgl1 libglx0 libpng16-16 libjpeg62-turbo zlib1g)
    du -sh "$GL"
    ;;
run)
    DEVICE="${DEVICE:-egl-device:0}"
    OUT="${OUT:-$GL/out}"
    mkdir -p "$OUT" /tmp/gpu-device
    if [ "$DEVICE" != mesa ]; then
        for f in "$GL"/*.deb; do dpkg -x "$f" /; done
        ldconfig
        nvidia=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
        [ -f "$nvidia" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$nvidia"
    fi
    cg=/tmp/gpu-device/canvas-gl
    if [ -f "$GL/canvas-gl.gz" ]; then gunzip -c "$GL/canvas-gl.gz" >"$cg"; else cp .build/release/canvas-gl "$cg"; fi
    chmod +x "$cg"
    "$cg" info --device "$DEVICE" | tee "$OUT/info.txt"
    for strategy in gpu-tessellation raster-atlas; do
        pass=0 fail=0
        for scene in Tests/ConformanceTests/scenes/*.json; do
            name=$(basename "$scene" .json)
            if out=$("$cg" compare "$scene" --device "$DEVICE" --path-strategy "$strategy" -o "/tmp/gpu-device/$name.png" 2>&1) \
                && grep -q 'default bar.*: met' <<<"$out"; then
                pass=$((pass + 1))
            else
                fail=$((fail + 1))
            fi
            echo "$strategy $name $(grep -E 'maxDiff|over2' <<<"$out" | tr '\n' ' ')" >>"$OUT/conformance.txt"
        done
        echo "conformance $strategy on $DEVICE: $pass pass, $fail fail" | tee -a "$OUT/summary.txt"
    done
    for strategy in gpu-tessellation raster-atlas; do
        "$cg" bench "$GL/S1-fills.json" "$GL/S2-strokes.json" --device "$DEVICE" --path-strategy "$strategy" \
            --frames 20 --json >"$OUT/bench-$strategy.json"
        "$cg" bench "$GL/S1-fills.json" "$GL/S2-strokes.json" --device "$DEVICE" --path-strategy "$strategy" \
            --frames 20 --stages 2>&1 | tee -a "$OUT/summary.txt"
    done
    ;;
*)
    echo "usage: $0 prepare | run   (see the comment at the top)" >&2
    exit 2
    ;;
esac
