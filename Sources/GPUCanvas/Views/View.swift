// Views: SwiftUI's view tree, laid out and recorded into the same `Recording` a canvas makes.
//
// Design note. A view is a value whose `body` is another view, down to primitive views (`Body == Never`:
// shapes, `Color`, `Text`, `Image`, `Canvas`, stacks, `Spacer`, and the modifiers). Rendering a view happens
// in three steps, each in its own file:
//
//  1. Build (`ViewNode.swift`, `NodeBuilder`): bodies are evaluated top-down into a tree of `ViewNode`s, the
//     primitive views with their parameters. `@State` properties are linked, before `body` runs, to storage in
//     the `ViewGraph` keyed by the view's structural identity (its path of types, child positions, `ForEach`
//     ids, conditional branches and `id(_:)` values). Environment modifiers (`font`, `foregroundColor`,
//     `foregroundStyle`) flow down while building; `onAppear` actions are collected.
//  2. Layout (`Layout.swift`): SwiftUI's proposal / response model. A parent proposes a size
//     (`ProposedViewSize`, each dimension may be unspecified), the child answers its size, the parent places it.
//     Implemented rules: shapes, `Color`, gradients and `Canvas` take the proposal (10 pt for an unspecified
//     dimension); `Text` takes its measured size (wrapped to the proposed width, then line-limited, truncated,
//     aligned: `TextLayout.swift`); `Image` its own size, a resizable one the proposal; `frame(width:height:)`
//     proposes its fixed sides and centres the child by alignment; the flexible frame clamps (below); `padding`
//     proposes less and adds its insets; stacks distribute the proposal among their children by descending
//     layout priority, least flexible first (flexibility = size proposed ∞ − size proposed 0), with 8 pt default
//     spacing and `Spacer`s taking what is left; `ZStack` takes the largest child and aligns each; overlay,
//     background and border take the child's size; `aspectRatio`, `fixedSize`, `position`, grids and
//     `GeometryReader` as described where they are defined. Approximations: a view is re-proposed its own size
//     when placed (SwiftUI keeps the first proposal); spacing is uniform (no per-pair platform spacing);
//     baseline alignments align by the top (first) or bottom (last) edge.
//  3. Draw (`ViewNode.place`, which keeps the placed frame and calls `draw`): the placed tree draws into a
//     `GraphicsContext`: shapes fill or stroke their path (asked for at the origin with the frame's size),
//     `Text` uses the text draw, `Image` the image draw, a `Canvas` runs its renderer in a context translated to
//     its frame and clipped to it, modifiers become transforms (`offset`, `rotationEffect`, `scaleEffect`) or
//     layers (`opacity`, `blur`, `shadow`, colour filters, `blendMode`, `clipShape`, `mask`). Both backends
//     then render that one `Recording`: no backend code knows about views.
//
// Time: a `ViewGraph` renders the tree at a time t in seconds from the first appearance (t = 0, when the
// `onAppear` actions run). `TimelineView` reads `startDate + t`; animations (`withAnimation`) are evaluated at
// t by building the tree before and after the animated transaction and interpolating the animatable modifier
// values between matching nodes (`State.swift`, `Animation.swift`). Nothing reads the wall clock, so a frame at
// a given t gives the same bytes every run.

/// A piece of user interface: a value whose `body` is another view, down to the primitive views.
///
/// ```swift
/// struct Badge: View {
///     var body: some View {
///         ZStack { Circle().fill(.red); Text("3").foregroundColor(.white) }.frame(width: 24, height: 24)
///     }
/// }
/// let image = try ImageRenderer(content: Badge()).render(with: CanvasRenderer(backend: .reference))
/// ```
public protocol View {
    /// The view this one is made of; `Never` for the primitive views.
    associatedtype Body: View
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("Never has no body") }
}

/// Primitive views build their node directly instead of having a body.
protocol PrimitiveView {
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode
}

extension View where Body == Never {
    /// Primitive views have no body: asking for it is a programming error.
    public var body: Never { fatalError("\(Self.self) is a primitive view and has no body") }
}

/// The empty view: a canvas with no symbols is a `Canvas<EmptyView>`. It takes no space (stacks skip it).
public struct EmptyView: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode { EmptyNode() }
}

/// A type-erased view: `AnyView(Text("a"))`. Its identity includes the erased type, so a different type is a
/// different view (its state starts over).
public struct AnyView: View, PrimitiveView {
    public typealias Body = Never
    let make: (NodeBuilder, ViewEnvironment, ViewPath) -> ViewNode

    public init<V: View>(_ view: V) {
        make = { builder, environment, path in builder.build(view, environment, path.appending("\(V.self)")) }
    }

    public init<V: View>(erasing view: V) { self.init(view) }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        make(builder, environment, path)
    }
}

/// Several views in a builder block, in order: each is a child of the enclosing stack (or symbols list).
public struct TupleView<T>: View, PrimitiveView {
    public typealias Body = Never
    public var value: T
    let children: [AnyView]

    init(value: T, children: [AnyView]) { self.value = value; self.children = children }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        GroupNode(children: children.enumerated().map { i, child in
            child.make(builder, environment, path.appending("\(i)"))
        })
    }
}

/// One of two views, chosen by an `if`/`else` in a builder: the branch is part of the identity.
public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View, PrimitiveView {
    public typealias Body = Never
    enum Storage { case trueContent(TrueContent), falseContent(FalseContent) }
    let storage: Storage

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        switch storage {
        case .trueContent(let v): return builder.build(v, environment, path.appending("true"))
        case .falseContent(let v): return builder.build(v, environment, path.appending("false"))
        }
    }
}

/// An `if` without `else` in a builder: the view or nothing.
extension Optional: View where Wrapped: View {
    public typealias Body = Never
}

extension Optional: PrimitiveView where Wrapped: View {
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        switch self {
        case .some(let v): return builder.build(v, environment, path.appending("some"))
        case .none: return EmptyNode()
        }
    }
}

/// SwiftUI's view builder: blocks of views (any number; SwiftUI allows 10), `if`/`else`, `if let`,
/// `switch`, optionals and `if #available`.
@resultBuilder
public struct ViewBuilder {
    public static func buildBlock() -> EmptyView { EmptyView() }

    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        var children: [AnyView] = []
        for child in repeat each content { children.append(AnyView(child)) }
        return TupleView(value: (repeat each content), children: children)
    }

    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildOptional<Content: View>(_ content: Content?) -> Content? { content }

    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent)
        -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent)
        -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }

    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// Views made from a collection: one per element, identified by the element's id (the id is part of each
/// child's identity, so state follows the element).
///
/// `ForEach(0..<3) { i in Circle().frame(width: 10, height: 10) }` puts three circles in the enclosing stack.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public var data: Data
    public var content: (Data.Element) -> Content
    let id: (Data.Element) -> ID

    /// One view per element, identified by the element's `id` key path (`\.self`, `\.0`, `\.name`).
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
        self.id = { $0[keyPath: id] }
    }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        GroupNode(children: data.map { element in
            builder.build(content(element), environment, path.appending("id:\(AnyHashable(id(element)))"))
        })
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// One view per integer of a constant range, identified by the integer.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// One view per element, identified by its `id`.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

/// A view's structural identity: the path from the root through types, child positions, branches and ids.
struct ViewPath: Hashable, CustomStringConvertible {
    var components: [String] = []
    func appending(_ component: String) -> ViewPath {
        var p = self
        p.components.append(component)
        return p
    }
    var description: String { components.joined(separator: "/") }
}

/// What environment modifiers set while building: the default font and the foreground style.
struct ViewEnvironment {
    var font: Font?
    var foreground: GraphicsContext.Shading?
    /// The foreground as a colour when it is one (a `Canvas`'s `.foreground` shading reads it).
    var foregroundColor: Color?
    /// `tint(_:)`: kept for what reads it (no view here draws with it yet).
    var tint: Color?
    /// Line limits, truncation, alignment and the other text layout settings (TextLayout.swift).
    var textLayout = TextLayoutOptions()
    /// `textRenderer(_:)`: what draws the text views inside (TextRenderer.swift).
    var textRenderer: (any TextRenderer)?
    /// The values `environment(_:_:)` set, which `@Environment` properties read (Environment.swift).
    var values = EnvironmentValues()
}
