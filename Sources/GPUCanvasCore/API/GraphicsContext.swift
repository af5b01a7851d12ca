/// SwiftUI's immediate-mode drawing destination.
///
/// A context is a value: copying it copies the whole drawing state (transform, opacity, blend mode, clip
/// stack) while both copies keep drawing into the same layer. It records; it knows nothing of GL or pixels.
///
/// ```swift
/// Canvas { context, size in
///     var c = context            // state changes on `c` do not reach `context`
///     c.translateBy(x: 10, y: 0)
///     c.fill(Path(CGRect(x: 0, y: 0, width: 5, height: 5)), with: .color(.red))
/// }
/// ```
public struct GraphicsContext {
    package var state = DrawState()
    public var transform: CGAffineTransform = .identity
    package let layer: LayerRecorder
    /// Canvas size in points, for `clipBoundingRect`.
    package let canvasSize: CGSize
    package let colorMode: ColorRenderingMode
    public let environment: EnvironmentValues

    package init(layer: LayerRecorder, canvasSize: CGSize, colorMode: ColorRenderingMode,
         environment: EnvironmentValues = EnvironmentValues()) {
        self.layer = layer
        self.canvasSize = canvasSize
        self.colorMode = colorMode
        self.environment = environment
    }

    /// Records that something could not be resolved and draws nothing in its place (an unknown asset or system
    /// image name): the render goes on and lists it in its `RenderReport`; a strict render throws its error.
    package func report(_ diagnostic: RenderDiagnostic) { layer.counter.log.report(diagnostic) }

    /// Multiplies the alpha of later draws. Setting it replaces the previous value.
    public var opacity: Double {
        get { state.opacity }
        set { state.opacity = newValue }
    }

    /// How later draws combine with what is already drawn.
    public var blendMode: BlendMode {
        get { state.blendMode }
        set { state.blendMode = newValue }
    }

    /// The bounding box of the intersection of all clip shapes, in the current user space; with no clip
    /// shapes, the canvas. Inverse clips and masks do not shrink it (their region may reach anywhere).
    ///
    /// After `clip(to: Path(CGRect(x: 10, y: 10, width: 20, height: 20)))` then `translateBy(x: 10, y: 0)` →
    /// (0, 10, 20, 20).
    public var clipBoundingRect: CGRect {
        var r = CGRect(origin: .zero, size: canvasSize)
        for clip in state.clips {
            if let b = clip.canvasBounds { r = r.intersection(b) }
        }
        if r.isNull { return .zero }
        return r.applying(transform.inverted())
    }

    // MARK: Transforms (each pre-multiplies: the new operation happens in the current user space)

    public mutating func scaleBy(x: CGFloat, y: CGFloat) { transform = transform.scaledBy(x: x, y: y) }
    public mutating func translateBy(x: CGFloat, y: CGFloat) { transform = transform.translatedBy(x: x, y: y) }
    public mutating func rotate(by angle: Angle) { transform = transform.rotated(by: CGFloat(angle.radians)) }
    public mutating func concatenate(_ matrix: CGAffineTransform) { transform = matrix.concatenating(transform) }

    // MARK: Drawing paths

    public func fill(_ path: Path, with shading: Shading, style: FillStyle = FillStyle()) {
        record(.fill(path, style), shading)
    }

    public func stroke(_ path: Path, with shading: Shading, style: StrokeStyle) {
        record(.stroke(path, style), shading)
    }

    public func stroke(_ path: Path, with shading: Shading, lineWidth: CGFloat = 1) {
        record(.stroke(path, StrokeStyle(lineWidth: lineWidth)), shading)
    }

    /// Binds a shading to this context's environment: `.foreground` becomes the environment's colour, a
    /// palette its first level stays a palette. Gradients and colours need no binding.
    public func resolve(_ shading: Shading) -> Shading {
        switch shading.kind {
        case .foreground: return .color(environment.foregroundColor)
        case .palette(let levels): return .palette(levels.map { resolve($0) })
        default: return shading
        }
    }

    private func record(_ geometry: DrawCommand.Geometry, _ shading: Shading) {
        guard let paint = paint(for: shading, bounds: geometry.path.boundingRect) else { return }
        record(geometry, paint: paint)
    }

    package func record(_ geometry: DrawCommand.Geometry, paint: Paint) {
        layer.append(.draw(DrawCommand(geometry: geometry, transform: transform, paint: paint, state: state,
                                        drawNumber: layer.counter.take())))
    }

    /// The paint a shading records as (nil: it draws nothing, an empty palette). A style's UnitPoints map
    /// onto `bounds`, the drawn item's, when the frame is lowered.
    package func paint(for shading: Shading, bounds: CGRect) -> Paint? {
        guard let level = shading.levelZero else { return nil }
        switch level.kind {
        case .color(let c): return .solid(c.premultiplied(in: colorMode))
        case .foreground: return .solid(environment.foregroundColor.premultiplied(in: colorMode))
        case .gradient(let g): return .gradient(g)
        case .style(let s): return .styleGradient(s)
        case .tiledImage(let t): return .image(t.paint)
        case .backdrop: return .backdrop
        case .meshGradient(var m):
            // Recorded with `Color`s (a resolved colour is the `Color` of it), the form a scene file spells.
            m.colors = .colors(m.colorList)
            return .meshGradient(m)
        case .palette: return nil  // `levelZero` is never a palette
        }
    }

    // MARK: Layers and clips

    /// Draws `content` into a new transparent layer, then composites that layer once, as one draw, with this
    /// context's opacity, blend mode and clip. The inner context keeps the transform and environment; its
    /// opacity, blend mode and clips start fresh.
    public func drawLayer(content: (inout GraphicsContext) throws -> Void) rethrows {
        let recorder = LayerRecorder(counter: layer.counter)
        var inner = GraphicsContext(layer: recorder, canvasSize: canvasSize, colorMode: colorMode, environment: environment)
        inner.transform = transform
        try content(&inner)
        layer.append(.layer(LayerCommand(content: RecordedLayer(items: recorder.items), state: state)))
    }

    /// Intersects the clip with `path` (in the current user space) for later draws through this context.
    /// `.inverse` keeps what lies outside the path; `style` gives the fill rule and anti-aliasing.
    public mutating func clip(to path: Path, style: FillStyle = FillStyle(), options: ClipOptions = ClipOptions()) {
        state.clips.append(.path(path, transform: transform, style: style, inverse: options.contains(.inverse)))
    }

    /// Intersects the clip with the alpha of what `content` draws (× `opacity`; `.inverse`: 1 − that). The
    /// content's context keeps the transform and starts with no clip.
    public mutating func clipToLayer(opacity: Double = 1, options: ClipOptions = ClipOptions(),
                                     content: (inout GraphicsContext) throws -> Void) rethrows {
        let recorder = LayerRecorder(counter: layer.counter)
        var inner = GraphicsContext(layer: recorder, canvasSize: canvasSize, colorMode: colorMode, environment: environment)
        inner.transform = transform
        try content(&inner)
        state.clips.append(.mask(RecordedLayer(items: recorder.items), opacity: opacity,
                                 inverse: options.contains(.inverse)))
    }
}

extension GraphicsContext {
    /// Options of `clip(to:)` and `clipToLayer`: `.inverse` uses 1 − the clip's alpha.
    public struct ClipOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static var inverse: ClipOptions { ClipOptions(rawValue: 1) }
    }

    /// The 28 blend modes; raw values are CoreGraphics' `CGBlendMode` values.
    public struct BlendMode: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let normal = BlendMode(rawValue: 0)
        public static let multiply = BlendMode(rawValue: 1)
        public static let screen = BlendMode(rawValue: 2)
        public static let overlay = BlendMode(rawValue: 3)
        public static let darken = BlendMode(rawValue: 4)
        public static let lighten = BlendMode(rawValue: 5)
        public static let colorDodge = BlendMode(rawValue: 6)
        public static let colorBurn = BlendMode(rawValue: 7)
        public static let softLight = BlendMode(rawValue: 8)
        public static let hardLight = BlendMode(rawValue: 9)
        public static let difference = BlendMode(rawValue: 10)
        public static let exclusion = BlendMode(rawValue: 11)
        public static let hue = BlendMode(rawValue: 12)
        public static let saturation = BlendMode(rawValue: 13)
        public static let color = BlendMode(rawValue: 14)
        public static let luminosity = BlendMode(rawValue: 15)
        public static let clear = BlendMode(rawValue: 16)
        public static let copy = BlendMode(rawValue: 17)
        public static let sourceIn = BlendMode(rawValue: 18)
        public static let sourceOut = BlendMode(rawValue: 19)
        public static let sourceAtop = BlendMode(rawValue: 20)
        public static let destinationOver = BlendMode(rawValue: 21)
        public static let destinationIn = BlendMode(rawValue: 22)
        public static let destinationOut = BlendMode(rawValue: 23)
        public static let destinationAtop = BlendMode(rawValue: 24)
        public static let xor = BlendMode(rawValue: 25)
        public static let plusDarker = BlendMode(rawValue: 26)
        public static let plusLighter = BlendMode(rawValue: 27)

        /// Case names in raw-value order (the scene format's spelling).
        package static let names = ["normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge",
                            "colorBurn", "softLight", "hardLight", "difference", "exclusion", "hue",
                            "saturation", "color", "luminosity", "clear", "copy", "sourceIn", "sourceOut",
                            "sourceAtop", "destinationOver", "destinationIn", "destinationOut",
                            "destinationAtop", "xor", "plusDarker", "plusLighter"]

        package init?(name: String) {
            guard let i = BlendMode.names.firstIndex(of: name) else { return nil }
            self.init(rawValue: Int32(i))
        }

        public var description: String {
            rawValue >= 0 && Int(rawValue) < BlendMode.names.count ? "." + BlendMode.names[Int(rawValue)]
                : "BlendMode(rawValue: \(rawValue))"
        }
    }
}

/// The environment a canvas draws in. Pinned to iOS light mode: the foreground style is `Color.primary`.
public struct EnvironmentValues: Sendable {
    public init() {}
    package var foregroundColor: Color = .primary
    package var defaultFont: Font = .body
    /// The symbols of the canvas being drawn as a view (`resolveSymbol(id:)`); nil elsewhere.
    package var symbols: (any CanvasSymbols)?
    /// True while a canvas symbol is being recorded (a canvas filling it is still clipped to its frame).
    package var recordsSymbol = false
    /// The keys only views read (`colorScheme`, `displayScale`, `layoutDirection`; Views/Environment.swift).
    package var viewValues = ViewEnvironmentValues()
}

extension GraphicsContext {
    /// A view recorded once as drawing commands, drawn by replaying them.
    public struct ResolvedSymbol {
        /// The view's laid-out size.
        public let size: CGSize
        package let content: RecordedLayer

        package init(size: CGSize, content: RecordedLayer) { self.size = size; self.content = content }
    }
}

/// A canvas's symbols, as the views build them (`SymbolTable`): `resolveSymbol(id:)` asks for one by tag.
package protocol CanvasSymbols: AnyObject, Sendable {
    func resolve(_ id: AnyHashable, colorMode: ColorRenderingMode, environment: EnvironmentValues) -> GraphicsContext.ResolvedSymbol?
}
