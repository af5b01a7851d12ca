import ArgumentParser
import GPUCanvas

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the version and the backends this build has.",
        discussion: """
            For each backend: what it is, and whether it starts here (for GLES, what the driver reports).

            Example:
              canvas-gl info
            """
    )

    func run() throws {
        print("canvas-gl \(CanvasGL.version)")
        print("scene format: gpucanvas-scene/1")
        print("backends:")
        for b in backendSummaries {
            print("  \(b.name): \(b.summary)")
            do {
                let r = try makeRenderer(b.name)
                print("    available: \(r.rendererName)")
            } catch {
                print("    \(error)")
            }
        }
    }
}
