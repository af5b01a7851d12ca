// Cross-backend conformance: every scene of the catalogue (`scenes/*.json`, written by `make_catalogue.py`)
// is rendered by the CPU reference and by the GLES backend in each form a user can select (`GLESForm`: both
// path strategies, the raster atlas's coverage forms besides llvmpipe's default paint form, and both blend
// routes: framebuffer fetch and the destination copy NVIDIA takes), on Mesa llvmpipe, and the two images must
// meet docs/DESIGN-NOTES.md's bar. A failure writes the reference, GL and diff PNGs and names them.
//
// Run it: `swift test --filter ConformanceTests`; the failure images land in
// `$CONFORMANCE_OUT` (default: `<tmp>/gpucanvas-conformance/<form>/`).
import Foundation
import GPUCanvas
import Testing

/// docs/DESIGN-NOTES.md's default bar: no channel off by more than 8 anywhere…
let defaultMaxDiff = 8
/// …and at most 0.1 % of the pixels with a channel off by more than 2 (one 8-bit rounding on each side plus
/// one step of coverage quantisation).
let defaultOver2 = 0.001

/// Scenes that need a looser bar, with the reason. Empty: every scene meets the default bar.
let barExceptions: [String: (maxDiff: Int, over2: Double, why: String)] = [:]

enum Catalogue {
    static let directory: URL = Bundle.module.url(forResource: "scenes", withExtension: nil)!

    /// Scene names (file names without `.json`), sorted.
    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    static func load(_ name: String) throws -> Scene {
        try Scene.load(contentsOf: directory.appendingPathComponent(name + ".json"))
    }

    static var failureDirectory: URL {
        if let dir = ProcessInfo.processInfo.environment["CONFORMANCE_OUT"] { return URL(fileURLWithPath: dir) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("gpucanvas-conformance")
    }
}

/// One way the GLES backend can be asked to draw paths: a path strategy and, for the raster atlas, the form
/// of its atlas. Prints as the `canvas-gl` flags that select it.
struct GLESForm: CustomStringConvertible, Sendable {
    var options: GLESOptions
    var description: String

    /// raster-atlas in llvmpipe's default paint form (BGRA8 colour × coverage), in the R8 coverage form
    /// (`--no-paint-atlas`), in the R16F and R32F coverage forms (`GLESOptions.coverageFormat`), and
    /// gpu-tessellation, all with llvmpipe's default blend route (framebuffer fetch); then raster-atlas (paint
    /// and R8 forms) and gpu-tessellation again with the destination-copy blend route
    /// (`--blend-route destination-copy`), the route NVIDIA takes.
    static let all: [GLESForm] = [
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas), description: "raster-atlas"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false),
                 description: "raster-atlas-r8"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, coverageFormat: .r16f),
                 description: "raster-atlas-r16f"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, coverageFormat: .r32f),
                 description: "raster-atlas-r32f"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .gpuTessellation), description: "gpu-tessellation"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, blendRoute: .destinationCopy),
                 description: "raster-atlas-copy"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false,
                                      blendRoute: .destinationCopy),
                 description: "raster-atlas-r8-copy"),
        GLESForm(options: GLESOptions(device: .mesa, pathStrategy: .gpuTessellation, blendRoute: .destinationCopy),
                 description: "gpu-tessellation-copy"),
    ]
}

@Suite("Conformance: GLES vs reference on llvmpipe")
struct ConformanceTests {
    @Test("the catalogue covers the issue's list with at least 200 scenes")
    func catalogueSize() {
        #expect(Catalogue.names.count >= 200)
        // Paths, strokes, transforms, opacity.
        for required in ["fill-star-evenodd", "fill-star-aliased", "transform-skew", "transform-nonuniform-scale",
                         "opacity-overlap", "stroke-cap-round", "stroke-join-bevel", "stroke-miter-limit-switch",
                         "stroke-dash-phase", "stroke-hairline-0.1", "fill-rect-subpixel", "fill-far-offcanvas",
                         "fill-10k-segments-spiral", "fill-coordinates-1e6", "fill-abutting-rects"] {
            #expect(Catalogue.names.contains(required), "missing catalogue scene \(required)")
        }
        // Gradients, styles, palettes, clips, clipToLayer masks, layers and their combinations.
        for required in ["gradient-linear-repeat", "gradient-radial-mirror", "gradient-radial-twopoint-repeat-mirror",
                         "gradient-conic-linearColor", "gradient-linear-hard-stops", "gradient-radial-unsorted-stops",
                         "gradient-conic-stops-inside", "gradient-linear-single-stop", "gradient-translucent-stops",
                         "gradient-linear-rotated", "gradient-radial-skewed", "gradient-on-strokes",
                         "style-linear", "style-angular-partial-span", "style-angular-negative-span", "style-elliptical",
                         "palette", "blend-layer-copy-in-clip", "blend-layer-clear-in-clip",
                         "blend-layer-destinationIn-in-clip", "clip-rotated-ellipse", "clip-aliased", "clip-inverse",
                         "clip-nested-inverse-evenodd", "clip-under-transforms", "clip-on-strokes", "clip-then-layer",
                         "layer-then-clip-inside", "mask-cliptolayer-soft", "mask-cliptolayer-gradient-alpha",
                         "mask-cliptolayer-opacity", "mask-cliptolayer-inverse", "mask-nested", "mask-content-with-clip",
                         "layer-opacity-nested", "layer-blend-mode", "layer-empty", "layer-partly-offcanvas",
                         "combo-clip-layer-opacity", "edge-gradients-bleed"] {
            #expect(Catalogue.names.contains(required), "missing catalogue scene \(required)")
        }
        // Images: resources.images, the image op and the tiledImage shading.
        for required in ["image-scaled-up-bilinear", "image-scaled-up-nearest", "image-scaled-down",
                         "image-rotated-bilinear", "image-rotated-nearest", "image-skewed-and-mirrored",
                         "image-natural-size-subpixel-offsets", "image-at-anchors-retina", "image-template-tinted",
                         "image-tiled-sourceRect-scale-origin-rotated", "image-tiled-nearest-under-scale",
                         "image-tiled-strokes", "image-under-clips", "image-under-cliptolayer-mask",
                         "image-in-layers-with-opacity", "image-blend-modes", "image-translucent"] {
            #expect(Catalogue.names.contains(required), "missing catalogue scene \(required)")
        }
        // Every blend mode over a translucent gradient backdrop.
        for mode in ["normal", "multiply", "screen", "overlay", "darken", "lighten", "colorDodge", "colorBurn",
                     "softLight", "hardLight", "difference", "exclusion", "hue", "saturation", "color", "luminosity",
                     "clear", "copy", "sourceIn", "sourceOut", "sourceAtop", "destinationOver", "destinationIn",
                     "destinationOut", "destinationAtop", "xor", "plusDarker", "plusLighter"] {
            #expect(Catalogue.names.contains("blend-\(mode)-over-gradient"),
                    "missing catalogue scene blend-\(mode)-over-gradient")
        }
    }

    @Test("every path strategy has a form here")
    func formsCoverTheStrategies() {
        for strategy in PathStrategyKind.allCases {
            #expect(GLESForm.all.contains { $0.options.pathStrategy == strategy }, "no conformance form for \(strategy)")
        }
    }

    @Test("every blend route has a form here")
    func formsCoverTheBlendRoutes() {
        for route in BlendRoute.allCases {
            // nil is llvmpipe's default route, framebuffer fetch.
            #expect(GLESForm.all.contains { ($0.options.blendRoute ?? .framebufferFetch) == route },
                    "no conformance form for blend route \(route)")
        }
    }

    @Test("every scene meets the bar", arguments: GLESForm.all)
    func catalogue(form: GLESForm) throws {
        let reference = try CanvasRenderer(backend: .reference)
        let gles = try CanvasRenderer(backend: .gles(form.options))
        var failures: [String] = []
        var worst = (maxDiff: 0, over2: 0.0, identical: 0)
        for name in Catalogue.names {
            let scene = try Catalogue.load(name)
            let expected = try reference.render(scene.recording, scale: scene.scale)
            let actual = try gles.render(scene.recording, scale: scene.scale)
            // A blank reference would make the comparison vacuous.
            #expect(expected.pixels.contains { $0 != 0 }, "\(name): the reference image is blank")
            let d = actual.difference(from: expected)
            worst.maxDiff = max(worst.maxDiff, d.maxDiff)
            worst.over2 = max(worst.over2, d.over2)
            if d.maxDiff == 0 { worst.identical += 1 }
            let bar = barExceptions[name] ?? (defaultMaxDiff, defaultOver2, "")
            if !d.meets(maxDiff: bar.maxDiff, over2: bar.over2) {
                let dir = Catalogue.failureDirectory.appendingPathComponent(form.description)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try expected.writePNG(to: dir.appendingPathComponent(name + "-reference.png"))
                try actual.writePNG(to: dir.appendingPathComponent(name + "-gles.png"))
                try d.diffImage.writePNG(to: dir.appendingPathComponent(name + "-diff.png"))
                failures.append("\(name): \(d) — images in \(dir.path)")
            }
        }
        // The figures quoted in the README and the issue notes.
        print("conformance \(form): \(Catalogue.names.count - failures.count)/\(Catalogue.names.count) pass, "
              + "\(worst.identical) byte-identical, worst maxDiff \(worst.maxDiff), "
              + "worst over2 \(String(format: "%.4f", worst.over2 * 100)) %")
        let report = failures.joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of \(Catalogue.names.count) scenes fail with \(form):\n\(report)")
    }
}
