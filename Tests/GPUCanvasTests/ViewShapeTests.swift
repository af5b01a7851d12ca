import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// A triangle written the usual iOS way: corners from the rect's size only (it assumes the origin is zero).
private struct Triangle: Shape {
    func path(in rect: CGRect) -> Path {
        Path { p in
            p.move(to: CGPoint(x: 0, y: rect.height))
            p.addLine(to: CGPoint(x: rect.width / 2, y: 0))
            p.addLine(to: CGPoint(x: rect.width, y: rect.height))
            p.closeSubpath()
        }
    }
}

/// A shape that is always as wide as it is tall, the smaller side of the offer.
private struct SquareShape: Shape {
    func path(in rect: CGRect) -> Path { Path(rect) }
    func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize {
        let side = min(proposal.width ?? 10, proposal.height ?? 10)
        return CGSize(width: side, height: side)
    }
}

/// Shapes as views land where SwiftUI puts them (`path(in:)` gets the frame's size at the origin), and the
/// modifiers that return shapes give the paths SwiftUI's do.
final class ViewShapeTests: XCTestCase {
    /// Colour bytes after anti-aliasing and llvmpipe agree with the exact value within this (interior pixels).
    static let interior = 2
    /// Rect geometry is exact up to the transform's floating point.
    static let geometry: CGFloat = 1e-9
    /// Boolean results are curves flattened at `Flatten.tolerance` (0.05) before Clipper's grid rounding.
    static let flattened: CGFloat = 0.06

    let red = ViewTesting.pixel(.red), blue = ViewTesting.pixel(.blue), green = ViewTesting.pixel(.green)
    let clear = ViewTesting.transparent

    func testCustomShapeAfterAViewInAnHStackLandsInItsOwnFrame() throws {
        let view = HStack(spacing: 0) {
            Color.red.frame(width: 100, height: 40)
            Triangle().fill(.blue).frame(width: 40, height: 40)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 140, height: 40))
        // The triangle's apex is at (120, 0), its base from (100, 40) to (140, 40).
        ViewTesting.assertPixel(image, 120, 35, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 103, 5, clear, tolerance: Self.interior)   // outside the triangle
        ViewTesting.assertPixel(image, 137, 5, clear, tolerance: Self.interior)
        // Nothing of the triangle over the first view (where an image-space origin would have drawn it).
        ViewTesting.assertPixel(image, 20, 35, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 20, 5, red, tolerance: Self.interior)
    }

    func testShapeIsAskedForItsPathAtTheOriginWithTheFrameSize() {
        let view = VStack(spacing: 0) { Color.red.frame(width: 50, height: 30); Triangle().frame(width: 20, height: 10) }
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(view))!
        let frames = stack.childFrames(in: CGRect(x: 0, y: 0, width: 50, height: 40))
        XCTAssertEqual(frames[1], CGRect(x: 15, y: 30, width: 20, height: 10))
        XCTAssertEqual(ShapeNode.placedPath(Triangle(), in: frames[1]).boundingRect, CGRect(x: 15, y: 30, width: 20, height: 10))
    }

    func testPathViewAndEllipsePathInStacksDrawInTheirFrames() throws {
        let view = VStack(spacing: 0) {
            HStack(spacing: 0) {
                Color.red.frame(width: 50, height: 20)
                Path(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 20)).foregroundColor(.green).frame(width: 20, height: 20)
            }
            Path { p in p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10)) }.fill(.blue).frame(width: 70, height: 10)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 70, height: 30))
        ViewTesting.assertPixel(image, 60, 10, green, tolerance: Self.interior)   // the ellipse's centre
        ViewTesting.assertPixel(image, 10, 10, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 51, 1, clear, tolerance: Self.interior)   // the ellipse's frame corner
        ViewTesting.assertPixel(image, 5, 25, blue, tolerance: Self.interior)    // the path's rect at (0, 20)
        ViewTesting.assertPixel(image, 15, 25, clear, tolerance: Self.interior)
    }

    func testShapeModifiersGiveSwiftUIsPaths() {
        let r = CGRect(x: 0, y: 0, width: 20, height: 10)
        func assertRect(_ a: CGRect, _ b: CGRect, file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(a.minX, b.minX, accuracy: Self.geometry, file: file, line: line)
            XCTAssertEqual(a.minY, b.minY, accuracy: Self.geometry, file: file, line: line)
            XCTAssertEqual(a.width, b.width, accuracy: Self.geometry, file: file, line: line)
            XCTAssertEqual(a.height, b.height, accuracy: Self.geometry, file: file, line: line)
        }
        assertRect(Circle().inset(by: 4).path(in: CGRect(x: 0, y: 0, width: 20, height: 20)).boundingRect,
                   CGRect(x: 4, y: 4, width: 12, height: 12))
        assertRect(Rectangle().inset(by: 2).inset(by: 1).path(in: r).boundingRect, CGRect(x: 3, y: 3, width: 14, height: 4))
        assertRect(Ellipse().inset(by: 1).path(in: r).boundingRect, CGRect(x: 1, y: 1, width: 18, height: 8))
        assertRect(Capsule().inset(by: 2).path(in: r).boundingRect, CGRect(x: 2, y: 2, width: 16, height: 6))
        XCTAssertEqual(RoundedRectangle(cornerRadius: 10).inset(by: 4).cornerSize, CGSize(width: 6, height: 6))
        XCTAssertEqual(RoundedRectangle(cornerRadius: 3).inset(by: 4).cornerSize, .zero)
        assertRect(RoundedRectangle(cornerRadius: 3).inset(by: 4).path(in: r).boundingRect, CGRect(x: 4, y: 4, width: 12, height: 2))
        assertRect(Rectangle().offset(x: 5, y: -1).path(in: r).boundingRect, CGRect(x: 5, y: -1, width: 20, height: 10))
        assertRect(Rectangle().rotation(.degrees(90)).path(in: r).boundingRect, CGRect(x: 5, y: -5, width: 10, height: 20))
        assertRect(Rectangle().rotation(.degrees(45), anchor: .topLeading).path(in: CGRect(x: 0, y: 0, width: 10, height: 10)).boundingRect,
                   CGRect(x: -10 / 2.0.squareRoot(), y: 0, width: 20 / 2.0.squareRoot(), height: 20 / 2.0.squareRoot()))
        assertRect(Rectangle().scale(2, anchor: .topLeading).path(in: r).boundingRect, CGRect(x: 0, y: 0, width: 40, height: 20))
        assertRect(Rectangle().scale(x: 0.5, y: 1).path(in: r).boundingRect, CGRect(x: 5, y: 0, width: 10, height: 10))
        assertRect(Rectangle().transform(CGAffineTransform(translationX: 3, y: 4)).path(in: r).boundingRect,
                   CGRect(x: 3, y: 4, width: 20, height: 10))
        // A 20 × 10 rect's outline is 60 long from its top-left corner, clockwise: a third is the top edge.
        assertRect(Rectangle().trim(from: 0, to: 1.0 / 3).path(in: r).boundingRect, CGRect(x: 0, y: 0, width: 20, height: 0))
        // Stroked as a shape: the outline grows by half the line width each side.
        assertRect(Rectangle().stroke(lineWidth: 4).path(in: r).boundingRect, CGRect(x: -2, y: -2, width: 24, height: 14))
    }

    func testStrokeBorderStaysInsideAndFillThenStrokeDrawsBoth() throws {
        let view = HStack(spacing: 0) {
            Circle().strokeBorder(.red, lineWidth: 4).frame(width: 20, height: 20)
            Rectangle().fill(.red).stroke(.blue, lineWidth: 4).frame(width: 20, height: 20).padding(5)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 50, height: 30))
        // The circle's frame is (0, 5, 20, 20): the border is the ring between radius 6 and 10.
        ViewTesting.assertPixel(image, 2, 15, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 10, 15, clear, tolerance: Self.interior)
        // The rectangle's frame is (25, 5, 20, 20): red inside, the blue stroke centred on its edge.
        ViewTesting.assertPixel(image, 35, 15, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 25, 15, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 23, 15, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 28, 15, red, tolerance: Self.interior)
    }

    /// iOS 17's shape booleans: a circle less the rectangle over its right half is its left half, as a path
    /// (bounds) and as a view (pixels on both backends); the line forms keep the outline's pieces.
    func testShapeBooleanOperations() throws {
        let r = CGRect(x: 0, y: 0, width: 40, height: 40)
        let half = Circle().subtracting(Rectangle().offset(x: 20))
        assertRect(half.path(in: r).boundingRect, CGRect(x: 0, y: 0, width: 20, height: 40), Self.flattened)
        assertRect(Circle().union(Rectangle().offset(x: 20)).path(in: r).boundingRect,
                   CGRect(x: 0, y: 0, width: 60, height: 40), Self.flattened)
        assertRect(Circle().intersection(Rectangle().offset(x: 20)).path(in: r).boundingRect,
                   CGRect(x: 20, y: 0, width: 20, height: 40), Self.flattened)
        XCTAssertEqual(Circle().symmetricDifference(Circle()).path(in: r).isEmpty, true)
        // The square's outline inside the circle: none of its corners, and its edges' middles.
        let inside = Rectangle().lineIntersection(Circle().scale(1.2)).path(in: r)
        XCTAssertFalse(inside.contains(CGPoint(x: 0, y: 0)))
        assertRect(inside.boundingRect, r, Self.flattened)
        assertRect(Rectangle().lineSubtraction(Circle().scale(0.5)).path(in: r).boundingRect, r, Self.flattened)

        let view = HStack(spacing: 0) {
            half.fill(.red).frame(width: 40, height: 40)
            Circle().union(Rectangle().offset(x: 20)).fill(.blue).frame(width: 40, height: 40)
        }
        let image = try ViewTesting.render(view, size: CGSize(width: 80, height: 40))
        ViewTesting.assertPixel(image, 10, 20, red, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 30, 20, clear, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 2, 2, clear, tolerance: Self.interior)
        // The union reaches past its frame on the right (shapes are not clipped to their frames): x 60…80 is
        // the second frame's 20…40 plus the offset rectangle's 20 more, which the frame of 80 cuts at 80.
        ViewTesting.assertPixel(image, 50, 20, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 75, 2, blue, tolerance: Self.interior)
        ViewTesting.assertPixel(image, 42, 2, clear, tolerance: Self.interior)
    }

    func testTrimmedStrokedSpinnerArc() throws {
        // A quarter of a circle's outline, which starts at its rightmost point and runs clockwise on screen.
        let view = Circle().trim(from: 0, to: 0.25).stroke(.blue, lineWidth: 4).frame(width: 40, height: 40)
        let image = try ViewTesting.render(view, size: CGSize(width: 40, height: 40))
        ViewTesting.assertPixel(image, 34, 34, blue, tolerance: Self.interior)    // 45° down-right on the arc
        ViewTesting.assertPixel(image, 5, 5, clear, tolerance: Self.interior)     // 225°: not drawn
        ViewTesting.assertPixel(image, 5, 34, clear, tolerance: Self.interior)
    }

    func testShapesTakeTheOfferUnlessTheyAnswerOtherwise() {
        XCTAssertEqual(ViewTesting.tree(Circle()).sizeThatFits(ProposedViewSize(width: 30, height: 20)), CGSize(width: 30, height: 20))
        XCTAssertEqual(ViewTesting.tree(Circle()).sizeThatFits(.unspecified), CGSize(width: 10, height: 10))
        XCTAssertEqual(ViewTesting.tree(SquareShape().fill(.red)).sizeThatFits(ProposedViewSize(width: 30, height: 20)),
                       CGSize(width: 20, height: 20))
        let stack = ViewTesting.first(StackNode.self, in: ViewTesting.tree(HStack(spacing: 0) { SquareShape(); Color.red }))!
        XCTAssertEqual(stack.childFrames(in: CGRect(x: 0, y: 0, width: 100, height: 20)).map(\.width), [20, 80])
    }
}
