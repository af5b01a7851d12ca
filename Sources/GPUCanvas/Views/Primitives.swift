// The primitive views: shapes (filled, stroked), `Color`, `Text`, `Image` and `Canvas`, and the shape styles
// SwiftUI lets a `fill` name with a leading dot (`.fill(.cyan)`, `.stroke(.foreground)`).

extension Shape {
    /// Shapes are primitive views: drawn, not built from a body.
    public var body: Never { fatalError("\(Self.self) is a shape and has no body") }

    /// The shape filled with `content` (the foreground style by default), taking the proposed size.
    public func fill<S: ShapeStyle>(_ content: S = ForegroundStyle(), style: FillStyle = FillStyle()) -> _ShapeView<Self> {
        _ShapeView(shape: self, paints: [.fill(content.shading, style)])
    }

    /// The shape's outline stroked with `content`, centred on the path.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, paints: [.stroke(content.shading, style)])
    }

    /// The shape's outline stroked `lineWidth` wide with `content`.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paints: [.stroke(content.shading, StrokeStyle(lineWidth: lineWidth))])
    }

    /// The outline stroked inside the frame: the path of the rect inset by half the line width (for shapes
    /// that are not `InsettableShape`s, whose `strokeBorder` insets the shape itself).
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Self> {
        _ShapeView(shape: self, paints: [.strokeBorder(content.shading, StrokeStyle(lineWidth: lineWidth))])
    }

    /// The outline stroked inside the frame with `style`.
    public func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Self> {
        _ShapeView(shape: self, paints: [.strokeBorder(content.shading, style)])
    }
}

extension InsettableShape {
    /// The shape inset by half the line width and stroked, so the stroke stays inside the frame (SwiftUI's
    /// definition: `inset(by: lineWidth / 2).stroke(content, style: style)`).
    public func strokeBorder<S: ShapeStyle>(_ content: S = ForegroundStyle(), style: StrokeStyle) -> _ShapeView<InsetShape> {
        _ShapeView(shape: inset(by: style.lineWidth / 2), paints: [.stroke(content.shading, style)])
    }

    /// The shape inset by `lineWidth / 2` and stroked `lineWidth` wide.
    public func strokeBorder<S: ShapeStyle>(_ content: S = ForegroundStyle(), lineWidth: CGFloat = 1) -> _ShapeView<InsetShape> {
        strokeBorder(content, style: StrokeStyle(lineWidth: lineWidth))
    }

    /// The inset outline stroked with the foreground style.
    public func strokeBorder(style: StrokeStyle) -> _ShapeView<InsetShape> { strokeBorder(ForegroundStyle(), style: style) }

    /// The inset outline stroked `lineWidth` wide with the foreground style.
    public func strokeBorder(lineWidth: CGFloat = 1) -> _ShapeView<InsetShape> {
        strokeBorder(ForegroundStyle(), style: StrokeStyle(lineWidth: lineWidth))
    }
}

/// A shape with its paints, as a view (SwiftUI's `_ShapeView`): `Circle().fill(.red).stroke(.blue, lineWidth: 2)`
/// fills and then strokes (iOS 17), in that order.
public struct _ShapeView<Content: Shape>: View, PrimitiveView {
    public typealias Body = Never
    let shape: Content
    let paints: [ShapeNode.Paint]

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: shape, paints: paints, environment: environment)
    }

    /// This view with the outline also filled with `content`, over what it draws.
    public func fill<S: ShapeStyle>(_ content: S = ForegroundStyle(), style: FillStyle = FillStyle()) -> _ShapeView<Content> {
        _ShapeView(shape: shape, paints: paints + [.fill(content.shading, style)])
    }

    /// This view with the outline also stroked with `content`, over what it draws.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> _ShapeView<Content> {
        _ShapeView(shape: shape, paints: paints + [.stroke(content.shading, style)])
    }

    /// This view with the outline also stroked `lineWidth` wide with `content`.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> _ShapeView<Content> {
        stroke(content, style: StrokeStyle(lineWidth: lineWidth))
    }
}

/// Shapes whose view draws a paint other than a fill of their path.
protocol ShapeNodeMaking {
    func makeShapeNode(_ environment: ViewEnvironment) -> ShapeNode
}

extension _StrokedShape: ShapeNodeMaking {
    /// `Circle().stroke(lineWidth: 2)` as a view: the circle stroked with the foreground style.
    func makeShapeNode(_ environment: ViewEnvironment) -> ShapeNode {
        ShapeNode(shape: shape, paints: [.stroke(nil, style)], environment: environment)
    }
}

/// The foreground style of the environment (`Color.primary` unless `foregroundStyle` says otherwise).
public struct ForegroundStyle: ShapeStyle {
    public init() {}
    public var shading: GraphicsContext.Shading { .foreground }
}

extension ShapeStyle where Self == ForegroundStyle {
    /// The environment's foreground style: `.fill(.foreground)`.
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

extension ShapeStyle where Self == Color {
    public static var red: Color { Color.red }
    public static var orange: Color { Color.orange }
    public static var yellow: Color { Color.yellow }
    public static var green: Color { Color.green }
    public static var mint: Color { Color.mint }
    public static var teal: Color { Color.teal }
    public static var cyan: Color { Color.cyan }
    public static var blue: Color { Color.blue }
    public static var indigo: Color { Color.indigo }
    public static var purple: Color { Color.purple }
    public static var pink: Color { Color.pink }
    public static var brown: Color { Color.brown }
    public static var gray: Color { Color.gray }
    public static var black: Color { Color.black }
    public static var white: Color { Color.white }
    public static var clear: Color { Color.clear }
    public static var primary: Color { Color.primary }
    public static var secondary: Color { Color.secondary }
}

/// A colour as a view fills its frame, and takes the proposed size.
extension Color: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(.color(self), FillStyle())], environment: environment)
    }
}

/// Text as a view takes its measured size (wrapped to the proposed width) and draws with the environment's
/// font and foreground style where it sets none.
extension Text: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        TextNode(text: self, environment: environment)
    }
}

/// An image as a view takes its own size in points; a template image is filled with the foreground style.
extension Image: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ImageNode(image: self, environment: environment)
    }
}

extension Canvas: View where Symbols: View {
    public typealias Body = Never
}

extension Canvas: PrimitiveView where Symbols: View {
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        let symbols = builder.build(self.symbols, environment, path.appending("symbols"))
        return CanvasNode(renderer: renderer, symbols: symbols.flattened, environment: environment)
    }
}
