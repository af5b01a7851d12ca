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
// reference does: quads extend right to the piece's edge; parts above or below the piece are dropped, parts
// right of it dropped, parts left of it moved onto its left edge.

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

    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard !paths.isEmpty else { return }
        let layout = AtlasLayout(paths: paths, width: atlasWidth, maxHeight: atlasMaxHeight,
                                 maxPiece: (atlasWidth / 2, atlasMaxHeight / 2))
        var maxUsed = 0
        for b in layout.batches { maxUsed = max(maxUsed, b.usedHeight) }
        cb.declare(.atlas(0), TextureDesc(width: atlasWidth, height: maxUsed, format: .r32f))

        // Segments of every piece, batch by batch.
        segments.removeAll(keepingCapacity: true)
        var batchSegments: [Range<Int>] = []
        for batch in layout.batches {
            let start = segments.count
            for i in batch.pieces {
                let piece = layout.pieces[i]
                let p = paths[piece.path]
                appendSegments(stores[p.store], contours: p.contours, piece: piece, antialiased: p.antialiased)
            }
            batchSegments.append(start ..< segments.count)
        }

        // Staging mirrors the instance buffer: segment records, then cover records.
        let segmentBytes = segments.count * SegmentInstance.stride
        let coverBytes = layout.pieces.count * CoverInstance.stride
        let segmentOffset = cb.reserveInstances(segments.count, pipeline: .tessAccumulate)
        let coverOffset = cb.reserveInstances(layout.pieces.count, pipeline: .tessCover)
        let staging = cb.reserveStaging(coverOffset + coverBytes)
        do {
            let base = cb.staging.base + staging
            segments.withUnsafeBytes { s in
                if segmentBytes > 0 { (base + segmentOffset).copyMemory(from: s.baseAddress!, byteCount: segmentBytes) }
            }
            let records = (base + coverOffset).bindMemory(to: CoverInstance.self, capacity: layout.pieces.count)
            for (i, piece) in layout.pieces.enumerated() {
                let p = paths[piece.path]
                cb.coveredPixels += piece.rect.area
                records[i] = CoverInstance(x: Int16(piece.rect.x), y: Int16(piece.rect.y),
                                           w: Int16(piece.rect.width), h: Int16(piece.rect.height),
                                           u: Int16(piece.atlasX), v: Int16(piece.atlasY), rule: p.rule.rawValue,
                                           r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a)
            }
        }

        for (b, batch) in layout.batches.enumerated() {
            var pass = RenderPass(target: .atlas(0), load: .clear(.transparent),
                                  clearRect: TexelRect(x: 0, y: 0, width: atlasWidth, height: batch.usedHeight),
                                  store: .store)
            if b == 0 {
                if segmentBytes > 0 {
                    pass.commands.append(.uploadInstances(range: staging + segmentOffset ..< staging + segmentOffset + segmentBytes,
                                                          bufferOffset: segmentOffset, count: segments.count,
                                                          pipeline: .tessAccumulate))
                }
                pass.commands.append(.uploadInstances(range: staging + coverOffset ..< staging + coverOffset + coverBytes,
                                                      bufferOffset: coverOffset, count: layout.pieces.count,
                                                      pipeline: .tessCover))
            }
            let segs = batchSegments[b]
            if !segs.isEmpty {
                pass.commands.append(.bindPipeline(.tessAccumulate))
                pass.commands.append(.draw(instanceCount: segs.count,
                                           bufferOffset: segmentOffset + segs.lowerBound * SegmentInstance.stride,
                                           pipeline: .tessAccumulate))
            }
            cb.passes.append(pass)
            let f = frame.framePass(in: &cb)
            cb.passes[f].commands.append(.bindPipeline(.tessCover))
            cb.passes[f].commands.append(.bindTexture(unit: 0, .atlas(0)))
            cb.passes[f].commands.append(.draw(instanceCount: batch.pieces.count,
                                               bufferOffset: coverOffset + batch.pieces.lowerBound * CoverInstance.stride,
                                               pipeline: .tessCover))
        }
    }

    /// Clips the path's edges to `piece` and appends them in atlas texels.
    private func appendSegments(_ polys: Polygons, contours: Range<Int>, piece: AtlasPiece, antialiased: Bool) {
        let left = Double(piece.rect.x), top = Double(piece.rect.y)
        let right = left + Double(piece.rect.width), bottom = top + Double(piece.rect.height)
        // Device → atlas texels.
        let ox = Double(piece.atlasX) - left, oy = Double(piece.atlasY) - top
        if antialiased {
            let limit = Float(Double(piece.atlasY + piece.rect.height))
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                guard x0 != x1, min(x0, x1) < right, max(x0, x1) > left, min(y0, y1) < bottom else { return }
                // Clip to the piece's columns.
                var ax = x0, ay = y0, bx = x1, by = y1
                let dx = x1 - x0, dy = y1 - y0
                if min(ax, bx) < left || max(ax, bx) > right {
                    let t0 = max(0, min(1, ((x0 < x1 ? left : right) - x0) / dx))
                    let t1 = max(0, min(1, ((x0 < x1 ? right : left) - x0) / dx))
                    ax = x0 + dx * t0; ay = y0 + dy * t0
                    bx = x0 + dx * t1; by = y0 + dy * t1
                    ax = min(max(ax, left), right); bx = min(max(bx, left), right)
                }
                // Split at the top and bottom edges: above → onto the top edge, below → dropped.
                splitY(ax, ay, bx, by, top, bottom) { sx0, sy0, sx1, sy1 in
                    let my = (sy0 + sy1) * 0.5
                    guard my < bottom, sx0 != sx1 else { return }
                    let (py0, py1) = my < top ? (top, top) : (sy0, sy1)
                    segments.append(SegmentInstance(x0: Float(sx0 + ox), y0: Float(py0 + oy), x1: Float(sx1 + ox),
                                                    y1: Float(py1 + oy), limit: limit, mode: 0))
                }
            }
        } else {
            let limit = Float(Double(piece.atlasX + piece.rect.width))
            forEachPreparedEdge(polys, contours: contours) { x0, y0, x1, y1 in
                guard y0 != y1, min(y0, y1) < bottom, max(y0, y1) > top, min(x0, x1) < right else { return }
                // Clip to the piece's rows.
                var ax = x0, ay = y0, bx = x1, by = y1
                let dx = x1 - x0, dy = y1 - y0
                if min(ay, by) < top || max(ay, by) > bottom {
                    let t0 = max(0, min(1, ((y0 < y1 ? top : bottom) - y0) / dy))
                    let t1 = max(0, min(1, ((y0 < y1 ? bottom : top) - y0) / dy))
                    ax = x0 + dx * t0; ay = y0 + dy * t0
                    bx = x0 + dx * t1; by = y0 + dy * t1
                    ay = min(max(ay, top), bottom); by = min(max(by, top), bottom)
                }
                // Split at the left and right edges: left → onto the left edge, right → dropped.
                splitX(ax, ay, bx, by, left, right) { sx0, sy0, sx1, sy1 in
                    let mx = (sx0 + sx1) * 0.5
                    guard mx < right, sy0 != sy1 else { return }
                    let (px0, px1) = mx < left ? (left, left) : (sx0, sx1)
                    segments.append(SegmentInstance(x0: Float(px0 + ox), y0: Float(sy0 + oy), x1: Float(px1 + ox),
                                                    y1: Float(sy1 + oy), limit: limit, mode: 1))
                }
            }
        }
    }

    /// Splits a segment where it crosses the horizontal lines y = a and y = b.
    @inline(__always)
    private func splitY(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ a: Double, _ b: Double,
                        _ body: (Double, Double, Double, Double) -> Void) {
        let dy = y1 - y0
        if dy == 0 { body(x0, y0, x1, y1); return }
        split(x0, y0, x1, y1, (a - y0) / dy, (b - y0) / dy, body)
    }

    /// Splits a segment where it crosses the vertical lines x = a and x = b.
    @inline(__always)
    private func splitX(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ a: Double, _ b: Double,
                        _ body: (Double, Double, Double, Double) -> Void) {
        let dx = x1 - x0
        if dx == 0 { body(x0, y0, x1, y1); return }
        split(x0, y0, x1, y1, (a - x0) / dx, (b - x0) / dx, body)
    }

    /// Calls `body` for the pieces of the segment between the parameters ta and tb (ignored outside (0, 1)).
    @inline(__always)
    private func split(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ ta: Double, _ tb: Double,
                       _ body: (Double, Double, Double, Double) -> Void) {
        var px = x0, py = y0
        let t1 = min(ta, tb), t2 = max(ta, tb)
        if t1 > 0 && t1 < 1 {
            let nx = x0 + (x1 - x0) * t1, ny = y0 + (y1 - y0) * t1
            body(px, py, nx, ny)
            px = nx; py = ny
        }
        if t2 > 0 && t2 < 1 {
            let nx = x0 + (x1 - x0) * t2, ny = y0 + (y1 - y0) * t2
            body(px, py, nx, ny)
            px = nx; py = ny
        }
        body(px, py, x1, y1)
    }
}
