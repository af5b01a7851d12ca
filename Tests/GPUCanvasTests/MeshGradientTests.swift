import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `MeshGradient`: pixel colours against values computed by hand from the formulas of
/// `MeshGradientResolution` (bilinear; Hermite with zero edge derivatives, which on a 2 × 2 mesh is the
/// smoothstep 3t² − 2t³ in u and v), the background outside a bent mesh, Oklab against device interpolation,
/// and the words every backend refuses a bad mesh with.
final class MeshGradientTests: XCTestCase, ComparesBackends {
    /// The tessellation keeps within half a level (`MeshGradientResolution.colorTolerance`) and the stored paint
    /// rounds to the nearest level: one level either way.
    static let rounding = 1

    static let corners: [SIMD2<Float>] = [[0, 0], [1, 0], [0, 1], [1, 1]]

    /// red, green, blue, white at the corners of an 11 × 11 canvas (pixel 5's centre is u = 0.5).
    func drawCorners(smooth: Bool) throws -> RasterImage {
        let mesh = MeshGradient(width: 2, height: 2, points: Self.corners, colors: [.init(red: 1, green: 0, blue: 0),
                                .init(red: 0, green: 1, blue: 0), .init(red: 0, green: 0, blue: 1), .init(white: 1)],
                                smoothsColors: smooth)
        return try render(11, 11) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
    }

    func testBilinearTwoByTwoAtCornersAndCentre() throws {
        let image = try drawCorners(smooth: false)
        // u = v = 0.5/11: red (1−u)² + u² = 0.9132 → 232.9; green u, blue v = 0.04545 → 11.6.
        assertPixel(image, 0, 0, PixelRGBA8(r: 233, g: 12, b: 12, a: 255))
        // u = 10.5/11, v = 0.5/11: red (1−u)(1−v) + uv = 0.0868 → 22.1; green u → 243.4; blue v → 11.6.
        assertPixel(image, 10, 0, PixelRGBA8(r: 22, g: 243, b: 12, a: 255))
        assertPixel(image, 0, 10, PixelRGBA8(r: 22, g: 12, b: 243, a: 255))
        // Bottom-right: white's corner; red uv + (1−u)(1−v) = 0.9132, green and blue 1 − 0.0455 → 243.4.
        assertPixel(image, 10, 10, PixelRGBA8(r: 233, g: 243, b: 243, a: 255))
        // Centre: every channel ½ → 127.5.
        assertPixel(image, 5, 5, PixelRGBA8(r: 128, g: 128, b: 128, a: 255))
        // u = v = 2.5/11: red (1−u)² + u² = 0.6488 → 165.4; green u → 58.0.
        assertPixel(image, 2, 2, PixelRGBA8(r: 165, g: 58, b: 58, a: 255))
    }

    func testBicubicTwoByTwoAtCornersAndCentre() throws {
        let image = try drawCorners(smooth: true)
        // s = 3u² − 2u³ at u = 0.5/11 is 0.00601: red (1−s)² + s² → 252.0; green s → 1.5.
        assertPixel(image, 0, 0, PixelRGBA8(r: 252, g: 2, b: 2, a: 255))
        assertPixel(image, 10, 10, PixelRGBA8(r: 252, g: 253, b: 253, a: 255))
        assertPixel(image, 5, 5, PixelRGBA8(r: 128, g: 128, b: 128, a: 255))
        // u = 2.5/11: s = 0.1315: red → 196.8, green → 33.5 (bilinear: 165 and 58).
        assertPixel(image, 2, 2, PixelRGBA8(r: 197, g: 34, b: 34, a: 255), tolerance: 2)
    }

    func testBackgroundOutsideBentEdges() throws {
        // The top-left vertex moved to (0.5, 0): the left edge runs from (0.5, 0) to (0, 1), straight (its
        // Catmull-Rom tangents are the edge itself); the corner left of it is outside the mesh.
        let mesh = MeshGradient(width: 2, height: 2, points: [[0.5, 0], [1, 0], [0, 1], [1, 1]],
                                colors: [.red, .red, .red, .red], background: Color(red: 0, green: 0, blue: 1))
        let image = try render(20, 20) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
        // (1.5, 1.5)/20 = (0.075, 0.075): the edge is at x = 0.5 − 0.5·0.075 = 0.4625 there.
        assertPixel(image, 1, 1, PixelRGBA8(r: 0, g: 0, b: 255, a: 255), tolerance: 0)
        assertPixel(image, 6, 2, PixelRGBA8(r: 0, g: 0, b: 255, a: 255), tolerance: 0)
        // Inside: .red (SwiftUI's red is (1, 0.2314, 0.1882) in sRGB).
        assertPixel(image, 15, 15, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
        assertPixel(image, 12, 2, PixelRGBA8(r: 255, g: 59, b: 48, a: 255))
    }

    func testPerceptualMidpointIsOklabs() throws {
        func draw(_ space: Gradient.ColorSpace) throws -> RasterImage {
            let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0, blue: 1)
            let mesh = MeshGradient(width: 2, height: 2, points: Self.corners, colors: [red, blue, red, blue],
                                    smoothsColors: false, colorSpace: space)
            return try render(21, 3) { ctx, size in
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
            }
        }
        // u = 10.5/21 = ½. Device: the sRGB-encoded components' mean.
        assertPixel(try draw(.device), 10, 1, PixelRGBA8(r: 128, g: 0, b: 128, a: 255))
        // Perceptual: the Oklab mean of red (0.6280, 0.2249, 0.1258) and blue (0.4520, −0.0325, −0.3115), back
        // to sRGB: (140.4, 83.0, 162.3).
        assertPixel(try draw(.perceptual), 10, 1, PixelRGBA8(r: 140, g: 83, b: 162, a: 255))
    }

    func testTransparentColoursInterpolateStraight() throws {
        // Opaque red to transparent red, bilinear: at u = ½ straight red at alpha ½ → premultiplied (128, 0, 0, 128).
        let mesh = MeshGradient(width: 2, height: 2, points: Self.corners,
                                colors: [Color(red: 1, green: 0, blue: 0), Color(red: 1, green: 0, blue: 0, opacity: 0),
                                         Color(red: 1, green: 0, blue: 0), Color(red: 1, green: 0, blue: 0, opacity: 0)],
                                smoothsColors: false)
        let image = try render(21, 3) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
        assertPixel(image, 10, 1, PixelRGBA8(r: 128, g: 0, b: 0, a: 128))
    }

    func testBezierPointsBendTheEdge() throws {
        // The top edge's controls pulled down to y = 0.6: the edge x(t), y(t) = 3·0.6·t(1−t) dips to 0.45 at
        // t = ½, so the middle column is background above y ≈ 0.45 and mesh below it.
        func bp(_ p: SIMD2<Float>, down: Bool) -> MeshGradient.BezierPoint {
            let off: SIMD2<Float> = down ? [0, 0.6] : [0, 0]
            return .init(position: p, leadingControlPoint: p + [-1.0 / 3, 0] + off, topControlPoint: p + [0, -1.0 / 3],
                         trailingControlPoint: p + [1.0 / 3, 0] + off, bottomControlPoint: p + [0, 1.0 / 3])
        }
        let mesh = MeshGradient(width: 2, height: 2,
                                bezierPoints: [bp([0, 0], down: true), bp([1, 0], down: true), bp([0, 1], down: false), bp([1, 1], down: false)],
                                colors: [.white, .white, .white, .white], background: .black)
        let image = try render(20, 20) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
        assertPixel(image, 10, 7, PixelRGBA8(r: 0, g: 0, b: 0, a: 255), tolerance: 0)   // y 0.375 < 0.45
        assertPixel(image, 10, 11, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), tolerance: 0)  // y 0.575
        assertPixel(image, 0, 10, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), tolerance: 0)
    }

    func testSubdivisionFollowsTheSurface() throws {
        func mesh(_ points: [SIMD2<Float>]) throws -> MeshGradientResolution.Mesh {
            try MeshGradientResolution.validated(MeshGradient(width: 2, height: 2, points: points,
                                                              colors: [.black, .white, .white, .black]),
                                                 colorMode: .nonLinear, drawNumber: 0)
        }
        let big = CGAffineTransform(scaleX: 100, y: 100)
        // A flat, evenly parametrized patch is two triangles, whatever its colours (they are evaluated per pixel).
        XCTAssertEqual(MeshGradientResolution.subdivisions(MeshGradientResolution.patch(try mesh(Self.corners), 0, 0, unitToDevice: big)), 1)
        // The bottom-right corner pulled in to (0.5, 0.5): the net's largest second differences along u, along
        // v and mixed are each 100·√2/6 = 23.57 px, so the bound (6 + 18 + 6)·23.57 / (8 n²) ≤ 0.25 px needs
        // n = ⌈√(707.1 / 2)⌉ = ⌈18.8⌉ = 19.
        let bent = try mesh([[0, 0], [1, 0], [0, 1], [0.5, 0.5]])
        XCTAssertEqual(MeshGradientResolution.subdivisions(MeshGradientResolution.patch(bent, 0, 0, unitToDevice: big)), 19)
        // Half a pixel across: ⌈√(3.536 / 2)⌉ = ⌈1.33⌉ = 2, within the quarter-pixel cap (⌈4 · 0.5⌉ = 2).
        XCTAssertEqual(MeshGradientResolution.subdivisions(MeshGradientResolution.patch(bent, 0, 0,
                                                                                        unitToDevice: CGAffineTransform(scaleX: 0.5, y: 0.5))), 2)
        // Ten times wider than the first: ⌈√(7071 / 2)⌉ = ⌈59.5⌉ = 60, and 64 a side at most.
        XCTAssertEqual(MeshGradientResolution.subdivisions(MeshGradientResolution.patch(bent, 0, 0,
                                                                                        unitToDevice: CGAffineTransform(scaleX: 1000, y: 1000))), 60)
        XCTAssertEqual(MeshGradientResolution.subdivisions(MeshGradientResolution.patch(bent, 0, 0,
                                                                                        unitToDevice: CGAffineTransform(scaleX: 2000, y: 2000))),
                       MeshGradientResolution.maxSubdivisions)
    }

    /// An n × n mesh of vertices scattered at random (patches folded over each other) inside a fixed square
    /// edge, random opaque colours, a clear background.
    static func folded(_ n: Int) -> MeshGradient {
        var rng = FormulaTestRandom(seed: 32)
        var points: [SIMD2<Float>] = [], colors: [Color] = []
        for j in 0 ..< n {
            for i in 0 ..< n {
                let edge = i == 0 || j == 0 || i == n - 1 || j == n - 1
                let jitter: SIMD2<Float> = edge ? .zero : [(rng.unit() - 0.5) * 3 / Float(n), (rng.unit() - 0.5) * 3 / Float(n)]
                points.append(SIMD2(Float(i) / Float(n - 1), Float(j) / Float(n - 1)) + jitter)
                colors.append(Color(red: Double(rng.unit()), green: Double(rng.unit()), blue: Double(rng.unit())))
            }
        }
        return MeshGradient(width: n, height: n, points: points, colors: colors)
    }

    func testLargestMeshKeepsWithinTheCellBudget() throws {
        // 256 × 256 folded vertices over 4096 px: the patches ask for 3–64 cells a side each, far past the
        // budget; the counts are scaled down to it.
        let n = MeshGradientResolution.maxSide
        let mesh = try MeshGradientResolution.validated(Self.folded(n), colorMode: .nonLinear, drawNumber: 0)
        let patches = MeshGradientResolution.patches(mesh, unitToDevice: CGAffineTransform(scaleX: 4096, y: 4096))
        let (columns, rows) = MeshGradientResolution.subdivisions(patches, width: n, height: n)
        let cells = columns.reduce(0, +) * rows.reduce(0, +)
        XCTAssertLessThanOrEqual(cells, MeshGradientResolution.maxCells)
        XCTAssertGreaterThan(cells, MeshGradientResolution.maxCells / 2)
    }

    func testFoldedMeshLeavesNoHoles() throws {
        // The mesh's edge is the canvas's edge and folds inside it cannot uncover anything (a map of the square
        // onto itself that keeps its edge covers it), so a transparent pixel would be a crack between triangles:
        // every pixel is opaque, and every backend draws it alike.
        let mesh = Self.folded(24)
        let image = try render(48, 48) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
        for y in 0 ..< 48 { for x in 0 ..< 48 { XCTAssertEqual(image.pixel(x: x, y: y).a, 255, "(\(x), \(y))") } }
    }

    func testNearestImageProgramsGiveTheGeneralProgramsBytes() throws {
        // `IMAGE_NEAREST` compiles the bilinear path out of specialised image programs: the same operations on
        // the nearest path, so the same bytes as the general program, for mesh paints and nearest images alike.
        let scenes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ConformanceTests/scenes")
        let general = try CanvasRenderer(gles: GLESOptions(device: .mesa, specialisation: .never))
        let specialised = try CanvasRenderer(gles: GLESOptions(device: .mesa, specialisation: .always))
        for name in ["mesh-clipped", "mesh-in-layer-with-opacity", "mesh-smooth-linear-canvas", "image-rotated-nearest",
                     "image-scaled-up-nearest", "image-tiled-nearest-under-scale"] {
            let scene = try Scene.load(contentsOf: scenes.appendingPathComponent(name + ".json"))
            XCTAssertEqual(try general.render(scene.recording, scale: scene.scale),
                           try specialised.render(scene.recording, scale: scene.scale), name)
        }
    }

    static let bad: [(name: String, expected: String, mesh: MeshGradient)] = [
        ("one column", "invalid geometry: draw #0: mesh gradient is 1×2; it needs at least 2 vertices a side",
         MeshGradient(width: 1, height: 2, points: [[0, 0], [0, 1]], colors: [.red, .blue])),
        ("huge", "invalid geometry: draw #0: mesh gradient is 300×2; at most 256 vertices a side are drawn",
         MeshGradient(width: 300, height: 2, points: [], colors: [])),
        ("points count", "invalid geometry: draw #0: mesh gradient has 3 points; 2×2 needs 4",
         MeshGradient(width: 2, height: 2, points: [[0, 0], [1, 0], [0, 1]], colors: [.red, .red, .red, .red])),
        ("colours count", "invalid geometry: draw #0: mesh gradient has 5 colours; 2×2 needs 4",
         MeshGradient(width: 2, height: 2, points: corners, colors: [.red, .red, .red, .red, .red])),
        ("NaN point", "invalid geometry: draw #0: mesh gradient point 1 (nan, 0) is not finite",
         MeshGradient(width: 2, height: 2, points: [[0, 0], [.nan, 0], [0, 1], [1, 1]], colors: [.red, .red, .red, .red])),
        ("infinite control point", "invalid geometry: draw #0: mesh gradient point 0 (inf, 0) is not finite",
         MeshGradient(width: 2, height: 2, bezierPoints: [
            .init(position: [0, 0], leadingControlPoint: [0, 0], topControlPoint: [0, 0],
                  trailingControlPoint: [.infinity, 0], bottomControlPoint: [0, 0]),
         ] + corners.dropFirst().map { .init(position: $0, leadingControlPoint: $0, topControlPoint: $0,
                                             trailingControlPoint: $0, bottomControlPoint: $0) },
         colors: [.red, .red, .red, .red])),
        ("NaN resolved colour", "invalid geometry: draw #0: mesh gradient colour 2",
         MeshGradient(width: 2, height: 2, points: corners, resolvedColors: [
            .init(red: 1, green: 0, blue: 0), .init(red: 1, green: 0, blue: 0), .init(red: .nan, green: 0, blue: 0),
            .init(red: 1, green: 0, blue: 0)])),
        // Finite, but 10⁹ px on the device: past what the GPU's float positions hold (the reference rasterized
        // such a patch with garbage precision, and 3·10³¹ px trapped its Int conversion).
        ("past the float range", "invalid geometry: draw #0: mesh gradient patch 0 reaches (",
         MeshGradient(width: 2, height: 2, points: [[0, 0], [1e8, 0], [0, 1], [1, 1]], colors: [.red, .red, .red, .red])),
    ]

    func testBadMeshesGetTheSameWordsFromEveryBackend() throws {
        let backends = try renderers().map { ($0.name, $0.renderer) }
        for (name, expected, mesh) in Self.bad {
            BackendComparison.assertSameRefusal(name, expected, backends) { ctx, size in
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
            }
        }
    }

    func testStyleShapeFillAndViewsDrawTheMesh() throws {
        let mesh = MeshGradient(width: 2, height: 2, points: Self.corners,
                                colors: [.init(red: 1, green: 0, blue: 0), .init(red: 0, green: 1, blue: 0),
                                         .init(red: 0, green: 0, blue: 1), .init(white: 1)], smoothsColors: false)
        // `.style(mesh)` maps onto the filled path's bounds: a rect at (10, 0) has the red corner at its
        // top-left pixel.
        let styled = try render(21, 11) { ctx, _ in
            ctx.fill(Path(CGRect(x: 10, y: 0, width: 11, height: 11)), with: .style(mesh))
        }
        assertPixel(styled, 10, 0, PixelRGBA8(r: 233, g: 12, b: 12, a: 255))
        assertPixel(styled, 5, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: 0), tolerance: 0)
        // As a view in a stack and as a background: each fills its own frame.
        let stacked = try ViewTesting.render(VStack(spacing: 0) { mesh.frame(width: 11, height: 11); Rectangle().fill(mesh).frame(width: 11, height: 11) },
                                             size: CGSize(width: 11, height: 22))
        ViewTesting.assertPixel(stacked, 0, 0, PixelRGBA8(r: 233, g: 12, b: 12, a: 255), tolerance: Self.rounding)
        ViewTesting.assertPixel(stacked, 0, 11, PixelRGBA8(r: 233, g: 12, b: 12, a: 255), tolerance: Self.rounding)
        ViewTesting.assertPixel(stacked, 5, 16, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), tolerance: Self.rounding)
        let background = try ViewTesting.render(Color.clear.frame(width: 11, height: 11).background(mesh),
                                                size: CGSize(width: 11, height: 11))
        ViewTesting.assertPixel(background, 10, 10, PixelRGBA8(r: 233, g: 243, b: 243, a: 255), tolerance: Self.rounding)
    }

    func testSceneFilesCarryMeshGradients() throws {
        let json = #"""
        {"format": "gpucanvas-scene/1", "size": [11, 11], "commands": [
          {"op": "fill", "path": {"rect": [0, 0, 11, 11]}, "shading": {"meshGradient": {"width": 2, "height": 2,
            "points": [[0, 0], [1, 0], [0, 1], [1, 1]],
            "colors": [{"space": "sRGB", "rgba": [1, 0, 0, 1]}, {"space": "sRGB", "rgba": [0, 1, 0, 1]},
                       {"space": "sRGB", "rgba": [0, 0, 1, 1]}, "white"], "smoothsColors": false}}}]}
        """#
        let scene = try Scene(jsonData: Data(json.utf8))
        let image = try SharedRenderers.renderer(.reference).render(scene.recording)
        assertPixel(image, 0, 0, PixelRGBA8(r: 233, g: 12, b: 12, a: 255))
        // Written back and loaded again, it records the same.
        let again = try Scene(jsonData: Data(scene.recording.sceneJSON().utf8))
        XCTAssertEqual(again.recording, scene.recording)
        // A bezier-point mesh with resolved colours records as it loads back.
        let bezier = Recording(size: CGSize(width: 8, height: 8)) { ctx, size in
            let corner = { (p: SIMD2<Float>) in MeshGradient.BezierPoint(position: p, leadingControlPoint: p, topControlPoint: p,
                                                                         trailingControlPoint: p, bottomControlPoint: p) }
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(MeshGradient(
                width: 2, height: 2, bezierPoints: Self.corners.map(corner),
                resolvedColors: [.init(red: 1, green: 0.5, blue: 0), .init(red: 0, green: 0, blue: 1, opacity: 0.5),
                                 .init(red: 0.2, green: 0.3, blue: 0.4), .init(red: 1, green: 1, blue: 1)],
                background: .blue, smoothsColors: false, colorSpace: .perceptual)))
        }
        XCTAssertEqual(try Scene(jsonData: Data(bezier.sceneJSON().utf8)).recording, bezier, bezier.sceneJSON())
        // Both of points and bezierPoints: the loader names the spot.
        let both = json.replacingOccurrences(of: #""points":"#, with: #""bezierPoints": [], "points":"#)
        XCTAssertThrowsError(try Scene(jsonData: Data(both.utf8))) { error in
            XCTAssertTrue("\(error)".contains("commands[0].shading.meshGradient: a mesh gradient has points or bezierPoints, not both"), "\(error)")
        }
    }
}
