import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The lowering drops a clip that is exactly 1 over a draw's pixels (non-inverse axis-aligned device rectangles
/// holding the draw's pixel box): the draw then records no clip mask, and its pixels are the same.
final class WholeClipLoweringTests: XCTestCase {
    private func lowered(_ recording: Recording, scale: Double = 1) throws -> LoweredFrame {
        let target = RenderTarget(width: Int((recording.size.width * scale).rounded(.up)),
                                  height: Int((recording.size.height * scale).rounded(.up)), scale: scale)
        return try Lowering().lower(recording, target: target)
    }

    /// The clip index of each lowered draw, in order (nil: unclipped).
    private func drawClips(_ frame: LoweredFrame) -> [Int?] {
        frame.ops.compactMap { if case .draw(let d) = $0 { return d.clip } else { return nil } }
    }

    private func clipped(_ clip: Path, _ shape: Path, transform: CGAffineTransform = .identity,
                         inverse: Bool = false, blend: GraphicsContext.BlendMode = .normal) -> Recording {
        Recording(size: CGSize(width: 40, height: 30)) { ctx, _ in
            ctx.concatenate(transform)
            ctx.clip(to: clip, options: inverse ? .inverse : [])
            ctx.blendMode = blend
            ctx.fill(shape, with: .color(.red))
        }
    }

    func testAClipHoldingTheDrawsPixelsIsDropped() throws {
        // The rounded rect fills the clip rect exactly, on whole pixels: its box is the clip's rect.
        let exact = clipped(Path(CGRect(x: 4, y: 5, width: 20, height: 10)),
                            Path(roundedRect: CGRect(x: 4, y: 5, width: 20, height: 10), cornerRadius: 3))
        XCTAssertEqual(drawClips(try lowered(exact)), [nil])
        // Under a scale and translation the rect stays axis-aligned.
        let scaled = clipped(Path(CGRect(x: 0, y: 0, width: 10, height: 5)), Path(ellipseIn: CGRect(x: 1, y: 1, width: 8, height: 3)),
                             transform: CGAffineTransform(a: 2, b: 0, c: 0, d: -2, tx: 3, ty: 20))
        XCTAssertEqual(drawClips(try lowered(scaled, scale: 2)), [nil])
    }

    func testClipsThatCanCutTheDrawAreKept() throws {
        // A fractional clip edge inside the draw's pixel box: the boundary pixel's clip coverage is under 1.
        let fractional = clipped(Path(CGRect(x: 4.5, y: 5, width: 20, height: 10)),
                                 Path(CGRect(x: 4, y: 5, width: 20, height: 10)))
        XCTAssertEqual(drawClips(try lowered(fractional)), [0])
        // Rotated: the clip is not an axis-aligned device rectangle.
        let rotated = clipped(Path(CGRect(x: 0, y: 0, width: 30, height: 30)), Path(CGRect(x: 10, y: 10, width: 2, height: 2)),
                              transform: CGAffineTransform(rotationAngle: 0.3))
        XCTAssertEqual(drawClips(try lowered(rotated)), [0])
        // An ellipse, an inverse rect, and a blend mode that reaches beyond the source keep theirs.
        XCTAssertEqual(drawClips(try lowered(clipped(Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 30)),
                                                     Path(CGRect(x: 18, y: 13, width: 2, height: 2))))), [0])
        XCTAssertEqual(drawClips(try lowered(clipped(Path(CGRect(x: 0, y: 0, width: 2, height: 2)),
                                                     Path(CGRect(x: 18, y: 13, width: 2, height: 2)), inverse: true))), [0])
        XCTAssertEqual(drawClips(try lowered(clipped(Path(CGRect(x: 0, y: 0, width: 40, height: 30)),
                                                     Path(CGRect(x: 18, y: 13, width: 2, height: 2)), blend: .copy))), [0])
    }

    func testADegenerateFourPointContourIsNotARectangle() {
        // Four points with two x and two y values that double back: zero area, coverage 0, not 1.
        let spike = [DevicePoint(x: 0, y: 0), DevicePoint(x: 1, y: 0), DevicePoint(x: 1, y: 1), DevicePoint(x: 1, y: 0)]
        XCTAssertNil(DeviceRect(contour: spike[...]))
        let square = [DevicePoint(x: 0, y: 0), DevicePoint(x: 0, y: 2), DevicePoint(x: 3, y: 2), DevicePoint(x: 3, y: 0)]
        let r = DeviceRect(contour: square[...])
        XCTAssertEqual([r?.minX, r?.minY, r?.maxX, r?.maxY], [0, 0, 3, 2])
        let diagonalStep = [DevicePoint(x: 0, y: 0), DevicePoint(x: 3, y: 2), DevicePoint(x: 0, y: 2), DevicePoint(x: 3, y: 0)]
        XCTAssertNil(DeviceRect(contour: diagonalStep[...]))
    }

    /// The dropped clip changes no pixel: a symbol-like draw under its frame clip renders byte-identically to
    /// the same draw with no clip, on both backends, at fractional placements too (where the clip is kept).
    func testPixelsAreTheSameWithAndWithoutTheWholeClip() throws {
        func picture(clipped: Bool) -> Recording {
            Recording(size: CGSize(width: 64, height: 48)) { ctx, _ in
                for k in 0 ..< 12 {
                    var c = ctx
                    c.translateBy(x: CGFloat(k % 4) * 15 + (k < 8 ? 0 : 0.37), y: CGFloat(k / 4) * 15 + 2)
                    if clipped { c.clip(to: Path(CGRect(x: 0, y: 0, width: 12, height: 9))) }
                    c.fill(Path(roundedRect: CGRect(x: 0, y: 0, width: 12, height: 9), cornerRadius: 3),
                           with: .color(Color(.sRGB, red: 0.2, green: 0.4, blue: 0.8, opacity: 0.8)))
                }
            }
        }
        for renderer in [try CanvasRenderer(backend: .reference), try CanvasRenderer()] {
            let withClip = try renderer.render(picture(clipped: true), scale: 2)
            let without = try renderer.render(picture(clipped: false), scale: 2)
            // The last four draws sit at x + 0.37: their clip cuts the shape's edge pixels, so those differ.
            var differing = 0
            for y in 0 ..< withClip.height {
                for x in 0 ..< withClip.width where withClip.pixel(x: x, y: y) != without.pixel(x: x, y: y) {
                    differing += 1
                    XCTAssertGreaterThanOrEqual(y, 2 * 32, "pixel (\(x), \(y)) of a whole-pixel draw differs")
                }
            }
            XCTAssertGreaterThan(differing, 0, "the fractional draws' clip should cut their edges")
        }
    }
}
