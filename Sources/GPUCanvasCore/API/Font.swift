// SwiftUI's `Font`: a description of a typeface and size, resolved to a real font file only when text is laid
// out (`Text/`, through fontconfig).
//
// Sizes are iOS's (the defaults a phone shows at the "Large" Dynamic Type setting): largeTitle 34, title 28,
// title2 22, title3 20, headline 17 semibold, body 17, callout 16, subheadline 15, footnote 13, caption 12,
// caption2 11. `.system` fonts have no family name here: the text engine's alias table picks the face that
// stands in for San Francisco in each design (`Text/FontMatching` documents it).

/// A font as SwiftUI code spells it.
///
/// ```swift
/// Font.title.bold()                                  // 28 pt, weight 700, the system face
/// Font.custom("Arial Rounded MT Bold", size: 36)     // fontconfig's best match for the name, 36 pt
/// Font.system(size: 12, weight: .light, design: .monospaced)
/// ```
public struct Font: Hashable, Sendable, CustomStringConvertible {
    package enum Base: Hashable, Sendable {
        case system(size: CGFloat, design: Design?)
        case textStyle(TextStyle, design: Design?)
        case custom(name: String, size: CGFloat, relativeTo: TextStyle?)
        /// A font file named by path (a GPUCanvas extension for scene files and fonts shipped with a program).
        case file(path: String, size: CGFloat)
    }
    package var base: Base
    package var weight: Weight?
    package var isItalic = false
    package var isMonospaced = false
    package var isMonospacedDigit = false
    package var fontWidth: Width?
    package var leadingStyle: Leading?
    package var isSmallCaps = false

    package init(_ base: Base, weight: Weight? = nil) {
        self.base = base
        self.weight = weight
    }

    // MARK: Text styles (iOS sizes)

    public static let largeTitle = Font(.textStyle(.largeTitle, design: nil))
    public static let title = Font(.textStyle(.title, design: nil))
    public static let title2 = Font(.textStyle(.title2, design: nil))
    public static let title3 = Font(.textStyle(.title3, design: nil))
    public static let headline = Font(.textStyle(.headline, design: nil))
    public static let subheadline = Font(.textStyle(.subheadline, design: nil))
    public static let body = Font(.textStyle(.body, design: nil))
    public static let callout = Font(.textStyle(.callout, design: nil))
    public static let footnote = Font(.textStyle(.footnote, design: nil))
    public static let caption = Font(.textStyle(.caption, design: nil))
    public static let caption2 = Font(.textStyle(.caption2, design: nil))

    // MARK: Factories

    /// The system face at `size` points.
    public static func system(size: CGFloat, weight: Weight? = nil, design: Design? = nil) -> Font {
        Font(.system(size: size, design: design), weight: weight)
    }

    /// A text style's size in the system face, in `design`, at `weight`.
    public static func system(_ style: TextStyle, design: Design? = nil, weight: Weight? = nil) -> Font {
        Font(.textStyle(style, design: design), weight: weight)
    }

    /// The font family or face named `name` (fontconfig's best match when it is not installed) at `size`.
    public static func custom(_ name: String, size: CGFloat) -> Font {
        Font(.custom(name: name, size: size, relativeTo: nil))
    }

    /// As `custom(_:size:)`; `textStyle` would scale it with Dynamic Type, which is fixed at the default here.
    public static func custom(_ name: String, size: CGFloat, relativeTo textStyle: TextStyle) -> Font {
        Font(.custom(name: name, size: size, relativeTo: textStyle))
    }

    /// As `custom(_:size:)`, never scaled.
    public static func custom(_ name: String, fixedSize: CGFloat) -> Font {
        Font(.custom(name: name, size: fixedSize, relativeTo: nil))
    }

    /// The font in the file at `url` (TrueType, OpenType or a collection's first face) at `size` points. Not
    /// SwiftUI: the way to use a font that is not installed. A file that cannot be read is an `invalid font`
    /// error naming it when the text is rendered.
    public static func file(_ url: URL, size: CGFloat) -> Font {
        Font(.file(path: url.path, size: size))
    }

    // MARK: Modifiers

    public func bold() -> Font { weight(.bold) }
    public func italic() -> Font { var f = self; f.isItalic = true; return f }
    public func weight(_ weight: Weight) -> Font { var f = self; f.weight = weight; return f }
    public func width(_ width: Width) -> Font { var f = self; f.fontWidth = width; return f }
    /// The monospaced variant of the system face; a custom face has none and stays as it is (as in SwiftUI).
    public func monospaced() -> Font { var f = self; f.isMonospaced = true; return f }
    /// Digits of equal width (OpenType `tnum`).
    public func monospacedDigit() -> Font { var f = self; f.isMonospacedDigit = true; return f }
    /// Recorded; small capitals are not drawn yet (the faces used have no `smcp` feature to rely on).
    public func smallCaps() -> Font { var f = self; f.isSmallCaps = true; return f }
    /// Recorded; line spacing follows the face's own metrics.
    public func leading(_ leading: Leading) -> Font { var f = self; f.leadingStyle = leading; return f }

    // MARK: Nested types

    /// A font weight: `Font.Weight.semibold` is 600 on OpenType's 100…900 scale.
    public struct Weight: Hashable, Sendable {
        /// OpenType's `usWeightClass` value.
        package let value: Double
        public static let ultraLight = Weight(value: 100)
        public static let thin = Weight(value: 200)
        public static let light = Weight(value: 300)
        public static let regular = Weight(value: 400)
        public static let medium = Weight(value: 500)
        public static let semibold = Weight(value: 600)
        public static let bold = Weight(value: 700)
        public static let heavy = Weight(value: 800)
        public static let black = Weight(value: 900)

        package init(value: Double) { self.value = value }
    }

    public enum Design: Hashable, Sendable {
        case `default`, serif, rounded, monospaced
    }

    public enum TextStyle: Hashable, Sendable, CaseIterable {
        case largeTitle, title, title2, title3, headline, subheadline, body, callout, footnote, caption, caption2

        /// iOS's point size at the default Dynamic Type setting.
        package var pointSize: CGFloat {
            switch self {
            case .largeTitle: return 34
            case .title: return 28
            case .title2: return 22
            case .title3: return 20
            case .headline, .body: return 17
            case .callout: return 16
            case .subheadline: return 15
            case .footnote: return 13
            case .caption: return 12
            case .caption2: return 11
            }
        }

        /// The style's own weight: headline is semibold, the others regular.
        package var defaultWeight: Weight { self == .headline ? .semibold : .regular }
    }

    public enum Leading: Hashable, Sendable { case standard, tight, loose }

    public struct Width: Hashable, Sendable {
        public var value: CGFloat
        public init(_ value: CGFloat) { self.value = value }
        public static let compressed = Width(-0.3)
        public static let condensed = Width(-0.2)
        public static let standard = Width(0)
        public static let expanded = Width(0.2)
    }

    // MARK: Resolution

    /// The size in points.
    package var pointSize: CGFloat {
        switch base {
        case .system(let size, _), .custom(_, let size, _), .file(_, let size): return size
        case .textStyle(let style, _): return style.pointSize
        }
    }

    public var description: String {
        var s: String
        switch base {
        case .system(let size, let design): s = "system(size: \(fmt(size))" + (design.map { ", design: .\($0)" } ?? "") + ")"
        case .textStyle(let style, let design): s = ".\(style)" + (design.map { "(design: .\($0))" } ?? "")
        case .custom(let name, let size, _): s = "custom(\"\(name)\", size: \(fmt(size)))"
        case .file(let path, let size): s = "file(\"\(path)\", size: \(fmt(size)))"
        }
        if let weight { s += ".weight(\(fmt(weight.value)))" }
        if isItalic { s += ".italic()" }
        if isMonospaced { s += ".monospaced()" }
        if isMonospacedDigit { s += ".monospacedDigit()" }
        return s
    }
}
