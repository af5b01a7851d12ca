// Asset catalogs: an app's Assets.xcassets (colour sets and image sets, their any-appearance values) read by
// the library, so that `Color("Brand")` and `Image("logo")` resolve as on iOS.
//
// An app points the library at its catalog once: `try AssetCatalog.use(URL(fileURLWithPath: "Assets.xcassets"))`.
// The catalog's JSON (each set's Contents.json) is read then; a file that is not valid JSON or a colour it
// cannot read is an error naming the file. A name the catalog does not hold behaves as in SwiftUI: the colour is
// clear and the image draws nothing; an `ImageRenderer` reports it (`RenderDiagnostic.Kind.unknownAsset`, so
// `DiagnosticsPolicy.strict` throws it). An image set's largest scale is used (its pixels per point).
import Foundation

/// The asset catalog `Color(_:)` and `Image(_:)` names resolve from.
public enum AssetCatalog {
    /// What one catalog holds: colours by name, image files (and their scale) by name.
    struct Contents {
        var colors: [String: Color] = [:]
        var images: [String: (url: URL, scale: CGFloat)] = [:]
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var current: Contents?

    /// Reads the catalog at `url` (an `.xcassets` folder, searched recursively, groups included) and makes it the
    /// one names resolve from.
    public static func use(_ url: URL) throws {
        let contents = try read(url)
        lock.lock()
        current = contents
        lock.unlock()
    }

    /// Forgets the catalog: every name is unknown again.
    public static func reset() {
        lock.lock()
        current = nil
        lock.unlock()
    }

    /// The names of the colour sets and image sets, sorted.
    public static var colorNames: [String] { lock.withLock { current?.colors.keys.sorted() ?? [] } }
    public static var imageNames: [String] { lock.withLock { current?.images.keys.sorted() ?? [] } }

    static func color(named name: String) -> Color? { lock.withLock { current?.colors[name] } }
    static func image(named name: String) -> (url: URL, scale: CGFloat)? { lock.withLock { current?.images[name] } }

    /// Errors reading a catalog.
    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    static func read(_ root: URL) throws -> Contents {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ReadError(description: "asset catalog \(root.path): no such folder")
        }
        var contents = Contents()
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            let ext = url.pathExtension
            guard ext == "colorset" || ext == "imageset" else { continue }
            let name = url.deletingPathExtension().lastPathComponent
            let json = url.appendingPathComponent("Contents.json")
            let object: Any
            do {
                object = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
            } catch {
                throw ReadError(description: "\(json.path): not readable JSON (\(error.localizedDescription))")
            }
            guard let dict = object as? [String: Any] else { throw ReadError(description: "\(json.path): not a JSON object") }
            if ext == "colorset" {
                if let color = try anyAppearance(dict["colors"], json).map({ try readColor($0, json) }) ?? nil {
                    contents.colors[name] = color
                }
            } else {
                let images = (dict["images"] as? [[String: Any]] ?? []).filter {
                    $0["appearances"] == nil && $0["filename"] is String
                }
                let best = images.max { scale($0) < scale($1) }
                if let best, let file = best["filename"] as? String {
                    contents.images[name] = (url.appendingPathComponent(file), scale(best))
                }
            }
        }
        return contents
    }

    /// The entry with no `appearances` (the any-appearance value), universal idiom first.
    private static func anyAppearance(_ value: Any?, _ file: URL) throws -> [String: Any]? {
        guard let entries = value as? [[String: Any]] else { return nil }
        let any = entries.filter { $0["appearances"] == nil }
        return any.first { ($0["idiom"] as? String) == "universal" } ?? any.first
    }

    private static func scale(_ entry: [String: Any]) -> CGFloat {
        guard let s = entry["scale"] as? String, let v = Double(s.replacingOccurrences(of: "x", with: "")) else { return 1 }
        return CGFloat(v)
    }

    /// A colour entry: `{"color": {"color-space": "srgb", "components": {"red": "0.1", …}}}`. Components are
    /// 0…1 decimals ("0.500"), 0…255 integers ("128") or hex bytes ("0x80"), as Xcode writes them.
    static func readColor(_ entry: [String: Any], _ file: URL) throws -> Color? {
        guard let color = entry["color"] as? [String: Any] else { return nil }
        let components = color["components"] as? [String: Any] ?? [:]
        func component(_ key: String) throws -> Double {
            guard let raw = components[key] else {
                if key == "alpha" { return 1 }
                throw ReadError(description: "\(file.path): colour component \"\(key)\" is missing")
            }
            let text = "\(raw)".trimmingCharacters(in: .whitespaces)
            let value: Double?
            if text.lowercased().hasPrefix("0x") {
                value = Int(text.dropFirst(2), radix: 16).map { Double($0) / 255 }
            } else if text.contains(".") {
                value = Double(text)
            } else {
                value = Int(text).map { Double($0) / 255 }
            }
            guard let value, value.isFinite else {
                throw ReadError(description: "\(file.path): colour component \"\(key)\" is \"\(text)\", not a number")
            }
            return value
        }
        let space = (color["color-space"] as? String) ?? "srgb"
        let alpha = try component("alpha")
        switch space {
        case "gray-gamma-22", "extended-gray":
            return Color(.sRGB, white: try component("white"), opacity: alpha)
        case "srgb", "extended-srgb":
            return Color(.sRGB, red: try component("red"), green: try component("green"), blue: try component("blue"), opacity: alpha)
        case "extended-linear-srgb":
            return Color(.sRGBLinear, red: try component("red"), green: try component("green"), blue: try component("blue"),
                         opacity: alpha)
        case "display-p3":
            return Color(.displayP3, red: try component("red"), green: try component("green"), blue: try component("blue"),
                         opacity: alpha)
        default:
            throw ReadError(description: "\(file.path): colour space \"\(space)\" is not one of srgb, extended-srgb, extended-linear-srgb, display-p3, gray-gamma-22, extended-gray")
        }
    }

    // MARK: Unknown names

    /// The names looked up and not found while a view was built or drawn (reported by `ImageRenderer`).
    final class Misses: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [RenderDiagnostic] = []
        func add(_ d: RenderDiagnostic) { lock.withLock { if !list.contains(d) { list.append(d) } } }
        var diagnostics: [RenderDiagnostic] { lock.withLock { list } }
    }

    @TaskLocal static var misses: Misses?

    static func reportUnknownColor(_ name: String) {
        misses?.add(RenderDiagnostic(.unknownAsset, .missingAsset(
            "Color(\"\(name)\"): no colour set of that name in the asset catalog (AssetCatalog.use); it is clear")))
    }
}

extension Color {
    /// A colour set of the app's asset catalog (`AssetCatalog.use`), its any-appearance value; an unknown name
    /// is clear (SwiftUI's behaviour) and is reported by the `ImageRenderer` drawing it.
    public init(_ name: String, bundle: Bundle? = nil) {
        if let color = AssetCatalog.color(named: name) {
            self = color
        } else {
            AssetCatalog.reportUnknownColor(name)
            self = .clear
        }
    }
}
