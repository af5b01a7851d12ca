import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Layout numbers of the proposal / response model, asserted exactly (all sizes here are sums of whole points).
final class ViewLayoutTests: XCTestCase {
    func size<V: View>(_ view: V, _ p: ProposedViewSize) -> CGSize { ViewTesting.tree(view).sizeThatFits(p) }

    func testHStackAddsWidthsAndSpacingAndCentresVertically() {
        let stack = HStack(spacing: 10) {
            Color.red.frame(width: 20, height: 20)
            Color.blue.frame(width: 30, height: 10)
        }
        let node = ViewTesting.first(StackNode.self, in: ViewTesting.tree(stack))!
        XCTAssertEqual(node.sizeThatFits(.unspecified), CGSize(width: 60, height: 20))
        XCTAssertEqual(node.childFrames(in: CGRect(x: 0, y: 0, width: 60, height: 20)),
                       [CGRect(x: 0, y: 0, width: 20, height: 20), CGRect(x: 30, y: 5, width: 30, height: 10)])
    }

    func testVStackLeadingAlignmentAndDefaultSpacing() {
        let stack = VStack(alignment: .leading) {
            Color.red.frame(width: 40, height: 10)
            Color.blue.frame(width: 20, height: 10)
        }
        let node = ViewTesting.first(StackNode.self, in: ViewTesting.tree(stack))!
        XCTAssertEqual(node.sizeThatFits(.unspecified), CGSize(width: 40, height: 28))  // 10 + 8 + 10
        XCTAssertEqual(node.childFrames(in: CGRect(x: 5, y: 5, width: 40, height: 28)),
                       [CGRect(x: 5, y: 5, width: 40, height: 10), CGRect(x: 5, y: 23, width: 20, height: 10)])
    }

    /// The fixed child is sized first; the two fully flexible ones share what is left equally.
    func testStackGivesInflexibleChildrenTheirSizeFirstAndSplitsTheRest() {
        let stack = HStack(spacing: 0) {
            Color.red
            Spacer()
            Color.blue.frame(width: 30)
        }
        let node = ViewTesting.first(StackNode.self, in: ViewTesting.tree(stack))!
        let frames = node.childFrames(in: CGRect(x: 0, y: 0, width: 200, height: 50))
        XCTAssertEqual(frames, [CGRect(x: 0, y: 0, width: 85, height: 50), CGRect(x: 85, y: 25, width: 85, height: 0),
                                CGRect(x: 170, y: 0, width: 30, height: 50)])
    }

    func testSpacerPushesToTheEdgeAndKeepsItsMinimumLength() {
        let stack = HStack(spacing: 0) {
            Spacer(minLength: 12)
            Color.blue.frame(width: 30, height: 30)
        }
        XCTAssertEqual(size(stack, ProposedViewSize(width: 100, height: 100)), CGSize(width: 100, height: 30))
        XCTAssertEqual(size(stack, .unspecified), CGSize(width: 42, height: 30))
        XCTAssertEqual(size(stack, ProposedViewSize(width: 10, height: 100)), CGSize(width: 42, height: 30))
    }

    func testPaddingAddsInsetsAndProposesLess() {
        XCTAssertEqual(size(Color.red.frame(width: 20, height: 10).padding(5), .unspecified), CGSize(width: 30, height: 20))
        XCTAssertEqual(size(Color.red.frame(width: 20, height: 10).padding(), .unspecified), CGSize(width: 52, height: 42))
        XCTAssertEqual(size(Color.red.padding(.horizontal, 10), ProposedViewSize(width: 100, height: 40)),
                       CGSize(width: 100, height: 40))
        let node = ViewTesting.first(PaddingNode.self, in: ViewTesting.tree(Color.red.padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4))))!
        XCTAssertEqual(node.sizeThatFits(ProposedViewSize(width: 50, height: 50)), CGSize(width: 50, height: 50))
        XCTAssertEqual(node.child.sizeThatFits(ProposedViewSize(width: 44, height: 46)), CGSize(width: 44, height: 46))
    }

    func testFixedFrameAlignsItsChild() {
        let view = Color.red.frame(width: 10, height: 10).frame(width: 100, height: 50, alignment: .bottomTrailing)
        XCTAssertEqual(size(view, .unspecified), CGSize(width: 100, height: 50))
        XCTAssertEqual(Alignment.bottomTrailing.place(CGSize(width: 10, height: 10), in: CGRect(x: 0, y: 0, width: 100, height: 50)),
                       CGRect(x: 90, y: 40, width: 10, height: 10))
        // One fixed side: the other is the child's answer to the proposal.
        XCTAssertEqual(size(Color.red.frame(width: 30), ProposedViewSize(width: 300, height: 70)), CGSize(width: 30, height: 70))
    }

    func testFlexibleFrameClampsBetweenMinimumAndMaximum() {
        let view = Color.red.frame(minWidth: 50, maxWidth: 100, minHeight: 20, maxHeight: 40)
        XCTAssertEqual(size(view, ProposedViewSize(width: 300, height: 300)), CGSize(width: 100, height: 40))
        XCTAssertEqual(size(view, ProposedViewSize(width: 20, height: 10)), CGSize(width: 50, height: 20))
        XCTAssertEqual(size(view, ProposedViewSize(width: 70, height: 30)), CGSize(width: 70, height: 30))
        XCTAssertEqual(size(view, .unspecified), CGSize(width: 50, height: 20))
        // maxWidth: .infinity takes the whole proposal around a smaller child.
        let wide = Color.red.frame(width: 10, height: 10).frame(maxWidth: .infinity)
        XCTAssertEqual(size(wide, ProposedViewSize(width: 250, height: 40)), CGSize(width: 250, height: 10))
        XCTAssertEqual(size(Color.red.frame(idealWidth: 33, idealHeight: 44), .unspecified), CGSize(width: 33, height: 44))
    }

    func testShapesColoursAndCanvasesTakeTheProposalOrTenPoints() {
        XCTAssertEqual(size(Circle(), ProposedViewSize(width: 80, height: 30)), CGSize(width: 80, height: 30))
        XCTAssertEqual(size(Color.blue, .unspecified), CGSize(width: 10, height: 10))
        XCTAssertEqual(size(Canvas { _, _ in }, ProposedViewSize(width: nil, height: 25)), CGSize(width: 10, height: 25))
        XCTAssertEqual(size(Rectangle().fill(.red), ProposedViewSize(width: 7, height: 9)), CGSize(width: 7, height: 9))
    }

    func testZStackTakesTheLargestChildAndAlignsEach() {
        let z = ZStack(alignment: .topLeading) {
            Color.red.frame(width: 40, height: 10)
            Color.blue.frame(width: 10, height: 30)
        }
        XCTAssertEqual(size(z, .unspecified), CGSize(width: 40, height: 30))
        XCTAssertEqual(size(ZStack { Color.red.frame(width: 5, height: 5); EmptyView() }, .unspecified),
                       CGSize(width: 5, height: 5))
    }

    /// Text answers its measured size: one line when there is room, wrapped to a narrower proposal.
    func testTextTakesItsMeasuredSize() {
        let text = Text("Hello World").font(.system(size: 20))
        let measured = GraphicsContext.ResolvedText(text: text, defaultFont: .body).measure(in: CGSize(width: CGFloat.infinity, height: .infinity))
        XCTAssertGreaterThan(measured.width, 50)
        XCTAssertEqual(size(text, .unspecified), measured)
        XCTAssertEqual(size(text, ProposedViewSize(width: 1000, height: 5)), measured)
        let narrow = size(text, ProposedViewSize(width: measured.width * 0.7, height: 100))
        XCTAssertLessThanOrEqual(narrow.width, measured.width * 0.7)
        XCTAssertGreaterThan(narrow.height, measured.height * 1.5, "two lines")
        // The environment font reaches text without a font of its own.
        XCTAssertEqual(size(Text("Hello World").font(.system(size: 20)).font(.system(size: 40)), .unspecified), measured)
        XCTAssertGreaterThan(size(Text("Hello World").font(.system(size: 40)), .unspecified).width, measured.width * 1.9)
    }

    func testOverlayBorderAndBackgroundKeepTheChildsSize() {
        let view = Color.red.frame(width: 30, height: 20).border(Color.blue, width: 3)
            .background(Color.green).overlay(Color.clear.frame(width: 100, height: 100))
        XCTAssertEqual(size(view, .unspecified), CGSize(width: 30, height: 20))
        // Drawing modifiers do not change layout.
        XCTAssertEqual(size(Color.red.frame(width: 30, height: 20).offset(x: 5).rotationEffect(.degrees(45))
                                .scaleEffect(2).opacity(0.5).blur(radius: 2), .unspecified),
                       CGSize(width: 30, height: 20))
    }

    /// `if`, optional content and `ForEach` add children to the enclosing stack; `EmptyView` adds none.
    func testBuilderBlocksConditionalsAndForEachBecomeStackChildren() {
        func stack(_ flag: Bool) -> some View {
            HStack(spacing: 1) {
                Color.red.frame(width: 10, height: 10)
                if flag { Color.blue.frame(width: 20, height: 10) } else { Color.green.frame(width: 30, height: 10) }
                ForEach(0..<3) { _ in Color.gray.frame(width: 5, height: 5) }
                ForEach(["a", "b"], id: \.self) { _ in Color.gray.frame(width: 2, height: 2) }
                EmptyView()
            }
        }
        XCTAssertEqual(size(stack(true), .unspecified), CGSize(width: 10 + 20 + 15 + 4 + 6, height: 10))
        XCTAssertEqual(size(stack(false), .unspecified), CGSize(width: 10 + 30 + 15 + 4 + 6, height: 10))
    }

    /// Answers are remembered per proposal, so deeply nested stacks lay out in time linear in their size.
    func testDeeplyNestedStacksLayOutQuickly() {
        func nest(_ depth: Int) -> AnyView {
            depth == 0 ? AnyView(Color.red.frame(width: 1, height: 1))
                : AnyView(HStack(spacing: 1) { nest(depth - 1); VStack(spacing: 1) { nest(depth - 1) } })
        }
        // Each level is two copies of the level below side by side with 1 pt between: width 2^(d+1) − 1.
        // Inflexible 1 × 1 leaves keep that width whatever the proposal.
        let start = Date()
        let tree = ViewTesting.tree(nest(12))
        XCTAssertEqual(tree.sizeThatFits(ProposedViewSize(width: 500, height: 500)), CGSize(width: 8191, height: 1))
        XCTAssertEqual(tree.sizeThatFits(.unspecified), CGSize(width: 8191, height: 1))
        XCTAssertLessThan(Date().timeIntervalSince(start), 20, "4096 leaves must not take 3^12 measurements each")
    }

    /// A negative or NaN fixed frame dimension lays out as 0.
    func testInvalidFrameDimensionsAreZero() {
        XCTAssertEqual(size(Color.red.frame(width: -5, height: .nan), .unspecified), .zero)
        XCTAssertEqual(size(HStack(spacing: 0) { Color.red.frame(width: -5, height: 3); Color.blue.frame(width: 4, height: 3) }, .unspecified),
                       CGSize(width: 4, height: 3))
    }
}
