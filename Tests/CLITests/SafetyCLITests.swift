import XCTest
import Foundation
import GPUCanvas

/// `canvas-gl` with untrusted input: render diagnostics as warnings, `--strict`, `--memory-limit` and
/// `--allow-dir`.
final class SafetyCLITests: XCTestCase {
    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-safety-\(UUID())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: tmp) }

    private func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let r = try ProcessRun.run(try XCTUnwrap(CLITests.binary, "canvas-gl not found"), arguments, in: tmp)
        XCTAssertFalse(r.crashed, "crashed")
        return (r.status, r.text, r.stderr)
    }

    @discardableResult
    private func write(_ name: String, _ data: Data) throws -> String {
        let url = tmp.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    /// A stroke whose point overflows to infinity at scale 2: the one thing a valid scene file can hold that
    /// a render skips (a scene refuses NaN and missing files at load).
    private let overflowing = #"{"format": "gpucanvas-scene/1", "size": [10, 10], "scale": 2, "commands": [{"op": "fill", "path": {"rect": [0, 0, 5, 10]}, "shading": {"color": "black"}}, {"op": "stroke", "path": "0 -1e308 m 5 5 l h", "shading": {"color": "black"}}]}"#
    private let warning = "warning: invalid geometry: draw #1: device coordinates overflow to infinity under the transform"
    private let error = "Error: invalid geometry: draw #1: device coordinates overflow to infinity under the transform"

    func testSkippedDrawIsAWarningAndStrictMakesItFatal() throws {
        let scene = try write("s.json", Data(overflowing.utf8))
        let png = tmp.appendingPathComponent("o.png").path
        for backend in ["reference", "gles"] {
            let r = try run(["render", scene, "-o", png, "--backend", backend])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stderr.hasPrefix(warning), r.stderr)
            XCTAssertEqual(r.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }.count, 1, r.stderr)
            // The rest is drawn: the first fill covers the left half.
            let image = try RasterImage(contentsOf: URL(fileURLWithPath: png))
            XCTAssertEqual(image.pixel(x: 4, y: 10), PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
            XCTAssertEqual(image.pixel(x: 15, y: 10).a, 0)
            try FileManager.default.removeItem(atPath: png)

            let s = try run(["render", scene, "-o", png, "--backend", backend, "--strict"])
            XCTAssertEqual(s.status, 1)
            XCTAssertTrue(s.stderr.hasPrefix(error), s.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: png))
        }
        let c = try run(["compare", scene])
        XCTAssertEqual(c.status, 0, c.stderr)
        XCTAssertTrue(c.stderr.hasPrefix(warning), c.stderr)
        XCTAssertTrue(c.stdout.contains("maxDiff: 0"), c.stdout)
        let cs = try run(["compare", scene, "--strict"])
        XCTAssertEqual(cs.status, 1)
        XCTAssertTrue(cs.stderr.hasPrefix(error), cs.stderr)
    }

    func testAnimateStrictStopsTheExport() throws {
        let stream = try write("s.jsonl", Data((overflowing + "\n" + overflowing + "\n").utf8))
        let out = tmp.appendingPathComponent("a.apng").path
        let r = try run(["animate", stream, "-o", out, "--backend", "reference", "--quiet"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: last frame: invalid geometry: draw #1"), r.stderr)
        let s = try run(["animate", stream, "-o", tmp.appendingPathComponent("b.apng").path, "--backend", "reference", "--quiet", "--strict"])
        XCTAssertEqual(s.status, 1)
        XCTAssertTrue(s.stderr.contains("invalid geometry: draw #1: device coordinates overflow"), s.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("b.apng").path))
    }

    func testMemoryLimitRefusesFromTheHeaderAndCountsEachFileOnce() throws {
        // 64×64 RGBA: 16 KiB decoded.
        try write("big.png", try RasterImage(width: 64, height: 64, pixels: [UInt8](repeating: 255, count: 64 * 64 * 4)).pngData())
        let eight = (0 ..< 8).map { #""i\#($0)": {"png": "big.png"}"# }.joined(separator: ", ")
        let scene = try write("s.json", Data(#"{"format": "gpucanvas-scene/1", "size": [64, 64], "resources": {"images": {\#(eight)}}, "commands": [{"op": "image", "image": "i7", "at": [0, 0], "anchor": [0, 0]}]}"#.utf8))
        let png = tmp.appendingPathComponent("o.png").path
        let small = try run(["render", scene, "-o", png, "--backend", "reference", "--memory-limit", "8K"])
        XCTAssertEqual(small.status, 1)
        XCTAssertTrue(small.stderr.contains("resources.images.i0: \(tmp.path)/big.png: image 64×64 needs 16384 bytes decoded, over the memory limit of 8192 bytes"), small.stderr)
        // Eight entries, one file: 16 KiB fits a 16K budget.
        let fits = try run(["render", scene, "-o", png, "--backend", "reference", "--memory-limit", "16K"])
        XCTAssertEqual(fits.status, 0, fits.stderr)
        XCTAssertEqual(try RasterImage(contentsOf: URL(fileURLWithPath: png)).pixel(x: 10, y: 10),
                       PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        let bad = try run(["render", scene, "-o", png, "--memory-limit", "lots"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--memory-limit: expected a size such as 512M"), bad.stderr)
    }

    func testAllowDirLetsResourcesOutsideTheScenesFolder() throws {
        try write("assets/a.png", try RasterImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)).pngData())
        let scene = try write("scenes/s.json", Data(#"{"format": "gpucanvas-scene/1", "size": [4, 4], "resources": {"images": {"a": {"png": "../assets/a.png"}}}, "commands": [{"op": "image", "image": "a", "at": [0, 0], "anchor": [0, 0]}]}"#.utf8))
        let png = tmp.appendingPathComponent("o.png").path
        let refused = try run(["render", scene, "-o", png, "--backend", "reference"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains(#"resources.images.a.png: "../assets/a.png" is outside the scene's folder and the folders allowed to it"#), refused.stderr)
        let allowed = try run(["render", scene, "-o", png, "--backend", "reference", "--allow-dir", tmp.appendingPathComponent("assets").path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }
}
