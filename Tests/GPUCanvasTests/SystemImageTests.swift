import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `Image(systemName:)`: the name table, the symbol's size and template shading, drawing at a point and
/// stretched into a rect, three houses with the middle one blurred (checked by colour centroids and edge
/// softness), unknown names and symbols used where pixels are needed. Every GLES form equal to the reference
/// within the default bar.
final class SystemImageTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: a glyph is a filled path, whose coverage both backends compute exactly.
    static let rounding = 1

    /// house.fill (MDI "home"): ink box 426 × 363 font units of 512, top 384 units above the baseline.
    static let houseInk = CGSize(width: 426, height: 363)
    static let houseTop: CGFloat = 384
    /// Body text is 17 pt; the icon em is 24/17 of it, 24 pt.
    static let bodyEm: CGFloat = 24
    /// Doubles of a few multiplications.
    static let arithmetic: CGFloat = 1e-9

    /// The SF Symbols names the API checklist asks for, all of which must draw.
    static let requiredNames = [
        "house", "house.fill", "circle", "circle.fill", "star", "star.fill", "heart", "heart.fill", "gear", "trash",
        "person", "person.fill", "checkmark", "xmark", "plus", "minus", "magnifyingglass", "bell", "bell.fill",
        "envelope", "phone", "camera", "photo", "folder", "doc", "calendar", "clock", "lock", "cloud", "sun.max",
        "moon", "bolt", "play", "play.fill", "pause", "stop", "arrow.up", "arrow.down", "arrow.left", "arrow.right",
        "chevron.up", "chevron.down", "chevron.left", "chevron.right", "square", "triangle", "info.circle",
        "exclamationmark.triangle", "questionmark.circle", "cart", "map", "location", "paperplane", "bookmark",
        "flag", "tag", "pencil", "square.and.arrow.up", "ellipsis", "line.3.horizontal", "wifi", "battery.100",
    ]

    func testNameTableCoverage() throws {
        XCTAssertTrue(FileManager.default.fileExists(atPath: SystemImages.fontPath),
                      "install fonts-materialdesignicons-webfont (scripts/install-deps.sh)")
        for name in Self.requiredNames {
            XCTAssertTrue(SystemImages.isSupported(name), "\(name) does not draw")
        }
        // Every entry of the table names a glyph the installed font has.
        for name in SystemImages.supportedNames {
            XCTAssertNotNil(SystemImages.symbol(named: name), "\(name) → \(SystemImages.glyphName(for: name) ?? "?")")
        }
        XCTAssertGreaterThanOrEqual(SystemImages.supportedNames.count, 150)
        // `.fill` names draw filled glyphs where the set has them: heart and heart.fill differ.
        XCTAssertNotEqual(SystemImages.glyphName(for: "heart"), SystemImages.glyphName(for: "heart.fill"))
        XCTAssertEqual(SystemImages.glyphName(for: "circle.fill"), "checkbox-blank-circle")

        // docs/system-images.md lists exactly the Swift table.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let doc = try String(contentsOf: root.appendingPathComponent("docs/system-images.md"), encoding: .utf8)
        var documented: [String: String] = [:]
        for line in doc.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            documented[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] =
                cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
        }
        XCTAssertEqual(documented, SystemImages.glyphNames)
    }

    func testResolvedSymbolIsABodySizedTemplate() {
        let r = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            let house = ctx.resolve(Image(systemName: "house.fill"))
            let k = Self.bodyEm / 512
            // The image box: the 24-unit grid across (512 units), the ink and one grid unit each side down.
            XCTAssertEqual(house.size.width, 512 * k, accuracy: Self.arithmetic)                                // 24
            XCTAssertEqual(house.size.height, (Self.houseInk.height + 2 * 512 / 24) * k, accuracy: Self.arithmetic)  // 19.02
            XCTAssertEqual(house.baseline, (Self.houseTop + 512 / 24) * k, accuracy: Self.arithmetic)           // 19
            XCTAssertEqual(house.shading, .foreground)
        }
        XCTAssertEqual(r.drawCount, 0)
    }

    /// `draw(_:in:)` stretches the glyph's image box over the rect, so the ink lands where the box's margins
    /// put it (`SystemSymbol.inkRect`); the default shading is the foreground (black).
    func testDrawInRectStretchesTheImageBox() throws {
        let rect = CGRect(x: 10, y: 10, width: 40, height: 20)
        let img = try render(60, 40) { ctx, _ in
            ctx.draw(Image(systemName: "square.fill"), in: rect)
        }
        // A filled square glyph (MDI checkbox-blank: a rounded square) stretched with its box to 40 × 20.
        let ink = try XCTUnwrap(SystemImages.symbol(named: "square.fill")).inkRect(in: rect)
        XCTAssertLessThan(ink.width, rect.width, "the box's margins inset the ink")
        let black = PixelRGBA8(r: 0, g: 0, b: 0, a: 255), clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
        let midX = Int(ink.midX), midY = Int(ink.midY)
        assertPixel(img, midX, midY, black)
        assertPixel(img, Int(ink.minX.rounded(.up)) + 1, midY, black)
        assertPixel(img, Int(ink.maxX.rounded(.down)) - 2, midY, black)
        assertPixel(img, Int(ink.minX.rounded(.down)) - 1, midY, clear)
        assertPixel(img, Int(ink.maxX.rounded(.up)), midY, clear)
        assertPixel(img, midX, Int(ink.minY.rounded(.down)) - 1, clear)
        assertPixel(img, midX, Int(ink.maxY.rounded(.up)), clear)
    }

    /// Three houses drawn 4× larger, red, green and blue, spaced by the house's width, the middle one blurred:
    /// each colour's centroid sits at its house's centre, and the blurred house has far more soft-edged pixels.
    func testThreeHousesMiddleBlurred() throws {
        let size = CGSize(width: 300, height: 120)
        let img = try render(size.width, size.height) { ctx, size in
            ctx.scaleBy(x: 4, y: 4)
            let mid = CGPoint(x: size.width / 8, y: size.height / 8)
            var house = ctx.resolve(Image(systemName: "house.fill"))
            house.shading = .color(.red)
            ctx.draw(house, at: CGPoint(x: mid.x - house.size.width, y: mid.y))
            house.shading = .color(.blue)
            ctx.draw(house, at: CGPoint(x: mid.x + house.size.width, y: mid.y))
            var blurred = ctx
            blurred.addFilter(.blur(radius: 1), options: .linearColor)
            house.shading = .color(.green)
            blurred.draw(house, at: mid)
        }
        let houseWidth = Self.bodyEm * 4   // the image box's width (the icon grid's), in pixels
        // Weighted by alpha, pixels whose strongest channel is the house's colour.
        var sum = [(x: 0.0, y: 0.0, w: 0.0), (x: 0.0, y: 0.0, w: 0.0), (x: 0.0, y: 0.0, w: 0.0)]
        var soft = [0, 0, 0]
        for y in 0 ..< img.height {
            for x in 0 ..< img.width {
                let p = img.pixel(x: x, y: y)
                guard p.a > 0 else { continue }
                let channel = [p.r, p.g, p.b].enumerated().max { $0.element < $1.element }!.offset
                let w = Double(p.a)
                sum[channel].x += w * (Double(x) + 0.5); sum[channel].y += w * (Double(y) + 0.5); sum[channel].w += w
                if p.a < 250 { soft[channel] += 1 }
            }
        }
        let expectedX = [150 - Double(houseWidth), 150, 150 + Double(houseWidth)]
        for c in 0 ..< 3 {
            XCTAssertGreaterThan(sum[c].w, 0, "colour \(c) missing")
            // A house is symmetric left–right: its centroid is its centre, to the pixel grid's rounding.
            XCTAssertEqual(sum[c].x / sum[c].w, expectedX[c], accuracy: Self.centroidTolerance, "colour \(c)")
            // Vertically the centroid lies inside the ink box (60 ± 34 px) and below its middle (the roof is narrow).
            XCTAssertGreaterThan(sum[c].y / sum[c].w, 60)
            XCTAssertLessThan(sum[c].y / sum[c].w, 94)
        }
        XCTAssertGreaterThan(soft[1], 3 * max(soft[0], soft[2]), "soft-edged pixels: \(soft)")
        // The sharp houses are solid under the roof (y 60 px: grid row 11.5 of 24, above the door) and the
        // door (grid x 10–14, rows 14–20) is a hole; the blurred house's door is filled in part.
        assertPixel(img, Int(expectedX[0]), 60, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
        assertPixel(img, Int(expectedX[2]), 60, PixelRGBA8(r: 0, g: 122, b: 255, a: 255))
        assertPixel(img, Int(expectedX[0]), 85, PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
        XCTAssertGreaterThan(img.pixel(x: 150, y: 85).a, 0)
    }

    /// Centroids of symmetric shapes: half a pixel (the glyph is not snapped to the pixel grid) plus the
    /// blur's dithering-free spread, which is symmetric.
    static let centroidTolerance = 0.75

    func testUnknownNameDrawsNothing() throws {
        XCTAssertFalse(SystemImages.isSupported("no.such.symbol"))
        XCTAssertNil(SystemImages.glyphName(for: "no.such.symbol"))
        let r = Recording(size: CGSize(width: 20, height: 20)) { ctx, _ in
            let image = ctx.resolve(Image(systemName: "no.such.symbol"))
            XCTAssertEqual(image.size, .zero)
            ctx.draw(image, at: CGPoint(x: 10, y: 10))
            ctx.draw(Image(systemName: "no.such.symbol"), in: CGRect(x: 0, y: 0, width: 20, height: 20))
        }
        XCTAssertEqual(r.drawCount, 0)
        // As SwiftUI: nothing is drawn and the frame goes on (lenient, the default), and the render says why;
        // a strict renderer refuses the frame with the same words.
        let expected = #"invalid image: Image(systemName: "no.such.symbol"): no such system image (docs/system-images.md lists the names); it draws nothing"#
        for backend in [CanvasRenderer.Backend.reference, .gles(GLESOptions(device: .mesa))] {
            let renderer = try CanvasRenderer(backend: backend)
            let img = try renderer.render(size: CGSize(width: 20, height: 20)) { ctx, _ in
                ctx.draw(Image(systemName: "no.such.symbol"), in: CGRect(x: 0, y: 0, width: 20, height: 20))
            }
            XCTAssertTrue(img.pixels.allSatisfy { $0 == 0 }, "\(backend)")
            XCTAssertEqual(renderer.lastReport.diagnostics.map(\.description), [expected], "\(backend)")
            XCTAssertEqual(renderer.lastReport.diagnostics.first?.kind, .unknownSystemImage)
            XCTAssertThrowsError(try SharedRenderers.renderer(backend).render(r)) { XCTAssertEqual("\($0)", expected) }
        }
    }

    /// A symbol has no pixels to tile: both backends refuse it with the same words.
    func testTiledSymbolIsAnErrorOnBothBackends() throws {
        var messages: [String] = []
        for (name, renderer) in try renderers() {
            do {
                _ = try renderer.render(size: CGSize(width: 10, height: 10)) { ctx, _ in
                    ctx.fill(Path(CGRect(x: 0, y: 0, width: 10, height: 10)), with: .tiledImage(Image(systemName: "star")))
                }
                XCTFail("\(name) drew a tiled symbol")
            } catch {
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertTrue(messages[0].contains("system image \"star\" has no pixels"), messages[0])
    }

    // MARK: Scene format

    /// `resources.images` takes `{"systemName": …}`: the image op draws it as the API does (same recording);
    /// the encoder writes the recorded glyph fill, which loads back to the same recording.
    func testSceneSystemNameSource() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [60, 40], "resources": {"images": {"house": {"systemName": "house.fill"}}}, "commands": [{"op": "image", "image": "house", "at": [30, 20], "shading": {"color": {"space": "sRGB", "rgba": [1, 0, 0, 1]}}}, {"op": "image", "image": "house", "in": [0, 0, 10, 10]}]}"#
        let scene = try Scene(jsonData: Data(json.utf8))
        let direct = Recording(size: CGSize(width: 60, height: 40)) { ctx, _ in
            var house = ctx.resolve(Image(systemName: "house.fill"))
            house.shading = .color(Color(red: 1, green: 0, blue: 0))
            ctx.draw(house, at: CGPoint(x: 30, y: 20), anchor: UnitPoint(x: 0.5, y: 0.5))
            ctx.draw(Image(systemName: "house.fill"), in: CGRect(x: 0, y: 0, width: 10, height: 10))
        }
        XCTAssertEqual(scene.recording, direct)
        XCTAssertEqual(scene.recording.drawCount, 2)
        let reloaded = try Scene(jsonData: Data(direct.sceneJSON().utf8))
        XCTAssertEqual(reloaded.recording, direct)

        func error(_ json: String) -> String {
            do { _ = try Scene(jsonData: Data(json.utf8)); return "no error" } catch { return "\(error)" }
        }
        let unknown = error(#"{"format": "gpucanvas-scene/1", "size": [9, 9], "resources": {"images": {"x": {"systemName": "no.such"}}}, "commands": []}"#)
        XCTAssertTrue(unknown.contains("resources.images.x.systemName: unknown system image \"no.such\""), unknown)
        let extra = error(#"{"format": "gpucanvas-scene/1", "size": [9, 9], "resources": {"images": {"x": {"systemName": "star", "scale": 2}}}, "commands": []}"#)
        XCTAssertTrue(extra.contains("scale"), extra)
        let tiled = error(#"{"format": "gpucanvas-scene/1", "size": [9, 9], "resources": {"images": {"x": {"systemName": "star"}}}, "commands": [{"op": "fill", "path": {"rect": [0, 0, 9, 9]}, "shading": {"tiledImage": "x"}}]}"#)
        XCTAssertTrue(tiled.contains("system image \"star\" cannot be tiled"), tiled)
    }
}
