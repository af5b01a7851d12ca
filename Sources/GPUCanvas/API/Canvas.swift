/// A type that SwiftUI would display. Here only `Canvas` and `EmptyView` conform; it exists so code written
/// against `Canvas<EmptyView>` compiles unchanged.
public protocol View {}

/// The empty view: a canvas with no symbols is a `Canvas<EmptyView>`.
public struct EmptyView: View {
    public init() {}
}

/// SwiftUI's `Canvas`: a renderer closure plus the options it draws with.
///
/// ```swift
/// let canvas = Canvas { context, size in
///     context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.blue))
/// }
/// let image = try CanvasRenderer().render(canvas, size: CGSize(width: 100, height: 100), scale: 2)
/// ```
public struct Canvas<Symbols> {
    public var isOpaque: Bool
    public var colorMode: ColorRenderingMode
    /// A scheduling hint in SwiftUI; offline rendering ignores it.
    public var rendersAsynchronously: Bool
    public var renderer: (inout GraphicsContext, CGSize) -> Void
    public var symbols: Symbols
}

extension Canvas: View where Symbols: View {}

extension Canvas where Symbols == EmptyView {
    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear,
                rendersAsynchronously: Bool = false,
                renderer: @escaping (inout GraphicsContext, CGSize) -> Void) {
        self.isOpaque = opaque
        self.colorMode = colorMode
        self.rendersAsynchronously = rendersAsynchronously
        self.renderer = renderer
        self.symbols = EmptyView()
    }
}

extension Canvas {
    /// Runs the renderer closure once for a canvas of `size` points and returns what it drew.
    public func record(size: CGSize) -> Recording {
        Recording(size: size, colorMode: colorMode, isOpaque: isOpaque, renderer: renderer)
    }
}
