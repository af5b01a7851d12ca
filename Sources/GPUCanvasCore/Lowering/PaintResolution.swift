// Paint resolution: a recorded gradient (user space, `Color` stops) → a `GradientPaint` (device space, stops
// in the interpolation space), the one both backends evaluate (the reference in `GradientFormulas.swift`, the
// GPU in `gradient.glsl`).
//
// Decisions (docs/api-status.md):
// - stops are sorted by location (stable, so equal locations keep their order and make a hard edge) and
//   their locations clamped to 0…1; colours interpolate straight (unpremultiplied), in the working space
//   (sRGB-encoded for `.nonLinear`) or, with `.linearColor`, in linear light;
// - `.mirror` wins over `.repeat`;
// - a gradient without stops paints nothing; one stop paints its colour everywhere;
// - `Gradient.ColorSpace.perceptual` interpolates straight colour in Oklab (Ottosson's perceptual space), then
//   converts back to linear sRGB and the working space (`.linearColor` has no further effect then);
// - an `AngularGradient` whose angles span less than a turn is a conic gradient whose stops are squeezed
//   into that span (the rest of the turn pads with the end colours); a negative span turns the other way.

import Foundation

package enum GradientResolution {
    /// The device-space paint of `g` drawn with `transform` (user → device) in `colorMode`; nil when it paints
    /// nothing (no stops, a degenerate mapping).
    ///
    /// A linear gradient (0, 0) → (10, 0) at scale 2 → `GradientPaint(.linear((0, 0) → (10, 0)),
    /// gradientFromDevice: scale 0.5)`.
    /// `canvas`: the target's pixels, which the precision limits below are measured over.
    package static func resolve(_ g: GradientShading, transform: CGAffineTransform, colorMode: ColorRenderingMode,
                        canvas: PixelRect, drawNumber: Int) throws -> GradientPaint? {
        func bad(_ what: String) -> RenderError { .invalidGeometry("draw #\(drawNumber): gradient \(what)") }
        guard !g.stops.isEmpty else { return nil }
        guard g.stops.count <= GradientPaint.maxStops else {
            throw bad("has \(g.stops.count) stops; at most \(GradientPaint.maxStops) are drawn")
        }
        let perceptual = g.colorSpace.isPerceptual
        let linear = g.options.contains(.linearColor) && !perceptual
        var stops: [GradientPaint.Stop] = []
        for (i, s) in g.stops.enumerated() {
            guard s.location.isFinite else { throw bad("stop \(i) location \(s.location) is not finite") }
            var c = s.color.straight(in: colorMode, linearLight: linear || perceptual)
            if perceptual {
                let lab = Oklab.fromLinearSRGB(SIMD3(c.x, c.y, c.z))
                c = SIMD4(lab, c.w)
            }
            guard c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else {
                throw bad("stop \(i) colour \(s.color) is not finite")
            }
            stops.append(GradientPaint.Stop(location: Float(min(max(s.location, 0), 1)), color: c))
        }
        // Stable sort: equal locations keep their recorded order.
        stops = stops.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }.map(\.element)

        var toUser = g.gradientToUser
        let geometry: GradientPaint.Geometry
        func point(_ p: CGPoint, _ what: String) throws -> SIMD2<Double> {
            guard p.x.isFinite, p.y.isFinite else { throw bad("\(what) (\(p.x), \(p.y)) is not finite") }
            return SIMD2(Double(p.x), Double(p.y))
        }
        func radius(_ r: CGFloat, _ what: String) throws -> Double {
            guard r.isFinite else { throw bad("\(what) \(r) is not finite") }
            guard r >= 0 else { throw bad("\(what) \(r) is negative") }
            return Double(r)
        }
        switch g.geometry {
        case .linear(let s, let e):
            geometry = .linear(start: try point(s, "start point"), end: try point(e, "end point"))
        case .radial(let c0, let r0, let c1, let r1):
            geometry = .radial(startCenter: try point(c0, "start centre"), startRadius: try radius(r0, "start radius"),
                               endCenter: try point(c1, "end centre"), endRadius: try radius(r1, "end radius"))
        case .conic(let c, let a0, let a1):
            let center = try point(c, "centre")
            guard a0.isFinite, a1.isFinite else { throw bad("angles \(a0), \(a1) are not finite") }
            var span = a1 - a0
            // Whole turns of the start angle change nothing: reduce it here, exactly (fmod), so that both
            // backends start from the same angle however large it was (−10¹³¹ rad: found by the fuzzer).
            let a0 = a0.truncatingRemainder(dividingBy: 2 * Double.pi)
            if span < 0 {
                // Anticlockwise: mirror gradient space across the start angle's line through the centre.
                span = -span
                let ca = cos(2 * a0), sa = sin(2 * a0)
                let reflect = CGAffineTransform(translationX: -c.x, y: -c.y)
                    .concatenating(CGAffineTransform(a: ca, b: sa, c: sa, d: -ca, tx: 0, ty: 0))
                    .concatenating(CGAffineTransform(translationX: c.x, y: c.y))
                toUser = reflect.concatenating(toUser)
            }
            let turn = 2 * Double.pi
            if span > 0, span < turn {
                let k = Float(span / turn)
                stops = stops.map { GradientPaint.Stop(location: $0.location * k, color: $0.color) }
            }
            geometry = .conic(center: center, angle: a0)
        }
        guard toUser.isFinite else { throw bad("mapping \(toUser) is not finite") }
        let toDevice = toUser.concatenating(transform)
        let det = toDevice.a * toDevice.d - toDevice.b * toDevice.c
        guard det != 0, det.isFinite else { return nil }  // the drawn item has no area either
        // A radial or conic gradient under a map that squashes one axis by more than float's precision (a
        // transform scaling y by 10⁻¹²: found by the fuzzer) cannot be evaluated in float: the GPU's distance
        // from the centre comes out of numbers 10¹² apart. Both backends refuse it.
        // (A linear gradient's t is one affine function, carried exactly split; its map's shape does not matter.)
        var isLinear = false
        if case .linear = geometry { isLinear = true }
        if !isLinear, Self.condition(toDevice) > Self.maximumCondition {
            throw bad("is squashed \(fmt(CGFloat(Self.condition(toDevice))))-fold in one direction, more than a GPU evaluates in float (\(fmt(CGFloat(Self.maximumCondition))))")
        }
        let spread: GradientPaint.Spread = g.options.contains(.mirror) ? .mirror : g.options.contains(.repeat) ? .repeat : .pad
        var paint = GradientPaint(geometry: geometry, gradientFromDevice: toDevice.inverted(), stops: stops,
                                  spread: spread, interpolatesLinearLight: linear,
                                  workingSpaceIsEncoded: colorMode == .nonLinear)
        paint.interpolatesOklab = perceptual
        // The GPU evaluates in Float: numbers past its range (a radius of 1e308) would become infinities there
        // while the reference still computes in Double. Both refuse them instead (found by the fuzzer).
        guard paint.packedTexels().allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite }) else {
            throw bad("numbers are beyond the range a GPU evaluates gradients in (±3.4e38 after mapping to device pixels)")
        }
        let corners = [(canvas.x, canvas.y), (canvas.x + canvas.width, canvas.y), (canvas.x, canvas.y + canvas.height),
                       (canvas.x + canvas.width, canvas.y + canvas.height)].map { SIMD2(Double($0.0), Double($0.1)) }
        func device(_ q: SIMD2<Double>) -> SIMD2<Double> {
            SIMD2(Double(toDevice.a) * q.x + Double(toDevice.c) * q.y + Double(toDevice.tx),
                  Double(toDevice.b) * q.x + Double(toDevice.d) * q.y + Double(toDevice.ty))
        }
        func length(_ v: SIMD2<Double>) -> Double { (v * v).sum().squareRoot() }
        // Gradient units → device pixels, at most (the map's largest axis).
        let stretch = Self.largestStretch(toDevice)
        switch geometry {
        case .linear(let s, let e) where spread != .pad:
            // A ramp shorter than float can place: the GPU's t is off by 2⁻²⁴·258·|∇t| (GradientFormulas.swift's
            // bound), whole periods below about 10⁻⁵ px, and the reference's centre samples are aliased noise there.
            // The device distance between the t = 0 and t = 1 lines: 1 / |∇t|, ∇t = Mᵀ·(e − s)/|e − s|² with M
            // the device → gradient map (under a skew it is shorter than the device length of start → end).
            let m = paint.gradientFromDevice, dir = e - s, len2 = (dir * dir).sum()
            let gradient = SIMD2((Double(m.a) * dir.x + Double(m.b) * dir.y) / len2, (Double(m.c) * dir.x + Double(m.d) * dir.y) / len2)
            let ramp = len2 > 0 ? 1 / length(gradient) : .infinity
            if ramp < Self.minimumRepeatedRamp {
                throw bad("repeats every \(fmt(CGFloat(ramp))) px, shorter than the \(fmt(CGFloat(Self.minimumRepeatedRamp))) px a GPU places in float")
            }
        case .radial(let c0, let r0, let c1, let r1) where c0 != c1:
            // Every distance the two-point quadratic meets, in device pixels: the radii, and the centres seen from
            // the canvas's corners. Float's b² − a·c cancels numbers of this size squared.
            let reach = max(r0 * stretch, r1 * stretch,
                            corners.map { max(length($0 - device(c0)), length($0 - device(c1))) }.max()!)
            if reach > Self.maximumTwoPointReach {
                throw bad("reaches \(fmt(CGFloat(reach))) px from the canvas (centres and radii), more than the \(fmt(CGFloat(Self.maximumTwoPointReach))) px a GPU evaluates a two-point radial gradient over in float")
            }
            // A cone thinner than float places (both radii 0 is a line) covers a sliver of any pixel, which centre
            // sampling turns into dots wherever rounding puts its edges: it paints nothing on both backends.
            let axis = c1 - c0, a = (axis * axis).sum() - (r1 - r0) * (r1 - r0)
            if a > 0 {
                let ts = corners.map { ((paint.gradientPoint($0) - c0) * axis).sum() / (axis * axis).sum() }
                let widest = [ts.min()!, ts.max()!, 0, 1].map { max(r0 + $0 * (r1 - r0), 0) }.max()! * stretch
                if widest < Self.minimumConeRadius { return nil }
            }
        default: break
        }
        // A repeated or mirrored ring pattern seen from far away: float carries t ≈ 25·2⁻²⁴·|t| off
        // (GradientFormulas.swift's bound), a sizeable share of a period past 65 536 periods from the centre, so
        // the GPU could not place the rings the reference draws. Counted to the farthest corner of the canvas,
        // whether the centre is far away (the fuzzer's rings 1 unit apart 10⁷ units out) or on the canvas
        // (rings 10⁻⁵ apart). Both refuse it.
        if spread != .pad, case .radial(let c0, let r0, let c1, let r1) = geometry, c0 != c1 || r0 != r1 {
            let period = c0 == c1 ? abs(r1 - r0) : max(abs(r1 - r0), length(c1 - c0))
            let far = corners.map { length(paint.gradientPoint($0) - c0) }.max()!
            let repeats = (far - (c0 == c1 ? r0 : 0)) / period
            if repeats > Self.maximumRepeatsFromCentre {
                let count = repeats < 1e15 ? String(Int(repeats.rounded())) : "\(repeats)"
                throw bad("rings repeat \(count) times between the centre and the canvas, more than the \(Int(Self.maximumRepeatsFromCentre)) a GPU can place")
            }
        }
        return paint
    }

    /// The shortest ramp (device px, t from 0 to 1) of a repeated or mirrored linear gradient. Measured on
    /// llvmpipe over a 48² canvas: the GPU and the reference agree (maxDiff ≤ 2, bar's seam ties apart) from
    /// 8·10⁻⁶ px up and differ over most pixels below 2·10⁻⁶; 2⁻¹⁰ px keeps a margin of 100, where the
    /// float bound is 1.6 % of a period.
    package static let minimumRepeatedRamp = 1.0 / 1024

    /// The largest distance (device px) a two-point radial gradient's radii or centres may reach from the
    /// canvas. Measured on llvmpipe: whole rows differ from 10⁴ px (a start centre 10⁶ px away, a start radius
    /// 7·10⁴); below that the two backends differ only at a cone's edge (a few pixels at 255 from a start
    /// centre 2000 px from a 200² canvas, as before this rule), where the edge passes within float's error of
    /// a pixel centre: a paint tie (docs/DESIGN-NOTES.md). 8192 keeps every gradient of a canvas up to 5800 px
    /// across drawable: an ordinary two-point gradient over a 2400 × 1260 px card reaches 2460 px and agrees
    /// within 1 level.
    package static let maximumTwoPointReach = 8192.0

    /// A two-point radial gradient's cone whose radius stays below this (device px) over the canvas paints
    /// nothing. Measured: with radii 0…0.01 px the GPU and the reference disagree on pixel centres about 0.01 px
    /// from the cone's line; from 0.03 px on they agree. 1/16 px keeps a margin of 2; such a cone covers at most
    /// 1/8 of any pixel.
    package static let minimumConeRadius = 1.0 / 16

    /// The longest axis of the unit circle under `m`'s linear part.
    package static func largestStretch(_ m: CGAffineTransform) -> Double {
        let (a, b, c, d) = (Double(m.a), Double(m.b), Double(m.c), Double(m.d))
        let f2 = a * a + b * b + c * c + d * d, det = abs(a * d - b * c)
        return ((f2 + (max(0, f2 * f2 - 4 * det * det)).squareRoot()) / 2).squareRoot()
    }

    /// The largest ratio of a radial or conic gradient map's two axes (its condition number): float's 2²⁴.
    package static let maximumCondition: Double = 16_777_216

    /// The ratio of the longest to the shortest axis the linear part of `m` maps the unit circle to.
    package static func condition(_ m: CGAffineTransform) -> Double {
        let (a, b, c, d) = (Double(m.a), Double(m.b), Double(m.c), Double(m.d))
        let f2 = a * a + b * b + c * c + d * d, det = abs(a * d - b * c)
        let big = ((f2 + (max(0, f2 * f2 - 4 * det * det)).squareRoot()) / 2).squareRoot()
        return det > 0 ? big * big / det : .infinity
    }

    /// The most periods of a repeated or mirrored radial gradient between its centre and the canvas.
    package static let maximumRepeatsFromCentre: Double = 65536
}

extension Color {
    /// Straight (unpremultiplied) RGBA in a canvas's working space, or in linear light when `linearLight`;
    /// clamped to 0…1 except in `.extendedLinear`.
    ///
    /// `Color.red.straight(in: .nonLinear, linearLight: false)` → (1, 0.2314, 0.1882, 1).
    package func straight(in mode: ColorRenderingMode, linearLight: Bool) -> SIMD4<Float> {
        // Non-finite: unclamped, for the caller's finiteness check (as `premultiplied(in:)`).
        guard hasFiniteComponents else { return SIMD4(Float(red), Float(green), Float(blue), Float(alpha)) }
        let a = min(max(alpha, 0), 1)
        var c: (Double, Double, Double)
        if mode == .nonLinear && !linearLight {
            if space == .sRGB {
                c = (red, green, blue)
            } else {
                let l = linearSRGB
                c = (ColorTransfer.encode(l.r), ColorTransfer.encode(l.g), ColorTransfer.encode(l.b))
            }
        } else {
            let l = linearSRGB
            c = (l.r, l.g, l.b)
        }
        if mode != .extendedLinear {
            c = (min(max(c.0, 0), 1), min(max(c.1, 0), 1), min(max(c.2, 0), 1))
        }
        return SIMD4(Float(c.0), Float(c.1), Float(c.2), Float(a))
    }
}

/// An image paint in device space: both backends sample `pixels` at `deviceToImage` of each device pixel centre
/// with the same rule (`ImageSampling`).
package struct LoweredImage {
    /// Premultiplied RGBA8.
    package var pixels: RasterImage
    /// The same for every draw of one `Image` (a GL texture is uploaded once per frame for all of them).
    package var identity: ObjectIdentifier
    /// Device pixel coordinates → image pixel coordinates (texel centres at i + ½).
    package var deviceToImage: CGAffineTransform
    /// Repeat `sourceRect` (a tiled image); else clamp to the image's edges.
    package var tiled: Bool
    /// Image pixels drawn (tiled images repeat this part).
    package var sourceRect: CGRect
    /// Nearest pixel instead of bilinear (`.interpolation(.none)`).
    package var nearest: Bool
    /// A template image: its alpha × this premultiplied colour.
    package var tint: RGBA?
    /// The canvas composites in linear light: each texel (sRGB-encoded) is decoded before it is filtered.
    package var decodesSRGB = false
    /// Keeps the object `identity` names alive while the paint is (a mesh gradient's paint image has no
    /// `Image` holding it).
    package var owner: AnyObject?
    /// Drawn 1:1 at a whole-pixel offset, nearest-sampled and clamped, used by one draw: a backend may copy it
    /// into a shared texture (a mesh gradient's paint image).
    package var packable = false
    /// A mesh gradient's paint, not yet rasterized: `pixels` is empty (0 × 0) until `withPixels()`; the GLES
    /// backend draws it on the GPU instead.
    package var mesh: MeshPaint?
}

package enum ImageResolution {
    /// The device-space image paint of `i` drawn with `transform` (user → device); nil when it paints nothing.
    ///
    /// An image that could not be read → `invalidImage("draw #3: /d/logo.png: not a JPEG file (…)")`.
    package static func resolve(_ i: ImagePaint, transform: CGAffineTransform, decodesSRGB: Bool,
                        canvas: PixelRect? = nil, drawNumber: Int) throws -> LoweredImage? {
        let pixels: RasterImage
        switch i.image.content.result {
        case .success(let p): pixels = p
        case .failure(let e):
            // The decoders' words name the file already ("no such file: /d/logo.png"); others get it in front.
            let words = "\(e)"
            let source = i.image.content.source.flatMap { words.contains($0) ? nil : $0 + ": " } ?? ""
            throw RenderError.invalidImage("draw #\(drawNumber): " + source + words)
        }
        guard pixels.width > 0, pixels.height > 0, i.sourceRect.width > 0, i.sourceRect.height > 0 else { return nil }
        guard i.imageToUser.isFinite, [i.sourceRect.minX, i.sourceRect.minY, i.sourceRect.width, i.sourceRect.height].allSatisfy(\.isFinite) else {
            throw RenderError.invalidGeometry("draw #\(drawNumber): image placement \(i.imageToUser) is not finite")
        }
        let toDevice = i.imageToUser.concatenating(transform)
        let det = toDevice.a * toDevice.d - toDevice.b * toDevice.c
        guard det != 0, det.isFinite else { return nil }
        var tint: RGBA?
        if let t = i.tint {
            guard case .solid(let c) = t else {
                throw RenderError.unsupported("a template image filled with a gradient or image (draw #\(drawNumber))")
            }
            tint = c
        }
        var toImage = toDevice.inverted()
        // A placement beyond Double's range (a tile origin at 10³⁰⁸) inverts to an infinite translation: no
        // pixel of it can be placed, on either backend.
        guard toImage.isFinite else {
            throw RenderError.invalidGeometry("draw #\(drawNumber): the image's placement overflows to infinity in device space")
        }
        if i.tiled {
            // Whole tiles of translation change nothing: reduce it here, in Double, so that a tile origin 10⁷
            // points away keeps its phase where the GPU carries the mapping in Float.
            func reduce(_ t: CGFloat, _ start: CGFloat, _ size: CGFloat) -> CGFloat {
                let r = (t - start).truncatingRemainder(dividingBy: size)
                return start + (r < 0 ? r + size : r)
            }
            toImage.tx = reduce(toImage.tx, i.sourceRect.minX, i.sourceRect.width)
            toImage.ty = reduce(toImage.ty, i.sourceRect.minY, i.sourceRect.height)
            // Tiles far smaller than a pixel, seen from the canvas's farthest corner: the GPU's Float image
            // coordinate there is off by 2⁻²⁴ of itself, a sizeable share of a tile past 65 536 tiles (the
            // rings' measured limit, GradientResolution.maximumRepeatsFromCentre), while the reference places
            // them in Double (fuzz: a 5 × 4 image at scale 10³⁸ tiled over 10 px, 28 levels apart). Both refuse.
            if let canvas {
                let corners = [(canvas.x, canvas.y), (canvas.x + canvas.width, canvas.y),
                               (canvas.x, canvas.y + canvas.height), (canvas.x + canvas.width, canvas.y + canvas.height)]
                let repeats = corners.map { c -> Double in
                    let p = CGPoint(x: c.0, y: c.1).applying(toImage)
                    return max(abs(Double(p.x)) / Double(i.sourceRect.width), abs(Double(p.y)) / Double(i.sourceRect.height))
                }.max()!
                if repeats > GradientResolution.maximumRepeatsFromCentre {
                    let count = repeats < 1e15 ? String(Int(repeats.rounded())) : "\(repeats)"
                    throw RenderError.invalidGeometry("draw #\(drawNumber): tiled image repeats \(count) times between its origin and the canvas, more than the \(Int(GradientResolution.maximumRepeatsFromCentre)) a GPU can place")
                }
            }
        }
        try LoweredImage.checkNearestPlacement(toDevice: toDevice, sourceRect: i.sourceRect, tiled: i.tiled, nearest: i.image.interpolation == .none, size: (pixels.width, pixels.height), drawNumber: drawNumber)
        return LoweredImage(pixels: pixels, identity: ObjectIdentifier(i.image.content), deviceToImage: toImage,
                            tiled: i.tiled, sourceRect: i.sourceRect, nearest: i.image.interpolation == .none, tint: tint,
                            decodesSRGB: decodesSRGB)
    }
}
