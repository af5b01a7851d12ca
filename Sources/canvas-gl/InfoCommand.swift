import ArgumentParser
import GPUCanvas

struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print the version, the backends, the EGL devices and what the GLES driver reports.",
        discussion: """
            For GLES: every device eglQueryDevicesEXT lists, then for the selected device (--device) the \
            vendor, renderer, version, max texture size and samples, the extensions the backend looks for, \
            the path strategy the device gets by default, and how many program binary formats the driver \
            offers (none: the program cache stands aside). Without a working EGL it says why; the \
            reference backend works regardless.

            With --fonts: the faces fontconfig and the text engine's alias table choose for SwiftUI's font \
            names (the system font's designs, common family names) and the faces other scripts fall back to.

            Examples:
              canvas-gl info
              canvas-gl info --device egl-device:0
              canvas-gl info --fonts
            """
    )

    @Option(name: .long, help: "GLES device to probe: auto, mesa, or egl-device:N.")
    var device: String = "auto"

    @Flag(name: .long, help: "Print the faces SwiftUI's font names and other scripts resolve to, and stop.")
    var fonts = false

    func run() throws {
        if fonts {
            print("fonts (name → face file):")
            for line in FontMatchingReport.lines() { print("  \(line)") }
            return
        }
        print("canvas-gl \(CanvasGL.version)")
        print("scene format: gpucanvas-scene/1")
        print("backends:")
        for b in backendSummaries { print("  \(b.name): \(b.summary)") }
        print("")
        print("reference: available")
        let selection: GLESDeviceSelection
        do { selection = try GLESDeviceSelection(parsing: device) } catch {
            throw ValidationError("--device: unknown device \"\(device)\" (expected auto, mesa or egl-device:N)")
        }
        do {
            let info = try GLESDeviceInfo.probe(selection)
            print("gles: available")
            for line in info.description.split(separator: "\n", omittingEmptySubsequences: false) {
                print("  \(line)")
            }
        } catch {
            print("gles: not available: \(error)")
            if let devices = try? GLESDeviceInfo.listDevices() {
                print("  EGL devices:" + (devices.isEmpty ? " none listed" : ""))
                for d in devices { print("    \(d)") }
            }
        }
    }
}
