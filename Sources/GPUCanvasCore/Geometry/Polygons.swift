// Device-space polygons: the hand-off from geometry to rasterization.
//
// Everything a backend rasterizes — a filled path, a stroke outline, later glyph outlines — becomes a set of
// closed contours of straight edges in device pixels (f64, so 10⁶-pixel coordinates keep sub-pixel
// precision). Both backends consume this same value; neither shares the other's rasterizer.

/// A point in device pixels.
package struct DevicePoint: Equatable {
    package var x: Double
    package var y: Double
}

/// Closed contours of straight edges in device space. Contour `i` is
/// `points[contourStarts[i] ..< (i + 1 < count ? contourStarts[i + 1] : points.count)]`, implicitly closed.
package struct Polygons {
    package var points: [DevicePoint] = []
    package var contourStarts: [Int] = []
    /// Bounds of all points (empty polygons have min > max).
    package var minX = Double.infinity, minY = Double.infinity
    package var maxX = -Double.infinity, maxY = -Double.infinity
    /// Glyphs of text shapes kept as placements instead of contours (`CoverageShape.glyphs` indexes it): only a
    /// lowering store asked for glyph placements holds any (see `TextLowering.place`).
    package var placedGlyphs: [PlacedGlyph] = []

    package var isEmpty: Bool { points.isEmpty }
    package var contourCount: Int { contourStarts.count }
    /// Number of edges, closing edges included.
    package var edgeCount: Int { points.count }

    @inlinable
    package func contourRange(_ i: Int) -> Range<Int> {
        contourStarts[i] ..< (i + 1 < contourStarts.count ? contourStarts[i + 1] : points.count)
    }

    /// Starts a new contour. Contours with fewer than 2 points are kept but enclose nothing.
    package mutating func beginContour() { contourStarts.append(points.count) }

    // Inlinable: the reference's rasterizer (another module) appends every clipped edge point through it.
    @inlinable
    package mutating func append(_ p: DevicePoint) {
        points.append(p)
        if p.x < minX { minX = p.x }
        if p.x > maxX { maxX = p.x }
        if p.y < minY { minY = p.y }
        if p.y > maxY { maxY = p.y }
    }

    @inlinable
    package mutating func append(x: Double, y: Double) { append(DevicePoint(x: x, y: y)) }

    /// A copy of contours `range` (the reference rasterizes a draw's contours apart from its clip's). Here, beside
    /// `append`, so that the copy loop inlines it: from the reference's module it cost S6-text 2–4 %.
    package func subset(contours range: Range<Int>) -> Polygons {
        var p = Polygons()
        for c in range {
            p.beginContour()
            for i in contourRange(c) { p.append(points[i]) }
        }
        return p
    }

    /// Calls `body(x0, y0, x1, y1)` for every edge, closing edges included, skipping horizontal ones
    /// (they enclose no area).
    @inlinable
    package func forEachEdge(_ body: (Double, Double, Double, Double) -> Void) {
        for c in 0 ..< contourStarts.count {
            let r = contourRange(c)
            guard r.count >= 2 else { continue }
            var prev = points[r.upperBound - 1]
            for i in r {
                let p = points[i]
                if p.y != prev.y { body(prev.x, prev.y, p.x, p.y) }
                prev = p
            }
        }
    }

    package init(
        points: [DevicePoint] = [],
        contourStarts: [Int] = [],
        minX: Double = Double.infinity,
        minY: Double = Double.infinity,
        maxX: Double = -Double.infinity,
        maxY: Double = -Double.infinity,
        placedGlyphs: [PlacedGlyph] = []) {
        self.points = points
        self.contourStarts = contourStarts
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        self.placedGlyphs = placedGlyphs
    }
}
