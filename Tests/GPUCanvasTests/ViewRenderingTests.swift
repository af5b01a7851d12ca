import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Views drawn through `ImageRenderer` on both backends, checked by pixels: the seeds' static pictures in this
/// test's own words (S01's outlined ellipse in a bordered frame, S02–S04 as views), stacks, text and the
/// drawing modifiers.
final class ViewRenderingTests: XCTestCase {
    /// Both backends cover the same geometry; 8-bit rounding of colours is all that is left in solid areas.
    static let rounding = 2
    /// A layer composited at opacity 0.5 rounds its alpha to 127 or 128 (and its colour likewise).
    static let halfOpacityRounding = 2

    let green = ViewTesting.pixel(.green)
    let blue = ViewTesting.pixel(.blue)
    let red = ViewTesting.pixel(.red)
    let clear = ViewTesting.transparent

    func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ p: PixelRGBA8, tolerance: Int = rounding,
                     file: StaticString = #filePath, line: UInt = #line) {
        ViewTesting.assertPixel(image, x, y, p, tolerance: tolerance, file: file, line: line)
    }

    /// S01: a canvas stroking the ellipse of its size with a 4 pt green line, framed 300 × 200, with a blue
    /// 1 pt border drawn inside the frame's edge.
    func testOutlinedEllipseInABorderedFrame() throws {
        let view = Canvas { context, size in
            context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green), lineWidth: 4)
        }
        .frame(width: 300, height: 200)
        .border(Color.blue)
        let image = try ViewTesting.render(view, size: CGSize(width: 300, height: 200))
        XCTAssertEqual(image.width, 300)
        XCTAssertEqual(image.height, 200)
        // The stroke straddles the ellipse (2 pt each side): inside the canvas at the left, right and top extremes.
        assertPixel(image, 1, 100, green)
        assertPixel(image, 298, 100, green)
        assertPixel(image, 150, 1, green)
        assertPixel(image, 150, 3, clear)
        // The border is the outermost pixel ring, over everything.
        assertPixel(image, 0, 100, blue)
        assertPixel(image, 299, 100, blue)
        assertPixel(image, 150, 0, blue)
        assertPixel(image, 150, 199, blue)
        assertPixel(image, 0, 0, blue)
        // Inside the ellipse and in the corners between ellipse and border: nothing.
        assertPixel(image, 150, 100, clear)
        assertPixel(image, 20, 20, clear)
    }

    /// A root canvas filling the target records exactly what the same closure records rendered directly, so
    /// views add nothing to the canvases S02–S04 already drew.
    func testFramedCanvasRecordsWhatTheClosureRecords() throws {
        let draw: (inout GraphicsContext, CGSize) -> Void = { context, size in
            var masked = context
            let half = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
            masked.clip(to: Path(CGRect(origin: .zero, size: half)))
            masked.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
            context.fill(Path(CGRect(origin: CGPoint(x: size.width / 4, y: size.height / 4), size: half)), with: .color(.blue))
        }
        let renderer = ImageRenderer(content: Canvas(renderer: draw).frame(width: 300, height: 200))
        XCTAssertEqual(renderer.recording(), Recording(size: CGSize(width: 300, height: 200), renderer: draw))
        let image = try ViewTesting.render(Canvas(renderer: draw).frame(width: 300, height: 200), size: CGSize(width: 300, height: 200))
        assertPixel(image, 40, 40, green)       // the clipped ellipse's visible quarter
        assertPixel(image, 150, 100, blue)      // the unclipped rectangle, drawn after
        assertPixel(image, 200, 170, clear)     // the ellipse outside the clip is not drawn
    }

    /// A canvas placed off the origin draws translated to its frame and clipped to it.
    func testCanvasInAStackIsTranslatedAndClipped() throws {
        let view = HStack(spacing: 0) {
            Color.red.frame(width: 50, height: 40)
            Canvas { context, size in
                // Reaches past the canvas on every side: only the canvas's own 50 × 40 shows.
                context.fill(Path(CGRect(x: -20, y: -20, width: size.width + 40, height: size.height + 40)), with: .color(.blue))
            }
            .frame(width: 50, height: 40)
            Color.clear.frame(width: 20, height: 40)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 120, height: 40))
        assertPixel(image, 49, 20, red)
        assertPixel(image, 50, 20, blue)
        assertPixel(image, 99, 39, blue)
        assertPixel(image, 100, 20, clear)
    }

    func testStacksPlaceColouredViews() throws {
        let view = VStack(spacing: 0) {
            HStack(spacing: 10) {
                Color.red.frame(width: 20, height: 20)
                Circle().fill(.blue).frame(width: 20, height: 20)
            }
            Rectangle().fill(Color.green).frame(width: 50, height: 10)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 50, height: 30))
        assertPixel(image, 10, 10, red)
        assertPixel(image, 40, 10, blue)      // the circle's centre
        assertPixel(image, 31, 1, clear)      // outside the circle, in its frame's corner
        assertPixel(image, 25, 10, clear)     // the spacing
        assertPixel(image, 25, 25, green)
    }

    func testPaddingOffsetAndBackground() throws {
        let view = Color.red.frame(width: 20, height: 20).padding(10).background(Color.blue).offset(x: 5, y: 0)
        let image = try ViewTesting.render(ZStack { view }.frame(width: 50, height: 40), size: CGSize(width: 50, height: 40))
        // 40 × 40 padded view centred in 50 × 40 → x 5…45, then offset 5 → 10…50.
        assertPixel(image, 7, 20, clear)
        assertPixel(image, 12, 20, blue)
        assertPixel(image, 30, 20, red)
        assertPixel(image, 30, 5, blue)
    }

    func testOpacityRotationScaleAndClipShape() throws {
        // Opacity applies to the group as one layer: where blue covers red, blue at half opacity shows, with no red.
        let group = ZStack { Rectangle().fill(.red); Rectangle().fill(.blue).frame(width: 4, height: 4) }.opacity(0.5)
        let half = try ViewTesting.render(group, size: CGSize(width: 10, height: 10))
        assertPixel(half, 1, 1, PixelRGBA8(r: red.r / 2, g: red.g / 2, b: red.b / 2, a: 128), tolerance: Self.halfOpacityRounding)
        assertPixel(half, 5, 5, PixelRGBA8(r: blue.r / 2, g: blue.g / 2, b: blue.b / 2, a: 128), tolerance: Self.halfOpacityRounding)

        // A 40 × 10 bar turned 90° about its centre stands 10 × 40 in a 40 × 40 frame.
        let bar = Color.blue.frame(width: 40, height: 10).rotationEffect(.degrees(90)).frame(width: 40, height: 40)
        let turned = try ViewTesting.render(bar, size: CGSize(width: 40, height: 40))
        assertPixel(turned, 20, 2, blue)
        assertPixel(turned, 2, 20, clear)

        let scaled = try ViewTesting.render(Color.blue.frame(width: 10, height: 10).scaleEffect(3).frame(width: 40, height: 40),
                                            size: CGSize(width: 40, height: 40))
        assertPixel(scaled, 7, 20, blue)       // 10 × 10 centred at 20 scaled 3× → 5…35
        assertPixel(scaled, 3, 20, clear)

        let clipped = try ViewTesting.render(Color.green.clipShape(Circle()), size: CGSize(width: 40, height: 40))
        assertPixel(clipped, 20, 20, green)
        assertPixel(clipped, 2, 2, clear)
    }

    /// A blurred view spreads past its frame's edge; the unblurred one stops at it.
    func testBlurSoftensTheEdge() throws {
        let sharp = try ViewTesting.render(Color.blue.frame(width: 20, height: 20).frame(width: 40, height: 40), size: CGSize(width: 40, height: 40))
        let soft = try ViewTesting.render(Color.blue.frame(width: 20, height: 20).blur(radius: 3).frame(width: 40, height: 40),
                                          size: CGSize(width: 40, height: 40))
        XCTAssertEqual(sharp.pixel(x: 8, y: 20).a, 0)
        XCTAssertGreaterThan(soft.pixel(x: 8, y: 20).a, 20)
        XCTAssertLessThan(soft.pixel(x: 10, y: 20).a, 250)
        assertPixel(soft, 20, 20, blue)
    }

    /// Text as a view draws its glyphs inside its measured frame, in the environment's foreground colour.
    func testTextDrawsInsideItsFrameInTheForegroundColour() throws {
        let text = Text("Hi").font(.system(size: 30))
        let size = ViewTesting.tree(text).sizeThatFits(.unspecified)
        let image = try ViewTesting.render(text.foregroundColor(.red).frame(width: 100, height: 60), size: CGSize(width: 100, height: 60))
        let frame = Alignment.center.place(size, in: CGRect(x: 0, y: 0, width: 100, height: 60))
        var inked = 0
        for y in 0..<60 {
            for x in 0..<100 where image.pixel(x: x, y: y).a > 0 {
                inked += 1
                XCTAssertTrue(frame.insetBy(dx: -1, dy: -1).contains(CGPoint(x: x, y: y)), "ink at (\(x), \(y)) outside \(frame)")
                let p = image.pixel(x: x, y: y)
                XCTAssertGreaterThan(p.r, p.b, "red ink")
            }
        }
        XCTAssertGreaterThan(inked, 50)
    }

    /// An image as a view takes its own size in points and draws its pixels there.
    func testImageViewTakesItsSize() throws {
        let pixels = RasterImage(width: 4, height: 2, pixels: Array([[UInt8]](repeating: [0, 0, 255, 255], count: 8).joined()))
        let view = HStack(spacing: 0) { Image(pixels); Color.red.frame(width: 4, height: 2) }
        XCTAssertEqual(ViewTesting.tree(view).sizeThatFits(.unspecified), CGSize(width: 8, height: 2))
        let image = try ViewTesting.render(view, size: CGSize(width: 8, height: 2))
        assertPixel(image, 1, 1, PixelRGBA8(r: 0, g: 0, b: 255, a: 255))
        assertPixel(image, 6, 1, red)
    }

    /// A canvas's `.foreground` shading is the environment's foreground colour.
    func testForegroundColourReachesACanvas() throws {
        let view = Canvas { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .foreground)
        }.foregroundColor(.green)
        let image = try ViewTesting.render(view, size: CGSize(width: 10, height: 10))
        assertPixel(image, 5, 5, green)
    }

    /// A view with no area gives the same `invalid canvas size` error on both backends.
    func testAViewWithNoAreaIsAnInvalidSizeOnBothBackends() throws {
        for (name, renderer) in try ViewTesting.renderers() {
            let r = ImageRenderer(content: EmptyView())
            XCTAssertThrowsError(try r.render(with: renderer), name) { error in
                XCTAssertEqual("\(error)", "invalid canvas size: size 0.0×0.0 points must be finite and > 0", name)
            }
        }
    }

    /// A non-finite rotation reaches the lowering, which refuses it with one error on both backends.
    func testANonFiniteRotationIsTheSameErrorOnBothBackends() throws {
        var messages: [String] = []
        for (_, renderer) in try ViewTesting.renderers() {
            let r = ImageRenderer(content: Color.red.frame(width: 10, height: 10).rotationEffect(.radians(.nan)))
            XCTAssertThrowsError(try r.render(with: renderer)) { messages.append("\($0)") }
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages.first, messages.last)
        XCTAssertTrue(messages[0].hasPrefix("invalid geometry: draw #0: transform"), messages[0])
    }

    /// `scale` multiplies the pixel size.
    func testScaleGivesMorePixels() throws {
        let image = try ViewTesting.render(Color.red.frame(width: 30, height: 20), size: CGSize(width: 30, height: 20), scale: 2)
        XCTAssertEqual(image.width, 60)
        XCTAssertEqual(image.height, 40)
        assertPixel(image, 59, 39, red)
        let r = ImageRenderer(content: Color.red.frame(width: 30, height: 20))
        r.scale = 2
        let png = try r.pngData(with: try CanvasRenderer(backend: .reference))
        XCTAssertEqual(try RasterImage(pngData: png), image)
    }
}

/// The README's view sample (the `Badge` view and its render), checked: a green circle at the left, text ink
/// right of it, a gray 1 pt border at the edge, at scale 2.
final class ViewReadmeSampleTests: XCTestCase {
    struct Badge: View {
        var body: some View {
            HStack(spacing: 8) {
                Circle().fill(.green).frame(width: 20, height: 20)
                Text("Online").font(.headline)
            }
            .padding(8)
            .border(Color.gray)
        }
    }

    func testReadmeBadgeRenders() throws {
        let badge = ImageRenderer(content: Badge())
        badge.scale = 2
        let png = try badge.pngData(with: CanvasRenderer())
        let image = try RasterImage(pngData: png)
        let size = badge.size()
        XCTAssertEqual(image.width, Int((size.width * 2).rounded(.up)))
        XCTAssertEqual(size.height, 8 + max(20, ViewTesting.tree(Text("Online").font(.headline)).sizeThatFits(.unspecified).height) + 8)
        let midY = Int(size.height)       // the middle row, in pixels
        XCTAssertEqual(image.pixel(x: 2 * 18, y: midY), ViewTesting.pixel(.green))      // the circle's centre
        XCTAssertEqual(image.pixel(x: 0, y: midY), ViewTesting.pixel(.gray))            // the border
        XCTAssertEqual(image.pixel(x: 2 * 4, y: midY).a, 0)                              // padding
        var ink = 0
        for x in (2 * 36)..<(image.width - 2 * 8) where image.pixel(x: x, y: midY).a > 0 { ink += 1 }
        XCTAssertGreaterThan(ink, 4, "text ink right of the circle")
    }
}
