// `canvas-gl bench --cold`: what a one-shot process pays before its first image, per example, each run a fresh
// process. Timers sit in the CLI around public calls (`render --timings`); the GLES backend's own counters
// are what `CanvasRenderer` exposes (`gpuResourceStats.programs`).
//
// Per run: spawn → `render`'s run() begins (dynamic loading, Swift and Foundation start-up) → scene loaded →
// `CanvasRenderer()` (EGL display and context, the base GLES programs compiled and linked) → first frame (the
// specialised programs it needs, compiled on first use, and its drawing) → file written. Each example runs on
// GLES with Mesa's shader cache and the program cache empty (MESA_SHADER_CACHE_DIR and XDG_CACHE_HOME: a fresh
// folder) and warm (a folder one uncounted run filled), and on the reference backend; and, alone, EGL display +
// context creation (`GLESDeviceInfo.probe`), the floor under every GLES run. Runs are interleaved (round after
// round of every example and mode) so the machine's load falls on all alike; the table gives medians.
import ArgumentParser
import GPUCanvas
#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: one clock for the whole machine, so a parent's spawn time and its child's
/// stamps compare.
func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

/// Phase timings of one process, as one JSON object: `{"start": ns, "load": ms, …}`.
struct PhaseClock {
    private(set) var start = monotonicNanoseconds()
    private var last = monotonicNanoseconds()
    private var fields: [(String, String)] = []

    init() {
        fields.append(("start", String(start)))
    }

    /// Milliseconds since the previous mark, under `name`.
    mutating func mark(_ name: String) {
        let now = monotonicNanoseconds()
        fields.append((name, String(format: "%.3f", Double(now - last) / 1e6)))
        last = now
    }

    /// The clock's reading itself (ns), under `name`.
    mutating func stamp(_ name: String) { fields.append((name, String(monotonicNanoseconds()))) }

    /// A figure in milliseconds under `name`.
    mutating func value(_ name: String, _ ms: Double) { fields.append((name, String(format: "%.3f", ms))) }

    mutating func count(_ name: String, _ value: Int?) {
        if let value { fields.append((name, String(value))) }
    }

    var json: String { "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }
}

/// One run of `bench --cold`.
struct ColdRun {
    enum Mode: String, CaseIterable { case coldCache = "gles, empty cache", warmCache = "gles, warm cache", reference }
    /// Spawn → the file is written, ms.
    var total: Double
    /// Spawn → `render`'s run() begins, ms.
    var startUp: Double
    var phases: [String: Double]
}

struct ColdStartBench {
    let examples: [String]
    let runs: Int
    let device: String
    let keep: Bool

    private let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0]
    private let scratch = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-cold-\(getpid())")

    init(examples: [String], runs: Int, device: String, keep: Bool = false) {
        self.examples = examples
        self.runs = runs
        self.device = device
        self.keep = keep
    }

    func run() throws {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { if !keep { try? FileManager.default.removeItem(at: scratch) } }
        // A warm cache per example: one uncounted run fills it.
        var warm: [String: String] = [:]
        for e in examples {
            let dir = scratch.appendingPathComponent("warm-\(e)").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            _ = try render(e, mode: .warmCache, cacheDir: dir)
            // Without entries there is no warm run to measure (a Mesa built or configured without its disk cache).
            let entries = FileManager.default.enumerator(atPath: dir)?.allObjects.count ?? 0
            if entries == 0 {
                FileHandle.standardError.write(Data("warning: Mesa wrote nothing to \(dir): its shader cache is off, so the warm runs are cold too\n".utf8))
            }
            warm[e] = dir
        }
        var results: [String: [ColdRun.Mode: [ColdRun]]] = [:]
        var egl: [Double] = []
        for round in 0 ..< runs {
            egl.append(try probeEGL(round: round))
            for e in examples {
                for mode in ColdRun.Mode.allCases {
                    var cache = warm[e]!
                    if mode == .coldCache {
                        cache = scratch.appendingPathComponent("cold-\(e)-\(round)").path
                        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
                    }
                    results[e, default: [:]][mode, default: []].append(try render(e, mode: mode, cacheDir: cache))
                    if mode == .coldCache { try? FileManager.default.removeItem(atPath: cache) }
                }
            }
        }
        print(table(results, egl: egl))
    }

    /// Runs `canvas-gl render --example NAME --timings` in a fresh process and reads its timings line.
    private func render(_ example: String, mode: ColdRun.Mode, cacheDir: String) throws -> ColdRun {
        let out = scratch.appendingPathComponent("\(example).png").path
        var args = ["render", "--example", example, "-o", out, "--timings"]
        args += mode == .reference ? ["--backend", "reference"] : ["--backend", "gles", "--device", device]
        let (spawned, stderr) = try spawn(args, cacheDir: cacheDir)
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("timings: ") }),
              let object = try JSONSerialization.jsonObject(with: Data(line.dropFirst(9).utf8)) as? [String: Any],
              let start = (object["start"] as? NSNumber)?.uint64Value, let written = (object["written"] as? NSNumber)?.uint64Value
        else { throw CLIError("render --example \(example) (\(mode.rawValue)) printed no timings: \(stderr)") }
        var phases: [String: Double] = [:]
        for (k, v) in object where k != "start" && k != "written" { phases[k] = (v as? NSNumber)?.doubleValue }
        return ColdRun(total: Double(written - spawned) / 1e6, startUp: Double(start - spawned) / 1e6, phases: phases)
    }

    /// EGL display + context alone in a fresh process (`bench --egl-probe`), empty shader cache; spawn → exit, ms,
    /// and the probe's own figure.
    private func probeEGL(round: Int) throws -> Double {
        let cache = scratch.appendingPathComponent("egl-\(round)").path
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (_, stderr) = try spawn(["bench", "--egl-probe", "--device", device], cacheDir: cache)
        guard let line = stderr.split(separator: "\n").last(where: { $0.hasPrefix("egl: ") }), let ms = Double(line.dropFirst(5)) else {
            throw CLIError("bench --egl-probe printed no time: \(stderr)")
        }
        return ms
    }

    /// Starts the tool with `arguments` and MESA_SHADER_CACHE_DIR = XDG_CACHE_HOME = `cacheDir`, waits, and
    /// returns the clock reading just before the spawn and its stderr. A failed run is an error naming it.
    private func spawn(_ arguments: [String], cacheDir: String) throws -> (UInt64, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["MESA_SHADER_CACHE_DIR"] = cacheDir
        // The GLES program cache's default folder goes with Mesa's, so "empty" and "warm" are both caches'.
        env["XDG_CACHE_HOME"] = cacheDir
        env["MESA_SHADER_CACHE_DISABLE"] = nil
        env["MESA_DISK_CACHE_SINGLE_FILE"] = nil
        p.environment = env
        let errURL = scratch.appendingPathComponent("stderr-\(UUID())")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        p.standardError = try FileHandle(forWritingTo: errURL)
        p.standardOutput = FileHandle.nullDevice
        let t0 = monotonicNanoseconds()
        try p.run()
        p.waitUntilExit()
        let stderr = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        guard p.terminationStatus == 0 else {
            throw CLIError("canvas-gl \(arguments.joined(separator: " ")) failed (exit \(p.terminationStatus)): \(stderr)")
        }
        return (t0, stderr)
    }

    private func table(_ results: [String: [ColdRun.Mode: [ColdRun]]], egl: [Double]) -> String {
        func median(_ v: [Double]) -> Double {
            let s = v.sorted()
            guard !s.isEmpty else { return .nan }
            return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        }
        func f(_ v: Double) -> String { v.isNaN ? "-" : String(format: "%.0f", v) }
        var lines = ["Fresh process per run, medians of \(runs) interleaved runs, ms (spawn → file written = total).",
                     "| example | run | total | start-up | load | CanvasRenderer() | programs at init | first frame | programs compiled in it | ≈ their cost | write | ratio to reference |",
                     "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for e in examples {
            let ref = median(results[e]?[.reference]?.map(\.total) ?? [])
            for mode in ColdRun.Mode.allCases {
                let rs = results[e]?[mode] ?? []
                func m(_ key: String) -> Double { median(rs.compactMap { $0.phases[key] }) }
                let total = median(rs.map(\.total))
                let atInit = m("programsAtInit"), afterFirst = m("programsAfterFirstFrame")
                let compiled = atInit.isNaN ? Double.nan : afterFirst - atInit
                // The first frame beyond the second of the same recording: compiling, then first-use work
                // (atlases, glyphs, uploads).
                let beyond = mode == .reference ? Double.nan : median(rs.compactMap { r in
                    r.phases["firstFrame"].flatMap { a in r.phases["secondFrame"].map { a - $0 } } })
                lines.append("| \(e) | \(mode.rawValue) | \(f(total)) | \(f(median(rs.map(\.startUp)))) | \(f(m("load"))) | \(f(m("renderer"))) | "
                             + "\(f(atInit)) | \(f(m("firstFrame"))) | \(f(compiled)) | \(f(beyond)) | \(f(m("write"))) | "
                             + String(format: "%.2f×", total / ref) + " |")
            }
        }
        lines.append("EGL display + context alone (GLESDeviceInfo.probe, device \(device), empty cache): "
                     + String(format: "%.0f ms", median(egl)) + " (median of \(egl.count)).")
        lines.append("start-up: spawn → the command runs (dynamic loading, Swift start-up); load: the example's "
                     + "recording (fonts, text shaping); ≈ their cost: the first frame minus a second frame of the same "
                     + "recording (programs compiled, llvmpipe's per-state shader variants, first-use uploads).")
        return lines.joined(separator: "\n")
    }
}
