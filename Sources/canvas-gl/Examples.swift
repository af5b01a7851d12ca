// The built-in examples: renderer closures written against the SwiftUI API exactly as a user would write them,
// each showing one part of what this version draws. `canvas-gl examples --render-to DIR` renders them all.
import GPUCanvas

struct Example: Sendable {
    let name: String
    let summary: String
    let scale: CGFloat
    /// Records the example's one frame: a renderer closure on a canvas of a fixed size, or a view laid out
    /// and recorded by an `ImageRenderer` (SeedExamples.swift).
    let makeRecording: @Sendable () -> Recording

    var recording: Recording { makeRecording() }

    /// An example that is a renderer closure drawing on a `size` canvas.
    init(name: String, summary: String, size: CGSize, scale: CGFloat, opaque: Bool = false,
         colorMode: ColorRenderingMode = .nonLinear, draw: @escaping @Sendable (inout GraphicsContext, CGSize) -> Void) {
        self.name = name
        self.summary = summary
        self.scale = scale
        makeRecording = { Recording(size: size, colorMode: colorMode, isOpaque: opaque, renderer: draw) }
    }

    /// An example that is a view, proposed `size` and recorded `time` seconds after it appears (its animations
    /// and `TimelineView`s at that time; `TimelineView`s see `startDate + time`). The view is type-erased
    /// (`AnyView`) so that the stored closure is `@Sendable` without a generic metatype in it.
    init(name: String, summary: String, proposing size: CGSize, scale: CGFloat,
         time: TimeInterval = 0, startDate: Date = ImageRenderer<AnyView>.defaultStartDate,
         view: @escaping @Sendable () -> AnyView) {
        self.name = name
        self.summary = summary
        self.scale = scale
        makeRecording = {
            let renderer = ImageRenderer(content: view(), startDate: startDate)
            renderer.proposedSize = ProposedViewSize(size)
            return renderer.recording(at: time)
        }
    }

    static func named(_ name: String) -> Example? { all.first { $0.name == name } }

    /// In the order `canvas-gl examples` lists them: the README sample first, then paths and strokes
    /// (colors … arcs), then the seed documents' clip and gradient pictures (clipped-quadrant, masked-copy,
    /// gradient-card), then the galleries of gradients, blend modes, and clips and layers, filters, the iOS 17/18
    /// additions (path booleans, mesh gradients; ExamplesIOS17.swift) and text, the
    /// social card, chart and avatar list written with views (ExamplesViews.swift), and last the seed samples' pictures, `seed-s01` … `seed-s14` (SeedExamples.swift).
    static var all: [Example] {
        [ellipse, colors, shapes, fillRules, strokes, transforms, opacity, arcs,
         clippedQuadrant, maskedCopy, gradientCard, gradientGallery, blendModes, clipsAndLayers, colorFilters,
         threeHousesByOrdering, threeHousesByCopy, threeHousesByLayer, blursAndShadows, pathBooleans, meshGradients,
         helloWorld, chartWithLabels, mixedScripts, socialCard, chartLegend, avatarList] + seeds
    }

    /// The README's first sample, unchanged.
    static let ellipse = Example(
        name: "ellipse", summary: "the README sample: a green 4 pt ellipse outline filling a 300×200 pt canvas",
        size: CGSize(width: 300, height: 200), scale: 2
    ) { context, size in
        context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green), lineWidth: 4)
    }

    static let colors = Example(
        name: "colors", summary: "swatches of every named SwiftUI colour (iOS light mode) on white",
        size: CGSize(width: 400, height: 260), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let swatches: [Color] = [.red, .orange, .yellow, .green, .mint, .teal, .cyan, .blue, .indigo, .purple,
                                 .pink, .brown, .gray, .black, .white, .clear, .primary, .secondary, .accentColor]
        let columns = 5
        let cell = CGSize(width: size.width / CGFloat(columns), height: size.height / 4)
        for (i, color) in swatches.enumerated() {
            let x = CGFloat(i % columns) * cell.width, y = CGFloat(i / columns) * cell.height
            let r = CGRect(x: x + 8, y: y + 8, width: cell.width - 16, height: cell.height - 16)
            context.fill(Path(roundedRect: r, cornerRadius: 10), with: .color(color))
            context.stroke(Path(roundedRect: r, cornerRadius: 10), with: .color(.gray.opacity(0.5)), lineWidth: 1)
        }
    }

    static let shapes = Example(
        name: "shapes", summary: "rect, rounded rects (circular and continuous corners), capsule, circle, ellipse",
        size: CGSize(width: 420, height: 240), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(white: 0.96))
        context.fill(Path(CGRect(x: 20, y: 20, width: 110, height: 80)), with: .color(.blue))
        context.fill(Path(roundedRect: CGRect(x: 155, y: 20, width: 110, height: 80), cornerRadius: 24, style: .circular),
                     with: .color(.orange))
        context.fill(Path(roundedRect: CGRect(x: 290, y: 20, width: 110, height: 80), cornerRadius: 24, style: .continuous),
                     with: .color(.pink))
        let capsule = CGRect(x: 20, y: 130, width: 130, height: 60)
        context.fill(Path(roundedRect: capsule, cornerRadius: capsule.height / 2), with: .color(.green))
        context.fill(Path(ellipseIn: CGRect(x: 175, y: 120, width: 90, height: 90)), with: .color(.purple))
        context.fill(Path(ellipseIn: CGRect(x: 290, y: 135, width: 110, height: 60)), with: .color(.teal))
    }

    static let fillRules = Example(
        name: "fill-rules", summary: "a self-intersecting star filled with the non-zero rule (left) and even-odd (right)",
        size: CGSize(width: 400, height: 200), scale: 2
    ) { context, size in
        func star(center: CGPoint, radius: CGFloat) -> Path {
            Path { p in
                for k in 0 ..< 5 {
                    let a = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
                    let pt = CGPoint(x: center.x + radius * CGFloat(cos(a)), y: center.y + radius * CGFloat(sin(a)))
                    if k == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
                }
                p.closeSubpath()
            }
        }
        context.fill(star(center: CGPoint(x: 100, y: 105), radius: 85), with: .color(.indigo))
        context.fill(star(center: CGPoint(x: 300, y: 105), radius: 85), with: .color(.indigo),
                     style: FillStyle(eoFill: true))
    }

    static let strokes = Example(
        name: "strokes", summary: "line caps, line joins, a miter limit, and dashes with a phase",
        size: CGSize(width: 420, height: 300), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let caps: [CGLineCap] = [.butt, .round, .square]
        for (i, cap) in caps.enumerated() {
            let y = 30 + CGFloat(i) * 30
            let line = Path { p in p.move(to: CGPoint(x: 30, y: y)); p.addLine(to: CGPoint(x: 170, y: y)) }
            context.stroke(line, with: .color(.blue), style: StrokeStyle(lineWidth: 16, lineCap: cap))
            context.stroke(line, with: .color(.white), lineWidth: 1)
        }
        let joins: [CGLineJoin] = [.miter, .round, .bevel]
        for (i, join) in joins.enumerated() {
            let x = 220 + CGFloat(i) * 65
            let zigzag = Path { p in
                p.move(to: CGPoint(x: x, y: 100)); p.addLine(to: CGPoint(x: x + 25, y: 25))
                p.addLine(to: CGPoint(x: x + 50, y: 100))
            }
            context.stroke(zigzag, with: .color(.orange), style: StrokeStyle(lineWidth: 14, lineJoin: join))
        }
        // The same sharp corner under two miter limits: the low limit turns the spike into a bevel.
        for (i, limit) in [CGFloat(10), 2].enumerated() {
            let x = 40 + CGFloat(i) * 120
            let spike = Path { p in
                // A 37° corner: its miter is 3.2 widths long, inside limit 10 and beyond limit 2.
                p.move(to: CGPoint(x: x, y: 190)); p.addLine(to: CGPoint(x: x + 20, y: 130))
                p.addLine(to: CGPoint(x: x + 40, y: 190))
            }
            context.stroke(spike, with: .color(.red), style: StrokeStyle(lineWidth: 10, miterLimit: limit))
        }
        for (i, phase) in [CGFloat(0), 10, 20].enumerated() {
            let y = 230 + CGFloat(i) * 22
            let line = Path { p in p.move(to: CGPoint(x: 260, y: y)); p.addLine(to: CGPoint(x: 400, y: y)) }
            context.stroke(line, with: .color(.green),
                           style: StrokeStyle(lineWidth: 8, lineCap: .round, dash: [20, 12], dashPhase: phase))
        }
        let circle = Path(ellipseIn: CGRect(x: 290, y: 130, width: 80, height: 80))
        context.stroke(circle, with: .color(.purple), style: StrokeStyle(lineWidth: 4, dash: [8, 4, 2, 4]))
    }

    static let transforms = Example(
        name: "transforms", summary: "rotate, scale and skew; copies of a context keep their own transform",
        size: CGSize(width: 400, height: 240), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(white: 0.97))
        let square = Path(CGRect(x: -25, y: -25, width: 50, height: 50))
        // A fan of rotated squares drawn through one copy, each step rotating a little further.
        var fan = context
        fan.translateBy(x: 90, y: 120)
        for k in 0 ..< 6 {
            fan.fill(square, with: .color(.blue.opacity(0.25 + 0.12 * Double(k))))
            fan.rotate(by: .degrees(15))
        }
        var scaled = context
        scaled.translateBy(x: 210, y: 120)
        scaled.scaleBy(x: 1.6, y: 0.8)
        scaled.fill(square, with: .color(.orange))
        var skewed = context
        skewed.translateBy(x: 320, y: 120)
        skewed.concatenate(CGAffineTransform(a: 1, b: 0, c: 0.6, d: 1, tx: 0, ty: 0))
        skewed.fill(square, with: .color(.green))
        // The original context is untouched by its copies: this lands at the top-left corner.
        context.stroke(square.offsetBy(dx: 30, dy: 30), with: .color(.red), lineWidth: 2)
    }

    static let opacity = Example(
        name: "opacity", summary: "context opacity over overlapping circles on an opaque canvas",
        size: CGSize(width: 360, height: 220), scale: 2, opaque: true
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(white: 0.15))
        let centers = [CGPoint(x: 140, y: 90), CGPoint(x: 220, y: 90), CGPoint(x: 180, y: 150)]
        let colors: [Color] = [.red, .green, .blue]
        var c = context
        c.opacity = 0.6
        for (center, color) in zip(centers, colors) {
            c.fill(Path(ellipseIn: CGRect(x: center.x - 60, y: center.y - 60, width: 120, height: 120)),
                   with: .color(color))
        }
        // Colours with their own opacity multiply with the context's.
        c.fill(Path(CGRect(x: 20, y: 20, width: 60, height: 180)), with: .color(.white.opacity(0.5)))
    }

    static let arcs = Example(
        name: "arcs", summary: "arcs clockwise and counter-clockwise, pie slices and a progress ring",
        size: CGSize(width: 400, height: 200), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let slices: [(Double, Color)] = [(0.35, .blue), (0.25, .orange), (0.2, .green), (0.2, .pink)]
        var start = -90.0
        let center = CGPoint(x: 100, y: 100)
        for (share, color) in slices {
            let end = start + share * 360
            let slice = Path { p in
                p.move(to: center)
                p.addArc(center: center, radius: 80, startAngle: .degrees(start), endAngle: .degrees(end), clockwise: false)
                p.closeSubpath()
            }
            context.fill(slice, with: .color(color))
            start = end
        }
        let ringCenter = CGPoint(x: 300, y: 100)
        let track = Path { p in p.addArc(center: ringCenter, radius: 70, startAngle: .zero, endAngle: .degrees(360), clockwise: false) }
        context.stroke(track, with: .color(.gray.opacity(0.3)), lineWidth: 14)
        let progress = Path { p in
            p.addArc(center: ringCenter, radius: 70, startAngle: .degrees(-90), endAngle: .degrees(160), clockwise: false)
        }
        context.stroke(progress, with: .color(.purple), style: StrokeStyle(lineWidth: 14, lineCap: .round))
        // The clockwise flag: from 0° to 90° the short way (false) or the long way round (true).
        let short = Path { p in p.addArc(center: ringCenter, radius: 40, startAngle: .zero, endAngle: .degrees(90), clockwise: false) }
        let long = Path { p in p.addArc(center: ringCenter, radius: 25, startAngle: .zero, endAngle: .degrees(90), clockwise: true) }
        context.stroke(short, with: .color(.red), lineWidth: 4)
        context.stroke(long, with: .color(.teal), lineWidth: 4)
    }
}

// MARK: Clips, gradients, blend modes and layers

extension Example {
    /// The seed documents' clip sample: the ellipse fills the whole canvas, the clip keeps a quarter of it.
    static let clippedQuadrant = Example(
        name: "clipped-quadrant", summary: "a green ellipse filling a 300×200 pt canvas, clipped to the top-left quadrant",
        size: CGSize(width: 300, height: 200), scale: 2
    ) { context, size in
        let topLeft = CGRect(x: 0, y: 0, width: size.width / 2, height: size.height / 2)
        context.clip(to: Path(topLeft))
        context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
    }

    /// The seed documents' copied-context sample: a clip set on a copy stays on the copy.
    static let maskedCopy = Example(
        name: "masked-copy", summary: "a copied context clips its green ellipse to a quadrant; the original's blue rect is unclipped",
        size: CGSize(width: 300, height: 200), scale: 2
    ) { context, size in
        let quarter = CGSize(width: size.width / 2, height: size.height / 2)
        var clipped = context
        clipped.clip(to: Path(CGRect(origin: .zero, size: quarter)))
        clipped.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
        // Back on the original context: no clip here, so the rectangle shows whole, over the clipped ellipse.
        let centred = CGRect(origin: CGPoint(x: size.width / 4, y: size.height / 4), size: quarter)
        context.fill(Path(centred), with: .color(.blue))
    }

    /// The seed article's card: a thick blue outline, then a diagonal green→blue gradient fill over its inner half.
    static let gradientCard = Example(
        name: "gradient-card", summary: "a rounded rect stroked blue 25 pt wide, then filled with a green→blue linear gradient",
        size: CGSize(width: 300, height: 200), scale: 2
    ) { context, size in
        let card = CGRect(origin: .zero, size: size).insetBy(dx: 25, dy: 25)
        let outline = Path(roundedRect: card, cornerRadius: 35)
        context.stroke(outline, with: .color(.blue), lineWidth: 25)
        // The gradient runs corner to corner of the card: green at its top-left, blue at its bottom-right.
        let diagonal = Gradient(colors: [.green, .blue])
        context.fill(outline, with: .linearGradient(diagonal, startPoint: CGPoint(x: card.minX, y: card.minY),
                                                    endPoint: CGPoint(x: card.maxX, y: card.maxY)))
    }

    /// Rows: linear, concentric radial, two-point radial, conic. Columns: pad, `.repeat`, `.mirror`, and pad
    /// with `.linearColor` (interpolation in linear light, next to the pad tile's sRGB interpolation). The
    /// gradients span the middle of each tile only, so the spread modes show around them; a conic gradient's
    /// parameter never leaves 0…1, so its three spread tiles agree. The wide right-hand column: the UnitPoint
    /// styles (`LinearGradient`, `RadialGradient`, `EllipticalGradient`, `AngularGradient` with a
    /// three-quarter sweep) on 2:1 tiles, where the geometry follows the tile's bounds.
    static let gradientGallery = Example(
        name: "gradient-gallery",
        summary: "linear, radial, two-point and conic gradients × pad/repeat/mirror/linearColor; UnitPoint styles",
        size: CGSize(width: 480, height: 320), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let colors = Gradient(colors: [.blue, .pink, .yellow])
        let margin: CGFloat = 10, gap: CGFloat = 8
        let tile = CGSize(width: 70, height: (size.height - 2 * margin - 3 * gap) / 4)
        let wide = CGSize(width: size.width - 2 * margin - 4 * (tile.width + gap), height: tile.height)

        let spreads: [GraphicsContext.GradientOptions] = [[], .repeat, .mirror, .linearColor]
        for row in 0 ..< 4 {
            let y = margin + CGFloat(row) * (tile.height + gap)
            let w = tile.width, h = tile.height
            for (column, options) in spreads.enumerated() {
                var c = context
                c.translateBy(x: margin + CGFloat(column) * (tile.width + gap), y: y)
                let shading: GraphicsContext.Shading
                switch row {
                case 0:
                    shading = .linearGradient(colors, startPoint: CGPoint(x: w * 0.38, y: h * 0.4),
                                              endPoint: CGPoint(x: w * 0.62, y: h * 0.6), options: options)
                case 1:
                    shading = .radialGradient(colors, center: CGPoint(x: w / 2, y: h / 2), startRadius: 4,
                                              endRadius: 16, options: options)
                case 2:
                    // The start circle sits up and left inside the end circle: a lopsided set of rings.
                    shading = .radialGradient(AnyGradient(colors), startCenter: CGPoint(x: w * 0.4, y: h * 0.38),
                                              startRadius: 2, endCenter: CGPoint(x: w / 2, y: h / 2), endRadius: 16,
                                              options: options)
                default:
                    shading = .conicGradient(colors, center: CGPoint(x: w / 2, y: h / 2), angle: .degrees(-90),
                                             options: options)
                }
                c.fill(Path(roundedRect: CGRect(origin: .zero, size: tile), cornerRadius: 8), with: shading)
            }
            var styled = context
            styled.translateBy(x: size.width - margin - wide.width, y: y)
            let card = Path(roundedRect: CGRect(origin: .zero, size: wide), cornerRadius: 8)
            switch row {
            case 0: styled.fill(card, with: .style(LinearGradient(gradient: colors, startPoint: .topLeading,
                                                                  endPoint: .bottomTrailing)))
            case 1: styled.fill(card, with: .style(RadialGradient(gradient: colors, center: .center, startRadius: 0,
                                                                  endRadius: 40)))
            case 2: styled.fill(card, with: .style(EllipticalGradient(gradient: colors, center: .center)))
            default: styled.fill(card, with: .style(AngularGradient(gradient: colors, center: .center,
                                                                    startAngle: .degrees(0), endAngle: .degrees(270))))
            }
        }
    }

    /// Every blend mode, in `BlendMode`'s raw-value order (normal, multiply, … plusLighter), seven to a row.
    /// Each tile is its own layer over a checkerboard: a translucent blue→yellow backdrop across the left
    /// three quarters, then a translucent red circle drawn in the tile's mode, half over the backdrop and half
    /// over nothing, so the Porter-Duff modes show what they do where the destination is empty.
    ///
    /// The bottom row: `.copy`, `.clear` and `.sourceIn` inside a clip (dashed), in pairs: left, the circle is
    /// filled directly (only the circle's pixels change); right, the circle is drawn with `drawLayer` (the
    /// layer covers the whole clip, transparent around the circle, so the whole clip region is replaced).
    static let blendModes = Example(
        name: "blend-modes", summary: "all 28 blend modes, and .copy/.clear/.sourceIn on a fill vs a drawLayer in a clip",
        size: CGSize(width: 480, height: 320), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        context.fill(checkerboard(size: size, square: 8), with: .color(white: 0.85))

        let modes: [GraphicsContext.BlendMode] = [
            .normal, .multiply, .screen, .overlay, .darken, .lighten, .colorDodge,
            .colorBurn, .softLight, .hardLight, .difference, .exclusion, .hue, .saturation,
            .color, .luminosity, .clear, .copy, .sourceIn, .sourceOut, .sourceAtop,
            .destinationOver, .destinationIn, .destinationOut, .destinationAtop, .xor, .plusDarker, .plusLighter,
        ]
        let backdrop = Gradient(colors: [.blue.opacity(0.8), .yellow.opacity(0.6)])
        let circle = Color.red.opacity(0.8)
        let margin: CGFloat = 8, gap: CGFloat = 6
        let tile = CGSize(width: (size.width - 2 * margin - 6 * gap) / 7, height: 50)
        for (i, mode) in modes.enumerated() {
            var c = context
            c.translateBy(x: margin + CGFloat(i % 7) * (tile.width + gap), y: margin + CGFloat(i / 7) * (tile.height + gap))
            let w = tile.width, h = tile.height
            c.drawLayer { layer in
                layer.fill(Path(roundedRect: CGRect(x: 0, y: 0, width: w * 0.72, height: h), cornerRadius: 6),
                           with: .linearGradient(backdrop, startPoint: .zero, endPoint: CGPoint(x: w * 0.72, y: 0)))
                var top = layer
                top.blendMode = mode
                let r = h * 0.36
                top.fill(Path(ellipseIn: CGRect(x: w * 0.72 - r, y: h / 2 - r, width: 2 * r, height: 2 * r)),
                         with: .color(circle))
            }
            c.stroke(Path(roundedRect: CGRect(origin: .zero, size: tile), cornerRadius: 6),
                     with: .color(.gray.opacity(0.6)), lineWidth: 0.5)
        }

        let rowY = margin + 4 * (tile.height + gap) + 6
        let cell = CGSize(width: (size.width - 2 * margin - 5 * gap) / 6, height: size.height - rowY - margin)
        for (i, mode) in [GraphicsContext.BlendMode.copy, .clear, .sourceIn].enumerated() {
            for asLayer in [false, true] {
                var c = context
                c.translateBy(x: margin + CGFloat(2 * i + (asLayer ? 1 : 0)) * (cell.width + gap), y: rowY)
                let w = cell.width, h = cell.height
                let clipRect = CGRect(x: 10, y: 10, width: w - 20, height: h - 20)
                let dot = Path(ellipseIn: CGRect(x: w / 2 - 12, y: h / 2 - 12, width: 24, height: 24))
                c.drawLayer { layer in
                    layer.fill(Path(roundedRect: CGRect(origin: .zero, size: cell), cornerRadius: 6),
                               with: .linearGradient(backdrop, startPoint: .zero, endPoint: CGPoint(x: w, y: h)))
                    var clipped = layer
                    clipped.clip(to: Path(roundedRect: clipRect, cornerRadius: 8))
                    clipped.blendMode = mode
                    if asLayer {
                        clipped.drawLayer { $0.fill(dot, with: .color(circle)) }
                    } else {
                        clipped.fill(dot, with: .color(circle))
                    }
                }
                c.stroke(Path(roundedRect: clipRect, cornerRadius: 8), with: .color(.black.opacity(0.6)),
                         style: StrokeStyle(lineWidth: 1, dash: [3, 3]))
            }
        }
    }

    /// Top row, four clips of one teal→indigo fill: the intersection of two circles (two `clip(to:)` calls),
    /// an even-odd star (its centre left out), an inverse circle (a hole), and all three at once. Bottom row:
    /// `clipToLayer` with a radial gradient fading to clear as a soft mask over coloured bars; three circles
    /// at 50 % as one `drawLayer` group (uniform, the overlaps no darker); the same circles drawn at 50 % each
    /// (the overlaps darker).
    static let clipsAndLayers = Example(
        name: "clips-and-layers",
        summary: "nested, even-odd and inverse clips, a clipToLayer soft mask, a 50 % group vs 50 % draws",
        size: CGSize(width: 480, height: 320), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let margin: CGFloat = 10, gap: CGFloat = 10
        let panel = CGSize(width: (size.width - 2 * margin - 3 * gap) / 4, height: 130)
        let fill = GraphicsContext.Shading.linearGradient(Gradient(colors: [.teal, .indigo]), startPoint: .zero,
                                                          endPoint: CGPoint(x: panel.width, y: panel.height))
        let w = panel.width, h = panel.height
        let left = Path(ellipseIn: CGRect(x: w / 2 - 42, y: h / 2 - 30, width: 60, height: 60))
        let right = Path(ellipseIn: CGRect(x: w / 2 - 18, y: h / 2 - 30, width: 60, height: 60))
        let star = starPath(center: CGPoint(x: w / 2, y: h / 2), radius: 48)
        let hole = Path(ellipseIn: CGRect(x: w / 2 - 20, y: h / 2 - 20, width: 40, height: 40))
        for column in 0 ..< 4 {
            var c = context
            c.translateBy(x: margin + CGFloat(column) * (panel.width + gap), y: margin)
            c.stroke(Path(roundedRect: CGRect(origin: .zero, size: panel), cornerRadius: 8),
                     with: .color(.gray.opacity(0.4)), lineWidth: 1)
            var clipped = c
            switch column {
            case 0:
                clipped.clip(to: left)
                clipped.clip(to: right)
            case 1:
                clipped.clip(to: star, style: FillStyle(eoFill: true))
            case 2:
                clipped.clip(to: hole, options: .inverse)
            default:
                clipped.clip(to: star, style: FillStyle(eoFill: true))
                clipped.clip(to: Path(CGRect(x: 0, y: h / 2 - 30, width: w, height: 60)))
                clipped.clip(to: Path(CGRect(x: w / 2 - 6, y: 0, width: 12, height: h)), options: .inverse)
            }
            clipped.fill(Path(roundedRect: CGRect(origin: .zero, size: panel).insetBy(dx: 6, dy: 6), cornerRadius: 5),
                         with: fill)
            if column == 0 {
                // The two clip shapes, outlined through the unclipped context.
                c.stroke(left, with: .color(.gray), lineWidth: 0.5)
                c.stroke(right, with: .color(.gray), lineWidth: 0.5)
            }
        }

        let lowY = margin + panel.height + gap
        let low = CGSize(width: (size.width - 2 * margin - 2 * gap) / 3, height: size.height - lowY - margin)
        let lw = low.width, lh = low.height

        // The soft mask: only the mask's alpha matters; its colour (black) does not.
        var masked = context
        masked.translateBy(x: margin, y: lowY)
        masked.clipToLayer { mask in
            mask.fill(Path(CGRect(origin: .zero, size: low)),
                      with: .radialGradient(Gradient(colors: [.black, .black, .clear]),
                                            center: CGPoint(x: lw / 2, y: lh / 2), startRadius: 0, endRadius: lh / 2))
        }
        let bars: [Color] = [.red, .orange, .yellow, .green, .blue, .purple]
        for (i, color) in bars.enumerated() {
            let bw = lw / CGFloat(bars.count)
            masked.fill(Path(CGRect(x: CGFloat(i) * bw, y: 0, width: bw, height: lh)), with: .color(color))
        }

        // Group vs each: grey stripes behind, so the 50 % is seen against something.
        for k in 1 ... 2 {
            var c = context
            c.translateBy(x: margin + CGFloat(k) * (low.width + gap), y: lowY)
            for s in stride(from: CGFloat(0), to: lh, by: 20) {
                c.fill(Path(CGRect(x: 0, y: s, width: lw, height: 10)), with: .color(white: 0.8))
            }
            let circles = [CGPoint(x: lw / 2 - 25, y: lh / 2 - 18), CGPoint(x: lw / 2 + 25, y: lh / 2 - 18),
                           CGPoint(x: lw / 2, y: lh / 2 + 22)].map { p in
                Path(ellipseIn: CGRect(x: p.x - 40, y: p.y - 40, width: 80, height: 80))
            }
            var half = c
            half.opacity = 0.5
            if k == 1 {
                half.drawLayer { group in
                    for circle in circles { group.fill(circle, with: .color(.blue)) }
                }
            } else {
                for circle in circles { half.fill(circle, with: .color(.blue)) }
            }
        }
    }

    /// The same small picture (a rainbow of bars under a gradient disc and a star) through each colour
    /// filter, one panel each: none, saturation 0, hue rotated 120°, brightness +0.3, contrast 2, colour
    /// invert, grayscale, colour multiply (orange), luminance to alpha (over a checker), an alpha threshold of
    /// three translucent circles drawn as one layer (only their overlaps pass), a channel-swapping colour
    /// matrix, and sepia as a chain of two (grayscale, then colour multiply: the last added runs first).
    static let colorFilters = Example(
        name: "color-filters",
        summary: "the colour filters (saturation, hue, brightness, contrast, invert, threshold, matrix…) on one picture",
        size: CGSize(width: 480, height: 250), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(white: 0.95))
        let swap: ColorMatrix = {
            var m = ColorMatrix()
            (m.r1, m.r3, m.b1, m.b3) = (0, 1, 1, 0)
            return m
        }()
        let panels: [(String, [GraphicsContext.Filter])] = [
            ("none", []), ("saturation", [.saturation(0)]), ("hue", [.hueRotation(.degrees(120))]),
            ("brightness", [.brightness(0.3)]), ("contrast", [.contrast(2)]), ("invert", [.colorInvert()]),
            ("grayscale", [.grayscale(1)]), ("multiply", [.colorMultiply(.orange)]), ("luminance", [.luminanceToAlpha]),
            ("threshold", [.alphaThreshold(min: 0.5, color: .indigo)]), ("matrix", [.colorMatrix(swap)]),
            ("sepia", [.colorMultiply(Color(red: 1, green: 0.85, blue: 0.6)), .grayscale(1)]),
        ]
        let columns = 6, margin: CGFloat = 8, gap: CGFloat = 8
        let w = (size.width - 2 * margin - CGFloat(columns - 1) * gap) / CGFloat(columns)
        let h = (size.height - 2 * margin - gap) / 2
        for (i, (name, filters)) in panels.enumerated() {
            var c = context
            c.translateBy(x: margin + CGFloat(i % columns) * (w + gap), y: margin + CGFloat(i / columns) * (h + gap))
            if name == "luminance" {
                for y in stride(from: CGFloat(0), to: h, by: 8) {
                    for x in stride(from: CGFloat(Int(y / 8) % 2) * 8, to: w, by: 16) {
                        c.fill(Path(CGRect(x: x, y: y, width: 8, height: 8)), with: .color(white: 0.8))
                    }
                }
            }
            for f in filters { c.addFilter(f) }
            if name == "threshold" {
                // Three aliased circles at alpha 0.35 as one layer: alone each stays under the threshold, where
                // two overlap (0.58) or all three (0.73) they pass it. (Aliased, so that no pixel's alpha sits at
                // the threshold itself, where the two backends may decide either way.)
                c.drawLayer { p in
                    let r = w * 0.3
                    for centre in [CGPoint(x: w * 0.35, y: h * 0.35), CGPoint(x: w * 0.65, y: h * 0.35), CGPoint(x: w * 0.5, y: h * 0.62)] {
                        p.fill(Path(ellipseIn: CGRect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r)),
                               with: .color(.black.opacity(0.35)), style: FillStyle(antialiased: false))
                    }
                }
                continue
            }
            // Luminance to alpha shows any pixel the picture touches at its full colour's luminance, however
            // little it covers it: its edges are drawn aliased so that no pixel is a sliver.
            let style = FillStyle(antialiased: name != "luminance")
            c.drawLayer { p in
                let colors: [Color] = [.red, .orange, .yellow, .green, .blue, .purple]
                for (k, color) in colors.enumerated() {
                    p.fill(Path(CGRect(x: CGFloat(k) * w / 6, y: 0, width: w / 6 + 0.5, height: h * 0.35)), with: .color(color),
                           style: style)
                }
                p.fill(Path(ellipseIn: CGRect(x: w * 0.1, y: h * 0.25, width: w * 0.8, height: w * 0.8)),
                       with: .radialGradient(Gradient(colors: [.white, .teal.opacity(0.6), .pink.opacity(0.3)]),
                                             center: CGPoint(x: w / 2, y: h * 0.25 + w * 0.4), startRadius: 0,
                                             endRadius: w * 0.4), style: style)
                p.fill(starPath(center: CGPoint(x: w * 0.72, y: h * 0.82), radius: w * 0.18), with: .color(.mint), style: style)
            }
        }
    }

    // MARK: Blur, shadow and projection

    /// The seeds' three houses (`Image(systemName: "house.fill")` red, green, blue, drawn at 4×, the middle one
    /// blurred by radius 1 with `.dithersResult` in linear light), three ways: by ordering (the filter added just
    /// before the middle house, drawn last), by a copied context, by a layer. The three give the same bytes: a
    /// filter acts on the draws after it, through the context it was added to, and a layer of one draw is that
    /// draw. The houses stand a house's width apart, as in the seed: the image box's margins (24 pt across, the
    /// ink 20 pt of it) keep the blur's reach (3σ = 3 scaled points) off the neighbours, so the green house
    /// drawn over or under the blue one is the same picture.
    static let threeHousesByOrdering = houses("three-houses-ordering", "the middle of three houses blurred, by drawing it last") {
        context, house, midpoint, step in
        var context = context, house = house
        house.shading = .color(.red)
        context.draw(house, at: midpoint - CGPoint(x: step, y: 0), anchor: .center)
        house.shading = .color(.blue)
        context.draw(house, at: midpoint + CGPoint(x: step, y: 0), anchor: .center)
        context.addFilter(.blur(radius: 1.0, options: .dithersResult), options: .linearColor)
        house.shading = .color(.green)
        context.draw(house, at: midpoint, anchor: .center)
    }

    static let threeHousesByCopy = houses("three-houses-copy", "the middle of three houses blurred, through a copied context") {
        context, house, midpoint, step in
        var context = context, house = house
        house.shading = .color(.red)
        context.draw(house, at: midpoint - CGPoint(x: step, y: 0), anchor: .center)
        var blurContext = context
        blurContext.addFilter(.blur(radius: 1.0, options: .dithersResult), options: .linearColor)
        house.shading = .color(.green)
        blurContext.draw(house, at: midpoint, anchor: .center)
        house.shading = .color(.blue)
        context.draw(house, at: midpoint + CGPoint(x: step, y: 0), anchor: .center)
    }

    static let threeHousesByLayer = houses("three-houses-layer", "the middle of three houses blurred, in a layer") {
        context, house, midpoint, step in
        var context = context, house = house
        house.shading = .color(.red)
        context.draw(house, at: midpoint - CGPoint(x: step, y: 0), anchor: .center)
        context.drawLayer { layerContext in
            layerContext.addFilter(.blur(radius: 1.0, options: .dithersResult), options: .linearColor)
            house.shading = .color(.green)
            layerContext.draw(house, at: midpoint, anchor: .center)
        }
        house.shading = .color(.blue)
        context.draw(house, at: midpoint + CGPoint(x: step, y: 0), anchor: .center)
    }

    /// A 360 × 120 pt canvas at scale 1 on white, drawn at 4× like the seed, with the house symbol resolved in
    /// the scaled context: the three houses side by side, their centres `step` (a house's width) apart.
    private static func houses(
        _ name: String, _ summary: String,
        _ body: @escaping @Sendable (GraphicsContext, GraphicsContext.ResolvedImage, CGPoint, CGFloat) -> Void
    ) -> Example {
        Example(name: name, summary: summary, size: CGSize(width: 360, height: 120), scale: 1) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            context.scaleBy(x: 4, y: 4)
            let midpoint = CGPoint(x: size.width / (2 * 4), y: size.height / (2 * 4))
            let house = context.resolve(Image(systemName: "house.fill"))
            body(context, house, midpoint, house.size.width)
        }
    }

    /// Blurs at σ 1, 4 and 12 (the last two on a downsampled grid), a blurred layer of three shapes, the shadow
    /// options (default, above in purple, only, an inner shadow by invertsAlpha + sourceAtop), shadows composited
    /// apart from their translucent draws (`disablesGroup`), and a perspective projection of a card.
    static let blursAndShadows = Example(
        name: "blurs-and-shadows",
        summary: "Gaussian blurs (σ 1, 4, 12, a blurred layer), the shadow options, an inner shadow, a perspective projection",
        size: CGSize(width: 480, height: 250), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(white: 0.96))
        let columns = 5, margin: CGFloat = 10, gap: CGFloat = 10
        let w = (size.width - 2 * margin - CGFloat(columns - 1) * gap) / CGFloat(columns)
        let h = (size.height - 2 * margin - gap) / 2
        func panel(_ i: Int) -> GraphicsContext {
            var c = context
            c.translateBy(x: margin + CGFloat(i % columns) * (w + gap), y: margin + CGFloat(i / columns) * (h + gap))
            return c
        }
        let card = Path(roundedRect: CGRect(x: w * 0.2, y: h * 0.2, width: w * 0.6, height: h * 0.5), cornerRadius: 10)
        for (i, radius) in [1.0, 4.0, 12.0].enumerated() {
            var c = panel(i)
            c.addFilter(.blur(radius: radius))
            c.fill(card, with: .linearGradient(Gradient(colors: [.orange, .pink]), startPoint: .zero,
                                               endPoint: CGPoint(x: w, y: h)))
        }
        var layered = panel(3)
        layered.addFilter(.blur(radius: 3))
        layered.drawLayer { l in
            l.fill(Path(ellipseIn: CGRect(x: w * 0.1, y: h * 0.15, width: w * 0.5, height: w * 0.5)), with: .color(.blue.opacity(0.7)))
            l.fill(Path(ellipseIn: CGRect(x: w * 0.4, y: h * 0.3, width: w * 0.5, height: w * 0.5)), with: .color(.yellow.opacity(0.7)))
            l.stroke(Path(CGRect(x: w * 0.2, y: h * 0.6, width: w * 0.6, height: h * 0.25)), with: .color(.black), lineWidth: 2)
        }
        let shadows: [(GraphicsContext.ShadowOptions, GraphicsContext.BlendMode, Color)] = [
            ([], .normal, .black.opacity(0.5)), (.shadowAbove, .normal, .purple.opacity(0.5)), (.shadowOnly, .normal, .black),
            ([.shadowAbove, .invertsAlpha], .sourceAtop, .black.opacity(0.8)),
        ]
        for (k, (options, mode, color)) in shadows.enumerated() {
            var c = panel(4 + k)
            c.addFilter(.shadow(color: color, radius: 3, x: 5, y: 6, blendMode: mode, options: options))
            c.fill(card, with: .color(.teal))
        }
        // Two overlapping cards at half opacity casting one shadow each, composited apart (`disablesGroup`): the
        // shadow shows through each card.
        var apart = panel(8)
        apart.opacity = 0.5
        apart.addFilter(.shadow(color: .black, radius: 2, x: 4, y: 4, options: .disablesGroup))
        apart.fill(Path(ellipseIn: CGRect(x: w * 0.15, y: h * 0.2, width: w * 0.45, height: w * 0.45)), with: .color(.red))
        apart.fill(Path(ellipseIn: CGRect(x: w * 0.4, y: h * 0.35, width: w * 0.45, height: w * 0.45)), with: .color(.blue))
        var projected = panel(9)
        var m = ProjectionTransform()
        m.m13 = 0.004
        m.m31 = 4
        projected.addFilter(.projectionTransform(m))
        projected.fill(card, with: .color(.indigo))
        projected.stroke(card, with: .color(.white), lineWidth: 3)
    }

    /// The seed article's resolved text: "Hello World!" in "Arial Rounded MT Bold" (a sans substitute here),
    /// measured, filled with a green → blue gradient across its own width and centred.
    static let helloWorld = Example(
        name: "hello-world",
        summary: "\"Hello World!\" measured, filled with a green→blue gradient across its width, centred",
        size: CGSize(width: 300, height: 100), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        var resolved = context.resolve(Text("Hello World!").font(.custom("Arial Rounded MT Bold", size: 36)))
        let start = CGPoint(x: (size.width - resolved.measure(in: size).width) / 2, y: 0)
        resolved.shading = .linearGradient(Gradient(colors: [.green, .blue]), startPoint: start,
                                           endPoint: CGPoint(x: size.width - start.x, y: 0))
        context.draw(resolved, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
    }

    /// A bar chart as a server renders one: a title, y-axis ticks with right-aligned labels, bars with their
    /// values above them, x-axis labels centred under the bars, and a rotated axis title.
    static let chartWithLabels = Example(
        name: "chart-labels",
        summary: "a bar chart with a title, tick labels, value labels and a rotated axis title",
        size: CGSize(width: 420, height: 280), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun"]
        let values: [Double] = [12, 19, 7, 24, 16, 21]
        let plot = CGRect(x: 64, y: 44, width: size.width - 84, height: size.height - 88)
        context.draw(Text("Orders per month").font(.headline), at: CGPoint(x: size.width / 2, y: 12), anchor: .top)
        for tick in stride(from: 0, through: 25, by: 5) {
            let y = plot.maxY - plot.height * CGFloat(tick) / 25
            context.stroke(Path { $0.move(to: CGPoint(x: plot.minX, y: y)); $0.addLine(to: CGPoint(x: plot.maxX, y: y)) },
                           with: .color(.gray.opacity(tick == 0 ? 0.9 : 0.3)), lineWidth: 1)
            context.draw(Text("\(tick)").font(.caption).monospacedDigit().foregroundColor(.secondary),
                         at: CGPoint(x: plot.minX - 6, y: y), anchor: .trailing)
        }
        let slot = plot.width / CGFloat(values.count)
        for (i, v) in values.enumerated() {
            let h = plot.height * CGFloat(v) / 25
            let bar = CGRect(x: plot.minX + CGFloat(i) * slot + slot * 0.2, y: plot.maxY - h, width: slot * 0.6, height: h)
            context.fill(Path(roundedRect: bar, cornerRadius: 4),
                         with: .linearGradient(Gradient(colors: [.teal, .blue]), startPoint: CGPoint(x: 0, y: bar.minY),
                                               endPoint: CGPoint(x: 0, y: bar.maxY)))
            context.draw(Text(String(format: "%.0f", v)).font(.caption2.bold()), at: CGPoint(x: bar.midX, y: bar.minY - 3),
                         anchor: .bottom)
            context.draw(Text(months[i]).font(.footnote), at: CGPoint(x: bar.midX, y: plot.maxY + 6), anchor: .top)
        }
        var axis = context
        axis.translateBy(x: 18, y: plot.midY)
        axis.rotate(by: .degrees(-90))
        axis.draw(Text("orders").font(.subheadline).italic(), at: .zero, anchor: .center)
    }

    /// One line per script, each shaped by HarfBuzz in the face fontconfig finds for it: Latin with kerning and
    /// ligatures, Greek, Cyrillic, Arabic and Hebrew right to left, Devanagari's conjuncts, CJK ideographs, and
    /// colour emoji from their bitmap strike.
    static let mixedScripts = Example(
        name: "mixed-scripts",
        summary: "Latin, Greek, Cyrillic, Arabic, Hebrew, Devanagari, CJK and colour emoji, each in a fallback face",
        size: CGSize(width: 360, height: 300), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let lines: [(String, Font)] = [
            ("Typography: AVATAR office ffi", .system(size: 20, weight: .semibold)),
            ("Ελληνικά · Русский текст", .system(size: 20)),
            ("مرحبا بالعالم", .system(size: 22)),
            ("שלום עולם", .system(size: 22)),
            ("नमस्ते दुनिया", .system(size: 22)),
            ("你好，世界", .system(size: 22)),
            ("Emoji: 👋 🎉 😀 🚀", .system(size: 22)),
            ("Serif italic, monospaced 0123", .system(size: 18, design: .serif).italic()),
        ]
        var y: CGFloat = 14
        for (i, (string, font)) in lines.enumerated() {
            let text = i == lines.count - 1
                ? Text("Serif italic, ").font(font) + Text("monospaced 0123").font(.system(size: 18, design: .monospaced))
                : Text(string).font(font)
            context.draw(text.foregroundColor(Color(hue: Double(i) / Double(lines.count), saturation: 0.7, brightness: 0.45)),
                         at: CGPoint(x: 16, y: y), anchor: .topLeading)
            y += 35
        }
    }

    /// A five-pointed star drawn in one stroke (each point joined to the one two along), so its centre
    /// pentagon is wound twice: filled there by the non-zero rule, left empty by even-odd.
    private static func starPath(center: CGPoint, radius: CGFloat) -> Path {
        Path { p in
            for k in 0 ..< 5 {
                let angle = -Double.pi / 2 + Double(k) * 4 * Double.pi / 5
                let point = CGPoint(x: center.x + radius * CGFloat(cos(angle)), y: center.y + radius * CGFloat(sin(angle)))
                if k == 0 { p.move(to: point) } else { p.addLine(to: point) }
            }
            p.closeSubpath()
        }
    }

    /// Every other `square`-sized cell of a `size` canvas, as one path.
    private static func checkerboard(size: CGSize, square: CGFloat) -> Path {
        Path { p in
            var row = 0
            for y in stride(from: CGFloat(0), to: size.height, by: square) {
                for (column, x) in stride(from: CGFloat(0), to: size.width, by: square).enumerated() where (row + column) % 2 == 1 {
                    p.addRect(CGRect(x: x, y: y, width: square, height: square))
                }
                row += 1
            }
        }
    }
}

extension CGPoint {
    /// The seeds' point arithmetic (S12 defines these itself).
    fileprivate static func + (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x + r.x, y: l.y + r.y) }
    fileprivate static func - (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x - r.x, y: l.y - r.y) }
}
