import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Symbols in scene files (`resources.symbols` and the `symbol` op): a scene records exactly what the renderer
/// closure that spells out the same calls records (a `Canvas` whose symbols are tagged canvases), symbol draws
/// land where `draw(_:in:)` and `draw(_:at:anchor:)` put them, the encoder's flattened form loads back to the
/// same recording, and every bad document is rejected with its JSON location.
final class SceneSymbolTests: XCTestCase {
    private func load(_ json: String) throws -> Scene { try Scene(jsonData: Data(json.utf8)) }

    /// A document with `symbols` (JSON text of the table's contents) around `commands`.
    private func doc(symbols: String, _ commands: String, size: String = "[100, 80]") -> String {
        #"{"format": "gpucanvas-scene/1", "size": \#(size), "resources": {"symbols": {\#(symbols)}}, "commands": [\#(commands)]}"#
    }

    private func assertError(_ json: String, at location: String, _ problem: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        do {
            _ = try load(json)
            XCTFail("expected an error at \(location)", file: file, line: line)
        } catch let e as SceneError {
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(problem), "message \"\(e.message)\" lacks \"\(problem)\"", file: file, line: line)
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
    }

    /// A red 10 × 8 mark with a blue 4 × 4 square in its top-left corner.
    private let mark = #""mark": {"size": [10, 8], "commands": [{"op": "fill", "path": {"rect": [0, 0, 10, 8]}, "shading": {"color": "red"}}, {"op": "fill", "path": {"rect": [0, 0, 4, 4]}, "shading": {"color": "blue"}}]}"#

    // MARK: Recording

    /// The scene and the closure that makes the same calls (symbols as tagged canvases, as the loader builds
    /// them) record equal recordings: the scene goes through the public symbol API.
    func testSceneRecordsWhatTheEquivalentCanvasRecords() throws {
        let scene = try load(doc(symbols: mark, """
            {"op": "symbol", "symbol": "mark", "at": [20, 20]},
            {"op": "symbol", "symbol": "mark", "at": [50, 10], "anchor": [0, 1]},
            {"op": "rotate", "degrees": 30},
            {"op": "opacity", "value": 0.5},
            {"op": "symbol", "symbol": "mark", "in": [30, 40, 40, 12]}
            """))
        let canvas = Canvas(renderer: { context, _ in
            let mark = context.resolveSymbol(id: "mark")!
            context.draw(mark, at: CGPoint(x: 20, y: 20))
            context.draw(mark, at: CGPoint(x: 50, y: 10), anchor: .bottomLeading)
            context.rotate(by: .degrees(30))
            context.opacity = 0.5
            context.draw(mark, in: CGRect(x: 30, y: 40, width: 40, height: 12))
        }, symbols: {
            Canvas { context, _ in
                context.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 8)), with: .color(.red))
                context.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.blue))
            }
            .frame(width: 10, height: 8)
            .tag("mark")
        })
        let expected = canvas.record(size: CGSize(width: 100, height: 80))
        XCTAssertEqual(scene.recording, expected)
        // Three draws of two fills each: every replay numbers its draws afresh.
        XCTAssertEqual(scene.recording.drawCount, 6)
    }

    /// A symbol nobody draws records nothing; a scene without symbols records what it did before symbols
    /// existed (the plain `Recording(size:renderer:)` path).
    func testUnusedSymbolsDrawNothing() throws {
        let withSymbol = try load(doc(symbols: mark, #"{"op": "fill", "path": {"rect": [1, 1, 5, 5]}, "shading": {"color": "green"}}"#))
        let plain = Recording(size: CGSize(width: 100, height: 80)) { context, _ in
            context.fill(Path(CGRect(x: 1, y: 1, width: 5, height: 5)), with: .color(.green))
        }
        XCTAssertEqual(withSymbol.recording, plain)
    }

    // MARK: Pixels

    /// `at` with an anchor and `in` with a non-uniform scale put the mark's pixels exactly where the placement
    /// says (pixel-aligned, so the reference's coverage is exact: no tolerance).
    func testPlacementsPutThePixelsWhereTheCallsSay() throws {
        let scene = try load(doc(symbols: mark, """
            {"op": "symbol", "symbol": "mark", "at": [30, 20], "anchor": [1, 1]},
            {"op": "symbol", "symbol": "mark", "in": [40, 40, 40, 16]}
            """))
        let image = try CanvasRenderer(backend: .reference).render(scene.recording)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { let p = image.pixel(x: x, y: y); return [p.r, p.g, p.b, p.a] }
        let red: [UInt8] = [255, 59, 48, 255], blue: [UInt8] = [0, 122, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
        // First draw: bottom-right corner at (30, 20), so it spans x 20…30, y 12…20; blue in x 20…24, y 12…16.
        XCTAssertEqual(pixel(21, 13), blue)
        XCTAssertEqual(pixel(25, 13), red)
        XCTAssertEqual(pixel(29, 19), red)
        XCTAssertEqual(pixel(30, 19), clear)
        XCTAssertEqual(pixel(19, 13), clear)
        XCTAssertEqual(pixel(25, 20), clear)
        // Second draw: 10 × 8 scaled ×4 across, ×2 down into (40, 40, 40, 16); blue spans x 40…56, y 40…48.
        XCTAssertEqual(pixel(41, 41), blue)
        XCTAssertEqual(pixel(55, 47), blue)
        XCTAssertEqual(pixel(56, 47), red)
        XCTAssertEqual(pixel(55, 48), red)
        XCTAssertEqual(pixel(79, 55), red)
        XCTAssertEqual(pixel(80, 55), clear)
        XCTAssertEqual(pixel(79, 56), clear)
    }

    /// A symbol is drawn into a context of its size, so what its commands draw outside that frame is clipped,
    /// as a symbol canvas's drawing is.
    func testSymbolCommandsAreClippedToTheSymbolsFrame() throws {
        let scene = try load(doc(symbols: #""big": {"size": [10, 10], "commands": [{"op": "fill", "path": {"rect": [-5, -5, 30, 30]}, "shading": {"color": "black"}}]}"#,
                                 #"{"op": "symbol", "symbol": "big", "at": [20, 20], "anchor": [0, 0]}"#))
        let image = try CanvasRenderer(backend: .reference).render(scene.recording)
        XCTAssertEqual(image.pixel(x: 25, y: 25).a, 255)
        XCTAssertEqual(image.pixel(x: 19, y: 25).a, 0)
        XCTAssertEqual(image.pixel(x: 30, y: 25).a, 0)
        XCTAssertEqual(image.pixel(x: 25, y: 30).a, 0)
    }

    /// Symbol commands may name `resources.images`; the image lands inside the symbol's placement.
    func testSymbolsDrawImagesFromTheResources() throws {
        let png = try RasterImage(width: 2, height: 2, pixels: Array([UInt8]([0, 255, 0, 255]).repeated(4)))
            .pngData().base64EncodedString()
        let json = #"{"format": "gpucanvas-scene/1", "size": [40, 40], "resources": {"images": {"dot": {"pngBase64": "\#(png)"}}, "symbols": {"pic": {"size": [4, 4], "commands": [{"op": "image", "image": "dot", "in": [0, 0, 4, 4]}]}}}, "commands": [{"op": "symbol", "symbol": "pic", "in": [8, 8, 16, 16]}]}"#
        let image = try CanvasRenderer(backend: .reference).render(try load(json).recording)
        XCTAssertEqual(image.pixel(x: 16, y: 16).g, 255)
        XCTAssertEqual(image.pixel(x: 16, y: 16).a, 255)
        XCTAssertEqual(image.pixel(x: 30, y: 16).a, 0)
    }

    // MARK: Encoding

    /// The recording holds a symbol draw as the replayed commands, so the encoder writes those (no
    /// `resources.symbols`, no `symbol` op) and they load back to an equal recording.
    func testLoadRecordEncodeLoadGivesTheSameRecording() throws {
        let scene = try load(doc(symbols: mark + #", "ring": {"size": [20, 20], "commands": [{"op": "stroke", "path": {"ellipse": [2, 2, 16, 16]}, "shading": {"linearGradient": {"colors": ["red", "blue"]}, "start": [0, 0], "end": [20, 20]}, "lineWidth": 3}]}"#, """
            {"op": "symbol", "symbol": "mark", "at": [20, 20]},
            {"op": "copy", "commands": [{"op": "blendMode", "value": "multiply"}, {"op": "clip", "path": {"ellipse": [0, 0, 60, 60]}},
                {"op": "symbol", "symbol": "ring", "in": [10, 10, 50, 30]}]},
            {"op": "filter", "filter": {"blur": {"radius": 2}}},
            {"op": "symbol", "symbol": "ring", "at": [70, 50], "anchor": [0.25, 0.75]}
            """))
        let json = scene.recording.sceneJSON(scale: 1)
        XCTAssertFalse(json.contains("\"symbol\""), json)
        XCTAssertEqual(try load(json).recording, scene.recording, json)
    }

    // MARK: Errors

    func testUnknownSymbolNamesTheKnownOnes() {
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": "mrk", "at": [0, 0]}"#),
                    at: "commands[0].symbol", #"unknown symbol "mrk" (resources.symbols has: mark)"#)
        assertError(#"{"format": "gpucanvas-scene/1", "size": [10, 10], "commands": [{"op": "symbol", "symbol": "a", "at": [0, 0]}]}"#,
                    at: "commands[0].symbol", #"unknown symbol "a" (the document has no resources.symbols)"#)
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": 3, "at": [0, 0]}"#), at: "commands[0].symbol",
                    "expected a string, got number")
    }

    func testBadSymbolSizes() {
        assertError(doc(symbols: #""s": {"size": [0, 4], "commands": []}"#, ""), at: "resources.symbols.s.size",
                    "a symbol's size must be > 0 in each dimension, got [0, 4]")
        assertError(doc(symbols: #""s": {"size": [4, -1], "commands": []}"#, ""), at: "resources.symbols.s.size",
                    "must be > 0")
        assertError(doc(symbols: #""s": {"size": [4], "commands": []}"#, ""), at: "resources.symbols.s.size",
                    "expected a size [w, h]")
        assertError(doc(symbols: #""s": {"commands": []}"#, ""), at: "resources.symbols.s.size", "missing required key")
    }

    func testSymbolsCannotDrawSymbols() {
        assertError(doc(symbols: #""s": {"size": [4, 4], "commands": [{"op": "copy", "commands": [{"op": "symbol", "symbol": "s", "at": [0, 0]}]}]}"#, ""),
                    at: "resources.symbols.s.commands[0].commands[0].symbol", #"symbol "s" draws itself: symbols cannot be recursive"#)
        assertError(doc(symbols: mark + #", "s": {"size": [4, 4], "commands": [{"op": "symbol", "symbol": "mark", "in": [0, 0, 4, 4]}]}"#, ""),
                    at: "resources.symbols.s.commands[0].symbol", "a symbol cannot draw a symbol")
    }

    func testBadEntriesAndPlacements() {
        assertError(doc(symbols: #""s": {"size": [4, 4], "commands": [], "scale": 2}"#, ""), at: "resources.symbols.s.scale",
                    #"unknown key "scale" (expected one of: size, commands)"#)
        assertError(doc(symbols: #""s": [4, 4]"#, ""), at: "resources.symbols.s", "expected a symbol object")
        assertError(doc(symbols: #""s": {"size": [4, 4], "commands": [{"op": "fill"}]}"#, ""),
                    at: "resources.symbols.s.commands[0].path", "missing required key")
        assertError(#"{"format": "gpucanvas-scene/1", "size": [10, 10], "resources": {"symbols": []}, "commands": []}"#,
                    at: "resources.symbols", "expected an object of named symbols, got array")
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": "mark"}"#), at: "commands[0]",
                    #"expected "in": [x, y, w, h] or "at": [x, y]"#)
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": "mark", "at": [0, 0], "in": [0, 0, 1, 1]}"#),
                    at: "commands[0]", #"expected "in" or "at", got both"#)
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": "mark", "in": [0, 0, 1, 1], "anchor": [0, 0]}"#),
                    at: "commands[0].anchor", #"anchor goes with "at", not with "in""#)
        assertError(doc(symbols: mark, #"{"op": "symbol", "symbol": "mark", "at": [0, 0], "size": 2}"#),
                    at: "commands[0].size", #"unknown key "size" (expected one of: op, symbol, in, at, anchor)"#)
    }
}

private extension Array {
    func repeated(_ n: Int) -> [Element] { (0..<n).flatMap { _ in self } }
}
