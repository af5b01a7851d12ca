import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `CGPath` / `CGMutablePath`: each constructor and builder gives the elements of the `Path` call it forwards
/// to, the queries answer as CoreGraphics documents, copies never alias, and `Path(cgPath)` / `cgPath` carry
/// the elements across unchanged.
final class CGPathTests: XCTestCase {
    /// Double rounding of one affine map of coordinates below 1000 (a few ulps).
    static let coordinateRounding: CGFloat = 1e-9

    let rect = CGRect(x: 10, y: 20, width: 60, height: 40)

    func testConstructorsGiveThePathShapes() {
        XCTAssertEqual(Path(CGPath(rect: rect, transform: nil)), Path(rect))
        XCTAssertEqual(Path(CGPath(ellipseIn: rect, transform: nil)), Path(ellipseIn: rect))
        XCTAssertEqual(Path(CGPath(roundedRect: rect, cornerWidth: 8, cornerHeight: 5, transform: nil)),
                       Path(roundedRect: rect, cornerSize: CGSize(width: 8, height: 5), style: .circular))
        // A transform passed as `&t`, CoreGraphics' spelling.
        var t = CGAffineTransform(translationX: 5, y: -5).scaledBy(x: 2, y: 1)
        XCTAssertEqual(Path(CGPath(rect: rect, transform: &t)), Path(rect).applying(t))
        XCTAssertEqual(Path(CGPath(ellipseIn: rect, transform: &t)), Path(ellipseIn: rect).applying(t))
        // Corners larger than half the rect are clamped (CoreGraphics would assert).
        XCTAssertEqual(Path(CGPath(roundedRect: rect, cornerWidth: 100, cornerHeight: 100, transform: nil)),
                       Path(roundedRect: rect, cornerSize: CGSize(width: 30, height: 20), style: .circular))
    }

    func testMutableBuildersForwardToPath() {
        let cg = CGMutablePath()
        var p = Path()
        let t = CGAffineTransform(translationX: 3, y: 4)
        cg.move(to: CGPoint(x: 1, y: 2)); p.move(to: CGPoint(x: 1, y: 2))
        cg.addLine(to: CGPoint(x: 9, y: 2), transform: t); p.addLine(to: CGPoint(x: 12, y: 6))
        cg.addQuadCurve(to: CGPoint(x: 20, y: 20), control: CGPoint(x: 15, y: 0))
        p.addQuadCurve(to: CGPoint(x: 20, y: 20), control: CGPoint(x: 15, y: 0))
        cg.addCurve(to: CGPoint(x: 30, y: 30), control1: CGPoint(x: 22, y: 25), control2: CGPoint(x: 28, y: 25))
        p.addCurve(to: CGPoint(x: 30, y: 30), control1: CGPoint(x: 22, y: 25), control2: CGPoint(x: 28, y: 25))
        cg.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        p.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: .zero, endAngle: .radians(.pi / 2),
                 clockwise: false)
        cg.addArc(tangent1End: CGPoint(x: 80, y: 60), tangent2End: CGPoint(x: 80, y: 90), radius: 5)
        p.addArc(tangent1End: CGPoint(x: 80, y: 60), tangent2End: CGPoint(x: 80, y: 90), radius: 5)
        cg.addRelativeArc(center: CGPoint(x: 70, y: 70), radius: 4, startAngle: 1, delta: -2)
        p.addRelativeArc(center: CGPoint(x: 70, y: 70), radius: 4, startAngle: .radians(1), delta: .radians(-2))
        cg.closeSubpath(); p.closeSubpath()
        cg.addLines(between: [.zero, CGPoint(x: 5, y: 0), CGPoint(x: 5, y: 5)])
        p.addLines([.zero, CGPoint(x: 5, y: 0), CGPoint(x: 5, y: 5)])
        cg.addRect(rect); p.addRect(rect)
        cg.addRects([rect, rect.offsetBy(dx: 1, dy: 1)], transform: t)
        p.addRects([rect, rect.offsetBy(dx: 1, dy: 1)], transform: t)
        cg.addEllipse(in: rect); p.addEllipse(in: rect)
        cg.addRoundedRect(in: rect, cornerWidth: 6, cornerHeight: 3)
        p.addRoundedRect(in: rect, cornerSize: CGSize(width: 6, height: 3), style: .circular)
        cg.addPath(CGPath(rect: rect, transform: nil), transform: t)
        p.addPath(Path(rect), transform: t)
        XCTAssertEqual(Path(cg), p)
        XCTAssertEqual(Path(cg as CGPath), p)
    }

    func testQueries() {
        let empty = CGMutablePath()
        XCTAssertTrue(empty.isEmpty)
        XCTAssertEqual(empty.currentPoint, .zero)
        XCTAssertTrue(empty.boundingBox.isNull)
        XCTAssertTrue(empty.boundingBoxOfPath.isNull)

        // A cubic whose control points stick out above its peak: boundingBox counts them, boundingBoxOfPath not.
        let arch = CGMutablePath()
        arch.move(to: .zero)
        arch.addCurve(to: CGPoint(x: 1, y: 0), control1: CGPoint(x: 0, y: 4), control2: CGPoint(x: 1, y: 4))
        XCTAssertEqual(arch.boundingBox, CGRect(x: 0, y: 0, width: 1, height: 4))
        XCTAssertEqual(arch.boundingBoxOfPath.height, 3, accuracy: Self.coordinateRounding)
        XCTAssertEqual(arch.currentPoint, CGPoint(x: 1, y: 0))
        XCTAssertFalse(arch.isEmpty)

        // Two concentric circles drawn the same way: the centre has winding 2 (inside), even-odd 0 (outside).
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: 0, y: 0, width: 20, height: 20))
        ring.addEllipse(in: CGRect(x: 5, y: 5, width: 10, height: 10))
        XCTAssertTrue(ring.contains(CGPoint(x: 10, y: 10)))
        XCTAssertFalse(ring.contains(CGPoint(x: 10, y: 10), using: .evenOdd))
        XCTAssertTrue(ring.contains(CGPoint(x: 2, y: 10), using: .evenOdd))
        XCTAssertFalse(ring.contains(CGPoint(x: 30, y: 10)))
        // The transform maps the path: moved 100 right, the point (110, 10) is the centre.
        XCTAssertTrue(ring.contains(CGPoint(x: 110, y: 10), transform: CGAffineTransform(translationX: 100, y: 0)))
        XCTAssertFalse(ring.contains(CGPoint(x: 10, y: 10), transform: CGAffineTransform(translationX: 100, y: 0)))
    }

    func testCopiesNeverAlias() {
        let original = CGMutablePath()
        original.addRect(rect)
        let frozen = original.copy()!
        let second = original.mutableCopy()!
        second.addEllipse(in: rect)
        original.closeSubpath()
        original.move(to: .zero)
        XCTAssertEqual(Path(frozen), Path(rect))
        XCTAssertEqual(Path(second), Path { $0.addRect(rect); $0.addEllipse(in: rect) })
        XCTAssertNotEqual(Path(original), Path(rect))
        // A Path made from a mutable path keeps the elements it had.
        let snapshot = Path(original)
        original.addLine(to: CGPoint(x: 1, y: 1))
        XCTAssertNotEqual(snapshot, Path(original))
        // copy(using:) maps every point.
        var t = CGAffineTransform(scaleX: 2, y: 3)
        XCTAssertEqual(frozen.copy(using: &t)!.boundingBoxOfPath, CGRect(x: 20, y: 60, width: 120, height: 120))
        XCTAssertEqual(frozen.copy(using: nil), frozen)
    }

    func testApplyWithBlockWalksElements() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 2))
        p.addLine(to: CGPoint(x: 3, y: 4))
        p.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8))
        p.addCurve(to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14))
        p.closeSubpath()
        var walked: [(CGPathElementType, [CGPoint])] = []
        p.applyWithBlock { e in
            let n: Int
            switch e.pointee.type {
            case .moveToPoint, .addLineToPoint: n = 1
            case .addQuadCurveToPoint: n = 2
            case .addCurveToPoint: n = 3
            case .closeSubpath: n = 0
            }
            walked.append((e.pointee.type, (0 ..< n).map { e.pointee.points[$0] }))
        }
        XCTAssertEqual(walked.map(\.0), [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        XCTAssertEqual(walked[1].1, [CGPoint(x: 3, y: 4)])
        // Control point first, then the end (CoreGraphics' order).
        XCTAssertEqual(walked[2].1, [CGPoint(x: 7, y: 8), CGPoint(x: 5, y: 6)])
        XCTAssertEqual(walked[3].1, [CGPoint(x: 11, y: 12), CGPoint(x: 13, y: 14), CGPoint(x: 9, y: 10)])
    }

    func testStrokingAndDashingCopies() {
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: CGPoint(x: 100, y: 0))
        let stroked = line.copy(strokingWithWidth: 4, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        XCTAssertEqual(Path(stroked), Path(line).strokedPath(StrokeStyle(lineWidth: 4, lineCap: .square)))
        XCTAssertEqual(stroked.boundingBoxOfPath, CGRect(x: -2, y: -2, width: 104, height: 4))

        // [10 on, 5 off] from phase 0 along 100 units: dashes start every 15 units, 7 of them, the last 90–100.
        let dashed = Path(line.copy(dashingWithPhase: 0, lengths: [10, 5]))
        var starts: [CGPoint] = [], ends: [CGPoint] = []
        dashed.forEach {
            if case .move(let p) = $0 { starts.append(p) }
            if case .line(let p) = $0 { ends.append(p) }
        }
        // Dash ends are accumulated lengths (55 comes out as 55.000000000000014).
        XCTAssertEqual(starts.count, 7)
        XCTAssertEqual(ends.count, 7)
        for (i, (s, e)) in zip(starts, ends).enumerated() {
            XCTAssertEqual(s.x, CGFloat(15 * i), accuracy: Self.coordinateRounding)
            XCTAssertEqual(e.x, CGFloat(min(15 * i + 10, 100)), accuracy: Self.coordinateRounding)
        }
        // Phase 12 puts the start 2 units into the gap: the first dash begins at 3.
        var first: CGPoint?
        Path(line.copy(dashingWithPhase: 12, lengths: [10, 5])).forEach {
            if first == nil, case .move(let p) = $0 { first = p }
        }
        XCTAssertEqual(first, CGPoint(x: 3, y: 0))
        // A pattern that strokes solid leaves the path as it is.
        XCTAssertEqual(Path(line.copy(dashingWithPhase: 0, lengths: [])), Path(line))
    }

    /// The article's constructor: an ellipse through `CGPath(ellipseIn:transform:)`, then `Path(cgPath)`, is
    /// the ellipse path, and draws as it does.
    func testEllipseThroughCGPathDrawsAsPathEllipse() throws {
        let box = CGRect(x: 2, y: 4, width: 28, height: 16)
        let viaCG = Path(CGPath(ellipseIn: box, transform: nil))
        XCTAssertEqual(viaCG, Path(ellipseIn: box))
        XCTAssertEqual(viaCG.cgPath, CGPath(ellipseIn: box, transform: nil))
        let renderer = try CanvasRenderer(backend: .reference)
        let a = try renderer.render(size: CGSize(width: 32, height: 24)) { ctx, _ in ctx.fill(viaCG, with: .color(.blue)) }
        let b = try renderer.render(size: CGSize(width: 32, height: 24)) { ctx, _ in
            ctx.fill(Path(ellipseIn: box), with: .color(.blue))
        }
        XCTAssertEqual(a.pixels, b.pixels)
        XCTAssertEqual(a.pixel(x: 16, y: 12).a, 255)   // the centre
        XCTAssertEqual(a.pixel(x: 3, y: 5).a, 0)       // the box's corner, outside the ellipse
    }
}
