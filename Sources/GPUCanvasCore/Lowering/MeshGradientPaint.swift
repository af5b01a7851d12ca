// Mesh gradients: a `MeshGradient` (unit space, `Color`s) → bicubic patches in device space → triangles carrying
// patch parameters → a paint image over the item's device box, which each backend makes itself.
//
// Design. What is geometry and validation is computed here, once per draw, in the shared lowering: validation
// (so both backends refuse the same meshes with the same words), the patches, their tessellation (corners
// snapped to the 1/256 px grid GPU rasterizers use), each patch's colour surface as 16 power-basis coefficients,
// the background and the device box. They travel as a `MeshPaint` (MeshPaint.swift) inside an image paint
// (`LoweredImage.mesh`) with no pixels yet. Each backend then makes the *paint image*, premultiplied RGBA8 over
// the box, by the same rules: the reference with `rasterize` below (the formulas' one CPU implementation, called
// from its draw); the GLES backend on the GPU, never calling it: `mesh_paint.glsl` draws the triangles into the
// region of a shared *mesh page* the gather assigns, the fragment evaluating the patch's coefficients (a
// paint-data row) at the interpolated (u, v), all of a frame's pages in one pass each before the frame's passes
// (`CompositeStep.meshPaint`). The draw is then an ordinary image paint: nearest-sampled at pixel centres with an
// integer translation, so texel = pixel, clipped, blended and layered as any image. Cost: docs/performance.md
// ("Mesh gradients").
//
// Formulas (docs/api-status.md, decisions):
// - vertices are given row by row; vertex (i, j) is column i, row j; points are in the unit space of the drawn
//   item's bounds (the path's bounding rect, as `.style(LinearGradient(startPoint: .top…))`), mapped to user
//   space by that rect and to device space by the draw's transform;
// - patch (i, j) spans vertices (i, j)…(i + 1, j + 1) and is a bicubic Bezier patch. With `bezierPoints` its
//   edge control points are the vertices' trailing/leading (along a row) and bottom/top (along a column)
//   control points. With `points` they are derived from Catmull-Rom tangents: along a row,
//   T = (P[i+1] − P[i−1]) / 2 inside the mesh, P[1] − P[0] at the first column and P[w−1] − P[w−2] at the last
//   (the same down a column); trailing = P + T/3, leading = P − T/3. The four inner control points have zero
//   twist: b11 = b10 + b01 − b00 (and the same at the other corners). A regular grid of points gives flat,
//   uniformly parametrized patches;
// - `smoothsColors: true`: each colour channel is the bicubic Hermite patch through the vertex colours with
//   Catmull-Rom derivatives (C[i+1] − C[i−1]) / 2 at inner vertices, zero derivatives at the mesh's edges
//   (in that direction) and zero twist; `false`: bilinear in the patch's (u, v);
// - colours interpolate straight (unpremultiplied), in the working space (`.device`) or in Oklab
//   (`.perceptual`), and are clamped to 0…1 after conversion back;
// - each patch is split into cells of two triangles, n a side chosen from the patch's device-space control
//   net so that the triangles stay within `positionTolerance` px of the surface (the cubic's second-derivative
//   bound: error ≤ (6·Δuu + 18·Δuv + 6·Δvv) / (8 n²), Δ the largest second differences of the net), at most
//   `maxSubdivisions` and never finer than a quarter of a device pixel; a column of patches takes the largest
//   n of its patches across, a row down, so neighbours cut their shared edge alike (no cracks);
// - triangle corners are rounded to the 1/256 px grid; a pixel whose centre lies in a triangle takes the (u, v)
//   interpolated across it, a centre on an edge belonging to the triangle for which it is a top or left edge
//   (GPUs' rule: one of two triangles sharing it); its colour is the patch's colour surface at (u, v), evaluated
//   exactly (no colour tessellation error), in Float by Horner's rule (the GPU's order); later
//   patches (row by row) cover earlier ones where a folded mesh overlaps itself; a pixel no triangle covers is
//   `background`.

import Foundation

package enum MeshGradientResolution {
    /// The most vertices a side: 256 × 256 vertices are 65 025 patches.
    package static let maxSide = 256
    /// Surface error allowed by the tessellation, device px: a quarter pixel, below what an anti-aliased edge
    /// shows. It sets the triangle count, which llvmpipe pays for: on the S3-like mesh bench 0.1 px drew 862 k
    /// triangles in 550 ms a frame, 0.25 px 356 ms, 0.5 px 267 ms (docs/performance.md, "Mesh gradients").
    package static let positionTolerance = 0.25
    /// The largest device coordinate a mesh's control points may have: 2²⁴ px, where 32-bit floats still hold
    /// every whole pixel.
    package static let maxDeviceCoordinate = Double(1 << 24)
    /// Cells a patch side at most (a 64 × 64 grid is 8192 triangles a patch).
    package static let maxSubdivisions = 64

    /// The image paint of `m` filling an item whose user-space bounds are `bounds`, drawn with `transform`
    /// (user → device), outset by `outset` user units (a stroke's reach), over the pixels of `target`.
    /// `nil`: the item's box misses the target.
    ///
    /// A 2 × 2 mesh with points (0, 0), (1, 0), (0, 1), (1, 1) and colours red, green, blue, white on a
    /// 10 × 10 rect at scale 1 → a 12 × 12 image (a pixel of margin) whose pixel (1, 1) is nearly red.
    package static func resolve(_ m: MeshGradient, bounds: CGRect, outset: CGFloat, transform: CGAffineTransform,
                                colorMode: ColorRenderingMode, target: PixelRect, drawNumber: Int) throws -> LoweredImage? {
        let mesh = try validated(m, colorMode: colorMode, drawNumber: drawNumber)
        let b = bounds.isNull || bounds.isInfinite ? .zero : bounds
        // The device box: the item's bounds, outset, transformed, plus a pixel for anti-aliased edges.
        let r = b.insetBy(dx: -outset, dy: -outset)
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY),
                       CGPoint(x: r.maxX, y: r.maxY)].map { $0.applying(transform) }
        guard corners.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw RenderError.invalidGeometry("draw #\(drawNumber): mesh gradient bounds \(r) are not finite on the device")
        }
        // Unit space → device: the bounds' rect, then the draw's transform.
        let unitToDevice = CGAffineTransform(a: b.width, b: 0, c: 0, d: b.height, tx: b.minX, ty: b.minY)
            .concatenating(transform)
        let patches = patches(mesh, unitToDevice: unitToDevice)
        // The GPU draws the triangles at 32-bit float positions, which past 2²⁴ px cannot hold whole pixels
        // (and overflow to infinity past 3.4·10³⁸): such a mesh is refused on every backend alike, whether or
        // not it reaches the target.
        for (k, patch) in patches.enumerated() {
            if let p = patch.position.first(where: { !(abs($0.x) <= maxDeviceCoordinate && abs($0.y) <= maxDeviceCoordinate) }) {
                throw RenderError.invalidGeometry("draw #\(drawNumber): mesh gradient patch \(k) reaches (\(fmt(CGFloat(p.x))), "
                    + "\(fmt(CGFloat(p.y)))) on the device, past the ±\(Int(maxDeviceCoordinate)) px a GPU's float positions hold")
            }
        }
        let x0 = max(Double(target.x), (corners.map { Double($0.x) }.min()! - 1).rounded(.down))
        let y0 = max(Double(target.y), (corners.map { Double($0.y) }.min()! - 1).rounded(.down))
        let x1 = min(Double(target.x + target.width), (corners.map { Double($0.x) }.max()! + 1).rounded(.up))
        let y1 = min(Double(target.y + target.height), (corners.map { Double($0.y) }.max()! + 1).rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let box = PixelRect(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
        let triangles = MeshPaint.snapped(tessellate(patches, width: mesh.width, height: mesh.height, box: box))
        let paint = MeshPaint(triangles: triangles, coefficients: patches.map { powerBasis($0.color) }, patches: patches,
                              perceptual: mesh.perceptual, background: SIMD4<Float>(mesh.background), box: box,
                              colorMode: colorMode, mesh: mesh)
        // The paint's identity: one object per draw (each mesh paint is its own image).
        let content = MeshPaintIdentity()
        var image = LoweredImage(pixels: RasterImage(width: 0, height: 0), identity: ObjectIdentifier(content),
                                 deviceToImage: CGAffineTransform(translationX: CGFloat(-box.x), y: CGFloat(-box.y)),
                                 tiled: false, sourceRect: CGRect(x: 0, y: 0, width: box.width, height: box.height),
                                 nearest: true, tint: nil)
        image.decodesSRGB = colorMode != .nonLinear
        image.owner = content
        image.packable = true
        image.mesh = paint
        return image
    }

    /// A mesh checked and its colours converted: positions (unit space) with their edge control points, and
    /// straight colours in the interpolation space.
    package struct Mesh {
        package var width: Int, height: Int
        /// Per vertex: position, leading, top, trailing, bottom (unit space).
        package var vertices: [(p: SIMD2<Double>, leading: SIMD2<Double>, top: SIMD2<Double>,
                                trailing: SIMD2<Double>, bottom: SIMD2<Double>)]
        package var colors: [SIMD4<Double>]
        package var smooth: Bool
        package var perceptual: Bool
        /// Straight, sRGB-encoded (how the paint image stores colour).
        package var background: SIMD4<Double>
    }

    package static func validated(_ m: MeshGradient, colorMode: ColorRenderingMode, drawNumber: Int) throws -> Mesh {
        func bad(_ what: String) -> RenderError { .invalidGeometry("draw #\(drawNumber): mesh gradient \(what)") }
        let w = m.width, h = m.height
        guard w >= 2, h >= 2 else { throw bad("is \(w)×\(h); it needs at least 2 vertices a side") }
        guard w <= maxSide, h <= maxSide else { throw bad("is \(w)×\(h); at most \(maxSide) vertices a side are drawn") }
        let count = w * h
        guard m.vertexCount == count else { throw bad("has \(m.vertexCount) points; \(w)×\(h) needs \(count)") }
        let colors = m.colorList
        guard colors.count == count else { throw bad("has \(colors.count) colours; \(w)×\(h) needs \(count)") }
        func d(_ p: SIMD2<Float>) -> SIMD2<Double> { SIMD2(Double(p.x), Double(p.y)) }
        func finite(_ ps: [SIMD2<Float>], _ k: Int) throws {
            for p in ps where !(p.x.isFinite && p.y.isFinite) {
                throw bad("point \(k) (\(fmt(CGFloat(p.x))), \(fmt(CGFloat(p.y)))) is not finite")
            }
        }
        var vertices: [(p: SIMD2<Double>, leading: SIMD2<Double>, top: SIMD2<Double>, trailing: SIMD2<Double>,
                        bottom: SIMD2<Double>)] = []
        vertices.reserveCapacity(count)
        switch m.locations {
        case .bezierPoints(let bp):
            for (k, v) in bp.enumerated() {
                try finite([v.position, v.leadingControlPoint, v.topControlPoint, v.trailingControlPoint,
                            v.bottomControlPoint], k)
                vertices.append((d(v.position), d(v.leadingControlPoint), d(v.topControlPoint),
                                 d(v.trailingControlPoint), d(v.bottomControlPoint)))
            }
        case .points(let ps):
            for (k, p) in ps.enumerated() { try finite([p], k) }
            let q = ps.map(d)
            for j in 0 ..< h {
                for i in 0 ..< w {
                    let tu = tangent(i, w) { q[j * w + $0] } ?? .zero
                    let tv = tangent(j, h) { q[$0 * w + i] } ?? .zero
                    let p = q[j * w + i]
                    vertices.append((p, p - tu / 3, p - tv / 3, p + tu / 3, p + tv / 3))
                }
            }
        }
        let perceptual = m.colorSpace.isPerceptual
        var straight: [SIMD4<Double>] = []
        straight.reserveCapacity(count)
        for (k, c) in colors.enumerated() {
            var s = c.straight(in: colorMode, linearLight: perceptual)
            if perceptual { s = SIMD4(Oklab.fromLinearSRGB(SIMD3(s.x, s.y, s.z)), s.w) }
            guard s.x.isFinite, s.y.isFinite, s.z.isFinite, s.w.isFinite else { throw bad("colour \(k) \(c) is not finite") }
            straight.append(SIMD4(Double(s.x), Double(s.y), Double(s.z), Double(s.w)))
        }
        let bg = m.background.straight(in: .nonLinear, linearLight: false)
        guard bg.x.isFinite, bg.y.isFinite, bg.z.isFinite, bg.w.isFinite else { throw bad("background \(m.background) is not finite") }
        return Mesh(width: w, height: h, vertices: vertices, colors: straight, smooth: m.smoothsColors,
                    perceptual: perceptual, background: SIMD4(Double(bg.x), Double(bg.y), Double(bg.z), Double(bg.w)))
    }

    /// The Catmull-Rom tangent at index `i` of `n` along a line of values: the central difference inside, the
    /// one-sided difference at the ends.
    static func tangent<V: SIMD>(_ i: Int, _ n: Int, _ value: (Int) -> V) -> V? where V.Scalar == Double {
        if i == 0 { return value(1) - value(0) }
        if i == n - 1 { return value(n - 1) - value(n - 2) }
        return (value(i + 1) - value(i - 1)) / 2
    }

    // MARK: Patches

    /// A patch's 4 × 4 Bezier control net, `[k + 4 l]` with k along the row (u), l down the column (v).
    package struct Patch {
        package var position: [SIMD2<Double>]
        package var color: [SIMD4<Double>]
    }

    /// Patch (i, j) of `mesh`, its positions mapped by `unitToDevice`.
    package static func patch(_ mesh: Mesh, _ i: Int, _ j: Int, unitToDevice t: CGAffineTransform) -> Patch {
        let w = mesh.width, h = mesh.height
        func dev(_ p: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(Double(t.a) * p.x + Double(t.c) * p.y + Double(t.tx), Double(t.b) * p.x + Double(t.d) * p.y + Double(t.ty))
        }
        let v00 = mesh.vertices[j * w + i], v10 = mesh.vertices[j * w + i + 1]
        let v01 = mesh.vertices[(j + 1) * w + i], v11 = mesh.vertices[(j + 1) * w + i + 1]
        var p = [SIMD2<Double>](repeating: .zero, count: 16)
        p[0] = v00.p; p[1] = v00.trailing; p[2] = v10.leading; p[3] = v10.p
        p[12] = v01.p; p[13] = v01.trailing; p[14] = v11.leading; p[15] = v11.p
        p[4] = v00.bottom; p[8] = v01.top; p[7] = v10.bottom; p[11] = v11.top
        p = p.map(dev)
        zeroTwist(&p)

        var c = [SIMD4<Double>](repeating: .zero, count: 16)
        let c00 = mesh.colors[j * w + i], c10 = mesh.colors[j * w + i + 1]
        let c01 = mesh.colors[(j + 1) * w + i], c11 = mesh.colors[(j + 1) * w + i + 1]
        if mesh.smooth {
            // Hermite: Catmull-Rom derivatives inside the mesh, zero at its edges.
            func du(_ a: Int, _ b: Int) -> SIMD4<Double> {
                a == 0 || a == w - 1 ? .zero : (mesh.colors[b * w + a + 1] - mesh.colors[b * w + a - 1]) / 2
            }
            func dv(_ a: Int, _ b: Int) -> SIMD4<Double> {
                b == 0 || b == h - 1 ? .zero : (mesh.colors[(b + 1) * w + a] - mesh.colors[(b - 1) * w + a]) / 2
            }
            c[0] = c00; c[3] = c10; c[12] = c01; c[15] = c11
            c[1] = c00 + du(i, j) / 3; c[2] = c10 - du(i + 1, j) / 3
            c[13] = c01 + du(i, j + 1) / 3; c[14] = c11 - du(i + 1, j + 1) / 3
            c[4] = c00 + dv(i, j) / 3; c[8] = c01 - dv(i, j + 1) / 3
            c[7] = c10 + dv(i + 1, j) / 3; c[11] = c11 - dv(i + 1, j + 1) / 3
            zeroTwist(&c)
        } else {
            // Bilinear, written as a bicubic net (degree elevation) so both evaluate alike.
            for l in 0 ..< 4 {
                for k in 0 ..< 4 {
                    let u = Double(k) / 3, v = Double(l) / 3
                    let top = c00 + (c10 - c00) * u, bottom = c01 + (c11 - c01) * u
                    c[k + 4 * l] = top + (bottom - top) * v
                }
            }
        }
        return Patch(position: p, color: c)
    }

    static func zeroTwist<V: SIMD>(_ b: inout [V]) where V.Scalar == Double {
        b[5] = b[1] + b[4] - b[0]
        b[6] = b[2] + b[7] - b[3]
        b[9] = b[8] + b[13] - b[12]
        b[10] = b[11] + b[14] - b[15]
    }

    /// The Bernstein weights of a cubic at t.
    @inline(__always)
    static func bernstein(_ t: Double) -> SIMD4<Double> {
        let s = 1 - t
        return SIMD4(s * s * s, 3 * t * s * s, 3 * t * t * s, t * t * t)
    }

    /// The net's value at (u, v).
    package static func evaluate<V: SIMD>(_ net: [V], _ u: Double, _ v: Double) -> V where V.Scalar == Double {
        let bu = bernstein(u), bv = bernstein(v)
        var out = V()
        for l in 0 ..< 4 {
            var row = V()
            for k in 0 ..< 4 { row += net[k + 4 * l] * bu[k] }
            out += row * bv[l]
        }
        return out
    }

    /// The largest second differences of a net along u, along v and mixed (each channel's, largest).
    static func secondDifferences<V: SIMD>(_ b: [V], magnitude: (V) -> Double) -> Double where V.Scalar == Double {
        var uu = 0.0, vv = 0.0, uv = 0.0
        for l in 0 ..< 4 {
            for k in 0 ..< 2 {
                uu = max(uu, magnitude(b[k + 2 + 4 * l] - 2 * b[k + 1 + 4 * l] + b[k + 4 * l]))
                vv = max(vv, magnitude(b[l + 4 * (k + 2)] - 2 * b[l + 4 * (k + 1)] + b[l + 4 * k]))
            }
        }
        for l in 0 ..< 3 {
            for k in 0 ..< 3 {
                uv = max(uv, magnitude(b[k + 1 + 4 * (l + 1)] - b[k + 1 + 4 * l] - b[k + 4 * (l + 1)] + b[k + 4 * l]))
            }
        }
        return 6 * uu + 18 * uv + 6 * vv
    }

    /// Cells a side for `patch`: the fewest that keep its triangles within `positionTolerance` of the surface.
    package static func subdivisions(_ patch: Patch) -> Int {
        let need = (secondDifferences(patch.position) { ($0 * $0).sum().squareRoot() } / (8 * positionTolerance)).squareRoot()
        // Never finer than a quarter of a device pixel (the control net's extent × 4), which no pixel centre
        // can tell apart.
        let xs = patch.position.map(\.x), ys = patch.position.map(\.y)
        let extent = max(xs.max()! - xs.min()!, ys.max()! - ys.min()!)
        let cap = (4 * extent).rounded(.up)
        // A net whose device positions overflow to infinity has no surface to follow (its triangles are skipped).
        guard need.isFinite, cap.isFinite else { return 1 }
        let n = min(need, cap, Double(maxSubdivisions))
        return max(1, Int(n.rounded(.up)))
    }

    /// The colour net in the power basis, `[k + 4 l]` the coefficient of uᵏ vˡ: c(u, v) = Σ uᵏ vˡ P[k + 4 l].
    package static func powerBasis(_ net: [SIMD4<Double>]) -> [SIMD4<Float>] {
        // Bernstein → monomial: row k holds the weights of b0…b3 in the coefficient of tᵏ.
        let m: [[Double]] = [[1, 0, 0, 0], [-3, 3, 0, 0], [3, -6, 3, 0], [-1, 3, -3, 1]]
        var out = [SIMD4<Float>](repeating: .zero, count: 16)
        for l in 0 ..< 4 {
            for k in 0 ..< 4 {
                var c = SIMD4<Double>.zero
                for j in 0 ..< 4 where m[l][j] != 0 {
                    for i in 0 ..< 4 where m[k][i] != 0 { c += net[i + 4 * j] * (m[k][i] * m[l][j]) }
                }
                out[k + 4 * l] = SIMD4<Float>(c)
            }
        }
        return out
    }

    /// A triangle of patch `patch` in device space, with each corner's patch parameters (u, v).
    package struct Triangle {
        package var p0, p1, p2: SIMD2<Double>
        package var t0, t1, t2: SIMD2<Double>
        package var patch: Int
    }

    /// Cells a mesh may be cut into at most (2¹⁹ cells, 1 Mi triangles of 104 bytes): past it every column's
    /// and row's count is scaled down alike, trading accuracy for a bounded cost on pathological meshes (a
    /// 256 × 256 mesh of bent patches; a 6 × 6 mesh at 64 cells a side is 10⁵).
    package static let maxCells = 1 << 19

    /// Cells a side for each column and each row of patches: the most any patch in it needs, so that
    /// neighbouring patches cut their shared edge at the same parameters (no T-junction, no crack).
    package static func subdivisions(_ patches: [Patch], width: Int, height: Int) -> (columns: [Int], rows: [Int]) {
        var columns = [Int](repeating: 1, count: width - 1), rows = [Int](repeating: 1, count: height - 1)
        for j in 0 ..< height - 1 {
            for i in 0 ..< width - 1 {
                let n = subdivisions(patches[j * (width - 1) + i])
                columns[i] = max(columns[i], n)
                rows[j] = max(rows[j], n)
            }
        }
        let cells = Double(columns.reduce(0, +)) * Double(rows.reduce(0, +))
        if cells > Double(maxCells) {
            let k = (Double(maxCells) / cells).squareRoot()
            columns = columns.map { max(1, Int(Double($0) * k)) }
            rows = rows.map { max(1, Int(Double($0) * k)) }
        }
        return (columns, rows)
    }

    /// The mesh's patches, row by row.
    package static func patches(_ mesh: Mesh, unitToDevice: CGAffineTransform) -> [Patch] {
        var out: [Patch] = []
        out.reserveCapacity((mesh.width - 1) * (mesh.height - 1))
        for j in 0 ..< mesh.height - 1 {
            for i in 0 ..< mesh.width - 1 { out.append(patch(mesh, i, j, unitToDevice: unitToDevice)) }
        }
        return out
    }

    /// The patches' surfaces as triangles, patch by patch, row by row; a patch whose control net (which holds
    /// the patch) lies wholly outside `box` gives none.
    package static func tessellate(_ patches: [Patch], width: Int, height: Int, box: PixelRect? = nil) -> [Triangle] {
        let (columns, rows) = subdivisions(patches, width: width, height: height)
        var out: [Triangle] = []
        out.reserveCapacity(2 * columns.reduce(0, +) * rows.reduce(0, +))
        var ps: [SIMD2<Double>] = [], ts: [SIMD2<Double>] = []
        for j in 0 ..< height - 1 {
            for i in 0 ..< width - 1 {
                let k = j * (width - 1) + i
                let patch = patches[k]
                if let box {
                    let xs = patch.position.map(\.x), ys = patch.position.map(\.y)
                    if xs.max()! < Double(box.x) || xs.min()! > Double(box.x + box.width)
                        || ys.max()! < Double(box.y) || ys.min()! > Double(box.y + box.height) { continue }
                }
                let nu = columns[i], nv = rows[j]
                ps.removeAll(keepingCapacity: true); ts.removeAll(keepingCapacity: true)
                for b in 0 ... nv {
                    for a in 0 ... nu {
                        let t = SIMD2(Double(a) / Double(nu), Double(b) / Double(nv))
                        ps.append(evaluate(patch.position, t.x, t.y))
                        ts.append(t)
                    }
                }
                for b in 0 ..< nv {
                    for a in 0 ..< nu {
                        let k00 = b * (nu + 1) + a, k10 = k00 + 1, k01 = k00 + nu + 1, k11 = k01 + 1
                        out.append(Triangle(p0: ps[k00], p1: ps[k10], p2: ps[k11], t0: ts[k00], t1: ts[k10], t2: ts[k11], patch: k))
                        out.append(Triangle(p0: ps[k00], p1: ps[k11], p2: ps[k01], t0: ts[k00], t1: ts[k11], t2: ts[k01], patch: k))
                    }
                }
            }
        }
        return out
    }

    /// The mesh's colours at the pixel centres of `box` (background where no triangle covers), premultiplied
    /// RGBA8, sRGB-encoded (decoded again by the image sampler on a linear-light canvas). A covered pixel's
    /// (u, v) is interpolated across its triangle and its colour is the patch's colour surface there, exactly.
    package static func rasterize(_ triangles: [Triangle], patches: [Patch], mesh: Mesh, box: PixelRect,
                                  colorMode: ColorRenderingMode) -> RasterImage {
        let w = box.width, h = box.height
        let coefficients = patches.map { powerBasis($0.color) }
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        // Bands of rows on the cores (each band walks every triangle, clipped to its rows; the bands write
        // disjoint pixels); one band for a small image, where a thread costs more than it saves.
        let bands = w * h >= 1 << 12 ? min(ParallelWork.workers, h) : 1
        bytes.withUnsafeMutableBufferPointer { out in
            let shared = UncheckedSendable(out)
            parallelForEach(bands) { band in
                let rows = (h * band / bands) ..< (h * (band + 1) / bands)
                rasterize(triangles, coefficients: coefficients, mesh: mesh, box: box, rows: rows,
                          colorMode: colorMode, into: shared.value)
            }
        }
        return RasterImage(width: w, height: h, pixels: bytes)
    }

    /// Rows `rows` of `rasterize`'s image, into `out` (premultiplied RGBA8, the whole image's buffer).
    static func rasterize(_ triangles: [Triangle], coefficients: [[SIMD4<Float>]], mesh: Mesh, box: PixelRect,
                          rows: Range<Int>, colorMode: ColorRenderingMode, into out: UnsafeMutableBufferPointer<UInt8>) {
        guard !rows.isEmpty else { return }
        let w = box.width, top = rows.lowerBound
        var colors = [SIMD4<Float>](repeating: .zero, count: w * rows.count)
        var covered = [Bool](repeating: false, count: w * rows.count)
        let ox = Double(box.x), oy = Double(box.y)
        colors.withUnsafeMutableBufferPointer { colors in
        covered.withUnsafeMutableBufferPointer { covered in
        for t in triangles {
            let area = (t.p1.x - t.p0.x) * (t.p2.y - t.p0.y) - (t.p2.x - t.p0.x) * (t.p1.y - t.p0.y)
            guard area != 0, area.isFinite else { continue }
            let xmin = min(t.p0.x, t.p1.x, t.p2.x) - ox, xmax = max(t.p0.x, t.p1.x, t.p2.x) - ox
            let ymin = min(t.p0.y, t.p1.y, t.p2.y) - oy, ymax = max(t.p0.y, t.p1.y, t.p2.y) - oy
            // Pixels whose centres (x + ½) can lie inside.
            guard xmax >= 0.5, ymax >= Double(rows.lowerBound) + 0.5, xmin <= Double(w) - 0.5,
                  ymin <= Double(rows.upperBound) - 0.5 else { continue }
            // Clamped in Double before the conversion: a triangle may reach far past Int's range.
            let i0 = Int(max(0, (xmin - 0.5).rounded(.up))), i1 = Int(min(Double(w - 1), (xmax - 0.5).rounded(.down)))
            let j0 = Int(max(Double(rows.lowerBound), (ymin - 0.5).rounded(.up)))
            let j1 = Int(min(Double(rows.upperBound - 1), (ymax - 0.5).rounded(.down)))
            guard i0 <= i1, j0 <= j1 else { continue }
            let sign: Double = area > 0 ? 1 : -1
            let c = coefficients[t.patch]
            // The signed area of (a, b, p). Two triangles sharing the edge a–b compute it from the same two
            // products in opposite order, so exactly negated; with positions on the 1/256 px grid
            // (`MeshPaint.snapped`) it is exact, and a pixel centre on an edge belongs to the triangle for which
            // the edge is a top or left one (`MeshPaint.ownsEdge`), as a GPU's rasterizer decides: in exactly
            // one of two triangles sharing it.
            @inline(__always) func edge(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ px: Double, _ py: Double) -> Double {
                (a.x - px) * (b.y - py) - (b.x - px) * (a.y - py)
            }
            let owns0 = MeshPaint.ownsEdge(t.p1, t.p2, sign), owns1 = MeshPaint.ownsEdge(t.p2, t.p0, sign)
            let owns2 = MeshPaint.ownsEdge(t.p0, t.p1, sign)
            for j in j0 ... j1 {
                let py = oy + Double(j) + 0.5
                for i in i0 ... i1 {
                    let px = ox + Double(i) + 0.5
                    let e0 = sign * edge(t.p1, t.p2, px, py), e1 = sign * edge(t.p2, t.p0, px, py)
                    let e2 = sign * edge(t.p0, t.p1, px, py)
                    guard e0 > 0 || (e0 == 0 && owns0), e1 > 0 || (e1 == 0 && owns1),
                          e2 > 0 || (e2 == 0 && owns2) else { continue }
                    let sum = e0 + e1 + e2
                    guard sum > 0 else { continue }
                    // Barycentric (u, v), then the bicubic by Horner's rule in u, then in v.
                    let uv = (t.t0 * e0 + t.t1 * e1 + t.t2 * e2) / sum
                    let u = Float(uv.x), v = Float(uv.y)
                    let r0 = ((c[3] * u + c[2]) * u + c[1]) * u + c[0]
                    let r1 = ((c[7] * u + c[6]) * u + c[5]) * u + c[4]
                    let r2 = ((c[11] * u + c[10]) * u + c[9]) * u + c[8]
                    let r3 = ((c[15] * u + c[14]) * u + c[13]) * u + c[12]
                    let k = (j - top) * w + i
                    colors[k] = ((r3 * v + r2) * v + r1) * v + r0
                    covered[k] = true
                }
            }
        }
        }
        }
        let background = store(SIMD4<Float>(mesh.background))
        for k in 0 ..< w * rows.count {
            let p = covered[k] ? store(encoded(colors[k], perceptual: mesh.perceptual, colorMode: colorMode)) : background
            let o = (top * w + k) * 4
            out[o] = p.x; out[o + 1] = p.y; out[o + 2] = p.z; out[o + 3] = p.w
        }
    }

    /// Straight sRGB-encoded colour → premultiplied bytes (clamped, rounded to nearest).
    @inline(__always)
    static func store(_ s: SIMD4<Float>) -> SIMD4<UInt8> {
        let a = min(max(s.w, 0), 1)
        let rgb = SIMD3<Float>(min(max(s.x, 0), 1), min(max(s.y, 0), 1), min(max(s.z, 0), 1)) * a
        let q = SIMD4<Float>(rgb, a) * 255 + 0.5
        // Scalar conversions: the SIMD integer initializers take a generic, far slower path.
        return SIMD4<UInt8>(UInt8(q.x), UInt8(q.y), UInt8(q.z), UInt8(q.w))
    }

    /// An interpolated colour → straight sRGB-encoded components, clamped.
    package static func encoded(_ c: SIMD4<Float>, perceptual: Bool, colorMode: ColorRenderingMode) -> SIMD4<Float> {
        var rgb = SIMD3(c.x, c.y, c.z)
        var linear = colorMode != .nonLinear
        if perceptual {
            rgb = Oklab.toLinearSRGB(rgb)
            linear = true
        }
        rgb = SIMD3(min(max(rgb.x, 0), 1), min(max(rgb.y, 0), 1), min(max(rgb.z, 0), 1))
        if linear {
            rgb = SIMD3(Float(ColorTransfer.encode(Double(rgb.x))), Float(ColorTransfer.encode(Double(rgb.y))),
                        Float(ColorTransfer.encode(Double(rgb.z))))
        }
        return SIMD4(rgb, c.w)
    }
}
