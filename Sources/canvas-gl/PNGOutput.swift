// Writing PNG files for the tool: `RasterImage.writePNG(to:)` (libpng), with errors that name the file.
import GPUCanvas

/// Writes `image` as an 8-bit RGBA PNG with straight alpha; errors name the file.
func savePNG(_ image: RasterImage, to path: String) throws {
    do {
        try image.writePNG(to: URL(fileURLWithPath: path))
    } catch {
        throw CLIError("cannot write \(path): \(error)")
    }
}

/// Fails before any rendering when `path`'s folder does not exist, so a long render is not wasted.
func checkWritable(_ path: String) throws {
    let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
        throw CLIError("cannot write \(path): the folder \(dir) does not exist")
    }
}
