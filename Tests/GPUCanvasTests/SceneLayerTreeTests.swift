import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Scene files and the layer tree: `layer`, `clip`, `clipToLayer`, gradient shadings, styles and palettes.
/// A recording made with the API, written with `sceneJSON()`, loads back equal; each op and key records what
/// the closure spelling out the same calls records; and bad values are errors at their JSON location.
final class SceneLayerTreeTests: XCTestCase {
    private let canvas = CGSize(width: 120, height: 90)

    private func doc(_ commands: String, header: String = #""size": [120, 90]"#) -> String {
        #"{"format": "gpucanvas-scene/1", \#(header), "commands": [\#(commands)]}"#
    }

    private func load(_ json: String) throws -> Scene { try Scene(jsonData: Data(json.utf8)) }

    @discardableResult
    private func assertRoundTrip(_ recording: Recording, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let json = recording.sceneJSON()
        let loaded = try load(json).recording
        XCTAssertEqual(loaded, recording, "\nloaded:   \(loaded)\noriginal: \(recording)\n\(json)", file: file, line: line)
        XCTAssertEqual(loaded.drawCount, recording.drawCount, file: file, line: line)
        return json
    }

    private func assertSame(_ commands: String, colorMode: ColorRenderingMode = .nonLinear,
                            file: StaticString = #filePath, line: UInt = #line,
                            _ renderer: (inout GraphicsContext, CGSize) -> Void) throws {
        let expected = Recording(size: canvas, colorMode: colorMode, renderer: renderer)
        let header = #""size": [120, 90], "colorMode": "\#(colorMode)""#
        let loaded = try load(doc(commands, header: header)).recording
        XCTAssertEqual(loaded, expected, "\nscene:   \(loaded)\nclosure: \(expected)", file: file, line: line)
        XCTAssertGreaterThan(expected.drawCount, 0, file: file, line: line)
    }

    @discardableResult
    private func assertError(_ json: String, at location: String, _ problem: String,
                             file: StaticString = #filePath, line: UInt = #line) -> SceneError? {
        do {
            _ = try load(json)
            XCTFail("expected an error at \(location)", file: file, line: line)
        } catch let e as SceneError {
            XCTAssertEqual(e.location, location, "\(e)", file: file, line: line)
            XCTAssertTrue(e.message.contains(problem), "message \"\(e.message)\" lacks \"\(problem)\"", file: file, line: line)
            XCTAssertTrue(e.description.contains(location), e.description, file: file, line: line)
            return e
        } catch {
            XCTFail("unexpected error type \(error)", file: file, line: line)
        }
        return nil
    }

    private let square = Path(CGRect(x: 0, y: 0, width: 20, height: 20))
    private let disc = Path(ellipseIn: CGRect(x: 5, y: 5, width: 40, height: 30))
    private var star: Path {
        Path("30 0 m 40 60 l 0 20 l 60 20 l 20 60 l h")!
    }

    // MARK: Round trips: record → sceneJSON → load gives an equal recording

    func testNestedLayersWithOpacityAndBlendRoundTrip() throws {
        let modes: [ColorRenderingMode] = [.nonLinear, .linear, .extendedLinear]
        for mode in modes {
            let rec = Recording(size: canvas, colorMode: mode) { ctx, size in
                ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
                var a = ctx
                a.translateBy(x: 10, y: 5)
                a.opacity = 0.6
                a.blendMode = .multiply
                a.drawLayer { l in
                    l.fill(self.disc, with: .color(.red))
                    l.rotate(by: .degrees(15))
                    l.opacity = 0.5
                    l.drawLayer { inner in
                        inner.blendMode = .screen
                        inner.stroke(self.star, with: .color(.blue), lineWidth: 3)
                        inner.scaleBy(x: 2, y: 1)
                        inner.fill(self.square, with: .color(.displayP3, red: 1, green: 0.5, blue: 0, opacity: 0.7))
                    }
                    l.fill(self.square, with: .foreground)
                }
                ctx.drawLayer { _ in }  // an empty layer is an item too
                a.fill(self.square, with: .color(.green))  // after the layer, with a's state
                ctx.drawLayer { l in
                    l.translateBy(x: 50, y: 50)
                    l.drawLayer { l2 in l2.fill(self.square, with: .color(.orange)) }
                }
            }
            XCTAssertEqual(rec.root.items.count, 5)
            try assertRoundTrip(rec)
        }
    }

    func testClipsWithTransformsInverseAndEvenOddRoundTrip() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            var c = ctx
            c.translateBy(x: 5, y: 5)
            c.clip(to: self.disc)
            c.fill(self.square, with: .color(.red))
            c.rotate(by: .degrees(30))
            c.clip(to: self.star, style: FillStyle(eoFill: true, antialiased: false))
            c.fill(self.square, with: .color(.blue))
            c.stroke(self.disc, with: .color(.green), style: StrokeStyle(lineWidth: 2, dash: [3, 1]))
            var d = c
            d.scaleBy(x: 0.5, y: 2)
            d.clip(to: self.square, options: .inverse)
            d.opacity = 0.3
            d.fill(self.disc, with: .color(.purple))
            c.fill(self.star, with: .color(.pink))  // back under c's two clips
            ctx.fill(self.square, with: .color(.black))  // unclipped
            var e = ctx
            e.clip(to: self.square, style: FillStyle(eoFill: true), options: .inverse)
            e.opacity = 0.5
            e.blendMode = .darken
            e.drawLayer { l in
                l.clip(to: self.disc)
                l.fill(self.star, with: .color(.teal))
            }
            // The same clip path twice, one clip per context: equal values either way.
            var f = ctx, g = ctx
            f.clip(to: self.disc)
            g.clip(to: self.disc)
            f.fill(self.square, with: .color(.red))
            g.fill(self.square, with: .color(.blue))
        }
        try assertRoundTrip(rec)
    }

    func testClipToLayerMasksWithNestedClipsRoundTrip() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            ctx.fill(self.square, with: .color(.gray))
            var c = ctx
            c.translateBy(x: 20, y: 10)
            c.clipToLayer(opacity: 0.8) { m in
                m.fill(self.disc, with: .color(.black))
                var n = m
                n.clip(to: self.square)
                n.rotate(by: .degrees(-20))
                n.fill(self.star, with: .color(.white.opacity(0.5)))
            }
            // One mask clipping several draws: recorded once, so written once.
            c.fill(self.square, with: .color(.red))
            c.stroke(self.disc, with: .color(.blue), lineWidth: 4)
            c.scaleBy(x: 1.5, y: 1.5)
            c.clip(to: self.square)
            c.clipToLayer(options: .inverse) { m in
                m.clipToLayer { mm in mm.fill(self.disc, with: .color(.black)) }  // a mask inside a mask
                m.fill(self.star, with: .color(.black))
                m.drawLayer { l in
                    l.opacity = 0.5
                    l.fill(self.square, with: .color(.black))
                }
            }
            c.fill(self.star, with: .color(.green))
            c.opacity = 0.7
            c.drawLayer { l in l.fill(self.disc, with: .color(.yellow)) }  // a layer clipped by masks
            ctx.fill(self.disc, with: .color(.mint))  // unclipped again
        }
        try assertRoundTrip(rec)
    }

    private func everyGradientShading() -> [GraphicsContext.Shading] {
        let stops = Gradient(stops: [
            .init(color: .red, location: 0), .init(color: Color(red: 0, green: 0.5, blue: 1, opacity: 0.5), location: 0.3),
            .init(color: Color(.displayP3, red: 1, green: 0.2, blue: 0.1), location: 0.3),
            .init(color: Color(.sRGBLinear, red: 0.2, green: 0.7, blue: -0.1, opacity: 0.25), location: 0.875),
            .init(color: Color(hue: 0.3, saturation: 0.6, brightness: 0.9), location: 1),
        ])
        let even = Gradient(colors: [.yellow, .clear, .primary, .accentColor, .secondary, .black])
        return [
            .linearGradient(stops, startPoint: CGPoint(x: 0, y: 0), endPoint: CGPoint(x: 100, y: 10)),
            .linearGradient(even, startPoint: CGPoint(x: 3.25, y: -7), endPoint: CGPoint(x: 0.1, y: 1e-3), options: .repeat),
            .radialGradient(stops, center: CGPoint(x: 40, y: 30), startRadius: 0, endRadius: 35.5, options: .mirror),
            .radialGradient(even, center: CGPoint(x: 1, y: 2), startRadius: 5, endRadius: 2, options: [.repeat, .linearColor]),
            .radialGradient(AnyGradient(stops), startCenter: CGPoint(x: 10, y: 10), startRadius: 2,
                            endCenter: CGPoint(x: 60, y: 40), endRadius: 30),
            .radialGradient(stops.colorSpace(.perceptual), startCenter: CGPoint(x: 10, y: 10), startRadius: 2,
                            endCenter: CGPoint(x: 60, y: 40), endRadius: 30, options: .linearColor),
            // Equal centres in a perceptual space: written in the centre form.
            .radialGradient(even.colorSpace(.perceptual), startCenter: CGPoint(x: 5, y: 5), startRadius: 1,
                            endCenter: CGPoint(x: 5, y: 5), endRadius: 9, options: .mirror),
            .conicGradient(stops, center: CGPoint(x: 60, y: 45)),
            .conicGradient(even, center: CGPoint(x: 0, y: 0), angle: .degrees(37.5), options: .linearColor),
            .conicGradient(Gradient(colors: [.red]), center: CGPoint(x: 7, y: 8), angle: .degrees(-90)),
            .linearGradient(Color.orange.gradient.gradient, startPoint: .zero, endPoint: CGPoint(x: 0, y: 50)),
        ]
    }

    private func everyStyle() -> [GraphicsContext.Shading] {
        let g = Gradient(stops: [.init(color: .indigo, location: 0.25), .init(color: Color(white: 0.4, opacity: 0.2), location: 0.75)])
        return [
            .style(Color.teal),
            .style(Color(.displayP3, red: 0.1, green: 0.9, blue: 0.3, opacity: 0.5)),
            .style(g),
            .style(g.colorSpace(.perceptual)),
            .style(Color.blue.gradient),
            .style(LinearGradient(colors: [.red, .green], startPoint: .leading, endPoint: .bottomTrailing)),
            .style(LinearGradient(stops: g.stops, startPoint: UnitPoint(x: -0.25, y: 1.5), endPoint: .zero)),
            .style(RadialGradient(gradient: g, center: .center, startRadius: 0, endRadius: 40)),
            .style(RadialGradient(colors: [.white, .black], center: UnitPoint(x: 0.3, y: 0.7), startRadius: 12.5, endRadius: 3)),
            .style(AngularGradient(gradient: g, center: .top)),
            .style(AngularGradient(colors: [.red, .yellow, .red], center: .center, angle: .degrees(45))),
            .style(AngularGradient(gradient: g, center: .bottomLeading, startAngle: .degrees(10), endAngle: .degrees(200))),
            .style(AngularGradient(gradient: g, center: .center, startAngle: .degrees(-30), endAngle: .degrees(-30))),
            .style(EllipticalGradient(gradient: g)),
            .style(EllipticalGradient(colors: [.mint, .pink], center: .topTrailing, startRadiusFraction: 0.1, endRadiusFraction: 0.8)),
        ]
    }

    func testEveryGradientShadingAndStyleRoundTrips() throws {
        let modes: [ColorRenderingMode] = [.nonLinear, .linear, .extendedLinear]
        let shadings = everyGradientShading() + everyStyle()
        for mode in modes {
            let rec = Recording(size: canvas, colorMode: mode) { ctx, _ in
                for (k, s) in shadings.enumerated() {
                    var c = ctx
                    c.translateBy(x: CGFloat(k), y: 0)
                    if k % 2 == 0 {
                        c.fill(self.star, with: s, style: FillStyle(eoFill: k % 4 == 0))
                    } else {
                        c.stroke(self.disc, with: s, lineWidth: 3)
                    }
                }
            }
            XCTAssertEqual(rec.drawCount, shadings.count)
            try assertRoundTrip(rec)
        }
    }

    func testPalettesRecordTheirFirstLevelAndRoundTrip() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            ctx.fill(self.square, with: .palette([.color(.red), .color(.blue)]))
            ctx.fill(self.disc, with: .palette([.linearGradient(Gradient(colors: [.red, .blue]), startPoint: .zero,
                                                                endPoint: CGPoint(x: 10, y: 0)), .foreground]))
            ctx.fill(self.star, with: .palette([.palette([.style(EllipticalGradient(colors: [.red, .clear]))])]))
            ctx.fill(self.star, with: .palette([.foreground]))
            ctx.fill(self.star, with: .palette([]))  // draws nothing
        }
        XCTAssertEqual(rec.drawCount, 4)
        try assertRoundTrip(rec)
    }

    func testGradientsInsideLayersAndMasksRoundTrip() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            var c = ctx
            c.clipToLayer { m in
                m.fill(self.disc, with: .linearGradient(Gradient(colors: [.black, .clear]), startPoint: .zero,
                                                        endPoint: CGPoint(x: 40, y: 0)))
            }
            c.drawLayer { l in
                l.fill(self.star, with: .style(AngularGradient(colors: [.red, .blue], center: .center)))
                l.stroke(self.square, with: .conicGradient(Gradient(colors: [.green, .red]), center: CGPoint(x: 10, y: 10)),
                         lineWidth: 5)
            }
        }
        try assertRoundTrip(rec)
    }

    /// Where a closure interleaves contexts, the scene holds the same tree in scope order: a mask made before a
    /// draw through another context is recorded after it on load, so the draws are numbered in that order.
    func testInterleavedContextsLoadInScopeOrder() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            let plain = ctx
            ctx.clipToLayer { m in m.fill(self.disc, with: .color(.black)) }  // #0
            plain.fill(self.square, with: .color(.red))                       // #1
            ctx.fill(self.star, with: .color(.blue))                          // #2, clipped by #0
        }
        let inScopeOrder = Recording(size: canvas) { ctx, _ in
            ctx.fill(self.square, with: .color(.red))                         // #0
            ctx.clipToLayer { m in m.fill(self.disc, with: .color(.black)) }  // #1
            ctx.fill(self.star, with: .color(.blue))                          // #2
        }
        let loaded = try load(rec.sceneJSON()).recording
        XCTAssertNotEqual(loaded, rec)
        XCTAssertEqual(loaded, inScopeOrder)
        XCTAssertEqual(loaded.sceneJSON(), rec.sceneJSON())
    }

    /// A fixed pseudo-random sequence (64-bit LCG), so a failure reproduces.
    private struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        mutating func below(_ n: Int) -> Int { min(Int(next() * Double(n)), n - 1) }
    }

    /// Random programs of nested scopes, layers, clips and masks, each scope used as a closure uses a context
    /// (a copy works until it is dropped), every mask clipping at least the draw right after it.
    func testRandomLayerTreesRoundTrip() throws {
        let shadings: [GraphicsContext.Shading] = everyGradientShading() + everyStyle() + [
            .color(.red), .color(.displayP3, red: 0.3, green: 0.6, blue: 0.9, opacity: 0.7), .foreground,
            .palette([.color(.blue), .color(.red)]),
        ]
        let paths = [square, disc, star, Path("0 0 m 10 0 l 5 8 l h 2 2 m 8 2 l 5 6 l h")!]
        func program(_ ctx: inout GraphicsContext, _ rng: inout LCG, depth: Int) {
            for _ in 0 ..< 2 + rng.below(5) {
                let path = paths[rng.below(paths.count)], shading = shadings[rng.below(shadings.count)]
                switch rng.below(depth < 3 ? 11 : 6) {
                case 0, 1: ctx.fill(path, with: shading, style: FillStyle(eoFill: rng.below(2) == 0, antialiased: rng.below(3) != 0))
                case 2: ctx.stroke(path, with: shading, style: StrokeStyle(lineWidth: rng.next() * 4, dash: rng.below(2) == 0 ? [] : [2, 1]))
                case 3:
                    switch rng.below(3) {
                    case 0: ctx.translateBy(x: rng.next() * 20 - 10, y: rng.next() * 20 - 10)
                    case 1: ctx.rotate(by: .degrees(rng.next() * 360))
                    default: ctx.scaleBy(x: 0.5 + rng.next(), y: 0.5 + rng.next())
                    }
                case 4:
                    ctx.opacity = rng.next()
                    ctx.blendMode = GraphicsContext.BlendMode(rawValue: Int32(rng.below(28)))
                case 5:
                    ctx.clip(to: path, style: FillStyle(eoFill: rng.below(2) == 0, antialiased: rng.below(4) != 0),
                             options: rng.below(3) == 0 ? .inverse : [])
                case 6, 7:
                    ctx.clipToLayer(opacity: rng.next(), options: rng.below(2) == 0 ? .inverse : []) { m in
                        program(&m, &rng, depth: depth + 1)
                    }
                    ctx.fill(path, with: shading)
                case 8:
                    ctx.drawLayer { l in program(&l, &rng, depth: depth + 1) }
                default:
                    var c = ctx
                    program(&c, &rng, depth: depth + 1)
                }
            }
        }
        var counts = (draws: 0, layers: 0, clips: 0, masks: 0)
        func count(_ layer: RecordedLayer) {
            for item in layer.items {
                let state: DrawState
                switch item {
                case .draw(let d): counts.draws += 1; state = d.state
                case .layer(let l): counts.layers += 1; state = l.state; count(l.content)
                }
                for c in state.clips {
                    switch c {
                    case .path: counts.clips += 1
                    case .mask(let m, _, _): counts.masks += 1; count(m)
                    }
                }
            }
        }
        for seed in 1 ... 40 as ClosedRange<UInt64> {
            var rng = LCG(state: seed)
            let mode = [ColorRenderingMode.nonLinear, .linear, .extendedLinear][Int(seed % 3)]
            let rec = Recording(size: canvas, colorMode: mode) { ctx, _ in program(&ctx, &rng, depth: 0) }
            try assertRoundTrip(rec)
            count(rec.root)
        }
        // Not vacuous: the programs made every kind of item and clip, many times.
        XCTAssertGreaterThan(counts.draws, 500, "\(counts)")
        XCTAssertGreaterThan(counts.layers, 50, "\(counts)")
        XCTAssertGreaterThan(counts.clips, 100, "\(counts)")
        XCTAssertGreaterThan(counts.masks, 100, "\(counts)")
    }

    /// Angles are written in degrees and loaded with `.degrees(…)`: the encoder picks the spelling that loads
    /// back to the recorded radians.
    func testAnglesRoundTripExactly() throws {
        var state: UInt64 = 12345
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        var degrees: [Double] = [0, 30, 45, 90, -90, 180, 359.9, 360, 720, 1e-7, -1234.5678, 0.1, 1.0 / 3.0]
        for _ in 0 ..< 200 { degrees.append((next() - 0.5) * 2000) }
        let g = Gradient(colors: [.red, .blue])
        let rec = Recording(size: canvas) { ctx, _ in
            for d in degrees {
                ctx.fill(self.square, with: .conicGradient(g, center: .zero, angle: .degrees(d)))
                ctx.fill(self.square, with: .style(AngularGradient(gradient: g, center: .center, angle: .degrees(d))))
                ctx.fill(self.square, with: .style(AngularGradient(gradient: g, center: .center, startAngle: .degrees(d),
                                                                   endAngle: .degrees(d * 0.7 + 11))))
            }
        }
        let json = try assertRoundTrip(rec)
        // The shortest spelling: `.degrees(30)` is written 30, not 29.999999999999996.
        XCTAssertTrue(json.contains(#""angle": 30,"#) || json.contains(#""angle": 30}"#), json)
        XCTAssertTrue(json.contains(#""startAngle": -1234.5678"#), json)
    }

    func testEncodedLayerTreeHasTheDocumentedShape() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            var c = ctx
            c.translateBy(x: 10, y: 0)
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 5, height: 5)), style: FillStyle(eoFill: true), options: .inverse)
            c.clipToLayer(opacity: 0.5) { m in m.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.black)) }
            c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .linearGradient(
                Gradient(colors: [.red, Color(.sRGB, red: 0, green: 0, blue: 1)]), startPoint: .zero,
                endPoint: CGPoint(x: 2, y: 0), options: .repeat))
            c.opacity = 0.25
            c.drawLayer { l in l.fill(Path(CGRect(x: 0, y: 0, width: 3, height: 3)), with: .color(.red)) }
        }
        let json = try assertRoundTrip(rec)
        XCTAssertTrue(json.contains(#"{"op": "clip", "path": {"elements": [["m", 0, 0], ["l", 5, 0], ["l", 5, 5], ["l", 0, 5], ["z"]]}, "eoFill": true, "inverse": true}"#), json)
        XCTAssertTrue(json.contains(#"{"op": "clipToLayer", "opacity": 0.5, "commands": ["#), json)
        XCTAssertTrue(json.contains(#""shading": {"linearGradient": {"stops": [[0, "red"], [1, {"space": "sRGB", "rgba": [0, 0, 1, 1]}]]}, "start": [0, 0], "end": [2, 0], "options": ["repeat"]}"#), json)
        XCTAssertTrue(json.contains(#"{"op": "opacity", "value": 0.25}, {"op": "layer", "commands": ["#), json)
        // The clip and the mask are written once, in one scope holding both draws that they clip.
        XCTAssertEqual(json.components(separatedBy: #""op": "clipToLayer""#).count, 2, json)
        XCTAssertEqual(json.components(separatedBy: #""op": "clip""#).count, 2, json)
    }

    // MARK: Each op and key records what the closure records

    func testClipOpEqualsTheClosure() throws {
        try assertSame("""
            {"op": "translate", "x": 10, "y": 5},
            {"op": "clip", "path": {"ellipse": [0, 0, 60, 40]}},
            {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "red"}},
            {"op": "copy", "commands": [
                {"op": "rotate", "degrees": 30},
                {"op": "clip", "path": "30 0 m 40 60 l 0 20 l 60 20 l 20 60 l h", "eoFill": true, "antialiased": false},
                {"op": "clip", "path": {"rect": [0, 0, 5, 5]}, "inverse": true, "eoFill": false, "antialiased": true},
                {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "blue"}}
            ]},
            {"op": "stroke", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "green"}}
            """) { ctx, _ in
            ctx.translateBy(x: 10, y: 5)
            ctx.clip(to: Path(ellipseIn: CGRect(x: 0, y: 0, width: 60, height: 40)))
            ctx.fill(self.square, with: .color(.red))
            var c = ctx
            c.rotate(by: .degrees(30))
            c.clip(to: self.star, style: FillStyle(eoFill: true, antialiased: false))
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 5, height: 5)), options: .inverse)
            c.fill(self.square, with: .color(.blue))
            ctx.stroke(self.square, with: .color(.green))
        }
    }

    func testClipToLayerOpEqualsTheClosure() throws {
        try assertSame("""
            {"op": "scale", "x": 2, "y": 2},
            {"op": "clipToLayer", "commands": [
                {"op": "fill", "path": {"ellipse": [0, 0, 30, 30]}, "shading": {"color": "black"}},
                {"op": "clip", "path": {"rect": [0, 0, 10, 10]}},
                {"op": "translate", "x": 3, "y": 0},
                {"op": "clipToLayer", "opacity": 0.5, "inverse": true, "commands": [
                    {"op": "fill", "path": {"rect": [0, 0, 4, 4]}, "shading": {"color": "white"}}
                ]},
                {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": "foreground"}
            ]},
            {"op": "clipToLayer", "opacity": 0.25, "inverse": false, "commands": []},
            {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "red"}},
            {"op": "fill", "path": {"rect": [5, 5, 20, 20]}, "shading": {"color": "blue"}}
            """) { ctx, _ in
            ctx.scaleBy(x: 2, y: 2)
            ctx.clipToLayer { m in
                m.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 30)), with: .color(.black))
                m.clip(to: Path(CGRect(x: 0, y: 0, width: 10, height: 10)))
                m.translateBy(x: 3, y: 0)
                m.clipToLayer(opacity: 0.5, options: .inverse) { mm in
                    mm.fill(Path(CGRect(x: 0, y: 0, width: 4, height: 4)), with: .color(.white))
                }
                m.fill(self.square, with: .foreground)
            }
            ctx.clipToLayer(opacity: 0.25) { _ in }
            ctx.fill(self.square, with: .color(.red))
            ctx.fill(Path(CGRect(x: 5, y: 5, width: 20, height: 20)), with: .color(.blue))
        }
    }

    func testLayerOpEqualsTheClosure() throws {
        try assertSame("""
            {"op": "translate", "x": 10, "y": 10},
            {"op": "opacity", "value": 0.5},
            {"op": "blendMode", "value": "multiply"},
            {"op": "clip", "path": {"rect": [0, 0, 50, 50]}},
            {"op": "layer", "commands": [
                {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "red"}},
                {"op": "opacity", "value": 0.3},
                {"op": "rotate", "degrees": 10},
                {"op": "layer", "commands": [{"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "blue"}}]},
                {"op": "layer", "commands": []}
            ]},
            {"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": {"color": "green"}}
            """) { ctx, _ in
            ctx.translateBy(x: 10, y: 10)
            ctx.opacity = 0.5
            ctx.blendMode = .multiply
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 50, height: 50)))
            ctx.drawLayer { l in
                l.fill(self.square, with: .color(.red))
                l.opacity = 0.3
                l.rotate(by: .degrees(10))
                l.drawLayer { inner in inner.fill(self.square, with: .color(.blue)) }
                l.drawLayer { _ in }
            }
            ctx.fill(self.square, with: .color(.green))
        }
    }

    func testGradientShadingKeysEqualTheClosure() throws {
        let g = ##"{"stops": [[0, "red"], [0.5, {"space": "displayP3", "rgba": [0, 1, 0, 0.5]}], [1, "#0000FF80"]]}"##
        let gradient = Gradient(stops: [.init(color: .red, location: 0),
                                        .init(color: Color(.displayP3, red: 0, green: 1, blue: 0, opacity: 0.5), location: 0.5),
                                        .init(color: Color(.sRGB, red: 0, green: 0, blue: 1, opacity: 128 / 255), location: 1)])
        let colors = Gradient(colors: [.orange, .purple, .clear])
        func fill(_ shading: String) -> String { #"{"op": "fill", "path": {"rect": [0, 0, 20, 20]}, "shading": \#(shading)}"# }
        try assertSame([
            fill(#"{"linearGradient": \#(g), "start": [0, 0], "end": [20, 5]}"#),
            fill(#"{"linearGradient": {"colors": ["orange", "purple", "clear"]}, "start": [1, 2], "end": [3, 4], "options": ["repeat", "linearColor"], "colorSpace": "device"}"#),
            fill(#"{"linearGradient": \#(g), "start": [0, 0], "end": [20, 5], "colorSpace": "perceptual"}"#),
            fill(#"{"radialGradient": \#(g), "center": [10, 10], "startRadius": 0, "endRadius": 10, "options": ["mirror"]}"#),
            fill(#"{"radialGradient": \#(g), "center": [10, 10], "startRadius": 2, "endRadius": 8, "colorSpace": "perceptual"}"#),
            fill(#"{"radialGradient": \#(g), "startCenter": [5, 5], "startRadius": 1, "endCenter": [15, 10], "endRadius": 12}"#),
            fill(#"{"radialGradient": {"colors": ["orange", "purple", "clear"]}, "startCenter": [5, 5], "startRadius": 1, "endCenter": [15, 10], "endRadius": 12, "options": ["repeat"], "colorSpace": "perceptual"}"#),
            fill(#"{"conicGradient": \#(g), "center": [10, 10]}"#),
            fill(#"{"conicGradient": \#(g), "center": [10, 10], "angle": 135, "options": ["linearColor", "mirror"], "colorSpace": "perceptual"}"#),
        ].joined(separator: ",\n")) { ctx, _ in
            let s = self.square
            ctx.fill(s, with: .linearGradient(gradient, startPoint: .zero, endPoint: CGPoint(x: 20, y: 5)))
            ctx.fill(s, with: .linearGradient(colors, startPoint: CGPoint(x: 1, y: 2), endPoint: CGPoint(x: 3, y: 4),
                                              options: [.repeat, .linearColor]))
            // No factory takes a perceptual linear gradient: the loader sets the space on the recorded one.
            ctx.fill(s, with: SceneDecoderAccess.perceptual(.linearGradient(gradient, startPoint: .zero,
                                                                           endPoint: CGPoint(x: 20, y: 5))))
            ctx.fill(s, with: .radialGradient(gradient, center: CGPoint(x: 10, y: 10), startRadius: 0, endRadius: 10,
                                              options: .mirror))
            ctx.fill(s, with: .radialGradient(gradient.colorSpace(.perceptual), startCenter: CGPoint(x: 10, y: 10),
                                              startRadius: 2, endCenter: CGPoint(x: 10, y: 10), endRadius: 8))
            ctx.fill(s, with: .radialGradient(AnyGradient(gradient), startCenter: CGPoint(x: 5, y: 5), startRadius: 1,
                                              endCenter: CGPoint(x: 15, y: 10), endRadius: 12))
            ctx.fill(s, with: .radialGradient(colors.colorSpace(.perceptual), startCenter: CGPoint(x: 5, y: 5), startRadius: 1,
                                              endCenter: CGPoint(x: 15, y: 10), endRadius: 12, options: .repeat))
            ctx.fill(s, with: .conicGradient(gradient, center: CGPoint(x: 10, y: 10)))
            ctx.fill(s, with: SceneDecoderAccess.perceptual(.conicGradient(gradient, center: CGPoint(x: 10, y: 10),
                                                                           angle: .degrees(135), options: [.linearColor, .mirror])))
        }
    }

    func testStyleKeysEqualTheClosure() throws {
        let g = #"{"colors": ["red", "blue"]}"#
        let gradient = Gradient(colors: [.red, .blue])
        func fill(_ style: String) -> String {
            #"{"op": "fill", "path": {"rect": [0, 0, 20, 10]}, "shading": {"style": \#(style)}}"#
        }
        try assertSame([
            fill(#""teal""#),
            fill(#"{"space": "sRGBLinear", "rgba": [0.5, 0.25, 0, 1]}"#),
            fill(#"{"linearGradient": \#(g), "startPoint": [0.5, 0], "endPoint": [0.5, 1]}"#),
            fill(#"{"linearGradient": \#(g), "startPoint": [0.5, 0], "endPoint": [0.5, 1], "colorSpace": "perceptual"}"#),
            fill(#"{"radialGradient": \#(g), "center": [0.5, 0.5], "startRadius": 0, "endRadius": 10}"#),
            fill(#"{"radialGradient": \#(g), "center": [0, 1], "startRadius": 3, "endRadius": 1, "colorSpace": "perceptual"}"#),
            fill(#"{"angularGradient": \#(g), "center": [0.5, 0.5]}"#),
            fill(#"{"angularGradient": \#(g), "center": [0.5, 0.5], "startAngle": 90, "endAngle": 270}"#),
            fill(#"{"angularGradient": \#(g), "center": [0.5, 0.5], "startAngle": 45, "endAngle": 45, "colorSpace": "device"}"#),
            fill(#"{"ellipticalGradient": \#(g)}"#),
            fill(#"{"ellipticalGradient": \#(g), "center": [0.25, 0.75], "startRadiusFraction": 0.1, "endRadiusFraction": 0.9, "colorSpace": "perceptual"}"#),
        ].joined(separator: ",\n")) { ctx, _ in
            let r = Path(CGRect(x: 0, y: 0, width: 20, height: 10))
            ctx.fill(r, with: .style(Color.teal))
            ctx.fill(r, with: .style(Color(.sRGBLinear, red: 0.5, green: 0.25, blue: 0)))
            ctx.fill(r, with: .style(gradient))  // a Gradient as a style runs top to bottom
            ctx.fill(r, with: .style(gradient.colorSpace(.perceptual)))
            ctx.fill(r, with: .style(RadialGradient(gradient: gradient, center: .center, startRadius: 0, endRadius: 10)))
            var radial = RadialGradient(gradient: gradient, center: .bottomLeading, startRadius: 3, endRadius: 1)
            radial.unit.colorSpace = .perceptual
            ctx.fill(r, with: .style(radial))
            ctx.fill(r, with: .style(AngularGradient(gradient: gradient, center: .center)))
            ctx.fill(r, with: .style(AngularGradient(gradient: gradient, center: .center, startAngle: .degrees(90),
                                                     endAngle: .degrees(270))))
            ctx.fill(r, with: .style(AngularGradient(gradient: gradient, center: .center, angle: .degrees(45))))
            ctx.fill(r, with: .style(EllipticalGradient(gradient: gradient)))
            var elliptical = EllipticalGradient(gradient: gradient, center: UnitPoint(x: 0.25, y: 0.75),
                                                startRadiusFraction: 0.1, endRadiusFraction: 0.9)
            elliptical.unit.colorSpace = .perceptual
            ctx.fill(r, with: .style(elliptical))
        }
    }

    func testPaletteKeyEqualsTheClosure() throws {
        try assertSame("""
            {"op": "fill", "path": {"rect": [0, 0, 20, 10]}, "shading": {"palette": [{"color": "red"}, "foreground"]}},
            {"op": "fill", "path": {"rect": [0, 0, 20, 10]}, "shading": {"palette": ["foreground", {"color": "red"}]}},
            {"op": "fill", "path": {"rect": [0, 0, 20, 10]}, "shading": {"palette": [{"palette": [{"style": {"ellipticalGradient": {"colors": ["red", "blue"]}}}]}]}}
            """) { ctx, _ in
            let r = Path(CGRect(x: 0, y: 0, width: 20, height: 10))
            ctx.fill(r, with: .palette([.color(.red), .foreground]))
            ctx.fill(r, with: .palette([.foreground, .color(.red)]))
            ctx.fill(r, with: .palette([.palette([.style(EllipticalGradient(colors: [.red, .blue]))])]))
        }
    }

    func testGradientStopColoursLoadWithTheirOwnComponentsAndSpace() throws {
        // Each colour form gives the `Color` that the same Swift spelling gives, name included.
        let scene = try load(doc(#"""
            {"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": {"linearGradient": {"stops": [
                [0, "red"], [0.1, "#336699"], [0.2, {"space": "displayP3", "rgba": [1.5, -0.25, 0.1, 0.3]}],
                [0.3, {"space": "sRGBLinear", "rgba": [0.1, 0.2, 0.3, 1]}], [1, "accentColor"]]}, "start": [0, 0], "end": [1, 0]}}
            """#))
        guard case .draw(let d) = scene.recording.root.items.first, case .gradient(let g) = d.paint else {
            return XCTFail("\(scene.recording)")
        }
        XCTAssertEqual(g.stops.map(\.color), [
            .red, Color(.sRGB, red: 0x33 / 255, green: 0x66 / 255, blue: 0x99 / 255),
            Color(.displayP3, red: 1.5, green: -0.25, blue: 0.1, opacity: 0.3),
            Color(.sRGBLinear, red: 0.1, green: 0.2, blue: 0.3), .accentColor,
        ])
        XCTAssertEqual(g.stops.map(\.location), [0, 0.1, 0.2, 0.3, 1])
    }

    /// A named colour is written by its name and loads back with it; a colour derived from one with
    /// `opacity(_:)` (`blue.opacity(0.5)`) has a name no scene colour spells, so it loads back with the same
    /// space and components but no name, and `Color`'s `==`, which compares names, calls it different.
    func testDerivedColourNamesAreNotKept() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            ctx.fill(self.square, with: .linearGradient(Gradient(colors: [.blue, .blue.opacity(0.5)]), startPoint: .zero,
                                                        endPoint: CGPoint(x: 1, y: 0)))
        }
        let json = rec.sceneJSON()
        XCTAssertTrue(json.contains(#""stops": [[0, "blue"], [1, {"space": "sRGB", "rgba": [0, 0.47843137254901963, 1, 0.5]}]]"#), json)
        let loaded = try load(json).recording
        guard case .draw(let d) = loaded.root.items.first, case .gradient(let g) = d.paint else { return XCTFail("\(loaded)") }
        XCTAssertEqual(g.stops[0].color, .blue)
        let c = g.stops[1].color
        XCTAssertEqual([c.red, c.green, c.blue, c.alpha], [0, 122 / 255, 1, 0.5])
        XCTAssertEqual(c.space, .sRGB)
        XCTAssertNil(c.name)
        XCTAssertNotEqual(c, Color.blue.opacity(0.5))
    }

    // MARK: Located errors

    func testStopLocationOutsideZeroToOneIsLocated() {
        let fill = #"{"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": "foreground"}"#
        assertError(doc(fill + ", " + fill + #", {"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": {"linearGradient": {"stops": [[0, "red"], [1.5, "blue"]]}, "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[2].shading.linearGradient.stops[1][0]", "a stop location must be in 0…1, got 1.5")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"style": {"radialGradient": {"stops": [[-0.5, "red"]]}, "center": [0, 0], "startRadius": 0, "endRadius": 1}}}"#),
                    at: "commands[0].shading.style.radialGradient.stops[0][0]", "got -0.5")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"conicGradient": {"stops": [["0", "red"]]}, "center": [0, 0]}}"#),
                    at: "commands[0].shading.conicGradient.stops[0][0]", "expected a number, got string")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"conicGradient": {"stops": [[0, "red", 1]]}, "center": [0, 0]}}"#),
                    at: "commands[0].shading.conicGradient.stops[0]", "expected a stop [location, colour], got array")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"conicGradient": {"stops": [[0, "reddish"]]}, "center": [0, 0]}}"#),
                    at: "commands[0].shading.conicGradient.stops[0][1]", #"unknown colour name "reddish""#)
    }

    func testNegativeRadiiAreLocated() {
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"radialGradient": {"colors": ["red"]}, "center": [0, 0], "startRadius": -1, "endRadius": 5}}"#),
                    at: "commands[0].shading.startRadius", "startRadius must be ≥ 0, got -1")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"radialGradient": {"colors": ["red"]}, "startCenter": [0, 0], "startRadius": 1, "endCenter": [1, 1], "endRadius": -0.5}}"#),
                    at: "commands[0].shading.endRadius", "endRadius must be ≥ 0, got -0.5")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"style": {"radialGradient": {"colors": ["red"]}, "center": [0, 0], "startRadius": 0, "endRadius": -2}}}"#),
                    at: "commands[0].shading.style.endRadius", "endRadius must be ≥ 0")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"style": {"ellipticalGradient": {"colors": ["red"]}, "startRadiusFraction": -0.1}}}"#),
                    at: "commands[0].shading.style.startRadiusFraction", "startRadiusFraction must be ≥ 0")
    }

    func testEmptyPaletteAndEmptyGradientsAreLocated() {
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"palette": []}}"#),
                    at: "commands[0].shading.palette", "a palette needs at least one shading")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"palette": [{"palette": []}]}}"#),
                    at: "commands[0].shading.palette[0].palette", "a palette needs at least one shading")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": {"stops": []}, "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[0].shading.linearGradient.stops", "a gradient needs at least one stop")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": {"colors": []}, "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[0].shading.linearGradient.colors", "a gradient needs at least one colour")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": {}, "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[0].shading.linearGradient", "expected the key stops or colors")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": {"colors": ["red"], "stops": [[0, "red"]]}, "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[0].shading.linearGradient", "expected stops or colors, got both")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": ["red"], "start": [0, 0], "end": [1, 0]}}"#),
                    at: "commands[0].shading.linearGradient", "expected a gradient")
    }

    func testUnknownOptionsAndSpacesAreLocated() {
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"linearGradient": {"colors": ["red"]}, "start": [0, 0], "end": [1, 0], "options": ["repeat", "clamp"]}}"#),
                    at: "commands[0].shading.options[1]", #"unknown gradient option "clamp" (expected one of: linearColor, mirror, repeat)"#)
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"conicGradient": {"colors": ["red"]}, "center": [0, 0], "options": "repeat"}}"#),
                    at: "commands[0].shading.options", "expected an array, got string")
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"conicGradient": {"colors": ["red"]}, "center": [0, 0], "colorSpace": "oklab"}}"#),
                    at: "commands[0].shading.colorSpace", #"unknown gradient colour space "oklab""#)
        // Styles take no options.
        assertError(doc(#"{"op": "fill", "path": "0 0 m h", "shading": {"style": {"linearGradient": {"colors": ["red"]}, "startPoint": [0, 0], "endPoint": [1, 0], "options": ["repeat"]}}}"#),
                    at: "commands[0].shading.style.options", #"unknown key "options""#)
    }

    func testBadShadingShapesAreLocated() {
        func fill(_ s: String) -> String { doc(#"{"op": "fill", "path": "0 0 m h", "shading": \#(s)}"#) }
        assertError(fill(#"{"color": "red", "linearGradient": {"colors": ["red"]}}"#), at: "commands[0].shading",
                    "expected one shading, got color and linearGradient")
        assertError(fill(#"{"colour": "red"}"#), at: "commands[0].shading.colour", #"unknown key "colour""#)
        assertError(fill("{}"), at: "commands[0].shading", "expected one of the keys color, linearGradient")
        assertError(fill(#"{"linearGradient": {"colors": ["red"]}, "start": [0, 0]}"#), at: "commands[0].shading.end",
                    "missing required key")
        assertError(fill(#"{"radialGradient": {"colors": ["red"]}, "center": [0, 0], "startRadius": 0, "endRadius": 1, "endCenter": [1, 1]}"#),
                    at: "commands[0].shading.endCenter", #"unknown key "endCenter""#)
        assertError(fill(#"{"radialGradient": {"colors": ["red"]}, "startCenter": [0, 0], "startRadius": 0, "endRadius": 1}"#),
                    at: "commands[0].shading.endCenter", "missing required key")
        assertError(fill(#"{"linearGradient": {"colors": ["red"]}, "start": [0, 0], "end": [1, 0], "center": [0, 0]}"#),
                    at: "commands[0].shading.center", #"unknown key "center""#)
        assertError(fill(#"{"style": {"conicGradient": {"colors": ["red"]}}}"#), at: "commands[0].shading.style.conicGradient",
                    #"unknown key "conicGradient""#)
        assertError(fill(#"{"style": {"linearGradient": {"colors": ["red"]}, "angularGradient": {"colors": ["red"]}}}"#),
                    at: "commands[0].shading.style", "expected one style, got linearGradient and angularGradient")
        assertError(fill(#"{"style": {"linearGradient": {"colors": ["red"]}, "startPoint": [0, 0, 1], "endPoint": [1, 0]}}"#),
                    at: "commands[0].shading.style.startPoint", "expected a unit point [x, y], got an array of 3 values")
        assertError(fill(#"{"style": 3}"#), at: "commands[0].shading.style", "expected a style")
        assertError(fill(#"{"palette": {"color": "red"}}"#), at: "commands[0].shading.palette", "expected an array, got object")
        assertError(fill(#"{"palette": ["background"]}"#), at: "commands[0].shading.palette[0]", #"got "background""#)
    }

    func testErrorsInsideClipsMasksAndLayersAreLocated() {
        let fill = #"{"op": "fill", "path": {"rect": [0, 0, 1, 1]}, "shading": "foreground"}"#
        assertError(doc(fill + #", {"op": "copy", "commands": [{"op": "clip", "path": {"rect": [0, 0, 5, 5]}, "invert": true}]}"#),
                    at: "commands[1].commands[0].invert",
                    #"unknown key "invert" (expected one of: op, path, eoFill, antialiased, inverse)"#)
        assertError(doc(#"{"op": "clip"}"#), at: "commands[0].path", "missing required key")
        assertError(doc(#"{"op": "clip", "path": {"rect": [0, 0, 5, 5]}, "inverse": 1}"#), at: "commands[0].inverse",
                    "expected true or false, got number")
        assertError(doc(#"{"op": "clipToLayer", "commands": [\#(fill), {"op": "clip", "path": "1 m"}]}"#),
                    at: "commands[0].commands[1].path", "not a valid path description")
        assertError(doc(#"{"op": "clipToLayer", "opacity": 1.5, "commands": []}"#), at: "commands[0].opacity",
                    "opacity must be in 0…1, got 1.5")
        assertError(doc(#"{"op": "clipToLayer", "opacity": 0.5}"#), at: "commands[0].commands", "missing required key")
        assertError(doc(#"{"op": "clipToLayer", "commands": [], "mask": []}"#), at: "commands[0].mask",
                    #"unknown key "mask" (expected one of: op, opacity, inverse, commands)"#)
        assertError(doc(#"{"op": "layer", "commands": [{"op": "layer", "commands": [\#(fill), {"op": "symbol", "symbol": "mark", "at": [0, 0]}]}]}"#),
                    at: "commands[0].commands[0].commands[1].symbol", #"unknown symbol "mark" (the document has no resources.symbols)"#)
        assertError(doc(#"{"op": "layer", "opacity": 0.5, "commands": []}"#), at: "commands[0].opacity",
                    #"unknown key "opacity" (expected one of: op, commands)"#)
    }

    // MARK: The recording's text form

    func testRecordingDescriptionShowsLayersClipsAndMasks() {
        let rec = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            var c = ctx
            c.translateBy(x: 1, y: 0)
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 5, height: 5)), style: FillStyle(eoFill: true), options: .inverse)
            c.clipToLayer(opacity: 0.5) { m in m.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.black)) }
            c.opacity = 0.25
            c.blendMode = .multiply
            c.drawLayer { l in
                l.fill(Path(CGRect(x: 0, y: 0, width: 3, height: 3)), with: .linearGradient(
                    Gradient(colors: [.red, .blue]), startPoint: .zero, endPoint: CGPoint(x: 3, y: 0)))
            }
            c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.red))
            c.clip(to: Path(CGRect(x: 0, y: 0, width: 4, height: 4)))
            c.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.red))
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .color(.red))
        }
        let lines = rec.description.split(separator: "\n").map(String.init)
        let text = rec.description
        XCTAssertEqual(lines.count, 12, text)
        guard lines.count == 12 else { return }
        XCTAssertEqual(lines[0], "Recording 10×10 pt, colorMode: nonLinear, opaque: false, 5 draws")
        XCTAssertEqual(lines[1], "  [0] layer opacity 0.25 blend .multiply", text)
        XCTAssertEqual(lines[2], #"      clip 1: (5 elements) "0 0 m 5 0 l 5 5 l 0 5 l h" FillStyle(eoFill: true, antialiased: true) inverse transform CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 1, ty: 0)"#, text)
        XCTAssertEqual(lines[3], "      clip 2: mask opacity 0.5", text)
        XCTAssertTrue(lines[4].hasPrefix("        [0] #0 fill "), text)
        XCTAssertTrue(lines[5].hasPrefix("    [0] #1 fill "), text)
        XCTAssertTrue(lines[5].contains("paint .linearGradient((0, 0) → (3, 0), stops [0 red, 1 blue])"), text)
        // Clips shared with the item before are named, not repeated.
        XCTAssertTrue(lines[6].hasPrefix("  [1] #2 fill ") && lines[6].hasSuffix(" opacity 0.25 blend .multiply"), text)
        XCTAssertEqual(lines[7], "      clips 1–2: as [0]", text)
        XCTAssertTrue(lines[8].hasPrefix("  [2] #3 fill "), text)
        XCTAssertEqual(lines[9], "      clips 1–2: as [1]", text)
        XCTAssertEqual(lines[10], #"      clip 3: (5 elements) "0 0 m 4 0 l 4 4 l 0 4 l h" transform CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 1, ty: 0)"#, text)
        XCTAssertTrue(lines[11].hasPrefix("  [3] #4 fill "), text)
    }
}

/// Builds what the loader builds for a perceptual linear or conic gradient (no public factory records one).
private enum SceneDecoderAccess {
    static func perceptual(_ shading: GraphicsContext.Shading) -> GraphicsContext.Shading {
        guard case .gradient(var g) = shading.kind else { return shading }
        g.colorSpace = .perceptual
        return GraphicsContext.Shading(kind: .gradient(g))
    }
}
