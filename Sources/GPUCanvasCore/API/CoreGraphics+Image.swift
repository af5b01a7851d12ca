// CoreGraphics' bitmap image, `CGImage`, backed by a `RasterImage`, and SwiftUI's `Image` initializers that
// take one.
//
// Decisions:
// - A CGImage here is always 8-bit premultiplied RGBA in sRGB (the renderer's one pixel format):
//   `bitsPerComponent` 8, `bitsPerPixel` 32, `bytesPerRow` = 4 × width, `alphaInfo` `.premultipliedLast`.
//   It is made from pixels (`CGImage(_: RasterImage)`) and gives them back (`rasterImage`); CoreGraphics'
//   data-provider constructors are not offered (a `CGDataProvider` would be a second pixel container).
// - `Image(_:scale:orientation:label:)` and `Image(decorative:scale:orientation:)` turn the pixels once, when
//   the image is made, the way `orientation` says (the EXIF turn the JPEG decoder already applies), so every
//   later draw samples upright pixels; the label is accessibility text, which a canvas does not draw.
import Foundation

/// CoreGraphics' interpolation quality (`CGContext.interpolationQuality`), raw values as in CoreGraphics.
public enum CGInterpolationQuality: Int32, Sendable, Hashable {
    case `default` = 0, none = 1, low = 2, high = 3, medium = 4
}

/// How a CGImage's alpha is stored (the one layout this renderer has).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case premultipliedLast = 1
}

/// A bitmap image (CoreGraphics' `CGImage`): premultiplied RGBA8 pixels, rows top to bottom.
public final class CGImage: @unchecked Sendable, Equatable {
    /// The pixels.
    public let rasterImage: RasterImage

    /// An image of `pixels`.
    public init(_ pixels: RasterImage) { rasterImage = pixels }

    public var width: Int { rasterImage.width }
    public var height: Int { rasterImage.height }
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    public var bytesPerRow: Int { rasterImage.width * 4 }
    public var alphaInfo: CGImageAlphaInfo { .premultipliedLast }
    /// sRGB.
    public var colorSpace: CGColorSpace? { CGColorSpaceCreateDeviceRGB() }

    /// The pixels inside `rect` (pixel coordinates, rounded outwards and clipped to the image); nil when that
    /// leaves no pixel.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !r.isNull, r.width >= 1, r.height >= 1 else { return nil }
        let x0 = Int(r.minX), y0 = Int(r.minY), w = Int(r.width), h = Int(r.height)
        var pixels = [UInt8]()
        pixels.reserveCapacity(w * h * 4)
        for y in y0 ..< y0 + h {
            let start = (y * width + x0) * 4
            pixels.append(contentsOf: rasterImage.pixels[start ..< start + w * 4])
        }
        return CGImage(RasterImage(width: w, height: h, pixels: pixels))
    }

    public static func == (l: CGImage, r: CGImage) -> Bool { l === r || l.rasterImage == r.rasterImage }
}

extension Image {
    /// How an image's pixels are turned for display (CoreGraphics' and EXIF's eight orientations).
    public enum Orientation: UInt8, Sendable, Hashable, CaseIterable {
        case up = 0, upMirrored = 2, down = 6, downMirrored = 4, left = 1, leftMirrored = 3, right = 7, rightMirrored = 5

        /// The EXIF orientation number (1…8) that turns the pixels the same way.
        package var exif: Int {
            switch self {
            case .up: return 1
            case .upMirrored: return 2
            case .down: return 3
            case .downMirrored: return 4
            case .leftMirrored: return 5
            case .right: return 6
            case .rightMirrored: return 7
            case .left: return 8
            }
        }
    }

    /// `cgImage`'s pixels, `scale` pixels per point, turned by `orientation`; `label` is accessibility text.
    public init(_ cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up, label: Text) {
        self.init(cgImage.rasterImage.oriented(exif: orientation.exif), scale: scale)
    }

    /// `cgImage`'s pixels, `scale` pixels per point, turned by `orientation`, with no accessibility label.
    public init(decorative cgImage: CGImage, scale: CGFloat, orientation: Orientation = .up) {
        self.init(cgImage.rasterImage.oriented(exif: orientation.exif), scale: scale)
    }
}
