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
