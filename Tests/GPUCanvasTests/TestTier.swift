import Foundation
import XCTest

/// Which tests a run takes. `swift test` runs the quick tier: every test but those that take seconds each,
/// with the conformance catalogue in two GLES forms. `GPUCANVAS_TESTS=thorough swift test`, what `.ci/run`
/// runs on every commit, adds the rest: every conformance form, the whole-file Unicode and emoji sweeps, every
/// blend mode and gradient on both backends, the boundary, soak and CLI sweeps.
enum TestTier {
    static let thorough = ProcessInfo.processInfo.environment["GPUCANVAS_TESTS"] == "thorough"

    /// Skips the calling test in the quick tier.
    static func requireThorough() throws {
        try XCTSkipUnless(thorough, "a thorough-tier test (seconds of work): GPUCANVAS_TESTS=thorough runs it, as .ci/run does")
    }
}
