/// Why an image could not be read, decoded or written. The description names the file (where there is
/// one) and the problem, in words; the decoders' own text (libpng's, libjpeg's) is kept in it.
///
/// ```swift
/// do { _ = try RasterImage(contentsOf: URL(fileURLWithPath: "/nope.png")) }
/// catch { print(error) }   // "no such file: /nope.png"
/// ```
///
/// Messages, one of each:
///
///     no such file: /img/nope.png
///     cannot read /img/dir: it is a directory
///     /img/logo.gif: neither PNG nor JPEG (starts with 0x47 0x49 0x46 0x38)
///     /img/logo.jpg: not a JPEG file (starts with 0x89 0x50)
///     /img/photo.jpg: JPEG data is truncated (Premature end of JPEG file)
///     /img/photo.jpg: cannot decode JPEG (Bogus marker length)
///     not a valid PNG: /img/logo.png: the file ends before the image does
///     /img/huge.png: image 40000×40000 exceeds the limit of 16384 pixels per side
///     /img/bomb.png: image 16000×16000 needs 976.6 MiB decoded, over the memory limit of 512 MiB
///     raw RGBA: 15 bytes do not make 2×2 RGBA8 pixels (16 bytes)
public enum ImageError: Error, Equatable, CustomStringConvertible {
    case fileNotFound(path: String)
    case fileUnreadable(path: String, reason: String)
    case fileUnwritable(path: String, reason: String)
    /// The data is not a readable PNG; the text is libpng's (prefixed by the path for files).
    case invalidPNG(String)
    /// The data is not a decodable JPEG. `path` names the file (nil for data in memory); `reason` says what
    /// is wrong, with libjpeg's text in parentheses: "not a JPEG file (starts with 0x89 0x50)", "JPEG data
    /// is truncated (Premature end of JPEG file)", "cannot decode JPEG (Bogus marker length)", "the file is
    /// empty".
    case invalidJPEG(path: String?, reason: String)
    /// The first bytes are neither a PNG signature nor a JPEG start-of-image marker; `firstBytes` holds up
    /// to the first 8 (none for an empty file). `path` is nil for data in memory.
    case unrecognizedFormat(path: String?, firstBytes: [UInt8])
    /// The image is wider or taller than `maxPixelDimension` (16384), found from its header before any
    /// pixel memory is taken. `path` names the file (nil for data in memory and raw pixels).
    case tooLarge(width: Int, height: Int, path: String? = nil)
    /// Decoding the image would take more than `limit` bytes (`RenderLimits.imageBytes`, or what a scene's
    /// other images left of it), found from its header before any pixel memory is taken.
    case overMemoryLimit(width: Int, height: Int, limit: Int, path: String? = nil)
    /// Raw pixels given to `RasterImage(width:height:rgba:premultiplied:)` do not make an image: the reason
    /// ("15 bytes do not make 2×2 RGBA8 pixels (16 bytes)").
    case invalidPixels(String)
    /// The image cannot be encoded as PNG or JPEG (libpng's or libjpeg's text, or why not).
    case encodingFailed(String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): return "no such file: \(path)"
        case .fileUnreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .fileUnwritable(let path, let reason): return "cannot write \(path): \(reason)"
        case .invalidPNG(let message): return "not a valid PNG: \(message)"
        case .invalidJPEG(let path, let reason): return path.map { "\($0): \(reason)" } ?? reason
        case .unrecognizedFormat(let path, let bytes):
            let start = bytes.isEmpty
                ? (path == nil ? "it is empty" : "the file is empty")
                : "starts with " + bytes.prefix(4).map { "0x" + hex($0) }.joined(separator: " ")
            return (path.map { "\($0): " } ?? "image data is ") + "neither PNG nor JPEG (\(start))"
        case .tooLarge(let w, let h, let path):
            return (path.map { "\($0): " } ?? "")
                + "image \(w)×\(h) exceeds the limit of \(maxPixelDimension) pixels per side"
        case .overMemoryLimit(let w, let h, let limit, let path):
            return (path.map { "\($0): " } ?? "")
                + "image \(w)×\(h) needs \(memorySize(w * h * 4)) decoded, over the memory limit of \(memorySize(limit))"
        case .invalidPixels(let reason): return "raw RGBA: \(reason)"
        case .encodingFailed(let message): return "cannot encode the image: \(message)"
        }
    }
}

/// Two lowercase hex digits: 0x89 → "89", 0x0a → "0a".
package func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
