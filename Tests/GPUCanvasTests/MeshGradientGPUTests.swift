import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// Mesh gradients drawn by the GPU: the GLES backend draws the lowering's triangles with `mesh_paint.glsl` into a
/// mesh page in one pass before the frame, never through the CPU rasterization the reference uses; its pixels
/// against values computed by hand, its command buffer, its determinism and its GL objects over frames.
final class MeshGradientGPUTests: XCTestCase {
    /// The GPU's float evaluation and its rounding to bytes against the hand-computed values: one level.
    static let rounding = 1

    static let corners: [SIMD2<Float>] = [[0, 0], [1, 0], [0, 1], [1, 1]]

    /// Red, green, blue, white at the corners of an 11 × 11 canvas (pixel 5's centre is u = 0.5).
    static func corners(smooth: Bool, background: Color = .clear, inset: CGFloat = 0) -> Recording {
        let mesh = MeshGradient(width: 2, height: 2, points: corners, colors: [.init(red: 1, green: 0, blue: 0),
                                .init(red: 0, green: 1, blue: 0), .init(red: 0, green: 0, blue: 1), .init(white: 1)],
                                background: background, smoothsColors: smooth)
        return Recording(size: CGSize(width: 11, height: 11)) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size).insetBy(dx: inset, dy: inset)), with: .meshGradient(mesh))
        }
    }

    func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ e: PixelRGBA8, _ what: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(x: x, y: y)
        let d = max(abs(Int(p.r) - Int(e.r)), abs(Int(p.g) - Int(e.g)), abs(Int(p.b) - Int(e.b)), abs(Int(p.a) - Int(e.a)))
        XCTAssertLessThanOrEqual(d, Self.rounding, "\(what): pixel (\(x), \(y)) = \(p), expected \(e)", file: file, line: line)
    }

    /// Every GLES form draws the bilinear corners mesh to the formula's values, and no GLES frame makes a CPU
    /// paint image (`MeshPaint.rasterizations` stays put); the reference makes one per mesh draw.
    func testGLESEvaluatesTheMeshWithoutTheCPURasterization() throws {
        let recording = Self.corners(smooth: false)
        let before = MeshPaint.rasterizations
        for (name, o) in BackendComparison.glesForms {
            let image = try CanvasRenderer(backend: .gles(o)).render(recording)
            XCTAssertEqual(MeshPaint.rasterizations, before, "\(name): a GLES frame rasterized a mesh on the CPU")
            // Values of MeshGradientTests.testBilinearTwoByTwoAtCornersAndCentre: u = v = 0.5/11 → red 0.9132,
            // green and blue 0.0455; the centre ½ everywhere; u = v = 2.5/11 → red 0.6488, green 0.2273.
            assertPixel(image, 0, 0, PixelRGBA8(r: 233, g: 12, b: 12, a: 255), name)
            assertPixel(image, 10, 0, PixelRGBA8(r: 22, g: 243, b: 12, a: 255), name)
            assertPixel(image, 0, 10, PixelRGBA8(r: 22, g: 12, b: 243, a: 255), name)
            assertPixel(image, 10, 10, PixelRGBA8(r: 233, g: 243, b: 243, a: 255), name)
            assertPixel(image, 5, 5, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), name)
            assertPixel(image, 2, 2, PixelRGBA8(r: 165, g: 58, b: 58, a: 255), name)
        }
        _ = try CanvasRenderer(backend: .reference).render(recording)
        XCTAssertEqual(MeshPaint.rasterizations, before + 1, "the reference rasterizes its paint image")
    }

    /// A 3100 pt mesh fill covers more than one filling of the coverage atlas, so atlas rows are uploaded again
    /// after a draw that bound the mesh page on its image unit. The upload must still reach the atlas (it went
    /// into the page, GL_INVALID_OPERATION, when the upload unit already held the atlas but was not active).
    func testAtlasRefilledAfterAMeshPageDrawReachesTheAtlas() throws {
        let n: CGFloat = 3100
        let mesh = MeshGradient(width: 2, height: 2, points: Self.corners,
                                colors: [.init(red: 1, green: 0, blue: 0), .init(red: 0, green: 1, blue: 0),
                                         .init(red: 0, green: 0, blue: 1), .init(white: 1)], smoothsColors: false)
        let recording = Recording(size: CGSize(width: n, height: n)) { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .meshGradient(mesh))
        }
        let image = try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa))).render(recording)
        // Bilinear: the corners are nearly their colours, the middle is the average.
        assertPixel(image, 0, 0, PixelRGBA8(r: 255, g: 0, b: 0, a: 255), "top-left")
        assertPixel(image, 3099, 3099, PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "bottom-right")
        assertPixel(image, 1550, 1550, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), "middle")
    }

    /// Bicubic with zero edge derivatives on a 2 × 2 mesh is smoothstep s(t) = 3t² − 2t³ in u and v, on the GPU
    /// too.
    func testGLESBicubicTwoByTwo() throws {
        for (name, o) in BackendComparison.glesForms {
            let image = try CanvasRenderer(backend: .gles(o)).render(Self.corners(smooth: true))
            // u = v = 2.5/11: s = 3u² − 2u³ = 0.1315; red (1−s)² + s² → 196.8; green s → 33.5.
            assertPixel(image, 2, 2, PixelRGBA8(r: 197, g: 34, b: 34, a: 255), name)
            assertPixel(image, 5, 5, PixelRGBA8(r: 128, g: 128, b: 128, a: 255), name)
        }
    }

    /// One offscreen pass draws all of a frame's meshes into one mesh page before the frame's pass; the page is
    /// never uploaded.
    func testAllMeshesOfAFrameDrawInOnePass() throws {
        let mesh = MeshGradient(width: 3, height: 3, points: [[0, 0], [0.5, 0], [1, 0], [0, 0.5], [0.6, 0.4], [1, 0.5],
                                                              [0, 1], [0.5, 1], [1, 1]],
                                colors: [.red, .orange, .yellow, .green, .blue, .purple, .pink, .white, .black])
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        _ = try r.render(size: CGSize(width: 64, height: 48)) { ctx, _ in
            for k in 0 ..< 5 {
                ctx.fill(Path(ellipseIn: CGRect(x: 2 + 11 * CGFloat(k), y: 4, width: 10, height: 30)), with: .meshGradient(mesh))
            }
        }
        let text = try XCTUnwrap(r.lastGPUCommandDump)
        let lines = text.split(separator: "\n").map(String.init)
        let passes = lines.filter { $0.hasPrefix("  pass ") }
        XCTAssertEqual(passes.count, 2, text)
        XCTAssertTrue(passes[0].hasPrefix("  pass 0 → image0 load: clear(0, 0, 0, 0)"), text)
        XCTAssertTrue(passes[1].hasPrefix("  pass 1 → frame"), text)
        // llvmpipe has 32 varying vectors: the coefficients come per vertex.
        XCTAssertEqual(lines.filter { $0.contains("bind pipeline meshPaint (program mesh_paint [MESH_VERTEX_FETCH=1], blend off)") }.count,
                       1, text)
        XCTAssertEqual(lines.filter { $0.contains("draw triangles") && $0.hasSuffix("(meshPaint)") }.count, 1, text)
        XCTAssertFalse(lines.contains { $0.contains("upload image0") }, text)
        XCTAssertEqual(MemoryLayout<MeshVertex>.stride, MeshVertex.stride)
    }

    /// The same recording gives the same bytes twice, from the same renderer and from a fresh one.
    func testSameMeshTwiceGivesIdenticalBytes() throws {
        for (name, o) in BackendComparison.glesForms {
            let r = try CanvasRenderer(backend: .gles(o))
            let a = try r.render(Self.meshFrame(3))
            _ = try r.render(Self.meshFrame(4))
            XCTAssertEqual(a, try r.render(Self.meshFrame(3)), "\(name): same renderer")
            XCTAssertEqual(a, try CanvasRenderer(backend: .gles(o)).render(Self.meshFrame(3)), "\(name): fresh renderer")
        }
    }

    /// Coefficients read per fragment (a device with GLES 3.0's 15 varying vectors) give the bytes of
    /// coefficients read per vertex into flat varyings.
    func testCoefficientsPerFragmentGiveThePerVertexBytes() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let backend = try XCTUnwrap(r.implementation as? GLESBackend)
        var images: [RasterImage] = []
        for fetch in [true, false] {
            backend.meshVertexFetch = fetch
            images.append(try r.render(Self.meshFrame(5)))
            XCTAssertTrue(try XCTUnwrap(r.lastGPUCommandDump).contains("program mesh_paint\(fetch ? " [MESH_VERTEX_FETCH=1]" : ""),"))
        }
        XCTAssertEqual(images[0], images[1])
        // Not a blank page: the mesh's first vertex is red (its pixel (5, 5) well inside the rounded rect).
        XCTAssertGreaterThan(images[0].pixel(x: 8, y: 8).r, 200)
    }

    /// A moving, bending 4 × 3 mesh on a translucent background, and a perceptual one, on a linear-light canvas.
    static func meshFrame(_ n: Int) -> Recording {
        let t = Float(n) * 0.05
        var points: [SIMD2<Float>] = []
        for j in 0 ..< 3 { for i in 0 ..< 4 { points.append([Float(i) / 3, Float(j) / 2]) } }
        points[5] += [0.1 * sin(t), 0.1 * cos(t)]
        let colors: [Color] = [.red, .orange, .yellow, .green, .mint, .teal, .cyan, .blue, .indigo, .purple, .pink, .brown]
        let mesh = MeshGradient(width: 4, height: 3, points: points, colors: colors, background: .gray.opacity(0.5))
        let oklab = MeshGradient(width: 2, height: 2, points: corners, colors: [.blue, .yellow, .white, .red],
                                 colorSpace: .perceptual)
        return Recording(size: CGSize(width: 96, height: 64), colorMode: .linear) { ctx, _ in
            ctx.fill(Path(roundedRect: CGRect(x: 4 + 3 * Double(sin(t)), y: 4, width: 60, height: 40), cornerRadius: 8),
                     with: .meshGradient(mesh))
            ctx.fill(Path(ellipseIn: CGRect(x: 50, y: 20, width: 40, height: 40)), with: .meshGradient(oklab))
        }
    }

    /// Mesh pages come from the texture pool: `soakFrames` frames of moving meshes keep the GL objects flat.
    func testThousandMeshFramesKeepGLObjectsFlat() throws {
        try TestTier.requireThorough()
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        try GLESResourceTests.assertFlatOverSoakFrames(r, "mesh", Self.meshFrame)
    }
}
