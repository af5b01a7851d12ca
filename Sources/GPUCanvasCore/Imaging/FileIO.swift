// Reading and writing whole files the way a command-line tool should, in plain POSIX, so that every failure
// has an errno, reported as text ("No space left on device", "Permission denied").
//
// Writing: atomically where the path is (or will be) a regular file, in place where it is a device or a
// FIFO, and never replacing what is not a regular file. `Data.write(to:options: .atomic)` always writes a
// temporary file and renames it over the path. Over /dev/full that "succeeds" and turns the device node into
// a regular file (as root, /dev/null too); over a FIFO it replaces the FIFO; over a symbolic link it
// replaces the link and never writes its target. Its errors are Foundation codes ("NSCocoaErrorDomain error
// 512").
//
// Reading: `Data(contentsOf:)` reads a device such as /dev/zero without end (until memory runs out, when
// it reports "You don't have permission"), and says "NSCocoaErrorDomain error 256" for a directory. Here a
// read stops at a limit the caller names, and a directory is said to be one.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `data` to the file at `path`; a failure throws `ImageError.fileUnwritable(path:reason:)` with a
/// reason a person can read ("No space left on device", "it is a directory").
///
/// - Nothing there, or a regular file: the bytes go to a temporary file beside it, which is then renamed
///   over `path`, so a failed write never leaves a partial file. A new file gets mode 0666 less the umask;
///   a replaced file keeps its permission bits (not its owner, nor its hard links: it is a new inode).
/// - A symbolic link: followed, hop by hop (a relative target is relative to the link's folder), and the
///   path it resolves to is written by these same rules; the link stays a link. A dangling link creates
///   its target.
/// - A directory: an error.
/// - Anything else (a character device such as /dev/null or /dev/full, a FIFO, a socket): opened for
///   writing and written in place, never renamed over; every write error is reported. Opening a FIFO waits
///   for a reader, as a shell's `>` does.
package func writeFileContents(_ data: Data, toPath path: String) throws {
    func fail(_ reason: String) -> ImageError { .fileUnwritable(path: path, reason: reason) }
    func failErrno(_ code: Int32) -> ImageError { fail(readableReason(errno: code)) }

    guard !path.isEmpty else { throw fail("the path is empty") }

    // Follow symbolic links ourselves: `realpath` fails on a dangling link, whose target we should create.
    var target = path
    var info = stat()
    var exists = false
    var hops = 0
    while true {
        if lstat(target, &info) != 0 {
            let code = errno
            guard code == ENOENT else { throw failErrno(code) }
            break
        }
        guard info.st_mode & S_IFMT == S_IFLNK else { exists = true; break }
        hops += 1
        guard hops <= 40 else { throw failErrno(ELOOP) }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = readlink(target, &buffer, buffer.count - 1)
        guard n >= 0 else { throw failErrno(errno) }
        let link = String(decoding: buffer[0 ..< n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        target = link.hasPrefix("/") ? link : folder(of: target) + "/" + link
    }

    if exists {
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            break
        case S_IFDIR:
            throw failErrno(EISDIR)
        default:
            try writeInPlace(data, to: target, fail: failErrno)
            return
        }
    } else if target.hasSuffix("/") {
        throw fail("a name ending in / names a directory, and \(target) does not exist")
    }
    try writeAtomically(data, to: target, keepingMode: exists ? info.st_mode & 0o7777 : nil, fail: fail)
}

/// The folder holding `path` (`.` for a bare name), without a trailing slash except for `/` itself.
private func folder(of path: String) -> String {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    let dir = trimmed[..<slash]
    return dir.isEmpty ? "/" : String(dir)
}

/// Opens an existing non-regular file (a device, a FIFO) and writes all of `data` into it.
private func writeInPlace(_ data: Data, to target: String, fail: (Int32) -> ImageError) throws {
    let fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { throw fail(errno) }
    if let code = writeAll(data, to: fd) {
        close(fd)
        throw fail(code)
    }
    guard close(fd) == 0 else { throw fail(errno) }
}

/// Writes `data` to a new temporary file in `target`'s folder and renames it over `target`.
private func writeAtomically(_ data: Data, to target: String, keepingMode mode: mode_t?,
                             fail: (String) -> ImageError) throws {
    let dir = folder(of: target)
    let name = target.split(separator: "/").last.map(String.init) ?? target
    var fd: Int32 = -1
    var temporary = ""
    for _ in 0 ..< 100 {
        temporary = (dir == "/" ? "" : dir) + "/." + name + ".tmp-" + String(UInt32.random(in: .min ... .max), radix: 16)
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)   // 0666 less the umask
        if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else {
        let code = errno
        if code == ENOENT { throw fail("the folder \(dir) does not exist") }
        throw fail(readableReason(errno: code))
    }
    var failure: Int32? = writeAll(data, to: fd)
    if failure == nil, let mode, fchmod(fd, mode) != 0 { failure = errno }
    if close(fd) != 0, failure == nil { failure = errno }
    if failure == nil, rename(temporary, target) != 0 { failure = errno }
    if let failure {
        unlink(temporary)
        throw fail(readableReason(errno: failure))
    }
}

/// Writes every byte, retrying short writes and EINTR; returns the errno of a failure.
private func writeAll(_ data: Data, to fd: Int32) -> Int32? {
    data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int32? in
        guard let base = bytes.baseAddress else { return nil }
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, base + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if n == 0 { return EIO }
            offset += n
        }
        return nil
    }
}

/// `strerror`'s text for `code` ("No space left on device"), with a plainer word for a directory.
package func readableReason(errno code: Int32) -> String {
    if code == EISDIR { return "it is a directory" }
    return String(cString: strerror(code))
}

/// Why `openForReading` or `readFileContents` failed; callers put it in their own error's words.
package enum FileReadFailure: Error, Equatable {
    /// Nothing is at the path (ENOENT).
    case notFound
    case isDirectory
    /// More bytes than the caller's limit.
    case tooLarge(limit: Int)
    /// Any other failure, as `readableReason(errno:)` text: "Permission denied".
    case unreadable(String)

    /// The failure in words, to follow "cannot read FILE: ": "no such file", "it is a directory",
    /// "the file is larger than the limit of 64 bytes", "Permission denied".
    package var reason: String {
        switch self {
        case .notFound: "no such file"
        case .isDirectory: readableReason(errno: EISDIR)
        case .tooLarge(let limit): "the file is larger than the limit of \(limit) bytes"
        case .unreadable(let reason): reason
        }
    }
}

/// Opens `path` for reading and returns the descriptor (the caller closes it) with what `fstat` says of
/// it (zeroed where fstat failed). A directory is refused here rather than at the first read, and a FIFO
/// waits for a writer, as a shell's `<` does.
package func openForReading(_ path: String) throws(FileReadFailure) -> (fd: Int32, info: stat) {
    guard !path.isEmpty else { throw .unreadable("the path is empty") }
    let fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else {
        let code = errno
        throw code == ENOENT ? .notFound : code == EISDIR ? .isDirectory : .unreadable(readableReason(errno: code))
    }
    var info = stat()
    if fstat(fd, &info) != 0 { info = stat() }
    if info.st_mode & S_IFMT == S_IFDIR {
        close(fd)
        throw .isDirectory
    }
    return (fd, info)
}

/// The whole file at `path`, or `.tooLarge` as soon as it holds more than `limit` bytes: a regular file by
/// its size before any read, a device or a FIFO (no size to check) after `limit + 1` bytes, so /dev/zero
/// costs `limit` bytes of memory, not all of it.
///
/// A 3-byte file "abc" with limit 3 reads as "abc"; with limit 2 it throws `.tooLarge(limit: 2)`.
package func readFileContents(atPath path: String, limit: Int) throws(FileReadFailure) -> Data {
    let (fd, info) = try openForReading(path)
    defer { close(fd) }
    var expected = 0
    if info.st_mode & S_IFMT == S_IFREG {
        guard Int64(info.st_size) <= Int64(limit) else { throw .tooLarge(limit: limit) }
        expected = Int(info.st_size)
    }
    // A regular file is read into a buffer of its size plus the byte that shows it did not grow meanwhile;
    // anything else into a buffer that doubles from 1 MiB up to `limit + 1` bytes.
    var data = Data(count: expected > 0 ? expected + 1 : min(1 << 20, limit + 1))
    var used = 0
    while true {
        if used == data.count { data.count = min(data.count * 2, limit + 1) }
        let n = data.withUnsafeMutableBytes { read(fd, $0.baseAddress! + used, $0.count - used) }
        if n < 0 {
            let code = errno
            if code == EINTR { continue }
            throw .unreadable(readableReason(errno: code))
        }
        if n == 0 {
            data.count = used
            return data
        }
        used += n
        guard used <= limit else { throw .tooLarge(limit: limit) }
    }
}
