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
        let inv255: Float = 1 / 255
        var p = pixels + (y * width + x0) * 4
        for c in coverage {
            if c > 0 {
                let k = c * opacity
                let sr = paint.r * k, sg = paint.g * k, sb = paint.b * k, sa = paint.a * k
                let keep = 1 - sa
                p[0] = store(sr + Float(p[0]) * inv255 * keep)
                p[1] = store(sg + Float(p[1]) * inv255 * keep)
                p[2] = store(sb + Float(p[2]) * inv255 * keep)
                p[3] = store(sa + Float(p[3]) * inv255 * keep)
            }
            p += 4
        }
    }

    /// A [0, 1] value → the nearest byte (halves away from zero), clamped; NaN stores 0.
    ///
    /// `store(0.5)` → 128 (127.5 rounds up); `store(1.2)` → 255.
    @inline(__always)
    static func store(_ v: Float) -> UInt8 {
        let s = (v * 255).rounded()
        guard s > 0 else { return 0 }  // also catches NaN
        return s >= 255 ? 255 : UInt8(s)
    }
}
