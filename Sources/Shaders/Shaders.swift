import Foundation

/// The GLSL ES programs in `programs/`, one file per program. Each file holds both stages, introduced by
/// the lines `#pragma stage vertex` and `#pragma stage fragment`; the text before the first stage line
/// (the `#version` line and shared declarations) is prepended to both. Shared functions live in
/// `programs/include/` and are pulled in with `#include "name.glsl"` (see `ShaderSource.parse`).
///
/// A file is read when a program that uses it is first built, and once per process: its text is kept, so the
/// many variants of a program (and the programs sharing an include) do not read the bundle again. Thread-safe.
public enum ShaderLibrary {
    /// The bundle's `programs` folder, looked up once.
    private static let programsFolder: URL? = Bundle.module.url(forResource: "programs", withExtension: nil)

    private static let lock = NSLock()
    /// File texts by path inside `programs/` ("blend.glsl" is "include/blend.glsl"); nil: no such file. Guarded by `lock`.
    nonisolated(unsafe) private static var texts: [String: String?] = [:]
    nonisolated(unsafe) private static var reads = 0

    /// How many of the bundle's files this process has read: each once at most.
    package static var fileReads: Int { lock.withLock { reads } }

    /// The text of `programs/<relativePath>`, read on the first call and kept.
    private static func text(_ relativePath: String) -> String? {
        lock.withLock {
            if let known = texts[relativePath] { return known }
            var text: String?
            if let folder = programsFolder {
                text = try? String(contentsOf: folder.appendingPathComponent(relativePath), encoding: .utf8)
                if text != nil { reads += 1 }  // files read; a name with no file (an unknown include) is not one
            }
            texts[relativePath] = .some(text)
            return text
        }
    }

    /// The names of all programs (file names without `.glsl`), sorted.
    public static var programNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: programsFolder?.path ?? "")) ?? []
        return files.filter { $0.hasSuffix(".glsl") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The raw text of one program file, or nil when there is none by that name.
    public static func source(named name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return text(name + ".glsl")
    }

    /// The file names (with `.glsl`) of the snippets in `programs/include/`, sorted: plain GLSL functions
    /// with no `#version` and no stages, pulled into a program by a line `#include "blend.glsl"`.
    public static var includeNames: [String] {
        let dir = programsFolder?.appendingPathComponent("include")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir?.path ?? "")) ?? []
        return files.filter { $0.hasSuffix(".glsl") }.sorted()
    }

    /// The text of one include file, `includeSource(named: "blend.glsl")`; nil when there is none by that name
    /// or the name is not a plain file name (a `/` or a leading `.`), so an include cannot leave the folder.
    public static func includeSource(named name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else { return nil }
        return text("include/" + name)
    }
}
