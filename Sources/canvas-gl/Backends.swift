// Backend selection in one place: adding a backend to the tool is one case in `makeRenderer` and one line in
// `backendSummaries`; the GLES device and path strategy options are one `GPUOptions` group every command
// that renders includes.
import ArgumentParser
import GPUCanvas

/// The backend names the tool accepts, in the order `info` lists them.
let backendNames = ["reference", "gles"]

/// The backend commands use when none is given: the product is the GLES renderer.
let defaultBackend = "gles"

/// `--device` and `--path-strategy`, shared by every command that renders.
///
/// `--device egl-device:0 --path-strategy gpu-tessellation` → `GLESOptions(device: .eglDevice(0),
/// pathStrategy: .gpuTessellation)`.
struct GPUOptions: ParsableArguments {
    @Option(name: .long, help: "GLES device: auto (first hardware EGL device, else Mesa surfaceless), mesa, or egl-device:N.")
    var device: String = "auto"

    @Option(name: .customLong("path-strategy"),
            help: "GLES path strategy: raster-atlas (the default) or gpu-tessellation.")
    var pathStrategy: String?

    @Flag(inversion: .prefixedNo,
          help: "Raster atlas on llvmpipe: bake colour × coverage into a BGRA8 atlas of rectangles (Mesa's linear rasterizer); --no-paint-atlas keeps R8 coverage and trapezoid bands.")
    var paintAtlas = true

    @Option(name: .customLong("coverage-format"),
            help: "Raster atlas coverage texels: r8 (the default), r16f or r32f (the conformance forms; implies --no-paint-atlas).")
    var coverageFormat: String?

    @Option(name: .customLong("blend-route"),
            help: "How blend modes other than normal read the destination: framebuffer-fetch or destination-copy (default: fetch where the driver has it).")
    var blendRoute: String?

    @Option(name: .customLong("program-cache"),
            help: "Where GLES program binaries are kept between runs: default ($XDG_CACHE_HOME/gpucanvas/programs, else ~/.cache/gpucanvas/programs), none, or a directory.")
    var programCache: String = "default"

    func validate() throws {
        _ = try glesOptions()
    }

    func glesOptions() throws -> GLESOptions {
        let selection: GLESDeviceSelection
        do { selection = try GLESDeviceSelection(parsing: device) } catch {
            throw ValidationError("--device: unknown device \"\(device)\" (expected auto, mesa or egl-device:N)")
        }
        var strategy: PathStrategyKind?
        if let pathStrategy {
            guard let s = PathStrategyKind(rawValue: pathStrategy) else {
                let all = PathStrategyKind.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--path-strategy: unknown strategy \"\(pathStrategy)\" (expected one of: \(all))")
            }
            strategy = s
        }
        var route: BlendRoute?
        if let blendRoute {
            guard let r = BlendRoute(rawValue: blendRoute) else {
                let all = BlendRoute.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--blend-route: unknown route \"\(blendRoute)\" (expected one of: \(all))")
            }
            route = r
        }
        var format = GLESOptions.CoverageFormat.r8
        if let coverageFormat {
            guard let f = GLESOptions.CoverageFormat(rawValue: coverageFormat) else {
                let all = GLESOptions.CoverageFormat.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("--coverage-format: unknown format \"\(coverageFormat)\" (expected one of: \(all))")
            }
            format = f
        }
        let cache: ProgramCacheLocation
        switch programCache {
        case "default": cache = .default
        case "none": cache = .none
        case "": throw ValidationError("--program-cache: give default, none or a directory")
        default: cache = .directory(programCache)
        }
        return GLESOptions(device: selection, pathStrategy: strategy, coverageFormat: format,
                           paintAtlas: paintAtlas && format == .r8, blendRoute: route, programCache: cache)
    }
}

/// A renderer for a backend name: `makeRenderer("reference")` → the CPU reference renderer.
/// `gles` is what `--device` and `--path-strategy` chose (`GPUOptions.glesOptions()`).
func makeRenderer(_ name: String, gles: GLESOptions = GLESOptions()) throws -> CanvasRenderer {
    switch name {
    case "reference":
        return try CanvasRenderer(backend: .reference)
    case "gles":
        do {
            return try CanvasRenderer(backend: .gles(gles))
        } catch {
            throw CLIError("the GLES backend cannot start: \(error) (--backend reference renders without EGL)")
        }
    default:
        throw CLIError("unknown backend \"\(name)\" (expected one of: \(backendNames.joined(separator: ", ")))")
    }
}

/// Says once on stderr why the GLES program cache stands aside, if it does (an unwritable directory, a
/// driver without program binaries); rendering goes on without it.
func printProgramCacheNote(_ renderer: CanvasRenderer) {
    guard let note = renderer.programCacheStatistics?.note else { return }
    FileHandle.standardError.write(Data("note: program cache: \(note)\n".utf8))
}

/// One line per backend for `info`.
let backendSummaries: [(name: String, summary: String)] = [
    ("reference", "CPU reference renderer: exact-area coverage, f32 compositing, no GL (always available)"),
    ("gles", "OpenGL ES 3 through EGL (Mesa llvmpipe surfaceless or a GPU's EGL device)"),
]
