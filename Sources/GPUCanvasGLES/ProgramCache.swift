// The program-binary cache: linked programs kept across processes where the driver offers program binaries
// (GLES 3.0 glGetProgramBinary / glProgramBinary, GL_NUM_PROGRAM_BINARY_FORMATS > 0).
//
// One file per program, named by its key: the SHA-256 of everything that changes the binary (the cache-format
// version, GL_VENDOR, GL_RENDERER, GL_VERSION, the binary format and both stages' full sources after includes
// and defines). A file is written to a temporary name and renamed, so a crash or a second process never leaves
// half an entry under the real name. Nothing read back is trusted: the header (magic, version, format, key,
// length, SHA-256 of the payload) is checked before glProgramBinary, and a failed glProgramBinary (a GL error
// or LINK_STATUS false) is a miss like any other; the program is then built from source and its binary replaces
// the bad file. The directory is held under `sizeLimit` bytes by dropping the least recently used entries
// (modification time, touched on every hit).
//
// Mesa 22.3 llvmpipe offers one format (GL_PROGRAM_BINARY_FORMAT_MESA) only while its own disk shader cache is
// on; with MESA_SHADER_CACHE_DISABLE=true it offers none and this cache stands aside. What each cache saves is
// measured in docs/performance.md ("#31 program cache").

import CCrypto
import CGLES
import Foundation

/// Where a GLES renderer keeps linked program binaries between processes.
///
/// `.default` is `$XDG_CACHE_HOME/gpucanvas/programs`, else `$HOME/.cache/gpucanvas/programs` (no cache when
/// neither is set). A directory that cannot be created or written is not an error: programs are built from
/// source and `CanvasRenderer.programCacheStatistics?.note` says why, once.
public enum ProgramCacheLocation: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Every program is compiled and linked from source.
    case none
    /// The user's cache directory (see the type's description).
    case `default`
    /// This directory, created when missing.
    case directory(String)

    /// The directory this location names, nil for `.none` or a default without XDG_CACHE_HOME and HOME.
    public func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        switch self {
        case .none: return nil
        case .directory(let path): return path
        case .default:
            if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
                return xdg + "/gpucanvas/programs"
            }
            if let home = environment["HOME"], !home.isEmpty { return home + "/.cache/gpucanvas/programs" }
            return nil
        }
    }

    public var description: String {
        switch self {
        case .none: return "none"
        case .default: return "default"
        case .directory(let path): return path
        }
    }
}

/// What a renderer's program cache did: `hits` programs loaded from binaries, `misses` built from source
/// (of which `rejected` because the entry on disk was bad), `written` entries stored, `evicted` entries
/// dropped for the size bound. `note` says once why the cache is not in use, or nil.
public struct ProgramCacheStatistics: Sendable, Equatable, CustomStringConvertible {
    public var directory: String
    public var hits = 0
    public var misses = 0
    public var rejected = 0
    public var written = 0
    public var evicted = 0
    /// Seconds spent loading entries (hits, and entries refused on the way to a miss).
    public var loadSeconds: Double = 0
    /// Seconds spent compiling and linking the misses from source.
    public var buildSeconds: Double = 0
    /// Seconds spent reading back, writing and trimming entries.
    public var storeSeconds: Double = 0
    public var note: String?

    public var description: String {
        "program cache \(directory): \(hits) hits, \(misses) misses (\(rejected) bad entries), \(written) written, \(evicted) evicted"
            + (note.map { "; \($0)" } ?? "")
    }
}

/// The cache of one directory, shared by every renderer of the process that names it (`shared(directory:)`).
package final class ProgramCache: @unchecked Sendable {
    /// The most bytes the directory's entries may hold; beyond it the least recently used go. Mesa 22.3's
    /// binaries of this project's programs are 5–31 KB each, so this holds thousands of variants.
    package static let defaultSizeLimit = 64 << 20
    /// Bumped whenever the file layout or what the key covers changes: older files are then foreign.
    package static let formatVersion: UInt32 = 1
    /// The first 8 bytes of every entry.
    static let magic: [UInt8] = Array("GPUCPRG\u{1}".utf8)
    /// magic, version, format, key (32), payload length (8), payload SHA-256 (32).
    static let headerSize = 8 + 4 + 4 + 32 + 8 + 32
    /// A temporary file older than this is a crashed writer's and is removed when the directory is trimmed.
    static let staleTemporaryAge: TimeInterval = 600

    package let directory: String
    package let sizeLimit: Int
    private let lock = NSLock()
    private var stats: ProgramCacheStatistics
    /// Set once writing failed (an unwritable directory): entries are still read, none written.
    private var writesDisabled = false
    /// The entries' bytes as of this process's last scan plus what it wrote since; nil before the first scan.
    /// Other processes' writes are not in it, so each process scans once, then again only when its own
    /// estimate passes the bound (a scan stats every file: 10 000 entries at the bound).
    private var knownBytes: Int?

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: ProgramCache] = [:]

    /// The process's one cache for `directory` (so that counters and the once-only note are per directory).
    package static func shared(directory: String) -> ProgramCache {
        registryLock.lock()
        defer { registryLock.unlock() }
        if let c = registry[directory] { return c }
        let c = ProgramCache(directory: directory)
        registry[directory] = c
        return c
    }

    /// A cache of its own (tests: a small `sizeLimit`, counters no other renderer touches).
    package init(directory: String, sizeLimit: Int = ProgramCache.defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
        stats = ProgramCacheStatistics(directory: directory)
    }

    package var statistics: ProgramCacheStatistics {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    private func count(_ update: (inout ProgramCacheStatistics) -> Void) {
        lock.lock()
        update(&stats)
        lock.unlock()
    }

    /// Records why the cache is not used, the first reason only.
    private func setNote(_ text: String) {
        count { if $0.note == nil { $0.note = text } }
    }

    // MARK: Keys

    /// What a key says of the driver: its strings and the binary format its entries are in.
    struct Device {
        var vendor: String
        var renderer: String
        var version: String
        var format: GLenum
    }

    /// The driver's identity and first binary format on the current context; nil (with the note set) when it
    /// offers no program binary format.
    func currentDevice() -> Device? {
        var n: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_PROGRAM_BINARY_FORMATS), &n)
        guard n > 0 else {
            setNote("the driver offers no program binary format (Mesa offers one only while its own shader cache is on), so programs are built from source")
            return nil
        }
        var formats = [GLint](repeating: 0, count: Int(n))
        glGetIntegerv(GLenum(GL_PROGRAM_BINARY_FORMATS), &formats)
        return Device(vendor: GLContext.string(GL_VENDOR), renderer: GLContext.string(GL_RENDERER),
                      version: GLContext.string(GL_VERSION),
                      format: GLenum(bitPattern: formats[0]))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { b in _ = SHA256(b.baseAddress, b.count, &digest) }
        return digest
    }

    /// The SHA-256 of everything that changes the binary; each part is length-prefixed so no two different
    /// inputs share a byte string.
    static func key(device: Device, vertex: String, fragment: String) -> [UInt8] {
        var bytes: [UInt8] = []
        func append(_ part: [UInt8]) {
            withUnsafeBytes(of: UInt64(part.count).littleEndian) { bytes += $0 }
            bytes += part
        }
        append(Array("gpucanvas program cache \(formatVersion)".utf8))
        append(Array(device.vendor.utf8))
        append(Array(device.renderer.utf8))
        append(Array(device.version.utf8))
        append(Array(String(device.format).utf8))
        append(Array(vertex.utf8))
        append(Array(fragment.utf8))
        return sha256(bytes)
    }

    package func path(forKey key: [UInt8]) -> String {
        directory + "/" + key.map { String(format: "%02x", $0) }.joined() + ".bin"
    }

    // MARK: Entries

    /// The payload of a well-formed entry for `key` and `format`, or nil with the reason.
    static func decode(_ data: [UInt8], key: [UInt8], format: GLenum) -> (payload: ArraySlice<UInt8>?, problem: String?) {
        guard data.count >= headerSize else { return (nil, "\(data.count) bytes, shorter than the header") }
        var at = 0
        func take(_ n: Int) -> ArraySlice<UInt8> { defer { at += n }; return data[at ..< at + n] }
        func uint(_ slice: ArraySlice<UInt8>) -> UInt64 {
            slice.reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard Array(take(8)) == magic else { return (nil, "not a program cache entry (magic)") }
        let version = uint(take(4))
        guard version == UInt64(formatVersion) else { return (nil, "cache format \(version), expected \(formatVersion)") }
        let fileFormat = uint(take(4))
        guard fileFormat == UInt64(format) else { return (nil, "binary format \(fileFormat), the driver's is \(format)") }
        guard Array(take(32)) == key else { return (nil, "another program's key") }
        let length = uint(take(8))
        let checksum = Array(take(32))
        guard length == UInt64(data.count - headerSize) else {
            return (nil, "payload of \(data.count - headerSize) bytes, the header says \(length)")
        }
        let payload = data[headerSize...]
        guard sha256(Array(payload)) == checksum else { return (nil, "payload checksum mismatch") }
        return (payload, nil)
    }

    static func encode(_ payload: [UInt8], key: [UInt8], format: GLenum) -> [UInt8] {
        var out = magic
        withUnsafeBytes(of: formatVersion.littleEndian) { out += $0 }
        withUnsafeBytes(of: UInt32(format).littleEndian) { out += $0 }
        out += key
        withUnsafeBytes(of: UInt64(payload.count).littleEndian) { out += $0 }
        out += sha256(payload)
        out += payload
        return out
    }

    /// Loads the entry for `key` into a new program, or returns nil (a miss: no file, a bad one, or one the
    /// driver refused). The caller builds from source then and calls `store`.
    func load(key: [UInt8], format: GLenum) -> GLuint? {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { let t = Self.seconds(since: start); count { $0.loadSeconds += t } }
        let path = path(forKey: key)
        let data: [UInt8]
        switch Self.readEntry(path, limit: max(sizeLimit, Self.headerSize)) {
        case .missing: return nil
        case .unusable:
            count { $0.rejected += 1 }
            return nil
        case .bytes(let bytes): data = bytes
        }
        let (payload, _) = Self.decode(data, key: key, format: format)
        guard let payload else {
            count { $0.rejected += 1 }
            return nil
        }
        let program = glCreateProgram()
        guard program != 0 else { return nil }
        payload.withUnsafeBytes { p in
            glProgramBinary(program, format, p.baseAddress, GLsizei(p.count))
        }
        var status: GLint = 0
        glGetProgramiv(program, GLenum(GL_LINK_STATUS), &status)
        guard glGetError() == GL_NO_ERROR, status == GL_TRUE else {
            glDeleteProgram(program)
            count { $0.rejected += 1 }
            return nil
        }
        // A hit is a use: the entry moves to the young end of the eviction order.
        _ = utimes(path, nil)
        count { $0.hits += 1 }
        return program
    }

    enum Read { case missing, unusable, bytes([UInt8]) }

    /// The bytes of the regular file at `path` if it holds at most `limit` of them. Opened without blocking and
    /// checked with fstat, so a FIFO, a device or a directory in an entry's place is refused, never waited on.
    static func readEntry(_ path: String, limit: Int) -> Read {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return errno == ENOENT ? .missing : .unusable }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else { return .unusable }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return .unusable }  // an error, or the file shrank under us
            filled += n
        }
        return .bytes(bytes)
    }

    func countMiss(buildSeconds: Double) {
        count {
            $0.misses += 1
            $0.buildSeconds += buildSeconds
        }
    }

    static func seconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }

    /// Stores `program`'s binary under `key` (temporary file, then rename), then trims the directory.
    func store(program: GLuint, key: [UInt8], format: GLenum) {
        let start = DispatchTime.now().uptimeNanoseconds
        defer { let t = Self.seconds(since: start); count { $0.storeSeconds += t } }
        lock.lock()
        let disabled = writesDisabled
        lock.unlock()
        guard !disabled else { return }
        var length: GLint = 0
        glGetProgramiv(program, GLenum(GL_PROGRAM_BINARY_LENGTH), &length)
        guard length > 0 else { return }
        var payload = [UInt8](repeating: 0, count: Int(length))
        var written: GLsizei = 0
        var actualFormat: GLenum = 0
        glGetProgramBinary(program, GLsizei(length), &written, &actualFormat, &payload)
        guard glGetError() == GL_NO_ERROR, written > 0, actualFormat == format else { return }
        payload.removeLast(payload.count - Int(written))
        let bytes = Self.encode(payload, key: key, format: format)
        let path = path(forKey: key)
        let temporary = "\(directory)/.\(UUID().uuidString).tmp"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try Self.writeNew(temporary, bytes)
            // rename() replaces a file; a directory squatting on the name has to go first.
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                try FileManager.default.removeItem(atPath: path)
            }
            guard rename(temporary, path) == 0 else { throw Self.posixError() }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            lock.lock()
            writesDisabled = true
            lock.unlock()
            setNote("cannot write to \(directory) (\(Self.reason(error))), so programs are built from source")
            return
        }
        count { $0.written += 1 }
        lock.lock()
        let known = knownBytes.map { $0 + bytes.count }
        knownBytes = known
        lock.unlock()
        if known.map({ $0 > sizeLimit }) ?? true { trim() }
    }

    /// errno as a write error `reason` reads.
    static func posixError() -> Error {
        NSError(domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
    }

    /// Writes `bytes` to a new file at `path` (plain POSIX calls: Foundation's Data.write took 0.5–7 ms an
    /// entry here, most of a store).
    static func writeNew(_ path: String, _ bytes: [UInt8]) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw posixError() }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let error = posixError()
                close(fd)
                throw error
            }
            done += n
        }
        guard close(fd) == 0 else { throw posixError() }
    }

    private static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }

    /// Once over `sizeLimit` bytes, drops the least recently used entries (oldest modification time first)
    /// until the directory's entries hold at most 7/8 of it, so that a full cache is not scanned again on the
    /// next store; and temporary files a crashed writer left.
    func trim() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: directory) else { return }
        var entries: [(path: String, size: Int, date: Date)] = []
        let now = Date()
        for name in names {
            let path = directory + "/" + name
            guard let attributes = try? fm.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let date = attributes[.modificationDate] as? Date ?? .distantPast
            if name.hasPrefix("."), name.hasSuffix(".tmp") {
                if now.timeIntervalSince(date) > Self.staleTemporaryAge { try? fm.removeItem(atPath: path) }
                continue
            }
            guard name.hasSuffix(".bin"), name.count == 68 else { continue }
            entries.append((path, (attributes[.size] as? NSNumber)?.intValue ?? 0, date))
        }
        var total = entries.reduce(0) { $0 + $1.size }
        defer {
            lock.lock()
            knownBytes = total
            lock.unlock()
        }
        guard total > sizeLimit else { return }
        let target = sizeLimit - sizeLimit / 8
        for e in entries.sorted(by: { $0.date < $1.date }) where total > target {
            if (try? fm.removeItem(atPath: e.path)) != nil {
                total -= e.size
                count { $0.evicted += 1 }
            }
        }
    }
}
