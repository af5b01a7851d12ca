// Lowering: a `Recording` (a layer tree in user space) → a `LoweredFrame` (device-space operations), shared
// by both backends.
//
// Design note. Everything that decides *what* a frame draws happens here, once, so that the GLES backend and
// the CPU reference accept and reject the same recordings with the same words, and draw the same geometry:
// - validation: non-finite transforms, path points, stroke numbers, colours, gradient numbers and opacities
//   are errors naming the draw (`invalid geometry: draw #N: …`); opacity is clamped to 0…1 (so ±∞ are 0 and
//   1, NaN is an error); features neither backend draws yet are `not supported yet: …`;
// - leniency (`DiagnosticsPolicy.lenient`, a renderer's default): what Core Graphics ignores is skipped with
//   a `RenderDiagnostic` in the strict error's words instead: a path element with a non-finite number is
//   dropped and the path goes on from the last valid point (CG ignores that call); any other invalid number
//   of a draw (transform, stroke numbers, opacity, paint, gradient, filter, text position), an unreadable image
//   or font skips the draw; one diagnostic per draw. A clip whose transform or mask opacity is invalid (or
//   whose path overflows) clips to nothing: drawing unclipped could show what the clip hid. A layer whose
//   opacity or filter numbers are invalid is skipped with its content. The frame's distinct images must fit
//   `RenderLimits.imageBytes` under either policy;
// - paint resolution: colours into the working space, gradients into device space (`GradientPaint`);
// - geometry: every draw's and every clip path's contours in device pixels (`Flatten.fill`,
//   `Stroker.outline`), on all cores, with their pixel boxes;
// - structure: the tree becomes a flat list of `LoweredOp`s (`draw`, `pushLayer`, `popLayer`), each clip
//   stack one `LoweredClip` shared by the draws issued under it, and each layer sized to its content ∩ its
//   clip ∩ the target.
// - whole clips: a draw whose clips are all axis-aligned device rectangles holding its pixel box is lowered
//   unclipped, since its coverage × 1 is its coverage (`clipIsWhole`); this is what makes a symbol's frame
//   clip, repeated on every replayed draw, cost nothing.
// What stays per backend is rasterization (coverage) and compositing: the reference keeps its own rasterizer,
// the GLES backend its path strategies, and both consume the same `Polygons`.
//
// Draw numbers (`#N`) count draws in the order the renderer closure issued them, `drawLayer` and
// `clipToLayer` contents included (`DrawCommand.drawNumber`).

import Dispatch
import Foundation

/// A frame ready for a backend: device-space geometry and operations in drawing order.
package struct LoweredFrame {
    package var target: RenderTarget
    package var colorMode: ColorRenderingMode
    package var isOpaque: Bool
    /// Device-space contours; `CoverageShape.store` indexes into it.
    package var stores: [Polygons]
    /// The root layer's operations.
    package var ops: [LoweredOp]
    /// Clip stacks, referenced by `LoweredDraw.clip` and `LayerComposite.clip`.
    package var clips: [LoweredClip]
    /// Glyph outlines the caches dropped while this frame was lowered, which its placements may still point
    /// at (`PlacedGlyph.outline`): held as long as the frame is.
    package var keepAlive: [CachedOutline] = []

    /// True when every op is a draw with a solid paint, `.normal` blending and no clip: what the GLES
    /// backend's direct route draws (docs/ARCHITECTURE.md, "Special paths").
    package var isSolidSourceOver: Bool {
        colorMode == .nonLinear && ops.allSatisfy {
            guard case .draw(let d) = $0, d.clip == nil, d.blend == .normal, case .solid = d.paint else { return false }
            return true
        }
    }
}

/// One step of a lowered frame.
package enum LoweredOp {
    /// Paint × coverage of a shape, blended into the current layer.
    case draw(LoweredDraw)
    /// Starts a transparent layer covering `box` (device pixels); later ops draw into it. A `precise` layer
    /// stores half floats whatever the colour mode: it goes through colour filters, which work on
    /// unpremultiplied colour, and 8 bits of premultiplied colour at an anti-aliased edge (alpha 3/255) hold
    /// that colour to a third of its range.
    case pushLayer(box: PixelRect, precise: Bool)
    /// Composites the innermost open layer into its parent and closes it.
    case popLayer(LayerComposite)
}

/// A device-space shape: contours, fill rule and the pixels it can touch.
package struct CoverageShape {
    /// The draw it belongs to (for messages).
    package var drawNumber: Int
    /// Index of the `Polygons` store holding the contours.
    package var store: Int
    package var contours: Range<Int>
    package var edgeCount: Int
    /// Whole pixels the area can touch, ∩ the target. Never empty.
    package var box: PixelRect
    package var rule: CoverageRule
    package var antialiased: Bool
    /// Whether the shape can have interiors wide enough to draw as solid rectangles: every fill, and strokes at
    /// least `Lowering.solidStrokeWidth` device pixels wide.
    package var mayHaveInteriors: Bool
    /// Text kept as glyph placements (`Polygons.placedGlyphs` of the store) instead of contours, which are then
    /// empty: only when the lowering was asked for them (`Lowering.lower(_:target:placesGlyphs:)`).
    package var glyphs: Range<Int> = 0 ..< 0
    /// For a fill whose one contour is an axis-aligned rectangle in device space: that rectangle, inside which
    /// the coverage is exactly 1 (a clip by it changes nothing there). nil for any other shape.
    package var solidRect: DeviceRect?
}

/// A draw: coverage of `shape` × `paint` × `opacity`, blended with `blend`, inside `clip`.
package struct LoweredDraw {
    package var drawNumber: Int
    package var shape: CoverageShape
    package var paint: LoweredPaint
    /// 0…1.
    package var opacity: Float
    package var blend: GraphicsContext.BlendMode
    /// Index into `LoweredFrame.clips`; nil: unclipped.
    package var clip: Int?
    /// The pixels the draw can change: the shape's box ∩ the clip's box. Never empty.
    package var box: PixelRect
}

/// What a draw paints, resolved in the working space.
package enum LoweredPaint {
    /// Premultiplied.
    case solid(RGBA)
    /// Evaluated per pixel centre; premultiplied result.
    case gradient(GradientPaint)
    /// Sampled per pixel centre.
    case image(LoweredImage)
    /// The destination pixel before the draw.
    case backdrop
}

/// How a layer is composited into its parent when it closes.
package struct LayerComposite {
    package var opacity: Float
    package var blend: GraphicsContext.BlendMode
    package var clip: Int?
    /// The layer's own box (as pushed).
    package var layerBox: PixelRect
    /// The filters the layer's pixels go through before they are composited (`FilterPlanning`); empty for
    /// none.
    package var filter = LoweredFilter()
    /// The parent pixels the composite can change: the layer's box for blend modes that leave the destination
    /// alone where the source is transparent; the whole clip region for those that do not (`.copy` erases the
    /// clip region outside the layer's content, as a filtered draw does in SwiftUI).
    package var box: PixelRect
}

/// A clip stack: the product of its entries' coverages.
package struct LoweredClip {
    package enum Entry {
        /// Coverage of the shape (1 − it when `inverse`).
        case shape(CoverageShape?, inverse: Bool)
        /// `clipToLayer`: alpha of the content × opacity (1 − that when `inverse`). `box` bounds the content.
        case mask(ops: [LoweredOp], box: PixelRect?, opacity: Float, inverse: Bool)
    }
    package var entries: [Entry]
    /// Outside it the clip is zero; ∩ the target. nil: the clip is empty everywhere.
    package var box: PixelRect?
}

extension GraphicsContext.BlendMode {
    /// True when blending a transparent source leaves the destination as it is (source-over and the W3C modes,
    /// `sourceAtop`, `destinationOver`, `destinationOut`, `xor`, `plusLighter`); false for the modes that clear
    /// or replace it (`clear`, `copy`, `sourceIn`, `sourceOut`, `destinationIn`, `destinationAtop`,
    /// `plusDarker`).
    package var keepsDestinationUnderTransparentSource: Bool {
        switch self {
        case .clear, .copy, .sourceIn, .sourceOut, .destinationIn, .destinationAtop, .plusDarker: return false
        default: return true
        }
    }
}

extension PixelRect {
    /// The intersection, nil when empty.
    package func intersection(_ o: PixelRect) -> PixelRect? {
        let x0 = max(x, o.x), y0 = max(y, o.y)
        let x1 = min(x + width, o.x + o.width), y1 = min(y + height, o.y + o.height)
        guard x1 > x0, y1 > y0 else { return nil }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both.
    package func union(_ o: PixelRect) -> PixelRect {
        let x0 = min(x, o.x), y0 = min(y, o.y)
        let x1 = max(x + width, o.x + o.width), y1 = max(y + height, o.y + o.height)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// Lowers recordings; keeps its geometry stores between frames (one per renderer).
package final class Lowering {
    /// What the lowering lets through to the backends. A renderer gets `.drawnByBothBackends`: the features
    /// both backends draw, so that they accept and reject the same recordings. Features still being built on
    /// one backend are left out of it, and tests of the other backend ask for them by name.
    package struct Features: OptionSet {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let clipsAndLayers = Features(rawValue: 1)
        package static let drawnByBothBackends: Features = [.clipsAndLayers]
        package static let all: Features = [.clipsAndLayers]
    }
    package let features: Features
    package init(features: Features = .drawnByBothBackends) { self.features = features }

    /// Worker threads for flattening and stroking: the machine's cores, at most 8.
    package let workers = max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
    /// Below this many path elements per frame, threads cost more than they save.
    package static let parallelThreshold = 4096

    /// Narrower strokes are not searched for solid interiors: a stroke's interior is at most its width
    /// across, and a band's interior pays only from `RasterAtlasStrategy.solidMinArea` (512) pixels, so
    /// under ~16 px it never does, while looking for it costs the resolve and the band search (measured on
    /// S2-strokes, widths 1–12: +15 % resolve and +50 % band-search samples for no solid at all).
    package static let solidStrokeWidth = 16.0

    /// A stroked path element costs about ten filled ones to prepare (offsetting, joins, caps, dashes):
    /// measured on S2-strokes, ~4.7 µs per element against ~0.5 µs per element of S1-fills' shapes. Counting
    /// stroke elements as one kept S2's 3000 elements under `parallelThreshold`, on one core (14 ms).
    package static let strokeElementCost = 10

    private var stores: [Polygons] = []
    /// One glyph polygon cache per store (worker), kept across frames.
    private var glyphCaches: [GlyphPolygonCache] = []

    /// The glyph polygon caches' size now.
    package var glyphCacheStatistics: GlyphCacheStatistics {
        glyphCaches.reduce(GlyphCacheStatistics()) {
            GlyphCacheStatistics(entries: $0.entries + $1.entryCount, points: $0.points + $1.pointCount,
                                 misses: $0.misses + $1.misses)
        }
    }

    /// Lowers `recording` for `target`. Throws `RenderError` for anything invalid or not drawable yet.
    ///
    /// `placesGlyphs`: upright text at cached sizes is lowered to glyph placements (`CoverageShape.glyphs`)
    /// rather than contours, for a backend that draws glyphs from coverage masks of its own (the GLES raster
    /// atlas in 8 bits); the glyphs' positions are the same either way.
    package func lower(_ recording: Recording, target: RenderTarget, placesGlyphs: Bool = false) throws -> LoweredFrame {
        var b = Builder(target: target, colorMode: recording.colorMode, features: features,
                        lenient: recording.lowering?.policy == .lenient,
                        imageBudget: recording.lowering?.limits.imageBytes)
        // Listed whether the frame lowers or not: what was skipped before an error still was.
        defer { recording.lowering?.log.replace(with: b.sortedDiagnostics) }
        try b.checkFrame(recording)
        let tree = b.collect(recording.root)
        try prepareShapes(&b, target: target, placesGlyphs: placesGlyphs)
        var clips: [LoweredClip] = []
        var clipIndex: [Int: Int] = [:]
        let ops = try b.assemble(tree, clips: &clips, clipIndex: &clipIndex)
        return LoweredFrame(target: target, colorMode: recording.colorMode, isOpaque: recording.isOpaque,
                            stores: stores, ops: ops, clips: clips,
                            keepAlive: glyphCaches.flatMap { $0.takeEvicted() })
    }

    /// Flattens or strokes every job of `b` into `stores`, on all cores when there is enough work.
    private func prepareShapes(_ b: inout Builder, target: RenderTarget, placesGlyphs: Bool) throws {
        let jobs = b.jobs
        var totalCost = 0
        for j in jobs { totalCost += j.cost }
        let ranges = totalCost >= Self.parallelThreshold
            ? balancedRanges(count: jobs.count, parts: workers) { jobs[$0].cost }
            : [0 ..< jobs.count]
        while stores.count < max(1, ranges.count) { stores.append(Polygons()) }
        if stores.count > max(1, ranges.count) { stores.removeLast(stores.count - max(1, ranges.count)) }
        for i in stores.indices { stores[i].loweringClear() }
        while glyphCaches.count < stores.count { glyphCaches.append(GlyphPolygonCache()) }
        let caches = glyphCaches

        var results = [CoverageShape?](repeating: nil, count: jobs.count)
        // Strict: each worker's first error (the frame fails at the lowest draw number among them). Lenient:
        // every job's, since each may be skipped alone.
        let lenient = b.lenient
        var errors = [(Int, RenderError)?](repeating: nil, count: jobs.count)
        stores.withUnsafeMutableBufferPointer { storeBuffer in
            results.withUnsafeMutableBufferPointer { resultBuffer in
                errors.withUnsafeMutableBufferPointer { errorBuffer in
                    let shared = UncheckedSendable((storeBuffer, resultBuffer, errorBuffer))
                    parallelForEach(ranges.count) { w in
                        let (s, r, e) = shared.value
                        for k in ranges[w] {
                            do {
                                r[k] = try Self.prepare(jobs[k], target: target, store: w, glyphs: caches[w],
                                                        placesGlyphs: placesGlyphs, into: &s[w])
                            } catch let error as RenderError {
                                e[k] = (jobs[k].drawNumber, error)
                                if !lenient { return }
                            } catch {
                                e[k] = (jobs[k].drawNumber, .invalidGeometry("draw #\(jobs[k].drawNumber): \(error)"))
                                if !lenient { return }
                            }
                        }
                    }
                }
            }
        }
        if lenient {
            // Skippable failures (coordinates that overflow to infinity) drop their job: a draw draws nothing,
            // a clip clips to nothing. Anything else fails the frame as under strict.
            for (k, failure) in errors.enumerated() {
                guard let (number, error) = failure else { continue }
                if b.skip(error, drawNumber: number) { b.failedJobs.insert(k) }
            }
            if let error = b.error { throw error }
        } else if let first = errors.compactMap({ $0 }).min(by: { $0.0 < $1.0 }) {
            throw first.1
        }
        b.shapes = results
    }

    /// One job → its device-space shape (nil when it covers no pixel of the target).
    private static func prepare(_ job: ShapeJob, target: RenderTarget, store: Int, glyphs: GlyphPolygonCache,
                                placesGlyphs: Bool, into polys: inout Polygons) throws -> CoverageShape? {
        let t = job.transform
        let firstContour = polys.contourCount
        let firstPoint = polys.points.count
        let rule: CoverageRule
        let antialiased: Bool
        var mayHaveInteriors = true
        switch job.geometry {
        case .fill(let path, let style):
            Flatten.fill(path, transform: t, into: &polys)
            rule = style.isEOFilled ? .evenOdd : .nonZero
            antialiased = style.isAntialiased
        case .stroke(let path, let style):
            do {
                polys.appendTranslated(try Stroker.outline(path, style: style, transform: t, visible: target.bounds), dx: 0, dy: 0)
            } catch {
                throw RenderError.invalidGeometry("draw #\(job.drawNumber): \(job.what)\(error)")
            }
            rule = .nonZero
            antialiased = true
            // The pen's device width where the transform squeezes it most.
            mayHaveInteriors = style.lineWidth * t.minScale >= solidStrokeWidth
        case .text(let text):
            let firstGlyph = polys.placedGlyphs.count
            if placesGlyphs,
               case .placed(let ink) = TextLowering.place(text, transform: t, visible: target.pixelRect, cache: glyphs,
                                                          into: &polys.placedGlyphs) {
                guard let ink, let box = ink.intersection(target.pixelRect) else { return nil }
                return CoverageShape(drawNumber: job.drawNumber, store: store, contours: firstContour ..< firstContour,
                                     edgeCount: polys.placedGlyphs.count - firstGlyph, box: box, rule: .nonZero,
                                     antialiased: true, mayHaveInteriors: false,
                                     glyphs: firstGlyph ..< polys.placedGlyphs.count)
            }
            TextLowering.append(text, transform: t, visible: target.pixelRect, cache: glyphs, into: &polys)
            rule = .nonZero
            antialiased = true
            // Glyph stems are narrow: interiors wide enough to pay for themselves are rare.
            mayHaveInteriors = false
        }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        polys.points.withUnsafeBufferPointer { pts in
            for i in firstPoint ..< pts.count {
                let p = pts[i]
                minX = min(minX, p.x); maxX = max(maxX, p.x)
                minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard polys.points.count > firstPoint else { return nil }
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else {
            throw RenderError.invalidGeometry("draw #\(job.drawNumber): \(job.what)device coordinates overflow to infinity under the transform")
        }
        let x0 = max(0, minX.rounded(.down)), y0 = max(0, minY.rounded(.down))
        let x1 = min(Double(target.width), maxX.rounded(.up)), y1 = min(Double(target.height), maxY.rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let box = PixelRect(x: Int(x0), y: Int(y0), width: Int(x1) - Int(x0), height: Int(y1) - Int(y0))
        var solidRect: DeviceRect?
        if case .fill = job.geometry, polys.contourCount - firstContour == 1, polys.points.count - firstPoint <= 5 {
            solidRect = DeviceRect(contour: polys.points[firstPoint...])
        }
        return CoverageShape(drawNumber: job.drawNumber, store: store, contours: firstContour ..< polys.contourCount,
                             edgeCount: polys.points.count - firstPoint, box: box, rule: rule,
                             antialiased: antialiased, mayHaveInteriors: mayHaveInteriors, solidRect: solidRect)
    }
}

/// Geometry to flatten or stroke: a draw's, or a clip path's.
private struct ShapeJob {
    var geometry: DrawCommand.Geometry
    /// User space → device pixels, finite.
    var transform: CGAffineTransform
    var drawNumber: Int
    /// Prefix of error messages ("" for a draw, "clip 2: " for a clip path).
    var what: String
    var cost: Int {
        switch geometry {
        case .fill(let p, _): return p.elements.count
        case .stroke(let p, _): return p.elements.count * Lowering.strokeElementCost
        // A cached glyph costs a copy of its points: about as much as a few path elements.
        case .text(let t): return t.glyphs.count * 4 + t.decorations.count
        }
    }
}

/// The recording's tree with every geometry replaced by a job index, validated.
private indirect enum Node {
    case draw(DrawCommand, job: Int, clip: ClipNode?, paint: LoweredPaint?, filter: [ResolvedFilter])
    case layer(LayerCommand, content: [Node], clip: ClipNode?, filter: [ResolvedFilter])
}

/// A validated clip stack: its entries with their job indices (paths) or collected contents (masks).
private final class ClipNode {
    enum Entry {
        case path(job: Int?, inverse: Bool)
        case mask([Node], opacity: Float, inverse: Bool)
    }
    let entries: [Entry]
    let id: Int
    /// A clip that could not be resolved (a non-finite transform or mask opacity, skipped leniently): it
    /// clips to nothing.
    let isEmpty: Bool
    init(entries: [Entry], id: Int, isEmpty: Bool = false) { self.entries = entries; self.id = id; self.isEmpty = isEmpty }
}

private struct Builder {
    let target: RenderTarget
    let colorMode: ColorRenderingMode
    let features: Lowering.Features
    var jobs: [ShapeJob] = []
    var shapes: [CoverageShape?] = []
    var error: RenderError?
    /// `DiagnosticsPolicy.lenient`: skip what Core Graphics ignores (`RenderDiagnostic.lenient(for:)`).
    let lenient: Bool
    /// What was skipped, with the draw it belongs to and the order it was met in.
    private var diagnostics: [(draw: Int, order: Int, diagnostic: RenderDiagnostic)] = []
    /// Jobs whose preparation failed and were skipped: a clip entry holding one clips to nothing.
    var failedJobs = Set<Int>()
    /// `RenderLimits.imageBytes` for the frame's distinct images; nil: unchecked (a backend driven directly).
    let imageBudget: Int?
    /// The distinct pixel buffers the frame draws (images sharing pixels count once), by address.
    private var imageBytes: [UInt: Int] = [:]
    private var imageTotal = 0
    /// The last clip stack seen and its node: consecutive draws under one stack share it.
    private var lastClips: [RecordedClip] = []
    private var lastClipNode: ClipNode?
    private var clipCount = 0

    init(target: RenderTarget, colorMode: ColorRenderingMode, features: Lowering.Features, lenient: Bool = false,
         imageBudget: Int? = nil) {
        self.target = target
        self.colorMode = colorMode
        self.features = features
        self.lenient = lenient
        self.imageBudget = imageBudget
    }

    /// The diagnostics in draw order (those of one draw in the order they were met).
    var sortedDiagnostics: [RenderDiagnostic] {
        diagnostics.sorted { ($0.draw, $0.order) < ($1.draw, $1.order) }.map(\.diagnostic)
    }

    /// Leniently, an error Core Graphics would ignore becomes a diagnostic and this returns true (the caller
    /// skips what failed); otherwise it becomes the frame's error (the first one wins) and this returns false.
    mutating func skip(_ e: RenderError, drawNumber: Int) -> Bool {
        if lenient, let d = RenderDiagnostic.lenient(for: e) {
            diagnostics.append((drawNumber, diagnostics.count, d))
            return true
        }
        if error == nil { error = e }
        return false
    }

    /// `path` without its elements that hold a non-finite number, rebuilt through `Path`'s own builders so the
    /// path goes on from the last valid point (a line after a dropped first move starts the subpath), and the
    /// strict error naming the first such element; nil when every element is finite.
    static func finitePart(of path: Path, drawNumber: Int, what: String) -> (Path, RenderError)? {
        do { try checkPath(path, drawNumber: drawNumber, what: what); return nil } catch {
            var clean = Path()
            for e in path.elements {
                switch e {
                case .move(let p): if p.isFinite { clean.move(to: p) }
                case .line(let p): if p.isFinite { clean.addLine(to: p) }
                case .quadCurve(let p, let c): if p.isFinite, c.isFinite { clean.addQuadCurve(to: p, control: c) }
                case .curve(let p, let c1, let c2):
                    if p.isFinite, c1.isFinite, c2.isFinite { clean.addCurve(to: p, control1: c1, control2: c2) }
                case .closeSubpath: clean.closeSubpath()
                }
            }
            return (clean, error as? RenderError ?? .invalidGeometry("\(error)"))
        }
    }

    func checkFrame(_ recording: Recording) throws {
        _ = recording
    }

    // MARK: Collecting (validation, paint resolution, jobs)

    mutating func collect(_ layer: RecordedLayer) -> [Node] {
        var nodes: [Node] = []
        for item in layer.items {
            guard error == nil else { break }
            switch item {
            case .draw(var d):
                let clip = clipNode(d.state.clips, drawNumber: d.drawNumber)
                var job = -1
                var paint: LoweredPaint?
                var filter: [ResolvedFilter] = []
                if error == nil {
                    // Leniently, non-finite path elements are dropped first (reported only if nothing else
                    // skips the draw: one diagnostic per draw), so a `.style` gradient spans what is drawn.
                    var pathNote: RenderError?
                    if lenient {
                        switch d.geometry {
                        case .fill(let p, let style):
                            if let (clean, note) = Self.finitePart(of: p, drawNumber: d.drawNumber, what: "") {
                                d.geometry = .fill(clean, style); pathNote = note
                            }
                        case .stroke(let p, let style):
                            if let (clean, note) = Self.finitePart(of: p, drawNumber: d.drawNumber, what: "") {
                                d.geometry = .stroke(clean, style); pathNote = note
                            }
                        case .text: break
                        }
                    }
                    do {
                        try validate(d)
                        paint = try resolve(d.paint, d)
                        filter = try FilterResolution.resolve(d.state.filters, colorMode: colorMode,
                                                              deviceTransform: target.deviceTransform, drawNumber: d.drawNumber)
                        job = addJob(d.geometry, d.transform, drawNumber: d.drawNumber, what: "")
                        if let pathNote { _ = skip(pathNote, drawNumber: d.drawNumber) }
                    } catch let e as RenderError {
                        if skip(e, drawNumber: d.drawNumber) { continue }
                    } catch {}
                }
                nodes.append(.draw(d, job: job, clip: clip, paint: paint, filter: filter))
            case .layer(let l):
                if error == nil, !features.contains(.clipsAndLayers) {
                    error = .unsupported("drawLayer (draw #\(l.content.firstDrawNumber ?? 0))")
                }
                if error == nil, !(0 ..< 28).contains(l.state.blendMode.rawValue) {
                    error = .invalidGeometry("draw #\(l.content.firstDrawNumber ?? 0): layer blend mode raw value \(l.state.blendMode.rawValue) is not one of the 28 modes")
                }
                let clip = clipNode(l.state.clips, drawNumber: l.content.firstDrawNumber ?? 0)
                if error == nil, l.state.opacity.isNaN,
                   skip(.invalidGeometry("draw #\(l.content.firstDrawNumber ?? 0): layer opacity is NaN"),
                        drawNumber: l.content.firstDrawNumber ?? 0) {
                    continue  // the layer and its content, unexamined
                }
                var filter: [ResolvedFilter] = []
                if error == nil {
                    do {
                        filter = try FilterResolution.resolve(l.state.filters, colorMode: colorMode,
                                                              deviceTransform: target.deviceTransform,
                                                              drawNumber: l.content.firstDrawNumber ?? 0)
                    } catch let e as RenderError {
                        if skip(e, drawNumber: l.content.firstDrawNumber ?? 0) { continue }
                    } catch {}
                }
                // The layer's content starts with no clip of its own.
                let saved = (lastClips, lastClipNode)
                lastClips = []; lastClipNode = nil
                let content = collect(l.content)
                (lastClips, lastClipNode) = saved
                nodes.append(.layer(l, content: content, clip: clip, filter: filter))
            }
        }
        return nodes
    }

    private mutating func clipNode(_ clips: [RecordedClip], drawNumber: Int) -> ClipNode? {
        if clips.isEmpty { return nil }
        if clips == lastClips, let n = lastClipNode { return n }
        var entries: [ClipNode.Entry] = []
        var isEmpty = false
        for (i, c) in clips.enumerated() {
            let what = "clip \(i + 1): "
            switch c {
            case .path(var path, let t, let style, let inverse):
                do {
                    try Self.checkTransform(t, drawNumber: drawNumber, what: what)
                    if lenient, let (clean, note) = Self.finitePart(of: path, drawNumber: drawNumber, what: what) {
                        path = clean
                        _ = skip(note, drawNumber: drawNumber)
                    }
                    try Self.checkPath(path, drawNumber: drawNumber, what: what)
                    entries.append(.path(job: addJob(.fill(path, style), t, drawNumber: drawNumber, what: what),
                                         inverse: inverse))
                } catch let e as RenderError {
                    if error == nil, skip(e, drawNumber: drawNumber) { isEmpty = true }
                } catch {}
            case .mask(let layer, let opacity, let inverse):
                if opacity.isNaN, error == nil,
                   skip(.invalidGeometry("draw #\(drawNumber): \(what)mask opacity is NaN"), drawNumber: drawNumber) {
                    isEmpty = true
                }
                let saved = (lastClips, lastClipNode)
                lastClips = []; lastClipNode = nil
                let content = collect(layer)
                (lastClips, lastClipNode) = saved
                entries.append(.mask(content, opacity: Float(min(max(opacity, 0), 1)), inverse: inverse))
            }
        }
        clipCount += 1
        let node = ClipNode(entries: entries, id: clipCount, isEmpty: isEmpty)
        lastClips = clips
        lastClipNode = node
        return node
    }

    private mutating func addJob(_ g: DrawCommand.Geometry, _ transform: CGAffineTransform, drawNumber: Int,
                                 what: String) -> Int {
        jobs.append(ShapeJob(geometry: g, transform: transform.concatenating(target.deviceTransform),
                             drawNumber: drawNumber, what: what))
        return jobs.count - 1
    }

    /// Throws for a draw with non-finite geometry, transform, stroke numbers or opacity.
    ///
    /// A path with a NaN point as element 3 of draw 0 → `invalidGeometry("draw #0: path element 3 (…) is not finite")`.
    private func validate(_ d: DrawCommand) throws {
        func bad(_ what: String) -> RenderError { .invalidGeometry("draw #\(d.drawNumber): \(what)") }
        try Self.checkTransform(d.transform, drawNumber: d.drawNumber, what: "")
        guard (0 ..< 28).contains(d.state.blendMode.rawValue) else {
            throw bad("blend mode raw value \(d.state.blendMode.rawValue) is not one of the 28 modes")
        }
        if !features.contains(.clipsAndLayers), !d.state.clips.isEmpty {
            throw RenderError.unsupported("clips (draw #\(d.drawNumber))")
        }
        guard !d.state.opacity.isNaN else { throw bad("opacity is NaN") }
        if case .text(let t) = d.geometry {
            switch t.error {
            case .invalidFont(let path, let reason)?: throw RenderError.invalidFont("draw #\(d.drawNumber): \(path): \(reason)")
            // ICU could not lay the text out (it fails only when it cannot allocate): an error under either
            // policy, never a text that silently draws nothing.
            case .unicode(let reason)?: throw bad("text: Unicode algorithm failed: \(reason)")
            case nil: break
            }
            for span in t.spans where !span.font.size.isFinite {
                throw bad("font size \(span.font.size) is not finite")
            }
            for span in t.spans where !(span.kerning.isFinite && span.tracking.isFinite && span.baselineOffset.isFinite) {
                throw bad("kerning \(span.kerning), tracking \(span.tracking) or baseline offset \(span.baselineOffset) is not finite")
            }
            guard t.origin.x.isFinite, t.origin.y.isFinite, t.layout.size.width.isFinite, t.layout.size.height.isFinite else {
                throw bad("text position (\(fmt(t.origin.x)), \(fmt(t.origin.y))) is not finite")
            }
            return
        }
        if case .stroke(_, let style) = d.geometry {
            guard style.lineWidth.isFinite else { throw bad("line width \(style.lineWidth) is not finite") }
            guard style.miterLimit.isFinite else { throw bad("miter limit \(style.miterLimit) is not finite") }
            guard style.dashPhase.isFinite, style.dash.allSatisfy(\.isFinite) else {
                throw bad("dash \(style.dash) phase \(style.dashPhase) is not finite")
            }
        }
        try Self.checkPath(d.path, drawNumber: d.drawNumber, what: "")
    }

    static func checkTransform(_ t: CGAffineTransform, drawNumber: Int, what: String) throws {
        guard t.isFinite else {
            throw RenderError.invalidGeometry("draw #\(drawNumber): \(what)transform \(t) is not finite")
        }
    }

    /// An element as words: `line to (nan, 4)`.
    static func text(_ e: Path.Element) -> String {
        func p(_ q: CGPoint) -> String { "(\(fmt(q.x)), \(fmt(q.y)))" }
        switch e {
        case .move(let a): return "move to \(p(a))"
        case .line(let a): return "line to \(p(a))"
        case .quadCurve(let a, let c): return "quad curve to \(p(a)) control \(p(c))"
        case .curve(let a, let c1, let c2): return "curve to \(p(a)) controls \(p(c1)) \(p(c2))"
        case .closeSubpath: return "close"
        }
    }

    static func checkPath(_ path: Path, drawNumber: Int, what: String) throws {
        for (k, e) in path.elements.enumerated() {
            let finite: Bool
            switch e {
            case .move(let p), .line(let p): finite = p.x.isFinite && p.y.isFinite
            case .quadCurve(let p, let c): finite = p.x.isFinite && p.y.isFinite && c.x.isFinite && c.y.isFinite
            case .curve(let p, let c1, let c2):
                finite = p.x.isFinite && p.y.isFinite && c1.x.isFinite && c1.y.isFinite && c2.x.isFinite && c2.y.isFinite
            case .closeSubpath: finite = true
            }
            guard finite else {
                throw RenderError.invalidGeometry("draw #\(drawNumber): \(what)path element \(k) (\(Self.text(e))) is not finite")
            }
        }
    }

    /// The paint in the working space; nil when it paints nothing anywhere (a gradient without stops, an image
    /// mapped to no area).
    private mutating func resolve(_ paint: Paint, _ d: DrawCommand) throws -> LoweredPaint? {
        switch paint {
        case .solid(let c):
            guard c.r.isFinite, c.g.isFinite, c.b.isFinite, c.a.isFinite else {
                throw RenderError.invalidGeometry("draw #\(d.drawNumber): paint \(c) is not finite")
            }
            return .solid(c)
        case .gradient(let g):
            return Self.lowered(try GradientResolution.resolve(g, transform: d.transform.concatenating(target.deviceTransform),
                                                               colorMode: colorMode, canvas: target.pixelRect, drawNumber: d.drawNumber))
        case .styleGradient(let u):
            // A style's UnitPoints map onto the drawn item's bounds: the path's, for fills and strokes alike.
            return Self.lowered(try GradientResolution.resolve(u.bound(to: d.path.boundingRect),
                                                               transform: d.transform.concatenating(target.deviceTransform),
                                                               colorMode: colorMode, canvas: target.pixelRect, drawNumber: d.drawNumber))
        case .backdrop:
            return .backdrop
        case .meshGradient(let m):
            // Mapped onto the drawn path's bounds, as a style's UnitPoints; the paint image reaches as far as
            // the geometry can (a stroke past the path's bounds, at most its miter reach).
            var outset: CGFloat = 0
            if case .stroke(_, let s) = d.geometry {
                let reach = abs(s.lineWidth) / 2 * max(s.miterLimit, 2.0.squareRoot())
                if reach.isFinite { outset = reach }
            }
            guard let image = try MeshGradientResolution.resolve(m, bounds: d.path.boundingRect, outset: outset,
                                                                  transform: d.transform.concatenating(target.deviceTransform),
                                                                  colorMode: colorMode, target: target.pixelRect,
                                                                  drawNumber: d.drawNumber)
            else { return .solid(.transparent) }
            try chargeImage(image, d)
            return .image(image)
        case .image(let i):
            guard let image = try ImageResolution.resolve(i, transform: d.transform.concatenating(target.deviceTransform),
                                                          decodesSRGB: colorMode != .nonLinear, canvas: target.pixelRect,
                                                          drawNumber: d.drawNumber)
            else { return nil }
            try chargeImage(image, d)
            return .image(image)
        }
    }

    /// Counts an image's decoded bytes against the frame's image budget, once per pixel buffer.
    private mutating func chargeImage(_ image: LoweredImage, _ d: DrawCommand) throws {
        // A mesh paint has no pixels yet: its own object names it.
        let buffer = image.mesh != nil ? UInt(bitPattern: image.identity)
            : image.pixels.pixels.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        if let imageBudget, imageBytes[buffer] == nil {
            let bytes = image.width * image.height * 4
            imageBytes[buffer] = bytes
            imageTotal += bytes
            if imageTotal > imageBudget {
                throw RenderError.overMemoryLimit(
                    "draw #\(d.drawNumber): the frame's images need \(memorySize(imageTotal)) decoded "
                        + "(this \(image.width)×\(image.height) one \(memorySize(bytes))); "
                        + "the limit is \(memorySize(imageBudget))")
            }
        }
    }

    /// A gradient that paints nothing anywhere (no stops, equal circles) is a transparent colour: it still acts
    /// under a blend mode that clears (`.copy` of it erases), and takes the plain colour path on the GPU.
    static func lowered(_ g: GradientPaint?) -> LoweredPaint {
        guard let g, g.packedTexels()[0].x != GradientPaint.Packed.kindNothing else { return .solid(.transparent) }
        return .gradient(g)
    }

    // MARK: Assembling ops

    func assemble(_ nodes: [Node], clips: inout [LoweredClip], clipIndex: inout [Int: Int]) throws -> [LoweredOp] {
        if let error { throw error }
        var ops: [LoweredOp] = []
        appendOps(nodes, into: &ops, clips: &clips, clipIndex: &clipIndex)
        return ops
    }

    /// Appends the ops of `nodes`; returns the union of the boxes they can change (nil: none).
    @discardableResult
    private func appendOps(_ nodes: [Node], into ops: inout [LoweredOp], clips: inout [LoweredClip],
                           clipIndex: inout [Int: Int]) -> PixelRect? {
        var union: PixelRect?
        for node in nodes {
            switch node {
            case .draw(let d, let job, let clipNode, let paint, let filter) where !filter.isEmpty:
                // A filtered draw is a layer of its own: drawn plainly, then filtered and composited with the
                // draw's opacity, blend mode and clip.
                guard let shape = shapes[job], let paint else { continue }
                let plain = LoweredDraw(drawNumber: d.drawNumber, shape: shape, paint: paint, opacity: 1, blend: .normal,
                                        clip: nil, box: shape.box)
                if let box = composite([.draw(plain)], contentBox: shape.box, state: d.state, clipNode: clipNode,
                                       filter: filter, into: &ops, clips: &clips, clipIndex: &clipIndex) {
                    union = union.map { $0.union(box) } ?? box
                }
            case .draw(let d, let job, var clipNode, let paint, _):
                guard let shape = shapes[job], let paint else { continue }
                let opacity = Float(min(max(d.state.opacity, 0), 1))
                if let node = clipNode, d.state.blendMode.keepsDestinationUnderTransparentSource,
                   clipIsWhole(node, over: shape.box) {
                    clipNode = nil
                }
                let clip = clipNode.map { lowerClip($0, clips: &clips, clipIndex: &clipIndex) }
                var box: PixelRect? = shape.box
                if let clip { box = clips[clip].box.flatMap { shape.box.intersection($0) } }
                guard let box else { continue }
                // A draw that adds nothing: zero opacity or a transparent colour under a blend that leaves the
                // destination alone where the source is transparent.
                if d.state.blendMode.keepsDestinationUnderTransparentSource {
                    if opacity == 0 { continue }
                    if case .solid(let c) = paint, c.a == 0, c.r == 0, c.g == 0, c.b == 0 { continue }
                }
                ops.append(.draw(LoweredDraw(drawNumber: d.drawNumber, shape: shape, paint: paint, opacity: opacity,
                                             blend: d.state.blendMode, clip: clip, box: box)))
                union = union.map { $0.union(box) } ?? box
            case .layer(let l, let content, let clipNode, let filter):
                var inner: [LoweredOp] = []
                let contentBox = appendOps(content, into: &inner, clips: &clips, clipIndex: &clipIndex)
                if let box = composite(inner, contentBox: contentBox, state: l.state, clipNode: clipNode,
                                       filter: filter, into: &ops, clips: &clips, clipIndex: &clipIndex) {
                    union = union.map { $0.union(box) } ?? box
                }
            }
        }
        return union
    }

    /// Appends a layer holding `inner` (whose pixels lie in `contentBox`), composited with `state`'s opacity,
    /// blend mode and clip through `filter`; returns the parent's pixels it can change (nil: none).
    private func composite(_ inner: [LoweredOp], contentBox: PixelRect?, state: DrawState, clipNode: ClipNode?,
                           filter: [ResolvedFilter], into ops: inout [LoweredOp], clips: inout [LoweredClip],
                           clipIndex: inout [Int: Int]) -> PixelRect? {
        let opacity = Float(min(max(state.opacity, 0), 1))
        let clip = clipNode.map { lowerClip($0, clips: &clips, clipIndex: &clipIndex) }
        let clipBox: PixelRect? = clip.map { clips[$0].box } ?? target.pixelRect
        guard let clipBox else { return nil }  // an empty clip region: nothing changes
        let keeps = state.blendMode.keepsDestinationUnderTransparentSource
        if keeps && opacity == 0 { return nil }
        // Content beyond the clip still matters to a filter that moves pixels (a blur, a shadow's offset):
        // the layer keeps what the filters can bring into the clip's box.
        var reachBox: PixelRect? = clipBox
        if !filter.isEmpty { reachBox = FilterPlanning.totalReach(filter).map { FilterPlanning.grown(clipBox, by: $0) } }
        let layerBox = contentBox.flatMap { c in reachBox.map { c.intersection($0) } ?? c }
        // An empty layer under a blend that clears (or a filter that makes transparent pixels visible) still
        // composites: a transparent source over its clip.
        let box = layerBox ?? PixelRect(x: clipBox.x, y: clipBox.y, width: 1, height: 1)
        // Without content, a layer whose filters keep transparent pixels transparent adds nothing.
        if layerBox == nil, keeps, !FilterPlanning.makesTransparentVisible(filter) { return nil }
        // The box of the image the composite reads, ∩ the clip's box.
        var lowered = LoweredFilter()
        var sourceBox: PixelRect? = layerBox.flatMap { $0.intersection(clipBox) }
        if !filter.isEmpty {
            guard let plan = FilterPlanning.plan(filter, layerBox: box, limit: clipBox, canvas: target.pixelRect) else {
                return keeps ? nil : composite(inner, contentBox: nil, state: state, clipNode: clipNode, filter: [],
                                               into: &ops, clips: &clips, clipIndex: &clipIndex)
            }
            lowered = plan
            if let last = plan.stages.last {
                sourceBox = last.output
                // A separately composited shadow: its image, then the stage's input.
                if plan.separateShadowBlend != nil, let i = last.input.intersection(clipBox) { sourceBox = last.output.union(i) }
            }
        }
        // A filter that makes transparent pixels visible (an alpha offset, a threshold keeping alpha 0) covers
        // the whole clip region, as a blend mode that clears does.
        let reaches = ColorFilterFormulas.reachesTransparentPixels(lowered.finalColor)
        let changeBox: PixelRect? = keeps && !reaches ? sourceBox : clipBox
        guard let changeBox else { return nil }
        // The composite interpolates a coarse blur only inside the blur's output box: the texture's bilinear
        // filter would read stale texels beyond the coarse result (a `.copy` composite covers the whole clip).
        if lowered.upsampledByComposite, let last = lowered.stages.last, changeBox.intersection(last.output) != changeBox {
            lowered.upsampledByComposite = false
        }
        ops.append(.pushLayer(box: box, precise: FilterPlanning.needsPreciseLayer(filter)))
        if layerBox != nil { ops.append(contentsOf: inner) }
        ops.append(.popLayer(LayerComposite(opacity: opacity, blend: state.blendMode, clip: clip, layerBox: box,
                                            filter: lowered, box: changeBox)))
        return changeBox
    }

    /// True when `node`'s coverage is exactly 1 on every pixel of `box`: each entry a non-inverse clip by an
    /// axis-aligned device rectangle holding `box`. A draw inside `box` under such a clip draws the same pixels
    /// without it (its coverage × 1), so it is lowered unclipped: the common case of a symbol's or a nested
    /// canvas's frame clip around content that stays inside it, where the clip would cost a clip mask per draw
    /// and keep the draws off the GLES backend's direct route. Only for blend modes that leave the
    /// destination alone where the source is transparent, so the draw's reach is its shape either way.
    private func clipIsWhole(_ node: ClipNode, over box: PixelRect) -> Bool {
        if node.isEmpty { return false }
        for entry in node.entries {
            guard case .path(let job?, inverse: false) = entry, let rect = shapes[job]?.solidRect,
                  rect.contains(box) else { return false }
        }
        return true
    }

    private func lowerClip(_ node: ClipNode, clips: inout [LoweredClip], clipIndex: inout [Int: Int]) -> Int {
        if let i = clipIndex[node.id] { return i }
        var entries: [LoweredClip.Entry] = []
        var box: PixelRect? = node.isEmpty ? nil : target.pixelRect
        for e in node.entries {
            switch e {
            case .path(let job, let inverse):
                let shape = job.flatMap { shapes[$0] }
                entries.append(.shape(shape, inverse: inverse))
                if let job, failedJobs.contains(job) { box = nil }
                if !inverse { box = shape.flatMap { s in box.flatMap { s.box.intersection($0) } } }
            case .mask(let content, let opacity, let inverse):
                var ops: [LoweredOp] = []
                let contentBox = appendOps(content, into: &ops, clips: &clips, clipIndex: &clipIndex)
                entries.append(.mask(ops: ops, box: contentBox, opacity: opacity, inverse: inverse))
                if !inverse {
                    box = (opacity > 0 ? contentBox : nil).flatMap { c in box.flatMap { c.intersection($0) } }
                }
            }
        }
        clips.append(LoweredClip(entries: entries, box: box))
        clipIndex[node.id] = clips.count - 1
        return clips.count - 1
    }
}

extension RenderTarget {
    /// The whole target as a pixel rectangle.
    package var pixelRect: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }
}

extension RecordedLayer {
    /// The number of the first draw inside (for messages about the layer itself).
    package var firstDrawNumber: Int? {
        for item in items {
            switch item {
            case .draw(let d): return d.drawNumber
            case .layer(let l): if let n = l.content.firstDrawNumber { return n }
            }
        }
        return nil
    }
}

extension CGPoint {
    /// Both coordinates finite.
    fileprivate var isFinite: Bool { x.isFinite && y.isFinite }
}

// Kept file-private (and oddly named) so they cannot collide with what the geometry work adds to `Polygons`.
extension Polygons {
    /// Empties the polygons, keeping capacity.
    fileprivate mutating func loweringClear() {
        points.removeAll(keepingCapacity: true)
        contourStarts.removeAll(keepingCapacity: true)
        placedGlyphs.removeAll(keepingCapacity: true)
        minX = .infinity; minY = .infinity; maxX = -.infinity; maxY = -.infinity
    }

}
