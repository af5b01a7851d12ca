import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `boundingRect`, `contains`, `isEmpty`, `currentPoint`, `forEach`, `applying`, `offsetBy` and the builders.
final class PathQueryTests: XCTestCase {
    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    // MARK: boundingRect

    func testCubicBoundsUseExtremaNotControlPoints() {
        // x(t) = −150(1−t)²t + 450(1−t)t² + 100t³; y(t) = 300t(1−t).
        let path = Path { $0.move(to: .zero)
            $0.addCurve(to: p(100, 0), control1: p(-50, 100), control2: p(150, 100)) }
        // x′(t)/3 = −500t² + 500t − 50 = 0  ⇔  t² − t + 0.1 = 0  ⇔  t = (1 ∓ √0.6)/2.
        func x(_ t: Double) -> Double { -150 * (1 - t) * (1 - t) * t + 450 * (1 - t) * t * t + 100 * t * t * t }
        let t1 = (1 - 0.6.squareRoot()) / 2, t2 = (1 + 0.6.squareRoot()) / 2
        let minX = x(t1), maxX = x(t2)
        XCTAssertLessThan(minX, 0)
        XCTAssertGreaterThan(maxX, 100)
        // y peaks at t = 1/2: 75, well below the control points' 100.
        assertRect(path.boundingRect, CGRect(x: minX, y: 0, width: maxX - minX, height: 75))
        // Rotating the curve 90° swaps the roles of x and y.
        let turned = path.applying(CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        assertRect(turned.boundingRect, CGRect(x: -75, y: minX, width: 75, height: maxX - minX))
    }

    func testQuadBoundsAndOtherCases() {
        let quad = Path { $0.move(to: .zero); $0.addQuadCurve(to: p(100, 0), control: p(50, 100)) }
        assertRect(quad.boundingRect, CGRect(x: 0, y: 0, width: 100, height: 50))   // peak 50, control 100
        let r = CGRect(x: -3, y: 7, width: 40, height: 22)
        assertRect(Path(ellipseIn: r).boundingRect, r)
        assertRect(Path(r).boundingRect, r)
        XCTAssertTrue(Path().boundingRect.isNull)
        XCTAssertEqual(Path { $0.move(to: p(4, 5)) }.boundingRect, CGRect(x: 4, y: 5, width: 0, height: 0))
        // A cubic that is monotonic in both axes: its ends bound it.
        let mono = Path { $0.move(to: .zero); $0.addCurve(to: p(30, 30), control1: p(10, 1), control2: p(29, 20)) }
        assertRect(mono.boundingRect, CGRect(x: 0, y: 0, width: 30, height: 30))
        // A degenerate cubic whose x-derivative polynomial has a = 0 (x is quadratic in t).
        let degenerate = Path { $0.move(to: .zero); $0.addCurve(to: p(0, 30), control1: p(30, 10), control2: p(30, 20)) }
        // x(t) = 90(1−t)t: maximum 22.5 at t = 1/2.
        assertRect(degenerate.boundingRect, CGRect(x: 0, y: 0, width: 22.5, height: 30))
    }

    // MARK: contains

    /// A five-pointed star drawn as one self-intersecting polygon (every second vertex of a pentagon).
    private func star(center c: CGPoint, radius r: CGFloat) -> Path {
        Path { path in
            for i in 0 ..< 5 {
                let a = -Double.pi / 2 + Double(i * 2) * 2 * .pi / 5
                let q = CGPoint(x: c.x + r * CGFloat(cos(a)), y: c.y + r * CGFloat(sin(a)))
                if i == 0 { path.move(to: q) } else { path.addLine(to: q) }
            }
            path.closeSubpath()
        }
    }

    func testSelfIntersectingStar() {
        let s = star(center: p(100, 100), radius: 50)
        // The central pentagon has winding 2: inside for non-zero, outside for even-odd.
        XCTAssertTrue(s.contains(p(100, 100)))
        XCTAssertFalse(s.contains(p(100, 100), eoFill: true))
        XCTAssertTrue(s.contains(p(100, 110)))
        XCTAssertFalse(s.contains(p(100, 110), eoFill: true))
        // A point in the top tip has winding 1: inside either way.
        XCTAssertTrue(s.contains(p(100, 60)))
        XCTAssertTrue(s.contains(p(100, 60), eoFill: true))
        // Between two tips, and far away: outside either way.
        let between = CGPoint(x: 100 + 45 * CGFloat(cos(-Double.pi / 2 + .pi / 5)),
                              y: 100 + 45 * CGFloat(sin(-Double.pi / 2 + .pi / 5)))
        XCTAssertFalse(s.contains(between))
        XCTAssertFalse(s.contains(between, eoFill: true))
        XCTAssertFalse(s.contains(p(0, 0)))
        XCTAssertFalse(s.contains(p(300, 100)))
    }

    func testRingOfTwoCircles() {
        let c = p(50, 50)
        let outer = Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        // Opposite winding: the inner circle is drawn with a decreasing angle.
        var opposite = outer
        opposite.addArc(center: c, radius: 20, startAngle: .zero, endAngle: .degrees(-360), clockwise: true)
        opposite.closeSubpath()
        // Same winding: the inner circle drawn like the outer one.
        var same = outer
        same.addEllipse(in: CGRect(x: 30, y: 30, width: 40, height: 40))

        for eo in [false, true] {
            XCTAssertFalse(opposite.contains(c, eoFill: eo))          // the hole, winding 0
            XCTAssertTrue(opposite.contains(p(50, 15), eoFill: eo))   // in the band
            XCTAssertTrue(same.contains(p(85, 50), eoFill: eo))
            XCTAssertFalse(same.contains(p(150, 50), eoFill: eo))     // outside
            XCTAssertFalse(opposite.contains(p(-1, 50), eoFill: eo))
        }
        XCTAssertTrue(same.contains(c))                  // winding 2
        XCTAssertFalse(same.contains(c, eoFill: true))

        // Both sides of the curved outer edge and of the inner edge, well clear of the cubic error.
        // Probes near a curved edge stay ten times the κ circle's radial error away from the true circle.
        let margin = 10 * 50 * GeometryTolerance.quarterCubicRadialError
        for angle in stride(from: 0.0, to: 360.0, by: 7.5) {
            let a = angle * .pi / 180
            func at(_ radius: CGFloat) -> CGPoint { p(50 + radius * CGFloat(cos(a)), 50 + radius * CGFloat(sin(a))) }
            XCTAssertTrue(opposite.contains(at(50 - margin)), "\(angle)° just inside the outer edge")
            XCTAssertFalse(opposite.contains(at(50 + margin)), "\(angle)° just outside the outer edge")
            XCTAssertTrue(opposite.contains(at(20 + margin)), "\(angle)° just outside the hole")
            XCTAssertFalse(opposite.contains(at(20 - margin)), "\(angle)° just inside the hole")
        }
    }

    func testContainsEdgeCases() {
        // Open subpaths are closed implicitly, as for filling.
        let open = Path { $0.move(to: .zero); $0.addLine(to: p(10, 0)); $0.addLine(to: p(0, 10)) }
        XCTAssertTrue(open.contains(p(2, 2)))
        XCTAssertFalse(open.contains(p(8, 8)))
        // A quadratic bump: inside under the curve, outside above its peak.
        let bump = Path { $0.move(to: .zero); $0.addQuadCurve(to: p(100, 0), control: p(50, 100)); $0.closeSubpath() }
        XCTAssertTrue(bump.contains(p(50, 49)))
        XCTAssertFalse(bump.contains(p(50, 51)))
        // A ray through a vertex counts once.
        let diamond = Path { $0.addLines([p(0, 10), p(10, 0), p(20, 10), p(10, 20)]); $0.closeSubpath() }
        XCTAssertTrue(diamond.contains(p(5, 10)))
        XCTAssertFalse(diamond.contains(p(-5, 10)))
        XCTAssertFalse(diamond.contains(p(25, 10)))
        // Lines, empty paths and NaN.
        XCTAssertFalse(Path { $0.move(to: .zero); $0.addLine(to: p(10, 10)) }.contains(p(5, 5.0001)))
        XCTAssertFalse(Path().contains(.zero))
        XCTAssertFalse(Path(CGRect(x: 0, y: 0, width: 10, height: 10)).contains(p(.nan, 5)))
        XCTAssertTrue(Path(CGRect(x: 0, y: 0, width: 10, height: 10)).contains(p(5, 5)))
    }

    // MARK: Elements and transforms

    func testElementAccessors() {
        XCTAssertTrue(Path().isEmpty)
        XCTAssertNil(Path().currentPoint)
        XCTAssertFalse(Path { $0.move(to: .zero) }.isEmpty)

        var path = Path()
        path.move(to: p(1, 1))
        XCTAssertEqual(path.currentPoint, p(1, 1))
        path.addLine(to: p(5, 1))
        path.addQuadCurve(to: p(5, 5), control: p(7, 3))
        path.addCurve(to: p(1, 5), control1: p(4, 7), control2: p(2, 7))
        XCTAssertEqual(path.currentPoint, p(1, 5))
        path.closeSubpath()
        XCTAssertEqual(path.currentPoint, p(1, 1))                // a close returns to the subpath's start
        path.closeSubpath()                                       // a second close adds nothing
        var seen: [Path.Element] = []
        path.forEach { seen.append($0) }
        XCTAssertEqual(seen, [.move(to: p(1, 1)), .line(to: p(5, 1)), .quadCurve(to: p(5, 5), control: p(7, 3)),
                              .curve(to: p(1, 5), control1: p(4, 7), control2: p(2, 7)), .closeSubpath])
        path.addLine(to: p(9, 9))                                 // continues from (1, 1)
        XCTAssertEqual(path.contours.last?.segments.first, .line(p(1, 1), p(9, 9)))
    }

    func testBuildersOnAnEmptyPathStartASubpath() {
        XCTAssertEqual(Path { $0.addLine(to: p(3, 4)) }.elements, [.move(to: p(3, 4))])
        XCTAssertEqual(Path { $0.addQuadCurve(to: p(3, 4), control: p(9, 9)) }.elements, [.move(to: p(3, 4))])
        XCTAssertEqual(Path { $0.addCurve(to: p(3, 4), control1: p(9, 9), control2: p(8, 8)) }.elements, [.move(to: p(3, 4))])
        XCTAssertTrue(Path { $0.closeSubpath() }.isEmpty)
        XCTAssertTrue(Path { $0.addLines([]) }.isEmpty)
        XCTAssertEqual(Path { $0.addLines([p(1, 2)]) }.elements, [.move(to: p(1, 2))])
    }

    func testTransforms() {
        let base = Path { $0.move(to: p(1, 2)); $0.addQuadCurve(to: p(3, 4), control: p(5, 6))
            $0.addCurve(to: p(7, 8), control1: p(9, 10), control2: p(11, 12)); $0.closeSubpath() }
        let scaled = base.applying(CGAffineTransform(scaleX: 2, y: -1))
        XCTAssertEqual(scaled.elements, [.move(to: p(2, -2)), .quadCurve(to: p(6, -4), control: p(10, -6)),
                                         .curve(to: p(14, -8), control1: p(18, -10), control2: p(22, -12)), .closeSubpath])
        XCTAssertEqual(base.offsetBy(dx: 10, dy: -1), base.applying(CGAffineTransform(translationX: 10, y: -1)))
        XCTAssertEqual(base.offsetBy(dx: 10, dy: -1).currentPoint, p(11, 1))
        XCTAssertEqual(base.applying(.identity), base)

        var combined = Path(CGRect(x: 0, y: 0, width: 1, height: 1))
        combined.addPath(base, transform: CGAffineTransform(translationX: 100, y: 0))
        XCTAssertEqual(combined.elements.count, 5 + 4)
        XCTAssertEqual(combined.elements[5], .move(to: p(101, 2)))

        var rects = Path()
        rects.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1)],
                       transform: CGAffineTransform(scaleX: 10, y: 10))
        assertRect(rects.boundingRect, CGRect(x: 0, y: 0, width: 30, height: 30))
        XCTAssertEqual(Path(CGRect(x: 0, y: 0, width: 1, height: 1)).applying(CGAffineTransform(rotationAngle: .pi / 2))
                        .elements[1].points[0].y, 1, accuracy: GeometryTolerance.arithmetic)
    }
}
