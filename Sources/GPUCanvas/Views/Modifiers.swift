// View modifiers: layout ones (frame, padding, overlay, background, border) change sizes; drawing ones
// (offset, opacity, rotationEffect, scaleEffect, blur, clipShape) change how the placed child draws;
// environment ones (font, foregroundColor, foregroundStyle) change what the child builds with; tag and id
// label the child. Each returns an opaque view, as SwiftUI's do. The effect and layout modifiers of issue #30
// (shadow, mask, blend and colour filters, position, aspectRatio, …) are in Modifiers+Effects.swift, the text
// layout ones in TextLayout.swift, `environment(_:_:)` in Environment.swift.

/// A view with one modifier applied.
struct ModifiedView<Content: View>: View, PrimitiveView {
    typealias Body = Never
    enum Modifier {
        case frame(width: CGFloat?, height: CGFloat?, alignment: Alignment)
        case flexibleFrame(FlexibleFrameNode.Limits, alignment: Alignment)
        case padding(EdgeInsets)
        case overlay(AnyView, alignment: Alignment, isBackground: Bool)
        case offset(CGSize)
        case opacity(Double)
        case rotation(Angle, anchor: UnitPoint)
        case scale(CGSize, anchor: UnitPoint)
        case blur(CGFloat, opaque: Bool)
        case clip(any Shape, FillStyle)
        case environment((inout ViewEnvironment) -> Void)
        case tag(AnyHashable)
        case id(AnyHashable)
        case onAppear(() -> Void)
        /// A node made around the built child (the effect and layout modifiers of `Modifiers+Effects.swift`),
        /// given the builder, environment and path to build secondary views (a mask) with.
        case wrap((NodeBuilder, ViewEnvironment, ViewPath, ViewNode) -> ViewNode)
        /// A layout value set on the child's node (`zIndex`, `layoutPriority`).
        case value((ViewNode) -> Void)
    }
    let content: Content
    let modifier: Modifier

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        switch modifier {
        case .environment(let change):
            var e = environment
            change(&e)
            return builder.build(content, e, path)
        case .id(let id):
            return builder.build(content, environment, path.appending("id(\(id))"))
        case .tag(let tag):
            let node = builder.build(content, environment, path)
            node.tag = tag
            return node
        case .onAppear(let action):
            builder.appearActions.append((path, action))
            return builder.build(content, environment, path)
        case .value(let set):
            let node = builder.build(content, environment, path)
            set(node)
            return node
        default:
            break
        }
        let child = builder.build(content, environment, path.appending("m"))
        switch modifier {
        case .frame(let w, let h, let a): return FrameNode(width: w, height: h, alignment: a, child: child)
        case .flexibleFrame(let limits, let a): return FlexibleFrameNode(limits: limits, alignment: a, child: child)
        case .padding(let insets): return PaddingNode(insets: insets, child: child)
        case .overlay(let other, let a, let isBackground):
            let secondary = other.make(builder, environment, path.appending(isBackground ? "background" : "overlay"))
            return OverlayNode(alignment: a, isBackground: isBackground, child: child, secondary: secondary)
        case .offset(let s): return OffsetNode(offset: s, child: child)
        case .opacity(let o): return OpacityNode(opacity: o, child: child)
        case .rotation(let a, let anchor): return RotationNode(angle: a, anchor: anchor, child: child)
        case .scale(let s, let anchor): return ScaleNode(scale: s, anchor: anchor, child: child)
        case .blur(let r, let opaque): return BlurNode(radius: r, opaque: opaque, child: child)
        case .clip(let shape, let style): return ClipShapeNode(shape: shape, style: style, child: child)
        case .wrap(let make): return make(builder, environment, path, child)
        case .environment, .tag, .id, .onAppear, .value: return child
        }
    }
}

extension View {
    func modifier(_ m: ModifiedView<Self>.Modifier) -> ModifiedView<Self> { ModifiedView(content: self, modifier: m) }

    // MARK: Layout

    /// A frame of fixed width and/or height (nil: the child's), the child placed in it by `alignment`.
    /// A negative or NaN dimension is taken as 0 (SwiftUI logs "Invalid frame dimension" and does likewise).
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View {
        modifier(.frame(width: width.map(validFrameDimension), height: height.map(validFrameDimension), alignment: alignment))
    }

    /// A frame whose size is the child's clamped between the minimums and maximums (a maximum of `.infinity`
    /// takes the whole proposal); the ideal sizes answer an unspecified proposal.
    public func frame(minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil,
                      minHeight: CGFloat? = nil, idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil,
                      alignment: Alignment = .center) -> some View {
        modifier(.flexibleFrame(FlexibleFrameNode.Limits(minWidth: minWidth, idealWidth: idealWidth, maxWidth: maxWidth,
                                                         minHeight: minHeight, idealHeight: idealHeight,
                                                         maxHeight: maxHeight), alignment: alignment))
    }

    /// Insets on every edge (16 pt when `length` is nil).
    public func padding(_ length: CGFloat? = nil) -> some View { padding(.all, length) }

    /// Insets on the given edges (16 pt when `length` is nil).
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        let l = length ?? LayoutDefaults.padding
        return modifier(.padding(EdgeInsets(top: edges.contains(.top) ? l : 0, leading: edges.contains(.leading) ? l : 0,
                                            bottom: edges.contains(.bottom) ? l : 0,
                                            trailing: edges.contains(.trailing) ? l : 0)))
    }

    /// Insets given one by one.
    public func padding(_ insets: EdgeInsets) -> some View { modifier(.padding(insets)) }

    /// `content` drawn over this view, proposed this view's size and placed by `alignment`.
    public func overlay<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        modifier(.overlay(AnyView(content()), alignment: alignment, isBackground: false))
    }

    /// `overlay` drawn over this view (the pre-iOS 15 spelling).
    public func overlay<V: View>(_ overlay: V, alignment: Alignment = .center) -> some View {
        modifier(.overlay(AnyView(overlay), alignment: alignment, isBackground: false))
    }

    /// `content` drawn behind this view, proposed this view's size.
    public func background<V: View>(alignment: Alignment = .center, @ViewBuilder content: () -> V) -> some View {
        modifier(.overlay(AnyView(content()), alignment: alignment, isBackground: true))
    }

    /// `background` drawn behind this view (the pre-iOS 15 spelling).
    public func background<V: View>(_ background: V, alignment: Alignment = .center) -> some View {
        modifier(.overlay(AnyView(background), alignment: alignment, isBackground: true))
    }

    /// This view's frame filled with `style` behind it.
    public func background<S: ShapeStyle>(_ style: S) -> some View {
        modifier(.overlay(AnyView(Rectangle().fill(style)), alignment: .center, isBackground: true))
    }

    /// A border `width` wide drawn inside this view's frame (SwiftUI: an overlay of the frame's rectangle
    /// stroked inside its edge).
    public func border<S: ShapeStyle>(_ content: S, width: CGFloat = 1) -> some View {
        modifier(.overlay(AnyView(Rectangle().strokeBorder(content, lineWidth: width)), alignment: .center,
                          isBackground: false))
    }

    // MARK: Drawing

    /// Draws the view moved by `offset`; its layout does not change. Animatable.
    public func offset(_ offset: CGSize) -> some View { modifier(.offset(offset)) }

    /// Draws the view moved by (x, y); its layout does not change. Animatable.
    public func offset(x: CGFloat = 0, y: CGFloat = 0) -> some View { modifier(.offset(CGSize(width: x, height: y))) }

    /// Draws the view as one layer with `opacity` (0…1). Animatable.
    public func opacity(_ opacity: Double) -> some View { modifier(.opacity(opacity)) }

    /// Draws the view rotated by `angle` (clockwise on screen) about `anchor` of its frame. Animatable.
    public func rotationEffect(_ angle: Angle, anchor: UnitPoint = .center) -> some View {
        modifier(.rotation(angle, anchor: anchor))
    }

    /// Draws the view scaled about `anchor`. Animatable.
    public func scaleEffect(_ scale: CGSize, anchor: UnitPoint = .center) -> some View {
        modifier(.scale(scale, anchor: anchor))
    }

    /// Draws the view scaled by `s` in both directions about `anchor`. Animatable.
    public func scaleEffect(_ s: CGFloat, anchor: UnitPoint = .center) -> some View {
        modifier(.scale(CGSize(width: s, height: s), anchor: anchor))
    }

    /// Draws the view scaled by x and y about `anchor`. Animatable.
    public func scaleEffect(x: CGFloat = 1, y: CGFloat = 1, anchor: UnitPoint = .center) -> some View {
        modifier(.scale(CGSize(width: x, height: y), anchor: anchor))
    }

    /// Draws the view as one layer blurred by a Gaussian of `radius` (the canvas filter's blur).
    public func blur(radius: CGFloat, opaque: Bool = false) -> some View { modifier(.blur(radius, opaque: opaque)) }

    /// Draws the view clipped to `shape` fitted to its frame.
    public func clipShape<S: Shape>(_ shape: S, style: FillStyle = FillStyle()) -> some View {
        modifier(.clip(shape, style))
    }

    /// Draws the view clipped to its frame.
    public func clipped(antialiased: Bool = false) -> some View {
        modifier(.clip(Rectangle(), FillStyle(antialiased: antialiased)))
    }

    // MARK: Environment

    /// The default font of the text inside (a `Text`'s own font wins).
    public func font(_ font: Font?) -> some View { modifier(.environment { $0.font = font }) }

    /// The foreground colour of the shapes, text and canvases inside (nil leaves the environment's).
    public func foregroundColor(_ color: Color?) -> some View {
        modifier(.environment { e in
            guard let color else { return }
            e.foreground = .color(color)
            e.foregroundColor = color
        })
    }

    /// The foreground style of the shapes and text inside; a colour also becomes canvases' `.foreground`.
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View {
        modifier(.environment { e in
            e.foreground = style.shading
            e.foregroundColor = style as? Color
        })
    }

    // MARK: Identity and events

    /// Labels the view: a canvas's `resolveSymbol(id:)` finds its symbols by tag.
    public func tag<V: Hashable>(_ tag: V) -> some View { modifier(.tag(AnyHashable(tag))) }

    /// Gives the view an explicit identity: a different id is a different view (its state starts over).
    public func id<ID: Hashable>(_ id: ID) -> some View { modifier(.id(AnyHashable(id))) }

    /// Runs `action` when the view first appears: at time 0 for the views of the first frame, else at the time
    /// of the frame that first builds it.
    public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        modifier(.onAppear(action ?? {}))
    }
}

/// A fixed frame dimension as laid out: negative and NaN are 0.
func validFrameDimension(_ v: CGFloat) -> CGFloat { v >= 0 ? v : 0 }

// MARK: - Modifier nodes

/// A node with one child drawn in its own rect (the base of the drawing modifiers: layout passes through).
class SingleChildNode: ViewNode {
    var child: ViewNode { children[0] }
    init(child: ViewNode) { super.init(children: [child]) }
    override func measure(_ p: ProposedViewSize) -> CGSize { child.sizeThatFits(p) }
    override func draw(_ context: GraphicsContext, in rect: CGRect) { child.place(context, in: rect) }
    override var taggedNodes: [ViewNode] { tag != nil ? [self] : child.taggedNodes }
    /// A modifier keeps its content's stacking order and layout priority unless set on itself.
    override var zIndex: Double { ownZIndex ?? child.zIndex }
    override var layoutPriority: Double { ownLayoutPriority ?? child.layoutPriority }

    /// Draws the child with `apply` done about `anchor`'s point in `rect`: moved there, applied, moved back
    /// (`rotationEffect`, `scaleEffect`).
    func drawChild(_ context: GraphicsContext, in rect: CGRect, about anchor: UnitPoint,
                   _ apply: (inout GraphicsContext) -> Void) {
        var c = context
        let a = anchor.point(in: rect)
        c.translateBy(x: a.x, y: a.y)
        apply(&c)
        c.translateBy(x: -a.x, y: -a.y)
        child.place(c, in: rect)
    }
}

final class FrameNode: SingleChildNode {
    var width: CGFloat?
    var height: CGFloat?
    let alignment: Alignment
    init(width: CGFloat?, height: CGFloat?, alignment: Alignment, child: ViewNode) {
        self.width = width
        self.height = height
        self.alignment = alignment
        super.init(child: child)
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        if let width, let height { return CGSize(width: width, height: height) }
        let s = child.sizeThatFits(ProposedViewSize(width: width ?? p.width, height: height ?? p.height))
        return CGSize(width: width ?? s.width, height: height ?? s.height)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let s = child.sizeThatFits(ProposedViewSize(width: width ?? rect.width, height: height ?? rect.height))
        child.place(context, in: alignment.place(s, in: rect))
    }

    override func interpolateValues(from other: ViewNode, progress: Double) {
        let o = other as! FrameNode
        if let w = width, let ow = o.width { width = lerp(ow, w, progress) }
        if let h = height, let oh = o.height { height = lerp(oh, h, progress) }
    }
}

final class FlexibleFrameNode: SingleChildNode {
    struct Limits {
        var minWidth, idealWidth, maxWidth, minHeight, idealHeight, maxHeight: CGFloat?
    }
    let limits: Limits
    let alignment: Alignment
    init(limits: Limits, alignment: Alignment, child: ViewNode) {
        self.limits = limits
        self.alignment = alignment
        super.init(child: child)
    }

    /// One dimension: the proposal to the child (clamped), and the frame's size from the child's.
    private static func propose(_ p: CGFloat?, min lo: CGFloat?, ideal: CGFloat?, max hi: CGFloat?) -> CGFloat? {
        guard var v = p else { return ideal }
        if let lo { v = Swift.max(v, lo) }
        if let hi { v = Swift.min(v, hi) }
        return v
    }

    private static func size(child c: CGFloat, proposed p: CGFloat?, min lo: CGFloat?, ideal: CGFloat?, max hi: CGFloat?) -> CGFloat {
        let target = p ?? ideal ?? c
        var r = c
        if let lo { r = Swift.max(lo, Swift.min(r, target)) }
        if let hi { r = Swift.min(hi, Swift.max(r, target)) }
        if lo == nil, hi == nil, p == nil, let ideal { r = ideal }
        return r
    }

    private func childProposal(_ p: ProposedViewSize) -> ProposedViewSize {
        ProposedViewSize(width: Self.propose(p.width, min: limits.minWidth, ideal: limits.idealWidth, max: limits.maxWidth),
                         height: Self.propose(p.height, min: limits.minHeight, ideal: limits.idealHeight, max: limits.maxHeight))
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        let c = child.sizeThatFits(childProposal(p))
        return CGSize(width: Self.size(child: c.width, proposed: p.width, min: limits.minWidth, ideal: limits.idealWidth,
                                       max: limits.maxWidth),
                      height: Self.size(child: c.height, proposed: p.height, min: limits.minHeight,
                                        ideal: limits.idealHeight, max: limits.maxHeight))
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        child.place(context, in: alignment.place(child.sizeThatFits(childProposal(ProposedViewSize(rect.size))), in: rect))
    }
}

final class PaddingNode: SingleChildNode {
    let insets: EdgeInsets
    init(insets: EdgeInsets, child: ViewNode) {
        self.insets = insets
        super.init(child: child)
    }

    private func inner(_ p: ProposedViewSize) -> ProposedViewSize {
        ProposedViewSize(width: p.width.map { max(0, $0 - insets.leading - insets.trailing) },
                         height: p.height.map { max(0, $0 - insets.top - insets.bottom) })
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        let s = child.sizeThatFits(inner(p))
        return CGSize(width: s.width + insets.leading + insets.trailing, height: s.height + insets.top + insets.bottom)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let s = child.sizeThatFits(inner(ProposedViewSize(rect.size)))
        child.place(context, in: CGRect(x: rect.minX + insets.leading, y: rect.minY + insets.top, width: s.width, height: s.height))
    }
}

/// `overlay` / `background` / `border`: the primary child sets the size; the secondary is proposed that size.
final class OverlayNode: SingleChildNode {
    let alignment: Alignment
    let isBackground: Bool
    init(alignment: Alignment, isBackground: Bool, child: ViewNode, secondary: ViewNode) {
        self.alignment = alignment
        self.isBackground = isBackground
        super.init(child: child)
        children.append(secondary)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let secondary = children[1]
        let placed = alignment.place(secondary.sizeThatFits(ProposedViewSize(rect.size)), in: rect)
        if isBackground { secondary.place(context, in: placed) }
        child.place(context, in: rect)
        if !isBackground { secondary.place(context, in: placed) }
    }
}

final class OffsetNode: SingleChildNode {
    var offset: CGSize
    init(offset: CGSize, child: ViewNode) {
        self.offset = offset
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        child.place(context, in: rect.offsetBy(dx: offset.width, dy: offset.height))
    }
    override func interpolateValues(from other: ViewNode, progress: Double) {
        let o = (other as! OffsetNode).offset
        offset = CGSize(width: lerp(o.width, offset.width, progress), height: lerp(o.height, offset.height, progress))
    }
}

final class OpacityNode: SingleChildNode {
    var opacity: Double
    init(opacity: Double, child: ViewNode) {
        self.opacity = opacity
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        if opacity >= 1 { return child.place(context, in: rect) }
        var c = context
        c.opacity *= max(0, opacity)
        c.drawLayer { child.place($0, in: rect) }
    }
    override func interpolateValues(from other: ViewNode, progress: Double) {
        opacity = Double(lerp(CGFloat((other as! OpacityNode).opacity), CGFloat(opacity), progress))
    }
}

final class RotationNode: SingleChildNode {
    var angle: Angle
    let anchor: UnitPoint
    init(angle: Angle, anchor: UnitPoint, child: ViewNode) {
        self.angle = angle
        self.anchor = anchor
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        drawChild(context, in: rect, about: anchor) { $0.rotate(by: angle) }
    }
    override func interpolateValues(from other: ViewNode, progress: Double) {
        angle = .radians(Double(lerp(CGFloat((other as! RotationNode).angle.radians), CGFloat(angle.radians), progress)))
    }
}

final class ScaleNode: SingleChildNode {
    var scale: CGSize
    let anchor: UnitPoint
    init(scale: CGSize, anchor: UnitPoint, child: ViewNode) {
        self.scale = scale
        self.anchor = anchor
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        drawChild(context, in: rect, about: anchor) { $0.scaleBy(x: scale.width, y: scale.height) }
    }
    override func interpolateValues(from other: ViewNode, progress: Double) {
        let o = (other as! ScaleNode).scale
        scale = CGSize(width: lerp(o.width, scale.width, progress), height: lerp(o.height, scale.height, progress))
    }
}

final class BlurNode: SingleChildNode {
    let radius: CGFloat
    let opaque: Bool
    init(radius: CGFloat, opaque: Bool, child: ViewNode) {
        self.radius = radius
        self.opaque = opaque
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        var c = context
        c.addFilter(.blur(radius: radius, options: opaque ? .opaque : []))
        c.drawLayer { child.place($0, in: rect) }
    }
}

final class ClipShapeNode: SingleChildNode {
    let shape: any Shape
    let style: FillStyle
    init(shape: any Shape, style: FillStyle, child: ViewNode) {
        self.shape = shape
        self.style = style
        super.init(child: child)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        var c = context
        c.clip(to: ShapeNode.placedPath(shape, in: rect), style: style)
        child.place(c, in: rect)
    }
}
