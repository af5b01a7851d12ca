import CGLES
import XCTest
@testable import GPUCanvas

/// JPEG encoding (`jpegData`, `writeJPEG`) and the PNG compression choices (`PNGCompression`): the bytes a
/// file holds, checked by decoding them and by reading the zlib and filter bytes libpng wrote.
final class ImageEncodingTests: XCTestCase {
    /// Flat 8×8 blocks of colour, aligned to JPEG's 8×8 blocks: at quality 90 with full-resolution chroma,
    /// each block's DCT keeps only its DC term, quantised by a step of 2–3 per Y/Cb/Cr level; converting back
    /// to RGB adds rounding, so a channel may move by a few levels. Measured 2 with libjpeg-turbo 2.1.
    static let flatBlockTolerance = 4

    /// 16×16, four 8×8 blocks: red, green, blue, grey (opaque).
    static let blocks: RasterImage = {
        let colours: [[UInt8]] = [[200, 40, 40], [30, 180, 60], [20, 60, 210], [128, 128, 128]]
        var px = [UInt8]()
        for y in 0 ..< 16 {
            for x in 0 ..< 16 {
                px += colours[(y / 8) * 2 + x / 8] + [255]
            }
        }
        return RasterImage(width: 16, height: 16, pixels: px)
    }()

    func testJPEGOfFlatBlocksDecodesToTheirColours() throws {
        let data = try Self.blocks.jpegData()
        XCTAssertEqual(Array(data.prefix(3)), [0xFF, 0xD8, 0xFF], "a JPEG starts with SOI and a marker")
        let decoded = try RasterImage(jpegData: data)
        XCTAssertEqual(decoded.width, 16)
        XCTAssertEqual(decoded.height, 16)
        let d = decoded.difference(from: Self.blocks)
        XCTAssertLessThanOrEqual(d.maxDiff, Self.flatBlockTolerance, "\(d)")
        // Written through writeJPEG, the file holds the same bytes.
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("blocks-\(UUID()).jpg")
        defer { try? FileManager.default.removeItem(at: url) }
        try Self.blocks.writeJPEG(to: url)
        XCTAssertEqual(try Data(contentsOf: url), data)
    }

    /// JPEG has no alpha: the premultiplied colour is written, i.e. the image over black.
    func testTransparentPixelsBecomeBlackAndHalfAlphaIsOverBlack() throws {
        // Premultiplied (100, 0, 0, 128): red 200 at half alpha, over black → (100, 0, 0).
        var px = [UInt8]()
        for i in 0 ..< 16 * 16 { px += i < 128 ? [0, 0, 0, 0] : [100, 0, 0, 128] }
        let decoded = try RasterImage(jpegData: try RasterImage(width: 16, height: 16, pixels: px).jpegData(quality: 100))
        let top = Array(decoded.pixels[0 ..< 4]), bottom = Array(decoded.pixels[(255 * 4) ..< (256 * 4)])
        XCTAssertEqual(top[3], 255)
        XCTAssertLessThanOrEqual(top[0 ..< 3].max()!, 2, "transparent → black: \(top)")
        XCTAssertEqual(Double(bottom[0]), 100, accuracy: 3, "\(bottom)")
        XCTAssertLessThanOrEqual(max(bottom[1], bottom[2]), 3, "\(bottom)")
    }

    func testJPEGQualityTradesSizeAndItsBoundsAreChecked() throws {
        // A noisy image: quality visibly changes the size.
        var rng = SystemRandomNumberGenerator()
        let px = (0 ..< 64 * 64).flatMap { _ in [UInt8.random(in: 0 ... 255, using: &rng), UInt8.random(in: 0 ... 255, using: &rng), 90, 255] }
        let image = RasterImage(width: 64, height: 64, pixels: px)
        XCTAssertLessThan(try image.jpegData(quality: 20).count, try image.jpegData(quality: 95).count)
        for q in [0, 101] {
            XCTAssertThrowsError(try image.jpegData(quality: q)) { error in
                XCTAssertEqual("\(error)", "cannot encode the image: JPEG quality must be 1…100, not \(q)")
            }
        }
        XCTAssertThrowsError(try RasterImage(width: 0, height: 0).jpegData()) { error in
            XCTAssertTrue("\(error)".contains("has no pixels; JPEG needs at least 1×1"), "\(error)")
        }
    }

    /// The raw rows of a PNG's image data (filter byte + pixels) and the zlib header's FLEVEL (bits 6–7 of
    /// its second byte: 0 for level 0–1, 1 for 2–5, 2 for 6, 3 for 7–9).
    private func rowsAndLevel(_ png: Data, width: Int, height: Int) throws -> (filters: [UInt8], flevel: Int) {
        let bytes = [UInt8](png)
        let stream = try APNGDestination.chunks(of: bytes).filter { $0.type == "IDAT" }.flatMap { bytes[$0.data] }
        let rowBytes = 1 + width * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * height)
        var rawCount = uLongf(raw.count)
        XCTAssertEqual(uncompress(&raw, &rawCount, stream, uLong(stream.count)), Z_OK)
        return ((0 ..< height).map { raw[$0 * rowBytes] }, Int(stream[1] >> 6))
    }

    func testEachPNGCompressionIsItsLevelAndFiltersAndDecodesAlike() throws {
        // A vertical gradient over horizontal stripes: Up pays on it, so the adaptive choice uses it too.
        var px = [UInt8]()
        for y in 0 ..< 32 { for x in 0 ..< 32 { px += [UInt8(y * 8), UInt8((x / 4) % 2 * 200), 77, 255] } }
        let image = RasterImage(width: 32, height: 32, pixels: px)
        let fastest = try rowsAndLevel(image.pngData(compression: .fastest), width: 32, height: 32)
        XCTAssertEqual(Set(fastest.filters), [0], "no row filter")
        XCTAssertEqual(fastest.flevel, 0, "zlib level 1")
        let standard = try rowsAndLevel(image.pngData(compression: .default), width: 32, height: 32)
        // libpng writes the first row unfiltered when Up is the only filter (there is no row above it).
        XCTAssertEqual(Set(standard.filters.dropFirst()), [2], "the Up filter on every row after the first")
        XCTAssertEqual(standard.flevel, 1, "zlib level 3")
        XCTAssertEqual(try rowsAndLevel(image.pngData(), width: 32, height: 32).filters, standard.filters, "pngData() is .default")
        let smallest = try rowsAndLevel(image.pngData(compression: .smallest), width: 32, height: 32)
        XCTAssertEqual(smallest.flevel, 3, "zlib level 9")
        for c in PNGCompression.allCases {
            XCTAssertEqual(try RasterImage(pngData: image.pngData(compression: c)), image, "\(c)")
        }
        XCTAssertLessThanOrEqual(try image.pngData(compression: .smallest).count, try image.pngData(compression: .fastest).count)
        // writePNG(to:compression:) writes those bytes.
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("c-\(UUID()).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.writePNG(to: url, compression: .smallest)
        XCTAssertEqual(try Data(contentsOf: url), try image.pngData(compression: .smallest))
    }
}
