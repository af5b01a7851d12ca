// A mesh gradient's paint as both backends receive it (see the design note of MeshGradientPaint.swift): the
// shared lowering's tessellation and per-patch colour surfaces over the draw's device box, not yet pixels.
// The reference makes its paint image with `rasterized()` (the formula's one CPU implementation); the GLES
// backend draws the same triangles with `mesh_paint.glsl` into a region of a shared texture and never calls it.

import Foundation

package struct MeshPaint {
    /// Device-space triangles with each corner's patch parameters (u, v), patch by patch, row by row.
    package var triangles: [MeshGradientResolution.Triangle]
    /// Per patch, the colour surface in the power basis: `[k + 4 l]` the coefficient of uᵏ vˡ, straight colour
    /// in the interpolation space (Oklab when `perceptual`, else the working space).
    package var coefficients: [[SIMD4<Float>]]
    /// The patches' control nets (the reference's rasterization takes them).
    package var patches: [MeshGradientResolution.Patch]
    /// Colours are Oklab: converted to linear sRGB after interpolation.
    package var perceptual: Bool
    /// Straight, sRGB-encoded: the colour of the box's pixels no triangle covers.
    package var background: SIMD4<Float>
    /// The device pixels the paint image covers (its texel (0, 0) is the box's top-left pixel).
    package var box: PixelRect
    /// The canvas's mode: a linear-light canvas's paint image is stored sRGB-encoded (decoded by the sampler).
    package var colorMode: ColorRenderingMode
    /// The checked mesh (for `rasterized()`).
    var mesh: MeshGradientResolution.Mesh

    /// Paint images made by `rasterized()` since the process started (tests: a GLES frame makes none).
    package static var rasterizations: Int { counter.withLock { $0 } }
    private static let counter = LockedCounter()

    /// The paint image: premultiplied RGBA8 over `box`, sRGB-encoded (`MeshGradientResolution.rasterize`).
    package func rasterized() -> RasterImage {
        Self.counter.withLock { $0 += 1 }
        return MeshGradientResolution.rasterize(triangles, patches: patches, mesh: mesh, box: box, colorMode: colorMode)
    }
}

private final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func withLock<T>(_ body: (inout Int) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

extension LoweredImage {
    /// The image's size in texels: a mesh paint's box before it has pixels.
    package var width: Int { mesh?.box.width ?? pixels.width }
    package var height: Int { mesh?.box.height ?? pixels.height }

    /// The image with its pixels: a mesh paint rasterized (the reference), any other as it is.
    package func withPixels() -> LoweredImage {
        guard let m = mesh else { return self }
        var out = self
        out.pixels = m.rasterized()
        out.mesh = nil
        return out
    }
}

/// The object a mesh paint's `LoweredImage.identity` names (kept alive by its `owner`).
final class MeshPaintIdentity {}

extension MeshPaint {
    /// Sub-pixel positions a side of a device pixel: what GPU rasterizers snap vertices to (llvmpipe's
    /// FIXED_ORDER; GL_SUBPIXEL_BITS is 8 on common hardware too).
    package static let subpixels = 256.0

    /// `triangles` with their positions on the 1/`subpixels` px grid: the GPU rasterizes the same triangles the
    /// reference does, and both decide whether a pixel centre is inside exactly (the edge functions of such
    /// positions are exact in Double and in the GPU's fixed point).
    package static func snapped(_ triangles: [MeshGradientResolution.Triangle]) -> [MeshGradientResolution.Triangle] {
        func snap(_ p: SIMD2<Double>) -> SIMD2<Double> { (p * subpixels).rounded(.toNearestOrEven) / subpixels }
        return triangles.map {
            var t = $0
            (t.p0, t.p1, t.p2) = (snap(t.p0), snap(t.p1), snap(t.p2))
            return t
        }
    }

    /// Whether a pixel centre on edge a → b belongs to the triangle (`sign`: its orientation, +1 or −1): the
    /// top-left rule in device space (y down), the edge's inward normal n pointing right (a left edge) or, on a
    /// horizontal edge, down (a top edge).
    @inline(__always)
    package static func ownsEdge(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ sign: Double) -> Bool {
        let nx = sign * (a.y - b.y), ny = sign * (b.x - a.x)
        return nx > 0 || (nx == 0 && ny > 0)
    }
}
