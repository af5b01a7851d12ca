import CGLES
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// PNG encoding and decoding: straight alpha in the file, premultiplied in memory, exact round trips, and
/// clear errors for missing, corrupt, truncated and oversized input.
final class PNGTests: XCTestCase {
    /// premultiplied → file → premultiplied is exact for every valid premultiplied pixel (each colour
    /// channel ≤ alpha): unpremultiplying rounds 255·c/a to within ½, and premultiplying again moves that
    /// error by a/255 < 1 of its size, to within a/510 < ½ of c, which rounds back to c (see PNG.swift).
    /// So the bound of the unpremultiply rounding on a round trip is zero steps.
    static let roundTripTolerance = 0

    func tempURL(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("PNGTests-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    }

    // MARK: Round trips

    func testRoundTripOfEveryPremultipliedPixelIsExact() throws {
        // Row a holds alpha a; column c holds colour values c, 255 − c and c/2, each capped at a.
        var pixels = [UInt8](repeating: 0, count: 256 * 256 * 4)
        for a in 0 ..< 256 {
            for c in 0 ..< 256 {
                let i = (a * 256 + c) * 4
                pixels[i] = UInt8(min(c, a))
                pixels[i + 1] = UInt8(min(255 - c, a))
                pixels[i + 2] = UInt8(min(c / 2, a))
                pixels[i + 3] = UInt8(a)
            }
        }
        let image = RasterImage(width: 256, height: 256, pixels: pixels)
        let back = try RasterImage(pngData: image.pngData())
        XCTAssertEqual(back.width, 256)
        XCTAssertEqual(back.height, 256)
        var worst = 0
        for i in 0 ..< pixels.count { worst = max(worst, abs(Int(back.pixels[i]) - Int(pixels[i]))) }
        XCTAssertLessThanOrEqual(worst, Self.roundTripTolerance)
    }

    func testRenderedImageRoundTripsThroughAFile() throws {
        let image = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 40, height: 30)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 2, y: 2, width: 20, height: 20)), with: .color(.blue))
            ctx.fill(Path(ellipseIn: CGRect(x: 10.3, y: 5.6, width: 25, height: 21)), with: .color(.orange.opacity(0.55)))
        }
        let url = tempURL("render.png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.writePNG(to: url)
        let back = try RasterImage(contentsOfPNG: url)
        XCTAssertEqual(back, image)
    }

    // MARK: What the file holds

    /// Decodes PNG data with libpng directly, without premultiplying: the file's own straight values.
    func rawStraightRGBA(_ data: Data) throws -> [UInt8] {
        try data.withUnsafeBytes { bytes in
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            guard png_image_begin_read_from_memory(&image, bytes.baseAddress, bytes.count) != 0 else {
                throw XCTSkip("libpng could not read the data")
            }
            image.format = 3  // RGBA
            var out = [UInt8](repeating: 0, count: Int(image.width * image.height) * 4)
            let ok = out.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
            XCTAssertNotEqual(ok, 0)
            return out
        }
    }

    /// Encodes straight RGBA (or another libpng format) with libpng directly.
    func encodeWithLibpng(width: Int, height: Int, format: UInt32, _ bytes: [UInt8]) -> Data {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = format
        var size: png_alloc_size_t = 0
        _ = bytes.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, 0, nil) }
        var data = Data(count: Int(size))
        image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = format
        let ok = data.withUnsafeMutableBytes { dst in
            bytes.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, 0, nil) }
        }
        XCTAssertNotEqual(ok, 0)
        return data.prefix(Int(size))
    }

    func testFileHoldsStraightAlpha() throws {
        let image = RasterImage(width: 3, height: 1, pixels: [
            128, 0, 64, 128,     // → (255, 0, 127.5 → 128, 128)
            10, 20, 30, 0,       // alpha 0: all zero, whatever the colour bytes say
            51, 102, 153, 255,   // opaque: unchanged
        ])
        XCTAssertEqual(try rawStraightRGBA(image.pngData()), [255, 0, 128, 128, 0, 0, 0, 0, 51, 102, 153, 255])
    }

    func testDecodingPremultipliesAndConvertsOtherFormats() throws {
        // Straight (255, 0, 100, 128) → (128, 0, 100·128/255 = 50.2 → 50, 128).
        let rgba = encodeWithLibpng(width: 2, height: 1, format: 3, [255, 0, 100, 128, 7, 8, 9, 255])
        let img = try RasterImage(pngData: rgba)
        XCTAssertEqual(img.pixel(x: 0, y: 0), PixelRGBA8(r: 128, g: 0, b: 50, a: 128))
        XCTAssertEqual(img.pixel(x: 1, y: 0), PixelRGBA8(r: 7, g: 8, b: 9, a: 255))
        // 8-bit grey without alpha (libpng format 0) → opaque grey.
        let grey = encodeWithLibpng(width: 1, height: 2, format: 0, [200, 17])
        let g = try RasterImage(pngData: grey)
        XCTAssertEqual(g.pixel(x: 0, y: 0), PixelRGBA8(r: 200, g: 200, b: 200, a: 255))
        XCTAssertEqual(g.pixel(x: 0, y: 1), PixelRGBA8(r: 17, g: 17, b: 17, a: 255))
    }

    // MARK: Errors

    func assertInvalidPNG(_ data: Data, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try RasterImage(pngData: data), what, file: file, line: line) { error in
            guard case ImageError.invalidPNG(let message) = error else {
                return XCTFail("\(what): expected invalidPNG, got \(error)", file: file, line: line)
            }
            XCTAssertFalse(message.isEmpty, file: file, line: line)
            XCTAssert("\(error)".hasPrefix("not a valid PNG: "), "\(error)", file: file, line: line)
        }
    }

    func testCorruptAndTruncatedDataGiveLibpngsMessage() throws {
        let good = try RasterImage(width: 16, height: 16, pixels: [UInt8](repeating: 90, count: 16 * 16 * 4)).pngData()
        assertInvalidPNG(Data(), "empty")
        assertInvalidPNG(Data("GIF89a, not a PNG at all".utf8), "not a PNG")
        assertInvalidPNG(good.prefix(good.count / 2), "truncated")
        assertInvalidPNG(good.prefix(20), "cut inside the header")
        var flipped = good
        flipped[flipped.count / 2] ^= 0xFF  // corrupt compressed data (and its CRC no longer matches)
        assertInvalidPNG(flipped, "corrupt")
        // libpng's own words reach the user, e.g. "Not a PNG file".
        XCTAssertThrowsError(try RasterImage(pngData: Data("GIF89a, not a PNG at all".utf8))) { error in
            XCTAssert("\(error)".lowercased().contains("png"), "\(error)")
        }
    }

    func testOversizedImageIsRejectedBeforeAllocating() throws {
        var data = try RasterImage(width: 1, height: 1, pixels: [0, 0, 0, 255]).pngData()
        // IHDR: 8-byte signature, 4-byte length, "IHDR", width, height (big-endian), …, CRC over type+data.
        func put(_ v: UInt32, at offset: Int) {
            for k in 0 ..< 4 { data[offset + k] = UInt8(truncatingIfNeeded: v >> (24 - 8 * UInt32(k))) }
        }
        put(20_000, at: 16)
        put(30_000, at: 20)
        put(crc32(data[12 ..< 29]), at: 29)
        XCTAssertThrowsError(try RasterImage(pngData: data)) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 20_000, height: 30_000))
            XCTAssert("\(error)".contains("20000×30000"), "\(error)")
        }
    }

    func testMissingUnreadableAndUnwritableFilesNameThePath() throws {
        let missing = tempURL("does-not-exist.png")
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: missing)) { error in
            XCTAssertEqual(error as? ImageError, .fileNotFound(path: missing.path))
            XCTAssert("\(error)".contains(missing.path), "\(error)")
        }
        let corrupt = tempURL("corrupt.png")
        try Data("definitely not a png".utf8).write(to: corrupt)
        defer { try? FileManager.default.removeItem(at: corrupt) }
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: corrupt)) { error in
            XCTAssert("\(error)".contains(corrupt.path), "\(error)")
        }
        let nowhere = URL(fileURLWithPath: "/nonexistent-directory-\(UUID().uuidString)/out.png")
        XCTAssertThrowsError(try RasterImage(width: 1, height: 1).writePNG(to: nowhere)) { error in
            guard case ImageError.fileUnwritable(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, nowhere.path)
        }
    }

    /// Reading streams the file through libpng: what is not a PNG fails at its first bytes, whatever its size
    /// (/dev/zero never ends), a directory and a short file say so, and the decoded file equals the data.
    func testReadingAFileSaysWhatIsWrongInWords() throws {
        let dir = tempURL("read-dir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: dir)) { error in
            XCTAssertEqual(error as? ImageError, .fileUnreadable(path: dir.path, reason: "it is a directory"))
        }
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            XCTAssertThrowsError(try RasterImage(contentsOfPNG: URL(fileURLWithPath: "/dev/zero"))) { error in
                guard case ImageError.invalidPNG(let message) = error else { return XCTFail("\(error)") }
                XCTAssert(message.hasPrefix("/dev/zero: "), message)
            }
        }
        let image = RasterImage(width: 3, height: 2, pixels: (0 ..< 24).map { UInt8($0 % 4 == 3 ? 255 : $0 * 10) })
        let data = try image.pngData()
        let whole = dir.appendingPathComponent("whole.png")
        try data.write(to: whole)
        XCTAssertEqual(try RasterImage(contentsOfPNG: whole), try RasterImage(pngData: data))
        XCTAssertEqual(try RasterImage(contentsOfPNG: whole), image)
        let short = dir.appendingPathComponent("short.png")
        try data.prefix(data.count - 20).write(to: short)  // cut inside the image data
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: short)) { error in
            XCTAssertEqual(error as? ImageError, .invalidPNG("\(short.path): the file ends before the image does"))
        }
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: URL(string: "https://example.com/a.png")!)) { error in
            XCTAssertEqual(error as? ImageError, .fileUnreadable(path: "https://example.com/a.png", reason: "not a file URL"))
        }
    }

    /// `writePNG` never renames over what is not a regular file: a link is followed, a directory is an error
    /// in words, and a device is written in place (a write error on it reported with errno's text).
    func testWritingFollowsLinksAndRefusesDirectoriesInWords() throws {
        let image = RasterImage(width: 2, height: 2)
        let dir = tempURL("dir")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try image.writePNG(to: dir)) { error in
            XCTAssertEqual(error as? ImageError, .fileUnwritable(path: dir.path, reason: "it is a directory"))
        }
        let link = dir.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.png")
        try image.writePNG(to: link)
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link.path), "target.png")
        XCTAssertEqual(try RasterImage(contentsOfPNG: dir.appendingPathComponent("target.png")).width, 2)
        var st = stat()
        if lstat("/dev/full", &st) == 0, st.st_mode & S_IFMT == S_IFCHR {
            // Should a regression rename a regular file over the device, put the device back.
            addTeardownBlock {
                var now = stat()
                guard lstat("/dev/full", &now) == 0, now.st_mode & S_IFMT != S_IFCHR, getuid() == 0 else { return }
                try? FileManager.default.removeItem(atPath: "/dev/full")
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                p.arguments = ["mknod", "-m", "666", "/dev/full", "c", "1", "7"]
                try? p.run()
                p.waitUntilExit()
            }
            XCTAssertThrowsError(try image.writePNG(to: URL(fileURLWithPath: "/dev/full"))) { error in
                XCTAssertEqual(error as? ImageError,
                               .fileUnwritable(path: "/dev/full", reason: "No space left on device"))
            }
            XCTAssertEqual(lstat("/dev/full", &st), 0)
            XCTAssertEqual(st.st_mode & S_IFMT, S_IFCHR, "/dev/full is no longer a character device")
        }
    }

    func testEmptyImageCannotBeEncoded() {
        XCTAssertThrowsError(try RasterImage(width: 0, height: 5).pngData()) { error in
            guard case ImageError.encodingFailed = error else { return XCTFail("\(error)") }
        }
    }

    /// CRC-32 as the PNG specification defines it (polynomial 0xEDB88320, reflected, inverted).
    func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
