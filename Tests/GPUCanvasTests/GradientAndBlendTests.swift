import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Gradient shadings and the 28 blend modes: analytic pixels on the reference, and every GLES form (both
/// path strategies, the raster atlas's R8 form, both blend routes) equal to it within docs/DESIGN-NOTES.md's bar.
final class GradientAndBlendTests: XCTestCase, ComparesBackends {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// Two 8-bit steps: a gradient's colour at a pixel centre is exact to rounding, and the stop colours are
    /// themselves 8-bit values, so an interpolated channel may land one step either side.
    static let gradientTolerance = 2
    /// Solid colours blended by formula: one 8-bit step either side of an exact answer.
    static let rounding = 1

    /// Seed S06: a rounded rectangle stroked blue 25 pt, then filled with a green → blue linear gradient from
    /// its top-left to its bottom-right corner.
    func testSeedRoundedRectangleWithGradientFill() throws {
        let img = try render(300, 200) { context, size in
            let rect = CGRect(origin: .zero, size: size).insetBy(dx: 25, dy: 25)
            let path = Path(roundedRect: rect, cornerRadius: 35.0)
            let gradient = Gradient(colors: [.green, .blue])
            let from = rect.origin
            let to = CGPoint(x: rect.width + from.x, y: rect.height + from.y)
            context.stroke(path, with: .color(.blue), lineWidth: 25)
            context.fill(path, with: .linearGradient(gradient, startPoint: from, endPoint: to))
        }
        // The gradient's ends: green near the start corner, blue near the end corner (inside the fill, which
        // covers the stroke's inner half).
        func mix(_ t: Double) -> PixelRGBA8 {
            func c(_ a: Double, _ b: Double) -> UInt8 { UInt8((a + (b - a) * t).rounded()) }
            return PixelRGBA8(r: c(52, 0), g: c(199, 122), b: c(89, 255), a: 255)
        }
        // t at a pixel centre (x + ½, y + ½): projection onto (25, 25) → (275, 175).
        func t(_ x: Int, _ y: Int) -> Double {
            let dx = 250.0, dy = 150.0
            return ((Double(x) + 0.5 - 25) * dx + (Double(y) + 0.5 - 25) * dy) / (dx * dx + dy * dy)
        }
        for (x, y) in [(60, 60), (150, 100), (240, 140)] {
            assertPixel(img, x, y, mix(t(x, y)), tolerance: Self.gradientTolerance)
        }
        // The stroke's outer half stays blue; outside everything is clear.
        assertPixel(img, 150, 18, PixelRGBA8(r: 0, g: 122, b: 255, a: 255), tolerance: 0)
        assertPixel(img, 3, 3, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
    }

    func testEveryGradientKindAndSpreadAgreesAcrossBackends() throws {
        try TestTier.requireThorough()
        let g = Gradient(stops: [.init(color: .red, location: 0.2), .init(color: .blue.opacity(0.5), location: 0.5),
                                 .init(color: .yellow, location: 0.8)])
        let options: [GraphicsContext.GradientOptions] = [[], .repeat, .mirror, .linearColor, [.repeat, .linearColor]]
        for o in options {
            let img = try render(96, 64, scale: 1.5) { ctx, size in
                let r = CGRect(origin: .zero, size: size)
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 48, height: 32)),
                         with: .linearGradient(g, startPoint: CGPoint(x: 10, y: 4), endPoint: CGPoint(x: 30, y: 20), options: o))
                ctx.fill(Path(CGRect(x: 48, y: 0, width: 48, height: 32)),
                         with: .radialGradient(g, center: CGPoint(x: 72, y: 16), startRadius: 3, endRadius: 12, options: o))
                ctx.fill(Path(CGRect(x: 0, y: 32, width: 48, height: 32)),
                         with: .conicGradient(g, center: CGPoint(x: 24, y: 48), angle: .degrees(30), options: o))
                ctx.fill(Path(CGRect(x: 48, y: 32, width: 48, height: 32)),
                         with: .radialGradient(AnyGradient(g), startCenter: CGPoint(x: 60, y: 44), startRadius: 2,
                                               endCenter: CGPoint(x: 76, y: 50), endRadius: 14, options: o))
                _ = r
            }
            // Pixel (0, 0)'s centre is before the linear gradient's start (t = −0.38): padded, the first stop's
            // red (SwiftUI's (255, 59, 48)); repeated, t = 0.62, between the blue and yellow stops, not red.
            if o == [] { assertPixel(img, 0, 0, PixelRGBA8(r: 255, g: 59, b: 48, a: 255)) }
            if o == .repeat { XCTAssertLessThan(img.pixel(x: 0, y: 0).r, 200, "\(img.pixel(x: 0, y: 0))") }
        }
    }

    func testShapeStylesMapOntoTheItemsBounds() throws {
        let img = try render(80, 40) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 40, height: 40)),
                     with: .style(LinearGradient(colors: [.white, .black], startPoint: .leading, endPoint: .trailing)))
            ctx.fill(Path(ellipseIn: CGRect(x: 40, y: 0, width: 40, height: 40)),
                     with: .style(EllipticalGradient(colors: [.white, .black])))
        }
        // Left square: t = (x + ½)/40 from white to black in sRGB-encoded values.
        for x in [0, 19, 39] {
            let v = UInt8((255 * (1 - (Double(x) + 0.5) / 40)).rounded())
            assertPixel(img, x, 20, PixelRGBA8(r: v, g: v, b: v, a: 255), tolerance: Self.gradientTolerance)
        }
        // The ellipse's centre is white.
        // At (60.5, 20.5), √½ from the centre of a 20-unit radius: t = 0.0354, 255·(1 − t) = 246.
        assertPixel(img, 60, 20, PixelRGBA8(r: 246, g: 246, b: 246, a: 255), tolerance: Self.gradientTolerance)
        let styles = try render(60, 60) { ctx, _ in
            ctx.fill(Path(CGRect(x: 5, y: 5, width: 50, height: 50)),
                     with: .style(AngularGradient(colors: [.red, .green, .blue], center: .center,
                                                  startAngle: .degrees(-90), endAngle: .degrees(90))))
            ctx.stroke(Path(ellipseIn: CGRect(x: 5, y: 5, width: 50, height: 50)),
                       with: .style(RadialGradient(colors: [.orange, .purple], center: .center, startRadius: 0,
                                                   endRadius: 30)), lineWidth: 4)
            ctx.fill(Path(CGRect(x: 20, y: 20, width: 20, height: 20)), with: .style(Color.mint.gradient))
        }
        // The angular gradient runs red → green → blue from −90° to 90° around (30, 30): pixel (45, 29)'s centre
        // is at −1.85°, t = 0.4897, 97.9 % of the way from red (255, 59, 48) to green (52, 199, 89).
        assertPixel(styles, 45, 29, PixelRGBA8(r: 56, g: 196, b: 88, a: 255), tolerance: Self.gradientTolerance)
    }

    /// Every blend mode over a translucent gradient backdrop, under partial coverage (an anti-aliased circle)
    /// and with a translucent source: the GL routes equal the reference's formulas.
    func testEveryBlendModeAgreesAcrossBackends() throws {
        try TestTier.requireThorough()
        let img = try render(112, 64) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 112, height: 64)),
                     with: .linearGradient(Gradient(colors: [.red.opacity(0.6), .cyan, .yellow.opacity(0.3)]),
                                           startPoint: .zero, endPoint: CGPoint(x: 112, y: 64)))
            for mode in 0 ..< 28 {
                var c = ctx
                c.blendMode = GraphicsContext.BlendMode(rawValue: Int32(mode))
                let x = Double(mode % 7) * 16, y = Double(mode / 7) * 16
                c.fill(Path(ellipseIn: CGRect(x: x + 1.3, y: y + 1.7, width: 13, height: 12.5)),
                       with: .color(Color(red: 0.2 + 0.02 * Double(mode), green: 0.5, blue: 0.8, opacity: 0.75)))
            }
        }
        // Inside circle 16 (.clear) nothing is left; inside circle 17 (.copy) the source alone, premultiplied:
        // (0.54, 0.5, 0.8) × 0.75 = (103.3, 95.6, 153, 191.3).
        assertPixel(img, 39, 39, PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
        assertPixel(img, 55, 39, PixelRGBA8(r: 103, g: 96, b: 153, a: 191))
    }

    /// Formulas on known pixels: multiply of opaque grey over opaque grey, screen, destinationOut, and
    /// `.copy` on a plain draw changing only what its shape covers.
    func testBlendModePixels() throws {
        func one(_ mode: GraphicsContext.BlendMode, _ src: Color) throws -> RasterImage {
            try render(8, 4) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(white: 0.5))
                var c = ctx
                c.blendMode = mode
                c.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(src))
            }
        }
        let grey = PixelRGBA8(r: 128, g: 128, b: 128, a: 255)
        var img = try one(.multiply, Color(white: 0.5))
        assertPixel(img, 1, 1, PixelRGBA8(r: 64, g: 64, b: 64, a: 255), tolerance: 1)
        assertPixel(img, 6, 1, grey, tolerance: 0)
        img = try one(.screen, Color(white: 0.5))
        assertPixel(img, 1, 1, PixelRGBA8(r: 192, g: 192, b: 192, a: 255), tolerance: 1)
        img = try one(.destinationOut, Color(white: 0, opacity: 0.5))
        assertPixel(img, 1, 1, PixelRGBA8(r: 64, g: 64, b: 64, a: 128), tolerance: 1)
        img = try one(.copy, .clear)
        assertPixel(img, 1, 1, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
        assertPixel(img, 6, 1, grey, tolerance: 0)
    }

    /// A layer composited with `.copy` replaces its whole clip region, outside its content too.
    func testCopyLayerErasesItsClipRegion() throws {
        let img = try render(20, 10) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 10)), with: .color(.blue))
            var c = ctx
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 10, height: 10)))
            c.blendMode = .copy
            c.drawLayer { l in l.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 10)), with: .color(.red)) }
        }
        assertPixel(img, 2, 5, PixelRGBA8(r: 255, g: 59, b: 48, a: 255), tolerance: 0)
        assertPixel(img, 7, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)    // cleared: in the clip
        assertPixel(img, 15, 5, PixelRGBA8(r: 0, g: 122, b: 255, a: 255), tolerance: 0)  // outside the clip
    }

    /// Found by the fuzzer: with the destination-copy route, a band's zero-coverage padding that overlaps the
    /// neighbouring piece's band (pieces are 1024 px wide) wrote the pre-draw copy back over it: column 1023
    /// came out transparent instead of black (maxDiff 255 on 14 pixels).
    func testCopyRouteAcrossPieceBorders() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [600, 40], "scale": 2, "commands": [{"op": "blendMode", "value": "darken"}, {"op": "fill", "path": {"elements": [["l", 10000, 0], ["l", 0, 0], ["m", 650, 22], ["l", -83, 177], ["l", 280, 60]], "transform": [-0.402, 0.299, -0.29, -0.401, 576.2, 65]}, "shading": {"color": "black"}}]}"#
        let scene = try Scene(jsonData: Data(json.utf8))
        let reference = try CanvasRenderer(backend: .reference).render(scene.recording, scale: scene.scale)
        XCTAssertEqual(reference.pixel(x: 1023, y: 55), PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
        for (name, r) in try renderers().dropFirst() {
            let image = try r.render(scene.recording, scale: scene.scale)
            let d = image.difference(from: reference)
            XCTAssertTrue(d.meetsDefaultBar, "\(name): maxDiff \(d.maxDiff), over2 \(d.over2)")
        }
    }

    /// Found by the fuzzer: an opaque canvas keeps no alpha even when a blend mode (here an empty layer
    /// composited with `.sourceOut`) clears pixels; GLES read back alpha 0.
    func testOpaqueCanvasHasNoAlphaAfterClearingBlendModes() throws {
        for (name, r) in try renderers() {
            let image = try r.render(size: CGSize(width: 2, height: 2), opaque: true) { ctx, _ in
                var c = ctx
                c.blendMode = .sourceOut
                c.drawLayer { _ in }
            }
            XCTAssertEqual(image.pixel(x: 1, y: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 255), name)
        }
    }

    /// Found while writing the blend-modes example: on llvmpipe the destination-copy route read stale pixels
    /// (a draw's copy taken while queued draws still used the previous one: "multiply applied twice", maxDiff up
    /// to 161, in 4 of 12 renders). Three tiles, each a layer with a multiply-blended layer inside, rendered
    /// ten times: every render meets the bar.
    func testDestinationCopyRouteIsStableAcrossRenders() throws {
        let json = ##"{"format":"gpucanvas-scene/1","size":[280,90],"scale":2,"commands":[{"op":"layer","commands":[{"op":"fill","path":{"rect":[10,10,70,70]},"shading":{"color":"#0000FF99"}},{"op":"copy","commands":[{"op":"blendMode","value":"multiply"},{"op":"layer","commands":[{"op":"fill","path":{"ellipse":[33,33,24,24]},"shading":{"color":"#FF0000CC"}}]}]}]},{"op":"layer","commands":[{"op":"fill","path":{"rect":[100,10,70,70]},"shading":{"color":"#0000FF99"}},{"op":"copy","commands":[{"op":"blendMode","value":"multiply"},{"op":"layer","commands":[{"op":"fill","path":{"ellipse":[123,33,24,24]},"shading":{"color":"#FF0000CC"}}]}]}]},{"op":"layer","commands":[{"op":"fill","path":{"rect":[190,10,70,70]},"shading":{"color":"#0000FF99"}},{"op":"copy","commands":[{"op":"blendMode","value":"multiply"},{"op":"layer","commands":[{"op":"fill","path":{"ellipse":[213,33,24,24]},"shading":{"color":"#FF0000CC"}}]}]}]}]}"##
        let scene = try Scene(jsonData: Data(json.utf8))
        let reference = try CanvasRenderer(backend: .reference).render(scene.recording, scale: scene.scale)
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas,
                                                              blendRoute: .destinationCopy)))
        for n in 0 ..< 10 {
            let d = try r.render(scene.recording, scale: scene.scale).difference(from: reference)
            XCTAssertTrue(d.meetsDefaultBar, "render \(n): \(d)")
        }
    }

    /// `.backdrop` paints what is already drawn under the item: multiplied by itself, grey 0.5 becomes 0.25;
    /// at 50 % opacity over translucent content, source-over of the destination onto itself.
    func testBackdropShadingPaintsTheDestination() throws {
        let img = try render(8, 4) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(white: 0.5))
            var c = ctx
            c.blendMode = .multiply
            c.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .backdrop)
        }
        assertPixel(img, 1, 1, PixelRGBA8(r: 64, g: 64, b: 64, a: 255), tolerance: 1)
        assertPixel(img, 6, 1, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), tolerance: 0)
        let translucent = try render(8, 4) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 4)), with: .color(.blue.opacity(0.5)))
            var c = ctx
            c.opacity = 0.5
            c.fill(Path(ellipseIn: CGRect(x: 0.5, y: 0.5, width: 7, height: 3)), with: .backdrop)
        }
        // Source (0, 61, 128, 128)/255 × 0.5 over itself: a = 0.25 + 0.5·0.75 = 0.625 → 159.
        XCTAssertEqual(Int(translucent.pixel(x: 4, y: 2).a), 159, accuracy: 1)
    }

    /// SwiftUI's static sugar compiles as pasted code writes it and records the same paint as the initializers.
    func testShapeStyleStaticSugarRecordsTheSameAsTheInitializers() {
        let path = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        let a = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            ctx.fill(path, with: .style(.linearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)))
            ctx.fill(path, with: .style(.radialGradient(colors: [.red, .blue], center: .center, startRadius: 0, endRadius: 5)))
            ctx.fill(path, with: .style(.angularGradient(colors: [.red, .blue], center: .center, startAngle: .zero,
                                                         endAngle: .degrees(180))))
            ctx.fill(path, with: .style(.ellipticalGradient(colors: [.red, .blue])))
            ctx.fill(path, with: .style(Color.red.gradient))
        }
        let b = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            ctx.fill(path, with: .style(LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)))
            ctx.fill(path, with: .style(RadialGradient(colors: [.red, .blue], center: .center, startRadius: 0, endRadius: 5)))
            ctx.fill(path, with: .style(AngularGradient(colors: [.red, .blue], center: .center, startAngle: .zero,
                                                        endAngle: .degrees(180))))
            ctx.fill(path, with: .style(EllipticalGradient(colors: [.red, .blue])))
            ctx.fill(path, with: .style(Color.red.gradient))
        }
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.drawCount, 5)
    }

    /// `.perceptual` interpolates in Oklab: halfway from white to black, L = 0.5 is linear 0.5³ = 0.125, which
    /// sRGB-encodes to 0.39 (99), where `.device` interpolation gives 128.
    func testPerceptualGradientsInterpolateInOklab() throws {
        let gradient = Gradient(colors: [.white, .black])
        let img = try render(64, 2) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 64, height: 1)),
                     with: .style(LinearGradient(gradient: gradient, startPoint: .leading, endPoint: .trailing)
                        .colorSpace(.perceptual)))
            ctx.fill(Path(CGRect(x: 0, y: 1, width: 64, height: 1)),
                     with: .linearGradient(gradient, startPoint: .zero, endPoint: CGPoint(x: 64, y: 0)))
        }
        // Pixel 31's centre is t = 31.5/64 on both rows.
        let t = 31.5 / 64.0
        let lab = Float(1 - t)
        let perceptual = UInt8((255 * ColorTransfer.encode(Double(lab * lab * lab))).rounded())
        let device = UInt8((255 * (1 - t)).rounded())
        assertPixel(img, 31, 0, PixelRGBA8(r: perceptual, g: perceptual, b: perceptual, a: 255), tolerance: Self.gradientTolerance)
        assertPixel(img, 31, 1, PixelRGBA8(r: device, g: device, b: device, a: 255), tolerance: Self.gradientTolerance)
        // Every shading and colour mode agree across backends with perceptual stops.
        for mode in ColorRenderingMode.allCases {
            let img = try render(48, 24, colorMode: mode) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 48, height: 24)),
                         with: .style(LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing)
                            .colorSpace(.perceptual)))
                ctx.fill(Path(ellipseIn: CGRect(x: 8, y: 2, width: 30, height: 20)),
                         with: .style(Color.orange.gradient.colorSpace(.perceptual)))
            }
            // Pixel (0, 0) is 1 % along red → blue, outside the ellipse: opaque and still red in any mode.
            let left = img.pixel(x: 0, y: 0)
            XCTAssertTrue(left.a == 255 && left.r >= 240 && left.b <= 60, "\(mode): \(left)")
        }
    }
}
