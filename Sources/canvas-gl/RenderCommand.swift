import ArgumentParser
import GPUCanvas

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file or a built-in example to a PNG.",
        discussion: """
            The scene is validated completely before anything is drawn; an invalid scene exits non-zero with \
            the file and JSON location of the problem on stderr.

            Examples:
              canvas-gl render scene.json -o out.png
              canvas-gl render scene.json -o out.png --backend reference --scale 2
              canvas-gl render scene.json -o out.png --device egl-device:0 --path-strategy gpu-tessellation
              canvas-gl render scene.json --dump
              canvas-gl render scene.json --dump-gpu
              canvas-gl render --example ellipse -o ellipse.png
            """
    )

    @Argument(help: "The scene file (JSON, gpucanvas-scene/1).")
    var scene: String?

    @Option(name: .long, help: "Render a built-in example instead of a scene file (see `canvas-gl examples`).")
    var example: String?

    @Option(name: [.short, .customLong("output")], help: "The PNG file to write.")
    var output: String?

    @Option(name: .long, help: "gles or reference.")
    var backend: String = defaultBackend

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    @Option(name: .long, help: "Pixels per point; overrides the scene's own scale.")
    var scale: Double?

    @Flag(name: .long, help: "Print the recording as text to stdout.")
    var dump = false

    @Flag(name: .customLong("dump-gpu"), help: "Print the GLES command buffer of the frame (passes, binds, uploads, draws).")
    var dumpGPU = false

    func validate() throws {
        if scene != nil && example != nil { throw ValidationError("give a scene file or --example NAME, not both") }
        if scene == nil && example == nil { throw ValidationError("give a scene file or --example NAME") }
        if output == nil && !dump && !dumpGPU {
            throw ValidationError("nothing to do: give -o OUT.png, --dump, --dump-gpu, or several")
        }
        if dumpGPU && backend != "gles" { throw ValidationError("--dump-gpu needs --backend gles") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
    }

    func run() throws {
        let (recording, sceneScale) = try loadInput(scene: scene, example: example)
        if dump { print(recording.description) }
        guard output != nil || dumpGPU else { return }
        let renderer = try makeRenderer(backend, gles: try gpu.glesOptions())
        if let output { try checkWritable(output) }
        let image = try renderer.render(recording, scale: scale.map { CGFloat($0) } ?? sceneScale)
        if dumpGPU, let commands = renderer.lastGPUCommandDump { print(commands) }
        guard let output else { return }
        try savePNG(image, to: output)
        if !dump && !dumpGPU { print("wrote \(output) (\(image.width)×\(image.height) px, \(renderer.rendererName))") }
    }
}

/// A scene file or a built-in example, as a recording and the scale it asks for.
func loadInput(scene: String?, example: String?) throws -> (Recording, CGFloat) {
    if let name = example {
        guard let e = Example.named(name) else {
            throw CLIError("unknown example \"\(name)\" (see `canvas-gl examples`: \(Example.all.map(\.name).joined(separator: ", ")))")
        }
        return (e.recording, e.scale)
    }
    let s = try Scene.load(contentsOf: URL(fileURLWithPath: scene!))
    return (s.recording, s.scale)
}
