// Rendering a view: `ImageRenderer` (SwiftUI's name) lays a view out and records it into a `Recording`, which
// a `CanvasRenderer` (GLES or the reference) turns into pixels. It keeps the view's graph (its `@State`, what
// has appeared, the changes and their animations) across calls, so it is also the frame source of an
// animation: `recording(at: t)` is the view as it shows `t` seconds after its first appearance, with
// `TimelineView`s seeing `startDate + t`.

/// Renders a view into an image, headless.
///
/// ```swift
/// let renderer = ImageRenderer(content: Circle().fill(.red).frame(width: 40, height: 40))
/// renderer.scale = 2
/// let image = try renderer.render(with: CanvasRenderer())      // 80 × 80 pixels
/// try image.writePNG(to: URL(fileURLWithPath: "circle.png"))
/// let frame = try renderer.render(at: 0.5, with: CanvasRenderer(backend: .reference))  // t = 0.5 s
/// ```
///
/// SwiftUI's `cgImage` / `uiImage` become `render(with:)` (a `RasterImage`, premultiplied RGBA8) and
/// `pngData(with:)`. Changing `content` starts a new graph (state and time start over).
public final class ImageRenderer<Content: View> {
    /// The view rendered; setting it starts over (new state, first appearance at the next render).
    public var content: Content { didSet { graph = ImageRenderer.makeGraph(content, startDate: startDate) } }
    /// Pixels per point.
    public var scale: CGFloat = 1
    /// A promise that every pixel is opaque (as `Canvas(opaque:)`).
    public var isOpaque = false
    /// The working colour space of the recording (nested canvases draw in it too).
    public var colorMode: ColorRenderingMode = .nonLinear
    /// What the view is proposed; unspecified dimensions take the view's ideal size.
    public var proposedSize: ProposedViewSize = .unspecified
    /// The date `TimelineView`s see at time 0; fixed (not the wall clock) so frames are reproducible.
    public var startDate: Date { didSet { graph = ImageRenderer.makeGraph(content, startDate: startDate) } }

    private var graph: ViewGraph

    /// The start date used when none is given: 2001-01-01 00:00:00 UTC (the reference date).
    public static var defaultStartDate: Date { Date(timeIntervalSinceReferenceDate: 0) }

    public init(content view: Content) {
        content = view
        startDate = ImageRenderer.defaultStartDate
        graph = ImageRenderer.makeGraph(view, startDate: ImageRenderer.defaultStartDate)
    }

    /// A renderer whose `TimelineView`s see `startDate` at time 0.
    public init(content view: Content, startDate: Date) {
        content = view
        self.startDate = startDate
        graph = ImageRenderer.makeGraph(view, startDate: startDate)
    }

    private static func makeGraph(_ view: Content, startDate: Date) -> ViewGraph {
        ViewGraph(root: AnyView(view), startDate: startDate)
    }

    /// The view's size for `proposedSize` at time `time`.
    public func size(at time: TimeInterval = 0) -> CGSize {
        let tree = graph.tree(at: time)
        return ViewGraph.$evaluating.withValue(graph) { tree.sizeThatFits(proposedSize) }
    }

    /// The view laid out and recorded as it shows `time` seconds after its first appearance (0: the first
    /// frame, after the `onAppear` actions ran). Frames may be asked for in any order; state changes made by
    /// views appearing later are kept once made.
    public func recording(at time: TimeInterval = 0) -> Recording {
        // Asset names that resolve to nothing, looked up while the bodies are built or drawn, are reported
        // through the recording's diagnostics (Assets.swift).
        let misses = AssetCatalog.Misses()
        let tree = AssetCatalog.$misses.withValue(misses) { graph.tree(at: time) }
        // Laid out and drawn with the graph evaluating: its canvases read their views' state from its cells.
        return ViewGraph.$evaluating.withValue(graph) {
            let size = tree.sizeThatFits(proposedSize)
            return Recording(size: size, colorMode: colorMode, isOpaque: isOpaque) { context, size in
                AssetCatalog.$misses.withValue(misses) { tree.place(context, in: CGRect(origin: .zero, size: size)) }
                for d in misses.diagnostics { context.report(d) }
            }
        }
    }

    /// The frame at `time` rendered by `renderer` at `scale`. A view with no area (or an infinite one) is a
    /// `RenderError.invalidSize` naming its size.
    public func render(at time: TimeInterval = 0, with renderer: CanvasRenderer) throws -> RasterImage {
        try renderer.render(recording(at: time), scale: scale)
    }

    /// The first frame rendered by `renderer`.
    public func render(with renderer: CanvasRenderer) throws -> RasterImage { try render(at: 0, with: renderer) }

    /// The frame at `time` as PNG data (straight alpha).
    public func pngData(at time: TimeInterval = 0, with renderer: CanvasRenderer) throws -> Data {
        try render(at: time, with: renderer).pngData()
    }
}

extension Canvas where Symbols: View {
    /// Records the canvas as a view proposed `size`: the renderer runs once at that size, as the unconstrained
    /// `record(size:)` does, and its symbols are available to `resolveSymbol(id:)`.
    public func record(size: CGSize) -> Recording {
        let r = ImageRenderer(content: self)
        r.proposedSize = ProposedViewSize(size)
        r.colorMode = colorMode
        r.isOpaque = isOpaque
        return r.recording()
    }
}

extension CanvasRenderer {
    /// Renders one frame of `canvas` at `size` points and `scale` pixels per point, with its symbols.
    public func render<Symbols: View>(_ canvas: Canvas<Symbols>, size: CGSize, scale: CGFloat = 1) throws -> RasterImage {
        try render(canvas.record(size: size), scale: scale)
    }
}
