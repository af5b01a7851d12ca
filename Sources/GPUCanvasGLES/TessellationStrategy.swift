// The GPU-tessellation path strategy (Pathfinder's D3D9 fill, Skia's coverage counting): flattened segments
// become instanced quads whose fragments add their exact signed area into a float atlas (R32F render target,
// additive blending: EXT_color_buffer_float + EXT_float_blend); a cover pass then reads the sum, applies the
// fill rule and multiplies the paint. Per batch: one accumulation draw for all segments of all pieces, one
// cover draw for all pieces.
//
// Area accumulation (mode 0, see `tess_accumulate.glsl`) extends each segment's quad downwards to the
// bottom of its atlas piece: a pixel receives ± the part of its square below the segment, and over a closed
// contour that is the integral of the winding number (downward rays). Segments are clipped to the piece on
// the CPU, in f64 device space: parts left or right of the piece are dropped (other columns), parts below it
// are dropped, parts above it are moved onto its top edge (they cover the piece's whole column height).
//
// Centre sampling (`antialiased: false`, mode 1) counts crossings of horizontal rays instead, as the
// reference does, with every crossing decided on the CPU in f64 (`CentreColumns`, exact): an instance is a
// run of rows of one edge whose crossings count from the same column on, and its quad, from that column to
// the piece's right edge, adds ±1 (the edge's y direction) to every texel. Crossings left of the piece count
// from its left edge; rows outside it and crossings right of it are dropped. One instance per row at most,
// one per edge when it is vertical or wholly left of the piece.

import Foundation

final class TessellationStrategy: PathStrategy {
    var kind: PathStrategyKind { .gpuTessellation }
    let atlasWidth: Int
    let atlasMaxHeight: Int
    private var segments: [SegmentInstance] = []

    init(maxTextureSize: Int) {
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(2048, maxTextureSize)
    }

    var offersBakedPaint: Bool { false }
    var coverageFormat: TextureFormat { .r32f }
    var drawsGlyphMasks: Bool { false }

    func beginFrame(_ paths: [PreparedPath], output: CoverageOutput, splits: Bool) -> Int { 1 }

    /// Per batch an accumulation pass into the R32F atlas; each piece is a band whose texels hold signed area
    /// (the cover program applies the fill rule).
    func coverage(part: Int, _ paths: [PreparedPath], stores: [Polygons], output: CoverageOutput, atlas: TextureRef,
                  into cb: inout CommandBuffer) -> CoverageSet {
        var set = CoverageSet(kind: .accumulated, atlasFormat: .r32f, shapes: paths.count)
        guard !paths.isEmpty else { return set }
        let layout = AtlasLayout(paths: paths, width: atlasWidth, maxHeight: atlasMaxHeight,
                                 maxPiece: (atlasWidth / 2, atlasMaxHeight / 2))
        var maxUsed = 0
        for b in layout.batches { maxUsed = max(maxUsed, b.usedHeight) }
        cb.declare(atlas, TextureDesc(width: atlasWidth, height: maxUsed, format: .r32f))
        segments.removeAll(keepingCapacity: true)
        var batchSegments: [Range<Int>] = []
        for (b, batch) in layout.batches.enumerated() {
            let start = segments.count
            for i in batch.pieces {
                let piece = layout.pieces[i]
                let p = paths[piece.path]
                appendSegments(stores[p.store], contours: p.contours, piece: piece, antialiased: p.antialiased)
                set.append(CoverBand(x: Int16(piece.rect.x), y: Int16(piece.rect.y), w: Int16(piece.rect.width),
                                     h: Int16(piece.rect.height), u: Int16(piece.atlasX), v: Int16(piece.atlasY),
                                     rule: p.rule.rawValue, batch: Int16(b)), shape: piece.path)
            }
            batchSegments.append(start ..< segments.count)
        }
        let segmentBytes = segments.count * SegmentInstance.stride
        let segmentOffset = cb.reserveInstances(segments.count, pipeline: .tessAccumulate)
        let staging = cb.reserveStaging(max(segmentBytes, 1))
        segments.withUnsafeBytes { s in
            if segmentBytes > 0 { (cb.staging.base + staging).copyMemory(from: s.baseAddress!, byteCount: segmentBytes) }
        }
        for (b, batch) in layout.batches.enumerated() {
            var pass = RenderPass(target: atlas, load: .clear(.transparent),
                                  clearRect: TexelRect(x: 0, y: 0, width: atlasWidth, height: batch.usedHeight),
                                  store: .store)
            if b == 0, segmentBytes > 0 {
                pass.commands.append(.uploadInstances(range: staging ..< staging + segmentBytes,
                                                      bufferOffset: segmentOffset, count: segments.count,
                                                      pipeline: .tessAccumulate))
            }
            let segs = batchSegments[b]
            if !segs.isEmpty {
                pass.commands.append(.bindPipeline(.tessAccumulate))
                pass.commands.append(.draw(instanceCount: segs.count,
                                           bufferOffset: segmentOffset + segs.lowerBound * SegmentInstance.stride,
                                           pipeline: .tessAccumulate))
            }
            set.batches.append(CoverageBatch(uploads: [], pass: pass))
        }
        return set
    }

    /// Clips the path's edges to `piece` and appends them in atlas texels.
    private func appendSegments(_ polys: Polygons, contours: Range<Int>, piece: AtlasPiece, antialiased: Bool) {
        let left = Double(piece.rect.x), top = Double(piece.rect.y)
        let right = left + Double(piece.rect.width), bottom = top + Double(piece.rect.height)
        // Device → atlas texels.
        let ox = Double(piece.atlasX) - left, oy = Double(piece.atlasY) - top
        if antialiased {
            // Area accumulation: clip to the piece's columns, split at its top and bottom.
            let limit = Float(Double(piece.atlasY + piece.rect.height))
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                clipEdge(x0, y0, x1, y1, along: left, right, across: top, bottom) { ax0, cy0, ax1, cy1 in
                    segments.append(SegmentInstance(x0: Float(ax0 + ox), y0: Float(cy0 + oy), x1: Float(ax1 + ox),
                                                    y1: Float(cy1 + oy), limit: limit, mode: 0))
                }
            }
        } else {
            // Centre sampling: the CPU decides, in f64, the first column of each row whose centre counts the
            // edge's crossing (`CentreColumns`: exact, the reference's ties); a run of rows that start at the
            // same column becomes one quad adding ±1 from there to the piece's right edge. The GPU sees only
            // whole texel coordinates (exact in f32), so no crossing is decided in f32: an edge 10⁻⁵ px right
            // of a centre at x = 1339.5 rounds onto it in f32, and far from the origin f32 has no bits left.
            let limit = Float(Double(piece.atlasX + piece.rect.width))
            let width = Double(piece.rect.width)
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                guard y0 != y1,
                      let (first, last) = CentreColumns.rows(y0, y1, within: top, bottom - 1) else { return }
                // Every crossing lies in [min x, max x]: at or right of right − ½ none counts in the piece;
                // at or left of left − ½ every centre of its rows does.
                guard min(x0, x1) <= right - 0.5 else { return }
                let down = y0 < y1
                func run(_ column: Double, _ r0: Double, _ r1: Double) {
                    let x = Float(column + Double(piece.atlasX))
                    let ya = Float(r0 + oy), yb = Float(r1 + oy)
                    segments.append(SegmentInstance(x0: x, y0: down ? ya : yb, x1: x, y1: down ? yb : ya,
                                                    limit: limit, mode: 1))
                }
                if max(x0, x1) <= left - 0.5 {
                    run(0, first, last + 1)
                    return
                }
                let columns = CentreColumns(x0, y0, x1, y1)
                var start = first, current = -1.0  // piece-local column of the run from `start`; −1: none
                var r = first
                while r <= last {
                    let k = columns.first(atY: r + 0.5) - left
                    let column = k < width ? max(k, 0) : -1
                    if column != current {
                        if current >= 0 { run(current, start, r) }
                        start = r
                        current = column
                    }
                    r += 1
                }
                if current >= 0 { run(current, start, last + 1) }
            }
        }
    }

    /// Clips an edge to a piece for area accumulation, in (a, c) coordinates: `a` is the axis the mode
    /// accumulates along (x), clipped to [lo, hi]; `c` the other one (y), split at `start` and `end`. A part before `start` still changes the winding of the whole piece, so it is laid
    /// onto the `start` edge; a part after `end` changes nothing inside and is dropped, as are parts with no
    /// extent along `a`. Edge (0, 5) → (10, 5) clipped along [2, 8] across [0, 4] gives nothing (it is after
    /// the end); across [6, 9] it gives (2, 6) → (8, 6).
    @inline(__always)
    private func clipEdge(_ a0: Double, _ c0: Double, _ a1: Double, _ c1: Double, along lo: Double, _ hi: Double,
                          across start: Double, _ end: Double, _ body: (Double, Double, Double, Double) -> Void) {
        guard a0 != a1, min(a0, a1) < hi, max(a0, a1) > lo, min(c0, c1) < end else { return }
        // Every cut comes from `EdgeCut` (exact for any finite ends): a cut computed as a0 + t·(a1 − a0)
        // from an end 10²⁰ px away rounds t to 0 or 1 and loses the part on the canvas, and a1 − a0 may
        // overflow. Afterwards every coordinate handed to `body` lies in the piece (or on its start edge).
        // `cut(at: a)`: c where the edge reaches a (EdgeCut's x/y are c/a here).
        func cut(at a: Double, _ a0: Double, _ c0: Double, _ a1: Double, _ c1: Double) -> Double {
            EdgeCut.x(atY: a, c0, a0, c1, a1)
        }
        var pa = a0, pc = c0, qa = a1, qc = c1
        if pa < lo { pc = cut(at: lo, a0, c0, a1, c1); pa = lo }
        else if pa > hi { pc = cut(at: hi, a0, c0, a1, c1); pa = hi }
        if qa < lo { qc = cut(at: lo, a0, c0, a1, c1); qa = lo }
        else if qa > hi { qc = cut(at: hi, a0, c0, a1, c1); qa = hi }
        guard pa != qa else { return }
        func emit(_ sa0: Double, _ sc0: Double, _ sa1: Double, _ sc1: Double) {
            let mid = sc0 * 0.5 + sc1 * 0.5
            guard mid < end, sa0 != sa1 else { return }
            let (p0, p1) = mid < start ? (start, start) : (sc0, sc1)
            body(sa0, p0, sa1, p1)
        }
        // Split at c = start and c = end where the (clipped) edge crosses them, in order along it (`split`'s
        // x is c here).
        EdgeCut.split(pc, pa, qc, qa, atX: start, end) { c0, a0, c1, a1 in emit(a0, c0, a1, c1) }
    }
}
