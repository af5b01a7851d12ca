// Filter resolution: a draw's recorded filters → the steps both backends run (`ColorFilterStep`), in the
// order they run (the most recently added first), validated once for both.

import Foundation

enum FilterResolution {
    /// The steps of `filters` for a canvas working in `colorMode`.
    ///
    /// `[.grayscale(1)]` on a `.nonLinear` canvas → one `matrix` step in the `working` space; with
    /// `.linearColor` → the same matrix in `linearOnEncoded`. A NaN amount → `invalidGeometry("draw #2: filter
    /// .saturation(nan) is not finite")`; a filter neither backend draws yet → `unsupported`.
    static func resolve(_ filters: [RecordedFilter], colorMode: ColorRenderingMode, drawNumber: Int) throws -> [ColorFilterStep] {
        try filters.reversed().map { try step($0, colorMode: colorMode, drawNumber: drawNumber) }
    }

    private static func step(_ f: RecordedFilter, colorMode: ColorRenderingMode, drawNumber: Int) throws -> ColorFilterStep {
        func bad() -> RenderError { .invalidGeometry("draw #\(drawNumber): filter \(f.filter) is not finite") }
        func finite(_ values: Double...) throws { guard values.allSatisfy(\.isFinite) else { throw bad() } }
        func finiteColor(_ c: Color) throws { try finite(c.red, c.green, c.blue, c.alpha) }
        let linear = f.options.contains(.linearColor)
        let workingIsLinear = colorMode != .nonLinear
        let space: ColorFilterStep.Space = linear == workingIsLinear ? .working : (linear ? .linearOnEncoded : .encodedOnLinear)
        /// A colour as the maths sees it: straight, in linear light with `.linearColor`, else sRGB-encoded.
        func mathsColor(_ c: Color) throws -> SIMD4<Float> {
            try finiteColor(c)
            return c.straight(in: .nonLinear, linearLight: linear)
        }
        func matrix(_ m: [Float]) -> ColorFilterStep { ColorFilterStep(kind: .matrix, space: space, matrix: m) }
        /// The matrix of a filter with one amount, which must be finite.
        func amount(_ v: Double, _ m: (Double) -> [Float]) throws -> ColorFilterStep {
            try finite(v)
            return matrix(m(v))
        }
        switch f.filter.kind {
        case .colorMatrix(let m, let premultiplied):
            guard m.entries.allSatisfy(\.isFinite) else { throw bad() }
            return ColorFilterStep(kind: premultiplied ? .premultipliedMatrix : .matrix, space: space, matrix: m.entries)
        case .colorMultiply(let c): return matrix(ColorFilterStep.colorMultiply(try mathsColor(c)))
        case .alphaMultiply(let c): return matrix(ColorFilterStep.alphaMultiply(try mathsColor(c)))
        case .hueRotation(let a): return try amount(a.radians, ColorFilterStep.hueRotation(radians:))
        case .saturation(let v): return try amount(v, ColorFilterStep.saturation)
        case .brightness(let v): return try amount(v, ColorFilterStep.brightness)
        case .contrast(let v): return try amount(v, ColorFilterStep.contrast)
        case .colorInvert(let v): return try amount(v, ColorFilterStep.colorInvert)
        case .grayscale(let v): return try amount(v, ColorFilterStep.grayscale)
        case .luminanceToAlpha:
            return matrix(ColorFilterStep.luminanceToAlpha)
        case .alphaThreshold(let lo, let hi, let c):
            try finite(lo, hi)
            try finiteColor(c)
            let p = c.premultiplied(in: colorMode)
            return ColorFilterStep(kind: .threshold, space: space, thresholdMin: Float(lo), thresholdMax: Float(hi),
                                   thresholdColor: SIMD4(p.r, p.g, p.b, p.a))
        case .blur, .shadow, .projectionTransform:
            throw RenderError.unsupported("filter \(f.filter) (draw #\(drawNumber))")
        }
    }
}
