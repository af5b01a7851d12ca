// The examples of iOS 17 and 18's drawing additions: path boolean operations and mesh gradients.
import GPUCanvas

extension Example {
    /// A circle and a rounded square combined four ways (filled), and the square's outline inside and outside
    /// the circle (stroked): `union`, `intersection`, `subtracting`, `symmetricDifference`, `lineIntersection`,
    /// `lineSubtraction`, each tile 100 × 100 pt.
    static let pathBooleans = Example(
        name: "path-booleans",
        summary: "a circle and a rounded square: union, intersection, subtracting, symmetricDifference, lineIntersection, lineSubtraction",
        size: CGSize(width: 600, height: 100), scale: 2
    ) { context, size in
        context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(.white))
        let circle = Path(ellipseIn: CGRect(x: 10, y: 20, width: 60, height: 60))
        let square = Path(roundedRect: CGRect(x: 35, y: 10, width: 55, height: 55), cornerRadius: 10)
        let filled: [Path] = [circle.union(square), circle.intersection(square), circle.subtracting(square),
                              circle.symmetricDifference(square)]
        for (i, p) in filled.enumerated() {
            var c = context
            c.translateBy(x: CGFloat(i) * 100, y: 0)
            c.fill(p, with: .color(.indigo))
        }
        for (i, p) in [square.lineIntersection(circle), square.lineSubtraction(circle)].enumerated() {
            var c = context
            c.translateBy(x: CGFloat(4 + i) * 100, y: 0)
            c.stroke(circle, with: .color(.gray.opacity(0.4)), lineWidth: 1)
            c.stroke(p, with: .color(.orange), style: StrokeStyle(lineWidth: 4, lineCap: .round))
        }
    }

    /// Mesh gradients (iOS 18): a 3 × 3 mesh with its middle point moved (smooth colours), the same mesh with
    /// bilinear colours, a 4 × 3 mesh interpolated in Oklab filling a rounded rect as a style, and a 2 × 2 mesh
    /// with bent bezier edges over a clear background filling a circle.
    static let meshGradients = Example(
        name: "mesh-gradients",
        summary: "MeshGradient: 3×3 smooth and bilinear with a moved centre, 4×3 perceptual as a style, bezier edges in a circle",
        size: CGSize(width: 480, height: 120), scale: 2
    ) { context, size in
        let moved = MeshGradient(
            width: 3, height: 3,
            points: [[0, 0], [0.5, 0], [1, 0], [0, 0.5], [0.75, 0.3], [1, 0.5], [0, 1], [0.5, 1], [1, 1]],
            colors: [.red, .purple, .indigo, .orange, .white, .blue, .yellow, .green, .mint])
        let tile = CGRect(x: 10, y: 10, width: 100, height: 100)
        context.fill(Path(tile), with: .meshGradient(moved))
        var flat = moved
        flat.smoothsColors = false
        context.fill(Path(tile.offsetBy(dx: 120, dy: 0)), with: .meshGradient(flat))
        let perceptual = MeshGradient(
            width: 4, height: 3,
            points: [[0, 0], [0.33, 0], [0.67, 0], [1, 0], [0, 0.5], [0.3, 0.6], [0.7, 0.4], [1, 0.5],
                     [0, 1], [0.33, 1], [0.67, 1], [1, 1]],
            colors: [.blue, .cyan, .teal, .green, .purple, .white, .yellow, .orange, .indigo, .pink, .red, .brown],
            colorSpace: .perceptual)
        context.fill(Path(roundedRect: tile.offsetBy(dx: 240, dy: 0), cornerRadius: 20), with: .style(perceptual))
        // Control points a third of the way along each edge, turned by `d` (along a row) and its transpose
        // (down a column), so the edges bow.
        func bent(_ p: SIMD2<Float>, _ d: SIMD2<Float>) -> MeshGradient.BezierPoint {
            let down = SIMD2<Float>(d.y, d.x)
            return MeshGradient.BezierPoint(position: p, leadingControlPoint: p - d, topControlPoint: p - down,
                                            trailingControlPoint: p + d, bottomControlPoint: p + down)
        }
        let bezier = MeshGradient(
            width: 2, height: 2,
            bezierPoints: [bent([0.1, 0.1], [0.3, 0.1]), bent([0.9, 0.1], [0.3, -0.1]),
                           bent([0.1, 0.9], [0.3, -0.1]), bent([0.9, 0.9], [0.3, 0.1])],
            colors: [.pink, .orange, .teal, .indigo])
        context.fill(Path(ellipseIn: tile.offsetBy(dx: 360, dy: 0)), with: .meshGradient(bezier))
    }
}
