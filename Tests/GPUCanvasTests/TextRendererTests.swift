import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// An attribute Apple's appearance sample marks the animated words with.
struct EmphasisAttribute: TextAttribute {}
/// A second attribute type, to check attributes of different types do not mix.
struct LevelAttribute: TextAttribute { var level: Int }

extension Text.Layout {
    /// Every run of every line, in order (the sample's own extension).
    var flattenedRuns: some RandomAccessCollection<Text.Layout.Run> { flatMap { line in line } }
    /// Every one-glyph slice of every run, in order.
    var flattenedRunSlices: some RandomAccessCollection<Text.Layout.RunSlice> { flattenedRuns.flatMap(\.self) }
}

/// Apple's "appearance" text effect in our words (WWDC24 "Create custom visual effects with SwiftUI"): the
/// emphasised run's glyphs rise into place and fade in one after another, each over `elementDuration`; the
/// other runs fade in over the first `elementDuration`.
struct AppearanceRenderer: TextRenderer {
    var elapsedTime: TimeInterval
    var elementDuration: TimeInterval = 0.4
    /// Points a glyph starts below its place.
    var rise: CGFloat = 20

    var animatableData: Double {
        get { elapsedTime }
        set { elapsedTime = newValue }
    }

    func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
        for run in layout.flattenedRuns {
            if run[EmphasisAttribute.self] != nil {
                for (index, slice) in run.enumerated() {
                    let t = min(max(elapsedTime - Double(index) * elementDuration, 0), elementDuration)
                    let progress = t / elementDuration
                    var copy = ctx
                    copy.opacity = progress
                    copy.translateBy(x: 0, y: (1 - progress) * rise)
                    copy.draw(slice)
                }
            } else {
                var copy = ctx
                copy.opacity = min(1, elapsedTime / elementDuration)
                copy.draw(run)
            }
        }
    }
}

/// Draws line k with `opacities[k]` (1 past the list).
struct LineOpacityRenderer: TextRenderer {
    var opacities: [Double]
    func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
        for (k, line) in layout.enumerated() {
            var copy = ctx
            copy.opacity = k < opacities.count ? opacities[k] : 1
            copy.draw(line)
        }
    }
}

/// Draws glyph `index` (counted over the whole layout) moved by `offset`, the others in place.
struct MoveGlyphRenderer: TextRenderer {
    var index: Int
    var offset: CGSize
    func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
        for (k, slice) in layout.flattenedRunSlices.enumerated() {
            var copy = ctx
            if k == index { copy.translateBy(x: offset.width, y: offset.height) }
            copy.draw(slice)
        }
    }
}

/// `Text.Layout` as the text engine lays it out (numbers against DejaVu Sans's own metrics), and
/// `TextRenderer`s drawing per line and per glyph on both backends.
final class TextRendererTests: XCTestCase {
    /// Layout positions are sums of glyph advances in doubles: equal within this.
    static let layoutEpsilon = 1e-6
    /// A glyph moved by a whole number of points lands on the same pixel grid (origins snap to whole pixels
    /// down and quarter pixels across): its ink box moves by exactly that many pixels.
    static let moveTolerance: CGFloat = 0
    /// Per-glyph draws of glyphs whose ink never shares a pixel composite exactly as one draw of them all;
    /// one level of 8-bit rounding is allowed.
    static let perGlyphVersusWholeTolerance = 1
    /// Largest channel difference between a glyph drawn with its origin snapped and its outline filled at the
    /// exact origin: a snap of at most half a pixel changes an edge pixel's coverage by less than one half.
    static let snappedVersusExactEdge = 128
    /// A pixel darker than this (red channel, black text on white) is ink.
    static let inkThreshold: UInt8 = 160

    // DejaVu Sans 2.37: 2048 units per em, hhea ascender 1901, descender −483, line gap 0; advances (hmtx,
    // as `hb-shape` reports them) m 1995, space 651, H 1540, I 604.
    static let upem = 2048.0
    static let ascender = 1901.0, descender = 483.0
    static let advanceM = 1995.0, advanceSpace = 651.0, advanceH = 1540.0, advanceI = 604.0

    static func dejaVu(_ size: CGFloat) -> Font { .custom("DejaVu Sans", size: size) }

    func layout<V: View>(_ view: V, width: CGFloat) throws -> Text.Layout {
        let node = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(view)))
        return try XCTUnwrap(node.textLayout(width: width))
    }

    /// Black `text` at the top-left of a white canvas of `size`, drawn by `renderer` (nil: the default).
    func render<R: TextRenderer>(_ text: Text, _ renderer: R?, size: CGSize, file: StaticString = #filePath,
                                 line: UInt = #line) throws -> RasterImage {
        if let renderer {
            return try ViewTesting.render(ZStack(alignment: .topLeading) {
                Color.white
                text.foregroundColor(.black).textRenderer(renderer)
            }, size: size, file: file, line: line)
        }
        return try ViewTesting.render(ZStack(alignment: .topLeading) {
            Color.white
            text.foregroundColor(.black)
        }, size: size, file: file, line: line)
    }

    /// The box of ink pixels in columns `xs` and rows `ys` (nil: none).
    func inkBox(_ image: RasterImage, xs: Range<Int>, ys: Range<Int>? = nil) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in ys ?? 0..<image.height {
            for x in xs where image.pixel(x: x, y: y).r < Self.inkThreshold {
                box = (min(box?.minX ?? x, x), min(box?.minY ?? y, y), max(box?.maxX ?? x, x), max(box?.maxY ?? y, y))
            }
        }
        return box
    }

    // MARK: Layout numbers

    func testWrappedParagraphLineCountAndLineBoundsFromTheFontsMetrics() throws {
        // Ten words of 4 × 1995 units at 20 pt (77.93 pt) with 651-unit spaces: three fit in 250 pt (246.5),
        // four do not (330.8), so 4 lines of 3, 3, 3 and 1 words.
        let text = Text(Array(repeating: "mmmm", count: 10).joined(separator: " ")).font(Self.dejaVu(20))
        let l = try layout(text, width: 250)
        XCTAssertEqual(l.count, 4)
        XCTAssertFalse(l.isTruncated)
        let scale = 20 / Self.upem
        let lineHeight = (Self.ascender + Self.descender) * scale
        let threeWords = (3 * 4 * Self.advanceM + 2 * Self.advanceSpace) * scale
        for (k, line) in l.enumerated() {
            let b = line.typographicBounds
            XCTAssertEqual(b.ascent, Self.ascender * scale, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.descent, Self.descender * scale, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.leading, 0, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(line.origin.x, 0, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(line.origin.y, Self.ascender * scale + Double(k) * lineHeight, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.width, k < 3 ? threeWords : 4 * Self.advanceM * scale, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.rect.minY, Double(k) * lineHeight, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.rect.height, lineHeight, accuracy: Self.layoutEpsilon)
        }
        // A line limit truncates, and the layout says so.
        XCTAssertTrue(try layout(text.lineLimit(2), width: 250).isTruncated)
        // Centred lines start where the alignment put them.
        let centred = try layout(text.multilineTextAlignment(.center), width: 250)
        XCTAssertEqual(centred[3].origin.x, (threeWords - 4 * Self.advanceM * scale) / 2, accuracy: Self.layoutEpsilon)
    }

    func testGlyphOriginsIncreaseByTheirAdvances() throws {
        let l = try layout(Text("HIH mmmm").font(Self.dejaVu(40)), width: 1000)
        XCTAssertEqual(l.count, 1)
        let slices = Array(l.flattenedRunSlices)
        let scale = 40 / Self.upem
        let expected = [Self.advanceH, Self.advanceI, Self.advanceH, Self.advanceSpace] + Array(repeating: Self.advanceM, count: 4)
        XCTAssertEqual(slices.count, expected.count)
        var x = 0.0
        for (slice, advance) in zip(slices, expected) {
            let b = slice.typographicBounds
            XCTAssertEqual(b.origin.x, x, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.origin.y, Self.ascender * scale, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.width, advance * scale, accuracy: Self.layoutEpsilon)
            XCTAssertEqual(b.ascent, Self.ascender * scale, accuracy: Self.layoutEpsilon)
            x += advance * scale
        }
        XCTAssertEqual(l[0].typographicBounds.width, x, accuracy: Self.layoutEpsilon)
        // Characters are counted in the text: "HIH mmmm" has them at 0…7, one glyph each.
        XCTAssertEqual(slices.flatMap(\.characterIndices), l[0][0].characterIndices)
        XCTAssertEqual(l[0][0].characterIndices.map { l[0][0].characterIndices[0].distance(to: $0) }, Array(0..<8))
        // Character indices count Characters: "e" + U+0301 is one, so the "x" after it is character 1.
        let accented = try layout(Text(verbatim: "e\u{301}x").font(Self.dejaVu(20)), width: 1000)[0][0].characterIndices
        XCTAssertEqual(accented.first.map { $0.distance(to: accented.last!) }, 1)
        // A slice of two glyphs spans both.
        let pair = Text.Layout.RunSlice(run: l[0][0], indices: 1..<3)
        XCTAssertEqual(pair.typographicBounds.width, (Self.advanceI + Self.advanceH) * scale, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(pair.count, 2)
    }

    func testRightToLeftRunHasItsDirectionAndCharactersInVisualOrder() throws {
        // Hebrew between Latin: three runs, the middle one right to left (DejaVu Sans has Hebrew).
        let l = try layout(Text("abc שלום def").font(Self.dejaVu(20)), width: 1000)
        let runs = Array(l[0])
        XCTAssertEqual(runs.map(\.layoutDirection), [.leftToRight, .rightToLeft, .leftToRight])
        // Left to right on the line, the Hebrew run's characters go from its last (ם, offset 7) to its first.
        let hebrew = runs[1].characterIndices
        let start = runs[0].characterIndices[0]
        XCTAssertEqual(hebrew.map { start.distance(to: $0) }.filter { $0 >= 4 && $0 <= 7 }, [7, 6, 5, 4])
        // Runs abut: each starts where the one before ends.
        for k in 1..<runs.count {
            let before = runs[k - 1].typographicBounds
            XCTAssertEqual(runs[k].typographicBounds.origin.x, before.origin.x + before.width, accuracy: Self.layoutEpsilon)
        }
    }

    func testCustomAttributeIsFoundOnItsOwnRun() throws {
        let text = (Text("plain ") + Text("loud").customAttribute(EmphasisAttribute()).customAttribute(LevelAttribute(level: 1))
                    + Text(" end")).customAttribute(LevelAttribute(level: 2)).font(Self.dejaVu(20))
        let runs = Array(try layout(text, width: 1000)[0])
        XCTAssertEqual(runs.count, 3)
        XCTAssertEqual(runs.map { $0[EmphasisAttribute.self] != nil }, [false, true, false])
        // The inner attribute wins over the one applied outside.
        XCTAssertEqual(runs.map { $0[LevelAttribute.self]?.level }, [2, 1, 2])
        let loud = runs[1]
        XCTAssertEqual(loud.characterIndices.map { runs[0].characterIndices[0].distance(to: $0) }, [6, 7, 8, 9])
        XCTAssertNotNil(loud[0][EmphasisAttribute.self])
    }

    // MARK: Drawing

    func testGlyphMovedByTheRendererIsFoundWhereItWasMoved() throws {
        let text = Text("HIH").font(Self.dejaVu(40))
        let size = CGSize(width: 120, height: 120)
        let l = try layout(text, width: 1000)
        let i = Array(l.flattenedRunSlices)[1].typographicBounds
        // Columns inside the I's advance only (H's side bearings keep its ink out).
        let iColumns = Int(i.origin.x.rounded(.up)) ..< Int((i.origin.x + i.width).rounded(.down))
        let hColumns = 0 ..< Int(i.origin.x.rounded(.down))
        let still = try render(text, MoveGlyphRenderer(index: 1, offset: .zero), size: size)
        let moved = try render(text, MoveGlyphRenderer(index: 1, offset: CGSize(width: 0, height: 50)), size: size)
        let plain = try render(text, Optional<MoveGlyphRenderer>.none, size: size)
        let i0 = try XCTUnwrap(inkBox(still, xs: iColumns))
        let i1 = try XCTUnwrap(inkBox(moved, xs: iColumns))
        XCTAssertEqual(CGFloat(i1.minY - i0.minY), 50, accuracy: Self.moveTolerance)
        XCTAssertEqual(CGFloat(i1.maxY - i0.maxY), 50, accuracy: Self.moveTolerance)
        XCTAssertEqual([i1.minX, i1.maxX], [i0.minX, i0.maxX])
        // Its old place is empty, the H beside it did not move, and drawn in place it is the plain text.
        XCTAssertNil(inkBox(moved, xs: iColumns, ys: i0.minY ..< i0.maxY + 1))
        XCTAssertEqual(inkBox(moved, xs: hColumns).map { [$0.minX, $0.minY, $0.maxX, $0.maxY] },
                       inkBox(plain, xs: hColumns).map { [$0.minX, $0.minY, $0.maxX, $0.maxY] })
        XCTAssertEqual(inkBox(still, xs: iColumns).map { [$0.minY, $0.maxY] }, inkBox(plain, xs: iColumns).map { [$0.minY, $0.maxY] })
        // The I's ink: a stem from the cap height to the baseline (about 29 px at 40 pt; 1493 units).
        XCTAssertEqual(Double(i0.maxY + 1), (Self.ascender * 40 / Self.upem).rounded(), accuracy: 1)
    }

    func testLineWithOpacityZeroLeavesItsBandEmpty() throws {
        let text = Text("Line one\nLine two\nLine three").font(Self.dejaVu(20))
        let size = CGSize(width: 140, height: 80)
        let lineHeight = (Self.ascender + Self.descender) * 20 / Self.upem   // 23.28
        func band(_ k: Int) -> Range<Int> { Int((Double(k) * lineHeight).rounded(.up)) ..< Int((Double(k + 1) * lineHeight).rounded(.down)) }
        let hidden = try render(text, LineOpacityRenderer(opacities: [1, 0, 1]), size: size)
        let shown = try render(text, LineOpacityRenderer(opacities: [1, 1, 1]), size: size)
        XCTAssertNotNil(inkBox(hidden, xs: 0..<140, ys: band(0)))
        XCTAssertNil(inkBox(hidden, xs: 0..<140, ys: band(1)), "line 2 drawn at opacity 0 left ink")
        XCTAssertNotNil(inkBox(hidden, xs: 0..<140, ys: band(2)))
        XCTAssertNotNil(inkBox(shown, xs: 0..<140, ys: band(1)))
        // Every pixel of the line's band is the white behind it.
        for y in band(1) { for x in 0..<140 { XCTAssertEqual(hidden.pixel(x: x, y: y), ViewTesting.pixel(.white)) } }
        // Half opacity: the darkest pixel of the band is about mid grey (black at 0.5 over white).
        let half = try render(text, LineOpacityRenderer(opacities: [1, 0.5, 1]), size: size)
        let darkest = band(1).flatMap { y in (0..<140).map { half.pixel(x: $0, y: y).r } }.min()!
        XCTAssertEqual(Int(darkest), 128, accuracy: 2)
    }

    func testAppearanceEffectRevealsGlyphsOneAfterAnother() throws {
        let text = (Text("ab ") + Text("HHHH").customAttribute(EmphasisAttribute())).font(Self.dejaVu(40))
        let size = CGSize(width: 240, height: 80)
        let l = try layout(text, width: 1000)
        let emphasised = try XCTUnwrap(l.flattenedRuns.first { $0[EmphasisAttribute.self] != nil })
        func columns(_ k: Int) -> Range<Int> {
            let b = emphasised[k].typographicBounds
            return Int(b.origin.x.rounded(.up)) ..< Int((b.origin.x + b.width).rounded(.down))
        }
        let plain = try render(text, Optional<AppearanceRenderer>.none, size: size)
        // At 1.0 s: H 0 and 1 are in place (0.4 s each), H 2 half way (10 pt low, half opaque), H 3 not begun.
        let mid = try render(text, AppearanceRenderer(elapsedTime: 1.0), size: size)
        let placed = try XCTUnwrap(inkBox(plain, xs: columns(2)))
        for k in 0..<2 {
            XCTAssertEqual(inkBox(mid, xs: columns(k)).map { [$0.minX, $0.minY, $0.maxX, $0.maxY] },
                           inkBox(plain, xs: columns(k)).map { [$0.minX, $0.minY, $0.maxX, $0.maxY] })
        }
        // Half opaque black over white is ~128: ink by a looser threshold.
        var rising: (minY: Int, maxY: Int)?
        for y in 0..<mid.height { for x in columns(2) where mid.pixel(x: x, y: y).r < 200 {
            rising = (min(rising?.minY ?? y, y), max(rising?.maxY ?? y, y))
        } }
        XCTAssertEqual(try XCTUnwrap(rising).minY - placed.minY, 10)
        XCTAssertNil(inkBox(mid, xs: columns(3)), "H 3 has not begun: nothing drawn")
        for y in 0..<mid.height { for x in columns(3) { XCTAssertEqual(mid.pixel(x: x, y: y), ViewTesting.pixel(.white)) } }
        // When every glyph has arrived, the slices drawn one by one are the text drawn whole.
        let done = try render(text, AppearanceRenderer(elapsedTime: 2), size: size)
        var worst = 0
        for y in 0..<done.height { for x in 0..<done.width {
            let a = done.pixel(x: x, y: y), b = plain.pixel(x: x, y: y)
            worst = max(worst, abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
        } }
        XCTAssertLessThanOrEqual(worst, Self.perGlyphVersusWholeTolerance)
    }

    func testRendererSizesTheTextViewAndDefaultsToTheTextsSize() throws {
        struct Padded: TextRenderer {
            func draw(layout: Text.Layout, in ctx: inout GraphicsContext) { for line in layout { ctx.draw(line) } }
            func sizeThatFits(proposal: ProposedViewSize, text: TextProxy) -> CGSize {
                let s = text.sizeThatFits(proposal)
                return CGSize(width: s.width + 10, height: s.height + 20)
            }
        }
        let text = Text("HIH").font(Self.dejaVu(40))
        let plain = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(text))).sizeThatFits(.unspecified)
        let scale = 40 / Self.upem
        XCTAssertEqual(plain.width, (2 * Self.advanceH + Self.advanceI) * scale, accuracy: Self.layoutEpsilon)
        let defaulted = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(
            text.textRenderer(LineOpacityRenderer(opacities: [])))))
        XCTAssertEqual(defaulted.sizeThatFits(.unspecified), plain)
        XCTAssertEqual(LineOpacityRenderer(opacities: []).displayPadding, EdgeInsets())
        let padded = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(text.textRenderer(Padded()))))
        XCTAssertEqual(padded.sizeThatFits(.unspecified), CGSize(width: plain.width + 10, height: plain.height + 20))
    }

    func testSceneFileOfARendererDrawsTheMovedGlyphs() throws {
        // A scene file cannot name part of a layout: a layout draw is written as its glyphs' outlines.
        let view = ZStack(alignment: .topLeading) {
            Color.white
            Text("HIH").font(Self.dejaVu(40)).foregroundColor(.black)
                .textRenderer(MoveGlyphRenderer(index: 1, offset: CGSize(width: 0, height: 50)))
        }
        let renderer = ImageRenderer(content: view)
        renderer.proposedSize = ProposedViewSize(width: 120, height: 120)
        let recording = renderer.recording()
        let json = recording.sceneJSON()
        XCTAssertFalse(json.contains(#""op": "text""#), json)
        // The dump names the glyphs drawn, not the whole text.
        XCTAssertTrue(recording.description.contains(#""HIH" 1 glyphs in DejaVu Sans Book 40 pt"#), recording.description)
        XCTAssertTrue(recording.description.contains("(Text.Layout glyphs)"), recording.description)
        let scene = try Scene(jsonData: Data(json.utf8))
        let reference = try SharedRenderers.renderer(.reference)
        let direct = try reference.render(recording)
        let loaded = try reference.render(scene.recording)
        // The scene's outlines sit at the glyphs' exact positions; drawn as text they snap (at most 1/2 px
        // down, 1/8 px across), so only edge pixels differ, each by less than half its range.
        let d = loaded.difference(from: direct)
        XCTAssertLessThanOrEqual(d.maxDiff, Self.snappedVersusExactEdge, "scene vs recording: \(d)")
        XCTAssertLessThan(d.meanAbsDiff, 1, "scene vs recording: \(d)")
        let i = Array(try layout(Text("HIH").font(Self.dejaVu(40)), width: 1000).flattenedRunSlices)[1].typographicBounds
        let iColumns = Int(i.origin.x.rounded(.up)) ..< Int((i.origin.x + i.width).rounded(.down))
        XCTAssertEqual(inkBox(loaded, xs: iColumns).map { $0.minY }, inkBox(direct, xs: iColumns).map { $0.minY })
    }

    func testSubpixelQuantizationCanBeTurnedOff() throws {
        /// Draws the whole layout glyph by glyph, moved `dx` across.
        struct Nudge: TextRenderer {
            var dx: CGFloat
            var options: Text.Layout.DrawingOptions
            func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
                var c = ctx
                c.translateBy(x: dx, y: 0)
                for slice in layout.flattenedRunSlices { c.draw(slice, options: options) }
            }
        }
        // One glyph at x = 0, so a 0.1 px nudge stays inside its quarter-pixel step.
        let text = Text("H").font(Self.dejaVu(40))
        let size = CGSize(width: 60, height: 50)
        let still = try render(text, Nudge(dx: 0, options: []), size: size)
        // 0.1 px is less than half the 1/4 px step: snapped, the glyph does not move; unsnapped, its edges change.
        let snapped = try render(text, Nudge(dx: 0.1, options: []), size: size)
        let exact = try render(text, Nudge(dx: 0.1, options: .disablesSubpixelQuantization), size: size)
        XCTAssertEqual(snapped.difference(from: still).maxDiff, 0)
        XCTAssertGreaterThan(exact.difference(from: still).maxDiff, 10)
    }

    func testUnderlineMovesWithItsGlyphAndLineOriginMovesTheLine() throws {
        let text = Text("HIH").font(Self.dejaVu(40)).underline()
        let size = CGSize(width: 120, height: 120)
        let l = try layout(text, width: 1000)
        let i = Array(l.flattenedRunSlices)[1].typographicBounds
        let iColumns = Int(i.origin.x.rounded(.up)) ..< Int((i.origin.x + i.width).rounded(.down))
        let hColumns = 0 ..< Int(i.origin.x.rounded(.down))
        let baseline = Int(l[0].origin.y.rounded())
        let below = baseline ..< baseline + 8   // DejaVu's underline: 2.2 pt from 3.5 pt under the baseline
        let plain = try render(text, Optional<MoveGlyphRenderer>.none, size: size)
        let moved = try render(text, MoveGlyphRenderer(index: 1, offset: CGSize(width: 0, height: 50)), size: size)
        let bar = try XCTUnwrap(inkBox(plain, xs: iColumns, ys: below))
        XCTAssertNil(inkBox(moved, xs: iColumns, ys: below), "the I's piece of the underline stayed behind")
        XCTAssertEqual(inkBox(moved, xs: iColumns, ys: (below.lowerBound + 50) ..< (below.upperBound + 50))?.minY, bar.minY + 50)
        XCTAssertEqual(inkBox(moved, xs: hColumns, ys: below)?.minY, bar.minY)

        /// Draws line 0 with its origin moved down by `dy`.
        struct Lower: TextRenderer {
            var dy: CGFloat
            func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
                var line = layout[0]
                line.origin.y += dy
                ctx.draw(line)
            }
        }
        let lowered = try render(Text("HIH").font(Self.dejaVu(40)), Lower(dy: 30), size: size)
        let plainBox = try XCTUnwrap(inkBox(try render(Text("HIH").font(Self.dejaVu(40)), Lower(dy: 0), size: size), xs: 0..<120))
        let loweredBox = try XCTUnwrap(inkBox(lowered, xs: 0..<120))
        XCTAssertEqual([loweredBox.minX, loweredBox.minY, loweredBox.maxX, loweredBox.maxY],
                       [plainBox.minX, plainBox.minY + 30, plainBox.maxX, plainBox.maxY + 30])
    }

    func testOutOfRangeSlicesAreClampedAndBadTextIsReported() throws {
        let l = try layout(Text("HIH").font(Self.dejaVu(40)), width: 1000)
        let run = l[0][0]
        let scale = 40 / Self.upem
        XCTAssertEqual(Text.Layout.RunSlice(run: run, indices: 2..<99).typographicBounds.width, Self.advanceH * scale,
                       accuracy: Self.layoutEpsilon)
        XCTAssertEqual(Text.Layout.RunSlice(run: run, indices: -3..<0).typographicBounds.width, 0)
        XCTAssertEqual(Text.Layout.RunSlice(run: run, indices: 7..<9).characterIndices, [])
        // Drawing an empty slice records nothing.
        let recording = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            ctx.draw(Text.Layout.RunSlice(run: run, indices: 5..<9))
        }
        XCTAssertEqual(recording.drawCount, 0)
        // A size that is not a number is the error the default drawing reports, not a blank text view.
        let view = Text("x").font(.system(size: .nan)).textRenderer(LineOpacityRenderer(opacities: []))
            .frame(width: 50, height: 50)
        for (name, renderer) in try ViewTesting.renderers() {
            let r = ImageRenderer(content: view)
            r.proposedSize = ProposedViewSize(width: 50, height: 50)
            XCTAssertThrowsError(try r.render(at: 0, with: renderer), name) { error in
                XCTAssertTrue("\(error)".contains("font size nan is not finite"), "\(name): \(error)")
            }
        }
    }

    func testFiltersOfTheContextApplyToALineDraw() throws {
        /// Line 1 blurred (the sample blurs glyphs as they arrive), line 0 sharp.
        struct BlurSecondLine: TextRenderer {
            func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
                for (k, line) in layout.enumerated() {
                    var copy = ctx
                    if k == 1 { copy.addFilter(.blur(radius: 3)) }
                    copy.draw(line)
                }
            }
        }
        let text = Text("HH\nHH").font(Self.dejaVu(30))
        let image = try render(text, BlurSecondLine(), size: CGSize(width: 80, height: 90))
        let lineHeight = (Self.ascender + Self.descender) * 30 / Self.upem
        func darkest(_ k: Int) -> UInt8 {
            (Int(Double(k) * lineHeight) ..< Int(Double(k + 1) * lineHeight)).flatMap { y in
                (0..<80).map { image.pixel(x: $0, y: y).r }
            }.min()!
        }
        // The sharp H's stems are solid black; blurred (σ 3 pt), a stem about 3 px wide keeps well under its full ink.
        XCTAssertEqual(darkest(0), 0)
        XCTAssertGreaterThan(darkest(1), 60)
        XCTAssertLessThan(darkest(1), 200)
    }

    func testWithAnimationInterpolatesTheRenderersAnimatableData() throws {
        /// The appearance effect played by a state change, as Apple's sample plays it: elapsed time 0 → 2 s
        /// over a linear 2 s animation, started when the view appears.
        struct Appearing: View {
            @State private var elapsed: TimeInterval = 0
            var body: some View {
                ZStack(alignment: .topLeading) {
                    Color.white
                    (Text("ab ") + Text("HHHH").customAttribute(EmphasisAttribute())).font(TextRendererTests.dejaVu(40))
                        .foregroundColor(.black)
                        .textRenderer(AppearanceRenderer(elapsedTime: elapsed))
                }
                .onAppear { withAnimation(.linear(duration: 2)) { elapsed = 2 } }
            }
        }
        func elapsed(at t: TimeInterval) throws -> Double {
            let node = try XCTUnwrap(ViewTesting.first(TextNode.self, in: ViewTesting.tree(Appearing(), time: t)))
            let renderer: AppearanceRenderer = try XCTUnwrap(node.renderer as? AppearanceRenderer)
            return renderer.elapsedTime
        }
        XCTAssertEqual(try elapsed(at: 0), 0, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(try elapsed(at: 0.5), 0.5, accuracy: Self.layoutEpsilon)
        XCTAssertEqual(try elapsed(at: 3), 2, accuracy: Self.layoutEpsilon)
        // Half way through, the frame is the effect drawn at 1 s.
        let size = CGSize(width: 240, height: 80)
        let animated = try ViewTesting.render(Appearing(), size: size, time: 1)
        let still = try render((Text("ab ") + Text("HHHH").customAttribute(EmphasisAttribute())).font(Self.dejaVu(40)),
                               AppearanceRenderer(elapsedTime: 1), size: size)
        XCTAssertEqual(animated.difference(from: still).maxDiff, 0)
    }
}
