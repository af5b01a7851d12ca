// Path boolean operations (SwiftUI `Path`, iOS 17): combining filled regions and clipping lines, computed by
// Clipper through `Geometry/PathBoolean.swift`, whose file comment gives the flattening, the integer grid and
// the resulting precision.
//
// Decisions where Apple is silent:
// - Results are straight-edged: curves are flattened at 0.05 user units (`Flatten.tolerance`), and every
//   edge of a result lies within 0.05 + M·2⁻²⁹ units of the exact outline (M: the largest coordinate
//   magnitude of both operands).
// - Filled results are closed subpaths, outer contours and holes, that never overlap or cross: filling them
//   by either rule gives the same region.
// - A NaN or infinite coordinate in either operand gives an empty path (as `trimmedPath`); so do an operand
//   that flattens past 16 M points (`PathBoolean.maxPoints`, as `strokedPath` past its bound) and an operation
//   Clipper reports an error for. Empty, one-point and zero-area operands enclose nothing.
// - `lineIntersection`/`lineSubtraction` clip every subpath of `self` as a line, a closed subpath with its
//   closing segment; a subpath kept whole comes back closed, clipped ones as open polylines.
import CClipper

extension Path {
    /// The region filled by this path or by `other` (or both), each filled by the non-zero rule, or by
    /// even-odd when `eoFill`. Unclosed subpaths count as closed. Two overlapping 10×10 squares offset by 5
    /// give a region of area 175: `Path(CGRect(x: 0, y: 0, width: 10, height: 10)).union(Path(CGRect(x: 5, y: 5, width: 10, height: 10)))`.
    public func union(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.fill(CClipperUnion, self, other, evenOdd: eoFill)
    }

    /// The region filled by both this path and `other` (area 25 for the squares of `union`).
    public func intersection(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.fill(CClipperIntersection, self, other, evenOdd: eoFill)
    }

    /// The region this path fills with `other`'s removed (area 75 for the squares of `union`).
    public func subtracting(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.fill(CClipperDifference, self, other, evenOdd: eoFill)
    }

    /// The region filled by exactly one of the two paths (area 150 for the squares of `union`).
    public func symmetricDifference(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.fill(CClipperXor, self, other, evenOdd: eoFill)
    }

    /// The parts of this path's line inside `other`'s filled region, as open subpaths; a closed subpath wholly
    /// inside stays closed. `Path { $0.move(to: CGPoint(x: -5, y: 5)); $0.addLine(to: CGPoint(x: 15, y: 5)) }`
    /// against the 10×10 square at the origin gives the line from (0, 5) to (10, 5).
    public func lineIntersection(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.line(CClipperIntersection, self, other, evenOdd: eoFill)
    }

    /// The parts of this path's line outside `other`'s filled region (for the line of `lineIntersection`: the
    /// two 5-unit pieces outside the square).
    public func lineSubtraction(_ other: Path, eoFill: Bool = false) -> Path {
        PathBoolean.line(CClipperDifference, self, other, evenOdd: eoFill)
    }

    /// A copy with the same filled region (even-odd by default, as SwiftUI) made of non-crossing closed
    /// contours: a self-intersecting five-pointed star filled even-odd becomes its five points, without the
    /// pentagon in the middle.
    public func normalized(eoFill: Bool = true) -> Path {
        PathBoolean.fill(CClipperUnion, self, Path(), evenOdd: eoFill)
    }
}
