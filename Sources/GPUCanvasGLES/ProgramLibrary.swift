// Which linked program draws a step: a general program at once, a specialised one where it pays.
//
// Design note. A step names its pipeline and a `ShaderVariant` (coverage and paint kind, gradient kind, spread
// and stop count, blend mode, filter pass with its radius and factor). Each pipeline's program file compiles
// two ways:
// - general: nothing defined; the kinds come from the instance (v_mode, the paint row) and, for a filter pass,
//   from two uniforms. One program per file draws every variant, so a new blur radius, blend mode or spread
//   draws without a compile. Images and a blur's upsampled source keep their paint kind defined (their
//   parameters travel through the vertex stage): one general program each.
// - specialised: every constant of the variant defined, so the driver folds the branches away and unrolls the
//   kernel loops; on llvmpipe every branch a pixel could take is paid for, so a specialised program is up to
//   2.5× faster per pixel (blend-modes' second frame: 126 ms specialised, 318 ms general).
// Both run the same operations in the same order. The byte-identity check renders the catalogue both ways
// (`GPUCANVAS_SPECIALISATION=never` and `always`): 448 of the 449 scenes give the same bytes in every form. In
// the other (combo-mask-layer-blend: overlay and xor under a soft mask) a few pixels differ by one level: with
// the blend mode a constant, llvmpipe fuses a multiply and an add that the general program, sharing the product
// among the modes, rounds apart. Where one level matters between a first frame and the next, `.never` or
// `.always` keeps every frame of a renderer on one kind of program.
//
// Every program is built on first use: a renderer compiles nothing until it draws, and a frame compiles only
// the general programs of the pipelines it uses. On llvmpipe the costly part is not the link (10–50 ms) but
// the LLVM JIT at the first draw of a program with a new pipeline state (35–190 ms, larger for a general
// program), so fewer programs a frame is what makes a first frame fast.
//
// When to specialise (`ProgramSpecialisation.adaptive`): a variant drawn in two frames is specialised at its
// second, at most `specialisedPerFrame` a frame (the rest in the frames after, drawn by the general programs
// meanwhile); a one-shot render never compiles a specialised program, an animation reaches the specialised
// speed within its first few frames. At most `specialisedLimit` specialised programs are kept
// (an animated blur radius would otherwise add one per radius); beyond it the general program draws.
// `CanvasRenderer.prepare` specialises a recording's variants before the first frame that needs them.

import CGLES
import Foundation

/// When a GLES renderer compiles a program specialised for one kind of draw (`GLESOptions.specialisation`).
///
/// Which program draws changes how long a frame takes, not its bytes (but for a one-level difference in a few
/// pixels of rare blend-mode draws: see the design note above).
public enum ProgramSpecialisation: String, Sendable, Equatable, Hashable, CaseIterable {
    /// A kind of draw seen in a second frame gets its specialised program then: one-shot renders compile
    /// general programs only, animations run at the specialised speed from their second frame.
    case adaptive
    /// General programs only: the fewest compiles and the least memory, slower pixels.
    case never
    /// Every kind of draw is specialised at its first draw: the fastest pixels, a compile for each new kind.
    case always
}

/// The linked programs of one renderer, built on first use and kept for its life.
package final class ProgramLibrary {
    private let resources: GLResources
    package var specialisation: ProgramSpecialisation
    /// Set while `GLESBackend.prepare` renders: every variant is specialised and its general program built
    /// too, so that later new kinds of the same pipelines draw at once.
    var preparing = false

    private struct Key: Hashable {
        var program: String
        var variant: ShaderVariant
    }
    private var general: [Key: GLProgram] = [:]
    private var specialised: [Key: GLProgram] = [:]
    /// The frame in which each not yet specialised variant was first drawn.
    private var firstDrawn: [Key: Int] = [:]
    private var frame = 0

    /// Specialised programs kept at most (each is a few hundred KB of JIT code on llvmpipe).
    static let specialisedLimit = 256
    /// Specialised programs one frame compiles at most under `.adaptive` (each costs ~50 ms on llvmpipe, link
    /// and JIT): a frame that brings back many kinds at once is not held up by all their compiles; the rest
    /// follow in the next frames, and the general programs draw them meanwhile.
    static let specialisedPerFrame = 4
    private var specialisedThisFrame = 0
    /// Variants remembered for a later specialisation at most; the memory is forgotten beyond it.
    static let rememberedLimit = 4096

    /// Programs built over the renderer's life (tests watch these).
    package private(set) var generalBuilt = 0
    package private(set) var specialisedBuilt = 0

    /// Where linked programs are looked up and stored between processes (`ProgramCache`), nil for none.
    private let cache: ProgramCache?

    init(resources: GLResources, specialisation: ProgramSpecialisation, cache: ProgramCache?) {
        self.specialisation = specialisation
        self.cache = cache
        self.resources = resources
    }

    /// Counts frames for the adaptive policy; called once per frame, before its first command.
    func beginFrame() {
        frame += 1
        specialisedThisFrame = 0
    }

    /// The program that draws `variant` of `pipeline`, and whether it is the general one (whose filter
    /// constants the executor then sets as uniforms).
    func program(_ pipeline: Pipeline, _ variant: ShaderVariant) throws -> (GLProgram, isGeneral: Bool) {
        let name = pipeline.programName
        let generalVariant = variant.general
        guard variant != generalVariant else { return (try generalProgram(name, generalVariant), true) }
        if preparing { _ = try generalProgram(name, generalVariant) }
        let key = Key(program: name, variant: variant)
        if let built = specialised[key] { return (built, false) }
        if (preparing && specialisation != .never && specialised.count < Self.specialisedLimit) || specialises(key) {
            let built = try build(name, variant)
            specialised[key] = built
            specialisedBuilt += 1
            specialisedThisFrame += 1
            firstDrawn[key] = nil
            return (built, false)
        }
        return (try generalProgram(name, generalVariant), true)
    }

    /// Whether `key` is specialised now (remembering its first frame when not).
    private func specialises(_ key: Key) -> Bool {
        switch specialisation {
        case .never: return false
        case .always: return specialised.count < Self.specialisedLimit
        case .adaptive:
            guard specialised.count < Self.specialisedLimit else { return false }
            if let first = firstDrawn[key] { return first < frame && specialisedThisFrame < Self.specialisedPerFrame }
            if firstDrawn.count >= Self.rememberedLimit { firstDrawn.removeAll(keepingCapacity: true) }
            firstDrawn[key] = frame
            return false
        }
    }

    private func generalProgram(_ name: String, _ variant: ShaderVariant) throws -> GLProgram {
        let key = Key(program: name, variant: variant)
        if let built = general[key] { return built }
        let built = try build(name, variant)
        general[key] = built
        generalBuilt += 1
        return built
    }

    private func build(_ name: String, _ variant: ShaderVariant) throws -> GLProgram {
        let program = try GLProgram.build(named: name, defines: variant.defines, cache: cache)
        resources.programCreated()
        return program
    }

    /// Deletes every program (the backend's deinit, context current).
    func deleteAll() {
        for p in general.values { glDeleteProgram(p.id); resources.programDeleted() }
        for p in specialised.values { glDeleteProgram(p.id); resources.programDeleted() }
        general = [:]
        specialised = [:]
    }
}
