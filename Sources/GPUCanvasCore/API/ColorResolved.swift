// `Color.Resolved` (iOS 17), `Color.resolve(in:)`, `Color(_ resolved:)` and `Color.mix(with:by:in:)` (iOS 18).
//
// A resolved colour is stored as Apple documents it: linear extended sRGB components and an opacity, as Floats.
// The conversions are `Color.linearSRGB` and `ColorTransfer` (Color.swift) and the Oklab matrices are
// `Oklab` (Lowering/GradientPaint.swift), the ones gradients use.
//
// Decisions (docs/api-status.md):
// - `resolve(in:)` gives the light-mode value whatever the environment's colour scheme, as drawing does;
// - `mix` mixes straight (unpremultiplied) colour and opacity, as gradients interpolate: `.perceptual` in Oklab,
//   `.device` in sRGB-encoded components (the default `.nonLinear` canvas's working space), so that a mix at t
//   is the colour a gradient between the same two colours in the same space shows at t;
// - a finite fraction is clamped to 0…1 and 0 and 1 give the two colours unchanged; a NaN or infinite fraction
//   gives a colour whose components are NaN, which a draw then skips with an `invalidNumber` diagnostic (as it
//   skips any colour with a non-finite component);
// - components outside 0…1 are kept (extended sRGB); an opacity outside 0…1 is kept and clamped when drawn.

import Foundation

extension Color {
    /// A concrete colour: linear extended sRGB components and an opacity, as Floats.
    ///
    /// `Color.Resolved(red: 1, green: 0.5, blue: 0)` has `linearGreen` 0.2140 and `green` 0.5.
    public struct Resolved: Hashable, Sendable, CustomStringConvertible {
        /// Red in linear extended sRGB.
        public var linearRed: Float
        /// Green in linear extended sRGB.
        public var linearGreen: Float
        /// Blue in linear extended sRGB.
        public var linearBlue: Float
        /// The opacity, 0 (transparent) to 1 (opaque).
        public var opacity: Float

        /// A resolved colour from components in `colorSpace` (extended: values outside 0…1 are kept).
        public init(colorSpace: Color.RGBColorSpace = .sRGB, red: Float, green: Float, blue: Float, opacity: Float = 1) {
            let l = Color(colorSpace, red: Double(red), green: Double(green), blue: Double(blue)).linearSRGB
            self.init(linearRed: Float(l.r), linearGreen: Float(l.g), linearBlue: Float(l.b), opacity: opacity)
        }

        package init(linearRed: Float, linearGreen: Float, linearBlue: Float, opacity: Float) {
            self.linearRed = linearRed; self.linearGreen = linearGreen; self.linearBlue = linearBlue
            self.opacity = opacity
        }

        /// Red in extended sRGB (the sRGB transfer curve).
        public var red: Float {
            get { Float(ColorTransfer.encode(Double(linearRed))) }
            set { linearRed = Float(ColorTransfer.decode(Double(newValue))) }
        }
        /// Green in extended sRGB.
        public var green: Float {
            get { Float(ColorTransfer.encode(Double(linearGreen))) }
            set { linearGreen = Float(ColorTransfer.decode(Double(newValue))) }
        }
        /// Blue in extended sRGB.
        public var blue: Float {
            get { Float(ColorTransfer.encode(Double(linearBlue))) }
            set { linearBlue = Float(ColorTransfer.decode(Double(newValue))) }
        }

        /// The colour as a CGColor in extended sRGB: `Color.Resolved(red: 1, green: 0, blue: 0).cgColor.components`
        /// is `[1, 0, 0, 1]`.
        public var cgColor: CGColor {
            var components: [CGFloat] = [red, green, blue, opacity].map { CGFloat($0) }
            return components.withUnsafeMutableBufferPointer {
                CGColor(colorSpace: CGColorSpace(name: CGColorSpace.extendedSRGB)!, components: $0.baseAddress!)!
            }
        }

        /// `#RRGGBBAA` in sRGB when every component is in 0…1, else the linear components.
        public var description: String {
            let encoded = [red, green, blue, opacity]
            if encoded.allSatisfy({ $0 >= 0 && $0 <= 1 }) {
                return "#" + encoded.map { String(format: "%02X", Int(($0 * 255).rounded())) }.joined()
            }
            return "Color.Resolved(linearRed: \(linearRed), linearGreen: \(linearGreen), linearBlue: \(linearBlue), opacity: \(opacity))"
        }
    }

    /// A constant colour with `resolved`'s values (stored as linear sRGB, so resolving it again gives `resolved`
    /// exactly).
    public init(_ resolved: Resolved) {
        self.init(.sRGBLinear, red: Double(resolved.linearRed), green: Double(resolved.linearGreen),
                  blue: Double(resolved.linearBlue), opacity: Double(resolved.opacity))
    }

    /// This colour's values in `environment`. Named colours give their light-mode values in any environment
    /// (drawing is light-mode only): `Color.red.resolve(in: EnvironmentValues()).red * 255` is 255, `green`
    /// 59/255.
    public func resolve(in environment: EnvironmentValues) -> Resolved {
        let l = linearSRGB
        return Resolved(linearRed: Float(l.r), linearGreen: Float(l.g), linearBlue: Float(l.b), opacity: Float(l.a))
    }

    /// This colour mixed with `rhs` by `fraction` (0 gives this colour, 1 gives `rhs`), in `colorSpace`.
    ///
    /// `Color(red: 1, green: 0, blue: 0).mix(with: Color(red: 0, green: 0, blue: 1), by: 0.5, in: .device)` is
    /// sRGB (0.5, 0, 0.5); in `.perceptual` it is the Oklab midpoint, sRGB (0.550, 0.326, 0.637).
    public func mix(with rhs: Color, by fraction: Double, in colorSpace: Gradient.ColorSpace = .perceptual) -> Color {
        guard fraction.isFinite else {
            return Color(Resolved(linearRed: .nan, linearGreen: .nan, linearBlue: .nan, opacity: .nan))
        }
        let t = min(max(fraction, 0), 1)
        if t == 0 { return self }
        if t == 1 { return rhs }
        let environment = EnvironmentValues()
        return Color(resolve(in: environment).mixed(with: rhs.resolve(in: environment), by: Float(t), in: colorSpace))
    }
}

extension Color.Resolved {
    /// Straight colour and opacity interpolated at `t` in `space` (see the decisions at the top of this file).
    package func mixed(with other: Color.Resolved, by t: Float, in space: Gradient.ColorSpace) -> Color.Resolved {
        func lerp<V: SIMD>(_ a: V, _ b: V) -> V where V.Scalar == Float { a + (b - a) * t }
        let a = SIMD3(linearRed, linearGreen, linearBlue), b = SIMD3(other.linearRed, other.linearGreen, other.linearBlue)
        let opacity = self.opacity + (other.opacity - self.opacity) * t
        let rgb: SIMD3<Float>
        if space.isPerceptual {
            rgb = Oklab.toLinearSRGB(lerp(Oklab.fromLinearSRGB(a), Oklab.fromLinearSRGB(b)))
        } else {
            func encode(_ v: SIMD3<Float>) -> SIMD3<Float> {
                SIMD3(Float(ColorTransfer.encode(Double(v.x))), Float(ColorTransfer.encode(Double(v.y))),
                      Float(ColorTransfer.encode(Double(v.z))))
            }
            let e = lerp(encode(a), encode(b))
            rgb = SIMD3(Float(ColorTransfer.decode(Double(e.x))), Float(ColorTransfer.decode(Double(e.y))),
                        Float(ColorTransfer.decode(Double(e.z))))
        }
        return Color.Resolved(linearRed: rgb.x, linearGreen: rgb.y, linearBlue: rgb.z, opacity: opacity)
    }
}

extension Color.Resolved: ShapeStyle {
    /// A resolved colour fills as the constant colour `Color(self)`.
    public var shading: GraphicsContext.Shading { .color(Color(self)) }
}

extension Color.Resolved: Animatable {
    /// SwiftUI's animation unit scale (as OpenSwiftUI's reverse engineering of SwiftUI reads it): components are
    /// animated × 128, so an animation's `magnitudeSquared` is in the same units as SwiftUI's.
    private static let unitScale: Double = 128

    /// The linear components and opacity, each × 128: an animation between two resolved colours runs in linear
    /// light. `Color.Resolved(red: 1, green: 0, blue: 0).animatableData.first` is 128.
    public var animatableData: AnimatablePair<Float, AnimatablePair<Float, AnimatablePair<Float, Float>>> {
        get {
            AnimatablePair(linearRed, AnimatablePair(linearGreen, AnimatablePair(linearBlue, opacity))).scaled(by: Self.unitScale)
        }
        set {
            let v = newValue.scaled(by: 1 / Self.unitScale)
            linearRed = v.first; linearGreen = v.second.first; linearBlue = v.second.second.first
            opacity = v.second.second.second
        }
    }
}

extension Color.Resolved: Codable {
    /// An unkeyed `[red, green, blue, opacity]` in sRGB, SwiftUI's form (as OpenSwiftUI reads it):
    /// `Color.Resolved(red: 1, green: 0, blue: 0, opacity: 0.5)` encodes as `[1,0,0,0.5]`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for v in [red, green, blue, opacity] { try container.encode(v) }
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let red = try container.decode(Float.self), green = try container.decode(Float.self)
        let blue = try container.decode(Float.self), opacity = try container.decode(Float.self)
        self.init(red: red, green: green, blue: blue, opacity: opacity)
    }
}
