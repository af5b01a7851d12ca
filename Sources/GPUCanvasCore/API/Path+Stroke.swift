// `Path.strokedPath(_:)`: the stroker's outline as a fillable path.

extension Path {
    /// The outline of the stroke `style` would draw, as a path of straight closed contours whose non-zero fill
    /// is the stroke. Computed in the path's own space (identity transform), with curves, round joins and caps
    /// flattened to `Flatten.tolerance` (0.05) user units: scale the path before stroking it if the outline will
    /// be magnified. `lineWidth` 0 gives a hairline 1 unit wide; a negative or NaN width gives an empty path, as
    /// does a stroke beyond the stroker's limits (`Stroker.maxDashesPerPath`, `Stroker.maxOutlinePoints`).
    ///
    /// ```swift
    /// Path(CGRect(x: 0, y: 0, width: 10, height: 10)).strokedPath(StrokeStyle(lineWidth: 2)).description
    /// // "1 1 m 9 1 l 9 9 l 1 9 l h -1 -1 m -1 11 l 11 11 l 11 -1 l h"   (inner square, outer square)
    /// ```
    public func strokedPath(_ style: StrokeStyle) -> Path {
        // A stroke beyond the stroker's limits (a dash finer than 10⁶ dashes per path, 16 M outline points)
        // has no outline to give: empty, as for a NaN width.
        let polys = (try? Stroker.outline(self, style: style, transform: .identity)) ?? Polygons()
        var path = Path()
        path.elements.reserveCapacity(polys.points.count + 2 * polys.contourCount)
        for c in 0 ..< polys.contourCount {
            let r = polys.contourRange(c)
            guard r.count >= 3 else { continue }  // fewer points enclose nothing
            let p0 = polys.points[r.lowerBound]
            path.elements.append(.move(to: CGPoint(x: p0.x, y: p0.y)))
            for i in r.dropFirst() {
                let p = polys.points[i]
                path.elements.append(.line(to: CGPoint(x: p.x, y: p.y)))
            }
            path.elements.append(.closeSubpath)
        }
        return path
    }
}

extension Path {
    /// The dashes `lengths` (from `phase`) cut from this path: each dash an open polyline, a closed subpath
    /// that one dash covers whole stays closed. The stroker's dashing (`Geometry/Dash.swift`, every subpath
    /// starting the pattern afresh), run on the path flattened at the stroker's tolerance in the path's own
    /// space, so curves come back as lines. A pattern that strokes solid (empty, all zero, negative or
    /// non-finite entries) gives the path unchanged; one too fine to cut (more than
    /// `Stroker.maxDashesPerPath` dashes) gives an empty path; non-finite coordinates give an empty path.
    /// Backs `CGPath.copy(dashingWithPhase:lengths:)`.
    package func dashedPath(phase: CGFloat, lengths: [CGFloat]) -> Path {
        guard let pattern = Stroker.DashPattern(lengths, phase: phase) else { return self }
        var flat = Stroker.Polyline()
        guard Stroker.flatten(self, tolerance: 0.5 * Flatten.tolerance, into: &flat) else { return Path() }
        var dashed = Stroker.Polyline()
        guard Stroker.dash(flat, pattern: pattern, into: &dashed) else { return Path() }
        var path = Path()
        for sp in dashed.subpaths where sp.end > sp.start {
            let v0 = dashed.vertices[sp.start]
            path.elements.append(.move(to: CGPoint(x: v0.x, y: v0.y)))
            if sp.end - sp.start == 1 {
                // A dot: a zero-length dash keeps its point as a zero-length line, which caps draw.
                path.elements.append(.line(to: CGPoint(x: v0.x, y: v0.y)))
            }
            for v in dashed.vertices[(sp.start + 1) ..< sp.end] {
                path.elements.append(.line(to: CGPoint(x: v.x, y: v.y)))
            }
            if sp.closed { path.elements.append(.closeSubpath) }
        }
        return path
    }
}
