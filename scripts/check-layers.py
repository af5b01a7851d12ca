#!/usr/bin/env python3
"""Checks the package's module layers from its manifest (`swift package dump-package`).

The stages are SwiftPM targets, so an import across a missing edge does not compile; this check keeps the edges
themselves from growing back: GPUCanvasCore depends on no other Swift module of the package, and the two
backends, GPUCanvasReference and GPUCanvasGLES, depend on Core and not on each other (so the reference builds
without the GLES target: `swift build --target GPUCanvasReference`).
"""
import json
import subprocess
import sys

manifest = json.loads(subprocess.run(['swift', 'package', 'dump-package'], check=True, capture_output=True,
                                     text=True).stdout)
deps = {}
for t in manifest['targets']:
    names = []
    for d in t.get('dependencies', []):
        for kind in ('byName', 'target', 'product'):
            if kind in d:
                names.append(d[kind][0])
    deps[t['name']] = names


def closure(name, seen=None):
    seen = set() if seen is None else seen
    for d in deps.get(name, []):
        if d not in seen:
            seen.add(d)
            closure(d, seen)
    return seen


swift_modules = {'GPUCanvasCore', 'GPUCanvasReference', 'GPUCanvasGLES', 'GPUCanvas'}
rules = {
    'GPUCanvasCore': set(),
    'GPUCanvasReference': {'GPUCanvasCore'},
    'GPUCanvasGLES': {'GPUCanvasCore'},
}
failed = False
for target, allowed in rules.items():
    reached = closure(target) & swift_modules
    extra = reached - allowed
    print(f'{target} → {", ".join(sorted(reached)) or "no Swift module of the package"}')
    if extra:
        print(f'  error: {target} must not depend on {", ".join(sorted(extra))}')
        failed = True
print('layers: ' + ('FAILED' if failed else 'ok'))
sys.exit(1 if failed else 0)
