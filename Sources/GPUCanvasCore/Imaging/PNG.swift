// PNG files through libpng: read with its simplified API (`png_image`), written with its full API
// (Sources/CGLES/png_fast.h) at the `PNGCompression` asked for.
//
// A `RasterImage` holds premultiplied RGBA8; a PNG file holds straight (unpremultiplied) alpha, 8-bit sRGB.
// Writing unpremultiplies, reading premultiplies, both with integer arithmetic rounding to nearest (halves
// up), so the bytes are the same on every machine. The round trip premultiplied → file → premultiplied is
// exact for every valid premultiplied pixel (each channel ≤ alpha): writing stores s = round(255·c/a), which
// is within ½ of 255·c/a, so reading computes s·a/255 within a/510 < ½ of c (a < 255) and rounds back to c;
// at a = 255 both steps are the identity. Colour in a translucent pixel of a file read and written again can
// move (255·c/a is not a whole number in general), so file → image → file is exact only for opaque pixels.
//
// Reading checks the header's size against `maxPixelDimension` before allocating the pixels, so a
// crafted header cannot make it allocate gigabytes. libpng's own error text is kept in the error. Bytes in
// memory and a file stream share one decoding path (`decode`); `RasterImage(contentsOf:)` and
// `RasterImage(data:)` (ImageDecoding.swift) pick PNG or JPEG from the first bytes.
import CGLES

/// libpng's `PNG_FORMAT_RGBA` (`PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA`: a function-like macro
/// Swift does not import): 8-bit R, G, B, A in that order.
private let pngFormatRGBA: UInt32 = 0x02 | 0x01

/// How hard libpng compresses: the trade of file size for encoding time. Each is a zlib level and the row
/// filters libpng may choose from, through libpng's full API (its simplified API cannot turn filtering off: even
/// with PNG_IMAGE_FLAG_FAST it tries every filter on every row, which costs as much as the deflate).
///
/// Measured on a 1024² frame (docs/performance.md, "PNG compression"): `.fastest` is level 1 without row filters,
/// `.default` level 3 with the Up filter only, `.smallest` level 9 with every filter. `writePNG` and `pngData()`
/// use `.default`; exported frames `.fastest`, because an export is encode-bound.
public enum PNGCompression: String, Sendable, Equatable, CaseIterable {
    /// zlib level 1, no row filter: the fastest to encode, the largest files (animation frames).
    case fastest
    /// zlib level 3, the Up filter: about 4× faster than libpng's own default (level 6, every filter), files
    /// about 1.2× larger; the Up filter keeps gradients small, where `.fastest` grows them by half.
    case `default`
    /// zlib level 9, libpng's adaptive choice among every filter: the smallest files, the slowest.
    case smallest

    /// The former name of `.fastest`.
    public static let fast = PNGCompression.fastest
    /// The former name of the compression `writePNG` used (libpng's own default: level 6, every filter),
    /// now the nearest smaller one.
    public static let compact = PNGCompression.smallest

    /// zlib's level and libpng's filter mask.
    var settings: (level: Int32, filters: Int32) {
        switch self {
        case .fastest: return (1, PNG_FILTER_NONE)
        case .default: return (3, PNG_FILTER_UP)
        case .smallest: return (9, PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH)
        }
    }
}

extension RasterImage {
    /// The image as a PNG file: 8-bit sRGB RGBA, straight alpha, compressed as `.default`.
    ///
    /// A 1×1 image of premultiplied (128, 0, 0, 128) encodes the file pixel (255, 0, 0, 128).
    public func pngData() throws -> Data {
        try pngData(compression: .default)
    }

    /// The image as a PNG file, compressed as `compression` says (`.fastest` for animation frames), through
    /// the C encoder in Sources/CGLES/png_fast.h (libpng's full API; its setjmp stays in C).
    public func pngData(compression: PNGCompression) throws -> Data {
        guard width > 0, height > 0 else {
            throw ImageError.encodingFailed("a \(width)×\(height) image has no pixels; PNG needs at least 1×1")
        }
        let straight = Self.unpremultiplied(pixels)
        let (level, filters) = compression.settings
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = straight.withUnsafeBufferPointer { px in
            gpucanvas_png_encode(px.baseAddress, UInt32(width), UInt32(height), level, filters, &out, &size, &message)
        }
        guard ok != 0, let out else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError.encodingFailed("libpng: " + (reason.isEmpty ? "no reason given" : reason))
        }
        return Data(bytesNoCopy: out, count: size, deallocator: .free)
    }

    /// Writes `pngData(compression:)` to the file at `url`. A regular file (or a new one) is replaced atomically, so a
    /// failed write leaves no partial file; a symbolic link is followed; a device or FIFO (`/dev/stdout`, a
    /// named pipe) is written in place, never replaced. Failures throw `ImageError.fileUnwritable` with a
    /// readable reason ("No space left on device", "it is a directory").
    public func writePNG(to url: URL, compression: PNGCompression = .default) throws {
        let data = try pngData(compression: compression)
        try writeFileContents(data, toPath: url.path)
    }

    /// Decodes a PNG of any colour type and bit depth (libpng converts it to 8-bit sRGB RGBA), then
    /// premultiplies. The same decoding as `init(contentsOfPNG:)`, from bytes in memory.
    ///
    /// A file pixel (255, 0, 0, 128) becomes the premultiplied pixel (128, 0, 0, 128).
    /// An image whose decoded pixels would pass `limits.imageBytes` throws `.overMemoryLimit` from its header.
    public init(pngData data: Data) throws {
        try self.init(pngData: data, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(pngData data: Data, limits: RenderLimits) throws {
        self = try Self.decodePNG(data: data, path: nil, limit: limits.imageBytes)
    }

    /// Reads and decodes the PNG file at `url` (a file URL), streaming it through libpng: the file is never
    /// held whole, a file that is no PNG (/dev/zero) fails at its first 8 bytes, and a header over
    /// `maxPixelDimension` fails before any pixel memory is taken.
    ///
    /// A missing file throws `.fileNotFound`; a directory `.fileUnreadable(path:, reason: "it is a directory")`.
    /// An image whose decoded pixels would pass `limits.imageBytes` throws `.overMemoryLimit` from its header.
    public init(contentsOfPNG url: URL) throws {
        try self.init(contentsOfPNG: url, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(contentsOfPNG url: URL, limits: RenderLimits) throws {
        let (stream, path) = try openImageFile(url)
        defer { fclose(stream) }
        self = try Self.decodePNG(stream: stream, path: path, limit: limits.imageBytes)
    }

    /// Decodes PNG bytes; `path` (nil for data in memory) goes into the errors.
    package static func decodePNG(data: Data, path: String?, limit: Int = RenderLimits.defaultImageBytes) throws -> RasterImage {
        let prefix = path.map { "\($0): " } ?? ""
        guard !data.isEmpty else { throw ImageError.invalidPNG(prefix + (path == nil ? "the data is empty" : "the file is empty")) }
        do {
            return try data.withUnsafeBytes { bytes in
                var image = png_image()
                image.version = UInt32(PNG_IMAGE_VERSION)
                let begun = png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count)
                return try Self.decode(&image, begun: begun, path: path, limit: limit)
            }
        } catch ImageError.invalidPNG(let message) {
            throw ImageError.invalidPNG(prefix + message)
        }
    }

    /// Decodes the PNG that `stream` reads from its current position; `path` names it in the errors. The
    /// caller closes the stream.
    package static func decodePNG(stream: UnsafeMutablePointer<FILE>, path: String,
                          limit: Int = RenderLimits.defaultImageBytes) throws -> RasterImage {
        do {
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            let begun = png_image_begin_read_from_stdio(&image, stream)
            return try Self.decode(&image, begun: begun, path: path, limit: limit)
        } catch ImageError.invalidPNG(let message) {
            // libpng says "Read Error" both for a failed read (the stream's errno says why) and for a file
            // that ends early.
            let code = errno
            if ferror(stream) != 0, code != 0 {
                throw ImageError.fileUnreadable(path: path, reason: readableReason(errno: code))
            }
            if feof(stream) != 0 { throw ImageError.invalidPNG("\(path): the file ends before the image does") }
            throw ImageError.invalidPNG("\(path): \(message)")
        }
    }

    /// Finishes a read whose header `png_image_begin_read_from_*` parsed (`begun` is its result): checks
    /// the size, then decodes to 8-bit straight RGBA and premultiplies. Frees libpng's state on every path.
    private static func decode(_ image: inout png_image, begun: Int32, path: String?, limit: Int) throws -> RasterImage {
        guard begun != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw ImageError.invalidPNG(message)
        }
        let w = Int(image.width), h = Int(image.height)
        guard w <= maxPixelDimension, h <= maxPixelDimension else {
            png_image_free(&image)
            throw ImageError.tooLarge(width: w, height: h, path: path)
        }
        do { try checkImageBudget(width: w, height: h, limit: limit, path: path) } catch {
            png_image_free(&image)
            throw error
        }
        image.format = pngFormatRGBA
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let ok = pixels.withUnsafeMutableBytes { dst in
            png_image_finish_read(&image, nil, dst.baseAddress, png_int_32(w * 4), nil)
        }
        guard ok != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw ImageError.invalidPNG(message)
        }
        png_image_free(&image)
        return RasterImage(width: w, height: h, pixels: Self.premultiplied(consume pixels))
    }

    // MARK: Alpha conversion

    /// Premultiplied → straight: c' = round(255·c / a), clamped to 255; a = 0 gives all zero.
    ///
    /// (128, 0, 0, 128) → (255, 0, 0, 128); (10, 10, 10, 0) → (0, 0, 0, 0).
    package static func unpremultiplied(_ pixels: [UInt8]) -> [UInt8] {
        // An opaque image (most frames) is its own straight form: shared, not copied.
        let opaque = pixels.withUnsafeBufferPointer { src in
            var all: UInt8 = 255
            for i in Swift.stride(from: 3, to: src.count, by: 4) { all &= src[i] }
            return all == 255
        }
        if opaque { return pixels }
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in Swift.stride(from: 0, to: src.count, by: 4) {
                    let a = Int(src[i + 3])
                    guard a > 0 else { continue }
                    dst[i + 3] = UInt8(a)
                    // Opaque pixels (most of a typical frame) are their own straight colour: no divisions.
                    if a == 255 {
                        dst[i] = src[i]; dst[i + 1] = src[i + 1]; dst[i + 2] = src[i + 2]
                        continue
                    }
                    for k in 0 ..< 3 {
                        let c = Int(src[i + k])
                        dst[i + k] = UInt8(min(255, (c * 510 + a) / (2 * a)))
                    }
                }
            }
        }
        return out
    }

    /// Straight → premultiplied: c' = round(c·a / 255).
    ///
    /// (255, 0, 0, 128) → (128, 0, 0, 128).
    ///
    /// Consuming: a decoder hands its buffer over and it is premultiplied in place, so a 1 GiB image costs
    /// 1 GiB, not 2.
    package static func premultiplied(_ pixels: consuming [UInt8]) -> [UInt8] {
        var out = consume pixels
        out.withUnsafeMutableBufferPointer { px in
            for i in Swift.stride(from: 0, to: px.count, by: 4) {
                let a = Int(px[i + 3])
                if a == 255 { continue }
                for k in 0 ..< 3 {
                    px[i + k] = UInt8((Int(px[i + k]) * a * 2 + 255) / 510)
                }
            }
        }
        return out
    }

    /// libpng's error text from a failed `png_image` call.
    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw -> String in
            let chars = raw.bindMemory(to: UInt8.self)
            let end = chars.firstIndex(of: 0) ?? chars.count
            return String(decoding: chars[0 ..< end], as: UTF8.self)
        }
        return text.isEmpty ? "libpng gave no reason" : text
    }
}
