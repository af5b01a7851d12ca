// The compositing encoder: a `LoweredFrame` with clips, layers, gradients or blend modes → a command buffer.
//
// Design note. Coverage and compositing are separate here (the fast path, `PathStrategy.encode`, still does
// both for frames of plain solid source-over draws, where llvmpipe's linear rasterizer pays). The path
// strategy only produces coverage: bands in atlas batches (`PathStrategy.coverage`), R8 coverage from the
// raster atlas or signed area from GPU tessellation. This encoder turns coverage × clip × paint × blend into
// instanced draws of one family of programs (`composite*.glsl`, sharing `include/composite_*.glsl`):
// - clips first: every clip stack of the frame gets a region in an R8 mask page (`.mask(n)`, shelf-packed),
//   built at the start of the frame in a few passes for all clips at once: the first entry of every clip is
//   drawn directly (coverage, or 1 − coverage via a multiplicative erase), later entries are multiplied in
//   (a shape's coverage drawn into a scratch page first, `.clipCoverage(n)`; an inverse shape erased in
//   place). Clips with `clipToLayer` masks are built one by one after those, their content rendered into a
//   layer and its alpha multiplied in. Instances carry their clip (device box and page texel), so draws
//   under different clips still batch. On llvmpipe each pass switch costs a flush, so a clip per draw
//   (S5-clip-blend: 200) costs one pass in all, not several per draw;
// - targets: the frame, and per open `drawLayer` a layer texture sized to the layer's box (`.layer(depth)`,
//   cleared to transparent); popping a layer composites it into its parent as one more draw whose paint is
//   the layer texture and whose coverage is 1 (the clip bounds it);
// - blending: `.normal` by fixed function (ONE, ONE_MINUS_SRC_ALPHA); every other mode in the shader (the
//   mode is compiled into the program's variant, `ShaderVariant.blendMode`), the destination read through
//   framebuffer fetch (`composite_fetch`) or, where the driver lacks it, from a copy of the target under each
//   draw (`composite_copy`, a draw call per draw);
// - batching: consecutive instances with the same target, pipeline, variant and textures share one draw
//   call; the
//   coverage atlas is reloaded when a band of the next batch comes up (an upload for the raster atlas, an
//   accumulation pass for GPU tessellation).
// Everything is encoded twice with the same code: a dry run lists the shapes and gradients in the order the
// real run uses them (so the strategy's atlas batches are met in order), then the real run encodes.

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
    /// Most clip-mask texels one frame may hold (R8: 256 MiB). Clip masks are built for the whole frame at its
    /// start, so their area adds up; a frame beyond this is refused with an error rather than exhausting memory.
    static let maskTexelBudget = 1 << 28

    var dry = true
    var frame: LoweredFrame!
    var cb = CommandBuffer()
    private var shapes: [PreparedPath] = []
    private var nextShape = 0
    private var coverage = CoverageSet(kind: .coverage, atlasFormat: .r8)
    private var loadedBatch = -1
    private var instances: [CompositeInstance] = []
    /// Gradient paints' packed texels, one row each, listed by the dry run, and each row's gradient kind.
    var paintRows: [[SIMD4<Float>]] = []
    /// The frame has a layer of half floats in a frame of bytes (a colour-filtered layer).
    private var usesPreciseLayers = false
    /// The frame's hoisted layers by the index of their `pushLayer` op, and their atlas pages
    /// (`LayerHoisting.swift`).
    var hoisted: [Int: HoistedLayer] = [:]
    var layerAtlasPages: [(precise: Bool, index: Int, width: Int, height: Int)] = []
    var filterAtlasPages: [(round: Int, page: Int, width: Int, height: Int)] = []
    /// Added to every instance appended while a hoisted layer's content is drawn: its device pixels → its region.
    var shift = (0, 0)
    /// Each row's header texel: kind, spread, flags, stop count.
    var gradientHeaders: [SIMD4<Float>] = []
    /// The frame's distinct images, each uploaded once into `.image(slot)`.
    private var images: [RasterImage] = []
    private var imageSlots: [ObjectIdentifier: Int] = [:]
    var nextPaintRow = 0
    /// The paint-data row of each `takeRow()` call, in call order (rows with equal texels are shared, so a frame
    /// of 20 000 draws of one gradient uploads one row, not 20 000: the texture's height is a GL limit).
    var rowOfCall: [Int] = []
    /// The row already holding each set of texels (by bit pattern, so −0 and NaN payloads stay apart).
    var rowOfTexels: [[SIMD4<UInt32>]: Int] = [:]
    /// (pass, command) of every draw, whose buffer offsets are made absolute at the end.
    private var drawCommands: [(pass: Int, command: Int)] = []
    var frameFormat: TextureFormat = .rgba8
    private var clearColor = RGBA.transparent
    private var route = BlendRoute.framebufferFetch
    var maxTextureSize = 2048

    /// The targets open now (the frame, layers, a mask page being built); a pass is open on the last one when
    /// `passIsOpen`.
    private var targets: [Target] = []
    private var passIsOpen = false
    /// Layers open now (0: drawing into the frame); layer textures are numbered by it.
    private var depth = 0
    /// Where each clip's mask lives: page, and the page texel of its box's top-left corner.
    private var maskRegions: [Int: (page: Int, u: Int, v: Int)] = [:]
    private var maskPages: [(width: Int, height: Int)] = []
    /// The draw call being gathered: pipeline, its specialisation, state and its first instance.
    private var pending: (pipeline: Pipeline, variant: ShaderVariant, state: CompositeState, first: Int)?
    var boundPipeline: (Pipeline, ShaderVariant)?
    var boundState: CompositeState?
    /// The path strategy of the frame being encoded; and the instance uploads of hoisted paint layers, moved to
    /// the frame's start with the encoder's own.
    var strategy: PathStrategy?
    var paintHead: [GPUCommand] = []

    struct Target {
        var ref: TextureRef
        /// The device pixels it shows (a mask page's: the page itself, from 0).
        var box: PixelRect
        /// What its first pass clears to.
        var clear: RGBA
        var cleared = false
    }

    /// Encodes `lowered` into `commandBuffer` (which is reset first).
    func encode(_ lowered: LoweredFrame, strategy: PathStrategy, frameFormat: TextureFormat, clearColor: RGBA,
                route: BlendRoute, maxTextureSize: Int, into commandBuffer: inout CommandBuffer) throws {
        frame = lowered
        self.frameFormat = frameFormat
        self.clearColor = clearColor
        self.route = route
        self.maxTextureSize = maxTextureSize
        swap(&cb, &commandBuffer)
        defer { swap(&cb, &commandBuffer) }
        cb.reset()
        let target = lowered.target
        self.strategy = strategy
        defer { self.strategy = nil }
        paintHead.removeAll(keepingCapacity: true)
        try layoutMasks()
        layoutHoisting()

        // Dry run: the shapes and gradients in the order the real run meets them.
        dry = true
        usesPreciseLayers = false
        shapes.removeAll(keepingCapacity: true)
        paintRows.removeAll(keepingCapacity: true)
        gradientHeaders.removeAll(keepingCapacity: true)
        rowOfCall.removeAll(keepingCapacity: true)
        rowOfTexels.removeAll(keepingCapacity: true)
        images.removeAll(keepingCapacity: true)
        imageSlots.removeAll(keepingCapacity: true)
        run(target)

        // Coverage of all of them.
        coverage = strategy.coverage(shapes, stores: lowered.stores, highPrecision: lowered.colorMode != .nonLinear,
                                     into: &cb)

        // Paint rows are addressed by 16-bit instance fields and stored one per texture row.
        let rowLimit = min(maxTextureSize, Int(Int16.max))
        if paintRows.count > rowLimit {
            throw RenderError.unsupported("the frame needs \(paintRows.count) distinct gradient, image and filter parameter rows; GLES holds at most \(rowLimit) per frame (draw fewer distinct gradients or images per frame)")
        }

        // Real run.
        dry = false
        nextShape = 0
        nextPaintRow = 0
        loadedBatch = -1
        instances.removeAll(keepingCapacity: true)
        drawCommands.removeAll(keepingCapacity: true)
        cb.declare(.frame, TextureDesc(width: target.width, height: target.height, format: frameFormat))
        if !paintRows.isEmpty {
            let width = paintRows.map(\.count).max() ?? 1
            cb.declare(.paintData, TextureDesc(width: width, height: paintRows.count, format: .rgba32f))
        }
        for (i, page) in maskPages.enumerated() {
            cb.declare(.mask(i), TextureDesc(width: page.width, height: page.height, format: maskFormat))
        }
        for (i, image) in images.enumerated() {
            cb.declare(.image(i), TextureDesc(width: image.width, height: image.height, format: .rgba8))
        }
        // A destination copy is made at the target's texels: as large as the frame or any layer atlas page.
        let copyWidth = max(target.width, layerAtlasPages.map(\.width).max() ?? 0)
        let copyHeight = max(target.height, layerAtlasPages.map(\.height).max() ?? 0)
        if route == .destinationCopy, usesPreciseLayers || layerAtlasPages.contains(where: \.precise) {
            cb.declare(.preciseDestinationCopy, TextureDesc(width: copyWidth, height: copyHeight, format: .rgba16f))
        }
        if route == .destinationCopy {
            cb.declare(.destinationCopy, TextureDesc(width: copyWidth, height: copyHeight, format: frameFormat))
        }
        run(target)

        // Instances and paint data, uploaded before the first pass's commands.
        var head: [GPUCommand] = paintHead
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
        for (i, image) in images.enumerated() {
            let bytes = image.width * image.height * 4
            let start = cb.reserveStaging(bytes, zeroed: false)
            image.pixels.withUnsafeBytes { cb.staging.base.advanced(by: start).copyMemory(from: $0.baseAddress!, byteCount: bytes) }
            head.append(.uploadTexture(.image(i), rect: TexelRect(x: 0, y: 0, width: image.width, height: image.height),
                                       format: .rgba8, source: start))
        }
        if !head.isEmpty { cb.passes[0].commands.insert(contentsOf: head, at: 0) }
    }

    /// One run (dry or real): clip masks, then the frame's ops.
    private func run(_ target: RenderTarget) {
        targets = [Target(ref: .frame, box: target.pixelRect, clear: clearColor)]
        depth = 0
        passIsOpen = false
        pending = nil
        boundPipeline = nil
        boundState = nil
        buildMasks()
        drawHoisted()
        if !dry { openPass() }  // the frame is cleared even when nothing draws
        walkFrame()
        flush()
    }

    // MARK: Clip masks

    /// Clips in an order where every clip used inside a `clipToLayer` content comes before the clip holding it.
    private var clipOrder: [Int] = []

    private func layoutMasks() throws {
        clipOrder.removeAll(keepingCapacity: true)
        var seen = Set<Int>()
        func note(_ k: Int?) {
            guard let k, !seen.contains(k) else { return }
            seen.insert(k)
            for e in frame.clips[k].entries { if case .mask(let ops, _, _, _) = e { scan(ops) } }
            clipOrder.append(k)
        }
        func scan(_ ops: [LoweredOp]) {
            for op in ops {
                switch op {
                case .draw(let d): note(d.clip)
                case .popLayer(let c): note(c.clip)
                case .pushLayer: break
                }
            }
        }
        scan(frame.ops)
        maskRegions.removeAll(keepingCapacity: true)
        maskPages.removeAll(keepingCapacity: true)
        var total = 0
        let widest = clipOrder.compactMap { frame.clips[$0].box?.width }.max() ?? 1
        let pageWidth = min(maxTextureSize, max(2048, widest))
        var packer = ShelfPacker(width: pageWidth, maxHeight: maxTextureSize)
        for k in clipOrder {
            let box = frame.clips[k].box ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
            total += box.area
            guard total <= Self.maskTexelBudget else {
                throw RenderError.unsupported("the frame's clip masks need more than \(Self.maskTexelBudget) pixels (\(clipOrder.count) clips); use fewer or smaller clips per frame")
            }
            var slot = packer.allocate(width: box.width, height: box.height)
            if slot == nil {
                maskPages.append((pageWidth, packer.usedHeight))
                packer.reset()
                slot = packer.allocate(width: box.width, height: box.height)
            }
            guard let s = slot else {
                throw RenderError.unsupported("a clip of \(box.width)×\(box.height) pixels exceeds the GL texture limit of \(maxTextureSize)")
            }
            maskRegions[k] = (maskPages.count, s.x, s.y)
        }
        if !clipOrder.isEmpty { maskPages.append((pageWidth, packer.usedHeight)) }
    }

    /// Builds every clip's mask region: all clips of shapes only together, a pass per entry rank; clips with
    /// `clipToLayer` masks one by one.
    private func buildMasks() {
        guard !clipOrder.isEmpty else { return }
        let simple = clipOrder.filter { k in !frame.clips[k].entries.contains { if case .mask = $0 { return true }; return false } }
        let layered = clipOrder.filter { k in !simple.contains(k) }
        for page in maskPages.indices {
            let onPage = simple.filter { maskRegions[$0]!.page == page }
            let rank = onPage.map { frame.clips[$0].entries.count }.max() ?? 0
            // Every page is cleared (to 0) by its first pass, even one holding only layered clips.
            beginMaskPass(page, clear: true)
            for k in onPage { firstEntry(k) }
            endPass()
            for r in stride(from: 1, to: rank, by: 1) {
                let clips = onPage.filter { frame.clips[$0].entries.count > r }
                multiplyEntries(clips.map { ($0, r) }, page: page)
            }
        }
        for k in layered {
            let page = maskRegions[k]!.page
            beginMaskPass(page, clear: false)
            firstEntry(k)
            endPass()
            for r in 1 ..< frame.clips[k].entries.count { multiplyEntries([(k, r)], page: page) }
        }
    }

    /// Mask pages (and their scratch pages) hold 8-bit coverage on an sRGB-encoded canvas; on a linear-light
    /// one half floats, because the output's sRGB encoding multiplies a dark pixel's error by up to 12.92:
    /// one 8-bit step of clip coverage became 4 levels of a dark red (found by the fuzzer).
    private var maskFormat: TextureFormat { frame.colorMode == .nonLinear ? .r8 : .r16f }

    /// The clip's region of its page, in page texels.
    private func region(_ k: Int) -> PixelRect {
        let r = maskRegions[k]!
        let box = frame.clips[k].box ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        return PixelRect(x: r.u, y: r.v, width: box.width, height: box.height)
    }

    /// Restricts the current mask pass's draws to `region` (nil: lifts it): a shape's bands may reach past its
    /// clip's box (a later entry narrows the box), and past the region they would write other clips' masks.
    func scissor(_ region: PixelRect?) {
        guard !dry else { return }
        ensurePass()
        guard region != scissorRect else { return }
        flush()
        scissorRect = region
        cb.passes[cb.passes.count - 1].commands.append(
            .scissor(region.map { TexelRect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }))
    }

    /// Scissors to `region` only when the shape reaches past its clip's box; a shape inside it (a clip of one
    /// path, the common case) needs none, so the masks of many clips still batch into one draw call. (A band's
    /// zero-coverage padding may stick out, but blends nothing into a mask.)
    private func scissor(_ region: PixelRect, for shape: CoverageShape, clipBox: PixelRect) {
        let inside = shape.box.intersection(clipBox) == shape.box
        scissor(inside ? nil : region)
    }

    /// The scissor the open pass has (each pass starts without one).
    private var scissorRect: PixelRect?

    /// Writes entry 0 of clip `k` into its region (which holds 0): coverage, 1 − coverage, 1 or nothing.
    private func firstEntry(_ k: Int) {
        let clip = frame.clips[k]
        guard let box = clip.box, let entry = clip.entries.first else { return }
        let reg = region(k)
        switch entry {
        case .shape(let shape, let inverse):
            if inverse {
                scissor(nil)
                append(full(reg, paint: .solid, color: SIMD4(repeating: 1)), pipeline: .composite, state: CompositeState())
            }
            guard let shape else { return }
            let index = takeShape(shape)
            scissor(reg, for: shape, clipBox: box)
            emitBands(index, offset: (reg.x - box.x, reg.y - box.y), paint: .solid, row: 0, color: SIMD4(repeating: 1),
                      blend: .normal, clip: nil, pipeline: inverse ? .maskErase : .composite, state: CompositeState())
        case .mask:
            // Content multiplies into 1.
            scissor(nil)
            append(full(reg, paint: .solid, color: SIMD4(repeating: 1)), pipeline: .composite, state: CompositeState())
            flush()
            endPass()
            multiplyEntries([(k, 0)], page: maskRegions[k]!.page)
            beginMaskPass(maskRegions[k]!.page, clear: false)
        }
    }

    /// Multiplies entry `rank` of each listed clip into its region: shapes' coverage through the scratch page,
    /// inverse shapes erased in place, mask contents rendered into a layer and their alpha multiplied in.
    private func multiplyEntries(_ list: [(clip: Int, rank: Int)], page: Int) {
        // Coverage of the non-inverse shapes into the scratch page, at the clips' regions.
        let scratch = TextureRef.clipCoverage(page)
        var scratchUsed = false
        for (k, r) in list {
            guard case .shape(let shape?, false) = frame.clips[k].entries[r], let box = frame.clips[k].box else { continue }
            if !scratchUsed {
                if !dry {
                    cb.declare(scratch, TextureDesc(width: maskPages[page].width, height: maskPages[page].height,
                                                    format: maskFormat))
                }
                push(Target(ref: scratch, box: PixelRect(x: 0, y: 0, width: maskPages[page].width,
                                                         height: maskPages[page].height), clear: .transparent))
                openPass()
                scratchUsed = true
            }
            let reg = region(k)
            let index = takeShape(shape)
            scissor(reg, for: shape, clipBox: box)
            emitBands(index, offset: (reg.x - box.x, reg.y - box.y), paint: .solid, row: 0, color: SIMD4(repeating: 1),
                      blend: .normal, clip: nil, pipeline: .composite, state: CompositeState())
        }
        if scratchUsed { _ = pop() }
        // Mask contents into layers, each multiplied in right away.
        for (k, r) in list {
            guard case .mask(let ops, let contentBox?, _, _) = frame.clips[k].entries[r] else { continue }
            depth += 1
            let ref = TextureRef.layer(depth)
            push(Target(ref: ref, box: contentBox, clear: .transparent))
            if !dry { declareAtLeast(ref, contentBox, frameFormat) }
            openPass()
            walk(ops)
            _ = pop()
            // Multiplied right away: a later content at the same depth reuses the texture.
            beginMaskPass(page, clear: false)
            let (_, _, opacity, inverse) = maskEntry(frame.clips[k].entries[r])
            let box = frame.clips[k].box!
            let reg = region(k)
            // The content texture is addressed in page texels: its box moved like the clip's.
            let src = PixelRect(x: contentBox.x - box.x + reg.x, y: contentBox.y - box.y + reg.y,
                                width: contentBox.width, height: contentBox.height)
            multiply(reg, by: (ref, src), alpha: true, opacity: opacity, inverse: inverse)
            endPass()
            depth -= 1
        }
        // The page: multiplies and erases.
        beginMaskPass(page, clear: false)
        for (k, r) in list {
            let reg = region(k)
            switch frame.clips[k].entries[r] {
            case .shape(let shape, let inverse):
                if inverse {
                    guard let shape, let box = frame.clips[k].box else { continue }
                    let index = takeShape(shape)
                    scissor(reg, for: shape, clipBox: box)
                    emitBands(index, offset: (reg.x - box.x, reg.y - box.y), paint: .solid, row: 0,
                              color: SIMD4(repeating: 1), blend: .normal, clip: nil, pipeline: .maskErase,
                              state: CompositeState())
                } else if shape == nil {
                    multiply(reg, by: nil, alpha: false, opacity: 0, inverse: false)
                } else {
                    multiply(reg, by: (scratch, PixelRect(x: 0, y: 0, width: maskPages[page].width,
                                                          height: maskPages[page].height)),
                             alpha: false, opacity: 1, inverse: false)
                }
            case .mask(_, let contentBox, _, let inverse):
                if contentBox == nil && !inverse { multiply(reg, by: nil, alpha: false, opacity: 0, inverse: false) }
            }
        }
        endPass()
    }

    private func maskEntry(_ e: LoweredClip.Entry) -> ([LoweredOp], PixelRect?, Float, Bool) {
        guard case .mask(let ops, let box, let opacity, let inverse) = e else { return ([], nil, 1, false) }
        return (ops, box, opacity, inverse)
    }

    /// Multiplies `reg` of the current mask page by a texture's red channel (or alpha) × opacity, or by
    /// 1 − that when `inverse`; with no texture, by `opacity` (0 empties the region).
    private func multiply(_ reg: PixelRect, by source: (TextureRef, PixelRect)?, alpha: Bool, opacity: Float,
                          inverse: Bool) {
        scissor(nil)
        var instance = full(reg, paint: source == nil ? .solid : (alpha ? .sourceAlpha : .sourceRed),
                            color: SIMD4(repeating: opacity))
        instance.rule = inverse ? 1 : 0
        append(instance, pipeline: .maskMultiply, state: CompositeState(maskPage: nil, source: source))
    }

    private func beginMaskPass(_ page: Int, clear: Bool) {
        let size = maskPages[page]
        push(Target(ref: .mask(page), box: PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                    clear: .transparent, cleared: !clear))
        openPass()
    }

    private func endPass() {
        _ = pop()
    }

    // MARK: Walking the ops

    /// The frame's ops: a hoisted layer's content is already drawn, and its composite reads its images.
    private func walkFrame() {
        var i = 0
        let ops = frame.ops
        while i < ops.count {
            if let h = hoisted[i] {
                compositeFiltered(h.composite, passes: h.passes, location: h.location)
                i = h.end + 1
                continue
            }
            switch ops[i] {
            case .draw(let d): draw(d)
            case .pushLayer(let box, let precise): pushLayer(box, precise: precise)
            case .popLayer(let c): popLayer(c)
            }
            i += 1
        }
    }

    private func walk(_ ops: [LoweredOp]) {
        for op in ops {
            switch op {
            case .draw(let d): draw(d)
            case .pushLayer(let box, let precise): pushLayer(box, precise: precise)
            case .popLayer(let c): popLayer(c)
            }
        }
    }

    func draw(_ d: LoweredDraw) {
        let shape = takeShape(d.shape)
        if dry {
            switch d.paint {
            case .gradient(let g):
                let row = g.packedTexels()
                addRow(row, header: row[0])
            case .image(let i):
                addRow(i.packedTexels + [SIMD4<Float>](repeating: .zero, count: 1), header: .zero)
                if imageSlots[i.identity] == nil {
                    imageSlots[i.identity] = images.count
                    images.append(i.pixels)
                }
            case .solid, .backdrop:
                break
            }
            return
        }
        let paint: CompositeInstance.PaintSource
        let color: SIMD4<Float>
        var row = 0
        var image: TextureRef?
        switch d.paint {
        case .solid(let c):
            paint = .solid
            color = SIMD4(c.r, c.g, c.b, c.a) * d.opacity
        case .gradient:
            paint = .gradient
            color = SIMD4(repeating: d.opacity)
            row = takeRow()
        case .image(let i):
            paint = .image
            color = SIMD4(repeating: d.opacity)
            row = takeRow()
            image = .image(imageSlots[i.identity]!)
        case .backdrop:
            paint = .backdrop
            color = SIMD4(repeating: d.opacity)
        }
        var state = CompositeState(maskPage: maskPage(d.clip), source: nil)
        state.image = image
        // The backdrop is the destination: only the shader-blended programs read it, in any blend mode.
        let p = paint == .backdrop ? (route == .framebufferFetch ? Pipeline.compositeFetch : .compositeCopy)
            : pipeline(for: d.blend)
        emitBands(shape, offset: (0, 0), paint: paint, row: row, color: color, blend: d.blend, clip: d.clip,
                  pipeline: p, state: state)
    }

    private func pushLayer(_ box: PixelRect, precise: Bool) {
        depth += 1
        // A half-float frame's layers are precise already.
        let half = precise && frameFormat != .rgba16f
        let ref: TextureRef = half ? .preciseLayer(depth) : .layer(depth)
        if half { usesPreciseLayers = true }
        push(Target(ref: ref, box: box, clear: .transparent))
        if !dry { declareAtLeast(ref, box, half ? .rgba16f : frameFormat) }
        openPass()
    }

    private func popLayer(_ c: LayerComposite) {
        let layer = pop()
        depth -= 1
        let list = FilterPassList(c.filter)
        let layerImage = FilterImageLocation(ref: layer.ref, box: c.layerBox)
        let outputs = emitImmediately(list, layer: layerImage)
        compositeFiltered(c, passes: list) { input in
            if case .pass(let j) = input { return outputs[j] }
            return layerImage
        }
    }

    /// Composites a layer's final image (through the colour steps after its last stage) into the current
    /// target; a separately composited shadow, then its source; a coarse blur result, interpolated.
    private func compositeFiltered(_ c: LayerComposite, passes list: FilterPassList,
                                   location: (FilterPassSpec.Input) -> FilterImageLocation) {
        let f = c.filter
        let source = location(list.final)
        if let shadowBlend = f.separateShadowBlend, let last = f.stages.last {
            // `disablesGroup`: the shadow alone, then the stage's input through its prefilter.
            compositeLayer(source, color: [], blend: shadowBlend, c)
            compositeLayer(location(list.lastInput), color: last.prefilter, blend: c.blend, c)
        } else if f.upsampledByComposite, case .blur(let plan)? = f.stages.last?.kind {
            compositeLayer(source, color: [], blend: c.blend, c, upsampleFactor: plan.factor)
        } else {
            compositeLayer(source, color: f.finalColor, blend: c.blend, c)
        }
    }

    /// One composite of `source` (through the colour steps `color`) into the current target over the
    /// composite's box, × its opacity, through its clip.
    /// `upsampleFactor`: the source is a blur's coarse result, interpolated up by that factor.
    private func compositeLayer(_ source: FilterImageLocation, color: [ColorFilterStep],
                                blend: GraphicsContext.BlendMode, _ c: LayerComposite, upsampleFactor: Int = 1) {
        let row = color.isEmpty ? 0 : paintRow(ColorFilterFormulas.packedTexels(color))
        guard !dry else { return }
        let paint: CompositeInstance.PaintSource = upsampleFactor > 1 ? .upsampledSource : color.isEmpty ? .source : .filteredSource
        var instance = full(c.box, paint: paint, color: SIMD4(repeating: c.opacity))
        instance.paintRow = Int16(upsampleFactor > 1 ? upsampleFactor : row)
        instance.blendMode = Int16(blend.rawValue)
        setClip(&instance, c.clip)
        var state = CompositeState(maskPage: maskPage(c.clip), source: (source.ref, source.box))
        state.sourceTexel = source.texel
        emit(instance, pipeline: pipeline(for: blend), state: state, copyBox: c.box)
    }

    /// A paint-data row holding `texels`: listed by the dry run, taken in the same order by the real run.
    func paintRow(_ texels: [SIMD4<Float>]) -> Int {
        if dry { return addRow(texels, header: .zero) }
        return takeRow()
    }

    /// Dry run: the row holding `texels` (a new one, or the earlier row with the same bits).
    @discardableResult
    private func addRow(_ texels: [SIMD4<Float>], header: SIMD4<Float>) -> Int {
        let key = (texels + [header]).map { SIMD4($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern, $0.w.bitPattern) }
        if let row = rowOfTexels[key] {
            rowOfCall.append(row)
            return row
        }
        paintRows.append(texels)
        gradientHeaders.append(header)
        rowOfTexels[key] = paintRows.count - 1
        rowOfCall.append(paintRows.count - 1)
        return paintRows.count - 1
    }

    /// Real run: the row the dry run gave the same call.
    private func takeRow() -> Int {
        defer { nextPaintRow += 1 }
        return rowOfCall[nextPaintRow]
    }

    private func maskPage(_ clip: Int?) -> TextureRef? { clip.map { .mask(maskRegions[$0]!.page) } }

    private func setClip(_ i: inout CompositeInstance, _ clip: Int?) {
        guard let k = clip, let box = frame.clips[k].box, let r = maskRegions[k] else { return }
        i.clipX = Int16(box.x); i.clipY = Int16(box.y); i.clipW = Int16(box.width); i.clipH = Int16(box.height)
        i.clipU = Int16(r.u); i.clipV = Int16(r.v)
    }

    // MARK: Emitting

    /// The next shape's index in the coverage set (dry: lists it).
    private func takeShape(_ s: CoverageShape) -> Int {
        if dry {
            shapes.append(PreparedPath(drawIndex: s.drawNumber, store: s.store, contours: s.contours,
                                       edgeCount: s.edgeCount, box: s.box, rule: s.rule, antialiased: s.antialiased,
                                       color: RGBA(r: 1, g: 1, b: 1, a: 1), mayHaveInteriors: false,
                                       glyphs: s.glyphs))
            return shapes.count - 1
        }
        defer { nextShape += 1 }
        return nextShape
    }

    /// One instance per band of shape `index`, moved by `offset`, into the current target.
    private func emitBands(_ index: Int, offset: (Int, Int), paint: CompositeInstance.PaintSource, row: Int,
                           color: SIMD4<Float>, blend: GraphicsContext.BlendMode, clip: Int?, pipeline p: Pipeline,
                           state: CompositeState) {
        guard !dry else { return }
        let kind: CompositeInstance.CoverageSource = coverage.kind == .coverage ? .atlas : .accumulated
        // Every pixel the bands rasterize reads the destination, their zero-coverage padding included: the
        // copy route copies the union of the band rectangles, and a trapezoid's sides may stick out of its
        // rectangle by `bandPadding` pixels.
        var reach: PixelRect?
        if p == .compositeCopy {
            for b in coverage.shapeBands[index] {
                let band = coverage.bands[b]
                let pad = band.leftTop != 0 || band.leftBottom != 0 || band.rightTop != 0 || band.rightBottom != 0
                    ? CoverageAccumulator.bandPadding : 0
                let r = PixelRect(x: Int(band.x) - pad, y: Int(band.y), width: Int(band.w) + 2 * pad, height: Int(band.h))
                reach = reach.map { $0.union(r) } ?? r
            }
        }
        var first = true
        for b in coverage.shapeBands[index] {
            let band = coverage.bands[b]
            if Int(band.batch) != loadedBatch {
                flush()
                load(batch: Int(band.batch))
            }
            var instance = CompositeInstance(x: band.x + Int16(offset.0), y: band.y + Int16(offset.1), w: band.w,
                                             h: band.h, u: band.u, v: band.v, rule: band.rule, coverage: kind.rawValue,
                                             leftTop: band.leftTop, leftBottom: band.leftBottom,
                                             rightTop: band.rightTop, rightBottom: band.rightBottom,
                                             paint: paint.rawValue, paintRow: Int16(row),
                                             blendMode: Int16(blend.rawValue), r: color.x, g: color.y, b: color.z,
                                             a: color.w)
            setClip(&instance, clip)
            if first, let reach {
                emit(instance, pipeline: p, state: state, copyBox: reach)
            } else {
                append(instance, pipeline: p, state: state)
            }
            first = false
        }
        if p == .compositeCopy { flush() }
    }

    /// The program specialisation an instance draws with: its coverage source, paint (and gradient kind) and,
    /// for the shader-blended pipelines, its blend mode are compiled in, so that each program does only its
    /// own instances' work per pixel.
    private func variant(of i: CompositeInstance, _ p: Pipeline) -> ShaderVariant {
        var v = ShaderVariant(coverage: i.coverage, paint: i.paint)
        v.unclipped = i.clipW == 0
        if i.paint == CompositeInstance.PaintSource.gradient.rawValue, gradientHeaders[Int(i.paintRow)].w > 0 {
            let h = gradientHeaders[Int(i.paintRow)]
            v.gradientKind = Int16(h.x)
            v.gradientSpread = Int16(h.y)
            v.gradientEncodes = Int(h.z) & 1 != 0
            v.gradientOklab = Int(h.z) & 2 != 0
            v.fewStops = Int(h.w) <= 4
        }
        if p == .compositeFetch || p == .compositeCopy { v.blendMode = i.blendMode }
        return v
    }

    /// A rectangle of full coverage.
    func full(_ r: PixelRect, paint: CompositeInstance.PaintSource, color: SIMD4<Float>) -> CompositeInstance {
        CompositeInstance(x: Int16(r.x), y: Int16(r.y), w: Int16(r.width), h: Int16(r.height), u: 0, v: 0, rule: 0,
                          coverage: CompositeInstance.CoverageSource.full.rawValue, paint: paint.rawValue,
                          paintRow: 0, r: color.x, g: color.y, b: color.z, a: color.w)
    }

    private func pipeline(for blend: GraphicsContext.BlendMode) -> Pipeline {
        if blend == .normal { return .composite }
        return route == .framebufferFetch ? .compositeFetch : .compositeCopy
    }

    /// A draw's first instance: with the copy route, the destination under `copyBox` is copied first.
    private func emit(_ instance: CompositeInstance, pipeline p: Pipeline, state: CompositeState, copyBox: PixelRect) {
        if p == .compositeCopy {
            flush()
            ensurePass()
            let t = targets[targets.count - 1]
            // In the target's coordinates: a hoisted layer's device pixels are shifted to its region.
            let copyBox = PixelRect(x: copyBox.x + shift.0, y: copyBox.y + shift.1, width: copyBox.width, height: copyBox.height)
            let x0 = max(copyBox.x, t.box.x), y0 = max(copyBox.y, t.box.y)
            let x1 = min(copyBox.x + copyBox.width, t.box.x + t.box.width)
            let y1 = min(copyBox.y + copyBox.height, t.box.y + t.box.height)
            if x1 > x0, y1 > y0 {
                let into: TextureRef
                switch t.ref {
                case .preciseLayer, .preciseLayerAtlas: into = .preciseDestinationCopy
                default: into = .destinationCopy
                }
                cb.passes[cb.passes.count - 1].commands.append(
                    .copyDestination(TexelRect(x: x0 - t.box.x, y: y0 - t.box.y, width: x1 - x0, height: y1 - y0),
                                     into: into))
            }
        }
        append(instance, pipeline: p, state: state)
        if p == .compositeCopy { flush() }
    }

    func append(_ instance: CompositeInstance, pipeline: Pipeline, state: CompositeState, variant given: ShaderVariant? = nil) {
        guard !dry else { return }
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
    func flush() {
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
        cb.passes[pass].commands.append(.draw(instanceCount: count, bufferOffset: p.first * CompositeInstance.stride,
                                              pipeline: p.pipeline))
        drawCommands.append((pass, cb.passes[pass].commands.count - 1))
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

    // MARK: Targets and passes

    /// Makes `t` the current target (its pass opens with the next instance, or `openPass`).
    func push(_ t: Target) {
        flush()
        targets.append(t)
        passIsOpen = false
    }

    func pop() -> Target {
        flush()
        passIsOpen = false
        return targets.removeLast()
    }

    private func ensurePass() {
        if !passIsOpen { openPass() }
    }

    /// Opens a pass on the current target: the first clears it (the frame to the clear colour, a layer to
    /// transparent over its box, a mask page to 0), later ones load its pixels.
    func openPass() {
        let t = targets[targets.count - 1]
        let load: LoadOp = t.cleared ? .load : .clear(t.clear)
        targets[targets.count - 1].cleared = true
        passIsOpen = true
        guard !dry else { return }
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

    func declareAtLeast(_ ref: TextureRef, _ box: PixelRect, _ format: TextureFormat) {
        if let d = cb.desc(of: ref), d.format == format {
            cb.declare(ref, TextureDesc(width: max(d.width, box.width), height: max(d.height, box.height), format: format))
        } else {
            cb.declare(ref, TextureDesc(width: box.width, height: box.height, format: format))
        }
    }
}
