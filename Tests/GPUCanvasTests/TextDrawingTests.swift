import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// Text drawn through a context: S08's gradient "Hello World!", anchors against `measure(in:)`, verdicts for bad
/// fonts and sizes, the recording's words, scene round trips, and the glyph cache's bound.
final class TextDrawingTests: XCTestCase, ComparesBackends {
    /// Both backends fill the same glyph polygons; 8-bit rounding of the colour is all that is left.
    static let rounding = 2
    /// The ink of a line sits inside its advance box by the side bearings of its first and last glyphs
    /// ("H" and "!" in a 36 pt sans: about 2–3 px each), so the ink's centre may miss the box's by that much.
    static let inkCentreTolerance = 3.0
    /// Glyph origins are snapped to a whole pixel down and a quarter pixel across, so ink moves by the anchor's
    /// shift rounded: up to one pixel each way.
    static let snapTolerance = 1

    /// The columns and rows with any pixel that is not white (ink), as (minX, minY, maxX, maxY).
    func inkBox(_ image: RasterImage) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let p = image.pixel(x: x, y: y)
                guard p.r < 250 || p.g < 250 || p.b < 250 else { continue }
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    /// S08: the measured width centres the text, and the gradient runs green → blue across it.
    func testGradientHelloWorldIsCentredAndRunsGreenToBlue() throws {
        let image = try render(300, 100) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            let font = Font.custom("Arial Rounded MT Bold", size: 36)
            var resolved = context.resolve(Text("Hello World!").font(font))
            let width = resolved.measure(in: size).width
            let start = CGPoint(x: (size.width - width) / 2, y: 0)
            resolved.shading = .linearGradient(Gradient(colors: [.green, .blue]), startPoint: start,
                                               endPoint: CGPoint(x: size.width - start.x, y: 0))
            context.draw(resolved, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
        }
        let ink = try XCTUnwrap(inkBox(image))
        XCTAssertEqual(Double(ink.0 + ink.2 + 1) / 2, 150, accuracy: Self.inkCentreTolerance, "ink \(ink)")
        XCTAssertEqual(Double(ink.1 + ink.3 + 1) / 2, 50, accuracy: 8, "ink \(ink): vertically centred on its line box")
        XCTAssertGreaterThan(ink.2 - ink.0, 150, "36 pt 'Hello World!' is about 200 pt wide")
        // The most saturated pixel of the first and last ink columns: green on the left, blue on the right.
        func darkest(column x: Int) -> PixelRGBA8 {
            (ink.1 ... ink.3).map { image.pixel(x: x, y: $0) }.min { Int($0.r) + Int($0.g) + Int($0.b) < Int($1.r) + Int($1.g) + Int($1.b) }!
        }
        var left = darkest(column: ink.0 + 2), right = darkest(column: ink.2 - 2)
        XCTAssertGreaterThan(Int(left.g), Int(left.b), "left end \(left) is green")
        XCTAssertGreaterThan(Int(right.b), Int(right.g), "right end \(right) is blue")
        left = darkest(column: (ink.0 + ink.2) / 2 - 20); right = darkest(column: (ink.0 + ink.2) / 2 + 20)
        XCTAssertGreaterThan(Int(right.b) - Int(right.g), Int(left.b) - Int(left.g), "blue grows left to right")
    }

    /// `draw(_:at:anchor:)` puts the anchor point of the measured box at the point: ink drawn with
    /// `.topLeading` and `.bottomTrailing` at the same point is offset by the measured size.
    func testAnchorsPlaceTheMeasuredBox() throws {
        var measured = CGSize.zero
        _ = Recording(size: CGSize(width: 200, height: 120)) { context, size in
            measured = context.resolve(Text("Anchor").font(.custom("DejaVu Sans", size: 24))).measure(in: size)
        }
        func ink(_ anchor: UnitPoint) throws -> (Int, Int, Int, Int) {
            let image = try render(200, 120) { context, size in
                context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
                let text = context.resolve(Text("Anchor").font(.custom("DejaVu Sans", size: 24)))
                context.draw(text, at: CGPoint(x: 100, y: 60), anchor: anchor)
            }
            return try XCTUnwrap(inkBox(image))
        }
        let a = try ink(.topLeading), b = try ink(.bottomTrailing), c = try ink(.center)
        XCTAssertEqual(Double(a.0 - b.0), Double(measured.width), accuracy: Double(Self.snapTolerance))
        XCTAssertEqual(Double(a.1 - b.1), Double(measured.height), accuracy: Double(Self.snapTolerance))
        XCTAssertEqual(Double(a.0 - c.0), Double(measured.width) / 2, accuracy: Double(Self.snapTolerance))
        XCTAssertGreaterThanOrEqual(a.0, 100, "top-leading ink starts at or right of the point")
        XCTAssertGreaterThanOrEqual(a.1, 60, "top-leading ink starts at or below the point")
    }

    /// Wrapping in a rect keeps every line inside the rect's width and breaks into several lines.
    func testDrawInRectWrapsToItsWidth() throws {
        let image = try render(160, 160) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            context.draw(Text("The quick brown fox jumps over the lazy dog").font(.custom("DejaVu Sans", size: 14)),
                         in: CGRect(x: 10, y: 10, width: 80, height: 140))
        }
        let ink = try XCTUnwrap(inkBox(image))
        XCTAssertGreaterThanOrEqual(ink.0, 10 - Self.snapTolerance)
        XCTAssertLessThan(ink.2, 90 + Self.snapTolerance, "no line is wider than the rect")
        XCTAssertGreaterThan(ink.3 - ink.1, 3 * 14, "the text takes at least four lines")
    }

    func testMeasureAndBaselinesFollowLines() {
        _ = Recording(size: CGSize(width: 100, height: 100)) { context, size in
            let one = context.resolve(Text("Hello").font(.custom("DejaVu Sans", size: 20)))
            let m = one.measure(in: CGSize(width: CGFloat.infinity, height: .infinity))
            XCTAssertGreaterThan(m.width, 40)
            XCTAssertGreaterThan(m.height, 20)
            XCTAssertEqual(one.firstBaseline(in: size), one.lastBaseline(in: size))
            let two = context.resolve(Text("Hello\nWorld").font(.custom("DejaVu Sans", size: 20)))
            let m2 = two.measure(in: CGSize(width: CGFloat.infinity, height: .infinity))
            XCTAssertEqual(m2.height, 2 * m.height, accuracy: 1)
            XCTAssertEqual(two.lastBaseline(in: size) - two.firstBaseline(in: size), m.height, accuracy: 1)
            let empty = context.resolve(Text(""))
            XCTAssertEqual(empty.measure(in: size).width, 0)
        }
    }

    /// A font file that is not a font is an error naming the file, the same on every backend.
    func testUnreadableFontFileIsNamedByEveryBackend() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpucanvas-not-a-font-\(getpid()).ttf")
        try Data("this is not a font file".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let recording = Recording(size: CGSize(width: 40, height: 20)) { context, _ in
            context.draw(Text("x").font(.file(url, size: 12)), at: CGPoint(x: 20, y: 10))
        }
        var messages: [String] = []
        for (name, r) in try renderers() {
            XCTAssertThrowsError(try r.render(recording), name) { e in
                guard case .invalidFont = e as? RenderError else { return XCTFail("\(name): \(e)") }
                messages.append("\(e)")
            }
        }
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.contains("draw #0: \(url.path)") == true, messages.first ?? "")
    }

    func testNonFiniteFontSizeIsInvalidGeometry() throws {
        let recording = Recording(size: CGSize(width: 40, height: 20)) { context, _ in
            context.draw(Text("x").font(.system(size: .nan)), at: CGPoint(x: 20, y: 10))
        }
        for (name, r) in try renderers() {
            XCTAssertThrowsError(try r.render(recording), name) { e in
                XCTAssertEqual("\(e)", "invalid geometry: draw #0: font size nan is not finite", name)
            }
        }
    }

    func testEmptyWhitespaceAndZeroSizeTextDrawNothing() throws {
        let image = try render(60, 30) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            context.draw(Text(""), at: CGPoint(x: 30, y: 15))
            context.draw(Text("   \t  "), at: CGPoint(x: 30, y: 15))
            context.draw(Text("zero").font(.system(size: 0)), at: CGPoint(x: 30, y: 15))
        }
        XCTAssertNil(inkBox(image))
    }

    /// Recording words name the face fontconfig chose, and a scene round trip records the same text.
    func testDumpNamesTheFaceAndScenesRoundTrip() throws {
        let recording = Recording(size: CGSize(width: 200, height: 60)) { context, _ in
            let t = Text("Total: ").bold() + Text("42").foregroundColor(.red).font(.custom("Liberation Serif", size: 20))
                + Text(" items").italic().underline()
            context.draw(t.font(.custom("DejaVu Sans", size: 16)), at: CGPoint(x: 100, y: 30))
        }
        let dump = recording.description
        XCTAssertTrue(dump.contains("DejaVu Sans"), dump)
        XCTAssertTrue(dump.contains("Liberation Serif"), dump)
        XCTAssertEqual(recording.drawCount, 2, "two fills: the default foreground and red")
        let again = try Scene(jsonData: Data(recording.sceneJSON().utf8)).recording
        XCTAssertEqual(again, recording, recording.sceneJSON())
    }

    /// Modifiers on `a + b` reach only the runs that do not set the attribute themselves (SwiftUI's rule).
    func testConcatenatedTextKeepsInnerAttributes() {
        let t = (Text("a").font(.title) + Text("b")).font(.body).foregroundColor(.red)
        XCTAssertEqual(t.runs.map(\.font), [.title, .body])
        XCTAssertEqual(t.runs.map(\.foreground), [.color(.red), .color(.red)])
        let span = t.runs[0].span(defaultFont: .body)
        XCTAssertEqual(span.font.size, 28)
        XCTAssertEqual(Text("h").font(.headline).runs[0].span(defaultFont: .body).font.weight, 600)
        XCTAssertEqual(Text("x").bold().runs[0].span(defaultFont: .body).font.weight, 700)
        XCTAssertEqual(Text("x").monospaced().runs[0].span(defaultFont: .body).font.design, .monospaced)
    }

    /// Colour emoji are drawn from Noto Color Emoji's bitmap strike in their own colours, whatever the shading:
    /// 😀's face is yellow, the text around it keeps its blue, and both backends agree.
    func testColorEmojiAreDrawnFromTheirBitmaps() throws {
        let emoji = try? TextEngine.shared.primaryFace(FontRequest(family: "Noto Color Emoji", size: 40))
        try XCTSkipUnless(emoji?.hasColorBitmaps == true, "Noto Color Emoji is not installed (fonts-noto-color-emoji)")
        var images: [(String, RasterImage)] = []
        for (name, r) in try renderers() {
            let image = try r.render(Recording(size: CGSize(width: 160, height: 64)) { context, size in
                context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
                context.draw(Text("ab 😀").font(.custom("DejaVu Sans", size: 40)).foregroundColor(.blue),
                             at: CGPoint(x: 4, y: 32), anchor: .leading)
            })
            images.append((name, image))
            // The emoji's right half: its face is yellow (red and green high, blue low).
            var yellow = 0, blue = 0
            for y in 0 ..< 64 {
                for x in 0 ..< 160 {
                    let p = image.pixel(x: x, y: y)
                    if p.r > 200, p.g > 150, p.b < 100 { yellow += 1 }
                    if p.b > 200, p.r < 60, p.g < 160 { blue += 1 }  // SwiftUI's blue is (0, 0.48, 1)
                }
            }
            XCTAssertGreaterThan(yellow, 300, "\(name): a 40 pt 😀 has a yellow face")
            XCTAssertGreaterThan(blue, 100, "\(name): 'ab' stays blue")
        }
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: images[0].1)
            XCTAssertLessThanOrEqual(d.maxDiff, Self.rounding, "\(name) against \(images[0].0)")
        }
    }

    /// `GLESResourceTests.soakFrames` frames of changing text (a counter, at a size that changes every frame)
    /// keep the glyph caches within their bound and the GL objects flat.
    func testGlyphCacheStaysBoundedOverThousandFramesOfChangingText() throws {
        let frames = GLESResourceTests.soakFrames
        // Renderers of their own: the glyph cache statistics count this test's frames only.
        let own = [("reference", try CanvasRenderer(backend: .reference)),
                   (BackendComparison.glesForms[0].name, try CanvasRenderer(backend: .gles(BackendComparison.glesForms[0].options)))]
        for (name, r) in own {
            func frame(_ n: Int) -> Recording {
                Recording(size: CGSize(width: 256, height: 128)) { context, _ in
                    context.draw(Text("Frame \(n) ÅgØ").font(.custom("DejaVu Sans", size: CGFloat(207 - n % 200))),
                                 at: CGPoint(x: 4, y: 4), anchor: .topLeading)
                }
            }
            if r.gpuResourceStats != nil {
                try GLESResourceTests.assertFlatOverSoakFrames(r, name, frame)
            } else {
                for n in 0 ..< frames { _ = try r.render(frame(n)) }
            }
            let stats = r.glyphCacheStatistics
            XCTAssertGreaterThan(stats.misses, frames, "\(name): \(stats): sizes change, so glyphs are made anew")
            XCTAssertLessThanOrEqual(stats.points, 8 * GlyphPolygonCache.maxPoints, "\(name): \(stats)")
            XCTAssertLessThanOrEqual(stats.maskBytes, 8 * GlyphMaskCache.maxBytes, "\(name): \(stats)")
            if r.pathStrategy == .rasterAtlas {
                XCTAssertGreaterThan(stats.maskMisses, frames, "\(name): \(stats): the raster atlas draws glyph masks")
            }
        }
    }
}
