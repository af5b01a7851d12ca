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
//
// Off-canvas stretches. The renderers pass the target (`Stroker.Window`): where a centreline segment's pen
// cannot reach it, dashing makes no dash and counts none; the pattern is moved across such a stretch by
// arithmetic (where in the period its end falls: a remainder and a binary search over the intervals), so a
// [1] dash along a line from x = −2·10⁶ to a 100 px canvas makes the ~50 visible dashes, not 10⁶ before it.
// The cap then counts the dashes that can show, and still bounds work and memory for a pattern that really
// has millions of them on the canvas. The visible dashes are those of the whole path up to rounding: the
// phase after a hidden stretch is as exact as its length in doubles, so a stretch beyond ~2⁵³ periods long
// (10²⁰ px of a [1] dash) leaves the phase to rounding, which is the same on every backend.

extension Stroker {
    /// Dashes allowed in one path (see the note at the top of `Dash.swift`).
    package static let maxDashesPerPath = 1_000_000

    /// A validated dash pattern: an even number of finite, non-negative intervals with a positive sum,
    /// on-interval first, and where the phase puts the start.
    package struct DashPattern: Equatable {
        package var intervals: [Double]
        /// The interval the pattern starts in (even: on) and how much of it remains at the start.
        package var startIndex: Int
        package var startRemaining: Double

        /// nil means "draw a solid line" (see the file note for which patterns those are).
        /// `DashPattern([10, 5], phase: 3)` → intervals [10, 5], start in interval 0 with 7 left.
        package init?(_ dash: [CGFloat], phase: CGFloat) {
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
    ///
    /// `window` (the stroke's target, `Stroker.Window`): stretches of the centreline whose pen cannot reach
    /// it are hidden. The pattern moves on across them by arithmetic, in O(log n) for n intervals whatever
    /// their length, and no dash is made or counted there; a dash that runs into one ends where it starts
    /// (the pen's reach outside the target, so its cap does not show) and one that runs out of one begins
    /// where it ends. nil: every dash is made.
    @discardableResult
    package static func dash(_ input: Polyline, pattern: DashPattern, maxDashes: Int = maxDashesPerPath,
                     window: Window? = nil, into out: inout Polyline) -> Bool {
        out.vertices.reserveCapacity(input.vertices.count + 2 * input.subpaths.count)
        out.subpaths.reserveCapacity(input.subpaths.count)
        let intervals = pattern.intervals
        let count = intervals.count
        // ends[i]: where interval i ends, from the pattern's start (for skipping hidden stretches).
        var ends = [Double]()
        ends.reserveCapacity(count)
        var sum = 0.0
        for v in intervals {
            sum += v
            ends.append(sum)
        }
        let period = sum
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
            let box = window?.box(for: sp)
            var ux = 0.0, uy = 0.0
            // A dash is being built from `pieceStart`: `on`, except in and right after a hidden stretch.
            var drawing = false
            // Moves the pattern `length` on without making dashes (a hidden stretch). A length beyond the
            // largest double (or NaN from one) leaves no phase to keep: the pattern restarts there.
            func advance(_ length: Double) {
                if length <= remaining {
                    remaining -= length
                    return
                }
                var position = ends[index] - remaining + length
                if !(position < period) { position = position.truncatingRemainder(dividingBy: period) }
                if !(position >= 0 && position < period) { position = 0 }
                var lo = 0, hi = count - 1  // the first interval ending beyond `position`
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if ends[mid] > position { hi = mid } else { lo = mid + 1 }
                }
                index = lo
                remaining = min(max(ends[lo] - position, 0), intervals[lo])
                on = lo % 2 == 0
            }
            // Ends the dash being built at its last vertex, where a hidden stretch begins; one that has only
            // its first vertex (it began there) is dropped. False past `maxDashes`.
            func endAtHidden() -> Bool {
                drawing = false
                guard out.vertices.count - pieceStart >= 2 else {
                    out.vertices.removeLast(out.vertices.count - pieceStart)
                    return true
                }
                out.vertices[out.vertices.count - 1].smooth = false
                out.subpaths.append(Subpath(start: pieceStart, end: out.vertices.count, closed: false, dirX: ux, dirY: uy))
                dashes += 1
                return dashes <= maxDashes
            }
            if on {
                pieceStart = out.vertices.count
                var v = input.vertices[sp.start]
                v.smooth = false
                out.vertices.append(v)
                drawing = true
            }
            let segCount = sp.closed ? n : n - 1
            var endHidden = false
            for k in 0 ..< segCount {
                let p = input.vertices[sp.start + k]
                let q = input.vertices[sp.start + (k + 1 == n ? 0 : k + 1)]
                let dx = q.x - p.x, dy = q.y - p.y
                let len = (dx * dx + dy * dy).squareRoot()
                if len > 0 && len.isFinite { ux = dx / len; uy = dy / len }
                // The stretch walked, a → b, `span` long, between hidden stretches `before` and `after` long.
                var a = p, b = q, span = len, before = 0.0, after = 0.0
                if let window, let box {
                    switch window.part(p, q, length: len, box: box) {
                    case .whole:
                        break
                    case .hidden:
                        if drawing && !endAtHidden() { return false }
                        advance(len)
                        endHidden = true
                        continue
                    case let .part(enter, leave, hiddenBefore, inside, hiddenAfter):
                        if let enter { a = Vertex(x: enter.0, y: enter.1, smooth: false) }
                        if let leave { b = Vertex(x: leave.0, y: leave.1, smooth: false) }
                        (before, span, after) = (hiddenBefore, inside, hiddenAfter)
                    }
                    if before > 0 {
                        if drawing && !endAtHidden() { return false }
                        advance(before)
                    }
                    if on && !drawing {
                        pieceStart = out.vertices.count
                        a.smooth = false
                        out.vertices.append(a)
                        drawing = true
                    }
                }
                var t = 0.0  // distance along the stretch already dashed
                // An interval that ends exactly at b is finished by the next segment (or the end below).
                while span - t > remaining {
                    t += remaining
                    let f = t / span
                    let x = a.x + (b.x - a.x) * f, y = a.y + (b.y - a.y) * f
                    let (tx, ty) = tangent(leaving: p, arriving: q, at: (before + t) / len, chord: (ux, uy))
                    let cut = Vertex(x: x, y: y, smooth: false, inX: tx, inY: ty, outX: tx, outY: ty)
                    if on {
                        out.vertices.append(cut)
                        out.subpaths.append(Subpath(start: pieceStart, end: out.vertices.count, closed: false,
                                                    dirX: ux, dirY: uy))
                        dashes += 1
                        if dashes > maxDashes { return false }
                        drawing = false
                    } else {
                        pieceStart = out.vertices.count
                        out.vertices.append(cut)
                        drawing = true
                    }
                    index = index + 1 == count ? 0 : index + 1
                    remaining = intervals[index]
                    on.toggle()
                }
                remaining -= span - t
                if on { out.vertices.append(b) }
                endHidden = after > 0
                if endHidden {
                    if drawing && !endAtHidden() { return false }
                    advance(after)
                }
            }
            if drawing {
                out.vertices[out.vertices.count - 1].smooth = false
                out.subpaths.append(Subpath(start: pieceStart, end: out.vertices.count, closed: false,
                                            dirX: ux, dirY: uy))
                dashes += 1
                if dashes > maxDashes { return false }
            } else if !on && !sp.closed && !endHidden {
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
