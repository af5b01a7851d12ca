import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
import Shaders

/// What a frame loads outside GL, counted by `ResourceLoads` and `ShaderLibrary.fileReads`: a frame without
/// text opens no font and does not start fontconfig, a text draw opens its face once, a system image opens the
/// icon font without fontconfig, and shader files are read once however many programs use them. Counts are
/// compared before and after a render, so they hold whatever other tests of the process loaded first
/// (CLITests.StartupResourcesCLITests checks the absolute counts in fresh processes).
final class StartupResourceTests: XCTestCase, ComparesBackends {
    /// Both backends fill the same polygons; 8-bit rounding of the colour is all that is left.
    static let rounding = 2

    static let white = PixelRGBA8(r: 255, g: 255, b: 255, a: 255)
    static let black = PixelRGBA8(r: 0, g: 0, b: 0, a: 255)

    /// A copy of DejaVu Sans under a path of its own: the engine keys faces by path, so this face is opened by
    /// this test and no other.
    private func privateFontCopy() throws -> URL {
        try privateFontCopies(1)[0]
    }

    private func privateFontCopies(_ count: Int) throws -> [URL] {
        let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("startup-fonts-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return try (0 ..< count).map { i in
            let copy = dir.appendingPathComponent("DejaVuSans-\(i).ttf")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), to: copy)
            return copy
        }
    }

    /// Renderers lay out text on many threads: first uses racing on the same font still open its face once and
    /// sort its fallback list once. Twelve layouts on three private font files, each text with a CJK character
    /// DejaVu Sans lacks: three faces, three sorted lists (one per file), fontconfig once in the process.
    func testFirstUsesOnManyThreadsLoadEachResourceOnce() throws {
        let files = try privateFontCopies(3).map(\.path)
        let before = ResourceLoads.current
        let cjkWasOpen = TextEngine.shared.loadedFaces.contains { $0.glyph(for: 0x4F60) != nil }
        let results = UnsafeMutableBufferPointer<Int>.allocate(capacity: 12)
        defer { results.deallocate() }
        let box = UncheckedSendable(results)
        DispatchQueue.concurrentPerform(iterations: 12) { i in
            let span = TextSpan(string: "H\u{4F60}", font: FontRequest(file: files[i % 3], size: 20))
            box.value[i] = (try? TextEngine.shared.layout([span], maxWidth: nil))?.glyphs.count ?? -1
        }
        XCTAssertEqual(Array(results), Array(repeating: 2, count: 12), "H and 你 laid out on every thread")
        let after = ResourceLoads.current
        XCTAssertEqual(after.fontSorts - before.fontSorts, 3)
        XCTAssertEqual(after.facesOpened - before.facesOpened, 3 + (cjkWasOpen ? 0 : 1), "three copies and the CJK fallback")
        XCTAssertEqual(after.fontconfigLoads, 1)
    }

    func testARectangleLoadsNoFontAndATextDrawLoadsItsFaceOnce() throws {
        let before = ResourceLoads.current
        let rect = try render(60, 40) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            context.fill(Path(CGRect(x: 10, y: 10, width: 20, height: 10)), with: .color(.red))
        }
        XCTAssertEqual(ResourceLoads.current, before, "a frame without text opens no font and starts no fontconfig")
        assertPixel(rect, 15, 15, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))   // Color.red, iOS light mode
        assertPixel(rect, 5, 5, Self.white)

        // DejaVu Sans "H" at 40 pt, 1 px a point (40/2048 px a unit): stems at x 201…403 and 1137…1339 units,
        // 1493 units tall, the bar at y 711…881 units above the baseline, the baseline 1901 units (37.1 px) below
        // the box's top at y = 10: the left stem covers x 13.9…17.9 px, the bar y 29.9…33.2 px. Pixels chosen a
        // pixel inside those edges (glyph origins snap by up to one pixel).
        let font = Font.file(try privateFontCopy(), size: 40)
        let text = try render(60, 60) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            context.draw(Text("H").font(font).foregroundColor(.black), at: CGPoint(x: 10, y: 10), anchor: .topLeading)
        }
        let after = ResourceLoads.current
        XCTAssertEqual(after.facesOpened - before.facesOpened, 1, "the text's face, once for all the backends")
        XCTAssertEqual(after.fontconfigLoads, before.fontconfigLoads, "a font file that covers the text needs no fontconfig")
        XCTAssertEqual(after.fontSorts, before.fontSorts, "no fallback list: the face has every character")
        assertPixel(text, 15, 30, Self.black)   // left stem
        assertPixel(text, 25, 31, Self.black)   // the bar
        assertPixel(text, 25, 24, Self.white)   // between the stems, above the bar
        assertPixel(text, 5, 30, Self.white)    // left of the glyph

        // The same text again opens nothing.
        _ = try render(60, 60) { context, _ in
            context.draw(Text("H").font(font), at: CGPoint(x: 10, y: 10), anchor: .topLeading)
        }
        XCTAssertEqual(ResourceLoads.current, after)
    }

    /// The system font goes through fontconfig, started once in the process however many requests follow.
    func testFontconfigStartsOnceForTheSystemFont() throws {
        _ = try render(120, 40) { context, _ in
            context.draw(Text("Hello").font(.system(size: 17)), at: CGPoint(x: 4, y: 4), anchor: .topLeading)
            context.draw(Text("World").font(.system(size: 17, weight: .bold)), at: CGPoint(x: 60, y: 4), anchor: .topLeading)
        }
        XCTAssertEqual(ResourceLoads.current.fontconfigLoads, 1)
        let faces = TextEngine.shared.loadedFaces.map(\.familyName)
        XCTAssertTrue(faces.contains("Inter"), "\(faces)")
    }

    /// A system image's glyph comes from the icon font by path: no fontconfig, the font opened at most once.
    func testASystemImageOpensTheIconFontWithoutFontconfig() throws {
        let before = ResourceLoads.current
        let iconWasOpen = TextEngine.shared.loadedFaces.contains { $0.path == SystemImages.fontPath }
        let image = try render(48, 48) { context, _ in
            context.fill(Path(CGRect(x: 0, y: 0, width: 48, height: 48)), with: .color(.white))
            var house = context.resolve(Image(systemName: "house.fill"))
            house.shading = .color(.black)
            context.draw(house, in: CGRect(x: 0, y: 0, width: 48, height: 48))
        }
        let after = ResourceLoads.current
        XCTAssertEqual(after.fontconfigLoads, before.fontconfigLoads)
        XCTAssertEqual(after.facesOpened - before.facesOpened, iconWasOpen ? 0 : 1)
        XCTAssertTrue(TextEngine.shared.loadedFaces.contains { $0.path == SystemImages.fontPath })
        // house.fill is MDI "home" on its 24-unit grid (M10,20V14H14V20H19V12H22L12,3L2,12H5V20H10Z): its image box
        // (x 0…24, y 2…21 units) stretched over the square is 2 px a unit across and 48/19 px down. The body left
        // of the door (7, 16 units) is filled, the door (12, 17) and the top corners are not.
        assertPixel(image, 14, 35, Self.black)
        assertPixel(image, 24, 38, Self.white)
        assertPixel(image, 1, 1, Self.white)
        assertPixel(image, 46, 1, Self.white)
    }

    /// Every program and include file is read at most once, however many programs and variants use it.
    func testShaderFilesAreReadOncePerProcess() throws {
        _ = try render(40, 40) { context, size in
            context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)),
                         with: .linearGradient(Gradient(colors: [.red, .blue]), startPoint: .zero, endPoint: CGPoint(x: 40, y: 0)))
            context.blendMode = .multiply
            context.fill(Path(CGRect(x: 10, y: 10, width: 20, height: 20)), with: .color(.green))
        }
        let reads = ShaderLibrary.fileReads
        let files = ShaderLibrary.programNames.count + ShaderLibrary.includeNames.count
        XCTAssertGreaterThan(reads, 0, "GLES programs were built from the bundle")
        XCTAssertLessThanOrEqual(reads, files, "each of the \(files) files read at most once")
        let blend = try XCTUnwrap(ShaderLibrary.includeSource(named: "blend.glsl"))
        XCTAssertEqual(ShaderLibrary.includeSource(named: "blend.glsl"), blend)
        XCTAssertNil(ShaderLibrary.source(named: "no_such_program"))
        XCTAssertNil(ShaderLibrary.source(named: "no_such_program"), "a missing file is remembered as missing")
        XCTAssertNil(ShaderLibrary.source(named: "include/blend"), "a program name is a plain file name")
        let afterLookups = ShaderLibrary.fileReads
        XCTAssertLessThanOrEqual(afterLookups - reads, 1, "blend.glsl, if no program had read it; a name without a file is no read")
        _ = ShaderLibrary.includeSource(named: "blend.glsl")
        _ = ShaderLibrary.source(named: "no_such_program")
        XCTAssertEqual(ShaderLibrary.fileReads, afterLookups)
    }
}
