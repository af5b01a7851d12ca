import CJPEG
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Images in scene files: `resources.images` (`png`, `pngBase64`, `jpeg`, `jpegBase64`, with `template`,
/// `interpolation`, `scale`), the `image` op and the `tiledImage` shading. Each records what the closure making
/// the same calls records; a recording with images written by `sceneJSON()` loads back equal; files are found
/// relative to the scene; and a missing, unreadable or corrupt image, or an unknown name, is an error at its
/// JSON location that names the file, raised when the scene loads.
final class SceneImageTests: XCTestCase {
    private let canvas = CGSize(width: 60, height: 40)

    /// 3×2, straight alpha in the file: red, green, blue / translucent white, clear, translucent orange.
    private let raster = try! RasterImage(width: 3, height: 2, rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
                                                                      255, 255, 255, 128, 0, 0, 0, 0, 255, 128, 0, 77],
                                          premultiplied: false)
    private var png: Data { try! raster.pngData() }
    private var pngBase64: String { png.base64EncodedString() }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SceneImageTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    private func write(_ name: String, _ data: Data) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url
    }

    private func doc(images: String, _ commands: String) -> String {
        #"{"format": "gpucanvas-scene/1", "size": [60, 40], "resources": {"images": {\#(images)}}, "commands": [\#(commands)]}"#
    }

    private func load(_ json: String, baseURL: URL? = nil) throws -> Scene {
        try Scene(jsonData: Data(json.utf8), baseURL: baseURL)
    }

    /// 16×8 RGB, two flat 8×8 blocks, as a quality-100 JPEG.
    private var jpeg: Data {
        var rgb: [UInt8] = []
        for _ in 0 ..< 8 { for x in 0 ..< 16 { rgb += x < 8 ? [200, 40, 40] : [30, 90, 220] } }
        return encodeJPEG(width: 16, height: 8, components: 3, colorSpace: JCS_RGB, rgb)
    }

    private func assertSame(_ json: String, baseURL: URL? = nil, file: StaticString = #filePath, line: UInt = #line,
                            _ renderer: (inout GraphicsContext, CGSize) -> Void) throws {
        let expected = Recording(size: canvas, renderer: renderer)
        let loaded = try load(json, baseURL: baseURL).recording
        XCTAssertEqual(loaded, expected, "\nscene:   \(loaded)\nclosure: \(expected)", file: file, line: line)
        XCTAssertGreaterThan(expected.drawCount, 0, file: file, line: line)
    }

    @discardableResult
    private func assertError(_ json: String, baseURL: URL? = nil, at location: String, _ problem: String,
                             file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
        do {
            _ = try load(json, baseURL: baseURL)
            XCTFail("expected an error at \(location)", file: file, line: line)
        } catch let e as SceneError {
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(problem), "message \"\(e.message)\" lacks \"\(problem)\"", file: file, line: line)
            return e
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
        return nil
    }

    @discardableResult
    private func assertRoundTrip(_ recording: Recording, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let json = recording.sceneJSON()
        let loaded = try load(json).recording
        XCTAssertEqual(loaded, recording, "\nloaded:   \(loaded)\noriginal: \(recording)\n\(json)", file: file, line: line)
        XCTAssertEqual(loaded.drawCount, recording.drawCount, file: file, line: line)
        XCTAssertFalse(json.contains("imageNotEncoded"), json, file: file, line: line)
        return json
    }

    // MARK: Load errors: located, naming the file, before anything is drawn

    func testMissingFileIsLocatedAndNamesTheFile() throws {
        let sceneURL = try write("scene.json", Data(doc(images: #""logo": {"png": "img/logo.png"}"#,
                                                        #"{"op": "image", "image": "logo", "at": [5, 5]}"#).utf8))
        XCTAssertThrowsError(try Scene.load(contentsOf: sceneURL)) { error in
            let path = directory.appendingPathComponent("img/logo.png").path
            XCTAssertEqual("\(error)", "\(sceneURL.path): resources.images.logo: \(path): no such file")
        }
    }

    func testUnreadableFileIsLocatedAndNamesTheFile() throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("dir.png"), withIntermediateDirectories: true)
        let e = assertError(doc(images: #""d": {"png": "dir.png"}"#, ""), baseURL: directory, at: "resources.images.d",
                            "cannot read the file")
        XCTAssertEqual(e?.message, "\(directory.appendingPathComponent("dir.png").path): cannot read the file: it is a directory")
    }

    func testCorruptPNGIsLocatedAndNamesTheFile() throws {
        // The signature and the start of the header, then nothing.
        let url = try write("cut.png", png.prefix(20))
        let e = assertError(doc(images: #""logo": {"png": "cut.png"}"#, #"{"op": "image", "image": "logo", "at": [5, 5]}"#),
                            baseURL: directory, at: "resources.images.logo", "not a valid PNG")
        XCTAssertTrue(e?.message.hasPrefix(url.path + ": not a valid PNG (") ?? false, e?.message ?? "")
        // Not a PNG at all.
        try write("text.png", Data("hello, world".utf8))
        assertError(doc(images: #""t": {"png": "text.png"}"#, ""), baseURL: directory, at: "resources.images.t",
                    "\(directory.appendingPathComponent("text.png").path): not a valid PNG")
        // A JPEG under "png" says so.
        try write("photo.png", jpeg)
        assertError(doc(images: #""p": {"png": "photo.png"}"#, ""), baseURL: directory, at: "resources.images.p",
                    "it is a JPEG file: name it with \"jpeg\"")
    }

    func testCorruptJPEGIsLocatedAndNamesTheFile() throws {
        let path = directory.appendingPathComponent("photo.jpg").path
        try write("photo.jpg", jpeg.prefix(jpeg.count / 2))
        let e = assertError(doc(images: #""photo": {"jpeg": "photo.jpg"}"#, ""), baseURL: directory,
                            at: "resources.images.photo", "JPEG data is truncated")
        XCTAssertTrue(e?.message.hasPrefix(path + ": JPEG data is truncated") ?? false, e?.message ?? "")
        // A PNG under "jpeg": libjpeg's words, and the hint.
        try write("logo.jpg", png)
        let e2 = assertError(doc(images: #""logo": {"jpeg": "logo.jpg"}"#, ""), baseURL: directory,
                             at: "resources.images.logo", "not a JPEG file")
        XCTAssertEqual(e2?.description, "resources.images.logo: \(directory.appendingPathComponent("logo.jpg").path): "
                       + "not a JPEG file (starts with 0x89 0x50); it is a PNG file: name it with \"png\"")
    }

    func testCorruptBase64ImagesAreLocated() {
        assertError(doc(images: #""a": {"pngBase64": "not base64!"}"#, ""), at: "resources.images.a.pngBase64", "not valid base64")
        let cut = png.prefix(30).base64EncodedString()
        assertError(doc(images: #""a": {"pngBase64": "\#(cut)"}"#, ""), at: "resources.images.a", "pngBase64: not a valid PNG")
        assertError(doc(images: #""a": {"jpegBase64": "\#(pngBase64)"}"#, ""), at: "resources.images.a",
                    "jpegBase64: not a JPEG file (starts with 0x89 0x50)")
    }

    func testUnknownImageNamesAreLocated() {
        let images = #""logo": {"pngBase64": "\#(pngBase64)"}, "icon": {"pngBase64": "\#(pngBase64)"}"#
        let e = assertError(doc(images: images, #"{"op": "image", "image": "lgo", "in": [0, 0, 4, 4]}"#),
                            at: "commands[0].image", #"unknown image "lgo""#)
        XCTAssertEqual(e?.message, #"unknown image "lgo" (resources.images has: logo, icon)"#)
        assertError(doc(images: images, #"{"op": "copy", "commands": [{"op": "fill", "path": {"rect": [0, 0, 9, 9]}, "shading": {"tiledImage": "x"}}]}"#),
                    at: "commands[0].commands[0].shading.tiledImage", #"unknown image "x" (resources.images has: logo, icon)"#)
        assertError(#"{"format": "gpucanvas-scene/1", "size": [9, 9], "commands": [{"op": "image", "image": "a", "at": [0, 0]}]}"#,
                    at: "commands[0].image", "the document has no resources.images")
    }

    func testBadImageEntriesAndOpsAreLocated() {
        let img = #""i": {"pngBase64": "\#(pngBase64)"}"#
        assertError(doc(images: #""i": {"png": "a.png", "pngBase64": "x"}"#, ""), at: "resources.images.i",
                    "expected one image source, got png and pngBase64")
        assertError(doc(images: #""i": {}"#, ""), at: "resources.images.i", "expected one of the keys png, pngBase64, jpeg, jpegBase64")
        assertError(doc(images: #""i": {"gif": "a.gif"}"#, ""), at: "resources.images.i.gif", #"unknown key "gif""#)
        assertError(doc(images: #""i": {"png": ""}"#, ""), at: "resources.images.i.png", "expected a file path")
        assertError(doc(images: #""i": {"pngBase64": "\#(pngBase64)", "scale": 0}"#, ""), at: "resources.images.i.scale", "must be > 0")
        assertError(doc(images: #""i": {"pngBase64": "\#(pngBase64)", "interpolation": "cubic"}"#, ""),
                    at: "resources.images.i.interpolation", #"unknown interpolation "cubic" (expected one of: high, low, medium, none)"#)
        assertError(doc(images: #""i": {"pngBase64": "\#(pngBase64)", "template": 1}"#, ""), at: "resources.images.i.template", "expected true or false")
        assertError(doc(images: img, #"{"op": "image", "image": "i"}"#), at: "commands[0]", #"expected "in": [x, y, w, h] or "at": [x, y]"#)
        assertError(doc(images: img, #"{"op": "image", "image": "i", "in": [0, 0, 1, 1], "at": [0, 0]}"#), at: "commands[0]", "got both")
        assertError(doc(images: img, #"{"op": "image", "image": "i", "in": [0, 0, 1, 1], "anchor": [0, 0]}"#), at: "commands[0].anchor", #"anchor goes with "at""#)
        assertError(doc(images: img, #"{"op": "image", "image": "i", "at": [0, 0], "eoFill": true}"#), at: "commands[0].eoFill", #"eoFill goes with "in""#)
        assertError(doc(images: img, #"{"op": "image", "image": "i", "at": [0, 0], "shading": {"color": "red"}}"#),
                    at: "commands[0].shading", "only a template image takes a shading")
        assertError(doc(images: img, #"{"op": "fill", "path": {"rect": [0, 0, 9, 9]}, "shading": {"tiledImage": "i", "scale": -1}}"#),
                    at: "commands[0].shading.scale", "scale must be > 0, got -1")
        assertError(doc(images: img, #"{"op": "fill", "path": {"rect": [0, 0, 9, 9]}, "shading": {"tiledImage": "i", "offset": [0, 0]}}"#),
                    at: "commands[0].shading.offset", #"unknown key "offset""#)
        assertError(#"{"format": "gpucanvas-scene/1", "size": [9, 9], "resources": {"images": []}, "commands": []}"#,
                    at: "resources.images", "expected an object of named images")
    }

    // MARK: Each op and key records what the closure records

    func testImageOpEqualsTheClosure() throws {
        let url = try write("logo.png", png)
        let images = #""logo": {"png": "logo.png"}, "hi": {"pngBase64": "\#(pngBase64)", "scale": 2, "interpolation": "none"}"#
        try assertSame(doc(images: images, [
            #"{"op": "image", "image": "logo", "in": [1.5, 2.25, 30, -12]}"#,
            #"{"op": "image", "image": "logo", "in": [4, 4, 9, 9], "eoFill": true, "antialiased": false}"#,
            #"{"op": "image", "image": "logo", "at": [20, 20]}"#,
            #"{"op": "image", "image": "hi", "at": [20.5, 30], "anchor": [0, 1]}"#,
            #"{"op": "copy", "commands": [{"op": "rotate", "degrees": 30}, {"op": "opacity", "value": 0.5}, {"op": "image", "image": "hi", "in": [0, 0, 7, 3]}]}"#,
        ].joined(separator: ", ")), baseURL: directory) { ctx, _ in
            let logo = Image(contentsOf: url)
            let hi = Image(raster, scale: 2).interpolation(.none)
            ctx.draw(logo, in: CGRect(x: 1.5, y: 2.25, width: 30, height: -12))
            ctx.draw(logo, in: CGRect(x: 4, y: 4, width: 9, height: 9), style: FillStyle(eoFill: true, antialiased: false))
            ctx.draw(logo, at: CGPoint(x: 20, y: 20))
            ctx.draw(hi, at: CGPoint(x: 20.5, y: 30), anchor: .bottomLeading)
            var c = ctx
            c.rotate(by: .degrees(30))
            c.opacity = 0.5
            c.draw(hi, in: CGRect(x: 0, y: 0, width: 7, height: 3))
        }
    }

    func testTemplateImagesTakeTheirShading() throws {
        let images = #""t": {"pngBase64": "\#(pngBase64)", "template": true, "interpolation": "medium"}"#
        try assertSame(doc(images: images, [
            #"{"op": "image", "image": "t", "in": [0, 0, 12, 8]}"#,
            ##"{"op": "image", "image": "t", "at": [30, 20], "shading": {"color": "#3366CC80"}}"##,
            #"{"op": "image", "image": "t", "in": [10, 10, 24, 16], "shading": {"linearGradient": {"colors": ["red", "blue"]}, "start": [10, 10], "end": [34, 26]}}"#,
        ].joined(separator: ", "))) { ctx, _ in
            let t = Image(raster).renderingMode(.template).interpolation(.medium)
            ctx.draw(t, in: CGRect(x: 0, y: 0, width: 12, height: 8))
            var r = ctx.resolve(t)
            r.shading = .color(Color(.sRGB, red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0xcc / 255.0, opacity: 0x80 / 255.0))
            ctx.draw(r, at: CGPoint(x: 30, y: 20))
            var g = ctx.resolve(t)
            g.shading = .linearGradient(Gradient(colors: [.red, .blue]), startPoint: CGPoint(x: 10, y: 10), endPoint: CGPoint(x: 34, y: 26))
            ctx.draw(g, in: CGRect(x: 10, y: 10, width: 24, height: 16))
        }
    }

    func testTiledImageShadingEqualsTheClosure() throws {
        let images = #""i": {"pngBase64": "\#(pngBase64)"}, "j": {"pngBase64": "\#(pngBase64)", "scale": 3}"#
        try assertSame(doc(images: images, [
            #"{"op": "fill", "path": {"rect": [0, 0, 60, 40]}, "shading": {"tiledImage": "i"}}"#,
            #"{"op": "fill", "path": {"ellipse": [5, 5, 30, 20]}, "shading": {"tiledImage": "i", "origin": [3.5, -2], "sourceRect": [0.25, 0, 0.5, 1], "scale": 2.5}}"#,
            #"{"op": "stroke", "path": "5 5 m 50 30 l", "shading": {"tiledImage": "j", "sourceRect": [0, 0.5, 1, -0.5]}, "lineWidth": 4}"#,
            #"{"op": "fill", "path": {"rect": [0, 0, 9, 9]}, "shading": {"palette": [{"tiledImage": "j", "scale": 0.5}, {"color": "red"}]}}"#,
        ].joined(separator: ", "))) { ctx, _ in
            let i = Image(raster), j = Image(raster, scale: 3)
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 60, height: 40)), with: .tiledImage(i))
            ctx.fill(Path(ellipseIn: CGRect(x: 5, y: 5, width: 30, height: 20)),
                     with: .tiledImage(i, origin: CGPoint(x: 3.5, y: -2), sourceRect: CGRect(x: 0.25, y: 0, width: 0.5, height: 1), scale: 2.5))
            ctx.stroke(Path("5 5 m 50 30 l")!, with: .tiledImage(j, sourceRect: CGRect(x: 0, y: 0.5, width: 1, height: -0.5)), lineWidth: 4)
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 9, height: 9)), with: .palette([.tiledImage(j, scale: 0.5), .color(.red)]))
        }
    }

    func testJPEGFilesAndDataEqualTheClosure() throws {
        let url = try write("photo.jpg", jpeg)
        let images = #""f": {"jpeg": "photo.jpg"}, "d": {"jpegBase64": "\#(jpeg.base64EncodedString())"}"#
        try assertSame(doc(images: images, #"{"op": "image", "image": "f", "at": [30, 20]}, {"op": "image", "image": "d", "in": [0, 0, 8, 4]}"#),
                       baseURL: directory) { ctx, _ in
            ctx.draw(Image(contentsOf: url), at: CGPoint(x: 30, y: 20))
            ctx.draw(Image(data: jpeg), in: CGRect(x: 0, y: 0, width: 8, height: 4))
        }
    }

    // MARK: Paths relative to the scene file

    func testRelativePathsAreFoundFromTheSceneFile() throws {
        let logo = try write("assets/logo.png", png)
        let photo = try write("photo.jpg", jpeg)
        let json = doc(images: #""a": {"png": "../assets/logo.png"}, "b": {"jpeg": "../photo.jpg"}, "c": {"png": "\#(logo.path)"}"#,
                       #"{"op": "image", "image": "a", "at": [10, 10]}, {"op": "image", "image": "b", "at": [30, 10]}, {"op": "image", "image": "c", "at": [50, 10]}"#)
        let sceneURL = try write("scenes/scene.json", Data(json.utf8))
        let expected = Recording(size: canvas) { ctx, _ in
            ctx.draw(Image(contentsOf: logo), at: CGPoint(x: 10, y: 10))
            ctx.draw(Image(contentsOf: photo), at: CGPoint(x: 30, y: 10))
            ctx.draw(Image(raster), at: CGPoint(x: 50, y: 10))
        }
        // Outside the scene's folder only when the caller allows the folder they are in.
        let allowed = SceneLoadOptions(allowedDirectories: [directory])
        XCTAssertEqual(try Scene.load(contentsOf: sceneURL, options: allowed).recording, expected)
        // The same text with a base URL.
        XCTAssertEqual(try Scene(jsonData: Data(json.utf8), baseURL: directory.appendingPathComponent("scenes"),
                                 options: allowed).recording, expected)
        // Not allowed, `..` leads out of the scene's folder.
        assertError(json, baseURL: directory.appendingPathComponent("scenes"), at: "resources.images.a.png",
                    "\"../assets/logo.png\" is outside the scene's folder and the folders allowed to it")
        // A relative name that misses inside the folder names where it was looked for.
        let missing = json.replacingOccurrences(of: "../assets/logo.png", with: "assets/nope.png")
        assertError(missing, baseURL: directory, at: "resources.images.a", "\(directory.path)/assets/nope.png: no such file")
    }

    // MARK: Round trips: record → sceneJSON → load gives an equal recording

    func testImageDrawsRoundTrip() throws {
        let a = Image(raster), b = Image(raster, scale: 2).interpolation(.none)
        let t = Image(raster).renderingMode(.template).interpolation(.low)
        let json = try assertRoundTrip(Recording(size: canvas) { ctx, _ in
            ctx.draw(a, in: CGRect(x: 1.5, y: 2.25, width: 30, height: 12))
            ctx.draw(a, in: CGRect(x: 40, y: 30, width: -10.3, height: -7.7), style: FillStyle(eoFill: true, antialiased: false))
            ctx.draw(b, at: CGPoint(x: 20.1, y: 20.7), anchor: UnitPoint(x: 0.3, y: 0.9))
            ctx.draw(Image(raster), at: CGPoint(x: 0.1, y: 0.2))  // the same pixels: the same entry as `a`
            ctx.draw(t, at: CGPoint(x: 10, y: 10))
            var r = ctx.resolve(t)
            r.shading = .color(.blue.opacity(0.4))
            ctx.draw(r, in: CGRect(x: 0, y: 0, width: 1 / 3, height: 0.7))
            var g = ctx.resolve(t)
            g.shading = .radialGradient(Gradient(colors: [.red, .green]), center: CGPoint(x: 5, y: 5), startRadius: 1, endRadius: 9)
            ctx.draw(g, at: CGPoint(x: 40, y: 10))
        })
        for k in 0 ..< 3 { XCTAssertTrue(json.contains("\"image\(k)\": {\"pngBase64\": "), json) }
        XCTAssertFalse(json.contains("\"image3\""), json)
        XCTAssertTrue(json.contains(#"{"op": "image", "image": "image0", "in": [1.5, 2.25, 30, 12]}"#), json)
    }

    func testTiledImagesRoundTrip() throws {
        let a = Image(raster), b = Image(raster, scale: 3).renderingMode(.template)
        try assertRoundTrip(Recording(size: canvas) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 60, height: 40)), with: .tiledImage(a))
            ctx.fill(Path(ellipseIn: CGRect(x: 5, y: 5, width: 30, height: 20)),
                     with: .tiledImage(a, origin: CGPoint(x: 1 / 3, y: -2.7), sourceRect: CGRect(x: 0.1, y: 0.2, width: 0.7, height: 0.3),
                                       scale: 1 / 7))
            ctx.stroke(Path("5 5 m 50 30 l")!, with: .tiledImage(b, sourceRect: CGRect(x: 1, y: 1, width: -0.5, height: -0.5), scale: 3),
                       lineWidth: 4)
        })
    }

    func testRandomImagePlacementsRoundTrip() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let images = [Image(raster), Image(raster, scale: 1.7), Image(raster, scale: 0.3).interpolation(.none)]
        let recording = Recording(size: canvas) { ctx, _ in
            for k in 0 ..< 200 {
                let image = images[k % 3]
                var c = ctx
                c.rotate(by: .radians(next() * 6))
                c.translateBy(x: next() * 50 - 10, y: next() * 50 - 10)
                switch k % 4 {
                case 0:
                    c.draw(image, in: CGRect(x: next() * 40 - 5, y: next() * 40 - 5, width: next() * 70 - 20, height: next() * 50 - 10))
                case 1:
                    c.draw(image, at: CGPoint(x: next() * 60, y: next() * 40), anchor: UnitPoint(x: next() * 2 - 0.5, y: next()))
                case 2:
                    c.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 20)),
                           with: .tiledImage(image, origin: CGPoint(x: next() * 100 - 50, y: next() * 1e4),
                                             sourceRect: CGRect(x: next(), y: next() - 0.5, width: next() * 2, height: next()),
                                             scale: next() * 10 + 1e-3))
                default:
                    c.clip(to: Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 30)))
                    c.drawLayer { l in
                        l.opacity = next()
                        l.draw(image, in: CGRect(x: next() * 1e5, y: next() / 1e3, width: next() / 7, height: next() * 3))
                    }
                }
            }
        }
        try assertRoundTrip(recording)
    }

    func testUnreadableImageInARecordingFailsToLoadNamingIt() throws {
        let missing = directory.appendingPathComponent("gone.png")
        let json = Recording(size: canvas) { ctx, _ in ctx.draw(Image(contentsOf: missing), in: CGRect(x: 0, y: 0, width: 5, height: 5)) }
            .sceneJSON()
        assertError(json, at: "resources.images.image0.unreadable", #"unknown key "unreadable""#)
        XCTAssertTrue(json.contains("no such file: \(missing.path)"), json)
    }

    // MARK: Drawing

    func testSceneImagesRenderOnBothBackends() throws {
        let json = doc(images: #""i": {"pngBase64": "\#(pngBase64)", "interpolation": "none"}"#,
                       #"{"op": "image", "image": "i", "in": [0, 0, 30, 20]}, {"op": "fill", "path": {"rect": [30, 0, 30, 40]}, "shading": {"tiledImage": "i", "scale": 2}}"#)
        let scene = try load(json)
        let reference = try CanvasRenderer(backend: .reference).render(scene.recording, scale: 1)
        XCTAssertEqual(reference.pixel(x: 2, y: 2), PixelRGBA8(r: 255, g: 0, b: 0, a: 255))
        XCTAssertEqual(reference.pixel(x: 31, y: 1), PixelRGBA8(r: 255, g: 0, b: 0, a: 255))
        let gles = try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa)), policy: .lenient).render(scene.recording, scale: 1)
        XCTAssertTrue(gles.difference(from: reference).meetsDefaultBar)
    }
}
