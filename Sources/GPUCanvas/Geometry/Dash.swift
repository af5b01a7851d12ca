// Dashing: splits flattened centrelines (user space) into dashes, each an open polyline that gets caps.
//
// Lengths and the phase are user-space lengths measured along the flattened centreline (chord lengths of the
// curve flattened at the stroker's tolerance; for a curve of radius R flattened with sagitta s the chords are
// shorter than the arc by a relative s/(3R) at most, e.g. 0.008 % for s = 0.025, R = 100). Boundaries are
// placed exactly on that polyline. Every subpath starts the pattern afresh at the phase, as in CoreGraphics.
//
// Decisions where CoreGraphics is silent or undocumented:
// - An empty pattern, one whose entries are all zero, or one with any negative, NaN or infinite entry (or
//   an infinite sum) strokes a SOLID line. An odd-count pattern is repeated once (CG: [a b c] = [a b c a b c]).
// - The phase wraps modulo the pattern length in both directions: with [10 5], phase 33 and phase −12 both
//   equal phase 3. A NaN or infinite phase is 0.
// - Dashes of a closed subpath are not merged across its start; if the first dash covers the whole closed
//   subpath, the subpath stays closed (joined at its start, no caps), so a pattern longer than a circle draws
//   a full ring.
// - A zero-length "on" entry is a dot (round or square caps, along the path direction); at the very end of an
//   open subpath only a zero-length entry still starts there; a closed subpath's end is its start, which was
//   already dashed.
// - At most `maxDashesPerPath` dashes per path: a pattern so fine that a path would need more (e.g. [1e−4 1e−4]
//   along 1000 units wants 5·10⁶) makes the stroke an error that says so (`Stroker.outline` throws), rather
//   than a stroke that stops part-way or vanishes (a [1e−9 1e−9] dash used to leave a blank image). The cap
//   bounds the work and memory (each dash is ≥ 4 outline points, ~100 MB at the cap with butt caps).

extension Stroker {
    /// Dashes allowed in one path (see the note at the top of `Dash.swift`).
    static let maxDashesPerPath = 1_000_000

    /// A validated dash pattern: an even number of finite, non-negative intervals with a positive sum,
    /// on-interval first, and where the phase puts the start.
    struct DashPattern: Equatable {
        var intervals: [Double]
        /// The interval the pattern starts in (even: on) and how much of it remains at the start.
        var startIndex: Int
        var startRemaining: Double

        /// nil means "draw a solid line" (see the file note for which patterns those are).
        /// `DashPattern([10, 5], phase: 3)` → intervals [10, 5], start in interval 0 with 7 left.
        init?(_ dash: [CGFloat], phase: CGFloat) {
            guard !dash.isEmpty else { return nil }
            var intervals = [Double]()
            intervals.reserveCapacity(dash.count * 2)
            var sum = 0.0
            for d in dash {
                let v = Double(d)
                guard v.isFinite, v >= 0 else { return nil }
                intervals.append(v)
                sum += v
            }
            if intervals.count % 2 == 1 {
                intervals += intervals
                sum *= 2
            }
            guard sum > 0, sum.isFinite else { return nil }
            var p = Double(phase)
            if !p.isFinite { p = 0 }
            p = p.truncatingRemainder(dividingBy: sum)
            if p < 0 { p += sum }
            if p >= sum { p = 0 }  // −tiny + sum can round up to sum
            var index = 0
            // Skip the intervals the phase passes; one ending exactly at the phase is passed too, unless it is a
            // zero-length "on" entry at phase 0 (a dot at the very start).
            while index < intervals.count - 1 && (p > intervals[index] || (p == intervals[index] && p > 0)) {
                p -= intervals[index]
                index += 1
            }
            self.intervals = intervals
            startIndex = index
            startRemaining = max(0, intervals[index] - p)
        }
    }

    /// The centreline's direction at fraction `f` of the chord p → q, for a dash's cap there: the curve
    /// tangents at p and q (`Vertex`) blended linearly, which follows a curve's turn along the chord; the
    /// chord itself on a line. `tangent(leaving: (0,0 → (1,0)), arriving: (10,0 ← (0,1)), at: 0.5, …)` →
    /// (0.707, 0.707).
    private static func tangent(leaving p: Vertex, arriving q: Vertex, at f: Double,
                                chord: (Double, Double)) -> (Double, Double) {
        let a = p.outX == 0 && p.outY == 0 ? chord : (p.outX, p.outY)
        let b = q.inX == 0 && q.inY == 0 ? chord : (q.inX, q.inY)
        let x = a.0 + (b.0 - a.0) * f, y = a.1 + (b.1 - a.1) * f
        let len = (x * x + y * y).squareRoot()
        return len.isNormal ? (x / len, y / len) : chord
    }

    /// Splits every subpath of `input` into dashes appended to `out` as open subpaths (see the file note).
    /// `maxDashes` is `maxDashesPerPath` except in tests. Returns false when the path needs more than
    /// `maxDashes` (it stops at the first one over; the outline then reports the pattern as too fine rather
    /// than draw part of the path).
    @discardableResult
    static func dash(_ input: Polyline, pattern: DashPattern, maxDashes: Int = maxDashesPerPath,
                     into out: inout Polyline) -> Bool {
        out.vertices.reserveCapacity(input.vertices.count + 2 * input.subpaths.count)
        out.subpaths.reserveCapacity(input.subpaths.count)
        let intervals = pattern.intervals
        let count = intervals.count
        var dashes = 0
        var pieceStart = 0

        for sp in input.subpaths {
            let n = sp.end - sp.start
            var index = pattern.startIndex
            var remaining = pattern.startRemaining
            var on = index % 2 == 0
            if n == 1 {
                // A zero-length subpath: a dot where the pattern starts "on".
                if on {
                    out.vertices.append(input.vertices[sp.start])
                    out.subpaths.append(Subpath(start: out.vertices.count - 1, end: out.vertices.count, closed: false))
                    dashes += 1
                    if dashes > maxDashes { return false }
                }
                continue
            }
            if sp.closed && on {
                var total = 0.0
                for k in 0 ..< n {
                    let p = input.vertices[sp.start + k], q = input.vertices[sp.start + (k + 1) % n]
                    total += ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                }
                if remaining >= total {
                    out.vertices.append(contentsOf: input.vertices[sp.start ..< sp.end])
                    out.subpaths.append(Subpath(start: out.vertices.count - n, end: out.vertices.count, closed: true))
                    dashes += 1
                    if dashes > maxDashes { return false }
                    continue
                }
            }
            if on {
                pieceStart = out.vertices.count
                var v = input.vertices[sp.start]
                v.smooth = false
                out.vertices.append(v)
            }
            let segCount = sp.closed ? n : n - 1
            var ux = 0.0, uy = 0.0
            for k in 0 ..< segCount {
                let p = input.vertices[sp.start + k]
                let q = input.vertices[sp.start + (k + 1 == n ? 0 : k + 1)]
                let dx = q.x - p.x, dy = q.y - p.y
                let len = (dx * dx + dy * dy).squareRoot()
                if len > 0 && len.isFinite { ux = dx / len; uy = dy / len }
                var t = 0.0  // distance along this segment already dashed
                // An interval that ends exactly at q is finished by the next segment (or the end below).
                while len - t > remaining {
                    t += remaining
                    let f = t / len
                    let x = p.x + dx * f, y = p.y + dy * f
                    let (tx, ty) = tangent(leaving: p, arriving: q, at: f, chord: (ux, uy))
                    let cut = Vertex(x: x, y: y, smooth: false, inX: tx, inY: ty, outX: tx, outY: ty)
                    if on {
                        out.vertices.append(cut)
                        out.subpaths.append(Subpath(start: pieceStart, end: out.vertices.count, closed: false,
                                                    dirX: ux, dirY: uy))
                        dashes += 1
                        if dashes > maxDashes { return false }
                    } else {
                        pieceStart = out.vertices.count
                        out.vertices.append(cut)
                    }
                    index = index + 1 == count ? 0 : index + 1
                    remaining = intervals[index]
                    on.toggle()
                }
                remaining -= len - t
                if on { out.vertices.append(q) }
            }
            if on {
                out.vertices[out.vertices.count - 1].smooth = false
                out.subpaths.append(Subpath(start: pieceStart, end: out.vertices.count, closed: false,
                                            dirX: ux, dirY: uy))
                dashes += 1
                if dashes > maxDashes { return false }
            } else if !sp.closed {
                // Zero-length "on" entries that start exactly at the end of an open subpath are dots there.
                let end = input.vertices[sp.end - 1]
                var guardSteps = count
                while remaining <= 0 && guardSteps > 0 {
                    index = index + 1 == count ? 0 : index + 1
                    remaining = intervals[index]
                    on.toggle()
                    guardSteps -= 1
                    if on && remaining == 0 {
                        out.vertices.append(Vertex(x: end.x, y: end.y, smooth: false))
                        out.subpaths.append(Subpath(start: out.vertices.count - 1, end: out.vertices.count,
                                                    closed: false, dirX: ux, dirY: uy))
                        dashes += 1
                        if dashes > maxDashes { return false }
                    }
                }
            }
        }
        return true
    }
}
