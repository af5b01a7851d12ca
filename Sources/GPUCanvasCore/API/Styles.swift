/// How a path is filled: the fill rule and whether edges are anti-aliased.
public struct FillStyle: Hashable, Sendable, CustomStringConvertible {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
    public var description: String { "FillStyle(eoFill: \(isEOFilled), antialiased: \(isAntialiased))" }
}

/// The characteristics of a stroke: `StrokeStyle(lineWidth: 4, lineCap: .round, dash: [10, 5])`.
public struct StrokeStyle: Hashable, Sendable, CustomStringConvertible {
    public var lineWidth: CGFloat
    public var lineCap: CGLineCap
    public var lineJoin: CGLineJoin
    public var miterLimit: CGFloat
    public var dash: [CGFloat]
    public var dashPhase: CGFloat
    public init(lineWidth: CGFloat = 1, lineCap: CGLineCap = .butt, lineJoin: CGLineJoin = .miter,
                miterLimit: CGFloat = 10, dash: [CGFloat] = [CGFloat](), dashPhase: CGFloat = 0) {
        self.lineWidth = lineWidth
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dash = dash
        self.dashPhase = dashPhase
    }
    public var description: String {
        var s = "StrokeStyle(lineWidth: \(lineWidth), lineCap: .\(lineCap), lineJoin: .\(lineJoin), miterLimit: \(miterLimit)"
        if !dash.isEmpty { s += ", dash: \(dash), dashPhase: \(dashPhase)" }
        return s + ")"
    }
}

/// Corner geometry of rounded rectangles.
public enum RoundedCornerStyle: Hashable, Sendable, CaseIterable {
    /// Quarter circles.
    case circular
    /// Apple's continuous-curvature corner, approximated here (see `Path+Shapes.swift`).
    case continuous
}

/// Per-corner radii of a rounded rectangle.
public struct RectangleCornerRadii: Hashable, Sendable {
    public var topLeading: CGFloat
    public var bottomLeading: CGFloat
    public var bottomTrailing: CGFloat
    public var topTrailing: CGFloat
    public init(topLeading: CGFloat = 0, bottomLeading: CGFloat = 0, bottomTrailing: CGFloat = 0,
                topTrailing: CGFloat = 0) {
        self.topLeading = topLeading
        self.bottomLeading = bottomLeading
        self.bottomTrailing = bottomTrailing
        self.topTrailing = topTrailing
    }
}

/// The working colour space and storage a canvas composites in.
public enum ColorRenderingMode: Hashable, Sendable, CaseIterable {
    /// Gamma-encoded sRGB, values clamped to [0, 1]. The default.
    case nonLinear
    /// Linear-light sRGB, values clamped to [0, 1].
    case linear
    /// Linear-light sRGB that keeps values outside [0, 1].
    case extendedLinear
}
