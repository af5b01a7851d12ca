/// Why an export stopped. Every case names what failed in words: the frame, the path, the stream line.
///
///     frame 12 (t = 0.400 s): the GLES backend ran out of texture memory
///     cannot write out/frame-00012.png: No space left on device
///     anim.ndjson line 7: commands[0].shading.color: expected a colour, got number
///     ffmpeg was not found on PATH; MP4 export runs it (Debian: apt install ffmpeg)
///     interrupted after 41 of 300 frames; nothing was written to out.mp4
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// Frame `frame` could not be drawn, rendered or encoded; `reason` is the underlying error's text.
    case frameFailed(frame: FrameTime, reason: String)
    /// The destination cannot be written (the folder is missing, read-only, the disk is full).
    case destinationUnwritable(path: String, reason: String)
    /// A stream or source file cannot be read.
    case sourceUnreadable(path: String, reason: String)
    /// A line of a scene stream is not a valid scene (`line` is 1-based; nil for the stream as a whole).
    case invalidStream(name: String, line: Int?, reason: String)
    /// An external encoder (ffmpeg) is missing: `reason` says which and how to get it.
    case encoderMissing(String)
    /// The external encoder failed: its exit status and the last lines it printed.
    case encoderFailed(String)
    /// The export's settings make no animation (no frames, a frame rate of 0, a size of 0).
    case invalidSettings(String)
    /// `ExportCancellation.cancel()` (Ctrl-C in the tool) stopped the export; `destination` names what was
    /// left unwritten.
    case cancelled(framesWritten: Int, frameCount: Int?, destination: String)

    public var description: String {
        switch self {
        case .frameFailed(let frame, let reason): return "\(frame): \(reason)"
        case .destinationUnwritable(let path, let reason): return "cannot write \(path): \(reason)"
        case .sourceUnreadable(let path, let reason): return "cannot read \(path): \(reason)"
        case .invalidStream(let name, let line, let reason):
            return line.map { "\(name) line \($0): \(reason)" } ?? "\(name): \(reason)"
        case .encoderMissing(let reason), .encoderFailed(let reason), .invalidSettings(let reason): return reason
        case .cancelled(let written, let count, let destination):
            let of = count.map { " of \($0)" } ?? ""
            return "interrupted after \(written)\(of) frames; \(destination)"
        }
    }
}

/// Stops an export from another thread (a signal handler's dispatch source, a UI's cancel button). The
/// export notices before its next frame, removes its temporary files and throws `ExportError.cancelled`.
public final class ExportCancellation: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false
    public init() {}
    public func cancel() { lock.lock(); cancelled = true; lock.unlock() }
    public var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return cancelled }
}
