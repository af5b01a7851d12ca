// `GraphicsContext.withCGContext(content:)` and the `CGContext` it hands out: CoreGraphics' drawing calls,
// recorded into the same recording as the graphics context they came from.
//
// Design note. A CGContext is a recorder front end, not a renderer: it keeps a `GraphicsContext` (the one
// `withCGContext` was called on, copied) plus the state CoreGraphics has and GraphicsContext has not (fill and
// stroke colours, the pen, alpha, shadow, the current path), and lowers every CG call onto the context's own
// operations — `fill`, `stroke`, `clip(to:)`, `draw(_:in:)`, `addFilter(.shadow)` — so CG drawing goes through
// exactly the lowering and both backends that GraphicsContext drawing does, and a CG call records the same
// bytes as the equivalent GraphicsContext call. No backend knows CoreGraphics exists.
//
// The state stack. CoreGraphics has one mutable graphics state and an explicit stack (`saveGState` /
// `restoreGState`); GraphicsContext has value copies. `saveGState` pushes a copy of the whole state — the
// GraphicsContext value (transform, clips) and the CG-only fields — and `restoreGState` pops it, so a clip
// or CTM change made after a save is undone by the restore, as in CoreGraphics. The current path is not part
// of the state (CoreGraphics' rule): it survives save/restore. A `restoreGState` with nothing saved does
// nothing (CoreGraphics logs and ignores it). Everything set on the CGContext is lost when `content` returns
// (SwiftUI's documented behaviour); calls on a CGContext kept past that are ignored.
//
// Decisions (docs/api-status.md, "withCGContext"):
// - Coordinates. The CG user space is the GraphicsContext's user space at the call, y down: SwiftUI's
//   documentation says the CG context is "a proxy to draw into this context", and state set before the call
//   (transform, clips, filters, blend mode, opacity) applies to the CG drawing; so `cg.fill(rect)` covers the
//   same pixels as `context.fill(Path(rect), …)`. `ctm` is the GraphicsContext's `transform` (user space →
//   canvas points; the device scale is not in it).
// - The current path is kept in the space of the call (CoreGraphics maps points by the CTM when they are
//   added, so a later CTM change does not move them). When the CTM has not changed since the path was begun —
//   the usual case — the path is drawn exactly as given under the current transform; otherwise it is mapped
//   back into the current user space, so a stroke's width is in the user space of the stroke call, as in CG.
// - Alpha multiplies the opacity the GraphicsContext had; a blend mode other than `.normal` replaces the
//   GraphicsContext's, `.normal` keeps it.
// - Shadow. `setShadow(offset:blur:color:)` adds `Filter.shadow` to every later draw, with the offset and blur
//   in the space of the `withCGContext` call (CoreGraphics: shadows ignore the CTM); radius = blur / 2 (the
//   CG blur is a blur diameter, as CSS's; the shadow filter's radius is a Gaussian standard deviation).
//   `setShadow(offset:blur:)` uses CoreGraphics' default colour, black at 1/3 alpha; a nil colour turns
//   the shadow off.
// - Gradients fill the clip region (`clipBoundingRect`, intersected with the clip). Without
//   `drawsBeforeStartLocation` / `drawsAfterEndLocation` the fill is cut where t < 0 / t > 1; our gradients'
//   pad extend mode colours the rest. Linear: exact (the half-planes at the start and end lines). Radial: the
//   region t ∈ [0, 1] is the convex hull of the two circles; without `drawsBeforeStartLocation` the start
//   disc is cut out; with `drawsAfterEndLocation` everything outside is drawn. Exact for concentric gradients
//   and whenever the start circle lies inside the end circle; otherwise an approximation (CG's cone beyond
//   the ends is not modelled). A gradient whose colour space is linear (`linearSRGB`) interpolates in linear
//   light (`.linearColor`); others in the working space.
// - `draw(_:in:)` draws an image the way CoreGraphics does: its first row at the rect's maxY, so under this
//   y-down CTM it appears upside down, as in any flipped CG context (UIKit's `draw(_:)`); code written for
//   those contexts already flips. `interpolationQuality` `.none` samples the nearest pixel.
// - `setShouldAntialias(false)` draws fills and clips without anti-aliasing (`FillStyle.isAntialiased`);
//   strokes and images stay anti-aliased (GraphicsContext has no switch for them). `interpolationQuality`
//   and `setAllowsAntialiasing` are recorded; only the cases above change pixels.
import Foundation

/// CoreGraphics' blend modes; the raw values are GraphicsContext.BlendMode's (both are CoreGraphics').
public enum CGBlendMode: Int32, Sendable, Hashable, CaseIterable {
    case normal = 0, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight,
         difference, exclusion, hue, saturation, color, luminosity, clear, copy, sourceIn, sourceOut, sourceAtop,
         destinationOver, destinationIn, destinationOut, destinationAtop, xor, plusDarker, plusLighter

    /// The GraphicsContext blend mode with the same raw value.
    package var blendMode: GraphicsContext.BlendMode { GraphicsContext.BlendMode(rawValue: rawValue) }
}

/// What `CGContext.drawPath(using:)` paints.
public enum CGPathDrawingMode: Int32, Sendable, Hashable {
    case fill = 0, eoFill = 1, stroke = 2, fillStroke = 3, eoFillStroke = 4
}

/// Whether a CG gradient draw colours beyond its start and end (the first and last colours, padded).
public struct CGGradientDrawingOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

/// Colours at locations 0…1 (CoreGraphics' `CGGradient`).
public final class CGGradient: @unchecked Sendable {
    package let stops: [Gradient.Stop]
    /// Interpolation in linear light (a linear colour space).
    package let isLinear: Bool

    /// `colors` at `locations` (nil: evenly spaced from 0 to 1). CoreGraphics takes a `CFArray` of CGColors;
    /// here a Swift array. Nil when there are no colours or the counts differ.
    public init?(colorsSpace space: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
        guard !colors.isEmpty, locations == nil || locations!.count == colors.count else { return nil }
        let n = colors.count
        let locs = locations ?? (0 ..< n).map { n == 1 ? 0 : CGFloat($0) / CGFloat(n - 1) }
        stops = zip(colors, locs).map { Gradient.Stop(color: $0.0.color, location: $0.1) }
        isLinear = space?.rgbSpace == .sRGBLinear
    }

    /// `count` colours given as components (`space.numberOfComponents + 1` per colour, alpha last) at
    /// `locations` (nil: evenly spaced). Nil for a count below 1.
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count >= 1 else { return nil }
        let k = space.numberOfComponents + 1
        var list: [Gradient.Stop] = []
        for i in 0 ..< count {
            guard let c = CGColor(colorSpace: space, components: components + i * k) else { return nil }
            let loc = locations.map { $0[i] } ?? (count == 1 ? 0 : CGFloat(i) / CGFloat(count - 1))
            list.append(Gradient.Stop(color: c.color, location: loc))
        }
        stops = list
        isLinear = space.rgbSpace == .sRGBLinear
    }
}

extension GraphicsContext {
    /// Runs `content` with a CoreGraphics context that draws into this context: same recording, same user
    /// space, and this context's transform, clips, filters, blend mode and opacity apply to what it draws.
    /// State set on the CG context is lost when `content` returns.
    public func withCGContext(content: (CGContext) throws -> Void) rethrows {
        let cg = CGContext(drawingInto: self)
        defer { cg.isClosed = true }
        try content(cg)
    }
}

/// A CoreGraphics drawing context that records into a GraphicsContext (see the note at the top of the file).
public final class CGContext {
    /// The CG-only part of the graphics state.
    package struct CGState {
        package var fillColor = Color(white: 0)
        package var strokeColor = Color(white: 0)
        package var lineWidth: CGFloat = 1
        package var lineCap: CGLineCap = .butt
        package var lineJoin: CGLineJoin = .miter
        package var miterLimit: CGFloat = 10
        package var dash: [CGFloat] = []
        package var dashPhase: CGFloat = 0
        package var alpha: CGFloat = 1
        package var blendMode: CGBlendMode = .normal
        package var shadow: (offset: CGSize, blur: CGFloat, color: Color)?
        package var shouldAntialias = true
        package var allowsAntialiasing = true
        package var interpolationQuality: CGInterpolationQuality = .default
        /// User space → the space of the `withCGContext` call.
        package var userToBase: CGAffineTransform = .identity
    }

    /// The context whose transform and clips are the CG state's (the CTM, the clip).
    private var context: GraphicsContext
    private var state = CGState()
    private var saved: [(GraphicsContext, CGState)] = []
    /// The transform and opacity of the context `withCGContext` was called on.
    private let baseTransform: CGAffineTransform
    private let baseOpacity: Double

    /// The current path in the space of the `withCGContext` call.
    private var basePath = Path()
    /// The current path as given, and the `userToBase` every element of it was given under (nil: mixed).
    private var userPath = Path()
    private var userPathSpace: CGAffineTransform? = .identity

    /// Set when `withCGContext`'s closure returns: later calls are ignored.
    package var isClosed = false

    package init(drawingInto context: GraphicsContext) {
        self.context = context
        baseTransform = context.transform
        baseOpacity = context.opacity
    }

    // MARK: Graphics state

    /// Pushes a copy of the graphics state (CTM, clip, colours, pen, alpha, blend mode, shadow).
    public func saveGState() { saved.append((context, state)) }

    /// Pops the state `saveGState` pushed; does nothing when none is saved.
    public func restoreGState() {
        guard let (c, s) = saved.popLast() else { return }
        context = c
        state = s
    }

    /// User space → canvas points: the GraphicsContext's transform.
    public var ctm: CGAffineTransform { context.transform }

    /// The same as `ctm` (a canvas has no device space apart from its points; the pixel scale is the renderer's).
    public var userSpaceToDeviceSpaceTransform: CGAffineTransform { context.transform }

    public func translateBy(x: CGFloat, y: CGFloat) {
        context.translateBy(x: x, y: y)
        state.userToBase = state.userToBase.translatedBy(x: x, y: y)
    }

    public func scaleBy(x: CGFloat, y: CGFloat) {
        context.scaleBy(x: x, y: y)
        state.userToBase = state.userToBase.scaledBy(x: x, y: y)
    }

    /// Rotates user space by `angle` radians (positive turns clockwise on this y-down canvas).
    public func rotate(by angle: CGFloat) {
        context.rotate(by: .radians(Double(angle)))
        state.userToBase = state.userToBase.rotated(by: angle)
    }

    /// Prepends `transform` to the CTM.
    public func concatenate(_ transform: CGAffineTransform) {
        context.concatenate(transform)
        state.userToBase = transform.concatenating(state.userToBase)
    }

    public func setFillColor(_ color: CGColor) { state.fillColor = color.color }
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha).color }
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha).color
    }

    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color.color }
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(gray: gray, alpha: alpha).color
    }
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha).color
    }

    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    public func setLineCap(_ cap: CGLineCap) { state.lineCap = cap }
    public func setLineJoin(_ join: CGLineJoin) { state.lineJoin = join }
    public func setMiterLimit(_ limit: CGFloat) { state.miterLimit = limit }
    /// Dashes of `lengths` starting `phase` into the pattern; an empty array draws solid lines.
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.dash = lengths
        state.dashPhase = phase
    }

    /// Multiplies the alpha of later drawing (and the GraphicsContext's opacity).
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha }

    public func setBlendMode(_ mode: CGBlendMode) { state.blendMode = mode }

    /// A shadow under later drawing, black at 1/3 alpha.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        state.shadow = (offset, blur, Color(white: 0, opacity: 1.0 / 3))
    }

    /// A shadow under later drawing; a nil colour turns shadows off.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        state.shadow = color.map { (offset, blur, $0.color) }
    }

    /// Whether fills and clips are anti-aliased (strokes always are here).
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }
    /// Recorded only (CoreGraphics' permission for `setShouldAntialias`).
    public func setAllowsAntialiasing(_ allows: Bool) { state.allowsAntialiasing = allows }

    /// `.none` samples images at the nearest pixel; other values sample bilinearly.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    // MARK: The current path

    /// Adds to the current path with `build`, run on the path in the call's space (points mapped by the
    /// CTM) and, while the CTM has not changed since the path began, on the path as given.
    private func build(_ build: (inout Path, CGAffineTransform) -> Void) {
        guard !isClosed else { return }
        if userPath.isEmpty && basePath.isEmpty { userPathSpace = state.userToBase }
        build(&basePath, state.userToBase)
        if let space = userPathSpace {
            if space == state.userToBase { build(&userPath, .identity) } else { userPathSpace = nil }
        }
    }

    /// The current path in the current user space.
    private var currentUserPath: Path {
        if let space = userPathSpace, space == state.userToBase { return userPath }
        let u = state.userToBase
        guard u.determinant != 0, u.determinant.isFinite else { return Path() }
        return basePath.applying(u.inverted())
    }

    /// Empties the current path.
    public func beginPath() {
        basePath = Path()
        userPath = Path()
        userPathSpace = state.userToBase
    }

    public func move(to point: CGPoint) { build { $0.move(to: point.applying($1)) } }
    public func addLine(to point: CGPoint) { build { $0.addLine(to: point.applying($1)) } }
    public func addLines(between points: [CGPoint]) { build { p, t in p.addLines(points.map { $0.applying(t) }) } }
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        build { $0.addCurve(to: end.applying($1), control1: control1.applying($1), control2: control2.applying($1)) }
    }
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        build { $0.addQuadCurve(to: end.applying($1), control: control.applying($1)) }
    }
    /// An arc (radians; `clockwise` as `CGMutablePath.addArc`).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        build {
            $0.addArc(center: center, radius: radius, startAngle: .radians(Double(startAngle)),
                      endAngle: .radians(Double(endAngle)), clockwise: clockwise, transform: $1)
        }
    }
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        build { $0.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: $1) }
    }
    public func addRect(_ rect: CGRect) { build { $0.addRect(rect, transform: $1) } }
    public func addRects(_ rects: [CGRect]) { build { $0.addRects(rects, transform: $1) } }
    public func addEllipse(in rect: CGRect) { build { $0.addEllipse(in: rect, transform: $1) } }
    public func addPath(_ path: CGPath) { build { $0.addPath(path.path, transform: $1) } }
    public func closePath() { build { p, _ in p.closeSubpath() } }

    /// True when the current path has no elements.
    public var isPathEmpty: Bool { basePath.isEmpty }
    /// The current point in user space (`.zero` for an empty path).
    public var currentPointOfPath: CGPoint { currentUserPath.currentPoint ?? .zero }
    /// The tight box of the current path in user space.
    public var boundingBoxOfPath: CGRect { currentUserPath.boundingRect }

    /// Replaces the current path with the outline a stroke with the current pen would draw.
    public func replacePathWithStrokedPath() {
        let outline = currentUserPath.strokedPath(strokeStyle)
        beginPath()
        build { $0.addPath(outline, transform: $1) }
    }

    /// Takes the current path (in user space) and empties it.
    private func takePath() -> Path {
        let p = currentUserPath
        beginPath()
        return p
    }

    // MARK: Painting

    private var strokeStyle: StrokeStyle {
        StrokeStyle(lineWidth: state.lineWidth, lineCap: state.lineCap, lineJoin: state.lineJoin,
                    miterLimit: state.miterLimit, dash: state.dash, dashPhase: state.dashPhase)
    }

    /// The context later draws go through: the clip and CTM, with alpha, blend mode and shadow applied.
    private var paintingContext: GraphicsContext {
        var g = context
        g.opacity = baseOpacity * Double(state.alpha)
        if state.blendMode != .normal { g.blendMode = state.blendMode.blendMode }
        if let s = state.shadow {
            // Shadows ignore the CTM (CoreGraphics): offset and blur in the space of the call.
            let t = g.transform
            g.transform = baseTransform
            g.addFilter(.shadow(color: s.color, radius: s.blur / 2, x: s.offset.width, y: s.offset.height))
            g.transform = t
        }
        return g
    }

    private func fill(_ path: Path, eoFill: Bool) {
        guard !isClosed else { return }
        paintingContext.fill(path, with: .color(state.fillColor),
                             style: FillStyle(eoFill: eoFill, antialiased: state.shouldAntialias))
    }

    private func stroke(_ path: Path) {
        guard !isClosed else { return }
        paintingContext.stroke(path, with: .color(state.strokeColor), style: strokeStyle)
    }

    /// Fills the current path with the fill colour and empties it.
    public func fillPath(using rule: CGPathFillRule = .winding) { fill(takePath(), eoFill: rule == .evenOdd) }

    /// Strokes the current path with the pen and stroke colour and empties it.
    public func strokePath() { stroke(takePath()) }

    /// Fills and/or strokes the current path (fill first), then empties it.
    public func drawPath(using mode: CGPathDrawingMode) {
        let p = takePath()
        switch mode {
        case .fill: fill(p, eoFill: false)
        case .eoFill: fill(p, eoFill: true)
        case .stroke: stroke(p)
        case .fillStroke: fill(p, eoFill: false); stroke(p)
        case .eoFillStroke: fill(p, eoFill: true); stroke(p)
        }
    }

    /// Intersects the clip with the current path, then empties it.
    public func clip(using rule: CGPathFillRule = .winding) {
        let p = takePath()
        guard !isClosed else { return }
        context.clip(to: p, style: FillStyle(eoFill: rule == .evenOdd, antialiased: state.shouldAntialias))
    }

    /// Intersects the clip with `rect`.
    public func clip(to rect: CGRect) {
        guard !isClosed else { return }
        context.clip(to: Path(rect), style: FillStyle(antialiased: state.shouldAntialias))
    }

    /// Intersects the clip with the union of `rects`.
    public func clip(to rects: [CGRect]) {
        guard !isClosed else { return }
        context.clip(to: Path { $0.addRects(rects) }, style: FillStyle(antialiased: state.shouldAntialias))
    }

    // The rect and ellipse conveniences, as CoreGraphics, leave the current path empty.

    public func fill(_ rect: CGRect) { beginPath(); fill(Path(rect), eoFill: false) }
    public func fill(_ rects: [CGRect]) { beginPath(); fill(Path { $0.addRects(rects) }, eoFill: false) }
    public func stroke(_ rect: CGRect) { beginPath(); stroke(Path(rect)) }
    public func stroke(_ rect: CGRect, width: CGFloat) {
        beginPath()
        guard !isClosed else { return }
        var style = strokeStyle
        style.lineWidth = width
        paintingContext.stroke(Path(rect), with: .color(state.strokeColor), style: style)
    }
    public func fillEllipse(in rect: CGRect) { beginPath(); fill(Path(ellipseIn: rect), eoFill: false) }
    public func strokeEllipse(in rect: CGRect) { beginPath(); stroke(Path(ellipseIn: rect)) }

    /// Strokes a line between each pair of points (0–1, 2–3, …); an odd last point is ignored.
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        var p = Path()
        var i = 0
        while i + 1 < points.count {
            p.move(to: points[i])
            p.addLine(to: points[i + 1])
            i += 2
        }
        stroke(p)
    }

    /// Makes `rect` transparent (through the clip; alpha, shadow and blend mode do not apply).
    public func clear(_ rect: CGRect) {
        beginPath()
        guard !isClosed else { return }
        var g = context
        g.blendMode = .clear
        g.fill(Path(rect), with: .color(.black), style: FillStyle(antialiased: state.shouldAntialias))
    }

    /// Draws `image` stretched to `rect`, its first row at `rect.maxY` (CoreGraphics' image orientation: see
    /// the file note).
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard !isClosed else { return }
        var g = paintingContext
        // Flip about the rect's horizontal centre line.
        g.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: rect.minY + rect.maxY))
        var swiftImage = Image(image.rasterImage)
        if state.interpolationQuality == .none { swiftImage = swiftImage.interpolation(.none) }
        g.draw(swiftImage, in: rect, style: FillStyle(antialiased: state.shouldAntialias))
    }

    // MARK: Gradients

    /// Fills the clip with `gradient` along start → end (see the file note for the options).
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        guard !isClosed else { return }
        let g = paintingContext
        let clipRect = g.clipBoundingRect
        guard !clipRect.isEmpty else { return }
        let region: Path
        if options.contains([.drawsBeforeStartLocation, .drawsAfterEndLocation]) {
            region = Path(clipRect)
        } else {
            let dx = end.x - start.x, dy = end.y - start.y
            let length = (dx * dx + dy * dy).squareRoot()
            guard length > 0, length.isFinite else { return }
            let u = CGPoint(x: dx / length, y: dy / length), v = CGPoint(x: -u.y, y: u.x)
            // The clip rect's extent along the axis (a) and across it (b), from `start`.
            var a0 = CGFloat.infinity, a1 = -CGFloat.infinity, b0 = CGFloat.infinity, b1 = -CGFloat.infinity
            for c in [CGPoint(x: clipRect.minX, y: clipRect.minY), CGPoint(x: clipRect.maxX, y: clipRect.minY),
                      CGPoint(x: clipRect.maxX, y: clipRect.maxY), CGPoint(x: clipRect.minX, y: clipRect.maxY)] {
                let a = (c.x - start.x) * u.x + (c.y - start.y) * u.y
                let b = (c.x - start.x) * v.x + (c.y - start.y) * v.y
                a0 = min(a0, a); a1 = max(a1, a); b0 = min(b0, b); b1 = max(b1, b)
            }
            if !options.contains(.drawsBeforeStartLocation) { a0 = max(a0, 0) }
            if !options.contains(.drawsAfterEndLocation) { a1 = min(a1, length) }
            guard a0 < a1 else { return }
            func at(_ a: CGFloat, _ b: CGFloat) -> CGPoint {
                CGPoint(x: start.x + u.x * a + v.x * b, y: start.y + u.y * a + v.y * b)
            }
            region = Path { $0.addLines([at(a0, b0), at(a1, b0), at(a1, b1), at(a0, b1)]); $0.closeSubpath() }
        }
        let shading = GraphicsContext.Shading(kind: .gradient(GradientShading(
            stops: gradient.stops, colorSpace: .device, options: gradient.isLinear ? .linearColor : [],
            geometry: .linear(start: start, end: end), gradientToUser: .identity)))
        g.fill(region, with: shading, style: FillStyle(antialiased: state.shouldAntialias))
    }

    /// Fills the clip with `gradient` from the start circle to the end circle (see the file note).
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard !isClosed else { return }
        guard startRadius >= 0, endRadius >= 0, startRadius.isFinite, endRadius.isFinite else { return }
        let g = paintingContext
        let clipRect = g.clipBoundingRect
        guard !clipRect.isEmpty else { return }
        var region = Path()
        if options.contains(.drawsAfterEndLocation) {
            region.addRect(clipRect)
        } else {
            region.addPath(Self.hull(startCenter, startRadius, endCenter, endRadius))
        }
        let eoFill = !options.contains(.drawsBeforeStartLocation) && startRadius > 0
        if eoFill { region.addEllipse(in: CGRect(x: startCenter.x - startRadius, y: startCenter.y - startRadius,
                                                 width: 2 * startRadius, height: 2 * startRadius)) }
        let shading = GraphicsContext.Shading(kind: .gradient(GradientShading(
            stops: gradient.stops, colorSpace: .device, options: gradient.isLinear ? .linearColor : [],
            geometry: .radial(startCenter: startCenter, startRadius: startRadius, endCenter: endCenter,
                              endRadius: endRadius),
            gradientToUser: .identity)))
        g.fill(region, with: shading, style: FillStyle(eoFill: eoFill, antialiased: state.shouldAntialias))
    }

    /// The convex hull of two circles: the larger circle when one holds the other, else the two circles joined
    /// by their outer tangents.
    package static func hull(_ c0: CGPoint, _ r0: CGFloat, _ c1: CGPoint, _ r1: CGFloat) -> Path {
        func circle(_ c: CGPoint, _ r: CGFloat) -> Path {
            Path(ellipseIn: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
        }
        let dx = c1.x - c0.x, dy = c1.y - c0.y
        let d = (dx * dx + dy * dy).squareRoot()
        if d + r1 <= r0 { return circle(c0, r0) }
        if d + r0 <= r1 { return circle(c1, r1) }
        let phi = atan2(dy, dx)
        let alpha = acos((r0 - r1) / d)
        var p = Path()
        // Around the back of the start circle (through phi + π), then along the far side of the end circle.
        p.addArc(center: c0, radius: r0, startAngle: .radians(Double(phi + alpha)),
                 endAngle: .radians(Double(phi + 2 * .pi - alpha)), clockwise: false)
        p.addArc(center: c1, radius: r1, startAngle: .radians(Double(phi - alpha)),
                 endAngle: .radians(Double(phi + alpha)), clockwise: false)
        p.closeSubpath()
        return p
    }
}
