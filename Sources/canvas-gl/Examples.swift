// The built-in examples: renderer closures written against the SwiftUI API exactly as a user would write them,
// each showing one part of what this version draws. `canvas-gl examples --render-to DIR` renders them all.
import GPUCanvas

struct Example: Sendable {
    let name: String
    let summary: String
    let size: CGSize
    let scale: CGFloat
    var opaque = false
    var colorMode = ColorRenderingMode.nonLinear
    let draw: @Sendable (inout GraphicsContext, CGSize) -> Void

    var recording: Recording {
        Recording(size: size, colorMode: colorMode, isOpaque: opaque, renderer: draw)
    }

    static func named(_ name: String) -> Example? { all.first { $0.name == name } }

    /// In the order `canvas-gl examples` lists them.
    static var all: [Example] {
        [ellipse, colors, shapes, fillRules, strokes, transforms, opacity, arcs]
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
