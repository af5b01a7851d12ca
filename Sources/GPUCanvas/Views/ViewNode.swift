// The built view tree: one node per primitive view or layout-relevant modifier, with its parameters resolved.
// Nodes answer layout questions (`sizeThatFits`), draw themselves into a context at a placed rect (`draw`),
// and interpolate their animatable values towards another tree's (`interpolate(from:progress:)`).

/// A node of the built tree. Subclasses override what they do; the base is a view that takes no space.
class ViewNode {
    var children: [ViewNode]
    /// The value of `.tag(_:)` on this view (symbols are found by it).
    var tag: AnyHashable?
    /// `zIndex(_:)` and `layoutPriority(_:)` set on this node.
    var ownZIndex: Double?
    var ownLayoutPriority: Double?
    /// The order a stack draws its children in (higher in front; equal ones in order).
    var zIndex: Double { ownZIndex ?? 0 }
    /// A stack offers the space to its children of higher priority first.
    var layoutPriority: Double { ownLayoutPriority ?? 0 }

    /// Answers already given, by proposal: a stack asks each child up to three times per proposal (its
    /// sizes at 0 and ∞ for flexibility, then its share), so without this nested stacks cost 3^depth.
    private var sizeCache: [ProposedViewSize: CGSize] = [:]

    init(children: [ViewNode]) { self.children = children }

    /// The size this view takes when proposed `p` (remembered: a node's answer depends only on the proposal).
    final func sizeThatFits(_ p: ProposedViewSize) -> CGSize {
        if let s = sizeCache[p] { return s }
        let s = measure(p)
        sizeCache[p] = s
        return s
    }

    /// Computes the size for `p`; subclasses override this.
    func measure(_ p: ProposedViewSize) -> CGSize { .zero }

    /// Draws the view placed at `rect` (in the context's user space); subclasses override this.
    func draw(_ context: GraphicsContext, in rect: CGRect) {}

    /// Where this node was last placed (user space of the context that drew it): the layout as drawn, which
    /// tests read back as a table of frames.
    private(set) var placedFrame: CGRect?

    /// Places the view at `rect` and draws it: what a parent calls for each child.
    final func place(_ context: GraphicsContext, in rect: CGRect) {
        placedFrame = rect
        draw(context, in: rect)
    }

    /// This node's children as a stack sees them: groups (tuple blocks, `ForEach`) spliced in, empty views out.
    var flattened: [ViewNode] { [self] }

    /// Moves this node's animatable values to `progress` of the way from `other`'s (0: other's, 1: own), and
    /// its children's likewise when the two trees match (same node types, same child counts).
    func interpolate(from other: ViewNode, progress: Double) {
        guard type(of: other) == type(of: self) else { return }
        sizeCache = [:]
        interpolateValues(from: other, progress: progress)
        guard other.children.count == children.count else { return }
        for (mine, theirs) in zip(children, other.children) { mine.interpolate(from: theirs, progress: progress) }
    }

    /// Subclasses with animatable values move them here (`other` has the same type).
    func interpolateValues(from other: ViewNode, progress: Double) {}

    /// Animates the subtrees under an `animation(_:value:)` whose value differs from `other`'s (the tree
    /// before unanimated changes made `elapsed` seconds ago), each by its animation's progress.
    func interpolateImplicitAnimations(from other: ViewNode, elapsed: Double) {
        guard type(of: other) == type(of: self), other.children.count == children.count else { return }
        if let node = self as? ImplicitAnimationNode, let before = other as? ImplicitAnimationNode,
           let animation = node.animation, !node.sameValue(as: before) {
            let state = animation.state(at: elapsed)
            if !state.isFinished { interpolate(from: other, progress: state.progress) }
            return
        }
        for (mine, theirs) in zip(children, other.children) {
            mine.interpolateImplicitAnimations(from: theirs, elapsed: elapsed)
        }
    }

    /// The tagged nodes at or under this one, nearest first (a symbols list's entries).
    var taggedNodes: [ViewNode] { tag != nil ? [self] : children.flatMap(\.taggedNodes) }
}

/// Linear interpolation from `a` to `b`.
@inline(__always) func lerp(_ a: CGFloat, _ b: CGFloat, _ t: Double) -> CGFloat { a + (b - a) * CGFloat(t) }

final class EmptyNode: ViewNode {
    init() { super.init(children: []) }
    override var flattened: [ViewNode] { [] }
}

/// A tuple block or a `ForEach`: its children are the enclosing container's. Alone (the root, a frame's
/// content) it lays out as a centred `ZStack`.
final class GroupNode: ViewNode {
    override var flattened: [ViewNode] { children.flatMap(\.flattened) }
    override var taggedNodes: [ViewNode] { tag != nil ? [self] : children.flatMap(\.taggedNodes) }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        children.reduce(CGSize.zero) { r, child in
            let s = child.sizeThatFits(p)
            return CGSize(width: max(r.width, s.width), height: max(r.height, s.height))
        }
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        for child in children { child.place(context, in: Alignment.center.place(child.sizeThatFits(ProposedViewSize(rect.size)), in: rect)) }
    }
}

/// Evaluates bodies into nodes for one frame: links `@State`, collects `onAppear` actions, knows the frame's date.
final class NodeBuilder {
    let graph: ViewGraph
    /// The date `TimelineView`s see this frame.
    let date: Date
    /// `onAppear` actions of the views built this time, in build order, with their view's identity.
    var appearActions: [(path: ViewPath, action: () -> Void)] = []

    init(graph: ViewGraph, date: Date) {
        self.graph = graph
        self.date = date
    }

    func build<V: View>(_ view: V, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        if let primitive = view as? any PrimitiveView {
            return primitive.makeNode(self, environment, path)
        }
        if let shape = view as? any ShapeNodeMaking { return shape.makeShapeNode(environment) }
        if let shape = view as? any Shape {
            return ShapeNode(shape: shape, paints: [.fill(nil, FillStyle())], environment: environment)
        }
        if V.Body.self == Never.self {
            preconditionFailure("\(V.self) has Body == Never but is not one of the package's primitive views")
        }
        let identity = path.appending("\(V.self)")
        graph.linkState(of: view, at: identity)
        let body = EnvironmentReading.$current.withValue(environment.environmentValues) { view.body }
        return build(body, environment, identity)
    }
}

// MARK: - Leaf nodes

/// A shape filled and/or stroked: it takes the proposal (10 pt for an unspecified dimension). Its path is
/// asked for in the shape's own space (`CGRect(origin: .zero, size: frame size)`) and moved to the frame.
final class ShapeNode: ViewNode {
    enum Paint {
        case fill(GraphicsContext.Shading?, FillStyle)
        case stroke(GraphicsContext.Shading?, StrokeStyle)
        /// `strokeBorder` of a shape that is not insettable: its path in the frame inset by half the line
        /// width, stroked, so it stays inside the frame.
        case strokeBorder(GraphicsContext.Shading?, StrokeStyle)
    }
    /// The shape, its `animatableData` moved by a running animation.
    var shape: any Shape
    /// The paints, a stroke's style (width, miter limit, dash phase) moved by a running animation.
    var paints: [Paint]
    let environment: ViewEnvironment

    init(shape: any Shape, paints: [Paint], environment: ViewEnvironment) {
        self.shape = shape
        self.paints = paints
        self.environment = environment
        super.init(children: [])
    }

    /// A shape changed by an animated change shows part way, as SwiftUI animates any `Animatable` shape: its
    /// `animatableData` is interpolated from the shape before the change (same type only; else it jumps), and
    /// so is each stroke's `StrokeStyle` (`_StrokedShape`'s data in SwiftUI) whose paint kept its place.
    override func interpolateValues(from other: ViewNode, progress: Double) {
        guard let before = other as? ShapeNode else { return }
        shape = Self.interpolated(shape, from: before.shape, progress: progress)
        guard before.paints.count == paints.count else { return }
        func moved(_ from: StrokeStyle, _ to: StrokeStyle) -> StrokeStyle {
            var s = to
            s.animatableData = from.animatableData.interpolated(towards: to.animatableData, amount: progress)
            return s
        }
        for (k, (old, new)) in zip(before.paints, paints).enumerated() {
            switch (old, new) {
            case (.stroke(_, let a), .stroke(let shading, let b)): paints[k] = .stroke(shading, moved(a, b))
            case (.strokeBorder(_, let a), .strokeBorder(let shading, let b)):
                paints[k] = .strokeBorder(shading, moved(a, b))
            default: break
            }
        }
    }

    private static func interpolated<S: Shape>(_ shape: S, from before: any Shape, progress: Double) -> any Shape {
        guard let before = before as? S else { return shape }
        var s = shape
        s.animatableData = before.animatableData.interpolated(towards: shape.animatableData, amount: progress)
        return s
    }

    /// The shape's own answer (`Shape.sizeThatFits`: the proposal unless the shape says otherwise).
    override func measure(_ p: ProposedViewSize) -> CGSize { shape.sizeThatFits(p) }

    /// The shape's path for a frame `rect`: asked in its own space, moved to the frame's origin.
    static func placedPath(_ shape: any Shape, in rect: CGRect, inset: CGFloat = 0) -> Path {
        let local = CGRect(origin: .zero, size: rect.size)
        return shape.path(in: inset == 0 ? local : local.insetBy(dx: inset, dy: inset))
            .offsetBy(dx: rect.minX, dy: rect.minY)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let foreground = environment.foreground ?? .foreground
        let c = context.applying(environment)
        var placed: Path?
        func path() -> Path {
            if let placed { return placed }
            let p = Self.placedPath(shape, in: rect)
            placed = p
            return p
        }
        for paint in paints {
            switch paint {
            case .fill(let s, let style): c.fill(path(), with: s ?? foreground, style: style)
            case .stroke(let s, let style): c.stroke(path(), with: s ?? foreground, style: style)
            case .strokeBorder(let s, let style):
                c.stroke(Self.placedPath(shape, in: rect, inset: style.lineWidth / 2), with: s ?? foreground, style: style)
            }
        }
    }
}

/// Text at its measured size (wrapped to the proposed width).
final class TextNode: ViewNode {
    let text: Text
    let environment: ViewEnvironment

    /// The `textRenderer(_:)` that draws this text, its animatable data moved by a running animation.
    var renderer: (any TextRenderer)?

    init(text: Text, environment: ViewEnvironment) {
        self.text = text
        self.environment = environment
        renderer = environment.textRenderer
        super.init(children: [])
    }

    /// A renderer changed by an animated change shows part way: its `animatableData` is interpolated from the
    /// renderer before the change (when it is of the same type).
    override func interpolateValues(from other: ViewNode, progress: Double) {
        guard let mine = renderer, let before = (other as? TextNode)?.renderer else { return }
        renderer = Self.interpolated(mine, from: before, progress: progress)
    }

    private static func interpolated<R: TextRenderer>(_ renderer: R, from before: any TextRenderer,
                                                      progress: Double) -> any TextRenderer {
        guard let before = before as? R else { return renderer }
        var r = renderer
        r.animatableData = before.animatableData.interpolated(towards: renderer.animatableData, amount: progress)
        return r
    }

    /// Resolved once: its layout cache then serves every proposal.
    private lazy var resolved = GraphicsContext.ResolvedText(text: text, defaultFont: environment.font ?? EnvironmentValues().font)

    /// With text layout settings (`lineLimit`, `multilineTextAlignment`, …): the pipeline, and its answers by width.
    private var usesPipeline: Bool { !environment.textLayout.isDefault }
    private lazy var pipeline = TextLayoutPipeline(options: environment.textLayout,
                             spans: text.applying(environment.textLayout.textCase).runs.map {
                                 $0.span(defaultFont: environment.font ?? EnvironmentValues().font)
                             })
    private var laidOutCache: [CGFloat: (spans: [TextSpan], layout: TextLayout)] = [:]

    /// The spans and layout at `width` by the pipeline (with default settings: the engine's layout).
    func laidOut(width: CGFloat) -> (spans: [TextSpan], layout: TextLayout)? {
        let w = width.isFinite ? width : .infinity
        if let hit = laidOutCache[w] { return hit }
        guard let r = pipeline.layout(width: w) else { return nil }
        laidOutCache[w] = r
        return r
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        if let renderer {
            return renderer.sizeThatFits(proposal: p, text: TextProxy { [unowned self] in self.textSize($0) })
        }
        return textSize(p)
    }

    /// The size the text takes for `p`, drawn without a renderer.
    func textSize(_ p: ProposedViewSize) -> CGSize {
        if usesPipeline {
            let m = laidOut(width: p.width ?? .infinity)?.layout.size ?? .zero
            return CGSize(width: p.width.map { min($0, m.width) } ?? m.width, height: m.height)
        }
        let m = resolved.measure(in: CGSize(width: p.width ?? .infinity, height: p.height ?? .infinity))
        return CGSize(width: p.width.map { min($0, m.width) } ?? m.width, height: m.height)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let c = context.applying(environment)
        // Text that cannot be laid out (an unreadable font file, a size that is not a number) is drawn the
        // default way, whose recording reports it, rather than given to the renderer as an empty layout.
        if let renderer, let layout = textLayout(width: rect.width + TextNode.wrapSlack),
           layout.source.spans.allSatisfy({ $0.font.size.isFinite }) {
            var ctx = c
            ctx.translateBy(x: rect.minX, y: rect.minY)
            renderer.draw(layout: layout, in: &ctx)
            return
        }
        var r: GraphicsContext.ResolvedText
        if usesPipeline {
            // Laid out at the width it was measured at (the placed width), drawn as that layout.
            guard let l = laidOut(width: rect.width) else { return }
            r = GraphicsContext.ResolvedText(text: text.applying(environment.textLayout.textCase), spans: l.spans, layout: l.layout)
        } else {
            r = c.resolve(text)
        }
        r.shading = environment.foreground ?? .foreground
        // The measured width can exceed the placed one by rounding: give the wrap a hair of room.
        c.draw(r, in: CGRect(x: rect.minX, y: rect.minY, width: rect.width + TextNode.wrapSlack, height: rect.height))
    }

    /// Points added to the wrap width when drawing, so text measured at width w does not wrap at w.
    static let wrapSlack: CGFloat = 0.001

    /// The `Text.Layout` a `TextRenderer` draws: the text laid out at `width` with the view's text settings.
    func textLayout(width: CGFloat) -> Text.Layout? {
        guard let l = laidOut(width: width) else { return nil }
        let shown = text.applying(environment.textLayout.textCase)
        // Truncation is the only step that changes the strings (an ellipsis replaces the rest).
        let truncated = l.spans.map(\.string) != pipeline.spans.map(\.string)
        return Text.Layout(TextLayoutSource(text: shown, spans: l.spans, layout: l.layout,
                                            shading: environment.foreground ?? .foreground, isTruncated: truncated))
    }
}

/// An image at its own size, a system image at its font's size; a resizable one takes the size offered (its
/// own size in an unspecified dimension) and is stretched or tiled over it.
final class ImageNode: ViewNode {
    let image: Image
    let environment: ViewEnvironment

    init(image: Image, environment: ViewEnvironment) {
        self.image = image
        self.environment = environment
        super.init(children: [])
    }

    /// A bitmap's size in points; a system image's image box at the environment's font (it has no pixels).
    var naturalSize: CGSize {
        if image.content.systemName != nil {
            return image.systemImageMetrics(font: environment.font ?? EnvironmentValues().font).size
        }
        return image.pointSize ?? .zero
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        image.resizing != nil ? p.replacingUnspecifiedDimensions(by: naturalSize) : naturalSize
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let c = context.applying(environment)
        var r = c.resolve(image)
        if r.shading != nil, let f = environment.foreground { r.shading = f }
        let style = FillStyle(antialiased: image.isAntialiased)
        guard let resizing = image.resizing, image.content.systemName == nil,
              resizing.capInsets != EdgeInsets() || resizing.mode == .tile,
              case .success = image.content.result else {
            return c.draw(r, in: rect, style: style)
        }
        drawNinePart(c, r, resizing, in: rect, style: style)
    }

    /// A resizable image with cap insets or tiling: each of the nine parts (corners, edges, centre) of the
    /// image drawn into its part of `rect`; the corners at their own size, the rest stretched or tiled.
    private func drawNinePart(_ context: GraphicsContext, _ resolved: GraphicsContext.ResolvedImage,
                              _ resizing: Image.Resizing, in rect: CGRect, style: FillStyle) {
        let size = naturalSize
        guard size.width > 0, size.height > 0 else { return }
        let given = resizing.capInsets
        let caps = EdgeInsets(top: validFrameDimension(given.top), leading: validFrameDimension(given.leading),
                              bottom: validFrameDimension(given.bottom), trailing: validFrameDimension(given.trailing))
        // Image columns and rows (points) and where they land in the frame; caps larger than the frame shrink.
        let sx = [0, min(caps.leading, size.width), max(min(caps.leading, size.width), size.width - caps.trailing), size.width]
        let sy = [0, min(caps.top, size.height), max(min(caps.top, size.height), size.height - caps.bottom), size.height]
        let left = min(sx[1], rect.width), right = min(sx[3] - sx[2], rect.width - left)
        let top = min(sy[1], rect.height), bottom = min(sy[3] - sy[2], rect.height - top)
        let dx = [rect.minX, rect.minX + left, rect.maxX - right, rect.maxX]
        let dy = [rect.minY, rect.minY + top, rect.maxY - bottom, rect.maxY]
        for row in 0..<3 {
            for col in 0..<3 {
                let src = CGRect(x: sx[col], y: sy[row], width: sx[col + 1] - sx[col], height: sy[row + 1] - sy[row])
                let dst = CGRect(x: dx[col], y: dy[row], width: dx[col + 1] - dx[col], height: dy[row + 1] - dy[row])
                guard src.width > 0, src.height > 0, dst.width > 0, dst.height > 0 else { continue }
                let fixedWidth = col != 1, fixedHeight = row != 1
                if resizing.mode == .tile && resolved.shading == nil && !(fixedWidth && fixedHeight) {
                    // The part repeated from the part's corner, at the image's own size.
                    let unit = CGRect(x: src.minX / size.width, y: src.minY / size.height,
                                      width: src.width / size.width, height: src.height / size.height)
                    context.fill(Path(dst), with: .tiledImage(image, origin: dst.origin, sourceRect: unit), style: style)
                    continue
                }
                // The whole image scaled so that this part lands on `dst`, clipped to `dst`.
                let kx = dst.width / src.width, ky = dst.height / src.height
                let whole = CGRect(x: dst.minX - src.minX * kx, y: dst.minY - src.minY * ky,
                                   width: size.width * kx, height: size.height * ky)
                var c = context
                c.clip(to: Path(dst))
                c.draw(resolved, in: whole, style: style)
            }
        }
    }
}

/// A canvas: it takes the proposal; its renderer draws translated to the frame and clipped to it.
final class CanvasNode: ViewNode {
    let renderer: (inout GraphicsContext, CGSize) -> Void
    let environment: ViewEnvironment
    /// `symbols` are the canvas's symbol views, built with the rest of the frame (so already at its time).
    init(renderer: @escaping (inout GraphicsContext, CGSize) -> Void, symbols: [ViewNode], environment: ViewEnvironment) {
        self.renderer = renderer
        self.environment = environment
        super.init(children: symbols)
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        p.replacingUnspecifiedDimensions(by: LayoutDefaults.unspecifiedSize)
    }

    override var taggedNodes: [ViewNode] { tag != nil ? [self] : [] }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        var c = context.applying(environment, symbols: SymbolTable(nodes: children.flatMap(\.taggedNodes),
                                                                     proposal: rect.size))
        let fillsTarget = !context.environment.recordsSymbol && c.transform.isIdentity && c.state.clips.isEmpty
            && rect == CGRect(origin: .zero, size: c.canvasSize)
        c.translateBy(x: rect.minX, y: rect.minY)
        // A canvas filling the whole target needs no clip (and then records exactly what the closure does); a
        // symbol's canvas is clipped to its frame, since its recording is replayed elsewhere.
        if !fillsTarget { c.clip(to: Path(CGRect(origin: .zero, size: rect.size))) }
        renderer(&c, rect.size)
    }
}

extension GraphicsContext {
    /// This context (same layer, transform and state) with the view environment's font and foreground colour,
    /// and a symbol table when given.
    func applying(_ view: ViewEnvironment, symbols: SymbolTable? = nil) -> GraphicsContext {
        guard view.font != nil || view.foregroundColor != nil || symbols != nil else { return self }
        var e = environment
        if let f = view.font { e.font = f }
        if let c = view.foregroundColor { e.foregroundColor = c }
        if let symbols { e.symbols = symbols }
        var c = GraphicsContext(layer: layer, canvasSize: canvasSize, colorMode: colorMode, environment: e)
        c.state = state
        c.transform = transform
        return c
    }
}
