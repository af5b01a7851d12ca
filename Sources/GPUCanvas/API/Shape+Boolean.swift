// Boolean operations on shapes (iOS 17): `Circle().subtracting(Rectangle().offset(x: 20))` is a shape whose
// path, in any rect, is the two shapes' paths in that rect combined by the `Path` operation of the same name
// (Path+Boolean.swift, through Clipper; its tolerances and bounds apply).

/// Two shapes combined by a path boolean operation, each fitted to the same rect.
public struct _BooleanShape<First: Shape, Second: Shape>: Shape {
    /// Which `Path` operation combines the two paths.
    public enum Operation: Sendable {
        case union, intersection, subtracting, symmetricDifference, lineIntersection, lineSubtraction
    }

    public var first: First
    public var second: Second
    public var operation: Operation
    public var eoFill: Bool

    public func path(in rect: CGRect) -> Path {
        let a = first.path(in: rect), b = second.path(in: rect)
        switch operation {
        case .union: return a.union(b, eoFill: eoFill)
        case .intersection: return a.intersection(b, eoFill: eoFill)
        case .subtracting: return a.subtracting(b, eoFill: eoFill)
        case .symmetricDifference: return a.symmetricDifference(b, eoFill: eoFill)
        case .lineIntersection: return a.lineIntersection(b, eoFill: eoFill)
        case .lineSubtraction: return a.lineSubtraction(b, eoFill: eoFill)
        }
    }

    /// The first shape's size: it is the shape the others cut or extend.
    public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize { first.sizeThatFits(proposal) }
}

extension Shape {
    /// The region in this shape or in `other`: `Circle().union(Rectangle().offset(x: 50))`.
    public func union<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .union, eoFill: eoFill)
    }

    /// The region in both this shape and `other`.
    public func intersection<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .intersection, eoFill: eoFill)
    }

    /// The region in this shape and not in `other`.
    public func subtracting<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .subtracting, eoFill: eoFill)
    }

    /// The region in one of this shape and `other`, not both.
    public func symmetricDifference<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .symmetricDifference, eoFill: eoFill)
    }

    /// This shape's outline where it lies inside `other`'s filled region (clipped subpaths are open).
    public func lineIntersection<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .lineIntersection, eoFill: eoFill)
    }

    /// This shape's outline where it lies outside `other`'s filled region (clipped subpaths are open).
    public func lineSubtraction<T: Shape>(_ other: T, eoFill: Bool = false) -> some Shape {
        _BooleanShape(first: self, second: other, operation: .lineSubtraction, eoFill: eoFill)
    }
}
