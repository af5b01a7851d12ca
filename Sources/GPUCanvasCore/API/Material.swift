/// SwiftUI's materials (`.background(.regularMaterial)`), approximated: the light-appearance tint each material
/// lays over what is behind it, without the blur of the backdrop. A material is a translucent white whose
/// opacity grows with its thickness, so text over it keeps the contrast the app was designed for; what shows
/// through stays sharp where Apple's would be frosted.
///
/// `Rectangle().fill(.regularMaterial)` over SwiftUI's red → 0.4 × (255, 59, 48) + 0.6 × 255 = (255, 177, 172).
public struct Material: ShapeStyle, Hashable {
    /// The share of white laid over the backdrop, by thickness (light appearance).
    package let whiteOpacity: Double

    public static let ultraThinMaterial = Material(whiteOpacity: 0.3)
    public static let thinMaterial = Material(whiteOpacity: 0.45)
    public static let regularMaterial = Material(whiteOpacity: 0.6)
    public static let thickMaterial = Material(whiteOpacity: 0.75)
    public static let ultraThickMaterial = Material(whiteOpacity: 0.85)
    /// The material of bars (toolbars, tab bars).
    public static let bar = Material(whiteOpacity: 0.8)

    public var shading: GraphicsContext.Shading { .color(Color.white.opacity(whiteOpacity)) }
}

extension ShapeStyle where Self == Material {
    public static var ultraThinMaterial: Material { .ultraThinMaterial }
    public static var thinMaterial: Material { .thinMaterial }
    public static var regularMaterial: Material { .regularMaterial }
    public static var thickMaterial: Material { .thickMaterial }
    public static var ultraThickMaterial: Material { .ultraThickMaterial }
    public static var bar: Material { .bar }
}
