// Path queries: tight bounds, point containment, and trimming by arc length.
//
// - `boundingRect` is exact: besides the on-curve points it takes each curve at the parameters where its x
//   or y derivative vanishes (roots of a linear or quadratic polynomial), never its control points. Lone
//   `move` points count (CGPathGetPathBoundingBox's rule). An empty path gives `CGRect.null`.
// - `contains` counts the crossings of a ray from the point towards +x with every subpath, each closed
//   implicitly as for filling. Curves are cut at their y extrema into y-monotonic pieces; on each piece the
//   crossing is found by bisection, so no flattening tolerance enters the answer. A point exactly on the
//   outline may count either way (as in CoreGraphics).
// - `trimmedPath` measures the length of what a stroke draws: lines, curves and the closing lines of
//   explicitly closed subpaths (an open subpath has no closing line). Cut curves are split at parameters
//   (de Casteljau), so they stay curves of the same degree.
//
// Non-finite input: a NaN point is contained in nothing; a non-finite path, or NaN fractions, trim to an
// empty path; coordinates that are NaN are skipped by `boundingRect`.

extension Path {
    /// The smallest rectangle holding every point of the path, control points excluded.
    ///
    /// `Path { $0.move(to: .zero); $0.addCurve(to: CGPoint(x: 1, y: 0), control1: CGPoint(x: 0, y: 4), control2: CGPoint(x: 1, y: 4)) }.boundingRect`
    /// → (0, 0, 1, 3): the curve peaks at y = 3, below its controls at y = 4.
    public var boundingRect: CGRect {
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        var any = false
        func add(_ p: CGPoint) {
            guard !p.x.isNaN, !p.y.isNaN else { return }
            any = true
            if p.x < minX { minX = p.x }
            if p.x > maxX { maxX = p.x }
            if p.y < minY { minY = p.y }
            if p.y > maxY { maxY = p.y }
        }
        var start = CGPoint.zero, pen = CGPoint.zero
        for e in elements {
            switch e {
            case .move(let p):
                add(p); start = p; pen = p
            case .line(let p):
                add(pen); add(p); pen = p
            case .quadCurve(let p, let c):
                let s = PathSegment.quad(pen, c, p)
                add(pen); add(p)
                s.forEachExtremum { add(s.point(at: $0)) }
                pen = p
            case .curve(let p, let c1, let c2):
                let s = PathSegment.cubic(pen, c1, c2, p)
                add(pen); add(p)
                s.forEachExtremum { add(s.point(at: $0)) }
                pen = p
            case .closeSubpath:
                pen = start
            }
        }
        guard any else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// True when `p` is inside the filled path: non-zero winding, or even-odd when `eoFill`.
    ///
    /// For a ring made of two concentric circles drawn in the same direction, the centre has winding 2:
    /// `contains(center)` → true, `contains(center, eoFill: true)` → false.
    public func contains(_ p: CGPoint, eoFill: Bool = false) -> Bool {
        guard p.x.isFinite, p.y.isFinite else { return false }
        var winding = 0
        for contour in contours {
            var pen = contour.start
            for s in contour.segments {
                winding += Path.crossings(of: s, rayFrom: p)
                pen = s.end
            }
            if !contour.isClosed, pen != contour.start {
                winding += Path.crossings(of: .line(pen, contour.start), rayFrom: p)
            }
        }
        return eoFill ? winding & 1 != 0 : winding != 0
    }

    /// The signed crossings of the ray {(x, p.y) : x > p.x} with `s`: +1 where the segment goes down the
    /// screen (y increasing), −1 where it goes up. Each y-monotonic piece covers y ∈ [min, max), so a
    /// vertex shared by two pieces counts once.
    private static func crossings(of s: PathSegment, rayFrom p: CGPoint) -> Int {
        // Quick rejects on the control hull (it contains the curve).
        let ys: [CGFloat], xs: [CGFloat]
        switch s.kind {
        case .line: ys = [s.p0.y, s.p1.y]; xs = [s.p0.x, s.p1.x]
        case .quad: ys = [s.p0.y, s.p1.y, s.p2.y]; xs = [s.p0.x, s.p1.x, s.p2.x]
        case .cubic: ys = [s.p0.y, s.p1.y, s.p2.y, s.p3.y]; xs = [s.p0.x, s.p1.x, s.p2.x, s.p3.x]
        }
        guard p.y >= ys.min()!, p.y <= ys.max()!, p.x < xs.max()! else { return 0 }

        var cuts: [CGFloat] = [0]
        s.forEachAxisExtremum(x: false) { cuts.append($0) }
        cuts.sort()
        cuts.append(1)
        var total = 0
        for i in 0 ..< cuts.count - 1 {
            let ta = cuts[i], tb = cuts[i + 1]
            let ya = s.point(at: ta).y, yb = s.point(at: tb).y
            guard (ya <= p.y) != (yb <= p.y) else { continue }
            // Bisection for y(t) = p.y on the monotonic piece [ta, tb].
            var lo = ta, hi = tb
            let rising = yb > ya
            for _ in 0 ..< 60 {
                let mid = (lo + hi) / 2
                let y = s.point(at: mid).y
                if (y <= p.y) == rising { lo = mid } else { hi = mid }
                if hi - lo <= 1e-15 { break }
            }
            let x = s.point(at: (lo + hi) / 2).x
            if x > p.x { total += rising ? 1 : -1 }
        }
        return total
    }

    /// The part of the path between fractions `from` and `to` of its total length, both clamped to
    /// [0, 1]. `from >= to` gives an empty path (as SwiftUI); `from <= 0, to >= 1` gives the path itself.
    /// Pieces keep their element kinds; a closed subpath kept whole from its start stays closed.
    ///
    /// `Path(CGRect(x: 0, y: 0, width: 10, height: 10)).trimmedPath(from: 0, to: 0.375).description`
    /// → `"0 0 m 10 0 l 10 5 l"` (15 of the 40 units of outline).
    public func trimmedPath(from: CGFloat, to: CGFloat) -> Path {
        guard !from.isNaN, !to.isNaN else { return Path() }
        let a = max(0, min(1, from)), b = max(0, min(1, to))
        guard a < b else { return Path() }
        if a <= 0 && b >= 1 { return self }
        guard isFinite else { return Path() }
        let cs = contours
        var lengths: [[CGFloat]] = []
        lengths.reserveCapacity(cs.count)
        var total: CGFloat = 0
        for c in cs {
            let ls = c.segments.map { $0.length() }
            for l in ls { total += l }
            lengths.append(ls)
        }
        guard total > 0, total.isFinite else { return Path() }
        // The ends of the wanted stretch; the open ends avoid rounding that would cut the last segment short.
        let s0: CGFloat = a <= 0 ? -.infinity : a * total
        let s1: CGFloat = b >= 1 ? .infinity : b * total
        var out = Path()
        var covered: CGFloat = 0
        outer: for (ci, c) in cs.enumerated() {
            var penDown = false
            var fromContourStart = false
            for (si, seg) in c.segments.enumerated() {
                let len = lengths[ci][si]
                let lo = covered, hi = covered + len
                covered = hi
                if lo >= s1 { break outer }
                let isClosing = c.isClosed && si == c.segments.count - 1
                if len == 0 {
                    // A zero-length closing line keeps a fully kept subpath closed; others draw nothing.
                    if isClosing, penDown, fromContourStart { out.elements.append(.closeSubpath) }
                    continue
                }
                guard hi > s0 else { continue }
                let t0: CGFloat = s0 > lo ? seg.parameter(atLength: s0 - lo, total: len) : 0
                let t1: CGFloat = s1 < hi ? seg.parameter(atLength: s1 - lo, total: len) : 1
                guard t1 > t0 else { continue }
                let piece = (t0 == 0 && t1 == 1) ? seg : seg.subsegment(from: t0, to: t1)
                if !penDown {
                    out.elements.append(.move(to: piece.start))
                    penDown = true
                    fromContourStart = si == 0 && t0 == 0
                }
                if isClosing, t1 == 1, fromContourStart {
                    out.elements.append(.closeSubpath)
                } else {
                    out.elements.append(piece.element)
                }
            }
        }
        return out
    }
}
