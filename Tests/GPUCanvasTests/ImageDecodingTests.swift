import CJPEG
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Decoding JPEG and PNG from files and bytes, the format sniffed from the first bytes, raw RGBA, and the
/// errors for what is not an image: JPEG files are made here, with libjpeg through the CJPEG module, from
/// pixels the test knows.
final class ImageDecodingTests: XCTestCase {
    /// How far a decoded channel may be from the encoded one for flat 8×8 blocks written at quality 100
    /// without chroma subsampling (`encodeJPEG`'s defaults). At quality 100 every quantisation step is 1,
    /// and a flat block has only its DC coefficient, so each of Y, Cb, Cr loses only roundings: to a whole
    /// number on the way in (½), of the DC coefficient (½ a step, which is 8 levels of every sample: 1/16) and
    /// of the inverse DCT's output (½): 1.06 levels. Blue, the channel with the largest factor
    /// (B = Y + 1.772·(Cb − 128)), is then off by at most 1.06 + 1.772 · 1.06 = 2.94 before its own
    /// rounding to a whole number, so by at most 3 levels. (libjpeg-turbo 2.1 measures 1.)
    static let flatBlockTolerance = 3
    /// Grey (one component, no colour transform) at quality 100: 1.06 levels of rounding as above, so 1.
    static let greyTolerance = 1
    /// CMYK at quality 100 (no colour transform): each channel within 1 as for grey. R = C·K/255 from
    /// C ± 1 and K ± 1 is within (C + K + 1)/255 ≤ 2.004 of the exact value, and rounding both to whole
    /// numbers adds at most 1 more: 3. YCCK turns C, M, Y into Y, Cb, Cr first, so they take the flat-block
    /// bound of 3: (3·K + C + 3)/255 ≤ 4.02, and 5 with the roundings. (Measured: 0 and 1.)
    static let cmykTolerance = 3
    static let ycckTolerance = 5
    /// The mean |difference| per channel allowed for `testSmoothImageAtDefaultQualityStaysClose`: the
    /// encoder's own loss there is 1.7 levels (quantisation at quality 75 and 4:2:0 chroma, measured with
    /// libjpeg-turbo 2.1), while a decoding mistake (channels swapped, chroma misplaced or not upsampled,
    /// the wrong colour transform) moves the mean by tens of levels; 3 lies between.
    static let defaultQualityMeanTolerance = 3.0

    var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ImageDecodingTests-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func file(_ name: String, _ data: Data) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try data.write(to: url)
        return url
    }

    // MARK: Making JPEGs

    /// Eight colours, one to an 8×8 block, four blocks across and two down: a 32×16 RGB image.
    static let blockColours: [[UInt8]] = [
        [255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255],
        [0, 0, 0], [128, 128, 128], [255, 160, 20], [20, 120, 140],
    ]

    func blockImageRGB() -> [UInt8] {
        var px = [UInt8](repeating: 0, count: 32 * 16 * 3)
        for y in 0 ..< 16 {
            for x in 0 ..< 32 {
                let colour = Self.blockColours[(y / 8) * 4 + x / 8]
                for k in 0 ..< 3 { px[(y * 32 + x) * 3 + k] = colour[k] }
            }
        }
        return px
    }

    func blockJPEG(progressive: Bool = false, app1: [UInt8]? = nil) -> Data {
        encodeJPEG(width: 32, height: 16, components: 3, colorSpace: JCS_RGB, blockImageRGB(),
                   progressive: progressive, app1: app1)
    }

    /// The largest difference of any R, G, B byte of `image` from `expected` (R, G, B per pixel), checking
    /// that every pixel is opaque.
    func maxDifference(_ image: RasterImage, rgb expected: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> Int {
        XCTAssertEqual(image.pixels.count / 4, expected.count / 3, file: file, line: line)
        var worst = 0
        for i in 0 ..< min(image.pixels.count / 4, expected.count / 3) {
            for k in 0 ..< 3 { worst = max(worst, abs(Int(image.pixels[i * 4 + k]) - Int(expected[i * 3 + k]))) }
            XCTAssertEqual(image.pixels[i * 4 + 3], 255, "pixel \(i) not opaque", file: file, line: line)
        }
        return worst
    }

    // MARK: Decoding JPEG

    func testColourBlocksDecodeWithinTheirTolerance() throws {
        let data = blockJPEG()
        let image = try RasterImage(jpegData: data)
        XCTAssertEqual(image.width, 32)
        XCTAssertEqual(image.height, 16)
        XCTAssertLessThanOrEqual(maxDifference(image, rgb: blockImageRGB()), Self.flatBlockTolerance)
        // Every way in decodes the same bytes.
        let url = try file("blocks.jpg", data)
        XCTAssertEqual(try RasterImage(contentsOfJPEG: url), image)
        XCTAssertEqual(try RasterImage(contentsOf: url), image)
        XCTAssertEqual(try RasterImage(data: data), image)
        // A progressive file of the same pixels is held whole in coefficient buffers, then decoded alike.
        let progressive = try RasterImage(jpegData: blockJPEG(progressive: true))
        XCTAssertLessThanOrEqual(maxDifference(progressive, rgb: blockImageRGB()), Self.flatBlockTolerance)
    }

    /// A smooth image at libjpeg's defaults (quality 75, chroma halved both ways): the decoding path a
    /// camera's file takes (upsampled chroma, real quantisation), checked on the mean difference.
    func testSmoothImageAtDefaultQualityStaysClose() throws {
        let w = 48, h = 40
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0 ..< h {
            for x in 0 ..< w {
                rgb[(y * w + x) * 3] = UInt8(40 + x * 4)
                rgb[(y * w + x) * 3 + 1] = UInt8(30 + y * 5)
                rgb[(y * w + x) * 3 + 2] = UInt8(200 - (x + y) * 2)
            }
        }
        let image = try RasterImage(jpegData: encodeJPEG(width: w, height: h, components: 3, colorSpace: JCS_RGB, rgb,
                                                         quality: 75, fullChroma: false))
        var sum = 0
        for i in 0 ..< w * h { for k in 0 ..< 3 { sum += abs(Int(image.pixels[i * 4 + k]) - Int(rgb[i * 3 + k])) } }
        XCTAssertLessThan(Double(sum) / Double(w * h * 3), Self.defaultQualityMeanTolerance)
    }

    func testGreyscaleJPEGBecomesOpaqueGrey() throws {
        let w = 16, h = 8
        let grey = (0 ..< w * h).map { i in UInt8([0, 37, 128, 255][(i % w) / 4]) }  // four flat 4-wide bands
        let image = try RasterImage(jpegData: encodeJPEG(width: w, height: h, components: 1, colorSpace: JCS_GRAYSCALE, grey))
        XCTAssertEqual(image.width, w)
        var worst = 0
        for i in 0 ..< w * h {
            let p = image.pixel(x: i % w, y: i / w)
            XCTAssertEqual(p.r, p.g); XCTAssertEqual(p.g, p.b); XCTAssertEqual(p.a, 255)
            worst = max(worst, abs(Int(p.r) - Int(grey[i])))
        }
        XCTAssertLessThanOrEqual(worst, Self.greyTolerance)
    }

    /// CMYK as Photoshop writes it (Adobe marker, inverted bytes: 255 − ink), as other tools write it (no
    /// marker, plain ink), and YCCK (Adobe's transform 2, inverted like its CMYK): all give the same RGB.
    func testCMYKAndYCCKConvertToRGB() throws {
        // Ink (C, M, Y, K) per 8×8 block → the RGB it gives: R = 255·(1 − C)(1 − K) on 0…1 values.
        let inks: [(cmyk: [UInt8], rgb: [UInt8])] = [
            ([255, 0, 0, 0], [0, 255, 255]),      // cyan
            ([0, 255, 255, 0], [255, 0, 0]),      // red
            ([0, 0, 0, 255], [0, 0, 0]),          // black
            ([0, 0, 0, 0], [255, 255, 255]),      // paper
            ([0, 0, 0, 128], [127, 127, 127]),    // half black: 255·127/255
            ([51, 102, 153, 51], [163, 122, 82]), // 255·0.8·0.8 = 163.2, ·0.6·0.8 = 122.4, ·0.4·0.8 = 81.6
        ]
        let w = 8 * inks.count, h = 8
        var plain = [UInt8](repeating: 0, count: w * h * 4), rgb = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0 ..< h {
            for x in 0 ..< w {
                for k in 0 ..< 4 { plain[(y * w + x) * 4 + k] = inks[x / 8].cmyk[k] }
                for k in 0 ..< 3 { rgb[(y * w + x) * 3 + k] = inks[x / 8].rgb[k] }
            }
        }
        let inverted = plain.map { 255 - $0 }

        let adobe = encodeJPEG(width: w, height: h, components: 4, colorSpace: JCS_CMYK, inverted, jpegColorSpace: JCS_CMYK)
        let noMarker = encodeJPEG(width: w, height: h, components: 4, colorSpace: JCS_CMYK, plain,
                                  jpegColorSpace: JCS_CMYK, adobeMarker: false)
        let ycck = encodeJPEG(width: w, height: h, components: 4, colorSpace: JCS_CMYK, inverted, jpegColorSpace: JCS_YCCK)
        XCTAssertLessThanOrEqual(maxDifference(try RasterImage(jpegData: adobe), rgb: rgb), Self.cmykTolerance, "Adobe CMYK")
        XCTAssertLessThanOrEqual(maxDifference(try RasterImage(jpegData: noMarker), rgb: rgb), Self.cmykTolerance, "plain CMYK")
        XCTAssertLessThanOrEqual(maxDifference(try RasterImage(jpegData: ycck), rgb: rgb), Self.ycckTolerance, "YCCK")
    }

    func testCMYKFormula() {
        var px: [UInt8] = [0, 255, 255, 0, 51, 102, 153, 51]
        RasterImage.convertCMYKToRGBA(&px, inverted: false)
        XCTAssertEqual(px, [255, 0, 0, 255, 163, 122, 82, 255])
        var inv: [UInt8] = [255, 0, 0, 255]
        RasterImage.convertCMYKToRGBA(&inv, inverted: true)
        XCTAssertEqual(inv, [255, 0, 0, 255])
    }

    // MARK: EXIF orientation

    /// An APP1 payload: "Exif\0\0", a TIFF header in either byte order, IFD0 with an orientation entry.
    func exif(orientation: Int, bigEndian: Bool = true) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 255)] : [UInt8(v & 255), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let order: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        // A first entry (ImageWidth, LONG) before the orientation, so the search goes past one.
        return Array("Exif".utf8) + [0, 0] + order + u16(42) + u32(8) + u16(2)
            + u16(0x0100) + u16(4) + u32(1) + u32(32)
            + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
            + u32(0)
    }

    func rotatedClockwise(_ image: RasterImage) -> RasterImage {
        var out = RasterImage(width: image.height, height: image.width)
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                // The left column becomes the top row: (x, y) goes to (height − 1 − y, x).
                let s = (y * image.width + x) * 4, d = (x * out.width + (image.height - 1 - y)) * 4
                for k in 0 ..< 4 { out.pixels[d + k] = image.pixels[s + k] }
            }
        }
        return out
    }

    func mirroredLeftRight(_ image: RasterImage) -> RasterImage {
        var out = image
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let s = (y * image.width + x) * 4, d = (y * image.width + image.width - 1 - x) * 4
                for k in 0 ..< 4 { out.pixels[d + k] = image.pixels[s + k] }
            }
        }
        return out
    }

    /// Each orientation is the stored image turned as EXIF says, built here from two plain operations:
    /// 2 mirror, 3 turn 180°, 4 mirror top–bottom (= turn 180° then mirror), 5 transpose (= turn clockwise
    /// then mirror), 6 turn clockwise, 7 transverse (= turn counter-clockwise then mirror), 8 turn
    /// counter-clockwise. The entropy data is the same in every file, so the pixels match exactly.
    func testEXIFOrientationTurnsTheImage() throws {
        let stored = try RasterImage(jpegData: blockJPEG())
        let cw = rotatedClockwise, m = mirroredLeftRight
        let expected: [Int: RasterImage] = [
            1: stored, 2: m(stored), 3: cw(cw(stored)), 4: m(cw(cw(stored))),
            5: m(cw(stored)), 6: cw(stored), 7: m(cw(cw(cw(stored)))), 8: cw(cw(cw(stored))),
        ]
        for orientation in 1 ... 8 {
            for bigEndian in [true, false] {
                let image = try RasterImage(jpegData: blockJPEG(app1: exif(orientation: orientation, bigEndian: bigEndian)))
                XCTAssertEqual(image, expected[orientation], "orientation \(orientation), big-endian \(bigEndian)")
            }
        }
        // In words, for 6 (a camera held turned right): the stored bottom-left block (black) is shown top
        // left, the stored top-left block (red) top right, and the image is 16 wide and 32 tall.
        let six = try RasterImage(jpegData: blockJPEG(app1: exif(orientation: 6)))
        XCTAssertEqual(six.width, 16)
        XCTAssertEqual(six.height, 32)
        XCTAssertLessThanOrEqual(Int(six.pixel(x: 3, y: 3).r), Self.flatBlockTolerance)   // black
        XCTAssertGreaterThanOrEqual(Int(six.pixel(x: 12, y: 3).r), 255 - Self.flatBlockTolerance)   // red
        XCTAssertLessThanOrEqual(Int(six.pixel(x: 12, y: 3).g), Self.flatBlockTolerance)
    }

    func testMalformedEXIFMeansNoTurn() throws {
        XCTAssertEqual(RasterImage.exifOrientation(app1: exif(orientation: 6)), 6)
        XCTAssertEqual(RasterImage.exifOrientation(app1: exif(orientation: 3, bigEndian: false)), 3)
        XCTAssertNil(RasterImage.exifOrientation(app1: exif(orientation: 9)))
        XCTAssertNil(RasterImage.exifOrientation(app1: Array("http://ns.adobe.com/xap/1.0/".utf8)))  // XMP
        let full = exif(orientation: 6)
        // The orientation's value ends at byte 38 (6 "Exif\0\0", 8 TIFF header, 2 count, 12 for the first
        // entry, 10 of the second); what follows (padding, the next IFD's offset) is not needed.
        for cut in 0 ... full.count {
            XCTAssertEqual(RasterImage.exifOrientation(app1: Array(full.prefix(cut))), cut < 38 ? nil : 6, "cut at \(cut)")
        }
        var farOffset = full
        farOffset[10 ..< 14] = [0xFF, 0xFF, 0xFF, 0xF0]   // IFD0 far beyond the payload
        XCTAssertNil(RasterImage.exifOrientation(app1: farOffset))
        // A file whose EXIF is cut short still decodes, as stored.
        let stored = try RasterImage(jpegData: blockJPEG())
        XCTAssertEqual(try RasterImage(jpegData: blockJPEG(app1: Array(full.prefix(20)))), stored)
    }

    // MARK: Errors

    func testTruncatedJPEGNamesTheFile() throws {
        let data = blockJPEG()
        let url = try file("photo.jpg", data.prefix(data.count / 2))
        let expected = "\(url.path): JPEG data is truncated (Premature end of JPEG file)"
        XCTAssertThrowsError(try RasterImage(contentsOfJPEG: url)) { error in
            XCTAssertEqual(error as? ImageError, .invalidJPEG(path: url.path, reason: "JPEG data is truncated (Premature end of JPEG file)"))
            XCTAssertEqual("\(error)", expected)
        }
        XCTAssertThrowsError(try RasterImage(contentsOf: url)) { error in XCTAssertEqual("\(error)", expected) }
        XCTAssertThrowsError(try RasterImage(jpegData: data.prefix(data.count / 2))) { error in
            XCTAssertEqual("\(error)", "JPEG data is truncated (Premature end of JPEG file)")
        }
    }

    /// Every proper prefix of a JPEG, from nothing to all but its last byte, is an error: none crashes,
    /// none exits, none comes back as a grey-padded image.
    func testEveryPrefixOfAJPEGIsAnError() throws {
        for progressive in [false, true] {
            let data = blockJPEG(progressive: progressive)
            for cut in 0 ..< data.count {
                XCTAssertThrowsError(try RasterImage(jpegData: data.prefix(cut)), "cut at \(cut) of \(data.count)") { error in
                    guard case ImageError.invalidJPEG(nil, let reason)? = error as? ImageError else {
                        return XCTFail("cut at \(cut): \(error)")
                    }
                    XCTAssertFalse(reason.isEmpty)
                }
            }
            XCTAssertNoThrow(try RasterImage(jpegData: data))
        }
    }

    /// Bytes changed after the frame header (tables, scan header, entropy data): each copy decodes to an
    /// image of the right size or throws `invalidJPEG`, never crashes. (Changes to the frame header's
    /// size could ask for a legal 16384 × 16384 image; that limit has its own test.)
    func testCorruptedJPEGsDecodeOrThrow() throws {
        let data = [UInt8](blockJPEG())
        let sof = try XCTUnwrap((0 ..< data.count - 1).first { data[$0] == 0xFF && data[$0 + 1] == 0xC0 })
        let afterFrame = sof + 2 + (Int(data[sof + 2]) << 8 | Int(data[sof + 3]))
        var rng = FormulaTestRandom(seed: 7)
        var decoded = 0, failed = 0
        for _ in 0 ..< 400 {
            var bytes = data
            for _ in 0 ..< Int(rng.next() % 3) + 1 {
                let at = afterFrame + Int(rng.next() % UInt64(data.count - afterFrame))
                bytes[at] = UInt8(truncatingIfNeeded: rng.next())
            }
            do {
                let image = try RasterImage(jpegData: Data(bytes))
                XCTAssertEqual(image.width, 32)
                XCTAssertEqual(image.height, 16)
                decoded += 1
            } catch let error as ImageError {
                guard case .invalidJPEG = error else { return XCTFail("\(error)") }
                failed += 1
            }
        }
        XCTAssertGreaterThan(failed, 0)
    }

    func testGarbageIsNeitherFormat() throws {
        var rng = FormulaTestRandom(seed: 42)
        var garbage = (0 ..< 1000).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        garbage[0] = 0x47; garbage[1] = 0x49; garbage[2] = 0x46; garbage[3] = 0x38   // "GIF8"
        let url = try file("logo.png", Data(garbage))
        XCTAssertThrowsError(try RasterImage(contentsOf: url)) { error in
            XCTAssertEqual(error as? ImageError, .unrecognizedFormat(path: url.path, firstBytes: Array(garbage.prefix(8))))
            XCTAssertEqual("\(error)", "\(url.path): neither PNG nor JPEG (starts with 0x47 0x49 0x46 0x38)")
        }
        XCTAssertThrowsError(try RasterImage(data: Data(garbage))) { error in
            XCTAssertEqual("\(error)", "image data is neither PNG nor JPEG (starts with 0x47 0x49 0x46 0x38)")
        }
        XCTAssertThrowsError(try RasterImage(jpegData: Data(garbage))) { error in
            XCTAssertEqual("\(error)", "not a JPEG file (starts with 0x47 0x49)")
        }
        // Garbage behind a start-of-image marker reaches libjpeg, which says what it found.
        garbage[0] = 0xFF; garbage[1] = 0xD8
        for seed in 0 ..< 50 as Range<UInt64> {
            var r = FormulaTestRandom(seed: seed)
            for i in 2 ..< garbage.count { garbage[i] = UInt8(truncatingIfNeeded: r.next()) }
            XCTAssertThrowsError(try RasterImage(data: Data(garbage))) { error in
                guard case ImageError.invalidJPEG(nil, _)? = error as? ImageError else { return XCTFail("\(error)") }
            }
        }
        // Empty files and data.
        let empty = try file("empty.jpg", Data())
        XCTAssertThrowsError(try RasterImage(contentsOf: empty)) { error in
            XCTAssertEqual("\(error)", "\(empty.path): neither PNG nor JPEG (the file is empty)")
        }
        XCTAssertThrowsError(try RasterImage(contentsOfJPEG: empty)) { error in
            XCTAssertEqual("\(error)", "\(empty.path): the file is empty")
        }
        XCTAssertThrowsError(try RasterImage(data: Data())) { error in
            XCTAssertEqual("\(error)", "image data is neither PNG nor JPEG (it is empty)")
        }
        XCTAssertThrowsError(try RasterImage(jpegData: Data())) { error in
            XCTAssertEqual("\(error)", "JPEG data is empty")
        }
    }

    func testAPNGIsNotAJPEG() throws {
        let png = try RasterImage(width: 2, height: 2, pixels: [UInt8](repeating: 255, count: 16)).pngData()
        let url = try file("logo.jpg", png)
        XCTAssertThrowsError(try RasterImage(contentsOfJPEG: url)) { error in
            XCTAssertEqual("\(error)", "\(url.path): not a JPEG file (starts with 0x89 0x50)")
        }
        // Sniffing goes by the bytes, not the name.
        XCTAssertEqual(try RasterImage(contentsOf: url).width, 2)
        XCTAssertThrowsError(try RasterImage(contentsOfPNG: try file("photo.png", blockJPEG()))) { error in
            guard case ImageError.invalidPNG(let message)? = error as? ImageError else { return XCTFail("\(error)") }
            XCTAssert(message.contains("photo.png"), message)
        }
    }

    func testMissingFilesAndDirectoriesSaySo() throws {
        let missing = directory.appendingPathComponent("nope.jpg")
        for read in [RasterImage.init(contentsOf:), RasterImage.init(contentsOfJPEG:)] {
            XCTAssertThrowsError(try read(missing)) { error in
                XCTAssertEqual(error as? ImageError, .fileNotFound(path: missing.path))
            }
            XCTAssertThrowsError(try read(directory)) { error in
                XCTAssertEqual(error as? ImageError, .fileUnreadable(path: self.directory.path, reason: "it is a directory"))
            }
            XCTAssertThrowsError(try read(URL(string: "https://example.com/a.jpg")!)) { error in
                XCTAssertEqual(error as? ImageError, .fileUnreadable(path: "https://example.com/a.jpg", reason: "not a file URL"))
            }
        }
        if FileManager.default.fileExists(atPath: "/dev/zero") {
            XCTAssertThrowsError(try RasterImage(contentsOf: URL(fileURLWithPath: "/dev/zero"))) { error in
                XCTAssertEqual("\(error)", "/dev/zero: neither PNG nor JPEG (starts with 0x00 0x00 0x00 0x00)")
            }
            XCTAssertThrowsError(try RasterImage(contentsOfJPEG: URL(fileURLWithPath: "/dev/zero"))) { error in
                XCTAssertEqual("\(error)", "/dev/zero: not a JPEG file (starts with 0x00 0x00)")
            }
        }
    }

    // MARK: The size limit

    /// A header asking for more than `maxPixelDimension` per side is refused before any pixel memory is
    /// taken, in both formats, and the error names the file and the size.
    func testOversizedHeadersAreRefusedWithTheFileName() throws {
        XCTAssertEqual(maxPixelDimension, 16384)
        var jpeg = [UInt8](blockJPEG())
        let sof = try XCTUnwrap((0 ..< jpeg.count - 1).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        // SOF0: FF C0, length (2), precision (1), height (2), width (2), big-endian.
        jpeg[sof + 5] = UInt8(40000 >> 8); jpeg[sof + 6] = UInt8(40000 & 255)
        jpeg[sof + 7] = UInt8(40000 >> 8); jpeg[sof + 8] = UInt8(40000 & 255)
        let huge = try file("huge.jpg", Data(jpeg))
        let message = "\(huge.path): image 40000×40000 exceeds the limit of 16384 pixels per side"
        for read in [RasterImage.init(contentsOf:), RasterImage.init(contentsOfJPEG:)] {
            XCTAssertThrowsError(try read(huge)) { error in
                XCTAssertEqual(error as? ImageError, .tooLarge(width: 40000, height: 40000, path: huge.path))
                XCTAssertEqual("\(error)", message)
            }
        }
        XCTAssertThrowsError(try RasterImage(jpegData: Data(jpeg))) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 40000, height: 40000))
        }

        var png = try [UInt8](RasterImage(width: 1, height: 1, pixels: [0, 0, 0, 255]).pngData())
        for (offset, value) in [(16, UInt32(40000)), (20, 40000)] {
            for k in 0 ..< 4 { png[offset + k] = UInt8(truncatingIfNeeded: value >> (24 - 8 * UInt32(k))) }
        }
        let crc = crc32(png[12 ..< 29])
        for k in 0 ..< 4 { png[29 + k] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32(k))) }
        let hugePNG = try file("huge.png", Data(png))
        for read in [RasterImage.init(contentsOf:), RasterImage.init(contentsOfPNG:)] {
            XCTAssertThrowsError(try read(hugePNG)) { error in
                XCTAssertEqual("\(error)", "\(hugePNG.path): image 40000×40000 exceeds the limit of 16384 pixels per side")
            }
        }
        XCTAssertThrowsError(try RasterImage(data: Data(png))) { error in
            XCTAssertEqual(error as? ImageError, .tooLarge(width: 40000, height: 40000))
        }
    }

    func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    // MARK: PNG through the shared path

    func testPNGFromDataEqualsPNGFromAFile() throws {
        // Translucent pixels, so the premultiplication is part of what is compared.
        let image = RasterImage(width: 3, height: 2, pixels: [
            128, 0, 64, 128, 0, 0, 0, 0, 51, 102, 153, 255,
            10, 20, 30, 40, 200, 100, 0, 200, 1, 2, 3, 4,
        ])
        let data = try image.pngData()
        let url = try file("translucent.png", data)
        let fromData = try RasterImage(pngData: data)
        XCTAssertEqual(fromData, image)
        XCTAssertEqual(try RasterImage(data: data), fromData)
        XCTAssertEqual(try RasterImage(contentsOf: url), fromData)
        XCTAssertEqual(try RasterImage(contentsOfPNG: url), fromData)
        // A file cut short reads the same way, whichever entry point.
        let short = try file("short.png", data.prefix(data.count - 20))
        XCTAssertThrowsError(try RasterImage(contentsOf: short)) { error in
            XCTAssertEqual(error as? ImageError, .invalidPNG("\(short.path): the file ends before the image does"))
        }
    }

    /// A pipe cannot be rewound after its first bytes are sniffed; it is read whole and decoded from memory.
    func testImagesArriveThroughAPipe() throws {
        let jpeg = blockJPEG()
        let png = try RasterImage(width: 2, height: 1, pixels: [128, 0, 0, 128, 0, 0, 255, 255]).pngData()
        for (name, data) in [("pipe.jpg", jpeg), ("pipe.png", png), ("pipe.gif", Data("GIF89a…".utf8))] {
            let fifo = directory.appendingPathComponent(name)
            XCTAssertEqual(mkfifo(fifo.path, 0o600), 0)
            let writer = Thread {
                // Opening for writing waits for the reader, as the reader's open waits for this.
                guard let handle = FileHandle(forWritingAtPath: fifo.path) else { return }
                handle.write(data)
                try? handle.close()
            }
            writer.start()
            let result = Result { try RasterImage(contentsOf: fifo) }
            switch name {
            case "pipe.jpg": XCTAssertEqual(try result.get(), try RasterImage(jpegData: jpeg))
            case "pipe.png": XCTAssertEqual(try result.get(), try RasterImage(pngData: png))
            default:
                XCTAssertThrowsError(try result.get()) { error in
                    XCTAssertEqual("\(error)", "\(fifo.path): neither PNG nor JPEG (starts with 0x47 0x49 0x46 0x38)")
                }
            }
        }
    }

    // MARK: Raw pixels

    func testRawRGBAIsPremultipliedLikeThePNGReader() throws {
        let straight: [UInt8] = [255, 0, 100, 128, 7, 8, 9, 255, 10, 20, 30, 0, 200, 201, 202, 1]
        let image = try RasterImage(width: 2, height: 2, rgba: straight, premultiplied: false)
        XCTAssertEqual(image.pixels, RasterImage.premultiplied(straight))
        XCTAssertEqual(image.pixel(x: 0, y: 0), PixelRGBA8(r: 128, g: 0, b: 50, a: 128))
        XCTAssertEqual(image.pixel(x: 0, y: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
        // The same straight pixels through a PNG file give the same bytes.
        let viaPNG = try RasterImage(pngData: image.pngData())
        XCTAssertEqual(viaPNG, image)
        let premultiplied: [UInt8] = [128, 0, 50, 128, 0, 0, 0, 0]
        XCTAssertEqual(try RasterImage(width: 2, height: 1, rgba: premultiplied, premultiplied: true).pixels, premultiplied)
    }

    func testRawRGBAValidation() {
        func reason(_ make: @autoclosure () throws -> RasterImage) -> String {
            do {
                _ = try make()
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(reason(try RasterImage(width: 2, height: 2, rgba: [UInt8](repeating: 0, count: 15), premultiplied: false)),
                       "raw RGBA: 15 bytes do not make 2×2 RGBA8 pixels (16 bytes)")
        XCTAssertEqual(reason(try RasterImage(width: 0, height: 5, rgba: [], premultiplied: false)),
                       "raw RGBA: a 0×5 image has no pixels; both sides must be at least 1")
        XCTAssertEqual(reason(try RasterImage(width: -2, height: -2, rgba: [UInt8](repeating: 0, count: 16), premultiplied: true)),
                       "raw RGBA: a -2×-2 image has no pixels; both sides must be at least 1")
        // Checked before the length, so Int.max × Int.max cannot overflow.
        XCTAssertEqual(reason(try RasterImage(width: Int.max, height: Int.max, rgba: [], premultiplied: false)),
                       "image \(Int.max)×\(Int.max) exceeds the limit of 16384 pixels per side")
        XCTAssertEqual(reason(try RasterImage(width: 16385, height: 1, rgba: [], premultiplied: false)),
                       "image 16385×1 exceeds the limit of 16384 pixels per side")
        XCTAssertEqual(reason(try RasterImage(width: 2, height: 1, rgba: [10, 10, 10, 10, 10, 11, 0, 10], premultiplied: true)),
                       "raw RGBA: premultiplied pixel (1, 0) is (10, 11, 0, 10): a colour byte above its alpha")
        // The same bytes are fine as straight colour.
        XCTAssertEqual(reason(try RasterImage(width: 2, height: 1, rgba: [10, 10, 10, 10, 10, 11, 0, 10], premultiplied: false)),
                       "no error")
    }
}

/// JPEG files for the tests that need them (ImageDecodingTests, SceneImageTests).
extension XCTestCase {
    /// Encodes `pixels` (`components` bytes a pixel, `colorSpace`'s order) with libjpeg, in memory.
    /// `jpegColorSpace` is the colour space stored in the file (libjpeg's default for the input otherwise);
    /// `fullChroma` writes every component at full resolution (4:4:4); `adobeMarker` overrides whether the
    /// Adobe APP14 marker is written; `app1` is written as an APP1 marker after the JFIF one.
    func encodeJPEG(width: Int, height: Int, components: Int, colorSpace: J_COLOR_SPACE, _ pixels: [UInt8],
                    quality: Int32 = 100, jpegColorSpace: J_COLOR_SPACE? = nil, fullChroma: Bool = true,
                    adobeMarker: Bool? = nil, progressive: Bool = false, app1: [UInt8]? = nil) -> Data {
        precondition(pixels.count == width * height * components)
        let cinfo = UnsafeMutablePointer<jpeg_compress_struct>.allocate(capacity: 1)
        cinfo.initialize(to: jpeg_compress_struct())
        let err = UnsafeMutablePointer<jpeg_error_mgr>.allocate(capacity: 1)
        err.initialize(to: jpeg_error_mgr())
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        let size = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        size.initialize(to: 0)
        defer {
            jpeg_destroy_compress(cinfo)
            free(buffer.pointee)
            cinfo.deallocate(); err.deallocate(); buffer.deallocate(); size.deallocate()
        }
        // The encoder's inputs are the test's own and valid, so libjpeg's exiting error handler never runs.
        cinfo.pointee.err = jpeg_std_error(err)
        jpeg_CreateCompress(cinfo, JPEG_LIB_VERSION, MemoryLayout<jpeg_compress_struct>.size)
        jpeg_mem_dest(cinfo, buffer, size)
        cinfo.pointee.image_width = JDIMENSION(width)
        cinfo.pointee.image_height = JDIMENSION(height)
        cinfo.pointee.input_components = Int32(components)
        cinfo.pointee.in_color_space = colorSpace
        jpeg_set_defaults(cinfo)
        if let jpegColorSpace { jpeg_set_colorspace(cinfo, jpegColorSpace) }
        jpeg_set_quality(cinfo, quality, 1)   // 1: TRUE (force baseline tables)
        if fullChroma {
            for c in 0 ..< Int(cinfo.pointee.num_components) {
                cinfo.pointee.comp_info[c].h_samp_factor = 1
                cinfo.pointee.comp_info[c].v_samp_factor = 1
            }
        }
        if let adobeMarker { cinfo.pointee.write_Adobe_marker = adobeMarker ? 1 : 0 }
        if progressive { jpeg_simple_progression(cinfo) }
        jpeg_start_compress(cinfo, 1)   // 1: write all tables
        if let app1 { jpeg_write_marker(cinfo, JPEG_APP0 + 1, app1, UInt32(app1.count)) }
        pixels.withUnsafeBufferPointer { px in
            var row: JSAMPROW? = nil
            for y in 0 ..< height {
                row = UnsafeMutablePointer(mutating: px.baseAddress! + y * width * components)
                jpeg_write_scanlines(cinfo, &row, 1)
            }
        }
        jpeg_finish_compress(cinfo)
        return Data(bytes: buffer.pointee!, count: Int(size.pointee))
    }
}
