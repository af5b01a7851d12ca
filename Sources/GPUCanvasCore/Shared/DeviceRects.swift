// Rectangles of device pixels and the fill rule, the values every stage after the recording shares.

import Foundation

/// A rectangle of whole device pixels.
package struct PixelRect: Equatable {
    package var x: Int, y: Int, width: Int, height: Int
    package var area: Int { width * height }

    package init(
        x: Int,
        y: Int,
        width: Int,
        height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A rectangle in device pixels with Double edges.
package struct DeviceRect {
    package var minX, minY, maxX, maxY: Double

    /// True when every pixel of `box` lies wholly inside.
    package func contains(_ box: PixelRect) -> Bool {
        minX <= Double(box.x) && Double(box.x + box.width) <= maxX
            && minY <= Double(box.y) && Double(box.y + box.height) <= maxY
    }

    /// The rectangle that `points` (one closed contour: 4 distinct corners, or 5 with the first repeated) go
    /// around, when they are the corners of an axis-aligned rectangle of positive area, visited in order;
    /// nil otherwise.
    package init?(contour points: ArraySlice<DevicePoint>) {
        var corners = Array(points)
        if corners.count == 5, corners[4] == corners[0] { corners.removeLast() }
        guard corners.count == 4 else { return nil }
        let xs = Set(corners.map(\.x)), ys = Set(corners.map(\.y))
        guard xs.count == 2, ys.count == 2, Set(corners.map { [$0.x, $0.y] }).count == 4 else { return nil }
        // Each side moves along one axis only, so the four distinct corners go around the rectangle.
        for i in 0 ..< 4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            guard (a.x == b.x) != (a.y == b.y) else { return nil }
        }
        minX = xs.min()!; maxX = xs.max()!; minY = ys.min()!; maxY = ys.max()!
    }
}

/// Fill rule of a prepared path.
package enum CoverageRule: Int16 {
    case nonZero = 0
    case evenOdd = 1
}
