import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `trimmedPath(from:to:)` and the arc-length measure under it (`PathSegment.length`, `parameter(atLength:)`).
final class PathTrimTests: XCTestCase {
    /// Lengths measured independently by summing 4000 chords per segment: for a ≤ 90° arc each chord is
    /// short by about (Δθ)²/24 of its length ≈ 6e-9; allow 1e-6 relative (well inside the required 1e-3).
    static let chordLengthRelative: CGFloat = 1e-6
    /// The adaptive quadrature aims at 1e-11 relative; compare with closed forms at 1e-9.
    static let quadratureRelative: CGFloat = 1e-9

    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// The drawn length of a path measured with chords only (independent of `PathSegment.length`).
    private func chordLength(_ path: Path, chordsPerSegment n: Int = 4000) -> CGFloat {
        var total: CGFloat = 0
        for c in path.contours {
            for s in c.segments {
                var prev = s.start
                for i in 1 ... n {
                    let q = s.point(at: CGFloat(i) / CGFloat(n))
                    total += hypot(q.x - prev.x, q.y - prev.y)
                    prev = q
                }
            }
        }
        return total
    }

    // MARK: Rectangles and polylines

    func testTrimmedRect() {
        let rect = Path(CGRect(x: 0, y: 0, width: 10, height: 10))   // perimeter 40, closing edge included
        XCTAssertEqual(rect.trimmedPath(from: 0, to: 0.375).description, "0 0 m 10 0 l 10 5 l")
        XCTAssertEqual(rect.trimmedPath(from: 0.25, to: 0.5).description, "10 0 m 10 10 l")
        // Through the closing edge: a partial closing edge is a line, not a close.
        XCTAssertEqual(rect.trimmedPath(from: 0.1, to: 0.9).description, "4 0 m 10 0 l 10 10 l 0 10 l 0 4 l")
        XCTAssertEqual(rect.trimmedPath(from: 0.8, to: 1).description, "0 8 m 0 0 l")
        for (a, b) in [(0.0, 0.1), (0.1, 0.9), (0.33, 0.34), (0.6, 1.0), (0.05, 0.95)] as [(CGFloat, CGFloat)] {
            let piece = rect.trimmedPath(from: a, to: b)
            XCTAssertEqual(chordLength(piece, chordsPerSegment: 1), 40 * (b - a), accuracy: 40 * GeometryTolerance.arithmetic)
        }
    }

    func testWholeAndEmptyTrims() {
        let rect = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(rect.trimmedPath(from: 0, to: 1), rect)
        XCTAssertEqual(rect.trimmedPath(from: -1, to: 2), rect)                  // clamped
        XCTAssertTrue(rect.trimmedPath(from: 0.5, to: 0.5).isEmpty)
        XCTAssertTrue(rect.trimmedPath(from: 0.7, to: 0.2).isEmpty)             // from > to: empty, as SwiftUI
        XCTAssertTrue(rect.trimmedPath(from: .nan, to: 1).isEmpty)
        XCTAssertTrue(rect.trimmedPath(from: 0, to: .nan).isEmpty)
        XCTAssertTrue(Path().trimmedPath(from: 0.2, to: 0.5).isEmpty)
        XCTAssertTrue(Path { $0.move(to: .zero) }.trimmedPath(from: 0.2, to: 0.5).isEmpty)   // no length
        XCTAssertTrue(Path { $0.move(to: .zero); $0.addLine(to: p(.nan, 1)) }.trimmedPath(from: 0.2, to: 0.5).isEmpty)
        XCTAssertEqual(rect.trimmedPath(from: 0.5, to: 2).description, "10 10 m 0 10 l 0 0 l")
    }

    func testSubpathsAndOpenPaths() {
        var two = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        two.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
        // The first half is the first square, kept whole and still closed.
        XCTAssertEqual(two.trimmedPath(from: 0, to: 0.5), Path(CGRect(x: 0, y: 0, width: 10, height: 10)))
        XCTAssertEqual(two.trimmedPath(from: 0.5, to: 0.75).description, "20 0 m 30 0 l 30 10 l")
        // Crossing from one subpath into the next: a move in between.
        XCTAssertEqual(two.trimmedPath(from: 0.4375, to: 0.5625).description, "0 5 m 0 0 l 20 0 m 25 0 l")
        // An open subpath has no closing segment to measure.
        let open = Path { $0.addLines([.zero, p(10, 0), p(10, 10)]) }
        XCTAssertEqual(open.trimmedPath(from: 0.5, to: 1).description, "10 0 m 10 10 l")
        XCTAssertEqual(open.trimmedPath(from: 0.25, to: 0.75).description, "5 0 m 10 0 l 10 5 l")
    }

    // MARK: Curves

    func testTrimmedCircleLengthsAndShape() {
        let center = p(50, 50), radius: CGFloat = 50
        let circle = Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))
        let total = chordLength(circle)
        XCTAssertEqual(total, 2 * .pi * radius, accuracy: 2 * .pi * radius * GeometryTolerance.quarterCubicRadialError)
        for (a, b) in [(0.0, 0.3), (0.1, 0.35), (0.2, 0.9), (0.55, 0.56), (0.8, 1.0), (0.125, 0.375)] as [(CGFloat, CGFloat)] {
            let piece = circle.trimmedPath(from: a, to: b)
            let expected = (b - a) * total
            XCTAssertEqual(chordLength(piece), expected, accuracy: expected * Self.chordLengthRelative, "\(a)…\(b)")
            // Curves stay curves, and lie on the original circle (within the cubic's own error).
            var kinds: [String] = []
            piece.forEach { e in
                switch e {
                case .move: kinds.append("m")
                case .curve: kinds.append("c")
                default: kinds.append("?")
                }
            }
            XCTAssertEqual(kinds.first, "m")
            XCTAssertTrue(kinds.dropFirst().allSatisfy { $0 == "c" }, "\(kinds)")
            for c in piece.contours {
                for s in c.segments {
                    for i in 0 ... 16 {
                        let q = s.point(at: CGFloat(i) / 16)
                        XCTAssertEqual(hypot(q.x - center.x, q.y - center.y), radius, accuracy: radius * GeometryTolerance.quarterCubicRadialError)
                    }
                }
            }
        }
        // A quarter of the outline (the 4 cubics have equal length) ends exactly at the first cubic's end.
        let quarter = circle.trimmedPath(from: 0, to: 0.25)
        guard case .curve(let end, _, _)? = quarter.elements.last else { return XCTFail() }
        XCTAssertEqual(end.x, 50, accuracy: 1e-6)
        XCTAssertEqual(end.y, 100, accuracy: 1e-6)
    }

    func testQuadStaysQuadAndSplitsAtTheRightParameter() {
        let q = Path { $0.move(to: .zero); $0.addQuadCurve(to: p(100, 0), control: p(50, 80)) }
        let piece = q.trimmedPath(from: 0, to: 0.5)
        guard case .quadCurve(let end, _)? = piece.elements.last else { return XCTFail("not a quad: \(piece)") }
        // The quad is symmetric about x = 50: half its length ends at its apex (50, 40).
        XCTAssertEqual(end.x, 50, accuracy: 1e-7)
        XCTAssertEqual(end.y, 40, accuracy: 1e-7)
        // A sub-segment is the original curve reparametrised: S(u) = B(t0 + u·(t1 − t0)).
        let seg = PathSegment.cubic(.zero, p(10, 40), p(70, -30), p(90, 10))
        let sub = seg.subsegment(from: 0.2, to: 0.7)
        for i in 0 ... 10 {
            let u = CGFloat(i) / 10
            let a = sub.point(at: u), b = seg.point(at: 0.2 + u * 0.5)
            XCTAssertEqual(a.x, b.x, accuracy: GeometryTolerance.arithmetic)
            XCTAssertEqual(a.y, b.y, accuracy: GeometryTolerance.arithmetic)
        }
    }

    // MARK: The length measure

    /// ∫₀¹ |B′(t)| dt for a quadratic in closed form: B′ = 2(a·t + b), a = P0 − 2P1 + P2, b = P1 − P0.
    private func quadLength(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) -> Double {
        let ax = Double(p0.x - 2 * p1.x + p2.x), ay = Double(p0.y - 2 * p1.y + p2.y)
        let bx = Double(p1.x - p0.x), by = Double(p1.y - p0.y)
        let A = 4 * (ax * ax + ay * ay), B = 8 * (ax * bx + ay * by), C = 4 * (bx * bx + by * by)
        // ∫ √(At² + Bt + C) dt
        func F(_ t: Double) -> Double {
            let q = (A * t * t + B * t + C).squareRoot()
            return (2 * A * t + B) * q / (4 * A)
                + (4 * A * C - B * B) / (8 * pow(A, 1.5)) * log(abs(2 * A.squareRoot() * q + 2 * A * t + B))
        }
        return F(1) - F(0)
    }

    func testLengthAgainstClosedForms() {
        XCTAssertEqual(PathSegment.line(.zero, p(3, 4)).length(), 5)
        XCTAssertEqual(PathSegment.line(.zero, p(3, 4)).length(from: 0.5, to: 1), 2.5)
        for (a, c, b) in [(p(0, 0), p(50, 80), p(100, 0)), (p(-3, 2), p(40, -7), p(5, 30)), (p(0, 0), p(1, 100), p(2, 0))] {
            let expected = quadLength(a, c, b)
            XCTAssertEqual(Double(PathSegment.quad(a, c, b).length()), expected, accuracy: expected * Double(Self.quadratureRelative))
        }
        // A cubic whose points are all on the x axis but which turns back twice: two cusps where B′ = 0.
        // x′(t)/3 = 50t² − 50t + 10 = 0 at t = (1 ∓ √0.2)/2; the length is the sum of |Δx| between them.
        let cusp = PathSegment.cubic(.zero, p(10, 0), p(-5, 0), p(5, 0))
        func x(_ t: Double) -> Double { 30 * (1 - t) * (1 - t) * t - 15 * (1 - t) * t * t + 5 * t * t * t }
        let t1 = (1 - 0.2.squareRoot()) / 2, t2 = (1 + 0.2.squareRoot()) / 2
        let expected = abs(x(t1)) + abs(x(t2) - x(t1)) + abs(5 - x(t2))
        XCTAssertEqual(Double(cusp.length()), expected, accuracy: expected * Double(Self.quadratureRelative))
        // Partial lengths, with intervals that contain a cusp or not: the travelled |Δx| up to t.
        func travelled(_ t: Double) -> Double {
            var sum = 0.0, prev = 0.0, last = x(0)
            for cut in [t1, t2, 1.0] where prev < t {
                let end = min(cut, t)
                sum += abs(x(end) - last)
                last = x(end); prev = cut
            }
            return sum
        }
        for t in stride(from: 0.05, through: 0.95, by: 0.075) {
            XCTAssertEqual(Double(cusp.length(from: 0, to: CGFloat(t))), travelled(t),
                           accuracy: expected * Double(Self.quadratureRelative), "t = \(t)")
            XCTAssertEqual(Double(cusp.length(from: CGFloat(t), to: 1)), expected - travelled(t),
                           accuracy: expected * Double(Self.quadratureRelative), "t = \(t)")
        }
    }

    func testParameterAtLengthInvertsLength() {
        let segments = [PathSegment.cubic(.zero, p(10, 40), p(70, -30), p(90, 10)),
                        PathSegment.cubic(.zero, p(10, 0), p(-5, 0), p(5, 0)),
                        PathSegment.quad(.zero, p(1, 100), p(2, 0)),
                        PathSegment.line(p(1, 1), p(4, 5))]
        for s in segments {
            let total = s.length()
            XCTAssertEqual(s.parameter(atLength: -1), 0)
            XCTAssertEqual(s.parameter(atLength: total * 2), 1)
            for f in stride(from: 0.05, to: 1.0, by: 0.1) {
                let target = CGFloat(f) * total
                let t = s.parameter(atLength: target)
                XCTAssertEqual(s.length(from: 0, to: t), target, accuracy: total * 1e-9)
            }
        }
    }
}
