import CGLES
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore
@testable import GPUCanvasGLES

/// EGL device selection and context creation on this machine's Mesa (llvmpipe through the surfaceless
/// platform and, where Mesa lists it, the software EGL device).
final class EGLTests: XCTestCase {
    func testSelectionParsing() throws {
        XCTAssertEqual(try GLESDeviceSelection(parsing: "auto"), .auto)
        XCTAssertEqual(try GLESDeviceSelection(parsing: "mesa"), .mesa)
        XCTAssertEqual(try GLESDeviceSelection(parsing: "egl-device:3"), .eglDevice(3))
        XCTAssertEqual(GLESDeviceSelection.eglDevice(3).description, "egl-device:3")
        for bad in ["", "gpu", "egl-device:", "egl-device:-1", "egl-device:x"] {
            XCTAssertThrowsError(try GLESDeviceSelection(parsing: bad), bad) { error in
                XCTAssertTrue("\(error)".contains("expected auto, mesa or egl-device:N"), "\(error)")
            }
        }
    }

    func testMesaContextFacts() throws {
        let info = try GLESDeviceInfo.probe(.mesa)
        XCTAssertEqual(info.chosenDevice, "Mesa surfaceless")
        XCTAssertTrue(info.renderer.contains("llvmpipe"), info.renderer)
        XCTAssertTrue(info.version.hasPrefix("OpenGL ES 3."), info.version)
        // GLES 3.0 guarantees 2048 and 4 samples; llvmpipe offers at least that.
        XCTAssertGreaterThanOrEqual(info.maxTextureSize, 2048)
        XCTAssertGreaterThanOrEqual(info.maxSamples, 4)
        XCTAssertEqual(info.extensions["GL_EXT_color_buffer_float"], true)
        XCTAssertEqual(info.extensions["GL_EXT_float_blend"], true)
        XCTAssertEqual(info.defaultPathStrategy, .rasterAtlas)
        // Mesa's one format (GL_PROGRAM_BINARY_FORMAT_MESA) while its disk cache is on, none when it is off.
        let mesaCacheOff = ProcessInfo.processInfo.environment["MESA_SHADER_CACHE_DISABLE"]
            .map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
        XCTAssertEqual(info.programBinaryFormats, mesaCacheOff ? 0 : 1)
        XCTAssertTrue(info.description.contains("GL_RENDERER: \(info.renderer)"), info.description)
        XCTAssertTrue(info.description.contains("GL_EXT_float_blend: yes"), info.description)
    }

    func testDeviceListIsConsistent() throws {
        let devices = try GLESDeviceInfo.listDevices()
        for (i, d) in devices.enumerated() {
            XCTAssertEqual(d.index, i)
            XCTAssertEqual(d.isSoftware, d.extensions.contains("EGL_MESA_device_software"))
        }
        // `auto` takes a hardware device when one is listed, llvmpipe otherwise.
        let auto = try GLESDeviceInfo.probe(.auto)
        if devices.contains(where: { !$0.isSoftware }) {
            XCTAssertTrue(auto.chosenDevice.hasPrefix("egl-device:"), auto.chosenDevice)
        } else {
            XCTAssertEqual(auto.chosenDevice, "Mesa surfaceless")
            XCTAssertTrue(auto.renderer.contains("llvmpipe"), auto.renderer)
        }
    }

    /// Mesa lists its software rasterizer as an EGL device too; `egl-device:N` must render through it.
    func testEGLDeviceSelectionRenders() throws {
        let devices = try GLESDeviceInfo.listDevices()
        guard let soft = devices.first(where: { $0.isSoftware }) else {
            throw XCTSkip("this EGL lists no software device")
        }
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .eglDevice(soft.index))))
        XCTAssertTrue(r.rendererName.contains("egl-device:\(soft.index)"), r.rendererName)
        let img = try r.render(size: CGSize(width: 4, height: 4)) { ctx, _ in
            ctx.fill(Path(CGRect(x: 1, y: 1, width: 2, height: 2)), with: .color(.black))
        }
        XCTAssertEqual(img.pixel(x: 1, y: 1), PixelRGBA8(r: 0, g: 0, b: 0, a: 255))
        XCTAssertEqual(img.pixel(x: 0, y: 0), PixelRGBA8(r: 0, g: 0, b: 0, a: 0))
    }

    func testMissingDeviceIsAClearError() {
        XCTAssertThrowsError(try CanvasRenderer(backend: .gles(GLESOptions(device: .eglDevice(999))))) { error in
            XCTAssertEqual(error as? RenderError,
                           .gpu("egl-device:999 does not exist: eglQueryDevicesEXT lists \((try? GLESDeviceInfo.listDevices().count) ?? 0) device\((try? GLESDeviceInfo.listDevices().count) == 1 ? "" : "s")"))
        }
    }

    /// EGL failures carry the error's name.
    func testEGLErrorsAreNamed() {
        XCTAssertEqual(EGLErrorName.name(0x3001), "EGL_NOT_INITIALIZED")
        XCTAssertEqual(EGLErrorName.name(0x3008), "EGL_BAD_DISPLAY")
        XCTAssertEqual(EGLErrorName.name(0x1234), "EGL error 0x1234")
        var major: EGLint = 0, minor: EGLint = 0
        XCTAssertEqual(eglInitialize(nil, &major, &minor), EGLBoolean(EGL_FALSE))
        XCTAssertEqual(EGLErrorName.failure("eglInitialize"), .gpu("eglInitialize failed: EGL_BAD_DISPLAY"))
        XCTAssertEqual(GLErrorName.name(0x0502), "GL_INVALID_OPERATION")
    }

    func testRendererNameCarriesGLRenderer() throws {
        let r = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        XCTAssertTrue(r.rendererName.hasPrefix("llvmpipe"), r.rendererName)
        XCTAssertTrue(r.rendererName.contains("raster-atlas"), r.rendererName)
        XCTAssertEqual(r.pathStrategy, .rasterAtlas)
    }

    /// Two renderers share the surfaceless display; each binds its own context per frame, and a renderer
    /// may move to another thread between frames.
    func testRenderersShareTheDisplayAndMoveBetweenThreads() throws {
        let a = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa)))
        let b = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)))
        func frame(_ r: CanvasRenderer, _ x: CGFloat) throws -> RasterImage {
            try r.render(size: CGSize(width: 8, height: 2)) { ctx, _ in
                ctx.fill(Path(CGRect(x: x, y: 0, width: 1, height: 2)), with: .color(.black))
            }
        }
        for i in 0 ..< 4 {
            XCTAssertEqual(try frame(a, CGFloat(i)).pixel(x: i, y: 1).a, 255)
            XCTAssertEqual(try frame(b, CGFloat(i + 1)).pixel(x: i + 1, y: 1).a, 255)
        }
        // Frame on another thread: the context is released after each frame, so it can be taken there.
        final class Box: @unchecked Sendable {
            let renderer: CanvasRenderer
            var alpha: UInt8?
            init(_ r: CanvasRenderer) { renderer = r }
        }
        let box = Box(a)
        let done = DispatchSemaphore(value: 0)
        let other = Thread {
            let img = try? box.renderer.render(size: CGSize(width: 8, height: 2)) { ctx, _ in
                ctx.fill(Path(CGRect(x: 5, y: 0, width: 1, height: 2)), with: .color(.black))
            }
            box.alpha = img?.pixel(x: 5, y: 0).a
            done.signal()
        }
        other.start()
        XCTAssertEqual(done.wait(timeout: .now() + 60), .success)
        XCTAssertEqual(box.alpha, 255)
        XCTAssertEqual(try frame(a, 6).pixel(x: 6, y: 0).a, 255)
        // Renderers come and go without terminating the display under the others.
        for _ in 0 ..< 5 { _ = try CanvasRenderer(backend: .gles(GLESOptions(device: .mesa))) }
        XCTAssertEqual(try frame(b, 2).pixel(x: 2, y: 0).a, 255)
    }
}
