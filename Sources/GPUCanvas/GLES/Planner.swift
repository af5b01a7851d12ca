// The planner: a `Recording` → a `CommandBuffer`.
//
// 1. Prepare: every draw is validated (finite transform, path and stroke numbers, finite device bounds),
//    flattened (`Flatten.fill`) or stroked (`Stroker.outline`) in device space, and given its pixel box
//    (device bounds ∩ target). Draws are independent here, so the work is split over the CPU cores; each
//    worker appends into its own `Polygons` store and the draws remember where their contours went.
// 2. Layout: each path's pixel box is cut into pieces no larger than `maxPiece` and packed into the atlas
//    with a shelf packer; when the atlas is full a new batch begins (`AtlasLayout`).
// 3. The path strategy turns the batches into uploads and draws: one instanced cover draw per batch (plus
//    one accumulation draw for GPU tessellation), so draws with the same state share a draw call.
//
// The frame pass starts with a clear: transparent, or opaque black for `opaque` canvases.

import Dispatch
import Foundation

/// How paths become coverage on a device (DESIGN.md "Coverage").
///
/// `GLESOptions(pathStrategy: .gpuTessellation)` forces the GPU route even on llvmpipe.
public enum PathStrategyKind: String, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    /// Coverage computed on the CPU into an atlas texture, composited by one instanced draw (llvmpipe's default).
    case rasterAtlas = "raster-atlas"
    /// Segments accumulate exact signed area into a float atlas on the GPU; a cover pass applies the fill
    /// rule (hardware GPUs' default).
    case gpuTessellation = "gpu-tessellation"

    public var description: String { rawValue }
}

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

/// A draw ready for a path strategy: device-space contours plus what the cover pass needs.
struct PreparedPath {
    var drawIndex: Int
    /// Index of the `Polygons` store holding the contours.
    var store: Int
    var contours: Range<Int>
    var edgeCount: Int
    var box: PixelRect
    var rule: CoverageRule
    var antialiased: Bool
    /// Premultiplied, opacity applied.
    var color: RGBA
    /// Whether the path can have interiors wide enough to draw as solid rectangles (`RasterAtlasStrategy`'s
    /// paint form): every fill, and strokes at least `Planner.solidStrokeWidth` device pixels wide.
    var mayHaveInteriors = true
}

/// One atlas-sized piece of a path's pixel box.
struct AtlasPiece {
    var path: Int  // index into the prepared paths
    var rect: PixelRect  // device pixels
    var atlasX: Int, atlasY: Int
}

/// Pieces grouped into batches that each fit one atlas.
struct AtlasLayout {
    var pieces: [AtlasPiece] = []
    /// Per batch: its pieces and the atlas rows it uses.
    var batches: [(pieces: Range<Int>, usedHeight: Int)] = []

    /// Cuts and packs `paths` in order into `width × maxHeight` atlases.
    init(paths: [PreparedPath], width: Int, maxHeight: Int, maxPiece: (Int, Int)) {
        var packer = ShelfPacker(width: width, maxHeight: maxHeight)
        var batchStart = 0
        for (i, p) in paths.enumerated() {
            var y = p.box.y
            while y < p.box.y + p.box.height {
                let h = min(maxPiece.1, p.box.y + p.box.height - y)
                var x = p.box.x
                while x < p.box.x + p.box.width {
                    let w = min(maxPiece.0, p.box.x + p.box.width - x)
                    var slot = packer.allocate(width: w, height: h)
                    if slot == nil {
                        batches.append((batchStart ..< pieces.count, packer.usedHeight))
                        batchStart = pieces.count
                        packer.reset()
                        slot = packer.allocate(width: w, height: h)
                    }
                    let s = slot!  // a fresh atlas always holds a piece: maxPiece ≤ the atlas size
                    pieces.append(AtlasPiece(path: i, rect: PixelRect(x: x, y: y, width: w, height: h),
                                             atlasX: s.x, atlasY: s.y))
                    x += w
                }
                y += h
            }
        }
        if pieces.count > batchStart { batches.append((batchStart ..< pieces.count, packer.usedHeight)) }
    }
}

/// Shelf packing: rectangles go left to right on shelves; a shelf is reused by rectangles at most a quarter
/// (plus 4 rows) shorter than it, so little height is wasted, and a new shelf opens below the last.
/// `tight`: at most an eighth (plus 3 rows) shorter, for atlases that upload only each shelf's used part
/// (the raster atlas: measured on S1-fills, 32.1 MiB of BGRA8 uploads instead of 34.5 MiB, and a lower atlas).
struct ShelfPacker {
    let width: Int
    let maxHeight: Int
    let tight: Bool
    /// The shelves so far, top to bottom: first row, rows, columns used from the left.
    private(set) var shelves: [(y: Int, height: Int, used: Int)] = []
    private(set) var usedHeight = 0

    init(width: Int, maxHeight: Int, tight: Bool = false) {
        self.width = width
        self.maxHeight = maxHeight
        self.tight = tight
    }

    mutating func reset() {
        shelves.removeAll(keepingCapacity: true)
        usedHeight = 0
    }

    /// A `w × h` slot: its top-left texel and the index of its shelf; nil when the atlas is full.
    mutating func allocate(width w: Int, height h: Int) -> (x: Int, y: Int, shelf: Int)? {
        guard w <= width, h <= maxHeight else { return nil }
        for i in shelves.indices.reversed() {
            let s = shelves[i]
            let slack = tight ? h / 8 + 3 : h / 4 + 4
            if s.height >= h && s.height <= h + slack && s.used + w <= width {
                shelves[i].used += w
                return (s.used, s.y, i)
            }
        }
        let sh = min(maxHeight, (h + 3) & ~3)
        guard usedHeight + sh <= maxHeight else { return nil }
        shelves.append((usedHeight, sh, w))
        usedHeight += sh
        return (0, usedHeight - sh, shelves.count - 1)
    }
}

/// A path strategy: prepared paths → atlas work and cover draws in the command buffer.
protocol PathStrategy: AnyObject {
    var kind: PathStrategyKind { get }
    /// The frame target's texel format (what the strategy's programs blend into).
    var frameFormat: TextureFormat { get }
    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws
}

extension PathStrategy {
    var frameFormat: TextureFormat { .rgba8 }
}

/// What a strategy needs to know about the frame it draws into.
struct FrameEncoding {
    var width: Int
    var height: Int
    var clearColor: RGBA
    /// Replays a part of the frame (without readback); nil where the frame cannot be split.
    var replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)?

    /// The index of a pass targeting the frame that commands may be appended to: the last pass when it
    /// targets the frame, else a new one (clearing when it is the frame's first pass).
    func framePass(in cb: inout CommandBuffer) -> Int {
        if let last = cb.passes.last, last.target == .frame { return cb.passes.count - 1 }
        let first = !cb.continuesFrame && !cb.passes.contains { $0.target == .frame }
        cb.passes.append(RenderPass(target: .frame, load: first ? .clear(clearColor) : .load, clearRect: nil,
                                    store: .store))
        return cb.passes.count - 1
    }

    /// Replays what `cb` holds so far and empties it for the rest of the frame: a strategy calls this
    /// between the parts of a frame too large to stage at once. The frame's pixels stay in its target.
    func submitPart(_ cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard let replay else { throw RenderError.gpu("internal: this frame cannot be replayed in parts") }
        cb.readsBack = false
        try replay(cb, &timings)
        cb.beginNextPart()
    }
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

final class Planner {
    /// Worker threads for CPU work (flattening, coverage): the machine's cores, at most 8.
    let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    /// Below this many path elements (or coverage pixels) per frame, threads cost more than they save.
    static let parallelThreshold = 4096

    private var stores: [Polygons] = []
    private var prepared: [PreparedPath] = []

    /// Plans `recording` into `cb` (which is reset first).
    /// `replay` executes a part of a frame that is planned in parts (`FrameEncoding.submitPart`).
    func plan(_ recording: Recording, target: RenderTarget, strategy: PathStrategy,
              into cb: inout CommandBuffer, timings: inout GLESFrameTimings,
              replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)? = nil) throws {
        cb.reset()
        guard recording.colorMode == .nonLinear else {
            throw RenderError.unsupported("colorMode .\(recording.colorMode) on the GLES backend (only .nonLinear is drawn yet)")
        }
        let t0 = DispatchTime.now().uptimeNanoseconds
        try prepare(recording, target: target)
        let t1 = DispatchTime.now().uptimeNanoseconds
        timings.geometry += Double(t1 - t0) / 1e9

        var clear = recording.isOpaque ? RGBA(r: 0, g: 0, b: 0, a: 1) : .transparent
        // An opaque rectangle over the whole target hides everything before it: it becomes the clear colour
        // (exact: source-over of an opaque colour at coverage 1 is that colour), so a background fill costs
        // nothing but the clear.
        var first = 0
        for (i, p) in prepared.enumerated().reversed() where p.color.a == 1 && Self.coversTarget(p, stores, target) {
            clear = p.color
            first = i + 1
            break
        }
        if first > 0 { prepared.removeFirst(first) }
        let frame = FrameEncoding(width: target.width, height: target.height, clearColor: clear, replay: replay)
        cb.declare(.frame, TextureDesc(width: target.width, height: target.height, format: strategy.frameFormat))
        let replayedSubmit = timings.submit  // parts replayed while encoding count as submit, not coverage
        try strategy.encode(prepared, stores: stores, frame: frame, into: &cb, timings: &timings)
        _ = frame.framePass(in: &cb)  // a frame with nothing drawn still clears
        timings.coverage += Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9 - (timings.submit - replayedSubmit)
    }

    /// True when the path is one axis-aligned rectangle containing the whole target (coverage 1 on every
    /// pixel under either fill rule, anti-aliased or not).
    static func coversTarget(_ p: PreparedPath, _ stores: [Polygons], _ target: RenderTarget) -> Bool {
        guard p.box == PixelRect(x: 0, y: 0, width: target.width, height: target.height),
              p.contours.count == 1 else { return false }
        let polys = stores[p.store]
        let r = polys.contourRange(p.contours.lowerBound)
        guard r.count == 4 else { return false }
        let pts = (0 ..< 4).map { polys.points[r.lowerBound + $0] }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max(),
              x0 <= 0, y0 <= 0, x1 >= Double(target.width), y1 >= Double(target.height) else { return false }
        // Every edge is horizontal or vertical and every corner is a corner of the bounds.
        for i in 0 ..< 4 {
            let a = pts[i], b = pts[(i + 1) % 4]
            guard a.x == b.x || a.y == b.y else { return false }
            guard (a.x == x0 || a.x == x1) && (a.y == y0 || a.y == y1) else { return false }
        }
        return Set(pts.map { "\($0.x),\($0.y)" }).count == 4
    }

    /// Narrower strokes are not searched for solid interiors: a stroke's interior is at most its width
    /// across, and a band's interior pays only from `RasterAtlasStrategy.solidMinArea` (512) pixels, so
    /// under ~16 px it never does, while looking for it costs the resolve and the band search (measured on
    /// S2-strokes, widths 1–12: +15 % resolve and +50 % band-search samples for no solid at all).
    static let solidStrokeWidth = 16.0

    /// A stroked path element costs about ten filled ones to prepare (offsetting, joins, caps, dashes):
    /// measured on S2-strokes, ~4.7 µs per element against ~0.5 µs per element of S1-fills' shapes. Counting
    /// stroke elements as one kept S2's 3000 elements under `parallelThreshold`, on one core (14 ms).
    static let strokeElementCost = 10

    /// The work `prepare` does for a draw, in filled path elements.
    static func prepareCost(_ d: DrawCommand) -> Int {
        switch d.geometry {
        case .fill: return d.path.elements.count
        case .stroke: return d.path.elements.count * strokeElementCost
        }
    }

    /// Validates and flattens every draw of the root layer into `prepared` (in draw order).
    private func prepare(_ recording: Recording, target: RenderTarget) throws {
        var draws: [(index: Int, command: DrawCommand)] = []
        var totalCost = 0
        for (i, item) in recording.root.items.enumerated() {
            switch item {
            case .draw(let d):
                draws.append((i, d))
                totalCost += Self.prepareCost(d)
            }
        }
        let ranges = totalCost >= Self.parallelThreshold
            ? balancedRanges(count: draws.count, parts: workers) { Self.prepareCost(draws[$0].command) }
            : [0 ..< draws.count]
        while stores.count < ranges.count { stores.append(Polygons()) }
        if stores.count > ranges.count { stores.removeLast(stores.count - ranges.count) }
        for i in stores.indices { stores[i].plannerClear() }

        var results = [[PreparedPath]](repeating: [], count: ranges.count)
        var errors = [(Int, RenderError)?](repeating: nil, count: ranges.count)
        let device = target.deviceTransform
        stores.withUnsafeMutableBufferPointer { storeBuffer in
            results.withUnsafeMutableBufferPointer { resultBuffer in
                errors.withUnsafeMutableBufferPointer { errorBuffer in
                    let shared = UncheckedSendable((storeBuffer, resultBuffer, errorBuffer))
                    parallelForEach(ranges.count) { w in
                        let (s, r, e) = shared.value
                        for k in ranges[w] {
                            do {
                                if let p = try Self.prepare(draws[k].command, index: draws[k].index, device: device,
                                                            target: target, store: w, into: &s[w]) {
                                    r[w].append(p)
                                }
                            } catch let error as RenderError {
                                e[w] = (draws[k].index, error)
                                return
                            } catch {
                                e[w] = (draws[k].index, .invalidGeometry("draw #\(draws[k].index): \(error)"))
                                return
                            }
                        }
                    }
                }
            }
        }
        if let first = errors.compactMap({ $0 }).min(by: { $0.0 < $1.0 }) { throw first.1 }
        prepared.removeAll(keepingCapacity: true)
        for r in results { prepared.append(contentsOf: r) }
    }

    /// One draw → a prepared path (nil when it covers no pixel of the target).
    private static func prepare(_ d: DrawCommand, index: Int, device: CGAffineTransform, target: RenderTarget,
                                store: Int, into polys: inout Polygons) throws -> PreparedPath? {
        guard d.state.blendMode == .normal else {
            throw RenderError.unsupported("draw #\(index): blend mode \(d.state.blendMode) on the GLES backend (only .normal is drawn yet)")
        }
        let t = d.transform.concatenating(device)
        guard [t.a, t.b, t.c, t.d, t.tx, t.ty].allSatisfy({ $0.isFinite }) else {
            throw RenderError.invalidGeometry("draw #\(index): transform \(d.transform) is not finite")
        }
        guard d.state.opacity.isFinite else {
            throw RenderError.invalidGeometry("draw #\(index): opacity \(d.state.opacity) is not finite")
        }
        for (k, e) in d.path.elements.enumerated() {
            let finite: Bool
            switch e {
            case .move(let p), .line(let p): finite = p.x.isFinite && p.y.isFinite
            case .quadCurve(let p, let c): finite = p.x.isFinite && p.y.isFinite && c.x.isFinite && c.y.isFinite
            case .curve(let p, let c1, let c2):
                finite = p.x.isFinite && p.y.isFinite && c1.x.isFinite && c1.y.isFinite && c2.x.isFinite && c2.y.isFinite
            case .closeSubpath: finite = true
            }
            guard finite else { throw RenderError.invalidGeometry("draw #\(index): path element \(k) (\(e)) is not finite") }
        }
        let paint: RGBA
        switch d.paint {
        case .solid(let c): paint = c
        }
        let opacity = Float(min(max(d.state.opacity, 0), 1))
        let color = RGBA(r: paint.r * opacity, g: paint.g * opacity, b: paint.b * opacity, a: paint.a * opacity)

        let firstContour = polys.contourCount
        let firstPoint = polys.points.count
        let rule: CoverageRule
        let antialiased: Bool
        var mayHaveInteriors = true
        switch d.geometry {
        case .fill(let path, let style):
            Flatten.fill(path, transform: t, into: &polys)
            rule = style.isEOFilled ? .evenOdd : .nonZero
            antialiased = style.isAntialiased
        case .stroke(let path, let style):
            guard style.lineWidth.isFinite, style.miterLimit.isFinite, style.dashPhase.isFinite,
                  style.dash.allSatisfy({ $0.isFinite }) else {
                throw RenderError.invalidGeometry("draw #\(index): stroke style \(style) has a non-finite number")
            }
            do {
                polys.plannerAppend(try Stroker.outline(path, style: style, transform: t, visible: target.bounds))
            } catch {
                throw RenderError.invalidGeometry("draw #\(index): \(error)")
            }
            rule = .nonZero
            antialiased = true
            // The pen's device width where the transform squeezes it most.
            mayHaveInteriors = style.lineWidth * t.minScale >= Self.solidStrokeWidth
        }
        // Bounds of this draw's points (the store's own bounds span all draws of the worker).
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        polys.points.withUnsafeBufferPointer { pts in
            for i in firstPoint ..< pts.count {
                let p = pts[i]
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard polys.points.count > firstPoint else { return nil }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            throw RenderError.invalidGeometry("draw #\(index): the path overflows to infinity in device space")
        }
        guard color.a > 0 || color.r != 0 || color.g != 0 || color.b != 0 else { return nil }
        // Whole pixels the area can touch, clipped to the target.
        let x0 = max(0, minX.rounded(.down)), y0 = max(0, minY.rounded(.down))
        let x1 = min(Double(target.width), maxX.rounded(.up)), y1 = min(Double(target.height), maxY.rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let box = PixelRect(x: Int(x0), y: Int(y0), width: Int(x1) - Int(x0), height: Int(y1) - Int(y0))
        return PreparedPath(drawIndex: index, store: store, contours: firstContour ..< polys.contourCount,
                            edgeCount: polys.points.count - firstPoint, box: box, rule: rule,
                            antialiased: antialiased, color: color, mayHaveInteriors: mayHaveInteriors)
    }
}

// Kept file-private (and oddly named) so they cannot collide with what the geometry work adds to `Polygons`.
extension Polygons {
    /// Empties the polygons, keeping capacity.
    fileprivate mutating func plannerClear() {
        points.removeAll(keepingCapacity: true)
        contourStarts.removeAll(keepingCapacity: true)
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
    }

    /// Appends another polygon set's contours.
    fileprivate mutating func plannerAppend(_ other: Polygons) {
        let base = points.count
        for s in other.contourStarts { contourStarts.append(base + s) }
        points.append(contentsOf: other.points)
        if other.minX < minX { minX = other.minX }
        if other.minY < minY { minY = other.minY }
        if other.maxX > maxX { maxX = other.maxX }
        if other.maxY > maxY { maxY = other.maxY }
    }
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
