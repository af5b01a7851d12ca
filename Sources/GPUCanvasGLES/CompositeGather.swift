// The composite route's gather phase: a `LoweredFrame` with clips, layers, gradients or blend modes → a
// `GatheredFrame`.
//
// Design note. The gather walks the frame once, in the order the GPU must draw it, and decides everything that
// depends on the frame's content: which shapes need coverage (`shapes`, in the order their bands will be
// drawn, so the coverage phase's atlas batches are met in order), which paint-data rows and images the
// instances read, and the steps the emit phase turns into render passes (`CompositeStep`). It issues no GPU
// command. The walk, in order:
// - clip masks (ClipMasks.swift): every clip stack of the frame gets a region in an R8 mask page, built at the
//   start of the frame in a few passes for all clips at once, so that a clip per draw costs one pass in all;
// - hoisted layers (LayerHoisting.swift): the frame's top-level layers drawn before the frame, together, into
//   layer atlases, and their filters in rounds;
// - the frame's ops: draws, and per open `drawLayer` a layer texture sized to the layer's box; popping a layer
//   composites it (through its filters, FilterPasses.swift) into its parent as one more draw.
// Blending: `.normal` by fixed function; every other mode in the shader, the destination read through
// framebuffer fetch or, where the driver lacks it, from a copy of the target under each draw (the emit phase
// makes the copies).

/// A texture the composite route draws into, and what it shows.
struct CompositeTarget {
    var ref: TextureRef
    /// The device pixels it shows (a mask page's: the page itself, from 0).
    var box: PixelRect
    /// What its first pass clears to.
    var clear: RGBA
    var cleared = false
}

/// One instance per band of a shape's coverage, with what every one of them carries.
struct BandsStep {
    var shape: Int
    /// Added to the bands' device pixels (a clip's region in its mask page).
    var offset: (Int, Int)
    var paint: CompositeInstance.PaintSource
    var row: Int
    var color: SIMD4<Float>
    var blend: GraphicsContext.BlendMode
    var clip: ClipPlacement?
    var pipeline: Pipeline
    var state: CompositeState
}

/// Where a clipped instance finds its clip: the clip's device box and the mask-page texel of its top-left corner.
struct ClipPlacement {
    var box: PixelRect
    var u: Int, v: Int

    func set(on i: inout CompositeInstance) {
        i.clipX = Int16(box.x); i.clipY = Int16(box.y); i.clipW = Int16(box.width); i.clipH = Int16(box.height)
        i.clipU = Int16(u); i.clipV = Int16(v)
    }
}

/// One step of a gathered frame, in the order the emit phase takes them.
enum CompositeStep {
    /// Draw into this target from now on; its pass opens with the next instance, or `openPass`.
    case push(CompositeTarget)
    case pop
    /// Opens a pass on the current target (the first clears it).
    case openPass
    /// Restricts the current pass's draws to a region (nil: lifts it).
    case scissor(PixelRect?)
    /// Makes a texture at least (or exactly) this size.
    case declare(TextureRef, TextureDesc, atLeast: Bool)
    /// Added to every instance from now on: a hoisted layer's device pixels → its region of the layer atlas.
    case shift(Int, Int)
    /// One instance; with `copyBox`, on the destination-copy route, the target's pixels under it are copied first.
    case instance(CompositeInstance, Pipeline, CompositeState, variant: ShaderVariant?, copyBox: PixelRect?)
    case bands(BandsStep)
    /// Ends the draw call being gathered.
    case flush
    /// A layer-atlas page's paint layers, drawn from their baked-paint coverage (`GatheredFrame.paintLayers`).
    case paintLayers(Int)
    /// A mesh page's triangles and background rectangles (`GatheredFrame.meshPages`), into the current target.
    case meshPaint(Int)
}

/// A shared texture of mesh gradients' paint images, drawn by `mesh_paint.glsl` before anything samples it.
struct MeshPage {
    var slot: Int
    var width: Int, height: Int
    var vertices: [MeshVertex] = []
    /// Three a triangle, into `vertices`.
    var indices: [UInt32] = []
}

/// What the gather phase hands on: the steps, the shapes whose coverage they draw, and the data they read.
struct GatheredFrame {
    var steps: [CompositeStep] = []
    /// Shapes drawn through the composite programs, in the order their bands are drawn.
    var shapes: [PreparedPath] = []
    /// Per layer-atlas page with paint layers: their draws in baked paint, each kept within its layer's box
    /// and moved to its region (`LayerHoisting.swift`).
    var paintLayers: [(paths: [PreparedPath], placements: [(shift: (Int, Int), clip: PixelRect)])] = []
    /// Paint-data rows (gradients, images, filter parameters), one texture row each, and each row's header.
    var paintRows: [[SIMD4<Float>]] = []
    var gradientHeaders: [SIMD4<Float>] = []
    /// The frame's distinct images, each uploaded once into `.image(slot)` (a mesh page's slot holds a 0 × 0
    /// placeholder: the GPU draws that texture).
    var images: [RasterImage] = []
    var meshPages: [MeshPage] = []
    var maskPages: [(width: Int, height: Int)] = []
    var maskFormat = TextureFormat.r8
    var layerAtlasPages: [(precise: Bool, index: Int, width: Int, height: Int)] = []
    /// The frame has a layer of half floats in a frame of bytes (a colour-filtered layer).
    var usesPreciseLayers = false
}

final class CompositeGather {
    /// Most clip-mask texels one frame may hold (R8: 256 MiB). Clip masks are built for the whole frame at its
    /// start, so their area adds up; a frame beyond this is refused with an error rather than exhausting memory.
    static let maskTexelBudget = 1 << 28

    let frame: LoweredFrame
    let frameFormat: TextureFormat
    let maxTextureSize: Int
    /// Hoisted layers may be drawn in baked paint (the strategy offers it).
    let bakedPaintLayers: Bool
    var out = GatheredFrame()

    /// Layers open now (0: drawing into the frame); layer textures are numbered by it.
    var depth = 0
    /// The textures of the `drawLayer` layers open now.
    private var openLayers: [TextureRef] = []
    /// Where each clip's mask lives: page, and the page texel of its box's top-left corner.
    var maskRegions: [Int: (page: Int, u: Int, v: Int)] = [:]
    /// Clips in an order where every clip used inside a `clipToLayer` content comes before the clip holding it.
    var clipOrder: [Int] = []
    /// The frame's hoisted layers by the index of their `pushLayer` op (`LayerHoisting.swift`).
    var hoisted: [Int: HoistedLayer] = [:]
    var filterAtlasPages: [(round: Int, page: Int, width: Int, height: Int)] = []
    /// The row already holding each set of texels (by bit pattern, so −0 and NaN payloads stay apart): a frame of
    /// 20 000 draws of one gradient uploads one row, not 20 000 (the texture's height is a GL limit).
    private var rowOfTexels: [[SIMD4<UInt32>]: Int] = [:]
    private var imageSlots: [ObjectIdentifier: Int] = [:]
    private var route: BlendRoute

    /// Gathers `frame` (after the clear colour's fold) for a target of `frameFormat`.
    init(_ frame: LoweredFrame, frameFormat: TextureFormat, route: BlendRoute, maxTextureSize: Int,
         bakedPaintLayers: Bool) throws {
        self.frame = frame
        self.frameFormat = frameFormat
        self.route = route
        self.maxTextureSize = maxTextureSize
        self.bakedPaintLayers = bakedPaintLayers
        out.maskFormat = frame.colorMode == .nonLinear ? .r8 : .r16f
        try layoutMasks()
        layoutHoisting()
        buildMasks()
        drawHoisted()
        record(.openPass)  // the frame is cleared even when nothing draws
        walkFrame()
        record(.flush)
        finishSharedImages()
        // Paint rows are addressed by 16-bit instance fields and stored one per texture row.
        let rowLimit = min(maxTextureSize, Int(Int16.max))
        if out.paintRows.count > rowLimit {
            throw RenderError.unsupported("the frame needs \(out.paintRows.count) distinct gradient, image, mesh gradient and filter parameter rows; GLES holds at most \(rowLimit) per frame (draw fewer distinct gradients, images or meshes per frame)")
        }
    }

    func record(_ step: CompositeStep) { out.steps.append(step) }

    // MARK: Walking the ops

    /// The frame's ops: a hoisted layer's content is already drawn, and its composite reads its images.
    private func walkFrame() {
        var i = 0
        let ops = frame.ops
        while i < ops.count {
            if let h = hoisted[i] {
                compositeFiltered(h.composite, passes: h.passes, location: h.location)
                i = h.end + 1
                continue
            }
            walk(ops[i])
            i += 1
        }
    }

    func walk(_ op: LoweredOp) {
        switch op {
        case .draw(let d): draw(d)
        case .pushLayer(let box, let precise): pushLayer(box, precise: precise)
        case .popLayer(let c): popLayer(c)
        }
    }

    func draw(_ d: LoweredDraw) {
        let shape = takeShape(d.shape)
        var paint = CompositeInstance.PaintSource.backdrop
        var color = SIMD4<Float>(repeating: d.opacity)
        var row = 0
        var state = CompositeState(maskPage: maskPage(d.clip), source: nil)
        switch d.paint {
        case .solid(let c):
            paint = .solid
            color = SIMD4(c.r, c.g, c.b, c.a) * d.opacity
        case .gradient(let g):
            paint = .gradient
            let texels = g.packedTexels()
            row = addRow(texels, header: texels[0])
        case .image(let i) where i.packable && placeInSharedImage(i) != nil:
            paint = .image
            let (slot, x, y) = placeInSharedImage(i)!
            row = addRow(i.packedTexels(at: x, y) + [SIMD4<Float>](repeating: .zero, count: 1), header: .zero)
            state.image = .image(slot)
        case .image(let i):
            paint = .image
            row = addRow(i.packedTexels + [SIMD4<Float>](repeating: .zero, count: 1), header: .zero)
            if imageSlots[i.identity] == nil {
                imageSlots[i.identity] = out.images.count
                out.images.append(i.pixels)
            }
            state.image = .image(imageSlots[i.identity]!)
        case .backdrop:
            break
        }
        // The backdrop is the destination: only the shader-blended programs read it, in any blend mode.
        let p = paint == .backdrop ? (route == .framebufferFetch ? Pipeline.compositeFetch : .compositeCopy)
            : pipeline(for: d.blend)
        record(.bands(BandsStep(shape: shape, offset: (0, 0), paint: paint, row: row, color: color, blend: d.blend,
                                clip: clipPlacement(d.clip), pipeline: p, state: state)))
    }

    private func pushLayer(_ box: PixelRect, precise: Bool) {
        depth += 1
        // A half-float frame's layers are precise already.
        let half = precise && frameFormat != .rgba16f
        let ref: TextureRef = half ? .preciseLayer(depth) : .layer(depth)
        if half { out.usesPreciseLayers = true }
        openLayers.append(ref)
        record(.push(CompositeTarget(ref: ref, box: box, clear: .transparent)))
        record(.declare(ref, TextureDesc(width: box.width, height: box.height, format: half ? .rgba16f : frameFormat),
                        atLeast: true))
        record(.openPass)
    }

    private func popLayer(_ c: LayerComposite) {
        record(.pop)
        let layer = openLayers.removeLast()
        depth -= 1
        let list = FilterPassList(c.filter)
        let layerImage = FilterImageLocation(ref: layer, box: c.layerBox)
        let outputs = emitImmediately(list, layer: layerImage)
        compositeFiltered(c, passes: list) { input in
            if case .pass(let j) = input { return outputs[j] }
            return layerImage
        }
    }

    /// Composites a layer's final image (through the colour steps after its last stage) into the current
    /// target; a separately composited shadow, then its source; a coarse blur result, interpolated.
    func compositeFiltered(_ c: LayerComposite, passes list: FilterPassList,
                           location: (FilterPassSpec.Input) -> FilterImageLocation) {
        let f = c.filter
        let source = location(list.final)
        if let shadowBlend = f.separateShadowBlend, let last = f.stages.last {
            // `disablesGroup`: the shadow alone, then the stage's input through its prefilter.
            compositeLayer(source, color: [], blend: shadowBlend, c)
            compositeLayer(location(list.lastInput), color: last.prefilter, blend: c.blend, c)
        } else if f.upsampledByComposite, case .blur(let plan)? = f.stages.last?.kind {
            compositeLayer(source, color: [], blend: c.blend, c, upsampleFactor: plan.factor)
        } else {
            compositeLayer(source, color: f.finalColor, blend: c.blend, c)
        }
    }

    /// One composite of `source` (through the colour steps `color`) into the current target over the
    /// composite's box, × its opacity, through its clip.
    /// `upsampleFactor`: the source is a blur's coarse result, interpolated up by that factor.
    private func compositeLayer(_ source: FilterImageLocation, color: [ColorFilterStep],
                                blend: GraphicsContext.BlendMode, _ c: LayerComposite, upsampleFactor: Int = 1) {
        let row = color.isEmpty ? 0 : paintRow(ColorFilterFormulas.packedTexels(color))
        let paint: CompositeInstance.PaintSource = upsampleFactor > 1 ? .upsampledSource
            : color.isEmpty ? .source : .filteredSource
        var instance = full(c.box, paint: paint, color: SIMD4(repeating: c.opacity))
        instance.paintRow = upsampleFactor > 1 ? Int16(upsampleFactor) : Self.rowField(row)
        instance.blendMode = Int16(blend.rawValue)
        clipPlacement(c.clip)?.set(on: &instance)
        var state = CompositeState(maskPage: maskPage(c.clip), source: (source.ref, source.box))
        state.sourceTexel = source.texel
        record(.instance(instance, pipeline(for: blend), state, variant: nil, copyBox: c.box))
    }

    // MARK: Shared images

    /// Packable images (mesh gradients' paint images, each used by one draw) placed in shared textures by
    /// shelf packing, so that a frame of many meshes draws a few textures and batches its draws instead of a
    /// texture and a draw call each. A mesh paint's region is drawn by the GPU (`mesh_paint.glsl`, all of a
    /// page's meshes in one pass at the frame's start); any other packable image's pixels are copied in.
    private struct SharedImage {
        var slot: Int
        var mesh: Bool
        var width: Int
        var parts: [(image: RasterImage, x: Int, y: Int)] = []
        var meshes: [(paint: MeshPaint, x: Int, y: Int)] = []
        var shelfX = 0, shelfY = 0, shelfHeight = 0
        var height: Int { shelfY + shelfHeight }
    }
    private var sharedImages: [SharedImage] = []
    private var sharedPlacement: [ObjectIdentifier: (slot: Int, x: Int, y: Int)] = [:]

    /// A shared texture's width (texels).
    var sharedImageWidth: Int { min(maxTextureSize, 2048) }

    /// Where `i` sits in a shared texture (placing it on first sight); nil when it is wider than one. A mesh
    /// paint wider than a shared texture gets one of its own width (its box lies in the target, which a
    /// texture can hold): it has no pixels to upload instead.
    private func placeInSharedImage(_ i: LoweredImage) -> (slot: Int, x: Int, y: Int)? {
        if let p = sharedPlacement[i.identity] { return p }
        let w = i.width, h = i.height, mesh = i.mesh != nil
        let width = mesh ? max(sharedImageWidth, w) : sharedImageWidth
        guard w <= width, mesh || h <= maxTextureSize else { return nil }
        var k = sharedImages.lastIndex { $0.mesh == mesh && $0.width == width }
        if k == nil || !fits(w, h, sharedImages[k!]) {
            sharedImages.append(SharedImage(slot: out.images.count, mesh: mesh, width: width))
            out.images.append(RasterImage(width: 0, height: 0))  // filled in by `finishSharedImages`
            k = sharedImages.count - 1
        }
        var s = sharedImages[k!]
        if s.shelfX + w > s.width { (s.shelfX, s.shelfY, s.shelfHeight) = (0, s.shelfY + s.shelfHeight, 0) }
        let p = (slot: s.slot, x: s.shelfX, y: s.shelfY)
        if let m = i.mesh { s.meshes.append((m, p.x, p.y)) } else { s.parts.append((i.pixels, p.x, p.y)) }
        s.shelfX += w
        s.shelfHeight = max(s.shelfHeight, h)
        sharedImages[k!] = s
        sharedPlacement[i.identity] = p
        return p
    }

    private func fits(_ w: Int, _ h: Int, _ s: SharedImage) -> Bool {
        let y = s.shelfX + w <= s.width ? s.shelfY : s.shelfY + s.shelfHeight
        return y + h <= maxTextureSize
    }

    /// Copies each shared texture's parts into its pixels; lists each mesh page's triangles and puts its pass
    /// first in the frame (before any step that may sample it).
    private func finishSharedImages() {
        var meshSteps: [CompositeStep] = []
        for s in sharedImages {
            if s.mesh {
                let width = s.meshes.map { $0.x + $0.paint.box.width }.max() ?? 1
                var page = MeshPage(slot: s.slot, width: width, height: s.height)
                let triangles = s.meshes.reduce(0) { $0 + $1.paint.triangles.count + 2 }
                page.vertices.reserveCapacity(triangles + triangles / 4)
                page.indices.reserveCapacity(3 * triangles)
                for m in s.meshes { meshVertices(m.paint, at: m.x, m.y, into: &page) }
                out.meshPages.append(page)
                meshSteps += [.push(CompositeTarget(ref: .image(s.slot), box: PixelRect(x: 0, y: 0, width: width, height: s.height),
                                                    clear: .transparent)),
                              .openPass, .meshPaint(out.meshPages.count - 1), .pop]
                continue
            }
            let width = s.parts.map { $0.x + $0.image.width }.max() ?? 1
            var pixels = [UInt8](repeating: 0, count: width * s.height * 4)
            pixels.withUnsafeMutableBytes { dst in
                for part in s.parts {
                    let rowBytes = part.image.width * 4
                    part.image.pixels.withUnsafeBytes { src in
                        for r in 0 ..< part.image.height {
                            dst.baseAddress!.advanced(by: ((part.y + r) * width + part.x) * 4)
                                .copyMemory(from: src.baseAddress!.advanced(by: r * rowBytes), byteCount: rowBytes)
                        }
                    }
                }
            }
            out.images[s.slot] = RasterImage(width: width, height: s.height, pixels: pixels)
        }
        out.steps.insert(contentsOf: meshSteps, at: 0)
    }

    /// Patches' colour coefficients a paint-data row holds (16 texels each).
    static let patchesPerRow = 16

    /// The triangles drawing mesh paint `m` into the region at texel (x, y) of its page: the background
    /// rectangle (none when transparent: the page is cleared to it), then the mesh's triangles in the lowering's
    /// order; the patches' coefficients (and the background's constant surface) go into paint-data rows.
    private func meshVertices(_ m: MeshPaint, at x: Int, _ y: Int, into page: inout MeshPage) {
        let flags = Int16((m.perceptual ? 1 : 0) | (m.perceptual || m.colorMode != .nonLinear ? 2 : 0))
        var surfaces = m.coefficients
        if m.background.w > 0 { surfaces.append([m.background] + [SIMD4<Float>](repeating: .zero, count: 15)) }
        var texel: [(column: Int16, row: Int16)] = []
        texel.reserveCapacity(surfaces.count)
        for start in stride(from: 0, to: surfaces.count, by: Self.patchesPerRow) {
            let end = min(start + Self.patchesPerRow, surfaces.count)
            let row = paintRow(Array(surfaces[start ..< end].joined()))
            for k in 0 ..< end - start { texel.append((Int16(16 * k), Self.rowField(row))) }
        }
        // Vertices shared by neighbouring triangles are written once: each corner is looked up among the
        // last few written (a grid's cells come in rows, so a cell's left corners are its neighbour's right
        // ones), by their bits, so a shared vertex is exactly the one the reference's triangles have.
        var recent = [Int](repeating: -1, count: 8), next = 0
        func add(_ v: MeshVertex) {
            for k in recent where k >= 0 {
                let w = page.vertices[k]
                if w.x.bitPattern == v.x.bitPattern, w.y.bitPattern == v.y.bitPattern, w.u.bitPattern == v.u.bitPattern,
                   w.v.bitPattern == v.v.bitPattern, w.column == v.column, w.row == v.row, w.flags == v.flags {
                    page.indices.append(UInt32(k))
                    return
                }
            }
            recent[next] = page.vertices.count
            next = (next + 1) % recent.count
            page.indices.append(UInt32(page.vertices.count))
            page.vertices.append(v)
        }
        if m.background.w > 0 {
            let c = texel[surfaces.count - 1]
            let x0 = Float(x), y0 = Float(y), x1 = Float(x + m.box.width), y1 = Float(y + m.box.height)
            for (px, py) in [(x0, y0), (x1, y0), (x0, y1), (x1, y0), (x1, y1), (x0, y1)] {
                add(MeshVertex(x: px, y: py, u: 0, v: 0, column: c.column, row: c.row, flags: 0))
            }
        }
        // Device pixel p → page texel p − box origin + (x, y).
        let dx = Double(x - m.box.x), dy = Double(y - m.box.y)
        for t in m.triangles {
            let area = (t.p1.x - t.p0.x) * (t.p2.y - t.p0.y) - (t.p2.x - t.p0.x) * (t.p1.y - t.p0.y)
            guard area != 0, area.isFinite else { continue }  // as the reference: no pixel centre is inside
            let c = texel[t.patch]
            func vertex(_ p: SIMD2<Double>, _ uv: SIMD2<Double>) -> MeshVertex {
                MeshVertex(x: Float(p.x + dx), y: Float(p.y + dy), u: Float(uv.x), v: Float(uv.y), column: c.column,
                           row: c.row, flags: flags)
            }
            add(vertex(t.p0, t.t0))
            add(vertex(t.p1, t.t1))
            add(vertex(t.p2, t.t2))
        }
    }

    // MARK: Shapes, rows, clips

    /// Lists a shape for the coverage phase; its index there.
    func takeShape(_ s: CoverageShape) -> Int {
        out.shapes.append(PreparedPath(s, color: RGBA(r: 1, g: 1, b: 1, a: 1), interiors: false))
        return out.shapes.count - 1
    }

    /// A paint-data row holding `texels`.
    func paintRow(_ texels: [SIMD4<Float>]) -> Int { addRow(texels, header: .zero) }

    /// A row index in an instance's 16-bit field. Rows are gathered before the frame's row count is checked
    /// against the limit (`gather`), so an index past Int16.max exists only in a frame that check refuses:
    /// it is clamped here rather than trapping first (nine 256 × 256 meshes of distinct colours did).
    static func rowField(_ row: Int) -> Int16 { Int16(clamping: row) }

    /// The row holding `texels` (a new one, or the earlier row with the same bits).
    private func addRow(_ texels: [SIMD4<Float>], header: SIMD4<Float>) -> Int {
        let key = (texels + [header]).map { SIMD4($0.x.bitPattern, $0.y.bitPattern, $0.z.bitPattern, $0.w.bitPattern) }
        if let row = rowOfTexels[key] { return row }
        out.paintRows.append(texels)
        out.gradientHeaders.append(header)
        rowOfTexels[key] = out.paintRows.count - 1
        return out.paintRows.count - 1
    }

    func maskPage(_ clip: Int?) -> TextureRef? { clip.map { .mask(maskRegions[$0]!.page) } }

    func clipPlacement(_ clip: Int?) -> ClipPlacement? {
        guard let k = clip, let box = frame.clips[k].box, let r = maskRegions[k] else { return nil }
        return ClipPlacement(box: box, u: r.u, v: r.v)
    }

    /// A rectangle of full coverage.
    func full(_ r: PixelRect, paint: CompositeInstance.PaintSource, color: SIMD4<Float>) -> CompositeInstance {
        CompositeInstance(x: Int16(r.x), y: Int16(r.y), w: Int16(r.width), h: Int16(r.height), u: 0, v: 0, rule: 0,
                          coverage: CompositeInstance.CoverageSource.full.rawValue, paint: paint.rawValue,
                          paintRow: 0, r: color.x, g: color.y, b: color.z, a: color.w)
    }

    func pipeline(for blend: GraphicsContext.BlendMode) -> Pipeline {
        if blend == .normal { return .composite }
        return route == .framebufferFetch ? .compositeFetch : .compositeCopy
    }
}
