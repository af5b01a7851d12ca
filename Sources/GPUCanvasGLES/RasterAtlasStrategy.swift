// The raster-atlas path strategy (Skia's kRasterAtlas, vello_hybrid's CPU half): coverage is computed on
// the CPU (`CoverageAccumulator`), packed into an atlas and uploaded with one glTexSubImage2D per shelf. On
// the fast path (`encode`) it is composited with paint by ONE instanced draw per batch: one instance per band,
// carrying its device rectangle, atlas position and premultiplied colour × opacity. Instances are drawn in
// order, so the draw order of the recording is kept within the single draw call. For the compositing encoder
// (`coverage`) steps 1–4 below run once for the whole frame (no parts), in the coverage form, and the bands
// and shelf uploads are handed over instead of being drawn.
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
// 4. On all cores: band rows are copied from the arenas into the staging of their shelf (in the paint form,
//    through a per-path table from coverage to premultiplied BGRA8 colour × coverage).
// 5. Per batch: upload the used part of each shelf, draw the batch's instances (bands and text tiles, in
//    draw order).
// Steps 2–5 run per part of the frame's pieces (`partPixels`): a part is replayed before the next is staged.
//
// The paint form (`paint`, llvmpipe's default) is shaped for Mesa's linear rasterizer: see the design note
// in GLESBackend.swift for its conditions and measurements. In it, a band's columns of full coverage on all
// its rows (`CoverageAccumulator.solidColumns`: a shape's interior) are cut out when they hold at least
// `solidMinArea` pixels: the band becomes up to three rectangles, its left and right sides baked side by
// side in the atlas and the interior drawn from a one-row strip of the full-coverage texel (`oneRow`
// instances; dv/dy = 0 keeps it an axis-aligned 1:1 span copy for the linear rasterizer). The band search
// prices interior pixels at `solidPixelCost` so that it prefers bands whose interiors line up. Measured on
// S1-fills (6 interleaved runs of `bench --frames 15 --stages`, medians): atlas upload 32.1 → 20.0 MiB,
// instances 3863 → 6635, frame 44.4 → 39.5 ms (submit 5.9 → 4.5, gpu 17.5 → 15.0 ms); the image is
// byte-identical. Only fills and strokes from `Lowering.solidStrokeWidth` are searched: S2's thin strokes
// have no interiors, and looking for them cost its resolve and band search time for nothing.
//
// Also in the paint form, text runs (`TextRun`): a line of text is mostly blank between and around its
// glyphs, so its bands are ~3× its inked pixels, and 500 piled lines (S6-text) baked, uploaded and blended
// 7.5 M band texels a frame. Consecutive text pieces that pile up over the clear colour are instead
// composited on the CPU, straight from their glyph masks, into tiles that start from that colour, and each
// tile is one rectangle: the frame went from ~10 to ~4 ms (`bench --stages`, interleaved with the build
// before), within one level of the bytes the line-by-line route gives (S6-text: mean difference 0.0002).

import Foundation

final class RasterAtlasStrategy: PathStrategy {
    var kind: PathStrategyKind { .rasterAtlas }
    /// Texel format of the coverage the accumulator writes: R8 by default.
    let format: TextureFormat
    /// Paint form (llvmpipe's linear path): the atlas holds premultiplied colour × coverage as BGRA8, bands
    /// are plain rectangles, the frame is BGRA8 and the composite is `atlasBlit`. Only with R8 coverage.
    let paint: Bool
    var frameFormat: TextureFormat { paint ? .bgra8 : .rgba8 }
    var paintsLayers: Bool { paint }
    /// Glyph masks are R8 coverage (`GlyphMaskCache`).
    var drawsGlyphMasks: Bool { format == .r8 }
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

    /// Most box pixels (the summed areas of pieces) one part of a frame stages. A part's bands lie within
    /// its pieces, so its staging holds at most 4 bytes a box pixel (128 MiB of BGRA8) and the workers'
    /// arenas 1 (32 MiB of R8), however much the frame draws: 330 000 translucent 90-px triangles took
    /// 7.3 GB when a frame was staged whole. S1-fills' boxes hold 8.9 M pixels and S2-strokes' 23 M, one
    /// part each; a larger frame pays a wait where a part's first upload meets the previous part's draws.
    static let defaultPartPixels = 1 << 25
    let partPixels: Int

    private var workerState: [Worker] = []
    /// The workers' glyph mask caches (for `GlyphCacheStatistics`).
    var glyphMaskCaches: [GlyphMaskCache] { workerState.map(\.glyphMasks) }
    /// The frame's pieces, in draw order; `pieces` holds the part being encoded.
    private var framePieces: [Piece] = []
    private var pieces: [Piece] = []
    private var batches: [Batch] = []
    /// Paint form: each path's colour as 8.24 fixed point (kept across frames for its capacity).
    private var paintColors: [SIMD4<UInt32>] = []
    /// Paint form: the frame's runs of text pieces composited on the CPU (`findFrameTextRuns`).
    private var frameTextRuns: [FrameTextRun] = []
    private struct FrameTextRun {
        var pieces: Range<Int>
        var box: PixelRect
        /// The texel every tile of the run starts from: the frame's clear colour (`TextRun`).
        var base: UInt32
    }
    /// The part's text runs and their tiles, with part-local piece indices (`selectTextRuns`).
    private var textRuns: [TextRun] = []
    private var textTiles: [TextTile] = []
    /// Per piece of the part: it belongs to a text run (it gets no bands of its own).
    private var inTextRun: [Bool] = []

    /// Paint form: consecutive text pieces whose boxes pile up are composited source-over on the CPU, in
    /// draw order, into tiles of premultiplied BGRA8, each drawn source-over as one rectangle like a band.
    ///
    /// Only where the frame still holds its clear colour under the whole run, and that colour is opaque
    /// (S6-text; a chart's labels on its background) or transparent: the tile then starts from that colour,
    /// each draw is blended and rounded to 8 bits as the frame's own blend would round it, and the tile
    /// replaces the pixels (opaque) or lands on transparent ones. That is the arithmetic of drawing one by
    /// one. A tile that started transparent over pixels already drawn would stand for the draws only up to
    /// rounding (source-over is associative in exact arithmetic, not in 8 bits): 70 lines piled ten deep
    /// that way differed from the reference in 0.25 % of the pixels by more than 2 levels, and eight
    /// overlapping lines over a rectangle in 0.15 %, both past the default bar. Such runs keep their bands.
    private struct TextRun {
        var pieces: Range<Int>
        var tiles: Range<Int>
        var base: UInt32
    }

    /// A tile of a text run: at most `maxPiece`, placed in the atlas like a band.
    private struct TextTile {
        var run: Int
        var rect: PixelRect
        var atlasX = 0, atlasY = 0, shelf = 0, batch = 0
    }

    /// What the instance records and the atlas hold, in draw order: a worker's band or a text tile.
    private enum DrawItem {
        case band(worker: Int, index: Int)
        case tile(Int)
    }
    private var drawItems: [DrawItem] = []

    /// A run of text pieces is composited on the CPU when their boxes add up to at least this many times the
    /// run's bounding box. Per box pixel the GL route bakes, uploads and blends (~1.1 ns on llvmpipe, from
    /// `perf` on S6-text), where the CPU tests coverage eight bytes at a time and blends only the inked
    /// pixels (~0.6 ns); the tile costs its own zeroing, upload and one blend (~0.7 ns a tile pixel). So a
    /// tile pays from about 1.5 layers of text: the odd label far from the next keeps its bands.
    static let textRunMinOverdraw = 2.0
    /// Most pixels a run's box may hold (`textRunMaxArea`, lowered by tests): its tiles are staged whole (4 bytes a pixel), so this is the staging
    /// a part holds by default (`defaultPartPixels`, 128 MiB), whatever the renderer's own part limit (runs do
    /// not depend on it, so that a frame gives the same bytes in parts). Dense text over a 16384² canvas would
    /// otherwise stage 1 GiB at once; it is cut into runs of at most this box.
    static let defaultTextRunMaxArea = defaultPartPixels
    let textRunMaxArea: Int

    private struct Piece {
        var path: Int
        var rect: PixelRect
    }

    /// Paint form: a band's columns of full coverage on all its rows (a shape's interior) are drawn from a
    /// one-row strip of the path's full-coverage texel when they hold at least this many pixels. Each such
    /// band costs up to two more instances (its left and right sides) and saves baking, uploading and
    /// fetching four bytes per interior pixel (~1–2 ns each): with ~0.5 µs per rectangle instance, a few
    /// hundred pixels pay.
    static let solidMinArea = 512
    /// What a solid interior pixel costs next to a baked one, for the band search. It is still blended, but
    /// neither baked nor uploaded, and llvmpipe reads it from a strip that stays in cache, where a baked texel
    /// is read once from an atlas of tens of MiB (a 256- or 512-texel-wide atlas, which puts a band's rows
    /// closer together, measured the same as 2048 on S1's ellipses and stars). Measured
    /// (`bench --stages`, ten translucent 1023² rectangles, so every pixel is interior): gpu 8–9 ms from
    /// strips, 21–26 ms baked, plus 6–8 ms of baking and upload; so ~0.3. Against the 0.5 used before, 5120
    /// translucent 64 × 32 rectangles at half-pixel offsets (about ten deep; a bar chart's kind of shape)
    /// upload 17.6 instead of 45.8 MiB and take 50 instead of 57 ms (6 interleaved runs, medians); S1-fills
    /// moves within the noise (upload 20.0 → 18.9 MiB).
    static let solidPixelCost = 0.3

    /// A band: where it is drawn, where its texels wait in a worker's arena, where it lands in the atlas.
    private struct Band {
        var piece: Int
        var rect: PixelRect  // device pixels
        var insets: (Int16, Int16, Int16, Int16)
        var arenaOffset: Int
        /// Paint form: columns of `rect` (band-local) drawn from a strip of full-coverage texels. The arena
        /// and the atlas then hold only the columns left and right of them, side by side.
        var solid: Range<Int> = 0 ..< 0
        var atlasX = 0, atlasY = 0
        var shelf = 0
        var stripX = 0, stripY = 0, stripShelf = 0

        /// Columns whose texels are stored: the band's, less the solid interior.
        var texelWidth: Int { rect.width - solid.count }
        /// Rectangles this band draws: left side, solid interior, right side (each when not empty).
        var instanceCount: Int {
            solid.isEmpty ? 1 : 1 + (solid.lowerBound > 0 ? 1 : 0) + (solid.upperBound < rect.width ? 1 : 0)
        }
    }

    /// One atlas's worth of bands. Only the used part of each shelf is staged and uploaded (one upload per
    /// shelf, its rows `used` texels apart in staging): the gaps right of a shelf's last band and below the
    /// last shelf cost no bytes.
    private struct Batch {
        var bands: Range<Int>  // indices into the concatenated band list
        var instances: Range<Int>  // their rectangles in the instance buffer
        var usedHeight: Int
        var shelves: [(y: Int, height: Int, used: Int)]
        var shelfStaging: [Int] = []
    }

    /// One worker's scratch: its accumulator, piece texels, band arena and bands.
    private final class Worker {
        let accumulator = CoverageAccumulator()
        let glyphMasks: GlyphMaskCache
        /// The masks of the text piece being composed (text runs: of every piece crossing the strip, each
        /// piece's in `maskRanges`).
        var placedMasks: [PlacedMask] = []
        var maskRanges: [Range<Int>] = []
        /// Text runs: a piece's masks inside a region (`blendPiece`), and a group of them sharing columns.
        var clippedMasks: [ClippedMask] = []
        var groupMasks: [PlacedMask] = []
        /// The resolve writes each row's non-zero extent and the band copy reads only that.
        let scratch = ScratchBuffer<UInt8>(fill: nil)
        /// Written band by band before it is read.
        let arena = ScratchBuffer<UInt8>(fill: nil)
        var arenaUsed = 0
        var bands: [Band] = []
        var local: [BandShape] = []
        /// Paint form: the texel of each coverage value for the path being baked (`paintTable`).
        let paintTexels = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)

        init(index: Int) { glyphMasks = GlyphMaskCache(slot: index) }
        deinit { paintTexels.deallocate() }

        /// Makes room for `count` more arena bytes (keeping what is there).
        func reserveArena(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            if arenaUsed + count > arena.capacity { arena.ensure(max(arenaUsed + count, arena.capacity * 2)) }
            defer { arenaUsed += count }
            return arena.pointer + arenaUsed
        }
    }

    init(format: TextureFormat = .r8, paint: Bool = false, maxTextureSize: Int, workers: Int,
         partPixels: Int = defaultPartPixels, textRunMaxArea: Int = defaultTextRunMaxArea) {
        self.format = format
        self.partPixels = partPixels
        self.textRunMaxArea = textRunMaxArea
        self.paint = paint && format == .r8
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(8192, maxTextureSize)
        self.workers = workers
    }

    /// Coverage of `paths` for the compositing encoder: R8 (or R16F/R32F) coverage with the fill rule
    /// applied, staged whole (the general route is not split into parts).
    func coverage(_ paths: [PreparedPath], stores: [Polygons], highPrecision: Bool,
                  into cb: inout CommandBuffer) -> CoverageSet {
        // Linear-light frames encode to sRGB at output, whose slope near black (up to ~13) would turn R8's
        // half-step of coverage into several levels: they get R16F coverage (11 bits).
        let coverageFormat: TextureFormat = highPrecision && format == .r8 ? .r16f : format
        var set = CoverageSet(kind: .coverage, atlasFormat: coverageFormat)
        set.shapeBands = [Range<Int>](repeating: 0 ..< 0, count: paths.count)
        guard !paths.isEmpty else { return set }
        cutPieces(paths)
        pieces.removeAll(keepingCapacity: true)
        pieces.append(contentsOf: framePieces)
        frameTextRuns.removeAll(keepingCapacity: true)
        selectTextRuns(framePieces: 0 ..< pieces.count)
        var staged: CoverageSet? = set
        encodePart(paths, stores: stores, frame: nil, format: coverageFormat, into: &cb, general: &staged)
        return staged!
    }

    /// Step 1: every path's box cut into pieces of at most `maxPiece`, in `framePieces`.
    private func cutPieces(_ paths: [PreparedPath]) {
        let pieceW = min(maxPiece.width, atlasWidth), pieceH = min(maxPiece.height, atlasMaxHeight)
        framePieces.removeAll(keepingCapacity: true)
        for (i, p) in paths.enumerated() {
            var y = p.box.y
            while y < p.box.y + p.box.height {
                let h = min(pieceH, p.box.y + p.box.height - y)
                var x = p.box.x
                while x < p.box.x + p.box.width {
                    let w = min(pieceW, p.box.x + p.box.width - x)
                    framePieces.append(Piece(path: i, rect: PixelRect(x: x, y: y, width: w, height: h)))
                    x += w
                }
                y += h
            }
        }
    }

    func encode(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding,
                into cb: inout CommandBuffer, timings: inout GLESFrameTimings) throws {
        guard !paths.isEmpty else { return }
        // 1. Pieces.
        cutPieces(paths)
        // Paint form: each path's colour as 8.24 fixed point (`fixedPoint`).
        paintColors.removeAll(keepingCapacity: true)
        if paint {
            for p in paths { paintColors.append(Self.fixedPoint(p.color)) }
        }

        // Text runs are found over the whole frame, so that parts do not change which pieces are composited
        // on the CPU: a run is never split between parts and counts as its bounding box, what it stages.
        findFrameTextRuns(paths, frame: frame, enabled: paint && frame.placements == nil)
        var nextRun = 0
        /// The frame pieces from `i` that go into a part together, and the box pixels they stage.
        func unit(at i: Int) -> (end: Int, area: Int) {
            while nextRun < frameTextRuns.count, frameTextRuns[nextRun].pieces.upperBound <= i { nextRun += 1 }
            if nextRun < frameTextRuns.count, frameTextRuns[nextRun].pieces.lowerBound == i {
                return (frameTextRuns[nextRun].pieces.upperBound, frameTextRuns[nextRun].box.area)
            }
            return (i + 1, framePieces[i].rect.area)
        }

        // Steps 2–5 per part of at most `partPixels` box pixels, each replayed before the next is staged.
        var start = 0
        while start < framePieces.count {
            var (end, area) = unit(at: start)
            while end < framePieces.count {
                let next = unit(at: end)
                guard area + next.area <= partPixels else { break }
                area += next.area
                end = next.end
            }
            if start > 0 { try frame.submitPart(&cb, timings: &timings) }
            // A frame that cannot be replayed in parts (hoisted layers' content) is staged whole.
            if frame.replay == nil { end = framePieces.count }
            pieces.removeAll(keepingCapacity: true)
            pieces.append(contentsOf: framePieces[start ..< end])
            selectTextRuns(framePieces: start ..< end)
            var none: CoverageSet?
            encodePart(paths, stores: stores, frame: frame, format: format, into: &cb, general: &none)
            start = end
        }
    }

    /// Steps 2–5 for `pieces`. With `general`, steps 2–4 only, in the coverage form: the bands and the
    /// atlas uploads go into `general` for the compositing encoder instead of instances and draws.
    private func encodePart(_ paths: [PreparedPath], stores: [Polygons], frame: FrameEncoding?, format: TextureFormat,
                            into cb: inout CommandBuffer, general: inout CoverageSet?) {
        let bpp = format.bytesPerTexel
        let paint = self.paint && general == nil
        let atlasFormat: TextureFormat = paint ? .bgra8 : format
        let atlasBpp = atlasFormat.bytesPerTexel
        let pad = paint ? 0 : CoverageAccumulator.bandPadding
        let pipeline: Pipeline = paint ? .atlasBlit : .atlasCover

        // The part's text runs (`selectTextRuns`; none in the coverage form): their pieces get no bands here,
        // see step 4.
        let inTextRun = self.inTextRun

        // 2. Coverage and bands, on all cores.
        var totalCost = 0
        for p in pieces { totalCost += p.rect.area + paths[p.path].edgeCount }
        let parts = totalCost >= Planner.parallelThreshold * 8 ? workers : 1
        let ranges = balancedRanges(count: pieces.count, parts: parts) {
            inTextRun[$0] ? 1 : self.pieces[$0].rect.area + paths[self.pieces[$0].path].edgeCount
        }
        while workerState.count < ranges.count { workerState.append(Worker(index: workerState.count)) }
        let fmt = format
        let shared = UncheckedSendable((workerState, pieces))
        parallelForEach(ranges.count) { w in
            let (states, pieces) = shared.value
            let worker = states[w]
            worker.arenaUsed = 0
            worker.bands.removeAll(keepingCapacity: true)
            for i in ranges[w] where !inTextRun[i] {
                let piece = pieces[i]
                let p = paths[piece.path]
                let rowBytes = piece.rect.width * bpp
                worker.scratch.ensure(rowBytes * piece.rect.height)
                let scratch = worker.scratch.pointer
                let solids = paint && p.mayHaveInteriors
                if p.glyphs.isEmpty {
                    worker.accumulator.render(stores[p.store], contours: p.contours, rule: p.rule,
                                              antialiased: p.antialiased, piece: piece.rect, format: fmt,
                                              out: UnsafeMutableRawPointer(scratch), rowBytes: rowBytes,
                                              trackFullRuns: solids)
                } else {
                    precondition(fmt == .r8, "glyph masks are R8 coverage")
                    worker.placedMasks.removeAll(keepingCapacity: true)
                    worker.glyphMasks.releaseEvicted()
                    stores[p.store].placedGlyphs.withUnsafeBufferPointer { glyphs in
                        for g in p.glyphs {
                            guard let mask = worker.glyphMasks.mask(for: glyphs[g]) else { continue }
                            worker.placedMasks.append(PlacedMask(mask: mask, x: glyphs[g].x, y: glyphs[g].y))
                        }
                    }
                    worker.placedMasks.withUnsafeBufferPointer {
                        worker.accumulator.compose($0, piece: piece.rect, out: scratch, rowBytes: rowBytes)
                    }
                }
                worker.local.removeAll(keepingCapacity: true)
                worker.accumulator.bands(instanceCost: Self.bandInstanceCost,
                                         solids: solids ? (Self.solidMinArea, Self.solidPixelCost) : nil,
                                         into: &worker.local)
                let (firsts, lasts) = worker.accumulator.rowExtents
                for shape in worker.local {
                    let b = shape.rect, solid = shape.solid
                    let texelWidth = b.width - solid.count
                    let bandRowBytes = texelWidth * bpp
                    let dst = worker.reserveArena(bandRowBytes * b.height)
                    let offset = dst - worker.arena.pointer
                    for r in 0 ..< b.height {
                        let row = b.y + r
                        let src = scratch + row * rowBytes
                        let first = Int(firsts[row]), last = Int(lasts[row])
                        let out = dst + r * bandRowBytes
                        if solid.isEmpty {
                            Self.copyColumns(b.x ..< b.x + b.width, of: src, extent: first, last, bpp: bpp, into: out)
                        } else {
                            let leftBytes = (solid.lowerBound - b.x) * bpp
                            Self.copyColumns(b.x ..< solid.lowerBound, of: src, extent: first, last, bpp: bpp, into: out)
                            Self.copyColumns(solid.upperBound ..< b.x + b.width, of: src, extent: first, last, bpp: bpp,
                                             into: out + leftBytes)
                        }
                    }
                    worker.bands.append(Band(piece: i, rect: PixelRect(x: piece.rect.x + b.x, y: piece.rect.y + b.y,
                                                                       width: b.width, height: b.height),
                                             insets: paint ? (0, 0, 0, 0) : shape.insets, arenaOffset: offset,
                                             solid: solid.isEmpty ? 0 ..< 0
                                                 : solid.lowerBound - b.x ..< solid.upperBound - b.x))
                }
            }
        }

        // 3. Packing, in order (workers own contiguous runs of pieces, so their band lists concatenate in order).
        var packer = ShelfPacker(width: atlasWidth, maxHeight: atlasMaxHeight, tight: true)
        batches.removeAll(keepingCapacity: true)
        var bandCount = 0, instanceCount = 0
        var batchStart = 0, batchInstanceStart = 0
        /// The band's texels (and its solid interior's strip) in the current atlas; false when it is full.
        func place(_ band: inout Band) -> Bool {
            if !band.solid.isEmpty {
                guard let strip = packer.allocate(width: band.solid.count, height: 1) else { return false }
                band.stripX = strip.x
                band.stripY = strip.y
                band.stripShelf = strip.shelf
            }
            guard band.texelWidth > 0 else { return true }
            // Each trapezoid band gets zero columns on both sides (`CoverageAccumulator.bandPadding`).
            guard let slot = packer.allocate(width: band.texelWidth + 2 * pad, height: band.rect.height) else {
                return false
            }
            band.atlasX = slot.x + pad
            band.atlasY = slot.y
            band.shelf = slot.shelf
            return true
        }
        func closeBatch() {
            batches.append(Batch(bands: batchStart ..< bandCount,
                                 instances: batchInstanceStart ..< instanceCount,
                                 usedHeight: packer.usedHeight, shelves: packer.shelves))
            batchStart = bandCount
            batchInstanceStart = instanceCount
            packer.reset()
        }
        drawItems.removeAll(keepingCapacity: true)
        var nextRun = 0
        func placeTiles(of run: Int) {
            for t in textRuns[run].tiles {
                let r = textTiles[t].rect
                var slot = packer.allocate(width: r.width, height: r.height)
                if slot == nil {
                    closeBatch()
                    slot = packer.allocate(width: r.width, height: r.height)
                    precondition(slot != nil, "a text tile larger than an empty atlas")
                }
                textTiles[t].atlasX = slot!.x
                textTiles[t].atlasY = slot!.y
                textTiles[t].shelf = slot!.shelf
                textTiles[t].batch = batches.count
                instanceCount += 1
                drawItems.append(.tile(t))
            }
        }
        for (w, worker) in workerState.prefix(ranges.count).enumerated() {
            for k in worker.bands.indices {
                while nextRun < textRuns.count, worker.bands[k].piece >= textRuns[nextRun].pieces.upperBound {
                    placeTiles(of: nextRun)
                    nextRun += 1
                }
                if !place(&worker.bands[k]) {
                    closeBatch()
                    // A fresh atlas holds any band: bands are at most maxPiece, half the atlas.
                    let placed = place(&worker.bands[k])
                    precondition(placed, "a band larger than an empty atlas")
                }
                bandCount += 1
                instanceCount += worker.bands[k].instanceCount
                drawItems.append(.band(worker: w, index: k))
            }
        }
        while nextRun < textRuns.count {
            placeTiles(of: nextRun)
            nextRun += 1
        }
        if bandCount > batchStart || instanceCount > batchInstanceStart {
            batches.append(Batch(bands: batchStart ..< bandCount, instances: batchInstanceStart ..< instanceCount,
                                 usedHeight: packer.usedHeight, shelves: packer.shelves))
        }
        guard !batches.isEmpty else { return }

        var maxUsed = 0
        let instanceBytes = instanceCount * CoverInstance.stride
        var shelfBytes = 0, shelfCount = 0
        for batch in batches {
            for shelf in batch.shelves { shelfBytes += shelf.height * shelf.used * atlasBpp }
            shelfCount += batch.shelves.count
        }
        cb.staging.reserveCapacity(adding: shelfBytes + instanceBytes, regions: shelfCount + 1)
        for b in batches.indices {
            // Paint form: every texel a rectangle samples is written below, so the shelves' gaps need no zeroing.
            batches[b].shelfStaging = batches[b].shelves.map {
                cb.reserveStaging($0.height * $0.used * atlasBpp, zeroed: !paint)
            }
            maxUsed = max(maxUsed, batches[b].usedHeight)
        }
        let atlasRef = frame?.atlas ?? .atlas(0)
        if let d = cb.desc(of: atlasRef), d.format == atlasFormat { maxUsed = max(maxUsed, d.height) }
        cb.declare(atlasRef, TextureDesc(width: atlasWidth, height: maxUsed, format: atlasFormat))
        if general != nil {
            // Band texels into the shelves (as below, coverage form), then the bands and uploads for the encoder.
            let stagingBase = cb.staging.base
            let base = UncheckedSendable(stagingBase)
            let states = UncheckedSendable(workerState)
            var firstBand: [Int] = []
            var n = 0
            for worker in workerState.prefix(ranges.count) { firstBand.append(n); n += worker.bands.count }
            let batchList = batches
            parallelForEach(ranges.count) { w in
                let worker = states.value[w]
                var batch = 0
                for (k, band) in worker.bands.enumerated() {
                    let g = firstBand[w] + k
                    while g >= batchList[batch].bands.upperBound { batch += 1 }
                    let src = worker.arena.pointer + band.arenaOffset
                    let shelf = batchList[batch].shelves[band.shelf]
                    let atlasRowBytes = shelf.used * atlasBpp
                    let dst = base.value + batchList[batch].shelfStaging[band.shelf]
                        + (band.atlasY - shelf.y) * atlasRowBytes + band.atlasX * atlasBpp
                    let rowBytes = band.texelWidth * bpp
                    for r in 0 ..< band.rect.height {
                        (dst + r * atlasRowBytes).copyMemory(from: src + r * rowBytes, byteCount: rowBytes)
                    }
                }
            }
            var g = 0, batch = 0
            for worker in workerState.prefix(ranges.count) {
                for band in worker.bands {
                    while g >= batches[batch].bands.upperBound { batch += 1 }
                    let path = pieces[band.piece].path
                    let i = general!.bands.count
                    let r = general!.shapeBands[path]
                    general!.shapeBands[path] = r.isEmpty ? i ..< i + 1 : r.lowerBound ..< i + 1
                    general!.bands.append(CoverBand(x: Int16(band.rect.x), y: Int16(band.rect.y),
                                                    w: Int16(band.rect.width), h: Int16(band.rect.height),
                                                    u: Int16(band.atlasX), v: Int16(band.atlasY),
                                                    rule: paths[path].rule.rawValue, batch: Int16(batch),
                                                    leftTop: band.insets.0, leftBottom: band.insets.1,
                                                    rightTop: band.insets.2, rightBottom: band.insets.3))
                    g += 1
                }
            }
            for batch in batches {
                var prepare = CoverageBatch()
                for (shelf, staging) in zip(batch.shelves, batch.shelfStaging) {
                    prepare.uploads.append(.uploadTexture(.atlas(0), rect: TexelRect(x: 0, y: shelf.y, width: shelf.used,
                                                                                     height: shelf.height),
                                                          format: atlasFormat, source: staging))
                }
                general!.batches.append(prepare)
            }
            return
        }
        guard let frame else { return }
        let instanceStart = cb.reserveStaging(instanceBytes)
        let bufferOffset = cb.reserveInstances(instanceCount, pipeline: pipeline)

        // 4. Band texels into the staging atlas rows (on all cores), and the instance records.
        var firstBand: [Int] = []  // global index of each worker's first band
        var n = 0
        for worker in workerState.prefix(ranges.count) { firstBand.append(n); n += worker.bands.count }
        let batchList = batches
        do {
            let paintColors = self.paintColors
            let stagingBase = cb.staging.base
            let base = UncheckedSendable(stagingBase)
            let states = UncheckedSendable(workerState)
            parallelForEach(ranges.count) { w in
                let worker = states.value[w]
                var batch = 0
                let lut = worker.paintTexels
                var lutPath = -1
                for (k, band) in worker.bands.enumerated() {
                    let g = firstBand[w] + k
                    while g >= batchList[batch].bands.upperBound { batch += 1 }
                    let src = worker.arena.pointer + band.arenaOffset
                    let shelf = batchList[batch].shelves[band.shelf]
                    let atlasRowBytes = shelf.used * atlasBpp
                    let dst = base.value + batchList[batch].shelfStaging[band.shelf]
                        + (band.atlasY - shelf.y) * atlasRowBytes + band.atlasX * atlasBpp
                    let width = band.texelWidth
                    let rowBytes = width * bpp
                    if paint {
                        let path = pieces[band.piece].path
                        if path != lutPath {
                            Self.paintTable(color: paintColors[path], into: lut)
                            lutPath = path
                        }
                        if width > 0 {
                            for r in 0 ..< band.rect.height {
                                Self.paintRow(coverage: src + r * rowBytes, count: width, table: lut,
                                              into: (dst + r * atlasRowBytes).assumingMemoryBound(to: UInt32.self))
                            }
                        }
                        if !band.solid.isEmpty {
                            let stripShelf = batchList[batch].shelves[band.stripShelf]
                            let strip = base.value + batchList[batch].shelfStaging[band.stripShelf]
                                + (band.stripY - stripShelf.y) * stripShelf.used * atlasBpp + band.stripX * atlasBpp
                            strip.initializeMemory(as: UInt32.self, repeating: lut[255], count: band.solid.count)
                        }
                    } else {
                        for r in 0 ..< band.rect.height {
                            (dst + r * atlasRowBytes).copyMemory(from: src + r * rowBytes, byteCount: rowBytes)
                        }
                    }
                }
            }
            if !textTiles.isEmpty {
                cb.textTiles += textTiles.count
                for run in textRuns { cb.textTilePieces += run.pieces.count }
                compositeTextRuns(paths, stores: stores, strips: max(1, ranges.count), batches: batchList,
                                  stagingBase: stagingBase)
            }
            let records = (stagingBase + instanceStart).bindMemory(to: CoverInstance.self, capacity: instanceCount)
            var i = 0
            let placements = frame.placements
            for item in drawItems {
                guard case .band(let w, let k) = item else {
                    guard case .tile(let t) = item else { continue }
                    let tile = textTiles[t]
                    cb.coveredPixels += tile.rect.area
                    records[i] = CoverInstance(x: Int16(tile.rect.x), y: Int16(tile.rect.y),
                                               w: Int16(tile.rect.width), h: Int16(tile.rect.height),
                                               u: Int16(tile.atlasX), v: Int16(tile.atlasY),
                                               rule: CoverageRule.nonZero.rawValue, r: 1, g: 1, b: 1, a: 1,
                                               leftTop: 0, leftBottom: 0, rightTop: 0, rightBottom: 0)
                    i += 1
                    continue
                }
                do {
                    let band = workerState[w].bands[k]
                    let p = paths[pieces[band.piece].path]
                    cb.coveredPixels += paint ? band.rect.area : BandShape(rect: band.rect, insets: band.insets).area
                    if band.solid.isEmpty {
                        records[i] = CoverInstance(x: Int16(band.rect.x), y: Int16(band.rect.y),
                                                   w: Int16(band.rect.width), h: Int16(band.rect.height),
                                                   u: Int16(band.atlasX), v: Int16(band.atlasY), rule: p.rule.rawValue,
                                                   r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a,
                                                   leftTop: band.insets.0, leftBottom: band.insets.1,
                                                   rightTop: band.insets.2, rightBottom: band.insets.3)
                        i += 1
                        continue
                    }
                    // Paint form with a solid interior: left side, interior, right side (rectangles).
                    let r = band.rect, solid = band.solid
                    func rect(_ x: Int, _ w: Int, u: Int, v: Int, oneRow: Bool) {
                        records[i] = CoverInstance(x: Int16(r.x + x), y: Int16(r.y), w: Int16(w), h: Int16(r.height),
                                                   u: Int16(u), v: Int16(v), rule: p.rule.rawValue, oneRow: oneRow,
                                                   r: p.color.r, g: p.color.g, b: p.color.b, a: p.color.a)
                        i += 1
                    }
                    if solid.lowerBound > 0 {
                        rect(0, solid.lowerBound, u: band.atlasX, v: band.atlasY, oneRow: false)
                    }
                    rect(solid.lowerBound, solid.count, u: band.stripX, v: band.stripY, oneRow: true)
                    if solid.upperBound < r.width {
                        rect(solid.upperBound, r.width - solid.upperBound, u: band.atlasX + solid.lowerBound,
                             v: band.atlasY, oneRow: false)
                    }
                }
            }
            if let placements {
                // A hoisted layer's content (paint form: rectangles): kept within its layer's box, moved to its
                // region of the layer atlas.
                var k = 0
                for worker in workerState.prefix(ranges.count) {
                    for band in worker.bands {
                        let (shift, clip) = placements[pieces[band.piece].path]
                        for _ in 0 ..< band.instanceCount {
                            Self.place(&records[k], within: clip, shift: shift)
                            k += 1
                        }
                    }
                }
            }
        }

        // 5. Commands.
        let pass = frame.framePass(in: &cb)
        cb.passes[pass].commands.append(.uploadInstances(range: instanceStart ..< instanceStart + instanceBytes,
                                                         bufferOffset: bufferOffset, count: instanceCount,
                                                         pipeline: pipeline))
        cb.passes[pass].commands.append(.bindPipeline(pipeline))
        cb.passes[pass].commands.append(.bindTexture(unit: 0, atlasRef))
        for batch in batches {
            for (shelf, staging) in zip(batch.shelves, batch.shelfStaging) {
                cb.passes[pass].commands.append(.uploadTexture(atlasRef, rect: TexelRect(x: 0, y: shelf.y, width: shelf.used,
                                                                                         height: shelf.height),
                                                               format: atlasFormat, source: staging))
            }
            cb.passes[pass].commands.append(.draw(instanceCount: batch.instances.count,
                                                  bufferOffset: bufferOffset + batch.instances.lowerBound * CoverInstance.stride,
                                                  pipeline: pipeline))
        }
    }

    /// Finds the frame's text runs: maximal runs of consecutive pieces drawn from glyph masks, at least two,
    /// whose boxes add up to `textRunMinOverdraw` times their bounding box, over pixels that still hold a
    /// clear colour that is opaque or transparent (`TextRun`).
    private func findFrameTextRuns(_ paths: [PreparedPath], frame: FrameEncoding, enabled: Bool) {
        frameTextRuns.removeAll(keepingCapacity: true)
        guard enabled else { return }
        let clear = frame.clearColor
        let clearIsPlain = frame.target == .frame && (clear.a == 1 || (clear.a == 0 && clear.r == 0
            && clear.g == 0 && clear.b == 0))
        let isText = { (k: Int) in !paths[self.framePieces[k].path].glyphs.isEmpty }
        /// The text pieces from `i` on, as a run if they qualify.
        func run(from i: Int) -> (end: Int, run: FrameTextRun?) {
            var j = i, area = 0
            var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
            while j < framePieces.count, isText(j) {
                let r = framePieces[j].rect
                let nx0 = min(x0, r.x), ny0 = min(y0, r.y)
                let nx1 = max(x1, r.x + r.width), ny1 = max(y1, r.y + r.height)
                // A run stages its box: past `textRunMaxArea` the next piece starts another candidate.
                if j > i, (nx1 - nx0) * (ny1 - ny0) > textRunMaxArea { break }
                area += r.area
                (x0, y0, x1, y1) = (nx0, ny0, nx1, ny1)
                j += 1
            }
            guard j - i >= 2 else { return (j, nil) }
            let box = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            guard Double(area) >= Self.textRunMinOverdraw * Double(box.area) else { return (j, nil) }
            return (j, FrameTextRun(pieces: i ..< j, box: box, base: 0))
        }
        var i = 0
        while i < framePieces.count {
            guard isText(i) else {
                i += 1
                continue
            }
            let (end, candidate) = run(from: i)
            if var candidate, clearIsPlain,
               !framePieces[0 ..< i].contains(where: { candidate.box.intersection($0.rect) != nil }) {
                candidate.base = Self.texel(fixedPoint: Self.fixedPoint(clear), coverage: 255)
                frameTextRuns.append(candidate)
            }
            i = end
        }
    }

    /// The text runs among the frame pieces `part` (whole runs: parts never split one), with part-local
    /// piece indices, each run's box cut into tiles of at most `maxPiece`.
    private func selectTextRuns(framePieces part: Range<Int>) {
        textRuns.removeAll(keepingCapacity: true)
        textTiles.removeAll(keepingCapacity: true)
        inTextRun.removeAll(keepingCapacity: true)
        inTextRun.append(contentsOf: repeatElement(false, count: part.count))
        for run in frameTextRuns where part.contains(run.pieces.lowerBound) {
            let local = run.pieces.lowerBound - part.lowerBound ..< run.pieces.upperBound - part.lowerBound
            let first = textTiles.count
            let b = run.box
            var y = b.y
            while y < b.y + b.height {
                let h = min(maxPiece.height, b.y + b.height - y)
                var x = b.x
                while x < b.x + b.width {
                    let w = min(maxPiece.width, b.x + b.width - x)
                    textTiles.append(TextTile(run: textRuns.count, rect: PixelRect(x: x, y: y, width: w, height: h)))
                    x += w
                }
                y += h
            }
            textRuns.append(TextRun(pieces: local, tiles: first ..< textTiles.count, base: run.base))
            for k in local { inTextRun[k] = true }
        }
    }

    /// Step 4 for text runs: each tile's rows are cut into `strips` (one per worker). A worker looks up the
    /// glyph masks of every piece crossing its strip once, then takes the strip `textBandRows` rows at a
    /// time: it zeroes them and blends each piece crossing them, in draw order, source-over into the tile's
    /// staging (`blendPiece`). Source-over is associative, so the tile drawn over the frame gives what the
    /// pieces drawn one by one give, up to 8-bit rounding (once in the tile, once in the blend). Which rows a
    /// worker takes does not depend on timing, so neither do the bytes.
    private func compositeTextRuns(_ paths: [PreparedPath], stores: [Polygons], strips: Int, batches: [Batch],
                                   stagingBase: UnsafeMutableRawPointer) {
        let shared = UncheckedSendable((workerState, pieces, textRuns, textTiles, paintColors, stagingBase))
        parallelForEach(strips) { s in
            let (states, pieces, runs, tiles, colors, base) = shared.value
            let worker = states[s]
            let lut = worker.paintTexels
            var lutPath = -1
            worker.glyphMasks.releaseEvicted()
            for tile in tiles {
                let t = tile.rect
                let stripStart = t.y + t.height * s / strips, stripEnd = t.y + t.height * (s + 1) / strips
                guard stripEnd > stripStart else { continue }
                let shelf = batches[tile.batch].shelves[tile.shelf]
                let atlasRowBytes = shelf.used * 4
                let origin = base.assumingMemoryBound(to: UInt8.self) + batches[tile.batch].shelfStaging[tile.shelf]
                    + (tile.atlasY - shelf.y) * atlasRowBytes + tile.atlasX * 4
                // The masks of the pieces crossing the strip, each piece's in `maskRanges`.
                let run = runs[tile.run].pieces
                worker.placedMasks.removeAll(keepingCapacity: true)
                worker.maskRanges.removeAll(keepingCapacity: true)
                for i in run {
                    let start = worker.placedMasks.count
                    defer { worker.maskRanges.append(start ..< worker.placedMasks.count) }
                    let r = pieces[i].rect
                    guard r.y < stripEnd, r.y + r.height > stripStart, r.x < t.x + t.width, r.x + r.width > t.x
                    else { continue }
                    let p = paths[pieces[i].path]
                    stores[p.store].placedGlyphs.withUnsafeBufferPointer { glyphs in
                        for g in p.glyphs {
                            guard let mask = worker.glyphMasks.mask(for: glyphs[g]) else { continue }
                            worker.placedMasks.append(PlacedMask(mask: mask, x: glyphs[g].x, y: glyphs[g].y))
                        }
                    }
                }
                var rowStart = stripStart
                while rowStart < stripEnd {
                    let rowEnd = min(rowStart + Self.textBandRows, stripEnd)
                    defer { rowStart = rowEnd }
                    let base = runs[tile.run].base
                    for y in rowStart ..< rowEnd {
                        UnsafeMutableRawPointer(origin + (y - t.y) * atlasRowBytes)
                            .initializeMemory(as: UInt32.self, repeating: base, count: t.width)
                    }
                    for i in run {
                        let piece = pieces[i]
                        let y0 = max(piece.rect.y, rowStart), y1 = min(piece.rect.y + piece.rect.height, rowEnd)
                        guard y1 > y0 else { continue }
                        let x0 = max(piece.rect.x, t.x), x1 = min(piece.rect.x + piece.rect.width, t.x + t.width)
                        guard x1 > x0 else { continue }
                        if piece.path != lutPath {
                            Self.paintTable(color: colors[piece.path], into: lut)
                            lutPath = piece.path
                        }
                        let range = worker.maskRanges[i - run.lowerBound]
                        worker.placedMasks.withUnsafeBufferPointer { masks in
                            blendPiece(UnsafeBufferPointer(rebasing: masks[range]),
                                       region: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
                                       worker: worker, table: lut, tile: origin, tileRect: t, tileRowBytes: atlasRowBytes)
                        }
                    }
                }
            }
        }
    }

    /// Blends one text piece's glyph masks, clipped to `region` (device pixels), into a tile. Masks whose
    /// columns overlap no other's are blended straight from the mask. Where masks share columns (a kerned
    /// pair, a combining mark, neighbours' anti-aliased edges) they are first added into the worker's
    /// scratch (`CoverageAccumulator.compose`) and blended once, as a piece's coverage is the sum of its
    /// masks: blending them one by one would darken the shared pixels.
    private func blendPiece(_ masks: UnsafeBufferPointer<PlacedMask>, region: PixelRect, worker: Worker,
                            table: UnsafePointer<UInt32>, tile: UnsafeMutablePointer<UInt8>, tileRect t: PixelRect,
                            tileRowBytes: Int) {
        // The masks' parts inside the region, by first column.
        // Taken from the worker (not copied: the buffer stays unique) and handed back, for its capacity.
        var clipped: [ClippedMask] = []
        swap(&clipped, &worker.clippedMasks)
        clipped.removeAll(keepingCapacity: true)
        defer { swap(&clipped, &worker.clippedMasks) }
        let rx1 = region.x + region.width, ry1 = region.y + region.height
        for (k, m) in masks.enumerated() {
            let gx = m.x + Int(m.mask.left), gy = m.y + Int(m.mask.top)
            let c0 = max(region.x, gx), c1 = min(rx1, gx + Int(m.mask.width))
            let r0 = max(region.y, gy), r1 = min(ry1, gy + Int(m.mask.height))
            guard c0 < c1, r0 < r1 else { continue }
            clipped.append(ClippedMask(index: k, c0: c0, c1: c1, r0: r0, r1: r1))
        }
        // Insertion sort: a line's glyphs are in order already, but for right-to-left runs and marks.
        if clipped.count > 1 {
            for i in 1 ..< clipped.count {
                let m = clipped[i]
                var j = i
                while j > 0, clipped[j - 1].c0 > m.c0 {
                    clipped[j] = clipped[j - 1]
                    j -= 1
                }
                clipped[j] = m
            }
        }
        var i = 0
        while i < clipped.count {
            var j = i + 1, end = clipped[i].c1
            while j < clipped.count, clipped[j].c0 < end {
                end = max(end, clipped[j].c1)
                j += 1
            }
            defer { i = j }
            if j == i + 1 {
                let c = clipped[i], m = masks[c.index]
                let gx = m.x + Int(m.mask.left), gy = m.y + Int(m.mask.top), width = Int(m.mask.width)
                let texels = m.mask.texels!
                for r in c.r0 ..< c.r1 {
                    Self.blendRow(coverage: texels + (r - gy) * width + (c.c0 - gx), count: c.c1 - c.c0, table: table,
                                  into: UnsafeMutableRawPointer(tile + (r - t.y) * tileRowBytes + (c.c0 - t.x) * 4))
                }
                continue
            }
            // A group sharing columns: added up over its box, then blended row extent by row extent.
            var top = Int.max, bottom = Int.min
            worker.groupMasks.removeAll(keepingCapacity: true)
            for c in clipped[i ..< j] {
                top = min(top, c.r0)
                bottom = max(bottom, c.r1)
                worker.groupMasks.append(masks[c.index])
            }
            let box = PixelRect(x: clipped[i].c0, y: top, width: end - clipped[i].c0, height: bottom - top)
            worker.scratch.ensure(box.area)
            let scratch = worker.scratch.pointer
            worker.groupMasks.withUnsafeBufferPointer {
                worker.accumulator.compose($0, piece: box, out: scratch, rowBytes: box.width)
            }
            let (firsts, lasts) = worker.accumulator.rowExtents
            for r in 0 ..< box.height {
                let first = Int(firsts[r]), last = Int(lasts[r])
                guard last >= first else { continue }
                Self.blendRow(coverage: scratch + r * box.width + first, count: last - first + 1, table: table,
                              into: UnsafeMutableRawPointer(tile + (box.y + r - t.y) * tileRowBytes
                                                            + (box.x + first - t.x) * 4))
            }
        }
    }

    /// A glyph mask's part inside a region: mask `index`, device columns c0..<c1 and rows r0..<r1.
    struct ClippedMask {
        var index: Int
        var c0: Int, c1: Int, r0: Int, r1: Int
    }

    /// Rows of a text tile a worker finishes before going on: 64 rows of a 1024-wide tile are 256 KiB, which
    /// stay in a core's cache while every line crossing them is blended in. A worker that took its whole
    /// strip at once (2 MiB on S6-text) waited on memory for most of its blending (`perf annotate`).
    static let textBandRows = 64

    /// One row of a text tile: `table[coverage[i]]` over `out[i]`, source-over in premultiplied BGRA8. Most
    /// of a line of text is blank between and around its glyphs, so eight coverage bytes are tested at once:
    /// blank runs cost nothing, and the others are blended eight pixels at a time (coverage 0 blends as the
    /// identity, `over(0, d) == d`).
    @inline(__always)
    static func blendRow(coverage: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>,
                         into out: UnsafeMutableRawPointer) {
        var i = 0
        while i + 8 <= count {
            if UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self) != 0 {
                let c = coverage + i
                let source = SIMD8<UInt32>(table[Int(c[0])], table[Int(c[1])], table[Int(c[2])], table[Int(c[3])],
                                           table[Int(c[4])], table[Int(c[5])], table[Int(c[6])], table[Int(c[7])])
                let at = out + i * 4
                at.storeBytes(of: over(source, at.loadUnaligned(as: SIMD8<UInt32>.self)), as: SIMD8<UInt32>.self)
            }
            i += 8
        }
        let pixels = out.assumingMemoryBound(to: UInt32.self)
        while i < count {
            if coverage[i] != 0 { pixels[i] = over(table[Int(coverage[i])], pixels[i]) }
            i += 1
        }
    }

    /// `source` over `destination`, premultiplied 8-bit BGRA, one pixel a lane (SIMD8 for eight pixels, SIMD2
    /// for one): d × (255 − source alpha) / 255 rounded to nearest, per channel, two channels per 32-bit
    /// multiply, plus the source. The sum cannot carry into the next channel: a premultiplied channel is at
    /// most its alpha, and the scaled destination at most 255 − alpha. 0x80800000 (red at half alpha) over
    /// 0xFF0000FF (opaque blue) gives 0xFF80007F. (Written in 16-bit lanes with SIMD32 widening it ran ~40×
    /// slower: Swift's generic widening initialisers are not vectorised.)
    @inline(__always)
    static func over<V: SIMD>(_ source: V, _ destination: V) -> V where V.Scalar == UInt32 {
        let inverseAlpha = V(repeating: 255) &- (source &>> 24)
        let low = V(repeating: 0x00FF_00FF), half = V(repeating: 0x0080_0080)
        var rb = (destination & low) &* inverseAlpha &+ half
        rb = ((rb &+ ((rb &>> 8) & low)) &>> 8) & low
        var ag = ((destination &>> 8) & low) &* inverseAlpha &+ half
        ag = (ag &+ ((ag &>> 8) & low)) & V(repeating: 0xFF00_FF00)
        return source &+ (rb | ag)
    }

    /// One pixel of `over(_:_:)`.
    @inline(__always)
    static func over(_ source: UInt32, _ destination: UInt32) -> UInt32 {
        over(SIMD2(source, 0), SIMD2(destination, 0))[0]
    }

    /// A rectangle instance cut to `clip` (its atlas texel moved with its top-left corner; a one-row strip
    /// keeps its row) and moved by `shift`; one outside `clip` becomes empty.
    static func place(_ r: inout CoverInstance, within clip: PixelRect, shift: (Int, Int)) {
        let x0 = max(Int(r.x), clip.x), y0 = max(Int(r.y), clip.y)
        let x1 = min(Int(r.x) + Int(r.w), clip.x + clip.width), y1 = min(Int(r.y) + Int(r.h), clip.y + clip.height)
        guard x1 > x0, y1 > y0 else {
            r.w = 0
            r.h = 0
            return
        }
        r.u += Int16(x0 - Int(r.x))
        if r.oneRow == 0 { r.v += Int16(y0 - Int(r.y)) }
        r.x = Int16(x0 + shift.0)
        r.y = Int16(y0 + shift.1)
        r.w = Int16(x1 - x0)
        r.h = Int16(y1 - y0)
    }

    /// Columns `cols` of a coverage row into `out`, zero outside the row's non-zero extent `first ... last`
    /// (nothing is stored there: the resolve writes only the extent; last < first: the row is empty).
    @inline(__always)
    static func copyColumns(_ cols: Range<Int>, of row: UnsafeMutablePointer<UInt8>, extent first: Int, _ last: Int,
                            bpp: Int, into out: UnsafeMutablePointer<UInt8>) {
        let bytes = cols.count * bpp
        let c0 = max(first, cols.lowerBound), c1 = min(last, cols.upperBound - 1)
        if c1 < c0 {
            out.initialize(repeating: 0, count: bytes)
            return
        }
        let lead = (c0 - cols.lowerBound) * bpp, body = (c1 - c0 + 1) * bpp
        out.initialize(repeating: 0, count: lead)
        (out + lead).update(from: row + c0 * bpp, count: body)
        (out + lead + body).initialize(repeating: 0, count: bytes - lead - body)
    }

    /// One band row in the paint form: `out[i] = table[coverage[i]]`. Most of a filled shape's band is its
    /// interior (coverage 255) or the empty corners beside it (0), so eight coverage bytes are tested at once
    /// and such runs are stored as eight equal texels without the table lookups: on S1-fills this pass took
    /// 1.5 ns per texel with a lookup each.
    @inline(__always)
    static func paintRow(coverage: UnsafePointer<UInt8>, count: Int, table: UnsafePointer<UInt32>,
                         into out: UnsafeMutablePointer<UInt32>) {
        let full = SIMD8<UInt32>(repeating: table[255])
        let empty = SIMD8<UInt32>(repeating: table[0])
        var i = 0
        while i + 8 <= count {
            let eight = UnsafeRawPointer(coverage + i).loadUnaligned(as: UInt64.self)
            if eight == ~0 {
                UnsafeMutableRawPointer(out + i).storeBytes(of: full, as: SIMD8<UInt32>.self)
            } else if eight == 0 {
                UnsafeMutableRawPointer(out + i).storeBytes(of: empty, as: SIMD8<UInt32>.self)
            } else {
                for k in i ..< i + 8 { out[k] = table[Int(coverage[k])] }
            }
            i += 8
        }
        while i < count {
            out[i] = table[Int(coverage[i])]
            i += 1
        }
    }

    /// A premultiplied colour as 8.24 fixed point in BGRA order, so that texel = round(colour × coverage) for
    /// coverage 0…255 ((cov · C + 2^23) >> 24 stays below 2^32).
    static func fixedPoint(_ c: RGBA) -> SIMD4<UInt32> {
        func q(_ v: Float) -> UInt32 { UInt32((min(max(v, 0), 1) * 16_777_216).rounded()) }
        return SIMD4(q(c.b), q(c.g), q(c.r), q(c.a))
    }

    /// The BGRA8 texel of an 8.24 colour at one coverage value: each channel round(colour × coverage).
    static func texel(fixedPoint c: SIMD4<UInt32>, coverage: UInt32) -> UInt32 {
        let v = (c &* coverage &+ (1 << 23)) &>> 24
        return v.x | (v.y << 8) | (v.z << 16) | (v.w << 24)
    }

    /// The premultiplied BGRA texel of each R8 coverage value 0…255 (`texel(fixedPoint:coverage:)`, by
    /// adding the colour once per step).
    static func paintTable(color c: SIMD4<UInt32>, into table: UnsafeMutablePointer<UInt32>) {
        var acc = SIMD4<UInt32>(repeating: 1 << 23)
        for cov in 0 ..< 256 {
            let v = acc &>> 24
            table[cov] = v.x | (v.y << 8) | (v.z << 16) | (v.w << 24)
            acc &+= c
        }
    }
}
