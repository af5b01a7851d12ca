// Comparing two renderings: the numbers of the project's quality bars (docs/DESIGN-NOTES.md) and a picture of where
// they differ. Used by the conformance harness and `canvas-gl compare`.

/// How far apart two images are, channel by channel on premultiplied RGBA8.
///
/// ```swift
/// let d = glImage.difference(from: referenceImage)
/// d.maxDiff      // 3: the largest single-channel difference
/// d.over2        // 0.0004: 0.04 % of pixels have a channel off by more than 2
/// d.meetsDefaultBar   // over2 ≤ 0.1 % and maxDiff ≤ 8
/// ```
public struct ImageDifference: Sendable, CustomStringConvertible {
    /// Width and height compared: the larger of the two images in each direction.
    public let width: Int
    public let height: Int
    /// False when the images' sizes differ; pixels that only one image has then count as off by 255 in
    /// every channel, so no bar can pass.
    public let sameSize: Bool
    /// The largest difference of any channel of any pixel (0…255).
    public let maxDiff: Int
    /// Number of pixels with some channel off by more than 2.
    public let pixelsOver2: Int
    /// `pixelsOver2` as a fraction of all pixels (0…1).
    public let over2: Double
    /// Mean absolute channel difference over all channels of all pixels (0…255).
    public let meanAbsDiff: Double
    /// Peak signal-to-noise ratio in dB over all channels: 10·log10(255² / mean squared difference);
    /// `.infinity` for identical images.
    public let psnr: Double
    /// Where they differ, opaque, `width × height`: pixels that match exactly show the first image's
    /// brightness dimmed to a quarter (for orientation); pixels off by 1 or 2 are blue; pixels off by more
    /// are red, brighter for larger differences (128 + the difference, capped at 255); pixels only one
    /// image has are magenta.
    public let diffImage: RasterImage

    /// The project's default conformance bar: over2 ≤ 0.1 % and maxDiff ≤ 8.
    public var meetsDefaultBar: Bool { meets(maxDiff: 8, over2: 0.001) }

    /// True when both numbers are within the given bar (and the sizes match).
    public func meets(maxDiff limit: Int, over2 fraction: Double) -> Bool {
        sameSize && maxDiff <= limit && over2 <= fraction
    }

    public var description: String {
        let p = psnr.isInfinite ? "inf" : String(format: "%.2f", psnr)
        return "maxDiff \(maxDiff), over2 \(String(format: "%.4f", over2 * 100))% (\(pixelsOver2) px), "
            + "meanAbsDiff \(String(format: "%.4f", meanAbsDiff)), PSNR \(p) dB"
            + (sameSize ? "" : " (sizes differ)")
    }
}

extension RasterImage {
    /// Compares `self` with `other` channel by channel. Images of different sizes compare over the larger
    /// extent, the missing pixels counting as maximally different.
    ///
    /// Two 1×1 images (10, 20, 30, 255) and (13, 20, 30, 255): maxDiff 3, over2 1.0, meanAbsDiff 0.75.
    public func difference(from other: RasterImage) -> ImageDifference {
        let w = max(width, other.width), h = max(height, other.height)
        let sameSize = width == other.width && height == other.height
        var diff = [UInt8](repeating: 0, count: w * h * 4)
        var maxDiff = 0, over2 = 0
        var sumAbs = 0, sumSquares = 0
        pixels.withUnsafeBufferPointer { a in
            other.pixels.withUnsafeBufferPointer { b in
                diff.withUnsafeMutableBufferPointer { out in
                    for y in 0 ..< h {
                        for x in 0 ..< w {
                            let o = (y * w + x) * 4
                            guard x < width, y < height, x < other.width, y < other.height else {
                                maxDiff = 255
                                over2 += 1
                                sumAbs += 4 * 255
                                sumSquares += 4 * 255 * 255
                                out[o] = 255; out[o + 1] = 0; out[o + 2] = 255; out[o + 3] = 255
                                continue
                            }
                            let ia = (y * width + x) * 4, ib = (y * other.width + x) * 4
                            var m = 0
                            for k in 0 ..< 4 {
                                let d = abs(Int(a[ia + k]) - Int(b[ib + k]))
                                m = max(m, d)
                                sumAbs += d
                                sumSquares += d * d
                            }
                            maxDiff = max(maxDiff, m)
                            if m > 2 { over2 += 1 }
                            if m == 0 {
                                // Rec. 601 luma of the premultiplied colour, dimmed to a quarter.
                                let luma = (299 * Int(a[ia]) + 587 * Int(a[ia + 1]) + 114 * Int(a[ia + 2])) / 1000
                                let g = UInt8(luma / 4)
                                out[o] = g; out[o + 1] = g; out[o + 2] = g
                            } else if m <= 2 {
                                out[o] = 0; out[o + 1] = 0; out[o + 2] = 255
                            } else {
                                out[o] = UInt8(min(255, 128 + m)); out[o + 1] = 0; out[o + 2] = 0
                            }
                            out[o + 3] = 255
                        }
                    }
                }
            }
        }
        let pixelCount = w * h
        let channels = Double(pixelCount * 4)
        let mse = pixelCount == 0 ? 0 : Double(sumSquares) / channels
        return ImageDifference(
            width: w, height: h, sameSize: sameSize, maxDiff: maxDiff, pixelsOver2: over2,
            over2: pixelCount == 0 ? 0 : Double(over2) / Double(pixelCount),
            meanAbsDiff: pixelCount == 0 ? 0 : Double(sumAbs) / channels,
            psnr: mse == 0 ? .infinity : 10 * log10(255 * 255 / mse),
            diffImage: RasterImage(width: w, height: h, pixels: diff))
    }
}
