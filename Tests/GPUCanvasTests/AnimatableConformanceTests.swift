// Apple's `Animatable` conformances: each type's `AnimatableData` is Apple's, and interpolating it moves each
// component linearly (known values at 0.25); shapes animate in views through their `animatableData`.
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// A bar filling `fraction` of its frame's width from the left: a user shape with its own animatable data.
struct FractionBar: Shape {
    var fraction: Double
    var animatableData: Double {
        get { fraction }
        set { fraction = newValue }
    }
    func path(in rect: CGRect) -> Path {
        Path(CGRect(x: rect.minX, y: rect.minY, width: rect.width * fraction, height: rect.height))
    }
}

/// A user shape that declares no animatable data.
struct PlainDiamond: Shape {
    func path(in rect: CGRect) -> Path {
        Path { p in
            p.addLines([CGPoint(x: rect.midX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.midY),
                        CGPoint(x: rect.midX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.midY)])
            p.closeSubpath()
        }
    }
}

final class AnimatableConformanceTests: XCTestCase {
    /// Interpolation is a + (b − a) × t in doubles (CGFloat is Double here): exact for these binary fractions
    /// but for π's multiples.
    static let tolerance = 1e-12
    /// A view animation's progress comes from a Bézier timing curve solved by bisection (1e-12 in its
    /// parameter), `.linear` included: as `ViewAnimationTests.curveTolerance`.
    static let curveTolerance = 1e-9

    /// `a` moved `t` of the way to `b` through `animatableData`, as an animation frame sets it.
    func moved<T: Animatable>(_ a: T, _ b: T, _ t: Double) -> T {
        var r = a
        r.animatableData = a.animatableData.interpolated(towards: b.animatableData, amount: t)
        return r
    }

    func testApplesAnimatableDataTypes() {
        typealias Pair = AnimatablePair<CGFloat, CGFloat>
        XCTAssertTrue(Angle.AnimatableData.self == Double.self)
        XCTAssertTrue(UnitPoint.AnimatableData.self == Pair.self)
        XCTAssertTrue(CGPoint.AnimatableData.self == Pair.self)
        XCTAssertTrue(CGSize.AnimatableData.self == Pair.self)
        XCTAssertTrue(CGRect.AnimatableData.self == AnimatablePair<Pair, Pair>.self)
        XCTAssertTrue(EdgeInsets.AnimatableData.self
                      == AnimatablePair<CGFloat, AnimatablePair<CGFloat, Pair>>.self)
        XCTAssertTrue(StrokeStyle.AnimatableData.self == AnimatablePair<CGFloat, Pair>.self)
        XCTAssertTrue(RectangleCornerRadii.AnimatableData.self == AnimatablePair<Pair, Pair>.self)
        XCTAssertTrue(RoundedRectangle.AnimatableData.self == Pair.self)
        XCTAssertTrue(UnevenRoundedRectangle.AnimatableData.self == RectangleCornerRadii.AnimatableData.self)
        for empty in [Rectangle.AnimatableData.self, Circle.AnimatableData.self, Ellipse.AnimatableData.self,
                      Capsule.AnimatableData.self, Path.AnimatableData.self, PlainDiamond.AnimatableData.self]
            as [Any.Type] {
            XCTAssertTrue(empty == EmptyAnimatableData.self, "\(empty)")
        }
        XCTAssertTrue(FractionBar.AnimatableData.self == Double.self)
        XCTAssertTrue(OffsetShape<RoundedRectangle>.AnimatableData.self == AnimatablePair<Pair, Pair>.self)
        XCTAssertTrue(RotatedShape<Circle>.AnimatableData.self
                      == AnimatablePair<EmptyAnimatableData, AnimatablePair<Double, Pair>>.self)
    }

    func testAngleUnitPointAndCoreGraphicsValues() {
        XCTAssertEqual(Angle.degrees(90).animatableData, .pi / 2, accuracy: Self.tolerance)
        XCTAssertEqual(moved(Angle.degrees(0), .degrees(180), 0.25).degrees, 45, accuracy: 1e-9)
        XCTAssertEqual(moved(Angle.degrees(-90), .degrees(270), 0.25).degrees, 0, accuracy: 1e-9,
                       "angles interpolate their value, not the short way round")
        XCTAssertEqual(moved(UnitPoint.top, .trailing, 0.25), UnitPoint(x: 0.625, y: 0.125))
        XCTAssertEqual(moved(CGPoint(x: 0, y: 0), CGPoint(x: 8, y: -4), 0.25), CGPoint(x: 2, y: -1))
        XCTAssertEqual(moved(CGSize(width: 10, height: 20), CGSize(width: 30, height: 60), 0.25),
                       CGSize(width: 15, height: 30))
        XCTAssertEqual(moved(CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 40, y: 20, width: 30, height: 50), 0.25),
                       CGRect(x: 10, y: 5, width: 15, height: 20))
        XCTAssertEqual(CGRect(x: 1, y: 2, width: 3, height: 4).animatableData,
                       AnimatablePair(AnimatablePair(1, 2), AnimatablePair(3, 4)))
        XCTAssertEqual(moved(EdgeInsets(), EdgeInsets(top: 4, leading: 8, bottom: 12, trailing: 16), 0.25),
                       EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))
        // Amounts outside 0…1 extrapolate (a spring's overshoot).
        XCTAssertEqual(moved(CGPoint(x: 0, y: 0), CGPoint(x: 8, y: -4), 1.25), CGPoint(x: 10, y: -5))
    }

    func testStrokeStyleAndCornerRadii() {
        let a = StrokeStyle(lineWidth: 1, lineCap: .round, miterLimit: 10, dash: [2, 3], dashPhase: 0)
        let b = StrokeStyle(lineWidth: 5, lineCap: .square, miterLimit: 2, dash: [9], dashPhase: 8)
        let m = moved(a, b, 0.25)
        XCTAssertEqual(m.lineWidth, 2)
        XCTAssertEqual(m.miterLimit, 8)
        XCTAssertEqual(m.dashPhase, 2)
        XCTAssertEqual(m.dash, [2, 3], "dash lengths and caps are not animatable data: the start value's stay")
        XCTAssertEqual(m.lineCap, .round)
        let r = moved(RectangleCornerRadii(topLeading: 0, bottomLeading: 4, bottomTrailing: 8, topTrailing: 12),
                      RectangleCornerRadii(topLeading: 8, bottomLeading: 8, bottomTrailing: 8, topTrailing: 8), 0.25)
        XCTAssertEqual(r, RectangleCornerRadii(topLeading: 2, bottomLeading: 5, bottomTrailing: 8, topTrailing: 11))
    }

    func testShapesInterpolateTheirParameters() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 80)
        let rr = moved(RoundedRectangle(cornerRadius: 0, style: .circular),
                       RoundedRectangle(cornerSize: CGSize(width: 20, height: 40), style: .circular), 0.25)
        XCTAssertEqual(rr.cornerSize, CGSize(width: 5, height: 10))
        XCTAssertEqual(rr.path(in: rect),
                       Path(roundedRect: rect, cornerSize: CGSize(width: 5, height: 10), style: .circular))
        let u = moved(UnevenRoundedRectangle(topLeadingRadius: 0), UnevenRoundedRectangle(topLeadingRadius: 16,
                                                                                          bottomTrailingRadius: 4), 0.25)
        XCTAssertEqual(u.cornerRadii, RectangleCornerRadii(topLeading: 4, bottomTrailing: 1))
        XCTAssertEqual(moved(FractionBar(fraction: 0), FractionBar(fraction: 1), 0.25).path(in: rect).boundingRect,
                       CGRect(x: 0, y: 0, width: 25, height: 80))
        // Nothing to animate: the value stays, and EmptyAnimatableData's arithmetic is all zero.
        var circle = Circle()
        circle.animatableData = circle.animatableData.interpolated(towards: .zero, amount: 0.5)
        XCTAssertEqual(EmptyAnimatableData().magnitudeSquared, 0)
        // Shapes made from shapes animate their content and their own parameters.
        let o = moved(OffsetShape(shape: RoundedRectangle(cornerRadius: 0), offset: .zero),
                      OffsetShape(shape: RoundedRectangle(cornerRadius: 8), offset: CGSize(width: 8, height: 4)), 0.25)
        XCTAssertEqual(o.offset, CGSize(width: 2, height: 1))
        XCTAssertEqual(o.shape.cornerSize, CGSize(width: 2, height: 2))
        let rot = moved(RotatedShape(shape: Rectangle(), angle: .zero, anchor: .topLeading),
                        RotatedShape(shape: Rectangle(), angle: .degrees(90), anchor: .bottomTrailing), 0.5)
        XCTAssertEqual(rot.angle.degrees, 45, accuracy: 1e-9)
        XCTAssertEqual(rot.anchor, .center)
        let sc = moved(ScaledShape(shape: Rectangle(), scale: CGSize(width: 1, height: 1)),
                       ScaledShape(shape: Rectangle(), scale: CGSize(width: 3, height: 5)), 0.25)
        XCTAssertEqual(sc.scale, CGSize(width: 1.5, height: 2))
        let trim = moved(_TrimmedShape(shape: Circle(), startFraction: 0, endFraction: 1),
                         _TrimmedShape(shape: Circle(), startFraction: 0.5, endFraction: 1), 0.5)
        XCTAssertEqual(trim.startFraction, 0.25)
        let stroked = moved(_StrokedShape(shape: Circle(), style: StrokeStyle(lineWidth: 2)),
                            _StrokedShape(shape: Circle(), style: StrokeStyle(lineWidth: 10)), 0.25)
        XCTAssertEqual(stroked.style.lineWidth, 4)
    }

    func testVectorArithmeticOfTheScalars() {
        XCTAssertEqual(CGFloat(3).scaled(by: 0.5), 1.5)
        XCTAssertEqual(Float(2).interpolated(towards: 10, amount: 0.25), 4)
        XCTAssertEqual(Double(-1).interpolated(towards: 1, amount: 0.75), 0.5)
        XCTAssertEqual(AnimatablePair(CGFloat(3), CGFloat(4)).magnitudeSquared, 25)
        XCTAssertEqual(CGRect(x: 1, y: 2, width: 3, height: 4).animatableData.magnitudeSquared, 30)
    }

    // MARK: Views

    func testCustomShapeAnimatesInAView() throws {
        struct Growing: View {
            @State private var fraction = 0.0
            var body: some View {
                FractionBar(fraction: fraction).fill(Color.red).frame(width: 40, height: 10)
                    .onAppear { withAnimation(.linear(duration: 2)) { fraction = 1 } }
            }
        }
        func bar(_ t: Double) throws -> FractionBar {
            let node = try XCTUnwrap(ViewTesting.first(ShapeNode.self, in: ViewTesting.tree(Growing(), time: t)))
            return try XCTUnwrap(node.shape as? FractionBar)
        }
        XCTAssertEqual(try bar(0).fraction, 0, accuracy: Self.tolerance)
        XCTAssertEqual(try bar(0.5).fraction, 0.25, accuracy: Self.curveTolerance)
        XCTAssertEqual(try bar(3).fraction, 1)
        // Pixels (both backends agree by the default bar; the reference's returned): at 1 s the bar covers 20 of
        // its 40 pt, so column 19 is red and column 20 is empty.
        let image = try ViewTesting.render(Growing(), size: CGSize(width: 40, height: 10), time: 1)
        ViewTesting.assertPixel(image, 19, 5, ViewTesting.pixel(.red), tolerance: 1)
        ViewTesting.assertPixel(image, 20, 5, ViewTesting.transparent, tolerance: 1)
    }

    func testBuiltInShapeAndStrokeWidthAnimateInAView() throws {
        struct Rounding: View {
            @State private var on = false
            var body: some View {
                RoundedRectangle(cornerRadius: on ? 20 : 0).stroke(lineWidth: on ? 10 : 2)
                    .frame(width: 60, height: 60)
                    .onAppear { withAnimation(.linear(duration: 1)) { on = true } }
            }
        }
        let node = try XCTUnwrap(ViewTesting.first(ShapeNode.self, in: ViewTesting.tree(Rounding(), time: 0.25)))
        let shape = try XCTUnwrap(node.shape as? RoundedRectangle)
        XCTAssertEqual(shape.cornerSize.width, 5, accuracy: Self.curveTolerance)
        XCTAssertEqual(shape.cornerSize.height, 5, accuracy: Self.curveTolerance)
        guard case .stroke(_, let style) = try XCTUnwrap(node.paints.first) else { return XCTFail("a stroke") }
        XCTAssertEqual(style.lineWidth, 4, accuracy: Self.curveTolerance)
    }
}
