// Backend selection in one place: adding a backend to the tool is one case in `makeRenderer` and one line in
// `backendSummaries`.
import GPUCanvas

/// The backend names the tool accepts, in the order `info` lists them.
let backendNames = ["reference", "gles"]

/// A renderer for a backend name: `makeRenderer("reference")` → the CPU reference renderer.
func makeRenderer(_ name: String) throws -> CanvasRenderer {
    switch name {
    case "reference":
        return try CanvasRenderer(backend: .reference)
    case "gles":
        throw CLIError("the GLES backend is not available in this build")
    default:
        throw CLIError("unknown backend \"\(name)\" (expected one of: \(backendNames.joined(separator: ", ")))")
    }
}

/// One line per backend for `info`.
let backendSummaries: [(name: String, summary: String)] = [
    ("reference", "CPU reference renderer: exact-area coverage, f32 compositing, no GL (always available)"),
    ("gles", "OpenGL ES 3 through EGL (Mesa llvmpipe surfaceless or a GPU's EGL device)"),
]
