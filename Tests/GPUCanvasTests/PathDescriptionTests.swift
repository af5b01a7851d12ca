import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `Path.description` and `Path.init?(_:)`: the CoreGraphics path text grammar.
final class PathDescriptionTests: XCTestCase {
    /// `%g` keeps 6 significant digits: a re-parsed coordinate differs from the original by at most half a
    /// unit in the 6th digit, 5e-6 relative (plus a little for the binary↔decimal round trip).
    static let sixDigitRelative: CGFloat = 6e-6

    private func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// Paths whose every coordinate `%g` prints exactly, so the round trip must be exact.
    private var exactPaths: [Path] {
        var list: [Path] = []
        list.append(Path())
        list.append(Path { $0.move(to: p(3, 4)) })
        list.append(Path { $0.move(to: p(0, 0)); $0.addLine(to: p(10, 20)) })
        list.append(Path(CGRect(x: 0, y: 0, width: 2, height: 1)))
        list.append(Path(CGRect(x: -5, y: -7.5, width: 12.25, height: 3)))
        list.append(Path { $0.move(to: p(0, 0)); $0.addLine(to: p(10, 0)); $0.addLine(to: p(5, 8)); $0.closeSubpath() })
        list.append(Path { $0.move(to: p(1, 1)); $0.addQuadCurve(to: p(9, 1), control: p(5, -6)) })
        list.append(Path { $0.move(to: p(0, 0)); $0.addCurve(to: p(100, 0), control1: p(-50, 100), control2: p(150, 100)) })
        list.append(Path { $0.addRect(CGRect(x: 0, y: 0, width: 4, height: 4)); $0.addRect(CGRect(x: 1, y: 1, width: 2, height: 2)) })
        list.append(Path { $0.move(to: p(0, 0)); $0.addLine(to: p(4, 0)); $0.closeSubpath(); $0.addLine(to: p(0, 4)) })
        list.append(Path { $0.move(to: p(1, 2)); $0.move(to: p(3, 4)); $0.addLine(to: p(5, 6)) })
        list.append(Path { $0.move(to: p(0.5, 0.25)); $0.addLine(to: p(0.125, -0.75)) })
        list.append(Path { $0.move(to: p(123456, -654321)); $0.addLine(to: p(999999, 0)) })
        list.append(Path { $0.move(to: p(1e-5, 2.5e-7)); $0.addLine(to: p(1e20, -3e30)) })
        list.append(Path { $0.move(to: p(-0.0, 0)); $0.addLine(to: p(1, -0.0)) })
        list.append(Path { $0.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 5, y: 5, width: 2, height: 3)]) })
        list.append(Path { $0.addLines([p(0, 0), p(1, 2), p(3, 1), p(4, 4)]) })
        list.append(Path { $0.move(to: p(0, 0)); $0.addLine(to: p(1, 0)); $0.addQuadCurve(to: p(2, 2), control: p(3, 0))
            $0.addCurve(to: p(0, 3), control1: p(1, 4), control2: p(0.5, 3.5)); $0.closeSubpath()
            $0.move(to: p(10, 10)); $0.addCurve(to: p(20, 10), control1: p(12, 5), control2: p(18, 15)) })
        list.append(Path(CGRect(x: 0, y: 0, width: 8, height: 6)).offsetBy(dx: -3, dy: 2.5))
        list.append(Path { $0.move(to: p(-3.75, 1.5)); $0.addQuadCurve(to: p(-0.0625, 2), control: p(-1, -1)); $0.closeSubpath() })
        list.append(Path(CGRect(x: 0, y: 0, width: 1, height: 1)).applying(CGAffineTransform(scaleX: 4, y: -2)))
        list.append(Path { $0.move(to: p(7, 7)); $0.closeSubpath() })
        return list
    }

    /// Paths with coordinates `%g` rounds (κ, trigonometry): the text round trip is stable and the geometry
    /// comes back to 6 significant digits.
    private var roundedPaths: [Path] {
        [Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 60)),
         Path(roundedRect: CGRect(x: 0, y: 0, width: 50, height: 30), cornerRadius: 7, style: .circular),
         Path(roundedRect: CGRect(x: 0, y: 0, width: 50, height: 30), cornerRadius: 7, style: .continuous),
         Path { $0.addArc(center: p(1, 1), radius: 3, startAngle: .degrees(10), endAngle: .degrees(200), clockwise: false) },
         Path(CGRect(x: 0.1, y: 1.0 / 3, width: 1234567.89, height: 1e-7))]
    }

    func testRoundTripIsExactForPrintableCoordinates() {
        let paths = exactPaths
        XCTAssertGreaterThanOrEqual(paths.count, 20)
        XCTAssertEqual(Set(paths.map(\.description)).count, paths.count, "the test paths must all differ")
        for path in paths {
            let text = path.description
            guard let parsed = Path(text) else { XCTFail("did not parse: \(text)"); continue }
            XCTAssertEqual(parsed, path, text)
            XCTAssertEqual(parsed.description, text)
        }
    }

    func testRoundTripOfRoundedCoordinatesIsStable() {
        for path in roundedPaths {
            let text = path.description
            guard let parsed = Path(text) else { XCTFail("did not parse: \(text)"); continue }
            XCTAssertEqual(parsed.description, text)
            XCTAssertEqual(parsed.elements.count, path.elements.count)
            for (a, b) in zip(parsed.elements, path.elements) {
                for (pa, pb) in zip(a.points, b.points) {
                    XCTAssertEqual(pa.x, pb.x, accuracy: Self.sixDigitRelative * max(1, abs(pb.x)))
                    XCTAssertEqual(pa.y, pb.y, accuracy: Self.sixDigitRelative * max(1, abs(pb.y)))
                }
            }
        }
    }

    func testOutputFormat() {
        XCTAssertEqual(Path(CGRect(x: 0, y: 0, width: 2, height: 1)).description, "0 0 m 2 0 l 2 1 l 0 1 l h")
        XCTAssertEqual(Path().description, "")
        let curves = Path { $0.move(to: p(0.1, -2)); $0.addQuadCurve(to: p(3, 4), control: p(1, 2))
            $0.addCurve(to: p(1234567, 1e-7), control1: p(5, 6), control2: p(-0.0, 8)) }
        XCTAssertEqual(curves.description, "0.1 -2 m 1 2 3 4 q 5 6 -0 8 1.23457e+06 1e-07 c")
        // No leading or trailing space (Apple trims the leading space of CG's output; we never emit it).
        XCTAssertFalse(curves.description.hasPrefix(" "))
        XCTAssertFalse(curves.description.hasSuffix(" "))
    }

    func testParserExtensions() {
        // t: the control is the previous quadratic's control reflected through the current point.
        XCTAssertEqual(Path("0 0 m 1 2 2 0 q 4 0 t"),
                       Path { $0.move(to: p(0, 0)); $0.addQuadCurve(to: p(2, 0), control: p(1, 2))
                              $0.addQuadCurve(to: p(4, 0), control: p(3, -2)) })
        // t after anything but a quadratic: the control is the current point.
        XCTAssertEqual(Path("0 0 m 5 5 l 9 0 t"),
                       Path { $0.move(to: p(0, 0)); $0.addLine(to: p(5, 5)); $0.addQuadCurve(to: p(9, 0), control: p(5, 5)) })
        // v: first control = current point; y: second control = end point.
        XCTAssertEqual(Path("1 1 m 2 3 4 5 v"),
                       Path { $0.move(to: p(1, 1)); $0.addCurve(to: p(4, 5), control1: p(1, 1), control2: p(2, 3)) })
        XCTAssertEqual(Path("1 1 m 2 3 4 5 y"),
                       Path { $0.move(to: p(1, 1)); $0.addCurve(to: p(4, 5), control1: p(2, 3), control2: p(4, 5)) })
        // re: a rectangle, m l l l h.
        XCTAssertEqual(Path("1 2 3 4 re"), Path(CGRect(x: 1, y: 2, width: 3, height: 4)))
        XCTAssertEqual(Path("1 2 3 4 re")?.description, "1 2 m 4 2 l 4 6 l 1 6 l h")
        // All five whitespace characters, runs of them, CR LF, and leading/trailing whitespace.
        XCTAssertEqual(Path(" \t0\n0\rm\u{0C}1  2\r\nl\n\nh \t"), Path { $0.move(to: p(0, 0)); $0.addLine(to: p(1, 2)); $0.closeSubpath() })
        // Decimal number forms.
        XCTAssertEqual(Path("+1.5 .5 m -2. 1E2 l 3e-1 -4E+1 l"),
                       Path { $0.move(to: p(1.5, 0.5)); $0.addLine(to: p(-2, 100)); $0.addLine(to: p(0.3, -40)) })
        // The empty string is the empty path.
        XCTAssertEqual(Path(""), Path())
        XCTAssertEqual(Path(" \n "), Path())
    }

    func testRejectsMalformedText() {
        let bad = [
            "1 m",                 // too few operands
            "1 2 3 m",             // too many
            "0 0 m 1",             // operands left over at the end
            "0 0 x",               // unknown operator
            "0 0 M",               // operators are case-sensitive
            "0 0 mm",              // unknown token
            "nan nan m",           // not a number
            "inf 0 m",             // not finite
            "1e999 0 m",           // overflows to infinity
            "0x10 0 m",            // hex floats are not decimal numbers
            "0,0 m",               // commas are not separators
            "0 0 m\u{0B}1 1 l",    // vertical tab is not one of the five whitespace characters
            "h 1",                 // trailing operand
            "1 h",                 // close takes no operand
            "1 2 3 4 5 re",        // re takes exactly 4
            "1 2 3 4 5 6 7 c",     // more operands than any operator takes
            "--1 0 m",             // malformed number
            "1e 0 m",              // exponent without digits
            "0 0 m 1 1 l\u{00A0}", // no-break space is not whitespace
        ]
        XCTAssertGreaterThanOrEqual(bad.count, 8)
        for text in bad { XCTAssertNil(Path(text), text.debugDescription) }
    }

    func testLosslessStringConvertible() {
        func viaProtocol<T: LosslessStringConvertible>(_ t: T.Type, _ s: String) -> T? { T(s) }
        let rect = Path(CGRect(x: 0, y: 0, width: 3, height: 3))
        XCTAssertEqual(viaProtocol(Path.self, rect.description), rect)
        XCTAssertEqual("\(rect)", rect.description)
    }
}
