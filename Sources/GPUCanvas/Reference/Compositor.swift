// The reference compositor: source-over of a solid premultiplied paint into a premultiplied RGBA8 target.
//
// It mirrors what an RGBA8 GL framebuffer does with one draw: the source is paint × coverage × opacity in
// Float, the destination is the stored 8-bit value read back as byte/255, the blend is
// `src + dst·(1 − src.a)` in Float, and the result is stored with a single rounding to nearest. No
// intermediate value (coverage, the scaled source) is quantised, so each draw costs exactly one rounding.

enum ReferenceCompositor {
    /// Blends one row of coverage into `pixels` (premultiplied RGBA8, `width` pixels per row): pixel
    /// `(x0 + i, y)` receives `paint × coverage[i] × opacity` source-over. Zero coverage leaves a pixel
    /// untouched.
    ///
    /// Paint rgba(1, 0, 0, 1), coverage 0.5, opacity 1 over (0, 0, 255, 255) → (128, 0, 128, 255).
    static func sourceOver(row y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, paint: RGBA,
                           opacity: Float, width: Int, pixels: UnsafeMutablePointer<UInt8>) {
        // Full coverage of an opaque source replaces the pixel: src + dst·0 is src, stored as is.
        let solid = paint.a * opacity >= 1
        let solidBytes = (store(paint.r * opacity), store(paint.g * opacity), store(paint.b * opacity),
                          store(paint.a * opacity))
        var p = pixels + (y * width + x0) * 4
        let unit = byteToUnit
        for c in coverage {
            if c >= 1 && solid {
                p[0] = solidBytes.0; p[1] = solidBytes.1; p[2] = solidBytes.2; p[3] = solidBytes.3
            } else if c > 0 {
                let k = c * opacity
                let sr = paint.r * k, sg = paint.g * k, sb = paint.b * k, sa = paint.a * k
                let keep = 1 - sa
                p[0] = store(sr + unit[Int(p[0])] * keep)
                p[1] = store(sg + unit[Int(p[1])] * keep)
                p[2] = store(sb + unit[Int(p[2])] * keep)
                p[3] = store(sa + unit[Int(p[3])] * keep)
            }
            p += 4
        }
    }

    /// Blends `source` (premultiplied) with `mode` into pixel (x, y) of `surface` where the shape covers
    /// `coverage`: result = dst + coverage · (blend(source, dst) − dst), stored with one rounding.
    ///
    /// `.normal`, source (1, 0, 0, 1), coverage 0.5 over (0, 0, 255, 255) → (128, 0, 128, 255).
    static func blend(_ mode: GraphicsContext.BlendMode, source s: SIMD4<Float>, coverage c: Float,
                      into surface: inout ReferenceSurface, x: Int, y: Int) {
        let o = surface.offset(x: x, y: y)
        let unit = byteToUnit
        let d = SIMD4(unit[Int(surface.pixels[o])], unit[Int(surface.pixels[o + 1])], unit[Int(surface.pixels[o + 2])],
                      unit[Int(surface.pixels[o + 3])])
        let r: SIMD4<Float>
        if mode == .normal {
            // dst + c·(s + d·(1 − sa) − d), in the order an RGBA8 framebuffer computes src·c + dst·(1 − c·sa).
            let k = s * c
            r = k + d * (1 - k.w)
        } else {
            r = BlendFormulas.withCoverage(mode, source: s, destination: d, coverage: c)
        }
        surface.pixels[o] = store(r.x)
        surface.pixels[o + 1] = store(r.y)
        surface.pixels[o + 2] = store(r.z)
        surface.pixels[o + 3] = store(r.w)
    }

    /// byte / 255 for every byte: the destination as an RGBA8 framebuffer reads it back.
    private static let byteToUnit: [Float] = (0 ... 255).map { Float($0) / 255 }

    /// A [0, 1] value → the nearest byte (halves round up), clamped; NaN stores 0.
    ///
    /// `store(0.5)` → 128 (127.5 rounds up); `store(1.2)` → 255.
    @inline(__always)
    static func store(_ v: Float) -> UInt8 {
        // 255·v is rounded once, in Float, as the blend's result; adding ½ in Double is then exact (a
        // Float's 24 bits plus ½ fit in 53), so truncating rounds that Float value to nearest, halves up,
        // without a call into libm.
        let s = Double(v * 255) + 0.5
        guard s >= 1 else { return 0 }  // also catches NaN
        return s >= 255 ? 255 : UInt8(truncatingIfNeeded: Int(s))
    }
}
