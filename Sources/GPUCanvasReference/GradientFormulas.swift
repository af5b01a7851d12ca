// The CPU reference's evaluation of a gradient paint (`Lowering/GradientPaint.swift`, whose design note
// explains the device-space form): the parameter t at a pixel centre, the spread and the stop colour, in
// Double, straight from the definitions.

extension GradientPaint {
    /// t before the spread, or nil where the gradient is undefined (outside a two-point radial gradient's cone,
    /// everywhere for equal circles) and paints nothing.
    ///
    /// Linear (0, 0)→(10, 0) at (2.5, 7) → 0.25; concentric radial centre (0, 0), radii 10→20 at (15, 0) →
    /// 0.5; conic centre (0, 0), angle 0 at (0, 5) (straight down on screen) → 0.25.
    package func parameter(at devicePoint: SIMD2<Double>) -> Float? {
        guard let t = rawParameter(at: devicePoint) else { return nil }
        if case .conic = geometry {
            let f = Float(t)
            return f >= 1 ? 0 : f  // a Double just below 1 can round up to the seam; the seam is 0
        }
        return Float(t)
    }

    /// The premultiplied working-space colour at a device point (transparent where t is undefined).
    ///
    /// Linear (0, 0)→(10, 0), stops red at 0 and blue (alpha 0.5) at 1, at (5, 0) → straight
    /// (0.5, 0, 0.5, 0.75) → premultiplied (0.375, 0, 0.375, 0.75).
    package func color(at devicePoint: SIMD2<Double>) -> SIMD4<Float> {
        precondition(!stops.isEmpty, "a gradient needs at least one stop")
        if isDegenerateLinear { return finish(stops[stops.count - 1].color) }
        guard let t = rawParameter(at: devicePoint) else { return .zero }
        var ts = Float(Self.spread(t, spread))
        if case .conic = geometry, ts >= 1 { ts = 0 }
        return finish(Self.stopColor(stops, at: ts))
    }

    /// t in Double, before the spread.
    private func rawParameter(at p: SIMD2<Double>) -> Double? {
        let q = gradientPoint(p)
        switch geometry {
        case .linear(let s, let e):
            let dir = e - s, len2 = Self.dot(dir, dir)
            guard len2 != 0 else { return 1 }
            return Self.dot(q - s, dir) / len2
        case .radial(let c0, let r0, let c1, let r1):
            if c0 == c1 {
                guard r0 != r1 else { return nil }
                let v = q - c0
                return ((v.x * v.x + v.y * v.y).squareRoot() - r0) / (r1 - r0)
            }
            let cd = c1 - c0, dr = r1 - r0, v = q - c0
            return Self.twoPointRoot(a: Self.dot(cd, cd) - dr * dr, b: Self.dot(v, cd) + r0 * dr,
                                     c: Self.dot(v, v) - r0 * r0, r0: r0, dr: dr)
        case .conic(let c, let angle):
            let v = q - c
            let theta = (v.x == 0 && v.y == 0) ? 0 : atan2(v.y, v.x)
            let t = (theta - angle) / (2 * Double.pi)
            return t - t.rounded(.down)
        }
    }

    /// The largest root t of a·t² − 2b·t + c = 0 with r0 + t·dr ≥ 0, or nil: the two-point conical gradient's
    /// parameter with a = |Δc|² − Δr², b = v·Δc + r0·Δr, c = |v|² − r0² (v from the start centre). The roots
    /// are q/a and c/q with q = b + sign(b)·√(b² − ac), which never subtracts nearly equal numbers.
    ///
    /// Circles of radius 1 (r0 = 1, dr = 0) centred at (0, 0) and (1, 0), the point (0, 0): a = 1, b = 0,
    /// c = −1 → roots ±1 → 1 (the circle centred at (1, 0) passes through the point).
    package static func twoPointRoot(a: Double, b: Double, c: Double, r0: Double, dr: Double) -> Double? {
        func ok(_ t: Double) -> Bool { r0 + t * dr >= 0 }
        if a == 0 {
            guard b != 0 else { return nil }
            let t = c / (2 * b)
            return ok(t) ? t : nil
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return nil }
        let q = b >= 0 ? b + disc.squareRoot() : b - disc.squareRoot()
        let t1 = q / a, t2 = q != 0 ? c / q : t1
        let hi = max(t1, t2), lo = min(t1, t2)
        if ok(hi) { return hi }
        if ok(lo) { return lo }
        return nil
    }

    /// The spread applied to t: pad clamps to [0, 1], repeat is t − ⌊t⌋, mirror a triangle wave of period 2.
    ///
    /// `spread(1.25, .pad)` → 1, `spread(1.25, .repeat)` → 0.25, `spread(1.25, .mirror)` → 0.75,
    /// `spread(−0.25, .mirror)` → 0.25.
    package static func spread(_ t: Double, _ s: Spread) -> Double {
        switch s {
        case .pad: return min(max(t, 0), 1)
        case .repeat: return t - t.rounded(.down)
        case .mirror:
            let m = t - 2 * (t * 0.5).rounded(.down)
            return 1 - abs(m - 1)
        }
    }

    /// The straight colour at t ∈ [0, 1]: the first colour before the first location, the last after the last,
    /// linear interpolation between neighbours; at equal locations the later stop wins from that location on
    /// (a hard edge). Found by binary search for the last stop with location ≤ t, as the shader does.
    ///
    /// Stops (0, red), (0.5, red), (0.5, blue), (1, blue): t = 0.49 → red, t = 0.5 → blue.
    package static func stopColor(_ stops: [Stop], at t: Float) -> SIMD4<Float> {
        var lo = -1, hi = stops.count
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if stops[mid].location <= t { lo = mid } else { hi = mid }
        }
        if lo < 0 { return stops[0].color }
        if lo == stops.count - 1 { return stops[lo].color }
        let a = stops[lo], b = stops[lo + 1]
        let f = (t - a.location) / (b.location - a.location)
        return a.color + (b.color - a.color) * f
    }

    /// Straight interpolated colour → premultiplied working-space colour (sRGB-encoding it first for
    /// `.linearColor` in an encoded working space).
    private func finish(_ c: SIMD4<Float>) -> SIMD4<Float> {
        var rgb = SIMD3(c.x, c.y, c.z)
        if interpolatesOklab { rgb = Oklab.toLinearSRGB(rgb) }
        if (interpolatesLinearLight || interpolatesOklab) && workingSpaceIsEncoded {
            rgb = SIMD3(Float(ColorTransfer.encode(Double(rgb.x))), Float(ColorTransfer.encode(Double(rgb.y))),
                        Float(ColorTransfer.encode(Double(rgb.z))))
        }
        return SIMD4(rgb * c.w, c.w)
    }
}
