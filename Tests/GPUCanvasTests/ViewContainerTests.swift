import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Group, GeometryReader, Divider, Label, Grid and the lazy grids: frames as numbers, and pixels.
final class ViewContainerTests: XCTestCase {
    static let interior = 2
    /// A gradient's end pixel (its centre is half a pixel in from the end colour's point).
    static let gradientEnd = 4

    let red = ViewTesting.pixel(.red), blue = ViewTesting.pixel(.blue), clear = ViewTesting.transparent

    func testGroupSplicesItsChildrenIntoTheStack() {
        let view = HStack(spacing: 0) {
            Group { Color.red.frame(width: 10, height: 10); Color.blue.frame(width: 10, height: 10) }
            Color.green.frame(width: 10, height: 10)
        }
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(view))!
        XCTAssertEqual(stack.children.count, 3)
        XCTAssertEqual(stack.sizeThatFits(.unspecified), CGSize(width: 30, height: 10))
    }

    func testGeometryReaderTakesTheOfferAndBuildsForItsSize() throws {
        let view = GeometryReader { proxy in
            Color.red.frame(width: proxy.size.width / 2, height: proxy.size.height / 2)
        }
        XCTAssertEqual(ViewTesting.tree(view).sizeThatFits(ProposedViewSize(width: 40, height: 20)), CGSize(width: 40, height: 20))
        let image = try ViewTesting.render(view, size: CGSize(width: 40, height: 20))
        ViewTesting.assertPixel(image, 5, 5, red, tolerance: Self.interior)     // top-leading, 20 × 10
        ViewTesting.assertPixel(image, 19, 9, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 21, 5, clear, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 5, 11, clear, tolerance: Self.interior)
    }

    func testDividerIsAHairlineAcrossTheStack() {
        let v = VStack(spacing: 0) { Color.red.frame(width: 40, height: 10); Divider(); Color.blue.frame(width: 40, height: 10) }
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(v))!
        XCTAssertEqual(stack.sizeThatFits(.unspecified).height, 21)
        XCTAssertEqual(stack.childFrames(in: CGRect(x: 0, y: 0, width: 40, height: 21))[1], CGRect(x: 0, y: 10, width: 40, height: 1))
        let h = HStack(spacing: 0) { Color.red.frame(width: 10, height: 30); Divider() }
        XCTAssertEqual(ViewTesting.first(StackNode.self, in: ViewTesting.tree(h))!.sizeThatFits(.unspecified),
                       CGSize(width: 11, height: 30))
    }

    func testLabelPutsItsIconBeforeItsTitle() {
        let label = Label("Home", systemImage: "house.fill")
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(label))!
        XCTAssertTrue(stack.children[0] is ImageNode)
        XCTAssertTrue(stack.children[1] is TextNode)
        let iconWidth = stack.children[0].sizeThatFits(.unspecified).width
        XCTAssertEqual(iconWidth, 24, accuracy: 1e-9)   // the icon's box at body size (SystemImage.swift)
        let frames = stack.childFrames(in: CGRect(origin: .zero, size: stack.sizeThatFits(.unspecified)))
        XCTAssertEqual(frames[1].minX, 24 + 8)
    }

    func testGridColumnsAndRowsTakeTheirLargestCells() {
        let grid = Grid {
            GridRow { Color.red.frame(width: 10, height: 10); Color.blue.frame(width: 30, height: 10) }
            GridRow { Color.green.frame(width: 20, height: 20); Color.red.frame(width: 5, height: 5) }
        }
        let node = ViewTesting.first(GridNode.self, in: ViewTesting.tree(grid))!
        XCTAssertEqual(node.sizeThatFits(.unspecified), CGSize(width: 58, height: 38))
        XCTAssertEqual(node.cellFrames(in: CGRect(x: 0, y: 0, width: 58, height: 38)), [
            [CGRect(x: 5, y: 0, width: 10, height: 10), CGRect(x: 28, y: 0, width: 30, height: 10)],
            [CGRect(x: 0, y: 18, width: 20, height: 20), CGRect(x: 40.5, y: 25.5, width: 5, height: 5)],
        ])
    }

    func testLazyGridsFixedFlexibleAndAdaptiveTracks() throws {
        let v = LazyVGrid(columns: [GridItem(.fixed(20)), GridItem(.flexible())], spacing: 4) {
            ForEach(0..<4) { _ in Color.red.frame(height: 10) }
        }
        let node = ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(v))!
        let p = ProposedViewSize(width: 100, height: nil)
        XCTAssertEqual(node.cellFrames(p), [CGRect(x: 0, y: 0, width: 20, height: 10), CGRect(x: 28, y: 0, width: 72, height: 10),
                                            CGRect(x: 0, y: 14, width: 20, height: 10), CGRect(x: 28, y: 14, width: 72, height: 10)])
        XCTAssertEqual(node.sizeThatFits(p), CGSize(width: 100, height: 24))

        let adaptive = LazyVGrid(columns: [GridItem(.adaptive(minimum: 30))]) { ForEach(0..<3) { _ in Color.blue.frame(height: 10) } }
        let a = ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(adaptive))!
        // (100 + 8) / (30 + 8) → 2 columns of (100 − 8) / 2.
        XCTAssertEqual(a.cellFrames(p).map(\.width), [46, 46, 46])
        XCTAssertEqual(a.cellFrames(p).map(\.minY), [0, 0, 18])

        let h = LazyHGrid(rows: [GridItem(.fixed(10)), GridItem(.fixed(10))]) { ForEach(0..<3) { _ in Color.red.frame(width: 15) } }
        let hn = ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(h))!
        XCTAssertEqual(hn.cellFrames(.unspecified), [CGRect(x: 0, y: 0, width: 15, height: 10), CGRect(x: 0, y: 18, width: 15, height: 10),
                                                     CGRect(x: 23, y: 0, width: 15, height: 10)])
        let image = try ViewTesting.render(h, size: CGSize(width: 38, height: 28))
        ViewTesting.assertPixel(image, 30, 5, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 30, 22, clear, tolerance: Self.interior)   // the fourth cell is empty
    }

    func testGradientAsAView() throws {
        let view = LinearGradient(colors: [.red, .blue], startPoint: .leading, endPoint: .trailing).frame(width: 100, height: 10)
        let image = try ViewTesting.render(view, size: CGSize(width: 100, height: 10))
        ViewTesting.assertPixel(image, 0, 5, red, tolerance: Self.gradientEnd)
        ViewTesting.assertPixel(image, 99, 5, blue, tolerance: Self.gradientEnd)
    }

    func testDegenerateGridItemsDoNotCrash() {
        let p = ProposedViewSize(width: 100, height: nil)
        let zero = LazyVGrid(columns: [GridItem(.adaptive(minimum: 0), spacing: 0)]) { Color.red.frame(height: 1) }
        XCTAssertEqual(ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(zero))!.cellFrames(p).count, 1)
        let tiny = LazyVGrid(columns: [GridItem(.adaptive(minimum: 0.0001), spacing: 0)]) { Color.red.frame(height: 1) }
        XCTAssertEqual(ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(tiny))!.tracks(100).count, LazyGridNode.maxAdaptiveTracks)
        let negative = LazyVGrid(columns: [GridItem(.fixed(-5)), GridItem(.fixed(.nan))]) { Color.red.frame(height: 1) }
        XCTAssertEqual(ViewTesting.first(LazyGridNode.self, in: ViewTesting.tree(negative))!.tracks(100).map(\.size), [0, 0])
    }
}
