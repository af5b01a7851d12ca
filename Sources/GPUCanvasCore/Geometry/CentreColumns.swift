// Pixel-centre sampling (`antialiased: false`): which centres of a row an edge's crossing counts for, decided
// exactly, so that every rasterizer breaks ties the same way.
//
// The rule (DESIGN-NOTES.md, "Coverage"): an edge adds its ±1 (+1 running down) to the winding number of the
// centres (k + ½, r + ½) of row r when r + ½ lies in its half-open y range [ymin, ymax), and only to those
// centres at or right of its crossing x of that row: k ≥ ⌈x − ½⌉. A centre exactly on an edge therefore
// counts it, and a centre on a horizontal edge belongs to the rows below it: GL's top-left rule (a centre on
// a left or top edge of a shape is inside, on a right or bottom edge outside), and of two shapes sharing an
// edge exactly one gets a centre on it.
//
// ⌈x − ½⌉ must be taken of the true crossing: a crossing a few ulps off a centre (an edge from (1.5, 0) to
// (1.5 + 8·2⁻⁵², 40) crosses row 0 at 1.5 + 2·10⁻¹⁷, not at 1.5) decides a whole pixel. The textbook cut
// x0 + (x1 − x0)·((y − y0)·(1/(y1 − y0))), less ½, is within 14.5·2⁻⁵³·max(|x0|, |x1|, 1) of x − ½ for
// coordinates below 2²⁴ (seven roundings of relative 2⁻⁵³, on numbers no larger than 2·max(|x0|, |x1|) but
// the last, which sees x − ½). A cut further than `margin` (2⁻⁴⁷·max(|x0|, |x1|, 1), four times that:
// 7·10⁻¹⁵ px near the origin) from every centre is therefore decided by it, and only one within `margin`
// asks `EdgeCut.cut(…isAtOrLeftOf:)`, which decides the side exactly. Ends beyond 2²⁴ px take `EdgeCut`
// for the cut as well (`EdgeCut.firstCentreColumn`): the textbook cut overflows or rounds the crossing
// away there. Per row that is one product, one ceil and two comparisons, the textbook rule's cost.
//
// The reference (`CentreSampler`) compares `EdgeCut.centreCrossing` with the centres, the raster atlas
// (`CoverageAccumulator`) deposits at this column and GPU tessellation hands the GPU runs of rows that start
// at it: the same rule three ways.

/// The first pixel column whose centre an edge's crossing of a row-centre line counts for, decided exactly.
/// Made once per edge, asked once per row.
package struct CentreColumns {
    private let x0: Double, y0: Double, x1: Double, y1: Double
    private let dx: Double
    /// 1 / (y1 − y0), rounded: a product per row instead of a quotient.
    private let inverseDy: Double
    /// All ends below 2²⁴ px: the textbook cut, checked against `margin`.
    private let ordinary: Bool
    /// How close to a centre (in x − ½) the textbook cut must come before the exact test decides:
    /// 2⁻⁴⁷·max(|x0|, |x1|, 1), four times the cut's error bound (see above).
    private let margin: Double
    /// 1 − margin, rounded.
    private let farFromBelow: Double

    /// Needs finite ends and y0 ≠ y1.
    @inline(__always)
    package init(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1
        dx = x1 - x0
        inverseDy = 1 / (y1 - y0)
        let m = max(x0.magnitude, x1.magnitude)
        // (A rise below ~10⁻³⁰⁸ has no finite reciprocal; EdgeCut takes such an edge.)
        ordinary = max(m, y0.magnitude, y1.magnitude) < 16_777_216 && inverseDy.isFinite
        margin = max(m, 1) * 0x1p-47
        farFromBelow = 1 - margin
    }

    /// Rows r whose centre r + ½ lies in [min(y0, y1), max(y0, y1)), clamped to `lo ... hi` (row indices as
    /// doubles, so far ends need no Int); nil when none. `rows(0.5, 3.5, within: 0, 9)` → 0 ... 2.
    @inline(__always)
    package static func rows(_ y0: Double, _ y1: Double, within lo: Double, _ hi: Double) -> (first: Double, last: Double)? {
        let ymin = min(y0, y1), ymax = max(y0, y1)
        // r + ½ ∈ [ymin, ymax) ⟺ ⌈ymin − ½⌉ ≤ r ≤ ⌈ymax − ½⌉ − 1 (both subtractions exact below 2⁵²).
        let first = max(lo, (ymin - 0.5).rounded(.up))
        let last = min(hi, (ymax - 0.5).rounded(.up) - 1)
        return first <= last ? (first, last) : nil
    }

    /// ⌈x − ½⌉ for the exact crossing x of the line y = `yc` (the first column k with k + ½ ≥ x). `yc` lies in
    /// the edge's y range. Edge (1.5, 0)…(1.5, 40): 1 at every row; (0, 0)…(4, 4) at yc = 2.5: 2.
    @inline(__always)
    package func first(atY yc: Double) -> Double {
        guard ordinary else { return EdgeCut.firstCentreColumn(atY: yc, x0, y0, x1, y1) }
        let u = x0 + dx * ((yc - y0) * inverseDy) - 0.5
        let k = u.rounded(.up)
        // u ∈ (k − 1, k]; d = k − u ∈ [0, 1), rounded monotonically, so a u within `margin` of k (d small)
        // or of k − 1 (d near 1) cannot escape the exact test. One ceil, as the textbook rule alone.
        let d = k - u
        if d > margin && d < farFromBelow { return k }
        return tie(yc, d <= margin ? k : k - 1)
    }

    /// A cut within `margin` of centre r + ½: r when the exact crossing is at or left of it, else r + 1.
    @inline(never)
    private func tie(_ yc: Double, _ r: Double) -> Double {
        EdgeCut.cut(atY: yc, x0, y0, x1, y1, isAtOrLeftOf: r + 0.5) ? r : r + 1
    }
}
