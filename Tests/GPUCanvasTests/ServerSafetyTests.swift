import CJPEG
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Untrusted input: a memory budget for decoded images checked from headers before decoding, and scene
/// resource files confined to the scene's folder and the folders the caller allows.
final class ServerSafetyTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("server-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    /// Writes `data` at `name` under the test folder (making its folders) and returns its URL.
    @discardableResult
    private func write(_ name: String, _ data: Data) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }

    /// A w×h PNG of one colour.
    private func png(_ w: Int, _ h: Int, _ byte: UInt8 = 200) throws -> Data {
        try RasterImage(width: w, height: h, pixels: [UInt8](repeating: byte, count: w * h * 4)).pngData()
    }

    private func scene(images: String, commands: String = "") -> Data {
        Data(#"{"format": "gpucanvas-scene/1", "size": [20, 20], "resources": {"images": {\#(images)}}, "commands": [\#(commands)]}"#.utf8)
    }

    /// A decompression bomb built the way one is: an RGBA PNG header declaring `w`×`h` pixels and an IDAT of
    /// zlib-compressed zero rows (python3's zlib; level 1 keeps the build quick: ~4 MB for 16 000²).
    private func bomb(_ w: Int, _ h: Int) throws -> URL {
        let url = dir.appendingPathComponent("bomb.png")
        let script = """
            import sys, zlib, struct
            def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
            w, h = \(w), \(h)
            c = zlib.compressobj(1)
            row = b'\\0' * (1 + 4 * w)
            idat = b''.join(c.compress(row * 64) for _ in range(h // 64)) + c.compress(row * (h % 64)) + c.flush()
            open(sys.argv[1], 'wb').write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 6, 0, 0, 0))
                                          + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
            """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script, url.path]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "python3 could not build the bomb")
        return url
    }

    // MARK: Memory budget

    /// 16 000² RGBA declared by a few MB of zeros: refused from the header, before a pixel is allocated, by
    /// the decoder, by a lenient render (the image draws nothing), and by the scene loader however many entries
    /// name it.
    func testPNGBombIsRefusedFromItsHeader() throws {
        try TestTier.requireThorough()
        let url = try bomb(16000, 16000)
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        XCTAssertLessThan(size, 8 << 20, "the bomb is small on disk")
        let words = "\(url.path): image 16000×16000 needs 976.6 MiB decoded, over the memory limit of 512 MiB"
        let start = Date()
        XCTAssertThrowsError(try RasterImage(contentsOf: url)) { XCTAssertEqual("\($0)", words) }
        // Refused from the header: no time goes into inflating a gigabyte (a decode takes seconds).
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)

        for backend in [CanvasRenderer.Backend.reference, .gles(GLESOptions(device: .mesa))] {
            let r = try CanvasRenderer(backend: backend)
            let image = try r.render(size: CGSize(width: 20, height: 20)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 20)), with: .color(.black))
                ctx.draw(Image(contentsOf: url), in: CGRect(x: 0, y: 0, width: 20, height: 20))
            }
            XCTAssertEqual(image.pixel(x: 5, y: 5), PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
            XCTAssertEqual(image.pixel(x: 15, y: 5).a, 0)
            XCTAssertEqual(r.lastReport.diagnostics.map(\.kind), [.missingImage])
            XCTAssertEqual(r.lastReport.description, "invalid image: draw #1: \(words)")
        }

        let entries = (0 ..< 8).map { #""b\#($0)": {"png": "bomb.png"}"# }.joined(separator: ", ")
        XCTAssertThrowsError(try Scene(jsonData: scene(images: entries), baseURL: dir)) { error in
            XCTAssertEqual("\(error)", "resources.images.b0: \(words)")
        }
    }

    /// A JPEG's SOF size is checked the same way, before libjpeg starts decompressing; at the limit it decodes.
    func testJPEGOverTheBudgetIsRefusedFromItsHeader() throws {
        let rgb = [UInt8](repeating: 120, count: 16 * 8 * 3)
        let data = encodeJPEG(width: 16, height: 8, components: 3, colorSpace: JCS_RGB, rgb)
        let url = try write("photo.jpg", data)
        XCTAssertThrowsError(try RasterImage(contentsOf: url, limits: RenderLimits(imageBytes: 511))) {
            XCTAssertEqual("\($0)", "\(url.path): image 16×8 needs 512 bytes decoded, over the memory limit of 511 bytes")
        }
        XCTAssertThrowsError(try RasterImage(jpegData: data, limits: RenderLimits(imageBytes: 511))) {
            XCTAssertEqual("\($0)", "image 16×8 needs 512 bytes decoded, over the memory limit of 511 bytes")
        }
        XCTAssertEqual(try RasterImage(contentsOf: url, limits: RenderLimits(imageBytes: 512)).width, 16)
        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""p": {"jpeg": "photo.jpg"}"#), baseURL: dir,
                                       options: SceneLoadOptions(limits: RenderLimits(imageBytes: 500)))) {
            XCTAssertEqual("\($0)", "resources.images.p: \(url.path): image 16×8 needs 512 bytes decoded, over the memory limit of 500 bytes")
        }
    }

    /// Eight entries naming one file decode it once: a budget of one image's bytes holds them all. A second
    /// distinct image does not fit beside it, and the error says what the others take.
    func testEachDistinctImageDecodesOnceAndAllShareTheBudget() throws {
        try write("a.png", try png(4, 4))
        try write("b.png", try png(4, 4, 100))
        let same = (0 ..< 8).map { #""i\#($0)": {"png": "a.png"}"# }.joined(separator: ", ")
        let draws = (0 ..< 8).map { #"{"op": "image", "image": "i\#($0)", "at": [\#($0 * 2), 2]}"# }.joined(separator: ", ")
        let limits = SceneLoadOptions(limits: RenderLimits(imageBytes: 64))
        let loaded = try Scene(jsonData: scene(images: same, commands: draws), baseURL: dir, options: limits)
        XCTAssertEqual(loaded.recording.drawCount, 8)
        // base64 entries are one resource per text as well.
        let b64 = try png(4, 4).base64EncodedString()
        let twice = #""x": {"pngBase64": "\#(b64)"}, "y": {"pngBase64": "\#(b64)"}"#
        XCTAssertNoThrow(try Scene(jsonData: scene(images: twice), baseURL: dir, options: limits))

        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""a": {"png": "a.png"}, "b": {"png": "b.png"}"#),
                                       baseURL: dir, options: SceneLoadOptions(limits: RenderLimits(imageBytes: 100)))) {
            XCTAssertEqual("\($0)", "resources.images.b: \(self.dir.path)/b.png: image 4×4 needs 64 bytes decoded; with the "
                                    + "scene's other images (64 bytes) that is over the memory limit of 100 bytes")
        }
    }

    /// A frame's distinct images are checked against the renderer's limit in the shared lowering: the same
    /// words on every backend, under either policy (a budget is not something to skip past).
    func testFrameImageBudgetIsTheSameErrorOnEveryBackend() throws {
        let a = Image(try RasterImage(pngData: try png(4, 4))), b = Image(try RasterImage(pngData: try png(4, 4, 9)))
        let recording = Recording(size: CGSize(width: 20, height: 20)) { ctx, _ in
            ctx.draw(a, at: .zero, anchor: .topLeading)
            ctx.draw(a, at: CGPoint(x: 8, y: 0), anchor: .topLeading)   // the same image: counted once
            ctx.draw(b, at: CGPoint(x: 0, y: 8), anchor: .topLeading)
        }
        var messages = Set<String>()
        for backend in [CanvasRenderer.Backend.reference, .gles(GLESOptions(device: .mesa))] {
            for policy in [DiagnosticsPolicy.lenient, .strict] {
                let r = try CanvasRenderer(backend: backend)
                r.diagnosticsPolicy = policy
                r.limits = RenderLimits(imageBytes: 64)
                XCTAssertThrowsError(try r.render(recording)) { messages.insert("\($0)") }
                r.limits = RenderLimits(imageBytes: 128)
                XCTAssertEqual(try r.render(recording).pixel(x: 1, y: 9), PixelRGBA8(r: 9, g: 9, b: 9, a: 9))
            }
        }
        XCTAssertEqual(messages, ["over the memory limit: draw #2: the frame's images need 128 bytes decoded (this 4×4 one 64 bytes); the limit is 64 bytes"])
    }

    // MARK: Confined resource paths

    private func refusal(_ text: String) -> String {
        "\(jsonQuoted(text)) is outside the scene's folder and the folders allowed to it"
    }

    /// `..`, absolute paths and symlinks that lead out are refused with one message, whether or not the target
    /// exists; a missing file inside may say so.
    func testResourcePathsStayInsideTheScenesFolder() throws {
        let scenes = dir.appendingPathComponent("scenes")
        try write("scenes/inside.png", try png(2, 2))
        try write("outside.png", try png(2, 2))
        let fm = FileManager.default
        try fm.createSymbolicLink(atPath: scenes.appendingPathComponent("to-passwd.png").path, withDestinationPath: "/etc/passwd")
        try fm.createSymbolicLink(atPath: scenes.appendingPathComponent("dangling.png").path, withDestinationPath: "/nonexistent-dir/x.png")
        try fm.createSymbolicLink(atPath: scenes.appendingPathComponent("up").path, withDestinationPath: dir.path)
        try fm.createSymbolicLink(atPath: scenes.appendingPathComponent("alias.png").path, withDestinationPath: "inside.png")

        for text in ["../../../etc/passwd", "/etc/passwd", "/nonexistent-dir/x.png", "../outside.png", "sub/../../outside.png",
                     "to-passwd.png", "dangling.png", "up/outside.png", "up/nope.png", "\(dir.path)/outside.png"] {
            XCTAssertThrowsError(try Scene(jsonData: scene(images: #""i": {"png": "\#(text)"}"#), baseURL: scenes), text) { error in
                XCTAssertEqual("\(error)", "resources.images.i.png: \(refusal(text))", text)
            }
        }
        // Fonts alike: /etc/shadow is refused before FreeType could say "unknown file format" about it.
        for text in ["/etc/shadow", "/nonexistent-dir/shadow"] {
            let json = #"{"format": "gpucanvas-scene/1", "size": [20, 20], "commands": [{"op": "text", "text": "x", "font": {"file": "\#(text)", "size": 12}, "at": [5, 5]}]}"#
            XCTAssertThrowsError(try Scene(jsonData: Data(json.utf8), baseURL: scenes), text) { error in
                XCTAssertEqual("\(error)", "commands[0].font.file: \(refusal(text))", text)
            }
        }
        // Inside: found, through a link that stays inside too; a missing file says so.
        XCTAssertNoThrow(try Scene(jsonData: scene(images: #""i": {"png": "inside.png"}, "j": {"png": "alias.png"}"#), baseURL: scenes))
        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""i": {"png": "nope.png"}"#), baseURL: scenes)) {
            XCTAssertEqual("\($0)", "resources.images.i: \(scenes.path)/nope.png: no such file")
        }
        // A NUL cannot cut the checked path short; a base folder that does not exist holds no files.
        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""i": {"png": "inside.png\u0000/../../../etc/passwd"}"#), baseURL: scenes)) {
            XCTAssertTrue("\($0)".hasSuffix("is outside the scene's folder and the folders allowed to it"), "\($0)")
        }
        let nowhere = dir.appendingPathComponent("no-such-folder")
        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""i": {"png": "a.png"}"#), baseURL: nowhere)) {
            XCTAssertEqual("\($0)", "resources.images.i: \(nowhere.path)/a.png: no such file")
        }
        // A folder the caller allows: absolute paths and `..` into it load.
        let allowed = SceneLoadOptions(allowedDirectories: [dir])
        XCTAssertNoThrow(try Scene(jsonData: scene(images: #""i": {"png": "../outside.png"}, "j": {"png": "\#(dir.path)/outside.png"}"#),
                                   baseURL: scenes, options: allowed))
        // Still nothing beyond it.
        XCTAssertThrowsError(try Scene(jsonData: scene(images: #""i": {"png": "to-passwd.png"}"#), baseURL: scenes, options: allowed))
    }

    /// A scene loaded from a file is confined to that file's folder.
    func testSceneFileIsConfinedToItsFolder() throws {
        try write("outside.png", try png(2, 2))
        let url = try write("scenes/s.json", scene(images: #""i": {"png": "../outside.png"}"#))
        XCTAssertThrowsError(try Scene.load(contentsOf: url)) {
            XCTAssertEqual("\($0)", "\(url.path): resources.images.i.png: \(self.refusal("../outside.png"))")
        }
        XCTAssertNoThrow(try Scene.load(contentsOf: url, options: SceneLoadOptions(allowedDirectories: [dir])))
    }
}
