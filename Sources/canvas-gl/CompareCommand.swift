import ArgumentParser
import GPUCanvas

struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Render a scene with two backends, or read two image files, and measure how far apart the images are.",
        discussion: """
            Given one scene file (or --example), renders it on two backends; given two image files (PNG or \
            JPEG, the format read from their first bytes), compares them as they are: they must have the same \
            size. Prints maxDiff (largest channel difference, 0…255), over2 (percent of pixels with a channel off by \
            more than 2), PSNR, and whether the project's default bar (over2 ≤ 0.1 %, maxDiff ≤ 8) is met. \
            Both images are compared as premultiplied RGBA8. The diff image shows matching pixels \
            dimmed, pixels off by 1–2 in blue and pixels off by more in red.

            Examples:
              canvas-gl compare scene.json
              canvas-gl compare scene.json --backends reference,gles -o diff.png
              canvas-gl compare scene.json --path-strategy gpu-tessellation
              canvas-gl compare --example blend-modes
              canvas-gl compare before.png after.png -o diff.png
            """
    )

    @Argument(help: "One scene file, or two image files (PNG or JPEG).")
    var inputs: [String] = []

    /// The scene file, when one is given.
    var scene: String? { inputs.count == 1 ? inputs[0] : nil }

    @Option(name: .long, help: "Compare a built-in example instead of a scene file (see `canvas-gl examples`).")
    var example: String?

    @Option(name: .long, help: "Two backends, comma-separated: the first is the baseline.")
    var backends: String = "reference,gles"

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    @Option(name: [.short, .customLong("output")], help: "Write the diff image to this file (.png, .jpg or .jpeg).")
    var output: String?

    @OptionGroup(title: "Output")
    var image: ImageOutputOptions

    @Option(name: .long, help: "Pixels per point; overrides the scene's own scale.")
    var scale: Double?

    @OptionGroup(title: "Untrusted input")
    var safety: SafetyOptions

    func validate() throws {
        if inputs.count > 2 { throw ValidationError("give one scene file or two image files, not \(inputs.count) files") }
        if inputs.count == 2 {
            if example != nil { throw ValidationError("two image files are compared as they are: --example goes with no files") }
            if scale != nil { throw ValidationError("two image files are compared as they are: --scale is for rendering a scene") }
            return
        }
        if scene != nil && example != nil { throw ValidationError("give a scene file or --example NAME, not both") }
        if scene == nil && example == nil { throw ValidationError("give a scene file or --example NAME (or two image files to compare as they are)") }
        let names = backends.split(separator: ",")
        if names.count != 2 { throw ValidationError("--backends takes two names, e.g. reference,gles") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
    }

    func run() throws {
        let settings = try image.settings()
        if let output {
            try checkWritable(output)
            try settings.check(output)
        }
        if inputs.count == 2 { return try compareFiles(settings: settings) }
        let names = backends.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        let (recording, sceneScale) = try loadInput(scene: scene, example: example, options: try safety.sceneOptions())
        let gles = try gpu.glesOptions()
        let renderers = try names.map { try safety.apply(to: makeRenderer($0, gles: gles)) }
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
        try report(d, settings: settings)
    }

    /// `compare A.png B.png`: B against A, read from their files.
    func compareFiles(settings: ImageWriteSettings) throws {
        let limits = try safety.limits()
        let images = try inputs.map { path -> RasterImage in
            do {
                return try RasterImage(contentsOf: URL(fileURLWithPath: path), limits: limits)
            } catch let e as ImageError {
                // ImageError's text names the file already.
                throw CLIError("\(e)")
            }
        }
        guard images[0].width == images[1].width, images[0].height == images[1].height else {
            throw CLIError("the images differ in size: \(inputs[0]) is \(images[0].width)×\(images[0].height) px, "
                           + "\(inputs[1]) is \(images[1].width)×\(images[1].height) px")
        }
        let d = images[1].difference(from: images[0])
        print("\(inputs[1]) vs \(inputs[0]), \(d.width)×\(d.height) px")
        try report(d, settings: settings)
    }

    /// The metrics, the bar, and the diff image when -o asks for it.
    func report(_ d: ImageDifference, settings: ImageWriteSettings) throws {
        print("maxDiff: \(d.maxDiff)")
        print("over2: \(String(format: "%.4f", d.over2 * 100))% (\(d.pixelsOver2) px)")
        print("PSNR: \(d.psnr.isInfinite ? "inf" : String(format: "%.2f", d.psnr)) dB")
        print("default bar (over2 ≤ 0.1%, maxDiff ≤ 8): \(d.meetsDefaultBar ? "met" : "NOT met")")
        if let output {
            try saveImage(d.diffImage, to: output, settings: settings)
            print("wrote \(output)")
        }
    }
}
