// The effect and layout modifiers cards and charts use: shadow, cornerRadius, mask, blendMode, compositing
// groups, the colour filters, position, zIndex, fixedSize, layoutPriority, hidden, aspectRatio
// (scaledToFit/Fill), tint, and the animation and transaction modifiers. Each effect draws its content into
// one layer of the context with the canvas's own filter, blend mode or clip, so both backends draw it as they
// draw the same canvas calls.

extension View {
    // MARK: Effects

    /// Draws a shadow of the view: its alpha blurred by `radius`, tinted with `color`, offset by (x, y), under
    /// it (SwiftUI's default colour: black at 33 % opacity).
    public func shadow(color: Color = Color(.sRGBLinear, white: 0, opacity: 0.33), radius: CGFloat,
                       x: CGFloat = 0, y: CGFloat = 0) -> some View {
        layerEffect { $0.addFilter(.shadow(color: color, radius: radius, x: x, y: y)) }
    }

    /// Clips the view to a rounded rectangle of its frame (circular corners of `radius`).
    public func cornerRadius(_ radius: CGFloat, antialiased: Bool = true) -> some View {
        clipShape(RoundedRectangle(cornerRadius: radius, style: .circular), style: FillStyle(antialiased: antialiased))
    }

    /// Shows the view only where `mask` (proposed the view's size, placed by `alignment`) has alpha.
    public func mask<Mask: View>(alignment: Alignment = .center, @ViewBuilder _ mask: () -> Mask) -> some View {
        let m = AnyView(mask())
        return modifier(.wrap { builder, environment, path, child in
            MaskNode(alignment: alignment, child: child, mask: m.make(builder, environment, path.appending("mask")))
        })
    }

    /// Shows the view only where `mask` has alpha (the pre-iOS 15 spelling).
    public func mask<Mask: View>(_ mask: Mask) -> some View { self.mask(alignment: .center) { mask } }

    /// Composites the view (as one layer) onto what is behind it with `blendMode`.
    public func blendMode(_ blendMode: BlendMode) -> some View {
        layerEffect { $0.blendMode = blendMode.graphicsContextMode }
    }

    /// Draws the view as one layer before compositing it (so an opacity or blend outside applies once).
    public func compositingGroup() -> some View { layerEffect { _ in } }

    /// Draws the view as one layer (SwiftUI renders it offscreen with Metal; here a layer, as `compositingGroup`).
    public func drawingGroup(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear) -> some View {
        layerEffect { _ in }
    }

    /// Brightens the view's colours by `amount` (−1…1, added to each channel).
    public func brightness(_ amount: Double) -> some View { layerEffect { $0.addFilter(.brightness(amount)) } }

    /// Scales the view's colours' contrast about mid grey by `amount`.
    public func contrast(_ amount: Double) -> some View { layerEffect { $0.addFilter(.contrast(amount)) } }

    /// Scales the view's colours' saturation by `amount` (0: grey).
    public func saturation(_ amount: Double) -> some View { layerEffect { $0.addFilter(.saturation(amount)) } }

    /// Removes `amount` (0…1) of the view's colours' saturation.
    public func grayscale(_ amount: Double) -> some View { layerEffect { $0.addFilter(.grayscale(amount)) } }

    /// Rotates the view's hues by `angle`.
    public func hueRotation(_ angle: Angle) -> some View { layerEffect { $0.addFilter(.hueRotation(angle)) } }

    /// Inverts the view's colours.
    public func colorInvert() -> some View { layerEffect { $0.addFilter(.colorInvert()) } }

    /// Multiplies the view's colours by `color`.
    public func colorMultiply(_ color: Color) -> some View { layerEffect { $0.addFilter(.colorMultiply(color)) } }

    /// Makes the view's luminance its alpha (white opaque, black clear).
    public func luminanceToAlpha() -> some View { layerEffect { $0.addFilter(.luminanceToAlpha) } }

    /// The view drawn into one layer, composited through a context that `configure` sets up (its filter,
    /// blend mode).
    func layerEffect(_ configure: @escaping (inout GraphicsContext) -> Void) -> some View {
        modifier(.wrap { _, _, _, child in LayerEffectNode(configure: configure, child: child) })
    }

    // MARK: Layout

    /// Places the view's centre at (x, y) of the space it is offered (which it takes whole).
    public func position(x: CGFloat = 0, y: CGFloat = 0) -> some View { position(CGPoint(x: x, y: y)) }

    /// Places the view's centre at `position` of the space it is offered.
    public func position(_ position: CGPoint) -> some View {
        modifier(.wrap { _, _, _, child in PositionNode(position: position, child: child) })
    }

    /// The order the enclosing stack draws this view in: higher in front (0 by default; ties in order).
    public func zIndex(_ value: Double) -> some View { modifier(.value { $0.ownZIndex = value }) }

    /// The enclosing stack offers space to higher priorities first (0 by default).
    public func layoutPriority(_ value: Double) -> some View { modifier(.value { $0.ownLayoutPriority = value }) }

    /// The view at its ideal size in both dimensions, whatever it is offered.
    public func fixedSize() -> some View { fixedSize(horizontal: true, vertical: true) }

    /// The view at its ideal size in the chosen dimensions.
    public func fixedSize(horizontal: Bool, vertical: Bool) -> some View {
        modifier(.wrap { _, _, _, child in FixedSizeNode(horizontal: horizontal, vertical: vertical, child: child) })
    }

    /// Keeps the view's space but draws nothing.
    public func hidden() -> some View { modifier(.wrap { _, _, _, child in HiddenNode(child: child) }) }

    /// Proposes the child the largest (`.fit`) or smallest (`.fill`) size of `aspectRatio` (width / height;
    /// nil: the child's ideal size's ratio) in what the view is offered; the child keeps its answer.
    public func aspectRatio(_ aspectRatio: CGFloat? = nil, contentMode: ContentMode) -> some View {
        modifier(.wrap { _, _, _, child in AspectRatioNode(ratio: aspectRatio, mode: contentMode, child: child) })
    }

    /// `aspectRatio` with the ratio of `aspectRatio`'s width to height.
    public func aspectRatio(_ aspectRatio: CGSize, contentMode: ContentMode) -> some View {
        self.aspectRatio(aspectRatio.height == 0 ? nil : aspectRatio.width / aspectRatio.height, contentMode: contentMode)
    }

    /// Scales the view to fit its parent, keeping its aspect ratio: `aspectRatio(contentMode: .fit)`.
    public func scaledToFit() -> some View { aspectRatio(nil, contentMode: .fit) }

    /// Scales the view to fill its parent, keeping its aspect ratio: `aspectRatio(contentMode: .fill)`.
    public func scaledToFill() -> some View { aspectRatio(nil, contentMode: .fill) }

    // MARK: Environment and transactions

    /// The tint of controls inside; no view here draws with it (there are no controls), so it is kept only.
    public func tint(_ tint: Color?) -> some View { modifier(.environment { $0.tint = tint }) }

    /// The tint as a shape style (a colour is kept; other styles leave the tint unset).
    public func tint<S: ShapeStyle>(_ tint: S?) -> some View {
        modifier(.environment { $0.tint = tint as? Color })
    }

    /// Animates this view's changes with `animation` when `value` changes: state changed without
    /// `withAnimation` moves the animatable values inside from their old to their new values (an explicit
    /// `withAnimation` running at the same time takes precedence).
    public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View {
        modifier(.wrap { _, _, _, child in ImplicitAnimationNode(animation: animation, value: value, child: child) })
    }

    /// Changes the transaction of the view's updates; there are no implicit updates to change here.
    public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> some View { self }
}

/// How `aspectRatio` fits a view into what it is offered.
public enum ContentMode: Hashable, Sendable, CaseIterable {
    /// The largest size of the ratio inside the offer.
    case fit
    /// The smallest size of the ratio covering the offer.
    case fill
}

/// SwiftUI's blend modes for `blendMode(_:)`, each the canvas blend mode of the same name.
public enum BlendMode: Hashable, Sendable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight
    case difference, exclusion, hue, saturation, color, luminosity
    case sourceAtop, destinationOver, destinationOut, plusDarker, plusLighter

    var graphicsContextMode: GraphicsContext.BlendMode {
        switch self {
        case .normal: return .normal
        case .multiply: return .multiply
        case .screen: return .screen
        case .overlay: return .overlay
        case .darken: return .darken
        case .lighten: return .lighten
        case .colorDodge: return .colorDodge
        case .colorBurn: return .colorBurn
        case .softLight: return .softLight
        case .hardLight: return .hardLight
        case .difference: return .difference
        case .exclusion: return .exclusion
        case .hue: return .hue
        case .saturation: return .saturation
        case .color: return .color
        case .luminosity: return .luminosity
        case .sourceAtop: return .sourceAtop
        case .destinationOver: return .destinationOver
        case .destinationOut: return .destinationOut
        case .plusDarker: return .plusDarker
        case .plusLighter: return .plusLighter
        }
    }
}

// MARK: - Nodes

/// The child drawn into one layer composited through a context `configure` set up.
final class LayerEffectNode: SingleChildNode {
    let configure: (inout GraphicsContext) -> Void
    init(configure: @escaping (inout GraphicsContext) -> Void, child: ViewNode) {
        self.configure = configure
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        var c = context
        configure(&c)
        c.drawLayer { child.place($0, in: rect) }
    }
}

/// The child clipped to the alpha of `mask`, which is proposed the child's size and placed by `alignment`.
final class MaskNode: SingleChildNode {
    let alignment: Alignment
    init(alignment: Alignment, child: ViewNode, mask: ViewNode) {
        self.alignment = alignment
        super.init(child: child)
        children.append(mask)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let mask = children[1]
        let placed = alignment.place(mask.sizeThatFits(ProposedViewSize(rect.size)), in: rect)
        var c = context
        c.clipToLayer { mask.place($0, in: placed) }
        child.place(c, in: rect)
    }
}

/// Takes the space offered and draws the child (proposed that space) centred on `position`.
final class PositionNode: SingleChildNode {
    let position: CGPoint
    init(position: CGPoint, child: ViewNode) {
        self.position = position
        super.init(child: child)
    }
    override func measure(_ p: ProposedViewSize) -> CGSize {
        p.replacingUnspecifiedDimensions(by: LayoutDefaults.unspecifiedSize)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let s = child.sizeThatFits(ProposedViewSize(rect.size))
        child.place(context, in: CGRect(x: rect.minX + position.x - s.width / 2, y: rect.minY + position.y - s.height / 2,
                                       width: s.width, height: s.height))
    }
}

/// Proposes nil (the ideal size) in the fixed dimensions; the child, centred, may overflow the frame.
final class FixedSizeNode: SingleChildNode {
    let horizontal: Bool
    let vertical: Bool
    init(horizontal: Bool, vertical: Bool, child: ViewNode) {
        self.horizontal = horizontal
        self.vertical = vertical
        super.init(child: child)
    }
    private func inner(_ p: ProposedViewSize) -> ProposedViewSize {
        ProposedViewSize(width: horizontal ? nil : p.width, height: vertical ? nil : p.height)
    }
    override func measure(_ p: ProposedViewSize) -> CGSize { child.sizeThatFits(inner(p)) }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        child.place(context, in: Alignment.center.place(child.sizeThatFits(inner(ProposedViewSize(rect.size))), in: rect))
    }
}

/// `animation(_:value:)`: the value it watches and the animation its subtree changes with.
final class ImplicitAnimationNode: SingleChildNode {
    let animation: Animation?
    private let value: Any
    private let equals: (Any) -> Bool
    init<V: Equatable>(animation: Animation?, value: V, child: ViewNode) {
        self.animation = animation
        self.value = value
        equals = { ($0 as? V) == value }
        super.init(child: child)
    }
    func sameValue(as other: ImplicitAnimationNode) -> Bool { equals(other.value) }
}

/// Lays out as the child and draws nothing.
final class HiddenNode: SingleChildNode {
    override func draw(_ context: GraphicsContext, in rect: CGRect) {}
}

/// Proposes the child the fitting or filling size of a ratio; the child, centred, may overflow (`.fill`).
final class AspectRatioNode: SingleChildNode {
    let ratio: CGFloat?
    let mode: ContentMode
    init(ratio: CGFloat?, mode: ContentMode, child: ViewNode) {
        self.ratio = ratio
        self.mode = mode
        super.init(child: child)
    }

    /// The proposal to the child for `p`.
    func childProposal(_ p: ProposedViewSize) -> ProposedViewSize {
        let ideal = child.sizeThatFits(.unspecified)
        let r: CGFloat
        if let ratio, ratio.isFinite, ratio > 0 { r = ratio } else if ideal.width > 0, ideal.height > 0 {
            r = ideal.width / ideal.height
        } else { return p }
        switch (p.width, p.height) {
        case (nil, nil):
            // The ideal width with the ratio's height.
            return ProposedViewSize(width: ideal.width, height: ideal.width / r)
        case (let w?, nil): return ProposedViewSize(width: w, height: w / r)
        case (nil, let h?): return ProposedViewSize(width: h * r, height: h)
        case (let w?, let h?):
            guard w.isFinite || h.isFinite else { return p }
            if !w.isFinite { return ProposedViewSize(width: h * r, height: h) }
            if !h.isFinite { return ProposedViewSize(width: w, height: w / r) }
            let byWidth = CGSize(width: w, height: w / r), byHeight = CGSize(width: h * r, height: h)
            let widthFits = byWidth.height <= h
            switch mode {
            case .fit: return ProposedViewSize(widthFits ? byWidth : byHeight)
            case .fill: return ProposedViewSize(widthFits ? byHeight : byWidth)
            }
        }
    }

    override func measure(_ p: ProposedViewSize) -> CGSize { child.sizeThatFits(childProposal(p)) }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        child.place(context, in: Alignment.center.place(child.sizeThatFits(childProposal(ProposedViewSize(rect.size))),
                                                      in: rect))
    }
}

/// The context of a state change (SwiftUI's `Transaction`): the animation it runs with.
public struct Transaction: Sendable {
    public var animation: Animation?
    public var disablesAnimations = false
    public init(animation: Animation? = nil) { self.animation = animation }
}
