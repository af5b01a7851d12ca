// Scene files (`gpucanvas-scene/1`, `docs/scene-format.md`) → a `Recording`.
//
// Two phases, so that a bad document draws nothing: `SceneDecoder` validates the whole JSON tree into typed
// `SceneCommand`s (every error names its JSON location), then `replay` runs them against a real
// `GraphicsContext` through `Recording(size:colorMode:isOpaque:renderer:)`, calling the same public API a
// renderer closure would (`fill`, `stroke(_:with:style:)`, `opacity`, `translateBy`, `var c = context`,
// `clip(to:style:options:)`, `clipToLayer`, `drawLayer`, `draw(_:in:style:)` and `draw(_:at:anchor:)` for images,
// the `Shading` factories, …). Images in `resources.images` are read and decoded in the first phase, so a
// missing or corrupt file is a load error that names it.
// That is why a closure and the scene that spells out its calls record equal recordings and render
// byte-identical images.
// A scene with `resources.symbols` is recorded as a `Canvas` whose symbols are tagged canvases of each entry's
// size (`Canvas.record(size:)`, the view path), and a `symbol` op is `resolveSymbol(id:)` then `draw(_:in:)` or
// `draw(_:at:anchor:)`: scene symbols take the path app symbols take (`Views/Symbols.swift`).
//
// Untrusted scenes (a server rendering what it is sent). A scene file is data, so it is refused, not drawn
// leniently: a NaN or a missing resource is a load error at its JSON location. Resource files (`png`/`jpeg`
// images, font `file`s) resolve only at or below the scene's folder (the current directory for JSON without a
// base URL) or a folder the caller allows (`SceneLoadOptions.allowedDirectories`): an absolute path, `..` or a
// symlink that leads out is refused with one message whatever lies there, checked on the real path (symlinks
// resolved) before anything is opened, so the loader is no oracle for which files exist (librsvg's
// CVE-2023-38633 fix takes the same line). Each distinct image is decoded once however many entries name it,
// and the decoded bytes of all of them together must fit `SceneLoadOptions.limits.imageBytes`, checked from
// each header before its pixels are decoded.

/// A loaded scene file: the recording it describes and the scale it asks to be rendered at.
///
/// ```swift
/// let scene = try Scene.load(contentsOf: URL(fileURLWithPath: "ellipse.json"))
/// let image = try CanvasRenderer().render(scene.recording, scale: scene.scale)
/// ```
/// What a scene load may read and allocate.
///
/// ```swift
/// let options = SceneLoadOptions(limits: RenderLimits(imageBytes: 64 << 20),
///                                allowedDirectories: [URL(fileURLWithPath: "/srv/shared-assets")])
/// let scene = try Scene.load(contentsOf: url, options: options)
/// ```
public struct SceneLoadOptions: Sendable, Equatable {
    /// The budget for the decoded bytes of the scene's distinct images, all together.
    public var limits: RenderLimits
    /// Folders besides the scene's own whose files (and those below them) resources may name.
    public var allowedDirectories: [URL]

    public init(limits: RenderLimits = RenderLimits(), allowedDirectories: [URL] = []) {
        self.limits = limits
        self.allowedDirectories = allowedDirectories
    }
}

public struct Scene {
    public var recording: Recording
    /// Pixels per point (the document's `scale`, default 1).
    public var scale: CGFloat

    /// Reads and loads a scene file. Errors name the file:
    /// `scene.json: commands[3].path: not a valid path description: "1 m"`.
    public static func load(contentsOf url: URL) throws -> Scene {
        try load(contentsOf: url, options: SceneLoadOptions())
    }

    /// As `load(contentsOf:)`, within `options`' budget and folders.
    public static func load(contentsOf url: URL, options: SceneLoadOptions) throws -> Scene {
        guard url.isFileURL else {
            throw SceneError(file: url.absoluteString, location: "", message: "not a file URL; only files can be loaded")
        }
        let file = url.path
        let data: Data
        do {
            data = try readFileContents(atPath: file, limit: SceneJSON.maxBytes)
        } catch {
            let message = switch error {
            case .isDirectory: "is a directory, not a scene file"
            case .tooLarge: error.reason
            case .notFound, .unreadable: "cannot read the file: \(error.reason)"
            }
            throw SceneError(file: file, location: "", message: message)
        }
        do {
            return try Scene(jsonData: data, baseURL: url.deletingLastPathComponent(), options: options)
        } catch var e as SceneError {
            e.file = file
            throw e
        }
    }

    /// Loads a scene from JSON text. `baseURL` (a file URL of a folder) is where relative image files
    /// (`{"png": "logo.png"}`) are looked up; nil looks them up in the current directory. Images are read and
    /// decoded here, so a missing or corrupt one is an error now, not when the scene is drawn.
    ///
    /// `try Scene(jsonData: Data(#"{"format":"gpucanvas-scene/1","size":[10,10],"commands":[]}"#.utf8))`
    /// → an empty 10×10 pt recording at scale 1.
    public init(jsonData: Data, baseURL: URL? = nil) throws {
        try self.init(jsonData: jsonData, baseURL: baseURL, options: SceneLoadOptions())
    }

    /// As `init(jsonData:baseURL:)`, within `options`' budget and folders (`baseURL`, or the current
    /// directory without one, is always allowed).
    public init(jsonData: Data, baseURL: URL?, options: SceneLoadOptions) throws {
        let root: JSONValue
        do {
            root = try SceneJSON.parse(jsonData)
        } catch {
            throw SceneError(location: error.path.description, message: error.message,
                             line: error.line, column: error.column)
        }
        let doc = try SceneDecoder.document(Node(root, .root), baseURL: baseURL, options: options)
        let commands = doc.commands
        if doc.symbols.isEmpty {
            recording = Recording(size: doc.size, colorMode: doc.colorMode, isOpaque: doc.opaque) { context, _ in
                replay(commands, on: &context)
            }
        } else {
            // The symbols are what a closure would write: one `Canvas` per symbol, framed to its size and
            // tagged with its name, among the symbols of the scene's canvas, recorded through the view path
            // (`Canvas.record(size:)`), so `symbol` ops go through `resolveSymbol(id:)` and `draw(_:in:)` /
            // `draw(_:at:anchor:)` exactly as a renderer closure's calls do.
            let canvas = Canvas(opaque: doc.opaque, colorMode: doc.colorMode, renderer: { context, _ in
                replay(commands, on: &context)
            }, symbols: {
                ForEach(doc.symbols) { symbol in
                    Canvas(colorMode: doc.colorMode) { context, _ in replay(symbol.commands, on: &context) }
                        .frame(width: symbol.size.width, height: symbol.size.height)
                        .tag(symbol.id)
                }
            })
            recording = canvas.record(size: doc.size)
        }
        scale = doc.scale
    }
}

/// Why a scene could not be loaded. The message names the JSON location (and the file when loading one):
///
/// ```
/// scene.json: commands[12].shading.color: expected a colour, got number
/// scene.json:3:14 (commands[0]): expected ',' or '}', got ']'
/// ```
public struct SceneError: Error, CustomStringConvertible, Equatable {
    /// The file, when the scene was loaded from one.
    public var file: String?
    /// The JSON location, e.g. `commands[12].shading.stops[3]`; empty for the document as a whole.
    public var location: String
    /// What is wrong, e.g. `expected a colour, got number`.
    public var message: String
    /// For syntax errors: the 1-based line and column in the text.
    public var line: Int?
    public var column: Int?

    init(file: String? = nil, location: String, message: String, line: Int? = nil, column: Int? = nil) {
        self.file = file
        self.location = location
        self.message = message
        self.line = line
        self.column = column
    }

    public var description: String {
        var prefix = file ?? ""
        if let line, let column {
            prefix += prefix.isEmpty ? "line \(line), column \(column)" : ":\(line):\(column)"
            if !location.isEmpty { prefix += " (\(location))" }
        } else if !location.isEmpty {
            prefix += prefix.isEmpty ? location : ": " + location
        }
        return prefix.isEmpty ? message : prefix + ": " + message
    }
}

// MARK: - Typed commands

/// One validated scene command, ready to replay.
enum SceneCommand {
    case fill(Path, GraphicsContext.Shading, FillStyle)
    case stroke(Path, GraphicsContext.Shading, StrokeStyle)
    case opacity(Double)
    case blendMode(GraphicsContext.BlendMode)
    case setTransform(CGAffineTransform)
    case concatenate(CGAffineTransform)
    case translate(CGFloat, CGFloat)
    case scale(CGFloat, CGFloat)
    case rotate(degrees: Double)
    case copy([SceneCommand])
    case clip(Path, FillStyle, inverse: Bool)
    case clipToLayer(opacity: Double, inverse: Bool, [SceneCommand])
    case layer([SceneCommand])
    case filter(GraphicsContext.Filter, GraphicsContext.FilterOptions)
    /// `draw(_:in:style:)` or `draw(_:at:anchor:)`, with a template image's shading when one is given.
    case image(Image, ImagePlacement, shading: GraphicsContext.Shading?)
    /// `draw(_ text: ResolvedText, …)`, with the resolved text's shading when one is given.
    case text(Text, TextScenePlacement, shading: GraphicsContext.Shading?)
    /// A `resources.symbols` entry by name, drawn with `draw(_:in:)` or `draw(_:at:anchor:)`.
    case symbol(String, SymbolPlacement)
}

/// Where a `text` command puts its text.
enum TextScenePlacement {
    case `in`(CGRect)
    case at(CGPoint, anchor: UnitPoint)
    /// The left end of the first line's baseline at the point: `draw(_:at:anchor: .topLeading)` moved up by
    /// `firstBaseline(in:)`.
    case baselineOrigin(CGPoint)
}

/// Where an `image` command puts its image.
/// Where a `symbol` op puts the symbol: `draw(_:in:)` scales it to fill the rect, `draw(_:at:anchor:)` places
/// it at its own size.
enum SymbolPlacement {
    case `in`(CGRect)
    case at(CGPoint, anchor: UnitPoint)
}

/// A `resources.symbols` entry: a size in points and the commands drawn into a context of that size.
struct SceneSymbol: Identifiable {
    /// The entry's name, the symbol's tag.
    let id: String
    let size: CGSize
    let commands: [SceneCommand]
}

enum ImagePlacement {
    case `in`(CGRect, FillStyle)
    case at(CGPoint, anchor: UnitPoint)
}

/// Runs commands as a renderer closure would. Recursion depth is bounded by `SceneJSON.maxDepth`.
func replay(_ commands: [SceneCommand], on context: inout GraphicsContext) {
    for command in commands {
        switch command {
        case .fill(let path, let shading, let style): context.fill(path, with: shading, style: style)
        case .stroke(let path, let shading, let style): context.stroke(path, with: shading, style: style)
        case .opacity(let v): context.opacity = v
        case .blendMode(let m): context.blendMode = m
        case .setTransform(let t): context.transform = t
        case .concatenate(let t): context.concatenate(t)
        case .translate(let x, let y): context.translateBy(x: x, y: y)
        case .scale(let x, let y): context.scaleBy(x: x, y: y)
        case .rotate(let degrees): context.rotate(by: .degrees(degrees))
        case .copy(let inner):
            var copy = context
            replay(inner, on: &copy)
        case .clip(let path, let style, let inverse):
            context.clip(to: path, style: style, options: inverse ? .inverse : [])
        case .clipToLayer(let opacity, let inverse, let inner):
            context.clipToLayer(opacity: opacity, options: inverse ? .inverse : []) { mask in replay(inner, on: &mask) }
        case .layer(let inner):
            context.drawLayer { layer in replay(inner, on: &layer) }
        case .filter(let filter, let options):
            context.addFilter(filter, options: options)
        case .image(let image, let placement, let shading):
            var resolved = context.resolve(image)
            if let shading { resolved.shading = shading }
            switch placement {
            case .in(let rect, let style): context.draw(resolved, in: rect, style: style)
            case .at(let point, let anchor): context.draw(resolved, at: point, anchor: anchor)
            }
        case .text(let text, let placement, let shading):
            var resolved = context.resolve(text)
            if let shading { resolved.shading = shading }
            switch placement {
            case .in(let rect): context.draw(resolved, in: rect)
            case .at(let point, let anchor): context.draw(resolved, at: point, anchor: anchor)
            case .baselineOrigin(let p):
                let baseline = resolved.firstBaseline(in: CGSize(width: CGFloat.infinity, height: .infinity))
                context.draw(resolved, at: CGPoint(x: p.x, y: p.y - baseline), anchor: .topLeading)
            }
        case .symbol(let name, let placement):
            // The decoder checked the name against `resources.symbols`, and the scene's canvas holds one tagged
            // symbol view per entry, so this resolves.
            guard let symbol = context.resolveSymbol(id: name) else { continue }
            switch placement {
            case .in(let rect): context.draw(symbol, in: rect)
            case .at(let point, let anchor): context.draw(symbol, at: point, anchor: anchor)
            }
        }
    }
}

// MARK: - Decoding

/// A JSON value and where it sits, so every check can say where it failed.
private struct Node {
    let value: JSONValue
    let path: JSONPath
    init(_ value: JSONValue, _ path: JSONPath) { self.value = value; self.path = path }

    func error(_ message: String) -> SceneError { SceneError(location: path.description, message: message) }
    func expected(_ what: String) -> SceneError { error("expected \(what), got \(value.kindName)") }

    func number() throws -> Double {
        guard case .number(let v) = value else { throw expected("a number") }
        return v  // the parser already rejected non-finite numbers
    }
    func cgFloat() throws -> CGFloat { CGFloat(try number()) }
    func nonNegative(_ what: String) throws -> CGFloat {
        let v = try number()
        guard v >= 0 else { throw error("\(what) must be ≥ 0, got \(fmt(CGFloat(v)))") }
        return CGFloat(v)
    }
    func bool() throws -> Bool {
        guard case .bool(let v) = value else { throw expected("true or false") }
        return v
    }
    func string() throws -> String {
        guard case .string(let v) = value else { throw expected("a string") }
        return v
    }
    func array() throws -> [Node] {
        guard case .array(let items) = value else { throw expected("an array") }
        return items.enumerated().map { Node($1, path.index($0)) }
    }
    /// Exactly `count` numbers: `[x, y]`, `[x, y, w, h]`, …
    func numbers(_ count: Int, _ what: String) throws -> [CGFloat] {
        guard case .array(let items) = value else { throw expected(what) }
        guard items.count == count else {
            throw error("expected \(what), got an array of \(items.count) value\(items.count == 1 ? "" : "s")")
        }
        return try Node.numbers(items, under: path)
    }

    /// The numbers of `items`; the location of an item is only built when it is wrong (this runs for every
    /// coordinate of every path, so it avoids allocating a path per number).
    static func numbers(_ items: some Collection<JSONValue>, under path: JSONPath, offset: Int = 0) throws -> [CGFloat] {
        var out: [CGFloat] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .number(let v) = item else { throw Node(item, path.index(offset + i)).expected("a number") }
            out.append(CGFloat(v))
        }
        return out
    }
    /// Checks the node is an object whose keys are all in `allowed`.
    func object(_ what: String, allowed: [String]) throws -> Object {
        guard case .object(let o) = value else { throw expected(what) }
        for m in o.members where !allowed.contains(m.key) {
            throw SceneError(location: path.key(m.key).description,
                             message: "unknown key \(jsonQuoted(m.key)) (expected one of: \(allowed.joined(separator: ", ")))")
        }
        return Object(object: o, path: path)
    }
}

private struct Object {
    let object: JSONObject
    let path: JSONPath

    func has(_ key: String) -> Bool { object[key] != nil }
    func optional(_ key: String) -> Node? { object[key].map { Node($0, path.key(key)) } }
    func required(_ key: String) throws -> Node {
        guard let v = object[key] else {
            throw SceneError(location: path.key(key).description, message: "missing required key")
        }
        return Node(v, path.key(key))
    }
}

/// The document's header and its validated commands.
private struct SceneDocument {
    var size: CGSize
    var scale: CGFloat
    var colorMode: ColorRenderingMode
    var opaque: Bool
    var commands: [SceneCommand]
    /// `resources.symbols` in the document's order.
    var symbols: [SceneSymbol]
}

private struct SceneDecoder {
    static let formatName = "gpucanvas-scene/1"

    /// Where relative image files are looked up (the scene file's folder); nil: the current directory.
    let baseURL: URL?
    let options: SceneLoadOptions
    /// The folders resource files must resolve inside: the base folder and the allowed ones.
    let confinement: ResourceConfinement
    /// Each distinct image source decoded so far (`png:<real path>`, `pngBase64:<text>`, …), as the one
    /// content every entry naming it shares (a GLES frame uploads it once).
    var decoded: [String: ImageContent] = [:]
    /// Their decoded bytes together.
    var decodedBytes = 0
    /// `resources.images`, decoded, by name.
    var images: [String: Image] = [:]
    /// Their names in the document's order, for messages.
    var imageNames: [String] = []
    /// `resources.symbols`, decoded, in the document's order.
    var symbols: [SceneSymbol] = []
    /// While a symbol's own commands are decoded: its name (a `symbol` op there is an error).
    var decodingSymbol: String?

    /// Validates a whole document: the header, then the resources (images are read and decoded here, so a
    /// bad file fails the load before anything is drawn), then the commands, which may name the images.
    static func document(_ node: Node, baseURL: URL?, options: SceneLoadOptions) throws -> SceneDocument {
        let base = baseURL?.path ?? FileManager.default.currentDirectoryPath
        var decoder = SceneDecoder(baseURL: baseURL, options: options,
                                   confinement: ResourceConfinement(base: base, allowed: options.allowedDirectories.map(\.path)))
        return try decoder.document(node)
    }

    mutating func document(_ node: Node) throws -> SceneDocument {
        let o = try node.object("a scene object", allowed: ["format", "size", "scale", "colorMode", "opaque", "resources", "commands"])
        let format = try o.required("format")
        guard try format.string() == Self.formatName else {
            throw format.error("expected \(jsonQuoted(Self.formatName)), got \(jsonQuoted(try format.string()))")
        }
        let sizeNode = try o.required("size")
        let s = try sizeNode.numbers(2, "a size [w, h]")
        guard s[0] > 0, s[1] > 0 else {
            throw sizeNode.error("each value must be > 0, got [\(fmt(s[0])), \(fmt(s[1]))]")
        }
        var scale: CGFloat = 1
        if let n = o.optional("scale") {
            scale = try n.cgFloat()
            guard scale > 0 else { throw n.error("must be > 0, got \(fmt(scale))") }
        }
        let w = (s[0] * scale).rounded(.up), h = (s[1] * scale).rounded(.up)
        guard w <= CGFloat(maxPixelDimension), h <= CGFloat(maxPixelDimension) else {
            throw sizeNode.error("\(fmt(s[0]))×\(fmt(s[1])) points at scale \(fmt(scale)) is \(fmt(w))×\(fmt(h)) pixels; "
                                 + "the limit is \(maxPixelDimension) pixels per side")
        }
        var colorMode = ColorRenderingMode.nonLinear
        if let n = o.optional("colorMode") {
            let modes: [String: ColorRenderingMode] = ["nonLinear": .nonLinear, "linear": .linear, "extendedLinear": .extendedLinear]
            let name = try n.string()
            guard let m = modes[name] else {
                throw n.error("unknown colour mode \(jsonQuoted(name)) (expected nonLinear, linear or extendedLinear)")
            }
            colorMode = m
        }
        let opaque = try o.optional("opaque")?.bool() ?? false
        if let r = o.optional("resources") { try resources(r) }
        let commands = try commandList(try o.required("commands"))
        return SceneDocument(size: CGSize(width: s[0], height: s[1]), scale: scale, colorMode: colorMode,
                             opaque: opaque, commands: commands, symbols: symbols)
    }

    mutating func resources(_ node: Node) throws {
        let o = try node.object("a resources object", allowed: ["images", "symbols"])
        if let n = o.optional("images") {
            guard case .object(let members) = n.value else { throw n.expected("an object of named images") }
            for m in members.members {
                images[m.key] = try image(Node(m.value, n.path.key(m.key)))
                imageNames.append(m.key)
            }
        }
        if let n = o.optional("symbols") {
            guard case .object(let members) = n.value else { throw n.expected("an object of named symbols") }
            for m in members.members {
                symbols.append(try symbol(m.key, Node(m.value, n.path.key(m.key))))
            }
        }
    }

    // MARK: Symbols

    /// One `resources.symbols` entry: `{"size": [w, h], "commands": [...]}`, the commands in the symbol's own
    /// coordinate space (origin at its top-left corner). They may name images; they may not draw symbols
    /// (SwiftUI gives a symbol's context no symbols of its own), so a symbol can never be recursive.
    mutating func symbol(_ name: String, _ n: Node) throws -> SceneSymbol {
        let o = try n.object("a symbol object {\"size\": [w, h], \"commands\": [...]}", allowed: ["size", "commands"])
        let sizeNode = try o.required("size")
        let s = try sizeNode.numbers(2, "a size [w, h]")
        guard s[0] > 0, s[1] > 0 else {
            throw sizeNode.error("a symbol's size must be > 0 in each dimension, got [\(fmt(s[0])), \(fmt(s[1]))]")
        }
        decodingSymbol = name
        defer { decodingSymbol = nil }
        let commands = try commandList(try o.required("commands"))
        return SceneSymbol(id: name, size: CGSize(width: s[0], height: s[1]), commands: commands)
    }

    /// `{"op": "symbol", "symbol": NAME, "at": P, "anchor": [ux, uy]}` (anchor default `[0.5, 0.5]`) or
    /// `"in": RECT`.
    func symbolCommand(_ node: Node) throws -> SceneCommand {
        let o = try node.object("a command object", allowed: ["op", "symbol", "in", "at", "anchor"])
        let nameNode = try o.required("symbol")
        let name = try nameNode.string()
        if let inside = decodingSymbol {
            if name == inside {
                throw nameNode.error("symbol \(jsonQuoted(name)) draws itself: symbols cannot be recursive")
            }
            throw nameNode.error("a symbol cannot draw a symbol (resources.symbols.\(inside) draws \(jsonQuoted(name))): "
                                 + "a symbol's context has no symbols, as in SwiftUI")
        }
        guard symbols.contains(where: { $0.id == name }) else {
            let known = symbols.isEmpty ? "the document has no resources.symbols"
                                        : "resources.symbols has: " + symbols.map(\.id).joined(separator: ", ")
            throw nameNode.error("unknown symbol \(jsonQuoted(name)) (\(known))")
        }
        switch (o.optional("in"), o.optional("at")) {
        case (let r?, nil):
            if let a = o.optional("anchor") { throw a.error("anchor goes with \"at\", not with \"in\"") }
            return .symbol(name, .in(try rect(r)))
        case (nil, let p?):
            let anchor = try o.optional("anchor").map(unitPoint) ?? .center
            return .symbol(name, .at(try point(p), anchor: anchor))
        case (nil, nil):
            throw node.error("expected \"in\": [x, y, w, h] or \"at\": [x, y]")
        case (_?, _?):
            throw node.error("expected \"in\" or \"at\", got both")
        }
    }

    // MARK: Images

    /// The keys that say where an image's bytes are; exactly one of them is given.
    static let imageSources = ["png", "pngBase64", "jpeg", "jpegBase64"]

    /// The documented base64 (docs/scene-format.md): the standard alphabet in groups of four, the last padded
    /// with one or two `=` and no more. Foundation's decoder also takes surplus `=` (a PNG's base64 followed
    /// by "===="), which another reader of the same document would refuse.
    static func isCanonicalBase64(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return false }
        let padding = bytes.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return false }
        return bytes.dropLast(padding).allSatisfy { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2F
        }
    }
    static let interpolations: [String: Image.Interpolation] = ["none": .none, "low": .low, "medium": .medium, "high": .high]

    /// One `resources.images` entry: `{"png": "file.png"}` (relative to the scene file), `{"pngBase64": "…"}`,
    /// `{"jpeg": "photo.jpg"}` or `{"jpegBase64": "…"}`, with the optional `template`, `interpolation` and
    /// `scale`. The bytes must be the format the key names. Decoding failures are errors at the entry that
    /// name the file: `resources.images.logo: /d/logo.png: not a valid PNG (…)`.
    mutating func image(_ n: Node) throws -> Image {
        guard case .object(let raw) = n.value else {
            throw n.expected("an image ({\"png\": \"file.png\"}, {\"pngBase64\": \"…\"}, {\"jpeg\": …} or {\"jpegBase64\": …})")
        }
        if raw["systemName"] != nil {
            // `Image(systemName:)`: a template glyph (API/SystemImage.swift), no pixels, no other keys. A name
            // the table lacks is an error here (the API would draw nothing, silently).
            let o = try n.object("a system image", allowed: ["systemName"])
            let nameNode = try o.required("systemName")
            let name = try nameNode.string()
            guard SystemImages.isSupported(name) else {
                throw nameNode.error("unknown system image \(jsonQuoted(name)) (docs/system-images.md lists the "
                                     + "\(SystemImages.supportedNames.count) supported names)")
            }
            return Image(systemName: name)
        }
        let o = try n.object("an image", allowed: Self.imageSources + ["template", "interpolation", "scale"])
        let kinds = Self.imageSources.filter { raw[$0] != nil }
        guard kinds.count == 1 else {
            throw n.error(kinds.isEmpty ? "expected one of the keys \(Self.imageSources.joined(separator: ", "))"
                                        : "expected one image source, got \(kinds.joined(separator: " and "))")
        }
        let kind = kinds[0]
        let source = try o.required(kind)
        let text = try source.string()
        let pixels: RasterImage
        // What the scene's other images left of the budget: a decoder refuses more from the header.
        let left = RenderLimits(imageBytes: options.limits.imageBytes - decodedBytes)
        let key: String
        if kind == "png" || kind == "jpeg" {
            guard !text.isEmpty else { throw source.error("expected a file path, got an empty string") }
            let path = try confined(text, source)
            key = kind + ":" + (realPath(path) ?? path)
            if case .success(let done)? = decoded[key]?.result {
                pixels = done
            } else {
                do {
                    let url = URL(fileURLWithPath: path)
                    pixels = kind == "png" ? try RasterImage(contentsOfPNG: url, limits: left)
                                           : try RasterImage(contentsOfJPEG: url, limits: left)
                } catch {
                    throw n.error(Self.fileMessage(overBudget(error), path: path, expected: kind))
                }
            }
        } else {
            key = kind + ":" + text
            if case .success(let done)? = decoded[key]?.result {
                pixels = done
            } else {
                guard Self.isCanonicalBase64(text), let data = Data(base64Encoded: text) else {
                    throw source.error("not valid base64 (the standard alphabet with = padding, no line breaks)")
                }
                do {
                    pixels = kind == "pngBase64" ? try RasterImage(pngData: data, limits: left)
                                                 : try RasterImage(jpegData: data, limits: left)
                } catch {
                    throw n.error("\(kind): \(overBudget(error))")
                }
            }
        }
        if decoded[key] == nil {
            decoded[key] = ImageContent(.success(pixels), source: nil)
            decodedBytes += pixels.width * pixels.height * 4
        }
        var scale: CGFloat = 1
        if let s = o.optional("scale") {
            scale = try s.cgFloat()
            guard scale > 0 else { throw s.error("scale must be > 0, got \(fmt(scale))") }
        }
        var image = Image(content: decoded[key]!, scale: scale)
        if let t = o.optional("template"), try t.bool() { image = image.renderingMode(.template) }
        if let i = o.optional("interpolation") {
            image = image.interpolation(try named(i, "interpolation", Self.interpolations))
        }
        return image
    }

    /// `path` (a resource file as the scene spells it) joined to the base folder and normalised, or the
    /// located error that refuses it for leading outside the allowed folders.
    func confined(_ text: String, _ node: Node) throws -> String {
        guard let path = confinement.resolve(text) else {
            throw node.error("\(jsonQuoted(text)) is outside the scene's folder and the folders allowed to it")
        }
        return path
    }

    /// A decoder's refusal of an image over what the scene's other images left of the budget, reworded to
    /// say so; any other error as it is.
    func overBudget(_ error: any Error) -> any Error {
        guard case .overMemoryLimit(let w, let h, _, let path)? = error as? ImageError else { return error }
        if decodedBytes == 0 { return ImageError.overMemoryLimit(width: w, height: h, limit: options.limits.imageBytes, path: path) }
        return SceneImageBudgetError(width: w, height: h, used: decodedBytes, limit: options.limits.imageBytes)
    }

    /// `/d/logo.png: <what is wrong>` for a file that could not be read or decoded as the `expected` format.
    static func fileMessage(_ error: any Error, path: String, expected: String) -> String {
        guard let e = error as? ImageError else { return "\(path): \(error)" }
        let text: String
        switch e {
        case .fileNotFound: return "\(path): no such file"
        case .fileUnreadable(_, let reason): return "\(path): cannot read the file: \(reason)"
        case .invalidPNG(let message):
            let own = message.hasPrefix(path + ": ") ? String(message.dropFirst(path.count + 2)) : message
            text = "not a valid PNG (\(own))"
        default:
            let d = e.description
            text = d.hasPrefix(path + ": ") ? String(d.dropFirst(path.count + 2)) : d
        }
        // A file of the other format under the wrong key says so.
        var hint = ""
        if let format = ImageFileFormat(sniffing: Self.leadingBytes(path)) {
            if expected == "png", format == .jpeg { hint = "; it is a JPEG file: name it with \"jpeg\"" }
            if expected == "jpeg", format == .png { hint = "; it is a PNG file: name it with \"png\"" }
        }
        return "\(path): \(text)\(hint)"
    }

    /// The first four bytes of a file (fewer when it is shorter or cannot be read).
    static func leadingBytes(_ path: String) -> [UInt8] {
        guard let fd = try? openForReading(path).fd else { return [] }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4)
        let n = read(fd, &bytes, 4)
        return n > 0 ? Array(bytes[0 ..< n]) : []
    }

    /// The image a command names (`"image": "logo"`, `"tiledImage": "logo"`).
    func imageNamed(_ n: Node) throws -> Image {
        let name = try n.string()
        guard let image = images[name] else {
            let known = imageNames.isEmpty ? "the document has no resources.images"
                                           : "resources.images has: " + imageNames.joined(separator: ", ")
            throw n.error("unknown image \(jsonQuoted(name)) (\(known))")
        }
        return image
    }

    func commandList(_ node: Node) throws -> [SceneCommand] {
        try node.array().map(command)
    }

    static let drawingAndStateOps = ["fill", "stroke", "image", "text", "opacity", "blendMode", "transform", "concatenate",
                                     "translate", "scale", "rotate", "clip", "clipToLayer", "copy", "layer", "filter",
                                     "symbol"]

    func command(_ node: Node) throws -> SceneCommand {
        guard case .object(let raw) = node.value else { throw node.expected("a command object") }
        let opNode = try Object(object: raw, path: node.path).required("op")
        let op = try opNode.string()
        switch op {
        case "fill":
            let o = try node.object("a command object", allowed: ["op", "path", "shading", "eoFill", "antialiased"])
            let path = try self.path(try o.required("path"))
            let shading = try self.shading(try o.required("shading"))
            let style = FillStyle(eoFill: try o.optional("eoFill")?.bool() ?? false,
                                  antialiased: try o.optional("antialiased")?.bool() ?? true)
            return .fill(path, shading, style)
        case "stroke":
            let o = try node.object("a command object", allowed: ["op", "path", "shading", "lineWidth", "lineCap",
                                                                   "lineJoin", "miterLimit", "dash", "dashPhase"])
            let path = try self.path(try o.required("path"))
            let shading = try self.shading(try o.required("shading"))
            var style = StrokeStyle()
            if let n = o.optional("lineWidth") { style.lineWidth = try n.nonNegative("lineWidth") }
            if let n = o.optional("lineCap") {
                style.lineCap = try named(n, "line cap", ["butt": CGLineCap.butt, "round": .round, "square": .square])
            }
            if let n = o.optional("lineJoin") {
                style.lineJoin = try named(n, "line join", ["miter": CGLineJoin.miter, "round": .round, "bevel": .bevel])
            }
            if let n = o.optional("miterLimit") { style.miterLimit = try n.nonNegative("miterLimit") }
            if let n = o.optional("dash") { style.dash = try n.array().map { try $0.nonNegative("a dash length") } }
            if let n = o.optional("dashPhase") { style.dashPhase = try n.cgFloat() }
            return .stroke(path, shading, style)
        case "image":
            return try imageCommand(node)
        case "text":
            return try textCommand(node)
        case "symbol":
            return try symbolCommand(node)
        case "opacity":
            let o = try node.object("a command object", allowed: ["op", "value"])
            let n = try o.required("value")
            let v = try n.number()
            guard v >= 0, v <= 1 else { throw n.error("opacity must be in 0…1, got \(fmt(CGFloat(v)))") }
            return .opacity(v)
        case "blendMode":
            let o = try node.object("a command object", allowed: ["op", "value"])
            return .blendMode(try blendMode(try o.required("value")))
        case "transform", "concatenate":
            let o = try node.object("a command object", allowed: ["op", "value"])
            let t = try transform(try o.required("value"))
            return op == "transform" ? .setTransform(t) : .concatenate(t)
        case "translate", "scale":
            let o = try node.object("a command object", allowed: ["op", "x", "y"])
            let x = try o.required("x").cgFloat(), y = try o.required("y").cgFloat()
            return op == "translate" ? .translate(x, y) : .scale(x, y)
        case "rotate":
            let o = try node.object("a command object", allowed: ["op", "degrees"])
            return .rotate(degrees: try o.required("degrees").number())
        case "copy", "layer":
            let o = try node.object("a command object", allowed: ["op", "commands"])
            let commands = try commandList(try o.required("commands"))
            return op == "copy" ? .copy(commands) : .layer(commands)
        case "clip":
            let o = try node.object("a command object", allowed: ["op", "path", "eoFill", "antialiased", "inverse"])
            let path = try self.path(try o.required("path"))
            let style = FillStyle(eoFill: try o.optional("eoFill")?.bool() ?? false,
                                  antialiased: try o.optional("antialiased")?.bool() ?? true)
            return .clip(path, style, inverse: try o.optional("inverse")?.bool() ?? false)
        case "clipToLayer":
            let o = try node.object("a command object", allowed: ["op", "opacity", "inverse", "commands"])
            var opacity = 1.0
            if let n = o.optional("opacity") {
                opacity = try n.number()
                guard opacity >= 0, opacity <= 1 else { throw n.error("opacity must be in 0…1, got \(fmt(CGFloat(opacity)))") }
            }
            let inverse = try o.optional("inverse")?.bool() ?? false
            return .clipToLayer(opacity: opacity, inverse: inverse, try commandList(try o.required("commands")))
        case "filter":
            let o = try node.object("a command object", allowed: ["op", "filter", "linearColor"])
            let filter = try self.filter(try o.required("filter"))
            let linear = try o.optional("linearColor")?.bool() ?? false
            return .filter(filter, linear ? .linearColor : [])
        default:
            throw opNode.error("unknown op \(jsonQuoted(op)) (expected one of: "
                               + Self.drawingAndStateOps.joined(separator: ", ") + ")")
        }
    }

    static let filterNames = ["blur", "shadow", "colorMultiply", "colorMatrix", "hueRotation", "saturation", "brightness",
                              "contrast", "colorInvert", "grayscale", "luminanceToAlpha", "alphaThreshold",
                              "alphaMultiply", "projectionTransform"]

    /// A filter object with one key: `{"saturation": 0.5}`, `{"blur": {"radius": 3}}`, …
    func filter(_ node: Node) throws -> GraphicsContext.Filter {
        let o = try node.object("a filter object", allowed: Self.filterNames)
        guard o.object.members.count == 1, let key = o.object.members.first?.key else {
            throw node.error("a filter object has exactly one key (one of: \(Self.filterNames.joined(separator: ", ")))")
        }
        let n = try o.required(key)
        func options<T: OptionSet>(_ table: [String: T], in obj: Object) throws -> T where T.Element == T {
            guard let list = obj.optional("options") else { return T() }
            var result = T()
            for item in try list.array() { result.insert(try named(item, "option", table)) }
            return result
        }
        switch key {
        case "blur":
            let b = try n.object("a blur object", allowed: ["radius", "options"])
            return .blur(radius: try b.required("radius").nonNegative("radius"),
                         options: try options(["opaque": .opaque, "dithersResult": .dithersResult], in: b))
        case "shadow":
            let b = try n.object("a shadow object", allowed: ["color", "radius", "x", "y", "blendMode", "options"])
            let color = try b.optional("color").map(self.color) ?? Color(.sRGBLinear, white: 0, opacity: 0.33)
            let mode = try b.optional("blendMode").map(blendMode) ?? .normal
            let table: [String: GraphicsContext.ShadowOptions] = ["shadowAbove": .shadowAbove, "shadowOnly": .shadowOnly,
                                                                   "invertsAlpha": .invertsAlpha, "disablesGroup": .disablesGroup]
            return .shadow(color: color, radius: try b.required("radius").nonNegative("radius"),
                           x: try b.optional("x")?.cgFloat() ?? 0, y: try b.optional("y")?.cgFloat() ?? 0,
                           blendMode: mode, options: try options(table, in: b))
        case "colorMultiply": return .colorMultiply(try color(n))
        case "alphaMultiply": return .alphaMultiply(try color(n))
        case "colorMatrix":
            // 20 numbers row by row, or {"matrix": [20 numbers], "premultiplied": true}.
            if case .object = n.value {
                let m = try n.object("a colour matrix object", allowed: ["matrix", "premultiplied"])
                let entries = try m.required("matrix").numbers(20, "20 colour matrix entries, row by row").map { Float($0) }
                return .colorMatrix(ColorMatrix(entries: entries), isPremultiplied: try m.optional("premultiplied")?.bool() ?? false)
            }
            return .colorMatrix(ColorMatrix(entries: try n.numbers(20, "20 colour matrix entries, row by row").map { Float($0) }))
        case "hueRotation": return .hueRotation(.degrees(try n.number()))
        case "saturation": return .saturation(try n.number())
        case "brightness": return .brightness(try n.number())
        case "contrast": return .contrast(try n.number())
        case "colorInvert": return .colorInvert(try n.number())
        case "grayscale": return .grayscale(try n.number())
        case "luminanceToAlpha":
            guard try n.bool() else { throw n.error("luminanceToAlpha takes true") }
            return .luminanceToAlpha
        case "alphaThreshold":
            let b = try n.object("an alpha threshold object", allowed: ["min", "max", "color"])
            return .alphaThreshold(min: try b.required("min").number(), max: try b.optional("max")?.number() ?? 1,
                                   color: try b.optional("color").map(self.color) ?? .black)
        default:  // "projectionTransform"
            let m = try n.numbers(9, "9 projection matrix entries, row by row")
            var p = ProjectionTransform()
            (p.m11, p.m12, p.m13, p.m21, p.m22, p.m23, p.m31, p.m32, p.m33) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
            return .projectionTransform(p)
        }
    }

    /// `{"op": "image", "image": NAME, "in": RECT}` (with the fill style keys `eoFill`, `antialiased`) or
    /// `"at": P, "anchor": [ux, uy]`; a template image may take a `shading` (its fill, `.foreground` by default).
    func imageCommand(_ node: Node) throws -> SceneCommand {
        let o = try node.object("a command object", allowed: ["op", "image", "in", "at", "anchor", "eoFill",
                                                               "antialiased", "shading"])
        let nameNode = try o.required("image")
        let image = try imageNamed(nameNode)
        var shading: Shading?
        if let s = o.optional("shading") {
            guard image.renderingMode == .template else {
                throw s.error("only a template image takes a shading (resources.images.\(try nameNode.string()) "
                              + "has no \"template\": true)")
            }
            shading = try self.shading(s)
        }
        switch (o.optional("in"), o.optional("at")) {
        case (let r?, nil):
            if let a = o.optional("anchor") { throw a.error("anchor goes with \"at\", not with \"in\"") }
            let style = FillStyle(eoFill: try o.optional("eoFill")?.bool() ?? false,
                                  antialiased: try o.optional("antialiased")?.bool() ?? true)
            return .image(image, .in(try rect(r), style), shading: shading)
        case (nil, let p?):
            for key in ["eoFill", "antialiased"] {
                if let k = o.optional(key) {
                    throw k.error("\(key) goes with \"in\" (draw(_:at:anchor:) takes no fill style)")
                }
            }
            let anchor = try o.optional("anchor").map(unitPoint) ?? .center
            return .image(image, .at(try point(p), anchor: anchor), shading: shading)
        case (nil, nil):
            throw node.error("expected \"in\": [x, y, w, h] or \"at\": [x, y]")
        case (_?, _?):
            throw node.error("expected \"in\" or \"at\", got both")
        }
    }

    /// `{"op": "text", "text": "Hello" | [span…], "font": FONT, "shading": SHADING, "at"/"anchor" | "in" |
    /// "baselineOrigin"}` (docs/scene-format.md).
    func textCommand(_ node: Node) throws -> SceneCommand {
        let o = try node.object("a command object", allowed: ["op", "text", "font", "shading", "in", "at", "anchor",
                                                               "baselineOrigin"])
        let textNode = try o.required("text")
        var text: Text
        if case .array = textNode.value {
            let spans = try textNode.array().map(textSpan)
            guard let first = spans.first else { throw textNode.error("expected a string or at least one span") }
            text = spans.dropFirst().reduce(first, +)
        } else {
            text = Text(verbatim: try textNode.string())
        }
        if let f = o.optional("font") { text = text.font(try font(f)) }
        let shading = try o.optional("shading").map(self.shading)
        let placements = ["in", "at", "baselineOrigin"].compactMap { o.optional($0) }
        guard placements.count == 1 else {
            throw node.error(placements.isEmpty ? "expected \"in\": [x, y, w, h], \"at\": [x, y] or \"baselineOrigin\": [x, y]"
                                                : "expected one of \"in\", \"at\" and \"baselineOrigin\", got \(placements.count)")
        }
        if let a = o.optional("anchor"), o.optional("at") == nil { throw a.error("anchor goes with \"at\"") }
        if let r = o.optional("in") { return .text(text, .in(try rect(r)), shading: shading) }
        if let p = o.optional("at") {
            return .text(text, .at(try point(p), anchor: try o.optional("anchor").map(unitPoint) ?? .center), shading: shading)
        }
        return .text(text, .baselineOrigin(try point(o.required("baselineOrigin"))), shading: shading)
    }

    static let spanKeys = ["string", "font", "shading", "bold", "italic", "weight", "design", "monospaced",
                           "monospacedDigit", "kerning", "tracking", "baselineOffset", "underline", "strikethrough"]

    /// One run of a `text` array: `{"string": "42", "font": FONT, "shading": SHADING, "bold": true, …}`.
    func textSpan(_ n: Node) throws -> Text {
        let o = try n.object("a text span", allowed: Self.spanKeys)
        var t = Text(verbatim: try o.required("string").string())
        if let f = o.optional("font") { t = t.font(try font(f)) }
        if let s = o.optional("shading") { t.runs[0].foreground = try shading(s) }
        if try o.optional("bold")?.bool() == true { t = t.bold() }
        if try o.optional("italic")?.bool() == true { t = t.italic() }
        if let w = o.optional("weight") { t = t.fontWeight(try fontWeight(w)) }
        if let d = o.optional("design") { t = t.fontDesign(try named(d, "font design", Self.designs)) }
        if try o.optional("monospaced")?.bool() == true { t = t.monospaced() }
        if try o.optional("monospacedDigit")?.bool() == true { t = t.monospacedDigit() }
        if let k = o.optional("kerning") { t = t.kerning(try k.cgFloat()) }
        if let k = o.optional("tracking") { t = t.tracking(try k.cgFloat()) }
        if let k = o.optional("baselineOffset") { t = t.baselineOffset(try k.cgFloat()) }
        for (key, underline) in [("underline", true), ("strikethrough", false)] {
            guard let d = o.optional(key) else { continue }
            // true, or a colour for the bar.
            var color: Color?
            if case .bool(let on) = d.value { if !on { continue } } else { color = try self.color(d) }
            t = underline ? t.underline(true, color: color) : t.strikethrough(true, color: color)
        }
        return t
    }

    static let designs: [String: Font.Design] = ["default": .default, "serif": .serif, "rounded": .rounded,
                                                 "monospaced": .monospaced]
    static let weights: [String: Font.Weight] = ["ultraLight": .ultraLight, "thin": .thin, "light": .light,
                                                 "regular": .regular, "medium": .medium, "semibold": .semibold,
                                                 "bold": .bold, "heavy": .heavy, "black": .black]
    static let textStyles: [String: Font.TextStyle] = Dictionary(uniqueKeysWithValues: Font.TextStyle.allCases.map { ("\($0)", $0) })

    func fontWeight(_ n: Node) throws -> Font.Weight {
        if case .number(let v) = n.value {
            guard v >= 1, v <= 1000 else { throw n.error("font weight must be in 1…1000, got \(fmt(CGFloat(v)))") }
            return Font.Weight(value: v)
        }
        return try named(n, "font weight", Self.weights)
    }

    /// `{"family": "DejaVu Sans", "size": 17}`, `{"style": "headline"}`, `{"file": "fonts/x.ttf", "size": 12}`,
    /// `{"size": 12, "design": "rounded"}` (the system face), with `weight`, `italic`, `monospaced`,
    /// `monospacedDigit`.
    func font(_ n: Node) throws -> Font {
        let o = try n.object("a font", allowed: ["family", "file", "style", "size", "weight", "italic", "design",
                                                 "monospaced", "monospacedDigit"])
        let design = try o.optional("design").map { try named($0, "font design", Self.designs) }
        let size = try o.optional("size").map { try $0.nonNegative("font size") }
        var font: Font
        if let s = o.optional("style") {
            for key in ["family", "file"] where o.has(key) { throw s.error("\"style\" and \"\(key)\" do not go together") }
            if let z = o.optional("size") { throw z.error("a text style has its own size (give \"size\" without \"style\")") }
            font = .system(try named(s, "text style", Self.textStyles), design: design)
        } else {
            guard let size else { throw n.error("expected \"size\" (or a text \"style\")") }
            if let f = o.optional("file") {
                let text = try f.string()
                guard !text.isEmpty else { throw f.error("expected a file path, got an empty string") }
                font = .file(URL(fileURLWithPath: try confined(text, f)), size: size)
            } else if let family = o.optional("family") {
                font = .custom(try family.string(), size: size)
            } else {
                font = .system(size: size, design: design)
            }
        }
        if let w = o.optional("weight") { font = font.weight(try fontWeight(w)) }
        if try o.optional("italic")?.bool() == true { font = font.italic() }
        if try o.optional("monospaced")?.bool() == true { font = font.monospaced() }
        if try o.optional("monospacedDigit")?.bool() == true { font = font.monospacedDigit() }
        return font
    }

    func named<T>(_ node: Node, _ what: String, _ table: [String: T]) throws -> T {
        let name = try node.string()
        guard let v = table[name] else {
            throw node.error("unknown \(what) \(jsonQuoted(name)) (expected one of: \(table.keys.sorted().joined(separator: ", ")))")
        }
        return v
    }

    // MARK: Values

    func point(_ n: Node) throws -> CGPoint {
        let v = try n.numbers(2, "a point [x, y]")
        return CGPoint(x: v[0], y: v[1])
    }

    /// `[ux, uy]`: a point in the drawn item's unit space (any finite numbers).
    func unitPoint(_ n: Node) throws -> UnitPoint {
        let v = try n.numbers(2, "a unit point [x, y]")
        return UnitPoint(x: v[0], y: v[1])
    }

    func rect(_ n: Node) throws -> CGRect {
        let v = try n.numbers(4, "a rect [x, y, w, h]")
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    func transform(_ n: Node) throws -> CGAffineTransform {
        let v = try n.numbers(6, "a transform [a, b, c, d, tx, ty]")
        return CGAffineTransform(a: v[0], b: v[1], c: v[2], d: v[3], tx: v[4], ty: v[5])
    }

    func blendMode(_ n: Node) throws -> GraphicsContext.BlendMode {
        let name = try n.string()
        guard let m = GraphicsContext.BlendMode(name: name) else {
            throw n.error("unknown blend mode \(jsonQuoted(name)) (expected one of: \(GraphicsContext.BlendMode.names.joined(separator: ", ")))")
        }
        return m
    }

    func color(_ n: Node) throws -> Color {
        switch n.value {
        case .string(let s):
            if s.hasPrefix("#") { return try hexColor(s, n) }
            guard let c = Color.named[s] else {
                throw n.error("unknown colour name \(jsonQuoted(s)) (expected \"#RRGGBB\", \"#RRGGBBAA\" or one of: "
                              + Color.named.keys.sorted().joined(separator: ", ") + ")")
            }
            return c
        case .object:
            let o = try n.object("a colour", allowed: ["space", "rgba"])
            let space = try named(try o.required("space"), "colour space",
                                  ["sRGB": Color.RGBColorSpace.sRGB, "sRGBLinear": .sRGBLinear, "displayP3": .displayP3])
            let rgbaNode = try o.required("rgba")
            let c = try rgbaNode.numbers(4, "[r, g, b, a]")
            guard c[3] >= 0, c[3] <= 1 else {
                throw Node(.number(Double(c[3])), rgbaNode.path.index(3)).error("alpha must be in 0…1, got \(fmt(c[3]))")
            }
            return Color(space, red: Double(c[0]), green: Double(c[1]), blue: Double(c[2]), opacity: Double(c[3]))
        default:
            throw n.expected("a colour")
        }
    }

    func hexColor(_ s: String, _ n: Node) throws -> Color {
        let digits = Array(s.utf8.dropFirst())
        func hex(_ b: UInt8) -> Int? {
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): return Int(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): return Int(b - UInt8(ascii: "a")) + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): return Int(b - UInt8(ascii: "A")) + 10
            default: return nil
            }
        }
        let values = digits.map(hex)
        guard digits.count == 6 || digits.count == 8, values.allSatisfy({ $0 != nil }) else {
            throw n.error("expected a colour \"#RRGGBB\" or \"#RRGGBBAA\", got \(jsonQuoted(s))")
        }
        let v = values.map { $0! }
        func byte(_ k: Int) -> Double { Double(v[2 * k] * 16 + v[2 * k + 1]) / 255 }
        return Color(.sRGB, red: byte(0), green: byte(1), blue: byte(2), opacity: digits.count == 8 ? byte(3) : 1)
    }

    typealias Shading = GraphicsContext.Shading

    /// The keys that say what kind of shading an object is; exactly one of them names it.
    static let shadingKinds = ["color", "linearGradient", "radialGradient", "conicGradient", "style", "palette",
                               "tiledImage", "meshGradient"]

    func shading(_ n: Node) throws -> Shading {
        switch n.value {
        case .string(let s):
            if s == "backdrop" { return .backdrop }
            guard s == "foreground" else {
                throw n.error("expected a shading ({\"color\": …}, a gradient, {\"style\": …}, {\"palette\": […]}, "
                              + "\"foreground\" or \"backdrop\"), got \(jsonQuoted(s))")
            }
            return .foreground
        case .object(let raw):
            let kinds = Self.shadingKinds.filter { raw[$0] != nil }
            guard kinds.count == 1 else {
                if kinds.isEmpty {
                    _ = try n.object("a shading", allowed: Self.shadingKinds)  // names an unknown key if there is one
                    throw n.error("expected one of the keys \(Self.shadingKinds.joined(separator: ", "))")
                }
                throw n.error("expected one shading, got \(kinds.joined(separator: " and "))")
            }
            switch kinds[0] {
            case "color":
                let o = try n.object("a shading", allowed: ["color"])
                return .color(try color(try o.required("color")))
            case "tiledImage":
                let o = try n.object("a tiledImage shading", allowed: ["tiledImage", "origin", "sourceRect", "scale"])
                let imageNode = try o.required("tiledImage")
                let image = try imageNamed(imageNode)
                if let name = image.content.systemName {
                    throw imageNode.error("system image \(jsonQuoted(name)) cannot be tiled: it has no pixels")
                }
                var scale: CGFloat = 1
                if let s = o.optional("scale") {
                    scale = try s.cgFloat()
                    guard scale > 0 else { throw s.error("scale must be > 0, got \(fmt(scale))") }
                }
                return .tiledImage(image, origin: try o.optional("origin").map(point) ?? .zero,
                                   sourceRect: try o.optional("sourceRect").map(rect) ?? CGRect(x: 0, y: 0, width: 1, height: 1),
                                   scale: scale)
            case "style":
                let o = try n.object("a shading", allowed: ["style"])
                return try style(try o.required("style"))
            case "meshGradient":
                let o = try n.object("a shading", allowed: ["meshGradient"])
                return .meshGradient(try meshGradient(try o.required("meshGradient")))
            case "palette":
                let o = try n.object("a shading", allowed: ["palette"])
                let list = try o.required("palette")
                let levels = try list.array().map(shading)
                guard !levels.isEmpty else { throw list.error("a palette needs at least one shading") }
                return .palette(levels)
            default:
                return try gradientShading(kinds[0], n, twoPoint: raw["startCenter"] != nil)
            }
        default:
            throw n.expected("a shading")
        }
    }

    /// `{"width": w, "height": h, "points": [P, …] | "bezierPoints": [{"position": P, "leading": P, "top": P,
    /// "trailing": P, "bottom": P}, …], "colors": [COLOR, …], "background": COLOR, "smoothsColors": b,
    /// "colorSpace": "device" | "perceptual"}`. Types are checked here; counts, sizes and finiteness by the
    /// lowering, so a scene and the Swift call are refused with the same words.
    func meshGradient(_ n: Node) throws -> MeshGradient {
        let o = try n.object("a mesh gradient", allowed: ["width", "height", "points", "bezierPoints", "colors",
                                                           "background", "smoothsColors", "colorSpace"])
        func side(_ key: String) throws -> Int {
            let node = try o.required(key)
            let v = try node.number()
            guard v == v.rounded(), abs(v) <= 1e9 else { throw node.error("\(key) must be a whole number, got \(fmt(CGFloat(v)))") }
            return Int(v)
        }
        let width = try side("width"), height = try side("height")
        func simd(_ p: CGPoint) -> SIMD2<Float> { SIMD2(Float(p.x), Float(p.y)) }
        let locations: MeshGradient.Locations
        switch (o.optional("points"), o.optional("bezierPoints")) {
        case (let p?, nil):
            locations = .points(try p.array().map { simd(try point($0)) })
        case (nil, let b?):
            locations = .bezierPoints(try b.array().map { v in
                let q = try v.object("a bezier point", allowed: ["position", "leading", "top", "trailing", "bottom"])
                return MeshGradient.BezierPoint(
                    position: simd(try point(try q.required("position"))),
                    leadingControlPoint: simd(try point(try q.required("leading"))),
                    topControlPoint: simd(try point(try q.required("top"))),
                    trailingControlPoint: simd(try point(try q.required("trailing"))),
                    bottomControlPoint: simd(try point(try q.required("bottom"))))
            })
        case (nil, nil): throw n.error("a mesh gradient needs points or bezierPoints")
        default: throw n.error("a mesh gradient has points or bezierPoints, not both")
        }
        let colors = try o.required("colors").array().map(color)
        return MeshGradient(width: width, height: height, locations: locations, colors: .colors(colors),
                            background: try o.optional("background").map(color) ?? .clear,
                            smoothsColors: try o.optional("smoothsColors")?.bool() ?? true,
                            colorSpace: try o.optional("colorSpace").map(gradientColorSpace) ?? .device)
    }

    /// `linearGradient`, `radialGradient` (centre or two-point form) and `conicGradient`, made with the
    /// `Shading` factories.
    func gradientShading(_ kind: String, _ n: Node, twoPoint: Bool) throws -> Shading {
        var allowed = [kind]
        switch kind {
        case "linearGradient": allowed += ["start", "end"]
        case "conicGradient": allowed += ["center", "angle"]
        default: allowed += twoPoint ? ["startCenter", "startRadius", "endCenter", "endRadius"]
                                     : ["center", "startRadius", "endRadius"]
        }
        let o = try n.object("a \(kind) shading", allowed: allowed + ["options", "colorSpace"])
        let gradient = try self.gradient(try o.required(kind))
        let options = try o.optional("options").map(gradientOptions) ?? []
        let space = try o.optional("colorSpace").map(gradientColorSpace) ?? .device
        switch kind {
        case "linearGradient":
            let shading = Shading.linearGradient(gradient, startPoint: try point(try o.required("start")),
                                                 endPoint: try point(try o.required("end")), options: options)
            return interpolated(shading, in: space)
        case "conicGradient":
            let center = try point(try o.required("center"))
            let angle = try o.optional("angle")?.number() ?? 0
            return interpolated(.conicGradient(gradient, center: center, angle: .degrees(angle), options: options), in: space)
        default:
            let startCenter = try point(try o.required(twoPoint ? "startCenter" : "center"))
            let startRadius = try o.required("startRadius").nonNegative("startRadius")
            let endCenter = twoPoint ? try point(try o.required("endCenter")) : startCenter
            let endRadius = try o.required("endRadius").nonNegative("endRadius")
            if !twoPoint, space == .device {
                return .radialGradient(gradient, center: startCenter, startRadius: startRadius, endRadius: endRadius,
                                       options: options)
            }
            // The two-point factory is the one that takes an interpolation space (an `AnyGradient`); with equal
            // centres it records what the centre form records.
            return .radialGradient(gradient.colorSpace(space), startCenter: startCenter, startRadius: startRadius,
                                   endCenter: endCenter, endRadius: endRadius, options: options)
        }
    }

    /// `shading` with its gradient interpolated in `space`. The linear and conic factories take a `Gradient`,
    /// which interpolates in the device space, so a perceptual one is set on the recorded gradient directly.
    func interpolated(_ shading: Shading, in space: Gradient.ColorSpace) -> Shading {
        guard space != .device, case .gradient(var g) = shading.kind else { return shading }
        g.colorSpace = space
        return Shading(kind: .gradient(g))
    }

    static let styleKinds = ["linearGradient", "radialGradient", "angularGradient", "ellipticalGradient"]

    /// `.style(…)`: a colour, or a gradient style whose UnitPoints map onto the drawn item's bounds, made with
    /// the SwiftUI style initializers.
    func style(_ n: Node) throws -> Shading {
        switch n.value {
        case .string: return .style(try color(n))
        case .object(let raw):
            if raw["space"] != nil || raw["rgba"] != nil { return .style(try color(n)) }
            let kinds = Self.styleKinds.filter { raw[$0] != nil }
            guard kinds.count == 1 else {
                if kinds.isEmpty {
                    _ = try n.object("a style", allowed: Self.styleKinds + ["space", "rgba"])
                    throw n.error("expected a colour or one of the keys \(Self.styleKinds.joined(separator: ", "))")
                }
                throw n.error("expected one style, got \(kinds.joined(separator: " and "))")
            }
            let kind = kinds[0]
            let keys: [String]
            switch kind {
            case "linearGradient": keys = ["startPoint", "endPoint"]
            case "radialGradient": keys = ["center", "startRadius", "endRadius"]
            case "angularGradient": keys = ["center", "startAngle", "endAngle"]
            default: keys = ["center", "startRadiusFraction", "endRadiusFraction"]
            }
            let o = try n.object("a \(kind) style", allowed: [kind] + keys + ["colorSpace"])
            let gradient = try self.gradient(try o.required(kind))
            let space = try o.optional("colorSpace").map(gradientColorSpace) ?? .device
            switch kind {
            case "linearGradient":
                let style = LinearGradient(gradient: gradient, startPoint: try unitPoint(try o.required("startPoint")),
                                           endPoint: try unitPoint(try o.required("endPoint")))
                return .style(style.colorSpace(space))
            case "radialGradient":
                var style = RadialGradient(gradient: gradient, center: try unitPoint(try o.required("center")),
                                           startRadius: try o.required("startRadius").nonNegative("startRadius"),
                                           endRadius: try o.required("endRadius").nonNegative("endRadius"))
                style.unit.colorSpace = space
                return .style(style)
            case "angularGradient":
                var style = AngularGradient(gradient: gradient, center: try unitPoint(try o.required("center")),
                                            startAngle: .degrees(try o.optional("startAngle")?.number() ?? 0),
                                            endAngle: .degrees(try o.optional("endAngle")?.number() ?? 0))
                style.unit.colorSpace = space
                return .style(style)
            default:
                var style = EllipticalGradient(
                    gradient: gradient, center: try o.optional("center").map(unitPoint) ?? .center,
                    startRadiusFraction: try o.optional("startRadiusFraction")?.nonNegative("startRadiusFraction") ?? 0,
                    endRadiusFraction: try o.optional("endRadiusFraction")?.nonNegative("endRadiusFraction") ?? 0.5)
                style.unit.colorSpace = space
                return .style(style)
            }
        default:
            throw n.expected("a style (a colour or a gradient style object)")
        }
    }

    /// `{"stops": [[location, COLOR], …]}` or `{"colors": [COLOR, …]}` (evenly spaced); at least one stop.
    func gradient(_ n: Node) throws -> Gradient {
        guard case .object(let raw) = n.value else {
            throw n.expected("a gradient ({\"stops\": […]} or {\"colors\": […]})")
        }
        if raw["stops"] != nil, raw["colors"] != nil { throw n.error("expected stops or colors, got both") }
        let o = try n.object("a gradient", allowed: ["stops", "colors"])
        if let list = o.optional("colors") {
            let colors = try list.array().map(color)
            guard !colors.isEmpty else { throw list.error("a gradient needs at least one colour") }
            return Gradient(colors: colors)
        }
        guard let list = o.optional("stops") else { throw n.error("expected the key stops or colors") }
        let stops = try list.array().map { stop -> Gradient.Stop in
            guard case .array(let parts) = stop.value, parts.count == 2 else {
                throw stop.expected("a stop [location, colour]")
            }
            let locationNode = Node(parts[0], stop.path.index(0))
            let location = try locationNode.number()
            guard location >= 0, location <= 1 else {
                throw locationNode.error("a stop location must be in 0…1, got \(fmt(CGFloat(location)))")
            }
            return Gradient.Stop(color: try color(Node(parts[1], stop.path.index(1))), location: CGFloat(location))
        }
        guard !stops.isEmpty else { throw list.error("a gradient needs at least one stop") }
        return Gradient(stops: stops)
    }

    func gradientOptions(_ n: Node) throws -> GraphicsContext.GradientOptions {
        var options: GraphicsContext.GradientOptions = []
        for item in try n.array() {
            options.insert(try named(item, "gradient option", ["repeat": GraphicsContext.GradientOptions.repeat,
                                                                "mirror": .mirror, "linearColor": .linearColor]))
        }
        return options
    }

    func gradientColorSpace(_ n: Node) throws -> Gradient.ColorSpace {
        try named(n, "gradient colour space", ["device": Gradient.ColorSpace.device, "perceptual": .perceptual])
    }

    static let pathShapes = ["rect", "ellipse", "roundedRect", "arc", "elements"]

    func path(_ n: Node) throws -> Path {
        if case .string(let s) = n.value {
            guard let p = Path(s) else {
                let shown = s.count > 60 ? jsonQuoted(String(s.prefix(60))) + "…" : jsonQuoted(s)
                throw n.error("not a valid path description: \(shown)")
            }
            return p
        }
        guard case .object(let raw) = n.value else { throw n.expected("a path (a description string or an object)") }
        let kinds = Self.pathShapes.filter { raw[$0] != nil }
        guard kinds.count == 1 else {
            throw n.error(kinds.isEmpty ? "expected one of the keys \(Self.pathShapes.joined(separator: ", "))"
                                        : "expected one shape, got \(kinds.joined(separator: " and "))")
        }
        let kind = kinds[0]
        var allowed = [kind, "transform"]
        if kind == "roundedRect" { allowed += ["cornerRadius", "style"] }
        let o = try n.object("a path", allowed: allowed)
        let body = try o.required(kind)
        var path: Path
        switch kind {
        case "rect":
            path = Path(try rect(body))
        case "ellipse":
            path = Path(ellipseIn: try rect(body))
        case "roundedRect":
            let r = try rect(body)
            let radius = try o.required("cornerRadius").nonNegative("cornerRadius")
            var style = RoundedCornerStyle.continuous
            if let s = o.optional("style") {
                style = try named(s, "corner style", ["circular": RoundedCornerStyle.circular, "continuous": .continuous])
            }
            path = Path(roundedRect: r, cornerRadius: radius, style: style)
        case "arc":
            let a = try body.object("an arc object", allowed: ["center", "radius", "start", "end", "clockwise"])
            let center = try point(try a.required("center"))
            let radius = try a.required("radius").nonNegative("radius")
            let start = try a.required("start").number(), end = try a.required("end").number()
            let clockwise = try a.optional("clockwise")?.bool() ?? false
            path = Path { p in
                p.addArc(center: center, radius: radius, startAngle: .degrees(start), endAngle: .degrees(end),
                         clockwise: clockwise)
            }
        default:
            path = try elements(body)
        }
        if let t = o.optional("transform") {
            path = path.applying(try transform(t))
            guard path.isFinite else { throw t.error("the transformed path has coordinates too large to represent") }
        }
        return path
    }

    /// `[["m", x, y], ["l", x, y], ["q", cx, cy, x, y], ["c", c1x, c1y, c2x, c2y, x, y], ["z"]]`, built with the
    /// public `Path` builders a user would call.
    func elements(_ n: Node) throws -> Path {
        let arity = ["m": 2, "l": 2, "q": 4, "c": 6, "z": 0]
        var path = Path()
        for e in try n.array() {
            guard case .array(let parts) = e.value, let first = parts.first else {
                throw e.expected("an element [\"m\", x, y], [\"l\", …], [\"q\", …], [\"c\", …] or [\"z\"]")
            }
            let opNode = Node(first, e.path.index(0))
            let op = try opNode.string()
            guard let count = arity[op] else {
                throw opNode.error("unknown path element \(jsonQuoted(op)) (expected m, l, q, c or z)")
            }
            guard parts.count == count + 1 else {
                throw e.error("element \(jsonQuoted(op)) takes \(count) number\(count == 1 ? "" : "s"), got \(parts.count - 1)")
            }
            let v = try Node.numbers(parts.dropFirst(), under: e.path, offset: 1)
            func pt(_ k: Int) -> CGPoint { CGPoint(x: v[k], y: v[k + 1]) }
            switch op {
            case "m": path.move(to: pt(0))
            case "l": path.addLine(to: pt(0))
            case "q": path.addQuadCurve(to: pt(2), control: pt(0))
            case "c": path.addCurve(to: pt(4), control1: pt(0), control2: pt(2))
            default: path.closeSubpath()
            }
        }
        return path
    }
}

/// An image that would take a scene's decoded images past the budget, with what the others take.
private struct SceneImageBudgetError: Error, CustomStringConvertible {
    let width, height, used, limit: Int
    var description: String {
        "image \(width)×\(height) needs \(memorySize(width * height * 4)) decoded; "
            + "with the scene's other images (\(memorySize(used))) that is over the memory limit of \(memorySize(limit))"
    }
}

/// The real path of `path` (symlinks, `.` and `..` resolved), nil when some part of it does not exist.
private func realPath(_ path: String) -> String? {
    guard let r = realpath(path, nil) else { return nil }
    defer { free(r) }
    return String(cString: r)
}

/// Where a scene's resource files may be: at or below the base folder or an allowed one.
struct ResourceConfinement {
    /// The folders as given and as their real paths (a folder reached through a symlink is allowed both ways);
    /// a folder that does not exist has no real path.
    private let lexicalRoots: [String]
    private let realRoots: [String?]

    init(base: String, allowed: [String]) {
        let roots = ([base] + allowed).map { Self.normalized($0) }
        lexicalRoots = roots
        realRoots = roots.map { realPath($0) }
    }

    /// `text` (absolute, or relative to the base folder) as a normalised absolute path when it stays inside
    /// the roots, nil when it leads out. Nothing is opened: the checks use the path's text, then its real path
    /// (or, for a path that does not exist yet, that of its deepest existing folder, and a dangling symlink
    /// counts as leading out), so a refusal says nothing about what lies outside.
    func resolve(_ text: String) -> String? {
        // A NUL would end the path C sees before the one checked here.
        guard !text.contains("\u{0}") else { return nil }
        let path = Self.normalized(text.hasPrefix("/") ? text : lexicalRoots[0] + "/" + text)
        guard lexicalRoots.contains(where: { Self.isInside(path, $0) }) else { return nil }
        if let real = realPath(path) {
            return realRoots.contains(where: { $0.map { Self.isInside(real, $0) } ?? false }) ? path : nil
        }
        // Under a folder that does not exist nothing does: opening it says "no such file".
        if lexicalRoots.indices.allSatisfy({ !Self.isInside(path, lexicalRoots[$0]) || realRoots[$0] == nil }) {
            return path
        }
        // Some part is missing: the deepest part that exists must be a real folder inside; the first missing
        // component must not be a (dangling) symlink.
        var existing = path
        var missing = path
        while existing != "/" {
            missing = existing
            existing = (existing as NSString).deletingLastPathComponent
            if let real = realPath(existing) {
                var info = stat()
                if lstat(missing, &info) == 0 { return nil }  // there, yet unresolvable: a dangling link
                return realRoots.contains(where: { $0.map { Self.isInside(real, $0) } ?? false }) ? path : nil
            }
        }
        return nil
    }

    /// An absolute path without `.`, `..` and empty components: "/a/b/../c/./d" → "/a/c/d".
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for c in path.split(separator: "/", omittingEmptySubsequences: true) {
            if c == "." { continue }
            if c == ".." { _ = parts.popLast(); continue }
            parts.append(c)
        }
        return "/" + parts.joined(separator: "/")
    }

    static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }
}
