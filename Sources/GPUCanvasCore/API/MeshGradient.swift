// `MeshGradient` (iOS 18): a grid of coloured points, drawn as bicubic patches. The value records what it was
// given; validation (counts, sizes, finite numbers) happens in the lowering (`MeshGradientResolution`), so both
// backends refuse the same meshes with the same words. The geometry and the formulas are in
// Geometry/MeshGradientGeometry.swift.

/// A two-dimensional gradient defined by a grid of `width × height` positioned colours, in the unit space of the
/// item it fills (as UnitPoint styles: (0, 0) is the top-left of the drawn item's bounds, (1, 1) its
/// bottom-right). Outside the mesh, `background` is drawn.
///
/// ```swift
/// MeshGradient(width: 2, height: 2, points: [[0, 0], [1, 0], [0, 1], [1, 1]],
///              colors: [.red, .green, .blue, .white])
/// ```
public struct MeshGradient: ShapeStyle, Sendable, Equatable {
    /// One vertex of a mesh and the four Bezier control points of the edges leaving it (toward the previous
    /// column: leading; previous row: top; next column: trailing; next row: bottom). Control points of edges
    /// that leave the mesh are ignored.
    @frozen public struct BezierPoint: Equatable, Sendable {
        public var position: SIMD2<Float>
        public var leadingControlPoint: SIMD2<Float>
        public var topControlPoint: SIMD2<Float>
        public var trailingControlPoint: SIMD2<Float>
        public var bottomControlPoint: SIMD2<Float>

        public init(position: SIMD2<Float>, leadingControlPoint: SIMD2<Float>, topControlPoint: SIMD2<Float>,
                    trailingControlPoint: SIMD2<Float>, bottomControlPoint: SIMD2<Float>) {
            self.position = position
            self.leadingControlPoint = leadingControlPoint
            self.topControlPoint = topControlPoint
            self.trailingControlPoint = trailingControlPoint
            self.bottomControlPoint = bottomControlPoint
        }
    }

    /// The vertices, row by row (`width` a row).
    public enum Locations: Equatable, Sendable {
        /// Positions only: the edge control points are derived (Catmull-Rom tangents; see
        /// `MeshGradientGeometry`).
        case points([SIMD2<Float>])
        /// Positions with explicit control points.
        case bezierPoints([MeshGradient.BezierPoint])
    }

    /// The vertex colours, row by row.
    public enum Colors: Equatable, Sendable {
        case colors([Color])
        case resolvedColors([Color.Resolved])
    }

    /// Vertices a row.
    public var width: Int
    /// Rows.
    public var height: Int
    public var locations: Locations
    public var colors: Colors
    /// Drawn where the item is not covered by the mesh.
    public var background: Color
    /// true: colours interpolate bicubically across each patch; false: bilinearly.
    public var smoothsColors: Bool
    /// `.device`: colours interpolate in the canvas's working space; `.perceptual`: in Oklab.
    public var colorSpace: Gradient.ColorSpace

    public init(width: Int, height: Int, locations: Locations, colors: Colors, background: Color = .clear,
                smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {
        self.width = width
        self.height = height
        self.locations = locations
        self.colors = colors
        self.background = background
        self.smoothsColors = smoothsColors
        self.colorSpace = colorSpace
    }

    public init(width: Int, height: Int, points: [SIMD2<Float>], colors: [Color], background: Color = .clear,
                smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {
        self.init(width: width, height: height, locations: .points(points), colors: .colors(colors),
                  background: background, smoothsColors: smoothsColors, colorSpace: colorSpace)
    }

    public init(width: Int, height: Int, points: [SIMD2<Float>], resolvedColors: [Color.Resolved],
                background: Color = .clear, smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {
        self.init(width: width, height: height, locations: .points(points), colors: .resolvedColors(resolvedColors),
                  background: background, smoothsColors: smoothsColors, colorSpace: colorSpace)
    }

    public init(width: Int, height: Int, bezierPoints: [BezierPoint], colors: [Color], background: Color = .clear,
                smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {
        self.init(width: width, height: height, locations: .bezierPoints(bezierPoints), colors: .colors(colors),
                  background: background, smoothsColors: smoothsColors, colorSpace: colorSpace)
    }

    public init(width: Int, height: Int, bezierPoints: [BezierPoint], resolvedColors: [Color.Resolved],
                background: Color = .clear, smoothsColors: Bool = true, colorSpace: Gradient.ColorSpace = .device) {
        self.init(width: width, height: height, locations: .bezierPoints(bezierPoints),
                  colors: .resolvedColors(resolvedColors), background: background, smoothsColors: smoothsColors,
                  colorSpace: colorSpace)
    }

    public var shading: GraphicsContext.Shading { .meshGradient(self) }

    /// The vertex colours as `Color`s (resolved colours are linear extended sRGB).
    package var colorList: [Color] {
        switch colors {
        case .colors(let c): return c
        case .resolvedColors(let r): return r.map { Color($0) }
        }
    }

    package var vertexCount: Int {
        switch locations {
        case .points(let p): return p.count
        case .bezierPoints(let b): return b.count
        }
    }
}

extension MeshGradient: CustomStringConvertible {
    public var description: String {
        let kind: String
        switch locations {
        case .points: kind = "points"
        case .bezierPoints: kind = "bezierPoints"
        }
        let count: Int
        switch colors {
        case .colors(let c): count = c.count
        case .resolvedColors(let r): count = r.count
        }
        return ".meshGradient(\(width)×\(height), \(vertexCount) \(kind), \(count) colours"
            + (smoothsColors ? "" : ", bilinear") + (colorSpace.isPerceptual ? ", perceptual" : "")
            + ", background \(background))"
    }
}

extension GraphicsContext.Shading {
    /// A mesh gradient, mapped onto the bounds of the item drawn (as `.style(mesh)`).
    public static func meshGradient(_ mesh: MeshGradient) -> GraphicsContext.Shading {
        GraphicsContext.Shading(kind: .meshGradient(mesh))
    }
}
