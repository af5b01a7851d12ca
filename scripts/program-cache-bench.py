#!/usr/bin/env python3
"""What the GLES program-binary cache saves a one-shot process, beside Mesa's own shader cache.

    scripts/program-cache-bench.py [--runs 5] [--binary .build/release/canvas-gl] [EXAMPLE ...]

Each run is a fresh `canvas-gl render --example NAME --timings --device mesa` process in one of these states:
Mesa's disk cache empty (MESA_SHADER_CACHE_DIR a new folder), warm (a folder one uncounted run filled) or off
(MESA_SHADER_CACHE_DISABLE=true) × our program cache none (--program-cache none), empty (a new folder) or warm
(a folder one uncounted run filled); and the reference backend. Runs are interleaved, round after round of
every example and state, so the machine's load falls on all alike; the table gives medians (ms).
Columns: total = spawn → PNG written; renderer = CanvasRenderer() (EGL + the base programs); first frame =
the first render (the variants it needs, llvmpipe's per-state JIT, drawing); built / loaded = programs compiled
from source / loaded from binaries; ms per build / per load = the cache's own timers over those programs.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

STATES = [
    ("empty", "none"), ("empty", "empty"), ("empty", "warm"),
    ("warm", "none"), ("warm", "empty"), ("warm", "warm"),
    ("off", "warm"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--binary", default=".build/release/canvas-gl")
    parser.add_argument("examples", nargs="*", default=["blend-modes", "blurs-and-shadows"])
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary} is not an executable: swift build -c release --product canvas-gl")
    scratch = tempfile.mkdtemp(prefix="program-cache-bench-")
    try:
        run_all(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def render(args, scratch, example, mesa, ours, backend="gles"):
    """One fresh process; returns (total ms, the timings object)."""
    env = dict(os.environ)
    env.pop("MESA_SHADER_CACHE_DISABLE", None)
    env["MESA_SHADER_CACHE_DIR"] = mesa if mesa != "off" else os.path.join(scratch, "unused")
    if mesa == "off":
        env["MESA_SHADER_CACHE_DISABLE"] = "true"
    cmd = [args.binary, "render", "--example", example, "-o", os.path.join(scratch, "out.png"), "--timings",
           "--backend", backend]
    if backend == "gles":
        cmd += ["--device", "mesa", "--program-cache", ours]
    spawned = time.monotonic_ns()  # CLOCK_MONOTONIC, the clock of the tool's stamps
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr}")
    line = [l for l in p.stderr.splitlines() if l.startswith("timings: ")][-1]
    t = json.loads(line[len("timings: "):])
    return (t["written"] - spawned) / 1e6, t


def run_all(args, scratch):
    def fresh(name):
        d = tempfile.mkdtemp(prefix=name + "-", dir=scratch)
        return d

    warm_mesa, warm_ours = {}, {}
    for e in args.examples:
        warm_mesa[e] = fresh(f"mesa-warm-{e}")
        render(args, scratch, e, warm_mesa[e], "none")
        warm_ours[e] = fresh(f"ours-warm-{e}")
        render(args, scratch, e, fresh("mesa-throwaway"), warm_ours[e])
    results = {}
    for _ in range(args.runs):
        for e in args.examples:
            for mesa, ours in STATES:
                mesa_dir = {"empty": None, "warm": warm_mesa[e], "off": "off"}[mesa] or fresh("mesa-empty")
                ours_arg = {"none": "none", "empty": fresh("ours-empty"), "warm": warm_ours[e]}[ours]
                results.setdefault((e, mesa, ours), []).append(render(args, scratch, e, mesa_dir, ours_arg))
            results.setdefault((e, "reference", ""), []).append(render(args, scratch, e, fresh("m"), "none", "reference"))

    def med(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    def f(v, digits=0):
        return "-" if v is None else f"{v:.{digits}f}"

    print(f"Fresh process per run, medians of {args.runs} interleaved runs, ms; --device mesa.")
    print("| example | Mesa cache | our cache | total | renderer | first frame | built | ms per build | loaded | "
          "ms per load | store | × reference |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for e in args.examples:
        ref = med([r[0] for r in results[(e, "reference", "")]])
        for mesa, ours in STATES + [("reference", "")]:
            rs = results[(e, mesa, ours)]
            total = med([r[0] for r in rs])
            def m(key):
                return med([r[1].get(key) for r in rs])
            hits = m("programCacheHits")
            per_build = med([r[1]["programCacheBuild"] / r[1]["programCacheMisses"]
                             for r in rs if r[1].get("programCacheMisses")])
            per_load = med([r[1]["programCacheLoad"] / r[1]["programCacheHits"]
                            for r in rs if r[1].get("programCacheHits")])
            built = med([r[1]["programsAfterFirstFrame"] - r[1].get("programCacheHits", 0)
                         for r in rs if "programsAfterFirstFrame" in r[1]])
            print(f"| {e} | {mesa} | {ours or '-'} | {f(total)} | {f(m('renderer'))} | {f(m('firstFrame'))} | "
                  f"{f(built)} | {f(per_build, 1)} | {f(hits)} | {f(per_load, 2)} | {f(m('programCacheStore'))} | "
                  f"{total / ref:.2f}× |")


if __name__ == "__main__":
    main()
