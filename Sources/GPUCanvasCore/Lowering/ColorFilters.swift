// Colour filters: one step per filter, and the arithmetic both backends run (the GPU's packed row is GLES/ColorFilterPacking.swift).
//
// Design note. Every colour filter is one of three step kinds on a pixel's colour:
// - `matrix`: the SVG feColorMatrix on unpremultiplied colour, clamped to 0…1. colorMatrix, colorMultiply,
//   alphaMultiply, hueRotation, saturation, brightness, contrast, colorInvert, grayscale and luminanceToAlpha
//   are all this step with the matrices below (SVG's for hueRotate, saturate and luminanceToAlpha; CSS's for
//   grayscale, contrast and invert; brightness adds, as Core Image's does);
// - `premultipliedMatrix`: the same on premultiplied colour (`colorMatrix(_:isPremultiplied: true)`), clamped
//   to a valid premultiplied colour;
// - `threshold`: alphaThreshold, a fixed premultiplied colour where min ≤ alpha ≤ max, else transparent.
// The maths runs on sRGB-encoded values, or on linear-light ones with `FilterOptions.linearColor`, whatever the
// canvas's colour mode; a step converts on the way in and out when the canvas works in the other space. The
// input is clamped to 0…1 (extended-range values of `.extendedLinear` included).
//
// A chain of steps (consecutive colour filters of one draw, the most recently added first) is applied in one
// go, in Float, with no rounding between steps; the composite then treats the result as the layer's colour.
// The GLSL copy is `Sources/Shaders/programs/include/color_filter.glsl`, which reads `packedTexels(_:)`.

/// One colour filter, resolved for a canvas's working space.
package struct ColorFilterStep: Equatable {
    package enum Kind: Int { case matrix = 0, premultipliedMatrix = 1, threshold = 2 }
    /// Where the maths runs relative to the canvas's working space.
    package enum Space: Int {
        /// The same space: no conversion.
        case working = 0
        /// Linear light on an sRGB-encoded canvas: decode in, encode out.
        case linearOnEncoded = 1
        /// sRGB-encoded on a linear-light canvas: encode in, decode out.
        case encodedOnLinear = 2
    }

    package var kind: Kind
    package var space: Space
    /// Rows R, G, B, A of five entries (the fifth an offset); unused by `threshold`.
    package var matrix: [Float] = ColorMatrix().entries
    /// `threshold`: the alpha range kept, and the premultiplied working-space colour it becomes.
    package var thresholdMin: Float = 0, thresholdMax: Float = 0
    package var thresholdColor = SIMD4<Float>.zero

    // MARK: The filters' matrices (rows of five, on straight colour in the maths space)

    package static func hueRotation(radians a: Double) -> [Float] {
        let c = cos(a), s = sin(a)
        return [0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928, 0, 0,
                0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283, 0, 0,
                0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072, 0, 0,
                0, 0, 0, 1, 0].map { Float($0) }
    }

    package static func saturation(_ s: Double) -> [Float] {
        [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0, 0,
         0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0, 0,
         0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0, 0,
         0, 0, 0, 1, 0].map { Float($0) }
    }

    /// CSS grayscale: `amount` is clamped to 0…1.
    package static func grayscale(_ amount: Double) -> [Float] {
        let k = 1 - min(max(amount, 0), 1)
        return [0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k, 0, 0,
                0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k, 0, 0,
                0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k, 0, 0,
                0, 0, 0, 1, 0].map { Float($0) }
    }

    package static let luminanceToAlpha: [Float] = [0, 0, 0, 0, 0,
                                            0, 0, 0, 0, 0,
                                            0, 0, 0, 0, 0,
                                            0.2125, 0.7154, 0.0721, 0, 0]

    /// Diagonal `d` on R, G, B (alpha kept), plus offset `o` on each.
    package static func affine(_ d: Double, _ o: Double) -> [Float] {
        [d, 0, 0, 0, o,
         0, d, 0, 0, o,
         0, 0, d, 0, o,
         0, 0, 0, 1, 0].map { Float($0) }
    }

    /// CSS contrast: (C − ½)·amount + ½.
    package static func contrast(_ amount: Double) -> [Float] { affine(amount, 0.5 - 0.5 * amount) }

    /// CSS invert: C·(1 − 2a) + a, `amount` clamped to 0…1.
    package static func colorInvert(_ amount: Double) -> [Float] {
        let a = min(max(amount, 0), 1)
        return affine(1 - 2 * a, a)
    }

    package static func brightness(_ amount: Double) -> [Float] { affine(1, amount) }

    /// Each component × `c`'s (straight, in the maths space).
    package static func colorMultiply(_ c: SIMD4<Float>) -> [Float] {
        [c.x, 0, 0, 0, 0, 0, c.y, 0, 0, 0, 0, 0, c.z, 0, 0, 0, 0, 0, c.w, 0]
    }

    /// `c`'s red, green and blue; alpha × `c`'s alpha.
    package static func alphaMultiply(_ c: SIMD4<Float>) -> [Float] {
        [0, 0, 0, 0, c.x, 0, 0, 0, 0, c.y, 0, 0, 0, 0, c.z, 0, 0, 0, c.w, 0]
    }
}

package enum ColorFilterFormulas {
    /// `steps` applied in order to a premultiplied working-space colour.
    ///
    /// `.saturation(0)` (a matrix step) on opaque red (1, 0, 0, 1) → grey (0.213, 0.213, 0.213, 1).
    package static func apply(_ steps: [ColorFilterStep], to colour: SIMD4<Float>) -> SIMD4<Float> {
        var p = colour
        for s in steps { p = apply(s, to: p) }
        return p
    }

    package static func apply(_ s: ColorFilterStep, to p: SIMD4<Float>) -> SIMD4<Float> {
        let a = min(max(p.w, 0), 1)
        if s.kind == .threshold {
            return a >= s.thresholdMin && a <= s.thresholdMax ? s.thresholdColor : .zero
        }
        var c = a > 0 ? clamp01(SIMD3(p.x, p.y, p.z) / a) : .zero
        c = toMaths(c, s.space)
        let m = s.matrix
        func row(_ r: Int, _ v: SIMD4<Float>) -> Float {
            m[r * 5] * v.x + m[r * 5 + 1] * v.y + m[r * 5 + 2] * v.z + m[r * 5 + 3] * v.w + m[r * 5 + 4]
        }
        let outRGB: SIMD3<Float>, outA: Float
        if s.kind == .premultipliedMatrix {
            let v = SIMD4(c * a, a)
            let r = SIMD4(row(0, v), row(1, v), row(2, v), row(3, v))
            outA = min(max(r.w, 0), 1)
            let rgb = SIMD3(min(max(r.x, 0), outA), min(max(r.y, 0), outA), min(max(r.z, 0), outA))
            outRGB = outA > 0 ? rgb / outA : .zero
        } else {
            let v = SIMD4(c, a)
            let r = SIMD4(row(0, v), row(1, v), row(2, v), row(3, v))
            outA = min(max(r.w, 0), 1)
            outRGB = clamp01(SIMD3(r.x, r.y, r.z))
        }
        return SIMD4(fromMaths(outRGB, s.space) * outA, outA)
    }

    @inline(__always)
    package static func clamp01(_ v: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(min(max(v.x, 0), 1), min(max(v.y, 0), 1), min(max(v.z, 0), 1))
    }

    package static func toMaths(_ c: SIMD3<Float>, _ space: ColorFilterStep.Space) -> SIMD3<Float> {
        switch space {
        case .working: return c
        case .linearOnEncoded: return c.mapped(ColorTransfer.decode)
        case .encodedOnLinear: return c.mapped(ColorTransfer.encode)
        }
    }

    package static func fromMaths(_ c: SIMD3<Float>, _ space: ColorFilterStep.Space) -> SIMD3<Float> {
        switch space {
        case .working: return c
        case .linearOnEncoded: return c.mapped(ColorTransfer.encode)
        case .encodedOnLinear: return c.mapped(ColorTransfer.decode)
        }
    }

    /// True when the chain turns a transparent pixel into a visible one (an alpha offset, a threshold that
    /// keeps alpha 0): then it reaches the whole clip region, not only the drawn content.
    package static func reachesTransparentPixels(_ steps: [ColorFilterStep]) -> Bool {
        apply(steps, to: .zero) != .zero
    }
}

extension SIMD3 where Scalar == Float {
    fileprivate func mapped(_ f: (Double) -> Double) -> SIMD3<Float> {
        SIMD3(Float(f(Double(x))), Float(f(Double(y))), Float(f(Double(z))))
    }
}
