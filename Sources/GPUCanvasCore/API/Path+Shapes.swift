// Ellipses, rounded rectangles and arcs, built from cubic Béziers.
//
// ## Rounded corners
// `.circular` corners are quarter ellipses of the corner size, one cubic each (κ = 0.5523, as
// CGPathAddRoundedRect and CGPathAddEllipseInRect build them): the corner touches each edge at r from the
// vertex, and its curvature jumps from 0 on the straight edge to 1/r on the arc.
//
// `.continuous` is Apple's continuous-curvature ("squircle") corner, whose exact curve is unpublished. This
// is our own approximation, built so that it shares the traits that can be measured on Apple's renders:
//   * the curve leaves each edge at `continuousExtent` ≈ 1.5287·r from the vertex (vs r for `.circular`),
//     so more of each edge is curved and the corner looks softer;
//   * it crosses the corner's diagonal at the same point as the circular arc, r·(1 − 1/√2) from each edge,
//     so a continuous and a circular rounded rect of the same radius have the same "visual radius";
//   * its curvature rises continuously from 0 at the edge (no jump) to 1/r on the diagonal.
// Each corner is two cubics mirrored about the diagonal. In corner coordinates (a along the incoming edge
// back from the vertex, b along the outgoing edge, both in units of r), the first cubic is
//   (e, 0) → (p, 0) → (m + λ, m − λ) → (m, m),   m = 1 − 1/√2,
// with both first controls on the edge line: curvature 0 at the edge. The last control lies on the
// tangent through the diagonal point, and mirroring makes position, tangent and curvature meet there (G2).
// With e = 1.5287, λ = m (the last control on the edge line too) and p = 2m + 3√2·m² the curvature at
// the diagonal is exactly 1/r.
// When the rect is too small for the full extent (two corners would overlap on an edge), the extent
// shrinks to what the edge leaves, and the control points blend linearly towards the circular quarter
// split in two at its diagonal (e = 1, p = 1 − κ/2, λ = (2 − κ)/8); with no room beyond r at all the
// corner *is* the circular one. So the corner degrades smoothly instead of overlapping or kinking.
// Unlike `.circular` (one cubic per corner), `.continuous` corners are two cubics each; with radius 0
// both styles give exactly `addRect`'s path.
//
// ## Arcs
// Angles are in flipped space (y down): `clockwise: false` makes the angle *increase*, which turns
// clockwise on screen. `addArc(center:…)` reduces the sweep to the requested direction: in that direction
// a difference of 2π or more is one full circle (it ends where it started), anything else is taken modulo
// 2π (so equal angles, or angles 2π apart in the other direction, draw no arc). `addRelativeArc` sweeps
// `delta` literally, clamped to one full turn either way. Arcs are cubics of at most 90° each.

extension Path {
    /// κ: the control-point distance, as a fraction of the radius, of a cubic approximating a quarter circle.
    package static let kappa: CGFloat = 0.5522847498307936

    /// How far along each edge, in corner radii, a `.continuous` corner reaches (a commonly measured value
    /// for Apple's corner; `.circular` reaches 1).
    package static let continuousExtent: CGFloat = 1.528665

    /// An ellipse inscribed in `rect` (see `addEllipse`). A null rect gives an empty path; an infinite rect
    /// gives the rectangle itself (as SwiftUI).
    ///
    /// `Path(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 2)).boundingRect` → (0, 0, 4, 2).
    public init(ellipseIn rect: CGRect) {
        if rect.isInfinite { addRect(rect) } else { addEllipse(in: rect) }
    }

    /// A rounded rectangle with circular-radius corners (see `addRoundedRect(in:cornerSize:…)`).
    ///
    /// `Path(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 2, style: .circular).currentPoint`
    /// → (10, 5).
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }

    /// A rounded rectangle with elliptical corners of `cornerSize` (see `addRoundedRect(in:cornerSize:…)`).
    public init(roundedRect rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerSize: cornerSize, style: style)
    }

    /// A rounded rectangle with a radius per corner (see `addRoundedRect(in:cornerRadii:…)`).
    ///
    /// `Path(roundedRect: r, cornerRadii: .init(topLeading: 8), style: .circular)` rounds the top-left
    /// corner only.
    public init(roundedRect rect: CGRect, cornerRadii: RectangleCornerRadii, style: RoundedCornerStyle = .continuous) {
        addRoundedRect(in: rect, cornerRadii: cornerRadii, style: style)
    }

    /// A closed subpath of 4 cubics starting at (maxX, midY), turning towards maxY first (clockwise on a
    /// y-down screen), as CGPathAddEllipseInRect. A null rect adds nothing.
    ///
    /// `Path { $0.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2)) }.description` starts with `"2 1 m"`.
    public mutating func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        // minX + width/2, not Foundation's (minX + maxX)/2, which overflows for a rect near ±1.8e308.
        let rx = r.width / 2, ry = r.height / 2, cx = r.minX + rx, cy = r.minY + ry
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

    /// A closed rounded rectangle: it starts at the middle of the right edge and runs clockwise on screen
    /// (down the right edge first), as `addEllipse`. The corner width is clamped to half the rect's width
    /// and the height to half its height (negative or NaN sizes count as 0); a zero corner size gives
    /// exactly `addRect`'s path, a null rect adds nothing, an infinite rect adds the rect.
    ///
    /// `Path { $0.addRoundedRect(in: CGRect(x: 0, y: 0, width: 10, height: 10), cornerSize: CGSize(width: 20, height: 2), style: .circular) }`
    /// has corners 5 wide and 2 high.
    public mutating func addRoundedRect(in rect: CGRect, cornerSize: CGSize, style: RoundedCornerStyle = .continuous,
                                        transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        let rx = min(Path.nonNegative(cornerSize.width), r.width / 2)
        let ry = min(Path.nonNegative(cornerSize.height), r.height / 2)
        if rx == 0 || ry == 0 || r.isInfinite { addRect(r, transform: transform); return }
        let s = CGSize(width: rx, height: ry)
        appendRoundedRect(r, corners: RoundedCorners(topLeft: s, topRight: s, bottomRight: s, bottomLeft: s),
                          style: style, transform: transform)
    }

    /// A closed rounded rectangle with one circular radius per corner (leading = left, trailing = right:
    /// left-to-right layout), starting at the middle of the right edge's straight part and running clockwise
    /// on screen. When two radii on one side add up to more than the side, all four radii are scaled down by
    /// the same factor until they fit (CSS's rule), so corners never overlap and keep their proportions.
    /// Negative or NaN radii count as 0; all radii 0 gives exactly `addRect`'s path.
    ///
    /// `Path { $0.addRoundedRect(in: CGRect(x: 0, y: 0, width: 10, height: 10), cornerRadii: .init(topLeading: 8, topTrailing: 8), style: .circular) }`
    /// has top corners of radius 5 (8 + 8 > 10, scaled by 10/16).
    public mutating func addRoundedRect(in rect: CGRect, cornerRadii: RectangleCornerRadii,
                                        style: RoundedCornerStyle = .continuous,
                                        transform: CGAffineTransform = .identity) {
        guard !rect.isNull else { return }
        let r = rect.standardized
        var tl = Path.nonNegative(cornerRadii.topLeading), tr = Path.nonNegative(cornerRadii.topTrailing)
        var br = Path.nonNegative(cornerRadii.bottomTrailing), bl = Path.nonNegative(cornerRadii.bottomLeading)
        var scale: CGFloat = 1
        for (sum, side) in [(tl + tr, r.width), (bl + br, r.width), (tl + bl, r.height), (tr + br, r.height)]
        where sum > side {
            scale = min(scale, side / sum)
        }
        if scale < 1 { tl *= scale; tr *= scale; br *= scale; bl *= scale }
        if (tl == 0 && tr == 0 && br == 0 && bl == 0) || r.isInfinite || !scale.isFinite {
            addRect(r, transform: transform)
            return
        }
        func sz(_ v: CGFloat) -> CGSize { CGSize(width: v, height: v) }
        appendRoundedRect(r, corners: RoundedCorners(topLeft: sz(tl), topRight: sz(tr), bottomRight: sz(br),
                                                     bottomLeft: sz(bl)),
                          style: style, transform: transform)
    }

    /// A corner size or radius as given when positive; 0 for zero, negative and NaN values.
    private static func nonNegative(_ v: CGFloat) -> CGFloat { v > 0 ? v : 0 }

    /// Corner sizes (width along the horizontal edges, height along the vertical ones), already clamped so
    /// that the corners on each side fit in it.
    private struct RoundedCorners {
        var topLeft, topRight, bottomRight, bottomLeft: CGSize
    }

    /// One corner in the canonical frame described at the top of the file, in units of the corner size.
    private struct CornerCurve {
        /// How far along each edge the curve reaches (1 for a circular corner).
        var extent: CGFloat
        /// The control points (a, b) of the first cubic after its start (extent, 0); the second cubic is the
        /// mirror image (b, a), reversed. Empty for `.circular`, which is one cubic.
        var p: CGFloat, lambda: CGFloat
        var isCircular: Bool

        static let circular = CornerCurve(extent: 1, p: 0, lambda: 0, isCircular: true)

        /// The `.continuous` corner for an edge room of `room` corner sizes (≥ 1 once radii are clamped).
        static func continuous(room: CGFloat) -> CornerCurve {
            let full = Path.continuousExtent
            let t = min(max(room, 1), full)
            let s = (t - 1) / (full - 1)
            let m = 1 - 1 / CGFloat(2).squareRoot()
            let k = Path.kappa
            // s = 0: the circular quarter split at its middle; s = 1: the full continuous corner.
            let p0 = 1 - k / 2, lambda0 = (2 - k) / 8
            let p1 = 2 * m + 3 * CGFloat(2).squareRoot() * m * m, lambda1 = m
            return CornerCurve(extent: t, p: p0 + s * (p1 - p0), lambda: lambda0 + s * (lambda1 - lambda0),
                               isCircular: false)
        }
    }

    /// Appends the rounded rect's elements. Corner order and frames follow the clockwise-on-screen walk
    /// that starts on the right edge going down.
    private mutating func appendRoundedRect(_ r: CGRect, corners c: RoundedCorners, style: RoundedCornerStyle,
                                            transform: CGAffineTransform) {
        let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
        // Room on each side, in corner sizes, shared by the two corners on it: how far a corner may reach.
        func room(_ side: CGFloat, _ a: CGFloat, _ b: CGFloat) -> CGFloat {
            a + b > 0 ? side / (a + b) : .infinity
        }
        let top = room(r.width, c.topLeft.width, c.topRight.width)
        let bottom = room(r.width, c.bottomLeft.width, c.bottomRight.width)
        let left = room(r.height, c.topLeft.height, c.bottomLeft.height)
        let right = room(r.height, c.topRight.height, c.bottomRight.height)
        func curve(_ roomA: CGFloat, _ roomB: CGFloat) -> CornerCurve {
            style == .circular ? .circular : .continuous(room: min(roomA, roomB))
        }
        // (vertex, incoming travel direction, outgoing travel direction, size along incoming, along outgoing)
        typealias Corner = (v: CGPoint, din: CGPoint, dout: CGPoint, rin: CGFloat, rout: CGFloat, curve: CornerCurve)
        let walk: [Corner] = [
            (CGPoint(x: x1, y: y1), CGPoint(x: 0, y: 1), CGPoint(x: -1, y: 0),
             c.bottomRight.height, c.bottomRight.width, curve(right, bottom)),
            (CGPoint(x: x0, y: y1), CGPoint(x: -1, y: 0), CGPoint(x: 0, y: -1),
             c.bottomLeft.width, c.bottomLeft.height, curve(bottom, left)),
            (CGPoint(x: x0, y: y0), CGPoint(x: 0, y: -1), CGPoint(x: 1, y: 0),
             c.topLeft.height, c.topLeft.width, curve(left, top)),
            (CGPoint(x: x1, y: y0), CGPoint(x: 1, y: 0), CGPoint(x: 0, y: 1),
             c.topRight.width, c.topRight.height, curve(top, right)),
        ]
        func point(_ k: Corner, _ a: CGFloat, _ b: CGFloat) -> CGPoint {
            CGPoint(x: k.v.x - k.din.x * a * k.rin + k.dout.x * b * k.rout,
                    y: k.v.y - k.din.y * a * k.rin + k.dout.y * b * k.rout)
        }
        // The start: the middle of the right edge, kept on its straight part.
        let straightTop = y0 + walk[3].curve.extent * walk[3].rout
        let straightBottom = y1 - walk[0].curve.extent * walk[0].rin
        let startY = straightTop <= straightBottom ? min(max(r.midY, straightTop), straightBottom)
                                                   : (straightTop + straightBottom) / 2
        var e: [Element] = []
        e.reserveCapacity(14)
        var current = CGPoint(x: x1, y: startY)
        e.append(.move(to: current))
        for k in walk {
            let sharp = k.rin <= 0 || k.rout <= 0
            let cv = k.curve
            let entry = sharp ? k.v : point(k, cv.extent, 0)
            if entry != current { e.append(.line(to: entry)) }
            if sharp { current = entry; continue }
            if cv.isCircular {
                let q = 1 - Path.kappa
                e.append(.curve(to: point(k, 0, 1), control1: point(k, q, 0), control2: point(k, 0, q)))
                current = point(k, 0, 1)
            } else {
                let m = 1 - 1 / CGFloat(2).squareRoot()
                let mid = point(k, m, m)
                e.append(.curve(to: mid, control1: point(k, cv.p, 0),
                                control2: point(k, m + cv.lambda, m - cv.lambda)))
                current = point(k, 0, cv.extent)
                e.append(.curve(to: current, control1: point(k, m - cv.lambda, m + cv.lambda),
                                control2: point(k, 0, cv.p)))
            }
        }
        e.append(.closeSubpath)
        elements.append(contentsOf: transform.isIdentity ? e : e.map { $0.applying(transform) })
    }

    // MARK: Arcs

    /// An arc of the circle around `center`, from `startAngle` to `endAngle`, in flipped space:
    /// `clockwise: false` increases the angle, which looks clockwise on a y-down screen. A line joins the
    /// current point to the arc's start if a subpath is open; otherwise the arc starts a new subpath. In the
    /// requested direction, a difference of 2π or more is one full circle; smaller differences are reduced
    /// modulo 2π. A negative or non-finite radius, or non-finite angles or centre, add nothing.
    ///
    /// `Path { $0.addArc(center: .zero, radius: 10, startAngle: .zero, endAngle: .degrees(90), clockwise: false) }`
    /// runs from (10, 0) through (7.07, 7.07) to (0, 10): below the centre on screen.
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: Angle, endAngle: Angle,
                                clockwise: Bool, transform: CGAffineTransform = .identity) {
        let twoPi = 2 * Double.pi
        let raw = endAngle.radians - startAngle.radians
        guard raw.isFinite else { return }
        var delta: Double
        if clockwise {
            if raw <= -twoPi { delta = -twoPi } else {
                delta = fmod(raw, twoPi)
                if delta > 0 { delta -= twoPi }
            }
        } else {
            if raw >= twoPi { delta = twoPi } else {
                delta = fmod(raw, twoPi)
                if delta < 0 { delta += twoPi }
            }
        }
        appendArc(center: center, radius: radius, start: startAngle.radians, delta: delta, transform: transform)
    }

    /// An arc of `delta` from `startAngle` (positive deltas increase the angle: clockwise on screen),
    /// joined to an open subpath by a line. `delta` beyond one full turn either way is clamped to ±2π.
    ///
    /// `Path { $0.addRelativeArc(center: .zero, radius: 1, startAngle: .zero, delta: .degrees(-90)) }.currentPoint`
    /// → (0, −1).
    public mutating func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: Angle, delta: Angle,
                                        transform: CGAffineTransform = .identity) {
        let twoPi = 2 * Double.pi
        guard delta.radians.isFinite else { return }
        appendArc(center: center, radius: radius, start: startAngle.radians,
                  delta: min(max(delta.radians, -twoPi), twoPi), transform: transform)
    }

    /// An arc of `radius` tangent to the line from the current point to `tangent1End` and to the line from
    /// `tangent1End` to `tangent2End` (CGPathAddArcToPoint): a line to the first tangent point, then the
    /// arc, which ends at the second tangent point. When the three points are collinear (or coincide) or the
    /// radius is 0, it adds a line to `tangent1End` instead. On an empty path it starts a subpath at
    /// `tangent1End`. A negative radius counts as 0; non-finite input adds nothing. With a transform, the
    /// construction happens in the untransformed space (the current point is mapped back by the inverse).
    ///
    /// From (0, 0), `addArc(tangent1End: (10, 0), tangent2End: (10, 10), radius: 4)` adds a line to (6, 0) and
    /// a quarter arc around (6, 4) to (10, 4).
    public mutating func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                                transform: CGAffineTransform = .identity) {
        guard tangent1End.x.isFinite, tangent1End.y.isFinite, tangent2End.x.isFinite, tangent2End.y.isFinite,
              !radius.isNaN, radius < .infinity, transform.isFinite else { return }
        guard let current = currentPoint else {
            move(to: tangent1End.applying(transform))
            return
        }
        let t1 = tangent1End, t2 = tangent2End
        let lineToT1 = { (path: inout Path) in path.elements.append(.line(to: t1.applying(transform))) }
        let det = transform.determinant
        guard radius > 0, det != 0, det.isFinite else { lineToT1(&self); return }
        let p0 = current.applying(transform.inverted())
        let ux = p0.x - t1.x, uy = p0.y - t1.y, vx = t2.x - t1.x, vy = t2.y - t1.y
        let ul = (ux * ux + uy * uy).squareRoot(), vl = (vx * vx + vy * vy).squareRoot()
        guard ul > 0, vl > 0 else { lineToT1(&self); return }
        let (uxn, uyn, vxn, vyn) = (ux / ul, uy / ul, vx / vl, vy / vl)
        let cross = uxn * vyn - uyn * vxn
        let cosTheta = max(-1, min(1, uxn * vxn + uyn * vyn)), sinTheta = abs(cross)
        // θ: the angle at tangent1End between the two lines. Nearly collinear lines (sin θ ≈ 0) would put
        // the tangent points (r / tan(θ/2) away) astronomically far or on top of tangent1End: treat those
        // as collinear. The half-angle forms avoid acos, which loses precision near 0 and π.
        guard sinTheta > 1e-12 else { lineToT1(&self); return }
        let d = radius * (1 + cosTheta) / sinTheta                      // r / tan(θ/2)
        let h = radius / ((1 - cosTheta) / 2).squareRoot()              // r / sin(θ/2)
        let a = CGPoint(x: t1.x + uxn * d, y: t1.y + uyn * d)
        let bx = t1.x + vxn * d, by = t1.y + vyn * d
        let bisx = uxn + vxn, bisy = uyn + vyn
        let bisl = (bisx * bisx + bisy * bisy).squareRoot()
        let center = CGPoint(x: t1.x + bisx / bisl * h, y: t1.y + bisy / bisl * h)
        let start = atan2(Double(a.y - center.y), Double(a.x - center.x))
        let end = atan2(Double(by - center.y), Double(bx - center.x))
        // The sweep is π − θ; its sign follows the turn from the first line to the second: (P0→T1)×(T1→T2)
        // = (−u)×v, i.e. −cross.
        var sweep = end - start
        let turn = -cross
        if turn > 0 { while sweep < 0 { sweep += 2 * .pi } } else { while sweep > 0 { sweep -= 2 * .pi } }
        appendArc(center: center, radius: radius, start: start, delta: sweep, transform: transform,
                  connectAfterClose: true)
    }

    /// Appends an arc as cubics of at most 90° each, preceded by a line from the current point (open
    /// subpath, or any current point when `connectAfterClose`) or a move to its start. `delta` must already
    /// be within ±2π. The line is omitted when the arc starts at the current point exactly.
    package mutating func appendArc(center: CGPoint, radius: CGFloat, start: Double, delta: Double,
                            transform t: CGAffineTransform, connectAfterClose: Bool = false) {
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, radius >= 0, start.isFinite, delta.isFinite
        else { return }
        func at(_ a: Double) -> CGPoint {
            CGPoint(x: center.x + radius * CGFloat(cos(a)), y: center.y + radius * CGFloat(sin(a)))
        }
        let startPoint = at(start).applying(t)
        if hasOpenSubpath || (connectAfterClose && !elements.isEmpty) {
            if currentPoint != startPoint { elements.append(.line(to: startPoint)) }
        } else {
            elements.append(.move(to: startPoint))
        }
        guard delta != 0 else { return }
        let pieces = max(1, min(4, Int((abs(delta) / (Double.pi / 2) - 1e-9).rounded(.up))))
        let step = delta / Double(pieces)
        let k = CGFloat(4.0 / 3.0 * tan(step / 4)) * radius
        var a0 = start
        for i in 0 ..< pieces {
            let a1 = i == pieces - 1 ? start + delta : a0 + step
            let p0 = at(a0), p3 = at(a1)
            let c1 = CGPoint(x: p0.x - k * CGFloat(sin(a0)), y: p0.y + k * CGFloat(cos(a0)))
            let c2 = CGPoint(x: p3.x + k * CGFloat(sin(a1)), y: p3.y - k * CGFloat(cos(a1)))
            elements.append(.curve(to: p3.applying(t), control1: c1.applying(t), control2: c2.applying(t)))
            a0 = a1
        }
    }
}
