import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Rendered pixels of the GLES backend against analytic answers, for both path strategies, on llvmpipe
/// (pinned with `.mesa` so the numbers are reproducible).
final class GLESRenderTests: XCTestCase {
    /// One 8-bit step: the coverage → byte rounding of an exact answer may land on either side of a half.
    static let roundingTolerance = 1

    static func renderer(_ strategy: PathStrategyKind) throws -> CanvasRenderer {
        try CanvasRenderer.strict(backend: .gles(GLESOptions(device: .mesa, pathStrategy: strategy)))
    }

    func forEachStrategy(_ body: (CanvasRenderer, PathStrategyKind) throws -> Void) throws {
        for s in PathStrategyKind.allCases {
            try body(try Self.renderer(s), s)
        }
    }

    func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: PixelRGBA8, tolerance: Int = 0,
                     _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(expected.r)), abs(Int(p.g) - Int(expected.g)),
                    abs(Int(p.b) - Int(expected.b)), abs(Int(p.a) - Int(expected.a)))
        XCTAssertLessThanOrEqual(d, tolerance, "pixel (\(x), \(y)) = \(p), expected \(expected) \(message)",
                                 file: file, line: line)
    }

    func testPixelAlignedRectangleIsExact() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 16, height: 12)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 2, y: 3, width: 10, height: 6)), with: .color(.red))
            }
            let red = PixelRGBA8(r: 255, g: 59, b: 48, a: 255)
            let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
            for y in 0 ..< 12 {
                for x in 0 ..< 16 {
                    let inside = x >= 2 && x < 12 && y >= 3 && y < 9
                    assertPixel(img, x, y, inside ? red : clear, "\(s)")
                }
            }
        }
    }
}

extension GLESRenderTests {
    /// A rectangle from x = 2.5: the left column is half covered, alpha 127.5 → 128 (either side allowed).
    func testHalfPixelEdgeHasHalfCoverage() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 8, height: 4)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 2.5, y: 0, width: 3, height: 4)), with: .color(.black))
            }
            for y in 0 ..< 4 {
                assertPixel(img, 1, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
                assertPixel(img, 2, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 128), tolerance: Self.roundingTolerance, "\(s)")
                assertPixel(img, 3, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
                assertPixel(img, 5, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 128), tolerance: Self.roundingTolerance, "\(s)")
                assertPixel(img, 6, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            }
        }
    }

    /// The triangle (0,0) (1,0) (0,1) covers exactly half of pixel (0, 0); (0,0) (2,0) (0,2) covers pixel
    /// (0,0) fully, (1,0) and (0,1) by half.
    func testDiagonalEdgeAreas() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                var p = Path()
                p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 2, y: 0)); p.addLine(to: CGPoint(x: 0, y: 2))
                p.closeSubpath()
                ctx.fill(p, with: .color(.white))
            }
            assertPixel(img, 0, 0, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
            assertPixel(img, 1, 0, PixelRGBA8(r: 128, g: 128, b: 128, a: 128), tolerance: Self.roundingTolerance, "\(s)")
            assertPixel(img, 0, 1, PixelRGBA8(r: 128, g: 128, b: 128, a: 128), tolerance: Self.roundingTolerance, "\(s)")
            assertPixel(img, 1, 1, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
        }
    }

    /// A square inside a square, same direction: non-zero fills both, even-odd leaves the inner one empty.
    func testFillRules() throws {
        var p = Path()
        p.addRect(CGRect(x: 1, y: 1, width: 10, height: 10))
        p.addRect(CGRect(x: 4, y: 4, width: 4, height: 4))
        try forEachStrategy { r, s in
            for eo in [false, true] {
                let img = try r.render(size: CGSize(width: 12, height: 12)) { ctx, _ in
                    ctx.fill(p, with: .color(.black), style: FillStyle(eoFill: eo))
                }
                assertPixel(img, 2, 2, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s) eo \(eo)")
                assertPixel(img, 5, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: eo ? 0 : 255), "\(s) eo \(eo)")
                assertPixel(img, 0, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s) eo \(eo)")
            }
        }
    }

    /// `antialiased: false` samples pixel centres: x from 2.3 to 5.7 holds the centres 2.5 … 5.5; a centre
    /// exactly on the left edge (x = 7.5) is inside, one on the right edge (x = 9.5) is not.
    func testAliasedFillSamplesPixelCentres() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 12, height: 3)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 2.3, y: 0.5, width: 3.4, height: 2)), with: .color(.black),
                         style: FillStyle(antialiased: false))
                ctx.fill(Path(CGRect(x: 7.5, y: 0, width: 2, height: 3)), with: .color(.black),
                         style: FillStyle(antialiased: false))
            }
            let expectedRow1 = [0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0]
            for x in 0 ..< 12 {
                assertPixel(img, x, 1, PixelRGBA8(r: 0, g: 0, b: 0, a: expectedRow1[x] == 1 ? 255 : 0), "\(s)")
            }
            // Row 0's centre 0.5 is on the top edge of the first rectangle: inside (half-open at the bottom).
            assertPixel(img, 3, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            // Row 2's centre 2.5 is on its bottom edge: outside.
            assertPixel(img, 3, 2, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
        }
    }

    /// Coverage sums to the area: a circle of radius 20 has π·400 px² of alpha.
    func testCircleAreaIsExact() throws {
        // Flattening (chord error ≤ 0.05 px over the perimeter) and byte rounding (≤ 0.5/255 per edge pixel)
        // bound the difference: 2π·20·0.05 px² from chords plus ~250 edge pixels × 0.002.
        let tolerance = chordAreaR20 + 0.5
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 50, height: 50)) { ctx, _ in
                ctx.fill(Path(ellipseIn: CGRect(x: 5.25, y: 4.5, width: 40, height: 40)), with: .color(.black))
            }
            var sum = 0.0
            for i in stride(from: 3, to: img.pixels.count, by: 4) { sum += Double(img.pixels[i]) / 255 }
            XCTAssertEqual(sum, Double.pi * 400, accuracy: tolerance, "\(s)")
        }
    }

    /// Translucent draws composite source-over: 50 % black over 50 % black → alpha 191.25 → 191.
    func testOpacityAndSourceOver() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                var c = ctx
                c.opacity = 0.5
                c.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.black))
                c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)), with: .color(.black))
            }
            assertPixel(img, 3, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 128), tolerance: Self.roundingTolerance, "\(s)")
            assertPixel(img, 0, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 191), tolerance: Self.roundingTolerance, "\(s)")
        }
    }

    /// An opaque canvas starts from opaque black and stays opaque.
    func testOpaqueCanvasStartsBlack() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 4, height: 4), opaque: true) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)), with: .color(.white.opacity(0.5)))
            }
            assertPixel(img, 3, 3, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            assertPixel(img, 0, 0, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), tolerance: Self.roundingTolerance, "\(s)")
        }
    }

    /// Scale and transform reach device space: a 2×2 pt square at scale 3, translated by (1, 1) pt, covers
    /// device pixels 3 ..< 9.
    func testScaleAndTransform() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 4, height: 4), scale: 3) { ctx, _ in
                var c = ctx
                c.translateBy(x: 1, y: 1)
                c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.black))
            }
            XCTAssertEqual(img.width, 12)
            for x in 0 ..< 12 {
                assertPixel(img, x, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: x >= 3 && x < 9 ? 255 : 0), "\(s)")
            }
        }
    }

    /// Coordinates of 10⁹ are clipped, not rasterized: the square covers the whole canvas.
    func testHugeCoordinatesAreClipped() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 8, height: 8)) { ctx, _ in
                ctx.fill(Path(CGRect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)), with: .color(.black))
                var p = Path()  // a sliver triangle reaching 10⁹ px to the right, covering row 6 from x = 4
                p.move(to: CGPoint(x: 4, y: 6)); p.addLine(to: CGPoint(x: 1e9, y: 6)); p.addLine(to: CGPoint(x: 1e9, y: 7))
                p.addLine(to: CGPoint(x: 4, y: 7)); p.closeSubpath()
                ctx.fill(p, with: .color(.white))
            }
            assertPixel(img, 0, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            assertPixel(img, 7, 7, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            assertPixel(img, 3, 6, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            assertPixel(img, 4, 6, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
            assertPixel(img, 7, 6, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
        }
    }

    /// Coordinates up to ±1e308 (whose differences overflow a Double) are clipped without overflowing. The
    /// triangle (−1e308, 1e308) (0, −1e308) (10, 10), seen from a 32 × 32 canvas: its first edge lies far left
    /// of it everywhere, the second is the line x = 10 above y = 10 and the third the line x = 20 − y below
    /// it. So rows 0…9 are covered on columns 0…9, row y of 10…19 on columns 0…18 − y and half of column
    /// 19 − y, nothing else: 100 + 45 + 10 · ½ = 150 pixels' worth.
    func testCoordinatesNearTheDoubleLimitAreClipped() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 32, height: 32)) { ctx, _ in
                var p = Path()
                p.move(to: CGPoint(x: -1e308, y: 1e308)); p.addLine(to: CGPoint(x: 0, y: -1e308))
                p.addLine(to: CGPoint(x: 10, y: 10)); p.closeSubpath()
                ctx.fill(p, with: .color(.white))
            }
            assertPixel(img, 0, 0, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
            assertPixel(img, 9, 9, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
            assertPixel(img, 10, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            assertPixel(img, 12, 7, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            // Row 14: the diagonal crosses column 5 from x = 6 to x = 5.
            assertPixel(img, 4, 14, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "\(s)")
            assertPixel(img, 5, 14, PixelRGBA8(r: 128, g: 128, b: 128, a: 128), tolerance: Self.roundingTolerance, "\(s)")
            assertPixel(img, 6, 14, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            assertPixel(img, 5, 15, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            assertPixel(img, 0, 25, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), "\(s)")
            var alpha = 0
            for y in 0 ..< 32 { for x in 0 ..< 32 { alpha += Int(img.pixel(x: x, y: y).a) } }
            // 150 pixels at 255, give or take one rounding step on each of the 10 half-covered pixels.
            XCTAssertEqual(Double(alpha) / 255, 150, accuracy: 10.0 / 255, "\(s)")
        }
    }

    /// A path bigger than an atlas piece (1024 px) is cut into pieces that meet without seams.
    func testLargePathIsCutIntoSeamlessPieces() throws {
        try forEachStrategy { r, s in
            let img = try r.render(size: CGSize(width: 2100, height: 1100)) { ctx, _ in
                ctx.fill(Path(ellipseIn: CGRect(x: -50, y: -50, width: 2200, height: 1200)), with: .color(.black))
            }
            // Piece borders at x = 1024, 2048 and y = 1024: the ellipse covers them fully.
            for (x, y) in [(1023, 500), (1024, 500), (2047, 550), (2048, 550), (1000, 1023), (1000, 1024)] {
                assertPixel(img, x, y, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(s)")
            }
            XCTAssertEqual(img.pixel(x: 0, y: 0).a, 0, "\(s): the corner lies outside the ellipse")
        }
    }

    /// Non-finite input is an error naming the draw, not a picture.
    func testNonFiniteGeometryIsAnError() throws {
        try forEachStrategy { r, s in
            XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.black))
                ctx.fill(Path(CGRect(x: 0, y: CGFloat.nan, width: 1, height: 1)), with: .color(.black))
            }) { error in
                guard case RenderError.invalidGeometry(let text) = error else { return XCTFail("\(s): \(error)") }
                XCTAssertTrue(text.hasPrefix("draw #1:"), text)
            }
            XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                var c = ctx
                c.scaleBy(x: 1e300, y: 1e300)
                c.scaleBy(x: 1e300, y: 1e300)
                c.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.black))
            }) { error in
                guard case RenderError.invalidGeometry = error else { return XCTFail("\(s): \(error)") }
            }
        }
    }

    /// A blend mode raw value outside CoreGraphics' 28 is a clear error, not a guess.
    func testUnknownBlendModeIsAnError() throws {
        let r = try Self.renderer(.rasterAtlas)
        XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
            var c = ctx
            c.blendMode = GraphicsContext.BlendMode(rawValue: 99)
            c.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.black))
        }) { error in
            guard case RenderError.invalidGeometry(let text) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(text.contains("blend mode raw value 99"), text)
        }
    }

    /// The R16F and R32F coverage atlases give the same picture as R8 within one step, for draws that do
    /// not overlap (overlapping translucent draws carry one draw's rounding into the next).
    func testCoverageFormatsAgree() throws {
        let scene: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            for i in 0 ..< 20 {
                let t = Double(i)
                ctx.fill(Path(ellipseIn: CGRect(x: 1.3 + Double(i % 5) * 15.7, y: 0.6 + Double(i / 5) * 14.9,
                                                width: 9 + t * 0.3, height: 12.5 - t * 0.2)),
                         with: .color(Color(hue: t / 20, saturation: 0.8, brightness: 0.9, opacity: 0.6)))
            }
        }
        let base = try Self.renderer(.rasterAtlas).render(size: CGSize(width: 80, height: 60), scene)
        for f in [GLESOptions.CoverageFormat.r16f, .r32f] {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, coverageFormat: f)))
            let img = try r.render(size: CGSize(width: 80, height: 60), scene)
            var maxDiff = 0
            for i in img.pixels.indices { maxDiff = max(maxDiff, abs(Int(img.pixels[i]) - Int(base.pixels[i]))) }
            XCTAssertLessThanOrEqual(maxDiff, Self.roundingTolerance, "\(f)")
        }
    }
}

/// Chord error area of a flattened circle of radius 20: perimeter × tolerance.
private let chordAreaR20 = 2 * Double.pi * 20 * 0.05

// MARK: - Against the reference renderer

/// Scenes rendered by both backends and compared on RGBA8 premultiplied pixels with docs/DESIGN-NOTES.md's bar.
final class GLESReferenceComparisonTests: XCTestCase {
    /// docs/DESIGN-NOTES.md's default bar: at most 0.1 % of pixels with a channel off by more than 2 …
    static let maxOver2Fraction = 0.001
    /// … and no channel off by more than 8.
    static let maxChannelDiff = 8

    /// Renders `recording` with the reference and both GLES strategies and checks the bar.
    func compare(_ name: String, _ recording: Recording, scale: CGFloat = 1,
                 file: StaticString = #filePath, line: UInt = #line) throws {
        let reference = try CanvasRenderer(backend: .reference).render(recording, scale: scale)
        for s in PathStrategyKind.allCases {
            let gl = try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa, pathStrategy: s)), policy: .lenient).render(recording, scale: scale)
            let d = gl.difference(from: reference)
            XCTAssertTrue(d.sameSize, "\(name) \(s): sizes differ", file: file, line: line)
            XCTAssertLessThanOrEqual(d.maxDiff, Self.maxChannelDiff, "\(name) \(s): maxDiff", file: file, line: line)
            XCTAssertLessThanOrEqual(d.over2, Self.maxOver2Fraction, "\(name) \(s): over2 \(d.over2)", file: file, line: line)
        }
    }

    /// A deterministic generator (the scenes must not change between runs).
    struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
    }

    /// A 5-point star of cubic segments whose controls bulge sideways (self-intersecting at times).
    static func star(_ rng: inout LCG, cx: Double, cy: Double, r: Double) -> Path {
        var pts: [CGPoint] = []
        let rot = rng.range(0, 2 * .pi), inner = r * rng.range(0.35, 0.6)
        for k in 0 ..< 10 {
            let a = rot + Double(k) * .pi / 5, rad = k % 2 == 0 ? r : inner
            pts.append(CGPoint(x: cx + rad * cos(a), y: cy + rad * sin(a)))
        }
        var p = Path()
        p.move(to: pts[0])
        for k in 0 ..< 10 {
            let a = pts[k], b = pts[(k + 1) % 10]
            let dx = b.x - a.x, dy = b.y - a.y
            let b1 = rng.range(-0.3, 0.3), b2 = rng.range(-0.3, 0.3)
            p.addCurve(to: b, control1: CGPoint(x: a.x + dx / 3 - dy * b1, y: a.y + dy / 3 + dx * b1),
                       control2: CGPoint(x: a.x + 2 * dx / 3 - dy * b2, y: a.y + 2 * dy / 3 + dx * b2))
        }
        p.closeSubpath()
        return p
    }

    static func shapes(count: Int, size: CGSize, seed: UInt64, maxRadius: Double, eoFill: Bool = false,
                       antialiased: Bool = true) -> Recording {
        Recording(size: size) { ctx, size in
            var rng = LCG(state: seed)
            for _ in 0 ..< count {
                let cx = rng.range(-10, size.width + 10), cy = rng.range(-10, size.height + 10)
                let color = Color(red: rng.next(), green: rng.next(), blue: rng.next(), opacity: rng.range(0.5, 1))
                let style = FillStyle(eoFill: eoFill, antialiased: antialiased)
                switch Int(rng.next() * 3) {
                case 0:
                    let rx = rng.range(2, maxRadius), ry = rng.next() < 0.5 ? rx : rng.range(2, maxRadius)
                    ctx.fill(Path(ellipseIn: CGRect(x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry)), with: .color(color), style: style)
                case 1:
                    let w = rng.range(3, 2 * maxRadius), h = rng.range(3, 2 * maxRadius)
                    ctx.fill(Path(roundedRect: CGRect(x: cx - w / 2, y: cy - h / 2, width: w, height: h),
                                  cornerRadius: rng.range(1, min(w, h) / 2)), with: .color(color), style: style)
                default:
                    ctx.fill(star(&rng, cx: cx, cy: cy, r: rng.range(4, maxRadius)), with: .color(color), style: style)
                }
            }
        }
    }

    func testTranslucentShapes() throws {
        try compare("shapes", Self.shapes(count: 300, size: CGSize(width: 256, height: 256), seed: 1, maxRadius: 40))
    }

    func testEvenOddStars() throws {
        try compare("even-odd", Self.shapes(count: 120, size: CGSize(width: 200, height: 160), seed: 2, maxRadius: 50, eoFill: true))
    }

    func testAliasedShapes() throws {
        try compare("aliased", Self.shapes(count: 150, size: CGSize(width: 200, height: 160), seed: 3, maxRadius: 30, antialiased: false))
    }

    func testScaledAndRotated() throws {
        let rec = Recording(size: CGSize(width: 120, height: 90)) { ctx, _ in
            var c = ctx
            c.translateBy(x: 60, y: 45)
            c.rotate(by: .degrees(27))
            c.scaleBy(x: 1.3, y: 0.7)
            var rng = LCG(state: 9)
            for _ in 0 ..< 40 {
                c.fill(Self.star(&rng, cx: rng.range(-50, 50), cy: rng.range(-40, 40), r: rng.range(3, 25)),
                       with: .color(Color(hue: rng.next(), saturation: 0.7, brightness: 0.8, opacity: 0.7)))
            }
        }
        try compare("rotated ×2", rec, scale: 2)
    }

    func testStrokes() throws {
        let rec = Recording(size: CGSize(width: 220, height: 180)) { ctx, size in
            var rng = LCG(state: 4)
            for i in 0 ..< 80 {
                var p = Path()
                var x = rng.range(0, size.width), y = rng.range(0, size.height)
                p.move(to: CGPoint(x: x, y: y))
                for _ in 0 ..< 2 {
                    let c1 = CGPoint(x: x + rng.range(-40, 40), y: y + rng.range(-40, 40))
                    let c2 = CGPoint(x: x + rng.range(-40, 40), y: y + rng.range(-40, 40))
                    x += rng.range(-40, 40); y += rng.range(-40, 40)
                    p.addCurve(to: CGPoint(x: x, y: y), control1: c1, control2: c2)
                }
                let round = i % 2 == 0
                let style = StrokeStyle(lineWidth: rng.range(0.5, 12), lineCap: round ? .round : .butt,
                                        lineJoin: round ? .round : .miter, miterLimit: 4,
                                        dash: i % 10 == 0 ? [10, 5] : [])
                ctx.stroke(p, with: .color(Color(red: rng.next(), green: rng.next(), blue: rng.next(), opacity: rng.range(0.5, 1))),
                           style: style)
            }
        }
        try compare("strokes", rec)
    }

    /// Paths larger than an atlas piece, reaching far off the canvas.
    func testLargeAndOffCanvasPaths() throws {
        let rec = Recording(size: CGSize(width: 1100, height: 300)) { ctx, _ in
            ctx.fill(Path(ellipseIn: CGRect(x: -300, y: -200, width: 1800, height: 700)), with: .color(.blue.opacity(0.6)))
            var p = Path()
            p.move(to: CGPoint(x: -1e6, y: 150)); p.addLine(to: CGPoint(x: 1e6, y: 10)); p.addLine(to: CGPoint(x: 1e6, y: 290))
            p.closeSubpath()
            ctx.fill(p, with: .color(.orange.opacity(0.5)))
            var rng = LCG(state: 5)
            ctx.fill(Self.star(&rng, cx: 550, cy: 150, r: 700), with: .color(.green.opacity(0.5)), style: FillStyle(eoFill: true))
        }
        try compare("large", rec)
    }

    /// A stroke whose path retraces one triangle thousands of times piles thousands of area deposits into
    /// each edge cell: the raster atlas's sums must stay as exact as the reference's (in single precision
    /// they drifted by up to 49 levels at 5000 copies, with grey streaks to the right edge).
    func testSelfRetracingStroke() throws {
        let rec = Recording(size: CGSize(width: 128, height: 128)) { ctx, _ in
            var p = Path()
            for _ in 0 ..< 5000 {
                p.move(to: CGPoint(x: 10, y: 10)); p.addLine(to: CGPoint(x: 100, y: 100))
                p.addLine(to: CGPoint(x: 10, y: 100)); p.closeSubpath()
            }
            ctx.stroke(p, with: .color(.black), lineWidth: 3)
        }
        try compare("retraced", rec)
    }

    /// Edges with ends far beyond the canvas (10¹⁹…10³⁰⁸ px), where the textbook cut a0 + t·(a1 − a0)
    /// overflows or, taken from the far end, rounds the part on the canvas away: a nearly horizontal edge
    /// from 10²⁰ px, a line through the canvas with both ends 10³⁰⁰ px away (anti-aliased and not), a curve
    /// with 10²² px control points, a stroke joining at 10¹⁹ px.
    func testEdgesWithFarEnds() throws {
        let rec = Recording(size: CGSize(width: 128, height: 128)) { ctx, _ in
            func poly(_ pts: [(Double, Double)]) -> Path {
                var p = Path()
                p.move(to: CGPoint(x: pts[0].0, y: pts[0].1))
                for q in pts.dropFirst() { p.addLine(to: CGPoint(x: q.0, y: q.1)) }
                p.closeSubpath()
                return p
            }
            ctx.fill(poly([(1e20, 100), (40, 30), (64, 100)]), with: .color(.blue.opacity(0.6)))
            ctx.fill(poly([(-1e300, -2e300), (1e300, 2e300), (1e300, -2e300)]), with: .color(.red.opacity(0.5)))
            ctx.fill(poly([(-1e300, -1e300), (1e300, 1e300 + 1e290), (1e300, -2e300)]), with: .color(.green.opacity(0.5)),
                     style: FillStyle(antialiased: false))
            var c = Path()
            c.move(to: .zero)
            c.addCurve(to: CGPoint(x: 128, y: 128), control1: CGPoint(x: 1e22, y: -1e22), control2: CGPoint(x: -1e22, y: 1e22))
            c.closeSubpath()
            ctx.fill(c, with: .color(.black.opacity(0.3)))
            var s = Path()
            s.move(to: CGPoint(x: 10, y: 10)); s.addLine(to: CGPoint(x: 1e19, y: 64)); s.addLine(to: CGPoint(x: 10, y: 120))
            ctx.stroke(s, with: .color(.orange), style: StrokeStyle(lineWidth: 6, lineJoin: .bevel))
        }
        try compare("far ends", rec)
    }

    /// Strokes whose segments run ±10³⁰⁸ px (their length overflows, and a few pixels of pen next to 10³⁰⁸
    /// are lost to rounding): the stroker cuts far-reaching segments to the canvas grown by the pen's reach
    /// before offsetting. A 45° line 9 wide across a 128² canvas covers the band |x − y| ≤ 4.5·√2:
    /// 128² − (128 − 4.5·√2)² ≈ 1588.7 pixels.
    func testStrokesWithEndsAtTheDoubleLimit() throws {
        let diagonal = Recording(size: CGSize(width: 128, height: 128)) { ctx, _ in
            var p = Path()
            p.move(to: CGPoint(x: -1e308, y: -1e308)); p.addLine(to: CGPoint(x: 1e308, y: 1e308))
            ctx.stroke(p, with: .color(.black), style: StrokeStyle(lineWidth: 9, lineCap: .round))
        }
        let reference = try CanvasRenderer(backend: .reference).render(diagonal, scale: 1)
        var alpha = 0
        for y in 0 ..< 128 { for x in 0 ..< 128 { alpha += Int(reference.pixel(x: x, y: y).a) } }
        let exact = 128.0 * 128 - pow(128 - 4.5 * 2.0.squareRoot(), 2)
        // Each of the ~2 · 128 edge pixels may round half a step either way.
        XCTAssertEqual(Double(alpha) / 255, exact, accuracy: 256 * 0.5 / 255)
        try compare("diagonal at 1e308", diagonal)
        let joined = Recording(size: CGSize(width: 128, height: 128)) { ctx, _ in
            var p = Path()
            p.move(to: CGPoint(x: -1e20, y: 120)); p.addLine(to: CGPoint(x: 1e20, y: -1e20))
            p.addLine(to: CGPoint(x: 64, y: 64)); p.closeSubpath()
            ctx.stroke(p, with: .color(.red), style: StrokeStyle(lineWidth: 5, lineJoin: .round))
            var q = Path()
            q.move(to: CGPoint(x: -1e308, y: 100)); q.addLine(to: CGPoint(x: 1e308, y: 100))
            ctx.stroke(q, with: .color(.blue.opacity(0.5)), lineWidth: 3)
        }
        try compare("far joins", joined)
    }

    func testOpaqueCanvas() throws {
        let inner = Self.shapes(count: 60, size: CGSize(width: 100, height: 80), seed: 6, maxRadius: 20)
        var rec = inner
        rec.isOpaque = true
        try compare("opaque", rec)
    }
}
