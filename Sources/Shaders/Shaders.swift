import Foundation

/// The GLSL ES programs in `programs/`, one file per program. Each file holds both stages, introduced by
/// the lines `#pragma stage vertex` and `#pragma stage fragment`; the text before the first stage line
/// (the `#version` line and shared declarations) is prepended to both. Shared functions live in
/// `programs/include/` and are pulled in with `#include "name.glsl"` (see `ShaderSource.parse`).
public enum ShaderLibrary {
    /// The names of all programs (file names without `.glsl`), sorted.
    public static var programNames: [String] {
        let dir = Bundle.module.url(forResource: "programs", withExtension: nil)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir?.path ?? "")) ?? []
        return files.filter { $0.hasSuffix(".glsl") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The raw text of one program file, or nil when there is none by that name.
    public static func source(named name: String) -> String? {
        guard let dir = Bundle.module.url(forResource: "programs", withExtension: nil) else { return nil }
        return try? String(contentsOf: dir.appendingPathComponent(name + ".glsl"), encoding: .utf8)
    }

    /// The file names (with `.glsl`) of the snippets in `programs/include/`, sorted: plain GLSL functions
    /// with no `#version` and no stages, pulled into a program by a line `#include "blend.glsl"`.
    public static var includeNames: [String] {
        let dir = Bundle.module.url(forResource: "programs", withExtension: nil)?.appendingPathComponent("include")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dir?.path ?? "")) ?? []
        return files.filter { $0.hasSuffix(".glsl") }.sorted()
    }

    /// The text of one include file, `includeSource(named: "blend.glsl")`; nil when there is none by that name
    /// or the name is not a plain file name (a `/` or a leading `.`), so an include cannot leave the folder.
    public static func includeSource(named name: String) -> String? {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
              let dir = Bundle.module.url(forResource: "programs", withExtension: nil) else { return nil }
        return try? String(contentsOf: dir.appendingPathComponent("include").appendingPathComponent(name),
                           encoding: .utf8)
    }
}
