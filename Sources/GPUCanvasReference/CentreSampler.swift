// The reference rasterizer's aliased coverage (`FillStyle(antialiased: false)`): each pixel centre is
// sampled with the fill rule, so coverage is 0 or 1.
//
// This is a point-in-polygon test by crossing count, done a row at a time, and deliberately not a threshold
// on the area coverage: it is the definition itself. For the centre row y + 0.5, every edge whose half-open
// y range [ymin, ymax) holds it crosses the row at one x, adding +1 (downward edge) or −1 (upward) to the
// winding number of every point to the right. Sorting the row's crossings and walking the pixel centres
// left to right gives each centre's winding number; non-zero: inside when ≠ 0, even-odd: when odd.
//
// Ties follow the GL rasterization rule (top-left): a centre exactly on a crossing counts that crossing (an
// edge through a centre puts the centre on its right side), and the half-open y range takes a centre on a
// top edge and leaves one on a bottom edge. So of two shapes sharing an edge exactly one gets a centre on it.
// This is the rule DESIGN-NOTES.md ("Coverage") states for every backend; the GLES strategies reach it through
// `CentreColumns` (columns rather than sorted crossings, the same exact tie test).
//
// Edges are held in an active-edge list sorted by first row, so memory stays O(edges) whatever the number of
// row crossings, and edges far outside the canvas cost one crossing per visible row.
//
// Each crossing is `EdgeCut.x(atY:)` of the whole edge: within a few ulps of the true x for any finite
// ends, so an edge from 10¹⁹ or 10³⁰⁸ px away crosses the row where it should (the textbook
// x0 + (x1 − x0)·t overflows there, or loses the crossing to rounding). Those few ulps would still decide
// a centre lying on (or within 10⁻¹⁴ px of) an edge by rounding, so a crossing that close to a centre is
// settled exactly by `EdgeCut.cut(…isAtOrLeftOf:)` and the tie rule holds for any finite coordinates. A
// crossing far left or right of the canvas is just a large x; row indices are clamped to the canvas while
// still f64.

/// Pixel-centre sampling of closed device-space polygons on a `width × height` grid.
package struct CentreSampler {
    package let width: Int
    package let height: Int

    private struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
        /// +1 when the edge runs down (y grows), −1 up.
        var winding: Int32
        /// Rows whose centres the edge crosses: firstRow ... lastRow.
        var firstRow: Int, lastRow: Int
    }

    private struct Crossing {
        var x: Double
        var winding: Int32
    }

    private var edges: [Edge] = []
    private var active: [Int] = []
    private var crossings: [Crossing] = []
    private var rowCoverage: [Float] = []

    package init(width: Int, height: Int) {
        precondition(width >= 0 && height >= 0)
        self.width = width
        self.height = height
    }

    /// Samples `polys` and calls `body(y, x0, coverage)` (0 or 1 per pixel) for each pixel row of the
    /// polygons' bounding box ∩ canvas whose centre line meets an edge; same contract as
    /// `CellRasterizer.rasterize`.
    ///
    /// The square (2, 1)…(3, 2) holds the centre (2.5, 1.5): `body(1, 2, [1.0])`.
    package mutating func rasterize(_ polys: Polygons, rule: CellRasterizer.Rule,
                            _ body: (_ y: Int, _ x0: Int, _ coverage: UnsafeBufferPointer<Float>) -> Void) {
        guard !polys.isEmpty, polys.minX < Double(width), polys.maxX > 0,
              polys.minY < Double(height), polys.maxY > 0 else { return }
        let c0 = Int(max(0, polys.minX.rounded(.down)))
        let c1 = Int(min(Double(width), polys.maxX.rounded(.down) + 1))
        guard c1 > c0 else { return }

        edges.removeAll(keepingCapacity: true)
        let h = Double(height)
        polys.forEachEdge { x0, y0, x1, y1 in
            let (ymin, ymax) = y0 < y1 ? (y0, y1) : (y1, y0)
            guard ymin < h, ymax > 0 else { return }
            // Row r's centre r + 0.5 is in [ymin, ymax) ⟺ ceil(ymin − 0.5) ≤ r ≤ ceil(ymax − 0.5) − 1.
            // Clamped to the canvas while still f64: ymin and ymax may be far beyond Int's range.
            let first = Int(max(0, (ymin - 0.5).rounded(.up)))
            let last = Int(min(h, (ymax - 0.5).rounded(.up))) - 1
            guard first <= last else { return }
            edges.append(Edge(x0: x0, y0: y0, x1: x1, y1: y1, winding: y0 < y1 ? 1 : -1,
                              firstRow: first, lastRow: last))
        }
        guard !edges.isEmpty else { return }
        edges.sort { $0.firstRow < $1.firstRow }
        if rowCoverage.count < c1 - c0 { rowCoverage = [Float](repeating: 0, count: c1 - c0) }
        active.removeAll(keepingCapacity: true)

        var next = 0
        var row = edges[0].firstRow
        while next < edges.count || !active.isEmpty {
            if active.isEmpty { row = max(row, edges[next].firstRow) }  // skip rows with no edges
            while next < edges.count && edges[next].firstRow <= row {
                active.append(next)
                next += 1
            }
            // The row's crossings, sorted by x.
            crossings.removeAll(keepingCapacity: true)
            let yc = Double(row) + 0.5
            for e in active {
                let edge = edges[e]
                crossings.append(Crossing(x: EdgeCut.centreCrossing(atY: yc, edge.x0, edge.y0, edge.x1, edge.y1),
                                          winding: edge.winding))
            }
            crossings.sort { $0.x < $1.x }
            sample(row: row, c0: c0, c1: c1, rule: rule, body)
            active.removeAll { edges[$0].lastRow <= row }
            row += 1
        }
    }

    /// Walks the centres of one row against its sorted crossings.
    private mutating func sample(row: Int, c0: Int, c1: Int, rule: CellRasterizer.Rule,
                                 _ body: (Int, Int, UnsafeBufferPointer<Float>) -> Void) {
        crossings.withUnsafeBufferPointer { xs in
            rowCoverage.withUnsafeMutableBufferPointer { out in
                var winding: Int32 = 0
                var k = 0
                for col in c0 ..< c1 {
                    let centre = Double(col) + 0.5
                    while k < xs.count && xs[k].x <= centre {
                        winding &+= xs[k].winding
                        k += 1
                    }
                    let inside = rule == .nonZero ? winding != 0 : winding & 1 != 0
                    out[col - c0] = inside ? 1 : 0
                }
                body(row, c0, UnsafeBufferPointer(rebasing: out[0 ..< c1 - c0]))
            }
        }
    }
}
