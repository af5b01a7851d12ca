import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `readFileContents`: whole files up to a limit the caller names, checked before reading for a regular
/// file and while reading for a device, with failures in words.
final class FileReadingTests: XCTestCase {
    var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("FileReadingTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    func testAFileUpToTheLimitIsReadWholeAndOneByteMoreIsRefused() throws {
        let file = dir.appendingPathComponent("abc")
        try Data("abc".utf8).write(to: file)
        XCTAssertEqual(try readFileContents(atPath: file.path, limit: 3), Data("abc".utf8))
        XCTAssertThrowsError(try readFileContents(atPath: file.path, limit: 2)) { error in
            XCTAssertEqual(error as? FileReadFailure, .tooLarge(limit: 2))
        }
        let empty = dir.appendingPathComponent("empty")
        try Data().write(to: empty)
        XCTAssertEqual(try readFileContents(atPath: empty.path, limit: 0), Data())
    }

    func testALargerFileIsReadByteForByte() throws {
        // More than the 1 MiB first buffer, and not a multiple of it.
        let bytes = Data((0 ..< 3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        let file = dir.appendingPathComponent("big")
        try bytes.write(to: file)
        XCTAssertEqual(try readFileContents(atPath: file.path, limit: bytes.count), bytes)
    }

    func testADeviceWithoutEndIsCutOffAtTheLimit() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: "/dev/zero"), "no /dev/zero here")
        // Limit 3 MiB + 5: the doubling buffer passes 1, 2, then stops at limit + 1 bytes.
        XCTAssertThrowsError(try readFileContents(atPath: "/dev/zero", limit: 3 << 20 + 5)) { error in
            XCTAssertEqual(error as? FileReadFailure, .tooLarge(limit: 3 << 20 + 5))
        }
        XCTAssertEqual(try readFileContents(atPath: "/dev/null", limit: 10), Data())
    }

    func testMissingPathsDirectoriesAndEmptyPathsAreNamed() {
        XCTAssertThrowsError(try readFileContents(atPath: dir.appendingPathComponent("nope").path, limit: 10)) { error in
            XCTAssertEqual(error as? FileReadFailure, .notFound)
        }
        XCTAssertThrowsError(try readFileContents(atPath: dir.path, limit: 10)) { error in
            XCTAssertEqual(error as? FileReadFailure, .isDirectory)
        }
        XCTAssertThrowsError(try readFileContents(atPath: "", limit: 10)) { error in
            XCTAssertEqual(error as? FileReadFailure, .unreadable("the path is empty"))
        }
        // A path through a regular file: ENOTDIR, in errno's words.
        let file = dir.appendingPathComponent("plain")
        XCTAssertTrue(FileManager.default.createFile(atPath: file.path, contents: Data("x".utf8)))
        XCTAssertThrowsError(try readFileContents(atPath: file.path + "/inside", limit: 10)) { error in
            XCTAssertEqual(error as? FileReadFailure, .unreadable("Not a directory"))
        }
    }
}
