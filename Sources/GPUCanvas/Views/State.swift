// State, bindings and transactions, evaluated deterministically.
//
// `@State` storage lives in the `ViewGraph`, keyed by the view's structural identity (`ViewPath`) and the
// property's name; the builder links each `State` to its cell (found by reflection) before the view's `body`
// runs, so every evaluation of the same view reads the same cell. Setting a state records a change with the
// graph's current time and the animation of the enclosing `withAnimation` (a task-local value, so renderers on
// different threads do not mix). A frame at time t shows every change made at or before t; the newest
// animated group of changes still running at t is shown part way: the tree is built once with the group's
// changes undone and once with them applied, and the second tree's animatable values are interpolated from
// the first's by the animation's progress (`ViewNode.interpolate`). One group is interpolated at a time: an
// older animation still running when a newer one starts jumps to its end (SwiftUI would blend them).

/// A value a view owns, kept in the view graph across evaluations of its body.
///
/// ```swift
/// struct Counter: View {
///     @State private var n = 0
///     var body: some View { Text("\(n)").onAppear { n += 1 } }   // shows "1"
/// }
/// ```
@propertyWrapper
public struct State<Value>: StateProperty {
    let box: StateBox<Value>

    public init(wrappedValue value: Value) { box = StateBox(value) }
    public init(initialValue value: Value) { self.init(wrappedValue: value) }

    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding to the value: `$flag`.
    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(get: { box.value }, set: { box.value = $0 })
    }

    func link(to graph: ViewGraph, key: String) { box.link(to: graph, key: key) }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Optional state starting at nil.
    public init() { self.init(wrappedValue: nil) }
}

/// A `State` property found by reflection.
protocol StateProperty {
    func link(to graph: ViewGraph, key: String)
}

/// What one `State` value points at: the cell the evaluating graph linked it to, else its own copy (a view used
/// outside a graph). The link lives in the graph, not here: one view value may be rendered by several graphs at
/// once (two `ImageRenderer`s on two threads), and each must read its own cell.
final class StateBox<Value>: @unchecked Sendable {
    /// Written only outside any graph; read as a new cell's initial value.
    private var local: Value
    init(_ value: Value) { local = value }

    private var cell: StateCell<Value>? { ViewGraph.evaluating?.linkedCell(of: self) }

    var value: Value {
        get { cell?.value ?? local }
        set { if let cell { cell.set(newValue) } else { local = newValue } }
    }

    func link(to graph: ViewGraph, key: String) { graph.link(self, key: key, initial: local) }
}

/// A state's storage in the graph.
final class StateCell<Value> {
    var value: Value
    unowned let graph: ViewGraph
    init(value: Value, graph: ViewGraph) {
        self.value = value
        self.graph = graph
    }

    func set(_ newValue: Value) {
        let old = value
        value = newValue
        graph.recordChange(revert: { [unowned self] in
            let current = self.value
            self.value = old
            return { self.value = current }
        })
    }
}

/// A reference to a value owned elsewhere (a parent's `@State`): reading and writing go to the owner.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    let getValue: () -> Value
    let setValue: (Value) -> Void

    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        getValue = get
        setValue = set
    }

    /// A binding to a value that never changes.
    public static func constant(_ value: Value) -> Binding<Value> { Binding(get: { value }, set: { _ in }) }

    public init(projectedValue: Binding<Value>) { self = projectedValue }

    public var wrappedValue: Value {
        get { getValue() }
        nonmutating set { setValue(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    /// A binding to a part of the value: `$point.x`.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let get = getValue, set = setValue
        return Binding<Subject>(get: { get()[keyPath: keyPath] }, set: { v in
            var whole = get()
            whole[keyPath: keyPath] = v
            set(whole)
        })
    }

    /// A binding whose writes are animated with `animation`.
    public func animation(_ animation: Animation? = .default) -> Binding<Value> {
        let set = setValue
        return Binding(get: getValue, set: { v in withAnimation(animation) { set(v) } })
    }
}

/// Runs `body` (which changes state) and animates the changes with `animation`; nil changes them at once.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try TransactionAnimation.$current.withValue(animation) { try body() }
}

/// The animation of the `withAnimation` being run on this thread or task.
enum TransactionAnimation {
    @TaskLocal static var current: Animation?
}

// MARK: - The view graph

/// A root view's persistent state across frames: its `@State` cells, which views have appeared, and the
/// changes made so far with their times and animations. Frames are asked for by time (`tree(at:)`).
final class ViewGraph: @unchecked Sendable {  // used by one thread at a time (its ImageRenderer's)
    /// The graph whose views are being built, laid out or drawn on this task (`ImageRenderer` sets it).
    @TaskLocal static var evaluating: ViewGraph?

    let root: AnyView
    /// The date of time 0 (what `TimelineView`s see at the first frame).
    let startDate: Date
    private var cells: [String: AnyObject] = [:]
    /// Each `State` box of the frame's view values and its cell (kept for the frame: the tree's canvases read
    /// their state when the recording is drawn). The box is held weakly and compared, so an identifier reused
    /// by a later box never reads another's cell.
    private var links: [ObjectIdentifier: (box: WeakObject, cell: AnyObject)] = [:]
    private var appeared: Set<ViewPath> = []
    private var started = false
    /// The time changes are stamped with now (the frame being evaluated).
    private(set) var now: TimeInterval = 0
    /// Which action batch (one `onAppear` action) changes belong to.
    private var batch = 0

    struct Change {
        var time: TimeInterval
        var animation: Animation?
        var batch: Int
        /// Sets the old value and returns how to restore the value it replaced.
        var revert: () -> (() -> Void)
    }
    private(set) var changes: [Change] = []

    /// How many times one frame rebuilds because `onAppear` actions changed what appears (a guard against
    /// views that keep making new views appear).
    static let maxAppearPasses = 16

    init(root: AnyView, startDate: Date) {
        self.root = root
        self.startDate = startDate
    }

    func cell<Value>(for key: String, initial: Value) -> StateCell<Value> {
        if let c = cells[key] as? StateCell<Value> { return c }
        let c = StateCell(value: initial, graph: self)
        cells[key] = c
        return c
    }

    func link<Value>(_ box: StateBox<Value>, key: String, initial: Value) {
        links[ObjectIdentifier(box)] = (WeakObject(box), cell(for: key, initial: initial))
    }

    func linkedCell<Value>(of box: StateBox<Value>) -> StateCell<Value>? {
        guard let link = links[ObjectIdentifier(box)], link.box.object === box else { return nil }
        return link.cell as? StateCell<Value>
    }

    func linkState<V: View>(of view: V, at path: ViewPath) {
        for child in Mirror(reflecting: view).children {
            if let state = child.value as? StateProperty {
                state.link(to: self, key: "\(path)#\(child.label ?? "")")
            }
        }
    }

    func recordChange(revert: @escaping () -> (() -> Void)) {
        changes.append(Change(time: now, animation: TransactionAnimation.current, batch: batch, revert: revert))
    }

    private func build(at time: TimeInterval) -> NodeBuilder.Result {
        let builder = NodeBuilder(graph: self, date: startDate.addingTimeInterval(time))
        let node = builder.build(root, ViewEnvironment(), ViewPath())
        return NodeBuilder.Result(node: node, appearActions: builder.appearActions)
    }

    /// Builds the tree, running the `onAppear` actions of views that appear for the first time (stamped with
    /// `time`) and rebuilding while they change what appears.
    private func settle(at time: TimeInterval) -> ViewNode {
        var result = build(at: time)
        for _ in 0..<ViewGraph.maxAppearPasses {
            let fresh = result.appearActions.filter { !appeared.contains($0.path) }
            if fresh.isEmpty { break }
            now = time
            for (path, action) in fresh {
                appeared.insert(path)
                batch += 1
                action()
            }
            result = build(at: time)
        }
        return result.node
    }

    /// The tree as it shows at `time` seconds after the first appearance: laid out by the caller, animated
    /// values interpolated. The first call runs the first frame's `onAppear` actions at time 0.
    func tree(at time: TimeInterval) -> ViewNode {
        links.removeAll(keepingCapacity: true)
        return Self.$evaluating.withValue(self) { settledTree(at: time) }
    }

    private func settledTree(at time: TimeInterval) -> ViewNode {
        if !started {
            started = true
            _ = settle(at: 0)
        }
        now = max(now, time)
        let target = settle(at: time)
        guard let (group, progress) = runningAnimation(at: time) else {
            // No explicit animation running: the newest unanimated changes may still animate the subtrees
            // under an `animation(_:value:)` whose value they changed.
            if let (group, start) = newestUnanimatedGroup(at: time) {
                let restores = group.reversed().map { $0.revert() }
                let from = build(at: time).node
                for restore in restores.reversed() { restore() }
                target.interpolateImplicitAnimations(from: from, elapsed: time - start)
            }
            return target
        }
        let restores = group.reversed().map { $0.revert() }
        let from = build(at: time).node
        for restore in restores.reversed() { restore() }
        target.interpolate(from: from, progress: progress)
        return target
    }

    /// The newest batch of changes made without an animation at or before `time`, and its time.
    private func newestUnanimatedGroup(at time: TimeInterval) -> ([Change], TimeInterval)? {
        guard let last = changes.last(where: { $0.time <= time && $0.animation == nil }) else { return nil }
        let group = changes.filter { $0.batch == last.batch && $0.animation == nil && $0.time <= time }
        return (group, last.time)
    }

    /// The newest group of animated changes (one batch, one animation) still running at `time`, and its progress.
    private func runningAnimation(at time: TimeInterval) -> ([Change], Double)? {
        var seen = Set<Int>()
        for change in changes.reversed() where change.time <= time && change.animation != nil {
            guard seen.insert(change.batch).inserted, let animation = change.animation else { continue }
            let state = animation.state(at: time - change.time)
            if state.isFinished { continue }
            let group = changes.filter { $0.batch == change.batch && $0.animation == animation && $0.time <= time }
            return (group, state.progress)
        }
        return nil
    }
}

extension NodeBuilder {
    struct Result {
        var node: ViewNode
        var appearActions: [(path: ViewPath, action: () -> Void)]
    }
}

/// A weak reference, for tables keyed by an object's identifier.
struct WeakObject {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
