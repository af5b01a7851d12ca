// Curve flattening: paths → device-space polygons.
//
// Curves are flattened in device space (after the transform), so the tolerance is in device pixels whatever
// the scale. The segment count of a curve follows from the bound on the chord error of a uniformly
// subdivided Bézier: for a quadratic with second difference D = |p0 − 2p1 + p2| the error of n equal
// parameter steps is ≤ D / (4n²); for a cubic with D = max(|p0 − 2p1 + p2|, |p1 − 2p2 + p3|) it is
// ≤ 3D / (4n²). Solving for n gives the counts below. `maxSegmentsPerCurve` bounds the work a huge curve
// can cause (at 10⁶ px the error bound then exceeds the tolerance, invisibly: such curves are off-canvas).
//
// Why uniform steps, although they are sized for the curve's worst spot: adaptive steps, each sized from the
// local curvature within the same tolerance (curve monotone along the chord, h²/8 · max|B''·n| ≤ tolerance),
// give fewer edges, but every adaptive chord then uses the whole tolerance where most uniform chords use a
// fraction of it, and the pixels show it (a larger mean error against a supersampled rendering, and folded
// stroke outlines moved by tens of levels). The tolerance bounds the worst chord; the image quality follows
// the typical one. Nor is a coarser tolerance the way to speed: it buys little frame time with chord errors
// docs/DESIGN-NOTES.md rules out (≤ 0.05 px). The measurements: docs/performance.md, "Flattening".

package enum Flatten {
    /// Chord error bound in device pixels: invisible next to 8-bit coverage rounding (1/255 of a pixel's
    /// area is far coarser than a 0.05 px displacement along a short edge).
    package static let tolerance = 0.05
    /// Upper bound of straight segments per curve element, so 10⁹-pixel curves cannot exhaust memory.
    package static let maxSegmentsPerCurve = 4096

    /// Segments needed for a quadratic with control points p0, p1, p2 (device space).
    package static func quadSegments(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, tolerance: Double) -> Int {
        let dx = p0.x - 2 * p1.x + p2.x, dy = p0.y - 2 * p1.y + p2.y
        let d = (dx * dx + dy * dy).squareRoot()
        return segmentCount((d / (4 * tolerance)).squareRoot())
    }

    /// Segments needed for a cubic with control points p0…p3 (device space).
    package static func cubicSegments(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, _ p3: DevicePoint,
                              tolerance: Double) -> Int {
        let ax = p0.x - 2 * p1.x + p2.x, ay = p0.y - 2 * p1.y + p2.y
        let bx = p1.x - 2 * p2.x + p3.x, by = p1.y - 2 * p2.y + p3.y
        let d = max((ax * ax + ay * ay).squareRoot(), (bx * bx + by * by).squareRoot())
        return segmentCount((3 * d / (4 * tolerance)).squareRoot())
    }

    /// n rounded up to a whole count, 1…`maxSegmentsPerCurve`; clamped before the conversion to Int, since
    /// curves 10³⁸ px across give counts no Int can hold.
    private static func segmentCount(_ n: Double) -> Int {
        guard n.isFinite, n < Double(maxSegmentsPerCurve) else { return maxSegmentsPerCurve }
        return max(1, Int(n.rounded(.up)))
    }

    /// Appends the points after p0 of a flattened quadratic (p2 last, exactly), each with its parameter t.
    package static func quad(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, tolerance: Double,
                     into out: (DevicePoint, Double) -> Void) {
        let n = quadSegments(p0, p1, p2, tolerance: tolerance)
        for i in 1 ..< n {
            let t = Double(i) / Double(n), u = 1 - t
            out(DevicePoint(x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x,
                            y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y), t)
        }
        out(p2, 1)
    }

    /// Appends the points after p0 of a flattened cubic (p3 last, exactly), each with its parameter t.
    package static func cubic(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, _ p3: DevicePoint,
                      tolerance: Double, into out: (DevicePoint, Double) -> Void) {
        let n = cubicSegments(p0, p1, p2, p3, tolerance: tolerance)
        for i in 1 ..< n {
            let t = Double(i) / Double(n), u = 1 - t
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            out(DevicePoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x,
                            y: a * p0.y + b * p1.y + c * p2.y + d * p3.y), t)
        }
        out(p3, 1)
    }

    /// The unit tangent of a quadratic at parameter t, or (0, 0) where it has none (a degenerate curve).
    /// At the ends a vanishing derivative (control point on the end point) gives the direction towards the
    /// other points, the limit of the tangent there.
    /// `quadTangent((0,0), (0,0), (10,0), t: 0)` → (1, 0).
    package static func quadTangent(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, t: Double) -> DevicePoint {
        if t <= 0 { return unit(p1.x - p0.x, p1.y - p0.y) ?? unit(p2.x - p0.x, p2.y - p0.y) ?? DevicePoint(x: 0, y: 0) }
        if t >= 1 { return unit(p2.x - p1.x, p2.y - p1.y) ?? unit(p2.x - p0.x, p2.y - p0.y) ?? DevicePoint(x: 0, y: 0) }
        let u = 1 - t
        return unit(u * (p1.x - p0.x) + t * (p2.x - p1.x), u * (p1.y - p0.y) + t * (p2.y - p1.y))
            ?? DevicePoint(x: 0, y: 0)
    }

    /// The unit tangent of a cubic at parameter t, or (0, 0) where it has none (a cusp). At the ends a
    /// vanishing derivative (a control point on its end point) gives the limit direction, towards the next
    /// distinct control point. `cubicTangent((0,0), (0,0), (0,10), (10,10), t: 0)` → (0, 1).
    package static func cubicTangent(_ p0: DevicePoint, _ p1: DevicePoint, _ p2: DevicePoint, _ p3: DevicePoint,
                             t: Double) -> DevicePoint {
        let none = DevicePoint(x: 0, y: 0)
        if t <= 0 {
            return unit(p1.x - p0.x, p1.y - p0.y) ?? unit(p2.x - p0.x, p2.y - p0.y) ?? unit(p3.x - p0.x, p3.y - p0.y) ?? none
        }
        if t >= 1 {
            return unit(p3.x - p2.x, p3.y - p2.y) ?? unit(p3.x - p1.x, p3.y - p1.y) ?? unit(p3.x - p0.x, p3.y - p0.y) ?? none
        }
        let u = 1 - t
        let a = u * u, b = 2 * u * t, c = t * t
        return unit(a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
                    a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y)) ?? none
    }

    /// (dx, dy) scaled to length 1, or nil when it has no direction (zero, or not finite).
    private static func unit(_ dx: Double, _ dy: Double) -> DevicePoint? {
        let m = max(abs(dx), abs(dy))
        guard m > 0, m.isFinite else { return nil }
        let sx = dx / m, sy = dy / m  // rescaled first: no underflow for tiny control-point offsets
        let len = (sx * sx + sy * sy).squareRoot()
        return DevicePoint(x: sx / len, y: sy / len)
    }

    /// Flattens `path` under `transform` into closed device-space contours (fill semantics: every subpath is
    /// closed). After a `closeSubpath`, a drawing element without a move starts at the closed subpath's
    /// start, as in CoreGraphics.
    package static func fill(_ path: Path, transform t: CGAffineTransform, tolerance: Double = Flatten.tolerance,
                     into polys: inout Polygons) {
        func dev(_ p: CGPoint) -> DevicePoint {
            DevicePoint(x: Double(t.a * p.x + t.c * p.y + t.tx), y: Double(t.b * p.x + t.d * p.y + t.ty))
        }
        var current = DevicePoint(x: 0, y: 0)
        var start = current
        var open = false  // a contour has been begun and not yet closed
        func ensureContour() {
            if !open {
                polys.beginContour()
                polys.append(start)
                current = start
                open = true
            }
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                start = dev(p)
                current = start
                open = false
            case .line(let p):
                ensureContour()
                current = dev(p)
                polys.append(current)
            case .quadCurve(let p, let c):
                ensureContour()
                let p2 = dev(p)
                quad(current, dev(c), p2, tolerance: tolerance) { p, _ in polys.append(p) }
                current = p2
            case .curve(let p, let c1, let c2):
                ensureContour()
                let p3 = dev(p)
                cubic(current, dev(c1), dev(c2), p3, tolerance: tolerance) { p, _ in polys.append(p) }
                current = p3
            case .closeSubpath:
                open = false
                current = start
            }
        }
    }

    package static func fill(_ path: Path, transform: CGAffineTransform, tolerance: Double = Flatten.tolerance) -> Polygons {
        var p = Polygons()
        fill(path, transform: transform, tolerance: tolerance, into: &p)
        return p
    }
}
