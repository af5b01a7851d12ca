import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// Text runs of the GLES raster atlas's paint form (`RasterAtlasStrategy`): consecutive text draws whose boxes
/// pile up are composited source-over on the CPU into tiles, each drawn as one rectangle. The tile must give
/// what the draws give one by one (the reference), keep the draw order around other draws, survive glyph
/// masks evicted mid-frame, and not depend on how a frame is cut into parts.
final class TextPileTests: XCTestCase {
    private static let mesaAtlas = GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)

    /// `over` is source-over in premultiplied 8-bit with each channel rounded to nearest:
    /// d × (255 − a) / 255 + s. Checked against that formula in integers, for every alpha and destination
    /// level with premultiplied sources, and the eight-pixel form against the one-pixel form.
    func testOverRoundsEachChannelToNearest() {
        XCTAssertEqual(RasterAtlasStrategy.over(0x8080_0000, 0xFF00_00FF), 0xFF80_007F)
        func pixel(_ b: UInt32, _ g: UInt32, _ r: UInt32, _ a: UInt32) -> UInt32 { b | g << 8 | r << 16 | a << 24 }
        for a in UInt32(0) ... 255 {
            for d in stride(from: UInt32(0), through: 255, by: 5) {
                let s = pixel(a / 3, a / 2, a, a), dst = pixel(d, 255 - d, d / 2, 255)
                let out = RasterAtlasStrategy.over(s, dst)
                for (k, channel) in [(0, "B"), (8, "G"), (16, "R"), (24, "A")] {
                    let sc = (s >> UInt32(k)) & 0xFF, dc = (dst >> UInt32(k)) & 0xFF
                    let expected = sc + (dc * (255 - a) * 2 + 255) / 510  // round half up of dc·(255−a)/255
                    XCTAssertEqual((out >> UInt32(k)) & 0xFF, expected, "\(channel): a \(a), d \(d)")
                }
            }
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 1000 {
            var s = SIMD8<UInt32>(), d = SIMD8<UInt32>()
            for i in 0 ..< 8 {
                let a = UInt32.random(in: 0 ... 255, using: &rng)
                s[i] = pixel(.random(in: 0 ... a, using: &rng), .random(in: 0 ... a, using: &rng),
                             .random(in: 0 ... a, using: &rng), a)
                d[i] = UInt32.random(in: 0 ... UInt32.max, using: &rng)
            }
            let eight = RasterAtlasStrategy.over(s, d)
            for i in 0 ..< 8 { XCTAssertEqual(eight[i], RasterAtlasStrategy.over(s[i], d[i])) }
        }
    }

    /// Sixty translucent lines piled over a tinted background: one piece of a text pile, within the default bar of the
    /// reference, and the same bytes every time.
    func testDenseTranslucentTextIsOneTileAndMatchesTheReference() throws {
        let draw = Self.lines(count: 60, top: 0, height: 256)
        let gl = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        let reference = try CanvasRenderer(backend: .reference)
        let size = CGSize(width: 256, height: 256)
        let image = try gl.render(size: size, draw)
        let dump = try XCTUnwrap(gl.lastGPUCommandDump)
        XCTAssertTrue(dump.contains("text piles composited on the CPU: 1 piece from 60 text pieces"), dump)
        let d = image.difference(from: try reference.render(size: size, draw))
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
        XCTAssertEqual(try gl.render(size: size, draw).pixels, image.pixels)
    }

    /// A run, an opaque rectangle over part of it, and a second run below both: two tiles, drawn in their
    /// places (the rectangle hides the first run's text under it), within the bar of the reference.
    func testRunsKeepTheirPlaceAroundOtherDraws() throws {
        let size = CGSize(width: 256, height: 256)
        let rect = CGRect(x: 32, y: 40, width: 192, height: 60)
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, size in
            Self.lines(count: 40, top: 0, height: 110)(&ctx, size)
            ctx.fill(Path(rect), with: .color(Color(red: 0.8, green: 0.1, blue: 0.1)))
            Self.lines(count: 40, top: 150, height: 106, seed: 40, background: false)(&ctx, size)
        }
        let gl = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        let image = try gl.render(size: size, draw)
        let dump = try XCTUnwrap(gl.lastGPUCommandDump)
        XCTAssertTrue(dump.contains("text piles composited on the CPU: 2 pieces from 80 text pieces"), dump)
        for y in 41 ..< 99 {
            for x in 33 ..< 223 {
                let i = (y * 256 + x) * 4
                XCTAssertEqual(Array(image.pixels[i ..< i + 4]), [204, 26, 26, 255], "(\(x), \(y))")
            }
        }
        let d = image.difference(from: try CanvasRenderer(backend: .reference).render(size: size, draw))
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
    }

    /// Text over something drawn before it keeps its bands: a tile starting from transparent would stand for
    /// the draws only up to 8-bit rounding.
    func testTextOverEarlierDrawsIsNotTiled() throws {
        let size = CGSize(width: 256, height: 256)
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, size in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            ctx.fill(Path(CGRect(x: 100, y: 100, width: 20, height: 20)), with: .color(.green))
            Self.lines(count: 40, top: 0, height: 256, background: false)(&ctx, size)
        }
        let gl = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        let image = try gl.render(size: size, draw)
        XCTAssertFalse(try XCTUnwrap(gl.lastGPUCommandDump).contains("text piles composited"))
        let d = image.difference(from: try CanvasRenderer(backend: .reference).render(size: size, draw))
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
    }

    /// Large distinct glyphs in one run overflow a worker's glyph mask cache (`GlyphMaskCache.maxBytes`)
    /// while its strip is composited: masks evicted mid-strip stay valid until the strip is done, so the
    /// frame still matches the reference, and the cache stays within its bound.
    func testMasksEvictedWhileCompositingStayValid() throws {
        try TestTier.requireThorough()
        // ~1500 placements of 62 letters at 8 sizes of 180–250 px and 4 subpixel steps: ~20 KiB a mask, more
        // distinct ones than the two workers' 2 × 8 MiB hold.
        let size = CGSize(width: 1024, height: 1024)
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            for i in 0 ..< 110 {
                let s = String((0 ..< 14).map { letters[(i * 14 + $0 * 5) % letters.count] })
                ctx.draw(Text(s).font(.custom("DejaVu Sans", size: CGFloat(180 + i % 8 * 10)))
                             .foregroundColor(Color(red: Double(i % 5) / 5, green: 0.3, blue: Double(i % 3) / 3,
                                                    opacity: 0.7)),
                         at: CGPoint(x: -300 + Double(i * 53 % 400) + 0.25 * Double(i % 4),
                                     y: 100 + Double(i * 37 % 900)), anchor: .leading)
            }
        }
        let gl = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        // The reference beside GLES (`Concurrently`).
        let (reference, image) = try Concurrently.run({ try CanvasRenderer(backend: .reference).render(size: size, draw) },
                                                      { try gl.render(size: size, draw) })
        let dump = try XCTUnwrap(gl.lastGPUCommandDump)
        XCTAssertTrue(dump.contains("text piles composited"), dump)
        let stats = gl.glyphCacheStatistics
        // Two workers (this project's CI) each meet over 8 MiB of masks; with more, each meets less and may
        // never fill its cache, so only the comparison with the reference below holds everywhere.
        if ProcessInfo.processInfo.activeProcessorCount <= 2 {
            XCTAssertLessThan(stats.masks, stats.maskMisses, "\(stats): a cache started over within the frame")
        }
        XCTAssertLessThanOrEqual(stats.maskBytes, 8 * GlyphMaskCache.maxBytes, "\(stats)")
        let d = image.difference(from: reference)
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
    }

    /// A frame cut into parts of one box pixel (every piece its own part) keeps each text run whole, so it
    /// gives the bytes of the frame staged at once.
    func testPartsNeverSplitARun() throws {
        let size = CGSize(width: 256, height: 256)
        let draw = Self.lines(count: 50, top: 0, height: 256)
        let parts = try CanvasRenderer(gles: Self.mesaAtlas, partPixelLimit: 1)
        let whole = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        XCTAssertEqual(try parts.render(size: size, draw).pixels, try whole.render(size: size, draw).pixels)
        XCTAssertTrue(try XCTUnwrap(parts.lastGPUCommandDump).contains("text piles composited"))
    }

    /// A run whose box would pass `pileMaxArea` is cut where it would: thirty lines in the top half fit
    /// a limit of 256 × 130 px and become a tile; the thirty below start over their pieces and keep their
    /// bands. So a run's staging stays within the limit (by default 2²⁵ px, what a part stages), and the frame
    /// still matches the reference. Unlimited, the sixty lines are one tile.
    func testRunsAreCutAtTheirAreaLimit() throws {
        let size = CGSize(width: 256, height: 256)
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, size in
            Self.lines(count: 30, top: 0, height: 112)(&ctx, size)
            Self.lines(count: 30, top: 128, height: 128, seed: 30, background: false)(&ctx, size)
        }
        let limited = try CanvasRenderer(gles: Self.mesaAtlas, textPileAreaLimit: 256 * 130)
        let image = try limited.render(size: size, draw)
        let dump = try XCTUnwrap(limited.lastGPUCommandDump)
        XCTAssertTrue(dump.contains("text piles composited on the CPU: 1 piece from 30 text pieces"), dump)
        let whole = try CanvasRenderer(backend: .gles(Self.mesaAtlas))
        _ = try whole.render(size: size, draw)
        XCTAssertTrue(try XCTUnwrap(whole.lastGPUCommandDump).contains("text piles composited on the CPU: 1 piece from 60 text pieces"))
        let d = image.difference(from: try CanvasRenderer(backend: .reference).render(size: size, draw))
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
    }

    /// `render(_:scale:into:)` gives the pixels `render(_:scale:)` gives and, from the second frame of the
    /// same size on, writes them into the image's own memory.
    func testRenderingIntoAnImageReusesItsPixels() throws {
        let size = CGSize(width: 256, height: 256)
        let recording = Recording(size: size, renderer: Self.lines(count: 30, top: 0, height: 256))
        let other = Recording(size: size) { ctx, _ in ctx.fill(Path(CGRect(x: 10, y: 10, width: 50, height: 50)),
                                                                  with: .color(.blue)) }
        for backend in [CanvasRenderer.Backend.gles(Self.mesaAtlas), .reference] {
            let r = try CanvasRenderer(backend: backend)
            var image = RasterImage(width: 0, height: 0, pixels: [])
            try r.render(recording, into: &image)
            XCTAssertEqual(image.pixels, try r.render(recording).pixels, "\(backend)")
            let storage = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
            try r.render(other, into: &image)
            XCTAssertEqual(image.pixels, try r.render(other).pixels, "\(backend)")
            if case .gles = backend {
                XCTAssertEqual(image.pixels.withUnsafeBufferPointer { $0.baseAddress }, storage, "reused")
            }
        }
    }

    /// `count` lines of "The quick brown fox 0123456789" in translucent colours, 8–30 px, baselines in
    /// `top ..< top + height`, over a tinted background unless `background` is false.
    static func lines(count: Int, top: Int, height: Int, seed: Int = 0, background: Bool = true)
        -> (inout GraphicsContext, CGSize) -> Void {
        { ctx, size in
            if background {
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(Color(red: 0.96, green: 0.94, blue: 0.91)))
            }
            for k in 0 ..< count {
                let i = k + seed
                let color = Color(red: Double(i * 53 % 256) / 255, green: Double(i * 97 % 256) / 255,
                                  blue: Double(i * 31 % 256) / 255, opacity: Double(128 + i * 41 % 128) / 255)
                ctx.draw(Text("The quick brown fox 0123456789").font(.custom("DejaVu Sans", size: CGFloat(8 + i * 7 % 23)))
                             .foregroundColor(color),
                         at: CGPoint(x: -60 + Double(i * 37 % 260), y: Double(top + 12 + i * 23 % max(1, height - 16))),
                         anchor: .bottomLeading)
            }
        }
    }
}
