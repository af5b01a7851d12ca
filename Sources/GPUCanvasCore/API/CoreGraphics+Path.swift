// CoreGraphics' path classes, `CGPath` and `CGMutablePath`, as a thin shell around `Path`.
//
// Design note. A CGPath holds a `Path` value and nothing else: every constructor, builder and query forwards to
// the one path engine (`Path.swift`, `Path+Shapes.swift`, `Path+Queries.swift`, `Path+Stroke.swift`), so
// arcs, ellipses, rounded rects, bounds, hit tests, stroking and dashing have one implementation and
// `Path(cgPath)` is the same elements, not a conversion. As in CoreGraphics, `CGMutablePath` is a subclass of
// `CGPath`, `copy()` gives an immutable snapshot and `mutableCopy()` an independent mutable path (the storage is
// a value, so copies never alias).
//
// Decisions:
// - Builders take CoreGraphics' Swift signatures: transforms by value with `.identity` defaults on
//   `CGMutablePath`, by `UnsafePointer<CGAffineTransform>?` on the `CGPath(rect:transform:)` family and
//   `copy(using:)` (`nil` or `&t`), angles in radians.
// - CoreGraphics asserts (crashes) on a rounded rect whose corner size exceeds half the rect; here corners are
//   clamped to half the rect (`Path.addRoundedRect`), and negative sizes count as 0.
// - `currentPoint` of an empty path is `.zero`, as CGPathGetCurrentPoint.
// - `boundingBox` includes control points (CGPathGetBoundingBox); `boundingBoxOfPath` is the tight box
//   (`Path.boundingRect`). Both are `CGRect.null` for an empty path.
// - `copy(strokingWithWidth:…)` is `Path.strokedPath`: straight closed contours whose non-zero fill is the
//   stroke; `copy(dashingWithPhase:lengths:)` is `Path.dashedPath`: straight open dashes (curves flattened at
//   the stroker's tolerance, 0.05 units, in the path's own space).
// - The boolean operations (`union(_:using:)` … `componentsSeparated(using:)`) are `Path+Boolean.swift`'s, with
//   `CGPathFillRule` for `eoFill`; `flattened(threshold:)` keeps the element structure, curves become lines.
// - `Path(cgPath)` / `path.cgPath` copy the elements: a later change to a `CGMutablePath` does not reach a
//   `Path` made from it.
import CClipper
import Foundation

/// The kind of a `CGPathElement` (raw values as in CoreGraphics).
public enum CGPathElementType: Int32, Sendable, Hashable {
    case moveToPoint = 0, addLineToPoint = 1, addQuadCurveToPoint = 2, addCurveToPoint = 3, closeSubpath = 4
}

/// One element of a CGPath as `applyWithBlock` hands it: a type and its points (1 for a move or line, 2 for a
/// quad curve — control then end — 3 for a cubic — control 1, control 2, end — none for a close). The points
/// are valid only during the block call, as in CoreGraphics.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>
    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// The fill rule of `CGPath.contains(_:using:transform:)` and `CGContext.fillPath(using:)`.
public enum CGPathFillRule: Int, Sendable, Hashable {
    case winding = 0, evenOdd = 1
}

/// An immutable path (CoreGraphics' `CGPath`): `CGPath(ellipseIn: rect, transform: nil)`.
///
/// Immutable instances are safe to share between threads; a `CGMutablePath` must not be mutated while it is
/// read elsewhere (CoreGraphics' rule).
open class CGPath: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// The elements; only `CGMutablePath`'s builders change them.
    package var path: Path

    package init(path: Path) { self.path = path }

    /// A rectangle: move to (minX, minY), three lines, close.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(path: Path { $0.addRect(rect, transform: transform?.pointee ?? .identity) })
    }

    /// An ellipse inscribed in `rect` (four cubics from (maxX, midY)).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(path: Path { $0.addEllipse(in: rect, transform: transform?.pointee ?? .identity) })
    }

    /// A rounded rectangle with elliptical corners `cornerWidth` × `cornerHeight` (clamped to half the rect).
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init(path: Path {
            $0.addRoundedRect(in: rect, cornerSize: CGSize(width: cornerWidth, height: cornerHeight), style: .circular,
                              transform: transform?.pointee ?? .identity)
        })
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool { lhs.path == rhs.path }

    /// The path in SwiftUI's description grammar: `"0 0 m 10 0 l h"`.
    public var description: String { path.description }

    /// True when the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The end of the last element (the subpath's start after a close); `.zero` for an empty path.
    public var currentPoint: CGPoint { path.currentPoint ?? .zero }

    /// The box of every point, control points included; `.null` when empty.
    public var boundingBox: CGRect {
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for e in path.elements {
            for p in e.points {
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The tight box of the path (curves at their extrema, no control points); `.null` when empty.
    public var boundingBoxOfPath: CGRect { path.boundingRect }

    /// True when `point` lies inside this path mapped by `transform`, filled with `rule`.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        path.applying(transform).contains(point, eoFill: rule == .evenOdd)
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(path: path) }

    /// An independent mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(path: path) }

    /// An immutable copy with every point mapped by `transform` (nil: unchanged).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(path: path.applying(transform?.pointee ?? .identity))
    }

    /// A mutable copy with every point mapped by `transform` (nil: unchanged).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        CGMutablePath(path: path.applying(transform?.pointee ?? .identity))
    }

    /// The outline of this path stroked with the given pen, as a fillable path (`Path.strokedPath`), then
    /// mapped by `transform`.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let style = StrokeStyle(lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit)
        return CGPath(path: path.strokedPath(style).applying(transform))
    }

    /// The dashes of `lengths` starting `phase` into the pattern, as open subpaths (`Path.dashedPath`), then
    /// mapped by `transform`.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        CGPath(path: path.dashedPath(phase: phase, lengths: lengths).applying(transform))
    }

    /// Calls `block` with each element in order.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let points = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        defer { points.deallocate() }
        points.initialize(repeating: .zero, count: 3)
        for e in path.elements {
            let type: CGPathElementType
            switch e {
            case .move(let p): type = .moveToPoint; points[0] = p
            case .line(let p): type = .addLineToPoint; points[0] = p
            case .quadCurve(let p, let c): type = .addQuadCurveToPoint; points[0] = c; points[1] = p
            case .curve(let p, let c1, let c2):
                type = .addCurveToPoint; points[0] = c1; points[1] = c2; points[2] = p
            case .closeSubpath: type = .closeSubpath
            }
            var element = CGPathElement(type: type, points: points)
            withUnsafePointer(to: &element) { block($0) }
        }
    }
}

extension CGPath {
    /// The region filled by this path or `other` (`Path.union`, with `rule` for both): closed straight
    /// contours, curves flattened at 0.05 units (see `Path+Boolean.swift`).
    public func union(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.union(other.path, eoFill: rule == .evenOdd))
    }

    /// The region filled by both paths (`Path.intersection`).
    public func intersection(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.intersection(other.path, eoFill: rule == .evenOdd))
    }

    /// This path's region with `other`'s removed (`Path.subtracting`).
    public func subtracting(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.subtracting(other.path, eoFill: rule == .evenOdd))
    }

    /// The region filled by exactly one of the paths (`Path.symmetricDifference`).
    public func symmetricDifference(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.symmetricDifference(other.path, eoFill: rule == .evenOdd))
    }

    /// This path's line inside `other`'s fill (`Path.lineIntersection`).
    public func lineIntersection(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.lineIntersection(other.path, eoFill: rule == .evenOdd))
    }

    /// This path's line outside `other`'s fill (`Path.lineSubtraction`).
    public func lineSubtraction(_ other: CGPath, using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.lineSubtraction(other.path, eoFill: rule == .evenOdd))
    }

    /// The same region as non-crossing closed contours (`Path.normalized`; non-zero by default here, as
    /// CoreGraphics, where SwiftUI's default is even-odd).
    public func normalized(using rule: CGPathFillRule = .winding) -> CGPath {
        CGPath(path: path.normalized(eoFill: rule == .evenOdd))
    }

    /// The filled region split into its connected parts, each an outer contour with its holes (an island in a
    /// hole is a part of its own); empty for an empty or non-finite path.
    public func componentsSeparated(using rule: CGPathFillRule = .winding) -> [CGPath] {
        PathBoolean.components(CClipperUnion, path, Path(), evenOdd: rule == .evenOdd).map { CGPath(path: $0) }
    }

    /// A copy with every curve replaced by straight lines within `threshold` units of it, moves and closes kept.
    /// A zero, negative or NaN threshold gives the finest flattening (4096 lines a curve); a non-finite
    /// coordinate gives an empty path.
    public func flattened(threshold: CGFloat) -> CGPath {
        CGPath(path: PathBoolean.flattened(path, threshold: Double(threshold)))
    }
}

/// A path under construction (CoreGraphics' `CGMutablePath`). Each builder forwards to the `Path` builder of
/// the same name; `transform` maps the new element's points.
open class CGMutablePath: CGPath, @unchecked Sendable {
    /// An empty path.
    public convenience init() { self.init(path: Path()) }

    package override init(path: Path) { super.init(path: path) }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.move(to: point.applying(transform))
    }

    /// A line from the current point (on an empty path: a move, as `Path.addLine`).
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.addLine(to: point.applying(transform))
    }

    /// A move to the first point, then lines through the others.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        path.addLines(points.map { $0.applying(transform) })
    }

    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        path.addQuadCurve(to: end.applying(transform), control: control.applying(transform))
    }

    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        path.addCurve(to: end.applying(transform), control1: control1.applying(transform),
                      control2: control2.applying(transform))
    }

    /// An arc from `startAngle` to `endAngle` (radians) around `center`; `clockwise` as in CoreGraphics (on a
    /// y-down canvas `clockwise: false` looks clockwise: see `Path.addArc(center:…)`).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        path.addArc(center: center, radius: radius, startAngle: .radians(Double(startAngle)),
                    endAngle: .radians(Double(endAngle)), clockwise: clockwise, transform: transform)
    }

    /// An arc of `radius` tangent to the lines current point → `tangent1End` → `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: transform)
    }

    /// An arc of `delta` radians from `startAngle`.
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        path.addRelativeArc(center: center, radius: radius, startAngle: .radians(Double(startAngle)),
                            delta: .radians(Double(delta)), transform: transform)
    }

    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addRect(rect, transform: transform)
    }

    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        path.addRects(rects, transform: transform)
    }

    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addEllipse(in: rect, transform: transform)
    }

    /// A rounded rectangle with elliptical corners (clamped to half the rect).
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        path.addRoundedRect(in: rect, cornerSize: CGSize(width: cornerWidth, height: cornerHeight), style: .circular,
                            transform: transform)
    }

    /// Appends `path`'s elements, mapped by `transform`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        self.path.addPath(path.path, transform: transform)
    }

    public func closeSubpath() { path.closeSubpath() }
}

extension Path {
    /// The elements of a CoreGraphics path: `Path(CGPath(ellipseIn: rect, transform: nil)) == Path(ellipseIn: rect)`.
    public init(_ path: CGPath) { self = path.path }

    /// The elements of a mutable CoreGraphics path as they are now.
    public init(_ path: CGMutablePath) { self = path.path }

    /// This path as an immutable CoreGraphics path.
    public var cgPath: CGPath { CGPath(path: self) }
}
