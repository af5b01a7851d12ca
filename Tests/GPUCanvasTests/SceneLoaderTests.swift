import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The scene loader: every way a document can be wrong gives a located message, and every valid command
/// records exactly what the equivalent renderer closure records.
final class SceneLoaderTests: XCTestCase {
    /// A document around `commands` (JSON text of the array's contents).
    private func doc(_ commands: String, header: String = #""size": [100, 80]"#) -> String {
        #"{"format": "gpucanvas-scene/1", \#(header), "commands": [\#(commands)]}"#
    }

    private func load(_ json: String) throws -> Scene {
        try Scene(jsonData: Data(json.utf8))
    }

    /// Asserts loading fails with `location` and a message containing `problem`, and that the printed form
    /// carries both.
    @discardableResult
    private func assertError(_ json: String, at location: String, _ problem: String,
                             file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
        do {
            _ = try load(json)
            XCTFail("expected an error at \(location)", file: file, line: line)
            return nil
        } catch let e as SceneError {
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(problem), "message \"\(e.message)\" lacks \"\(problem)\"", file: file, line: line)
            XCTAssertTrue((location.isEmpty || e.description.contains(location)) && e.description.contains(problem),
                          e.description, file: file, line: line)
            return e
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
            return nil
        }
    }

    // MARK: Syntax errors

    func testMalformedJSONGivesLineAndColumn() {
        let json = "{\"format\": \"gpucanvas-scene/1\",\n  \"size\": [10, 10]\n  \"commands\": []}"
        let e = assertError(json, at: "", "expected ',' or '}', got '\"'")
        XCTAssertEqual(e?.line, 3)
        XCTAssertEqual(e?.column, 3)
        XCTAssertEqual(e?.description, "line 3, column 3: expected ',' or '}', got '\"'")
    }

    func testSyntaxErrorInsideCommandsNamesTheLocationToo() {
        let e = assertError(doc(#"{"op": "fill", "path": {"rect": [0, 0, 1,]}}"#), at: "commands[0].path.rect[3]",
                            "expected a value, got ']'")
        XCTAssertEqual(e?.line, 1)
        XCTAssertNotNil(e?.column)
    }

    func testNaNLiteralIsRejected() {
        assertError(doc(#"{"op": "opacity", "value": NaN}"#), at: "commands[0].value", "NaN and Infinity are not numbers")
    }

    func testNumberOverflowIsRejectedWithItsLocation() {
        let e = assertError(doc(#"{"op": "fill", "path": {"rect": [0, 0, 1e999, 1]}, "shading": "foreground"}"#),
                            at: "commands[0].path.rect[2]", "number 1e999 is out of range")
        XCTAssertEqual(e?.column, 104)  // the column where 1e999 starts
    }

    func testDuplicateKeyIsRejected() {
        assertError(#"{"format": "gpucanvas-scene/1", "size": [1, 1], "size": [2, 2], "commands": []}"#,
                    at: "", #"duplicate key "size""#)
    }

    func testTrailingContentIsRejected() {
        assertError(doc("") + " x", at: "", "unexpected 'x' after the end of the document")
    }

    func testInvalidUTF8IsRejected() {
        var bytes = Array(doc(#"{"op": "fill", "path": "X", "shading": "foreground"}"#).utf8)
        let i = bytes.firstIndex(of: UInt8(ascii: "X"))!
        bytes[i] = 0xFF
        XCTAssertThrowsError(try Scene(jsonData: Data(bytes))) { error in
            let e = error as? SceneError
            XCTAssertEqual(e?.location, "commands[0].path")
            XCTAssertEqual(e?.message, "string is not valid UTF-8")
        }
    }

    func testEmptyDocumentIsRejected() {
        assertError("  \n", at: "", "the document is empty")
    }

    func testDeepNestingIsRejectedWithoutRecursingFurther() {
        let depth = 10_000
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        // The 256-component location prints with its middle elided.
        let twelve = String(repeating: "[0]", count: 12)
        assertError(json, at: twelve + "…(232 more)…" + twelve, "nesting is deeper than \(SceneJSON.maxDepth) levels")
    }

    func testOversizedDocumentIsRejectedBeforeParsing() {
        XCTAssertThrowsError(try Scene(jsonData: Data(repeating: 0x20, count: SceneJSON.maxBytes + 1))) { error in
            XCTAssertEqual((error as? SceneError)?.message,
                           "the document is \(SceneJSON.maxBytes + 1) bytes; the limit is \(SceneJSON.maxBytes) bytes")
        }
    }

    // MARK: Document errors

    func testWrongFormatIsRejected() {
        assertError(#"{"format": "gpucanvas-scene/2", "size": [1, 1], "commands": []}"#,
                    at: "format", #"expected "gpucanvas-scene/1", got "gpucanvas-scene/2""#)
    }

    func testMissingSizeIsRejected() {
        assertError(#"{"format": "gpucanvas-scene/1", "commands": []}"#, at: "size", "missing required key")
    }

    func testNegativeSizeIsRejected() {
        assertError(doc("", header: #""size": [-10, 10]"#), at: "size", "each value must be > 0, got [-10, 10]")
        assertError(doc("", header: #""size": [10, 0]"#), at: "size", "each value must be > 0")
    }

    func testOversizedCanvasIsRejected() {
        // 10000 pt at scale 2 is 20000 px: over the 16384 px limit although the point size is under it.
        assertError(doc("", header: #""size": [10000, 10], "scale": 2"#), at: "size",
                    "10000×10 points at scale 2 is 20000×20 pixels; the limit is 16384 pixels per side")
        // 8192.1 × 2 rounds up to 16385.
        assertError(doc("", header: #""size": [8192.1, 10], "scale": 2"#), at: "size", "16385×20 pixels")
        XCTAssertNoThrow(try load(doc("", header: #""size": [8192, 10], "scale": 2"#)))
    }

    func testBadScaleAndColorModeAreRejected() {
        assertError(doc("", header: #""size": [10, 10], "scale": 0"#), at: "scale", "must be > 0, got 0")
        assertError(doc("", header: #""size": [10, 10], "scale": null"#), at: "scale", "expected a number, got null")
        assertError(doc("", header: #""size": [10, 10], "colorMode": "sRGB""#), at: "colorMode", #"unknown colour mode "sRGB""#)
        assertError(doc("", header: #""size": [10, 10], "opaque": 1"#), at: "opaque", "expected true or false, got number")
    }

    func testUnknownTopLevelKeyIsRejected() {
        assertError(doc("", header: #""size": [10, 10], "command": []"#), at: "command", #"unknown key "command""#)
    }

    func testSymbolResourcesLoadAndAnEmptyTableIsAccepted() {
        XCTAssertNoThrow(try load(doc("", header: #""size": [10, 10], "resources": {"symbols": {"mark": {"size": [1, 1], "commands": []}}}"#)))
        XCTAssertNoThrow(try load(doc("", header: #""size": [10, 10], "resources": {"images": {}, "symbols": {}}"#)))
    }

    // MARK: Command errors

    func testUnknownOpIsRejected() {
        assertError(doc(#"{"op": "fil", "path": "0 0 m h", "shading": "foreground"}"#), at: "commands[0].op",
                    #"unknown op "fil""#)
    }

    func testMissingOpIsRejected() {
        assertError(doc(#"{"path": "0 0 m h"}"#), at: "commands[0].op", "missing required key")
    }

    func testUnknownKeyInACommandIsRejected() {
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": "foreground", "colour": "red"}"#),
                    at: "commands[0].colour", #"unknown key "colour" (expected one of: op, path, shading, eoFill, antialiased)"#)
    }

    func testEveryOpIsImplemented() {
        // The symbol op was the last one recognised but not supported; it now wants its keys.
        let e = assertError(doc(#"{"op": "symbol"}"#), at: "commands[0].symbol", "missing required key")
        XCTAssertEqual(e?.message, "missing required key")
    }

    func testTiledImageNamesAResource() {
        let e = assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"tiledImage": "logo"}}"#),
                            at: "commands[0].shading.tiledImage", #"unknown image "logo""#)
        XCTAssertEqual(e?.message, #"unknown image "logo" (the document has no resources.images)"#)
    }

    func testBadPathStringIsRejected() {
        assertError(doc(#"{"op": "fill", "path": "10 10 m 20 l", "shading": "foreground"}"#), at: "commands[0].path",
                    #"not a valid path description: "10 10 m 20 l""#)
    }

    func testWrongArityIsRejected() {
        assertError(doc(#"{"op": "fill", "path": {"arc": {"center": [1, 2, 3], "radius": 4, "start": 0, "end": 90}}, "shading": "foreground"}"#),
                    at: "commands[0].path.arc.center", "expected a point [x, y], got an array of 3 values")
        assertError(doc(#"{"op": "transform", "value": [1, 0, 0, 1]}"#), at: "commands[0].value",
                    "expected a transform [a, b, c, d, tx, ty], got an array of 4 values")
        assertError(doc(#"{"op": "fill", "path": {"elements": [["m", 0, 0], ["l", 1]]}, "shading": "foreground"}"#),
                    at: "commands[0].path.elements[1]", #"element "l" takes 2 numbers, got 1"#)
    }

    func testBadPathObjectsAreRejected() {
        assertError(doc(#"{"op": "fill", "path": {"rect": [0, 0, 1, 1], "ellipse": [0, 0, 1, 1]}, "shading": "foreground"}"#),
                    at: "commands[0].path", "expected one shape, got rect and ellipse")
        assertError(doc(#"{"op": "fill", "path": {"roundedRect": [0, 0, 10, 10]}, "shading": "foreground"}"#),
                    at: "commands[0].path.cornerRadius", "missing required key")
        assertError(doc(#"{"op": "fill", "path": {"roundedRect": [0, 0, 10, 10], "cornerRadius": 2, "style": "squircle"}, "shading": "foreground"}"#),
                    at: "commands[0].path.style", #"unknown corner style "squircle""#)
        assertError(doc(#"{"op": "fill", "path": {"elements": [["s", 0, 0]]}, "shading": "foreground"}"#),
                    at: "commands[0].path.elements[0][0]", #"unknown path element "s""#)
        // Finite inputs whose product overflows: 1e300 × 1e300.
        assertError(doc(#"{"op": "fill", "path": {"rect": [0, 0, 1e300, 1], "transform": [1e300, 0, 0, 1, 0, 0]}, "shading": "foreground"}"#),
                    at: "commands[0].path.transform", "too large to represent")
    }

    func testBadColoursAreRejected() {
        func fill(_ color: String) -> String { doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"color": \#(color)}}"#) }
        assertError(fill(##""#12345""##), at: "commands[0].shading.color", ##"expected a colour "#RRGGBB" or "#RRGGBBAA", got "#12345""##)
        assertError(fill(##""#12345G""##), at: "commands[0].shading.color", "expected a colour")
        assertError(fill(#""reddish""#), at: "commands[0].shading.color", #"unknown colour name "reddish""#)
        assertError(fill("3"), at: "commands[0].shading.color", "expected a colour, got number")
        assertError(fill(#"{"space": "sRGB", "rgba": [1, 0, 0]}"#), at: "commands[0].shading.color.rgba",
                    "expected [r, g, b, a], got an array of 3 values")
        assertError(fill(#"{"space": "sRGB", "rgba": [1, 0, 0, 1.5]}"#), at: "commands[0].shading.color.rgba[3]",
                    "alpha must be in 0…1, got 1.5")
        assertError(fill(#"{"space": "adobeRGB", "rgba": [1, 0, 0, 1]}"#), at: "commands[0].shading.color.space",
                    #"unknown colour space "adobeRGB""#)
    }

    func testBadShadingIsRejected() {
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": "background"}"#), at: "commands[0].shading",
                    #"got "background""#)
        assertError(doc(#"{"op": "fill", "path": "0 0 m h"}"#), at: "commands[0].shading", "missing required key")
    }

    func testUnknownBlendModeIsRejected() {
        assertError(doc(#"{"op": "blendMode", "value": "burn"}"#), at: "commands[0].value", #"unknown blend mode "burn""#)
    }

    func testWrongTypesAreRejected() {
        assertError(doc(#"{"op": "stroke", "path": "0 0 m 1 1 l", "shading": "foreground", "lineWidth": "3"}"#),
                    at: "commands[0].lineWidth", "expected a number, got string")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": "foreground", "eoFill": 1}"#),
                    at: "commands[0].eoFill", "expected true or false, got number")
        assertError(doc(#"{"op": "fill", "path": 7, "shading": "foreground"}"#),
                    at: "commands[0].path", "expected a path (a description string or an object), got number")
        assertError(doc(#""fill""#), at: "commands[0]", "expected a command object, got string")
    }

    func testOutOfRangeStrokeAndStateValuesAreRejected() {
        let stroke = #"{"op": "stroke", "path": "0 0 m 1 1 l", "shading": "foreground", "#
        assertError(doc(stroke + #""lineWidth": -1}"#), at: "commands[0].lineWidth", "lineWidth must be ≥ 0, got -1")
        assertError(doc(stroke + #""miterLimit": -2}"#), at: "commands[0].miterLimit", "miterLimit must be ≥ 0")
        assertError(doc(stroke + #""dash": [4, -1]}"#), at: "commands[0].dash[1]", "a dash length must be ≥ 0")
        assertError(doc(stroke + #""lineCap": "flat"}"#), at: "commands[0].lineCap", #"unknown line cap "flat""#)
        assertError(doc(#"{"op": "opacity", "value": 1.5}"#), at: "commands[0].value", "opacity must be in 0…1, got 1.5")
    }

    func testErrorsInsideCopyScopesAreLocated() {
        assertError(doc(#"{"op": "copy", "commands": [{"op": "rotate", "degrees": 10}, {"op": "scale", "x": 2}]}"#),
                    at: "commands[0].commands[1].y", "missing required key")
    }

    func testNothingIsRecordedWhenALaterCommandIsBad() {
        // Validation is complete before replay: a bad last command means no recording at all, which the
        // throwing initializer guarantees; this checks the error is the last command's.
        assertError(doc(#"{"op": "fill", "path": "0 0 m 1 0 l h", "shading": "foreground"}, {"op": "symbol"}"#),
                    at: "commands[1].symbol", "missing required key")
    }

    // MARK: Files

    func testMissingFileNamesTheFile() {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("no-such-scene-\(UUID()).json")
        XCTAssertThrowsError(try Scene.load(contentsOf: url)) { error in
            let e = error as? SceneError
            XCTAssertEqual(e?.file, url.path)
            XCTAssertEqual(e?.description, "\(url.path): cannot read the file: no such file")
        }
    }

    func testEndlessInputIsCutOffAtTheSizeLimit() throws {
        // /dev/zero reports size 0 and never ends: the reader must stop at the limit, not exhaust memory.
        let zero = URL(fileURLWithPath: "/dev/zero")
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zero.path), "no /dev/zero here")
        XCTAssertThrowsError(try Scene.load(contentsOf: zero)) { error in
            XCTAssertEqual("\(error)", "/dev/zero: the file is larger than the limit of \(SceneJSON.maxBytes) bytes")
        }
    }

    func testADirectoryIsNotAScene() {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory())
        XCTAssertThrowsError(try Scene.load(contentsOf: dir)) { error in
            XCTAssertEqual((error as? SceneError)?.message, "is a directory, not a scene file")
        }
    }

    func testOnlyFileURLsAreLoaded() {
        // A web URL is not fetched (that would block on the network, without a size limit).
        let web = URL(string: "https://example.com/scene.json")!
        XCTAssertThrowsError(try Scene.load(contentsOf: web)) { error in
            XCTAssertEqual("\(error)", "https://example.com/scene.json: not a file URL; only files can be loaded")
        }
    }

    func testErrorsFromAFileNameTheFileAndLocation() throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("bad-scene-\(UUID()).json")
        try Data(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"color": 3}}"#).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        XCTAssertThrowsError(try Scene.load(contentsOf: url)) { error in
            XCTAssertEqual("\(error)", "\(url.path): commands[0].shading.color: expected a colour, got number")
        }
        try Data("{\n\"format\": 1,,\n}".utf8).write(to: url)
        XCTAssertThrowsError(try Scene.load(contentsOf: url)) { error in
            XCTAssertEqual("\(error)", "\(url.path):2:13: expected a key string, got ','")
        }
    }

    func testLoadsAFileWithItsScale() throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("good-scene-\(UUID()).json")
        try Data(doc(#"{"op": "fill", "path": {"rect": [0, 0, 5, 5]}, "shading": {"color": "blue"}}"#,
                     header: #""size": [20, 10], "scale": 3, "opaque": true"#).utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let scene = try Scene.load(contentsOf: url)
        XCTAssertEqual(scene.scale, 3)
        XCTAssertEqual(scene.recording.size, CGSize(width: 20, height: 10))
        XCTAssertTrue(scene.recording.isOpaque)
        XCTAssertEqual(scene.recording.drawCount, 1)
    }

    // MARK: Equivalence: a closure and the scene spelling out its calls record the same thing

    private func assertSame(_ json: String, size: CGSize = CGSize(width: 100, height: 80),
                            colorMode: ColorRenderingMode = .nonLinear, opaque: Bool = false,
                            file: StaticString = #filePath, line: UInt = #line,
                            _ renderer: (inout GraphicsContext, CGSize) -> Void) throws {
        let expected = Recording(size: size, colorMode: colorMode, isOpaque: opaque, renderer: renderer)
        let scene = try load(json)
        XCTAssertEqual(scene.recording, expected, "\nscene:   \(scene.recording)\nclosure: \(expected)", file: file, line: line)
        XCTAssertGreaterThan(expected.drawCount, 0, file: file, line: line)
    }

    func testFillsWithEveryPathFormEqualTheClosure() throws {
        try assertSame(doc("""
            {"op": "fill", "path": {"rect": [10, 10, 30, 20]}, "shading": {"color": "red"}},
            {"op": "fill", "path": {"ellipse": [0, 0, 100, 80]}, "shading": {"color": "#007AFF"}, "eoFill": true},
            {"op": "fill", "path": {"roundedRect": [5, 5, 50, 40], "cornerRadius": 8, "style": "circular"}, "shading": "foreground", "antialiased": false},
            {"op": "fill", "path": {"roundedRect": [5, 5, 50, 40], "cornerRadius": 8}, "shading": {"color": "mint"}},
            {"op": "fill", "path": {"arc": {"center": [50, 40], "radius": 30, "start": 0, "end": 270, "clockwise": true}}, "shading": {"color": "#FF000080"}},
            {"op": "fill", "path": {"elements": [["m", 0, 0], ["l", 10, 0], ["q", 15, 5, 10, 10], ["c", 5, 15, 0, 15, 0, 10], ["z"]], "transform": [2, 0, 0, 2, 5, 5]}, "shading": {"color": "black"}},
            {"op": "fill", "path": "10 10 m 90 10 l 50 80 l h 1 2 3 4 re", "shading": {"color": "clear"}}
            """)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 10, y: 10, width: 30, height: 20)), with: .color(.red))
            ctx.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 80)),
                     with: .color(red: 0, green: 122 / 255, blue: 1), style: FillStyle(eoFill: true))
            ctx.fill(Path(roundedRect: CGRect(x: 5, y: 5, width: 50, height: 40), cornerRadius: 8, style: .circular),
                     with: .foreground, style: FillStyle(antialiased: false))
            ctx.fill(Path(roundedRect: CGRect(x: 5, y: 5, width: 50, height: 40), cornerRadius: 8), with: .color(.mint))
            var arc = Path()
            arc.addArc(center: CGPoint(x: 50, y: 40), radius: 30, startAngle: .degrees(0), endAngle: .degrees(270), clockwise: true)
            ctx.fill(arc, with: .color(red: 1, green: 0, blue: 0, opacity: 128 / 255))
            var p = Path()
            p.move(to: .zero)
            p.addLine(to: CGPoint(x: 10, y: 0))
            p.addQuadCurve(to: CGPoint(x: 10, y: 10), control: CGPoint(x: 15, y: 5))
            p.addCurve(to: CGPoint(x: 0, y: 10), control1: CGPoint(x: 5, y: 15), control2: CGPoint(x: 0, y: 15))
            p.closeSubpath()
            ctx.fill(p.applying(CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 5)), with: .color(.black))
            ctx.fill(Path("10 10 m 90 10 l 50 80 l h 1 2 3 4 re")!, with: .color(.clear))
        }
    }

    func testStrokesWithEveryKeyEqualTheClosure() throws {
        try assertSame(doc("""
            {"op": "stroke", "path": "10 10 m 90 70 l", "shading": {"color": "green"}},
            {"op": "stroke", "path": "10 10 m 90 70 l 10 70 l", "shading": {"color": "orange"}, "lineWidth": 6, "lineCap": "round",
             "lineJoin": "bevel", "miterLimit": 3, "dash": [10, 5, 2, 5], "dashPhase": 4.5},
            {"op": "stroke", "path": {"ellipse": [10, 10, 80, 60]}, "shading": "foreground", "lineWidth": 0, "lineCap": "square", "lineJoin": "round"}
            """)) { ctx, _ in
            ctx.stroke(Path("10 10 m 90 70 l")!, with: .color(.green))
            ctx.stroke(Path("10 10 m 90 70 l 10 70 l")!, with: .color(.orange),
                       style: StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: .bevel, miterLimit: 3,
                                          dash: [10, 5, 2, 5], dashPhase: 4.5))
            ctx.stroke(Path(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 60)), with: .foreground,
                       style: StrokeStyle(lineWidth: 0, lineCap: .square, lineJoin: .round))
        }
    }

    func testTransformOpsEqualTheClosure() throws {
        let square = #"{"rect": [0, 0, 10, 10]}"#
        try assertSame(doc("""
            {"op": "translate", "x": 20, "y": 10},
            {"op": "fill", "path": \(square), "shading": {"color": "red"}},
            {"op": "scale", "x": 2, "y": 0.5},
            {"op": "fill", "path": \(square), "shading": {"color": "red"}},
            {"op": "rotate", "degrees": 30},
            {"op": "fill", "path": \(square), "shading": {"color": "red"}},
            {"op": "concatenate", "value": [1, 0, 0.5, 1, 3, 4]},
            {"op": "stroke", "path": \(square), "shading": {"color": "red"}},
            {"op": "transform", "value": [0, 1, -1, 0, 50, 0]},
            {"op": "fill", "path": \(square), "shading": {"color": "red"}}
            """)) { ctx, _ in
            let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
            ctx.translateBy(x: 20, y: 10)
            ctx.fill(square, with: .color(.red))
            ctx.scaleBy(x: 2, y: 0.5)
            ctx.fill(square, with: .color(.red))
            ctx.rotate(by: .degrees(30))
            ctx.fill(square, with: .color(.red))
            ctx.concatenate(CGAffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 3, ty: 4))
            ctx.stroke(square, with: .color(.red), lineWidth: 1)
            ctx.transform = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 50, ty: 0)
            ctx.fill(square, with: .color(.red))
        }
    }

    func testCopyScopesDoNotLeakStateAndDrawIntoTheSameLayer() throws {
        let dot = #"{"ellipse": [0, 0, 4, 4]}"#
        try assertSame(doc("""
            {"op": "opacity", "value": 0.8},
            {"op": "copy", "commands": [
                {"op": "translate", "x": 10, "y": 0}, {"op": "opacity", "value": 0.5}, {"op": "blendMode", "value": "multiply"},
                {"op": "fill", "path": \(dot), "shading": {"color": "blue"}},
                {"op": "copy", "commands": [{"op": "rotate", "degrees": 45}, {"op": "fill", "path": \(dot), "shading": {"color": "blue"}}]},
                {"op": "fill", "path": \(dot), "shading": {"color": "blue"}}
            ]},
            {"op": "fill", "path": \(dot), "shading": {"color": "blue"}}
            """)) { ctx, _ in
            let dot = Path(ellipseIn: CGRect(x: 0, y: 0, width: 4, height: 4))
            ctx.opacity = 0.8
            var c = ctx
            c.translateBy(x: 10, y: 0)
            c.opacity = 0.5
            c.blendMode = .multiply
            c.fill(dot, with: .color(.blue))
            var inner = c
            inner.rotate(by: .degrees(45))
            inner.fill(dot, with: .color(.blue))
            c.fill(dot, with: .color(.blue))
            ctx.fill(dot, with: .color(.blue))
        }
    }

    func testEveryBlendModeNameEqualsTheClosure() throws {
        let names = GraphicsContext.BlendMode.names
        let commands = names.map {
            #"{"op": "blendMode", "value": "\#($0)"}, {"op": "fill", "path": "0 0 m 1 0 l 1 1 l h", "shading": "foreground"}"#
        }.joined(separator: ",\n")
        try assertSame(doc(commands)) { ctx, _ in
            let modes: [GraphicsContext.BlendMode] = [
                .normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge, .colorBurn, .softLight,
                .hardLight, .difference, .exclusion, .hue, .saturation, .color, .luminosity, .clear, .copy,
                .sourceIn, .sourceOut, .sourceAtop, .destinationOver, .destinationIn, .destinationOut,
                .destinationAtop, .xor, .plusDarker, .plusLighter]
            for m in modes {
                ctx.blendMode = m
                ctx.fill(Path("0 0 m 1 0 l 1 1 l h")!, with: .foreground)
            }
        }
    }

    func testColourFormsAndDocumentKeysEqualTheClosure() throws {
        let header = #""size": [64, 32], "scale": 2, "colorMode": "linear", "opaque": true"#
        try assertSame(doc("""
            {"op": "fill", "path": "0 0 m 8 0 l 8 8 l h", "shading": {"color": {"space": "displayP3", "rgba": [1, 0.2, 0.1, 1]}}},
            {"op": "fill", "path": "0 0 m 8 0 l 8 8 l h", "shading": {"color": {"space": "sRGBLinear", "rgba": [0.2, 0.5, 0.1, 0.8]}}},
            {"op": "fill", "path": "0 0 m 8 0 l 8 8 l h", "shading": {"color": {"space": "sRGB", "rgba": [1.2, -0.1, 0.5, 0.5]}}},
            {"op": "fill", "path": "0 0 m 8 0 l 8 8 l h", "shading": {"color": "#abcdef"}},
            {"op": "fill", "path": "0 0 m 8 0 l 8 8 l h", "shading": {"color": "secondary"}}
            """, header: header), size: CGSize(width: 64, height: 32), colorMode: .linear, opaque: true) { ctx, _ in
            let tri = Path("0 0 m 8 0 l 8 8 l h")!
            ctx.fill(tri, with: .color(.displayP3, red: 1, green: 0.2, blue: 0.1))
            ctx.fill(tri, with: .color(.sRGBLinear, red: 0.2, green: 0.5, blue: 0.1, opacity: 0.8))
            ctx.fill(tri, with: .color(Color(.sRGB, red: 1.2, green: -0.1, blue: 0.5, opacity: 0.5)))
            ctx.fill(tri, with: .color(red: 0xAB / 255, green: 0xCD / 255, blue: 0xEF / 255))
            ctx.fill(tri, with: .color(.secondary))
        }
        XCTAssertEqual(try load(doc("", header: header)).scale, 2)
    }

    func testAClosureAndItsSceneRenderIdenticalBytes() throws {
        let json = doc("""
            {"op": "fill", "path": {"rect": [0, 0, 100, 80]}, "shading": {"color": "white"}},
            {"op": "copy", "commands": [{"op": "translate", "x": 50, "y": 40}, {"op": "rotate", "degrees": 20}, {"op": "opacity", "value": 0.7},
              {"op": "fill", "path": {"roundedRect": [-30, -20, 60, 40], "cornerRadius": 10}, "shading": {"color": "orange"}}]},
            {"op": "stroke", "path": {"ellipse": [10, 10, 80, 60]}, "shading": {"color": "#3366CCAA"}, "lineWidth": 5, "dash": [12, 4], "lineCap": "round"},
            {"op": "fill", "path": "20 70 m 50 20 l 80 70 l h", "shading": "foreground", "eoFill": true}
            """, header: #""size": [100, 80], "scale": 2"#)
        let scene = try load(json)
        let renderer = try CanvasRenderer(backend: .reference)
        let fromScene = try renderer.render(scene.recording, scale: scene.scale)
        let fromClosure = try renderer.render(size: CGSize(width: 100, height: 80), scale: 2) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 100, height: 80)), with: .color(.white))
            var c = ctx
            c.translateBy(x: 50, y: 40)
            c.rotate(by: .degrees(20))
            c.opacity = 0.7
            c.fill(Path(roundedRect: CGRect(x: -30, y: -20, width: 60, height: 40), cornerRadius: 10), with: .color(.orange))
            ctx.stroke(Path(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 60)),
                       with: .color(red: 0x33 / 255, green: 0x66 / 255, blue: 0xCC / 255, opacity: 0xAA / 255),
                       style: StrokeStyle(lineWidth: 5, lineCap: .round, dash: [12, 4]))
            ctx.fill(Path("20 70 m 50 20 l 80 70 l h")!, with: .foreground, style: FillStyle(eoFill: true))
        }
        XCTAssertEqual(fromScene.width, 200)
        XCTAssertEqual(fromScene.pixels, fromClosure.pixels)
        // Not vacuous: the canvas is mostly white, and the orange card is drawn.
        XCTAssertEqual(fromScene.pixel(x: 2, y: 2), PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertNotEqual(fromScene.pixel(x: 100, y: 80), PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
    }

    func testEveryNamedColourLoads() throws {
        for (name, color) in Color.named {
            let scene = try load(doc(#"{"op": "fill", "path": "0 0 m 1 0 l h", "shading": {"color": "\#(name)"}}"#))
            guard case .draw(let d) = scene.recording.root.items.first else { return XCTFail(name) }
            XCTAssertEqual(d.paint, .solid(color.premultiplied(in: .nonLinear)), name)
        }
    }

    func testTheBenchmarkScenesLoad() throws {
        // The shared benchmark's fill and stroke scenes use only what this version implements.
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/bench/scenes")
        for name in ["S1-fills", "S2-strokes"] {
            let url = dir.appendingPathComponent(name + ".json")
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let scene = try Scene.load(contentsOf: url)
            XCTAssertGreaterThan(scene.recording.drawCount, 100, name)
        }
    }
}
