// GraphicsContext.Shading and the shape styles it accepts.
//
// A shading is recorded as given, with its colours still `Color`s: the colour mode and the interpolation
// space are applied by the lowering stage, which knows the canvas's working space. A `.style(…)` gradient is
// recorded with its UnitPoints (`UnitGradient`); SwiftUI maps them onto the bounding rect of the item being
// drawn, and the lowering does so with the drawn path's bounds (`UnitGradient.bound(to:)`).

extension GraphicsContext {
    /// A colour or pattern to fill or stroke with.
    ///
    /// `.linearGradient(Gradient(colors: [.green, .blue]), startPoint: .zero, endPoint: CGPoint(x: 100, y: 0))`
    /// shades green at x = 0, blue from x = 100 on, and padded beyond.
    public struct Shading: Sendable, Equatable, CustomStringConvertible {
        package enum Kind: Sendable, Equatable {
            case color(Color)
            case foreground
            case gradient(GradientShading)
            /// A shape style whose geometry depends on the drawn item's bounds, resolved when drawn.
            case style(UnitGradient)
            /// Multi-level shading: level 0 draws ordinary content.
            case palette([Shading])
            case tiledImage(TiledImage)
            /// What is already drawn under the item.
            case backdrop
            case meshGradient(MeshGradient)
        }
        package let kind: Kind

        public static func color(_ color: Color) -> Shading { Shading(kind: .color(color)) }
        public static func color(_ colorSpace: Color.RGBColorSpace = .sRGB, red: Double, green: Double,
                                 blue: Double, opacity: Double = 1) -> Shading {
            .color(Color(colorSpace, red: red, green: green, blue: blue, opacity: opacity))
        }
        public static func color(_ colorSpace: Color.RGBColorSpace = .sRGB, white: Double,
                                 opacity: Double = 1) -> Shading {
            .color(Color(colorSpace, white: white, opacity: opacity))
        }
        /// The environment's foreground style: `Color.primary` unless the environment says otherwise.
        public static var foreground: Shading { Shading(kind: .foreground) }

        /// Colours constant along lines perpendicular to start → end, in user space (not relative to the shape).
        public static func linearGradient(_ gradient: Gradient, startPoint: CGPoint, endPoint: CGPoint,
                                          options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .gradient(GradientShading(
                stops: gradient.stops, colorSpace: .device, options: options,
                geometry: .linear(start: startPoint, end: endPoint), gradientToUser: .identity)))
        }

        /// Concentric circles around `center`: t = 0 at `startRadius`, t = 1 at `endRadius`.
        public static func radialGradient(_ gradient: Gradient, center: CGPoint, startRadius: CGFloat,
                                          endRadius: CGFloat, options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .gradient(GradientShading(
                stops: gradient.stops, colorSpace: .device, options: options,
                geometry: .radial(startCenter: center, startRadius: startRadius, endCenter: center, endRadius: endRadius),
                gradientToUser: .identity)))
        }

        /// The two-point form (iOS 18.2): circles interpolated from (startCenter, startRadius) to
        /// (endCenter, endRadius), as the HTML canvas's `createRadialGradient`.
        public static func radialGradient(_ gradient: AnyGradient, startCenter: CGPoint, startRadius: CGFloat,
                                          endCenter: CGPoint, endRadius: CGFloat,
                                          options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .gradient(GradientShading(
                stops: gradient.gradient.stops, colorSpace: gradient.colorSpace, options: options,
                geometry: .radial(startCenter: startCenter, startRadius: startRadius, endCenter: endCenter,
                                  endRadius: endRadius),
                gradientToUser: .identity)))
        }

        /// One full turn around `center`, starting at `angle` from +x and going clockwise on screen.
        public static func conicGradient(_ gradient: Gradient, center: CGPoint, angle: Angle = Angle(),
                                         options: GradientOptions = GradientOptions()) -> Shading {
            Shading(kind: .gradient(GradientShading(
                stops: gradient.stops, colorSpace: .device, options: options,
                geometry: .conic(center: center, startAngle: angle.radians, endAngle: angle.radians + 2 * .pi),
                gradientToUser: .identity)))
        }

        /// A shape style: a `Color`, a `Gradient` or `AnyGradient` (top to bottom of the drawn item), or a
        /// `LinearGradient`, `RadialGradient`, `AngularGradient`, `EllipticalGradient` whose UnitPoints map
        /// onto the drawn item's bounding rect.
        public static func style<S: ShapeStyle>(_ style: S) -> Shading { style.shading }

        /// A copy of what is already drawn under the item (the destination before this draw).
        public static var backdrop: Shading { Shading(kind: .backdrop) }

        /// Multi-level shading; level 0 is used for ordinary drawing. An empty array draws nothing.
        public static func palette(_ array: [Shading]) -> Shading { Shading(kind: .palette(array)) }

        /// The shading used for ordinary drawing: palette level 0 (nil for an empty palette).
        package var levelZero: Shading? {
            switch kind {
            case .palette(let levels): return levels.first?.levelZero
            default: return self
            }
        }

        public var description: String {
            switch kind {
            case .color(let c): return ".color(\(c))"
            case .foreground: return ".foreground"
            case .gradient(let g): return g.description
            case .style(let s): return ".style(\(s))"
            case .palette(let l): return ".palette([\(l.map(\.description).joined(separator: ", "))])"
            case .tiledImage(let t): return ".tiledImage(origin: \(fmt(t.origin)), sourceRect: \(t.sourceRect), scale: \(fmt(t.scale)))"
            case .backdrop: return ".backdrop"
            case .meshGradient(let m): return m.description
            }
        }

        package init(kind: Kind) { self.kind = kind }
    }

    /// Options of the gradient shadings: `[.repeat, .linearColor]`.
    public struct GradientOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// 0 → 1, 0 → 1, … beyond the gradient's ends.
        public static var `repeat`: GradientOptions { GradientOptions(rawValue: 1) }
        /// 0 → 1, 1 → 0, … beyond the ends; wins over `repeat`.
        public static var mirror: GradientOptions { GradientOptions(rawValue: 2) }
        /// Interpolate in linear light instead of the working space.
        public static var linearColor: GradientOptions { GradientOptions(rawValue: 4) }
    }
}

/// A gradient as recorded: stops, options and geometry in "gradient space", mapped into the draw's user space
/// by `gradientToUser` (identity for the shading factories; the item's bounds for UnitPoint styles).
package struct GradientShading: Sendable, Equatable, CustomStringConvertible {
    package enum Geometry: Sendable, Equatable {
        case linear(start: CGPoint, end: CGPoint)
        /// Concentric when the centres are equal.
        case radial(startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat)
        /// t = 0 at `startAngle`, 1 at `endAngle` (radians from +x, clockwise on screen).
        case conic(center: CGPoint, startAngle: Double, endAngle: Double)
    }
    package var stops: [Gradient.Stop]
    package var colorSpace: Gradient.ColorSpace
    package var options: GraphicsContext.GradientOptions
    package var geometry: Geometry
    package var gradientToUser: CGAffineTransform

    package var description: String {
        let g: String
        switch geometry {
        case .linear(let s, let e): g = "linearGradient(\(fmt(s)) → \(fmt(e))"
        case .radial(let c0, let r0, let c1, let r1):
            g = c0 == c1 ? "radialGradient(center \(fmt(c0)), r \(fmt(r0)) → \(fmt(r1))"
                : "radialGradient(\(fmt(c0)) r \(fmt(r0)) → \(fmt(c1)) r \(fmt(r1))"
        case .conic(let c, let a0, let a1):
            g = "conicGradient(center \(fmt(c)), \(fmt(CGFloat(a0 * 180 / .pi)))° → \(fmt(CGFloat(a1 * 180 / .pi)))°"
        }
        var s = "." + g + ", stops [" + stops.map { "\(fmt($0.location)) \($0.color)" }.joined(separator: ", ") + "]"
        var opts: [String] = []
        if options.contains(.mirror) { opts.append("mirror") } else if options.contains(.repeat) { opts.append("repeat") }
        if options.contains(.linearColor) { opts.append("linearColor") }
        if !opts.isEmpty { s += ", options [\(opts.joined(separator: ", "))]" }
        if !gradientToUser.isIdentity { s += ", gradientToUser \(gradientToUser)" }
        return s + ")"
    }
}

private func fmt(_ p: CGPoint) -> String { "(\(fmt(p.x)), \(fmt(p.y)))" }

// MARK: - Shape styles

/// A colour or pattern usable as `.style(…)` shading.
///
/// `context.fill(path, with: .style(LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing)))`
/// runs red → blue across the path's bounds.
public protocol ShapeStyle: Sendable {
    /// The shading this style draws as.
    var shading: GraphicsContext.Shading { get }
}

extension Color: ShapeStyle {
    public var shading: GraphicsContext.Shading { .color(self) }
}

extension Gradient: ShapeStyle {
    /// A gradient as a style runs from the top to the bottom of the drawn item.
    public var shading: GraphicsContext.Shading {
        LinearGradient(gradient: self, startPoint: .top, endPoint: .bottom).shading
    }
}

extension Gradient {
    /// How a gradient interpolates between its stops.
    public struct ColorSpace: Hashable, Sendable {
        package let isPerceptual: Bool
        /// Interpolate in the output (working) space.
        public static let device = ColorSpace(isPerceptual: false)
        /// Interpolate in a perceptual space (Oklab).
        public static let perceptual = ColorSpace(isPerceptual: true)
    }

    /// This gradient interpolated in `space`.
    public func colorSpace(_ space: ColorSpace) -> AnyGradient { AnyGradient(self).colorSpace(space) }
}

/// A type-erased gradient (`Color.blue.gradient`), usable as a style and by the two-point radial shading.
public struct AnyGradient: Hashable, ShapeStyle {
    package let gradient: Gradient
    package let colorSpace: Gradient.ColorSpace
    public init(_ gradient: Gradient) { self.gradient = gradient; colorSpace = .device }
    package init(_ gradient: Gradient, colorSpace: Gradient.ColorSpace) { self.gradient = gradient; self.colorSpace = colorSpace }
    public func colorSpace(_ space: Gradient.ColorSpace) -> AnyGradient { AnyGradient(gradient, colorSpace: space) }
    /// Top to bottom of the drawn item.
    public var shading: GraphicsContext.Shading {
        LinearGradient(gradient: gradient, startPoint: .top, endPoint: .bottom).colorSpace(colorSpace).shading
    }
}

extension Color {
    /// A subtle gradient made from this colour (SwiftUI's `Color.gradient`): this colour, a little lighter at
    /// the top and a little darker at the bottom.
    public var gradient: AnyGradient {
        AnyGradient(Gradient(colors: [mixed(toward: .white, by: 0.12), self, mixed(toward: .black, by: 0.12)]))
    }

    /// Straight-alpha mix in linear sRGB (used for `gradient`).
    private func mixed(toward other: Color, by f: Double) -> Color {
        let a = linearSRGB, b = other.linearSRGB
        return Color(.sRGBLinear, red: a.r + (b.r - a.r) * f, green: a.g + (b.g - a.g) * f,
                     blue: a.b + (b.b - a.b) * f, opacity: a.a)
    }
}

/// A gradient whose geometry is given in UnitPoints of the drawn item's bounds.
package struct UnitGradient: Sendable, Equatable, CustomStringConvertible {
    package enum Geometry: Sendable, Equatable {
        case linear(start: UnitPoint, end: UnitPoint)
        /// Radii in points.
        case radial(center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat)
        case angular(center: UnitPoint, startAngle: Angle, endAngle: Angle)
        /// Radii as fractions of the bounds: 0.5 touches the bounds' edges.
        case elliptical(center: UnitPoint, startRadiusFraction: CGFloat, endRadiusFraction: CGFloat)
    }
    package var gradient: Gradient
    package var colorSpace: Gradient.ColorSpace = .device
    package var geometry: Geometry

    /// The absolute gradient for an item with bounding rect `r` (user space).
    ///
    /// `.linear(.top, .bottom)` in (0, 0, 10, 20) → linear (5, 0) → (5, 20).
    package func bound(to r: CGRect) -> GradientShading {
        let r = r.isNull || r.isInfinite ? .zero : r
        var g = GradientShading(stops: gradient.stops, colorSpace: colorSpace, options: [],
                                geometry: .linear(start: .zero, end: .zero), gradientToUser: .identity)
        switch geometry {
        case .linear(let s, let e):
            g.geometry = .linear(start: s.point(in: r), end: e.point(in: r))
        case .radial(let c, let r0, let r1):
            let p = c.point(in: r)
            g.geometry = .radial(startCenter: p, startRadius: r0, endCenter: p, endRadius: r1)
        case .angular(let c, let a0, let a1):
            g.geometry = .conic(center: c.point(in: r), startAngle: a0.radians, endAngle: a1.radians)
        case .elliptical(let c, let f0, let f1):
            // A circle in a unit space stretched over the bounds: radius 1 there is half the bounds' size.
            let p = c.point(in: r)
            g.geometry = .radial(startCenter: .zero, startRadius: f0 * 2, endCenter: .zero, endRadius: f1 * 2)
            g.gradientToUser = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: p.x, ty: p.y)
        }
        return g
    }

    package var description: String { "\(geometry), \(gradient.stops.count) stops" }
}

/// SwiftUI's `LinearGradient` style: `LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)`.
public struct LinearGradient: ShapeStyle {
    package var unit: UnitGradient
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        unit = UnitGradient(gradient: gradient, geometry: .linear(start: startPoint, end: endPoint))
    }
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(colors: colors), startPoint: startPoint, endPoint: endPoint)
    }
    public init(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(gradient: Gradient(stops: stops), startPoint: startPoint, endPoint: endPoint)
    }
    package func colorSpace(_ s: Gradient.ColorSpace) -> LinearGradient { var c = self; c.unit.colorSpace = s; return c }
    public var shading: GraphicsContext.Shading { GraphicsContext.Shading(kind: .style(unit)) }
}

/// SwiftUI's `RadialGradient` style: circles around a UnitPoint of the item's bounds, radii in points.
public struct RadialGradient: ShapeStyle {
    package var unit: UnitGradient
    public init(gradient: Gradient, center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        unit = UnitGradient(gradient: gradient, geometry: .radial(center: center, startRadius: startRadius,
                                                                  endRadius: endRadius))
    }
    public init(colors: [Color], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadius: startRadius, endRadius: endRadius)
    }
    public init(stops: [Gradient.Stop], center: UnitPoint, startRadius: CGFloat, endRadius: CGFloat) {
        self.init(gradient: Gradient(stops: stops), center: center, startRadius: startRadius, endRadius: endRadius)
    }
    public var shading: GraphicsContext.Shading { GraphicsContext.Shading(kind: .style(unit)) }
}

/// SwiftUI's `AngularGradient` style: t runs from `startAngle` to `endAngle` clockwise around a UnitPoint.
public struct AngularGradient: ShapeStyle {
    package var unit: UnitGradient
    public init(gradient: Gradient, center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {
        // SwiftUI: equal angles mean one full turn.
        let end = endAngle == startAngle ? startAngle + .degrees(360) : endAngle
        unit = UnitGradient(gradient: gradient, geometry: .angular(center: center, startAngle: startAngle, endAngle: end))
    }
    public init(colors: [Color], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {
        self.init(gradient: Gradient(colors: colors), center: center, startAngle: startAngle, endAngle: endAngle)
    }
    public init(stops: [Gradient.Stop], center: UnitPoint, startAngle: Angle = .zero, endAngle: Angle = .zero) {
        self.init(gradient: Gradient(stops: stops), center: center, startAngle: startAngle, endAngle: endAngle)
    }
    /// One full turn starting at `angle`.
    public init(gradient: Gradient, center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: gradient, center: center, startAngle: angle, endAngle: angle + .degrees(360))
    }
    public init(colors: [Color], center: UnitPoint, angle: Angle = .zero) {
        self.init(gradient: Gradient(colors: colors), center: center, angle: angle)
    }
    public var shading: GraphicsContext.Shading { GraphicsContext.Shading(kind: .style(unit)) }
}

/// SwiftUI's `EllipticalGradient` style: ellipses fitted to the item's bounds; radii are fractions of the
/// bounds (0.5 reaches their edges).
public struct EllipticalGradient: ShapeStyle {
    package var unit: UnitGradient
    public init(gradient: Gradient, center: UnitPoint = .center, startRadiusFraction: CGFloat = 0,
                endRadiusFraction: CGFloat = 0.5) {
        unit = UnitGradient(gradient: gradient, geometry: .elliptical(center: center, startRadiusFraction: startRadiusFraction,
                                                                      endRadiusFraction: endRadiusFraction))
    }
    public init(colors: [Color], center: UnitPoint = .center, startRadiusFraction: CGFloat = 0,
                endRadiusFraction: CGFloat = 0.5) {
        self.init(gradient: Gradient(colors: colors), center: center, startRadiusFraction: startRadiusFraction,
                  endRadiusFraction: endRadiusFraction)
    }
    public init(stops: [Gradient.Stop], center: UnitPoint = .center, startRadiusFraction: CGFloat = 0,
                endRadiusFraction: CGFloat = 0.5) {
        self.init(gradient: Gradient(stops: stops), center: center, startRadiusFraction: startRadiusFraction,
                  endRadiusFraction: endRadiusFraction)
    }
    public var shading: GraphicsContext.Shading { GraphicsContext.Shading(kind: .style(unit)) }
}

// MARK: - Static sugar (`.style(.linearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom))`)

extension ShapeStyle where Self == LinearGradient {
    public static func linearGradient(_ gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(gradient: gradient, startPoint: startPoint, endPoint: endPoint)
    }
    public static func linearGradient(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(colors: colors, startPoint: startPoint, endPoint: endPoint)
    }
    public static func linearGradient(stops: [Gradient.Stop], startPoint: UnitPoint, endPoint: UnitPoint) -> LinearGradient {
        LinearGradient(stops: stops, startPoint: startPoint, endPoint: endPoint)
    }
}

extension ShapeStyle where Self == RadialGradient {
    public static func radialGradient(_ gradient: Gradient, center: UnitPoint, startRadius: CGFloat,
                                      endRadius: CGFloat) -> RadialGradient {
        RadialGradient(gradient: gradient, center: center, startRadius: startRadius, endRadius: endRadius)
    }
    public static func radialGradient(colors: [Color], center: UnitPoint, startRadius: CGFloat,
                                      endRadius: CGFloat) -> RadialGradient {
        RadialGradient(colors: colors, center: center, startRadius: startRadius, endRadius: endRadius)
    }
}

extension ShapeStyle where Self == AngularGradient {
    public static func angularGradient(_ gradient: Gradient, center: UnitPoint, startAngle: Angle,
                                       endAngle: Angle) -> AngularGradient {
        AngularGradient(gradient: gradient, center: center, startAngle: startAngle, endAngle: endAngle)
    }
    public static func angularGradient(colors: [Color], center: UnitPoint, startAngle: Angle,
                                       endAngle: Angle) -> AngularGradient {
        AngularGradient(colors: colors, center: center, startAngle: startAngle, endAngle: endAngle)
    }
    public static func conicGradient(_ gradient: Gradient, center: UnitPoint, angle: Angle = .zero) -> AngularGradient {
        AngularGradient(gradient: gradient, center: center, angle: angle)
    }
    public static func conicGradient(colors: [Color], center: UnitPoint, angle: Angle = .zero) -> AngularGradient {
        AngularGradient(colors: colors, center: center, angle: angle)
    }
}

extension ShapeStyle where Self == EllipticalGradient {
    public static func ellipticalGradient(_ gradient: Gradient, center: UnitPoint = .center,
                                          startRadiusFraction: CGFloat = 0,
                                          endRadiusFraction: CGFloat = 0.5) -> EllipticalGradient {
        EllipticalGradient(gradient: gradient, center: center, startRadiusFraction: startRadiusFraction,
                           endRadiusFraction: endRadiusFraction)
    }
    public static func ellipticalGradient(colors: [Color], center: UnitPoint = .center,
                                          startRadiusFraction: CGFloat = 0,
                                          endRadiusFraction: CGFloat = 0.5) -> EllipticalGradient {
        EllipticalGradient(colors: colors, center: center, startRadiusFraction: startRadiusFraction,
                           endRadiusFraction: endRadiusFraction)
    }
}
