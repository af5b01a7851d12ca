// Font matching with fontconfig: a request's family, weight, slant and design → the primary font file, plus
// fontconfig's sorted list of every installed face for the same pattern (the per-character fallback list).
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

/// What fontconfig made of one `FontFaceKey`.
package struct FontMatch: @unchecked Sendable {
    /// The family name fontconfig was asked for, after our alias table ("Inter" for the system font).
    package var requestedFamily: String?
    package var primary: FontCandidate
    /// FcFontSort's list for the same pattern, best first (trimmed: faces adding no new characters are left out).
    package var fallbacks: [FontCandidate]
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
    private lazy var roundedFamily: String = {
        Self.roundedFamilies.first { name in
            matchPattern(family: name, weight: 400, italic: false).map { $0.0.family == name } ?? false
        } ?? Self.systemFamily
    }()

    package init() { FcInit() }

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

    /// The match for `key` (cached). A `key.file` is the primary as given; its fallbacks are the system font's.
    package func match(_ key: FontFaceKey) -> FontMatch? {
        lock.lock()
        defer { lock.unlock() }
        if let cached = matches[key] { return cached }
        var askKey = key
        if key.file != nil { askKey.family = nil; askKey.design = .default }
        let family = familyToAsk(askKey)
        guard let (primary, fallbacks) = matchPattern(family: family, weight: key.weight, italic: key.italic)
        else { return nil }
        var result = FontMatch(requestedFamily: family, primary: primary, fallbacks: fallbacks)
        if let file = key.file {
            result.requestedFamily = nil
            result.primary = FontCandidate(path: file, index: 0, family: "", charset: nil, isColor: false)
        }
        matches[key] = result
        return result
    }

    /// FcFontMatch and FcFontSort for one pattern. Caller holds `lock` (or is the lazy rounded lookup, which
    /// runs inside `match`).
    private func matchPattern(family: String, weight: Double, italic: Bool) -> (FontCandidate, [FontCandidate])? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
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
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        defer { FcPatternDestroy(matched) }
        guard var primary = candidate(matched) else { return nil }
        primary.charset = nil   // the matched pattern is destroyed below; the sorted set holds the same face's
        var fallbacks: [FontCandidate] = []
        // The set is never destroyed: the candidates point at its charsets.
        if let set = FcFontSort(nil, pattern, FcTrue, nil, &result) {
            for i in 0..<Int(set.pointee.nfont) {
                if let p = set.pointee.fonts[i], let c = candidate(p) { fallbacks.append(c) }
            }
        }
        return (primary, fallbacks)
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
