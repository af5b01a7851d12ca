import XCTest
@testable import GPUCanvas

final class SkeletonTests: XCTestCase {
    func testRecordingCapturesState() {
        let rec = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            var c = ctx
            c.translateBy(x: 2, y: 3)
            c.opacity = 0.5
            c.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.blue))
        }
        XCTAssertEqual(rec.drawCount, 2)
        guard case .draw(let d0) = rec.root.items[0], case .draw(let d1) = rec.root.items[1] else { return XCTFail() }
        XCTAssertEqual(d0.transform, CGAffineTransform(translationX: 2, y: 3))
        XCTAssertEqual(d0.state.opacity, 0.5)
        XCTAssertEqual(d1.transform, .identity)
        XCTAssertEqual(d1.state.opacity, 1)
    }
}
