// The GPU's filter passes: a filtered layer's stages (`FilterPlanning`) → passes of `filter.glsl`, each
// drawing one rectangle into a filter image (`TextureRef.filterImage`, RGBA16F), blending off.
//
// A blur is [block average] → horizontal sums → vertical sums → [bilinear upsample]; a shadow is the blur of
// its alpha, then one combine pass; a projection one pass. Filter images are taken from a small pool of slots
// for the layer's composite and given back when the next stage has read them.

extension CompositingEncoder {
    /// Encodes one stage reading `input`; returns its output image (`upsample` false: a downsampled blur's
    /// coarse result, which the composite interpolates).
    func encodeFilterStage(_ stage: FilterStage, input: (ref: TextureRef, rect: PixelRect), upsample: Bool = true)
        -> (ref: TextureRef, rect: PixelRect) {
        let prefilterRow = stage.prefilter.isEmpty ? -1 : paintRow(ColorFilterFormulas.packedTexels(stage.prefilter))
        switch stage.kind {
        case .blur(let plan):
            return encodeBlur(plan, input: input, prefilterRow: prefilterRow, upsample: upsample)
        case .shadow(let plan):
            let blurred = plan.blur.map { encodeBlur($0, input: input, prefilterRow: prefilterRow) }
            var v = FilterPassVariant(pass: 4)
            v.read = plan.read.rawValue
            v.shadowMode = plan.mode.rawValue
            if prefilterRow >= 0 { v.flags |= FilterPassVariant.prefilter }
            if blurred != nil { v.flags |= FilterPassVariant.blurredShadow }
            let row = paintRow([SIMD4(Float(plan.dx), Float(plan.dy), 0, 0)])
            let out = filterPass(v, blend: plan.blend, box: stage.output, source: input, second: blurred, row: row,
                                 prefilterRow: prefilterRow, color: plan.color)
            if let blurred, case .filterImage(let n) = blurred.ref { releaseFilterSlot(n) }
            return out
        case .projection(let m):
            var v = FilterPassVariant(pass: 5)
            if prefilterRow >= 0 { v.flags |= FilterPassVariant.prefilter }
            let k = FilterFormulas.projectionCoefficients(m)
            let row = paintRow([SIMD4(k[0], k[1], k[2], k[3]), SIMD4(k[4], k[5], k[6], k[7]), SIMD4(k[8], 0, 0, 0)])
            return filterPass(v, box: stage.output, source: input, second: nil, row: row, prefilterRow: prefilterRow)
        }
    }

    /// The passes of one blur of `input`; returns the blurred image.
    private func encodeBlur(_ plan: BlurPlan, input: (ref: TextureRef, rect: PixelRect), prefilterRow: Int,
                            upsample: Bool = true) -> (ref: TextureRef, rect: PixelRect) {
        var weights = plan.weights
        // filter.glsl reads four texels of weights: offsets 0…15 (a kernel has at most 13).
        precondition(weights.count <= 16, "a blur kernel has at most 13 weights (FilterPlanning.minCoarseSigma)")
        while weights.count < 16 { weights.append(0) }
        let row = paintRow((0 ..< 4).map { SIMD4(weights[4 * $0], weights[4 * $0 + 1], weights[4 * $0 + 2], weights[4 * $0 + 3]) })
        var base = FilterPassVariant(pass: 0)
        base.read = plan.read.rawValue
        base.space = plan.space.rawValue
        base.factor = plan.factor
        base.radius = plan.radius
        if plan.opaque { base.flags |= FilterPassVariant.opaque }
        if plan.dithers { base.flags |= FilterPassVariant.dither }
        func variant(_ pass: Int, readsInput: Bool, finishes: Bool) -> FilterPassVariant {
            var v = base
            v.pass = pass
            if readsInput && prefilterRow >= 0 { v.flags |= FilterPassVariant.prefilter }
            if finishes { v.flags |= FilterPassVariant.finish }
            return v
        }
        let f = plan.factor
        var source = input
        if f > 1 {
            source = filterPass(variant(0, readsInput: true, finishes: false), box: plan.coarseInput, source: input,
                                second: nil, row: row, prefilterRow: prefilterRow)
        }
        let horizontal = filterPass(variant(1, readsInput: f == 1, finishes: false), box: plan.horizontal,
                                    source: source, second: nil, row: row, prefilterRow: prefilterRow)
        if f > 1, case .filterImage(let n) = source.ref { releaseFilterSlot(n) }
        let vertical = filterPass(variant(2, readsInput: f == 1, finishes: f == 1), box: plan.coarseOutput,
                                  source: horizontal, second: f == 1 ? input : nil, row: row, prefilterRow: prefilterRow)
        if case .filterImage(let n) = horizontal.ref { releaseFilterSlot(n) }
        guard f > 1, upsample else { return vertical }
        let up = filterPass(variant(3, readsInput: true, finishes: true), box: plan.output, source: vertical,
                            second: input, row: row, prefilterRow: prefilterRow)
        if case .filterImage(let n) = vertical.ref { releaseFilterSlot(n) }
        return up
    }

    /// One pass writing every texel of `box` into a fresh filter image.
    private func filterPass(_ v: FilterPassVariant, blend: GraphicsContext.BlendMode = .normal, box: PixelRect,
                            source: (ref: TextureRef, rect: PixelRect), second: (ref: TextureRef, rect: PixelRect)?,
                            row: Int, prefilterRow: Int, color: SIMD4<Float> = .zero) -> (ref: TextureRef, rect: PixelRect) {
        let slot = takeFilterSlot()
        let ref = TextureRef.filterImage(slot)
        // Every texel of the box is written: the pass loads instead of clearing.
        push(Target(ref: ref, box: box, clear: .transparent, cleared: true))
        if !dry {
            declareAtLeast(ref, box, .rgba16f)
            var instance = full(box, paint: .solid, color: color)
            instance.paintRow = Int16(row)
            instance.secondRow = Int16(prefilterRow)
            var variant = ShaderVariant.none
            variant.filter = v
            if v.pass == 4 { variant.blendMode = Int16(blend.rawValue) }
            append(instance, pipeline: .filter, state: CompositeState(maskPage: nil, source: source, second: second),
                   variant: variant)
        }
        _ = pop()
        return (ref, box)
    }

    private func takeFilterSlot() -> Int {
        var n = 0
        while filterSlotsInUse.contains(n) { n += 1 }
        filterSlotsInUse.insert(n)
        return n
    }

    func releaseFilterSlot(_ n: Int) { filterSlotsInUse.remove(n) }
}

extension FilterStage.Kind {
    var isBlur: Bool {
        if case .blur = self { return true }
        return false
    }
}
