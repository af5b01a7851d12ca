import XCTest
@testable import GPUCanvas

/// Scenes that random valid scenes found wrong, each rendered from its scene document on the reference and on
/// GLES with both path strategies (llvmpipe, pinned with `.mesa`), with the pixels checked against the
/// expected coverage and against each other.
final class FuzzDefectTests: XCTestCase {
    /// Aliased coverage is 0 or 255 per pixel and every backend decides each centre exactly (ties
    /// included): any difference is a wrong decision, so none is allowed.
    static let aliasedTolerance = 0
    /// One 8-bit step: an exact anti-aliased coverage may round to either side of a half.
    static let roundingTolerance = 1
    /// The project's conformance bar between backends for anti-aliased scenes (ARCHITECTURE.md, `compare`):
    /// the backends share the geometry but accumulate coverage with different arithmetic.
    static let barMaxDiff = 8
    static let barOver2 = 0.001

    static let backends: [(name: String, backend: CanvasRenderer.Backend)] = [
        ("reference", .reference),
        ("raster-atlas", .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas))),
        ("gpu-tessellation", .gles(GLESOptions(device: .mesa, pathStrategy: .gpuTessellation))),
    ]

    func scene(_ json: String) throws -> Scene {
        try Scene(jsonData: Data(json.utf8))
    }

    /// The scene on every backend, the reference first.
    func renderAll(_ json: String) throws -> [(name: String, image: RasterImage)] {
        let s = try scene(json)
        return try Self.backends.map { ($0.name, try CanvasRenderer(backend: $0.backend).render(s.recording, scale: s.scale)) }
    }

    func alpha(_ image: RasterImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).a) }

    /// Asserts every image equals the first (the reference) within `maxDiff` / `over2`.
    func assertSame(_ images: [(name: String, image: RasterImage)], maxDiff: Int, over2: Double,
                    file: StaticString = #filePath, line: UInt = #line) {
        let reference = images[0].image
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: reference)
            XCTAssertTrue(d.meets(maxDiff: maxDiff, over2: over2), "\(name) vs reference: \(d)", file: file, line: line)
        }
    }

    // MARK: 1. A stroke whose centreline overflows in device space

    /// `0 -1e308 m 5 5 l h` at scale 2 puts a centreline point at y = −2·10³⁰⁸ = −∞ in device space. The
    /// stroke's culling cut that edge with `EdgeCut` and hit its finiteness precondition (a crash on every
    /// backend); now it is the same clean error on all three, and the fill of the path is an error too.
    func testStrokeOverflowingInDeviceSpaceIsAnErrorOnEveryBackend() throws {
        let stroke = #"{"format":"gpucanvas-scene/1","size":[10,10],"scale":2,"commands":[{"op":"stroke","path":"0 -1e308 m 5 5 l h","shading":{"color":"black"}}]}"#
        var messages: [String] = []
        for (name, backend) in Self.backends {
            let s = try scene(stroke)
            XCTAssertThrowsError(try CanvasRenderer(backend: backend).render(s.recording, scale: s.scale), name) { error in
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(messages.count, 3)
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix("invalid geometry: draw #0: device coordinates overflow"), messages[0])
        let fill = stroke.replacingOccurrences(of: #""op":"stroke""#, with: #""op":"fill""#)
        for (name, backend) in Self.backends {
            let s = try scene(fill)
            XCTAssertThrowsError(try CanvasRenderer(backend: backend).render(s.recording, scale: s.scale), name) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid geometry: draw #0:"), "\(name): \(error)")
            }
        }
    }

    /// The same path at scale 1 stays finite and draws: from (5, 5) up to 10³⁰⁸ px above the canvas and back,
    /// a vertical line 1 px wide at x = 5 (the edge leans by 5·10⁻³⁰⁸) over rows 0…4, ending flat at y = 5
    /// (a 180° miter falls back to a bevel). The subpath retraces itself, so its outline covers the line
    /// twice (Stroke.swift, known limits): columns 4 and 5 are half covered with winding 2, coverage
    /// min(2 · ½, 1) = 1, and everything else is empty.
    func testStrokeWithAFarPointDrawsItsVisiblePart() throws {
        let images = try renderAll(#"{"format":"gpucanvas-scene/1","size":[10,10],"scale":1,"commands":[{"op":"stroke","path":"0 -1e308 m 5 5 l h","shading":{"color":"black"}}]}"#)
        for (name, image) in images {
            for y in 0 ..< 10 {
                for x in 0 ..< 10 {
                    let expected = (x == 4 || x == 5) && y < 5 ? 255 : 0
                    XCTAssertLessThanOrEqual(abs(alpha(image, x, y) - expected), Self.roundingTolerance,
                                             "\(name) (\(x), \(y)) = \(alpha(image, x, y)), expected \(expected)")
                }
            }
        }
        assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
    }
}
