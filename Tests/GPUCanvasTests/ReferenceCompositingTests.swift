import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The reference backend's compositing (paint × coverage × opacity, source-over into RGBA8 with one rounding
/// per draw), transforms and scale, opaque canvases, validation errors and determinism.
///
/// Expected bytes are worked out by hand in the comments: premultiplied source s = paint × coverage ×
/// opacity, result = s + d·(1 − s.a) with d the stored byte / 255, stored as round(255 × result). The values
/// are chosen at least 0.1 of a step away from a rounding tie, so Float arithmetic cannot flip them.
final class ReferenceCompositingTests: XCTestCase {
    func render(_ w: CGFloat, _ h: CGFloat, scale: CGFloat = 1, opaque: Bool = false,
                _ draw: (inout GraphicsContext, CGSize) -> Void) throws -> RasterImage {
        try CanvasRenderer.strict(backend: .reference).render(size: CGSize(width: w, height: h), scale: scale,
                                                       opaque: opaque, draw)
    }

    func px(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> PixelRGBA8 { PixelRGBA8(r: r, g: g, b: b, a: a) }

    // MARK: Compositing

    func testOverlappingTranslucentShapesMatchHandComputation() throws {
        let img = try render(10, 4) { ctx, _ in
            var c = ctx
            c.opacity = 0.6
            c.fill(Path(CGRect(x: 0, y: 0, width: 6, height: 4)), with: .color(red: 1, green: 0.2, blue: 0))
            ctx.fill(Path(CGRect(x: 4, y: 0, width: 6, height: 4)),
                     with: .color(red: 0, green: 0.4, blue: 0.9, opacity: 0.8))
        }
        // First only: s = (0.6, 0.12, 0, 0.6) → (153, 30.6, 0, 153) → (153, 31, 0, 153).
        XCTAssertEqual(img.pixel(x: 1, y: 1), px(153, 31, 0, 153))
        // Second only: s = (0, 0.32, 0.72, 0.8) → (0, 81.6, 183.6, 204) → (0, 82, 184, 204).
        XCTAssertEqual(img.pixel(x: 8, y: 2), px(0, 82, 184, 204))
        // Both: d = (153, 31, 0, 153)/255, 1 − s.a = 0.2:
        //   r = 0.6·0.2 = 0.12 → 30.6 → 31
        //   g = 0.32 + (31/255)·0.2 = 0.344314 → 87.8 → 88
        //   b = 0.72 → 183.6 → 184
        //   a = 0.8 + 0.6·0.2 = 0.92 → 234.6 → 235
        XCTAssertEqual(img.pixel(x: 5, y: 3), px(31, 88, 184, 235))
    }

    func testEachDrawIsStoredInEightBits() throws {
        // n draws of white at 3 % opacity. The source is rounded to the framebuffer's 8 bits first, as a
        // fixed-point blender takes it: 7.65 → 8, so s.a = 8/255 and each draw stores round(8 + d·247/255):
        //   0 → 8 → 15.75 → 16 → 23.5 → 23 → 30.28 → 30 → 37.06 → 37 → 43.84 → 44 → 50.62 → 51 → 57.4 → 57 …
        // An unrounded accumulation would give 255·(1 − 0.97⁶) = 42.38 → 42 after six draws, not 44.
        let expected: [UInt8] = [8, 16, 23, 30, 37, 44, 51, 57, 63, 69]
        for (i, v) in expected.enumerated() {
            let img = try render(2, 2) { ctx, _ in
                ctx.opacity = 0.03
                for _ in 0 ... i { ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.white)) }
            }
            XCTAssertEqual(img.pixel(x: 1, y: 1), px(v, v, v, v), "after \(i + 1) draws")
        }
    }

    func testOpacityMultipliesCoverage() throws {
        let img = try render(4, 2) { ctx, _ in
            ctx.opacity = 0.4
            // x 0…3.3: pixels 0–2 full, pixel 3 covered 0.3.
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 3.3, height: 2)), with: .color(.white))
        }
        XCTAssertEqual(img.pixel(x: 0, y: 0), px(102, 102, 102, 102))  // 0.4 · 255
        XCTAssertEqual(img.pixel(x: 3, y: 1), px(31, 31, 31, 31))      // 0.3 · 0.4 · 255 = 30.6
    }

    func testOpaqueCanvasStartsBlackAndOutputsFullAlpha() throws {
        let img = try render(4, 2, opaque: true) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.white.opacity(0.4)))
            ctx.fill(Path(CGRect(x: 2, y: 0, width: 1, height: 2)), with: .color(.red.opacity(0.4)))
        }
        XCTAssertEqual(img.pixel(x: 0, y: 0), px(102, 102, 102, 255))   // 0.4 over black
        // Color.red = (255, 59, 48): 0.4 × (255, 59, 48) = (102, 23.6, 19.2) over black.
        XCTAssertEqual(img.pixel(x: 2, y: 1), px(102, 24, 19, 255))
        XCTAssertEqual(img.pixel(x: 3, y: 0), px(0, 0, 0, 255))          // untouched: opaque black
        let clear = try render(4, 2) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.white.opacity(0.4)))
        }
        XCTAssertEqual(clear.pixel(x: 0, y: 0), px(102, 102, 102, 102))
        XCTAssertEqual(clear.pixel(x: 3, y: 0), px(0, 0, 0, 0))
    }

    // MARK: Transforms and scale

    func testRotationGivesExactPixelAreas() throws {
        let centre = CGPoint(x: 32.3, y: 31.7), angle = 30 * Double.pi / 180
        let img = try render(64, 64) { ctx, _ in
            ctx.translateBy(x: centre.x, y: centre.y)
            ctx.rotate(by: .degrees(30))
            ctx.fill(Path(CGRect(x: -10, y: -10, width: 20, height: 20)), with: .color(.white))
        }
        // The corners rotated by hand: (x cos θ − y sin θ, x sin θ + y cos θ) + centre.
        let corners = [(-10.0, -10.0), (10, -10), (10, 10), (-10, 10)].map { x, y in
            CGPoint(x: centre.x + x * cos(angle) - y * sin(angle), y: centre.y + x * sin(angle) + y * cos(angle))
        }
        assertExact(img, corners)
    }

    func testNonUniformScaleGivesExactPixelAreas() throws {
        let img = try render(12, 10) { ctx, _ in
            ctx.scaleBy(x: 2.5, y: 0.75)
            ctx.fill(Path(CGRect(x: 1.1, y: 2.2, width: 3, height: 8)), with: .color(.white))
        }
        // x 2.75…10.25, y 1.65…7.65.
        assertExact(img, rect(2.75, 1.65, 10.25, 7.65))
    }

    func testScaleFactorTwoDoublesTheDeviceGeometry() throws {
        let img = try render(5, 3, scale: 2) { ctx, _ in
            ctx.fill(Path(CGRect(x: 1.25, y: 0.75, width: 2.5, height: 1.6)), with: .color(.white))
        }
        XCTAssertEqual(img.width, 10)
        XCTAssertEqual(img.height, 6)
        assertExact(img, rect(2.5, 1.5, 7.5, 4.7))
        // 7 pt × 1.5 = 10.5 px: the pixel grid is rounded up, the last column partly inside the canvas.
        let odd = try render(7, 3, scale: 1.5) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        }
        XCTAssertEqual(odd.width, 11)
        XCTAssertEqual(odd.pixel(x: 9, y: 0).a, 255)
        XCTAssertEqual(odd.pixel(x: 10, y: 0).a, 128)  // half of it: 127.5 rounds up
    }

    func testStrokesRasterizeTheStrokerOutlineNonZero() throws {
        // Whatever the stroker returns, a stroke is its outline filled non-zero under the device transform.
        var path = Path()
        path.move(to: CGPoint(x: 3.3, y: 4.1))
        path.addLine(to: CGPoint(x: 15.2, y: 9.7))
        path.addQuadCurve(to: CGPoint(x: 4, y: 12), control: CGPoint(x: 18, y: 16))
        let style = StrokeStyle(lineWidth: 2.5, lineCap: .round, lineJoin: .round)
        let stroked = try render(10, 10, scale: 2) { ctx, _ in ctx.stroke(path, with: .color(.white), style: style) }
        let outline = try Stroker.outline(path, style: style, transform: CGAffineTransform(scaleX: 2, y: 2))
        var outlinePath = Path()
        for c in 0 ..< outline.contourCount {
            let r = outline.contourRange(c)
            guard let first = r.first else { continue }
            outlinePath.move(to: CGPoint(x: outline.points[first].x, y: outline.points[first].y))
            for i in r.dropFirst() { outlinePath.addLine(to: CGPoint(x: outline.points[i].x, y: outline.points[i].y)) }
            outlinePath.closeSubpath()
        }
        let filled = try render(10, 10, scale: 2) { ctx, _ in
            ctx.scaleBy(x: 0.5, y: 0.5)  // the outline is already in device pixels
            ctx.fill(outlinePath, with: .color(.white))
        }
        XCTAssertEqual(stroked, filled)
    }

    // MARK: Errors

    func testNonFiniteGeometryIsAnErrorNamingTheDraw() throws {
        func expectError(_ fragment: String, _ draw: (inout GraphicsContext, CGSize) -> Void,
                         file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertThrowsError(try render(10, 10, draw), file: file, line: line) { error in
                guard case RenderError.invalidGeometry(let message) = error else {
                    return XCTFail("expected invalidGeometry, got \(error)", file: file, line: line)
                }
                XCTAssert(message.contains(fragment), "\(message) lacks \(fragment)", file: file, line: line)
            }
        }
        let good = Path(CGRect(x: 1, y: 1, width: 2, height: 2))
        expectError("draw #1: path element 1 (line to (nan, 4)) is not finite") { ctx, _ in
            ctx.fill(good, with: .color(.red))
            var p = Path()
            p.move(to: CGPoint(x: 1, y: 1))
            p.addLine(to: CGPoint(x: CGFloat.nan, y: 4))
            ctx.fill(p, with: .color(.red))
        }
        expectError("draw #0: path element 1") { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 2)), with: .color(.red))
        }
        expectError("draw #0: transform") { ctx, _ in
            ctx.scaleBy(x: .infinity, y: 1)
            ctx.fill(good, with: .color(.red))
        }
        expectError("draw #2: line width") { ctx, _ in
            ctx.fill(good, with: .color(.red))
            ctx.fill(good, with: .color(.red))
            ctx.stroke(good, with: .color(.red), lineWidth: CGFloat.nan)
        }
        expectError("draw #0: device coordinates overflow to infinity under the transform") { ctx, _ in
            ctx.scaleBy(x: 1e300, y: 1e300)
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1e300, height: 1e300)), with: .color(.red))
        }
    }

    func testUnsupportedFeaturesThrowInsteadOfDrawingSomethingElse() throws {
        // A template image filled with a gradient is recorded but not drawn yet.
        let mask = RasterImage(width: 1, height: 1, pixels: [0, 0, 0, 255])
        let tinted = Recording(size: CGSize(width: 4, height: 4)) { ctx, _ in
            var r = ctx.resolve(Image(mask).renderingMode(.template))
            r.shading = .linearGradient(Gradient(colors: [.red, .blue]), startPoint: .zero, endPoint: CGPoint(x: 4, y: 0))
            ctx.draw(r, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        XCTAssertThrowsError(try CanvasRenderer.strict(backend: .reference).render(tinted)) { error in
            guard case RenderError.unsupported(let message) = error else { return XCTFail("\(error)") }
            XCTAssert(message.contains("template image filled with a gradient"), message)
        }
    }

    // MARK: Determinism and speed

    /// 2000 ellipses from a fixed linear congruential sequence, each a translucent colour.
    static func ellipses(_ ctx: inout GraphicsContext, _ size: CGSize) {
        var seed: UInt64 = 0x2545F4914F6CDD1D
        func next() -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Double(seed >> 11) / Double(1 << 53)
        }
        for _ in 0 ..< 2000 {
            let w = 8 + next() * 80, h = 8 + next() * 80
            let rect = CGRect(x: next() * (size.width - w), y: next() * (size.height - h), width: w, height: h)
            ctx.fill(Path(ellipseIn: rect),
                     with: .color(red: next(), green: next(), blue: next(), opacity: 0.3 + 0.6 * next()))
        }
    }

    func testSameRecordingRendersIdenticalBytesAndReportsSpeed() throws {
        try TestTier.requireThorough()
        let recording = Recording(size: CGSize(width: 1024, height: 1024), renderer: Self.ellipses)
        let renderer = try CanvasRenderer(backend: .reference)
        let start = Date()
        let first = try renderer.render(recording)
        let seconds = Date().timeIntervalSince(start)
        print("reference: 2000 ellipses on 1024×1024 in \(String(format: "%.1f", seconds * 1000)) ms")
        let second = try renderer.render(recording)
        XCTAssertEqual(first.pixels, second.pixels)
        // Something was drawn in most of the canvas.
        var covered = 0
        for i in Swift.stride(from: 3, to: first.pixels.count, by: 4) where first.pixels[i] > 0 { covered += 1 }
        XCTAssertGreaterThan(covered, 1024 * 1024 * 9 / 10)
    }

    // MARK: Helpers

    func rect(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> [CGPoint] {
        [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)]
    }

    /// Every pixel's alpha (white paint) against the exact area of the convex polygon inside it.
    func assertExact(_ img: RasterImage, _ convex: [CGPoint], file: StaticString = #filePath, line: UInt = #line) {
        for y in 0 ..< img.height {
            for x in 0 ..< img.width {
                let exact = ExactCoverage.area(of: convex, inPixel: x, y) * 255
                let a = Double(img.pixel(x: x, y: y).a)
                if abs(a - exact) > ReferenceCoverageTests.oneRounding {
                    return XCTFail("pixel (\(x), \(y)): alpha \(a), exact \(exact)", file: file, line: line)
                }
            }
        }
    }
}
