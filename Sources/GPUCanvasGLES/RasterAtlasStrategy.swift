// The raster-atlas path strategy (Skia's kRasterAtlas, vello_hybrid's CPU half): coverage computed on the CPU
// (`CoverageAccumulator`), packed into an atlas, uploaded with one glTexSubImage2D per shelf. It draws
// nothing: the emit phase draws the bands it returns (`CoverageSet`).
//
// Why it is the default: on llvmpipe the "GPU" is the same CPU cores, each triangle costs ~0.6 µs of setup and
// each blended, atlas-sampled pixel ~5 ns; CPU coverage touches each pixel of a path's box once, and the GL side
// gets two triangles per band instead of two per flattened segment (docs/performance.md).
//
// A frame goes:
// 1. `beginFrame`: each path's pixel box is cut into pieces of at most `maxPiece` (the accumulator's working
//    size), and the pieces into parts of at most `partPixels` box pixels, so that memory stays bounded.
// 2. Per part, on all cores (pieces split into contiguous shares of about equal work, so the output does not
//    depend on timing): coverage of a piece into the worker's scratch, then its horizontal bands trimmed to
//    the covered columns, each copied compactly into the worker's band arena.
// 3. In order: bands are shelf-packed into a 2048-wide atlas; a full atlas starts a new batch.
// 4. On all cores: band rows are copied from the arenas into the staging of their shelf (in baked paint,
//    through a per-path table from coverage to premultiplied BGRA8 colour × coverage).
//
// Baked paint (`CoverageOutput.paint`) is shaped for Mesa's linear rasterizer (GLESBackend.swift). In it:
// - solid interiors: a band's columns of full coverage on all its rows (`CoverageAccumulator.solidColumns`)
//   are cut out when they hold at least `solidMinArea` pixels; the band becomes up to three rectangles, its
//   sides baked side by side in the atlas and the interior drawn from a one-row strip of the full-coverage
//   texel (`oneRow`: dv/dy = 0 keeps it a 1:1 span copy for the linear rasterizer). Only fills and strokes
//   from `Lowering.solidStrokeWidth` are searched: thin strokes have no interiors.
// - text piles (`TextPile`): a line of text is mostly blank between and around its glyphs, so its bands are
//   ~3× its inked pixels. Consecutive text pieces that pile up over the clear colour are composited on the
//   CPU, straight from their glyph masks, into pieces that start from that colour; each piece is one rectangle.

import Foundation

final class RasterAtlasStrategy: PathStrategy {
    var kind: PathStrategyKind { .rasterAtlas }
    /// Texel format of the coverage the accumulator writes: R8 by default.
    let format: TextureFormat
    /// Baked paint (llvmpipe's linear path): the atlas holds premultiplied colour × coverage as BGRA8, bands
    /// are plain rectangles, the frame is BGRA8 and the composite is `atlasBlit`. Only with R8 coverage.
    let paint: Bool
    var offersBakedPaint: Bool { paint }
    var coverageFormat: TextureFormat { format }
    /// Glyph masks are R8 coverage (`GlyphMaskCache`).
    var drawsGlyphMasks: Bool { format == .r8 }
    /// 2048 × up to 8192 texels (16 MiB of R8, allocated only as far as a frame needs). One tall atlas rather
    /// than several 2048² ones: re-uploading an atlas that a queued draw still reads makes llvmpipe finish
    /// that draw first, which serialises CPU and rasterizer.
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
    /// arenas 1 (32 MiB of R8), however much the frame draws.
    static let defaultPartPixels = 1 << 25
    let partPixels: Int

    private var workerState: [Worker] = []
    /// The workers' glyph mask caches (for `GlyphCacheStatistics`).
    var glyphMaskCaches: [GlyphMaskCache] { workerState.map(\.glyphMasks) }
    /// The frame's pieces, in draw order; `pieces` holds the part being encoded.
    private var framePieces: [AtlasPiece] = []
    private var pieces: [AtlasPiece] = []
    private var batches: [Batch] = []
    /// Baked paint: each path's colour as 8.24 fixed point (kept across frames for its capacity).
    private var paintColors: [SIMD4<UInt32>] = []
    /// Baked paint: the frame's piles of text pieces composited on the CPU (`findFramePiles`).
    private var framePiles: [FramePile] = []
    private struct FramePile {
        var pieces: Range<Int>
        var box: PixelRect
        /// The texel every piece of the pile starts from: the frame's clear colour (`TextPile`).
        var base: UInt32
    }
    /// The part's text piles and their pieces, with part-local piece indices (`selectPiles`).
    private var piles: [TextPile] = []
    private var pilePieces: [PilePiece] = []
    /// Per piece of the part: it belongs to a text pile (it gets no bands of its own).
    private var inTextPile: [Bool] = []

    /// Baked paint: consecutive text pieces whose boxes pile up are composited source-over on the CPU, in
    /// draw order, into pieces of premultiplied BGRA8, each drawn source-over as one rectangle like a band.
    ///
    /// Only where the frame still holds its clear colour under the whole pile, and that colour is opaque
    /// (a chart's labels on its background) or transparent: the piece then starts from that colour, each draw
    /// is blended and rounded to 8 bits as the frame's own blend would round it, and the piece replaces the
    /// pixels (opaque) or lands on transparent ones. That is the arithmetic of drawing one by one. A piece that
    /// started transparent over pixels already drawn would stand for the draws only up to rounding
    /// (source-over is associative in exact arithmetic, not in 8 bits), past the bar: such piles keep their
    /// bands.
    private struct TextPile {
        var pieces: Range<Int>
        var tiles: Range<Int>
        var base: UInt32
    }

    /// A piece of a text pile: at most `maxPiece`, placed in the atlas like a band.
    private struct PilePiece {
        var run: Int
        var rect: PixelRect
        var atlasX = 0, atlasY = 0, shelf = 0, batch = 0
    }

    /// What the instance records and the atlas hold, in draw order: a worker's band or a piece of a text pile.
    private enum DrawItem {
        case band(worker: Int, index: Int)
        case tile(Int)
    }
    private var drawItems: [DrawItem] = []

    /// A pile of text pieces is composited on the CPU when their boxes add up to at least this many times the
    /// pile's bounding box: a pile pays from about 1.5 layers of text (docs/performance.md), so the odd label
    /// far from the next keeps its bands.
    static let pileMinOverdraw = 2.0
    /// Most pixels a pile's box may hold (`pileMaxArea`, lowered by tests): its pieces are staged whole (4
    /// bytes a pixel), so this is the staging a part holds by default (`defaultPartPixels`), whatever the
    /// renderer's own part limit (piles do not depend on it, so that a frame gives the same bytes in parts).
    static let defaultPileMaxArea = defaultPartPixels
    let pileMaxArea: Int

    /// Baked paint: a band's columns of full coverage on all its rows (a shape's interior) are drawn from a
    /// one-row strip of the path's full-coverage texel when they hold at least this many pixels. Each such
    /// band costs up to two more instances (its left and right sides) and saves baking, uploading and
    /// fetching four bytes per interior pixel (~1–2 ns each): with ~0.5 µs per rectangle instance, a few
    /// hundred pixels pay.
    static let solidMinArea = 512
    /// What a solid interior pixel costs next to a baked one, for the band search. It is still blended, but
    /// neither baked nor uploaded, and llvmpipe reads it from a strip that stays in cache, where a baked texel
    /// is read once from an atlas of tens of MiB (measured: docs/performance.md).
    static let solidPixelCost = 0.3

    /// A band: where it is drawn, where its texels wait in a worker's arena, where it lands in the atlas.
    private struct Band {
        var piece: Int
        var rect: PixelRect  // device pixels
        var insets: (Int16, Int16, Int16, Int16)
        var arenaOffset: Int
        /// Baked paint: columns of `rect` (band-local) drawn from a strip of full-coverage texels. The arena
        /// and the atlas then hold only the columns left and right of them, side by side.
        var solid: Range<Int> = 0 ..< 0
        var atlasX = 0, atlasY = 0
        var shelf = 0, batch = 0
        var stripX = 0, stripY = 0, stripShelf = 0

        /// Columns whose texels are stored: the band's, less the solid interior.
        var texelWidth: Int { rect.width - solid.count }
    }

    /// One atlas's worth of bands. Only the used part of each shelf is staged and uploaded (one upload per
    /// shelf, its rows `used` texels apart in staging): the gaps right of a shelf's last band and below the
    /// last shelf cost no bytes.
    private struct Batch {
        var usedHeight: Int
        var shelves: [(y: Int, height: Int, used: Int)]
        var shelfStaging: [Int] = []
    }

    /// One worker's scratch: its accumulator, piece texels, band arena and bands.
    private final class Worker {
        let accumulator = CoverageAccumulator()
        let glyphMasks: GlyphMaskCache
        /// The masks of the text piece being composed (text piles: of every piece crossing the strip, each
        /// piece's in `maskRanges`).
        var placedMasks: [PlacedMask] = []
        var maskRanges: [Range<Int>] = []
        /// Text piles: a piece's masks inside a region (`blendPiece`), and a group of them sharing columns.
        var clippedMasks: [ClippedMask] = []
        var groupMasks: [PlacedMask] = []
        /// The resolve writes each row's non-zero extent and the band copy reads only that.
        let scratch = ScratchBuffer<UInt8>(fill: nil)
        /// Written band by band before it is read.
        let arena = ScratchBuffer<UInt8>(fill: nil)
        var arenaUsed = 0
        var bands: [Band] = []
        var local: [BandShape] = []
        /// Baked paint: the texel of each coverage value for the path being baked (`paintTable`).
        let paintTexels = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)

        init(index: Int) { glyphMasks = GlyphMaskCache(slot: index) }
        deinit { paintTexels.deallocate() }

        /// Coverage of piece `i` into the scratch, then its horizontal bands trimmed to the covered columns
        /// (`CoverageAccumulator.bands`), each copied compactly into the arena. Only bands reach the atlas: the
        /// empty parts of a sparse path's box (a stroke's, a star's) cost neither atlas space, nor upload, nor
        /// blended pixels.
        func storeBands(of i: Int, _ piece: AtlasPiece, _ p: PreparedPath, stores: [Polygons], form: AtlasForm) {
            let bpp = form.coverage.bytesPerTexel
            let rowBytes = piece.rect.width * bpp
            scratch.ensure(rowBytes * piece.rect.height)
            let solids = form.paint && p.mayHaveInteriors
            rasterize(piece, p, stores: stores, format: form.coverage, rowBytes: rowBytes, solids: solids)
            local.removeAll(keepingCapacity: true)
            accumulator.bands(instanceCost: RasterAtlasStrategy.bandInstanceCost,
                              solids: solids ? (RasterAtlasStrategy.solidMinArea, RasterAtlasStrategy.solidPixelCost) : nil,
                              into: &local)
            let (firsts, lasts) = accumulator.rowExtents
            let scratch = self.scratch.pointer
            for shape in local {
                let b = shape.rect, solid = shape.solid
                let bandRowBytes = (b.width - solid.count) * bpp
                let dst = reserveArena(bandRowBytes * b.height)
                for r in 0 ..< b.height {
                    let row = b.y + r
                    let src = scratch + row * rowBytes
                    let first = Int(firsts[row]), last = Int(lasts[row])
                    let out = dst + r * bandRowBytes
                    if solid.isEmpty {
                        RasterAtlasStrategy.copyColumns(b.x ..< b.x + b.width, of: src, extent: first, last, bpp: bpp, into: out)
                    } else {
                        RasterAtlasStrategy.copyColumns(b.x ..< solid.lowerBound, of: src, extent: first, last, bpp: bpp, into: out)
                        RasterAtlasStrategy.copyColumns(solid.upperBound ..< b.x + b.width, of: src, extent: first, last, bpp: bpp,
                                    into: out + (solid.lowerBound - b.x) * bpp)
                    }
                }
                bands.append(Band(piece: i, rect: PixelRect(x: piece.rect.x + b.x, y: piece.rect.y + b.y,
                                                            width: b.width, height: b.height),
                                  insets: form.paint ? (0, 0, 0, 0) : shape.insets, arenaOffset: dst - arena.pointer,
                                  solid: solid.isEmpty ? 0 ..< 0 : solid.lowerBound - b.x ..< solid.upperBound - b.x))
            }
        }

        /// The piece's coverage into the scratch: its contours' exact area, or its glyph masks added up.
        private func rasterize(_ piece: AtlasPiece, _ p: PreparedPath, stores: [Polygons], format: TextureFormat,
                               rowBytes: Int, solids: Bool) {
            let scratch = self.scratch.pointer
            if p.glyphs.isEmpty {
                accumulator.render(stores[p.store], contours: p.contours, rule: p.rule, antialiased: p.antialiased,
                                   piece: piece.rect, format: format, out: UnsafeMutableRawPointer(scratch),
                                   rowBytes: rowBytes, trackFullRuns: solids)
                return
            }
            precondition(format == .r8, "glyph masks are R8 coverage")
            placedMasks.removeAll(keepingCapacity: true)
            glyphMasks.releaseEvicted()
            stores[p.store].placedGlyphs.withUnsafeBufferPointer { glyphs in
                for g in p.glyphs {
                    guard let mask = glyphMasks.mask(for: glyphs[g]) else { continue }
                    placedMasks.append(PlacedMask(mask: mask, x: glyphs[g].x, y: glyphs[g].y))
                }
            }
            placedMasks.withUnsafeBufferPointer { accumulator.compose($0, piece: piece.rect, out: scratch, rowBytes: rowBytes) }
        }

        /// Makes room for `count` more arena bytes (keeping what is there).
        func reserveArena(_ count: Int) -> UnsafeMutablePointer<UInt8> {
            if arenaUsed + count > arena.capacity { arena.ensure(max(arenaUsed + count, arena.capacity * 2)) }
            defer { arenaUsed += count }
            return arena.pointer + arenaUsed
        }
    }

    init(format: TextureFormat = .r8, paint: Bool = false, maxTextureSize: Int, workers: Int,
         partPixels: Int = defaultPartPixels, pileMaxArea: Int = defaultPileMaxArea) {
        self.format = format
        self.partPixels = partPixels
        self.pileMaxArea = pileMaxArea
        self.paint = paint && format == .r8
        atlasWidth = min(2048, maxTextureSize)
        atlasMaxHeight = min(8192, maxTextureSize)
        self.workers = workers
    }

    // MARK: The frame and its parts

    /// What one coverage request stages: the accumulator's texel format, the atlas's, and the padding of zero
    /// columns each trapezoid band gets on both sides (`CoverageAccumulator.bandPadding`; none for the paint
    /// form's rectangles).
    private struct AtlasForm {
        var paint: Bool
        var coverage: TextureFormat
        var atlas: TextureFormat
        var padding: Int

        init(_ output: CoverageOutput, strategyFormat: TextureFormat, offersPaint: Bool) {
            switch output {
            case .bakedPaint:
                precondition(offersPaint, "baked paint needs the raster atlas's R8 baked paint")
                paint = true
                coverage = strategyFormat
            case .coverage(let f):
                paint = false
                coverage = f
            }
            atlas = paint ? .bgra8 : coverage
            padding = paint ? 0 : CoverageAccumulator.bandPadding
        }
    }

    /// The frame's parts: ranges of `framePieces`, each staged and drawn before the next.
    private var partRanges: [Range<Int>] = []

    /// Step 1: every path's box cut into pieces of at most `maxPiece`; in baked paint each path's colour
    /// as 8.24 fixed point and the frame's text piles; then the parts.
    func beginFrame(_ paths: [PreparedPath], output: CoverageOutput, splits: Bool) -> Int {
        cutPieces(paths, maxPiece: (min(maxPiece.width, atlasWidth), min(maxPiece.height, atlasMaxHeight)),
                  into: &framePieces)
        paintColors.removeAll(keepingCapacity: true)
        var pilesOver: RGBA?
        if case .bakedPaint(let over) = output {
            for p in paths { paintColors.append(Self.fixedPoint(p.color)) }
            pilesOver = over
        }
        // Text piles are found over the whole frame, so that parts do not change which pieces are composited
        // on the CPU: a pile is never split between parts and counts as its bounding box, what it stages.
        findFramePiles(paths, over: pilesOver)
        partRanges = splits ? cutParts() : [0 ..< framePieces.count]
        return partRanges.count
    }

    /// Consecutive frame pieces (a text pile never split) of at most `partPixels` box pixels each.
    private func cutParts() -> [Range<Int>] {
        var nextRun = 0
        /// The frame pieces from `i` that go into a part together, and the box pixels they stage.
        func unit(at i: Int) -> (end: Int, area: Int) {
            while nextRun < framePiles.count, framePiles[nextRun].pieces.upperBound <= i { nextRun += 1 }
            if nextRun < framePiles.count, framePiles[nextRun].pieces.lowerBound == i {
                return (framePiles[nextRun].pieces.upperBound, framePiles[nextRun].box.area)
            }
            return (i + 1, framePieces[i].rect.area)
        }
        var ranges: [Range<Int>] = []
        var start = 0
        while start < framePieces.count {
            var (end, area) = unit(at: start)
            while end < framePieces.count {
                let next = unit(at: end)
                guard area + next.area <= partPixels else { break }
                area += next.area
                end = next.end
            }
            ranges.append(start ..< end)
            start = end
        }
        return ranges.isEmpty ? [0 ..< 0] : ranges
    }

    /// Steps 2–4 for one part: its bands, packed into atlas batches, their texels staged; the bands in draw
    /// order (a baked-paint band with a solid interior as up to three rectangles, pieces of text piles where their piles
    /// come) and the shelf uploads of each batch.
    func coverage(part: Int, _ paths: [PreparedPath], stores: [Polygons], output: CoverageOutput, atlas: TextureRef,
                  into cb: inout CommandBuffer) -> CoverageSet {
        let form = AtlasForm(output, strategyFormat: format, offersPaint: paint)
        var set = CoverageSet(kind: .coverage, atlasFormat: form.atlas, shapes: paths.count)
        pieces.removeAll(keepingCapacity: true)
        pieces.append(contentsOf: framePieces[partRanges[part]])
        selectPiles(framePieces: partRanges[part])
        guard !pieces.isEmpty else { return set }
        let used = rasterize(paths, stores: stores, form: form)
        pack(workers: used, padding: form.padding)
        guard !batches.isEmpty else { return set }
        stage(paths, stores: stores, form: form, workers: used, atlas: atlas, into: &cb)
        collect(paths, form: form, workers: used, atlas: atlas, into: &set)
        return set
    }

    // MARK: Step 2: coverage and bands

    /// Coverage and bands of the part's pieces on all cores (pieces split into contiguous shares of about equal
    /// work, so the output does not depend on timing); returns how many workers took part.
    private func rasterize(_ paths: [PreparedPath], stores: [Polygons], form: AtlasForm) -> Int {
        let inTextPile = self.inTextPile
        var totalCost = 0
        for p in pieces { totalCost += p.rect.area + paths[p.path].edgeCount }
        let parts = totalCost >= Lowering.parallelThreshold * 8 ? workers : 1
        let ranges = balancedRanges(count: pieces.count, parts: parts) {
            inTextPile[$0] ? 1 : self.pieces[$0].rect.area + paths[self.pieces[$0].path].edgeCount
        }
        while workerState.count < ranges.count { workerState.append(Worker(index: workerState.count)) }
        let shared = UncheckedSendable((workerState, pieces))
        parallelForEach(ranges.count) { w in
            let (states, pieces) = shared.value
            let worker = states[w]
            worker.arenaUsed = 0
            worker.bands.removeAll(keepingCapacity: true)
            // A text pile's pieces get no bands: they are composited into its pieces (step 4).
            for i in ranges[w] where !inTextPile[i] {
                worker.storeBands(of: i, pieces[i], paths[pieces[i].path], stores: stores, form: form)
            }
        }
        return ranges.count
    }

    // MARK: Step 3: packing

    /// The bands and pieces of text piles, in draw order, shelf-packed into `atlasWidth`-wide atlases (workers own
    /// contiguous shares of pieces, so their band lists concatenate in order); a full atlas starts a new batch.
    private func pack(workers used: Int, padding pad: Int) {
        var packer = ShelfPacker(width: atlasWidth, maxHeight: atlasMaxHeight, tight: true)
        batches.removeAll(keepingCapacity: true)
        drawItems.removeAll(keepingCapacity: true)
        /// The band's texels (and its solid interior's strip) in the current atlas; false when it is full.
        func place(_ band: inout Band) -> Bool {
            if !band.solid.isEmpty {
                guard let strip = packer.allocate(width: band.solid.count, height: 1) else { return false }
                (band.stripX, band.stripY, band.stripShelf) = (strip.x, strip.y, strip.shelf)
            }
            guard band.texelWidth > 0 else { return true }
            guard let slot = packer.allocate(width: band.texelWidth + 2 * pad, height: band.rect.height) else {
                return false
            }
            (band.atlasX, band.atlasY, band.shelf) = (slot.x + pad, slot.y, slot.shelf)
            return true
        }
        func closeBatch() {
            batches.append(Batch(usedHeight: packer.usedHeight, shelves: packer.shelves))
            packer.reset()
        }
        var nextPile = 0
        func placePieces(of pile: Int) {
            for t in piles[pile].tiles {
                let r = pilePieces[t].rect
                var slot = packer.allocate(width: r.width, height: r.height)
                if slot == nil {
                    closeBatch()
                    slot = packer.allocate(width: r.width, height: r.height)
                    precondition(slot != nil, "a piece of a text pile larger than an empty atlas")
                }
                (pilePieces[t].atlasX, pilePieces[t].atlasY, pilePieces[t].shelf) = (slot!.x, slot!.y, slot!.shelf)
                pilePieces[t].batch = batches.count
                drawItems.append(.tile(t))
            }
        }
        for (w, worker) in workerState.prefix(used).enumerated() {
            for k in worker.bands.indices {
                while nextPile < piles.count, worker.bands[k].piece >= piles[nextPile].pieces.upperBound {
                    placePieces(of: nextPile)
                    nextPile += 1
                }
                if !place(&worker.bands[k]) {
                    closeBatch()
                    // A fresh atlas holds any band: bands are at most maxPiece, half the atlas.
                    let placed = place(&worker.bands[k])
                    precondition(placed, "a band larger than an empty atlas")
                }
                worker.bands[k].batch = batches.count
                drawItems.append(.band(worker: w, index: k))
            }
        }
        while nextPile < piles.count {
            placePieces(of: nextPile)
            nextPile += 1
        }
        // Whatever was placed since the last full atlas (a band or a piece always takes texels or a strip).
        if packer.usedHeight > 0 { closeBatch() }
    }

    // MARK: Step 4: staging

    /// The atlas declared and each shelf's staging reserved; band texels copied (or, in baked paint, baked
    /// through the path's colour table) into it on all cores; text piles composited into their pieces.
    private func stage(_ paths: [PreparedPath], stores: [Polygons], form: AtlasForm, workers used: Int,
                       atlas: TextureRef, into cb: inout CommandBuffer) {
        let atlasBpp = form.atlas.bytesPerTexel
        var maxUsed = 0, shelfBytes = 0, shelfCount = 0
        for batch in batches {
            for shelf in batch.shelves { shelfBytes += shelf.height * shelf.used * atlasBpp }
            shelfCount += batch.shelves.count
            maxUsed = max(maxUsed, batch.usedHeight)
        }
        // Room for the instance records the emit phase writes next, too.
        cb.staging.reserveCapacity(adding: shelfBytes + (drawItems.count * 3) * CoverInstance.stride,
                                   regions: shelfCount + 1)
        for b in batches.indices {
            // Baked paint: every texel a rectangle samples is written below, so the shelves' gaps need no zeroing.
            batches[b].shelfStaging = batches[b].shelves.map {
                cb.reserveStaging($0.height * $0.used * atlasBpp, zeroed: !form.paint)
            }
        }
        if let d = cb.desc(of: atlas), d.format == form.atlas { maxUsed = max(maxUsed, d.height) }
        cb.declare(atlas, TextureDesc(width: atlasWidth, height: maxUsed, format: form.atlas))
        let stagingBase = cb.staging.base
        let shared = UncheckedSendable((workerState, batches, paintColors, pieces, stagingBase))
        parallelForEach(used) { w in
            let (states, batches, colors, pieces, base) = shared.value
            Self.stageBands(of: states[w], batches: batches, colors: form.paint ? colors : nil,
                            pieces: pieces, coverageBpp: form.coverage.bytesPerTexel, atlasBpp: atlasBpp,
                            staging: base)
        }
        if !pilePieces.isEmpty {
            cb.pilePieces += pilePieces.count
            for pile in piles { cb.pileTextPieces += pile.pieces.count }
            compositePiles(paths, stores: stores, strips: max(1, used), batches: batches, stagingBase: stagingBase)
        }
    }

    /// One worker's bands into their shelves' staging: the arena's rows copied as they are, or baked into
    /// premultiplied BGRA8 through each path's table (`colors`, baked paint), its strip filled with the
    /// full-coverage texel.
    private static func stageBands(of worker: Worker, batches: [Batch], colors: [SIMD4<UInt32>]?, pieces: [AtlasPiece],
                                   coverageBpp bpp: Int, atlasBpp: Int, staging base: UnsafeMutableRawPointer) {
        let lut = worker.paintTexels
        var lutPath = -1
        for band in worker.bands {
            let batch = batches[band.batch]
            let src = worker.arena.pointer + band.arenaOffset
            let shelf = batch.shelves[band.shelf]
            let atlasRowBytes = shelf.used * atlasBpp
            let dst = base + batch.shelfStaging[band.shelf] + (band.atlasY - shelf.y) * atlasRowBytes
                + band.atlasX * atlasBpp
            let width = band.texelWidth
            let rowBytes = width * bpp
            guard let colors else {
                for r in 0 ..< band.rect.height {
                    (dst + r * atlasRowBytes).copyMemory(from: src + r * rowBytes, byteCount: rowBytes)
                }
                continue
            }
            let path = pieces[band.piece].path
            if path != lutPath {
                paintTable(color: colors[path], into: lut)
                lutPath = path
            }
            if width > 0 {
                for r in 0 ..< band.rect.height {
                    paintRow(coverage: src + r * rowBytes, count: width, table: lut,
                             into: (dst + r * atlasRowBytes).assumingMemoryBound(to: UInt32.self))
                }
            }
            if !band.solid.isEmpty {
                let stripShelf = batch.shelves[band.stripShelf]
                let strip = base + batch.shelfStaging[band.stripShelf]
                    + (band.stripY - stripShelf.y) * stripShelf.used * atlasBpp + band.stripX * atlasBpp
                strip.initializeMemory(as: UInt32.self, repeating: lut[255], count: band.solid.count)
            }
        }
    }

    /// The coverage set of the part: its rectangles in draw order and each batch's shelf uploads.
    private func collect(_ paths: [PreparedPath], form: AtlasForm, workers used: Int, atlas: TextureRef,
                         into set: inout CoverageSet) {
        for item in drawItems {
            switch item {
            case .tile(let t):
                let tile = pilePieces[t]
                set.append(CoverBand(x: Int16(tile.rect.x), y: Int16(tile.rect.y), w: Int16(tile.rect.width),
                                     h: Int16(tile.rect.height), u: Int16(tile.atlasX), v: Int16(tile.atlasY),
                                     rule: CoverageRule.nonZero.rawValue, batch: Int16(tile.batch)), shape: -1)
            case .band(let w, let k):
                let band = workerState[w].bands[k]
                let path = pieces[band.piece].path
                let r = band.rect, solid = band.solid
                func rect(_ x: Int, _ width: Int, u: Int, v: Int, oneRow: Bool) {
                    set.append(CoverBand(x: Int16(r.x + x), y: Int16(r.y), w: Int16(width), h: Int16(r.height),
                                         u: Int16(u), v: Int16(v), rule: paths[path].rule.rawValue,
                                         batch: Int16(band.batch), leftTop: band.insets.0, leftBottom: band.insets.1,
                                         rightTop: band.insets.2, rightBottom: band.insets.3,
                                         oneRow: oneRow ? 1 : 0), shape: path)
                }
                if solid.isEmpty {
                    rect(0, r.width, u: band.atlasX, v: band.atlasY, oneRow: false)
                    continue
                }
                // Baked paint with a solid interior: left side, interior, right side.
                if solid.lowerBound > 0 { rect(0, solid.lowerBound, u: band.atlasX, v: band.atlasY, oneRow: false) }
                rect(solid.lowerBound, solid.count, u: band.stripX, v: band.stripY, oneRow: true)
                if solid.upperBound < r.width {
                    rect(solid.upperBound, r.width - solid.upperBound, u: band.atlasX + solid.lowerBound,
                         v: band.atlasY, oneRow: false)
                }
            }
        }
        for batch in batches {
            var load = CoverageBatch()
            for (shelf, staging) in zip(batch.shelves, batch.shelfStaging) {
                load.uploads.append(.uploadTexture(atlas, rect: TexelRect(x: 0, y: shelf.y, width: shelf.used,
                                                                          height: shelf.height),
                                                   format: form.atlas, source: staging))
            }
            set.batches.append(load)
        }
    }

    /// Finds the frame's text piles: maximal sequences of consecutive pieces drawn from glyph masks, at least two,
    /// whose boxes add up to `pileMinOverdraw` times their bounding box, over pixels that still hold a
    /// clear colour that is opaque or transparent (`TextPile`).
    private func findFramePiles(_ paths: [PreparedPath], over clear: RGBA?) {
        framePiles.removeAll(keepingCapacity: true)
        guard let clear else { return }
        let clearIsPlain = clear.a == 1 || (clear.a == 0 && clear.r == 0 && clear.g == 0 && clear.b == 0)
        let isText = { (k: Int) in !paths[self.framePieces[k].path].glyphs.isEmpty }
        /// The text pieces from `i` on, as a pile if they qualify.
        func run(from i: Int) -> (end: Int, run: FramePile?) {
            var j = i, area = 0
            var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
            while j < framePieces.count, isText(j) {
                let r = framePieces[j].rect
                let nx0 = min(x0, r.x), ny0 = min(y0, r.y)
                let nx1 = max(x1, r.x + r.width), ny1 = max(y1, r.y + r.height)
                // A pile stages its box: past `pileMaxArea` the next piece starts another candidate.
                if j > i, (nx1 - nx0) * (ny1 - ny0) > pileMaxArea { break }
                area += r.area
                (x0, y0, x1, y1) = (nx0, ny0, nx1, ny1)
                j += 1
            }
            guard j - i >= 2 else { return (j, nil) }
            let box = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
            guard Double(area) >= Self.pileMinOverdraw * Double(box.area) else { return (j, nil) }
            return (j, FramePile(pieces: i ..< j, box: box, base: 0))
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
                framePiles.append(candidate)
            }
            i = end
        }
    }

    /// The text piles among the frame pieces `part` (whole piles: parts never split one), with part-local
    /// piece indices, each pile's box cut into pieces of at most `maxPiece`.
    private func selectPiles(framePieces part: Range<Int>) {
        piles.removeAll(keepingCapacity: true)
        pilePieces.removeAll(keepingCapacity: true)
        inTextPile.removeAll(keepingCapacity: true)
        inTextPile.append(contentsOf: repeatElement(false, count: part.count))
        for run in framePiles where part.contains(run.pieces.lowerBound) {
            let local = run.pieces.lowerBound - part.lowerBound ..< run.pieces.upperBound - part.lowerBound
            let first = pilePieces.count
            let b = run.box
            var y = b.y
            while y < b.y + b.height {
                let h = min(maxPiece.height, b.y + b.height - y)
                var x = b.x
                while x < b.x + b.width {
                    let w = min(maxPiece.width, b.x + b.width - x)
                    pilePieces.append(PilePiece(run: piles.count, rect: PixelRect(x: x, y: y, width: w, height: h)))
                    x += w
                }
                y += h
            }
            piles.append(TextPile(pieces: local, tiles: first ..< pilePieces.count, base: run.base))
            for k in local { inTextPile[k] = true }
        }
    }

    /// Step 4 for text piles: each piece's rows are cut into `strips` (one per worker). A worker looks up the
    /// glyph masks of every piece crossing its strip once, then takes the strip `textBandRows` rows at a
    /// time: it zeroes them and blends each piece crossing them, in draw order, source-over into the piece's
    /// staging (`blendPiece`). Source-over is associative, so the piece drawn over the frame gives what the
    /// pieces drawn one by one give, up to 8-bit rounding (once in the piece, once in the blend). Which rows a
    /// worker takes does not depend on timing, so neither do the bytes.
    private func compositePiles(_ paths: [PreparedPath], stores: [Polygons], strips: Int, batches: [Batch],
                                   stagingBase: UnsafeMutableRawPointer) {
        let shared = UncheckedSendable((workerState, pieces, piles, pilePieces, paintColors, stagingBase))
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

    /// Blends one text piece's glyph masks, clipped to `region` (device pixels), into a piece. Masks whose
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

    /// Rows of a piece of a text pile a worker finishes before going on: 64 rows of a 1024-wide piece are 256 KiB, which
    /// stay in a core's cache while every line crossing them is blended in. A worker that took its whole
    /// strip at once (2 MiB on S6-text) waited on memory for most of its blending (`perf annotate`).
    static let textBandRows = 64

    /// One row of a piece of a text pile: `table[coverage[i]]` over `out[i]`, source-over in premultiplied BGRA8. Most
    /// of a line of text is blank between and around its glyphs, so eight coverage bytes are tested at once:
    /// blank stretches cost nothing, and the others are blended eight pixels at a time (coverage 0 blends as the
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

    /// One band row in baked paint: `out[i] = table[coverage[i]]`. Most of a filled shape's band is its
    /// interior (coverage 255) or the empty corners beside it (0), so eight coverage bytes are tested at once
    /// and such stretches are stored as eight equal texels without the table lookups: on S1-fills this pass took
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
