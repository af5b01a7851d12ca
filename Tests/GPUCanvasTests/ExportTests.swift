import CGLES
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// The frame exporter: frame counts and times, the second hand's angle by pixels, identical bytes across
/// exports, the pipeline's bound on frames in flight, the callback and AsyncSequence forms, and both backends.
/// Frames are small (64²) so the whole file runs in a few seconds.
final class ExportTests: XCTestCase {
    /// The clock's second hand, as a centroid of its red pixels seen from the centre, may point off its true
    /// angle by antialiasing and the hub: at 64² px the hand is 25 px long and 1.5 px wide, so a one-pixel
    /// shift of the centroid across the hand's middle (12 px out) is atan(1/12) ≈ 4.8°. 5° bounds it, well
    /// under the 15° the hand turns between the sampled frames 2.5 s apart.
    static let handAngleTolerance = 5.0

    static let side: CGFloat = 64
    /// The scene colour "red" is SwiftUI's `Color.red` (iOS light mode), sRGB (255, 59, 48).
    static let swiftUIRed = PixelRGBA8(r: 255, g: 59, b: 48, a: 255)
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ExportTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The seeds' clock in our own words: a grey ring and a red second hand from the centre at
    /// seconds × 6° − 90°, the canvas built for each frame from the frame's date.
    static var clock: CanvasFrameSource<EmptyView> { CanvasFrameSource { date in
        Canvas { context, size in
            let c = CGPoint(x: size.width / 2, y: size.height / 2)
            context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size).insetBy(dx: 3, dy: 3)), with: .color(.gray), lineWidth: 2)
            let seconds = date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60)
            let a = Angle.degrees(seconds * 6 - 90)
            var hand = Path()
            hand.move(to: c)
            hand.addLine(to: CGPoint(x: c.x + cos(a.radians) * size.width * 0.4, y: c.y + sin(a.radians) * size.width * 0.4))
            context.stroke(hand, with: .color(.red), lineWidth: 1.5)
        }
    } }

    func exporter(_ count: FrameCount, fps: Double = 30) -> FrameExporter {
        FrameExporter(size: CGSize(width: Self.side, height: Self.side), framesPerSecond: fps, count: count)
    }

    /// The angle (degrees, 0° = +x, clockwise) from the centre to the centroid of the clearly red pixels.
    func secondHandAngle(_ image: RasterImage) throws -> Double {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0 ..< image.height {
            for x in 0 ..< image.width {
                let p = image.pixel(x: x, y: y)
                guard p.a > 128, p.r > 180, p.g < 80, p.b < 80 else { continue }
                sx += Double(x) + 0.5; sy += Double(y) + 0.5; n += 1
            }
        }
        XCTAssertGreaterThan(n, 10, "the second hand is not drawn")
        guard n > 0 else { return .nan }
        return atan2(sy / n - Double(image.height) / 2, sx / n - Double(image.width) / 2) * 180 / .pi
    }

    func angleDifference(_ a: Double, _ b: Double) -> Double {
        abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180)
    }

    // MARK: Frame counts and times

    func testFrameCountsAndTimes() {
        XCTAssertEqual(exporter(.duration(10)).frameCount, 300)
        XCTAssertEqual(exporter(.duration(1), fps: 29.97).frameCount, 30)
        XCTAssertEqual(exporter(.duration(0.1), fps: 30).frameCount, 3)
        XCTAssertEqual(exporter(.frames(7)).frameCount, 7)
        XCTAssertNil(exporter(.untilSourceEnds).frameCount)
        var e = exporter(.duration(10))
        e.startTime = 100
        XCTAssertEqual(e.frameTime(45), FrameTime(index: 45, time: 101.5))
        XCTAssertEqual(exporter(.times([0.25, 3])).frameTime(1), FrameTime(index: 1, time: 3))
    }

    // MARK: The clock

    /// The clock exported 10 s at 30 fps gives 300 frames, frame-00000.png … frame-00299.png, and the second
    /// hand read back from the files turns 6° per second from straight up.
    func testClockTenSecondsAt30FPSGives300FramesWithTheSecondHandTurning() throws {
        let renderer = try CanvasRenderer()
        let destination = PNGSequenceDestination(directory: folder.appendingPathComponent("clock"))
        let report = try exporter(.duration(10)).export(Self.clock, renderer: renderer, to: destination)
        XCTAssertEqual(report.frameCount, 300)
        let files = try FileManager.default.contentsOfDirectory(atPath: destination.directory.path).sorted()
        XCTAssertEqual(files.count, 300)
        XCTAssertEqual(files.first, "frame-00000.png")
        XCTAssertEqual(files.last, "frame-00299.png")
        for index in [0, 75, 150, 225, 299] {
            let image = try RasterImage(contentsOfPNG: destination.fileURL(forFrame: index))
            XCTAssertEqual(image.width, 64)
            let expected = Double(index) / 30 * 6 - 90
            let measured = try secondHandAngle(image)
            XCTAssertLessThanOrEqual(angleDifference(measured, expected), Self.handAngleTolerance,
                                     "frame \(index): hand at \(measured)°, expected \(expected)°")
        }
    }

    /// The seeds' clock as views, in our own words: a face canvas and, in a `TimelineView` stepping every
    /// 0.06 s, a canvas of the second hand built from the timeline's date, stacked in a `ZStack`.
    struct ClockView: View {
        struct Face: View {
            var body: some View {
                Canvas { context, size in
                    context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size).insetBy(dx: 3, dy: 3)),
                                   with: .color(.gray), lineWidth: 2)
                }
            }
        }
        struct Hand: View {
            let date: Date
            var body: some View {
                Canvas { context, size in
                    let c = CGPoint(x: size.width / 2, y: size.height / 2)
                    let a = Angle.degrees(date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60) * 6 - 90)
                    var hand = Path()
                    hand.move(to: c)
                    hand.addLine(to: CGPoint(x: c.x + cos(a.radians) * size.width * 0.4,
                                             y: c.y + sin(a.radians) * size.width * 0.4))
                    context.stroke(hand, with: .color(.red), lineWidth: 1.5)
                }
            }
        }
        var body: some View {
            ZStack {
                Face()
                TimelineView(.animation(minimumInterval: 0.06)) { timeline in Hand(date: timeline.date) }
            }
        }
    }

    /// The seeds' clock as a view exported for 10 s at 30 fps: 300 frames, the hand at seconds × 6° − 90° of
    /// the timeline's date (the last 0.06 s step at or before the frame's time), the same bytes twice.
    func testClockViewExportsThreeHundredFramesWithTheHandAtTheTimelineDate() throws {
        let renderer = try CanvasRenderer()
        let destination = PNGSequenceDestination(directory: folder.appendingPathComponent("clock-view"))
        let report = try exporter(.duration(10)).export(ViewFrameSource(ClockView()), renderer: renderer, to: destination)
        XCTAssertEqual(report.frameCount, 300)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: destination.directory.path).count, 300)
        for index in [0, 75, 150, 225, 299] {
            let image = try RasterImage(contentsOfPNG: destination.fileURL(forFrame: index))
            XCTAssertEqual(image.width, 64)
            let stepped = (Double(index) / 30 / 0.06).rounded(.down) * 0.06
            let expected = stepped * 6 - 90
            let measured = try secondHandAngle(image)
            XCTAssertLessThanOrEqual(angleDifference(measured, expected), Self.handAngleTolerance,
                                     "frame \(index): hand at \(measured)°, expected \(expected)°")
        }
        let again = PNGSequenceDestination(directory: folder.appendingPathComponent("clock-view-2"))
        try exporter(.duration(10)).export(ViewFrameSource(ClockView()), renderer: renderer, to: again)
        for index in [0, 150, 299] {
            XCTAssertEqual(try Data(contentsOf: destination.fileURL(forFrame: index)),
                           try Data(contentsOf: again.fileURL(forFrame: index)), "frame \(index)")
        }
    }

    /// The reference backend exports the same frames: same count, the hand at the same angles.
    func testReferenceBackendExportsTheClockToo() throws {
        let renderer = try CanvasRenderer(backend: .reference)
        var angles: [Int: Double] = [:]
        try exporter(.times([0, 5, 15, 30])).forEachFrame(of: Self.clock, renderer: renderer) { frame in
            angles[frame.frame.index] = try secondHandAngle(frame.image)
        }
        XCTAssertEqual(angles.count, 4)
        for (index, seconds) in [0, 5, 15, 30].enumerated() {
            let expected = Double(seconds) * 6 - 90
            XCTAssertLessThanOrEqual(angleDifference(angles[index]!, expected), Self.handAngleTolerance, "t = \(seconds) s")
        }
    }

    // MARK: Determinism

    func testTwoExportsGiveIdenticalBytes() throws {
        let renderer = try CanvasRenderer()
        var outputs: [[Data]] = []
        for run in 0 ..< 2 {
            let sequence = PNGSequenceDestination(directory: folder.appendingPathComponent("run\(run)"))
            try exporter(.frames(20)).export(Self.clock, renderer: renderer, to: sequence)
            let apng = APNGDestination(url: folder.appendingPathComponent("run\(run).apng"))
            try exporter(.frames(20)).export(Self.clock, renderer: renderer, to: apng)
            var files = try (0 ..< 20).map { try Data(contentsOf: sequence.fileURL(forFrame: $0)) }
            files.append(try Data(contentsOf: apng.url))
            outputs.append(files)
        }
        XCTAssertEqual(outputs[0].count, 21)
        XCTAssertEqual(outputs[0], outputs[1])
        // And the frames differ from one another (the hand moves), so equality is not trivially true.
        XCTAssertNotEqual(outputs[0][0], outputs[0][19])
    }

    // MARK: Pipeline

    /// However long the export, at most `maxFramesInFlight` frames exist at once, and the frames reach the
    /// destination in order.
    func testFramesInFlightStayBoundedAndArriveInOrder() throws {
        final class Recorder: FrameDestination, @unchecked Sendable {
            var name: String { "recorder" }
            var order: [Int] = []
            func begin(width: Int, height: Int, framesPerSecond: Double, frameCount: Int?) throws {}
            func encode(_ image: RasterImage, frame: FrameTime) throws -> Data {
                // Uneven encode times, so workers finish out of order.
                if frame.index % 3 == 0 { usleep(300) }
                return Data([UInt8(frame.index & 0xFF)])
            }
            func write(_ encoded: Data, frame: FrameTime) throws { order.append(frame.index) }
            func finish() throws {}
            func abort() {}
        }
        let source = RendererFrameSource { context, size, time in
            context.fill(Path(CGRect(x: 0, y: 0, width: time.truncatingRemainder(dividingBy: 1) * size.width + 1, height: 4)), with: .color(.blue))
        }
        var e = FrameExporter(size: CGSize(width: 8, height: 8), count: .frames(400))
        e.maxFramesInFlight = 3
        e.encodeWorkers = 2
        let recorder = Recorder()
        let report = try e.export(source, renderer: try CanvasRenderer(), to: recorder)
        XCTAssertEqual(recorder.order, Array(0 ..< 400))
        XCTAssertLessThanOrEqual(report.peakFramesInFlight, 3)
        XCTAssertGreaterThanOrEqual(report.peakFramesInFlight, 1)
    }

    /// GLES readback through double-buffered pixel buffer objects (frame i read back while frame i + 1
    /// renders) gives the bytes of the synchronous readback: for an 8-bit frame, an opaque one whose alpha is
    /// forced, and a linear-light frame (read synchronously on both settings).
    func testOverlappedReadbackGivesTheSynchronousBytes() throws {
        let opaqueLinear = RendererFrameSource(opaque: true, colorMode: .linear) { context, size, time in
            context.fill(Path(ellipseIn: CGRect(x: time * 40, y: 4, width: 20, height: 20)), with: .color(.orange.opacity(0.6)))
        }
        let opaque = RendererFrameSource(opaque: true) { context, size, time in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.teal))
            context.blendMode = .clear
            context.fill(Path(ellipseIn: CGRect(x: time * 40, y: 4, width: 20, height: 20)), with: .color(.black))
        }
        let renderer = try CanvasRenderer()
        // The 8-bit frame really goes through a pixel buffer; the linear-light one does not.
        let size = CGSize(width: Self.side, height: Self.side)
        let begun = try renderer.beginRender(ExportTests.clock.recording(for: FrameTime(index: 0, time: 0), size: size)!, scale: 1)
        guard case .gles(.pending) = begun.state else { return XCTFail("the clock's frame was read back synchronously") }
        _ = try renderer.completeRender(begun)
        let linear = try renderer.beginRender(opaqueLinear.recording(for: FrameTime(index: 0, time: 0), size: size)!, scale: 1)
        guard case .gles(.complete) = linear.state else { return XCTFail("a linear-light frame went through a pixel buffer") }
        for (name, source) in [("clock", ExportTests.clock as any FrameSource), ("opaque", opaque), ("linear", opaqueLinear)] {
            var files: [[Data]] = []
            for overlap in [true, false] {
                var e = exporter(.frames(9))
                e.overlapReadback = overlap
                let sequence = PNGSequenceDestination(directory: folder.appendingPathComponent("\(name)-\(overlap)"))
                try e.export(source, renderer: renderer, to: sequence)
                files.append(try (0 ..< 9).map { try Data(contentsOf: sequence.fileURL(forFrame: $0)) })
            }
            XCTAssertEqual(files[0], files[1], name)
            XCTAssertNotEqual(files[0][0], files[0][8], name)
        }
    }

    /// The callback and the AsyncSequence give the frames the pipeline writes.
    func testCallbackAndAsyncSequenceGiveTheExportedFrames() async throws {
        let e = exporter(.frames(6), fps: 2)
        let sequence = PNGSequenceDestination(directory: folder.appendingPathComponent("seq"))
        try e.export(Self.clock, renderer: try CanvasRenderer(), to: sequence)
        var streamed: [ExportedFrame] = []
        for try await frame in e.frames(of: Self.clock, renderer: try CanvasRenderer()) { streamed.append(frame) }
        XCTAssertEqual(streamed.map(\.frame.time), [0, 0.5, 1, 1.5, 2, 2.5])
        var called = 0
        try e.forEachFrame(of: Self.clock, renderer: try CanvasRenderer()) { frame in
            XCTAssertEqual(frame.image, streamed[frame.frame.index].image)
            called += 1
        }
        XCTAssertEqual(called, 6)
        for frame in streamed {
            XCTAssertEqual(try RasterImage(contentsOfPNG: sequence.fileURL(forFrame: frame.frame.index)), frame.image)
        }
    }

    /// Fast PNG frames decode to the same pixels as the compact default; they carry the sRGB chunk, and every
    /// row of their image data has filter type 0 (none), which is what makes them fast.
    func testFastPNGDecodesToTheSamePixelsWithoutRowFilters() throws {
        let image = try CanvasRenderer().render(Self.clock.recording(for: FrameTime(index: 0, time: 12), size: CGSize(width: 256, height: 256))!)
        let fast = try image.pngData(compression: .fast), compact = try image.pngData(compression: .compact)
        XCTAssertEqual(try RasterImage(pngData: fast), try RasterImage(pngData: compact))
        let bytes = [UInt8](fast)
        let chunks = try APNGDestination.chunks(of: bytes)
        XCTAssertEqual(chunks.map(\.type).filter { $0 != "IDAT" }, ["IHDR", "sRGB", "IEND"])
        let zlibStream = chunks.filter { $0.type == "IDAT" }.flatMap { bytes[$0.data] }
        let rowBytes = 1 + 256 * 4
        var raw = [UInt8](repeating: 0, count: rowBytes * 256)
        var rawCount = uLongf(raw.count)
        XCTAssertEqual(uncompress(&raw, &rawCount, zlibStream, uLong(zlibStream.count)), Z_OK)
        XCTAssertEqual(Int(rawCount), raw.count)
        XCTAssertEqual(Set((0 ..< 256).map { raw[$0 * rowBytes] }), [0])
        // The compact encoding does filter (some row is not type 0), so the check above can tell them apart.
        let compactBytes = [UInt8](compact)
        let compactStream = try APNGDestination.chunks(of: compactBytes).filter { $0.type == "IDAT" }.flatMap { compactBytes[$0.data] }
        rawCount = uLongf(raw.count)
        XCTAssertEqual(uncompress(&raw, &rawCount, compactStream, uLong(compactStream.count)), Z_OK)
        XCTAssertNotEqual(Set((0 ..< 256).map { raw[$0 * rowBytes] }), [0])
    }

    // MARK: Failures

    struct Broken: Error, CustomStringConvertible { var description: String { "the source broke on purpose" } }

    /// A source that draws the clock and fails at frame `failAt`.
    struct FailingSource: FrameSource {
        var failAt: Int
        func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
            if frame.index == failAt { throw Broken() }
            return try ExportTests.clock.recording(for: frame, size: size)
        }
    }

    /// A failing frame is reported with its number and reason and leaves no file and no temporary file, on
    /// both backends, in the same words.
    func testFailingFrameLeavesNothingAndNamesTheFrame() throws {
        var messages: [String] = []
        for renderer in [try CanvasRenderer.strict(), try CanvasRenderer.strict(backend: .reference)] {
            let apng = APNGDestination(url: folder.appendingPathComponent("broken.apng"))
            XCTAssertThrowsError(try exporter(.frames(30)).export(FailingSource(failAt: 7), renderer: renderer, to: apng)) { error in
                XCTAssertEqual(error as? ExportError, .frameFailed(frame: FrameTime(index: 7, time: 7.0 / 30), reason: "the source broke on purpose"))
                messages.append("\(error)")
            }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
        }
        XCTAssertEqual(messages, ["frame 7 (t = 0.233 s): the source broke on purpose", "frame 7 (t = 0.233 s): the source broke on purpose"])
    }

    /// A frame the renderer rejects (a path with a NaN point at frame 3, while frame 2's readback is still
    /// pending on GLES) stops the export with the renderer's words, the same on both backends, and leaves nothing.
    func testRejectedFrameGivesTheSameWordsOnBothBackends() throws {
        let source = RendererFrameSource { context, size, time in
            let x = time >= 0.1 ? CGFloat.nan : 4
            context.fill(Path(CGRect(x: x, y: 4, width: 10, height: 10)), with: .color(.blue))
        }
        var messages: [String] = []
        for renderer in [try CanvasRenderer.strict(), try CanvasRenderer.strict(backend: .reference)] {
            let apng = APNGDestination(url: folder.appendingPathComponent("nan.apng"))
            XCTAssertThrowsError(try exporter(.frames(10)).export(source, renderer: renderer, to: apng)) { messages.append("\($0)") }
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
            // The renderer is left usable.
            XCTAssertEqual(try renderer.render(size: CGSize(width: 4, height: 4)) { c, s in
                c.fill(Path(CGRect(origin: .zero, size: s)), with: .color(.white))
            }.pixel(x: 1, y: 1), PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        }
        XCTAssertEqual(messages.count, 2)
        XCTAssertEqual(messages[0], messages[1])
        XCTAssertTrue(messages[0].hasPrefix("frame 3 (t = 0.100 s): invalid geometry"), messages[0])
    }

    /// A PNG sequence whose first frame fails removes the folder it made; a source with no frames is an error.
    func testNothingIsLeftWhenNoFrameIsWritten() throws {
        let made = folder.appendingPathComponent("made-here")
        XCTAssertThrowsError(try exporter(.frames(5)).export(FailingSource(failAt: 0), renderer: try CanvasRenderer(),
                                                             to: PNGSequenceDestination(directory: made)))
        XCTAssertFalse(FileManager.default.fileExists(atPath: made.path))
        struct Empty: FrameSource {
            func recording(for frame: FrameTime, size: CGSize) throws -> Recording? { nil }
        }
        let apng = APNGDestination(url: folder.appendingPathComponent("empty.apng"))
        XCTAssertThrowsError(try exporter(.untilSourceEnds).export(Empty(), renderer: try CanvasRenderer(), to: apng)) { error in
            XCTAssertEqual("\(error)", "the source gave no frames; nothing was written to \(apng.url.path)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testCancellationRemovesTheTemporaryFile() throws {
        let cancellation = ExportCancellation()
        let source = RendererFrameSource { context, size, time in
            if time >= 0.2 { cancellation.cancel() }
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.green))
        }
        let apng = APNGDestination(url: folder.appendingPathComponent("cancelled.apng"))
        XCTAssertThrowsError(try exporter(.frames(300)).export(source, renderer: try CanvasRenderer(), to: apng, cancellation: cancellation)) { error in
            guard case .cancelled(let written, let count, let destination)? = error as? ExportError else {
                return XCTFail("expected a cancellation, got \(error)")
            }
            XCTAssertLessThan(written, 300)
            XCTAssertEqual(count, 300)
            XCTAssertTrue(destination.contains("nothing was written to"), destination)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testUnwritableDestinationsNameThePath() throws {
        let missing = folder.appendingPathComponent("no/such/folder")
        XCTAssertThrowsError(try exporter(.frames(2)).export(Self.clock, renderer: try CanvasRenderer(),
                                                             to: APNGDestination(url: missing.appendingPathComponent("a.apng")))) { error in
            XCTAssertEqual("\(error)", "cannot write \(missing.path)/a.apng: the folder \(missing.path) does not exist")
        }
        XCTAssertThrowsError(try exporter(.frames(2)).export(Self.clock, renderer: try CanvasRenderer(),
                                                             to: PNGSequenceDestination(directory: missing))) { error in
            XCTAssertEqual("\(error)", "cannot write \(missing.path)/: No such file or directory")
        }
        // A full disk: /dev/full fails every write with ENOSPC.
        let fd = open("/dev/full", O_WRONLY)
        try XCTSkipIf(fd < 0, "no /dev/full here")
        defer { close(fd) }
        XCTAssertThrowsError(try exporter(.frames(2)).export(Self.clock, renderer: try CanvasRenderer(),
                                                             to: RawFrameDestination(fileDescriptor: fd, name: "/dev/full"))) { error in
            XCTAssertEqual("\(error)", "cannot write /dev/full: No space left on device")
        }
    }

    func testInvalidSettingsAreRejectedBeforeRendering() throws {
        var e = exporter(.frames(0))
        XCTAssertThrowsError(try e.validate()) { XCTAssertEqual("\($0)", "the frame count must be at least 1, not 0") }
        e = exporter(.duration(1), fps: 0)
        XCTAssertThrowsError(try e.validate()) { XCTAssertEqual("\($0)", "the frame rate must be a number > 0, not 0.0") }
        e = FrameExporter(size: CGSize(width: 0, height: 10), count: .frames(1))
        XCTAssertThrowsError(try e.validate()) { XCTAssertEqual("\($0)", "the frame size must be > 0 in both directions, not 0×10 pt") }
        e = exporter(.frames(3))
        e.maxFramesInFlight = 1
        XCTAssertThrowsError(try e.validate()) { XCTAssertEqual("\($0)", "at least 2 frames in flight are needed, not 1") }
        e.maxFramesInFlight = 2
        // Two are enough: the smallest pipeline runs to the end (no deadlock between the threads).
        let report = try e.export(Self.clock, renderer: try CanvasRenderer(), to: PNGSequenceDestination(directory: folder.appendingPathComponent("two")))
        XCTAssertEqual(report.frameCount, 3)
        XCTAssertLessThanOrEqual(report.peakFramesInFlight, 2)
    }

    func testMissingFFmpegIsAClearError() throws {
        let mp4 = FFmpegDestination(url: folder.appendingPathComponent("a.mp4"), format: .mp4, ffmpeg: "/nonexistent/ffmpeg")
        XCTAssertThrowsError(try exporter(.frames(2)).export(Self.clock, renderer: try CanvasRenderer(), to: mp4)) { error in
            XCTAssertEqual("\(error)", "/nonexistent/ffmpeg was not found; MP4 export runs it (Debian: apt install ffmpeg)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    // MARK: Scene streams

    func writeStream(_ lines: [String]) throws -> URL {
        let url = folder.appendingPathComponent("stream.ndjson")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)
        return url
    }

    func scene(_ x: Int, size: String = "[16, 8]") -> String {
        #"{"format": "gpucanvas-scene/1", "size": \#(size), "commands": [{"op": "fill", "path": {"rect": [\#(x), 0, 4, 8]}, "shading": {"color": "red"}}]}"#
    }

    func testSceneStreamGivesOneFramePerLine() throws {
        let url = try writeStream([scene(0), "", scene(4), scene(8)])
        let source = try SceneStreamSource(contentsOf: url)
        XCTAssertEqual(source.size, CGSize(width: 16, height: 8))
        var images: [RasterImage] = []
        try FrameExporter(size: source.size, count: .untilSourceEnds).forEachFrame(of: source, renderer: try CanvasRenderer()) {
            images.append($0.image)
        }
        XCTAssertEqual(images.count, 3)
        for (k, image) in images.enumerated() {
            XCTAssertEqual(image.pixel(x: 4 * k + 2, y: 4), Self.swiftUIRed, "frame \(k)")
            XCTAssertEqual(image.pixel(x: (4 * k + 6) % 16, y: 4).a, 0, "frame \(k)")
        }
    }

    func testMalformedStreamLineNamesItsLineNumber() throws {
        let url = try writeStream([scene(0), scene(4), #"{"format": "gpucanvas-scene/1", "size": [16, 8], "commands": [{"op": "fill"}]}"#])
        let source = try SceneStreamSource(contentsOf: url)
        let apng = APNGDestination(url: folder.appendingPathComponent("s.apng"))
        XCTAssertThrowsError(try FrameExporter(size: source.size, count: .untilSourceEnds).export(source, renderer: try CanvasRenderer(), to: apng)) { error in
            guard case .invalidStream(let name, let line, _)? = error as? ExportError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, url.path)
            XCTAssertEqual(line, 3)
            XCTAssertTrue("\(error)".hasPrefix("\(url.path) line 3: commands[0]"), "\(error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: apng.url.path))

        let syntax = try writeStream([scene(0), "{not json"])
        XCTAssertThrowsError(try FrameExporter(size: CGSize(width: 16, height: 8), count: .untilSourceEnds)
            .forEachFrame(of: try SceneStreamSource(contentsOf: syntax), renderer: try CanvasRenderer()) { _ in }) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(syntax.path) line 2: column 2"), "\(error)")
        }
        let resized = try writeStream([scene(0), scene(0, size: "[20, 8]")])
        XCTAssertThrowsError(try FrameExporter(size: CGSize(width: 16, height: 8), count: .untilSourceEnds)
            .forEachFrame(of: try SceneStreamSource(contentsOf: resized), renderer: try CanvasRenderer()) { _ in }) { error in
            XCTAssertEqual("\(error)", "\(resized.path) line 2: the scene is 20×8 pt; every scene of the stream must be 16×8 pt")
        }
        let empty = try writeStream(["", "  "])
        XCTAssertThrowsError(try SceneStreamSource(contentsOf: empty)) { error in
            XCTAssertEqual("\(error)", "\(empty.path): the stream holds no scene")
        }
    }

    func testAPNGFrameDelay() {
        XCTAssertTrue(APNGDestination.frameDelay(framesPerSecond: 30) == (1, 30))
        let ntsc = APNGDestination.frameDelay(framesPerSecond: 29.97)
        XCTAssertEqual(Double(ntsc.numerator) / Double(ntsc.denominator), 1 / 29.97, accuracy: 1e-6)
    }
}
