// The memory a render or a scene load may spend on decoded images.
//
// A PNG or JPEG header says how many pixels the image holds, and a small file can claim many: 1 MB of zlib
// zeros in a PNG's IDAT decodes to 16 000 × 16 000 RGBA, 1 GB of pixels, and took 3.1 GB resident and 5 s to
// draw once at 20 × 20. The decoders read the header, compare width × height × 4 with the budget and refuse
// before a pixel is allocated; the scene loader charges each distinct image it decodes against one budget for
// the whole scene; the lowering checks the images one frame draws against the renderer's.

/// Budgets for what untrusted input can make a render allocate.
///
/// ```swift
/// let renderer = try CanvasRenderer()
/// renderer.limits = RenderLimits(imageBytes: 64 << 20)      // 64 MiB of decoded images per frame
/// let scene = try Scene.load(contentsOf: url, options: SceneLoadOptions(limits: renderer.limits))
/// ```
public struct RenderLimits: Sendable, Equatable {
    /// Decoded image bytes (width × height × 4 for each image, RGBA8): per image for a decoder, for all the
    /// distinct images of a scene file together, and for all the distinct images one frame draws.
    public var imageBytes: Int

    /// 512 MiB. A server renders several requests at once, so one render must not take most of a machine: this
    /// admits any one image up to 11 585² (or 16 384 × 8 192) pixels, or eight 4096² photos, while refusing
    /// the 16 000² decompression bomb above (977 MiB) before it is decoded. The GLES backend uploads each image
    /// once more as a texture, so GPU memory is bounded alike.
    public static let defaultImageBytes = 512 << 20

    public init(imageBytes: Int = RenderLimits.defaultImageBytes) {
        self.imageBytes = max(0, imageBytes)
    }
}

/// `bytes` as a short size for messages: 1_024_000_000 → "976.6 MiB", 536_870_912 → "512 MiB".
package func memorySize(_ bytes: Int) -> String {
    let mib = Double(bytes) / 1_048_576
    if mib >= 1 {
        let rounded = (mib * 10).rounded() / 10
        return rounded == rounded.rounded() ? "\(Int(rounded)) MiB" : "\(rounded) MiB"
    }
    return "\(bytes) bytes"
}

/// Throws `ImageError.overMemoryLimit` when a `width × height` RGBA8 image needs more than `limit` bytes.
package func checkImageBudget(width: Int, height: Int, limit: Int, path: String?) throws {
    let bytes = width.multipliedReportingOverflow(by: height).partialValue * 4
    if bytes > limit { throw ImageError.overMemoryLimit(width: width, height: height, limit: limit, path: path) }
}
