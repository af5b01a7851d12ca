// The CoreGraphics value types that SwiftUI drawing code uses and Linux Foundation lacks.
//
// Foundation on Linux has CGFloat, CGPoint, CGSize and CGRect; CGAffineTransform, CGLineCap and CGLineJoin are
// supplied here with CoreGraphics' names, layout and maths, so `import GPUCanvas` is all a renderer needs.
@_exported import Foundation

/// An affine transform in CoreGraphics' row-vector convention:
/// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
///
/// ```swift
/// CGAffineTransform(translationX: 10, y: 0).scaledBy(x: 2, y: 2)   // scale first, then translate
/// CGPoint(x: 1, y: 1).applying(that)                                 // (12, 2)
/// ```
public struct CGAffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// a = cos θ, b = sin θ, c = −sin θ, d = cos θ (positive angles turn clockwise on a y-down screen).
    public init(rotationAngle angle: CGFloat) {
        let s = sin(angle), co = cos(angle)
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }

    public static let identity = CGAffineTransform()
    public var isIdentity: Bool { self == .identity }

    /// `self` first, then `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    /// Prepends a translation: the translation happens in the space this transform maps from.
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: x, y: y).concatenating(self)
    }
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: x, y: y).concatenating(self)
    }
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }
    /// The inverse, or `self` unchanged when the transform is singular (CoreGraphics' behaviour).
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let ia = d / det, ib = -b / det, ic = -c / det, id = a / det
        return CGAffineTransform(a: ia, b: ib, c: ic, d: id,
                                 tx: -(tx * ia + ty * ic), ty: -(tx * ib + ty * id))
    }

    public var description: String {
        func f(_ v: CGFloat) -> String { String(format: "%g", Double(v)) }
        return "CGAffineTransform(a: \(f(a)), b: \(f(b)), c: \(f(c)), d: \(f(d)), tx: \(f(tx)), ty: \(f(ty)))"
    }

    /// Determinant of the linear part.
    package var determinant: CGFloat { a * d - b * c }
    package var isFinite: Bool { a.isFinite && b.isFinite && c.isFinite && d.isFinite && tx.isFinite && ty.isFinite }
    /// The largest factor by which the transform can stretch a length (the larger singular value).
    package var maxScale: CGFloat {
        let p = a * a + b * b, q = c * c + d * d, r = a * c + b * d
        let mean = (p + q) / 2, diff = (p - q) / 2
        return (mean + (diff * diff + r * r).squareRoot()).squareRoot()
    }
    /// The smallest factor by which the transform can stretch a length (the smaller singular value):
    /// |determinant| / maxScale, 0 for a singular transform.
    package var minScale: CGFloat {
        let m = maxScale
        return m > 0 ? abs(determinant) / m : 0
    }
}

extension CGPoint {
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// Ignores translation; the result may be negative.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The axis-aligned bounding box of the four transformed corners; a null rect stays null.
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return self }
        if isInfinite { return self }
        let r = standardized
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)].map { $0.applying(t) }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        let minX = xs.min()!, minY = ys.min()!
        return CGRect(x: minX, y: minY, width: xs.max()! - minX, height: ys.max()! - minY)
    }
}

/// CoreGraphics' line cap (raw values as in CG).
public enum CGLineCap: Int32, Sendable, Hashable, CaseIterable {
    case butt = 0, round = 1, square = 2
}

/// CoreGraphics' line join (raw values as in CG).
public enum CGLineJoin: Int32, Sendable, Hashable, CaseIterable {
    case miter = 0, round = 1, bevel = 2
}

/// CoreGraphics' vector type.
public struct CGVector: Hashable, Sendable {
    public var dx: CGFloat, dy: CGFloat
    public init() { dx = 0; dy = 0 }
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    public static let zero = CGVector()
}
