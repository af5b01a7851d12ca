// PNG files through libpng's simplified API (`png_image`).
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

/// How hard libpng compresses: the trade of file size for encoding time.
///
/// `.compact` is libpng's simplified API at its default (zlib level 6, every row filter tried); `.fast` is zlib
/// level 1 with no row filter, through libpng's full API (the simplified API's `PNG_IMAGE_FLAG_FAST` still
/// tries every filter, which costs as much as the deflate). Single images (`writePNG`) stay compact; exported
/// frames default to fast, because an export is encode-bound (docs/DESIGN-NOTES.md, "Animation export", has
/// the measurements).
public enum PNGCompression: Sendable, Equatable {
    /// Smallest files, slowest (the default for single images).
    case compact
    /// 4–9× faster to encode, files 1.1–1.4× larger (the default for animation frames).
    case fast
}

extension RasterImage {
    /// The image as a PNG file: 8-bit sRGB RGBA, straight alpha.
    ///
    /// A 1×1 image of premultiplied (128, 0, 0, 128) encodes the file pixel (255, 0, 0, 128).
    public func pngData() throws -> Data {
        try pngData(compression: .compact)
    }

    /// The image as a PNG file, compressed as `compression` says (`.fast` for animation frames).
    public func pngData(compression: PNGCompression) throws -> Data {
        guard width > 0, height > 0 else {
            throw ImageError.encodingFailed("a \(width)×\(height) image has no pixels; PNG needs at least 1×1")
        }
        let straight = Self.unpremultiplied(pixels)
        if compression == .fast { return try Self.encodeFast(straight, width: width, height: height) }
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = pngFormatRGBA
        // libpng's PNG_IMAGE_PNG_SIZE_MAX bound (a macro Swift cannot import): zlib's worst case for the
        // pixel bytes, one IDAT header per 8 KiB and the fixed chunks. If it were ever short, libpng says
        // how much it needs and the second attempt uses that.
        let raw = straight.count
        let compressed = raw + (raw + 7) >> 3 + (raw + 63) >> 6 + 11
        var capacity = 8 + 25 + 16 + 44 + 12 + 12 + 12 * (compressed / 8192) + compressed
        for _ in 0 ..< 2 {
            var out = Data(count: capacity)
            var size = png_alloc_size_t(capacity)
            let ok = out.withUnsafeMutableBytes { dst in
                straight.withUnsafeBytes { src in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0, src.baseAddress,
                                              png_int_32(width * 4), nil)
                }
            }
            if ok != 0 {
                out.count = Int(size)
                return out
            }
            let message = Self.message(of: &image)
            png_image_free(&image)
            guard Int(size) > capacity else { throw ImageError.encodingFailed(message) }
            capacity = Int(size)
            image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            image.width = UInt32(width)
            image.height = UInt32(height)
            image.format = pngFormatRGBA
        }
        throw ImageError.encodingFailed("libpng kept asking for a larger buffer than \(capacity) bytes")
    }

    /// `.fast`: zlib level 1 without row filters, through the C encoder in Sources/CGLES/png_fast.h (libpng's
    /// full API; its setjmp stays in C).
    private static func encodeFast(_ straight: [UInt8], width: Int, height: Int) throws -> Data {
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: 256)
        let ok = straight.withUnsafeBufferPointer { px in
            gpucanvas_png_encode_fast(px.baseAddress, UInt32(width), UInt32(height), &out, &size, &message)
        }
        guard ok != 0, let out else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError.encodingFailed(reason.isEmpty ? "libpng gave no reason" : reason)
        }
        return Data(bytesNoCopy: out, count: size, deallocator: .free)
    }

    /// Writes `pngData()` to the file at `url`. A regular file (or a new one) is replaced atomically, so a
    /// failed write leaves no partial file; a symbolic link is followed; a device or FIFO (`/dev/stdout`, a
    /// named pipe) is written in place, never replaced. Failures throw `ImageError.fileUnwritable` with a
    /// readable reason ("No space left on device", "it is a directory").
    public func writePNG(to url: URL) throws {
        let data = try pngData()
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
