// The images that need the layers above the recording: named images (the asset catalog) and images drawn
// by a renderer closure (rendered by the CPU reference).

import Foundation

extension Image {
    /// A named image: an image set of the app's asset catalog (`AssetCatalog.use`), else a PNG or JPEG file
    /// `name` (with or without its extension) in `bundle`'s resources or the current directory. An unknown name
    /// draws nothing and is reported (`RenderDiagnostic.Kind.unknownAsset`), as SwiftUI draws nothing.
    public init(_ name: String, bundle: Bundle? = nil) {
        if let asset = AssetCatalog.image(named: name) {
            self.init(contentsOf: asset.url, scale: asset.scale)
            return
        }
        let candidates = [name, name + ".png", name + ".jpg", name + ".jpeg"]
        var found: URL?
        for c in candidates {
            if let b = bundle, let url = b.url(forResource: c, withExtension: nil) { found = url; break }
            let local = URL(fileURLWithPath: c)
            if FileManager.default.fileExists(atPath: local.path) { found = local; break }
        }
        if let found {
            self.init(contentsOf: found)
        } else {
            self.init(content: ImageContent(.failure(UnknownAssetError(name: name)), source: name), scale: 1)
        }
    }

    /// An image drawn by a renderer closure (iOS 16): `size` in points, rasterized at one pixel per point.
    /// `label` names the image in messages (SwiftUI's accessibility label).
    public init(size: CGSize, label: Text? = nil, opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear,
                renderer: @escaping (inout GraphicsContext) -> Void) {
        let recording = Recording(size: size, colorMode: colorMode, isOpaque: opaque) { ctx, _ in renderer(&ctx) }
        let result = Result { try CanvasRenderer(backend: .reference).render(recording, scale: 1) }
            .mapError { $0 as any Error }
        self.init(content: ImageContent(result, source: label.map { "image \"\($0.string)\"" }), scale: 1)
    }
}
