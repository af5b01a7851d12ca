// SwiftUI's animation arithmetic: `VectorArithmetic`, `AnimatablePair` and `Animatable`, as a value-level API
// (a user interpolates two values' `animatableData`). Apple's value types conform in
// `Animatable+Conformances.swift` (`Color.Resolved` in its own file); the views animate modifiers through their
// own nodes (GPUCanvas/Views) and shapes and text renderers through `animatableData`.

import Foundation

/// A value that can be added, subtracted and scaled: what an animation interpolates.
///
/// `Float(2).scaled(by: 0.5)` is 1; `AnimatablePair(1.0, 2.0).magnitudeSquared` is 5.
public protocol VectorArithmetic: AdditiveArithmetic {
    /// Multiplies every component by `rhs`.
    mutating func scale(by rhs: Double)
    /// The dot product of the value with itself.
    var magnitudeSquared: Double { get }
}

extension VectorArithmetic {
    /// A copy with every component multiplied by `rhs`.
    public func scaled(by rhs: Double) -> Self {
        var v = self
        v.scale(by: rhs)
        return v
    }

    /// Moves this value `amount` of the way to `other` (0 leaves it, 1 reaches `other`).
    public mutating func interpolate(towards other: Self, amount: Double) {
        self = interpolated(towards: other, amount: amount)
    }

    /// This value moved `amount` of the way to `other`: self + (other − self) × amount.
    public func interpolated(towards other: Self, amount: Double) -> Self {
        self + (other - self).scaled(by: amount)
    }
}

extension Float: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self = Float(Double(self) * rhs) }
    public var magnitudeSquared: Double { Double(self) * Double(self) }
}

extension Double: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self *= rhs }
    public var magnitudeSquared: Double { self * self }
}

extension CGFloat: VectorArithmetic {
    public mutating func scale(by rhs: Double) { self = CGFloat(Double(self) * rhs) }
    public var magnitudeSquared: Double { Double(self) * Double(self) }
}

/// Two animatable values animated together (nest pairs for more).
public struct AnimatablePair<First: VectorArithmetic, Second: VectorArithmetic>: VectorArithmetic {
    public var first: First
    public var second: Second

    public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }

    public static var zero: AnimatablePair { AnimatablePair(.zero, .zero) }

    public static func + (lhs: AnimatablePair, rhs: AnimatablePair) -> AnimatablePair {
        AnimatablePair(lhs.first + rhs.first, lhs.second + rhs.second)
    }

    public static func - (lhs: AnimatablePair, rhs: AnimatablePair) -> AnimatablePair {
        AnimatablePair(lhs.first - rhs.first, lhs.second - rhs.second)
    }

    public mutating func scale(by rhs: Double) {
        first.scale(by: rhs)
        second.scale(by: rhs)
    }

    public var magnitudeSquared: Double { first.magnitudeSquared + second.magnitudeSquared }
}

extension AnimatablePair: Sendable where First: Sendable, Second: Sendable {}
extension AnimatablePair: Hashable where First: Hashable, Second: Hashable {}

/// A type whose value an animation can interpolate, through `animatableData`.
public protocol Animatable {
    associatedtype AnimatableData: VectorArithmetic
    var animatableData: AnimatableData { get set }
}

/// The animatable data of a type with nothing to animate: zero-sized, always `.zero`.
public struct EmptyAnimatableData: VectorArithmetic, Hashable, Sendable {
    public init() {}
    public static var zero: EmptyAnimatableData { EmptyAnimatableData() }
    public static func + (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { .zero }
    public static func - (lhs: EmptyAnimatableData, rhs: EmptyAnimatableData) -> EmptyAnimatableData { .zero }
    public mutating func scale(by rhs: Double) {}
    public var magnitudeSquared: Double { 0 }
}

extension Animatable where AnimatableData == EmptyAnimatableData {
    /// Nothing to animate (SwiftUI's default for a type that declares no `animatableData`).
    public var animatableData: EmptyAnimatableData {
        get { EmptyAnimatableData() }
        set {}
    }
}
