// The composite route's emit phase: a `GatheredFrame` and its coverage → render passes of the composite
// programs (`composite*.glsl`, sharing `include/composite_*.glsl`), the mask programs and `filter.glsl`.
//
// The gather decided what to draw where; the emitter keeps the mechanics: which target is current and whether
// its pass has begun (the first clears it: the frame to the clear colour, a layer to transparent over its box,
// a mask page to 0), the scissor a pass has, consecutive instances with the same pipeline, variant and state
// gathered into one draw call, the coverage atlas reloaded when a band of the next batch comes up (an upload for
// the raster atlas, an accumulation pass for GPU tessellation), and on the destination-copy route a copy of the
// target's pixels under each shader-blended draw (a draw call per draw). Each instance draws with a program
// specialised for its coverage source, paint, gradient kind and (shader-blended pipelines) blend mode
// (`ShaderVariant`), so that each program does only its own instances' work per pixel.

final class CompositeEmitter {
    private var gathered = GatheredFrame()
    private var coverage = CoverageSet(kind: .coverage, atlasFormat: .r8, shapes: 0)
    private var paintLayers: [CoverageSet] = []
    private var route = BlendRoute.framebufferFetch
    private var meshVertexFetch = false
    private var cb = CommandBuffer()

    /// The targets open now; a pass is open on the last one when `passIsOpen`.
    private var targets: [CompositeTarget] = []
    private var passIsOpen = false
    /// The scissor the open pass has (each pass starts without one).
    private var scissorRect: PixelRect?
    private var loadedBatch = -1
    /// Added to every instance: a hoisted layer's device pixels → its region of the layer atlas.
    private var shift = (0, 0)
    private var instances: [CompositeInstance] = []
    /// Where the frame's composite instances start in the instance buffer.
    private var instanceBase = 0
    /// The draw call being gathered: pipeline, its specialisation, state and its first instance.
    private var pending: (pipeline: Pipeline, variant: ShaderVariant, state: CompositeState, first: Int)?
    private var boundPipeline: (Pipeline, ShaderVariant)?
    private var boundState: CompositeState?

    /// Emits `gathered` into `commandBuffer`, whose textures and staging already hold the coverage phase's
    /// atlases.
    func emit(_ gathered: GatheredFrame, coverage: CoverageSet, paintLayers: [CoverageSet], target: RenderTarget,
              clearColor: RGBA, frameFormat: TextureFormat, route: BlendRoute, meshVertexFetch: Bool = false,
              into commandBuffer: inout CommandBuffer) {
        self.meshVertexFetch = meshVertexFetch
        (self.gathered, self.coverage, self.paintLayers, self.route) = (gathered, coverage, paintLayers, route)
        swap(&cb, &commandBuffer)
        defer {
            swap(&cb, &commandBuffer)
            self.gathered = GatheredFrame()
            self.paintLayers = []
        }
        targets = [CompositeTarget(ref: .frame, box: target.pixelRect, clear: clearColor)]
        (passIsOpen, scissorRect, loadedBatch, shift, pending) = (false, nil, -1, (0, 0), nil)
        (boundPipeline, boundState) = (nil, nil)
        instances.removeAll(keepingCapacity: true)
        declareTextures(target, frameFormat: frameFormat)
        instanceBase = cb.reserveInstances(instanceCount, pipeline: .composite)
        for step in gathered.steps { take(step) }
        flush()
        writePrologue()
    }

    private func take(_ step: CompositeStep) {
        switch step {
        case .push(let t):
            flush()
            targets.append(t)
            passIsOpen = false
        case .pop:
            flush()
            passIsOpen = false
            targets.removeLast()
        case .openPass: openPass()
        case .scissor(let region): scissor(region)
        case .declare(let ref, let desc, let atLeast): declare(ref, desc, atLeast: atLeast)
        case .shift(let x, let y): shift = (x, y)
        case .instance(let instance, let pipeline, let state, let variant, let copyBox):
            if let copyBox {
                emit(instance, pipeline: pipeline, state: state, copyBox: copyBox)
            } else {
                append(instance, pipeline: pipeline, state: state, variant: variant)
            }
        case .bands(let bands): emitBands(bands)
        case .flush: flush()
        case .paintLayers(let k): drawPaintLayers(k)
        case .meshPaint(let k): drawMeshes(k)
        }
    }

    /// Composite instances the steps write: one per instance step, one per band of each bands step's shape.
    private var instanceCount: Int {
        gathered.steps.reduce(0) {
            switch $1 {
            case .instance: return $0 + 1
            case .bands(let b): return $0 + coverage.shapeBands[b.shape].count
            default: return $0
            }
        }
    }

    // MARK: Textures and the prologue

    private func declareTextures(_ target: RenderTarget, frameFormat: TextureFormat) {
        let g = gathered
        cb.declare(.frame, TextureDesc(width: target.width, height: target.height, format: frameFormat))
        if !g.paintRows.isEmpty {
            let width = g.paintRows.map(\.count).max() ?? 1
            cb.declare(.paintData, TextureDesc(width: width, height: g.paintRows.count, format: .rgba32f))
        }
        for (i, page) in g.maskPages.enumerated() {
            cb.declare(.mask(i), TextureDesc(width: page.width, height: page.height, format: g.maskFormat))
        }
        let meshSlots = Set(g.meshPages.map(\.slot))
        for (i, image) in g.images.enumerated() where !meshSlots.contains(i) {
            cb.declare(.image(i), TextureDesc(width: image.width, height: image.height, format: .rgba8))
        }
        for page in g.meshPages {
            cb.declare(.image(page.slot), TextureDesc(width: page.width, height: page.height, format: .rgba8))
        }
        guard route == .destinationCopy else { return }
        // A destination copy is made at the target's texels: as large as the frame or any layer atlas page.
        let copyWidth = max(target.width, g.layerAtlasPages.map(\.width).max() ?? 0)
        let copyHeight = max(target.height, g.layerAtlasPages.map(\.height).max() ?? 0)
        if g.usesPreciseLayers || g.layerAtlasPages.contains(where: \.precise) {
            cb.declare(.preciseDestinationCopy, TextureDesc(width: copyWidth, height: copyHeight, format: .rgba16f))
        }
        cb.declare(.destinationCopy, TextureDesc(width: copyWidth, height: copyHeight, format: frameFormat))
    }

    private func declare(_ ref: TextureRef, _ desc: TextureDesc, atLeast: Bool) {
        if atLeast, let d = cb.desc(of: ref), d.format == desc.format {
            cb.declare(ref, TextureDesc(width: max(d.width, desc.width), height: max(d.height, desc.height),
                                        format: desc.format))
        } else {
            cb.declare(ref, desc)
        }
    }

    /// The instances, paint data and images, uploaded before the first pass.
    private func writePrologue() {
        if !instances.isEmpty {
            let bytes = instances.count * CompositeInstance.stride
            let start = cb.reserveStaging(bytes)
            instances.withUnsafeBytes { cb.staging.base.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            cb.prologue.append(.uploadInstances(range: start ..< start + bytes, bufferOffset: instanceBase,
                                                count: instances.count, pipeline: .composite))
        }
        let rows = gathered.paintRows
        if !rows.isEmpty {
            let width = rows.map(\.count).max() ?? 1
            let start = cb.reserveStaging(width * rows.count * 16)
            let texels = (cb.staging.base + start).bindMemory(to: SIMD4<Float>.self, capacity: width * rows.count)
            for (r, row) in rows.enumerated() {
                for (i, t) in row.enumerated() { texels[r * width + i] = t }
            }
            cb.prologue.append(.uploadTexture(.paintData, rect: TexelRect(x: 0, y: 0, width: width, height: rows.count),
                                              format: .rgba32f, source: start))
        }
        let meshSlots = Set(gathered.meshPages.map(\.slot))
        for (i, image) in gathered.images.enumerated() where !meshSlots.contains(i) {
            let bytes = image.width * image.height * 4
            let start = cb.reserveStaging(bytes, zeroed: false)
            image.pixels.withUnsafeBytes { cb.staging.base.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            cb.prologue.append(.uploadTexture(.image(i), rect: TexelRect(x: 0, y: 0, width: image.width,
                                                                         height: image.height),
                                              format: .rgba8, source: start))
        }
    }

    // MARK: Instances and draw calls

    /// One instance per band of the step's shape, moved by its offset, into the current target.
    private func emitBands(_ s: BandsStep) {
        let kind: CompositeInstance.CoverageSource = coverage.kind == .coverage ? .atlas : .accumulated
        let bands = coverage.shapeBands[s.shape]
        // Every pixel the bands rasterize reads the destination, their zero-coverage padding included: the
        // copy route copies the union of the band rectangles, and a trapezoid's sides may stick out of its
        // rectangle by `bandPadding` pixels.
        var reach: PixelRect?
        if s.pipeline == .compositeCopy {
            for b in bands {
                let band = coverage.bands[b]
                let pad = band.leftTop != 0 || band.leftBottom != 0 || band.rightTop != 0 || band.rightBottom != 0
                    ? CoverageAccumulator.bandPadding : 0
                let r = PixelRect(x: Int(band.x) - pad, y: Int(band.y), width: Int(band.w) + 2 * pad, height: Int(band.h))
                reach = reach.map { $0.union(r) } ?? r
            }
        }
        for b in bands {
            let band = coverage.bands[b]
            if Int(band.batch) != loadedBatch {
                flush()
                load(batch: Int(band.batch))
            }
            var instance = CompositeInstance(x: band.x + Int16(s.offset.0), y: band.y + Int16(s.offset.1), w: band.w,
                                             h: band.h, u: band.u, v: band.v, rule: band.rule, coverage: kind.rawValue,
                                             leftTop: band.leftTop, leftBottom: band.leftBottom,
                                             rightTop: band.rightTop, rightBottom: band.rightBottom,
                                             paint: s.paint.rawValue, paintRow: Int16(s.row),
                                             blendMode: Int16(s.blend.rawValue), r: s.color.x, g: s.color.y,
                                             b: s.color.z, a: s.color.w)
            if let c = s.clip { c.set(on: &instance) }
            if b == bands.lowerBound, let reach {
                emit(instance, pipeline: s.pipeline, state: s.state, copyBox: reach)
            } else {
                append(instance, pipeline: s.pipeline, state: s.state)
            }
        }
        if s.pipeline == .compositeCopy { flush() }
    }

    /// The program specialisation an instance draws with.
    private func variant(of i: CompositeInstance, _ p: Pipeline) -> ShaderVariant {
        var v = ShaderVariant(coverage: i.coverage, paint: i.paint)
        v.unclipped = i.clipW == 0
        if i.paint == CompositeInstance.PaintSource.gradient.rawValue, gathered.gradientHeaders[Int(i.paintRow)].w > 0 {
            let h = gathered.gradientHeaders[Int(i.paintRow)]
            v.gradientKind = Int16(h.x)
            v.gradientSpread = Int16(h.y)
            v.gradientEncodes = Int(h.z) & 1 != 0
            v.gradientOklab = Int(h.z) & 2 != 0
            v.fewStops = Int(h.w) <= 4
        }
        if i.paint == CompositeInstance.PaintSource.image.rawValue, Int(gathered.paintRows[Int(i.paintRow)][1].z) & 2 != 0 {
            v.imageNearest = true
        }
        if p == .compositeFetch || p == .compositeCopy { v.blendMode = i.blendMode }
        return v
    }

    /// A draw's first instance: with the copy route, the destination under `copyBox` is copied first.
    private func emit(_ instance: CompositeInstance, pipeline p: Pipeline, state: CompositeState, copyBox: PixelRect) {
        if p == .compositeCopy {
            flush()
            ensurePass()
            let t = targets[targets.count - 1]
            // In the target's coordinates: a hoisted layer's device pixels are shifted to its region.
            let copyBox = PixelRect(x: copyBox.x + shift.0, y: copyBox.y + shift.1, width: copyBox.width,
                                    height: copyBox.height)
            if let r = copyBox.intersection(t.box) {
                let into: TextureRef
                switch t.ref {
                case .preciseLayer, .preciseLayerAtlas: into = .preciseDestinationCopy
                default: into = .destinationCopy
                }
                cb.passes[cb.passes.count - 1].commands.append(
                    .copyDestination(TexelRect(x: r.x - t.box.x, y: r.y - t.box.y, width: r.width, height: r.height),
                                     into: into))
            }
        }
        append(instance, pipeline: p, state: state)
        if p == .compositeCopy { flush() }
    }

    private func append(_ instance: CompositeInstance, pipeline: Pipeline, state: CompositeState,
                        variant given: ShaderVariant? = nil) {
        ensurePass()
        var instance = instance
        if shift != (0, 0) {
            instance.shiftX = Int16(shift.0)
            instance.shiftY = Int16(shift.1)
        }
        let variant = given ?? self.variant(of: instance, pipeline)
        if let p = pending, p.pipeline != pipeline || p.variant != variant || p.state != state { flush() }
        if pending == nil { pending = (pipeline, variant, state, instances.count) }
        instances.append(instance)
        cb.coveredPixels += Int(instance.w) * Int(instance.h)
    }

    /// Ends the draw call being gathered.
    private func flush() {
        guard let p = pending else { return }
        pending = nil
        let count = instances.count - p.first
        guard count > 0, !cb.passes.isEmpty else { return }
        let pass = cb.passes.count - 1
        if boundPipeline.map({ $0.0 != p.pipeline || $0.1 != p.variant }) ?? true {
            cb.passes[pass].commands.append(.bindVariant(p.pipeline, p.variant))
            boundPipeline = (p.pipeline, p.variant)
            boundState = nil
        }
        if boundState != p.state {
            cb.passes[pass].commands.append(.setComposite(p.state))
            boundState = p.state
        }
        cb.passes[pass].commands.append(.draw(instanceCount: count,
                                              bufferOffset: instanceBase + p.first * CompositeInstance.stride,
                                              pipeline: p.pipeline))
    }

    /// Makes the atlas hold `batch`.
    private func load(batch: Int) {
        let b = coverage.batches[batch]
        // The atlas pass ends the target's pass; the one that reopens it must keep the scissor the draws
        // being emitted rely on (a clip entry's bands reaching into a neighbouring clip's mask region).
        let keptScissor = scissorRect
        if let pass = b.pass {
            cb.passes.append(pass)
            passIsOpen = false
            boundPipeline = nil
            scissorRect = nil
        }
        if !b.uploads.isEmpty {
            ensurePass()
            cb.passes[cb.passes.count - 1].commands.append(contentsOf: b.uploads)
        }
        loadedBatch = batch
        if let keptScissor { scissor(keptScissor) }
    }

    /// A layer-atlas page's paint layers, drawn by the cover program from their paint-form coverage (its own
    /// atlas, `.atlas(1)`) into the page's open pass.
    private func drawPaintLayers(_ k: Int) {
        flush()
        ensurePass()
        let page = gathered.paintLayers[k]
        CoverEmitter.emit(paintLayers[k], paths: page.paths, atlas: .atlas(1), placements: page.placements,
                          into: &cb) { $0.passes.count - 1 }
        boundPipeline = nil
        boundState = nil
        if cb.desc(of: .atlas(0)) != nil { cb.passes[cb.passes.count - 1].commands.append(.bindTexture(unit: 0, .atlas(0))) }
    }

    /// A mesh page's triangles (`mesh_paint.glsl`), into its open pass: one indexed draw call.
    private func drawMeshes(_ k: Int) {
        flush()
        ensurePass()
        let page = gathered.meshPages[k]
        guard !page.indices.isEmpty else { return }
        let offset = cb.reserveInstances(page.vertices.count, pipeline: .meshPaint)
        let bytes = page.vertices.count * MeshVertex.stride
        let start = cb.reserveStaging(bytes, zeroed: false)
        page.vertices.withUnsafeBytes { cb.staging.base.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
        cb.prologue.append(.uploadInstances(range: start ..< start + bytes, bufferOffset: offset,
                                            count: page.vertices.count, pipeline: .meshPaint))
        let indexBytes = page.indices.count * 4
        let indexStart = cb.reserveStaging(indexBytes, zeroed: false)
        page.indices.withUnsafeBytes {
            cb.staging.base.advanced(by: indexStart).copyMemory(from: $0.baseAddress!, byteCount: indexBytes)
        }
        let pass = cb.passes.count - 1
        var variant = ShaderVariant.none
        variant.meshVertexFetch = meshVertexFetch
        cb.passes[pass].commands.append(.bindVariant(.meshPaint, variant))
        cb.passes[pass].commands.append(.drawIndexed(indexCount: page.indices.count,
                                                     indices: indexStart ..< indexStart + indexBytes,
                                                     bufferOffset: offset, pipeline: .meshPaint))
        boundPipeline = nil
        boundState = nil
    }

    // MARK: Passes

    private func ensurePass() {
        if !passIsOpen { openPass() }
    }

    /// Opens a pass on the current target: the first clears it, later ones load its pixels.
    private func openPass() {
        let t = targets[targets.count - 1]
        let load: LoadOp = t.cleared ? .load : .clear(t.clear)
        targets[targets.count - 1].cleared = true
        passIsOpen = true
        var clearRect: TexelRect?
        if case .clear = load, t.ref != .frame { clearRect = TexelRect(x: 0, y: 0, width: t.box.width, height: t.box.height) }
        var pass = RenderPass(target: t.ref, load: load, clearRect: clearRect, store: .store)
        pass.originX = t.box.x
        pass.originY = t.box.y
        if cb.desc(of: .atlas(0)) != nil { pass.commands.append(.bindTexture(unit: 0, .atlas(0))) }
        if cb.desc(of: .paintData) != nil { pass.commands.append(.bindTexture(unit: 1, .paintData)) }
        cb.passes.append(pass)
        boundPipeline = nil
        boundState = nil
        scissorRect = nil
    }

    /// Restricts the current pass's draws to `region` (nil: lifts it): a shape's bands may reach past its
    /// clip's box or its layer's region, and past it they would write others' pixels.
    private func scissor(_ region: PixelRect?) {
        ensurePass()
        guard region != scissorRect else { return }
        flush()
        scissorRect = region
        cb.passes[cb.passes.count - 1].commands.append(
            .scissor(region.map { TexelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }))
    }
}
