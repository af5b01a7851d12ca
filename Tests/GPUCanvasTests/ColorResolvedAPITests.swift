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

    /// `animatableData` is the linear components and opacity × 128 (SwiftUI's animation unit scale), so an
    /// animation runs in linear light: halfway from opaque red to blue at 50 % is linear (0.5, 0, 0.5) at 75 %,
    /// whose sRGB red is 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354 (188 of 255).
    func testAnimatableDataInterpolatesInLinearLight() {
        let red = Color.Resolved(red: 1, green: 0, blue: 0)
        let blue = Color.Resolved(red: 0, green: 0, blue: 1, opacity: 0.5)
        XCTAssertEqual(red.animatableData.first, 128)
        XCTAssertEqual(blue.animatableData.second.second.first, 128)
        XCTAssertEqual(blue.animatableData.second.second.second, 64)
        // |red − blue|² = 128² + 128² + 64².
        XCTAssertEqual((red.animatableData - blue.animatableData).magnitudeSquared, 36864)

        func animate<A: Animatable>(_ from: A, to: A, _ t: Double) -> A {
            var v = from
            v.animatableData = from.animatableData.interpolated(towards: to.animatableData, amount: t)
            return v
        }
        let halfway = animate(red, to: blue, 0.5)
        XCTAssertEqual(halfway.linearRed, 0.5)
        XCTAssertEqual(halfway.linearGreen, 0)
        XCTAssertEqual(halfway.linearBlue, 0.5)
        XCTAssertEqual(halfway.opacity, 0.75)
        XCTAssertEqual(Int((halfway.red * 255).rounded()), 188)
        XCTAssertEqual(animate(red, to: blue, 0), red)
        XCTAssertEqual(animate(red, to: blue, 1), blue)
    }

    /// Codable as SwiftUI's unkeyed `[red, green, blue, opacity]` in sRGB; every 8-bit level decodes back to
    /// itself; a short array is a decoding error, not a crash.
    func testCodableIsAnUnkeyedSRGBArray() throws {
        let json = try JSONEncoder().encode(Color.Resolved(red: 1, green: 0, blue: 0, opacity: 0.5))
        XCTAssertEqual(String(decoding: json, as: UTF8.self), "[1,0,0,0.5]")
        for k in 0...255 {
            let level = Float(k) / 255
            let r = Color.Resolved(red: level, green: 1 - level, blue: 0.5, opacity: level)
            let back = try JSONDecoder().decode(Color.Resolved.self, from: try JSONEncoder().encode(r))
            XCTAssertEqual(back.linearRed, r.linearRed, accuracy: Self.floatRounding)
            XCTAssertEqual(back.linearGreen, r.linearGreen, accuracy: Self.floatRounding)
            XCTAssertEqual(back.opacity, r.opacity)
            XCTAssertEqual(Int((back.red * 255).rounded()), k)
        }
        XCTAssertThrowsError(try JSONDecoder().decode(Color.Resolved.self, from: Data("[1,0,0]".utf8)))
        XCTAssertThrowsError(try JSONDecoder().decode(Color.Resolved.self, from: Data(#"{"red":1}"#.utf8)))
    }
}
