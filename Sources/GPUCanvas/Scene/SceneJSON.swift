// A strict JSON parser for scene files.
//
// Why not JSONSerialization: it returns NSNumber for both numbers and booleans (so `true` and `1` cannot be
// told apart on Linux), silently keeps the last of duplicate keys, reports no useful error position, and has
// no depth or size limit. Scene files come from anywhere, so this parser gives exact value kinds, line:column
// plus the JSON location in every syntax error, rejects duplicate keys and non-finite numbers, and bounds the
// nesting depth (recursion) and the document size (memory) before doing any work.
//
// Grammar: RFC 8259, nothing more (no comments, no trailing commas, no NaN literals). A UTF-8 byte order mark
// at the start is skipped.

/// One JSON value with its exact kind.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The kind's name as error messages say it: "got number".
    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

/// A JSON object: members in document order, keys unique (the parser rejects duplicates).
struct JSONObject: Equatable {
    var members: [(key: String, value: JSONValue)]

    subscript(key: String) -> JSONValue? {
        // Scene objects have a handful of keys; a linear scan beats hashing at that size.
        for m in members where m.key == key { return m.value }
        return nil
    }

    static func == (l: JSONObject, r: JSONObject) -> Bool {
        l.members.count == r.members.count && zip(l.members, r.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

/// A location inside a JSON document, printed as in error messages: `commands[12].shading.stops[3]`.
struct JSONPath: CustomStringConvertible, Equatable {
    enum Component: Equatable {
        case key(String)
        case index(Int)
    }
    var components: [Component] = []

    static let root = JSONPath()

    func key(_ k: String) -> JSONPath { JSONPath(components: components + [.key(k)]) }
    func index(_ i: Int) -> JSONPath { JSONPath(components: components + [.index(i)]) }

    /// Paths longer than this many components print their middle elided, so an error in hostile deeply
    /// nested input stays one readable line.
    static let maxPrintedComponents = 24

    /// Empty for the document itself; keys that are not identifiers are quoted: `resources.images["my logo"]`.
    var description: String {
        let n = components.count, keep = JSONPath.maxPrintedComponents / 2
        guard n <= JSONPath.maxPrintedComponents else {
            return JSONPath(components: Array(components.prefix(keep))).description + "…(\(n - 2 * keep) more)…"
                + JSONPath(components: Array(components.suffix(keep))).description
        }
        var s = ""
        for c in components {
            switch c {
            case .index(let i): s += "[\(i)]"
            case .key(let k):
                if JSONPath.isIdentifier(k) { s += s.isEmpty ? k : "." + k }
                else { s += "[" + jsonQuoted(k) + "]" }
            }
        }
        return s
    }

    private static func isIdentifier(_ k: String) -> Bool {
        guard let f = k.unicodeScalars.first, f == "_" || (f.isASCII && f.properties.isAlphabetic) else { return false }
        return k.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}

/// A syntax or limit error: where in the text (1-based line and column, columns count Unicode scalars) and
/// where in the value tree the parser was.
struct JSONSyntaxError: Error, Equatable {
    var line: Int
    var column: Int
    var path: JSONPath
    var message: String
}

enum SceneJSON {
    /// Deepest nesting of arrays and objects accepted. Scenes nest a few levels per `copy` scope; 256 keeps the
    /// recursive parser (and the recursive loader after it) far from the stack limit of any thread.
    static let maxDepth = 256
    /// Largest document accepted, in bytes. The biggest benchmark scenes are a few MiB; the parsed tree takes
    /// roughly 5× the text, so this bounds memory at a few hundred MiB for hostile input.
    static let maxBytes = 64 << 20

    /// Parses one JSON document. `parse(Data("[1, true]".utf8))` → `.array([.number(1), .bool(true)])`.
    static func parse(_ data: Data) throws(JSONSyntaxError) -> JSONValue {
        guard data.count <= maxBytes else {
            throw JSONSyntaxError(line: 1, column: 1, path: .root,
                                  message: "the document is \(data.count) bytes; the limit is \(maxBytes) bytes")
        }
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var p = Parser(bytes: raw.bindMemory(to: UInt8.self))
            do throws(JSONSyntaxError) { return .success(try p.document()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}

/// `hexByte(10)` → "0A".
private func hexByte(_ b: UInt8) -> String {
    let s = String(b, radix: 16, uppercase: true)
    return s.count == 1 ? "0" + s : s
}

private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0
    var depth = 0
    /// Where in the tree we are, kept only for error messages.
    var path: [JSONPath.Component] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        skipSpace()
        guard i < bytes.count else { throw fail("the document is empty") }
        let v = try value()
        skipSpace()
        guard i == bytes.count else { throw fail("unexpected \(describeHere()) after the end of the document") }
        return v
    }

    // MARK: Errors

    /// An error at the current position. Line and column are computed here, not tracked while parsing.
    func fail(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
        let end = min(offset ?? i, bytes.count)
        var line = 1, lineStart = 0
        for k in 0 ..< end where bytes[k] == UInt8(ascii: "\n") { line += 1; lineStart = k + 1 }
        // Columns count scalars: skip UTF-8 continuation bytes.
        var column = 1
        for k in lineStart ..< end where bytes[k] & 0xC0 != 0x80 { column += 1 }
        return JSONSyntaxError(line: line, column: column, path: JSONPath(components: path), message: message)
    }

    func describeHere() -> String {
        guard i < bytes.count else { return "end of input" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x" + hexByte(b)
    }

    // MARK: Values

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard i < bytes.count else { throw fail("expected a value, got end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"): return .number(try number())
        default:
            if matches("NaN") || matches("Infinity") || matches("-Infinity") {
                throw fail("NaN and Infinity are not numbers in JSON (and scenes need finite numbers)")
            }
            throw fail("expected a value, got \(describeHere())")
        }
    }

    func matches(_ word: String) -> Bool {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count else { return false }
        for k in 0 ..< w.count where bytes[i + k] != w[k] { return false }
        return true
    }

    mutating func literal(_ word: String) throws(JSONSyntaxError) {
        guard matches(word) else { throw fail("expected a value, got \(describeHere())") }
        i += word.utf8.count
    }

    mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= SceneJSON.maxDepth else {
            throw fail("nesting is deeper than \(SceneJSON.maxDepth) levels")
        }
    }

    mutating func object() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        i += 1
        var members: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(JSONObject(members: [])) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw fail("expected a key string, got \(describeHere())")
            }
            let keyStart = i
            let key = try string()
            guard seen.insert(key).inserted else {
                throw fail("duplicate key \(jsonQuoted(key))", at: keyStart)
            }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                throw fail("expected ':' after key \(jsonQuoted(key)), got \(describeHere())")
            }
            i += 1
            skipSpace()
            path.append(.key(key))
            let v = try value()
            path.removeLast()
            members.append((key, v))
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or '}', got end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; break }
            throw fail("expected ',' or '}', got \(describeHere())")
        }
        depth -= 1
        return .object(JSONObject(members: members))
    }

    mutating func array() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        i += 1
        var items: [JSONValue] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; depth -= 1; return .array([]) }
        while true {
            skipSpace()
            path.append(.index(items.count))
            let v = try value()
            path.removeLast()
            items.append(v)
            skipSpace()
            guard i < bytes.count else { throw fail("expected ',' or ']', got end of input") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; break }
            throw fail("expected ',' or ']', got \(describeHere())")
        }
        depth -= 1
        return .array(items)
    }

    mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        func digit(_ k: Int) -> Bool { k < bytes.count && bytes[k] >= UInt8(ascii: "0") && bytes[k] <= UInt8(ascii: "9") }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard digit(i) else {
            if matches("Infinity") { throw fail("NaN and Infinity are not numbers in JSON (and scenes need finite numbers)", at: start) }
            throw fail("expected a digit, got \(describeHere())")
        }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
            if digit(i) { throw fail("numbers may not have leading zeros", at: start) }
        } else {
            while digit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digit(i) else { throw fail("expected a digit after '.', got \(describeHere())") }
            while digit(i) { i += 1 }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digit(i) else { throw fail("expected a digit in the exponent, got \(describeHere())") }
            while digit(i) { i += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< i]), as: UTF8.self)
        guard let v = Double(text) else { throw fail("invalid number \(text)", at: start) }
        guard v.isFinite else {
            throw fail("number \(text) is out of range (scenes need finite numbers)", at: start)
        }
        return v
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail("expected 4 hex digits after \\u, got end of input") }
        var v: UInt32 = 0
        for _ in 0 ..< 4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("expected a hex digit in \\u escape, got \(describeHere())")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    /// Validated UTF-8 of `bytes[start..<end]` (a run of a string without escapes).
    func run(_ start: Int, _ end: Int) throws(JSONSyntaxError) -> String.UnicodeScalarView {
        guard end > start else { return String.UnicodeScalarView() }
        guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[start ..< end]), as: UTF8.self) else {
            throw fail("string is not valid UTF-8", at: start)
        }
        return s.unicodeScalars
    }

    mutating func string() throws(JSONSyntaxError) -> String {
        let open = i
        i += 1
        var scalars = String.UnicodeScalarView()
        var runStart = i
        while true {
            guard i < bytes.count else { throw fail("unterminated string", at: open) }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                scalars.append(contentsOf: try run(runStart, i))
                i += 1
                return String(scalars)
            }
            if b < 0x20 { throw fail("control character 0x\(hexByte(b)) in a string (escape it)") }
            if b != UInt8(ascii: "\\") { i += 1; continue }
            scalars.append(contentsOf: try run(runStart, i))
            let escStart = i
            i += 1
            guard i < bytes.count else { throw fail("unterminated string", at: open) }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{08}")
            case UInt8(ascii: "f"): scalars.append("\u{0C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800 ..< 0xDC00).contains(code) {
                    guard matches("\\u") else { throw fail("unpaired surrogate in \\u escape", at: escStart) }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00 ..< 0xE000).contains(low) else { throw fail("unpaired surrogate in \\u escape", at: escStart) }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let u = Unicode.Scalar(code) else { throw fail("unpaired surrogate in \\u escape", at: escStart) }
                scalars.append(u)
            default:
                throw fail("invalid escape sequence in a string", at: escStart)
            }
            runStart = i
        }
    }
}
