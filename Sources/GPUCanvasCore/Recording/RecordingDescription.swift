// The recording as readable text (`canvas-gl render --dump`). One line per item, nested layers indented; under
// an item, its clips (a mask with its content indented below it).
//
// ```
// Recording 300×200 pt, colorMode: nonLinear, opaque: false, 3 draws
//   [0] #0 stroke (5 elements) "300 100 m 300 155.228 … h" StrokeStyle(lineWidth: 4.0, …) paint rgba(0.2039, 0.7804, 0.349, 1)
//   [1] layer opacity 0.5
//       clip 1: (5 elements) "0 0 m 50 0 l 50 50 l 0 50 l h" inverse
//     [0] #1 fill (5 elements) "0 0 m 20 0 l 20 20 l 0 20 l h" paint rgba(1, 0, 0, 1)
//   [2] #2 fill (5 elements) "0 0 m 20 0 l 20 20 l 0 20 l h" paint rgba(0, 0, 1, 1)
//       clip 1: as [1]
// ```

extension Recording {
    public var description: String {
        let n = drawCount
        var lines = ["Recording \(fmt(size.width))×\(fmt(size.height)) pt, colorMode: \(colorMode), opaque: \(isOpaque), \(n) draw\(n == 1 ? "" : "s")"]
        root.describe(indent: "  ", into: &lines)
        return lines.joined(separator: "\n")
    }
}

extension RecordedLayer {
    /// Clips shared with the item before are not repeated: `clips 1–2: as [3]` (a clip stack usually clips a run
    /// of draws, and a mask's content would otherwise be printed once per draw).
    package func describe(indent: String, into lines: inout [String]) {
        var previous: [RecordedClip] = []
        for (i, item) in items.enumerated() {
            let state: DrawState
            switch item {
            case .draw(let d):
                lines.append("\(indent)[\(i)] #\(d.drawNumber) \(d)")
                state = d.state
            case .layer(let l):
                var s = "\(indent)[\(i)] layer"
                if l.state.opacity != 1 { s += " opacity \(fmt(CGFloat(l.state.opacity)))" }
                if l.state.blendMode != .normal { s += " blend \(l.state.blendMode)" }
                if !l.state.filters.isEmpty { s += " filters " + l.state.filters.map(\.text).joined(separator: " ") }
                lines.append(s)
                state = l.state
            }
            var shared = 0
            while shared < min(previous.count, state.clips.count), previous[shared] == state.clips[shared] { shared += 1 }
            if shared > 0 {
                lines.append("\(indent)    clip\(shared == 1 ? " 1" : "s 1–\(shared)"): as [\(i - 1)]")
            }
            describe(state.clips, from: shared, indent: indent + "    ", into: &lines)
            previous = state.clips
            if case .layer(let l) = item { l.content.describe(indent: indent + "  ", into: &lines) }
        }
    }

    /// One line per clip from `from` on, masks with their content.
    private func describe(_ clips: [RecordedClip], from: Int, indent: String, into lines: inout [String]) {
        for (k, clip) in clips.enumerated().dropFirst(from) {
            switch clip {
            case .path(let p, let t, let style, let inverse):
                var s = "\(indent)clip \(k + 1): \(DrawCommand.pathText(p))"
                if style != FillStyle() { s += " \(style)" }
                if inverse { s += " inverse" }
                if !t.isIdentity { s += " transform \(t)" }
                lines.append(s)
            case .mask(let layer, let opacity, let inverse):
                lines.append("\(indent)clip \(k + 1): mask opacity \(fmt(CGFloat(opacity)))\(inverse ? " inverse" : "")")
                layer.describe(indent: indent + "  ", into: &lines)
            }
        }
    }
}

extension DrawCommand: CustomStringConvertible {
    /// Path descriptions longer than this are elided in the middle so one draw stays one readable line.
    package static let maxPathText = 120

    public var description: String {
        var s: String
        switch geometry {
        case .fill(let p, let style):
            s = "fill \(Self.pathText(p))"
            if style != FillStyle() { s += " \(style)" }
        case .stroke(let p, let style):
            s = "stroke \(Self.pathText(p)) \(style)"
        case .text(let t):
            s = "text \(t)"
        }
        s += " paint \(paint)"
        if !transform.isIdentity { s += " transform \(transform)" }
        if state.opacity != 1 { s += " opacity \(fmt(CGFloat(state.opacity)))" }
        if state.blendMode != .normal { s += " blend \(state.blendMode)" }
        if !state.filters.isEmpty { s += " filters " + state.filters.map(\.text).joined(separator: " ") }
        return s
    }

    package static func pathText(_ p: Path) -> String {
        var text = p.description
        if text.count > maxPathText {
            text = String(text.prefix(maxPathText / 2)) + " … " + String(text.suffix(maxPathText / 2 - 3))
        }
        return "(\(p.elements.count) elements) \"\(text)\""
    }
}

extension Paint: CustomStringConvertible {
    package var description: String {
        switch self {
        case .solid(let c): return c.description
        case .gradient(let g): return g.description
        case .styleGradient(let g): return ".style(\(g))"
        case .image(let i):
            var s = i.tiled ? "tiledImage" : "image"
            if case .success(let p) = i.image.content.result { s += " \(p.width)×\(p.height) px" } else { s += " (unreadable)" }
            if let src = i.image.content.source { s += " \(src)" }
            if let t = i.tint { s += " template \(t)" }
            return s
        case .backdrop: return "backdrop"
        case .meshGradient(let m): return m.description
        }
    }
}

extension TextGeometry: CustomStringConvertible {
    /// `"Hello World!" 12 glyphs in Liberation Sans Regular 36 pt, box (10, 20) 199×41`, naming every face the
    /// glyphs use (the faces fontconfig chose, fallbacks included). A `Text.Layout` draw (some of the text's
    /// glyphs) says so.
    package var description: String {
        var text = call.text.string
        if text.count > 60 { text = String(text.prefix(57)) + "…" }
        var s = "\(jsonQuoted(text))"
        if let error { return s + " unreadable font: \(error)" }
        s += " \(glyphs.count) glyphs"
        if !decorations.isEmpty { s += " + \(decorations.count) bars" }
        var faces: [Int] = []
        var sizes: [Double] = []
        for i in glyphs {
            let g = layout.glyphs[i]
            if !faces.contains(g.faceID) { faces.append(g.faceID) }
            if !sizes.contains(g.size) { sizes.append(g.size) }
        }
        if !faces.isEmpty {
            s += " in " + faces.map { id in
                let f = TextEngine.shared.face(id: id)
                return "\(f.familyName) \(f.styleName)"
            }.joined(separator: ", ")
            s += " " + sizes.map { fmt(CGFloat($0)) }.joined(separator: "/") + " pt"
        }
        let b = bounds
        s += ", box (\(fmt(b.minX)), \(fmt(b.minY))) \(fmt(b.width))×\(fmt(b.height))"
        if part > 0 { s += " part \(part)" }
        if isLayoutPart { s += " (Text.Layout glyphs)" }
        if !quantized { s += " unquantized" }
        return s
    }
}

/// `%g` formatting: 300 → "300", 0.5 → "0.5".
package func fmt(_ v: CGFloat) -> String { String(format: "%g", Double(v)) }

extension RecordedFilter {
    /// `.saturation(0.5)`, with ` linearColor` when the option is set.
    package var text: String { "\(filter)" + (options.contains(.linearColor) ? " linearColor" : "") }
}

/// A string as a JSON string literal: `jsonQuoted("a\"b")` → `"a\"b"` (with the quotes).
package func jsonQuoted(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
        switch u {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
        default: out.unicodeScalars.append(u)
        }
    }
    return out + "\""
}
