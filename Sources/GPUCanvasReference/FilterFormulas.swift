// The spatial filters' passes on the CPU: the arithmetic `FilterPlanning`'s passes run, in the order the GPU
// runs it (Sources/Shaders/programs/filter.glsl is the GLSL copy), on images of half floats.
//
// Every pass reads images that are transparent outside their boxes, computes in Float and stores each value
// rounded to a half float, as the GPU's RGBA16F targets do. Sums run over the kernel from −r to r.

/// An image of a filter pass: premultiplied values over `box` (device pixels, or coarse cells), transparent
/// outside.
package struct FilterImage {
    package let box: PixelRect
    package var values: [SIMD4<Float>]

    package init(box: PixelRect) {
        self.box = box
        values = [SIMD4<Float>](repeating: .zero, count: max(0, box.width * box.height))
    }

    @inline(__always)
    package subscript(x: Int, y: Int) -> SIMD4<Float> {
        guard x >= box.x, y >= box.y, x < box.x + box.width, y < box.y + box.height else { return .zero }
        return values[(y - box.y) * box.width + (x - box.x)]
    }

    /// Stores `v` at (x, y), which lies in `box`, rounded to half floats.
    @inline(__always)
    package mutating func store(_ v: SIMD4<Float>, x: Int, y: Int) {
        values[(y - box.y) * box.width + (x - box.x)] = v.roundedToHalf
    }

    /// The image of a reference surface (a layer).
    package init(_ s: ReferenceSurface) {
        box = s.box
        values = []
        values.reserveCapacity(box.width * box.height)
        for y in box.y ..< box.y + box.height {
            for x in box.x ..< box.x + box.width { values.append(s.color(x: x, y: y)) }
        }
    }
}

package enum FilterFormulas {
    /// The 4 × 4 ordered-dither matrix of `BlurOptions.dithersResult`.
    package static let bayer: [Float] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5]

    /// An input texel as a stage reads it: through the prefilter's colour steps.
    @inline(__always)
    package static func read(_ image: FilterImage, _ prefilter: [ColorFilterStep], x: Int, y: Int) -> SIMD4<Float> {
        let t = image[x, y]
        return prefilter.isEmpty ? t : ColorFilterFormulas.apply(prefilter, to: t)
    }

    /// What a blur sums of a texel: its colour in the blur's space, or its alpha (or 1 − alpha) in all four.
    @inline(__always)
    package static func blurInput(_ p: SIMD4<Float>, _ plan: BlurPlan) -> SIMD4<Float> {
        switch plan.read {
        case .alpha: return SIMD4(repeating: p.w)
        case .inverseAlpha: return SIMD4(repeating: 1 - min(max(p.w, 0), 1))
        case .color:
            guard plan.space != .working else { return p }
            let a = min(max(p.w, 0), 1)
            let c = a > 0 ? ColorFilterFormulas.clamp01(SIMD3(p.x, p.y, p.z) / a) : .zero
            return SIMD4(ColorFilterFormulas.toMaths(c, plan.space) * a, a)
        }
    }

    /// A blur's last step on its sum `v` at device pixel (x, y): back from the blur's space, made opaque where
    /// the input is (`opaque`: colour ÷ the blurred alpha, × the input's alpha), dithered.
    @inline(__always)
    package static func blurFinish(_ v: SIMD4<Float>, input: SIMD4<Float>, _ plan: BlurPlan, x: Int, y: Int) -> SIMD4<Float> {
        var o = v
        if plan.read == .color && (plan.space != .working || plan.opaque) {
            var a = min(max(v.w, 0), 1)
            let c = a > 0 ? ColorFilterFormulas.clamp01(SIMD3(v.x, v.y, v.z) / a) : .zero
            if plan.opaque { a = min(max(input.w, 0), 1) }
            o = SIMD4(ColorFilterFormulas.fromMaths(c, plan.space) * a, a)
        }
        if plan.dithers && o.w > 0 {
            let d = ((bayer[(y & 3) * 4 + (x & 3)] + 0.5) / 16 - 0.5) / 255
            o = SIMD4(min(max(o.x + d, 0), o.w), min(max(o.y + d, 0), o.w), min(max(o.z + d, 0), o.w), o.w)
        }
        return o
    }

    /// Bilinear interpolation of `sample` at (qx, qy), in pixel units with texel i's centre at i + ½, in the
    /// order a GPU's bilinear filter computes it: lerp(lerp(a, b, tx), lerp(c, d, tx), ty) with
    /// lerp(u, v, t) = u + t·(v − u).
    @inline(__always)
    package static func bilinear(qx: Float, qy: Float, _ sample: (Int, Int) -> SIMD4<Float>) -> SIMD4<Float> {
        let u = qx - 0.5, v = qy - 0.5
        let fx = u.rounded(.down), fy = v.rounded(.down)
        let tx = u - fx, ty = v - fy
        let i = Int(fx), j = Int(fy)
        let a = sample(i, j), b = sample(i + 1, j), c = sample(i, j + 1), d = sample(i + 1, j + 1)
        let top = a + tx * (b - a), bottom = c + tx * (d - c)
        return top + ty * (bottom - top)
    }

    /// Runs a blur on `input` (read through `prefilter`); with `upsample` false, a downsampled blur stops at its
    /// coarse result (`LoweredFilter.upsampledByComposite`).
    package static func blur(_ plan: BlurPlan, input: FilterImage, prefilter: [ColorFilterStep], upsample: Bool = true) -> FilterImage {
        let f = plan.factor, w = plan.weights, r = plan.radius
        // What the horizontal pass reads: the block averages, or (factor 1) the input texels as summed.
        var source = FilterImage(box: plan.coarseInput)
        let cb = plan.coarseInput
        for cy in cb.y ..< cb.y + cb.height {
            for cx in cb.x ..< cb.x + cb.width {
                if f == 1 {
                    source.values[(cy - cb.y) * cb.width + (cx - cb.x)] =
                        blurInput(read(input, prefilter, x: cx, y: cy), plan)
                    continue
                }
                var acc = SIMD4<Float>.zero
                for j in 0 ..< f {
                    for i in 0 ..< f { acc += blurInput(read(input, prefilter, x: cx * f + i, y: cy * f + j), plan) }
                }
                source.store(acc * (1 / Float(f * f)), x: cx, y: cy)
            }
        }
        var horizontal = FilterImage(box: plan.horizontal)
        let hb = plan.horizontal
        for y in hb.y ..< hb.y + hb.height {
            for x in hb.x ..< hb.x + hb.width {
                var acc = SIMD4<Float>.zero
                for i in -r ... r { acc += w[abs(i)] * source[x + i, y] }
                horizontal.store(acc, x: x, y: y)
            }
        }
        var vertical = FilterImage(box: plan.coarseOutput)
        let vb = plan.coarseOutput
        for y in vb.y ..< vb.y + vb.height {
            for x in vb.x ..< vb.x + vb.width {
                var acc = SIMD4<Float>.zero
                for i in -r ... r { acc += w[abs(i)] * horizontal[x, y + i] }
                if f == 1 { acc = blurFinish(acc, input: read(input, prefilter, x: x, y: y), plan, x: x, y: y) }
                vertical.store(acc, x: x, y: y)
            }
        }
        if f == 1 || !upsample { return vertical }
        var output = FilterImage(box: plan.output)
        let ob = plan.output
        let inv = 1 / Float(f)
        for y in ob.y ..< ob.y + ob.height {
            for x in ob.x ..< ob.x + ob.width {
                var v = bilinear(qx: (Float(x) + 0.5) * inv, qy: (Float(y) + 0.5) * inv) { vertical[$0, $1] }
                v = blurFinish(v, input: read(input, prefilter, x: x, y: y), plan, x: x, y: y)
                output.store(v, x: x, y: y)
            }
        }
        return output
    }

    /// The shadow stage: the input with its shadow behind, above, or alone.
    package static func shadow(_ plan: ShadowPlan, stage: FilterStage, input: FilterImage) -> FilterImage {
        let prefilter = stage.prefilter
        let blurred = plan.blur.map { blur($0, input: input, prefilter: prefilter) }
        let alphaPlan = BlurPlan(factor: 1, weights: [1], read: plan.read, coarseInput: input.box, horizontal: input.box,
                                 coarseOutput: input.box, output: input.box)
        var output = FilterImage(box: stage.output)
        let ob = stage.output
        let dx = Float(plan.dx), dy = Float(plan.dy)
        for y in ob.y ..< ob.y + ob.height {
            for x in ob.x ..< ob.x + ob.width {
                let qx = Float(x) + 0.5 - dx, qy = Float(y) + 0.5 - dy
                let a: Float
                if let blurred {
                    a = bilinear(qx: qx, qy: qy) { blurred[$0, $1] }.w
                } else {
                    a = bilinear(qx: qx, qy: qy) { blurInput(read(input, prefilter, x: $0, y: $1), alphaPlan) }.w
                }
                let s = read(input, prefilter, x: x, y: y)
                output.store(shadowCombine(s, shadowAlpha: a, plan), x: x, y: y)
            }
        }
        return output
    }

    /// The shadow (colour × the blurred alpha) with the source `s` as the plan's mode says.
    @inline(__always)
    package static func shadowCombine(_ s: SIMD4<Float>, shadowAlpha a: Float, _ plan: ShadowPlan) -> SIMD4<Float> {
        let sh = plan.color * min(max(a, 0), 1)
        switch plan.mode {
        case .behind: return s + (1 - s.w) * BlendFormulas.blend(plan.blend, source: sh, destination: .zero)
        case .above: return BlendFormulas.blend(plan.blend, source: sh, destination: s)
        case .only: return BlendFormulas.blend(plan.blend, source: sh, destination: .zero)
        }
    }

    /// The projection stage: each output pixel centre mapped back into the input and sampled bilinearly.
    package static func projection(inverse m: ProjectionTransform, stage: FilterStage, input: FilterImage) -> FilterImage {
        var output = FilterImage(box: stage.output)
        let ob = stage.output
        let k = m.floatCoefficients
        for y in ob.y ..< ob.y + ob.height {
            for x in ob.x ..< ob.x + ob.width {
                let px = Float(x) + 0.5, py = Float(y) + 0.5
                let w = k[2] * px + k[5] * py + k[8]
                guard w > 0 else { continue }
                let qx = (k[0] * px + k[3] * py + k[6]) / w, qy = (k[1] * px + k[4] * py + k[7]) / w
                guard abs(qx) < 1e8, abs(qy) < 1e8 else { continue }
                let v = bilinear(qx: qx, qy: qy) { read(input, stage.prefilter, x: $0, y: $1) }
                output.store(v, x: x, y: y)
            }
        }
        return output
    }

    /// The composite's read of a coarse blur result at device pixel (x, y) (`upsampledByComposite`): the
    /// upsample pass's interpolation, not rounded.
    @inline(__always)
    package static func upsampled(_ coarse: FilterImage, factor: Int, x: Int, y: Int) -> SIMD4<Float> {
        let inv = 1 / Float(factor)
        return bilinear(qx: (Float(x) + 0.5) * inv, qy: (Float(y) + 0.5) * inv) { coarse[$0, $1] }
    }

    /// Runs every stage of `filter` on `layer`; returns the last stage's output (what the composite reads: the
    /// coarse result when `upsampledByComposite`), and that stage's input image.
    package static func run(_ filter: LoweredFilter, layer: FilterImage) -> (output: FilterImage, lastInput: FilterImage) {
        var image = layer
        var lastInput = layer
        for (k, stage) in filter.stages.enumerated() {
            lastInput = image
            switch stage.kind {
            case .blur(let plan):
                let fused = filter.upsampledByComposite && k == filter.stages.count - 1
                image = blur(plan, input: image, prefilter: stage.prefilter, upsample: !fused)
            case .shadow(let plan): image = shadow(plan, stage: stage, input: image)
            case .projection(let m): image = projection(inverse: m, stage: stage, input: image)
            }
        }
        return (image, lastInput)
    }
}
