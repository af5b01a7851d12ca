// The seed documents' pictures as built-in examples, `seed-s01` … `seed-s14`: each draws what its seed sample
// (../shared/seeds, S01–S14) draws, written here in this file's own words with the same API calls. A sample
// that is a view is an `Example` of a view (laid out and recorded by `ImageRenderer`); S07, a function
// returning paths, is a canvas stroking the four paths. Where a sample's picture depends on something it leaves
// open, the example fixes it: S05's 50 rects are a seeded list, S11 is shown at t = 0.125 s, S14 at a fixed date.
import GPUCanvas

extension Example {
    /// In the order `canvas-gl examples` lists them, after the other examples.
    static var seeds: [Example] {
        [seedS01, seedS02, seedS03, seedS04, seedS05, seedS06, seedS07, seedS08, seedS09, seedS10, seedS11,
         seedS12, seedS13, seedS14]
    }

    /// The size the seeds' canvases are framed to (S01–S05), and proposed where a sample leaves it open.
    static let seedCanvas = CGSize(width: 300, height: 200)

    static let seedS01 = Example(
        name: "seed-s01", summary: "seed S01: a green 4 pt ellipse outline in a 300×200 canvas view with a blue border",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green), lineWidth: 4)
            }
            .frame(width: 300, height: 200)
            .border(Color.blue)
        )
    }

    static let seedS02 = Example(
        name: "seed-s02", summary: "seed S02: the same ellipse filled green", proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
            }
            .frame(width: 300, height: 200)
        )
    }

    static let seedS03 = Example(
        name: "seed-s03", summary: "seed S03: the filled ellipse clipped to the canvas's top-left quadrant",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                let quarter = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
                context.clip(to: Path(CGRect(origin: .zero, size: quarter)))
                context.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
            }
            .frame(width: 300, height: 200)
        )
    }

    static let seedS04 = Example(
        name: "seed-s04", summary: "seed S04: a copied context clips its ellipse; the original fills an unclipped blue rectangle",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                let quarter = size.applying(CGAffineTransform(scaleX: 0.5, y: 0.5))
                var clipped = context
                clipped.clip(to: Path(CGRect(origin: .zero, size: quarter)))
                clipped.fill(Path(ellipseIn: CGRect(origin: .zero, size: size)), with: .color(.green))
                context.fill(Path(CGRect(origin: CGPoint(x: size.width / 4, y: size.height / 4), size: quarter)),
                             with: .color(.blue))
            }
            .frame(width: 300, height: 200)
        )
    }

    static let seedS05 = Example(
        name: "seed-s05", summary: "seed S05: a scatter plot, the symbol Image(systemName: \"circle\") drawn in 50 seeded rects, blue border",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            SeedScatterPlot(rects: seededScatterRects(), mark: Image(systemName: "circle"))
        )
    }

    static let seedS06 = Example(
        name: "seed-s06", summary: "seed S06: a rounded rectangle stroked blue 25 pt, then filled with a green→blue gradient",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                let card = CGRect(origin: .zero, size: size).insetBy(dx: 25, dy: 25)
                let outline = Path(roundedRect: card, cornerRadius: 35)
                context.stroke(outline, with: .color(.blue), lineWidth: 25)
                context.fill(outline, with: .linearGradient(Gradient(colors: [.green, .blue]), startPoint: card.origin,
                                                            endPoint: CGPoint(x: card.maxX, y: card.maxY)))
            }
        )
    }

    /// S07's four constructors on one 100 × 100 square each, side by side, each stroked in its own colour.
    static let seedS07 = Example(
        name: "seed-s07", summary: "seed S07: a continuous rounded rect, CGPath(ellipseIn:), addLines, Circle().path(in:)",
        size: CGSize(width: 480, height: 140), scale: 2
    ) { context, size in
        let square = CGRect(x: 0, y: 0, width: 100, height: 100)
        let paths: [(Path, Color)] = [
            (Path(roundedRect: square, cornerSize: CGSize(width: 10, height: 50), style: .continuous), .orange),
            (Path(CGPath(ellipseIn: square, transform: nil)), .green),
            (Path { p in
                p.move(to: .zero)
                p.addLines([CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 50), CGPoint(x: 100, y: 100), CGPoint(x: 100, y: 0)])
            }, .blue),
            (Circle().path(in: square), .purple),
        ]
        for (i, (path, color)) in paths.enumerated() {
            var panel = context
            panel.translateBy(x: 20 + CGFloat(i) * 115, y: 20)
            panel.stroke(path, with: .color(color), lineWidth: 3)
        }
    }

    static let seedS08 = Example(
        name: "seed-s08", summary: "seed S08: \"Hello World!\" in a canvas view, measured, green→blue gradient, centred",
        proposing: CGSize(width: 300, height: 100), scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                var hello = context.resolve(Text("Hello World!").font(.custom("Arial Rounded MT Bold", size: 36)))
                let inset = (size.width - hello.measure(in: size).width) / 2
                hello.shading = .linearGradient(Gradient(colors: [.green, .blue]), startPoint: CGPoint(x: inset, y: 0),
                                                endPoint: CGPoint(x: size.width - inset, y: 0))
                context.draw(hello, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
            }
        )
    }

    static let seedS09 = Example(
        name: "seed-s09", summary: "seed S09: three tagged rounded-rectangle symbols (cyan, blue, indigo) drawn four times",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            SeedOverlappingSymbols {
                RoundedRectangle(cornerRadius: 10).fill(.cyan).frame(width: 100, height: 50).tag(0)
                RoundedRectangle(cornerRadius: 10).fill(.blue).frame(width: 100, height: 50).tag(1)
                RoundedRectangle(cornerRadius: 10).fill(.indigo).frame(width: 100, height: 50).tag(2)
            }
        )
    }

    static let seedS10 = Example(
        name: "seed-s10", summary: "seed S10: the same three symbols made by ForEach",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            SeedOverlappingSymbols {
                ForEach(Array([Color.cyan, .blue, .indigo].enumerated()), id: \.0) { index, color in
                    RoundedRectangle(cornerRadius: 10).fill(color).frame(width: 100, height: 50).tag(index)
                }
            }
        )
    }

    /// The seed's spinning view is an empty `Text`, which draws nothing; here it spins an arrow symbol so that
    /// the turn shows, at t = 0.125 s: an eighth of a turn (45°).
    static let seedS11 = Example(
        name: "seed-s11", summary: "seed S11: an animated symbol, a view spinning 360° per second, at t = 0.125 s (45°)",
        proposing: CGSize(width: 200, height: 200), scale: 2, time: 0.125
    ) {
        AnyView(
            Canvas { context, size in
                let spinner = context.resolveSymbol(id: 1)!
                context.draw(spinner, at: CGPoint(x: size.width / 2, y: size.height / 2), anchor: .center)
            } symbols: {
                SeedSpinner().tag(1)
            }
        )
    }

    /// S12a, the filter added before the middle house is drawn last; `three-houses-*` are the three ways as
    /// renderer closures.
    static let seedS12 = Example(
        name: "seed-s12", summary: "seed S12: three house.fill symbols at 4×, red, green, blue, the middle one blurred",
        proposing: CGSize(width: 360, height: 120), scale: 1
    ) {
        AnyView(
            Canvas { context, size in
                context.scaleBy(x: 4, y: 4)
                let centre = CGPoint(x: size.width / 8, y: size.height / 8)
                var house = context.resolve(Image(systemName: "house.fill"))
                let step = house.size.width
                house.shading = .color(.red)
                context.draw(house, at: CGPoint(x: centre.x - step, y: centre.y), anchor: .center)
                house.shading = .color(.blue)
                context.draw(house, at: CGPoint(x: centre.x + step, y: centre.y), anchor: .center)
                context.addFilter(.blur(radius: 1, options: .dithersResult), options: .linearColor)
                house.shading = .color(.green)
                context.draw(house, at: centre, anchor: .center)
            }
        )
    }

    /// The seed's `withCGContext` body is a placeholder comment (it draws nothing); here it holds Core Graphics
    /// code: a filled and stroked rounded badge, a dashed diagonal and an ellipse, under a saved state.
    static let seedS13 = Example(
        name: "seed-s13", summary: "seed S13: Core Graphics code inside withCGContext (a badge, a dashed line, an ellipse)",
        proposing: seedCanvas, scale: 2
    ) {
        AnyView(
            Canvas { context, size in
                context.withCGContext { cg in
                    cg.saveGState()
                    cg.setFillColor(red: 1, green: 0.8, blue: 0, alpha: 1)
                    cg.setStrokeColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
                    cg.setLineWidth(4)
                    cg.addPath(CGPath(roundedRect: CGRect(x: 30, y: 30, width: 140, height: 90), cornerWidth: 16,
                                      cornerHeight: 16, transform: nil))
                    cg.drawPath(using: .fillStroke)
                    cg.restoreGState()
                    cg.setStrokeColor(red: 0, green: 0.48, blue: 1, alpha: 1)
                    cg.setLineWidth(3)
                    cg.setLineDash(phase: 0, lengths: [10, 6])
                    cg.strokeLineSegments(between: [CGPoint(x: 20, y: 180), CGPoint(x: 280, y: 20)])
                    cg.setLineDash(phase: 0, lengths: [])
                    cg.setFillColor(red: 0.35, green: 0.34, blue: 0.84, alpha: 0.8)
                    cg.fillEllipse(in: CGRect(x: 190, y: 100, width: 80, height: 80))
                }
            }
        )
    }

    /// The clock 7.5 s past a minute: the second hand points up and right (45°).
    static let seedS14 = Example(
        name: "seed-s14", summary: "seed S14: a clock, a face canvas and a TimelineView of a hands canvas in a ZStack, at hh:mm:07.5",
        proposing: CGSize(width: 200, height: 200), scale: 2, startDate: Date(timeIntervalSinceReferenceDate: 7.5)
    ) {
        AnyView(
            SeedClock()
        )
    }
}

/// S05's view: a canvas drawing its mark symbol in each rect, framed 300 × 200 with a blue border.
struct SeedScatterPlot<Mark: View>: View {
    let rects: [CGRect]
    let mark: Mark

    enum Symbol: Hashable { case mark }

    var body: some View {
        Canvas { context, size in
            guard let mark = context.resolveSymbol(id: Symbol.mark) else { return }
            for rect in rects { context.draw(mark, in: rect) }
        } symbols: {
            mark.tag(Symbol.mark)
        }
        .frame(width: 300, height: 200)
        .border(Color.blue)
    }

}

/// 50 squares, one in each cell of a 10 × 5 grid over the 300 × 200 frame, sized 10–22 pt and placed inside
/// their cell by a fixed-seed generator (the same list on every run; no two marks touch).
func seededScatterRects() -> [CGRect] {
    var state: UInt64 = 0x5EED_0005
    // SplitMix64: a fixed sequence from the seed, the same on every platform.
    func next() -> CGFloat {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return CGFloat(z >> 11) / CGFloat(1 << 53)
    }
    let cell = CGSize(width: 30, height: 40), margin: CGFloat = 3
    return (0..<50).map { i in
        let side = 10 + (12 * next()).rounded()
        let x = CGFloat(i % 10) * cell.width + margin + (cell.width - side - 2 * margin) * next()
        let y = CGFloat(i / 10) * cell.height + margin + (cell.height - side - 2 * margin) * next()
        return CGRect(x: x.rounded(), y: y.rounded(), width: side, height: side)
    }
}

/// S09/S10's canvas: symbols 0, 1, 2 drawn top-left at (10, 10), (30, 20), (50, 30), and symbol 0 again at
/// (70, 40), over the others.
struct SeedOverlappingSymbols<Symbols: View>: View {
    let symbols: Symbols
    init(@ViewBuilder symbols: () -> Symbols) { self.symbols = symbols() }

    var body: some View {
        Canvas(renderer: { context, size in
            let placements: [(id: Int, at: CGPoint)] = [(0, CGPoint(x: 10, y: 10)), (1, CGPoint(x: 30, y: 20)),
                                                        (2, CGPoint(x: 50, y: 30)), (0, CGPoint(x: 70, y: 40))]
            for (id, point) in placements {
                context.draw(context.resolveSymbol(id: id)!, at: point, anchor: .topLeading)
            }
        }, symbols: { symbols })
    }
}

/// S11's spinning view with a visible glyph: it turns a full circle every second, forever, from its first
/// appearance.
struct SeedSpinner: View {
    @State private var turned = false

    var body: some View {
        Image(systemName: "arrow.up")
            .font(.custom("Arial", size: 72))
            .foregroundColor(.indigo)
            .rotationEffect(.degrees(turned ? 360 : 0))
            .onAppear {
                withAnimation(.linear(duration: 1).repeatForever(autoreverses: false)) { turned.toggle() }
            }
    }
}

/// S14's clock: a gray face and, rebuilt every 0.06 s by a `TimelineView`, a red second hand.
struct SeedClock: View {
    var body: some View {
        ZStack {
            Canvas { context, size in
                let face = CGRect(origin: .zero, size: size).insetBy(dx: 4, dy: 4)
                context.stroke(Path(ellipseIn: face), with: .color(.gray), lineWidth: 4)
            }
            TimelineView(.animation(minimumInterval: 0.06)) { timeline in
                Canvas { context, size in
                    let centre = CGPoint(x: size.width / 2, y: size.height / 2)
                    let second = timeline.date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60)
                    let angle = Angle.degrees(second * 6 - 90)
                    let length = size.width * 0.4
                    var hand = Path()
                    hand.move(to: centre)
                    hand.addLine(to: CGPoint(x: centre.x + cos(angle.radians) * length, y: centre.y + sin(angle.radians) * length))
                    context.stroke(hand, with: .color(.red), lineWidth: 2)
                }
            }
        }
    }
}
