import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Colour filters (`addFilter` with the colour-matrix family, `alphaThreshold`, `luminanceToAlpha`): the
/// formulas' numbers on the reference, every GLES form equal to it within docs/DESIGN-NOTES.md's bar, the
/// per-draw semantics (an implicit layer per draw, the last added filter first, `drawLayer` as one draw), and
/// one verdict on bad filters.
final class ColorFilterTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: the filtered colour is exact in Float and rounds once, to either side of a half.
    static let rounding = 1

    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
    static let pureRed = Color(red: 1, green: 0, blue: 0)

    static func fillRed(_ ctx: GraphicsContext, _ rect: CGRect = CGRect(x: 0, y: 0, width: 4, height: 4)) {
        ctx.fill(Path(rect), with: .color(Self.pureRed))
    }

    /// `.saturation(0)` takes red to SVG's grey: 0.213 of red's 1 in every channel → 54.
    func testSaturationZeroIsSVGGrey() throws {
        let img = try render(4, 4) { ctx, _ in
            ctx.addFilter(.saturation(0))
            Self.fillRed(ctx)
        }
        assertPixel(img, 1, 1, PixelRGBA8(r: 54, g: 54, b: 54, a: 255))
    }

    /// The most recently added filter runs first. `contrast(0)` makes everything mid grey and `brightness(0.5)`
    /// adds half: contrast last gives 0.5 → 128 whatever came before, brightness last 0.5 + 0.5 = 1 → 255.
    func testLastAddedFilterRunsFirst() throws {
        let contrastLast = try render(4, 4) { ctx, _ in
            ctx.addFilter(.contrast(0))      // added first: runs last
            ctx.addFilter(.brightness(0.5))
            Self.fillRed(ctx)
        }
        assertPixel(contrastLast, 1, 1, PixelRGBA8(r: 128, g: 128, b: 128, a: 255))
        let brightnessLast = try render(4, 4) { ctx, _ in
            ctx.addFilter(.brightness(0.5))  // added first: runs last
            ctx.addFilter(.contrast(0))
            Self.fillRed(ctx)
        }
        assertPixel(brightnessLast, 1, 1, PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// Each draw is filtered alone: two overlapping rectangles at alpha 0.4 under `.alphaThreshold(min: 0.5)`
    /// are each below the threshold (nothing drawn); as one `drawLayer` their overlap reaches 0.64 and only
    /// the overlap turns into the threshold's colour.
    func testFiltersActPerDrawAndDrawLayerIsOneDraw() throws {
        let translucent = Color(red: 0, green: 0, blue: 1, opacity: 0.4)
        let perDraw = try render(12, 4) { ctx, _ in
            ctx.addFilter(.alphaThreshold(min: 0.5, color: Self.pureRed))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(translucent))
            ctx.fill(Path(CGRect(x: 4, y: 0, width: 8, height: 4)), with: .color(translucent))
        }
        for x in [1, 5, 10] { assertPixel(perDraw, x, 2, Self.clear) }
        let grouped = try render(12, 4) { ctx, _ in
            ctx.addFilter(.alphaThreshold(min: 0.5, color: Self.pureRed))
            ctx.drawLayer { layer in
                layer.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(translucent))
                layer.fill(Path(CGRect(x: 4, y: 0, width: 8, height: 4)), with: .color(translucent))
            }
        }
        assertPixel(grouped, 1, 2, Self.clear)
        assertPixel(grouped, 5, 2, PixelRGBA8(r: 255, g: 0, b: 0, a: 255))
        assertPixel(grouped, 10, 2, Self.clear)
    }

    /// A threshold that keeps alpha 0 turns every transparent pixel of the clip region into its colour: the
    /// filtered draw covers the whole clip, not only its shape.
    func testThresholdKeepingZeroAlphaFillsTheClipRegion() throws {
        let img = try render(10, 10) { ctx, _ in
            ctx.clip(to: Path(CGRect(x: 2, y: 2, width: 6, height: 6)))
            ctx.addFilter(.alphaThreshold(min: 0, max: 0.5, color: .blue))
            Self.fillRed(ctx, CGRect(x: 4, y: 4, width: 2, height: 2))  // opaque: above max, cleared
        }
        assertPixel(img, 3, 3, PixelRGBA8(r: 0, g: 122, b: 255, a: 255))
        assertPixel(img, 4, 4, Self.clear)
        assertPixel(img, 1, 1, Self.clear)   // outside the clip
    }

    /// The matrices against their definitions, on colours whose numbers are easy to follow.
    func testEachMatrixFilter() throws {
        // (filter, source colour, expected) with the expected bytes worked out from the formulas.
        let grey = Color(white: 0.5)
        let cases: [(GraphicsContext.Filter, Color, PixelRGBA8)] = [
            (.brightness(0.25), grey, PixelRGBA8(r: 191, g: 191, b: 191, a: 255)),      // 0.5 + 0.25
            (.contrast(2), Color(white: 0.75), PixelRGBA8(r: 255, g: 255, b: 255, a: 255)),  // (0.75 − 0.5)·2 + 0.5 = 1
            (.contrast(0.5), Color(white: 0.2), PixelRGBA8(r: 89, g: 89, b: 89, a: 255)),    // −0.15 + 0.5 = 0.35
            (.colorInvert(), Color(red: 1, green: 0.2, blue: 0), PixelRGBA8(r: 0, g: 204, b: 255, a: 255)),
            (.colorInvert(0.5), Self.pureRed, PixelRGBA8(r: 128, g: 128, b: 128, a: 255)),
            (.grayscale(1), Self.pureRed, PixelRGBA8(r: 54, g: 54, b: 54, a: 255)),            // 0.2126
            (.colorMultiply(Color(red: 0.5, green: 1, blue: 1, opacity: 0.5)), Self.pureRed,
             PixelRGBA8(r: 64, g: 0, b: 0, a: 128)),                                           // premultiplied 0.5·0.5
            (.alphaMultiply(Color(red: 0, green: 1, blue: 0, opacity: 0.5)), Self.pureRed,
             PixelRGBA8(r: 0, g: 128, b: 0, a: 128)),
            (.luminanceToAlpha, Color(white: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 255)),       // 0.2125 + 0.7154 + 0.0721
            (.hueRotation(.degrees(180)), Self.pureRed, PixelRGBA8(r: 0, g: 109, b: 109, a: 255)),
        ]
        for (filter, colour, expected) in cases {
            let img = try render(4, 4) { ctx, _ in
                ctx.addFilter(filter)
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(colour))
            }
            assertPixel(img, 2, 2, expected, tolerance: Self.rounding)
        }
    }

    /// A premultiplied matrix halving alpha only: colour stays, alpha halves, RGB clamped to the new alpha.
    func testPremultipliedColorMatrixClampsToAlpha() throws {
        let m = { var m = ColorMatrix(); m.a4 = 0.5; return m }()
        let img = try render(4, 4) { ctx, _ in
            ctx.addFilter(.colorMatrix(m, isPremultiplied: true))
            Self.fillRed(ctx)
        }
        assertPixel(img, 2, 2, PixelRGBA8(r: 128, g: 0, b: 0, a: 128))
        let straight = try render(4, 4) { ctx, _ in
            ctx.addFilter(.colorMatrix(m))
            Self.fillRed(ctx)
        }
        assertPixel(straight, 2, 2, PixelRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    /// `.linearColor` runs the maths in linear light, whatever the canvas's mode: `contrast(0)` gives 0.5, which
    /// is 128 when the maths is on encoded values and 0.5 linear = 188 encoded with `.linearColor`.
    func testLinearColorRunsTheMathsInLinearLight() throws {
        for mode in [ColorRenderingMode.nonLinear, .linear] {
            let encoded = try render(4, 4, colorMode: mode) { ctx, _ in
                ctx.addFilter(.contrast(0))
                Self.fillRed(ctx)
            }
            assertPixel(encoded, 2, 2, PixelRGBA8(r: 128, g: 128, b: 128, a: 255))
            let linear = try render(4, 4, colorMode: mode) { ctx, _ in
                ctx.addFilter(.contrast(0), options: .linearColor)
                Self.fillRed(ctx)
            }
            assertPixel(linear, 2, 2, PixelRGBA8(r: 188, g: 188, b: 188, a: 255))
        }
    }

    /// Opacity, blend mode and clip apply after the filter: a red square through `.colorInvert()` (cyan) at
    /// opacity 0.5 over white, clipped to its left half.
    func testOpacityBlendAndClipApplyAfterTheFilter() throws {
        let img = try render(8, 4) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(.white))
            var c = ctx
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 4, height: 4)))
            c.opacity = 0.5
            c.blendMode = .multiply
            c.addFilter(.colorInvert())
            Self.fillRed(c, CGRect(x: 0, y: 0, width: 8, height: 4))
        }
        // multiply of cyan over white is cyan; at opacity 0.5: (0.5, 1, 1).
        assertPixel(img, 1, 1, PixelRGBA8(r: 128, g: 255, b: 255, a: 255))
        assertPixel(img, 6, 1, PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    /// The same verdict on both backends: a NaN amount is invalid, and so is a blur wider than a canvas can be.
    func testBadFiltersGetOneVerdict() throws {
        for (filter, words) in [(GraphicsContext.Filter.saturation(.nan), "invalid geometry: draw #0: filter .saturation(nan) is not finite"),
                                (.blur(radius: 1e6), "invalid geometry: draw #0: filter .blur(radius: 1e+06) has σ = 1e+06 device pixels, more than 4096")] {
            var messages = Set<String>()
            for (name, r) in try renderers() {
                XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                    ctx.addFilter(filter)
                    ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.red))
                }, name) { messages.insert("\($0)") }
            }
            XCTAssertEqual(messages, [words])
        }
    }
}
