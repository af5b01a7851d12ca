import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class StrokedPathTests: XCTestCase {
    typealias G = StrokeTestGeometry

    func testRectangleOutlineIsInnerAndOuterSquare() {
        let p = Path(CGRect(x: 0, y: 0, width: 10, height: 10)).strokedPath(StrokeStyle(lineWidth: 2))
        XCTAssertEqual(p.description, "1 1 m 9 1 l 9 9 l 1 9 l h -1 -1 m -1 11 l 11 11 l 11 -1 l h")
    }

    func testStrokedLineIsTheButtRectangle() {
        let p = G.line(0, 0, 100, 0).strokedPath(StrokeStyle(lineWidth: 4))
        XCTAssertEqual(p.description, "0 2 m 100 2 l 100 -2 l 0 -2 l h")
    }

    func testFillingTheStrokedPathGivesTheStrokeArea() {
        // The outline as a Path, flattened again for filling, encloses the same area as the stroker's contours.
        var path = Path(ellipseIn: CGRect(x: 0, y: 0, width: 120, height: 60))
        path.addPath(G.polyline([(0, 0), (50, 90), (100, 0)]))
        let style = StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: .round, dash: [20, 7], dashPhase: 4)
        let outline = G.outline(path, style)
        let refilled = Flatten.fill(path.strokedPath(style), transform: .identity)
        XCTAssertEqual(refilled.points, outline.points)
        XCTAssertEqual(G.signedArea(refilled), G.signedArea(outline), accuracy: G.exact)
        // Only lines and closes: a plain polygon path.
        path.strokedPath(style).forEach { e in
            if case .quadCurve = e { XCTFail("curve in outline") }
            if case .curve = e { XCTFail("curve in outline") }
        }
    }

    func testUserSpaceOutlineScalesWithThePath() {
        // The outline is an ordinary path: filled under ×3 its area scales by 9.
        let l = G.polyline([(0, 0), (10, 0), (10, 10)])
        let a = Flatten.fill(l.strokedPath(StrokeStyle(lineWidth: 2)), transform: .identity)
        let b = Flatten.fill(l.strokedPath(StrokeStyle(lineWidth: 2)), transform: CGAffineTransform(scaleX: 3, y: 3))
        XCTAssertEqual(G.area(a), 2 * 20, accuracy: G.exact)
        XCTAssertEqual(G.area(b), 9 * 2 * 20, accuracy: 1e-8)
    }

    func testDegenerateInputGivesEmptyPath() {
        XCTAssertTrue(Path().strokedPath(StrokeStyle(lineWidth: 3)).isEmpty)
        XCTAssertTrue(G.line(0, 0, 10, 0).strokedPath(StrokeStyle(lineWidth: -1)).isEmpty)
        XCTAssertTrue(G.line(0, 0, 10, 0).strokedPath(StrokeStyle(lineWidth: .nan)).isEmpty)
        XCTAssertTrue(G.line(0, .nan, 10, 0).strokedPath(StrokeStyle(lineWidth: 1)).isEmpty)
        // Zero width: a 1-unit hairline (the identity makes user units device pixels).
        let hair = Flatten.fill(G.line(0, 0, 10, 0).strokedPath(StrokeStyle(lineWidth: 0)), transform: .identity)
        XCTAssertEqual(G.area(hair), 10, accuracy: G.exact)
    }
}
