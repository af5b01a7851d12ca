// The text engine against its own libraries' ground truth: HarfBuzz's hb-shape for glyphs and advances, the
// font files' own metrics, UAX #14 break positions, fontconfig's matches.
import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class TextEngineTests: XCTestCase {
    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let notoSansArabic = "/usr/share/fonts/truetype/noto/NotoSansArabic-Regular.ttf"
    /// Positions are sums of integer font units × size/upem in the same order as ours: only rounding differs.
    static let positionTolerance = 1e-9

    let engine = TextEngine.shared

    func span(_ string: String, family: String? = "DejaVu Sans", file: String? = nil, size: Double = 20,
              tracking: Double = 0) -> TextSpan {
        TextSpan(string: string, font: FontRequest(family: family, file: file, size: size), tracking: tracking)
    }

    func layout(_ string: String, family: String? = "DejaVu Sans", size: Double = 20, maxWidth: Double? = nil) throws
        -> TextLayout {
        try engine.layout([span(string, family: family, size: size)], maxWidth: maxWidth)
    }

    /// The glyph ids of each line.
    func lineGlyphs(_ layout: TextLayout) -> [[UInt32]] {
        layout.lines.map { layout.glyphs[$0.glyphs].map(\.glyph) }
    }

    /// hb-shape's glyphs for `text` in `font`: (glyph id, x advance, x offset) in font units, visual order.
    func hbShape(font: String, text: String) throws -> [(glyph: UInt32, advance: Double, dx: Double)] {
        let candidates = ["/usr/bin/hb-shape", "/usr/local/bin/hb-shape"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("hb-shape is not installed (Debian: libharfbuzz-bin)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["--no-glyph-names", "--output-format=json", font, text]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return try json.map {
            (UInt32(try XCTUnwrap($0["g"] as? Int)), Double(try XCTUnwrap($0["ax"] as? Int)),
             Double(try XCTUnwrap($0["dx"] as? Int)))
        }
    }

    func assertMatchesHarfBuzz(font: String, text: String, size: Double, file: StaticString = #filePath,
                               line: UInt = #line) throws {
        let expected = try hbShape(font: font, text: text)
        let result = try engine.layout([span(text, family: nil, file: font, size: size)], maxWidth: nil)
        let face = try engine.loadFace(path: font)
        let scale = size / face.unitsPerEm
        XCTAssertEqual(result.glyphs.map(\.glyph), expected.map(\.glyph), file: file, line: line)
        var pen = 0.0
        for (glyph, hb) in zip(result.glyphs, expected) {
            XCTAssertEqual(glyph.faceID, face.id, file: file, line: line)
            XCTAssertEqual(glyph.x, pen + hb.dx * scale, accuracy: Self.positionTolerance, file: file, line: line)
            pen += hb.advance * scale
        }
        XCTAssertEqual(result.size.width, pen, accuracy: Self.positionTolerance, file: file, line: line)
    }

    // MARK: Shaping

    func testAdvancesAndGlyphsEqualHarfBuzzForKerningAndLigatures() throws {
        // "AV", "AT", "TA" are kerning pairs in DejaVu Sans; "ffi" is one ligature glyph.
        try assertMatchesHarfBuzz(font: Self.dejaVuSans, text: "AVATAR office 0123", size: 20)
        let plain = try engine.layout([span("AVATAR office 0123", file: Self.dejaVuSans)], maxWidth: nil)
        XCTAssertEqual(plain.glyphs.count, 16, "18 characters, ffi as one glyph")
    }

    func testArabicIsShapedRightToLeftAsHarfBuzzDoes() throws {
        try assertMatchesHarfBuzz(font: Self.notoSansArabic, text: "مرحبا بالعالم", size: 24)
    }

    func testTrackingAddsAfterEachGlyphAndTurnsLigaturesOff() throws {
        let plain = try engine.layout([span("office")], maxWidth: nil)
        let tracked = try engine.layout([span("office", tracking: 2)], maxWidth: nil)
        XCTAssertEqual(plain.glyphs.count, 4, "o, ffi, c, e")
        XCTAssertEqual(tracked.glyphs.count, 6)
        let face = try engine.primaryFace(FontRequest(family: "DejaVu Sans", size: 20))
        let letters = try hbShape(font: face.path, text: "o f f i c e").filter { $0.glyph != 3 }   // 3: space
        XCTAssertEqual(tracked.glyphs.map(\.glyph), letters.map(\.glyph))
        let expectedWidth = letters.reduce(0) { $0 + $1.advance * 20 / face.unitsPerEm + 2 }
        XCTAssertEqual(tracked.size.width, expectedWidth, accuracy: Self.positionTolerance)
    }

    func testMixedDirectionsKeepLatinOrderAndReverseTheArabicRun() throws {
        let arabic = try engine.layout([span("مرحبا", family: "Noto Sans Arabic")], maxWidth: nil)
        let latin = try engine.layout([span("abc", family: "Noto Sans Arabic")], maxWidth: nil)
        let mixed = try engine.layout([span("abc مرحبا", family: "Noto Sans Arabic")], maxWidth: nil)
        let space = mixed.glyphs[3].glyph
        XCTAssertEqual(mixed.glyphs.map(\.glyph), latin.glyphs.map(\.glyph) + [space] + arabic.glyphs.map(\.glyph))
        // Right-to-left paragraph: the Latin word is an island on the right.
        let rtl = try engine.layout([span("مرحبا abc", family: "Noto Sans Arabic")], maxWidth: nil)
        let abc = try engine.layout([span("abc", family: "Noto Sans Arabic")], maxWidth: nil)
        XCTAssertEqual(rtl.glyphs.map(\.glyph), abc.glyphs.map(\.glyph) + [space] + arabic.glyphs.map(\.glyph))
        XCTAssertEqual(rtl.glyphs.map(\.x), rtl.glyphs.map(\.x).sorted(), "glyphs listed left to right")
    }

    // MARK: Line breaking

    func testWordsWrapAtSpacesAndTrailingSpaceDoesNotCount() throws {
        let twoWords = try layout("The quick"), nextTwo = try layout("brown fox")
        let maxWidth = max(twoWords.size.width, nextTwo.size.width) + 1
        XCTAssertGreaterThan(try layout("The quick brown").size.width, maxWidth)
        let result = try layout("The quick brown fox", maxWidth: maxWidth)
        XCTAssertEqual(lineGlyphs(result), [lineGlyphs(twoWords)[0], lineGlyphs(nextTwo)[0]])
        XCTAssertEqual(result.lines[0].width, twoWords.size.width, accuracy: Self.positionTolerance)
        for line in result.lines { XCTAssertLessThanOrEqual(line.width, maxWidth) }
        XCTAssertEqual(result.lines[1].glyphs.lowerBound, 9, "the space after 'quick' is dropped at the break")
    }

    func testHyphenatedWordBreaksAfterHyphens() throws {
        let maxWidth = try layout("state-of-the-").size.width + 0.5
        let result = try layout("state-of-the-art", maxWidth: maxWidth)
        XCTAssertEqual(lineGlyphs(result), [try layout("state-of-the-").glyphs.map(\.glyph),
                                            try layout("art").glyphs.map(\.glyph)])
        let narrow = try layout("state-of-the-art", maxWidth: try layout("state-").size.width + 0.5)
        XCTAssertEqual(narrow.lines.count, 4, "state- / of- / the- / art")
    }

    func testIdeographsBreakBetweenEachOther() throws {
        let text = "世界你好再见"
        let two = try layout("世界")
        let result = try layout(text, maxWidth: two.size.width + 0.5)
        XCTAssertEqual(result.lines.map(\.glyphs.count), [2, 2, 2])
        for line in result.lines { XCTAssertLessThanOrEqual(line.width, two.size.width + 0.5) }
    }

    func testOverlongWordBreaksBetweenGraphemes() throws {
        let maxWidth = try layout("abcd").size.width + 0.1
        let result = try layout("abcdefghij", maxWidth: maxWidth)
        XCTAssertEqual(lineGlyphs(result), [try layout("abcd"), try layout("efgh"), try layout("ij")].map {
            $0.glyphs.map(\.glyph)
        })
        // A combining mark stays with its base: "é" as e + U+0301 is never split.
        let accents = try layout(String(repeating: "e\u{301}", count: 6), maxWidth: 1)
        XCTAssertEqual(accents.lines.count, 6)
        XCTAssertEqual(accents.lines.map(\.glyphs.count), [Int](repeating: accents.glyphs.count / 6, count: 6))
    }

    func testExplicitNewlinesAlwaysBreak() throws {
        let result = try layout("a\nb\r\nc\u{2028}d\n\ne")
        XCTAssertEqual(result.lines.count, 6)
        XCTAssertEqual(result.lines.map(\.glyphs.count), [1, 1, 1, 1, 0, 1])
    }

    // MARK: Matching and fallback

    func testFamiliesMatchInstalledFaces() throws {
        let dejaVu = try engine.primaryFace(FontRequest(family: "DejaVu Sans", size: 12))
        XCTAssertEqual(dejaVu.path, Self.dejaVuSans)
        let arial = try engine.primaryFace(FontRequest(family: "Arial", size: 12))
        XCTAssertEqual(arial.familyName, "Liberation Sans")
        let arialBold = try engine.primaryFace(FontRequest(family: "Arial", size: 12, weight: 700))
        XCTAssertEqual(arialBold.styleName, "Bold")
        XCTAssertEqual(try engine.primaryFace(FontRequest(family: "Times New Roman", size: 12)).familyName,
                       "Liberation Serif")
        XCTAssertEqual(try engine.primaryFace(FontRequest(family: "Courier", size: 12)).familyName, "Liberation Mono")
        let unknown = try engine.primaryFace(FontRequest(family: "No Such Family 9000", size: 12))
        XCTAssertFalse(unknown.familyName.isEmpty)
        XCTAssertEqual(try engine.primaryFace(FontRequest(size: 17)).familyName, "Inter")
        XCTAssertEqual(try engine.primaryFace(FontRequest(size: 17, italic: true)).styleName, "Italic")
        XCTAssertEqual(try engine.primaryFace(FontRequest(size: 17, design: .monospaced)).familyName, "DejaVu Sans Mono")
        XCTAssertEqual(try engine.primaryFace(FontRequest(size: 17, design: .serif)).familyName, "Liberation Serif")
        XCTAssertTrue(engine.describeMatch(FontRequest(family: "Arial", size: 12))
            .hasPrefix("Arial → Liberation Sans Regular (/"))
    }

    func testFallbackDrawsEveryScriptWithoutBoxes() throws {
        // Liberation Sans has Latin, Greek, Cyrillic and Hebrew; Arabic and emoji must come from other faces.
        let request = FontRequest(family: "Liberation Sans", size: 20)
        let primary = try engine.primaryFace(request)
        XCTAssertEqual(primary.familyName, "Liberation Sans")
        func faces(_ text: String) throws -> [FontFace] {
            try engine.layout([TextSpan(string: text, font: request)], maxWidth: nil).glyphs.map {
                XCTAssertNotEqual($0.glyph, 0, "no .notdef box in \(text)")
                return engine.face(id: $0.faceID)
            }
        }
        XCTAssertEqual(try faces("Hello мир").map(\.id), [Int](repeating: primary.id, count: 9))
        XCTAssertNil(primary.glyph(for: 0x0645), "Liberation Sans has no Arabic")
        for face in try faces("مرحبا") { XCTAssertNotEqual(face.id, primary.id) }
        let emoji = try faces("👋")
        XCTAssertEqual(emoji.count, 1)
        XCTAssertTrue(emoji[0].hasColorBitmaps, emoji[0].description)
        // Noto Sans Hebrew has Hebrew only: even Latin and Cyrillic fall back.
        let hebrewOnly = FontRequest(family: "Noto Sans Hebrew", size: 20)
        let hebrew = try engine.primaryFace(hebrewOnly)
        XCTAssertEqual(hebrew.familyName, "Noto Sans Hebrew")
        let mixed = try engine.layout([TextSpan(string: "Hello мир 👋 مرحبا שלום", font: hebrewOnly)], maxWidth: nil)
        XCTAssertFalse(mixed.glyphs.contains { $0.glyph == 0 })
        XCTAssertEqual(Set(mixed.glyphs.map(\.faceID)).count, 4, "Hebrew, a Latin/Cyrillic face, Arabic, emoji")
        XCTAssertTrue(mixed.glyphs.contains { $0.faceID == hebrew.id })
    }

    func testIdeographsFallBackWhenACJKFontIsInstalled() throws {
        let inter = try engine.primaryFace(FontRequest(size: 20))
        let result = try layout("世界", family: nil)
        guard result.glyphs.contains(where: { $0.glyph != 0 }) else {
            throw XCTSkip("no installed font covers CJK ideographs (install-deps.sh installs fonts-wqy-microhei)")
        }
        for glyph in result.glyphs { XCTAssertNotEqual(glyph.faceID, inter.id) }
    }

    // MARK: Metrics and decorations

    func testMetricsComeFromTheFont() throws {
        let face = try engine.loadFace(path: Self.dejaVuSans)
        // DejaVu Sans 2.37's hhea: ascender 1901, descender −483, line gap 0, 2048 units per em.
        XCTAssertEqual([face.unitsPerEm, face.ascender, face.descender, face.lineGap], [2048, 1901, -483, 0])
        let result = try layout("Hg\nHg")
        let scale = 20.0 / 2048
        XCTAssertEqual(result.firstBaseline, 1901 * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(result.lastBaseline, (1901 + 483 + 1901) * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(result.size.height, 2 * (1901 + 483) * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(result.lines[0].ascent, 1901 * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(result.lines[0].descent, 483 * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(result.glyphs[2].y, result.lastBaseline)
    }

    func testUnderlineAndStrikethroughBars() throws {
        let face = try engine.loadFace(path: Self.dejaVuSans)
        var underlined = span("Hi there", file: Self.dejaVuSans)
        underlined.underline = true
        underlined.strikethrough = true
        let result = try engine.layout([underlined, span(" plain", file: Self.dejaVuSans)], maxWidth: nil)
        XCTAssertEqual(result.decorations.count, 2)
        let scale = 20 / face.unitsPerEm
        let baseline = result.firstBaseline
        let width = try engine.layout([span("Hi there", file: Self.dejaVuSans)], maxWidth: nil).size.width
        let under = result.decorations[0].rect, strike = result.decorations[1].rect
        XCTAssertEqual(under.minX, 0)
        XCTAssertEqual(under.width, width, accuracy: Self.positionTolerance)
        XCTAssertEqual(under.midY, baseline - face.underlinePosition * scale, accuracy: Self.positionTolerance)
        XCTAssertEqual(under.height, face.underlineThickness * scale, accuracy: Self.positionTolerance)
        XCTAssertGreaterThan(under.minY, baseline, "below the baseline")
        XCTAssertEqual(strike.minY, baseline - face.strikeoutPosition * scale, accuracy: Self.positionTolerance)
        XCTAssertLessThan(strike.maxY, baseline, "above the baseline")
    }

    // MARK: Bad input

    func testEmptyWhitespaceAndControlCharacters() throws {
        let lineHeight = (1901 + 483) * 20.0 / 2048
        for text in ["", "   ", "\t"] {
            let result = try layout(text)
            XCTAssertEqual(result.size.width, 0, "'\(text)'")
            XCTAssertEqual(result.size.height, lineHeight, accuracy: Self.positionTolerance, "'\(text)'")
            XCTAssertEqual(result.lines.count, 1)
        }
        let controls = try layout("a\u{1}\u{7F}b\tc")
        XCTAssertFalse(controls.glyphs.contains { $0.glyph == 0 })
        XCTAssertEqual(controls.glyphs.count, 4, "a, b, c and the tab's space")
        for size in [0, -3, .nan, .infinity] {
            XCTAssertEqual(try layout("abc", size: size), .empty)
        }
        let huge = try layout("Hg", size: 1e5)
        XCTAssertEqual(huge.firstBaseline, 1901 * 1e5 / 2048, accuracy: 1e-6)
    }

    func testCorruptAndMissingFontFilesThrowInvalidFont() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("corrupt-\(UUID()).ttf").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        XCTAssertThrowsError(try engine.layout([span("abc", family: nil, file: path)], maxWidth: nil)) {
            XCTAssertEqual($0 as? TextError, .invalidFont(path: path, reason: "unknown file format"))
            XCTAssertTrue("\($0)".contains(path))
        }
        let missing = "/nonexistent/font-\(UUID()).ttf"
        XCTAssertThrowsError(try engine.layout([span("abc", family: nil, file: missing)], maxWidth: nil)) {
            XCTAssertEqual($0 as? TextError, .invalidFont(path: missing, reason: "cannot open resource"))
        }
    }

    func testMillionCharactersLayOutInLinearTime() throws {
        try TestTier.requireThorough()
        let text = String(repeating: "lorem ipsum dolor sit amet ", count: 1_000_000 / 27 + 1)
        let start = Date()
        let result = try layout(text, maxWidth: 400)
        let seconds = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(result.lines.count, 10_000)
        XCTAssertEqual(result.lines.map(\.glyphs.count).reduce(0, +), result.glyphs.count)
        for line in result.lines { XCTAssertLessThanOrEqual(line.width, 400) }
        print("TextEngineTests: \(text.unicodeScalars.count) characters, \(result.lines.count) lines in \(seconds) s")
        /// Release measures well under 2 s (see the report in TextEngine.swift); a debug build is ~10× slower.
        let debugBound = 60.0
        XCTAssertLessThan(seconds, debugBound)
    }

    // MARK: Outlines and threads

    /// Twice the signed area of each contour of `path` (the polygon through all its points, controls included:
    /// enough for the sign).
    func contourAreas(_ path: Path) -> [Double] {
        var areas: [Double] = []
        var points: [CGPoint] = []
        func finish() {
            guard points.count > 2 else { points = []; return }
            var sum = 0.0
            for i in points.indices {
                let a = points[i], b = points[(i + 1) % points.count]
                sum += a.x * b.y - b.x * a.y
            }
            areas.append(sum)
            points = []
        }
        path.forEach { element in
            switch element {
            case .move(let p): finish(); points = [p]
            case .line(let p): points.append(p)
            case .quadCurve(let p, let c): points += [c, p]
            case .curve(let p, let c1, let c2): points += [c1, c2, p]
            case .closeSubpath: finish()
            }
        }
        finish()
        return areas
    }

    func testOutlinesWindTheSameWayForTrueTypeAndCFF() throws {
        let dejaVu = try engine.loadFace(path: Self.dejaVuSans)
        let inter = try engine.primaryFace(FontRequest(size: 20))
        XCTAssertTrue(inter.path.hasSuffix(".otf"), "Inter is CFF-flavoured OpenType")
        let liberation = try engine.primaryFace(FontRequest(family: "Liberation Sans", size: 20))
        var outers: [Double] = []
        for face in [dejaVu, liberation, inter] {
            let o = try XCTUnwrap(face.glyph(for: UInt32(UInt8(ascii: "o"))))
            let areas = contourAreas(face.outline(glyph: o))
            XCTAssertEqual(areas.count, 2, face.description)
            let outer = areas.max { abs($0) < abs($1) }!
            let inner = areas.min { abs($0) < abs($1) }!
            XCTAssertLessThan(outer * inner, 0, "the counter winds against the bowl in \(face)")
            outers.append(outer)
        }
        XCTAssertTrue(outers.allSatisfy { $0 < 0 }, "outer contours clockwise (y up) in every font: \(outers)")
        var hasCurve = false
        inter.outline(glyph: inter.glyph(for: 0x6F)!).forEach { if case .curve = $0 { hasCurve = true } }
        XCTAssertTrue(hasCurve, "CFF outlines keep cubic segments")
    }

    func testConcurrentLayoutsAgree() throws {
        let spans = [span("Hello мир 👋 مرحبا office AVATAR", family: nil)]
        let expected = try engine.layout(spans, maxWidth: 120)
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var layouts = [TextLayout?](repeating: nil, count: 8)
        }
        let results = Results()
        let shared = engine
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            // Even iterations share the engine (and its caches); odd ones start a fresh engine.
            let layout = try? (i % 2 == 0 ? shared : TextEngine()).layout(spans, maxWidth: 120)
            results.lock.lock()
            results.layouts[i] = layout
            results.lock.unlock()
        }
        for result in results.layouts {
            let r = try XCTUnwrap(result)
            XCTAssertEqual(r.glyphs.map(\.glyph), expected.glyphs.map(\.glyph))
            XCTAssertEqual(r.lines.map(\.baseline), expected.lines.map(\.baseline))
        }
    }
}
