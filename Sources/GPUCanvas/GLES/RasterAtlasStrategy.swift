// The raster-atlas path strategy (Skia's kRasterAtlas, vello_hybrid's CPU half): coverage is computed on
// the CPU (`CoverageAccumulator`), packed into an atlas, uploaded with one glTexSubImage2D per batch and
// composited with paint by ONE instanced draw per batch: one instance per band, carrying its device
// rectangle, atlas position and premultiplied colour × opacity. Instances are drawn in order, so the draw
// order of the recording is kept within the single draw call.
//
// Why this is llvmpipe's default: there the "GPU" is the same two CPU cores, each triangle costs ~0.6 µs of
// setup and each blended, atlas-sampled pixel ~5 ns. CPU coverage touches each pixel of a path's box once,
// and the GL side gets two triangles per band instead of two per flattened segment.
//
// A frame goes:
// 1. Each path's pixel box is cut into pieces of at most `maxPiece` (the accumulator's working size).
// 2. On all cores (pieces split into contiguous runs of about equal work, so the output does not depend on
//    timing): coverage of a piece into the worker's scratch, then its horizontal bands trimmed to the
//    covered columns (`CoverageAccumulator.bands`), each copied compactly into the worker's band arena.
//    Only bands reach the atlas: the empty parts of a sparse path's box (a stroke's, a star's) cost
//    neither atlas space, nor upload, nor blended pixels.
// 3. In order: bands are shelf-packed into a 2048-wide atlas; a full atlas starts a new batch.
// 4. On all cores: band rows are copied from the arenas into the batch's staging rows.
// 5. Per batch: upload the atlas rows, draw the batch's instances.

import Foundation

final class RasterAtlasStrategy: PathStrategy {
    var kind: PathStrategyKind { .rasterAtlas }
    /// Texel format of the coverage atlas: R8 by default.
    let format: TextureFormat
    /// 2048 × up to 8192 texels (16 MiB of R8, allocated only as far as a frame needs). One tall atlas rather
    /// than several 2048² ones: re-uploading an atlas that a queued draw still reads makes llvmpipe finish
    /// that draw first, which serialises CPU and rasterizer (measured on S1-fills: 66 ms with four 2048²
    /// batches, 55 ms with one 2048 × 8192 batch).
    let atlasWidth: Int
    let atlasMaxHeight: Int
    /// Largest piece of a path's box rasterized at once (4 MiB of float accumulation per worker).
    let maxPiece = (width: 1024, height: 1024)
    let workers: Int

    /// What one more band instance costs, in blended pixels: llvmpipe spends ~0.6 µs setting up each of
    /// its two triangles and ~5 ns per blended, atlas-sampled pixel, so a band must save ~250 pixels to pay.
    static let bandInstanceCost = 256

    private var workerState: [Worker] = []
    private var pieces: [Piece] = []
    private var batches: [Batch] = []

    private struct Piece {
        var path: Int
        var rect: PixelRect
    }

    /// A band: where it is drawn, where its texels wait in a worker's arena, where it lands in the atlas.
    private struct Band {
        var piece: Int
        var rect: PixelRect  // device pixels
        var insets: (Int16, Int16, Int16, Int16)
        var arenaOffset: Int
        var atlasX = 0, atlasY = 0
    }

    private struct Batch {
        var bands: Range<Int>  // indices into the concatenated band list
        var usedHeight: Int
        var staging = 0
    }

    /// One worker's scratch: its accumulator, piece texels, band arena and bands.
    private final class Worker {
        let accumulator = CoverageAccumulator()
        let scratch = ScratchBuffer<UInt8>(fill: 0)
        let arena = ScratchBuffer<UInt8>(fill: 0)
        var arenaUsed = 0
        var bands: [Band] = []
        var local: [BandShape] = []

        /// Makes room for `count` more arena bytes (keeping what is there).
        func reserveArena(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            if arenaUsed + count > arena.capacity { arena.ensure(max(arenaUsed + count, arena.capacity * 2)) }
            defer { arenaUsed += count }
            return arena.pointer + arenaUsed
        }
    }

    init(format: TextureFormat = .r8, maxTextureSize: Int, workers: Int) {
        self.format = format
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(8192, maxTextureSize)
        self.workers = workers
    }

    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard !paths.isEmpty else { return }
        let bpp = format.bytesPerTexel
        let pieceW = min(maxPiece.width, atlasWidth), pieceH = min(maxPiece.height, atlasMaxHeight)

        // 1. Pieces.
        pieces.removeAll(keepingCapacity: true)
        for (i, p) in paths.enumerated() {
            var y = p.box.y
            while y < p.box.y + p.box.height {
                let h = min(pieceH, p.box.y + p.box.height - y)
                var x = p.box.x
                while x < p.box.x + p.box.width {
                    let w = min(pieceW, p.box.x + p.box.width - x)
                    pieces.append(Piece(path: i, rect: PixelRect(x: x, y: y, width: w, height: h)))
                    x += w
                }
                y += h
            }
        }

        // 2. Coverage and bands, on all cores.
        var totalCost = 0
        for p in pieces { totalCost += p.rect.area + paths[p.path].edgeCount }
        let parts = totalCost >= Planner.parallelThreshold * 8 ? workers : 1
        let ranges = balancedRanges(count: pieces.count, parts: parts) {
            self.pieces[$0].rect.area + paths[self.pieces[$0].path].edgeCount
        }
        while workerState.count < ranges.count { workerState.append(Worker()) }
        let fmt = format
        let shared = UncheckedSendable((workerState, pieces))
        parallelForEach(ranges.count) { w in
            let (states, pieces) = shared.value
            let worker = states[w]
            worker.arenaUsed = 0
            worker.bands.removeAll(keepingCapacity: true)
            for i in ranges[w] {
                let piece = pieces[i]
                let p = paths[piece.path]
                let rowBytes = piece.rect.width * bpp
                worker.scratch.ensure(rowBytes * piece.rect.height)
                let scratch = worker.scratch.pointer
                worker.accumulator.render(stores[p.store], contours: p.contours, rule: p.rule, antialiased: p.antialiased,
                                          piece: piece.rect, format: fmt, out: UnsafeMutableRawPointer(scratch),
                                          rowBytes: rowBytes)
                worker.local.removeAll(keepingCapacity: true)
                worker.accumulator.bands(instanceCost: Self.bandInstanceCost, into: &worker.local)
                let (firsts, lasts) = worker.accumulator.rowExtents
                for shape in worker.local {
                    let b = shape.rect
                    let bandRowBytes = b.width * bpp
                    let dst = worker.reserveArena(bandRowBytes * b.height)
                    let offset = dst - worker.arena.pointer
                    for r in 0 ..< b.height {
                        let row = b.y + r
                        let out = dst + r * bandRowBytes
                        let c0 = max(Int(firsts[row]), b.x), c1 = min(Int(lasts[row]), b.x + b.width - 1)
                        if c1 < c0 {
                            out.initialize(repeating: 0, count: bandRowBytes)
                            continue
                        }
                        let lead = (c0 - b.x) * bpp, body = (c1 - c0 + 1) * bpp
                        out.initialize(repeating: 0, count: lead)
                        (out + lead).update(from: scratch + row * rowBytes + c0 * bpp, count: body)
                        (out + lead + body).initialize(repeating: 0, count: bandRowBytes - lead - body)
                    }
                    worker.bands.append(Band(piece: i, rect: PixelRect(x: piece.rect.x + b.x, y: piece.rect.y + b.y,
                                                                       width: b.width, height: b.height),
                                             insets: shape.insets, arenaOffset: offset))
                }
            }
        }

        // 3. Packing, in order (workers own contiguous runs of pieces, so their band lists concatenate in order).
        var packer = ShelfPacker(width: atlasWidth, maxHeight: atlasMaxHeight)
        batches.removeAll(keepingCapacity: true)
        var bandCount = 0
        var batchStart = 0
        for worker in workerState.prefix(ranges.count) {
            for k in worker.bands.indices {
                // Each band gets zero columns on both sides (`CoverageAccumulator.bandPadding`).
                let r = worker.bands[k].rect
                let pad = CoverageAccumulator.bandPadding
                var slot = packer.allocate(width: r.width + 2 * pad, height: r.height)
                if slot == nil {
                    batches.append(Batch(bands: batchStart ..< bandCount, usedHeight: packer.usedHeight))
                    batchStart = bandCount
                    packer.reset()
                    slot = packer.allocate(width: r.width + 2 * pad, height: r.height)
                }
                let s = slot!  // a fresh atlas holds any band: bands are at most maxPiece, half the atlas
                worker.bands[k].atlasX = s.x + pad
                worker.bands[k].atlasY = s.y
                bandCount += 1
            }
        }
        if bandCount > batchStart { batches.append(Batch(bands: batchStart ..< bandCount, usedHeight: packer.usedHeight)) }
        guard !batches.isEmpty else { return }

        var maxUsed = 0
        for b in batches.indices {
            batches[b].staging = cb.reserveStaging(batches[b].usedHeight * atlasWidth * bpp)
            maxUsed = max(maxUsed, batches[b].usedHeight)
        }
        cb.declare(.atlas(0), TextureDesc(width: atlasWidth, height: maxUsed, format: format))
        let instanceBytes = bandCount * CoverInstance.stride
        let instanceStart = cb.reserveStaging(instanceBytes)
        let bufferOffset = cb.reserveInstances(bandCount, pipeline: .atlasCover)

        // 4. Band texels into the staging atlas rows (on all cores), and the instance records.
        var firstBand: [Int] = []  // global index of each worker's first band
        var n = 0
        for worker in workerState.prefix(ranges.count) { firstBand.append(n); n += worker.bands.count }
        let atlasRowBytes = atlasWidth * bpp
        let batchList = batches
        do {
            let stagingBase = cb.staging.base
            let base = UncheckedSendable(stagingBase)
            let states = UncheckedSendable(workerState)
            parallelForEach(ranges.count) { w in
                let worker = states.value[w]
                var batch = 0
                for (k, band) in worker.bands.enumerated() {
                    let g = firstBand[w] + k
                    while g >= batchList[batch].bands.upperBound { batch += 1 }
                    let src = worker.arena.pointer + band.arenaOffset
                    let dst = base.value + batchList[batch].staging + band.atlasY * atlasRowBytes + band.atlasX * bpp
                    let rowBytes = band.rect.width * bpp
                    for r in 0 ..< band.rect.height {
                        (dst + r * atlasRowBytes).copyMemory(from: src + r * rowBytes, byteCount: rowBytes)
                    }
                }
            }
            let records = (stagingBase + instanceStart).bindMemory(to: CoverInstance.self, capacity: bandCount)
            var i = 0
            for worker in workerState.prefix(ranges.count) {
                for band in worker.bands {
                    let p = paths[pieces[band.piece].path]
                    records[i] = CoverInstance(x: Int16(band.rect.x), y: Int16(band.rect.y),
                                               w: Int16(band.rect.width), h: Int16(band.rect.height),
                                               u: Int16(band.atlasX), v: Int16(band.atlasY), rule: p.rule.rawValue,
                                               r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a,
                                               leftTop: band.insets.0, leftBottom: band.insets.1,
                                               rightTop: band.insets.2, rightBottom: band.insets.3)
                    cb.coveredPixels += BandShape(rect: band.rect, insets: band.insets).area
                    i += 1
                }
            }
        }

        // 5. Commands.
        let pass = frame.framePass(in: &cb)
        cb.passes[pass].commands.append(.uploadInstances(range: instanceStart ..< instanceStart + instanceBytes,
                                                         bufferOffset: bufferOffset, count: bandCount,
                                                         pipeline: .atlasCover))
        cb.passes[pass].commands.append(.bindPipeline(.atlasCover))
        cb.passes[pass].commands.append(.bindTexture(unit: 0, .atlas(0)))
        for batch in batches {
            cb.passes[pass].commands.append(.uploadTexture(.atlas(0), rect: TexelRect(x: 0, y: 0, width: atlasWidth,
                                                                                     height: batch.usedHeight),
                                                           format: format, source: batch.staging))
            cb.passes[pass].commands.append(.draw(instanceCount: batch.bands.count,
                                                  bufferOffset: bufferOffset + batch.bands.lowerBound * CoverInstance.stride,
                                                  pipeline: .atlasCover))
        }
    }
}
