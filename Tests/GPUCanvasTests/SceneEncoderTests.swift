import XCTest
@testable import GPUCanvas

/// `Recording.sceneJSON(scale:)`: record → encode → load gives an equal recording, in every colour mode.
final class SceneEncoderTests: XCTestCase {
    @discardableResult
    private func roundTrip(_ recording: Recording, scale: CGFloat = 1,
                           file: StaticString = #filePath, line: UInt = #line) throws -> Scene {
        let json = recording.sceneJSON(scale: scale)
        let scene = try Scene(jsonData: Data(json.utf8))
        XCTAssertEqual(scene.recording, recording, "\n\(json)", file: file, line: line)
        XCTAssertEqual(scene.scale, scale, file: file, line: line)
        return scene
    }

    /// A fixed pseudo-random sequence (64-bit LCG), so the test is the same on every run.
    private struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    private func busyRecording(_ mode: ColorRenderingMode, seed: UInt64) -> Recording {
        Recording(size: CGSize(width: 123.5, height: 77), colorMode: mode, isOpaque: mode == .linear) { ctx, size in
            var rng = LCG(state: seed)
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
            for k in 0 ..< 40 {
                var c = ctx
                c.translateBy(x: rng.next() * 100, y: rng.next() * 60)
                c.rotate(by: .degrees(rng.next() * 360))
                c.scaleBy(x: 0.5 + rng.next(), y: 0.5 + rng.next())
                c.opacity = rng.next()
                c.blendMode = GraphicsContext.BlendMode(rawValue: Int32(k % 28))
                // Colours of every space, some outside [0, 1], alphas including 0 and 1.
                let space = Color.RGBColorSpace.allCases[k % 3]
                let alpha = k % 7 == 0 ? 0 : (k % 5 == 0 ? 1 : rng.next())
                let color = Color(space, red: rng.next() * 1.4 - 0.2, green: rng.next(), blue: rng.next(), opacity: alpha)
                let rect = CGRect(x: rng.next() * 10, y: rng.next() * 10, width: rng.next() * 30, height: rng.next() * 30)
                switch k % 4 {
                case 0: c.fill(Path(ellipseIn: rect), with: .color(color), style: FillStyle(eoFill: k % 8 == 0, antialiased: k % 3 != 0))
                case 1: c.fill(Path(roundedRect: rect, cornerRadius: rng.next() * 8), with: .color(color))
                case 2:
                    var p = Path()
                    p.move(to: CGPoint(x: rng.next() * 20, y: rng.next() * 20))
                    p.addQuadCurve(to: CGPoint(x: rng.next() * 20, y: 1e-7), control: CGPoint(x: 0.1, y: 1e6))
                    p.addArc(center: CGPoint(x: 5, y: 5), radius: 3, startAngle: .degrees(10), endAngle: .degrees(300), clockwise: k % 2 == 0)
                    c.stroke(p, with: .color(color), style: StrokeStyle(lineWidth: rng.next() * 5, lineCap: .round,
                                                                        lineJoin: .bevel, miterLimit: 2.5,
                                                                        dash: [rng.next() * 4, 1], dashPhase: rng.next()))
                default: c.stroke(Path(rect), with: .foreground, lineWidth: rng.next())
                }
            }
        }
    }

    func testNonLinearRecordingRoundTripsExactly() throws {
        try roundTrip(busyRecording(.nonLinear, seed: 1), scale: 2)
    }

    func testLinearRecordingRoundTripsExactly() throws {
        let scene = try roundTrip(busyRecording(.linear, seed: 2))
        XCTAssertTrue(scene.recording.isOpaque)
    }

    func testExtendedLinearRecordingRoundTripsExactly() throws {
        // Extended values (negative red) survive: the working space keeps them and so does the encoding.
        try roundTrip(busyRecording(.extendedLinear, seed: 3), scale: 0.5)
    }

    func testEmptyRecordingRoundTrips() throws {
        try roundTrip(Recording(size: CGSize(width: 1, height: 2)) { _, _ in }, scale: 3)
    }

    func testTheEncodingHasTheDocumentedShape() throws {
        let rec = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 5, height: 5)), with: .color(.red))
            var c = ctx
            c.translateBy(x: 2, y: 0)
            c.opacity = 0.5
            c.blendMode = .multiply
            c.stroke(Path("0 0 m 1 1 l")!, with: .color(.sRGB, red: 0, green: 0, blue: 1, opacity: 0.25), lineWidth: 2)
        }
        let json = rec.sceneJSON(scale: 2)
        XCTAssertTrue(json.contains(#""format": "gpucanvas-scene/1""#))
        XCTAssertTrue(json.contains(#""size": [10, 10]"#))
        XCTAssertTrue(json.contains(#""scale": 2"#))
        // A draw with the default state is written bare; the other in a copy scope that sets its state.
        XCTAssertTrue(json.contains(#"{"op": "fill", "path": {"elements": [["m", 0, 0], ["l", 5, 0], ["l", 5, 5], ["l", 0, 5], ["z"]]}, "shading": {"color": {"space": "sRGB", "rgba": [1, 0.23137255, 0.1882353, 1]}}}"#), json)
        XCTAssertTrue(json.contains(#"{"op": "copy", "commands": [{"op": "transform", "value": [1, 0, 0, 1, 2, 0]}, {"op": "opacity", "value": 0.5}, {"op": "blendMode", "value": "multiply"}, {"op": "stroke", "#), json)
        XCTAssertTrue(json.contains(#""rgba": [0, 0, 1, 0.25]"#), json)
        XCTAssertTrue(json.contains(#""lineWidth": 2"#), json)
    }

    func testLinearModesWriteLinearColours() throws {
        let rec = Recording(size: CGSize(width: 4, height: 4), colorMode: .linear) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.sRGBLinear, red: 0.5, green: 0.25, blue: 0))
        }
        XCTAssertTrue(rec.sceneJSON().contains(#"{"space": "sRGBLinear", "rgba": [0.5, 0.25, 0, 1]}"#), rec.sceneJSON())
    }

    func testFullyTransparentPaintIsWrittenAsZeros() throws {
        let rec = Recording(size: CGSize(width: 4, height: 4)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red.opacity(0)))
        }
        XCTAssertTrue(rec.sceneJSON().contains(#""rgba": [0, 0, 0, 0]"#))
        try roundTrip(rec)
    }

    func testNonFiniteNumbersAreWrittenAsNullAndRejectedOnLoad() {
        let rec = Recording(size: CGSize(width: 4, height: 4)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 1, height: 1)), with: .color(.red))
            ctx.fill(Path("0 0 m 1 0 l h")!.applying(CGAffineTransform(scaleX: .nan, y: 1)), with: .color(.red))
        }
        let json = rec.sceneJSON()
        XCTAssertTrue(json.contains(#"["m", null, 0]"#), json)
        XCTAssertThrowsError(try Scene(jsonData: Data(json.utf8))) { error in
            XCTAssertEqual((error as? SceneError)?.location, "commands[1].path.elements[0][1]")
            XCTAssertEqual((error as? SceneError)?.message, "expected a number, got null")
        }
    }
}
