// The recording: an immutable display list that both backends render.
//
// A `GraphicsContext` appends to it; the scene loader builds one by replaying a scene's commands against a
// context; the GLES planner and the reference renderer walk it. Everything in it is resolved: colours are
// premultiplied in the working space, each draw carries the full state it was issued under. Paths stay in
// user space with their transform, so each backend flattens at its own device scale.
//
// Room for later features: `Paint` grows gradient and image cases, `RecordedItem` grows clip-layer and
// filter-layer items, `DrawState` carries clips and filters. A backend that meets a case it cannot draw yet
// throws `RenderError.unsupported` rather than drawing something else.

/// A complete recording of one canvas frame.
public struct Recording: Sendable, Equatable, CustomStringConvertible {
    /// Canvas size in points.
    public var size: CGSize
    public var colorMode: ColorRenderingMode
    public var isOpaque: Bool
    /// The canvas's own layer.
    public var root: RecordedLayer

    public init(size: CGSize, colorMode: ColorRenderingMode = .nonLinear, isOpaque: Bool = false,
                root: RecordedLayer = RecordedLayer()) {
        self.size = size
        self.colorMode = colorMode
        self.isOpaque = isOpaque
        self.root = root
    }

    /// Records a renderer closure: `Recording(size: s) { ctx, size in ctx.fill(…) }`.
    public init(size: CGSize, colorMode: ColorRenderingMode = .nonLinear, isOpaque: Bool = false,
                renderer: (inout GraphicsContext, CGSize) throws -> Void) rethrows {
        let layer = LayerRecorder()
        var context = GraphicsContext(layer: layer, canvasSize: size, colorMode: colorMode)
        try renderer(&context, size)
        self.init(size: size, colorMode: colorMode, isOpaque: isOpaque, root: RecordedLayer(items: layer.items))
    }

    /// Number of draws, counting those inside nested layers.
    public var drawCount: Int { root.drawCount }
}

/// An ordered list of items composited into one target.
public struct RecordedLayer: Sendable, Equatable {
    public internal(set) var items: [RecordedItem]
    public init() { items = [] }
    init(items: [RecordedItem]) { self.items = items }

    var drawCount: Int {
        items.reduce(0) { n, item in
            switch item {
            case .draw: return n + 1
            }
        }
    }
}

/// One entry of a layer.
public enum RecordedItem: Sendable, Equatable {
    case draw(DrawCommand)
}

/// A fill or a stroke of a path with a paint, under the state it was issued with.
public struct DrawCommand: Sendable, Equatable {
    public enum Geometry: Sendable, Equatable {
        case fill(Path, FillStyle)
        case stroke(Path, StrokeStyle)
    }
    public var geometry: Geometry
    /// User space → canvas points.
    public var transform: CGAffineTransform
    public var paint: Paint
    public var state: DrawState

    /// The path as given, whatever the geometry.
    public var path: Path {
        switch geometry {
        case .fill(let p, _), .stroke(let p, _): return p
        }
    }
}

/// What is painted where the geometry covers.
public enum Paint: Sendable, Equatable {
    /// A premultiplied colour in the working space.
    case solid(RGBA)
}

/// The compositing state a draw was issued under.
public struct DrawState: Sendable, Equatable {
    public var opacity: Double = 1
    public var blendMode: GraphicsContext.BlendMode = .normal
}

/// The reference-typed sink that the copies of one context share.
final class LayerRecorder {
    var items: [RecordedItem] = []
    func append(_ item: RecordedItem) { items.append(item) }
}
