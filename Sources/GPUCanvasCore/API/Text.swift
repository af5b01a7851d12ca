// SwiftUI's `Text` as a canvas draws it: runs of characters with their attributes, resolved against a
// context into `ResolvedText`, laid out by the text engine (`Text/`: fontconfig, FreeType, HarfBuzz, UAX #14
// line breaking) and recorded as glyphs in user space (`TextGeometry`).
//
// Attributes follow SwiftUI's rule for concatenated text: a modifier applied to `a + b` reaches every run
// that does not set that attribute itself, so `(Text("a").font(.title) + Text("b")).font(.body)` keeps "a"
// in the title font.

/// A string with attributes, drawn by `GraphicsContext.draw(_:at:anchor:)` and `draw(_:in:)`.
///
/// ```swift
/// let t = Text("Total: ").bold() + Text("42").foregroundColor(.red)
/// context.draw(t.font(.title), at: CGPoint(x: 100, y: 40))     // centred on (100, 40)
/// ```
public struct Text: Equatable, Sendable {
    /// A run of characters with the attributes set on it; nil means "inherit from outside" (an enclosing
    /// modifier, else the environment: `.body`, `.foreground`).
    package struct Run: Equatable, Sendable {
        package var string: String
        package var font: Font?
        package var weight: Font.Weight?
        package var design: Font.Design?
        package var italic = false
        package var monospaced = false
        package var monospacedDigit = false
        package var kerning: CGFloat?
        package var tracking: CGFloat?
        package var baselineOffset: CGFloat?
        package var underline: Bool?
        package var underlineColor: Color?
        package var strikethrough: Bool?
        package var strikethroughColor: Color?
        /// The run's own fill (`foregroundColor`, `foregroundStyle`); nil: `ResolvedText.shading`.
        package var foreground: GraphicsContext.Shading?
        /// `customAttribute(_:)` values, one per type (Text+Layout.swift).
        package var customAttributes = TextAttributeSet()
    }
    package var runs: [Run]

    /// The string as it is, never localized.
    public init(verbatim content: String) { runs = [Run(string: content)] }

    /// A string value (not a literal): shown as it is. Disfavoured, as in SwiftUI, so that a literal is a
    /// `LocalizedStringKey` (whose inline Markdown is applied).
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { runs = [Run(string: String(content))] }

    /// A literal (or interpolation): a localization key in SwiftUI; there are no string tables here, so the key
    /// is the text, with its inline Markdown applied as SwiftUI does (`Text("**bold**")`; Text+Markdown.swift).
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {
        runs = Text.markdownRuns(key.key)
    }

    /// The characters of every run, in order.
    package var string: String { runs.map(\.string).joined() }

    /// The two texts one after the other, each keeping its own attributes.
    public static func + (lhs: Text, rhs: Text) -> Text {
        var t = lhs
        t.runs += rhs.runs
        return t
    }

    /// Applies `change` to every run (a modifier whose attribute each run may already set).
    private func map(_ change: (inout Run) -> Void) -> Text {
        var t = self
        for i in t.runs.indices { change(&t.runs[i]) }
        return t
    }

    // MARK: Modifiers (each reaches the runs that do not set the attribute themselves)

    public func font(_ font: Font?) -> Text { map { if $0.font == nil { $0.font = font } } }
    public func fontWeight(_ weight: Font.Weight?) -> Text { map { if $0.weight == nil { $0.weight = weight } } }
    public func fontDesign(_ design: Font.Design?) -> Text { map { if $0.design == nil { $0.design = design } } }
    public func bold() -> Text { fontWeight(.bold) }
    public func bold(_ isActive: Bool) -> Text { isActive ? bold() : self }
    public func italic() -> Text { map { $0.italic = true } }
    public func italic(_ isActive: Bool) -> Text { isActive ? italic() : self }
    /// The monospaced variant of the system face (a custom face stays as it is, as in SwiftUI).
    public func monospaced(_ isActive: Bool = true) -> Text { isActive ? map { $0.monospaced = true } : self }
    /// Digits of equal width (OpenType `tnum`).
    public func monospacedDigit() -> Text { map { $0.monospacedDigit = true } }
    public func foregroundColor(_ color: Color?) -> Text {
        map { if $0.foreground == nil { $0.foreground = color.map { .color($0) } } }
    }
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> Text {
        map { if $0.foreground == nil { $0.foreground = style.shading } }
    }
    /// Extra space, in points, after each character (ligatures stay).
    public func kerning(_ kerning: CGFloat) -> Text { map { if $0.kerning == nil { $0.kerning = kerning } } }
    /// Extra space, in points, after each character, with ligatures turned off.
    public func tracking(_ tracking: CGFloat) -> Text { map { if $0.tracking == nil { $0.tracking = tracking } } }
    /// Raises (positive) or lowers the baseline by `offset` points.
    public func baselineOffset(_ offset: CGFloat) -> Text {
        map { if $0.baselineOffset == nil { $0.baselineOffset = offset } }
    }
    public func underline(_ isActive: Bool = true, color: Color? = nil) -> Text {
        map { if $0.underline == nil { $0.underline = isActive; $0.underlineColor = color } }
    }
    public func strikethrough(_ isActive: Bool = true, color: Color? = nil) -> Text {
        map { if $0.strikethrough == nil { $0.strikethrough = isActive; $0.strikethroughColor = color } }
    }
}

/// SwiftUI's localization key; here the key is the text (there are no string tables).
///
/// `Text("Score: \(points)")` builds the key "Score: 12" and shows it.
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    package let key: String
    public init(_ value: String) { key = value }
    public init(stringLiteral value: String) { key = value }
    public init(stringInterpolation: StringInterpolation) { key = stringInterpolation.text }

    public struct StringInterpolation: StringInterpolationProtocol {
        package var text = ""
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }
        public mutating func appendLiteral(_ literal: String) { text += literal }
        public mutating func appendInterpolation<T>(_ value: T) { text += "\(value)" }
    }
}

extension Text.Run {
    /// The engine's span for this run, with `defaultFont` where the run has none.
    ///
    /// `Text("a").bold()` with the default `.body` → 17 pt, weight 700, the system face.
    package func span(defaultFont: Font) -> TextSpan {
        let font = self.font ?? defaultFont
        var family: String?
        var file: String?
        var design: Font.Design?
        var styleWeight = Font.Weight.regular
        switch font.base {
        case .system(_, let d): design = d
        case .textStyle(let style, let d): design = d; styleWeight = style.defaultWeight
        case .custom(let name, _, _): family = name
        case .file(let path, _): file = path
        }
        design = self.design ?? design
        let isSystem = family == nil && file == nil
        if isSystem, monospaced || font.isMonospaced { design = .monospaced }
        let weight = (self.weight ?? font.weight ?? styleWeight).value
        let request = FontRequest(family: family, file: file, size: Double(font.pointSize), weight: weight,
                                  italic: italic || font.isItalic, design: design ?? .default,
                                  monospacedDigit: monospacedDigit || font.isMonospacedDigit)
        return TextSpan(string: string, font: request, kerning: Double(kerning ?? 0), tracking: Double(tracking ?? 0),
                        baselineOffset: Double(baselineOffset ?? 0), underline: underline ?? false,
                        strikethrough: strikethrough ?? false)
    }
}

extension GraphicsContext {
    /// Text bound to this context: its fonts resolved, ready to measure and draw.
    public struct ResolvedText {
        /// The fill of runs with no colour of their own; `.foreground` unless set.
        public var shading: Shading = .foreground
        package let text: Text
        package let spans: [TextSpan]
        package let layouts: TextLayoutCache

        package init(text: Text, defaultFont: Font) {
            self.text = text
            spans = text.runs.map { $0.span(defaultFont: defaultFont) }
            layouts = TextLayoutCache(spans: spans)
        }

        /// Text laid out already (the view layer's line limits, truncation, alignment): `spans` are `text`'s
        /// runs as drawn (one span per run), `layout` is drawn at every width.
        package init(text: Text, spans: [TextSpan], layout: TextLayout) {
            self.text = text
            self.spans = spans
            layouts = TextLayoutCache(spans: spans, fixed: layout)
        }

        /// The size the text takes when laid out in `size`: wrapped to `size.width` (unconstrained when
        /// infinite), as wide as its widest line and as tall as all its lines.
        ///
        /// "Hello World!" in 36 pt Liberation Sans (Arial's metrics) measures about 199 × 41 points.
        public func measure(in size: CGSize) -> CGSize {
            guard case .success(let layout) = layouts.layout(maxWidth: size.width) else { return .zero }
            return layout.size
        }

        /// From the top of the first line down to its baseline, laid out in `size`.
        public func firstBaseline(in size: CGSize) -> CGFloat {
            guard case .success(let layout) = layouts.layout(maxWidth: size.width) else { return 0 }
            return layout.firstBaseline
        }

        /// From the top of the first line down to the last line's baseline, laid out in `size`.
        public func lastBaseline(in size: CGSize) -> CGFloat {
            guard case .success(let layout) = layouts.layout(maxWidth: size.width) else { return 0 }
            return layout.lastBaseline
        }
    }

    /// Resolves `text` against this context's environment (its default font is `.body`).
    public func resolve(_ text: Text) -> ResolvedText {
        ResolvedText(text: text, defaultFont: environment.font)
    }

    /// Draws `text` wrapped to `rect`'s width from its top-leading corner. Lines below the rect's bottom are
    /// not drawn (the first line always is).
    public func draw(_ text: ResolvedText, in rect: CGRect) {
        recordText(text, placement: .in(rect))
    }

    /// Draws `text` on one line per paragraph, with `anchor` (a UnitPoint of its measured bounds) at `point`.
    public func draw(_ text: ResolvedText, at point: CGPoint, anchor: UnitPoint = .center) {
        recordText(text, placement: .at(point, anchor: anchor))
    }

    public func draw(_ text: Text, in rect: CGRect) { draw(resolve(text), in: rect) }

    public func draw(_ text: Text, at point: CGPoint, anchor: UnitPoint = .center) {
        draw(resolve(text), at: point, anchor: anchor)
    }

    /// Records one draw per distinct fill among the text's runs (and their decorations), each holding the
    /// glyphs it paints.
    private func recordText(_ text: ResolvedText, placement: TextPlacement) {
        let call = TextCall(text: text.text, shading: text.shading, placement: placement, defaultFont: environment.font)
        let maxWidth: CGFloat
        switch placement {
        case .at: maxWidth = .infinity
        case .in(let r): maxWidth = r.width
        }
        // A size that is not a number lays out as nothing; the lowering names it.
        if text.spans.contains(where: { !$0.font.size.isFinite }) {
            record(.text(TextGeometry(call: call, spans: text.spans, layout: .empty, origin: .zero, glyphs: [],
                                      decorations: [], part: 0, error: nil)), paint: .solid(.transparent))
            return
        }
        let layout: TextLayout
        switch text.layouts.layout(maxWidth: maxWidth) {
        case .failure(let error):
            // Reported when the frame is rendered, naming the draw and the file.
            record(.text(TextGeometry(call: call, spans: text.spans, layout: .empty, origin: .zero, glyphs: [],
                                      decorations: [], part: 0, error: error)), paint: .solid(.transparent))
            return
        case .success(var l):
            if case .in(let r) = placement { l = l.keepingLines(fittingHeight: r.height) }
            layout = l
        }
        let origin: CGPoint
        switch placement {
        case .at(let p, let anchor):
            origin = CGPoint(x: p.x - anchor.x * layout.size.width, y: p.y - anchor.y * layout.size.height)
        case .in(let r): origin = r.origin
        }
        recordGlyphs(call: call, spans: text.spans, runs: text.text.runs, shading: text.shading, layout: layout,
                     origin: origin, glyphs: layout.glyphs.indices, decorations: layout.decorations.indices)
    }

    /// Records `glyphs` and `decorations` (indices into `layout`'s) with the layout's top-left at `origin`: one
    /// draw per distinct fill (a run's own foreground, else `shading`), then one per colour glyph. What both
    /// `draw(Text)` and the `Text.Layout` draws record.
    package func recordGlyphs<G: Sequence<Int>, D: Sequence<Int>>(
        call: TextCall, spans: [TextSpan], runs: [Text.Run], shading: Shading, layout: TextLayout, origin: CGPoint,
        glyphs: G, decorations: D, quantized: Bool = true, isLayoutPart: Bool = false) {
        // Group glyphs and decorations by the shading that fills them, in order of first use.
        var groups: [(shading: Shading, glyphs: [Int], decorations: [Int])] = []
        func group(_ s: Shading) -> Int {
            if let i = groups.firstIndex(where: { $0.shading == s }) { return i }
            groups.append((s, [], []))
            return groups.count - 1
        }
        let spanShading = runs.map { $0.foreground ?? shading }
        // Colour glyphs (emoji) are drawn in their own colours, each filling its bitmap's rectangle with the
        // bitmap (`TextLowering`), after the glyphs filled with shadings.
        var colorGlyphs: [(index: Int, paint: Paint)] = []
        let engine = TextEngine.shared
        var lastFace: FontFace?
        for i in glyphs {
            let g = layout.glyphs[i]
            let face: FontFace
            if let f = lastFace, f.id == g.faceID { face = f } else { face = engine.face(id: g.faceID); lastFace = face }
            if face.hasColorBitmaps {
                guard let bitmap = face.colorBitmap(glyph: g.glyph) else { continue }
                let r = bitmap.rect(size: g.size, x: Double(origin.x) + g.x, y: Double(origin.y) + g.y)
                let w = CGFloat(bitmap.image.width), h = CGFloat(bitmap.image.height)
                let toUser = CGAffineTransform(a: r.width / w, b: 0, c: 0, d: r.height / h, tx: r.minX, ty: r.minY)
                colorGlyphs.append((i, .image(ImagePaint(image: Image(bitmap.image), imageToUser: toUser, tiled: false,
                                                         sourceRect: CGRect(x: 0, y: 0, width: w, height: h),
                                                         tint: nil))))
                continue
            }
            groups[group(spanShading[g.span])].glyphs.append(i)
        }
        for i in decorations {
            let d = layout.decorations[i]
            let run = runs[d.span]
            let isUnderline = d.kind == .underline
            let own = isUnderline ? run.underlineColor : run.strikethroughColor
            groups[group(own.map { .color($0) } ?? spanShading[d.span])].decorations.append(i)
        }
        let bounds = CGRect(origin: origin, size: layout.size)
        for (part, g) in groups.enumerated() {
            guard let paint = paint(for: g.shading, bounds: bounds) else { continue }
            record(.text(TextGeometry(call: call, spans: spans, layout: layout, origin: origin, glyphs: g.glyphs,
                                      decorations: g.decorations, part: part, error: nil, quantized: quantized,
                                      isLayoutPart: isLayoutPart)),
                   paint: paint)
        }
        for (k, c) in colorGlyphs.enumerated() {
            record(.text(TextGeometry(call: call, spans: spans, layout: layout, origin: origin, glyphs: [c.index],
                                      decorations: [], part: groups.count + k, error: nil, quantized: quantized,
                                      isLayoutPart: isLayoutPart)),
                   paint: c.paint)
        }
    }
}

/// Where a text draw call puts its text.
package enum TextPlacement: Sendable, Equatable {
    case at(CGPoint, anchor: UnitPoint)
    case `in`(CGRect)
}

/// A text draw call as the user made it: what the scene encoder writes back and dumps print.
package struct TextCall: Sendable, Equatable {
    package var text: Text
    package var shading: GraphicsContext.Shading
    package var placement: TextPlacement
    package var defaultFont: Font
}

/// Laid-out text of one draw: the glyphs (and underline or strikethrough bars) painted with one paint, placed
/// in user space with the layout's top-left corner at `origin`. A draw call whose runs have several fills
/// records one draw per fill (`part` 0, 1, …), all sharing the layout.
package struct TextGeometry: Sendable, Equatable {
    package var call: TextCall
    package var spans: [TextSpan]
    package var layout: TextLayout
    package var origin: CGPoint
    /// Indices into `layout.glyphs`.
    package var glyphs: [Int]
    /// Indices into `layout.decorations`.
    package var decorations: [Int]
    package var part: Int
    /// The fonts could not be read: the lowering reports it for this draw.
    package var error: TextError?
    /// Whether upright glyph origins snap to the quarter-pixel grid (`TextLowering`); false for a
    /// `Text.Layout` draw with `.disablesSubpixelQuantization`, whose glyphs are drawn where they are.
    package var quantized = true
    /// Drawn from a `Text.Layout`: the glyphs are part of `call`'s text, moved, so `call` does not describe
    /// them (a scene file stores `outlines` instead).
    package var isLayoutPart = false

    /// The glyphs' outlines (a colour glyph's bitmap rectangle) and bars in user space, as one path.
    package var outlines: Path {
        var p = Path()
        let engine = TextEngine.shared
        for i in glyphs {
            let g = layout.glyphs[i]
            let face = engine.face(id: g.faceID)
            let x = Double(origin.x) + g.x, y = Double(origin.y) + g.y
            if face.hasColorBitmaps {
                if let bitmap = face.colorBitmap(glyph: g.glyph) { p.addRect(bitmap.rect(size: g.size, x: x, y: y)) }
                continue
            }
            let k = g.size / face.unitsPerEm
            p.addPath(face.outline(glyph: g.glyph), transform: CGAffineTransform(a: k, b: 0, c: 0, d: -k, tx: x, ty: y))
        }
        for i in decorations { p.addRect(layout.decorations[i].rect.offsetBy(dx: origin.x, dy: origin.y)) }
        return p
    }

    /// The layout's rectangle in user space (what a `.style` gradient spans).
    package var bounds: CGRect { CGRect(origin: origin, size: layout.size) }
}

/// Layouts of one resolved text by width: `measure(in:)` followed by `draw` lays it out once.
package final class TextLayoutCache: @unchecked Sendable {
    package let spans: [TextSpan]
    private var cached: [(width: CGFloat, result: Result<TextLayout, TextError>)] = []
    private let lock = NSLock()
    /// A layout given whole, answered for every width.
    private let fixed: TextLayout?
    package init(spans: [TextSpan], fixed: TextLayout? = nil) { self.spans = spans; self.fixed = fixed }

    /// The layout wrapped to `maxWidth` (infinite or NaN: unwrapped).
    package func layout(maxWidth: CGFloat) -> Result<TextLayout, TextError> {
        if let fixed { return .success(fixed) }
        let width: CGFloat = maxWidth.isFinite ? max(0, maxWidth) : .infinity
        lock.lock(); defer { lock.unlock() }
        if let hit = cached.first(where: { $0.width == width }) { return hit.result }
        let result: Result<TextLayout, TextError>
        do {
            result = .success(try TextEngine.shared.layout(spans, maxWidth: width.isFinite ? Double(width) : nil))
        } catch let e as TextError {
            result = .failure(e)
        } catch {
            result = .failure(.invalidFont(path: "", reason: "\(error)"))
        }
        if cached.count >= 4 { cached.removeFirst() }
        cached.append((width, result))
        return result
    }
}

extension TextLayout {
    /// The layout without the lines whose bottom falls below `height` (the first line always stays): what
    /// `draw(_:in:)` shows of text taller than its rect.
    package func keepingLines(fittingHeight height: CGFloat) -> TextLayout {
        guard height.isFinite, lines.count > 1 else { return self }
        var keep = 1
        while keep < lines.count, lines[keep].baseline + lines[keep].descent <= Double(height) { keep += 1 }
        guard keep < lines.count else { return self }
        var l = self
        let lastGlyph = lines[keep - 1].glyphs.upperBound
        let bottom = lines[keep - 1].baseline + lines[keep - 1].descent
        l.lines = Array(lines[..<keep])
        l.glyphs = Array(glyphs[..<lastGlyph])
        l.decorations = decorations.filter { $0.rect.minY < bottom }
        l.size.height = bottom
        l.lastBaseline = lines[keep - 1].baseline
        return l
    }
}

extension EnvironmentValues {
    /// The font of text with none of its own: `.body`.
    public var font: Font {
        get { defaultFont }
        set { defaultFont = newValue }
    }
}
