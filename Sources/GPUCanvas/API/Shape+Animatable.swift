// The built-in shapes' `animatableData`, with Apple's types: `RoundedRectangle` animates its corner size and
// `UnevenRoundedRectangle` its radii; `Rectangle`, `Circle`, `Ellipse`, `Capsule` and `Path` have nothing to
// animate (`EmptyAnimatableData`, `Animatable`'s default), as in SwiftUI.

extension RoundedRectangle {
    /// The corner size (width, height).
    public var animatableData: AnimatablePair<CGFloat, CGFloat> {
        get { cornerSize.animatableData }
        set { cornerSize.animatableData = newValue }
    }
}

extension UnevenRoundedRectangle {
    /// The corner radii (`RectangleCornerRadii.animatableData`).
    public var animatableData: RectangleCornerRadii.AnimatableData {
        get { cornerRadii.animatableData }
        set { cornerRadii.animatableData = newValue }
    }
}

// The shapes made from shapes animate their content with their own parameters, as in SwiftUI.

extension OffsetShape {
    /// (the shape's data, the offset).
    public var animatableData: AnimatablePair<Content.AnimatableData, CGSize.AnimatableData> {
        get { AnimatablePair(shape.animatableData, offset.animatableData) }
        set { shape.animatableData = newValue.first; offset.animatableData = newValue.second }
    }
}

extension RotatedShape {
    /// (the shape's data, (angle, anchor)).
    public var animatableData: AnimatablePair<Content.AnimatableData,
                                              AnimatablePair<Angle.AnimatableData, UnitPoint.AnimatableData>> {
        get { AnimatablePair(shape.animatableData, AnimatablePair(angle.animatableData, anchor.animatableData)) }
        set {
            shape.animatableData = newValue.first
            angle.animatableData = newValue.second.first
            anchor.animatableData = newValue.second.second
        }
    }
}

extension ScaledShape {
    /// (the shape's data, (scale, anchor)).
    public var animatableData: AnimatablePair<Content.AnimatableData,
                                              AnimatablePair<CGSize.AnimatableData, UnitPoint.AnimatableData>> {
        get { AnimatablePair(shape.animatableData, AnimatablePair(scale.animatableData, anchor.animatableData)) }
        set {
            shape.animatableData = newValue.first
            scale.animatableData = newValue.second.first
            anchor.animatableData = newValue.second.second
        }
    }
}

extension TransformedShape {
    /// The shape's data (the transform does not animate).
    public var animatableData: Content.AnimatableData {
        get { shape.animatableData }
        set { shape.animatableData = newValue }
    }
}

extension _TrimmedShape {
    /// (the shape's data, (start, end)).
    public var animatableData: AnimatablePair<Content.AnimatableData, AnimatablePair<CGFloat, CGFloat>> {
        get { AnimatablePair(shape.animatableData, AnimatablePair(startFraction, endFraction)) }
        set {
            shape.animatableData = newValue.first
            startFraction = newValue.second.first
            endFraction = newValue.second.second
        }
    }
}

extension _StrokedShape {
    /// (the shape's data, the stroke style's).
    public var animatableData: AnimatablePair<Content.AnimatableData, StrokeStyle.AnimatableData> {
        get { AnimatablePair(shape.animatableData, style.animatableData) }
        set { shape.animatableData = newValue.first; style.animatableData = newValue.second }
    }
}
