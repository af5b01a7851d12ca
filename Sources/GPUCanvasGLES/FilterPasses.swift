// The GPU's filter passes: a filtered layer's stages (`FilterPlanning`) → passes of `filter.glsl`, each
// drawing one rectangle of a filter image, blending off.
//
// A blur is [block average] → horizontal sums → vertical sums → [bilinear upsample]; a shadow is the blur of
// its alpha, then one combine pass; a projection one pass. The passes of a layer are first listed
// (`FilterPassSpec`, the same list whoever runs it), then emitted one of two ways:
// - immediately, each pass its own render pass into a pooled filter image (`TextureRef.filterImage`), for a
//   layer composited in the middle of other work (nested in a layer, inside a mask);
// - in rounds (`LayerHoisting.swift`), for the frame's top-level layers: round r holds every layer's passes
//   whose inputs are ready after round r − 1, all drawn into regions of one atlas (`filterAtlas(round,
//   page)`), one render pass per round. On llvmpipe a render pass costs a flush (~40 µs), and ten blurred
//   layers take three rounds instead of thirty passes.

/// Where a filter image lives: the texture, the box it covers (device pixels, or coarse cells), and the texel
/// holding the box's corner.
struct FilterImageLocation {
    var ref: TextureRef
    var box: PixelRect
    var texel: SIMD2<Int32> = .zero
}

/// One pass of a layer's filters.
struct FilterPassSpec {
    /// An image a pass reads: the layer itself, or the output of an earlier pass of the same layer.
    enum Input: Equatable {
        case layer
        case pass(Int)
    }
    var variant: FilterPassVariant
    var blend: GraphicsContext.BlendMode = .normal
    /// The output's box.
    var box: PixelRect
    var source: Input
    var second: Input?
    /// The parameter row's texels (kernel weights, a shadow's offset, a projection's matrix).
    var parameters: [SIMD4<Float>]
    /// The prefilter's colour steps (empty: none).
    var prefilter: [ColorFilterStep]
    /// A shadow's colour.
    var color: SIMD4<Float> = .zero
}

/// A layer's filter passes and which outputs its composite reads.
struct FilterPassList {
    var passes: [FilterPassSpec] = []
    /// What the composite reads: the last stage's image (a coarse one for `upsampledByComposite`).
    var final: FilterPassSpec.Input = .layer
    /// The last stage's input (a separately composited shadow's source).
    var lastInput: FilterPassSpec.Input = .layer

    /// The passes of `filter`'s stages on a layer.
    init(_ filter: LoweredFilter) {
        var input = FilterPassSpec.Input.layer
        for (k, stage) in filter.stages.enumerated() {
            lastInput = input
            let upsample = !(filter.upsampledByComposite && k == filter.stages.count - 1)
            input = append(stage, input: input, upsample: upsample)
        }
        final = input
    }

    /// The index of the last pass that reads each pass's output (for giving pooled images back).
    var lastReads: [Int: Int] {
        var last: [Int: Int] = [:]
        for (i, p) in passes.enumerated() {
            for input in [p.source, p.second] { if case .pass(let j)? = input { last[j] = i } }
        }
        return last
    }

    private mutating func add(_ p: FilterPassSpec) -> FilterPassSpec.Input {
        passes.append(p)
        return .pass(passes.count - 1)
    }

    private mutating func append(_ stage: FilterStage, input: FilterPassSpec.Input, upsample: Bool) -> FilterPassSpec.Input {
        let prefilter = stage.prefilter
        switch stage.kind {
        case .blur(let plan):
            return appendBlur(plan, input: input, prefilter: prefilter, upsample: upsample)
        case .shadow(let plan):
            let blurred = plan.blur.map { appendBlur($0, input: input, prefilter: prefilter, upsample: true) }
            var v = FilterPassVariant(pass: 4)
            v.read = plan.read.rawValue
            v.shadowMode = plan.mode.rawValue
            if !prefilter.isEmpty { v.flags |= FilterPassVariant.prefilter }
            if blurred != nil { v.flags |= FilterPassVariant.blurredShadow }
            return add(FilterPassSpec(variant: v, blend: plan.blend, box: stage.output, source: input, second: blurred,
                                      parameters: [SIMD4(Float(plan.dx), Float(plan.dy), 0, 0)], prefilter: prefilter,
                                      color: plan.color))
        case .projection(let m):
            var v = FilterPassVariant(pass: 5)
            if !prefilter.isEmpty { v.flags |= FilterPassVariant.prefilter }
            let k = m.floatCoefficients
            return add(FilterPassSpec(variant: v, box: stage.output, source: input, second: nil,
                                      parameters: [SIMD4(k[0], k[1], k[2], k[3]), SIMD4(k[4], k[5], k[6], k[7]),
                                                   SIMD4(k[8], 0, 0, 0)],
                                      prefilter: prefilter))
        }
    }

    /// The passes of one blur of `input`; returns the blurred image (with `upsample` false, a downsampled
    /// blur's coarse result, which the composite interpolates).
    private mutating func appendBlur(_ plan: BlurPlan, input: FilterPassSpec.Input, prefilter: [ColorFilterStep],
                                     upsample: Bool) -> FilterPassSpec.Input {
        var weights = plan.weights
        // filter.glsl reads four texels of weights: offsets 0…15 (a kernel has at most 13).
        precondition(weights.count <= 16, "a blur kernel has at most 13 weights (FilterPlanning.minCoarseSigma)")
        while weights.count < 16 { weights.append(0) }
        let row = (0 ..< 4).map { SIMD4(weights[4 * $0], weights[4 * $0 + 1], weights[4 * $0 + 2], weights[4 * $0 + 3]) }
        var base = FilterPassVariant(pass: 0)
        base.read = plan.read.rawValue
        base.space = plan.space.rawValue
        base.factor = plan.factor
        base.radius = plan.radius
        if plan.opaque { base.flags |= FilterPassVariant.opaque }
        if plan.dithers { base.flags |= FilterPassVariant.dither }
        func pass(_ kind: Int, readsInput: Bool, finishes: Bool, box: PixelRect, source: FilterPassSpec.Input,
                  second: FilterPassSpec.Input?) -> FilterPassSpec.Input {
            var v = base
            v.pass = kind
            if readsInput && !prefilter.isEmpty { v.flags |= FilterPassVariant.prefilter }
            if finishes { v.flags |= FilterPassVariant.finish }
            return add(FilterPassSpec(variant: v, box: box, source: source, second: second, parameters: row,
                                      prefilter: readsInput || finishes ? prefilter : []))
        }
        let f = plan.factor
        var source = input
        if f > 1 {
            source = pass(0, readsInput: true, finishes: false, box: plan.coarseInput, source: input, second: nil)
        }
        let horizontal = pass(1, readsInput: f == 1, finishes: false, box: plan.horizontal, source: source, second: nil)
        let vertical = pass(2, readsInput: f == 1, finishes: f == 1, box: plan.coarseOutput, source: horizontal,
                            second: f == 1 ? input : nil)
        guard f > 1, upsample else { return vertical }
        return pass(3, readsInput: true, finishes: true, box: plan.output, source: vertical, second: input)
    }
}

extension CompositeGather {
    /// Emits `list`'s passes one render pass each, into pooled filter images (`TextureRef.filterImage`), for a
    /// layer read from `layer`; returns where each pass's output lives.
    func emitImmediately(_ list: FilterPassList, layer: FilterImageLocation) -> [FilterImageLocation] {
        var outputs: [FilterImageLocation] = []
        var inUse = Set<Int>()
        let lastReads = list.lastReads
        func location(_ input: FilterPassSpec.Input) -> FilterImageLocation {
            if case .pass(let j) = input { return outputs[j] }
            return layer
        }
        for (i, spec) in list.passes.enumerated() {
            var slot = 0
            while inUse.contains(slot) { slot += 1 }
            inUse.insert(slot)
            let image = FilterImageLocation(ref: .filterImage(slot), box: spec.box)
            record(.push(CompositeTarget(ref: image.ref, box: spec.box, clear: .transparent, cleared: true)))
            record(.declare(image.ref, TextureDesc(width: spec.box.width, height: spec.box.height, format: .rgba16f),
                            atLeast: true))
            emitFilterPass(spec, source: location(spec.source), second: spec.second.map(location), shift: (0, 0))
            record(.pop)
            outputs.append(image)
            // Images no later pass reads go back to the pool (the composite's own are kept).
            for j in 0 ... i where lastReads[j] == i && j != finalIndex(list) && j != lastInputIndex(list) {
                if case .filterImage(let n) = outputs[j].ref { inUse.remove(n) }
            }
        }
        return outputs
    }

    private func finalIndex(_ list: FilterPassList) -> Int? { if case .pass(let j) = list.final { return j }; return nil }
    private func lastInputIndex(_ list: FilterPassList) -> Int? { if case .pass(let j) = list.lastInput { return j }; return nil }

    /// One pass's rectangle into the current target, `shift` moving it to its region there.
    func emitFilterPass(_ spec: FilterPassSpec, source: FilterImageLocation, second: FilterImageLocation?,
                        shift: (Int, Int)) {
        let row = paintRow(spec.parameters)
        let prefilterRow = spec.prefilter.isEmpty ? -1 : paintRow(ColorFilterFormulas.packedTexels(spec.prefilter))
        var instance = full(spec.box, paint: .solid, color: spec.color)
        instance.paintRow = Self.rowField(row)
        instance.secondRow = Self.rowField(prefilterRow)
        instance.shiftX = Int16(shift.0)
        instance.shiftY = Int16(shift.1)
        var variant = ShaderVariant.none
        variant.filter = spec.variant
        if spec.variant.pass == 4 { variant.blendMode = Int16(spec.blend.rawValue) }
        var state = CompositeState(source: (source.ref, source.box), second: second.map { ($0.ref, $0.box) })
        state.sourceTexel = source.texel
        state.secondTexel = second?.texel ?? .zero
        record(.instance(instance, .filter, state, variant: variant, copyBox: nil))
    }
}
