// One OpenGL ES 3 context with no surface (EGL_KHR_surfaceless_context): all rendering goes to framebuffer
// objects, so no window, pbuffer or display server is involved.
//
// A context is current on at most one thread. A renderer may be driven from different threads over its
// life (tests, Swift concurrency), so `makeCurrent()` binds it at the start of every frame and
// `releaseCurrent()` unbinds it at the end; binding an already-current context costs one comparison.

import CGLES
import Foundation

/// Names of GL error and framebuffer-status codes.
enum GLErrorName {
    /// `name(0x0502)` → "GL_INVALID_OPERATION".
    static func name(_ code: GLenum) -> String {
        switch Int32(code) {
        case GL_NO_ERROR: return "GL_NO_ERROR"
        case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
        case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
        case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
        case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
        case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
        case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST"
        case GL_FRAMEBUFFER_COMPLETE: return "GL_FRAMEBUFFER_COMPLETE"
        case GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_ATTACHMENT"
        case GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT: return "GL_FRAMEBUFFER_INCOMPLETE_MISSING_ATTACHMENT"
        case GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS: return "GL_FRAMEBUFFER_INCOMPLETE_DIMENSIONS"
        case GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE: return "GL_FRAMEBUFFER_INCOMPLETE_MULTISAMPLE"
        case GL_FRAMEBUFFER_UNSUPPORTED: return "GL_FRAMEBUFFER_UNSUPPORTED"
        default: return String(format: "GL error 0x%04X", Int(code))
        }
    }
}

/// The extensions `canvas-gl info` reports and the backend looks for.
let extensionsOfInterest = [
    "GL_EXT_color_buffer_float", "GL_EXT_color_buffer_half_float", "GL_EXT_float_blend",
    "GL_EXT_shader_framebuffer_fetch", "GL_KHR_blend_equation_advanced", "GL_EXT_blend_func_extended",
    "GL_OES_texture_float_linear", "GL_EXT_texture_buffer", "GL_KHR_debug", "GL_EXT_texture_format_BGRA8888",
]

/// A current-able GLES 3 context on one EGL display.
final class GLContext {
    let display: EGLDisplay
    let context: EGLContext
    /// Which display was opened, in words ("Mesa surfaceless", "egl-device:0").
    let chosenDevice: String
    let isSoftwareDevice: Bool

    let vendor: String
    let renderer: String
    let version: String
    let shadingLanguageVersion: String
    let extensions: Set<String>
    let maxTextureSize: Int
    let maxSamples: Int
    /// GL_MAX_VARYING_VECTORS (GLES 3.0 guarantees 15).
    let maxVaryingVectors: Int

    /// A `glGetString` value of the current context ("" when the driver gives none).
    static func string(_ name: Int32) -> String {
        glGetString(GLenum(name)).map { String(cString: $0) } ?? ""
    }

    init(selection: GLESDeviceSelection) throws {
        let opened = try EGLPlatform.openDisplay(selection)
        display = opened.display
        chosenDevice = opened.chosen
        var ok = false
        defer { if !ok { DisplayRegistry.release(opened.display) } }

        guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
            throw EGLErrorName.failure("eglBindAPI(EGL_OPENGL_ES_API)")
        }
        let displayExtensions = Set((eglQueryString(display, EGL_EXTENSIONS).map { String(cString: $0) } ?? "")
            .split(separator: " ").map(String.init))
        guard displayExtensions.contains("EGL_KHR_surfaceless_context") else {
            throw RenderError.gpu("\(opened.chosen) lacks EGL_KHR_surfaceless_context, needed to render without a window")
        }
        // A context needs no config where EGL_KHR_no_config_context exists; otherwise any ES3-renderable one.
        var config: EGLConfig? = nil
        if !displayExtensions.contains("EGL_KHR_no_config_context") {
            let attribs: [EGLint] = [EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE]
            var n: EGLint = 0
            guard eglChooseConfig(display, attribs, &config, 1, &n) == EGLBoolean(EGL_TRUE), n > 0 else {
                throw EGLErrorName.failure("eglChooseConfig(EGL_OPENGL_ES3_BIT)", "no ES 3 config on \(opened.chosen)")
            }
        }
        let contextAttribs: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE]
        guard let ctx = eglCreateContext(display, config, nil, contextAttribs) else {
            throw EGLErrorName.failure("eglCreateContext(OpenGL ES 3.0)", opened.chosen)
        }
        context = ctx
        guard eglMakeCurrent(display, nil, nil, ctx) == EGLBoolean(EGL_TRUE) else {
            let err = EGLErrorName.failure("eglMakeCurrent(surfaceless)")
            eglDestroyContext(display, ctx)
            throw err
        }
        vendor = Self.string(GL_VENDOR)
        renderer = Self.string(GL_RENDERER)
        version = Self.string(GL_VERSION)
        shadingLanguageVersion = Self.string(GL_SHADING_LANGUAGE_VERSION)
        var count: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
        var exts = Set<String>()
        for i in 0 ..< max(0, Int(count)) {
            if let s = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(i)) { exts.insert(String(cString: s)) }
        }
        extensions = exts
        var v: GLint = 0
        glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &v)
        maxTextureSize = Int(v)
        glGetIntegerv(GLenum(GL_MAX_SAMPLES), &v)
        maxSamples = Int(v)
        glGetIntegerv(GLenum(GL_MAX_VARYING_VECTORS), &v)
        maxVaryingVectors = Int(v)
        // llvmpipe and softpipe also appear through the surfaceless platform, which has no device string.
        isSoftwareDevice = opened.isSoftwareDevice || renderer.contains("llvmpipe") || renderer.contains("softpipe")
        let err = glGetError()
        guard err == GLenum(GL_NO_ERROR) else {
            eglMakeCurrent(display, nil, nil, nil)
            eglDestroyContext(display, ctx)
            throw RenderError.gpu("querying the new context failed: \(GLErrorName.name(err))")
        }
        ok = true
    }

    deinit {
        eglMakeCurrent(display, nil, nil, nil)
        eglDestroyContext(display, context)
        DisplayRegistry.release(display)
    }

    /// Binds the context to the calling thread (a no-op when it already is).
    func makeCurrent() throws {
        if eglGetCurrentContext() == context { return }
        guard eglMakeCurrent(display, nil, nil, context) == EGLBoolean(EGL_TRUE) else {
            throw EGLErrorName.failure("eglMakeCurrent", "is the renderer used on two threads at once?")
        }
    }

    /// Unbinds the context from the calling thread, so another thread may take it.
    func releaseCurrent() {
        if eglGetCurrentContext() == context { eglMakeCurrent(display, nil, nil, nil) }
    }

    /// Throws with the GL error names when the error flag is set: `"upload atlas: GL_OUT_OF_MEMORY"`.
    func check(_ what: @autoclosure () -> String) throws {
        var names: [String] = []
        var err = glGetError()
        while err != GLenum(GL_NO_ERROR) && names.count < 8 {
            names.append(GLErrorName.name(err))
            err = glGetError()
        }
        if !names.isEmpty { throw RenderError.gpu("\(what()): \(names.joined(separator: ", "))") }
    }

    func has(_ ext: String) -> Bool { extensions.contains(ext) }
}
