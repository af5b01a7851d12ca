import XCTest
import Foundation
import GPUCanvas
#if canImport(Glibc)
import Glibc
#endif

/// `canvas-gl animate` run as a user would: outputs, progress lines, raw stdout, errors, and Ctrl-C.
final class AnimateCLITests: XCTestCase {
    private var tmp: URL!
    /// The scene colour "red" is SwiftUI's `Color.red` (iOS light mode), sRGB (255, 59, 48).
    static let swiftUIRed = PixelRGBA8(r: 255, g: 59, b: 48, a: 255)

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-animate-\(UUID())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    typealias Run = ProcessRun

    /// Runs canvas-gl with stdout and stderr to files (stderr is not a terminal: progress comes as lines).
    /// `interruptAfter` sends SIGINT that many seconds after the start.
    private func run(_ arguments: [String], stdin: URL? = nil, interruptAfter: Double? = nil) throws -> Run {
        let binary = try XCTUnwrap(CLITests.binary, "canvas-gl not found")
        return try ProcessRun.run(binary, arguments, in: tmp, stdin: stdin, interruptAfter: interruptAfter)
    }

    private func assertCleanFailure(_ r: Run, mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.crashed, r.stderr, file: file, line: line)
        XCTAssertNotEqual(r.status, 0, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), "stderr lacks \"\(text)\": \(r.stderr)", file: file, line: line)
        XCTAssertFalse(r.stderr.contains("Fatal error"), r.stderr, file: file, line: line)
    }

    /// The files in the temporary folder, the test's own stdout/stderr captures left out.
    private func files(_ dir: URL? = nil) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: (dir ?? tmp).path).filter { !$0.hasPrefix(".std") }.sorted()
    }

    func testPNGSequenceWithProgressLines() throws {
        let dir = tmp.appendingPathComponent("frames")
        let r = try run(["animate", "--example", "clock", "--fps", "10", "--duration", "1.2", "--size", "64x64", "-o", dir.path + "/"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try files(dir), (0 ..< 12).map { String(format: "frame-%05d.png", $0) })
        let frame = try RasterImage(contentsOfPNG: dir.appendingPathComponent("frame-00011.png"))
        XCTAssertEqual(frame.width, 64)
        XCTAssertTrue(r.text.hasPrefix("wrote \(dir.path)/: 12 frames, 64×64 px"), r.text)
        // Piped stderr: plain lines, the last one complete, no carriage returns.
        XCTAssertTrue(r.stderr.contains("frames 12/12"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\r"))
        // --quiet: nothing on stderr or stdout.
        let q = try run(["animate", "--example", "clock", "--frames", "2", "--size", "32x32", "--quiet", "-o", tmp.appendingPathComponent("q").path + "/"])
        XCTAssertEqual(q.status, 0, q.stderr)
        XCTAssertEqual(q.stderr, "")
        XCTAssertEqual(q.text, "")
    }

    func testRawFramesToStdout() throws {
        let r = try run(["animate", "--example", "spinning-symbol", "--frames", "3", "--size", "20x10", "--scale", "2", "--raw", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.count, 3 * 40 * 20 * 4)
        XCTAssertTrue(r.stderr.contains("wrote standard output: 3 frames, 40×20 px"), r.stderr)
    }

    /// The text-wave example (a per-glyph `TextRenderer`): two frames a quarter second apart differ where the
    /// glyphs ride the wave and nowhere else (the background above and below the text's reach is the same).
    func testTextWaveMovesItsGlyphsBetweenFrames() throws {
        let (w, h) = (320, 120)
        let r = try run(["animate", "--example", "text-wave", "--fps", "4", "--frames", "2", "--size", "\(w)x\(h)",
                         "--raw", "-o", "-"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout.count, 2 * w * h * 4)
        let bytes = [UInt8](r.stdout)
        var changedRows = Set<Int>()
        var changed = 0
        for y in 0..<h { for x in 0..<w {
            let i = (y * w + x) * 4
            if bytes[i..<(i + 4)] != bytes[(w * h * 4 + i)..<(w * h * 4 + i + 4)] { changed += 1; changedRows.insert(y) }
        } }
        // 44 pt text centred in 120 px, each glyph within 12 pt of its place: rows 18…102 at most.
        XCTAssertGreaterThan(changed, 500, "the glyphs did not move")
        XCTAssertGreaterThanOrEqual(changedRows.min() ?? 0, 15)
        XCTAssertLessThan(changedRows.max() ?? h, 105)
    }

    func testNDJSONStreamFromStdinAndItsErrors() throws {
        func scene(_ x: Int) -> String {
            #"{"format": "gpucanvas-scene/1", "size": [16, 8], "commands": [{"op": "fill", "path": {"rect": [\#(x), 0, 4, 8]}, "shading": {"color": "red"}}]}"#
        }
        let stream = tmp.appendingPathComponent("in.ndjson")
        try Data([scene(0), scene(4), scene(8)].joined(separator: "\n").utf8).write(to: stream)
        let out = tmp.appendingPathComponent("anim.apng")
        let r = try run(["animate", "-", "-o", out.path], stdin: stream)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.text.contains("3 frames, 16×8 px"), r.text)
        // The first frame of an APNG is its default image: any PNG reader shows it.
        let first = try RasterImage(contentsOfPNG: out)
        XCTAssertEqual(first.pixel(x: 2, y: 2), Self.swiftUIRed)
        XCTAssertEqual(first.pixel(x: 6, y: 2).a, 0)

        let bad = tmp.appendingPathComponent("bad.ndjson")
        try Data([scene(0), scene(4), "", #"{"format": "gpucanvas-scene/1", "size": [16, 8], "commands": [{"op": "fil"}]}"#].joined(separator: "\n").utf8).write(to: bad)
        let b = try run(["animate", bad.path, "-o", tmp.appendingPathComponent("bad.apng").path])
        assertCleanFailure(b, mentions: "\(bad.path) line 4: commands[0]")
        XCTAssertFalse(try files().contains("bad.apng"))
    }

    func testArgumentErrors() throws {
        assertCleanFailure(try run(["animate", "--example", "clock", "-o", "-"]), mentions: "add --raw")
        assertCleanFailure(try run(["animate", "--example", "clock", "-o", tmp.appendingPathComponent("x.avi").path]),
                           mentions: "canvas-gl animate does not write .avi files")
        assertCleanFailure(try run(["animate", "--example", "sundial", "-o", tmp.path + "/"]), mentions: "unknown animation \"sundial\"")
        assertCleanFailure(try run(["animate", "--example", "clock", "--fps", "0", "-o", tmp.path + "/"]), mentions: "--fps must be a number > 0")
        assertCleanFailure(try run(["animate", "--example", "clock", "--size", "64", "-o", tmp.path + "/"]), mentions: "--size must be WxH")
        assertCleanFailure(try run(["animate", "--example", "clock", "--frames", "2", "-o", "/nonexistent-dir/a.apng"]),
                           mentions: "cannot write /nonexistent-dir/a.apng: the folder /nonexistent-dir does not exist")
        assertCleanFailure(try run(["animate", "--example", "clock", "--frames", "2", "--ffmpeg", "/nonexistent/ffmpeg",
                                    "-o", tmp.appendingPathComponent("a.mp4").path]),
                           mentions: "/nonexistent/ffmpeg was not found; MP4 export runs it (Debian: apt install ffmpeg)")
        XCTAssertEqual(try files(), [])
    }

    /// Ctrl-C in the middle of a long export: exit 130, a message saying how far it got, and no file or
    /// temporary file left (and no ffmpeg left running: the export waits for it).
    func testInterruptLeavesNoFile() throws {
        try TestTier.requireThorough()
        for name in ["long.apng", "long.mp4"] {
            if name.hasSuffix("mp4"), FFmpegDestination.locate() == nil { continue }
            let r = try run(["animate", "--example", "clock", "--frames", "100000", "--size", "64x64", "-o", tmp.appendingPathComponent(name).path],
                            interruptAfter: 1.5)
            XCTAssertEqual(r.status, 130, r.stderr)
            XCTAssertFalse(r.crashed)
            XCTAssertTrue(r.stderr.contains("interrupted after "), r.stderr)
            XCTAssertTrue(r.stderr.contains("of 100000 frames; nothing was written to \(tmp.appendingPathComponent(name).path)"), r.stderr)
            XCTAssertEqual(try files(), [], name)
        }
    }

    func testBenchPrintsStageRatesAndTheSequentialBaseline() throws {
        let r = try run(["animate", "--example", "clock", "--frames", "6", "--size", "64x64", "--bench", "--quiet",
                         "-o", tmp.appendingPathComponent("b").path + "/"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for word in ["render ", "readback ", "encode ", "pipeline ", "sequential ", "speed-up "] {
            XCTAssertTrue(r.text.contains(word), "no \(word) line: \(r.text)")
        }
    }
}
