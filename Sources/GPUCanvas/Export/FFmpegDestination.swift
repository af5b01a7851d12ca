// Video and GIF through an `ffmpeg` subprocess: raw RGBA frames written to its standard input, one container
// file out. No codec or container is written here; ffmpeg (Debian's 5.1: libx264, libvpx-vp9, the gif
// encoder and the mp4/webm/gif muxers) does both. Why a subprocess and not linking libavcodec:
// docs/DESIGN-NOTES.md, "Animation export".
//
// The child runs in its own process group, so a Ctrl-C at the terminal reaches only the tool, which then
// stops ffmpeg itself (`abort`) and removes the temporary file; otherwise ffmpeg would catch the SIGINT and
// finish a truncated file of its own accord. Its output goes to a temporary name beside the destination
// (the container is named with `-f`, not guessed from the name) and is renamed when ffmpeg exits 0. Its
// stderr goes to a temporary log whose last lines become the error if it fails.

/// The containers and codecs the exporter asks ffmpeg for.
public enum VideoFormat: String, Sendable, CaseIterable {
    /// H.264 (libx264, CRF 18, `veryfast` preset, yuv420p) in MP4. No alpha: transparent pixels show their
    /// colour (black where nothing was drawn). Odd sizes are padded to even by one black row or column
    /// (4:2:0 chroma needs even sizes).
    case mp4
    /// VP9 (libvpx-vp9, CRF 32, realtime deadline, yuva420p: alpha kept) in WebM.
    case webm
    /// GIF with a palette per frame (palettegen stats_mode=single + paletteuse new=1: nothing is buffered
    /// across frames, so memory stays flat), looping forever. GIF delays are in hundredths of a second.
    case gif
    /// ffmpeg's own APNG muxer (`APNGDestination` is the default; this one is kept for the measurement).
    case apng

    /// The format for a file name's extension: "out.mp4" → .mp4; nil for others.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "mp4", "m4v": self = .mp4
        case "webm": self = .webm
        case "gif": self = .gif
        default: return nil
        }
    }

    var displayName: String {
        switch self {
        case .mp4: return "MP4"
        case .webm: return "WebM"
        case .gif: return "GIF"
        case .apng: return "APNG"
        }
    }

    /// ffmpeg's arguments after the input: filters, codec, muxer.
    func outputArguments(width: Int, height: Int) -> [String] {
        switch self {
        case .mp4:
            var args: [String] = []
            if width % 2 != 0 || height % 2 != 0 { args += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"] }
            return args + ["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p",
                           "-movflags", "+faststart", "-f", "mp4"]
        case .webm:
            return ["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-deadline", "realtime", "-cpu-used", "8",
                    "-row-mt", "1", "-b:v", "0", "-crf", "32", "-f", "webm"]
        case .gif:
            return ["-vf", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1",
                    "-loop", "0", "-f", "gif"]
        case .apng:
            return ["-plays", "0", "-f", "apng"]
        }
    }
}

/// An MP4, WebM or GIF file encoded by an `ffmpeg` subprocess fed raw RGBA frames.
public final class FFmpegDestination: FrameDestination, @unchecked Sendable {
    public let url: URL
    public let format: VideoFormat
    /// The ffmpeg to run: a path, or a name looked up on PATH.
    public let ffmpeg: String
    public var name: String { url.path }

    private var pid: pid_t = 0
    private var input: Int32 = -1
    private var temporary = ""
    private var logPath = ""

    public init(url: URL, format: VideoFormat, ffmpeg: String = "ffmpeg") {
        self.url = url
        self.format = format
        self.ffmpeg = ffmpeg
    }

    /// The ffmpeg executable's path: `name` itself when it holds a slash, else the first match on PATH.
    public static func locate(_ name: String = "ffmpeg") -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = "\(dir)/\(name)"
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    public func begin(width: Int, height: Int, framesPerSecond: Double, frameCount: Int?) throws {
        guard let executable = Self.locate(ffmpeg) else {
            throw ExportError.encoderMissing(
                "\(ffmpeg) was not found\(ffmpeg.contains("/") ? "" : " on PATH"); \(format.displayName) export runs it (Debian: apt install ffmpeg)")
        }
        try checkFileDestination(url.path)
        ignoreBrokenPipeSignal()
        temporary = temporaryPath(beside: url.path)
        logPath = temporary + ".log"
        let arguments = [executable, "-hide_banner", "-nostats", "-loglevel", "error", "-y",
                         "-f", "rawvideo", "-pix_fmt", "rgba", "-s", "\(width)x\(height)",
                         "-framerate", String(framesPerSecond), "-i", "pipe:0"]
            + format.outputArguments(width: width, height: height) + [temporary]

        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw ExportError.encoderFailed("cannot make a pipe to ffmpeg: \(readableReason(errno: errno))") }
        // Our end must not leak into the child, or its stdin never sees end-of-file.
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group: Ctrl-C is ours to handle (see the top of the file). Default SIGPIPE for it.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(fds[0])
        guard status == 0 else {
            close(fds[1])
            throw ExportError.encoderFailed("cannot start \(executable): \(readableReason(errno: status))")
        }
        pid = child
        input = fds[1]
    }

    public func encode(_ image: RasterImage, frame: FrameTime) throws -> Data {
        Data(RasterImage.unpremultiplied(image.pixels))
    }

    public func write(_ encoded: Data, frame: FrameTime) throws {
        do {
            try writeAll(encoded, to: input, name: "ffmpeg's input")
        } catch {
            // ffmpeg stopped reading: it failed, and its log says why.
            close(input)
            input = -1
            let status = waitForChild()
            throw ExportError.encoderFailed("ffmpeg stopped at \(frame) (\(status)): \(logTail())")
        }
    }

    public func finish() throws {
        if input >= 0 { close(input); input = -1 }
        guard pid != 0 else { return }
        let status = waitForChild()
        guard status == "exit status 0" else {
            let tail = logTail()
            unlink(temporary)
            unlink(logPath)
            throw ExportError.encoderFailed("ffmpeg failed writing \(url.path) (\(status)): \(tail)")
        }
        unlink(logPath)
        try moveIntoPlace(temporary, url.path)
    }

    public func abort() {
        if input >= 0 { close(input); input = -1 }
        if pid != 0 {
            kill(pid, SIGTERM)
            _ = waitForChild()
        }
        if !temporary.isEmpty { unlink(temporary); unlink(logPath) }
    }

    /// Waits for ffmpeg and describes how it ended: "exit status 1", "killed by signal 9".
    private func waitForChild() -> String {
        guard pid != 0 else { return "not running" }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        let signal = status & 0x7F
        return signal == 0 ? "exit status \((status >> 8) & 0xFF)" : "killed by signal \(signal)"
    }

    /// The last lines ffmpeg printed, on one line.
    private func logTail() -> String {
        guard let data = FileManager.default.contents(atPath: logPath) else { return "it printed nothing" }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").suffix(3)
        return lines.isEmpty ? "it printed nothing" : lines.joined(separator: " / ")
    }
}
