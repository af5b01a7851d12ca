// Font matching with fontconfig: a request's family, weight, slant and design → the primary font file, plus
// fontconfig's sorted list of every installed face for the same pattern (the per-character fallback list).
//
// Each costly step runs once and only when asked for: fontconfig's configuration and font caches (FcInit, about
// 5 ms, most of what a first text frame pays outside shaping) on the first match, not when an engine is made, so
// a process that draws only system images (whose icon font is a file, no match) never loads them; a request's
// sorted fallback list (FcFontSort over every installed face) on its first character the primary face lacks,
// not with the primary match, so text its primary face covers never sorts.
import CText
import Foundation

/// A face fontconfig proposed, not yet opened: where it is and which characters it covers.
package struct FontCandidate: @unchecked Sendable {
    package var path: String
    package var index: Int
    package var family: String
    /// FcCharSet *, owned by the fontconfig pattern set the matcher keeps alive for the process's life.
    package var charset: OpaquePointer?
    /// fontconfig's FC_COLOR: colour glyphs (Noto Color Emoji), preferred for emoji-presentation characters.
    package var isColor: Bool

    package func covers(_ scalar: UInt32) -> Bool {
        guard let charset else { return false }
        return FcCharSetHasChar(charset, scalar) != 0
    }
}

/// What fontconfig made of one `FontFaceKey`: the primary face (its fallback list is `FontMatcher.fallbacks`).
package struct FontMatch: @unchecked Sendable {
    /// The family name fontconfig was asked for, after our alias table ("Inter" for the system font).
    package var requestedFamily: String?
    package var primary: FontCandidate
}

/// fontconfig behind a lock (FcFontMatch and FcFontSort read shared config caches), with SwiftUI's names mapped
/// onto the families Debian installs here.
///
/// The system font (`family == nil`), by design, and Apple's family names:
///
/// | design / name                                        | asks fontconfig for | why                                            |
/// |------------------------------------------------------|---------------------|------------------------------------------------|
/// | `.default`, "SF Pro", "SF Pro Text/Display", "system-ui", ".AppleSystemUIFont" | Inter | fonts-inter: a neo-grotesque with SF Pro's proportions |
/// | `.serif`, "New York"                                 | Liberation Serif    | fonts-liberation2 (Times metrics)               |
/// | `.monospaced`, "SF Mono", "Menlo"                    | DejaVu Sans Mono    | Menlo is derived from Bitstream Vera / DejaVu Sans Mono |
/// | `.rounded`, "SF Pro Rounded"                         | the first installed of `roundedFamilies`, else Inter | Debian's core fonts have no rounded face |
///
/// Any other name goes to fontconfig as written; a name that is not installed gets fontconfig's best substitute
/// (with fonts-liberation2: Arial/Helvetica → Liberation Sans, Times → Liberation Serif, Courier → Liberation
/// Mono, fontconfig's metric aliases; anything else → its default sans, Noto Sans here).
package final class FontMatcher: @unchecked Sendable {
    package static let systemFamily = "Inter"
    package static let serifFamily = "Liberation Serif"
    package static let monospacedFamily = "DejaVu Sans Mono"
    /// Rounded families as Debian packages name them, best first (fonts-nunito, fonts-comfortaa, fonts-quicksand,
    /// fonts-mplus); none is installed by scripts/install-deps.sh, so `.rounded` is Inter unless one is.
    package static let roundedFamilies = ["Nunito", "Varela Round", "M PLUS Rounded 1c", "Comfortaa", "Quicksand"]

    private let lock = NSLock()
    private var matches: [FontFaceKey: FontMatch] = [:]
    private var fallbackLists: [FontFaceKey: [FontCandidate]] = [:]
    private lazy var roundedFamily: String = {
        Self.roundedFamilies.first { name in
            matchPrimary(family: name, weight: 400, italic: false).map { $0.family == name } ?? false
        } ?? Self.systemFamily
    }()

    package init() {}

    /// fontconfig's configuration and font caches, loaded once in the process (a static's one-time
    /// initialisation) by the first matcher that matches.
    private static let config: Bool = {
        ResourceLoads.note(\.fontconfigLoads)
        return FcInit() != 0
    }()

    private func loadConfig() { _ = Self.config }

    /// The family fontconfig is asked for: our alias table for the system font and Apple's names, else `family`.
    private func familyToAsk(_ key: FontFaceKey) -> String {
        switch key.family?.trimmingCharacters(in: .whitespaces).lowercased() {
        case nil, "":
            switch key.design {
            case .default: return Self.systemFamily
            case .serif: return Self.serifFamily
            case .monospaced: return Self.monospacedFamily
            case .rounded: return roundedFamily
            }
        case "sf pro", "sf pro text", "sf pro display", "system-ui", ".applesystemuifont", "san francisco":
            return Self.systemFamily
        case "new york": return Self.serifFamily
        case "sf mono", "menlo": return Self.monospacedFamily
        case "sf pro rounded": return roundedFamily
        default: return key.family!
        }
    }

    /// The family fontconfig is asked for under `key`: a `key.file` asks for the system font's (its fallbacks).
    private func familyAsked(_ key: FontFaceKey) -> String {
        var askKey = key
        if key.file != nil { askKey.family = nil; askKey.design = .default }
        return familyToAsk(askKey)
    }

    /// The match for `key` (cached). A `key.file` is the primary as given, without asking fontconfig.
    package func match(_ key: FontFaceKey) -> FontMatch? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = matches[key] { return cached }
        if let file = key.file {
            let result = FontMatch(requestedFamily: nil,
                                   primary: FontCandidate(path: file, index: 0, family: "", charset: nil, isColor: false))
            matches[key] = result
            return result
        }
        loadConfig()
        let family = familyAsked(key)
        guard let primary = matchPrimary(family: family, weight: key.weight, italic: key.italic) else { return nil }
        let result = FontMatch(requestedFamily: family, primary: primary)
        matches[key] = result
        return result
    }

    /// FcFontSort's list for `key`'s pattern (the system font's for a `key.file`), best first (trimmed: faces
    /// adding no new characters are left out); sorted on the first call for the key, empty when fontconfig has none.
    package func fallbacks(_ key: FontFaceKey) -> [FontCandidate] {
        lock.lock()
        defer { lock.unlock() }
        if let cached = fallbackLists[key] { return cached }
        loadConfig()
        var list: [FontCandidate] = []
        if let pattern = makePattern(family: familyAsked(key), weight: key.weight, italic: key.italic) {
            defer { FcPatternDestroy(pattern) }
            var result = FcResultNoMatch
            // The set is never destroyed: the candidates point at its charsets.
            if let set = FcFontSort(nil, pattern, FcTrue, nil, &result) {
                ResourceLoads.note(\.fontSorts)
                for i in 0..<Int(set.pointee.nfont) {
                    if let p = set.pointee.fonts[i], let c = candidate(p) { list.append(c) }
                }
            }
        }
        fallbackLists[key] = list
        return list
    }

    /// FcFontMatch for one pattern. Caller holds `lock` (or is the lazy rounded lookup, which runs inside `match`).
    private func matchPrimary(family: String, weight: Double, italic: Bool) -> FontCandidate? {
        loadConfig()
        guard let pattern = makePattern(family: family, weight: weight, italic: italic) else { return nil }
        defer { FcPatternDestroy(pattern) }
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        guard var primary = candidate(matched) else { return nil }
        primary.charset = nil   // the matched pattern is destroyed on return
        return primary
    }

    /// The pattern fontconfig matches and sorts for: family, weight, slant, with the configuration's
    /// substitutions and defaults applied. The caller destroys it.
    private func makePattern(family: String, weight: Double, italic: Bool) -> OpaquePointer? {
        guard let pattern = FcPatternCreate() else { return nil }
        family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                _ = FcPatternAddString(pattern, FC_FAMILY, $0)
            }
        }
        let clampedWeight = min(max(weight, 1), 1000)
        _ = FcPatternAddDouble(pattern, FC_WEIGHT, FcWeightFromOpenTypeDouble(clampedWeight))
        _ = FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        _ = FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        return pattern
    }

    private func candidate(_ pattern: OpaquePointer) -> FontCandidate? {
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(pattern, FC_INDEX, 0, &index)
        var family: UnsafeMutablePointer<FcChar8>?
        _ = FcPatternGetString(pattern, FC_FAMILY, 0, &family)
        var charset: OpaquePointer?
        _ = FcPatternGetCharSet(pattern, FC_CHARSET, 0, &charset)
        var color: FcBool = FcFalse
        _ = FcPatternGetBool(pattern, FC_COLOR, 0, &color)
        return FontCandidate(
            path: String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self)), index: Int(index),
            family: family.map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? "",
            charset: charset, isColor: color != FcFalse)
    }
}
