import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Clips (`clip(to:)` with both fill rules, `antialiased`, `.inverse`, nesting), `clipToLayer` masks and
/// `drawLayer` groups: analytic pixels on the reference, and every GLES form (both path strategies, the raster
/// atlas's R8 form, both blend routes) equal to it within docs/DESIGN-NOTES.md's bar.
final class ClipAndLayerTests: XCTestCase, ComparesBackends {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// One 8-bit step: an exact answer's rounding may land on either side of a half.
    static let rounding = 1

    static let green = PixelRGBA8(r: 52, g: 199, b: 89, a: 255)
    static let blue = PixelRGBA8(r: 0, g: 122, b: 255, a: 255)
    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)

    /// Seed S03: the filled ellipse clipped to the top-left quadrant.
    func testEllipseClippedToQuadrant() throws {
        let img = try render(300, 200) { ctx, size in
            let half = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
            ctx.clip(to: Path(CGRect(origin: .zero, size: half)))
            ctx.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
        }
        assertPixel(img, 75, 50, Self.green)
        assertPixel(img, 140, 90, Self.green)
        assertPixel(img, 225, 50, Self.clear)   // in the ellipse, outside the clip
        assertPixel(img, 75, 150, Self.clear)
        assertPixel(img, 10, 10, Self.clear)    // in the clip, outside the ellipse
    }

    /// Seed S04: a copied context clips its ellipse; the original draws an unclipped blue rectangle.
    func testCopiedContextKeepsItsOwnClip() throws {
        let img = try render(300, 200) { context, size in
            var masked = context
            let half = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
            masked.clip(to: Path(CGRect(origin: .zero, size: half)))
            masked.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
            let origin = CGPoint(x: size.width / 4, y: size.height / 4)
            context.fill(Path(CGRect(origin: origin, size: half)), with: .color(.blue))
        }
        assertPixel(img, 40, 60, Self.green)
        assertPixel(img, 200, 140, Self.blue)  // the rectangle reaches outside the quadrant: unclipped
        assertPixel(img, 100, 60, Self.blue)
        assertPixel(img, 250, 60, Self.clear)
    }

    func testNestedClipsIntersectAndInverseAndEvenOdd() throws {
        let img = try render(40, 40) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 30, height: 30)))
            ctx.clip(to: Path(CGRect(x: 10, y: 10, width: 30, height: 30)))
            // Inverse: a hole at (15…20, 15…20).
            ctx.clip(to: Path(CGRect(x: 15, y: 15, width: 5, height: 5)), options: .inverse)
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 40, height: 40)), with: .color(.blue))
        }
        assertPixel(img, 12, 12, Self.blue)
        assertPixel(img, 28, 28, Self.blue)
        assertPixel(img, 5, 5, Self.clear)    // outside the second clip
        assertPixel(img, 35, 35, Self.clear)  // outside the first
        assertPixel(img, 17, 17, Self.clear)  // in the inverse clip's hole

        let ring = try render(40, 40) { ctx, _ in
            var p = Path(CGRect(x: 0, y: 0, width: 40, height: 40))
            p.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
            ctx.clip(to: p, style: FillStyle(eoFill: true))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 40, height: 40)), with: .color(.green))
        }
        assertPixel(ring, 5, 5, Self.green)
        assertPixel(ring, 20, 20, Self.clear)
    }

    func testAntialiasedClipEdgeIsPartialAndAliasedIsNot() throws {
        let img = try render(10, 4) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 4.5, height: 4)))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 4)), with: .color(white: 1))
        }
        assertPixel(img, 4, 1, PixelRGBA8(r: 128, g: 128, b: 128, a: 128))
        let aliased = try render(10, 4) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 4.6, height: 4)), style: FillStyle(antialiased: false))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 4)), with: .color(white: 1))
        }
        assertPixel(aliased, 4, 1, PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        assertPixel(aliased, 5, 1, Self.clear)
    }

    /// A layer composites once: two overlapping opaque rectangles inside a 50 % layer are one 50 % shape, where
    /// the same two drawn at 50 % each would be darker where they overlap.
    func testLayerOpacityAppliesToTheGroup() throws {
        let img = try render(30, 10) { ctx, _ in
            var c = ctx
            c.opacity = 0.5
            c.drawLayer { layer in
                layer.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 10)), with: .color(.blue))
                layer.fill(Path(CGRect(x: 10, y: 0, width: 20, height: 10)), with: .color(.blue))
            }
        }
        let half = PixelRGBA8(r: 0, g: 61, b: 128, a: 128)
        assertPixel(img, 5, 5, half)
        assertPixel(img, 15, 5, half)
        assertPixel(img, 25, 5, half)
    }

    /// A layer's inner context starts with no clip; the layer is composited through the outer clip.
    func testLayerInsideAClip() throws {
        let img = try render(20, 20) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 10, height: 20)))
            ctx.drawLayer { layer in
                layer.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 20)), with: .color(.green))
            }
        }
        assertPixel(img, 5, 5, Self.green)
        assertPixel(img, 15, 5, Self.clear)
    }

    /// `clipToLayer`: the content's alpha × opacity is a soft mask; `.inverse` takes 1 − it.
    func testClipToLayerSoftMaskAndInverse() throws {
        let img = try render(20, 10) { ctx, _ in
            var c = ctx
            c.clipToLayer(opacity: 0.5) { mask in
                mask.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 10)), with: .color(.black))
            }
            c.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 10)), with: .color(white: 1))
        }
        assertPixel(img, 5, 5, PixelRGBA8(r: 128, g: 128, b: 128, a: 128))
        assertPixel(img, 15, 5, Self.clear)
        let inverse = try render(20, 10) { ctx, _ in
            var c = ctx
            c.clipToLayer(options: .inverse) { mask in
                mask.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 10)), with: .color(.black))
            }
            c.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 10)), with: .color(white: 1))
        }
        assertPixel(inverse, 5, 5, Self.clear)
        assertPixel(inverse, 15, 5, PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// Clips survive transforms: a rotated clip, then draws under another transform, at scale 2.
    func testRotatedClipAtScaleTwoMatchesEveryBackend() throws {
        let img = try render(64, 48, scale: 2) { ctx, _ in
            var c = ctx
            c.translateBy(x: 32, y: 24)
            c.rotate(by: .degrees(30))
            c.clip(to: Path(ellipseIn: CGRect(x: -25, y: -15, width: 50, height: 30)))
            c.rotate(by: .degrees(-30))
            for i in 0 ..< 6 {
                c.fill(Path(CGRect(x: -30 + Double(i) * 10, y: -20, width: 8, height: 40)),
                       with: .color(Color(hue: Double(i) / 6, saturation: 0.8, brightness: 0.9, opacity: 0.7)))
            }
        }
        // Pixel (72, 48) is (4…4.5, 0…0.5) from the centre in points: inside the clip and wholly inside stripe 3,
        // hue ½ (cyan): (0.9 × 0.2, 0.9, 0.9) at opacity 0.7, premultiplied (32.1, 160.7, 160.7, 178.5).
        assertPixel(img, 72, 48, PixelRGBA8(r: 32, g: 161, b: 161, a: 179))
        // (1, 1) is outside the clip.
        assertPixel(img, 1, 1, Self.clear, tolerance: 0)
    }

    func testClipBoundingRect() {
        let rec = Recording(size: CGSize(width: 100, height: 80)) { ctx, _ in
            XCTAssertEqual(ctx.clipBoundingRect, CGRect(x: 0, y: 0, width: 100, height: 80))
            ctx.clip(to: Path(CGRect(x: 10, y: 10, width: 20, height: 20)))
            ctx.clip(to: Path(CGRect(x: 20, y: 0, width: 50, height: 25)))
            XCTAssertEqual(ctx.clipBoundingRect, CGRect(x: 20, y: 10, width: 10, height: 15))
            ctx.translateBy(x: 10, y: 0)
            XCTAssertEqual(ctx.clipBoundingRect, CGRect(x: 10, y: 10, width: 10, height: 15))
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 5, height: 5)), options: .inverse)
            XCTAssertEqual(ctx.clipBoundingRect, CGRect(x: 10, y: 10, width: 10, height: 15))
        }
        XCTAssertEqual(rec.drawCount, 0)
    }
}
