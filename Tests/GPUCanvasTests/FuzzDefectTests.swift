import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Scenes that random valid scenes found wrong, each rendered from its scene document on the reference and on
/// GLES with both path strategies (llvmpipe, pinned with `.mesa`), with the pixels checked against the
/// expected coverage and against each other.
final class FuzzDefectTests: XCTestCase {
    /// Aliased coverage is 0 or 255 per pixel and every backend decides each centre exactly (ties
    /// included): any difference is a wrong decision, so none is allowed.
    static let aliasedTolerance = 0
    /// One 8-bit step: an exact anti-aliased coverage may round to either side of a half.
    static let roundingTolerance = 1
    /// The project's conformance bar between backends for anti-aliased scenes (`compare`, docs/DESIGN-NOTES.md): the
    /// backends share the geometry but accumulate coverage with different arithmetic, so no channel may be
    /// off by more than 8…
    static let barMaxDiff = 8
    /// …and at most 0.1 % of the pixels by more than 2 (one 8-bit rounding each side plus one step).
    static let barOver2 = 0.001

    static let backends: [(name: String, backend: CanvasRenderer.Backend)] = [
        ("reference", .reference),
        ("raster-atlas", .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas))),
        ("gpu-tessellation", .gles(GLESOptions(device: .mesa, pathStrategy: .gpuTessellation))),
    ]

    func scene(_ json: String) throws -> Scene {
        try Scene(jsonData: Data(json.utf8))
    }

    /// The scene on every backend, the reference first.
    func renderAll(_ json: String) throws -> [(name: String, image: RasterImage)] {
        let s = try scene(json)
        return try Concurrently.map(Self.backends) { ($0.name, try SharedRenderers.renderer($0.backend).render(s.recording, scale: s.scale)) }
    }

    /// Renders `json` on every backend, each of which must throw; returns the distinct messages (one when the
    /// backends agree, as they must).
    func errorsOnEveryBackend(_ json: String, file: StaticString = #filePath, line: UInt = #line) throws -> Set<String> {
        let s = try scene(json)
        var messages = Set<String>()
        let results = try Concurrently.map(Self.backends) { name, backend in
            (name, Result { try SharedRenderers.renderer(backend).render(s.recording, scale: s.scale) })
        }
        for (name, result) in results {
            XCTAssertThrowsError(try result.get(), name, file: file, line: line) { messages.insert("\($0)") }
        }
        return messages
    }

    func alpha(_ image: RasterImage, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).a) }

    /// Asserts every image equals the first (the reference) within `maxDiff` / `over2`.
    func assertSame(_ images: [(name: String, image: RasterImage)], maxDiff: Int, over2: Double,
                    file: StaticString = #filePath, line: UInt = #line) {
        let reference = images[0].image
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: reference)
            XCTAssertTrue(d.meets(maxDiff: maxDiff, over2: over2), "\(name) vs reference: \(d)", file: file, line: line)
        }
    }

    // MARK: 1. A stroke whose centreline overflows in device space

    /// `0 -1e308 m 5 5 l h` at scale 2 puts a centreline point at y = −2·10³⁰⁸ = −∞ in device space. The
    /// stroke's culling cut that edge with `EdgeCut` and hit its finiteness precondition (a crash on every
    /// backend); now it is the same clean error on all three, and the fill of the path is an error too.
    func testStrokeOverflowingInDeviceSpaceIsAnErrorOnEveryBackend() throws {
        let stroke = #"{"format":"gpucanvas-scene/1","size":[10,10],"scale":2,"commands":[{"op":"stroke","path":"0 -1e308 m 5 5 l h","shading":{"color":"black"}}]}"#
        var messages: [String] = []
        for (name, backend) in Self.backends {
            let s = try scene(stroke)
            XCTAssertThrowsError(try SharedRenderers.renderer(backend).render(s.recording, scale: s.scale), name) { error in
                messages.append("\(error)")
            }
        }
        XCTAssertEqual(messages.count, 3)
        XCTAssertEqual(Set(messages).count, 1, "\(messages)")
        XCTAssertTrue(messages[0].hasPrefix("invalid geometry: draw #0: device coordinates overflow"), messages[0])
        let fill = stroke.replacingOccurrences(of: #""op":"stroke""#, with: #""op":"fill""#)
        for (name, backend) in Self.backends {
            let s = try scene(fill)
            XCTAssertThrowsError(try SharedRenderers.renderer(backend).render(s.recording, scale: s.scale), name) { error in
                XCTAssertTrue("\(error)".hasPrefix("invalid geometry: draw #0:"), "\(name): \(error)")
            }
        }
    }

    /// The same path at scale 1 stays finite and draws: from (5, 5) up to 10³⁰⁸ px above the canvas and back,
    /// a vertical line 1 px wide at x = 5 (the edge leans by 5·10⁻³⁰⁸) over rows 0…4, ending flat at y = 5
    /// (a 180° miter falls back to a bevel). The subpath retraces itself, so its outline covers the line
    /// twice (Stroke.swift, known limits): columns 4 and 5 are half covered with winding 2, coverage
    /// min(2 · ½, 1) = 1, and everything else is empty.
    func testStrokeWithAFarPointDrawsItsVisiblePart() throws {
        let images = try renderAll(#"{"format":"gpucanvas-scene/1","size":[10,10],"scale":1,"commands":[{"op":"stroke","path":"0 -1e308 m 5 5 l h","shading":{"color":"black"}}]}"#)
        for (name, image) in images {
            for y in 0 ..< 10 {
                for x in 0 ..< 10 {
                    let expected = (x == 4 || x == 5) && y < 5 ? 255 : 0
                    XCTAssertLessThanOrEqual(abs(alpha(image, x, y) - expected), Self.roundingTolerance,
                                             "\(name) (\(x), \(y)) = \(alpha(image, x, y)), expected \(expected)")
                }
            }
        }
        assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
    }

    // MARK: 2. Aliased coverage: a centre on (or within ulps of) an edge

    /// The zero-width ellipse [1.5, 0, 0, 40]: its flattened points lie at x = 1.5 + {−2, −1, 0, 1} ulps, so
    /// its edges run through, or within ulps of, the centres of column 1. The top-left rule (a centre counts
    /// an edge crossing at or left of it; ARCHITECTURE.md) decides each one: where the polygon's sliver is
    /// [1.5, 1.5 + ulp) the centre is inside, where the down and up edges both pass exactly through it or the
    /// sliver lies left of it, outside. The raster atlas decided these with the rounded textbook cut and GPU
    /// tessellation in f32, and each disagreed with the reference by 255 on 8 to 18 pixels.
    /// The expected column was checked with exact rational arithmetic on the flattened points (it follows
    /// `Flatten.cubic`'s last bits: recheck it if those change).
    func testZeroWidthEllipseAliasedAgreesOnEveryBackend() throws {
        let images = try renderAll(#"{"format":"gpucanvas-scene/1","size":[2,40],"commands":[{"op":"fill","path":{"ellipse":[1.5,0,0,40]},"shading":{"color":"black"},"antialiased":false}]}"#)
        let column1 = ".##......#######........#######......##."
        for (name, image) in images {
            for (y, c) in column1.enumerated() {
                XCTAssertEqual(alpha(image, 0, y), 0, "\(name) (0, \(y))")
                XCTAssertEqual(alpha(image, 1, y), c == "#" ? 255 : 0, "\(name) (1, \(y))")
            }
        }
        assertSame(images, maxDiff: Self.aliasedTolerance, over2: 0)
    }

    /// Near-ties built on purpose. A sliver triangle (1.5, 0) (1.5, 40) (1.5 + 8 ulps, 40): its left edge
    /// runs exactly through the centres of column 1 (counted: inside), its right edge crosses every row
    /// right of them, by 2.2·10⁻¹⁷ px at row 0 (not counted), so column 1 is covered on all 40 rows and
    /// nothing else. The rounded textbook cut put the top rows' crossings onto the centre, f32 every row's.
    /// A rectangle from x = 4.5 to 6.5 has centres exactly on both sides: the left one is inside, the right
    /// one outside (columns 4 and 5), and one from y = 0.5 to 2.5 takes rows 0 and 1.
    func testCentresWithinUlpsOfAnEdgeFollowTheTopLeftRule() throws {
        let ulp8 = 1.5 + 8 * (1.5).ulp
        let images = try renderAll(#"{"format":"gpucanvas-scene/1","size":[8,40],"commands":["# + #"""
            {"op":"fill","path":{"elements":[["m",1.5,0],["l",1.5,40],["l",\#(ulp8),40],["z"]]},"shading":{"color":"black"},"antialiased":false},
            {"op":"fill","path":{"elements":[["m",4.5,0.5],["l",6.5,0.5],["l",6.5,2.5],["l",4.5,2.5],["z"]]},"shading":{"color":"black"},"antialiased":false}
            """# + "]}")
        for (name, image) in images {
            for y in 0 ..< 40 {
                for x in 0 ..< 8 {
                    let inside = x == 1 || ((x == 4 || x == 5) && y < 2)
                    XCTAssertEqual(alpha(image, x, y), inside ? 255 : 0, "\(name) (\(x), \(y))")
                }
            }
        }
        assertSame(images, maxDiff: Self.aliasedTolerance, over2: 0)
    }

    // MARK: 3. Aliased coverage far from the origin (GPU tessellation)

    /// Edges within 10⁻⁵ px of centres at x ≈ 1300: f32 atlas coordinates (ulp 1.2·10⁻⁴ there) put them on
    /// the centres, and GPU tessellation's shader then counted crossings that lie right of them. Row 0 is
    /// the fuzz scene (right edge 1339.50001: centre 1339.5 inside), row 1 the exact tie (right edge 1339.5:
    /// outside), rows 2 and 3 left edges at 100.5 (inside) and 100.50001 (outside), with right edges at
    /// 1300.5 (outside) and 1300.50001 (inside). The canvas is wider than one atlas piece (1024 px), so the
    /// rows cross a piece border too.
    func testAliasedEdgesNearCentresFarFromTheOrigin() throws {
        let fuzz = #"{"format":"gpucanvas-scene/1","size":[1400,4],"commands":[{"op":"fill","path":{"rect":[0,0,1339.50001,4]},"shading":{"color":"black"},"antialiased":false}]}"#
        for (name, image) in try renderAll(fuzz) {
            for y in 0 ..< 4 {
                for x in [0, 1023, 1024, 1338, 1339] { XCTAssertEqual(alpha(image, x, y), 255, "\(name) (\(x), \(y))") }
                for x in [1340, 1341, 1399] { XCTAssertEqual(alpha(image, x, y), 0, "\(name) (\(x), \(y))") }
            }
        }
        // One rect per row: (x, width).
        let rows = [("0", "1339.50001"), ("0", "1339.5"), ("100.5", "1200"), ("100.50001", "1200")]
        let commands = rows.enumerated().map { y, r in
            #"{"op":"fill","path":{"rect":[\#(r.0),\#(y),\#(r.1),1]},"shading":{"color":"black"},"antialiased":false}"#
        }
        let ties = #"{"format":"gpucanvas-scene/1","size":[1400,4],"commands":["# + commands.joined(separator: ",") + "]}"
        // Per row, the covered columns.
        let covered = [0 ... 1339, 0 ... 1338, 100 ... 1299, 101 ... 1300]
        let images = try renderAll(ties)
        for (name, image) in images {
            for (y, columns) in covered.enumerated() {
                for x in [0, 99, 100, 101, 1023, 1024, 1299, 1300, 1301, 1338, 1339, 1340, 1399] {
                    XCTAssertEqual(alpha(image, x, y), columns.contains(x) ? 255 : 0, "\(name) (\(x), \(y))")
                }
            }
        }
        assertSame(images, maxDiff: Self.aliasedTolerance, over2: 0)
    }

    // MARK: 4. Dashes counted along off-canvas length

    /// A [1] dash (on 1, off 1) along y = 10 from x = −2·10⁶ to 100, 1 px wide with butt caps: 10⁶ dashes
    /// along the path, ~50 of them on the canvas. Dashing made all 10⁶ before culling, so the dash budget
    /// refused the stroke. Now the off-canvas stretch is skipped by arithmetic: as 2·10⁶ is a whole number
    /// of periods, the dashes on the canvas cover x ∈ [2m, 2m + 1], i.e. even columns, half of each of rows
    /// 9 and 10 (alpha 127.5), and odd columns not at all. The same with the far end at x = −10¹² (beyond
    /// 2²⁴ px: cut in device space with `EdgeCut`), and both equal a line starting at x = −4.
    func testDashesAlongAnOffCanvasStretchRender() throws {
        let fuzz = #"{"format":"gpucanvas-scene/1","size":[100,20],"commands":[{"op":"stroke","path":{"elements":[["m",-2000000,10],["l",100,10]]},"shading":{"color":"black"},"dash":[1]}]}"#
        let far = fuzz.replacingOccurrences(of: "-2000000", with: "-1000000000000")
        let near = fuzz.replacingOccurrences(of: "-2000000", with: "-4")
        let nearImage = try renderAll(near)[0].image
        for json in [fuzz, far] {
            let images = try renderAll(json)
            for (name, image) in images {
                for x in 0 ..< 100 {
                    for y in [8, 9, 10, 11] {
                        let expected = (y == 9 || y == 10) && x % 2 == 0 ? 128 : 0
                        XCTAssertLessThanOrEqual(abs(alpha(image, x, y) - expected), Self.roundingTolerance,
                                                 "\(name) (\(x), \(y)) = \(alpha(image, x, y))")
                    }
                }
                let d = image.difference(from: nearImage)
                XCTAssertLessThanOrEqual(d.maxDiff, Self.roundingTolerance, "\(name) vs the line from x = −4: \(d)")
            }
            assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        }
        // Only dashes that can reach the canvas are made.
        var line = Path()
        line.move(to: CGPoint(x: -2_000_000, y: 10))
        line.addLine(to: CGPoint(x: 100, y: 10))
        let outline = try Stroker.outline(line, style: StrokeStyle(lineWidth: 1, dash: [1]), transform: .identity,
                                          visible: CGRect(x: 0, y: 0, width: 100, height: 20))
        XCTAssertEqual(outline.contourCount, Self.visibleDashes)
    }

    /// Dashes of [1] whose pen reaches x ∈ [−1.71, 101.71] (half the pen, √2 of it for square corners, and a
    /// pixel): on intervals [2m, 2m + 1] for m = −1 … 49, the first cut at −1.71; the line ends at x = 100,
    /// where the next one would start.
    static let visibleDashes = 51

    /// The budget still bounds what a pattern really puts on the canvas: [10⁻⁵] along the same line has
    /// 5·10⁶ dashes within the canvas's 100 px, more than `maxDashesPerPath`, on every backend.
    func testDashBudgetStillCountsVisibleDashes() throws {
        try TestTier.requireThorough()
        let json = #"{"format":"gpucanvas-scene/1","size":[100,20],"commands":[{"op":"stroke","path":{"elements":[["m",-2000000,10],["l",100,10]]},"shading":{"color":"black"},"dash":[0.00001]}]}"#
        for (name, backend) in Self.backends {
            let s = try scene(json)
            XCTAssertThrowsError(try SharedRenderers.renderer(backend).render(s.recording, scale: s.scale), name) { error in
                XCTAssertTrue("\(error)".contains("draw #0") && "\(error)".contains("more than \(Stroker.maxDashesPerPath) dashes"),
                              "\(name): \(error)")
            }
        }
    }

    // MARK: Found with 4: far-reaching strokes cut on the wrong border

    /// A ±10³⁰⁸ diagonal 2 px wide on a 100 × 20 canvas. The stroker cuts far-reaching segments to the
    /// canvas grown by the pen's reach; it picked the borders by Liang–Barsky parameters, which are all ½
    /// for such a segment, and clamped the cut onto the border it picked: the exit landed on the right
    /// border instead of the bottom one and the line was drawn with slope 0.2 on every backend. It covers
    /// the band |x − y| ≤ √2: pixel (k, k) fully, (k + 1, k) and (k, k + 1) by 1 − (2 − √2)²/2 = 0.828
    /// (alpha 211), (k + 3, k) not at all, the same as a diagonal from ±1000.
    func testFarDiagonalStrokeIsCutOnTheRightBorders() throws {
        let far = #"{"format":"gpucanvas-scene/1","size":[100,20],"commands":[{"op":"stroke","path":{"elements":[["m",-1e308,-1e308],["l",1e308,1e308]]},"shading":{"color":"black"},"lineWidth":2}]}"#
        let near = try renderAll(far.replacingOccurrences(of: "e308", with: "e3"))[0].image
        let images = try renderAll(far)
        let gap: Double = 2 - 2.0.squareRoot()  // the corner of pixel (k + 1, k) beyond the band
        let edge = Int(((1 - gap * gap / 2) * 255).rounded())
        for (name, image) in images {
            for k in 1 ..< 18 {
                XCTAssertEqual(alpha(image, k, k), 255, "\(name) (\(k), \(k))")
                XCTAssertLessThanOrEqual(abs(alpha(image, k + 1, k) - edge), Self.roundingTolerance, "\(name) (\(k + 1), \(k))")
                XCTAssertLessThanOrEqual(abs(alpha(image, k, k + 1) - edge), Self.roundingTolerance, "\(name) (\(k), \(k + 1))")
                XCTAssertEqual(alpha(image, k + 3, k), 0, "\(name) (\(k + 3), \(k))")
            }
            XCTAssertEqual(alpha(image, 50, 10), 0, name)
            let d = image.difference(from: near)
            XCTAssertLessThanOrEqual(d.maxDiff, Self.roundingTolerance, "\(name) vs the diagonal from ±1000: \(d)")
        }
        assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
    }

    // MARK: 5. Stacked translucent draws

    /// Sixty translucent rectangles (alpha 0.1) stacked on one white square, their edges at 0.3 px offsets so
    /// the border pixels are partly covered: in 8-bit storage each pixel settles where a draw's change drops
    /// under half a step, which depends on the last bit of every source. The reference kept its source exact
    /// while the GPU's blender takes it in 8 bits: they settled up to 15 levels apart (maxDiff 13–15 on every
    /// GLES form). The reference now rounds the source as an RGBA8 framebuffer does (ReferenceCompositor).
    func testStackedTranslucentDrawsStayWithinTheBar() throws {
        var commands = [##"{"op": "fill", "path": {"rect": [0, 0, 48, 48]}, "shading": {"color": "#FFFFFF"}}"##]
        for i in 0 ..< 60 {
            let c = String(format: "#%02X%02X%02X1A", (i * 37) % 256, (i * 91) % 256, (i * 53) % 256)
            commands.append(##"{"op": "fill", "path": {"rect": [0.3, 0.3, 47.4, 47.4]}, "shading": {"color": "\##(c)"}}"##)
        }
        let json = #"{"format": "gpucanvas-scene/1", "size": [48, 48], "commands": ["# + commands.joined(separator: ", ") + "]}"
        let images = try renderAll(json)
        assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // The R8 coverage form too (colour × coverage in the shader, not baked).
        let s = try scene(json)
        let r8 = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false)))
        let d = try r8.render(s.recording, scale: s.scale).difference(from: images[0].image)
        XCTAssertTrue(d.meets(maxDiff: Self.barMaxDiff, over2: Self.barOver2), "raster-atlas-r8: \(d)")
    }

    // MARK: Found by the 30-minute fuzz run of issue #16

    /// A dashed stroke 10¹² px wide with round caps: the stroker reserved its outline from an estimate of
    /// billions of cap points (a 64 GB allocation, an abort on every backend). Now the reservation stops at the
    /// outline limit and the stroke is the limit's clean error, the same on every backend.
    func testHugeRoundCappedDashedStrokeIsAnErrorNotAnAbort() throws {
        try TestTier.requireThorough()
        let json = #"{"format": "gpucanvas-scene/1", "size": [1, 1], "commands": [{"op": "stroke", "path": "0 0 l 0 -30000000 0 0 v", "shading": {"color": "black"}, "lineWidth": 1000000000000, "lineCap": "round", "dash": [20, 10, 20, 4]}]}"#
        let messages = try errorsOnEveryBackend(json)
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.contains("the stroke outline would need more than") == true, "\(messages)")
    }

    /// A radial gradient with a start radius of 1e308: the reference evaluated it in Double while the GPU's Float
    /// overflowed (maxDiff 191). Numbers past Float's range are refused by the lowering, on every backend.
    func testGradientNumbersBeyondFloatAreAnError() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [1, 1], "commands": [{"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": {"radialGradient": {"colors": ["cyan", "red"]}, "center": [0, 0], "startRadius": 1e+308, "endRadius": 0}}]}"#
        let messages = try errorsOnEveryBackend(json)
        XCTAssertEqual(messages.count, 1, "\(messages)")
        XCTAssertTrue(messages.first?.contains("beyond the range a GPU evaluates gradients in") == true, "\(messages)")
    }

    /// A radial gradient between equal circles paints nothing. Drawn with a shader-blended mode through
    /// framebuffer fetch, the program specialised for it gave garbage in 1 run of 4 on llvmpipe (maxDiff 255);
    /// the lowering now turns such a gradient into a transparent colour. Rendered ten times, every image is the
    /// reference's, and a `.copy` of it still erases.
    func testGradientThatPaintsNothingIsATransparentColour() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [4, 4], "commands": [{"op": "blendMode", "value": "darken"}, {"op": "fill", "path": {"rect": [0.5, 0.5, 3, 3]}, "shading": {"radialGradient": {"colors": ["red", "blue"]}, "center": [0, 0], "startRadius": 0, "endRadius": 0}}]}"#
        let s = try scene(json)
        let reference = try CanvasRenderer(backend: .reference).render(s.recording, scale: s.scale)
        for n in 0 ..< 10 {
            let gles = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
            XCTAssertEqual(try gles.render(s.recording, scale: s.scale), reference, "render \(n)")
        }
        let copy = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 4, height: 4)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.blue))
            var c = ctx
            c.blendMode = .copy
            c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 4)),
                   with: .radialGradient(Gradient(colors: [.red, .blue]), center: .zero, startRadius: 1, endRadius: 1))
        }
        XCTAssertEqual(copy.pixel(x: 1, y: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
        XCTAssertEqual(copy.pixel(x: 3, y: 1), PixelRGBA8(r: 0, g: 122, b: 255, a: 255))
    }

    /// Two clips of one frame share a mask page: the outer rectangle, and the rectangle narrowed by a copied
    /// context's clip. The narrowed clip's bands reach past its region, so they are scissored; with GPU
    /// tessellation its coverage needed an atlas pass after the scissor was set, the mask pass reopened
    /// without it, and the bands wrote the outer clip's region a second time (clip coverage 0.3 became 0.51:
    /// alpha 87 instead of 51). Found by the 30-minute fuzz run, seed 20, scene 3485.
    func testScissorSurvivesAnAtlasPassInTheMiddleOfAMaskPass() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [40, 20], "commands": [{"op": "clip", "path": {"rect": [30, 11.7, 10, 1]}}, {"op": "copy", "commands": [{"op": "clip", "path": {"elements": [["l", 0, 0], ["c", 0, 0, 0, 30, 0, 0], ["l", 34, 0]]}}, {"op": "stroke", "path": {"elements": [["m", 30, 40], ["l", 0, 0]]}, "shading": {"color": "black"}}]}, {"op": "stroke", "path": {"elements": [["l", 0, 0], ["c", 0, 0, 10, 30, 50, 0]]}, "shading": {"color": "black"}}]}"#
        let images = try renderAll(json)
        assertSame(images, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // The clip lets 30 % of row 11 through: the stroke's pixel there is at most 0.3 opaque.
        for (name, image) in images {
            XCTAssertLessThanOrEqual(alpha(image, 30, 11), 77, name)
            XCTAssertGreaterThan(alpha(image, 30, 11), 0, name)
        }
    }

    /// A tiled image whose origin is 10³⁰⁸ points away: its device → image map inverts to an infinite
    /// translation, which the reference sampled as 0 and the GPU as NaN (maxDiff 18). Now it is the same clean
    /// error on every backend. Found by the 30-minute fuzz run, seed 22, scene 96.
    func testTiledImageBeyondDoubleRangeIsAnError() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [1, 1], "commands": [{"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": {"tiledImage": "img0", "origin": [1e+308, 0], "scale": 0.6}}], "resources": {"images": {"img0": {"pngBase64": "iVBORw0KGgoAAAANSUhEUgAAAAIAAAAHCAYAAAAie5yXAAAASklEQVR4nAE/AMD/AJ1NB1xJ0kaPAP7fvXe8fxx8AB5ai+j8u1SpAMDh3N1qzq8rACVY1zB+kikiAKWDEzyHaYKNAESbSP+p49Zvnccdefqw2XwAAAAASUVORK5CYII=", "scale": 2}}}}"#
        let messages = try errorsOnEveryBackend(json)
        XCTAssertEqual(messages, ["invalid geometry: draw #0: the image's placement overflows to infinity in device space"])
    }

    /// A mirrored ring pattern one unit wide, 10⁷ units from its centre: float's error in t there exceeds a
    /// period, so the GPU painted a ring the reference does not (maxDiff 128). Past 65 536 periods from the
    /// centre both backends now refuse it with the same words; closer, the rings still draw. Found by the
    /// 30-minute fuzz run, seed 22, scene 286.
    func testRadialRingsTooFarFromTheirCentreAreAnError() throws {
        func json(_ y: Int) -> String {
            #"{"format": "gpucanvas-scene/1", "size": [4, 4], "commands": [{"op": "fill", "path": {"rect": [0, 0, 4, 4]}, "shading": {"radialGradient": {"colors": ["black", "clear"]}, "center": [0, "# + String(y) + #"], "startRadius": 0, "endRadius": 1, "options": ["mirror"]}}]}"#
        }
        let messages = try errorsOnEveryBackend(json(-10_000_000))
        XCTAssertEqual(messages, ["invalid geometry: draw #0: gradient rings repeat 10000004 times between the centre and the canvas, more than the 65536 a GPU can place"])
        let near = try renderAll(json(-1000))
        assertSame(near, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        XCTAssertGreaterThan(alpha(near[0].image, 0, 0) + alpha(near[0].image, 0, 3), 0)
    }

    /// A conic gradient starting at −10¹³¹ rad: the reference and the GPU reduced that angle by different
    /// meaningless arithmetic (maxDiff 19). The lowering now reduces it once, exactly (fmod by 2π), for both.
    /// Found by the 30-minute fuzz run, seed 23, scene 1114.
    func testConicStartAngleIsReducedOnceForBothBackends() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [8, 8], "commands": [{"op": "fill", "path": {"rect": [0, 0, 8, 8]}, "shading": {"conicGradient": {"colors": ["red", "blue", "red"]}, "center": [4, 4], "angle": -1e+131}}]}"#
        assertSame(try renderAll(json), maxDiff: Self.barMaxDiff, over2: Self.barOver2)
    }

    /// A clip a sliver wide over a dark red on a linear-light canvas: the GPU's 8-bit clip mask was one step
    /// off the reference's exact coverage, and the output's sRGB encoding (slope 12.92 near black) made that 4
    /// levels. Linear-light canvases now keep clip masks in half floats. Found by the 30-minute fuzz run, seed
    /// 23, scene 685.
    func testClipMasksOfLinearCanvasesKeepDarkColoursWithinTheBar() throws {
        let json = ##"{"format": "gpucanvas-scene/1", "size": [3, 3], "opaque": true, "colorMode": "extendedLinear", "commands": [{"op": "clip", "path": {"elements": [["m", 0, 1], ["q", 20, 20, -1, 0]]}}, {"op": "stroke", "path": "0 10 l 0 0 l", "shading": {"color": "#ff0000"}, "lineWidth": 10}]}"##
        let images = try renderAll(json)
        for (name, image) in images.dropFirst() {
            let d = image.difference(from: images[0].image)
            XCTAssertLessThanOrEqual(d.maxDiff, 2, "\(name): \(d)")
        }
    }

    /// A radial gradient under a transform that squashes one axis 10¹²-fold: the GPU's distance from the
    /// centre came out of numbers 10¹² apart (maxDiff 13 on one pixel). Past float's 2²⁴ both backends refuse
    /// such a radial or conic gradient with the same words; a 1000-fold squash still draws. Found by the final
    /// 30-minute fuzz run, seed 29, scene 6613.
    func testRadialGradientUnderANearlySingularTransformIsAnError() throws {
        func json(_ squash: String) -> String {
            #"{"format": "gpucanvas-scene/1", "size": [8, 8], "commands": [{"op": "scale", "x": 1, "y": "# + squash + #"}, {"op": "fill", "path": {"rect": [0, 0, 8, 8000]}, "shading": {"radialGradient": {"colors": ["red", "blue"]}, "center": [4, 4000], "startRadius": 0, "endRadius": 4}}]}"#
        }
        let messages = try errorsOnEveryBackend(json("1e-12"))
        XCTAssertEqual(messages, ["invalid geometry: draw #0: gradient is squashed 1e+12-fold in one direction, more than a GPU evaluates in float (1.67772e+07)"])
        let drawn = try renderAll(json("0.001"))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        XCTAssertGreaterThan(alpha(drawn[0].image, 4, 4), 0)
    }

    /// Text placed at x = 1.7 × 10³⁰⁸: its glyphs' device origins overflowed to infinity and snapping them
    /// to a quarter pixel trapped (a crash on every backend). Such glyphs reach no target: the frame draws
    /// the rest, the same on every backend. Found by a text-only fuzz run, seed 77, scene 64.
    func testTextBeyondDoubleRangeDrawsNothingInsteadOfCrashing() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [64, 32], "commands": [{"op": "fill", "path": {"rect": [0, 0, 8, 8]}, "shading": {"color": "red"}}, {"op": "text", "text": "Hello fi ffl", "font": {"family": "DejaVu Serif", "size": 10.7}, "at": [1.7e308, 16]}, {"op": "text", "text": "far", "font": {"size": 10}, "at": [-1e300, 1e300]}]}"#
        let drawn = try renderAll(json)
        assertSame(drawn, maxDiff: 0, over2: 0)
        XCTAssertEqual(alpha(drawn[0].image, 4, 4), 255)
        XCTAssertEqual(alpha(drawn[0].image, 40, 16), 0)
    }

    // MARK: Unicode

    /// A flag in wrapped text aborted the process on every backend (libunibreak 1.1, which knows Unicode 6:
    /// `set_linebreaks: Assertion 'lbcNew <= LBP_JT' failed` on a regional indicator). With ICU's line breaking
    /// the flag draws as Noto Color Emoji's one glyph, in its own blue and red.
    func testFlagInWrappedTextDraws() throws {
        let json = #"{"format":"gpucanvas-scene/1","size":[200,40],"commands":[{"op":"text","text":"Hi from 🇫🇷 Paris","in":[0,0,190,30]}]}"#
        let drawn = try renderAll(json)
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        let image = drawn[0].image
        var blue = 0, red = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                if p.a == 255 && p.b > 150 && p.r < 100 { blue += 1 }
                if p.a == 255 && p.r > 200 && p.g < 100 && p.b < 100 { red += 1 }
            }
        }
        XCTAssertGreaterThan(blue, 10, "the flag's blue band")
        XCTAssertGreaterThan(red, 10, "the flag's red band")
    }

    /// U+FFFF, libunibreak's end-of-text marker, aborted the process the same way. It is a noncharacter and
    /// draws as the font's .notdef box between x and y.
    func testNoncharacterFFFFDraws() throws {
        func scene(_ text: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[200,40],"commands":[{"op":"text","text":"\#(text)","in":[0,0,190,30]}]}"#
        }
        let drawn = try renderAll(scene(#"x￿y"#))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        let plain = try renderAll(scene("xy"))
        func ink(_ image: RasterImage) -> Int {
            var sum = 0
            for y in 0..<image.height { for x in 0..<image.width { sum += alpha(image, x, y) } }
            return sum
        }
        // The .notdef box adds its outline's ink to x and y's.
        XCTAssertGreaterThan(ink(drawn[0].image), ink(plain[0].image) + 255 * 20)
    }

    // MARK: Found by issue 28's fuzzer (text from every Unicode class)

    /// Renders `json` in the raster atlas's R8 coverage form (trapezoid bands, colour × coverage in the shader).
    func renderR8(_ json: String) throws -> RasterImage {
        let s = try scene(json)
        let r8 = try CanvasRenderer.strict(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false)))
        return try r8.render(s.recording, scale: s.scale)
    }

    /// Twelve ₿ at 0.01 pt on one pixel (seed 2811 #132): each glyph's 8-bit mask kept a one-step trace of its
    /// 10⁻⁵ px² of ink, and the twelve traces added up to alpha 12 where the reference has 0. Glyph masks round
    /// to nearest now, and a pile of glyphs within a pixel of each other draws as contours.
    func testTinyGlyphsPiledOnOnePixelDrawNothing() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [1, 1], "commands": [{"op": "text", "text": "₿₿₿₿₿₿₿₿₿₿₿₿", "font": {"family": "DejaVu Sans", "size": 0.01}, "shading": {"color": "black"}, "at": [0.5, 0.5]}]}"#
        let drawn = try renderAll(json)
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        for (name, image) in drawn { XCTAssertLessThanOrEqual(alpha(image, 0, 0), 1, name) }
        XCTAssertLessThanOrEqual(alpha(try renderR8(json), 0, 0), 1)
    }

    /// Fifty U+0301 stacked on no base (seed 103 #8): HarfBuzz puts every mark at one origin, and fifty 8-bit
    /// masks, each rounded by up to half a level, were added up where they overlap: alpha 50 at an edge pixel
    /// where the exact union is 25 (maxDiff 25 on both R8 forms). More than `maxStackedGlyphs` glyphs within a
    /// pixel of each other now draw as contours, exact on every form.
    func testFiftyStackedCombiningMarksStayWithinTheBar() throws {
        let marks = String(repeating: "\u{0301}", count: 50)
        let json = #"{"format": "gpucanvas-scene/1", "size": [4, 2], "commands": [{"op": "text", "text": ""# + marks + #"", "font": {"family": "DejaVu Sans Mono", "size": 10}, "shading": {"color": "black"}, "in": [0, 0, 0, 0]}]}"#
        let drawn = try renderAll(json)
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // The pixel the marks' edge crosses: the union's coverage, not fifty rounded ones.
        XCTAssertEqual(alpha(drawn[0].image, 2, 1), 25, accuracy: 1)
        XCTAssertEqual(alpha(try renderR8(json), 2, 1), alpha(drawn[0].image, 2, 1), accuracy: 2)
        XCTAssertEqual(TextLowering.maxStackedGlyphs, 8)
    }

    /// Four enclosing marks with no base (seed 20261128 #419: U+0488, U+20E0, U+20E3, U+A671): a dotted circle,
    /// a keycap and two enclosing signs drawn over one another. The placed masks were added up where the inks
    /// overlap, alpha 255 where the union of the outlines covers 75. Glyphs whose ink boxes share more than
    /// `maxInkOverlap` of the smaller one draw as contours.
    func testOverlappingEnclosingMarksStayWithinTheBar() throws {
        let json = #"{"format": "gpucanvas-scene/1", "size": [60, 30], "commands": [{"op": "text", "text": "҈⃠⃣꙱", "font": {"family": "Noto Sans", "size": 10}, "shading": {"color": "black"}, "at": [30, 15]}]}"#
        let drawn = try renderAll(json)
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        XCTAssertTrue(try renderR8(json).difference(from: drawn[0].image).meets(maxDiff: Self.barMaxDiff, over2: Self.barOver2))
        XCTAssertEqual(TextLowering.overlap((0, 0, 4, 4), (2, 0, 6, 4)), 0.5)
        XCTAssertEqual(TextLowering.overlap((0, 0, 4, 4), (4, 0, 6, 4)), 0)
    }

    /// A 5 × 4 image at scale 10³⁸ tiled over a 10 px canvas (seed 20261129 #2693): tiles 10⁻³⁸ px wide, which
    /// the GPU's Float coordinate cannot place (28 levels from the reference's Double). More than 65 536 tiles
    /// between the image's origin and the canvas's far corner is refused on every backend; 16 px tiles draw.
    func testTiledImageOfSubpixelTilesIsAnError() throws {
        func json(_ scale: String) -> String {
            #"{"format": "gpucanvas-scene/1", "size": [10, 1], "commands": [{"op": "fill", "path": {"rect": [0, 0, 10, 1]}, "shading": {"tiledImage": "a", "origin": [0, 0], "scale": 1}}], "resources": {"images": {"a": {"pngBase64": ""# + Self.redOverBluePNG + #"", "scale": "# + scale + #"}}}}"#
        }
        XCTAssertEqual(try errorsOnEveryBackend(json("1e+38")),
                       ["invalid geometry: draw #0: tiled image repeats 5e+38 times between its origin and the canvas, more than the 65536 a GPU can place"])
        let drawn = try renderAll(json("0.125"))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // The 2 × 2 image at 1/8 scale is 16 pt a side. Pixel row 0's centre is image y = 0.0625: bilinear and
        // tiled, between the red row's centre (0.5) and the blue row's wrapped one (−0.5), 0.5625 red:
        // 0.5625 × 255 = 143.4 red, 0.4375 × 255 = 111.6 blue.
        let p = drawn[0].image.pixel(x: 3, y: 0)
        XCTAssertEqual([p.r, p.g, p.b, p.a], [143, 0, 112, 255])
    }

    // MARK: Issue 28 numeric

    /// A 2 × 2 PNG: a red row over a blue one.
    static let redOverBluePNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAEklEQVR4nGP4z8DwH4QZoPR/AEPOB/n6gUr9AAAAAElFTkSuQmCC"
    /// A 1 × 1 PNG whose base64 ends in "==".
    static let padded1x1PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg=="

    /// The default shadow colour's alpha (opacity 0.33), in 8 bits.
    static let shadowAlpha = 84

    /// An `invertsAlpha` shadow 5·10⁴ px up reads 1 − 0 everywhere it lands, but its blur's boxes sat 5·10⁴ px
    /// below the canvas, and GLES trapped putting them in its 16-bit instance coordinates ("Not enough bits to
    /// represent the passed value") while the reference rendered. The lowering now brings such an offset in to
    /// the nearest one that reads the same constant plane. Drawn alike on both sides of 2¹⁵ and at the
    /// documented 10⁶; past 10⁶ both refuse.
    func testInvertedShadowFarAwayDrawsAlikeOnEveryBackend() throws {
        func json(_ dy: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[2,92],"commands":[{"op":"filter","filter":{"shadow":{"radius":4,"y":"# + dy + #","options":["invertsAlpha"]}}},{"op":"stroke","path":{"rect":[0,0,10,10]},"shading":{"color":"black"}}]}"#
        }
        for dy in ["-50000", "-32767", "-32768", "32768.5", "-1000000"] {
            let drawn = try renderAll(json(dy))
            assertSame(drawn, maxDiff: Self.aliasedTolerance, over2: 0)
            for (name, image) in drawn {
                // Far from the stroke: the shadow of the inverted (fully opaque) plane; on the stroke's bottom
                // edge (half covered): black over the shadow.
                XCTAssertEqual(alpha(image, 1, 50), Self.shadowAlpha, "\(name) at dy \(dy)")
                XCTAssertEqual(alpha(image, 1, 9), 128 + (127 * Self.shadowAlpha + 127) / 255, "\(name) at dy \(dy)")
            }
        }
        let messages = try errorsOnEveryBackend(json("-2147483648"))
        XCTAssertEqual(messages.count, 1)
        XCTAssertTrue(messages.first?.contains("offset is more than 10^6 device pixels") ?? false, "\(messages)")
    }

    /// A repeated linear gradient 10⁻⁸ units long: the reference's centre samples were aliased noise, the
    /// GPU's float t flat blocks (89 % of pixels apart). Ramps under `minimumRepeatedRamp` are refused on
    /// every backend; one a little longer draws alike.
    func testRepeatedLinearGradientShorterThanFloatPlacesIsAnError() throws {
        func json(_ length: String, _ spread: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[20,20],"commands":[{"op":"fill","path":{"rect":[0,0,20,20]},"shading":{"linearGradient":{"colors":["red","blue"]},"start":[0,0],"end":["# + length + #",0],"options":[""# + spread + #""]}}]}"#
        }
        for spread in ["repeat", "mirror"] {
            XCTAssertEqual(try errorsOnEveryBackend(json("1e-8", spread)),
                           ["invalid geometry: draw #0: gradient repeats every 1e-08 px, shorter than the 0.000976562 px a GPU places in float"])
            XCTAssertEqual(try errorsOnEveryBackend(json("0.0009765", spread)).count, 1)
            let drawn = try renderAll(json("0.0009766", spread))
            assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
            XCTAssertEqual(alpha(drawn[0].image, 3, 3), 255)
        }
        XCTAssertEqual(GradientResolution.minimumRepeatedRamp, 1.0 / 1024)
    }

    /// Two-point radial gradients at extreme geometry: a start centre 10⁶ px away (GLES painted rows the
    /// reference left empty) and a start radius of 7·10⁴ px (GLES left rows empty) reach past
    /// `maximumTwoPointReach`, refused on every backend; at 2000 px they still draw alike.
    func testTwoPointRadialGradientReachingFarIsAnError() throws {
        func json(_ c0: String, _ r0: String, _ r1: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[20,20],"commands":[{"op":"fill","path":{"rect":[0,0,20,20]},"shading":{"radialGradient":{"colors":["red","blue"]},"startCenter":"# + c0 + #","startRadius":"# + r0 + #","endCenter":[10,10],"endRadius":"# + r1 + #"}}]}"#
        }
        XCTAssertEqual(try errorsOnEveryBackend(json("[1000000,5]", "0", "10")),
                       ["invalid geometry: draw #0: gradient reaches 1e+06 px from the canvas (centres and radii), more than the 8192 px a GPU evaluates a two-point radial gradient over in float"])
        XCTAssertEqual(try errorsOnEveryBackend(json("[10,70010]", "70000", "1")),
                       ["invalid geometry: draw #0: gradient reaches 70010 px from the canvas (centres and radii), more than the 8192 px a GPU evaluates a two-point radial gradient over in float"])
        XCTAssertEqual(try errorsOnEveryBackend(json("[8220,5]", "0", "10")).count, 1)
        let drawn = try renderAll(json("[2000,5]", "0", "10"))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // The circles past the end one (t > 1, padded to the last stop) hold the whole canvas: opaque blue.
        let p = drawn[0].image.pixel(x: 10, y: 10)
        XCTAssertEqual([p.r, p.g, p.b, p.a], [0, 122, 255, 255])  // SwiftUI's blue
    }

    /// An ordinary two-point gradient over a social card at 2× (2400 × 1260 px) reaches 2460 px from its
    /// corners: drawn, and alike on every backend (a first reach limit of 2048 px refused it).
    func testTwoPointRadialGradientOverALargeCanvasDraws() throws {
        try TestTier.requireThorough()
        let drawn = try renderAll(##"{"format":"gpucanvas-scene/1","size":[1200,630],"scale":2,"commands":[{"op":"fill","path":{"rect":[0,0,1200,630]},"shading":{"radialGradient":{"colors":["#ff0066","#3300ff"]},"startCenter":[100,80],"startRadius":10,"endCenter":[900,500],"endRadius":700}}]}"##)
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        // At the start centre the largest circle through it has t·|c₁ − c₀| = r₀ + t·(r₁ − r₀):
        // t = 10 / (903.55 − 690) = 0.0468, so 255 − 0.0468·204 = 245.4 red and 102 + 0.0468·153 = 109.2 blue.
        let p = drawn[0].image.pixel(x: 200, y: 160)
        XCTAssertEqual([p.r, p.g, p.b, p.a], [245, 0, 109, 255])
    }

    /// A two-point radial gradient whose radii are both 0 is a line: GLES painted pixel centres 0.02 px off
    /// it, the reference not. A cone thinner than `minimumConeRadius` over the canvas now paints nothing on
    /// every backend; a cone 0.1 px wide still paints the centres it holds.
    func testTwoPointRadialConeThinnerThanFloatPlacesPaintsNothing() throws {
        func json(_ r: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[20,20],"commands":[{"op":"fill","path":{"rect":[0,0,20,20]},"shading":{"radialGradient":{"colors":["red","blue"]},"startCenter":[1,10.501],"startRadius":"# + r + #","endCenter":[17,10.4999],"endRadius":"# + r + #"}}]}"#
        }
        for r in ["0", "1e-9", "0.01", "0.06"] {
            for (name, image) in try renderAll(json(r)) {
                XCTAssertTrue(image.pixels.allSatisfy { $0 == 0 }, "\(name), radius \(r)")
            }
        }
        let drawn = try renderAll(json("0.1"))
        assertSame(drawn, maxDiff: Self.aliasedTolerance, over2: 0)
        XCTAssertEqual(alpha(drawn[0].image, 8, 10), 255)
        XCTAssertEqual(alpha(drawn[0].image, 8, 9), 0)
    }

    /// Mirrored rings 10⁻⁵ apart centred on the canvas: 10⁷ periods out at the far corner, where float's t is
    /// off by more than a period (maxDiff 153 over 2 %); the old count, from the centre to the nearest point,
    /// was 0. Counted to the canvas's farthest corner, both refuse it; 1 unit apart they draw alike.
    func testRadialRingsFarFromAnOnCanvasCentreAreAnError() throws {
        func json(_ period: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[100,100],"commands":[{"op":"fill","path":{"rect":[0,0,100,100]},"shading":{"radialGradient":{"colors":["red","blue"]},"center":[0.5,0.5],"startRadius":0,"endRadius":"# + period + #","options":["mirror"]}}]}"#
        }
        XCTAssertEqual(try errorsOnEveryBackend(json("1e-5")),
                       ["invalid geometry: draw #0: gradient rings repeat 14071425 times between the centre and the canvas, more than the 65536 a GPU can place"])
        let drawn = try renderAll(json("1"))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        XCTAssertEqual(alpha(drawn[0].image, 50, 50), 255)
    }

    /// A tiled 2 × 2 image magnified 5·10⁶-fold with `interpolation(.none)`: float's image coordinate near 1
    /// is 2⁻²³ texel coarse, 0.6 px here, and a texel edge fell one row off the reference's. Refused past
    /// `maximumNearestEdgeShift`; bilinear sampling (continuous) still draws alike.
    func testNearestImageMagnifiedPastFloatIsAnError() throws {
        func json(_ interpolation: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[20,20],"commands":[{"op":"translate","x":0.0677,"y":13.5587},{"op":"scale","x":5000000,"y":5000000},{"op":"fill","path":{"rect":[-1,-1,2,2]},"shading":{"tiledImage":"a"}}],"resources":{"images":{"a":{"pngBase64":""# + Self.redOverBluePNG + #"","interpolation":""# + interpolation + #""}}}}"#
        }
        XCTAssertEqual(try errorsOnEveryBackend(json("none")),
                       ["invalid geometry: draw #0: image is magnified 5e+06-fold with interpolation(.none): float places its texel edges 0.596046 px off, more than 0.03125 px"])
        let drawn = try renderAll(json("high"))
        assertSame(drawn, maxDiff: Self.barMaxDiff, over2: Self.barOver2)
        XCTAssertEqual(alpha(drawn[0].image, 10, 10), 255)
    }

    /// An unreadable font file at size 0: the layout returned nothing before opening the face, so the frame
    /// rendered silently, while at size 12 it is `invalid font`. Now the same error at every size.
    func testUnreadableFontFileIsAnErrorAtEverySize() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("issue28-not-a-font-\(getpid()).ttf")
        try Data("not a font".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        var seen = Set<String>()
        for size in ["12", "0"] {
            // Relative to the scene's folder: resource files resolve only there (the loader's confinement).
            let json = #"{"format":"gpucanvas-scene/1","size":[20,20],"commands":[{"op":"text","text":"Hi","font":{"file":""# + url.lastPathComponent + #"","size":"# + size + #"},"at":[2,10]}]}"#
            let s = try Scene(jsonData: Data(json.utf8), baseURL: url.deletingLastPathComponent())
            var messages = Set<String>()
            for (name, backend) in Self.backends {
                XCTAssertThrowsError(try SharedRenderers.renderer(backend).render(s.recording, scale: s.scale), name) {
                    messages.insert("\($0)")
                }
            }
            XCTAssertEqual(messages.count, 1, "size \(size): \(messages)")
            seen.formUnion(messages)
        }
        XCTAssertEqual(seen, ["invalid font: draw #0: \(url.path): unknown file format"])
    }

    /// Base64 with surplus `=` padding: Foundation's decoder took it against the documented rule (one or two
    /// `=` closing the last group of four). Refused where it is, as any other bad base64 is.
    func testBase64WithSurplusPaddingIsRefused() throws {
        func json(_ data: String) -> String {
            #"{"format":"gpucanvas-scene/1","size":[4,4],"commands":[{"op":"image","image":"a","in":[0,0,4,4]}],"resources":{"images":{"a":{"pngBase64":""# + data + #""}}}}"#
        }
        XCTAssertNoThrow(try scene(json(Self.padded1x1PNG)))
        for bad in [Self.padded1x1PNG + "====", Self.padded1x1PNG + "==", Self.padded1x1PNG.dropLast(2) + "===="] {
            XCTAssertThrowsError(try scene(json(String(bad)))) { e in
                XCTAssertEqual((e as? SceneError)?.location, "resources.images.a.pngBase64", "\(e)")
                XCTAssertEqual((e as? SceneError)?.message, "not valid base64 (the standard alphabet with = padding, no line breaks)")
            }
        }
    }
}
