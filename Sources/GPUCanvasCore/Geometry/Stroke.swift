// The stroker: a path and a `StrokeStyle` → closed device-space contours whose NON-ZERO fill is the stroke.
//
// Design note
//
// Pipeline. (1) Flatten every subpath into a polyline in USER space, at half the tolerance budget scaled by
// 1/transform.maxScale, so a user-space error e is at most e·maxScale device pixels. (2) Dash the polylines in
// user space (`Dash.swift`): dash lengths and phase are user-space lengths measured along the flattened
// centreline. (3) Offset each polyline with a round pen of diameter lineWidth in user space, flattening round
// joins, caps and dots with the other half of the budget, and map every outline point through the transform.
// Mapping after offsetting is what makes the pen elliptical under a non-uniform scale, as in CoreGraphics. The
// two halves add up: the outline lies within `tolerance` device pixels of the exact stroke. That needs one
// more thing at the ends of curves: caps, the joins at corners and dash cuts take their directions from the
// curve's tangents, which the flattener records on each vertex, not from the nearest chord (a chord is off
// the tangent by up to √(2·sagitta/radius), i.e. 0.2 px on a pen 12 px wide, and miters near the limit
// would flip to bevels). Hairlines
// (lineWidth 0) are the exception: they are offset in DEVICE space with a pen 1 px wide (see `hairlineWidth`).
//
// Topology. The rasterizers accumulate winding-weighted area and clamp (coverage = min(|a|, 1)), so any part
// of the outline that is covered twice makes the pixels it touches on the stroke's EDGE too dark. The outline
// is therefore one closed contour per open subpath — the left offset forward, the end cap, the right offset
// backward, the start cap — and two per closed subpath (left offset forward with a join at every vertex,
// right offset backward), never a quad per segment. Every contour runs in the same rotational sense (negative
// shoelace area in user space), so separate subpaths and dashes add up instead of cancelling.
//
// Such a contour is the sum of the boundaries of positively oriented pieces: one rectangle per segment, one
// wedge per join on the outer side of a turn, and the caps. Shared edges cancel, so the winding number is the
// number of pieces covering a point: ≥ 1 on the stroke, 0 elsewhere. On the INNER side of a turn the two
// segment rectangles overlap in a kite (vertex, end corner of the incoming rectangle, the crossing X of the two
// inner offset lines, start corner of the outgoing one). Where the kite fits inside both segments the contour
// turns at X, which removes the kite once and leaves winding 1 right up to the edge. Where it does not (very
// short segments, wide pens on tight curves, turns near 180°) the contour goes through the vertex ("pivot"):
// it stays correct for non-zero filling and the doubly covered kite lies on the stroke's centreline side,
// touching the edge only at X. Interior vertices of a flattened curve get round joins whatever the join style,
// because a curve has no corner there (the pen is swept along a smooth curve). A round join whose miter tip is
// within the arc tolerance of the arc is emitted as that one tip point — on a flattened curve that is nearly
// every vertex, and it saves a third of the outline's points.
//
// Cost: per centreline vertex, a few dozen flops per side and 2–3 output points, written into manually grown
// buffers (`RawBuffer`) reused across subpaths; a few allocations per call, none per point
// (docs/performance.md, "Stroking", has the time of a 1000-stroke frame).
//
// Known limits: subpaths that retrace or cross themselves, and dashes that overlap, are covered twice where
// they overlap (as every outline-then-fill stroker is); non-zero filling is still exact, area accumulation
// darkens the crossing's edge pixels.

package enum Stroker {
    /// Most segments a full turn of a round join, cap or dot is cut into (a partial turn gets its share), so a
    /// 10⁹-unit pen cannot explode. At that count a radius-r arc's chord error is r·(1 − cos(π/4096)) ≈ 3e−7·r.
    package static let maxSegmentsPerTurn = Flatten.maxSegmentsPerCurve
    /// Width in device pixels of the stroke drawn for `lineWidth == 0`. CoreGraphics draws "the thinnest line
    /// the device can show"; for an anti-aliased raster that is one pixel, with the style's caps and joins (a
    /// round dot of diameter 1 px, for instance). The pen is round in DEVICE space, whatever the transform;
    /// dash lengths stay in user space.
    package static let hairlineWidth = 1.0
    /// Most outline points one stroke may produce (16 M points, 256 MiB): beyond it the stroke is an error
    /// (`StrokeError`), not a multi-gigabyte allocation. S2-strokes' 1000 strokes take 330 k points in all;
    /// a 200 000-segment zigzag 2·10⁵ units wide with round joins would take ~8·10⁸.
    package static let maxOutlinePoints = 1 << 24

    /// A stroke whose outline would exceed the stroker's limits; the message says which and why.
    package struct StrokeError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The stroke outline of `path` in device space: closed contours whose non-zero fill is the stroke.
    ///
    /// `Stroker.outline(line (0,0)→(100,0), style: StrokeStyle(lineWidth: 4), transform: .identity)` → one
    /// contour (0,2) (100,2) (100,−2) (0,−2), area 400.
    ///
    /// Safe results (documented, never a crash):
    /// - `lineWidth` 0 → a hairline `hairlineWidth` device pixels wide; negative, NaN or infinite → nothing.
    /// - a path coordinate that is NaN or infinite, a non-finite transform, a transform whose largest scale is
    ///   0, or an outline point that overflows → nothing (the scene validator reports such input earlier).
    /// - `miterLimit` NaN or < 1 → every miter falls back to a bevel.
    /// - `tolerance` not finite or ≤ 0 → `Flatten.tolerance`.
    ///
    /// Errors (`StrokeError`): a dash pattern that would need more than `maxDashesPerPath` dashes, or an
    /// outline of more than `maxOutlinePoints` points; with `visible`, a path point whose device image
    /// overflows (without it such an outline is nothing, as above).
    ///
    /// `visible` (device space): subpaths and dashes whose pen cannot reach it are left out (a closed contour
    /// wholly outside the target covers nothing there), so a fine dash along a path that runs far off the
    /// canvas costs only its visible dashes. nil: everything is outlined.
    package static func outline(_ path: Path, style: StrokeStyle, transform: CGAffineTransform,
                        tolerance: Double = Flatten.tolerance, visible: CGRect? = nil) throws -> Polygons {
        guard transform.isFinite else { return Polygons() }
        let scale = Double(transform.maxScale)
        guard scale.isFinite, scale > 0 else { return Polygons() }
        let width = Double(style.lineWidth)
        guard width.isFinite, width >= 0 else { return Polygons() }
        let tol = tolerance.isFinite && tolerance > 0 ? tolerance : Flatten.tolerance
        let hairline = width == 0

        var flat = Polyline()
        guard flatten(path, tolerance: 0.5 * tol / scale, into: &flat), !flat.subpaths.isEmpty else {
            return Polygons()
        }
        var window: Window? = nil
        if let visible {
            // How far the outline can reach from its centreline, in device pixels: half the pen (or the
            // hairline), √2 of it at square-cap corners, the miter limit's multiple at miter tips (only
            // where a subpath has a corner), plus a pixel for the flattening.
            let pen = (hairline ? hairlineWidth / 2 : width / 2 * scale) * 2.0.squareRoot()
            let miter = style.lineJoin == .miter ? max(1, Double(style.miterLimit)) : 1
            let w = Window(transform: transform, area: visible,
                           reach: { sp in pen * (sp.closed || sp.end - sp.start >= 3 ? miter : 1) + 1 })
            // Culling and dashing work on the centreline's device coordinates, and a point that overflows
            // under the transform (10³⁰⁸ at scale 2) has none: an error, as it is for the fill of the path.
            for v in flat.vertices {
                let (x, y) = w.device(v)
                guard x.isFinite && y.isFinite else {
                    throw StrokeError(description: "device coordinates overflow to infinity under the transform (path point (\(v.x), \(v.y)))")
                }
            }
            window = w
        }
        if let pattern = DashPattern(style.dash, phase: style.dashPhase) {
            var dashed = Polyline()
            guard dash(flat, pattern: pattern, window: window, into: &dashed) else {
                throw StrokeError(description: "dash pattern \(style.dash) would need more than \(maxDashesPerPath) dashes along this path (too fine a pattern, or too long a path)")
            }
            flat = dashed
        }
        if let window { flat = cull(flat, window) }

        let device = Affine(transform)
        var builder = OutlineBuilder(
            halfWidth: hairline ? hairlineWidth / 2 : width / 2,
            arcTolerance: hairline ? 0.5 * tol : 0.5 * tol / scale,
            cap: style.lineCap, join: style.lineJoin, miterLimit: Double(style.miterLimit),
            toStroke: hairline ? device : .identity, toOutput: hairline ? .identity : device)
        defer { builder.deallocate() }
        builder.reserve(vertices: flat.vertices.count, subpaths: flat.subpaths.count)
        for sp in flat.subpaths {
            builder.stroke(flat, sp)
            if builder.tooManyPoints {
                throw StrokeError(description: "the stroke outline would need more than \(maxOutlinePoints) points (line width \(style.lineWidth), \(flat.vertices.count) centreline points)")
            }
            if builder.failed { return Polygons() }
        }
        return builder.finish() ?? Polygons()
    }

    /// Device coordinates beyond this (2²⁴ px) make a subpath "far-reaching": offsetting a pen of a few pixels
    /// at such coordinates loses it to rounding (±4.5 px next to 10³⁰⁸ is 10³⁰⁸), so its segments are cut where
    /// they enter and leave the target grown by the pen's reach, and offset from there.
    package static let farCoordinate = 16_777_216.0

    /// The target seen from a centreline: the transform to device space, the target rectangle, and how far
    /// each subpath's pen reaches from its centreline (device pixels). Culling keeps what meets the target
    /// grown by that reach (`box`), and dashing skips the stretches that cannot (`part`).
    package struct Window {
        fileprivate let toDevice: Affine
        /// The inverse map, nil for a singular transform (a cut cannot be mapped back then).
        fileprivate let inverse: Affine?
        package let left: Double, top: Double, right: Double, bottom: Double
        package let reach: (Subpath) -> Double

        package init(transform t: CGAffineTransform, area: CGRect, reach: @escaping (Subpath) -> Double) {
            toDevice = Affine(t)
            inverse = t.a * t.d - t.b * t.c != 0 ? Affine(t.inverted()) : nil
            (left, top, right, bottom) = (Double(area.minX), Double(area.minY), Double(area.maxX), Double(area.maxY))
            self.reach = reach
        }

        /// A vertex in device space.
        package func device(_ v: Vertex) -> (Double, Double) { (toDevice.x(v.x, v.y), toDevice.y(v.x, v.y)) }

        /// The target grown by the reach of subpath `sp`'s pen.
        package func box(for sp: Subpath) -> Box {
            let r = reach(sp)
            return Box(left: left - r, top: top - r, right: right + r, bottom: bottom + r)
        }

        /// The part of the centreline segment p → q (user space, `length` long) inside `box`, for dashing.
        /// Its ends come from the device-space parameters of the crossings, or, for a segment with a device
        /// coordinate beyond `farCoordinate`, from `farStretch`'s exact cuts mapped back: the parameters of
        /// such a segment are rounded by more than the canvas (one 10²⁰ px long that stops 10¹² px short of
        /// the box can still get t0 = t1 = 1, a "crossing" at its far end).
        package func part(_ p: Vertex, _ q: Vertex, length: Double, box: Box) -> SegmentPart {
            let pa = device(p), pb = device(q)
            let aIn = box.contains(pa), bIn = box.contains(pb)
            if aIn && bIn { return .whole }
            if max(abs(pa.0), abs(pa.1), abs(pb.0), abs(pb.1)) > farCoordinate, let inverse {
                guard let (e, l) = Stroker.farStretch(pa, pb, box) else { return .hidden }
                let enter = e.map { (inverse.x($0.0, $0.1), inverse.y($0.0, $0.1)) }
                let leave = l.map { (inverse.x($0.0, $0.1), inverse.y($0.0, $0.1)) }
                let inside = Stroker.distance(enter ?? (p.x, p.y), leave ?? (q.x, q.y))
                guard inside > 0 else { return .hidden }
                return .part(enter: enter, leave: leave, before: enter.map { Stroker.distance((p.x, p.y), $0) } ?? 0,
                             inside: inside, after: leave.map { Stroker.distance($0, (q.x, q.y)) } ?? 0)
            }
            guard let c = Stroker.clip(pa, pb, box) else { return .hidden }
            let t0 = aIn ? 0 : c.t0, t1 = bIn ? 1 : c.t1
            guard t1 > t0 else { return .hidden }
            // Halved differences: (q − p)·t without overflow, and the same value where q − p is finite.
            let hx = q.x * 0.5 - p.x * 0.5, hy = q.y * 0.5 - p.y * 0.5
            func at(_ t: Double) -> (Double, Double) { (p.x + hx * (2 * t), p.y + hy * (2 * t)) }
            return .part(enter: t0 > 0 ? at(t0) : nil, leave: t1 < 1 ? at(t1) : nil,
                         before: t0 > 0 ? length * t0 : 0, inside: length * (t1 - t0),
                         after: t1 < 1 ? length * (1 - t1) : 0)
        }
    }

    /// A device-space rectangle, borders included.
    package struct Box {
        package var left: Double, top: Double, right: Double, bottom: Double
        package func contains(_ p: (Double, Double)) -> Bool { p.0 >= left && p.0 <= right && p.1 >= top && p.1 <= bottom }
    }

    /// What of a centreline segment can reach the target (`Window.part`): all of it, none, or the stretch
    /// from `enter` (user space; nil: the segment's start) to `leave` (nil: its end), `inside` long, with
    /// `before` and `after` the lengths of the hidden stretches around it.
    package enum SegmentPart {
        case whole
        case hidden
        case part(enter: (Double, Double)?, leave: (Double, Double)?, before: Double, inside: Double, after: Double)
    }

    /// Liang–Barsky: the parameter range [t0, t1] of the device segment pa → pb inside `box`, or nil when it
    /// misses the box. The parameters are rounded: right to ~10⁻⁹ px for a segment within `farCoordinate`,
    /// but a segment 10²⁰ px long loses a canvas-sized part to them (`farStretch` decides those).
    fileprivate static func clip(_ pa: (Double, Double), _ pb: (Double, Double), _ box: Box) -> (t0: Double, t1: Double)? {
        var t0 = 0.0, t1 = 1.0
        let dx = pb.0 * 0.5 - pa.0 * 0.5, dy = pb.1 * 0.5 - pa.1 * 0.5
        func border(_ q: Double, _ p: Double) -> Bool {
            // q·t ≤ p (halved differences: q and p are both half-size, so their ratio is right).
            if q == 0 { return p >= 0 }
            let tt = p / q
            if q < 0 {
                if tt > t1 { return false }
                t0 = max(t0, tt)
            } else {
                if tt < t0 { return false }
                t1 = min(t1, tt)
            }
            return true
        }
        guard border(-dx, pa.0 * 0.5 - box.left * 0.5), border(dx, box.right * 0.5 - pa.0 * 0.5),
              border(-dy, pa.1 * 0.5 - box.top * 0.5), border(dy, box.bottom * 0.5 - pa.1 * 0.5),
              t0 <= t1 else { return nil }
        return (t0, t1)
    }

    /// The stretch of the device segment pa → pb inside `box`, decided exactly (no parameters): nil when
    /// it misses the box or only touches it; else where it enters (nil: pa, which is inside) and leaves
    /// (nil: pb). The candidates are the ends inside the box and the segment's cuts of the four border
    /// lines that lie on the box (`EdgeCut`, for lines strictly between the ends' coordinates); all lie on
    /// the canvas's scale, so ordering them along the segment's major axis is exact enough.
    fileprivate static func farStretch(_ pa: (Double, Double), _ pb: (Double, Double), _ box: Box)
        -> (enter: (Double, Double)?, leave: (Double, Double)?)? {
        let dx = pb.0 * 0.5 - pa.0 * 0.5, dy = pb.1 * 0.5 - pa.1 * 0.5
        // Position along the segment, increasing from pa to pb.
        func key(_ p: (Double, Double)) -> Double {
            abs(dx) >= abs(dy) ? (dx > 0 ? p.0 : -p.0) : (dy > 0 ? p.1 : -p.1)
        }
        var first: (point: (Double, Double), key: Double, isEnd: Bool)? = nil
        var last = first
        func consider(_ p: (Double, Double), isEnd: Bool) {
            let k = key(p)
            if first == nil || k < first!.key { first = (p, k, isEnd) }
            if last == nil || k > last!.key { last = (p, k, isEnd) }
        }
        if box.contains(pa) { consider(pa, isEnd: true) }
        if box.contains(pb) { consider(pb, isEnd: true) }
        // A cut is a few ulps off: one through a corner must not miss both of its borders.
        let slack = 0x1p-30 * max(1, abs(box.left), abs(box.right), abs(box.top), abs(box.bottom))
        for v in [box.left, box.right] where min(pa.0, pb.0) < v && v < max(pa.0, pb.0) {
            let y = EdgeCut.x(atY: v, pa.1, pa.0, pb.1, pb.0)
            if y >= box.top - slack && y <= box.bottom + slack { consider((v, y), isEnd: false) }
        }
        for v in [box.top, box.bottom] where min(pa.1, pb.1) < v && v < max(pa.1, pb.1) {
            let x = EdgeCut.x(atY: v, pa.0, pa.1, pb.0, pb.1)
            if x >= box.left - slack && x <= box.right + slack { consider((x, v), isEnd: false) }
        }
        guard let f = first, let l = last, l.key > f.key else { return nil }
        // An end inside the box is the first (pa) or last (pb) candidate, as no cut lies beyond it.
        return (f.isEnd ? nil : f.point, l.isEnd ? nil : l.point)
    }

    /// |b − a|, without overflow in between (∞ only for a distance beyond the largest double).
    fileprivate static func distance(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 * 0.5 - a.0 * 0.5, dy = b.1 * 0.5 - a.1 * 0.5
        let m = max(abs(dx), abs(dy))
        guard m > 0 else { return 0 }
        let sx = dx / m, sy = dy / m
        return 2 * m * (sx * sx + sy * sy).squareRoot()
    }

    /// The subpaths of `flat` whose centreline's device box, grown by the subpath's reach, meets the window's
    /// target; far-reaching ones (`farCoordinate`) cut to that grown box.
    private static func cull(_ flat: Polyline, _ window: Window) -> Polyline {
        var kept = Polyline()
        var changed = false
        for sp in flat.subpaths {
            var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
            for v in flat.vertices[sp.start ..< sp.end] {
                let (x, y) = window.device(v)
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
            }
            let box = window.box(for: sp)
            guard x1 >= box.left, x0 <= box.right, y1 >= box.top, y0 <= box.bottom else { changed = true; continue }
            // (A singular transform has no inverse to map cuts back with; it leaves the subpath whole.)
            if max(-x0, x1, -y0, y1) > farCoordinate, sp.end - sp.start >= 2, let inverse = window.inverse {
                changed = true
                cut(flat, sp, window, inverse: inverse, box: box, into: &kept)
                continue
            }
            let start = kept.vertices.count
            kept.vertices.append(contentsOf: flat.vertices[sp.start ..< sp.end])
            var moved = sp
            moved.start = start
            moved.end = kept.vertices.count
            kept.subpaths.append(moved)
        }
        return changed ? kept : flat
    }

    /// The parts of subpath `sp` inside `box` (device space) as open subpaths: each stretch of segments that
    /// meets the box, cut exactly at its border (`EdgeCut`, in device space, mapped back through `inverse`).
    /// The cut ends get caps, but they lie the pen's reach outside the target, so nothing of them shows.
    private static func cut(_ flat: Polyline, _ sp: Subpath, _ window: Window, inverse: Affine, box: Box,
                            into out: inout Polyline) {
        func user(_ p: (Double, Double)) -> Vertex { Vertex(x: inverse.x(p.0, p.1), y: inverse.y(p.0, p.1), smooth: false) }
        var stretch: [Vertex] = []
        func flush() {
            if stretch.count >= 2 {
                stretch[0].smooth = false
                stretch[stretch.count - 1].smooth = false
                let start = out.vertices.count
                out.vertices.append(contentsOf: stretch)
                out.subpaths.append(Subpath(start: start, end: out.vertices.count, closed: false))
            }
            stretch.removeAll(keepingCapacity: true)
        }
        let n = sp.end - sp.start
        let segments = sp.closed ? n : n - 1
        // A closed subpath is walked from a vertex outside the box, so no stretch wraps around its start.
        var first = 0
        if sp.closed {
            first = (0 ..< n).first { !box.contains(window.device(flat.vertices[sp.start + $0])) } ?? 0
        }
        for k in 0 ..< segments {
            let va = flat.vertices[sp.start + (first + k) % n], vb = flat.vertices[sp.start + (first + k + 1) % n]
            let pa = window.device(va), pb = window.device(vb)
            let aIn = box.contains(pa), bIn = box.contains(pb)
            if aIn && bIn {
                if stretch.isEmpty { stretch.append(va) }
                stretch.append(vb)
                continue
            }
            // The cuts are exact (`farStretch`): Liang–Barsky's parameters of a segment 10³⁰⁸ px long are all
            // ½, and picking a border by them put a ±10³⁰⁸ diagonal's exit on the wrong border of a wide
            // canvas, drawn there with the wrong slope.
            guard let (enter, leave) = farStretch(pa, pb, box) else {
                flush()
                continue
            }
            if let enter {
                flush()
                stretch.append(user(enter))
            } else if stretch.isEmpty {
                stretch.append(va)
            }
            if let leave {
                stretch.append(user(leave))
                flush()
            } else {
                stretch.append(vb)
            }
        }
        flush()
    }

    // MARK: Flattened centrelines (shared with Dash.swift)

    /// A vertex of a flattened centreline. `smooth` marks a point inside a flattened curve, which gets a round
    /// join whatever the style (the curve has no corner there).
    ///
    /// `inX, inY` / `outX, outY`: the unit tangent of the centreline arriving at / leaving the vertex (user
    /// space), set on the points of curves; (0, 0) means "the chord's direction" (lines, cusps). Caps and the
    /// joins at corners use them instead of the first or last chord of a flattened curve, which is off the
    /// curve's end tangent by up to √(2·tolerance / radius): 0.2 px of cap or join position on a pen 12 px
    /// wide, and enough angle to turn a miter near the limit into a bevel.
    package struct Vertex: Equatable {
        package var x: Double
        package var y: Double
        package var smooth: Bool
        package var inX = 0.0, inY = 0.0, outX = 0.0, outY = 0.0
    }

    /// One subpath of a `Polyline`: `vertices[start ..< end]`. A closed subpath's last edge returns to its first
    /// vertex. `dirX, dirY`: the unit direction a zero-length subpath (a dot) is drawn along; (0, 0) means
    /// axis-aligned (a zero-length subpath of the path itself, which has no direction).
    package struct Subpath: Equatable {
        package var start: Int
        package var end: Int
        package var closed: Bool
        package var dirX = 0.0
        package var dirY = 0.0
    }

    /// Flattened subpaths in user space, all in two contiguous arrays.
    package struct Polyline {
        package var vertices: [Vertex] = []
        package var subpaths: [Subpath] = []
    }

    /// Flattens `path` in user space with chord error ≤ `tolerance` (user units). Every subpath that has a
    /// drawing element or a close is kept, so a `move` + `close` or a `move` + zero-length `line` becomes a
    /// one-point subpath (a dot); a lone `move` is dropped. Returns false on a non-finite coordinate.
    package static func flatten(_ path: Path, tolerance: Double, into out: inout Polyline) -> Bool {
        out.vertices.reserveCapacity(path.elements.count * 2 + 4)
        var start = DevicePoint(x: 0, y: 0)
        var current = start
        var open = false         // the current subpath's first vertex has been appended
        var pendingMove = false  // the last element was a move: a close right after it draws a dot
        var first = 0
        func ok(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }
        func pt(_ p: CGPoint) -> DevicePoint { DevicePoint(x: Double(p.x), y: Double(p.y)) }
        func begin(_ out: inout Polyline) {
            if !open {
                first = out.vertices.count
                out.vertices.append(Vertex(x: start.x, y: start.y, smooth: false))
                current = start
                open = true
            }
        }
        // A curve's start tangent leaves the vertex it starts from; its end vertex is a corner whose outgoing
        // direction the next element sets (a line's is its chord).
        func setOut(_ d: DevicePoint, _ out: inout Polyline) {
            out.vertices[out.vertices.count - 1].outX = d.x
            out.vertices[out.vertices.count - 1].outY = d.y
        }
        func endCurve(_ out: inout Polyline) {
            let last = out.vertices.count - 1
            out.vertices[last].smooth = false
            out.vertices[last].outX = 0
            out.vertices[last].outY = 0
        }
        func finish(closed: Bool, _ out: inout Polyline) {
            if open { out.subpaths.append(Subpath(start: first, end: out.vertices.count, closed: closed)) }
            open = false
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                guard ok(p) else { return false }
                finish(closed: false, &out)
                start = pt(p)
                current = start
                pendingMove = true
                continue
            case .line(let p):
                guard ok(p) else { return false }
                begin(&out)
                current = pt(p)
                out.vertices.append(Vertex(x: current.x, y: current.y, smooth: false))
            case .quadCurve(let p, let c):
                guard ok(p), ok(c) else { return false }
                begin(&out)
                let p0 = current, p1 = pt(c), p2 = pt(p)
                setOut(Flatten.quadTangent(p0, p1, p2, t: 0), &out)
                Flatten.quad(p0, p1, p2, tolerance: tolerance) { q, t in
                    let d = Flatten.quadTangent(p0, p1, p2, t: t)
                    out.vertices.append(Vertex(x: q.x, y: q.y, smooth: t < 1, inX: d.x, inY: d.y, outX: d.x, outY: d.y))
                }
                endCurve(&out)
                current = p2
            case .curve(let p, let c1, let c2):
                guard ok(p), ok(c1), ok(c2) else { return false }
                begin(&out)
                let p0 = current, p1 = pt(c1), p2 = pt(c2), p3 = pt(p)
                setOut(Flatten.cubicTangent(p0, p1, p2, p3, t: 0), &out)
                Flatten.cubic(p0, p1, p2, p3, tolerance: tolerance) { q, t in
                    let d = Flatten.cubicTangent(p0, p1, p2, p3, t: t)
                    out.vertices.append(Vertex(x: q.x, y: q.y, smooth: t < 1, inX: d.x, inY: d.y, outX: d.x, outY: d.y))
                }
                endCurve(&out)
                current = p3
            case .closeSubpath:
                if open || pendingMove {
                    begin(&out)
                    finish(closed: true, &out)
                }
                current = start
            }
            pendingMove = false
        }
        finish(closed: false, &out)
        return true
    }
}

// MARK: - Offsetting

/// An affine map in doubles (user → stroke space, stroke → device space).
private struct Affine {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, tx = 0.0, ty = 0.0
    static let identity = Affine()
    init() {}
    init(_ t: CGAffineTransform) {
        a = Double(t.a); b = Double(t.b); c = Double(t.c); d = Double(t.d); tx = Double(t.tx); ty = Double(t.ty)
    }
    @inline(__always) func x(_ x: Double, _ y: Double) -> Double { a * x + c * y + tx }
    @inline(__always) func y(_ x: Double, _ y: Double) -> Double { b * x + d * y + ty }
}

/// A growable buffer of plain values (no references: nothing to deinitialize) without Swift arrays'
/// per-append uniqueness check, for the stroker's per-point loops. The owner calls `deallocate()` once.
private struct RawBuffer<T> {
    private(set) var base: UnsafeMutablePointer<T>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    @inline(__always) mutating func append(_ value: T) {
        if count == capacity { grow(to: count + 1) }
        (base + count).initialize(to: value)
        count += 1
    }

    @inline(__always) subscript(i: Int) -> T {
        get { base[i] }
        nonmutating set { base[i] = newValue }
    }

    var last: T? { count > 0 ? base[count - 1] : nil }
    mutating func removeLast() { count -= 1 }
    mutating func removeAll() { count = 0 }
    mutating func reserve(_ n: Int) { if n > capacity { grow(to: n) } }
    var array: [T] { Array(UnsafeBufferPointer(start: base, count: count)) }
    func deallocate() { base.deallocate() }

    @inline(never) private mutating func grow(to minimum: Int) {
        let newCapacity = max(minimum, capacity * 2)
        let newBase = UnsafeMutablePointer<T>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}

/// A segment of a stroke-space polyline: unit direction and length.
private struct Segment {
    var ux: Double
    var uy: Double
    var length: Double
}

/// A stroke-space vertex with the decision for the inner side of its join.
private struct StrokeVertex {
    var x: Double
    var y: Double
    var smooth: Bool
    /// Unit tangents arriving and leaving (stroke space), (0, 0): the chord's (`Stroker.Vertex`).
    var inX = 0.0, inY = 0.0, outX = 0.0, outY = 0.0
    /// The inner side turns at the crossing X of the offset lines (true) or goes through the vertex (false).
    var innerCrossing = false

    /// The directions a cap or a corner's join uses: the curve tangents where there are any, else the
    /// chords `a` (arriving) and `b` (leaving). Points inside a flattened curve keep their chords: their
    /// joins approximate the offset curve between the chords, within the arc tolerance.
    @inline(__always)
    func joinDirections(_ a: Segment, _ b: Segment) -> (Double, Double, Double, Double) {
        if smooth { return (a.ux, a.uy, b.ux, b.uy) }
        let arriving = inX == 0 && inY == 0 ? (a.ux, a.uy) : (inX, inY)
        let leaving = outX == 0 && outY == 0 ? (b.ux, b.uy) : (outX, outY)
        return (arriving.0, arriving.1, leaving.0, leaving.1)
    }
}

/// Offsets polylines into contours. Holds the output and scratch buffers, reused across subpaths, so the
/// per-point work allocates nothing.
private struct OutlineBuilder {
    let h: Double                 // half the line width, stroke space
    let cap: CGLineCap
    let join: CGLineJoin
    /// miterLimit², or −1 when no miter is allowed (NaN limit).
    let miterLimitSquared: Double
    /// Largest angle one chord of a round join/cap may span: its sagitta h·(1 − cos(step/2)) ≤ arc tolerance.
    /// Capped at 90° so a dot is at least a square, however small the pen.
    let maxStep: Double
    let cosMaxStep: Double
    let toStroke: Affine
    let toOutput: Affine
    let strokeIsUser: Bool

    /// Largest turn (as a minimum cos φ) for which a round join may be drawn as its miter point alone: the tip
    /// overshoots the arc by h·(1/cos(φ/2) − 1) ≤ arc tolerance. One point instead of a chord's two, which
    /// matters on flattened curves, where every vertex is such a join.
    let roundAsMiterMinDot: Double

    /// The outline, built here and handed to a `Polygons` at the end (bounds computed once, in `finish`).
    private var out = RawBuffer<DevicePoint>(capacity: 64)
    private var starts: [Int] = []
    var failed = false
    /// Set (with `failed`) when the outline reached `Stroker.maxOutlinePoints`.
    private(set) var tooManyPoints = false
    private var pts = RawBuffer<StrokeVertex>(capacity: 64)
    private var segs = RawBuffer<Segment>(capacity: 64)

    init(halfWidth: Double, arcTolerance: Double, cap: CGLineCap, join: CGLineJoin, miterLimit: Double,
         toStroke: Affine, toOutput: Affine) {
        h = halfWidth
        self.cap = cap
        self.join = join
        miterLimitSquared = miterLimit.isNaN ? -1 : miterLimit * miterLimit
        // h·(1 − cos(θ/2)) = 2h·sin²(θ/4) ≤ tol ⇔ θ ≤ 4·asin(√(tol / 2h)): no cancellation for tiny tol/h.
        let q = arcTolerance / (2 * halfWidth)
        let step = q >= 1 ? Double.pi : 4 * asin(q.squareRoot())
        maxStep = step > 0 ? min(Double.pi / 2, step) : Double.leastNormalMagnitude
        cosMaxStep = cos(maxStep)
        let c = halfWidth / (halfWidth + arcTolerance)  // cos(φ/2) at the limit
        roundAsMiterMinDot = 2 * c * c - 1
        self.toStroke = toStroke
        self.toOutput = toOutput
        strokeIsUser = toStroke.a == 1 && toStroke.b == 0 && toStroke.c == 0 && toStroke.d == 1
            && toStroke.tx == 0 && toStroke.ty == 0
    }

    mutating func reserve(vertices: Int, subpaths: Int) {
        let capPoints = cap == .round ? arcSegments(Double.pi) + 1 : (cap == .square ? 2 : 0)
        // Never more than the outline may hold: a round cap on a 10¹² px pen estimates billions of points
        // (found by the fuzzer: a 64 GB reservation), and the stroke then stops at the limit with an error.
        let estimate = 2 * Double(vertices) + Double(subpaths) * 2 * Double(capPoints + 2) + 16
        out.reserve(Int(min(estimate, Double(Stroker.maxOutlinePoints + 16))))
        starts.reserveCapacity(2 * subpaths)
    }

    /// Frees the buffers; the builder is not used afterwards.
    func deallocate() {
        out.deallocate()
        pts.deallocate()
        segs.deallocate()
    }

    private mutating func beginContour() { starts.append(out.count) }

    /// The finished outline, or nil when a point overflowed or is NaN.
    func finish() -> Polygons? {
        var polys = Polygons()
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var nonFinite = 0.0  // x·0 is 0 for finite x and NaN otherwise: one branch-free pass
        let base = out.base
        for i in 0 ..< out.count {
            let p = base[i]
            nonFinite += p.x * 0 + p.y * 0
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        guard nonFinite == 0 else { return nil }
        (polys.minX, polys.minY, polys.maxX, polys.maxY) = (minX, minY, maxX, maxY)
        polys.points = out.array
        polys.contourStarts = starts
        return polys
    }

    // MARK: Emitting

    @inline(__always) private mutating func emit(_ x: Double, _ y: Double) {
        guard out.count < Stroker.maxOutlinePoints else {
            tooManyPoints = true
            failed = true
            return
        }
        out.append(DevicePoint(x: toOutput.x(x, y), y: toOutput.y(x, y)))
    }

    /// Chords for an arc of `angle` radians (|angle| ≤ 2π), bounded by `Stroker.maxSegmentsPerTurn`.
    private func arcSegments(_ angle: Double) -> Int {
        let a = abs(angle)
        let n = (a / maxStep).rounded(.up)
        let cap = max(1, (a / (2 * Double.pi) * Double(Stroker.maxSegmentsPerTurn)).rounded(.up))
        return Int(max(1, min(n, cap)))
    }

    /// The points strictly between the start and the end of an arc around (cx, cy) that starts at offset
    /// (rx, ry) and turns by `angle` (negative: clockwise in y-up terms, the outlines' sense).
    private mutating func arc(_ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, angle: Double) {
        let n = arcSegments(angle)
        guard n > 1 else { return }
        let step = angle / Double(n)
        let cs = cos(step), sn = sin(step)
        var x = rx, y = ry
        for _ in 1 ..< n {
            (x, y) = (x * cs - y * sn, x * sn + y * cs)
            emit(cx + x, cy + y)
        }
    }

    /// The cap at vertex (vx, vy) for a contour arriving at v + h·n along direction u (n = u turned +90°), up to
    /// (not including) v − h·n.
    private mutating func emitCap(_ vx: Double, _ vy: Double, _ ux: Double, _ uy: Double) {
        let nx = -uy * h, ny = ux * h
        switch cap {
        case .butt:
            break
        case .square:
            emit(vx + nx + ux * h, vy + ny + uy * h)
            emit(vx - nx + ux * h, vy - ny + uy * h)
        case .round:
            arc(vx, vy, nx, ny, angle: -Double.pi)
        }
    }

    /// The left-side points (n = u turned +90°) of the join at vertex `v` between incoming direction `a` and
    /// outgoing direction `b`, both in traversal order. `reversalIsOuter` breaks the tie of a 180° turn so that
    /// exactly one side of the stroke gets the join.
    private mutating func emitJoin(_ v: StrokeVertex, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
                                   reversalIsOuter: Bool) {
        let n1x = -ay * h, n1y = ax * h, n2x = -by * h, n2y = bx * h
        let cross = ax * by - ay * bx
        let dot = ax * bx + ay * by
        if cross == 0 && dot > 0 {  // straight on: both offset lines meet at one point
            emit(v.x + n1x, v.y + n1y)
            return
        }
        if cross > 0 || (cross == 0 && !reversalIsOuter) {
            // Inner side (the path turns towards it).
            if v.innerCrossing {
                // X = A − d·a with d = h·tan(φ/2) = h·|sin φ| / (1 + cos φ): where both inner offsets cross.
                let d = h * cross / (1 + dot)
                emit(v.x + n1x - d * ax, v.y + n1y - d * ay)
            } else {
                emit(v.x + n1x, v.y + n1y)
                emit(v.x, v.y)
                emit(v.x + n2x, v.y + n2y)
            }
            return
        }
        // Outer side.
        var kind = v.smooth ? CGLineJoin.round : join
        if kind == .round && dot >= roundAsMiterMinDot && cross != 0 {
            emit(v.x + (n1x + n2x) / (1 + dot), v.y + (n1y + n2y) / (1 + dot))
            return
        }
        if kind == .miter {
            // CoreGraphics' rule: miter length / line width = 1 / sin(θ/2), θ the angle between the two segments
            // (θ = π − φ for a turn of φ, so sin(θ/2) = cos(φ/2) = √((1 + cos φ)/2)). Miter while that ratio is
            // ≤ miterLimit, i.e. while miterLimit²·(1 + cos φ) ≥ 2; otherwise bevel. A 60° corner has ratio 2.
            let denom = 1 + dot
            if denom > 0 && miterLimitSquared * denom >= 2 {
                // The tip: v + h·(n1 + n2)/(1 + cos φ), at distance h / cos(φ/2) from v.
                emit(v.x + (n1x + n2x) / denom, v.y + (n1y + n2y) / denom)
                return
            }
            kind = .bevel
        }
        emit(v.x + n1x, v.y + n1y)
        if kind == .round && !(cross != 0 && dot >= cosMaxStep) {
            // From n1 to n2 the short way round the outside (cross < 0: clockwise); a reversal goes round the
            // front, through the incoming direction.
            let angle = cross == 0 ? -Double.pi : atan2(cross, dot)
            arc(v.x, v.y, n1x, n1y, angle: angle)
        }
        emit(v.x + n2x, v.y + n2y)
    }

    // MARK: Subpaths

    /// Strokes one subpath of `flat`.
    mutating func stroke(_ flat: Stroker.Polyline, _ sp: Stroker.Subpath) {
        pts.removeAll()
        pts.reserve(sp.end - sp.start)
        for i in sp.start ..< sp.end {
            let v = flat.vertices[i]
            let x = strokeIsUser ? v.x : toStroke.x(v.x, v.y)
            let y = strokeIsUser ? v.y : toStroke.y(v.x, v.y)
            let (inX, inY) = strokeDirection(v.inX, v.inY)
            let (outX, outY) = strokeDirection(v.outX, v.outY)
            // Zero-length segments carry no direction: merge their ends (a corner wins over a smooth point; the
            // merged vertex leaves in the later one's direction).
            if let last = pts.last, last.x == x, last.y == y {
                if !v.smooth { pts[pts.count - 1].smooth = false }
                pts[pts.count - 1].outX = outX
                pts[pts.count - 1].outY = outY
                continue
            }
            pts.append(StrokeVertex(x: x, y: y, smooth: v.smooth, inX: inX, inY: inY, outX: outX, outY: outY))
        }
        if sp.closed, pts.count > 1, pts[0].x == pts[pts.count - 1].x, pts[0].y == pts[pts.count - 1].y {
            if !pts[pts.count - 1].smooth { pts[0].smooth = false }
            pts[0].inX = pts[pts.count - 1].inX
            pts[0].inY = pts[pts.count - 1].inY
            pts.removeLast()
        }
        let n = pts.count
        guard n > 0 else { return }
        if n == 1 {
            dot(pts[0], sp)
            return
        }
        let closed = sp.closed
        segs.removeAll()
        let segCount = closed ? n : n - 1
        for k in 0 ..< segCount {
            let p = pts[k], q = pts[k + 1 == n ? 0 : k + 1]
            var dx = q.x - p.x, dy = q.y - p.y
            // Ends ±1e308 apart: the difference overflows, but its direction is the halved one's, and a length
            // beyond the largest double only ever means "longer than anything else".
            let overflowed = !dx.isFinite || !dy.isFinite
            if overflowed { (dx, dy) = (q.x * 0.5 - p.x * 0.5, q.y * 0.5 - p.y * 0.5) }
            var len = (dx * dx + dy * dy).squareRoot()
            if !len.isNormal {
                // Squares under- or overflowed: rescale by the larger component.
                let m = max(abs(dx), abs(dy))
                let sx = dx / m, sy = dy / m
                len = m * (sx * sx + sy * sy).squareRoot()
            }
            guard len.isFinite, len > 0 else { failed = true; return }
            segs.append(Segment(ux: dx / len, uy: dy / len, length: overflowed ? .greatestFiniteMagnitude : len))
        }
        decideInnerCrossings(closed: closed)

        beginContour()
        if closed {
            for i in 0 ..< n {
                let (ax, ay, bx, by) = pts[i].joinDirections(segs[i == 0 ? n - 1 : i - 1], segs[i])
                emitJoin(pts[i], ax, ay, bx, by, reversalIsOuter: true)
            }
            beginContour()
            // The right side is the left side of the reversed polyline: vertices 0, n−1, …, 1.
            for j in 0 ..< n {
                let i = j == 0 ? 0 : n - j
                let (ax, ay, bx, by) = pts[i].joinDirections(segs[i == 0 ? n - 1 : i - 1], segs[i])
                emitJoin(pts[i], -bx, -by, -ax, -ay, reversalIsOuter: false)
            }
            return
        }
        // The caps' directions: the curve tangents at the ends where there are any (`joinDirections`).
        let start = pts[0], end = pts[n - 1]
        let (_, _, fx, fy) = start.joinDirections(segs[0], segs[0])
        let (lx, ly, _, _) = end.joinDirections(segs[segCount - 1], segs[segCount - 1])
        emit(start.x - fy * h, start.y + fx * h)
        if n > 2 {
            for i in 1 ..< n - 1 {
                let (ax, ay, bx, by) = pts[i].joinDirections(segs[i - 1], segs[i])
                emitJoin(pts[i], ax, ay, bx, by, reversalIsOuter: true)
            }
        }
        emit(end.x - ly * h, end.y + lx * h)
        emitCap(end.x, end.y, lx, ly)
        emit(end.x + ly * h, end.y - lx * h)
        if n > 2 {
            for i in stride(from: n - 2, through: 1, by: -1) {
                let (ax, ay, bx, by) = pts[i].joinDirections(segs[i - 1], segs[i])
                emitJoin(pts[i], -bx, -by, -ax, -ay, reversalIsOuter: false)
            }
        }
        emit(start.x + fy * h, start.y - fx * h)
        emitCap(start.x, start.y, -fx, -fy)
    }

    /// A user-space unit tangent in stroke space (hairlines stroke in device space), or (0, 0) for none.
    private func strokeDirection(_ x: Double, _ y: Double) -> (Double, Double) {
        guard !strokeIsUser, x != 0 || y != 0 else { return (x, y) }
        let dx = toStroke.a * x + toStroke.c * y, dy = toStroke.b * x + toStroke.d * y
        let len = (dx * dx + dy * dy).squareRoot()
        return len.isNormal ? (dx / len, dy / len) : (0, 0)
    }

    /// Decides, vertex by vertex, whether the inner side may turn at the crossing X of the two inner offset
    /// lines. The kite it cuts off reaches max(d, h·sin φ) along each segment (d = h·tan(φ/2) to X, h·sin φ to
    /// the other rectangle's corner); it must fit inside both segments and must not meet the kite of the
    /// segment's other end. Decided greedily in path order, so both sides of the stroke see the same answer.
    private mutating func decideInnerCrossings(closed: Bool) {
        let n = pts.count
        func need(_ a: Segment, _ b: Segment, at i: Int) -> Double {
            let (ax, ay, bx, by) = pts[i].joinDirections(a, b)
            let cross = abs(ax * by - ay * bx)
            let denom = 1 + (ax * bx + ay * by)
            guard cross > 0, denom > 0 else { return .infinity }
            return max(h * cross / denom, h * cross)
        }
        var consumed = 0.0  // length of the current segment's start taken by the previous vertex's kite
        var consumedAtEnd = 0.0  // closed: length of the last segment's end taken by vertex 0's kite
        if closed {
            let m = need(segs[n - 1], segs[0], at: 0)
            pts[0].innerCrossing = m <= segs[n - 1].length && m <= segs[0].length
            if pts[0].innerCrossing { consumed = m; consumedAtEnd = m }
        }
        let last = closed ? n - 1 : n - 2
        guard last >= 1 else { return }
        for i in 1 ... last {
            let a = segs[i - 1], b = segs[i]
            let m = need(a, b, at: i)
            let availableOut = b.length - (closed && i == n - 1 ? consumedAtEnd : 0)
            let use = m <= a.length - consumed && m <= availableOut
            pts[i].innerCrossing = use
            consumed = use ? m : 0
        }
    }

    /// A zero-length subpath: a round dot (diameter 2h) or a square dot (side 2h) along the subpath's
    /// direction, axis-aligned in stroke space when it has none; nothing with butt caps.
    private mutating func dot(_ v: StrokeVertex, _ sp: Stroker.Subpath) {
        guard cap != .butt else { return }
        var ux = 1.0, uy = 0.0
        if sp.dirX != 0 || sp.dirY != 0 {
            // The direction is in user space; carry it into stroke space (hairlines) and renormalize.
            let dx = strokeIsUser ? sp.dirX : toStroke.a * sp.dirX + toStroke.c * sp.dirY
            let dy = strokeIsUser ? sp.dirY : toStroke.b * sp.dirX + toStroke.d * sp.dirY
            let len = (dx * dx + dy * dy).squareRoot()
            if len.isNormal { ux = dx / len; uy = dy / len }
        }
        beginContour()
        let nx = -uy * h, ny = ux * h, ax = ux * h, ay = uy * h
        if cap == .square {  // the four corners, in the outlines' sense
            emit(v.x + nx - ax, v.y + ny - ay)
            emit(v.x + nx + ax, v.y + ny + ay)
            emit(v.x - nx + ax, v.y - ny + ay)
            emit(v.x - nx - ax, v.y - ny - ay)
            return
        }
        emit(v.x + nx, v.y + ny)
        emitCap(v.x, v.y, ux, uy)
        emit(v.x - nx, v.y - ny)
        emitCap(v.x, v.y, -ux, -uy)
    }
}
