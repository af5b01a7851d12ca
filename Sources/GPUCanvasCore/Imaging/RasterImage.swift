/// A rendered image: `width × height` pixels of premultiplied RGBA8, rows top to bottom.
///
/// ```swift
/// let px = image.pixel(x: 3, y: 4)   // PixelRGBA8(r: 255, g: 0, b: 0, a: 255)
/// try image.writePNG(to: URL(fileURLWithPath: "out.png"))   // straight alpha in the file
/// ```
public struct RasterImage: Equatable, Sendable {
    public let width: Int
    public let height: Int
    /// Premultiplied RGBA8, `width * 4` bytes per row, no padding.
    public package(set) var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4,
                     "RasterImage: \(pixels.count) bytes do not make \(width)×\(height) RGBA8 pixels")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A transparent image.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
    }

    public func pixel(x: Int, y: Int) -> PixelRGBA8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let i = (y * width + x) * 4
        return PixelRGBA8(r: pixels[i], g: pixels[i + 1], b: pixels[i + 2], a: pixels[i + 3])
    }
}

/// One premultiplied RGBA8 pixel.
public struct PixelRGBA8: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    public var description: String { "PixelRGBA8(r: \(r), g: \(g), b: \(b), a: \(a))" }
}
