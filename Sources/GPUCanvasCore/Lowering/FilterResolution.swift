// Filter resolution: a draw's recorded filters → the filters both backends run (`ResolvedFilter`), in the
// order they run (the most recently added first), validated once for both, with sizes in device pixels.

import Foundation

/// One filter in device space, ready for `FilterPlanning`.
package enum ResolvedFilter: Equatable {
    /// A colour filter (per pixel).
    case color(ColorFilterStep)
    /// A Gaussian blur of standard deviation `sigma` device pixels (0: none).
    case blur(BlurFilter)
    case shadow(ShadowFilter)
    /// `matrix` maps device points to device points (row vectors), finite and invertible.
    case projection(ProjectionTransform)
}

package struct BlurFilter: Equatable {
    package var sigma: Double
    /// `BlurOptions.opaque`: colour divided by the blurred alpha, alpha kept from the input.
    package var opaque = false
    package var dithers = false
    /// Where the sums run (`.linearColor` on an encoded canvas: in linear light).
    package var space: ColorFilterStep.Space = .working
}

package struct ShadowFilter: Equatable {
    /// Premultiplied, in the working space.
    package var color: SIMD4<Float>
    package var sigma: Double
    /// Device pixels.
    package var dx: Double, dy: Double
    package var blend: GraphicsContext.BlendMode
    package var options: GraphicsContext.ShadowOptions
}

package enum FilterResolution {
    /// Largest blur σ in device pixels: beyond it a blur is refused rather than run over a canvas-sized
    /// kernel (a radius of 1e6 under a 2× scale would otherwise plan passes for a kernel millions wide).
    package static let maxSigma = 4096.0

    /// The filters of `filters` for a canvas working in `colorMode`, whose user space maps to device pixels by
    /// `deviceTransform` (the canvas scale).
    ///
    /// `[.grayscale(1)]` on a `.nonLinear` canvas → one `.color` matrix step in the `working` space; with
    /// `.linearColor` → the same matrix in `linearOnEncoded`. `.blur(radius: 2)` added under a 3× scale →
    /// `.blur(σ: 6)`. A NaN amount → `invalidGeometry("draw #2: filter .saturation(nan) is not finite")`.
    package static func resolve(_ filters: [RecordedFilter], colorMode: ColorRenderingMode, deviceTransform: CGAffineTransform,
                        drawNumber: Int) throws -> [ResolvedFilter] {
        try filters.reversed().compactMap {
            try resolve($0, colorMode: colorMode, deviceTransform: deviceTransform, drawNumber: drawNumber)
        }
    }

    /// nil: the filter does nothing (a blur of radius 0).
    private static func resolve(_ f: RecordedFilter, colorMode: ColorRenderingMode, deviceTransform: CGAffineTransform,
                                drawNumber: Int) throws -> ResolvedFilter? {
        func bad() -> RenderError { .invalidGeometry("draw #\(drawNumber): filter \(f.filter) is not finite") }
        func finite(_ values: Double...) throws { guard values.allSatisfy(\.isFinite) else { throw bad() } }
        let linear = f.options.contains(.linearColor)
        let workingIsLinear = colorMode != .nonLinear
        let space: ColorFilterStep.Space = linear == workingIsLinear ? .working : (linear ? .linearOnEncoded : .encodedOnLinear)
        let t = f.transform.concatenating(deviceTransform)
        /// A user-space radius as a device σ: × √|det| of the transform at `addFilter` (a negative radius is 0).
        func sigma(_ radius: CGFloat) throws -> Double {
            try finite(Double(radius))
            let s = Double(max(radius, 0)) * abs(Double(t.a * t.d - t.b * t.c)).squareRoot()
            guard s.isFinite, s <= maxSigma else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): filter \(f.filter) has σ = \(fmt(CGFloat(s))) device pixels, more than \(Int(maxSigma))")
            }
            return s
        }
        switch f.filter.kind {
        case .blur(let radius, let options):
            let s = try sigma(radius)
            guard s > 0 else { return nil }
            return .blur(BlurFilter(sigma: s, opaque: options.contains(.opaque), dithers: options.contains(.dithersResult),
                                    space: space))
        case .shadow(let color, let radius, let x, let y, let mode, let options):
            try finite(color.red, color.green, color.blue, color.alpha, Double(x), Double(y))
            guard (0 ..< 28).contains(mode.rawValue) else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): shadow blend mode raw value \(mode.rawValue) is not one of the 28 modes")
            }
            let s = try sigma(radius)
            // The offset is a vector: the linear part of the transform only.
            let dx = Double(t.a * x + t.c * y), dy = Double(t.b * x + t.d * y)
            guard dx.isFinite, dy.isFinite, abs(dx) <= 1e6, abs(dy) <= 1e6 else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): filter \(f.filter) offset is more than 10^6 device pixels")
            }
            let p = color.premultiplied(in: colorMode)
            return .shadow(ShadowFilter(color: SIMD4(p.r, p.g, p.b, p.a), sigma: s, dx: dx, dy: dy, blend: mode,
                                        options: options))
        case .projectionTransform(let m):
            try finite(Double(m.m11), Double(m.m12), Double(m.m13), Double(m.m21), Double(m.m22), Double(m.m23),
                       Double(m.m31), Double(m.m32), Double(m.m33))
            // Device → user (t⁻¹), the projection in user space, user → device (t).
            let tp = ProjectionTransform(t)
            var inverse = tp
            guard inverse.invert() else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): filter \(f.filter) is added under a transform that is not invertible")
            }
            let device = inverse.concatenating(m).concatenating(tp)
            var check = device
            guard check.invert(), [device.m11, device.m12, device.m13, device.m21, device.m22, device.m23, device.m31,
                                   device.m32, device.m33].allSatisfy(\.isFinite) else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): filter \(f.filter) is not invertible")
            }
            return device.isIdentity ? nil : .projection(device)
        default:
            return .color(try colorStep(f, space: space, colorMode: colorMode, drawNumber: drawNumber))
        }
    }

    private static func colorStep(_ f: RecordedFilter, space: ColorFilterStep.Space, colorMode: ColorRenderingMode,
                                  drawNumber: Int) throws -> ColorFilterStep {
        func bad() -> RenderError { .invalidGeometry("draw #\(drawNumber): filter \(f.filter) is not finite") }
        func finite(_ values: Double...) throws { guard values.allSatisfy(\.isFinite) else { throw bad() } }
        func finiteColor(_ c: Color) throws { try finite(c.red, c.green, c.blue, c.alpha) }
        let linear = f.options.contains(.linearColor)
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
            preconditionFailure("spatial filters are resolved by `resolve`")
        }
    }
}
