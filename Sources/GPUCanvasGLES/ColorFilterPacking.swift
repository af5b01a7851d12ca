// The packed row of a colour filter chain, as color_filter.glsl reads it (the arithmetic is
// `Lowering/ColorFilters.swift`).

extension ColorFilterFormulas {
    /// The GPU's row (`color_filter.glsl`): texel 0 (step count, 0, 0, 0), then six texels per step: (kind,
    /// space, threshold min, threshold max), rows R, G, B, A (their first four entries), and the offsets
    /// (r5, g5, b5, a5) or, for a threshold, its premultiplied colour.
    static func packedTexels(_ steps: [ColorFilterStep]) -> [SIMD4<Float>] {
        var t: [SIMD4<Float>] = [SIMD4(Float(steps.count), 0, 0, 0)]
        for s in steps {
            let m = s.matrix
            t.append(SIMD4(Float(s.kind.rawValue), Float(s.space.rawValue), s.thresholdMin, s.thresholdMax))
            for r in 0 ..< 4 { t.append(SIMD4(m[r * 5], m[r * 5 + 1], m[r * 5 + 2], m[r * 5 + 3])) }
            t.append(s.kind == .threshold ? s.thresholdColor : SIMD4(m[4], m[9], m[14], m[19]))
        }
        return t
    }
}
