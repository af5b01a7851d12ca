// Writing image files for the tool: the format comes from the name's extension (.png, .jpg, .jpeg) or
// --format, and a name the tool cannot honour is refused before anything renders, never written as PNG
// bytes under another name. Files go through `RasterImage.writePNG` / `writeJPEG` (libpng, libjpeg, then
// GPUCanvas's `writeFileContents`: atomic for regular files, in place for devices and FIFOs, symbolic links
// followed), with errors that name the file once.
import ArgumentParser
import GPUCanvas

/// The image files the tool writes.
enum ImageFileFormat: String, CaseIterable {
    case png, jpeg

    /// The extensions that choose each format.
    static let extensions: [String: ImageFileFormat] = ["png": .png, "jpg": .jpeg, "jpeg": .jpeg]

    /// ".png, .jpg or .jpeg", for messages.
    static let extensionList = ".png, .jpg or .jpeg"
}

/// How one image file is written: the format (nil: from the name), JPEG quality, PNG compression.
/// A plain value, so commands without the options (`bench --save-last`) write through the same code.
struct ImageWriteSettings {
    var format: ImageFileFormat?
    var quality: Int?
    var compression: PNGCompression?

    /// The format `path` is written in: its extension's, or `format`'s. Throws naming the extension and the
    /// ones the tool writes when the two disagree or neither says.
    /// True for an existing character device or FIFO (`/dev/null`, a named pipe).
    static func isDeviceOrPipe(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        let kind = st.st_mode & S_IFMT
        return kind == S_IFCHR || kind == S_IFIFO
    }

    func format(for path: String) throws -> ImageFileFormat {
        let ext = URL(fileURLWithPath: path).pathExtension.lowercased()
        switch (ImageFileFormat.extensions[ext], format) {
        case (let f?, nil): return f
        case (let f?, let a?) where f == a: return f
        case (let f?, let a?):
            throw CLIError("cannot write \(path): its name says \(f.rawValue.uppercased()) but --format says \(a.rawValue)")
        case (nil, let a?) where ext.isEmpty: return a
        // A device or a pipe (`/dev/null`, a FIFO) has no file name to mislead anyone: PNG, unless --format says.
        case (nil, nil) where ext.isEmpty && Self.isDeviceOrPipe(path): return .png
        case (nil, _) where ext.isEmpty:
            throw CLIError("cannot write \(path): the name has no extension; use \(ImageFileFormat.extensionList), or --format png|jpeg")
        case (nil, _):
            throw CLIError("cannot write \(path): canvas-gl does not write .\(ext) files; it writes \(ImageFileFormat.extensionList)")
        }
    }

    /// Checks `path` before a render: a format the tool writes, and no option that would be ignored
    /// (--quality for a PNG, --png-compression for a JPEG).
    func check(_ path: String) throws {
        let f = try format(for: path)
        if f == .png, quality != nil { throw CLIError("--quality is for JPEG output; \(path) is a PNG (use --png-compression)") }
        if f == .jpeg, compression != nil { throw CLIError("--png-compression is for PNG output; \(path) is a JPEG (use --quality)") }
    }
}

/// `--format`, `--quality` and `--png-compression`: how the commands that write one image file write it.
///
/// `-o out.jpg --quality 80` → a JPEG at quality 80; `-o /dev/stdout --format png` → a PNG on stdout.
struct ImageOutputOptions: ParsableArguments {
    @Option(name: .long, help: "png or jpeg: the output's format when its name does not say (a FIFO or device without an extension); otherwise it must agree with the extension.")
    var format: String?

    @Option(name: .long, help: "JPEG quality, 1…100 (default: 90).")
    var quality: Int?

    @Option(name: .customLong("png-compression"), help: "PNG: fastest, default or smallest (zlib level and row filters; see docs/performance.md).")
    var pngCompression: String?

    func validate() throws {
        _ = try settings()
    }

    func settings() throws -> ImageWriteSettings {
        var s = ImageWriteSettings()
        if let format {
            guard let f = ImageFileFormat(rawValue: format) else { throw ValidationError("--format must be png or jpeg, not \"\(format)\"") }
            s.format = f
        }
        if let quality {
            guard (1 ... 100).contains(quality) else { throw ValidationError("--quality must be 1…100, not \(quality)") }
            s.quality = quality
        }
        if let pngCompression {
            guard let c = parsePNGCompression(pngCompression) else {
                throw ValidationError("--png-compression must be fastest, default or smallest, not \"\(pngCompression)\"")
            }
            s.compression = c
        }
        return s
    }
}

/// "fastest", "default", "smallest"; the former names "fast" and "compact" too.
func parsePNGCompression(_ text: String) -> PNGCompression? {
    switch text {
    case "fast": return .fastest
    case "compact": return .smallest
    default: return PNGCompression(rawValue: text)
    }
}

/// Writes `image` in the format `settings` choose for `path`; errors name `path` as the user gave it.
func saveImage(_ image: RasterImage, to path: String, settings: ImageWriteSettings = ImageWriteSettings()) throws {
    let url = URL(fileURLWithPath: path)
    let format = try settings.format(for: path)
    do {
        switch format {
        case .png: try image.writePNG(to: url, compression: settings.compression ?? .default)
        case .jpeg: try image.writeJPEG(to: url, quality: settings.quality ?? RasterImage.defaultJPEGQuality)
        }
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
    // Something already there (a file, /dev/stdout, a FIFO) is written as it is; its folder exists.
    if FileManager.default.fileExists(atPath: path) { return }
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
