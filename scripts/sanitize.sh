#!/usr/bin/env bash
# The memory and thread checks of the unsafe code (raw scratch buffers, staging, worker arenas, parallel
# coverage): not part of CI, whose budget they would double; run it after touching the rasterizers.
#
#   scripts/sanitize.sh                      # every step; prints one line per step, exits non-zero on any report
#   SANITIZE_STEPS="tests fuzz" scripts/sanitize.sh     # some of: tests catalogue fuzz tsan
#   SANITIZE_FUZZ_COUNT=1000 (default)       # scenes of step 4
#
# 1. AddressSanitizer (Swift and C) and UndefinedBehaviorSanitizer (C) together over the whole test suite
#    (build in .build-asan; UBSan halts on its first report, so a report fails the step). Leak checking is off: Mesa's EGL and
#    LLVM keep a few driver allocations to process exit (112 bytes in 2 blocks from an unloaded module, seen on
#    every GLES run) and their stacks cannot be symbolised. The resident-memory checks run apart
#    (`GLESResourceTests` and the glyph caches' thousand frames measure RSS, and ASan's quarantine, freed blocks
#    kept poisoned up to 256 MiB, makes it grow by design): with the quarantine off.
# 2. AddressSanitizer over `canvas-gl compare` of every catalogue scene, with each path strategy and the
#    raster atlas's R8 form (the CLI path: scene loading, validation, PNG writing).
# 4. ASan + UBSan under the fuzzer: SANITIZE_FUZZ_COUNT scenes of a fixed seed and their malformed mutants
#    (scripts/fuzz.py --mode both) on the paint and tessellation forms; a report ends the process with a
#    non-zero status, which the fuzzer counts as a crash and saves.
# 5. ThreadSanitizer over the same compares (the coverage workers, the planner's parallel geometry), and
#    over `ConcurrentRenderersTests` (several renderers on their own threads at once, sharing the display).
set -euo pipefail
cd "$(dirname "$0")/.."
scenes=(Tests/ConformanceTests/scenes/*.json)
forms=("--path-strategy raster-atlas" "--path-strategy raster-atlas --no-paint-atlas" "--path-strategy gpu-tessellation")
reports=0
steps=${SANITIZE_STEPS:-tests catalogue fuzz tsan}
wants() { [[ " $steps " == *" $1 "* ]]; }
# Swift has no UBSan (`-sanitize=undefined` is refused): its own arithmetic, bounds and conversions trap in a
# debug build anyway. UBSan covers the C targets (CICU, CJPEG's shim, CMark's use), halting on the first report;
# its handlers link from the ASan runtime.
sanitizers=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

step() { printf '%s\n' "$*"; }

# Runs canvas-gl compare of every scene in every form; counts outputs that carry a sanitizer report or a
# failed comparison.
compare_all() {
    local binary=$1 name=$2 bad=0 out
    for scene in "${scenes[@]}"; do
        for form in "${forms[@]}"; do
            # shellcheck disable=SC2086
            if ! out=$("$binary" compare "$scene" $form -o /tmp/sanitize-diff.png 2>&1) \
                || grep -qE 'Sanitizer|runtime error' <<<"$out"; then
                bad=$((bad + 1))
                printf '%s %s %s:\n%s\n' "$name" "$scene" "$form" "$(head -40 <<<"$out")"
            fi
        done
    done
    step "$name: ${#scenes[@]} scenes × ${#forms[@]} forms, $bad with a report or a failure"
    reports=$((reports + bad))
}

export ASAN_OPTIONS=detect_leaks=0
# The tests that hold resident memory flat over many frames (`assertFlatOverSoakFrames`). The glyph
# cache's is left out: its masks legitimately fill towards their 8 MiB bound within the measured frames
# (6.3 MB of the 8 MiB allowance in a normal build), and ASan's redzones around a thousand masks take it past.
rss_tests='GLESResourceTests'
if wants tests; then
    if swift test "${sanitizers[@]}" --build-path .build-asan \
        --skip "$rss_tests|TextDrawingTests.testGlyphCacheStaysBoundedOverThousandFramesOfChangingText" \
        >/tmp/sanitize-asan-tests.log 2>&1 \
        && ASAN_OPTIONS=detect_leaks=0:quarantine_size_mb=0:thread_local_quarantine_size_kb=0 \
            swift test "${sanitizers[@]}" --build-path .build-asan \
            --filter "$rss_tests" >>/tmp/sanitize-asan-tests.log 2>&1; then
        step "asan+ubsan tests: passed (log /tmp/sanitize-asan-tests.log)"
    else
        step "asan+ubsan tests: FAILED (log /tmp/sanitize-asan-tests.log)"
        reports=$((reports + 1))
    fi
    if grep -qE 'AddressSanitizer|runtime error:' /tmp/sanitize-asan-tests.log; then
        step "asan+ubsan tests: sanitizer report in the log"
        reports=$((reports + 1))
    fi
fi

if wants catalogue || wants fuzz; then
    swift build "${sanitizers[@]}" --build-path .build-asan --product canvas-gl >/dev/null
fi
if wants catalogue; then
    compare_all .build-asan/debug/canvas-gl asan+ubsan
fi
if wants fuzz; then
    count=${SANITIZE_FUZZ_COUNT:-1000}
    # A sanitizer report ends the process non-zero, which the fuzzer counts as a crash; its over-bar findings
    # are the differential fuzzer's business (scripts/fuzz.py), not a sanitizer's.
    python3 scripts/fuzz.py --seed 20261128 --count "$count" --mode both --forms atlas-paint,tessellation \
        --known-ok --no-reduce --timeout 120 --canvas-gl .build-asan/debug/canvas-gl --out /tmp/sanitize-fuzz \
        >/tmp/sanitize-fuzz.log 2>&1 || true
    if grep -q 'failures (crash 0, verdict 0' /tmp/sanitize-fuzz.log && ! grep -qE 'Sanitizer|runtime error:' /tmp/sanitize-fuzz.log; then
        step "asan+ubsan fuzz: $(tail -1 /tmp/sanitize-fuzz.log)"
    else
        step "asan+ubsan fuzz: FAILED: $(tail -1 /tmp/sanitize-fuzz.log) (log /tmp/sanitize-fuzz.log, scenes /tmp/sanitize-fuzz)"
        reports=$((reports + 1))
    fi
fi

unset ASAN_OPTIONS
if wants tsan; then
    swift build --sanitize=thread --build-path .build-tsan --product canvas-gl >/dev/null
    compare_all .build-tsan/debug/canvas-gl tsan
    if swift test --sanitize=thread --build-path .build-tsan --filter ConcurrentRenderersTests \
        >/tmp/sanitize-tsan-tests.log 2>&1 && ! grep -q 'ThreadSanitizer' /tmp/sanitize-tsan-tests.log; then
        step "tsan concurrent renderers: passed"
    else
        step "tsan concurrent renderers: FAILED (log /tmp/sanitize-tsan-tests.log)"
        reports=$((reports + 1))
    fi
fi

step "sanitize: $reports problem(s)"
[ "$reports" -eq 0 ]
