import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// What the feature tests share: the backends they compare (the reference and the GLES forms a user can
/// select: both path strategies, the raster atlas's R8 coverage form, both blend routes), rendering one closure
/// on all of them with docs/DESIGN-NOTES.md's bar between each GLES image and the reference, and a pixel assertion.
enum BackendComparison {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// The GLES forms the feature tests run, by the `canvas-gl` flags that select them.
    static let glesForms: [(name: String, options: GLESOptions)] = [
        ("raster-atlas", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)),
        ("raster-atlas-r8", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false)),
        ("gpu-tessellation", GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)),
        ("raster-atlas-copy", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, blendRoute: .destinationCopy)),
        ("gpu-tessellation-copy", GLESOptions(device: .mesa, pathStrategy: .gpuTessellation, blendRoute: .destinationCopy)),
    ]

    /// The reference first, then every GLES form, under `.strict`: made once per process and shared
    /// (`SharedRenderers`).
    static func renderers() throws -> [(name: String, renderer: SharedRenderer)] {
        var list = [("reference", try SharedRenderers.renderer(.reference))]
        for (name, o) in glesForms { list.append((name, try SharedRenderers.renderer(.gles(o)))) }
        return list
    }

    /// Renders `draw` on every backend, checks each GLES image against the reference's, returns the reference's.
    @discardableResult
    static func render(_ w: CGFloat, _ h: CGFloat, scale: CGFloat = 1, colorMode: ColorRenderingMode = .nonLinear,
                       file: StaticString, line: UInt, _ draw: Draw) throws -> RasterImage {
        let all = try renderers()
        func image(_ r: SharedRenderer) throws -> RasterImage {
            try r.render(size: CGSize(width: w, height: h), scale: scale, colorMode: colorMode, draw)
        }
        // The reference beside the GLES forms (`Concurrently`).
        let (reference, gles) = try Concurrently.run({ try image(all[0].renderer) },
                                                     { try all.dropFirst().map { try image($0.renderer) } })
        let images = [reference] + gles
        for (i, image) in images.enumerated().dropFirst() {
            let d = image.difference(from: images[0])
            XCTAssertTrue(d.meetsDefaultBar, "\(all[i].name): \(d)", file: file, line: line)
        }
        return images[0]
    }

    /// Asserts pixel (x, y) is `expected` within `tolerance` in every channel.
    static func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: PixelRGBA8, tolerance: Int,
                            file: StaticString, line: UInt) {
        let p = image.pixel(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(expected.r)), abs(Int(p.g) - Int(expected.g)),
                    abs(Int(p.b) - Int(expected.b)), abs(Int(p.a) - Int(expected.a)))
        XCTAssertLessThanOrEqual(d, tolerance, "pixel (\(x), \(y)) = \(p), expected \(expected)", file: file, line: line)
    }
}

extension BackendComparison {
    /// Asserts every renderer in `backends` refuses `draw` on a 10 × 10 canvas, all with one message that begins
    /// with `expected` (one verdict, the same words: the checks live in the shared lowering).
    static func assertSameRefusal(_ name: String, _ expected: String, _ backends: [(String, SharedRenderer)],
                                  file: StaticString = #filePath, line: UInt = #line,
                                  _ draw: (inout GraphicsContext, CGSize) -> Void) {
        var messages: [String] = []
        for (backend, r) in backends {
            do {
                _ = try r.render(size: CGSize(width: 10, height: 10), draw)
                XCTFail("\(name): \(backend) drew it", file: file, line: line)
            } catch {
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(Set(messages).count, 1, "\(name): \(messages)", file: file, line: line)
        XCTAssertTrue(messages.first?.hasPrefix(expected) == true, "\(name): \(messages.first ?? "") ≠ \(expected)…",
                      file: file, line: line)
    }
}

/// A test case that compares backends: `render` and `assertPixel` with the case's default tolerance.
protocol ComparesBackends: XCTestCase {
    /// The tolerance `assertPixel` uses when none is given, with the reason at its definition.
    static var rounding: Int { get }
}

extension ComparesBackends {
    func renderers() throws -> [(name: String, renderer: SharedRenderer)] { try BackendComparison.renderers() }

    @discardableResult
    func render(_ w: CGFloat, _ h: CGFloat, scale: CGFloat = 1, colorMode: ColorRenderingMode = .nonLinear,
                file: StaticString = #filePath, line: UInt = #line, _ draw: BackendComparison.Draw) throws -> RasterImage {
        try BackendComparison.render(w, h, scale: scale, colorMode: colorMode, file: file, line: line, draw)
    }

    func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: PixelRGBA8, tolerance: Int? = nil,
                     file: StaticString = #filePath, line: UInt = #line) {
        BackendComparison.assertPixel(image, x, y, expected, tolerance: tolerance ?? Self.rounding, file: file, line: line)
    }
}
