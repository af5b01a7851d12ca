// Ellipses, rounded rectangles and arcs, built from cubic Béziers as CoreGraphics builds them.

extension Path {
    /// κ: the control-point distance, as a fraction of the radius, of a cubic approximating a quarter circle.
    static let kappa: CGFloat = 0.5522847498307936

    public init(ellipseIn rect: CGRect) { addEllipse(in: rect) }

    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: cornerSize, style: style)
    }

    /// A closed subpath of 4 cubics starting at (maxX, midY), turning towards maxY first (clockwise on a
    /// y-down screen), as CGPathAddEllipseInRect.
    public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let cx = r.midX, cy = r.midY, rx = r.width / 2, ry = r.height / 2
        let kx = rx * Path.kappa, ky = ry * Path.kappa
        var e: [Element] = [.move(to: CGPoint(x: cx + rx, y: cy))]
        e.append(.curve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + ky),
                        control2: CGPoint(x: cx + kx, y: cy + ry)))
        e.append(.curve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - kx, y: cy + ry),
                        control2: CGPoint(x: cx - rx, y: cy + ky)))
        e.append(.curve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - ky),
                        control2: CGPoint(x: cx - kx, y: cy - ry)))
        e.append(.curve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + kx, y: cy - ry),
                        control2: CGPoint(x: cx + rx, y: cy - ky)))
        e.append(.closeSubpath)
        elements.append(contentsOf: transform.isIdentity ? e : e.map { $0.applying(transform) })
    }

    /// A rounded rectangle starting at the middle of the right edge; radii are clamped to half the sides.
    /// `.continuous` is currently drawn with circular corners.
    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous,
                                        transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let rx = max(0, min(cornerSize.width, r.width / 2)), ry = max(0, min(cornerSize.height, r.height / 2))
        if rx == 0 || ry == 0 { addRect(r, transform: transform); return }
        let kx = rx * Path.kappa, ky = ry * Path.kappa
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        var e: [Element] = [.move(to: CGPoint(x: x1, y: r.midY))]
        e.append(.line(to: CGPoint(x: x1, y: y1 - ry)))
        e.append(.curve(to: CGPoint(x: x1 - rx, y: y1), control1: CGPoint(x: x1, y: y1 - ry + ky),
                        control2: CGPoint(x: x1 - rx + kx, y: y1)))
        e.append(.line(to: CGPoint(x: x0 + rx, y: y1)))
        e.append(.curve(to: CGPoint(x: x0, y: y1 - ry), control1: CGPoint(x: x0 + rx - kx, y: y1),
                        control2: CGPoint(x: x0, y: y1 - ry + ky)))
        e.append(.line(to: CGPoint(x: x0, y: y0 + ry)))
        e.append(.curve(to: CGPoint(x: x0 + rx, y: y0), control1: CGPoint(x: x0, y: y0 + ry - ky),
                        control2: CGPoint(x: x0 + rx - kx, y: y0)))
        e.append(.line(to: CGPoint(x: x1 - rx, y: y0)))
        e.append(.curve(to: CGPoint(x: x1, y: y0 + ry), control1: CGPoint(x: x1 - rx + kx, y: y0),
                        control2: CGPoint(x: x1, y: y0 + ry - ky)))
        e.append(.closeSubpath)
        elements.append(contentsOf: transform.isIdentity ? e : e.map { $0.applying(transform) })
    }

    /// An arc in flipped space: `clockwise: false` increases the angle (clockwise on a y-down screen).
    /// Connects from the current point with a line if a subpath is open.
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle,
                                clockwise: Bool, transform: CGAffineTransform = .identity) {
        let twoPi = 2 * Double.pi
        var delta = endAngle.radians - startAngle.radians
        if clockwise {
            if delta > 0 { delta -= twoPi * (delta / twoPi).rounded(.up) }
            if delta < -twoPi { delta = -twoPi }
        } else {
            if delta < 0 { delta += twoPi * (-delta / twoPi).rounded(.up) }
            if delta > twoPi { delta = twoPi }
        }
        appendArc(center: center, radius: radius, start: startAngle.radians, delta: delta, transform: transform)
    }

    /// An arc of `delta` radians from `startAngle` (positive deltas increase the angle).
    public mutating func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: Angle, delta: Angle,
                                        transform: CGAffineTransform = .identity) {
        appendArc(center: center, radius: radius, start: startAngle.radians, delta: delta.radians, transform: transform)
    }

    /// Appends an arc as cubics of at most 90° each, with a line (or a move) to its start.
    mutating func appendArc(center: CGPoint, radius: CGFloat, start: Double, delta: Double,
                            transform t: CGAffineTransform) {
        func at(_ a: Double) -> CGPoint {
            CGPoint(x: center.x + radius * CGFloat(cos(a)), y: center.y + radius * CGFloat(sin(a)))
        }
        let startPoint = at(start).applying(t)
        if let last = elements.last, last != .closeSubpath { elements.append(.line(to: startPoint)) }
        else { elements.append(.move(to: startPoint)) }
        guard delta != 0, delta.isFinite else { return }
        let pieces = max(1, Int((abs(delta) / (Double.pi / 2)).rounded(.up) - 1e-9))
        let step = delta / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = start
        for _ in 0 ..< pieces {
            let a1 = a0 + step
            let p0 = at(a0), p3 = at(a1)
            let c1 = CGPoint(x: p0.x - CGFloat(k) * radius * CGFloat(sin(a0)), y: p0.y + CGFloat(k) * radius * CGFloat(cos(a0)))
            let c2 = CGPoint(x: p3.x + CGFloat(k) * radius * CGFloat(sin(a1)), y: p3.y - CGFloat(k) * radius * CGFloat(cos(a1)))
            elements.append(.curve(to: p3.applying(t), control1: c1.applying(t), control2: c2.applying(t)))
            a0 = a1
        }
    }
}
