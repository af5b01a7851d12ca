// A server renders for several requests at once: one renderer per thread, all at the same time, sharing the
// process's EGL display and the coverage workers. Each must give the bytes it gives alone.
import Foundation
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

final class ConcurrentRenderersTests: XCTestCase {
    /// Renderers running at once, one thread each (twice the cores of the CI machine, so they interleave).
    static let threads = 4
    /// Frames each thread renders while the others run.
    static let framesPerThread = 6

    /// Overlapping translucent shapes and strokes, large enough that each frame's coverage runs on all
    /// workers (`Lowering.parallelThreshold`).
    static func drawing(_ ctx: inout GraphicsContext, _ size: CGSize) {
        for i in 0 ..< 60 {
            let x = CGFloat(i % 10) * 37 + 3.25, y = CGFloat(i / 10) * 41 + 2.5
            ctx.fill(Path(ellipseIn: CGRect(x: x, y: y, width: 70, height: 55)),
                     with: .color(Color(red: Double(i % 7) / 7, green: 0.4, blue: Double(i % 3) / 3, opacity: 0.6)))
            var p = Path()
            p.move(to: CGPoint(x: x, y: y + 50))
            p.addCurve(to: CGPoint(x: x + 90, y: y + 10), control1: CGPoint(x: x + 30, y: y - 20),
                       control2: CGPoint(x: x + 60, y: y + 80))
            ctx.stroke(p, with: .color(.black.opacity(0.5)), style: StrokeStyle(lineWidth: 3, lineCap: .round))
        }
    }

    func render(_ renderer: CanvasRenderer) throws -> RasterImage {
        try renderer.render(size: CGSize(width: 400, height: 260)) { ctx, size in Self.drawing(&ctx, size) }
    }

    func testRenderersOnSeveralThreadsAtOnceGiveTheirSoloBytes() throws {
        try TestTier.requireThorough()
        let backends: [CanvasRenderer.Backend] = [
            .gles(GLESOptions(device: .mesa)),
            .gles(GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)),
            .reference,
        ]
        for backend in backends {
            let solo = try render(CanvasRenderer(backend: backend))
            XCTAssertTrue(solo.pixels.contains { $0 != 0 }, "\(backend): blank image")

            final class Results: @unchecked Sendable {
                let lock = NSLock()
                var mismatches: [String] = []
                var errors: [String] = []
                var frames = 0
            }
            let results = Results()
            let renderers = try (0 ..< Self.threads).map { _ in try CanvasRenderer(backend: backend) }
            let box = UncheckedSendable(renderers)
            let test = UncheckedSendable(self)
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for t in 0 ..< Self.threads {
                group.enter()
                let thread = Thread {
                    start.wait()  // all threads begin together
                    for f in 0 ..< Self.framesPerThread {
                        do {
                            let image = try test.value.render(box.value[t])
                            results.lock.withLock {
                                results.frames += 1
                                if image.pixels != solo.pixels {
                                    results.mismatches.append("thread \(t) frame \(f): \(image.difference(from: solo))")
                                }
                            }
                        } catch {
                            results.lock.withLock { results.errors.append("thread \(t) frame \(f): \(error)") }
                        }
                    }
                    group.leave()
                }
                thread.start()
            }
            for _ in 0 ..< Self.threads { start.signal() }
            XCTAssertEqual(group.wait(timeout: .now() + 300), .success, "\(backend): threads did not finish")
            XCTAssertEqual(results.errors, [], "\(backend)")
            XCTAssertEqual(results.mismatches, [], "\(backend)")
            XCTAssertEqual(results.frames, Self.threads * Self.framesPerThread, "\(backend)")
        }
    }
}
