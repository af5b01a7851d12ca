// The 28 blend modes as formulas on one premultiplied pixel, for the CPU reference.
//
// Design note. The same formulas are written a second time in GLSL (`Sources/Shaders/programs/include/
// blend.glsl`), and `FormulaGPUAgreementTests` renders every mode on a grid of colour pairs through llvmpipe
// and compares the two. Both copies therefore follow one shape, operation for operation where that is cheap:
// unpremultiply (a zero alpha gives colour 0), apply the W3C Compositing and Blending Level 1 function B(Cb, Cs)
// to straight colour, and recombine with the W3C general formula in premultiplied form
//     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs),    αo = αs + αb·(1 − αs)
// (cs, cb premultiplied; Cs, Cb straight). The Porter-Duff modes and plusDarker / plusLighter are the
// CoreGraphics premultiplied formulas (`R = S·Da + D·(1 − Sa)` and so on), applied to all four channels.
//
// Nothing is clamped except where the formula itself clamps: colorDodge's and colorBurn's `min(1, …)`,
// ClipColor in the non-separable modes, `max(0, …)` in plusDarker, `min(1, …)` in plusLighter. Inputs outside
// [0, 1] or a colour channel above its alpha go through the formulas as they are, so the CPU and the GPU agree
// on them too; whoever stores the result clamps it (an RGBA8 target does so on its own).
//
// Float, not Double: the GPU computes in float, and these are per-pixel formulas whose only badly conditioned
// spots (the branch points of colorDodge/colorBurn at Cb = 0 / 1 and the grey axis of SetSat) are
// discontinuous in exact arithmetic too. Double would not make the reference more right there, only differ.

/// The blend modes of `GraphicsContext.BlendMode` on premultiplied colours.
package enum BlendFormulas {
    /// The result of compositing `s` over `d` with mode `mode` where the source covers the pixel fully.
    /// Both colours and the result are premultiplied RGBA.
    ///
    /// Multiply of opaque grey 0.5 over opaque grey 0.5: `blend(.multiply, source: [0.5, 0.5, 0.5, 1],
    /// destination: [0.5, 0.5, 0.5, 1])` → `[0.25, 0.25, 0.25, 1]`; `.copy` of `[0, 0, 0, 0]` over anything →
    /// `[0, 0, 0, 0]`.
    package static func blend(_ mode: GraphicsContext.BlendMode, source s: SIMD4<Float>,
                      destination d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        switch mode.rawValue {
        case 0: return s + d * (1 - sa)                                      // normal: source-over
        case 1 ... 11:
            let cs = unpremultiplied(s), cb = unpremultiplied(d)
            let b = SIMD3(separable(mode.rawValue, cb.x, cs.x), separable(mode.rawValue, cb.y, cs.y),
                          separable(mode.rawValue, cb.z, cs.z))
            return general(s, d, b)
        case 12 ... 15:
            let cs = unpremultiplied(s), cb = unpremultiplied(d)
            return general(s, d, nonSeparable(mode.rawValue, cb: cb, cs: cs))
        case 16: return .zero                                                // clear
        case 17: return s                                                    // copy
        case 18: return s * da                                               // sourceIn
        case 19: return s * (1 - da)                                         // sourceOut
        case 20: return s * da + d * (1 - sa)                                // sourceAtop
        case 21: return s * (1 - da) + d                                     // destinationOver
        case 22: return d * sa                                               // destinationIn
        case 23: return d * (1 - sa)                                         // destinationOut
        case 24: return s * (1 - da) + d * sa                                // destinationAtop
        case 25: return s * (1 - da) + d * (1 - sa)                          // xor
        case 26:                                                             // plusDarker
            let one = SIMD4<Float>(repeating: 1)
            return pointwiseMax(.zero, one - ((one - d) + (one - s)))
        case 27: return pointwiseMin(SIMD4(repeating: 1), s + d)             // plusLighter
        default:
            preconditionFailure("blend mode raw value \(mode.rawValue) is not one of CGBlendMode's 0…27")
        }
    }

    /// How a draw applies a blend mode where its shape covers the pixel by `c` ∈ [0, 1]:
    /// `d + c·(blend(s, d) − d)`. Coverage 0 leaves `d`; coverage 1 is `blend(s, d)`.
    ///
    /// `.copy` of transparent `[0, 0, 0, 0]` over opaque white at coverage 0.25 → `[0.75, 0.75, 0.75, 0.75]`.
    package static func withCoverage(_ mode: GraphicsContext.BlendMode, source s: SIMD4<Float>,
                             destination d: SIMD4<Float>, coverage c: Float) -> SIMD4<Float> {
        d + c * (blend(mode, source: s, destination: d) - d)
    }

    // MARK: The W3C pieces

    /// Straight colour of a premultiplied one; a zero (or negative) alpha gives 0.
    ///
    /// `[0.25, 0.5, 0, 0.5]` → `[0.5, 1, 0]`; `[0.3, 0.3, 0.3, 0]` → `[0, 0, 0]`.
    package static func unpremultiplied(_ c: SIMD4<Float>) -> SIMD3<Float> {
        c.w > 0 ? SIMD3(c.x / c.w, c.y / c.w, c.z / c.w) : .zero
    }

    /// The W3C general formula in premultiplied form, B already evaluated on straight colour.
    private static func general(_ s: SIMD4<Float>, _ d: SIMD4<Float>, _ b: SIMD3<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        let rgb = SIMD3(s.x, s.y, s.z) * (1 - da) + SIMD3(d.x, d.y, d.z) * (1 - sa) + (sa * da) * b
        return SIMD4(rgb, sa + da * (1 - sa))
    }

    /// B(Cb, Cs) of a separable mode (raw values 1…11) on one straight channel.
    ///
    /// `separable(1, 0.5, 0.5)` (multiply) → 0.25; `separable(2, 0.5, 0.5)` (screen) → 0.75.
    package static func separable(_ mode: Int32, _ cb: Float, _ cs: Float) -> Float {
        switch mode {
        case 1: return cb * cs                                               // multiply
        case 2: return cb + cs - cb * cs                                     // screen
        case 3: return hardLight(cs: cb, cb: cs)                             // overlay = HardLight(Cs ↔ Cb)
        case 4: return min(cb, cs)                                           // darken
        case 5: return max(cb, cs)                                           // lighten
        case 6:                                                              // colorDodge
            if cb == 0 { return 0 }
            if cs == 1 { return 1 }
            return min(1, cb / (1 - cs))
        case 7:                                                              // colorBurn
            if cb == 1 { return 1 }
            if cs == 0 { return 0 }
            return 1 - min(1, (1 - cb) / cs)
        case 8:                                                              // softLight
            if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
            let dcb = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
            return cb + (2 * cs - 1) * (dcb - cb)
        case 9: return hardLight(cs: cs, cb: cb)                             // hardLight
        case 10: return abs(cb - cs)                                         // difference
        case 11: return cb + cs - 2 * cb * cs                                // exclusion
        default: preconditionFailure("\(mode) is not a separable blend mode")
        }
    }

    /// W3C HardLight: Multiply(Cb, 2·Cs) for Cs ≤ ½, else Screen(Cb, 2·Cs − 1).
    private static func hardLight(cs: Float, cb: Float) -> Float {
        if cs <= 0.5 { return cb * (2 * cs) }
        let s2 = 2 * cs - 1
        return cb + s2 - cb * s2
    }

    /// B(Cb, Cs) of a non-separable mode (raw values 12…15: hue, saturation, color, luminosity).
    ///
    /// `nonSeparable(15, cb: [1, 0, 0], cs: [0, 0, 1])` (luminosity: red's hue at blue's luminosity 0.11) →
    /// `[0.3667, 0, 0]` (SetLum gives [0.81, −0.19, −0.19]; ClipColor scales it towards L = 0.11 by 0.11/0.30).
    package static func nonSeparable(_ mode: Int32, cb: SIMD3<Float>, cs: SIMD3<Float>) -> SIMD3<Float> {
        switch mode {
        case 12: return setLum(setSat(cs, sat(cb)), lum(cb))                 // hue
        case 13: return setLum(setSat(cb, sat(cs)), lum(cb))                 // saturation
        case 14: return setLum(cs, lum(cb))                                  // color
        case 15: return setLum(cb, lum(cs))                                  // luminosity
        default: preconditionFailure("\(mode) is not a non-separable blend mode")
        }
    }

    /// W3C Lum: 0.3·R + 0.59·G + 0.11·B.
    package static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    /// W3C Sat: max − min.
    package static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// W3C ClipColor: pulls a colour whose channels leave [0, 1] back towards its luminosity. The minimum and
    /// maximum are taken once, before either correction, as the specification writes it. A grey outside
    /// [0, 1] (l = n or l = x, where the specification divides by zero) is left as it is.
    package static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = c.min(), x = c.max()
        var r = c
        if n < 0 && l - n > 0 { r = l + (r - l) * l / (l - n) }
        if x > 1 && x - l > 0 { r = l + (r - l) * (1 - l) / (x - l) }
        return r
    }

    /// W3C SetLum: shifts `c` to luminosity `l`, then ClipColor.
    package static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + (l - lum(c)))
    }

    /// W3C SetSat: the largest channel becomes `s`, the smallest 0, the middle one keeps its proportion; a grey
    /// becomes black. Written per channel, (c − min)·s/(max − min), which is the specification's
    /// Cmax/Cmid/Cmin assignment with ties handled alike.
    ///
    /// `setSat([0.2, 0.6, 0.4], 0.5)` → `[0, 0.5, 0.25]`.
    package static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let n = c.min(), x = c.max()
        guard x > n else { return .zero }
        return (c - n) * s / (x - n)
    }
}
