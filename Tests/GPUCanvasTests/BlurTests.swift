import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// `Filter.blur`: σ = radius in the user space of `addFilter`, the Gaussian's edge profile on both routes
/// (full resolution and downsampled), content outside the canvas transparent, the options, and passes that
/// cover only the blurred content's box grown by the kernel.
final class BlurTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: values are exact in Float and round once, to either side of a half.
    static let rounding = 1
    /// How far (8-bit levels) a blurred edge may lie from the exact Gaussian's, Φ(d/σ). The full-resolution
    /// route cuts the kernel (the Gaussian integrated over each pixel) at 3σ, losing 0.27 % of its weight, and
    /// rounds once: under one level (measured 0.25–0.55 for σ 0.8–3.2). The downsampled route's block average
    /// and bilinear interpolation leave the edge slightly off the Gaussian's shape even with the variance
    /// matched: measured 0.9–2.7 levels for σ 4.5–25, the worst at σ = 20 (F = 8, σ_c ≈ 2.3 cells).
    static let gaussianEdgeTolerance = 3

    static func clearCanvasEdge(_ sigma: CGFloat, scale: CGFloat = 1) throws -> [RasterImage] {
        try BackendComparison.renderers().map { _, r in
            // Tall enough that the top and bottom edges (content outside the canvas is transparent) are more
            // than 3σ from row 80 for σ up to 20.
            try r.render(size: CGSize(width: 96, height: 160), scale: scale) { ctx, _ in
                ctx.addFilter(.blur(radius: sigma))
                // A half-plane from x = 48: far enough from the canvas's other edges.
                ctx.fill(Path(CGRect(x: 48, y: -100, width: 200, height: 300)), with: .color(.white))
            }
        }
    }

    /// The alpha across a blurred straight edge is the Gaussian's integral, Φ((x + ½ − 48)/σ), on every
    /// backend: σ = 1.5 runs at full resolution, σ = 8 and 20 on the downsampled grid (F = 4, 16).
    func testEdgeProfileIsTheGaussianIntegral() throws {
        try TestTier.requireThorough()
        for sigma in [0.8, 1.5, 2.9, 3.2, 4.5, 6.1, 8, 12.5, 20, 25] as [CGFloat] {
            let images = try Self.clearCanvasEdge(sigma)
            for (k, image) in images.enumerated() {
                var worst = 0.0
                for x in 0 ..< 96 {
                    let d = (Double(x) + 0.5 - 48) / Double(sigma)
                    // Content ends at the canvas's right edge (96): the blur fades there too.
                    let right = (96 - Double(x) - 0.5) / Double(sigma)
                    let expected = 255 * (0.5 * (1 + erf(d / 2.0.squareRoot())) - 0.5 * (1 + erf(-right / 2.0.squareRoot())))
                    worst = max(worst, abs(Double(image.pixel(x: x, y: 80).a) - expected))
                }
                XCTAssertLessThanOrEqual(worst, Double(Self.gaussianEdgeTolerance), "σ \(sigma), renderer \(k)")
            }
        }
    }

    /// The radius lives in the user space of `addFilter`: radius 1 under `scaleBy(2, 2)` is radius 2 at scale
    /// 1, and radius 1 on a 2× canvas the same again; each pair gives the same bytes.
    func testRadiusScalesWithTheTransformAtAddFilter() throws {
        for (_, r) in try renderers() {
            let plain = try r.render(size: CGSize(width: 40, height: 40)) { ctx, _ in
                ctx.addFilter(.blur(radius: 2))
                ctx.fill(Path(CGRect(x: 10, y: 10, width: 20, height: 20)), with: .color(.blue))
            }
            let scaled = try r.render(size: CGSize(width: 40, height: 40)) { ctx, _ in
                ctx.scaleBy(x: 2, y: 2)
                ctx.addFilter(.blur(radius: 1))
                ctx.fill(Path(CGRect(x: 5, y: 5, width: 10, height: 10)), with: .color(.blue))
            }
            let retina = try r.render(size: CGSize(width: 20, height: 20), scale: 2) { ctx, _ in
                ctx.addFilter(.blur(radius: 1))
                ctx.fill(Path(CGRect(x: 5, y: 5, width: 10, height: 10)), with: .color(.blue))
            }
            XCTAssertEqual(plain.pixels, scaled.pixels)
            XCTAssertEqual(plain.pixels, retina.pixels)
            // And it did blur: the corner of the square is about a quarter covered.
            XCTAssertLessThan(plain.pixel(x: 10, y: 10).a, 100)
            XCTAssertGreaterThan(plain.pixel(x: 10, y: 10).a, 30)
        }
    }

    /// A transform added after `addFilter` does not change the radius.
    func testTransformAfterAddFilterDoesNotScaleTheRadius() throws {
        let a = try render(40, 40) { ctx, _ in
            ctx.addFilter(.blur(radius: 2))
            ctx.scaleBy(x: 2, y: 2)
            ctx.fill(Path(CGRect(x: 5, y: 5, width: 10, height: 10)), with: .color(.blue))
        }
        let b = try render(40, 40) { ctx, _ in
            ctx.addFilter(.blur(radius: 2))
            ctx.fill(Path(CGRect(x: 10, y: 10, width: 20, height: 20)), with: .color(.blue))
        }
        XCTAssertEqual(a.pixels, b.pixels)
    }

    /// Content outside the canvas is transparent: a fill covering the whole canvas fades at its edges
    /// (Φ(0.5/4) of the way in at the first pixel: alpha 140), and `.opaque` keeps it opaque there.
    func testContentOutsideTheCanvasIsTransparentUnlessOpaque() throws {
        let faded = try render(32, 32) { ctx, size in
            ctx.addFilter(.blur(radius: 4))
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.red))
        }
        XCTAssertEqual(Int(faded.pixel(x: 0, y: 16).a), 140, accuracy: 2)
        XCTAssertEqual(faded.pixel(x: 16, y: 16).a, 255)
        let opaque = try render(32, 32) { ctx, size in
            ctx.addFilter(.blur(radius: 4, options: .opaque))
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.red))
        }
        assertPixel(opaque, 0, 16, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
        assertPixel(opaque, 0, 0, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
    }

    /// `.dithersResult` moves values by less than one level, by position: a flat 40 %-grey blur is the same
    /// grey ± 1 everywhere, and not the same bytes as without dithering.
    func testDitheringMovesValuesByUnderALevel() throws {
        func grey(_ options: GraphicsContext.BlurOptions) throws -> RasterImage {
            try render(32, 32) { ctx, _ in
                ctx.addFilter(.blur(radius: 6, options: options))
                ctx.fill(Path(CGRect(x: -40, y: -40, width: 112, height: 112)), with: .color(Color(white: 0.4, opacity: 0.7)))
            }
        }
        let plain = try grey([]), dithered = try grey(.dithersResult)
        var differing = 0
        for y in 8 ..< 24 {
            for x in 8 ..< 24 {
                let a = plain.pixel(x: x, y: y), b = dithered.pixel(x: x, y: y)
                XCTAssertLessThanOrEqual(abs(Int(a.r) - Int(b.r)), 1)
                if a != b { differing += 1 }
            }
        }
        XCTAssertGreaterThan(differing, 0)
    }

    /// The passes cover the content's box grown by what the kernel reaches, not the canvas: a 10-pixel square
    /// blurred with σ = 2 on a 2000 × 2000 canvas draws a few such boxes' worth of pixels, in all its passes
    /// (content, horizontal and vertical sums, composite), not millions.
    func testPassesCoverOnlyTheBlurredBox() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        _ = try r.render(size: CGSize(width: 2000, height: 2000)) { ctx, _ in
            ctx.addFilter(.blur(radius: 2))
            ctx.fill(Path(CGRect(x: 995, y: 995, width: 10, height: 10)), with: .color(.blue))
        }
        let cb = try XCTUnwrap((r.implementation as? GLESBackend)?.lastCommandBuffer)
        let side = 10 + 2 * FilterPlanning.reach(sigma: 2)
        XCTAssertTrue(cb.description.contains("(filter)"), "the blur runs filter passes")
        XCTAssertLessThanOrEqual(cb.coveredPixels, 4 * side * side)
    }

    /// A blurred draw at the clip's edge: content outside the clip still blurs into it (the layer keeps what
    /// the blur can bring in), and nothing lands outside the clip.
    func testContentBeyondTheClipBlursIntoIt() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 20, y: 0, width: 20, height: 20)))
            ctx.addFilter(.blur(radius: 3))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 20)), with: .color(.black))
        }
        XCTAssertGreaterThan(img.pixel(x: 20, y: 10).a, 100)  // Φ(−0.5/3) ≈ 0.43 → 110
        XCTAssertEqual(img.pixel(x: 19, y: 10).a, 0)
    }

    /// A NaN radius is invalid geometry on every backend, with the same words; a negative radius is none.
    func testNaNRadiusIsRefusedAndNegativeIsNone() throws {
        var messages = Set<String>()
        for (name, r) in try renderers() {
            XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                ctx.addFilter(.blur(radius: .nan))
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.red))
            }, name) { messages.insert("\($0)") }
        }
        XCTAssertEqual(messages, ["invalid geometry: draw #0: filter .blur(radius: nan) is not finite"])
        let img = try render(4, 4) { ctx, _ in
            ctx.addFilter(.blur(radius: -3))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)), with: .color(.red))
        }
        assertPixel(img, 0, 0, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
        assertPixel(img, 3, 0, PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
    }
}
