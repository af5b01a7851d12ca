import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Geometry helpers shared by the stroke, dash and strokedPath tests.
enum StrokeTestGeometry {
    /// Exact-arithmetic comparisons: polygon areas of coordinates ≤ 10³ computed in doubles carry ~10⁻¹²
    /// rounding; 10⁻⁹ leaves room for that and nothing else.
    static let exact = 1e-9
    /// The stroker flattens round joins/caps with chord sagitta ≤ half the device tolerance (the other half is
    /// for the centreline). An inscribed arc of length ℓ then loses at most ℓ·sagitta of area.
    static let arcSagitta = Flatten.tolerance / 2
    /// Relative radial error of the 4-cubic κ circle (`Path(ellipseIn:)`): it lies between R and R·(1 + 2.73e−4),
    /// so its length lies between 2πR and 2πR·(1 + 2.8e−4).
    static let kappaCircleRelativeError = Double(GeometryTolerance.quarterCubicRadialError)

    /// Shoelace signed area of one contour.
    static func signedArea(_ p: Polygons, contour c: Int) -> Double {
        let r = p.contourRange(c)
        guard r.count >= 3 else { return 0 }
        var s = 0.0
        var prev = p.points[r.upperBound - 1]
        for i in r {
            let q = p.points[i]
            s += prev.x * q.y - q.x * prev.y
            prev = q
        }
        return s / 2
    }

    /// Sum of the contours' signed areas. Every stroke contour runs in the same sense, so for an outline with no
    /// self-overlap |sum| is the stroke's area (an overlap would be counted twice).
    static func signedArea(_ p: Polygons) -> Double {
        (0 ..< p.contourCount).reduce(0) { $0 + signedArea(p, contour: $1) }
    }

    static func area(_ p: Polygons) -> Double { abs(signedArea(p)) }

    /// Winding number of the outline around (x, y).
    static func winding(_ p: Polygons, _ x: Double, _ y: Double) -> Int {
        var w = 0
        for c in 0 ..< p.contourCount {
            let r = p.contourRange(c)
            guard r.count >= 2 else { continue }
            var a = p.points[r.upperBound - 1]
            for i in r {
                let b = p.points[i]
                let side = (b.x - a.x) * (y - a.y) - (x - a.x) * (b.y - a.y)
                if a.y <= y, b.y > y, side > 0 { w += 1 }
                if a.y > y, b.y <= y, side < 0 { w -= 1 }
                a = b
            }
        }
        return w
    }

    static func polyline(_ pts: [(Double, Double)], closed: Bool = false) -> Path {
        var p = Path()
        p.addLines(pts.map { CGPoint(x: $0.0, y: $0.1) })
        if closed { p.closeSubpath() }
        return p
    }

    static func line(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Path {
        polyline([(x0, y0), (x1, y1)])
    }

    static func outline(_ path: Path, _ style: StrokeStyle, _ t: CGAffineTransform = .identity,
                        tolerance: Double = Flatten.tolerance) -> Polygons {
        do {
            return try Stroker.outline(path, style: style, transform: t, tolerance: tolerance)
        } catch {
            XCTFail("\(error)")
            return Polygons()
        }
    }

    /// Distance from (x, y) to segment a–b.
    static func distance(_ x: Double, _ y: Double, _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let t = max(0, min(1, ((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)))
        let px = a.0 + t * dx - x, py = a.1 + t * dy - y
        return (px * px + py * py).squareRoot()
    }
}

final class StrokeTests: XCTestCase {
    /// A transform's extreme stretch factors (the pen's widest and narrowest device width): scale (3, 0.5)
    /// then a 30° rotation stretches by 3 at most and 0.5 at least; a singular transform squeezes to 0.
    func testTransformScaleExtremes() {
        let t = CGAffineTransform(scaleX: 3, y: 0.5).concatenating(CGAffineTransform(rotationAngle: .pi / 6))
        XCTAssertEqual(Double(t.maxScale), 3, accuracy: GeometryTolerance.arithmetic)
        XCTAssertEqual(Double(t.minScale), 0.5, accuracy: GeometryTolerance.arithmetic)
        XCTAssertEqual(CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 0, ty: 0).minScale, 0)
    }

    typealias G = StrokeTestGeometry

    // MARK: Caps on a straight segment

    func testButtSegmentAreaIsWidthTimesLength() {
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 4))
        XCTAssertEqual(o.contourCount, 1)
        XCTAssertEqual(G.area(o), 400, accuracy: G.exact)
        XCTAssertEqual(o.minX, 0); XCTAssertEqual(o.maxX, 100)
        XCTAssertEqual(o.minY, -2); XCTAssertEqual(o.maxY, 2)
    }

    func testSquareCapAddsWSquared() {
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 4, lineCap: .square))
        XCTAssertEqual(G.area(o), 400 + 16, accuracy: G.exact)
        XCTAssertEqual(o.minX, -2); XCTAssertEqual(o.maxX, 102)
    }

    func testRoundCapAddsCircleWithinFlatteningBound() {
        let r = 2.0
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 2 * r, lineCap: .round))
        let exactArea = 100 * 2 * r + Double.pi * r * r
        // Inscribed chords: never more than the exact area, at most (circumference × sagitta) less.
        let bound = 2 * Double.pi * r * G.arcSagitta
        let a = G.area(o)
        XCTAssertLessThanOrEqual(a, exactArea + G.exact)
        XCTAssertGreaterThanOrEqual(a, exactArea - bound)
        XCTAssertEqual(o.contourCount, 1)
    }

    func testRoundCapChordsStayWithinDeviceToleranceUnderScale() {
        // A 1-unit pen under ×100: the caps are a radius-50 device circle, cut so that each chord's sagitta is
        // ≤ half the device tolerance even though they were computed in user space.
        let o = G.outline(G.line(0, 0, 1, 0), StrokeStyle(lineWidth: 1, lineCap: .round),
                          CGAffineTransform(scaleX: 100, y: 100))
        let r = 50.0
        var capPoints: [(Double, Double)] = []
        for p in o.points where p.x > 100 { capPoints.append((p.x - 100, p.y)) }
        XCTAssertGreaterThan(capPoints.count, 10)
        for p in capPoints { XCTAssertEqual((p.0 * p.0 + p.1 * p.1).squareRoot(), r, accuracy: 1e-9) }
        let pts = [(0.0, r)] + capPoints + [(0.0, -r)]
        for i in 1 ..< pts.count {
            let chord = ((pts[i].0 - pts[i - 1].0) * (pts[i].0 - pts[i - 1].0)
                + (pts[i].1 - pts[i - 1].1) * (pts[i].1 - pts[i - 1].1)).squareRoot()
            let sagitta = r - (r * r - chord * chord / 4).squareRoot()
            XCTAssertLessThanOrEqual(sagitta, G.arcSagitta + 1e-12)
        }
    }

    // MARK: Closed subpaths and joins

    func testClosedRectangleIsOuterMinusInnerForEachJoin() {
        let rect = Path(CGRect(x: 0, y: 0, width: 100, height: 50))
        let h = 3.0
        let miter = G.outline(rect, StrokeStyle(lineWidth: 2 * h, lineJoin: .miter))
        XCTAssertEqual(miter.contourCount, 2)
        XCTAssertEqual(G.area(miter), 106 * 56 - 94 * 44, accuracy: G.exact)
        XCTAssertEqual(miter.minX, -3); XCTAssertEqual(miter.maxY, 53)
        // Bevel: each outer corner loses the miter triangle h²/2.
        let bevel = G.outline(rect, StrokeStyle(lineWidth: 2 * h, lineJoin: .bevel))
        XCTAssertEqual(G.area(bevel), 1800 - 4 * h * h / 2, accuracy: G.exact)
        // Round: each outer corner is a quarter disc instead of an h×h square.
        let round = G.outline(rect, StrokeStyle(lineWidth: 2 * h, lineJoin: .round))
        let exactRound = 1800 - 4 * (h * h - Double.pi * h * h / 4)
        let bound = 2 * Double.pi * h * G.arcSagitta
        XCTAssertLessThanOrEqual(G.area(round), exactRound + G.exact)
        XCTAssertGreaterThanOrEqual(G.area(round), exactRound - bound)
    }

    func testClosedSubpathHasNoCaps() {
        // Square caps would add area at the start if the closed rectangle were treated as open.
        let rect = Path(CGRect(x: 0, y: 0, width: 100, height: 50))
        let plain = G.outline(rect, StrokeStyle(lineWidth: 6))
        let capped = G.outline(rect, StrokeStyle(lineWidth: 6, lineCap: .square))
        XCTAssertEqual(plain.points, capped.points)
        XCTAssertEqual(G.area(capped), 1800, accuracy: G.exact)
    }

    func testMiterMinusBevelAtRightAngleIsTheMiterTriangle() {
        let l = G.polyline([(0, 0), (100, 0), (100, 100)])
        let h = 3.0
        let miter = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .miter))
        let bevel = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .bevel))
        // The inner corner turns where the inner edges cross, so the overlap of the two segments' rectangles
        // is not counted twice: the miter area is exactly w·(L1 + L2).
        XCTAssertEqual(G.area(miter), 2 * h * 200, accuracy: G.exact)
        XCTAssertEqual(G.area(miter) - G.area(bevel), h * h / 2, accuracy: G.exact)
        XCTAssertEqual(miter.maxX, 103); XCTAssertEqual(miter.minY, -3)
        let round = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .round))
        let exactRound = 2 * h * 200 - h * h + Double.pi * h * h / 4
        XCTAssertLessThanOrEqual(G.area(round), exactRound + G.exact)
        XCTAssertGreaterThanOrEqual(G.area(round), exactRound - Double.pi / 2 * h * G.arcSagitta)
    }

    func testMiterLimitSwitchesToBevelAtTheDocumentedRatio() {
        // Segments meeting at θ = 60°: miter length / line width = 1 / sin(θ/2) = 2.
        let l = G.polyline([(0, 0), (100, 0), (50, 50 * 3.0.squareRoot())])
        let h = 2.0
        let above = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .miter, miterLimit: 2.01))
        let below = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .miter, miterLimit: 1.99))
        let bevel = G.outline(l, StrokeStyle(lineWidth: 2 * h, lineJoin: .bevel))
        XCTAssertEqual(below.points, bevel.points)
        // Miter triangle for a turn φ = 120°: h²·(tan(φ/2) − sin(φ)/2) = (3/4)·√3·h².
        XCTAssertEqual(G.area(above) - G.area(below), 0.75 * 3.0.squareRoot() * h * h, accuracy: G.exact)
        // The tip is 1/sin(30°) = 2 half-widths from the vertex; a bevel stays within one. Only the outer side
        // (along the outer bisector (√3/2, −1/2) from the vertex (100, 0)) is measured: the inner edges cross
        // 2h from the vertex too, on the other side.
        func farthest(_ o: Polygons) -> Double {
            o.points.filter { ($0.x - 100) * 0.75.squareRoot() - $0.y * 0.5 > 0 }
                .map { (($0.x - 100) * ($0.x - 100) + $0.y * $0.y).squareRoot() }.max()!
        }
        XCTAssertEqual(farthest(above), 2 * h, accuracy: G.exact)
        XCTAssertEqual(farthest(below), h, accuracy: G.exact)
        // A limit below 1 or NaN never miters.
        for limit in [0.5, CGFloat.nan] {
            XCTAssertEqual(G.outline(l, StrokeStyle(lineWidth: 2 * h, miterLimit: limit)).points, bevel.points)
        }
    }

    func testZeroLengthSegmentsAreSkippedForJoins() {
        let clean = G.polyline([(0, 0), (100, 0), (100, 100)])
        let dup = G.polyline([(0, 0), (0, 0), (100, 0), (100, 0), (100, 100), (100, 100)])
        for join in CGLineJoin.allCases {
            let s = StrokeStyle(lineWidth: 6, lineCap: .square, lineJoin: join)
            XCTAssertEqual(G.outline(dup, s).points, G.outline(clean, s).points, "\(join)")
        }
    }

    // MARK: Curve ends use the curve's tangent, not the last chord

    /// A quarter circle (one cubic) from (50, 0) to (0, 50) around the origin ends going in −x at (0, 50), so
    /// its butt cap is the segment x = 0 from y = 40 to 60 (half-width 10). The last chord of the flattened
    /// arc is off that tangent by ~√(2·0.025/50) ≈ 0.03 rad, which put the cap corners ~0.3 units off.
    func testButtCapsOfACurveArePerpendicularToItsEndTangents() {
        var p = Path()
        p.move(to: CGPoint(x: 50, y: 0))
        let k = 50 * 0.5522847498
        p.addCurve(to: CGPoint(x: 0, y: 50), control1: CGPoint(x: 50, y: k), control2: CGPoint(x: k, y: 50))
        let o = G.outline(p, StrokeStyle(lineWidth: 20))
        XCTAssertEqual(o.contourCount, 1)
        func has(_ x: Double, _ y: Double) -> Bool {
            o.points.contains { abs($0.x - x) < G.exact && abs($0.y - y) < G.exact }
        }
        // End cap corners (0, 60), (0, 40); start cap corners (40, 0), (60, 0): the tangents there are exact.
        for (x, y) in [(0.0, 60.0), (0.0, 40.0), (40.0, 0.0), (60.0, 0.0)] {
            XCTAssertTrue(has(x, y), "cap corner (\(x), \(y)) missing")
        }
    }

    /// Two curves meet at (100, 0) with end tangents 29° apart as the curves go (miter ratio
    /// 1/sin(14.5°) ≈ 3.99, under the limit 4): a miter, with its tip exactly where the tangents put it. Their
    /// last and first chords turn a little further (ratio above 4), which used to bevel this corner.
    func testMiterAtACurveCornerUsesTheTangents() {
        let theta = 29.0 * Double.pi / 180  // angle between the two segments at the corner
        // Arriving along +x; leaving towards (−cos θ, sin θ), i.e. turning back by π − θ.
        var p = Path()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 30, y: 60), control2: CGPoint(x: 70, y: 0))
        let bx = -cos(theta), by = sin(theta)
        p.addCurve(to: CGPoint(x: 100 + 100 * bx - 40, y: 100 * by),
                   control1: CGPoint(x: 100 + 30 * bx, y: 30 * by), control2: CGPoint(x: 60, y: 100))
        let h = 6.0
        let style = StrokeStyle(lineWidth: 2 * h, lineCap: .butt, lineJoin: .miter, miterLimit: 4)
        let o = G.outline(p, style)
        // The outer side of the turn is below the x axis here (the path turns left, towards +y):
        // tip = v + h·(n1 + n2)/(1 + a·b) with n = the direction turned −90° on the outer side.
        let ax = 1.0, ay = 0.0
        let dot = ax * bx + ay * by
        let n1 = (ay, -ax), n2 = (by, -bx)
        let tip = (100 + h * (n1.0 + n2.0) / (1 + dot), h * (n1.1 + n2.1) / (1 + dot))
        XCTAssertLessThan(1 / sin(theta / 2), 4)
        XCTAssertTrue(o.points.contains { abs($0.x - tip.0) < 1e-6 && abs($0.y - tip.1) < 1e-6 },
                      "miter tip \(tip) missing")
    }

    /// Dashes that start inside a curve get caps across the curve there: on a circle each butt cap must lie
    /// along the radius through its midpoint. The chord a cut falls on is off the circle's tangent by up to
    /// √(2·sagitta/R) ≈ 0.03 rad for R = 50; the tangents of the chord's ends, blended, are off the κ curve's
    /// by about the square of that (1e−3), and the κ curve's own tangent is off the circle's by up to
    /// 1.26e−3 rad (computed from its control points). 1.5e−3 allows both and is 20× below the chords' error.
    func testDashCapsInsideACurveAreCutAcrossTheCurve() {
        let circle = Path(ellipseIn: CGRect(x: -50, y: -50, width: 100, height: 100))
        let o = G.outline(circle, StrokeStyle(lineWidth: 20, dash: [7, 3]))
        XCTAssertEqual(o.contourCount, 32)  // 2π·50 / 10 ≈ 31.4 dashes
        let capAngleTolerance = 1.5e-3
        var worst = 0.0
        for c in 0 ..< o.contourCount {
            // A butt-capped dash contour starts and ends on its start cap's two corners.
            let r = o.contourRange(c)
            let a = o.points[r.lowerBound], b = o.points[r.upperBound - 1]
            let dx = b.x - a.x, dy = b.y - a.y
            let len = (dx * dx + dy * dy).squareRoot()
            XCTAssertEqual(len, 20, accuracy: 1e-9)
            let mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2
            let m = (mx * mx + my * my).squareRoot()
            worst = max(worst, abs(dx / len * my / m - dy / len * mx / m))  // sin of the angle to the radius
        }
        XCTAssertLessThan(worst, capAngleTolerance)
    }

    func testCurveInteriorIsSmoothWhateverTheJoinStyle() {
        var p = Path()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 80))
        let miter = G.outline(p, StrokeStyle(lineWidth: 8, lineJoin: .miter))
        let bevel = G.outline(p, StrokeStyle(lineWidth: 8, lineJoin: .bevel))
        let round = G.outline(p, StrokeStyle(lineWidth: 8, lineJoin: .round))
        XCTAssertEqual(miter.points, round.points)
        XCTAssertEqual(bevel.points, round.points)
    }

    func testThickCircleStrokeIsAnnulusArea() {
        // Area between the ±h offsets of a convex curve = w × its length. Bound: the outline is within
        // `tolerance` of the exact stroke (area error ≤ tolerance × both edges' lengths) plus the κ circle's
        // length error.
        let r = 50.0, w = 10.0, tol = 1e-3
        let o = G.outline(Path(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r)),
                          StrokeStyle(lineWidth: w), tolerance: tol)
        XCTAssertEqual(o.contourCount, 2)
        let bound = w * 2 * Double.pi * r * G.kappaCircleRelativeError + 2 * Double.pi * (2 * r) * tol
        XCTAssertEqual(G.area(o), 2 * Double.pi * r * w, accuracy: bound)
    }

    func testRoundStrokeCoversExactlyThePointsWithinHalfWidth() {
        // With round joins and caps the stroke of a polyline is {p : dist(p, polyline) ≤ h}. This zigzag has
        // sharp turns, segments shorter than the width and a reversal, so it exercises both inner-join routes.
        let pts: [(Double, Double)] = [(0, 0), (40, 5), (2, 12), (8, 14), (60, 40), (30, 40), (70, 40), (20, 60)]
        let h = 5.0
        let o = G.outline(G.polyline(pts), StrokeStyle(lineWidth: 2 * h, lineCap: .round, lineJoin: .round))
        // Sample points farther than the flattening error (≤ tolerance) from the stroke's edge.
        let margin = Flatten.tolerance
        var checked = 0
        for iy in 0 ... 160 {
            for ix in 0 ... 180 {
                let x = -10 + Double(ix) * 0.5 + 0.123, y = -10 + Double(iy) * 0.5 + 0.0789
                var d = Double.infinity
                for k in 1 ..< pts.count { d = min(d, G.distance(x, y, pts[k - 1], pts[k])) }
                if abs(d - h) < margin { continue }
                checked += 1
                XCTAssertEqual(G.winding(o, x, y) != 0, d < h, "(\(x), \(y)) at distance \(d)")
            }
        }
        XCTAssertGreaterThan(checked, 25000)
    }

    func testWidePenOnTightCircleFillsTheDisc() {
        // h = 8 > R = 5: the hole vanishes; the non-zero region is the disc of radius R + h.
        let o = G.outline(Path(ellipseIn: CGRect(x: -5, y: -5, width: 10, height: 10)), StrokeStyle(lineWidth: 16))
        for (x, y) in [(0.0, 0.0), (2, 1), (-3, 2), (12.9, 0), (0, -12.9), (9, 9)] {
            XCTAssertNotEqual(G.winding(o, x, y), 0, "(\(x), \(y))")
        }
        for (x, y) in [(13.2, 0.0), (0, -13.2), (9.5, 9.5)] { XCTAssertEqual(G.winding(o, x, y), 0) }
    }

    func testAllContoursRunTheSameWaySoOverlapsDoNotCancel() {
        var p = G.line(0, 0, 100, 0)
        p.addPath(G.line(50, -50, 50, 50))
        p.addPath(G.polyline([(50, 0), (50, 0)]))
        p.addPath(Path(CGRect(x: 40, y: -10, width: 20, height: 20)))
        let o = G.outline(p, StrokeStyle(lineWidth: 4, lineCap: .round))
        let areas = (0 ..< o.contourCount).map { G.signedArea(o, contour: $0) }
        XCTAssertEqual(areas.count, 5)
        // Only the rectangle's inner contour (its hole, 16×16) runs the other way.
        let positive = areas.filter { $0 > 0 }
        XCTAssertEqual(positive.count, 1)
        XCTAssertEqual(positive.first ?? 0, 256, accuracy: G.exact)
        XCTAssertNotEqual(G.winding(o, 50, 0), 0)
        XCTAssertNotEqual(G.winding(o, 50, -10), 0)
    }

    // MARK: Dots

    func testZeroLengthSubpathsDrawDots() {
        var moveLine = Path()
        moveLine.move(to: CGPoint(x: 10, y: 20)); moveLine.addLine(to: CGPoint(x: 10, y: 20))
        var moveClose = Path()
        moveClose.move(to: CGPoint(x: 10, y: 20)); moveClose.closeSubpath()
        var curve = Path()
        curve.move(to: CGPoint(x: 10, y: 20))
        curve.addCurve(to: CGPoint(x: 10, y: 20), control1: CGPoint(x: 10, y: 20), control2: CGPoint(x: 10, y: 20))
        var loneMove = Path()
        loneMove.move(to: CGPoint(x: 10, y: 20))
        let r = 2.0
        for p in [moveLine, moveClose, curve] {
            let round = G.outline(p, StrokeStyle(lineWidth: 2 * r, lineCap: .round))
            XCTAssertLessThanOrEqual(G.area(round), Double.pi * r * r + G.exact)
            XCTAssertGreaterThanOrEqual(G.area(round), Double.pi * r * r - 2 * Double.pi * r * G.arcSagitta)
            let square = G.outline(p, StrokeStyle(lineWidth: 2 * r, lineCap: .square))
            XCTAssertEqual(G.area(square), 16, accuracy: G.exact)
            XCTAssertEqual([square.minX, square.minY, square.maxX, square.maxY], [8, 18, 12, 22])
            XCTAssertTrue(G.outline(p, StrokeStyle(lineWidth: 2 * r, lineCap: .butt)).isEmpty)
        }
        XCTAssertTrue(G.outline(loneMove, StrokeStyle(lineWidth: 4, lineCap: .round)).isEmpty)
    }

    func testSquareDotIsAxisAlignedInUserSpace() {
        var p = Path()
        p.move(to: CGPoint(x: 1, y: 1)); p.closeSubpath()
        let t = CGAffineTransform(rotationAngle: .pi / 6).translatedBy(x: 5, y: 0)
        let o = G.outline(p, StrokeStyle(lineWidth: 4, lineCap: .square), t)
        XCTAssertEqual(G.area(o), 16, accuracy: G.exact)
        let inv = t.inverted()
        XCTAssertEqual(o.points.count, 4)
        for q in o.points {
            let u = CGPoint(x: q.x, y: q.y).applying(inv)
            XCTAssertEqual(abs(u.x - 1), 2, accuracy: G.exact)
            XCTAssertEqual(abs(u.y - 1), 2, accuracy: G.exact)
        }
    }

    // MARK: Transforms

    func testNonUniformTransformScalesAreaByDeterminant() {
        let line = G.line(0, 0, 100, 0)
        let rect = Path(CGRect(x: 0, y: 0, width: 100, height: 50))
        let transforms = [CGAffineTransform(scaleX: 3, y: 0.5),
                          CGAffineTransform(a: 2, b: 1, c: -0.5, d: 1.5, tx: 7, ty: -3),
                          CGAffineTransform(a: -1, b: 0.25, c: 0.5, d: 2, tx: 0, ty: 0)]
        for t in transforms {
            let det = abs(Double(t.a * t.d - t.b * t.c))
            XCTAssertEqual(G.area(G.outline(line, StrokeStyle(lineWidth: 4), t)), det * 400, accuracy: 1e-8)
            XCTAssertEqual(G.area(G.outline(rect, StrokeStyle(lineWidth: 6), t)), det * 1800, accuracy: 1e-8)
        }
    }

    func testPenIsRoundInUserSpaceSoEllipticalInDevice() {
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 4, lineCap: .round),
                          CGAffineTransform(scaleX: 1, y: 3))
        // Half-width 2 becomes 6 across the line; the caps reach 2 along it (chords: within tolerance).
        XCTAssertEqual(o.minY, -6, accuracy: G.exact)
        XCTAssertEqual(o.maxY, 6, accuracy: G.exact)
        XCTAssertEqual(o.maxX, 102, accuracy: Flatten.tolerance)
        XCTAssertLessThanOrEqual(o.maxX, 102)
        XCTAssertEqual(o.minX, -2, accuracy: Flatten.tolerance)
    }

    // MARK: Width edge cases

    func testZeroWidthIsAOneDevicePixelHairline() {
        let t = CGAffineTransform(scaleX: 4, y: 4)
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 0), t)
        XCTAssertEqual(G.area(o), 400 * Stroker.hairlineWidth, accuracy: G.exact)
        XCTAssertEqual(o.maxY - o.minY, 1, accuracy: G.exact)
        // Under a non-uniform scale the hairline is still 1 px across, in both directions.
        let v = G.outline(G.line(0, 0, 0, 100), StrokeStyle(lineWidth: 0), CGAffineTransform(scaleX: 10, y: 0.5))
        XCTAssertEqual(v.maxX - v.minX, 1, accuracy: G.exact)
        XCTAssertEqual(G.area(v), 50, accuracy: G.exact)
        // A round hairline dot is a 1 px disc.
        var dot = Path()
        dot.move(to: CGPoint(x: 3, y: 3)); dot.closeSubpath()
        let d = G.outline(dot, StrokeStyle(lineWidth: 0, lineCap: .round), CGAffineTransform(scaleX: 10, y: 10))
        XCTAssertEqual(G.area(d), Double.pi / 4, accuracy: 2 * Double.pi * 0.5 * G.arcSagitta)
    }

    func testNegativeNaNOrInfiniteWidthDrawsNothing() {
        for w in [-1, CGFloat.nan, .infinity, -.infinity] {
            XCTAssertTrue(G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: w)).isEmpty, "\(w)")
        }
    }

    func testVeryThinStrokesKeepExactArea() {
        let w = 0.1
        XCTAssertEqual(G.area(G.outline(G.line(0, 0, 50, 0), StrokeStyle(lineWidth: w))), 5, accuracy: G.exact)
        XCTAssertEqual(G.area(G.outline(Path(CGRect(x: 0, y: 0, width: 100, height: 50)),
                                         StrokeStyle(lineWidth: w))), 30, accuracy: G.exact)
        XCTAssertEqual(G.area(G.outline(G.polyline([(0, 0), (30, 0), (30, 40)]), StrokeStyle(lineWidth: w))),
                       w * 70, accuracy: G.exact)
        // A thin circle: the same annulus bound as the thick one, at a fine tolerance.
        let r = 20.0, tol = 1e-4
        let o = G.outline(Path(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r)),
                          StrokeStyle(lineWidth: w), tolerance: tol)
        let bound = w * 2 * Double.pi * r * G.kappaCircleRelativeError + 2 * Double.pi * (2 * r) * tol
        XCTAssertEqual(G.area(o), 2 * Double.pi * r * w, accuracy: bound)
    }

    // MARK: Bad input

    func testNonFiniteInputDrawsNothing() {
        let s = StrokeStyle(lineWidth: 2, lineCap: .round)
        XCTAssertTrue(G.outline(G.line(0, 0, .nan, 0), s).isEmpty)
        XCTAssertTrue(G.outline(G.line(0, 0, .infinity, 0), s).isEmpty)
        var curve = Path()
        curve.move(to: .zero)
        curve.addCurve(to: CGPoint(x: 1, y: 1), control1: CGPoint(x: CGFloat.nan, y: 0), control2: .zero)
        XCTAssertTrue(G.outline(curve, s).isEmpty)
        let line = G.line(0, 0, 10, 0)
        XCTAssertTrue(G.outline(line, s, CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)).isEmpty)
        XCTAssertTrue(G.outline(line, s, CGAffineTransform(translationX: .infinity, y: 0)).isEmpty)
        XCTAssertTrue(G.outline(line, s, CGAffineTransform(scaleX: 0, y: 0)).isEmpty)
        // Outline points that overflow are dropped with the whole outline.
        XCTAssertTrue(G.outline(G.line(0, 0, 1e300, 0), s, CGAffineTransform(scaleX: 1e10, y: 1e10)).isEmpty)
        // A bad tolerance falls back to the default.
        XCTAssertEqual(G.outline(line, s, tolerance: .nan).points, G.outline(line, s).points)
    }

    func testHugeCoordinatesAndWidthsStayBounded() {
        let s = StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .round)
        var p = Path()
        p.move(to: CGPoint(x: -1e9, y: -1e9))
        p.addCurve(to: CGPoint(x: 1e9, y: 1e9), control1: CGPoint(x: 1e9, y: -1e9), control2: CGPoint(x: -1e9, y: 1e9))
        p.addLine(to: CGPoint(x: 1e9, y: -1e9))
        let o = G.outline(p, s)
        // ≤ 4096 centreline segments per curve, two sides, caps and joins ≤ 4096 chords per turn each.
        XCTAssertLessThan(o.points.count, 2 * (Flatten.maxSegmentsPerCurve + 2) + 4 * Stroker.maxSegmentsPerTurn)
        XCTAssertFalse(o.isEmpty)
        for q in o.points { XCTAssertTrue(q.x.isFinite && q.y.isFinite) }

        let wide = G.outline(G.line(0, 0, 1, 0), StrokeStyle(lineWidth: 1e9, lineCap: .round))
        XCTAssertLessThanOrEqual(wide.points.count, Stroker.maxSegmentsPerTurn + 4)
        XCTAssertEqual(G.area(wide), Double.pi * 0.25e18, accuracy: 1e-5 * Double.pi * 0.25e18)

        let far = G.outline(G.line(1e9, 1e9, 1e9 + 10, 1e9), StrokeStyle(lineWidth: 2),
                            CGAffineTransform(scaleX: 1e3, y: 1e3))
        XCTAssertEqual(far.maxX - far.minX, 1e4, accuracy: 1e-3)
        XCTAssertEqual(far.maxY - far.minY, 2e3, accuracy: 1e-3)
    }

    func testRetracingSubpathsStillCoverTheirSegment() {
        // A closed two-point subpath and an open there-and-back path: every turn is 180°, so one side of each
        // vertex gets the join and the other goes through the vertex. A 180° miter always falls back to a bevel
        // (flat end at the vertex); a round join is a half disc. The open path's two ends (both at (0, 0)) get
        // square caps; the closed one has none.
        let closed = G.polyline([(0, 0), (50, 0)], closed: true)
        let open = G.polyline([(0, 0), (50, 0), (0, 0)])
        let style = { (join: CGLineJoin) in StrokeStyle(lineWidth: 4, lineCap: .square, lineJoin: join) }
        for join in CGLineJoin.allCases {
            for (name, p) in [("closed", closed), ("open", open)] {
                let o = G.outline(p, style(join))
                for (x, y) in [(0.5, 1.9), (25.0, -1.9), (49.5, 0.0), (49.5, 1.9)] {
                    XCTAssertNotEqual(G.winding(o, x, y), 0, "\(name) \(join) (\(x), \(y))")
                }
                for (x, y) in [(25.0, 2.1), (52.1, 0.0), (-2.1, 0.0), (51.9, -1.9)] {
                    XCTAssertEqual(G.winding(o, x, y), 0, "\(name) \(join) (\(x), \(y))")
                }
                // The far end: covered only by a round join's half disc.
                XCTAssertEqual(G.winding(o, 51.9, 0) != 0, join == .round, "\(name) \(join)")
                // The near end: the square caps of the open path, the join of the closed one.
                XCTAssertEqual(G.winding(o, -1.9, 1.9) != 0, name == "open", "\(name) \(join)")
                XCTAssertEqual(G.winding(o, -1.9, 0) != 0, name == "open" || join == .round, "\(name) \(join)")
            }
        }
    }

    func testDeterministicOutput() {
        var p = Path(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 40))
        p.addPath(G.polyline([(0, 0), (30, 50), (60, 0)]))
        let s = StrokeStyle(lineWidth: 5, lineCap: .round, lineJoin: .round, dash: [7, 3], dashPhase: 1)
        let t = CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 1.5, y: 0.7)
        XCTAssertEqual(G.outline(p, s, t).points, G.outline(p, s, t).points)
    }
}
