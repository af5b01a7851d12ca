// The OpenGL ES 3 backend.
//
// Design note. One `GLESBackend` owns one EGL context (surfaceless, made current per frame), the compiled
// programs, the GL objects (`GLResources`: frame target, atlases, instance buffer, vertex arrays) and the
// CPU scratch (flattening stores, coverage accumulators, band arenas, the command buffer's staging arena);
// all are reused across frames, so a steady animation allocates no GL objects after its first frames.
//
// A frame is: plan (`Planner`: the shared lowering validates and flattens/strokes on all cores; a leading
// opaque full-canvas fill folds into the clear colour; a frame of plain solid source-over draws lets the
// `PathStrategy` fill the command buffer (the fast path), any other goes through the `CompositingEncoder`)
// → execute (`Executor`: replay through `GLStateCache`, fence, glReadPixels). Device row 0 is GL row 0, so
// the readback needs no flip.
// The last frame's command buffer stays readable (`CanvasRenderer.lastGPUCommandDump`, `--dump-gpu`).
//
// Path strategies (docs/DESIGN-NOTES.md "Coverage"), chosen per device, overridable with `GLESOptions.pathStrategy`:
// - `rasterAtlas` (software rasterizers, i.e. llvmpipe): exact-area coverage on the CPU
//   (`CoverageAccumulator`: dense signed-area rows with a sparse prefix sum), trimmed into bands that are
//   shelf-packed into an atlas and (on the fast path) composited by one instanced draw per atlas batch. On
//   llvmpipe the fast path's atlas is in "paint" form (`GLESOptions.paintAtlas`): the CPU bakes
//   premultiplied colour × coverage into BGRA8 texels, bands are plain rectangles, the frame is BGRA8 and
//   `atlas_blit` only samples; elsewhere (or with `paintAtlas: false`) R8 coverage × instance colour over
//   trapezoid bands (`atlas_cover`).
// - `gpuTessellation` (hardware GPUs): segments accumulate the same exact areas into an R32F atlas with
//   additive blending, then one instanced cover draw applies the fill rule and the paint.
// On the compositing route both hand their coverage (R8 coverage, or R32F signed area) to the compositing
// encoder's programs instead. Both meet docs/DESIGN-NOTES.md's bar against the reference on llvmpipe in every GLES form
// (`Tests/ConformanceTests`).
//
// Measured on llvmpipe (Mesa 22.3, 2 cores), which decided the raster-atlas shape:
// - a blended pixel costs ~2.5 ns with a flat colour and ~4–5 ns with one atlas sample; texelFetch at
//   gl_FragCoord is ~20 % slower than texture() at an interpolated coordinate (distinct texels); an R8 atlas
//   samples as fast as RGBA8 and uploads a quarter of the bytes; R16F/R32F coverage changes no pixel by
//   more than one step (`testCoverageFormatsAgree`) and costs 2–4× the upload and CPU stores, so R8 it is;
// - each triangle costs ~0.6 µs of setup, so a path is one to a few instances, never one per segment;
//   bands are only split off where they save more pixels than an instance costs (~256);
// - uploading into an atlas that a queued draw still samples makes llvmpipe finish that draw first, so
//   the atlas is one tall 2048 × ≤ 8192 texture, uploaded once per frame in the common case;
// - branching around the atlas sample, `discard` on zero coverage and BGRA formats buy nothing there
//   (on the general path, that is; see below).
//
// Mesa's linear rasterizer (measured 2026-11, Mesa 22.3.6, llvmpipe LLVM 15, 2 cores shared, so medians):
// llvmpipe has a second, 8-bit "linear" path (lp_linear.c, lp_rast_linear.c, lp_setup_rect.c) that blends
// whole spans of axis-aligned rectangles in unorm8 instead of running the float shader on 4×4 quads. It
// engaged only when all of these held (checked with LP_PERF=no_rast_linear, which undoes the gain):
// - the fragment shader is texture() of a smooth varying, nothing else: `v_color * texture()` (an input
//   in an fmul), a flat varying, or R8 coverage × colour fall back to the general path;
// - the texture is B8G8R8A8 (GL_EXT_texture_format_BGRA8888), NEAREST, CLAMP_TO_EDGE: an RGBA8 texture
//   does not engage it in 22.3, and nor does a BGRA8 texture into an RGBA8 frame;
// - the frame is B8G8R8A8 without depth; blending is off or (ONE, ONE_MINUS_SRC_ALPHA);
// - each instance is a rectangle drawn as a 4-vertex TRIANGLE_FAN (or 6-vertex TRIANGLES) with w = 1: a
//   4-vertex strip is only recognised with first-vertex provoking (not GLES's), and trapezoids are
//   triangles.
// A standalone microbenchmark (3900 instanced 40–90 × 20–40 px quads, 7.6 M blended pixels, 1024² frame):
// R8 coverage × flat colour, strips 33 ms; RGBA8 texture() alone 36–38 ms (no path); BGRA8 texture() into
// BGRA8, fans 19.7 ms (33 ms with LP_PERF=no_rast_linear); the same as trapezoid strips 41–47 ms. Per
// rectangle ~0.4 µs (4 × 4 quads: 25 ms for 60 000) against ~1 µs for the general path's strip; per pixel
// ~1.4–2.2 ns against ~3.8–4.5 ns. So the paint form trades 4× the atlas bytes (colour baked in through an
// 8.24 fixed-point table per path) and rectangles for trapezoids (S1: 7.59 M pixels instead of 7.53 M; a
// thin 45° stroke roughly doubles) for a rasterizer twice as fast. Per-shelf uploads of the used width and
// tighter shelves cut S1's BGRA8 upload from 39 to 32 MiB; reading the BGRA8 frame back as BGRA and
// swapping R and B here beats the driver's conversion (1.5 → 1.1 ms).
// S1-fills / S2-strokes, five interleaved runs of `bench --frames 10 --stages` each, before → after:
// frame medians 49.0 → 40.9 ms and 78.9 → 66.2 ms; S1's stages gpu 32 → 16 ms, coverage 12.7 → 15.5 ms (the
// table pass writes 30 MB), submit 2.8 → 5.5 ms (the upload), readback 0.8 → 1.1 ms.
// Tried and dropped: non-temporal stores for the table pass (7 → 17 ms: band rows are too short, and the
// upload reads the rows from cache anyway); huge pages for the staging (they applied, no measurable
// change); an instance cost of 128 px for rectangle bands (S1: −4 % pixels, +44 % instances, no measurable
// change); LP_NUM_THREADS=4 (no change; 1 doubles the gpu stage). LP_PERF=no_linear changes nothing.
// Pipelining (2026-11-23): S1 cut into 2–4 parts, each flushed to llvmpipe while the CPU stages the next
// into a second atlas and instance buffer, measured no faster (5 interleaved runs: 49.8 ms whole, 51.2 /
// 49.9 / 57.2 ms in 2 / 3 / 4 parts): both cores are already busy (1.75 of 2), so the CPU and llvmpipe only
// trade time slices. Parts stay for bounding memory (`RasterAtlasStrategy.partPixels`).
// The gaps of a paint atlas's shelves are never sampled, so its staging is not zeroed.
// Solid interiors (2026-11-23; `RasterAtlasStrategy`): a band's columns of full coverage on all its rows are drawn from a one-row
// strip of the path's full texel (the vertex shader holds v at the strip's row, so dv/dy = 0 and the linear
// sampler still copies 1:1 spans); only the sides are baked and uploaded. S1: 32.1 → 20.0 MiB uploaded,
// 3863 → 6635 rectangles, frame medians 44.4 → 39.5 ms, the same bytes out. Where llvmpipe's time goes now
// (perf, S1): its rasterizer threads are ~40 % of the process's samples, a third of that the linear
// sampler's span copies. Those copies are what a pixel's price depends on: ten translucent 1023² rectangles
// composite in 8–9 ms from strips (~0.8 ns a pixel, wall, both cores) and in 21–26 ms from baked texels
// (~2.2 ns: each texel is read once, from an atlas of tens of MiB). S1 bakes ~5 M of its 7.5 M pixels (the
// edges of 2000 small shapes), so its compositing costs ~12 ms before any coverage is computed.
// Zero-copy uploads (2026-11-23): none that keeps the linear rasterizer. A pixel-buffer-object upload copies
// as glTexSubImage2D does; GL_EXT_buffer_storage with GL_EXT_texture_buffer would let the CPU bake texels
// in place, but a buffer texture is not sampled by the linear path; GL_EXT_memory_object_fd imports only
// memory files that carry Mesa's private header. So S1's ~5 ms memmove of the upload, on one core, stays.

import CGLES
import Foundation

/// Options of the GLES backend.
///
/// `GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)` forces llvmpipe and the GPU route.
public struct GLESOptions: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var device: GLESDeviceSelection
    /// nil: the device's default (raster atlas on software rasterizers, GPU tessellation on hardware).
    public var pathStrategy: PathStrategyKind?
    /// Texel format of the raster-atlas coverage (R8 by default; R16F/R32F for precision experiments).
    public var coverageFormat: CoverageFormat
    /// Raster atlas with R8 coverage only: bake premultiplied colour × coverage into a BGRA8 atlas and draw
    /// the bands as plain rectangles into a BGRA8 frame, the shape llvmpipe's linear rasterizer takes
    /// (used where the device is a software rasterizer offering GL_EXT_texture_format_BGRA8888). False: R8
    /// coverage × instance colour, trapezoid bands, RGBA8 frame.
    public var paintAtlas: Bool
    /// How blend modes other than `.normal` read the destination; nil: framebuffer fetch where the driver
    /// has it, else a destination copy. Forcing `.destinationCopy` on llvmpipe tests the route NVIDIA takes.
    public var blendRoute: BlendRoute?

    public enum CoverageFormat: String, Sendable, Equatable, Hashable, CaseIterable {
        case r8, r16f, r32f
    }

    public init(device: GLESDeviceSelection = .auto, pathStrategy: PathStrategyKind? = nil,
                coverageFormat: CoverageFormat = .r8, paintAtlas: Bool = true, blendRoute: BlendRoute? = nil) {
        self.device = device
        self.pathStrategy = pathStrategy
        self.coverageFormat = coverageFormat
        self.paintAtlas = paintAtlas
        self.blendRoute = blendRoute
    }

    public var description: String {
        var s = "gles(device: \(device)"
        if let pathStrategy { s += ", pathStrategy: \(pathStrategy)" }
        if coverageFormat != .r8 { s += ", coverageFormat: \(coverageFormat.rawValue)" }
        if !paintAtlas { s += ", paintAtlas: false" }
        if let blendRoute { s += ", blendRoute: \(blendRoute)" }
        return s + ")"
    }
}

/// What `canvas-gl info` prints: the EGL devices and the chosen device's GL facts.
///
/// ```swift
/// let info = try GLESDeviceInfo.probe(.mesa)
/// info.renderer                 // "llvmpipe (LLVM 15.0.6, 256 bits)"
/// info.extensions["GL_EXT_float_blend"]   // true
/// ```
public struct GLESDeviceInfo: Sendable, CustomStringConvertible {
    /// Every device `eglQueryDevicesEXT` lists (empty without EGL_EXT_device_enumeration).
    public var devices: [EGLDeviceInfo]
    public var selection: GLESDeviceSelection
    /// The display that was opened: "Mesa surfaceless" or "egl-device:N".
    public var chosenDevice: String
    public var vendor: String
    public var renderer: String
    public var version: String
    public var shadingLanguageVersion: String
    /// The extensions of interest, present or not.
    public var extensions: [String: Bool]
    public var maxTextureSize: Int
    public var maxSamples: Int
    /// The path strategy this device gets by default.
    public var defaultPathStrategy: PathStrategyKind

    /// Opens the selected device, reads its facts and closes it again.
    public static func probe(_ selection: GLESDeviceSelection = .auto) throws -> GLESDeviceInfo {
        let devices = (try? EGLPlatform.devices().map(\.info)) ?? []
        let ctx = try GLContext(selection: selection)
        defer { ctx.releaseCurrent() }
        var exts: [String: Bool] = [:]
        for e in extensionsOfInterest { exts[e] = ctx.has(e) }
        return GLESDeviceInfo(devices: devices, selection: selection, chosenDevice: ctx.chosenDevice,
                              vendor: ctx.vendor, renderer: ctx.renderer, version: ctx.version,
                              shadingLanguageVersion: ctx.shadingLanguageVersion, extensions: exts,
                              maxTextureSize: ctx.maxTextureSize, maxSamples: ctx.maxSamples,
                              defaultPathStrategy: .rasterAtlas)
    }

    /// Lists the EGL devices without opening any.
    public static func listDevices() throws -> [EGLDeviceInfo] { try EGLPlatform.devices().map(\.info) }

    public var description: String {
        var lines = ["EGL devices:" + (devices.isEmpty ? " none listed" : "")]
        for d in devices { lines.append("  \(d)") }
        lines.append("selection: \(selection) → \(chosenDevice)")
        lines.append("GL_VENDOR: \(vendor)")
        lines.append("GL_RENDERER: \(renderer)")
        lines.append("GL_VERSION: \(version)")
        lines.append("GL_SHADING_LANGUAGE_VERSION: \(shadingLanguageVersion)")
        lines.append("GL_MAX_TEXTURE_SIZE: \(maxTextureSize)")
        lines.append("GL_MAX_SAMPLES: \(maxSamples)")
        for e in extensions.keys.sorted() { lines.append("\(e): \(extensions[e]! ? "yes" : "no")") }
        lines.append("default path strategy: \(defaultPathStrategy)")
        return lines.joined(separator: "\n")
    }
}

/// The GLES renderer: see the design note at the top of the file.
package final class GLESBackend: RenderBackend {
    let options: GLESOptions
    let context: GLContext
    package let strategyKind: PathStrategyKind
    /// How blend modes other than `.normal` read the destination.
    let blendRoute: BlendRoute
    private let cache = GLStateCache()
    private let resources: GLResources
    private var programs: [Pipeline: GLProgram] = [:]
    private let executor: Executor
    private let planner: Planner
    private let strategy: PathStrategy
    private var commandBuffer = CommandBuffer()
    package private(set) var lastTimings = GLESFrameTimings()
    package private(set) var hasFrame = false

    package var name: String { "\(context.renderer) (\(context.chosenDevice), \(strategyKind))" }
    package var glyphCacheStatistics: GlyphCacheStatistics {
        var stats = planner.glyphCacheStatistics
        if let atlas = strategy as? RasterAtlasStrategy {
            for cache in atlas.glyphMaskCaches {
                stats.masks += cache.count
                stats.maskBytes += cache.bytes
                stats.maskMisses += cache.misses
            }
        }
        return stats
    }

    /// `atlasSizeLimit` (tests): atlases no larger than this, so that a small scene fills several.
    /// `partPixelLimit` (tests): raster-atlas frames are staged and replayed in parts of at most this many
    /// box pixels (`RasterAtlasStrategy.partPixels`), so that a small scene takes several.
    /// `textRunAreaLimit` (tests): text runs' boxes hold at most this many pixels (`textRunMaxArea`).
    package init(options: GLESOptions, atlasSizeLimit: Int? = nil, partPixelLimit: Int? = nil, textRunAreaLimit: Int? = nil,
         features: Lowering.Features = .drawnByBothBackends) throws {
        self.options = options
        planner = Planner(features: features)
        let context = try GLContext(selection: options.device)
        defer { context.releaseCurrent() }
        self.context = context
        // The raster atlas everywhere: on an NVIDIA H200 (16 CPU cores, 2026-11-26, `scripts/gpu-device.sh`) it
        // beat GPU tessellation on every bench scene (medians of 20 frames, ms: S1 12.2 against 22.9, S2 19.5
        // against 77.9, S4 2.8 against 3.5, S6 7.5 against 46.1), as it does on llvmpipe.
        strategyKind = options.pathStrategy ?? .rasterAtlas
        resources = GLResources(cache: cache)
        if strategyKind == .gpuTessellation {
            for e in ["GL_EXT_color_buffer_float", "GL_EXT_float_blend"] where !context.has(e) {
                throw RenderError.gpu("the gpu-tessellation path strategy needs \(e), which \(context.renderer) lacks; use the raster-atlas strategy")
            }
        }
        let format: TextureFormat
        switch options.coverageFormat {
        case .r8: format = .r8
        case .r16f: format = .r16f
        case .r32f: format = .r32f
        }
        switch strategyKind {
        case .rasterAtlas:
            // The paint form (BGRA8 colour × coverage, rectangles) is what llvmpipe's linear path takes.
            let paint = options.paintAtlas && format == .r8 && context.isSoftwareDevice
                && context.has("GL_EXT_texture_format_BGRA8888")
            strategy = RasterAtlasStrategy(format: format, paint: paint,
                                           maxTextureSize: min(context.maxTextureSize, atlasSizeLimit ?? .max),
                                           workers: planner.workers,
                                           partPixels: partPixelLimit ?? RasterAtlasStrategy.defaultPartPixels,
                                           textRunMaxArea: textRunAreaLimit ?? RasterAtlasStrategy.defaultTextRunMaxArea)
        case .gpuTessellation:
            strategy = TessellationStrategy(maxTextureSize: min(context.maxTextureSize, atlasSizeLimit ?? .max))
        }
        var built: [Pipeline: GLProgram] = [:]
        do {
            for p in Pipeline.allCases {
                if let e = p.requiredExtension, !context.has(e) { continue }
                if let shared = built.first(where: { $0.key.programName == p.programName }) {
                    built[p] = shared.value  // one program, another blend state (maskErase uses composite)
                    continue
                }
                built[p] = try GLProgram.build(named: p.programName)
                resources.programCreated()
            }
        } catch {
            for id in Set(built.values.map(\.id)) { glDeleteProgram(id); resources.programDeleted() }
            throw error
        }
        programs = built
        let fetch = context.has("GL_EXT_shader_framebuffer_fetch")
        if options.blendRoute == .framebufferFetch && !fetch {
            throw RenderError.gpu("the framebuffer-fetch blend route needs GL_EXT_shader_framebuffer_fetch, which \(context.renderer) lacks; use destination-copy")
        }
        blendRoute = options.blendRoute ?? (fetch ? .framebufferFetch : .destinationCopy)
        executor = Executor(context: context, cache: cache, resources: resources, programs: built)
        try context.check("creating the renderer")
    }

    deinit {
        if (try? context.makeCurrent()) != nil {
            resources.deleteAll()
            for id in Set(programs.values.map(\.id)) { glDeleteProgram(id); resources.programDeleted() }
            for p in executor.variants.values { glDeleteProgram(p.id); resources.programDeleted() }
            executor.deleteReadbackBuffers()
        }
    }

    /// A frame rendered with its readback still under way (`beginRender`): either the pixels already (a
    /// linear-light frame reads back synchronously) or the pixel buffer they are travelling into.
    package enum DeferredFrame {
        case complete(RasterImage)
        case pending(Executor.PendingReadback, opaque: Bool, timings: GLESFrameTimings)
    }

    /// Renders `recording` and starts its readback into a pixel buffer object without waiting for it; the
    /// frame exporter calls `completeRender` after issuing the next frame, so GL work and readback overlap.
    /// At most two frames may be pending (the buffers are double-buffered).
    package func beginRender(_ recording: Recording, target: RenderTarget) throws -> DeferredFrame {
        executor.deferReadback = true
        executor.startedReadback = nil
        defer { executor.deferReadback = false }
        try context.makeCurrent()
        defer { context.releaseCurrent() }
        let (image, timings) = try planAndExecute(recording, target: target)
        if let image {
            lastTimings = timings
            hasFrame = true
            return .complete(Self.applyingOpacity(image, recording.isOpaque))
        }
        guard let pending = executor.startedReadback else {
            throw RenderError.gpu("internal: the command buffer did not read the frame back")
        }
        return .pending(pending, opaque: recording.isOpaque, timings: timings)
    }

    /// Waits for a frame `beginRender` started and returns its pixels.
    package func completeRender(_ frame: DeferredFrame) throws -> RasterImage {
        switch frame {
        case .complete(let image):
            return image
        case .pending(let pending, let opaque, var timings):
            try context.makeCurrent()
            defer { context.releaseCurrent() }
            let t0 = DispatchTime.now().uptimeNanoseconds
            let image = try executor.completeReadback(pending)
            timings.readback += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            lastTimings = timings
            hasFrame = true
            return Self.applyingOpacity(image, opaque)
        }
    }

    /// Drops a frame `beginRender` started whose pixels are no longer wanted (the export failed): its fence
    /// is deleted; the pixel buffer is reused by the next frame.
    package func discardRender(_ frame: DeferredFrame) {
        guard case .pending(let pending, _, _) = frame, (try? context.makeCurrent()) != nil else { return }
        glDeleteSync(pending.fence)
        context.releaseCurrent()
    }

    /// An opaque canvas's output has no alpha (as on the reference), whatever blend modes such as .clear or
    /// .sourceOut did to it; source-over never lowers it, so this changes nothing on the fast path.
    private static func applyingOpacity(_ image: RasterImage, _ opaque: Bool) -> RasterImage {
        guard opaque else { return image }
        var image = image
        image.pixels.withUnsafeMutableBufferPointer { p in
            for i in Swift.stride(from: 3, to: p.count, by: 4) { p[i] = 255 }
        }
        return image
    }

    package func render(_ recording: Recording, target: RenderTarget, into image: inout RasterImage) throws {
        // The executor reads back into these bytes when they fit; `image` gives them up first so that they
        // are not shared (a shared buffer would be copied on write).
        var pixels: [UInt8] = []
        swap(&pixels, &image.pixels)
        executor.readbackDestination = pixels
        pixels = []
        defer { executor.readbackDestination = nil }
        image = try render(recording, target: target)
    }

    package func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage {
        try context.makeCurrent()
        defer { context.releaseCurrent() }
        let (image, timings) = try planAndExecute(recording, target: target)
        guard let image else { throw RenderError.gpu("internal: the command buffer did not read the frame back") }
        lastTimings = timings
        hasFrame = true
        return Self.applyingOpacity(image, recording.isOpaque)
    }

    /// Plans `recording` and executes it (the context current): the frame's pixels, or nil when its readback
    /// was deferred (`beginRender`).
    private func planAndExecute(_ recording: Recording, target: RenderTarget) throws
        -> (image: RasterImage?, timings: GLESFrameTimings) {
        guard target.width <= context.maxTextureSize, target.height <= context.maxTextureSize else {
            throw RenderError.invalidSize("\(target.width)×\(target.height) pixels exceeds \(context.renderer)'s GL_MAX_TEXTURE_SIZE of \(context.maxTextureSize)")
        }
        var timings = GLESFrameTimings()
        hasFrame = false
        let executor = self.executor
        try planner.plan(recording, target: target, strategy: strategy, blendRoute: blendRoute,
                         maxTextureSize: context.maxTextureSize, into: &commandBuffer, timings: &timings) {
            _ = try executor.execute($0, timings: &$1)
        }
        return (try executor.execute(commandBuffer, timings: &timings), timings)
    }

    /// The last frame's command buffer as text (empty before the first frame).
    package var lastCommandBufferText: String { hasFrame ? commandBuffer.frameDescription : "" }
    package var lastCommandBuffer: CommandBuffer? { hasFrame ? commandBuffer : nil }
    /// Bytes the command buffer's staging arena holds on to between frames.
    var stagingCapacity: Int { commandBuffer.staging.capacity }
    package var resourceStats: GPUResourceStats { resources.stats }
    /// Binds issued and skipped by the state cache over the renderer's life.
    var stateCacheCounts: (issued: Int, skipped: Int) { (cache.issued, cache.skipped) }
}
