// Path boolean operations: paths → flattened contours → Clipper (Sources/CClipper) → paths.
//
// Curves are flattened in the path's own space at `Flatten.tolerance` (0.05 user units, the stroker's and
// `strokedPath`'s tolerance), so results are straight-edged; scale a path up before combining it if the result
// will be magnified. Every contour is then scaled by a power of two into Clipper's integer grid:
//
// - The factor is 2^k with k chosen from the largest coordinate magnitude M of both operands so that
//   M · 2^k < 2^29, under Clipper's fast 64-bit range (2^30 − 1) with room for the rounding. A power of two
//   makes the scaling exact in Double; only the rounding to integers loses anything.
// - Precision: each point moves by at most half a grid step, 2^−k / 2 per axis, which is below M · 2^−29
//   (about 2·10^−9 of M): 2·10^−6 units for coordinates up to 1000. Intersection points Clipper adds are
//   rounded to the same grid.
// - Range: every finite input fits, 10^300 and subnormals included; what a huge operand costs is relative
//   precision for a small one beside it (next to a 10^12-unit shape the grid step is 2^11 units, and a 1-unit
//   shape vanishes).
//
// So a result's edges lie within `Flatten.tolerance` + M · 2^−29 of the exact combination of the curves
// (curves so large that their flattening reaches `Flatten.maxSegmentsPerCurve` lose the 0.05 bound, as when
// drawn). Non-finite coordinates in either operand give an empty path, as `trimmedPath` and `dashedPath` do, and
// so does an operand that flattens to more than `maxPoints` points (as `strokedPath` beyond its bound) and a pair
// whose sweep would cost more than `maxSweepWork` (a few thousand segments can cross each other millions of times);
// a result Clipper cannot compute (it reports an error instead of throwing across the C boundary) is empty
// too. Degenerate contours (fewer than 3 distinct points, or zero area) add nothing.
import CClipper

package enum PathBoolean {
    /// M · 2^k stays below 2^`gridExponent` (Clipper's fast range is 2^30 − 1).
    package static let gridExponent = 29
    /// Most flattened points one operand may have (the stroker's outline bound, 16 M): beyond it the operation
    /// gives an empty path rather than gigabytes of contours (10⁵ curves of 4096 lines each would be 6 GB).
    package static let maxPoints = Stroker.maxOutlinePoints
    /// Most sweep work (`SweepWork`: active edges summed over the scanbeams, plus crossings) an operation may
    /// take: beyond it the result is an empty path, as beyond `maxPoints`. Clipper spends about 0.2 s per million
    /// (debug build of this package, Debian's optimised Clipper): a ring of 1000 zigzag cubics unioned with a
    /// copy of itself (62 000 points, 3.7 M) takes 0.7 s, two random 1500-segment scribbles (4.1 M) 0.7 s; past
    /// that crossings cost more each (7 M: 1.5 s, 16 M: 4 s), and two 20 000-segment scribbles ran for minutes.
    package static let maxSweepWork = 1 << 23

    /// A flattened subpath in user space.
    package struct Contour {
        package var points: [DevicePoint]
        package var closed: Bool
    }

    /// The subpaths of `path` as polylines, curves flattened at `tolerance` user units. Lone moves are dropped;
    /// a subpath ended by `closeSubpath` is `closed`. Nil when a coordinate (or a flattened point) is not finite,
    /// or when there would be more than `maxPoints` points.
    package static func contours(of path: Path, tolerance: Double = Flatten.tolerance) -> [Contour]? {
        guard pointCount(path, tolerance: tolerance) <= maxPoints else { return nil }
        var out: [Contour] = []
        var total = 0
        var current: [DevicePoint] = []
        var start = DevicePoint(x: 0, y: 0)
        var pen = start
        var finite = true
        func pt(_ p: CGPoint) -> DevicePoint {
            if !(p.x.isFinite && p.y.isFinite) { finite = false }
            return DevicePoint(x: Double(p.x), y: Double(p.y))
        }
        func begin() { if current.isEmpty { current.append(start); pen = start } }
        func finish(closed: Bool) {
            if !current.isEmpty { out.append(Contour(points: current, closed: closed)) }
            total += current.count
            current = []
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                finish(closed: false)
                start = pt(p); pen = start
            case .line(let p):
                begin()
                pen = pt(p); current.append(pen)
            case .quadCurve(let p, let c):
                begin()
                let p2 = pt(p)
                Flatten.quad(pen, pt(c), p2, tolerance: tolerance) { q, _ in current.append(q) }
                pen = p2
            case .curve(let p, let c1, let c2):
                begin()
                let p3 = pt(p)
                Flatten.cubic(pen, pt(c1), pt(c2), p3, tolerance: tolerance) { q, _ in current.append(q) }
                pen = p3
            case .closeSubpath:
                begin()
                finish(closed: true)
                pen = start
            }
            guard finite, total + current.count <= maxPoints else { return nil }
        }
        finish(closed: false)
        for c in out { for p in c.points where !(p.x.isFinite && p.y.isFinite) { return nil } }
        return out
    }

    /// The number of points `contours` makes of `path`, or a little more (a lone move counts its point), counted
    /// without flattening, so that a path past `maxPoints` costs no memory.
    package static func pointCount(_ path: Path, tolerance: Double) -> Int {
        var count = 0
        var start = DevicePoint(x: 0, y: 0), pen = start
        func dp(_ p: CGPoint) -> DevicePoint { DevicePoint(x: Double(p.x), y: Double(p.y)) }
        for e in path.elements {
            switch e {
            case .move(let p): count += 1; start = dp(p); pen = start
            case .line(let p): count += 1; pen = dp(p)
            case .quadCurve(let p, let c):
                let p2 = dp(p)
                count += Flatten.quadSegments(pen, dp(c), p2, tolerance: tolerance); pen = p2
            case .curve(let p, let c1, let c2):
                let p3 = dp(p)
                count += Flatten.cubicSegments(pen, dp(c1), dp(c2), p3, tolerance: tolerance); pen = p3
            case .closeSubpath: count += 1; pen = start
            }
        }
        return count
    }

    /// The exponent k of the power-of-two factor 2^k that maps the contours into Clipper's grid (see the file
    /// comment). k runs from −995 (coordinates near Double's largest) to 1102 (subnormal ones), beyond what one
    /// Double factor can hold, so points are scaled by `Double(sign:exponent:significand:)`, exact either way.
    package static func scaleExponent(_ sets: [[Contour]]) -> Int {
        var m = 0.0
        for set in sets { for c in set { for p in c.points { m = max(m, abs(p.x), abs(p.y)) } } }
        guard m > 0 else { return 0 }
        // m < 2^(exponent + 1), so m · 2^k < 2^gridExponent.
        return gridExponent - 1 - Int(m.exponent)
    }

    /// Interleaved integer coordinates and per-contour counts. Open subpaths stay open when `asLines`; a closed
    /// subpath then repeats its start point so that its closing segment is clipped too.
    private static func grid(_ contours: [Contour], exponent k: Int, asLines: Bool) -> (xy: [Int64], counts: [Int32]) {
        func scaled(_ v: Double) -> Int64 { Int64(Double(sign: .plus, exponent: k, significand: v).rounded()) }
        var xy: [Int64] = []
        var counts: [Int32] = []
        xy.reserveCapacity(contours.reduce(0) { $0 + 2 * $1.points.count + 2 })
        for c in contours {
            var n: Int32 = 0
            for p in c.points {
                xy.append(scaled(p.x))
                xy.append(scaled(p.y))
                n += 1
            }
            if asLines, c.closed, let p = c.points.first {
                xy.append(scaled(p.x))
                xy.append(scaled(p.y))
                n += 1
            }
            counts.append(n)
        }
        return (xy, counts)
    }

    /// A result's contours back in user space, each with its component index.
    package struct Output {
        package var contours: [(points: [CGPoint], component: Int)] = []
    }

    /// Runs Clipper. `subject` is filled (closed contours) unless `lines`; `clip` is always filled. Nil when
    /// Clipper reports an error or the sweep would take more than `maxSweepWork`.
    package static func run(_ op: CClipperOperation, subject: [Contour], clip: [Contour], evenOdd: Bool,
                            lines: Bool) -> Output? {
        let swept = subject.map { (points: $0.points, closed: lines ? $0.closed : true) }
            + clip.map { (points: $0.points, closed: true) }
        guard SweepWork.fits(swept, limit: maxSweepWork) else { return nil }
        let k = scaleExponent([subject, clip])
        let s = grid(subject, exponent: k, asLines: lines)
        let c = grid(clip, exponent: k, asLines: false)
        var result: OpaquePointer?
        let status = s.xy.withUnsafeBufferPointer { sxy in
            s.counts.withUnsafeBufferPointer { sc in
                c.xy.withUnsafeBufferPointer { cxy in
                    c.counts.withUnsafeBufferPointer { cc in
                        cclipper_execute(op, sxy.baseAddress, sc.baseAddress, Int32(sc.count), lines ? 1 : 0,
                                         cxy.baseAddress, cc.baseAddress, Int32(cc.count), evenOdd ? 1 : 0, &result)
                    }
                }
            }
        }
        guard status == CClipperOK, let r = result else { return nil }
        defer { cclipper_free(r) }
        func unscaled(_ v: Int64) -> Double { Double(sign: .plus, exponent: -k, significand: Double(v)) }
        var out = Output()
        var buffer: [Int64] = []
        for i in 0 ..< cclipper_contour_count(r) {
            let n = Int(cclipper_point_count(r, i))
            if buffer.count < 2 * n { buffer = [Int64](repeating: 0, count: 2 * n) }
            buffer.withUnsafeMutableBufferPointer { cclipper_copy_points(r, i, $0.baseAddress) }
            var pts: [CGPoint] = []
            pts.reserveCapacity(n)
            for j in 0 ..< n {
                pts.append(CGPoint(x: unscaled(buffer[2 * j]), y: unscaled(buffer[2 * j + 1])))
            }
            out.contours.append((pts, Int(cclipper_component(r, i))))
        }
        return out
    }

    /// A filled operation: `a` op `b`, both filled by the rule; the result as closed straight subpaths.
    package static func fill(_ op: CClipperOperation, _ a: Path, _ b: Path, evenOdd: Bool) -> Path {
        components(op, a, b, evenOdd: evenOdd).reduce(into: Path()) { $0.addPath($1) }
    }

    /// As `fill`, one path per component (an outer contour and its holes).
    package static func components(_ op: CClipperOperation, _ a: Path, _ b: Path, evenOdd: Bool) -> [Path] {
        guard let ca = contours(of: a), let cb = contours(of: b),
              let out = run(op, subject: ca, clip: cb, evenOdd: evenOdd, lines: false) else { return [] }
        var paths: [Path] = []
        for (pts, component) in out.contours where pts.count >= 3 {
            while paths.count <= component { paths.append(Path()) }
            paths[component].elements.append(.move(to: pts[0]))
            for p in pts.dropFirst() { paths[component].elements.append(.line(to: p)) }
            paths[component].elements.append(.closeSubpath)
        }
        return paths.filter { !$0.isEmpty }
    }

    /// The outline (line) of `a` inside (`.intersection`) or outside (`.difference`) `b`'s fill. A polyline
    /// that comes back ending where it starts is a closed subpath Clipper kept whole, and is closed again.
    package static func line(_ op: CClipperOperation, _ a: Path, _ b: Path, evenOdd: Bool) -> Path {
        guard let ca = contours(of: a), let cb = contours(of: b),
              let out = run(op, subject: ca, clip: cb, evenOdd: evenOdd, lines: true) else { return Path() }
        var path = Path()
        for (pts, _) in out.contours where pts.count >= 2 {
            let closed = pts.count >= 4 && pts.first == pts.last
            path.elements.append(.move(to: pts[0]))
            for p in pts.dropFirst().dropLast(closed ? 1 : 0) { path.elements.append(.line(to: p)) }
            if closed { path.elements.append(.closeSubpath) }
        }
        return path
    }

    /// `path` with every curve replaced by lines within `threshold` (the element structure otherwise kept);
    /// empty when a coordinate is not finite. A threshold that is zero, negative or NaN gives the finest
    /// flattening, `Flatten.maxSegmentsPerCurve` lines per curve.
    package static func flattened(_ path: Path, threshold: Double) -> Path {
        guard path.isFinite else { return Path() }
        var out = Path()
        out.elements.reserveCapacity(path.elements.count)
        var start = DevicePoint(x: 0, y: 0), pen = start
        func dp(_ p: CGPoint) -> DevicePoint { DevicePoint(x: Double(p.x), y: Double(p.y)) }
        for e in path.elements {
            switch e {
            case .move(let p):
                out.elements.append(e); start = dp(p); pen = start
            case .line(let p):
                out.elements.append(e); pen = dp(p)
            case .quadCurve(let p, let c):
                let p2 = dp(p)
                Flatten.quad(pen, dp(c), p2, tolerance: threshold) { q, _ in
                    out.elements.append(.line(to: CGPoint(x: q.x, y: q.y)))
                }
                pen = p2
            case .curve(let p, let c1, let c2):
                let p3 = dp(p)
                Flatten.cubic(pen, dp(c1), dp(c2), p3, tolerance: threshold) { q, _ in
                    out.elements.append(.line(to: CGPoint(x: q.x, y: q.y)))
                }
                pen = p3
            case .closeSubpath:
                out.elements.append(e); pen = start
            }
        }
        return out
    }
}
