// The common containers: Group, GeometryReader, Divider, Label, Grid/GridRow, LazyVGrid/LazyHGrid (every
// cell built and drawn: there is no scrolling, so nothing is lazy), and gradients as views.

/// Views grouped without a layout of their own: the children are the enclosing container's.
public struct Group<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    public init(@ViewBuilder content: () -> Content) { self.content = content() }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        let node = builder.build(content, environment, path.appending("Group"))
        return node is GroupNode ? node : GroupNode(children: [node])
    }
}

/// The space a `GeometryReader` was given: its size, and its frame in the image (`.global`) or its own
/// coordinates (`.local`).
public struct GeometryProxy {
    public let size: CGSize
    let globalFrame: CGRect
    /// There are no safe areas in an image.
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }

    /// The reader's frame in `coordinateSpace` (`.global`: the image's points; else its own, at the origin).
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect {
        switch coordinateSpace {
        case .global: return globalFrame
        case .local, .named: return CGRect(origin: .zero, size: size)
        }
    }
}

/// A coordinate space a `GeometryProxy` measures in (named spaces measure as `.local`).
public enum CoordinateSpace: Hashable {
    case global, local
    case named(AnyHashable)
}

/// A view that takes the whole space it is offered and builds its content for that size, placed at its
/// top-leading corner: `GeometryReader { proxy in Circle().frame(width: proxy.size.width / 2) }`.
public struct GeometryReader<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    public var content: (GeometryProxy) -> Content
    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) { self.content = content }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        GeometryReaderNode { proxy in builder.build(content(proxy), environment, path.appending("GeometryReader")) }
    }
}

/// Builds its child when placed (the size is known only then); takes the proposal.
final class GeometryReaderNode: ViewNode {
    let make: (GeometryProxy) -> ViewNode
    init(make: @escaping (GeometryProxy) -> ViewNode) {
        self.make = make
        super.init(children: [])
    }
    override func measure(_ p: ProposedViewSize) -> CGSize { p.replacingUnspecifiedDimensions(by: LayoutDefaults.unspecifiedSize) }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        let child = make(GeometryProxy(size: rect.size, globalFrame: rect))
        let layout = ZStackNode(alignment: .topLeading, children: child.flattened)
        let s = layout.sizeThatFits(ProposedViewSize(rect.size))
        layout.place(context, in: CGRect(origin: rect.origin, size: s))
    }
}

/// A thin line across the enclosing stack: horizontal in a `VStack` (and outside stacks), vertical in an
/// `HStack`; `LayoutDefaults.dividerThickness` thick, in the separator colour.
public struct Divider: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode { DividerNode() }
}

final class DividerNode: ViewNode {
    /// The enclosing stack's axis (set by the stack).
    var axis: Axis?
    /// iOS's light-mode separator colour (UIColor.separator: 60, 60, 67 at 29 %).
    static let color = Color(.sRGB, red: 60 / 255, green: 60 / 255, blue: 67 / 255, opacity: 0.29)
    init() { super.init(children: []) }
    override func measure(_ p: ProposedViewSize) -> CGSize {
        let t = LayoutDefaults.dividerThickness
        if axis == .horizontal { return CGSize(width: t, height: p.height ?? LayoutDefaults.unspecifiedSize.height) }
        return CGSize(width: p.width ?? LayoutDefaults.unspecifiedSize.width, height: t)
    }
    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        context.fill(Path(rect), with: .color(Self.color))
    }
}

/// A title with an icon before it: `Label("Inbox", systemImage: "tray")`.
public struct Label<Title: View, Icon: View>: View {
    let title: Title
    let icon: Icon
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }
    public var body: some View {
        HStack(alignment: .center, spacing: LayoutDefaults.labelSpacing) { icon; title }
    }
}

extension Label where Title == Text, Icon == Image {
    /// A literal title (its Markdown applied) and an SF Symbols icon.
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }

    /// A string title shown as it is, and an SF Symbols icon.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }

    /// A title and a named image.
    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }
}

// MARK: - Grids

/// A row of a `Grid`: its views are the cells of successive columns.
public struct GridRow<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let alignment: VerticalAlignment?
    let content: Content
    public init(alignment: VerticalAlignment? = nil, @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.content = content()
    }
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        GridRowNode(alignment: alignment, children: builder.build(content, environment, path.appending("GridRow")).flattened)
    }
}

final class GridRowNode: ViewNode {
    let alignment: VerticalAlignment?
    init(alignment: VerticalAlignment?, children: [ViewNode]) {
        self.alignment = alignment
        super.init(children: children)
    }
}

/// Views in rows and columns: each column as wide as its widest cell, each row as tall as its tallest (at
/// their ideal sizes); a view that is not a `GridRow` spans the grid's width.
public struct Grid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let alignment: Alignment
    let horizontalSpacing: CGFloat?
    let verticalSpacing: CGFloat?
    let content: Content
    public init(alignment: Alignment = .center, horizontalSpacing: CGFloat? = nil, verticalSpacing: CGFloat? = nil,
                @ViewBuilder content: () -> Content) {
        self.alignment = alignment
        self.horizontalSpacing = horizontalSpacing
        self.verticalSpacing = verticalSpacing
        self.content = content()
    }
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        GridNode(alignment: alignment, hSpacing: horizontalSpacing ?? LayoutDefaults.stackSpacing,
                 vSpacing: verticalSpacing ?? LayoutDefaults.stackSpacing,
                 children: builder.build(content, environment, path.appending("Grid")).flattened)
    }
}

final class GridNode: ViewNode {
    let alignment: Alignment
    let hSpacing: CGFloat
    let vSpacing: CGFloat
    init(alignment: Alignment, hSpacing: CGFloat, vSpacing: CGFloat, children: [ViewNode]) {
        self.alignment = alignment
        self.hSpacing = hSpacing
        self.vSpacing = vSpacing
        super.init(children: children)
    }

    /// Column widths, row heights, and the cells of each row (a spanning view is a row of one, nil column).
    func tracks() -> (columns: [CGFloat], rows: [CGFloat]) {
        var columns: [CGFloat] = []
        var rows: [CGFloat] = []
        for row in children {
            if let r = row as? GridRowNode {
                var h: CGFloat = 0
                for (i, cell) in r.children.enumerated() {
                    let s = cell.sizeThatFits(.unspecified)
                    if i >= columns.count { columns.append(0) }
                    columns[i] = max(columns[i], s.width)
                    h = max(h, s.height)
                }
                rows.append(h)
            } else {
                rows.append(0)
            }
        }
        let width = columns.reduce(0, +) + hSpacing * CGFloat(max(0, columns.count - 1))
        for (i, row) in children.enumerated() where !(row is GridRowNode) {
            rows[i] = row.sizeThatFits(ProposedViewSize(width: width, height: nil)).height
        }
        return (columns, rows)
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        let (columns, rows) = tracks()
        return CGSize(width: columns.reduce(0, +) + hSpacing * CGFloat(max(0, columns.count - 1)),
                      height: rows.reduce(0, +) + vSpacing * CGFloat(max(0, rows.count - 1)))
    }

    /// Each cell's frame (rows in order, cells in order) when the grid is placed at `rect`.
    func cellFrames(in rect: CGRect) -> [[CGRect]] {
        let (columns, rows) = tracks()
        let width = columns.reduce(0, +) + hSpacing * CGFloat(max(0, columns.count - 1))
        var y = rect.minY
        var frames: [[CGRect]] = []
        for (i, row) in children.enumerated() {
            if let r = row as? GridRowNode {
                var x = rect.minX
                var cells: [CGRect] = []
                for (j, cell) in r.children.enumerated() {
                    let slot = CGRect(x: x, y: y, width: columns[j], height: rows[i])
                    let a = Alignment(horizontal: alignment.horizontal, vertical: r.alignment ?? alignment.vertical)
                    cells.append(a.place(cell.sizeThatFits(ProposedViewSize(slot.size)), in: slot))
                    x += columns[j] + hSpacing
                }
                frames.append(cells)
            } else {
                let slot = CGRect(x: rect.minX, y: y, width: width, height: rows[i])
                frames.append([alignment.place(row.sizeThatFits(ProposedViewSize(slot.size)), in: slot)])
            }
            y += rows[i] + vSpacing
        }
        return frames
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        for (row, frames) in zip(children, cellFrames(in: rect)) {
            let cells = (row as? GridRowNode)?.children ?? [row]
            for (cell, frame) in zip(cells, frames) { cell.place(context, in: frame) }
        }
    }
}

/// A column of a `LazyVGrid` (or a row of a `LazyHGrid`): a fixed size, a flexible share, or as many
/// adaptive tracks of at least `minimum` as fit.
public struct GridItem: Sendable {
    public enum Size: Sendable {
        case fixed(CGFloat)
        case flexible(minimum: CGFloat = 10, maximum: CGFloat = .infinity)
        case adaptive(minimum: CGFloat, maximum: CGFloat = .infinity)
    }
    public var size: Size
    public var spacing: CGFloat?
    public var alignment: Alignment?
    public init(_ size: Size = .flexible(), spacing: CGFloat? = nil, alignment: Alignment? = nil) {
        self.size = size
        self.spacing = spacing
        self.alignment = alignment
    }
}

/// Cells in rows of the given columns, filled left to right, top to bottom.
public struct LazyVGrid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let columns: [GridItem]
    let alignment: HorizontalAlignment
    let spacing: CGFloat?
    let content: Content
    public init(columns: [GridItem], alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.columns = columns
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        LazyGridNode(axis: .vertical, items: columns, spacing: spacing ?? LayoutDefaults.stackSpacing,
                     children: builder.build(content, environment, path.appending("LazyVGrid")).flattened)
    }
}

/// Cells in columns of the given rows, filled top to bottom, left to right.
public struct LazyHGrid<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let rows: [GridItem]
    let alignment: VerticalAlignment
    let spacing: CGFloat?
    let content: Content
    public init(rows: [GridItem], alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
                pinnedViews: PinnedScrollableViews = .init(), @ViewBuilder content: () -> Content) {
        self.rows = rows
        self.alignment = alignment
        self.spacing = spacing
        self.content = content()
    }
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        LazyGridNode(axis: .horizontal, items: rows, spacing: spacing ?? LayoutDefaults.stackSpacing,
                     children: builder.build(content, environment, path.appending("LazyHGrid")).flattened)
    }
}

/// Section headers and footers a lazy grid pins while scrolling (there is no scrolling: accepted, unused).
public struct PinnedScrollableViews: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let sectionHeaders = PinnedScrollableViews(rawValue: 1)
    public static let sectionFooters = PinnedScrollableViews(rawValue: 2)
}

/// A lazy grid's layout. `axis` is the direction it grows in (vertical: `LazyVGrid`, whose tracks are columns
/// across the offered width).
final class LazyGridNode: ViewNode {
    let axis: Axis
    let items: [GridItem]
    let spacing: CGFloat
    /// The most tracks one adaptive item makes.
    static let maxAdaptiveTracks = 1000

    init(axis: Axis, items: [GridItem], spacing: CGFloat, children: [ViewNode]) {
        self.axis = axis
        self.items = items
        self.spacing = spacing
        super.init(children: children)
    }

    /// The tracks (size, alignment) across `available` points (nil: minimums).
    func tracks(_ available: CGFloat?) -> [(size: CGFloat, alignment: Alignment)] {
        var expanded: [(item: GridItem, size: CGFloat?)] = []
        var fixedTotal: CGFloat = 0
        for (i, item) in items.enumerated() {
            let gap = i < items.count - 1 ? (item.spacing ?? LayoutDefaults.stackSpacing) : 0
            fixedTotal += gap
            if case .fixed(let s) = item.size {
                fixedTotal += validFrameDimension(s)
                expanded.append((item, s))
            } else {
                expanded.append((item, nil))
            }
        }
        let flexible = expanded.filter { $0.size == nil }.count
        let share = available.map { max(0, $0 - fixedTotal) / CGFloat(max(1, flexible)) }
        var out: [(CGFloat, Alignment)] = []
        for (item, size) in expanded {
            let a = item.alignment ?? .center
            switch item.size {
            case .fixed: out.append((validFrameDimension(size!), a))
            case .flexible(let lo, let hi): out.append((min(hi, max(lo, share ?? lo)), a))
            case .adaptive(let lo, let hi):
                let room = share ?? lo
                let gap = item.spacing ?? LayoutDefaults.stackSpacing
                // As many as fit (at least one; at most `maxAdaptiveTracks`, so a tiny minimum cannot exhaust memory).
                let fit = lo + gap > 0 ? ((room + gap) / (lo + gap)).rounded(.down) : 1
                let count = fit.isFinite ? max(1, min(LazyGridNode.maxAdaptiveTracks, Int(fit))) : 1
                let each = min(hi, (room - gap * CGFloat(count - 1)) / CGFloat(count))
                for _ in 0..<count { out.append((max(lo, each), a)) }
            }
        }
        return out
    }

    private func across(_ p: ProposedViewSize) -> CGFloat? { axis == .vertical ? p.width : p.height }

    /// Every cell's frame, relative to the grid's origin.
    func cellFrames(_ p: ProposedViewSize) -> [CGRect] {
        let t = tracks(across(p).flatMap { $0.isFinite ? $0 : nil })
        guard !t.isEmpty else { return [] }
        let gap = items.first?.spacing ?? LayoutDefaults.stackSpacing
        var frames: [CGRect] = []
        var along: CGFloat = 0
        var index = 0
        while index < children.count {
            let line = Array(children[index..<min(children.count, index + t.count)])
            let sizes = line.enumerated().map { j, cell in
                cell.sizeThatFits(axis == .vertical ? ProposedViewSize(width: t[j].size, height: nil)
                                                    : ProposedViewSize(width: nil, height: t[j].size))
            }
            let depth = sizes.map { axis == .vertical ? $0.height : $0.width }.max() ?? 0
            var offset: CGFloat = 0
            for (j, s) in sizes.enumerated() {
                let slot = axis == .vertical ? CGRect(x: offset, y: along, width: t[j].size, height: depth)
                                             : CGRect(x: along, y: offset, width: depth, height: t[j].size)
                frames.append(t[j].alignment.place(s, in: slot))
                offset += t[j].size + gap
            }
            along += depth + spacing
            index += t.count
        }
        return frames
    }

    override func measure(_ p: ProposedViewSize) -> CGSize {
        let t = tracks(across(p).flatMap { $0.isFinite ? $0 : nil })
        let gap = items.first?.spacing ?? LayoutDefaults.stackSpacing
        let acrossSize = t.reduce(0) { $0 + $1.size } + gap * CGFloat(max(0, t.count - 1))
        let frames = cellFrames(p)
        let alongSize = frames.map { axis == .vertical ? $0.maxY : $0.maxX }.max() ?? 0
        return axis == .vertical ? CGSize(width: acrossSize, height: alongSize) : CGSize(width: alongSize, height: acrossSize)
    }

    override func draw(_ context: GraphicsContext, in rect: CGRect) {
        for (cell, f) in zip(children, cellFrames(ProposedViewSize(rect.size))) {
            cell.place(context, in: f.offsetBy(dx: rect.minX, dy: rect.minY))
        }
    }
}

// MARK: - Shape styles as views

/// A gradient as a view fills its frame, taking the size offered (as `Color` does).
extension LinearGradient: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(shading, FillStyle())], environment: environment)
    }
}

extension RadialGradient: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(shading, FillStyle())], environment: environment)
    }
}

extension AngularGradient: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(shading, FillStyle())], environment: environment)
    }
}

extension EllipticalGradient: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(shading, FillStyle())], environment: environment)
    }
}

/// A mesh gradient as a view fills its frame, its unit space the frame's rect.
extension MeshGradient: View, PrimitiveView {
    public typealias Body = Never
    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        ShapeNode(shape: Rectangle(), paints: [.fill(shading, FillStyle())], environment: environment)
    }
}
