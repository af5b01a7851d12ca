// The text engine: spans → paragraphs → UAX #9 bidi levels (ICU) → font runs (fontconfig fallback per character)
// → HarfBuzz shaping → UAX #14 line breaking (ICU) → positioned glyphs in points, y down, left-aligned at x = 0.
//
// Decisions (SwiftUI's behaviour as far as it can be told from outside):
// - Line height = ascent + descent + line gap for every line, the last included (CoreText's typographic line
//   height includes the leading). Baseline k+1 = baseline k + descent k + gap k + ascent k+1.
// - An empty or whitespace-only string (or paragraph) is one empty line of the span's primary font: zero width,
//   one line's height.
// - "\n", "\r\n", "\r", VT, FF, U+2028, U+2029 and U+0085 end a paragraph (a line that always breaks). Other
//   control characters (Cc) but "\t" are dropped: no .notdef boxes.
// - Tab stops are NSParagraphStyle's default (what SwiftUI `Text` gets): 12 left stops every 28 pt, whatever the
//   font size, and `defaultTabInterval` 0. A "\t" is shaped as a space (its glyph draws nothing) whose advance
//   takes the pen to the first stop strictly after it, measured from the line's start edge in the paragraph's
//   direction: the width of the line's characters before it in logical order (a right-to-left line's tab is
//   measured from its right end, as NSTextTab's locations are). For bidi and line breaking a tab stays U+0009
//   (UAX #9 class S: rule L1 sets it to the paragraph's level, so what precedes it logically lies between it and
//   the start edge, in mixed lines too; UAX #14 class BA). Apple is silent on these, decided here (`TabStops`):
//   past the twelfth stop (336 pt) a tab is one space; one at a wrap point hangs at the end of its line (no
//   width, not drawn) and the next line starts after it; a tab in a wrapped paragraph's later line is measured
//   from that line's start; alignment (centre, trailing) moves a line whole after its tabs are resolved.
// - A size that is not a finite number > 0 in any span gives `TextLayout.empty` (the API layer reports it).
// - Bidi: UAX #9 by ICU's ubidi (`BidiParagraph`), once per paragraph. The paragraph's direction is its first
//   strong character's, left-to-right when none (rules P2–P3; the API has no layout direction). Runs are split
//   where the level changes and shaped in their direction (HarfBuzz mirrors brackets in right-to-left runs,
//   rule L4); each line's runs are reordered by rule L2 on their levels (`BidiParagraph.visualOrder`). Explicit
//   controls (LRE…PDF, LRI…PDI, LRM/RLM) act on the levels and draw nothing (HarfBuzz hides default ignorables).
//   Lines stay left-aligned whatever the direction.
// - Line breaking: UAX #14 by ICU's line rules for the root locale (`UnicodeAlgorithms.lineBreakOpportunities`),
//   taken at grapheme boundaries only.
// - Runs are shaped once per paragraph; a line break inside a run keeps the advances shaped across it (a
//   kerning pair or ligature that straddles a break is not re-shaped).
//
// Layout is linear in the text's length (TextEngineTests.testMillionCharactersLayOutInLinearTime; its timings
// are in docs/performance.md, "Text").
import CText
import Foundation

package final class TextEngine: @unchecked Sendable {
    package static let shared = TextEngine()

    private let lock = NSLock()
    private var faces: [FontFace] = []           // load order
    private var facesByID: [Int: FontFace] = [:]
    private var facesByFile: [String: FontFace] = [:]
    private var failedFiles: [String: TextError] = [:]
    private var fallbackChoice: [FallbackKey: Int] = [:]   // face id, or -1: no installed face has it
    private let matcher = FontMatcher()

    private struct FallbackKey: Hashable { var key: FontFaceKey; var scalar: UInt32; var color: Bool }

    package init() {}

    package func face(id: Int) -> FontFace {
        lock.lock()
        defer { lock.unlock() }
        return facesByID[id]!
    }

    /// Face ids are unique in the process (not per engine): the next one to hand out.
    private static let idLock = NSLock()
    nonisolated(unsafe) private static var nextFaceID = 0
    private static func makeFaceID() -> Int {
        idLock.lock()
        defer { idLock.unlock() }
        nextFaceID += 1
        return nextFaceID - 1
    }

    /// Every face opened so far, in load order (id order).
    package var loadedFaces: [FontFace] {
        lock.lock()
        defer { lock.unlock() }
        return faces
    }

    /// The face at `path` (face `index`), opened once. Throws `TextError.invalidFont` for a file FreeType refuses
    /// (remembered: the file is not tried again).
    package func loadFace(path: String, index: Int = 0) throws -> FontFace {
        let key = "\(path)#\(index)"
        lock.lock()
        defer { lock.unlock() }
        if let face = facesByFile[key] { return face }
        if let error = failedFiles[key] { throw error }
        do {
            let face = try FontFace(path: path, index: index, id: Self.makeFaceID())
            ResourceLoads.note(\.facesOpened)
            faces.append(face)
            facesByID[face.id] = face
            facesByFile[key] = face
            return face
        } catch let error as TextError {
            failedFiles[key] = error
            throw error
        }
    }

    /// The primary face for `request`: its file, or fontconfig's match.
    package func primaryFace(_ request: FontRequest) throws -> FontFace {
        guard let match = matcher.match(request.faceKey) else {
            throw TextError.invalidFont(path: request.family ?? "(system font)", reason: "fontconfig found no font")
        }
        return try loadFace(path: match.primary.path, index: match.primary.index)
    }

    /// The face that draws `scalar` when the primary lacks it: the first face of fontconfig's sorted list for the
    /// request that covers it (colour faces first when `color`); nil when none does. Faces that fail to open are
    /// skipped.
    package func fallbackFace(for scalar: UInt32, request key: FontFaceKey, color: Bool) -> FontFace? {
        let cacheKey = FallbackKey(key: key, scalar: scalar, color: color)
        lock.lock()
        if let id = fallbackChoice[cacheKey] {
            lock.unlock()
            return id >= 0 ? face(id: id) : nil
        }
        lock.unlock()
        var chosen: FontFace?
        let fallbacks = matcher.fallbacks(key)
        let ordered = color ? fallbacks.filter(\.isColor) + fallbacks.filter { !$0.isColor } : fallbacks
        for candidate in ordered where candidate.covers(scalar) {
            if let face = try? loadFace(path: candidate.path, index: candidate.index),
               face.glyph(for: scalar) != nil {
                chosen = face
                break
            }
        }
        lock.lock()
        fallbackChoice[cacheKey] = chosen?.id ?? -1
        lock.unlock()
        return chosen
    }

    /// `"Arial → Liberation Sans Regular (/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf)"`;
    /// the system font reads `"system font (default) → Inter Regular (…)"`.
    package func describeMatch(_ request: FontRequest) -> String {
        let asked = request.file ?? request.family ?? "system font (\(request.design))"
        do {
            return "\(asked) → \(try primaryFace(request))"
        } catch {
            return "\(asked) → \(error)"
        }
    }

    /// Lays out `spans` as one paragraph flow; `maxWidth` nil (or not a finite number) does not wrap.
    ///
    /// `layout([TextSpan(string: "Hi", font: FontRequest(family: "DejaVu Sans", size: 20))], maxWidth: nil)`
    /// → 2 glyphs on one line, baseline 18.564 (1901 × 20/2048), size 20.596 × 23.281 ((1540 + 569) × 20/2048 by
    /// (1901 + 483) × 20/2048).
    package func layout(_ spans: [TextSpan], maxWidth: Double?) throws -> TextLayout {
        // Every span's face is opened first, so an unreadable font file is the same error at any size (size 0 too).
        guard !spans.isEmpty, try spans.map({ _ = try primaryFace($0.font); return $0.font.size.isFinite && $0.font.size > 0 }).allSatisfy({ $0 }) else { return .empty }
        let wrapWidth = maxWidth.flatMap { $0.isFinite ? max($0, 0) : nil }
        var builder = try LayoutBuilder(engine: self, spans: spans)
        return try builder.run(maxWidth: wrapWidth)
    }
}

// MARK: - Layout

/// One layout call's working state.
private struct LayoutBuilder {
    let engine: TextEngine
    let spans: [TextSpan]
    let primaries: [FontFace]
    /// Per span: HarfBuzz features (tnum, liga/clig off).
    let features: [[hb_feature_t]]
    var faceByID: [Int: FontFace] = [:]

    var glyphs: [PositionedGlyph] = []
    var lines: [LaidOutLine] = []
    var decorations: [TextDecoration] = []
    var top = 0.0          // y of the next line's top
    var width = 0.0

    init(engine: TextEngine, spans: [TextSpan]) throws {
        self.engine = engine
        self.spans = spans
        primaries = try spans.map { try engine.primaryFace($0.font) }
        features = spans.map { span in
            var list: [String] = []
            if span.font.monospacedDigit { list.append("tnum") }
            if span.tracking != 0 { list += ["liga=0", "clig=0"] }
            return list.map { text in
                var feature = hb_feature_t()
                _ = hb_feature_from_string(text, -1, &feature)
                return feature
            }
        }
        for face in primaries { faceByID[face.id] = face }
    }

    mutating func run(maxWidth: Double?) throws -> TextLayout {
        var paragraph = Paragraph()
        var fallbackMemo: [MemoKey: Int] = [:]
        var sourceOffset = 0   // characters of the spans' strings before `character`
        for (spanIndex, span) in spans.enumerated() {
            let primary = primaries[spanIndex]
            let key = span.font.faceKey
            for character in span.string {
                paragraph.nextSource = sourceOffset
                sourceOffset += 1
                let scalars = character.unicodeScalars
                let first = scalars.first!.value
                if Paragraph.isHardBreak(first) {
                    paragraph.endSpan = spanIndex
                    try layOut(paragraph, maxWidth: maxWidth)
                    paragraph = Paragraph()
                    continue
                }
                if first == 0x09 {
                    paragraph.tabs.append(paragraph.scalars.count)
                    paragraph.append(" ".unicodeScalars, span: spanIndex, face: primary.id, space: true)
                    continue
                }
                if Paragraph.isControl(first) { continue }
                // The face: the primary when it has the base character (or it is a space), else a fallback.
                // A grapheme is drawn as colour emoji (UTS #51) when it asks for it (VS16), when it carries a skin
                // tone (an emoji modifier sequence: "🖐🏻" has no VS16 and its base no emoji presentation), or when
                // its base has emoji presentation and no VS15 asks for text.
                let emoji = scalars.contains { $0.value == 0xFE0F || $0.properties.isEmojiModifier }
                    || (first >= 0x2000 && scalars.first!.properties.isEmojiPresentation
                        && !scalars.contains { $0.value == 0xFE0E })
                var faceID = primary.id
                // Default-ignorable characters (bidi and joiner controls, variation selectors) draw nothing
                // (HarfBuzz hides them): they stay in the primary face, so no fallback face changes the line's metrics.
                if emoji || (first > 0x20 && primary.glyph(for: first) == nil
                             && !scalars.first!.properties.isDefaultIgnorableCodePoint) {
                    let memoKey = MemoKey(span: spanIndex, scalar: first, emoji: emoji)
                    if let id = fallbackMemo[memoKey] {
                        faceID = id
                    } else {
                        if let face = engine.fallbackFace(for: first, request: key, color: emoji) {
                            faceID = face.id
                            faceByID[face.id] = face
                        }
                        fallbackMemo[memoKey] = faceID
                    }
                }
                paragraph.append(scalars, span: spanIndex, face: faceID, space: character.isWhitespace)
            }
        }
        paragraph.endSpan = spans.count - 1
        try layOut(paragraph, maxWidth: maxWidth)
        let first = lines.first?.baseline ?? 0
        let last = lines.last?.baseline ?? 0
        return TextLayout(glyphs: glyphs, lines: lines, decorations: decorations,
                          size: CGSize(width: width, height: top), firstBaseline: first, lastBaseline: last)
    }

    private struct MemoKey: Hashable { var span: Int; var scalar: UInt32; var emoji: Bool }

    /// A glyph of the paragraph in logical order, advance in points (kerning and tracking included).
    private struct ShapedGlyph {
        var glyph: UInt32
        var cluster: Int
        var advance: Double
        var dx: Double, dy: Double
        var faceID: Int
        var span: Int
        var run: Int
        /// `Paragraph.source` of its cluster.
        var source = 0
    }

    private struct Run {
        var range: Range<Int>
        /// UAX #9 embedding level: odd is right-to-left.
        var level: UInt8
        var rightToLeft: Bool { level % 2 == 1 }
    }

    private mutating func layOut(_ p: Paragraph, maxWidth: Double?) throws {
        let n = p.scalars.count
        let levels = try BidiParagraph(p.unicodeText, direction: .auto).levels
        // Runs: maximal ranges of one span, one face, one level.
        var runs: [Run] = []
        var start = 0
        for i in 0...n where i == n || p.span[i] != p.span[start] || p.face[i] != p.face[start]
            || levels[i] != levels[start] {
            if i > start { runs.append(Run(range: start..<i, level: levels[start])) }
            start = i
        }
        // Shape.
        var shaped: [ShapedGlyph] = []
        shaped.reserveCapacity(n)
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        p.scalars.withUnsafeBufferPointer { text in
            for (runIndex, run) in runs.enumerated() {
                let spanIndex = p.span[run.range.lowerBound]
                let span = spans[spanIndex]
                let face = faceByID[p.face[run.range.lowerBound]]!
                let scale = span.font.size / face.unitsPerEm
                let extra = span.kerning + span.tracking
                hb_buffer_clear_contents(buffer)
                hb_buffer_add_utf32(buffer, text.baseAddress, Int32(n), UInt32(run.range.lowerBound),
                                    Int32(run.range.count))
                hb_buffer_set_direction(buffer, run.rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
                hb_buffer_guess_segment_properties(buffer)
                features[spanIndex].withUnsafeBufferPointer {
                    hb_shape(face.hbFont, buffer, $0.baseAddress, UInt32($0.count))
                }
                var count: UInt32 = 0
                let infos = hb_buffer_get_glyph_infos(buffer, &count)!
                let positions = hb_buffer_get_glyph_positions(buffer, &count)!
                let first = shaped.count
                for g in 0..<Int(count) {
                    let info = infos[g], pos = positions[g]
                    shaped.append(ShapedGlyph(
                        glyph: info.codepoint, cluster: Int(info.cluster),
                        advance: Double(pos.x_advance) * scale + extra,
                        dx: Double(pos.x_offset) * scale, dy: Double(pos.y_offset) * scale,
                        faceID: face.id, span: spanIndex, run: runIndex, source: p.source[Int(info.cluster)]))
                }
                if run.rightToLeft { shaped[first...].reverse() }   // HarfBuzz's visual order → logical
            }
        }
        // Per-character advances (a cluster's advance counts on its first character) and their prefix sums.
        var prefix = [Double](repeating: 0, count: n + 1)
        var glyphStart = [Int](repeating: shaped.count, count: n + 1)   // first glyph with cluster ≥ i
        do {
            var advance = [Double](repeating: 0, count: n)
            for g in shaped.indices.reversed() {
                advance[shaped[g].cluster] += shaped[g].advance
                glyphStart[shaped[g].cluster] = g
            }
            for i in stride(from: n - 1, through: 0, by: -1) where glyphStart[i] > glyphStart[i + 1] {
                glyphStart[i] = glyphStart[i + 1]
            }
            for i in 0..<n { prefix[i + 1] = prefix[i] + advance[i] }
        }
        // contentEnd[e]: the end of the last non-space character at or before e (trailing spaces trimmed).
        var contentEnd = [Int](repeating: 0, count: n + 1)
        for e in stride(from: 1, through: n, by: 1) { contentEnd[e] = p.space[e - 1] ? contentEnd[e - 1] : e }

        var tabs = TabStops(prefix: prefix, tabs: p.tabs)
        for line in try breakLines(p, prefix: prefix, contentEnd: contentEnd, maxWidth: maxWidth) {
            let end = max(contentEnd[line.upperBound], line.lowerBound)
            // Each tab's glyph (the space it is shaped as) takes the advance that reaches its stop on this line.
            if !p.tabs.isEmpty {
                tabs.startLine(at: line.lowerBound)
                for t in p.tabs[tabs.nextTab...] {
                    guard t < end else { break }
                    let before = tabs.pen(at: t)
                    let after = tabs.pen(at: t + 1)
                    if glyphStart[t] < glyphStart[t + 1] { shaped[glyphStart[t]].advance = after - before }
                }
            }
            place(glyphs: glyphStart[line.lowerBound]..<glyphStart[end], of: shaped, runs: runs,
                  emptySpan: n == 0 ? p.endSpan : p.span[line.lowerBound])
        }
    }

    /// Greedy UAX #14 breaking: each line ends at the last break opportunity whose content (trailing spaces
    /// excluded) fits `maxWidth`; a word wider than the line breaks between graphemes (at least one per line).
    /// "The quick brown fox" at 2 words' width → ["The quick ", "brown fox"].
    private func breakLines(_ p: Paragraph, prefix: [Double], contentEnd: [Int], maxWidth: Double?) throws
        -> [Range<Int>] {
        let n = p.scalars.count
        guard let maxWidth, n > 0 else { return [0..<n] }
        /// Widths are sums of HarfBuzz advances × size/upem; a line that fits exactly must not break on rounding.
        let fitTolerance = 1e-9 * max(1, maxWidth)
        let opportunity = try UnicodeAlgorithms.lineBreakOpportunities(p.unicodeText)
        var lines: [Range<Int>] = []
        var lineStart = 0
        var lastOpportunity = -1      // where the next line would start
        var lastGraphemeEnd = -1      // the previous grapheme boundary after lineStart
        var committedEnd = 0          // the end of the last grapheme measured and kept
        // The pen with tabs resolved from the line's start, and its value at the line's last content end (trailing
        // whitespace, tabs included, hangs: it never makes a line overflow).
        var pen = TabStops(prefix: prefix, tabs: p.tabs)
        var contentWidth = 0.0
        /// A new line from `lineStart`: the pen measured again over what it keeps of the previous one.
        func restart() {
            pen.startLine(at: lineStart)
            let kept = contentEnd[committedEnd]
            contentWidth = kept > lineStart ? pen.pen(at: kept) : 0
        }
        var i = 0
        while i < n {
            let end = i + 1
            guard end == n || p.graphemeStart[end] else { i += 1; continue }
            let isContent = contentEnd[end] == end
            let lineWidth = isContent ? pen.pen(at: end) : contentWidth
            if lineWidth > maxWidth + fitTolerance {
                if lastOpportunity > lineStart {
                    lines.append(lineStart..<lastOpportunity)
                    lineStart = lastOpportunity
                    lastGraphemeEnd = -1
                    restart()
                    continue   // measure this character again on the new line
                }
                if lastGraphemeEnd > lineStart {
                    lines.append(lineStart..<lastGraphemeEnd)
                    lineStart = lastGraphemeEnd
                    lastGraphemeEnd = -1
                    restart()
                    continue
                }
            }
            if isContent { contentWidth = lineWidth }
            if end < n && opportunity[end] { lastOpportunity = end }
            lastGraphemeEnd = end
            committedEnd = end
            i += 1
        }
        lines.append(lineStart..<n)
        return lines
    }

    /// Places one line's glyphs (logical `range` of `shaped`) left to right, runs in bidi order, and its bars.
    private mutating func place(glyphs range: Range<Int>, of shaped: [ShapedGlyph], runs: [Run], emptySpan: Int) {
        // Segments: the line's pieces of each run (one level each), in visual order by UAX #9 L2. The line's
        // trailing whitespace, which rule L1 would reset to the paragraph level, is not drawn.
        var pieces: [(range: Range<Int>, level: UInt8)] = []
        var start = range.lowerBound
        for g in range where g + 1 == range.upperBound || shaped[g + 1].run != shaped[g].run {
            pieces.append((start..<(g + 1), runs[shaped[g].run].level))
            start = g + 1
        }
        let segments = BidiParagraph.visualOrder(levels: pieces.map(\.level)).map { pieces[$0] }
        // Metrics: the faces drawn on the line, or the span's primary for an empty line.
        var ascent = 0.0, descent = 0.0, gap = 0.0
        struct FaceAtSize: Hashable { var face: Int; var span: Int }
        var seen = Set<FaceAtSize>()
        for g in range where seen.insert(FaceAtSize(face: shaped[g].faceID, span: shaped[g].span)).inserted {
            let face = faceByID[shaped[g].faceID]!
            let scale = spans[shaped[g].span].font.size / face.unitsPerEm
            ascent = max(ascent, face.ascender * scale)
            descent = max(descent, -face.descender * scale)
            gap = max(gap, face.lineGap * scale)
        }
        if range.isEmpty {
            let face = primaries[emptySpan]
            let scale = spans[emptySpan].font.size / face.unitsPerEm
            ascent = face.ascender * scale; descent = -face.descender * scale; gap = max(0, face.lineGap * scale)
        }
        let baseline = top + ascent
        // Glyphs, and decoration bars: (span, x from, x to) for contiguous glyphs of one span.
        let firstGlyph = glyphs.count
        var pen = 0.0
        var bars: [(span: Int, from: Double, to: Double)] = []
        for segment in segments {
            let rtl = segment.level % 2 == 1
            let order = rtl ? Array(segment.range.reversed()) : Array(segment.range)
            for g in order {
                let s = shaped[g]
                glyphs.append(PositionedGlyph(
                    faceID: s.faceID, glyph: s.glyph, x: pen + s.dx,
                    y: baseline - s.dy - spans[s.span].baselineOffset, size: spans[s.span].font.size, span: s.span,
                    advance: s.advance, xOffset: s.dx, level: segment.level, character: s.source))
                if let last = bars.last, last.span == s.span, last.to == pen {
                    bars[bars.count - 1].to = pen + s.advance
                } else {
                    bars.append((s.span, pen, pen + s.advance))
                }
                pen += s.advance
            }
        }
        for piece in bars {
            let span = spans[piece.span]
            guard span.underline || span.strikethrough else { continue }
            let face = primaries[piece.span]
            let scale = span.font.size / face.unitsPerEm
            let y = baseline - span.baselineOffset
            if span.underline {
                let thickness = face.underlineThickness * scale
                let center = y - face.underlinePosition * scale
                decorations.append(TextDecoration(
                    rect: CGRect(x: piece.from, y: center - thickness / 2, width: piece.to - piece.from, height: thickness),
                    span: piece.span, kind: .underline))
            }
            if span.strikethrough {
                decorations.append(TextDecoration(
                    rect: CGRect(x: piece.from, y: y - face.strikeoutPosition * scale, width: piece.to - piece.from,
                                 height: face.strikeoutSize * scale),
                    span: piece.span, kind: .strikethrough))
            }
        }
        lines.append(LaidOutLine(glyphs: firstGlyph..<glyphs.count, baseline: baseline, width: pen,
                                 ascent: ascent, descent: descent))
        width = max(width, pen)
        top = baseline + descent + gap
    }
}

/// Apple's default tab stops (NSParagraphStyle.default: 12 left-aligned stops 28 pt apart, `defaultTabInterval`
/// 0) applied to one line at a time: the pen from the line's start, in logical order, with each tab resolved.
/// `prefix` holds the paragraph's advances (a tab's is its space's); `pen(at:)` must be asked at ends that do not
/// go back between two `startLine` calls. With "a" 7 pt wide, "a\tb": pen(at: 2) is 28.
struct TabStops {
    static let interval = 28.0
    static let count = 12
    /// Pens are sums of advances: one within this of a stop is at it (the tab goes to the next).
    static let atStopTolerance = 1e-9

    /// The advance of a tab whose pen is `pen`: to the first stop after it, or `space` past the last stop.
    static func advance(at pen: Double, space: Double) -> Double {
        let next = max(1, (pen / interval + atStopTolerance).rounded(.down) + 1) * interval
        return next <= interval * Double(count) ? next - pen : space
    }

    let prefix: [Double]
    /// Scalar indices of the paragraph's tabs, ascending.
    let tabs: [Int]
    /// The pen at `mark` (the line's start, or just after its last tab resolved so far).
    private var mark = 0
    private var penAtMark = 0.0
    /// The first tab of `tabs` not yet resolved.
    private(set) var nextTab = 0

    init(prefix: [Double], tabs: [Int]) {
        self.prefix = prefix
        self.tabs = tabs
    }

    mutating func startLine(at start: Int) {
        mark = start
        penAtMark = 0
        var lo = 0, hi = tabs.count   // the first tab at or after `start`
        while lo < hi {
            let mid = (lo + hi) / 2
            if tabs[mid] < start { lo = mid + 1 } else { hi = mid }
        }
        nextTab = lo
    }

    /// The pen after the line's scalars before `end`.
    mutating func pen(at end: Int) -> Double {
        while nextTab < tabs.count, tabs[nextTab] < end {
            let t = tabs[nextTab]
            let before = penAtMark + prefix[t] - prefix[mark]
            penAtMark = before + Self.advance(at: before, space: prefix[t + 1] - prefix[t])
            mark = t + 1
            nextTab += 1
        }
        return penAtMark + prefix[end] - prefix[mark]
    }
}

/// One paragraph's characters as Unicode scalars, with per-scalar attributes.
private struct Paragraph {
    var scalars: [UInt32] = []
    /// Scalar indices of its tabs ("\t", shaped as spaces), ascending.
    var tabs: [Int] = []

    /// The scalars with their tabs as U+0009, for UAX #9 (a tab is a segment separator, set to the paragraph's
    /// level by rule L1) and UAX #14 (class BA); `scalars` holds spaces there for HarfBuzz, as fonts map no
    /// glyph to U+0009.
    var unicodeText: [UInt32] {
        guard !tabs.isEmpty else { return scalars }
        var text = scalars
        for t in tabs { text[t] = 0x09 }
        return text
    }
    var span: [Int] = []
    var face: [Int] = []
    var space: [Bool] = []
    var graphemeStart: [Bool] = []
    /// Per scalar: the offset of its character (grapheme cluster) in the spans' strings joined
    /// (`PositionedGlyph.character`).
    var source: [Int] = []
    /// The offset of the character `append` is given next.
    var nextSource = 0
    /// The span the paragraph ended in (its hard break's, or the last): an empty paragraph's font.
    var endSpan = 0

    mutating func append(_ new: String.UnicodeScalarView, span s: Int, face f: Int, space isSpace: Bool) {
        for (k, scalar) in new.enumerated() {
            scalars.append(scalar.value)
            span.append(s)
            face.append(f)
            space.append(isSpace)
            graphemeStart.append(k == 0)
            source.append(nextSource)
        }
    }

    static func isHardBreak(_ scalar: UInt32) -> Bool {
        scalar == 0x0A || scalar == 0x0D || scalar == 0x2028 || scalar == 0x2029 || scalar == 0x85 || scalar == 0x0B
            || scalar == 0x0C
    }

    /// General category Cc (C0, DEL, C1).
    static func isControl(_ scalar: UInt32) -> Bool { scalar < 0x20 || (scalar >= 0x7F && scalar < 0xA0) }
}
