import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Apple's leniency: what Core Graphics ignores (an invalid number, a missing image, an unreadable font) is
/// skipped with a `RenderDiagnostic` and the rest of the frame draws; `.strict` throws the same words. The
/// lowering is shared, so every backend reports the same diagnostics in the same order.
final class DiagnosticsTests: XCTestCase {
    /// The reference and both GLES path strategies under `policy`, shared (`SharedRenderers`).
    func renderers(_ policy: DiagnosticsPolicy = .lenient) throws -> [(String, SharedRenderer)] {
        var list = [("reference", try SharedRenderers.renderer(.reference, policy: policy))]
        for s in PathStrategyKind.allCases {
            list.append((s.rawValue, try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa, pathStrategy: s)),
                                                                  policy: policy)))
        }
        return list
    }

    /// Renders `draw` on every backend; asserts the images agree (the default bar) and the reports are equal,
    /// and returns the reference's image and report.
    func renderAll(_ w: CGFloat, _ h: CGFloat, file: StaticString = #filePath, line: UInt = #line,
                   _ draw: (inout GraphicsContext, CGSize) -> Void) throws -> (RasterImage, RenderReport) {
        let recording = Recording(size: CGSize(width: w, height: h), renderer: draw)
        var results: [(String, RasterImage, RenderReport)] = []
        for (name, r) in try renderers() {
            let (image, report) = try r.renderWithReport(recording)
            results.append((name, image, report))
        }
        for (name, image, report) in results.dropFirst() {
            XCTAssertEqual(report, results[0].2, "\(name)'s report differs from the reference's", file: file, line: line)
            let d = image.difference(from: results[0].1)
            XCTAssertTrue(d.meetsDefaultBar, "\(name): \(d)", file: file, line: line)
        }
        return (results[0].1, results[0].2)
    }

    /// Asserts every backend under `.strict` throws exactly `words`.
    func assertStrictError(_ words: String, file: StaticString = #filePath, line: UInt = #line,
                           _ draw: (inout GraphicsContext, CGSize) -> Void) throws {
        let recording = Recording(size: CGSize(width: 40, height: 20), renderer: draw)
        for (name, r) in try renderers(.strict) {
            XCTAssertThrowsError(try r.render(recording), name, file: file, line: line) { error in
                XCTAssertEqual("\(error)", words, name, file: file, line: line)
            }
        }
    }

    static let black = PixelRGBA8(r: 0, g: 0, b: 0, a: 255)

    /// A chart's polyline y = 5 until x = 10, then y = 15 from x = 30, with a NaN sample at x = 20.
    static func chart(_ ctx: inout GraphicsContext, _ size: CGSize) {
        var p = Path()
        p.move(to: CGPoint(x: 0, y: 5))
        p.addLine(to: CGPoint(x: 10, y: 5))
        p.addLine(to: CGPoint(x: 20, y: CGFloat.nan))
        p.addLine(to: CGPoint(x: 30, y: 15))
        p.addLine(to: CGPoint(x: 40, y: 15))
        ctx.stroke(p, with: .color(.black), lineWidth: 2)
    }

    /// The NaN sample is skipped as CG skips it: the line goes on from (10, 5) straight to (30, 15), and the
    /// frame reports the element once, in the strict error's words.
    func testChartWithOneNaNPointDrawsTheRestAndReportsIt() throws {
        let (image, report) = try renderAll(40, 20, Self.chart)
        // Rows 4 and 5 are covered by the 2 px pen along y = 5, rows 14 and 15 along y = 15: whole pixels.
        XCTAssertEqual(image.pixel(x: 5, y: 4), Self.black)
        XCTAssertEqual(image.pixel(x: 5, y: 5), Self.black)
        XCTAssertEqual(image.pixel(x: 35, y: 14), Self.black)
        XCTAssertEqual(image.pixel(x: 35, y: 15), Self.black)
        // The bridging segment passes (20.5, 10.25): the pixel there is mostly covered (its centre lies 0.22 px
        // from the centreline, the pen reaches 1 px); far from every segment nothing is drawn.
        XCTAssertGreaterThan(image.pixel(x: 20, y: 10).a, 200)
        XCTAssertEqual(image.pixel(x: 20, y: 1).a, 0)
        XCTAssertEqual(image.pixel(x: 5, y: 15).a, 0)
        XCTAssertEqual(report.diagnostics.count, 1)
        XCTAssertEqual(report.diagnostics.first?.kind, .invalidNumber)
        XCTAssertEqual(report.description, "invalid geometry: draw #0: path element 2 (line to (20, nan)) is not finite")
    }

    func testStrictChartIsTodaysError() throws {
        try assertStrictError("invalid geometry: draw #0: path element 2 (line to (20, nan)) is not finite", Self.chart)
    }

    /// A NaN move: the lines after it go on from the last valid point (CG ignores the move).
    func testNaNMoveContinuesTheSubpath() throws {
        let (image, report) = try renderAll(40, 20) { ctx, _ in
            var p = Path()
            p.move(to: CGPoint(x: 0, y: 10))
            p.addLine(to: CGPoint(x: 15, y: 10))
            p.move(to: CGPoint(x: CGFloat.infinity, y: 3))
            p.addLine(to: CGPoint(x: 40, y: 10))
            ctx.stroke(p, with: .color(.black), lineWidth: 2)
        }
        XCTAssertEqual(image.pixel(x: 25, y: 9), Self.black)
        XCTAssertEqual(report.description, "invalid geometry: draw #0: path element 2 (move to (inf, 3)) is not finite")
    }

    /// A missing image draws nothing; the draws around it draw.
    func testMissingImageSkipsItsDrawOnly() throws {
        let missing = "/nonexistent-gpucanvas-dir/logo.png"
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 20)), with: .color(.black))
            ctx.draw(Image(contentsOfFile: missing), in: CGRect(x: 10, y: 0, width: 10, height: 20))
            ctx.fill(Path(CGRect(x: 20, y: 0, width: 10, height: 20)), with: .color(.black))
        }
        let (image, report) = try renderAll(40, 20, draw)
        XCTAssertEqual(image.pixel(x: 5, y: 10), Self.black)
        XCTAssertEqual(image.pixel(x: 15, y: 10).a, 0)
        XCTAssertEqual(image.pixel(x: 25, y: 10), Self.black)
        XCTAssertEqual(report.diagnostics.map(\.kind), [.missingImage])
        XCTAssertEqual(report.description, "invalid image: draw #1: no such file: \(missing)")
        try assertStrictError("invalid image: draw #1: no such file: \(missing)", draw)
    }

    /// Other invalid numbers skip the whole draw, one diagnostic each, in draw order.
    func testOtherInvalidNumbersSkipTheirDrawInDrawOrder() throws {
        let (image, report) = try renderAll(40, 20) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 10)), with: .color(.black))        // #0 drawn
            var t = ctx
            t.transform = CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
            t.fill(Path(CGRect(x: 10, y: 0, width: 10, height: 10)), with: .color(.black))          // #1 skipped
            ctx.stroke(Path(CGRect(x: 22, y: 2, width: 6, height: 6)), with: .color(.black),
                       style: StrokeStyle(lineWidth: 2, dash: [CGFloat.nan]))                             // #2 skipped
            var o = ctx
            o.opacity = .nan
            o.fill(Path(CGRect(x: 30, y: 0, width: 10, height: 10)), with: .color(.black))          // #3 skipped
            ctx.fill(Path(CGRect(x: 0, y: 10, width: 40, height: 10)), with: .color(.black))        // #4 drawn
        }
        XCTAssertEqual(image.pixel(x: 5, y: 5), Self.black)
        XCTAssertEqual(image.pixel(x: 15, y: 5).a, 0)
        XCTAssertEqual(image.pixel(x: 22, y: 5).a, 0)
        XCTAssertEqual(image.pixel(x: 35, y: 5).a, 0)
        XCTAssertEqual(image.pixel(x: 20, y: 15), Self.black)
        XCTAssertEqual(report.diagnostics.map(\.kind), [.invalidNumber, .invalidNumber, .invalidNumber])
        let lines = report.description.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 3)
        XCTAssertTrue(lines[0].hasPrefix("invalid geometry: draw #1: transform "), lines[0])
        XCTAssertEqual(lines[1], "invalid geometry: draw #2: dash [nan] phase 0.0 is not finite")
        XCTAssertEqual(lines[2], "invalid geometry: draw #3: opacity is NaN")
    }

    /// A clip under a non-finite transform clips to nothing (drawing unclipped could show what it hid), once.
    func testClipWithInvalidTransformClipsToNothing() throws {
        let (image, report) = try renderAll(40, 20) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 20)), with: .color(.black))        // #0 drawn
            var c = ctx
            c.transform = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0)
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 40, height: 20)))
            c.transform = .identity
            c.fill(Path(CGRect(x: 10, y: 0, width: 10, height: 20)), with: .color(.black))          // #1 clipped away
            c.fill(Path(CGRect(x: 20, y: 0, width: 10, height: 20)), with: .color(.black))          // #2 clipped away
        }
        XCTAssertEqual(image.pixel(x: 5, y: 10), Self.black)
        XCTAssertEqual(image.pixel(x: 15, y: 10).a, 0)
        XCTAssertEqual(image.pixel(x: 25, y: 10).a, 0)
        XCTAssertEqual(report.diagnostics.count, 1)
        XCTAssertTrue(report.description.hasPrefix("invalid geometry: draw #1: clip 1: transform "), report.description)
    }

    /// A layer whose opacity is NaN is skipped with its content.
    func testLayerWithNaNOpacityIsSkipped() throws {
        let (image, report) = try renderAll(40, 20) { ctx, _ in
            var l = ctx
            l.opacity = .nan
            l.drawLayer { inner in
                inner.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 20)), with: .color(.black))   // #0 skipped
            }
            ctx.fill(Path(CGRect(x: 20, y: 0, width: 20, height: 20)), with: .color(.black))       // #1 drawn
        }
        XCTAssertEqual(image.pixel(x: 5, y: 10).a, 0)
        XCTAssertEqual(image.pixel(x: 25, y: 10), Self.black)
        XCTAssertEqual(report.description, "invalid geometry: draw #0: layer opacity is NaN")
    }

    /// An unreadable font file: the text draw is skipped (its layout failed at record time, so there are no
    /// glyphs of another face to draw), reported as `.fontSubstituted`; strict throws the font error.
    func testUnreadableFontSkipsTheTextDraw() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("diag-font-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.ttf")
        try Data("not a font".utf8).write(to: bad)
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.draw(Text("Hi").font(.file(bad, size: 12)), at: CGPoint(x: 10, y: 10))
            ctx.fill(Path(CGRect(x: 20, y: 0, width: 20, height: 20)), with: .color(.black))
        }
        let (image, report) = try renderAll(40, 20, draw)
        XCTAssertEqual(image.pixel(x: 25, y: 10), Self.black)
        XCTAssertEqual(report.diagnostics.map(\.kind), [.fontSubstituted])
        XCTAssertTrue(report.description.hasPrefix("invalid font: draw #0: \(bad.path): "), report.description)
        XCTAssertEqual(image.pixels[0 ..< 20 * 4].allSatisfy { $0 == 0 }, true)
        let recording = Recording(size: CGSize(width: 40, height: 20), renderer: draw)
        let strict = try CanvasRenderer(backend: .reference)
        strict.diagnosticsPolicy = .strict
        XCTAssertThrowsError(try strict.render(recording)) { XCTAssertEqual("\($0)", report.description) }
    }

    /// A clean frame reports nothing, and a report does not outlive its render.
    func testCleanRenderClearsTheReport() throws {
        let r = try CanvasRenderer(backend: .reference)
        _ = try r.render(Recording(size: CGSize(width: 40, height: 20), renderer: Self.chart))
        XCTAssertEqual(r.lastReport.diagnostics.count, 1)
        _ = try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.red)) }
        XCTAssertTrue(r.lastReport.isClean)
    }

    /// Scene files are data: a NaN is refused by the loader at its JSON location, whatever the policy.
    func testSceneFileNaNIsStillALocatedLoadError() throws {
        let json = #"{"format":"gpucanvas-scene/1","size":[10,10],"commands":[{"op":"fill","path":{"elements":[["m",0,0],["l",1e999,2]]},"shading":{"color":"black"}}]}"#
        XCTAssertThrowsError(try Scene(jsonData: Data(json.utf8))) { error in
            XCTAssertEqual("\(error)", "line 1, column 106 (commands[0].path.elements[1][1]): number 1e999 is out of range (scenes need finite numbers)")
        }
        let missing = #"{"format":"gpucanvas-scene/1","size":[10,10],"resources":{"images":{"a":{"png":"nope.png"}}},"commands":[]}"#
        let dir = FileManager.default.temporaryDirectory
        XCTAssertThrowsError(try Scene(jsonData: Data(missing.utf8), baseURL: dir)) { error in
            XCTAssertEqual("\(error)", "resources.images.a: \(dir.appendingPathComponent("nope.png").path): no such file")
        }
    }
}

extension CanvasRenderer {
    /// A renderer under `.strict`: for the verdict tests, which assert the words of what a lenient renderer
    /// would skip.
    static func strict(backend: Backend = .gles(GLESOptions())) throws -> CanvasRenderer {
        let r = try CanvasRenderer(backend: backend)
        r.diagnosticsPolicy = .strict
        return r
    }
}
