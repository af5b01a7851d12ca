import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Rectangles, ellipses, rounded rectangles (circular and continuous corners) and the `Shape` types.
final class PathShapesTests: XCTestCase {
    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// Points along the outline: `n` parameter steps per segment.
    private func samples(_ path: Path, perSegment n: Int = 64) -> [CGPoint] {
        var out: [CGPoint] = []
        for c in path.contours {
            out.append(c.start)
            for s in c.segments { for i in 1 ... n { out.append(s.point(at: CGFloat(i) / CGFloat(n))) } }
        }
        return out
    }

    /// The first element's point (the start of the path).
    private func start(_ path: Path) -> CGPoint? {
        guard case .move(let q)? = path.elements.first else { return nil }
        return q
    }

    // MARK: Rect and ellipse

    func testRectOrderAndNullRect() {
        let path = Path(CGRect(x: 3, y: 4, width: -2, height: 5))  // standardized to x 1…3
        XCTAssertEqual(path.elements, [.move(to: p(1, 4)), .line(to: p(3, 4)), .line(to: p(3, 9)), .line(to: p(1, 9)),
                                       .closeSubpath])
        XCTAssertTrue(Path(CGRect.null).isEmpty)
        var t = Path()
        t.addRect(CGRect(x: 0, y: 0, width: 1, height: 1), transform: CGAffineTransform(translationX: 10, y: 0))
        XCTAssertEqual(start(t), p(10, 0))
    }

    func testEllipseStartDirectionAndBounds() {
        let r = CGRect(x: 10, y: 20, width: 80, height: 40)
        let e = Path(ellipseIn: r)
        XCTAssertEqual(start(e), p(90, 40))                       // (maxX, midY)
        guard case .curve(let first, _, _) = e.elements[1] else { return XCTFail() }
        XCTAssertEqual(first, p(50, 60))                           // then (midX, maxY): clockwise on screen
        XCTAssertEqual(e.elements.count, 6)
        assertRect(e.boundingRect, r)
        for q in samples(e) {
            let nx = (q.x - 50) / 40, ny = (q.y - 40) / 20
            XCTAssertEqual((nx * nx + ny * ny).squareRoot(), 1, accuracy: 2 * GeometryTolerance.quarterCubicRadialError)
        }
        XCTAssertTrue(Path(ellipseIn: .null).isEmpty)
        XCTAssertEqual(Path(ellipseIn: .infinite), Path(CGRect.infinite))
    }

    // MARK: Circular rounded rects

    func testCircularRoundedRectGeometry() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let path = Path(roundedRect: r, cornerRadius: 10, style: .circular)
        XCTAssertEqual(start(path), p(100, 30))                    // middle of the right edge
        guard case .line(let down) = path.elements[1] else { return XCTFail() }
        XCTAssertEqual(down, p(100, 50))                           // going down first
        XCTAssertEqual(path.elements.filter { if case .curve = $0 { return true } else { return false } }.count, 4)
        assertRect(path.boundingRect, r)
        // Points near the corners lie on circles of radius 10 around the inset centres.
        let centres = [p(90, 50), p(10, 50), p(10, 10), p(90, 10)]
        for q in samples(path) {
            let onEdge = abs(q.x) < 1e-9 || abs(q.x - 100) < 1e-9 || abs(q.y) < 1e-9 || abs(q.y - 60) < 1e-9
            if onEdge { continue }
            let d = centres.map { hypot(q.x - $0.x, q.y - $0.y) }.min()!
            XCTAssertEqual(d, 10, accuracy: 10 * GeometryTolerance.quarterCubicRadialError)
        }
    }

    func testCornerSizeIsClampedPerAxis() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 10)
        let path = Path(roundedRect: r, cornerSize: CGSize(width: 20, height: 2), style: .circular)
        // The bottom-right corner runs from (10, 8) to (5, 10): 5 wide (half the width), 2 high.
        XCTAssertEqual(path.elements[1], .line(to: p(10, 8)))
        guard case .curve(let end, _, _) = path.elements[2] else { return XCTFail() }
        XCTAssertEqual(end, p(5, 10))
    }

    func testZeroRadiusIsARectangle() {
        let r = CGRect(x: 1, y: 2, width: 30, height: 40)
        for style in RoundedCornerStyle.allCases {
            XCTAssertEqual(Path(roundedRect: r, cornerRadius: 0, style: style), Path(r))
            XCTAssertEqual(Path(roundedRect: r, cornerSize: CGSize(width: 5, height: 0), style: style), Path(r))
            XCTAssertEqual(Path(roundedRect: r, cornerRadius: -3, style: style), Path(r))
            XCTAssertEqual(Path(roundedRect: r, cornerRadius: .nan, style: style), Path(r))
            XCTAssertEqual(Path(roundedRect: r, cornerRadii: RectangleCornerRadii(), style: style), Path(r))
        }
        XCTAssertTrue(Path(roundedRect: .null, cornerRadius: 4).isEmpty)
    }

    // MARK: Continuous corners

    func testContinuousCornerStaysInRectAndKeepsStraightEdges() {
        let r = CGRect(x: 10, y: 20, width: 200, height: 120)
        let radius: CGFloat = 20
        let path = Path(roundedRect: r, cornerRadius: radius, style: .continuous)
        XCTAssertEqual(start(path), p(210, 80))
        assertRect(path.boundingRect, r)
        for q in samples(path) {
            XCTAssertTrue(r.insetBy(dx: -GeometryTolerance.arithmetic, dy: -GeometryTolerance.arithmetic).contains(q), "\(q) outside")
        }
        // The curve reaches 1.528665·r along each edge: the straight part of the top edge runs between.
        let e = Path.continuousExtent * radius
        let topLine = path.contours[0].segments.first { s in
            s.kind == .line && abs(s.p0.y - 20) < 1e-12 && abs(s.p1.y - 20) < 1e-12
        }
        guard let topLine else { return XCTFail("no straight top edge") }
        XCTAssertEqual(topLine.p0.x, 10 + e, accuracy: GeometryTolerance.arithmetic)
        XCTAssertEqual(topLine.p1.x, 210 - e, accuracy: GeometryTolerance.arithmetic)
        // The corner-free cross is inside; the rect's corners are outside.
        for q in [p(10 + e, 20.01), p(210 - e, 139.99), p(10.01, 20 + e), p(209.99, 140 - e), p(110, 80)] {
            XCTAssertTrue(path.contains(q), "\(q)")
        }
        for q in [p(10.5, 20.5), p(209.5, 20.5), p(209.5, 139.5), p(10.5, 139.5)] {
            XCTAssertFalse(path.contains(q), "\(q)")
        }
    }

    func testContinuousCornerCrossesTheDiagonalLikeTheCircularOne() {
        let r = CGRect(x: 0, y: 0, width: 200, height: 200)
        let radius: CGFloat = 30
        let m = radius * (1 - 1 / CGFloat(2).squareRoot())
        let cont = Path(roundedRect: r, cornerRadius: radius, style: .continuous)
        // Each corner's two cubics meet at the diagonal point r·(1 − 1/√2) from both edges.
        let joints = cont.contours[0].segments.filter { $0.kind == .cubic }.map(\.end)
        for corner in [p(200 - m, 200 - m), p(m, 200 - m), p(m, m), p(200 - m, m)] {
            XCTAssertTrue(joints.contains { hypot($0.x - corner.x, $0.y - corner.y) < GeometryTolerance.arithmetic }, "\(corner)")
        }
        // The circular corner passes (within its cubic error) through the same point.
        let circ = Path(roundedRect: r, cornerRadius: radius, style: .circular)
        let nearest = samples(circ, perSegment: 2000).map { hypot($0.x - m, $0.y - m) }.min()!
        XCTAssertLessThan(nearest, radius * GeometryTolerance.quarterCubicRadialError)
    }

    /// Signed curvature of a segment at t: (B′ × B″) / |B′|³.
    private func curvature(_ s: PathSegment, _ t: CGFloat) -> CGFloat {
        let h: CGFloat = 1e-5
        let d = s.derivative(at: t)
        let d2a = s.derivative(at: min(1, t + h)), d2b = s.derivative(at: max(0, t - h))
        let span = min(1, t + h) - max(0, t - h)
        let dd = CGPoint(x: (d2a.x - d2b.x) / span, y: (d2a.y - d2b.y) / span)
        return (d.x * dd.y - d.y * dd.x) / pow(d.x * d.x + d.y * d.y, 1.5)
    }

    func testContinuousCornerCurvatureIsContinuous() {
        let radius: CGFloat = 25
        let path = Path(roundedRect: CGRect(x: 0, y: 0, width: 300, height: 300), cornerRadius: radius, style: .continuous)
        let cubics = path.contours[0].segments.filter { $0.kind == .cubic }
        XCTAssertEqual(cubics.count, 8)
        /// Curvature here is estimated by a central difference of B′ with h = 1e-5: error ~h²·|B⁗|, far below.
        let curvatureTolerance: CGFloat = 1e-6
        for pair in stride(from: 0, to: 8, by: 2) {
            let a = cubics[pair], b = cubics[pair + 1]
            XCTAssertEqual(curvature(a, 0), 0, accuracy: curvatureTolerance)          // leaves the edge straight
            XCTAssertEqual(curvature(b, 1), 0, accuracy: curvatureTolerance)          // joins the next edge straight
            XCTAssertEqual(curvature(a, 1), 1 / radius, accuracy: curvatureTolerance)  // 1/r on the diagonal
            XCTAssertEqual(curvature(b, 0), 1 / radius, accuracy: curvatureTolerance)  // G2 at the joint
        }
    }

    /// Every point of the path (on-curve and control) maps onto another one under the reflection. The
    /// start point (the middle of the right edge) is where the outline begins, not a feature of it.
    private func assertSymmetric(_ path: Path, _ mirror: (CGPoint) -> CGPoint, _ name: String,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let pts = path.elements.dropFirst().flatMap(\.points)
        for q in pts {
            let m = mirror(q)
            let d = pts.map { hypot($0.x - m.x, $0.y - m.y) }.min()!
            XCTAssertLessThan(d, GeometryTolerance.arithmetic, "\(name): \(q)", file: file, line: line)
        }
    }

    func testContinuousCornersAreSymmetric() {
        let r = CGRect(x: -40, y: 10, width: 160, height: 90)
        let path = Path(roundedRect: r, cornerRadius: 18, style: .continuous)
        assertSymmetric(path, { CGPoint(x: r.minX + r.maxX - $0.x, y: $0.y) }, "left-right")
        assertSymmetric(path, { CGPoint(x: $0.x, y: r.minY + r.maxY - $0.y) }, "top-bottom")
        let sq = CGRect(x: 0, y: 0, width: 100, height: 100)
        let square = Path(roundedRect: sq, cornerRadius: 20, style: .continuous)
        assertSymmetric(square, { CGPoint(x: $0.y, y: $0.x) }, "diagonal")
    }

    func testContinuousCornerFallsBackSmoothlyInSmallRects() {
        let side: CGFloat = 100
        let r = CGRect(x: 0, y: 0, width: side, height: side)
        // Radius at the largest extent that still fits, and a hair above: nearly the same outline.
        let limit = side / (2 * Path.continuousExtent)
        let a = Path(roundedRect: r, cornerRadius: limit, style: .continuous)
        let b = Path(roundedRect: r, cornerRadius: limit * 1.0001, style: .continuous)
        /// A 1e-4 change of radius moves the outline by about 1e-4·r; allow ten times that.
        let continuityTolerance: CGFloat = 1e-3 * limit
        for (qa, qb) in zip(samples(a), samples(b)) { assertClose(qa, qb, continuityTolerance) }
        // Corners that meet mid-edge stay inside the rect and keep every edge's midpoint.
        let squeezed = Path(roundedRect: r, cornerRadius: 40, style: .continuous)
        assertRect(squeezed.boundingRect, r)
        for q in samples(squeezed) { XCTAssertTrue(r.insetBy(dx: -1e-9, dy: -1e-9).contains(q)) }
        // No room beyond r (a circle): the corners are the circular quarter arcs.
        let circle = Path(roundedRect: r, cornerRadius: 50, style: .continuous)
        for q in samples(circle) {
            XCTAssertEqual(hypot(q.x - 50, q.y - 50), 50, accuracy: 50 * GeometryTolerance.quarterCubicRadialError)
        }
    }

    // MARK: Uneven radii

    func testUnevenRadii() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 50)
        let tl = Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topLeading: 10), style: .circular)
        assertRect(tl.boundingRect, r)
        XCTAssertTrue(tl.contains(p(99.9, 0.1)))   // sharp top-right
        XCTAssertTrue(tl.contains(p(99.9, 49.9)))  // sharp bottom-right
        XCTAssertTrue(tl.contains(p(0.1, 49.9)))   // sharp bottom-left
        XCTAssertFalse(tl.contains(p(0.5, 0.5)))   // rounded top-left
        XCTAssertTrue(tl.elements.contains(.line(to: p(100, 0))))  // the top-right vertex itself

        // 8 + 8 on a 10-wide side: every radius scales by 10/16.
        let s = Path(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10),
                     cornerRadii: RectangleCornerRadii(topLeading: 8, bottomTrailing: 4, topTrailing: 8), style: .circular)
        let ends = s.contours[0].segments.filter { $0.kind == .cubic }.map { ($0.p0, $0.end) }
        XCTAssertEqual(ends.count, 3)
        let br = ends[0], tlc = ends[1], trc = ends[2]
        assertClose(br.0, p(10, 10 - 2.5)); assertClose(br.1, p(10 - 2.5, 10))
        assertClose(tlc.0, p(0, 5)); assertClose(tlc.1, p(5, 0))
        assertClose(trc.0, p(5, 0)); assertClose(trc.1, p(10, 5))

        // Continuous with uneven radii: inside the rect, straight bits where room is left.
        let c = Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topLeading: 20, bottomLeading: 2,
                                                                       bottomTrailing: 0, topTrailing: 8))
        assertRect(c.boundingRect, r)
        for q in samples(c) { XCTAssertTrue(r.insetBy(dx: -1e-9, dy: -1e-9).contains(q)) }
        XCTAssertEqual(c.currentPoint.map { $0.x }, 100)
    }

    func testRoundedRectTransformAndStartWithUnevenRightRadii() {
        let r = CGRect(x: 0, y: 0, width: 40, height: 40)
        // Right side: top-right 15 circular reaches y = 15, bottom-right 0: the middle (y = 20) is on the edge.
        let path = Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topTrailing: 15), style: .circular)
        XCTAssertEqual(start(path), p(40, 20))
        // Right side fully curved by a big top-right continuous corner: the start moves onto the straight part.
        let big = Path(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 40),
                       cornerRadii: RectangleCornerRadii(bottomTrailing: 5, topTrailing: 20))
        XCTAssertEqual(start(big)!.y, 20 * Path.continuousExtent, accuracy: GeometryTolerance.arithmetic)
        let t = CGAffineTransform(scaleX: 2, y: 3)
        var moved = Path()
        moved.addRoundedRect(in: r, cornerSize: CGSize(width: 5, height: 5), style: .continuous, transform: t)
        XCTAssertEqual(moved, Path(roundedRect: r, cornerRadius: 5).applying(t))
        var uneven = Path()
        uneven.addRoundedRect(in: r, cornerRadii: RectangleCornerRadii(topLeading: 3), style: .circular, transform: t)
        XCTAssertEqual(uneven, Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topLeading: 3), style: .circular).applying(t))
    }

    // MARK: Shapes

    func testShapes() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 40)
        XCTAssertEqual(Rectangle().path(in: r), Path(r))

        let circle = Circle().path(in: r)
        XCTAssertEqual(circle, Path(ellipseIn: CGRect(x: 30, y: 0, width: 40, height: 40)))
        assertRect(circle.boundingRect, CGRect(x: 30, y: 0, width: 40, height: 40))
        XCTAssertEqual(start(circle), p(70, 20))
        XCTAssertTrue(Circle().path(in: .null).isEmpty)
        XCTAssertEqual(Circle().path(in: .infinite), Path(CGRect.infinite))
        assertRect(Circle().path(in: CGRect(x: 0, y: 0, width: 20, height: 60)).boundingRect,
                   CGRect(x: 0, y: 20, width: 20, height: 20))

        XCTAssertEqual(Ellipse().path(in: r), Path(ellipseIn: r))
        assertRect(Ellipse().path(in: r).boundingRect, r)

        let capsule = Capsule(style: .circular).path(in: r)
        XCTAssertEqual(capsule, Path(roundedRect: r, cornerRadius: 20, style: .circular))
        XCTAssertEqual(start(capsule), p(100, 20))
        assertRect(capsule.boundingRect, r)
        XCTAssertEqual(Capsule().style, .continuous)
        assertRect(Capsule().path(in: r).boundingRect, r)

        XCTAssertEqual(RoundedRectangle(cornerRadius: 8).path(in: r), Path(roundedRect: r, cornerRadius: 8))
        XCTAssertEqual(RoundedRectangle(cornerSize: CGSize(width: 8, height: 4), style: .circular).path(in: r),
                       Path(roundedRect: r, cornerSize: CGSize(width: 8, height: 4), style: .circular))
        XCTAssertEqual(RoundedRectangle(cornerRadius: 8).cornerSize, CGSize(width: 8, height: 8))
        XCTAssertEqual(RoundedRectangle(cornerRadius: 8).style, .continuous)

        let radii = RectangleCornerRadii(topLeading: 1, bottomLeading: 2, bottomTrailing: 3, topTrailing: 4)
        let u1 = UnevenRoundedRectangle(cornerRadii: radii, style: .circular)
        let u2 = UnevenRoundedRectangle(topLeadingRadius: 1, bottomLeadingRadius: 2, bottomTrailingRadius: 3,
                                        topTrailingRadius: 4, style: .circular)
        XCTAssertEqual(u1.path(in: r), u2.path(in: r))
        XCTAssertEqual(u1.path(in: r), Path(roundedRect: r, cornerRadii: radii, style: .circular))
        assertRect(u1.path(in: r).boundingRect, r)

        let custom = Path { $0.move(to: p(1, 1)); $0.addLine(to: p(2, 3)) }
        XCTAssertEqual(custom.path(in: r), custom)
    }

    func testStaticShapeSugar() {
        let r = CGRect(x: 0, y: 0, width: 60, height: 30)
        func draw<S: Shape>(_ s: S) -> Path { s.path(in: r) }
        XCTAssertEqual(draw(.rect), Path(r))
        XCTAssertEqual(draw(.rect(cornerRadius: 5, style: .circular)), Path(roundedRect: r, cornerRadius: 5, style: .circular))
        XCTAssertEqual(draw(.rect(cornerSize: CGSize(width: 6, height: 3))), Path(roundedRect: r, cornerSize: CGSize(width: 6, height: 3)))
        XCTAssertEqual(draw(.rect(cornerRadii: RectangleCornerRadii(topLeading: 4))),
                       Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topLeading: 4)))
        XCTAssertEqual(draw(.rect(topLeadingRadius: 4, style: .circular)),
                       Path(roundedRect: r, cornerRadii: RectangleCornerRadii(topLeading: 4), style: .circular))
        XCTAssertEqual(draw(.circle), Circle().path(in: r))
        XCTAssertEqual(draw(.ellipse), Path(ellipseIn: r))
        XCTAssertEqual(draw(.capsule), Path(roundedRect: r, cornerRadius: 15, style: .continuous))
        XCTAssertEqual(draw(.capsule(style: .circular)), Path(roundedRect: r, cornerRadius: 15, style: .circular))
        // Shapes are Views and Sendable.
        let views: [any View] = [Rectangle(), Circle(), Path()]
        XCTAssertEqual(views.count, 3)
        let sendable: any Sendable = Capsule()
        XCTAssertTrue(sendable is Capsule)
    }
}
