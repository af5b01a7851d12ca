// The 8-bit output of a canvas that composites in linear light (`.linear`, `.extendedLinear`): premultiplied
// linear-light RGBA (half floats) → premultiplied sRGB-encoded RGBA8, the form `RasterImage` holds and PNG
// writes (after unpremultiplying). Both backends convert with this one function: it is the output format's
// definition, not rasterization.

package enum OutputEncoding {
    /// Premultiplied linear RGBA floats → premultiplied sRGB-encoded bytes: alpha clamped to 0…1, colour
    /// unpremultiplied, clamped to 0…1 (out-of-range `.extendedLinear` values end here: 8-bit output has no
    /// room for them), encoded with the sRGB transfer curve, premultiplied again and rounded.
    ///
    /// (0.5, 0.5, 0.5, 1) (mid linear grey) → (188, 188, 188, 255); (0.25, 0, 0, 0.5) → (94, 0, 0, 128).
    package static func encodeLinear(_ values: [Float]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: values.count)
        var i = 0
        while i + 3 < values.count {
            let a = min(max(values[i + 3], 0), 1)
            let ab = byte(a)
            out[i + 3] = ab
            if a > 0 {
                for k in 0 ..< 3 {
                    let straight = min(max(values[i + k] / a, 0), 1)
                    let encoded = Float(ColorTransfer.encode(Double(straight)))
                    out[i + k] = byte(encoded * Float(ab) / 255)
                }
            }
            i += 4
        }
        return out
    }

    /// A 0…1 value → the nearest byte, halves up.
    private static func byte(_ v: Float) -> UInt8 {
        let s = Double(v * 255) + 0.5
        guard s >= 1 else { return 0 }
        return s >= 255 ? 255 : UInt8(truncatingIfNeeded: Int(s))
    }
}
