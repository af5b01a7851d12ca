import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `Filter.projectionTransform`: the rendered draw mapped through a 3 × 3 matrix in the user space of
/// `addFilter`, sampled bilinearly; points behind the viewer (w ≤ 0) are transparent.
final class ProjectionFilterTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: values are exact in Float and round once, to either side of a half.
    static let rounding = 1

    /// A whole-pixel translation moves the pixels exactly: the same bytes as the draw moved.
    func testWholePixelTranslationMovesPixelsExactly() throws {
        let projected = try render(40, 40) { ctx, _ in
            ctx.addFilter(.projectionTransform(ProjectionTransform(CGAffineTransform(translationX: 7, y: 3))))
            ctx.fill(Path(ellipseIn: CGRect(x: 5.5, y: 6.25, width: 20, height: 14)), with: .color(.orange))
        }
        let moved = try render(40, 40) { ctx, _ in
            ctx.fill(Path(ellipseIn: CGRect(x: 12.5, y: 9.25, width: 20, height: 14)), with: .color(.orange))
        }
        XCTAssertEqual(projected.pixels, moved.pixels)
    }

    /// The matrix lives in the user space of `addFilter`: a 2× scale about the origin under a 2× canvas scale
    /// is still 2× in points; a 10 × 10 point square becomes 20 × 20 points (40 device pixels).
    func testMatrixIsInUserSpace() throws {
        let img = try render(30, 30, scale: 2) { ctx, _ in
            ctx.addFilter(.projectionTransform(ProjectionTransform(CGAffineTransform(scaleX: 2, y: 2))))
            ctx.fill(Path(CGRect(x: 2, y: 2, width: 10, height: 10)), with: .color(.black))
        }
        assertPixel(img, 10, 10, PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
        assertPixel(img, 46, 46, PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
        assertPixel(img, 50, 50, PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
    }

    /// A perspective whose inverse's w falls to 0 inside the canvas: output points beyond that line (x > 50
    /// for w = 1 − x/50) see the plane from behind and stay transparent; before it the content is squeezed
    /// towards the origin (x/10) and stretched by 1/w.
    func testPointsBehindTheViewerAreTransparent() throws {
        var inverse = ProjectionTransform()
        inverse.m11 = 0.1
        inverse.m13 = -1.0 / 50
        let m = inverse.inverted()
        let img = try render(64, 16) { ctx, _ in
            ctx.addFilter(.projectionTransform(m))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 64, height: 16)), with: .color(.black))
        }
        assertPixel(img, 20, 4, PixelRGBA8(r: 0, g: 0, b: 0, a: 255))   // from (3.4, 7.5)
        for x in 51 ..< 64 { assertPixel(img, x, 4, PixelRGBA8(r: 0, g: 0, b: 0, a: 0)) }
    }

    /// A singular matrix is invalid geometry on every backend, with the same words.
    func testSingularMatrixIsRefused() throws {
        var singular = ProjectionTransform()
        singular.m11 = 0
        singular.m21 = 0
        let m = singular
        var messages = Set<String>()
        for (name, r) in try renderers() {
            XCTAssertThrowsError(try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
                ctx.addFilter(.projectionTransform(m))
                ctx.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.red))
            }, name) { messages.insert("\($0)") }
        }
        XCTAssertEqual(messages, ["invalid geometry: draw #0: filter .projectionTransform(_) is not invertible"])
    }
}
