import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `@State`, `@Binding`, `onAppear`, `withAnimation` and `Animation`'s curves, evaluated at chosen times.
final class ViewAnimationTests: XCTestCase {
    /// Curve values are computed in double precision; the Bézier solve bisects to 1e-12 in the parameter.
    static let curveTolerance = 1e-9
    /// Same as `ViewRenderingTests.rounding`: both backends cover the same geometry.
    static let rounding = 2

    // MARK: Curves

    func testLinearDelaySpeedAndFinish() {
        XCTAssertEqual(Animation.linear(duration: 1).state(at: 0.3).progress, 0.3, accuracy: Self.curveTolerance)
        let delayed = Animation.linear(duration: 1).delay(0.5)
        XCTAssertEqual(delayed.state(at: 0.5).progress, 0)
        XCTAssertEqual(delayed.state(at: 1.0).progress, 0.5, accuracy: Self.curveTolerance)
        XCTAssertFalse(delayed.state(at: 1.4).isFinished)
        XCTAssertTrue(delayed.state(at: 1.5).isFinished)
        XCTAssertEqual(Animation.linear(duration: 1).speed(2).state(at: 0.25).progress, 0.5, accuracy: Self.curveTolerance)
        XCTAssertTrue(Animation.linear(duration: 1).speed(2).state(at: 0.5).isFinished)
    }

    /// easeInOut is (0.42, 0, 0.58, 1): half-way at half time, and on the curve at a parameter computed here.
    func testEaseCurvesFollowTheirBezierControlPoints() {
        XCTAssertEqual(Animation.easeInOut(duration: 2).state(at: 1).progress, 0.5, accuracy: Self.curveTolerance)
        // At Bézier parameter s = 0.3: x = 3(0.7²)(0.3)(0.42) + 3(0.7)(0.3²)(0.58) + 0.3³, y = 3(0.7)(0.3²) + 0.3³.
        let s = 0.3, r = 0.7
        let x = 3 * r * r * s * 0.42 + 3 * r * s * s * 0.58 + s * s * s
        let y = 3 * r * s * s + s * s * s
        XCTAssertEqual(Animation.easeInOut(duration: 1).state(at: x).progress, y, accuracy: 1e-9)
        // easeIn starts slowly, easeOut quickly; both end at 1.
        XCTAssertLessThan(Animation.easeIn(duration: 1).state(at: 0.5).progress, 0.5)
        XCTAssertGreaterThan(Animation.easeOut(duration: 1).state(at: 0.5).progress, 0.5)
        XCTAssertTrue(Animation.easeOut(duration: 1).state(at: 1).isFinished)
        XCTAssertEqual(Animation.default, .easeInOut(duration: 0.35))
    }

    func testRepeatForeverAutoreversesAndRepeatCountEnds() {
        let back = Animation.linear(duration: 1).repeatForever(autoreverses: true)
        XCTAssertEqual(back.state(at: 0.25).progress, 0.25, accuracy: Self.curveTolerance)
        XCTAssertEqual(back.state(at: 1.25).progress, 0.75, accuracy: Self.curveTolerance)
        XCTAssertEqual(back.state(at: 2.25).progress, 0.25, accuracy: Self.curveTolerance)
        XCTAssertFalse(back.state(at: 1000.5).isFinished)
        let forward = Animation.linear(duration: 1).repeatForever(autoreverses: false)
        XCTAssertEqual(forward.state(at: 1.25).progress, 0.25, accuracy: Self.curveTolerance)
        let twice = Animation.linear(duration: 1).repeatCount(2, autoreverses: false)
        XCTAssertEqual(twice.state(at: 1.5).progress, 0.5, accuracy: Self.curveTolerance)
        XCTAssertTrue(twice.state(at: 2.1).isFinished)
    }

    func testSpringOvershootsAndSettles() {
        let spring = Animation.spring(response: 0.5, dampingFraction: 0.5)
        let samples = stride(from: 0.0, to: 2, by: 0.01).map { spring.state(at: $0) }
        XCTAssertEqual(samples[0].progress, 0)
        XCTAssertGreaterThan(samples.map(\.progress).max()!, 1.05, "an underdamped spring overshoots")
        XCTAssertTrue(spring.state(at: 10).isFinished)
        let critical = Animation.spring(response: 0.5, dampingFraction: 1)
        XCTAssertLessThanOrEqual(stride(from: 0.0, to: 3, by: 0.01).map { critical.state(at: $0).progress }.max()!, 1)
    }

    // MARK: State and animated modifiers

    /// S11's spinning view in this test's words: a bar that turns a full circle per second forever.
    struct SpinningBar: View {
        @State private var turned = false
        var body: some View {
            Rectangle().fill(.red).frame(width: 80, height: 10)
                .rotationEffect(.degrees(turned ? 360 : 0))
                .onAppear {
                    withAnimation(.linear(duration: 1).repeatForever(autoreverses: false)) { turned.toggle() }
                }
        }
    }

    func testSpinningViewTurns360DegreesPerSecond() {
        for (t, degrees) in [(0.0, 0.0), (0.25, 90.0), (0.5, 180.0), (1.25, 90.0), (3.75, 270.0)] {
            let rotation = ViewTesting.first(RotationNode.self, in: ViewTesting.tree(SpinningBar(), time: t))!
            XCTAssertEqual(rotation.angle.degrees, degrees, accuracy: 1e-9, "t = \(t)")
        }
    }

    /// A canvas drawing the spinning bar as its symbol, centred.
    static var spinningSymbolCanvas: some View {
        Canvas { context, size in
            let symbol = context.resolveSymbol(id: 1)!
            context.draw(symbol, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
        } symbols: {
            SpinningBar().tag(1)
        }
    }

    /// S11 in pixels: the spinning view is a canvas's symbol, drawn centred; it is horizontal at t = 0 and 0.5,
    /// vertical at t = 0.25.
    func testAnimatedSymbolIsDrawnAtTheFramesTime() throws {
        let view = Self.spinningSymbolCanvas
        let red = ViewTesting.pixel(.red)
        let size = CGSize(width: 100, height: 100)
        for t in [0.0, 0.5] {
            let image = try ViewTesting.render(view, size: size, time: t)
            ViewTesting.assertPixel(image, 85, 50, red, tolerance: Self.rounding)
            ViewTesting.assertPixel(image, 50, 15, ViewTesting.transparent, tolerance: Self.rounding)
        }
        let quarter = try ViewTesting.render(view, size: size, time: 0.25)
        ViewTesting.assertPixel(quarter, 50, 15, red, tolerance: Self.rounding)
        ViewTesting.assertPixel(quarter, 85, 50, ViewTesting.transparent, tolerance: Self.rounding)
    }

    /// One view value drawn by two `ImageRenderer`s on two threads at once, at different times, shows each
    /// renderer its own time: a `State` reads the cell of the graph evaluating it, not the last graph that
    /// linked it (the same spinning symbol showed one thread the other's frame before).
    func testOneViewOnTwoThreadsAtOnceShowsEachRendererItsTime() throws {
        let view = Self.spinningSymbolCanvas
        let size = CGSize(width: 100, height: 100)
        let renderers = [try CanvasRenderer(backend: .reference), try CanvasRenderer(backend: .reference)]
        func image(at t: TimeInterval, _ renderer: CanvasRenderer) throws -> RasterImage {
            let r = ImageRenderer(content: view)
            r.proposedSize = ProposedViewSize(size)
            return try r.render(at: t, with: renderer)
        }
        let alone = [try image(at: 0, renderers[0]), try image(at: 0.25, renderers[0])]
        XCTAssertNotEqual(alone[0].pixels, alone[1].pixels, "the bar turns between the two times")
        // A few hundred rounds: without the fix, one of the first ten went wrong.
        for round in 0 ..< 300 {
            let (a, b) = try Concurrently.run({ try image(at: 0, renderers[0]) }, { try image(at: 0.25, renderers[1]) })
            XCTAssertTrue(a.pixels == alone[0].pixels, "round \(round): t = 0 shows another frame")
            XCTAssertTrue(b.pixels == alone[1].pixels, "round \(round): t = 0.25 shows another frame")
        }
    }

    /// An easeInOut offset is half-way at half its duration and at its end after it.
    func testAnimatedOffsetFollowsEaseInOut() {
        struct Slider: View {
            @State private var x: CGFloat = 0
            var body: some View {
                Color.blue.frame(width: 10, height: 10).offset(x: x)
                    .onAppear { withAnimation(.easeInOut(duration: 2)) { x = 100 } }
            }
        }
        func offset(_ t: Double) -> CGFloat { ViewTesting.first(OffsetNode.self, in: ViewTesting.tree(Slider(), time: t))!.offset.width }
        XCTAssertEqual(offset(0), 0, accuracy: 1e-9)
        XCTAssertEqual(offset(1), 50, accuracy: 1e-9)
        XCTAssertEqual(offset(0.5), 100 * CGFloat(Animation.easeInOut(duration: 2).state(at: 0.5).progress), accuracy: 1e-9)
        XCTAssertEqual(offset(3), 100)
    }

    /// `animation(_:value:)` animates a change made without `withAnimation` when its value changed; a view
    /// whose watched value did not change jumps.
    func testImplicitAnimationFollowsTheWatchedValue() {
        struct Watched: View {
            @State private var x: CGFloat = 0
            var body: some View {
                Color.blue.frame(width: 10, height: 10).offset(x: x)
                    .animation(.linear(duration: 2), value: x)
                    .onAppear { x = 100 }
            }
        }
        struct Unwatched: View {
            @State private var x: CGFloat = 0
            var body: some View {
                Color.blue.frame(width: 10, height: 10).offset(x: x)
                    .animation(.linear(duration: 2), value: 0)
                    .onAppear { x = 100 }
            }
        }
        func offset<V: View>(_ view: V, _ t: Double) -> CGFloat {
            ViewTesting.first(OffsetNode.self, in: ViewTesting.tree(view, time: t))!.offset.width
        }
        XCTAssertEqual(offset(Watched(), 0), 0, accuracy: 1e-9)
        XCTAssertEqual(offset(Watched(), 0.5), 25, accuracy: 1e-9)
        XCTAssertEqual(offset(Watched(), 1), 50, accuracy: 1e-9)
        XCTAssertEqual(offset(Watched(), 3), 100)
        XCTAssertEqual(offset(Unwatched(), 1), 100)
    }

    /// Without `withAnimation` a change shows at once; a binding writes through to its owner's state.
    func testStateChangesWithoutAnimationAndThroughBindings() {
        struct Child: View {
            @Binding var width: CGFloat
            var body: some View { Color.red.frame(width: 5, height: 5).onAppear { width = 40 } }
        }
        struct Parent: View {
            @State private var width: CGFloat = 10
            var body: some View {
                HStack(spacing: 0) {
                    Color.blue.frame(width: width, height: 5)
                    Child(width: $width)
                }
            }
        }
        XCTAssertEqual(ViewTesting.tree(Parent()).sizeThatFits(.unspecified), CGSize(width: 45, height: 5))
        XCTAssertEqual(ViewTesting.tree(Parent(), time: 7).sizeThatFits(.unspecified), CGSize(width: 45, height: 5))
    }

    /// Two views of one type keep their own state: storage is keyed by position in the tree.
    func testEachViewHasItsOwnState() {
        struct Grower: View {
            let by: CGFloat
            @State private var width: CGFloat = 1
            var body: some View { Color.red.frame(width: width, height: 1).onAppear { width += by } }
        }
        let stack = HStack(spacing: 0) { Grower(by: 2); Grower(by: 10) }
        XCTAssertEqual(ViewTesting.tree(stack).sizeThatFits(.unspecified).width, 3 + 11)
    }

    /// An animated frame interpolates its width.
    func testAnimatedFrameWidth() {
        struct Bar: View {
            @State private var wide = false
            var body: some View {
                Color.red.frame(width: wide ? 100 : 20, height: 10)
                    .onAppear { withAnimation(.linear(duration: 1).delay(1)) { wide = true } }
            }
        }
        func width(_ t: Double) -> CGFloat { ViewTesting.tree(Bar(), time: t).sizeThatFits(.unspecified).width }
        XCTAssertEqual(width(0.5), 20)
        XCTAssertEqual(width(1.5), 60, accuracy: 1e-9)
        XCTAssertEqual(width(2.5), 100)
    }

    /// Opacity and scale interpolate too; a binding's `.animation(_:)` animates the write it makes.
    func testOpacityScaleAndAnimatedBinding() {
        struct Fader: View {
            @Binding var on: Bool
            var body: some View {
                Color.red.frame(width: 10, height: 10).opacity(on ? 1 : 0).scaleEffect(on ? 2 : 1)
                    .onAppear { $on.animation(.linear(duration: 1)).wrappedValue = true }
            }
        }
        struct Owner: View {
            @State private var on = false
            var body: some View { Fader(on: $on) }
        }
        let tree = ViewTesting.tree(Owner(), time: 0.25)
        XCTAssertEqual(ViewTesting.first(OpacityNode.self, in: tree)!.opacity, 0.25, accuracy: 1e-9)
        XCTAssertEqual(ViewTesting.first(ScaleNode.self, in: tree)!.scale.width, 1.25, accuracy: 1e-9)
        XCTAssertEqual(ViewTesting.first(OpacityNode.self, in: ViewTesting.tree(Owner(), time: 2))!.opacity, 1)
    }

    /// A view whose `id` changes is a new view: its state starts over and its `onAppear` runs at that frame's time.
    func testANewIdIsANewViewThatAppearsAtItsFramesTime() {
        final class Log { var appearances: [Double] = [] }
        struct Counter: View {
            let log: Log
            let second: Int
            @State private var width: CGFloat = 1
            var body: some View {
                Color.red.frame(width: width, height: 1).onAppear {
                    log.appearances.append(Double(second))
                    withAnimation(.linear(duration: 0.5)) { width += 10 }
                }
            }
        }
        let log = Log()
        let start = ImageRenderer<Color>.defaultStartDate
        let view = TimelineView(.periodic(from: start, by: 1)) { context in
            let second = Int(context.date.timeIntervalSince(start))
            Counter(log: log, second: second).id(second)
        }
        let graph = ViewGraph(root: AnyView(view), startDate: start)
        XCTAssertEqual(graph.tree(at: 0).sizeThatFits(.unspecified).width, 1, "animating from 1 at t = 0")
        XCTAssertEqual(graph.tree(at: 0.25).sizeThatFits(.unspecified).width, 6, accuracy: 1e-9)
        XCTAssertEqual(graph.tree(at: 0.9).sizeThatFits(.unspecified).width, 11)
        XCTAssertEqual(graph.tree(at: 1.25).sizeThatFits(.unspecified).width, 1, "a new view, its animation starts at 1.25")
        XCTAssertEqual(graph.tree(at: 1.5).sizeThatFits(.unspecified).width, 6, accuracy: 1e-9)
        XCTAssertEqual(log.appearances, [0, 1])
    }

    /// The same time gives the same bytes: from fresh renderers, and after frames asked for out of order.
    func testFramesAreDeterministic() throws {
        let view = Canvas { context, size in
            context.draw(context.resolveSymbol(id: 0)!, at: CGPoint(x: 50, y: 50))
        } symbols: { SpinningBar().tag(0) }
        let reference = try CanvasRenderer(backend: .reference)
        func frame(_ times: [Double]) throws -> RasterImage {
            let r = ImageRenderer(content: view)
            r.proposedSize = ProposedViewSize(width: 100, height: 100)
            var last: RasterImage?
            for t in times { last = try r.render(at: t, with: reference) }
            return last!
        }
        let a = try frame([0.37])
        XCTAssertEqual(a, try frame([0.37]))
        XCTAssertEqual(a, try frame([0.9, 0.1, 0.37]))
        XCTAssertNotEqual(a, try frame([0.38]))
    }
}
