// `@Environment` and `environment(_:_:)` for the keys the library reads: `font`, `colorScheme` (light),
// `displayScale`, `layoutDirection` (left to right). A view's `@Environment` properties read the environment
// of the place it is built at, set by the `environment(_:_:)` and `font(_:)` modifiers above it.
//
// Decisions: `colorScheme` and `layoutDirection` are read as set, but the library draws light-mode colours
// left to right whatever they say (dynamic colours and mirrored layout are not modelled); `displayScale` is 1
// unless set (an `ImageRenderer`'s `scale` is applied when the recording is rendered, after the views are built).

extension EnvironmentValues {
    /// The appearance views are built for: `.light` unless set.
    public var colorScheme: ColorScheme {
        get { viewValues.colorScheme }
        set { viewValues.colorScheme = newValue }
    }

    /// Pixels per point the views are built for: 1 unless set.
    public var displayScale: CGFloat {
        get { viewValues.displayScale }
        set { viewValues.displayScale = newValue }
    }

    /// `.leftToRight` unless set.
    public var layoutDirection: LayoutDirection {
        get { viewValues.layoutDirection }
        set { viewValues.layoutDirection = newValue }
    }
}

/// A value of the environment of the place the view is built at: `@Environment(\.font) var font`.
@propertyWrapper
public struct Environment<Value> {
    let keyPath: KeyPath<EnvironmentValues, Value>
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    /// The value where the view's body is being built (the defaults outside a build).
    public var wrappedValue: Value { (EnvironmentReading.current ?? EnvironmentValues())[keyPath: keyPath] }
}

/// The environment bodies read while they are built (`NodeBuilder` binds it around each `body`).
enum EnvironmentReading {
    @TaskLocal static var current: EnvironmentValues?
}

extension ViewEnvironment {
    /// The environment values a body built here reads.
    var environmentValues: EnvironmentValues {
        var v = values
        if let font { v.font = font }
        if let foregroundColor { v.foregroundColor = foregroundColor }
        return v
    }
}

extension View {
    /// Sets an environment value for the views inside: `.environment(\.font, .title)`.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        modifier(.environment { e in
            var v = e.environmentValues
            v[keyPath: keyPath] = value
            e.values = v
            // The font is also what text without its own font draws with.
            if keyPath == \EnvironmentValues.font { e.font = v.font }
        })
    }
}
