import ArgumentParser
import GPUCanvas

struct Examples: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "examples",
        abstract: "List the built-in examples, or render them all.",
        discussion: """
            Each example is a renderer closure written against the SwiftUI API, as a user would write it.

            Examples:
              canvas-gl examples
              canvas-gl examples --render-to demo/
              canvas-gl examples --render-to demo/ --backend reference
            """
    )

    @Option(name: .customLong("render-to"), help: "Render every example to DIR/NAME.png.")
    var renderTo: String?

    @Option(name: .long, help: "gles or reference.")
    var backend: String = defaultBackend

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    func run() throws {
        guard let dir = renderTo else {
            let width = Example.all.map(\.name.count).max() ?? 0
            for e in Example.all {
                print(e.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + e.summary)
            }
            return
        }
        let renderer = try makeRenderer(backend, gles: try gpu.glesOptions())
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create directory \(dir): \(readableReason(error))")
        }
        for e in Example.all {
            let file = URL(fileURLWithPath: dir).appendingPathComponent(e.name + ".png").path
            let image: RasterImage
            do {
                image = try renderer.render(e.recording, scale: e.scale)
            } catch {
                throw CLIError("example \(e.name): \(error)")
            }
            try saveImage(image, to: file)
            print("wrote \(file) (\(image.width)×\(image.height) px)")
        }
    }
}
