// JPEG files through libjpeg (libjpeg-turbo), the encoding half of JPEG.swift's decoder.
//
// JPEG has no alpha. A `RasterImage` holds premultiplied RGBA, so its R, G, B bytes are already the image
// composited over black, which is what is written: a transparent pixel becomes black, as UIKit's
// `jpegData(compressionQuality:)` and ImageIO make it. Chroma is kept at full resolution (4:4:4): canvas
// output is sharp-edged shapes and text, where libjpeg's default 4:2:0 smears coloured edges over two pixels.
// The error manager is CJPEG's (no exit(), its setjmp in C).
import CJPEG

extension RasterImage {
    /// The quality `jpegData()` and `writeJPEG(to:)` use: libjpeg's scale, 1…100.
    public static let defaultJPEGQuality = 90

    /// The image as a baseline JPEG file (sRGB, 4:4:4 chroma) at `quality` (1…100, libjpeg's scale: 100 keeps
    /// the most, 75 is libjpeg's own default). Transparent pixels are composited over black.
    ///
    /// A 16×16 image of opaque (200, 40, 40) decodes back within a few levels of itself at quality 90.
    public func jpegData(quality: Int = RasterImage.defaultJPEGQuality) throws -> Data {
        guard (1 ... 100).contains(quality) else {
            throw ImageError.encodingFailed("JPEG quality must be 1…100, not \(quality)")
        }
        guard width > 0, height > 0 else {
            throw ImageError.encodingFailed("a \(width)×\(height) image has no pixels; JPEG needs at least 1×1")
        }
        // libjpeg's JPEG_MAX_DIMENSION: the format stores sizes in 16 bits.
        guard width <= 65500, height <= 65500 else {
            throw ImageError.encodingFailed("a \(width)×\(height) image is larger than JPEG's 65500 pixels a side")
        }
        var out: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        var message = [CChar](repeating: 0, count: Int(JMSG_LENGTH_MAX))
        let ok = pixels.withUnsafeBufferPointer { px in
            cjpeg_encode_rgbx(px.baseAddress, UInt32(width), UInt32(height), Int32(quality), 1, &out, &size, &message)
        }
        guard ok != 0, let out else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw ImageError.encodingFailed("libjpeg: " + (reason.isEmpty ? "no reason given" : reason))
        }
        return Data(bytesNoCopy: out, count: Int(size), deallocator: .free)
    }

    /// Writes `jpegData(quality:)` to the file at `url`, the way `writePNG(to:)` writes (atomic for a regular
    /// file, in place for a device or FIFO, symbolic links followed; `ImageError.fileUnwritable` on failure).
    public func writeJPEG(to url: URL, quality: Int = RasterImage.defaultJPEGQuality) throws {
        try writeFileContents(try jpegData(quality: quality), toPath: url.path)
    }
}
