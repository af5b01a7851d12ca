import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Curve flattening: segment counts and the bounds on them.
final class FlattenTests: XCTestCase {
    /// A quarter circle of radius r (κ control points) has D = |p0 − 2p1 + p2| ≈ 0.46 r, so 3D / (4n²) ≤ 0.05
    /// needs n ≥ √(6.9 r): r = 100 → 27 chords, each within the tolerance of the circle.
    func testQuarterCircleChordsStayWithinTheTolerance() {
        let r = 100.0, k = 0.5522847498307936 * r
        var pts: [DevicePoint] = []
        Flatten.cubic(DevicePoint(x: r, y: 0), DevicePoint(x: r, y: k), DevicePoint(x: k, y: r), DevicePoint(x: 0, y: r),
                      tolerance: Flatten.tolerance) { p, _ in pts.append(p) }
        XCTAssertEqual(pts.count, 27)
        var prev = DevicePoint(x: r, y: 0)
        for p in pts {
            // A chord's midpoint is its point farthest from the arc.
            let mx = (prev.x + p.x) / 2, my = (prev.y + p.y) / 2
            // κ-cubic radius error (2.7e-4 r) on top of the chord error bound.
            XCTAssertLessThanOrEqual(r - (mx * mx + my * my).squareRoot(), Flatten.tolerance + 2.8e-4 * r)
            prev = p
        }
    }

    /// Curves 10³⁸ px across (or wider, up to the Double limit) take the segment budget, not an Int overflow.
    func testHugeCurvesTakeTheSegmentBudget() {
        for size in [1e38, 1e154, 1e300] {
            let polys = Flatten.fill(Path(ellipseIn: CGRect(x: 0, y: 0, width: size, height: size)), transform: .identity)
            // Four cubics of `maxSegmentsPerCurve` chords each, plus the contour's start point.
            XCTAssertEqual(polys.points.count, 4 * Flatten.maxSegmentsPerCurve + 1, "\(size)")
            XCTAssertTrue(polys.points.allSatisfy { $0.x.isFinite && $0.y.isFinite }, "\(size)")
            let quad = Flatten.quadSegments(DevicePoint(x: 0, y: 0), DevicePoint(x: size, y: size), DevicePoint(x: 2 * size, y: 0),
                                            tolerance: Flatten.tolerance)
            XCTAssertEqual(quad, Flatten.maxSegmentsPerCurve, "\(size)")
        }
    }

    /// A scale that makes the canvas larger than any Int is a size error, not a crash.
    func testHugeScaleIsASizeError() {
        for scale: CGFloat in [1e20, 1e308] {
            XCTAssertThrowsError(try pixelSize(for: CGSize(width: 1024, height: 1024), scale: scale)) { error in
                XCTAssertTrue("\(error)".contains("exceeds the limit"), "\(error)")
            }
        }
    }
}
