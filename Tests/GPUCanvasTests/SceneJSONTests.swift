import XCTest
@testable import GPUCanvas

/// The scene files' JSON parser: exact value kinds, RFC 8259 strictness, positions in errors.
final class SceneJSONTests: XCTestCase {
    private func parse(_ s: String) throws -> JSONValue { try SceneJSON.parse(Data(s.utf8)) }

    private func syntaxError(_ s: String) -> JSONSyntaxError? {
        do { _ = try SceneJSON.parse(Data(s.utf8)); return nil } catch { return error }
    }

    func testValueKindsAreExact() throws {
        XCTAssertEqual(try parse("[1, true, false, null, \"1\", 0, -0.5e2, 1E+2]"),
                       .array([.number(1), .bool(true), .bool(false), .null, .string("1"), .number(0), .number(-50), .number(100)]))
        XCTAssertEqual(try parse(#"{"b": 1, "a": {}}"#),
                       .object(JSONObject(members: [(key: "b", value: .number(1)), (key: "a", value: .object(JSONObject(members: [])))])))
    }

    func testNumbersAreParsedToTheNearestDouble() throws {
        XCTAssertEqual(try parse("0.1"), .number(0.1))
        XCTAssertEqual(try parse("1e-400"), .number(0))  // underflow is finite: rounds to 0
        XCTAssertEqual(try parse("1.7976931348623157e308"), .number(.greatestFiniteMagnitude))
        XCTAssertEqual(syntaxError("1.8e308")?.message, "number 1.8e308 is out of range (scenes need finite numbers)")
    }

    func testNumberGrammarIsStrict() {
        XCTAssertEqual(syntaxError("01")?.message, "numbers may not have leading zeros")
        XCTAssertEqual(syntaxError("1.")?.message, "expected a digit after '.', got end of input")
        XCTAssertEqual(syntaxError("1e")?.message, "expected a digit in the exponent, got end of input")
        XCTAssertEqual(syntaxError("+1")?.message, "expected a value, got '+'")
        XCTAssertEqual(syntaxError("-Infinity")?.message, "NaN and Infinity are not numbers in JSON (and scenes need finite numbers)")
        XCTAssertEqual(syntaxError(".5")?.message, "expected a value, got '.'")
    }

    func testStringEscapes() throws {
        XCTAssertEqual(try parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#), .string("a\"b\\c/d\n\té😀"))
        XCTAssertEqual(try parse("\"héllo\""), .string("héllo"))
        XCTAssertEqual(syntaxError(#""\ud83d""#)?.message, "unpaired surrogate in \\u escape")
        XCTAssertEqual(syntaxError(#""\x""#)?.message, "invalid escape sequence in a string")
        XCTAssertEqual(syntaxError("\"a\nb\"")?.message, "control character 0x0A in a string (escape it)")
        XCTAssertEqual(syntaxError("\"abc")?.message, "unterminated string")
    }

    func testStrictStructure() {
        XCTAssertEqual(syntaxError("[1, 2,]")?.message, "expected a value, got ']'")
        XCTAssertEqual(syntaxError(#"{"a": 1,}"#)?.message, "expected a key string, got '}'")
        XCTAssertEqual(syntaxError("{a: 1}")?.message, "expected a key string, got 'a'")
        XCTAssertEqual(syntaxError(#"{"a" 1}"#)?.message, #"expected ':' after key "a", got '1'"#)
        XCTAssertEqual(syntaxError("[1 2]")?.message, "expected ',' or ']', got '2'")
        XCTAssertEqual(syntaxError("// c\n1")?.message, "expected a value, got '/'")
        XCTAssertEqual(syntaxError("tru")?.message, "expected a value, got 't'")
    }

    func testErrorPositionsCountLinesAndScalars() {
        // "é" is two bytes but one column.
        let e = syntaxError("{\n  \"é\": [1,\n    2 3]}")
        XCTAssertEqual(e?.line, 3)
        XCTAssertEqual(e?.column, 7)
        XCTAssertEqual(e?.path.description, #"["é"]"#)  // between elements: the array is the location
        XCTAssertEqual(e?.message, "expected ',' or ']', got '3'")
    }

    func testDuplicateKeysAreRejectedAtTheSecondKey() {
        let e = syntaxError(#"{"k": 1, "k": 2}"#)
        XCTAssertEqual(e?.message, #"duplicate key "k""#)
        XCTAssertEqual(e?.column, 10)
    }

    func testByteOrderMarkIsSkipped() throws {
        XCTAssertEqual(try SceneJSON.parse(Data([0xEF, 0xBB, 0xBF] + Array("[]".utf8))), .array([]))
    }

    func testNestingUpToTheLimitIsAccepted() throws {
        let n = SceneJSON.maxDepth
        XCTAssertNoThrow(try parse(String(repeating: "[", count: n) + String(repeating: "]", count: n)))
        XCTAssertEqual(syntaxError(String(repeating: "{\"a\":", count: n + 1) + "1" + String(repeating: "}", count: n + 1))?.message,
                       "nesting is deeper than \(n) levels")
    }

    func testPathDescriptions() {
        XCTAssertEqual(JSONPath.root.key("commands").index(12).key("shading").key("stops").index(3).description,
                       "commands[12].shading.stops[3]")
        XCTAssertEqual(JSONPath.root.key("resources").key("images").key("my logo").description, #"resources.images["my logo"]"#)
        XCTAssertEqual(JSONPath.root.description, "")
        let long = (0 ..< 30).reduce(JSONPath.root) { p, i in p.index(i) }
        XCTAssertEqual(long.description, "[0][1][2][3][4][5][6][7][8][9][10][11]…(6 more)…[18][19][20][21][22][23][24][25][26][27][28][29]")
    }
}
