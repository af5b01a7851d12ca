/// A geometric angle, stored in radians (SwiftUI's `Angle`).
///
/// ```swift
/// Angle.degrees(90).radians      // 1.5707963…
/// .degrees(30) + .degrees(60)    // 90°
/// ```
public struct Angle: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var radians: Double
    public var degrees: Double {
        get { radians * (180.0 / .pi) }
        set { radians = newValue * (.pi / 180.0) }
    }
    public init() { radians = 0 }
    public init(radians: Double) { self.radians = radians }
    public init(degrees: Double) { self.radians = degrees * (.pi / 180.0) }

    public static var zero: Angle { Angle() }
    public static func radians(_ r: Double) -> Angle { Angle(radians: r) }
    public static func degrees(_ d: Double) -> Angle { Angle(degrees: d) }

    public static func < (l: Angle, r: Angle) -> Bool { l.radians < r.radians }
    public static func + (l: Angle, r: Angle) -> Angle { Angle(radians: l.radians + r.radians) }
    public static func - (l: Angle, r: Angle) -> Angle { Angle(radians: l.radians - r.radians) }
    public static prefix func - (a: Angle) -> Angle { Angle(radians: -a.radians) }
    public static func * (l: Angle, r: Double) -> Angle { Angle(radians: l.radians * r) }
    public static func * (l: Double, r: Angle) -> Angle { Angle(radians: l * r.radians) }
    public static func / (l: Angle, r: Double) -> Angle { Angle(radians: l.radians / r) }
    public static func += (l: inout Angle, r: Angle) { l.radians += r.radians }
    public static func -= (l: inout Angle, r: Angle) { l.radians -= r.radians }
    public static func *= (l: inout Angle, r: Double) { l.radians *= r }
    public static func /= (l: inout Angle, r: Double) { l.radians /= r }

    public var description: String { "Angle(degrees: \(degrees))" }
}

/// A point in a unit coordinate space: (0, 0) is the top-leading corner, (1, 1) the bottom-trailing one.
public struct UnitPoint: Hashable, Sendable, CustomStringConvertible {
    public var x: CGFloat
    public var y: CGFloat
    public init() { x = 0; y = 0 }
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }

    public static let zero = UnitPoint(x: 0, y: 0)
    public static let topLeading = UnitPoint(x: 0, y: 0)
    public static let top = UnitPoint(x: 0.5, y: 0)
    public static let topTrailing = UnitPoint(x: 1, y: 0)
    public static let leading = UnitPoint(x: 0, y: 0.5)
    public static let center = UnitPoint(x: 0.5, y: 0.5)
    public static let trailing = UnitPoint(x: 1, y: 0.5)
    public static let bottomLeading = UnitPoint(x: 0, y: 1)
    public static let bottom = UnitPoint(x: 0.5, y: 1)
    public static let bottomTrailing = UnitPoint(x: 1, y: 1)

    /// The point `(x·w, y·h)` from the rect's origin: `UnitPoint.center.point(in: CGRect(x: 0, y: 0, width: 10, height: 4))` → (5, 2).
    package func point(in rect: CGRect) -> CGPoint {
        CGPoint(x: rect.minX + x * rect.width, y: rect.minY + y * rect.height)
    }

    public var description: String { "UnitPoint(x: \(x), y: \(y))" }
}
