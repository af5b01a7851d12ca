// Path segments in absolute coordinates, and the measurements on them that trimming, bounds, hit-testing
// (and dashing) share: evaluation, de Casteljau splitting, arc length and its inverse, derivative roots.
//
// Arc length: a line's is exact; a curve's is ∫|B′(t)| dt by adaptive 8-point Gauss–Legendre quadrature.
// |B′| is a square root of a polynomial: smooth, so Gauss–Legendre converges fast, except near a cusp
// (B′ = 0), where the adaptive halving concentrates the work. The inverse (parameter at a length) is
// Newton's method on that integral, safeguarded by bisection, so it always converges.

/// One drawable piece of a path with its start point: a line, a quadratic or a cubic Bézier.
///
/// Points: a line uses `p0`→`p1`; a quadratic `p0`, control `p1`, end `p2`; a cubic `p0`, `p1`, `p2`, `p3`.
/// Unused points repeat the end point, so `==` compares only meaningful geometry.
package struct PathSegment: Equatable, Sendable {
    package enum Kind: Sendable { case line, quad, cubic }

    package var kind: Kind
    package var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint

    package static func line(_ a: CGPoint, _ b: CGPoint) -> PathSegment {
        PathSegment(kind: .line, p0: a, p1: b, p2: b, p3: b)
    }
    package static func quad(_ a: CGPoint, _ c: CGPoint, _ b: CGPoint) -> PathSegment {
        PathSegment(kind: .quad, p0: a, p1: c, p2: b, p3: b)
    }
    package static func cubic(_ a: CGPoint, _ c1: CGPoint, _ c2: CGPoint, _ b: CGPoint) -> PathSegment {
        PathSegment(kind: .cubic, p0: a, p1: c1, p2: c2, p3: b)
    }

    package var start: CGPoint { p0 }
    package var end: CGPoint {
        switch kind {
        case .line: return p1
        case .quad: return p2
        case .cubic: return p3
        }
    }

    /// The element that draws this segment from its start point.
    package var element: Path.Element {
        switch kind {
        case .line: return .line(to: p1)
        case .quad: return .quadCurve(to: p2, control: p1)
        case .cubic: return .curve(to: p3, control1: p1, control2: p2)
        }
    }

    /// B(t), t in [0, 1].
    package func point(at t: CGFloat) -> CGPoint {
        let u = 1 - t
        switch kind {
        case .line:
            return CGPoint(x: u * p0.x + t * p1.x, y: u * p0.y + t * p1.y)
        case .quad:
            let a = u * u, b = 2 * u * t, c = t * t
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x, y: a * p0.y + b * p1.y + c * p2.y)
        case .cubic:
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                           y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
        }
    }

    /// B′(t).
    package func derivative(at t: CGFloat) -> CGPoint {
        let u = 1 - t
        switch kind {
        case .line:
            return CGPoint(x: p1.x - p0.x, y: p1.y - p0.y)
        case .quad:
            return CGPoint(x: 2 * (u * (p1.x - p0.x) + t * (p2.x - p1.x)),
                           y: 2 * (u * (p1.y - p0.y) + t * (p2.y - p1.y)))
        case .cubic:
            let a = 3 * u * u, b = 6 * u * t, c = 3 * t * t
            return CGPoint(x: a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                           y: a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y))
        }
    }

    /// The two halves at `t` (de Casteljau): the first runs t ∈ [0, t], the second [t, 1]. Both keep the
    /// kind, so a trimmed curve stays a curve of the same degree.
    package func split(at t: CGFloat) -> (PathSegment, PathSegment) {
        func lerp(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        switch kind {
        case .line:
            let m = lerp(p0, p1)
            return (.line(p0, m), .line(m, p1))
        case .quad:
            let a = lerp(p0, p1), b = lerp(p1, p2), m = lerp(a, b)
            return (.quad(p0, a, m), .quad(m, b, p2))
        case .cubic:
            let a = lerp(p0, p1), b = lerp(p1, p2), c = lerp(p2, p3)
            let d = lerp(a, b), e = lerp(b, c), m = lerp(d, e)
            return (.cubic(p0, a, d, m), .cubic(m, e, c, p3))
        }
    }

    /// The part between parameters `t0` < `t1` (clamped to [0, 1]), as a segment of the same kind.
    package func subsegment(from t0: CGFloat, to t1: CGFloat) -> PathSegment {
        let a = max(0, min(1, t0)), b = max(0, min(1, t1))
        var s = self
        if b < 1 { s = s.split(at: b).0 }
        if a > 0 {
            // Reparametrise: a in [0, 1] of the original is a / b of the left part.
            let u = b > 0 ? a / b : 1
            s = s.split(at: min(1, u)).1
        }
        return s
    }

    // MARK: Arc length

    /// Nodes and weights of 8-point Gauss–Legendre quadrature on [−1, 1] (exact for degree-15 polynomials).
    private static let gaussNodes: [Double] = [0.1834346424956498, 0.5255324099163290,
                                               0.7966664774136267, 0.9602898564975363]
    private static let gaussWeights: [Double] = [0.3626837833783620, 0.3137066458778873,
                                                 0.2223810344533745, 0.1012285362903763]
    /// Relative accuracy the adaptive quadrature aims for: far below anything visible, far above rounding.
    private static let lengthTolerance: Double = 1e-11
    /// Halvings allowed below one interval: bounds the work near a cusp (2¹⁶ is never approached on a
    /// smooth stretch; a cusp costs about 2 intervals per level).
    private static let maxDepth = 16

    /// |B′(t)|.
    package func speed(at t: CGFloat) -> CGFloat {
        let d = derivative(at: t)
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    private func gaussLegendre(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2, mid = (a + b) / 2
        var sum = 0.0
        for i in 0 ..< 4 {
            let dx = half * PathSegment.gaussNodes[i]
            sum += PathSegment.gaussWeights[i] * (speed(at: mid - dx) + speed(at: mid + dx))
        }
        return sum * half
    }

    private func adaptiveLength(_ a: Double, _ b: Double, whole: Double, tolerance: Double, depth: Int) -> Double {
        let m = (a + b) / 2
        let l = gaussLegendre(a, m), r = gaussLegendre(m, b)
        // Accept only from depth 2 on: a single comparison can agree by coincidence.
        if depth >= PathSegment.maxDepth || (depth >= 2 && abs(l + r - whole) <= tolerance) { return l + r }
        return adaptiveLength(a, m, whole: l, tolerance: tolerance / 2, depth: depth + 1)
            + adaptiveLength(m, b, whole: r, tolerance: tolerance / 2, depth: depth + 1)
    }

    /// The length of the control polygon: an upper bound of the arc length, used to scale tolerances.
    private var hullLength: CGFloat {
        func d(_ a: CGPoint, _ b: CGPoint) -> CGFloat { ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot() }
        switch kind {
        case .line: return d(p0, p1)
        case .quad: return d(p0, p1) + d(p1, p2)
        case .cubic: return d(p0, p1) + d(p1, p2) + d(p2, p3)
        }
    }

    /// Arc length between parameters `t0` ≤ `t1` (relative error about 1e-11).
    ///
    /// The interval is cut at the curve's axis extrema first: |B′| can only vanish (a cusp, where it has a
    /// kink) where both x′ and y′ do, so every piece has a smooth integrand, kinks only at its ends.
    ///
    /// `PathSegment.line(.zero, CGPoint(x: 3, y: 4)).length()` → 5.
    package func length(from t0: CGFloat = 0, to t1: CGFloat = 1) -> CGFloat {
        guard t1 > t0 else { return 0 }
        if kind == .line { return hullLength * (t1 - t0) }
        let scale = hullLength
        guard scale > 0 else { return 0 }
        guard scale.isFinite else { return scale }
        var cuts: [CGFloat] = []
        cuts.reserveCapacity(5)
        forEachExtremum { t in if t > t0, t < t1 { cuts.append(t) } }
        cuts.sort()
        cuts.append(t1)
        var total: CGFloat = 0
        var a = t0
        let tol = PathSegment.lengthTolerance * scale
        for b in cuts where b > a {
            total += adaptiveLength(a, b, whole: gaussLegendre(a, b), tolerance: tol * (b - a), depth: 0)
            a = b
        }
        return total
    }

    /// The parameter t at which the arc length from the start reaches `s` (0 for s ≤ 0, 1 for s ≥ the
    /// length). `total` may pass the segment's known length to save recomputing it.
    package func parameter(atLength s: CGFloat, total: CGFloat? = nil) -> CGFloat {
        let total = total ?? length()
        guard s > 0, total > 0 else { return 0 }
        guard s < total else { return 1 }
        if kind == .line { return s / total }
        var lo: CGFloat = 0, hi: CGFloat = 1, t = s / total
        // Newton on f(t) = length(0, t) − s, f′ = speed. Each step measures from the previous estimate only.
        var lengthAtT = length(from: 0, to: t)
        for _ in 0 ..< 64 {
            let f = lengthAtT - s
            if abs(f) <= PathSegment.lengthTolerance * 10 * total { break }
            if f > 0 { hi = t } else { lo = t }
            let sp = speed(at: t)
            var next = sp > 0 ? t - f / sp : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            lengthAtT += next > t ? length(from: t, to: next) : -length(from: next, to: t)
            t = next
            if hi - lo < 1e-15 { break }
        }
        return t
    }

    // MARK: Derivative roots

    /// Calls `body` with each t in (0, 1) where x′(t) = 0 or y′(t) = 0 (the curve's axis extrema).
    package func forEachExtremum(_ body: (CGFloat) -> Void) {
        forEachAxisExtremum(x: true, body)
        forEachAxisExtremum(x: false, body)
    }

    /// Calls `body` with each t in (0, 1) where the x (or y) derivative vanishes.
    package func forEachAxisExtremum(x: Bool, _ body: (CGFloat) -> Void) {
        func c(_ p: CGPoint) -> CGFloat { x ? p.x : p.y }
        switch kind {
        case .line:
            return
        case .quad:
            let denom = c(p0) - 2 * c(p1) + c(p2)
            guard denom != 0 else { return }
            let t = (c(p0) - c(p1)) / denom
            if t > 0, t < 1 { body(t) }
        case .cubic:
            // B′/3 = a t² + b t + c
            let a = -c(p0) + 3 * c(p1) - 3 * c(p2) + c(p3)
            let b = 2 * (c(p0) - 2 * c(p1) + c(p2))
            let k = c(p1) - c(p0)
            PathSegment.solveQuadratic(a, b, k) { t in if t > 0, t < 1 { body(t) } }
        }
    }

    /// Real roots of a·t² + b·t + c = 0, with the cancellation-free form of the quadratic formula.
    package static func solveQuadratic(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ body: (CGFloat) -> Void) {
        if a == 0 {
            if b != 0 { body(-c / b) }
            return
        }
        let disc = b * b - 4 * a * c
        guard disc >= 0 else { return }
        let sq = disc.squareRoot()
        let q = -(b + (b < 0 ? -sq : sq)) / 2
        if q != 0 {
            body(q / a)
            let r2 = c / q
            if r2 != q / a { body(r2) }
        } else {
            body(0)  // b = 0 and disc = 0: c = 0, the double root 0
        }
    }
}

/// One subpath as segments. A closed contour ends with its closing line back to `start` (possibly of zero
/// length); a contour that is only a `move` has no segments.
package struct PathContour: Equatable, Sendable {
    package var start: CGPoint
    package var segments: [PathSegment]
    package var isClosed: Bool
}

extension Path {
    /// The subpaths as segments, following CoreGraphics' rules: an element after `closeSubpath` without a
    /// `move` starts a new contour at the closed one's start; an element on a path without any `move`
    /// starts at (0, 0).
    ///
    /// `Path(CGRect(x: 0, y: 0, width: 1, height: 1)).contours` → one closed contour of 4 lines.
    package var contours: [PathContour] {
        var result: [PathContour] = []
        var open: PathContour?
        var start = CGPoint.zero, pen = CGPoint.zero
        func add(_ s: PathSegment) {
            if open == nil { open = PathContour(start: start, segments: [], isClosed: false) }
            open!.segments.append(s)
            pen = s.end
        }
        for e in elements {
            switch e {
            case .move(let p):
                if let c = open { result.append(c) }
                open = PathContour(start: p, segments: [], isClosed: false)
                start = p
                pen = p
            case .line(let p): add(.line(pen, p))
            case .quadCurve(let p, let c): add(.quad(pen, c, p))
            case .curve(let p, let c1, let c2): add(.cubic(pen, c1, c2, p))
            case .closeSubpath:
                guard var c = open else { break }
                c.segments.append(.line(pen, start))
                c.isClosed = true
                result.append(c)
                open = nil
                pen = start
            }
        }
        if let c = open { result.append(c) }
        return result
    }
}
