import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class DashTests: XCTestCase {
    typealias G = StrokeTestGeometry

    /// Dash boundaries are computed exactly on the flattened centreline; the brief's bar is 0.01 px, the
    /// arithmetic gives ~10⁻¹², so this asserts the stronger 10⁻⁹ (summing ≤ 100 doubles of size ≤ 10³).
    let boundary = 1e-9

    private func flat(_ path: Path, tolerance: Double = Flatten.tolerance / 2) -> Stroker.Polyline {
        var f = Stroker.Polyline()
        XCTAssertTrue(Stroker.flatten(path, tolerance: tolerance, into: &f))
        return f
    }

    private func dashes(_ path: Path, _ dash: [CGFloat], phase: CGFloat = 0, maxDashes: Int = Stroker.maxDashesPerPath)
        -> Stroker.Polyline {
        var out = Stroker.Polyline()
        guard let pattern = Stroker.DashPattern(dash, phase: phase) else {
            XCTFail("pattern \(dash) unexpectedly solid")
            return out
        }
        Stroker.dash(flat(path), pattern: pattern, maxDashes: maxDashes, into: &out)
        return out
    }

    /// (start, end) x of each dash of a horizontal line.
    private func spans(_ p: Stroker.Polyline) -> [(Double, Double)] {
        p.subpaths.map { (p.vertices[$0.start].x, p.vertices[$0.end - 1].x) }
    }

    private func length(_ p: Stroker.Polyline, _ sp: Stroker.Subpath) -> Double {
        var l = 0.0
        for i in sp.start + 1 ..< sp.end {
            let a = p.vertices[i - 1], b = p.vertices[i]
            l += ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        }
        return l
    }

    // MARK: Pattern

    func testInvalidPatternsMeanSolid() {
        for d: [CGFloat] in [[], [0], [0, 0], [5, -1], [.nan, 2], [3, .infinity], [1e308, 1e308]] {
            XCTAssertNil(Stroker.DashPattern(d, phase: 0), "\(d)")
        }
        let line = G.line(0, 0, 100, 0)
        let solid = G.outline(line, StrokeStyle(lineWidth: 2))
        XCTAssertEqual(G.outline(line, StrokeStyle(lineWidth: 2, dash: [5, -1])).points, solid.points)
        XCTAssertEqual(G.outline(line, StrokeStyle(lineWidth: 2, dash: [0, 0])).points, solid.points)
    }

    func testOddPatternsRepeat() {
        XCTAssertEqual(Stroker.DashPattern([10], phase: 0)?.intervals, [10, 10])
        XCTAssertEqual(Stroker.DashPattern([5, 3, 2], phase: 0)?.intervals, [5, 3, 2, 5, 3, 2])
        let a = spans(dashes(G.line(0, 0, 45, 0), [10]))
        XCTAssertEqual(a.map(\.0), [0, 20, 40]); XCTAssertEqual(a.map(\.1), [10, 30, 45])
        // [5 on, 3 off, 2 on, 5 off, 3 on, 2 off]
        let b = spans(dashes(G.line(0, 0, 30, 0), [5, 3, 2]))
        XCTAssertEqual(b.map(\.0), [0, 8, 15, 20, 28]); XCTAssertEqual(b.map(\.1), [5, 10, 18, 25, 30])
    }

    func testPhaseWrapsBothWays() {
        let ref = Stroker.DashPattern([10, 5], phase: 3)
        XCTAssertEqual(ref?.startIndex, 0); XCTAssertEqual(ref?.startRemaining, 7)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: 33), ref)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: -12), ref)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: 10)?.startIndex, 1)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: 10)?.startRemaining, 5)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: 12)?.startRemaining, 3)
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: .nan), Stroker.DashPattern([10, 5], phase: 0))
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: .infinity), Stroker.DashPattern([10, 5], phase: 0))
        XCTAssertEqual(Stroker.DashPattern([10, 5], phase: 15e10 + 3), ref)  // 10¹⁰ whole periods
    }

    // MARK: Boundaries

    func testDashBoundariesOnAStraightLineAreExact() {
        // [10 on, 5 off] from phase 3: [0,7] then every 15 from 12, the last cut short by the end at 100.
        let d = dashes(G.line(0, 0, 100, 0), [10, 5], phase: 3)
        let s = spans(d)
        let expected: [(Double, Double)] = [(0, 7), (12, 22), (27, 37), (42, 52), (57, 67), (72, 82), (87, 97)]
        XCTAssertEqual(s.count, expected.count)
        for (a, e) in zip(s, expected) {
            XCTAssertEqual(a.0, e.0, accuracy: boundary); XCTAssertEqual(a.1, e.1, accuracy: boundary)
        }
        for sp in d.subpaths { XCTAssertFalse(sp.closed) }
        // Butt-capped dashes of width 2 cover exactly 2 × 67.
        let o = G.outline(G.line(0, 0, 100, 0), StrokeStyle(lineWidth: 2, dash: [10, 5], dashPhase: 3))
        XCTAssertEqual(o.contourCount, 7)
        XCTAssertEqual(G.area(o), 2 * 67, accuracy: G.exact)
        // Every dash gets its caps.
        let sq = G.outline(G.line(0, 0, 100, 0),
                           StrokeStyle(lineWidth: 2, lineCap: .square, dash: [10, 5], dashPhase: 3))
        XCTAssertEqual(G.area(sq), 2 * 67 + 7 * 4, accuracy: G.exact)
    }

    func testDashLengthsOnACircle() {
        let r = 40.0
        let circle = Path(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r))
        let f = flat(circle)
        let centreline = length(f, Stroker.Subpath(start: 0, end: f.vertices.count, closed: false))
            + { let a = f.vertices.last!, b = f.vertices[0]; return hypot(b.x - a.x, b.y - a.y) }()
        // The flattened centreline is within the κ circle's length error and the chords' shortfall
        // (≤ sagitta/R relative) of 2πR.
        let circumference = 2 * Double.pi * r
        XCTAssertEqual(centreline, circumference,
                       accuracy: circumference * (G.kappaCircleRelativeError + Flatten.tolerance / 2 / r))

        let d = dashes(circle, [10, 5], phase: 2)
        // Expected from the pattern alone: "on" from 0 to 8, then [15k + 13, 15k + 23] clipped to the length.
        var expectedOn = 8.0
        var start = 13.0
        var count = 1
        while start < centreline {
            expectedOn += min(start + 10, centreline) - start
            start += 15
            count += 1
        }
        XCTAssertEqual(d.subpaths.count, count)
        let lengths = d.subpaths.map { length(d, $0) }
        XCTAssertEqual(lengths.first!, 8, accuracy: boundary)
        for l in lengths.dropFirst().dropLast() { XCTAssertEqual(l, 10, accuracy: boundary) }
        XCTAssertEqual(lengths.reduce(0, +), expectedOn, accuracy: boundary)
        // Dashes keep the curve's smooth interior vertices (no corners inside a dash).
        for sp in d.subpaths where sp.end - sp.start > 2 {
            XCTAssertTrue(d.vertices[(sp.start + 1) ..< (sp.end - 1)].contains { $0.smooth })
        }
    }

    func testDashesAreUserSpaceLengths() {
        let line = G.line(0, 0, 100, 0)
        let style = StrokeStyle(lineWidth: 2, dash: [10, 10])
        XCTAssertEqual(G.area(G.outline(line, style)), 5 * 10 * 2, accuracy: G.exact)
        XCTAssertEqual(G.area(G.outline(line, style, CGAffineTransform(scaleX: 3, y: 3))), 9 * 100, accuracy: 1e-8)
        // A dashed hairline under ×4: dashes 40 px long, 1 px wide.
        let hair = G.outline(line, StrokeStyle(lineWidth: 0, dash: [10, 10]), CGAffineTransform(scaleX: 4, y: 4))
        XCTAssertEqual(hair.contourCount, 5)
        XCTAssertEqual(G.area(hair), 5 * 40, accuracy: G.exact)
    }

    func testDashAcrossACornerKeepsTheJoin() {
        // Square 100×100 from (0,0); [150 on, 50 off]: dashes (0,0)→(100,0)→(100,50) and
        // (100,100)→(0,100)→(0,50), each an L of 100 + 50 with a miter corner: area w·150 each.
        let sq = Path(CGRect(x: 0, y: 0, width: 100, height: 100))
        let o = G.outline(sq, StrokeStyle(lineWidth: 2, dash: [150, 50]))
        XCTAssertEqual(o.contourCount, 2)
        XCTAssertEqual(G.area(o), 2 * 2 * 150, accuracy: G.exact)
        XCTAssertEqual(o.maxX, 101); XCTAssertEqual(o.minY, -1)  // the miter tip at (100, 0)
    }

    func testClosedSubpathInsideFirstDashStaysClosed() {
        let rect = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        let solid = G.outline(rect, StrokeStyle(lineWidth: 2))
        let dashed = G.outline(rect, StrokeStyle(lineWidth: 2, dash: [100, 10]))
        XCTAssertEqual(dashed.points, solid.points)
        XCTAssertEqual(dashed.contourStarts, solid.contourStarts)
    }

    // MARK: Dots

    func testZeroLengthDashesAreDots() {
        let line = G.line(0, 0, 100, 0)
        let r = 2.0
        // [0 on, 10 off]: dots at 0, 10, …, 100 (the one at the very end included).
        let d = dashes(line, [0, 10])
        XCTAssertEqual(d.subpaths.count, 11)
        let round = G.outline(line, StrokeStyle(lineWidth: 2 * r, lineCap: .round, dash: [0, 10]))
        XCTAssertEqual(round.contourCount, 11)
        let disc = Double.pi * r * r
        XCTAssertLessThanOrEqual(G.area(round), 11 * disc + G.exact)
        XCTAssertGreaterThanOrEqual(G.area(round), 11 * (disc - 2 * Double.pi * r * G.arcSagitta))
        XCTAssertEqual(G.area(G.outline(line, StrokeStyle(lineWidth: 4, lineCap: .square, dash: [0, 10]))),
                       11 * 16, accuracy: G.exact)
        XCTAssertTrue(G.outline(line, StrokeStyle(lineWidth: 4, lineCap: .butt, dash: [0, 10])).isEmpty)
        // Square dots follow the path direction: on a 45° line they are diamonds 2√2·h across.
        let diag = G.line(0, 0, 30, 30)
        let diamonds = G.outline(diag, StrokeStyle(lineWidth: 4, lineCap: .square, dash: [0, 100]))
        XCTAssertEqual(diamonds.contourCount, 1)
        XCTAssertEqual(diamonds.maxX - diamonds.minX, 4 * 2.0.squareRoot(), accuracy: G.exact)
        XCTAssertEqual(G.area(diamonds), 16, accuracy: G.exact)
        // A closed subpath's end is its start: no second dot there.
        let sq = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(dashes(sq, [0, 10]).subpaths.count, 4)
    }

    func testZeroLengthSubpathFollowsThePhase() {
        var dot = Path()
        dot.move(to: CGPoint(x: 5, y: 5)); dot.closeSubpath()
        let on = G.outline(dot, StrokeStyle(lineWidth: 4, lineCap: .square, dash: [5, 5], dashPhase: 2))
        XCTAssertEqual(G.area(on), 16, accuracy: G.exact)
        XCTAssertTrue(G.outline(dot, StrokeStyle(lineWidth: 4, lineCap: .square, dash: [5, 5], dashPhase: 7)).isEmpty)
    }

    func testEachSubpathRestartsThePattern() {
        var p = G.line(0, 0, 12, 0)
        p.addPath(G.line(0, 10, 12, 10))
        let s = dashes(p, [5, 5])
        XCTAssertEqual(s.subpaths.count, 4)
        XCTAssertEqual(s.vertices[s.subpaths[2].start].x, 0)
        XCTAssertEqual(s.vertices[s.subpaths[2].start].y, 10)
    }

    // MARK: Work bounds

    /// A pattern finer than the dash cap is an error that names it, on every backend, instead of a stroke
    /// that stops part-way (or, at [1e−9 1e−9], an image left blank).
    func testTooFineDashIsAnError() throws {
        try TestTier.requireThorough()
        let style = StrokeStyle(lineWidth: 4, dash: [1e-9, 1e-9])
        XCTAssertThrowsError(try Stroker.outline(G.line(10, 20, 118, 20), style: style, transform: .identity)) {
            XCTAssertTrue("\($0)".contains("too fine a pattern"), "\($0)")
        }
        let backends: [CanvasRenderer.Backend] = [.reference, .gles(GLESOptions(device: .mesa))]
        for backend in backends {
            XCTAssertThrowsError(try SharedRenderers.renderer(backend, policy: .lenient).render(size: CGSize(width: 128, height: 128)) { ctx, _ in
                ctx.stroke(G.line(10, 20, 118, 20), with: .color(.black), style: style)
            }) { error in
                XCTAssertTrue("\(error)".contains("draw #0") && "\(error)".contains("more than 1000000 dashes"), "\(error)")
            }
        }
    }

    /// Dashes whose pen cannot reach the target are not outlined: dots every unit along a 5·10⁵-unit line
    /// with round caps 200 wide (2.3 GB of outline before) render as the same dashes along its first 400
    /// units, the only ones that reach a 128 × 128 canvas.
    func testDashesOffTheCanvasAreLeftOut() throws {
        let style = StrokeStyle(lineWidth: 200, lineCap: .round, dash: [0, 1])
        let visible = CGRect(x: 0, y: 0, width: 128, height: 128)
        let long = try Stroker.outline(G.line(0, 64, 500_000, 64), style: style, transform: .identity, visible: visible)
        let short = try Stroker.outline(G.line(0, 64, 400, 64), style: style, transform: .identity, visible: visible)
        // The same dots; positions along the longer line may round differently in the last bit.
        XCTAssertEqual(long.points.count, short.points.count)
        let drift = zip(long.points, short.points).map { max(abs($0.x - $1.x), abs($0.y - $1.y)) }.max() ?? 0
        XCTAssertLessThan(drift, 1e-9)
        // Dots up to x = 128 + 100·√2 (the pen's reach with square corners) + 1 are kept: 271 of them.
        XCTAssertEqual(long.contourCount, 271)
        let render = { (path: Path) in
            try CanvasRenderer(backend: .reference).render(size: CGSize(width: 128, height: 128)) { ctx, _ in
                ctx.stroke(path, with: .color(.black.opacity(0.01)), style: style)
            }
        }
        XCTAssertEqual(try render(G.line(0, 64, 500_000, 64)).difference(from: render(G.line(0, 64, 400, 64))).maxDiff, 0)
    }

    /// An outline that would pass `Stroker.maxOutlinePoints` is an error, not gigabytes: a 10 000-segment
    /// zigzag 2·10⁵ units wide has a round join of ~1900 chords at every corner (~2·10⁷ points).
    func testOutlinePointBudget() {
        var pts: [(Double, Double)] = []
        for i in 0 ... 10_000 { pts.append((Double(i), i % 2 == 0 ? 0 : 10)) }
        let style = StrokeStyle(lineWidth: 2e5, lineCap: .round, lineJoin: .round)
        XCTAssertThrowsError(try Stroker.outline(G.polyline(pts), style: style, transform: .identity)) {
            XCTAssertTrue("\($0)".contains("more than \(Stroker.maxOutlinePoints) points"), "\($0)")
        }
    }

    func testDashCountIsCapped() {
        // [1e−4, 1e−4] along 1000 units wants 5·10⁶ dashes; dashing stops at the first one over the cap
        // and says so (the outline turns that into an error).
        var out = Stroker.Polyline()
        let pattern = Stroker.DashPattern([1e-4, 1e-4], phase: 0)!
        XCTAssertFalse(Stroker.dash(flat(G.line(0, 0, 1000, 0)), pattern: pattern, into: &out))
        XCTAssertEqual(out.subpaths.count, Stroker.maxDashesPerPath + 1)
        let last = out.vertices[out.subpaths.last!.end - 1].x
        XCTAssertEqual(last, 2e-4 * Double(Stroker.maxDashesPerPath + 1) - 1e-4, accuracy: 1e-6)
        // Exactly at the cap is still complete: 1000 dashes of [1, 1] along 1999 units, with a cap of 1000.
        var exact = Stroker.Polyline()
        XCTAssertTrue(Stroker.dash(flat(G.line(0, 0, 1999, 0)), pattern: Stroker.DashPattern([1, 1], phase: 0)!,
                                   maxDashes: 1000, into: &exact))
        XCTAssertEqual(exact.subpaths.count, 1000)
        // Sub-denormal-scale intervals terminate at the cap as well.
        let stuck = dashes(G.line(1000, 0, 2000, 0), [1e-300, 1e-300], maxDashes: 1000)
        XCTAssertEqual(stuck.subpaths.count, 1001)
    }
}
