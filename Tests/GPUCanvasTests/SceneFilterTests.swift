import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The scene format's `filter` op: every filter loads as the closure spelling out the same `addFilter` calls
/// records, a recording with filters written by `sceneJSON()` loads back equal, and bad filter objects are
/// errors at their JSON location.
final class SceneFilterTests: XCTestCase {
    private let canvas = CGSize(width: 40, height: 30)
    private let square = Path(CGRect(x: 5, y: 5, width: 20, height: 10))

    private func load(_ json: String) throws -> Scene { try Scene(jsonData: Data(json.utf8)) }

    private func doc(_ commands: String) -> String {
        #"{"format": "gpucanvas-scene/1", "size": [40, 30], "commands": [\#(commands)]}"#
    }

    /// Every filter of the format, with the calls that record the same.
    func testEveryFilterLoadsAsTheClosureRecordsIt() throws {
        let red = Color(red: 1, green: 0, blue: 0)
        let matrix: ColorMatrix = { var m = ColorMatrix(); m.r2 = 0.5; m.a5 = 0.25; return m }()
        let cases: [(String, GraphicsContext.Filter, GraphicsContext.FilterOptions)] = [
            (#"{"saturation": 0.5}"#, .saturation(0.5), []),
            (#"{"brightness": -0.25}"#, .brightness(-0.25), [.linearColor]),
            (#"{"contrast": 2}"#, .contrast(2), []),
            (#"{"colorInvert": 0.5}"#, .colorInvert(0.5), []),
            (#"{"grayscale": 1}"#, .grayscale(1), []),
            (#"{"hueRotation": 90}"#, .hueRotation(.degrees(90)), []),
            (#"{"luminanceToAlpha": true}"#, .luminanceToAlpha, []),
            (#"{"colorMultiply": {"space": "sRGB", "rgba": [1, 0, 0, 1]}}"#, .colorMultiply(red), []),
            (#"{"alphaMultiply": {"space": "sRGB", "rgba": [1, 0, 0, 1]}}"#, .alphaMultiply(red), []),
            (#"{"alphaThreshold": {"min": 0.25, "max": 0.75, "color": {"space": "sRGB", "rgba": [1, 0, 0, 1]}}}"#,
             .alphaThreshold(min: 0.25, max: 0.75, color: red), []),
            (#"{"colorMatrix": [1, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0.25]}"#, .colorMatrix(matrix), []),
            (#"{"colorMatrix": {"matrix": [1, 0.5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0.25], "premultiplied": true}}"#,
             .colorMatrix(matrix, isPremultiplied: true), []),
            (#"{"blur": {"radius": 3, "options": ["opaque"]}}"#, .blur(radius: 3, options: .opaque), []),
            (#"{"shadow": {"color": {"space": "sRGB", "rgba": [1, 0, 0, 1]}, "radius": 2, "x": 1, "y": -1, "blendMode": "multiply", "options": ["shadowAbove", "invertsAlpha"]}}"#,
             .shadow(color: red, radius: 2, x: 1, y: -1, blendMode: .multiply, options: [.shadowAbove, .invertsAlpha]), []),
            (#"{"projectionTransform": [1, 0, 0.001, 0, 1, 0, 5, 0, 1]}"#,
             .projectionTransform({ var p = ProjectionTransform(); p.m13 = 0.001; p.m31 = 5; return p }()), []),
        ]
        for (json, filter, options) in cases {
            let linear = options.contains(.linearColor) ? #", "linearColor": true"# : ""
            let loaded = try load(doc(#"{"op": "filter", "filter": \#(json)\#(linear)}, {"op": "fill", "path": {"rect": [5, 5, 20, 10]}, "shading": {"color": "red"}}"#)).recording
            let expected = Recording(size: canvas) { ctx, _ in
                ctx.addFilter(filter, options: options)
                ctx.fill(self.square, with: .color(.red))
            }
            XCTAssertEqual(loaded, expected, json)
        }
    }

    /// Filters added under different transforms, on draws and on a layer, round-trip through `sceneJSON()`.
    func testFiltersRoundTripWithTheirTransforms() throws {
        let rec = Recording(size: canvas) { ctx, _ in
            var c = ctx
            c.scaleBy(x: 2, y: 2)
            c.addFilter(.blur(radius: 1))
            c.translateBy(x: 3, y: 0)
            c.addFilter(.hueRotation(.degrees(30)), options: .linearColor)
            c.fill(self.square, with: .color(.blue))
            ctx.addFilter(.alphaThreshold(min: 0.5, color: .green))
            ctx.drawLayer { l in
                l.fill(self.square, with: .color(.red))
            }
        }
        let json = rec.sceneJSON()
        let loaded = try load(json).recording
        XCTAssertEqual(loaded, rec, json)
    }

    func testBadFilterObjectsAreErrorsAtTheirLocation() throws {
        let bad: [(String, String, String)] = [
            (#"{"saturation": 1, "contrast": 1}"#, "commands[0].filter", "exactly one key"),
            (#"{"sharpen": 1}"#, "commands[0].filter.sharpen", #"unknown key "sharpen""#),
            (#"{"colorMatrix": [1, 2, 3]}"#, "commands[0].filter.colorMatrix", "20 colour matrix entries"),
            (#"{"blur": {"radius": -1}}"#, "commands[0].filter.blur.radius", "radius"),
            (#"{"luminanceToAlpha": false}"#, "commands[0].filter.luminanceToAlpha", "true"),
        ]
        for (filter, location, words) in bad {
            do {
                _ = try load(doc(#"{"op": "filter", "filter": \#(filter)}"#))
                XCTFail("expected an error for \(filter)")
            } catch let e as SceneError {
                XCTAssertEqual(e.location, location, "\(e)")
                XCTAssertTrue(e.message.contains(words), "\(e)")
            }
        }
    }
}
