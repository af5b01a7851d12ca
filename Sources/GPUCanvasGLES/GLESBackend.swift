// The OpenGL ES 3 backend.
//
// Design note. One `GLESBackend` owns one EGL context (surfaceless, made current per frame), the compiled
// programs, the GL objects (`GLResources`: frame target, atlases, instance buffer, vertex arrays) and the
// CPU scratch (flattening stores, coverage accumulators, band arenas, the command buffer's staging arena);
// all are reused across frames, so a steady animation allocates no GL objects after its first frames.
//
// A frame is: encode (`FrameEncoder`: lower → fold the clear colour → the direct or the composite route, each
// coverage then emit) → execute (`Executor`: replay through `GLStateCache`, fence, glReadPixels). Device row 0
// is GL row 0, so the readback needs no flip. The last frame's command buffer stays readable
// (`CanvasRenderer.lastGPUCommandDump`, `--dump-gpu`).
//
// Path strategies (docs/ARCHITECTURE.md, "Coverage"), overridable with `GLESOptions.pathStrategy`:
// - `rasterAtlas`, the default everywhere: exact-area coverage on the CPU (`CoverageAccumulator`), trimmed into
//   bands that are shelf-packed into an atlas. On a software rasterizer with GL_EXT_texture_format_BGRA8888
//   the direct route asks for it in baked paint (`GLESOptions.paintAtlas`): premultiplied colour × coverage
//   baked into BGRA8 texels, bands as plain rectangles into a BGRA8 frame, the shape llvmpipe's 8-bit linear
//   rasterizer takes; elsewhere R8 coverage × instance colour over trapezoid bands.
// - `gpuTessellation`: segments accumulate the same exact areas into an R32F atlas with additive blending, and
//   the cover draw applies the fill rule and the paint.
// Why the raster atlas wins on both llvmpipe and an NVIDIA H200, and what llvmpipe's linear rasterizer needs:
// docs/performance.md.

import CGLES
import Foundation

/// Options of the GLES backend.
///
/// `GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)` forces llvmpipe and the GPU route.
public struct GLESOptions: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var device: GLESDeviceSelection
    /// nil: the default, the raster atlas on every device (it beat GPU tessellation on llvmpipe and on NVIDIA).
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
    /// When programs specialised for one kind of draw are compiled (`ProgramSpecialisation`): `.adaptive`
    /// (the default) from a kind's second frame, `.never`, or `.always` at its first draw.
    public var specialisation: ProgramSpecialisation
    /// Where linked program binaries are kept between processes (`ProgramCacheLocation`); `.none` builds
    /// every program from source.
    public var programCache: ProgramCacheLocation

    public enum CoverageFormat: String, Sendable, Equatable, Hashable, CaseIterable {
        case r8, r16f, r32f
    }

    public init(device: GLESDeviceSelection = .auto, pathStrategy: PathStrategyKind? = nil,
                coverageFormat: CoverageFormat = .r8, paintAtlas: Bool = true, blendRoute: BlendRoute? = nil,
                specialisation: ProgramSpecialisation = .adaptive, programCache: ProgramCacheLocation = .default) {
        self.device = device
        self.pathStrategy = pathStrategy
        self.coverageFormat = coverageFormat
        self.paintAtlas = paintAtlas
        self.blendRoute = blendRoute
        self.specialisation = specialisation
        self.programCache = programCache
    }

    public var description: String {
        var s = "gles(device: \(device)"
        if let pathStrategy { s += ", pathStrategy: \(pathStrategy)" }
        if coverageFormat != .r8 { s += ", coverageFormat: \(coverageFormat.rawValue)" }
        if !paintAtlas { s += ", paintAtlas: false" }
        if let blendRoute { s += ", blendRoute: \(blendRoute)" }
        if specialisation != .adaptive { s += ", specialisation: \(specialisation)" }
        if programCache != .default { s += ", programCache: \(programCache)" }
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
    /// GL_NUM_PROGRAM_BINARY_FORMATS: 0 means the program cache stands aside on this driver (Mesa offers one
    /// format only while its own shader cache is on).
    public var programBinaryFormats: Int

    /// Opens the selected device, reads its facts and closes it again.
    public static func probe(_ selection: GLESDeviceSelection = .auto) throws -> GLESDeviceInfo {
        let devices = (try? EGLPlatform.devices().map(\.info)) ?? []
        let ctx = try GLContext(selection: selection)
        defer { ctx.releaseCurrent() }
        var exts: [String: Bool] = [:]
        for e in extensionsOfInterest { exts[e] = ctx.has(e) }
        var formats: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_PROGRAM_BINARY_FORMATS), &formats)
        return GLESDeviceInfo(devices: devices, selection: selection, chosenDevice: ctx.chosenDevice,
                              vendor: ctx.vendor, renderer: ctx.renderer, version: ctx.version,
                              shadingLanguageVersion: ctx.shadingLanguageVersion, extensions: exts,
                              maxTextureSize: ctx.maxTextureSize, maxSamples: ctx.maxSamples,
                              defaultPathStrategy: .rasterAtlas, programBinaryFormats: Int(formats))
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
        lines.append("GL_NUM_PROGRAM_BINARY_FORMATS: \(programBinaryFormats)"
                     + (programBinaryFormats > 0 ? " (the program cache can keep programs)" : " (no program cache on this driver)"))
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
    /// Every linked program, built on first use (`ProgramLibrary`).
    package let programs: ProgramLibrary
    private let executor: Executor
    private let encoder: FrameEncoder
    private let strategy: PathStrategy
    private var commandBuffer = CommandBuffer()
    package private(set) var lastTimings = GLESFrameTimings()
    package private(set) var hasFrame = false

    package var name: String { "\(context.renderer) (\(context.chosenDevice), \(strategyKind))" }
    package var glyphCacheStatistics: GlyphCacheStatistics {
        var stats = encoder.glyphCacheStatistics
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
    /// `textPileAreaLimit` (tests): text piles' boxes hold at most this many pixels (`pileMaxArea`).
    package init(options: GLESOptions, atlasSizeLimit: Int? = nil, partPixelLimit: Int? = nil, textPileAreaLimit: Int? = nil,
         features: Lowering.Features = .drawnByBothBackends) throws {
        self.options = options
        encoder = FrameEncoder(features: features)
        let context = try GLContext(selection: options.device)
        defer { context.releaseCurrent() }
        self.context = context
        // The raster atlas everywhere: it beat GPU tessellation on every bench scene on llvmpipe and on an
        // NVIDIA H200 (docs/performance.md).
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
            // Baked paint (BGRA8 colour × coverage, rectangles) is what llvmpipe's linear path takes.
            let paint = options.paintAtlas && format == .r8 && context.isSoftwareDevice
                && context.has("GL_EXT_texture_format_BGRA8888")
            strategy = RasterAtlasStrategy(format: format, paint: paint,
                                           maxTextureSize: min(context.maxTextureSize, atlasSizeLimit ?? .max),
                                           workers: encoder.workers,
                                           partPixels: partPixelLimit ?? RasterAtlasStrategy.defaultPartPixels,
                                           pileMaxArea: textPileAreaLimit ?? RasterAtlasStrategy.defaultPileMaxArea)
        case .gpuTessellation:
            strategy = TessellationStrategy(maxTextureSize: min(context.maxTextureSize, atlasSizeLimit ?? .max))
        }
        programCache = options.programCache.resolved().map { ProgramCache.shared(directory: $0) }
        // GPUCANVAS_SPECIALISATION=never|always overrides the default policy for a whole process (the
        // byte-identity check renders the catalogue both ways with it); set but empty, as a shell's
        // `GPUCANVAS_SPECIALISATION= cmd` leaves it, it is unset.
        var specialisation = options.specialisation
        if specialisation == .adaptive, let name = ProcessInfo.processInfo.environment["GPUCANVAS_SPECIALISATION"],
           !name.isEmpty {
            guard let forced = ProgramSpecialisation(rawValue: name) else {
                let names = ProgramSpecialisation.allCases.map(\.rawValue).joined(separator: ", ")
                throw RenderError.gpu("GPUCANVAS_SPECIALISATION=\(name) is not one of \(names)")
            }
            specialisation = forced
        }
        programs = ProgramLibrary(resources: resources, specialisation: specialisation, cache: programCache)
        let fetch = context.has("GL_EXT_shader_framebuffer_fetch")
        if options.blendRoute == .framebufferFetch && !fetch {
            throw RenderError.gpu("the framebuffer-fetch blend route needs GL_EXT_shader_framebuffer_fetch, which \(context.renderer) lacks; use destination-copy")
        }
        blendRoute = options.blendRoute ?? (fetch ? .framebufferFetch : .destinationCopy)
        executor = Executor(context: context, cache: cache, resources: resources, programs: programs)
        try context.check("creating the renderer")
    }

    deinit {
        if (try? context.makeCurrent()) != nil {
            resources.deleteAll()
            programs.deleteAll()
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
    /// .sourceOut did to it; source-over never lowers it, so this changes nothing on the direct route.
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

    /// Renders `recording` once with every program it draws with specialised now (`ProgramLibrary`), so that
    /// later frames of the same kinds compile nothing: for servers that start once and render many.
    package func prepare(_ recording: Recording, target: RenderTarget) throws {
        programs.preparing = true
        defer { programs.preparing = false }
        _ = try render(recording, target: target)
    }

    /// Plans `recording` and executes it (the context current): the frame's pixels, or nil when its readback
    /// was deferred (`beginRender`).
    /// Tests: forces where `mesh_paint.glsl` reads coefficients (nil: as the device's varyings allow).
    package var meshVertexFetch: Bool?

    private func planAndExecute(_ recording: Recording, target: RenderTarget) throws
        -> (image: RasterImage?, timings: GLESFrameTimings) {
        guard target.width <= context.maxTextureSize, target.height <= context.maxTextureSize else {
            throw RenderError.invalidSize("\(target.width)×\(target.height) pixels exceeds \(context.renderer)'s GL_MAX_TEXTURE_SIZE of \(context.maxTextureSize)")
        }
        var timings = GLESFrameTimings()
        hasFrame = false
        programs.beginFrame()
        let executor = self.executor
        let device = FrameEncoder.Device(strategy: strategy, route: blendRoute, maxTextureSize: context.maxTextureSize,
                                         meshVertexFetch: meshVertexFetch ?? (context.maxVaryingVectors >= 18))
        try encoder.encode(recording, target: target, device: device, into: &commandBuffer, timings: &timings) {
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
    /// The program-binary cache this renderer uses (shared by every renderer naming its directory), nil for
    /// `ProgramCacheLocation.none`.
    package let programCache: ProgramCache?
    /// Binds issued and skipped by the state cache over the renderer's life.
    var stateCacheCounts: (issued: Int, skipped: Int) { (cache.issued, cache.skipped) }
}
