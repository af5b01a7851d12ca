import ArgumentParser
import GPUCanvas

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Render a scene with two backends and measure how far apart the images are.",
        discussion: """
            Prints maxDiff (largest channel difference, 0…255), over2 (percent of pixels with a channel off by \
            more than 2), PSNR, and whether the project's default bar (over2 ≤ 0.1 %, maxDiff ≤ 8) is met. \
            Both images are premultiplied RGBA8 of the same recording. The diff image shows matching pixels \
            dimmed, pixels off by 1–2 in blue and pixels off by more in red.

            Examples:
              canvas-gl compare scene.json
              canvas-gl compare scene.json --backends reference,gles -o diff.png
              canvas-gl compare scene.json --path-strategy gpu-tessellation
              canvas-gl compare --example blend-modes
            """
    )

    @Argument(help: "The scene file.")
    var scene: String?

    @Option(name: .long, help: "Compare a built-in example instead of a scene file (see `canvas-gl examples`).")
    var example: String?

    @Option(name: .long, help: "Two backends, comma-separated: the first is the baseline.")
    var backends: String = "reference,gles"

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    @Option(name: [.short, .customLong("output")], help: "Write the diff image to this PNG.")
    var output: String?

    @Option(name: .long, help: "Pixels per point; overrides the scene's own scale.")
    var scale: Double?

    @OptionGroup(title: "Untrusted input")
    var safety: SafetyOptions

    func validate() throws {
        if scene != nil && example != nil { throw ValidationError("give a scene file or --example NAME, not both") }
        if scene == nil && example == nil { throw ValidationError("give a scene file or --example NAME") }
        let names = backends.split(separator: ",")
        if names.count != 2 { throw ValidationError("--backends takes two names, e.g. reference,gles") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
    }

    func run() throws {
        let names = backends.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        let (recording, sceneScale) = try loadInput(scene: scene, example: example, options: try safety.sceneOptions())
        let gles = try gpu.glesOptions()
        let renderers = try names.map { try safety.apply(to: makeRenderer($0, gles: gles)) }
        if let output { try checkWritable(output) }
        let s = scale.map { CGFloat($0) } ?? sceneScale
        let images = try renderers.map { try $0.render(recording, scale: s) }
        // The lowering is shared, so both renderers skip the same things: printed once, and a difference is a
        // defect worth failing on (the fuzzer runs compare).
        guard renderers[0].lastReport == renderers[1].lastReport else {
            throw CLIError("the backends skipped different draws:\n\(names[0]): \(renderers[0].lastReport)\n"
                           + "\(names[1]): \(renderers[1].lastReport)")
        }
        printWarnings(renderers[0].lastReport)
        let d = images[1].difference(from: images[0])
        print("\(names[1]) vs \(names[0]) (\(renderers[1].rendererName) vs \(renderers[0].rendererName)), "
              + "\(d.width)×\(d.height) px")
        print("maxDiff: \(d.maxDiff)")
        print("over2: \(String(format: "%.4f", d.over2 * 100))% (\(d.pixelsOver2) px)")
        print("PSNR: \(d.psnr.isInfinite ? "inf" : String(format: "%.2f", d.psnr)) dB")
        print("default bar (over2 ≤ 0.1%, maxDiff ≤ 8): \(d.meetsDefaultBar ? "met" : "NOT met")")
        if let output {
            try savePNG(d.diffImage, to: output)
            print("wrote \(output)")
        }
    }
}
