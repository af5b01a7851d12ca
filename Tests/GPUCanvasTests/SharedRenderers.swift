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

/// Two independent pieces of work at once: the reference draws on one thread, so a test that renders on the
/// reference and on GLES (whose rasterizer has its own threads) runs the reference beside it. The work must not
/// share a renderer; assertions stay on the test's thread, after both are done.
enum Concurrently {
    /// Runs `background` on a thread of its own while `foreground` runs on this one; returns both results, or
    /// throws the first error (the foreground's if both throw).
    static func run<A, B>(_ background: () throws -> A, _ foreground: () throws -> B) throws -> (A, B) {
        try withoutActuallyEscaping(background) { job in
            let box = ResultBox<A>(job)
            let thread = Thread { box.run() }
            thread.stackSize = 8 << 20
            thread.start()
            let b = Result { try foreground() }
            box.done.wait()
            return (try box.result!.get(), try b.get())
        }
    }

    /// `transform` of each item in order, the first (the reference, in the tests' lists) on a thread of its own
    /// beside the others.
    static func map<T, R>(_ items: [T], _ transform: (T) throws -> R) throws -> [R] {
        guard let first = items.first else { return [] }
        let (a, rest) = try run({ try transform(first) }, { try items.dropFirst().map(transform) })
        return [a] + rest
    }

    /// The job, released before `done` is signalled: `withoutActuallyEscaping` checks that nothing keeps it.
    private final class ResultBox<A>: @unchecked Sendable {
        var job: (() throws -> A)?
        var result: Result<A, Error>?
        let done = DispatchSemaphore(value: 0)
        init(_ job: @escaping () throws -> A) { self.job = job }
        func run() {
            result = Result { try job!() }
            job = nil
            done.signal()
        }
    }
}
