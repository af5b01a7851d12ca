import XCTest
import Foundation
import GPUCanvas
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `canvas-gl` binary as a user would and checks exit codes, stdout, stderr and files.
final class CLITests: XCTestCase {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var terminatedBySignal: Bool
    }

    /// The binary sits beside the test bundle: on Linux `Bundle.main` is the test runner in `.build/debug`;
    /// on macOS the `.xctest` bundle lies in that folder.
    static let binary: URL? = {
        let bundles = [Bundle.main.bundleURL, Bundle(for: CLITests.self).bundleURL]
        for dir in bundles.flatMap({ [$0, $0.deletingLastPathComponent()] }) {
            let url = dir.appendingPathComponent("canvas-gl")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }()

    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-tests-\(UUID())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    private func run(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let binary = try XCTUnwrap(Self.binary, "canvas-gl not found beside \(Bundle.main.bundleURL.path)", file: file, line: line)
        let r = try ProcessRun.run(binary, arguments, in: tmp)
        return Run(status: r.status, stdout: r.text, stderr: r.stderr, terminatedBySignal: r.crashed)
    }

    /// Exit non-zero by choice, with a message and no crash report.
    private func assertCleanFailure(_ r: Run, mentions text: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.terminatedBySignal, "crashed: \(r.stderr)", file: file, line: line)
        XCTAssertNotEqual(r.status, 0, file: file, line: line)
        XCTAssertTrue(r.stderr.contains(text), "stderr lacks \"\(text)\": \(r.stderr)", file: file, line: line)
        for crashSign in ["Fatal error", "Stack dump", "Backtrace", "Current stack trace"] {
            XCTAssertFalse(r.stderr.contains(crashSign), r.stderr, file: file, line: line)
        }
    }

    private func writeScene(_ name: String, _ commands: String, header: String = #""size": [30, 20], "scale": 2"#) throws -> String {
        let url = tmp.appendingPathComponent(name)
        try Data(#"{"format": "gpucanvas-scene/1", \#(header), "commands": [\#(commands)]}"#.utf8).write(to: url)
        return url.path
    }

    private let goodCommands = #"{"op": "fill", "path": {"rect": [0, 0, 15, 20]}, "shading": {"color": "red"}}"#

    /// Checks the PNG container: signature, chunk CRCs, IHDR (size), IDAT present, IEND last.
    private func assertValidPNG(_ path: String, width: Int, height: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], file: file, line: line)
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        func crc(_ s: ArraySlice<UInt8>) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in s { c ^= UInt32(b); for _ in 0 ..< 8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 } }
            return ~c
        }
        var i = 8
        var types: [String] = []
        while i + 12 <= bytes.count {
            let n = be32(i)
            let type = String(decoding: bytes[i + 4 ..< i + 8], as: UTF8.self)
            XCTAssertLessThanOrEqual(i + 12 + n, bytes.count, "chunk \(type) overruns the file", file: file, line: line)
            guard i + 12 + n <= bytes.count else { return }
            XCTAssertEqual(UInt32(be32(i + 8 + n)), crc(bytes[i + 4 ..< i + 8 + n]), "CRC of \(type)", file: file, line: line)
            if type == "IHDR" {
                XCTAssertEqual(be32(i + 8), width, file: file, line: line)
                XCTAssertEqual(be32(i + 12), height, file: file, line: line)
            }
            types.append(type)
            i += 12 + n
        }
        XCTAssertEqual(types.first, "IHDR", file: file, line: line)
        XCTAssertTrue(types.contains("IDAT"), file: file, line: line)
        XCTAssertEqual(types.last, "IEND", file: file, line: line)
    }

    // MARK: Tests

    func testVersion() throws {
        let r = try run(["--version"])
        XCTAssertEqual(r.status, 0)
        XCTAssertEqual(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "canvas-gl 0.1.0")
    }

    func testHelpOfEveryCommandShowsAnExample() throws {
        for command in [[], ["render"], ["examples"], ["info"], ["compare"], ["bench"]] {
            let r = try run(command + ["--help"])
            XCTAssertEqual(r.status, 0, "\(command)")
            XCTAssertTrue(r.stdout.contains("Example"), "\(command): \(r.stdout)")
            XCTAssertTrue(r.stdout.contains("canvas-gl " + (command.first ?? "")), "\(command): \(r.stdout)")
        }
    }

    func testExamplesListsTheReadmeSample() throws {
        let r = try run(["examples"])
        XCTAssertEqual(r.status, 0)
        let names = r.stdout.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        XCTAssertEqual(names.first, "ellipse")
        XCTAssertTrue(Set(names).isSuperset(of: ["ellipse", "colors", "shapes", "fill-rules", "strokes", "transforms", "opacity", "arcs"]),
                      r.stdout)
        // The clip, gradient, blend and layer examples follow, in this order.
        XCTAssertEqual(Array(names.drop { $0 != "clipped-quadrant" }.prefix(Self.compositingExamples.count)),
                       Self.compositingExamples.map(\.name), r.stdout)
        // The seed samples' pictures come last, S01 to S14.
        XCTAssertEqual(Array(names.suffix(Self.seedExamples.count)), Self.seedExamples.map(\.name), r.stdout)
    }

    func testInfoNamesTheBackends() throws {
        let r = try run(["info"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("canvas-gl 0.1.0"))
        XCTAssertTrue(r.stdout.contains("reference:"))
        XCTAssertTrue(r.stdout.contains("gles:"))
    }

    func testRenderWritesAPNGOfTheScenesPixelSize() throws {
        let scene = try writeScene("good.json", goodCommands)
        let png = tmp.appendingPathComponent("out.png").path
        let r = try run(["render", scene, "-o", png, "--backend", "reference"])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertValidPNG(png, width: 60, height: 40)
        // --scale overrides the document's scale.
        XCTAssertEqual(try run(["render", scene, "-o", png, "--scale", "1"]).status, 0)
        try assertValidPNG(png, width: 30, height: 20)
    }

    func testRenderExampleWritesThePNG() throws {
        let png = tmp.appendingPathComponent("ellipse.png").path
        let r = try run(["render", "--example", "ellipse", "-o", png])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertValidPNG(png, width: 600, height: 400)
    }

    func testDumpPrintsTheRecording() throws {
        let scene = try writeScene("dump.json", goodCommands + #", {"op": "copy", "commands": [{"op": "opacity", "value": 0.5}, {"op": "stroke", "path": "0 0 m 5 5 l", "shading": "foreground", "lineWidth": 2}]}"#)
        let r = try run(["render", scene, "--dump"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertEqual(lines.first, "Recording 30×20 pt, colorMode: nonLinear, opaque: false, 2 draws")
        XCTAssertTrue(lines.count == 3 && lines[1].contains("[0] #0 fill") && lines[2].contains("[1] #1 stroke")
                      && lines[2].contains("opacity 0.5"), r.stdout)
    }

    func testBadSceneExitsWithTheLocatedMessage() throws {
        let scene = try writeScene("bad.json", goodCommands + #", {"op": "fill", "path": "0 0 m h", "shading": {"color": 3}}"#)
        let r = try run(["render", scene, "-o", tmp.appendingPathComponent("x.png").path])
        assertCleanFailure(r, mentions: "\(scene): commands[1].shading.color: expected a colour, got number")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("x.png").path))
    }

    func testMalformedSceneGivesLineAndColumn() throws {
        let url = tmp.appendingPathComponent("broken.json")
        try Data("{\n  \"format\": \"gpucanvas-scene/1\"\n  \"size\": [1, 1]\n}".utf8).write(to: url)
        assertCleanFailure(try run(["render", url.path, "--dump"]), mentions: "\(url.path):3:3: expected ',' or '}'")
    }

    func testBadSceneInputIsNamed() throws {
        let scene = try writeScene("symbol.json", #"{"op": "symbol", "symbol": "mark", "at": [0, 0]}"#)
        assertCleanFailure(try run(["render", scene, "--dump"]),
                           mentions: #"commands[0].symbol: unknown symbol "mark" (the document has no resources.symbols)"#)
        // A filter too wide to draw loads, and rendering it says why.
        let blur = try writeScene("blur.json", #"{"op": "filter", "filter": {"blur": {"radius": 1e5}}}, {"op": "fill", "path": {"rect": [0, 0, 4, 4]}, "shading": {"color": "red"}}"#)
        assertCleanFailure(try run(["render", blur, "--device", "mesa", "-o", tmp.appendingPathComponent("blur.png").path]),
                           mentions: "draw #0: filter .blur(radius: 100000) has σ = 200000 device pixels, more than 4096")
    }

    func testMissingFileIsNamed() throws {
        let missing = tmp.appendingPathComponent("missing.json").path
        assertCleanFailure(try run(["render", missing, "-o", tmp.appendingPathComponent("x.png").path]),
                           mentions: "\(missing): cannot read the file: no such file")
    }

    func testGLESIsTheDefaultBackendAndMatchesTheReference() throws {
        let scene = try writeScene("gles.json", goodCommands + #", {"op": "stroke", "path": {"ellipse": [2, 2, 20, 14]}, "shading": {"color": "blue"}, "lineWidth": 3}"#)
        let png = tmp.appendingPathComponent("gles.png").path
        let r = try run(["render", scene, "-o", png, "--device", "mesa"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("llvmpipe"), r.stdout)
        try assertValidPNG(png, width: 60, height: 40)
        for strategy in ["raster-atlas", "gpu-tessellation"] {
            let c = try run(["compare", scene, "--device", "mesa", "--path-strategy", strategy])
            XCTAssertEqual(c.status, 0, c.stderr)
            XCTAssertTrue(c.stdout.contains("default bar (over2 ≤ 0.1%, maxDiff ≤ 8): met"), c.stdout)
        }
    }

    func testDumpGPUPrintsTheCommandBuffer() throws {
        let scene = try writeScene("dump-gpu.json", goodCommands)
        let r = try run(["render", scene, "--dump-gpu", "--device", "mesa", "--path-strategy", "raster-atlas"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("CommandBuffer: 1 pass, 1 draw call") == true, r.stdout)
        // llvmpipe: the paint atlas (BGRA8 colour × coverage rectangles into a BGRA8 frame).
        XCTAssertTrue(r.stdout.contains("bind pipeline atlasBlit"), r.stdout)
        XCTAssertEqual(lines.suffix(2).map(String.init), ["  fence", "  readback frame 60×40 bgra8"])
        let cover = try run(["render", scene, "--dump-gpu", "--device", "mesa", "--path-strategy", "raster-atlas",
                             "--no-paint-atlas"])
        XCTAssertEqual(cover.status, 0, cover.stderr)
        XCTAssertTrue(cover.stdout.contains("bind pipeline atlasCover"), cover.stdout)
        XCTAssertEqual(cover.stdout.split(separator: "\n").suffix(2).map(String.init),
                       ["  fence", "  readback frame 60×40 rgba8"])
        assertCleanFailure(try run(["render", scene, "--dump-gpu", "--backend", "reference"]),
                           mentions: "--dump-gpu needs --backend gles")
    }

    func testBadGLESOptionsAreNamed() throws {
        let scene = try writeScene("opts.json", goodCommands)
        let out = tmp.appendingPathComponent("x.png").path
        assertCleanFailure(try run(["render", scene, "-o", out, "--device", "gpu7"]), mentions: #"unknown device "gpu7""#)
        assertCleanFailure(try run(["render", scene, "-o", out, "--path-strategy", "magic"]),
                           mentions: #"unknown strategy "magic""#)
        // A device index past the end of the list is an EGL error, reported, not a crash.
        assertCleanFailure(try run(["render", scene, "-o", out, "--device", "egl-device:99"]),
                           mentions: "the GLES backend cannot start")
    }

    func testInfoReportsTheGLESDriver() throws {
        let r = try run(["info", "--device", "mesa"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for fact in ["gles: available", "GL_RENDERER: llvmpipe", "GL_VERSION: OpenGL ES 3.2", "GL_MAX_TEXTURE_SIZE:",
                     "GL_MAX_SAMPLES:", "GL_EXT_float_blend: yes", "GL_KHR_blend_equation_advanced:",
                     "default path strategy: raster-atlas", "GL_NUM_PROGRAM_BINARY_FORMATS: "] {
            XCTAssertTrue(r.stdout.contains(fact), "missing \(fact) in:\n\(r.stdout)")
        }
    }

    func testUnknownBackendAndExampleAreNamed() throws {
        let scene = try writeScene("b.json", goodCommands)
        assertCleanFailure(try run(["render", scene, "-o", tmp.appendingPathComponent("x.png").path, "--backend", "metal"]),
                           mentions: #"unknown backend "metal""#)
        assertCleanFailure(try run(["render", "--example", "nope", "-o", tmp.appendingPathComponent("x.png").path]),
                           mentions: #"unknown example "nope""#)
    }

    func testUsageErrorsExitNonZero() throws {
        assertCleanFailure(try run(["render"]), mentions: "give a scene file or --example NAME")
        assertCleanFailure(try run(["render", "--example", "ellipse"]), mentions: "nothing to do")
        assertCleanFailure(try run(["frobnicate"]), mentions: "frobnicate")
    }

    func testUnwritableOutputIsNamed() throws {
        let scene = try writeScene("w.json", goodCommands)
        let out = tmp.appendingPathComponent("no-such-dir/x.png").path
        assertCleanFailure(try run(["render", scene, "-o", out]), mentions: "cannot write \(out)")
    }

    func testExamplesRenderToADirectory() throws {
        try TestTier.requireThorough()
        let dir = tmp.appendingPathComponent("demo")
        let r = try run(["examples", "--render-to", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        try assertValidPNG(dir.appendingPathComponent("ellipse.png").path, width: 600, height: 400)
        for name in ["colors", "shapes", "fill-rules", "strokes", "transforms", "opacity", "arcs"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent(name + ".png").path), name)
        }
        for (name, width, height) in Self.compositingExamples + Self.seedExamples {
            try assertValidPNG(dir.appendingPathComponent(name + ".png").path, width: width, height: height)
        }
        // The social card written with views (ViewSocialCardTests checks its layout and pixels).
        try assertValidPNG(dir.appendingPathComponent("social-card.png").path, width: 1200, height: 630)
        // The chart and the avatar list are 360 and 320 pt wide at scale 2 (their heights follow the text).
        for (name, width) in [("chart-legend", 720), ("avatar-list", 640)] {
            let image = try RasterImage(contentsOf: dir.appendingPathComponent(name + ".png"))
            XCTAssertEqual(image.width, width, name)
            XCTAssertGreaterThan(image.height, 300, name)
        }
    }

    // MARK: The clip, gradient, blend-mode and layer examples

    /// Name and pixel size of the examples that draw clips, gradients, blend modes, layers and filters.
    static let compositingExamples: [(name: String, width: Int, height: Int)] = [
        ("clipped-quadrant", 600, 400), ("masked-copy", 600, 400), ("gradient-card", 600, 400),
        ("gradient-gallery", 960, 640), ("blend-modes", 960, 640), ("clips-and-layers", 960, 640),
        ("color-filters", 960, 500), ("three-houses-ordering", 360, 120), ("three-houses-copy", 360, 120),
        ("three-houses-layer", 360, 120), ("blurs-and-shadows", 960, 500),
    ]

    // MARK: The seed samples' examples

    /// Name and pixel size of the seed samples' examples (views proposed 300 × 200 pt at scale 2, unless the
    /// sample's picture asks for another size).
    static let seedExamples: [(name: String, width: Int, height: Int)] = [
        ("seed-s01", 600, 400), ("seed-s02", 600, 400), ("seed-s03", 600, 400), ("seed-s04", 600, 400),
        ("seed-s05", 600, 400), ("seed-s06", 600, 400), ("seed-s07", 960, 280), ("seed-s08", 600, 200),
        ("seed-s09", 600, 400), ("seed-s10", 600, 400), ("seed-s11", 400, 400), ("seed-s12", 360, 120),
        ("seed-s13", 600, 400), ("seed-s14", 400, 400),
    ]

    /// seed-s01 (a view: a framed canvas with a border) and seed-s12 (house.fill symbols, the middle blurred),
    /// rendered by the tool on both backends; seed-s14's clock hand at its fixed date.
    func testSeedExamplesRenderTheirViews() throws {
        for backend in ["reference", "gles"] {
            let ellipse = try renderExample("seed-s01", backend: backend)
            XCTAssertEqual(ellipse.width, 600, backend)
            assertPixel(ellipse, 300, 0, blue, tolerance: solid, "\(backend): the border")
            assertPixel(ellipse, 300, 3, green, tolerance: solid, "\(backend): the ring inside the border")
            assertPixel(ellipse, 300, 200, transparent, tolerance: none, "\(backend): the middle")

            let houses = try renderExample("seed-s12", backend: backend)
            // The sharp red and blue houses, a house's width (its 24 pt image box: 96 px) either side of the
            // middle: solid under the roof, a hole at the door.
            assertPixel(houses, 84, 60, (255, 59, 48, 255), tolerance: solid, "\(backend): red house")
            assertPixel(houses, 276, 60, blue, tolerance: solid, "\(backend): blue house")
            assertPixel(houses, 84, 82, transparent, tolerance: none, "\(backend): red door")
            // The blurred green one: its door partly filled, its apex soft.
            let door = houses.pixel(x: 180, y: 82), apex = houses.pixel(x: 180, y: 30), body = houses.pixel(x: 180, y: 60)
            XCTAssertGreaterThan(door.a, 0, backend)
            XCTAssertGreaterThan(apex.a, 0, backend)
            XCTAssertLessThan(apex.a, 200, backend)
            XCTAssertGreaterThan(body.g, body.r, backend)
            XCTAssertGreaterThan(body.g, body.b, backend)

            // 7.5 s past the minute: the second hand (80 pt long at scale 2) points up and right, at 45°.
            let clock = try renderExample("seed-s14", backend: backend)
            assertPixel(clock, 200 + 85, 200 - 85, (255, 59, 48, 255), tolerance: solid, "\(backend): the hand")
            assertPixel(clock, 200 - 85, 200 - 85, transparent, tolerance: none, "\(backend): not at 315°")
        }
    }

    /// The seeds' three ways of blurring the middle house (by ordering, by a copied context, by a layer) give
    /// one picture: the same bytes on each backend.
    func testThreeHousesAreOnePictureThreeWays() throws {
        for backend in ["reference", "gles"] {
            let images = try ["three-houses-ordering", "three-houses-copy", "three-houses-layer"].map {
                try renderExample($0, backend: backend)
            }
            XCTAssertEqual(images[0].pixels, images[1].pixels, backend)
            XCTAssertEqual(images[0].pixels, images[2].pixels, backend)
            // The middle house is blurred: two pixels inside its roof's apex, green is mixed with the white
            // around it (an unblurred apex would be the green itself, r = 52); the red house is not.
            let apex = images[0].pixel(x: 180, y: 30)
            XCTAssertGreaterThan(apex.r, 100, backend)
            XCTAssertGreaterThan(apex.g, apex.r, backend)
            XCTAssertEqual(images[0].pixel(x: 84, y: 64), PixelRGBA8(r: 255, g: 59, b: 48, a: 255), backend)
        }
    }

    /// Renders a built-in example through the tool and reads the PNG back (premultiplied RGBA8).
    private func renderExample(_ name: String, backend: String, file: StaticString = #filePath,
                               line: UInt = #line) throws -> RasterImage {
        let png = tmp.appendingPathComponent("\(name)-\(backend).png")
        let r = try run(["render", "--example", name, "-o", png.path, "--backend", backend, "--device", "mesa"],
                        file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try RasterImage(contentsOfPNG: png)
    }

    /// Each channel of the pixel at (x, y) within `tolerance` of `expected` (premultiplied r, g, b, a).
    private func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: (Int, Int, Int, Int),
                             tolerance: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(x: x, y: y)
        let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        let want = [expected.0, expected.1, expected.2, expected.3]
        XCTAssertTrue(zip(got, want).allSatisfy { abs($0 - $1) <= tolerance },
                      "\(what): pixel (\(x), \(y)) is \(got), expected \(want) ± \(tolerance)", file: file, line: line)
    }

    // Each compositing example's pixel size: `testExamplesRenderToADirectory` (the same renders, written by
    // `examples --render-to`); `render --example NAME -o` itself: `testRenderExampleWritesThePNG` and `renderExample`.

    func testCompositingExamplesMeetTheDefaultBarBetweenBackends() throws {
        try TestTier.requireThorough()
        // Two `compare` processes at a time: each draws the reference on one thread.
        let examples = Self.compositingExamples
        let runs = UnsafeMutableBufferPointer<Result<Run, Error>?>.allocate(capacity: examples.count)
        defer { runs.deallocate() }
        runs.initialize(repeating: nil)
        nonisolated(unsafe) let slots = runs
        nonisolated(unsafe) let test = self
        DispatchQueue.concurrentPerform(iterations: examples.count) { i in
            slots[i] = Result { try test.run(["compare", "--example", examples[i].name, "--device", "mesa"]) }
        }
        for (i, (name, width, height)) in examples.enumerated() {
            let c = try runs[i]!.get()
            XCTAssertEqual(c.status, 0, "\(name): \(c.stderr)")
            XCTAssertTrue(c.stdout.contains("\(width)×\(height) px"), "\(name): \(c.stdout)")
            XCTAssertTrue(c.stdout.contains("default bar (over2 ≤ 0.1%, maxDiff ≤ 8): met"), "\(name): \(c.stdout)")
        }
        let scene = try writeScene("either.json", goodCommands)
        assertCleanFailure(try run(["compare", scene, "--example", "ellipse"]), mentions: "not both")
        assertCleanFailure(try run(["compare"]), mentions: "give a scene file or --example NAME")
        assertCleanFailure(try run(["compare", "--example", "nope"]), mentions: #"unknown example "nope""#)
    }

    // Tolerances below: a pixel well inside a solid shape is the named colour exactly on both backends, up
    // to 1 for the 8-bit rounding of the colour (`solid`); a pixel the clip removes is exactly transparent
    // (`none`: the quadrant's edges fall on pixel edges at scale 2, so no partial coverage reaches it).
    private let solid = 1, none = 0
    private let transparent = (0, 0, 0, 0)
    private let green = (52, 199, 89, 255)   // Color.green, sRGB (52, 199, 89)
    private let blue = (0, 122, 255, 255)    // Color.blue, sRGB (0, 122, 255)

    /// The iOS 17/18 examples through the tool on both backends. path-booleans (scale 2, tiles 100 pt apart;
    /// circle centre (40, 50) r 30, square (35…90, 10…65)): the union fills the circle's left and the square's
    /// top right, the intersection is empty in the circle's left, the subtraction is empty in the square.
    /// mesh-gradients: its first tile's top-left corner is the mesh's first colour, its moved middle vertex
    /// (0.75, 0.3) of the tile is white in both the smooth and bilinear tiles, and outside the circle of the
    /// last tile is clear.
    func testPathBooleanAndMeshGradientExamples() throws {
        let indigo = (88, 86, 214, 255), white = (255, 255, 255, 255), red = (255, 59, 48, 255)
        // A mesh pixel's centre lies a quarter to three quarters of a pixel off the point whose colour is known;
        // the surface changes by at most a few levels a pixel there.
        let nearVertex = 4
        for backend in ["reference", "gles"] {
            let b = try renderExample("path-booleans", backend: backend)
            XCTAssertEqual(b.width, 1200, backend)
            assertPixel(b, 40, 100, indigo, tolerance: solid, "\(backend): union, the circle's left")
            assertPixel(b, 170, 30, indigo, tolerance: solid, "\(backend): union, the square's top right")
            assertPixel(b, 2 * 100 + 40, 100, white, tolerance: solid, "\(backend): intersection, circle only")
            assertPixel(b, 2 * 100 + 120, 100, indigo, tolerance: solid, "\(backend): intersection, both")
            assertPixel(b, 2 * 200 + 120, 60, white, tolerance: solid, "\(backend): subtracting, in the square")
            assertPixel(b, 2 * 200 + 40, 100, indigo, tolerance: solid, "\(backend): subtracting, circle only")
            assertPixel(b, 2 * 300 + 120, 60, white, tolerance: solid, "\(backend): symmetric difference, both")

            let m = try renderExample("mesh-gradients", backend: backend)
            XCTAssertEqual(m.width, 960, backend)
            assertPixel(m, 20, 20, red, tolerance: nearVertex, "\(backend): the mesh's first vertex")
            assertPixel(m, 170, 80, white, tolerance: nearVertex, "\(backend): the moved middle vertex, smooth")
            assertPixel(m, 240 + 170, 80, white, tolerance: nearVertex, "\(backend): the moved middle vertex, bilinear")
            assertPixel(m, 2 * 362, 2 * 12, transparent, tolerance: none, "\(backend): outside the circle")
        }
    }

    func testClippedQuadrantKeepsOnlyTheTopLeftQuarterOfTheEllipse() throws {
        for backend in ["reference", "gles"] {
            let image = try renderExample("clipped-quadrant", backend: backend)
            // (120, 80) pt: inside the ellipse (0.04 + 0.04 < 1) and the quadrant (x < 150, y < 100).
            assertPixel(image, 240, 160, green, tolerance: solid, "\(backend): inside the clip")
            // The clip's right edge, x = 150 pt = 300 px: the last pixel column inside is whole, the next empty.
            assertPixel(image, 299, 160, green, tolerance: solid, "\(backend): last column inside the clip")
            assertPixel(image, 300, 160, transparent, tolerance: none, "\(backend): first column outside the clip")
            // (200, 150) pt: inside the ellipse (0.11 + 0.25 < 1) but outside the quadrant.
            assertPixel(image, 400, 300, transparent, tolerance: none, "\(backend): ellipse outside the clip")
        }
    }

    func testMaskedCopyClipsOnlyTheCopy() throws {
        for backend in ["reference", "gles"] {
            let image = try renderExample("masked-copy", backend: backend)
            // The blue rect spans (75, 50)–(225, 150) pt. (200, 130) pt lies outside the quadrant the copy
            // clips to: drawn through the original context, it is blue there.
            assertPixel(image, 400, 260, blue, tolerance: solid, "\(backend): rect outside the quadrant")
            // (100, 70) pt: inside the quadrant too, the rect (drawn last) covers the ellipse.
            assertPixel(image, 200, 140, blue, tolerance: solid, "\(backend): rect over the ellipse")
            // (60, 40) pt: the ellipse (0.36 + 0.36 < 1) in the quadrant, left of the rect.
            assertPixel(image, 120, 80, green, tolerance: solid, "\(backend): ellipse in the quadrant")
            // (260, 100) pt: the ellipse (0.54 < 1) right of the rect and outside the quadrant: clipped away.
            assertPixel(image, 520, 200, transparent, tolerance: none, "\(backend): ellipse outside the quadrant")
        }
    }

    func testGradientCardRunsGreenToBlueOverTheStroke() throws {
        // The fill's gradient runs from the card's origin (25, 25) pt to its far corner (275, 175) pt; at a
        // pixel centre p (pt), t = ((p − (25, 25)) · (250, 150)) / (250² + 150²), and the colour is the sRGB
        // mix green + t (blue − green). `gradient`: ±2, one rounding of each stop to 8 bits and one of the
        // result, with the GPU's float arithmetic a little off the reference's.
        let gradient = 2
        func mix(_ t: Double) -> (Int, Int, Int, Int) {
            func lerp(_ a: Int, _ b: Int) -> Int { Int((Double(a) + t * Double(b - a)).rounded()) }
            return (lerp(52, 0), lerp(199, 122), lerp(89, 255), 255)
        }
        for backend in ["reference", "gles"] {
            let image = try renderExample("gradient-card", backend: backend)
            // Pixel (100, 100) has its centre at (50.25, 50.25) pt, inside the rounded corner: t ≈ 0.119,
            // (46, 190, 109), green-ish.
            let start = image.pixel(x: 100, y: 100)
            assertPixel(image, 100, 100, mix(25.25 * 400 / 85000), tolerance: gradient, "\(backend): near the start")
            XCTAssertGreaterThan(start.g, start.b, "\(backend): green-ish near the start: \(start)")
            // Pixel (500, 300): (250.25, 150.25) pt, t ≈ 0.884, (6, 131, 236), blue-ish.
            let end = image.pixel(x: 500, y: 300)
            assertPixel(image, 500, 300, mix((225.25 * 250 + 125.25 * 150) / 85000), tolerance: gradient,
                        "\(backend): near the end")
            XCTAssertGreaterThan(end.b, end.g, "\(backend): blue-ish near the end: \(end)")
            // (15, 100) pt: the stroke's outer half (12.5…25 pt), which the fill does not reach: plain blue.
            assertPixel(image, 30, 200, blue, tolerance: solid, "\(backend): the stroke outside the fill")
            // (30, 100) pt: the stroke's inner half, painted over by the fill (drawn second): the gradient.
            assertPixel(image, 60, 200, mix((5.25 * 250 + 75.25 * 150) / 85000), tolerance: gradient,
                        "\(backend): the fill over the stroke's inner half")
        }
    }

    func testCompareOfABackendWithItselfIsExact() throws {
        let scene = try writeScene("cmp.json", goodCommands + #", {"op": "stroke", "path": {"ellipse": [2, 2, 20, 14]}, "shading": {"color": "blue"}, "lineWidth": 3}"#)
        let diff = tmp.appendingPathComponent("diff.png").path
        let r = try run(["compare", scene, "--backends", "reference,reference", "-o", diff])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("maxDiff: 0\n"), r.stdout)
        XCTAssertTrue(r.stdout.contains("over2: 0.0000% (0 px)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("PSNR: inf dB"), r.stdout)
        try assertValidPNG(diff, width: 60, height: 40)
        assertCleanFailure(try run(["compare", scene, "--backends", "reference"]), mentions: "--backends takes two names")
    }

    func testBenchJSONHasTheFieldsTheBenchmarkReads() throws {
        let scene = try writeScene("bench-scene.json", goodCommands)
        let dir = tmp.appendingPathComponent("last")
        let r = try run(["bench", scene, "--backend", "reference", "--frames", "3", "--json", "--save-last", dir.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let scenes = try XCTUnwrap(root["scenes"] as? [[String: Any]])
        XCTAssertEqual(scenes.count, 1)
        let s = scenes[0]
        XCTAssertEqual(Set(s.keys), ["file", "backend", "renderer", "prepareMs", "firstMs", "framesMs", "medianMs", "minMs", "drawCalls"])
        XCTAssertEqual(s["file"] as? String, scene)
        XCTAssertEqual(s["backend"] as? String, "reference")
        let frames = try XCTUnwrap(s["framesMs"] as? [Double])
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(s["medianMs"] as? Double, frames.sorted()[1])
        XCTAssertEqual(s["minMs"] as? Double, frames.min())
        XCTAssertTrue(s["drawCalls"] is NSNull)
        try assertValidPNG(dir.appendingPathComponent("bench-scene.png").path, width: 60, height: 40)
    }

    func testBenchOnGLESCountsDrawCalls() throws {
        let scene = try writeScene("bench-gles.json", goodCommands)
        let r = try run(["bench", scene, "--backend", "gles", "--device", "mesa", "--frames", "2", "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let s = try XCTUnwrap((root["scenes"] as? [[String: Any]])?.first)
        XCTAssertEqual(s["backend"] as? String, "gles")
        XCTAssertEqual(s["drawCalls"] as? Int, 1)
        XCTAssertTrue((s["renderer"] as? String)?.contains("llvmpipe") == true, "\(s)")
    }

    // MARK: Output files: devices, FIFOs, symbolic links, directories

    /// The file type bits of `path` itself (`lstat`: a link is a link), or nil when nothing is there.
    private func fileType(_ path: String) -> mode_t? {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : nil
    }

    /// The stderr lines, without the empty last one.
    private func lines(_ text: String) -> [Substring] { text.split(separator: "\n", omittingEmptySubsequences: true) }

    func testWritingToDevFullFailsAndLeavesTheDevice() throws {
        let dev = "/dev/full"
        guard fileType(dev) == S_IFCHR else { throw XCTSkip("\(dev) is not a character device here") }
        // Should a regression replace the device with a regular file (rename over it), put it back.
        addTeardownBlock {
            guard self.fileType(dev) != S_IFCHR, getuid() == 0 else { return }
            try? FileManager.default.removeItem(atPath: dev)
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            p.arguments = ["mknod", "-m", "666", dev, "c", "1", "7"]
            try? p.run()
            p.waitUntilExit()
        }
        let scene = try writeScene("full.json", goodCommands)
        // A device's name has no extension: PNG by default (here), or what --format says (below).
        let r = try run(["render", scene, "-o", dev, "--backend", "reference"])
        assertCleanFailure(r, mentions: "cannot write \(dev): No space left on device")
        XCTAssertFalse(r.stdout.contains("wrote"), r.stdout)
        XCTAssertEqual(fileType(dev), S_IFCHR, "\(dev) is no longer a character device")
        let c = try run(["compare", scene, "--backends", "reference,reference", "-o", dev, "--format", "png"])
        assertCleanFailure(c, mentions: "cannot write \(dev): No space left on device")
        XCTAssertEqual(fileType(dev), S_IFCHR, "\(dev) is no longer a character device")
    }

    func testWritingThroughASymlinkWritesItsTarget() throws {
        let scene = try writeScene("link.json", goodCommands)
        try FileManager.default.createDirectory(at: tmp.appendingPathComponent("real"), withIntermediateDirectories: true)
        let target = tmp.appendingPathComponent("real/out.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: target))
        let link = tmp.appendingPathComponent("link.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/out.png")   // relative
        let r = try run(["render", scene, "-o", link, "--backend", "reference"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fileType(link), S_IFLNK, "the link was replaced")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real/out.png")
        XCTAssertEqual(fileType(target), S_IFREG)
        try assertValidPNG(target, width: 60, height: 40)
        // A dangling link creates its target; a link to a link is followed to the end.
        let dangling = tmp.appendingPathComponent("dangling.png").path
        let chain = tmp.appendingPathComponent("chain.png").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: tmp.appendingPathComponent("real/new.png").path)
        try FileManager.default.createSymbolicLink(atPath: chain, withDestinationPath: "dangling.png")
        let d = try run(["render", scene, "-o", chain, "--backend", "reference"])
        XCTAssertEqual(d.status, 0, d.stderr)
        XCTAssertEqual(fileType(chain), S_IFLNK)
        XCTAssertEqual(fileType(dangling), S_IFLNK)
        try assertValidPNG(tmp.appendingPathComponent("real/new.png").path, width: 60, height: 40)
        // bench --save-last writes DIR/<scene>.png through the same function.
        let dir = tmp.appendingPathComponent("last")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let benchLink = dir.appendingPathComponent("link.png").path
        let benchTarget = tmp.appendingPathComponent("real/bench.png").path
        try FileManager.default.createSymbolicLink(atPath: benchLink, withDestinationPath: benchTarget)
        let b = try run(["bench", scene, "--backend", "reference", "--frames", "1", "--save-last", dir.path])
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(fileType(benchLink), S_IFLNK)
        try assertValidPNG(benchTarget, width: 60, height: 40)
    }

    func testWritingIntoAFIFODeliversThePNGAndKeepsTheFIFO() throws {
        let scene = try writeScene("fifo.json", goodCommands)
        let fifo = tmp.appendingPathComponent("pipe.png").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0, String(cString: strerror(errno)))
        let received = tmp.appendingPathComponent("received.png")
        // The reader: a `cat` child, so a regression that never opens the FIFO cannot hang the test (killed below).
        for command in [["render", scene, "-o", fifo, "--backend", "reference"],
                        ["compare", scene, "--backends", "reference,reference", "-o", fifo]] {
            _ = FileManager.default.createFile(atPath: received.path, contents: nil)
            let reader = Process()
            reader.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            reader.arguments = ["cat", fifo]
            reader.standardOutput = try FileHandle(forWritingTo: received)
            try reader.run()
            let r = try run(command)
            XCTAssertEqual(r.status, 0, "\(command): \(r.stderr)")
            let deadline = Date().addingTimeInterval(10)
            while reader.isRunning && Date() < deadline { usleep(10_000) }
            if reader.isRunning { reader.terminate(); reader.waitUntilExit(); XCTFail("\(command): the reader got no EOF") }
            XCTAssertEqual(fileType(fifo), S_IFIFO, "\(command): the FIFO was replaced")
            let bytes = [UInt8](try Data(contentsOf: received))
            XCTAssertEqual(Array(bytes.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(command)")
            try assertValidPNG(received.path, width: 60, height: 40)
        }
    }

    func testADirectoryAsOutputIsOneClearLine() throws {
        let scene = try writeScene("dir.json", goodCommands)
        let dir = tmp.appendingPathComponent("a-folder")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for command in [["render", scene, "-o", dir.path, "--backend", "reference"],
                        ["compare", scene, "--backends", "reference,reference", "-o", dir.path]] {
            let r = try run(command)
            assertCleanFailure(r, mentions: "cannot write \(dir.path): it is a directory")
            XCTAssertEqual(lines(r.stderr).count, 1, r.stderr)
            XCTAssertEqual(r.stderr.components(separatedBy: dir.path).count, 2, "the path is repeated: \(r.stderr)")
            XCTAssertFalse(r.stderr.contains("NSCocoaErrorDomain"), r.stderr)
        }
        // "out/" names a directory even when it does not exist; it must not become a file named "out".
        let slash = tmp.appendingPathComponent("out").path + "/"
        assertCleanFailure(try run(["render", scene, "-o", slash, "--backend", "reference"]), mentions: "cannot write \(slash)")
        XCTAssertNil(fileType(tmp.appendingPathComponent("out").path))
        // bench's DIR/<scene>.png being a directory reaches the library's check (no early check there).
        let last = tmp.appendingPathComponent("last")
        try FileManager.default.createDirectory(at: last.appendingPathComponent("dir.png"), withIntermediateDirectories: true)
        let b = try run(["bench", scene, "--backend", "reference", "--frames", "1", "--save-last", last.path])
        assertCleanFailure(b, mentions: "cannot write \(last.appendingPathComponent("dir.png").path): it is a directory")
        XCTAssertEqual(lines(b.stderr).count, 1, b.stderr)
        XCTAssertFalse(b.stderr.contains("NSCocoaErrorDomain"), b.stderr)
    }

    func testARegularFileIsReplacedAtomicallyKeepingItsMode() throws {
        let scene = try writeScene("reg.json", goodCommands)
        let out = tmp.appendingPathComponent("reg.png").path
        try Data("old".utf8).write(to: URL(fileURLWithPath: out))
        XCTAssertEqual(chmod(out, 0o640), 0)
        let r = try run(["render", scene, "-o", out, "--backend", "reference"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(fileType(out), S_IFREG)
        try assertValidPNG(out, width: 60, height: 40)
        var st = stat()
        XCTAssertEqual(lstat(out, &st), 0)
        XCTAssertEqual(st.st_mode & 0o777, 0o640)
        // No temporary file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp.path).filter { $0.contains(".tmp-") }
        XCTAssertEqual(left, [])
    }
}
