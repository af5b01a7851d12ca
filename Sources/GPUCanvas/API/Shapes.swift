// SwiftUI's `Shape` protocol and the built-in shapes. In a canvas a shape is used through its path:
// `context.fill(Circle().path(in: rect), with: .color(.red))`.
//
// Leading and trailing are left and right (left-to-right layout; there is no layout direction here).
// As a view, a shape takes the size it is offered and is asked for its path in its own coordinate space:
// `path(in: CGRect(origin: .zero, size: frame size))`, the view placing the result (as SwiftUI does).
// The modifiers that return shapes (`offset`, `rotation`, `scale`, `transform`, `trim`, `inset(by:)`,
// `stroke(style:)`) work the same in a view and in a canvas (`Circle().inset(by: 4).path(in: rect)`).
// A shape is `Animatable` as in SwiftUI (`Shape+Animatable.swift`: the built-in shapes' `animatableData`); a
// shape that declares none has `EmptyAnimatableData`. `role` and `layoutDirectionBehavior` are not part of this
// package.

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
public protocol Shape: Animatable, View, Sendable {
    /// The shape's outline fitted to `rect`.
    func path(in rect: CGRect) -> Path

    /// The size the shape takes as a view when offered `proposal`: by default the proposal, 10 pt in an
    /// unspecified dimension (SwiftUI's default); a shape may answer otherwise (a square one, say).
    func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize
}

extension Shape {
    public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
        proposal.replacingUnspecifiedDimensions(by: CGSize(width: 10, height: 10))
    }
}

/// A rectangle filling its frame: `Rectangle().path(in: r) == Path(r)`.
public struct Rectangle: InsettableShape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(rect) }
    public func inset(by amount: CGFloat) -> some InsettableShape { _Inset(amount: amount) }

    /// The rectangle inset by `amount` on every edge.
    public struct _Inset: InsettableShape {
        public var amount: CGFloat
        public func path(in rect: CGRect) -> Path { Path(insetRect(rect, amount)) }
        public func inset(by amount: CGFloat) -> Rectangle._Inset { _Inset(amount: self.amount + amount) }
    }
}

/// A rectangle with equal rounded corners.
///
/// `RoundedRectangle(cornerRadius: 8, style: .circular).path(in: CGRect(x: 0, y: 0, width: 100, height: 50))`
/// equals `Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 50), cornerRadius: 8, style: .circular)`.
public struct RoundedRectangle: Shape {
    /// The width and height of each corner (clamped to half the rect's sides when drawn).
    public var cornerSize: CGSize
    public var style: RoundedCornerStyle
    /// What `inset(by:)` took off each edge of the rect.
    var insetAmount: CGFloat = 0

    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }

    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.init(cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public func path(in rect: CGRect) -> Path {
        Path(roundedRect: insetRect(rect, insetAmount), cornerSize: cornerSize, style: style)
    }
}

extension RoundedRectangle: InsettableShape {
    /// The rectangle inset by `amount`, its corners shrunk by as much (as SwiftUI: the inset outline stays
    /// parallel to the original one).
    public func inset(by amount: CGFloat) -> RoundedRectangle {
        var r = RoundedRectangle(cornerSize: CGSize(width: max(0, cornerSize.width - amount),
                                                    height: max(0, cornerSize.height - amount)), style: style)
        r.insetAmount = insetAmount + amount
        return r
    }
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

    public func path(in rect: CGRect) -> Path {
        Path(roundedRect: insetRect(rect, insetAmount), cornerRadii: cornerRadii, style: style)
    }
    /// What `inset(by:)` took off each edge of the rect.
    var insetAmount: CGFloat = 0
}

extension UnevenRoundedRectangle: InsettableShape {
    /// The rectangle inset by `amount`, each corner radius shrunk by as much.
    public func inset(by amount: CGFloat) -> UnevenRoundedRectangle {
        func shrink(_ r: CGFloat) -> CGFloat { max(0, r - amount) }
        var r = UnevenRoundedRectangle(cornerRadii: RectangleCornerRadii(
            topLeading: shrink(cornerRadii.topLeading), bottomLeading: shrink(cornerRadii.bottomLeading),
            bottomTrailing: shrink(cornerRadii.bottomTrailing), topTrailing: shrink(cornerRadii.topTrailing)),
            style: style)
        r.insetAmount = insetAmount + amount
        return r
    }
}

/// A circle centred in its frame, with diameter min(width, height).
///
/// `Circle().path(in: CGRect(x: 0, y: 0, width: 100, height: 40)).boundingRect` → (30, 0, 40, 40).
/// A null rect gives an empty path; an infinite rect gives the rectangle (as SwiftUI).
public struct Circle: InsettableShape {
    public init() {}
    public func inset(by amount: CGFloat) -> some InsettableShape { _Inset(amount: amount) }

    /// The circle of the rect inset by `amount`.
    public struct _Inset: InsettableShape {
        public var amount: CGFloat
        public func path(in rect: CGRect) -> Path { Circle().path(in: insetRect(rect, amount)) }
        public func inset(by amount: CGFloat) -> Circle._Inset { _Inset(amount: self.amount + amount) }
    }

    public func path(in rect: CGRect) -> Path {
        guard !rect.isNull else { return Path() }
        if rect.isInfinite { return Path(rect) }
        let r = rect.standardized
        let side = min(r.width, r.height)
        return Path(ellipseIn: CGRect(x: r.midX - side / 2, y: r.midY - side / 2, width: side, height: side))
    }
}

/// An ellipse filling its frame: `Ellipse().path(in: r) == Path(ellipseIn: r)`.
public struct Ellipse: InsettableShape {
    public init() {}
    public func path(in rect: CGRect) -> Path { Path(ellipseIn: rect) }
    public func inset(by amount: CGFloat) -> some InsettableShape { _Inset(amount: amount) }

    /// The ellipse of the rect inset by `amount`.
    public struct _Inset: InsettableShape {
        public var amount: CGFloat
        public func path(in rect: CGRect) -> Path { Path(ellipseIn: insetRect(rect, amount)) }
        public func inset(by amount: CGFloat) -> Ellipse._Inset { _Inset(amount: self.amount + amount) }
    }
}

/// A rectangle whose shorter sides are fully rounded.
///
/// `Capsule(style: .circular).path(in: CGRect(x: 0, y: 0, width: 100, height: 40))` has corner radius 20.
public struct Capsule: InsettableShape {
    public var style: RoundedCornerStyle

    public init(style: RoundedCornerStyle = .continuous) { self.style = style }

    public func inset(by amount: CGFloat) -> some InsettableShape { _Inset(amount: amount, style: style) }

    /// The capsule of the rect inset by `amount`.
    public struct _Inset: InsettableShape {
        public var amount: CGFloat
        var style: RoundedCornerStyle
        public func path(in rect: CGRect) -> Path { Capsule(style: style).path(in: insetRect(rect, amount)) }
        public func inset(by amount: CGFloat) -> Capsule._Inset { _Inset(amount: self.amount + amount, style: style) }
    }

    public func path(in rect: CGRect) -> Path {
        guard !rect.isNull else { return Path() }
        let r = rect.standardized
        return Path(roundedRect: r, cornerRadius: min(r.width, r.height) / 2, style: style)
    }
}

/// A shape that can be inset by an amount on every edge: `strokeBorder` strokes it inset by half the line
/// width, so the stroke stays inside the frame.
///
/// `Circle().inset(by: 4).path(in: CGRect(x: 0, y: 0, width: 20, height: 20)).boundingRect` → (4, 4, 12, 12).
public protocol InsettableShape: Shape {
    associatedtype InsetShape: InsettableShape
    /// The shape inset by `amount` on every edge (a negative amount grows it).
    func inset(by amount: CGFloat) -> InsetShape
}

/// `rect` inset by `amount` on every edge; an inset past the centre leaves an empty rect at the centre.
func insetRect(_ rect: CGRect, _ amount: CGFloat) -> CGRect {
    guard amount != 0, !rect.isNull, !rect.isInfinite else { return rect }
    let r = rect.standardized
    let dx = min(amount, r.width / 2), dy = min(amount, r.height / 2)
    return CGRect(x: r.minX + dx, y: r.minY + dy, width: r.width - 2 * dx, height: r.height - 2 * dy)
}

// MARK: Shapes made from shapes (SwiftUI's `OffsetShape`, `RotatedShape`, `ScaledShape`, `TransformedShape`).

/// A shape moved by `offset`.
public struct OffsetShape<Content: Shape>: Shape {
    public var shape: Content
    public var offset: CGSize
    public init(shape: Content, offset: CGSize) { self.shape = shape; self.offset = offset }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).offsetBy(dx: offset.width, dy: offset.height) }
}

extension OffsetShape: InsettableShape where Content: InsettableShape {
    public func inset(by amount: CGFloat) -> OffsetShape<Content.InsetShape> {
        OffsetShape<Content.InsetShape>(shape: shape.inset(by: amount), offset: offset)
    }
}

/// A shape rotated by `angle` (clockwise on screen) about `anchor` of the rect.
public struct RotatedShape<Content: Shape>: Shape {
    public var shape: Content
    public var angle: Angle
    public var anchor: UnitPoint
    public init(shape: Content, angle: Angle, anchor: UnitPoint = .center) {
        self.shape = shape; self.angle = angle; self.anchor = anchor
    }
    public func path(in rect: CGRect) -> Path {
        let a = anchor.point(in: rect)
        let t = CGAffineTransform(translationX: -a.x, y: -a.y)
            .concatenating(CGAffineTransform(rotationAngle: CGFloat(angle.radians)))
            .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
        return shape.path(in: rect).applying(t)
    }
}

extension RotatedShape: InsettableShape where Content: InsettableShape {
    public func inset(by amount: CGFloat) -> RotatedShape<Content.InsetShape> {
        RotatedShape<Content.InsetShape>(shape: shape.inset(by: amount), angle: angle, anchor: anchor)
    }
}

/// A shape scaled about `anchor` of the rect.
public struct ScaledShape<Content: Shape>: Shape {
    public var shape: Content
    public var scale: CGSize
    public var anchor: UnitPoint
    public init(shape: Content, scale: CGSize, anchor: UnitPoint = .center) {
        self.shape = shape; self.scale = scale; self.anchor = anchor
    }
    public func path(in rect: CGRect) -> Path {
        let a = anchor.point(in: rect)
        let t = CGAffineTransform(translationX: -a.x, y: -a.y)
            .concatenating(CGAffineTransform(scaleX: scale.width, y: scale.height))
            .concatenating(CGAffineTransform(translationX: a.x, y: a.y))
        return shape.path(in: rect).applying(t)
    }
}

/// A shape with an affine transform applied to its path.
public struct TransformedShape<Content: Shape>: Shape {
    public var shape: Content
    public var transform: CGAffineTransform
    public init(shape: Content, transform: CGAffineTransform) { self.shape = shape; self.transform = transform }
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).applying(transform) }
}

/// The part of a shape's outline between two fractions of its length (`trim(from:to:)`).
public struct _TrimmedShape<Content: Shape>: Shape {
    public var shape: Content
    public var startFraction: CGFloat
    public var endFraction: CGFloat
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).trimmedPath(from: startFraction, to: endFraction) }
}

/// A shape's outline stroked with `style`, as a shape: filling it paints the stroke.
public struct _StrokedShape<Content: Shape>: Shape {
    public var shape: Content
    public var style: StrokeStyle
    public func path(in rect: CGRect) -> Path { shape.path(in: rect).strokedPath(style) }
}

extension Shape {
    /// The shape moved by `offset`: `Rectangle().offset(CGSize(width: 5, height: 0)).path(in: r)` is `r` moved right 5.
    public func offset(_ offset: CGSize) -> OffsetShape<Self> { OffsetShape(shape: self, offset: offset) }

    /// The shape moved by (x, y).
    public func offset(_ offset: CGPoint) -> OffsetShape<Self> {
        OffsetShape(shape: self, offset: CGSize(width: offset.x, height: offset.y))
    }

    /// The shape moved by (x, y).
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> OffsetShape<Self> {
        OffsetShape(shape: self, offset: CGSize(width: x, height: y))
    }

    /// The shape rotated by `angle` about `anchor` of the rect it is drawn in.
    public func rotation(_ angle: Angle, anchor: UnitPoint = .center) -> RotatedShape<Self> {
        RotatedShape(shape: self, angle: angle, anchor: anchor)
    }

    /// The shape scaled by x and y about `anchor` of the rect it is drawn in.
    public func scale(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> ScaledShape<Self> {
        ScaledShape(shape: self, scale: CGSize(width: x, height: y), anchor: anchor)
    }

    /// The shape scaled by `scale` in both directions about `anchor`.
    public func scale(_ scale: CGFloat, anchor: UnitPoint = .center) -> ScaledShape<Self> {
        ScaledShape(shape: self, scale: CGSize(width: scale, height: scale), anchor: anchor)
    }

    /// The shape's path transformed by `transform`.
    public func transform(_ transform: CGAffineTransform) -> TransformedShape<Self> {
        TransformedShape(shape: self, transform: transform)
    }

    /// The part of the outline from `startFraction` to `endFraction` of its length (0…1).
    public func trim(from startFraction: CGFloat = 0, to endFraction: CGFloat = 1) -> some Shape {
        _TrimmedShape(shape: self, startFraction: startFraction, endFraction: endFraction)
    }

    /// The outline stroked with `style`, as a shape (iOS 17): `Circle().stroke(style: s).path(in: r)` is the
    /// stroke's outline; as a view it draws the stroke in the foreground style.
    public func stroke(style: StrokeStyle) -> some Shape { _StrokedShape(shape: self, style: style) }

    /// The outline stroked `lineWidth` wide, as a shape.
    public func stroke(lineWidth: CGFloat = 1) -> some Shape {
        _StrokedShape(shape: self, style: StrokeStyle(lineWidth: lineWidth))
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
