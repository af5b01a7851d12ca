// Writing PNG files for the tool: every command writes through `savePNG`, which goes to
// `RasterImage.writePNG(to:)` (libpng, then GPUCanvas's `writeFileContents`: atomic for regular files,
// in place for devices and FIFOs, symbolic links followed), with errors that name the file once.
import GPUCanvas

/// Writes `image` as an 8-bit RGBA PNG with straight alpha; errors name `path` as the user gave it.
func savePNG(_ image: RasterImage, to path: String) throws {
    do {
        try image.writePNG(to: URL(fileURLWithPath: path))
    } catch ImageError.fileUnwritable(_, let reason) {
        throw CLIError("cannot write \(path): \(reason)")
    } catch {
        throw CLIError("cannot write \(path): \(error)")
    }
}

/// Fails before any rendering when `path` is a directory or its folder does not exist, so a long render is
/// not wasted.
func checkWritable(_ path: String) throws {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
        throw CLIError("cannot write \(path): it is a directory")
    }
    // `URL(fileURLWithPath:)` drops the slash, so "out/" would otherwise become a file named "out".
    if path.hasSuffix("/") { throw CLIError("cannot write \(path): a name ending in / names a directory") }
    let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
        throw CLIError("cannot write \(path): the folder \(dir) does not exist")
    }
}

/// Why a Foundation file operation failed, as text: the POSIX reason under a Cocoa error
/// ("Not a directory") rather than "The operation could not be completed (NSCocoaErrorDomain error 512.)".
func readableReason(_ error: Error) -> String {
    let ns = error as NSError
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    switch CocoaError.Code(rawValue: ns.code) {
    case .fileWriteFileExists: return "a file is in the way"
    case .fileWriteNoPermission: return "Permission denied"
    case .fileWriteOutOfSpace: return "No space left on device"
    case .fileNoSuchFile: return "No such file or directory"
    default: return ns.localizedDescription
    }
}
