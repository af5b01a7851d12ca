import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Every narrowing conversion of a user-derived number in Lowering, GLES, Geometry and Reference, one class per
/// test, driven at its boundary: 2¹⁵ − 1 and 2¹⁵ px (GLES's 16-bit instance coordinates), 2³¹ px (Int32, GL's
/// GLint), 10³⁰⁰ (Double-only), and Float's largest value ± 1 ulp where a value is packed as Float. At each,
/// every backend must draw the same picture or refuse with the same words (docs/fuzz-findings.md lists the
/// conversions and the check that bounds each).
final class NarrowingBoundaryTests: XCTestCase {
    /// The conformance bar between backends (docs/DESIGN-NOTES.md).
    static let barMaxDiff = 8
    static let barOver2 = 0.001

    static let backends: [(name: String, backend: CanvasRenderer.Backend)] = [
        ("reference", .reference),
        ("raster-atlas", .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas))),
        ("gpu-tessellation", .gles(GLESOptions(device: .mesa, pathStrategy: .gpuTessellation))),
    ]

    enum Outcome { case drawn(RasterImage), refused(String) }

    /// The scene on every backend: the reference's picture when all draw it alike, or the one message when all
    /// refuse it. Fails on any other mix.
    @discardableResult
    func outcome(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> Outcome {
        let s = try Scene(jsonData: Data(json.utf8))
        var images: [(String, RasterImage)] = [], errors: [(String, String)] = []
        let results = try Concurrently.map(Self.backends) { name, backend in
            (name, Result { try SharedRenderers.renderer(backend, policy: .lenient).render(s.recording, scale: s.scale) })
        }
        for (name, result) in results {
            switch result {
            case .success(let image): images.append((name, image))
            case .failure(let error): errors.append((name, "\(error)"))
            }
        }
        if images.isEmpty {
            XCTAssertEqual(Set(errors.map(\.1)).count, 1, "\(errors)", file: file, line: line)
            return .refused(errors[0].1)
        }
        XCTAssertTrue(errors.isEmpty, "some backends refused: \(errors)", file: file, line: line)
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: images[0].1)
            XCTAssertTrue(d.meets(maxDiff: Self.barMaxDiff, over2: Self.barOver2), "\(name): \(d)", file: file, line: line)
        }
        return .drawn(images[0].1)
    }

    func alpha(_ o: Outcome, _ x: Int, _ y: Int) -> Int? {
        if case .drawn(let i) = o { return Int(i.pixel(x: x, y: y).a) }
        return nil
    }

    static let boundaries = ["32767", "32768", "2147483648", "1e300"]

    /// Path boxes (`Lowering` box → `PixelRect`, the cover bands' `Int16` x/y/w/h, the reference's row and
    /// column `Int(…)`): clamped to the target before any conversion. A rect drawn at each boundary and
    /// translated back onto the canvas fills it; left there, it draws nothing.
    func testPathBoxesAtTheBoundaries() throws {
        for v in Self.boundaries {
            let back = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"translate","x":-"# + v + #","y":0},{"op":"fill","path":{"rect":["# + v + #",0,4,4]},"shading":{"color":"black"}}]}"#
            let o = try outcome(back)
            // 1e300 − 1e300 + 4 is not 4 in Double: the rect collapses; the others land on pixels 0…3.
            if v != "1e300" { XCTAssertEqual(alpha(o, 1, 1), 255, v); XCTAssertEqual(alpha(o, 5, 5), 0, v) }
            let away = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"fill","path":{"rect":["# + v + #","# + v + #",4,4]},"shading":{"color":"black"}},{"op":"fill","path":{"rect":[0,0,2,2]},"shading":{"color":"black"}}]}"#
            let a = try outcome(away)
            XCTAssertEqual(alpha(a, 0, 0), 255, v)
            XCTAssertEqual(alpha(a, 7, 7), 0, v)
        }
    }

    /// Filter offsets (`FilterPlanning`'s `Int(d.rounded(.down))`, the filter passes' `Int16` boxes and shifts,
    /// the shadow parameters' `Float`): `FilterResolution` refuses offsets past 10⁶; inside, an `invertsAlpha`
    /// shadow's offset is brought near the canvas (`nearestPlaneOffset`) and a plain one's boxes stay at its
    /// input.
    func testShadowOffsetsAtTheBoundaries() throws {
        for v in Self.boundaries {
            for options in [#"["invertsAlpha"]"#, "[]"] {
                let json = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"filter","filter":{"shadow":{"radius":2,"x":"# + v + #","y":-"# + v + #","options":"# + options + #"}}},{"op":"fill","path":{"rect":[0,0,4,4]},"shading":{"color":"black"}}]}"#
                let o = try outcome(json)
                if ["32767", "32768"].contains(v) {
                    // The fill draws; the inverted shadow covers the rest (0.33 black), a plain one is off-canvas.
                    XCTAssertEqual(alpha(o, 1, 1), 255, "\(v) \(options)")
                    XCTAssertEqual(alpha(o, 6, 6), options == "[]" ? 0 : 84, "\(v) \(options)")
                } else if case .refused(let m) = o {
                    XCTAssertTrue(m.contains("offset is more than 10^6 device pixels"), m)
                } else {
                    XCTFail("\(v) \(options) drew")
                }
            }
        }
    }

    /// Gradient numbers packed as `Float` (`GradientPaint.packedTexels`): beyond Float's range both refuse
    /// (`numbers are beyond the range a GPU evaluates gradients in`); at its largest value they are refused by
    /// the precision rules first or draw alike. Float's max − 1 ulp, max, and max + 1 ulp (which `Float(…)`
    /// rounds to infinity) as a linear gradient's end.
    func testGradientNumbersAtFloatsLimit() throws {
        let max = Double(Float.greatestFiniteMagnitude)
        let ulp = Double(Float.greatestFiniteMagnitude.ulp)
        for v in [max - ulp, max, max + ulp, 1e300] {
            let json = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"fill","path":{"rect":[0,0,8,8]},"shading":{"linearGradient":{"colors":["red","blue"]},"start":[0,0],"end":["# + "\(v)" + #",0]}}]}"#
            let o = try outcome(json)
            // t = x / v is below 10⁻³⁷ on the canvas: the first stop's red, fully opaque.
            if case .drawn(let i) = o {
                XCTAssertEqual(i.pixel(x: 4, y: 4).r, 255, "\(v)")
                XCTAssertEqual(i.pixel(x: 4, y: 4).a, 255, "\(v)")
            } else if case .refused(let m) = o {
                XCTAssertTrue(m.contains("beyond the range a GPU evaluates gradients in"), "\(v): \(m)")
                XCTAssertGreaterThan(v, max, "Float's max itself is packable")
            }
        }
    }

    /// Image placements packed as `Float` (`LoweredImage.packedTexels` clamps translations to ±10⁹ texels; the
    /// reference clamps the point before `Int(…)`): a tiled image's origin at each boundary draws alike.
    func testImagePlacementsAtTheBoundaries() throws {
        let png = FuzzDefectTests.redOverBluePNG
        for v in Self.boundaries + ["\(Double(Float.greatestFiniteMagnitude))"] {
            let json = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"fill","path":{"rect":[0,0,8,8]},"shading":{"tiledImage":"a","origin":["# + v + #",0],"scale":4}}],"resources":{"images":{"a":{"pngBase64":""# + png + #""}}}}"#
            let o = try outcome(json)
            XCTAssertEqual(alpha(o, 4, 4), 255, v)
        }
    }

    /// Text origins (`TextLowering.snapped`'s `Int(…)` of the glyph's device pixel): beyond 2³⁰ px the glyph is
    /// skipped; at 2¹⁵ it is off an 8-pixel canvas; both draw the rest alike.
    func testTextOriginsAtTheBoundaries() throws {
        for v in Self.boundaries {
            let json = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"text","text":"Hi","font":{"size":10},"at":["# + v + #",4]},{"op":"fill","path":{"rect":[0,0,2,2]},"shading":{"color":"black"}}]}"#
            let o = try outcome(json)
            XCTAssertEqual(alpha(o, 0, 0), 255, v)
            XCTAssertEqual(alpha(o, 6, 6), 0, v)
        }
    }

    /// Stroke and dash counts (`Stroke`'s and `Flatten`'s `Int(…)` of estimated segment counts, capped before
    /// converting): a line width of 2¹⁵ and 10³⁰⁰ and a dash of 2⁻³¹.
    func testStrokeCountsAtTheBoundaries() throws {
        try TestTier.requireThorough()
        for (width, dash) in [("32768", "[1]"), ("1e300", "[]"), ("1", "[4.656612873077393e-10]")] {
            let json = #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":[{"op":"stroke","path":"0 4 m 8 4 l","shading":{"color":"black"},"lineWidth":"# + width + #","dash":"# + dash + #"}]}"#
            try outcome(json)
        }
    }

    /// Paint-data rows (`CompositeGather`'s `Int16` paint row, one texture row each): 2¹⁵ draws of one
    /// gradient trapped (`Int16(row)`), and 16 385 passed the texture's height (a GL error). Equal rows are now
    /// shared, so they draw alike; more distinct rows than GLES holds are refused by GLES (a GLES limit, as the
    /// clip-mask budget is), never a trap.
    func testPaintRowsAtTheBoundaries() throws {
        try TestTier.requireThorough()
        func json(_ count: Int, distinct: Bool) -> String {
            let draws = (0 ..< count).map { i in
                #"{"op":"fill","path":{"rect":["# + "\(i % 8)" + #",0,1,1]},"shading":{"linearGradient":{"colors":["red","blue"]},"start":[0,0],"end":["# + (distinct ? "\(8 + Double(i) / 1024)" : "8") + #",0]}}"#
            }
            return #"{"format":"gpucanvas-scene/1","size":[8,8],"commands":["# + draws.joined(separator: ",") + "]}"
        }
        let o = try outcome(json(32768, distinct: false))
        if case .drawn(let i) = o {
            XCTAssertEqual(i.pixel(x: 0, y: 0).a, 255)
            XCTAssertGreaterThan(i.pixel(x: 0, y: 0).r, i.pixel(x: 7, y: 0).r)  // red → blue along x
            XCTAssertEqual(i.pixel(x: 0, y: 1).a, 0)
        } else { XCTFail("refused") }
        let s = try Scene(jsonData: Data(json(16385, distinct: true).utf8))
        XCTAssertNoThrow(try CanvasRenderer(backend: .reference).render(s.recording, scale: s.scale))
        XCTAssertThrowsError(try SharedRenderers.renderer(Self.backends[1].backend, policy: .lenient).render(s.recording, scale: s.scale)) {
            XCTAssertTrue("\($0)".contains("the frame needs 16385 distinct gradient, image, mesh gradient and filter parameter rows; GLES holds at most 16384"), "\($0)")
        }
    }
}
