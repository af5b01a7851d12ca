import GPUCanvasReference

/// Renders canvases and recordings into `RasterImage`s. Create one and reuse it across frames: it owns the
/// backend's long-lived state (for GLES: the context, programs and caches).
///
/// One thread at a time uses a renderer, and it may move between threads from frame to frame. Several
/// renderers may render at the same time on different threads (a server handling requests at once): each
/// gives the bytes it gives alone.
///
/// ```swift
/// let renderer = try CanvasRenderer()                       // GLES on the first GPU, else llvmpipe
/// let image = try renderer.render(canvas, size: CGSize(width: 300, height: 200), scale: 2)
/// let check = try CanvasRenderer(backend: .reference)       // the CPU reference, no EGL needed
/// ```
public final class CanvasRenderer {
    /// Which implementation rasterizes.
    public enum Backend: Sendable, Equatable, CustomStringConvertible {
        /// The CPU reference renderer: exact-area coverage and f32 compositing, independent of GL.
        case reference
        /// OpenGL ES 3 through EGL: a hardware GPU or Mesa llvmpipe (see `GLESOptions`).
        case gles(GLESOptions)
        public var description: String {
            switch self {
            case .reference: return "reference"
            case .gles(let o): return o.description
            }
        }
    }

    public let backend: Backend
    let implementation: RenderBackend

    /// Lenient (the default, as Apple's frameworks are) or strict: see `RenderDiagnostic`.
    public var diagnosticsPolicy: DiagnosticsPolicy = .lenient
    /// What the last render ignored (empty before the first).
    public internal(set) var lastReport = RenderReport()

    /// What one render may allocate: the decoded bytes of the distinct images a frame draws are checked
    /// against `limits.imageBytes` (512 MiB by default) in the shared lowering, so both backends refuse the same
    /// frames with the same words. Images are decoded before a render (`Image(contentsOf:)` checks the same
    /// default budget from the file's header; `SceneLoadOptions.limits` does for scene files).
    public var limits = RenderLimits()

    /// Starts a render's report: the recording's own diagnostics, or under `.strict` the first one's error.
    /// Returns the recording to hand the backend: a copy that carries the policy, the limits and the log the
    /// shared lowering adds its own diagnostics to (`endReport`).
    func beginReport(_ recording: Recording) throws -> Recording {
        lastReport = RenderReport(diagnostics: recording.diagnostics)
        if diagnosticsPolicy == .strict, let first = recording.diagnostics.first { throw first.error }
        var r = recording
        r.lowering = LoweringDiagnostics(policy: diagnosticsPolicy, limits: limits)
        return r
    }

    /// Adds what the lowering of `recording` (from `beginReport`) skipped to `lastReport`, in draw order.
    func endReport(_ recording: Recording) {
        guard let log = recording.lowering?.log else { return }
        lastReport.diagnostics += log.diagnostics
    }

    /// A GLES renderer whose atlases are at most `atlasSizeLimit` texels a side and whose raster-atlas
    /// frames are replayed in parts of at most `partPixelLimit` box pixels, and whose text piles' boxes hold at
    /// most `textPileAreaLimit` pixels (tests of the batching).
    init(gles options: GLESOptions, atlasSizeLimit: Int? = nil, partPixelLimit: Int? = nil,
         textPileAreaLimit: Int? = nil) throws {
        backend = .gles(options)
        implementation = try GLESBackend(options: options, atlasSizeLimit: atlasSizeLimit, partPixelLimit: partPixelLimit,
                                         textPileAreaLimit: textPileAreaLimit)
    }

    /// A renderer whose lowering lets `features` through (tests of features one backend is still learning).
    init(backend: Backend, features: Lowering.Features) throws {
        self.backend = backend
        switch backend {
        case .reference: implementation = ReferenceBackend(features: features)
        case .gles(let o): implementation = try GLESBackend(options: o, features: features)
        }
    }

    /// Starts the backend. The default is the product: GLES on the `auto` device (the first hardware EGL
    /// device, else Mesa's surfaceless llvmpipe). Without a working EGL this throws `RenderError.gpu` naming
    /// what failed; `.reference` always starts.
    public init(backend: Backend = .gles(GLESOptions())) throws {
        self.backend = backend
        switch backend {
        case .reference: implementation = ReferenceBackend()
        case .gles(let o): implementation = try GLESBackend(options: o)
        }
    }

    /// A one-line description of what renders (for GLES: the GL_RENDERER string).
    public var rendererName: String { implementation.name }

    /// The text glyph caches' size (bounded: `GlyphPolygonCache.maxPoints` per lowering worker).
    public var glyphCacheStatistics: GlyphCacheStatistics { implementation.glyphCacheStatistics }

    /// GLES only: live GL objects and bytes owned by this renderer (nil for the reference backend).
    ///
    /// Steady after the first frames of an animation; the leak tests watch it over 1000 frames.
    public var gpuResourceStats: GPUResourceStats? { (implementation as? GLESBackend)?.resourceStats }

    /// GLES only: the last frame's command buffer as text (`canvas-gl … --dump-gpu`), nil otherwise.
    public var lastGPUCommandDump: String? {
        guard let g = implementation as? GLESBackend, g.hasFrame else { return nil }
        return g.lastCommandBufferText
    }

    /// GLES only: draw calls of the last frame (`bench`'s drawCalls), nil otherwise.
    public var lastDrawCallCount: Int? { (implementation as? GLESBackend)?.lastCommandBuffer?.frameDrawCallCount }

    /// GLES only: where the last frame's time went (geometry, coverage, submit, GPU, readback).
    public var lastGPUTimings: GLESFrameTimings? {
        guard let g = implementation as? GLESBackend, g.hasFrame else { return nil }
        return g.lastTimings
    }

    /// GLES only: what the program-binary cache did in this process (hits, misses, bad entries, and why it
    /// stands aside if it does); nil for the reference backend or `ProgramCacheLocation.none`. Counters are
    /// those of the directory's cache, which every renderer naming that directory shares.
    public var programCacheStatistics: ProgramCacheStatistics? {
        (implementation as? GLESBackend)?.programCache?.statistics
    }

    /// GLES only: the path strategy in use (raster atlas or GPU tessellation).
    public var pathStrategy: PathStrategyKind? { (implementation as? GLESBackend)?.strategyKind }

    /// Renders one frame of `canvas` at `size` points and `scale` pixels per point.
    public func render<Symbols>(_ canvas: Canvas<Symbols>, size: CGSize, scale: CGFloat = 1) throws -> RasterImage {
        try render(canvas.record(size: size), scale: scale)
    }

    /// Renders a renderer closure directly.
    public func render(size: CGSize, scale: CGFloat = 1, colorMode: ColorRenderingMode = .nonLinear,
                       opaque: Bool = false,
                       _ renderer: (inout GraphicsContext, CGSize) -> Void) throws -> RasterImage {
        try render(Recording(size: size, colorMode: colorMode, isOpaque: opaque, renderer: renderer), scale: scale)
    }

    /// Renders a recording (from a closure or a scene file).
    public func render(_ recording: Recording, scale: CGFloat = 1) throws -> RasterImage {
        let (w, h) = try pixelSize(for: recording.size, scale: scale)
        let recording = try beginReport(recording)
        defer { endReport(recording) }
        return try implementation.render(recording, target: RenderTarget(width: w, height: h, scale: Double(scale)))
    }

    /// Compiles what drawing `recording` needs before the first frame that draws it: on GLES, every program
    /// its draws use, specialised for them (a frame that would otherwise draw with the general programs and
    /// specialise on its second use); nothing on the reference backend. Both backends validate the recording
    /// as `render` does and throw the same errors. Later frames with other blur radii, blend modes or spreads
    /// still draw at once, with the general programs.
    ///
    /// `try renderer.prepare(Recording(size: CGSize(width: 400, height: 300)) { ctx, size in … })`
    public func prepare(_ recording: Recording, scale: CGFloat = 1) throws {
        let (w, h) = try pixelSize(for: recording.size, scale: scale)
        let target = RenderTarget(width: w, height: h, scale: Double(scale))
        if let gles = implementation as? GLESBackend {
            try gles.prepare(recording, target: target)
        } else {
            _ = try implementation.render(recording, target: target)
        }
    }

    /// `prepare(_:scale:)` for a renderer closure.
    public func prepare(size: CGSize, scale: CGFloat = 1, colorMode: ColorRenderingMode = .nonLinear,
                        opaque: Bool = false, _ renderer: (inout GraphicsContext, CGSize) -> Void) throws {
        try prepare(Recording(size: size, colorMode: colorMode, isOpaque: opaque, renderer: renderer), scale: scale)
    }

    /// Renders a recording into `image`, reusing its pixel memory when it has the frame's size and nothing
    /// else shares it; otherwise `image` is replaced. The pixels are those `render(_:scale:)` returns.
    ///
    /// For frame loops: a fresh 1024 × 1024 image is 4 MiB of new pages, which cost ~1.3 ms of page faults a
    /// frame on llvmpipe's host until glibc's malloc starts handing freed ones back (after a few frames).
    ///
    ///     var frame = RasterImage(width: 0, height: 0, pixels: [])
    ///     for t in times { try renderer.render(scene(at: t), into: &frame); try sink(frame) }
    public func render(_ recording: Recording, scale: CGFloat = 1, into image: inout RasterImage) throws {
        let (w, h) = try pixelSize(for: recording.size, scale: scale)
        let recording = try beginReport(recording)
        defer { endReport(recording) }
        try implementation.render(recording, target: RenderTarget(width: w, height: h, scale: Double(scale)),
                                  into: &image)
    }
}

// MARK: Overlapped readback (the frame exporter)

/// A frame whose pixels may still be on their way back from the GPU (`CanvasRenderer.beginRender`).
struct InFlightFrame {
    enum State {
        case complete(RasterImage)
        case gles(GLESBackend.DeferredFrame)
    }
    let state: State
}

extension CanvasRenderer {
    /// Renders `recording` and, on GLES, starts its readback into a pixel buffer object without waiting; the
    /// reference backend renders it whole. `completeRender` gives the pixels. The exporter begins frame i + 1
    /// before completing frame i; at most two frames may be begun and not completed.
    func beginRender(_ recording: Recording, scale: CGFloat) throws -> InFlightFrame {
        let (w, h) = try pixelSize(for: recording.size, scale: scale)
        let recording = try beginReport(recording)
        defer { endReport(recording) }
        let target = RenderTarget(width: w, height: h, scale: Double(scale))
        if let g = implementation as? GLESBackend {
            return InFlightFrame(state: .gles(try g.beginRender(recording, target: target)))
        }
        return InFlightFrame(state: .complete(try implementation.render(recording, target: target)))
    }

    /// Drops a begun frame whose pixels are not wanted (an export that failed), releasing its GL fence.
    func discardRender(_ frame: InFlightFrame) {
        if case .gles(let deferred) = frame.state, let g = implementation as? GLESBackend { g.discardRender(deferred) }
    }

    /// The pixels of a frame `beginRender` began: byte for byte what `render` gives.
    func completeRender(_ frame: InFlightFrame) throws -> RasterImage {
        switch frame.state {
        case .complete(let image): return image
        case .gles(let deferred):
            guard let g = implementation as? GLESBackend else { throw RenderError.gpu("internal: a GLES frame on another backend") }
            return try g.completeRender(deferred)
        }
    }
}
