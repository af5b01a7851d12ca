// A SwiftUI view as a frame source: the views module's `ImageRenderer` gives the view's recording at each
// frame time, so `TimelineView`s, `@State` and animations play through an export deterministically.

import Foundation

/// A view exported frame by frame: frame time t is t seconds after the view first appears (its `onAppear`
/// actions run at t = 0, animations are evaluated at t), and its `TimelineView`s see `startDate + t`. The view is
/// framed to the export's size, so every frame has that size whatever the view would choose.
///
/// ```swift
/// let clock = ViewFrameSource(ZStack { Face(); TimelineView(.animation) { Hands(date: $0.date) } })
/// try FrameExporter(size: CGSize(width: 256, height: 256), framesPerSecond: 30, count: .duration(10))
///     .export(clock, renderer: CanvasRenderer(), to: PNGSequenceDestination(directory: folder))
/// ```
public final class ViewFrameSource<Content: View>: FrameSource {
    public let content: Content
    /// The date `TimelineView`s see at frame time 0 (2001-01-01 00:00:00 UTC unless given).
    public let startDate: Date
    public var colorMode: ColorRenderingMode
    public var isOpaque: Bool
    /// One renderer (one view graph: its state and animations) per export size.
    private var renderer: ImageRenderer<AnyView>?
    private var rendererSize: CGSize?

    public init(_ content: Content, startDate: Date = Date(timeIntervalSinceReferenceDate: 0),
                opaque: Bool = false, colorMode: ColorRenderingMode = .nonLinear) {
        self.content = content
        self.startDate = startDate
        self.isOpaque = opaque
        self.colorMode = colorMode
    }

    public func recording(for frame: FrameTime, size: CGSize) throws -> Recording? {
        if renderer == nil || rendererSize != size {
            let r = ImageRenderer(content: AnyView(content.frame(width: size.width, height: size.height)),
                                  startDate: startDate)
            r.proposedSize = ProposedViewSize(size)
            r.colorMode = colorMode
            r.isOpaque = isOpaque
            renderer = r
            rendererSize = size
        }
        return renderer!.recording(at: frame.time)
    }
}
