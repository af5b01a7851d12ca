// Values every stage of the GLES backend shares: fill rules, pixel rectangles, and the helpers that run CPU
// work on all cores.

import Dispatch
import Foundation

/// Fill rule of a prepared path.
enum CoverageRule: Int16 {
    case nonZero = 0
    case evenOdd = 1
}

/// A rectangle of whole device pixels.
struct PixelRect: Equatable {
    var x: Int, y: Int, width: Int, height: Int
    var area: Int { width * height }
}

/// How many threads CPU work (coverage, lowering) spreads over.
enum Parallelism {
    /// The most coverage workers a renderer uses; each cached glyph outline has a mask slot per worker.
    static let maxWorkers = 8
    /// The machine's cores, at most `maxWorkers`.
    static let workers = max(1, min(maxWorkers, ProcessInfo.processInfo.activeProcessorCount))
}

/// Splits `0 ..< count` into at most `parts` contiguous ranges of about equal summed `cost`.
func balancedRanges(count: Int, parts: Int, cost: (Int) -> Int) -> [Range<Int>] {
    guard count > 0 else { return [] }
    let parts = max(1, min(parts, count))
    if parts == 1 { return [0 ..< count] }
    var total = 0
    for i in 0 ..< count { total += max(1, cost(i)) }
    var ranges: [Range<Int>] = []
    var start = 0, acc = 0
    for i in 0 ..< count {
        acc += max(1, cost(i))
        if ranges.count < parts - 1 && acc * parts >= total * (ranges.count + 1) {
            ranges.append(start ..< i + 1)
            start = i + 1
        }
    }
    if start < count { ranges.append(start ..< count) }
    return ranges
}

/// Runs `body(i)` for `0 ..< n` on up to `n` threads and waits.
func parallelForEach(_ n: Int, _ body: (Int) -> Void) {
    if n <= 1 {
        for i in 0 ..< n { body(i) }
        return
    }
    withoutActuallyEscaping(body) { b in
        let box = UncheckedSendable(b)
        DispatchQueue.concurrentPerform(iterations: n) { i in box.value(i) }
    }
}

/// Shares a value with worker threads that only touch disjoint parts of it.
struct UncheckedSendable<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// Calls `body(x0, y0, x1, y1)` for every edge of contours `range` of `polys`, closing edges included
/// (horizontal ones too).
@inline(__always)
func forEachPreparedEdge(_ polys: Polygons, contours range: Range<Int>, _ body: (Double, Double, Double, Double) -> Void) {
    polys.points.withUnsafeBufferPointer { pts in
        for c in range {
            let r = polys.contourRange(c)
            guard r.count >= 2 else { continue }
            var prev = pts[r.upperBound - 1]
            for i in r {
                let p = pts[i]
                body(prev.x, prev.y, p.x, p.y)
                prev = p
            }
        }
    }
}
