import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// GL objects and memory over many frames; determinism.
final class GLESResourceTests: XCTestCase {
    /// An animation frame: shapes that move and change size, so atlas use varies from frame to frame.
    static func frame(_ n: Int) -> Recording {
        Recording(size: CGSize(width: 96, height: 64)) { ctx, size in
            let t = Double(n) * 0.05
            for i in 0 ..< 12 {
                let r = 6 + 5 * sin(t + Double(i))
                ctx.fill(Path(ellipseIn: CGRect(x: 40 + 35 * cos(t * 0.7 + Double(i)), y: 28 + 22 * sin(t + Double(i) * 0.5),
                                                width: 2 * r, height: 1.5 * r)),
                         with: .color(Color(hue: Double(i) / 12, saturation: 0.8, brightness: 0.9, opacity: 0.7)))
            }
            ctx.fill(Path(roundedRect: CGRect(x: 5, y: 5, width: 20 + Double(n % 30), height: 10), cornerRadius: 3),
                     with: .color(.black.opacity(0.4)), style: FillStyle(eoFill: n % 2 == 0, antialiased: n % 3 != 0))
        }
    }

    /// Resident set size in bytes (Linux), nil elsewhere.
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Growth of the resident set allowed between frame 100 and the last: malloc arenas and llvmpipe's
    /// shader variant cache settle within the first frames; a leak of even one 96×64 image (24 KB) per frame
    /// would add 22 MB over 1000 frames, far beyond this.
    static let residentGrowthAllowance = 8 << 20

    /// The frame from which nothing may change any more.
    static let settledFrame = 100

    /// How many frames the soak tests render: 300 by default, `GPUCANVAS_SOAK_FRAMES` when set (`.ci/run` runs
    /// them again with 1000). 300 still shows the GL-object bound: every frame's varying part (the `n % k`
    /// terms) repeats within 60 frames, so the 200 settled frames go through each pattern three times, and one
    /// GL object leaked per frame or per pattern shows on the first frame that repeats it. What 1000 frames add
    /// is the resident set's reach: it catches a CPU-side leak of `residentGrowthAllowance / (frames − 100)`
    /// bytes per frame, 42 KB at 300 and 9 KB at 1000 (a leaked 96×64 image is 24 KB).
    static let soakFrames: Int = {
        guard let text = ProcessInfo.processInfo.environment["GPUCANVAS_SOAK_FRAMES"] else { return 300 }
        guard let n = Int(text), n > settledFrame else {
            fatalError("GPUCANVAS_SOAK_FRAMES=\(text): a whole number of frames above \(settledFrame) is needed")
        }
        return n
    }()

    func testThousandFramesKeepGLObjectsFlat() throws {
        for s in PathStrategyKind.allCases {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: s)))
            var settled: GPUResourceStats?
            var rssAt100 = 0
            for n in 0 ..< Self.soakFrames {
                _ = try r.render(Self.frame(n))
                if n == Self.settledFrame - 1 {
                    settled = r.gpuResourceStats
                    rssAt100 = Self.residentBytes() ?? 0
                }
                if n >= Self.settledFrame { XCTAssertEqual(r.gpuResourceStats, settled, "\(s) frame \(n)"); if r.gpuResourceStats != settled { break } }
            }
            let stats = try XCTUnwrap(r.gpuResourceStats)
            // Built on first use: the direct route's one program per strategy (atlas_blit or atlas_cover, or
            // tess_accumulate and tess_cover), none of the compositing or filter programs.
            XCTAssertEqual(stats.programs, s == .gpuTessellation ? 2 : 1, "\(s)")
            XCTAssertEqual(stats.buffers, 1)
            XCTAssertLessThanOrEqual(stats.textures, 2, "frame target + one atlas")
            if let rss = Self.residentBytes() {
                XCTAssertLessThanOrEqual(rss - rssAt100, Self.residentGrowthAllowance, "\(s)")
            }
        }
    }

    /// A frame through the compositing encoder: a gradient, a clip that moves, a mask, a layer with a blend mode.
    static func compositedFrame(_ n: Int) -> Recording {
        Recording(size: CGSize(width: 96, height: 64)) { ctx, _ in
            let t = Double(n) * 0.05
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 96, height: 64)),
                     with: .linearGradient(Gradient(colors: [.red, .blue]), startPoint: .zero,
                                           endPoint: CGPoint(x: 96 * (0.5 + 0.5 * sin(t)), y: 64)))
            var c = ctx
            c.clip(to: Path(ellipseIn: CGRect(x: 10 + 20 * sin(t), y: 5, width: 50, height: 40 + Double(n % 20))))
            c.clipToLayer(opacity: 0.8) { m in
                m.fill(Path(CGRect(x: 0, y: 0, width: 60 + Double(n % 30), height: 64)), with: .color(.black))
            }
            c.blendMode = n % 2 == 0 ? .multiply : .screen
            c.drawLayer { l in
                l.fill(Path(ellipseIn: CGRect(x: 20, y: 10, width: 40, height: 30)),
                       with: .radialGradient(Gradient(colors: [.yellow, .green]), center: CGPoint(x: 40, y: 25),
                                             startRadius: 0, endRadius: 20 + Double(n % 10)))
            }
        }
    }

    /// The compositing encoder's layers, clip-mask pages and paint data come from the same pool every frame.
    func testThousandCompositedFramesKeepGLObjectsFlat() throws {
        try TestTier.requireThorough()
        for s in PathStrategyKind.allCases {
            for route in BlendRoute.allCases {
                let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: s, blendRoute: route)))
                try Self.assertFlatOverSoakFrames(r, "\(s) \(route)", Self.compositedFrame)
            }
        }
    }

    /// A frame through the filter passes: a moving blurred draw whose σ cycles through both routes (full
    /// resolution and downsampled), a shadowed layer, a projection. Each σ and option set is a program variant,
    /// all met within the first 100 frames.
    static func filteredFrame(_ n: Int) -> Recording {
        Recording(size: CGSize(width: 128, height: 96)) { ctx, _ in
            let t = Double(n) * 0.07
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 128, height: 96)), with: .color(white: 0.9))
            var blurred = ctx
            blurred.addFilter(.blur(radius: 0.5 + Double(n % 12)))
            blurred.fill(Path(ellipseIn: CGRect(x: 20 + 30 * sin(t), y: 20, width: 40, height: 30)), with: .color(.orange))
            var shadowed = ctx
            shadowed.addFilter(.shadow(color: .black.opacity(0.5), radius: 2 + Double(n % 5), x: 3 * cos(t), y: 4,
                                       options: n % 3 == 0 ? .shadowAbove : []))
            shadowed.drawLayer { l in
                l.fill(Path(CGRect(x: 60, y: 40 + 10 * sin(t), width: 30, height: 20)), with: .color(.blue))
                l.fill(Path(ellipseIn: CGRect(x: 75, y: 50, width: 20, height: 20)), with: .color(.green))
            }
            var projected = ctx
            var m = ProjectionTransform()
            m.m13 = 0.002 * sin(t)
            projected.addFilter(.projectionTransform(m))
            projected.fill(Path(CGRect(x: 10, y: 60, width: 40, height: 25)), with: .color(.purple))
        }
    }

    /// Filter images come from the pool like layers: `soakFrames` frames of blurs, shadows and projections keep the GL
    /// objects and the resident set flat.
    func testThousandFilteredFramesKeepGLObjectsFlat() throws {
        try TestTier.requireThorough()
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        try Self.assertFlatOverSoakFrames(r, "filtered", Self.filteredFrame)
    }

    /// Renders `frame(n)` for n = 0 ..< `soakFrames`: from frame 100 on, the GL object counts must not change
    /// and the resident set must grow by at most `residentGrowthAllowance`.
    static func assertFlatOverSoakFrames(_ r: CanvasRenderer, _ what: String, _ frame: (Int) -> Recording,
                                             file: StaticString = #filePath, line: UInt = #line) throws {
        var settled: GPUResourceStats?
        var rssAt100 = 0
        for n in 0 ..< soakFrames {
            _ = try r.render(frame(n))
            if n == settledFrame - 1 {
                settled = r.gpuResourceStats
                rssAt100 = residentBytes() ?? 0
            }
            if n >= settledFrame, r.gpuResourceStats != settled {
                XCTFail("\(what) frame \(n): \(r.gpuResourceStats.map { "\($0)" } ?? "") ≠ \(settled.map { "\($0)" } ?? "")",
                        file: file, line: line)
                break
            }
        }
        if let rss = residentBytes() {
            XCTAssertLessThanOrEqual(rss - rssAt100, residentGrowthAllowance, what, file: file, line: line)
        }
    }

    func testSameSceneTwiceGivesIdenticalBytes() throws {
        for s in PathStrategyKind.allCases {
            let r1 = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: s)))
            let a = try r1.render(Self.frame(7))
            _ = try r1.render(Self.frame(8))
            let b = try r1.render(Self.frame(7))
            XCTAssertEqual(a, b, "\(s): same renderer")
            let c = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: s))).render(Self.frame(7))
            XCTAssertEqual(a, c, "\(s): fresh renderer")
        }
    }

    /// Changing the canvas size replaces the frame target rather than adding one.
    func testResizingReplacesTheFrameTarget() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        for (w, h) in [(10, 10), (300, 20), (10, 10), (64, 64)] {
            let img = try r.render(size: CGSize(width: w, height: h)) { ctx, size in
                // Translucent, so it is drawn through the atlas rather than folded into the clear.
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.black.opacity(0.5)))
            }
            XCTAssertEqual(img.width, w)
            XCTAssertEqual(img.pixel(x: w - 1, y: h - 1).a, 128)
            XCTAssertEqual(r.gpuResourceStats?.framebuffers, 1)
            XCTAssertEqual(r.gpuResourceStats?.textures, 2)
        }
    }

    /// An empty recording still clears the frame (to opaque black for opaque canvases).
    func testEmptyRecordingClears() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let img = try r.render(size: CGSize(width: 3, height: 2), opaque: true) { _, _ in }
        XCTAssertEqual(Set(stride(from: 0, to: img.pixels.count, by: 4).map { img.pixels[$0 + 3] }), [255])
        XCTAssertEqual(r.lastDrawCallCount, 0)
    }
}
