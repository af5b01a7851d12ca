import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasReference

/// The reference backend's coverage against analytic answers: exact pixel areas, the area of a circle, the
/// fill rules on a self-intersecting star, pixel-centre sampling, and geometry far off the canvas.
final class ReferenceCoverageTests: XCTestCase {
    /// A pixel's alpha is one rounding to nearest of 255 × its exact coverage: off by at most half a step.
    /// 10⁻³ of a step absorbs the Float arithmetic of the compositor (≈ 255 × 2⁻²⁴ per operation).
    static let oneRounding = 0.5 + 1e-3

    // MARK: Helpers

    /// Renders white fills (alpha = coverage) on a `w × h` canvas.
    func render(_ w: Int, _ h: Int, scale: CGFloat = 1,
                _ draw: (inout GraphicsContext, CGSize) -> Void) throws -> RasterImage {
        try CanvasRenderer(backend: .reference).render(size: CGSize(width: w, height: h), scale: scale, draw)
    }

    func alpha(_ img: RasterImage, _ x: Int, _ y: Int) -> Double { Double(img.pixel(x: x, y: y).a) }

    /// Σ alpha / 255 over the image: the total rendered area in pixels.
    func summedCoverage(_ img: RasterImage) -> Double {
        var s = 0
        for i in Swift.stride(from: 3, to: img.pixels.count, by: 4) { s += Int(img.pixels[i]) }
        return Double(s) / 255
    }

    /// Number of pixels with 0 < alpha < 255: each carries at most half a step (1/510 px²) of rounding into
    /// a summed area.
    func partialPixels(_ img: RasterImage) -> Int {
        var n = 0
        for i in Swift.stride(from: 3, to: img.pixels.count, by: 4) where img.pixels[i] != 0 && img.pixels[i] != 255 {
            n += 1
        }
        return n
    }

    /// Checks every pixel's alpha against the exact area of `polygon` (convex, device pixels) inside it.
    func assertExactCoverage(_ img: RasterImage, convex polygon: [CGPoint], file: StaticString = #filePath,
                             line: UInt = #line) {
        var worst = 0.0
        for y in 0 ..< img.height {
            for x in 0 ..< img.width {
                let expected = ExactCoverage.area(of: polygon, inPixel: x, y) * 255
                let d = abs(alpha(img, x, y) - expected)
                worst = max(worst, d)
                if d > Self.oneRounding {
                    XCTFail("pixel (\(x), \(y)): alpha \(alpha(img, x, y)), exact \(expected)", file: file, line: line)
                    return
                }
            }
        }
        XCTAssertLessThanOrEqual(worst, Self.oneRounding, file: file, line: line)
    }

    func rectPolygon(_ r: CGRect) -> [CGPoint] {
        [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
         CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
    }

    func polygonPath(_ pts: [CGPoint]) -> Path {
        var p = Path()
        p.move(to: pts[0])
        for q in pts.dropFirst() { p.addLine(to: q) }
        p.closeSubpath()
        return p
    }

    func regularPolygon(centre c: CGPoint, radius r: Double, sides n: Int, phase: Double = 0) -> [CGPoint] {
        (0 ..< n).map { i in
            let t = phase + 2 * Double.pi * Double(i) / Double(n)
            return CGPoint(x: c.x + r * cos(t), y: c.y + r * sin(t))
        }
    }

    // MARK: Exact area

    func testRectsAtFractionalOffsetsHaveExactPixelAreas() throws {
        let rects = [
            CGRect(x: 2.3, y: 1.25, width: 5.5, height: 3.35),   // x 2.3…7.8, y 1.25…4.6
            CGRect(x: 0.1, y: 0.9, width: 0.35, height: 0.2),    // inside one pixel
            CGRect(x: 3.5, y: 3.5, width: 1, height: 1),         // straddles four pixels equally
            CGRect(x: 4.75, y: 0.05, width: 3.9, height: 8.7),
            CGRect(x: -2.6, y: -1.4, width: 5.1, height: 4.45),  // past the top-left corner
            CGRect(x: 7.2, y: 6.6, width: 9, height: 9),         // past the bottom-right corner
            CGRect(x: 1, y: 2, width: 3, height: 4),             // on the pixel grid
        ]
        for r in rects {
            let img = try render(10, 10) { ctx, _ in ctx.fill(Path(r), with: .color(.white)) }
            assertExactCoverage(img, convex: rectPolygon(r))
        }
    }

    func testRotatedAndSkewedConvexShapesHaveExactPixelAreas() throws {
        let triangle = [CGPoint(x: 1.3, y: 2.2), CGPoint(x: 17.6, y: 5.9), CGPoint(x: 6.1, y: 14.45)]
        var img = try render(20, 16) { ctx, _ in ctx.fill(self.polygonPath(triangle), with: .color(.white)) }
        assertExactCoverage(img, convex: triangle)
        // Reversed orientation: same coverage under the non-zero rule.
        img = try render(20, 16) { ctx, _ in ctx.fill(self.polygonPath(triangle.reversed()), with: .color(.white)) }
        assertExactCoverage(img, convex: triangle)
        // A thin sliver: many cells per row along nearly horizontal edges.
        let sliver = [CGPoint(x: 0.4, y: 3.1), CGPoint(x: 19.7, y: 4.3), CGPoint(x: 19.2, y: 4.9)]
        img = try render(20, 8) { ctx, _ in ctx.fill(self.polygonPath(sliver), with: .color(.white)) }
        assertExactCoverage(img, convex: sliver)
    }

    func testShapesCrossingEveryCanvasBorderHaveExactPixelAreas() throws {
        // Edges that leave through the left (clamped onto x = 0), right (dropped), top and bottom.
        let shapes = [
            [CGPoint(x: -10, y: 0.5), CGPoint(x: 10.3, y: 4.2), CGPoint(x: -6, y: 11.7)],
            [CGPoint(x: 3.3, y: -5), CGPoint(x: 25, y: 6.6), CGPoint(x: 5.5, y: 17)],
            [CGPoint(x: -4.5, y: -3.3), CGPoint(x: 14.2, y: -2), CGPoint(x: 13.1, y: 13.9), CGPoint(x: -3, y: 12.2)],
        ]
        for s in shapes {
            let img = try render(12, 10) { ctx, _ in ctx.fill(self.polygonPath(s), with: .color(.white)) }
            assertExactCoverage(img, convex: s)
        }
    }

    func testCircleSummedCoverageIsPiRSquared() throws {
        let r = 40.0, centre = CGPoint(x: 50.3, y: 49.7)
        // A 1440-gon: its area falls short of πr² by (2π/1440)²/6 ≈ 3·10⁻⁶, so any larger error is the
        // rasterizer's.
        let relativeBar = 0.001  // 0.1 %, the bar of the brief
        let polygon = regularPolygon(centre: centre, radius: r, sides: 1440)
        let img = try render(101, 100) { ctx, _ in ctx.fill(self.polygonPath(polygon), with: .color(.white)) }
        let sum = summedCoverage(img)
        XCTAssertEqual(sum, Double.pi * r * r, accuracy: Double.pi * r * r * relativeBar)
        // Tighter: equal to the polygon's own area up to the rounding of its partial pixels.
        XCTAssertEqual(sum, ExactCoverage.shoelace(polygon), accuracy: Double(partialPixels(img)) / 510)
        // Pixels well inside and outside.
        XCTAssertEqual(alpha(img, 50, 50), 255)
        XCTAssertEqual(alpha(img, 50, 20), 255)
        XCTAssertEqual(alpha(img, 3, 3), 0)
        XCTAssertEqual(alpha(img, 95, 95), 0)
    }

    func testBezierCircleCoverageMatchesItsFlattenedOutline() throws {
        let r = 40.0, rect = CGRect(x: 10.3, y: 9.7, width: 2 * r, height: 2 * r)
        let img = try render(101, 100) { ctx, _ in ctx.fill(Path(ellipseIn: rect), with: .color(.white)) }
        let outline = Flatten.fill(Path(ellipseIn: rect), transform: .identity)
        let outlinePoints = outline.points.map { CGPoint(x: $0.x, y: $0.y) }
        XCTAssertEqual(summedCoverage(img), ExactCoverage.shoelace(outlinePoints),
                       accuracy: Double(partialPixels(img)) / 510)
        // Chords lie inside the curve by at most the flattening tolerance, so the area can fall short of the
        // circle's by at most perimeter × tolerance (plus the cubic approximation's 0.03 % bulge).
        let flatteningAllowance = 2 * Double.pi * r * Flatten.tolerance + Double.pi * r * r * 0.0003
        XCTAssertEqual(summedCoverage(img), Double.pi * r * r, accuracy: flatteningAllowance)
    }

    // MARK: Fill rules

    func testStarNonZeroAndEvenOddDifferExactlyInTheInnerPentagon() throws {
        let R = 45.0, centre = CGPoint(x: 50.4, y: 52.3)
        let outer = regularPolygon(centre: centre, radius: R, sides: 5, phase: -Double.pi / 2)
        let star = [0, 2, 4, 1, 3].map { outer[$0] }   // every second vertex: a pentagram
        let innerRadius = R * cos(72 * Double.pi / 180) / cos(36 * Double.pi / 180)
        let pentagonArea = 2.5 * innerRadius * innerRadius * sin(72 * Double.pi / 180)

        let nz = try render(100, 100) { ctx, _ in ctx.fill(self.polygonPath(star), with: .color(.white)) }
        let eo = try render(100, 100) { ctx, _ in
            ctx.fill(self.polygonPath(star), with: .color(.white), style: FillStyle(eoFill: true))
        }
        // Well inside the pentagon: filled (winding 2) only under non-zero.
        XCTAssertEqual(alpha(nz, 50, 52), 255)
        XCTAssertEqual(alpha(eo, 50, 52), 0)
        XCTAssertEqual(alpha(eo, 45, 50), 0)
        // Inside a point (winding 1): filled under both. The top point sits along the vertical axis.
        let tip = CGPoint(x: centre.x, y: centre.y - 0.7 * R)
        XCTAssertEqual(alpha(nz, Int(tip.x), Int(tip.y)), 255)
        XCTAssertEqual(alpha(eo, Int(tip.x), Int(tip.y)), 255)
        // Outside: empty under both.
        XCTAssertEqual(alpha(nz, 2, 2), 0)
        XCTAssertEqual(alpha(eo, 2, 2), 0)
        XCTAssertEqual(alpha(nz, 50, 99), 0)

        // Where a pixel straddles a pentagon edge, fraction f inside: non-zero gives 1, even-odd 1 − f, so the
        // images differ by exactly the pentagon's area; outside the pentagon they are equal.
        var differing = 0.0, rounding = 0.0
        for y in 0 ..< 100 {
            for x in 0 ..< 100 {
                let a = alpha(nz, x, y), b = alpha(eo, x, y)
                XCTAssertGreaterThanOrEqual(a, b, "even-odd never covers more than non-zero (\(x), \(y))")
                if a != b {
                    differing += (a - b) / 255
                    rounding += 1.0 / 255  // two roundings of half a step each
                }
            }
        }
        XCTAssertEqual(differing, pentagonArea, accuracy: rounding)
        XCTAssertEqual(summedCoverage(nz) - summedCoverage(eo), pentagonArea, accuracy: rounding)
    }

    func testEvenOddHoleFromNestedSameDirectionRects() throws {
        var p = Path()
        p.addRect(CGRect(x: 1.5, y: 1.5, width: 12, height: 12))
        p.addRect(CGRect(x: 4.25, y: 4.25, width: 5, height: 5))   // same winding direction
        let nz = try render(16, 16) { ctx, _ in ctx.fill(p, with: .color(.white)) }
        let eo = try render(16, 16) { ctx, _ in ctx.fill(p, with: .color(.white), style: FillStyle(eoFill: true)) }
        XCTAssertEqual(alpha(nz, 6, 6), 255)
        XCTAssertEqual(alpha(eo, 6, 6), 0)
        // The hole's border pixel (4, 6): 0.75 of it is in the hole.
        XCTAssertEqual(alpha(eo, 4, 6), 64)   // 0.25 × 255 = 63.75
        XCTAssertEqual(summedCoverage(eo), 144 - 25, accuracy: Double(partialPixels(eo)) / 510)
    }

    // MARK: Aliased (pixel-centre) sampling

    func testAliasedFillSamplesPixelCentres() throws {
        let triangle = [CGPoint(x: 1.3, y: 2.2), CGPoint(x: 17.6, y: 5.9), CGPoint(x: 6.1, y: 14.45)]
        let img = try render(20, 16) { ctx, _ in
            ctx.fill(self.polygonPath(triangle), with: .color(.white), style: FillStyle(antialiased: false))
        }
        var inside = 0
        for y in 0 ..< 16 {
            for x in 0 ..< 20 {
                let a = img.pixel(x: x, y: y).a
                XCTAssert(a == 0 || a == 255, "aliased alpha \(a) at (\(x), \(y))")
                let expected = ExactCoverage.contains(triangle, CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
                XCTAssertEqual(a == 255, expected, "pixel (\(x), \(y))")
                if expected { inside += 1 }
            }
        }
        XCTAssertGreaterThan(inside, 50)
    }

    func testAliasedTiesFollowTheTopLeftRule() throws {
        // Edges through pixel centres: left and top take the centre, right and bottom leave it.
        let img = try render(8, 6) { ctx, _ in
            ctx.fill(Path(CGRect(x: 2.5, y: 1.5, width: 3, height: 2)), with: .color(.white),
                     style: FillStyle(antialiased: false))
        }
        for y in 0 ..< 6 {
            for x in 0 ..< 8 {
                let expected: UInt8 = (2 ... 4).contains(x) && (1 ... 2).contains(y) ? 255 : 0
                XCTAssertEqual(img.pixel(x: x, y: y).a, expected, "pixel (\(x), \(y))")
            }
        }
    }

    func testAliasedEvenOddStarLeavesThePentagonEmpty() throws {
        let outer = regularPolygon(centre: CGPoint(x: 50.4, y: 52.3), radius: 45, sides: 5, phase: -Double.pi / 2)
        let star = [0, 2, 4, 1, 3].map { outer[$0] }
        let eo = try render(100, 100) { ctx, _ in
            ctx.fill(self.polygonPath(star), with: .color(.white), style: FillStyle(eoFill: true, antialiased: false))
        }
        let nz = try render(100, 100) { ctx, _ in
            ctx.fill(self.polygonPath(star), with: .color(.white), style: FillStyle(antialiased: false))
        }
        XCTAssertEqual(alpha(eo, 50, 52), 0)
        XCTAssertEqual(alpha(nz, 50, 52), 255)
        XCTAssertEqual(alpha(eo, 50, 18), 255)
        // Aliased and anti-aliased agree wherever the anti-aliased pixel is fully in or out.
        let aa = try render(100, 100) { ctx, _ in ctx.fill(self.polygonPath(star), with: .color(.white)) }
        for y in 0 ..< 100 {
            for x in 0 ..< 100 where aa.pixel(x: x, y: y).a == 0 || aa.pixel(x: x, y: y).a == 255 {
                XCTAssertEqual(nz.pixel(x: x, y: y).a, aa.pixel(x: x, y: y).a, "pixel (\(x), \(y))")
            }
        }
    }

    // MARK: Far away and large

    func testEdgesFarOffCanvasCountExactly() throws {
        // A rect reaching 10⁶ px to the left: its left edge is clamped onto x = 0.
        var r = CGRect(x: -1e6, y: 1.2, width: 1e6 + 3.3, height: 3.4)
        var img = try render(10, 8) { ctx, _ in ctx.fill(Path(r), with: .color(.white)) }
        assertExactCoverage(img, convex: rectPolygon(r))
        // A triangle whose slanted sides are 10⁶ px away: only its bottom edge (y = 5.25) is visible.
        let huge = [CGPoint(x: 0, y: -1e6), CGPoint(x: 1e6, y: 5.25), CGPoint(x: -1e6, y: 5.25)]
        img = try render(20, 10) { ctx, _ in ctx.fill(self.polygonPath(huge), with: .color(.white)) }
        for y in 0 ..< 10 {
            for x in 0 ..< 20 {
                XCTAssertEqual(img.pixel(x: x, y: y).a, y < 5 ? 255 : y == 5 ? 64 : 0, "pixel (\(x), \(y))")
            }
        }
        // Entirely left, right, above or below the canvas: nothing.
        for s in [CGRect(x: -50, y: 2, width: 40, height: 5), CGRect(x: 30, y: 2, width: 1e6, height: 5),
                  CGRect(x: -1e6, y: -1e6, width: 2e6, height: 1e6 - 0.001), CGRect(x: 2, y: 10, width: 3, height: 1e6)] {
            img = try render(20, 10) { ctx, _ in ctx.fill(Path(s), with: .color(.white)) }
            XCTAssertEqual(summedCoverage(img), 0, "\(s)")
        }
        // Covering the canvas from 10⁶ px away on every side: every pixel full.
        r = CGRect(x: -1e6, y: -1e6, width: 2e6, height: 2e6)
        img = try render(20, 10) { ctx, _ in ctx.fill(Path(r), with: .color(.white)) }
        XCTAssertEqual(summedCoverage(img), 200)
    }

    func testCoordinatesOfAMillionKeepSubpixelPrecision() throws {
        // The fractional rect drawn at 10⁶ px and translated back: f64 geometry keeps the same pixel areas.
        let r = CGRect(x: 2.3, y: 1.25, width: 5.5, height: 3.35)
        let img = try render(10, 10) { ctx, _ in
            ctx.translateBy(x: -1e6, y: -1e6)
            ctx.fill(Path(r.offsetBy(dx: 1e6, dy: 1e6)), with: .color(.white))
        }
        assertExactCoverage(img, convex: rectPolygon(r))
    }

    func testTenThousandSegmentPath() throws {
        let polygon = regularPolygon(centre: CGPoint(x: 60.5, y: 40.25), radius: 37.3, sides: 10_000)
        let img = try render(120, 80) { ctx, _ in ctx.fill(self.polygonPath(polygon), with: .color(.white)) }
        XCTAssertEqual(summedCoverage(img), ExactCoverage.shoelace(polygon), accuracy: Double(partialPixels(img)) / 510)
        // A 10 000-segment zigzag: teeth 0.01 px wide, alternately 2 and 8 px tall; its exact area is the sum
        // of its trapezoids.
        var zig = [CGPoint(x: 0.5, y: 1)]
        for i in 0 ... 10_000 { zig.append(CGPoint(x: 0.5 + Double(i) * 0.01, y: i % 2 == 0 ? 9.0 : 3.0)) }
        zig.append(CGPoint(x: 0.5 + 100, y: 1))
        let zimg = try render(120, 12) { ctx, _ in ctx.fill(self.polygonPath(zig), with: .color(.white)) }
        XCTAssertEqual(summedCoverage(zimg), ExactCoverage.shoelace(zig), accuracy: Double(partialPixels(zimg)) / 510)
    }

    func testWideCanvasRendersInBandsWithoutSeams() throws {
        // 1100 px wide: the cell budget (2²⁰ cells) holds 953 rows, so this 1000-row triangle is swept in two
        // bands; the rows around the seam must still be exact.
        XCTAssertEqual(CellRasterizer.cellBudget / 1100, 953)
        let tri = [CGPoint(x: 20.3, y: 10.6), CGPoint(x: 1080.2, y: 940.1), CGPoint(x: 150.7, y: 990.4)]
        let img = try render(1100, 1000) { ctx, _ in ctx.fill(self.polygonPath(tri), with: .color(.white)) }
        for y in 945 ..< 962 {
            for x in 0 ..< 1100 {
                let expected = ExactCoverage.area(of: tri, inPixel: x, y) * 255
                if abs(alpha(img, x, y) - expected) > Self.oneRounding {
                    return XCTFail("pixel (\(x), \(y)): alpha \(alpha(img, x, y)), exact \(expected)")
                }
            }
        }
        XCTAssertEqual(summedCoverage(img), ExactCoverage.shoelace(tri), accuracy: Double(partialPixels(img)) / 510)
    }

    // MARK: Ends near the top of the f64 range

    /// Renders a scene document (JSON text) on the reference backend.
    func renderScene(_ json: String) throws -> RasterImage {
        let scene = try Scene(jsonData: Data(json.utf8))
        return try CanvasRenderer(backend: .reference).render(scene.recording, scale: scene.scale)
    }

    /// Checks an aliased image pixel by pixel: alpha 255 exactly when `inside(cx, cy)` holds for the pixel's
    /// centre, 0 otherwise.
    func assertCentreSamples(_ img: RasterImage, file: StaticString = #filePath, line: UInt = #line,
                             _ inside: (Double, Double) -> Bool) {
        for y in 0 ..< img.height {
            for x in 0 ..< img.width {
                let expected = inside(Double(x) + 0.5, Double(y) + 0.5)
                let a = img.pixel(x: x, y: y).a
                if a != (expected ? 255 : 0) {
                    return XCTFail("pixel (\(x), \(y)): alpha \(a), centre inside: \(expected)", file: file, line: line)
                }
            }
        }
    }

    func testEdgeCutIsExactForEndsNearTheTopOfTheDoubleRange() {
        let M = Double.greatestFiniteMagnitude
        // Both ends 10³⁰⁰ px away: x0 + (x1 − x0)·t would give 0 for every y here (t rounds to 1/2).
        XCTAssertEqual(EdgeCut.x(atY: 64, -1e300, -1e300, 1e300, 1e300), 64)
        XCTAssertEqual(EdgeCut.x(atY: 10.25, -2e300, -1e300, 2e300, 1e300), 20.5)
        // x1 − x0 and y1 − y0 overflow to infinity.
        XCTAssertEqual(EdgeCut.x(atY: 3, -M, -M, M, M), 3)
        XCTAssertEqual(EdgeCut.x(atY: 0.5, -M, 0, M, 1), 0)
        XCTAssertEqual(EdgeCut.x(atY: 128, 1e308, 1e308, -1e308, 0), -1e308)   // −10³⁰⁸ + 256, rounded
        // The vertical cut, axes swapped: the diagonal of the first scene crosses x = 100 at y = 100.
        XCTAssertEqual(EdgeCut.x(atY: 100, 0, 0, 1e308, 1e308), 100)
        // One end near, one 10¹⁹ px away (the second scene's edge): 10.5 · 10¹⁹/(10¹⁹ − 100) rounds to 10.5;
        // taking the cut from the far end instead gives 0.
        XCTAssertEqual(EdgeCut.x(atY: 110.5, 1e19, 1e19, 0, 100), 10.5)
        // Ordinary edges: the textbook answer.
        XCTAssertEqual(EdgeCut.x(atY: 1, 0, 0, 3, 2), 1.5)
        XCTAssertEqual(EdgeCut.x(atY: 2.75, 1.3, 2.2, 17.6, 5.9), 1.3 + 16.3 * (0.55 / 3.7), accuracy: 1e-13)
        // Always within the edge's x range, so finite.
        XCTAssertEqual(EdgeCut.x(atY: 1e300, 5, 0, 7, 1), 7)
        // Sides decided exactly where the rounded cut cannot tell: the cut at y = 110.5 of the edge from
        // (10¹⁹, 10¹⁹) to (0, 100) is 10.5 + 10⁻¹⁶, which rounds to 10.5.
        XCTAssertFalse(EdgeCut.cut(atY: 110.5, 1e19, 1e19, 0, 100, isAtOrLeftOf: 10.5))
        XCTAssertTrue(EdgeCut.cut(atY: 110.5, 1e19, 1e19, 0, 100, isAtOrLeftOf: 10.5.nextUp))
        XCTAssertTrue(EdgeCut.cut(atY: 13.5, 0, 0, 1e300, 1e300, isAtOrLeftOf: 13.5))          // on the edge
        XCTAssertFalse(EdgeCut.cut(atY: 13.5, 0, 0, 1e300, 1e300, isAtOrLeftOf: 13.5.nextDown))
        XCTAssertTrue(EdgeCut.cut(atY: 13.5, 1e300, 1e300, 0, 0, isAtOrLeftOf: 13.5))          // reversed
        XCTAssertTrue(EdgeCut.cut(atY: 3, M, M, -M, -M, isAtOrLeftOf: 3))
        XCTAssertFalse(EdgeCut.cut(atY: 3, M, M, -M, -M, isAtOrLeftOf: 3.nextDown))
    }

    /// `EdgeCut.split` gives the pieces between an edge's crossings of two vertical lines, in order along the
    /// edge, each crossing exactly on its line, whichever way the edge runs and wherever its ends lie.
    func testEdgeCutSplitsAtTwoVerticalLinesInOrder() {
        func pieces(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, _ a: Double, _ b: Double) -> [[Double]] {
            var out: [[Double]] = []
            EdgeCut.split(x0, y0, x1, y1, atX: a, b) { out.append([$0, $1, $2, $3]) }
            return out
        }
        XCTAssertEqual(pieces(0, 0, 10, 10, 2, 4), [[0, 0, 2, 2], [2, 2, 4, 4], [4, 4, 10, 10]])
        XCTAssertEqual(pieces(10, 10, 0, 0, 2, 4), [[10, 10, 4, 4], [4, 4, 2, 2], [2, 2, 0, 0]])
        XCTAssertEqual(pieces(0, 0, 10, 10, 4, 2), [[0, 0, 2, 2], [2, 2, 4, 4], [4, 4, 10, 10]])
        // Lines only touched at an end, or missed, do not split it.
        XCTAssertEqual(pieces(2, 0, 4, 8, 2, 4), [[2, 0, 4, 8]])
        XCTAssertEqual(pieces(5, 0, 7, 8, 2, 4), [[5, 0, 7, 8]])
        // Ends at ±10³⁰⁸: the crossings of x = 0 and x = 128 of the diagonal through the origin are exact.
        XCTAssertEqual(pieces(-1e308, -1e308, 1e308, 1e308, 0, 128),
                       [[-1e308, -1e308, 0, 0], [0, 0, 128, 128], [128, 128, 1e308, 1e308]])
    }

    func testFillWithEndsAt1e308RendersItsVisiblePartExactly() throws {
        // Found by fuzzing: the edge from (10³⁰⁸, 10³⁰⁸) to (−10³⁰⁸, 0) has x1 − x0 = −∞, and the cell walk
        // trapped on Int(NaN). On the canvas the triangle is { 0 ≤ x ≤ y }: its far-left edge moves onto
        // x = 0, its diagonal edge from (0, 0) crosses the canvas.
        let scene = """
            {"format":"gpucanvas-scene/1","size":[128,128],"commands":[{"op":"fill",\
            "path":"1e308 1e308 m -1e308 0 l 0 0 l h","shading":{"color":"black"}}]}
            """
        let visible = [CGPoint(x: 0, y: 0), CGPoint(x: 128, y: 128), CGPoint(x: 0, y: 128)]
        let img = try renderScene(scene)
        assertExactCoverage(img, convex: visible)
        // The same triangle with its far vertices at ±1000 px has the same visible edges: the same bytes.
        let moderate = try renderScene(scene.replacingOccurrences(of: "1e308 1e308 m -1e308", with: "1000 1000 m -1000"))
        XCTAssertEqual(img.pixels, moderate.pixels)
        // 10³⁰⁰, the largest double, and the mirror image (ends at −10³⁰⁰ in y): the same visible parts.
        let M = Double.greatestFiniteMagnitude
        for far in [1e300, M] {
            let tri = [CGPoint(x: far, y: far), CGPoint(x: -far, y: 0), CGPoint(x: 0, y: 0)]
            var img = try render(128, 128) { ctx, _ in ctx.fill(self.polygonPath(tri), with: .color(.white)) }
            assertExactCoverage(img, convex: visible)
            let mirrored = [CGPoint(x: far, y: 128 - far), CGPoint(x: -far, y: 128), CGPoint(x: 0, y: 128)]
            img = try render(128, 128) { ctx, _ in ctx.fill(self.polygonPath(mirrored), with: .color(.white)) }
            assertExactCoverage(img, convex: [CGPoint(x: 0, y: 0), CGPoint(x: 128, y: 0), CGPoint(x: 0, y: 128)])
        }
    }

    func testAliasedFillWithEndsAt1e19SamplesItsVisiblePart() throws {
        // Found by fuzzing: ymax = 10¹⁹ made the last sampled row Int(10¹⁹ − 0.5), past Int.max.
        let scene = """
            {"format":"gpucanvas-scene/1","size":[128,128],"commands":[{"op":"fill",\
            "path":"0 0 m 1e19 1e19 l 0 100 l h","shading":{"color":"black"},"antialiased":false}]}
            """
        // On the canvas: right of x = 0 (rows above 100) or of x = (y − 100) · 10¹⁹/(10¹⁹ − 100) (below it),
        // left of the diagonal x = y. A centre on the diagonal lies on a right edge: outside. The centres
        // (y − 99.5, y + 0.5) lie (y − 99.5) · 10⁻¹⁷ px left of the lower-left edge, closer than its crossing
        // rounds to (it rounds onto the centre): outside, as the exact side test decides.
        let img = try renderScene(scene)
        assertCentreSamples(img) { cx, cy in cx > max(0, cy - 100) && cx < cy }
        // The same shape anti-aliased: the exact area of { 0 ≤ x ≤ y, x ≥ y − 100 } (the 3·10⁻¹⁶ px slant of
        // the lower-left edge changes no area by a rounding step).
        let aa = try renderScene(scene.replacingOccurrences(of: #","antialiased":false"#, with: ""))
        assertExactCoverage(aa, convex: [CGPoint(x: 0, y: 0), CGPoint(x: 128, y: 128), CGPoint(x: 28, y: 128),
                                         CGPoint(x: 0, y: 100)])
        // Ends at 10³⁰⁰ and the largest double, aliased: { 0 ≤ x < y } with no centre near an edge but the
        // diagonal's (a right edge: outside).
        for far in [1e300, Double.greatestFiniteMagnitude] {
            let tri = [CGPoint(x: far, y: far), CGPoint(x: -far, y: 0), CGPoint(x: 0, y: 0)]
            let img = try render(128, 128) { ctx, _ in
                ctx.fill(self.polygonPath(tri), with: .color(.white), style: FillStyle(antialiased: false))
            }
            assertCentreSamples(img) { cx, cy in cx < cy }
        }
    }

    func testEdgeWithBothEndsAt1e300CrossesTheCanvasWhereItShould() throws {
        // The line x = 2y through two points 10³⁰⁰ px away on either side: neither end is near the canvas,
        // so the crossings must come from the whole edge, not from a parameter t rounded near 1/2.
        let tri = [CGPoint(x: -2e300, y: -1e300), CGPoint(x: 2e300, y: 1e300), CGPoint(x: -2e300, y: 1e300)]
        let visible = [CGPoint(x: 0, y: 0), CGPoint(x: 128, y: 64), CGPoint(x: 128, y: 128), CGPoint(x: 0, y: 128)]
        let aa = try render(128, 128) { ctx, _ in ctx.fill(self.polygonPath(tri), with: .color(.white)) }
        assertExactCoverage(aa, convex: visible)
        // Aliased: centres (k + 0.5, j + 0.5) never lie on x = 2y.
        let aliased = try render(128, 128) { ctx, _ in
            ctx.fill(self.polygonPath(tri), with: .color(.white), style: FillStyle(antialiased: false))
        }
        assertCentreSamples(aliased) { cx, cy in cx < 2 * cy }
        // Even-odd, the other orientation: the same picture.
        let eo = try render(128, 128) { ctx, _ in
            ctx.fill(self.polygonPath(tri.reversed()), with: .color(.white), style: FillStyle(eoFill: true))
        }
        assertExactCoverage(eo, convex: visible)
    }
}

/// Exact area of a convex polygon inside a pixel square, by clipping (Sutherland–Hodgman) and the shoelace
/// formula: a second algorithm, independent of the rasterizer's cell accumulation.
enum ExactCoverage {
    static func area(of convex: [CGPoint], inPixel x: Int, _ y: Int) -> Double {
        var poly = convex
        let x0 = Double(x), y0 = Double(y), x1 = x0 + 1, y1 = y0 + 1
        // Keep the side where `inside` holds, cutting edges at `cut`.
        func clip(_ inside: (CGPoint) -> Bool, _ cut: (CGPoint, CGPoint) -> CGPoint) {
            guard !poly.isEmpty else { return }
            var out: [CGPoint] = []
            var prev = poly[poly.count - 1]
            for p in poly {
                if inside(p) {
                    if !inside(prev) { out.append(cut(prev, p)) }
                    out.append(p)
                } else if inside(prev) {
                    out.append(cut(prev, p))
                }
                prev = p
            }
            poly = out
        }
        func atX(_ a: CGPoint, _ b: CGPoint, _ x: Double) -> CGPoint {
            CGPoint(x: x, y: a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x))
        }
        func atY(_ a: CGPoint, _ b: CGPoint, _ y: Double) -> CGPoint {
            CGPoint(x: a.x + (b.x - a.x) * (y - a.y) / (b.y - a.y), y: y)
        }
        clip({ $0.x >= x0 }, { atX($0, $1, x0) })
        clip({ $0.x <= x1 }, { atX($0, $1, x1) })
        clip({ $0.y >= y0 }, { atY($0, $1, y0) })
        clip({ $0.y <= y1 }, { atY($0, $1, y1) })
        return shoelace(poly)
    }

    /// |signed area| of a closed polygon.
    static func shoelace(_ p: [CGPoint]) -> Double {
        guard p.count >= 3 else { return 0 }
        var s = 0.0
        var prev = p[p.count - 1]
        for q in p {
            s += prev.x * q.y - q.x * prev.y
            prev = q
        }
        return abs(s) / 2
    }

    /// Point in convex polygon (either orientation), strictly inside.
    static func contains(_ convex: [CGPoint], _ pt: CGPoint) -> Bool {
        var sign = 0.0
        var prev = convex[convex.count - 1]
        for q in convex {
            let cross = (q.x - prev.x) * (pt.y - prev.y) - (q.y - prev.y) * (pt.x - prev.x)
            if cross == 0 { return false }
            if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            prev = q
        }
        return true
    }
}
