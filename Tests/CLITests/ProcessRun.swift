import Foundation

/// A finished child process: its exit status, what it wrote, and whether a signal ended it.
struct ProcessRun {
    var status: Int32
    var stdout: Data
    var stderr: String
    var crashed: Bool
    var text: String { String(decoding: stdout, as: UTF8.self) }

    /// Runs `executable` with stdout and stderr going to files in `dir` (not pipes: a chatty child cannot block
    /// on a full pipe while we wait for it; stderr is then not a terminal, so progress comes as lines).
    /// `stdin`: a file to read from; `interruptAfter`: SIGINT that many seconds after the start.
    static func run(_ executable: URL, _ arguments: [String], in dir: URL, environment: [String: String]? = nil,
                    stdin: URL? = nil, interruptAfter: Double? = nil) throws -> ProcessRun {
        let p = Process()
        p.executableURL = executable
        p.arguments = arguments
        if let environment { p.environment = environment }
        let out = dir.appendingPathComponent(".stdout-\(UUID())"), err = dir.appendingPathComponent(".stderr-\(UUID())")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: out); try? FileManager.default.removeItem(at: err) }
        p.standardOutput = try FileHandle(forWritingTo: out)
        p.standardError = try FileHandle(forWritingTo: err)
        if let stdin { p.standardInput = try FileHandle(forReadingFrom: stdin) }
        try p.run()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: interruptAfter)
            p.interrupt()
        }
        p.waitUntilExit()
        return ProcessRun(status: p.terminationStatus, stdout: try Data(contentsOf: out),
                          stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self),
                          crashed: p.terminationReason == .uncaughtSignal)
    }
}
