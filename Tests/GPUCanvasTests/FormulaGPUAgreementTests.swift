import CGLES
import XCTest
import Shaders
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasReference
@testable import GPUCanvasGLES

/// The GLSL formulas (`include/blend.glsl`, `include/gradient.glsl`) against the Swift ones (`BlendFormulas`,
/// `GradientPaint`) on llvmpipe: a tiny program including both snippets renders into an RGBA32F framebuffer,
/// one fragment per case, and the floats read back are compared with the CPU's. Also the `#include` support of
/// `ShaderSource.parse` those programs rely on.
final class FormulaGPUAgreementTests: XCTestCase {
    /// Largest channel difference allowed between `blendMode()` on the GPU and `BlendFormulas.blend`. Both
    /// compute in binary32 with the same operation order, so they differ by a few ulps of the intermediates
    /// (division, sqrt and the ClipColor quotients may round differently, and the driver may fuse a·b + c); the
    /// largest intermediate is about 1, so the expected difference is ~10⁻⁶. 10⁻³ leaves room for a driver that
    /// computes a/b as a·(1/b) in an inexact reciprocal (GLSL ES 3.0 allows 2.5 ulp for division) through the
    /// colorDodge/colorBurn quotients, and is still 4× finer than one step of an 8-bit target.
    static let blendTolerance: Float = 1e-3

    /// Largest channel difference allowed between `gradientColor()` on the GPU (float, from the packed row)
    /// and `GradientPaint.color(at:)` (Double, from the definitions). The t error bound of the packing is under
    /// 10⁻⁴ for every case here (GradientFormulas.swift's design note); a stop colour changes by at most ~10 per
    /// unit of t in these gradients, and the sRGB encode of `.linearColor` goes through the driver's pow. Two
    /// steps of an 8-bit target keeps a wrong formula (a mirrored sign, a swapped stop, an origin off by a pixel)
    /// visible while forgiving float.
    static let gradientTolerance: Float = 2 / 255

    /// Pixels where the CPU colour changes by more than half the tolerance within this distance (device px) are
    /// discontinuities (hard stops, the repeat and conic seams, a two-point cone's edge, a conic's centre); there
    /// a shift of t by float rounding flips the colour, so they are counted but not compared. The packing's
    /// position error is below 10⁻³ px everywhere on a 16384-px canvas.
    static let discontinuityProbe = 0.004

    private var context: GLContext!

    override func setUpWithError() throws {
        context = try GLContext(selection: .mesa)
        guard context.extensions.contains("GL_EXT_color_buffer_float") else {
            throw XCTSkip("this GL cannot render to RGBA32F (no GL_EXT_color_buffer_float)")
        }
    }

    override func tearDown() {
        context.releaseCurrent()
        context = nil
    }

    /// Both snippets in one fragment stage: `u_gradient` 0 draws the blend grid (x = mode, y = colour pair,
    /// pairs in texels (0, y) and (1, y) of `u_data`), 1 draws row `u_row`'s gradient with device pixel centre
    /// gl_FragCoord + `u_offset`.
    static let program = """
        #version 300 es
        precision highp float;
        precision highp int;
        #pragma stage vertex
        void main() {
            gl_Position = vec4(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1), 0.0, 1.0);
        }
        #pragma stage fragment
        #include "blend.glsl"
        #include "gradient.glsl"
        uniform highp sampler2D u_data;
        uniform int u_gradient;
        uniform int u_row;
        uniform vec2 u_offset;
        layout(location = 0) out vec4 o_color;
        void main() {
            ivec2 c = ivec2(gl_FragCoord.xy);
            if (u_gradient != 0) {
                o_color = gradientColor(u_data, u_row, gl_FragCoord.xy + u_offset);
            } else {
                o_color = blendMode(c.x, texelFetch(u_data, ivec2(0, c.y), 0), texelFetch(u_data, ivec2(1, c.y), 0));
            }
        }
        """

    // MARK: GL plumbing (everything created here is deleted by the caller's defer)

    struct Rig {
        var program: GLProgram
        var texture: GLuint = 0
        var renderbuffer: GLuint = 0
        var framebuffer: GLuint = 0
        var vertexArray: GLuint = 0

        func delete() {
            var t = texture, r = renderbuffer, f = framebuffer, v = vertexArray
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glUseProgram(0)
            glDeleteProgram(program.id)
            if t != 0 { glDeleteTextures(1, &t) }
            if r != 0 { glDeleteRenderbuffers(1, &r) }
            if f != 0 { glDeleteFramebuffers(1, &f) }
            if v != 0 { glDeleteVertexArrays(1, &v) }
        }
    }

    /// The program, an RGBA32F data texture of `data` (`dataWidth` texels a row), an RGBA32F framebuffer of
    /// `width × height`, and a vertex array.
    func makeRig(data: [SIMD4<Float>], dataWidth: Int, width: Int, height: Int) throws -> Rig {
        var rig = Rig(program: try GLProgram.build(text: Self.program, name: "formula_agreement"))
        glGenTextures(1, &rig.texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), rig.texture)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        data.withUnsafeBytes { bytes in
            glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA32F, GLsizei(dataWidth), GLsizei(data.count / dataWidth), 0,
                         GLenum(GL_RGBA), GLenum(GL_FLOAT), bytes.baseAddress)
        }
        glGenRenderbuffers(1, &rig.renderbuffer)
        glBindRenderbuffer(GLenum(GL_RENDERBUFFER), rig.renderbuffer)
        glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA32F), GLsizei(width), GLsizei(height))
        glGenFramebuffers(1, &rig.framebuffer)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), rig.framebuffer)
        glFramebufferRenderbuffer(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER),
                                  rig.renderbuffer)
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            rig.delete()
            throw RenderError.gpu("RGBA32F framebuffer: \(GLErrorName.name(status))")
        }
        glGenVertexArrays(1, &rig.vertexArray)
        glBindVertexArray(rig.vertexArray)
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_DITHER))
        glUseProgram(rig.program.id)
        glActiveTexture(GLenum(GL_TEXTURE0))
        glUniform1i(glGetUniformLocation(rig.program.id, "u_data"), 0)
        try context.check("setting up the agreement rig")
        return rig
    }

    /// Draws one full-target triangle and reads the target back (GL row 0 first).
    func drawAndRead(width: Int, height: Int) throws -> [SIMD4<Float>] {
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        var out = [SIMD4<Float>](repeating: .zero, count: width * height)
        out.withUnsafeMutableBytes { bytes in
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_FLOAT), bytes.baseAddress)
        }
        try context.check("drawing and reading back")
        return out
    }

    // MARK: Blend modes

    /// Premultiplied (source, destination) pairs: hand-picked edges (transparent either side, the colorDodge /
    /// colorBurn branch points, greys for SetSat, the values of BlendFormulaTests), then pseudo-random ones.
    static func blendPairs() -> [(SIMD4<Float>, SIMD4<Float>)] {
        func pm(_ r: Float, _ g: Float, _ b: Float, _ a: Float) -> SIMD4<Float> { SIMD4(r * a, g * a, b * a, a) }
        var pairs: [(SIMD4<Float>, SIMD4<Float>)] = [
            (pm(0.5, 0.5, 0.5, 1), pm(0.5, 0.5, 0.5, 1)),
            (pm(0, 0, 1, 1), pm(1, 0, 0, 1)),
            (pm(0.9, 0.1, 0.5, 1), pm(0.2, 0.6, 0.4, 1)),
            (SIMD4(0.4, 0.2, 0, 0.8), SIMD4(0, 0.3, 0.6, 0.75)),
            (.zero, pm(0.1, 0.3, 0.5, 0.6)),
            (pm(0.1, 0.3, 0.5, 0.6), .zero),
            (.zero, .zero),
            (pm(1, 1, 1, 1), pm(0, 0, 0, 1)),
            (pm(0, 0, 0, 1), pm(1, 1, 1, 1)),
            (pm(1, 0.5, 0, 1), pm(0, 0.5, 1, 1)),       // colorDodge Cs = 1 over Cb = 0; colorBurn Cs = 0 under Cb = 1
            (pm(1, 1, 0, 0.5), pm(0, 0.25, 1, 0.5)),
            (pm(0.3, 0.3, 0.3, 0.7), pm(0.8, 0.2, 0.6, 0.9)),  // a grey source: SetSat's x = n branch
            (pm(0.8, 0.2, 0.6, 0.9), pm(0.3, 0.3, 0.3, 0.7)),
            (pm(0.2, 0.6, 0.6, 1), pm(0.9, 0.9, 0.1, 1)),     // tied channels
            (pm(0.16, 0.64, 0.25, 1), pm(0.75, 0.25, 0.5, 1)), // softLight's D(Cb) branches
        ]
        let exact: [Float] = [0, 0.25, 0.5, 0.75, 1, 0.1, 0.9, 0.37]
        let alphas: [Float] = [1, 0.5, 0.8, 0.25, 0.6]
        var rng = FormulaTestRandom(seed: 11)
        while pairs.count < 240 {
            func colour() -> SIMD4<Float> {
                let pick = rng.next() % 3
                func v() -> Float { pick == 0 ? exact[Int(rng.next() % UInt64(exact.count))] : rng.unit() }
                let a = pick == 2 ? rng.unit() : alphas[Int(rng.next() % UInt64(alphas.count))]
                return pm(v(), v(), v(), a)
            }
            pairs.append((colour(), colour()))
        }
        return pairs
    }

    func testEveryBlendModeAgreesWithTheCPU() throws {
        let pairs = Self.blendPairs()
        let width = 28, height = pairs.count
        let rig = try makeRig(data: pairs.flatMap { [$0.0, $0.1] }, dataWidth: 2, width: width, height: height)
        defer { rig.delete() }
        glUniform1i(glGetUniformLocation(rig.program.id, "u_gradient"), 0)
        let gpu = try drawAndRead(width: width, height: height)
        var worst: (diff: Float, mode: Int, pair: Int) = (0, 0, 0)
        var worstPerMode = [Float](repeating: 0, count: width)
        for (y, (s, d)) in pairs.enumerated() {
            for mode in 0 ..< width {
                let cpu = BlendFormulas.blend(GraphicsContext.BlendMode(rawValue: Int32(mode)), source: s, destination: d)
                let diff = maxAbsDifference(gpu[y * width + mode], cpu)
                worstPerMode[mode] = max(worstPerMode[mode], diff)
                if !(diff <= worst.diff) { worst = (diff, mode, y) }
            }
        }
        let names = (0 ..< 28).map { "\(GraphicsContext.BlendMode(rawValue: Int32($0)))" }
        print("blend agreement: worst \(worst.diff) (\(names[worst.mode]), pair \(worst.pair)); per mode:",
              zip(names, worstPerMode).map { "\($0) \($1)" }.joined(separator: ", "))
        for mode in 0 ..< width {
            XCTAssertLessThanOrEqual(worstPerMode[mode], Self.blendTolerance, names[mode])
        }
        let (s, d) = pairs[worst.pair]
        XCTAssertLessThanOrEqual(worst.diff, Self.blendTolerance,
                                 "\(names[worst.mode]) of \(s) over \(d): GPU \(gpu[worst.pair * width + worst.mode])")
    }

    // MARK: Gradients

    /// The tolerance of the precision cases at the far corner of a 16384-px canvas: a quarter of the 1/256
    /// budget in t the packing promises. Their stops are a black → white ramp, so a colour difference is a
    /// difference in t (the conic one goes through the sRGB curve too, slope ≤ 12.92, on t errors of 10⁻⁶).
    /// Float without the packing's care misses it: t ≈ 5·10⁵ keeps its fraction to 1/32 only, and |v| − r0
    /// for a ring of radius 4·10⁶ px is good to 0.125 px only, 3·10⁻³ of its 40 px ramp.
    static let farCornerTolerance: Float = 1.0 / 1024

    struct GradientCase {
        var name: String
        var paint: GradientPaint
        /// Device position of the rendered window's corner (its pixel (0, 0) has centre offset + (0.5, 0.5)).
        var offset: SIMD2<Double> = .zero
        /// `gradientTolerance` unless the case tests precision.
        var tolerance: Float = FormulaGPUAgreementTests.gradientTolerance
    }

    static func gradientCases() -> [GradientCase] {
        typealias G = GradientPaint
        typealias S = G.Stop
        let red = SIMD4<Float>(1, 0, 0, 1), blue = SIMD4<Float>(0, 0, 1, 1), clearGreen = SIMD4<Float>(0.2, 0.8, 0.3, 0.6)
        let black = SIMD4<Float>(0, 0, 0, 1), white = SIMD4<Float>(1, 1, 1, 1)
        let rgb = [S(location: 0, color: red), S(location: 0.4, color: clearGreen), S(location: 1, color: blue)]
        let ramp = [S(location: 0, color: black), S(location: 1, color: white)]
        let five = [S(location: 0, color: red), S(location: 0.2, color: SIMD4(1, 0.8, 0, 1)),
                    S(location: 0.45, color: clearGreen), S(location: 0.7, color: SIMD4(0.1, 0.2, 0.9, 0.3)),
                    S(location: 1, color: SIMD4(0.9, 0.1, 0.7, 1))]
        var rng = FormulaTestRandom(seed: 5)
        var many: [S] = (0 ..< 120).map { _ in
            S(location: Float(Int(rng.next() % 40)) / 40, color: SIMD4(rng.unit(), rng.unit(), rng.unit(), 0.3 + 0.7 * rng.unit()))
        }
        many.sort { $0.location < $1.location }   // stable: equal locations (hard edges) keep their order
        // A draw's user→device transforms; the gradient maps device → user, their inverse.
        let rotated = CGAffineTransform(rotationAngle: 0.52).scaledBy(x: 1.7, y: 1.7)
            .concatenating(CGAffineTransform(translationX: 10, y: 4))
        let skewed = CGAffineTransform(a: 1.2, b: 0.3, c: -0.5, d: 0.9, tx: 3, ty: 2)
        let squashed = CGAffineTransform(scaleX: 1.5, y: 0.8).concatenating(CGAffineTransform(translationX: 12, y: 9))
        let turned = CGAffineTransform(rotationAngle: 0.7).scaledBy(x: 1.3, y: 0.6)
            .concatenating(CGAffineTransform(translationX: 30, y: 20))
        let far = SIMD2<Double>(16300, 16320)   // the window's top right corner is (16364, 16368)
        return [
            GradientCase(name: "linear pad", paint: G(geometry: .linear(start: SIMD2(6, 5), end: SIMD2(58, 40)), stops: rgb)),
            GradientCase(name: "linear repeat, rotated and scaled",
                         paint: G(geometry: .linear(start: SIMD2(0, 0), end: SIMD2(7, 0)),
                                  gradientFromDevice: rotated.inverted(), stops: rgb, spread: .repeat)),
            GradientCase(name: "linear mirror, skewed",
                         paint: G(geometry: .linear(start: SIMD2(2, 3), end: SIMD2(9, 11)),
                                  gradientFromDevice: skewed.inverted(), stops: five, spread: .mirror)),
            GradientCase(name: "linear repeat, t ≈ 500 000 at the canvas's far corner",
                         paint: G(geometry: .linear(start: SIMD2(-1_000_000 + 0.37, 3), end: SIMD2(-1_000_000 + 2.47, 3.4)),
                                  stops: ramp, spread: .repeat), offset: far, tolerance: farCornerTolerance),
            GradientCase(name: "linear pad, 1.4 px ramp at the far corner",
                         paint: G(geometry: .linear(start: SIMD2(16331.3, 16340.2), end: SIMD2(16332.6, 16340.8)),
                                  stops: ramp), offset: far, tolerance: farCornerTolerance),
            GradientCase(name: "linear, 120 stops with hard edges, repeat",
                         paint: G(geometry: .linear(start: SIMD2(3, 40), end: SIMD2(50, 2)), stops: many, spread: .repeat)),
            GradientCase(name: "linearColor, encoded working space",
                         paint: G(geometry: .linear(start: SIMD2(0, 0), end: SIMD2(64, 20)), stops: five,
                                  interpolatesLinearLight: true, workingSpaceIsEncoded: true)),
            GradientCase(name: "degenerate linear", paint: G(geometry: .linear(start: SIMD2(9, 9), end: SIMD2(9, 9)), stops: five)),
            GradientCase(name: "concentric pad",
                         paint: G(geometry: .radial(startCenter: SIMD2(30.3, 20.7), startRadius: 3,
                                                    endCenter: SIMD2(30.3, 20.7), endRadius: 25), stops: rgb)),
            GradientCase(name: "concentric repeat, squashed",
                         paint: G(geometry: .radial(startCenter: SIMD2(10, 12), startRadius: 0,
                                                    endCenter: SIMD2(10, 12), endRadius: 9),
                                  gradientFromDevice: squashed.inverted(), stops: five, spread: .repeat)),
            GradientCase(name: "concentric mirror, shrinking",
                         paint: G(geometry: .radial(startCenter: SIMD2(40, 10), startRadius: 30,
                                                    endCenter: SIMD2(40, 10), endRadius: 12), stops: rgb, spread: .mirror)),
            // The centre 4·10⁶ px up and to the left along (0.6, 0.8) from (16330, 16344); a 40 px ring there.
            GradientCase(name: "concentric ring of radius 4·10⁶ px crossing the far corner",
                         paint: G(geometry: .radial(startCenter: SIMD2(-2_383_670, -3_183_656), startRadius: 3_999_980,
                                                    endCenter: SIMD2(-2_383_670, -3_183_656), endRadius: 4_000_020),
                                  stops: ramp),
                         offset: far, tolerance: farCornerTolerance),
            GradientCase(name: "concentric repeat, 8 px period, centre at the canvas origin, far corner",
                         paint: G(geometry: .radial(startCenter: SIMD2(0, 0), startRadius: 0,
                                                    endCenter: SIMD2(0, 0), endRadius: 8), stops: ramp, spread: .repeat),
                         offset: far, tolerance: farCornerTolerance),
            GradientCase(name: "equal circles", paint: G(geometry: .radial(startCenter: SIMD2(5, 5), startRadius: 4,
                                                                           endCenter: SIMD2(5, 5), endRadius: 4), stops: rgb)),
            GradientCase(name: "two-point cone",
                         paint: G(geometry: .radial(startCenter: SIMD2(8, 24), startRadius: 0,
                                                    endCenter: SIMD2(40, 20), endRadius: 14), stops: rgb)),
            GradientCase(name: "two-point nested, mirror",
                         paint: G(geometry: .radial(startCenter: SIMD2(30, 22), startRadius: 4,
                                                    endCenter: SIMD2(36, 18), endRadius: 18), stops: five, spread: .mirror)),
            GradientCase(name: "two-point shrinking cone, repeat, skewed",
                         paint: G(geometry: .radial(startCenter: SIMD2(20, 20), startRadius: 20,
                                                    endCenter: SIMD2(44, 28), endRadius: 2),
                                  gradientFromDevice: skewed.inverted(), stops: rgb, spread: .repeat)),
            GradientCase(name: "two-point, |Δc| = |Δr|",
                         paint: G(geometry: .radial(startCenter: SIMD2(10, 24), startRadius: 0,
                                                    endCenter: SIMD2(30, 24), endRadius: 20), stops: rgb)),
            GradientCase(name: "conic", paint: G(geometry: .conic(center: SIMD2(31.25, 23.5), angle: 0.3), stops: five)),
            GradientCase(name: "conic, turned and squashed",
                         paint: G(geometry: .conic(center: SIMD2(-4, 3), angle: -1), gradientFromDevice: turned.inverted(),
                                  stops: rgb)),
            GradientCase(name: "conic at the far corner",
                         paint: G(geometry: .conic(center: SIMD2(16332.5, 16344.25), angle: 2), stops: ramp,
                                  interpolatesLinearLight: true, workingSpaceIsEncoded: true), offset: far,
                         tolerance: farCornerTolerance),
        ]
    }

    func testEveryGradientAgreesWithTheCPU() throws {
        let cases = Self.gradientCases()
        let rows = cases.map { $0.paint.packedTexels() }
        let dataWidth = rows.map(\.count).max()!
        let data = rows.flatMap { $0 + [SIMD4<Float>](repeating: .zero, count: dataWidth - $0.count) }
        let width = 64, height = 48
        let rig = try makeRig(data: data, dataWidth: dataWidth, width: width, height: height)
        defer { rig.delete() }
        glUniform1i(glGetUniformLocation(rig.program.id, "u_gradient"), 1)
        let rowLocation = glGetUniformLocation(rig.program.id, "u_row")
        let offsetLocation = glGetUniformLocation(rig.program.id, "u_offset")
        for (i, c) in cases.enumerated() {
            glUniform1i(rowLocation, GLint(i))
            glUniform2f(offsetLocation, GLfloat(c.offset.x), GLfloat(c.offset.y))
            let gpu = try drawAndRead(width: width, height: height)
            var worst: Float = 0, worstAt = SIMD2<Double>.zero, skipped = 0
            for y in 0 ..< height {
                for x in 0 ..< width {
                    let p = c.offset + SIMD2(Double(x) + 0.5, Double(y) + 0.5)
                    let cpu = c.paint.color(at: p)
                    if isNearDiscontinuity(c.paint, p, cpu) { skipped += 1; continue }
                    let diff = maxAbsDifference(gpu[y * width + x], cpu)
                    if !(diff <= worst) { worst = diff; worstAt = p }
                }
            }
            print("gradient agreement, \(c.name): worst \(worst) at \(worstAt), \(skipped) of \(width * height) pixels at discontinuities")
            XCTAssertLessThanOrEqual(worst, c.tolerance,
                                     "\(c.name) at \(worstAt): GPU \(gpu[Int(worstAt.y - c.offset.y) * width + Int(worstAt.x - c.offset.x)]) CPU \(c.paint.color(at: worstAt))")
            XCTAssertLessThan(skipped, width * height / 10, "\(c.name): too few pixels compared to mean anything")
        }
    }

    /// Whether the CPU colour jumps within `discontinuityProbe` of `p`.
    func isNearDiscontinuity(_ g: GradientPaint, _ p: SIMD2<Double>, _ centre: SIMD4<Float>) -> Bool {
        let r = Self.discontinuityProbe
        for d in [SIMD2(r, 0), SIMD2(-r, 0), SIMD2(0, r), SIMD2(0, -r), SIMD2(r, r), SIMD2(-r, -r), SIMD2(r, -r), SIMD2(-r, r)] {
            if maxAbsDifference(g.color(at: p + d), centre) > Self.gradientTolerance / 2 { return true }
        }
        return false
    }

    // MARK: #include

    func testIncludeExpandsWithLineDirectives() throws {
        let files = ["a.glsl": "float a() { return 1.0; }\n", "b.glsl": "#include \"a.glsl\"\nfloat b() { return a(); }"]
        let text = "#version 300 es\n#include \"a.glsl\"\n#pragma stage vertex\nvoid main() {}\n#pragma stage fragment\n#include \"b.glsl\"\nout vec4 c;"
        let s = try ShaderSource.parse(text, name: "t", include: { files[$0] })
        XCTAssertEqual(s.vertex, "#version 300 es\n#line 10001 1\nfloat a() { return 1.0; }\n#line 3 0\n#line 4\nvoid main() {}")
        // b.glsl includes a.glsl, which the prologue already brought into this stage: left out, line kept.
        XCTAssertEqual(s.fragment, "#version 300 es\n#line 10001 1\nfloat a() { return 1.0; }\n#line 3 0\n#line 6\n#line 20001 2\n\nfloat b() { return a(); }\n#line 7 0\nout vec4 c;")
    }

    func testUnknownOrCyclicIncludeIsAnError() {
        let text = "#version 300 es\n#pragma stage vertex\nvoid main() {}\n#pragma stage fragment\n#include \"nope.glsl\"\n"
        XCTAssertThrowsError(try ShaderSource.parse(text, name: "t")) { error in
            XCTAssertEqual(error as? RenderError, .gpu("shader t.glsl line 5: unknown include \"nope.glsl\""))
        }
        let files = ["x.glsl": "#include \"y.glsl\"", "y.glsl": "#include \"x.glsl\""]
        XCTAssertThrowsError(try ShaderSource.parse(text.replacingOccurrences(of: "nope", with: "x"), name: "t",
                                                    include: { files[$0] })) {
            XCTAssertTrue("\($0)".contains("include cycle x.glsl → y.glsl → x.glsl"), "\($0)")
        }
        XCTAssertThrowsError(try ShaderSource.parse(text.replacingOccurrences(of: "\"nope.glsl\"", with: "<nope.glsl>"),
                                                    name: "t")) {
            XCTAssertTrue("\($0)".contains("malformed include"), "\($0)")
        }
        XCTAssertNil(ShaderLibrary.includeSource(named: "../atlas_blit.glsl"), "an include stays in its folder")
    }

    func testLibraryListsTheIncludes() {
        XCTAssertTrue(Set(["blend.glsl", "gradient.glsl", "image.glsl", "composite_fragment.glsl"]).isSubset(of: ShaderLibrary.includeNames), "\(ShaderLibrary.includeNames)")
        XCTAssertEqual(ShaderLibrary.includeNames, ShaderLibrary.includeNames.sorted())
        XCTAssertFalse(ShaderLibrary.programNames.contains("include"), "the include folder is not a program")
        XCTAssertNotNil(ShaderLibrary.includeSource(named: "blend.glsl"))
    }

    /// A driver message about an included line names it as 10000·K + its line (K = 1: the first file the
    /// program includes; Mesa prints source string 0 whatever `#line` says); one about the program's lines
    /// after an include still names the program's own line.
    func testDriverMessagesNameIncludedLines() throws {
        let blend = try XCTUnwrap(ShaderLibrary.includeSource(named: "blend.glsl"))
        let sqrtLine = try XCTUnwrap(blend.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains("sqrt(cb)") }) + 1
        // Redefining sqrt breaks the one line of blend.glsl that calls it.
        let broken = "#version 300 es\nprecision highp float;\nprecision highp int;\n#pragma stage vertex\nvoid main() { gl_Position = vec4(0); }\n#pragma stage fragment\n#define sqrt undefinedSqrt\n#include \"blend.glsl\"\nout vec4 c;\nvoid main() { c = blendMode(8, vec4(1), vec4(1)); }"
        XCTAssertThrowsError(try GLProgram.build(text: broken, name: "broken")) { error in
            XCTAssertTrue("\(error)".contains(":\(10000 + sqrtLine)("), "\(error)")
        }
        let after = "#version 300 es\nprecision highp float;\nprecision highp int;\n#pragma stage vertex\nvoid main() { gl_Position = vec4(0); }\n#pragma stage fragment\n#include \"blend.glsl\"\nout vec4 c;\nvoid main() { c = undefinedThing; }"
        XCTAssertThrowsError(try GLProgram.build(text: after, name: "after")) { error in
            XCTAssertTrue("\(error)".contains("0:9("), "\(error)")
        }
    }
}
