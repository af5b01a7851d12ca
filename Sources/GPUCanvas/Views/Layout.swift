// Layout vocabulary (SwiftUI's names) and the stacks. The rules each view follows are listed in the design
// note in `View.swift`.

/// A size a parent proposes to a child; nil in a dimension means "unspecified: answer your ideal size".
public struct ProposedViewSize: Hashable, Sendable, CustomStringConvertible {
    public var width: CGFloat?
    public var height: CGFloat?

    public init(width: CGFloat?, height: CGFloat?) { self.width = width; self.height = height }
    public init(_ size: CGSize) { self.init(width: size.width, height: size.height) }

    /// Both dimensions 0: the view's smallest size.
    public static let zero = ProposedViewSize(width: 0, height: 0)
    /// Both dimensions unspecified: the view's ideal size.
    public static let unspecified = ProposedViewSize(width: nil, height: nil)
    /// Both dimensions infinite: the view's largest size.
    public static let infinity = ProposedViewSize(width: .infinity, height: .infinity)

    /// The proposal with unspecified dimensions replaced by `size`'s (SwiftUI's default: 10 × 10).
    public func replacingUnspecifiedDimensions(by size: CGSize = CGSize(width: 10, height: 10)) -> CGSize {
        CGSize(width: width ?? size.width, height: height ?? size.height)
    }

    public var description: String {
        func d(_ v: CGFloat?) -> String { v.map { "\($0)" } ?? "nil" }
        return "ProposedViewSize(width: \(d(width)), height: \(d(height)))"
    }
}

/// A horizontal or vertical direction.
public enum Axis: Int8, Hashable, Sendable, CaseIterable {
    case horizontal, vertical
}

/// Where views line up horizontally: the fraction of the free width left of them (leading 0, trailing 1).
public struct HorizontalAlignment: Equatable, Sendable {
    let fraction: CGFloat
    public static let leading = HorizontalAlignment(fraction: 0)
    public static let center = HorizontalAlignment(fraction: 0.5)
    public static let trailing = HorizontalAlignment(fraction: 1)
}

/// Where views line up vertically: the fraction of the free height above them (top 0, bottom 1). The baseline
/// alignments are approximated by the top (first baseline) and bottom (last baseline) edges.
public struct VerticalAlignment: Equatable, Sendable {
    let fraction: CGFloat
    public static let top = VerticalAlignment(fraction: 0)
    public static let center = VerticalAlignment(fraction: 0.5)
    public static let bottom = VerticalAlignment(fraction: 1)
    public static let firstTextBaseline = VerticalAlignment(fraction: 0)
    public static let lastTextBaseline = VerticalAlignment(fraction: 1)
}

/// A horizontal and a vertical alignment: where a child sits in a larger frame.
public struct Alignment: Equatable, Sendable {
    public var horizontal: HorizontalAlignment
    public var vertical: VerticalAlignment
    public init(horizontal: HorizontalAlignment, vertical: VerticalAlignment) {
        self.horizontal = horizontal
        self.vertical = vertical
    }

    public static let center = Alignment(horizontal: .center, vertical: .center)
    public static let leading = Alignment(horizontal: .leading, vertical: .center)
    public static let trailing = Alignment(horizontal: .trailing, vertical: .center)
    public static let top = Alignment(horizontal: .center, vertical: .top)
    public static let bottom = Alignment(horizontal: .center, vertical: .bottom)
    public static let topLeading = Alignment(horizontal: .leading, vertical: .top)
    public static let topTrailing = Alignment(horizontal: .trailing, vertical: .top)
    public static let bottomLeading = Alignment(horizontal: .leading, vertical: .bottom)
    public static let bottomTrailing = Alignment(horizontal: .trailing, vertical: .bottom)

    /// The rect of a child of `size` aligned in `rect`: `Alignment.center.place(10×10 in 0,0,30,20)` → (10, 5).
    func place(_ size: CGSize, in rect: CGRect) -> CGRect {
        CGRect(x: rect.minX + (rect.width - size.width) * horizontal.fraction,
               y: rect.minY + (rect.height - size.height) * vertical.fraction,
               width: size.width, height: size.height)
    }
}

/// Edges, for `padding(_:_:)`.
public enum Edge: Int8, Hashable, Sendable, CaseIterable {
    case top, leading, bottom, trailing

    /// A set of edges: `.horizontal` is leading and trailing.
    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public init(_ edge: Edge) { self.init(rawValue: 1 << edge.rawValue) }
        public static let top = Set(.top)
        public static let leading = Set(.leading)
        public static let bottom = Set(.bottom)
        public static let trailing = Set(.trailing)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Default spacing between stack children and the default `padding()` (SwiftUI's iOS values).
enum LayoutDefaults {
    /// Between adjacent stack children when the stack's `spacing` is nil.
    static let stackSpacing: CGFloat = 8
    /// `padding()` with no length, on each edge.
    static let padding: CGFloat = 16
    /// A `Spacer`'s minimum length when it gives none.
    static let spacerMinLength: CGFloat = 8
    /// What shapes, colours and canvases answer for an unspecified dimension.
    static let unspecifiedSize = CGSize(width: 10, height: 10)
    /// A `Divider`'s thickness: one pixel at 1× (iOS draws a hairline).
    static let dividerThickness: CGFloat = 1
    /// Between a `Label`'s icon and title.
    static let labelSpacing: CGFloat = 8
}

// MARK: - Stacks

/// Views side by side, left to right.
///
/// `HStack(spacing: 10) { Color.red.frame(width: 20, height: 20); Color.blue.frame(width: 30, height: 10) }`
/// is 60 × 20; the blue view sits at (30, 5).
public struct HStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        StackNode(axis: .horizontal, crossFraction: alignment.fraction, spacing: spacing ?? LayoutDefaults.stackSpacing,
                  children: builder.build(content, environment, path).flattened)
    }
}

/// Views one above the other, top to bottom.
public struct VStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content

    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        StackNode(axis: .vertical, crossFraction: alignment.fraction, spacing: spacing ?? LayoutDefaults.stackSpacing,
                  children: builder.build(content, environment, path).flattened)
    }
}

/// Views on top of each other, the first at the back, each aligned in the stack's frame (the largest child).
public struct ZStack<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let alignment: Alignment
    let content: Content

    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ZStackNode(alignment: alignment, children: builder.build(content, environment, path).flattened)
    }
}

/// Flexible space along the enclosing stack's axis, at least `minLength` long (8 pt when nil); 0 across it.
public struct Spacer: View, PrimitiveView {
    public typealias Body = Never
    public var minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        SpacerNode(minLength: minLength ?? LayoutDefaults.spacerMinLength)
    }
}

/// A stack's layout: SwiftUI's distribution of the proposed length among the children, least flexible first.
final class StackNode: ViewNode {
    let axis: Axis
    let crossFraction: CGFloat
    let spacing: CGFloat

    init(axis: Axis, crossFraction: CGFloat, spacing: CGFloat, children: [ViewNode]) {
        self.axis = axis
        self.crossFraction = crossFraction
        self.spacing = spacing
        super.init(children: children)
        for case let s as SpacerNode in children { s.axis = axis }
        for case let d as DividerNode in children { d.axis = axis }
    }

    private func main(_ s: CGSize) -> CGFloat { axis == .horizontal ? s.width : s.height }
    private func cross(_ s: CGSize) -> CGFloat { axis == .horizontal ? s.height : s.width }
    private func proposal(main: CGFloat?, cross: CGFloat?) -> ProposedViewSize {
        axis == .horizontal ? ProposedViewSize(width: main, height: cross) : ProposedViewSize(width: cross, height: main)
    }

    /// Each child's size for the proposal `p`.
    func childSizes(_ p: ProposedViewSize) -> [CGSize] {
        let n = children.count
        guard n > 0 else { return [] }
        let pMain = axis == .horizontal ? p.width : p.height
        let pCross = axis == .horizontal ? p.height : p.width
        guard let total = pMain else {
            return children.map { $0.sizeThatFits(proposal(main: nil, cross: pCross)) }
        }
        var remaining = max(0, total - spacing * CGFloat(n - 1))
        // Higher layout priority first; within a priority, least flexible first, each getting an equal share
        // of what the earlier ones left, less the minimum sizes of the lower-priority children.
        let flexibility = children.map { child -> CGFloat in
            main(child.sizeThatFits(proposal(main: .infinity, cross: pCross)))
                - main(child.sizeThatFits(proposal(main: 0, cross: pCross)))
        }
        let priorities = children.map(\.layoutPriority)
        let minimum = Set(priorities).count > 1
            ? children.map { main($0.sizeThatFits(proposal(main: 0, cross: pCross))) } : []
        var sizes = [CGSize](repeating: .zero, count: n)
        for priority in Set(priorities).sorted(by: >) {
            let group = (0..<n).filter { priorities[$0] == priority }
                .sorted { flexibility[$0] < flexibility[$1] || (flexibility[$0] == flexibility[$1] && $0 < $1) }
            let reserved = minimum.isEmpty ? 0
                : (0..<n).filter { priorities[$0] < priority }.reduce(CGFloat(0)) { $0 + minimum[$1] }
            var available = max(0, remaining - reserved)
            var left = group.count
            for i in group {
                let share = available / CGFloat(left)
                sizes[i] = children[i].sizeThatFits(proposal(main: share, cross: pCross))
                available = max(0, available - main(sizes[i]))
                remaining = max(0, remaining - main(sizes[i]))
                left -= 1
            }
        }
        return sizes
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        let sizes = childSizes(p)
        guard !sizes.isEmpty else { return .zero }
        let m = sizes.reduce(0) { $0 + main($1) } + spacing * CGFloat(sizes.count - 1)
        let c = sizes.map { cross($0) }.max() ?? 0
        return axis == .horizontal ? CGSize(width: m, height: c) : CGSize(width: c, height: m)
    }

    /// Each child's frame when the stack is placed in `rect`.
    func childFrames(in rect: CGRect) -> [CGRect] {
        let sizes = childSizes(ProposedViewSize(rect.size))
        var cursor = axis == .horizontal ? rect.minX : rect.minY
        return sizes.map { s in
            defer { cursor += main(s) + spacing }
            if axis == .horizontal {
                return CGRect(x: cursor, y: rect.minY + (rect.height - s.height) * crossFraction, width: s.width, height: s.height)
            }
            return CGRect(x: rect.minX + (rect.width - s.width) * crossFraction, y: cursor, width: s.width, height: s.height)
        }
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let frames = childFrames(in: rect)
        for i in drawingOrder(children) { children[i].place(context, in: frames[i]) }
    }
}

final class ZStackNode: ViewNode {
    let alignment: Alignment
    init(alignment: Alignment, children: [ViewNode]) {
        self.alignment = alignment
        super.init(children: children)
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        children.reduce(CGSize.zero) { r, child in
            let s = child.sizeThatFits(p)
            return CGSize(width: max(r.width, s.width), height: max(r.height, s.height))
        }
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        for i in drawingOrder(children) {
            let child = children[i]
            child.place(context, in: alignment.place(child.sizeThatFits(ProposedViewSize(rect.size)), in: rect))
        }
    }
}

final class SpacerNode: ViewNode {
    let minLength: CGFloat
    /// The enclosing stack's axis (nil outside a stack: the spacer takes the proposal in both dimensions).
    var axis: Axis?
    init(minLength: CGFloat) {
        self.minLength = minLength
        super.init(children: [])
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        switch axis {
        case .horizontal: return CGSize(width: max(minLength, p.width ?? minLength), height: 0)
        case .vertical: return CGSize(width: 0, height: max(minLength, p.height ?? minLength))
        case nil: return CGSize(width: max(minLength, p.width ?? minLength), height: max(minLength, p.height ?? minLength))
        }
    }
}

/// The indices of `children` in drawing order: by `zIndex`, back to front, equal ones in order.
func drawingOrder(_ children: [ViewNode]) -> [Int] {
    let z = children.map(\.zIndex)
    guard z.contains(where: { $0 != 0 }) else { return Array(children.indices) }
    return children.indices.sorted { z[$0] < z[$1] || (z[$0] == z[$1] && $0 < $1) }
}
