// The reference compositor: blending a premultiplied source into a premultiplied RGBA8 target.
//
// For source-over (`sourceOver`, and `blend` with `.normal`) it mirrors what an RGBA8 GL framebuffer does
// with one draw: the source is paint × coverage × opacity in
// Float, rounded to the framebuffer's 8 bits (a fixed-point blender takes its source in the target's precision:
// llvmpipe's unorm8 blend does, and so does the raster atlas's baked colour), the destination is the stored
// 8-bit value read back as byte/255, the blend is `src + dst·(1 − src.a)` in Float, and the result is stored
// with one rounding to nearest.
//
// Why the source is rounded (issue #16, "stacked translucent draws drift 3–4 levels"): in 8-bit storage a
// translucent draw over a colour close to its own changes nothing once the change is under half a step, so a
// long stack of draws with alpha a settles anywhere within about ±0.5/a steps of its colour (±10 levels at
// alpha 0.05). Where it settles depends on the last bit of every source, so a reference that kept its source
// exact settled up to 15 levels away from the GPU on 60 stacked draws at alpha 0.1; rounding the source as the
// GPU does keeps them within 2 (Tests/GPUCanvasTests/FuzzDefectTests.swift). A source exactly half a step
// between two bytes still rounds either way with the last bit of its coverage.
//
// The other 27 modes (`blend`, through `BlendFormulas`) take the Float source as it is: the GPU blends them in
// the shader, in float, from the stored destination, and stores the result with one rounding.

package enum ReferenceCompositor {
    /// Blends one row of coverage into `pixels` (premultiplied RGBA8, `width` pixels per row): pixel
    /// `(x0 + i, y)` receives `paint × coverage[i] × opacity` source-over. Zero coverage leaves a pixel
    /// untouched.
    ///
    /// Paint rgba(1, 0, 0, 1), coverage 0.5, opacity 1 over (0, 0, 255, 255) → (128, 0, 127, 255): the source rounds to (128, 0, 0, 128) first.
    package static func sourceOver(row y: Int, x0: Int, coverage: UnsafeBufferPointer<Float>, paint: RGBA,
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
                let sr = unit[Int(store(paint.r * k))], sg = unit[Int(store(paint.g * k))]
                let sb = unit[Int(store(paint.b * k))], sa = unit[Int(store(paint.a * k))]
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
    /// `.normal`, source (1, 0, 0, 1), coverage 0.5 over (0, 0, 255, 255) → (128, 0, 127, 255): the source rounds to (128, 0, 0, 128) first.
    package static func blend(_ mode: GraphicsContext.BlendMode, source s: SIMD4<Float>, coverage c: Float,
                      into surface: inout ReferenceSurface, x: Int, y: Int) {
        let o = surface.offset(x: x, y: y)
        if surface.isHalfFloat {
            // RGBA16F: a float blender takes the source as it is and stores the result as half floats.
            let d = SIMD4(surface.halfs[o], surface.halfs[o + 1], surface.halfs[o + 2], surface.halfs[o + 3])
            let k = s * c
            let r = mode == .normal ? k + d * (1 - k.w) : BlendFormulas.withCoverage(mode, source: s, destination: d, coverage: c)
            let h = r.roundedToHalf
            surface.halfs[o] = h.x; surface.halfs[o + 1] = h.y; surface.halfs[o + 2] = h.z; surface.halfs[o + 3] = h.w
            return
        }
        let unit = byteToUnit
        let d = SIMD4(unit[Int(surface.pixels[o])], unit[Int(surface.pixels[o + 1])], unit[Int(surface.pixels[o + 2])],
                      unit[Int(surface.pixels[o + 3])])
        let r: SIMD4<Float>
        if mode == .normal {
            // dst + c·(s + d·(1 − sa) − d), in the order an RGBA8 framebuffer computes src·c + dst·(1 − c·sa).
            let k0 = s * c
            let k = SIMD4(unit[Int(store(k0.x))], unit[Int(store(k0.y))], unit[Int(store(k0.z))], unit[Int(store(k0.w))])
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
    package static func store(_ v: Float) -> UInt8 {
        // 255·v is rounded once, in Float, as the blend's result; adding ½ in Double is then exact (a
        // Float's 24 bits plus ½ fit in 53), so truncating rounds that Float value to nearest, halves up,
        // without a call into libm.
        let s = Double(v * 255) + 0.5
        guard s >= 1 else { return 0 }  // also catches NaN
        return s >= 255 ? 255 : UInt8(truncatingIfNeeded: Int(s))
    }
}

extension SIMD4 where Scalar == Float {
    /// Each component rounded to the nearest Float16 (what an RGBA16F target stores).
    package var roundedToHalf: SIMD4<Float> {
        SIMD4(Float(Float16(x)), Float(Float16(y)), Float(Float16(z)), Float(Float16(w)))
    }
}
