// `canvas-gl animate`: exports an animation (a built-in example or an NDJSON scene stream) through the
// library's `FrameExporter` to a PNG sequence, an APNG, a GIF, an MP4, a WebM or raw RGBA on stdout.
//
// Ctrl-C: SIGINT is caught (not fatal), the export stops before its next frame, the destination removes its
// temporary file (and stops ffmpeg), and the tool exits 130 saying how far it got. Progress goes to stderr:
// a bar redrawn in place on a terminal, a plain line every few seconds when stderr is a file or a pipe.
import ArgumentParser
import GPUCanvas
#if canImport(Glibc)
import Glibc
#endif

struct Animate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "animate",
        abstract: "Export an animation: a PNG sequence, APNG, GIF, MP4, WebM or raw RGBA frames.",
        discussion: """
            The input is a built-in example (--example; --list names them) or an NDJSON stream: one scene \
            document (docs/scene-format.md) per line, one frame per line, from a file or `-` for stdin. \
            Frame i is drawn at i/fps seconds, so an export gives the same bytes every run.

            The output's form comes from -o: a name ending in / (or an existing folder) is a PNG sequence \
            (DIR/frame-00000.png …); .apng or .png an animated PNG; .gif, .mp4 and .webm are encoded by \
            ffmpeg; `-o - --raw` writes raw RGBA (straight alpha) to stdout. Any other name is refused.

            --range A..<B renders only frames A to B − 1 of the animation, byte for byte as a whole export \
            renders them (a PNG sequence keeps their numbers: frame-01200.png …), so several machines can \
            each render a range. Video segments start with a keyframe and share the whole export's codec \
            settings, so `ffmpeg -f concat -safe 0 -i list.txt -c copy whole.mp4` joins them without \
            re-encoding (README: "Rendering on several machines").

            Examples:
              canvas-gl animate --example clock --duration 10 -o clock.mp4
              canvas-gl animate --example digital-rain --fps 24 --duration 3 -o rain.gif
              canvas-gl animate frames.ndjson -o frames/
              canvas-gl animate --example clock --frames 60 --raw -o - | ffmpeg -f rawvideo -pix_fmt rgba -s 256x256 -i - out.mkv
              canvas-gl animate --example clock --size 1024x1024 --frames 120 -o /tmp/f/ --bench
              canvas-gl animate --example clock --fps 30 --range 1200..<2400 -o seg-01200.mp4
            """
    )

    @Argument(help: "An NDJSON scene stream (one scene per line), or - for stdin.")
    var stream: String?

    @Option(name: .long, help: "Export a built-in animation instead of a stream (see --list).")
    var example: String?

    @Flag(name: .long, help: "List the built-in animations and exit.")
    var list = false

    @Option(name: [.short, .customLong("output")], help: "DIR/ (PNG sequence), out.apng, out.gif, out.mp4, out.webm, or - with --raw.")
    var output: String?

    @Flag(name: .long, help: "Raw RGBA frames (8-bit, straight alpha, no header) to stdout; needs -o -.")
    var raw = false

    @Option(name: .long, help: "Frames per second.")
    var fps: Double = 30

    @Option(name: .long, help: "Seconds of animation (default 5; a stream's default is its length).")
    var duration: Double?

    @Option(name: .long, help: "Number of frames (instead of --duration).")
    var frames: Int?

    @Option(name: .long, help: "Canvas size in points, WxH (default: the example's or the stream's first scene's).")
    var size: String?

    @Option(name: .long, help: "Pixels per point (default: the stream's first scene's, else 1).")
    var scale: Double?

    @Option(name: .long, help: "gles or reference.")
    var backend: String = defaultBackend

    @OptionGroup(title: "GLES")
    var gpu: GPUOptions

    @Option(name: .long, help: "Render only frames A..<B (from 0) of the animation, as a whole export renders them.")
    var range: String?

    @Option(name: .customLong("png-compression"), help: "PNG frames (sequence, APNG): fastest (default), default or smallest (docs/performance.md).")
    var pngCompression: String = "fastest"

    @Option(name: .long, help: "The ffmpeg executable for GIF, MP4 and WebM (default: ffmpeg on PATH).")
    var ffmpeg: String = "ffmpeg"

    @Option(name: .long, help: "Encode worker threads (default: one per core).")
    var workers: Int?

    @Flag(name: .long, help: "Make what a frame would skip as Apple's frameworks do (a NaN coordinate, a missing image) an error that stops the export, exit 1.")
    var strict = false

    @Flag(name: .long, help: "No progress output.")
    var quiet = false

    @Flag(name: .long, help: "Print render, readback, encode and end-to-end frames per second, then the sequential baseline (render, then writePNG at its default compression, one frame after another).")
    var bench = false

    @Option(name: .long, help: "With --bench: export and run the baseline this many times, interleaved, and print the medians (a shared machine's load moves from second to second).")
    var runs: Int = 1

    func validate() throws {
        if list { return }
        if stream != nil && example != nil { throw ValidationError("give a stream or --example NAME, not both") }
        if stream == nil && example == nil { throw ValidationError("give an NDJSON stream (or - for stdin) or --example NAME") }
        guard output != nil else { throw ValidationError("give -o DIR/, -o OUT.apng|.gif|.mp4|.webm, or -o - --raw") }
        if output == "-" && !raw { throw ValidationError("-o - writes raw RGBA frames to stdout: add --raw") }
        if raw && output != "-" { throw ValidationError("--raw writes to stdout: use -o -") }
        if bench && output == "-" { throw ValidationError("--bench prints to stdout, where -o - writes the frames: give -o DIR/ or a file") }
        if !(fps.isFinite && fps > 0) { throw ValidationError("--fps must be a number > 0") }
        if let duration, !(duration.isFinite && duration > 0) { throw ValidationError("--duration must be a number of seconds > 0") }
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if duration != nil && frames != nil { throw ValidationError("give --duration or --frames, not both") }
        if let scale, !(scale.isFinite && scale > 0) { throw ValidationError("--scale must be a number > 0") }
        if runs < 1 { throw ValidationError("--runs must be at least 1") }
        if let workers, workers < 1 { throw ValidationError("--workers must be at least 1") }
        if runs > 1 && !bench { throw ValidationError("--runs goes with --bench") }
        if let size, parseSize(size) == nil { throw ValidationError("--size must be WxH in points, e.g. 256x256, not \"\(size)\"") }
        guard parsePNGCompression(pngCompression) != nil else {
            throw ValidationError("--png-compression must be fastest, default or smallest, not \"\(pngCompression)\"")
        }
        if let range {
            guard let r = parseFrameRange(range) else {
                throw ValidationError("--range must be A..<B with whole numbers 0 ≤ A < B, e.g. 1200..<2400, not \"\(range)\"")
            }
            if let frames, r.upperBound > frames {
                throw ValidationError("--range \(range) ends after the animation's \(frames) frames")
            }
            if let duration, r.upperBound > FrameExporter(size: CGSize(width: 1, height: 1), framesPerSecond: fps,
                                                          count: .duration(duration)).frameCount! {
                throw ValidationError("--range \(range) ends after the animation's \(duration) s at \(fps) fps")
            }
            if bench { throw ValidationError("--bench measures a whole export: leave out --range") }
        }
    }

    func run() throws {
        if list {
            for e in AnimatedExample.all { print("\(e.name.padding(toLength: 16, withPad: " ", startingAt: 0)) \(formatSize(e.size)) pt  \(e.summary)") }
            return
        }
        // The input: its frame source, default size and scale.
        let source: any FrameSource
        var canvasSize: CGSize
        var defaultScale: CGFloat = 1
        var isStream = false
        var keepsState = false
        if let name = example {
            guard let e = AnimatedExample.named(name) else {
                throw CLIError("unknown animation \"\(name)\" (expected one of: \(AnimatedExample.all.map(\.name).joined(separator: ", ")))")
            }
            source = e.source
            canvasSize = e.size
            keepsState = e.keepsState
        } else {
            let s = try exportStep { stream == "-" ? try SceneStreamSource() : try SceneStreamSource(contentsOf: URL(fileURLWithPath: stream!)) }
            source = s
            canvasSize = s.size
            defaultScale = s.scale
            isStream = true
            keepsState = true
        }
        if let size { canvasSize = parseSize(size)! }

        let frameRange = range.flatMap(parseFrameRange)
        var exporter = FrameExporter(size: canvasSize, scale: scale.map { CGFloat($0) } ?? defaultScale, framesPerSecond: fps,
                                     count: frames.map { .frames($0) } ?? duration.map { .duration($0) }
                                         ?? (isStream ? .untilSourceEnds : .duration(5)))
        var exported: any FrameSource = source
        if let frameRange {
            // Frame i of the whole export is drawn at startTime + i / fps with startTime 0, i.e. at exactly
            // Double(i) / fps: the same Double the given times below hold, so the same pixels.
            exporter.count = .times(frameRange.map { Double($0) / fps })
            exported = FrameRangeSource(source, range: frameRange, framesPerSecond: fps, replaysEarlierFrames: keepsState)
        }
        exporter.encodeWorkers = workers ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
        var destination = try makeDestination()
        if let frameRange, frameRange.lowerBound > 0 {
            destination = FrameNumberOffset(destination, offset: frameRange.lowerBound)
        }
        let renderer = try makeRenderer(backend, gles: try gpu.glesOptions())
        renderer.diagnosticsPolicy = strict ? .strict : .lenient

        // Ctrl-C: stop cleanly (see the top of the file).
        let cancellation = ExportCancellation()
        signal(SIGINT, SIG_IGN)
        let interrupt = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        interrupt.setEventHandler { cancellation.cancel() }
        interrupt.resume()
        defer { interrupt.cancel() }

        let meter = ProgressMeter(mode: quiet ? .silent : (isatty(2) != 0 ? .bar : .lines), sampleMemory: bench)
        let report: ExportReport
        do {
            report = try exporter.export(exported, renderer: renderer, to: destination, cancellation: cancellation,
                                         progress: { meter.update($0) })
        } catch let e as ExportError {
            meter.end()
            if case .cancelled = e {
                FileHandle.standardError.write(Data("canvas-gl: \(e)\n".utf8))
                throw ExitCode(130)
            }
            throw CLIError("\(e)")
        }
        meter.end()
        if let frameRange, report.frameCount < frameRange.count {
            throw CLIError("the stream ended after frame \(frameRange.lowerBound + report.frameCount - 1), before --range's last frame \(frameRange.upperBound - 1) (\(destination.name) holds the frames before)")
        }
        // The exporter renders on its own thread and keeps no per-frame reports: what the last frame skipped
        // is what is known here (the frames of one animation usually skip alike).
        printWarnings(renderer.lastReport, prefix: "last frame: ")
        printProgramCacheNote(renderer)
        let summary = "wrote \(destination.name): \(report.frameCount) frames, \(report.width)×\(report.height) px, "
            + String(format: "%.1f fps end to end (%@)", report.framesPerSecond, renderer.rendererName)
        if output == "-" {
            if !quiet { FileHandle.standardError.write(Data((summary + "\n").utf8)) }
        } else if !quiet || bench {
            print(summary)
        }
        if bench {
            if !meter.memorySamples.isEmpty {
                print("memory     VmRSS every 1000 frames: " + meter.memorySamples.map { String(format: "%d: %.1f MiB", $0.frames, Double($0.kib) / 1024) }.joined(separator: ", "))
            }
            let sequential = try printBench(report, exporter: exporter, source: source, renderer: renderer, cancellation: cancellation)
            guard runs > 1, let sequential else { return }
            // More interleaved runs: the pipeline again (a stream re-read from its file), then the baseline.
            var pairs = [(report.framesPerSecond, sequential)]
            for _ in 1 ..< runs {
                let again: any FrameSource = isStream ? try SceneStreamSource(contentsOf: URL(fileURLWithPath: stream!)) : source
                let r = try exporter.export(again, renderer: renderer, to: try makeDestination(), cancellation: cancellation)
                guard let s = try printBench(r, exporter: exporter, source: again, renderer: renderer, cancellation: cancellation,
                                             quiet: true) else { return }
                pairs.append((r.framesPerSecond, s))
            }
            func median(_ v: [Double]) -> Double {
                let s = v.sorted()
                return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
            }
            print("runs       " + pairs.map { String(format: "%.1f/%.1f", $0.0, $0.1) }.joined(separator: " ") + " (pipeline/sequential fps)")
            print(String(format: "median     pipeline %.1f fps, sequential %.1f fps, speed-up %.2f× (median of the %d runs' ratios)",
                         median(pairs.map(\.0)), median(pairs.map(\.1)), median(pairs.map { $0.0 / $0.1 }), runs))
        }
    }

    /// The destination -o names.
    func makeDestination() throws -> FrameDestination {
        let out = output!
        if out == "-" { return RawFrameDestination() }
        let compression = parsePNGCompression(pngCompression) ?? .fastest
        var isDir: ObjCBool = false
        if out.hasSuffix("/") || (FileManager.default.fileExists(atPath: out, isDirectory: &isDir) && isDir.boolValue) {
            return PNGSequenceDestination(directory: URL(fileURLWithPath: out), compression: compression)
        }
        let ext = URL(fileURLWithPath: out).pathExtension.lowercased()
        if ext == "apng" || ext == "png" { return APNGDestination(url: URL(fileURLWithPath: out), compression: compression) }
        if let format = VideoFormat(pathExtension: ext) {
            return FFmpegDestination(url: URL(fileURLWithPath: out), format: format, ffmpeg: ffmpeg)
        }
        let what = ext.isEmpty ? "a name without an extension" : ".\(ext) files"
        throw CLIError("cannot write \(out): canvas-gl animate does not write \(what); it writes DIR/ (PNG sequence), .apng, .png (APNG), .gif, .mp4, .m4v or .webm, or -o - --raw")
    }

    /// `--bench`: the pipeline's stage rates, then the sequential baseline over the same frames: render, then
    /// `writePNG` (its default compression, `.default`), one after another, into a temporary folder.
    /// Returns the sequential rate (nil when there is no baseline); `quiet` prints nothing.
    @discardableResult
    func printBench(_ report: ExportReport, exporter: FrameExporter, source: any FrameSource, renderer: CanvasRenderer,
                    cancellation: ExportCancellation, quiet: Bool = false) throws -> Double? {
        func rate(_ seconds: Double) -> String { seconds > 0 ? String(format: "%.1f", Double(report.frameCount) / seconds) : "-" }
        func print(_ line: String) { if !quiet { Swift.print(line) } }
        print("record     \(rate(report.recordSeconds)) fps (record thread: the source draws or parses each frame)")
        print("render     \(rate(report.renderSeconds)) fps (render thread: render and readback)")
        print("readback   \(rate(report.readbackSeconds)) fps (waiting for, mapping and copying the pixels alone\(report.readbackSeconds == 0 ? "; none on this backend" : ""))")
        print("encode     \(rate(report.encodeSeconds)) fps per worker, \(report.encodeWorkers) workers")
        print("write      \(rate(report.writeSeconds)) fps (writer thread)")
        print(String(format: "pipeline   %.1f fps end to end (%d frames in %.2f s, at most %d in flight)",
                     report.framesPerSecond, report.frameCount, report.elapsed, report.peakFramesInFlight))
        // A stream is read once: the baseline reads the file again (not possible for stdin).
        var baselineSource = source
        if source is SceneStreamSource {
            guard let stream, stream != "-" else {
                print("sequential (skipped: standard input is read once; export the same scenes from a file to compare)")
                return nil
            }
            baselineSource = try SceneStreamSource(contentsOf: URL(fileURLWithPath: stream))
        }
        let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let start = DispatchTime.now().uptimeNanoseconds
        var frames = 0
        var firstFrame: RasterImage?
        try exporter.forEachFrame(of: baselineSource, renderer: renderer) { frame in
            if cancellation.isCancelled { throw CLIError("interrupted during the sequential baseline") }
            try frame.image.writePNG(to: folder.appendingPathComponent("frame-\(frame.frame.index).png"))
            if firstFrame == nil { firstFrame = frame.image }
            frames += 1
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if let image = firstFrame {
            // One frame through both PNG settings, alone on this thread: what the encode stage saves.
            // Medians of 5, the three interleaved so the machine's load falls on each alike.
            var times: [PNGCompression: [Double]] = [:], sizes: [PNGCompression: Int] = [:]
            for _ in 0 ..< 5 {
                for compression in PNGCompression.allCases {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    sizes[compression] = try image.pngData(compression: compression).count
                    times[compression, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                }
            }
            for compression in PNGCompression.allCases {
                let ms = times[compression]!.sorted()[2]
                print(String(format: "png %@ %.1f ms, %d KiB (frame 0, median of 5)",
                             compression.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0), ms, sizes[compression]! / 1024))
            }
        }
        let sequential = Double(frames) / seconds
        print(String(format: "sequential %.1f fps (render then writePNG, one frame after another, %d frames in %.2f s)",
                     sequential, frames, seconds))
        print(String(format: "speed-up   %.2f×", report.framesPerSecond / sequential))
        return sequential
    }

    /// Runs a step whose `ExportError` should read as the tool's own error.
    private func exportStep<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let e as ExportError { throw CLIError("\(e)") }
    }
}

/// "1200..<2400" → 1200 ..< 2400; nil for anything else (an empty or negative range too).
func parseFrameRange(_ text: String) -> Range<Int>? {
    let parts = text.components(separatedBy: "..<")
    guard parts.count == 2, let a = Int(parts[0].trimmingCharacters(in: .whitespaces)),
          let b = Int(parts[1].trimmingCharacters(in: .whitespaces)), a >= 0, a < b else { return nil }
    return a ..< b
}

/// Frames `range` of an animation: the exporter numbers them from 0 and gives their times; this asks the
/// whole animation's source for frame `range.lowerBound + i`. A source that keeps state from frame to frame
/// (a stream's read position, a view's state and animations) first sees every earlier frame, unrendered, so
/// it is where a whole export would have it.
final class FrameRangeSource: FrameSource {
    let base: any FrameSource
    let range: Range<Int>
    let framesPerSecond: Double
    private var replayPending: Bool

    init(_ base: any FrameSource, range: Range<Int>, framesPerSecond: Double, replaysEarlierFrames: Bool) {
        self.base = base
        self.range = range
        self.framesPerSecond = framesPerSecond
        self.replayPending = replaysEarlierFrames
    }

    func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
        if replayPending {
            replayPending = false
            for i in 0 ..< range.lowerBound {
                guard try base.recording(for: FrameTime(index: i, time: Double(i) / framesPerSecond), size: size) != nil else {
                    throw ExportError.frameFailed(frame: FrameTime(index: i, time: Double(i) / framesPerSecond),
                                                  reason: "the source ended before --range's first frame \(range.lowerBound)")
                }
            }
        }
        return try base.recording(for: FrameTime(index: range.lowerBound + frame.index, time: frame.time), size: size)
    }
}

/// A destination that sees frame i as frame `offset + i`: a range's PNG files keep the whole export's numbers.
final class FrameNumberOffset: FrameDestination, @unchecked Sendable {
    let inner: FrameDestination
    let offset: Int
    var name: String { inner.name }

    init(_ inner: FrameDestination, offset: Int) {
        self.inner = inner
        self.offset = offset
    }

    private func shifted(_ frame: FrameTime) -> FrameTime { FrameTime(index: frame.index + offset, time: frame.time) }

    func begin(width: Int, height: Int, framesPerSecond: Double, frameCount: Int?) throws {
        try inner.begin(width: width, height: height, framesPerSecond: framesPerSecond, frameCount: frameCount)
    }
    func encode(_ image: RasterImage, frame: FrameTime) throws -> Data { try inner.encode(image, frame: shifted(frame)) }
    func write(_ encoded: Data, frame: FrameTime) throws { try inner.write(encoded, frame: shifted(frame)) }
    func finish() throws { try inner.finish() }
    func abort() { inner.abort() }
}

/// "256x256" → 256×256 pt; nil for anything else.
func parseSize(_ text: String) -> CGSize? {
    let parts = text.lowercased().split(separator: "x")
    guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
    return CGSize(width: w, height: h)
}

func formatSize(_ s: CGSize) -> String { "\(Int(s.width))×\(Int(s.height))" }

/// Progress on stderr: a bar redrawn in place (terminal), a line every 2 s (file or pipe), or nothing.
final class ProgressMeter: @unchecked Sendable {
    enum Mode { case bar, lines, silent }
    let mode: Mode
    private let lock = NSLock()
    private var lastDraw = 0.0
    private var drewBar = false

    /// `--bench`: the resident set size (VmRSS, KiB) after every 1000th frame, to show memory stays flat.
    private(set) var memorySamples: [(frames: Int, kib: Int)] = []
    private let sampleMemory: Bool

    init(mode: Mode, sampleMemory: Bool = false) {
        self.mode = mode
        self.sampleMemory = sampleMemory
    }

    func update(_ p: ExportProgress) {
        lock.lock()
        defer { lock.unlock() }
        if sampleMemory, p.framesWritten % 1000 == 0, let kib = residentKiB() { memorySamples.append((p.framesWritten, kib)) }
        guard mode != .silent else { return }
        let last = p.frameCount.map { p.framesWritten == $0 } ?? false
        let interval = mode == .bar ? 0.1 : 2.0
        guard last || p.elapsed - lastDraw >= interval else { return }
        lastDraw = p.elapsed
        let eta = p.estimatedRemaining.map { String(format: "ETA %.0f s", $0.rounded(.up)) } ?? ""
        let counts = p.frameCount.map { "\(p.framesWritten)/\($0)" } ?? "\(p.framesWritten)"
        let rate = String(format: "%.1f fps", p.framesPerSecond)
        switch mode {
        case .bar:
            var bar = ""
            if let total = p.frameCount, total > 0 {
                let width = 30, filled = p.framesWritten * width / total
                bar = "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
            }
            FileHandle.standardError.write(Data("\r\(bar)\(counts) frames  \(rate)  \(eta)\u{1B}[K".utf8))
            drewBar = true
        case .lines:
            FileHandle.standardError.write(Data("frames \(counts)  \(rate)  \(eta)\n".utf8))
        case .silent: break
        }
    }

    /// Ends the bar's line.
    func end() {
        lock.lock()
        defer { lock.unlock() }
        if drewBar { FileHandle.standardError.write(Data("\n".utf8)); drewBar = false }
    }
}

/// This process's resident set size in KiB, from /proc/self/status (Linux); nil elsewhere.
func residentKiB() -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
}
