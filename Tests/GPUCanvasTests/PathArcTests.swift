import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `addArc(center:…)`, `addRelativeArc` and `addArc(tangent1End:…)`, in SwiftUI's flipped (y-down) space.
final class PathArcTests: XCTestCase {
    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// Asserts that `e` is a line to `q` (to arithmetic precision).
    private func assertLine(_ e: Path.Element?, _ q: CGPoint, file: StaticString = #filePath, line: UInt = #line) {
        guard case .line(let to)? = e else { return XCTFail("\(String(describing: e)) is not a line", file: file, line: line) }
        assertClose(to, q, file: file, line: line)
    }

    private func samples(_ path: Path, perSegment n: Int = 200) -> [CGPoint] {
        var out: [CGPoint] = []
        for c in path.contours {
            out.append(c.start)
            for s in c.segments { for i in 1 ... n { out.append(s.point(at: CGFloat(i) / CGFloat(n))) } }
        }
        return out
    }

    /// Distance from `q` to the nearest sampled point of the path.
    private func distance(_ q: CGPoint, to path: Path) -> CGFloat {
        samples(path, perSegment: 2000).map { hypot($0.x - q.x, $0.y - q.y) }.min()!
    }

    private func cubicCount(_ path: Path) -> Int {
        path.elements.filter { if case .curve = $0 { return true } else { return false } }.count
    }

    private let c = CGPoint(x: 50, y: 40)
    private let r: CGFloat = 20
    private func onCircle(_ degrees: Double) -> CGPoint {
        let a = degrees * .pi / 180
        return CGPoint(x: c.x + r * CGFloat(cos(a)), y: c.y + r * CGFloat(sin(a)))
    }
    /// The sampling in `distance(_:to:)` (2000 steps per ≤ 90° cubic) leaves at most ~0.02 of a unit
    /// between samples; plus the cubic's own radial error.
    private var onPathTolerance: CGFloat { 0.02 + r * GeometryTolerance.quarterCubicRadialError }

    func testCounterClockwiseFlagIncreasesTheAngleBelowTheCentre() {
        let path = Path { $0.addArc(center: c, radius: r, startAngle: .zero, endAngle: .degrees(90), clockwise: false) }
        assertClose(path.elements.first.flatMap { if case .move(let q) = $0 { return q } else { return nil } }, onCircle(0))
        assertClose(path.currentPoint, p(50, 60))                        // (cx, cy + r): below the centre
        XCTAssertEqual(cubicCount(path), 1)
        // It passes through (cx + r·cos45°, cy + r·sin45°), below the centre on a y-down screen…
        XCTAssertLessThan(distance(onCircle(45), to: path), onPathTolerance)
        // …and not through the mirrored point above the centre.
        XCTAssertGreaterThan(distance(onCircle(-45), to: path), r / 2)
        for q in samples(path) { XCTAssertEqual(hypot(q.x - c.x, q.y - c.y), r, accuracy: r * GeometryTolerance.quarterCubicRadialError) }
    }

    func testClockwiseFlagDecreasesTheAngle() {
        let path = Path { $0.addArc(center: c, radius: r, startAngle: .zero, endAngle: .degrees(90), clockwise: true) }
        assertClose(path.currentPoint, p(50, 60))
        XCTAssertEqual(cubicCount(path), 3)                              // the long way: 270°
        XCTAssertLessThan(distance(onCircle(-45), to: path), onPathTolerance)   // above the centre
        XCTAssertLessThan(distance(onCircle(180), to: path), onPathTolerance)
        XCTAssertGreaterThan(distance(onCircle(45), to: path), r / 4)
    }

    func testSweepNormalisation() {
        func arc(_ s: Double, _ e: Double, _ cw: Bool) -> Path {
            Path { $0.addArc(center: c, radius: r, startAngle: .degrees(s), endAngle: .degrees(e), clockwise: cw) }
        }
        // A full turn in the requested direction: 4 cubics, ending where it started.
        let full = arc(0, 360, false)
        XCTAssertEqual(cubicCount(full), 4)
        assertClose(full.currentPoint, onCircle(0), 1e-12 * r + GeometryTolerance.arithmetic)
        // More than a full turn is one full turn: it ends at the start, not at 540°.
        let over = arc(0, 540, false)
        XCTAssertEqual(cubicCount(over), 4)
        assertClose(over.currentPoint, onCircle(0))
        XCTAssertEqual(cubicCount(arc(0, -720, true)), 4)
        // In the other direction, angles are reduced modulo 360°: −90° with clockwise false is +270°.
        let wrapped = arc(0, -90, false)
        XCTAssertEqual(cubicCount(wrapped), 3)
        assertClose(wrapped.currentPoint, onCircle(270))
        XCTAssertLessThan(distance(onCircle(90), to: wrapped), onPathTolerance)
        // Equal angles, or a whole turn the other way, add only the start point.
        XCTAssertEqual(arc(30, 30, false).elements.count, 1)
        XCTAssertEqual(arc(0, -360, false).elements.count, 1)
        XCTAssertEqual(arc(0, 360, true).elements.count, 1)
        // 450° clockwise-false from 0: a full turn (4 cubics).
        XCTAssertEqual(cubicCount(arc(0, 450, false)), 4)
        // 100° → 10° with clockwise true: the angle decreases by 90°, one cubic through 55°.
        let back = arc(100, 10, true)
        XCTAssertEqual(cubicCount(back), 1)
        XCTAssertLessThan(distance(onCircle(55), to: back), onPathTolerance)
    }

    func testConnectingLineAndNewSubpath() {
        var path = Path()
        path.move(to: p(0, 0))
        path.addArc(center: c, radius: r, startAngle: .zero, endAngle: .degrees(90), clockwise: false)
        XCTAssertEqual(path.elements[1], .line(to: onCircle(0)))        // line from the open subpath
        path.closeSubpath()
        path.addArc(center: c, radius: r, startAngle: .degrees(180), endAngle: .degrees(270), clockwise: false)
        guard case .move(let q) = path.elements[path.elements.count - 2] else { return XCTFail("expected a move") }
        assertClose(q, onCircle(180))                                   // after a close: a new subpath
        // An arc starting at the current point adds no zero-length line.
        var cont = Path()
        cont.move(to: onCircle(0))
        cont.addArc(center: c, radius: r, startAngle: .zero, endAngle: .degrees(45), clockwise: false)
        XCTAssertEqual(cont.elements.count, 2)
    }

    func testRelativeArc() {
        let pos = Path { $0.addRelativeArc(center: c, radius: r, startAngle: .degrees(90), delta: .degrees(90)) }
        assertClose(pos.currentPoint, onCircle(180))
        XCTAssertLessThan(distance(onCircle(135), to: pos), onPathTolerance)
        let neg = Path { $0.addRelativeArc(center: c, radius: r, startAngle: .zero, delta: .degrees(-90)) }
        assertClose(neg.currentPoint, onCircle(-90))                    // (cx, cy − r): above the centre
        XCTAssertLessThan(distance(onCircle(-45), to: neg), onPathTolerance)
        // Beyond a full turn: clamped to one.
        let many = Path { $0.addRelativeArc(center: c, radius: r, startAngle: .zero, delta: .degrees(1000)) }
        XCTAssertEqual(cubicCount(many), 4)
        assertClose(many.currentPoint, onCircle(0))
        // Non-finite input adds nothing.
        XCTAssertTrue(Path { $0.addRelativeArc(center: c, radius: r, startAngle: .zero, delta: .radians(.infinity)) }.isEmpty)
    }

    func testArcTransformAndBadInput() {
        let t = CGAffineTransform(translationX: 5, y: -3).scaledBy(x: 2, y: 1)
        var a = Path()
        a.addArc(center: c, radius: r, startAngle: .degrees(10), endAngle: .degrees(200), clockwise: false, transform: t)
        let b = Path { $0.addArc(center: c, radius: r, startAngle: .degrees(10), endAngle: .degrees(200), clockwise: false) }
        XCTAssertEqual(a.elements.count, b.elements.count)
        for (ea, eb) in zip(a.elements, b.applying(t).elements) {
            for (pa, pb) in zip(ea.points, eb.points) { assertClose(pa, pb) }
        }
        for bad in [CGFloat.nan, -1, .infinity] {
            XCTAssertTrue(Path { $0.addArc(center: c, radius: bad, startAngle: .zero, endAngle: .degrees(90), clockwise: false) }.isEmpty)
        }
        XCTAssertTrue(Path { $0.addArc(center: c, radius: r, startAngle: .radians(.nan), endAngle: .zero, clockwise: false) }.isEmpty)
    }

    // MARK: Tangent arcs

    func testTangentArc() {
        var path = Path()
        path.move(to: .zero)
        path.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 4)
        assertLine(path.elements[1], p(6, 0))             // the first tangent point
        assertClose(path.currentPoint, p(10, 4))                        // the second tangent point
        XCTAssertEqual(cubicCount(path), 1)
        // The arc is centred on (6, 4) and passes through its 45° point towards the corner.
        for q in samples(path).filter({ $0.x >= 6 }) {
            XCTAssertEqual(hypot(q.x - 6, q.y - 4), 4, accuracy: 4 * GeometryTolerance.quarterCubicRadialError)
        }
        let mid = CGPoint(x: 6 + 4 * CGFloat(cos(-Double.pi / 4)), y: 4 + 4 * CGFloat(sin(-Double.pi / 4)))
        XCTAssertLessThan(samples(path, perSegment: 4000).map { hypot($0.x - mid.x, $0.y - mid.y) }.min()!,
                          0.01 + 4 * GeometryTolerance.quarterCubicRadialError)

        // Turning the other way (to (10, −10)): the arc centre is (6, −4).
        var other = Path()
        other.move(to: .zero)
        other.addArc(tangent1End: p(10, 0), tangent2End: p(10, -10), radius: 4)
        assertClose(other.currentPoint, p(10, -4))
        for q in samples(other).filter({ $0.x >= 6 }) {
            XCTAssertEqual(hypot(q.x - 6, q.y + 4), 4, accuracy: 4 * GeometryTolerance.quarterCubicRadialError)
        }

        // An obtuse corner: 120° between the lines, tangent distance r / tan(60°).
        var obtuse = Path()
        obtuse.move(to: p(-10, 0))
        let dir = CGPoint(x: cos(Double.pi / 3), y: sin(Double.pi / 3))
        obtuse.addArc(tangent1End: .zero, tangent2End: p(10 * dir.x, 10 * dir.y), radius: 3)
        let d = 3 / CGFloat(tan(Double.pi / 3))
        assertLine(obtuse.elements[1], p(-d, 0))
        assertClose(obtuse.currentPoint, p(d * dir.x, d * dir.y))
    }

    func testTangentArcDegenerateCases() {
        func from(_ start: CGPoint?, _ t1: CGPoint, _ t2: CGPoint, _ radius: CGFloat) -> Path {
            var path = Path()
            if let start { path.move(to: start) }
            path.addArc(tangent1End: t1, tangent2End: t2, radius: radius)
            return path
        }
        // Collinear, forwards and backwards: a line to tangent1End.
        assertLine(from(.zero, p(5, 0), p(9, 0), 2).elements.last, p(5, 0))
        assertLine(from(.zero, p(5, 0), p(1, 0), 2).elements.last, p(5, 0))
        // Radius zero or negative.
        assertLine(from(.zero, p(5, 0), p(5, 5), 0).elements.last, p(5, 0))
        assertLine(from(.zero, p(5, 0), p(5, 5), -1).elements.last, p(5, 0))
        // Coincident points.
        assertLine(from(p(5, 0), p(5, 0), p(5, 5), 2).elements.last, p(5, 0))
        assertLine(from(.zero, p(5, 0), p(5, 0), 2).elements.last, p(5, 0))
        // Empty path: a subpath starts at tangent1End.
        XCTAssertEqual(from(nil, p(5, 0), p(5, 5), 2).elements, [.move(to: p(5, 0))])
        // Non-finite input: nothing.
        XCTAssertEqual(from(.zero, p(.nan, 0), p(5, 5), 2).elements.count, 1)
        XCTAssertEqual(from(.zero, p(5, 0), p(5, 5), .nan).elements.count, 1)
        // After a close, the arc continues from the closed subpath's start.
        var closed = Path()
        closed.move(to: .zero)
        closed.addLine(to: p(0, 5))
        closed.closeSubpath()
        closed.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 4)
        assertLine(closed.elements[3], p(6, 0))
    }

    func testTangentArcWithTransform() {
        // The construction happens in the untransformed space; the result is the transformed construction.
        let t = CGAffineTransform(scaleX: 2, y: 3).translatedBy(x: 1, y: 1)
        var a = Path()
        a.move(to: CGPoint.zero.applying(t))
        a.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 4, transform: t)
        let b = Path { $0.move(to: .zero); $0.addArc(tangent1End: p(10, 0), tangent2End: p(10, 10), radius: 4) }.applying(t)
        XCTAssertEqual(a.elements.count, b.elements.count)
        for (ea, eb) in zip(a.elements, b.elements) {
            for (pa, pb) in zip(ea.points, eb.points) { assertClose(pa, pb) }
        }
    }
}
