import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Canvas symbols: S09/S10's tagged rounded rectangles drawn four times, the symbol recorded once and replayed
/// under each draw's placement, `draw(_:in:)` scaling, the layer a context's state asks for, and unknown ids.
final class ViewSymbolTests: XCTestCase {
    /// Same as `ViewRenderingTests.rounding`: both backends cover the same geometry.
    static let rounding = 2

    /// Three rounded rectangles, 100 × 50, cyan / blue / indigo, tagged 0, 1, 2; drawn top-left at (10, 10),
    /// (30, 20), (50, 30) and symbol 0 again at (70, 40).
    static func overlapping<Symbols: View>(@ViewBuilder symbols: () -> Symbols) -> some View {
        Canvas(renderer: { context, size in
            let s = (0..<3).map { context.resolveSymbol(id: $0)! }
            context.draw(s[0], at: CGPoint(x: 10, y: 10), anchor: .topLeading)
            context.draw(s[1], at: CGPoint(x: 30, y: 20), anchor: .topLeading)
            context.draw(s[2], at: CGPoint(x: 50, y: 30), anchor: .topLeading)
            context.draw(s[0], at: CGPoint(x: 70, y: 40), anchor: .topLeading)
        }, symbols: symbols)
    }

    static let colors: [Color] = [.cyan, .blue, .indigo]

    static var listed: some View {
        overlapping {
            RoundedRectangle(cornerRadius: 10).fill(.cyan).frame(width: 100, height: 50).tag(0)
            RoundedRectangle(cornerRadius: 10).fill(.blue).frame(width: 100, height: 50).tag(1)
            RoundedRectangle(cornerRadius: 10).fill(.indigo).frame(width: 100, height: 50).tag(2)
        }
    }

    static var forEach: some View {
        overlapping {
            ForEach(Array(colors.enumerated()), id: \.0) { n, c in
                RoundedRectangle(cornerRadius: 10).fill(c).frame(width: 100, height: 50).tag(n)
            }
        }
    }

    func testFourOverlappingDrawsInCyanBlueIndigo() throws {
        let image = try ViewTesting.render(Self.listed, size: CGSize(width: 300, height: 200))
        let cyan = ViewTesting.pixel(.cyan), blue = ViewTesting.pixel(.blue), indigo = ViewTesting.pixel(.indigo)
        func check(_ x: Int, _ y: Int, _ p: PixelRGBA8, line: UInt = #line) {
            ViewTesting.assertPixel(image, x, y, p, tolerance: Self.rounding, line: line)
        }
        check(20, 20, cyan)        // the first draw alone
        check(40, 30, blue)        // symbol 1 over the first draw
        check(60, 35, indigo)      // symbol 2 over both
        check(140, 35, indigo)     // symbol 2 alone
        check(80, 50, cyan)        // the second draw of symbol 0, on top of everything
        check(160, 85, cyan)
        check(11, 11, ViewTesting.transparent)     // outside the first draw's rounded corner
        check(200, 20, ViewTesting.transparent)
    }

    /// S10: the symbols made by `ForEach` record the same frame as the listed ones.
    func testForEachSymbolsRecordTheSameFrame() {
        func recording<V: View>(_ v: V) -> Recording {
            let r = ImageRenderer(content: v)
            r.proposedSize = ProposedViewSize(width: 300, height: 200)
            return r.recording()
        }
        XCTAssertEqual(recording(Self.listed), recording(Self.forEach))
    }

    /// Each draw replays the symbol's one recorded fill under a translation to its point, with its own number.
    func testDrawsReplayTheRecordedCommandsUnderTheirPlacement() {
        let r = ImageRenderer(content: Self.listed)
        r.proposedSize = ProposedViewSize(width: 300, height: 200)
        let recording = r.recording()
        XCTAssertEqual(recording.drawCount, 4)
        let draws = recording.root.items.compactMap { item -> DrawCommand? in
            if case .draw(let d) = item { return d }
            return nil
        }
        XCTAssertEqual(draws.map(\.transform), [CGAffineTransform(translationX: 10, y: 10), CGAffineTransform(translationX: 30, y: 20),
                                                CGAffineTransform(translationX: 50, y: 30), CGAffineTransform(translationX: 70, y: 40)])
        XCTAssertEqual(draws.map(\.drawNumber), [0, 1, 2, 3])
        XCTAssertEqual(draws[0].path, RoundedRectangle(cornerRadius: 10).path(in: CGRect(x: 0, y: 0, width: 100, height: 50)))
        XCTAssertEqual(draws[0].path, draws[3].path)
    }

    /// A symbol is evaluated once per frame however often it is drawn.
    func testASymbolIsRecordedOncePerFrame() {
        final class Count { var n = 0 }
        let count = Count()
        let view = Canvas { context, size in
            let s = context.resolveSymbol(id: "dot")!
            for i in 0..<5 { context.draw(s, at: CGPoint(x: 10 * i, y: 0)) }
            _ = context.resolveSymbol(id: "dot")
        } symbols: {
            Canvas { context, size in
                count.n += 1
                context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.red))
            }.frame(width: 4, height: 4).tag("dot")
        }
        let r = ImageRenderer(content: view)
        r.proposedSize = ProposedViewSize(width: 60, height: 10)
        XCTAssertEqual(r.recording().drawCount, 5)
        XCTAssertEqual(count.n, 1)
    }

    /// `draw(_:in:)` scales the symbol to the rect; a context with opacity replays into one layer with it.
    func testDrawInRectScalesAndContextStateMakesALayer() throws {
        let red = ViewTesting.pixel(.red)
        let view = Canvas { context, size in
            var c = context
            let s = c.resolveSymbol(id: 7)!
            XCTAssertEqual(s.size, CGSize(width: 10, height: 10))
            c.draw(s, in: CGRect(x: 0, y: 0, width: 40, height: 20))
            c.opacity = 0.5
            c.draw(s, in: CGRect(x: 50, y: 0, width: 10, height: 10))
            XCTAssertNil(c.resolveSymbol(id: 8))
            XCTAssertNil(c.resolveSymbol(id: "7"))
        } symbols: {
            Color.red.frame(width: 10, height: 10).tag(7)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 60, height: 20))
        ViewTesting.assertPixel(image, 38, 18, red, tolerance: Self.rounding)
        ViewTesting.assertPixel(image, 55, 5, PixelRGBA8(r: red.r / 2, g: red.g / 2, b: red.b / 2, a: 128), tolerance: Self.rounding)
        let r = ImageRenderer(content: view)
        r.proposedSize = ProposedViewSize(width: 60, height: 20)
        guard case .layer(let layer) = r.recording().root.items.last else { return XCTFail("the second draw is a layer") }
        XCTAssertEqual(layer.state.opacity, 0.5)
    }

    /// A canvas recorded or rendered directly (not placed in a view) has its symbols too.
    func testACanvasRenderedDirectlyResolvesItsSymbols() throws {
        let canvas = Canvas { context, size in
            if let s = context.resolveSymbol(id: 0) { context.draw(s, in: CGRect(origin: .zero, size: size)) }
        } symbols: { Color.red.frame(width: 1, height: 1).tag(0) }
        XCTAssertEqual(canvas.record(size: CGSize(width: 10, height: 10)).drawCount, 1)
        for (name, renderer) in try ViewTesting.renderers() {
            let image = try renderer.render(canvas, size: CGSize(width: 10, height: 10))
            XCTAssertEqual(image.pixel(x: 9, y: 9), ViewTesting.pixel(.red), name)
        }
    }

    /// S05's shape in this test's words: a generic scatter-plot view drawing its mark view (here a stroked
    /// circle; the seed's SF Symbol is the image helper's) in each of a list of rects, framed, with a border.
    struct ScatterPlot<Mark: View>: View {
        let rects: [CGRect]
        let mark: Mark
        enum Symbol: Hashable { case mark }
        var body: some View {
            Canvas { context, size in
                if let mark = context.resolveSymbol(id: Symbol.mark) {
                    for rect in rects { context.draw(mark, in: rect) }
                }
            } symbols: {
                mark.tag(Symbol.mark)
            }
            .frame(width: 300, height: 200)
            .border(Color.blue)
        }
    }

    func testScatterPlotDrawsTheMarkScaledIntoEachRect() throws {
        let rects = (0..<50).map { i in CGRect(x: 10 + CGFloat(i % 10) * 28, y: 20 + CGFloat(i / 10) * 34, width: 20, height: 20) }
        let view = ScatterPlot(rects: rects, mark: Circle().fill(.red).frame(width: 10, height: 10))
        let image = try ViewTesting.render(view, size: CGSize(width: 300, height: 200))
        let red = ViewTesting.pixel(.red)
        for r in [rects[0], rects[9], rects[23], rects[49]] {
            ViewTesting.assertPixel(image, Int(r.midX), Int(r.midY), red, tolerance: Self.rounding)
            ViewTesting.assertPixel(image, Int(r.minX) + 1, Int(r.minY) + 1, ViewTesting.transparent, tolerance: Self.rounding)
        }
        ViewTesting.assertPixel(image, 0, 100, ViewTesting.pixel(.blue), tolerance: Self.rounding)
        let r = ImageRenderer(content: view)
        r.proposedSize = ProposedViewSize(width: 300, height: 200)
        XCTAssertEqual(r.recording().drawCount, 50 + 1, "50 marks and the border")
    }

    /// A canvas used as a symbol is clipped to its frame wherever the symbol is drawn.
    func testACanvasSymbolIsClippedToItsFrame() throws {
        let view = Canvas { context, size in
            context.draw(context.resolveSymbol(id: 0)!, at: CGPoint(x: 20, y: 20), anchor: .topLeading)
        } symbols: {
            Canvas { context, size in
                context.fill(Path(CGRect(x: -10, y: -10, width: size.width + 20, height: size.height + 20)), with: .color(.red))
            }.frame(width: 10, height: 10).tag(0)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 50, height: 50))
        ViewTesting.assertPixel(image, 25, 25, ViewTesting.pixel(.red), tolerance: Self.rounding)
        ViewTesting.assertPixel(image, 18, 25, ViewTesting.transparent, tolerance: Self.rounding)
        ViewTesting.assertPixel(image, 31, 25, ViewTesting.transparent, tolerance: Self.rounding)
    }
}
