#!/usr/bin/env bash
# The real-GPU check of issue #4 (conformance and the S1/S2 bench on an NVIDIA card through EGL_EXT_platform_device),
# in two halves, for a session whose `device` tool lends a machine:
#
#   scripts/gpu-device.sh prepare        # here: static release build, scenes and EGL loader packages into .gl/
#   # then, with the device tool: run(command: "bash scripts/gpu-device.sh run", carry: [".gl"])
#
# `prepare` builds canvas-gl with the Swift runtime linked statically (stripped and gzipped, ~23 MB, so the
# working tree stays under the device tool's 64 MiB), copies the bench scenes S1, S2, S4 and S6 (../shared does
# not travel) and downloads the amd64 packages a bare device machine lacks: the GL loaders, libpng, libjpeg, and
# the text engine's libraries and fonts.
# `run` unpacks them, points glvnd at NVIDIA's EGL vendor file, prints `canvas-gl info`, compares every
# conformance scene against the reference with both path strategies on DEVICE (default egl-device:0) and
# benches S1/S2 there; the lines and JSON land in $OUT (default .gl/out). `DEVICE=mesa scripts/gpu-device.sh run`
# runs the same steps on llvmpipe, which is how this script is checked without a GPU (SCENES='glob' narrows the
# conformance scenes).
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
    # The GLSL programs: Bundle.module looks beside the executable before the build folder's absolute path.
    rm -rf "$GL/GPUCanvas_Shaders.resources"
    cp -R .build/release/GPUCanvas_Shaders.resources "$GL/"
    cp ../shared/bench/scenes/S1-fills.json ../shared/bench/scenes/S2-strokes.json ../shared/bench/scenes/S4-blur-layers.json \
        ../shared/bench/scenes/S6-text.json "$GL/"
    o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
    mkdir -p /tmp/amd64/partial
    # shellcheck disable=SC2086
    apt-get $o update -qq
    # shellcheck disable=SC2086
    (cd "$GL" && apt-get $o download libegl1 libglvnd0 libgles2 libopengl0 libgl1 libglx0 libpng16-16 libjpeg62-turbo zlib1g)
    # The text engine's libraries and fonts (both backends on the device read the same faces, so the comparison
    # holds whatever is installed; Noto Color Emoji, 10 MB, is left out to stay under the 64 MiB carry).
    # shellcheck disable=SC2086
    (cd "$GL" && apt-get $o download libfreetype6 libharfbuzz0b libfontconfig1 fontconfig-config fontconfig \
        libicu72 libgraphite2-3 libbrotli1 libexpat1 libglib2.0-0 libpcre2-8-0 fonts-dejavu-core \
        fonts-liberation2 fonts-inter fonts-noto-core fonts-wqy-microhei)
    du -sh "$GL"
    ;;
run)
    DEVICE="${DEVICE:-egl-device:0}"
    OUT="${OUT:-$GL/out}"
    mkdir -p "$OUT" /tmp/gpu-device
    if [ "$DEVICE" != mesa ]; then
        for f in "$GL"/*.deb; do dpkg -x "$f" /; done
        ldconfig
        command -v fc-cache >/dev/null && fc-cache -f >/dev/null 2>&1 || true
        nvidia=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
        [ -f "$nvidia" ] && export __EGL_VENDOR_LIBRARY_FILENAMES="$nvidia"
    fi
    cg=/tmp/gpu-device/canvas-gl
    if [ -f "$GL/canvas-gl.gz" ]; then
        gunzip -c "$GL/canvas-gl.gz" >"$cg"
        rm -rf /tmp/gpu-device/GPUCanvas_Shaders.resources
        cp -R "$GL/GPUCanvas_Shaders.resources" /tmp/gpu-device/
    else
        cp .build/release/canvas-gl "$cg"
        cp -R .build/release/GPUCanvas_Shaders.resources /tmp/gpu-device/
    fi
    chmod +x "$cg"
    "$cg" info --device "$DEVICE" | tee "$OUT/info.txt"
    "$cg" info --fonts >>"$OUT/info.txt"
    # One scene per process, eight at a time (the device has 16 cores; each compare opens its own EGL display).
    compare_one() {
        local strategy=$1 scene=$2 out verdict
        out=$("$cg" compare "$scene" --device "$DEVICE" --path-strategy "$strategy" 2>&1) || true
        if grep -q 'default bar.*: met' <<<"$out"; then verdict=pass; else verdict=FAIL; fi
        echo "$strategy $(basename "$scene" .json) $verdict $(grep -E 'maxDiff|over2|Error' <<<"$out" | tr '\n' ' ')"
    }
    export -f compare_one
    export cg DEVICE
    for strategy in gpu-tessellation raster-atlas; do
        # shellcheck disable=SC2086
        printf '%s\n' ${SCENES:-Tests/ConformanceTests/scenes/*.json} \
            | xargs -P 8 -I{} bash -c 'compare_one "$0" "$1"' "$strategy" {} >>"$OUT/conformance.txt"
        pass=$(grep -c "^$strategy .* pass " "$OUT/conformance.txt" || true)
        fail=$(grep -c "^$strategy .* FAIL " "$OUT/conformance.txt" || true)
        echo "conformance $strategy on $DEVICE: $pass pass, $fail fail" | tee -a "$OUT/summary.txt"
    done
    for strategy in gpu-tessellation raster-atlas; do
        "$cg" bench "$GL"/S*.json --device "$DEVICE" --path-strategy "$strategy" \
            --frames 20 --json >"$OUT/bench-$strategy.json"
        "$cg" bench "$GL"/S*.json --device "$DEVICE" --path-strategy "$strategy" \
            --frames 20 --stages 2>&1 | tee -a "$OUT/summary.txt"
    done
    ;;
*)
    echo "usage: $0 prepare | run   (see the comment at the top)" >&2
    exit 2
    ;;
esac
