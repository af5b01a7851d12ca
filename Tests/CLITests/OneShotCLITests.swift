import XCTest
import Foundation
import GPUCanvas
#if canImport(Glibc)
import Glibc
#endif

/// The one-shot commands run as a user would: JPEG output and the extensions refused, `compare` of two image
/// files, PNG compression, `animate --range` against a whole export (PNG frames and ffmpeg-joined MP4
/// segments), and the timings `bench --cold` reads.
final class OneShotCLITests: XCTestCase {
    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-oneshot-\(UUID())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var crashed: Bool
    }

    private func run(_ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        let binary = try XCTUnwrap(CLITests.binary, "canvas-gl not found")
        return try runProcess(binary, arguments, environment: environment)
    }

    private func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> Run {
        let r = try ProcessRun.run(executable, arguments, in: tmp, environment: environment)
        return Run(status: r.status, stdout: r.text, stderr: r.stderr, crashed: r.crashed)
    }

    private func assertCleanFailure(_ r: Run, mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.crashed, r.stderr, file: file, line: line)
        XCTAssertNotEqual(r.status, 0, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), "stderr lacks \"\(text)\": \(r.stderr)", file: file, line: line)
        XCTAssertFalse(r.stderr.contains("Fatal error"), r.stderr, file: file, line: line)
    }

    private func path(_ name: String) -> String { tmp.appendingPathComponent(name).path }

    // MARK: JPEG and the extensions written

    /// A JPEG at quality 90 with 4:4:4 chroma of a drawing of flat colours and text stays above this PSNR
    /// against the PNG of the same render (measured 48.9 dB on the `colors` example); a mistake in the
    /// encoding (channels swapped, alpha taken for a channel, rows misplaced) falls far below it.
    static let jpegPSNRFloor = 40.0

    func testRenderWritesAJPEGOfTheRender() throws {
        XCTAssertEqual(try run(["render", "--example", "colors", "--backend", "reference", "-o", path("c.png")]).status, 0)
        for name in ["c.jpg", "c.JPEG"] {
            let r = try run(["render", "--example", "colors", "--backend", "reference", "-o", path(name)])
            XCTAssertEqual(r.status, 0, r.stderr)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path(name)))
            XCTAssertEqual(Array(bytes.prefix(3)), [0xFF, 0xD8, 0xFF], "\(name) is a JPEG")
            let jpeg = try RasterImage(jpegData: bytes), png = try RasterImage(contentsOfPNG: URL(fileURLWithPath: path("c.png")))
            let d = jpeg.difference(from: png)
            XCTAssertTrue(d.sameSize, "\(d)")
            XCTAssertGreaterThan(d.psnr, Self.jpegPSNRFloor, "\(d)")
        }
        // --quality: lower is smaller.
        XCTAssertEqual(try run(["render", "--example", "colors", "--backend", "reference", "-o", path("q20.jpg"), "--quality", "20"]).status, 0)
        let small = try Data(contentsOf: URL(fileURLWithPath: path("q20.jpg"))).count
        XCTAssertLessThan(small, try Data(contentsOf: URL(fileURLWithPath: path("c.jpg"))).count)
    }

    func testExtensionsItDoesNotWriteAreRefusedBeforeRendering() throws {
        let scene = ["--example", "ellipse", "--backend", "reference"]
        for name in ["out.webp", "out.gif", "out.PNG.bmp"] {
            let ext = URL(fileURLWithPath: name).pathExtension
            assertCleanFailure(try run(["render"] + scene + ["-o", path(name)]),
                               mentions: "cannot write \(path(name)): canvas-gl does not write .\(ext.lowercased()) files; it writes .png, .jpg or .jpeg")
            assertCleanFailure(try run(["compare"] + scene.prefix(2) + ["--backends", "reference,reference", "-o", path(name)]),
                               mentions: "canvas-gl does not write .\(ext.lowercased()) files")
            XCTAssertFalse(FileManager.default.fileExists(atPath: path(name)), name)
        }
        assertCleanFailure(try run(["render"] + scene + ["-o", path("out")]),
                           mentions: "cannot write \(path("out")): the name has no extension; use .png, .jpg or .jpeg, or --format png|jpeg")
        assertCleanFailure(try run(["render"] + scene + ["-o", path("out.png"), "--format", "jpeg"]),
                           mentions: "its name says PNG but --format says jpeg")
        assertCleanFailure(try run(["render"] + scene + ["-o", path("out.png"), "--quality", "80"]),
                           mentions: "--quality is for JPEG output")
        assertCleanFailure(try run(["render"] + scene + ["-o", path("out.jpg"), "--png-compression", "smallest"]),
                           mentions: "--png-compression is for PNG output")
        assertCleanFailure(try run(["render"] + scene + ["-o", path("out.jpg"), "--quality", "0"]), mentions: "--quality must be 1…100, not 0")
        XCTAssertEqual(try files(), [])
        // --format names the format of a name without an extension.
        XCTAssertEqual(try run(["render"] + scene + ["-o", path("noext"), "--format", "jpeg"]).status, 0)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path("noext"))).prefix(2)), [0xFF, 0xD8])
        // animate names the extension and what it writes.
        assertCleanFailure(try run(["animate", "--example", "clock", "--frames", "1", "-o", path("a.jpg")]),
                           mentions: "cannot write \(path("a.jpg")): canvas-gl animate does not write .jpg files; it writes DIR/ (PNG sequence), .apng, .png (APNG), .gif, .mp4, .m4v or .webm")
        // bench --save-last always writes NAME.png, as PNG.
        let sceneFile = path("s.json")
        try Data(#"{"format": "gpucanvas-scene/1", "size": [4, 4], "commands": []}"#.utf8).write(to: URL(fileURLWithPath: sceneFile))
        XCTAssertEqual(try run(["bench", sceneFile, "--backend", "reference", "--frames", "1", "--save-last", path("last")]).status, 0)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path("last/s.png"))).prefix(4)), [0x89, 0x50, 0x4E, 0x47])
    }

    private func files() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { !$0.hasPrefix(".std") }.sorted()
    }

    func testPNGCompressionOptionWritesTheSamePixels() throws {
        try TestTier.requireThorough()
        var sizes: [String: Int] = [:]
        for c in ["fastest", "default", "smallest"] {
            let r = try run(["render", "--example", "gradient-gallery", "--backend", "reference", "-o", path("\(c).png"), "--png-compression", c])
            XCTAssertEqual(r.status, 0, r.stderr)
            sizes[c] = try Data(contentsOf: URL(fileURLWithPath: path("\(c).png"))).count
            XCTAssertEqual(try RasterImage(contentsOfPNG: URL(fileURLWithPath: path("\(c).png"))),
                           try RasterImage(contentsOfPNG: URL(fileURLWithPath: path("fastest.png"))), c)
        }
        // Gradients: the Up filter of .default pays against .fastest's unfiltered rows; .smallest is smallest.
        XCTAssertLessThan(sizes["default"]!, sizes["fastest"]!, "\(sizes)")
        XCTAssertLessThanOrEqual(sizes["smallest"]!, sizes["default"]!, "\(sizes)")
        assertCleanFailure(try run(["render", "--example", "ellipse", "-o", path("x.png"), "--png-compression", "max"]),
                           mentions: "--png-compression must be fastest, default or smallest, not \"max\"")
    }

    // MARK: compare A B

    /// 4×2 opaque grey; `b` has pixel (1, 0) 10 levels redder and pixel (3, 1) 2 levels bluer.
    private func writePair() throws -> (String, String) {
        let a = RasterImage(width: 4, height: 2, pixels: [UInt8]((0 ..< 8).flatMap { _ in [100, 100, 100, 255] }))
        var px = a.pixels
        px[1 * 4] = 110
        px[(4 + 3) * 4 + 2] = 102
        let b = RasterImage(width: 4, height: 2, pixels: px)
        try a.writePNG(to: URL(fileURLWithPath: path("a.png")))
        try b.writePNG(to: URL(fileURLWithPath: path("b.png")))
        return (path("a.png"), path("b.png"))
    }

    func testCompareTwoImageFilesPrintsTheirDifferenceAndDiffImage() throws {
        let (a, b) = try writePair()
        let r = try run(["compare", a, b, "-o", path("diff.png")])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\(b) vs \(a), 4×2 px"), r.stdout)
        XCTAssertTrue(r.stdout.contains("maxDiff: 10\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("over2: 12.5000% (1 px)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("NOT met"), r.stdout)
        let diff = try RasterImage(contentsOfPNG: URL(fileURLWithPath: path("diff.png")))
        func px(_ x: Int, _ y: Int) -> [UInt8] { Array(diff.pixels[(y * 4 + x) * 4 ..< (y * 4 + x) * 4 + 4]) }
        XCTAssertEqual(px(1, 0), [138, 0, 0, 255], "off by 10: red, 128 + 10")
        XCTAssertEqual(px(3, 1)[2], px(3, 1).max(), "off by 2: blue \(px(3, 1))")
        XCTAssertEqual(px(0, 0)[0], px(0, 0)[1], "a match is grey \(px(0, 0))")
        // A file with itself: identical.
        let same = try run(["compare", a, a])
        XCTAssertTrue(same.stdout.contains("maxDiff: 0\n") && same.stdout.contains("PSNR: inf dB"), same.stdout)
    }

    func testCompareOfFilesSaysWhatIsWrong() throws {
        let (a, _) = try writePair()
        assertCleanFailure(try run(["compare", a, path("missing.png")]), mentions: path("missing.png"))
        try Data("not an image".utf8).write(to: URL(fileURLWithPath: path("corrupt.png")))
        assertCleanFailure(try run(["compare", a, path("corrupt.png")]), mentions: "\(path("corrupt.png")): neither PNG nor JPEG")
        let png = try Data(contentsOf: URL(fileURLWithPath: a))
        try png.prefix(png.count / 2).write(to: URL(fileURLWithPath: path("cut.png")))
        assertCleanFailure(try run(["compare", a, path("cut.png")]), mentions: path("cut.png"))
        try RasterImage(width: 3, height: 2).writePNG(to: URL(fileURLWithPath: path("small.png")))
        assertCleanFailure(try run(["compare", a, path("small.png")]),
                           mentions: "the images differ in size: \(a) is 4×2 px, \(path("small.png")) is 3×2 px")
        assertCleanFailure(try run(["compare", a, a, a]), mentions: "give one scene file or two image files, not 3 files")
        assertCleanFailure(try run(["compare", a, a, "--scale", "2"]), mentions: "--scale is for rendering a scene")
    }

    // MARK: animate --range

    func testPNGFramesMadeInRangesEqualTheWholeExport() throws {
        let common = ["animate", "--example", "clock", "--fps", "2", "--frames", "10", "--backend", "reference", "--quiet"]
        XCTAssertEqual(try run(common + ["-o", path("whole") + "/"]).status, 0)
        for range in ["0..<3", "3..<4", "4..<10"] {
            let r = try run(common + ["--range", range, "-o", path("parts") + "/"])
            XCTAssertEqual(r.status, 0, r.stderr)
        }
        let whole = try FileManager.default.contentsOfDirectory(atPath: path("whole")).sorted()
        XCTAssertEqual(whole.count, 10)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("parts")).sorted(), whole)
        for name in whole {
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("parts/" + name))),
                           try Data(contentsOf: URL(fileURLWithPath: path("whole/" + name))), name)
        }
        // The frames differ from one another (the second hand moves), so equal names holding equal bytes
        // is not a constant picture passing.
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: path("whole/frame-00000.png"))),
                          try Data(contentsOf: URL(fileURLWithPath: path("whole/frame-00009.png"))))
        // A view with state and an animation started in onAppear: the range's source sees the earlier frames.
        let view = ["animate", "--example", "spinning-symbol", "--fps", "4", "--frames", "6", "--backend", "reference", "--quiet"]
        XCTAssertEqual(try run(view + ["-o", path("vwhole") + "/"]).status, 0)
        XCTAssertEqual(try run(view + ["--range", "3..<6", "-o", path("vpart") + "/"]).status, 0)
        for k in 3 ..< 6 {
            let name = String(format: "frame-%05d.png", k)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("vpart/" + name))),
                           try Data(contentsOf: URL(fileURLWithPath: path("vwhole/" + name))), name)
        }
        assertCleanFailure(try run(common + ["--range", "8..<12", "-o", path("x") + "/"]), mentions: "--range 8..<12 ends after the animation's 10 frames")
        assertCleanFailure(try run(common + ["--range", "5..<5", "-o", path("x") + "/"]), mentions: "--range must be A..<B")
    }

    /// Twelve frames, each one flat grey 20·k: a decoded frame's level says which frame it is.
    private func greyStream() throws -> String {
        let lines = (0 ..< 12).map { k -> String in
            let hex = String(format: "%02x", k * 20)
            return ##"{"format": "gpucanvas-scene/1", "size": [64, 48], "commands": [{"op": "fill", "path": {"rect": [0, 0, 64, 48]}, "shading": {"color": "#\##(hex)\##(hex)\##(hex)"}}]}"##
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path("grey.ndjson")))
        return path("grey.ndjson")
    }

    /// H.264 of flat grey at CRF 18 decodes within this of the level drawn (measured 0–1); frames are 20 apart.
    static let greyLevelTolerance = 4

    func testConcatenatedMP4SegmentsHaveTheWholeExportsFramesInOrder() throws {
        guard let ffmpeg = FFmpegDestination.locate("ffmpeg"), let ffprobe = FFmpegDestination.locate("ffprobe") else {
            throw XCTSkip("ffmpeg and ffprobe are needed to join and count MP4 segments (Debian: apt install ffmpeg)")
        }
        let stream = try greyStream()
        XCTAssertEqual(try run(["animate", stream, "--fps", "10", "--backend", "reference", "--quiet", "-o", path("whole.mp4")]).status, 0)
        var list = ""
        for (n, range) in [(0, "0..<4"), (4, "4..<9"), (9, "9..<12")] {
            let r = try run(["animate", stream, "--fps", "10", "--backend", "reference", "--quiet", "--range", range, "-o", path("seg-\(n).mp4")])
            XCTAssertEqual(r.status, 0, r.stderr)
            list += "file '\(path("seg-\(n).mp4"))'\n"
        }
        try Data(list.utf8).write(to: URL(fileURLWithPath: path("list.txt")))
        let join = try runProcess(URL(fileURLWithPath: ffmpeg), ["-loglevel", "error", "-f", "concat", "-safe", "0", "-i", path("list.txt"),
                                                                 "-c", "copy", path("joined.mp4")])
        XCTAssertEqual(join.status, 0, join.stderr)
        func probe(_ file: String, _ entries: String) throws -> [String] {
            let r = try runProcess(URL(fileURLWithPath: ffprobe), ["-v", "error", "-select_streams", "v:0", "-count_frames",
                                                                    "-show_entries", entries, "-of", "csv=p=0", file])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stdout.split(separator: "\n").map(String.init)
        }
        XCTAssertEqual(try probe(path("joined.mp4"), "stream=nb_read_frames"), ["12"])
        XCTAssertEqual(try probe(path("whole.mp4"), "stream=nb_read_frames"), ["12"])
        // A keyframe begins each segment, so the copy needed no re-encoding there.
        let keys = try probe(path("joined.mp4"), "frame=key_frame").map { $0.hasPrefix("1") }
        XCTAssertEqual(keys.count, 12)
        XCTAssertTrue(keys[0] && keys[4] && keys[9], "\(keys)")
        // Order: each decoded frame's mean grey is its frame's level.
        let raw = tmp.appendingPathComponent("joined.gray")
        let decode = try runProcess(URL(fileURLWithPath: ffmpeg), ["-loglevel", "error", "-i", path("joined.mp4"), "-vf", "scale=1:1",
                                                                   "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
        XCTAssertEqual(decode.status, 0, decode.stderr)
        let levels = [UInt8](try Data(contentsOf: raw)).map(Int.init)
        XCTAssertEqual(levels.count, 12)
        for (k, level) in levels.enumerated() {
            XCTAssertLessThanOrEqual(abs(level - 20 * k), Self.greyLevelTolerance, "frame \(k): \(levels)")
        }
    }

    func testARangeOfAStreamSkipsItsEarlierLines() throws {
        let stream = try greyStream()
        XCTAssertEqual(try run(["animate", stream, "--backend", "reference", "--quiet", "--range", "5..<7", "-o", path("g") + "/"]).status, 0)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("g")).sorted(), ["frame-00005.png", "frame-00006.png"])
        let five = try RasterImage(contentsOfPNG: URL(fileURLWithPath: path("g/frame-00005.png")))
        XCTAssertEqual(Array(five.pixels.prefix(4)), [100, 100, 100, 255])
        assertCleanFailure(try run(["animate", stream, "--backend", "reference", "--quiet", "--range", "10..<14", "-o", path("h") + "/"]),
                           mentions: "the stream ended after frame 11, before --range's last frame 13")
    }

    // MARK: Timings

    func testRenderTimingsAreOneJSONLineWithTheProgramsCompiled() throws {
        let r = try run(["render", "--example", "ellipse", "--device", "mesa", "-o", path("e.png"), "--timings"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.hasPrefix("timings: ") }, r.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.dropFirst(9).utf8)) as? [String: Any])
        for key in ["start", "load", "renderer", "firstFrame", "write", "written", "secondFrame"] {
            XCTAssertNotNil(object[key] as? NSNumber, "\(key) in \(line)")
        }
        let atInit = try XCTUnwrap((object["programsAtInit"] as? NSNumber)?.intValue)
        let afterFirst = try XCTUnwrap((object["programsAfterFirstFrame"] as? NSNumber)?.intValue)
        XCTAssertEqual(atInit, 0, "CanvasRenderer() builds no program: each is built on first use")
        XCTAssertEqual(afterFirst, 1, "the ellipse's first frame builds one: the baked-paint blit")
        XCTAssertEqual((object["programsAfterSecondFrame"] as? NSNumber)?.intValue, afterFirst, "the same frame again compiles nothing")
    }

    /// `--program-cache DIR`: the second run loads every program the first built; an unwritable directory or a
    /// driver without program binaries renders anyway and says so once.
    func testProgramCacheOptionLoadsOnTheSecondRunAndSaysWhyItStandsAside() throws {
        func timings(_ r: Run) throws -> [String: Any] {
            XCTAssertEqual(r.status, 0, r.stderr)
            let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.hasPrefix("timings: ") }, r.stderr)
            return try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.dropFirst(9).utf8)) as? [String: Any])
        }
        let render = ["render", "--example", "ellipse", "--device", "mesa", "-o", path("e.png"), "--timings", "--program-cache"]
        let first = try timings(try run(render + [path("programs")]))
        let built = try XCTUnwrap((first["programCacheMisses"] as? NSNumber)?.intValue)
        XCTAssertGreaterThan(built, 0)
        XCTAssertEqual((first["programCacheHits"] as? NSNumber)?.intValue, 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: path("programs")).filter { $0.hasSuffix(".bin") }
        XCTAssertEqual(files.count, built)
        let second = try timings(try run(render + [path("programs")]))
        XCTAssertEqual((second["programCacheHits"] as? NSNumber)?.intValue, built)
        XCTAssertEqual((second["programCacheMisses"] as? NSNumber)?.intValue, 0)
        XCTAssertNil(try timings(try run(render + ["none"]))["programCacheHits"], "--program-cache none has no cache")

        try Data("a file".utf8).write(to: URL(fileURLWithPath: path("blocker")))
        let blocked = try run(render + [path("blocker/programs")])
        XCTAssertEqual(blocked.status, 0, blocked.stderr)
        let note = "note: program cache: cannot write to \(path("blocker/programs")) ("
        XCTAssertEqual(blocked.stderr.components(separatedBy: note).count, 2, "said once: \(blocked.stderr)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("e.png")))

        var environment = ProcessInfo.processInfo.environment
        environment["MESA_SHADER_CACHE_DISABLE"] = "true"
        let off = try run(render + [path("programs")], environment: environment)
        XCTAssertEqual((try timings(off)["programCacheHits"] as? NSNumber)?.intValue, 0)
        XCTAssertTrue(off.stderr.contains("note: program cache: the driver offers no program binary format"), off.stderr)

        assertCleanFailure(try run(render + [""]), mentions: "--program-cache: give default, none or a directory")
    }

    /// `GPUCANVAS_SPECIALISATION` forces a program policy for the process: a name it does not know is refused
    /// with the choices; set but empty is unset. Both named policies draw the same ellipse.
    func testSpecialisationVariableNamesItsChoicesAndEmptyIsUnset() throws {
        func render(_ value: String?, _ name: String) throws -> Run {
            var environment = ProcessInfo.processInfo.environment
            environment["GPUCANVAS_SPECIALISATION"] = value
            return try run(["render", "--example", "ellipse", "--device", "mesa", "-o", path(name)], environment: environment)
        }
        assertCleanFailure(try render("sometimes", "bad.png"),
                           mentions: "GPUCANVAS_SPECIALISATION=sometimes is not one of adaptive, never, always")
        for (value, name) in [("", "empty.png"), ("never", "never.png"), ("always", "always.png")] {
            let r = try render(value, name)
            XCTAssertEqual(r.status, 0, "\(value): \(r.stderr)")
        }
        let never = try Data(contentsOf: URL(fileURLWithPath: path("never.png")))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("empty.png"))), never)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("always.png"))), never)
    }

    func testBenchColdPrintsTheTableForEachMode() throws {
        try TestTier.requireThorough()
        let r = try run(["bench", "--cold", "--example", "ellipse", "--runs", "1", "--device", "mesa"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for mode in ["gles, empty cache", "gles, warm cache", "reference"] {
            XCTAssertTrue(r.stdout.contains("| ellipse | \(mode) | "), r.stdout)
        }
        XCTAssertTrue(r.stdout.contains("EGL display + context alone"), r.stdout)
        assertCleanFailure(try run(["bench", "--cold"]), mentions: "--cold measures built-in examples")
        assertCleanFailure(try run(["bench", "--cold", "--example", "nope"]), mentions: "unknown example \"nope\"")
    }
}
