// `Path.description` and `Path.init?(_ string:)`: CoreGraphics' path text grammar.
//
// Output: one group per element, numbers in `%g`, then the operator: `x y m`, `x y l`, `cx cy x y q`,
// `c1x c1y c2x c2y x y c`, `h`. The parser also accepts `x y t` (smooth quadratic), `c2x c2y x y v`,
// `c1x c1y x y y` and `x y w h re`; whitespace is space, tab, LF, CR or FF; anything else is nil.

extension Path: CustomStringConvertible, LosslessStringConvertible {
    /// `Path(CGRect(x: 0, y: 0, width: 2, height: 1)).description` → `"0 0 m 2 0 l 2 1 l 0 1 l h"`.
    public var description: String {
        elements.map { e -> String in
            switch e {
            case .move(let p): return "\(fmt(p.x)) \(fmt(p.y)) m"
            case .line(let p): return "\(fmt(p.x)) \(fmt(p.y)) l"
            case .quadCurve(let p, let c): return "\(fmt(c.x)) \(fmt(c.y)) \(fmt(p.x)) \(fmt(p.y)) q"
            case .curve(let p, let c1, let c2):
                return "\(fmt(c1.x)) \(fmt(c1.y)) \(fmt(c2.x)) \(fmt(c2.y)) \(fmt(p.x)) \(fmt(p.y)) c"
            case .closeSubpath: return "h"
            }
        }.joined(separator: " ")
    }

    /// Parses the `description` grammar; nil on any unknown token or wrong operand count.
    /// `Path("10 10 m 90 10 l h")` → a triangle-less two-point closed subpath; `Path("1 m")` → nil.
    public init?(_ string: String) {
        var path = Path()
        var operands: [CGFloat] = []
        var lastQuadControl: CGPoint?
        let separators: Set<Character> = [" ", "\t", "\n", "\r", "\u{0C}"]
        for token in string.split(whereSeparator: { separators.contains($0) }) {
            if let v = Double(token), v.isFinite, token.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." }) == true {
                operands.append(CGFloat(v))
                continue
            }
            let o = operands
            func pt(_ i: Int) -> CGPoint { CGPoint(x: o[i], y: o[i + 1]) }
            let current = path.currentPoint ?? .zero
            var quadControl: CGPoint?
            switch token {
            case "m" where o.count == 2: path.move(to: pt(0))
            case "l" where o.count == 2: path.addLine(to: pt(0))
            case "q" where o.count == 4:
                path.addQuadCurve(to: pt(2), control: pt(0)); quadControl = pt(0)
            case "t" where o.count == 2:
                let c = lastQuadControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                path.addQuadCurve(to: pt(0), control: c); quadControl = c
            case "c" where o.count == 6: path.addCurve(to: pt(4), control1: pt(0), control2: pt(2))
            case "v" where o.count == 4: path.addCurve(to: pt(2), control1: current, control2: pt(0))
            case "y" where o.count == 4: path.addCurve(to: pt(2), control1: pt(0), control2: pt(2))
            case "re" where o.count == 4: path.addRect(CGRect(x: o[0], y: o[1], width: o[2], height: o[3]))
            case "h" where o.isEmpty: path.closeSubpath()
            default: return nil
            }
            lastQuadControl = quadControl
            operands.removeAll(keepingCapacity: true)
        }
        guard operands.isEmpty else { return nil }
        self = path
    }
}
