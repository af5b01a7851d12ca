// Glyph coverage masks of the raster atlas: each glyph rasterized once per face, glyph, device em and quarter
// pixel step, then copied to every place it is drawn.
//
// Design note. Text lowered as glyph placements (`TextLowering.place`) reaches the raster atlas as a list of
// (cache key, pixel, outline). A worker turns each key into an R8 mask with its own `CoverageAccumulator` the
// first time it meets it (the outline is already at the glyph's quarter-pixel step, so the mask is exact for
// every pixel it is placed at), and a text piece's coverage is then the sum of its glyphs' masks
// (`CoverageAccumulator.compose`) instead of an accumulation over the line's whole box. Measured on
// S6-text (500 lines, 15 000 glyphs): see docs/DESIGN-NOTES.md. Each worker keeps its own cache (no locks;
// a glyph may be rasterized once per worker), bounded by `maxBytes`.

import Foundation

final class GlyphMaskCache {
    private var masks: [GlyphPolygonCache.Key: GlyphMask] = [:]
    private let rasterizer = CoverageAccumulator()
    /// Texel bytes held by all masks.
    private(set) var bytes = 0
    /// Masks made since the cache was created.
    private(set) var misses = 0
    var count: Int { masks.count }

    /// 8 MiB of masks per worker: ~20 000 glyphs of 20 × 20 px, far more than a frame of ordinary text meets.
    /// Past it the cache starts over.
    static let maxBytes = 8 << 20

    /// The mask of `glyph`'s outline, nil when it covers no pixel.
    func mask(for glyph: PlacedGlyph) -> GlyphMask? {
        if let hit = masks[glyph.key] { return hit }
        let o = glyph.outline.polygons
        guard !o.isEmpty, o.minX < o.maxX, o.minY < o.maxY else { return nil }
        let left = Int(o.minX.rounded(.down)), top = Int(o.minY.rounded(.down))
        let width = Int(o.maxX.rounded(.up)) - left, height = Int(o.maxY.rounded(.up)) - top
        guard width > 0, height > 0 else { return nil }
        var texels = [UInt8](repeating: 0, count: width * height)
        texels.withUnsafeMutableBytes { out in
            rasterizer.render(o, contours: 0 ..< o.contourCount, rule: .nonZero, antialiased: true,
                              piece: PixelRect(x: left, y: top, width: width, height: height), format: .r8,
                              out: out.baseAddress!, rowBytes: width)
        }
        if bytes + texels.count > Self.maxBytes {
            masks.removeAll(keepingCapacity: true)
            bytes = 0
        }
        let mask = GlyphMask(left: left, top: top, width: width, height: height, texels: texels)
        masks[glyph.key] = mask
        bytes += texels.count
        misses += 1
        return mask
    }
}
