import XCTest
import Foundation

/// What a fresh `canvas-gl render` process loads outside GL before its first image, from the counts
/// `--timings` prints: nothing of text for a drawing without text, the icon font alone for system images,
/// fontconfig once and a fallback list only where a face lacks characters, each shader file at most once.
final class StartupResourcesCLITests: XCTestCase {
    private var tmp: URL!

    override func setUpWithError() throws {
        tmp = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("canvas-gl-startup-\(UUID())")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tmp)
    }

    struct Loads: Equatable, CustomStringConvertible {
        var fontconfig: Int, sorts: Int, faces: Int, shaderFiles: Int
        var description: String { "fontconfig \(fontconfig), sorts \(sorts), faces \(faces), shader files \(shaderFiles)" }
    }

    /// `render --example NAME --timings` on `backend`; the counts of its timings line.
    private func loads(_ example: String, _ backend: [String]) throws -> Loads {
        let binary = try XCTUnwrap(CLITests.binary, "canvas-gl not found")
        let out = tmp.appendingPathComponent("\(example).png").path
        let r = try ProcessRun.run(binary, ["render", "--example", example, "-o", out, "--timings"] + backend, in: tmp)
        XCTAssertEqual(r.status, 0, r.stderr)
        let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.hasPrefix("timings: ") }, r.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.dropFirst(9).utf8)) as? [String: Any])
        func count(_ key: String) throws -> Int { try XCTUnwrap((object[key] as? NSNumber)?.intValue, "\(key) in \(line)") }
        return Loads(fontconfig: try count("fontconfigLoads"), sorts: try count("fontSorts"),
                     faces: try count("facesOpened"), shaderFiles: try count("shaderFilesRead"))
    }

    private let reference = ["--backend", "reference"]

    func testAFrameLoadsOnlyTheResourcesItDraws() throws {
        // A stroked ellipse: no text, no symbol, no shader on the reference.
        XCTAssertEqual(try loads("ellipse", reference), Loads(fontconfig: 0, sorts: 0, faces: 0, shaderFiles: 0))
        // Three house.fill symbols: the icon font by its path, without fontconfig.
        XCTAssertEqual(try loads("three-houses-ordering", reference), Loads(fontconfig: 0, sorts: 0, faces: 1, shaderFiles: 0))
        // "Hello World!" in "Arial Rounded MT Bold" (fontconfig's substitute has every character): fontconfig once,
        // one face, no fallback list.
        XCTAssertEqual(try loads("hello-world", reference), Loads(fontconfig: 1, sorts: 0, faces: 1, shaderFiles: 0))
        // Eight scripts and emoji: the system font's fallback list is sorted once, each fallback face opened once.
        let mixed = try loads("mixed-scripts", reference)
        XCTAssertEqual(mixed.fontconfig, 1, "\(mixed)")
        XCTAssertEqual(mixed.sorts, 1, "\(mixed)")
        XCTAssertGreaterThanOrEqual(mixed.faces, 4, "Inter and the Arabic, Devanagari, CJK and emoji fallbacks: \(mixed)")
    }

    func testGLESReadsEachShaderFileAtMostOnce() throws {
        // The bundle's programs/*.glsl and programs/include/*.glsl (Sources/Shaders/programs).
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/Shaders/programs")
        func glsl(_ dir: URL) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".glsl") }.count
        }
        let files = try glsl(folder) + glsl(folder.appendingPathComponent("include"))
        // blend-modes builds dozens of program variants (one a blend mode), each from the same few files.
        let l = try loads("blend-modes", ["--backend", "gles", "--device", "mesa"])
        XCTAssertEqual(Loads(fontconfig: l.fontconfig, sorts: l.sorts, faces: l.faces, shaderFiles: 0),
                       Loads(fontconfig: 0, sorts: 0, faces: 0, shaderFiles: 0), "no text in blend-modes: \(l)")
        XCTAssertGreaterThan(l.shaderFiles, 0, "\(l)")
        XCTAssertLessThanOrEqual(l.shaderFiles, files, "\(l)")
    }
}
