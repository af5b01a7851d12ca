import CGLES
import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// The program-binary cache on llvmpipe: a hit renders what a fresh build renders, every kind of bad entry is
/// a miss that is rebuilt and rewritten, the size bound evicts the least recently used entry.
final class ProgramCacheTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = NSTemporaryDirectory() + "gpucanvas-program-cache-\(UUID().uuidString)"
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// White, a red square, a cyan square multiplied over it (black where they overlap), and a black-to-white
    /// gradient strip: base programs, a blend-mode variant and a gradient variant.
    static let scene = Recording(size: CGSize(width: 64, height: 48)) { ctx, size in
        ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(Color(red: 1, green: 1, blue: 1)))
        ctx.fill(Path(CGRect(x: 4, y: 4, width: 20, height: 20)), with: .color(Color(red: 1, green: 0, blue: 0)))
        ctx.blendMode = .multiply
        ctx.fill(Path(CGRect(x: 14, y: 4, width: 20, height: 20)), with: .color(Color(red: 0, green: 1, blue: 1)))
        ctx.blendMode = .normal
        ctx.fill(Path(CGRect(x: 0, y: 32, width: 64, height: 16)),
                 with: .linearGradient(Gradient(colors: [Color(red: 0, green: 0, blue: 0), Color(red: 1, green: 1, blue: 1)]),
                                       startPoint: CGPoint(x: 0, y: 0), endPoint: CGPoint(x: 64, y: 0)))
    }

    /// The gradient's midpoint pixel (t = 32.5 / 64) may differ from the exact 129.5 by the GPU's interpolation
    /// and 8-bit rounding of its texel ramp: two levels.
    static let gradientTolerance = 2

    /// The scene's pixels that do not depend on the cache: any program mix-up (a wrong binary) changes them.
    private func assertKnownPixels(_ image: RasterImage, _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(image.pixel(x: 8, y: 14), PixelRGBA8(r: 255, g: 0, b: 0, a: 255), "red, \(label)", file: file, line: line)
        XCTAssertEqual(image.pixel(x: 18, y: 14), PixelRGBA8(r: 0, g: 0, b: 0, a: 255), "red × cyan, \(label)", file: file, line: line)
        XCTAssertEqual(image.pixel(x: 30, y: 14), PixelRGBA8(r: 0, g: 255, b: 255, a: 255), "cyan × white, \(label)", file: file, line: line)
        XCTAssertEqual(image.pixel(x: 50, y: 14), PixelRGBA8(r: 255, g: 255, b: 255, a: 255), "white, \(label)", file: file, line: line)
        let mid = image.pixel(x: 32, y: 40)
        XCTAssertLessThanOrEqual(abs(Int(mid.r) - 130), Self.gradientTolerance, "gradient midpoint \(mid), \(label)", file: file, line: line)
    }

    private func renderer(_ location: ProgramCacheLocation) throws -> CanvasRenderer {
        try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, programCache: location)))
    }

    /// Renders the scene with a fresh renderer on the test's directory; the cache counters' change over it.
    private func renderCached() throws -> (RasterImage, ProgramCacheStatistics) {
        let before = ProgramCache.shared(directory: directory).statistics
        let r = try renderer(.directory(directory))
        let image = try r.render(Self.scene)
        var after = try XCTUnwrap(r.programCacheStatistics)
        after.hits -= before.hits
        after.misses -= before.misses
        after.rejected -= before.rejected
        after.written -= before.written
        after.evicted -= before.evicted
        return (image, after)
    }

    private var entries: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".bin") }.sorted()
    }

    private static func key(ofEntry name: String) -> [UInt8] {
        let hex = Array(name.prefix(64))
        return stride(from: 0, to: 64, by: 2).map { UInt8(String(hex[$0 ..< $0 + 2]), radix: 16)! }
    }

    /// The binary format llvmpipe offers (Mesa's, while its disk cache is on).
    private func driverFormat() throws -> GLenum {
        let context = try GLContext(selection: .mesa)
        defer { context.releaseCurrent() }
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_PROGRAM_BINARY_FORMATS), &n)
        try XCTSkipIf(n == 0, "this Mesa offers no program binary format (MESA_SHADER_CACHE_DISABLE?)")
        var format: GLint = 0
        glGetIntegerv(GLenum(GL_PROGRAM_BINARY_FORMATS), &format)
        return GLenum(bitPattern: format)
    }

    /// Every entry file is well formed for the key its name gives.
    private func assertEntriesValid(format: GLenum, file: StaticString = #filePath, line: UInt = #line) {
        for name in entries {
            let data = Array((try? Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))) ?? Data())
            let (payload, problem) = ProgramCache.decode(data, key: Self.key(ofEntry: name), format: format)
            XCTAssertNotNil(payload, "\(name): \(problem ?? "")", file: file, line: line)
        }
    }

    func testHitLoadsTheProgramAndRendersTheBytesOfAFreshBuild() throws {
        let format = try driverFormat()
        let fresh = try renderer(.none).render(Self.scene)
        assertKnownPixels(fresh, "no cache")

        let (first, cold) = try renderCached()
        XCTAssertEqual(cold.hits, 0)
        XCTAssertGreaterThan(cold.misses, 1, "the frame's general programs are built")
        XCTAssertEqual(cold.written, cold.misses)
        XCTAssertEqual(entries.count, cold.misses, "one file per program")
        XCTAssertNil(cold.note)
        assertEntriesValid(format: format)
        XCTAssertTrue(first.pixels == fresh.pixels, "not the bytes of a fresh build")

        let (second, warm) = try renderCached()
        XCTAssertEqual(warm.hits, cold.misses, "every program is loaded from its binary")
        XCTAssertEqual(warm.misses, 0)
        XCTAssertEqual(warm.written, 0)
        XCTAssertTrue(second.pixels == fresh.pixels, "not the bytes of a fresh build")
        assertKnownPixels(second, "from binaries")
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") },
                       [], "no temporary file is left behind")
    }

    /// Each kind of bad entry: a miss, the frame's bytes right, the file rewritten valid.
    func testBadEntriesAreRebuiltAndRewritten() throws {
        let format = try driverFormat()
        let fresh = try renderer(.none).render(Self.scene)
        let (_, cold) = try renderCached()
        let programs = cold.misses
        let good = Dictionary(uniqueKeysWithValues: entries.map { name in
            (name, Array(FileManager.default.contents(atPath: directory + "/" + name)!))
        })
        let names = good.keys.sorted()
        var random = SystemRandomNumberGenerator()
        var damages: [(String, (String, [UInt8]) throws -> Void)] = [
            ("zero-length", { path, _ in try Data().write(to: URL(fileURLWithPath: path)) }),
            ("truncated", { path, bytes in try Data(bytes.prefix(bytes.count / 2)).write(to: URL(fileURLWithPath: path)) }),
            ("header only", { path, bytes in try Data(bytes.prefix(ProgramCache.headerSize)).write(to: URL(fileURLWithPath: path)) }),
            ("a flipped payload byte", { path, bytes in
                var b = bytes
                b[b.count - 7] ^= 0x5a
                try Data(b).write(to: URL(fileURLWithPath: path))
            }),
            ("random bytes", { path, bytes in
                try Data((0 ..< bytes.count).map { _ in UInt8.random(in: 0 ... 255, using: &random) }).write(to: URL(fileURLWithPath: path))
            }),
            ("another program's entry", { path, _ in
                let mine = (path as NSString).lastPathComponent
                let other = names.first { $0 != mine }!
                try Data(good[other]!).write(to: URL(fileURLWithPath: path))
            }),
            ("another binary format", { path, bytes in
                var b = bytes
                b[12] ^= 0x01  // the format field's low byte
                try Data(b).write(to: URL(fileURLWithPath: path))
            }),
            ("another cache version", { path, bytes in
                var b = bytes
                b[8] &+= 1
                try Data(b).write(to: URL(fileURLWithPath: path))
            }),
            ("a sound header over a payload the driver refuses", { path, bytes in
                let garbage = (0 ..< bytes.count - ProgramCache.headerSize).map { _ in UInt8.random(in: 0 ... 255, using: &random) }
                let name = (path as NSString).lastPathComponent
                try Data(ProgramCache.encode(garbage, key: Self.key(ofEntry: name), format: format))
                    .write(to: URL(fileURLWithPath: path))
            }),
            ("a directory in its place", { path, _ in
                try FileManager.default.createDirectory(atPath: path + "/inside", withIntermediateDirectories: true)
            }),
            // Unreadable as a file: chmod cannot stop root, who runs CI; a FIFO would block a plain open().
            ("a FIFO in its place", { path, _ in XCTAssertEqual(mkfifo(path, 0o600), 0) }),
        ]
        if geteuid() != 0 {
            damages.append(("a file without read permission", { path, bytes in
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                XCTAssertEqual(chmod(path, 0), 0)
            }))
        }
        for (label, damage) in damages {
            for name in names {
                let path = directory + "/" + name
                try FileManager.default.removeItem(atPath: path)
                try damage(path, good[name]!)
            }
            let (image, stats) = try renderCached()
            XCTAssertEqual(stats.hits, 0, label)
            XCTAssertEqual(stats.rejected, programs, "every entry is refused: \(label)")
            XCTAssertEqual(stats.misses, programs, label)
            XCTAssertEqual(stats.written, programs, "every entry is rewritten: \(label)")
            XCTAssertTrue(image.pixels == fresh.pixels, "not the bytes of a fresh build: \(label)")
            assertKnownPixels(image, label)
            XCTAssertEqual(entries, names, label)
            assertEntriesValid(format: format)
            let (_, again) = try renderCached()
            XCTAssertEqual(again.hits, programs, "the rewritten entries load: \(label)")
        }
    }

    /// An entry that cannot be written (the directory's place is a file) is no error: the frame renders from
    /// source, and the note says why.
    func testUnwritableDirectoryRendersWithoutTheCache() throws {
        _ = try driverFormat()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let blocker = directory + "/file"
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: blocker))
        let before = ProgramCache.shared(directory: blocker + "/programs").statistics
        let r = try renderer(.directory(blocker + "/programs"))
        let image = try r.render(Self.scene)
        assertKnownPixels(image, "unwritable cache")
        let stats = try XCTUnwrap(r.programCacheStatistics)
        XCTAssertEqual(stats.written - before.written, 0)
        let note = try XCTUnwrap(stats.note)
        XCTAssertTrue(note.hasPrefix("cannot write to \(blocker)/programs ("), note)
        XCTAssertTrue(note.hasSuffix("so programs are built from source"), note)
        XCTAssertNil(try renderer(.none).programCacheStatistics)
    }

    /// Three entries against a bound that holds two: the least recently used goes, and a hit counts as a use.
    func testSizeBoundEvictsTheLeastRecentlyUsed() throws {
        let format = try driverFormat()
        let context = try GLContext(selection: .mesa)
        defer { context.releaseCurrent() }
        let text = "#version 300 es\nprecision highp float;\n#pragma stage vertex\nvoid main() { gl_Position = vec4(0); }\n#pragma stage fragment\nout vec4 c;\nvoid main() { c = vec4(float(K) / 8.0); }"
        func build(_ k: Int, _ cache: ProgramCache) throws {
            let p = try GLProgram.build(text: text, name: "k\(k)", defines: [("K", k)], cache: cache)
            glDeleteProgram(p.id)
        }
        let probe = ProgramCache(directory: directory)
        try build(1, probe)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: directory + "/" + entries[0])[.size] as? Int)
        try FileManager.default.removeItem(atPath: directory)

        // Room for two entries of about this size (the defines change a few bytes), not three.
        let cache = ProgramCache(directory: directory, sizeLimit: size * 5 / 2)
        try build(1, cache)
        let first = entries
        try build(2, cache)
        let second = Set(entries).subtracting(first)
        XCTAssertEqual(entries.count, 2)
        // Make the ages unambiguous whatever the file system's timestamp resolution: 1 older than 2.
        let now = Date()
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-200)], ofItemAtPath: directory + "/" + first[0])
        try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-100)], ofItemAtPath: directory + "/" + second.first!)
        try build(1, cache)  // a hit: 1 becomes the most recently used
        XCTAssertEqual(cache.statistics.hits, 1)
        try build(3, cache)
        XCTAssertEqual(cache.statistics.evicted, 1)
        XCTAssertEqual(entries.count, 2)
        XCTAssertTrue(entries.contains(first[0]), "the entry just used stays")
        XCTAssertFalse(entries.contains(second.first!), "the least recently used goes")
        let total = entries.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: directory + "/" + $1)[.size] as? Int) ?? 0) }
        XCTAssertLessThanOrEqual(total, cache.sizeLimit)
        assertEntriesValid(format: format)
        try context.check("the eviction test's programs")
    }

    /// Writers racing on one directory, as separate processes would (a cache object each, a GL context each):
    /// every entry ends whole and valid, and no temporary file is left.
    func testWritersRacingOnOneDirectoryLeaveOnlyWholeEntries() throws {
        let format = try driverFormat()
        let text = "#version 300 es\nprecision highp float;\n#pragma stage vertex\nvoid main() { gl_Position = vec4(0); }\n#pragma stage fragment\nout vec4 c;\nvoid main() { c = vec4(float(K) / 8.0); }"
        let writers = 4, programs = 6
        let caches = (0 ..< writers).map { _ in ProgramCache(directory: directory) }
        final class Failures: @unchecked Sendable {
            let lock = NSLock()
            var messages: [String] = []
            func add(_ m: String) { lock.lock(); messages.append(m); lock.unlock() }
        }
        let failures = Failures()
        let box = UncheckedSendable(caches)
        let start = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for w in 0 ..< writers {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let context = try GLContext(selection: .mesa)
                    defer { context.releaseCurrent() }
                    start.wait()
                    for k in 1 ... programs {
                        let p = try GLProgram.build(text: text, name: "k\(k)", defines: [("K", k)], cache: box.value[w])
                        glDeleteProgram(p.id)
                    }
                    try context.check("writer \(w)")
                } catch {
                    failures.add("writer \(w): \(error)")
                }
            }.start()
        }
        for _ in 0 ..< writers { start.signal() }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(failures.messages, [])
        let total = caches.reduce(0) { $0 + $1.statistics.hits + $1.statistics.misses }
        XCTAssertEqual(total, writers * programs)
        XCTAssertEqual(caches.reduce(0) { $0 + $1.statistics.rejected }, 0, "no writer saw half an entry")
        XCTAssertEqual(entries.count, programs)
        assertEntriesValid(format: format)
        XCTAssertEqual(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") }, [])
    }

    /// A temporary file a crashed writer left is removed once it is old; a young one (a writer at work) stays.
    func testStaleTemporaryFilesAreRemoved() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let stale = directory + "/.crashed.tmp", young = directory + "/.writing.tmp"
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: stale))
        try Data(repeating: 1, count: 100).write(to: URL(fileURLWithPath: young))
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * ProgramCache.staleTemporaryAge)],
                                              ofItemAtPath: stale)
        ProgramCache(directory: directory).trim()
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale))
        XCTAssertTrue(FileManager.default.fileExists(atPath: young))
    }

    /// The key changes with every part it covers.
    func testKeyCoversDeviceFormatAndSources() {
        let device = ProgramCache.Device(vendor: "Mesa", renderer: "llvmpipe", version: "OpenGL ES 3.2 Mesa 22.3.6", format: 0x875F)
        let base = ProgramCache.key(device: device, vertex: "v", fragment: "f")
        XCTAssertEqual(base.count, 32)
        XCTAssertEqual(base, ProgramCache.key(device: device, vertex: "v", fragment: "f"))
        var other = device
        other.vendor = "Mesa2"
        XCTAssertNotEqual(ProgramCache.key(device: other, vertex: "v", fragment: "f"), base)
        other = device
        other.renderer = "llvmpipe (LLVM 16)"
        XCTAssertNotEqual(ProgramCache.key(device: other, vertex: "v", fragment: "f"), base)
        other = device
        other.version = "OpenGL ES 3.2 Mesa 23.0"
        XCTAssertNotEqual(ProgramCache.key(device: other, vertex: "v", fragment: "f"), base)
        other = device
        other.format = 0x875E
        XCTAssertNotEqual(ProgramCache.key(device: other, vertex: "v", fragment: "f"), base)
        XCTAssertNotEqual(ProgramCache.key(device: device, vertex: "v ", fragment: "f"), base)
        XCTAssertNotEqual(ProgramCache.key(device: device, vertex: "v", fragment: "f\n"), base)
        // Moving text between the stages is another program (each part is length-prefixed).
        XCTAssertNotEqual(ProgramCache.key(device: device, vertex: "vf", fragment: ""), ProgramCache.key(device: device, vertex: "v", fragment: "f"))
    }

    /// The header's checks, each with its reason.
    func testDecodeNamesWhatIsWrong() {
        let key = [UInt8](repeating: 7, count: 32), payload: [UInt8] = [1, 2, 3, 4, 5]
        let entry = ProgramCache.encode(payload, key: key, format: 0x875F)
        XCTAssertEqual(entry.count, ProgramCache.headerSize + payload.count)
        XCTAssertEqual(ProgramCache.decode(entry, key: key, format: 0x875F).payload.map(Array.init), payload)
        func problem(_ bytes: [UInt8], key k: [UInt8] = key, format: GLenum = 0x875F) -> String? {
            ProgramCache.decode(bytes, key: k, format: format).problem
        }
        XCTAssertEqual(problem([]), "0 bytes, shorter than the header")
        XCTAssertEqual(problem(Array(repeating: 0, count: 200)), "not a program cache entry (magic)")
        var b = entry
        b[8] = 9
        XCTAssertEqual(problem(b), "cache format 9, expected \(ProgramCache.formatVersion)")
        XCTAssertEqual(problem(entry, format: 0x1234), "binary format \(0x875F), the driver's is \(0x1234)")
        XCTAssertEqual(problem(entry, key: [UInt8](repeating: 8, count: 32)), "another program's key")
        XCTAssertEqual(problem(entry + [0]), "payload of 6 bytes, the header says 5")
        XCTAssertEqual(problem(Array(entry.dropLast())), "payload of 4 bytes, the header says 5")
        b = entry
        b[b.count - 1] ^= 1
        XCTAssertEqual(problem(b), "payload checksum mismatch")
    }

    func testDefaultLocationFollowsXDG() {
        XCTAssertEqual(ProgramCacheLocation.default.resolved(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]),
                       "/x/cache/gpucanvas/programs")
        XCTAssertEqual(ProgramCacheLocation.default.resolved(environment: ["HOME": "/home/u"]), "/home/u/.cache/gpucanvas/programs")
        // The XDG base directory spec: a relative XDG_CACHE_HOME is invalid and ignored.
        XCTAssertEqual(ProgramCacheLocation.default.resolved(environment: ["XDG_CACHE_HOME": "rel", "HOME": "/home/u"]),
                       "/home/u/.cache/gpucanvas/programs")
        XCTAssertNil(ProgramCacheLocation.default.resolved(environment: [:]))
        XCTAssertNil(ProgramCacheLocation.none.resolved())
        XCTAssertEqual(ProgramCacheLocation.directory("/d").resolved(environment: [:]), "/d")
    }
}
