// Text → device-space polygons, shared by both backends.
//
// Design note. A text draw's glyphs become one nonzero shape made of every glyph's outline (and the
// underline or strikethrough bars), so text goes through exactly the coverage and compositing of a filled
// path on each backend: the reference's cell rasterizer, the GLES raster atlas or GPU tessellation. The text
// engine gives every glyph's contours the same winding, so glyphs that overlap (a combining mark, a tight
// kerning pair, an underline through a descender) add up rather than cancel.
//
// Glyph placement. Under a transform that only scales uniformly and translates (text drawn upright; the
// canvas scale counts), each glyph's origin is snapped in device pixels to a quarter pixel across and a whole
// pixel down — what Skia and CoreText do for horizontal text, so stems keep a constant look along a line and
// baselines are sharp — and its polygons come from a per-worker cache keyed by face, glyph, device em size
// and quarter: a text-heavy frame flattens each distinct glyph once, then only copies points. The snapped
// position is the glyph's position on both backends (it is decided here), so the coverage each backend
// computes is exact for it. Under any other transform (rotated, skewed, flipped or non-uniformly scaled
// text), and for glyphs above `maxCachedEm` device pixels, outlines are flattened at their exact position.

import Foundation

/// Flattened glyph outlines of one lowering worker, by face, glyph, device em size and subpixel step.
/// Bounded: when the points held pass `maxPoints`, the cache starts over.
package final class GlyphPolygonCache {
    package struct Key: Hashable {
        package var face: Int
        package var glyph: UInt32
        package var emBits: UInt64
        package var step: UInt8
    }
    /// `held`'s entries as lookups give them (uncounted, with their bounds).
    private var entries = GlyphTable()
    private var held: [CachedOutline] = []
    /// Entries dropped when the cache started over during the lowering now in progress: placements of this
    /// frame may still point at them (`PlacedGlyph.outline` holds no reference), so they live until the
    /// lowering hands them to its frame (`takeEvicted`).
    private var evicted: [CachedOutline] = []
    /// Points held by all entries.
    package private(set) var pointCount = 0
    /// Entries made since the renderer was created (misses).
    package private(set) var misses = 0
    package var entryCount: Int { entries.count }

    /// 2²¹ points (32 MiB) per worker: about 20 000 glyphs of 100 points, far more than a frame of ordinary
    /// text uses, small next to the frame's own buffers.
    package static let maxPoints = 1 << 21

    /// The entry for `key`, if the cache holds one.
    package func entry(for key: Key) -> CachedGlyph? { entries.find(key) }

    /// The cached entry itself, uncounted (the cache, or the frame it was evicted in, keeps it): a placement
    /// points at it rather than copying the polygons' arrays.
    package func outline(for key: Key, make: () -> Polygons) -> CachedGlyph {
        if let hit = entries.find(key) { return hit }
        let p = make()
        if pointCount + p.points.count > Self.maxPoints {
            evicted.append(contentsOf: held)
            held.removeAll(keepingCapacity: true)
            entries.removeAll()
            pointCount = 0
        }
        let entry = CachedOutline(p)
        held.append(entry)
        let glyph = CachedGlyph(entry)
        entries.insert(key, glyph)
        pointCount += p.points.count
        misses += 1
        return glyph
    }

    /// The entries dropped since the last call, for the frame whose placements may point at them to keep.
    package func takeEvicted() -> [CachedOutline] {
        defer { evicted = [] }
        return evicted
    }
}

/// The glyph polygon cache's table: open addressing with linear probing over a power of two of slots, each
/// the index of an entry that holds key and answer together. On S6-text the lowering looks up 15 000 glyphs
/// a frame in ~10 000 entries; Swift's `Dictionary` spent more on SipHash and on missing the cache in its
/// separate key and value arrays than the placement spent on everything else (`perf`: 8.5 % of the frame's
/// samples against 5.6 %). The hash mixes the key's fields with multiply–xorshift rounds (SplitMix64's
/// finaliser), which spreads consecutive glyph ids and nearby em sizes over the slots.
package struct GlyphTable {
    private struct Entry {
        var key: GlyphPolygonCache.Key
        var value: CachedGlyph
    }
    private var entries: [Entry] = []
    /// Entry indices; -1: empty. Kept at most half full.
    private var slots = [Int32](repeating: -1, count: 64)
    package var count: Int { entries.count }

    @inline(__always)
    private static func hash(_ k: GlyphPolygonCache.Key) -> Int {
        var h = UInt64(truncatingIfNeeded: k.face) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(k.glyph) ^ (UInt64(k.step) << 40)
        h = (h ^ (h >> 30)) &* 0xBF58_476D_1CE4_E5B9 ^ k.emBits
        h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: h ^ (h >> 31))
    }

    package func find(_ key: GlyphPolygonCache.Key) -> CachedGlyph? {
        slots.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
                let mask = slots.count - 1
                var i = Self.hash(key) & mask
                while true {
                    let e = slots[i]
                    if e < 0 { return nil }
                    if entries[Int(e)].key == key { return entries[Int(e)].value }
                    i = (i + 1) & mask
                }
            }
        }
    }

    /// Adds `key` (not already present).
    package mutating func insert(_ key: GlyphPolygonCache.Key, _ value: CachedGlyph) {
        if (entries.count + 1) * 2 > slots.count { rehash(slots.count * 2) }
        entries.append(Entry(key: key, value: value))
        place(entries.count - 1)
    }

    package mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    private mutating func place(_ index: Int) {
        let mask = slots.count - 1
        var i = Self.hash(entries[index].key) & mask
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = Int32(index)
    }

    private mutating func rehash(_ slotCount: Int) {
        slots = [Int32](repeating: -1, count: slotCount)
        for index in entries.indices { place(index) }
    }
}

/// What a renderer's glyph caches hold: polygon entries, their points (16 bytes each), and the entries made
/// since the renderer was created; and the GLES raster atlas's glyph masks.
public struct GlyphCacheStatistics: Equatable, Sendable, CustomStringConvertible {
    public var entries = 0
    public var points = 0
    public var misses = 0
    /// Coverage masks of the GLES raster atlas (`GlyphMaskCache`): how many, their texel bytes, and the masks
    /// made since the renderer was created. 0 on other backends and strategies.
    public var masks = 0
    public var maskBytes = 0
    public var maskMisses = 0
    public var description: String {
        "\(entries) glyphs, \(points) points, \(misses) made; \(masks) masks, \(maskBytes) bytes, \(maskMisses) made"
    }
}

/// A glyph mask's texels and box (`GlyphMask.view`); no texels: the glyph covers no pixel. The texels are
/// not counted: their cache keeps them for as long as the piece being composed needs them
/// (`GlyphMaskCache.releaseEvicted`).
package struct MaskTexels {
    package var texels: UnsafePointer<UInt8>?
    package var left: Int32 = 0, top: Int32 = 0, width: Int32 = 0, height: Int32 = 0

    package init(
        texels: UnsafePointer<UInt8>? = nil,
        left: Int32 = 0,
        top: Int32 = 0,
        width: Int32 = 0,
        height: Int32 = 0) {
        self.texels = texels
        self.left = left
        self.top = top
        self.width = width
        self.height = height
    }
}

/// A glyph's flattened outline as its cache holds it (device pixels, at its subpixel step, around its own
/// origin), with one slot per coverage worker for the mask a backend makes of it (`GlyphMaskCache`): worker
/// w reads and writes only slot w, so finding a placed glyph's mask costs no lookup and no lock.
package final class CachedOutline {
    package let polygons: Polygons
    /// Slots for `maskSlotCount` workers (`ParallelWork.maxWorkers`).
    package let maskSlots: UnsafeMutablePointer<MaskSlot>
    package static let maskSlotCount = ParallelWork.maxWorkers

    /// A mask made by one worker's cache, valid while that cache's `token` is still `token` (a cache that
    /// starts over takes a new token, which makes every slot it filled stale at once). The mask's texels
    /// and box are copied here, so that finding a placed glyph's mask reads this slot and nothing else.
    package struct MaskSlot {
        package var token = 0
        package var mask = MaskTexels()

        package init(token: Int = 0, mask: MaskTexels = MaskTexels()) { self.token = token; self.mask = mask }
    }

    package init(_ polygons: Polygons) {
        self.polygons = polygons
        maskSlots = .allocate(capacity: Self.maskSlotCount)
        maskSlots.initialize(repeating: MaskSlot(), count: Self.maskSlotCount)
    }

    deinit { maskSlots.deallocate() }
}

/// A glyph polygon cache's answer, as its table holds it: the outline (not counted: the cache keeps it),
/// its mask slots and its bounds. Reading these from the outline object instead cost a cache miss per
/// placed glyph: on S6-text, 15 000 placements over ~10 000 outlines scattered on the heap, and `perf
/// annotate` put 60 % of the placement's time on the load of the bounds.
package struct CachedGlyph {
    package var outline: Unmanaged<CachedOutline>
    package var maskSlots: UnsafeMutablePointer<CachedOutline.MaskSlot>
    /// The polygons' bounds; minX > maxX when there is no contour.
    package var minX, minY, maxX, maxY: Double
    package var isEmpty: Bool { !(minX < maxX && minY < maxY) }

    package init(_ o: CachedOutline) {
        outline = Unmanaged.passUnretained(o)
        maskSlots = o.maskSlots
        let p = o.polygons
        (minX, minY, maxX, maxY) = p.isEmpty ? (.infinity, .infinity, -.infinity, -.infinity)
            : (p.minX, p.minY, p.maxX, p.maxY)
    }
}

/// One glyph of a text shape kept as a placement (`TextLowering.place`). Trivially copyable: fifteen
/// thousand glyphs a frame are placed, copied and read on several cores, and a counted reference per glyph
/// cost a fifth of S6-text's frame in atomic reference counting (`perf`: swift_retain/release 17.5 %).
package struct PlacedGlyph {
    /// The device pixel the cached outline is moved to.
    package var x: Int
    package var y: Int
    /// The glyph's cached outline (device pixels, at its subpixel step, around its own origin). Not counted:
    /// its cache keeps it, and hands what it drops mid-frame to the frame (`LoweredFrame.keepAlive`).
    package var outline: Unmanaged<CachedOutline>
    /// The outline's mask slots (`CachedOutline.maskSlots`).
    package var maskSlots: UnsafeMutablePointer<CachedOutline.MaskSlot>
}

package enum TextLowering {
    /// Horizontal glyph positions are snapped to 1/4 device pixel (Skia's and CoreText's subpixel step).
    package static let subpixelSteps = 4.0
    /// Glyphs with a larger device em are flattened in place: they are rare, and their polygons large.
    package static let maxCachedEm = 256.0
    /// The most consecutive glyphs whose origins lie within a pixel of each other that a text may place. Each
    /// placed glyph's 8-bit mask carries up to half a level of rounding, and masks that share a pixel are added
    /// up: a pile of them (fifty stacked combining marks, a run of 0.01 pt glyphs) drifts a level per two
    /// glyphs from the exact union (fuzz: maxDiff 25 under fifty U+0301). Eight stacked, plus the two
    /// neighbours any glyph's edge pixels share, stay within 5 levels, under the bar's 8; a longer pile draws
    /// as contours, whose coverage is exact.
    package static let maxStackedGlyphs = 8
    /// The largest share of the smaller ink box two of a text's glyphs may have in common for the text to be
    /// placed. Placed masks are added up where they share pixels, while the text's coverage is the union of its
    /// outlines: where inks overlap (enclosing marks over a dotted circle, a keycap over a notdef box) the sum
    /// passes the union by up to a whole level of coverage (fuzz: alpha 255 against 75). Neighbours in ordinary
    /// text share at most their side bearings' slivers; a text whose glyphs overlap more draws as contours.
    package static let maxInkOverlap = 0.25
    /// How many preceding glyphs each glyph's ink box is compared with (marks stack on the glyphs just before).
    package static let overlapWindow = 4

    package enum Placement {
        /// The text is not upright, has a glyph over `maxCachedEm` or a decoration bar: draw its contours.
        case needsContours
        /// The glyphs were placed; the pixel box of their outlines (nil: none is visible).
        case placed(PixelRect?)
    }

    /// Appends `text`'s glyphs under `transform` to `glyphs` as placements (glyphs wholly outside `visible` are
    /// left out), when every glyph takes the cached route of `append`.
    package static func place(_ text: TextGeometry, transform m: CGAffineTransform, visible: PixelRect,
                      cache: GlyphPolygonCache, into glyphs: inout [PlacedGlyph]) -> Placement {
        let upright = m.b == 0 && m.c == 0 && m.a == m.d && m.a > 0
        guard upright, text.quantized, text.decorations.isEmpty,
              text.glyphs.allSatisfy({ text.layout.glyphs[$0].size * Double(m.a) <= maxCachedEm }) else {
            return .needsContours
        }
        let engine = TextEngine.shared
        let vx0 = Double(visible.x), vy0 = Double(visible.y)
        let vx1 = Double(visible.x + visible.width), vy1 = Double(visible.y + visible.height)
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        // The face changes rarely along a run: it is looked up (and counted) only when it does.
        var face: FontFace?
        var faceID = Int.min
        let start = glyphs.count
        var pileX = Double.nan, pileY = Double.nan, pile = 0
        // The ink boxes of the last `overlapWindow` glyphs, a ring.
        var recent = [(Double, Double, Double, Double)](repeating: (0, 0, 0, 0), count: overlapWindow)
        var recentCount = 0
        for index in text.glyphs {
            let g = text.layout.glyphs[index]
            guard g.size > 0, g.size.isFinite else { continue }
            if g.faceID != faceID {
                let f = engine.face(id: g.faceID)
                if f.hasColorBitmaps {
                    glyphs.removeSubrange(start...)
                    return .needsContours
                }
                face = f
                faceID = g.faceID
            }
            guard let (key, ix, iy) = snapped(g, origin: text.origin, transform: m, faceID: faceID) else { continue }
            if abs(ix - pileX) <= 1, abs(iy - pileY) <= 1 {
                pile += 1
                if pile > maxStackedGlyphs {
                    glyphs.removeSubrange(start...)
                    return .needsContours
                }
            } else {
                (pileX, pileY, pile) = (ix, iy, 1)
            }
            let b = cache.entry(for: key) ?? cachedOutline(key, face: face!, cache: cache)
            guard !b.isEmpty, ix + b.maxX > vx0, ix + b.minX < vx1, iy + b.maxY > vy0, iy + b.minY < vy1 else { continue }
            let box = (ix + b.minX, iy + b.minY, ix + b.maxX, iy + b.maxY)
            for k in 0 ..< min(recentCount, overlapWindow) where Self.overlap(box, recent[k]) > maxInkOverlap {
                glyphs.removeSubrange(start...)
                return .needsContours
            }
            recent[recentCount % overlapWindow] = box
            recentCount += 1
            glyphs.append(PlacedGlyph(x: Int(ix), y: Int(iy), outline: b.outline, maskSlots: b.maskSlots))
            minX = min(minX, ix + b.minX); maxX = max(maxX, ix + b.maxX)
            minY = min(minY, iy + b.minY); maxY = max(maxY, iy + b.maxY)
        }
        guard minX < maxX, minY < maxY else { return .placed(nil) }
        let x0 = Int(minX.rounded(.down)), y0 = Int(minY.rounded(.down))
        return .placed(PixelRect(x: x0, y: y0, width: Int(maxX.rounded(.up)) - x0, height: Int(maxY.rounded(.up)) - y0))
    }

    /// The area two boxes (x0, y0, x1, y1) share, as a share of the smaller one's (0 when either is empty).
    package static func overlap(_ a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double)) -> Double {
        let w = min(a.2, b.2) - max(a.0, b.0), h = min(a.3, b.3) - max(a.1, b.1)
        guard w > 0, h > 0 else { return 0 }
        let smaller = min((a.2 - a.0) * (a.3 - a.1), (b.2 - b.0) * (b.3 - b.1))
        return smaller > 0 ? w * h / smaller : 0
    }

    /// An upright glyph's cache key and the whole device pixel its cached outline moves to: the origin snapped
    /// to a quarter pixel across and a whole pixel down. Nil for an origin more than 2³⁰ px away (or not
    /// finite: text at x = 1.7e308, from the fuzzer), which no target reaches.
    private static func snapped(_ g: PositionedGlyph, origin: CGPoint, transform m: CGAffineTransform, faceID: Int)
        -> (GlyphPolygonCache.Key, Double, Double)? {
        let ux = Double(origin.x) + g.x, uy = Double(origin.y) + g.y
        let em = g.size * Double(m.a)
        let px = Double(m.a) * ux + Double(m.tx), py = Double(m.d) * uy + Double(m.ty)
        guard abs(px) < 0x1p30, abs(py) < 0x1p30 else { return nil }
        let qx = (px * subpixelSteps).rounded() / subpixelSteps
        let ix = qx.rounded(.down), iy = py.rounded()
        let step = UInt8((qx - ix) * subpixelSteps)
        return (GlyphPolygonCache.Key(face: faceID, glyph: g.glyph, emBits: em.bitPattern, step: step), ix, iy)
    }

    /// The glyph's outline at its key's em and step, flattened once per cache.
    private static func cachedOutline(_ key: GlyphPolygonCache.Key, face: FontFace, cache: GlyphPolygonCache)
        -> CachedGlyph {
        cache.outline(for: key) {
            let k = Double(bitPattern: key.emBits) / face.unitsPerEm
            return Flatten.fill(face.outline(glyph: key.glyph),
                                transform: CGAffineTransform(a: k, b: 0, c: 0, d: -k,
                                                             tx: Double(key.step) / subpixelSteps, ty: 0))
        }
    }

    /// Appends the glyph and bar contours of `text` under `transform` (user space → device pixels) to `polys`;
    /// glyphs wholly outside `visible` are left out.
    package static func append(_ text: TextGeometry, transform m: CGAffineTransform, visible: PixelRect,
                       cache: GlyphPolygonCache, into polys: inout Polygons) {
        let engine = TextEngine.shared
        let upright = m.b == 0 && m.c == 0 && m.a == m.d && m.a > 0
        let vx0 = Double(visible.x), vy0 = Double(visible.y)
        let vx1 = Double(visible.x + visible.width), vy1 = Double(visible.y + visible.height)
        var lastFace: FontFace?
        for index in text.glyphs {
            let g = text.layout.glyphs[index]
            guard g.size > 0, g.size.isFinite else { continue }
            let face: FontFace
            if let f = lastFace, f.id == g.faceID { face = f } else { face = engine.face(id: g.faceID); lastFace = face }
            let ux = Double(text.origin.x) + g.x, uy = Double(text.origin.y) + g.y
            let em = g.size * Double(m.a)
            if face.hasColorBitmaps {
                // A colour glyph is its bitmap's rectangle, which the draw fills with the bitmap (`recordText`).
                guard let bitmap = face.colorBitmap(glyph: g.glyph) else { continue }
                appendRectangle(bitmap.rect(size: g.size, x: ux, y: uy), transform: m, into: &polys)
                continue
            }
            if upright, em <= maxCachedEm, text.quantized {
                guard let (key, ix, iy) = snapped(g, origin: text.origin, transform: m, faceID: face.id) else { continue }
                let shape = cachedOutline(key, face: face, cache: cache).outline._withUnsafeGuaranteedRef { $0.polygons }
                guard !shape.isEmpty, ix + shape.maxX > vx0, ix + shape.minX < vx1,
                      iy + shape.maxY > vy0, iy + shape.minY < vy1 else { continue }
                polys.appendTranslated(shape, dx: ix, dy: iy)
            } else {
                let k = g.size / face.unitsPerEm
                let t = CGAffineTransform(a: k, b: 0, c: 0, d: -k, tx: ux, ty: uy).concatenating(m)
                let outline = face.outline(glyph: g.glyph)
                let b = outline.boundingRect
                guard !b.isNull else { continue }
                let d = b.applying(t)
                guard d.maxX > vx0, d.minX < vx1, d.maxY > vy0, d.minY < vy1 else { continue }
                Flatten.fill(outline, transform: t, into: &polys)
            }
        }
        for index in text.decorations {
            // A bar over a descender adds up with the glyph.
            appendRectangle(text.layout.decorations[index].rect.offsetBy(dx: text.origin.x, dy: text.origin.y),
                            transform: m, into: &polys)
        }
    }

    /// `r` (user space) under `m` as one contour wound as a glyph's outer contour (clockwise with y up).
    private static func appendRectangle(_ r: CGRect, transform m: CGAffineTransform, into polys: inout Polygons) {
        let corners = [CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.minX, y: r.minY),
                       CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY)]
        polys.beginContour()
        for c in corners {
            let p = c.applying(m)
            polys.append(x: Double(p.x), y: Double(p.y))
        }
    }
}

extension Polygons {
    /// Appends `other`'s contours moved by (dx, dy) (a stroke's outline with (0, 0), a cached glyph at its pixel).
    package mutating func appendTranslated(_ other: Polygons, dx: Double, dy: Double) {
        let base = points.count
        for s in other.contourStarts { contourStarts.append(base + s) }
        // No reserveCapacity here: called per glyph, an exact reservation each time would defeat the array's
        // geometric growth.
        if dx == 0, dy == 0 {
            points.append(contentsOf: other.points)
        } else {
            points.append(contentsOf: other.points.lazy.map { DevicePoint(x: $0.x + dx, y: $0.y + dy) })
        }
        minX = min(minX, other.minX + dx); maxX = max(maxX, other.maxX + dx)
        minY = min(minY, other.minY + dy); maxY = max(maxY, other.maxY + dy)
    }
}
