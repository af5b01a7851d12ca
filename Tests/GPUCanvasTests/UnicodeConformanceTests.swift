// The text engine's Unicode algorithms against the standard's own test files (Debian's unicode-data, 15.0, the
// version ICU 72 implements), every emoji sequence of emoji-test.txt drawn on both backends, and hostile strings.
import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class UnicodeConformanceTests: XCTestCase {
    static let lineBreakTest = "/usr/share/unicode/auxiliary/LineBreakTest.txt"
    static let bidiCharacterTest = "/usr/share/unicode/BidiCharacterTest.txt"
    static let emojiTest = "/usr/share/unicode/emoji/emoji-test.txt"
    /// The pass rate each conformance file must reach. ICU's line rules are tailored where the plain UAX #14
    /// rules are not (see `testLineBreakTestPassRate`); anything below this is a regression, not a tailoring.
    static let requiredPassRate = 0.99

    struct MissingDataFile: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is missing: install Debian's unicode-data package (scripts/install-deps.sh does)" }
    }

    /// The lines of one of unicode-data's files; throws (the test fails) naming the package when it is not installed.
    static func dataLines(_ path: String) throws -> [Substring] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw MissingDataFile(path: path) }
        return text.split(separator: "\n", omittingEmptySubsequences: true)
    }

    static func hex(_ field: Substring) -> [UInt32] {
        field.split(separator: " ").compactMap { UInt32($0, radix: 16) }
    }
}

// MARK: - UAX #14: LineBreakTest.txt

extension UnicodeConformanceTests {
    /// Each line is `× 0023 × 0020 ÷ 0030 ÷`: a mark before every code point and at the end, ÷ where a line may
    /// break. The engine's `lineBreakOpportunities` must give the same marks at every position after the first.
    ///
    /// Measured with ICU 72 on LineBreakTest 15.0: 7 632 / 7 654 = 99.71 %. The 22 that fail are ICU's
    /// tailorings of the plain rules (printed by the test, summed up in docs/fuzz-findings.md):
    /// - 14 keep `.` or `,` with a digit after it (`× 002C ÷ 0030`, `a.2`, `A.1 몫`): ICU's LB25 is the
    ///   regular-expression form, with `IS × NU`;
    /// - 8 keep a hyphen-minus at the start with the letter or symbol after it (`-#`, `-§`, `-ก`, each also
    ///   with U+0308 between): ICU's word-initial hyphen rule, Unicode 15.1's LB20a.
    func testLineBreakTestPassRate() throws {
        var passed = 0, total = 0
        var failures: [String] = []
        for line in try Self.dataLines(Self.lineBreakTest) {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let tokens = data.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard tokens.count >= 3 else { continue }
            var scalars: [UInt32] = []
            var expected: [Bool] = []   // expected[i]: a break before scalars[i + 1] (i = count - 1: at the end)
            for token in tokens {
                if token == "÷" || token == "×" {
                    if !scalars.isEmpty { expected.append(token == "÷") }
                } else if let value = UInt32(token, radix: 16) {
                    scalars.append(value)
                }
            }
            guard !scalars.isEmpty, expected.count == scalars.count else {
                XCTFail("unreadable line: \(line)")
                continue
            }
            total += 1
            let got = Array(try UnicodeAlgorithms.lineBreakOpportunities(scalars).dropFirst())
            if got == expected {
                passed += 1
            } else {
                failures.append(String(line.split(separator: "#", maxSplits: 1)[0])
                                + " got " + got.map { $0 ? "÷" : "×" }.joined())
            }
        }
        let rate = Double(passed) / Double(max(total, 1))
        print("LineBreakTest \(UnicodeAlgorithms.unicodeVersion): \(passed)/\(total) = \(String(format: "%.3f", rate * 100)) %")
        for failure in failures { print("  LB fail: \(failure)") }
        XCTAssertGreaterThan(total, 7000, "LineBreakTest 15.0 has 7 654 cases")
        XCTAssertGreaterThanOrEqual(rate, Self.requiredPassRate)
    }
}

// MARK: - UAX #9: BidiCharacterTest.txt

extension UnicodeConformanceTests {
    /// Each line is `code points; direction (0 LTR, 1 RTL, 2 auto); paragraph level; levels (x: removed by X9);
    /// visual order of the characters not removed`. The engine's `BidiParagraph` must give the paragraph level,
    /// every level that is not x, and (`visualOrder(levels:)`, the removed characters left out) the order.
    ///
    /// Measured with ICU 72 on BidiCharacterTest 15.0: 91 677 / 91 707 = 99.97 %. The 30 that fail are where
    /// ICU departs from the reference algorithm (printed by the test):
    /// - 20: LRE/RLE/LRO/RLO/PDF beside bracket pairs or isolates (`202A 05D0 0028 05D1 202C 202D 0029`): ICU
    ///   keeps the controls in the text as BN and resolves the brackets or isolates next to them one level off;
    /// - 9: a combining mark after a closing bracket whose direction N0 changed (`0061 0028 0062 0029 0331`,
    ///   3 of them with a ZWJ before the mark): the mark should take the bracket's direction, ICU gives it the
    ///   embedding's;
    /// - 1: 64 nested brackets: BD16 stops pairing when its 63-entry stack is full, ICU goes on.
    func testBidiCharacterTestPassRate() throws {
        try TestTier.requireThorough()
        var passed = 0, total = 0
        var failures: [String] = []
        for line in try Self.dataLines(Self.bidiCharacterTest) where !line.hasPrefix("#") {
            let fields = line.split(separator: ";", omittingEmptySubsequences: false)
            guard fields.count == 5 else { continue }
            let scalars = Self.hex(fields[0])
            let direction: BidiParagraph.Direction
            switch fields[1] {
            case "0": direction = .leftToRight
            case "1": direction = .rightToLeft
            default: direction = .auto
            }
            let expectedParagraph = UInt8(fields[2])
            let expectedLevels: [UInt8?] = fields[3].split(separator: " ").map { UInt8($0) }
            let expectedOrder = fields[4].split(separator: " ").compactMap { Int($0) }
            guard expectedLevels.count == scalars.count else {
                XCTFail("unreadable line: \(line)")
                continue
            }
            total += 1
            let bidi = try BidiParagraph(scalars, direction: direction)
            // ICU's one documented shortcut (its own conformance test, bidiconf.cpp, accepts it): for text that
            // resolves to one direction it answers every level as the paragraph level, which orders the same.
            func parities(_ levels: [UInt8?]) -> Set<UInt8> { Set(levels.compactMap { $0.map { $0 % 2 } }) }
            let expectedParities = parities(expectedLevels)
            let shortcut = expectedParities.count == 1 && parities(bidi.levels) == expectedParities
            let levelsAgree = shortcut || zip(bidi.levels, expectedLevels).allSatisfy { $1 == nil || $0 == $1 }
            let order = BidiParagraph.visualOrder(levels: bidi.levels).filter { expectedLevels[$0] != nil }
            if bidi.paragraphLevel == expectedParagraph && levelsAgree && order == expectedOrder {
                passed += 1
            } else if failures.count < 100 {
                failures.append("\(line) got \(bidi.paragraphLevel); "
                                + bidi.levels.map(String.init).joined(separator: " ") + "; "
                                + order.map(String.init).joined(separator: " "))
            }
        }
        let rate = Double(passed) / Double(max(total, 1))
        print("BidiCharacterTest \(UnicodeAlgorithms.unicodeVersion): \(passed)/\(total) = \(String(format: "%.3f", rate * 100)) %")
        for failure in failures { print("  bidi fail: \(failure)") }
        XCTAssertGreaterThan(total, 90_000, "BidiCharacterTest 15.0 has 91 699 cases")
        XCTAssertGreaterThanOrEqual(rate, Self.requiredPassRate)
    }
}

// MARK: - The engine's use of UAX #9

extension UnicodeConformanceTests {
    /// A bracket in a right-to-left run is drawn mirrored (rule L4): HarfBuzz mirrors it in the run shaped
    /// right to left, so "א(ב" reads ב, then "(" drawn as ")", then א.
    func testBracketsMirrorInRightToLeftRuns() throws {
        let face = try TextEngine.shared.primaryFace(FontRequest(family: "DejaVu Sans", size: 20))
        let glyph = { (c: UInt32) in try XCTUnwrap(face.glyph(for: c)) }
        XCTAssertEqual(try visibleGlyphs("\u{05D0}(\u{05D1}"), [try glyph(0x05D1), try glyph(0x29), try glyph(0x05D0)])
        XCTAssertEqual(try visibleGlyphs("a(b"), [try glyph(0x61), try glyph(0x28), try glyph(0x62)])
    }

    /// Lines are broken in logical order and each line is reordered on its own (L2 per line): a right-to-left
    /// paragraph of two words wrapped to one word a line shows the first word, reversed, on the first line.
    func testEachLineIsReorderedOnItsOwn() throws {
        let face = try TextEngine.shared.primaryFace(FontRequest(family: "DejaVu Sans", size: 20))
        let glyph = { (c: UInt32) in try XCTUnwrap(face.glyph(for: c)) }
        let oneWord = try layout("\u{05D0}\u{05D1}", family: "DejaVu Sans").size.width
        let l = try layout("\u{05D0}\u{05D1} \u{05D2}\u{05D3}", family: "DejaVu Sans", maxWidth: oneWord + 1)
        XCTAssertEqual(l.lines.count, 2)
        XCTAssertEqual(l.glyphs[l.lines[0].glyphs].map(\.glyph), [try glyph(0x05D1), try glyph(0x05D0)])
        XCTAssertEqual(l.glyphs[l.lines[1].glyphs].map(\.glyph), [try glyph(0x05D3), try glyph(0x05D2)])
    }
}

// MARK: - emoji-test.txt

extension UnicodeConformanceTests {
    struct EmojiSequence {
        var scalars: String
        var status: Substring   // fully-qualified, minimally-qualified, unqualified, component
    }

    /// Every sequence line of emoji-test.txt (`1F468 200D 1F469 200D 1F467 ; fully-qualified # 👨‍👩‍👧 …`).
    static func emojiSequences() throws -> [EmojiSequence] {
        try Self.dataLines(Self.emojiTest).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "#", maxSplits: 1)[0].split(separator: ";")
            guard fields.count == 2 else { return nil }
            let scalars = Self.hex(fields[0]).compactMap(Unicode.Scalar.init)
            return EmojiSequence(scalars: String(String.UnicodeScalarView(scalars)),
                                 status: Substring(fields[1].trimmingCharacters(in: .whitespaces)))
        }
    }
}

extension UnicodeConformanceTests {
    /// Noto Color Emoji, or a skip naming its package.
    func colorEmojiFace() throws -> FontFace {
        let face = try? TextEngine.shared.primaryFace(FontRequest(family: "Noto Color Emoji", size: 20))
        try XCTSkipUnless(face?.hasColorBitmaps == true, "Noto Color Emoji is not installed (fonts-noto-color-emoji)")
        return face!
    }

    func layout(_ string: String, family: String? = nil, size: Double = 20, maxWidth: Double? = nil) throws -> TextLayout {
        try TextEngine.shared.layout([TextSpan(string: string, font: FontRequest(family: family, size: size))],
                                     maxWidth: maxWidth)
    }

    /// Flags, ZWJ, skin-tone, tag and keycap sequences each shape to one colour glyph: Noto Color Emoji's
    /// ligature, not the glyphs of their parts.
    func testSequencesShapeAsOneGlyphWhereTheFontHasIt() throws {
        let emoji = try colorEmojiFace()
        let cases: [(sequence: String, firstPart: String)] = [
            ("🇫🇷", "🇫"),                                            // regional indicator pair
            ("👨\u{200D}👩\u{200D}👧", "👨"),                          // ZWJ family
            ("👍🏽", "👍"),                                            // emoji modifier
            ("🖐🏻", "🖐\u{FE0F}"),                                     // modifier on a base without emoji presentation
            ("🏳\u{FE0F}\u{200D}🌈", "🏳\u{FE0F}"),                    // ZWJ with VS16
            ("🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}", "🏴"),   // tag sequence (England)
            ("#\u{FE0F}\u{20E3}", "#\u{FE0F}"),                       // keycap
        ]
        for (sequence, firstPart) in cases {
            let whole = try layout(sequence), part = try layout(firstPart)
            XCTAssertEqual(whole.glyphs.count, 1, sequence)
            XCTAssertEqual(whole.glyphs.first?.faceID, emoji.id, sequence)
            XCTAssertNotEqual(whole.glyphs.first?.glyph, 0, "\(sequence) is .notdef")
            XCTAssertNotEqual(whole.glyphs.first?.glyph, part.glyphs.first?.glyph, "\(sequence) is its first part")
        }
    }

    /// Every sequence line of emoji-test.txt (4 733 in Emoji 15.0) lays out, every fully-qualified and
    /// minimally-qualified one as one colour glyph, and all of them draw in one frame on the reference and on
    /// GLES (both path strategies) within the project's bar.
    func testEveryEmojiTestSequenceDrawsOnBothBackends() throws {
        try TestTier.requireThorough()
        let emoji = try colorEmojiFace()
        let sequences = try Self.emojiSequences()
        XCTAssertGreaterThan(sequences.count, 4700, "emoji-test.txt 15.0 lists 4 733 sequences")
        // All sequences in one wrapped text: 9 pt keeps every line inside the frame (checked below), so each
        // sequence is drawn. They are parted by U+200B (a break opportunity that draws nothing), not a space: a
        // lone skin tone after a space would join it as one grapheme (an emoji modifier extends what precedes it).
        let text = sequences.map(\.scalars).joined(separator: "\u{200B}")
        let frame = CGRect(x: 0, y: 0, width: 1024, height: 768)
        let wrapped = try layout(text, size: 9, maxWidth: Double(frame.width))
        XCTAssertLessThanOrEqual(wrapped.size.height, Double(frame.height), "every line fits, none is left out")
        var colourGlyphsAlone = 0
        var notOneGlyph: [String] = []
        for s in sequences {
            let l = try layout(s.scalars)
            colourGlyphsAlone += l.glyphs.filter { $0.faceID == emoji.id }.count
            if s.status == "fully-qualified" || s.status == "minimally-qualified",
               l.glyphs.count != 1 || l.glyphs[0].faceID != emoji.id || l.glyphs[0].glyph == 0 {
                notOneGlyph.append(s.scalars)
            }
        }
        XCTAssertEqual(notOneGlyph, [], "qualified sequences that are not one colour glyph")
        XCTAssertEqual(wrapped.glyphs.filter { $0.faceID == emoji.id }.count, colourGlyphsAlone,
                       "the wrapped text has every sequence's colour glyphs: none lost or merged")
        let started = Date()
        let images: [(String, RasterImage)] = try Concurrently.map(FuzzDefectTests.backends) { name, backend in
            let image = try SharedRenderers.renderer(backend, policy: .lenient).render(size: frame.size, scale: 1, colorMode: .nonLinear) {
                ctx, _ in ctx.draw(Text(verbatim: text).font(.system(size: 9)), in: frame)
            }
            return (name, image)
        }
        print("emoji-test: \(sequences.count) sequences drawn on \(images.count) backends in "
              + String(format: "%.1f", Date().timeIntervalSince(started)) + " s")
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: images[0].1)
            XCTAssertTrue(d.meetsDefaultBar, "\(name) vs reference: \(d)")
        }
        // The first sequence is 😀 (grinning face): the middle of its glyph is yellow in its own colours.
        let first = wrapped.glyphs[0], next = wrapped.glyphs[1]
        let x = Int((first.x + next.x) / 2 - 1.5), y = Int(first.y - 9 * 0.35)
        let p = images[0].1.pixel(x: x, y: y)
        XCTAssertTrue(p.r > 200 && p.g > 150 && p.b < 120 && p.a == 255, "😀 at (\(x), \(y)) is \(p), not yellow")
    }
}

// MARK: - Hostile strings

extension UnicodeConformanceTests {
    /// How a scene ended on every backend: drawn (the reference's image, the others checked against it) or
    /// refused (the one message every backend gave).
    enum Outcome {
        case drawn(RasterImage)
        case refused(String)
    }

    /// A text command as a scene, drawn `at:` a point or wrapped `in:` a rect. `textJSON` is the JSON string
    /// literal, escapes included.
    func scene(textJSON: String, wrapped: Bool) -> String {
        let placement = wrapped ? #""in": [4, 4, 232, 52]"# : #""at": [4, 30], "anchor": [0, 0.5]"#
        return #"{"format": "gpucanvas-scene/1", "size": [240, 60], "commands": [{"op": "text", "text": "#
            + textJSON + #", "font": {"family": "DejaVu Sans", "size": 14}, "# + placement + "}]}"
    }

    /// `string` as a JSON string literal (controls escaped as \u00XX).
    func jsonLiteral(_ string: String) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: string, options: .fragmentsAllowed), as: UTF8.self)
    }

    /// Loads and renders `json` on the reference and on GLES with both path strategies: every backend must
    /// draw it, within the project's bar of the reference, or every one must refuse it in the same words.
    func outcome(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let scene: Scene
        do {
            scene = try Scene(jsonData: Data(json.utf8))
        } catch {
            return .refused("\(error)")   // before any backend: the same for all
        }
        var images: [(String, RasterImage)] = []
        var errors: [(String, String)] = []
        for (name, backend) in FuzzDefectTests.backends {
            do {
                images.append((name, try SharedRenderers.renderer(backend, policy: .lenient).render(scene.recording, scale: scene.scale)))
            } catch {
                errors.append((name, "\(error)"))
            }
        }
        if !errors.isEmpty {
            XCTAssertTrue(images.isEmpty, "drawn on \(images.map(\.0)), refused on \(errors)", file: file, line: line)
            XCTAssertEqual(Set(errors.map(\.1)).count, 1, "backends refuse in different words: \(errors)",
                           file: file, line: line)
            return .refused(errors[0].1)
        }
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: images[0].1)
            XCTAssertTrue(d.meetsDefaultBar, "\(name) vs reference: \(d)", file: file, line: line)
        }
        return .drawn(images[0].1)
    }

    /// Asserts `textJSON` draws on every backend both ways; returns the two reference images (at, in).
    @discardableResult
    func assertDraws(_ textJSON: String, file: StaticString = #filePath, line: UInt = #line) throws -> [RasterImage] {
        try [false, true].map { wrapped in
            switch try outcome(scene(textJSON: textJSON, wrapped: wrapped), file: file, line: line) {
            case .drawn(let image): return image
            case .refused(let message):
                XCTFail("\(textJSON) \(wrapped ? "in:" : "at:") refused: \(message)", file: file, line: line)
                return RasterImage(width: 1, height: 1)
            }
        }
    }

    /// The glyph ids of a DejaVu Sans layout of `string`, hidden glyphs (default ignorables: HarfBuzz gives
    /// them the space glyph, zero advance) left out.
    func visibleGlyphs(_ string: String) throws -> [UInt32] {
        let l = try layout(string, family: "DejaVu Sans")
        let space = try TextEngine.shared.primaryFace(FontRequest(family: "DejaVu Sans", size: 20)).glyph(for: 0x20)
        return l.glyphs.map(\.glyph).filter { $0 != space }
    }

    /// A scene's JSON string cannot hold half a UTF-16 pair: the loader refuses it with its place, before any
    /// backend, so every backend gives the same words.
    func testLoneSurrogatesAreRefusedByTheSceneLoader() throws {
        for text in [#""a\ud800b""#, #""\udc00""#, #""x\ud83d""#, #""\udc00\ud800""#] {
            for wrapped in [false, true] {
                guard case .refused(let message) = try outcome(scene(textJSON: text, wrapped: wrapped)) else {
                    XCTFail("\(text) was drawn")
                    continue
                }
                XCTAssertTrue(message.contains("(commands[0].text): unpaired surrogate in \\u escape"), message)
            }
        }
        // A whole pair is one scalar: 😀.
        try assertDraws(#""\ud83d\ude00""#)
    }

    /// U+FFFE and U+FFFF (noncharacters; U+FFFF was libunibreak's end marker and aborted the process) draw as
    /// the font's .notdef between their neighbours.
    func testNoncharactersDrawAsNotdef() throws {
        let xy = try visibleGlyphs("xy")
        for nonCharacter in ["\u{FFFE}", "\u{FFFF}"] {
            XCTAssertEqual(try visibleGlyphs("x\(nonCharacter)y"), [xy[0], 0, xy[1]])
            try assertDraws(try jsonLiteral("x\(nonCharacter)y"))
        }
    }

    /// C0 and C1 controls other than line ends are dropped: the text draws exactly as without them.
    func testC0AndC1ControlsDrawNothing() throws {
        let controls = "a\u{01}\u{07}\u{1B}b\u{7F}\u{80}\u{9F}c\u{00}"
        XCTAssertEqual(try visibleGlyphs(controls), try visibleGlyphs("abc"))
        let drawn = try assertDraws(try jsonLiteral(controls))
        let plain = try assertDraws(try jsonLiteral("abc"))
        for (a, b) in zip(drawn, plain) { XCTAssertEqual(a.difference(from: b).maxDiff, 0) }
    }

    /// Unbalanced and overflowing bidi controls order what they enclose by UAX #9 and draw nothing themselves.
    func testUnbalancedBidiControlsOrderByUAX9() throws {
        // RLO never closed: what follows it is right-to-left to the end of the paragraph.
        XCTAssertEqual(try visibleGlyphs("a\u{202E}bcd"), try visibleGlyphs("adcb"))
        // PDF and PDI without an opener are ignored (X6a, X7).
        XCTAssertEqual(try visibleGlyphs("\u{202C}\u{202C}x\u{2069}y"), try visibleGlyphs("xy"))
        // LRI and FSI never closed: isolated to the paragraph's end; FSI takes its content's first strong (R).
        XCTAssertEqual(try visibleGlyphs("\u{2066}abc"), try visibleGlyphs("abc"))
        // (a b FSI א ב c: the isolate is level 1 with c at 2 inside it, so it reads c ב א; "abcאב" draws the same.)
        XCTAssertEqual(try visibleGlyphs("ab\u{2068}\u{05D0}\u{05D1}c"), try visibleGlyphs("abc\u{05D0}\u{05D1}"))
        // 130 RLOs: levels stop at 125 (X5: the other 67 overflow); the override makes "ab" level 125, right to
        // left. 130 RLEs leave Latin left to right (level 125 + 1 by I2).
        XCTAssertEqual(try visibleGlyphs(String(repeating: "\u{202E}", count: 130) + "ab"), try visibleGlyphs("ba"))
        XCTAssertEqual(try visibleGlyphs(String(repeating: "\u{202B}", count: 130) + "ab"), try visibleGlyphs("ab"))
        for text in ["a\u{202E}bcd", "\u{202C}\u{202C}x\u{2069}y", "\u{2066}abc\u{2068}", "\u{202A}\u{202B}\u{202D}x",
                     String(repeating: "\u{202B}", count: 130) + "ab" + String(repeating: "\u{2067}", count: 130)] {
            try assertDraws(try jsonLiteral(text))
        }
    }

    /// 100 000 characters, with spaces and without: wrapped by UAX #14 (or between graphemes where there is no
    /// opportunity), drawn at a point and in a rect.
    func testHundredThousandCharacterStrings() throws {
        try TestTier.requireThorough()
        let letters = String(repeating: "x", count: 100_000)
        let advance = try layout("x", family: "DejaVu Sans").size.width
        let wrapped = try layout(letters, family: "DejaVu Sans", maxWidth: 300)
        let perLine = Int((300 / advance).rounded(.down))   // 25 at 20 pt
        XCTAssertEqual(wrapped.lines.count, (100_000 + perLine - 1) / perLine)
        XCTAssertEqual(wrapped.glyphs.count, 100_000)
        let words = String(repeating: "lorem ipsum ", count: 8_334)
        let wrappedWords = try layout(words, family: "DejaVu Sans", maxWidth: 300)
        XCTAssertEqual(wrappedWords.glyphs.count, 8_334 * 10 + (8_334 * 2 - wrappedWords.lines.count),
                       "the letters, and the spaces but the one ending each line")
        for line in wrappedWords.lines { XCTAssertLessThanOrEqual(line.width, 300) }
        try assertDraws(try jsonLiteral(letters))
        try assertDraws(try jsonLiteral(words))
    }

    /// 1 000 combining marks on one base: one grapheme, one line as wide as the base (HarfBuzz composes the
    /// first mark with it and stacks the rest above), drawn the same on every backend.
    func testThousandCombiningMarksOnOneBase() throws {
        let stacked = "a" + String(repeating: "\u{301}", count: 1_000)
        let l = try layout(stacked, family: "DejaVu Sans")
        XCTAssertEqual(l.lines.count, 1)
        XCTAssertEqual(l.glyphs.count, 1_000, "á, then 999 marks")
        XCTAssertEqual(l.size.width, try layout("á", family: "DejaVu Sans").size.width, accuracy: 1e-9)
        XCTAssertEqual(try layout(stacked, family: "DejaVu Sans", maxWidth: 1).lines.count, 1,
                       "a grapheme is never broken")
        try assertDraws(try jsonLiteral(stacked))
    }
}
