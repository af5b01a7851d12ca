// The GL objects a renderer owns across frames: the frame target, atlas textures, the instance buffer and
// the vertex arrays. Each is created on first need and reused; a texture or buffer that is too small is
// replaced by one large enough for both the old and the new need (so sizes settle after a few frames and
// a steady animation allocates nothing). Every creation and deletion goes through here, which keeps the
// live-object counters exact for the leak tests.

import CGLES

/// Live GL objects and their bytes, as counted by one renderer.
///
/// After the first frame of a 64×64 canvas: `GPUResourceStats(textures: 2, buffers: 1, framebuffers: 1, …)`.
public struct GPUResourceStats: Sendable, Equatable, CustomStringConvertible {
    public var textures = 0
    public var buffers = 0
    public var framebuffers = 0
    public var vertexArrays = 0
    public var programs = 0
    /// Bytes of texture storage (level 0) plus buffer storage.
    public var bytes = 0
    public var description: String {
        "\(textures) textures, \(buffers) buffers, \(framebuffers) framebuffers, \(vertexArrays) vertex arrays, \(programs) programs, \(bytes) bytes"
    }
}

final class GLResources {
    struct Texture {
        var id: GLuint
        var framebuffer: GLuint  // 0 until the texture is rendered to
        var desc: TextureDesc
    }

    private(set) var stats = GPUResourceStats()
    private let cache: GLStateCache
    private var textures: [TextureRef: Texture] = [:]
    private(set) var instanceBuffer: GLuint = 0
    private var instanceBufferSize = 0
    /// Triangle indices (`GPUCommand.drawIndexed`), made on the first indexed draw.
    private(set) var indexBuffer: GLuint = 0
    private var indexBufferSize = 0
    private var vertexArrays: [Pipeline: GLuint] = [:]

    init(cache: GLStateCache) { self.cache = cache }

    /// The texture for `ref`, at least `desc.width × desc.height` in `desc.format`.
    func texture(_ ref: TextureRef, _ desc: TextureDesc, exactSize: Bool) throws -> Texture {
        if let t = textures[ref], t.desc.format == desc.format,
           exactSize ? (t.desc.width == desc.width && t.desc.height == desc.height)
                     : (t.desc.width >= desc.width && t.desc.height >= desc.height) {
            return t
        }
        var size = desc
        if !exactSize, let old = textures[ref], old.desc.format == desc.format {
            size.width = max(size.width, old.desc.width)
            size.height = max(size.height, old.desc.height)
        }
        if let old = textures[ref] { delete(old) }
        textures[ref] = nil
        var id: GLuint = 0
        glGenTextures(1, &id)
        cache.bindTextureForUpload(id)
        let (internalFormat, format, type) = Self.glFormat(size.format)
        // Filter images are read with bilinear filtering by the composite that interpolates a coarse blur
        // (`PaintSource.upsampledSource`); every other read is texelFetch or a texel centre.
        let filtering: GLint = {
            switch ref {
            // Layers too: a blur's block average reads them with the filter (every other read is texelFetch).
            case .filterImage, .filterAtlas, .layer, .preciseLayer, .layerAtlas, .preciseLayerAtlas: return GL_LINEAR
            default: return GL_NEAREST
            }
        }()
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), filtering)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), filtering)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, internalFormat, GLsizei(size.width), GLsizei(size.height), 0,
                     format, type, nil)
        stats.textures += 1
        stats.bytes += size.width * size.height * size.format.bytesPerTexel
        let t = Texture(id: id, framebuffer: 0, desc: size)
        textures[ref] = t
        let err = glGetError()
        if err != GLenum(GL_NO_ERROR) {
            throw RenderError.gpu("allocating texture \(ref) \(size): \(GLErrorName.name(err))")
        }
        return t
    }

    /// The framebuffer rendering into `ref` (created with the texture's first use as a target).
    func framebuffer(_ ref: TextureRef) throws -> GLuint {
        guard var t = textures[ref] else { throw RenderError.gpu("internal: render target \(ref) was not allocated") }
        if t.framebuffer != 0 { return t.framebuffer }
        var fbo: GLuint = 0
        glGenFramebuffers(1, &fbo)
        stats.framebuffers += 1
        cache.bindFramebuffer(fbo)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), t.id, 0)
        t.framebuffer = fbo
        textures[ref] = t
        let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
        guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError.gpu("framebuffer for \(ref) \(t.desc) is incomplete: \(GLErrorName.name(status))")
        }
        return fbo
    }

    /// The instance buffer, grown to hold at least `size` bytes.
    func instanceBuffer(size: Int) throws -> GLuint {
        if instanceBuffer == 0 {
            glGenBuffers(1, &instanceBuffer)
            stats.buffers += 1
        }
        if instanceBufferSize < size {
            var n = max(64 * 1024, instanceBufferSize)
            while n < size { n *= 2 }
            cache.bindArrayBuffer(instanceBuffer)
            glBufferData(GLenum(GL_ARRAY_BUFFER), GLsizeiptr(n), nil, GLenum(GL_DYNAMIC_DRAW))
            stats.bytes += n - instanceBufferSize
            instanceBufferSize = n
            let err = glGetError()
            if err != GLenum(GL_NO_ERROR) {
                throw RenderError.gpu("allocating the \(n)-byte instance buffer: \(GLErrorName.name(err))")
            }
        }
        return instanceBuffer
    }

    /// The vertex array for `pipeline`'s instance layout (attribute pointers are set per draw).
    func vertexArray(_ pipeline: Pipeline) -> GLuint {
        if let v = vertexArrays[pipeline] { return v }
        var v: GLuint = 0
        glGenVertexArrays(1, &v)
        stats.vertexArrays += 1
        vertexArrays[pipeline] = v
        cache.bindVertexArray(v)
        for a in 0 ..< GLuint(pipeline.attributeCount) {
            glEnableVertexAttribArray(a)
            glVertexAttribDivisor(a, pipeline.drawsTriangles ? 0 : 1)
        }
        return v
    }

    func programCreated() { stats.programs += 1 }
    func programDeleted() { stats.programs -= 1 }

    private func delete(_ t: Texture) {
        var id = t.id
        cache.forgetTexture(id)
        glDeleteTextures(1, &id)
        stats.textures -= 1
        stats.bytes -= t.desc.width * t.desc.height * t.desc.format.bytesPerTexel
        if t.framebuffer != 0 {
            var f = t.framebuffer
            cache.forgetFramebuffer(f)
            glDeleteFramebuffers(1, &f)
            stats.framebuffers -= 1
        }
    }

    /// The index buffer, grown to hold at least `size` bytes. It is bound to GL_ELEMENT_ARRAY_BUFFER of the
    /// vertex array bound now (element bindings are vertex-array state; only `meshPaint`'s draws indexed).
    func indexBuffer(size: Int) throws -> GLuint {
        if indexBuffer == 0 {
            glGenBuffers(1, &indexBuffer)
            stats.buffers += 1
        }
        glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
        if indexBufferSize < size {
            var n = max(64 * 1024, indexBufferSize)
            while n < size { n *= 2 }
            glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), GLsizeiptr(n), nil, GLenum(GL_DYNAMIC_DRAW))
            stats.bytes += n - indexBufferSize
            indexBufferSize = n
            let err = glGetError()
            if err != GLenum(GL_NO_ERROR) {
                throw RenderError.gpu("allocating the \(n)-byte index buffer: \(GLErrorName.name(err))")
            }
        }
        return indexBuffer
    }

    /// Deletes everything (the context must be current).
    func deleteAll() {
        for t in textures.values { delete(t) }
        textures.removeAll()
        if instanceBuffer != 0 {
            cache.forgetBuffer(instanceBuffer)
            glDeleteBuffers(1, &instanceBuffer)
            stats.buffers -= 1
            stats.bytes -= instanceBufferSize
            instanceBuffer = 0
            instanceBufferSize = 0
        }
        if indexBuffer != 0 {
            glDeleteBuffers(1, &indexBuffer)
            stats.buffers -= 1
            stats.bytes -= indexBufferSize
            indexBuffer = 0
            indexBufferSize = 0
        }
        for var v in vertexArrays.values {
            glDeleteVertexArrays(1, &v)
            stats.vertexArrays -= 1
        }
        vertexArrays.removeAll()
    }

    static func glFormat(_ f: TextureFormat) -> (internal: GLint, format: GLenum, type: GLenum) {
        switch f {
        case .rgba8: return (GL_RGBA8, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE))
        // GL_EXT_texture_format_BGRA8888: unsized BGRA_EXT as internal format and format.
        case .bgra8: return (GLint(GL_BGRA_EXT), GLenum(GL_BGRA_EXT), GLenum(GL_UNSIGNED_BYTE))
        case .r8: return (GL_R8, GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE))
        case .r16f: return (GL_R16F, GLenum(GL_RED), GLenum(GL_HALF_FLOAT))
        case .r32f: return (GL_R32F, GLenum(GL_RED), GLenum(GL_FLOAT))
        case .rgba32f: return (GL_RGBA32F, GLenum(GL_RGBA), GLenum(GL_FLOAT))
        case .rgba16f: return (GL_RGBA16F, GLenum(GL_RGBA), GLenum(GL_HALF_FLOAT))
        }
    }
}
