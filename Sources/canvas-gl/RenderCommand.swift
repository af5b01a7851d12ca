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
              canvas-gl render scene.json --dump
              canvas-gl render --example ellipse -o ellipse.png
            """
    )

    @Argument(help: "The scene file (JSON, gpucanvas-scene/1).")
    var scene: String?

    @Option(name: .long, help: "Render a built-in example instead of a scene file (see `canvas-gl examples`).")
    var example: String?

    @Option(name: [.short, .customLong("output")], help: "The PNG file to write.")
    var output: String?

    @Option(name: .long, help: "reference or gles.")
    var backend: String = "reference"

    @Option(name: .long, help: "Pixels per point; overrides the scene's own scale.")
    var scale: Double?

    @Flag(name: .long, help: "Print the recording as text to stdout.")
    var dump = false

    func validate() throws {
        if scene != nil && example != nil { throw ValidationError("give a scene file or --example NAME, not both") }
        if scene == nil && example == nil { throw ValidationError("give a scene file or --example NAME") }
        if output == nil && !dump { throw ValidationError("nothing to do: give -o OUT.png, --dump, or both") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
    }

    func run() throws {
        let (recording, sceneScale) = try loadInput(scene: scene, example: example)
        if dump { print(recording.description) }
        guard let output else { return }
        let renderer = try makeRenderer(backend)
        try checkWritable(output)
        let image = try renderer.render(recording, scale: scale.map { CGFloat($0) } ?? sceneScale)
        try savePNG(image, to: output)
        if !dump { print("wrote \(output) (\(image.width)×\(image.height) px, \(renderer.rendererName))") }
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
