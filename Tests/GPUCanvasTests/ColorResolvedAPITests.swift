import XCTest
import GPUCanvas

/// `Color.Resolved`, `resolve(in:)`, `Color(_ resolved:)` and `mix(with:by:in:)` called as Apple's documentation
/// and sample code call them, through a plain `import GPUCanvas` (public API only, no `@testable`).
final class ColorResolvedAPITests: XCTestCase {
    /// Float's 24-bit mantissa: a component converted sRGB ↔ linear in Double and stored as Float.
    static let floatRounding: Float = 1e-6
    /// The four-decimal values the expectations below are written with.
    static let fourDecimals: Float = 1e-4

    func testAppleStyleCallSitesCompileAndGiveKnownValues() {
        let environment = EnvironmentValues()
        // iOS 17: resolve, read the components, build a colour back.
        let resolved: Color.Resolved = Color(red: 1, green: 0.5, blue: 0).resolve(in: environment)
        let back = Color(resolved)
        let components: [Float] = [resolved.red, resolved.green, resolved.blue, resolved.opacity]
        let linear: [Float] = [resolved.linearRed, resolved.linearGreen, resolved.linearBlue]
        // sRGB 0.5 is linear ((0.5 + 0.055) / 1.055)^2.4 = 0.21404.
        XCTAssertEqual(components[1], 0.5, accuracy: Self.floatRounding)
        XCTAssertEqual(linear[1], 0.21404, accuracy: Self.fourDecimals)
        XCTAssertEqual(back.resolve(in: environment), resolved)

        // The initializer with and without its colour space; components are settable, in either encoding.
        var made = Color.Resolved(red: 1, green: 0, blue: 0)
        let p3 = Color.Resolved(colorSpace: .displayP3, red: 1, green: 0, blue: 0, opacity: 0.5)
        let linearGray = Color.Resolved(colorSpace: .sRGBLinear, red: 0.5, green: 0.5, blue: 0.5)
        // Display P3's red is outside sRGB: linear sRGB (1.2249, −0.0421, −0.0196).
        XCTAssertEqual(p3.linearRed, 1.2249, accuracy: Self.fourDecimals)
        XCTAssertEqual(p3.linearGreen, -0.0421, accuracy: Self.fourDecimals)
        XCTAssertEqual(p3.linearBlue, -0.0196, accuracy: Self.fourDecimals)
        XCTAssertEqual(p3.opacity, 0.5)
        XCTAssertEqual(linearGray.linearRed, 0.5)
        made.green = 0.5
        made.linearBlue = 0.21404114
        made.opacity = 0.25
        XCTAssertEqual(made.linearGreen, 0.21404, accuracy: Self.fourDecimals)
        XCTAssertEqual(made.blue, 0.5, accuracy: Self.floatRounding)
        XCTAssertEqual(made.description, "#FF808040")

        // cgColor: extended sRGB components, opacity last.
        let cg: CGColor = Color.Resolved(red: 1, green: 0.5, blue: 0).cgColor
        XCTAssertEqual(cg.colorSpace?.name, CGColorSpace.extendedSRGB)
        XCTAssertEqual(cg.components?.map { Float($0) } ?? [], [1, 0.5, 0, 1], "\(cg)")

        // Hashable: a set of resolved colours.
        let set: Set<Color.Resolved> = [made, p3, Color.Resolved(colorSpace: .displayP3, red: 1, green: 0, blue: 0, opacity: 0.5)]
        XCTAssertEqual(set.count, 2)

        // iOS 18: mix, with the default (perceptual) space and with each space named.
        let mixed: Color = Color.red.mix(with: .blue, by: 0.3)
        let perceptual = Color.red.mix(with: .blue, by: 0.3, in: .perceptual)
        let device = Color.red.mix(with: Color.blue, by: 0.3, in: .device)
        XCTAssertEqual(mixed, perceptual)
        XCTAssertNotEqual(mixed, device)

        // A resolved colour is a shape style, and a Color made from one draws like any colour.
        func style<S: ShapeStyle>(_ s: S) -> GraphicsContext.Shading { s.shading }
        XCTAssertEqual(style(made), .color(Color(made)))
        let recording = Recording(size: CGSize(width: 4, height: 4)) { context, size in
            context.fill(Path(CGRect(origin: .zero, size: size)), with: .color(Color(resolved)))
            context.fill(Path(CGRect(x: 0, y: 0, width: 2, height: 2)), with: .style(p3))
            context.fill(Path(CGRect(x: 2, y: 2, width: 2, height: 2)), with: .color(mixed))
        }
        XCTAssertEqual(recording.drawCount, 3)
        // A view fills with one too.
        _ = Rectangle().fill(made)
        _ = Rectangle().fill(Color(made).mix(with: .white, by: 0.5))
    }
}
