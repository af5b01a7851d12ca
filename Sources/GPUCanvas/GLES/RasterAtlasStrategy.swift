// The raster-atlas path strategy (Skia's kRasterAtlas, vello_hybrid's CPU half): coverage is computed on
// the CPU (`CoverageAccumulator`) straight into the staging arena in atlas layout, uploaded with one
// glTexSubImage2D per batch, and composited with paint by ONE instanced draw per batch: one instance per
// atlas piece, carrying its device rectangle, atlas position and premultiplied colour × opacity. Instances
// are drawn in order, so the draw order of the recording is kept within the single draw call.
//
// Why this is llvmpipe's default: there the "GPU" is the same two CPU cores, each triangle costs ~0.6 µs of
// setup, and each blended pixel 4–9 ns. CPU coverage touches each pixel of a path's box once, and the GL
// side gets two triangles per path instead of two per flattened segment.
//
// Coverage pieces are independent, so they are computed on all cores; the pieces are split into
// contiguous runs of about equal work (pixels + edges), which keeps the output independent of timing.

import Foundation

final class RasterAtlasStrategy: PathStrategy {
    var kind: PathStrategyKind { .rasterAtlas }
    /// Texel format of the coverage atlas: R8 by default (see the measurements in the report / docs).
    let format: TextureFormat
    /// 2048 × up to 8192 texels (16 MiB of R8, allocated only as far as a frame needs). One tall atlas rather
    /// than several 2048² ones: re-uploading an atlas that a queued draw still reads makes llvmpipe finish
    /// that draw first, which serialises CPU and rasterizer (measured on S1-fills: 66 ms with four 2048²
    /// batches, 55 ms with one 2048 × 8192 batch).
    let atlasWidth: Int
    let atlasMaxHeight: Int
    let workers: Int
    private var accumulators: [CoverageAccumulator] = []

    init(format: TextureFormat = .r8, maxTextureSize: Int, workers: Int) {
        self.format = format
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(8192, maxTextureSize)
        self.workers = workers
    }

    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard !paths.isEmpty else { return }
        let layout = AtlasLayout(paths: paths, width: atlasWidth, maxHeight: atlasMaxHeight,
                                 maxPiece: (atlasWidth / 2, atlasMaxHeight / 2))
        let bpp = format.bytesPerTexel
        let rowBytes = atlasWidth * bpp

        // Staging: each batch's atlas rows, then all instance records.
        var atlasOffsets: [Int] = []
        var maxUsed = 0
        for b in layout.batches {
            atlasOffsets.append(cb.reserveStaging(b.usedHeight * rowBytes))
            maxUsed = max(maxUsed, b.usedHeight)
        }
        cb.declare(.atlas(0), TextureDesc(width: atlasWidth, height: maxUsed, format: format))
        let instanceBytes = layout.pieces.count * CoverInstance.stride
        let instanceStart = cb.reserveStaging(instanceBytes)
        let bufferOffset = cb.reserveInstances(layout.pieces.count, pipeline: .atlasCover)

        // Batch of each piece, for its staging base.
        var pieceBatch = [Int](repeating: 0, count: layout.pieces.count)
        for (b, batch) in layout.batches.enumerated() { for i in batch.pieces { pieceBatch[i] = b } }

        var totalCost = 0
        for p in layout.pieces { totalCost += p.rect.area + paths[p.path].edgeCount }
        let parts = totalCost >= Planner.parallelThreshold * 8 ? workers : 1
        let ranges = balancedRanges(count: layout.pieces.count, parts: parts) {
            layout.pieces[$0].rect.area + paths[layout.pieces[$0].path].edgeCount
        }
        while accumulators.count < ranges.count { accumulators.append(CoverageAccumulator()) }

        cb.staging.withUnsafeMutableBytes { raw in
            let base = raw.baseAddress!
            // Instance records (cheap, sequential).
            let records = (base + instanceStart).bindMemory(to: CoverInstance.self, capacity: layout.pieces.count)
            for (i, piece) in layout.pieces.enumerated() {
                let p = paths[piece.path]
                records[i] = CoverInstance(x: Int16(piece.rect.x), y: Int16(piece.rect.y),
                                           w: Int16(piece.rect.width), h: Int16(piece.rect.height),
                                           u: Int16(piece.atlasX), v: Int16(piece.atlasY), rule: p.rule.rawValue,
                                           r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a)
            }
            // Coverage (the hot part), on all cores.
            let shared = UncheckedSendable(base)
            let accs = accumulators
            let fmt = format
            parallelForEach(ranges.count) { w in
                let acc = accs[w]
                for i in ranges[w] {
                    let piece = layout.pieces[i]
                    let p = paths[piece.path]
                    let out = shared.value + atlasOffsets[pieceBatch[i]] + piece.atlasY * rowBytes + piece.atlasX * bpp
                    acc.render(stores[p.store], contours: p.contours, rule: p.rule, antialiased: p.antialiased,
                               piece: piece.rect, format: fmt, out: out, rowBytes: rowBytes)
                }
            }
        }

        let pass = frame.framePass(in: &cb)
        cb.passes[pass].commands.append(.uploadInstances(range: instanceStart ..< instanceStart + instanceBytes,
                                                         bufferOffset: bufferOffset, count: layout.pieces.count,
                                                         pipeline: .atlasCover))
        cb.passes[pass].commands.append(.bindPipeline(.atlasCover))
        cb.passes[pass].commands.append(.bindTexture(unit: 0, .atlas(0)))
        for (b, batch) in layout.batches.enumerated() {
            cb.passes[pass].commands.append(.uploadTexture(.atlas(0), rect: TexelRect(x: 0, y: 0, width: atlasWidth,
                                                                                     height: batch.usedHeight),
                                                           format: format, source: atlasOffsets[b]))
            cb.passes[pass].commands.append(.draw(instanceCount: batch.pieces.count,
                                                  bufferOffset: bufferOffset + batch.pieces.lowerBound * CoverInstance.stride,
                                                  pipeline: .atlasCover))
        }
    }
}
