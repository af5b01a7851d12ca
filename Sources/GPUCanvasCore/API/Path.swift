/// The outline of a 2D shape (SwiftUI's `Path`): a list of elements in user space.
///
/// This file holds the storage and the element-level builders. Shapes and arcs are in `Path+Shapes.swift`,
/// the text grammar in `Path+Description.swift`, bounds, hit-testing and trimming in `Path+Queries.swift`.
///
/// Decisions where SwiftUI's documentation is silent:
/// - `addLine`, `addQuadCurve` and `addCurve` on an **empty** path have no start point to draw from; they
///   start a subpath at the element's end point instead (the element becomes a `move`). CoreGraphics
///   rejects such calls with a console warning; a `move` keeps the end point as the current point, which is
///   what the caller's next element expects.
/// - After `closeSubpath`, an element without a `move` starts a new subpath at the closed subpath's start
///   point (CoreGraphics' rule); the stored elements stay exactly as added.
/// - Builders store coordinates as given, NaN and infinities included. Drawing validates a path before use
///   (`isFinite`); the queries in `Path+Queries.swift` return documented safe results for such paths.
///
/// ```swift
/// var p = Path()
/// p.move(to: CGPoint(x: 10, y: 10))
/// p.addLine(to: CGPoint(x: 90, y: 10))
/// p.closeSubpath()
/// p.description   // "10 10 m 90 10 l h"
/// ```
public struct Path: Equatable, Sendable {
    /// One element of a path. `forEach` is the only public way to walk them (as in SwiftUI).
    public enum Element: Equatable, Sendable {
        /// Ends the current subpath (without closing it) and starts a new one at the point.
        case move(to: CGPoint)
        /// A straight line from the current point.
        case line(to: CGPoint)
        /// A quadratic Bézier curve from the current point.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier curve from the current point.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// A line back to the subpath's start point, which ends the subpath.
        case closeSubpath
    }

    /// The elements, in order. Internal: consumers in the module (geometry, encoders) read it directly.
    package var elements: [Element] = []

    /// An empty path: `Path().isEmpty` → `true`.
    public init() {}

    /// Runs `callback` on an empty path: `Path { $0.addRect(r) }` equals `Path(r)`.
    public init(_ callback: (inout Path) -> ()) {
        var p = Path()
        callback(&p)
        self = p
    }

    /// A rectangle, as `addRect`: `Path(CGRect(x: 0, y: 0, width: 2, height: 1)).description`
    /// → `"0 0 m 2 0 l 2 1 l 0 1 l h"`. A null rect gives an empty path.
    public init(_ rect: CGRect) { addRect(rect) }

    package init(elements: [Element]) { self.elements = elements }

    /// True when the path has no elements: `Path().isEmpty` → true, `Path { $0.move(to: .zero) }.isEmpty` → false.
    public var isEmpty: Bool { elements.isEmpty }

    /// The last point of the path: the end of the last element, or the start of the subpath after a close;
    /// nil for an empty path. `Path(CGRect(x: 1, y: 2, width: 3, height: 4)).currentPoint` → (1, 2).
    public var currentPoint: CGPoint? {
        guard let last = elements.last else { return nil }
        switch last {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): return p
        case .closeSubpath: return subpathStart
        }
    }

    /// The start point of the last subpath (where a close returns to), nil for an empty path.
    package var subpathStart: CGPoint? {
        for e in elements.reversed() { if case .move(let p) = e { return p } }
        return nil
    }

    /// True when the last element leaves a subpath open that a line can continue.
    package var hasOpenSubpath: Bool {
        guard let last = elements.last else { return false }
        if case .closeSubpath = last { return false }
        return true
    }

    /// Calls `body` with each element in order:
    /// `Path(CGRect(x: 0, y: 0, width: 1, height: 1)).forEach { print($0) }` prints a move, three lines and a close.
    public func forEach(_ body: (Element) -> Void) {
        for e in elements { body(e) }
    }

    // MARK: Element builders

    /// Starts a new subpath at `end`.
    public mutating func move(to end: CGPoint) { elements.append(.move(to: end)) }

    /// Adds a line from the current point; on an empty path this starts a subpath at `end` instead.
    public mutating func addLine(to end: CGPoint) {
        if elements.isEmpty { move(to: end); return }
        elements.append(.line(to: end))
    }

    /// Adds a quadratic Bézier from the current point; on an empty path this starts a subpath at `end`.
    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        if elements.isEmpty { move(to: end); return }
        elements.append(.quadCurve(to: end, control: control))
    }

    /// Adds a cubic Bézier from the current point; on an empty path this starts a subpath at `end`.
    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if elements.isEmpty { move(to: end); return }
        elements.append(.curve(to: end, control1: control1, control2: control2))
    }

    /// Closes the current subpath. Does nothing on an empty path or right after another close.
    public mutating func closeSubpath() {
        guard hasOpenSubpath else { return }
        elements.append(.closeSubpath)
    }

    /// A move to the first point, then lines to the others; an empty array adds nothing.
    /// `Path { $0.addLines([.zero, CGPoint(x: 1, y: 0)]) }.description` → `"0 0 m 1 0 l"`.
    public mutating func addLines(_ lines: [CGPoint]) {
        guard let first = lines.first else { return }
        move(to: first)
        for p in lines.dropFirst() { elements.append(.line(to: p)) }
    }

    /// `m(minX,minY) l(maxX,minY) l(maxX,maxY) l(minX,maxY) h` (CGPathAddRect's order), each point
    /// transformed. A null rect adds nothing; a negative size is standardized first.
    public mutating func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
        elements.append(.move(to: pts[0].applying(transform)))
        for p in pts.dropFirst() { elements.append(.line(to: p.applying(transform))) }
        elements.append(.closeSubpath)
    }

    /// One closed subpath per rect, in order.
    public mutating func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// Appends every element of `path`, transformed. The appended path keeps its own moves.
    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {
        elements.append(contentsOf: transform.isIdentity ? path.elements : path.applying(transform).elements)
    }

    // MARK: Transforming

    /// The path with every point (control points included) mapped by `transform`:
    /// `Path(CGRect(x: 0, y: 0, width: 1, height: 1)).applying(CGAffineTransform(scaleX: 2, y: 3)).boundingRect`
    /// → (0, 0, 2, 3).
    public func applying(_ transform: CGAffineTransform) -> Path {
        if transform.isIdentity { return self }
        return Path(elements: elements.map { $0.applying(transform) })
    }

    /// The path translated: `Path(CGRect(x: 0, y: 0, width: 1, height: 1)).offsetBy(dx: 5, dy: 0).currentPoint` → (5, 0).
    public func offsetBy(dx: CGFloat, dy: CGFloat) -> Path {
        applying(CGAffineTransform(translationX: dx, y: dy))
    }

    /// Appends an element as given (used by the description parser and the scene loader).
    package mutating func append(_ element: Element) { elements.append(element) }
}

extension Path.Element {
    package func applying(_ t: CGAffineTransform) -> Path.Element {
        switch self {
        case .move(let p): return .move(to: p.applying(t))
        case .line(let p): return .line(to: p.applying(t))
        case .quadCurve(let p, let c): return .quadCurve(to: p.applying(t), control: c.applying(t))
        case .curve(let p, let c1, let c2):
            return .curve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        case .closeSubpath: return .closeSubpath
        }
    }

    /// Every coordinate of the element, for validation.
    package var points: [CGPoint] {
        switch self {
        case .move(let p), .line(let p): return [p]
        case .quadCurve(let p, let c): return [c, p]
        case .curve(let p, let c1, let c2): return [c1, c2, p]
        case .closeSubpath: return []
        }
    }
}

extension Path {
    /// True when every coordinate is finite.
    package var isFinite: Bool {
        for e in elements {
            switch e {
            case .move(let p), .line(let p):
                if !(p.x.isFinite && p.y.isFinite) { return false }
            case .quadCurve(let p, let c):
                if !(p.x.isFinite && p.y.isFinite && c.x.isFinite && c.y.isFinite) { return false }
            case .curve(let p, let c1, let c2):
                if !(p.x.isFinite && p.y.isFinite && c1.x.isFinite && c1.y.isFinite && c2.x.isFinite && c2.y.isFinite) {
                    return false
                }
            case .closeSubpath: break
            }
        }
        return true
    }
}
