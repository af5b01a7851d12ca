// The reference rasterizer's anti-aliased coverage: exact area in the AGG/FreeType cell model.
//
// Every edge of the device-space polygons is cut at pixel-row and pixel-column boundaries. Each piece lies in
// one pixel square ("cell") and adds two numbers to it:
//   cover += dy                        the piece's signed height
//   area  += dy · (fx0 + fx1) / 2      its height times the mean x of its ends inside the cell (0…1)
// The signed area of the polygon inside pixel (x, y) is then
//   a = Σ_{cells c < x in row y} cover_c  +  (cover_x − area_x)
// because a piece at height dy covers `dy · (1 − mean fx)` of its own cell (the part to its right) and the
// full `dy` of every cell further right. Sweeping each row left to right with a running sum gives every a;
// the fill rule turns it into coverage: non-zero min(|a|, 1), even-odd |a − 2·round(a/2)|.
//
// Clipping keeps this exact for geometry far outside the canvas:
// - y: edges are cut to the rows [0, height); rows outside hold nothing visible, and each row's sum is
//   independent of the others.
// - x < 0: a piece left of the canvas covers no visible pixel's interior, only the full `dy` of every
//   pixel to its right; a vertical piece at x = 0 with the same dy does exactly that. So edges are split at
//   x = 0 and the left part is moved onto x = 0.
// - x ≥ width: a piece there only adds to cells at or beyond the right border; it is dropped.
// The cuts at the box's top and bottom rows are taken on the whole edge by `EdgeCut`, which is exact to a
// few ulps of the cut for any finite ends: an edge from 10³⁰⁸ px away (whose x1 − x0 overflows) still
// crosses the canvas where it should; the cuts at x = 0 and x = width on the edge so clipped
// (`EdgeCut.split`). Every piece left after them lies inside the
// box, so the row and column walk below works on canvas-sized numbers only.
// After clipping, the cells an edge visits are bounded by (rows + columns) of the canvas, so a 10⁶-pixel
// edge costs no more than one crossing the canvas. All geometry is f64: at 10⁶ px a double still has
// ~10⁻¹⁰ px of resolution.
//
// The cell grid is dense over the polygons' clipped bounding box, in bands of rows of at most `cellBudget`
// cells (each band walks all edges, clipped to its rows), and reused between draws: the sweep zeroes the cells
// it reads, so a draw allocates nothing once the scratch has grown to the largest band. Points must be
// finite; the backend checks that before rasterizing.

/// Exact-area coverage of closed device-space polygons on a `width × height` pixel grid.
package struct CellRasterizer {
    /// How signed area (or a winding number) becomes coverage.
    package enum Rule {
        case nonZero
        case evenOdd
    }

    package let width: Int
    package let height: Int

    /// Signed heights and area terms of the cells of the current box, row-major, `stride` cells per row.
    private var cover: [Double] = []
    private var area: [Double] = []
    /// One row of coverage handed to the consumer.
    private var rowCoverage: [Float] = []

    /// Accumulated |a| below this is floating-point residue of a closed outline (sums of f64 heights in
    /// [0, height] carry ~10⁻¹³ of noise), not geometry: far below half an 8-bit step (1/510).
    package static let residue = 1e-9

    package init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0)
        self.width = width
        self.height = height
    }

    /// Rasterizes `polys` and calls `body(y, x0, coverage)` for each pixel row of the polygons' clipped
    /// bounding box, top to bottom; `coverage[i]` (0…1) belongs to pixel `(x0 + i, y)`. The buffer is only
    /// valid during the call.
    ///
    /// A unit square at (2, 1)…(3, 2) gives one call: `body(1, 2, [1.0])`.
    package mutating func rasterize(_ polys: Polygons, rule: Rule,
                            _ body: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void) {
        guard let whole = CellBox(polys, width: width, height: height) else { return }
        // Bands of rows keep the scratch bounded (≤ cellBudget cells) however large the canvas.
        let bandRows = max(1, min(whole.r1 - whole.r0, CellRasterizer.cellBudget / whole.stride))
        let count = whole.stride * bandRows
        if cover.count < count {
            cover = [Double](repeating: 0, count: count)
            area = [Double](repeating: 0, count: count)
        }
        if rowCoverage.count < whole.stride { rowCoverage = [Float](repeating: 0, count: whole.stride) }
        cover.withUnsafeMutableBufferPointer { cov in
            area.withUnsafeMutableBufferPointer { ar in
                rowCoverage.withUnsafeMutableBufferPointer { out in
                    var top = whole.r0
                    while top < whole.r1 {
                        let band = whole.rows(top, min(whole.r1, top + bandRows))
                        let grid = CellGrid(box: band, cover: cov.baseAddress!, area: ar.baseAddress!)
                        polys.forEachEdge { x0, y0, x1, y1 in grid.addEdge(x0, y0, x1, y1) }
                        grid.sweep(rule: rule, row: out.baseAddress!, body)
                        top = band.r1
                    }
                }
            }
        }
    }

    /// The most cells a band holds (16 MiB of scratch): a whole 1024×1024 canvas in one band, a
    /// 16384-pixel-wide one in bands of 64 rows.
    package static let cellBudget = 1 << 20

    /// Signed area (or winding number) → coverage in [0, 1] under `rule`.
    ///
    /// `coverage(-1.25, .nonZero)` → 1; `coverage(1.25, .evenOdd)` → 0.75; `coverage(2, .evenOdd)` → 0.
    @inline(__always)
    package static func coverage(_ a: Double, _ rule: Rule) -> Double {
        let c: Double
        switch rule {
        case .nonZero: c = a.magnitude > 1 ? 1 : a.magnitude
        case .evenOdd: c = (a - 2 * (a / 2).rounded()).magnitude
        }
        return c < residue ? 0 : c
    }
}

/// The cells a polygon set can reach: columns [c0, c1), rows [r0, r1) of the canvas.
private struct CellBox {
    let c0: Int, c1: Int, r0: Int, r1: Int
    /// Canvas width: the right clipping line.
    let width: Int
    var stride: Int { c1 - c0 }

    private init(c0: Int, c1: Int, r0: Int, r1: Int, width: Int) {
        self.c0 = c0; self.c1 = c1; self.r0 = r0; self.r1 = r1; self.width = width
    }

    /// The same columns, rows [r0, r1) only.
    func rows(_ r0: Int, _ r1: Int) -> CellBox { CellBox(c0: c0, c1: c1, r0: r0, r1: r1, width: width) }

    /// The polygons' bounds ∩ canvas, with the left edge at 0 when they reach past it (their left parts
    /// are moved onto x = 0). Nil when nothing can be visible.
    init?(_ polys: Polygons, width: Int, height: Int) {
        guard !polys.isEmpty, polys.minX < Double(width), polys.maxX > 0,
              polys.minY < Double(height), polys.maxY > 0 else { return nil }
        c0 = Int(max(0, polys.minX.rounded(.down)))
        c1 = Int(min(Double(width), polys.maxX.rounded(.down) + 1))
        r0 = Int(max(0, polys.minY.rounded(.down)))
        r1 = Int(min(Double(height), polys.maxY.rounded(.up)))
        self.width = width
        guard c1 > c0, r1 > r0 else { return nil }
    }
}

/// The accumulation: writes through to the rasterizer's scratch cells of one box.
private struct CellGrid {
    let box: CellBox
    let cover: UnsafeMutablePointer<Double>
    let area: UnsafeMutablePointer<Double>

    // MARK: Edges → cells

    /// Clips one edge to the box's rows, splits it at x = 0 and x = width, and adds the pieces.
    func addEdge(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        // Work top to bottom; `sign` restores the edge's direction.
        var (ax, ay, bx, by, sign) = y0 < y1 ? (x0, y0, x1, y1, 1.0) : (x1, y1, x0, y0, -1.0)
        let top = Double(box.r0), bottom = Double(box.r1)
        guard ay < bottom, by > top else { return }
        // Every cut comes from `EdgeCut` (exact for any finite ends, see there): the pieces that reach
        // `addClipped` then lie inside the box, so nothing after this can overflow.
        let (x0, y0, x1, y1) = (ax, ay, bx, by)
        func xAt(_ y: Double) -> Double { EdgeCut.x(atY: y, x0, y0, x1, y1) }
        if ay < top { ax = xAt(top); ay = top }
        if by > bottom { bx = xAt(bottom); by = bottom }
        guard by > ay else { return }

        // Pieces between the clipped edge's crossings of x = 0 and x = width, in order along it.
        EdgeCut.split(ax, ay, bx, by, atX: 0, Double(box.width)) { addPiece($0, $1, $2, $3, sign) }
    }

    /// Adds a piece that lies on one side of x = 0 and of x = width (its ends may touch them). Its x may be
    /// anything finite; its y lies in the box's rows.
    private func addPiece(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ sign: Double) {
        guard by > ay else { return }
        let mid = ax / 2 + bx / 2                                // (ax + bx) / 2 can overflow
        let right = Double(box.width)
        if mid >= right { return }                               // adds only to cells past the border
        if mid <= 0 { addClipped(0, ay, 0, by, sign); return }   // its full cover, moved onto x = 0
        addClipped(min(max(ax, 0), right), ay, min(max(bx, 0), right), by, sign)
    }

    /// Walks a piece inside x ∈ [0, width], y ∈ [r0, r1] (ay < by) through the rows it crosses.
    private func addClipped(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ sign: Double) {
        let firstRow = max(box.r0, Int(ay.rounded(.down)))
        let lastRow = min(box.r1 - 1, Int(by.rounded(.up)) - 1)
        guard firstRow <= lastRow else { return }
        for row in firstRow ... lastRow {
            let ya = max(ay, Double(row)), yb = min(by, Double(row + 1))
            guard yb > ya else { continue }
            // Exact at the piece's own ends, interpolated where it crosses a row line.
            let xa = ya == ay ? ax : ax + (bx - ax) * ((ya - ay) / (by - ay))
            let xb = yb == by ? bx : ax + (bx - ax) * ((yb - ay) / (by - ay))
            addRowPiece(xa, ya, xb, yb, sign, (row - box.r0) * box.stride)
        }
    }

    /// Cuts one row's piece at column lines and adds each part to its cell.
    @inline(__always)
    private func addRowPiece(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ sign: Double,
                             _ rowBase: Int) {
        let colA = xa.rounded(.down)
        if xa == xb || colA == xb.rounded(.down) {
            addCell(xa, ya, xb, yb, sign, rowBase)
            return
        }
        // Column lines strictly between the ends, in the direction of travel.
        var px = xa, py = ya
        var line = xb > xa ? colA + 1 : (colA == xa ? colA - 1 : colA)
        let step: Double = xb > xa ? 1 : -1
        while xb > xa ? line < xb : line > xb {
            let qy = min(max(ya + (yb - ya) * ((line - xa) / (xb - xa)), ya), yb)
            addCell(px, py, line, qy, sign, rowBase)
            px = line; py = qy
            line += step
        }
        addCell(px, py, xb, yb, sign, rowBase)
    }

    /// Adds a part that lies in one cell: the cell holding its midpoint, which stays right when an end
    /// sits exactly on a column line.
    @inline(__always)
    private func addCell(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ sign: Double,
                         _ rowBase: Int) {
        let dy = (yb - ya) * sign
        if dy == 0 { return }
        var col = Int(((xa + xb) / 2).rounded(.down))
        if col >= box.c1 {
            if col >= box.width { return }  // a vertical part exactly on x = width: invisible
            col = box.c1 - 1                // sub-ulp interpolation overshoot past the box
        }
        if col < box.c0 { col = box.c0 }
        let left = Double(col)
        let fa = min(max(xa - left, 0), 1), fb = min(max(xb - left, 0), 1)
        let i = rowBase + col - box.c0
        cover[i] += dy
        area[i] += dy * (fa + fb) * 0.5
    }

    // MARK: Cells → coverage

    /// Sweeps each row of the box with a running cover sum, hands the coverage on and zeroes the cells
    /// (so the scratch is clean for the next draw).
    func sweep(rule: CellRasterizer.Rule, row out: UnsafeMutablePointer<Float>,
               _ body: (Int, Int, UnsafeBufferPointer<Float>) -> Void) {
        let n = box.stride
        for row in box.r0 ..< box.r1 {
            let base = (row - box.r0) * n
            var acc = 0.0
            for i in 0 ..< n {
                let a = acc + cover[base + i] - area[base + i]
                acc += cover[base + i]
                cover[base + i] = 0
                area[base + i] = 0
                out[i] = Float(CellRasterizer.coverage(a, rule))
            }
            body(row, box.c0, UnsafeBufferPointer(start: out, count: n))
        }
    }
}
