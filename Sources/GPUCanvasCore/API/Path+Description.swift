// `Path.description` and `Path.init?(_ string:)`: CoreGraphics' path text grammar.
//
// Output: one group per element, numbers printed with `%g` (6 significant digits), then the operator:
// `x y m`, `x y l`, `cx cy x y q`, `c1x c1y c2x c2y x y c`, `h`, groups separated by one space.
// No leading or trailing space is emitted: OpenSwiftUI's port writes a space before every group, and
// Apple's `Path.description` trims it; ours never produces it, so the text equals Apple's trimmed text.
// Because `%g` keeps 6 significant digits, `Path(p.description) == p` holds exactly only for paths whose
// coordinates `%g` prints exactly (integers below 10⁶, short decimals); for any path,
// `Path(p.description)!.description == p.description`.
//
// The parser also accepts `x y t` (quadratic whose control is the previous quadratic's control reflected
// through the current point, or the current point itself after any other element), `c2x c2y x y v`
// (cubic whose first control is the current point), `c1x c1y x y y` (cubic whose second control is the
// end point) and `x y w h re` (a rectangle, `m l l l h`). Tokens are separated by any run of space, tab,
// LF, CR or FF. Numbers are decimal (`-1.5e3`, `.5`, `+2`); hex floats, `nan` and `inf` are not numbers.
// The parse fails (nil) on an unknown token, an operator with the wrong number of operands, operands left
// over at the end, or a number that is not finite (`1e999`).
// Drawing operators on a path with no current point follow the builders (`addLine` on an empty path
// starts a subpath), so `Path("1 2 l")` equals `Path("1 2 m")`.

extension Path: CustomStringConvertible, LosslessStringConvertible {
    /// The path as text that `init?(_:)` reads back.
    ///
    /// `Path(CGRect(x: 0, y: 0, width: 2, height: 1)).description` → `"0 0 m 2 0 l 2 1 l 0 1 l h"`;
    /// `Path().description` → `""`.
    public var description: String {
        var out = ""
        out.reserveCapacity(elements.count * 16)
        func put(_ v: CGFloat) {
            if !out.isEmpty { out.append(" ") }
            out.append(Path.formatNumber(v))
        }
        func op(_ s: String) {
            if !out.isEmpty { out.append(" ") }
            out.append(s)
        }
        for e in elements {
            switch e {
            case .move(let p): put(p.x); put(p.y); op("m")
            case .line(let p): put(p.x); put(p.y); op("l")
            case .quadCurve(let p, let c): put(c.x); put(c.y); put(p.x); put(p.y); op("q")
            case .curve(let p, let c1, let c2):
                put(c1.x); put(c1.y); put(c2.x); put(c2.y); put(p.x); put(p.y); op("c")
            case .closeSubpath: op("h")
            }
        }
        return out
    }

    /// `%g`, as CoreGraphics prints path coordinates: 0.5 → "0.5", 1e-7 → "1e-07", 1234567 → "1.23457e+06".
    package static func formatNumber(_ v: CGFloat) -> String {
        // Integers below 10⁶ print identically under `%g` and `String(Int)`, which is much cheaper.
        if abs(v) < 1e6, v == v.rounded(), !(v == 0 && v.sign == .minus) { return String(Int(v)) }
        return String(format: "%g", Double(v))
    }

    /// Parses the `description` grammar (see the top of this file); nil when the text is not a path.
    ///
    /// `Path("0 0 m 10 0 l 10 10 l h")` → a closed triangle; `Path("0 0 10 10 re")` equals
    /// `Path(CGRect(x: 0, y: 0, width: 10, height: 10))`; `Path("1 m")` → nil; `Path("0 0 x")` → nil.
    public init?(_ string: String) {
        var path = Path()
        var operands: [CGFloat] = []
        operands.reserveCapacity(6)
        var lastQuadControl: CGPoint?
        var text = string
        // Tokens are scanned over the UTF-8 bytes: Character-based splitting would merge "\r\n" into one
        // grapheme cluster and miss it as whitespace.
        let scanned = text.withUTF8 { buf in
            Path.scanTokens(buf) { token in
                if let v = Path.parseNumber(token) {
                    // No operator takes more than 6 operands: stop at the 7th instead of collecting them all.
                    guard v.isFinite, operands.count < 6 else { return false }
                    operands.append(CGFloat(v))
                    return true
                }
                guard Path.applyOperator(token, operands: operands, to: &path, lastQuadControl: &lastQuadControl)
                else { return false }
                operands.removeAll(keepingCapacity: true)
                return true
            }
        }
        guard scanned, operands.isEmpty else { return nil }
        self = path
    }

    /// Calls `body` with each whitespace-separated token; stops and returns false when `body` does.
    private static func scanTokens(_ buf: UnsafeBufferPointer<UInt8>,
                                   _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0C }
        var i = 0
        let n = buf.count
        while i < n {
            while i < n, isSpace(buf[i]) { i += 1 }
            if i == n { break }
            let start = i
            while i < n, !isSpace(buf[i]) { i += 1 }
            guard body(UnsafeBufferPointer(rebasing: buf[start ..< i])) else { return false }
        }
        return true
    }

    /// A decimal number token (`[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`), or nil.
    /// Overflowing exponents come back as ±infinity for the caller to reject.
    private static func parseNumber(_ t: UnsafeBufferPointer<UInt8>) -> Double? {
        let n = t.count
        var i = 0
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        if i < n, t[i] == 0x2B || t[i] == 0x2D { i += 1 }
        var mantissaDigits = 0
        while i < n, isDigit(t[i]) { i += 1; mantissaDigits += 1 }
        if i < n, t[i] == 0x2E {
            i += 1
            while i < n, isDigit(t[i]) { i += 1; mantissaDigits += 1 }
        }
        guard mantissaDigits > 0 else { return nil }
        if i < n, t[i] == 0x65 || t[i] == 0x45 {
            i += 1
            if i < n, t[i] == 0x2B || t[i] == 0x2D { i += 1 }
            var expDigits = 0
            while i < n, isDigit(t[i]) { i += 1; expDigits += 1 }
            guard expDigits > 0 else { return nil }
        }
        guard i == n else { return nil }
        return Double(String(decoding: t, as: UTF8.self))
    }

    /// Applies one operator with its operands; false for an unknown operator or a wrong operand count.
    private static func applyOperator(_ token: UnsafeBufferPointer<UInt8>, operands o: [CGFloat], to path: inout Path,
                                      lastQuadControl: inout CGPoint?) -> Bool {
        func pt(_ i: Int) -> CGPoint { CGPoint(x: o[i], y: o[i + 1]) }
        let current = path.currentPoint ?? .zero
        var quadControl: CGPoint?
        let op0 = token.count >= 1 ? token[0] : 0
        let name: UInt16 = token.count == 1 ? UInt16(op0) : (token.count == 2 ? UInt16(op0) << 8 | UInt16(token[1]) : 0)
        switch (name, o.count) {
        case (0x6D, 2): path.move(to: pt(0))                                           // m
        case (0x6C, 2): path.addLine(to: pt(0))                                        // l
        case (0x71, 4): path.addQuadCurve(to: pt(2), control: pt(0)); quadControl = pt(0)  // q
        case (0x74, 2):                                                                // t
            let c = lastQuadControl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
            path.addQuadCurve(to: pt(0), control: c)
            quadControl = c
        case (0x63, 6): path.addCurve(to: pt(4), control1: pt(0), control2: pt(2))     // c
        case (0x76, 4): path.addCurve(to: pt(2), control1: current, control2: pt(0))   // v
        case (0x79, 4): path.addCurve(to: pt(2), control1: pt(0), control2: pt(2))     // y
        case (0x7265, 4): path.addRect(CGRect(x: o[0], y: o[1], width: o[2], height: o[3]))  // re
        case (0x68, 0): path.closeSubpath()                                            // h
        default: return false
        }
        lastQuadControl = quadControl
        return true
    }
}
