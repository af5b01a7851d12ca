/// SwiftUI's `Canvas`: a renderer closure plus the options it draws with, and optionally the views it draws
/// as symbols (`context.resolveSymbol(id:)`).
///
/// ```swift
/// let canvas = Canvas { context, size in
///     context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.blue))
/// }
/// let image = try CanvasRenderer().render(canvas, size: CGSize(width: 100, height: 100), scale: 2)
/// ```
///
/// As a view (in a stack, under `frame`, through `ImageRenderer`) a canvas takes the size it is proposed
/// (10 × 10 when a dimension is unspecified), and its renderer draws into a context translated to its frame
/// and clipped to it (see `Views/View.swift`).
public struct Canvas<Symbols> {
    public var isOpaque: Bool
    public var colorMode: ColorRenderingMode
    /// A scheduling hint in SwiftUI; offline rendering ignores it.
    public var rendersAsynchronously: Bool
    public var renderer: (inout GraphicsContext, CGSize) -> Void
    public var symbols: Symbols
}

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

extension Canvas where Symbols: View {
    /// A canvas whose renderer can draw the views `symbols` builds: tag each with `.tag(id)` and fetch it
    /// with `context.resolveSymbol(id:)`.
    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear,
                rendersAsynchronously: Bool = false,
                renderer: @escaping (inout GraphicsContext, CGSize) -> Void,
                @ViewBuilder symbols: () -> Symbols) {
        self.isOpaque = opaque
        self.colorMode = colorMode
        self.rendersAsynchronously = rendersAsynchronously
        self.renderer = renderer
        self.symbols = symbols()
    }
}

extension Canvas {
    /// Runs the renderer closure once for a canvas of `size` points and returns what it drew. (A canvas whose
    /// `Symbols` is a `View` is recorded through the view path instead, so its symbols resolve:
    /// `Views/ImageRenderer.swift`.)
    public func record(size: CGSize) -> Recording {
        Recording(size: size, colorMode: colorMode, isOpaque: isOpaque, renderer: renderer)
    }
}
