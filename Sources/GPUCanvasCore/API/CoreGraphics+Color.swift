// CoreGraphics' colours: `CGColorSpace` and `CGColor`, and their bridges to SwiftUI's `Color`.
//
// Design note. A CGColor is its components in a colour space, as in CoreGraphics; drawing converts it to a
// `Color` (`Color(cgColor:)`), which the recording premultiplies in the canvas's working space like any other
// colour, so a CG fill and a GraphicsContext fill of the same colour record the same bytes. Only the colour
// spaces `Color` can draw are offered: RGB spaces with sRGB, linear sRGB or Display P3 primaries, and gray
// (gray g draws as RGB (g, g, g) in the matching RGB space).
//
// Decisions:
// - `CGColorSpace(name:)` knows `sRGB`, `extendedSRGB`, `linearSRGB`, `extendedLinearSRGB`, `displayP3`,
//   `extendedDisplayP3`, `genericGrayGamma2_2`, `extendedGray`, `linearGray` and `extendedLinearGray`; any
//   other name gives nil (CoreGraphics' answer for a name it does not know). Device RGB is sRGB and device gray
//   is gray with the sRGB curve. Names are `String`s (CoreGraphics' are `CFString`s with these values; Linux
//   Foundation does not bridge the two implicitly), so `CGColorSpace(name: CGColorSpace.sRGB)` reads the same.
//   "Gamma 2.2" gray is drawn with the sRGB transfer function (the curves are close, apart most near black;
//   the canvas has no other gray curve).
// - Components are stored as given (extended values outside 0…1 included); `Color` clamps alpha when drawn.
// - `CGColor(colorSpace:components:)` reads `space.numberOfComponents + 1` values from the pointer, as
//   CoreGraphics does (a pointer carries no count to check).
import Foundation

/// A colour space (CoreGraphics' `CGColorSpace`): RGB with sRGB, linear sRGB or Display P3 primaries, or gray.
public final class CGColorSpace: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// The colour model (CoreGraphics' `CGColorSpaceModel`, the cases this renderer draws).
    public enum Model: Int32, Sendable { case monochrome = 0, rgb = 1 }

    /// The name the space was made with (`CGColorSpace.sRGB`…).
    public let name: String?
    package let model: Model
    /// The RGB space a colour of this space draws in (gray: the one whose curve it shares).
    package let rgbSpace: Color.RGBColorSpace

    private init(name: String, model: Model, rgbSpace: Color.RGBColorSpace) {
        self.name = name
        self.model = model
        self.rgbSpace = rgbSpace
    }

    /// The space named `name` (one of the constants below), nil for a name this renderer cannot draw in.
    public convenience init?(name: String) {
        let n = name
        switch n {
        case CGColorSpace.sRGB, CGColorSpace.extendedSRGB:
            self.init(name: n, model: .rgb, rgbSpace: .sRGB)
        case CGColorSpace.linearSRGB, CGColorSpace.extendedLinearSRGB:
            self.init(name: n, model: .rgb, rgbSpace: .sRGBLinear)
        case CGColorSpace.displayP3, CGColorSpace.extendedDisplayP3:
            self.init(name: n, model: .rgb, rgbSpace: .displayP3)
        case CGColorSpace.genericGrayGamma2_2, CGColorSpace.extendedGray:
            self.init(name: n, model: .monochrome, rgbSpace: .sRGB)
        case CGColorSpace.linearGray, CGColorSpace.extendedLinearGray:
            self.init(name: n, model: .monochrome, rgbSpace: .sRGBLinear)
        default:
            return nil
        }
    }

    public static let sRGB = "kCGColorSpaceSRGB"
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let extendedDisplayP3 = "kCGColorSpaceExtendedDisplayP3"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let extendedGray = "kCGColorSpaceExtendedGray"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let extendedLinearGray = "kCGColorSpaceExtendedLinearGray"

    /// Colour components, alpha not counted: 3 for RGB, 1 for gray.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    public static func == (l: CGColorSpace, r: CGColorSpace) -> Bool {
        l.model == r.model && l.rgbSpace == r.rgbSpace
    }

    public var description: String { "<CGColorSpace \(name ?? "?")>" }

    package static let deviceRGB = CGColorSpace(name: CGColorSpace.sRGB)!
    package static let deviceGray = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!
}

/// Device RGB: sRGB here.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.deviceRGB }

/// Device gray: gray with the sRGB curve here.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace.deviceGray }

/// A colour as components in a colour space, alpha last (CoreGraphics' `CGColor`).
///
/// `CGColor(red: 1, green: 0, blue: 0, alpha: 0.5).components` → `[1, 0, 0, 0.5]`.
public final class CGColor: @unchecked Sendable, Equatable, CustomStringConvertible {
    /// The colour space; nil never happens here (CoreGraphics' type is optional).
    public let colorSpace: CGColorSpace?
    private let storedComponents: [CGFloat]

    private init(space: CGColorSpace, components: [CGFloat]) {
        self.colorSpace = space
        self.storedComponents = components
    }

    /// sRGB components and alpha.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: .deviceRGB, components: [red, green, blue, alpha])
    }

    /// sRGB components and alpha (CoreGraphics' `CGColor(srgbRed:green:blue:alpha:)`).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: .deviceRGB, components: [red, green, blue, alpha])
    }

    /// A gray level and alpha (generic gray).
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: .deviceGray, components: [gray, alpha])
    }

    /// Components (colour components then alpha) in `space`: `space.numberOfComponents + 1` values are read.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        let n = space.numberOfComponents + 1
        self.init(space: space, components: Array(UnsafeBufferPointer(start: components, count: n)))
    }

    /// The colour components followed by alpha.
    public var components: [CGFloat]? { storedComponents }

    /// Colour components plus alpha: 4 for RGB, 2 for gray.
    public var numberOfComponents: Int { storedComponents.count }

    /// The last component.
    public var alpha: CGFloat { storedComponents.last ?? 1 }

    /// The same colour with `alpha` replacing its alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        var c = storedComponents
        c[c.count - 1] = alpha
        return CGColor(space: colorSpace ?? .deviceRGB, components: c)
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)

    public static func == (l: CGColor, r: CGColor) -> Bool {
        l.colorSpace == r.colorSpace && l.storedComponents == r.storedComponents
    }

    public var description: String {
        "<CGColor \(colorSpace?.name ?? "?") [\(storedComponents.map { "\($0)" }.joined(separator: " "))]>"
    }

    /// The colour as SwiftUI draws it: gray g is (g, g, g) in the space's RGB counterpart.
    package var color: Color {
        let space = colorSpace ?? .deviceRGB
        let c = storedComponents.map(Double.init)
        if space.model == .monochrome {
            return Color(space.rgbSpace, white: c[0], opacity: c[1])
        }
        return Color(space.rgbSpace, red: c[0], green: c[1], blue: c[2], opacity: c[3])
    }
}

extension Color {
    /// A SwiftUI colour with `cgColor`'s components and space: `Color(cgColor: CGColor(gray: 0.5, alpha: 1))`
    /// is `Color(white: 0.5)`.
    public init(cgColor: CGColor) { self = cgColor.color }

    /// This colour as a CGColor in its own space (sRGB, linear sRGB or Display P3), alpha as its opacity.
    public var cgColor: CGColor? {
        let name: String
        switch space {
        case .sRGB: name = CGColorSpace.extendedSRGB
        case .sRGBLinear: name = CGColorSpace.extendedLinearSRGB
        case .displayP3: name = CGColorSpace.extendedDisplayP3
        }
        var components: [CGFloat] = [red, green, blue, alpha].map { CGFloat($0) }
        return components.withUnsafeMutableBufferPointer {
            CGColor(colorSpace: CGColorSpace(name: name)!, components: $0.baseAddress!)
        }
    }
}
