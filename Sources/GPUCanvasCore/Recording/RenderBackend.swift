// What every backend implements, and the pixel grid it renders a recording into.

/// The pixel grid a frame is rendered into.
package struct RenderTarget: Equatable {
    package var width: Int
    package var height: Int
    /// Pixels per point.
    package var scale: Double
    /// Canvas points → device pixels.
    package var deviceTransform: CGAffineTransform { CGAffineTransform(scaleX: scale, y: scale) }
    /// The target's pixels as a device-space rectangle.
    package var bounds: CGRect { CGRect(x: 0, y: 0, width: width, height: height) }

    package init(
        width: Int,
        height: Int,
        scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
    }
}

/// What a backend implements.
package protocol RenderBackend: AnyObject {
    var name: String { get }
    var glyphCacheStatistics: GlyphCacheStatistics { get }
    func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage
    /// As `render(_:target:)`, into `image`'s pixel memory where the backend can reuse it.
    func render(_ recording: Recording, target: RenderTarget, into image: inout RasterImage) throws
}

extension RenderBackend {
    package func render(_ recording: Recording, target: RenderTarget, into image: inout RasterImage) throws {
        image = try render(recording, target: target)
    }
}
