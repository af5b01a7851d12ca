// Where an edge meets a horizontal line, computed so that it is right for any finite coordinates.
//
// Both reference rasterizers, and both GLES path strategies where an edge leaves a piece or has an end
// beyond 2²⁴ px, cut edges at canvas lines (rows, pixel-centre rows, x = 0, x = width). The
// textbook cut x0 + (y − y0) · (x1 − x0) / (y1 − y0) goes wrong for finite edges near the top of the f64
// range in two ways:
// - x1 − x0 (or y1 − y0) overflows: 10³⁰⁸ − (−10³⁰⁸) = ∞, and the cut becomes ∞ or NaN;
// - when both ends are far from the line it is cut at, rounding y − y0 and the slope (2⁻⁵³ relative, of
//   10³⁰⁰ px) moves the cut by far more than a pixel: the edge (−10³⁰⁰, −10³⁰⁰)…(10³⁰⁰, 10³⁰⁰) would cross
//   row 64 at x = 0, not 64. Even one far end does it when the cut is taken from that end.
// So the cut solves
//     x · (y1 − y0) = x0 · (y1 − y0) + (y − y0) · (x1 − x0)
// with nothing rounded on the right: each difference is kept as an exact two-term sum, each product of
// doubles as an exact two-term sum (fma), and the terms are added exactly as a Shewchuk expansion
// (Shewchuk 1997, "Adaptive precision floating-point arithmetic": Grow-Expansion, Compress). Only the
// value of the sum and the division are rounded, so the cut is within a few ulps of the true x: ~10⁻¹⁴ px
// for a cut on the canvas, however far away the ends lie. Where a few ulps matter, at a pixel centre lying
// on the edge, `cut(atY:…isAtOrLeftOf:)` decides the side exactly from the sign of the same kind of sum.
//
// Overflow: x and y are each scaled by a power of two (exact) so that no coordinate exceeds 2⁵⁰⁰; then every
// difference is < 2⁵⁰¹, every product < 2¹⁰⁰², and every partial sum of the (at most sixteen) terms
// < 2¹⁰⁰⁶. Scaling can push the low bits of tiny values or products below the subnormal range; what is
// lost moves a cut by less than 2⁻⁵⁴⁶ · max(1, 1/|y1 − y0|) px, nothing a pixel can show.

/// Cuts of straight edges by horizontal (or, with the axes swapped, vertical) lines.
package enum EdgeCut {
    /// The x where the line through (x0, y0) and (x1, y1) has height `y`, clamped to [min(x0, x1),
    /// max(x0, x1)] (the cut of the edge itself when `y` lies between y0 and y1). Needs finite values and
    /// y0 ≠ y1; the result is then finite. For a vertical cut swap the axes: `x(atY: x, y0, x0, y1, x1)`.
    ///
    /// `x(atY: 64, -1e300, -1e300, 1e300, 1e300)` → 64; `x(atY: 1, 0, 0, 3, 2)` → 1.5.
    package static func x(atY y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
        precondition(y0 != y1 && x0.isFinite && x1.isFinite && y0.isFinite && y1.isFinite && y.isFinite)
        if x0 == x1 { return x0 }
        if y == y0 { return x0 }
        if y == y1 { return x1 }
        let e = Edge(x0, y0, x1, y1, x: 0, y: y)
        let (tH, tL) = twoSum(e.Y, -e.Y0)
        // x·dy = X0·dy + (Y − Y0)·dx, every factor exact: twelve exact terms.
        let n = exactSum { add in
            add(e.X0, e.dyH); add(e.X0, e.dyL)
            add(tH, e.dxH); add(tH, e.dxL); add(tL, e.dxH); add(tL, e.dxL)
        }
        // dyH is dy rounded once (dyL is below its last bit).
        let x = scaled(n / e.dyH, by: e.sx)
        return min(max(x, min(x0, x1)), max(x0, x1))
    }

    /// Whether the line through (x0, y0) and (x1, y1) meets height `y` at an x ≤ `c`, decided exactly (the
    /// sign of (c − x0)·(y1 − y0) − (y − y0)·(x1 − x0), every term kept). Same preconditions as `x(atY:)`.
    /// Only a point within 2⁻⁵⁴⁶ · max(1, 1/|y1 − y0|) px of the line could be misjudged (bits lost below
    /// the subnormal range, see above).
    ///
    /// `cut(atY: 0.5, 0, 0, 1e19, 1e19, isAtOrLeftOf: 0.5)` → true (the cut is 0.5);
    /// `cut(atY: 100.5, 1e19, 1e19, 0, 100, isAtOrLeftOf: 0.5)` → false (it is 0.5 + 5·10⁻¹⁸).
    package static func cut(atY y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double,
                    isAtOrLeftOf c: Double) -> Bool {
        precondition(y0 != y1 && x0.isFinite && x1.isFinite && y0.isFinite && y1.isFinite && y.isFinite
                     && c.isFinite)
        let e = Edge(x0, y0, x1, y1, x: c, y: y)
        let (tH, tL) = twoSum(e.Y, -e.Y0)
        let (cH, cL) = twoSum(e.X, -e.X0)
        // (c − x)·dy = (C − X0)·dy − (Y − Y0)·dx: sixteen exact terms.
        let d = exactSum { add in
            add(cH, e.dyH); add(cH, e.dyL); add(cL, e.dyH); add(cL, e.dyL)
            add(-tH, e.dxH); add(-tH, e.dxL); add(-tL, e.dxH); add(-tL, e.dxL)
        }
        return y1 > y0 ? d >= 0 : d <= 0
    }

    /// The x where the edge crosses the pixel-centre line `y`, for comparing with pixel centres (x = k + ½):
    /// `x(atY:)`, except that a cut within a few ulps of a centre becomes that centre when the true cut is
    /// at or left of it (decided exactly by `cut(atY:…)`) and the next double above it otherwise, so the
    /// top-left tie rule holds for any finite ends. The reference's centre sampling takes its crossings from
    /// here (the GLES strategies take columns, `firstCentreColumn` / `CentreColumns`).
    /// `centreCrossing(atY: 110.5, 1e19, 1e19, 0, 100)` → 10.5.nextUp (the true cut is 10.5 + 10⁻¹⁷).
    package static func centreCrossing(atY y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
        let x = EdgeCut.x(atY: y, x0, y0, x1, y1)
        let c = (x - 0.5).rounded() + 0.5   // the nearest centre; centres are 1 px apart
        // `x(atY:)` is within ~3 ulps of the true cut: 64 ulps of the centre holds every undecided case.
        guard (x - c).magnitude <= 64 * c.ulp else { return x }
        return cut(atY: y, x0, y0, x1, y1, isAtOrLeftOf: c) ? c : c.nextUp
    }

    /// The first pixel column whose centre (k + ½) is at or right of where the edge crosses the line `y`:
    /// ⌈x − ½⌉ of the true cut, a tie within a few ulps of a centre decided exactly by `cut(atY:…)` (the
    /// top-left rule, `CentreColumns`). For any finite ends; a cut beyond 2⁵² px gives a column as far
    /// away, which callers clamp. `firstCentreColumn(atY: 110.5, 1e19, 1e19, 0, 100)` → 11 (the cut is
    /// 10.5 + 10⁻¹⁷, right of centre 10.5).
    package static func firstCentreColumn(atY y: Double, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Double {
        let x = EdgeCut.x(atY: y, x0, y0, x1, y1)
        let r = (x - 0.5).rounded()   // the nearest centre is r + ½
        let c = r + 0.5
        // As in `centreCrossing`: `x(atY:)` is within ~3 ulps of the true cut.
        guard (x - c).magnitude <= 64 * c.ulp else { return (x - 0.5).rounded(.up) }
        return cut(atY: y, x0, y0, x1, y1, isAtOrLeftOf: c) ? r : r + 1
    }

    /// Calls `piece` for the parts of the edge (x0, y0)…(x1, y1) between its crossings of the vertical lines
    /// x = `a` and x = `b`, in order along the edge; a crossing point lies on its line (x exactly `a` or `b`,
    /// y from `x(atY:)` with the axes swapped). Lines the edge only touches at an end do not split it. The
    /// rasterizers split edges at a box's left and right borders with it, each then placing every piece by
    /// the side of the borders its middle lies on.
    ///
    /// `split(0, 0, 10, 10, atX: 2, 4)` → pieces (0, 0)…(2, 2), (2, 2)…(4, 4), (4, 4)…(10, 10).
    // Inlinable: both rasterizers (other modules) split every edge through it, with a closure per piece.
    @inlinable @inline(__always)
    package static func split(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, atX a: Double, _ b: Double,
                      _ piece: (Double, Double, Double, Double) -> Void) {
        func crossing(_ x: Double) -> Double {
            guard (x0 < x && x < x1) || (x1 < x && x < x0) else { return .nan }
            return EdgeCut.x(atY: x, y0, x0, y1, x1)
        }
        var first = (x: min(a, b), y: crossing(min(a, b))), second = (x: max(a, b), y: crossing(max(a, b)))
        if x0 > x1 { swap(&first, &second) }
        var px = x0, py = y0
        if !first.y.isNaN { piece(px, py, first.x, first.y); px = first.x; py = first.y }
        if !second.y.isNaN { piece(px, py, second.x, second.y); px = second.x; py = second.y }
        piece(px, py, x1, y1)
    }

    /// An edge and a query point scaled (x and y each by its own power of two, exactly) so that every
    /// coordinate is below 2⁵⁰⁰, with dx and dy as exact two-term sums.
    private struct Edge {
        let X0: Double, Y0: Double, X: Double, Y: Double
        let dxH: Double, dxL: Double, dyH: Double, dyL: Double
        /// x was divided by 2^sx.
        let sx: Int

        init(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, x: Double, y: Double) {
            sx = EdgeCut.scaleExponent(max(x0.magnitude, x1.magnitude, x.magnitude))
            let sy = EdgeCut.scaleExponent(max(y0.magnitude, y1.magnitude, y.magnitude))
            X0 = EdgeCut.scaled(x0, by: -sx); X = EdgeCut.scaled(x, by: -sx)
            Y0 = EdgeCut.scaled(y0, by: -sy); Y = EdgeCut.scaled(y, by: -sy)
            (dxH, dxL) = EdgeCut.twoSum(EdgeCut.scaled(x1, by: -sx), -X0)
            (dyH, dyL) = EdgeCut.twoSum(EdgeCut.scaled(y1, by: -sy), -Y0)
        }
    }

    /// The most exact terms a sum holds: eight products of two doubles, two terms each.
    private static let maxTerms = 16

    /// Σ a·b over the pairs passed to `add`, each product kept exactly (two terms) and the whole added
    /// exactly, then rounded once: within one ulp of the true sum, with its sign.
    private static func exactSum(_ products: (_ add: (Double, Double) -> Void) -> Void) -> Double {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * maxTerms) { buf -> Double in
            let e = buf.baseAddress!
            var len = 0
            products { a, b in
                precondition(len + 2 <= maxTerms)
                let (p, err) = twoProduct(a, b)
                len = grow(e, len, err)
                len = grow(e, len, p)
            }
            return approximate(e, len, scratch: e + maxTerms)
        }
    }

    /// Power-of-two exponent s ≥ 0 that brings `m` below 2⁵⁰⁰ when divided by 2ˢ.
    fileprivate static func scaleExponent(_ m: Double) -> Int {
        m == 0 ? 0 : max(0, Int(m.exponent) - 499)
    }

    /// v · 2ᵉ, exact unless it leaves the normal range.
    fileprivate static func scaled(_ v: Double, by e: Int) -> Double {
        e == 0 ? v : Double(sign: .plus, exponent: e, significand: v)
    }

    /// a + b = s + e exactly, s = fl(a + b) (Knuth's TwoSum; no condition on the magnitudes).
    @inline(__always)
    package static func twoSum(_ a: Double, _ b: Double) -> (Double, Double) {
        let s = a + b
        let bv = s - a
        let av = s - bv
        return (s, (a - av) + (b - bv))
    }

    /// a · b = p + e exactly, p = fl(a · b), while a · b stays in the normal range.
    @inline(__always)
    package static func twoProduct(_ a: Double, _ b: Double) -> (Double, Double) {
        let p = a * b
        return (p, (-p).addingProduct(a, b))
    }

    /// Grow-Expansion: adds `b` to the nonoverlapping expansion `e[0 ..< len]` (increasing magnitude) in
    /// place, exactly; returns the new length (len + 1).
    private static func grow(_ e: UnsafeMutablePointer<Double>, _ len: Int, _ b: Double) -> Int {
        var q = b
        for i in 0 ..< len {
            let (s, err) = twoSum(q, e[i])
            e[i] = err
            q = s
        }
        e[len] = q
        return len + 1
    }

    /// The value of the nonoverlapping expansion `e[0 ..< len]`, rounded: the largest component after
    /// Compress, which is within one ulp of the whole and has its sign. (Summing the components instead can
    /// lose everything: the expansion −(2⁻⁵⁴ + … + 2⁻⁶⁰), −(2⁻¹ + … + 2⁻⁵³), 1 sums to 0, not 2⁻⁶⁰, from
    /// its small end.)
    private static func approximate(_ e: UnsafeMutablePointer<Double>, _ len: Int,
                                    scratch g: UnsafeMutablePointer<Double>) -> Double {
        guard len > 0 else { return 0 }
        // Top-down pass: carry the running sum down, keeping nonzero remainders at the top of g.
        var bottom = len - 1
        var q = e[len - 1]
        for i in stride(from: len - 2, through: 0, by: -1) {
            let (s, err) = twoSum(q, e[i])
            if err != 0 {
                g[bottom] = s
                bottom -= 1
                q = err
            } else {
                q = s
            }
        }
        g[bottom] = q
        // Bottom-up pass: the final carry is the largest component.
        for i in bottom + 1 ..< len {
            q = twoSum(g[i], q).0
        }
        return q
    }
}
