import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasReference
@testable import GPUCanvasGLES

/// The CPU gradient formulas (`GradientPaint`): t at known points for every geometry, the spreads, stop
/// lookup (hard edges, before the first and after the last stop), `.linearColor`, premultiplication, and the
/// packed texel row the GPU reads. The GPU copy is compared with these in `FormulaGPUAgreementTests`.
final class GradientFormulaTests: XCTestCase {
    typealias G = GradientPaint
    let black = SIMD4<Float>(0, 0, 0, 1), white = SIMD4<Float>(1, 1, 1, 1)
    let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1)

    var blackToWhite: [G.Stop] { [G.Stop(location: 0, color: black), G.Stop(location: 1, color: white)] }

    func paint(_ g: G.Geometry, _ m: CGAffineTransform = .identity, stops: [G.Stop]? = nil,
               spread: G.Spread = .pad) -> G {
        G(geometry: g, gradientFromDevice: m, stops: stops ?? blackToWhite, spread: spread)
    }

    func t(_ p: G, _ x: Double, _ y: Double) -> Float? { p.parameter(at: SIMD2(x, y)) }

    func assertT(_ p: G, _ x: Double, _ y: Double, _ expected: Float?, accuracy: Float = 1e-6,
                 file: StaticString = #filePath, line: UInt = #line) {
        let got = t(p, x, y)
        guard let e = expected else {
            XCTAssertNil(got, "at (\(x), \(y))", file: file, line: line)
            return
        }
        guard let g = got else { return XCTFail("nil at (\(x), \(y)), expected \(e)", file: file, line: line) }
        XCTAssertEqual(g, e, accuracy: accuracy, "at (\(x), \(y))", file: file, line: line)
    }

    func assertColor(_ c: SIMD4<Float>, _ e: SIMD4<Float>, _ tol: Float = 1e-6, _ what: String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(maxAbsDifference(c, e), tol, "\(what): \(c) vs \(e)", file: file, line: line)
    }

    // MARK: Parameters

    func testLinearParameterIsTheProjection() {
        let g = paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 0)))
        assertT(g, 2.5, 7, 0.25)
        assertT(g, -5, 3, -0.5)
        assertT(g, 15, 0, 1.5)
        assertT(paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 10))), 10, 0, 0.5)
        // gradientFromDevice maps device → gradient space: a draw translated by +10 and one scaled by 2.
        assertT(paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 0)), CGAffineTransform(translationX: -10, y: 0)),
                12.5, 7, 0.25)
        assertT(paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 0)), CGAffineTransform(scaleX: 0.5, y: 0.5)),
                5, 0, 0.25)
    }

    /// start == end: t is undefined; the whole plane takes the last stop's colour, whatever the spread.
    func testDegenerateLinearTakesTheLastStop() {
        for spread in [G.Spread.pad, .repeat, .mirror] {
            let g = paint(.linear(start: SIMD2(3, 3), end: SIMD2(3, 3)),
                          stops: [G.Stop(location: 0, color: red), G.Stop(location: 1, color: SIMD4(0, 0, 1, 0.5))],
                          spread: spread)
            XCTAssertTrue(g.isDegenerateLinear)
            assertT(g, 0, 0, 1)
            assertColor(g.color(at: SIMD2(-40, 7)), SIMD4(0, 0, 0.5, 0.5), 0, "\(spread)")
        }
    }

    func testConcentricRadial() {
        let g = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 10, endCenter: SIMD2(0, 0), endRadius: 20))
        assertT(g, 15, 0, 0.5)
        assertT(g, 0, 25, 1.5)
        assertT(g, 0, 0, -1)
        assertT(g, 3, 4, -0.5)
        let shrinking = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 20, endCenter: SIMD2(0, 0), endRadius: 10))
        assertT(shrinking, 15, 0, 0.5)
        assertT(shrinking, 5, 0, 1.5)
        // Equal circles paint nothing (as the HTML canvas specifies).
        let equal = paint(.radial(startCenter: SIMD2(1, 1), startRadius: 5, endCenter: SIMD2(1, 1), endRadius: 5))
        assertT(equal, 1, 1, nil)
        assertColor(equal.color(at: SIMD2(1, 1)), .zero)
    }

    func testTwoPointRadialWithTheStartCircleInsideTheEnd() {
        // c0 = (0, 0), r0 = 10 → c1 = (5, 0), r1 = 20: every point is on exactly one circle with r ≥ 0.
        let g = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 10, endCenter: SIMD2(5, 0), endRadius: 20))
        assertT(g, -10, 0, 0)          // on the start circle
        assertT(g, 25, 0, 1)           // on the end circle
        assertT(g, 0, 0, -2.0 / 3)     // the circle centred (−10/3, 0) with radius 10/3
    }

    func testTwoPointRadialCone() {
        // A point (r0 = 0) at the origin growing to radius 5 at (10, 0): a cone of half-angle 30° along +x.
        let g = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 0, endCenter: SIMD2(10, 0), endRadius: 5))
        assertT(g, 10, 0, 2)           // circles t = 2/3 and t = 2 pass through it; the larger wins
        assertT(g, 20, 0, 4)
        assertT(g, 10, 2, 1.958722)    // 75t² − 200t + 104 = 0 → (200 + √8800)/150
        assertT(g, -1, 0, nil)         // behind the apex: only negative radii reach it
        assertT(g, 0, 10, nil)         // outside the cone: no circle at all
        assertColor(g.color(at: SIMD2(0, 10)), .zero, 0, "outside the cone is transparent")
        // |Δc| = |Δr| (a = 0): the single root c/(2b).
        let tangent = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 0, endCenter: SIMD2(10, 0), endRadius: 10))
        assertT(tangent, 5, 0, 0.25)
        assertT(tangent, -5, 0, nil)
    }

    func testConicStartsAtTheAngleAndTurnsClockwiseOnScreen() {
        let g = paint(.conic(center: SIMD2(0, 0), angle: 0))
        assertT(g, 5, 0, 0)
        assertT(g, 0, 5, 0.25)         // y points down: +y is a quarter turn clockwise from +x on screen
        assertT(g, -5, 0, 0.5)
        assertT(g, 0, -5, 0.75)
        assertT(g, 0, 0, 0)            // the centre: angle 0 by convention
        XCTAssertEqual(t(g, 5, -1e-9), 0, "just before a full turn rounds to the seam, and t stays in [0, 1)")
        let quarter = paint(.conic(center: SIMD2(10, 10), angle: .pi / 2))
        assertT(quarter, 10, 15, 0)
        assertT(quarter, 15, 10, 0.75)
        assertT(quarter, 5, 10, 0.25)
    }

    // MARK: Spread and stops

    func testSpreadFunctions() {
        XCTAssertEqual(G.spread(1.25, .pad), 1)
        XCTAssertEqual(G.spread(-0.25, .pad), 0)
        XCTAssertEqual(G.spread(1.25, .repeat), 0.25)
        XCTAssertEqual(G.spread(-0.25, .repeat), 0.75)
        XCTAssertEqual(G.spread(1.25, .mirror), 0.75)
        XCTAssertEqual(G.spread(-0.25, .mirror), 0.25)
        XCTAssertEqual(G.spread(2.25, .mirror), 0.25)
        XCTAssertEqual(G.spread(1, .mirror), 1)
    }

    func testSpreadsOnALinearGradient() {
        let line = G.Geometry.linear(start: SIMD2(0, 0), end: SIMD2(10, 0))
        let cases: [(G.Spread, Double, Float)] = [
            (.pad, 12.5, 1), (.pad, -2.5, 0),
            (.repeat, 12.5, 0.25), (.repeat, -2.5, 0.75),
            (.mirror, 12.5, 0.75), (.mirror, -2.5, 0.25),
        ]
        for (spread, x, grey) in cases {
            assertColor(paint(line, spread: spread).color(at: SIMD2(x, 0)), SIMD4(grey, grey, grey, 1), 1e-6,
                        "\(spread) at \(x)")
        }
    }

    func testStopLookup() {
        let hard = [G.Stop(location: 0, color: red), G.Stop(location: 0.5, color: red),
                    G.Stop(location: 0.5, color: blue), G.Stop(location: 1, color: blue)]
        XCTAssertEqual(G.stopColor(hard, at: 0.49), red)
        XCTAssertEqual(G.stopColor(hard, at: 0.5), blue, "the later stop wins from the shared location on")
        XCTAssertEqual(G.stopColor(hard, at: 0.51), blue)
        let inner = [G.Stop(location: 0.2, color: red), G.Stop(location: 0.8, color: blue)]
        XCTAssertEqual(G.stopColor(inner, at: 0.1), red, "before the first stop")
        XCTAssertEqual(G.stopColor(inner, at: 0.9), blue, "after the last stop")
        assertColor(G.stopColor(inner, at: 0.35), SIMD4(0.75, 0, 0.25, 1))
        let triple = [G.Stop(location: 0, color: black), G.Stop(location: 0.5, color: red),
                      G.Stop(location: 0.5, color: white), G.Stop(location: 0.5, color: blue)]
        XCTAssertEqual(G.stopColor(triple, at: 0.5), blue, "three at one location: the last")
        assertColor(G.stopColor(triple, at: 0.25), SIMD4(0.5, 0, 0, 1), 1e-7, "interpolates towards the first of them")
        XCTAssertEqual(G.stopColor([G.Stop(location: 0.3, color: red)], at: 0.9), red, "a single stop")
        // A hard edge through a gradient: pixel centres either side take either colour.
        let g = paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 0)), stops: hard)
        XCTAssertEqual(g.color(at: SIMD2(4.5, 0)), red)
        XCTAssertEqual(g.color(at: SIMD2(5.5, 0)), blue)
    }

    func testColorIsPremultiplied() {
        let g = paint(.linear(start: SIMD2(0, 0), end: SIMD2(10, 0)),
                      stops: [G.Stop(location: 0, color: red), G.Stop(location: 1, color: SIMD4(0, 0, 1, 0.5))])
        // Straight (0.5, 0, 0.5, 0.75) → premultiplied (0.375, 0, 0.375, 0.75).
        assertColor(g.color(at: SIMD2(5, 0)), SIMD4(0.375, 0, 0.375, 0.75))
    }

    func testLinearColorEncodesInAnEncodedWorkingSpace() {
        let line = G.Geometry.linear(start: SIMD2(0, 0), end: SIMD2(10, 0))
        let stops = [G.Stop(location: 0, color: SIMD4(0, 0, 0, 0.5)), G.Stop(location: 1, color: SIMD4(1, 1, 1, 0.5))]
        // Linear light 0.5 → sRGB 1.055·0.5^(1/2.4) − 0.055 = 0.735357, then × alpha 0.5.
        let encoded = G(geometry: line, stops: stops, interpolatesLinearLight: true, workingSpaceIsEncoded: true)
        assertColor(encoded.color(at: SIMD2(5, 0)), SIMD4(0.3676785, 0.3676785, 0.3676785, 0.5), 1e-6, "linearColor")
        let linearSpace = G(geometry: line, stops: stops, interpolatesLinearLight: true, workingSpaceIsEncoded: false)
        assertColor(linearSpace.color(at: SIMD2(5, 0)), SIMD4(0.25, 0.25, 0.25, 0.5), 1e-7, "linear working space")
        let plain = G(geometry: line, stops: stops, interpolatesLinearLight: false, workingSpaceIsEncoded: true)
        assertColor(plain.color(at: SIMD2(5, 0)), SIMD4(0.25, 0.25, 0.25, 0.5), 1e-7, "nonLinear interpolation")
    }

    // MARK: Packing

    func testPackedLinearRow() {
        let g = paint(.linear(start: SIMD2(0, 0), end: SIMD2(4, 0)))
        let row = g.packedTexels()
        XCTAssertEqual(row.count, 9)                               // 6 header + 2 colours + 1 location texel
        XCTAssertEqual(row[0], SIMD4(0, 0, 0, 2))                  // linear, pad, no flags, 2 stops
        XCTAssertEqual(row[2], SIMD4(0.25, 0, 0, 0))               // ∇t = (1/4, 0): hi (0.25, 0), lo 0
        XCTAssertEqual(row[6], black)
        XCTAssertEqual(row[7], white)
        XCTAssertEqual(row[8], SIMD4(0, 1, 0, 0))
        // The origin lies on the t = 0 line x = 0 (clamped into the box), so t_o = 0.
        XCTAssertEqual(row[1].x, 0)
        XCTAssertEqual(row[1].z, 0)
    }

    func testPackedLinearOriginSitsOnTheZeroLine() {
        let g = paint(.linear(start: SIMD2(100.3, 50), end: SIMD2(110.3, 50)), spread: .pad)
        let row = g.packedTexels()
        XCTAssertEqual(row[1].x, 100)
        XCTAssertEqual(row[1].z, -0.03, accuracy: 1e-6, "t_o = (100 − 100.3)/10")
        // Repeat and mirror reduce t_o modulo 2.
        let far = paint(.linear(start: SIMD2(-1_000_000.25, 0), end: SIMD2(-999_998.25, 0)), spread: .repeat)
        let farRow = far.packedTexels()
        XCTAssertEqual(farRow[1].x, 0, "the t = 0 line misses the box: the nearest corner")
        XCTAssertEqual(farRow[1].z, 0.125, accuracy: 1e-9, "t at x = 0 is 500 000.125 ≡ 0.125 (mod 2)")
    }

    func testPackedRadialAndConicRows() {
        let concentric = paint(.radial(startCenter: SIMD2(20.3, 15.7), startRadius: 2,
                                       endCenter: SIMD2(20.3, 15.7), endRadius: 20), spread: .mirror)
        let c = concentric.packedTexels()
        XCTAssertEqual(c[0], SIMD4(1, 2, 0, 2))
        XCTAssertEqual(c[1].x, 20); XCTAssertEqual(c[1].y, 16)              // the rounded centre
        XCTAssertEqual(c[1].z, -0.3, accuracy: 1e-6); XCTAssertEqual(c[1].w, 0.3, accuracy: 1e-6)
        XCTAssertEqual(c[2], SIMD4(1, 0, 0, 1))                             // M_hi = identity
        XCTAssertEqual(c[3], .zero)
        XCTAssertEqual(c[4].x, 2); XCTAssertEqual(c[4].y, 18)
        XCTAssertEqual(c[4].z, 0.18 - 4, accuracy: 1e-6)                    // k = |v_o|² − r0²

        let twoPoint = paint(.radial(startCenter: SIMD2(0, 0), startRadius: 0, endCenter: SIMD2(10, 0), endRadius: 5),
                             spread: .repeat)
        let tp = twoPoint.packedTexels()
        XCTAssertEqual(tp[0], SIMD4(2, 1, 0, 2))
        XCTAssertEqual(tp[4], SIMD4(10, 0, 0, 5))                           // Δc, r0, Δr
        XCTAssertEqual(tp[5], SIMD4(75, 0, 0, 0))                           // a = 100 − 25, b_o = 0, k = 0

        let far = paint(.conic(center: SIMD2(-5000, 300), angle: -.pi / 2))
        let f = far.packedTexels()
        XCTAssertEqual(f[0], SIMD4(3, 0, 0, 2))
        XCTAssertEqual(f[1], SIMD4(0, 300, 5000, 0))                        // clamped into the box
        XCTAssertEqual(f[4].x, 0.75, accuracy: 1e-7)                        // −¼ turn ≡ ¾

        let stops = (0 ..< 5).map { G.Stop(location: Float($0) / 4, color: SIMD4(Float($0), 0, 0, 1)) }
        let five = G(geometry: .conic(center: .zero, angle: 0), stops: stops,
                     interpolatesLinearLight: true, workingSpaceIsEncoded: true).packedTexels()
        XCTAssertEqual(five.count, 6 + 5 + 2)
        XCTAssertEqual(five[0].z, 1, "flag bit 0: encode")
        XCTAssertEqual(five[11], SIMD4(0, 0.25, 0.5, 0.75))
        XCTAssertEqual(five[12], SIMD4(1, 0, 0, 0))
    }

    func testPackedSpecialKindsAndTheLargestRow() {
        XCTAssertEqual(paint(.linear(start: SIMD2(1, 1), end: SIMD2(1, 1))).packedTexels()[0].x, 4, "solid last stop")
        XCTAssertEqual(paint(.radial(startCenter: .zero, startRadius: 3, endCenter: .zero, endRadius: 3))
            .packedTexels()[0].x, 5, "nothing")
        let many = (0 ..< G.maxStops).map { G.Stop(location: Float($0) / 255, color: white) }
        XCTAssertEqual(paint(.linear(start: .zero, end: SIMD2(1, 0)), stops: many).packedTexels().count, 326)
    }

    /// hi has 8 significant bits, so hi·h is exact for every half-integer |h| ≤ 16384, and hi + lo is x to
    /// 32 bits (lo's own 24 bits start 8 below hi's leading bit).
    func testSplitMakesExactProducts() {
        let (hi, lo) = G.split(1.0 / 3)
        XCTAssertEqual(hi, 0.33203125)
        XCTAssertEqual(Double(hi) + Double(lo), 1.0 / 3, accuracy: 0x1p-33)
        var rng = FormulaTestRandom(seed: 3)
        for _ in 0 ..< 1000 {
            let x = rng.double(-300, 300)
            let (h, l) = G.split(x)
            XCTAssertEqual(Double(h) + Double(l), x, accuracy: abs(x) * 0x1p-31)
            let p = Float(Int(rng.next() % 65537) - 32768) * 0.5          // a half-integer in [−16384, 16384]
            XCTAssertEqual(Double(h * p), Double(h) * Double(p), "\(x) × \(p)")
        }
    }
}
