import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// What the view tests share: rendering a view on the reference and the default GLES backend (checking the two
/// agree by docs/DESIGN-NOTES.md's default bar), a pixel assertion, and the laid-out tree of a view.
enum ViewTesting {
    /// The reference and the product's GLES renderer (llvmpipe headless), shared (`SharedRenderers`).
    static func renderers() throws -> [(name: String, renderer: SharedRenderer)] {
        [("reference", try SharedRenderers.renderer(.reference)),
         ("gles", try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa))))]
    }

    /// Renders `view` proposed `size` at time `time` on both backends; returns the reference's image.
    static func render<V: View>(_ view: V, size: CGSize, time: TimeInterval = 0, scale: CGFloat = 1,
                                startDate: Date = ImageRenderer<V>.defaultStartDate,
                                file: StaticString = #filePath, line: UInt = #line) throws -> RasterImage {
        func image(_ renderer: SharedRenderer) throws -> RasterImage {
            let r = ImageRenderer(content: view, startDate: startDate)
            r.proposedSize = ProposedViewSize(size)
            r.scale = scale
            return try r.render(at: time, with: renderer)
        }
        let all = try renderers()
        // One after the other: view graphs are evaluated on one thread at a time, as SwiftUI evaluates them on
        // the main actor (`withAnimation`'s transaction is the evaluating thread's, and an animated symbol
        // rendered on two threads at once showed one backend the other's time).
        let images = [try image(all[0].renderer), try image(all[1].renderer)]
        let d = images[1].difference(from: images[0])
        XCTAssertTrue(d.meetsDefaultBar, "gles vs reference: \(d)", file: file, line: line)
        return images[0]
    }

    /// Asserts pixel (x, y) is `expected` within `tolerance` in every channel.
    static func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: PixelRGBA8, tolerance: Int,
                            file: StaticString = #filePath, line: UInt = #line) {
        BackendComparison.assertPixel(image, x, y, expected, tolerance: tolerance, file: file, line: line)
    }

    /// The view's built tree at `time` (its `onAppear` actions run).
    static func tree<V: View>(_ view: V, time: TimeInterval = 0) -> ViewNode {
        ViewGraph(root: AnyView(view), startDate: ImageRenderer<V>.defaultStartDate).tree(at: time)
    }

    /// The first node of type `T` in a depth-first walk of `node`.
    static func first<T: ViewNode>(_ type: T.Type, in node: ViewNode) -> T? {
        if let n = node as? T { return n }
        for c in node.children { if let n = first(type, in: c) { return n } }
        return nil
    }

    /// An opaque pixel of `color` as the nonLinear working space stores it (sRGB bytes).
    static func pixel(_ color: Color) -> PixelRGBA8 {
        let c = color.premultiplied(in: .nonLinear)
        func b(_ v: Float) -> UInt8 { UInt8((v * 255).rounded()) }
        return PixelRGBA8(r: b(c.r), g: b(c.g), b: b(c.b), a: b(c.a))
    }

    static let transparent = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
}
