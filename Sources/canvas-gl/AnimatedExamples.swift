// The built-in animations of `canvas-gl animate --example NAME`, written against the public API as a user
// would: each is a frame source whose drawing depends only on the frame's time, so an export of one is the
// same bytes on every run.
//
// - clock: a clock face with hour, minute and second hands, driven by the frame's date the way the seeds'
//   TimelineView clock is (the second hand at seconds × 6° − 90°, i.e. straight up at 0 s and turning
//   clockwise; t = 0 is 2001-01-01 00:00:00, so the hour hand starts at 12).
// - spinning-symbol: the seeds' animated symbol as views: `Image(systemName: "gear")` on a tile, turned by
//   `rotationEffect` under `withAnimation(.linear(duration: 2).repeatForever(autoreverses: false))` started
//   in `onAppear` (a `ViewFrameSource`: t = 0 is the first appearance).
// - digital-rain: columns of glyphs (half-width katakana, as in the film, digits and a few Latin letters)
//   falling at their own speeds with a bright head fading down the column, far columns small and blurred, near
//   ones large and sharp, over a vertical gradient.
// - text-wave: a per-glyph `TextRenderer`: each glyph of a line of text rides a sine wave travelling along
//   the line, given the time by a `TimelineView` (glyphs drawn unquantized, so they move smoothly).
import GPUCanvas

struct AnimatedExample {
    let name: String
    let summary: String
    let size: CGSize
    let source: any FrameSource
    /// Whether a frame depends on the frames before it (a view's state and animations), not on its time
    /// alone: `--range` then shows the source every earlier frame first.
    var keepsState = false

    static func named(_ name: String) -> AnimatedExample? { all.first { $0.name == name } }

    static var all: [AnimatedExample] { [clock, spinningSymbol, digitalRain, textWave] }

    static var clock: AnimatedExample { AnimatedExample(
        name: "clock", summary: "a clock face with hour, minute and second hands (the second hand at seconds × 6° − 90°)",
        size: CGSize(width: 256, height: 256),
        source: CanvasFrameSource { date in
            Canvas { context, size in drawClock(&context, size: size, date: date) }
        }) }

    static var spinningSymbol: AnimatedExample { AnimatedExample(
        name: "spinning-symbol", summary: "the gear symbol turning once every 2 s on a rounded tile (views, withAnimation)",
        size: CGSize(width: 256, height: 256),
        source: ViewFrameSource(SpinningSymbol()), keepsState: true) }

    static var digitalRain: AnimatedExample { AnimatedExample(
        name: "digital-rain", summary: "columns of falling glyphs with fading trails and depth blur (text API)",
        size: CGSize(width: 480, height: 320),
        source: RendererFrameSource(opaque: true) { context, size, time in drawDigitalRain(&context, size: size, time: time) }) }

    static var textWave: AnimatedExample { AnimatedExample(
        name: "text-wave", summary: "each glyph of a word rides a travelling sine wave (views, TextRenderer, Text.Layout)",
        size: CGSize(width: 320, height: 120),
        source: ViewFrameSource(TextWave())) }
}

/// The text-wave example: white bold text on indigo, drawn glyph by glyph by `WaveRenderer` at the
/// timeline's time (t = 0 at the export's first frame).
struct TextWave: View {
    var body: some View {
        TimelineView(.animation) { timeline in
            Text("Wave text")
                .font(.system(size: 44, weight: .bold))
                .foregroundColor(.white)
                .textRenderer(WaveRenderer(time: timeline.date.timeIntervalSinceReferenceDate))
        }
        .frame(maxWidth: .infinity, maxHeight: .infinity)
        .background(Color.indigo)
    }
}

/// Moves glyph k of the layout up and down by `amplitude` × sin(2π (t / period − k / glyphsPerWave)): a wave
/// that travels to the right one wavelength (`glyphsPerWave` glyphs) per period.
struct WaveRenderer: TextRenderer {
    var time: TimeInterval
    var amplitude: CGFloat = 12
    var period: TimeInterval = 1.2
    var glyphsPerWave = 6.0

    var animatableData: Double {
        get { time }
        set { time = newValue }
    }

    func draw(layout: Text.Layout, in ctx: inout GraphicsContext) {
        let slices = layout.flatMap { line in line }.flatMap { run in run }
        for (k, slice) in slices.enumerated() {
            let phase = 2 * Double.pi * (time / period - Double(k) / glyphsPerWave)
            var glyph = ctx
            glyph.translateBy(x: 0, y: amplitude * CGFloat(sin(phase)))
            glyph.draw(slice, options: .disablesSubpixelQuantization)
        }
    }
}

/// The clock at `date`: face, twelve ticks, then the hour, minute and second hands from the centre.
func drawClock(_ context: inout GraphicsContext, size: CGSize, date: Date) {
    let side = min(size.width, size.height)
    let centre = CGPoint(x: size.width / 2, y: size.height / 2)
    let radius = side / 2 - 6
    context.fill(Path(ellipseIn: CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)),
                 with: .color(.white))
    context.stroke(Path(ellipseIn: CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius)),
                   with: .color(.gray), lineWidth: max(2, side / 64))
    for hour in 0 ..< 12 {
        let a = Angle.degrees(Double(hour) * 30 - 90)
        var tick = Path()
        tick.move(to: point(from: centre, angle: a, length: radius * 0.82))
        tick.addLine(to: point(from: centre, angle: a, length: radius * 0.95))
        context.stroke(tick, with: .color(.black), lineWidth: hour % 3 == 0 ? max(2, side / 64) : max(1, side / 128))
    }
    let seconds = date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60)
    let minutes = date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 3600) / 60
    let hours = date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 43200) / 3600
    func hand(_ angle: Angle, _ length: CGFloat, _ width: CGFloat, _ color: Color) {
        var p = Path()
        p.move(to: centre)
        p.addLine(to: point(from: centre, angle: angle, length: length))
        context.stroke(p, with: .color(color), style: StrokeStyle(lineWidth: width, lineCap: .round))
    }
    hand(.degrees(hours * 30 - 90), radius * 0.5, max(2, side / 40), .black)
    hand(.degrees(minutes * 6 - 90), radius * 0.75, max(1.5, side / 64), .black)
    hand(.degrees(seconds * 6 - 90), radius * 0.8, max(1, side / 128), .red)
    let hub = max(2, side / 48)
    context.fill(Path(ellipseIn: CGRect(x: centre.x - hub, y: centre.y - hub, width: 2 * hub, height: 2 * hub)), with: .color(.red))
}

/// The point `length` from `centre` at `angle` (0° is +x, angles grow clockwise as y grows down).
func point(from centre: CGPoint, angle: Angle, length: CGFloat) -> CGPoint {
    CGPoint(x: centre.x + CGFloat(cos(angle.radians)) * length, y: centre.y + CGFloat(sin(angle.radians)) * length)
}

/// The seeds' spinning symbol in our own words: the gear turns 360° every 2 s, forever, from its first
/// appearance.
struct SpinningSymbol: View {
    @State private var turned = false

    var body: some View {
        ZStack {
            RoundedRectangle(cornerRadius: 48, style: .continuous).fill(.indigo)
            Image(systemName: "gear")
                .font(.system(size: 120))
                .foregroundColor(.white)
                .rotationEffect(.degrees(turned ? 360 : 0))
        }
        .padding(8)
        .onAppear {
            withAnimation(.linear(duration: 2).repeatForever(autoreverses: false)) { turned.toggle() }
        }
    }
}

/// Digital rain: 3 depth planes of glyph columns. Each column's speed, start and glyphs come from a hash of
/// its number, so every frame is a pure function of the time.
func drawDigitalRain(_ context: inout GraphicsContext, size: CGSize, time: TimeInterval) {
    context.fill(Path(CGRect(origin: .zero, size: size)),
                 with: .linearGradient(Gradient(colors: [Color(red: 0, green: 0.08, blue: 0.04), .black]),
                                       startPoint: .zero, endPoint: CGPoint(x: 0, y: size.height)))
    // Half-width katakana (WenQuanYi Micro Hei has them; the fallback finds it), digits and a few letters.
    let glyphs = Array("ｱｲｳｴｵｶｷｸｹｺｻｼｽｾｿﾀﾁﾂﾃﾄﾅﾆﾇﾈﾉﾊﾋﾌﾍﾎﾏﾐﾑﾒﾓﾔﾕﾖﾗﾘﾙﾚﾛﾜﾝ0123456789ZE:=*+<>")
    // Far to near: small, dim and blurred first, large and sharp last.
    let planes: [(fontSize: CGFloat, blur: CGFloat, brightness: Double, speed: Double)] =
        [(10, 1.5, 0.45, 40), (14, 0.6, 0.7, 70), (20, 0, 1, 110)]
    for (depth, plane) in planes.enumerated() {
        var layer = context
        if plane.blur > 0 { layer.addFilter(.blur(radius: plane.blur)) }
        layer.drawLayer { layer in
            let columns = Int(size.width / (plane.fontSize * 1.6))
            for column in 0 ..< columns {
                let seed = hash(column * 7 + depth * 1013)
                guard seed % 3 != 0 || depth == 2 else { continue }  // thin the far planes out
                let x = (CGFloat(column) + 0.5) * size.width / CGFloat(columns)
                let speed = plane.speed * (0.6 + Double(seed % 100) / 125)
                let trail = 8 + seed % 12
                let cycle = Double(size.height) + Double(trail) * Double(plane.fontSize)
                let head = (time * speed + Double(seed % 997)).truncatingRemainder(dividingBy: cycle)
                for k in 0 ..< trail {
                    let y = head - Double(k) * Double(plane.fontSize)
                    guard y > -Double(plane.fontSize), y < Double(size.height) + Double(plane.fontSize) else { continue }
                    // Glyphs change now and then, per cell.
                    let cell = Int(y / Double(plane.fontSize))
                    let g = glyphs[hash(seed + cell * 31 + Int(time * 4) * (k == 0 ? 1 : 0)) % glyphs.count]
                    let fade = 1 - Double(k) / Double(trail)
                    let colour = k == 0 ? Color(white: 0.95 * plane.brightness + 0.05)
                                        : Color(red: 0.1 * fade, green: plane.brightness * fade, blue: 0.35 * fade)
                    layer.draw(Text(String(g)).font(.system(size: plane.fontSize, design: .monospaced)).foregroundColor(colour),
                               at: CGPoint(x: x, y: CGFloat(y)))
                }
            }
        }
    }
}

/// A small integer hash (xorshift-multiply), the same on every machine.
func hash(_ value: Int) -> Int {
    var x = UInt64(bitPattern: Int64(value)) &+ 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: (x ^ (x >> 31)) >> 1)
}
