// Canvas symbols as recorded commands.
//
// A canvas's symbols are built with the rest of the tree (so an animated symbol is already evaluated at the
// frame's time). The first `resolveSymbol(id:)` of a frame lays the tagged view out (proposed the canvas's size)
// and records it once, at its own size and origin, into a `RecordedLayer` of its own. Each draw of the
// resolved symbol replays those recorded items into the canvas: every draw's transform, clip transforms and
// filter transforms are followed by the draw's placement (translate to the rect, scale by rect / symbol size)
// and the context's transform, and the draws get fresh draw numbers in the canvas's sequence. When the
// context has state that must apply to the symbol as a whole (opacity, blend mode, clips, filters) the replay
// goes into one layer composited with that state; otherwise the items join the canvas's layer directly.

extension GraphicsContext {
    /// The symbol tagged `id` among the canvas's symbols, recorded; nil when none has that tag.
    public func resolveSymbol<ID: Hashable>(id: ID) -> ResolvedSymbol? {
        environment.symbols?.resolve(AnyHashable(id), colorMode: colorMode, environment: environment)
    }

    /// Draws `symbol` scaled to fill `rect`.
    public func draw(_ symbol: ResolvedSymbol, in rect: CGRect) {
        let sx = symbol.size.width > 0 ? rect.width / symbol.size.width : 1
        let sy = symbol.size.height > 0 ? rect.height / symbol.size.height : 1
        replay(symbol, placement: CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: rect.minX, ty: rect.minY))
    }

    /// Draws `symbol` at its size with its `anchor` point (a UnitPoint of its bounds) at `point`.
    public func draw(_ symbol: ResolvedSymbol, at point: CGPoint, anchor: UnitPoint = .center) {
        replay(symbol, placement: CGAffineTransform(translationX: point.x - anchor.x * symbol.size.width,
                                                    y: point.y - anchor.y * symbol.size.height))
    }

    private func replay(_ symbol: ResolvedSymbol, placement: CGAffineTransform) {
        var replayer = SymbolReplay(toCanvas: placement.concatenating(transform), counter: layer.counter)
        let items = replayer.layer(symbol.content).items
        let needsLayer = state.opacity != 1 || state.blendMode != .normal || !state.clips.isEmpty || !state.filters.isEmpty
        if needsLayer {
            layer.append(.layer(LayerCommand(content: RecordedLayer(items: items), state: state)))
        } else {
            for item in items { layer.append(item) }
        }
    }
}

/// Rewrites a recorded symbol for one draw: transforms followed by the draw's, draws renumbered in order (a
/// mask shared by several draws keeps one number per draw inside it).
struct SymbolReplay {
    let toCanvas: CGAffineTransform
    let counter: DrawCounter
    /// The fresh draw number of each recorded one.
    var drawNumbers: [Int: Int] = [:]

    mutating func drawNumber(replacing old: Int) -> Int {
        if let n = drawNumbers[old] { return n }
        let n = counter.take()
        drawNumbers[old] = n
        return n
    }

    mutating func layer(_ l: RecordedLayer) -> RecordedLayer {
        RecordedLayer(items: l.items.map { item in
            switch item {
            case .draw(var d):
                d.state = state(d.state)
                d.transform = d.transform.concatenating(toCanvas)
                d.drawNumber = drawNumber(replacing: d.drawNumber)
                return .draw(d)
            case .layer(var l):
                l.state = state(l.state)
                l.content = layer(l.content)
                return .layer(l)
            }
        })
    }

    mutating func state(_ s: DrawState) -> DrawState {
        var s = s
        s.clips = s.clips.map { clip in
            switch clip {
            case .path(let p, let t, let style, let inverse):
                return .path(p, transform: t.concatenating(toCanvas), style: style, inverse: inverse)
            case .mask(let l, let opacity, let inverse):
                return .mask(layer(l), opacity: opacity, inverse: inverse)
            }
        }
        s.filters = s.filters.map { f in
            var f = f
            f.transform = f.transform.concatenating(toCanvas)
            return f
        }
        return s
    }
}

/// A canvas's tagged symbol views for one frame, each recorded on first use.
final class SymbolTable: CanvasSymbols, @unchecked Sendable {
    private let nodes: [ViewNode]
    private let proposal: CGSize
    private var recorded: [AnyHashable: GraphicsContext.ResolvedSymbol] = [:]

    init(nodes: [ViewNode], proposal: CGSize) {
        self.nodes = nodes
        self.proposal = proposal
    }

    func resolve(_ id: AnyHashable, colorMode: ColorRenderingMode, environment: EnvironmentValues) -> GraphicsContext.ResolvedSymbol? {
        if let s = recorded[id] { return s }
        guard let node = nodes.first(where: { $0.tag == id }) else { return nil }
        let size = node.sizeThatFits(ProposedViewSize(proposal))
        let recorder = LayerRecorder()
        var symbolEnvironment = environment
        symbolEnvironment.symbols = nil
        symbolEnvironment.recordsSymbol = true
        let context = GraphicsContext(layer: recorder, canvasSize: size, colorMode: colorMode, environment: symbolEnvironment)
        node.draw(context, in: CGRect(origin: .zero, size: size))
        let symbol = GraphicsContext.ResolvedSymbol(size: size, content: RecordedLayer(items: recorder.items))
        recorded[id] = symbol
        return symbol
    }
}
