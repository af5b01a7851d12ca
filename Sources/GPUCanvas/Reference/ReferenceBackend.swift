/// The CPU reference renderer (being written: see issue 3).
final class ReferenceBackend: RenderBackend {
    var name: String { "reference (CPU)" }
    func render(_ recording: Recording, target: RenderTarget) throws -> RasterImage {
        throw RenderError.unsupported("the reference rasterizer is not written yet")
    }
}
