// Glyph coverage masks of the raster atlas: each glyph rasterized once per face, glyph, device em and quarter
// pixel step, then copied to every place it is drawn.
//
// Design note. Text lowered as glyph placements (`TextLowering.place`) reaches the raster atlas as a list of
// (pixel, outline, mask slots). A worker turns each outline into an R8 mask with its own `CoverageAccumulator`
// the first time it meets it (the outline is already at the glyph's quarter-pixel step, so the mask is exact
// for every pixel it is placed at), and a text piece's coverage is then the sum of its glyphs' masks
// (`CoverageAccumulator.compose`) instead of an accumulation over the line's whole box. Measured on
// S6-text (500 lines, 15 000 glyphs): see docs/DESIGN-NOTES.md.
//
// Each worker keeps its own cache (no locks; a glyph may be rasterized once per worker), bounded by
// `maxBytes`. A worker finds a glyph's mask in its own slot of the cached outline (`CachedOutline.maskSlots`)
// rather than in a dictionary: S6-text looks up 15 000 masks a frame.

import Foundation

final class GlyphMaskCache {
    /// This cache's slot in every cached outline: its worker's index.
    let slot: Int
    /// Identifies the masks made since the cache last started over; a slot holding another token is stale.
    private var token: Int
    /// The masks, kept here; outlines' slots and placed masks only point at them.
    private var masks: [GlyphMask] = []
    /// Masks dropped when the cache started over, kept until the piece being composed is done with them.
    private var evicted: [GlyphMask] = []
    private let rasterizer = CoverageAccumulator()
    /// Texel bytes held by all masks.
    private(set) var bytes = 0
    /// Masks made since the cache was created.
    private(set) var misses = 0
    var count: Int { masks.count }

    /// 8 MiB of masks per worker: ~20 000 glyphs of 20 × 20 px, far more than a frame of ordinary text meets.
    /// Past it the cache starts over.
    static let maxBytes = 8 << 20

    init(slot: Int) {
        precondition(slot >= 0 && slot < CachedOutline.maskSlotCount, "mask slot \(slot) out of range")
        self.slot = slot
        token = Self.nextToken()
    }

    /// Tokens are unique across every cache of the process, so a slot filled by a cache that no longer exists
    /// (a renderer's worker made again) is never taken for a current one.
    private static let tokenLock = NSLock()
    nonisolated(unsafe) private static var lastToken = 0
    private static func nextToken() -> Int {
        tokenLock.lock(); defer { tokenLock.unlock() }
        lastToken += 1
        return lastToken
    }

    /// Drops the masks evicted while the last piece was composed (call before placing the next piece's).
    func releaseEvicted() {
        if !evicted.isEmpty { evicted.removeAll() }
    }

    /// The mask of `glyph`'s outline (this cache keeps its texels), nil when it covers no pixel.
    func mask(for glyph: PlacedGlyph) -> MaskTexels? {
        let s = glyph.maskSlots + slot
        if s.pointee.token == token { return s.pointee.mask.texels == nil ? nil : s.pointee.mask }
        let mask = glyph.outline._withUnsafeGuaranteedRef { make($0.polygons) }
        if let mask, bytes + mask.byteCount > Self.maxBytes {
            evicted.append(contentsOf: masks)
            masks.removeAll(keepingCapacity: true)
            bytes = 0
            token = Self.nextToken()
        }
        let view = mask?.view ?? MaskTexels()
        s.pointee = CachedOutline.MaskSlot(token: token, mask: view)
        if let mask {
            masks.append(mask)
            bytes += mask.byteCount
            misses += 1
        }
        return mask == nil ? nil : view
    }

    private func make(_ o: Polygons) -> GlyphMask? {
        guard !o.isEmpty, o.minX < o.maxX, o.minY < o.maxY else { return nil }
        let left = Int(o.minX.rounded(.down)), top = Int(o.minY.rounded(.down))
        let width = Int(o.maxX.rounded(.up)) - left, height = Int(o.maxY.rounded(.up)) - top
        guard width > 0, height > 0 else { return nil }
        let mask = GlyphMask(left: left, top: top, width: width, height: height)
        rasterizer.render(o, contours: 0 ..< o.contourCount, rule: .nonZero, antialiased: true,
                          piece: PixelRect(x: left, y: top, width: width, height: height), format: .r8,
                          out: UnsafeMutableRawPointer(mask.texels), rowBytes: width, keepsTrace: false)
        return mask
    }
}
