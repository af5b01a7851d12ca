// `TextRenderer` (iOS 17/18): a value that draws a text view from its `Text.Layout` in place of the default
// drawing, set for the text views inside a view by `textRenderer(_:)`.
//
// Decisions where Apple is silent:
// - The renderer draws in the text view's own space: the context's origin is the view's top-left, the layout's
//   coordinates are relative to it, and the context carries what the text view would draw with (environment,
//   opacity, transform of the views above).
// - `sizeThatFits(proposal:text:)` decides the text view's size; `TextProxy.sizeThatFits` answers the size the
//   text takes without a renderer (line limits, scale factor and the rest applied). The layout given to
//   `draw(layout:in:)` is the one laid out at the placed width.
// - `displayPadding` is read but changes nothing here: draws are never clipped to a text view's bounds (there
//   is no rasterising layer to enlarge).
// - A renderer changed under `withAnimation` (or `animation(_:value:)`) is drawn with its `animatableData`
//   interpolated from the renderer before the change, as SwiftUI animates any `Animatable`; a renderer can
//   also be given the time by a `TimelineView`, as the `text-wave` example of `canvas-gl animate` is.

/// Draws text views in place of their default drawing: `Text("Hi").textRenderer(Wave(time: t))`.
///
/// ```swift
/// struct Fade: TextRenderer {
///     func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
///         for (i, line) in layout.enumerated() {
///             var c = ctx
///             c.opacity = i.isMultiple(of: 2) ? 1 : 0.4
///             c.draw(line)
///         }
///     }
/// }
/// ```
public protocol TextRenderer: Animatable {
    /// Draws `layout` into `ctx`, whose origin is the text view's top-left.
    func draw(layout: Text.Layout, in ctx: inout GraphicsContext)
    /// The text view's size for `proposal`; by default the text's own (`text.sizeThatFits(proposal)`).
    func sizeThatFits(proposal: ProposedViewSize, text: TextProxy) -> CGSize
    /// Room the drawing may take outside the text's bounds (a shadow, a wave); none by default.
    var displayPadding: EdgeInsets { get }
}

extension TextRenderer {
    public func sizeThatFits(proposal: ProposedViewSize, text: TextProxy) -> CGSize { text.sizeThatFits(proposal) }
    public var displayPadding: EdgeInsets { EdgeInsets() }
}

/// The text view a `TextRenderer` sizes: what the text alone would take.
public struct TextProxy {
    let measure: (ProposedViewSize) -> CGSize

    /// The size the text view takes for `proposal` when drawn without a renderer.
    public func sizeThatFits(_ proposal: ProposedViewSize) -> CGSize { measure(proposal) }
}

extension View {
    /// Text views inside this view draw through `renderer` (the innermost renderer wins).
    public func textRenderer<T: TextRenderer>(_ renderer: T) -> some View {
        modifier(.environment { $0.textRenderer = renderer })
    }
}
