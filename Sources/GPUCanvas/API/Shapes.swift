// SwiftUI's `Shape` protocol and the built-in shapes. In a canvas a shape is used through its path:
// `context.fill(Circle().path(in: rect), with: .color(.red))`.
//
// Leading and trailing are left and right (left-to-right layout; there is no layout direction here).
// SwiftUI's animation and layout members of `Shape` (`animatableData`, `sizeThatFits`, `role`,
// `layoutDirectionBehavior`) are not part of this package.

/// A 2D shape that produces a path for any rectangle.
///
/// ```swift
/// struct Diamond: Shape {
///     func path(in rect: CGRect) -> Path {
///         Path { $0.addLines([CGPoint(x: rect.midX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.midY),
///                             CGPoint(x: rect.midX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.midY)])
///                $0.closeSubpath() }
///     }
/// }
/// Diamond().path(in: CGRect(x: 0, y: 0, width: 4, height: 2)).boundingRect   // (0, 0, 4, 2)
/// ```
public protocol Shape: View, Sendable {
    /// The shape's outline fitted to `rect`.
    func path(in rect: CGRect) -> Path
}

/// A rectangle filling its frame: `Rectangle().path(in: r) == Path(r)`.
public struct Rectangle: Shape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(rect) }
}

/// A rectangle with equal rounded corners.
///
/// `RoundedRectangle(cornerRadius: 8, style: .circular).path(in: CGRect(x: 0, y: 0, width: 100, height: 50))`
/// equals `Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 8, style: .circular)`.
public struct RoundedRectangle: Shape {
    /// The width and height of each corner (clamped to half the rect's sides when drawn).
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle

    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }

    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.init(cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerSize: cornerSize, style: style) }
}

/// A rectangle with a radius per corner.
///
/// `UnevenRoundedRectangle(topLeadingRadius: 10, style: .circular)` rounds only the top-left corner.
public struct UnevenRoundedRectangle: Shape {
    public var cornerRadii: RectangleCornerRadii
    public var style: RoundedCornerStyle

    public init(cornerRadii: RectangleCornerRadii, style: RoundedCornerStyle = .continuous) {
        self.cornerRadii = cornerRadii
        self.style = style
    }

    public init(topLeadingRadius: CGFloat = 0, bottomLeadingRadius: CGFloat = 0, bottomTrailingRadius: CGFloat = 0,
                topTrailingRadius: CGFloat = 0, style: RoundedCornerStyle = .continuous) {
        self.init(cornerRadii: RectangleCornerRadii(topLeading: topLeadingRadius, bottomLeading: bottomLeadingRadius,
                                                    bottomTrailing: bottomTrailingRadius,
                                                    topTrailing: topTrailingRadius),
                  style: style)
    }

    public func path(in rect: CGRect) -> Path { Path(roundedRect: rect, cornerRadii: cornerRadii, style: style) }
}

/// A circle centred in its frame, with diameter min(width, height).
///
/// `Circle().path(in: CGRect(x: 0, y: 0, width: 100, height: 40)).boundingRect` → (30, 0, 40, 40).
/// A null rect gives an empty path; an infinite rect gives the rectangle (as SwiftUI).
public struct Circle: Shape {
    public init() {}
    public func path(in rect: CGRect) -> Path {
        guard !rect.isNull else { return Path() }
        if rect.isInfinite { return Path(rect) }
        let r = rect.standardized
        let side = min(r.width, r.height)
        return Path(ellipseIn: CGRect(x: r.midX - side / 2, y: r.midY - side / 2, width: side, height: side))
    }
}

/// An ellipse filling its frame: `Ellipse().path(in: r) == Path(ellipseIn: r)`.
public struct Ellipse: Shape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
}

/// A rectangle whose shorter sides are fully rounded.
///
/// `Capsule(style: .circular).path(in: CGRect(x: 0, y: 0, width: 100, height: 40))` has corner radius 20.
public struct Capsule: Shape {
    public var style: RoundedCornerStyle

    public init(style: RoundedCornerStyle = .continuous) { self.style = style }

    public func path(in rect: CGRect) -> Path {
        guard !rect.isNull else { return Path() }
        let r = rect.standardized
        return Path(roundedRect: r, cornerRadius: min(r.width, r.height) / 2, style: style)
    }
}

// MARK: Static sugar: `.rect`, `.circle`, `.capsule(style: .circular)` wherever a `Shape` is expected.

extension Shape where Self == Rectangle {
    /// A rectangle: `.rect`.
    public static var rect: Rectangle { Rectangle() }
}

extension Shape where Self == RoundedRectangle {
    /// `.rect(cornerRadius: 8)` is `RoundedRectangle(cornerRadius: 8)`.
    public static func rect(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerRadius: cornerRadius, style: style)
    }

    /// `.rect(cornerSize: CGSize(width: 8, height: 4))` is `RoundedRectangle(cornerSize:)`.
    public static func rect(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) -> RoundedRectangle {
        RoundedRectangle(cornerSize: cornerSize, style: style)
    }
}

extension Shape where Self == UnevenRoundedRectangle {
    /// `.rect(cornerRadii: .init(topLeading: 8))` is `UnevenRoundedRectangle(cornerRadii:)`.
    public static func rect(cornerRadii: RectangleCornerRadii, style: RoundedCornerStyle = .continuous)
        -> UnevenRoundedRectangle {
        UnevenRoundedRectangle(cornerRadii: cornerRadii, style: style)
    }

    /// `.rect(topLeadingRadius: 8)` is `UnevenRoundedRectangle(topLeadingRadius: 8)`.
    public static func rect(topLeadingRadius: CGFloat = 0, bottomLeadingRadius: CGFloat = 0,
                            bottomTrailingRadius: CGFloat = 0, topTrailingRadius: CGFloat = 0,
                            style: RoundedCornerStyle = .continuous) -> UnevenRoundedRectangle {
        UnevenRoundedRectangle(topLeadingRadius: topLeadingRadius, bottomLeadingRadius: bottomLeadingRadius,
                               bottomTrailingRadius: bottomTrailingRadius, topTrailingRadius: topTrailingRadius,
                               style: style)
    }
}

extension Shape where Self == Circle {
    /// A circle: `.circle`.
    public static var circle: Circle { Circle() }
}

extension Shape where Self == Ellipse {
    /// An ellipse: `.ellipse`.
    public static var ellipse: Ellipse { Ellipse() }
}

extension Shape where Self == Capsule {
    /// A capsule with continuous corners: `.capsule`.
    public static var capsule: Capsule { Capsule() }
    /// A capsule with the given corner style: `.capsule(style: .circular)`.
    public static func capsule(style: RoundedCornerStyle) -> Capsule { Capsule(style: style) }
}
