import ArgumentParser
import GPUCanvas

struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the rendering of scene files, or a one-shot process's first image (--cold).",
        discussion: """
            Per scene: load once (prepareMs, not part of the frame times), render one warm-up frame that \
            compiles the programs specialised for the scene (`CanvasRenderer.prepare`; firstMs), \
            then N timed frames. A frame is one whole `renderer.render(recording, scale:into:)`: clear, draw \
            and read the pixels back into the previous frame's image, as the side-by-side bench's other peers \
            read into one array. One renderer is reused for every scene and frame.

            --json prints exactly:
              {"scenes":[{"file","backend","renderer","prepareMs","firstMs","framesMs":[…],"medianMs","minMs","drawCalls"}]}
            (drawCalls is null where the backend does not count them).

            --cold measures what a fresh process pays for its first image instead: for each --example, \
            `canvas-gl render --example NAME --timings` runs in a new process on GLES with Mesa's shader cache \
            empty and warm, and on the reference backend, --runs times interleaved; it prints the medians of \
            spawn → start-up → CanvasRenderer() → first frame (and the programs it compiled) → file written, \
            and EGL display + context creation alone. Run it on a release build (docs/performance.md).

            Examples:
              canvas-gl bench scenes/S1-fills.json --frames 10
              canvas-gl bench scenes/S1-fills.json --device egl-device:0 --path-strategy gpu-tessellation
              canvas-gl bench scenes/*.json --backend reference --json --save-last out/
              canvas-gl bench --cold --example ellipse --example blend-modes --runs 5 --device mesa
            """
    )

    @Argument(help: "Scene files.")
    var scenes: [String] = []

    @Flag(name: .long, help: "Measure a fresh process's first image for each --example (see above).")
    var cold = false

    @Option(name: .customLong("example"), help: "With --cold: a built-in example to measure (repeatable).")
    var examples: [String] = []

    @Option(name: .long, help: "With --cold: fresh processes per example and mode; the table gives their medians.")
    var runs: Int = 5

    @Flag(name: .customLong("egl-probe"), help: ArgumentHelp("Create an EGL display and context, print the time it took on stderr, exit (what --cold runs).", visibility: .hidden))
    var eglProbe = false

    @Option(name: .long, help: "gles or reference.")
    var backend: String = defaultBackend

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    @Option(name: .long, help: "Timed frames per scene (after one warm-up frame).")
    var frames: Int = 10

    @Flag(name: .long, help: "Print the results as JSON.")
    var json = false

    @Flag(name: .long, help: "GLES: also print where the median frame's and the warm-up frame's time went (geometry, coverage, submit, gpu, readback).")
    var stages = false

    @Option(name: .customLong("save-last"), help: "Write each scene's last frame to DIR/<scene-name>.png.")
    var saveLast: String?

    func validate() throws {
        if eglProbe { return }
        if cold {
            if examples.isEmpty { throw ValidationError("--cold measures built-in examples: give --example NAME (repeatable)") }
            if !scenes.isEmpty { throw ValidationError("--cold measures --example NAMEs, not scene files") }
            if runs < 1 { throw ValidationError("--runs must be at least 1") }
            for e in examples where Example.named(e) == nil {
                throw ValidationError("unknown example \"\(e)\" (see `canvas-gl examples`)")
            }
            return
        }
        if !examples.isEmpty { throw ValidationError("--example goes with --cold; the timed bench takes scene files") }
        if scenes.isEmpty { throw ValidationError("give at least one scene file") }
        if frames < 1 || frames > 100_000 { throw ValidationError("--frames must be between 1 and 100000") }
    }

    struct Result {
        var file: String
        var renderer: String
        var prepareMs: Double
        var firstMs: Double
        var framesMs: [Double]
        var drawCalls: Int?
        var medianMs: Double {
            let s = framesMs.sorted()
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        var minMs: Double { framesMs.min() ?? 0 }
    }

    func run() throws {
        if eglProbe {
            let t0 = monotonicNanoseconds()
            _ = try GLESDeviceInfo.probe(try gpu.glesOptions().device)
            FileHandle.standardError.write(Data(String(format: "egl: %.3f\n", Double(monotonicNanoseconds() - t0) / 1e6).utf8))
            return
        }
        if cold {
            try ColdStartBench(examples: examples, runs: runs, device: gpu.device).run()
            return
        }
        let renderer = try makeRenderer(backend, gles: try gpu.glesOptions())
        if let dir = saveLast {
            do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
            catch { throw CLIError("cannot create directory \(dir): \(readableReason(error))") }
        }
        var results: [Result] = []
        for file in scenes {
            let t0 = ContinuousClock.now
            let scene = try Scene.load(contentsOf: URL(fileURLWithPath: file))
            let prepare = ms(since: t0)
            // The warm-up frame compiles the programs specialised for the scene (`prepare`), as a long-running
            // renderer has them after its second frame, so that the timed frames measure the steady state.
            let t1 = ContinuousClock.now
            try renderer.prepare(scene.recording, scale: scene.scale)
            let first = ms(since: t1)
            let firstStages = renderer.lastGPUTimings
            var last = try renderer.render(scene.recording, scale: scene.scale)
            var times: [Double] = []
            var stageTimes: [GLESFrameTimings] = []
            times.reserveCapacity(frames)
            for _ in 0 ..< frames {
                let t = ContinuousClock.now
                try renderer.render(scene.recording, scale: scene.scale, into: &last)
                times.append(ms(since: t))
                if let s = renderer.lastGPUTimings { stageTimes.append(s) }
            }
            if stages, !stageTimes.isEmpty {
                // The stages of the frame whose total is the median, so the parts add up.
                let median = stageTimes.sorted { $0.total < $1.total }[stageTimes.count / 2]
                FileHandle.standardError.write(Data("\(file): \(median)\n".utf8))
                if let firstStages {
                    FileHandle.standardError.write(Data("\(file), warm-up frame: \(firstStages)\n".utf8))
                }
            }
            if let dir = saveLast {
                let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
                try saveImage(last, to: URL(fileURLWithPath: dir).appendingPathComponent(name + ".png").path)
            }
            results.append(Result(file: file, renderer: renderer.rendererName, prepareMs: prepare, firstMs: first,
                                  framesMs: times, drawCalls: renderer.lastDrawCallCount))
        }
        print(json ? jsonReport(results) : table(results))
    }

    /// Columns: scene, median, min, first frame, load (ms); then the frame count and the renderer.
    func table(_ results: [Result]) -> String {
        let names = results.map { URL(fileURLWithPath: $0.file).deletingPathExtension().lastPathComponent }
        let w = max(5, names.map(\.count).max() ?? 0)
        func pad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        var lines = ["scene".padding(toLength: w, withPad: " ", startingAt: 0)
                     + pad("median ms", 11) + pad("min ms", 10) + pad("first ms", 10) + pad("load ms", 10)]
        for (name, r) in zip(names, results) {
            lines.append(name.padding(toLength: w, withPad: " ", startingAt: 0) + pad(fixed(r.medianMs), 11)
                         + pad(fixed(r.minMs), 10) + pad(fixed(r.firstMs), 10) + pad(fixed(r.prepareMs), 10))
        }
        lines.append("\(frames) timed frames per scene after one warm-up; backend \(backend): \(results.first?.renderer ?? "")")
        return lines.joined(separator: "\n")
    }

    func jsonReport(_ results: [Result]) -> String {
        let entries = results.map { r in
            "{\"file\":\(quoted(r.file)),\"backend\":\(quoted(backend)),\"renderer\":\(quoted(r.renderer)),"
                + "\"prepareMs\":\(num(r.prepareMs)),\"firstMs\":\(num(r.firstMs)),"
                + "\"framesMs\":[\(r.framesMs.map(num).joined(separator: ","))],"
                + "\"medianMs\":\(num(r.medianMs)),\"minMs\":\(num(r.minMs)),"
                + "\"drawCalls\":\(r.drawCalls.map(String.init) ?? "null")}"
        }
        return "{\"scenes\":[" + entries.joined(separator: ",") + "]}"
    }
}

private func ms(since start: ContinuousClock.Instant) -> Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
}

/// Milliseconds to 3 decimals (µs resolution is all the clock reading is worth).
private func num(_ v: Double) -> String { String(format: "%.3f", v) }
private func fixed(_ v: Double) -> String { String(format: "%.2f", v) }

/// A JSON string literal, escaped by Foundation's encoder: `quoted("a\"b")` → `"a\"b"`.
func quoted(_ s: String) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .withoutEscapingSlashes
    // Encoding a String cannot fail.
    return String(decoding: (try? encoder.encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
}
