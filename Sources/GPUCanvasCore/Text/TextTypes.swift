// The text engine's values: what a run of text asks for (FontRequest, TextSpan) and what the engine answers
// (TextLayout: positioned glyphs, lines, decoration bars). Everything here is in points; font units appear only
// inside FontFace.
import Foundation

/// What a run of text asks of the font system: SwiftUI's Font reduced to numbers.
///
/// `FontRequest(family: "Arial", size: 20, weight: 700)` matches Liberation Sans Bold here (fontconfig's metric
/// alias); `FontRequest(size: 17)` is the system font (Inter Regular, see `FontMatcher`).
package struct FontRequest: Hashable, Sendable {
    /// As written in code ("Arial Rounded MT Bold"); nil = the system font of `design`.
    package var family: String?
    /// A font file path (scene files may name one); wins over `family`.
    package var file: String?
    /// Points (the em size).
    package var size: Double
    /// 100…900: regular 400, medium 500, semibold 600, bold 700.
    package var weight: Double
    package var italic: Bool
    package var design: Font.Design
    /// HarfBuzz feature "tnum" (tabular figures).
    package var monospacedDigit: Bool

    package init(family: String? = nil, file: String? = nil, size: Double, weight: Double = 400, italic: Bool = false,
         design: Font.Design = .default, monospacedDigit: Bool = false) {
        self.family = family; self.file = file; self.size = size; self.weight = weight; self.italic = italic
        self.design = design; self.monospacedDigit = monospacedDigit
    }

    /// The request without its size: faces and fallback lists do not depend on it, so they are cached per key.
    package var faceKey: FontFaceKey {
        FontFaceKey(family: family, file: file, weight: weight.isFinite ? weight : 400, italic: italic, design: design)
    }
}

/// A `FontRequest` less what does not change which face is chosen (size, tnum).
package struct FontFaceKey: Hashable, Sendable {
    package var family: String?
    package var file: String?
    package var weight: Double
    package var italic: Bool
    package var design: Font.Design
}

/// A run of text with one set of attributes.
package struct TextSpan: Sendable, Equatable {
    package var string: String
    package var font: FontRequest
    /// Extra points added after each glyph (SwiftUI kerning).
    package var kerning: Double = 0
    /// Extra points added after each glyph, ligatures disabled when ≠ 0 (SwiftUI tracking).
    package var tracking: Double = 0
    /// Points, positive = up.
    package var baselineOffset: Double = 0
    package var underline: Bool = false
    package var strikethrough: Bool = false

    package init(string: String, font: FontRequest, kerning: Double = 0, tracking: Double = 0, baselineOffset: Double = 0,
         underline: Bool = false, strikethrough: Bool = false) {
        self.string = string; self.font = font; self.kerning = kerning; self.tracking = tracking
        self.baselineOffset = baselineOffset; self.underline = underline; self.strikethrough = strikethrough
    }
}

/// One glyph placed in a layout.
package struct PositionedGlyph: Sendable, Equatable {
    package var faceID: Int
    package var glyph: UInt32
    /// The glyph origin (its baseline point) in points, y DOWN, relative to the layout's top-left.
    package var x: Double
    package var y: Double
    /// Em size in points.
    package var size: Double
    /// Which TextSpan it came from.
    package var span: Int
    /// The pen's advance after this glyph, in points (kerning and tracking included): `Text.Layout`'s widths.
    package var advance: Double = 0
    /// `x` less the pen position it was drawn at (HarfBuzz's x offset: non-zero for marks).
    package var xOffset: Double = 0
    /// UAX #9 embedding level of its run: odd is right-to-left.
    package var level: UInt8 = 0
    /// Offset, in characters (grapheme clusters) of the spans' strings joined, of its cluster's first character.
    package var character: Int = 0
}

package struct LaidOutLine: Sendable, Equatable {
    /// Indices into `TextLayout.glyphs`, in visual (left-to-right) order.
    package var glyphs: Range<Int>
    /// y of the baseline from the layout's top.
    package var baseline: Double
    /// Trailing whitespace excluded.
    package var width: Double
    /// > 0, in points.
    package var ascent: Double
    package var descent: Double
    /// x of the line's start (the pen before its first glyph): 0 from the engine, moved by alignment.
    package var x: Double = 0
}

/// An underline or strikethrough bar, in layout coordinates.
package struct TextDecoration: Sendable, Equatable {
    package enum Kind: Sendable, Equatable { case underline, strikethrough }
    package var rect: CGRect
    package var span: Int
    package var kind: Kind
}

package struct TextLayout: Sendable, Equatable {
    package var glyphs: [PositionedGlyph]
    package var lines: [LaidOutLine]
    package var decorations: [TextDecoration]
    /// width = widest line (trailing spaces excluded), height = sum of line heights (each with its line gap).
    package var size: CGSize
    /// From the top.
    package var firstBaseline: Double
    package var lastBaseline: Double

    package static let empty = TextLayout(glyphs: [], lines: [], decorations: [], size: .zero, firstBaseline: 0, lastBaseline: 0)
}

package enum TextError: Error, Equatable, CustomStringConvertible {
    /// A font file that FreeType or HarfBuzz refused: `invalid font /tmp/x.ttf: unknown file format`.
    case invalidFont(path: String, reason: String)
    /// ICU refused a paragraph (only when it could not allocate): `Unicode algorithm failed: ubidi_setPara:
    /// U_MEMORY_ALLOCATION_ERROR`.
    case unicode(String)

    package var description: String {
        switch self {
        case .invalidFont(let path, let reason): return "invalid font \(path): \(reason)"
        case .unicode(let reason): return "Unicode algorithm failed: \(reason)"
        }
    }
}
