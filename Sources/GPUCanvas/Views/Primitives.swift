// The primitive views: shapes (filled, stroked), `Color`, `Text`, `Image` and `Canvas`, and the shape styles
// SwiftUI lets a `fill` name with a leading dot (`.fill(.cyan)`, `.stroke(.foreground)`).

extension Shape {
    /// Shapes are primitive views: drawn, not built from a body.
    public var body: Never { fatalError("\(Self.self) is a shape and has no body") }

    /// The shape filled with `content` (the foreground style by default), taking the proposed size.
    public func fill<S: ShapeStyle>(_ content: S = ForegroundStyle(), style: FillStyle = FillStyle()) -> some View {
        ShapeView(shape: self, paint: .fill(content.shading, style))
    }

    /// The shape's outline stroked with `content`, centred on the path.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> some View {
        ShapeView(shape: self, paint: .stroke(content.shading, style))
    }

    /// The shape's outline stroked `lineWidth` wide with `content`.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View {
        ShapeView(shape: self, paint: .stroke(content.shading, StrokeStyle(lineWidth: lineWidth)))
    }

    /// The shape's outline stroked with the foreground style.
    public func stroke(style: StrokeStyle) -> some View { ShapeView(shape: self, paint: .stroke(nil, style)) }

    /// The shape's outline stroked `lineWidth` wide with the foreground style.
    public func stroke(lineWidth: CGFloat = 1) -> some View {
        ShapeView(shape: self, paint: .stroke(nil, StrokeStyle(lineWidth: lineWidth)))
    }

    /// The outline stroked inside the frame: the path is inset by half the line width first.
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> some View {
        ShapeView(shape: self, paint: .strokeBorder(content.shading, StrokeStyle(lineWidth: lineWidth)))
    }

    /// The outline stroked inside the frame with `style`.
    public func strokeBorder<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> some View {
        ShapeView(shape: self, paint: .strokeBorder(content.shading, style))
    }
}

/// A shape with its paint, as a view.
struct ShapeView<S: Shape>: View, PrimitiveView {
    typealias Body = Never
    let shape: S
    let paint: ShapeNode.Paint
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: shape, paint: paint, environment: environment)
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
        ShapeNode(shape: Rectangle(), paint: .fill(.color(self), FillStyle()), environment: environment)
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
