/// Why a frame could not be rendered. Every case names the problem in words a user can act on.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// The canvas size or scale is unusable: zero, negative, not finite, or beyond the pixel limit.
    case invalidSize(String)
    /// A draw cannot be drawn as recorded: non-finite coordinates, transforms, opacity, paints or gradient
    /// numbers, too many gradient stops, an image placement that is not finite.
    case invalidGeometry(String)
    /// The recording uses something this backend does not draw yet.
    case unsupported(String)
    /// An image a draw uses could not be read: the draw, the file and why.
    case invalidImage(String)
    /// A font a text draw names could not be read: the draw, the file and why.
    case invalidFont(String)
    /// A render or a scene would take more memory than its `RenderLimits` allow: what, how much, the limit.
    case overMemoryLimit(String)
    /// The GPU path failed: EGL or GL said no, with the driver's words.
    case gpu(String)
    /// `Color("name")` or `Image("name")` names nothing in the asset catalog (or there is none).
    case missingAsset(String)

    public var description: String {
        switch self {
        case .invalidSize(let s): return "invalid canvas size: \(s)"
        case .invalidGeometry(let s): return "invalid geometry: \(s)"
        case .unsupported(let s): return "not supported yet: \(s)"
        case .invalidImage(let s): return "invalid image: \(s)"
        case .invalidFont(let s): return "invalid font: \(s)"
        case .overMemoryLimit(let s): return "over the memory limit: \(s)"
        case .gpu(let s): return "GPU error: \(s)"
        case .missingAsset(let s): return "missing asset: \(s)"
        }
    }
}

/// The largest pixel width or height a frame may have (the scene format's limit, and at least what every
/// GLES 3 device this project targets can allocate).
public let maxPixelDimension = 16384

/// The pixel size of a canvas of `size` points at `scale`: each side rounded up, validated.
///
/// `pixelSize(for: CGSize(width: 300, height: 200), scale: 2)` → (600, 400).
package func pixelSize(for size: CGSize, scale: CGFloat) throws -> (width: Int, height: Int) {
    guard scale.isFinite, scale > 0 else { throw RenderError.invalidSize("scale \(scale) must be a finite number > 0") }
    guard size.width.isFinite, size.height.isFinite, size.width > 0, size.height > 0 else {
        throw RenderError.invalidSize("size \(size.width)×\(size.height) points must be finite and > 0")
    }
    let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
    guard w <= CGFloat(maxPixelDimension), h <= CGFloat(maxPixelDimension) else {
        // Printed as numbers, not Ints: a scale of 1e20 gives sizes no Int can hold.
        func count(_ v: CGFloat) -> String { v < 1e15 ? String(Int(v)) : "\(Double(v))" }
        throw RenderError.invalidSize("\(count(w))×\(count(h)) pixels exceeds the limit of \(maxPixelDimension) per side")
    }
    return (Int(w), Int(h))
}
