import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The colour modes: `.nonLinear` composites sRGB-encoded values in 8 bits; `.linear` and `.extendedLinear`
/// composite linear-light values in half floats and encode the result to sRGB bytes once. Analytic pixels on
/// the reference; every GLES form equal to it within docs/DESIGN-NOTES.md's bar.
final class ColorModeTests: XCTestCase {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// One 8-bit step: the final encoding rounds once; half floats keep 11 bits, far below a step.
    static let rounding = 1

    @discardableResult
    func render(_ mode: ColorRenderingMode, _ w: CGFloat = 8, _ h: CGFloat = 4, file: StaticString = #filePath,
                line: UInt = #line, _ draw: Draw) throws -> RasterImage {
        try BackendComparison.render(w, h, colorMode: mode, file: file, line: line, draw)
    }

    func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ e: PixelRGBA8, file: StaticString = #filePath,
                     line: UInt = #line) {
        BackendComparison.assertPixel(image, x, y, e, tolerance: Self.rounding, file: file, line: line)
    }

    /// Black at 50 % over white: 128 when blending encoded values, 188 (= encode(0.5)) in linear light.
    func testHalfBlackOverWhiteBlendsInTheWorkingSpace() throws {
        let draw: Draw = { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(.white))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.black.opacity(0.5)))
        }
        assertPixel(try render(.nonLinear, 8, 4, draw), 1, 1, PixelRGBA8(r: 128, g: 128, b: 128, a: 255))
        assertPixel(try render(.linear, 8, 4, draw), 1, 1, PixelRGBA8(r: 188, g: 188, b: 188, a: 255))
        assertPixel(try render(.extendedLinear, 8, 4, draw), 1, 1, PixelRGBA8(r: 188, g: 188, b: 188, a: 255))
        assertPixel(try render(.linear, 8, 4, draw), 6, 1, PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// A gradient from black to white interpolates in linear light: its middle is encode(0.5) = 188.
    func testGradientsInterpolateInLinearLight() throws {
        let img = try render(.linear, 64, 2) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 64, height: 2)),
                     with: .linearGradient(Gradient(colors: [.black, .white]), startPoint: .zero,
                                           endPoint: CGPoint(x: 64, y: 0)))
        }
        // Pixel 31's centre is t = 31.5/64.
        let v = UInt8((255 * ColorTransfer.encode(31.5 / 64)).rounded())
        assertPixel(img, 31, 0, PixelRGBA8(r: v, g: v, b: v, a: 255))
    }

    /// Extended values survive compositing and are clamped only in the 8-bit output: 1.5 × 0.5 opacity = 0.75.
    func testExtendedLinearKeepsOutOfRangeValuesUntilOutput() throws {
        let img = try render(.extendedLinear) { ctx, _ in
            var c = ctx
            c.opacity = 0.5
            c.drawLayer { l in
                l.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(.sRGBLinear, red: 1.5, green: 0, blue: 0))
            }
        }
        // Premultiplied (0.75, 0, 0, 0.5): straight 1.5 clamps to 1 → (128, 0, 0, 128).
        assertPixel(img, 2, 2, PixelRGBA8(r: 128, g: 0, b: 0, a: 128))
        // The same in .linear clamps the colour at record time: the result is the same here.
        assertPixel(try render(.linear) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(.sRGBLinear, red: 1.5, green: 0, blue: 0, opacity: 0.5))
        }, 2, 2, PixelRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    /// Clips, layers, blend modes and images agree across backends in the linear modes too.
    func testCompositingAgreesInLinearModes() throws {
        try TestTier.requireThorough()
        let image = RasterImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 128, 0, 128])
        for mode in [ColorRenderingMode.linear, .extendedLinear] {
            let img = try render(mode, 48, 32) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 48, height: 32)),
                         with: .radialGradient(Gradient(colors: [.yellow, .blue.opacity(0.4)]), center: CGPoint(x: 20, y: 16),
                                               startRadius: 2, endRadius: 25))
                var c = ctx
                c.clip(to: Path(ellipseIn: CGRect(x: 4, y: 2, width: 40, height: 28)))
                c.blendMode = .multiply
                c.drawLayer { l in
                    l.draw(Image(image), in: CGRect(x: 8, y: 6, width: 32, height: 20))
                    l.fill(Path(ellipseIn: CGRect(x: 20, y: 10, width: 16, height: 16)), with: .color(.green.opacity(0.6)))
                }
                c.blendMode = .screen
                c.fill(Path(CGRect(x: 0, y: 20, width: 48, height: 8)), with: .color(.purple.opacity(0.7)))
            }
            // The far corner is outside the clip and 31.6 from the centre, past the gradient's end radius 25:
            // the padded last stop, blue at opacity 0.4 (alpha 102, whatever the working space).
            XCTAssertLessThanOrEqual(abs(Int(img.pixel(x: 47, y: 31).a) - 102), 1, "\(mode): \(img.pixel(x: 47, y: 31))")
        }
    }

    /// Found by the fuzzer: a thin red line over opaque black in `.extendedLinear` was off by up to 6 levels on
    /// the raster atlas, whose R8 coverage the sRGB encoding amplifies near black (slope up to ~13). Linear
    /// frames now take R16F coverage.
    func testAntialiasedEdgesOverBlackInLinearLight() throws {
        for mode in [ColorRenderingMode.linear, .extendedLinear] {
            let img = try BackendComparison.render(20, 30, colorMode: mode, file: #filePath, line: #line) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 30)), with: .color(.black))
                var p = Path()
                p.move(to: .zero)
                p.addLine(to: CGPoint(x: 26, y: 50))
                ctx.stroke(p, with: .color(red: 1, green: 0, blue: 0), lineWidth: 1)
            }
            // Far from the line the black stays; on it (0.2 px from pixel (13, 25)'s centre) red over black has
            // no green or blue.
            XCTAssertEqual(img.pixel(x: 19, y: 0), PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "\(mode)")
            let onLine = img.pixel(x: 13, y: 25)
            XCTAssertTrue(onLine.r > 128 && onLine.g == 0 && onLine.b == 0 && onLine.a == 255, "\(mode): \(onLine)")
        }
    }
}
