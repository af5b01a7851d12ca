import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Exported files read back by independent decoders: every APNG frame by Pillow (compared byte for byte with
/// the frames rendered here), the MP4, WebM and GIF frame counts and sizes by ffprobe. The tools come from
/// scripts/install-deps.sh (python3-pil, ffmpeg); without them these tests are skipped, saying which is missing.
final class ExportDecoderTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ExportDecoderTests-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs a program, returns its stdout; fails the test on a non-zero exit.
    func run(_ executable: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = arguments
        let out = folder.appendingPathComponent("out-\(UUID())"), err = folder.appendingPathComponent("err-\(UUID())")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        let stderr = String(decoding: try Data(contentsOf: err), as: UTF8.self)
        XCTAssertEqual(p.terminationStatus, 0, "\(executable) failed: \(stderr)", file: file, line: line)
        return String(decoding: try Data(contentsOf: out), as: UTF8.self)
    }

    /// A python3 that can import PIL (Debian's python3-pil goes with /usr/bin/python3).
    func pythonWithPillow() throws -> String {
        for candidate in ["/usr/bin/python3", "/usr/local/bin/python3"] where FileManager.default.isExecutableFile(atPath: candidate) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: candidate)
            p.arguments = ["-c", "import PIL.Image"]
            p.standardError = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            if p.terminationStatus == 0 { return candidate }
        }
        throw XCTSkip("no python3 with Pillow (apt install python3-pil; scripts/install-deps.sh does)")
    }

    func ffprobe() throws -> String {
        guard let path = FFmpegDestination.locate("ffprobe") else { throw XCTSkip("no ffprobe (apt install ffmpeg)") }
        return path
    }

    /// Every APNG frame, decoded by Pillow, is the frame rendered here (straight RGBA, byte for byte), and
    /// the file says 12 frames of 1/30 s looping forever.
    func testEveryAPNGFrameReadsBackInPillow() throws {
        let python = try pythonWithPillow()
        let exporter = FrameExporter(size: CGSize(width: 48, height: 40), framesPerSecond: 30, count: .frames(12), startTime: 3)
        let url = folder.appendingPathComponent("clock.apng")
        try exporter.export(ExportTests.clock, renderer: try CanvasRenderer(), to: APNGDestination(url: url))
        let dump = folder.appendingPathComponent("frames.rgba")
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            print(im.format, im.size[0], im.size[1], im.n_frames, im.info.get('loop'), round(im.info.get('duration', 0), 3))
            with open(sys.argv[2], 'wb') as out:
                for k in range(im.n_frames):
                    im.seek(k)
                    out.write(im.convert('RGBA').tobytes())
            """
        let header = try run(python, ["-c", script, url.path, dump.path]).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(header, "PNG 48 40 12 0 33.333")
        let decoded = [UInt8](try Data(contentsOf: dump))
        let frameBytes = 48 * 40 * 4
        XCTAssertEqual(decoded.count, 12 * frameBytes)
        var index = 0
        try exporter.forEachFrame(of: ExportTests.clock, renderer: try CanvasRenderer()) { frame in
            let expected = RasterImage.unpremultiplied(frame.image.pixels)
            XCTAssertEqual(Array(decoded[index * frameBytes ..< (index + 1) * frameBytes]), expected, "frame \(index)")
            index += 1
        }
        XCTAssertEqual(index, 12)
    }

    /// ffprobe counts the frames of the MP4, WebM and GIF and reads their size; an odd size is padded to even
    /// for MP4 (4:2:0 chroma) and kept for the others.
    func testVideoFrameCountsAndSizesFromFFprobe() throws {
        let probe = try ffprobe()
        try XCTSkipIf(FFmpegDestination.locate() == nil, "no ffmpeg (apt install ffmpeg)")
        let exporter = FrameExporter(size: CGSize(width: 64, height: 47), framesPerSecond: 30, count: .frames(15))
        for (format, expected) in [(VideoFormat.mp4, "h264,64,48,15"), (.webm, "vp9,64,47,15"), (.gif, "gif,64,47,15")] {
            let url = folder.appendingPathComponent("clock.\(format.rawValue)")
            try exporter.export(ExportTests.clock, renderer: try CanvasRenderer(), to: FFmpegDestination(url: url, format: format))
            let line = try run(probe, ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                       "-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", url.path])
            XCTAssertEqual(line.trimmingCharacters(in: .whitespacesAndNewlines), expected, "\(format)")
        }
        // Only the three files: no temporary file or ffmpeg log is left.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["clock.gif", "clock.mp4", "clock.webm"])
    }

    /// A frame that fails mid-video stops ffmpeg and leaves neither the file nor the temporary one.
    func testFailingFrameStopsFFmpegAndLeavesNothing() throws {
        try XCTSkipIf(FFmpegDestination.locate() == nil, "no ffmpeg (apt install ffmpeg)")
        let url = folder.appendingPathComponent("broken.mp4")
        XCTAssertThrowsError(try FrameExporter(size: CGSize(width: 64, height: 64), count: .frames(40))
            .export(ExportTests.FailingSource(failAt: 20), renderer: try CanvasRenderer(), to: FFmpegDestination(url: url, format: .mp4))) { error in
            XCTAssertEqual((error as? ExportError).map { if case .frameFailed(let f, _) = $0 { return f.index } else { return -1 } }, 20)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}
