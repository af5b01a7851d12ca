// Text layout as a view: line limits, truncation, multiline alignment, line spacing, minimum scale factor,
// tightening and text case. They flow down the environment like `font` and act on the text engine's layout
// (`TextEngine.layout`: lines of positioned glyphs), which is never changed itself:
//
// - `textCase` changes the runs' strings before layout;
// - a text that does not fit (more lines than its limit, or wider than offered) is first tightened (tracking
//   −`tighteningPerEm` of each run's size, when allowed), then scaled down (binary search of the largest
//   factor ≥ `minimumScaleFactor` that fits), then truncated: the longest prefix (tail), suffix (head) or both
//   (middle) of its characters that fits with an ellipsis "…" within the limit;
// - `lineSpacing` moves line k down by k × spacing; `multilineTextAlignment` moves each line across the text's
//   width (its widest line) by the alignment's fraction of its free space;
// - `lineLimit(n, reservesSpace: true)` and the lower bound of a range reserve the height of that many lines.

extension View {
    /// At most `number` lines (nil: no limit); text past the limit is truncated by `truncationMode`.
    public func lineLimit(_ number: Int?) -> some View {
        modifier(.environment { $0.textLayout.maxLines = number; $0.textLayout.minLines = nil })
    }

    /// At most `limit` lines; with `reservesSpace`, the height of `limit` lines even when fewer are needed.
    public func lineLimit(_ limit: Int, reservesSpace: Bool) -> some View {
        modifier(.environment { $0.textLayout.maxLines = limit; $0.textLayout.minLines = reservesSpace ? limit : nil })
    }

    /// Between `limit`'s bounds of lines: the lower bound's height is reserved.
    public func lineLimit(_ limit: ClosedRange<Int>) -> some View {
        modifier(.environment { $0.textLayout.maxLines = limit.upperBound; $0.textLayout.minLines = limit.lowerBound })
    }

    /// At least `limit.lowerBound` lines' height, no upper limit.
    public func lineLimit(_ limit: PartialRangeFrom<Int>) -> some View {
        modifier(.environment { $0.textLayout.maxLines = nil; $0.textLayout.minLines = limit.lowerBound })
    }

    /// At most `limit.upperBound` lines.
    public func lineLimit(_ limit: PartialRangeThrough<Int>) -> some View {
        modifier(.environment { $0.textLayout.maxLines = limit.upperBound; $0.textLayout.minLines = nil })
    }

    /// Where text that does not fit is cut for the ellipsis (`.tail` by default).
    public func truncationMode(_ mode: Text.TruncationMode) -> some View {
        modifier(.environment { $0.textLayout.truncation = mode })
    }

    /// How the lines of multiline text line up with each other (`.leading` by default).
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View {
        modifier(.environment { $0.textLayout.alignment = alignment })
    }

    /// Extra points between lines.
    public func lineSpacing(_ lineSpacing: CGFloat) -> some View {
        modifier(.environment { $0.textLayout.lineSpacing = lineSpacing.isFinite ? lineSpacing : 0 })
    }

    /// How far text may shrink (a fraction of its size, 0…1) to fit before it is truncated.
    public func minimumScaleFactor(_ factor: CGFloat) -> some View {
        modifier(.environment { $0.textLayout.minimumScaleFactor = min(1, max(0.01, factor.isFinite ? factor : 1)) })
    }

    /// Whether text may be set tighter to fit before it shrinks or is truncated.
    public func allowsTightening(_ flag: Bool) -> some View {
        modifier(.environment { $0.textLayout.allowsTightening = flag })
    }

    /// Text shown in upper or lower case (nil: as written).
    public func textCase(_ textCase: Text.Case?) -> some View {
        modifier(.environment { $0.textLayout.textCase = textCase })
    }
}

extension Text {
    /// Where the ellipsis goes when text is truncated.
    public enum TruncationMode: Hashable, Sendable, CaseIterable { case head, tail, middle }

    /// A text case transform.
    public enum Case: Hashable, Sendable, CaseIterable { case uppercase, lowercase }
}

/// How the lines of multiline text line up.
public enum TextAlignment: Hashable, Sendable, CaseIterable {
    case leading, center, trailing

    var fraction: Double {
        switch self {
        case .leading: return 0
        case .center: return 0.5
        case .trailing: return 1
        }
    }
}

/// The text layout settings of the environment.
struct TextLayoutOptions: Equatable {
    var maxLines: Int?
    var minLines: Int?
    var truncation: Text.TruncationMode = .tail
    var alignment: TextAlignment = .leading
    var lineSpacing: CGFloat = 0
    var minimumScaleFactor: CGFloat = 1
    var allowsTightening = false
    var textCase: Text.Case?

    /// True when nothing is set: the text is laid out as a canvas lays it out.
    var isDefault: Bool { self == TextLayoutOptions() }

    /// Tracking taken off per point of font size when tightening (SwiftUI tightens by a few percent).
    static let tighteningPerEm = 0.05
    /// Steps of the binary search for the scale factor (2^-8 of the range: below a pixel at text sizes).
    static let scaleSearchSteps = 8
    /// The ellipsis truncated text ends (or starts) with.
    static let ellipsis = "…"
}

extension Text {
    /// The text in `textCase`.
    func applying(_ textCase: Text.Case?) -> Text {
        guard let textCase else { return self }
        var t = self
        for i in t.runs.indices {
            t.runs[i].string = textCase == .uppercase ? t.runs[i].string.uppercased() : t.runs[i].string.lowercased()
        }
        return t
    }
}

/// Lays out one text under `TextLayoutOptions` (see the note at the top of the file).
struct TextLayoutPipeline {
    let options: TextLayoutOptions
    let spans: [TextSpan]

    /// The engine's layout of `spans` wrapped to `width` (infinite: unwrapped); nil when its fonts fail.
    static func engineLayout(_ spans: [TextSpan], _ width: CGFloat) -> TextLayout? {
        try? TextEngine.shared.layout(spans, maxWidth: width.isFinite ? Double(max(0, width)) : nil)
    }

    /// Whether `layout` fits `width` within the line limit.
    func fits(_ layout: TextLayout, _ width: CGFloat) -> Bool {
        if let maxLines = options.maxLines, layout.lines.count > max(1, maxLines) { return false }
        return !width.isFinite || layout.size.width <= width + TextNode.wrapSlack
    }

    /// The spans drawn and their layout at `width`.
    func layout(width: CGFloat) -> (spans: [TextSpan], layout: TextLayout)? {
        var current = spans
        guard var layout = Self.engineLayout(current, width) else { return nil }
        if !fits(layout, width), options.allowsTightening {
            let tight = current.map { s -> TextSpan in
                var s = s
                s.tracking -= TextLayoutOptions.tighteningPerEm * s.font.size
                return s
            }
            if let l = Self.engineLayout(tight, width), fits(l, width) { current = tight; layout = l }
        }
        if !fits(layout, width), options.minimumScaleFactor < 1 {
            var lo = Double(options.minimumScaleFactor), hi = 1.0
            var best: (spans: [TextSpan], layout: TextLayout)?
            for _ in 0..<TextLayoutOptions.scaleSearchSteps {
                let mid = (lo + hi) / 2
                let scaled = Self.scaled(current, mid)
                if let l = Self.engineLayout(scaled, width), fits(l, width) { best = (scaled, l); lo = mid } else { hi = mid }
            }
            if best == nil {
                let smallest = Self.scaled(current, Double(options.minimumScaleFactor))
                if let l = Self.engineLayout(smallest, width) { best = (smallest, l) }
            }
            if let best { current = best.spans; layout = best.layout }
        }
        // Only a line limit truncates: a word wider than the text's width overflows (the engine's wrap), as
        // in a canvas.
        if let maxLines = options.maxLines, layout.lines.count > max(1, maxLines),
           let truncated = truncate(current, width) {
            current = truncated.spans
            layout = truncated.layout
        }
        return (current, adjusted(layout))
    }

    static func scaled(_ spans: [TextSpan], _ k: Double) -> [TextSpan] {
        spans.map { s in
            var s = s
            s.font.size *= k
            s.kerning *= k
            s.tracking *= k
            s.baselineOffset *= k
            return s
        }
    }

    /// The most characters that fit with an ellipsis where `truncationMode` puts it.
    func truncate(_ spans: [TextSpan], _ width: CGFloat) -> (spans: [TextSpan], layout: TextLayout)? {
        let total = spans.reduce(0) { $0 + $1.string.count }
        func candidate(_ k: Int) -> [TextSpan] {
            switch options.truncation {
            case .tail: return Self.cut(spans, keepingFirst: k, last: 0)
            case .head: return Self.cut(spans, keepingFirst: 0, last: k)
            case .middle: return Self.cut(spans, keepingFirst: (k + 1) / 2, last: k / 2)
            }
        }
        var lo = 0, hi = total - 1
        var best: (spans: [TextSpan], layout: TextLayout)?
        while lo <= hi {
            let mid = (lo + hi) / 2
            let c = candidate(mid)
            if let l = Self.engineLayout(c, width), fits(l, width) { best = (c, l); lo = mid + 1 } else { hi = mid - 1 }
        }
        if best == nil, let l = Self.engineLayout(candidate(0), width) { best = (candidate(0), l) }
        return best
    }

    /// `spans` with only their first `first` and last `last` characters (whitespace at the cut dropped) and an
    /// ellipsis at the cut, in the run next to it; the span count stays (glyphs name their span by index).
    static func cut(_ spans: [TextSpan], keepingFirst first: Int, last: Int) -> [TextSpan] {
        guard !spans.isEmpty else { return spans }
        var chars: [(span: Int, ch: Character)] = []
        for (i, s) in spans.enumerated() { for ch in s.string { chars.append((i, ch)) } }
        let total = chars.count
        var head = Array(chars[0..<min(first, total)])
        var tail = last > 0 ? Array(chars[max(head.count, total - last)...]) : []
        while head.last?.ch.isWhitespace == true { head.removeLast() }
        while tail.first?.ch.isWhitespace == true { tail.removeFirst() }
        let ellipsisSpan = head.last?.span ?? tail.first?.span ?? (last > 0 ? chars.last?.span : chars.first?.span) ?? 0
        var out = spans
        for i in out.indices { out[i].string = "" }
        for c in head { out[c.span].string.append(c.ch) }
        out[ellipsisSpan].string += TextLayoutOptions.ellipsis
        for c in tail { out[c.span].string.append(c.ch) }
        return out
    }

    /// `layout` with line spacing and multiline alignment applied.
    func adjusted(_ layout: TextLayout) -> TextLayout {
        var l = layout
        let n = l.lines.count
        guard n > 0 else { return l }
        // Which line each decoration bar belongs to (by its middle, before anything moves).
        let decorationLine = l.decorations.map { d -> Int in
            let y = Double(d.rect.midY)
            return l.lines.firstIndex { y <= $0.baseline + $0.descent } ?? n - 1
        }
        let spacing = Double(options.lineSpacing)
        let fraction = options.alignment.fraction
        for k in 0..<n {
            let dy = spacing * Double(k)
            let dx = (Double(l.size.width) - l.lines[k].width) * fraction
            guard dx != 0 || dy != 0 else { continue }
            for g in l.lines[k].glyphs { l.glyphs[g].x += dx; l.glyphs[g].y += dy }
            l.lines[k].baseline += dy
            l.lines[k].x += dx
            for (i, line) in decorationLine.enumerated() where line == k {
                l.decorations[i].rect = l.decorations[i].rect.offsetBy(dx: CGFloat(dx), dy: CGFloat(dy))
            }
        }
        if n > 1, spacing != 0 {
            l.size.height += CGFloat(spacing) * CGFloat(n - 1)
            l.lastBaseline += spacing * Double(n - 1)
        }
        if let minLines = options.minLines, minLines > n {
            let lineHeight = Double(layout.size.height) / Double(n)
            l.size.height = max(l.size.height, CGFloat(lineHeight * Double(minLines) + spacing * Double(minLines - 1)))
        }
        return l
    }
}
