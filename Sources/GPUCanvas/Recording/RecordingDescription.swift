// The recording as readable text (`canvas-gl render --dump`). One line per item, nested layers indented.
//
// ```
// Recording 300×200 pt, colorMode: nonLinear, opaque: false, 1 draw
//   [0] stroke 4 curves path "300 100 m 300 155.228 … h" StrokeStyle(lineWidth: 4, …) paint rgba(0.2039, 0.7804, 0.349, 1)
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
    func describe(indent: String, into lines: inout [String]) {
        for (i, item) in items.enumerated() {
            switch item {
            case .draw(let d): lines.append("\(indent)[\(i)] \(d)")
            }
        }
    }
}

extension DrawCommand: CustomStringConvertible {
    /// Path descriptions longer than this are elided in the middle so one draw stays one readable line.
    static let maxPathText = 120

    public var description: String {
        var s: String
        switch geometry {
        case .fill(let p, let style):
            s = "fill \(Self.pathText(p))"
            if style != FillStyle() { s += " \(style)" }
        case .stroke(let p, let style):
            s = "stroke \(Self.pathText(p)) \(style)"
        }
        s += " paint \(paint)"
        if !transform.isIdentity { s += " transform \(transform)" }
        if state.opacity != 1 { s += " opacity \(fmt(CGFloat(state.opacity)))" }
        if state.blendMode != .normal { s += " blend \(state.blendMode)" }
        return s
    }

    static func pathText(_ p: Path) -> String {
        var text = p.description
        if text.count > maxPathText {
            text = String(text.prefix(maxPathText / 2)) + " … " + String(text.suffix(maxPathText / 2 - 3))
        }
        return "(\(p.elements.count) elements) \"\(text)\""
    }
}

extension Paint: CustomStringConvertible {
    public var description: String {
        switch self {
        case .solid(let c): return c.description
        }
    }
}

/// `%g` formatting: 300 → "300", 0.5 → "0.5".
func fmt(_ v: CGFloat) -> String { String(format: "%g", Double(v)) }
