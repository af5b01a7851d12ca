import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Images: `draw(_:in:)`, `draw(_:at:anchor:)`, `tiledImage`, templates, interpolation, images from files,
/// data and renderer closures, and unreadable images. Analytic pixels on the reference; every GLES form equal
/// to it within docs/DESIGN-NOTES.md's bar.
final class ImageDrawingTests: XCTestCase, ComparesBackends {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// One 8-bit step: bilinear weights are exact in both backends, the final rounding may differ by one.
    static let rounding = 1

    /// 2×2: red, green / blue, white, opaque.
    static let quad = RasterImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255,
                                                                 0, 0, 255, 255, 255, 255, 255, 255])

    func testDrawAtNaturalSizeCopiesPixels() throws {
        let img = try render(6, 4) { ctx, _ in
            ctx.draw(Image(Self.quad), at: CGPoint(x: 1, y: 1), anchor: .topLeading)
        }
        assertPixel(img, 1, 1, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
        assertPixel(img, 2, 1, PixelRGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
        assertPixel(img, 1, 2, PixelRGBA8(r: 0, g: 0, b: 255, a: 255), tolerance: 0)
        assertPixel(img, 2, 2, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), tolerance: 0)
        assertPixel(img, 0, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
        // The default anchor is the centre: the image's centre lands on the point.
        let centred = try render(6, 4) { ctx, _ in ctx.draw(Image(Self.quad), at: CGPoint(x: 3, y: 2)) }
        assertPixel(centred, 2, 1, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
    }

    /// Stretched 2× in `draw(_:in:)`: bilinear between texel centres, clamped at the edges.
    func testDrawInRectIsBilinearAndClamped() throws {
        let img = try render(4, 4) { ctx, _ in ctx.draw(Image(Self.quad), in: CGRect(x: 0, y: 0, width: 4, height: 4)) }
        // Pixel (0, 0): image point (0.25, 0.25) → clamped to the red texel.
        assertPixel(img, 0, 0, PixelRGBA8(r: 255, g: 0, b: 0, a: 255))
        // Pixel (1, 1): image point (0.75, 0.75) → weights ¾·¾ red, ¾·¼ green, ¼·¾ blue, ¼·¼ white.
        let r = 0.5625 * 255 + 0.0625 * 255, g = 0.1875 * 255 + 0.0625 * 255, b = 0.1875 * 255 + 0.0625 * 255
        assertPixel(img, 1, 1, PixelRGBA8(r: UInt8(r.rounded()), g: UInt8(g.rounded()), b: UInt8(b.rounded()), a: 255))
        let nearest = try render(4, 4) { ctx, _ in
            ctx.draw(Image(Self.quad).interpolation(.none), in: CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        assertPixel(nearest, 1, 1, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
        assertPixel(nearest, 2, 1, PixelRGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
    }

    /// A template image is its alpha filled with the shading: `.foreground` (primary, black) by default.
    func testTemplateImageIsFilledWithTheShading() throws {
        let mask = RasterImage(width: 2, height: 1, pixels: [0, 0, 0, 255, 0, 0, 0, 0])
        let img = try render(2, 1) { ctx, _ in
            var resolved = ctx.resolve(Image(mask).renderingMode(.template).interpolation(.none))
            resolved.shading = .color(.blue)
            ctx.draw(resolved, at: .zero, anchor: .topLeading)
        }
        assertPixel(img, 0, 0, PixelRGBA8(r: 0, g: 122, b: 255, a: 255), tolerance: 0)
        assertPixel(img, 1, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
        let rec = Recording(size: CGSize(width: 2, height: 1)) { ctx, _ in
            let r = ctx.resolve(Image(mask).renderingMode(.template))
            XCTAssertNotNil(r.shading)
            XCTAssertEqual(r.size, CGSize(width: 2, height: 1))
            XCTAssertEqual(r.baseline, 1)
            XCTAssertNil(ctx.resolve(Image(mask)).shading)
        }
        XCTAssertEqual(rec.drawCount, 0)
    }

    /// `tiledImage`: the source rect (unit coordinates) repeats at its size × scale from `origin`.
    func testTiledImageRepeatsTheSourceRect() throws {
        let img = try render(8, 4) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)),
                     with: .tiledImage(Image(Self.quad).interpolation(.none), origin: CGPoint(x: 1, y: 0),
                                       sourceRect: CGRect(x: 0, y: 0, width: 1, height: 0.5), scale: 1))
        }
        // The top row (red, green) repeats every 2 px from x = 1, on every row.
        for y in 0 ..< 4 {
            assertPixel(img, 1, y, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
            assertPixel(img, 2, y, PixelRGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
            assertPixel(img, 0, y, PixelRGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
            assertPixel(img, 7, y, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), tolerance: 0)
        }
        // Bilinear tiles agree across backends too, rotated and scaled.
        let tiles = try render(40, 30) { ctx, _ in
            var c = ctx
            c.rotate(by: .degrees(20))
            c.fill(Path(ellipseIn: CGRect(x: 5, y: -5, width: 30, height: 25)),
                   with: .tiledImage(Image(Self.quad), origin: CGPoint(x: 0.3, y: 0.7), scale: 2.5))
        }
        // (39.5, 29.5) is (47.2, 14.2) in the rotated space, right of the ellipse: clear. The quad is opaque,
        // so the ellipse's inside is too: (20.5, 15.5) is (24.6, 7.6) there, well inside.
        assertPixel(tiles, 39, 29, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
        XCTAssertEqual(tiles.pixel(x: 20, y: 15).a, 255)
    }

    func testImagesFromPNGDataFilesAndRenderers() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpucanvas-image-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("quad.png")
        try Self.quad.writePNG(to: url)
        let data = try Self.quad.pngData()
        let drawn = Image(size: CGSize(width: 2, height: 2)) { c in
            c.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(red: 1, green: 0, blue: 0))
            c.fill(Path(CGRect(x: 1, y: 0, width: 1, height: 1)), with: .color(red: 0, green: 1, blue: 0))
            c.fill(Path(CGRect(x: 0, y: 1, width: 1, height: 1)), with: .color(red: 0, green: 0, blue: 1))
            c.fill(Path(CGRect(x: 1, y: 1, width: 1, height: 1)), with: .color(white: 1))
        }
        for image in [Image(contentsOf: url), Image(data: data), Image(contentsOfFile: url.path), drawn] {
            let img = try render(2, 2) { ctx, _ in ctx.draw(image, at: .zero, anchor: .topLeading) }
            XCTAssertEqual(img, try CanvasRenderer(backend: .reference).render(size: CGSize(width: 2, height: 2)) { ctx, _ in
                ctx.draw(Image(Self.quad), at: .zero, anchor: .topLeading)
            })
        }
    }

    /// An unreadable image fails the frame on every backend with the same words, naming the file.
    func testUnreadableImageIsAnErrorNamingTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gpucanvas-badimage-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("broken.png")
        var png = try Self.quad.pngData()
        png.removeLast(png.count / 2)
        try png.write(to: url)
        var messages = Set<String>()
        for (name, r) in try renderers() {
            XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
                ctx.draw(Image(contentsOf: url), in: CGRect(x: 0, y: 0, width: 4, height: 4))
            }, name) { error in
                messages.insert("\(error)")
                XCTAssertTrue("\(error)".contains("draw #1") && "\(error)".contains("broken.png"), "\(error)")
            }
        }
        XCTAssertEqual(messages.count, 1, "\(messages)")
    }
}
