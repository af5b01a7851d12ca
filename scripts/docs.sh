#!/usr/bin/env bash
# Builds the DocC reference of GPUCanvas as a user sees it (`import GPUCanvas`), with no warning allowed.
#
#   scripts/docs.sh [OUTPUT.doccarchive] [-- extra docc flags, e.g. --transform-for-static-hosting]
#   scripts/docs.sh --check-only          # only the articles' code and manifest checks
#
# 1. Every ```swift block of the catalogue's articles (Sources/GPUCanvas/GPUCanvas.docc) is type-checked on its
#    own against the built GPUCanvas module, and a block that is a whole Package.swift is resolved as a client
#    package of this checkout: the articles' code is real and compiles.
# 2. The symbol graph of the GPUCanvas module is extracted with the symbols of the package's own modules that it
#    re-exports (`@_exported import GPUCanvasCore`, once the package is split into targets), so the reference
#    shows `Path` and `Color` under GPUCanvas, where users find them. `swift package generate-documentation
#    --target GPUCanvas` documents only the symbols declared in the GPUCanvas module itself; the plugin has no
#    option for re-exported modules, so this script runs swift-symbolgraph-extract with the command line SwiftPM
#    uses (`swift package --very-verbose dump-symbol-graph` prints it) plus
#    `-experimental-allowed-reexported-modules`.
# 3. `docc convert --warnings-as-errors` builds the archive (default .build/docs/GPUCanvas.doccarchive).
#
# After the split into GPUCanvasCore / GPUCanvasReference / GPUCanvasGLES / GPUCanvas:
# - this script needs no change: GPUCanvas's `@_exported import GPUCanvasCore` brings Core's public symbols
#   into the one GPUCanvas module of the archive, and the catalogue is found in the GPUCanvas target's folder;
#   `package` symbols are not public and stay out;
# - `swift package generate-documentation --target GPUCanvas` then documents GPUCanvas's own declarations
#   only, and warns on every ``Path``-style link to a Core type. The plugin's own answer is
#   `--enable-experimental-combined-documentation --target GPUCanvasCore --target GPUCanvas`: one archive
#   with a page per module, where a link across modules must be written ``/GPUCanvasCore/Path`` (checked
#   with a two-target package: ``Path`` and ``GPUCanvasCore/Path`` both warn). Users would then find `Path`
#   under a module they never import; this script shows it where they do.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=.build/docs/GPUCanvas.doccarchive
check_only=false
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --check-only) check_only=true ;;
    --) shift; extra=("$@"); break ;;
    *) out=$1 ;;
  esac
  shift
done
work=.build/docs-work
rm -rf "$work"; mkdir -p "$work"

# The symbol graphs of every module, and the extractor's command line for GPUCanvas (its include paths and
# module maps serve the type-checks too). Builds what is not built yet.
swift package --very-verbose dump-symbol-graph --emit-extension-block-symbols >"$work/dump.log" 2>&1 || {
  tail -30 "$work/dump.log" >&2; echo "docs.sh: swift package dump-symbol-graph failed" >&2; exit 1; }
extract=$(grep -o '/[^ ]*swift-symbolgraph-extract -module-name GPUCanvas .*' "$work/dump.log" | head -1)
[ -n "$extract" ] || { echo "docs.sh: no swift-symbolgraph-extract line for GPUCanvas in $work/dump.log" >&2; exit 1; }

# The package's own modules that GPUCanvas re-exports (none while the package is one target).
swift package describe --type json >"$work/describe.json"
target_dir=$(python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["targets"]:
    if t["name"] == "GPUCanvas": print(t["path"])' "$work/describe.json")
own=$(python3 -c '
import json, sys
for t in json.load(open(sys.argv[1]))["targets"]: print(t["name"])' "$work/describe.json")
catalogue=$target_dir/GPUCanvas.docc
[ -d "$catalogue" ] || { echo "docs.sh: no catalogue at $catalogue" >&2; exit 1; }
reexported=$({ grep -rhoE '^@_exported import [A-Za-z_0-9]+' "$target_dir" --include='*.swift' || true; } | awk '{print $3}' |
  sort -u | while read -r m; do if echo "$own" | grep -qx "$m"; then echo "$m"; fi; done | paste -sd, -)

python3 - "$extract" "$work" "$catalogue" "$root" <<'EOF'
import os, re, shlex, subprocess, sys
extract, work, catalogue, root = sys.argv[1:5]
args = shlex.split(extract)
# The flags that say where modules and headers are, reused for swiftc's type-checks.
flags, i = [], 1
while i < len(args):
    a = args[i]
    if a in ("-Xcc", "-I", "-target", "-module-cache-path"):
        flags += [a, args[i + 1]]; i += 2; continue
    if a.startswith("-I"):
        flags.append(a)
    i += 1
failed = 0
for name in sorted(os.listdir(catalogue)):
    if not name.endswith(".md"):
        continue
    text = open(os.path.join(catalogue, name)).read()
    for k, block in enumerate(re.findall(r"```swift\n(.*?)```", text, re.S)):
        where = f"{catalogue}/{name}, swift block {k + 1}"
        d = os.path.join(work, f"{name[:-3]}-{k + 1}")
        if block.startswith("// swift-tools-version"):
            # A client's Package.swift: resolve it against this checkout, reached as ../GPUCanvas.
            client = os.path.join(d, "Client")
            os.makedirs(client)
            os.symlink(root, os.path.join(d, "GPUCanvas"))
            open(os.path.join(client, "Package.swift"), "w").write(block)
            cmd = ["swift", "package", "--package-path", client, "describe"]
        else:
            os.makedirs(d)
            open(os.path.join(d, "main.swift"), "w").write(block)
            cmd = ["swiftc", "-typecheck", os.path.join(d, "main.swift")] + flags
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            failed += 1
            print(f"docs.sh: {where} does not compile:\n{r.stdout}{r.stderr}", file=sys.stderr)
        else:
            print(f"checked {where}")
sys.exit(1 if failed else 0)
EOF
$check_only && exit 0

graphs=$work/symbol-graphs
mkdir -p "$graphs"
read -r -a cmd <<<"$extract"
filtered=()
skip=false
for a in "${cmd[@]}"; do
  if $skip; then skip=false; continue; fi
  case "$a" in
    -output-dir) skip=true ;;
    -v) ;;
    *) filtered+=("$a") ;;
  esac
done
[ -n "$reexported" ] && filtered+=("-experimental-allowed-reexported-modules=$reexported")
"${filtered[@]}" -output-dir "$graphs" >"$work/extract.log" 2>&1 || { cat "$work/extract.log" >&2; exit 1; }
echo "symbol graph: GPUCanvas${reexported:+ with $reexported}"

rm -rf "$out"; mkdir -p "$(dirname "$out")"
docc convert "$catalogue" --additional-symbol-graph-dir "$graphs" \
  --fallback-display-name GPUCanvas --fallback-bundle-identifier GPUCanvas \
  --output-path "$out" --warnings-as-errors ${extra[@]+"${extra[@]}"} 2>&1 | tee "$work/docc.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "docs.sh: docc convert failed (warnings are errors)" >&2; exit 1; }
echo "documentation archive: $out"
