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
    ///
    /// A line `#include "blend.glsl"` is replaced by that file's text from `include` (by default the
    /// Shaders bundle's `programs/include/`), bracketed by `#line` directives: line L of the K-th distinct
    /// file the program includes (in order of first appearance, K = 1 for the first) is numbered
    /// K·10000 + L in source string K, and the lines after the include get their own numbers back in source
    /// string 0. The line number alone decodes the file, because Mesa prints source string 0 whatever `#line`
    /// says: a message `0:10039(66): error: …` (or `1:10039(66)` from a driver that keeps the string number)
    /// is line 39 of the first include; `0:9(3)` is line 9 of the program file. Includes may nest; a file
    /// included a second time in one stage (the prologue counts for both) is left out, a file of 10000 lines or
    /// more cannot take part, and a cycle or an unknown name is a `RenderError.gpu` naming it.
    ///
    /// `#version 300 es\n#include "b.glsl"\n#pragma stage vertex\n…` with b.glsl = `float f();` gives a vertex
    /// stage `#version 300 es\n#line 10001 1\nfloat f();\n#line 3 0\n#line 4\n…`.
    static func parse(_ text: String, name: String,
                      include: (String) -> String? = ShaderLibrary.includeSource(named:)) throws -> ShaderSource {
        let lineBase = 10000  // line L of include K is numbered K·lineBase + L
        var stringNumbers: [String: Int] = [:]

        /// The name in `#include "name"`, nil for any other line.
        func includeName(_ trimmed: String, at context: String) throws -> String? {
            guard trimmed.hasPrefix("#include") else { return nil }
            let rest = trimmed.dropFirst("#include".count).trimmingCharacters(in: .whitespaces)
            guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\""),
                  !rest.dropFirst().dropLast().contains("\"") else {
                throw RenderError.gpu("shader \(context): malformed include `\(trimmed)`, expected #include \"name.glsl\"")
            }
            return String(rest.dropFirst().dropLast())
        }

        /// The lines that replace `#include "file"` on line `lineIndex` (0-based) of source string `parent`.
        func expand(_ file: String, lineIndex: Int, parent: Int, context: String, stack: [String],
                    seen: inout Set<String>) throws -> [String] {
            guard !stack.contains(file) else {
                throw RenderError.gpu("shader \(context): include cycle \((stack + [file]).joined(separator: " → "))")
            }
            guard let body = include(file) else {
                throw RenderError.gpu("shader \(context): unknown include \"\(file)\"")
            }
            if seen.contains(file) { return [""] }  // keeps the line count; already in this stage
            seen.insert(file)
            let number = stringNumbers[file] ?? (stringNumbers.count + 1)
            stringNumbers[file] = number
            var lines = body.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.last == "" { lines.removeLast() }
            guard lines.count < lineBase else {
                throw RenderError.gpu("shader \(context): include \(file) has \(lines.count) lines, more than \(lineBase - 1)")
            }
            var out = ["#line \(number * lineBase + 1) \(number)"]
            for (j, line) in lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                let here = "\(name).glsl, include \(file) line \(j + 1)"
                if trimmed.hasPrefix("#pragma stage ") {
                    throw RenderError.gpu("shader \(here): an include cannot start a stage")
                }
                if let nested = try includeName(trimmed, at: here) {
                    out += try expand(nested, lineIndex: j, parent: number, context: here, stack: stack + [file],
                                      seen: &seen)
                } else {
                    out.append(String(line))
                }
            }
            out.append("#line \(parent * lineBase + lineIndex + 2) \(parent)")
            return out
        }

        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var prologue: [String] = []
        var prologueSeen = Set<String>()
        var stages: [String: [String]] = [:]
        var stageSeen: [String: Set<String>] = [:]
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
                stageSeen[stage] = prologueSeen
            } else if let file = try includeName(trimmed, at: "\(name).glsl line \(i + 1)") {
                let here = "\(name).glsl line \(i + 1)"
                if let c = current {
                    stages[c]! += try expand(file, lineIndex: i, parent: 0, context: here, stack: [],
                                             seen: &stageSeen[c]!)
                } else {
                    prologue += try expand(file, lineIndex: i, parent: 0, context: here, stack: [], seen: &prologueSeen)
                }
            } else if let c = current {
                stages[c]!.append(String(line))
            } else {
                prologue.append(String(line))
            }
        }
        guard stringNumbers.isEmpty || lines.count < lineBase else {
            throw RenderError.gpu("shader \(name).glsl has \(lines.count) lines, too many to include files")
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
///
/// The program's GLSL is where its uniforms are declared: after linking, every active uniform's location is
/// read into `uniforms`, and samplers are bound once to their units by name (`samplerUnits`).
struct GLProgram {
    let id: GLuint
    let name: String
    let targetSize: GLint
    let atlas: GLint
    /// -1 when the program does not use it.
    let atlasSize: GLint
    /// Every active uniform's location by name.
    let uniforms: [String: GLint]

    /// The texture unit of each sampler name, the same in every program.
    static let samplerUnits: [String: GLint] = [
        "u_atlas": 0, "u_paintData": 1, "u_clipMask": 2, "u_source": 3, "u_destination": 4, "u_image": 5, "u_source2": 6,
    ]

    /// The location of `name`, -1 when the program does not use it.
    func uniform(_ name: String) -> GLint { uniforms[name] ?? -1 }

    /// Compiles and links `name` from the shader library on the current context.
    static func build(named name: String, defines: [(String, Int)] = [], cache: ProgramCache? = nil) throws -> GLProgram {
        guard let text = ShaderLibrary.source(named: name) else {
            throw RenderError.gpu("shader program \(name).glsl is missing from the Shaders bundle")
        }
        return try build(text: text, name: name, defines: defines, cache: cache)
    }

    /// Compiles and links the program file text `text` (named `name` in messages). `defines` become
    /// `#define NAME value` lines right after `#version` in both stages (a program's specialisations).
    /// With a `cache` whose driver offers program binaries, the program is loaded from its entry when one
    /// is there and sound, else built from source and stored (`ProgramCache`).
    static func build(text: String, name: String, defines: [(String, Int)] = [], cache: ProgramCache? = nil) throws -> GLProgram {
        var src = try ShaderSource.parse(text, name: name)
        if !defines.isEmpty {
            let lines = defines.map { "#define \($0.0) \($0.1)" }.joined(separator: "\n")
            func inject(_ stage: String) -> String {
                guard let end = stage.firstIndex(of: "\n") else { return stage + "\n" + lines }
                // `#line 2` keeps the driver's line numbers those of the file.
                return String(stage[..<end]) + "\n" + lines + "\n#line 2" + String(stage[end...])
            }
            src.vertex = inject(src.vertex)
            src.fragment = inject(src.fragment)
        }
        let device = cache?.currentDevice()
        let key = device.map { ProgramCache.key(device: $0, vertex: src.vertex, fragment: src.fragment) }
        let program: GLuint
        if let cache, let device, let key, let loaded = cache.load(key: key, format: device.format) {
            program = loaded
        } else {
            let start = DispatchTime.now().uptimeNanoseconds
            program = try link(src, name: name, retrievable: key != nil)
            if let cache, let device, let key {
                cache.countMiss(buildSeconds: ProgramCache.seconds(since: start))
                cache.store(program: program, key: key, format: device.format)
            }
        }
        return readUniforms(program, name: name)
    }

    /// Compiles both stages and links them; `retrievable` asks the driver to keep the binary retrievable.
    private static func link(_ src: ShaderSource, name: String, retrievable: Bool) throws -> GLuint {
        let vs = try compile(GLenum(GL_VERTEX_SHADER), src.vertex, "\(name).glsl (vertex)")
        defer { glDeleteShader(vs) }
        let fs = try compile(GLenum(GL_FRAGMENT_SHADER), src.fragment, "\(name).glsl (fragment)")
        defer { glDeleteShader(fs) }
        let program = glCreateProgram()
        guard program != 0 else { throw RenderError.gpu("glCreateProgram failed for \(name): \(GLErrorName.name(glGetError()))") }
        glAttachShader(program, vs)
        glAttachShader(program, fs)
        if retrievable { glProgramParameteri(program, GLenum(GL_PROGRAM_BINARY_RETRIEVABLE_HINT), GL_TRUE) }
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
        return program
    }

    /// The linked `program` with its uniforms read and its samplers bound to their units.
    private static func readUniforms(_ program: GLuint, name: String) -> GLProgram {
        var count: GLint = 0
        glGetProgramiv(program, GLenum(GL_ACTIVE_UNIFORMS), &count)
        var uniforms: [String: GLint] = [:]
        var nameBuffer = [GLchar](repeating: 0, count: 256)
        for i in 0 ..< GLuint(max(0, count)) {
            var length: GLsizei = 0, size: GLint = 0, type: GLenum = 0
            glGetActiveUniform(program, i, 256, &length, &size, &type, &nameBuffer)
            let uniformName = String(decoding: nameBuffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            uniforms[uniformName] = glGetUniformLocation(program, uniformName)
        }
        // Samplers keep their units for the program's life.
        glUseProgram(program)
        for (sampler, unit) in samplerUnits {
            if let location = uniforms[sampler] { glUniform1i(location, unit) }
        }
        glUseProgram(0)
        return GLProgram(id: program, name: name,
                         targetSize: glGetUniformLocation(program, "u_targetSize"),
                         atlas: glGetUniformLocation(program, "u_atlas"),
                         atlasSize: glGetUniformLocation(program, "u_atlasSize"), uniforms: uniforms)
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
