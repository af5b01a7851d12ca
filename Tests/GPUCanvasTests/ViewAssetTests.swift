import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Asset catalogs: colour sets and image sets read from an Assets.xcassets folder; unknown names reported.
final class ViewAssetTests: XCTestCase {
    static let interior = 2
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("assets-\(UUID().uuidString)/Assets.xcassets")
        func write(_ path: String, _ json: String) throws {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try json.write(to: url, atomically: true, encoding: .utf8)
        }
        try write("Contents.json", #"{"info": {"author": "xcode", "version": 1}}"#)
        // A dark appearance listed first: the any-appearance entry must win.
        try write("Brand.colorset/Contents.json", """
        {"colors": [
          {"appearances": [{"appearance": "luminosity", "value": "dark"}],
           "color": {"color-space": "srgb", "components": {"alpha": "1.000", "red": "1.000", "green": "1.000", "blue": "1.000"}},
           "idiom": "universal"},
          {"color": {"color-space": "srgb", "components": {"alpha": "1.000", "red": "0.200", "green": "0.400", "blue": "0.600"}},
           "idiom": "universal"}
        ], "info": {"author": "xcode", "version": 1}}
        """)
        try write("Group/Accent.colorset/Contents.json", """
        {"colors": [{"color": {"color-space": "srgb", "components": {"alpha": "0xFF", "red": "255", "green": "0x80", "blue": "0"}},
                     "idiom": "universal"}]}
        """)
        try write("Logo.imageset/Contents.json", """
        {"images": [{"filename": "logo.png", "idiom": "universal", "scale": "2x"}, {"idiom": "universal", "scale": "1x"}]}
        """)
        // 4 × 4 px of opaque green at 2×: a 2 × 2 pt image.
        let green = RasterImage(width: 4, height: 4, pixels: Array(repeating: [0, 255, 0, 255], count: 16).flatMap { $0 })
        try green.pngData().write(to: folder.appendingPathComponent("Logo.imageset/logo.png"))
        try AssetCatalog.use(folder)
    }

    override func tearDown() {
        AssetCatalog.reset()
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    func testColorsAndImagesResolve() throws {
        XCTAssertEqual(AssetCatalog.colorNames, ["Accent", "Brand"])
        XCTAssertEqual(AssetCatalog.imageNames, ["Logo"])
        XCTAssertEqual(Color("Brand"), Color(.sRGB, red: 0.2, green: 0.4, blue: 0.6))
        XCTAssertEqual(Color("Accent"), Color(.sRGB, red: 1, green: 128.0 / 255, blue: 0))
        let view = HStack(spacing: 0) {
            Color("Brand").frame(width: 10, height: 10)
            Image("Logo").resizable().interpolation(.none).frame(width: 10, height: 10)
        }
        XCTAssertEqual(ViewTesting.first(ImageNode.self, in: ViewTesting.tree(Image("Logo")))!.sizeThatFits(.unspecified),
                       CGSize(width: 2, height: 2))
        let image = try ViewTesting.render(view, size: CGSize(width: 20, height: 10))
        ViewTesting.assertPixel(image, 5, 5, PixelRGBA8(r: 51, g: 102, b: 153, a: 255), tolerance: Self.interior)
        ViewTesting.assertPixel(image, 15, 5, PixelRGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: Self.interior)
    }

    func testUnknownNamesDrawNothingAndAreReported() throws {
        let renderer = try CanvasRenderer(backend: .reference)
        // Names are reported when a body that looks them up is built (as in an app's views).
        struct Card: View {
            var body: some View { ZStack { Color("Missing"); Image("nothing-here").resizable() }.frame(width: 10, height: 10) }
        }
        let view = Card()
        let image = try ImageRenderer(content: view).render(with: renderer)
        XCTAssertEqual(image.pixel(x: 5, y: 5), ViewTesting.transparent)
        XCTAssertEqual(renderer.lastReport.diagnostics.map(\.kind), [.unknownAsset, .unknownAsset])
        XCTAssertEqual(renderer.lastReport.diagnostics.map(\.description), [
            "missing asset: Image(\"nothing-here\"): no image set of that name in the asset catalog (AssetCatalog.use) and no such file; it draws nothing",
            "missing asset: Color(\"Missing\"): no colour set of that name in the asset catalog (AssetCatalog.use); it is clear",
        ])
        renderer.diagnosticsPolicy = .strict
        XCTAssertThrowsError(try ImageRenderer(content: view).render(with: renderer)) { error in
            XCTAssertEqual(error as? RenderError, .missingAsset(
                "Image(\"nothing-here\"): no image set of that name in the asset catalog (AssetCatalog.use) and no such file; it draws nothing"))
        }
    }

    func testBadCatalogsAreErrorsNamingTheFile() throws {
        let bad = folder.appendingPathComponent("Bad.colorset/Contents.json")
        try FileManager.default.createDirectory(at: bad.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #"{"colors": [{"color": {"color-space": "srgb", "components": {"red": "lots", "green": "0", "blue": "0"}}}]}"#
            .write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AssetCatalog.use(folder)) { error in
            XCTAssertEqual("\(error)", "\(bad.path): colour component \"red\" is \"lots\", not a number")
        }
        try "{not json".write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try AssetCatalog.use(folder)) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(bad.path): not readable JSON"), "\(error)")
        }
        XCTAssertThrowsError(try AssetCatalog.use(folder.appendingPathComponent("nope"))) { error in
            XCTAssertTrue("\(error)".hasSuffix("nope: no such folder"), "\(error)")
        }
    }
}
