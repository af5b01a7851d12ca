// What SwiftUI's font names resolve to on this machine, for `canvas-gl info --fonts`.

import Foundation

/// The faces this machine's fontconfig and the engine's alias table choose for SwiftUI's font names, and the
/// faces characters of other scripts fall back to.
///
/// ```
/// Font.system(size: 17) → Inter Regular (/usr/share/fonts/opentype/inter/Inter-Regular.otf)
/// Font.custom("Arial", size: 17) → Liberation Sans Regular (/usr/share/fonts/truetype/liberation2/…)
/// "мир" (Cyrillic) → Inter Regular (…)
/// ```
public enum FontMatchingReport {
    /// One line per name, then one per script sample.
    public static func lines() -> [String] {
        let engine = TextEngine.shared
        var out: [String] = []
        func face(_ r: FontRequest) -> String {
            do { return "\(try engine.primaryFace(r))" } catch { return "\(error)" }
        }
        let designs: [(String, Font.Design)] = [("default", .default), ("serif", .serif), ("rounded", .rounded),
                                                 ("monospaced", .monospaced)]
        for (name, design) in designs {
            out.append("Font.system(size: 17, design: .\(name)) → \(face(FontRequest(size: 17, design: design)))")
        }
        out.append("Font.system(size: 17, weight: .bold) → \(face(FontRequest(size: 17, weight: 700)))")
        out.append("Font.system(size: 17).italic() → \(face(FontRequest(size: 17, italic: true)))")
        for family in ["SF Pro", "Helvetica", "Helvetica Neue", "Arial", "Arial Rounded MT Bold", "Times New Roman",
                       "Georgia", "Courier New", "Menlo", "DejaVu Sans", "Noto Sans", "No Such Font"] {
            out.append("Font.custom(\"\(family)\", size: 17) → \(face(FontRequest(family: family, size: 17)))")
        }
        let system = FontRequest(size: 17)
        let samples: [(String, String, Bool)] = [("мир", "Cyrillic", false), ("Γειά", "Greek", false),
                                                 ("مرحبا", "Arabic", false), ("שלום", "Hebrew", false),
                                                 ("नमस्ते", "Devanagari", false), ("你好", "CJK", false),
                                                 ("😀", "emoji", true)]
        for (text, script, color) in samples {
            let scalar = text.unicodeScalars.first!.value
            let chosen: String
            if let primary = try? engine.primaryFace(system), primary.glyph(for: scalar) != nil {
                chosen = "\(primary)"
            } else if let f = engine.fallbackFace(for: scalar, request: system.faceKey, color: color) {
                chosen = "\(f)"
            } else {
                chosen = "no installed face has it (drawn as nothing)"
            }
            out.append("\"\(text)\" (\(script)) → \(chosen)")
        }
        return out
    }
}
