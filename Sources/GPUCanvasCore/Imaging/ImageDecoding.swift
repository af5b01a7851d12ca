// The entry points that take an image of either format, and raw pixels.
//
// The format comes from the first bytes, never from the file name: a PNG starts with its signature
// 0x89 'P' 'N' 'G' (\r \n 0x1a \n), a JPEG with its start-of-image marker 0xFF 0xD8. Four bytes of the PNG
// signature are enough to hand the file to libpng, whose own check of all eight then gives the better
// message ("PNG file corrupted by ASCII conversion"); anything starting 0xFF 0xD8 goes to libjpeg likewise.
//
// A file is streamed to its decoder where it can be read again from the start (a regular file: the sniffed
// bytes are read, then the stream is rewound); a pipe or a device cannot be rewound, so it is read whole,
// up to `maxUnseekableImageBytes`, and decoded from memory.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `RasterImage(contentsOf:)` reads of a pipe or a device (which it cannot rewind after sniffing the
/// format) at most: 1 GiB, the size of the largest image it accepts (16384 × 16384 RGBA8). A regular file
/// is streamed and has no such limit.
package let maxUnseekableImageBytes = 1 << 30

/// The two formats the decoders read.
package enum ImageFileFormat: Equatable {
    case png, jpeg

    /// The format whose leading bytes `bytes` starts with, or nil.
    package init?<C: Collection>(sniffing bytes: C) where C.Element == UInt8 {
        let head = Array(bytes.prefix(4))
        if head == [0x89, 0x50, 0x4E, 0x47] {
            self = .png
        } else if head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 {
            self = .jpeg
        } else {
            return nil
        }
    }
}

/// Opens the file at `url` for reading as a stdio stream (the caller closes it), and returns it with the
/// path the errors name. The failures are `ImageError`s: `.fileNotFound`, `.fileUnreadable` with
/// errno's words ("it is a directory", "Permission denied"), or "not a file URL" for a web URL.
package func openImageFile(_ url: URL) throws -> (stream: UnsafeMutablePointer<FILE>, path: String) {
    guard url.isFileURL else { throw ImageError.fileUnreadable(path: url.absoluteString, reason: "not a file URL") }
    let path = url.path
    let fd: Int32
    do {
        fd = try openForReading(path).fd
    } catch {
        throw error == .notFound ? ImageError.fileNotFound(path: path) : ImageError.fileUnreadable(path: path, reason: error.reason)
    }
    guard let stream = fdopen(fd, "rb") else {
        let reason = readableReason(errno: errno)
        close(fd)
        throw ImageError.fileUnreadable(path: path, reason: reason)
    }
    return (stream, path)
}

extension RasterImage {
    /// Reads and decodes the PNG or JPEG file at `url` (a file URL), whichever its first bytes say it is;
    /// the name's extension plays no part. A regular file is streamed to its decoder, as
    /// `init(contentsOfPNG:)` and `init(contentsOfJPEG:)` do.
    ///
    /// A GIF named logo.png throws `.unrecognizedFormat`: "/img/logo.png: neither PNG nor JPEG (starts
    /// with 0x47 0x49 0x46 0x38)".
    ///
    /// An image whose decoded pixels would pass `limits.imageBytes` (512 MiB by default) throws
    /// `.overMemoryLimit`, found from its header before any pixel memory is taken.
    public init(contentsOf url: URL) throws {
        try self.init(contentsOf: url, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(contentsOf url: URL, limits: RenderLimits) throws {
        let (stream, path) = try openImageFile(url)
        defer { fclose(stream) }
        var head = [UInt8](repeating: 0, count: 8)
        let count = fread(&head, 1, head.count, stream)
        if count < head.count, ferror(stream) != 0 {
            throw ImageError.fileUnreadable(path: path, reason: readableReason(errno: errno))
        }
        head.removeSubrange(count...)
        guard let format = ImageFileFormat(sniffing: head) else {
            throw ImageError.unrecognizedFormat(path: path, firstBytes: head)
        }
        if fseeko(stream, 0, SEEK_SET) == 0 {
            switch format {
            case .png: self = try Self.decodePNG(stream: stream, path: path, limit: limits.imageBytes)
            case .jpeg: self = try Self.decodeJPEG(stream: stream, path: path, limit: limits.imageBytes)
            }
            return
        }
        // A pipe or a device: what was sniffed is gone from the stream, so read the rest and decode it all
        // from memory.
        var data = Data(head)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = fread(&chunk, 1, chunk.count, stream)
            data.append(contentsOf: chunk[0 ..< n])
            guard data.count <= maxUnseekableImageBytes else {
                throw ImageError.fileUnreadable(
                    path: path, reason: "it holds more than \(maxUnseekableImageBytes) bytes, the limit for a pipe or device")
            }
            if n < chunk.count {
                if ferror(stream) != 0 {
                    throw ImageError.fileUnreadable(path: path, reason: readableReason(errno: errno))
                }
                if feof(stream) != 0 { break }
            }
        }
        switch format {
        case .png: self = try Self.decodePNG(data: data, path: path, limit: limits.imageBytes)
        case .jpeg: self = try Self.decodeJPEG(data: data, path: path, limit: limits.imageBytes)
        }
    }

    /// Decodes PNG or JPEG bytes, whichever their first bytes say they are.
    ///
    /// `Data("GIF89a".utf8)` throws `.unrecognizedFormat(path: nil, firstBytes: …)`: "image data is
    /// neither PNG nor JPEG (starts with 0x47 0x49 0x46 0x38)".
    public init(data: Data) throws {
        try self.init(data: data, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(data: Data, limits: RenderLimits) throws {
        switch ImageFileFormat(sniffing: data) {
        case .png: self = try Self.decodePNG(data: data, path: nil, limit: limits.imageBytes)
        case .jpeg: self = try Self.decodeJPEG(data: data, path: nil, limit: limits.imageBytes)
        case nil: throw ImageError.unrecognizedFormat(path: nil, firstBytes: Array(data.prefix(8)))
        }
    }

    /// An image from raw RGBA8 pixels: `width × height` pixels, rows top to bottom, `width * 4` bytes per
    /// row, no padding. `premultiplied` says what the colour bytes hold: `false` for straight alpha (as
    /// image files hold it), which is premultiplied here exactly as the PNG reader does (c·a/255, rounded
    /// to nearest); `true` for colour already multiplied by alpha, kept as it is.
    ///
    /// Throws `ImageError.invalidPixels` when a side is not positive, when the buffer's length is not
    /// `width * height * 4`, or when premultiplied data has a colour byte above its alpha (no straight colour
    /// gives that pixel); `.tooLarge` when a side exceeds `maxPixelDimension`.
    ///
    /// `RasterImage(width: 1, height: 1, rgba: [255, 0, 0, 128], premultiplied: false)` holds (128, 0, 0, 128).
    public init(width: Int, height: Int, rgba: [UInt8], premultiplied: Bool) throws {
        guard width > 0, height > 0 else {
            throw ImageError.invalidPixels("a \(width)×\(height) image has no pixels; both sides must be at least 1")
        }
        guard width <= maxPixelDimension, height <= maxPixelDimension else {
            throw ImageError.tooLarge(width: width, height: height)
        }
        let expected = width * height * 4
        guard rgba.count == expected else {
            throw ImageError.invalidPixels("\(rgba.count) bytes do not make \(width)×\(height) RGBA8 pixels (\(expected) bytes)")
        }
        if premultiplied {
            if let bad = Self.firstColourAboveAlpha(rgba) {
                let i = bad * 4
                throw ImageError.invalidPixels(
                    "premultiplied pixel (\(bad % width), \(bad / width)) is (\(rgba[i]), \(rgba[i + 1]), \(rgba[i + 2]), "
                        + "\(rgba[i + 3])): a colour byte above its alpha")
            }
            self.init(width: width, height: height, pixels: rgba)
        } else {
            self.init(width: width, height: height, pixels: Self.premultiplied(rgba))
        }
    }

    /// The index of the first pixel whose R, G or B byte exceeds its A byte, or nil.
    private static func firstColourAboveAlpha(_ rgba: [UInt8]) -> Int? {
        rgba.withUnsafeBufferPointer { px in
            for i in Swift.stride(from: 0, to: px.count, by: 4) {
                let a = px[i + 3]
                if px[i] > a || px[i + 1] > a || px[i + 2] > a { return i / 4 }
            }
            return nil
        }
    }
}
