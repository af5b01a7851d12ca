// The parameters of an image paint as image.glsl reads them (the sampling rule is Reference/ImageSampling.swift).

extension LoweredImage {
    /// The five texels of parameters `image.glsl` reads (see its header).
    var packedTexels: [SIMD4<Float>] {
        let m = deviceToImage
        let flags = (tiled ? 1 : 0) | (nearest ? 2 : 0) | (tint != nil ? 4 : 0) | (decodesSRGB ? 8 : 0)
        let t = tint ?? .transparent
        return [SIMD4(Float(m.a), Float(m.b), Float(m.c), Float(m.d)),
                // A translation beyond ±10⁹ texels (finite in Double, perhaps not in Float) puts every pixel
                // of a canvas past the image's edge, as `color(at:)`'s clamp of the point does.
                SIMD4(Float(min(max(m.tx, -1e9), 1e9)), Float(min(max(m.ty, -1e9), 1e9)), Float(flags), 0),
                SIMD4(Float(sourceRect.minX), Float(sourceRect.minY), Float(sourceRect.width), Float(sourceRect.height)),
                SIMD4(t.r, t.g, t.b, t.a),
                SIMD4(Float(width), Float(height), 0, 0)]
    }

    /// The same parameters for a packable image copied into a shared texture at texel (x, y): the map moves
    /// by (x, y), the source rect is its region (so nearest sampling clamps inside it), and the size texel
    /// its far corner (the only use of the size is a clamp that the region's is tighter than).
    func packedTexels(at x: Int, _ y: Int) -> [SIMD4<Float>] {
        var moved = self
        moved.deviceToImage = deviceToImage.concatenating(CGAffineTransform(translationX: CGFloat(x), y: CGFloat(y)))
        moved.sourceRect = CGRect(x: x, y: y, width: width, height: height)
        var texels = moved.packedTexels
        texels[4] = SIMD4(Float(x + width), Float(y + height), 0, 0)
        return texels
    }
}
