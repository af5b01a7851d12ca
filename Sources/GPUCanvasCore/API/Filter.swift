// GraphicsContext filters: SwiftUI's `Filter` factories, their option sets, `ColorMatrix` and
// `ProjectionTransform`, and `addFilter(_:options:)`.
//
// A filter acts on each later draw alone: the draw is rendered into an implicit layer of its own (without
// blend mode, opacity or clip), the filters run on that layer, most recently added first, and the result is
// composited with the context's blend mode, opacity and clip. `drawLayer` makes a group one draw. The colour
// filters' formulas are in `Lowering/ColorFilters.swift`.

import Foundation

extension GraphicsContext {
    /// A filter added with `addFilter(_:options:)`.
    ///
    /// ```swift
    /// var c = context
    /// c.addFilter(.saturation(0))      // later draws through `c` are grey
    /// c.addFilter(.colorInvert())      // runs first: invert, then take the saturation out
    /// ```
    public struct Filter: Sendable, Equatable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            case colorMatrix(ColorMatrix, premultiplied: Bool)
            case colorMultiply(Color)
            case alphaMultiply(Color)
            case hueRotation(Angle)
            case saturation(Double)
            case brightness(Double)
            case contrast(Double)
            case colorInvert(Double)
            case grayscale(Double)
            case luminanceToAlpha
            case alphaThreshold(min: Double, max: Double, color: Color)
            case blur(radius: CGFloat, options: BlurOptions)
            case shadow(color: Color, radius: CGFloat, x: CGFloat, y: CGFloat, blendMode: BlendMode, options: ShadowOptions)
            case projectionTransform(ProjectionTransform)
        }

        package let kind: Kind

        /// A 4 × 5 matrix applied to each pixel's unpremultiplied colour (SVG `feColorMatrix`): R′ = r1·R + r2·G +
        /// r3·B + r4·A + r5, and likewise G′, B′, A′; the result is clamped to 0…1.
        public static func colorMatrix(_ matrix: ColorMatrix) -> Filter { Filter(kind: .colorMatrix(matrix, premultiplied: false)) }

        /// `colorMatrix(_:)` on premultiplied colour when `isPremultiplied` (the result is clamped to a valid
        /// premultiplied colour: alpha to 0…1, each component to 0…alpha).
        public static func colorMatrix(_ matrix: ColorMatrix, isPremultiplied: Bool) -> Filter {
            Filter(kind: .colorMatrix(matrix, premultiplied: isPremultiplied))
        }

        /// Multiplies each component, alpha included, by `color`'s.
        public static func colorMultiply(_ color: Color) -> Filter { Filter(kind: .colorMultiply(color)) }

        /// `color`'s red, green and blue, with alpha = `color`'s alpha × the pixel's.
        public static func alphaMultiply(_ color: Color) -> Filter { Filter(kind: .alphaMultiply(color)) }

        /// Rotates hues by `angle` (SVG `hueRotate`).
        public static func hueRotation(_ angle: Angle) -> Filter { Filter(kind: .hueRotation(angle)) }

        /// 0 grey, 1 unchanged, more than 1 more saturated (SVG `saturate`).
        public static func saturation(_ amount: Double) -> Filter { Filter(kind: .saturation(amount)) }

        /// Adds `amount` to red, green and blue (Core Image's brightness, not CSS's multiplication).
        public static func brightness(_ amount: Double) -> Filter { Filter(kind: .brightness(amount)) }

        /// 0 all mid grey, 1 unchanged (CSS `contrast`: (C − ½)·amount + ½).
        public static func contrast(_ amount: Double) -> Filter { Filter(kind: .contrast(amount)) }

        /// Mixes each component towards 1 − it: 1 inverts fully (CSS `invert`).
        public static func colorInvert(_ amount: Double = 1) -> Filter { Filter(kind: .colorInvert(amount)) }

        /// 1 fully grey, 0 unchanged (CSS `grayscale`).
        public static func grayscale(_ amount: Double) -> Filter { Filter(kind: .grayscale(amount)) }

        /// Alpha becomes the colour's luminance and the colour black (SVG `luminanceToAlpha`).
        public static var luminanceToAlpha: Filter { Filter(kind: .luminanceToAlpha) }

        /// Pixels with `min ≤ alpha ≤ max` become `color`, all others transparent.
        public static func alphaThreshold(min: Double, max: Double = 1, color: Color = Color.black) -> Filter {
            Filter(kind: .alphaThreshold(min: min, max: max, color: color))
        }

        /// A Gaussian blur whose standard deviation is `radius` (in the user space of the `addFilter` call).
        public static func blur(radius: CGFloat, options: BlurOptions = BlurOptions()) -> Filter {
            Filter(kind: .blur(radius: radius, options: options))
        }

        /// The draw's alpha blurred by `radius`, tinted with `color` and offset by (`x`, `y`), composited below
        /// the draw (see `ShadowOptions`).
        public static func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat,
                                  x: CGFloat = 0, y: CGFloat = 0, blendMode: BlendMode = .normal,
                                  options: ShadowOptions = ShadowOptions()) -> Filter {
            Filter(kind: .shadow(color: color, radius: radius, x: x, y: y, blendMode: blendMode, options: options))
        }

        /// A perspective transform of the rendered result.
        public static func projectionTransform(_ matrix: ProjectionTransform) -> Filter {
            Filter(kind: .projectionTransform(matrix))
        }

        public var description: String {
            switch kind {
            case .colorMatrix(_, let p): return p ? ".colorMatrix(_, isPremultiplied: true)" : ".colorMatrix(_)"
            case .colorMultiply(let c): return ".colorMultiply(\(c))"
            case .alphaMultiply(let c): return ".alphaMultiply(\(c))"
            case .hueRotation(let a): return ".hueRotation(\(fmt(CGFloat(a.degrees)))°)"
            case .saturation(let v): return ".saturation(\(fmt(CGFloat(v))))"
            case .brightness(let v): return ".brightness(\(fmt(CGFloat(v))))"
            case .contrast(let v): return ".contrast(\(fmt(CGFloat(v))))"
            case .colorInvert(let v): return ".colorInvert(\(fmt(CGFloat(v))))"
            case .grayscale(let v): return ".grayscale(\(fmt(CGFloat(v))))"
            case .luminanceToAlpha: return ".luminanceToAlpha"
            case .alphaThreshold(let lo, let hi, let c): return ".alphaThreshold(min: \(fmt(CGFloat(lo))), max: \(fmt(CGFloat(hi))), color: \(c))"
            case .blur(let r, _): return ".blur(radius: \(fmt(r)))"
            case .shadow(_, let r, let x, let y, _, _): return ".shadow(radius: \(fmt(r)), x: \(fmt(x)), y: \(fmt(y)))"
            case .projectionTransform: return ".projectionTransform(_)"
            }
        }
    }

    /// Options of `addFilter`: `.linearColor` runs the filter's maths on linear-light values (by default it
    /// runs on sRGB-encoded ones, whatever the canvas's colour mode).
    public struct FilterOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static var linearColor: FilterOptions { FilterOptions(rawValue: 1) }
    }

    /// Options of `Filter.blur`.
    public struct BlurOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The result is made fully opaque (colour divided by alpha).
        public static var opaque: BlurOptions { BlurOptions(rawValue: 1) }
        /// The result is dithered.
        public static var dithersResult: BlurOptions { BlurOptions(rawValue: 2) }
    }

    /// Options of `Filter.shadow`.
    public struct ShadowOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// The shadow is drawn above the draw instead of below it.
        public static var shadowAbove: ShadowOptions { ShadowOptions(rawValue: 1) }
        /// Only the shadow is drawn.
        public static var shadowOnly: ShadowOptions { ShadowOptions(rawValue: 2) }
        /// The shadow is cast by 1 − alpha (with `.shadowAbove` and `.sourceAtop`: an inner shadow).
        public static var invertsAlpha: ShadowOptions { ShadowOptions(rawValue: 4) }
        /// The draw and its shadow are composited separately, each with the context's opacity and clip.
        public static var disablesGroup: ShadowOptions { ShadowOptions(rawValue: 8) }
    }

    /// Adds `filter` to later draws through this context. The most recently added filter runs first, closest
    /// to the content; `drawLayer` makes a group one draw.
    public mutating func addFilter(_ filter: Filter, options: FilterOptions = FilterOptions()) {
        state.filters.append(RecordedFilter(filter: filter, options: options, transform: transform))
    }
}

/// A 4 × 5 colour matrix: row R is (r1, r2, r3, r4, r5) and so on; column 5 is an offset.
///
/// `ColorMatrix()` is the identity: r1 = g2 = b3 = a4 = 1, everything else 0.
public struct ColorMatrix: Equatable, Sendable {
    public var r1: Float = 1, r2: Float = 0, r3: Float = 0, r4: Float = 0, r5: Float = 0
    public var g1: Float = 0, g2: Float = 1, g3: Float = 0, g4: Float = 0, g5: Float = 0
    public var b1: Float = 0, b2: Float = 0, b3: Float = 1, b4: Float = 0, b5: Float = 0
    public var a1: Float = 0, a2: Float = 0, a3: Float = 0, a4: Float = 1, a5: Float = 0

    public init() {}

    /// The 20 entries row by row (R, G, B, A), five per row.
    package var entries: [Float] {
        [r1, r2, r3, r4, r5, g1, g2, g3, g4, g5, b1, b2, b3, b4, b5, a1, a2, a3, a4, a5]
    }

    /// A matrix from 20 entries row by row (the scene format's `matrix`).
    package init(entries e: [Float]) {
        precondition(e.count == 20)
        (r1, r2, r3, r4, r5) = (e[0], e[1], e[2], e[3], e[4])
        (g1, g2, g3, g4, g5) = (e[5], e[6], e[7], e[8], e[9])
        (b1, b2, b3, b4, b5) = (e[10], e[11], e[12], e[13], e[14])
        (a1, a2, a3, a4, a5) = (e[15], e[16], e[17], e[18], e[19])
    }
}

/// A 3 × 3 projective transform in Core Graphics' row-vector convention: a point (x, y) maps to
/// ((m11·x + m21·y + m31) / w, (m12·x + m22·y + m32) / w) with w = m13·x + m23·y + m33.
///
/// `ProjectionTransform(CGAffineTransform(translationX: 5, y: 0))` has m31 = 5 and `isAffine` true.
public struct ProjectionTransform: Equatable, Sendable {
    public var m11: CGFloat = 1, m12: CGFloat = 0, m13: CGFloat = 0
    public var m21: CGFloat = 0, m22: CGFloat = 1, m23: CGFloat = 0
    public var m31: CGFloat = 0, m32: CGFloat = 0, m33: CGFloat = 1

    public init() {}

    public init(_ m: CGAffineTransform) {
        m11 = m.a; m12 = m.b; m21 = m.c; m22 = m.d; m31 = m.tx; m32 = m.ty
    }

    public var isIdentity: Bool { self == ProjectionTransform() }

    public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

    /// Inverts in place; false (and unchanged) when the matrix is singular.
    public mutating func invert() -> Bool {
        let c11 = m22 * m33 - m23 * m32, c12 = m13 * m32 - m12 * m33, c13 = m12 * m23 - m13 * m22
        let c21 = m23 * m31 - m21 * m33, c22 = m11 * m33 - m13 * m31, c23 = m13 * m21 - m11 * m23
        let c31 = m21 * m32 - m22 * m31, c32 = m12 * m31 - m11 * m32, c33 = m11 * m22 - m12 * m21
        let det = m11 * c11 + m12 * c21 + m13 * c31
        guard det != 0, det.isFinite else { return false }
        (m11, m12, m13) = (c11 / det, c12 / det, c13 / det)
        (m21, m22, m23) = (c21 / det, c22 / det, c23 / det)
        (m31, m32, m33) = (c31 / det, c32 / det, c33 / det)
        return true
    }

    /// The inverse; the matrix itself when it is singular.
    public func inverted() -> ProjectionTransform {
        var m = self
        _ = m.invert()
        return m
    }

    /// `self` then `rhs` (row vectors: p · self · rhs).
    public func concatenating(_ rhs: ProjectionTransform) -> ProjectionTransform {
        var r = ProjectionTransform()
        r.m11 = m11 * rhs.m11 + m12 * rhs.m21 + m13 * rhs.m31
        r.m12 = m11 * rhs.m12 + m12 * rhs.m22 + m13 * rhs.m32
        r.m13 = m11 * rhs.m13 + m12 * rhs.m23 + m13 * rhs.m33
        r.m21 = m21 * rhs.m11 + m22 * rhs.m21 + m23 * rhs.m31
        r.m22 = m21 * rhs.m12 + m22 * rhs.m22 + m23 * rhs.m32
        r.m23 = m21 * rhs.m13 + m22 * rhs.m23 + m23 * rhs.m33
        r.m31 = m31 * rhs.m11 + m32 * rhs.m21 + m33 * rhs.m31
        r.m32 = m31 * rhs.m12 + m32 * rhs.m22 + m33 * rhs.m32
        r.m33 = m31 * rhs.m13 + m32 * rhs.m23 + m33 * rhs.m33
        return r
    }
}

/// A filter as recorded: with its options and the transform in force when it was added (blur and shadow
/// sizes live in that user space).
package struct RecordedFilter: Sendable, Equatable {
    package var filter: GraphicsContext.Filter
    package var options: GraphicsContext.FilterOptions
    package var transform: CGAffineTransform
}
