#!/usr/bin/env python3
"""Differential fuzzer: random valid scenes, rendered by the reference backend and every GLES form, compared.

    scripts/fuzz.py [--seed N] [--count K | --minutes M] [--canvas-gl PATH] [--out DIR] [--mode valid|malformed|both]
                    [--forms all|LIST] [--features default|all|LIST] [--jobs J] [--known-ok]
    scripts/fuzz.py --seed 7 --minutes 60 --known-ok      # the one-hour hunt: every form, both modes, both policies
    scripts/fuzz.py --seed N --print-scene I      # the JSON of scene I of seed N, nothing rendered
    scripts/fuzz.py --self-test                   # the reducer and the generator, no canvas-gl needed

Scene I of seed N is always the same scene: its generator is `random.Random("gpucanvas-fuzz:N:I")`, whatever
--count, --jobs or --minutes say. Python 3 standard library only.

Each scene is checked against each GLES form (`--device mesa` always) with
`canvas-gl compare SCENE --backends reference,gles --device mesa FLAGS`:

  crash     a signal, an exit status other than 0 or 1 (1 is the tool's clean `Error: ...` exit), or a
            process still running after --timeout seconds;
  verdict   one backend renders and the other rejects, or both reject with different words (messages are
            compared after dropping the backend's own name: "... on the GLES backend (only ...)");
  over-bar  both render and the images miss the project's default bar (maxDiff <= 8 and over2 <= 0.1 %).

Rejections at load time (`SCENE: commands[3]: not supported yet: clip`) come from the one loader both
backends share, so they always agree. When compare does not print numbers, the tool renders the scene with
each backend alone (`render --backend ... -o /dev/null`) to say which side crashed or refused.

A failing scene is reduced (delta debugging: drop commands, unwrap scopes, drop optional keys, simplify
paths element by element, round numbers, shrink the canvas) while the same failure persists on the same
form, then saved as DIR/<kind>-<seed>-<index>.json with a one-line .txt beside it (kind, form, numbers or
error texts, and the canvas-gl command that reproduces it).

Modes (--mode, default both): `valid` checks each generated scene on every form; `malformed` checks a mutant of
it (1–3 structural mutations: keys dropped, values of the wrong type or of an extreme magnitude, op names swapped,
lists repeated; and now and then a raw-text one: truncation, `1e999`, invalid UTF-8, 300-deep nesting) on one
form, the forms taking turns, for crashes, hangs and split verdicts; `both` does both for every index.

Diagnostics policies (--policy, default both): canvas-gl renders leniently (what it skips is a `warning:`, and
`compare` fails when the two backends' warnings differ) or with `--strict` (each warning is the error both
backends must give with the same words); `both` alternates scene by scene (forms then read `FORM+strict`).

Text and numbers hunt (2026-11-28): a text op's string is built from runs of every Unicode general category and
every UAX #14 line-break class (Debian's unicode-data: UnicodeData.txt, LineBreak.txt), emoji-test.txt
sequences (flags, ZWJ families), hostile strings (U+FFFE/U+FFFF, lone surrogates as JSON escapes, C0/C1
controls, unbalanced bidi controls, 50 stacked combining marks) and now and then 2 000–20 000 characters; spans
(`Text + Text`) with their modifiers, text styles, designs, numeric weights. In wild scenes (30 %) every numeric
key, not only coordinates, may take a value from MAGNITUDES: 0, subnormals, 1e-8, 2^15 ± 1, 2^16, 2^31 ± 1, 2^32,
2^53, Float's largest ± 1 ulp, 1e300, the largest Double, and the documented limits (10^6, 4096, 16384, 65536)
± 1 ulp.

GLES forms (--forms): atlas-paint (`--path-strategy raster-atlas`, llvmpipe's paint atlas), atlas-r8
(`--path-strategy raster-atlas --no-paint-atlas`), atlas-copy (below), tessellation (`--path-strategy
gpu-tessellation`) and atlas-r32f (`--coverage-format r32f`, the float coverage the conformance suite also runs;
R16F differs from it only in texel precision).

Generator features (--features): `default` is what both backends draw today (fill, stroke, state ops, copy
scopes, the opaque key, clip, layer, clipToLayer, blendMode (all 28 names), gradient (linear/radial/conic
and mesh gradient shadings), colorMode (linear, extendedLinear), image (pngBase64 resources with the `template`,
`interpolation` and `scale` keys, the image op with `in` or `at`/`anchor`, a template's colour `shading`, the
tiledImage shading), filter (the colour filters, with and without linearColor), text (the text op: strings
with ligatures, accents, Arabic, arrows and newlines in the DejaVu faces at 1–60 pt, weights, italics, any
shading, `at`/`anchor`, `in` or `baselineOrigin`) and symbol (scene symbols drawn `at` or `in`); 2026-11-26,
with text and symbol on: seeds 20261201 (100 scenes), 7 and 8 (150 each) agree on every form, --known-ok).
Adding a feature is one generator method and one line in FEATURES. The `atlas-copy` form draws blend modes through a destination copy
(`--blend-route destination-copy`), the route GPUs without framebuffer fetch take.
"""
import argparse
import base64
import concurrent.futures
import copy
import decimal
import json
import math
import os
import random
import re
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

FORMAT = "gpucanvas-scene/1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The GLES forms, as canvas-gl flags. `--device mesa` is added to every one.
FORMS = {
    "atlas-paint": ["--path-strategy", "raster-atlas"],
    "atlas-r8": ["--path-strategy", "raster-atlas", "--no-paint-atlas"],
    "atlas-copy": ["--path-strategy", "raster-atlas", "--blend-route", "destination-copy"],
    "tessellation": ["--path-strategy", "gpu-tessellation"],
    "atlas-r32f": ["--path-strategy", "raster-atlas", "--coverage-format", "r32f"],
}

STRICT = "+strict"


def form_flags(form):
    """canvas-gl's flags for a form; `FORM+strict` renders under the strict diagnostics policy (`--strict`)."""
    if form.endswith(STRICT):
        return form_flags(form[:-len(STRICT)]) + ["--strict"]
    return FORMS[form]


# The project's default bar (ImageDifference.meetsDefaultBar).
BAR_MAX_DIFF = 8
BAR_OVER2 = 0.001

NAMED_COLORS = ("red orange yellow green mint teal cyan blue indigo purple pink brown gray black white clear "
                "primary secondary accentColor").split()
BLEND_MODES = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn",
               "softLight", "hardLight", "difference", "exclusion", "hue", "saturation", "color", "luminosity",
               "clear", "copy", "sourceIn", "sourceOut", "sourceAtop", "destinationOver", "destinationIn",
               "destinationOut", "destinationAtop", "xor", "plusDarker", "plusLighter"]

# Operator → operand count in the Path.description grammar.
PATH_OPS = {"m": 2, "l": 2, "q": 4, "c": 6, "h": 0, "re": 4, "t": 2, "v": 4, "y": 4}
# Element object → operand count.
ELEMENT_OPS = {"m": 2, "l": 2, "q": 4, "c": 6, "z": 0}


# ---------------------------------------------------------------------------------------------------------
# Generator
# ---------------------------------------------------------------------------------------------------------

def num(v):
    """A JSON-friendly number: integral values below 2^53 as ints (`3`, not `3.0`)."""
    if isinstance(v, float) and v.is_integer() and abs(v) < 2 ** 53:
        return int(v)
    return v


def fmt(v):
    """A number as the path-description parser reads it."""
    v = num(v)
    return str(v) if isinstance(v, int) else repr(v)



# ---------------------------------------------------------------------------------------------------------
# Text from every Unicode class, numbers from every magnitude
# ---------------------------------------------------------------------------------------------------------

# Debian's `unicode-data` package (scripts/install-deps.sh installs it): UnicodeData.txt for the general
# categories, LineBreak.txt for the UAX #14 classes, emoji-test.txt for emoji sequences. Without it the text
# generator falls back to WORDS (and says so once).
UNICODE_DIR = os.environ.get("GPUCANVAS_UNICODE_DIR", "/usr/share/unicode")
WORDS = ["Hello", "Canvas", "ÅÄÖ", "fi ffl", "0123", "", "مرحبا", "→ ✓", "line\nbreak"]
_UNICODE = None
_UNICODE_LOCK = threading.Lock()


def _ranges_from(path, field):
    """`{value: [(lo, hi), ...]}` from a UCD file whose lines are `CODE[..CODE];VALUE ...`."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = [p.strip() for p in line.split(";")]
            if len(parts) <= field:
                continue
            lo, _, hi = parts[0].partition("..")
            out.setdefault(parts[field], []).append((int(lo, 16), int(hi or lo, 16)))
    return out


def _general_categories(path):
    """UnicodeData.txt's field 2, with its `<…, First>`/`<…, Last>` ranges joined; Cn (unassigned) is what is
    left of the code space."""
    cats, first = {}, None
    assigned = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            if len(fields) < 3:
                continue
            cp, name, gc = int(fields[0], 16), fields[1], fields[2]
            if name.endswith(", First>"):
                first = cp
                continue
            lo = first if name.endswith(", Last>") and first is not None else cp
            first = None
            cats.setdefault(gc, []).append((lo, cp))
            assigned.append((lo, cp))
    assigned.sort()
    gaps, nxt = [], 0
    for lo, hi in assigned:
        if lo > nxt:
            gaps.append((nxt, lo - 1))
        nxt = max(nxt, hi + 1)
    if nxt <= 0x10FFFF:
        gaps.append((nxt, 0x10FFFF))
    cats["Cn"] = gaps
    return cats


def _emoji_sequences(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if ";" not in line or line.startswith("#"):
                continue
            codes = line.split(";", 1)[0].split()
            out.append("".join(chr(int(c, 16)) for c in codes))
    return out


def unicode_tables():
    """(general categories, line-break classes, emoji sequences), or None without the unicode-data files."""
    global _UNICODE
    with _UNICODE_LOCK:
        if _UNICODE is None:
            try:
                _UNICODE = (_general_categories(os.path.join(UNICODE_DIR, "UnicodeData.txt")),
                            _ranges_from(os.path.join(UNICODE_DIR, "LineBreak.txt"), 1),
                            _emoji_sequences(os.path.join(UNICODE_DIR, "emoji", "emoji-test.txt")))
            except OSError as e:
                print("fuzz: no Unicode data (%s): text comes from a fixed word list; "
                      "install Debian's unicode-data" % e, file=sys.stderr)
                _UNICODE = False
        return _UNICODE or None


def pick_code_point(r, ranges):
    """A code point from `ranges`, each range weighted by its size's square root (small classes still come up)."""
    weights = [math.sqrt(hi - lo + 1) for lo, hi in ranges]
    lo, hi = r.choices(ranges, weights)[0]
    return r.randint(lo, hi)


# Strings an outside tester throws at a text engine first: noncharacters, controls, unbalanced bidi controls,
# joiners, variation selectors, tags, a lone surrogate, the replacement character, a BOM.
HOSTILE = ["\uFFFE", "\uFFFF", "\U0010FFFF", "\x00", "\x07", "\x1b[31m", "\x85", "\u2028", "\u2029", "\r\n",
           "\u202E", "\u202B", "\u2066", "\u2068", "\u202C\u202C", "\u200D", "\u200B", "\uFE0F", "\U000E0041",
           "\uD800", "\uDFFF", "\uFFFD", "\uFEFF", "\u0301" * 50, "\t\t", "\u00AD"]


def text_piece(r):
    """One piece of a text op's string: a word, a run of one general category or one line-break class, an emoji
    sequence (flags and ZWJ families among them), a hostile string, or rarely a very long run."""
    tables = unicode_tables()
    k = r.random()
    if tables is None or k < 0.2:
        return r.choice(WORDS)
    cats, classes, emoji = tables
    n = r.choice([1, 1, 2, 3, 5, 8, 13])
    if k < 0.45:
        ranges = cats[r.choice(sorted(cats))]
        return "".join(chr(pick_code_point(r, ranges)) for _ in range(n))
    if k < 0.7:
        ranges = classes[r.choice(sorted(classes))]
        return "".join(chr(pick_code_point(r, ranges)) for _ in range(n))
    if k < 0.85:
        return "".join(r.choice(emoji) for _ in range(min(n, 4)))
    if k < 0.98:
        return r.choice(HOSTILE)
    # A long string: with spaces (many lines) or without (one unbreakable word); 2 000–20 000 characters keep
    # a scene under a second in a debug build; `--long-text` raises it to the 100 000 of the issue.
    unit = r.choice(["a", "ab ", "\u0645", "\u4e00", "\U0001F600", "x\u0301", " "])
    return unit * (r.randint(2000, 20000) // len(unit))


def text_string(r):
    return r.choice(["", " ", "\n"]).join(text_piece(r) for _ in range(r.randint(1, 4)))


def _ulp_neighbours(v):
    return [math.nextafter(v, -math.inf), v, math.nextafter(v, math.inf)]


# Magnitudes an outside tester tries in every number: zero, the subnormals, tiny, the integer widths' edges
# (2¹⁵, 2¹⁶, 2³¹, 2³², 2⁵³), Float's largest, 1e300, the largest Double, and the documented limits ± 1 ulp
# (10⁶ units and shadow offsets, σ 4096 device pixels, 16384 pixels a side, the 65 536-period gradient refusal).
MAGNITUDES = sorted(set(
    [0.0, 5e-324, 2.2250738585072014e-308, 1e-300, 1e-12, 1e-8, 1e-5, 0.5, 1.0,
     2.0 ** 15 - 1, 2.0 ** 15, 2.0 ** 15 + 1, 2.0 ** 16, 2.0 ** 31 - 1, 2.0 ** 31, 2.0 ** 32, 2.0 ** 53,
     3.4028234663852886e38, 1e300, 1.7976931348623157e308]
    + _ulp_neighbours(1e6) + _ulp_neighbours(4096.0) + _ulp_neighbours(16384.0) + _ulp_neighbours(65536.0)
    + _ulp_neighbours(3.4028234663852886e38)))


def magnitude(r):
    v = r.choice(MAGNITUDES)
    return num(v if r.random() < 0.6 else -v)


class Gen:
    """One scene's generator. Every random choice goes through `self.r`, so (seed, index) fixes the scene.

    Ops are `op_<name>(depth)` methods returning one command; shadings are `shading_<name>()`; document keys
    are `doc_<name>(doc)`. FEATURES says which feature turns each on and how often it is picked.
    """

    def __init__(self, rng, features):
        self.r = rng
        self.features = set(features)
        self.images = {}
        self.symbols = {}
        self.w = self.h = 100
        self.scale = 1
        self.wild = 0.0

    # --- document -------------------------------------------------------------------------------------
    def scene(self):
        r = self.r
        k = r.random()
        if k < 0.1:
            w, h = r.randint(1, 8), r.randint(1, 8)
        elif k < 0.6:
            w, h = r.randint(8, 120), r.randint(8, 120)
        else:
            w, h = r.randint(100, 600), r.randint(60, 400)
        if r.random() < 0.15:
            w += r.choice([0.25, 0.5, 0.75, 0.3])
        if r.random() < 0.15:
            h += r.choice([0.25, 0.5, 0.75, 0.7])
        scale = r.choice([1, 1, 1, 2, 2, 3]) if r.random() < 0.9 else round(r.uniform(1, 3), 2)
        # Keep a frame near a megapixel at most, so a scene renders in ~100 ms in a debug build.
        while w * h * scale * scale > 1.0e6 and scale > 1:
            scale = max(1, scale - 1)
        self.w, self.h, self.scale = w, h, scale
        # Most scenes stay on the canvas; some draw with extreme numbers now and then.
        self.wild = 0.0 if r.random() < 0.7 else r.choice([0.03, 0.08, 0.2])
        doc = {"format": FORMAT, "size": [num(w), num(h)]}
        if scale != 1 or r.random() < 0.3:
            doc["scale"] = num(scale)
        for feature, kind, _weight, name in FEATURES:
            if kind == "doc" and feature in self.features:
                getattr(self, "doc_" + name)(doc)
        doc["commands"] = self.commands(0, self.count())
        resources = {}
        if self.images:
            resources["images"] = self.images
        if self.symbols:
            resources["symbols"] = self.symbols
        if resources:
            doc["resources"] = resources
        return doc

    def count(self):
        n = 1
        while n < 16 and self.r.random() < 0.8:
            n += 1
        return n

    def commands(self, depth, n):
        table = [(w, name) for feature, kind, w, name in FEATURES
                 if kind == "op" and feature in self.features and (depth < 3 or name not in SCOPES)]
        total = sum(w for w, _ in table)
        out = []
        for _ in range(n):
            x = self.r.uniform(0, total)
            for w, name in table:
                x -= w
                if x <= 0:
                    break
            out.append(getattr(self, "op_" + name)(depth))
        return out

    def doc_opaque(self, doc):
        if self.r.random() < 0.2:
            doc["opaque"] = self.r.random() < 0.7

    def doc_colorMode(self, doc):
        if self.r.random() < 0.5:
            doc["colorMode"] = self.r.choice(["nonLinear", "linear", "extendedLinear"])

    # --- numbers --------------------------------------------------------------------------------------
    def m(self, v):
        """`v`, or in a wild scene now and then a magnitude from MAGNITUDES: what reaches every numeric key
        (opacities, amounts, sizes, radii, anchors, colour components, matrix entries) besides coordinates."""
        return magnitude(self.r) if self.wild and self.r.random() < self.wild else v

    def nice(self, v):
        """`v` as a scene author would write it: mostly rounded, sometimes every digit."""
        k = self.r.random()
        if k < 0.4:
            return num(float(round(v)))
        if k < 0.55:
            return num(round(v * 2) / 2)
        if k < 0.8:
            return num(round(v, 2))
        return v

    def extreme(self):
        r = self.r
        if r.random() < 0.5:
            return magnitude(r)
        v = r.choice([1e6, 2e6, 1e12, 1e300, 1.7e308, 10 ** r.uniform(5, 300), 1e-300, 1e-12, 3e7 + 0.5])
        return num(v if r.random() < 0.5 else -v)

    def coord(self, extent):
        """A coordinate on an axis of `extent` points: mostly on the canvas, sometimes on pixel centres or
        edges (with tiny offsets), sometimes (in wild scenes) extreme."""
        r = self.r
        k = r.random()
        if k < self.wild:
            return self.extreme()
        if k < self.wild + 0.1:
            pixels = max(1, math.ceil(extent * self.scale))
            base = r.randint(0, pixels) + r.choice([0.0, 0.5, 0.5])
            off = r.choice([0.0, 0.0, 1e-9, -1e-9, 1e-6, -1e-6, 1 / 256, -1 / 256, 0.25])
            return num((base + off) / self.scale)
        if k < self.wild + 0.14:
            return num(r.choice([-1, 1]) * self.nice(r.uniform(1e3, 1e5)))
        return self.nice(r.uniform(-0.15 * extent, 1.15 * extent))

    def x(self):
        return self.coord(self.w)

    def y(self):
        return self.coord(self.h)

    def point(self):
        return [self.x(), self.y()]

    def length(self, extent):
        r = self.r
        k = r.random()
        if k < self.wild:
            return abs(self.extreme())
        if k < self.wild + 0.05:
            return r.choice([0, 1e-9, 1e-3, 0.5 / self.scale])
        return self.nice(abs(r.gauss(0, extent * 0.5)))

    def rect(self):
        r = self.r
        x, y = self.x(), self.y()
        w, h = self.length(self.w), self.length(self.h)
        if r.random() < 0.1:
            w = -w
        if r.random() < 0.1:
            h = -h
        if r.random() < 0.04:
            w = 0
        return [x, y, num(w), num(h)]

    def angle(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return r.choice([0, 45, 90, 180, 270, 360, -90, 720])
        if k < 0.35 and self.wild:
            return self.extreme()
        return self.nice(r.uniform(-720, 720))

    def affine(self):
        """A transform [a, b, c, d, tx, ty]: similarity, axis scale, shear, general, singular or identity."""
        r = self.r
        t = [self.nice(r.uniform(-self.w, self.w)), self.nice(r.uniform(-self.h, self.h))]
        k = r.random()
        if k < 0.3:
            s = r.choice([1, 1, 0.5, 2, round(r.uniform(0.1, 3), 2)])
            a = math.radians(r.choice([0, 30, 45, 90, 180, -90]) if r.random() < 0.5 else r.uniform(-180, 180))
            m = [s * math.cos(a), s * math.sin(a), -s * math.sin(a), s * math.cos(a)]
        elif k < 0.5:
            m = [self.nice(r.uniform(-3, 3)), 0, 0, self.nice(r.uniform(-3, 3))]
        elif k < 0.6:
            m = [1, 0, self.nice(r.uniform(-2, 2)), 1] if r.random() < 0.5 else [1, self.nice(r.uniform(-2, 2)), 0, 1]
        elif k < 0.75:
            m = [self.nice(r.uniform(-2, 2)) for _ in range(4)]
        elif k < 0.8:
            f = r.uniform(-2, 2)
            a, b = r.uniform(-2, 2), r.uniform(-2, 2)
            m = [a, b, f * a, f * b] if r.random() < 0.7 else [0, 0, 0, 0]
        else:
            m = [1, 0, 0, 1]
        if self.wild and r.random() < self.wild * 2:
            i = r.randrange(6)
            v = r.choice([1e6, 1e-6, 1e12, 1e-12, 1e150, 1e300])
            if i < 4:
                m[i] = v
            else:
                t[i - 4] = v
        return [num(v) for v in m + t]

    # --- paths ----------------------------------------------------------------------------------------
    def elements(self):
        """A list of ("m", x, y) / ("l", …) / ("q", …) / ("c", …) / ("z",) tuples: 1–3 subpaths."""
        r = self.r
        out = []
        degenerate = r.random() < 0.05
        p0 = self.point()
        for _ in range(r.choice([1, 1, 1, 2, 3])):
            p = p0 if degenerate else self.point()
            out.append(["m"] + p)
            for _ in range(r.randint(1, 6)):
                kind = r.choice("lllqcc")
                pts = [p0 if degenerate else self.point() for _ in range({"l": 1, "q": 2, "c": 3}[kind])]
                out.append([kind] + [v for pt in pts for v in pt])
            if r.random() < 0.5:
                out.append(["z"])
        return out

    def path_string(self):
        r = self.r
        parts = []
        for e in self.elements():
            op = e[0]
            nums = e[1:]
            if op == "z":
                parts.append("h")
                continue
            # Now and then the parser's extra operators: t, v, y, re.
            if op == "q" and r.random() < 0.2:
                op, nums = "t", nums[2:]
            elif op == "c" and r.random() < 0.2:
                op, nums = ("v", nums[2:]) if r.random() < 0.5 else ("y", nums[:2] + nums[4:])
            parts.append(" ".join(fmt(v) for v in nums) + " " + op)
            if r.random() < 0.05:
                parts.append(" ".join(fmt(v) for v in self.rect()) + " re")
        sep = " " if r.random() < 0.9 else r.choice(["  ", "\n", "\t"])
        return sep.join(parts)

    def path(self):
        r = self.r
        k = r.random()
        if k < 0.3:
            return self.path_string()
        if k < 0.45:
            p = {"rect": self.rect()}
        elif k < 0.6:
            p = {"ellipse": self.rect()}
        elif k < 0.72:
            p = {"roundedRect": self.rect(), "cornerRadius": self.length(min(self.w, self.h) / 3)}
            if r.random() < 0.7:
                p["style"] = r.choice(["circular", "continuous"])
        elif k < 0.84:
            a = {"center": self.point(), "radius": self.length(min(self.w, self.h) / 2),
                 "start": self.angle(), "end": self.angle()}
            if r.random() < 0.6:
                a["clockwise"] = r.random() < 0.5
            p = {"arc": a}
        else:
            p = {"elements": self.elements()}
        if r.random() < 0.15:
            p["transform"] = self.affine()
        return p

    # --- colours and shadings -------------------------------------------------------------------------
    def color(self):
        r = self.r
        k = r.random()
        if k < 0.35:
            return "#%02x%02x%02x" % (r.randrange(256), r.randrange(256), r.randrange(256))
        if k < 0.55:
            s = "#%02x%02x%02x%02x" % tuple(r.randrange(256) for _ in range(4))
            return s.upper() if r.random() < 0.3 else s
        if k < 0.75:
            return r.choice(NAMED_COLORS)
        extended = r.random() < 0.2
        rgb = [self.m(num(round(r.uniform(-0.3, 1.3) if extended else r.random(), r.choice([1, 2, 4, 8]))))
               for _ in range(3)]
        a = self.m(r.choice([1, 1, 0.5, 0, round(r.random(), 3)]))
        return {"space": r.choice(["sRGB", "sRGBLinear", "displayP3"]), "rgba": rgb + [num(a)]}

    def shading(self):
        table = [(w, name) for feature, kind, w, name in FEATURES if kind == "shading" and feature in self.features]
        x = self.r.uniform(0, sum(w for w, _ in table))
        for w, name in table:
            x -= w
            if x <= 0:
                break
        return getattr(self, "shading_" + name)()

    def shading_color(self):
        return {"color": self.color()}

    def shading_foreground(self):
        return "foreground"

    def gradient(self):
        r = self.r
        n = r.randint(1, 5)
        if r.random() < 0.5:
            return {"colors": [self.color() for _ in range(n)]}
        # Locations in 0…1, the range the format allows (docs/scene-format.md); unsorted and repeated ones are fine.
        return {"stops": [[self.m(num(round(r.uniform(0, 1), 3))), self.color()] for _ in range(n)]}

    def gradient_options(self, s):
        r = self.r
        if r.random() < 0.5:
            s["options"] = r.sample(["repeat", "mirror", "linearColor"], r.randint(0, 2))
        return s

    def shading_gradient(self):
        r = self.r
        k = r.random()
        if k < 0.4:
            s = {"linearGradient": self.gradient(), "start": self.point(), "end": self.point()}
        elif k < 0.75:
            s = {"radialGradient": self.gradient(), "center": self.point(),
                 "startRadius": self.length(self.w / 4), "endRadius": self.length(self.w / 2)}
        elif k < 0.85:
            s = {"conicGradient": self.gradient(), "center": self.point(), "angle": self.angle()}
        else:
            # The two-point form (extension), with its degenerate cases now and then: equal centres, zero radii.
            c0 = self.point()
            s = {"radialGradient": self.gradient(), "startCenter": c0,
                 "startRadius": r.choice([0, self.length(self.w / 4)]),
                 "endCenter": c0 if r.random() < 0.15 else self.point(),
                 "endRadius": r.choice([0, self.length(self.w / 2), self.length(self.w / 2)])}
        if r.random() < 0.2:
            s["colorSpace"] = r.choice(["device", "perceptual"])
        return self.gradient_options(s)

    def unit_point(self):
        return [self.m(num(round(self.r.uniform(-0.2, 1.2), 2))), self.m(num(round(self.r.uniform(-0.2, 1.2), 2)))]

    def shading_style(self):
        """`.style(…)` (extension): a colour or a ShapeStyle gradient over the drawn item's bounds."""
        r = self.r
        k = r.random()
        if k < 0.2:
            return {"style": self.color()}
        if k < 0.4:
            s = {"linearGradient": self.gradient(), "startPoint": self.unit_point(), "endPoint": self.unit_point()}
        elif k < 0.6:
            s = {"radialGradient": self.gradient(), "center": self.unit_point(), "startRadius": self.length(self.w / 4),
                 "endRadius": self.length(self.w / 2)}
        elif k < 0.8:
            s = {"angularGradient": self.gradient(), "center": self.unit_point(), "startAngle": self.angle(),
                 "endAngle": self.angle()}
        else:
            s = {"ellipticalGradient": self.gradient(), "center": self.unit_point(),
                 "startRadiusFraction": self.m(num(round(r.uniform(0, 1), 2))),
                 "endRadiusFraction": self.m(num(round(r.uniform(0, 1.5), 2)))}
        if r.random() < 0.2:
            s["colorSpace"] = r.choice(["device", "perceptual"])
        return {"style": s}

    def shading_meshGradient(self):
        """`.meshGradient(MeshGradient(…))` (extension): 2…5 vertices a side now and then a count that does not
        match, points around the unit square (bent, folded, off it), or bezier points."""
        r = self.r
        w, h = r.randint(2, 5), r.randint(2, 5)
        if r.random() < 0.05:
            w = r.choice([0, 1, 257, 1 << 31])
        n = w * h if w * h <= 36 else 4
        count = n + (r.choice([-1, 1]) if r.random() < 0.05 else 0)

        def unit():
            return self.m(num(round(r.uniform(-0.3, 1.3), 3)))

        def grid_point(k):
            i, j = k % max(w, 1), k // max(w, 1)
            return [self.m(num(round(i / max(w - 1, 1) + r.uniform(-0.2, 0.2), 3))),
                    self.m(num(round(j / max(h - 1, 1) + r.uniform(-0.2, 0.2), 3)))]
        m = {"width": w, "height": h, "colors": [self.color() for _ in range(max(count, 0))]}
        if r.random() < 0.3:
            m["bezierPoints"] = [{"position": grid_point(k), "leading": [unit(), unit()], "top": [unit(), unit()],
                                  "trailing": [unit(), unit()], "bottom": [unit(), unit()]} for k in range(max(count, 0))]
        else:
            m["points"] = [grid_point(k) if r.random() < 0.9 else [unit(), unit()] for k in range(max(count, 0))]
        if r.random() < 0.5:
            m["background"] = self.color()
        if r.random() < 0.5:
            m["smoothsColors"] = r.random() < 0.5
        if r.random() < 0.4:
            m["colorSpace"] = r.choice(["device", "perceptual"])
        return {"meshGradient": m}

    def shading_palette(self):
        return {"palette": [self.shading_color() if self.r.random() < 0.7 else self.shading_gradient()
                            for _ in range(self.r.randint(1, 3))]}

    def image_name(self):
        """A small PNG resource (generated in memory, stored as pngBase64), created on first use, sometimes
        with the project's extension keys: `template`, `interpolation`, `scale`."""
        r = self.r
        if r.random() < 0.1:
            name = "sys%d" % len(self.images)
            self.images[name] = {"systemName": r.choice(["house.fill", "star", "gear", "heart.fill", "xmark",
                                                         "no.such.symbol", ""])}
            return name
        if not self.images or r.random() < 0.3:
            name = "img%d" % len(self.images)
            w, h = r.randint(1, 8), r.randint(1, 8)
            pixels = bytes(r.randrange(256) for _ in range(w * h * 4))
            entry = {"pngBase64": base64.b64encode(png_bytes(w, h, pixels)).decode()}
            if r.random() < 0.25:
                entry["template"] = True
            if r.random() < 0.3:
                entry["interpolation"] = r.choice(["none", "low", "medium", "high"])
            if r.random() < 0.2:
                entry["scale"] = self.m(num(r.choice([0.5, 1.5, 2, 3, round(r.uniform(0.2, 4), 2)])))
            self.images[name] = entry
            return name
        return r.choice(sorted(self.images))

    def shading_tiledImage(self):
        r = self.r
        s = {"tiledImage": self.image_name()}
        if r.random() < 0.5:
            s["origin"] = self.point()
        if r.random() < 0.3:
            s["sourceRect"] = [self.m(0), self.m(0), self.m(num(round(r.uniform(0.1, 1), 2))), self.m(num(round(r.uniform(0.1, 1), 2)))]
        if r.random() < 0.5:
            s["scale"] = self.m(num(round(r.uniform(0.1, 4), 2)))
        return s

    # --- ops: drawing ---------------------------------------------------------------------------------
    def op_fill(self, depth):
        r = self.r
        c = {"op": "fill", "path": self.path(), "shading": self.shading()}
        if r.random() < 0.3:
            c["eoFill"] = r.random() < 0.6
        if r.random() < 0.25:
            c["antialiased"] = r.random() < 0.3
        return c

    def line_width(self):
        r = self.r
        k = r.random()
        if k < self.wild * 0.5:
            return r.choice([1e6, 1e12, 1e-12, 1e300])
        if k < 0.08:
            return 0
        if k < 0.14:
            return r.choice([1e-6, 0.001, 0.01, 0.1])
        if k < 0.2:
            return self.nice(r.uniform(100, 1000))
        return self.nice(r.uniform(0.25, 20))

    def dash(self):
        r = self.r
        if r.random() < 0.06:
            return []
        pattern = []
        for _ in range(r.randint(1, 4)):
            k = r.random()
            if k < 0.1:
                pattern.append(0)
            elif k < 0.13 and self.wild:
                pattern.append(r.choice([0.01, 1e6, 1e300]))
            else:
                pattern.append(self.nice(r.uniform(0.5, 25)))
        return pattern

    def op_stroke(self, depth):
        r = self.r
        c = {"op": "stroke", "path": self.path(), "shading": self.shading()}
        if r.random() < 0.85:
            c["lineWidth"] = num(self.line_width())
        if r.random() < 0.5:
            c["lineCap"] = r.choice(["butt", "round", "square"])
        if r.random() < 0.5:
            c["lineJoin"] = r.choice(["miter", "round", "bevel"])
        if r.random() < 0.3:
            c["miterLimit"] = self.m(num(r.choice([0, 1, 1.5, 2, 4, 10, 100, self.nice(r.uniform(0, 20))])))
        if r.random() < 0.3:
            c["dash"] = self.dash()
            if r.random() < 0.6:
                c["dashPhase"] = self.nice(r.uniform(-50, 50)) if not self.wild else self.coord(50)
        return c

    # --- ops: state -----------------------------------------------------------------------------------
    def op_state(self, depth):
        """One of the state ops both backends draw today; blendMode only as "normal"."""
        r = self.r
        k = r.choice(["opacity", "opacity", "translate", "scale", "rotate", "concatenate", "transform", "blendMode"])
        if k == "opacity":
            return {"op": "opacity", "value": self.m(num(r.choice([0, 1, 0.5, round(r.random(), 3), r.random()])))}
        if k == "translate":
            return {"op": "translate", "x": self.nice(r.uniform(-self.w / 2, self.w / 2)) if r.random() > self.wild else self.extreme(),
                    "y": self.nice(r.uniform(-self.h / 2, self.h / 2))}
        if k == "scale":
            def s():
                if r.random() < self.wild:
                    return self.extreme()
                return num(r.choice([1, 2, 0.5, -1, 0, round(r.uniform(-3, 3), 2), round(r.uniform(0.2, 3), 3)]))
            return {"op": "scale", "x": s(), "y": s()}
        if k == "rotate":
            return {"op": "rotate", "degrees": self.angle()}
        if k == "concatenate":
            return {"op": "concatenate", "value": self.affine()}
        if k == "transform":
            if r.random() < 0.4:
                return {"op": "transform", "value": [1, 0, 0, 1, 0, 0]}
            return {"op": "transform", "value": self.affine()}
        return {"op": "blendMode", "value": "normal"}

    def op_blendMode(self, depth):
        return {"op": "blendMode", "value": self.r.choice(BLEND_MODES)}

    # --- ops: scopes ----------------------------------------------------------------------------------
    def op_copy(self, depth):
        return {"op": "copy", "commands": self.commands(depth + 1, self.r.randint(1, 4))}

    def op_layer(self, depth):
        return {"op": "layer", "commands": self.commands(depth + 1, self.r.randint(1, 4))}

    def op_clipToLayer(self, depth):
        r = self.r
        c = {"op": "clipToLayer"}
        if r.random() < 0.5:
            c["opacity"] = self.m(num(round(r.random(), 2)))
        if r.random() < 0.4:
            c["inverse"] = r.random() < 0.5
        c["commands"] = self.commands(depth + 1, r.randint(1, 3))
        return c

    def op_clip(self, depth):
        r = self.r
        c = {"op": "clip", "path": self.path()}
        for key, p in (("eoFill", 0.3), ("antialiased", 0.3), ("inverse", 0.3)):
            if r.random() < p:
                c[key] = r.random() < 0.5
        return c

    # --- ops: filters, images, text, symbols ----------------------------------------------------------
    def filter(self):
        r = self.r
        a = lambda: self.m(num(round(r.uniform(-0.5, 2), 2)))
        # Blur (0), shadow (1), the colour filters (2–12) and projectionTransform (13, 14).
        k = r.randrange(15)
        if k == 0:
            f = {"radius": self.length(5)}
            if r.random() < 0.3:
                f["options"] = r.sample(["opaque", "dithersResult"], r.randint(0, 2))
            return {"blur": f}
        if k == 1:
            s = {"color": self.color(), "radius": self.length(5), "x": self.m(self.nice(r.uniform(-5, 5))),
                 "y": self.m(self.nice(r.uniform(-5, 5)))}
            if r.random() < 0.3:
                s["blendMode"] = r.choice(BLEND_MODES)
            if r.random() < 0.3:
                s["options"] = r.sample(["shadowAbove", "shadowOnly", "invertsAlpha", "disablesGroup"], r.randint(0, 2))
            return {"shadow": s}
        if k == 2:
            return {"colorMultiply": self.color()}
        if k == 3:
            entries = [self.m(num(round(r.uniform(-1, 1), 2))) for _ in range(20)]
            if r.random() < 0.3:
                return {"colorMatrix": {"matrix": entries, "premultiplied": r.random() < 0.5}}
            return {"colorMatrix": entries}
        if k == 4:
            return {"hueRotation": self.angle()}
        if k == 5:
            return {"saturation": a()}
        if k == 6:
            return {"brightness": a()}
        if k == 7:
            return {"contrast": a()}
        if k == 8:
            return {"colorInvert": self.m(num(round(r.random(), 2)))}
        if k == 9:
            return {"grayscale": self.m(num(round(r.random(), 2)))}
        if k == 10:
            return {"luminanceToAlpha": True}
        if k == 11:
            lo = round(r.random(), 2)
            return {"alphaThreshold": {"min": self.m(num(lo)), "max": self.m(num(round(r.uniform(lo, 1), 2))), "color": self.color()}}
        if k == 12:
            return {"alphaMultiply": self.color()}
        m = self.affine()
        # Sometimes a perspective: w = m13·x + m23·y + 1 reaches 0 somewhere near the canvas.
        w = [num(round(r.uniform(-0.02, 0.02), 4)), num(round(r.uniform(-0.02, 0.02), 4))] if r.random() < 0.4 else [0, 0]
        return {"projectionTransform": [num(v) for v in [m[0], m[1], self.m(w[0]), m[2], m[3], self.m(w[1]), m[4], m[5], self.m(1)]]}

    def op_filter(self, depth):
        c = {"op": "filter", "filter": self.filter()}
        if self.r.random() < 0.3:
            c["linearColor"] = self.r.random() < 0.5
        return c

    def placement(self, c):
        """`in` a rect, or `at` a point with an optional anchor."""
        r = self.r
        if r.random() < 0.5:
            c["in"] = self.rect()
        else:
            c["at"] = self.point()
            if r.random() < 0.5:
                c["anchor"] = [self.m(num(round(r.uniform(0, 1), 2))), self.m(num(round(r.uniform(0, 1), 2)))]
        return c

    def op_image(self, depth):
        r = self.r
        name = self.image_name()
        c = self.placement({"op": "image", "image": name})
        if "in" in c:
            if r.random() < 0.2:
                c["eoFill"] = r.random() < 0.5
            if r.random() < 0.2:
                c["antialiased"] = r.random() < 0.3
        # A template image's fill: a colour (a gradient fill is rejected by both renderers alike).
        if self.images[name].get("template") and r.random() < 0.7:
            c["shading"] = self.shading_color()
        return c

    def op_text(self, depth):
        r = self.r
        if r.random() < 0.75:
            c = {"op": "text", "text": text_string(r)}
        else:
            c = {"op": "text", "text": [self.span() for _ in range(r.randint(1, 4))]}
        if r.random() < 0.8:
            c["font"] = self.font()
        if r.random() < 0.8:
            c["shading"] = self.shading()
        if r.random() < 0.2:
            c["baselineOrigin"] = self.point()
            return c
        return self.placement(c)

    def font(self):
        r = self.r
        k = r.random()
        if k < 0.15:
            return {"style": r.choice(["largeTitle", "title", "title2", "title3", "headline", "body", "callout",
                                       "subheadline", "footnote", "caption", "caption2"])}
        size = self.m(num(r.choice([6, 12, 17, 30, round(r.uniform(1, 60), 1), 0, 0.01])))
        if k < 0.3:
            font = {"size": size, "design": r.choice(["default", "serif", "rounded", "monospaced"])}
        else:
            font = {"family": r.choice(["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono", "Noto Sans", "Inter",
                                        "Liberation Serif", "No Such Family"]), "size": size}
        if r.random() < 0.4:
            font["weight"] = r.choice(["ultraLight", "regular", "medium", "bold", "black", 1, 400, 1000,
                                       self.m(num(round(r.uniform(1, 1000))))])
        if r.random() < 0.3:
            font["italic"] = r.random() < 0.5
        if r.random() < 0.1:
            font[r.choice(["monospaced", "monospacedDigit"])] = True
        return font

    def span(self):
        """A `Text + Text` span (extension) with its modifiers."""
        r = self.r
        s = {"string": text_string(r)}
        if r.random() < 0.4:
            s["font"] = self.font()
        if r.random() < 0.4:
            s["shading"] = self.shading()
        for key in ("bold", "italic", "monospaced", "monospacedDigit"):
            if r.random() < 0.1:
                s[key] = r.random() < 0.7
        for key in ("kerning", "tracking", "baselineOffset"):
            if r.random() < 0.15:
                s[key] = self.m(self.nice(r.uniform(-5, 10)))
        for key in ("underline", "strikethrough"):
            if r.random() < 0.1:
                s[key] = True if r.random() < 0.5 else self.color()
        return s

    def op_symbol(self, depth):
        r = self.r
        if getattr(self, "in_symbol", False):
            # A symbol's commands cannot draw symbols (SwiftUI gives a symbol's context none; the loader rejects
            # it), so inside one this draws a fill instead.
            return self.op_fill(depth)
        if not self.symbols or r.random() < 0.3:
            name = "sym%d" % len(self.symbols)
            self.symbols[name] = None  # reserve the name while its commands are made
            size = [num(self.nice(r.uniform(1, self.w))), num(self.nice(r.uniform(1, self.h)))]
            self.in_symbol = True
            inner = self.commands(3, r.randint(1, 3)) if depth < 3 else []
            self.in_symbol = False
            self.symbols[name] = {"size": size, "commands": inner}
        else:
            name = r.choice(sorted(self.symbols))
        return self.placement({"op": "symbol", "symbol": name})


# (feature, kind, weight, method suffix). kind "op": a command (op_<name>); "shading": a shading
# (shading_<name>); "doc": a document key (doc_<name>). DEFAULT_FEATURES are what both backends draw today.
FEATURES = [
    ("fill", "op", 30, "fill"),
    ("stroke", "op", 30, "stroke"),
    ("state", "op", 20, "state"),
    ("copy", "op", 7, "copy"),
    ("clip", "op", 6, "clip"),
    ("layer", "op", 4, "layer"),
    ("clipToLayer", "op", 3, "clipToLayer"),
    ("blendMode", "op", 5, "blendMode"),
    ("filter", "op", 4, "filter"),
    ("image", "op", 3, "image"),
    ("text", "op", 8, "text"),
    ("symbol", "op", 2, "symbol"),
    ("fill", "shading", 90, "color"),
    ("fill", "shading", 6, "foreground"),
    ("gradient", "shading", 35, "gradient"),
    ("image", "shading", 10, "tiledImage"),
    ("gradient", "shading", 8, "style"),
    ("gradient", "shading", 3, "palette"),
    ("gradient", "shading", 5, "meshGradient"),
    ("opaque", "doc", 1, "opaque"),
    ("colorMode", "doc", 1, "colorMode"),
]
SCOPES = {"copy", "layer", "clipToLayer", "symbol"}
ALL_FEATURES = sorted({f for f, _, _, _ in FEATURES})
DEFAULT_FEATURES = ["fill", "stroke", "state", "copy", "opaque", "clip", "layer", "clipToLayer", "blendMode",
                    "gradient", "colorMode", "image", "filter", "text", "symbol"]


def scene_for(seed, index, features):
    """Scene `index` of `seed`: the same document on every run."""
    return Gen(random.Random("gpucanvas-fuzz:%s:%d" % (seed, index)), features).scene()


def png_bytes(w, h, rgba):
    """A minimal 8-bit RGBA PNG (filter 0 on every row)."""
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    raw = b"".join(b"\0" + rgba[y * w * 4:(y + 1) * w * 4] for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def dumps(doc):
    """The scene's JSON text; a string holding a lone surrogate (which UTF-8 cannot carry) is written with
    `\\u` escapes, as a client sending one would."""
    text = json.dumps(doc, allow_nan=False, ensure_ascii=False, separators=(", ", ": "))
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return json.dumps(doc, allow_nan=False, ensure_ascii=True, separators=(", ", ": "))



# ---------------------------------------------------------------------------------------------------------
# Malformed mode: mutants of valid scenes
# ---------------------------------------------------------------------------------------------------------

# Values a mutation puts where the format expects something else.
WRONG_VALUES = [None, True, False, "", "x", "#", "#GGGGGG", "NaN", "Infinity", "-0", 0, -1, 1, 2 ** 64, -2 ** 63,
                [], {}, [[]], [0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], {"op": "fill"}, "../../../etc/passwd",
                "/etc/passwd", "\uFFFF", "\uD800", "🇫🇷"]
# Raw-text mutations: JSON the parser must refuse with its location, or accept as the same document.
RAW_SPLICES = [b"1e999", b"-1e999", b"NaN", b"Infinity", b"-0", b"0x10", b"\xff", b"\xc0\x80", b"\xed\xa0\x80",
               b"\"\\ud800\"", b"\"\\u0000\"", b"\x00", b",", b"]", b"}", b"{", b"\"", b"\\", b"1" * 400,
               b"[" * 300 + b"]" * 300, b"{\"a\":" * 300 + b"0" + b"}" * 300]


def json_slots(node, where=()):
    """Every (container path, key) in `node`, for a mutation to change."""
    out = []
    if isinstance(node, dict):
        for k in list(node):
            out.append(where + (k,))
            out.extend(json_slots(node[k], where + (k,)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append(where + (i,))
            out.extend(json_slots(v, where + (i,)))
    return out


def mutate(doc, r):
    """A malformed (or oddly valid) variant of `doc` as bytes: 1–3 structural mutations, then now and then a
    raw-text one. Scene I of seed N in malformed mode is always the same bytes."""
    doc = copy.deepcopy(doc)
    for _ in range(r.randint(1, 3)):
        slots = json_slots(doc)
        if not slots:
            break
        where = r.choice(slots)
        parent = get_at(doc, where[:-1])
        key = where[-1]
        k = r.random()
        if k < 0.25:
            del parent[key]
        elif k < 0.55:
            parent[key] = copy.deepcopy(r.choice(WRONG_VALUES))
        elif k < 0.7:
            v = parent[key]
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                parent[key] = magnitude(r)
            elif isinstance(v, str):
                parent[key] = text_string(r) if r.random() < 0.5 else v * r.randint(2, 50)
            else:
                parent[key] = copy.deepcopy(r.choice(WRONG_VALUES))
        elif k < 0.8 and isinstance(parent, dict):
            parent[r.choice(["extra", "op", "commands", "path", "shading", "size", "format", ""])] = \
                copy.deepcopy(r.choice(WRONG_VALUES))
        elif k < 0.9 and isinstance(parent, list):
            parent.extend(copy.deepcopy(parent[key]) for _ in range(r.choice([1, 10, 500])))
        else:
            if isinstance(parent, dict) and "op" in parent:
                parent["op"] = r.choice(["fill", "stroke", "text", "image", "symbol", "layer", "copy", "clip",
                                         "clipToLayer", "filter", "opacity", "transform", "nope", ""])
            else:
                parent[key] = [parent[key]]
    try:
        data = dumps(doc).encode("utf-8")
    except UnicodeEncodeError:
        data = json.dumps(doc, allow_nan=False, ensure_ascii=True).encode("ascii")
    if r.random() < 0.3:
        k = r.random()
        at = r.randrange(len(data) + 1)
        if k < 0.3:
            data = data[:at]
        elif k < 0.5:
            data = data[:at] + r.choice(RAW_SPLICES) + data[at:]
        else:
            # A number of the document replaced by a raw spelling JSON has no Double for.
            spots = [m.start() for m in re.finditer(rb"(?<=[\[,:] )-?[0-9]", data)]
            if spots:
                s = r.choice(spots)
                end = re.match(rb"-?[0-9.eE+-]+", data[s:]).end() + s
                data = data[:s] + r.choice(RAW_SPLICES[:6]) + data[end:]
    return data


def mutant_for(seed, index, features):
    base = scene_for(seed, index, features)
    return mutate(base, random.Random("gpucanvas-fuzz-mutant:%s:%d" % (seed, index)))


# ---------------------------------------------------------------------------------------------------------
# Running canvas-gl and judging the result
# ---------------------------------------------------------------------------------------------------------

class Outcome:
    """One canvas-gl process: status "ok", "error" (exit 1 with `Error: ...`), "crash" or "hang"."""

    def __init__(self, status, rc, out, err, message=""):
        self.status, self.rc, self.out, self.err, self.message = status, rc, out, err, message

    def crash_text(self):
        if self.status == "hang":
            return self.message
        if self.rc < 0:
            try:
                why = "signal %s" % signal.Signals(-self.rc).name
            except ValueError:
                why = "signal %d" % -self.rc
        else:
            why = "exit status %d" % self.rc
        for line in self.err.splitlines():
            line = line.strip()
            if re.search(r"Fatal error|Precondition failed|Assertion failed|fatal|error:", line, re.I):
                return "%s: %s" % (why, line[:300])
        return why


class Failure:
    """What failed on one form: kind (crash/verdict/over-bar), the form, and the words for the .txt.
    `signature` is what the reducer keeps constant besides the kind."""

    def __init__(self, kind, form, detail, signature, repro):
        self.kind, self.form, self.detail, self.signature, self.repro = kind, form, detail, signature, repro


def verdict_words(message):
    """An error message without the backend's own words, so that both backends' texts compare:
    `not supported yet: blend mode .multiply (draw #0)` and `not supported yet: draw #0: blend mode .multiply on
    the GLES backend (only .normal is drawn yet)` both become `not supported yet: blend mode .multiply [draw 0]`."""
    m = re.sub(r" on the (reference|GLES) backend( \([^)]*\))?", "", message)
    draw = re.search(r"draw #(\d+)", m)
    m = re.sub(r"\s*\(draw #\d+\)", "", m)
    m = re.sub(r"draw #\d+: ", "", m)
    m = " ".join(m.split())
    return m + (" [draw %s]" % draw.group(1) if draw else "")


class Runner:
    def __init__(self, exe, timeout, tmp):
        self.exe, self.timeout, self.tmp = exe, timeout, tmp
        self.env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        self.counter = 0
        self.lock = threading.Lock()

    def write(self, doc):
        """A scene file: `doc` as JSON, or bytes as they are (a malformed mutant)."""
        with self.lock:
            self.counter += 1
            path = os.path.join(self.tmp, "s%d.json" % self.counter)
        with open(path, "wb") as f:
            f.write(doc if isinstance(doc, bytes) else dumps(doc).encode("utf-8"))
        return path

    def run(self, args):
        try:
            p = subprocess.run([self.exe] + args, capture_output=True, timeout=self.timeout, env=self.env,
                               stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired as e:
            return Outcome("hang", None, "", (e.stderr or b"").decode("utf-8", "replace"),
                           "no exit within %g s (--timeout)" % self.timeout)
        out = p.stdout.decode("utf-8", "replace")
        err = p.stderr.decode("utf-8", "replace")
        if p.returncode == 0:
            return Outcome("ok", 0, out, err)
        # The tool's clean refusal: exit 1 and an `Error: ...` line (render diagnostics, `warning: ...`, may come
        # before it); a sanitizer's report also exits 1, without one.
        first = next((line for line in err.splitlines() if line.startswith("Error: ")), "")
        if p.returncode == 1 and first and not re.search(r"Sanitizer|runtime error:", err):
            return Outcome("error", 1, out, err, first[len("Error: "):])
        return Outcome("crash", p.returncode, out, err)

    def render(self, path, backend, form):
        args = ["render", path, "--backend", backend, "-o", "/dev/null"]
        if backend != "gles" and form.endswith(STRICT):
            args.append("--strict")
        if backend == "gles":
            args += ["--device", "mesa"] + form_flags(form)
        return self.run(args)

    def check(self, doc, form, ref_cache=None):
        """None when `form` and the reference agree on `doc`, else the Failure."""
        path = self.write(doc)
        try:
            return self._check(path, form, ref_cache, point_pixels(doc))
        finally:
            os.unlink(path)

    def _check(self, path, form, ref_cache, allowance=1):
        flags = ["--device", "mesa"] + form_flags(form)
        name = "SCENE.json"
        compare = "canvas-gl compare %s --backends reference,gles %s" % (name, " ".join(flags))
        known_ref = ref_cache.get("ref") if ref_cache is not None else None
        if known_ref is not None and known_ref.status == "error":
            # The reference refused at render time on an earlier form: compare would stop there too.
            return self._alone(path, form, ref_cache, compare=None)
        c = self.run(["compare", path, "--backends", "reference,gles"] + flags)
        if c.status == "ok":
            m = re.search(r"maxDiff: (\d+)", c.out)
            o = re.search(r"over2: ([0-9.]+)% \((\d+) px\)", c.out)
            size = re.search(r", (\d+)×(\d+) px", c.out)
            if not (m and o and size):
                return Failure("crash", form, "compare printed no numbers: %r" % c.out[:200], ("compare",), compare)
            max_diff, px = int(m.group(1)), int(o.group(2))
            total = int(size.group(1)) * int(size.group(2))
            met = "NOT met" not in c.out
            if ref_cache is not None:
                ref_cache["verdict"] = "rendered"
            # The share over 2 is rounded up to one point (scale² pixels): on the tiny canvases the generator
            # favours, one point off by 3 (a steep blend formula's amplification, three draws under one mask
            # value a step apart) is already over 0.1 %. maxDiff ≤ 8 still holds for it.
            if max_diff <= BAR_MAX_DIFF and px <= max(allowance, BAR_OVER2 * total):
                return None
            return Failure("over-bar", form, "maxDiff %d, over2 %.4f%% (%d of %d px)" % (max_diff, 100.0 * px / total, px, total),
                           ("over-bar",), compare)
        if c.status == "error" and c.message.startswith(path + ":"):
            if ref_cache is not None:
                ref_cache["verdict"] = "rejected at load"
            return None  # rejected by the loader, which both backends share
        # Which side crashed or refused: render each alone.
        return self._alone(path, form, ref_cache, compare=c)

    def check_alone(self, doc, form, only=None):
        """Like `check`, without compare: each backend renders alone (`only`: just "reference" or "gles",
        for reducing a crash of that side)."""
        path = self.write(doc)
        try:
            if only == "reference":
                ref = self.render(path, "reference", form)
                if ref.status in ("crash", "hang"):
                    return Failure("crash", "reference", ref.crash_text(), ("crash", "reference", ref.status, ref.rc), "")
                return None
            if only == "gles":
                gl = self.render(path, "gles", form)
                if gl.status in ("crash", "hang"):
                    return Failure("crash", form, gl.crash_text(), ("crash", "gles", gl.status, gl.rc), "")
                return None
            return self._alone(path, form, None, None)
        finally:
            os.unlink(path)

    def _alone(self, path, form, ref_cache, compare):
        flags = ["--device", "mesa"] + form_flags(form)
        name = "SCENE.json"
        c = compare
        compare = "canvas-gl compare %s --backends reference,gles %s" % (name, " ".join(flags))
        ref = ref_cache.get("ref") if ref_cache is not None else None
        if ref is None:
            ref = self.render(path, "reference", form)
            if ref_cache is not None:
                ref_cache["ref"] = ref
        ref_repro = "canvas-gl render %s --backend reference -o /dev/null" % name
        gl_repro = "canvas-gl render %s --backend gles %s -o /dev/null" % (name, " ".join(flags))
        if ref.status in ("crash", "hang"):
            return Failure("crash", "reference", ref.crash_text(), ("crash", "reference", ref.status, ref.rc), ref_repro)
        gl = self.render(path, "gles", form)
        if gl.status in ("crash", "hang"):
            return Failure("crash", form, gl.crash_text(), ("crash", "gles", gl.status, gl.rc), gl_repro)
        if ref.status == "ok" and gl.status == "ok":
            if c is None:
                return None
            if c.status in ("crash", "hang"):
                return Failure("crash", form, "compare: " + c.crash_text(), ("crash", "compare", c.status, c.rc), compare)
            return Failure("verdict", form, "both render alone, compare says: " + c.message, ("verdict", "compare"), compare)
        if ref.status == "error" and gl.status == "error":
            if verdict_words(ref.message) == verdict_words(gl.message):
                if ref_cache is not None:
                    ref_cache["verdict"] = "rejected at render"
                return None
            return Failure("verdict", form, "reference: %s | gles: %s" % (ref.message, gl.message),
                           ("verdict", "both-reject"), compare)
        if ref.status == "error":
            return Failure("verdict", form, "reference rejects: %s | gles renders" % ref.message,
                           ("verdict", "reference-rejects"), compare)
        return Failure("verdict", form, "reference renders | gles rejects: %s" % gl.message,
                       ("verdict", "gles-rejects"), compare)


# ---------------------------------------------------------------------------------------------------------
# Reducer
# ---------------------------------------------------------------------------------------------------------

class BudgetExhausted(Exception):
    pass


def sig_digits(v):
    if v == 0:
        return 0
    # Digits of the shortest round-trip form: 73.37 → 4, 70 → 1, 1e300 → 1.
    mantissa = repr(float(abs(v))).split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return max(1, len(mantissa))


def simplicity(v):
    """Smaller is simpler: zero, then fewer significant digits, then closer to 1 in magnitude."""
    if v == 0:
        return (0, 0, 0.0)
    return (1, sig_digits(v), abs(math.log10(abs(v))))


def simpler_numbers(v):
    """Candidates for `v`, simplest first, each strictly simpler than `v`: 0, ±1, the integer, `v` rounded to
    1, 2, 3, … significant digits, the nearest power of ten."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v == 0:
        return []
    s = 1 if v > 0 else -1
    a = abs(float(v))
    cands = [0, s]
    if a >= 1:
        cands.append(s * float(round(a)))
    exact = decimal.Decimal(repr(a))
    exponent = exact.adjusted()
    for d in range(1, 17):
        step = decimal.Decimal(1).scaleb(-(d - 1))
        mantissa = exact.scaleb(-exponent)
        for rounding in (decimal.ROUND_HALF_EVEN, decimal.ROUND_DOWN, decimal.ROUND_UP):
            rv = float(mantissa.quantize(step, rounding=rounding).scaleb(exponent))
            if math.isfinite(rv):
                cands.append(s * rv)
    for e in (math.floor(math.log10(a)), round(math.log10(a))):
        cands.append(s * 10.0 ** max(-307, min(308, e)))
    out, seen = [], set()
    key = simplicity(v)
    for c in cands:
        c = num(float(c)) if not isinstance(c, int) else c
        if c == v or c in seen or not math.isfinite(c) or simplicity(c) >= key:
            continue
        seen.add(c)
        out.append(c)
    out.sort(key=simplicity)
    return out


def parse_path_string(s):
    """A description string → [(op, [numbers])], or None when it does not parse."""
    out, operands = [], []
    for tok in s.split():
        if tok in PATH_OPS:
            if len(operands) != PATH_OPS[tok]:
                return None
            out.append((tok, operands))
            operands = []
        else:
            try:
                operands.append(num(float(tok)))
            except ValueError:
                return None
    return out if not operands else None


def path_string(elements):
    return " ".join(" ".join([fmt(v) for v in nums] + [op]) for op, nums in elements)


def get_at(doc, where):
    node = doc
    for k in where:
        node = node[k]
    return node


def set_at(doc, where, value):
    get_at(doc, where[:-1])[where[-1]] = value


def command_lists(doc):
    """JSON paths of every command list: the document's, scopes' and symbols', outermost first."""
    out = []

    def walk(where, cmds):
        out.append(where)
        for i, c in enumerate(cmds):
            if isinstance(c, dict) and isinstance(c.get("commands"), list):
                walk(where + [i, "commands"], c["commands"])
    if isinstance(doc.get("commands"), list):
        walk(["commands"], doc["commands"])
    for name, sym in sorted(((doc.get("resources") or {}).get("symbols") or {}).items()):
        if isinstance(sym, dict) and isinstance(sym.get("commands"), list):
            walk(["resources", "symbols", name, "commands"], sym["commands"])
    return out


def path_slots(doc):
    """JSON paths of every path value (`"path"` keys in commands)."""
    out = []
    for where in command_lists(doc):
        for i, c in enumerate(get_at(doc, where)):
            if isinstance(c, dict) and "path" in c:
                out.append(where + [i, "path"])
    return out


def number_slots(node, where=()):
    """(JSON path, token index or None) of every number, including those inside path strings."""
    out = []
    if isinstance(node, dict):
        for k in node:
            if k == "format":
                continue
            out += number_slots(node[k], where + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += number_slots(v, where + (i,))
    elif isinstance(node, bool):
        pass
    elif isinstance(node, (int, float)):
        out.append((list(where), None))
    elif isinstance(node, str) and where and where[-1] == "path":
        parsed = parse_path_string(node)
        if parsed:
            n = sum(len(nums) for _, nums in parsed)
            out += [(list(where), j) for j in range(n)]
    return out


class Reducer:
    """Delta debugging over a scene document while `predicate(doc)` stays true.

    Each pass proposes simpler documents; the first that keeps the failure becomes the current one. The
    passes repeat until none makes progress (the result is then 1-minimal with respect to every move the
    passes know) or the budget (tests, seconds) runs out.
    """

    def __init__(self, predicate, max_tests=300, max_seconds=120.0):
        self.predicate = predicate
        self.max_tests = max_tests
        self.deadline = time.monotonic() + max_seconds
        self.tests = 0
        self.cache = {}

    def test(self, doc):
        key = json.dumps(doc, sort_keys=True)
        if key in self.cache:
            return self.cache[key]
        if self.tests >= self.max_tests or time.monotonic() > self.deadline:
            raise BudgetExhausted()
        self.tests += 1
        ok = bool(self.predicate(doc))
        self.cache[key] = ok
        return ok

    def attempt(self, mutate):
        """Applies `mutate` to a copy of the current document; keeps the copy when it still fails. A document
        seen before is never taken again (every one that failed was current once), so passes cannot cycle."""
        d = copy.deepcopy(self.cur)
        mutate(d)  # its return value means nothing (`d.pop(k)` hands back the value)
        if json.dumps(d, sort_keys=True) in self.cache:
            return False
        if self.test(d):
            self.cur = d
            return True
        return False

    def reduce(self, doc):
        self.cur = copy.deepcopy(doc)
        self.cache[json.dumps(self.cur, sort_keys=True)] = True
        passes = [self.pass_commands, self.pass_unwrap, self.pass_keys, self.pass_paths, self.pass_shadings,
                  self.pass_canvas, self.pass_numbers]
        try:
            progress = True
            while progress:
                progress = False
                for p in passes:
                    if p():
                        progress = True
        except BudgetExhausted:
            pass
        return self.cur

    # ddmin over one list at a JSON path (commands, path elements).
    def ddmin(self, where, get=None, put=None):
        get = get or (lambda d: get_at(d, where))
        put = put or (lambda d, v: set_at(d, where, v))
        changed = False
        n = 2
        while True:
            items = get(self.cur)
            if not items:
                break
            n = min(n, len(items))
            chunk = math.ceil(len(items) / n)
            removed = False
            for start in range(0, len(items), chunk):
                rest = items[:start] + items[start + chunk:]
                if self.attempt(lambda d: put(d, copy.deepcopy(rest))):
                    removed = changed = True
                    n = max(n - 1, 2)
                    break
            if not removed:
                if chunk == 1:
                    break
                n = min(n * 2, len(items))
        return changed

    def pass_commands(self):
        changed = False
        i = 0
        while True:
            lists = command_lists(self.cur)
            if i >= len(lists):
                return changed
            changed |= self.ddmin(lists[i])
            i += 1

    def pass_unwrap(self):
        """A scope (copy, layer, clipToLayer) replaced by its commands."""
        changed = False
        for where in command_lists(self.cur):
            try:
                cmds = get_at(self.cur, where)
            except (KeyError, IndexError, TypeError):
                continue
            for i in range(len(cmds) - 1, -1, -1):
                c = cmds[i]
                if isinstance(c, dict) and isinstance(c.get("commands"), list):
                    def splice(d, where=where, i=i):
                        lst = get_at(d, where)
                        lst[i:i + 1] = lst[i]["commands"]
                    if self.attempt(splice):
                        changed = True
                        break
        return changed

    def pass_keys(self):
        """Optional keys dropped: every key but `op` is tried (a required one fails to load, which agrees)."""
        changed = False
        for where in command_lists(self.cur):
            try:
                n = len(get_at(self.cur, where))
            except (KeyError, IndexError, TypeError):
                continue
            for i in range(n):
                try:
                    c = get_at(self.cur, where + [i])
                except (KeyError, IndexError, TypeError):
                    break
                for k in [k for k in c if k not in ("op", "path", "shading", "commands")]:
                    def drop(d, k=k, i=i, where=where):
                        del get_at(d, where + [i])[k]
                    changed |= self.attempt(drop)
        return changed

    def pass_shadings(self):
        changed = False
        for where in command_lists(self.cur):
            try:
                cmds = get_at(self.cur, where)
            except (KeyError, IndexError, TypeError):
                continue
            for i, c in enumerate(cmds):
                if isinstance(c, dict) and "shading" in c:
                    for simple in ({"color": "black"}, {"color": "#ff0000"}):
                        if c["shading"] == simple:
                            break
                        if self.attempt(lambda d, i=i, where=where, s=simple: set_at(d, where + [i, "shading"], dict(s))):
                            changed = True
                            break
        return changed

    def pass_paths(self):
        changed = False
        for where in path_slots(self.cur):
            try:
                p = get_at(self.cur, where)
            except (KeyError, IndexError, TypeError):
                continue
            if p == "":
                continue
            if self.attempt(lambda d, w=where: set_at(d, w, "")):
                changed = True
                continue
            if isinstance(p, dict):
                if "transform" in p and self.attempt(lambda d, w=where: get_at(d, w).pop("transform")):
                    changed = True
                p = get_at(self.cur, where)
                for shape in ("ellipse", "roundedRect"):
                    if shape in p and self.attempt(lambda d, w=where, s=shape: set_at(
                            d, w, dict({"rect": get_at(d, w)[s]}, **({"transform": p["transform"]} if "transform" in p else {})))):
                        changed = True
                p = get_at(self.cur, where)
                for key in ("style", "cornerRadius"):
                    if key in p and self.attempt(lambda d, w=where, k=key: get_at(d, w).pop(k)):
                        changed = True
                p = get_at(self.cur, where)
                if "arc" in p and "clockwise" in p["arc"]:
                    changed |= self.attempt(lambda d, w=where: get_at(d, w)["arc"].pop("clockwise"))
                if "elements" in p:
                    changed |= self.ddmin(where + ["elements"])
                    changed |= self.straighten_elements(where)
            elif isinstance(p, str) and parse_path_string(p) is not None:
                get = lambda d, w=where: parse_path_string(get_at(d, w))
                put = lambda d, v, w=where: set_at(d, w, path_string(v))
                changed |= self.ddmin(where, get, put)
                changed |= self.straighten_string(where)
                # One space between tokens, as the description prints them.
                text = get_at(self.cur, where)
                if isinstance(text, str) and parse_path_string(text) is not None:
                    canonical = path_string(parse_path_string(text))
                    if canonical != text:
                        changed |= self.attempt(lambda d, w=where, t=canonical: set_at(d, w, t))
        return changed

    def straighten_elements(self, where):
        changed = False
        elements = get_at(self.cur, where + ["elements"])
        for j, e in enumerate(elements):
            if isinstance(e, list) and e and e[0] in ("q", "c"):
                changed |= self.attempt(lambda d, j=j: set_at(d, where + ["elements", j], ["l"] + e[-2:]))
        return changed

    def straighten_string(self, where):
        changed = False
        elements = parse_path_string(get_at(self.cur, where)) or []
        for j, (op, nums) in enumerate(elements):
            if op in ("q", "c", "t", "v", "y"):
                def line(d, j=j):
                    els = parse_path_string(get_at(d, where))
                    els[j] = ("l", els[j][1][-2:])
                    set_at(d, where, path_string(els))
                changed |= self.attempt(line)
        return changed

    def pass_canvas(self):
        changed = False
        for key in ("scale", "colorMode", "opaque", "resources"):
            if key in self.cur:
                changed |= self.attempt(lambda d, k=key: d.pop(k))
        size = self.cur.get("size")
        if isinstance(size, list) and len(size) == 2 and all(isinstance(v, (int, float)) and v > 1 for v in size):
            changed |= self.attempt(lambda d: d.__setitem__("size", [1, 1]))
        for axis in (0, 1):
            while True:
                size = self.cur.get("size")
                if not (isinstance(size, list) and len(size) == 2 and isinstance(size[axis], (int, float))
                        and size[axis] > 1):
                    break
                half = num(float(math.ceil(size[axis] / 2)))
                if half == size[axis] or not self.attempt(lambda d, a=axis, h=half: d["size"].__setitem__(a, h)):
                    break
                changed = True
        return changed

    def pass_numbers(self):
        changed = False
        for where, token in number_slots(self.cur):
            try:
                if token is None:
                    v = get_at(self.cur, where)
                else:
                    flat = [x for _, nums in parse_path_string(get_at(self.cur, where)) for x in nums]
                    v = flat[token]
            except (KeyError, IndexError, TypeError):
                continue
            for cand in simpler_numbers(v):
                if token is None:
                    ok = self.attempt(lambda d, c=cand, w=where: set_at(d, w, c))
                else:
                    def put(d, c=cand, w=where, t=token):
                        els = parse_path_string(get_at(d, w))
                        k = t
                        for op, nums in els:
                            if k < len(nums):
                                nums[k] = c
                                break
                            k -= len(nums)
                        set_at(d, w, path_string(els))
                    ok = self.attempt(put)
                if ok:
                    changed = True
                    break
        return changed


# ---------------------------------------------------------------------------------------------------------
# Helpers for the explained differences below.
# ---------------------------------------------------------------------------------------------------------

def all_numbers(node):
    if isinstance(node, dict):
        for v in node.values():
            yield from all_numbers(v)
    elif isinstance(node, list):
        for v in node:
            yield from all_numbers(v)
    elif isinstance(node, bool):
        return
    elif isinstance(node, (int, float)):
        yield node
    elif isinstance(node, str):
        for op, nums in parse_path_string(node) or []:
            yield from nums


def all_commands(doc):
    for where in command_lists(doc):
        yield from get_at(doc, where)


# Explained differences (--known-ok): an over-bar failure whose reduced scene a re-render shows to be one of
# the two differences DESIGN-NOTES.md's bar allows ("Ties and amplification"). Each predicate renders; none
# matches by the scene's looks alone. The defects the fuzzer was written against and the ones it found are
# fixed, each with a test in Tests/GPUCanvasTests/FuzzDefectTests.swift.

# Moves of a tie: one part in 2^18 of a gradient's own length (its t error in float is ~1e-6, gradient.glsl's
# bound), plus 2^-5 device px for radii (a ring's position error, up to 0.017 px); 2^-14 user units for an
# image's or a tile's placement (a sampling coordinate's float error); 2^-20 of a ring's distance from its
# centre (13·2^-24 per unit of |t|).
TIE_RELATIVE = 2.0 ** -18
TIE_RADIUS_PX = 2.0 ** -5
TIE_PLACEMENT = 2.0 ** -14
TIE_FAR_RING = 2.0 ** -20
TIE_THRESHOLD = 2.0 ** -8  # an alpha threshold's min and max: one 8-bit level (8-bit coverage is ±half of one)
TIE_SAMPLES = 7  # moves on each side: 2^-k of the step, k = 0…6
TIE_DIRECTIONS = ((1, 1), (1, 0), (0, 1))  # of a placement's moves


def png_pixels(path):
    """(width, height, premultiplied RGBA8 bytes) of an 8-bit RGBA PNG as canvas-gl writes it (straight alpha,
    not interlaced)."""
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, tag = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if tag == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, ctype, interlace) != (8, 6, 0):
                raise ValueError("%s: not 8-bit RGBA non-interlaced" % path)
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * 4
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        kind, row = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = row[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if kind == 1:
                row[i] = (row[i] + a) & 255
            elif kind == 2:
                row[i] = (row[i] + b) & 255
            elif kind == 3:
                row[i] = (row[i] + (a + b) // 2) & 255
            elif kind == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += row
        prev = row
    for i in range(0, len(out), 4):
        al = out[i + 3]
        for k in range(3):
            out[i + k] = (out[i + k] * al + 127) // 255
    return w, h, bytes(out)


def pixel_diffs(a, b):
    """Per pixel, the largest channel difference of two same-sized pixel buffers."""
    return [max(abs(a[i + k] - b[i + k]) for k in range(4)) for i in range(0, len(a), 4)]


def point_pixels(doc):
    """The device pixels of one point of `doc`'s canvas (scale², rounded up): the fuzzer's smallest share of
    pixels allowed over 2."""
    try:
        scale = float(doc.get("scale", 1))
    except (TypeError, ValueError):
        return 1
    return max(1, math.ceil(scale) ** 2) if math.isfinite(scale) and 0 < scale <= 64 else 1


def meets_bar(diffs, allowance=1):
    return (max(diffs, default=0) <= BAR_MAX_DIFF
            and sum(1 for d in diffs if d > 2) <= max(allowance, BAR_OVER2 * len(diffs)))


def render_pixels(runner, doc, backend, form):
    """The premultiplied pixels of `doc` on one backend, or None when it does not render."""
    path = runner.write(doc)
    png = path[:-5] + ".png"
    try:
        args = ["render", path, "--backend", backend, "-o", png]
        if backend == "gles":
            args += ["--device", "mesa"] + form_flags(form)
        if runner.run(args).status != "ok":
            return None
        return png_pixels(png)
    finally:
        for f in (path, png):
            if os.path.exists(f):
                os.unlink(f)


def gpu_matches_one_of(runner, doc, form, variants):
    """True when each pixel of `doc` on the GLES `form` is, within the bar, that pixel of the reference's
    render of `doc` or of one of `variants` (the same scene moved or nudged a little)."""
    images = ([render_pixels(runner, doc, "gles", form), render_pixels(runner, doc, "reference", form)]
              + [render_pixels(runner, v, "reference", form) for v in variants])
    if any(i is None for i in images) or len({i[:2] for i in images}) != 1:
        return False
    g = images[0][2]
    best = [min(t) for t in zip(*(pixel_diffs(g, i[2]) for i in images[1:]))]
    return meets_bar(best, point_pixels(doc))


def _moved(v, d):
    return [num(v[0] + d[0]), num(v[1] + d[1])]


def tie_moves(doc, sign, direction=(1, 1)):
    """`doc` with every paint discontinuity moved a tiny step (times `sign`, in [−1, 1]; placements along
    `direction`), or None when it has none that can tie with a pixel centre: gradients (their stops, seams,
    start angle and a conic's centre), images and tiles drawn nearest or tiled, alpha thresholds."""
    d, moved = copy.deepcopy(doc), False
    scale = float(d.get("scale", 1) or 1)
    for c in all_commands(d):
        sh = c.get("shading")
        if isinstance(sh, dict):
            if "linearGradient" in sh and "start" in sh and "end" in sh:
                a, b = sh["start"], sh["end"]
                step = [sign * TIE_RELATIVE * (b[0] - a[0]), sign * TIE_RELATIVE * (b[1] - a[1])]
                sh["start"], sh["end"], moved = _moved(a, step), _moved(b, step), True
            elif "radialGradient" in sh:
                r0, r1 = float(sh.get("startRadius", 0)), float(sh.get("endRadius", 0))
                # A ring's float error grows with its distance from the centre (gradient.glsl: 13·u·|t|, in
                # radius units 13·u times the distance): the farthest canvas corner's (transforms ignored).
                cx, cy = (float(v) for v in sh.get("center", [0, 0]))
                far = max(math.hypot(x - cx, y - cy) for x in (0, float(d["size"][0])) for y in (0, float(d["size"][1])))
                step = sign * (TIE_RELATIVE * abs(r1 - r0) + TIE_RADIUS_PX / scale + TIE_FAR_RING * far)
                if direction == (1, 1):
                    # The centre moves, towards the canvas's middle: the rings crossing the canvas move by
                    # about the step.
                    mx, my = float(d["size"][0]) / 2 - cx, float(d["size"][1]) / 2 - cy
                    n = math.hypot(mx, my) or 1.0
                    sh["center"] = _moved([cx, cy], [step * mx / n, step * my / n])
                else:
                    # The radii move (both, or the end radius alone), never below 0: a seam at t = 1 right at
                    # the centre (a start radius of 10¹² shrinking to 0) moves only so.
                    if direction == (1, 0):
                        sh["startRadius"] = num(max(0.0, r0 + step))
                    sh["endRadius"] = num(max(0.0, r1 + step))
                moved = True
            elif "conicGradient" in sh:
                # Its start angle, and its centre: at a pixel centre within float rounding of the centre the
                # angle is the direction of a vector float may round to zero.
                sh["angle"] = num(float(sh.get("angle", 0)) + sign * TIE_RELATIVE * 360)
                step = [sign * TIE_PLACEMENT * direction[0], sign * TIE_PLACEMENT * direction[1]]
                sh["center"], moved = _moved(sh.get("center", [0, 0]), step), True
            elif "tiledImage" in sh:
                step = [sign * TIE_PLACEMENT * direction[0], sign * TIE_PLACEMENT * direction[1]]
                sh["origin"], moved = _moved(sh.get("origin", [0, 0]), step), True
        if c.get("op") == "filter" and isinstance(c.get("filter"), dict) and isinstance(c["filter"].get("alphaThreshold"), dict):
            # A threshold decides at an exact alpha; a pixel's alpha carries its coverage's rounding.
            # Widened (sign > 0) or narrowed (sign < 0): a pixel at either end may fall on either side.
            t = c["filter"]["alphaThreshold"]
            for key, outwards in (("min", -1), ("max", 1)):
                if isinstance(t.get(key), (int, float)):
                    t[key] = num(t[key] + outwards * sign * TIE_THRESHOLD)
                    moved = True
        if c.get("op") == "image":
            for key in ("in", "at"):
                if key in c:
                    c[key] = _moved(c[key][:2], [sign * TIE_PLACEMENT * direction[0],
                                                 sign * TIE_PLACEMENT * direction[1]]) + list(c[key][2:])
                    moved = True
    return d if moved else None


def _paint_tie(failure, doc, runner):
    """Every pixel over the bar takes, on the GPU, the colour the reference gives it when the scene's paint
    discontinuities (`tie_moves`), or the whole picture, move by a step far below a pixel: the discontinuity
    passes within float rounding of that pixel's centre (or of a blend formula's edge), and the GPU (Float)
    decides its side unlike the reference (Double)."""
    if failure.kind != "over-bar" or failure.form == "reference":
        return False
    # Moves across the whole error band, not only its ends: where the paint is steep but continuous (a ring
    # repeated every pixel, far from its centre) the GPU's colour is the reference's at some t inside it.
    # Geometric fractions of the step on each side, so that one lands within a factor of two of any move.
    fractions = [(sign * 2.0 ** -k, direction) for k in range(TIE_SAMPLES) for sign in (1, -1)
                 for direction in TIE_DIRECTIONS]
    moves = [m for m in (tie_moves(doc, f, d) for f, d in fractions) if m is not None]
    # The whole picture moved a step far below a pixel: a discontinuity of coverage or of a blend formula
    # (colour burn's dst = 1, an aliased edge through a centre) decided by the last bit of a coverage.
    scale = float(doc.get("scale", 1) or 1)
    moves += [dict(doc, commands=[{"op": "translate", "x": num(f * d[0] * TIE_PLACEMENT / scale),
                                   "y": num(f * d[1] * TIE_PLACEMENT / scale)}] + doc["commands"])
              for f, d in fractions]
    return gpu_matches_one_of(runner, doc, failure.form, moves)


# Blend modes whose result can move by more than the destination does: a 1-level difference in what the
# earlier draws left (within the bar) becomes several levels (the non-separable modes' hue and saturation
# of a near-grey, a colour burn or dodge's division, overlay and the lights doubling the slope).
AMPLIFYING_BLENDS = {"overlay", "colorDodge", "colorBurn", "softLight", "hardLight", "hue", "saturation", "color",
                     "luminosity", "plusDarker"}
STATE_OPS = {"opacity", "translate", "scale", "rotate", "concatenate", "transform", "blendMode", "clip",
             "clipToLayer"}


def _blend_amplification(failure, doc, runner):
    """The last draw blends with an amplifying mode over what the earlier draws left, which the two backends
    drew within the bar; drawn by the reference over the GPU's own result of those earlier draws (an image of
    the canvas, then the same state and the last draw), it gives the GPU's picture within the bar. So the
    difference is the blend formula's amplification of an allowed difference, not a blend defect. Where the
    canvas stores more than 8 bits (the linear modes) or the replay misses, the reference instead draws over
    a destination nudged by far less than a level (`_nudged_destination`)."""
    if failure.kind != "over-bar" or failure.form == "reference":
        return False
    cmds = doc["commands"]
    # The whole frame in one plain layer or copy scope (no opacity, no state outside): composited normally over
    # the empty canvas, the layer is its content, so the draws are judged as if they stood at the top.
    if len(cmds) == 1 and cmds[0].get("op") in ("layer", "copy") and set(cmds[0]) == {"op", "commands"}:
        return _blend_amplification(failure, dict(doc, commands=cmds[0]["commands"]), runner)
    if not cmds or cmds[-1].get("op") not in ("fill", "stroke", "image"):
        return False
    blend = "normal"
    for c in cmds[:-1]:
        if c.get("op") == "blendMode":
            blend = c.get("value", "normal")
    if blend not in AMPLIFYING_BLENDS:
        return False
    prefix = dict(doc, commands=cmds[:-1])
    if runner.check(prefix, failure.form) is not None:
        return False
    return _replayed_over_gpu_destination(failure, doc, runner) or _nudged_destination(failure, doc, runner)


# How far `_nudged_destination` moves the destination: a 2^-10 … 2^-14 share of black or white over it, a
# quarter of an 8-bit level and less.
NUDGES = [2.0 ** -k for k in (10, 12, 14)]


def _nudged_destination(failure, doc, runner):
    """The GPU's picture, pixel by pixel, is the reference's for a destination moved by far less than a level
    before the last draw (black or white at opacity 2^-10 … 2^-14 over the canvas): the last draw's formula is
    discontinuous or steep right at the destination the earlier draws left (colour burn of a destination of
    exactly 1), and the allowed rounding differences of those draws decide the side."""
    cmds = doc["commands"]
    w, h = doc["size"]
    moves = []
    for colour in ("black", "white"):
        for e in NUDGES:
            nudge = {"op": "copy", "commands": [
                {"op": "transform", "value": [1, 0, 0, 1, 0, 0]}, {"op": "opacity", "value": num(e)},
                {"op": "blendMode", "value": "normal"},
                {"op": "fill", "path": {"rect": [0, 0, w, h]}, "shading": {"color": colour}}]}
            moves.append(dict(doc, commands=cmds[:-1] + [nudge, cmds[-1]]))
    return gpu_matches_one_of(runner, doc, failure.form, moves)


def _replayed_over_gpu_destination(failure, doc, runner):
    """The reference's last draw over an image of the GPU's earlier draws matches the GPU's picture (the
    sRGB-encoded mode only: the image holds 8 bits, as that canvas does)."""
    if doc.get("colorMode", "nonLinear") != "nonLinear":
        return False
    cmds = doc["commands"]
    prefix = dict(doc, commands=cmds[:-1])
    under = render_pixels(runner, prefix, "gles", failure.form)
    full = render_pixels(runner, doc, "gles", failure.form)
    if under is None or full is None:
        return False
    # The GPU's earlier draws as a PNG at device resolution, drawn 1:1 (straight alpha: exact where opaque,
    # within a rounding elsewhere).
    w, h, px = under
    straight = bytearray(px)
    for i in range(0, len(px), 4):
        a = px[i + 3]
        for k in range(3):
            straight[i + k] = min(255, (px[i + k] * 255 + a // 2) // a) if a else 0
    scale = float(doc.get("scale", 1) or 1)
    size = doc["size"]
    replay = {k: v for k, v in doc.items() if k not in ("commands", "resources")}
    resources = copy.deepcopy(doc.get("resources", {}))
    resources.setdefault("images", {})["fuzz-under"] = {
        "pngBase64": base64.b64encode(png_bytes(w, h, bytes(straight))).decode(), "scale": num(scale),
        "interpolation": "none"}
    replay["resources"] = resources
    replay["commands"] = ([{"op": "image", "image": "fuzz-under", "in": [0, 0, size[0], size[1]]}]
                          + [c for c in cmds[:-1] if c.get("op") in STATE_OPS] + [cmds[-1]])
    over = render_pixels(runner, replay, "reference", failure.form)
    return over is not None and over[:2] == full[:2] and meets_bar(pixel_diffs(full[2], over[2]), point_pixels(doc))


def without_filters(node):
    """`node` (a document or a command list) with every `filter` op left out."""
    if isinstance(node, dict):
        return {k: without_filters(v) for k, v in node.items()}
    if isinstance(node, list):
        return [without_filters(v) for v in node if not (isinstance(v, dict) and v.get("op") == "filter")]
    return node


# An unfiltered pixel this transparent (or more) has no meaningful colour to unpremultiply: 2 levels of alpha.
NEAR_TRANSPARENT = 2


def _unpremultiply_tie(failure, doc, runner):
    """Every pixel over the bar is one a colour filter sees as nearly transparent: without the filters, its
    alpha is at most 2 levels on the reference or on the GPU. A filter that reads unpremultiplied colour
    (luminanceToAlpha, a colour matrix with offsets) shows a pixel's full colour at any coverage and nothing
    at none, so a sliver of coverage one backend keeps and the other rounds away flips it (docs/DESIGN-NOTES.md,
    "Ties and amplification")."""
    if failure.kind != "over-bar" or failure.form == "reference" or not any(
            c.get("op") == "filter" for c in all_commands(doc)):
        return False
    plain = without_filters(doc)
    images = [render_pixels(runner, doc, "gles", failure.form), render_pixels(runner, doc, "reference", failure.form),
              render_pixels(runner, plain, "gles", failure.form), render_pixels(runner, plain, "reference", failure.form)]
    if any(i is None for i in images) or len({i[:2] for i in images}) != 1:
        return False
    g, r, pg, pr = (i[2] for i in images)
    diffs = pixel_diffs(g, r)
    kept = bytearray(len(g))
    for k, d in enumerate(diffs):
        near = pg[4 * k + 3] <= NEAR_TRANSPARENT or pr[4 * k + 3] <= NEAR_TRANSPARENT
        kept[4 * k:4 * k + 4] = r[4 * k:4 * k + 4] if (d > 2 and near) else g[4 * k:4 * k + 4]
    return meets_bar(pixel_diffs(bytes(kept), r), point_pixels(doc))


def clamped_colours(node):
    """`node` with every `{"space": …, "rgba": […]}` colour's components clamped to 0…1."""
    if isinstance(node, dict):
        out = {k: clamped_colours(v) for k, v in node.items()}
        if "space" in out and isinstance(out.get("rgba"), list):
            out["rgba"] = [min(max(v, 0), 1) if isinstance(v, (int, float)) and not isinstance(v, bool) else v
                           for v in out["rgba"]]
        return out
    if isinstance(node, list):
        return [clamped_colours(v) for v in node]
    return node


def _extended_amplification(failure, doc, runner):
    """An extended-range colour (a component past 0…1 in an extendedLinear canvas: Display P3 green at 10⁴)
    multiplies every coverage difference the bar allows by its size, up to a whole 255 for a 10⁻⁴ sliver of
    coverage. Verified by clamping every colour to 0…1: the two backends must then meet the bar
    (docs/DESIGN-NOTES.md, "Ties and amplification")."""
    if failure.kind != "over-bar" or failure.form == "reference" or doc.get("colorMode") != "extendedLinear":
        return False
    plain = clamped_colours(doc)
    if plain == doc:
        return False
    g, r = render_pixels(runner, plain, "gles", failure.form), render_pixels(runner, plain, "reference", failure.form)
    if g is None or r is None or g[:2] != r[:2]:
        return False
    return meets_bar(pixel_diffs(g[2], r[2]), point_pixels(doc))


# Runs of this many identical draws in a row make `_repetition_amplification` apply.
REPEATED_DRAWS = 8


def collapsed_repeats(node):
    """`node` with every run of identical consecutive commands (in every command list) kept once."""
    if isinstance(node, dict):
        return {k: collapsed_repeats(v) for k, v in node.items()}
    if isinstance(node, list):
        out = []
        for v in node:
            v = collapsed_repeats(v)
            if not (out and isinstance(v, dict) and "op" in v and out[-1] == v):
                out.append(v)
        return out
    return node


def _repetition_amplification(failure, doc, runner):
    """The same draw composited N times in a row: a pixel's result 1 − (1 − a)^N moves N·(1 − a)^(N−1) times
    as far as the draw's own coverage a does, so the difference the bar allows one draw (8-bit coverage against
    exact) grows by up to N·e^(−N·a): 180× for 500 draws of a 0.002 sliver. Verified by keeping each run of
    identical draws once: the two backends must then meet the bar (docs/DESIGN-NOTES.md)."""
    if failure.kind != "over-bar" or failure.form == "reference":
        return False

    def longest_run(node):
        best = 0
        if isinstance(node, dict):
            for v in node.values():
                best = max(best, longest_run(v))
        elif isinstance(node, list):
            run = 0
            for i, v in enumerate(node):
                run = run + 1 if i and isinstance(v, dict) and "op" in v and v == node[i - 1] else 1
                best = max(best, run, longest_run(v))
        return best
    if longest_run(doc.get("commands", [])) < REPEATED_DRAWS:
        return False
    once = collapsed_repeats(doc)
    g, r = render_pixels(runner, once, "gles", failure.form), render_pixels(runner, once, "reference", failure.form)
    return g is not None and r is not None and g[:2] == r[:2] and meets_bar(pixel_diffs(g[2], r[2]), point_pixels(doc))


KNOWN = [
    ("paint-tie", "a paint discontinuity (gradient stop or seam, image texel or tile edge) within float rounding "
     "of a pixel centre, decided the other way on the GPU; verified by moving it a step far below a pixel",
     _paint_tie),
    ("blend-amplification", "an amplifying blend mode turns an allowed difference of the destination into more; "
     "verified by blending the reference's last draw over the GPU's own destination", _blend_amplification),
    ("unpremultiply-tie", "a colour filter reads the unpremultiplied colour of a pixel one backend covers by a "
     "sliver and the other not at all; verified by rendering without the filters", _unpremultiply_tie),
    ("extended-amplification", "an extended-range colour multiplies an allowed coverage difference by its size; "
     "verified by clamping every colour to 0…1", _extended_amplification),
    ("repetition-amplification", "one draw repeated many times multiplies its allowed coverage difference; "
     "verified by keeping each run of identical draws once", _repetition_amplification),
]


def known_defect(failure, doc, runner):
    for name, _, match in KNOWN:
        if match(failure, doc, runner):
            return name
    return None


# ---------------------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------------------

class Fuzzer:
    def __init__(self, args, runner, forms, features):
        self.args, self.runner, self.forms, self.features = args, runner, forms, features
        self.print_lock = threading.Lock()
        self.failures = []   # Failure, one per saved scene
        self.known = []
        self.known_names = []
        self.verdicts = {}   # what both backends did, on the first form, scene by scene
        self.times = []      # (seconds checking all forms, index), reduction not included
        self.mutants = 0     # malformed mutants checked

    def say(self, line):
        with self.print_lock:
            print(line, flush=True)

    def item(self, index):
        """Scene `index` in the run's mode: the valid scene, its malformed mutant, or both."""
        n = 0
        if self.args.mode in ("valid", "both"):
            n += self.scene(index)
        if self.args.mode in ("malformed", "both"):
            n += self.mutant(index)
        return n

    def mutant(self, index):
        """Checks the malformed mutant of scene `index` on one form (the forms take turns): no crash, no hang,
        one verdict, and the bar where both render. Saved as generated (the reducer works on documents; a
        mutant may not parse)."""
        data = mutant_for(self.args.seed, index, self.features)
        form = self.forms[index % len(self.forms)]
        if self.args.policy == "strict" or (self.args.policy == "both" and index // len(self.forms) % 2 == 1):
            form += STRICT
        path = self.runner.write(data)
        start = time.monotonic()
        try:
            f = self.runner._check(path, form, {})
        finally:
            os.unlink(path)
        self.times.append((time.monotonic() - start, index))
        self.mutants += 1
        if f is None:
            return 0
        # A mutant that is still a scene is judged as one: a tie or an amplification a re-render shows is known.
        if self.args.known_ok and f.kind == "over-bar" and valid_json(data):
            known = known_defect(f, json.loads(data.decode("utf-8")), self.runner)
            if known:
                self.known.append(f)
                self.known_names.append(known)
                self.say("known  %-8s %s mutant seed %s #%d: %s [%s]" % (f.kind, f.form, self.args.seed, index, f.detail, known))
                return 0
        base = os.path.join(self.args.out, "%s-mutant-%s-%d" % (f.kind, self.args.seed, index))
        with open(base + ".json", "wb") as out:
            out.write(data)
        with open(base + ".txt", "w", encoding="utf-8") as out:
            out.write("%s %s (malformed mode): %s | reproduce: %s\n"
                      % (f.kind, f.form, f.detail.replace("\n", " "), f.repro.replace("SCENE.json", base + ".json")))
        self.failures.append(f)
        self.say("FAIL   %-8s %s mutant seed %s #%d: %s -> %s.json" % (f.kind, f.form, self.args.seed, index, f.detail, base))
        return 1

    def scene(self, index):
        """Checks scene `index` on every form; reduces and saves each failure kind once."""
        doc = scene_for(self.args.seed, index, self.features)
        ref_cache = {}
        found = {}
        start = time.monotonic()
        # Diagnostics policies (--policy): odd scenes of `both` render strict, where what lenient renders skip
        # with a warning is an error both backends must give alike.
        strict = self.args.policy == "strict" or (self.args.policy == "both" and index % 2 == 1)
        for form in self.forms:
            form = form + STRICT if strict else form
            f = self.runner.check(doc, form, ref_cache)
            if f is None:
                continue
            if f.kind in found:
                found[f.kind][1].append(form)
                continue
            found[f.kind] = (f, [])
            if f.form == "reference":
                break  # the reference fails alone: every form would say the same
        self.times.append((time.monotonic() - start, index))
        v = ref_cache.get("verdict", "failed")
        self.verdicts[v] = self.verdicts.get(v, 0) + 1
        for kind, (f, others) in found.items():
            self.report(index, doc, f, others)
        return len(found)

    def predicate_for(self, f):
        form = f.form if f.form != "reference" else self.forms[0]

        def still_fails(d):
            if f.signature[:2] in (("crash", "reference"), ("crash", "gles")):
                g = self.runner.check_alone(d, form, only=f.signature[1])
            elif f.kind == "verdict" and f.signature != ("verdict", "compare"):
                g = self.runner.check_alone(d, form)
            else:
                g = self.runner.check(d, form)
            return g is not None and g.kind == f.kind and g.signature == f.signature and g.form == f.form
        return still_fails

    def report(self, index, doc, f, others):
        reduced, tests = doc, 0
        if not self.args.no_reduce:
            r = Reducer(self.predicate_for(f), self.args.reduce_tests, self.args.reduce_seconds)
            reduced = r.reduce(doc)
            tests = r.tests
            # Said again for the reduced scene, with the full attribution: a scene reduced for a crash of
            # the GLES side may crash the reference too once what the reference refused is gone.
            again = self.runner.check(reduced, f.form if f.form != "reference" else self.forms[0])
            if again is not None and again.kind == f.kind:
                f = again
        known = known_defect(f, reduced, self.runner) if self.args.known_ok else None
        also = (" (also %s)" % ", ".join(others)) if others and f.form != "reference" else ""
        if known:
            self.known.append(f)
            self.known_names.append(known)
            self.say("known  %-8s %s%s seed %s #%d: %s [%s]" % (f.kind, f.form, also, self.args.seed, index, f.detail, known))
            return
        base = os.path.join(self.args.out, "%s-%s-%d" % (f.kind, self.args.seed, index))
        with open(base + ".json", "w", encoding="utf-8") as out:
            out.write(dumps(reduced) + "\n")
        repro = f.repro.replace("SCENE.json", base + ".json")
        with open(base + ".txt", "w", encoding="utf-8") as out:
            out.write("%s %s%s: %s | reproduce: %s\n" % (f.kind, f.form, also, f.detail.replace("\n", " "), repro))
        self.failures.append(f)
        self.say("FAIL   %-8s %s%s seed %s #%d: %s -> %s.json (%d reduction tests)"
                 % (f.kind, f.form, also, self.args.seed, index, f.detail, base, tests))

    def run(self):
        a = self.args
        start = time.monotonic()
        deadline = start + a.minutes * 60 if a.minutes else None
        done = 0
        next_index = a.start
        end_index = a.start + a.count if not deadline else None
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
            pending = set()
            while True:
                while len(pending) < a.jobs * 2 and (end_index is None or next_index < end_index) \
                        and (deadline is None or time.monotonic() < deadline):
                    pending.add(pool.submit(self.item, next_index))
                    next_index += 1
                if not pending:
                    break
                finished, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in finished:
                    fut.result()
                    done += 1
        elapsed = time.monotonic() - start
        kinds = {k: sum(1 for f in self.failures if f.kind == k) for k in ("crash", "verdict", "over-bar")}
        if self.times:
            slow, slow_index = max(self.times)
            self.say("fuzz: checking took %.0f ms a scene on average (all forms, reductions not included), "
                     "slowest #%d %.0f ms; %s" % (1000 * sum(t for t, _ in self.times) / len(self.times), slow_index,
                                                  1000 * slow, ", ".join("%s %d" % kv for kv in sorted(self.verdicts.items()))))
        if self.known:
            self.say("fuzz: %d differences explained by a re-render (--known-ok: %s), not counted"
                     % (len(self.known), ", ".join("%s %d" % (n, sum(1 for k in self.known_names if k == n))
                                                   for n, _, _ in KNOWN)))
        valid = done if a.mode != "malformed" else 0
        self.say("fuzz: %d scenes × %d forms and %d malformed mutants, %d failures (crash %d, verdict %d, over-bar %d), "
                 "seed %s, mode %s, %.0f s"
                 % (valid, len(self.forms), self.mutants, len(self.failures), kinds["crash"], kinds["verdict"],
                    kinds["over-bar"], a.seed, a.mode, elapsed))
        return 1 if self.failures else 0


def preflight(runner, forms):
    """Stops early, with the tool's words, when canvas-gl or a GLES form cannot render at all."""
    doc = {"format": FORMAT, "size": [4, 4], "commands": [{"op": "fill", "path": {"rect": [0, 0, 2, 2]}, "shading": {"color": "red"}}]}
    path = runner.write(doc)
    try:
        for backend, form in [("reference", forms[0])] + [("gles", f) for f in forms]:
            o = runner.render(path, backend, form)
            if o.status != "ok":
                what = backend if backend == "reference" else "gles " + form
                sys.exit("fuzz: canvas-gl cannot render a plain scene with %s: %s"
                         % (what, o.message or o.crash_text()))
    finally:
        os.unlink(path)


# ---------------------------------------------------------------------------------------------------------
# Self-test (no canvas-gl): the reducer on synthetic predicates, the generator's determinism and output.
# ---------------------------------------------------------------------------------------------------------

def self_test():
    failures = []

    def check(cond, what):
        if not cond:
            failures.append(what)
            print("self-test FAILED: " + what)

    def strokes(d):
        return [c for c in all_commands(d) if c.get("op") == "stroke"]

    # 1. "A stroke with lineWidth > 50": one stroke, an empty path, the shading simplified, no other key but
    #    a round lineWidth > 50, the canvas 1×1 with no scale.
    def valid(d):  # what the loader would refuse, which real failures cannot survive
        return all(isinstance(v, (int, float)) and v > 0 for v in d.get("size", [0]))

    def wide(d):
        return valid(d) and any(isinstance(c.get("lineWidth"), (int, float)) and c["lineWidth"] > 50 for c in strokes(d))
    # The features are spelled out (the default set before images were added) so that this search finds the
    # scene it was written for, whatever DEFAULT_FEATURES becomes.
    doc = None
    for i in range(200):
        d = scene_for(7, i, ["fill", "stroke", "state", "copy", "opaque", "clip", "layer", "clipToLayer", "blendMode",
                             "gradient"])
        if wide(d) and len(json.dumps(d)) > 1500 and any(c.get("op") == "copy" for c in d["commands"]):
            doc = d
            break
    check(doc is not None, "the generator makes a large scene with a wide stroke among its first 200")
    if doc is not None:
        r = Reducer(wide, max_tests=5000, max_seconds=60)
        red = r.reduce(doc)
        c = red["commands"]
        check(wide(red), "the reduced scene still fails")
        check(set(red) == {"format", "size", "commands"}, "document keys reduced: %s" % sorted(red))
        check(red["size"] == [1, 1], "canvas reduced to 1×1: %s" % red["size"])
        check(len(c) == 1 and c[0].get("op") == "stroke", "one stroke left: %s" % c)
        if len(c) == 1:
            s = c[0]
            check(set(s) == {"op", "path", "shading", "lineWidth"}, "stroke keys reduced: %s" % sorted(s))
            check(s.get("path") == "", "path reduced to the empty path: %r" % s.get("path"))
            check(s.get("shading") == {"color": "black"}, "shading reduced: %r" % s.get("shading"))
            lw = s.get("lineWidth")
            check(isinstance(lw, int) and lw > 50 and sig_digits(lw) == 1, "lineWidth rounded: %r" % lw)
            # 1-minimal: no single simpler number keeps the failure.
            check(all(not wide(dict(red, commands=[dict(s, lineWidth=v)])) for v in simpler_numbers(lw)),
                  "lineWidth %r is minimal" % lw)
        again = Reducer(wide).reduce(red)
        check(again == red, "reducing the result again changes nothing")
        print("self-test: wide stroke: %d tests, %d → %d bytes: %s" % (r.tests, len(dumps(doc)), len(dumps(red)), dumps(red)))

    # 2. "A cubic in a string path, nested in a copy scope, with a control point x > 1000": the scope is
    #    unwrapped, the path is one cubic whose numbers are all 0 but that x, which is a round number > 1000.
    def cubic(d):
        if not valid(d):
            return False
        for c in all_commands(d):
            p = c.get("path")
            if isinstance(p, str):
                for op, nums in parse_path_string(p) or []:
                    if op == "c" and nums[0] > 1000:
                        return True
        return False
    doc = {"format": FORMAT, "size": [300, 200], "scale": 2, "opaque": False, "commands": [
        {"op": "fill", "path": {"rect": [1, 2, 3, 4]}, "shading": {"color": "red"}},
        {"op": "copy", "commands": [
            {"op": "translate", "x": 3, "y": 4},
            {"op": "stroke", "path": "10.5 20 m 30 40 l 1234.567 5 6.25 7 8 9 c 1 2 l h", "shading": "foreground",
             "lineWidth": 3, "dash": [1, 2]}]},
        {"op": "opacity", "value": 0.5}]}
    r = Reducer(cubic, max_tests=5000, max_seconds=60)
    red = r.reduce(doc)
    expect = {"format": FORMAT, "size": [1, 1], "commands": [{"op": "stroke", "path": "2000 0 0 0 0 0 c",
                                                               "shading": {"color": "black"}}]}
    check(red == expect, "cubic reduced to %s, expected %s" % (dumps(red), dumps(expect)))
    print("self-test: cubic in a scope: %d tests: %s" % (r.tests, dumps(red)))

    # 3. The generator: the same (seed, index) gives the same scene; scenes are valid JSON with finite
    #    numbers; --features all reaches every feature.
    check(scene_for(3, 11, DEFAULT_FEATURES) == scene_for(3, 11, DEFAULT_FEATURES), "scenes are deterministic")
    ops, kinds = set(), set()
    for i in range(300):
        d = scene_for(5, i, ALL_FEATURES)
        json.loads(dumps(d))  # allow_nan=False raises on NaN or infinity
        for c in all_commands(d):
            ops.add(c["op"])
            sh = c.get("shading")
            if isinstance(sh, dict):
                kinds.update(k for k in sh if k in ("color", "linearGradient", "radialGradient", "conicGradient", "tiledImage"))
        kinds.update(k for k in ("colorMode", "opaque", "resources") if k in d)
    want_ops = {"fill", "stroke", "opacity", "translate", "scale", "rotate", "concatenate", "transform", "blendMode",
                "copy", "clip", "layer", "clipToLayer", "filter", "image", "text", "symbol"}
    check(want_ops <= ops, "--features all makes every op: missing %s" % sorted(want_ops - ops))
    want = {"color", "linearGradient", "radialGradient", "conicGradient", "tiledImage", "colorMode", "opaque", "resources"}
    check(want <= kinds, "--features all makes every shading and document key: missing %s" % sorted(want - kinds))
    default_ops = set()
    for i in range(300):
        d = scene_for(5, i, DEFAULT_FEATURES)
        default_ops.update(c["op"] for c in all_commands(d))
    check(default_ops == {"fill", "stroke", "opacity", "translate", "scale", "rotate", "concatenate", "transform",
                          "blendMode", "copy", "clip", "layer", "clipToLayer", "image", "filter", "text", "symbol"},
          "default ops: %s" % sorted(default_ops))
    check(verdict_words("not supported yet: blend mode .multiply (draw #0)")
          == verdict_words("not supported yet: draw #0: blend mode .multiply on the GLES backend (only .normal is drawn yet)"),
          "backend words are dropped from error messages")
    # 4. The hunt: text reaches many general categories and line-break classes and the emoji sequences; wild
    #    numbers reach keys besides coordinates; mutants are deterministic bytes.
    tables = unicode_tables()
    if tables is not None:
        cats, classes, emoji = tables
        cat_of = {}
        for name, ranges in cats.items():
            for lo, hi in ranges:
                cat_of[(lo, hi)] = name
        seen_cats, seen_flags = set(), False
        rng = random.Random(11)
        for _ in range(3000):
            t = text_piece(rng)
            seen_flags |= "\U0001F1EB\U0001F1F7" in t or any(0x1F1E6 <= ord(ch) <= 0x1F1FF for ch in t)
            for ch in t[:4]:
                for (lo, hi), name in cat_of.items():
                    if lo <= ord(ch) <= hi:
                        seen_cats.add(name)
                        break
        check(len(seen_cats) >= 25, "text reaches most general categories: %s" % sorted(seen_cats))
        check(seen_flags, "text reaches regional indicators (flags)")
    else:
        print("self-test: no unicode-data, the Unicode checks are skipped")
    wild_keys = set()
    for i in range(300):
        d = scene_for(9, i, ALL_FEATURES)
        for c in all_commands(d):
            for k in ("value", "miterLimit", "opacity"):
                if isinstance(c.get(k), (int, float)) and abs(c[k]) in (2 ** 15, 2 ** 31, 1e300, 5e-324):
                    wild_keys.add(k)
    check(wild_keys, "wild scenes put magnitudes in keys besides coordinates")
    check(mutant_for(4, 2, DEFAULT_FEATURES) == mutant_for(4, 2, DEFAULT_FEATURES), "mutants are deterministic")
    check(any(not valid_json(mutant_for(4, i, DEFAULT_FEATURES)) for i in range(60)), "some mutants are not JSON")
    print("self-test: %s" % ("passed" if not failures else "%d FAILED" % len(failures)))
    return 1 if failures else 0


def valid_json(data):
    try:
        json.loads(data.decode("utf-8"))
        return True
    except (UnicodeDecodeError, ValueError):
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See the module docstring (head scripts/fuzz.py) and docs/ARCHITECTURE.md.")
    ap.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--count", type=int, help="number of scenes (default 100)")
    g.add_argument("--minutes", type=float, help="run for this long instead of a fixed count")
    ap.add_argument("--start", type=int, default=0, help="index of the first scene (default 0)")
    ap.add_argument("--canvas-gl", default=os.path.join(ROOT, ".build", "debug", "canvas-gl"),
                    help="the canvas-gl executable (default .build/debug/canvas-gl)")
    ap.add_argument("--out", default="fuzz-out", help="where failures are saved (default fuzz-out/)")
    ap.add_argument("--forms", default="all", help="all, or a comma list of: " + ", ".join(FORMS))
    ap.add_argument("--features", default="default",
                    help="default, all, or a comma list of: default, " + ", ".join(ALL_FEATURES))
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="scenes checked at once (default 2)")
    ap.add_argument("--timeout", type=float, default=30, help="seconds before a canvas-gl process counts as hung (default 30)")
    ap.add_argument("--mode", choices=["valid", "malformed", "both"], default="both",
                    help="valid scenes on every form, malformed mutants of them (one form each, in turn), or both "
                         "(default both)")
    ap.add_argument("--policy", choices=["lenient", "strict", "both"], default="both",
                    help="diagnostics policy canvas-gl renders with: lenient (warnings), strict (--strict: they are "
                         "errors), or both, alternating scene by scene (default both)")
    ap.add_argument("--known-ok", action="store_true",
                    help="do not count over-bar failures a re-render shows to be a paint tie or a blend amplification "
                         "(KNOWN in this script; docs/DESIGN-NOTES.md, \"Ties and amplification\")")
    ap.add_argument("--no-reduce", action="store_true", help="save failing scenes as generated")
    ap.add_argument("--reduce-tests", type=int, default=300, help="most canvas-gl runs per reduction (default 300)")
    ap.add_argument("--reduce-seconds", type=float, default=120, help="most seconds per reduction (default 120)")
    ap.add_argument("--print-scene", type=int, metavar="I", help="print scene I of --seed as JSON and exit")
    ap.add_argument("--self-test", action="store_true", help="test the reducer and the generator, then exit")
    a = ap.parse_args()

    if a.self_test:
        return self_test()

    if a.features == "all":
        features = ALL_FEATURES
    else:
        features = set()
        for f in a.features.split(","):
            f = f.strip()
            if f == "default":
                features.update(DEFAULT_FEATURES)
            elif f in ALL_FEATURES:
                features.add(f)
            elif f:
                ap.error("unknown feature %r (expected default, all, or some of: %s)" % (f, ", ".join(ALL_FEATURES)))
        # A scene needs something to draw with.
        features.update(["fill"])
        features = sorted(features)

    if a.print_scene is not None:
        print(json.dumps(scene_for(a.seed, a.print_scene, features), allow_nan=False, ensure_ascii=True, indent=1))
        return 0

    forms = list(FORMS) if a.forms == "all" else [f.strip() for f in a.forms.split(",") if f.strip()]
    for f in forms:
        if f not in FORMS:
            ap.error("unknown form %r (expected all or some of: %s)" % (f, ", ".join(FORMS)))
    if a.count is None and a.minutes is None:
        a.count = 100
    if a.jobs < 1:
        ap.error("--jobs must be at least 1")
    if not os.access(a.canvas_gl, os.X_OK):
        sys.exit("fuzz: no canvas-gl at %s (build it: swift build --product canvas-gl)" % a.canvas_gl)
    os.makedirs(a.out, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="gpucanvas-fuzz-")
    try:
        runner = Runner(os.path.abspath(a.canvas_gl), a.timeout, tmp)
        preflight(runner, forms)
        return Fuzzer(a, runner, forms, features).run()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
