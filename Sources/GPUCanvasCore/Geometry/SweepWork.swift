// How much work a scanbeam sweep over a set of contours does, counted before Clipper is asked to do it.
//
// Clipper's Vatti sweep walks its active edge list once per scanbeam (between two consecutive distinct vertex
// y values) and handles each crossing inside a beam on its own, creating output points for it. Its time and
// memory therefore grow with W = Σ over beams of the active edges + the crossings. A few thousand segments can
// make W enormous: two self-intersecting scribbles of 20 000 random segments each have tens of millions of
// crossings, and Clipper ran for minutes and past 2 GB on them, while a bound on the point count alone
// (`PathBoolean.maxPoints`) let them through.
//
// `SweepWork.fits` runs the same sweep without building anything: the active edges are kept ordered by x, and
// at each beam they are reordered by their x at the beam's top with an insertion sort, whose swaps are exactly
// the crossings inside the beam; a horizontal edge adds the edges active at its y, the most it can cross. The count stops as soon as W passes the limit, so the check itself costs at
// most the limit plus sorting the edges and the beam boundaries (O(n log n)).
package enum SweepWork {
    private struct Edge {
        var yMin: Double, yMax: Double
        var xAtMin: Double, slope: Double  // dx/dy
        func x(at y: Double) -> Double { xAtMin + (y - yMin) * slope }
    }

    /// True when a sweep over `contours` (each closed back to its start when `closed`, as Clipper fills it)
    /// does at most `limit` units of work: active edges summed over the beams, plus crossings.
    package static func fits(_ contours: [(points: [DevicePoint], closed: Bool)], limit: Int) -> Bool {
        work(contours, limit: limit) <= limit
    }

    /// The sweep's work over `contours`, counted up to the first point past `limit`; or, when a coarse bound is
    /// already within `limit` (every edge active in every beam, every pair of edges crossing, every horizontal
    /// meeting every edge), that bound, without the sweep: two 1000-line paths need no sweep.
    package static func work(_ contours: [(points: [DevicePoint], closed: Bool)], limit: Int = .max) -> Int {
        var edges: [Edge] = []
        var ys: [Double] = []
        var horizontals: [Double] = []
        for c in contours where c.points.count >= 2 {
            let n = c.points.count
            for i in 0 ..< (c.closed ? n : n - 1) {
                let a = c.points[i], b = c.points[(i + 1) % n]
                // A horizontal edge spans no beam; it crosses at most the edges active at its y.
                guard a.y != b.y else { horizontals.append(a.y); continue }
                let (lo, hi) = a.y < b.y ? (a, b) : (b, a)
                edges.append(Edge(yMin: lo.y, yMax: hi.y, xAtMin: lo.x, slope: (hi.x - lo.x) / (hi.y - lo.y)))
                ys.append(lo.y)
                ys.append(hi.y)
            }
        }
        guard !edges.isEmpty else { return 0 }
        ys.sort()
        var beams: [Double] = []
        beams.reserveCapacity(ys.count)
        for y in ys where beams.last != y { beams.append(y) }
        // Every factor is below 2²⁶ (two operands of at most `PathBoolean.maxPoints` points), so no product overflows.
        let n = edges.count, h = horizontals.count
        if limit != .max, n < 1 << 26, h < 1 << 26 {
            let bound = n * beams.count + n * (n - 1) / 2 + h * n
            if bound <= limit { return bound }
        }
        // By start, then (edges leaving one vertex) by where they go: each beam's new edges come in x order.
        edges.sort { ($0.yMin, $0.xAtMin, $0.slope) < ($1.yMin, $1.xAtMin, $1.slope) }
        horizontals.sort()

        // Edge indices ordered by x at the current beam boundary, their x at the next boundary, and a buffer to
        // merge new edges through: one allocation each for the whole sweep.
        var active = [Int](repeating: 0, count: edges.count), spare = active
        var xs = [Double](repeating: 0, count: edges.count)
        var count = 0, work = 0, next = 0, nextHorizontal = 0
        edges.withUnsafeBufferPointer { edges in
            active.withUnsafeMutableBufferPointer { active in
                spare.withUnsafeMutableBufferPointer { spare in
                    xs.withUnsafeMutableBufferPointer { xs in
                        for k in beams.indices {
                            let y = beams[k]
                            var kept = 0
                            for i in 0 ..< count where edges[active[i]].yMax > y {
                                active[kept] = active[i]
                                kept += 1
                            }
                            count = kept
                            if next < edges.count, edges[next].yMin == y {
                                var end = next
                                while end < edges.count, edges[end].yMin == y { end += 1 }
                                // Merge the new edges [next, end) into the active ones, both in x order.
                                var i = 0, j = next, n = 0
                                while i < count || j < end {
                                    if j == end || (i < count && edges[active[i]].x(at: y) <= edges[j].xAtMin) {
                                        spare[n] = active[i]; i += 1
                                    } else {
                                        spare[n] = j; j += 1
                                    }
                                    n += 1
                                }
                                for m in 0 ..< n { active[m] = spare[m] }
                                count = n
                                next = end
                            }
                            while nextHorizontal < horizontals.count, horizontals[nextHorizontal] <= y {
                                if horizontals[nextHorizontal] == y { work += count }
                                nextHorizontal += 1
                            }
                            guard k + 1 < beams.count, work <= limit else { break }
                            let top = beams[k + 1]
                            for i in 0 ..< count { xs[i] = edges[active[i]].x(at: top) }
                            work += count
                            // Insertion sort by x at the top of the beam; each swap is one crossing inside it.
                            for i in 1 ..< max(count, 1) {
                                var j = i
                                while j > 0, xs[j - 1] > xs[j] {
                                    xs.swapAt(j - 1, j)
                                    active.swapAt(j - 1, j)
                                    j -= 1
                                    work += 1
                                }
                                if work > limit { break }
                            }
                            if work > limit { break }
                        }
                    }
                }
            }
        }
        return work
    }
}
