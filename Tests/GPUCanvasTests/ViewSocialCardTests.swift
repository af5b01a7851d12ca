import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// A social card (1200 × 630) written as one writes it for iOS; `canvas-gl examples` draws the same card
/// (Sources/canvas-gl/ExamplesViews.swift).
struct SocialCard: View {
    let avatar: Image

    var body: some View {
        ZStack {
            LinearGradient(colors: [.indigo, .purple], startPoint: .topLeading, endPoint: .bottomTrailing)
            VStack(alignment: .leading, spacing: 24) {
                HStack(spacing: 16) {
                    Image(systemName: "star.fill")
                        .resizable()
                        .frame(width: 48, height: 48)
                        .foregroundColor(.yellow)
                    Text("GPUCanvas Weekly")
                        .font(.system(size: 28, weight: .semibold))
                        .foregroundColor(.secondary)
                }
                Text("Rendering SwiftUI views on Linux servers, with the same pixels on the GPU and on the CPU")
                    .font(.system(size: 52, weight: .bold))
                    .lineLimit(2)
                    .multilineTextAlignment(.leading)
                Text("**bold** and *italic*")
                    .font(.system(size: 32))
                HStack(spacing: 20) {
                    avatar
                        .resizable()
                        .scaledToFill()
                        .frame(width: 80, height: 80)
                        .clipShape(Circle())
                    Text("Ada Lovelace")
                        .font(.system(size: 30, weight: .medium))
                }
            }
            .padding(48)
            .frame(width: 1040, height: 470, alignment: .topLeading)
            .background(Color.white)
            .cornerRadius(32)
            .shadow(color: .black.opacity(0.3), radius: 24, x: 0, y: 12)
        }
        .frame(width: 1200, height: 630)
    }

    /// A 400 × 300 photo stand-in: orange with a blue square in its middle third.
    static let photo = Image(size: CGSize(width: 400, height: 300), label: Text("avatar")) { context in
        context.fill(Path(CGRect(x: 0, y: 0, width: 400, height: 300)), with: .color(.orange))
        context.fill(Path(CGRect(x: 150, y: 100, width: 100, height: 100)), with: .color(.blue))
    }
}

final class ViewSocialCardTests: XCTestCase {
    /// Frames are sums of whole points and text line heights in doubles.
    static let frameEpsilon: CGFloat = 1e-6
    /// Flat colours inside shapes and gradients sampled at a pixel centre: both backends within this.
    static let flat = 3

    /// The card's tree, drawn once (so every node has its placed frame).
    func drawnTree() -> ViewNode {
        let tree = ViewGraph(root: AnyView(SocialCard(avatar: SocialCard.photo)),
                             startDate: ImageRenderer<SocialCard>.defaultStartDate).tree(at: 0)
        let size = tree.sizeThatFits(ProposedViewSize(width: 1200, height: 630))
        XCTAssertEqual(size, CGSize(width: 1200, height: 630))
        _ = Recording(size: size, colorMode: .nonLinear, isOpaque: false) { context, size in
            tree.place(context, in: CGRect(origin: .zero, size: size))
        }
        return tree
    }

    func all<T: ViewNode>(_ type: T.Type, in node: ViewNode) -> [T] {
        ((node as? T).map { [$0] } ?? []) + node.children.flatMap { all(type, in: $0) }
    }

    func testLayoutTable() throws {
        let tree = drawnTree()
        let texts = all(TextNode.self, in: tree)
        let images = all(ImageNode.self, in: tree)
        XCTAssertEqual(texts.count, 4)
        XCTAssertEqual(images.count, 2)
        let panel = all(FrameNode.self, in: tree).first { $0.width == 1040 }!
        let clip = all(ClipShapeNode.self, in: tree).last!   // the avatar's circle

        // Text heights: line heights of Inter (the system font here) at each size, two lines for the title.
        let h = texts.map { $0.placedFrame!.height }
        let line28 = texts[0].sizeThatFits(.unspecified).height
        XCTAssertEqual(h[0], line28, accuracy: Self.frameEpsilon)
        let line52 = textLine(52, .bold)
        XCTAssertEqual(h[1], 2 * line52, accuracy: Self.frameEpsilon)   // lineLimit(2): two lines, not three

        let titleY: CGFloat = 128 + 48 + 24
        let markdownY = titleY + h[1] + 24
        let rowY = markdownY + h[2] + 24
        let table: [(String, CGRect?, CGRect)] = [
            ("panel", panel.placedFrame, CGRect(x: 80, y: 80, width: 1040, height: 470)),
            ("icon", images[0].placedFrame, CGRect(x: 128, y: 128, width: 48, height: 48)),
            ("kicker", texts[0].placedFrame.map { CGRect(x: $0.minX, y: $0.minY, width: 0, height: 0) },
             CGRect(x: 192, y: 128 + (48 - line28) / 2, width: 0, height: 0)),
            ("title", texts[1].placedFrame.map { CGRect(x: $0.minX, y: $0.minY, width: 0, height: $0.height) },
             CGRect(x: 128, y: titleY, width: 0, height: 2 * line52)),
            ("markdown", texts[2].placedFrame.map { CGRect(x: $0.minX, y: $0.minY, width: 0, height: 0) },
             CGRect(x: 128, y: markdownY, width: 0, height: 0)),
            ("avatar clip", clip.placedFrame, CGRect(x: 128, y: rowY, width: 80, height: 80)),
            // scaledToFill: the 4:3 photo covers 80 × 80 as 106.67 × 80, centred on the clip.
            ("avatar image", images[1].placedFrame, CGRect(x: 128 - (320.0 / 3 - 80) / 2, y: rowY, width: 320.0 / 3, height: 80)),
            ("name", texts[3].placedFrame.map { CGRect(x: $0.minX, y: $0.midY, width: 0, height: 0) },
             CGRect(x: 128 + 80 + 20, y: rowY + 40, width: 0, height: 0)),
        ]
        for (name, actual, expected) in table {
            guard let actual else { XCTFail("\(name) was not placed"); continue }
            for (a, e) in [(actual.minX, expected.minX), (actual.minY, expected.minY), (actual.width, expected.width),
                           (actual.height, expected.height)] {
                XCTAssertEqual(a, e, accuracy: Self.frameEpsilon, "\(name): \(actual) vs \(expected)")
            }
        }
        // The numbers the formulas give with Inter's metrics (ascender 2728 + descender 680 of 2816 units per em).
        let em: CGFloat = 3408.0 / 2816
        let titleHeight: CGFloat = 104 * em
        let markdownHeight: CGFloat = 32 * em
        XCTAssertEqual(line52, 52 * em, accuracy: 0.01)
        XCTAssertEqual(rowY, 248 + titleHeight + markdownHeight, accuracy: 0.02)
        // The column fits the panel's inside (470 − 2 × 48 high).
        XCTAssertLessThanOrEqual(rowY + 80, 80 + 470 - 48)
    }

    func textLine(_ size: CGFloat, _ weight: Font.Weight) -> CGFloat {
        ViewTesting.tree(Text("A").font(.system(size: size, weight: weight))).sizeThatFits(.unspecified).height
    }

    func testPixelsOnBothBackends() throws {
        try TestTier.requireThorough()
        let image = try ViewTesting.render(SocialCard(avatar: SocialCard.photo), size: CGSize(width: 1200, height: 630))
        XCTAssertEqual(image.width, 1200)
        XCTAssertEqual(image.height, 630)
        let white = ViewTesting.pixel(.white)
        // Gradient corners: indigo at the top-left, purple at the bottom-right.
        ViewTesting.assertPixel(image, 0, 0, ViewTesting.pixel(.indigo), tolerance: Self.flat)
        ViewTesting.assertPixel(image, 1199, 629, ViewTesting.pixel(.purple), tolerance: Self.flat)
        // The panel is white inside, rounded at its corners.
        ViewTesting.assertPixel(image, 1000, 500, white, tolerance: Self.flat)
        XCTAssertLessThan(image.pixel(x: 82, y: 82).g, 200)
        // Its shadow darkens the gradient below it.
        func sum(_ p: PixelRGBA8) -> Int { Int(p.r) + Int(p.g) + Int(p.b) }
        XCTAssertLessThan(sum(image.pixel(x: 600, y: 556)) + 20, sum(image.pixel(x: 600, y: 626)))
        // The star is yellow at its centre; the avatar shows the photo's middle in a circle.
        ViewTesting.assertPixel(image, 152, 152, ViewTesting.pixel(.yellow), tolerance: Self.flat)
        let tree = drawnTree()
        let clip = all(ClipShapeNode.self, in: tree).last!.placedFrame!
        let cx = Int(clip.midX), cy = Int(clip.midY)
        ViewTesting.assertPixel(image, cx, cy, ViewTesting.pixel(.blue), tolerance: Self.flat)
        ViewTesting.assertPixel(image, cx - 30, cy, ViewTesting.pixel(.orange), tolerance: Self.flat)
        ViewTesting.assertPixel(image, Int(clip.minX) + 2, Int(clip.minY) + 2, white, tolerance: Self.flat)
        // The title is drawn: dark ink in its first line.
        let title = all(TextNode.self, in: tree)[1].placedFrame!
        var ink = 0
        for x in Int(title.minX)..<Int(title.minX) + 400 where image.pixel(x: x, y: Int(title.minY) + 30).r < 100 { ink += 1 }
        XCTAssertGreaterThan(ink, 40)
    }
}
