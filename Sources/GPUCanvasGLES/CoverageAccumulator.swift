// CPU coverage for the raster-atlas strategy: a dense signed-area accumulation buffer per atlas piece.
//
// Same coverage definition as the reference (docs/DESIGN-NOTES.md "Coverage"), different algorithm. The reference
// keeps sparse cells and sweeps them; here every pixel row of the piece has a dense buffer `acc` of
// width + 2 doubles whose running (prefix) sum along the row is the accumulated signed area of each pixel
// (doubles, not floats: a path that retraces itself thousands of times puts thousands of deposits into one
// cell, and single-precision sums of them drifted by up to 49 levels, with grey streaks where a row's sum
// no longer returned to 0; with doubles, S1's and S2's frame medians moved within the noise, S1's coverage
// stage by up to +2 ms of ~26, 7 interleaved runs):
//
//   - An edge piece inside one pixel column c of a row, with signed height dy (+ downward) and mean x m
//     within the column (0 ≤ m ≤ 1), covers dy·(1 − m) of pixel c right of itself and the full dy of every
//     pixel further right. So it adds dy·(1 − m) to acc[c] and dy·m to acc[c + 1]; the prefix sum then
//     yields dy·(1 − m) at c and dy from c + 1 on. An edge crossing several columns is split at the column
//     lines (its dy shared in proportion to the x length in each column). This is exact, not sampled.
//   - Parts of an edge left of the piece act as a vertical edge on its left border (they change the winding
//     of every pixel of the row); parts right of it change nothing inside and are dropped.
//   - `antialiased: false` uses the same buffer for crossing counts: an edge whose half-open y range holds
//     the row's centre line y + 0.5 adds ±1 at the first column whose centre is at or right of the
//     crossing, so the prefix sum is the winding number at each pixel centre. That column is decided
//     exactly (`CentreColumns`: the textbook cut, and `EdgeCut` only within ulps of a centre), so ties
//     follow the reference's top-left rule for any coordinates.
//
// The fill rule then maps the sum a to coverage: non-zero min(|a|, 1), even-odd |a − 2·round(a/2)|.
// The prefix sum only changes at columns that received a deposit, so each row also keeps a bitmask of
// those columns: the resolve walks the set bits and fills the runs between them with one constant
// (a memset for R8), so a wide interior costs a memset, not a float add per pixel, and empty rows nothing.

/// A band of a piece to draw: its bounding rectangle (piece-local pixels) and how far its left and right
/// sides are inset at the top and bottom edges, in 1/16 px (all 0: the rectangle itself).
struct BandShape: Equatable {
    var rect: PixelRect
    /// (left at top, left at bottom, right at top, right at bottom).
    var insets: (Int16, Int16, Int16, Int16) = (0, 0, 0, 0)
    /// Baked paint's solid interior: piece-local columns of `rect` full on all its rows, drawn from a
    /// strip (empty: none, or too small to pay; see `CoverageAccumulator.bands`).
    var solid: Range<Int> = 0 ..< 0

    static func == (a: BandShape, b: BandShape) -> Bool {
        a.rect == b.rect && a.insets == b.insets && a.solid == b.solid
    }

    /// Pixels the trapezoid covers (its area, rounded; insets may be negative by up to the band padding).
    var area: Int {
        let top = Double(rect.width) - Double(Int(insets.0) + Int(insets.2)) / 16
        let bottom = Double(rect.width) - Double(Int(insets.1) + Int(insets.3)) / 16
        return Int(((top + bottom) / 2 * Double(rect.height)).rounded())
    }
}

/// A growable raw buffer: element access through a pointer taken once per call, so hot loops pay neither
/// bounds checks nor the dynamic exclusivity checks of class-held arrays.
final class ScratchBuffer<T: BitwiseCopyable> {
    private(set) var pointer: UnsafeMutablePointer<T>
    private(set) var capacity: Int
    private let fill: T?

    /// `fill`: what new storage holds; nil leaves it unwritten, for buffers whose users write every element
    /// before reading it (an arena, texel rows): filling them would only fault their pages in twice.
    init(fill: T?) {
        self.fill = fill
        capacity = 0
        pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    }

    /// Ensures room for `count` elements; the old contents are kept, new storage holds `fill` (callers that
    /// rely on a fill keep the buffer in its reset state between uses).
    func ensure(_ count: Int) {
        guard count > capacity else { return }
        let p = UnsafeMutablePointer<T>.allocate(capacity: count)
        p.initialize(from: pointer, count: capacity)
        if let fill { (p + capacity).initialize(repeating: fill, count: count - capacity) }
        pointer.deallocate()
        pointer = p
        capacity = count
    }

    deinit { pointer.deallocate() }
}

/// A glyph's coverage, rasterized once at its subpixel step (`GlyphMaskCache`): `width` × `height` R8 texels
/// whose top-left one is (`left`, `top`) pixels from the glyph's pixel. The texels are a plain allocation so
/// that reading them counts no reference.
final class GlyphMask {
    let left: Int, top: Int, width: Int, height: Int
    let texels: UnsafeMutablePointer<UInt8>
    var byteCount: Int { width * height }
    /// Where the texels are and what box they cover, for slots and placements to copy.
    var view: MaskTexels {
        MaskTexels(texels: UnsafePointer(texels), left: Int32(left), top: Int32(top), width: Int32(width),
                   height: Int32(height))
    }
    /// A zeroed mask, for its maker to fill.
    init(left: Int, top: Int, width: Int, height: Int) {
        self.left = left; self.top = top; self.width = width; self.height = height
        texels = .allocate(capacity: width * height)
        texels.initialize(repeating: 0, count: width * height)
    }
    deinit { texels.deallocate() }
}

/// A glyph mask at the device pixel of its glyph.
struct PlacedMask {
    var mask: MaskTexels
    var x: Int
    var y: Int
}

/// Reusable scratch for one worker thread.
final class CoverageAccumulator {
    private let acc = ScratchBuffer<Double>(fill: 0)
    private let touched = ScratchBuffer<UInt64>(fill: 0)
    /// Per row of the last piece: first and last column with non-zero coverage (last < first: none).
    private let extentLeft = ScratchBuffer<Int32>(fill: 0)
    private let extentRight = ScratchBuffer<Int32>(fill: -1)
    /// Per row of the last piece: the widest constant run of full (8-bit 255) texels, [fullLeft, fullRight)
    /// (empty when equal).
    private let fullLeft = ScratchBuffer<Int32>(fill: 0)
    private let fullRight = ScratchBuffer<Int32>(fill: 0)
    private let groupLeft = ScratchBuffer<Int32>(fill: 0)
    private let groupRight = ScratchBuffer<Int32>(fill: -1)
    private let groupFullLeft = ScratchBuffer<Int32>(fill: 0)
    private let groupFullRight = ScratchBuffer<Int32>(fill: 0)
    private let best = ScratchBuffer<Int>(fill: 0)
    private let choice = ScratchBuffer<Int>(fill: 0)
    private var width = 0
    private var height = 0

    /// Rasterizes contours `path.contours` of `polys` over the device pixels `piece` and writes the coverage
    /// (after the fill rule) as `format` texels to `out`, rows `rowBytes` apart: every texel from the first
    /// to the last non-zero one of each row (`rowExtent`), nothing outside.
    ///
    /// The square (2, 1)…(3, 2) over the piece (0, 0, 4, 4) gives coverage 1 at texel (2, 1), 0 elsewhere.
    ///
    /// `keepsTrace`: in R8, coverage above the floor never rounds to 0 (`R8Texels`). Glyph masks pass false and
    /// round to nearest: a text's glyph masks are added up where they share pixels, and a trace each would add
    /// up to a visible grey where a run of tiny glyphs lies (a dozen 0.01 pt glyphs on one pixel: alpha 12
    /// against the reference's 0).
    func render(_ polys: Polygons, contours: Range<Int>, rule: CoverageRule, antialiased: Bool, piece: PixelRect,
                format: TextureFormat, out: UnsafeMutableRawPointer, rowBytes: Int, trackFullRuns: Bool = false,
                keepsTrace: Bool = true) {
        width = piece.width
        height = piece.height
        let stride = width + 2
        let words = (stride + 63) >> 6
        acc.ensure(stride * height)
        touched.ensure(words * height)
        extentLeft.ensure(height)
        extentRight.ensure(height)
        fullLeft.ensure(height)
        fullRight.ensure(height)
        let left = Double(piece.x), top = Double(piece.y)
        let right = left + Double(piece.width), bottom = top + Double(piece.height)
        var cells = Cells(acc: acc.pointer,
                          touched: touched.pointer, words: words,
                          extentLeft: extentLeft.pointer, extentRight: extentRight.pointer,
                          fullLeft: fullLeft.pointer, fullRight: fullRight.pointer, trackFullRuns: trackFullRuns,
                          stride: stride, width: piece.width, height: piece.height)
        if antialiased {
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                guard y0 != y1, max(y0, y1) > top, min(y0, y1) < bottom, min(x0, x1) < right else { return }
                guard min(y0, y1) < top || max(y0, y1) > bottom else {
                    cells.areaEdge(x0 - left, y0 - top, x1 - left, y1 - top)
                    return
                }
                // Only the part within the piece's rows adds area there. Cut it out first, so that what
                // follows works on differences no larger than the piece, whatever the coordinates (up to
                // ±1.8e308: their differences would overflow).
                let (ya, yb) = (max(min(y0, y1), top), min(max(y0, y1), bottom))
                let xa = EdgeCut.x(atY: ya, x0, y0, x1, y1), xb = EdgeCut.x(atY: yb, x0, y0, x1, y1)
                guard min(xa, xb) < right else { return }
                // Keep the edge's direction (its sign).
                if y0 < y1 {
                    cells.areaEdge(xa - left, ya - top, xb - left, yb - top)
                } else {
                    cells.areaEdge(xb - left, yb - top, xa - left, ya - top)
                }
            }
        } else {
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                guard y0 != y1 else { return }
                cells.centreEdge(x0, y0, x1, y1, left: left, top: top)
            }
        }
        switch (format, rule) {
        case (.r8, .nonZero) where !keepsTrace:
            cells.resolve(R8NearestTexels.self, NonZeroRule.self, out: out, rowBytes: rowBytes)
        case (.r8, .evenOdd) where !keepsTrace:
            cells.resolve(R8NearestTexels.self, EvenOddRule.self, out: out, rowBytes: rowBytes)
        case (.r8, .nonZero): cells.resolve(R8Texels.self, NonZeroRule.self, out: out, rowBytes: rowBytes)
        case (.r8, .evenOdd): cells.resolve(R8Texels.self, EvenOddRule.self, out: out, rowBytes: rowBytes)
        case (.r16f, .nonZero): cells.resolve(R16FTexels.self, NonZeroRule.self, out: out, rowBytes: rowBytes)
        case (.r16f, .evenOdd): cells.resolve(R16FTexels.self, EvenOddRule.self, out: out, rowBytes: rowBytes)
        case (.r32f, .nonZero), (.rgba8, .nonZero), (.bgra8, .nonZero), (.rgba32f, .nonZero), (.rgba16f, .nonZero):
            cells.resolve(R32FTexels.self, NonZeroRule.self, out: out, rowBytes: rowBytes)
        case (.r32f, .evenOdd), (.rgba8, .evenOdd), (.bgra8, .evenOdd), (.rgba32f, .evenOdd), (.rgba16f, .evenOdd):
            cells.resolve(R32FTexels.self, EvenOddRule.self, out: out, rowBytes: rowBytes)
        }
    }

    /// Writes the coverage of glyph masks placed over the device pixels `piece` as R8 texels to `out`, rows
    /// `rowBytes` apart, as `render` writes a path's: every texel of each row's extent (the columns the masks
    /// placed on that row span) and nothing outside. Masks that overlap add up, clamped at full coverage.
    /// Afterwards `rowExtents` and `bands` describe these texels (no full runs are tracked).
    ///
    /// A 2 × 1 mask [128, 255] at (3, 0) and a 1 × 1 mask [200] at (4, 0) over (0, 0, 8, 1) give the row
    /// extent 3…4 and texels 128, 255.
    func compose(_ placed: UnsafeBufferPointer<PlacedMask>, piece: PixelRect, out: UnsafeMutablePointer<UInt8>,
                 rowBytes: Int) {
        width = piece.width
        height = piece.height
        extentLeft.ensure(height)
        extentRight.ensure(height)
        fullLeft.ensure(height)
        fullRight.ensure(height)
        let lefts = extentLeft.pointer, rights = extentRight.pointer
        for r in 0 ..< height {
            lefts[r] = Int32.max
            rights[r] = -1
            fullLeft.pointer[r] = 0
            fullRight.pointer[r] = 0
        }
        // Each mask's part inside the piece: piece-local columns c0..<c1, rows r0..<r1.
        func clipped(_ p: PlacedMask) -> (c0: Int, c1: Int, r0: Int, r1: Int)? {
            let (left, top, w, h) = (Int(p.mask.left), Int(p.mask.top), Int(p.mask.width), Int(p.mask.height))
            let gx = p.x + left - piece.x, gy = p.y + top - piece.y
            let c0 = max(0, gx), c1 = min(width, gx + w)
            let r0 = max(0, gy), r1 = min(height, gy + h)
            return c0 < c1 && r0 < r1 ? (c0, c1, r0, r1) : nil
        }
        for p in placed {
            guard let c = clipped(p) else { continue }
            for r in c.r0 ..< c.r1 {
                lefts[r] = min(lefts[r], Int32(c.c0))
                rights[r] = max(rights[r], Int32(c.c1 - 1))
            }
        }
        for r in 0 ..< height {
            if rights[r] < 0 { lefts[r] = 0; continue }
            (out + r * rowBytes + Int(lefts[r])).update(repeating: 0, count: Int(rights[r] - lefts[r]) + 1)
        }
        for p in placed {
            guard let c = clipped(p) else { continue }
            let (left, top, maskWidth) = (Int(p.mask.left), Int(p.mask.top), Int(p.mask.width))
            let texels = p.mask.texels!
            let gx = p.x + left - piece.x, gy = p.y + top - piece.y
            for r in c.r0 ..< c.r1 {
                let src = texels + (r - gy) * maskWidth + (c.c0 - gx)
                let dst = out + r * rowBytes + c.c0
                for k in 0 ..< c.c1 - c.c0 {
                    // A saturating add, in a form the compiler turns into vector code.
                    dst[k] = UInt8(truncatingIfNeeded: min(UInt16(dst[k]) + UInt16(src[k]), 255))
                }
            }
        }
    }

    /// Per row of the last piece, the first and last column with non-zero coverage (last < first: none);
    /// valid until the next `render`.
    var rowExtents: (first: UnsafePointer<Int32>, last: UnsafePointer<Int32>) {
        (UnsafePointer(extentLeft.pointer), UnsafePointer(extentRight.pointer))
    }

    /// Per row of the last piece, the widest run of texels the resolve filled with full coverage (8-bit 255)
    /// in one go: [first, end), empty when equal. That is a shape's interior between its edge cells (an edge
    /// cell that happens to be full is not counted: checking every cell was measured to slow S2's resolve by
    /// a quarter), so a band's rows intersected give the rectangle it can draw with one colour
    /// (`solidColumns`). All empty unless the piece was rendered with `trackFullRuns`.
    var rowFullRuns: (first: UnsafePointer<Int32>, end: UnsafePointer<Int32>) {
        (UnsafePointer(fullLeft.pointer), UnsafePointer(fullRight.pointer))
    }

    /// The columns [first, end) that hold full coverage on every row of `rect` (piece-local) of the last
    /// piece, or nil when no column does. Rows 0…1 full on columns 2..<9 and 4..<12 give 4..<9.
    func solidColumns(_ rect: PixelRect) -> Range<Int>? {
        var lo = Int32.min, hi = Int32.max
        for row in rect.y ..< rect.y + rect.height {
            lo = max(lo, fullLeft.pointer[row])
            hi = min(hi, fullRight.pointer[row])
            if hi <= lo { return nil }
        }
        let first = max(Int(lo), rect.x), end = min(Int(hi), rect.x + rect.width)
        return first < end ? first ..< end : nil
    }

    /// Splits the last rendered piece into horizontal bands, each trimmed to the columns its rows cover,
    /// minimising (pixels drawn + `instanceCost` per band); rows without coverage are left out. Appends the
    /// bands in piece-local pixels, top to bottom.
    ///
    /// Bands start on multiples of `bandGranularity` rows and span at most `maxBandGroups` of them, which
    /// keeps the search at (h / 4) · 32 steps.
    /// A 100 × 100 piece whose coverage is a 10 × 10 square at (45, 45) yields one band (45, 45, 10, 10).
    ///
    /// `solids` (baked paint): a band's columns of full coverage on all its rows (`solidColumns`) cost
    /// `pixelCost` per pixel instead of 1 when they hold at least `minArea` pixels, and two more instances;
    /// such a band's `solid` names them (its rectangle stays whole, without trapezoid insets).
    func bands(instanceCost: Int, solids: (minArea: Int, pixelCost: Double)? = nil, into out: inout [BandShape]) {
        let g = Self.bandGranularity
        let height = self.height
        let n = (height + g - 1) / g
        groupLeft.ensure(n)
        groupRight.ensure(n)
        groupFullLeft.ensure(n)
        groupFullRight.ensure(n)
        best.ensure(n + 1)
        choice.ensure(n + 1)
        let el = extentLeft.pointer, er = extentRight.pointer
        let gl = groupLeft.pointer, gr = groupRight.pointer, best = self.best.pointer, choice = self.choice.pointer
        let gfl = groupFullLeft.pointer, gfr = groupFullRight.pointer
        var anySolid = false  // some group has full columns on all its rows
        for k in 0 ..< n {
            var l = Int32.max, r: Int32 = -1
            var fl = Int32.min, fr = Int32.max
            for row in k * g ..< min(height, k * g + g) {
                if solids != nil {
                    fl = max(fl, fullLeft.pointer[row])
                    fr = min(fr, fullRight.pointer[row])
                }
                guard er[row] >= el[row] else { continue }
                l = min(l, el[row])
                r = max(r, er[row])
            }
            gl[k] = l
            gr[k] = r
            gfl[k] = fl
            gfr[k] = fr
            anySolid = anySolid || fr > fl
        }
        // Solid pixels' saving per pixel, in 1/256 of a pixel (integer arithmetic in the search).
        let solidSaving = solids.map { Int(((1 - $0.pixelCost) * 256).rounded()) } ?? 0
        let solidMinArea = solids?.minArea ?? Int.max
        let searchSolids = anySolid && solids != nil
        best[0] = 0
        for j in 1 ... n {
            var l = Int32.max, r: Int32 = -1
            var fl = Int32.min, fr = Int32.max
            var bestCost = Int.max, bestI = j - 1
            var i = j - 1
            // Bands taller than `maxBandGroups` groups are not searched: splitting such a band never costs
            // more than one extra instance, so the search stays linear in the piece height.
            while i >= max(0, j - Self.maxBandGroups) {
                l = min(l, gl[i])
                r = max(r, gr[i])
                let rows = min(height, j * g) - i * g
                // Rectangle cost: estimating trapezoids here too was measured to cost more CPU (7 % of S2's
                // samples) than the pixels it saved; the chosen bands still become trapezoids below.
                var cost = r < l ? 0 : instanceCost + rows * Int(r - l + 1)
                if searchSolids {
                    fl = max(fl, gfl[i])
                    fr = min(fr, gfr[i])
                    if fr > fl && rows * Int(fr - fl) >= solidMinArea {
                        cost += 2 * instanceCost - rows * Int(fr - fl) * solidSaving / 256
                    }
                }
                if best[i] + cost < bestCost { bestCost = best[i] + cost; bestI = i }
                i -= 1
            }
            best[j] = bestCost
            choice[j] = bestI
        }
        let start = out.count
        var j = n
        while j > 0 {
            let i = choice[j]
            var l = Int32.max, r: Int32 = -1
            for k in i ..< j { l = min(l, gl[k]); r = max(r, gr[k]) }
            if r >= l {
                // Trim empty rows at the band's ends too.
                var y0 = i * g, y1 = min(height, j * g)
                while y0 < y1 && er[y0] < el[y0] { y0 += 1 }
                while y1 > y0 && er[y1 - 1] < el[y1 - 1] { y1 -= 1 }
                let rect = PixelRect(x: Int(l), y: y0, width: Int(r - l + 1), height: y1 - y0)
                if let solids, let cols = solidColumns(rect), cols.count * rect.height >= solids.minArea {
                    out.append(BandShape(rect: rect, solid: cols))
                } else {
                    out.append(trapezoid(rect))
                }
            }
            j = i
        }
        out[start...].reverse()
    }

    /// The band `rect` (piece-local) narrowed to a trapezoid whose slanted sides still hold the centre of
    /// every covered pixel with half a pixel to spare, so a thin diagonal stroke costs its own area rather
    /// than its box's. Each side is the line through the extents of the band's first and last covered
    /// rows, pushed out until no row's extent crosses it.
    ///
    /// Rows 0…3 covering columns 10…13, 11…14, 12…15, 13…16 give a parallelogram leaning right by one column
    /// per row.
    private func trapezoid(_ rect: PixelRect) -> BandShape {
        let el = extentLeft.pointer, er = extentRight.pointer
        let y0 = rect.y, y1 = rect.y + rect.height
        var f = y0, g = y1 - 1
        while f < g && er[f] < el[f] { f += 1 }
        while g > f && er[g] < el[g] { g -= 1 }
        var shape = BandShape(rect: rect)
        guard g > f else { return shape }
        let sl = Double(el[g] - el[f]) / Double(g - f)
        let sr = Double(er[g] - er[f]) / Double(g - f)
        var a = Double.infinity, b = -Double.infinity
        for r in f ... g where er[r] >= el[r] {
            let t = Double(r) + 0.5 - Double(y0)
            a = min(a, Double(el[r]) - sl * t)       // left side at the band's top edge
            b = max(b, Double(er[r]) + 1 - sr * t)   // right side
        }
        let h = Double(rect.height), left = Double(rect.x), width = Double(rect.width)
        let lt = a - left, lb = a + sl * h - left
        let rt = left + width - b, rb = left + width - (b + sr * h)
        // Insets in 1/16 px, rounded outwards. A side may stick out of the rectangle by up to `bandPadding`
        // pixels (the half-pixel margin and the whole-pixel extents put it there): the atlas keeps that many
        // columns of zero texels on each side of a band, so pixels there blend nothing. A side that leaves further cannot be clamped (that would move it
        // inwards), so that side stays the rectangle's.
        func q(_ v: Double) -> Int16 { Int16((v * 16).rounded(.down)) }
        let lo = -Double(Self.bandPadding)
        if lt >= lo, lb >= lo, lt <= width, lb <= width {
            shape.insets.0 = q(lt)
            shape.insets.1 = q(lb)
        }
        if rt >= lo, rb >= lo, rt <= width, rb <= width {
            shape.insets.2 = q(rt)
            shape.insets.3 = q(rb)
        }
        // Sides that meet inside the band (steep, narrow bands) would make a bow tie: keep the rectangle.
        if Int(shape.insets.0) + Int(shape.insets.2) >= rect.width * 16 || Int(shape.insets.1) + Int(shape.insets.3) >= rect.width * 16 {
            shape.insets = (0, 0, 0, 0)
        }
        return shape
    }

    /// Zero texel columns the atlas keeps left and right of each band (see `trapezoid`): 2, since a side fitted
    /// through whole-pixel extents with a half-pixel margin can leave the rectangle by up to 1.5 px.
    static let bandPadding = 2

    /// Rows per band step of `bands`.
    static let bandGranularity = 4
    static let maxBandGroups = 32
}

/// The accumulation buffer of one piece, through raw pointers (the hot loop).
private struct Cells {
    let acc: UnsafeMutablePointer<Double>
    /// Per row, `words` 64-bit masks of the columns that received a deposit.
    let touched: UnsafeMutablePointer<UInt64>
    let words: Int
    let extentLeft: UnsafeMutablePointer<Int32>
    let extentRight: UnsafeMutablePointer<Int32>
    let fullLeft: UnsafeMutablePointer<Int32>
    let fullRight: UnsafeMutablePointer<Int32>
    /// Whether the resolve records each row's widest full run (else every row's is empty).
    let trackFullRuns: Bool
    let stride: Int
    let width: Int
    let height: Int

    @inline(__always)
    private func deposit(_ row: Int, _ col: Int, _ v: Double) {
        acc[row * stride + col] += v
        touched[row * words + col >> 6] |= 1 << UInt64(col & 63)
    }

    /// An edge in piece-local coordinates (y range already known to meet the piece, x0/x1 not all right of it).
    @inline(__always)
    mutating func areaEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let w = Double(width)
        if x0 >= 0 && x1 >= 0 && x0 <= w && x1 <= w {
            line(x0, y0, x1, y1)
            return
        }
        splitAtBorders(x0, y0, x1, y1)
    }

    /// `areaEdge` for an edge that leaves the piece's columns (out of line: most edges do not).
    @inline(never)
    private mutating func splitAtBorders(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        let w = Double(width)
        // Split at the piece's left and right borders (exact cuts for any finite ends); left parts become
        // vertical on x = 0, right parts add nothing inside.
        EdgeCut.split(x0, y0, x1, y1, atX: 0, w) { px, py, qx, qy in
            let mid = px * 0.5 + qx * 0.5  // (px + qx) / 2 may overflow
            if mid < 0 {
                line(0, py, 0, qy)
            } else if mid <= w {
                line(min(max(px, 0), w), py, min(max(qx, 0), w), qy)
            }
        }
    }

    /// A straight edge with 0 ≤ x ≤ width (piece-local), walked row by row.
    private mutating func line(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double) {
        guard ya != yb else { return }
        let sign: Double = yb > ya ? 1 : -1
        let (x0, y0, x1, y1) = ya < yb ? (xa, ya, xb, yb) : (xb, yb, xa, ya)
        let yStart = max(0, y0), yEnd = min(Double(height), y1)
        guard yStart < yEnd else { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        // A rise too small for the quotient to exist (below 1e-300 or so) adds no area.
        guard dxdy.isFinite else { return }
        let w = Double(width)
        var row = Int(yStart)  // truncation is floor for y ≥ 0 (and no libm call)
        var yt = yStart
        var xt = min(max(x0 + (yt - y0) * dxdy, 0), w)
        while yt < yEnd {
            let yb = min(yEnd, Double(row + 1))
            // Each row boundary's x is computed from the endpoint, not accumulated, so no drift.
            let xbt = yb == y1 ? min(max(x1, 0), w) : min(max(x0 + (yb - y0) * dxdy, 0), w)
            span(row, xt, xbt, sign * (yb - yt))
            yt = yb
            xt = xbt
            row += 1
        }
    }

    /// The part of an edge inside one row: from x = xa to x = xb, signed height dy.
    @inline(__always)
    private mutating func span(_ row: Int, _ xa: Double, _ xb: Double, _ dy: Double) {
        let xl = min(xa, xb), xr = max(xa, xb)
        let cl = Int(xl), cr = Int(xr)
        if cl == cr {
            let m = (xl + xr) * 0.5 - Double(cl)
            let cell = acc + row * stride + cl
            let d = dy * m
            cell[0] += dy - d
            cell[1] += d
            let bit = cl & 63
            let word = touched + row * words + cl >> 6
            if bit != 63 {
                word[0] |= 3 << UInt64(bit)
            } else {
                word[0] |= 1 << 63
                word[1] |= 1
            }
            return
        }
        let k = dy / (xr - xl)  // height per unit of x
        let base = row * stride
        // First, partial column.
        let firstLen = Double(cl + 1) - xl
        let d0 = k * firstLen
        let m0 = (xl - Double(cl) + 1) * 0.5
        acc[base + cl] += d0 * (1 - m0)
        var carry = d0 * m0  // goes to column cl + 1
        // Full columns: half their height stays, half carries on.
        let half = k * 0.5
        var c = cl + 1
        while c < cr {
            acc[base + c] += carry + half
            carry = half
            c += 1
        }
        // Last, partial column cr (possibly of zero length when xr is a column line).
        let lastLen = xr - Double(cr)
        let d1 = k * lastLen
        let m1 = lastLen * 0.5
        acc[base + cr] += carry + d1 * (1 - m1)
        acc[base + cr + 1] += d1 * m1
        markRange(row, cl, cr + 1)
    }

    /// An edge for centre sampling, in device coordinates: ±1 at the first column of each row whose centre
    /// counts the crossing, decided exactly (`CentreColumns`: the reference's ties, for any finite ends).
    mutating func centreEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, left: Double, top: Double) {
        // Rows whose centre r + 0.5 is in [ymin, ymax), intersected with the piece's rows.
        guard let (first, last) = CentreColumns.rows(y0, y1, within: top, top + Double(height) - 1) else { return }
        let winding: Double = y0 < y1 ? 1 : -1
        let w = Double(width)
        let columns = CentreColumns(x0, y0, x1, y1)
        var r = first
        while r <= last {
            let col = columns.first(atY: r + 0.5) - left
            if col < w { deposit(Int(r - top), col <= 0 ? 0 : Int(col), winding) }
            r += 1
        }
    }

    /// Sets the touched bits of columns `from ... to` of `row`.
    @inline(__always)
    private func markRange(_ row: Int, _ from: Int, _ to: Int) {
        let base = touched + row * words
        var w = from >> 6
        let last = to >> 6
        var mask = ~UInt64(0) << UInt64(from & 63)
        while w < last {
            base[w] |= mask
            mask = ~UInt64(0)
            w += 1
        }
        base[last] |= mask & (~UInt64(0) >> UInt64(63 - (to & 63)))
    }

    /// Coverage that is 255 as an 8-bit texel (`R8Texels.byte`): baked paint bakes such texels with the
    /// path's colour at full coverage.
    @inline(__always)
    private func isFull(_ c: Float) -> Bool { c * 255 + 0.5 >= 255 }

    /// Prefix sums at the touched columns, fill rule, texel output with constant runs between them; leaves
    /// the buffer and masks zeroed for the next piece. Within each row's extent (first to last non-zero
    /// texel) every texel is written, zeros included; outside it nothing is, so `out` need not be cleared.
    func resolve<T: TexelWriter, R: FillRuleMap>(_: T.Type, _: R.Type, out: UnsafeMutableRawPointer, rowBytes: Int) {
        for row in 0 ..< height {
            extentLeft[row] = 0
            extentRight[row] = -1
            fullLeft[row] = 0
            fullRight[row] = 0
            let bits = touched + row * words
            var lo = 0
            while lo < words && bits[lo] == 0 { lo += 1 }
            guard lo < words else { continue }
            var nzLeft = Int.max, nzRight = -1
            // The widest constant run of full texels so far, [bestLeft, bestRight).
            var bestLeft = 0, bestRight = 0
            let cells = acc + row * stride
            let dst = out + row * rowBytes
            var a = 0.0
            var next = 0  // first column not yet written
            var w = lo
            while w < words {
                var m = bits[w]
                bits[w] = 0
                while m != 0 {
                    let c = w << 6 + m.trailingZeroBitCount
                    m &= m - 1
                    if c >= width {  // right of the piece: nothing visible, just reset
                        cells[c] = 0
                        continue
                    }
                    if c > next {
                        let run = R.coverage(a)
                        if run > 0 {
                            T.fill(run, dst, next, c)
                            nzLeft = min(nzLeft, next)
                            nzRight = c - 1
                        } else if nzRight >= 0 {
                            T.fill(0, dst, next, c)  // a gap inside the extent
                        }
                        if trackFullRuns && c - next > bestRight - bestLeft && isFull(run) {
                            bestLeft = next
                            bestRight = c
                        }
                    }
                    a += cells[c]
                    cells[c] = 0
                    let v = R.coverage(a)
                    T.store(v, dst, c)
                    if v > 0 {
                        nzLeft = min(nzLeft, c)
                        nzRight = c
                    }
                    next = c + 1
                }
                w += 1
            }
            if next < width {
                let run = R.coverage(a)
                if run > 0 {
                    T.fill(run, dst, next, width)
                    nzLeft = min(nzLeft, next)
                    nzRight = width - 1
                }
                if trackFullRuns && width - next > bestRight - bestLeft && isFull(run) {
                    bestLeft = next
                    bestRight = width
                }
            }
            if bestRight > bestLeft {
                fullLeft[row] = Int32(bestLeft)
                fullRight[row] = Int32(bestRight)
            }
            if nzRight >= 0 {
                extentLeft[row] = Int32(nzLeft)
                extentRight[row] = Int32(nzRight)
            }
        }
    }
}

/// Coverage below this is stored as 0: it is 1/4000 of an 8-bit step, the float noise left by the prefix
/// sum of a closed contour, and filling whole rows with it would cost time for nothing.
private let coverageFloor = 1e-6

protocol FillRuleMap {
    static func coverage(_ a: Double) -> Float
}

private enum NonZeroRule: FillRuleMap {
    @inline(__always)
    static func coverage(_ a: Double) -> Float {
        let c = min(abs(a), 1)
        return c < coverageFloor ? 0 : Float(c)
    }
}

private enum EvenOddRule: FillRuleMap {
    @inline(__always)
    static func coverage(_ a: Double) -> Float {
        let c = abs(a - 2 * (a * 0.5).rounded())
        return c < coverageFloor ? 0 : Float(c)
    }
}

/// Texel output of one atlas format; `fill` writes a constant run.
protocol TexelWriter {
    static func store(_ c: Float, _ dst: UnsafeMutableRawPointer, _ x: Int)
    static func fill(_ c: Float, _ dst: UnsafeMutableRawPointer, _ from: Int, _ to: Int)
}

private enum R8Texels: TexelWriter {
    /// Nearest, except that coverage above the floor never rounds to 0: a pixel the shape touches keeps a
    /// trace (at most half a step more than exact). A colour filter reads a pixel's unpremultiplied colour, so a
    /// sliver of coverage shows that colour in full (luminanceToAlpha, an alpha offset) as it does in the
    /// reference; rounded to 0 it showed nothing.
    @inline(__always)
    static func byte(_ c: Float) -> UInt8 { c > 0 ? UInt8(truncatingIfNeeded: max(1, Int32(c * 255 + 0.5))) : 0 }
    @inline(__always)
    static func store(_ c: Float, _ dst: UnsafeMutableRawPointer, _ x: Int) {
        dst.storeBytes(of: byte(c), toByteOffset: x, as: UInt8.self)
    }
    @inline(__always)
    static func fill(_ c: Float, _ dst: UnsafeMutableRawPointer, _ from: Int, _ to: Int) {
        (dst + from).initializeMemory(as: UInt8.self, repeating: byte(c), count: to - from)
    }
}

/// R8 rounded to nearest, with no trace (glyph masks, which are summed: see `render`'s `keepsTrace`).
private enum R8NearestTexels: TexelWriter {
    @inline(__always)
    static func byte(_ c: Float) -> UInt8 { UInt8(truncatingIfNeeded: Int32(c * 255 + 0.5)) }
    @inline(__always)
    static func store(_ c: Float, _ dst: UnsafeMutableRawPointer, _ x: Int) {
        dst.storeBytes(of: byte(c), toByteOffset: x, as: UInt8.self)
    }
    @inline(__always)
    static func fill(_ c: Float, _ dst: UnsafeMutableRawPointer, _ from: Int, _ to: Int) {
        (dst + from).initializeMemory(as: UInt8.self, repeating: byte(c), count: to - from)
    }
}

private enum R16FTexels: TexelWriter {
    @inline(__always)
    static func store(_ c: Float, _ dst: UnsafeMutableRawPointer, _ x: Int) {
        dst.storeBytes(of: Float16(c).bitPattern, toByteOffset: x * 2, as: UInt16.self)
    }
    @inline(__always)
    static func fill(_ c: Float, _ dst: UnsafeMutableRawPointer, _ from: Int, _ to: Int) {
        (dst + from * 2).initializeMemory(as: UInt16.self, repeating: Float16(c).bitPattern, count: to - from)
    }
}

private enum R32FTexels: TexelWriter {
    @inline(__always)
    static func store(_ c: Float, _ dst: UnsafeMutableRawPointer, _ x: Int) {
        dst.storeBytes(of: c, toByteOffset: x * 4, as: Float.self)
    }
    @inline(__always)
    static func fill(_ c: Float, _ dst: UnsafeMutableRawPointer, _ from: Int, _ to: Int) {
        (dst + from * 4).initializeMemory(as: Float.self, repeating: c, count: to - from)
    }
}
