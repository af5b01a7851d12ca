// Diagnostics: what a render skipped or substituted and went on.
//
// Design note. Apple's frameworks are lenient: Core Graphics ignores an invalid numeric value (NaN, ±∞) and
// logs that it did, SwiftUI draws a missing image or an unknown asset name as nothing, and the rest of the frame
// renders. GPUCanvas does the same by default and says so here instead of in a log: each render's
// `RenderReport` lists one `RenderDiagnostic` per thing it ignored. `DiagnosticsPolicy.strict` turns the first
// diagnostic into the error it stands for (`RenderDiagnostic.error`), the verdict a test suite wants.
//
// Diagnostics come from two places, both shared by the backends so that both report the same ones:
// - recording: a `GraphicsContext` (or the view layer drawing through one) reports what it could not resolve
//   at the time it records (`GraphicsContext.report(_:)`): an unknown system image or asset name;
// - lowering: an invalid number or an unreadable image of one draw is skipped with a diagnostic naming the
//   draw, in the same words the strict error has.
// Scene files are data, not code: the scene loader keeps refusing a NaN or a missing resource with its JSON
// location, before anything is recorded.

/// Something a render ignored or substituted, in the words of the error `strict` rendering throws for it.
///
/// `RenderDiagnostic(.invalidNumber, .invalidGeometry("draw #1: path element 0 (move to (nan, nan)) is not finite"))`
/// prints `invalid geometry: draw #1: path element 0 (move to (nan, nan)) is not finite`.
public struct RenderDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// What kind of thing was ignored.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A non-finite coordinate, transform, colour or other number: the element or the draw is skipped.
        case invalidNumber
        /// An image file or data that is missing or unreadable: the draw draws nothing.
        case missingImage
        /// `Image(systemName:)` with a name the symbol table does not know: the image draws nothing.
        case unknownSystemImage
        /// `Image("name")` or `Color("name")` with a name no asset catalog holds: it draws nothing (clear).
        case unknownAsset
        /// A font file that could not be read. The text draw is skipped: its layout failed when the text was
        /// recorded, so there are no glyphs of another face to draw in its place.
        case fontSubstituted
    }

    public let kind: Kind
    /// The error `DiagnosticsPolicy.strict` throws instead of going on.
    public let error: RenderError

    public init(_ kind: Kind, _ error: RenderError) {
        self.kind = kind
        self.error = error
    }

    public var description: String { error.description }

    /// The diagnostic a lenient render gives instead of `error`, or nil when `error` is not one Apple's
    /// frameworks ignore (an unsupported feature, an out-of-range enum, a gradient no GPU can evaluate): those
    /// stay errors under either policy.
    ///
    /// The lowering's checks (and those of the gradient and filter resolution it calls) all throw
    /// `invalidGeometry`; the ones about invalid numbers say so in their words ("is not finite", "is NaN",
    /// "overflows to infinity"), which is what tells them apart here without a second error type.
    package static func lenient(for error: RenderError) -> RenderDiagnostic? {
        switch error {
        case .invalidImage: return RenderDiagnostic(.missingImage, error)
        case .invalidFont: return RenderDiagnostic(.fontSubstituted, error)
        case .invalidGeometry(let s):
            let invalidNumber = s.hasSuffix("is not finite") || s.hasSuffix("is NaN") || s.contains("overflow")
                || s.hasSuffix("are not finite")
            return invalidNumber ? RenderDiagnostic(.invalidNumber, error) : nil
        default: return nil
        }
    }
}

/// Whether a render goes on past what it can ignore (Apple's behaviour) or stops at it.
public enum DiagnosticsPolicy: Sendable, Equatable {
    /// Skip what cannot be drawn, draw the rest, list what was skipped in `CanvasRenderer.lastReport`.
    case lenient
    /// Throw the first diagnostic's error: nothing is skipped silently.
    case strict
}

/// What one render ignored, in the order it met them (recording first, then lowering in draw order).
public struct RenderReport: Sendable, Equatable, CustomStringConvertible {
    public var diagnostics: [RenderDiagnostic]

    public init(diagnostics: [RenderDiagnostic] = []) { self.diagnostics = diagnostics }

    /// True when nothing was ignored.
    public var isClean: Bool { diagnostics.isEmpty }

    /// One diagnostic a line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// The diagnostics one canvas's recorders collect (shared by nested layers and masks, like the draw counter).
package final class DiagnosticLog {
    package private(set) var diagnostics: [RenderDiagnostic] = []
    package func report(_ d: RenderDiagnostic) { diagnostics.append(d) }
    /// Replaces what was listed (a lowering run twice for one frame lists its diagnostics once).
    package func replace(with ds: [RenderDiagnostic]) { diagnostics = ds }
}

/// What the shared lowering needs of a render's policy: whether to skip or throw, and where to list what it
/// skipped. Each backend makes its own `Lowering`, so the renderer hands this to it on the copy of the
/// recording it renders (`Recording.lowering`); a recording without one (a backend driven directly) lowers
/// strictly.
package struct LoweringDiagnostics: @unchecked Sendable, Equatable {
    package var policy: DiagnosticsPolicy
    /// Filled by the lowering (one render at a time uses it, on the renderer's thread).
    package let log = DiagnosticLog()
    /// The budget for the frame's decoded image bytes (`RenderLimits.imageBytes`).
    package var limits = RenderLimits()

    /// Not part of what a recording draws: two recordings that differ only here are equal.
    package static func == (a: LoweringDiagnostics, b: LoweringDiagnostics) -> Bool { true }

    package init(
        policy: DiagnosticsPolicy,
        limits: RenderLimits = RenderLimits()) {
        self.policy = policy
        self.limits = limits
    }
}
