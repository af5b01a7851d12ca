// One font file face, opened twice: by FreeType (outlines, post/OS2 decoration metrics) and by HarfBuzz
// (shaping, extents). HarfBuzz reads the file's blob with its own OpenType functions, the ones `hb-shape` uses,
// so the engine's advances are HarfBuzz's to the unit; an hb_font is immutable after creation and safe to shape
// with from several threads. FreeType is not: every FreeType call in the engine holds `FreeTypeLibrary.lock`.
import CText
import Foundation

/// The process's one FT_Library and the lock every FreeType call takes (FT_New_Face touches the library,
/// FT_Load_Glyph the face's glyph slot; one lock covers both, and outlines are cached so it is rarely taken).
package enum FreeTypeLibrary {
    package static let lock = NSLock()
    nonisolated(unsafe) static let library: FT_Library? = {
        var library: FT_Library?
        return FT_Init_FreeType(&library) == 0 ? library : nil
    }()

    /// FreeType's text for `error`. Debian's FreeType is built without FT_CONFIG_OPTION_ERROR_STRINGS, so
    /// FT_Error_String gives NULL; the codes a bad file gives are spelled out here (fterrdef.h's words).
    package static func describe(_ error: FT_Error) -> String {
        if let text = FT_Error_String(error) { return String(cString: text) }
        switch error {
        case 0x01: return "cannot open resource"
        case 0x02: return "unknown file format"
        case 0x03: return "broken file"
        case 0x06: return "invalid argument"
        case 0x07: return "unimplemented feature"
        case 0x08: return "broken table"
        case 0x09: return "broken offset within table"
        case 0x10: return "invalid glyph index"
        case 0x23: return "invalid outline"
        case 0x40: return "out of memory"
        case 0x51: return "stream operation error"
        case 0x55: return "invalid stream operation"
        case 0x56: return "invalid stream seek"
        case 0x58: return "invalid stream read"
        default: return String(format: "FreeType error 0x%02X", Int(error))
        }
    }
}

/// One font file opened with FreeType (one face of it), shared by all sizes. Thread-safe.
///
/// DejaVu Sans: unitsPerEm 2048, ascender 1901, descender −483, lineGap 0 (HarfBuzz's horizontal extents, from
/// hhea). `outline(glyph:)` of its 'o' is two closed contours in font units, y up.
package final class FontFace: @unchecked Sendable, CustomStringConvertible {
    /// Process-unique, assigned in load order.
    package let id: Int
    package let path: String
    package let index: Int
    package let familyName: String
    package let styleName: String
    package let unitsPerEm: Double
    /// Font units, descender negative (HarfBuzz h-extents).
    package let ascender: Double
    package let descender: Double
    package let lineGap: Double
    /// Bitmap colour glyphs (CBDT/sbix, e.g. Noto Color Emoji): no outlines to fill.
    package let hasColorBitmaps: Bool
    /// Underline centre below the baseline is negative (FreeType's `underline_position`, from post), font units.
    package let underlinePosition: Double
    package let underlineThickness: Double
    /// Top of the strikeout stroke above the baseline (OS/2 yStrikeoutPosition), and its thickness, font units.
    package let strikeoutPosition: Double
    package let strikeoutSize: Double

    private let ftFace: FT_Face
    package let hbFont: OpaquePointer   // hb_font_t *
    private var outlines: [UInt32: Path] = [:]   // guarded by FreeTypeLibrary.lock
    private var colorBitmaps: [UInt32: ColorGlyphBitmap?] = [:]   // guarded by FreeTypeLibrary.lock

    /// Opens face `index` of `path`; throws `TextError.invalidFont` with FreeType's words.
    package init(path: String, index: Int, id: Int) throws {
        FreeTypeLibrary.lock.lock()
        defer { FreeTypeLibrary.lock.unlock() }
        guard let library = FreeTypeLibrary.library else {
            throw TextError.invalidFont(path: path, reason: "FreeType could not be initialised")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, FT_Long(index), &face)
        guard error == 0, let face else {
            throw TextError.invalidFont(path: path, reason: FreeTypeLibrary.describe(error))
        }
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            FT_Done_Face(face)
            throw TextError.invalidFont(path: path, reason: "HarfBuzz could not read the file")
        }
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        let font = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_font_make_immutable(font)
        // HarfBuzz's upem (the head table's), not FreeType's: FreeType leaves units_per_EM 0 for a bitmap-only
        // face such as Noto Color Emoji, whose advances HarfBuzz still gives in head units.
        let upem = Double(hb_face_get_upem(hb_font_get_face(font)))
        guard upem > 0 else {
            hb_font_destroy(font)
            FT_Done_Face(face)
            throw TextError.invalidFont(path: path, reason: "no units per em in the head table")
        }

        self.id = id
        self.path = path
        self.index = index
        self.ftFace = face
        self.hbFont = font
        familyName = face.pointee.family_name.map { String(cString: $0) } ?? ""
        styleName = face.pointee.style_name.map { String(cString: $0) } ?? ""
        unitsPerEm = upem
        // hb_font_create's scale is the face's upem, so HarfBuzz answers in font units.
        var extents = hb_font_extents_t()
        if hb_font_get_h_extents(font, &extents) != 0, extents.ascender != 0 || extents.descender != 0 {
            ascender = Double(extents.ascender)
            descender = Double(extents.descender)
            lineGap = Double(extents.line_gap)
        } else {
            ascender = Double(face.pointee.ascender)
            descender = Double(face.pointee.descender)
            lineGap = max(0, Double(face.pointee.height) - ascender + descender)
        }
        hasColorBitmaps = ctext_face_has_color(face) != 0 || hb_ot_color_has_png(hb_font_get_face(font)) != 0
        // Fallbacks when a table is missing: 1/20 em bars, underline 1/10 em below, strikeout at 1/4 em
        // (about half a Latin x-height).
        let thickness = face.pointee.underline_thickness > 0 ? Double(face.pointee.underline_thickness) : upem / 20
        underlineThickness = thickness
        underlinePosition = face.pointee.underline_position != 0 ? Double(face.pointee.underline_position) : -upem / 10
        if let os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self),
           os2.pointee.version != 0xFFFF, os2.pointee.yStrikeoutSize > 0 {
            strikeoutPosition = Double(os2.pointee.yStrikeoutPosition)
            strikeoutSize = Double(os2.pointee.yStrikeoutSize)
        } else {
            strikeoutPosition = upem / 4 + thickness / 2
            strikeoutSize = thickness
        }
    }

    deinit {
        hb_font_destroy(hbFont)
        FreeTypeLibrary.lock.lock()
        FT_Done_Face(ftFace)
        FreeTypeLibrary.lock.unlock()
    }

    /// The glyph for `scalar` in this face's cmap, or nil (HarfBuzz; thread-safe).
    package func glyph(for scalar: UInt32) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(hbFont, scalar, &glyph) != 0 ? glyph : nil
    }

    /// The glyph named `name` in the font's glyph-name table (the post table's names; FreeType), or nil when the
    /// font has no such name or no names (used by system images: the icon font names its glyphs).
    package func glyph(named name: String) -> UInt32? {
        FreeTypeLibrary.lock.lock()
        defer { FreeTypeLibrary.lock.unlock() }
        // FT_HAS_GLYPH_NAMES (a macro Swift cannot import): FT_FACE_FLAG_GLYPH_NAMES is bit 9.
        guard ftFace.pointee.face_flags & (1 << 9) != 0 else { return nil }
        let index = FT_Get_Name_Index(ftFace, name)
        return index != 0 ? UInt32(index) : nil
    }

    /// The glyph's outline in font units, y UP as in the font, unhinted; empty for a bitmap-only glyph, a space,
    /// or a glyph FreeType cannot load. Contours wind as TrueType's do (outer contours clockwise in y-up
    /// coordinates): a PostScript/CFF outline, which winds the other way, is reversed, so a nonzero fill of
    /// glyphs from different fonts adds up. Quadratic and cubic segments stay quad/cubic elements. Cached.
    package func outline(glyph: UInt32) -> Path {
        FreeTypeLibrary.lock.lock()
        defer { FreeTypeLibrary.lock.unlock() }
        if let cached = outlines[glyph] { return cached }
        var path = Path()
        let flags = Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP | FT_LOAD_NO_SCALE)
        if FT_Load_Glyph(ftFace, glyph, flags) == 0, let slot = ftFace.pointee.glyph,
           slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            // Reversed here rather than with FT_Outline_Reverse: that moves a cubic control point to the start of
            // a CFF contour, which FT_Outline_Decompose then refuses (FT_Err_Invalid_Outline).
            let reverse = FT_Outline_Get_Orientation(&slot.pointee.outline) == FT_ORIENTATION_POSTSCRIPT
            var sink = ctext_outline_sink()
            if ctext_outline_decompose(&slot.pointee.outline, &sink) == 0 {
                let elements = UnsafeBufferPointer(start: sink.elements, count: sink.count)
                var contourStart = 0
                while contourStart < elements.count {
                    var contourEnd = contourStart + 1
                    while contourEnd < elements.count && elements[contourEnd].verb != 0 { contourEnd += 1 }
                    Self.append(contour: elements[contourStart..<contourEnd], reversed: reverse, to: &path)
                    contourStart = contourEnd
                }
            }
            free(sink.elements)
        }
        outlines[glyph] = path
        return path
    }

    /// Appends one contour (a move, then segments) to `path`, closed; `reversed` walks it backwards:
    /// move P0, seg → P1, …, seg → Pn becomes move Pn, seg → Pn−1, …, seg → P0 with each segment's controls swapped.
    private static func append(contour: Slice<UnsafeBufferPointer<ctext_outline_element>>, reversed: Bool,
                               to path: inout Path) {
        func point(_ e: ctext_outline_element) -> CGPoint { CGPoint(x: e.x, y: e.y) }
        if !reversed {
            for e in contour {
                let to = point(e)
                switch e.verb {
                case 0: path.move(to: to)
                case 1: path.addLine(to: to)
                case 2: path.addQuadCurve(to: to, control: CGPoint(x: e.x1, y: e.y1))
                default: path.addCurve(to: to, control1: CGPoint(x: e.x1, y: e.y1), control2: CGPoint(x: e.x2, y: e.y2))
                }
            }
        } else {
            path.move(to: point(contour[contour.endIndex - 1]))
            for k in stride(from: contour.endIndex - 1, to: contour.startIndex, by: -1) {
                let e = contour[k], to = point(contour[k - 1])
                switch e.verb {
                case 1: path.addLine(to: to)
                case 2: path.addQuadCurve(to: to, control: CGPoint(x: e.x1, y: e.y1))
                default: path.addCurve(to: to, control1: CGPoint(x: e.x2, y: e.y2), control2: CGPoint(x: e.x1, y: e.y1))
                }
            }
        }
        path.closeSubpath()
    }

    /// A colour glyph's bitmap from the face's first strike (`FT_Select_Size` 0, `FT_LOAD_COLOR`: FreeType
    /// gives premultiplied BGRA), as premultiplied RGBA, with its placement at the strike's size; nil when the
    /// face has no colour bitmaps or the glyph has none. Cached. Noto Color Emoji's one strike is 109 ppem, its
    /// 😀 136 × 128 px.
    package func colorBitmap(glyph: UInt32) -> ColorGlyphBitmap? {
        guard hasColorBitmaps else { return nil }
        FreeTypeLibrary.lock.lock()
        defer { FreeTypeLibrary.lock.unlock() }
        if let cached = colorBitmaps[glyph] { return cached }
        var result: ColorGlyphBitmap?
        if ftFace.pointee.num_fixed_sizes > 0, FT_Select_Size(ftFace, 0) == 0,
           FT_Load_Glyph(ftFace, glyph, Int32(FT_LOAD_COLOR)) == 0, let slot = ftFace.pointee.glyph,
           slot.pointee.bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue),
           let buffer = slot.pointee.bitmap.buffer, let size = ftFace.pointee.size {
            let bitmap = slot.pointee.bitmap
            let w = Int(bitmap.width), h = Int(bitmap.rows), pitch = Int(bitmap.pitch)
            let ppem = Double(size.pointee.metrics.y_ppem)
            if w > 0, h > 0, ppem > 0, pitch >= 4 * w {
                var pixels = [UInt8](repeating: 0, count: w * h * 4)
                for y in 0 ..< h {
                    let row = buffer + y * pitch
                    for x in 0 ..< w {
                        let o = (y * w + x) * 4
                        pixels[o] = row[4 * x + 2]
                        pixels[o + 1] = row[4 * x + 1]
                        pixels[o + 2] = row[4 * x]
                        pixels[o + 3] = row[4 * x + 3]
                    }
                }
                result = ColorGlyphBitmap(image: RasterImage(width: w, height: h, pixels: pixels),
                                          left: Double(slot.pointee.bitmap_left), top: Double(slot.pointee.bitmap_top),
                                          ppem: ppem)
            }
        }
        colorBitmaps[glyph] = .some(result)
        return result
    }

    /// "DejaVu Sans Book (/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf)"
    package var description: String {
        "\(familyName) \(styleName) (\(path)\(index == 0 ? "" : "#\(index)"))"
    }
}

/// A colour glyph's bitmap (`FontFace.colorBitmap`): premultiplied pixels, and where they go at the strike's
/// size `ppem`: the top-left pixel `left` right of the glyph origin and `top` above the baseline.
package struct ColorGlyphBitmap: Sendable {
    package let image: RasterImage
    package let left: Double
    package let top: Double
    package let ppem: Double

    /// The bitmap's rectangle in points (y down) for a glyph of `size` points whose origin is (x, y).
    package func rect(size: Double, x: Double, y: Double) -> CGRect {
        let s = size / ppem
        return CGRect(x: x + left * s, y: y - top * s, width: Double(image.width) * s, height: Double(image.height) * s)
    }
}
