/// A colour, as SwiftUI's `Color`: components in a named RGB colour space plus an opacity.
///
/// Named colours are iOS light-mode, standard-contrast values (see `docs/api-checklist.md`), pinned so
/// rendering is deterministic. Colours are converted to the canvas's working space once, when a draw is
/// recorded (`Color.premultiplied(in:)`).
///
/// ```swift
/// Color.red.opacity(0.5)                         // 255,59,48 at 50 %
/// Color(.displayP3, red: 1, green: 0, blue: 0)   // outside sRGB: red > 1 in extended sRGB
/// ```
public struct Color: Hashable, Sendable, CustomStringConvertible {
    /// The RGB colour spaces a colour can be given in.
    public enum RGBColorSpace: Hashable, Sendable, CaseIterable {
        /// Extended sRGB: the sRGB transfer curve, values outside [0, 1] allowed.
        case sRGB
        /// Linear-light sRGB primaries.
        case sRGBLinear
        /// Display P3 primaries, D65 white, the sRGB transfer curve.
        case displayP3
    }

    package let space: RGBColorSpace
    package let red: Double, green: Double, blue: Double
    package let alpha: Double
    /// The SwiftUI name for named colours (printed by `description`), nil for constructed ones.
    package let name: String?

    public init(_ colorSpace: RGBColorSpace = .sRGB, red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.space = colorSpace
        self.red = red; self.green = green; self.blue = blue
        self.alpha = opacity
        self.name = nil
    }

    public init(_ colorSpace: RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {
        self.init(colorSpace, red: white, green: white, blue: white, opacity: opacity)
    }

    /// HSB in 0…1 (hue 1 = 360°), giving sRGB.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        let h = (hue - hue.rounded(.down)) * 6
        let sector = Int(h) % 6
        let f = h - Double(Int(h))
        let v = brightness, s = saturation
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let rgb: (Double, Double, Double)
        switch sector {
        case 0: rgb = (v, t, p)
        case 1: rgb = (q, v, p)
        case 2: rgb = (p, v, t)
        case 3: rgb = (p, q, v)
        case 4: rgb = (t, p, v)
        default: rgb = (v, p, q)
        }
        self.init(.sRGB, red: rgb.0, green: rgb.1, blue: rgb.2, opacity: opacity)
    }

    private init(named name: String, _ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) {
        self.space = .sRGB
        self.red = r / 255; self.green = g / 255; self.blue = b / 255
        self.alpha = a
        self.name = name
    }

    /// A copy whose opacity is multiplied by `opacity`: `Color.red.opacity(0.5).opacity(0.5)` is 25 % red.
    public func opacity(_ opacity: Double) -> Color {
        Color(space: space, red: red, green: green, blue: blue, alpha: alpha * opacity,
              name: name.map { "\($0).opacity(\(opacity))" })
    }

    private init(space: RGBColorSpace, red: Double, green: Double, blue: Double, alpha: Double, name: String?) {
        self.space = space; self.red = red; self.green = green; self.blue = blue; self.alpha = alpha; self.name = name
    }

    public var description: String {
        if let name { return name }
        func byte(_ v: Double) -> String {
            String(format: "%02X", Int((min(max(v, 0), 1) * 255).rounded()))
        }
        switch space {
        case .sRGB where [red, green, blue, alpha].allSatisfy({ $0 >= 0 && $0 <= 1 }):
            return "#" + byte(red) + byte(green) + byte(blue) + byte(alpha)
        default:
            return "Color(.\(space), red: \(red), green: \(green), blue: \(blue), opacity: \(alpha))"
        }
    }

    // MARK: Named colours (iOS light mode, standard contrast)
    public static let red = Color(named: "red", 255, 59, 48)
    public static let orange = Color(named: "orange", 255, 149, 0)
    public static let yellow = Color(named: "yellow", 255, 204, 0)
    public static let green = Color(named: "green", 52, 199, 89)
    public static let mint = Color(named: "mint", 0, 199, 190)
    public static let teal = Color(named: "teal", 48, 176, 199)
    public static let cyan = Color(named: "cyan", 50, 173, 230)
    public static let blue = Color(named: "blue", 0, 122, 255)
    public static let indigo = Color(named: "indigo", 88, 86, 214)
    public static let purple = Color(named: "purple", 175, 82, 222)
    public static let pink = Color(named: "pink", 255, 45, 85)
    public static let brown = Color(named: "brown", 162, 132, 94)
    public static let gray = Color(named: "gray", 142, 142, 147)
    public static let black = Color(named: "black", 0, 0, 0)
    public static let white = Color(named: "white", 255, 255, 255)
    public static let clear = Color(named: "clear", 0, 0, 0, 0)
    public static let primary = Color(named: "primary", 0, 0, 0)
    public static let secondary = Color(named: "secondary", 60, 60, 67, 0.6)
    public static var accentColor: Color { Color(named: "accentColor", 0, 122, 255) }

    /// Every named colour by its SwiftUI name (the scene format's colour names).
    package static let named: [String: Color] = [
        "red": .red, "orange": .orange, "yellow": .yellow, "green": .green, "mint": .mint, "teal": .teal,
        "cyan": .cyan, "blue": .blue, "indigo": .indigo, "purple": .purple, "pink": .pink, "brown": .brown,
        "gray": .gray, "black": .black, "white": .white, "clear": .clear, "primary": .primary,
        "secondary": .secondary, "accentColor": .accentColor,
    ]
}

// MARK: - Colour conversion

extension Color {
    /// Components in linear-light extended sRGB, straight alpha.
    package var linearSRGB: (r: Double, g: Double, b: Double, a: Double) {
        switch space {
        case .sRGB:
            return (ColorTransfer.decode(red), ColorTransfer.decode(green), ColorTransfer.decode(blue), alpha)
        case .sRGBLinear:
            return (red, green, blue, alpha)
        case .displayP3:
            let r = ColorTransfer.decode(red), g = ColorTransfer.decode(green), b = ColorTransfer.decode(blue)
            // Linear Display P3 → linear sRGB (both D65).
            return (1.2249401762805598 * r - 0.22494017628055996 * g,
                    -0.04205695470968816 * r + 1.0420569547096882 * g,
                    -0.019637554590334432 * r - 0.07863604555063188 * g + 1.0982736001409663 * b,
                    alpha)
        }
    }

    /// The colour premultiplied in a canvas's working space: sRGB-encoded for `.nonLinear`, linear-light
    /// otherwise; clamped to [0, 1] except in `.extendedLinear`.
    ///
    /// `Color.red.premultiplied(in: .nonLinear)` → RGBA(1, 0.2314, 0.1882, 1).
    package func premultiplied(in mode: ColorRenderingMode) -> RGBA {
        // A non-finite component is passed on as given, unclamped, for the lowering to skip the draw (clamping
        // would draw an infinite component as 1 in some modes and skip it in `.extendedLinear`).
        guard hasFiniteComponents else { return RGBA(r: Float(red), g: Float(green), b: Float(blue), a: Float(alpha)) }
        let a = min(max(alpha, 0), 1)
        var c: (Double, Double, Double)
        switch (mode, space) {
        case (.nonLinear, .sRGB):
            c = (red, green, blue)  // already encoded: no round trip through linear
        case (.nonLinear, _):
            let l = linearSRGB
            c = (ColorTransfer.encode(l.r), ColorTransfer.encode(l.g), ColorTransfer.encode(l.b))
        case (.linear, _), (.extendedLinear, _):
            let l = linearSRGB
            c = (l.r, l.g, l.b)
        }
        if mode != .extendedLinear {
            c = (min(max(c.0, 0), 1), min(max(c.1, 0), 1), min(max(c.2, 0), 1))
        }
        return RGBA(r: Float(c.0 * a), g: Float(c.1 * a), b: Float(c.2 * a), a: Float(a))
    }
}

extension Color {
    /// False when a component or the opacity is NaN or infinite: a draw with such a colour is skipped (a
    /// diagnostic, or `.strict`'s error), in every colour mode.
    package var hasFiniteComponents: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }
}

/// The sRGB transfer function, extended symmetrically to negative values.
package enum ColorTransfer {
    package static func decode(_ v: Double) -> Double {
        let m = abs(v)
        let l = m <= 0.04045 ? m / 12.92 : pow((m + 0.055) / 1.055, 2.4)
        return v < 0 ? -l : l
    }
    package static func encode(_ v: Double) -> Double {
        let m = abs(v)
        let e = m <= 0.0031308 ? m * 12.92 : 1.055 * pow(m, 1 / 2.4) - 0.055
        return v < 0 ? -e : e
    }
}

/// A premultiplied colour in the canvas's working space, as both backends consume it.
public struct RGBA: Hashable, Sendable, CustomStringConvertible {
    public var r: Float, g: Float, b: Float, a: Float
    public init(r: Float, g: Float, b: Float, a: Float) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let transparent = RGBA(r: 0, g: 0, b: 0, a: 0)
    public var description: String {
        String(format: "rgba(%.4g, %.4g, %.4g, %.4g)", r, g, b, a)
    }
}

/// A colour gradient: stops at locations in [0, 1].
public struct Gradient: Hashable, Sendable {
    public struct Stop: Hashable, Sendable {
        public var color: Color
        public var location: CGFloat
        public init(color: Color, location: CGFloat) { self.color = color; self.location = location }
    }
    public var stops: [Stop]
    /// Evenly spaced: stop i sits at i/(n−1) (a single colour sits at 0).
    public init(colors: [Color]) {
        let n = colors.count
        stops = colors.enumerated().map { i, c in
            Stop(color: c, location: n > 1 ? CGFloat(i) / CGFloat(n - 1) : 0)
        }
    }
    public init(stops: [Stop]) { self.stops = stops }
}
