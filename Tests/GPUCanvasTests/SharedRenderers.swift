import Foundation
@testable import GPUCanvas

/// A renderer made once per process and shared by every test that asks for the same backend and policy.
///
/// Making a GLES renderer compiles its programs, most of the cost of a small comparison test; the tests that
/// only render through a renderer share one per form instead. `CanvasRenderer` is used by one thread at a time
/// (its documentation), so each shared renderer has its own lock and every use goes through it: `render`
/// and `withRenderer` hold it for the call. Options (`diagnosticsPolicy`, `limits`) are fixed when it is made,
/// so no test can change them for the others. Tests that check a renderer's own state over several frames
/// (GL object counts, glyph cache statistics, counters, option changes) make their own renderer.
final class SharedRenderer: @unchecked Sendable {
    let backend: CanvasRenderer.Backend
    let policy: DiagnosticsPolicy
    private let renderer: CanvasRenderer
    private let lock = NSLock()

    fileprivate init(backend: CanvasRenderer.Backend, policy: DiagnosticsPolicy) throws {
        self.backend = backend
        self.policy = policy
        renderer = try CanvasRenderer(backend: backend)
        renderer.diagnosticsPolicy = policy
    }

    /// Runs `body` with the renderer, no other thread using it meanwhile.
    func withRenderer<T>(_ body: (CanvasRenderer) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(renderer)
    }

    func render(size: CGSize, scale: CGFloat = 1, colorMode: ColorRenderingMode = .nonLinear, opaque: Bool = false,
                _ draw: (inout GraphicsContext, CGSize) -> Void) throws -> RasterImage {
        try withRenderer { try $0.render(size: size, scale: scale, colorMode: colorMode, opaque: opaque, draw) }
    }

    func render(_ recording: Recording, scale: CGFloat = 1) throws -> RasterImage {
        try withRenderer { try $0.render(recording, scale: scale) }
    }

    /// A canvas with view symbols: `CanvasRenderer`'s overload that resolves them.
    func render<Symbols: View>(_ canvas: Canvas<Symbols>, size: CGSize, scale: CGFloat = 1) throws -> RasterImage {
        try withRenderer { try $0.render(canvas, size: size, scale: scale) }
    }

    /// The image and the report of that render (`lastReport`), read under one hold of the lock.
    func renderWithReport(_ recording: Recording, scale: CGFloat = 1) throws -> (RasterImage, RenderReport) {
        try withRenderer { r in (try r.render(recording, scale: scale), r.lastReport) }
    }
}

extension ImageRenderer {
    /// Renders through a shared renderer, holding its lock.
    func render(at time: TimeInterval = 0, with renderer: SharedRenderer) throws -> RasterImage {
        try renderer.withRenderer { try render(at: time, with: $0) }
    }
}

/// The process-wide cache of `SharedRenderer`s, keyed by backend and policy.
enum SharedRenderers {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var made: [SharedRenderer] = []

    /// The shared renderer for `backend` under `policy`, made on first use.
    static func renderer(_ backend: CanvasRenderer.Backend, policy: DiagnosticsPolicy = .strict) throws -> SharedRenderer {
        lock.lock()
        defer { lock.unlock() }
        if let r = made.first(where: { $0.backend == backend && $0.policy == policy }) { return r }
        let r = try SharedRenderer(backend: backend, policy: policy)
        made.append(r)
        return r
    }
}
