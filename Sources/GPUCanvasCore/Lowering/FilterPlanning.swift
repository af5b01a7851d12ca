// Filter planning: a filtered layer's resolved filters → the passes both backends run, with every image's box.
//
// Design note. A filtered layer (a filtered draw, or a `drawLayer` under filters) is rendered into a precise
// layer, then its filters run in order (the most recently added first). Colour filters are per pixel: a run
// of them is fused into whatever reads the image next (the next spatial stage's reads, or the composite).
// The spatial filters are stages that each make a new image, a box of half floats (RGBA16F on the GPU, Float
// rounded to half in the reference):
// - blur (`BlurPlan`): σ in device pixels. Below 2·`minCoarseSigma` it runs at full resolution; from there
//   the input is first averaged over aligned F × F blocks (F = 2, 4, 8…: the largest that keeps σ/F at least
//   `minCoarseSigma`), blurred there, and brought back by bilinear interpolation. The kernel is the Gaussian
//   integrated over each pixel (the exact blur of the pixels seen as little squares), cut at 3σ and
//   normalised; on the coarse grid its σ is chosen so that the whole chain (block average, coarse kernel,
//   interpolation) has the variance of the full-resolution kernel. Passes: [downsample] → horizontal →
//   vertical → [upsample]. How far either route lies from the exact Gaussian is measured in BlurTests
//   (`gaussianEdgeTolerance`);
// - shadow (`ShadowPlan`): the input's alpha (or 1 − it) blurred as above, then a combine pass: the shadow,
//   colour × the blurred alpha sampled bilinearly at p − offset, with its blend mode behind the input, above
//   it, or alone;
// - projection: each output pixel centre mapped back through the inverse matrix and sampled bilinearly.
// Every image is transparent outside its box, and boxes stay inside the canvas: content outside the canvas is
// transparent for filters, as the checklist decides. The passes cover only their boxes: the input's box grown
// by what the filter can reach, ∩ the canvas (∩ the clip's box for the last stage), never the whole canvas.
// The last stage's image (through the colour steps after it) is what the layer composite reads.

import Foundation

/// The spatial stages of a filtered layer and what its composite reads.
package struct LoweredFilter {
    package var stages: [FilterStage] = []
    /// Colour steps after the last spatial stage, applied by the composite.
    package var finalColor: [ColorFilterStep] = []
    /// `ShadowOptions.disablesGroup` on the last stage to run: its image is the shadow alone, composited with
    /// this blend mode (× the context's opacity, through its clip) before the stage's input, which is then
    /// composited through the stage's prefilter with the context's blend mode.
    package var separateShadowBlend: GraphicsContext.BlendMode?
    /// The last stage is a downsampled blur with nothing to do after its interpolation (no option, no colour
    /// step after it): the composite interpolates the coarse result itself, and the upsample pass and its
    /// full-resolution image are skipped (on llvmpipe about a third of a σ = 8 blur's time).
    package var upsampledByComposite = false

    package var isEmpty: Bool { stages.isEmpty && finalColor.isEmpty }
}

/// One spatial filter: reads `input` (through `prefilter`, per texel), writes `output`.
package struct FilterStage {
    /// Colour steps run on each input texel as it is read (the colour filters between this stage and the last).
    package var prefilter: [ColorFilterStep]
    /// The box of the input image (the layer's, or the previous stage's output).
    package var input: PixelRect
    package var output: PixelRect
    package var kind: Kind

    package enum Kind {
        case blur(BlurPlan)
        case shadow(ShadowPlan)
        /// Output device point → input device point (row vectors); w ≤ 0 reads transparent.
        case projection(inverse: ProjectionTransform)
    }
}

/// What a blur's first pass reads from each input texel (after the prefilter).
package enum BlurRead: Int {
    /// The colour (converted to the blur's space).
    case color = 0
    /// The alpha in all four channels (a shadow).
    case alpha = 1
    /// 1 − the alpha in all four (an `invertsAlpha` shadow); 1 outside the input's box.
    case inverseAlpha = 2
}

package struct BlurPlan {
    /// The block size of the downsample (1: none).
    package var factor: Int
    /// Kernel weights for offsets 0…radius (symmetric), at the coarse grid's scale.
    package var weights: [Float]
    package var read: BlurRead
    package var space: ColorFilterStep.Space = .working
    package var opaque = false
    package var dithers = false
    /// Coarse cells the downsample fills (factor 1: the input region itself).
    package var coarseInput: PixelRect
    /// The horizontal pass's output (coarse cells).
    package var horizontal: PixelRect
    /// The vertical pass's output (coarse cells; factor 1: the blur's output).
    package var coarseOutput: PixelRect
    /// The blur's output image (device pixels).
    package var output: PixelRect

    package var radius: Int { weights.count - 1 }

    package init(
        factor: Int,
        weights: [Float],
        read: BlurRead,
        space: ColorFilterStep.Space = .working,
        opaque: Bool = false,
        dithers: Bool = false,
        coarseInput: PixelRect,
        horizontal: PixelRect,
        coarseOutput: PixelRect,
        output: PixelRect) {
        self.factor = factor
        self.weights = weights
        self.read = read
        self.space = space
        self.opaque = opaque
        self.dithers = dithers
        self.coarseInput = coarseInput
        self.horizontal = horizontal
        self.coarseOutput = coarseOutput
        self.output = output
    }
}

package struct ShadowPlan {
    package enum Mode: Int {
        /// Behind the input (the default).
        case behind = 0
        /// `shadowAbove`: blended over the input.
        case above = 1
        /// `shadowOnly`, and a separately composited (`disablesGroup`) shadow.
        case only = 2
    }
    /// The blur of the input's alpha; nil when σ is 0 (the combine reads the input's alpha itself).
    package var blur: BlurPlan?
    /// What the shadow is cast by: the input's alpha, or 1 − it (`invertsAlpha`).
    package var read: BlurRead
    /// Premultiplied, in the working space.
    package var color: SIMD4<Float>
    package var dx: Double, dy: Double
    package var blend: GraphicsContext.BlendMode
    package var mode: Mode
}

package enum FilterPlanning {
    /// A blur runs on the coarsest grid (factor F, a power of two) on which σ is still at least this many
    /// cells: from σ = 2·this on, downsampled. The coarse kernel then has σ_c between about 1.9 and 4 cells and
    /// at most 2·ceil(3·4) + 1 = 25 taps per pass, whatever σ. Letting σ_c fall to about 1.1 (F chosen to
    /// bring σ/F under 2) made the block average and the interpolation shape the edge 3–5 % away from the
    /// Gaussian (σ = 25: 8 levels, σ = 20: 12.7; BlurTests); from 2 on every σ tested stays within
    /// `BlurTests.gaussianEdgeTolerance`.
    package static let minCoarseSigma = 2.0

    /// The fine-pixel distance a blur of `sigma` can move content (its output box grows by this on each side).
    package static func reach(sigma: Double) -> Int {
        let (f, weights) = kernel(sigma: sigma)
        return f * (weights.count + 1)
    }

    /// The downsample factor and the coarse kernel weights (offsets 0…r) of a blur of σ device pixels.
    ///
    /// σ = 1 → (1, 4 weights: 0.383, 0.242, 0.061, 0.006 before normalising); σ = 8 → factor 4, σ_c ≈ 1.92.
    package static func kernel(sigma: Double) -> (factor: Int, weights: [Float]) {
        var f = 1
        while sigma / Double(2 * f) >= minCoarseSigma { f *= 2 }
        var coarseSigma = sigma
        if f > 1 {
            let F = Double(f)
            // Variance of the F-block average (discrete box of F samples), and the mean variance of the
            // bilinear interpolation back (over the F fine positions within a coarse cell).
            let down = (F * F - 1) / 12
            var up = 0.0
            for j in 0 ..< f {
                let u = (Double(j) + 0.5) / F - 0.5
                let t = u - u.rounded(.down)
                up += t * (1 - t)
            }
            up = up / F * F * F
            // The full-resolution kernel's variance is σ² + 1/12 (integrated over a pixel); the coarse kernel
            // adds F²(σ_c² + 1/12).
            let v = sigma * sigma + 1.0 / 12 - down - up - F * F / 12
            coarseSigma = max(v, 0.01 * F * F) .squareRoot() / F
        }
        let r = max(1, Int((3 * coarseSigma).rounded(.up)))
        // ∫ over [i − ½, i + ½] of the unit Gaussian of σ_c.
        func cdf(_ x: Double) -> Double { 0.5 * (1 + erf(x / (coarseSigma * 2.0.squareRoot()))) }
        var w = (0 ... r).map { i in cdf(Double(i) + 0.5) - cdf(Double(i) - 0.5) }
        let total = w[0] + 2 * w[1...].reduce(0, +)
        w = w.map { $0 / total }
        return (f, w.map { Float($0) })
    }

    /// The passes of `filters` on a layer whose content lies in `layerBox`, composited inside `limit` (the
    /// clip's box ∩ the canvas), on a canvas of `canvas`. nil: nothing reaches the limit.
    package static func plan(_ filters: [ResolvedFilter], layerBox: PixelRect, limit: PixelRect, canvas: PixelRect) -> LoweredFilter? {
        var result = LoweredFilter()
        var pending: [ColorFilterStep] = []
        var input = layerBox
        let spatialCount = filters.filter { if case .color = $0 { return false }; return true }.count
        var seen = 0
        for f in filters {
            if case .color(let step) = f {
                pending.append(step)
                continue
            }
            seen += 1
            let last = seen == spatialCount
            let bound = last ? limit : canvas
            /// Reads that see something where the input is transparent reach the whole bound.
            let prefilterReaches = !pending.isEmpty && ColorFilterFormulas.reachesTransparentPixels(pending)
            let stage: FilterStage
            switch f {
            case .blur(let b):
                let region = prefilterReaches ? grown(bound, by: reach(sigma: b.sigma)) : input
                guard var plan = blurPlan(sigma: b.sigma, read: .color, region: region,
                                          needed: b.opaque ? input.intersection(bound) : bound) else { return nil }
                plan.space = b.space
                plan.opaque = b.opaque
                plan.dithers = b.dithers
                stage = FilterStage(prefilter: pending, input: input, output: plan.output, kind: .blur(plan))
            case .shadow(let s):
                let inverse = s.options.contains(.invertsAlpha)
                // `disablesGroup` on the last stage: the stage makes the shadow alone, and the composite adds the
                // shadow (with its blend mode) and the input separately.
                let separate = last && s.options.contains(.disablesGroup) && !s.options.contains(.shadowOnly)
                let mode: ShadowPlan.Mode = s.options.contains(.shadowOnly) || separate ? .only
                    : s.options.contains(.shadowAbove) ? .above : .behind
                let sigma = s.sigma
                let spread = sigma > 0 ? reach(sigma: sigma) : 0
                var (dx, dy) = (s.dx, s.dy)
                if inverse || prefilterReaches {
                    dx = nearestPlaneOffset(dx, input: (input.x, input.x + input.width),
                                            bound: (bound.x, bound.x + bound.width), margin: spread + 2)
                    dy = nearestPlaneOffset(dy, input: (input.y, input.y + input.height),
                                            bound: (bound.y, bound.y + bound.height), margin: spread + 2)
                }
                // The blurred alpha is needed where the shifted shadow lands in the bound (plus the bilinear
                // neighbour).
                let shift = (Int(dx.rounded(.down)), Int(dy.rounded(.down)))
                let neededShadow = PixelRect(x: bound.x - shift.0 - 1, y: bound.y - shift.1 - 1,
                                             width: bound.width + 2, height: bound.height + 2)
                let region = inverse || prefilterReaches ? grown(neededShadow, by: spread) : input
                var blur: BlurPlan?
                var shadowBox: PixelRect?
                if sigma > 0 {
                    blur = blurPlan(sigma: sigma, read: inverse ? .inverseAlpha : .alpha, region: region,
                                    needed: neededShadow)
                    shadowBox = blur?.output
                } else {
                    shadowBox = region.intersection(neededShadow)
                }
                // Where the shadow lands: its box moved by the offset (one more pixel for a fractional part).
                let landed = shadowBox.map {
                    PixelRect(x: $0.x + shift.0, y: $0.y + shift.1, width: $0.width + 1, height: $0.height + 1)
                }
                var out: PixelRect? = landed
                if mode != .only { out = out.map { $0.union(input) } ?? input }
                guard let output = out?.intersection(bound) else { return nil }
                stage = FilterStage(prefilter: pending, input: input, output: output,
                                    kind: .shadow(ShadowPlan(blur: blur, read: inverse ? .inverseAlpha : .alpha, color: s.color, dx: dx, dy: dy,
                                                             blend: separate ? .normal : s.blend, mode: mode)))
                if separate { result.separateShadowBlend = s.blend }
            case .projection(let m):
                let inverse = m.inverted()
                var output = bound
                if !prefilterReaches, let mapped = projectedBox(input, m) {
                    output = mapped.intersection(bound) ?? PixelRect(x: bound.x, y: bound.y, width: 0, height: 0)
                }
                guard output.width > 0 else { return nil }
                stage = FilterStage(prefilter: pending, input: input, output: output, kind: .projection(inverse: inverse))
            case .color:
                continue
            }
            result.stages.append(stage)
            input = stage.output
            pending = []
        }
        result.finalColor = pending
        if pending.isEmpty, result.separateShadowBlend == nil, case .blur(let b)? = result.stages.last?.kind,
           b.factor > 1, b.read == .color, b.space == .working, !b.opaque, !b.dithers {
            result.upsampledByComposite = true
        }
        return result
    }

    /// How far (fine pixels) the whole chain can move content from where it is drawn; nil: anywhere (a
    /// projection).
    package static func totalReach(_ filters: [ResolvedFilter]) -> Int? {
        var total = 0
        for f in filters {
            switch f {
            case .color: break
            case .blur(let b): total += reach(sigma: b.sigma)
            case .shadow(let s):
                total += (s.sigma > 0 ? reach(sigma: s.sigma) : 0) + Int(max(abs(s.dx), abs(s.dy)).rounded(.up)) + 2
            case .projection: return nil
            }
        }
        return total
    }

    /// A shadow offset along one axis that reads what `d` reads, as near the input as it can be.
    ///
    /// Where the blur's input is one constant plane outside the input's box (an `invertsAlpha` shadow reads
    /// 1 − 0 there; a prefilter that lights transparent pixels reads its one colour), an offset that puts
    /// every pixel the shadow reads for `bound` more than `margin` (the blur's reach and the bilinear
    /// neighbour) beyond the input reads that constant, however far it goes. Such an offset is brought in to
    /// the nearest one that still does, keeping its fraction, so that the blur's boxes stay within a canvas or
    /// two of the canvas: the documented offsets reach 10⁶ px, and GLES places filter rectangles with 16-bit
    /// coordinates (an `invertsAlpha` shadow 5·10⁴ px up trapped converting them). Exact on both backends:
    /// every read is of the same constant plane before and after.
    ///
    /// `input` [8, 18), `bound` [0, 100), margin 3: d = −5000.25 → −21.25 (whole part −22: the reads start at 21 = 18 + 3).
    package static func nearestPlaneOffset(_ d: Double, input: (Int, Int), bound: (Int, Int), margin: Int) -> Double {
        guard d.isFinite else { return d }
        let whole = d.rounded(.down), fraction = d - whole
        // The reads span [bound.0 − s − 1, bound.1 − s + 1) for the whole part s.
        let beyondEnd = Double(bound.0 - 1 - input.1 - margin)  // s ≤ this: every read is past the input's end
        let beforeStart = Double(bound.1 + 1 - input.0 + margin)  // s ≥ this: every read is before its start
        if whole < beyondEnd { return beyondEnd + fraction }
        if whole > beforeStart { return beforeStart + fraction }
        return d
    }

    package static func grown(_ r: PixelRect, by d: Int) -> PixelRect {
        PixelRect(x: r.x - d, y: r.y - d, width: r.width + 2 * d, height: r.height + 2 * d)
    }

    /// The boxes of a blur whose input may be non-zero in `region`, needed inside `needed`. nil: empty.
    package static func blurPlan(sigma: Double, read: BlurRead, region: PixelRect, needed: PixelRect?) -> BlurPlan? {
        guard let needed else { return nil }
        let (f, weights) = kernel(sigma: sigma)
        let r = weights.count - 1
        func floorDiv(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
        // Coarse cells covering the region.
        let cx0 = floorDiv(region.x, f), cy0 = floorDiv(region.y, f)
        let cx1 = floorDiv(region.x + region.width + f - 1, f), cy1 = floorDiv(region.y + region.height + f - 1, f)
        let coarseInput = PixelRect(x: cx0, y: cy0, width: cx1 - cx0, height: cy1 - cy0)
        // The fine output: where the interpolated coarse result can be non-zero, ∩ needed.
        let reachBox = PixelRect(x: (cx0 - r - 1) * f, y: (cy0 - r - 1) * f,
                                 width: (cx1 - cx0 + 2 * r + 2) * f, height: (cy1 - cy0 + 2 * r + 2) * f)
        guard let output = (f == 1 ? grown(region, by: r) : reachBox).intersection(needed) else { return nil }
        // Coarse cells the output's interpolation reads: cells floor(u) and floor(u) + 1 for
        // u = (p + ½)/F − ½, ∩ the cells the blur reaches.
        let ox0 = f == 1 ? output.x : floorDiv(2 * output.x + 1 - f, 2 * f)
        let oy0 = f == 1 ? output.y : floorDiv(2 * output.y + 1 - f, 2 * f)
        let ox1 = f == 1 ? output.x + output.width : floorDiv(2 * (output.x + output.width - 1) + 1 - f, 2 * f) + 2
        let oy1 = f == 1 ? output.y + output.height : floorDiv(2 * (output.y + output.height - 1) + 1 - f, 2 * f) + 2
        // All of them, zeros included (cells beyond the kernel's reach sum to 0): the composite that
        // interpolates a coarse result samples with the GPU's bilinear filter, which reads both neighbours.
        var coarseOutput = PixelRect(x: ox0, y: oy0, width: ox1 - ox0, height: oy1 - oy0)
        if f == 1 { coarseOutput = output }
        let horizontal = PixelRect(x: coarseOutput.x, y: coarseInput.y, width: coarseOutput.width, height: coarseInput.height)
        return BlurPlan(factor: f, weights: weights, read: read, coarseInput: coarseInput, horizontal: horizontal,
                        coarseOutput: coarseOutput, output: output)
    }

    /// The box of `r`'s pixels mapped through `m` (one pixel more on each side for the bilinear reads); nil
    /// when a corner maps to w ≤ 0 (the image reaches infinity) or beyond ±2^30.
    package static func projectedBox(_ r: PixelRect, _ m: ProjectionTransform) -> PixelRect? {
        var xs: [Double] = [], ys: [Double] = []
        for (x, y) in [(r.x, r.y), (r.x + r.width, r.y), (r.x, r.y + r.height), (r.x + r.width, r.y + r.height)] {
            let X = Double(x), Y = Double(y)
            let w = Double(m.m13) * X + Double(m.m23) * Y + Double(m.m33)
            guard w > 1e-9 else { return nil }
            xs.append((Double(m.m11) * X + Double(m.m21) * Y + Double(m.m31)) / w)
            ys.append((Double(m.m12) * X + Double(m.m22) * Y + Double(m.m32)) / w)
        }
        let bound = Double(1 << 30)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
              abs(x0) < bound, abs(x1) < bound, abs(y0) < bound, abs(y1) < bound else { return nil }
        let ix0 = Int(x0.rounded(.down)) - 1, iy0 = Int(y0.rounded(.down)) - 1
        return PixelRect(x: ix0, y: iy0, width: Int(x1.rounded(.up)) + 1 - ix0, height: Int(y1.rounded(.up)) + 1 - iy0)
    }
}

extension FilterPlanning {
    /// True when the layer must hold half floats (`LoweredOp.pushLayer`'s `precise`): colour filters and the
    /// blur options that divide by alpha or change space work on unpremultiplied colour, which 8 bits of
    /// premultiplied colour at a faint edge hold to a fraction of its range. Plain blurs, shadows and
    /// projections average premultiplied colour and are as exact from 8-bit layers (on llvmpipe an 8-bit layer
    /// draws about twice as fast as a half-float one).
    package static func needsPreciseLayer(_ filters: [ResolvedFilter]) -> Bool {
        filters.contains {
            switch $0 {
            case .color: return true
            case .blur(let b): return b.opaque || b.space != .working
            case .shadow, .projection: return false
            }
        }
    }

    /// True when the chain can turn a transparent pixel into a visible one: a colour step that does (an alpha
    /// offset), or a shadow of 1 − alpha. Blurs and projections of a transparent plane stay transparent.
    package static func makesTransparentVisible(_ filters: [ResolvedFilter]) -> Bool {
        var p = SIMD4<Float>.zero
        for f in filters {
            switch f {
            case .color(let s): p = ColorFilterFormulas.apply(s, to: p)
            case .shadow(let s) where s.options.contains(.invertsAlpha): return true
            default: break
            }
        }
        return p != .zero
    }
}

extension ProjectionTransform {
    /// The matrix as Floats, row by row (m11, m12, m13, m21 …), as the GPU receives it; the reference's
    /// projection filter reads the same Floats.
    package var floatCoefficients: [Float] {
        [m11, m12, m13, m21, m22, m23, m31, m32, m33].map { Float($0) }
    }
}
