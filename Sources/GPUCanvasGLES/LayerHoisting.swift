// Hoisted layers: the frame's top-level layers drawn before the frame, together.
//
// Design note. On llvmpipe every render pass ends in a flush (the rasterizer threads wake, bin, draw, and
// meet at a barrier: about 40 µs, whatever the pass draws). Drawn in order, each top-level layer costs a pass
// of its own and another back on the frame, and each blur three or four more: S4-blur-layers (twenty layers,
// ten blurred) took 71 passes. A top-level layer's content depends on nothing the frame holds, so the encoder
// draws all of them first:
// - the layer atlas: every hoistable layer (top-level, its content only draws) gets a region of one texture
//   (`layerAtlas(page)`, or `preciseLayerAtlas(page)` for half-float layers), shelf-packed; all their draws go
//   in one pass, each instance shifted from its device pixels to its layer's region (`CompositeInstance.
//   shiftX/Y`), scissored to the region;
// - the filter rounds: the layers' filter passes (`FilterPassList`) scheduled as early as their inputs allow,
//   each round one pass into its own atlas (`filterAtlas(round, page)`);
// - then the frame pass, where each hoisted layer's composite reads its final image from its region.
// Layers nested in layers, and those past `hoistedTexelBudget`, are drawn in order.
// Paint layers: a layer whose content is only solid `.normal` unclipped draws, in a BGRA8 page, is drawn from
// baked-paint coverage (baked colour × coverage, `atlas_blit`, which llvmpipe runs on its 8-bit linear
// rasterizer) instead of the composite programs' R8 coverage × colour; and the layers are packed tallest
// first, since each page is cleared whole (figures: docs/performance.md).

extension CompositeGather {
    /// Most layer-atlas texels one frame hoists (2²⁴: 64 MiB of RGBA8); later layers are drawn in order.
    static let hoistedTexelBudget = 1 << 24

    /// A hoisted layer: where its content and its filter images live.
    struct HoistedLayer {
        /// The index of its `popLayer` in the frame's ops.
        var end: Int
        var composite: LayerComposite
        var layer: FilterImageLocation
        var passes: FilterPassList
        /// Its content is only solid `.normal` unclipped draws into a page of bytes: it is drawn from
        /// baked-paint coverage (`GatheredFrame.paintLayers`) instead of through the composite programs.
        var paint = false
        /// Per pass: its round and its place in that round's atlas.
        var placements: [(round: Int, page: Int, region: PixelRect)] = []

        func location(_ input: FilterPassSpec.Input) -> FilterImageLocation {
            guard case .pass(let j) = input else { return layer }
            let p = placements[j]
            return FilterImageLocation(ref: .filterAtlas(round: p.round, page: p.page), box: passes.passes[j].box,
                                       texel: SIMD2(Int32(p.region.x), Int32(p.region.y)))
        }
    }

    /// A top-level layer whose content is draws only: its push and pop ops.
    private typealias Candidate = (start: Int, end: Int, box: PixelRect, precise: Bool, composite: LayerComposite)

    /// Finds the hoistable layers and lays out their atlases and filter rounds.
    func layoutHoisting() {
        let found = hoistableLayers()
        guard !found.isEmpty else { return }
        packLayers(found)
        scheduleFilterRounds()
    }

    /// The frame's top-level layers whose content is draws only.
    private func hoistableLayers() -> [Candidate] {
        let ops = frame.ops
        var found: [Candidate] = []
        var i = 0
        while i < ops.count {
            guard case .pushLayer(let box, let precise) = ops[i] else { i += 1; continue }
            var j = i + 1
            while j < ops.count, case .draw = ops[j] { j += 1 }
            if j < ops.count, case .popLayer(let c) = ops[j] {
                found.append((i, j, box, precise, c))
                i = j + 1
                continue
            }
            // A nested layer: skip the whole top-level layer.
            var depth = 0
            while i < ops.count {
                if case .pushLayer = ops[i] { depth += 1 }
                if case .popLayer = ops[i] { depth -= 1; if depth == 0 { break } }
                i += 1
            }
            i += 1
        }
        return found
    }

    /// The layers in layer atlases, one packer per format, as far as `hoistedTexelBudget` allows.
    private func packLayers(_ found: [Candidate]) {
        let ops = frame.ops
        let half = frameFormat != .rgba16f
        let widest = found.map(\.box.width).max() ?? 1
        let pageWidth = min(maxTextureSize, max(2048, widest))
        var packers: [Bool: ShelfPacker] = [false: ShelfPacker(width: pageWidth, maxHeight: maxTextureSize),
                                            true: ShelfPacker(width: pageWidth, maxHeight: maxTextureSize)]
        var pageIndex: [Bool: Int] = [false: 0, true: 0]
        var total = 0
        var accepted = 0
        for l in found {
            total += l.box.area
            guard total <= Self.hoistedTexelBudget, l.box.width <= pageWidth, l.box.height <= maxTextureSize else { break }
            accepted += 1
        }
        // Packed tallest first, so that shelves fill and the pages (cleared whole) stay small: S4-blur-layers'
        // twenty layers took 2048 × 1700 texels in draw order, 2048 × 800 sorted.
        let packingOrder = found.prefix(accepted).sorted {
            $0.box.height != $1.box.height ? $0.box.height > $1.box.height : $0.start < $1.start
        }
        for l in packingOrder {
            let precise = l.precise && half
            var slot = packers[precise]!.allocate(width: l.box.width, height: l.box.height)
            if slot == nil {
                out.layerAtlasPages.append((precise, pageIndex[precise]!, pageWidth, packers[precise]!.usedHeight))
                pageIndex[precise]! += 1
                packers[precise]!.reset()
                slot = packers[precise]!.allocate(width: l.box.width, height: l.box.height)
            }
            guard let s = slot else { break }
            let ref: TextureRef = precise ? .preciseLayerAtlas(pageIndex[precise]!) : .layerAtlas(pageIndex[precise]!)
            let paint = !precise && frameFormat == .bgra8 && bakedPaintLayers
                && ops[(l.start + 1) ..< l.end].allSatisfy {
                    guard case .draw(let d) = $0, d.clip == nil, d.blend == .normal, case .solid = d.paint else { return false }
                    return true
                }
            hoisted[l.start] = HoistedLayer(end: l.end, composite: l.composite,
                                            layer: FilterImageLocation(ref: ref, box: l.box,
                                                                       texel: SIMD2(Int32(s.x), Int32(s.y))),
                                            passes: FilterPassList(l.composite.filter), paint: paint)
        }
        for precise in [false, true] where packers[precise]!.usedHeight > 0 {
            out.layerAtlasPages.append((precise, pageIndex[precise]!, pageWidth, packers[precise]!.usedHeight))
        }
    }

    /// The filter rounds: a pass runs one round after the latest of its inputs (the layer is round 0); each
    /// round's passes are packed into its own atlas pages.
    private func scheduleFilterRounds() {
        var rounds: [[(layer: Int, pass: Int)]] = []
        for start in hoisted.keys.sorted() {
            var roundOf: [Int] = []
            for (k, p) in hoisted[start]!.passes.passes.enumerated() {
                var r = 1
                for input in [p.source, p.second] { if case .pass(let j)? = input { r = max(r, roundOf[j] + 1) } }
                roundOf.append(r)
                while rounds.count < r { rounds.append([]) }
                rounds[r - 1].append((start, k))
            }
            hoisted[start]!.placements = roundOf.map { ($0, 0, PixelRect(x: 0, y: 0, width: 0, height: 0)) }
        }
        for (r, members) in rounds.enumerated() {
            let round = r + 1
            let widestPass = members.map { hoisted[$0.layer]!.passes.passes[$0.pass].box.width }.max() ?? 1
            let width = min(maxTextureSize, max(1024, widestPass))
            var packer = ShelfPacker(width: width, maxHeight: maxTextureSize)
            var page = 0
            for (start, k) in members {
                let box = hoisted[start]!.passes.passes[k].box
                var slot = packer.allocate(width: box.width, height: box.height)
                if slot == nil {
                    filterAtlasPages.append((round, page, width, packer.usedHeight))
                    page += 1
                    packer.reset()
                    slot = packer.allocate(width: box.width, height: box.height)
                }
                // A filter image is never wider or taller than the canvas plus the kernel's reach, which the
                // texture limit holds (the backend refuses larger frames).
                let s = slot ?? (0, 0, 0)
                hoisted[start]!.placements[k] = (round, page, PixelRect(x: s.x, y: s.y, width: box.width, height: box.height))
            }
            filterAtlasPages.append((round, page, width, packer.usedHeight))
        }
    }

    /// The page's paint layers: their draws for baked paint, each kept within its layer's box and moved to
    /// its region; drawn from their own coverage (`GatheredFrame.paintLayers`), not the composite programs'.
    private func gatherPaintLayers(_ starts: [Int]) {
        guard !starts.isEmpty else { return }
        var paths: [PreparedPath] = []
        var placements: [(shift: (Int, Int), clip: PixelRect)] = []
        for start in starts {
            let h = hoisted[start]!
            let shift = (Int(h.layer.texel.x) - h.layer.box.x, Int(h.layer.texel.y) - h.layer.box.y)
            for op in frame.ops[(start + 1) ..< h.end] {
                guard case .draw(let d) = op, let path = PreparedPath(solid: d) else { continue }
                paths.append(path)
                placements.append((shift, h.layer.box))
            }
        }
        guard !paths.isEmpty else { return }
        out.paintLayers.append((paths, placements))
        record(.paintLayers(out.paintLayers.count - 1))
    }

    /// Draws every hoisted layer's content into the layer atlases, then their filter rounds.
    func drawHoisted() {
        guard !hoisted.isEmpty else { return }
        let order = hoisted.keys.sorted()
        for page in out.layerAtlasPages {
            let ref: TextureRef = page.precise ? .preciseLayerAtlas(page.index) : .layerAtlas(page.index)
            let box = PixelRect(x: 0, y: 0, width: page.width, height: page.height)
            record(.push(CompositeTarget(ref: ref, box: box, clear: .transparent)))
            record(.declare(ref, TextureDesc(width: box.width, height: box.height,
                                             format: page.precise ? .rgba16f : frameFormat), atLeast: true))
            record(.openPass)
            gatherPaintLayers(order.filter { hoisted[$0]!.layer.ref == ref && hoisted[$0]!.paint })
            for start in order where hoisted[start]!.layer.ref == ref && !hoisted[start]!.paint {
                let h = hoisted[start]!
                let region = PixelRect(x: Int(h.layer.texel.x), y: Int(h.layer.texel.y), width: h.layer.box.width,
                                       height: h.layer.box.height)
                // A draw may reach past its layer's box; the scissor keeps it out of its neighbours.
                record(.scissor(region))
                record(.shift(region.x - h.layer.box.x, region.y - h.layer.box.y))
                for op in frame.ops[(start + 1) ..< h.end] { if case .draw(let d) = op { draw(d) } }
                record(.flush)
                record(.shift(0, 0))
            }
            record(.scissor(nil))
            record(.pop)
        }
        for page in filterAtlasPages {
            let ref = TextureRef.filterAtlas(round: page.round, page: page.page)
            let box = PixelRect(x: 0, y: 0, width: page.width, height: page.height)
            // Every region is written whole by its pass: the pass loads instead of clearing.
            record(.push(CompositeTarget(ref: ref, box: box, clear: .transparent, cleared: true)))
            record(.declare(ref, TextureDesc(width: box.width, height: box.height, format: .rgba16f), atLeast: true))
            for start in order {
                let h = hoisted[start]!
                for (k, spec) in h.passes.passes.enumerated() {
                    let p = h.placements[k]
                    guard p.round == page.round, p.page == page.page else { continue }
                    emitFilterPass(spec, source: h.location(spec.source), second: spec.second.map(h.location),
                                   shift: (p.region.x - spec.box.x, p.region.y - spec.box.y))
                }
            }
            record(.pop)
        }
    }
}
