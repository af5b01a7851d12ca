import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `Color.Resolved` and `Color.mix`: exact round trips of 8-bit sRGB colours, the mix's endpoints and its
/// handling of bad fractions, and mixed colours drawn with known pixels on the reference and every GLES form.
final class ColorResolvedTests: XCTestCase, ComparesBackends {
    /// A solid colour is exact to 8-bit rounding: one step either side of a value computed in Double.
    static let rounding = 1

    // MARK: Values

    /// Every 8-bit sRGB level survives Color → resolve → Color(resolved) → resolve bit for bit, and its encoded
    /// component reads back as the same level.
    func testResolvedRoundTripsEvery8BitSRGBLevelExactly() {
        let environment = EnvironmentValues()
        for k in 0...255 {
            let r = Double(k) / 255, g = Double(255 - k) / 255, b = Double((k * 7) % 256) / 255
            let resolved = Color(red: r, green: g, blue: b, opacity: Double(k) / 255).resolve(in: environment)
            let again = Color(resolved).resolve(in: environment)
            XCTAssertEqual(again, resolved, "level \(k)")
            XCTAssertEqual(Int((resolved.red * 255).rounded()), k)
            XCTAssertEqual(Int((resolved.green * 255).rounded()), 255 - k)
            XCTAssertEqual(Int((resolved.blue * 255).rounded()), (k * 7) % 256)
            XCTAssertEqual(Int((resolved.opacity * 255).rounded()), k)
            // Built directly from the 8-bit level, too.
            let direct = Color.Resolved(red: Float(k) / 255, green: 0, blue: 0)
            XCTAssertEqual(Int((direct.red * 255).rounded()), k)
            XCTAssertEqual(Color(direct).resolve(in: environment), direct)
        }
        // Named colours resolve to their light-mode levels: red is 255, 59, 48.
        let red = Color.red.resolve(in: environment)
        XCTAssertEqual([red.red, red.green, red.blue].map { Int(($0 * 255).rounded()) }, [255, 59, 48])
        XCTAssertEqual(red.description, "#FF3B30FF")
    }

    /// Mixing by 0 gives this colour and by 1 the other, unchanged (no Oklab round trip in Float); a finite
    /// fraction outside 0…1 is clamped to them.
    func testMixEndpointsAreTheColoursThemselves() {
        let a = Color(.displayP3, red: 0.9, green: 0.2, blue: 0.1, opacity: 0.8), b = Color.teal
        for space in [Gradient.ColorSpace.perceptual, .device] {
            XCTAssertEqual(a.mix(with: b, by: 0, in: space), a)
            XCTAssertEqual(a.mix(with: b, by: 1, in: space), b)
            XCTAssertEqual(a.mix(with: b, by: -3, in: space), a)
            XCTAssertEqual(a.mix(with: b, by: 7, in: space), b)
            XCTAssertEqual(a.mix(with: b, by: -0.0, in: space), a)
        }
        // Just inside the ends the mix is next to them (continuity, not a jump to some other colour).
        let near = a.mix(with: b, by: 1e-6).resolve(in: EnvironmentValues()), start = a.resolve(in: EnvironmentValues())
        XCTAssertEqual(near.linearRed, start.linearRed, accuracy: 1e-4)
        XCTAssertEqual(near.opacity, start.opacity, accuracy: 1e-4)
    }

    /// Opacity mixes straight, as gradient stops do: red mixed with clear by 0.5 in `.device` is sRGB
    /// (0.5, 0, 0) at opacity 0.5 (clear's colour is black).
    func testMixInterpolatesStraightColourAndOpacity() {
        let m = Color(red: 1, green: 0, blue: 0).mix(with: .clear, by: 0.5, in: .device).resolve(in: EnvironmentValues())
        XCTAssertEqual(m.red, 0.5, accuracy: 1e-6)
        XCTAssertEqual(m.green, 0)
        XCTAssertEqual(m.opacity, 0.5)
    }

    // MARK: Pixels

    /// Pure sRGB red (1, 0, 0) mixed with pure blue (0, 0, 1), worked by hand:
    /// - `.device` mixes the sRGB components: by 0.25, (0.75, 0, 0.25) → (191.25, 0, 63.75) → (191, 0, 64); by
    ///   0.5, (0.5, 0, 0.5) → 127.5, which 8-bit rounding may put at 127 or 128 (within `rounding`).
    /// - `.perceptual` mixes in Oklab: red is (L, a, b) = (0.62796, 0.22486, 0.12585), blue (0.45201, −0.03246,
    ///   −0.31153). Halfway: (0.53998, 0.09620, −0.09284); the cube roots of LMS are (0.55808, 0.53576, 0.65128),
    ///   cubed (0.17381, 0.15378, 0.27625), which the LMS → linear sRGB matrix makes (0.26373, 0.08657, 0.36282),
    ///   sRGB-encoded (0.55044, 0.32562, 0.63650) → (140.36, 83.03, 162.31) → (140, 83, 162). A quarter of the
    ///   way: (0.58397, 0.16053, 0.01650) → linear (0.56397, 0.06666, 0.15278) → (197.88, 73.02, 108.95) →
    ///   (198, 73, 109).
    /// Each is a 4 × 4 square on an 8 × 16 canvas, drawn on the reference and every GLES form.
    func testMixedColoursDrawKnownPixelsOnEveryBackend() throws {
        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
        let mixes: [(Color, PixelRGBA8)] = [
            (red.mix(with: blue, by: 0.25, in: .device), PixelRGBA8(r: 191, g: 0, b: 64, a: 255)),
            (red.mix(with: blue, by: 0.5, in: .device), PixelRGBA8(r: 128, g: 0, b: 128, a: 255)),
            (red.mix(with: blue, by: 0.5), PixelRGBA8(r: 140, g: 83, b: 162, a: 255)),
            (red.mix(with: blue, by: 0.25, in: .perceptual), PixelRGBA8(r: 198, g: 73, b: 109, a: 255)),
        ]
        let colours = mixes.map(\.0)
        let img = try render(8, 16) { ctx, _ in
            for (i, c) in colours.enumerated() {
                ctx.fill(Path(CGRect(x: 0, y: CGFloat(4 * i), width: 4, height: 4)), with: .color(c))
                // The same colour resolved and rebuilt, beside it: the same pixels.
                ctx.fill(Path(CGRect(x: 4, y: CGFloat(4 * i), width: 4, height: 4)),
                         with: .style(c.resolve(in: ctx.environment)))
            }
        }
        for (i, (_, expected)) in mixes.enumerated() {
            assertPixel(img, 1, 4 * i + 1, expected)
            XCTAssertEqual(img.pixel(x: 5, y: 4 * i + 1), img.pixel(x: 1, y: 4 * i + 1), "mix \(i)")
        }
    }

    /// A mix at t is the colour a gradient between the same two colours in the same space shows at t: pixel 31 of
    /// a 64-pixel ramp (t = 31.5/64) against a square of the mix, in both spaces.
    func testMixMatchesTheGradientOfTheSameSpace() throws {
        let a = Color.orange, b = Color.indigo, t = 31.5 / 64
        for space in [Gradient.ColorSpace.perceptual, .device] {
            let img = try render(64, 2) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 64, height: 1)),
                         with: .style(LinearGradient(colors: [a, b], startPoint: .leading, endPoint: .trailing).colorSpace(space)))
                ctx.fill(Path(CGRect(x: 0, y: 1, width: 64, height: 1)), with: .color(a.mix(with: b, by: t, in: space)))
            }
            assertPixel(img, 31, 0, img.pixel(x: 31, y: 1))
        }
    }

    /// Every 8-bit level drawn as `Color(resolved)` gives the same bytes as the colour it was resolved from.
    func testColorFromResolvedDrawsTheSameBytes() throws {
        let environment = EnvironmentValues()
        @Sendable func level(_ x: Int) -> Color {
            Color(red: Double(x) / 255, green: Double(255 - x) / 255, blue: Double((x * 3) % 256) / 255)
        }
        let img = try render(256, 2) { ctx, _ in
            for x in 0..<256 {
                ctx.fill(Path(CGRect(x: CGFloat(x), y: 0, width: 1, height: 1)), with: .color(level(x)))
                ctx.fill(Path(CGRect(x: CGFloat(x), y: 1, width: 1, height: 1)),
                         with: .color(Color(level(x).resolve(in: environment))))
            }
        }
        for x in 0..<256 {
            XCTAssertEqual(img.pixel(x: x, y: 0), PixelRGBA8(r: UInt8(x), g: UInt8(255 - x), b: UInt8((x * 3) % 256), a: 255))
            XCTAssertEqual(img.pixel(x: x, y: 1), img.pixel(x: x, y: 0), "level \(x)")
        }
    }

    // MARK: Bad input

    /// Out-of-range components are kept (extended sRGB) and clamped when drawn, as for any `Color`: red 2 and
    /// green −1 draw 255 and 0, blue 0.6 draws 153, opacity 3 draws opaque.
    func testOutOfRangeComponentsDrawClamped() throws {
        let r = Color.Resolved(red: 2, green: -1, blue: 0.6, opacity: 3)
        XCTAssertEqual(r.red, 2, accuracy: 1e-5)
        XCTAssertEqual(r.green, -1, accuracy: 1e-5)
        XCTAssertEqual(r.opacity, 3)
        let img = try render(4, 4) { ctx, size in ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .style(r)) }
        assertPixel(img, 2, 2, PixelRGBA8(r: 255, g: 0, b: 153, a: 255))
    }

    /// A NaN or infinite fraction, or a NaN or infinite component or opacity, makes a colour that is not finite:
    /// the draw using it is skipped with an `invalidNumber` diagnostic and the rest of the frame draws, in every
    /// colour mode and on every backend alike (an infinite component is not clamped to 1 in some modes and
    /// skipped in others); under `.strict` it is the error of that name.
    func testNonFiniteFractionsAndComponentsSkipTheDrawWithADiagnostic() throws {
        let bad: [Color] = [
            Color.red.mix(with: .blue, by: .nan), Color.red.mix(with: .blue, by: .infinity, in: .device),
            Color.red.mix(with: .blue, by: -.infinity), Color(Color.Resolved(red: .nan, green: 0, blue: 0)),
            Color(Color.Resolved(red: 0, green: .infinity, blue: 0)),
            Color.red.mix(with: Color(Color.Resolved(red: 0, green: .infinity, blue: 0)), by: 0.5, in: .device),
            Color(red: 0.5, green: 0, blue: 0, opacity: .infinity),
        ]
        for c in bad {
            let resolved = c.resolve(in: EnvironmentValues())
            XCTAssertFalse([resolved.linearRed, resolved.linearGreen, resolved.linearBlue, resolved.opacity].allSatisfy(\.isFinite), "\(c)")
        }
        func recording(_ mode: ColorRenderingMode) -> Recording {
            Recording(size: CGSize(width: 8, height: 4), colorMode: mode) { ctx, _ in
                for (i, c) in bad.enumerated() {
                    ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(c))
                    if i == 0 { ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.black)) }
                }
            }
        }
        var reports: [RenderReport] = []
        for policy in [DiagnosticsPolicy.lenient, .strict] {
            var backends = [("reference", try SharedRenderers.renderer(.reference, policy: policy))]
            for (form, options) in BackendComparison.glesForms {
                backends.append((form, try SharedRenderers.renderer(.gles(options), policy: policy)))
            }
            for mode in ColorRenderingMode.allCases {
                for (backend, r) in backends {
                    if policy == .strict {
                        XCTAssertThrowsError(try r.render(recording(mode)), backend) { error in
                            XCTAssertEqual("\(error)", "invalid geometry: draw #0: paint rgba(nan, nan, nan, nan) is not finite",
                                           "\(mode) \(backend)")
                        }
                        continue
                    }
                    let (img, report) = try r.renderWithReport(recording(mode))
                    XCTAssertEqual(img.pixel(x: 1, y: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(mode) \(backend)")
                    XCTAssertEqual(img.pixel(x: 6, y: 1).a, 0, "\(mode) \(backend)")
                    XCTAssertEqual(report.diagnostics.count, bad.count, "\(mode) \(backend): \(report)")
                    XCTAssertTrue(report.diagnostics.allSatisfy { $0.kind == .invalidNumber }, "\(backend): \(report)")
                    reports.append(report)
                }
            }
        }
        XCTAssertTrue(reports.allSatisfy { $0 == reports[0] }, "\(reports)")
        // Draw numbers: the black square is #1, so the bad draws are #0, #2, #3, ….
        XCTAssertEqual(reports.first?.diagnostics.map(\.description), [
            "invalid geometry: draw #0: paint rgba(nan, nan, nan, nan) is not finite",
            "invalid geometry: draw #2: paint rgba(nan, nan, nan, nan) is not finite",
            "invalid geometry: draw #3: paint rgba(nan, nan, nan, nan) is not finite",
            "invalid geometry: draw #4: paint rgba(nan, 0, 0, 1) is not finite",
            "invalid geometry: draw #5: paint rgba(0, inf, 0, 1) is not finite",
            // Color.red (1, 59/255, 48/255) and (0, ∞, 0) mixed halfway in sRGB: (0.5, ∞, 0.0941), in linear light
            // (0.214, ∞, 0.009134): the paint shows the colour's own components when one is not finite.
            "invalid geometry: draw #6: paint rgba(0.214, inf, 0.009134, 1) is not finite",
            "invalid geometry: draw #7: paint rgba(0.5, 0, 0, inf) is not finite",
        ])
    }

    /// A gradient stop whose colour has an infinite component skips the draw in every colour mode, as a NaN one
    /// does (it is not clamped to 1).
    func testInfiniteGradientStopColourSkipsTheDraw() throws {
        let stop = Color(Color.Resolved(red: 0, green: .infinity, blue: 0))
        for mode in ColorRenderingMode.allCases {
            let recording = Recording(size: CGSize(width: 8, height: 4), colorMode: mode) { ctx, size in
                ctx.fill(Path(CGRect(origin: .zero, size: size)),
                         with: .linearGradient(Gradient(colors: [.red, stop]), startPoint: .zero, endPoint: CGPoint(x: 8, y: 0)))
            }
            for (backend, r) in [("reference", try SharedRenderers.renderer(.reference, policy: .lenient)),
                                 ("gles", try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa)), policy: .lenient))] {
                let (img, report) = try r.renderWithReport(recording)
                XCTAssertEqual(img.pixel(x: 4, y: 2).a, 0, "\(mode) \(backend)")
                XCTAssertEqual(report.diagnostics.map(\.description),
                               ["invalid geometry: draw #0: gradient stop 1 colour \(stop) is not finite"], "\(mode) \(backend)")
            }
        }
    }
}
