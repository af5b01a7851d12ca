// The OpenGL ES 3 backend.
//
// Design note. One `GLESBackend` owns one EGL context (surfaceless, made current per frame), the compiled
// programs, the GL objects (`GLResources`: frame target, atlases, instance buffer, vertex arrays) and the
// CPU scratch (flattening stores, coverage accumulators, band arenas, the command buffer's staging arena);
// all are reused across frames, so a steady animation allocates no GL objects after its first frames.
//
// A frame is: plan (`Planner`: validate, flatten/stroke on all cores, fold a leading opaque full-canvas
// fill into the clear colour, let the `PathStrategy` fill the command buffer) → execute (`Executor`: replay
// through `GLStateCache`, fence, glReadPixels). Device row 0 is GL row 0, so the readback needs no flip.
// The last frame's command buffer stays readable (`CanvasRenderer.lastGPUCommandDump`, `--dump-gpu`).
//
// Path strategies (DESIGN.md "Coverage"), chosen per device, overridable with `GLESOptions.pathStrategy`:
// - `rasterAtlas` (software rasterizers, i.e. llvmpipe): exact-area coverage on the CPU
//   (`CoverageAccumulator`: dense signed-area rows with a sparse prefix sum), trimmed into bands that are
//   shelf-packed into an R8 atlas and composited by one instanced draw per atlas batch.
// - `gpuTessellation` (hardware GPUs): segments accumulate the same exact areas into an R32F atlas with
//   additive blending, then one instanced cover draw applies the fill rule and the paint.
// Both meet DESIGN.md's bar against the reference on llvmpipe (maxDiff 2, over2 0 on the comparison
// scenes of `GLESReferenceComparisonTests`).
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
// - branching around the atlas sample, `discard` on zero coverage and BGRA formats buy nothing there.

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

    public enum CoverageFormat: String, Sendable, Equatable, Hashable, CaseIterable {
        case r8, r16f, r32f
    }

    public init(device: GLESDeviceSelection = .auto, pathStrategy: PathStrategyKind? = nil,
                coverageFormat: CoverageFormat = .r8) {
        self.device = device
        self.pathStrategy = pathStrategy
        self.coverageFormat = coverageFormat
    }

    public var description: String {
        var s = "gles(device: \(device)"
        if let pathStrategy { s += ", pathStrategy: \(pathStrategy)" }
        if coverageFormat != .r8 { s += ", coverageFormat: \(coverageFormat.rawValue)" }
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
                              defaultPathStrategy: ctx.isSoftwareDevice ? .rasterAtlas : .gpuTessellation)
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
final class GLESBackend: RenderBackend {
    let options: GLESOptions
    let context: GLContext
    let strategyKind: PathStrategyKind
    private let cache = GLStateCache()
    private let resources: GLResources
    private var programs: [Pipeline: GLProgram] = [:]
    private let executor: Executor
    private let planner = Planner()
    private let strategy: PathStrategy
    private var commandBuffer = CommandBuffer()
    private(set) var lastTimings = GLESFrameTimings()
    private(set) var hasFrame = false

    var name: String { "\(context.renderer) (\(context.chosenDevice), \(strategyKind))" }

    init(options: GLESOptions) throws {
        self.options = options
        let context = try GLContext(selection: options.device)
        defer { context.releaseCurrent() }
        self.context = context
        strategyKind = options.pathStrategy ?? (context.isSoftwareDevice ? .rasterAtlas : .gpuTessellation)
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
            strategy = RasterAtlasStrategy(format: format, maxTextureSize: context.maxTextureSize, workers: planner.workers)
        case .gpuTessellation:
            strategy = TessellationStrategy(maxTextureSize: context.maxTextureSize)
        }
        var built: [Pipeline: GLProgram] = [:]
        do {
            for p in Pipeline.allCases {
                built[p] = try GLProgram.build(named: p.programName)
                resources.programCreated()
            }
        } catch {
            for p in built.values { glDeleteProgram(p.id); resources.programDeleted() }
            throw error
        }
        programs = built
        executor = Executor(context: context, cache: cache, resources: resources, programs: built)
        try context.check("creating the renderer")
    }

    deinit {
        if (try? context.makeCurrent()) != nil {
            resources.deleteAll()
            for p in programs.values { glDeleteProgram(p.id); resources.programDeleted() }
        }
    }

    func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage {
        guard target.width <= context.maxTextureSize, target.height <= context.maxTextureSize else {
            throw RenderError.invalidSize("\(target.width)×\(target.height) pixels exceeds \(context.renderer)'s GL_MAX_TEXTURE_SIZE of \(context.maxTextureSize)")
        }
        try context.makeCurrent()
        defer { context.releaseCurrent() }
        var timings = GLESFrameTimings()
        hasFrame = false
        try planner.plan(recording, target: target, strategy: strategy, into: &commandBuffer, timings: &timings)
        guard let image = try executor.execute(commandBuffer, timings: &timings) else {
            throw RenderError.gpu("internal: the command buffer did not read the frame back")
        }
        lastTimings = timings
        hasFrame = true
        return image
    }

    /// The last frame's command buffer as text (empty before the first frame).
    var lastCommandBufferText: String { hasFrame ? commandBuffer.description : "" }
    var lastCommandBuffer: CommandBuffer? { hasFrame ? commandBuffer : nil }
    var resourceStats: GPUResourceStats { resources.stats }
    /// Binds issued and skipped by the state cache over the renderer's life.
    var stateCacheCounts: (issued: Int, skipped: Int) { (cache.issued, cache.skipped) }
}
