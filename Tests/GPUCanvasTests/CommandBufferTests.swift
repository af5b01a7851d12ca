import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// The planner's command buffers: batching, counts, readable text, atlas layout.
final class CommandBufferTests: XCTestCase {
    /// The brief's bar: 1000 solid rectangles are at most 4 draw calls.
    static let maxDrawsFor1000Rects = 4

    static func thousandRects(_ ctx: inout GraphicsContext, _ size: CGSize) {
        for i in 0 ..< 1000 {
            let x = CGFloat(i % 40) * 6.1, y = CGFloat(i / 40) * 7.3
            ctx.fill(Path(CGRect(x: x, y: y, width: 5.5, height: 6.25)),
                     with: .color(Color(hue: Double(i) / 1000, saturation: 0.7, brightness: 0.8, opacity: 0.75)))
        }
    }

    func testThousandRectanglesShareDrawCalls() throws {
        for s in PathStrategyKind.allCases {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: s)))
            let img = try r.render(size: CGSize(width: 256, height: 192), Self.thousandRects)
            let draws = try XCTUnwrap(r.lastDrawCallCount)
            XCTAssertLessThanOrEqual(draws, Self.maxDrawsFor1000Rects, "\(s)")
            XCTAssertGreaterThan(draws, 0)
            // The last rectangle (i = 999: x = 237.9, y = 175.2) is drawn: its inside pixel is opaque-ish.
            XCTAssertGreaterThan(img.pixel(x: 240, y: 178).a, 180, "\(s)")
        }
    }

    func testDumpIsReadableAndCountsAddUp() throws {
        // llvmpipe's default is the paint atlas (BGRA8 rectangles, fans); without it, R8 coverage and strips.
        for (paint, frame, pipeline, program, primitive) in [(true, "bgra8", "atlasBlit", "atlas_blit", "fan"),
                                                             (false, "rgba8", "atlasCover", "atlas_cover", "strip")] {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas,
                                                                   paintAtlas: paint)))
            _ = try r.render(size: CGSize(width: 64, height: 32)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 1, y: 1, width: 10, height: 10)), with: .color(.red))
                ctx.fill(Path(ellipseIn: CGRect(x: 20, y: 2, width: 30, height: 20)), with: .color(.blue))
            }
            let text = try XCTUnwrap(r.lastGPUCommandDump)
            // 10 × 10 rectangle + the 30 × 20 ellipse's box (too small for trimmed bands to pay); one upload
            // per atlas shelf (two here: the bands differ in height) plus the instances.
            let lines = text.split(separator: "\n").map(String.init)
            XCTAssertEqual(lines.first, "CommandBuffer: 1 pass, 1 draw call, 3 uploads (\(lines.first!.split(separator: "(")[1].split(separator: ")")[0])), 2 instances, 700 covered pixels, 2 textures")
            XCTAssertTrue(lines.contains("  texture frame 64×32 \(frame)"), text)
            XCTAssertTrue(lines.contains("  pass 0 → frame load: clear(0, 0, 0, 0) store: store"), text)
            XCTAssertTrue(lines.contains("    bind pipeline \(pipeline) (program \(program), blend one, oneMinusSrcAlpha)"), text)
            XCTAssertTrue(lines.contains("    draw \(primitive) 4 vertices × 2 instances from instances+0 (\(pipeline))"), text)
            XCTAssertEqual(lines.suffix(2), ["  fence", "  readback frame 64×32 \(frame)"])
        }
    }

    /// An opaque fill of the whole canvas becomes the pass's clear colour and drops the draws under it;
    /// translucent or partial backgrounds stay draws.
    func testOpaqueBackgroundFoldsIntoTheClear() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)))
        let img = try r.render(size: CGSize(width: 20, height: 10)) { ctx, size in
            ctx.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: 5, height: 5)), with: .color(.red))  // hidden
            ctx.fill(Path(CGRect(x: -5, y: -5, width: 40, height: 40)), with: .color(.white))
            ctx.fill(Path(CGRect(x: 2, y: 2, width: 4, height: 4)), with: .color(.black))
        }
        let text = try XCTUnwrap(r.lastGPUCommandDump)
        XCTAssertTrue(text.contains("pass 0 → frame load: clear(1, 1, 1, 1) store: store"), text)
        XCTAssertTrue(text.contains(" 4 vertices × 1 instance "), text)
        XCTAssertEqual(img.pixel(x: 0, y: 0), PixelRGBA8(r: 255, g: 255, b: 255, a: 255))
        XCTAssertEqual(img.pixel(x: 3, y: 3), PixelRGBA8(r: 0, g: 0, b: 0, a: 255))

        _ = try r.render(size: CGSize(width: 20, height: 10)) { ctx, size in
            ctx.fill(Path(CGRect(x: 0, y: 0, width: 20, height: 9.5)), with: .color(.white))  // not the whole canvas
            ctx.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white.opacity(0.5)))  // translucent
        }
        let text2 = try XCTUnwrap(r.lastGPUCommandDump)
        XCTAssertTrue(text2.contains("load: clear(0, 0, 0, 0)"), text2)
        XCTAssertTrue(text2.contains("× 2 instances"), text2)
    }

    /// A large sparse shape is drawn as trimmed trapezoid bands: about its own area, not its box's.
    func testSparseShapeIsCutIntoTrimmedBands() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas,
                                                               paintAtlas: false)))
        var p = Path()  // a thin diagonal band across a 400 × 400 box
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 20, y: 0))
        p.addLine(to: CGPoint(x: 400, y: 400)); p.addLine(to: CGPoint(x: 380, y: 400)); p.closeSubpath()
        let img = try r.render(size: CGSize(width: 400, height: 400)) { ctx, _ in ctx.fill(p, with: .color(.black)) }
        let text = try XCTUnwrap(r.lastGPUCommandDump)
        let first = String(text.split(separator: "\n")[0])
        let covered = Int(first.components(separatedBy: " covered pixel")[0].split(separator: " ").last!)!
        // The stripe's area is 20 × 400 = 8000 px; trapezoid bands hug each side to within the half-pixel
        // margin plus whole-pixel rounding (≤ 2 px a row per side), so at most 8000 + 400 · 4 are drawn.
        XCTAssertLessThanOrEqual(covered, 8000 + 400 * 4, first)
        XCTAssertGreaterThanOrEqual(covered, 20 * 400, "at least the stripe's own area: \(first)")
        // Inside the band (0.95·y < x < 0.95·y + 20) is opaque, far outside is empty.
        XCTAssertEqual(img.pixel(x: 200, y: 200).a, 255)
        XCTAssertEqual(img.pixel(x: 100, y: 300).a, 0)
        XCTAssertEqual(img.pixel(x: 300, y: 100).a, 0)
    }

    /// The paint atlas draws the same stripe as plain rectangles (llvmpipe's linear rasterizer takes no
    /// trapezoids): more pixels than the trapezoids, far fewer than the box, and the same image to within
    /// one step (colour × coverage rounds once on the CPU instead of in the shader).
    func testPaintAtlasDrawsRectangleBandsOfTheSameImage() throws {
        var p = Path()
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 20, y: 0))
        p.addLine(to: CGPoint(x: 400, y: 400)); p.addLine(to: CGPoint(x: 380, y: 400)); p.closeSubpath()
        var images: [RasterImage] = []
        for paint in [true, false] {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas,
                                                                   paintAtlas: paint)))
            images.append(try r.render(size: CGSize(width: 400, height: 400)) { ctx, _ in
                ctx.fill(p, with: .color(.red.opacity(0.7)))
            })
            let text = try XCTUnwrap(r.lastGPUCommandDump)
            guard paint else { continue }
            let first = String(text.split(separator: "\n")[0])
            let covered = Int(first.components(separatedBy: " covered pixel")[0].split(separator: " ").last!)!
            XCTAssertTrue(text.contains("draw fan 4 vertices"), text)
            // Each band of h rows spans the stripe's width plus its drift over the band (0.95 h): the cost
            // model settles on bands of about 20 rows, i.e. about 40 columns a row.
            XCTAssertLessThanOrEqual(covered, 400 * 40, first)
            XCTAssertGreaterThanOrEqual(covered, 20 * 400, first)
        }
        let d = images[0].difference(from: images[1])
        XCTAssertLessThanOrEqual(d.maxDiff, 1, "\(d)")
    }

    /// The paint-row fast paths (eight 255s, eight 0s) give the same texels as a lookup per byte, at every
    /// alignment and row length, including the tail after the last full group of eight.
    func testPaintRowRunsMatchTheTable() {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        defer { table.deallocate() }
        RasterAtlasStrategy.paintTable(color: SIMD4(8_000_000, 4_000_000, 16_777_216, 12_000_000), into: table)
        XCTAssertEqual(table[0], 0)
        XCTAssertEqual(table[255], 0xB6FF_3D7A)  // A 182, R 255, G 61, B 122: round(255 · c / 2^24)
        var rng = SystemRandomNumberGenerator()
        for length in [0, 1, 7, 8, 9, 16, 23, 64, 101] {
            // Runs of 255 and of 0 with partial values between them, so groups of eight are mixed and pure.
            var coverage: [UInt8] = []
            while coverage.count < length {
                let run = Int.random(in: 1 ... 19, using: &rng)
                let kind = Int.random(in: 0 ... 2, using: &rng)
                for _ in 0 ..< run {
                    coverage.append(kind == 0 ? 255 : kind == 1 ? 0 : UInt8.random(in: 0 ... 255, using: &rng))
                }
            }
            coverage.removeLast(coverage.count - length)
            var out = [UInt32](repeating: 0xDEAD_BEEF, count: length)
            coverage.withUnsafeBufferPointer { c in
                out.withUnsafeMutableBufferPointer { o in
                    if length > 0 {
                        RasterAtlasStrategy.paintRow(coverage: c.baseAddress!, count: length, table: table,
                                                     into: o.baseAddress!)
                    }
                }
            }
            XCTAssertEqual(out, coverage.map { table[Int($0)] }, "length \(length), coverage \(coverage)")
        }
    }

    /// The accumulator reports, per row, the widest run it filled as full coverage: the interior between a
    /// shape's edge cells. A rectangle from x 2.5 to 9.5 is full on columns 3..<9 (2 and 9 are half
    /// covered); column 3 received the left edge's deposit, so the run filled in one go is 4..<9. Rows the
    /// rectangle half covers have no full run.
    func testAccumulatorReportsTheFullColumnsOfEachRow() {
        let polys = Flatten.fill(Path(CGRect(x: 2.5, y: 1, width: 7, height: 3.5)), transform: .identity)
        let acc = CoverageAccumulator()
        let piece = PixelRect(x: 0, y: 0, width: 12, height: 6)
        var texels = [UInt8](repeating: 0, count: piece.area)
        texels.withUnsafeMutableBytes { out in
            acc.render(polys, contours: 0 ..< polys.contourCount, rule: .nonZero, antialiased: true, piece: piece,
                       format: .r8, out: out.baseAddress!, rowBytes: piece.width, trackFullRuns: true)
        }
        let (first, end) = acc.rowFullRuns
        XCTAssertEqual((0 ..< 6).map { Int(first[$0]) ..< Int(end[$0]) }, [0 ..< 0, 4 ..< 9, 4 ..< 9, 4 ..< 9, 0 ..< 0, 0 ..< 0])
        XCTAssertEqual(texels[4 * 12 + 5], 128, "row 4 is half covered")
        XCTAssertEqual(acc.solidColumns(PixelRect(x: 0, y: 1, width: 12, height: 3)), 4 ..< 9)
        XCTAssertEqual(acc.solidColumns(PixelRect(x: 5, y: 1, width: 3, height: 3)), 5 ..< 8, "clipped to the band")
        XCTAssertNil(acc.solidColumns(PixelRect(x: 0, y: 1, width: 12, height: 4)), "row 4 has no full run")
    }

    /// Paint form: a large shape's interior is drawn from a one-row strip of its full-coverage texel, so the
    /// atlas uploads far fewer texels than the pixels drawn, and the image is unchanged: the same bytes as
    /// the R8 form to within its one rounding step, and within the default bar of the reference.
    func testSolidInteriorsAreDrawnFromOneRowStrips() throws {
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.fill(Path(ellipseIn: CGRect(x: 10.3, y: 8.6, width: 300, height: 200)), with: .color(.blue.opacity(0.6)))
            ctx.fill(Path(roundedRect: CGRect(x: 150.5, y: 60.25, width: 200, height: 150), cornerRadius: 20),
                     with: .color(.orange.opacity(0.7)))
        }
        var images: [RasterImage] = []
        for paint in [true, false] {
            let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas,
                                                                   paintAtlas: paint)))
            images.append(try r.render(size: CGSize(width: 400, height: 240), draw))
            guard paint else { continue }
            let text = try XCTUnwrap(r.lastGPUCommandDump)
            let (covered, uploaded) = Self.coveredAndUploaded(text)
            // The two interiors are ~80 % of the ~90 000 pixels drawn; their edges and strips stay well under
            // a third of it (the bands' texels alone, before this, were every pixel drawn).
            XCTAssertGreaterThan(covered, 80_000, text)
            XCTAssertLessThan(uploaded * 3, covered, text)
        }
        XCTAssertLessThanOrEqual(images[0].difference(from: images[1]).maxDiff, 1)
        let reference = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 400, height: 240), draw)
        let d = images[0].difference(from: reference)
        XCTAssertTrue(d.meetsDefaultBar, "\(d)")
        // Inside both shapes, the orange over the blue: a pixel of the strip, exactly as the R8 form has it.
        XCTAssertEqual(images[0].pixel(x: 200, y: 120), images[1].pixel(x: 200, y: 120))
        XCTAssertGreaterThan(images[0].pixel(x: 200, y: 120).r, 150)
    }

    /// A small translucent bar at half-pixel offsets (a chart's kind of shape, 64 × 32 px) pays for its
    /// interior strip: its half-covered top and bottom rows need bands of their own (four more instances),
    /// and priced at `solidPixelCost` 0.3 its 63 × 28 interior still wins, where 0.5 baked the whole
    /// bar. So fewer than half of its 2145 pixels are baked and uploaded, and the image is the reference's.
    func testSmallBarsTakeTheirInteriorFromAStrip() throws {
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            ctx.fill(Path(CGRect(x: 20.5, y: 10.5, width: 64, height: 32)), with: .color(.purple.opacity(0.6)))
        }
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)))
        let image = try r.render(size: CGSize(width: 120, height: 60), draw)
        let text = try XCTUnwrap(r.lastGPUCommandDump)
        let (covered, uploaded) = Self.coveredAndUploaded(text)
        XCTAssertEqual(covered, 65 * 33, text)
        XCTAssertLessThan(uploaded * 2, covered, text)
        XCTAssertTrue(text.contains("5 instances"), text)
        let reference = try CanvasRenderer(backend: .reference).render(size: CGSize(width: 120, height: 60), draw)
        XCTAssertTrue(image.difference(from: reference).meetsDefaultBar)
        XCTAssertEqual(image.pixel(x: 50, y: 25), reference.pixel(x: 50, y: 25))
    }

    /// When the bands overflow one atlas, each batch uploads and draws its own, in order: a 256-texel atlas
    /// takes several batches for 40 overlapping translucent shapes with solid interiors, and the image is
    /// what one 2048-wide atlas gives (pieces cut at 256 instead of 1024 sum the same areas, to within a
    /// rounding step).
    func testBandsAndStripsOverflowIntoMoreBatches() throws {
        let draw: (inout GraphicsContext, CGSize) -> Void = { ctx, _ in
            Self.overlappingShapes(&ctx, count: 40, columns: 8, spacing: CGSize(width: 60, height: 55),
                                   roundedRectHeight: 130)
        }
        let options = GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)
        let small = try CanvasRenderer(gles: options, atlasSizeLimit: 256)
        let big = try CanvasRenderer(backend: .gles(options))
        let size = CGSize(width: 600, height: 400)
        let a = try small.render(size: size, draw), b = try big.render(size: size, draw)
        XCTAssertGreaterThan(try XCTUnwrap(small.lastDrawCallCount), 2)
        XCTAssertEqual(try XCTUnwrap(big.lastDrawCallCount), 1)
        let dump = try XCTUnwrap(small.lastGPUCommandDump)
        XCTAssertTrue(dump.contains("texture atlas0 256×"), dump)
        let (covered, uploaded) = Self.coveredAndUploaded(try XCTUnwrap(small.lastGPUCommandDump))
        XCTAssertLessThan(uploaded * 2, covered, "the interiors come from strips")
        let d = a.difference(from: b)
        XCTAssertLessThanOrEqual(d.maxDiff, 1, "\(d)")
        let reference = try CanvasRenderer(backend: .reference).render(size: size, draw)
        XCTAssertTrue(a.difference(from: reference).meetsDefaultBar, "\(a.difference(from: reference))")
    }

    /// `count` translucent shapes with solid interiors, overlapping their neighbours, `columns` to a row at
    /// `spacing` from (3.3, 2.7): 140 × 110 ellipses alternating with 120 × `roundedRectHeight` rounded
    /// rectangles, hues going once round the wheel.
    static func overlappingShapes(_ ctx: inout GraphicsContext, count: Int, columns: Int, spacing: CGSize,
                                  roundedRectHeight: Double) {
        for i in 0 ..< count {
            let x = Double(i % columns) * spacing.width + 3.3, y = Double(i / columns) * spacing.height + 2.7
            let shape = i % 2 == 0 ? Path(ellipseIn: CGRect(x: x, y: y, width: 140, height: 110))
                : Path(roundedRect: CGRect(x: x, y: y, width: 120, height: roundedRectHeight), cornerRadius: 18)
            ctx.fill(shape, with: .color(Color(hue: Double(i) / Double(count), saturation: 0.8, brightness: 0.9, opacity: 0.6)))
        }
    }

    /// Pixels drawn and atlas texels uploaded (the "upload atlas0 rect(x, y, w, h)" areas) of a dump.
    static func coveredAndUploaded(_ dump: String) -> (covered: Int, uploaded: Int) {
        let lines = dump.split(separator: "\n").map(String.init)
        let covered = Int(lines[0].components(separatedBy: " covered pixel")[0].split(separator: " ").last!)!
        var uploaded = 0
        for line in lines where line.contains("upload atlas0 rect(") {
            let args = line.components(separatedBy: "rect(")[1].components(separatedBy: ")")[0]
            let v = args.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces))! }
            uploaded += v[2] * v[3]
        }
        return (covered, uploaded)
    }

    /// Strokes are searched for solid interiors only from `Lowering.solidStrokeWidth` device pixels wide:
    /// a 40 px pen's interior comes from a strip, a 10 px pen's (too narrow to pay) is baked texel by texel,
    /// and a 10 px pen scaled by 4 counts as 40.
    func testOnlyWideStrokesAreSearchedForInteriors() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)))
        var line = Path()
        line.move(to: CGPoint(x: 20.5, y: 10)); line.addLine(to: CGPoint(x: 20.5, y: 110))
        for (width, scale, strips) in [(40.0, 1.0, true), (10.0, 1.0, false), (10.0, 4.0, true)] {
            _ = try r.render(size: CGSize(width: 240, height: 480)) { ctx, _ in
                ctx.scaleBy(x: scale, y: scale)
                ctx.stroke(line, with: .color(.green.opacity(0.5)), lineWidth: width)
            }
            let text = try XCTUnwrap(r.lastGPUCommandDump)
            let (covered, uploaded) = Self.coveredAndUploaded(text)
            if strips {
                XCTAssertLessThan(uploaded * 4, covered, "\(width) × \(scale): \(text)")
            } else {
                XCTAssertGreaterThanOrEqual(uploaded, covered, "\(width) × \(scale): \(text)")
            }
        }
    }

    func testCountsOfAHandBuiltBuffer() {
        var cb = CommandBuffer()
        cb.declare(.frame, TextureDesc(width: 8, height: 8, format: .rgba8))
        cb.declare(.atlas(0), TextureDesc(width: 16, height: 4, format: .r8))
        let a = cb.reserveStaging(64)
        let i = cb.reserveStaging(2 * CoverInstance.stride)
        XCTAssertEqual(a, 0)
        XCTAssertEqual(i, 64)
        let off = cb.reserveInstances(2, pipeline: .atlasCover)
        cb.passes.append(RenderPass(target: .frame, load: .clear(.transparent), clearRect: nil, store: .store, commands: [
            .uploadInstances(range: i ..< i + 64, bufferOffset: off, count: 2, pipeline: .atlasCover),
            .uploadTexture(.atlas(0), rect: TexelRect(x: 0, y: 0, width: 16, height: 4), format: .r8, source: a),
            .bindPipeline(.atlasCover),
            .draw(instanceCount: 2, bufferOffset: off, pipeline: .atlasCover),
        ]))
        XCTAssertEqual(cb.drawCallCount, 1)
        XCTAssertEqual(cb.uploadCount, 2)
        XCTAssertEqual(cb.uploadBytes, 64 + 64)
        XCTAssertEqual(cb.instanceCount, 2)
        XCTAssertTrue(cb.description.hasPrefix("CommandBuffer: 1 pass, 1 draw call, 2 uploads (128 B), 2 instances, 0 covered pixels, 2 textures"), cb.description)
        cb.reset()
        XCTAssertEqual(cb.drawCallCount, 0)
        XCTAssertTrue(cb.staging.isEmpty)
    }

    /// A step that reserves many staging regions sizes the arena once first: the regions then land in that
    /// block (it does not move), 16-byte aligned, and what was written before the growth is kept.
    func testStagingCapacityIsReservedInOneStep() {
        let arena = StagingArena()
        let first = arena.reserve(5, zeroed: true)
        (arena.base + first).storeBytes(of: 0xAB, as: UInt8.self)
        arena.reserveCapacity(adding: 100 * 1000 + 7, regions: 101)
        let block = arena.base, capacity = arena.capacity
        XCTAssertEqual(block.load(fromByteOffset: first, as: UInt8.self), 0xAB)
        var offsets: [Int] = []
        for _ in 0 ..< 100 { offsets.append(arena.reserve(1000, zeroed: false)) }
        offsets.append(arena.reserve(7))
        XCTAssertEqual(arena.base, block, "a reserved capacity must not move the block")
        XCTAssertEqual(arena.capacity, capacity)
        XCTAssertTrue(offsets.allSatisfy { $0 % 16 == 0 }, "\(offsets)")
        XCTAssertEqual(offsets.first, 16)
        XCTAssertLessThanOrEqual(offsets.last! + 7, arena.capacity)
        // A scratch buffer without a fill keeps its contents when it grows; one with a fill fills the new part.
        let bytes = ScratchBuffer<UInt8>(fill: nil)
        bytes.ensure(3)
        bytes.pointer.update(from: [1, 2, 3], count: 3)
        bytes.ensure(4096)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: bytes.pointer, count: 3)), [1, 2, 3])
        let ints = ScratchBuffer<Int32>(fill: -1)
        ints.ensure(2)
        ints.pointer[0] = 7
        ints.ensure(5)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: ints.pointer, count: 5)), [7, -1, -1, -1, -1])
    }

    /// The instance records are read by GL with fixed offsets: their Swift layout must match.
    func testInstanceRecordLayout() {
        XCTAssertEqual(MemoryLayout<CoverInstance>.size, CoverInstance.stride)
        XCTAssertEqual(MemoryLayout<CoverInstance>.offset(of: \.u), 8)
        XCTAssertEqual(MemoryLayout<CoverInstance>.offset(of: \.r), 16)
        XCTAssertEqual(MemoryLayout<SegmentInstance>.size, SegmentInstance.stride)
        XCTAssertEqual(MemoryLayout<SegmentInstance>.offset(of: \.limit), 16)
    }

    /// Packed rectangles stay inside the atlas and never overlap; a full atlas starts a new batch.
    func testAtlasLayoutPacksWithoutOverlap() {
        var paths: [PreparedPath] = []
        for i in 0 ..< 300 {
            let w = 5 + (i * 37) % 90, h = 3 + (i * 53) % 70
            paths.append(PreparedPath(drawNumber: i, store: 0, contours: 0 ..< 0, edgeCount: 0,
                                      box: PixelRect(x: 0, y: 0, width: w, height: h), rule: .nonZero,
                                      antialiased: true, color: .transparent))
        }
        let layout = AtlasLayout(paths: paths, width: 256, maxHeight: 256, maxPiece: (128, 128))
        XCTAssertGreaterThan(layout.batches.count, 1, "300 rectangles of ~50×36 do not fit one 256² atlas")
        XCTAssertEqual(layout.pieces.count, 300)
        for batch in layout.batches {
            let pieces = Array(layout.pieces[batch.pieces])
            for (k, a) in pieces.enumerated() {
                XCTAssertTrue(a.atlasX >= 0 && a.atlasX + a.rect.width <= 256)
                XCTAssertTrue(a.atlasY >= 0 && a.atlasY + a.rect.height <= batch.usedHeight)
                for b in pieces[(k + 1)...] {
                    let overlap = a.atlasX < b.atlasX + b.rect.width && b.atlasX < a.atlasX + a.rect.width
                        && a.atlasY < b.atlasY + b.rect.height && b.atlasY < a.atlasY + a.rect.height
                    XCTAssertFalse(overlap)
                }
            }
        }
        // Batches keep draw order: pieces appear in path order.
        XCTAssertEqual(layout.pieces.map(\.path), Array(0 ..< 300))
    }

    /// A path larger than the maximum piece is cut into pieces that tile its box exactly.
    func testLargeBoxIsTiledByPieces() {
        let p = PreparedPath(drawNumber: 0, store: 0, contours: 0 ..< 0, edgeCount: 0,
                             box: PixelRect(x: 3, y: 5, width: 300, height: 200), rule: .nonZero, antialiased: true,
                             color: .transparent)
        let layout = AtlasLayout(paths: [p], width: 256, maxHeight: 256, maxPiece: (128, 128))
        XCTAssertEqual(layout.pieces.count, 3 * 2)
        XCTAssertEqual(layout.pieces.reduce(0) { $0 + $1.rect.area }, 300 * 200)
        XCTAssertEqual(layout.pieces.first?.rect, PixelRect(x: 3, y: 5, width: 128, height: 128))
        XCTAssertEqual(layout.pieces.last?.rect, PixelRect(x: 259, y: 133, width: 44, height: 72))
    }

    func testBalancedRangesCoverEverythingInOrder() {
        let costs = [5, 1, 1, 1, 8, 2, 2, 2, 1, 9]
        let ranges = balancedRanges(count: costs.count, parts: 3) { costs[$0] }
        XCTAssertEqual(ranges.first?.lowerBound, 0)
        XCTAssertEqual(ranges.last?.upperBound, costs.count)
        for (a, b) in zip(ranges, ranges.dropFirst()) { XCTAssertEqual(a.upperBound, b.lowerBound) }
        XCTAssertLessThanOrEqual(ranges.count, 3)
        XCTAssertEqual(balancedRanges(count: 0, parts: 2) { _ in 1 }, [])
    }

    /// Redundant binds are skipped by the state cache.
    func testStateCacheSkipsRedundantBinds() throws {
        let ctx = try GLContext(selection: .mesa)
        defer { ctx.releaseCurrent() }
        let cache = GLStateCache()
        cache.useProgram(0)
        cache.useProgram(0)
        cache.setBlend(.sourceOver)
        cache.setBlend(.sourceOver)
        cache.setBlend(.additive)
        cache.setViewport(width: 4, height: 4)
        cache.setViewport(width: 4, height: 4)
        XCTAssertEqual(cache.issued, 4)
        XCTAssertEqual(cache.skipped, 3)
        cache.invalidate()
        cache.useProgram(0)
        XCTAssertEqual(cache.issued, 5)
        try ctx.check("state cache calls")
    }
}
