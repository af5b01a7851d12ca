// The GLES frame encoder: a `Recording` → a `CommandBuffer`, in phases.
//
// 1. Lower (the shared lowering stage, `Lowering/`): validate the recording, resolve the paints, flatten or
//    stroke every draw and clip path in device space on all cores → `LoweredFrame`.
// 2. Fold: an opaque, unclipped source-over rectangle over the whole target hides everything before it; it
//    becomes the clear colour and the draws before it are dropped (`foldClear`).
// 3. Then one of two routes (docs/ARCHITECTURE.md, "Special paths"):
//    - direct, for a frame of plain draws (solid colours, `.normal`, no clip, no layer: `isSolidSourceOver`):
//      coverage of every draw in the form the device composites fastest (`CoverageOutput`; on llvmpipe the
//      baked paint), drawn by the cover programs straight into the frame (`CoverEmitter`), in parts when the
//      frame is too large to stage at once;
//    - composite, for any other frame: gather (`CompositeGather`: the walk that lists shapes, paint rows and
//      steps) → coverage of the listed shapes → emit (`CompositeEmitter`).
// The path strategy only ever produces coverage; the encoder chooses its form and draws it.

import Dispatch

/// How shader-blended modes read the destination.
public enum BlendRoute: String, Sendable, Equatable, Hashable, CaseIterable, CustomStringConvertible {
    /// GL_EXT_shader_framebuffer_fetch: the fragment shader reads the pixel it replaces (Mesa, mobile GPUs).
    case framebufferFetch = "framebuffer-fetch"
    /// A copy of the target's pixels under each draw, read as a texture (NVIDIA has no framebuffer fetch).
    case destinationCopy = "destination-copy"
    public var description: String { rawValue }
}

final class FrameEncoder {
    /// Worker threads for CPU work (coverage): the machine's cores, at most `ParallelWork.maxWorkers`.
    let workers = ParallelWork.workers
    private let lowering: Lowering
    private let emitter = CompositeEmitter()

    init(features: Lowering.Features = .drawnByBothBackends) { lowering = Lowering(features: features) }
    var glyphCacheStatistics: GlyphCacheStatistics { lowering.glyphCacheStatistics }

    /// What the encoder needs of the device.
    struct Device {
        var strategy: PathStrategy
        var route: BlendRoute
        var maxTextureSize: Int
        /// The device passes a mesh patch's 16 coefficients from the vertex stage (`mesh_paint.glsl`'s
        /// MESH_VERTEX_FETCH: 18 varying vectors, above GLES 3.0's guaranteed 15).
        var meshVertexFetch = false
    }

    /// Encodes `recording` into `cb` (which is reset first). `replay` executes a part of a frame that is
    /// staged in parts (the direct route's large frames); nil stages every frame whole.
    func encode(_ recording: Recording, target: RenderTarget, device: Device, into cb: inout CommandBuffer,
                timings: inout GLESFrameTimings,
                replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)? = nil) throws {
        cb.reset()
        let t0 = DispatchTime.now().uptimeNanoseconds
        let strategy = device.strategy
        var frame = try lowering.lower(recording, target: target,
                                       placesGlyphs: strategy.drawsGlyphMasks && recording.colorMode == .nonLinear)
        // Routed before the fold: hiding a gradient under the background must not change the frame's route.
        let direct = frame.isSolidSourceOver
        let (clear, hidden) = Self.foldClear(frame.ops, target: target,
                                             base: recording.isOpaque ? RGBA(r: 0, g: 0, b: 0, a: 1) : .transparent)
        frame.ops.removeFirst(hidden)
        let t1 = DispatchTime.now().uptimeNanoseconds
        timings.geometry += Double(t1 - t0) / 1e9
        let replayedSubmit = timings.submit  // parts replayed while encoding count as submit, not coverage
        if direct {
            try encodeDirect(frame, target: target, clear: clear, strategy: strategy, into: &cb, timings: &timings,
                             replay: replay)
        } else {
            try encodeComposite(frame, target: target, clear: clear, device: device, into: &cb)
        }
        timings.coverage += Double(DispatchTime.now().uptimeNanoseconds - t1) / 1e9 - (timings.submit - replayedSubmit)
    }

    /// The frame's texel format: BGRA8 where baked paint is drawn (what llvmpipe's linear rasterizer
    /// blends into), else RGBA8; half floats for a linear-light canvas (DESIGN: RGBA16F storage).
    static func frameFormat(_ frame: LoweredFrame, _ strategy: PathStrategy) -> TextureFormat {
        guard frame.colorMode == .nonLinear else { return .rgba16f }
        return strategy.offersBakedPaint ? .bgra8 : .rgba8
    }

    // MARK: The direct route

    /// Coverage of the frame's plain draws in parts, each drawn by the cover programs before the next is staged.
    private func encodeDirect(_ frame: LoweredFrame, target: RenderTarget, clear: RGBA, strategy: PathStrategy,
                              into cb: inout CommandBuffer, timings: inout GLESFrameTimings,
                              replay: ((CommandBuffer, inout GLESFrameTimings) throws -> Void)?) throws {
        let paths = frame.ops.compactMap { op -> PreparedPath? in
            guard case .draw(let d) = op else { return nil }
            return PreparedPath(solid: d)
        }
        let output: CoverageOutput = strategy.offersBakedPaint ? .bakedPaint(textPilesOver: clear)
            : .coverage(strategy.coverageFormat)
        cb.declare(.frame, TextureDesc(width: target.width, height: target.height,
                                       format: Self.frameFormat(frame, strategy)))
        let parts = strategy.beginFrame(paths, output: output, splits: replay != nil)
        for part in 0 ..< parts {
            if part > 0, let replay {
                // The frame's pixels stay in its target between parts.
                cb.readsBack = false
                try replay(cb, &timings)
                cb.beginNextPart()
            }
            let set = strategy.coverage(part: part, paths, stores: frame.stores, output: output, atlas: .atlas(0),
                                        into: &cb)
            CoverEmitter.emit(set, paths: paths, atlas: .atlas(0), into: &cb) { $0.pass(on: .frame, clearing: clear) }
        }
        _ = cb.pass(on: .frame, clearing: clear)  // a frame with nothing drawn still clears
    }

    // MARK: The composite route

    /// Gather → coverage → emit.
    private func encodeComposite(_ frame: LoweredFrame, target: RenderTarget, clear: RGBA, device: Device,
                                 into cb: inout CommandBuffer) throws {
        let strategy = device.strategy
        let frameFormat = Self.frameFormat(frame, strategy)
        let gathered = try CompositeGather(frame, frameFormat: frameFormat, route: device.route,
                                           maxTextureSize: device.maxTextureSize,
                                           bakedPaintLayers: strategy.offersBakedPaint).out
        // Linear-light frames encode to sRGB at output, whose slope near black (up to ~13) would turn R8's
        // half-step of coverage into several levels: they get R16F coverage (11 bits).
        var format = strategy.coverageFormat
        if format == .r8 && frame.colorMode != .nonLinear { format = .r16f }
        let coverage = strategy.coverage(gathered.shapes, stores: frame.stores, output: .coverage(format), into: &cb)
        let paintLayers = gathered.paintLayers.map {
            strategy.coverage($0.paths, stores: frame.stores, output: .bakedPaint(textPilesOver: nil), atlas: .atlas(1),
                              into: &cb)
        }
        emitter.emit(gathered, coverage: coverage, paintLayers: paintLayers, target: target, clearColor: clear,
                     frameFormat: frameFormat, route: device.route, meshVertexFetch: device.meshVertexFetch, into: &cb)
    }

    // MARK: The clear colour

    /// The frame's clear colour and how many leading ops it hides: the last opaque, unclipped source-over
    /// rectangle covering the whole target among the draws before the first layer (the ops list is flat: a
    /// layer's draws follow its push). Exact: source-over of an opaque colour at coverage 1 is that colour, so a
    /// background fill costs nothing but the clear.
    static func foldClear(_ ops: [LoweredOp], target: RenderTarget, base: RGBA) -> (clear: RGBA, hidden: Int) {
        let plainPrefix = ops.prefix { if case .draw = $0 { return true }; return false }
        guard let last = plainPrefix.lastIndex(where: { op in
            guard case .draw(let d) = op, d.clip == nil, d.blend == .normal, d.opacity == 1,
                  case .solid(let c) = d.paint, c.a == 1 else { return false }
            return coversTarget(d.shape, target)
        }), case .draw(let d) = ops[last], case .solid(let c) = d.paint else { return (base, 0) }
        return (c, last + 1)
    }

    /// True when the shape is one axis-aligned rectangle containing the whole target (coverage 1 on every
    /// pixel under either fill rule, anti-aliased or not).
    static func coversTarget(_ s: CoverageShape, _ target: RenderTarget) -> Bool {
        guard s.box == target.pixelRect, let r = s.solidRect else { return false }
        return r.contains(target.pixelRect)
    }
}
