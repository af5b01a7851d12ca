@testable import GPUCanvas
@testable import GPUCanvasGLES
import XCTest

/// The GLES program library: general programs draw what is new at once, specialised programs replace them
/// where a variant comes back, and both give the same bytes (`ProgramLibrary`'s design note).
final class ProgramLibraryTests: XCTestCase {
    /// A frame with a blur of `radius`, a rectangle blended with `mode` and a gradient with `spread`.
    ///
    /// Known pixels (sRGB-encoded, non-linear canvas):
    /// - (16, 16): red under blue blended `.screen` is magenta (255, 0, 255); `.multiply` is black;
    /// - (84, 8): a black → white gradient from x = 64 to x = 80, repeated: t = (84.5 − 64)/16 = 1.28125 →
    ///   0.28125 → 71.7; mirrored: 2 − 1.28125 = 0.71875 → 183.3;
    /// - (60, 90): the middle of a white 80 × 40 rectangle, blurred by at most 4 points: 30 px from every edge
    ///   (> 3σ at σ = 4 on the downsampled grid's reach), so still white.
    static func frame(radius: CGFloat, mode: GraphicsContext.BlendMode,
                      spread: GraphicsContext.GradientOptions) -> Recording {
        Recording(size: CGSize(width: 120, height: 140)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 32, height: 32)), with: .color(Color(red: 1, green: 0, blue: 0)))
            var blended = ctx
            blended.blendMode = mode
            blended.fill(Path(CGRect(x: 0, y: 0, width: 32, height: 32)), with: .color(Color(red: 0, green: 0, blue: 1)))
            ctx.fill(Path(CGRect(x: 64, y: 0, width: 48, height: 16)),
                     with: .linearGradient(Gradient(colors: [.black, .white]), startPoint: CGPoint(x: 64, y: 0),
                                           endPoint: CGPoint(x: 80, y: 0), options: spread))
            ctx.drawLayer { layer in
                layer.addFilter(.blur(radius: radius))
                layer.fill(Path(CGRect(x: 20, y: 70, width: 80, height: 40)), with: .color(.white))
            }
            // A blur wide enough for the downsampled route (block average, kernel sums, upsampling), in white so
            // that it leaves the white middle white; a shadow combined with a blend mode.
            ctx.drawLayer { layer in
                layer.addFilter(.blur(radius: radius * 4))
                layer.fill(Path(CGRect(x: 0, y: 110, width: 30, height: 30)), with: .color(.white))
            }
            ctx.drawLayer { layer in
                layer.addFilter(.shadow(color: .black, radius: radius, x: 4, y: 4, blendMode: mode))
                layer.fill(Path(CGRect(x: 70, y: 30, width: 30, height: 20)), with: .color(.green))
            }
        }
    }

    /// Gradient levels may differ from the exact value by the 8-bit rounding of the interpolated colour and
    /// the sRGB round trip of the stops: one level.
    static let gradientTolerance = 1

    private func assertKnownPixels(_ image: RasterImage, mode: GraphicsContext.BlendMode,
                                   spread: GraphicsContext.GradientOptions, file: StaticString = #filePath,
                                   line: UInt = #line) {
        let blended = image.pixel(x: 16, y: 16)
        let expected: [UInt8] = mode == .screen ? [255, 0, 255, 255] : [0, 0, 0, 255]
        XCTAssertEqual([blended.r, blended.g, blended.b, blended.a], expected, "\(mode)", file: file, line: line)
        let level = Int(image.pixel(x: 84, y: 8).r)
        let t = spread == .mirror ? 0.71875 : 0.28125
        XCTAssertLessThanOrEqual(abs(level - Int((t * 255).rounded())), Self.gradientTolerance, "\(spread)",
                                 file: file, line: line)
        let middle = image.pixel(x: 60, y: 90)
        XCTAssertEqual([middle.r, middle.g, middle.b, middle.a], [255, 255, 255, 255], file: file, line: line)
    }

    /// After `prepare` (blur 2, multiply, repeat), a frame with a new blur radius, blend mode and spread
    /// compiles no program: the general programs draw it. The same frame again specialises its variants, and
    /// its bytes do not change.
    func testNewRadiusBlendModeAndSpreadCompileNothingOnTheirFirstFrame() throws {
        let renderer = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let gles = try XCTUnwrap(renderer.implementation as? GLESBackend)
        try renderer.prepare(Self.frame(radius: 2, mode: .multiply, spread: .repeat))
        let prepared = (gles.programs.generalBuilt, gles.programs.specialisedBuilt)
        XCTAssertGreaterThan(prepared.1, 0, "prepare specialises the frame's variants")

        let next = Self.frame(radius: 3.5, mode: .screen, spread: .mirror)
        let first = try renderer.render(next)
        XCTAssertEqual(gles.programs.generalBuilt, prepared.0, "a new radius, mode or spread builds no general program")
        XCTAssertEqual(gles.programs.specialisedBuilt, prepared.1, "nor a specialised one on its first frame")
        assertKnownPixels(first, mode: .screen, spread: .mirror)

        let second = try renderer.render(next)
        let afterSecond = gles.programs.specialisedBuilt
        XCTAssertGreaterThan(afterSecond, prepared.1, "the second frame specialises")
        XCTAssertLessThanOrEqual(afterSecond - prepared.1, ProgramLibrary.specialisedPerFrame)
        XCTAssertEqual(first.pixels, second.pixels, "general and specialised programs give the same bytes")
        var last = second
        for _ in 0 ..< 4 {
            last = try renderer.render(next)
            XCTAssertEqual(second.pixels, last.pixels)
        }
        XCTAssertGreaterThan(gles.programs.specialisedBuilt, afterSecond, "the frames after specialise the rest")
    }

    /// A one-shot render builds general programs only, and the same frame with every variant specialised
    /// (the behaviour before general programs) gives the same bytes.
    func testOneFrameBuildsOnlyGeneralProgramsAndMatchesSpecialised() throws {
        let recording = Self.frame(radius: 2.5, mode: .multiply, spread: .repeat)
        let general = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let generalGLES = try XCTUnwrap(general.implementation as? GLESBackend)
        XCTAssertEqual(generalGLES.programs.generalBuilt, 0, "a new renderer has built no program")
        let a = try general.render(recording)
        XCTAssertEqual(generalGLES.programs.specialisedBuilt, 0)
        XCTAssertGreaterThan(generalGLES.programs.generalBuilt, 0)
        assertKnownPixels(a, mode: .multiply, spread: .repeat)

        let specialised = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, specialisation: .always)))
        let specialisedGLES = try XCTUnwrap(specialised.implementation as? GLESBackend)
        let b = try specialised.render(recording)
        XCTAssertGreaterThan(specialisedGLES.programs.specialisedBuilt, 0)
        XCTAssertEqual(a.pixels, b.pixels, "general and specialised programs give the same bytes")
    }

    /// An animated blur radius: each frame's kernel is new, but on the downsampled route the block factors and
    /// coarse kernels come back, and those are specialised, at most `specialisedPerFrame` a frame; the
    /// programs stay bounded (before general programs, each radius compiled its own programs at once).
    func testAnAnimatedBlurRadiusSpecialisesAtMostFourAFrame() throws {
        let renderer = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let gles = try XCTUnwrap(renderer.implementation as? GLESBackend)
        func frame(_ n: Int) -> Recording {
            Recording(size: CGSize(width: 64, height: 64)) { ctx, _ in
                ctx.addFilter(.blur(radius: 0.5 + 0.37 * Double(n)))
                ctx.fill(Path(ellipseIn: CGRect(x: 16, y: 16, width: 32, height: 32)), with: .color(.blue))
            }
        }
        _ = try renderer.render(frame(0))
        XCTAssertEqual(gles.programs.specialisedBuilt, 0, "a first frame draws with general programs")
        var before = gles.programs.specialisedBuilt
        for n in 1 ..< 40 {
            _ = try renderer.render(frame(n))
            let built = gles.programs.specialisedBuilt - before
            XCTAssertLessThanOrEqual(built, ProgramLibrary.specialisedPerFrame, "frame \(n)")
            before = gles.programs.specialisedBuilt
        }
        let programs = try XCTUnwrap(renderer.gpuResourceStats?.programs)
        XCTAssertEqual(programs, gles.programs.generalBuilt + gles.programs.specialisedBuilt)
        XCTAssertLessThanOrEqual(gles.programs.specialisedBuilt, ProgramLibrary.specialisedLimit)
    }

    /// `prepare` throws what `render` throws, on both backends.
    func testPrepareRejectsWhatRenderRejects() throws {
        let bad = Recording(size: CGSize(width: 0, height: 10)) { _, _ in }
        for backend in [CanvasRenderer.Backend.reference, .gles(GLESOptions(device: .mesa))] {
            let r = try CanvasRenderer(backend: backend)
            var renderError = "", prepareError = ""
            XCTAssertThrowsError(try r.render(bad)) { renderError = "\($0)" }
            XCTAssertThrowsError(try r.prepare(bad)) { prepareError = "\($0)" }
            XCTAssertEqual(renderError, prepareError)
        }
    }
}
