import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `Filter.shadow`: the blurred alpha × colour, offset, behind the draw by default, and each of the four
/// `ShadowOptions`, with the offset and radius in the user space of `addFilter`.
final class ShadowTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: values are exact in Float and round once, to either side of a half.
    static let rounding = 1

    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
    static let blue = Color(red: 0, green: 0, blue: 1)
    static let halfBlack = Color(red: 0, green: 0, blue: 0, opacity: 0.5)

    /// A 10 × 10 blue square at (5, 5) under a sharp shadow (radius 0) offset by (6, 0).
    func square(_ options: GraphicsContext.ShadowOptions = [], blend: GraphicsContext.BlendMode = .normal,
                opacity: Double = 1) throws -> RasterImage {
        try render(24, 20) { ctx, _ in
            ctx.opacity = opacity
            ctx.addFilter(.shadow(color: Self.halfBlack, radius: 0, x: 6, y: 0, blendMode: blend, options: options))
            ctx.fill(Path(CGRect(x: 5, y: 5, width: 10, height: 10)), with: .color(Self.blue))
        }
    }

    /// Default: the shadow behind the square, visible only where the square is not.
    func testShadowIsBehindByDefault() throws {
        let img = try square()
        assertPixel(img, 10, 10, PixelRGBA8(r: 0, g: 0, b: 255, a: 255))     // the square
        assertPixel(img, 18, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 128))       // the shadow beside it
        assertPixel(img, 2, 10, Self.clear)
    }

    /// `shadowAbove`: the shadow over the square where they overlap (half black over blue).
    func testShadowAbove() throws {
        let img = try square(.shadowAbove)
        assertPixel(img, 13, 10, PixelRGBA8(r: 0, g: 0, b: 128, a: 255))
        assertPixel(img, 8, 10, PixelRGBA8(r: 0, g: 0, b: 255, a: 255))
    }

    /// `shadowOnly`: no square.
    func testShadowOnly() throws {
        let img = try square(.shadowOnly)
        assertPixel(img, 8, 10, Self.clear)
        assertPixel(img, 13, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 128))
    }

    /// `invertsAlpha` with `shadowAbove` and `.sourceAtop`: the inner shadow, only inside the square, along the
    /// edge the offset uncovers (its left side for x = 6).
    func testInnerShadowRecipe() throws {
        let img = try square([.shadowAbove, .invertsAlpha], blend: .sourceAtop)
        assertPixel(img, 7, 10, PixelRGBA8(r: 0, g: 0, b: 128, a: 255))   // within 6 px of the left side
        assertPixel(img, 13, 10, PixelRGBA8(r: 0, g: 0, b: 255, a: 255))  // beyond them
        assertPixel(img, 18, 10, Self.clear)                               // nothing outside the square
    }

    /// `disablesGroup`: shadow and square composited separately, each at the opacity: where they overlap,
    /// the square (0.5 of blue) lies over half the shadow's 0.5 black; as a group the overlap is the square's
    /// alone.
    func testDisablesGroupCompositesSeparately() throws {
        let grouped = try square([], opacity: 0.5)
        let separate = try square(.disablesGroup, opacity: 0.5)
        assertPixel(grouped, 13, 10, PixelRGBA8(r: 0, g: 0, b: 128, a: 128))
        // shadow 0.25 black, then blue at 0.5 over it: alpha 0.5 + 0.25·0.5 = 0.625.
        assertPixel(separate, 13, 10, PixelRGBA8(r: 0, g: 0, b: 128, a: 159))
        assertPixel(separate, 18, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 64))
    }

    /// The default colour is black at 33 % (alpha 84), and a radius blurs it: the shadow's edge is soft.
    func testDefaultColourAndRadius() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.addFilter(.shadow(radius: 2, x: 12))
            ctx.fill(Path(CGRect(x: 4, y: 0, width: 12, height: 20)), with: .color(Self.blue))
        }
        assertPixel(img, 22, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 84))
        // Half way across the shadow's right edge (x = 28): Φ(0.5/2) ≈ 0.6 of 84 on the inside pixel.
        XCTAssertEqual(Int(img.pixel(x: 27, y: 10).a), 50, accuracy: 2)
    }

    /// The offset maps through the transform at `addFilter`: (6, 0) under a quarter turn points down.
    func testOffsetFollowsTheTransform() throws {
        let img = try render(20, 30) { ctx, _ in
            ctx.translateBy(x: 10, y: 10)
            ctx.rotate(by: .degrees(90))
            ctx.addFilter(.shadow(color: Self.halfBlack, radius: 0, x: 6, y: 0))
            ctx.fill(Path(CGRect(x: -5, y: -5, width: 10, height: 10)), with: .color(Self.blue))
        }
        assertPixel(img, 10, 18, PixelRGBA8(r: 0, g: 0, b: 0, a: 128))
        assertPixel(img, 18, 10, Self.clear)
    }

    /// Each draw casts its own shadow: the second square's shadow falls on the first square, which was drawn
    /// before it.
    func testEachDrawCastsItsOwnShadow() throws {
        let img = try render(30, 20) { ctx, _ in
            ctx.addFilter(.shadow(color: .black, radius: 0, x: -6, y: 0))
            ctx.fill(Path(CGRect(x: 2, y: 5, width: 10, height: 10)), with: .color(Self.blue))
            ctx.fill(Path(CGRect(x: 14, y: 5, width: 10, height: 10)), with: .color(.white))
        }
        assertPixel(img, 10, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 255))  // the white square's shadow on blue
        assertPixel(img, 4, 10, PixelRGBA8(r: 0, g: 0, b: 255, a: 255))
    }
}
