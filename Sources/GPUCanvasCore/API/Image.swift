// SwiftUI's `Image` as a canvas draws it, and `GraphicsContext.ResolvedImage`.
//
// Linux has no asset catalogue, UIImage or CGImage, so an image comes from a file (PNG or JPEG), from encoded
// `Data`, from premultiplied pixels (`RasterImage`), or from a `GraphicsContext` renderer closure
// (`Image(size:label:opaque:colorMode:renderer:)`). SwiftUI's `Image` initializers cannot throw, so neither do
// these: an unreadable or corrupt file is kept as its error and the frame that draws it fails with an error that
// names the file (`invalid image: draw #3: /d/logo.png: …`), on both backends.
//
// Decisions (docs/api-status.md): one image pixel is one point at `draw(_:at:)` (times 1/`scale`); images are
// sampled bilinearly on premultiplied pixels at each device pixel centre (`.interpolation(.none)`: the nearest
// pixel), clamped at the edges for `draw(_:in:)`, repeated for `tiledImage`; a template image
// (`renderingMode(.template)`) is its alpha filled with `ResolvedImage.shading` (a colour; `.foreground` by
// default). An image drawn by a renderer closure is rasterized once, by the CPU reference renderer, at one
// pixel per point; both backends then sample the same pixels.

import Foundation

/// An image a canvas can draw: `context.draw(Image(contentsOf: url), in: rect)`.
public struct Image: Sendable, Equatable {
    /// How an image's colours are used.
    public enum TemplateRenderingMode: Sendable, Hashable {
        /// The image's own colours.
        case original
        /// Its alpha only, filled with the resolved image's shading (the foreground style by default).
        case template
    }

    /// How an image is resampled when drawn at another size.
    public enum Interpolation: Sendable, Hashable {
        /// The nearest pixel.
        case none
        case low, medium, high
    }

    /// Decoded pixels, or why there are none (kept until a frame draws the image).
    package let content: ImageContent
    /// Image pixels per point.
    package let scale: CGFloat
    package var renderingMode: TemplateRenderingMode = .original
    package var interpolation: Interpolation = .high
    /// `resizable(capInsets:resizingMode:)` was applied: as a view it takes the size it is offered.
    package var resizing: Resizing?
    /// `antialiased(_:)`: whether the image's edges are anti-aliased when drawn as a view.
    package var isAntialiased = true

    /// How a resizable image fills its frame.
    package struct Resizing: Sendable, Hashable {
        package var capInsets: EdgeInsets
        package var mode: ResizingMode
    }

    package init(content: ImageContent, scale: CGFloat) {
        self.content = content
        self.scale = scale.isFinite && scale > 0 ? scale : 1
    }

    /// Premultiplied pixels; `scale` pixels per point.
    public init(_ image: RasterImage, scale: CGFloat = 1) {
        self.init(content: ImageContent(.success(image), source: nil), scale: scale)
    }

    /// A PNG or JPEG file (the format is read from its first bytes). Decoded now; a failure is reported when a
    /// frame draws the image.
    public init(contentsOf url: URL, scale: CGFloat = 1) {
        let result = Result { try RasterImage(contentsOf: url) }.mapError { $0 as any Error }
        self.init(content: ImageContent(result, source: url.path), scale: scale)
    }

    /// A PNG or JPEG file by path.
    public init(contentsOfFile path: String, scale: CGFloat = 1) {
        self.init(contentsOf: URL(fileURLWithPath: path), scale: scale)
    }

    /// Encoded PNG or JPEG data.
    public init(data: Data, scale: CGFloat = 1) {
        let result = Result { try RasterImage(data: data) }.mapError { $0 as any Error }
        self.init(content: ImageContent(result, source: nil), scale: scale)
    }

    /// The same image drawn as a template (its alpha filled with a shading) or with its own colours.
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image {
        var copy = self
        copy.renderingMode = mode ?? .original
        return copy
    }

    /// The same image resampled with `interpolation`.
    public func interpolation(_ interpolation: Interpolation) -> Image {
        var copy = self
        copy.interpolation = interpolation
        return copy
    }

    /// The image as a view takes the size it is offered (else its own): stretched to it, or tiled. The cap
    /// insets (points) keep their part of each edge at its own size, the rest stretched or tiled (a nine-part
    /// image). A canvas always draws an image at the size it is given.
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image {
        var copy = self
        copy.resizing = Resizing(capInsets: capInsets, mode: resizingMode)
        return copy
    }

    /// Whether the image's edges are anti-aliased when drawn as a view (a canvas's draw takes its fill style).
    public func antialiased(_ isAntialiased: Bool) -> Image {
        var copy = self
        copy.isAntialiased = isAntialiased
        return copy
    }

    /// How a resizable image fills its frame.
    public enum ResizingMode: Sendable, Hashable { case tile, stretch }

    /// The size in points, nil when the image could not be read.
    package var pointSize: CGSize? {
        guard case .success(let r) = content.result else { return nil }
        return CGSize(width: CGFloat(r.width) / scale, height: CGFloat(r.height) / scale)
    }
}

/// SwiftUI's `EdgeInsets` (for `resizable(capInsets:)`).
public struct EdgeInsets: Sendable, Hashable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
    public init(top: CGFloat = 0, leading: CGFloat = 0, bottom: CGFloat = 0, trailing: CGFloat = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
}

/// An image's pixels (shared by every copy of the `Image` and every draw of it), or the error reading them;
/// or, for `Image(systemName:)`, the symbol's name (drawn as a glyph outline, `SystemImage.swift`; its
/// `result` is the error saying it has no pixels).
package final class ImageContent: @unchecked Sendable, Equatable {
    package let result: Result<RasterImage, any Error>
    /// Where it came from, for messages ("/d/logo.png").
    package let source: String?
    /// The SF Symbols name of a system image; nil for pixel images.
    package let systemName: String?

    package init(_ result: Result<RasterImage, any Error>, source: String?, systemName: String? = nil) {
        self.result = result
        self.source = source
        self.systemName = systemName
    }

    package static func == (l: ImageContent, r: ImageContent) -> Bool {
        if l === r { return true }
        if l.systemName != nil || r.systemName != nil { return l.systemName == r.systemName }
        switch (l.result, r.result) {
        case (.success(let a), .success(let b)): return a == b
        case (.failure(let a), .failure(let b)): return "\(a)" == "\(b)"
        default: return false
        }
    }
}

extension Image {
    /// A system image's size (its image box, `SystemSymbol.layoutBox`) and baseline at `font`'s size, as
    /// `resolve` gives them and as the image measures as a view; 0 × 0 for an unknown name.
    package func systemImageMetrics(font: Font) -> (size: CGSize, baseline: CGFloat) {
        guard let symbol else { return (.zero, 0) }
        let k = SystemImages.emSize(forFontSize: font.pointSize) / symbol.unitsPerEm
        return (CGSize(width: symbol.bounds.width * k, height: symbol.bounds.height * k), symbol.bounds.maxY * k)
    }
}

extension GraphicsContext {
    /// An image bound to this context's environment, ready to draw.
    public struct ResolvedImage: Sendable {
        package let image: Image
        /// The size in points (0 × 0 for an image that could not be read).
        public var size: CGSize
        /// The distance from the top to the baseline: the height (images have no baseline of their own).
        public let baseline: CGFloat
        /// The fill of a template image (`.foreground` by default); nil for an image drawn in its own colours.
        public var shading: Shading?
    }

    /// Resolves `image` in this context: its size, baseline and template shading.
    public func resolve(_ image: Image) -> ResolvedImage {
        if image.content.systemName != nil {
            // A system image: the glyph's image box at the environment's font size, filled with the foreground
            // style (see SystemImage.swift); an unknown name is 0 × 0 and draws nothing.
            let metrics = image.systemImageMetrics(font: environment.defaultFont)
            return ResolvedImage(image: image, size: metrics.size, baseline: metrics.baseline, shading: .foreground)
        }
        let size = image.pointSize ?? .zero
        return ResolvedImage(image: image, size: size, baseline: size.height,
                             shading: image.renderingMode == .template ? .foreground : nil)
    }

    /// Draws `image` stretched to fill `rect` (no aspect fit); `style` gives the edges' anti-aliasing.
    public func draw(_ image: ResolvedImage, in rect: CGRect, style: FillStyle = FillStyle()) {
        recordImage(image, in: rect, style: style)
    }

    /// Draws `image` at its size with its `anchor` point (a UnitPoint of its bounds) at `point`.
    public func draw(_ image: ResolvedImage, at point: CGPoint, anchor: UnitPoint = .center) {
        let r = CGRect(x: point.x - anchor.x * image.size.width, y: point.y - anchor.y * image.size.height,
                       width: image.size.width, height: image.size.height)
        recordImage(image, in: r, style: FillStyle())
    }

    /// Resolves and draws `image` stretched to `rect`.
    public func draw(_ image: Image, in rect: CGRect, style: FillStyle = FillStyle()) {
        draw(resolve(image), in: rect, style: style)
    }

    /// Resolves and draws `image` at `point`.
    public func draw(_ image: Image, at point: CGPoint, anchor: UnitPoint = .center) {
        draw(resolve(image), at: point, anchor: anchor)
    }

    private func recordImage(_ image: ResolvedImage, in rect: CGRect, style: FillStyle) {
        if let name = image.image.content.systemName {
            // The glyph outline stretched over the rect, filled with the shading; unknown names draw nothing
            // and are reported (SwiftUI draws nothing and logs).
            guard let symbol = image.image.symbol else {
                let why = SystemImages.glyphName(for: name) == nil
                    ? "no such system image (docs/system-images.md lists the names)"
                    : "the icon font \(SystemImages.fontPath) or its glyph is missing"
                report(RenderDiagnostic(.unknownSystemImage,
                                        .invalidImage("Image(systemName: \"\(name)\"): \(why); it draws nothing")))
                return
            }
            guard rect.width != 0, rect.height != 0,
                  let fill = paint(for: image.shading ?? .foreground, bounds: rect) else { return }
            record(.fill(symbol.path(in: rect), style), paint: fill)
            return
        }
        if case .failure(let error as UnknownAssetError) = image.image.content.result {
            report(RenderDiagnostic(.unknownAsset, .missingAsset(error.description)))
            return
        }
        guard case .success(let pixels) = image.image.content.result else {
            // The error is raised when the frame is rendered, naming the file.
            record(.fill(Path(rect), style), paint: .image(ImagePaint(image: image.image, imageToUser: .identity,
                                                                       tiled: false, sourceRect: .zero, tint: nil)))
            return
        }
        let w = CGFloat(pixels.width), h = CGFloat(pixels.height)
        // Image pixels → the rect.
        let toUser = CGAffineTransform(a: rect.width / w, b: 0, c: 0, d: rect.height / h, tx: rect.minX, ty: rect.minY)
        var tint: Paint?
        if image.image.renderingMode == .template {
            tint = paint(for: image.shading ?? .foreground, bounds: rect)
            guard tint != nil else { return }
        }
        record(.fill(Path(rect), style), paint: .image(ImagePaint(image: image.image, imageToUser: toUser, tiled: false,
                                                                   sourceRect: CGRect(x: 0, y: 0, width: w, height: h),
                                                                   tint: tint)))
    }
}

extension GraphicsContext.Shading {
    /// `image` repeated to infinity: the `sourceRect` part of it (in unit coordinates of the image) at its
    /// natural size × `scale`, with one tile's top-left corner at `origin` (user space).
    public static func tiledImage(_ image: Image, origin: CGPoint = .zero,
                                  sourceRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1),
                                  scale: CGFloat = 1) -> GraphicsContext.Shading {
        GraphicsContext.Shading(kind: .tiledImage(TiledImage(image: image, origin: origin, sourceRect: sourceRect,
                                                             scale: scale)))
    }
}

/// A `tiledImage` shading as given.
package struct TiledImage: Sendable, Equatable {
    package var image: Image
    package var origin: CGPoint
    package var sourceRect: CGRect
    package var scale: CGFloat

    /// The image paint: the source rect (image pixels) mapped so that its top-left lands on `origin` at
    /// `scale` points per image point.
    package var paint: ImagePaint {
        guard case .success(let pixels) = image.content.result else {
            return ImagePaint(image: image, imageToUser: .identity, tiled: true, sourceRect: .zero, tint: nil)
        }
        let w = CGFloat(pixels.width), h = CGFloat(pixels.height)
        let src = CGRect(x: sourceRect.minX * w, y: sourceRect.minY * h, width: sourceRect.width * w,
                         height: sourceRect.height * h)
        let k = scale / image.scale  // user points per image pixel
        let toUser = CGAffineTransform(a: k, b: 0, c: 0, d: k, tx: origin.x - src.minX * k, ty: origin.y - src.minY * k)
        return ImagePaint(image: image, imageToUser: toUser, tiled: true, sourceRect: src, tint: nil)
    }
}

/// An image as a paint: its pixels mapped into the draw's user space.
package struct ImagePaint: Sendable, Equatable {
    package var image: Image
    /// Image pixel coordinates → user space.
    package var imageToUser: CGAffineTransform
    /// Repeats `sourceRect` in both directions (a tiled image); else clamps to the image's edges.
    package var tiled: Bool
    /// The part of the image that is drawn, in image pixels.
    package var sourceRect: CGRect
    /// A template image's fill (its alpha × this paint); nil draws the image's own colours.
    package var tint: Paint?
}

/// Why `Image("name")` has no pixels: no image set or file of that name.
package struct UnknownAssetError: Error, CustomStringConvertible {
    package var name: String
    package var description: String {
        "Image(\"\(name)\"): no image set of that name in the asset catalog (AssetCatalog.use) and no such file; it draws nothing"
    }

    package init(name: String) { self.name = name }
}
