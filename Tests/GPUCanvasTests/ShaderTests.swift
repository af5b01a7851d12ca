import CGLES
import XCTest
import Shaders
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// Every program of the shader library compiles and links on llvmpipe without a word in any info log.
final class ShaderTests: XCTestCase {
    private var context: GLContext!

    override func setUpWithError() throws {
        context = try GLContext(selection: .mesa)
    }

    override func tearDown() {
        context.releaseCurrent()
        context = nil
    }

    func testEveryProgramBuildsWithoutInfoLogText() throws {
        let names = ShaderLibrary.programNames
        XCTAssertFalse(names.isEmpty)
        for p in Pipeline.allCases { XCTAssertTrue(names.contains(p.programName), p.programName) }
        for name in names {
            XCTAssertNoThrow(try {
                let program = try GLProgram.build(named: name)
                XCTAssertNotEqual(program.id, 0)
                XCTAssertGreaterThanOrEqual(program.targetSize, 0, "\(name) declares u_targetSize")
                glDeleteProgram(program.id)
            }(), name)
        }
        try context.check("building every program")
    }

    func testStagesSplitWithPrologueAndLineNumbers() throws {
        let text = "#version 300 es\nprecision highp float;\n#pragma stage vertex\nvoid main() {}\n#pragma stage fragment\nout vec4 c;\nvoid main() { c = vec4(1); }"
        let s = try ShaderSource.parse(text, name: "t")
        XCTAssertEqual(s.vertex, "#version 300 es\nprecision highp float;\n#line 4\nvoid main() {}")
        XCTAssertEqual(s.fragment, "#version 300 es\nprecision highp float;\n#line 6\nout vec4 c;\nvoid main() { c = vec4(1); }")
        XCTAssertThrowsError(try ShaderSource.parse("#version 300 es\n#pragma stage vertex\nvoid main() {}", name: "t")) {
            XCTAssertTrue("\($0)".contains("needs both"), "\($0)")
        }
        XCTAssertThrowsError(try ShaderSource.parse("#pragma stage geometry\n", name: "t")) {
            XCTAssertTrue("\($0)".contains("unknown stage \"geometry\""), "\($0)")
        }
    }

    /// A compile error names the file and stage and carries the driver's words.
    func testCompileErrorCarriesTheDriverLog() {
        let bad = "#version 300 es\nprecision highp float;\n#pragma stage vertex\nvoid main() { gl_Position = vec4(0); }\n#pragma stage fragment\nout vec4 c;\nvoid main() { c = undefinedThing; }"
        XCTAssertThrowsError(try GLProgram.build(text: bad, name: "bad")) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("compiling bad.glsl (fragment) failed"), text)
            XCTAssertTrue(text.contains("undefinedThing"), text)
        }
    }
}
