// The CPU reference renderer: written to be obviously right, and independent of the GL path.
//
// It draws a `LoweredFrame` (the shared lowering stage has validated the recording, resolved the paints and
// put every draw's and clip's contours in device space). For each op, in order:
// - `draw`: the shape's contours become exact-area coverage (`CellRasterizer`) or 0/1 centre samples
//   (`CentreSampler`, `antialiased: false`), row by row; each row span goes through the pipeline
//   coverage × clip mask → shade (the paint's premultiplied colour per pixel × opacity) → blend into the
//   current layer: dst + coverage · (blend(src, dst) − dst);
// - `pushLayer`: a new transparent layer over the op's box;
// - `popLayer`: the layer's pixels, through its colour filters (`ColorFilterFormulas`), are the source of one
//   more blend into its parent, × opacity × clip, over the composite's box.
// Clip masks are float coverage over the clip's box, the product of their entries (paths rasterized here,
// `clipToLayer` contents rendered here into a layer of their own and read as alpha), made once per frame.
//
// Storage mirrors what the GPU stores: an RGBA8 premultiplied frame and RGBA8 layers in the `.nonLinear`
// colour mode, each blend computed in Float from the stored bytes and rounded once to 8 bits
// (`ReferenceCompositor`).

/// The CPU reference renderer.
///
/// ```swift
/// let image = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 4, height: 4)) { ctx, _ in
///     ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)), with: .color(.white))
/// }
/// image.pixel(x: 1, y: 0)   // PixelRGBA8(r: 255, g: 255, b: 255, a: 255); x = 2 is transparent
/// ```
package final class ReferenceBackend: RenderBackend {
    package var name: String { "reference (CPU)" }
    package var glyphCacheStatistics: GlyphCacheStatistics { lowering.glyphCacheStatistics }
    private let lowering: Lowering
    package init(features: Lowering.Features = .drawnByBothBackends) { lowering = Lowering(features: features) }

    package func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage {
        let frame = try lowering.lower(recording, target: target)
        var renderer = ReferenceFrameRenderer(frame: frame)
        return renderer.run()
    }
}

/// A premultiplied pixel grid over `box` (device pixels): the frame or a layer. `.nonLinear` canvases store
/// RGBA8 (`pixels`), as the GPU's BGRA8/RGBA8 targets do; `.linear` and `.extendedLinear` store half floats
/// (`halfs`, each value a Float16), as the GPU's RGBA16F targets do.
package struct ReferenceSurface {
    package let box: PixelRect
    package var pixels: [UInt8]
    package var halfs: [Float]
    package let isHalfFloat: Bool

    package init(box: PixelRect, opaqueBlack: Bool = false, halfFloat: Bool = false) {
        self.box = box
        isHalfFloat = halfFloat
        pixels = halfFloat ? [] : [UInt8](repeating: 0, count: box.width * box.height * 4)
        halfs = halfFloat ? [Float](repeating: 0, count: box.width * box.height * 4) : []
        if opaqueBlack {
            if halfFloat {
                for i in Swift.stride(from: 3, to: halfs.count, by: 4) { halfs[i] = 1 }
            } else {
                for i in Swift.stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
            }
        }
    }

    /// Byte offset of device pixel (x, y), which must lie in `box`.
    @inline(__always)
    package func offset(x: Int, y: Int) -> Int { ((y - box.y) * box.width + (x - box.x)) * 4 }

    /// The premultiplied colour at device pixel (x, y); transparent outside `box`.
    package func color(x: Int, y: Int) -> SIMD4<Float> {
        guard x >= box.x, y >= box.y, x < box.x + box.width, y < box.y + box.height else { return .zero }
        let o = offset(x: x, y: y)
        if isHalfFloat { return SIMD4(halfs[o], halfs[o + 1], halfs[o + 2], halfs[o + 3]) }
        return SIMD4(Float(pixels[o]), Float(pixels[o + 1]), Float(pixels[o + 2]), Float(pixels[o + 3])) / 255
    }
}

/// Runs one lowered frame.
package struct ReferenceFrameRenderer {
    package let frame: LoweredFrame
    private var cells: CellRasterizer
    private var centres: CentreSampler
    /// Clip masks made so far, by clip index: coverage 0…1 over the clip's box.
    private var masks: [Int: (box: PixelRect, values: [Float])] = [:]

    package init(frame: LoweredFrame) {
        self.frame = frame
        cells = CellRasterizer(width: frame.target.width, height: frame.target.height)
        centres = CentreSampler(width: frame.target.width, height: frame.target.height)
    }

    /// Layers and the frame store half floats in the linear colour modes.
    private var halfFloat: Bool { frame.colorMode != .nonLinear }

    package mutating func run() -> RasterImage {
        var surface = ReferenceSurface(box: frame.target.pixelRect, opaqueBlack: frame.isOpaque, halfFloat: halfFloat)
        execute(frame.ops, into: &surface)
        var image: RasterImage
        if surface.isHalfFloat {
            image = RasterImage(width: frame.target.width, height: frame.target.height,
                                pixels: OutputEncoding.encodeLinear(surface.halfs))
        } else {
            image = RasterImage(width: frame.target.width, height: frame.target.height, pixels: surface.pixels)
        }
        if frame.isOpaque {
            // The output of an opaque canvas has no alpha: every pixel is opaque whatever was drawn.
            for i in Swift.stride(from: 3, to: image.pixels.count, by: 4) { image.pixels[i] = 255 }
        }
        return image
    }

    /// Executes `ops` into `base`; nested layers are pushed and popped on a local stack.
    private mutating func execute(_ ops: [LoweredOp], into base: inout ReferenceSurface) {
        var stack: [ReferenceSurface] = []
        for op in ops {
            switch op {
            case .draw(let d):
                if stack.isEmpty { draw(d, into: &base) } else { draw(d, into: &stack[stack.count - 1]) }
            case .pushLayer(let box, let precise):
                stack.append(ReferenceSurface(box: box, halfFloat: halfFloat || precise))
            case .popLayer(let c):
                let layer = stack.removeLast()
                if stack.isEmpty { composite(layer, c, into: &base) } else { composite(layer, c, into: &stack[stack.count - 1]) }
            }
        }
    }

    // MARK: Draws

    private mutating func draw(_ d: LoweredDraw, into surface: inout ReferenceSurface) {
        let polys = frame.stores[d.shape.store].subset(contours: d.shape.contours)
        let rule: CellRasterizer.Rule = d.shape.rule == .evenOdd ? .evenOdd : .nonZero
        // A draw inside a layer may reach beyond the layer's box (which is bounded by the layer's clip).
        guard let box = d.box.intersection(surface.box) else { return }
        let mask = d.clip.map { clipMask($0) }
        let opacity = d.opacity
        let blend = d.blend
        var paint = d.paint
        // A mesh gradient's paint image is made here, from the lowering's triangles and colour surfaces.
        if case .image(let i) = paint, i.mesh != nil { paint = .image(i.withPixels()) }
        // Rows of coverage arrive for the shape's box; only `box` (∩ the clip's box) can change.
        var rowCoverage = [Float](repeating: 0, count: box.width)
        let targetRect = frame.target.pixelRect
        let body = { (y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, surface: inout ReferenceSurface) in
            guard y >= box.y, y < box.y + box.height else { return }
            let lo = max(x0, box.x), hi = min(x0 + coverage.count, box.x + box.width)
            guard hi > lo else { return }
            if mask == nil, blend == .normal, case .solid(let c) = paint, surface.box == targetRect, !surface.isHalfFloat {
                // The common case: source-over of a colour, straight from the coverage row.
                surface.pixels.withUnsafeMutableBufferPointer { px in
                    ReferenceCompositor.sourceOver(row: y, x0: lo, coverage: UnsafeBufferPointer(rebasing: coverage[(lo - x0) ..< (hi - x0)]),
                                                   paint: c, opacity: opacity, width: surface.box.width,
                                                   pixels: px.baseAddress!)
                }
                return
            }
            for x in lo ..< hi {
                var c = coverage[x - x0]
                if let mask { c *= mask.values[(y - mask.box.y) * mask.box.width + (x - mask.box.x)] }
                rowCoverage[x - box.x] = c
            }
            for x in lo ..< hi {
                let c = rowCoverage[x - box.x]
                guard c > 0 else { continue }
                // The backdrop is the destination as it is before this draw (each pixel is read before it is written).
                let src = (paint.isBackdrop ? surface.color(x: x, y: y) : Self.shade(paint, x: x, y: y)) * opacity
                ReferenceCompositor.blend(blend, source: src, coverage: c, into: &surface, x: x, y: y)
            }
        }
        if d.shape.antialiased {
            cells.rasterize(polys, rule: rule) { y, x0, cov in body(y, x0, cov, &surface) }
        } else {
            centres.rasterize(polys, rule: rule) { y, x0, cov in body(y, x0, cov, &surface) }
        }
    }

    /// The paint's premultiplied colour at the centre of pixel (x, y).
    @inline(__always)
    package static func shade(_ paint: LoweredPaint, x: Int, y: Int) -> SIMD4<Float> {
        switch paint {
        case .solid(let c): return SIMD4(c.r, c.g, c.b, c.a)
        case .gradient(let g): return g.color(at: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        case .image(let i): return i.color(at: SIMD2(Double(x) + 0.5, Double(y) + 0.5))
        case .backdrop: return .zero  // read from the surface by the caller
        }
    }

    // MARK: Layers

    private mutating func composite(_ layer: ReferenceSurface, _ c: LayerComposite, into surface: inout ReferenceSurface) {
        let f = c.filter
        guard !f.stages.isEmpty else {
            composite({ layer.color(x: $0, y: $1) }, color: f.finalColor, blend: c.blend, c, into: &surface)
            return
        }
        let (image, lastInput) = FilterFormulas.run(f, layer: FilterImage(layer))
        if let shadowBlend = f.separateShadowBlend, let last = f.stages.last {
            // `disablesGroup`: the shadow alone, then the input through the stage's prefilter.
            composite({ image[$0, $1] }, color: [], blend: shadowBlend, c, into: &surface)
            composite({ lastInput[$0, $1] }, color: last.prefilter, blend: c.blend, c, into: &surface)
        } else if f.upsampledByComposite, case .blur(let plan)? = f.stages.last?.kind {
            composite({ FilterFormulas.upsampled(image, factor: plan.factor, x: $0, y: $1) }, color: [], blend: c.blend, c,
                      into: &surface)
        } else {
            composite({ image[$0, $1] }, color: f.finalColor, blend: c.blend, c, into: &surface)
        }
    }

    /// One blend of `source` (through the colour steps `color`) into `surface` over the composite's box, × its
    /// opacity, through its clip.
    private mutating func composite(_ source: (Int, Int) -> SIMD4<Float>, color: [ColorFilterStep],
                                    blend: GraphicsContext.BlendMode, _ c: LayerComposite,
                                    into surface: inout ReferenceSurface) {
        guard let box = c.box.intersection(surface.box) else { return }
        let mask = c.clip.map { clipMask($0) }
        for y in box.y ..< box.y + box.height {
            for x in box.x ..< box.x + box.width {
                // The layer is the source over the whole composite box (transparent outside the layer's own
                // box), scaled by opacity; the clip is coverage.
                let cov = mask.map { $0.values[(y - $0.box.y) * $0.box.width + (x - $0.box.x)] } ?? 1
                guard cov > 0 else { continue }
                var layerColor = source(x, y)
                if !color.isEmpty { layerColor = ColorFilterFormulas.apply(color, to: layerColor) }
                let src = layerColor * c.opacity
                ReferenceCompositor.blend(blend, source: src, coverage: cov, into: &surface, x: x, y: y)
            }
        }
    }

    // MARK: Clips

    /// The coverage of clip `index` over its box, made on first use.
    private mutating func clipMask(_ index: Int) -> (box: PixelRect, values: [Float]) {
        if let m = masks[index] { return m }
        let clip = frame.clips[index]
        guard let box = clip.box else {
            let m = (PixelRect(x: 0, y: 0, width: 1, height: 1), [Float(0)])
            masks[index] = m
            return m
        }
        var values = [Float](repeating: 1, count: box.width * box.height)
        for entry in clip.entries {
            var entryValues = [Float](repeating: 0, count: box.width * box.height)
            let inverse: Bool
            switch entry {
            case .shape(let shape, let inv):
                inverse = inv
                if let shape {
                    let polys = frame.stores[shape.store].subset(contours: shape.contours)
                    let rule: CellRasterizer.Rule = shape.rule == .evenOdd ? .evenOdd : .nonZero
                    let write = { (y: Int, x0: Int, cov: UnsafeBufferPointer<Float>) in
                        guard y >= box.y, y < box.y + box.height else { return }
                        for i in 0 ..< cov.count {
                            let x = x0 + i
                            guard x >= box.x, x < box.x + box.width else { continue }
                            entryValues[(y - box.y) * box.width + (x - box.x)] = cov[i]
                        }
                    }
                    if shape.antialiased { cells.rasterize(polys, rule: rule, write) } else { centres.rasterize(polys, rule: rule, write) }
                }
            case .mask(let ops, let contentBox, let opacity, let inv):
                inverse = inv
                if let contentBox {
                    var layer = ReferenceSurface(box: contentBox, halfFloat: halfFloat)
                    execute(ops, into: &layer)
                    for y in box.y ..< box.y + box.height {
                        for x in box.x ..< box.x + box.width {
                            entryValues[(y - box.y) * box.width + (x - box.x)] = layer.color(x: x, y: y).w * opacity
                        }
                    }
                }
            }
            for i in values.indices { values[i] *= inverse ? 1 - entryValues[i] : entryValues[i] }
        }
        masks[index] = (box, values)
        return (box, values)
    }
}

extension LoweredPaint {
    package var isBackdrop: Bool {
        if case .backdrop = self { return true }
        return false
    }
}
