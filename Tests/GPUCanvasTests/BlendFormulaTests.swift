import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasReference

/// The CPU blend formulas (`BlendFormulas`): hand-worked values for each of the 28 modes, the premultiplied
/// formulas against the W3C straight-alpha form, and the coverage rule. The GPU copy is compared with these in
/// `FormulaGPUAgreementTests`.
///
/// Expected values are worked out in the comments. Float rounding stays far below `tolerance`, which only
/// absorbs decimal constants like 0.3 that Float cannot hold exactly.
final class BlendFormulaTests: XCTestCase {
    typealias Mode = GraphicsContext.BlendMode
    let tolerance: Float = 1e-6

    func blend(_ m: Mode, _ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        BlendFormulas.blend(m, source: s, destination: d)
    }

    func assertClose(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ tol: Float? = nil, _ what: String = "",
                     file: StaticString = #filePath, line: UInt = #line) {
        let diff = maxAbsDifference(a, b)
        XCTAssertLessThanOrEqual(diff, tol ?? tolerance, "\(what): \(a) vs expected \(b)", file: file, line: line)
    }

    func grey(_ v: Float, _ a: Float = 1) -> SIMD4<Float> { SIMD4(v * a, v * a, v * a, a) }

    // MARK: Separable modes on opaque colours (B itself shows through: αs = αb = 1)

    func testSeparableModesOnOpaqueGreys() {
        let cases: [(Mode, Float, Float, Float)] = [  // mode, Cs, Cb, B(Cb, Cs)
            (.multiply, 0.5, 0.5, 0.25),
            (.screen, 0.5, 0.5, 0.75),                 // 0.5 + 0.5 − 0.25
            (.overlay, 0.5, 0.25, 0.25),               // Cb ≤ ½: 2·Cs·Cb = 0.25
            (.overlay, 0.5, 0.75, 0.75),               // Screen(Cs, 2·Cb − 1) = 0.5 + 0.5 − 0.25
            (.darken, 0.2, 0.6, 0.2),
            (.lighten, 0.2, 0.6, 0.6),
            (.colorDodge, 0.5, 0.25, 0.5),             // 0.25/(1 − 0.5)
            (.colorDodge, 0.5, 0.75, 1),               // min(1, 1.5)
            (.colorDodge, 1, 0, 0),                    // Cb = 0 wins over Cs = 1
            (.colorDodge, 1, 0.5, 1),
            (.colorBurn, 0.5, 0.75, 0.5),              // 1 − min(1, 0.25/0.5)
            (.colorBurn, 0, 1, 1),                     // Cb = 1 wins over Cs = 0
            (.colorBurn, 0, 0.5, 0),
            (.softLight, 0.25, 0.5, 0.375),            // 0.5 − 0.5·0.5·0.5
            (.softLight, 0.75, 0.64, 0.72),            // D = √0.64 = 0.8: 0.64 + 0.5·0.16
            (.softLight, 0.75, 0.16, 0.279168),        // D = ((2.56 − 12)·0.16 + 4)·0.16 = 0.398336
            (.hardLight, 0.25, 0.5, 0.25),             // 0.5·(2·0.25)
            (.hardLight, 0.75, 0.5, 0.75),             // Screen(0.5, 0.5)
            (.difference, 0.2, 0.7, 0.5),
            (.exclusion, 0.2, 0.7, 0.62),              // 0.2 + 0.7 − 2·0.14
        ]
        for (mode, cs, cb, b) in cases {
            assertClose(blend(mode, grey(cs), grey(cb)), grey(b), 1e-6, "\(mode) Cs \(cs) Cb \(cb)")
        }
    }

    /// Translucent colours go through the general formula: co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B.
    func testSeparableModeWithTranslucency() {
        // Multiply, Cs = 0.5 at αs = 0.5 (cs = 0.25) over opaque Cb = 0.5:
        // co = 0.25·0 + 0.5·0.5 + 0.5·1·0.25 = 0.375, αo = 1.
        assertClose(blend(.multiply, grey(0.5, 0.5), grey(0.5)), grey(0.375))
        // Screen, opaque Cs = 0.5 over Cb = 0.5 at αb = 0.25 (cb = 0.125):
        // co = 0.5·0.75 + 0.125·0 + 1·0.25·0.75 = 0.5625, αo = 1.
        assertClose(blend(.screen, grey(0.5), grey(0.5, 0.25)), grey(0.5625))
    }

    // MARK: Non-separable modes

    func testNonSeparableModesOnRedAndBlue() {
        let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1)
        // Blue source over red backdrop. Lum(red) = 0.3, Lum(blue) = 0.11, Sat of both = 1.
        // hue: SetLum(SetSat(blue, 1), 0.3) = SetLum(blue, 0.3) = (0.19, 0.19, 1.19) → ClipColor (x > 1):
        //   0.3 + (c − 0.3)·0.7/0.89 → (0.213483, 0.213483, 1).
        assertClose(blend(.hue, blue, red), SIMD4(0.2134831, 0.2134831, 1, 1), 1e-6, "hue")
        // saturation: SetLum(SetSat(red, 1), 0.3) = red.
        assertClose(blend(.saturation, blue, red), red, 1e-6, "saturation")
        // color: SetLum(blue, Lum(red)) = the hue result here.
        assertClose(blend(.color, blue, red), SIMD4(0.2134831, 0.2134831, 1, 1), 1e-6, "color")
        // luminosity: SetLum(red, 0.11) = (0.81, −0.19, −0.19) → ClipColor (n < 0):
        //   0.11 + (c − 0.11)·0.11/0.30 → (0.366667, 0, 0).
        assertClose(blend(.luminosity, blue, red), SIMD4(0.3666667, 0, 0, 1), 1e-6, "luminosity")
    }

    func testNonSeparableModesWithoutClipping() {
        let cb = SIMD4<Float>(0.2, 0.6, 0.4, 1), cs = SIMD4<Float>(0.9, 0.1, 0.5, 1)
        // Lum(cb) = 0.06 + 0.354 + 0.044 = 0.458, Sat(cb) = 0.4; Lum(cs) = 0.27 + 0.059 + 0.055 = 0.384,
        // Sat(cs) = 0.8.
        // hue: SetSat(cs, 0.4) = (c − 0.1)·0.4/0.8 = (0.4, 0, 0.2), Lum 0.142 → + 0.316 = (0.716, 0.316, 0.516).
        assertClose(blend(.hue, cs, cb), SIMD4(0.716, 0.316, 0.516, 1), 1e-6, "hue")
        // saturation: SetSat(cb, 0.8) = (c − 0.2)·0.8/0.4 = (0, 0.8, 0.4), Lum 0.516 → − 0.058 =
        //   (−0.058, 0.742, 0.342) → ClipColor (n < 0): 0.458 + (c − 0.458)·0.458/0.516.
        let k: Float = 0.458 / 0.516
        assertClose(blend(.saturation, cs, cb),
                    SIMD4(0.458 + (-0.058 - 0.458) * k, 0.458 + (0.742 - 0.458) * k, 0.458 + (0.342 - 0.458) * k, 1),
                    1e-6, "saturation")
        // color: SetLum(cs, 0.458) = cs + 0.074 = (0.974, 0.174, 0.574).
        assertClose(blend(.color, cs, cb), SIMD4(0.974, 0.174, 0.574, 1), 1e-6, "color")
        // luminosity: SetLum(cb, 0.384) = cb − 0.074 = (0.126, 0.526, 0.326).
        assertClose(blend(.luminosity, cs, cb), SIMD4(0.126, 0.526, 0.326, 1), 1e-6, "luminosity")
    }

    func testSetSatAndClipColorPieces() {
        let sat = BlendFormulas.setSat(SIMD3(0.2, 0.6, 0.4), 0.5)  // (0.4 − 0.2)·0.5/0.4 rounds in Float
        XCTAssertLessThanOrEqual(maxAbsDifference(SIMD4(sat, 0), SIMD4(0, 0.5, 0.25, 0)), 1e-7)
        XCTAssertEqual(BlendFormulas.setSat(SIMD3(0.3, 0.3, 0.3), 0.5), .zero, "a grey becomes black")
        XCTAssertEqual(BlendFormulas.setSat(SIMD3(0.1, 0.7, 0.7), 0.4), SIMD3(0, 0.4, 0.4), "tied maxima")
        XCTAssertEqual(BlendFormulas.clipColor(SIMD3(0.2, 0.5, 0.9)), SIMD3(0.2, 0.5, 0.9), "inside [0, 1]")
        XCTAssertEqual(BlendFormulas.unpremultiplied(SIMD4(0.25, 0.5, 0, 0.5)), SIMD3(0.5, 1, 0))
        XCTAssertEqual(BlendFormulas.unpremultiplied(SIMD4(0.3, 0.3, 0.3, 0)), .zero)
    }

    // MARK: Porter-Duff, plusDarker, plusLighter

    func testPorterDuffModes() {
        let s = SIMD4<Float>(0.4, 0.2, 0, 0.8), d = SIMD4<Float>(0, 0.3, 0.6, 0.75)
        // 1 − Sa = 0.2, 1 − Da = 0.25.
        let expected: [(Mode, SIMD4<Float>)] = [
            (.normal, SIMD4(0.4, 0.26, 0.12, 0.95)),          // S + D·0.2
            (.clear, .zero),
            (.copy, s),
            (.sourceIn, SIMD4(0.3, 0.15, 0, 0.6)),            // S·0.75
            (.sourceOut, SIMD4(0.1, 0.05, 0, 0.2)),           // S·0.25
            (.sourceAtop, SIMD4(0.3, 0.21, 0.12, 0.75)),      // S·0.75 + D·0.2
            (.destinationOver, SIMD4(0.1, 0.35, 0.6, 0.95)),  // S·0.25 + D
            (.destinationIn, SIMD4(0, 0.24, 0.48, 0.6)),      // D·0.8
            (.destinationOut, SIMD4(0, 0.06, 0.12, 0.15)),    // D·0.2
            (.destinationAtop, SIMD4(0.1, 0.29, 0.48, 0.8)),  // S·0.25 + D·0.8
            (.xor, SIMD4(0.1, 0.11, 0.12, 0.35)),             // S·0.25 + D·0.2
            (.plusDarker, SIMD4(0, 0, 0, 0.55)),              // max(0, S + D − 1)
            (.plusLighter, SIMD4(0.4, 0.5, 0.6, 1)),          // min(1, S + D)
        ]
        for (mode, e) in expected { assertClose(blend(mode, s, d), e, 1e-6, "\(mode)") }
    }

    func testPlusDarkerOnOpaqueColours() {
        // max(0, 1 − ((1 − D) + (1 − S))): (0.8 + 0.5 − 1, 0.6 + 0.7 − 1, 0.4 + 0.9 − 1, 1).
        assertClose(blend(.plusDarker, SIMD4(0.8, 0.6, 0.4, 1), SIMD4(0.5, 0.7, 0.9, 1)), SIMD4(0.3, 0.3, 0.3, 1))
        assertClose(blend(.plusDarker, SIMD4(0.2, 0.6, 0.4, 1), SIMD4(0.5, 0.7, 0.1, 1)), SIMD4(0, 0.3, 0, 1))
    }

    func testCopyOfTransparentSourceClears() {
        assertClose(blend(.copy, .zero, SIMD4(0.2, 0.4, 0.6, 1)), .zero)
        assertClose(blend(.sourceIn, .zero, SIMD4(0.2, 0.4, 0.6, 1)), .zero)
    }

    /// A transparent source leaves the destination unchanged in every separable and non-separable mode (its
    /// straight colour is 0 by convention, and αs = 0 removes B).
    func testTransparentSourceLeavesDestinationInW3CModes() {
        let d = SIMD4<Float>(0.1, 0.3, 0.5, 0.6)
        for raw in Int32(0) ... 15 {
            assertClose(blend(Mode(rawValue: raw), .zero, d), d, 1e-7, "\(Mode(rawValue: raw))")
        }
    }

    // MARK: Premultiplied against straight

    /// The premultiplied general formula equals the W3C straight-alpha route: Cs' = (1 − αb)·Cs + αb·B(Cb, Cs),
    /// then source-over in straight colour, co = αs·Cs' + αb·Cb·(1 − αs), computed here in Double.
    func testPremultipliedFormulaMatchesStraightAlphaForm() {
        var rng = FormulaTestRandom(seed: 7)
        var worst: Double = 0
        for _ in 0 ..< 400 {
            let cs = SIMD3<Float>(rng.unit(), rng.unit(), rng.unit()), cb = SIMD3<Float>(rng.unit(), rng.unit(), rng.unit())
            let sa = rng.unit(), da = rng.unit()
            let s = SIMD4(cs * sa, sa), d = SIMD4(cb * da, da)
            // The unpremultiplied colours the formulas see (s.rgb/sa rounds, so use those, not cs).
            let us = BlendFormulas.unpremultiplied(s), ub = BlendFormulas.unpremultiplied(d)
            for raw in Int32(1) ... 15 {
                let b: SIMD3<Float> = raw <= 11
                    ? SIMD3(BlendFormulas.separable(raw, ub.x, us.x), BlendFormulas.separable(raw, ub.y, us.y),
                            BlendFormulas.separable(raw, ub.z, us.z))
                    : BlendFormulas.nonSeparable(raw, cb: ub, cs: us)
                let got = blend(Mode(rawValue: raw), s, d)
                for i in 0 ..< 3 {
                    let csp = (1 - Double(da)) * Double(us[i]) + Double(da) * Double(b[i])
                    let co = Double(sa) * csp + Double(da) * Double(ub[i]) * (1 - Double(sa))
                    worst = max(worst, abs(co - Double(got[i])))
                }
                XCTAssertEqual(Double(got.w), Double(sa) + Double(da) * (1 - Double(sa)), accuracy: 1e-6)
            }
        }
        XCTAssertLessThanOrEqual(worst, 1e-5)
    }

    /// The Porter-Duff modes in straight terms: sourceIn keeps the source's straight colour at alpha Sa·Da;
    /// destinationOut keeps the destination's at Da·(1 − Sa); copy is the source.
    func testPorterDuffStraightColourIsKept() {
        let s = SIMD4<Float>(0.3, 0.15, 0.45, 0.6), d = SIMD4<Float>(0.2, 0.1, 0.05, 0.4)
        let inS = blend(.sourceIn, s, d)
        XCTAssertEqual(inS.w, 0.24, accuracy: 1e-7)
        XCTAssertEqual(BlendFormulas.unpremultiplied(inS), BlendFormulas.unpremultiplied(s))
        let outD = blend(.destinationOut, s, d)
        XCTAssertEqual(outD.w, 0.16, accuracy: 1e-7)
        let u = BlendFormulas.unpremultiplied(outD), ud = BlendFormulas.unpremultiplied(d)
        XCTAssertLessThanOrEqual(maxAbsDifference(SIMD4(u, 0), SIMD4(ud, 0)), 1e-6)
    }

    // MARK: Coverage

    func testWithCoverageInterpolatesFromTheDestination() {
        let white = SIMD4<Float>(1, 1, 1, 1)
        assertClose(BlendFormulas.withCoverage(.copy, source: .zero, destination: white, coverage: 0.25),
                    SIMD4(repeating: 0.75))
        assertClose(BlendFormulas.withCoverage(.multiply, source: grey(0.5), destination: grey(0.5), coverage: 0),
                    grey(0.5))
        assertClose(BlendFormulas.withCoverage(.multiply, source: grey(0.5), destination: grey(0.5), coverage: 1),
                    grey(0.25))
        // Source-over with coverage c equals (c·S) over D: d + c·(S + D(1 − Sa) − D) = c·S + D·(1 − c·Sa).
        let s = SIMD4<Float>(0.2, 0.4, 0.1, 0.5), d = SIMD4<Float>(0.3, 0.3, 0.6, 0.9)
        assertClose(BlendFormulas.withCoverage(.normal, source: s, destination: d, coverage: 0.4),
                    s * 0.4 + d * (1 - 0.4 * s.w))
    }
}

/// The largest channel difference |a − b|.
func maxAbsDifference(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
    let d = a - b
    return max(d.max(), (-d).max())
}

/// A small deterministic generator for test inputs (SplitMix64).
struct FormulaTestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A Float in [0, 1).
    mutating func unit() -> Float { Float(next() >> 40) / Float(1 << 24) }
    /// A Double in [lo, hi).
    mutating func double(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(next() >> 11) / Double(1 << 53) }
}
