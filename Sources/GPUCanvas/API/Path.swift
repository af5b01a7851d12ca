/// The outline of a 2D shape (SwiftUI's `Path`): a list of elements in user space.
///
/// This file holds the storage and the element-level builders; shapes, arcs, the `description` grammar,
/// queries and derived paths live in the `Path+*.swift` files beside it.
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
        case move(to: CGPoint)
        case line(to: CGPoint)
        case quadCurve(to: CGPoint, control: CGPoint)
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        case closeSubpath
    }

    /// The elements, in order. Internal: consumers in the module (geometry, encoders) read it directly.
    var elements: [Element] = []

    public init() {}
    public init(_ callback: (inout Path) -> ()) {
        var p = Path()
        callback(&p)
        self = p
    }
    public init(_ rect: CGRect) { addRect(rect) }
    init(elements: [Element]) { self.elements = elements }

    public var isEmpty: Bool { elements.isEmpty }

    /// The last point of the path: the end of the last element, or the start of the subpath after a close.
    public var currentPoint: CGPoint? {
        guard let last = elements.last else { return nil }
        switch last {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): return p
        case .closeSubpath: return subpathStart
        }
    }

    /// The start point of the last subpath (where a close returns to), nil for an empty path.
    var subpathStart: CGPoint? {
        for e in elements.reversed() { if case .move(let p) = e { return p } }
        return nil
    }

    /// True when the last element leaves a subpath open that a line can continue.
    private var hasOpenSubpath: Bool {
        guard let last = elements.last else { return false }
        if case .closeSubpath = last { return false }
        return true
    }

    public func forEach(_ body: (Element) -> Void) { elements.forEach(body) }

    // MARK: Element builders

    public mutating func move(to end: CGPoint) { elements.append(.move(to: end)) }

    /// Adds a line; on an empty path this starts a subpath at `end` instead.
    public mutating func addLine(to end: CGPoint) {
        if elements.isEmpty { move(to: end); return }
        elements.append(.line(to: end))
    }

    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        if elements.isEmpty { move(to: control) }
        elements.append(.quadCurve(to: end, control: control))
    }

    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if elements.isEmpty { move(to: control1) }
        elements.append(.curve(to: end, control1: control1, control2: control2))
    }

    public mutating func closeSubpath() {
        guard hasOpenSubpath else { return }
        elements.append(.closeSubpath)
    }

    /// A move to the first point, then lines to the others.
    public mutating func addLines(_ lines: [CGPoint]) {
        guard let first = lines.first else { return }
        move(to: first)
        for p in lines.dropFirst() { elements.append(.line(to: p)) }
    }

    /// `m(minX,minY) l(maxX,minY) l(maxX,maxY) l(minX,maxY) h`, as CGPathAddRect.
    public mutating func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)].map { $0.applying(transform) }
        elements.append(.move(to: pts[0]))
        for p in pts.dropFirst() { elements.append(.line(to: p)) }
        elements.append(.closeSubpath)
    }

    public mutating func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {
        elements.append(contentsOf: transform.isIdentity ? path.elements : path.applying(transform).elements)
    }

    // MARK: Transforming

    public func applying(_ transform: CGAffineTransform) -> Path {
        if transform.isIdentity { return self }
        return Path(elements: elements.map { $0.applying(transform) })
    }

    public func offsetBy(dx: CGFloat, dy: CGFloat) -> Path {
        applying(CGAffineTransform(translationX: dx, y: dy))
    }

    /// A `Path` is a `Shape` whose path ignores the rect.
    public func path(in rect: CGRect) -> Path { self }

    /// Appends an element as given (used by the description parser and the scene loader).
    mutating func append(_ element: Element) { elements.append(element) }
}

extension Path.Element {
    func applying(_ t: CGAffineTransform) -> Path.Element {
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
    var points: [CGPoint] {
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
    var isFinite: Bool {
        elements.allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } }
    }
}
