import XCTest
@testable import GPUCanvas

/// Tolerances shared by the path and stroke tests, each with why it is that number.
enum GeometryTolerance {
    /// Geometry built from a handful of arithmetic operations (sin/cos included) on values ≤ 1000: exact up
    /// to a few ulps, i.e. ~10⁻¹³; 10⁻⁹ leaves room for that and nothing else.
    static let arithmetic: CGFloat = 1e-9
    /// Largest radial error of a cubic approximating a 90° arc (κ = 4/3·tan(π/8) ≈ 0.5523, so also the 4-cubic
    /// circle of `Path(ellipseIn:)`): 2.73e−4 of the radius, the classic bound, rounded up. Smaller arcs are
    /// more accurate, and lengths along such a curve carry the same relative error.
    static let quarterCubicRadialError: CGFloat = 2.8e-4
}

extension XCTestCase {
    /// Asserts both coordinates of `a` are within `tol` of `b` (a nil `a` fails).
    func assertClose(_ a: CGPoint?, _ b: CGPoint, _ tol: CGFloat = GeometryTolerance.arithmetic,
                     file: StaticString = #filePath, line: UInt = #line) {
        guard let a else { return XCTFail("nil point", file: file, line: line) }
        XCTAssertEqual(a.x, b.x, accuracy: tol, file: file, line: line)
        XCTAssertEqual(a.y, b.y, accuracy: tol, file: file, line: line)
    }

    /// Asserts every side of `a` is within `tol` of the same side of `b`.
    func assertRect(_ a: CGRect, _ b: CGRect, _ tol: CGFloat = GeometryTolerance.arithmetic,
                    file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.minX, b.minX, accuracy: tol, "minX", file: file, line: line)
        XCTAssertEqual(a.minY, b.minY, accuracy: tol, "minY", file: file, line: line)
        XCTAssertEqual(a.maxX, b.maxX, accuracy: tol, "maxX", file: file, line: line)
        XCTAssertEqual(a.maxY, b.maxY, accuracy: tol, "maxY", file: file, line: line)
    }
}
