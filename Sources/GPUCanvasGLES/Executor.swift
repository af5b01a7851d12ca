// Replays a command buffer on the current context through the state cache, then ends the frame with a
// fence and a readback.
//
// The frame target is drawn with device row 0 at GL row 0 (the projection maps y = 0 to NDC −1 without a
// flip), so glReadPixels, which returns GL row 0 first, yields the rows top to bottom as `RasterImage`
// stores them: no CPU flip.

import CGLES
import Foundation

/// Where the time of one GLES frame went, in seconds.
public struct GLESFrameTimings: Sendable, Equatable, CustomStringConvertible {
    /// Validation, flattening and stroking (CPU).
    public var geometry: Double = 0
    /// Coverage into the atlas (CPU, raster-atlas) or segment lists (GPU tessellation), and packing.
    public var coverage: Double = 0
    /// Issuing the GL calls: uploads, binds, draws.
    public var submit: Double = 0
    /// Waiting on the fence: the GL work itself (on llvmpipe, the rasterizer threads).
    public var gpu: Double = 0
    /// glReadPixels.
    public var readback: Double = 0
    public var total: Double { geometry + coverage + submit + gpu + readback }

    public init() {}

    public var description: String {
        func ms(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }
        return "geometry \(ms(geometry)), coverage \(ms(coverage)), submit \(ms(submit)), gpu \(ms(gpu)), readback \(ms(readback)), total \(ms(total))"
    }
}

package final class Executor {
    private let context: GLContext
    private let cache: GLStateCache
    private let resources: GLResources
    let programs: ProgramLibrary
    /// Last u_targetSize and u_targetOrigin set per program.
    private var targetSizes: [GLuint: (Int, Int, Int, Int)] = [:]

    // MARK: Asynchronous readback (the frame exporter)
    //
    // With `deferReadback` set, a frame that reads back does not wait for its GL work: glReadPixels goes into
    // one of two pixel buffer objects (double-buffered: frame i into buffer i mod 2), a fence follows, and the
    // pixels are copied out later (`completeReadback`) — after the next frame's GL work has been issued, so the
    // GPU renders frame i + 1 while frame i travels back. The 8-bit frame formats only; a linear-light
    // (RGBA16F) frame reads back synchronously as before.

    /// A frame whose pixels are on their way into a pixel buffer object.
    package struct PendingReadback {
        let buffer: GLuint
        let fence: GLsync
        let width: Int
        let height: Int
        let swapRB: Bool
    }
    /// Set by `GLESBackend.beginRender` for one frame.
    var deferReadback = false
    /// The readback `execute` started when `deferReadback` was set (cleared by `beginRender`).
    var startedReadback: PendingReadback?
    private var packBuffers: [GLuint] = []
    private var packBufferBytes = 0
    private var nextPackBuffer = 0

    /// Issues the frame's readback into the next pixel buffer object and fences it.
    private func startReadback(width: Int, height: Int, swapRB: Bool) throws {
        let byteCount = width * height * 4
        if packBuffers.isEmpty {
            var ids: [GLuint] = [0, 0]
            glGenBuffers(2, &ids)
            packBuffers = ids
            packBufferBytes = 0
        }
        let buffer = packBuffers[nextPackBuffer]
        nextPackBuffer = 1 - nextPackBuffer
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        if packBufferBytes < byteCount {
            // Both buffers grow together; a smaller frame reuses the larger storage.
            for id in packBuffers {
                glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), id)
                glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(byteCount), nil, GLenum(GL_STREAM_READ))
            }
            packBufferBytes = byteCount
            glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer)
        }
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), GLenum(swapRB ? GL_BGRA_EXT : GL_RGBA),
                     GLenum(GL_UNSIGNED_BYTE), nil)
        // Unbound again: a later glReadPixels to client memory must not land in the buffer.
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
        guard let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
            throw RenderError.gpu("glFenceSync failed: \(GLErrorName.name(glGetError()))")
        }
        glFlush()
        try context.check("readback into a pixel buffer")
        startedReadback = PendingReadback(buffer: buffer, fence: fence, width: width, height: height, swapRB: swapRB)
    }

    /// Waits for `pending`'s fence and copies its pixels out (R and B swapped back for a BGRA8 frame). The
    /// context must be current.
    func completeReadback(_ pending: PendingReadback) throws -> RasterImage {
        defer { glDeleteSync(pending.fence) }
        var waited = 0
        while true {
            let r = glClientWaitSync(pending.fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
            if r == GLenum(GL_ALREADY_SIGNALED) || r == GLenum(GL_CONDITION_SATISFIED) { break }
            if r == GLenum(GL_WAIT_FAILED) { throw RenderError.gpu("glClientWaitSync failed: \(GLErrorName.name(glGetError()))") }
            waited += 1
            if waited >= 60 { throw RenderError.gpu("the frame's GL work did not finish within 60 s (GL_TIMEOUT_EXPIRED)") }
        }
        let byteCount = pending.width * pending.height * 4
        glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), pending.buffer)
        defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
        guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(byteCount), GLbitfield(GL_MAP_READ_BIT)) else {
            throw RenderError.gpu("glMapBufferRange of the readback buffer failed: \(GLErrorName.name(glGetError()))")
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { out, initialized in
            out.baseAddress!.initialize(from: mapped.assumingMemoryBound(to: UInt8.self), count: byteCount)
            if pending.swapRB { Self.swapRedAndBlue(out) }
            initialized = byteCount
        }
        glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER))
        try context.check("mapping the readback buffer")
        return RasterImage(width: pending.width, height: pending.height, pixels: pixels)
    }

    /// Deletes the readback buffers (the backend's deinit, context current).
    func deleteReadbackBuffers() {
        if !packBuffers.isEmpty { glDeleteBuffers(GLsizei(packBuffers.count), packBuffers) }
        packBuffers = []
        packBufferBytes = 0
    }

    init(context: GLContext, cache: GLStateCache, resources: GLResources, programs: ProgramLibrary) {
        self.context = context
        self.cache = cache
        self.resources = resources
        self.programs = programs
    }

    /// BGRA8 pixels read as stored (GL_EXT_read_format_bgra) → RGBA8, in place.
    static func swapRedAndBlue(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
        bytes.withMemoryRebound(to: UInt32.self) { words in
            for i in words.indices {
                let p = words[i]
                words[i] = (p & 0xFF00_FF00) | ((p >> 16) & 0xFF) | ((p & 0xFF) << 16)
            }
        }
    }

    /// Bytes the next readback may go into instead of a new array, when they are its size
    /// (`CanvasRenderer.render(_:scale:into:)`); taken by that readback.
    var readbackDestination: [UInt8]?

    /// What the replay of one frame keeps track of.
    private struct Replay {
        var textures: [TextureRef: GLResources.Texture] = [:]
        var buffer: GLuint = 0
        var pipeline: Pipeline?
        var program: GLProgram?
        /// The size of the texture on unit 0 (the atlas), for programs' u_atlasSize.
        var unit0Size: (Int, Int)?
        /// The current pass's target: its size and the device pixel of its corner.
        var size = (0, 0)
        var origin = (0, 0)

        func texture(_ ref: TextureRef) throws -> GLResources.Texture {
            guard let t = textures[ref] else { throw RenderError.gpu("internal: texture \(ref) undeclared") }
            return t
        }
    }

    /// Runs `cb`: its prologue, then its passes; then ends the frame with a fence and reads it back (when the
    /// buffer reads back): the frame's pixels, or nil when the readback was deferred or not asked for.
    func execute(_ cb: CommandBuffer, timings: inout GLESFrameTimings) throws -> RasterImage? {
        let t0 = DispatchTime.now().uptimeNanoseconds
        var replay = try beginFrame(cb)
        for command in cb.prologue { try run(command, cb, &replay) }
        for (index, pass) in cb.passes.enumerated() {
            try begin(pass, index: index, cb, &replay)
            for command in pass.commands { try run(command, cb, &replay) }
            try context.check("pass \(index) → \(pass.target)")
        }
        let t1 = DispatchTime.now().uptimeNanoseconds
        timings.submit += Double(t1 - t0) / 1e9
        guard cb.readsBack, let desc = cb.desc(of: .frame) else { return nil }
        if deferReadback && desc.format != .rgba16f {
            cache.bindFramebuffer(try resources.framebuffer(.frame))
            try startReadback(width: desc.width, height: desc.height,
                              swapRB: desc.format == .bgra8 && context.has("GL_EXT_read_format_bgra"))
            return nil
        }
        try waitForFence()
        let t2 = DispatchTime.now().uptimeNanoseconds
        timings.gpu += Double(t2 - t1) / 1e9
        let image = try readBack(desc)
        timings.readback += Double(DispatchTime.now().uptimeNanoseconds - t2) / 1e9
        return image
    }

    /// Fixed state for the frame, and its textures and instance buffer from the pools.
    private func beginFrame(_ cb: CommandBuffer) throws -> Replay {
        cache.invalidate()
        targetSizes.removeAll(keepingCapacity: true)
        glDisable(GLenum(GL_DEPTH_TEST))
        glDisable(GLenum(GL_SCISSOR_TEST))
        glDisable(GLenum(GL_DITHER))  // dithering would make bytes depend on position, not on the recording
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        var replay = Replay()
        for (ref, desc) in cb.textures {
            replay.textures[ref] = try resources.texture(ref, desc, exactSize: ref == .frame)
        }
        replay.buffer = cb.instanceBufferSize > 0 ? try resources.instanceBuffer(size: cb.instanceBufferSize) : 0
        try context.check("allocating frame resources")
        return replay
    }

    /// Binds the pass's target and runs its load op.
    private func begin(_ pass: RenderPass, index: Int, _ cb: CommandBuffer, _ r: inout Replay) throws {
        guard r.textures[pass.target] != nil, let desc = cb.desc(of: pass.target) else {
            throw RenderError.gpu("internal: pass \(index) targets undeclared texture \(pass.target)")
        }
        cache.bindFramebuffer(try resources.framebuffer(pass.target))
        r.size = (desc.width, desc.height)
        r.origin = (pass.originX, pass.originY)
        cache.setViewport(width: desc.width, height: desc.height)
        glDisable(GLenum(GL_SCISSOR_TEST))  // a scissor never outlives its pass
        if case .clear(let c) = pass.load {
            if let rect = pass.clearRect {
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
            }
            glClearColor(c.r, c.g, c.b, c.a)
            glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
            if pass.clearRect != nil { glDisable(GLenum(GL_SCISSOR_TEST)) }
        }
        r.pipeline = nil
    }

    /// One command (the prologue's run outside any pass: uploads only).
    private func run(_ command: GPUCommand, _ cb: CommandBuffer, _ r: inout Replay) throws {
        switch command {
        case .bindPipeline(let p):
            bind(p, try programs.program(p, .none).0, &r)
        case .bindVariant(let p, let v):
            let (program, isGeneral) = try programs.program(p, v)
            bind(p, program, &r)
            if isGeneral, let f = v.filter { setFilterConstants(f, blendMode: Int(v.blendMode ?? 0), program) }
        case .setComposite(let state):
            try setComposite(state, &r)
        case .scissor(let rect):
            if let rect {
                glEnable(GLenum(GL_SCISSOR_TEST))
                glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
            } else {
                glDisable(GLenum(GL_SCISSOR_TEST))
            }
        case .copyDestination(let rect, let into):
            cache.bindTexture(unit: 4, try r.texture(into).id)
            cache.selectUnit(4)
            // Mesa 22.3's llvmpipe copies without waiting for queued draws that still sample the copy (the
            // previous shader-blended draw) or write the source: 4 of 12 renders of the blend-modes example read
            // stale pixels; glFlush was not enough, glFinish always was. A hardware driver orders the copy
            // itself, and there this route is the fast one.
            if context.isSoftwareDevice { glFinish() }
            glCopyTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(rect.x), GLint(rect.y), GLint(rect.x), GLint(rect.y),
                                GLsizei(rect.width), GLsizei(rect.height))
        case .bindTexture(let unit, let ref):
            let t = try r.texture(ref)
            cache.bindTexture(unit: unit, t.id)
            if unit == 0 { r.unit0Size = (t.desc.width, t.desc.height) }
            // Normalised atlas coordinates need the allocated size (the pool may hold a larger one).
            if unit == 0, let program = r.program, program.atlasSize >= 0 {
                glUniform2f(program.atlasSize, Float(t.desc.width), Float(t.desc.height))
            }
        case .uploadInstances(let range, let offset, _, _):
            cache.bindArrayBuffer(r.buffer)
            glBufferSubData(GLenum(GL_ARRAY_BUFFER), GLintptr(offset), GLsizeiptr(range.count),
                            cb.staging.base + range.lowerBound)
        case .uploadTexture(let ref, let rect, let format, let source):
            cache.bindTextureForUpload(try r.texture(ref).id)
            let (_, glFormat, glType) = GLResources.glFormat(format)
            glTexSubImage2D(GLenum(GL_TEXTURE_2D), 0, GLint(rect.x), GLint(rect.y), GLsizei(rect.width),
                            GLsizei(rect.height), glFormat, glType, cb.staging.base + source)
        case .drawIndexed(let count, let indices, let offset, let p):
            guard r.pipeline == p else { throw RenderError.gpu("internal: draw for \(p) without its pipeline bound") }
            cache.bindArrayBuffer(r.buffer)
            setAttributes(p, offset: offset)
            // The bound vertex array is the pipeline's (`bind`): the index buffer becomes its element buffer.
            _ = try resources.indexBuffer(size: indices.count)
            glBufferSubData(GLenum(GL_ELEMENT_ARRAY_BUFFER), 0, GLsizeiptr(indices.count), cb.staging.base + indices.lowerBound)
            glDrawElements(GLenum(GL_TRIANGLES), GLsizei(count), GLenum(GL_UNSIGNED_INT), nil)
        case .draw(let count, let offset, let p):
            guard r.pipeline == p else { throw RenderError.gpu("internal: draw for \(p) without its pipeline bound") }
            cache.bindArrayBuffer(r.buffer)
            setAttributes(p, offset: offset)
            if p.drawsTriangles {
                glDrawArrays(GLenum(GL_TRIANGLES), 0, GLsizei(count))
                return
            }
            glDrawArraysInstanced(GLenum(p.drawsFans ? GL_TRIANGLE_FAN : GL_TRIANGLE_STRIP), 0, 4, GLsizei(count))
        }
    }

    /// A general filter program's constants (`filter.glsl`'s u_filterShape).
    private func setFilterConstants(_ f: FilterPassVariant, blendMode: Int, _ program: GLProgram) {
        glUniform4i(program.uniform("u_filterShape"), GLint(f.factor), GLint(f.radius), GLint(blendMode), 0)
    }

    /// Makes `program` current with its pipeline's blend state and vertex layout, and the pass's target size.
    private func bind(_ p: Pipeline, _ program: GLProgram, _ r: inout Replay) {
        r.program = program
        cache.useProgram(program.id)
        if program.atlasSize >= 0, let size = r.unit0Size {
            glUniform2f(program.atlasSize, Float(size.0), Float(size.1))
        }
        cache.setBlend(p.blend)
        cache.bindVertexArray(resources.vertexArray(p))
        let key = (r.size.0, r.size.1, r.origin.0, r.origin.1)
        if targetSizes[program.id].map({ $0 != key }) ?? true {
            glUniform2f(program.targetSize, Float(r.size.0), Float(r.size.1))
            let origin = program.uniform("u_targetOrigin")
            if origin >= 0 { glUniform2i(origin, GLint(r.origin.0), GLint(r.origin.1)) }
            targetSizes[program.id] = key
        }
        r.pipeline = p
    }

    /// The composite programs' per-draw state: source rectangles and texels, and the textures they read.
    private func setComposite(_ state: CompositeState, _ r: inout Replay) throws {
        guard let program = r.program else { throw RenderError.gpu("internal: composite state without a pipeline bound") }
        func rect(_ name: String, _ rect: PixelRect?) {
            let l = program.uniform(name)
            guard l >= 0 else { return }
            let rect = rect ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
            glUniform4i(l, GLint(rect.x), GLint(rect.y), GLint(rect.width), GLint(rect.height))
        }
        rect("u_sourceRect", state.source?.rect)
        rect("u_source2Rect", state.second?.rect)
        for (name, t) in [("u_sourceTexel", state.sourceTexel), ("u_source2Texel", state.secondTexel)] {
            let l = program.uniform(name)
            if l >= 0 { glUniform2i(l, t.x, t.y) }
        }
        if let m = state.maskPage { cache.bindTexture(unit: 2, try r.texture(m).id) }
        if let s = state.source { cache.bindTexture(unit: 3, try r.texture(s.ref).id) }
        if let s = state.second { cache.bindTexture(unit: 6, try r.texture(s.ref).id) }
        if let i = state.image { cache.bindTexture(unit: 5, try r.texture(i).id) }
    }

    /// Waits for the fence that marks the end of the frame's GL work (separating GPU time from readback).
    private func waitForFence() throws {
        guard let fence = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
            throw RenderError.gpu("glFenceSync failed: \(GLErrorName.name(glGetError()))")
        }
        defer { glDeleteSync(fence) }
        var waited = 0
        while true {
            let r = glClientWaitSync(fence, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), 1_000_000_000)
            if r == GLenum(GL_ALREADY_SIGNALED) || r == GLenum(GL_CONDITION_SATISFIED) { return }
            if r == GLenum(GL_WAIT_FAILED) { throw RenderError.gpu("glClientWaitSync failed: \(GLErrorName.name(glGetError()))") }
            waited += 1
            if waited >= 60 { throw RenderError.gpu("the frame's GL work did not finish within 60 s (GL_TIMEOUT_EXPIRED)") }
        }
    }

    /// The frame's pixels. A BGRA8 frame reads back as stored (GL_EXT_read_format_bgra) and swaps R and B
    /// here: cheaper than letting the driver convert. A linear-light frame reads floats, encoded to sRGB
    /// bytes as the reference does.
    private func readBack(_ desc: TextureDesc) throws -> RasterImage {
        cache.bindFramebuffer(try resources.framebuffer(.frame))
        if desc.format == .rgba16f {
            var values = [Float](repeating: 0, count: desc.width * desc.height * 4)
            glReadPixels(0, 0, GLsizei(desc.width), GLsizei(desc.height), GLenum(GL_RGBA), GLenum(GL_FLOAT), &values)
            try context.check("readback")
            return RasterImage(width: desc.width, height: desc.height, pixels: OutputEncoding.encodeLinear(values))
        }
        let swapRB = desc.format == .bgra8 && context.has("GL_EXT_read_format_bgra")
        // glReadPixels writes every byte, so the image is not zeroed first (a 4 MiB memset per 1024² frame).
        // Should the read fail, `check` throws and the unwritten bytes are never seen.
        let byteCount = desc.width * desc.height * 4
        func read(into buffer: UnsafeMutableBufferPointer<UInt8>) {
            glReadPixels(0, 0, GLsizei(desc.width), GLsizei(desc.height), GLenum(swapRB ? GL_BGRA_EXT : GL_RGBA),
                         GLenum(GL_UNSIGNED_BYTE), buffer.baseAddress)
            if swapRB { Self.swapRedAndBlue(buffer) }
        }
        var pixels: [UInt8]
        if var reused = readbackDestination.take(), reused.count == byteCount {
            reused.withUnsafeMutableBufferPointer { read(into: $0) }
            pixels = reused
        } else {
            pixels = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
                read(into: buffer)
                initialized = byteCount
            }
        }
        try context.check("readback")
        return RasterImage(width: desc.width, height: desc.height, pixels: pixels)
    }

    private func setAttributes(_ p: Pipeline, offset: Int) {
        let stride = GLsizei(p.instanceStride)
        func ptr(_ o: Int) -> UnsafeRawPointer? { UnsafeRawPointer(bitPattern: offset + o) }
        switch p {
        case .atlasCover, .tessCover:
            glVertexAttribIPointer(0, 4, GLenum(GL_SHORT), stride, ptr(0))
            glVertexAttribIPointer(1, 4, GLenum(GL_SHORT), stride, ptr(8))
            glVertexAttribPointer(2, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, ptr(16))
            glVertexAttribIPointer(3, 4, GLenum(GL_SHORT), stride, ptr(32))
        case .atlasBlit:
            glVertexAttribIPointer(0, 4, GLenum(GL_SHORT), stride, ptr(0))
            glVertexAttribIPointer(1, 4, GLenum(GL_SHORT), stride, ptr(8))
        case .tessAccumulate:
            glVertexAttribPointer(0, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, ptr(0))
            glVertexAttribPointer(1, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, ptr(16))
        case .meshPaint:
            glVertexAttribPointer(0, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, ptr(0))
            glVertexAttribIPointer(1, 4, GLenum(GL_SHORT), stride, ptr(16))
        case .composite, .compositeFetch, .compositeCopy, .maskMultiply, .maskErase, .filter:
            glVertexAttribIPointer(0, 4, GLenum(GL_SHORT), stride, ptr(0))
            glVertexAttribIPointer(1, 4, GLenum(GL_SHORT), stride, ptr(8))
            glVertexAttribIPointer(2, 4, GLenum(GL_SHORT), stride, ptr(16))
            glVertexAttribIPointer(3, 4, GLenum(GL_SHORT), stride, ptr(24))
            glVertexAttribIPointer(4, 4, GLenum(GL_SHORT), stride, ptr(32))
            glVertexAttribIPointer(5, 4, GLenum(GL_SHORT), stride, ptr(40))
            glVertexAttribPointer(6, 4, GLenum(GL_FLOAT), GLboolean(GL_FALSE), stride, ptr(48))
        }
    }
}
