// Clip masks, the first part of the composite route's gather: every clip stack of the frame gets a region in an
// R8 mask page (`.mask(n)`, shelf-packed), built at the start of the frame in a few passes for all clips at once:
// the first entry of every clip is drawn directly (coverage, or 1 − coverage via a multiplicative erase), later
// entries are multiplied in (a shape's coverage drawn into a scratch page first, `.clipCoverage(n)`; an inverse
// shape erased in place). Clips with `clipToLayer` masks are built one by one after those, their content
// rendered into a layer and its alpha multiplied in. Instances carry their clip (device box and page texel), so
// draws under different clips still batch. On llvmpipe each pass costs a flush, so a clip per draw
// (S5-clip-blend: 200) costs one pass in all, not several per draw.
//
// Mask pages (and their scratch pages) hold 8-bit coverage on an sRGB-encoded canvas; on a linear-light one
// half floats (`GatheredFrame.maskFormat`), because the output's sRGB encoding multiplies a dark pixel's error
// by up to 12.92: one 8-bit step of clip coverage became 4 levels of a dark red.

extension CompositeGather {
    func layoutMasks() throws {
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
        out.maskPages.removeAll(keepingCapacity: true)
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
                out.maskPages.append((pageWidth, packer.usedHeight))
                packer.reset()
                slot = packer.allocate(width: box.width, height: box.height)
            }
            guard let s = slot else {
                throw RenderError.unsupported("a clip of \(box.width)×\(box.height) pixels exceeds the GL texture limit of \(maxTextureSize)")
            }
            maskRegions[k] = (out.maskPages.count, s.x, s.y)
        }
        if !clipOrder.isEmpty { out.maskPages.append((pageWidth, packer.usedHeight)) }
    }

    /// Builds every clip's mask region: all clips of shapes only together, a pass per entry rank; clips with
    /// `clipToLayer` masks one by one.
    func buildMasks() {
        guard !clipOrder.isEmpty else { return }
        let simple = clipOrder.filter { k in !frame.clips[k].entries.contains { if case .mask = $0 { return true }; return false } }
        let layered = clipOrder.filter { k in !simple.contains(k) }
        for page in out.maskPages.indices {
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

    /// The clip's region of its page, in page texels.
    private func region(_ k: Int) -> PixelRect {
        let r = maskRegions[k]!
        let box = frame.clips[k].box ?? PixelRect(x: 0, y: 0, width: 1, height: 1)
        return PixelRect(x: r.u, y: r.v, width: box.width, height: box.height)
    }

    /// Scissors to `region` only when the shape reaches past its clip's box; a shape inside it (a clip of one
    /// path, the common case) needs none, so the masks of many clips still batch into one draw call. (A band's
    /// zero-coverage padding may stick out, but blends nothing into a mask.)
    private func scissor(_ region: PixelRect, for shape: CoverageShape, clipBox: PixelRect) {
        let inside = shape.box.intersection(clipBox) == shape.box
        record(.scissor(inside ? nil : region))
    }

    /// Writes entry 0 of clip `k` into its region (which holds 0): coverage, 1 − coverage, 1 or nothing.
    private func firstEntry(_ k: Int) {
        let clip = frame.clips[k]
        guard let box = clip.box, let entry = clip.entries.first else { return }
        let reg = region(k)
        switch entry {
        case .shape(let shape, let inverse):
            if inverse {
                record(.scissor(nil))
                record(.instance(full(reg, paint: .solid, color: SIMD4(repeating: 1)), .composite, CompositeState(), variant: nil, copyBox: nil))
            }
            guard let shape else { return }
            let index = takeShape(shape)
            scissor(reg, for: shape, clipBox: box)
            bands(index, offset: (reg.x - box.x, reg.y - box.y), pipeline: inverse ? .maskErase : .composite)
        case .mask:
            // Content multiplies into 1.
            record(.scissor(nil))
            record(.instance(full(reg, paint: .solid, color: SIMD4(repeating: 1)), .composite, CompositeState(), variant: nil, copyBox: nil))
            record(.flush)
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
                record(.declare(scratch, TextureDesc(width: out.maskPages[page].width, height: out.maskPages[page].height,
                                                     format: out.maskFormat), atLeast: false))
                record(.push(CompositeTarget(ref: scratch, box: PixelRect(x: 0, y: 0, width: out.maskPages[page].width,
                                                                          height: out.maskPages[page].height),
                                             clear: .transparent)))
                record(.openPass)
                scratchUsed = true
            }
            let reg = region(k)
            let index = takeShape(shape)
            scissor(reg, for: shape, clipBox: box)
            bands(index, offset: (reg.x - box.x, reg.y - box.y), pipeline: .composite)
        }
        if scratchUsed { record(.pop) }
        // Mask contents into layers, each multiplied in right away.
        for (k, r) in list {
            guard case .mask(let ops, let contentBox?, _, _) = frame.clips[k].entries[r] else { continue }
            depth += 1
            let ref = TextureRef.layer(depth)
            record(.push(CompositeTarget(ref: ref, box: contentBox, clear: .transparent)))
            record(.declare(ref, TextureDesc(width: contentBox.width, height: contentBox.height, format: frameFormat),
                            atLeast: true))
            record(.openPass)
            for op in ops { walk(op) }
            record(.pop)
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
                    bands(index, offset: (reg.x - box.x, reg.y - box.y), pipeline: .maskErase)
                } else if shape == nil {
                    multiply(reg, by: nil, alpha: false, opacity: 0, inverse: false)
                } else {
                    multiply(reg, by: (scratch, PixelRect(x: 0, y: 0, width: out.maskPages[page].width,
                                                          height: out.maskPages[page].height)),
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
        record(.scissor(nil))
        var instance = full(reg, paint: source == nil ? .solid : (alpha ? .sourceAlpha : .sourceRed),
                            color: SIMD4(repeating: opacity))
        instance.rule = inverse ? 1 : 0
        record(.instance(instance, .maskMultiply, CompositeState(maskPage: nil, source: source), variant: nil,
                         copyBox: nil))
    }

    private func beginMaskPass(_ page: Int, clear: Bool) {
        let size = out.maskPages[page]
        record(.push(CompositeTarget(ref: .mask(page), box: PixelRect(x: 0, y: 0, width: size.width, height: size.height),
                                     clear: .transparent, cleared: !clear)))
        record(.openPass)
    }

    private func endPass() {
        record(.pop)
    }

    /// White coverage bands of a clip shape into its mask region.
    private func bands(_ shape: Int, offset: (Int, Int), pipeline: Pipeline) {
        record(.bands(BandsStep(shape: shape, offset: offset, paint: .solid, row: 0, color: SIMD4(repeating: 1),
                                blend: .normal, clip: nil, pipeline: pipeline, state: CompositeState())))
    }
}
