// Gradient paints in device space, the form both backends draw: the geometry, the map from device pixels,
// the stops, and the packed row of texels a GPU shader reads (the lowering checks it too). The CPU
// reference's evaluation is `Reference/GradientFormulas.swift`.
//
// Design note. A gradient is described once, already reduced to device space: the geometry in its own
// gradient space plus the map from device pixels into that space (the inverse of the draw's user→device
// transform). The CPU reference evaluates it in Double, straight from the definitions (`parameter(at:)`,
// `color(at:)`); the GLSL copy (`Sources/Shaders/programs/include/gradient.glsl`) evaluates it in float from
// `packedTexels()`, and `FormulaGPUAgreementTests` compares the two pixel by pixel on llvmpipe.
//
// Float is the hard part. A 16384-px canvas's pixel centres are exact in float, but t = f(M·p + m) evaluated
// naively in float loses up to ~2⁻²⁴ × (the largest intermediate), and the intermediates reach 16384 × |∇t|
// and beyond (a translation of 10⁶ px, a gradient repeated a thousand times). So the CPU packs what the shader
// needs *relative to an origin o*: an integer device point in [0, 16384]² near where the gradient's numbers
// are small (for linear gradients a point on, or nearest to, the t = 0 line; for radial and conic ones the
// device image of the centre, clamped to the box). Everything large is computed in Double on the CPU:
//
// • Linear: t(p) = t_o + g·(p − o). g is split into g_hi (8 significant bits) + g_lo, so g_hi·(p − o) is an
//   exact float product (p − o is a half-integer of at most 16 bits), and for repeat / mirror the shader
//   reduces each exact product modulo 2 (exactly) before adding; t_o is reduced modulo 2 on the CPU.
// • Radial and conic: the gradient-space vector from the centre, v = v_o + M·(p − o), with M split the same
//   way and v_o = M·o + m − centre in Double. The concentric radius difference |v| − r0 is computed as
//   (|v|² − r0²)/(|v| + r0) with |v|² − r0² = k + 2·v_o·w + w·w, k = |v_o|² − r0² precomputed in Double
//   (w = M·(p − o)), so a ring of radius 10⁶ px crossing the canvas does not cancel 10⁶-sized floats. The
//   two-point quadratic uses the same k and b = b_o + w·(c1 − c0), and the cancellation-free root pair
//   q/a, c/q with q = b + sign(b)·√(b² − a·c); the CPU reference solves it the same stable way in Double.
//
// The bound. u = 2⁻²⁴; a first-order count of the roundings in the shader's order of operations; pixel
// centres and o lie in [0, 16384]², so a pixel is at most D = 23 170 px from o; |∇t| is t per device px and
// |∇t|₁ = |∂t/∂x| + |∂t/∂y|. Measured values are llvmpipe's, from FormulaGPUAgreementTests.
// • linear, every spread: |δt| ≤ u·(16 + 258·|∇t|₁), wherever the pixel and however far away the gradient
//   starts. ≤ 1/256 for |∇t|₁ ≤ 254 per px, i.e. every ramp longer than 1/180 px. (t ≈ 5·10⁵ at the far
//   corner, 2.1 px period: measured 1.3·10⁻⁶; adding the products without reducing them first: 5·10⁻⁴.)
// • concentric radial: |δt| ≲ u·(13·|t| + 12·D·|∇t|). With pad only |t| ≤ 2 matters, so ≤ 1/256 for every
//   ring whose 0→1 ramp is at least 4.2 px wide, anywhere on the canvas and at any radius (radius 4·10⁶ px,
//   40 px ramp: bound 4.2·10⁻⁴, measured 6·10⁻⁵, and 6·10⁻³ for |v| − r0 taken directly); a narrower ring
//   is off by at most 12·u·D ≈ 0.017 px of position. With repeat / mirror |t| grows with the distance: an
//   8 px period across the whole canvas has bound 4.3·10⁻³, measured 2.7·10⁻⁴.
// • conic: |δt| ≲ (3u + (3u·|v_o| + 128u·σ)/|v|)/(2π) + ε_atan/(2π), σ the gradient units per px and |v|
//   the pixel's distance from the centre: under 10⁻⁶ plus the driver's atan error (GLSL ES sets no bound on
//   it) from a pixel away from the centre on; t is an angle, it does not grow. Measured 1.7·10⁻⁶.
// • two-point radial: the concentric errors feed a, b and c; away from the cone's edge the error is of the
//   concentric order (colour differences measured ≤ 1.3·10⁻⁵), but where b² − a·c is within rounding of 0 the GPU and the CPU
//   may disagree on whether the pixel is inside the cone at all (a discontinuity, not an error in t).
// Each adds the colour error |δt|·max|Δcolour/Δlocation| between neighbouring stops, and at a hard stop (or
// a repeat seam) a pixel centre within |δt| of the edge may take either colour.

/// A gradient paint already in device space (see the design note above).
package struct GradientPaint: Equatable, Sendable {
    package enum Geometry: Equatable, Sendable {
        /// t is the projection onto start→end: 0 at `start`, 1 at `end`.
        case linear(start: SIMD2<Double>, end: SIMD2<Double>)
        /// The two-point conical gradient (HTML canvas, Skia): the largest t with r(t) ≥ 0 on the circles
        /// c(t) = c0 + t·(c1 − c0), r(t) = r0 + t·(r1 − r0) that pass through the point. Concentric when the
        /// centres are equal: t = (|p − c| − r0)/(r1 − r0).
        case radial(startCenter: SIMD2<Double>, startRadius: Double, endCenter: SIMD2<Double>, endRadius: Double)
        /// t is the angle from `angle` (radians, from +x), increasing clockwise on a y-down screen, in turns:
        /// one full turn, t ∈ [0, 1). Measured in gradient space, so a mirroring draw transform makes it turn
        /// anticlockwise on screen. At the centre itself the angle is taken as 0.
        case conic(center: SIMD2<Double>, angle: Double)
    }

    /// How t outside [0, 1] maps back into it: clamp, saw-tooth (t − ⌊t⌋), triangle wave.
    package enum Spread: Equatable, Sendable { case pad, `repeat`, mirror }

    /// A colour at a location in [0, 1]; the colour is straight (not premultiplied) RGBA in the
    /// interpolation space.
    package struct Stop: Equatable, Sendable {
        package var location: Float
        package var color: SIMD4<Float>
        package init(location: Float, color: SIMD4<Float>) { self.location = location; self.color = color }
    }

    /// In gradient space.
    package var geometry: Geometry
    /// Maps a device pixel centre into gradient space (CG row-vector convention): the inverse of the draw's
    /// user→device transform.
    package var gradientFromDevice: CGAffineTransform
    /// Sorted by location; 1…`maxStops` of them (the caller ensures both).
    package var stops: [Stop]
    package var spread: Spread
    /// `.linearColor`: the stops are linear light, and the interpolated colour is encoded with the sRGB
    /// transfer curve before premultiplying when `workingSpaceIsEncoded`. In every other combination the
    /// stops are already in the working space and no conversion happens.
    package var interpolatesLinearLight: Bool
    /// `Gradient.ColorSpace.perceptual`: the stops are Oklab (L, a, b) and the interpolated colour is turned back
    /// into linear sRGB (then encoded when `workingSpaceIsEncoded`) before premultiplying.
    package var interpolatesOklab = false
    /// True for the `.nonLinear` colour mode (sRGB-encoded working space).
    package var workingSpaceIsEncoded: Bool

    /// The most stops a packed row carries (a row is at most 6 + 256 + 64 = 326 texels).
    package static let maxStops = 256

    package init(geometry: Geometry, gradientFromDevice: CGAffineTransform = .identity, stops: [Stop],
         spread: Spread = .pad, interpolatesLinearLight: Bool = false, workingSpaceIsEncoded: Bool = true) {
        self.geometry = geometry
        self.gradientFromDevice = gradientFromDevice
        self.stops = stops
        self.spread = spread
        self.interpolatesLinearLight = interpolatesLinearLight
        self.workingSpaceIsEncoded = workingSpaceIsEncoded
    }

    /// The gradient-space point of a device point.
    ///
    /// With `gradientFromDevice` = translation (−10, 0): device (10.5, 3.5) → (0.5, 3.5).
    package func gradientPoint(_ p: SIMD2<Double>) -> SIMD2<Double> {
        let m = gradientFromDevice
        return SIMD2(Double(m.a) * p.x + Double(m.c) * p.y + Double(m.tx),
                     Double(m.b) * p.x + Double(m.d) * p.y + Double(m.ty))
    }

    /// True for a linear gradient whose start and end coincide: t is undefined, and the whole plane takes the
    /// last stop's colour whatever the spread (`parameter` reports 1 there).
    package var isDegenerateLinear: Bool {
        if case .linear(let s, let e) = geometry { return Self.dot(e - s, e - s) == 0 }
        return false
    }

    package static func dot(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.x + a.y * b.y }

    // MARK: Packing for the GPU

    /// Texel indices and codes of the packed row, shared with gradient.glsl (which spells them out again).
    package enum Packed {
        package static let headerTexels = 6
        package static let kindLinear: Float = 0, kindConcentric: Float = 1, kindTwoPoint: Float = 2, kindConic: Float = 3
        /// Every pixel takes the last stop's colour (a degenerate linear gradient).
        package static let kindSolidLast: Float = 4
        /// Nothing is painted (a radial gradient between two equal circles).
        package static let kindNothing: Float = 5
        /// flags bit 0: sRGB-encode the interpolated colour before premultiplying.
        package static let flagEncode: Float = 1
        /// flags bit 1: the stops are Oklab, turned into linear sRGB after interpolating.
        package static let flagOklab: Float = 2
        /// Pixel centres and the origin lie in [0, boxSide]²: what the precision argument assumes.
        package static let boxSide = Double(maxPixelDimension)
    }

    /// The row of RGBA32F texels `gradientColor()` in gradient.glsl reads (texel index: contents):
    ///
    ///     0        kind, spread (0 pad, 1 repeat, 2 mirror), flags, stop count n
    ///     1        o.x, o.y (the integer origin), then linear: t_o, 0; radial / conic: v_o.x, v_o.y
    ///     2        linear: g_hi.x, g_hi.y, g_lo.x, g_lo.y;  radial / conic: M_hi = a, b, c, d
    ///     3        linear: 0;                               radial / conic: M_lo = a, b, c, d
    ///     4        concentric: r0, r1 − r0, k, 0;  two-point: Δc.x, Δc.y, r0, Δr;  conic: angle in turns, 0, 0, 0
    ///     5        two-point: a, b_o, k, 0;  otherwise 0
    ///     6 …      n texels of stop colour (straight RGBA)
    ///     6 + n …  ⌈n/4⌉ texels of stop locations, four to a texel
    ///
    /// kind: 0 linear, 1 concentric radial, 2 two-point radial, 3 conic, 4 solid last stop (degenerate
    /// linear), 5 nothing (equal circles). The meaning of o, t_o, g, v_o, M, k, b_o is in the design note at the
    /// top of this file. At most 326 texels; more than `maxStops` stops is a precondition failure (the caller
    /// merges or refuses them first).
    ///
    /// Linear (0, 0)→(4, 0), identity map, two stops → 9 texels; texel 0 = (0, 0, 0, 2), texel 2 =
    /// (0.25, 0, 0, 0).
    package func packedTexels() -> [SIMD4<Float>] {
        let n = stops.count
        precondition(n >= 1 && n <= Self.maxStops, "a packed gradient carries 1…\(Self.maxStops) stops, not \(n)")
        let spreadCode: Float = spread == .pad ? 0 : spread == .repeat ? 1 : 2
        let flags: Float = ((interpolatesLinearLight || interpolatesOklab) && workingSpaceIsEncoded ? Packed.flagEncode : 0)
            + (interpolatesOklab ? Packed.flagOklab : 0)
        var kind: Float
        var texels = [SIMD4<Float>](repeating: .zero, count: Packed.headerTexels)
        let m = gradientFromDevice
        let (a, b, c, d) = (Double(m.a), Double(m.b), Double(m.c), Double(m.d))

        /// Header texels 1–3 for the radial and conic kinds: o near `key`'s device image, v_o = q(o) − key, M.
        func centred(on key: SIMD2<Double>) -> (o: SIMD2<Double>, vo: SIMD2<Double>) {
            let o = origin(near: key)
            let vo = gradientPoint(o) - key
            texels[1] = SIMD4(Float(o.x), Float(o.y), Float(vo.x), Float(vo.y))
            let (ah, al) = Self.split(a), (bh, bl) = Self.split(b), (ch, cl) = Self.split(c), (dh, dl) = Self.split(d)
            texels[2] = SIMD4(ah, bh, ch, dh)
            texels[3] = SIMD4(al, bl, cl, dl)
            return (o, vo)
        }

        switch geometry {
        case .linear(let s, let e):
            let dir = e - s, len2 = Self.dot(dir, dir)
            if len2 == 0 { kind = Packed.kindSolidLast; break }
            kind = Packed.kindLinear
            let g = SIMD2((a * dir.x + b * dir.y) / len2, (c * dir.x + d * dir.y) / len2)
            let o = linearOrigin(gradient: g)
            var to = Self.dot(gradientPoint(o) - s, dir) / len2
            if spread != .pad { to -= 2 * (to * 0.5).rounded(.down) }
            let (gxh, gxl) = Self.split(g.x), (gyh, gyl) = Self.split(g.y)
            texels[1] = SIMD4(Float(o.x), Float(o.y), Float(to), 0)
            texels[2] = SIMD4(gxh, gyh, gxl, gyl)
        case .radial(let c0, let r0, let c1, let r1):
            if c0 == c1 {
                if r0 == r1 { kind = Packed.kindNothing; break }
                kind = Packed.kindConcentric
                let (_, vo) = centred(on: c0)
                texels[4] = SIMD4(Float(r0), Float(r1 - r0), Float(Self.dot(vo, vo) - r0 * r0), 0)
            } else {
                kind = Packed.kindTwoPoint
                let (_, vo) = centred(on: c0)
                let cd = c1 - c0, dr = r1 - r0
                texels[4] = SIMD4(Float(cd.x), Float(cd.y), Float(r0), Float(dr))
                texels[5] = SIMD4(Float(Self.dot(cd, cd) - dr * dr), Float(Self.dot(vo, cd) + r0 * dr),
                                  Float(Self.dot(vo, vo) - r0 * r0), 0)
            }
        case .conic(let center, let angle):
            kind = Packed.kindConic
            _ = centred(on: center)
            let turns = angle / (2 * Double.pi)
            var f = Float(turns - turns.rounded(.down))
            if f >= 1 { f = 0 }
            texels[4] = SIMD4(f, 0, 0, 0)
        }
        texels[0] = SIMD4(kind, spreadCode, flags, Float(n))
        texels += stops.map(\.color)
        for i in stride(from: 0, to: n, by: 4) {
            var l = SIMD4<Float>.zero
            for j in 0 ..< min(4, n - i) { l[j] = stops[i + j].location }
            texels.append(l)
        }
        return texels
    }

    /// `x` as hi + lo floats with hi of 8 significant bits, so hi·h is exact in float for any half-integer
    /// |h| ≤ 16384 (16 significant bits); lo carries the next 24 bits.
    ///
    /// `split(1/3)` → (0.33203125, 0.0013020834).
    package static func split(_ x: Double) -> (hi: Float, lo: Float) {
        let f = Float(x)
        guard f.isFinite else { return (f, 0) }
        let hi = Float(bitPattern: f.bitPattern & 0xFFFF_0000)
        return (hi, Float(x - Double(hi)))
    }

    /// The integer device point in the box nearest `key`'s device image (the origin for radial and conic
    /// kinds); (0, 0) when the map is singular.
    private func origin(near key: SIMD2<Double>) -> SIMD2<Double> {
        let m = gradientFromDevice
        let det = Double(m.a) * Double(m.d) - Double(m.b) * Double(m.c)
        guard det != 0, det.isFinite else { return .zero }
        let inv = m.inverted()
        let p = SIMD2(Double(inv.a) * key.x + Double(inv.c) * key.y + Double(inv.tx),
                      Double(inv.b) * key.x + Double(inv.d) * key.y + Double(inv.ty))
        return Self.clampToBox(p)
    }

    /// The origin of a linear gradient: an integer point of the box on its t = 0 line when the line crosses the
    /// box (then |t_o| ≤ |∇t|₁/2), else the box corner where |t| is least.
    private func linearOrigin(gradient g: SIMD2<Double>) -> SIMD2<Double> {
        let s = Packed.boxSide
        let t0: Double
        if case .linear(let start, let end) = geometry {
            let dir = end - start
            t0 = Self.dot(gradientPoint(.zero) - start, dir) / Self.dot(dir, dir)
        } else { return .zero }
        let corners = [SIMD2<Double>(0, 0), SIMD2(s, 0), SIMD2(0, s), SIMD2(s, s)]
        let values = corners.map { t0 + g.x * $0.x + g.y * $0.y }
        let iMin = values.indices.min { values[$0] < values[$1] }!
        let iMax = values.indices.max { values[$0] < values[$1] }!
        if values[iMin] <= 0 && values[iMax] >= 0 && values[iMax] > values[iMin] {
            let lambda = -values[iMin] / (values[iMax] - values[iMin])
            return Self.clampToBox(corners[iMin] + lambda * (corners[iMax] - corners[iMin]))
        }
        let iNear = values.indices.min { abs(values[$0]) < abs(values[$1]) }!
        return corners[iNear]
    }

    /// Rounded to integers and clamped to [0, boxSide]²; a non-finite coordinate becomes 0.
    private static func clampToBox(_ p: SIMD2<Double>) -> SIMD2<Double> {
        func one(_ v: Double) -> Double { v.isFinite ? min(max(v.rounded(), 0), Packed.boxSide) : 0 }
        return SIMD2(one(p.x), one(p.y))
    }
}

/// Oklab (Björn Ottosson, 2020): the perceptual space `Gradient.ColorSpace.perceptual` interpolates in. The same
/// two matrices and cube / cube root are in gradient.glsl.
package enum Oklab {
    /// Linear sRGB → Oklab (L, a, b). White (1, 1, 1) → (1, 0, 0).
    package static func fromLinearSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = 0.4122214708 * c.x + 0.5363325363 * c.y + 0.0514459929 * c.z
        let m = 0.2119034982 * c.x + 0.6806995451 * c.y + 0.1073969566 * c.z
        let s = 0.0883024619 * c.x + 0.2817188376 * c.y + 0.6299787005 * c.z
        let l3 = Float(cbrt(Double(l))), m3 = Float(cbrt(Double(m))), s3 = Float(cbrt(Double(s)))
        return SIMD3(0.2104542553 * l3 + 0.7936177850 * m3 - 0.0040720468 * s3,
                     1.9779984951 * l3 - 2.4285922050 * m3 + 0.4505937099 * s3,
                     0.0259040371 * l3 + 0.7827717662 * m3 - 0.8086757660 * s3)
    }

    /// Oklab → linear sRGB.
    package static func toLinearSRGB(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l3 = c.x + 0.3963377774 * c.y + 0.2158037573 * c.z
        let m3 = c.x - 0.1055613458 * c.y - 0.0638541728 * c.z
        let s3 = c.x - 0.0894841775 * c.y - 1.2914855480 * c.z
        let l = l3 * l3 * l3, m = m3 * m3 * m3, s = s3 * s3 * s3
        return SIMD3(4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                     -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                     -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }
}
