// Compiling the programs of `Sources/Shaders/programs`.
//
// Each file holds both stages (see `ShaderLibrary`); the text before the first `#pragma stage` line is the
// prologue shared by both. Every compile and link is checked, and any info-log text at all, a warning as
// much as an error, fails: a warning on one driver is often an error on the next.

import CGLES
import Foundation
import Shaders

/// The two stages of one program file, each a complete GLSL ES source.
struct ShaderSource: Equatable {
    var vertex: String
    var fragment: String

    /// Splits a program file: `#version 300 es\n…\n#pragma stage vertex\n…\n#pragma stage fragment\n…`.
    ///
    /// Stage lines are replaced by `#line` directives so that the driver's messages name lines of the file.
    static func parse(_ text: String, name: String) throws -> ShaderSource {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var prologue: [Substring] = []
        var stages: [String: [String]] = [:]
        var current: String?
        for (i, line) in lines.enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#pragma stage ") {
                let stage = String(trimmed.dropFirst("#pragma stage ".count))
                guard stage == "vertex" || stage == "fragment" else {
                    throw RenderError.gpu("shader \(name).glsl line \(i + 1): unknown stage \"\(stage)\"")
                }
                guard stages[stage] == nil else {
                    throw RenderError.gpu("shader \(name).glsl line \(i + 1): stage \(stage) appears twice")
                }
                current = stage
                stages[stage] = ["#line \(i + 2)"]
            } else if let c = current {
                stages[c]!.append(String(line))
            } else {
                prologue.append(line)
            }
        }
        guard let v = stages["vertex"], let f = stages["fragment"] else {
            throw RenderError.gpu("shader \(name).glsl needs both `#pragma stage vertex` and `#pragma stage fragment`")
        }
        let head = prologue.joined(separator: "\n")
        return ShaderSource(vertex: head + "\n" + v.joined(separator: "\n"),
                            fragment: head + "\n" + f.joined(separator: "\n"))
    }
}

/// A linked program with the uniform locations the backend sets.
struct GLProgram {
    let id: GLuint
    let name: String
    let targetSize: GLint
    let atlas: GLint
    /// -1 when the program does not use it.
    let atlasSize: GLint

    /// Compiles and links `name` from the shader library on the current context.
    static func build(named name: String) throws -> GLProgram {
        guard let text = ShaderLibrary.source(named: name) else {
            throw RenderError.gpu("shader program \(name).glsl is missing from the Shaders bundle")
        }
        return try build(text: text, name: name)
    }

    /// Compiles and links the program file text `text` (named `name` in messages).
    static func build(text: String, name: String) throws -> GLProgram {
        let src = try ShaderSource.parse(text, name: name)
        let vs = try compile(GLenum(GL_VERTEX_SHADER), src.vertex, "\(name).glsl (vertex)")
        defer { glDeleteShader(vs) }
        let fs = try compile(GLenum(GL_FRAGMENT_SHADER), src.fragment, "\(name).glsl (fragment)")
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        guard program != 0 else { throw RenderError.gpu("glCreateProgram failed for \(name): \(GLErrorName.name(glGetError()))") }
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        glLinkProgram(program)
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        let log = infoLog(program, program: true)
        if status != GL_TRUE || !log.isEmpty {
            glDeleteProgram(program)
            throw RenderError.gpu("linking \(name).glsl \(status == GL_TRUE ? "gave warnings" : "failed"): \(log)")
        }
        glDetachShader(program, vs)
        glDetachShader(program, fs)
        return GLProgram(id: program, name: name,
                         targetSize: glGetUniformLocation(program, "u_targetSize"),
                         atlas: glGetUniformLocation(program, "u_atlas"),
                         atlasSize: glGetUniformLocation(program, "u_atlasSize"))
    }

    private static func compile(_ type: GLenum, _ source: String, _ what: String) throws -> GLuint {
        let shader = glCreateShader(type)
        guard shader != 0 else { throw RenderError.gpu("glCreateShader failed for \(what): \(GLErrorName.name(glGetError()))") }
        source.withCString { p in
            var ptr: UnsafePointer<GLchar>? = p
            glShaderSource(shader, 1, &ptr, nil)
        }
        glCompileShader(shader)
        var status: GLint = 0
        glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &status)
        let log = infoLog(shader, program: false)
        if status != GL_TRUE || !log.isEmpty {
            glDeleteShader(shader)
            throw RenderError.gpu("compiling \(what) \(status == GL_TRUE ? "gave warnings" : "failed"): \(log)")
        }
        return shader
    }

    /// The info log, trimmed; empty when the driver said nothing.
    private static func infoLog(_ object: GLuint, program: Bool) -> String {
        var length: GLint = 0
        if program { glGetProgramiv(object, GLenum(GL_INFO_LOG_LENGTH), &length) } else {
            glGetShaderiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        }
        guard length > 1 else { return "" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        var written: GLsizei = 0
        if program { glGetProgramInfoLog(object, length, &written, &buffer) } else {
            glGetShaderInfoLog(object, length, &written, &buffer)
        }
        let bytes = buffer.prefix(Int(written)).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
