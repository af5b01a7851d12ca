// SwiftUI's `Text.Layout` (iOS 17): a text view's laid-out lines, their runs and run slices, with typographic
// bounds, read by a `TextRenderer` and drawn back through `GraphicsContext.draw(_: Text.Layout.Line)` and
// friends; and `TextAttribute`, the custom attributes a renderer finds on runs.
//
// A layout is a view onto the text engine's `TextLayout` (positioned glyphs, lines), never a second measuring:
// - a line is an engine line; its origin is the left end of its baseline, (line x, baseline), in the text's
//   own space (top-left at 0, 0);
// - a run is a maximal stretch of a line's glyphs, in visual (left-to-right) order, of one `Text` run (span),
//   one bidi level and one face; its elements are one-glyph `RunSlice`s (what Apple's sample flattens), and a
//   slice is any range of its glyphs;
// - typographic bounds: origin at the element's pen start on its baseline (lowered by the span's baseline
//   offset for runs and slices), width the sum of its glyph advances (the line's width excludes trailing
//   spaces, which have no glyphs here), ascent/descent/leading the face's (hhea/OS/2 as FreeType reads them)
//   at the span's size: for a line, the engine's line ascent and descent and the largest leading of its runs;
// - a character index is the offset, in `Character`s (grapheme clusters), of a glyph's cluster in the text's
//   strings joined.
//
// Drawing records the same glyph draws as `draw(Text)` (`recordGlyphs`: one draw per fill, colour glyphs
// apart), with the layout's top-left at the user-space origin, so the context's transform, opacity, blend mode,
// filters and clip apply as for any draw. A line drawn after its `origin` was changed moves by the change. A
// line draws its underline and strikethrough bars; a run or slice draws the part of its line's bars over its
// own advance. A scene file writes such a draw as a fill of its glyphs' outlines (`TextGeometry.outlines`).

import Foundation

/// A value attached to text with `Text.customAttribute(_:)`, read back from a layout's runs by a
/// `TextRenderer`: `run[EmphasisAttribute.self]`.
public protocol TextAttribute: Hashable {}

/// The custom attributes of one `Text` run: one value per attribute type.
package struct TextAttributeSet: Equatable, @unchecked Sendable {
    // `@unchecked`: TextAttribute values are plain Hashable values that SwiftUI requires no more of; they are
    // read, never mutated, after they are attached.
    private var values: [ObjectIdentifier: AnyHashable] = [:]

    package init() {}

    package subscript<T: TextAttribute>(_ type: T.Type) -> T? { values[ObjectIdentifier(type)]?.base as? T }

    /// Attaches `value` unless a value of its type is attached already (the inner one wins).
    package mutating func attachIfAbsent<T: TextAttribute>(_ value: T) {
        let key = ObjectIdentifier(T.self)
        if values[key] == nil { values[key] = AnyHashable(value) }
    }
}

extension Text {
    /// Attaches `value` to the text for a `TextRenderer` to find on its runs. Only one value of each type is
    /// kept per run: the innermost (`(Text("a").customAttribute(A(1)) + Text("b")).customAttribute(A(2))` gives
    /// "a" A(1) and "b" A(2)).
    public func customAttribute<T: TextAttribute>(_ value: T) -> Text {
        var t = self
        for i in t.runs.indices { t.runs[i].customAttributes.attachIfAbsent(value) }
        return t
    }
}

/// What a `Text.Layout` and every line, run and slice of it share: the engine's layout, the text it came from
/// and its runs by line.
package struct TextLayoutSource: Equatable, Sendable {
    package var text: Text
    package var spans: [TextSpan]
    package var layout: TextLayout
    /// The fill of runs without their own (the view's foreground style).
    package var shading: GraphicsContext.Shading
    package var isTruncated: Bool
    /// Per run: its line and its glyphs (indices into `layout.glyphs`, visual order).
    package var runs: [(line: Int, glyphs: Range<Int>)]
    /// Per line: its runs (indices into `runs`).
    package var lineRuns: [Range<Int>]

    package init(text: Text, spans: [TextSpan], layout: TextLayout, shading: GraphicsContext.Shading,
                 isTruncated: Bool) {
        self.text = text
        self.spans = spans
        self.layout = layout
        self.shading = shading
        self.isTruncated = isTruncated
        runs = []
        lineRuns = []
        for (k, line) in layout.lines.enumerated() {
            let first = runs.count
            var start = line.glyphs.lowerBound
            for g in line.glyphs {
                let next = g + 1
                if next == line.glyphs.upperBound || layout.glyphs[next].span != layout.glyphs[g].span
                    || layout.glyphs[next].level != layout.glyphs[g].level
                    || layout.glyphs[next].faceID != layout.glyphs[g].faceID {
                    runs.append((k, start..<next))
                    start = next
                }
            }
            lineRuns.append(first..<runs.count)
        }
    }

    package static func == (a: TextLayoutSource, b: TextLayoutSource) -> Bool {
        a.text == b.text && a.spans == b.spans && a.layout == b.layout && a.shading == b.shading
            && a.isTruncated == b.isTruncated
    }

    /// Ascent, descent and leading of glyph `g`'s face at its span's size, in points.
    func metrics(glyph g: Int) -> (ascent: Double, descent: Double, leading: Double) {
        let glyph = layout.glyphs[g]
        let face = TextEngine.shared.face(id: glyph.faceID)
        let scale = spans[glyph.span].font.size / face.unitsPerEm
        return (face.ascender * scale, -face.descender * scale, max(0, face.lineGap * scale))
    }

    /// The bounds of glyphs `range` of run `run` (indices into `layout.glyphs`).
    func bounds(run: Int, glyphs range: Range<Int>) -> Text.Layout.TypographicBounds {
        let line = layout.lines[runs[run].line]
        var b = Text.Layout.TypographicBounds()
        guard let first = range.first else {
            b.origin = CGPoint(x: line.x, y: line.baseline)
            return b
        }
        let g0 = layout.glyphs[first]
        let m = metrics(glyph: first)
        b.origin = CGPoint(x: g0.x - g0.xOffset, y: line.baseline - spans[g0.span].baselineOffset)
        b.width = range.reduce(0.0) { $0 + layout.glyphs[$1].advance }
        b.ascent = m.ascent
        b.descent = m.descent
        b.leading = m.leading
        return b
    }

    /// The decoration bars of `line` cut to x in `from...to`, as a layout whose decorations are those bars.
    func layout(decorationsOf line: Int, from: Double, to: Double) -> TextLayout {
        var l = layout
        let ln = layout.lines[line]
        let top = ln.baseline - ln.ascent, bottom = ln.baseline + ln.descent
        l.decorations = layout.decorations.compactMap { d in
            let mid = Double(d.rect.midY)
            guard mid >= top, mid <= bottom else { return nil }
            let x0 = max(Double(d.rect.minX), from), x1 = min(Double(d.rect.maxX), to)
            guard x1 > x0 else { return nil }
            var cut = d
            cut.rect = CGRect(x: x0, y: Double(d.rect.minY), width: x1 - x0, height: Double(d.rect.height))
            return cut
        }
        return l
    }
}

extension Text {
    /// A text view's laid-out lines: a `TextRenderer` draws from it.
    ///
    /// ```swift
    /// for line in layout { ctx.draw(line) }                 // as the text view would
    /// for run in layout.flatMap({ $0 }) { for slice in run { ctx.draw(slice) } }   // glyph by glyph
    /// ```
    public struct Layout: RandomAccessCollection, Equatable, Sendable {
        package let source: TextLayoutSource

        package init(_ source: TextLayoutSource) { self.source = source }

        /// Whether the text was cut to fit its line limit (an ellipsis stands for the rest).
        public var isTruncated: Bool { source.isTruncated }

        public var startIndex: Int { 0 }
        public var endIndex: Int { source.layout.lines.count }
        public subscript(index: Int) -> Line { Line(source: source, index: index) }

        /// The offset of a character in the text, for ordering elements of a layout (opaque in SwiftUI;
        /// here `Character`s from the start of the text's strings joined).
        @frozen public struct CharacterIndex: Hashable, Comparable, Strideable, Sendable {
            @usableFromInline let offset: Int
            @inlinable init(_ offset: Int) { self.offset = offset }
            public static func < (a: CharacterIndex, b: CharacterIndex) -> Bool { a.offset < b.offset }
            public func distance(to other: CharacterIndex) -> Int { other.offset - offset }
            public func advanced(by n: Int) -> CharacterIndex { CharacterIndex(offset + n) }
        }

        /// Ascent, descent and leading about an origin on the baseline.
        @frozen public struct TypographicBounds: Equatable, Sendable {
            /// The left end of the element's baseline, in the text's space.
            public var origin: CGPoint
            public var width: CGFloat
            public var ascent: CGFloat
            public var descent: CGFloat
            public var leading: CGFloat

            /// Zero bounds at the zero origin.
            public init() {
                origin = .zero; width = 0; ascent = 0; descent = 0; leading = 0
            }

            /// From `ascent` above the origin to `descent` below it, `width` across (leading left out).
            public var rect: CGRect {
                CGRect(x: origin.x, y: origin.y - ascent, width: width, height: ascent + descent)
            }
        }

        /// How a line, run or slice is drawn.
        @frozen public struct DrawingOptions: OptionSet, Sendable {
            public let rawValue: UInt32
            public init(rawValue: UInt32) { self.rawValue = rawValue }
            /// Draws glyphs at their exact positions instead of snapping them across to a quarter pixel (for
            /// text that moves smoothly).
            public static let disablesSubpixelQuantization = DrawingOptions(rawValue: 1 << 0)
        }

        /// One line of the layout: its runs, left to right.
        public struct Line: RandomAccessCollection, Equatable, Sendable {
            package let source: TextLayoutSource
            package let index: Int
            /// The left end of the line's baseline in the text's space. Drawing a line whose origin was set
            /// draws it moved by the change.
            public var origin: CGPoint

            init(source: TextLayoutSource, index: Int) {
                self.source = source
                self.index = index
                let l = source.layout.lines[index]
                origin = CGPoint(x: l.x, y: l.baseline)
            }

            package var laidOutOrigin: CGPoint {
                let l = source.layout.lines[index]
                return CGPoint(x: l.x, y: l.baseline)
            }

            public var startIndex: Int { 0 }
            public var endIndex: Int { source.lineRuns[index].count }
            public subscript(i: Int) -> Run { Run(source: source, index: source.lineRuns[index].lowerBound + i) }

            /// The line's ascent and descent (the largest of its faces'), leading and width (trailing spaces
            /// excluded), from `origin`.
            public var typographicBounds: TypographicBounds {
                let l = source.layout.lines[index]
                var b = TypographicBounds()
                b.origin = origin
                b.width = l.width
                b.ascent = l.ascent
                b.descent = l.descent
                b.leading = source.lineRuns[index].map { source.metrics(glyph: source.runs[$0].glyphs.lowerBound).leading }
                    .max() ?? 0
                return b
            }
        }

        /// Glyphs of one line with one set of attributes and one direction; its elements are one-glyph slices.
        public struct Run: RandomAccessCollection, Equatable, Sendable {
            package let source: TextLayoutSource
            package let index: Int

            var glyphs: Range<Int> { source.runs[index].glyphs }

            public var startIndex: Int { 0 }
            public var endIndex: Int { glyphs.count }
            public subscript(i: Int) -> RunSlice { RunSlice(run: self, indices: i..<(i + 1)) }

            /// `.rightToLeft` for a run of odd bidi level (Arabic, Hebrew), else `.leftToRight`.
            public var layoutDirection: LayoutDirection {
                glyphs.isEmpty || source.layout.glyphs[glyphs.lowerBound].level % 2 == 0 ? .leftToRight : .rightToLeft
            }

            public var typographicBounds: TypographicBounds { source.bounds(run: index, glyphs: glyphs) }

            /// Per glyph (left to right), the index of the character it draws.
            public var characterIndices: [CharacterIndex] { glyphs.map { CharacterIndex(source.layout.glyphs[$0].character) } }

            /// The run's custom attribute of type `T` (`Text.customAttribute(_:)`), or nil.
            public subscript<T: TextAttribute>(key: T.Type) -> T? {
                guard let g = glyphs.first else { return nil }
                return source.text.runs[source.layout.glyphs[g].span].customAttributes[key]
            }
        }

        /// Some of a run's glyphs: `indices` into the run.
        public struct RunSlice: RandomAccessCollection, Equatable, Sendable {
            public var run: Run
            public var indices: Range<Int>

            public init(run: Run, indices: Range<Int>) {
                self.run = run
                self.indices = indices
            }

            public var startIndex: Int { indices.lowerBound }
            public var endIndex: Int { indices.upperBound }
            public subscript(i: Int) -> RunSlice { RunSlice(run: run, indices: i..<(i + 1)) }

            /// The glyphs of the layout this slice draws (clamped to the run).
            var glyphs: Range<Int> {
                let all = run.glyphs
                let lo = all.lowerBound + Swift.min(Swift.max(indices.lowerBound, 0), all.count)
                let hi = all.lowerBound + Swift.min(Swift.max(indices.upperBound, 0), all.count)
                return lo..<Swift.max(lo, hi)
            }

            public var typographicBounds: TypographicBounds { run.source.bounds(run: run.index, glyphs: glyphs) }

            public var characterIndices: [CharacterIndex] {
                glyphs.map { CharacterIndex(run.source.layout.glyphs[$0].character) }
            }

            /// The custom attribute of type `T` of the slice's run, or nil.
            public subscript<T: TextAttribute>(key: T.Type) -> T? { run[key] }
        }
    }
}

extension GraphicsContext {
    /// Draws `line` as its text view would, moved by any change made to its `origin`.
    public func draw(_ line: Text.Layout.Line, options: Text.Layout.DrawingOptions = .init()) {
        let s = line.source
        let glyphs = s.layout.lines[line.index].glyphs
        let o = line.origin, laid = line.laidOutOrigin
        recordLayoutGlyphs(s, line: line.index, glyphs: glyphs, offset: CGPoint(x: o.x - laid.x, y: o.y - laid.y),
                           options: options)
    }

    /// Draws the glyphs of `run`.
    public func draw(_ run: Text.Layout.Run, options: Text.Layout.DrawingOptions = .init()) {
        recordLayoutGlyphs(run.source, line: run.source.runs[run.index].line, glyphs: run.glyphs, offset: .zero,
                           options: options)
    }

    /// Draws the glyphs of `slice`.
    public func draw(_ slice: Text.Layout.RunSlice, options: Text.Layout.DrawingOptions = .init()) {
        let s = slice.run.source
        recordLayoutGlyphs(s, line: s.runs[slice.run.index].line, glyphs: slice.glyphs, offset: .zero, options: options)
    }

    private func recordLayoutGlyphs(_ s: TextLayoutSource, line: Int, glyphs: Range<Int>, offset: CGPoint,
                                    options: Text.Layout.DrawingOptions) {
        guard !glyphs.isEmpty else { return }
        let first = s.layout.glyphs[glyphs.lowerBound]
        let from = first.x - first.xOffset
        let to = from + glyphs.reduce(0.0) { $0 + s.layout.glyphs[$1].advance }
        let layout = s.layout(decorationsOf: line, from: from, to: to)
        let call = TextCall(text: s.text, shading: s.shading, placement: .at(offset, anchor: .topLeading),
                            defaultFont: environment.font)
        recordGlyphs(call: call, spans: s.spans, runs: s.text.runs, shading: s.shading, layout: layout, origin: offset,
                     glyphs: glyphs, decorations: layout.decorations.indices,
                     quantized: !options.contains(.disablesSubpixelQuantization), isLayoutPart: true)
    }
}
