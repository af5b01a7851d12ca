// Tab stops: NSParagraphStyle's default (12 left stops every 28 pt, `defaultTabInterval` 0) in the engine's
// glyph positions, `Text.Layout`, measured sizes, wrapping, alignment, truncation, right-to-left lines and
// pixels on both backends.
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class TabStopTests: XCTestCase {
    /// Positions are sums of integer font units × size/upem: only double rounding differs from the exact figures.
    static let positionTolerance = 1e-9
    /// A pixel darker than this (red channel, black text on white) is ink.
    static let inkThreshold: UInt8 = 160

    // DejaVu Sans 2.37 (hmtx as `hb-shape` reports it): 2048 units per em; advances a 1255, b 1300, space 651,
    // alef 1369, bet 1184, ellipsis 2048.
    static let upem = 2048.0
    static let advanceA = 1255.0, advanceB = 1300.0, advanceSpace = 651.0
    static let advanceAlef = 1369.0, advanceBet = 1184.0
    static let stop = 28.0

    let engine = TextEngine.shared

    func layout(_ string: String, size: Double = 20, maxWidth: Double? = nil) throws -> TextLayout {
        try engine.layout([TextSpan(string: string, font: FontRequest(family: "DejaVu Sans", size: size))],
                          maxWidth: maxWidth)
    }

    /// The glyphs of `line` with their x, left to right.
    func xs(_ l: TextLayout, line: Int = 0) -> [(glyph: UInt32, x: Double, advance: Double)] {
        l.glyphs[l.lines[line].glyphs].map { ($0.glyph, $0.x, $0.advance) }
    }

    static let glyphB: UInt32 = 69

    func bX(_ l: TextLayout, line: Int = 0, file: StaticString = #filePath, lineNumber: UInt = #line) throws -> Double {
        try XCTUnwrap(xs(l, line: line).first { $0.glyph == Self.glyphB }, file: file, line: lineNumber).x
    }

    // MARK: The engine

    func testTabGoesToTheFirstStopAtAnySize() throws {
        for size in [10.0, 20.0, 40.0] {
            let l = try layout("a\tb", size: size)
            XCTAssertEqual(l.lines.count, 1)
            let g = xs(l)
            XCTAssertEqual(g.count, 3, "a, the tab's space glyph, b")
            XCTAssertEqual(try bX(l), Self.stop, accuracy: Self.positionTolerance, "size \(size)")
            XCTAssertEqual(g[1].advance, Self.stop - Self.advanceA * size / Self.upem, accuracy: Self.positionTolerance)
            XCTAssertEqual(l.lines[0].width, Self.stop + Self.advanceB * size / Self.upem,
                           accuracy: Self.positionTolerance)
            XCTAssertEqual(Double(l.size.width), Self.stop + Self.advanceB * size / Self.upem,
                           accuracy: Self.positionTolerance)
        }
    }

    func testTextPastAStopGoesToTheNextOne() throws {
        // 7 a at 20 pt: 85.79 pt, past the third stop (84): b at the fourth, 112.
        XCTAssertEqual(7 * Self.advanceA * 20 / Self.upem, 85.791, accuracy: 1e-3)
        XCTAssertEqual(try bX(try layout("aaaaaaa\tb")), 4 * Self.stop, accuracy: Self.positionTolerance)
        // 6 a: 73.54 pt, before the third stop: b at 84.
        XCTAssertEqual(try bX(try layout("aaaaaa\tb")), 3 * Self.stop, accuracy: Self.positionTolerance)
    }

    func testTwoTabsAndALeadingTab() throws {
        XCTAssertEqual(try bX(try layout("a\t\tb")), 2 * Self.stop, accuracy: Self.positionTolerance)
        XCTAssertEqual(try bX(try layout("\tb")), Self.stop, accuracy: Self.positionTolerance)
        XCTAssertEqual(try bX(try layout("\t\t\tb")), 3 * Self.stop, accuracy: Self.positionTolerance)
        // A tab's glyph draws nothing: it is the font's space glyph (3), not a .notdef box.
        XCTAssertEqual(xs(try layout("\tb"))[0].glyph, 3)
    }

    func testPastTheTwelfthStopATabIsOneSpace() throws {
        let space = Self.advanceSpace * 20 / Self.upem
        // Twelve tabs reach 336; the thirteenth has no stop left.
        XCTAssertEqual(try bX(try layout(String(repeating: "\t", count: 12) + "b")), 12 * Self.stop,
                       accuracy: Self.positionTolerance)
        XCTAssertEqual(try bX(try layout(String(repeating: "\t", count: 13) + "b")), 12 * Self.stop + space,
                       accuracy: Self.positionTolerance)
        XCTAssertEqual(try bX(try layout(String(repeating: "\t", count: 15) + "b")), 12 * Self.stop + 3 * space,
                       accuracy: Self.positionTolerance)
        // 30 a at 20 pt end at 367.68, past 336: the tab is a space there too.
        let a30 = 30 * Self.advanceA * 20 / Self.upem
        XCTAssertEqual(try bX(try layout(String(repeating: "a", count: 30) + "\tb")), a30 + space,
                       accuracy: Self.positionTolerance)
        // 26 a end at 318.65: the twelfth stop.
        XCTAssertEqual(try bX(try layout(String(repeating: "a", count: 26) + "\tb")), 12 * Self.stop,
                       accuracy: Self.positionTolerance)
    }

    func testStopRule() {
        XCTAssertEqual(TabStops.advance(at: 0, space: 5), 28)
        XCTAssertEqual(TabStops.advance(at: 27.5, space: 5), 0.5)
        // A pen at a stop goes to the next one (stops lie strictly after the pen), also when rounding left it a
        // hair short of it.
        XCTAssertEqual(TabStops.advance(at: 28, space: 5), 28)
        XCTAssertEqual(TabStops.advance(at: 28 - 1e-12, space: 5), 28 + 1e-12, accuracy: 1e-9)
        XCTAssertEqual(TabStops.advance(at: 335, space: 5), 1)
        XCTAssertEqual(TabStops.advance(at: 336, space: 5), 5)
        // Negative tracking can leave the pen before the line's start: the first stop is still 28.
        XCTAssertEqual(TabStops.advance(at: -3, space: 5), 31)
    }

    func testWrappedSecondLineMeasuresFromItsOwnStart() throws {
        // "aaaa aaaa\tb" in 70 pt: "aaaa " then "aaaa\tb" (4 a: 49.02 → the tab ends at 56, b 12.70 wide: 68.70).
        let l = try layout("aaaa aaaa\tb", maxWidth: 70)
        XCTAssertEqual(l.lines.count, 2)
        XCTAssertEqual(xs(l, line: 0).count, 4, "aaaa (trailing space not placed)")
        XCTAssertEqual(try bX(l, line: 1), 2 * Self.stop, accuracy: Self.positionTolerance)
        XCTAssertEqual(l.lines[1].width, 2 * Self.stop + Self.advanceB * 20 / Self.upem,
                       accuracy: Self.positionTolerance)
        // Unwrapped, the same tab is measured from the paragraph's start (104.08 → 112).
        XCTAssertEqual(try bX(try layout("aaaa aaaa\tb")), 4 * Self.stop, accuracy: Self.positionTolerance)
    }

    func testTabIsABreakOpportunityAndHangsAtTheWrap() throws {
        // "aaaa\tbbbb" in 60 pt: b would start at 56 and end at 106.8, so the line breaks after the tab (UAX #14:
        // a tab is BA, break after); the tab hangs on line 1 (not placed, no width) and "bbbb" starts line 2 at 0.
        let l = try layout("aaaa\tbbbb", maxWidth: 60)
        XCTAssertEqual(l.lines.count, 2)
        XCTAssertEqual(xs(l, line: 0).map(\.glyph), [68, 68, 68, 68])
        XCTAssertEqual(l.lines[0].width, 4 * Self.advanceA * 20 / Self.upem, accuracy: Self.positionTolerance)
        XCTAssertEqual(try bX(l, line: 1), 0, accuracy: Self.positionTolerance)
        // Trailing tabs never make a line overflow nor count in its width.
        let t = try layout("aaaa\t\t\t\t\t", maxWidth: 60)
        XCTAssertEqual(t.lines.count, 1)
        XCTAssertEqual(t.lines[0].width, 4 * Self.advanceA * 20 / Self.upem, accuracy: Self.positionTolerance)
    }

    func testRightToLeftParagraphMeasuresFromTheRightEnd() throws {
        // Hebrew "alef TAB bet": a right-to-left paragraph (first strong character R). Alef is read first, at the
        // right end; the tab takes the pen 28 pt from there, and bet's right (start) edge is at the stop.
        let l = try layout("\u{5D0}\t\u{5D1}")
        XCTAssertEqual(l.lines.count, 1)
        let g = xs(l)
        XCTAssertEqual(g.count, 3)
        let alef = Self.advanceAlef * 20 / Self.upem, bet = Self.advanceBet * 20 / Self.upem
        let width = l.lines[0].width
        XCTAssertEqual(width, Self.stop + bet, accuracy: Self.positionTolerance)
        XCTAssertEqual(g[0].x, 0, accuracy: Self.positionTolerance, "bet, leftmost")
        XCTAssertEqual(g[1].advance, Self.stop - alef, accuracy: Self.positionTolerance, "the tab")
        XCTAssertEqual(g[2].x, width - alef, accuracy: Self.positionTolerance, "alef, at the right end")
        XCTAssertEqual(width - (g[0].x + g[0].advance), Self.stop, accuracy: Self.positionTolerance,
                       "bet's start edge is 28 pt from the line's start edge")
        XCTAssertTrue(l.glyphs.allSatisfy { $0.level == 1 })
    }

    func testMixedDirectionsMeasureFromTheStartEdge() throws {
        // UAX #9 rule L1 puts a tab at the paragraph's level, so whatever precedes it in logical order lies
        // between it and the start edge. Left-to-right "a" + Hebrew "alef bet" + tab + "b": the Hebrew pair is
        // reversed (bet, alef); the three end at 37.19, so b is at the second stop, 56.
        let ltr = try layout("a\u{5D0}\u{5D1}\tb")
        XCTAssertEqual(xs(ltr).map(\.glyph), [68, 1320, 1319, 3, Self.glyphB])
        XCTAssertEqual(try bX(ltr), 2 * Self.stop, accuracy: Self.positionTolerance)
        // Right-to-left "alef" + "ab" + tab + "c": the tab is at the paragraph's level (not a space joining "ab"
        // and "c" into one left-to-right run), so from the left: c, tab, a, b, alef. The text before the tab
        // ends 38.32 pt from the right end, and c's start (right) edge is at the second stop, 56 pt from it.
        let rtl = try layout("\u{5D0}ab\tc")
        let g = xs(rtl)
        XCTAssertEqual(g.map(\.glyph), [70, 3, 68, 69, 1319], "c, tab, a, b, alef from the left")
        XCTAssertEqual(rtl.lines[0].width - (g[0].x + g[0].advance), 2 * Self.stop, accuracy: Self.positionTolerance)
        let before = (Self.advanceAlef + Self.advanceA + Self.advanceB) * 20 / Self.upem
        XCTAssertEqual(g[1].advance, 2 * Self.stop - before, accuracy: Self.positionTolerance)
    }

    // MARK: Views, Text.Layout, drawing

    static func dejaVu(_ size: CGFloat) -> Font { .custom("DejaVu Sans", size: size) }

    func viewLayout<V: View>(_ view: V, width: CGFloat) throws -> Text.Layout {
        let node = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(view)))
        return try XCTUnwrap(node.textLayout(width: width))
    }

    func testTextLayoutGlyphOriginsAndMeasuredSize() throws {
        let text = Text("a\tb").font(Self.dejaVu(20))
        let l = try viewLayout(text, width: 500)
        let slices = Array(l.flattenedRunSlices)
        XCTAssertEqual(slices.count, 3)
        let b = Self.advanceB * 20 / Self.upem
        XCTAssertEqual(Double(slices[2].typographicBounds.origin.x), Self.stop, accuracy: Self.positionTolerance)
        XCTAssertEqual(Double(slices[1].typographicBounds.width), Self.stop - Self.advanceA * 20 / Self.upem,
                       accuracy: Self.positionTolerance)
        XCTAssertEqual(Double(l[0].typographicBounds.width), Self.stop + b, accuracy: Self.positionTolerance)
        XCTAssertEqual(slices.map { $0.characterIndices.map(\.offset) }, [[0], [1], [2]])
        let size = ViewTesting.tree(text).sizeThatFits(.unspecified)
        XCTAssertEqual(Double(size.width), Self.stop + b, accuracy: Self.positionTolerance)
        // GraphicsContext.ResolvedText measures the same.
        var measured = CGSize.zero
        _ = Recording(size: CGSize(width: 100, height: 100)) { context, _ in
            measured = context.resolve(text).measure(in: CGSize(width: 1000, height: 1000))
        }
        XCTAssertEqual(Double(measured.width), Self.stop + b, accuracy: Self.positionTolerance)
    }

    func testCentredLinesKeepTheirTabsAndMoveWhole() throws {
        // Line 2 "aaaa\tb" (68.70 pt) centred under line 1 "aaaa aaaa" … kept narrower by the width: b stays 56 pt
        // from its own line's origin.
        let text = Text("aaaa aaaa\tb").font(Self.dejaVu(20)).multilineTextAlignment(.center)
        let l = try viewLayout(text, width: 70)
        XCTAssertEqual(l.count, 2)
        let line = l[1]
        let slices = Array(line.flatMap { $0 })
        let bSlice = try XCTUnwrap(slices.last)
        XCTAssertEqual(Double(bSlice.typographicBounds.origin.x - line.origin.x), 2 * Self.stop,
                       accuracy: Self.positionTolerance)
        // Centred: line 1 (49.02) sits (68.70 − 49.02) / 2 in from line 2.
        let w1 = 4 * Self.advanceA * 20 / Self.upem, w2 = 2 * Self.stop + Self.advanceB * 20 / Self.upem
        XCTAssertEqual(Double(l[0].origin.x - line.origin.x), (w2 - w1) / 2, accuracy: Self.positionTolerance)
    }

    func testTruncationKeepsTheTab() throws {
        // One line, 80 pt: "aaaa\t" ends at 56, then b (12.70) and the ellipsis (20) — "aaaa\tb…" is 88.7 and
        // does not fit, so the tail cut keeps "aaaa\t" and the ellipsis at 56 (the tab before it is whitespace at
        // the cut and is dropped: "aaaa…" at 49.02).
        let text = Text("aaaa\tbbbbbbbb").font(Self.dejaVu(20)).lineLimit(1)
        let l = try viewLayout(text, width: 80)
        XCTAssertTrue(l.isTruncated)
        let slices = Array(l.flattenedRunSlices)
        XCTAssertEqual(slices.count, 5, "aaaa…")
        XCTAssertEqual(Double(slices[4].typographicBounds.origin.x), 4 * Self.advanceA * 20 / Self.upem,
                       accuracy: Self.positionTolerance)
        // 120 pt: "aaaa\tbbb…" (56 + 3 × 12.70 + 20 = 114.09) fits and b starts at the stop.
        let wide = try viewLayout(text, width: 120)
        let ws = Array(wide.flattenedRunSlices)
        XCTAssertEqual(ws.count, 9, "aaaa, tab, bbb, …")
        XCTAssertEqual(Double(ws[5].typographicBounds.origin.x), 2 * Self.stop, accuracy: Self.positionTolerance)
    }

    /// Black text drawn on white by each backend; the ink box of columns `xs`.
    func inkBox(_ image: RasterImage, xs: Range<Int>) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<image.height {
            for x in xs where image.pixel(x: x, y: y).r < Self.inkThreshold {
                box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
            }
        }
        return box
    }

    func testInkOfBIsAtItsStopOnBothBackends() throws {
        // "a\tb" drawn at x 10 (top-leading) puts b's origin at 38: its ink must be exactly "b"'s drawn alone at
        // 38. DejaVu Sans b's outline starts at xMin 186 units (1.82 pt): x 39.82, so column 39 is 18 % covered,
        // lighter than `inkThreshold` (37 %), and the first ink column is 40. a (xMax 1069 units, 10.44 pt) ends at
        // x 20.44: column 20 is 44 % covered, its last ink column.
        let font = Self.dejaVu(20)
        func scene(_ draws: @escaping (GraphicsContext) -> Void) -> Recording {
            Recording(size: CGSize(width: 120, height: 40)) { context, size in
                context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
                draws(context)
            }
        }
        let tabbed = scene { c in
            c.draw(Text("a\tb").font(font).foregroundColor(.black), at: CGPoint(x: 10, y: 5), anchor: .topLeading)
        }
        let alone = scene { c in
            c.draw(Text("b").font(font).foregroundColor(.black), at: CGPoint(x: 38, y: 5), anchor: .topLeading)
        }
        let inRect = scene { c in
            c.draw(Text("a\tb").font(font).foregroundColor(.black), in: CGRect(x: 10, y: 5, width: 100, height: 30))
        }
        for (name, r) in try BackendComparison.renderers() {
            let t = try r.render(tabbed), a = try r.render(alone), i = try r.render(inRect)
            let bInk = try XCTUnwrap(inkBox(t, xs: 30..<120), name)
            XCTAssertEqual(bInk.minX, 40, name)
            let aloneInk = try XCTUnwrap(inkBox(a, xs: 30..<120), name)
            XCTAssertTrue(bInk == aloneInk, "\(name): \(bInk) vs \(aloneInk)")
            let rectInk = try XCTUnwrap(inkBox(i, xs: 30..<120), name)
            XCTAssertTrue(bInk == rectInk, "\(name): draw(in:) \(rectInk) vs draw(at:) \(bInk)")
            // Nothing between a's ink and b's: the tab draws nothing.
            let aInk = try XCTUnwrap(inkBox(t, xs: 0..<30), name)
            XCTAssertEqual(aInk.maxX, 20, name)
            XCTAssertNil(inkBox(t, xs: (aInk.maxX + 1)..<bInk.minX), name)
        }
    }

    func testSceneFileRoundTripsATab() throws {
        let recording = Recording(size: CGSize(width: 120, height: 40)) { context, _ in
            context.draw(Text("a\tb").font(Self.dejaVu(20)), at: CGPoint(x: 10, y: 5), anchor: .topLeading)
        }
        let json = recording.sceneJSON()
        XCTAssertTrue(json.contains("a\\tb"), json)
        let again = try Scene(jsonData: Data(json.utf8)).recording
        XCTAssertEqual(again, recording, json)
    }
}

extension TabStopTests {
    /// Tabs are resolved once per line and a line break measures again only what the new line keeps, so a
    /// paragraph of tabs lays out in linear time, wrapped (short lines) or not (one line of 100 000 tabs, where
    /// every tab past the twelfth stop is a space).
    func testTabHeavyParagraphsLayOutInLinearTime() throws {
        try TestTier.requireThorough()
        let wrapped = String(repeating: "ab\tcd\t\t", count: 30_000)
        var start = Date()
        let w = try layout(wrapped, maxWidth: 150)
        let wrappedSeconds = Date().timeIntervalSince(start)
        XCTAssertGreaterThan(w.lines.count, 10_000)
        for line in w.lines { XCTAssertLessThanOrEqual(line.width, 150 + Self.positionTolerance) }
        start = Date()
        let flat = try layout(String(repeating: "\t", count: 100_000) + "b")
        let flatSeconds = Date().timeIntervalSince(start)
        XCTAssertEqual(try bX(flat), 12 * Self.stop + 99_988 * Self.advanceSpace * 20 / Self.upem, accuracy: 1e-6)
        print("TabStopTests: 210 000 characters wrapped in \(wrappedSeconds) s, 100 000 tabs in \(flatSeconds) s")
        /// Both take well under a second in a debug build; quadratic work would take minutes.
        let debugBound = 30.0
        XCTAssertLessThan(wrappedSeconds, debugBound)
        XCTAssertLessThan(flatSeconds, debugBound)
    }
}
