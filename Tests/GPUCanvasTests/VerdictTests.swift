import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// One verdict: the reference and every GLES path strategy accept and reject the same recordings, with the
/// same words (the shared lowering stage decides), and what they accept they draw alike.
final class VerdictTests: XCTestCase {
    typealias Draw = @Sendable (inout GraphicsContext, CGSize) -> Void

    /// Recordings that must fail, with the words every backend must use.
    static let bad: [(name: String, expected: String, draw: Draw)] = [
        ("NaN path point", "invalid geometry: draw #1: path element 1", { ctx, _ in
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
            var p = Path()
            p.move(to: CGPoint(x: 1, y: 1))
            p.addLine(to: CGPoint(x: CGFloat.nan, y: 4))
            ctx.fill(p, with: .color(.red))
        }),
        ("infinite transform", "invalid geometry: draw #0: transform", { ctx, _ in
            ctx.scaleBy(x: .infinity, y: 1)
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
        }),
        ("NaN opacity", "invalid geometry: draw #0: opacity is NaN", { ctx, _ in
            ctx.opacity = .nan
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
        }),
        // Issue #16: the reference threw and GLES drew opaque black.
        ("NaN colour component", "invalid geometry: draw #0: paint", { ctx, _ in
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(red: .nan, green: 0, blue: 0))
        }),
        ("NaN line width", "invalid geometry: draw #0: line width", { ctx, _ in
            ctx.stroke(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red), lineWidth: .nan)
        }),
        ("infinite dash", "invalid geometry: draw #0: dash", { ctx, _ in
            ctx.stroke(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red),
                       style: StrokeStyle(lineWidth: 1, dash: [.infinity]))
        }),
        ("overflow under the transform", "invalid geometry: draw #0: device coordinates overflow to infinity", { ctx, _ in
            ctx.scaleBy(x: 1e300, y: 1e300)
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1e300, height: 1e300)), with: .color(.red))
        }),
        ("a bad draw after good ones is named by its number", "invalid geometry: draw #2: transform", { ctx, _ in
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
            ctx.concatenate(CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.red))
        }),
    ]

    /// Recordings that every backend must draw, alike within the default bar.
    static let good: [(name: String, draw: Draw)] = [
        // Issue #16: the reference drew and GLES threw. Opacity is clamped to 0…1.
        ("infinite opacity draws opaque", { ctx, _ in
            ctx.opacity = .infinity
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 4, height: 4)), with: .color(.red))
        }),
        ("negative infinite opacity draws nothing", { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 8, height: 8)), with: .color(.blue))
            ctx.opacity = -.infinity
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 4, height: 4)), with: .color(.red))
        }),
    ]

    func renderers() throws -> [(String, SharedRenderer)] {
        var list = [("reference", try SharedRenderers.renderer(.reference))]
        for s in PathStrategyKind.allCases {
            list.append((s.rawValue, try SharedRenderers.renderer(.gles(GLESOptions(device: .mesa, pathStrategy: s)))))
        }
        return list
    }

    func testBadRecordingsGetTheSameErrorFromEveryBackend() throws {
        let backends = try renderers()
        for (name, expected, draw) in Self.bad {
            BackendComparison.assertSameRefusal(name, expected, backends, draw)
        }
    }

    func testEdgeValuesDrawAlikeOnEveryBackend() throws {
        let backends = try renderers()
        for (name, draw) in Self.good {
            let images = try backends.map { try $0.1.render(size: CGSize(width: 8, height: 8), draw) }
            for (i, image) in images.enumerated().dropFirst() {
                XCTAssertTrue(image.difference(from: images[0]).meetsDefaultBar, "\(name): \(backends[i].0)")
            }
            if name.hasPrefix("infinite") {
                XCTAssertEqual(images[0].pixel(x: 2, y: 2), PixelRGBA8(r: 255, g: 59, b: 48, a: 255), name)
            } else {
                XCTAssertEqual(images[0].pixel(x: 2, y: 2), PixelRGBA8(r: 0, g: 122, b: 255, a: 255), name)
            }
        }
    }
}
