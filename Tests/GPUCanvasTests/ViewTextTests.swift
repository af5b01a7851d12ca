import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Text layout as a view (line limits, truncation, alignment, spacing, scale, case) and the inline Markdown of
/// string literals.
final class ViewTextTests: XCTestCase {
    /// Layout positions are sums of glyph advances in doubles: equal within this.
    static let layoutEpsilon = 1e-6

    static let long = "The quick brown fox jumps over the lazy dog and keeps running far away"

    func textNode<V: View>(_ view: V) -> TextNode { ViewTesting.first(TextNode.self, in: ViewTesting.tree(view))! }

    func laidOut<V: View>(_ view: V, width: CGFloat) -> (string: String, layout: TextLayout) {
        let l = textNode(view).laidOut(width: width)!
        return (l.spans.map(\.string).joined(), l.layout)
    }

    func testLineLimitTruncatesTheTailWithAnEllipsis() {
        let plain = textNode(Text(Self.long)).sizeThatFits(ProposedViewSize(width: 100, height: nil))
        let oneLine = textNode(Text("A")).sizeThatFits(.unspecified)
        XCTAssertGreaterThan(plain.height, 3 * oneLine.height)   // wraps to many lines unlimited

        let one = Text(Self.long).lineLimit(1)
        let (s1, l1) = laidOut(one, width: 100)
        XCTAssertEqual(l1.lines.count, 1)
        XCTAssertTrue(s1.hasPrefix("The quick"), s1)
        XCTAssertTrue(s1.hasSuffix("…"), s1)
        XCTAssertLessThanOrEqual(l1.size.width, 100)
        XCTAssertEqual(textNode(one).sizeThatFits(ProposedViewSize(width: 100, height: nil)).height, oneLine.height,
                       accuracy: Self.layoutEpsilon)

        let (s2, l2) = laidOut(Text(Self.long).lineLimit(2), width: 100)
        XCTAssertEqual(l2.lines.count, 2)
        XCTAssertTrue(s2.hasSuffix("…"), s2)
        XCTAssertGreaterThan(s2.count, s1.count)
        // The longest prefix: one more word would not fit in two lines.
        XCTAssertFalse(s2.dropLast().hasSuffix(" "), s2)

        let (head, _) = laidOut(Text(Self.long).lineLimit(1).truncationMode(.head), width: 100)
        XCTAssertTrue(head.hasPrefix("…") && head.hasSuffix("far away"), head)
        let (middle, _) = laidOut(Text(Self.long).lineLimit(1).truncationMode(.middle), width: 100)
        XCTAssertTrue(middle.hasPrefix("The") && middle.hasSuffix("away") && middle.contains("…"), middle)
        // Text that fits is left alone.
        XCTAssertEqual(laidOut(Text("Short").lineLimit(1), width: 100).string, "Short")
    }

    func testMultilineAlignmentAndLineSpacingMoveLines() {
        let text = "A much wider first line\nab"
        let leading = laidOut(Text(text).multilineTextAlignment(.leading), width: 500).layout
        let center = laidOut(Text(text).multilineTextAlignment(.center), width: 500).layout
        let trailing = laidOut(Text(text).multilineTextAlignment(.trailing), width: 500).layout
        XCTAssertEqual(leading.lines.count, 2)
        let free = Double(leading.size.width) - leading.lines[1].width
        XCTAssertGreaterThan(free, 50)
        let first = leading.lines[1].glyphs.lowerBound
        XCTAssertEqual(center.glyphs[first].x - leading.glyphs[first].x, free / 2, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(trailing.glyphs[first].x - leading.glyphs[first].x, free, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(trailing.glyphs[0].x, leading.glyphs[0].x, accuracy: Self.layoutEpsilon)   // the widest line stays

        let spaced = laidOut(Text(text).lineSpacing(10), width: 500).layout
        XCTAssertEqual(Double(spaced.size.height), Double(leading.size.height) + 10, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(spaced.lines[1].baseline, leading.lines[1].baseline + 10, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(spaced.glyphs[first].y, leading.glyphs[first].y + 10, accuracy: Self.layoutEpsilon)

        let reserved = textNode(Text("One").lineLimit(3, reservesSpace: true)).sizeThatFits(.unspecified)
        let single = textNode(Text("One")).sizeThatFits(.unspecified)
        XCTAssertEqual(reserved.height, 3 * single.height, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(textNode(Text("One").lineLimit(2...4)).sizeThatFits(.unspecified).height, 2 * single.height,
                       accuracy: Self.layoutEpsilon)
    }

    func testTrailingAlignmentPixelsOnBothBackends() throws {
        let view = Text("Wide first line\nab").font(.system(size: 20)).multilineTextAlignment(.trailing)
            .foregroundColor(.black)
        let node = textNode(view)
        let size = node.sizeThatFits(.unspecified)
        let image = try ViewTesting.render(view, size: size)
        func inkRight(_ rows: Range<Int>) -> Int {
            var right = -1
            for y in rows { for x in 0..<image.width where image.pixel(x: x, y: y).a > 128 { right = max(right, x) } }
            return right
        }
        let half = image.height / 2
        let top = inkRight(0..<half), bottom = inkRight(half..<image.height)
        XCTAssertGreaterThan(top, image.width - 4)
        // "ab" ends at the right edge too (within its side bearing).
        XCTAssertGreaterThan(bottom, image.width - 6)
    }

    func testMinimumScaleFactorShrinksBeforeTruncatingAndTextCase() {
        let (s, l) = laidOut(Text("Hello there, world").font(.system(size: 20)).lineLimit(1).minimumScaleFactor(0.5), width: 120)
        let node = textNode(Text("Hello there, world").font(.system(size: 20)).lineLimit(1).minimumScaleFactor(0.5))
        let spans = node.laidOut(width: 120)!.spans
        XCTAssertEqual(s, "Hello there, world")   // not truncated: it fits at a smaller size
        XCTAssertEqual(l.lines.count, 1)
        XCTAssertLessThan(spans[0].font.size, 20)
        XCTAssertGreaterThanOrEqual(spans[0].font.size, 10)
        XCTAssertLessThanOrEqual(l.size.width, 120)

        XCTAssertEqual(laidOut(Text("Mixed Case").textCase(.uppercase), width: 500).string, "MIXED CASE")
        XCTAssertEqual(laidOut(Text("Mixed Case").textCase(.lowercase), width: 500).string, "mixed case")
        let tight = laidOut(Text("Tighten").allowsTightening(true).lineLimit(1), width: 500)
        XCTAssertEqual(tight.string, "Tighten")
    }

    func testInlineMarkdownInLiteralsOnly() {
        let t = Text("**bold** and *italic*")
        XCTAssertEqual(t.runs.map(\.string), ["bold", " and ", "italic"])
        XCTAssertEqual(t.runs.map(\.weight), [.bold, nil, nil])
        XCTAssertEqual(t.runs.map(\.italic), [false, false, true])
        let variable = "**bold**"
        XCTAssertEqual(Text(variable).runs.map(\.string), ["**bold**"])
        XCTAssertEqual(Text(verbatim: "*x*").runs.map(\.string), ["*x*"])
        let code = Text("run `swift build` now")
        XCTAssertEqual(code.runs.map(\.string), ["run ", "swift build", " now"])
        XCTAssertEqual(code.runs.map(\.monospaced), [false, true, false])
        let link = Text("see [the docs](https://example.com)")
        XCTAssertEqual(link.runs.map(\.string), ["see ", "the docs"])
        XCTAssertEqual(link.runs[1].foreground, .color(.blue))
        XCTAssertEqual(Text("***both***").runs.first?.weight, .bold)
        XCTAssertEqual(Text("***both***").runs.first?.italic, true)
        // Spaces, snake_case and a lone asterisk are kept as written.
        XCTAssertEqual(Text("  a_b_c * 2  ").runs.map(\.string), ["  a_b_c * 2  "])
        XCTAssertEqual(Text("line one\nline two *x*").string, "line one\nline two x")
    }

    func testMarkdownBoldIsDrawnBold() throws {
        let bold = try ViewTesting.render(Text("**W**").font(.system(size: 40)).foregroundColor(.black),
                                          size: CGSize(width: 60, height: 60))
        let regular = try ViewTesting.render(Text("W").font(.system(size: 40)).foregroundColor(.black),
                                             size: CGSize(width: 60, height: 60))
        func ink(_ image: RasterImage) -> Int {
            var sum = 0
            for y in 0..<image.height { for x in 0..<image.width { sum += Int(image.pixel(x: x, y: y).a) } }
            return sum
        }
        // A bold W covers clearly more than a regular one.
        XCTAssertGreaterThan(Double(ink(bold)), 1.2 * Double(ink(regular)))
    }

    func testDateStylesAndFormatsInUSEnglish() {
        let date = Date(timeIntervalSince1970: 1_559_560_980)   // 2019-06-03 11:23:00 UTC
        XCTAssertEqual(Text(date, style: .date).string, "June 3, 2019")
        // ICU puts a narrow no-break space before the day period.
        XCTAssertEqual(Text(date, style: .time).string.replacingOccurrences(of: "\u{202F}", with: " "), "11:23 AM")
        XCTAssertEqual(Text(0.25, format: .percent).string, "25%")
        XCTAssertEqual(Text(1234.5, format: .number).string, "1,234.5")
        XCTAssertEqual(Text(42, format: .number).string, "42")
    }

    func testOnlyALineLimitTruncatesAndBadNumbersAreIgnored() {
        // A word wider than the text's width overflows as in a canvas; without a line limit nothing is cut.
        let word = "Supercalifragilisticexpialidocious"
        XCTAssertEqual(laidOut(Text(word).multilineTextAlignment(.center), width: 40).string, word)
        let spaced = laidOut(Text("a\nb").lineSpacing(.nan), width: 500).layout
        let plain = laidOut(Text("a\nb"), width: 500).layout
        XCTAssertEqual(spaced.size, plain.size)
        XCTAssertEqual(laidOut(Text("Hello world").lineLimit(0), width: 30).layout.lines.count, 1)
    }
}
