// The frame exporter: renders an animation frame by frame and hands the frames to a destination, with
// rendering, encoding and writing overlapped.
//
// Pipeline (one export):
//
//     record thread: frame i's recording from the source (drawing calls, a stream line's JSON) ─┐
//                                                      ready queue        ▼
//     render thread (the caller's: the renderer's GL context lives there): render frame i, start its
//       readback into a pixel buffer object, then complete frame i − 1's readback → image ─┐
//                                                      bounded queue      ▼
//     encode workers (one per core): destination.encode(image) → bytes (PNG, raw RGBA) ─┐
//                                                      reorder buffer     ▼
//     writer thread: destination.write(bytes) in frame order → file, pipe, ffmpeg
//
// The record thread takes a permit for every frame and the writer returns it when the frame is written, so
// at most `maxFramesInFlight` frames exist at once whatever the export's length: memory stays flat (the
// 10 000-frame measurement is in docs/DESIGN-NOTES.md). Encoding is the costly stage (a 1024² PNG takes longer
// than rendering it), so it runs on as many workers as there are cores, beside the render thread.
//
// Determinism: frame i's time is computed as t0 + Double(i) / fps, never accumulated, and the source sees
// only that time; so two exports of the same source give the same frames and, with the same destination
// settings, the same bytes.
//
// Failure: the first error anywhere (source, render, encode, write) stops every stage; the destination's
// `abort` removes its temporary files and the error names the frame. `ExportCancellation` stops it the same
// way between frames.

/// How many frames an export has.
public enum FrameCount: Sendable, Equatable {
    /// Frames at t0, t0 + 1/fps, … while t < t0 + duration: 10 s at 30 fps is 300 frames.
    case duration(TimeInterval)
    /// Exactly `n` frames.
    case frames(Int)
    /// One frame per time given (seconds, as the source sees them; t0 is not added).
    case times([TimeInterval])
    /// Until the source returns nil (a scene stream).
    case untilSourceEnds
}

/// One rendered frame, as the callback and `AsyncSequence` forms of an export give it.
public struct ExportedFrame: Sendable {
    public var frame: FrameTime
    public var image: RasterImage
}

/// How far an export has got, for progress displays.
public struct ExportProgress: Sendable {
    /// Frames written so far.
    public var framesWritten: Int
    /// Frames in the export; nil for a stream.
    public var frameCount: Int?
    /// Seconds since the export began.
    public var elapsed: TimeInterval
    /// Frames written per second so far.
    public var framesPerSecond: Double { elapsed > 0 ? Double(framesWritten) / elapsed : 0 }
    /// Seconds left at the current rate; nil for a stream or before the first frame.
    public var estimatedRemaining: TimeInterval? {
        guard let frameCount, framesWritten > 0 else { return nil }
        return Double(frameCount - framesWritten) / framesPerSecond
    }
}

/// What an export did and where its time went (`canvas-gl animate --bench` prints it).
public struct ExportReport: Sendable {
    public var frameCount: Int
    public var width: Int
    public var height: Int
    /// Wall-clock seconds from the first frame's render to the destination's finish.
    public var elapsed: TimeInterval
    /// Seconds the record thread spent in the source (drawing calls recorded, a stream's scene parsed).
    public var recordSeconds: TimeInterval
    /// Seconds the render thread spent rendering and completing readbacks.
    public var renderSeconds: TimeInterval
    /// Of `renderSeconds`: GLES readback (waiting for the fence, mapping and copying the pixel buffer, or
    /// glReadPixels when not overlapped); 0 on the reference backend.
    public var readbackSeconds: TimeInterval
    /// Seconds of encoding, summed over the workers (CPU time of the stage, not wall time).
    public var encodeSeconds: TimeInterval
    /// Seconds the writer spent writing.
    public var writeSeconds: TimeInterval
    /// Encode workers used.
    public var encodeWorkers: Int
    /// The most frames alive at once (rendered but not yet written).
    public var peakFramesInFlight: Int

    public var framesPerSecond: Double { elapsed > 0 ? Double(frameCount) / elapsed : 0 }
}

/// Exports an animation: a `FrameSource` rendered at `framesPerSecond` for a duration, a frame count, or
/// given times, to a `FrameDestination`, to a callback, or as an `AsyncSequence` of frames.
///
/// ```swift
/// let exporter = FrameExporter(size: CGSize(width: 64, height: 64), scale: 2, framesPerSecond: 30,
///                              count: .duration(10))
/// let report = try exporter.export(clock, renderer: try CanvasRenderer(),
///                                  to: PNGSequenceDestination(directory: URL(fileURLWithPath: "frames")))
/// // frames/frame-00000.png … frame-00299.png, 128×128 px
/// ```
///
/// Works with either backend. The renderer is used on the calling thread only.
public struct FrameExporter: Sendable {
    /// Canvas size in points.
    public var size: CGSize
    /// Pixels per point.
    public var scale: CGFloat
    public var framesPerSecond: Double
    public var count: FrameCount
    /// The time of frame 0, in seconds (the source's clock; `CanvasFrameSource` reads it as a reference date).
    public var startTime: TimeInterval
    /// Encode worker threads; the default is one per core.
    public var encodeWorkers: Int
    /// The most frames recorded but not yet written (at least 2); bounds memory (each frame is width × height ×
    /// 4 bytes).
    public var maxFramesInFlight: Int
    /// GLES: read frame i back through a pixel buffer object while frame i + 1 renders (the default), instead
    /// of waiting for each frame's pixels before issuing the next. The bytes are the same either way.
    public var overlapReadback: Bool = true

    public init(size: CGSize, scale: CGFloat = 1, framesPerSecond: Double = 30, count: FrameCount,
                startTime: TimeInterval = 0) {
        self.size = size
        self.scale = scale
        self.framesPerSecond = framesPerSecond
        self.count = count
        self.startTime = startTime
        self.encodeWorkers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        self.maxFramesInFlight = 2 * max(1, ProcessInfo.processInfo.activeProcessorCount) + 2
    }

    /// The number of frames, or nil for `.untilSourceEnds`.
    public var frameCount: Int? {
        switch count {
        case .duration(let d):
            // The tolerance absorbs binary rounding: 10 s × 30 fps is 300 frames, not 301.
            return max(0, Int((d * framesPerSecond - 1e-9).rounded(.up)))
        case .frames(let n): return n
        case .times(let t): return t.count
        case .untilSourceEnds: return nil
        }
    }

    /// Frame `index`'s time: t0 + index / fps, or the index-th given time.
    public func frameTime(_ index: Int) -> FrameTime {
        if case .times(let t) = count { return FrameTime(index: index, time: t[index]) }
        return FrameTime(index: index, time: startTime + Double(index) / framesPerSecond)
    }

    /// Checks the settings before anything is made: a frame rate > 0, a non-empty size, a frame count ≥ 0.
    public func validate() throws {
        guard framesPerSecond.isFinite, framesPerSecond > 0 else {
            throw ExportError.invalidSettings("the frame rate must be a number > 0, not \(framesPerSecond)")
        }
        guard size.width > 0, size.height > 0, size.width.isFinite, size.height.isFinite else {
            throw ExportError.invalidSettings("the frame size must be > 0 in both directions, not \(formatPoints(size)) pt")
        }
        guard scale > 0, scale.isFinite else { throw ExportError.invalidSettings("the scale must be a number > 0, not \(scale)") }
        switch count {
        case .duration(let d) where !(d.isFinite && d > 0):
            throw ExportError.invalidSettings("the duration must be a number of seconds > 0, not \(d)")
        case .frames(let n) where n < 1:
            throw ExportError.invalidSettings("the frame count must be at least 1, not \(n)")
        case .times(let t) where t.isEmpty || t.contains(where: { !$0.isFinite }):
            throw ExportError.invalidSettings("the frame times must be finite numbers, at least one")
        default: break
        }
        guard encodeWorkers >= 1 else { throw ExportError.invalidSettings("at least one encode worker is needed") }
        // Two: with overlapped readback the render thread holds one frame while the next is recorded.
        guard maxFramesInFlight >= 2 else {
            throw ExportError.invalidSettings("at least 2 frames in flight are needed, not \(maxFramesInFlight)")
        }
    }

    // MARK: Callback and AsyncSequence

    /// Renders every frame in order on the calling thread and hands each to `body` (no encoding, no
    /// pipeline). Throwing from `body` stops the export.
    public func forEachFrame(of source: some FrameSource, renderer: CanvasRenderer,
                             _ body: (ExportedFrame) throws -> Void) throws {
        try validate()
        var index = 0
        while frameCount.map({ index < $0 }) ?? true {
            let frame = frameTime(index)
            guard let image = try renderFrame(frame, source: source, renderer: renderer) else { break }
            try body(ExportedFrame(frame: frame, image: image))
            index += 1
        }
    }

    /// The frames as an `AsyncSequence`: each is rendered when the consumer asks for it, so nothing piles up.
    /// The renderer and source move into the sequence: do not use them elsewhere until it ends.
    ///
    /// ```swift
    /// for try await frame in exporter.frames(of: clock, renderer: renderer) { show(frame.image) }
    /// ```
    public func frames(of source: some FrameSource, renderer: CanvasRenderer) -> AsyncThrowingStream<ExportedFrame, Error> {
        let state = UncheckedBox(FrameIteration(exporter: self, source: source, renderer: renderer))
        return AsyncThrowingStream(unfolding: { try state.value.next() })
    }

    // MARK: Export to a destination

    /// Renders, encodes and writes every frame to `destination` through the pipeline (see the top of the
    /// file). Returns where the time went. On failure or cancellation the destination is aborted (no
    /// temporary file stays) and the error names the frame or the path.
    ///
    /// `progress` is called from the writer thread after each written frame.
    @discardableResult
    public func export(_ source: some FrameSource, renderer: CanvasRenderer, to destination: FrameDestination,
                       cancellation: ExportCancellation? = nil,
                       progress: (@Sendable (ExportProgress) -> Void)? = nil) throws -> ExportReport {
        try validate()
        let total = frameCount
        let (width, height) = try pixelSize(for: size, scale: scale)
        try destination.begin(width: width, height: height, framesPerSecond: framesPerSecond, frameCount: total)
        let pipeline = ExportPipeline(destination: destination, frameCount: total, limit: maxFramesInFlight,
                                      progress: progress)
        let started = DispatchTime.now().uptimeNanoseconds
        pipeline.start(workers: encodeWorkers, started: started)
        let recording = RecordStage(exporter: self, source: source, pipeline: pipeline, cancellation: cancellation)
        recording.start()

        var renderSeconds = 0.0, readbackSeconds = 0.0
        var index = 0
        // Frame i's readback completes after frame i + 1 is issued (`overlapReadback`), so the GPU renders one
        // frame while the previous one travels back; the reference backend completes at once.
        var previous: (FrameTime, InFlightFrame)?
        func complete(_ frame: FrameTime, _ inFlight: InFlightFrame) -> Bool {
            let t0 = DispatchTime.now().uptimeNanoseconds
            do {
                let image = try renderer.completeRender(inFlight)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
                renderSeconds += seconds
                readbackSeconds += renderer.lastGPUTimings?.readback ?? 0
                pipeline.enqueue(frame, image)
                index += 1
                return true
            } catch {
                pipeline.release()
                pipeline.fail(ExportError.frameFailed(frame: frame, reason: "\(error)"))
                return false
            }
        }
        while let (frame, drawing) = recording.next() {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let inFlight: InFlightFrame
            do {
                inFlight = overlapReadback ? try renderer.beginRender(drawing, scale: scale)
                                           : InFlightFrame(state: .complete(try renderer.render(drawing, scale: scale)))
            } catch {
                pipeline.release()
                if let (_, p) = previous {
                    renderer.discardRender(p)
                    pipeline.release()
                }
                pipeline.fail(ExportError.frameFailed(frame: frame, reason: "\(error)"))
                previous = nil
                break
            }
            renderSeconds += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            if let (f, p) = previous, !complete(f, p) {
                renderer.discardRender(inFlight)
                pipeline.release()
                previous = nil
                break
            }
            previous = (frame, inFlight)
        }
        if let (f, p) = previous { _ = complete(f, p) }
        recording.join()
        pipeline.finishRendering(renderedFrames: index)
        pipeline.join()

        if let failure = pipeline.failure {
            destination.abort()
            throw failure
        }
        if cancellation?.isCancelled == true {
            destination.abort()
            throw ExportError.cancelled(framesWritten: pipeline.written, frameCount: total,
                                        destination: destination is PNGSequenceDestination
                                            ? "the frames written so far are complete files in \(destination.name)"
                                            : "nothing was written to \(destination.name)")
        }
        guard index > 0 else {
            destination.abort()
            throw ExportError.invalidSettings("the source gave no frames; nothing was written to \(destination.name)")
        }
        do {
            try destination.finish()
        } catch {
            destination.abort()
            throw error
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        return ExportReport(frameCount: index, width: width, height: height, elapsed: elapsed,
                            recordSeconds: recording.seconds, renderSeconds: renderSeconds, readbackSeconds: readbackSeconds,
                            encodeSeconds: pipeline.encodeSeconds, writeSeconds: pipeline.writeSeconds,
                            encodeWorkers: encodeWorkers, peakFramesInFlight: pipeline.peakInFlight)
    }

    /// One frame: the source's recording, rendered. Errors other than the exporter's own are wrapped with
    /// the frame; nil when the source has ended.
    func renderFrame(_ frame: FrameTime, source: some FrameSource, renderer: CanvasRenderer) throws -> RasterImage? {
        do {
            guard let recording = try source.recording(for: frame, size: size) else { return nil }
            return try renderer.render(recording, scale: scale)
        } catch let e as ExportError {
            throw e
        } catch {
            throw ExportError.frameFailed(frame: frame, reason: "\(error)")
        }
    }
}

/// The record stage: calls the source for each frame, ahead of the render thread, on a thread of its own
/// (a stream's JSON parsing or a closure's drawing calls overlap the previous frame's rendering). Takes the
/// pipeline's permit for each frame, so recordings waiting to render count towards the frames in flight.
private final class RecordStage: @unchecked Sendable {
    private let exporter: FrameExporter
    private let source: any FrameSource
    private let pipeline: ExportPipeline
    private let cancellation: ExportCancellation?
    private let condition = NSCondition()
    private var ready: [(FrameTime, Recording)] = []
    private var done = false
    private let finished = DispatchSemaphore(value: 0)
    /// Seconds spent in the source (read after `join`).
    private(set) var seconds = 0.0

    init(exporter: FrameExporter, source: any FrameSource, pipeline: ExportPipeline, cancellation: ExportCancellation?) {
        self.exporter = exporter
        self.source = source
        self.pipeline = pipeline
        self.cancellation = cancellation
    }

    func start() {
        let t = Thread { [self] in
            run()
            condition.lock()
            done = true
            condition.broadcast()
            condition.unlock()
            finished.signal()
        }
        t.name = "export-record"
        t.start()
    }

    private func run() {
        let total = exporter.frameCount
        var index = 0
        while total.map({ index < $0 }) ?? true {
            guard pipeline.acquire() else { return }  // false: a stage failed
            if cancellation?.isCancelled == true || pipeline.hasFailed {
                pipeline.release()
                return
            }
            let frame = exporter.frameTime(index)
            let t0 = DispatchTime.now().uptimeNanoseconds
            let recording: Recording?
            do {
                recording = try source.recording(for: frame, size: exporter.size)
            } catch let e as ExportError {
                pipeline.release()
                pipeline.fail(e)
                return
            } catch {
                pipeline.release()
                pipeline.fail(ExportError.frameFailed(frame: frame, reason: "\(error)"))
                return
            }
            seconds += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
            guard let recording else {
                pipeline.release()
                return
            }
            condition.lock()
            ready.append((frame, recording))
            condition.broadcast()
            condition.unlock()
            index += 1
        }
    }

    /// The next frame's recording in order, or nil when the stage has stopped (end, failure, cancellation).
    func next() -> (FrameTime, Recording)? {
        condition.lock()
        defer { condition.unlock() }
        while ready.isEmpty && !done { condition.wait() }
        guard !ready.isEmpty, !pipeline.hasFailed else { return nil }
        return ready.removeFirst()
    }

    /// Waits for the thread to end, giving back the permits of recordings never rendered.
    func join() {
        // A failure may leave the thread waiting in `acquire`; `fail` already woke it.
        finished.wait()
        condition.lock()
        let left = ready.count
        ready.removeAll()
        condition.unlock()
        for _ in 0 ..< left { pipeline.release() }
    }
}

/// The state of `frames(of:renderer:)`: the next frame to render.
private struct FrameIteration {
    let exporter: FrameExporter
    let source: any FrameSource
    let renderer: CanvasRenderer
    var index = 0
    var validated = false

    mutating func next() throws -> ExportedFrame? {
        if !validated { try exporter.validate(); validated = true }
        if let n = exporter.frameCount, index >= n { return nil }
        let frame = exporter.frameTime(index)
        guard let image = try exporter.renderFrame(frame, source: source, renderer: renderer) else { return nil }
        index += 1
        return ExportedFrame(frame: frame, image: image)
    }
}

/// Carries non-Sendable state into an `AsyncThrowingStream` whose calls never overlap (each `next()` awaits
/// the previous one).
private final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// The encode workers, the writer and the bounded hand-over between them and the render thread.
private final class ExportPipeline: @unchecked Sendable {
    private let destination: FrameDestination
    private let frameCount: Int?
    private let limit: Int
    private let progress: (@Sendable (ExportProgress) -> Void)?
    private let condition = NSCondition()
    private var started: UInt64 = 0

    // All below under `condition`.
    private var inFlight = 0
    private(set) var peakInFlight = 0
    private var toEncode: [(FrameTime, RasterImage)] = []
    private var encoded: [Int: (FrameTime, Data)] = [:]
    private var renderingDone = false
    private var renderedFrames = 0
    private var nextToWrite = 0
    private(set) var written = 0
    private(set) var failure: Error?
    private(set) var encodeSeconds = 0.0
    private(set) var writeSeconds = 0.0
    private let finished = DispatchGroup()

    init(destination: FrameDestination, frameCount: Int?, limit: Int, progress: (@Sendable (ExportProgress) -> Void)?) {
        self.destination = destination
        self.frameCount = frameCount
        self.limit = limit
        self.progress = progress
    }

    func start(workers: Int, started: UInt64) {
        self.started = started
        for k in 0 ..< workers {
            finished.enter()
            let t = Thread { [self] in encodeLoop(); finished.leave() }
            t.name = "export-encode-\(k)"
            t.start()
        }
        finished.enter()
        let w = Thread { [self] in writeLoop(); finished.leave() }
        w.name = "export-write"
        w.start()
    }

    /// Waits for room for one more frame; false when a stage has failed.
    func acquire() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while inFlight >= limit && failure == nil { condition.wait() }
        guard failure == nil else { return false }
        inFlight += 1
        peakInFlight = max(peakInFlight, inFlight)
        return true
    }

    /// Gives back a permit taken for a frame that was not rendered.
    func release() {
        condition.lock()
        inFlight -= 1
        condition.broadcast()
        condition.unlock()
    }

    func enqueue(_ frame: FrameTime, _ image: RasterImage) {
        condition.lock()
        toEncode.append((frame, image))
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: Error) {
        condition.lock()
        if failure == nil { failure = error }
        condition.broadcast()
        condition.unlock()
    }

    func finishRendering(renderedFrames n: Int) {
        condition.lock()
        renderingDone = true
        renderedFrames = n
        condition.broadcast()
        condition.unlock()
    }

    func join() { finished.wait() }

    /// Whether a stage has failed (safe from any thread).
    var hasFailed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return failure != nil
    }

    private func encodeLoop() {
        while true {
            condition.lock()
            while toEncode.isEmpty && !renderingDone && failure == nil { condition.wait() }
            if failure != nil || toEncode.isEmpty {
                condition.unlock()
                return
            }
            let (frame, image) = toEncode.removeFirst()
            condition.unlock()

            let t0 = DispatchTime.now().uptimeNanoseconds
            let result: Result<Data, Error>
            do {
                result = .success(try destination.encode(image, frame: frame))
            } catch let e as ExportError {
                result = .failure(e)
            } catch {
                result = .failure(ExportError.frameFailed(frame: frame, reason: "cannot encode: \(error)"))
            }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9

            condition.lock()
            encodeSeconds += seconds
            switch result {
            case .success(let data): encoded[frame.index] = (frame, data)
            case .failure(let e): if failure == nil { failure = e }
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    private func writeLoop() {
        while true {
            condition.lock()
            while encoded[nextToWrite] == nil && failure == nil && !(renderingDone && nextToWrite >= renderedFrames) {
                condition.wait()
            }
            guard failure == nil, let (frame, data) = encoded.removeValue(forKey: nextToWrite) else {
                condition.unlock()
                return
            }
            condition.unlock()

            let t0 = DispatchTime.now().uptimeNanoseconds
            var error: Error?
            do {
                try destination.write(data, frame: frame)
            } catch let e as ExportError {
                error = e
            } catch let e {
                error = ExportError.frameFailed(frame: frame, reason: "cannot write: \(e)")
            }
            let now = DispatchTime.now().uptimeNanoseconds

            condition.lock()
            writeSeconds += Double(now - t0) / 1e9
            if let error {
                if failure == nil { failure = error }
                condition.broadcast()
                condition.unlock()
                return
            }
            nextToWrite += 1
            written += 1
            inFlight -= 1
            let done = written
            condition.broadcast()
            condition.unlock()
            progress?(ExportProgress(framesWritten: done, frameCount: frameCount, elapsed: Double(now - started) / 1e9))
        }
    }
}
