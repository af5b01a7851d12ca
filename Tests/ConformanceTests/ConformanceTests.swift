// Cross-backend conformance: every scene of the catalogue (`scenes/*.json`, written by `make_catalogue.py`)
// is rendered by the CPU reference and by the GLES backend with each path strategy, on Mesa llvmpipe, and
// the two images must meet DESIGN.md's bar. A failure writes the reference, GL and diff PNGs and names them.
//
// Run one strategy: `swift test --filter ConformanceTests`; the failure images land in
// `$CONFORMANCE_OUT` (default: `<tmp>/gpucanvas-conformance/<strategy>/`).
import Foundation
import GPUCanvas
import Testing

/// DESIGN.md's default bar: no channel off by more than 8 anywhere…
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

@Suite("Conformance: GLES vs reference on llvmpipe")
struct ConformanceTests {
    @Test("the catalogue covers the issue's list with at least 60 scenes")
    func catalogueSize() {
        #expect(Catalogue.names.count >= 60)
        for required in ["fill-star-evenodd", "fill-star-aliased", "transform-skew", "transform-nonuniform-scale",
                         "opacity-overlap", "stroke-cap-round", "stroke-join-bevel", "stroke-miter-limit-switch",
                         "stroke-dash-phase", "stroke-hairline-0.1", "fill-rect-subpixel", "fill-far-offcanvas",
                         "fill-10k-segments-spiral", "fill-coordinates-1e6", "fill-abutting-rects"] {
            #expect(Catalogue.names.contains(required), "missing catalogue scene \(required)")
        }
    }

    @Test("every scene meets the bar", arguments: PathStrategyKind.allCases)
    func catalogue(strategy: PathStrategyKind) throws {
        let reference = try CanvasRenderer(backend: .reference)
        let gles = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: strategy)))
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
                let dir = Catalogue.failureDirectory.appendingPathComponent(strategy.rawValue)
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                try expected.writePNG(to: dir.appendingPathComponent(name + "-reference.png"))
                try actual.writePNG(to: dir.appendingPathComponent(name + "-gles.png"))
                try d.diffImage.writePNG(to: dir.appendingPathComponent(name + "-diff.png"))
                failures.append("\(name): \(d) — images in \(dir.path)")
            }
        }
        // The figures quoted in the README and the issue notes.
        print("conformance \(strategy): \(Catalogue.names.count - failures.count)/\(Catalogue.names.count) pass, "
              + "\(worst.identical) byte-identical, worst maxDiff \(worst.maxDiff), "
              + "worst over2 \(String(format: "%.4f", worst.over2 * 100)) %")
        let report = failures.joined(separator: "\n")
        #expect(failures.isEmpty, "\(failures.count) of \(Catalogue.names.count) scenes fail with \(strategy):\n\(report)")
    }
}
