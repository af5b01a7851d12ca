// The cover draws of the emit phase: a coverage set's bands drawn by the cover programs (`atlas_blit` for the
// baked paint, `atlas_cover` for R8/R16F/R32F coverage, `tess_cover` for accumulated area), straight into a
// target with source-over: one instance per band in its shape's colour, one draw call per atlas batch. The
// direct route draws a frame of plain solid draws this way, and the composite route a layer-atlas page's
// paint layers.

enum CoverEmitter {
    /// The cover program that draws `set`'s bands.
    static func pipeline(for set: CoverageSet) -> Pipeline {
        if set.kind == .accumulated { return .tessCover }
        return set.atlasFormat == .bgra8 ? .atlasBlit : .atlasCover
    }

    /// Draws `set`: its instance records are uploaded in the command buffer's prologue; per batch the atlas is
    /// loaded (an accumulation pass, or uploads) and one draw call draws the batch's bands into the pass
    /// `openPass` gives. `placements`: per shape, its rectangles are kept within `clip` and moved by `shift`.
    static func emit(_ set: CoverageSet, paths: [PreparedPath], atlas: TextureRef,
                     placements: [(shift: (Int, Int), clip: PixelRect)]? = nil,
                     into cb: inout CommandBuffer, openPass: (inout CommandBuffer) -> Int) {
        guard !set.bands.isEmpty else { return }
        let pipeline = pipeline(for: set)
        let count = set.bands.count
        let bytes = count * CoverInstance.stride
        let start = cb.reserveStaging(bytes)
        let offset = cb.reserveInstances(count, pipeline: pipeline)
        let records = (cb.staging.base + start).bindMemory(to: CoverInstance.self, capacity: count)
        for (i, band) in set.bands.enumerated() {
            let shape = set.bandShape[i]
            // A piece of a text pile (shape −1) holds finished colour.
            let c = shape >= 0 ? paths[shape].color : RGBA(r: 1, g: 1, b: 1, a: 1)
            cb.coveredPixels += band.area
            records[i] = CoverInstance(x: band.x, y: band.y, w: band.w, h: band.h, u: band.u, v: band.v,
                                       rule: band.rule, oneRow: band.oneRow != 0, r: c.r, g: c.g, b: c.b, a: c.a,
                                       leftTop: band.leftTop, leftBottom: band.leftBottom, rightTop: band.rightTop,
                                       rightBottom: band.rightBottom)
            if let placements, shape >= 0 {
                place(&records[i], within: placements[shape].clip, shift: placements[shape].shift)
            }
        }
        cb.prologue.append(.uploadInstances(range: start ..< start + bytes, bufferOffset: offset, count: count,
                                            pipeline: pipeline))
        var boundPass = -1, first = 0
        for (b, batch) in set.batches.enumerated() {
            var end = first
            while end < count, Int(set.bands[end].batch) == b { end += 1 }
            if let pass = batch.pass { cb.passes.append(pass) }
            let p = openPass(&cb)
            if p != boundPass {
                cb.passes[p].commands.append(.bindPipeline(pipeline))
                cb.passes[p].commands.append(.bindTexture(unit: 0, atlas))
                boundPass = p
            }
            cb.passes[p].commands.append(contentsOf: batch.uploads)
            if end > first {
                cb.passes[p].commands.append(.draw(instanceCount: end - first,
                                                   bufferOffset: offset + first * CoverInstance.stride,
                                                   pipeline: pipeline))
            }
            first = end
        }
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
}

extension CommandBuffer {
    /// The index of a pass on `target` that commands may be appended to: the last pass when it targets it, else
    /// a new one (the frame's first pass, in the frame's first part, clears it to `clear`).
    mutating func pass(on target: TextureRef, clearing clear: RGBA) -> Int {
        if let last = passes.last, last.target == target { return passes.count - 1 }
        let first = target == .frame && !continuesFrame && !passes.contains { $0.target == .frame }
        passes.append(RenderPass(target: target, load: first ? .clear(clear) : .load, clearRect: nil, store: .store))
        return passes.count - 1
    }
}
