// Image sampling, the one rule both backends follow (the GPU's copy is Sources/Shaders/programs/include/
// image.glsl, in the same order of operations):
// - the sample point is the device pixel centre mapped into image pixel coordinates (texel i covers [i, i + 1));
// - a tiled image first wraps the point into its source rect;
// - nearest: the texel containing the point; bilinear: the four texels around it (centres at i + ½), weighted
//   by the point's fractional position, on premultiplied values;
// - texel indices are clamped to the source rect's whole texels (the image, for `draw(_:in:)`), or wrapped
//   into them for tiled images;
// - a template image is its alpha × the tint;
// - on a linear-light canvas each texel is decoded from sRGB (unpremultiplied, decoded, premultiplied) before
//   it is filtered.

extension LoweredImage {
    /// The premultiplied colour at device point `p` (a pixel centre).
    ///
    /// A 2×1 image (black, white), drawn 1:1 at the origin: at (1.0, 0.5), halfway between the texel centres,
    /// → grey 0.5.
    package func color(at p: SIMD2<Double>) -> SIMD4<Float> {
        let m = deviceToImage
        var x = Float(m.a * p.x + m.c * p.y + m.tx), y = Float(m.b * p.x + m.d * p.y + m.ty)
        let sx = Float(sourceRect.minX), sy = Float(sourceRect.minY)
        let sw = Float(sourceRect.width), sh = Float(sourceRect.height)
        let lo = (Int(sx.rounded(.down)), Int(sy.rounded(.down)))
        let n = (max(1, Int((sx + sw).rounded(.up)) - lo.0), max(1, Int((sy + sh).rounded(.up)) - lo.1))
        if tiled {
            x = sx + (x - sx) - sw * ((x - sx) / sw).rounded(.down)
            y = sy + (y - sy) - sh * ((y - sy) / sh).rounded(.down)
        }
        // Far outside the image every index clamps (or wraps) the same; keep the conversions to Int finite.
        x = x.isFinite ? min(max(x, -1e9), 1e9) : 0
        y = y.isFinite ? min(max(y, -1e9), 1e9) : 0
        func index(_ i: Int, _ lo: Int, _ n: Int) -> Int {
            if tiled {
                let k = i - lo
                return lo + k - n * Int((Float(k) / Float(n)).rounded(.down))
            }
            return min(max(i, lo), lo + n - 1)
        }
        func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
            let xi = min(max(index(i, lo.0, n.0), 0), pixels.width - 1)
            let yj = min(max(index(j, lo.1, n.1), 0), pixels.height - 1)
            let o = (yj * pixels.width + xi) * 4
            let t = SIMD4(Float(pixels.pixels[o]), Float(pixels.pixels[o + 1]), Float(pixels.pixels[o + 2]),
                          Float(pixels.pixels[o + 3])) / 255
            guard decodesSRGB, t.w > 0 else { return t }
            // Linear-light canvases: unpremultiply, decode, premultiply (before filtering).
            let d = SIMD3(Float(ColorTransfer.decode(Double(t.x / t.w))), Float(ColorTransfer.decode(Double(t.y / t.w))),
                          Float(ColorTransfer.decode(Double(t.z / t.w))))
            return SIMD4(d * t.w, t.w)
        }
        var c: SIMD4<Float>
        if nearest {
            c = texel(Int(x.rounded(.down)), Int(y.rounded(.down)))
        } else {
            let u = x - 0.5, v = y - 0.5
            let u0 = u.rounded(.down), v0 = v.rounded(.down)
            let fx = u - u0, fy = v - v0
            let i0 = Int(u0), j0 = Int(v0)
            let c00 = texel(i0, j0), c10 = texel(i0 + 1, j0), c01 = texel(i0, j0 + 1), c11 = texel(i0 + 1, j0 + 1)
            let top = c00 + (c10 - c00) * fx
            let bottom = c01 + (c11 - c01) * fx
            c = top + (bottom - top) * fy
        }
        if let t = tint { c = SIMD4(t.r, t.g, t.b, t.a) * c.w }
        return c
    }
}
