// The compositing encoder: a `LoweredFrame` with clips, layers, gradients or blend modes → a command buffer.
//
// Design note. Coverage and compositing are separate here (the fast path, `PathStrategy.encode`, still does
// both for frames of plain solid source-over draws, where llvmpipe's linear rasterizer pays). The path
// strategy only produces coverage: bands in atlas batches (`PathStrategy.coverage`), R8 coverage from the
// raster atlas or signed area from GPU tessellation. This encoder walks the frame's ops in order and turns
// coverage × clip × paint × blend into instanced draws of one family of programs (`composite*.glsl`):
// - targets: the frame, and per open `drawLayer` a layer texture sized to the layer's box (`.layer(depth)`,
//   cleared to transparent); popping a layer composites it into its parent as one more draw whose paint is
//   the layer texture and whose coverage is 1 (the clip bounds it);
// - clips: each clip stack becomes an R8 mask over the clip's box (`.mask(depth)`), cleared to 1 and
//   multiplied by each entry: a clip shape's coverage (drawn into `.clipCoverage(depth)` first) or a
//   `clipToLayer` content's alpha (rendered into `.layer(depth + 1)` first). A mask is built when a draw at
//   that depth needs a clip other than the one the slot holds, so draws under one clip share it;
// - blending: `.normal` by fixed function (ONE, ONE_MINUS_SRC_ALPHA), so any number of draws with any
//   paints batch into one draw call per target and state; every other mode in the shader, with the
//   destination read through framebuffer fetch (`composite_fetch`) or, where the driver lacks it, from a
//   copy of the target under each draw (`composite_copy`, one draw call per draw);
// - batching: consecutive instances with the same target, pipeline and per-call state (clip mask, blend
//   mode, source texture) share one draw call; the coverage atlas is reloaded when a band of the next batch
//   comes up (an upload for the raster atlas, an accumulation pass for GPU tessellation).
// The ops are walked twice with the same code: a dry walk lists the shapes in the order the real walk uses
// them (a mask rebuilt for a later draw lists its shapes again), so the strategy's atlas batches are met in
// order, then the real walk encodes.

import Foundation

/// How shader-blended modes read the destination.
public enum BlendRoute: String, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    /// GL_EXT_shader_framebuffer_fetch: the fragment shader reads the pixel it replaces (Mesa, mobile GPUs).
    case framebufferFetch = "framebuffer-fetch"
    /// A copy of the target's pixels under each draw, read as a texture (NVIDIA has no framebuffer fetch).
    case destinationCopy = "destination-copy"
    public var description: String { rawValue }
}

final class CompositingEncoder {
    private var dry = true
    private var frame: LoweredFrame!
    private var cb = CommandBuffer()
    private var shapes: [PreparedPath] = []
    private var nextShape = 0
    private var coverage = CoverageSet(kind: .coverage, atlasFormat: .r8)
    private var loadedBatch = -1
    private var instances: [CompositeInstance] = []
    /// Gradient paints' packed texels, one row each, listed by the dry walk.
    private var paintRows: [[SIMD4<Float>]] = []
    private var nextPaintRow = 0
    /// (pass, command) of every draw, whose buffer offsets are made absolute at the end.
    private var drawCommands: [(pass: Int, command: Int)] = []
    private var frameFormat: TextureFormat = .rgba8
    private var clearColor = RGBA.transparent
    private var route = BlendRoute.framebufferFetch

    /// The targets open now: the frame, then layers; a pass is open on the last one unless `passIsOpen` is false.
    private var targets: [Target] = []
    /// Layers open now (0: drawing into the frame); clip masks and layers are numbered by it.
    private var depth = 0

    private struct Target {
        var ref: TextureRef
        var box: PixelRect
        /// What its first pass clears to.
        var clear: RGBA
        var cleared = false
    }
    private var passIsOpen = false
    /// The clip index each mask slot (by depth) holds.
    private var maskSlots: [Int: Int] = [:]
    /// The draw call being gathered: pipeline, state and its first instance.
    private var pending: (pipeline: Pipeline, state: CompositeState, first: Int)?
    private var boundPipeline: Pipeline?
    private var boundState: CompositeState?

    /// Encodes `lowered` into `commandBuffer` (which is reset first).
    func encode(_ lowered: LoweredFrame, strategy: PathStrategy, frameFormat: TextureFormat, clearColor: RGBA,
                route: BlendRoute, into commandBuffer: inout CommandBuffer) throws {
        frame = lowered
        self.frameFormat = frameFormat
        self.clearColor = clearColor
        self.route = route
        swap(&cb, &commandBuffer)
        defer { swap(&cb, &commandBuffer) }
        cb.reset()
        let target = lowered.target

        // Dry walk: the shapes in the order the real walk meets them.
        dry = true
        shapes.removeAll(keepingCapacity: true)
        paintRows.removeAll(keepingCapacity: true)
        reset(target)
        walk(lowered.ops)

        // Coverage of all of them.
        coverage = strategy.coverage(shapes, stores: lowered.stores, into: &cb)

        // Real walk.
        dry = false
        nextShape = 0
        nextPaintRow = 0
        loadedBatch = -1
        instances.removeAll(keepingCapacity: true)
        drawCommands.removeAll(keepingCapacity: true)
        reset(target)
        cb.declare(.frame, TextureDesc(width: target.width, height: target.height, format: frameFormat))
        if !paintRows.isEmpty {
            let width = paintRows.map(\.count).max() ?? 1
            cb.declare(.paintData, TextureDesc(width: width, height: paintRows.count, format: .rgba32f))
        }
        openPass()  // the frame is cleared even when nothing draws
        walk(lowered.ops)
        flush()

        // Instances and paint data, uploaded before the first pass's commands.
        var head: [GPUCommand] = []
        if !instances.isEmpty {
            let bytes = instances.count * CompositeInstance.stride
            let start = cb.reserveStaging(bytes)
            instances.withUnsafeBytes { cb.staging.base.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            let offset = cb.reserveInstances(instances.count, pipeline: .composite)
            head.append(.uploadInstances(range: start ..< start + bytes, bufferOffset: offset, count: instances.count,
                                         pipeline: .composite))
            for (p, c) in drawCommands {
                guard case .draw(let n, let o, let pipeline) = cb.passes[p].commands[c] else { continue }
                cb.passes[p].commands[c] = .draw(instanceCount: n, bufferOffset: offset + o, pipeline: pipeline)
            }
        }
        if !paintRows.isEmpty {
            let width = paintRows.map(\.count).max() ?? 1
            let bytes = width * paintRows.count * 16
            let start = cb.reserveStaging(bytes)
            let texels = (cb.staging.base + start).bindMemory(to: SIMD4<Float>.self, capacity: width * paintRows.count)
            for (r, row) in paintRows.enumerated() {
                for (i, t) in row.enumerated() { texels[r * width + i] = t }
            }
            head.append(.uploadTexture(.paintData, rect: TexelRect(x: 0, y: 0, width: width, height: paintRows.count),
                                       format: .rgba32f, source: start))
        }
        if route == .destinationCopy {
            cb.declare(.destinationCopy, TextureDesc(width: target.width, height: target.height, format: frameFormat))
        }
        if !head.isEmpty { cb.passes[0].commands.insert(contentsOf: head, at: 0) }
        // Commands were recorded with offsets relative to the instance array: done above.
    }

    private func reset(_ target: RenderTarget) {
        targets = [Target(ref: .frame, box: target.pixelRect, clear: clearColor)]
        depth = 0
        passIsOpen = false
        maskSlots.removeAll()
        pending = nil
        boundPipeline = nil
        boundState = nil
    }

    // MARK: Walking

    private func walk(_ ops: [LoweredOp]) {
        for op in ops {
            switch op {
            case .draw(let d): draw(d)
            case .pushLayer(let box): pushLayer(box)
            case .popLayer(let c): popLayer(c)
            }
        }
    }

    private func draw(_ d: LoweredDraw) {
        let clip = d.clip.map { useClip($0) }
        let shape = takeShape(d.shape)
        if dry {
            if case .gradient(let g) = d.paint { paintRows.append(g.packedTexels()) }
            return
        }
        let paint: CompositeInstance.PaintSource
        let color: SIMD4<Float>
        var row = 0
        switch d.paint {
        case .solid(let c):
            paint = .solid
            color = SIMD4(c.r, c.g, c.b, c.a) * d.opacity
        case .gradient:
            paint = .gradient
            color = SIMD4(repeating: d.opacity)
            row = nextPaintRow
            nextPaintRow += 1
        }
        let state = CompositeState(blendMode: d.blend.rawValue, clip: clip, source: nil)
        emitBands(shape, paint: paint, row: row, color: color, blend: d.blend, state: state, box: d.box)
    }

    private func pushLayer(_ box: PixelRect) {
        flush()
        depth += 1
        let ref = TextureRef.layer(depth)
        push(Target(ref: ref, box: box, clear: .transparent), format: frameFormat)
        openPass()
    }

    /// Makes `t` the current target (its pass opens with the next draw).
    private func push(_ t: Target, format: TextureFormat) {
        flush()
        targets.append(t)
        passIsOpen = false
        if !dry { declareAtLeast(t.ref, t.box, format) }
    }

    private func pop() -> Target {
        flush()
        passIsOpen = false
        return targets.removeLast()
    }

    private func popLayer(_ c: LayerComposite) {
        let layer = pop()
        depth -= 1
        let clip = c.clip.map { useClip($0) }
        guard !dry else { return }
        let o = c.opacity
        let state = CompositeState(blendMode: c.blend.rawValue, clip: clip, source: (layer.ref, c.layerBox))
        emit(full(c.box, paint: .source, color: SIMD4(repeating: o)), blend: c.blend, state: state, box: c.box)
    }

    /// The mask slot for clip `index` at the current depth, built when the slot holds another clip.
    private func useClip(_ index: Int) -> (ref: TextureRef, rect: PixelRect) {
        let d = depth
        let clip = frame.clips[index]
        let box = clip.box ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        let ref = TextureRef.mask(d)
        if maskSlots[d] == index { return (ref, box) }
        maskSlots[d] = index
        // Cleared to 1, then multiplied by each entry.
        push(Target(ref: ref, box: box, clear: RGBA(r: 1, g: 1, b: 1, a: 1)), format: .r8)
        openPass()
        for entry in clip.entries {
            switch entry {
            case .shape(let shape, let inverse):
                guard let shape else {
                    if !inverse { multiplyMask(box, by: nil, opacity: 0, inverse: false, alpha: false) }
                    continue
                }
                // The shape's coverage into the coverage scratch, then the mask × it.
                let scratch = TextureRef.clipCoverage(d)
                let index = takeShape(shape)
                push(Target(ref: scratch, box: box, clear: .transparent), format: .r8)
                if !dry {
                    emitBands(index, paint: .solid, row: 0, color: SIMD4(repeating: 1), blend: .normal,
                              state: CompositeState(), box: box)
                }
                _ = pop()
                multiplyMask(box, by: (scratch, box), opacity: 1, inverse: inverse, alpha: false)
            case .mask(let ops, let contentBox, let opacity, let inverse):
                guard let contentBox else {
                    if !inverse { multiplyMask(box, by: nil, opacity: 0, inverse: false, alpha: false) }
                    continue
                }
                // The content into a layer one level deeper, then the mask × its alpha.
                depth += 1
                let layerRef = TextureRef.layer(depth)
                push(Target(ref: layerRef, box: contentBox, clear: .transparent), format: frameFormat)
                openPass()
                walk(ops)
                _ = pop()
                depth -= 1
                multiplyMask(box, by: (layerRef, contentBox), opacity: opacity, inverse: inverse, alpha: true)
            }
        }
        _ = pop()
        return (ref, box)
    }

    /// Multiplies the mask being built (the current target) over `box` by a texture's red channel (or alpha)
    /// × opacity, or by 1 − that when `inverse`; with no texture, by `opacity` (0 empties the mask).
    private func multiplyMask(_ box: PixelRect, by source: (TextureRef, PixelRect)?, opacity: Float, inverse: Bool,
                              alpha: Bool) {
        guard !dry else { return }
        var instance = full(box, paint: source == nil ? .solid : (alpha ? .sourceAlpha : .sourceRed),
                            color: SIMD4(repeating: opacity))
        instance.rule = inverse ? 1 : 0
        let state = CompositeState(blendMode: 0, clip: nil, source: source.map { ($0.0, $0.1) })
        append(instance, pipeline: .maskMultiply, state: state)
        flush()
    }

    // MARK: Emitting

    /// The next shape's index in the coverage set (dry: lists it).
    private func takeShape(_ s: CoverageShape) -> Int {
        if dry {
            shapes.append(PreparedPath(drawIndex: s.drawNumber, store: s.store, contours: s.contours,
                                       edgeCount: s.edgeCount, box: s.box, rule: s.rule, antialiased: s.antialiased,
                                       color: RGBA(r: 1, g: 1, b: 1, a: 1), mayHaveInteriors: false))
            return shapes.count - 1
        }
        defer { nextShape += 1 }
        return nextShape
    }

    /// One instance per band of shape `index`, into the current target.
    private func emitBands(_ index: Int, paint: CompositeInstance.PaintSource, row: Int, color: SIMD4<Float>,
                           blend: GraphicsContext.BlendMode, state: CompositeState, box: PixelRect) {
        let kind: CompositeInstance.CoverageSource = coverage.kind == .coverage ? .atlas : .accumulated
        // Every pixel the bands rasterize reads the destination, their zero-coverage padding included: the
        // copy route copies the union of the band rectangles, which may reach past the shape's box.
        var reach = box
        if route == .destinationCopy && blend != .normal {
            for b in coverage.shapeBands[index] {
                let band = coverage.bands[b]
                // A trapezoid band's sides may stick out of its rectangle by `bandPadding` pixels.
                let pad = band.leftTop != 0 || band.leftBottom != 0 || band.rightTop != 0 || band.rightBottom != 0
                    ? CoverageAccumulator.bandPadding : 0
                reach = reach.union(PixelRect(x: Int(band.x) - pad, y: Int(band.y), width: Int(band.w) + 2 * pad,
                                              height: Int(band.h)))
            }
        }
        var first = true
        for b in coverage.shapeBands[index] {
            let band = coverage.bands[b]
            if Int(band.batch) != loadedBatch {
                flush()
                load(batch: Int(band.batch))
            }
            let instance = CompositeInstance(x: band.x, y: band.y, w: band.w, h: band.h, u: band.u, v: band.v,
                                             rule: band.rule, coverage: kind.rawValue, leftTop: band.leftTop,
                                             leftBottom: band.leftBottom, rightTop: band.rightTop,
                                             rightBottom: band.rightBottom, paint: paint.rawValue,
                                             paintRow: Int16(row), r: color.x, g: color.y, b: color.z, a: color.w)
            if first {
                emit(instance, blend: blend, state: state, box: reach)
                first = false
            } else {
                append(instance, pipeline: pipeline(for: blend), state: state)
            }
        }
        if route == .destinationCopy && blend != .normal { flush() }
    }

    /// A rectangle of full coverage.
    private func full(_ r: PixelRect, paint: CompositeInstance.PaintSource, color: SIMD4<Float>) -> CompositeInstance {
        CompositeInstance(x: Int16(r.x), y: Int16(r.y), w: Int16(r.width), h: Int16(r.height), u: 0, v: 0, rule: 0,
                          coverage: CompositeInstance.CoverageSource.full.rawValue, paint: paint.rawValue,
                          paintRow: 0, r: color.x, g: color.y, b: color.z, a: color.w)
    }

    private func pipeline(for blend: GraphicsContext.BlendMode) -> Pipeline {
        if blend == .normal { return .composite }
        return route == .framebufferFetch ? .compositeFetch : .compositeCopy
    }

    /// The first instance of a draw: with the copy route, the destination under `box` (every pixel the draw's
    /// instances rasterize) is copied first.
    private func emit(_ instance: CompositeInstance, blend: GraphicsContext.BlendMode, state: CompositeState,
                      box: PixelRect) {
        let p = pipeline(for: blend)
        if p == .compositeCopy {
            flush()
            ensurePass()
            let t = targets[targets.count - 1]
            let x0 = max(box.x, t.box.x), y0 = max(box.y, t.box.y)
            let x1 = min(box.x + box.width, t.box.x + t.box.width), y1 = min(box.y + box.height, t.box.y + t.box.height)
            if x1 > x0, y1 > y0 {
                cb.passes[cb.passes.count - 1].commands.append(
                    .copyDestination(TexelRect(x: x0 - t.box.x, y: y0 - t.box.y, width: x1 - x0, height: y1 - y0)))
            }
        }
        append(instance, pipeline: p, state: state)
    }

    private func append(_ instance: CompositeInstance, pipeline: Pipeline, state: CompositeState) {
        ensurePass()
        if let p = pending, p.pipeline != pipeline || p.state != state { flush() }
        if pending == nil { pending = (pipeline, state, instances.count) }
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
        if boundPipeline != p.pipeline {
            cb.passes[pass].commands.append(.bindPipeline(p.pipeline))
            boundPipeline = p.pipeline
            boundState = nil
        }
        if boundState != p.state {
            cb.passes[pass].commands.append(.setComposite(p.state))
            boundState = p.state
        }
        cb.passes[pass].commands.append(.draw(instanceCount: count, bufferOffset: p.first * CompositeInstance.stride,
                                              pipeline: p.pipeline))
        drawCommands.append((pass, cb.passes[pass].commands.count - 1))
    }

    /// Makes the atlas hold `batch`.
    private func load(batch: Int) {
        let b = coverage.batches[batch]
        if let pass = b.pass {
            cb.passes.append(pass)
            passIsOpen = false
            boundPipeline = nil
        }
        if !b.uploads.isEmpty {
            ensurePass()
            cb.passes[cb.passes.count - 1].commands.append(contentsOf: b.uploads)
        }
        loadedBatch = batch
    }

    /// Opens a pass on the current target, loading its pixels (or clearing the frame the first time).
    private func ensurePass() {
        if passIsOpen { return }
        openPass()
    }

    /// Opens a pass on the current target: the first clears it (the frame to the clear colour, a layer to
    /// transparent over its box), later ones load its pixels.
    private func openPass() {
        let t = targets[targets.count - 1]
        let load: LoadOp = t.cleared ? .load : .clear(t.clear)
        targets[targets.count - 1].cleared = true
        beginPass(t.ref, origin: t.box, load: load, size: t.box)
        passIsOpen = true
    }

    private func beginPass(_ ref: TextureRef, origin: PixelRect, load: LoadOp, size: PixelRect) {
        guard !dry else { return }
        var clearRect: TexelRect?
        if case .clear = load, ref != .frame { clearRect = TexelRect(x: 0, y: 0, width: size.width, height: size.height) }
        var pass = RenderPass(target: ref, load: load, clearRect: clearRect, store: .store)
        pass.originX = origin.x
        pass.originY = origin.y
        if cb.desc(of: .atlas(0)) != nil { pass.commands.append(.bindTexture(unit: 0, .atlas(0))) }
        if cb.desc(of: .paintData) != nil { pass.commands.append(.bindTexture(unit: 1, .paintData)) }
        cb.passes.append(pass)
        boundPipeline = nil
        boundState = nil
    }

    private func declareAtLeast(_ ref: TextureRef, _ box: PixelRect, _ format: TextureFormat) {
        if let d = cb.desc(of: ref), d.format == format {
            cb.declare(ref, TextureDesc(width: max(d.width, box.width), height: max(d.height, box.height), format: format))
        } else {
            cb.declare(ref, TextureDesc(width: box.width, height: box.height, format: format))
        }
    }
}
