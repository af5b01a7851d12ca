// The Vulkan-style command buffer the frame encoder writes and the executor replays.
//
// A frame is a list of render passes. A pass names its target texture, what happens to the target's old
// contents when the pass begins (load op: keep, or clear to a colour) and whether its results are kept
// (store op), then lists pipeline binds, uploads, texture binds and draws. Textures other than the frame
// are transient: they are named by `TextureRef` with a description (size, format), and the executor maps
// them onto pooled GL textures, so a frame never allocates GL objects once the pool is warm.
//
// Bytes to upload live in one staging arena owned by the command buffer (instance records and CPU coverage
// alike); an upload names a byte range of it. The arena keeps its capacity from frame to frame.
//
// The buffer prints as text (`canvas-gl render --dump-gpu`), e.g. two small fills with the raster atlas's R8
// coverage atlas (`--no-paint-atlas`):
//
// ```
// CommandBuffer: 1 pass, 1 draw call, 3 uploads (208 B), 2 instances, 68 covered pixels, 2 textures
//   texture frame 64×64 rgba8
//   texture atlas0 2048×12 r8
//   pass 0 → frame load: clear(0, 0, 0, 0) store: store
//     upload instances 80 B to instances+0 (2 atlasCover records) from staging[128..<208]
//     bind pipeline atlasCover (program atlas_cover, blend one, oneMinusSrcAlpha)
//     bind texture unit 0 atlas0
//     upload atlas0 rect(0, 0, 12, 4) r8 48 B from staging[0..<48]
//     upload atlas0 rect(0, 4, 10, 8) r8 80 B from staging[48..<128]
//     draw strip 4 vertices × 2 instances from instances+0 (atlasCover)
//   fence
//   readback frame 64×64 rgba8
// ```

/// A texture a command buffer uses.
enum TextureRef: Hashable, CustomStringConvertible {
    /// The frame's RGBA8 render target (what is read back).
    case frame
    /// A coverage atlas (raster-atlas strategy), or the float accumulation atlas (GPU tessellation).
    case atlas(Int)
    /// Gradient parameters and stops, one row per paint (RGBA32F).
    case paintData
    /// The layer open at nesting depth n (`drawLayer`, or a `clipToLayer` content), frame format.
    case layer(Int)
    /// The same for a layer that goes through colour filters: RGBA16F whatever the frame's format
    /// (`LoweredOp.pushLayer`'s `precise`).
    case preciseLayer(Int)
    /// Clip-mask page n (R8): every clip of the frame has a region of coverage in one page.
    case mask(Int)
    /// A clip shape's coverage while the masks of page n are multiplied (R8, the page's size).
    case clipCoverage(Int)
    /// A copy of the target's pixels under a draw, for shader blending without framebuffer fetch.
    case destinationCopy
    /// The same for a precise layer (RGBA16F: a copy keeps its source's format class).
    case preciseDestinationCopy
    /// The n-th distinct image the frame draws (RGBA8, premultiplied), uploaded at the frame's start.
    case image(Int)
    /// An image of a filter pass (RGBA16F): a blur's intermediate or a stage's output (`FilterPlanning`).
    case filterImage(Int)
    /// Page n of the layer atlas: regions holding the frame's hoisted top-level layers (frame format).
    case layerAtlas(Int)
    /// The same for hoisted layers that store half floats.
    case preciseLayerAtlas(Int)
    /// The images one round of the hoisted layers' filter passes writes (RGBA16F), a region each.
    case filterAtlas(round: Int, page: Int)

    var description: String {
        switch self {
        case .frame: return "frame"
        case .atlas(let i): return "atlas\(i)"
        case .paintData: return "paintData"
        case .layer(let i): return "layer\(i)"
        case .preciseLayer(let i): return "preciseLayer\(i)"
        case .preciseDestinationCopy: return "preciseDestinationCopy"
        case .mask(let i): return "mask\(i)"
        case .clipCoverage(let i): return "clipCoverage\(i)"
        case .destinationCopy: return "destinationCopy"
        case .image(let i): return "image\(i)"
        case .filterImage(let i): return "filterImage\(i)"
        case .layerAtlas(let i): return "layerAtlas\(i)"
        case .preciseLayerAtlas(let i): return "preciseLayerAtlas\(i)"
        case .filterAtlas(let r, let p): return "filterAtlas\(r).\(p)"
        }
    }
}

/// Texel formats the backend allocates.
enum TextureFormat: String, CustomStringConvertible {
    /// bgra8: B, G, R, A bytes in memory (GL_EXT_texture_format_BGRA8888), llvmpipe's native 8-bit layout.
    case rgba8, bgra8, r8, r16f, r32f, rgba32f, rgba16f

    var bytesPerTexel: Int {
        switch self {
        case .rgba8, .bgra8, .r32f: return 4
        case .rgba16f: return 8
        case .r8: return 1
        case .r16f: return 2
        case .rgba32f: return 16
        }
    }
    var description: String { rawValue }
}

struct TextureDesc: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int
    var format: TextureFormat
    var description: String { "\(width)×\(height) \(format)" }
}

/// A program together with its fixed-function state (blend) and vertex layout.
enum Pipeline: String, CaseIterable, CustomStringConvertible {
    /// Raster atlas: CPU coverage texels × instance colour, source-over into the frame.
    case atlasCover
    /// Raster atlas, baked paint: the atlas texels are premultiplied colour × coverage already (BGRA8);
    /// rectangles only, drawn as triangle fans (llvmpipe's linear path).
    case atlasBlit
    /// GPU tessellation: each segment adds its exact signed area into the float atlas (additive blend).
    case tessAccumulate
    /// GPU tessellation: fill rule on the accumulated area × instance colour, source-over into the frame.
    case tessCover
    /// The composite route: coverage (either kind) × clip × paint (colour, gradient, layer), source-over
    /// by fixed function.
    case composite
    /// The same, blended in the shader with any of the 28 modes, the destination read by framebuffer fetch.
    case compositeFetch
    /// The same, the destination read from a copy of the target (`destinationCopy`), for GPUs without fetch.
    case compositeCopy
    /// Multiplies a clip mask by a coverage or a layer's alpha (blend ZERO, SRC_COLOR).
    case maskMultiply
    /// Multiplies a clip mask by 1 − coverage (the `composite` program with blend ZERO, ONE_MINUS_SRC_ALPHA):
    /// an inverse clip shape.
    case maskErase
    /// One pass of a spatial filter (`filter.glsl`): blur sums, block averages, upsampling, a shadow's
    /// combine, a projection; blending off.
    case filter
    /// Mesh gradients' paint images (`mesh_paint.glsl`): each region's background rectangle, then its mesh's
    /// triangles, the patch's colour surface evaluated per fragment; blending off (later triangles replace).
    /// Indexed triangles over per-vertex records (`MeshVertex`, `drawIndexed`), not instances: llvmpipe's draw module runs its
    /// whole vertex pipeline once per instance, and a frame of meshes has ~10⁶ triangles.
    case meshPaint

    /// The file in `Sources/Shaders/programs` holding the program.
    var programName: String {
        switch self {
        case .atlasCover: return "atlas_cover"
        case .atlasBlit: return "atlas_blit"
        case .tessAccumulate: return "tess_accumulate"
        case .tessCover: return "tess_cover"
        case .composite: return "composite"
        case .compositeFetch: return "composite_fetch"
        case .compositeCopy: return "composite_copy"
        case .maskMultiply: return "mask_multiply"
        case .maskErase: return "composite"
        case .filter: return "filter"
        case .meshPaint: return "mesh_paint"
        }
    }

    enum Blend: Equatable, CustomStringConvertible {
        /// (ONE, ONE_MINUS_SRC_ALPHA): premultiplied source-over.
        case sourceOver
        /// (ONE, ONE): accumulation.
        case additive
        /// (ZERO, SRC_COLOR): the destination multiplied by the source.
        case multiply
        /// Blending off: the shader writes the final value.
        case replace
        /// (ZERO, ONE_MINUS_SRC_ALPHA): the destination × (1 − source alpha).
        case erase
        var description: String {
            switch self {
            case .sourceOver: return "one, oneMinusSrcAlpha"
            case .additive: return "one, one"
            case .multiply: return "zero, srcColor"
            case .replace: return "off"
            case .erase: return "zero, oneMinusSrcAlpha"
            }
        }
    }

    var blend: Blend {
        switch self {
        case .atlasCover, .atlasBlit, .tessCover, .composite: return .sourceOver
        case .tessAccumulate: return .additive
        case .compositeFetch, .compositeCopy, .filter, .meshPaint: return .replace
        case .maskMultiply: return .multiply
        case .maskErase: return .erase
        }
    }

    /// Bytes per instance record of the pipeline's vertex layout.
    var instanceStride: Int {
        switch self {
        case .atlasCover, .atlasBlit, .tessCover: return CoverInstance.stride
        case .tessAccumulate: return SegmentInstance.stride
        case .meshPaint: return MeshVertex.stride
        case .composite, .compositeFetch, .compositeCopy, .maskMultiply, .maskErase, .filter: return CompositeInstance.stride
        }
    }

    /// Vertex attribute locations the instance layout uses.
    var attributeCount: Int {
        switch self {
        case .tessAccumulate, .atlasBlit: return 2
        case .atlasCover, .tessCover: return 4
        case .meshPaint: return 2
        case .composite, .compositeFetch, .compositeCopy, .maskMultiply, .maskErase, .filter: return 7
        }
    }

    /// True when each instance is drawn as a 4-vertex triangle fan (a rectangle llvmpipe's setup can
    /// recognise), false for a 4-vertex strip (which may be a trapezoid).
    var drawsFans: Bool { self == .atlasBlit }

    /// True when the records are vertices of plain triangles (divisor 0, `draw`'s count is vertices), false for
    /// instances of a 4-vertex strip or fan.
    var drawsTriangles: Bool { self == .meshPaint }

    var description: String { rawValue }
}

/// One composited rectangle or trapezoid: 40 bytes, shared by `atlasCover` and `tessCover`.
///
/// A rectangle of device pixels (x, y, w, h), the atlas texel of its top-left corner (u, v), the fill rule
/// for `tessCover` (0 non-zero, 1 even-odd), for `atlasBlit` whether the atlas source is one row repeated
/// down the rectangle (`oneRow` 1: a solid interior's strip of full-coverage texels), the premultiplied
/// colour with opacity applied, and the insets of its left and right sides at its top and bottom edges in
/// 1/16 px (a trapezoid; all 0: the rectangle).
struct CoverInstance {
    static let stride = 40
    var x: Int16, y: Int16, w: Int16, h: Int16
    var u: Int16, v: Int16, rule: Int16, oneRow: Int16
    var r: Float, g: Float, b: Float, a: Float
    var leftTop: Int16, leftBottom: Int16, rightTop: Int16, rightBottom: Int16

    init(x: Int16, y: Int16, w: Int16, h: Int16, u: Int16, v: Int16, rule: Int16, oneRow: Bool = false,
         r: Float, g: Float, b: Float,
         a: Float, leftTop: Int16 = 0, leftBottom: Int16 = 0, rightTop: Int16 = 0, rightBottom: Int16 = 0) {
        self.x = x; self.y = y; self.w = w; self.h = h
        self.u = u; self.v = v; self.rule = rule; self.oneRow = oneRow ? 1 : 0
        self.r = r; self.g = g; self.b = b; self.a = a
        self.leftTop = leftTop; self.leftBottom = leftBottom; self.rightTop = rightTop; self.rightBottom = rightBottom
    }
}

/// One rectangle or trapezoid of the composite programs: 64 bytes.
///
/// The rectangle (device pixels, or mask-page texels when drawing into a clip mask); the atlas texel of its
/// top-left corner, the fill rule and where its coverage comes from (`CoverageSource`); the trapezoid insets
/// (1/16 px); the paint (`PaintSource`), its row in the paint data and the blend mode (raw value, for the
/// shader-blended programs); the clip: its device box (width 0: unclipped) and the mask-page texel of the box's
/// top-left corner; and a premultiplied colour that multiplies the paint (a solid colour × opacity, or opacity
/// in all four channels for gradients and layers).
struct CompositeInstance {
    static let stride = 64
    var x: Int16, y: Int16, w: Int16, h: Int16
    var u: Int16, v: Int16, rule: Int16, coverage: Int16
    var leftTop: Int16 = 0, leftBottom: Int16 = 0, rightTop: Int16 = 0, rightBottom: Int16 = 0
    /// `secondRow`: a filter pass's prefilter row (-1: none).
    var paint: Int16, paintRow: Int16, blendMode: Int16 = 0, secondRow: Int16 = 0
    var clipX: Int16 = 0, clipY: Int16 = 0, clipW: Int16 = 0, clipH: Int16 = 0
    /// `shiftX`, `shiftY`: where the instance lands in a shared target: device pixel p on texel p + shift − the
    /// pass origin (a hoisted layer's region of the layer atlas, a filter image's region of a round's atlas).
    var clipU: Int16 = 0, clipV: Int16 = 0, shiftX: Int16 = 0, shiftY: Int16 = 0
    var r: Float, g: Float, b: Float, a: Float

    /// How `coverage` is read (the shader's `COVERAGE_*` constants).
    enum CoverageSource: Int16 {
        /// The atlas texel is coverage with the rule applied (raster atlas).
        case atlas = 0
        /// The atlas texel is signed area; the rule is applied in the shader (GPU tessellation).
        case accumulated = 1
        /// Coverage 1 everywhere (a layer composite, a mask's quad).
        case full = 2
    }

    /// What the paint is (the shader's `PAINT_*` constants).
    enum PaintSource: Int16 {
        case solid = 0
        case gradient = 1
        /// The bound source texture (a layer), 1:1 at device pixels, transparent outside its rectangle.
        case source = 2
        /// The bound source texture's alpha in all four channels (a `clipToLayer` mask's content).
        case sourceAlpha = 3
        /// The bound source texture's red channel in all four (a clip shape's coverage).
        case sourceRed = 4
        /// The bound image, sampled with `image.glsl`'s rule; its parameters are the paint-data row.
        case image = 5
        /// The destination before the draw (a shader-blended program only: it reads the destination).
        case backdrop = 6
        /// The bound source texture (a layer) through the colour filter chain in the paint-data row
        /// (`color_filter.glsl`).
        case filteredSource = 7
        /// The bound source texture holds a blur's coarse result on a grid `paintRow` times coarser: it is
        /// interpolated bilinearly at the device pixel (`FilterFormulas.upsampled`).
        case upsampledSource = 8
    }
}

/// The per-draw-call state of the compositing programs: the textures their instances refer to.
struct CompositeState: Equatable, CustomStringConvertible {
    /// The clip-mask page the instances' clips live in (nil: none of them is clipped).
    var maskPage: TextureRef?
    /// The texture `PaintSource.source…` reads and the rectangle it covers (in the coordinates the
    /// instances are drawn in).
    var source: (ref: TextureRef, rect: PixelRect)?
    /// The image `PaintSource.image` samples.
    var image: TextureRef?
    /// A filter pass's second input (`u_source2`) and its rectangle.
    var second: (ref: TextureRef, rect: PixelRect)?
    /// The texels of `source` and `second` holding their rectangles' corners (a region of an atlas; 0: the
    /// texture holds the rectangle from its corner).
    var sourceTexel = SIMD2<Int32>.zero, secondTexel = SIMD2<Int32>.zero

    init(maskPage: TextureRef? = nil, source: (ref: TextureRef, rect: PixelRect)? = nil,
         second: (ref: TextureRef, rect: PixelRect)? = nil) {
        self.maskPage = maskPage
        self.source = source
        self.second = second
    }

    static func == (l: CompositeState, r: CompositeState) -> Bool {
        l.maskPage == r.maskPage && l.source?.ref == r.source?.ref && l.source?.rect == r.source?.rect
            && l.image == r.image && l.second?.ref == r.second?.ref && l.second?.rect == r.second?.rect
            && l.sourceTexel == r.sourceTexel && l.secondTexel == r.secondTexel
    }

    var description: String {
        var parts: [String] = []
        if let m = maskPage { parts.append("clip masks \(m)") }
        /// "source layer1 at 3,4 10×8", with " from texel 40,0" for an atlas region.
        func image(_ name: String, _ s: (ref: TextureRef, rect: PixelRect)?, _ texel: SIMD2<Int32>) {
            guard let s else { return }
            parts.append("\(name) \(s.ref) at \(s.rect.x),\(s.rect.y) \(s.rect.width)×\(s.rect.height)"
                + (texel == .zero ? "" : " from texel \(texel.x),\(texel.y)"))
        }
        image("source", source, sourceTexel)
        if let i = self.image { parts.append("image \(i)") }
        image("second", second, secondTexel)
        return parts.isEmpty ? "plain" : parts.joined(separator: ", ")
    }
}

/// One vertex of a mesh gradient's triangle for `meshPaint`: 24 bytes, three a triangle.
///
/// (x, y): texels of the mesh page (the device position moved to the mesh's region); (u, v): the patch
/// parameters there; `column`, `row`: the paint-data texel holding the patch's 16 power-basis colour
/// coefficients; `flags`: 1 the colours are Oklab, 2 the result is sRGB-encoded. A region's background is two
/// triangles of a constant surface (its straight sRGB-encoded colour as the only coefficient, flags 0).
struct MeshVertex {
    static let stride = 24
    var x: Float, y: Float, u: Float, v: Float
    var column: Int16, row: Int16, flags: Int16, reserved: Int16 = 0
}

/// One flattened segment for `tessAccumulate`: 24 bytes.
///
/// Endpoints in atlas texels, the limit the segment's quad extends to (the atlas piece's bottom edge for
/// area accumulation, its right edge for centre-sample winding) and the mode (0 area, 1 centre samples).
struct SegmentInstance {
    static let stride = 24
    var x0: Float, y0: Float, x1: Float, y1: Float
    var limit: Float
    var mode: Float
}

enum LoadOp: Equatable, CustomStringConvertible {
    case load
    case clear(RGBA)
    var description: String {
        switch self {
        case .load: return "load"
        case .clear(let c): return "clear(\(fmt(CGFloat(c.r))), \(fmt(CGFloat(c.g))), \(fmt(CGFloat(c.b))), \(fmt(CGFloat(c.a))))"
        }
    }
}

enum StoreOp: String, CustomStringConvertible {
    case store, dontCare
    var description: String { rawValue }
}

/// A rectangle in texels.
struct TexelRect: Equatable, CustomStringConvertible {
    var x: Int, y: Int, width: Int, height: Int
    var description: String { "rect(\(x), \(y), \(width), \(height))" }
}

/// A specialisation of a program: constants compiled in as `#define`s, so that the driver folds away the
/// branches an instance's kind would otherwise take per pixel (on llvmpipe every branch is paid for).
/// `ProgramLibrary` says when a variant gets its own program and when a general one draws it.
struct ShaderVariant: Hashable, CustomStringConvertible {
    /// `CompositeInstance.CoverageSource` raw value.
    var coverage: Int16?
    /// `CompositeInstance.PaintSource` raw value.
    var paint: Int16?
    /// The gradient's kind in its packed row (`gradient.glsl`): 0 linear, 1 concentric, 2 two-point, 3 conic…
    var gradientKind: Int16?
    /// `GraphicsContext.BlendMode` raw value, for the shader-blended programs.
    var blendMode: Int16?
    /// The gradient has at most four stops (one texel of locations, found without a loop).
    var fewStops = false
    /// The gradient's spread (0 pad, 1 repeat, 2 mirror) and whether it sRGB-encodes its result.
    var gradientSpread: Int16?
    var gradientEncodes = false
    /// The gradient's stops are Oklab (`Gradient.ColorSpace.perceptual`).
    var gradientOklab = false
    /// No instance of the draw call has a clip.
    var unclipped = false
    /// The image is nearest-sampled (its bilinear path compiled out).
    var imageNearest = false
    /// A filter pass (`filter.glsl`): its kind and constants.
    var filter: FilterPassVariant?
    /// `mesh_paint.glsl` reads a patch's coefficients per vertex into flat varyings (the device has the 18
    /// varying vectors it takes), not per fragment.
    var meshVertexFetch = false

    static let none = ShaderVariant()

    /// The variant of the general program that draws this one: what changes the structure of the work stays
    /// compiled in (the coverage and paint kind, a gradient's kind and whether its ≤ 4 stops come per vertex, a
    /// filter pass's kind and what it reads); what only changes constants does not (the blend mode, a
    /// gradient's spread and colour space, whether the draw is clipped, a filter's radius and block factor, a
    /// shadow's blend mode): those come from the instance, the paint row or a uniform, so that a new blend
    /// mode, spread or blur radius draws with a program that exists.
    var general: ShaderVariant {
        var g = ShaderVariant(coverage: coverage, paint: paint)
        g.gradientKind = gradientKind
        g.fewStops = fewStops
        g.meshVertexFetch = meshVertexFetch
        if var f = filter {
            f.constantsCompiledIn = false
            f.factor = 0
            f.radius = 0
            g.filter = f
        }
        return g
    }

    var defines: [(String, Int)] {
        var d: [(String, Int)] = []
        if let coverage { d.append(("COVERAGE_KIND", Int(coverage))) }
        if let paint { d.append(("PAINT_KIND", Int(paint))) }
        if let gradientKind { d.append(("GRADIENT_KIND", Int(gradientKind))) }
        if let blendMode { d.append(("BLEND_MODE", Int(blendMode))) }
        if fewStops { d.append(("GRADIENT_FEW_STOPS", 1)) }
        if let gradientSpread { d.append(("GRADIENT_SPREAD", Int(gradientSpread))) }
        if gradientEncodes { d.append(("GRADIENT_ENCODE", 1)) }
        if gradientOklab { d.append(("GRADIENT_OKLAB", 1)) }
        if unclipped { d.append(("COMPOSITE_UNCLIPPED", 1)) }
        if imageNearest { d.append(("IMAGE_NEAREST", 1)) }
        if meshVertexFetch { d.append(("MESH_VERTEX_FETCH", 1)) }
        if let f = filter {
            d += [("FILTER_PASS", f.pass), ("FILTER_FLAGS", f.flags), ("FILTER_READ", f.read), ("FILTER_SPACE", f.space),
                  ("SHADOW_MODE", f.shadowMode)]
            if f.constantsCompiledIn { d += [("FILTER_FACTOR", f.factor), ("FILTER_RADIUS", f.radius)] }
        }
        return d
    }

    var description: String { defines.isEmpty ? "" : " [" + defines.map { "\($0.0)=\($0.1)" }.joined(separator: " ") + "]" }
}

/// The constants of one filter pass (`filter.glsl`'s header says what each means).
struct FilterPassVariant: Hashable {
    var pass: Int
    var flags = 0
    var read = 0
    var space = 0
    var factor = 1
    var radius = 1
    var shadowMode = 0
    /// False in a general program: the factor, the radius and a shadow's blend mode are uniforms.
    var constantsCompiledIn = true

    static let prefilter = 1, opaque = 2, dither = 4, finish = 8, blurredShadow = 16
}

enum GPUCommand {
    case bindPipeline(Pipeline)
    /// A specialised program of a pipeline (`ShaderVariant`), built on first use.
    case bindVariant(Pipeline, ShaderVariant)
    /// Sets the compositing programs' per-draw-call uniforms and binds their clip and source textures.
    case setComposite(CompositeState)
    /// Copies the target's texels in `rect` (target texels) into `into` (`destinationCopy`, or
    /// `preciseDestinationCopy` for a precise layer) at the same place.
    case copyDestination(TexelRect, into: TextureRef)
    /// Restricts later draws of the pass to `rect` (target texels); nil lifts the restriction.
    case scissor(TexelRect?)
    case bindTexture(unit: Int, TextureRef)
    /// Copies `staging[range]` into the instance buffer at `bufferOffset`.
    case uploadInstances(range: Range<Int>, bufferOffset: Int, count: Int, pipeline: Pipeline)
    /// Copies texels from `staging` (rows of `rect.width` texels starting at `source`) into a texture.
    case uploadTexture(TextureRef, rect: TexelRect, format: TextureFormat, source: Int)
    /// Draws `instanceCount` instances of a 4-vertex triangle strip whose records start at `bufferOffset`
    /// of the instance buffer, laid out for `pipeline`; for a pipeline that `drawsTriangles`, `instanceCount`
    /// vertices of plain triangles.
    case draw(instanceCount: Int, bufferOffset: Int, pipeline: Pipeline)
    /// Draws `indexCount` indices (UInt32, three a triangle) from `staging[indices]` into the vertices whose
    /// records start at `bufferOffset` of the instance buffer, for a pipeline that `drawsTriangles`.
    case drawIndexed(indexCount: Int, indices: Range<Int>, bufferOffset: Int, pipeline: Pipeline)
}

struct RenderPass {
    var target: TextureRef
    /// The device pixel the target's texel (0, 0) shows (a layer's or mask's box origin; 0 for the frame).
    var originX = 0, originY = 0
    var load: LoadOp
    /// Restricts the load op's clear (nil: the whole target).
    var clearRect: TexelRect?
    var store: StoreOp
    var commands: [GPUCommand] = []
}

/// A frame's GPU work, in order. See the note at the top of the file.
package struct CommandBuffer: CustomStringConvertible {
    var textures: [(ref: TextureRef, desc: TextureDesc)] = []
    /// Uploads run before the first pass: instance records and paint data every pass may read.
    var prologue: [GPUCommand] = []
    var passes: [RenderPass] = []
    /// Bytes every upload copies from.
    let staging = StagingArena()
    /// Instance buffer bytes the frame needs.
    var instanceBufferSize = 0
    /// True when the frame ends with a fence and a readback of `.frame`.
    var readsBack = true
    /// Device pixels the cover draws blend (the sum of their rectangles): the main GL cost on llvmpipe.
    var coveredPixels = 0
    /// Pieces of text piles (`RasterAtlasStrategy`, piled text composited on the CPU):
    /// how many, and the text pieces composited into them.
    var pilePieces = 0
    var pileTextPieces = 0
    /// The parts of this frame already replayed, as text, oldest first. A frame whose staging would grow
    /// past a strategy's budget is planned and replayed in parts (`FrameEncoding.submitPart`), so that its
    /// memory stays bounded however much it draws; the buffer then holds the last part.
    private(set) var submittedParts: [String] = []
    /// Draw calls of the replayed parts.
    private(set) var submittedDrawCallCount = 0
    /// True once a part of the frame has been replayed: the frame target already holds pixels, so the next
    /// pass on it loads them instead of clearing.
    var continuesFrame: Bool { !submittedParts.isEmpty }

    /// Empties the buffer for a new frame, keeping the staging arena's capacity.
    mutating func reset() {
        textures.removeAll(keepingCapacity: true)
        clearPart()
        submittedParts.removeAll()
        submittedDrawCallCount = 0
    }

    /// Empties the buffer for the next part of the same frame after the executor replayed it: its text is
    /// kept in `submittedParts`, its texture declarations stay (the frame target keeps its pixels), its
    /// passes, staging bytes and instance space are released.
    mutating func beginNextPart() {
        submittedParts.append(description)
        submittedDrawCallCount += drawCallCount
        clearPart()
    }

    private mutating func clearPart() {
        prologue.removeAll(keepingCapacity: true)
        passes.removeAll(keepingCapacity: true)
        staging.reset()
        instanceBufferSize = 0
        readsBack = true
        coveredPixels = 0
        pilePieces = 0
        pileTextPieces = 0
    }

    /// Draw calls of the whole frame, replayed parts included.
    package var frameDrawCallCount: Int { submittedDrawCallCount + drawCallCount }

    /// The whole frame as text: each replayed part, then this buffer.
    var frameDescription: String {
        guard continuesFrame else { return description }
        let n = submittedParts.count + 1
        return (submittedParts + [description]).enumerated().map {
            "part \($0.offset + 1) of \(n)\($0.offset + 1 < n ? " (replayed without readback)" : ""):\n" + $0.element
        }.joined(separator: "\n")
    }

    func desc(of ref: TextureRef) -> TextureDesc? { textures.first { $0.ref == ref }?.desc }

    mutating func declare(_ ref: TextureRef, _ desc: TextureDesc) {
        if let i = textures.firstIndex(where: { $0.ref == ref }) { textures[i].desc = desc } else { textures.append((ref, desc)) }
    }

    /// Reserves `count` zeroed staging bytes (aligned to 16) and returns where they start.
    mutating func reserveStaging(_ count: Int, zeroed: Bool = true) -> Int { staging.reserve(count, zeroed: zeroed) }

    /// Reserves instance-buffer space for `count` records of `pipeline` and returns its byte offset.
    mutating func reserveInstances(_ count: Int, pipeline: Pipeline) -> Int {
        let start = (instanceBufferSize + 15) & ~15
        instanceBufferSize = start + count * pipeline.instanceStride
        return start
    }

    // MARK: Counts

    var drawCallCount: Int {
        passes.reduce(0) { n, p in
            n + p.commands.reduce(0) {
                switch $1 {
                case .draw, .drawIndexed: return $0 + 1
                default: return $0
                }
            }
        }
    }
    var uploadCount: Int {
        passes.reduce(0) { n, p in n + Self.uploads(p.commands) } + Self.uploads(prologue)
    }
    private static func uploads(_ commands: [GPUCommand]) -> Int {
        commands.reduce(0) {
            switch $1 {
            case .uploadInstances, .uploadTexture: return $0 + 1
            default: return $0
            }
        }
    }
    /// Bytes copied to the GPU by all uploads.
    var uploadBytes: Int {
        passes.reduce(0) { n, p in n + Self.uploadBytes(p.commands) } + Self.uploadBytes(prologue)
    }
    private static func uploadBytes(_ commands: [GPUCommand]) -> Int {
        commands.reduce(0) {
            switch $1 {
            case .uploadInstances(let range, _, _, _): return $0 + range.count
            case .uploadTexture(_, let rect, let format, _): return $0 + rect.width * rect.height * format.bytesPerTexel
            case .drawIndexed(_, let indices, _, _): return $0 + indices.count
            default: return $0
            }
        }
    }
    var instanceCount: Int {
        passes.reduce(0) { n, p in
            n + p.commands.reduce(0) { if case .draw(let k, _, _) = $1 { return $0 + k }; return $0 }
        }
    }

    // MARK: Text

    package var description: String {
        func plural(_ n: Int, _ word: String) -> String {
            "\(n) \(word)\(n == 1 ? "" : word.hasSuffix("s") ? "es" : "s")"
        }
        var lines = ["CommandBuffer: \(plural(passes.count, "pass")), "
            + "\(plural(drawCallCount, "draw call")), \(plural(uploadCount, "upload")) (\(bytes(uploadBytes))), "
            + "\(plural(instanceCount, "instance")), \(plural(coveredPixels, "covered pixel")), \(plural(textures.count, "texture"))"]
        if pilePieces > 0 {
            lines.append("  text piles composited on the CPU: \(plural(pilePieces, "piece")) from \(plural(pileTextPieces, "text piece"))")
        }
        for t in textures { lines.append("  texture \(t.ref) \(t.desc)") }
        if !prologue.isEmpty { lines.append("  prologue") }
        for c in prologue { lines.append("    " + Self.text(c)) }
        for (i, pass) in passes.enumerated() {
            var head = "  pass \(i) → \(pass.target) load: \(pass.load)"
            if pass.originX != 0 || pass.originY != 0 { head += " origin (\(pass.originX), \(pass.originY))" }
            if let r = pass.clearRect { head += " in \(r)" }
            lines.append(head + " store: \(pass.store)")
            for c in pass.commands { lines.append("    " + Self.text(c)) }
        }
        if readsBack {
            lines.append("  fence")
            if let d = desc(of: .frame) { lines.append("  readback frame \(d)") }
        }
        return lines.joined(separator: "\n")
    }

    /// One command as a line of `description`.
    private static func text(_ c: GPUCommand) -> String {
        switch c {
        case .bindPipeline(let p):
            return "bind pipeline \(p) (program \(p.programName), blend \(p.blend))"
        case .bindVariant(let p, let v):
            return "bind pipeline \(p) (program \(p.programName)\(v), blend \(p.blend))"
        case .bindTexture(let unit, let t):
            return "bind texture unit \(unit) \(t)"
        case .setComposite(let state):
            return "set composite \(state)"
        case .copyDestination(let r, let into):
            return into == .destinationCopy ? "copy destination \(r)" : "copy destination \(r) into \(into)"
        case .scissor(let r):
            return r.map { "scissor \($0)" } ?? "scissor off"
        case .uploadInstances(let range, let offset, let count, let p):
            return "upload instances \(bytes(range.count)) to instances+\(offset) (\(count) \(p) records) from staging[\(range.lowerBound)..<\(range.upperBound)]"
        case .uploadTexture(let t, let rect, let format, let source):
            let n = rect.width * rect.height * format.bytesPerTexel
            return "upload \(t) \(rect) \(format) \(bytes(n)) from staging[\(source)..<\(source + n)]"
        case .drawIndexed(let n, let indices, let offset, let p):
            return "draw triangles \(n) indices (\(bytes(indices.count)) from staging[\(indices.lowerBound)..<\(indices.upperBound)]) into vertices from instances+\(offset) (\(p))"
        case .draw(let n, let offset, let p) where p.drawsTriangles:
            return "draw triangles \(n) vertices from instances+\(offset) (\(p))"
        case .draw(let n, let offset, let p):
            return "draw \(p.drawsFans ? "fan" : "strip") 4 vertices × \(n) instance\(n == 1 ? "" : "s") from instances+\(offset) (\(p))"
        }
    }
}

/// The staging bytes of a command buffer: one growable block whose capacity outlives frames. Regions are
/// 16-byte aligned and zeroed when reserved (a memset, fast in debug builds too, unlike appending to an
/// array). Reserve everything a step needs before writing through `base`: growing moves the block.
final class StagingArena {
    private(set) var base: UnsafeMutableRawPointer
    private(set) var capacity = 0
    private(set) var count = 0

    init() { base = UnsafeMutableRawPointer.allocate(byteCount: 16, alignment: 16) }
    deinit { base.deallocate() }

    var isEmpty: Bool { count == 0 }

    func reset() { count = 0 }

    /// Reserves `n` bytes, zeroed unless `zeroed` is false (the caller then owns every byte it lets be read,
    /// uploads included), and returns their offset.
    func reserve(_ n: Int, zeroed: Bool = true) -> Int {
        let start = (count + 15) & ~15
        let end = start + n
        if end > capacity { grow(to: max(end, capacity * 2, 64 * 1024)) }
        (base + count).initializeMemory(as: UInt8.self, repeating: 0, count: zeroed ? end - count : start - count)
        count = end
        return start
    }

    /// Makes room, in one step, for `n` more bytes to be reserved as up to `regions` regions (each may add up
    /// to 15 bytes of alignment). A step
    /// about to reserve many regions calls this first: growing region by region copies what is already
    /// reserved at every doubling, and on a frame's first use those copies fault in about twice the block's
    /// pages (S2-strokes' 33 MiB of atlas shelves: 8 000 faults and a 32 MiB copy of bytes not yet written).
    func reserveCapacity(adding n: Int, regions: Int = 1) {
        let needed = ((count + 15) & ~15) + n + 15 * regions
        if needed > capacity { grow(to: needed) }
    }

    private func grow(to newCapacity: Int) {
        let p = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        if count > 0 { p.copyMemory(from: base, byteCount: count) }
        base.deallocate()
        base = p
        capacity = newCapacity
    }
}

/// "9.9 KiB", "512 B", "3.2 MiB".
private func bytes(_ n: Int) -> String {
    if n < 1024 { return "\(n) B" }
    if n < 1024 * 1024 { return String(format: "%.1f KiB", Double(n) / 1024) }
    return String(format: "%.1f MiB", Double(n) / 1024 / 1024)
}
