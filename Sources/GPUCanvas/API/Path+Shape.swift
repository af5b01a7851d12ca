// A path is a shape: the views draw it as one.

extension Path: Shape {
    /// A `Path` used as a `Shape` is itself, whatever the rect: `p.path(in: anyRect) == p`.
    public func path(in rect: CGRect) -> Path { self }
}
