// Frame sources: what an animation export draws at each frame time.
//
// The exporter asks a source for the `Recording` of frame i, shown at t0 + i/fps seconds, and renders it.
// Time is an argument, never the wall clock, so an export is deterministic: the same source and settings give
// the same bytes on every run. The sources:
//
// - `RendererFrameSource`: a renderer closure with a time parameter, `(inout GraphicsContext, CGSize,
//   TimeInterval) -> Void`: the closure of a `Canvas` plus the time.
// - `CanvasFrameSource`: a `Canvas` built per frame from a `Date`, the way a `TimelineView` builds one from its
//   context's date (`TimelineView(.animation) { context in Canvas { … context.date … } }`).
// - `SceneStreamSource`: NDJSON, one scene document (docs/scene-format.md) per line and one frame per scene, so
//   any language can drive an export through a pipe.
//
// - `ViewFrameSource` (ViewFrameSource.swift): a SwiftUI view, through the views module's `ImageRenderer`:
//   frame time t is t seconds after the view appears, and its `TimelineView`s see `startDate + t`.

/// One frame of an export: its number (from 0) and the time it is drawn at, in seconds.
///
/// At 30 fps from t0 = 0, frame 45 is `FrameTime(index: 45, time: 1.5)`.
public struct FrameTime: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var index: Int
    public var time: TimeInterval
    public init(index: Int, time: TimeInterval) {
        self.index = index
        self.time = time
    }
    public var description: String { "frame \(index) (t = \(String(format: "%.3f", time)) s)" }
}

/// What an export draws: the recording of each frame.
///
/// `export` calls it on its record thread (a thread of its own, ahead of rendering); `forEachFrame` and
/// `frames(of:renderer:)` on the thread that asks for the frame. Always one frame after another in order and
/// never from two threads at once, so a source may keep state (a stream's read position).
public protocol FrameSource {
    /// The drawing of `frame` on a canvas of `size` points, or nil when the source has no more frames (a stream
    /// that ended). Throwing stops the export; the error is reported with the frame.
    func recording(for frame: FrameTime, size: CGSize) throws -> Recording?
}

/// A renderer closure with a time parameter: frame i draws `renderer(&context, size, t0 + i/fps)`.
///
/// ```swift
/// let spinner = RendererFrameSource { context, size, time in
///     context.rotate(by: .degrees(time * 90))
///     context.fill(Path(CGRect(x: -10, y: -10, width: 20, height: 20)), with: .color(.blue))
/// }
/// ```
public struct RendererFrameSource: FrameSource {
    public var colorMode: ColorRenderingMode
    public var isOpaque: Bool
    public var renderer: (inout GraphicsContext, CGSize, TimeInterval) -> Void

    public init(opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear,
                _ renderer: @escaping (inout GraphicsContext, CGSize, TimeInterval) -> Void) {
        self.isOpaque = opaque
        self.colorMode = colorMode
        self.renderer = renderer
    }

    public func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
        let draw = renderer, time = frame.time
        return Recording(size: size, colorMode: colorMode, isOpaque: isOpaque) { context, size in
            draw(&context, size, time)
        }
    }
}

/// A `Canvas` built for each frame from the frame's date, as a `TimelineView` builds its content from
/// `context.date`. Frame time t is the date `Date(timeIntervalSinceReferenceDate: t)`: an export from
/// t0 = 0 starts at 2001-01-01 00:00:00 UTC, whatever the wall clock says.
///
/// ```swift
/// let clock = CanvasFrameSource { date in
///     Canvas { context, size in drawHands(&context, size, date) }
/// }
/// ```
public struct CanvasFrameSource<Symbols>: FrameSource {
    public var canvas: (Date) -> Canvas<Symbols>

    public init(_ canvas: @escaping (Date) -> Canvas<Symbols>) {
        self.canvas = canvas
    }

    public func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
        canvas(Date(timeIntervalSinceReferenceDate: frame.time)).record(size: size)
    }
}

/// Scenes as NDJSON: one `gpucanvas-scene/1` document per line, one frame per scene, read as the export
/// goes (a pipe from another program works; nothing is held beyond the current line). Blank lines are
/// skipped. Every scene must have the size of the first; a malformed line stops the export with its line
/// number: `anim.ndjson line 7: commands[0].shading.color: expected a colour, got number`.
///
/// The first scene is read when the source is made, so its size and scale can set the export's.
public final class SceneStreamSource: FrameSource {
    /// The stream's name in errors: the file's path, or "standard input".
    public let name: String
    /// The first scene's size in points and scale: the export's defaults.
    public let size: CGSize
    public let scale: CGFloat

    private let stream: UnsafeMutablePointer<FILE>
    private let ownsStream: Bool
    private let baseURL: URL?
    private var lineNumber = 0
    private var pending: (line: Int, scene: Scene)?
    private var ended = false

    /// Reads scenes from the file at `url`; relative image paths in the scenes resolve against its folder.
    public convenience init(contentsOf url: URL) throws {
        guard let f = fopen(url.path, "r") else {
            throw ExportError.sourceUnreadable(path: url.path, reason: readableReason(errno: errno))
        }
        var info = stat()
        if fstat(fileno(f), &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            fclose(f)
            throw ExportError.sourceUnreadable(path: url.path, reason: "it is a directory")
        }
        try self.init(stream: f, owned: true, name: url.path, baseURL: url.deletingLastPathComponent())
    }

    /// Reads scenes from standard input.
    public convenience init(standardInput: Void = ()) throws {
        // A stream of its own on a duplicate of descriptor 0 (the C global `stdin` is not concurrency-safe).
        guard let f = fdopen(dup(0), "r") else {
            throw ExportError.sourceUnreadable(path: "standard input", reason: readableReason(errno: errno))
        }
        try self.init(stream: f, owned: true, name: "standard input", baseURL: nil)
    }

    private init(stream: UnsafeMutablePointer<FILE>, owned: Bool, name: String, baseURL: URL?) throws {
        self.stream = stream
        self.ownsStream = owned
        self.name = name
        self.baseURL = baseURL
        // Not `try` directly: the properties must be set before `self` is used, and a failure must close the file.
        var first: (line: Int, scene: Scene)?
        var failure: Error?
        var line = 0
        do {
            first = try Self.nextScene(stream: stream, name: name, baseURL: baseURL, lineNumber: &line)
        } catch { failure = error }
        lineNumber = line
        guard failure == nil, let first else {
            if owned { fclose(stream) }
            throw failure ?? ExportError.invalidStream(name: name, line: nil, reason: "the stream holds no scene")
        }
        pending = first
        size = first.scene.recording.size
        scale = first.scene.scale
    }

    deinit {
        if ownsStream { fclose(stream) }
    }

    public func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
        let next: (line: Int, scene: Scene)
        if let p = pending {
            next = p
            pending = nil
        } else {
            guard !ended, let s = try Self.nextScene(stream: stream, name: name, baseURL: baseURL, lineNumber: &lineNumber) else {
                ended = true
                return nil
            }
            next = s
        }
        let got = next.scene.recording.size
        guard got == size else {
            throw ExportError.invalidStream(
                name: name, line: next.line,
                reason: "the scene is \(formatPoints(got)) pt; every scene of the stream must be \(formatPoints(size)) pt")
        }
        return next.scene.recording
    }

    /// The next non-blank line's scene, or nil at the end of the stream.
    private static func nextScene(stream: UnsafeMutablePointer<FILE>, name: String, baseURL: URL?,
                                  lineNumber: inout Int) throws -> (line: Int, scene: Scene)? {
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            clearerr(stream)
            let n = getline(&buffer, &capacity, stream)
            if n < 0 {
                if ferror(stream) != 0 {
                    throw ExportError.sourceUnreadable(path: name, reason: readableReason(errno: errno))
                }
                return nil
            }
            lineNumber += 1
            let bytes = UnsafeRawBufferPointer(start: buffer, count: n)
            guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }) else { continue }
            do {
                return (lineNumber, try Scene(jsonData: Data(bytes), baseURL: baseURL))
            } catch let e as SceneError {
                // The scene's own "line 1, column 14" is the column within this stream line.
                var located = e
                located.file = nil
                if e.line != nil { located.line = nil; located.location = "column \(e.column ?? 0)" + (e.location.isEmpty ? "" : " (\(e.location))") ; located.column = nil }
                throw ExportError.invalidStream(name: name, line: lineNumber, reason: located.description)
            } catch {
                throw ExportError.invalidStream(name: name, line: lineNumber, reason: "\(error)")
            }
        }
    }
}

/// "64×64" for a size in points (whole numbers without a decimal point).
func formatPoints(_ size: CGSize) -> String {
    func f(_ v: CGFloat) -> String { v == v.rounded() ? String(Int(v)) : String(format: "%g", Double(v)) }
    return "\(f(size.width))×\(f(size.height))"
}
