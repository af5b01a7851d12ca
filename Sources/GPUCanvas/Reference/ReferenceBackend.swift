// The CPU reference renderer: written to be obviously right, and independent of the GL path.
//
// For each draw, in order: the path becomes device-space polygons (`Flatten.fill` for fills,
// `Stroker.outline` for strokes, under `draw.transform` then the target's scale); `CellRasterizer` turns them
// into exact-area coverage (or `CentreSampler` into 0/1 centre samples for `antialiased: false`);
// `ReferenceCompositor` blends paint × coverage × opacity source-over into the RGBA8 target with one rounding
// per draw, as an RGBA8 framebuffer does. The whole recording is validated before any pixel is touched, so
// a bad draw fails the frame with an error that names it instead of leaving a half-drawn image.
//
// Only what the recording model holds today is drawn: solid paint, `.normal` blending, the `.nonLinear`
// colour mode (8-bit sRGB-encoded storage). Anything else throws `RenderError.unsupported`, never a
// substitute picture.

/// The CPU reference renderer.
///
/// ```swift
/// let image = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 4, height: 4)) { ctx, _ in
///     ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)), with: .color(.white))
/// }
/// image.pixel(x: 1, y: 0)   // PixelRGBA8(r: 255, g: 255, b: 255, a: 255); x = 2 is transparent
/// ```
final class ReferenceBackend: RenderBackend {
    var name: String { "reference (CPU)" }

    func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage {
        guard recording.colorMode == .nonLinear else {
            throw RenderError.unsupported("colorMode .\(recording.colorMode) on the reference backend")
        }
        let draws = try Self.validatedDraws(recording.root)

        let w = target.width, h = target.height
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        if recording.isOpaque {
            // Opaque canvases start from opaque black.
            for i in Swift.stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        }
        var cells = CellRasterizer(width: w, height: h)
        var centres = CentreSampler(width: w, height: h)

        try pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for (index, draw) in draws {
                let device = draw.transform.concatenating(target.deviceTransform)
                let polys: Polygons
                var rule = CellRasterizer.Rule.nonZero
                var antialiased = true
                switch draw.geometry {
                case .fill(let path, let style):
                    polys = Flatten.fill(path, transform: device)
                    rule = style.isEOFilled ? .evenOdd : .nonZero
                    antialiased = style.isAntialiased
                case .stroke(let path, let style):
                    do {
                        polys = try Stroker.outline(path, style: style, transform: device, visible: target.bounds)
                    } catch {
                        throw RenderError.invalidGeometry("draw #\(index): \(error)")
                    }
                }
                // Finite inputs can still overflow under the transform (10³⁰⁰ × 10¹⁰).
                guard polys.points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
                    throw RenderError.invalidGeometry(
                        "draw #\(index): device coordinates overflow to infinity under the transform")
                }
                let paint: RGBA
                switch draw.paint {
                case .solid(let c): paint = c
                }
                let opacity = Float(min(max(draw.state.opacity, 0), 1))
                let blend = { (y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>) in
                    ReferenceCompositor.sourceOver(row: y, x0: x0, coverage: coverage, paint: paint,
                                                   opacity: opacity, width: w, pixels: base)
                }
                if antialiased {
                    cells.rasterize(polys, rule: rule, blend)
                } else {
                    centres.rasterize(polys, rule: rule, blend)
                }
            }
        }
        if recording.isOpaque {
            // The output of an opaque canvas has no alpha: every pixel is opaque whatever was drawn.
            for i in Swift.stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        }
        return RasterImage(width: w, height: h, pixels: pixels)
    }

    /// Every draw of `layer` in drawing order with its index (as `Recording.description` numbers them),
    /// after checking that each can be drawn.
    static func validatedDraws(_ layer: RecordedLayer) throws -> [(index: Int, draw: DrawCommand)] {
        var draws: [(Int, DrawCommand)] = []
        for (index, item) in layer.items.enumerated() {
            switch item {
            case .draw(let d):
                try validate(d, index: index)
                draws.append((index, d))
            }
        }
        return draws
    }

    /// Throws for a draw with non-finite geometry, transform, stroke numbers, opacity or paint, or one that
    /// uses something this backend does not draw.
    ///
    /// A path with a NaN point at index 3 → `invalidGeometry("draw #3: path point (nan, 0) is not finite")`.
    static func validate(_ d: DrawCommand, index: Int) throws {
        func bad(_ what: String) -> RenderError { .invalidGeometry("draw #\(index): \(what)") }
        guard d.state.blendMode == .normal else {
            throw RenderError.unsupported("blend mode \(d.state.blendMode) (draw #\(index))")
        }
        guard d.transform.isFinite else { throw bad("transform \(d.transform) is not finite") }
        guard !d.state.opacity.isNaN else { throw bad("opacity is NaN") }
        switch d.paint {
        case .solid(let c):
            guard c.r.isFinite, c.g.isFinite, c.b.isFinite, c.a.isFinite else { throw bad("paint \(c) is not finite") }
        }
        if case .stroke(_, let style) = d.geometry {
            guard style.lineWidth.isFinite else { throw bad("line width \(style.lineWidth) is not finite") }
            guard style.miterLimit.isFinite else { throw bad("miter limit \(style.miterLimit) is not finite") }
            guard style.dashPhase.isFinite, style.dash.allSatisfy(\.isFinite) else {
                throw bad("dash \(style.dash) phase \(style.dashPhase) is not finite")
            }
        }
        func check(_ p: CGPoint) throws {
            guard p.x.isFinite && p.y.isFinite else { throw bad("path point (\(p.x), \(p.y)) is not finite") }
        }
        for element in d.path.elements {
            switch element {
            case .move(let p), .line(let p): try check(p)
            case .quadCurve(let p, let c): try check(p); try check(c)
            case .curve(let p, let c1, let c2): try check(p); try check(c1); try check(c2)
            case .closeSubpath: break
            }
        }
    }
}
