import ArgumentParser
import Foundation
import GPUCanvas
import Shaders

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a scene file or a built-in example to a PNG or JPEG.",
        discussion: """
            The scene is validated completely before anything is drawn; an invalid scene exits non-zero with \
            the file and JSON location of the problem on stderr. What a render skips as Apple's frameworks do \
            (a NaN coordinate, an image that cannot be read) is printed as `warning: …`; --strict makes it an \
            error. Resource files resolve only inside the scene's folder and the --allow-dir folders, and the \
            scene's decoded images must fit --memory-limit. The output's extension chooses its format: .png, \
            or .jpg/.jpeg (no alpha: transparent pixels become black); any other is refused before rendering.
            On llvmpipe a one-shot render's time is mostly the LLVM compile of its shaders, so `render` asks             Mesa for unoptimised shader code (GALLIVM_PERF=nopt, the same pixels) unless GALLIVM_PERF is set.

            Examples:
              canvas-gl render scene.json -o out.png
              canvas-gl render scene.json -o out.png --backend reference --scale 2
              canvas-gl render scene.json -o out.png --device egl-device:0 --path-strategy gpu-tessellation
              canvas-gl render scene.json --dump
              canvas-gl render scene.json --dump-gpu
              canvas-gl render --example ellipse -o ellipse.png
              canvas-gl render --example ellipse -o ellipse.jpg --quality 85
              canvas-gl render --example ellipse -o ellipse.png --png-compression fastest
              mkfifo pipe; canvas-gl render --example ellipse -o pipe --format png & cat pipe > ellipse.png
              canvas-gl render untrusted.json -o out.png --strict --memory-limit 64M --allow-dir /srv/assets
            """
    )

    @Argument(help: "The scene file (JSON, gpucanvas-scene/1).")
    var scene: String?

    @Option(name: .long, help: "Render a built-in example instead of a scene file (see `canvas-gl examples`).")
    var example: String?

    @Option(name: [.short, .customLong("output")], help: "The image file to write: .png, .jpg or .jpeg.")
    var output: String?

    @OptionGroup(title: "Output")
    var image: ImageOutputOptions

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

    @Flag(name: .long, help: "Print where this one-shot render's time went as one JSON line on stderr (`bench --cold` reads it): loading, CanvasRenderer(), GLES programs, first frame, writing the file, then a second frame of the same recording, and what the process loaded (fontconfig, fallback sorts, font files, shader files).")
    var timings = false

    @OptionGroup(title: "Untrusted input")
    var safety: SafetyOptions

    func validate() throws {
        if scene != nil && example != nil { throw ValidationError("give a scene file or --example NAME, not both") }
        if scene == nil && example == nil { throw ValidationError("give a scene file or --example NAME") }
        if output == nil && !dump && !dumpGPU {
            throw ValidationError("nothing to do: give -o OUT.png (or .jpg), --dump, --dump-gpu, or several")
        }
        if dumpGPU && backend != "gles" { throw ValidationError("--dump-gpu needs --backend gles") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
    }

    func run() throws {
        var clock = PhaseClock()
        let (recording, sceneScale) = try loadInput(scene: scene, example: example, options: try safety.sceneOptions())
        clock.mark("load")
        if dump { print(recording.description) }
        guard output != nil || dumpGPU else { return }
        let settings = try image.settings()
        if let output {
            try checkWritable(output)
            try settings.check(output)
        }
        clock.mark("check")
        OneShotJIT.apply()
        let renderer = try safety.apply(to: makeRenderer(backend, gles: try gpu.glesOptions()))
        clock.mark("renderer")
        clock.count("programsAtInit", renderer.gpuResourceStats?.programs)
        let renderScale = scale.map { CGFloat($0) } ?? sceneScale
        let picture = try renderer.render(recording, scale: renderScale)
        clock.mark("firstFrame")
        clock.count("programsAfterFirstFrame", renderer.gpuResourceStats?.programs)
        clock.count("programCacheHits", renderer.programCacheStatistics?.hits)
        clock.count("programCacheMisses", renderer.programCacheStatistics?.misses)
        if let c = renderer.programCacheStatistics {
            clock.value("programCacheLoad", c.loadSeconds * 1e3)
            clock.value("programCacheBuild", c.buildSeconds * 1e3)
            clock.value("programCacheStore", c.storeSeconds * 1e3)
        }
        printWarnings(renderer.lastReport)
        printProgramCacheNote(renderer)
        if dumpGPU, let commands = renderer.lastGPUCommandDump { print(commands) }
        guard let output else { return }
        try saveImage(picture, to: output, settings: settings)
        clock.mark("write")
        clock.stamp("written")
        if timings {
            // The same frame again: what the first cost beyond it is programs compiled and first-use work.
            _ = try renderer.render(recording, scale: renderScale)
            clock.mark("secondFrame")
            clock.count("programsAfterSecondFrame", renderer.gpuResourceStats?.programs)
            // What the process loaded outside GL, each once: fontconfig (0 or 1), fallback sorts, font files,
            // shader files.
            let loads = ResourceLoads.current
            clock.count("fontconfigLoads", loads.fontconfigLoads)
            clock.count("fontSorts", loads.fontSorts)
            clock.count("facesOpened", loads.facesOpened)
            clock.count("shaderFilesRead", ShaderLibrary.fileReads)
            FileHandle.standardError.write(Data("timings: \(clock.json)\n".utf8))
        }
        if !dump && !dumpGPU { print("wrote \(output) (\(picture.width)×\(picture.height) px, \(renderer.rendererName))") }
    }
}

/// A scene file or a built-in example, as a recording and the scale it asks for.
func loadInput(scene: String?, example: String?, options: SceneLoadOptions = SceneLoadOptions()) throws -> (Recording, CGFloat) {
    if let name = example {
        guard let e = Example.named(name) else {
            throw CLIError("unknown example \"\(name)\" (see `canvas-gl examples`: \(Example.all.map(\.name).joined(separator: ", ")))")
        }
        return (e.recording, e.scale)
    }
    let s = try Scene.load(contentsOf: URL(fileURLWithPath: scene!), options: options)
    return (s.recording, s.scale)
}

/// `--strict`, `--memory-limit` and `--allow-dir`: what the commands that render scenes from others share.
struct SafetyOptions: ParsableArguments {
    @Flag(name: .long, help: "Make what a render would skip as Apple's frameworks do (a NaN coordinate, a missing image) an error, exit 1.")
    var strict = false

    @Option(name: .customLong("memory-limit"),
            help: "Decoded image memory a scene and a frame may take: bytes, or with K, M or G (binary) (default: 512M).")
    var memoryLimit: String?

    @Option(name: .customLong("allow-dir"), help: "A folder besides the scene's own that its resource files may be in (repeatable).")
    var allowDirs: [String] = []

    func validate() throws {
        _ = try limits()
    }

    /// `--memory-limit` parsed: "512M" → 512 MiB, "1G", "65536", "64K".
    func limits() throws -> RenderLimits {
        guard let text = memoryLimit?.trimmingCharacters(in: .whitespaces) else { return RenderLimits() }
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text), unit = 1
        if let last = text.last?.uppercased().first, let u = units[last] { unit = u; digits = digits.dropLast() }
        guard let n = Int(digits), n > 0, n <= Int.max / unit else {
            throw ValidationError("--memory-limit: expected a size such as 512M, 1G or 65536 (bytes), got \"\(text)\"")
        }
        return RenderLimits(imageBytes: n * unit)
    }

    func sceneOptions() throws -> SceneLoadOptions {
        SceneLoadOptions(limits: try limits(), allowedDirectories: allowDirs.map { URL(fileURLWithPath: $0) })
    }

    /// `renderer` under the policy and limits asked for.
    func apply(to renderer: CanvasRenderer) throws -> CanvasRenderer {
        renderer.diagnosticsPolicy = strict ? .strict : .lenient
        renderer.limits = try limits()
        return renderer
    }
}

/// Each thing a render skipped, as `warning: …` on stderr.
func printWarnings(_ report: RenderReport, prefix: String = "") {
    for d in report.diagnostics {
        FileHandle.standardError.write(Data("warning: \(prefix)\(d)\n".utf8))
    }
}

/// A one-shot render compiles every shader it draws with and draws each a few times: on llvmpipe the LLVM
/// optimisation passes cost more than they save. GALLIVM_PERF=nopt skips them (Mesa reads it once, when the
/// first GL context starts); the conformance catalogue's bytes are the same with and without it, and the
/// first frame of blend-modes takes about half as long (docs/performance.md, "#31"). A GALLIVM_PERF the user
/// set is left alone; renders of many frames (`animate`, `bench`) keep the optimised code.
enum OneShotJIT {
    static func apply() {
        setenv("GALLIVM_PERF", "nopt", 0)
    }
}
