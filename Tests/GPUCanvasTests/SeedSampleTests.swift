import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Every seed sample (../shared/seeds/Samples.swift, S01–S14; its README says what each draws) drawn again in
/// this file's own words with the same API calls, through views and `ImageRenderer` where the sample is a view,
/// on the reference and the default GLES backend, and checked by its pixels: every pixel assertion runs on both
/// backends' images, which must also meet the default bar against each other. The animated samples (S11, S14)
/// give the same bytes for the same time on every run; S12's three ways give one picture.
final class SeedSampleTests: XCTestCase {
    /// Inside a solid shape both backends give the named colour exactly; one 8-bit step of colour rounding and
    /// one of coverage at pixels next to an anti-aliased edge.
    static let rounding = 2
    /// Gradient colours: the 8-bit rounding of each stop plus the backends' interpolation at a pixel centre
    /// (the GLES one interpolates in single precision and rounds once more).
    static let gradientRounding = 3
    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)

    /// The seeds' canvases are framed (or proposed) 300 × 200 points.
    static let canvas = CGSize(width: 300, height: 200)

    /// `view` proposed `size`, at `time` (`TimelineView`s at `startDate + time`), on each backend; the two
    /// images meet the default bar.
    func renderBoth<V: View>(_ view: V, size: CGSize = canvas, time: TimeInterval = 0, scale: CGFloat = 1,
                             startDate: Date = ImageRenderer<V>.defaultStartDate,
                             file: StaticString = #filePath, line: UInt = #line) throws -> [(name: String, image: RasterImage)] {
        let images = try ViewTesting.renderers().map { name, renderer in
            let r = ImageRenderer(content: view, startDate: startDate)
            r.proposedSize = ProposedViewSize(size)
            r.scale = scale
            return (name, try r.render(at: time, with: renderer))
        }
        let d = images[1].1.difference(from: images[0].1)
        XCTAssertTrue(d.meetsDefaultBar, "gles vs reference: \(d)", file: file, line: line)
        return images
    }

    /// Asserts the pixels at `points` are `expected` on every image.
    func expect(_ images: [(name: String, image: RasterImage)], _ expected: PixelRGBA8, at points: [(Int, Int)],
                tolerance: Int = rounding, file: StaticString = #filePath, line: UInt = #line) {
        for (name, image) in images {
            for (x, y) in points {
                let p = image.pixel(x: x, y: y)
                let ok = abs(Int(p.r) - Int(expected.r)) <= tolerance && abs(Int(p.g) - Int(expected.g)) <= tolerance
                    && abs(Int(p.b) - Int(expected.b)) <= tolerance && abs(Int(p.a) - Int(expected.a)) <= tolerance
                XCTAssertTrue(ok, "\(name): pixel (\(x), \(y)) is \(p), expected \(expected) ± \(tolerance)", file: file, line: line)
            }
        }
    }

    let green = ViewTesting.pixel(.green), blue = ViewTesting.pixel(.blue)

    // MARK: S01–S04: an ellipse, stroked, filled, clipped

    /// The ellipse filling a canvas framed 300 × 200; `stroked` draws its 4 pt outline, else fills it.
    struct FramedEllipse: View {
        var stroked = false
        var bordered = false
        var body: some View {
            let canvas = Canvas { context, size in
                let oval = Path(ellipseIn: CGRect(origin: .zero, size: size))
                if stroked {
                    context.stroke(oval, with: .color(.green), lineWidth: 4)
                } else {
                    context.fill(oval, with: .color(.green))
                }
            }
            .frame(width: 300, height: 200)
            if bordered { canvas.border(Color.blue) } else { canvas }
        }
    }

    /// S01: the outline runs along the frame's edges inside it (half of the 4 pt line is outside the canvas),
    /// the 1 pt blue border is drawn over it at the very edge, and the middle is empty.
    func testS01OutlinedEllipseWithABlueBorder() throws {
        let images = try renderBoth(FramedEllipse(stroked: true, bordered: true))
        expect(images, blue, at: [(150, 0), (150, 199), (0, 100), (299, 100), (0, 0), (299, 199), (40, 0)])
        // The ring, one pixel inside the border: top, bottom, left and right vertices.
        expect(images, green, at: [(150, 1), (150, 198), (1, 100), (298, 100)])
        // Inside the ring and in the corners outside it.
        expect(images, Self.clear, at: [(150, 100), (150, 4), (20, 20), (280, 180)])
        // Along the diagonal: the ring crosses x = 150 ± 150·cos 45° at y = 100 ± 100·sin 45°.
        let x = Int(150 - 150 * 0.5.squareRoot()), y = Int(100 - 100 * 0.5.squareRoot())
        for (name, image) in images {
            XCTAssertGreaterThan(image.pixel(x: x, y: y).g, 100, "\(name): the ring at (\(x), \(y))")
        }
    }

    /// S02: filled, no border.
    func testS02FilledEllipse() throws {
        let images = try renderBoth(FramedEllipse())
        expect(images, green, at: [(150, 100), (5, 100), (294, 100), (150, 3), (150, 196), (60, 40)])
        expect(images, Self.clear, at: [(0, 0), (299, 0), (0, 199), (299, 199), (20, 15)])
    }

    /// The ellipse clipped to the canvas's top-left quarter; `copy` clips a copy of the context instead and the
    /// original then fills a blue rectangle a quarter of the canvas in, half its size (S04).
    struct ClippedEllipse: View {
        var copy = false
        var body: some View {
            Canvas { context, size in
                let half = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
                let quadrant = Path(CGRect(origin: .zero, size: half))
                let oval = Path(ellipseIn: CGRect(origin: .zero, size: size))
                if copy {
                    var masked = context
                    masked.clip(to: quadrant)
                    masked.fill(oval, with: .color(.green))
                    context.fill(Path(CGRect(origin: CGPoint(x: size.width / 4, y: size.height / 4), size: half)),
                                 with: .color(.blue))
                } else {
                    context.clip(to: quadrant)
                    context.fill(oval, with: .color(.green))
                }
            }
            .frame(width: 300, height: 200)
        }
    }

    /// S03: only the top-left 150 × 100 quadrant of the filled ellipse; the clip's edges fall on pixel edges.
    func testS03OnlyTheTopLeftQuadrant() throws {
        let images = try renderBoth(ClippedEllipse())
        expect(images, green, at: [(75, 50), (149, 60), (100, 99), (140, 95), (5, 99)])
        expect(images, Self.clear, at: [(150, 60), (100, 100), (225, 50), (75, 150), (225, 150), (5, 5)], tolerance: 0)
    }

    /// S04: the copy's clip stays with the copy; the rectangle drawn through the original is whole.
    func testS04CopiedContextClipsOnlyTheCopy() throws {
        let images = try renderBoth(ClippedEllipse(copy: true))
        expect(images, green, at: [(75, 40), (60, 80), (140, 45)])                // quadrant, outside the rectangle
        expect(images, blue, at: [(100, 70), (200, 120), (224, 149), (76, 149), (224, 51)])  // the whole rectangle
        expect(images, Self.clear, at: [(260, 100), (150, 170), (225, 150), (226, 100)], tolerance: 0)
    }

    // MARK: S05: a scatter plot of symbols

    /// A generic plot view drawing its mark (a view used as a canvas symbol) stretched into each rect, framed
    /// 300 × 200 with a blue border.
    struct Plot<Mark: View>: View {
        let rects: [CGRect]
        let mark: Mark
        var body: some View {
            Canvas { context, size in
                guard let symbol = context.resolveSymbol(id: "mark") else { return }
                for r in rects { context.draw(symbol, in: r) }
            } symbols: {
                mark.tag("mark")
            }
            .frame(width: 300, height: 200)
            .border(Color.blue)
        }
    }

    /// 50 squares from a fixed-seed linear congruential generator: one per 30 × 40 pt cell of a 10 × 5 grid,
    /// 8–20 pt wide, at least 4 pt from the cell's edges, so no two marks touch and none touches the border.
    static let plotRects: [CGRect] = {
        var seed: UInt32 = 2024
        func unit() -> CGFloat {
            seed = seed &* 1_664_525 &+ 1_013_904_223   // Numerical Recipes' LCG
            return CGFloat(seed >> 8) / CGFloat(1 << 24)
        }
        return (0..<50).map { k in
            let side = (8 + 12 * unit()).rounded()
            let cell = CGPoint(x: CGFloat(k % 10) * 30, y: CGFloat(k / 10) * 40)
            return CGRect(x: (cell.x + 4 + (22 - side) * unit()).rounded(), y: (cell.y + 4 + (32 - side) * unit()).rounded(),
                          width: side, height: side)
        }
    }()

    /// The bounding boxes of the 8-connected groups of pixels with any alpha inside `area`.
    func inkComponents(_ image: RasterImage, in area: (x: Range<Int>, y: Range<Int>)) -> [(minX: Int, minY: Int, maxX: Int, maxY: Int)] {
        var seen = [Bool](repeating: false, count: image.width * image.height)
        var boxes: [(minX: Int, minY: Int, maxX: Int, maxY: Int)] = []
        for y in area.y {
            for x in area.x where !seen[y * image.width + x] && image.pixel(x: x, y: y).a > 0 {
                var box = (minX: x, minY: y, maxX: x, maxY: y)
                var stack = [(x, y)]
                seen[y * image.width + x] = true
                while let (px, py) = stack.popLast() {
                    box = (min(box.minX, px), min(box.minY, py), max(box.maxX, px), max(box.maxY, py))
                    for dy in -1...1 {
                        for dx in -1...1 {
                            let nx = px + dx, ny = py + dy
                            guard area.x.contains(nx), area.y.contains(ny), !seen[ny * image.width + nx],
                                  image.pixel(x: nx, y: ny).a > 0 else { continue }
                            seen[ny * image.width + nx] = true
                            stack.append((nx, ny))
                        }
                    }
                }
                boxes.append(box)
            }
        }
        return boxes
    }

    /// A mark's ink box may reach past its rect by the anti-aliasing of its edge: one pixel.
    static let markEdge = 1

    /// S05: 50 separate rings (the symbol `Image(systemName: "circle")`, an outline), each drawn into its rect
    /// (its ink where the image box stretched over the rect puts it), hollow, inside the blue border.
    func testS05FiftyCircleMarksAndABlueBorder() throws {
        // The mark, a view, takes its image box at body size, as a context resolves it.
        var resolved = CGSize.zero
        _ = Recording(size: CGSize(width: 1, height: 1)) { context, _ in
            resolved = context.resolve(Image(systemName: "circle")).size
        }
        XCTAssertGreaterThan(resolved.width, 10)
        XCTAssertEqual(ImageRenderer(content: Image(systemName: "circle")).size(), resolved)
        let scale: CGFloat = 2
        let images = try renderBoth(Plot(rects: Self.plotRects, mark: Image(systemName: "circle")), scale: scale)
        expect(images, blue, at: [(0, 200), (599, 200), (300, 0), (300, 399)])
        for (name, image) in images {
            // Inside the 2-pixel border.
            let marks = inkComponents(image, in: (2..<598, 2..<398))
            XCTAssertEqual(marks.count, 50, "\(name): separate marks")
            let circle = try XCTUnwrap(SystemImages.symbol(named: "circle"))
            for r in Self.plotRects {
                // The ring's ink inside its rect: the image box (with its margins) is what fills the rect.
                let ink = circle.inkRect(in: r)
                let px = (minX: Int((ink.minX * scale).rounded(.down)), minY: Int((ink.minY * scale).rounded(.down)),
                          maxX: Int((ink.maxX * scale).rounded(.up)) - 1, maxY: Int((ink.maxY * scale).rounded(.up)) - 1)
                let match = marks.first { m in
                    abs(m.minX - px.minX) <= Self.markEdge && abs(m.minY - px.minY) <= Self.markEdge
                        && abs(m.maxX - px.maxX) <= Self.markEdge && abs(m.maxY - px.maxY) <= Self.markEdge
                }
                XCTAssertNotNil(match, "\(name): no mark fills \(r) (pixels \(px))")
                // A ring: its centre is empty.
                XCTAssertEqual(image.pixel(x: Int(r.midX * scale), y: Int(r.midY * scale)).a, 0, "\(name): centre of \(r)")
            }
        }
    }

    // MARK: S06–S08: a gradient card, path constructors, gradient text

    /// S06's card: a rounded rectangle 25 pt in from the canvas's edges, stroked blue 25 pt wide and then
    /// filled with a green → blue gradient from its top-left to its bottom-right corner.
    struct GradientCard: View {
        var body: some View {
            Canvas { context, size in
                let card = CGRect(origin: .zero, size: size).insetBy(dx: 25, dy: 25)
                let shape = Path(roundedRect: card, cornerRadius: 35)
                context.stroke(shape, with: .color(.blue), lineWidth: 25)
                context.fill(shape, with: .linearGradient(Gradient(colors: [.green, .blue]), startPoint: card.origin,
                                                          endPoint: CGPoint(x: card.maxX, y: card.maxY)))
            }
        }
    }

    /// The nonLinear working space's mix of green and blue at `t` (sRGB bytes).
    func greenToBlue(_ t: Double) -> PixelRGBA8 {
        func mix(_ a: UInt8, _ b: UInt8) -> UInt8 { UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded()) }
        return PixelRGBA8(r: mix(green.r, blue.r), g: mix(green.g, blue.g), b: mix(green.b, blue.b), a: 255)
    }

    /// The gradient's parameter at a pixel centre: its projection on (25, 25) → (275, 175).
    func cardParameter(_ x: Int, _ y: Int) -> Double {
        let dx = Double(x) + 0.5 - 25, dy = Double(y) + 0.5 - 25
        return (dx * 250 + dy * 150) / (250 * 250 + 150 * 150)
    }

    /// S06: the stroke's outer half is blue (12.5 pt outside the card's edge); its inner half is covered by the
    /// fill, whose colour follows the gradient's parameter.
    func testS06BlueStrokeUnderAGreenToBlueGradient() throws {
        let images = try renderBoth(GradientCard())
        expect(images, blue, at: [(15, 100), (284, 100), (150, 15), (150, 184)])
        expect(images, Self.clear, at: [(10, 100), (289, 100), (150, 10), (3, 3)])
        for (x, y) in [(40, 40), (150, 30), (150, 100), (270, 100), (260, 160), (60, 150)] {
            expect(images, greenToBlue(cardParameter(x, y)), at: [(x, y)], tolerance: Self.gradientRounding)
        }
    }

    /// S07's four constructors on one rect, in the order the sample builds them.
    func sevenPaths(_ rect: CGRect) -> [Path] {
        [Path(roundedRect: rect, cornerSize: CGSize(width: 10, height: 50), style: .continuous),
         Path(CGPath(ellipseIn: rect, transform: nil)),
         Path { p in
             p.move(to: .zero)
             p.addLines([CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 50), CGPoint(x: 100, y: 100), CGPoint(x: 100, y: 0)])
         },
         Circle().path(in: rect)]
    }

    /// Bounds agree with the shapes' to this: curves are flattened or bounded by their control points exactly.
    static let boundsTolerance: CGFloat = 1e-6

    /// S07: each constructor's shape by its bounds and by points inside and outside it, then the four filled on
    /// both backends.
    func testS07PathConstructors() throws {
        let rect = CGRect(x: 10, y: 20, width: 120, height: 80)
        let paths = sevenPaths(rect)
        func assertBounds(_ p: Path, _ r: CGRect, _ what: String, line: UInt = #line) {
            let b = p.boundingRect
            for (got, want) in [(b.minX, r.minX), (b.minY, r.minY), (b.maxX, r.maxX), (b.maxY, r.maxY)] {
                XCTAssertEqual(got, want, accuracy: Self.boundsTolerance, "\(what): \(b) vs \(r)", line: line)
            }
        }
        // The continuous rounded rect: the rect's bounds, its corners cut, its top edge straight in the middle.
        assertBounds(paths[0], rect, "rounded rect")
        XCTAssertTrue(paths[0].contains(CGPoint(x: rect.midX, y: rect.midY)))
        XCTAssertTrue(paths[0].contains(CGPoint(x: rect.midX, y: rect.minY + 0.5)))
        XCTAssertFalse(paths[0].contains(CGPoint(x: rect.minX + 1, y: rect.minY + 1)))
        XCTAssertFalse(paths[0].contains(CGPoint(x: rect.maxX - 1, y: rect.maxY - 1)))
        // The Core Graphics ellipse: inscribed in the rect.
        assertBounds(paths[1], rect, "CGPath ellipse")
        XCTAssertTrue(paths[1].contains(CGPoint(x: rect.minX + 2, y: rect.midY)))
        XCTAssertFalse(paths[1].contains(CGPoint(x: rect.minX + 10, y: rect.minY + 5)))
        // The lines: addLines starts a new subpath at its first point, so the polygon is (10, 10), (0, 50),
        // (100, 100), (100, 0), closed when filled; the lone move to (0, 0) adds nothing to the area.
        assertBounds(paths[2], CGRect(x: 0, y: 0, width: 100, height: 100), "lines")
        XCTAssertTrue(paths[2].contains(CGPoint(x: 90, y: 50)))
        XCTAssertTrue(paths[2].contains(CGPoint(x: 20, y: 20)))
        XCTAssertFalse(paths[2].contains(CGPoint(x: 50, y: 5)), "above the edge (100, 0) → (10, 10)")
        XCTAssertFalse(paths[2].contains(CGPoint(x: 5, y: 20)), "left of the edge (10, 10) → (0, 50)")
        XCTAssertFalse(paths[2].contains(CGPoint(x: 50, y: 90)), "below the edge (0, 50) → (100, 100)")
        // The circle: the rect's largest centred square's inscribed circle, 80 pt across.
        assertBounds(paths[3], CGRect(x: 30, y: 20, width: 80, height: 80), "circle")
        XCTAssertTrue(paths[3].contains(CGPoint(x: rect.midX, y: rect.midY)))
        XCTAssertFalse(paths[3].contains(CGPoint(x: 15, y: rect.midY)))
        XCTAssertFalse(paths[3].contains(CGPoint(x: 33, y: 23)))

        // Filled side by side, each in its own 140 pt panel.
        let colors: [Color] = [.orange, .green, .blue, .purple]
        let view = Canvas { context, size in
            for (i, path) in paths.enumerated() {
                var panel = context
                panel.translateBy(x: CGFloat(i) * 140, y: 0)
                panel.fill(path, with: .color(colors[i]))
            }
        }
        let images = try renderBoth(view, size: CGSize(width: 560, height: 120))
        expect(images, ViewTesting.pixel(.orange), at: [(70, 60), (70, 20)])
        expect(images, Self.clear, at: [(10, 20), (139, 99)])
        expect(images, ViewTesting.pixel(.green), at: [(140 + 12, 60)])
        expect(images, Self.clear, at: [(140 + 20, 25)])
        expect(images, ViewTesting.pixel(.blue), at: [(280 + 90, 50), (280 + 20, 20)])
        expect(images, Self.clear, at: [(280 + 50, 2), (280 + 5, 20), (280 + 50, 90)])
        expect(images, ViewTesting.pixel(.purple), at: [(420 + 70, 60)])
        expect(images, Self.clear, at: [(420 + 15, 60), (420 + 32, 22)])
    }

    /// S08 as a view: "Hello World!" in the seed's rounded font (a substitute here), measured, its shading a
    /// green → blue gradient across its measured width, drawn centred in a 300 × 100 canvas. The same text drawn
    /// on a white canvas is `TextDrawingTests.testGradientHelloWorldIsCentredAndRunsGreenToBlue`.
    func testS08CentredGradientTextAsAView() throws {
        let view = Canvas { context, size in
            var text = context.resolve(Text("Hello World!").font(.custom("Arial Rounded MT Bold", size: 36)))
            let left = (size.width - text.measure(in: size).width) / 2
            text.shading = .linearGradient(Gradient(colors: [.green, .blue]), startPoint: CGPoint(x: left, y: 0),
                                           endPoint: CGPoint(x: size.width - left, y: 0))
            context.draw(text, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
        }
        for (name, image) in try renderBoth(view, size: CGSize(width: 300, height: 100)) {
            var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixel(x: x, y: y).a > 0 {
                    box = box.map { (min($0.minX, x), min($0.minY, y), max($0.maxX, x), max($0.maxY, y)) } ?? (x, y, x, y)
                }
            }
            let ink = try XCTUnwrap(box, name)
            XCTAssertEqual(Double(ink.minX + ink.maxX + 1) / 2, 150, accuracy: TextDrawingTests.inkCentreTolerance, "\(name): \(ink)")
            XCTAssertGreaterThan(ink.maxX - ink.minX, 150, name)
            // The most opaque pixel of a column near each end: green at the left, blue at the right.
            func strongest(_ x: Int) -> PixelRGBA8 { (ink.minY...ink.maxY).map { image.pixel(x: x, y: $0) }.max { $0.a < $1.a }! }
            let left = strongest(ink.minX + 2), right = strongest(ink.maxX - 2)
            XCTAssertGreaterThan(Int(left.g), Int(left.b), "\(name): left end \(left)")
            XCTAssertGreaterThan(Int(right.b), Int(right.g), "\(name): right end \(right)")
        }
    }

    // MARK: S09, S10: three symbols drawn four times

    /// The canvas of S09/S10: symbols 0, 1, 2 top-left at (10, 10), (30, 20), (50, 30), then 0 again at (70, 40).
    struct FourDraws<Symbols: View>: View {
        let symbols: Symbols
        init(@ViewBuilder symbols: () -> Symbols) { self.symbols = symbols() }
        var body: some View {
            Canvas(renderer: { context, _ in
                for (id, x, y) in [(0, 10, 10), (1, 30, 20), (2, 50, 30), (0, 70, 40)] {
                    context.draw(context.resolveSymbol(id: id)!, at: CGPoint(x: x, y: y), anchor: .topLeading)
                }
            }, symbols: { symbols })
        }
    }

    static func card(_ color: Color) -> some View {
        RoundedRectangle(cornerRadius: 10).fill(color).frame(width: 100, height: 50)
    }

    /// S09 lists the three symbols; S10 makes them with `ForEach`. One picture, pixel for pixel, on each
    /// backend: cyan, blue, indigo stacked down and right, the last cyan on top of all.
    func testS09AndS10ThreeSymbolsDrawnFourTimes() throws {
        let listed = try renderBoth(FourDraws {
            Self.card(.cyan).tag(0)
            Self.card(.blue).tag(1)
            Self.card(.indigo).tag(2)
        })
        let colors: [Color] = [.cyan, .blue, .indigo]
        let forEach = try renderBoth(FourDraws {
            ForEach(Array(colors.enumerated()), id: \.0) { i, c in Self.card(c).tag(i) }
        })
        for k in 0..<2 { XCTAssertEqual(listed[k].image, forEach[k].image, listed[k].name) }
        let cyan = ViewTesting.pixel(.cyan), indigo = ViewTesting.pixel(.indigo)
        expect(listed, cyan, at: [(25, 15), (15, 55)])          // the first draw, where nothing covers it
        expect(listed, blue, at: [(35, 25), (120, 25)])          // the second, over the first
        expect(listed, indigo, at: [(55, 35), (145, 35), (65, 75)])  // the third, over both
        expect(listed, cyan, at: [(75, 45), (165, 85), (120, 60)])   // the fourth: symbol 0 again, on top
        expect(listed, Self.clear, at: [(11, 11), (175, 25), (50, 85), (200, 100)])
    }

    // MARK: S11: a spinning symbol

    /// S11's spinner in this file's words: `text` in 72 pt Arial, turning a full circle per second forever from
    /// its first appearance.
    struct Spinner: View {
        let text: String
        @State private var spun = false
        var body: some View {
            Text(text)
                .font(.custom("Arial", size: 72))
                .rotationEffect(.degrees(spun ? 360 : 0))
                .onAppear {
                    withAnimation(.linear(duration: 1).repeatForever(autoreverses: false)) { spun = true }
                }
        }
    }

    /// A canvas drawing the spinner, a symbol, at its centre.
    static func spinning(_ text: String) -> some View {
        Canvas { context, size in
            context.draw(context.resolveSymbol(id: 1)!, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
        } symbols: {
            Spinner(text: text).tag(1)
        }
    }

    /// The rotation in the spinner's tree at `t`, degrees.
    func spin(at t: TimeInterval) -> Double? {
        ViewTesting.first(RotationNode.self, in: ViewTesting.tree(Self.spinning(""), time: t))?.angle.degrees
    }

    /// S11's symbol is `Text("")`: an empty string has no glyphs, so the seed's canvas draws nothing at any
    /// time, while its rotation turns 90° per quarter second. A visible string ("I", a vertical bar) in the
    /// same spinner shows the angle in pixels: tall at 0 and 0.5 s, wide at 0.25 s.
    func testS11SpinnerAngleAtItsFramesTime() throws {
        for (t, degrees) in [(0.0, 0.0), (0.25, 90.0), (0.5, 180.0), (0.75, 270.0)] {
            XCTAssertEqual(try XCTUnwrap(spin(at: t), "a rotation in the tree"), degrees, accuracy: 1e-9, "t = \(t)")
        }
        let size = CGSize(width: 200, height: 200)
        for t in [0.0, 0.25] {
            let r = ImageRenderer(content: Self.spinning(""))
            r.proposedSize = ProposedViewSize(size)
            XCTAssertEqual(r.recording(at: t).drawCount, 0, "the empty text draws nothing")
            for (name, image) in try renderBoth(Self.spinning(""), size: size, time: t) {
                XCTAssertTrue(image.pixels.allSatisfy { $0 == 0 }, "\(name): t = \(t) is empty")
            }
        }
        func inkBox(_ image: RasterImage) -> CGSize {
            var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
            for y in 0..<image.height {
                for x in 0..<image.width where image.pixel(x: x, y: y).a > 128 {
                    minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
                }
            }
            return maxX < 0 ? .zero : CGSize(width: maxX - minX + 1, height: maxY - minY + 1)
        }
        // An "I" at 72 pt is about 52 pt tall and 8 wide: three times taller than wide is far from either.
        for (t, upright) in [(0.0, true), (0.25, false), (0.5, true)] {
            for (name, image) in try renderBoth(Self.spinning("I"), size: size, time: t) {
                let ink = inkBox(image)
                XCTAssertGreaterThan(ink.width * ink.height, 100, "\(name): t = \(t) draws the glyph")
                if upright {
                    XCTAssertGreaterThan(ink.height, 3 * ink.width, "\(name): t = \(t): \(ink)")
                } else {
                    XCTAssertGreaterThan(ink.width, 3 * ink.height, "\(name): t = \(t): \(ink)")
                }
            }
        }
    }

    /// The same t gives the same bytes: from a fresh renderer every time, and from one renderer asked again
    /// after other frames.
    func testS11FramesRepeatExactly() throws {
        for (name, backend) in try ViewTesting.renderers() {
            func fresh(_ t: TimeInterval) throws -> RasterImage {
                let r = ImageRenderer(content: Self.spinning("I"))
                r.proposedSize = ProposedViewSize(width: 200, height: 200)
                return try r.render(at: t, with: backend)
            }
            let quarter = try fresh(0.25)
            XCTAssertEqual(quarter, try fresh(0.25), name)
            let kept = ImageRenderer(content: Self.spinning("I"))
            kept.proposedSize = ProposedViewSize(width: 200, height: 200)
            XCTAssertEqual(try kept.render(at: 0.25, with: backend), quarter, name)
            _ = try kept.render(at: 0.6, with: backend)
            XCTAssertEqual(try kept.render(at: 0.25, with: backend), quarter, name)
            XCTAssertEqual(try fresh(1.25), quarter, "\(name): a full turn later")
            XCTAssertNotEqual(try fresh(0.3), quarter, name)
        }
    }

    // MARK: S12: three houses, the middle one blurred

    /// How S12 blurs the middle house.
    enum Blur: CaseIterable { case ordering, copiedContext, layer }

    /// Three `house.fill` symbols at 4×, red left, green middle (blurred, radius 1, `.dithersResult`, linear
    /// light), blue right, their centres `house.size.width + gap` apart (the seed: gap 0).
    struct Houses: View {
        let blur: Blur
        var gap: CGFloat = 0
        var body: some View {
            Canvas { context, size in
                context.scaleBy(x: 4, y: 4)
                let middle = CGPoint(x: size.width / 8, y: size.height / 8)
                var house = context.resolve(Image(systemName: "house.fill"))
                let step = house.size.width + gap
                let left = CGPoint(x: middle.x - step, y: middle.y), right = CGPoint(x: middle.x + step, y: middle.y)
                house.shading = .color(.red)
                context.draw(house, at: left, anchor: .center)
                switch blur {
                case .ordering:
                    house.shading = .color(.blue)
                    context.draw(house, at: right, anchor: .center)
                    context.addFilter(.blur(radius: 1, options: .dithersResult), options: .linearColor)
                    house.shading = .color(.green)
                    context.draw(house, at: middle, anchor: .center)
                case .copiedContext:
                    var blurred = context
                    blurred.addFilter(.blur(radius: 1, options: .dithersResult), options: .linearColor)
                    house.shading = .color(.green)
                    blurred.draw(house, at: middle, anchor: .center)
                    house.shading = .color(.blue)
                    context.draw(house, at: right, anchor: .center)
                case .layer:
                    context.drawLayer { layer in
                        layer.addFilter(.blur(radius: 1, options: .dithersResult), options: .linearColor)
                        house.shading = .color(.green)
                        layer.draw(house, at: middle, anchor: .center)
                    }
                    house.shading = .color(.blue)
                    context.draw(house, at: right, anchor: .center)
                }
            }
        }
    }

    static let housesSize = CGSize(width: 360, height: 120)
    /// house.fill's image box is 24 pt wide at body size (the icon grid's width, `SystemSymbol.layoutBox`): 96
    /// pixels at 4×; its ink is 19.97 pt of it, centred, so neighbours drawn one width apart keep 4 pt between them.
    static let houseWidth = 24.0 * 4
    /// A symmetric house's colour centroid lies on its centre to half a pixel (the glyph is not snapped to the
    /// grid) plus the blur's symmetric spread.
    static let centroidTolerance = 0.75
    /// The blur's reach beyond the green house's ink box, in 4× points: 3σ of a radius-1 blur (σ = 1 pt),
    /// plus one for the kernel's last taps.
    static let blurReach: CGFloat = 4

    /// Per colour channel (red, green, blue) the alpha-weighted centroid x of the pixels where it is the
    /// strongest, and how many of those are soft (partly covered).
    func houses(_ image: RasterImage) -> [(x: Double, soft: Int)] {
        var sums = [(x: 0.0, w: 0.0, soft: 0), (x: 0.0, w: 0.0, soft: 0), (x: 0.0, w: 0.0, soft: 0)]
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                guard p.a > 0 else { continue }
                let c = [p.r, p.g, p.b].enumerated().max { $0.element < $1.element }!.offset
                sums[c].x += Double(p.a) * (Double(x) + 0.5)
                sums[c].w += Double(p.a)
                if p.a < 250 { sums[c].soft += 1 }
            }
        }
        return sums.map { (x: $0.w > 0 ? $0.x / $0.w : -1, soft: $0.soft) }
    }

    /// S12: red, green, blue houses at the middle and a house's width either side; the green one blurred (many
    /// more soft pixels, its door filled in part). The image box's margins keep the blurred green off its
    /// neighbours, so drawing it by ordering (blue first), in a copied context or in a layer (blue last) gives
    /// the same bytes on each backend.
    func testS12ThreeHousesMiddleBlurredThreeWays() throws {
        var seeds: [Blur: [(name: String, image: RasterImage)]] = [:]
        for blur in Blur.allCases { seeds[blur] = try renderBoth(Houses(blur: blur), size: Self.housesSize) }
        let a = seeds[.ordering]!, b = seeds[.copiedContext]!, c = seeds[.layer]!
        for k in 0..<2 {
            let name = a[k].name
            XCTAssertEqual(a[k].image, b[k].image, "\(name): ordering vs copied context")
            XCTAssertEqual(b[k].image, c[k].image, "\(name): copied context vs layer")
            let found = houses(a[k].image)
            let centres = [180 - Self.houseWidth, 180, 180 + Self.houseWidth]
            XCTAssertEqual(found[0].x, centres[0], accuracy: Self.centroidTolerance, "\(name): red")
            XCTAssertEqual(found[1].x, centres[1], accuracy: Self.centroidTolerance, "\(name): green")
            XCTAssertEqual(found[2].x, centres[2], accuracy: Self.centroidTolerance, "\(name): blue")
            XCTAssertGreaterThan(found[1].soft, 3 * max(found[0].soft, found[2].soft), "\(name): soft pixels \(found)")
            // The door (grid 10–14 across, 14–20 down of the 24-unit icon; 4 px a unit) is a hole in the sharp
            // houses and partly filled in the blurred one.
            let doorY = Int(60 + (17 - 11.5) * 4)
            XCTAssertEqual(a[k].image.pixel(x: Int(centres[0]), y: doorY).a, 0, "\(name): red door")
            XCTAssertEqual(a[k].image.pixel(x: Int(centres[2]), y: doorY).a, 0, "\(name): blue door")
            XCTAssertGreaterThan(a[k].image.pixel(x: 180, y: doorY).a, 0, "\(name): the blurred door")
            expect([a[k]], ViewTesting.pixel(.red), at: [(Int(centres[0]), 60)])
            expect([a[k]], ViewTesting.pixel(.blue), at: [(Int(centres[2]), 60)])
        }
    }

    // MARK: S13: Core Graphics inside a canvas

    /// S13's `withCGContext` body is only a comment: it records nothing and the canvas stays empty. A body of
    /// Core Graphics calls (this test's: a saved state with a filled and stroked rect, a line, an ellipse)
    /// draws through the same context.
    func testS13WithCGContextEmptyAndWithCoreGraphicsCalls() throws {
        let empty = Canvas { context, _ in
            context.withCGContext { _ in }
        }
        let r = ImageRenderer(content: empty)
        r.proposedSize = ProposedViewSize(Self.canvas)
        XCTAssertEqual(r.recording().drawCount, 0)
        for (name, image) in try renderBoth(empty) {
            XCTAssertTrue(image.pixels.allSatisfy { $0 == 0 }, "\(name): the empty body draws nothing")
        }

        let drawn = Canvas { context, _ in
            context.withCGContext { cg in
                cg.saveGState()
                cg.translateBy(x: 20, y: 20)
                cg.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 100, height: 60))
                cg.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.setLineWidth(4)
                cg.stroke(CGRect(x: 0, y: 0, width: 100, height: 60))
                cg.restoreGState()
                // Back at the canvas's origin after the restore.
                cg.setStrokeColor(red: 0, green: 0.5, blue: 0, alpha: 1)
                cg.setLineWidth(2)
                cg.move(to: CGPoint(x: 150, y: 0))
                cg.addLine(to: CGPoint(x: 150, y: 200))
                cg.strokePath()
                cg.setFillColor(gray: 0, alpha: 0.5)
                cg.fillEllipse(in: CGRect(x: 200, y: 100, width: 80, height: 80))
            }
        }
        let images = try renderBoth(drawn)
        expect(images, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), at: [(70, 50), (25, 25)])
        expect(images, PixelRGBA8(r: 0, g: 0, b: 255, a: 255), at: [(20, 50), (119, 50), (70, 20), (70, 79)])
        expect(images, PixelRGBA8(r: 0, g: 128, b: 0, a: 255), at: [(149, 10), (150, 190)])
        expect(images, PixelRGBA8(r: 0, g: 0, b: 0, a: 128), at: [(240, 140)])
        expect(images, Self.clear, at: [(10, 10), (125, 90), (147, 100), (205, 105)])
    }

    // MARK: S14: a clock in a TimelineView

    /// S14's clock: a gray face and, in a `TimelineView` updating at most every 0.06 s, a red second hand from
    /// the centre, 0.4 of the width long, at seconds × 6° − 90° (12 o'clock at 0 s).
    struct Clock: View {
        var body: some View {
            ZStack {
                Canvas { context, size in
                    context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size).insetBy(dx: 4, dy: 4)),
                                   with: .color(.gray), lineWidth: 4)
                }
                TimelineView(.animation(minimumInterval: 0.06)) { timeline in
                    Canvas { context, size in
                        let middle = CGPoint(x: size.width / 2, y: size.height / 2)
                        let s = timeline.date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60)
                        let angle = Angle.degrees(s * 6 - 90)
                        let tip = CGPoint(x: middle.x + cos(angle.radians) * size.width * 0.4,
                                          y: middle.y + sin(angle.radians) * size.width * 0.4)
                        context.stroke(Path { p in p.move(to: middle); p.addLine(to: tip) }, with: .color(.red), lineWidth: 2)
                    }
                }
            }
        }
    }

    /// The pixel `distance` points from the 200 × 200 clock's centre along `degrees` (clockwise from 12).
    func along(_ degrees: Double, _ distance: Double) -> (Int, Int) {
        let a = (degrees - 90) * .pi / 180
        return (Int(100 + cos(a) * distance), Int(100 + sin(a) * distance))
    }

    /// S14 at injected dates: 22.5 s past the minute the hand points at 135° (down and right); 0.3 s after a
    /// start at 52.2 s it points at 315° (52.5 s, up and left). The face is gray at its edge; the same time
    /// gives the same bytes.
    func testS14ClockHandAngleAtAGivenDate() throws {
        let size = CGSize(width: 200, height: 200)
        let red = ViewTesting.pixel(.red)
        let at22 = try renderBoth(Clock(), size: size, startDate: Date(timeIntervalSinceReferenceDate: 600 + 22.5))
        expect(at22, red, at: [along(135, 40), along(135, 70)])
        expect(at22, Self.clear, at: [along(45, 40), along(225, 40), along(315, 40), along(135, 90)])
        expect(at22, ViewTesting.pixel(.gray), at: [(4, 100), (100, 195)])
        let start = Date(timeIntervalSinceReferenceDate: 52.2)
        let at52 = try renderBoth(Clock(), size: size, time: 0.3, startDate: start)
        expect(at52, red, at: [along(315, 40), along(315, 70)])
        expect(at52, Self.clear, at: [along(135, 40), along(0, 40)])
        for (k, (name, image)) in at52.enumerated() {
            let again = try renderBoth(Clock(), size: size, time: 0.3, startDate: start)
            XCTAssertEqual(again[k].image, image, "\(name): the same t, the same bytes")
        }
    }
}
