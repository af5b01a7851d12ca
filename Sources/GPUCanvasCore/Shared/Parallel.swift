// The CPU work both backends spread over the machine's cores (flattening and stroking, coverage, filters).

import Dispatch
import Foundation

package enum ParallelWork {
    /// The most worker threads a renderer uses; each cached glyph outline has a mask slot per worker.
    package static let maxWorkers = 8
    /// The machine's cores, at most `maxWorkers`.
    package static let workers = max(1, min(maxWorkers, ProcessInfo.processInfo.activeProcessorCount))
}

/// Splits `0 ..< count` into at most `parts` contiguous ranges of about equal summed `cost`.
package func balancedRanges(count: Int, parts: Int, cost: (Int) -> Int) -> [Range<Int>] {
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
package func parallelForEach(_ n: Int, _ body: (Int) -> Void) {
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
package struct UncheckedSendable<T>: @unchecked Sendable {
    package var value: T
    package init(_ value: T) { self.value = value }
}
