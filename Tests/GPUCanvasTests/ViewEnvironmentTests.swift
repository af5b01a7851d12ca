import Observation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

private struct EnvironmentCaption: View {
    @Environment(\.font) var font
    @Environment(\.colorScheme) var colorScheme
    @Environment(\.displayScale) var displayScale
    @Environment(\.layoutDirection) var layoutDirection

    var body: some View {
        Text(verbatim: "\(font == .title ? "title" : "other") \(colorScheme) \(displayScale) \(layoutDirection)")
    }
}

@Observable private final class CardModel {
    var title = "First"
}

private struct ModelCard: View {
    let model: CardModel
    var body: some View { Text(model.title) }
}

/// `@Environment` reads what `environment(_:_:)` and `font(_:)` set above the view; `@Observable` models are
/// read when the body is built.
final class ViewEnvironmentTests: XCTestCase {
    func caption<V: View>(_ view: V) -> String { ViewTesting.first(TextNode.self, in: ViewTesting.tree(view))!.text.string }

    func testEnvironmentReadsWhatIsSetAbove() {
        XCTAssertEqual(caption(EnvironmentCaption()), "other light 1.0 leftToRight")
        XCTAssertEqual(caption(EnvironmentCaption().font(.title)), "title light 1.0 leftToRight")
        XCTAssertEqual(caption(EnvironmentCaption().environment(\.font, .title)), "title light 1.0 leftToRight")
        XCTAssertEqual(caption(EnvironmentCaption().environment(\.colorScheme, .dark).environment(\.displayScale, 2)
                                .environment(\.layoutDirection, .rightToLeft)), "other dark 2.0 rightToLeft")
        // environment(\.font, …) is also the font text draws with.
        let node = ViewTesting.first(TextNode.self, in: ViewTesting.tree(Text("A").environment(\.font, .system(size: 40))))!
        XCTAssertGreaterThan(node.sizeThatFits(.unspecified).height, 40)
    }

    func testObservableModelIsReadWhenBuilt() {
        let model = CardModel()
        XCTAssertEqual(caption(ModelCard(model: model)), "First")
        model.title = "Second"
        XCTAssertEqual(caption(ModelCard(model: model)), "Second")
    }
}
