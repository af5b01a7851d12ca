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
    /// Per worker: the trimmed bands of its pieces, in order; per piece: how many.
    private var bands: [[PixelRect]] = []
    private var bandCounts: [Int] = []
    private var coveredPixels = 0

    /// What one more band instance costs, in blended pixels: llvmpipe spends ~0.6 µs setting up each of
    /// its two triangles and ~5 ns per blended, atlas-sampled pixel, so a band must save ~250 pixels to pay.
    static let bandInstanceCost = 256

    init(format: TextureFormat = .r8, maxTextureSize: Int, workers: Int) {
        self.format = format
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(8192, maxTextureSize)
        self.workers = workers
    }

    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard !paths.isEmpty else { return }
        coveredPixels = 0
        let layout = AtlasLayout(paths: paths, width: atlasWidth, maxHeight: atlasMaxHeight,
                                 maxPiece: (atlasWidth / 2, atlasMaxHeight / 2))
        let bpp = format.bytesPerTexel
        let rowBytes = atlasWidth * bpp

        // Staging: each batch's atlas rows; the instance records follow once the bands are known.
        var atlasOffsets: [Int] = []
        var maxUsed = 0
        for b in layout.batches {
            atlasOffsets.append(cb.reserveStaging(b.usedHeight * rowBytes))
            maxUsed = max(maxUsed, b.usedHeight)
        }
        cb.declare(.atlas(0), TextureDesc(width: atlasWidth, height: maxUsed, format: format))

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
        while bands.count < ranges.count { bands.append([]) }
        for w in ranges.indices { bands[w].removeAll(keepingCapacity: true) }
        bandCounts.removeAll(keepingCapacity: true)
        bandCounts.append(contentsOf: repeatElement(0, count: layout.pieces.count))

        // Coverage (the hot part), on all cores; each worker also cuts its pieces into trimmed bands.
        cb.staging.withUnsafeMutableBytes { raw in
            let shared = UncheckedSendable(raw.baseAddress!)
            let accs = accumulators
            let fmt = format
            bands.withUnsafeMutableBufferPointer { bandLists in
                bandCounts.withUnsafeMutableBufferPointer { counts in
                    let outputs = UncheckedSendable((bandLists, counts))
                    parallelForEach(ranges.count) { w in
                        let acc = accs[w]
                        let (lists, counts) = outputs.value
                        for i in ranges[w] {
                            let piece = layout.pieces[i]
                            let p = paths[piece.path]
                            let out = shared.value + atlasOffsets[pieceBatch[i]] + piece.atlasY * rowBytes + piece.atlasX * bpp
                            acc.render(stores[p.store], contours: p.contours, rule: p.rule, antialiased: p.antialiased,
                                       piece: piece.rect, format: fmt, out: out, rowBytes: rowBytes)
                            let before = lists[w].count
                            acc.bands(instanceCost: Self.bandInstanceCost, into: &lists[w])
                            counts[i] = lists[w].count - before
                        }
                    }
                }
            }
        }

        // Instance records in piece order (workers own contiguous piece ranges, so their lists concatenate
        // in order), and the instance range of each batch.
        var instanceCount = 0
        for c in bandCounts { instanceCount += c }
        let instanceBytes = instanceCount * CoverInstance.stride
        let instanceStart = cb.reserveStaging(instanceBytes)
        let bufferOffset = cb.reserveInstances(instanceCount, pipeline: .atlasCover)
        var batchInstances: [Range<Int>] = []
        cb.staging.withUnsafeMutableBytes { raw in
            let records = (raw.baseAddress! + instanceStart).bindMemory(to: CoverInstance.self, capacity: instanceCount)
            var n = 0
            var w = 0, k = 0  // worker list and position in it
            var batch = 0, batchStart = 0
            for (i, piece) in layout.pieces.enumerated() {
                while batch < layout.batches.count && i >= layout.batches[batch].pieces.upperBound {
                    batchInstances.append(batchStart ..< n)
                    batchStart = n
                    batch += 1
                }
                while w < ranges.count && i >= ranges[w].upperBound { w += 1; k = 0 }
                let p = paths[piece.path]
                for _ in 0 ..< bandCounts[i] {
                    let band = bands[w][k]
                    k += 1
                    coveredPixels += band.area
                    records[n] = CoverInstance(x: Int16(piece.rect.x + band.x), y: Int16(piece.rect.y + band.y),
                                               w: Int16(band.width), h: Int16(band.height),
                                               u: Int16(piece.atlasX + band.x), v: Int16(piece.atlasY + band.y),
                                               rule: p.rule.rawValue, r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a)
                    n += 1
                }
            }
            while batch < layout.batches.count {
                batchInstances.append(batchStart ..< n)
                batchStart = n
                batch += 1
            }
        }

        let pass = frame.framePass(in: &cb)
        cb.passes[pass].commands.append(.uploadInstances(range: instanceStart ..< instanceStart + instanceBytes,
                                                         bufferOffset: bufferOffset, count: instanceCount,
                                                         pipeline: .atlasCover))
        cb.passes[pass].commands.append(.bindPipeline(.atlasCover))
        cb.passes[pass].commands.append(.bindTexture(unit: 0, .atlas(0)))
        for (b, batch) in layout.batches.enumerated() {
            cb.passes[pass].commands.append(.uploadTexture(.atlas(0), rect: TexelRect(x: 0, y: 0, width: atlasWidth,
                                                                                     height: batch.usedHeight),
                                                           format: format, source: atlasOffsets[b]))
            let instances = batchInstances[b]
            if !instances.isEmpty {
                cb.passes[pass].commands.append(.draw(instanceCount: instances.count,
                                                      bufferOffset: bufferOffset + instances.lowerBound * CoverInstance.stride,
                                                      pipeline: .atlasCover))
            }
        }
        cb.coveredPixels += coveredPixels
    }
}
