// The limit image sampling (Reference/ImageSampling.swift, image.glsl) puts on nearest-sampled placements:
// the lowering refuses one whose texel edges float cannot place where the reference's Double does.

import Foundation

extension LoweredImage {
    /// The most a nearest-sampled texel edge may move (device px) through the GPU's float image coordinates.
    /// Measured on llvmpipe with a tiled 2 × 2 image (coordinates up to 2 texels): edges first land on the
    /// other side of a pixel centre from the reference's at 10⁶ px per texel (bound 0.12 px), never at 5·10⁵
    /// (0.06 px); 1/32 px keeps a margin of 2 to 4.
    package static let maximumNearestEdgeShift = 1.0 / 32

    /// Refuses a nearest-sampled placement whose texel edges float cannot put within
    /// `maximumNearestEdgeShift` of where the reference (Double) puts them: 2⁻²⁴ × the largest image coordinate
    /// an edge has (the source rect's corners for a tiled image, the image's size otherwise) × the device pixels
    /// per image pixel. A 2 × 2 tile magnified 5·10⁶-fold → `invalid geometry: draw #0: image is magnified
    /// 5e+06-fold with interpolation(.none): …`. Bilinear sampling is continuous and needs no limit.
    package static func checkNearestPlacement(toDevice: CGAffineTransform, sourceRect: CGRect, tiled: Bool, nearest: Bool,
                                      size: (Int, Int), drawNumber: Int) throws {
        guard nearest else { return }
        let magnification = GradientResolution.largestStretch(toDevice)
        let coordinate = tiled
            ? [sourceRect.minX, sourceRect.maxX, sourceRect.minY, sourceRect.maxY].map { abs(Double($0)) }.max()!
            : Double(max(size.0, size.1))
        let shift = magnification * max(coordinate, 1) / 16_777_216
        if shift > maximumNearestEdgeShift {
            throw RenderError.invalidGeometry("draw #\(drawNumber): image is magnified \(fmt(CGFloat(magnification)))-fold with interpolation(.none): float places its texel edges \(fmt(CGFloat(shift))) px off, more than \(fmt(CGFloat(maximumNearestEdgeShift))) px")
        }
    }
}
