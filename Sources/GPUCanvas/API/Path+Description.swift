extension Path: CustomStringConvertible {
    /// Placeholder printer (the full grammar and parser are being written): `x y m`, `x y l`, … `h`.
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
}
