// A shadow of the GL state the executor changes, so replaying a command buffer issues no redundant binds.
//
// The cache is only valid while the backend is the sole user of its context; `invalidate()` forgets
// everything (at the start of each frame, since nothing else promises to leave the context alone).

import CGLES

final class GLStateCache {
    private var program: GLuint?
    private var blend: Pipeline.Blend??
    private var vertexArray: GLuint?
    private var arrayBuffer: GLuint?
    private var framebuffer: GLuint?
    private var viewport: (Int, Int)?
    private var activeUnit: Int?
    private var textures: [Int: GLuint] = [:]

    /// Calls made and calls skipped, for the tests and `--dump-gpu`.
    private(set) var issued = 0
    private(set) var skipped = 0

    func invalidate() {
        program = nil; blend = nil; vertexArray = nil; arrayBuffer = nil; framebuffer = nil
        viewport = nil; activeUnit = nil; textures.removeAll()
    }

    private func needs<T: Equatable>(_ slot: inout T?, _ value: T) -> Bool {
        if slot == value { skipped += 1; return false }
        slot = value
        issued += 1
        return true
    }

    func useProgram(_ id: GLuint) {
        if needs(&program, id) { glUseProgram(id) }
    }

    /// nil: blending off.
    func setBlend(_ mode: Pipeline.Blend?) {
        if let current = blend, current == mode { skipped += 1; return }
        blend = .some(mode)
        issued += 1
        switch mode {
        case nil:
            glDisable(GLenum(GL_BLEND))
        case .sourceOver?:
            glEnable(GLenum(GL_BLEND))
            glBlendEquation(GLenum(GL_FUNC_ADD))
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        case .additive?:
            glEnable(GLenum(GL_BLEND))
            glBlendEquation(GLenum(GL_FUNC_ADD))
            glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE))
        case .multiply?:
            glEnable(GLenum(GL_BLEND))
            glBlendEquation(GLenum(GL_FUNC_ADD))
            glBlendFunc(GLenum(GL_ZERO), GLenum(GL_SRC_COLOR))
        case .replace?:
            glDisable(GLenum(GL_BLEND))
        case .erase?:
            glEnable(GLenum(GL_BLEND))
            glBlendEquation(GLenum(GL_FUNC_ADD))
            glBlendFunc(GLenum(GL_ZERO), GLenum(GL_ONE_MINUS_SRC_ALPHA))
        }
    }

    func bindVertexArray(_ id: GLuint) {
        if needs(&vertexArray, id) { glBindVertexArray(id) }
    }

    func bindArrayBuffer(_ id: GLuint) {
        if needs(&arrayBuffer, id) { glBindBuffer(GLenum(GL_ARRAY_BUFFER), id) }
    }

    func bindFramebuffer(_ id: GLuint) {
        if needs(&framebuffer, id) { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id) }
    }

    func setViewport(width: Int, height: Int) {
        if viewport.map({ $0 == (width, height) }) == true { skipped += 1; return }
        viewport = (width, height)
        issued += 1
        glViewport(0, 0, GLsizei(width), GLsizei(height))
    }

    func bindTexture(unit: Int, _ id: GLuint) {
        if textures[unit] == id { skipped += 1; return }
        if activeUnit != unit {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            activeUnit = unit
        }
        textures[unit] = id
        issued += 1
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
    }

    /// Makes `unit` the active texture unit (for calls that act on the active unit's texture).
    func selectUnit(_ unit: Int) {
        if activeUnit != unit {
            glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
            activeUnit = unit
        }
    }

    /// The unit uploads and allocations bind on, so that they never replace a texture a draw samples (the
    /// compositing programs sample units 0–5).
    static let uploadUnit = 7

    /// For uploads: binds `id` on the upload unit, records that it is bound there, and makes that unit active
    /// (glTexSubImage2D acts on the active unit's texture; when `id` was bound there already, `bindTexture`
    /// returns without activating it, and an atlas refilled after a draw that bound an image on unit 5 went
    /// into the image).
    func bindTextureForUpload(_ id: GLuint) {
        bindTexture(unit: Self.uploadUnit, id)
        selectUnit(Self.uploadUnit)
    }

    /// Forget a deleted object so a recycled name is bound again.
    func forgetTexture(_ id: GLuint) {
        for (unit, t) in textures where t == id { textures[unit] = nil }
    }
    func forgetFramebuffer(_ id: GLuint) { if framebuffer == id { framebuffer = nil } }
    func forgetBuffer(_ id: GLuint) { if arrayBuffer == id { arrayBuffer = nil } }
}
