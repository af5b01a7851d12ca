// JPEG files through libjpeg (libjpeg-turbo), decoding only.
//
// libjpeg's default error handler prints and calls exit(); the CJPEG shim (Sources/CJPEG/shim.h) installs
// one that longjmps back into the C function that made the failing call, so a corrupt or truncated file
// comes back here as a return value and libjpeg's message, and becomes an `ImageError.invalidJPEG`. Data
// that ends early is an error ("JPEG data is truncated"), not the grey-padded image libjpeg would give;
// corrupt entropy data that libjpeg recovers from (its warnings) decodes, as in djpeg and browsers.
//
// Colour: libjpeg-turbo converts YCbCr, RGB and grey to R, G, B, 255. CMYK and YCCK (which libjpeg turns
// into CMYK) are converted here with the naive formula R = 255·(1 − C)(1 − K) on 0…1 values, no colour
// management. A file with an Adobe APP14 marker (Photoshop's, and every CMYK file libjpeg writes) stores
// the channels inverted (0 is full ink), as Pillow and browsers assume; one without stores plain ink.
// JPEG has no alpha: every pixel is opaque, so straight and premultiplied colour are the same bytes.
//
// The header's size is checked against `maxPixelDimension` (the PNG limit) and the memory budget
// (`RenderLimits.imageBytes`) before libjpeg starts
// decompressing (a progressive file's coefficient buffers are allocated then) and before the pixels are.
// EXIF orientation (the APP1 "Exif" marker's tag 0x0112 in IFD0) is applied, so the image comes out the
// way up a camera meant it; a missing or malformed EXIF block means orientation 1, never an error.
import CJPEG

extension RasterImage {
    /// Decodes JPEG bytes (baseline or progressive; grey, YCbCr, RGB, CMYK or YCCK) to an opaque image,
    /// turned the way its EXIF orientation says.
    ///
    /// Bytes that are not a JPEG throw `.invalidJPEG(path: nil, reason: "not a JPEG file (starts with 0x89
    /// 0x50)")`; bytes cut short `… "JPEG data is truncated (Premature end of JPEG file)"`.
    public init(jpegData data: Data) throws {
        try self.init(jpegData: data, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(jpegData data: Data, limits: RenderLimits) throws {
        self = try Self.decodeJPEG(data: data, path: nil, limit: limits.imageBytes)
    }

    /// Reads and decodes the JPEG file at `url` (a file URL), streaming it through libjpeg. Errors name the
    /// file: "/img/photo.jpg: JPEG data is truncated (Premature end of JPEG file)"; a missing file throws
    /// `.fileNotFound`, a directory `.fileUnreadable(path:, reason: "it is a directory")`.
    public init(contentsOfJPEG url: URL) throws {
        try self.init(contentsOfJPEG: url, limits: RenderLimits())
    }

    /// The same, with decoded pixels limited to `limits.imageBytes` (checked from the header).
    public init(contentsOfJPEG url: URL, limits: RenderLimits) throws {
        let (stream, path) = try openImageFile(url)
        defer { fclose(stream) }
        self = try Self.decodeJPEG(stream: stream, path: path, limit: limits.imageBytes)
    }

    /// Decodes JPEG bytes; `path` (nil for data in memory) goes into the errors.
    package static func decodeJPEG(data: Data, path: String?, limit: Int = RenderLimits.defaultImageBytes) throws -> RasterImage {
        guard !data.isEmpty else {
            throw ImageError.invalidJPEG(path: path, reason: path == nil ? "JPEG data is empty" : "the file is empty")
        }
        return try data.withUnsafeBytes { bytes in
            let base = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            return try decodeJPEG(path: path, limit: limit) { cjpeg_read_header_memory($0, base, UInt(bytes.count)) }
        }
    }

    /// Decodes the JPEG that `stream` reads from its current position; `path` names it in the errors. The
    /// caller closes the stream.
    package static func decodeJPEG(stream: UnsafeMutablePointer<FILE>, path: String,
                           limit: Int = RenderLimits.defaultImageBytes) throws -> RasterImage {
        do {
            return try decodeJPEG(path: path, limit: limit) { cjpeg_read_header_stdio($0, stream) }
        } catch let error as ImageError {
            // libjpeg's stdio source takes a failed read for the end of the data; the stream knows better.
            if case .invalidJPEG = error {
                let code = errno
                if ferror(stream) != 0, code != 0 {
                    throw ImageError.fileUnreadable(path: path, reason: readableReason(errno: code))
                }
            }
            throw error
        }
    }

    /// The decoding both sources share: `readHeader` points libjpeg at the data and reads the header.
    private static func decodeJPEG(path: String?, limit: Int,
                                   readHeader: (UnsafeMutablePointer<cjpeg_decoder>) -> Int32) throws -> RasterImage {
        guard let decoder = cjpeg_decoder_create() else {
            throw ImageError.invalidJPEG(path: path, reason: "cannot decode JPEG (libjpeg could not start: out of memory)")
        }
        defer { cjpeg_decoder_destroy(decoder) }
        guard readHeader(decoder) != 0 else { throw jpegError(decoder, path: path) }
        let w = Int(decoder.pointee.cinfo.image_width), h = Int(decoder.pointee.cinfo.image_height)
        guard w <= maxPixelDimension, h <= maxPixelDimension else {
            throw ImageError.tooLarge(width: w, height: h, path: path)
        }
        try checkImageBudget(width: w, height: h, limit: limit, path: path)
        let orientation = exifOrientation(decoder.pointee.cinfo.marker_list)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        let ok = pixels.withUnsafeMutableBufferPointer { cjpeg_decode(decoder, $0.baseAddress) }
        guard ok != 0 else { throw jpegError(decoder, path: path) }
        if decoder.pointee.cinfo.out_color_space == JCS_CMYK {
            convertCMYKToRGBA(&pixels, inverted: decoder.pointee.cinfo.saw_Adobe_marker != 0)
        }
        return RasterImage(width: w, height: h, pixels: pixels).oriented(exif: orientation)
    }

    /// The `ImageError` for the failure the decoder recorded, in words, libjpeg's own in parentheses.
    private static func jpegError(_ decoder: UnsafeMutablePointer<cjpeg_decoder>, path: String?) -> ImageError {
        let code = Int(decoder.pointee.error_code)
        let message = withUnsafeBytes(of: &decoder.pointee.message) { raw -> String in
            let end = raw.firstIndex(of: 0) ?? raw.count
            return String(decoding: raw[0 ..< end], as: UTF8.self)
        }
        let reason: String
        switch code {
        case Int(JERR_NO_SOI.rawValue):
            let b0 = UInt8(truncatingIfNeeded: decoder.pointee.error_parm0)
            let b1 = UInt8(truncatingIfNeeded: decoder.pointee.error_parm1)
            reason = "not a JPEG file (starts with 0x\(hex(b0)) 0x\(hex(b1)))"
        case Int(JWRN_JPEG_EOF.rawValue), Int(JERR_INPUT_EOF.rawValue):
            reason = "JPEG data is truncated (\(message))"
        case Int(JERR_INPUT_EMPTY.rawValue):
            reason = path == nil ? "JPEG data is empty" : "the file is empty"
        default:
            reason = "cannot decode JPEG (\(message.isEmpty ? "libjpeg error \(code)" : message))"
        }
        return .invalidJPEG(path: path, reason: reason)
    }

    /// C, M, Y, K bytes → R, G, B, 255 in place: R = (255 − C)(255 − K)/255 for plain ink, C·K/255 for
    /// Adobe's inverted bytes (which hold 255 − ink), rounded to nearest.
    ///
    /// Plain (0, 255, 255, 0) → (255, 0, 0, 255): red; inverted (255, 0, 0, 255) → the same red.
    package static func convertCMYKToRGBA(_ pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { px in
            for i in Swift.stride(from: 0, to: px.count, by: 4) {
                var c = Int(px[i]), m = Int(px[i + 1]), y = Int(px[i + 2]), k = Int(px[i + 3])
                if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                px[i] = UInt8((c * k * 2 + 255) / 510)
                px[i + 1] = UInt8((m * k * 2 + 255) / 510)
                px[i + 2] = UInt8((y * k * 2 + 255) / 510)
                px[i + 3] = 255
            }
        }
    }

    // MARK: EXIF orientation

    /// The EXIF orientation (1…8) in the first APP1 "Exif" marker of `markers` (libjpeg's saved markers),
    /// or 1 when there is none or it cannot be read.
    private static func exifOrientation(_ markers: jpeg_saved_marker_ptr?) -> Int {
        var next = markers
        while let marker = next {
            next = marker.pointee.next
            guard Int(marker.pointee.marker) == Int(JPEG_APP0) + 1, let data = marker.pointee.data else { continue }
            let bytes = UnsafeBufferPointer(start: data, count: Int(marker.pointee.data_length))
            if let orientation = exifOrientation(app1: bytes) { return orientation }
        }
        return 1
    }

    /// The orientation tag of an APP1 payload ("Exif\0\0", then a TIFF header and IFD0), or nil when the
    /// payload is not EXIF, is cut short, or has no orientation from 1 to 8.
    ///
    /// "Exif\0\0" "MM" 0x002A, IFD0 at 8, one entry: tag 0x0112, type 3 (SHORT), count 1, value 6 → 6.
    package static func exifOrientation<C: RandomAccessCollection>(app1: C) -> Int? where C.Element == UInt8, C.Index == Int {
        let exif: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]   // "Exif\0\0"
        guard app1.count >= 6 + 8, Array(app1.prefix(6)) == exif else { return nil }
        let tiff = app1.startIndex + 6
        let end = app1.endIndex
        let bigEndian: Bool
        switch (app1[tiff], app1[tiff + 1]) {
        case (0x4D, 0x4D): bigEndian = true    // "MM"
        case (0x49, 0x49): bigEndian = false   // "II"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            let a = Int(app1[at]), b = Int(app1[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ at: Int) -> Int? {
            guard let hi = u16(bigEndian ? at : at + 2), let lo = u16(bigEndian ? at + 2 : at) else { return nil }
            return hi << 16 | lo
        }
        guard u16(tiff + 2) == 42, let ifd = u32(tiff + 4), let entries = u16(tiff + ifd) else { return nil }
        for e in 0 ..< entries {
            let entry = tiff + ifd + 2 + 12 * e
            guard let tag = u16(entry), let type = u16(entry + 2), let count = u32(entry + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            guard type == 3, count == 1, let value = u16(entry + 8), (1 ... 8).contains(value) else { return nil }
            return value
        }
        return nil
    }
}

extension RasterImage {
    /// The image turned the way EXIF orientation `orientation` says to display it (TIFF 6.0 / EXIF 2.3
    /// tag 0x0112): 1 as stored, 2 mirrored left–right, 3 turned 180°, 4 mirrored top–bottom, 5 transposed
    /// (mirrored about the main diagonal), 6 turned 90° clockwise, 7 transversed (mirrored about the other
    /// diagonal), 8 turned 90° counter-clockwise. 5–8 swap width and height; any other value is taken as 1.
    package func oriented(exif orientation: Int) -> RasterImage {
        guard (2 ... 8).contains(orientation) else { return self }
        let w = width, h = height
        let swaps = orientation >= 5
        let ow = swaps ? h : w, oh = swaps ? w : h
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0 ..< oh {
                    for x in 0 ..< ow {
                        // The stored pixel (sx, sy) shown at (x, y).
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - x, y)
                        case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case 4: (sx, sy) = (x, h - 1 - y)
                        case 5: (sx, sy) = (y, x)
                        case 6: (sx, sy) = (y, h - 1 - x)
                        case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
                        default: (sx, sy) = (w - 1 - y, x)   // 8
                        }
                        let s = (sy * w + sx) * 4, d = (y * ow + x) * 4
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]; dst[d + 3] = src[s + 3]
                    }
                }
            }
        }
        return RasterImage(width: ow, height: oh, pixels: out)
    }
}
