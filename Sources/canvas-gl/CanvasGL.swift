// canvas-gl: renders scene files and built-in examples, compares backends, benchmarks.
//
// Every failure is a thrown error; ArgumentParser prints it to stderr as `Error: <message>` and exits with a
// non-zero status, so no path through the tool ends in a crash or a stack trace.
import ArgumentParser
import GPUCanvas

@main
struct CanvasGL: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "canvas-gl",
        abstract: "Render SwiftUI Canvas scenes headless, with a CPU reference renderer or OpenGL ES.",
        discussion: """
            Scene files are the JSON form of a recording (docs/scene-format.md).

            Examples:
              canvas-gl examples --render-to demo/
              canvas-gl render scene.json -o out.png --backend reference
              canvas-gl render --example ellipse -o ellipse.png
              canvas-gl info
              canvas-gl animate --example clock --duration 10 -o clock.mp4
            """,
        version: "canvas-gl \(version)",
        subcommands: [Render.self, Examples.self, Info.self, Compare.self, Bench.self, Animate.self]
    )
}

/// An error whose message is the whole story (printed by ArgumentParser as `Error: <message>`).
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
