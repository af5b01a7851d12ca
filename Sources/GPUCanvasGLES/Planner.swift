// The planner: a `Recording` → a `CommandBuffer`.
//
// 1. Lower: the shared lowering stage (`Lowering/`) validates the recording, resolves the paints and flattens
//    or strokes every draw and clip path in device space on all cores (`LoweredFrame`).
// 2. Route: a frame whose ops are all unclipped `.normal` draws of solid colours (`isSolidSourceOver`) takes
//    the fast path: the draws become `PreparedPath`s (colour × opacity) and the path strategy's `encode`
//    computes coverage and composites it in one go (on llvmpipe, the baked-colour raster atlas). Any other
//    frame goes to the `CompositingEncoder`, which asks the strategy for coverage only (`coverage`).
// 3. On either route, an opaque rectangle covering the whole target (on the compositing route, one before
//    the first layer) becomes the clear colour, and the draws before it are dropped.
//
// The frame pass starts with a clear: transparent, opaque black for `opaque` canvases, or that rectangle's
// colour. `AtlasLayout` (pieces shelf-packed into atlas batches) serves the GPU-tessellation strategy; the
// raster atlas cuts and packs its own.

import Dispatch
import Foundation

/// How paths become coverage on a device (docs/DESIGN-NOTES.md "Coverage").
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
    /// paint form): every fill, and strokes at least `Lowering.solidStrokeWidth` device pixels wide.
    var mayHaveInteriors = true
    /// Text drawn from glyph masks: its placements in the store (`CoverageShape.glyphs`); contours are empty.
    var glyphs: Range<Int> = 0 ..< 0
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
    /// `encode` can draw into a hoisted layer's region of a layer-atlas page (`FrameEncoding.target`,
    /// `placements`): the paint form, whose atlas is its own texture.
    var paintsLayers: Bool { get }
    /// The frame target's texel format (what the strategy's programs blend into).
    var frameFormat: TextureFormat { get }
    /// The strategy draws text from glyph placements (`PreparedPath.glyphs`) with coverage masks of its own, so
    /// the lowering may hand it placements instead of contours.
    var drawsGlyphMasks: Bool { get }
    /// The fast path: coverage and source-over compositing of solid colours into the frame, in one go.
    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws
    /// Coverage only, for the compositing encoder (`CompositingEncoder`): bands in atlas batches.
    /// `highPrecision`: coverage finer than 8 bits (a linear-light frame).
    func coverage(_ paths: [PreparedPath], stores: [Polygons], highPrecision: Bool,
                  into cb: inout CommandBuffer) -> CoverageSet
}

/// One rectangle (or trapezoid) of a shape's coverage in the atlas: device pixels, the atlas texel of its
/// top-left corner, the fill rule (for accumulated coverage), the atlas batch it lives in, and the insets of a
/// trapezoid band's sides in 1/16 px.
struct CoverBand {
    var x: Int16, y: Int16, w: Int16, h: Int16
    var u: Int16, v: Int16, rule: Int16, batch: Int16
    var leftTop: Int16 = 0, leftBottom: Int16 = 0, rightTop: Int16 = 0, rightBottom: Int16 = 0
}

/// What makes the atlas hold one batch's coverage: texture uploads (raster atlas) or an accumulation pass
/// (GPU tessellation). Batches are used in order; each overwrites the atlas.
struct CoverageBatch {
    var uploads: [GPUCommand] = []
    var pass: RenderPass?
}

/// A path strategy's coverage of a frame's shapes.
struct CoverageSet {
    enum Kind {
        /// Coverage 0…1 with the fill rule applied (raster atlas).
        case coverage
        /// Signed area (GPU tessellation): the fill rule is applied when sampled.
        case accumulated
    }
    var kind: Kind
    var atlasFormat: TextureFormat
    var bands: [CoverBand] = []
    /// The bands of each shape (by index into the shapes given), in batch order.
    var shapeBands: [Range<Int>] = []
    var batches: [CoverageBatch] = []
}

extension PathStrategy {
    var frameFormat: TextureFormat { .rgba8 }
    var paintsLayers: Bool { false }
    var drawsGlyphMasks: Bool { false }
}

/// What a strategy needs to know about the frame it draws into.
struct FrameEncoding {
    var width: Int
    var height: Int
    var clearColor: RGBA
    /// Replays a part of the frame (without readback); nil where the frame cannot be split (it is then
    /// staged whole).
    var replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)?
    /// What the draws go into: the frame, or a layer-atlas page whose pass is open (hoisted paint layers,
    /// `LayerHoisting.swift`); and the atlas texture the strategy stages into.
    var target: TextureRef = .frame
    var atlas: TextureRef = .atlas(0)
    /// Per path, where its rectangles go: kept within `clip` (device pixels), then moved by `shift` (a hoisted
    /// layer's box → its region of the layer atlas). Nil: as they are.
    var placements: [(shift: (Int, Int), clip: PixelRect)]?

    /// The index of a pass targeting the frame that commands may be appended to: the last pass when it
    /// targets the frame, else a new one (clearing when it is the frame's first pass).
    func framePass(in cb: inout CommandBuffer) -> Int {
        if let last = cb.passes.last, last.target == target { return cb.passes.count - 1 }
        guard target == .frame else {
            cb.passes.append(RenderPass(target: target, load: .load, clearRect: nil, store: .store))
            return cb.passes.count - 1
        }
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

final class Planner {
    /// Worker threads for CPU work (coverage): the machine's cores, at most `maxWorkers`.
    let workers = max(1, min(Planner.maxWorkers, ProcessInfo.processInfo.activeProcessorCount))
    static let maxWorkers = ParallelWork.maxWorkers
    /// Below this many coverage pixels (÷ 8) per frame, threads cost more than they save.
    static let parallelThreshold = Lowering.parallelThreshold

    private let lowering: Lowering
    private var prepared: [PreparedPath] = []
    private let compositing = CompositingEncoder()

    init(features: Lowering.Features = .drawnByBothBackends) { lowering = Lowering(features: features) }
    var glyphCacheStatistics: GlyphCacheStatistics { lowering.glyphCacheStatistics }

    /// Plans `recording` into `cb` (which is reset first).
    /// `replay` executes a part of a frame that is planned in parts (`FrameEncoding.submitPart`).
    ///
    /// A frame of plain draws (solid colours, `.normal`, no clip, no layer) takes the strategy's fast path,
    /// coverage and compositing in one (`PathStrategy.encode`, the baked-colour atlas on llvmpipe); any
    /// other frame goes through the compositing encoder.
    func plan(_ recording: Recording, target: RenderTarget, strategy: PathStrategy, blendRoute: BlendRoute,
              maxTextureSize: Int,
              into cb: inout CommandBuffer, timings: inout GLESFrameTimings,
              replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)? = nil) throws {
        cb.reset()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let lowered = try lowering.lower(recording, target: target,
                                         placesGlyphs: strategy.drawsGlyphMasks && recording.colorMode == .nonLinear)
        let stores = lowered.stores
        prepared.removeAll(keepingCapacity: true)
        guard lowered.isSolidSourceOver else {
            let t1 = DispatchTime.now().uptimeNanoseconds
            timings.geometry += Double(t1 - t0) / 1e9
            // As on the fast path, an opaque source-over rectangle over the whole target becomes the clear colour.
            var frame = lowered
            var clear = recording.isOpaque ? RGBA(r: 0, g: 0, b: 0, a: 1) : .transparent
            // Only among the draws before the first layer: the ops list is flat, a layer's draws follow its push.
            let plainPrefix = frame.ops.prefix { if case .draw = $0 { return true }; return false }
            if let last = plainPrefix.lastIndex(where: { op in
                guard case .draw(let d) = op, d.clip == nil, d.blend == .normal, d.opacity == 1,
                      case .solid(let c) = d.paint, c.a == 1 else { return false }
                let s = d.shape
                return Self.coversTarget(PreparedPath(drawIndex: d.number, store: s.store, contours: s.contours,
                                                      edgeCount: s.edgeCount, box: s.box, rule: s.rule,
                                                      antialiased: s.antialiased, color: c), stores, target)
            }), case .draw(let d) = frame.ops[last], case .solid(let c) = d.paint {
                clear = c
                frame.ops.removeFirst(last + 1)
            }
            // Linear-light canvases composite in half floats (DESIGN: RGBA16F storage), read back as floats.
            let frameFormat = recording.colorMode == .nonLinear ? strategy.frameFormat : .rgba16f
            try compositing.encode(frame, strategy: strategy, frameFormat: frameFormat,
                                   clearColor: clear,
                                   route: blendRoute, maxTextureSize: maxTextureSize, into: &cb)
            timings.coverage += Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9
            return
        }
        for op in lowered.ops {
            guard case .draw(let d) = op, case .solid(let paint) = d.paint else { continue }
            let o = d.opacity
            let color = RGBA(r: paint.r * o, g: paint.g * o, b: paint.b * o, a: paint.a * o)
            let s = d.shape
            prepared.append(PreparedPath(drawIndex: d.number, store: s.store, contours: s.contours,
                                         edgeCount: s.edgeCount, box: s.box, rule: s.rule,
                                         antialiased: s.antialiased, color: color,
                                         mayHaveInteriors: s.mayHaveInteriors, glyphs: s.glyphs))
        }
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
