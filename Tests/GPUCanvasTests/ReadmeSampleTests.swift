import XCTest
import GPUCanvas

/// The README's first code sample, verbatim (only `renderer` and the output folder come from the test), run
/// and checked: a green ellipse outline touching the four edges of a 600×400 pixel image.
final class ReadmeSampleTests: XCTestCase {
    func testReadmeSampleRendersTheStrokedEllipse() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cwd = FileManager.default.currentDirectoryPath
        _ = FileManager.default.changeCurrentDirectoryPath(dir.path)
        defer { _ = FileManager.default.changeCurrentDirectoryPath(cwd) }

        let renderer = try CanvasRenderer()
        // --- README sample ---
        let canvas = Canvas { context, size in
            context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green), lineWidth: 4)
        }
        let image = try renderer.render(canvas, size: CGSize(width: 300, height: 200), scale: 2)
        try image.writePNG(to: URL(fileURLWithPath: "ellipse.png"))
        // --- end ---

        XCTAssertEqual(image.width, 600)
        XCTAssertEqual(image.height, 400)
        // The 4 pt stroke is centred on the ellipse, so 2 pt (4 px) of it lies inside each edge: the pixel
        // at the middle of the left edge is fully covered with Color.green (52, 199, 89).
        XCTAssertEqual(image.pixel(x: 1, y: 200), PixelRGBA8(r: 52, g: 199, b: 89, a: 255))
        XCTAssertEqual(image.pixel(x: 300, y: 398), PixelRGBA8(r: 52, g: 199, b: 89, a: 255))
        // Centre and corners stay transparent.
        XCTAssertEqual(image.pixel(x: 300, y: 200).a, 0)
        XCTAssertEqual(image.pixel(x: 0, y: 0).a, 0)
        let back = try RasterImage(contentsOfPNG: dir.appendingPathComponent("ellipse.png"))
        XCTAssertEqual(back, image)
    }
}
