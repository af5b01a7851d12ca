import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Resizable images, the effect modifiers and the layout modifiers: pixels at known points on both backends,
/// sizes as numbers.
final class ViewModifierTests: XCTestCase {
    /// Interior pixels of flat colours: both backends within this of the exact byte.
    static let interior = 2
    /// A shadow blurred by radius 1, 3 px inside its edges on two sides: the Gaussian's tail takes a few
    /// levels of alpha there.
    static let shadowTail = 5

    let red = ViewTesting.pixel(.red), blue = ViewTesting.pixel(.blue), green = ViewTesting.pixel(.green)
    let white = ViewTesting.pixel(.white), black = ViewTesting.pixel(.black)
    let clear = ViewTesting.transparent
    /// The image pixels' own colours (SwiftUI's `Color.red` and `.blue` are not these).
    let pureRed = PixelRGBA8(r: 255, g: 0, b: 0, a: 255), pureBlue = PixelRGBA8(r: 0, g: 0, b: 255, a: 255)

    func size<V: View>(_ view: V, _ p: ProposedViewSize) -> CGSize { ViewTesting.tree(view).sizeThatFits(p) }

    /// A 2 × 1 image: red then blue.
    static let redBlue = Image(RasterImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 255]))
        .interpolation(.none)

    // MARK: Images

    func testResizableImageTakesItsFrameAndStretches() throws {
        XCTAssertEqual(size(Self.redBlue, ProposedViewSize(width: 40, height: 20)), CGSize(width: 2, height: 1))
        XCTAssertEqual(size(Self.redBlue.resizable(), ProposedViewSize(width: 40, height: 20)), CGSize(width: 40, height: 20))
        XCTAssertEqual(size(Self.redBlue.resizable(), ProposedViewSize(width: 40, height: nil)), CGSize(width: 40, height: 1))
        let image = try ViewTesting.render(Self.redBlue.resizable().frame(width: 40, height: 20), size: CGSize(width: 40, height: 20))
        ViewTesting.assertPixel(image, 2, 10, pureRed, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 19, 2, pureRed, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 21, 18, pureBlue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 38, 10, pureBlue, tolerance: Self.interior)
    }

    func testScaledToFillCoversAndClipsScaledToFitFits() throws {
        let fill = Self.redBlue.resizable().scaledToFill().frame(width: 20, height: 20).clipped().frame(width: 40, height: 20)
        let node = ViewTesting.first(AspectRatioNode.self, in: ViewTesting.tree(fill))!
        XCTAssertEqual(node.sizeThatFits(ProposedViewSize(width: 20, height: 20)), CGSize(width: 40, height: 20))
        let image = try ViewTesting.render(fill, size: CGSize(width: 40, height: 20))
        // The frame is (10, 0, 20, 20); the 40 × 20 image is centred on it: its red half covers x 0…20.
        ViewTesting.assertPixel(image, 15, 10, pureRed, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 25, 10, pureBlue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 5, 10, clear, tolerance: Self.interior)   // clipped
        ViewTesting.assertPixel(image, 35, 10, clear, tolerance: Self.interior)

        let fit = Self.redBlue.resizable().scaledToFit().frame(width: 20, height: 20)
        XCTAssertEqual(ViewTesting.first(AspectRatioNode.self, in: ViewTesting.tree(fit))!
            .sizeThatFits(ProposedViewSize(width: 20, height: 20)), CGSize(width: 20, height: 10))
        let fitted = try ViewTesting.render(fit, size: CGSize(width: 20, height: 20))
        ViewTesting.assertPixel(fitted, 5, 2, clear, tolerance: Self.interior)
        ViewTesting.assertPixel(fitted, 5, 10, pureRed, tolerance: Self.interior)
        ViewTesting.assertPixel(fitted, 15, 10, pureBlue, tolerance: Self.interior)
        ViewTesting.assertPixel(fitted, 15, 17, clear, tolerance: Self.interior)
        XCTAssertEqual(size(Color.red.aspectRatio(2, contentMode: .fit), ProposedViewSize(width: 100, height: 100)),
                       CGSize(width: 100, height: 50))
        XCTAssertEqual(size(Color.red.aspectRatio(CGSize(width: 1, height: 2), contentMode: .fill),
                            ProposedViewSize(width: 100, height: 100)), CGSize(width: 100, height: 200))
    }

    func testTiledAndCapInsetImages() throws {
        // 2 × 2: red green / blue white, tiled over 8 × 4 from the frame's corner.
        let quad = Image(RasterImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255,
                                                                   0, 0, 255, 255, 255, 255, 255, 255])).interpolation(.none)
        let tiled = try ViewTesting.render(quad.resizable(resizingMode: .tile).frame(width: 8, height: 4),
                                           size: CGSize(width: 8, height: 4))
        for (x, y, expected) in [(0, 0, pureRed), (1, 0, PixelRGBA8(r: 0, g: 255, b: 0, a: 255)), (4, 2, pureRed), (7, 3, white), (6, 1, pureBlue)] {
            ViewTesting.assertPixel(tiled, x, y, expected, tolerance: Self.interior)
        }
        // 3 × 3: black border, white centre; 1-point caps keep the border 1 point wide at 30 × 30.
        var pixels = [UInt8]()
        for i in 0..<9 { pixels += i == 4 ? [255, 255, 255, 255] : [0, 0, 0, 255] }
        let framed = Image(RasterImage(width: 3, height: 3, pixels: pixels)).interpolation(.none)
            .resizable(capInsets: EdgeInsets(top: 1, leading: 1, bottom: 1, trailing: 1))
        let image = try ViewTesting.render(framed.frame(width: 30, height: 30), size: CGSize(width: 30, height: 30))
        for (x, y, expected) in [(0, 0, black), (15, 0, black), (29, 15, black), (1, 1, white), (15, 15, white), (28, 28, white)] {
            ViewTesting.assertPixel(image, x, y, expected, tolerance: Self.interior)
        }
    }

    func testResizableSystemImageFillsItsFrame() throws {
        let icon = Image(systemName: "house.fill").resizable().frame(width: 48, height: 48).foregroundColor(.blue)
        XCTAssertEqual(ViewTesting.first(ImageNode.self, in: ViewTesting.tree(icon))!
            .sizeThatFits(ProposedViewSize(width: 48, height: 48)), CGSize(width: 48, height: 48))
        let image = try ViewTesting.render(icon, size: CGSize(width: 48, height: 48))
        var minX = 48, maxX = -1, minY = 48, maxY = -1
        for y in 0..<48 { for x in 0..<48 where image.pixel(x: x, y: y).a > 128 {
            minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
        } }
        // MDI's home glyph: 20 of the grid's 24 units wide (40 pt at 48); its ink spans the box's height less
        // one unit each side of the box (the box is the ink plus those units), so about 44 pt.
        XCTAssertEqual(maxX - minX + 1, 40, accuracy: 2)
        XCTAssertEqual(maxY - minY + 1, 44, accuracy: 2)
    }

    func testUnknownSystemImageDrawsNothingAndIsReported() throws {
        let renderer = try CanvasRenderer(backend: .reference)
        let view = HStack { Image(systemName: "no.such.symbol"); Color.red.frame(width: 10, height: 10) }
        let image = try ImageRenderer(content: view).render(with: renderer)
        XCTAssertEqual(renderer.lastReport.diagnostics.map(\.kind), [.unknownSystemImage])
        XCTAssertEqual(renderer.lastReport.description,
                       "invalid image: Image(systemName: \"no.such.symbol\"): no such system image (docs/system-images.md lists the names); it draws nothing")
        XCTAssertEqual(image.width, 18)   // the unknown image is 0 wide, then the 8 pt spacing and the 10 pt view
        renderer.diagnosticsPolicy = .strict
        XCTAssertThrowsError(try ImageRenderer(content: view).render(with: renderer)) { error in
            XCTAssertTrue("\(error)".contains("no.such.symbol"), "\(error)")
        }
    }

    // MARK: Effects

    func testShadowCornerRadiusAndMask() throws {
        let shadowed = Color.red.frame(width: 20, height: 20).shadow(color: .black, radius: 1, x: 5, y: 5).frame(width: 40, height: 40)
        let image = try ViewTesting.render(shadowed, size: CGSize(width: 40, height: 40))
        // The view is at (10, 10, 20, 20); its shadow at (15, 15, 20, 20), under it.
        ViewTesting.assertPixel(image, 20, 20, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 32, 32, black, tolerance: Self.shadowTail)
        ViewTesting.assertPixel(image, 5, 5, clear, tolerance: Self.interior)

        let rounded = try ViewTesting.render(Color.red.frame(width: 40, height: 40).cornerRadius(10), size: CGSize(width: 40, height: 40))
        ViewTesting.assertPixel(rounded, 0, 0, clear, tolerance: Self.interior)
        ViewTesting.assertPixel(rounded, 1, 1, clear, tolerance: Self.interior)
        ViewTesting.assertPixel(rounded, 20, 0, red, tolerance: Self.interior)
        ViewTesting.assertPixel(rounded, 5, 5, red, tolerance: Self.interior)

        let masked = Color.red.frame(width: 40, height: 20).mask { HStack(spacing: 0) { Color.black; Color.clear } }
        let m = try ViewTesting.render(masked, size: CGSize(width: 40, height: 20))
        ViewTesting.assertPixel(m, 10, 10, red, tolerance: Self.interior)
        ViewTesting.assertPixel(m, 30, 10, clear, tolerance: Self.interior)
    }

    func testBlendModeAndColourFilters() throws {
        let blended = try ViewTesting.render(ZStack { Color.red; Color.blue.blendMode(.plusLighter) }, size: CGSize(width: 10, height: 10))
        // plusLighter adds: red (255, 59, 48) + blue (0, 122, 255), clamped.
        ViewTesting.assertPixel(blended, 5, 5, PixelRGBA8(r: 255, g: 181, b: 255, a: 255), tolerance: Self.interior)
        let filters = HStack(spacing: 0) {
            Color.red.colorInvert()
            Color.white.colorMultiply(.blue)
            Color.black.brightness(1)
            Color.red.grayscale(1).luminanceToAlpha().hidden()
            Color.green.compositingGroup().drawingGroup().opacity(1)
        }
        let image = try ViewTesting.render(filters, size: CGSize(width: 50, height: 10))
        ViewTesting.assertPixel(image, 5, 5, PixelRGBA8(r: 255 - red.r, g: 255 - red.g, b: 255 - red.b, a: 255),
                                tolerance: Self.interior)
        ViewTesting.assertPixel(image, 15, 5, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 25, 5, white, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 35, 5, clear, tolerance: Self.interior)   // hidden: space kept, nothing drawn
        ViewTesting.assertPixel(image, 45, 5, green, tolerance: Self.interior)
    }

    // MARK: Layout modifiers

    func testPositionZIndexFixedSizeAndLayoutPriority() throws {
        XCTAssertEqual(size(Color.red.frame(width: 10, height: 10).position(x: 30, y: 20), ProposedViewSize(width: 60, height: 40)),
                       CGSize(width: 60, height: 40))
        let positioned = try ViewTesting.render(Color.red.frame(width: 10, height: 10).position(x: 30, y: 20),
                                                size: CGSize(width: 60, height: 40))
        ViewTesting.assertPixel(positioned, 30, 20, red, tolerance: Self.interior)
        ViewTesting.assertPixel(positioned, 26, 16, red, tolerance: Self.interior)
        ViewTesting.assertPixel(positioned, 24, 20, clear, tolerance: Self.interior)

        let z = try ViewTesting.render(ZStack { Color.red.zIndex(1); Color.blue }, size: CGSize(width: 10, height: 10))
        ViewTesting.assertPixel(z, 5, 5, red, tolerance: Self.interior)

        let text = Text("A line longer than twenty points")
        let ideal = size(text, .unspecified)
        XCTAssertGreaterThan(ideal.width, 100)
        XCTAssertEqual(size(text.fixedSize(), ProposedViewSize(width: 20, height: 20)), ideal)
        XCTAssertEqual(size(text.fixedSize(horizontal: false, vertical: true), ProposedViewSize(width: 1000, height: 1)).height,
                       ideal.height)

        let prioritised = HStack(spacing: 0) {
            Color.red.frame(minWidth: 10, maxWidth: 60)
            Color.blue.frame(minWidth: 10, maxWidth: 60).layoutPriority(1)
        }
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(prioritised))!
        XCTAssertEqual(stack.childFrames(in: CGRect(x: 0, y: 0, width: 80, height: 10)),
                       [CGRect(x: 0, y: 0, width: 20, height: 10), CGRect(x: 20, y: 0, width: 60, height: 10)])
        let equal = HStack(spacing: 0) { Color.red.frame(minWidth: 10, maxWidth: 60); Color.blue.frame(minWidth: 10, maxWidth: 60) }
        XCTAssertEqual(ViewTesting.first(StackNode.self, in: ViewTesting.tree(equal))!
            .childFrames(in: CGRect(x: 0, y: 0, width: 80, height: 10)).map(\.width), [40, 40])
    }
}

/// Materials as styles: approximated by their tint (no backdrop blur), so ported code compiles and keeps contrast.
final class ViewMaterialTests: XCTestCase {
    /// A translucent white over an opaque colour, 8-bit rounding on both backends.
    static let tolerance = 2

    func testRegularMaterialOverRedIsRedUnderSixtyPercentWhite() throws {
        let view = ZStack {
            Color.red
            Rectangle().fill(.regularMaterial).frame(width: 20, height: 20)
        }
        .frame(width: 40, height: 40)
        let image = try ViewTesting.render(view, size: CGSize(width: 40, height: 40))
        // SwiftUI's red (255, 59, 48) × 0.4 + 255 × 0.6.
        ViewTesting.assertPixel(image, 20, 20, PixelRGBA8(r: 255, g: 177, b: 172, a: 255), tolerance: Self.tolerance)
        ViewTesting.assertPixel(image, 2, 2, PixelRGBA8(r: 255, g: 59, b: 48, a: 255), tolerance: Self.tolerance)
    }

    func testBackgroundMaterialsGrowWhiterWithThickness() throws {
        var greens: [Int] = []
        for m in [Material.ultraThinMaterial, .thinMaterial, .regularMaterial, .thickMaterial, .ultraThickMaterial] {
            let view = Color.black.frame(width: 10, height: 10).overlay(Rectangle().fill(m)).background(.bar)
            let image = try ViewTesting.render(view, size: CGSize(width: 10, height: 10))
            greens.append(Int(image.pixel(x: 5, y: 5).g))
        }
        XCTAssertEqual(greens, greens.sorted())
        XCTAssertEqual(greens.first!, 77, accuracy: Self.tolerance)   // 0.3 × 255
        XCTAssertEqual(greens.last!, 217, accuracy: Self.tolerance)   // 0.85 × 255
    }
}
