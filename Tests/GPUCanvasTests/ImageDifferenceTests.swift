import XCTest
@testable import GPUCanvas

/// `RasterImage.difference(from:)`: the quality-bar numbers on small images worked out by hand.
final class ImageDifferenceTests: XCTestCase {
    /// PSNR goes through log10 of a ratio of small integers; 1e-9 dB is far below any meaningful difference.
    static let psnrAccuracy = 1e-9

    func image(_ w: Int, _ h: Int, fill: PixelRGBA8 = PixelRGBA8(r: 10, g: 20, b: 30, a: 255)) -> RasterImage {
        var pixels: [UInt8] = []
        for _ in 0 ..< w * h { pixels += [fill.r, fill.g, fill.b, fill.a] }
        return RasterImage(width: w, height: h, pixels: pixels)
    }

    func testIdenticalImages() {
        let a = image(10, 10)
        let d = a.difference(from: a)
        XCTAssertEqual(d.maxDiff, 0)
        XCTAssertEqual(d.over2, 0)
        XCTAssertEqual(d.pixelsOver2, 0)
        XCTAssertEqual(d.meanAbsDiff, 0)
        XCTAssertEqual(d.psnr, .infinity)
        XCTAssertTrue(d.sameSize)
        XCTAssertTrue(d.meetsDefaultBar)
        // Matching pixels show the dimmed luma: (299·10 + 587·20 + 114·30)/1000 = 18 → 18/4 = 4.
        XCTAssertEqual(d.diffImage.pixel(x: 3, y: 3), PixelRGBA8(r: 4, g: 4, b: 4, a: 255))
    }

    func testOnePixelOffByThreeInOneChannel() {
        let a = image(10, 10)
        var b = a
        b.pixels[(4 * 10 + 7) * 4 + 1] += 3   // pixel (7, 4), green
        let d = a.difference(from: b)
        XCTAssertEqual(d.maxDiff, 3)
        XCTAssertEqual(d.pixelsOver2, 1)
        XCTAssertEqual(d.over2, 0.01)                       // 1 of 100 pixels
        XCTAssertEqual(d.meanAbsDiff, 3.0 / 400)            // 3 over 400 channels
        XCTAssertEqual(d.psnr, 10 * log10(255 * 255 / (9.0 / 400)), accuracy: Self.psnrAccuracy)
        XCTAssertFalse(d.meetsDefaultBar)                   // 1 % of pixels over 2 > 0.1 %
        XCTAssertTrue(d.meets(maxDiff: 8, over2: 0.01))
        XCTAssertEqual(d.diffImage.pixel(x: 7, y: 4), PixelRGBA8(r: 131, g: 0, b: 0, a: 255))  // red, 128 + 3
        // Symmetric.
        XCTAssertEqual(b.difference(from: a).maxDiff, 3)
    }

    func testDifferencesOfTwoOrLessAreNotCountedInOver2() {
        let a = image(4, 4)
        var b = a
        b.pixels[0] += 2
        b.pixels[7] -= 1   // pixel (1, 0), alpha
        let d = a.difference(from: b)
        XCTAssertEqual(d.maxDiff, 2)
        XCTAssertEqual(d.over2, 0)
        XCTAssertEqual(d.meanAbsDiff, 3.0 / 64)
        XCTAssertTrue(d.meetsDefaultBar)
        XCTAssertEqual(d.diffImage.pixel(x: 0, y: 0), PixelRGBA8(r: 0, g: 0, b: 255, a: 255))  // blue
        XCTAssertEqual(d.diffImage.pixel(x: 1, y: 0), PixelRGBA8(r: 0, g: 0, b: 255, a: 255))
    }

    func testLargeDifferencesCapTheDiffImageRed() {
        let a = image(2, 1, fill: PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
        let b = image(2, 1, fill: PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        let d = a.difference(from: b)
        XCTAssertEqual(d.maxDiff, 255)
        XCTAssertEqual(d.over2, 1)
        XCTAssertEqual(d.meanAbsDiff, 255)
        XCTAssertEqual(d.psnr, 0, accuracy: Self.psnrAccuracy)  // MSE = 255²
        XCTAssertEqual(d.diffImage.pixel(x: 1, y: 0), PixelRGBA8(r: 255, g: 0, b: 0, a: 255))
    }

    func testDifferentSizesNeverPass() {
        let a = image(4, 4), b = image(5, 4)
        let d = a.difference(from: b)
        XCTAssertFalse(d.sameSize)
        XCTAssertEqual(d.width, 5)
        XCTAssertEqual(d.height, 4)
        XCTAssertEqual(d.maxDiff, 255)
        XCTAssertEqual(d.pixelsOver2, 4)           // the column only b has
        XCTAssertEqual(d.over2, 0.2)
        XCTAssertFalse(d.meets(maxDiff: 255, over2: 1))
        XCTAssertEqual(d.diffImage.pixel(x: 4, y: 2), PixelRGBA8(r: 255, g: 0, b: 255, a: 255))  // magenta
        XCTAssert(d.description.contains("sizes differ"), d.description)
    }
}
