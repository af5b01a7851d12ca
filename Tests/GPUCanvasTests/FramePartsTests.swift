import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// Frames replayed in parts (`RasterAtlasStrategy.partPixels`, `FrameEncoder.encode`'s replay): a frame too
/// large to stage at once gives the bytes it gives staged whole, with its staging bounded by one part.
final class FramePartsTests: XCTestCase {
    /// A frame whose pieces exceed `partPixels` box pixels is staged and replayed in parts, each part's
    /// passes loading what the one before drew: the bytes are those of the frame staged whole, and the
    /// staging holds one part (here ≤ 4 bytes × 20 000 box pixels + instance records) instead of the frame.
    func testLargeFramesAreReplayedInParts() throws {
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 600, height: 400)), with: .color(.yellow.opacity(0.3)))
            CommandBufferTests.overlappingShapes(&ctx, count: 60, columns: 10, spacing: CGSize(width: 50, height: 50),
                                                 roundedRectHeight: 100)
        }
        let options = GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)
        let parts = try CanvasRenderer(gles: options, partPixelLimit: 20_000)
        let whole = try CanvasRenderer(backend: .gles(options))
        let size = CGSize(width: 600, height: 400)
        let a = try parts.render(size: size, draw), b = try whole.render(size: size, draw)
        XCTAssertEqual(a.pixels, b.pixels)
        let dump = try XCTUnwrap(parts.lastGPUCommandDump)
        // 60 boxes of 11 000–15 500 pixels, one per part, after the 240 000-pixel background alone.
        XCTAssertTrue(dump.hasPrefix("part 1 of 61 (replayed without readback):\nCommandBuffer: 1 pass"), dump)
        XCTAssertTrue(dump.contains("part 2 of 61 (replayed without readback):\nCommandBuffer: 1 pass"), dump)
        XCTAssertTrue(dump.contains("part 61 of 61:\nCommandBuffer: 1 pass"), dump)
        XCTAssertEqual(dump.components(separatedBy: "load: clear").count - 1, 1, "only the first part clears")
        XCTAssertEqual(dump.components(separatedBy: "readback frame").count - 1, 1, "only the last part reads back")
        XCTAssertEqual(parts.lastDrawCallCount, 61)
        XCTAssertEqual(whole.lastDrawCallCount, 1)
        let partStaging = try XCTUnwrap((parts.implementation as? GLESBackend)?.stagingCapacity)
        let wholeStaging = try XCTUnwrap((whole.implementation as? GLESBackend)?.stagingCapacity)
        XCTAssertLessThanOrEqual(partStaging, 4 * 240_000 + 64 * 1024, "the background's part, the largest")
        XCTAssertGreaterThan(wholeStaging, 2 * partStaging)
        // A frame drawn again in parts gives the same bytes (the next frame clears).
        XCTAssertEqual(try parts.render(size: size, draw).pixels, a.pixels)
    }

    // Every catalogue scene in one-piece parts against the frame staged whole: the conformance suite's
    // `rasterAtlasInParts`, beside the raster-atlas form whose images it reuses.
}
