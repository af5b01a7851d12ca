// The coverage phase's contract: shapes in, coverage in an atlas out.
//
// A path strategy (`RasterAtlasStrategy` on the CPU, `TessellationStrategy` on the GPU) is handed the shapes
// the gather phase listed (`PreparedPath`) and the output form the emit phase chose (`CoverageOutput`), and
// returns a `CoverageSet`: rectangles (bands) of each shape's coverage, placed in atlas batches, plus what makes
// the atlas hold each batch (texture uploads, or an accumulation pass). It issues no draws into any target:
// drawing the bands is the emit phase's (`CoverEmitter`, `CompositeEmitter`).

/// How paths become coverage on a device (docs/ARCHITECTURE.md, "Coverage").
///
/// `GLESOptions(pathStrategy: .gpuTessellation)` forces the GPU route even on llvmpipe.
public enum PathStrategyKind: String, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    /// Coverage computed on the CPU into an atlas texture, composited by one instanced draw (llvmpipe's default).
    case rasterAtlas = "raster-atlas"
    /// Segments accumulate exact signed area into a float atlas on the GPU; a cover pass applies the fill
    /// rule.
    case gpuTessellation = "gpu-tessellation"

    public var description: String { rawValue }
}

/// A shape ready for a path strategy: device-space contours (or glyph placements) and the colour a baked-paint
/// atlas bakes in.
struct PreparedPath {
    var drawNumber: Int
    /// Index of the `Polygons` store holding the contours.
    var store: Int
    var contours: Range<Int>
    var edgeCount: Int
    var box: PixelRect
    var rule: CoverageRule
    var antialiased: Bool
    /// Premultiplied, opacity applied (white where only the coverage is wanted).
    var color: RGBA
    /// Whether the path can have interiors wide enough to draw as solid rectangles (`RasterAtlasStrategy`'s
    /// baked paint): every fill, and strokes at least `Lowering.solidStrokeWidth` device pixels wide.
    var mayHaveInteriors = true
    /// Text drawn from glyph masks: its placements in the store (`CoverageShape.glyphs`); contours are empty.
    var glyphs: Range<Int> = 0 ..< 0

    init(drawNumber: Int, store: Int, contours: Range<Int>, edgeCount: Int, box: PixelRect, rule: CoverageRule,
         antialiased: Bool, color: RGBA, mayHaveInteriors: Bool = true, glyphs: Range<Int> = 0 ..< 0) {
        self.drawNumber = drawNumber
        self.store = store
        self.contours = contours
        self.edgeCount = edgeCount
        self.box = box
        self.rule = rule
        self.antialiased = antialiased
        self.color = color
        self.mayHaveInteriors = mayHaveInteriors
        self.glyphs = glyphs
    }

    /// A lowered shape painted `color` (premultiplied, opacity applied).
    init(_ s: CoverageShape, color: RGBA, interiors: Bool = true) {
        self.init(drawNumber: s.drawNumber, store: s.store, contours: s.contours, edgeCount: s.edgeCount, box: s.box,
                  rule: s.rule, antialiased: s.antialiased, color: color,
                  mayHaveInteriors: interiors && s.mayHaveInteriors, glyphs: s.glyphs)
    }

    /// A lowered draw of a solid colour, its opacity applied; nil for any other paint.
    init?(solid d: LoweredDraw) {
        guard case .solid(let c) = d.paint else { return nil }
        let o = d.opacity
        self.init(d.shape, color: RGBA(r: c.r * o, g: c.g * o, b: c.b * o, a: c.a * o))
    }
}

/// The form the emit phase asks coverage in.
enum CoverageOutput: Equatable {
    /// Coverage 0…1 in `format` texels (the raster atlas), or signed area in R32F (GPU tessellation: the fill
    /// rule is applied when sampled).
    case coverage(TextureFormat)
    /// Baked paint: premultiplied BGRA8 colour × coverage of each shape's `color`, bands as plain
    /// rectangles and solid interiors as one-row strips, the shape llvmpipe's linear rasterizer takes
    /// (GLESBackend.swift). `pilesOver`: the colour the whole target holds under the shapes, when it is
    /// opaque or transparent; piled-up text is then composited on the CPU into tiles (`RasterAtlasStrategy`).
    case bakedPaint(textPilesOver: RGBA?)
}

/// A path strategy: shapes → coverage in atlas batches.
protocol PathStrategy: AnyObject {
    var kind: PathStrategyKind { get }
    /// The strategy offers `CoverageOutput.paint` (the raster atlas on a software rasterizer).
    var offersBakedPaint: Bool { get }
    /// The texel format of its plain coverage (the raster atlas's R8, R16F or R32F; GPU tessellation's R32F).
    var coverageFormat: TextureFormat { get }
    /// The strategy draws text from glyph placements (`PreparedPath.glyphs`) with coverage masks of its own, so
    /// the lowering may hand it placements instead of contours.
    var drawsGlyphMasks: Bool { get }
    /// Cuts the frame's `paths` into parts whose coverage is staged one at a time, so that memory stays
    /// bounded however much a frame draws (one part when `splits` is false); returns the number of parts.
    func beginFrame(_ paths: [PreparedPath], output: CoverageOutput, splits: Bool) -> Int
    /// The coverage of part `part` of the frame `beginFrame` cut, in `output`'s form, staged in `cb` for the
    /// atlas texture `atlas`.
    func coverage(part: Int, _ paths: [PreparedPath], stores: [Polygons], output: CoverageOutput, atlas: TextureRef,
                  into cb: inout CommandBuffer) -> CoverageSet
}

extension PathStrategy {
    /// All of `paths`' coverage at once (the composite route stages the whole frame).
    func coverage(_ paths: [PreparedPath], stores: [Polygons], output: CoverageOutput, atlas: TextureRef = .atlas(0),
                  into cb: inout CommandBuffer) -> CoverageSet {
        _ = beginFrame(paths, output: output, splits: false)
        return coverage(part: 0, paths, stores: stores, output: output, atlas: atlas, into: &cb)
    }
}

/// One rectangle (or trapezoid) of a shape's coverage in the atlas: device pixels, the atlas texel of its
/// top-left corner, the fill rule (for accumulated coverage), the atlas batch it lives in, the insets of a
/// trapezoid band's sides in 1/16 px, and whether it repeats one atlas row (a solid interior's strip).
struct CoverBand {
    var x: Int16, y: Int16, w: Int16, h: Int16
    var u: Int16, v: Int16, rule: Int16, batch: Int16
    var leftTop: Int16 = 0, leftBottom: Int16 = 0, rightTop: Int16 = 0, rightBottom: Int16 = 0
    var oneRow: Int16 = 0

    /// Pixels it covers (a trapezoid's area, rounded).
    var area: Int {
        BandShape(rect: PixelRect(x: Int(x), y: Int(y), width: Int(w), height: Int(h)),
                  insets: (leftTop, leftBottom, rightTop, rightBottom)).area
    }
}

/// What makes the atlas hold one batch's coverage: texture uploads (raster atlas) or an accumulation pass
/// (GPU tessellation). Batches are used in order; each overwrites the atlas.
struct CoverageBatch {
    var uploads: [GPUCommand] = []
    var pass: RenderPass?
}

/// A path strategy's coverage of a frame's shapes.
struct CoverageSet {
    enum Kind {
        /// Coverage 0…1 with the fill rule applied (raster atlas), or colour × coverage (its baked paint).
        case coverage
        /// Signed area (GPU tessellation): the fill rule is applied when sampled.
        case accumulated
    }
    var kind: Kind
    var atlasFormat: TextureFormat
    /// In draw order, batch by batch.
    var bands: [CoverBand] = []
    /// The shape each band belongs to (by index into the shapes given); −1 for a piece of a text pile (baked paint), which
    /// holds finished colour.
    var bandShape: [Int] = []
    /// The bands of each shape, in batch order.
    var shapeBands: [Range<Int>] = []
    var batches: [CoverageBatch] = []

    init(kind: Kind, atlasFormat: TextureFormat, shapes: Int) {
        self.kind = kind
        self.atlasFormat = atlasFormat
        shapeBands = [Range<Int>](repeating: 0 ..< 0, count: shapes)
    }

    mutating func append(_ band: CoverBand, shape: Int) {
        let i = bands.count
        bands.append(band)
        bandShape.append(shape)
        guard shape >= 0 else { return }
        let r = shapeBands[shape]
        shapeBands[shape] = r.isEmpty ? i ..< i + 1 : r.lowerBound ..< i + 1
    }
}

/// One atlas-sized piece of a path's pixel box.
struct AtlasPiece {
    var path: Int  // index into the prepared paths
    var rect: PixelRect  // device pixels
    var atlasX = 0, atlasY = 0
}

/// Every path's box cut, row by row, into pieces of at most `maxPiece`.
func cutPieces(_ paths: [PreparedPath], maxPiece: (width: Int, height: Int), into pieces: inout [AtlasPiece]) {
    pieces.removeAll(keepingCapacity: true)
    for (i, p) in paths.enumerated() {
        var y = p.box.y
        while y < p.box.y + p.box.height {
            let h = min(maxPiece.height, p.box.y + p.box.height - y)
            var x = p.box.x
            while x < p.box.x + p.box.width {
                let w = min(maxPiece.width, p.box.x + p.box.width - x)
                pieces.append(AtlasPiece(path: i, rect: PixelRect(x: x, y: y, width: w, height: h)))
                x += w
            }
            y += h
        }
    }
}

/// Pieces grouped into batches that each fit one atlas.
struct AtlasLayout {
    var pieces: [AtlasPiece] = []
    /// Per batch: its pieces and the atlas rows it uses.
    var batches: [(pieces: Range<Int>, usedHeight: Int)] = []

    /// Cuts and packs `paths` in order into `width × maxHeight` atlases.
    init(paths: [PreparedPath], width: Int, maxHeight: Int, maxPiece: (Int, Int)) {
        cutPieces(paths, maxPiece: maxPiece, into: &pieces)
        var packer = ShelfPacker(width: width, maxHeight: maxHeight)
        var batchStart = 0
        for i in pieces.indices {
            let r = pieces[i].rect
            var slot = packer.allocate(width: r.width, height: r.height)
            if slot == nil {
                batches.append((batchStart ..< i, packer.usedHeight))
                batchStart = i
                packer.reset()
                slot = packer.allocate(width: r.width, height: r.height)
            }
            let s = slot!  // a fresh atlas always holds a piece: maxPiece ≤ the atlas size
            pieces[i].atlasX = s.x
            pieces[i].atlasY = s.y
        }
        if pieces.count > batchStart { batches.append((batchStart ..< pieces.count, packer.usedHeight)) }
    }
}

/// Shelf packing: rectangles go left to right on shelves; a shelf is reused by rectangles at most a quarter
/// (plus 4 rows) shorter than it, so little height is wasted, and a new shelf opens below the last.
/// `tight`: at most an eighth (plus 3 rows) shorter, for atlases that upload only each shelf's used part
/// (the raster atlas: fewer bytes uploaded and a lower atlas; docs/performance.md).
struct ShelfPacker {
    let width: Int
    let maxHeight: Int
    let tight: Bool
    /// The shelves so far, top to bottom: first row, rows, columns used from the left.
    private(set) var shelves: [(y: Int, height: Int, used: Int)] = []
    private(set) var usedHeight = 0

    init(width: Int, maxHeight: Int, tight: Bool = false) {
        self.width = width
        self.maxHeight = maxHeight
        self.tight = tight
    }

    mutating func reset() {
        shelves.removeAll(keepingCapacity: true)
        usedHeight = 0
    }

    /// A `w × h` slot: its top-left texel and the index of its shelf; nil when the atlas is full.
    mutating func allocate(width w: Int, height h: Int) -> (x: Int, y: Int, shelf: Int)? {
        guard w <= width, h <= maxHeight else { return nil }
        for i in shelves.indices.reversed() {
            let s = shelves[i]
            let slack = tight ? h / 8 + 3 : h / 4 + 4
            if s.height >= h && s.height <= h + slack && s.used + w <= width {
                shelves[i].used += w
                return (s.used, s.y, i)
            }
        }
        let sh = min(maxHeight, (h + 3) & ~3)
        guard usedHeight + sh <= maxHeight else { return nil }
        shelves.append((usedHeight, sh, w))
        usedHeight += sh
        return (0, usedHeight - sh, shelves.count - 1)
    }
}

/// Calls `body(x0, y0, x1, y1)` for every edge of contours `range` of `polys`, closing edges included
/// (horizontal ones too).
@inline(__always)
func forEachPreparedEdge(_ polys: Polygons, contours range: Range<Int>, _ body: (Double, Double, Double, Double) -> Void) {
    polys.points.withUnsafeBufferPointer { pts in
        for c in range {
            let r = polys.contourRange(c)
            guard r.count >= 2 else { continue }
            var prev = pts[r.upperBound - 1]
            for i in r {
                let p = pts[i]
                body(prev.x, prev.y, p.x, p.y)
                prev = p
            }
        }
    }
}
