// The recording: an immutable display list that both backends render.
//
// A `GraphicsContext` appends to it; the scene loader builds one by replaying a scene's commands against a
// context; the lowering stage walks it once for either backend. Solid colours are premultiplied in the working
// space at record time (gradients keep their `Color`s until lowering), each draw carries the full state it was issued under. Paths stay in
// user space with their transform, so each backend flattens at its own device scale.
//
// It is a tree: a layer is an ordered list of draws and child layers (`drawLayer`); a draw's or layer's
// state carries its clip stack, whose `clipToLayer` masks hold layers of their own. Nothing here is
// validated: the lowering stage (`Lowering/`) decides, once for both backends, what can be drawn.

/// A complete recording of one canvas frame.
public struct Recording: Sendable, Equatable, CustomStringConvertible {
    /// Canvas size in points.
    public var size: CGSize
    public var colorMode: ColorRenderingMode
    public var isOpaque: Bool
    /// The canvas's own layer.
    package var root: RecordedLayer
    /// What recording ignored (an unknown system image or asset name), in the order it happened.
    public package(set) var diagnostics: [RenderDiagnostic] = []
    /// The rendering renderer's policy and the lowering's diagnostic log, set on the copy it renders (each
    /// backend owns its `Lowering`; the recording is what reaches both). nil: lowered strictly.
    package var lowering: LoweringDiagnostics?

    package init(size: CGSize, colorMode: ColorRenderingMode = .nonLinear, isOpaque: Bool = false,
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
        diagnostics = layer.counter.log.diagnostics
    }

    /// Number of draws, counting those inside layers and clip masks.
    public var drawCount: Int {
        var numbers = Set<Int>()
        root.collectDrawNumbers(into: &numbers)
        return numbers.count
    }
}

/// An ordered list of items composited into one target.
package struct RecordedLayer: Sendable, Equatable {
    package var items: [RecordedItem]
    package init() { items = [] }
    package init(items: [RecordedItem]) { self.items = items }

    /// Adds the numbers of the draws in this layer and in every layer and mask inside it.
    package func collectDrawNumbers(into numbers: inout Set<Int>) {
        for item in items {
            switch item {
            case .draw(let d):
                numbers.insert(d.drawNumber)
                d.state.collectMaskDrawNumbers(into: &numbers)
            case .layer(let l):
                l.content.collectDrawNumbers(into: &numbers)
                l.state.collectMaskDrawNumbers(into: &numbers)
            }
        }
    }
}

/// One entry of a layer.
package enum RecordedItem: Sendable, Equatable {
    case draw(DrawCommand)
    /// `drawLayer`: a group drawn into its own transparent layer, composited once with `state`.
    case layer(LayerCommand)
}

/// A fill or a stroke of a path with a paint, under the state it was issued with.
package struct DrawCommand: Sendable, Equatable {
    package enum Geometry: Sendable, Equatable {
        case fill(Path, FillStyle)
        case stroke(Path, StrokeStyle)
        /// Glyphs laid out in user space, filled as one nonzero shape. Boxed: a draw command is copied several
        /// times on its way through the lowering, and the text's seven arrays and strings would cost a
        /// reference count each per copy.
        indirect case text(TextGeometry)

        /// The path as given; for text, the layout's rectangle (what a `.style` gradient spans).
        package var path: Path {
            switch self {
            case .fill(let p, _), .stroke(let p, _): return p
            case .text(let t): return Path(t.bounds)
            }
        }
    }
    package var geometry: Geometry
    /// User space → canvas points.
    package var transform: CGAffineTransform
    package var paint: Paint
    package var state: DrawState
    /// The draw's number in the order the renderer closure issued it (0 first), `drawLayer` and `clipToLayer`
    /// contents included: errors name draws by it (`draw #3: …`).
    package var drawNumber: Int

    /// The path as given, whatever the geometry.
    package var path: Path { geometry.path }
}

/// A `drawLayer` group: its content and the state it is composited with into its parent.
package struct LayerCommand: Sendable, Equatable {
    package var content: RecordedLayer
    package var state: DrawState

    package init(content: RecordedLayer, state: DrawState) { self.content = content; self.state = state }
}

/// What is painted where the geometry covers.
package enum Paint: Sendable, Equatable {
    /// A premultiplied colour in the working space.
    case solid(RGBA)
    /// A gradient with its colours as given; the lowering resolves them in the working space.
    case gradient(GradientShading)
    /// A `.style(…)` gradient whose UnitPoints the lowering maps onto the drawn path's bounding rect.
    case styleGradient(UnitGradient)
    /// An image (`draw(_:in:)`, `tiledImage`), or a template image's alpha filled with a tint (the only case
    /// that holds a paint, so the only one boxed: solid paints stay inline).
    indirect case image(ImagePaint)
    /// The destination under the draw, as it was before the draw (`Shading.backdrop`).
    case backdrop
    /// A mesh gradient whose unit space the lowering maps onto the drawn path's bounding rect.
    case meshGradient(MeshGradient)
}

/// The compositing state a draw or layer was issued under.
package struct DrawState: Sendable, Equatable {
    package var opacity: Double = 1
    package var blendMode: GraphicsContext.BlendMode = .normal
    /// Clip shapes and masks in the order they were added; the clip region is their intersection.
    package var clips: [RecordedClip] = []
    /// Filters in the order they were added (they run in the reverse order, the last added first).
    package var filters: [RecordedFilter] = []

    /// Adds the numbers of the draws inside the clip masks.
    package func collectMaskDrawNumbers(into numbers: inout Set<Int>) {
        for c in clips {
            if case .mask(let l, _, _) = c { l.collectDrawNumbers(into: &numbers) }
        }
    }
}

/// One clip of a context's clip stack.
package enum RecordedClip: Sendable, Equatable {
    /// `clip(to:style:options:)`: the path's coverage (1 − it when `inverse`), under the transform in force.
    case path(Path, transform: CGAffineTransform, style: FillStyle, inverse: Bool)
    /// `clipToLayer`: the alpha of what the content draws × `opacity` (1 − that when `inverse`).
    case mask(RecordedLayer, opacity: Double, inverse: Bool)

    /// The canvas-space box outside which this clip is zero; nil when it can reach anywhere (inverse clips,
    /// non-finite geometry; masks, whose content the lowering bounds instead).
    package var canvasBounds: CGRect? {
        guard case .path(let path, let t, _, false) = self else { return nil }
        let b = path.boundingRect
        if b.isNull { return .zero }
        let r = b.applying(t)
        return r.minX.isFinite && r.minY.isFinite && r.maxX.isFinite && r.maxY.isFinite ? r : nil
    }
}

/// The reference-typed sink that the copies of one context share.
package final class LayerRecorder {
    package var items: [RecordedItem] = []
    /// Numbers draws across the recorders of one canvas (nested layers and masks share the root's counter).
    package let counter: DrawCounter
    package init(counter: DrawCounter = DrawCounter()) { self.counter = counter }
    package func append(_ item: RecordedItem) { items.append(item) }
}

/// The next draw number of a canvas.
package final class DrawCounter {
    package private(set) var next = 0
    /// What the canvas's recorders could not resolve (`GraphicsContext.report(_:)`).
    package let log = DiagnosticLog()
    package func take() -> Int { defer { next += 1 }; return next }
}
