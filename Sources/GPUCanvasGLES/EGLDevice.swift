// EGL devices and displays: which GPU (or llvmpipe) a GLES renderer runs on.
//
// Selection follows docs/DESIGN-NOTES.md "Devices": `auto` takes the first hardware EGL device found through
// EGL_EXT_device_enumeration + EGL_EXT_platform_device (a device whose extension string lacks
// EGL_MESA_device_software), and otherwise Mesa's surfaceless platform (llvmpipe, no display server);
// `mesa` forces the surfaceless platform; `egl-device:N` forces device N of eglQueryDevicesEXT.
//
// The extension entry points are not exported as prototypes (EGL_EGLEXT_PROTOTYPES is 0 in the shim), so
// they are fetched with eglGetProcAddress and cast to their PFN types once.
//
// EGL displays are process-wide singletons: eglTerminate on one would destroy every context on it,
// including other renderers'. Initialised displays are therefore reference-counted here and terminated
// only when the last context on them is gone.

import CGLES
import Foundation

/// Which EGL device a GLES renderer uses.
///
/// ```swift
/// try GLESDeviceSelection(parsing: "egl-device:1")   // .eglDevice(1)
/// try GLESDeviceSelection(parsing: "mesa")           // .mesa
/// ```
public enum GLESDeviceSelection: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The first hardware EGL device, else Mesa's surfaceless platform.
    case auto
    /// Mesa's surfaceless platform (llvmpipe without a GPU).
    case mesa
    /// Device `N` (0-based) of `eglQueryDevicesEXT`, on the EGL_EXT_platform_device platform.
    case eglDevice(Int)

    /// Parses the command-line spelling: `auto`, `mesa` or `egl-device:N`.
    public init(parsing text: String) throws {
        switch text {
        case "auto": self = .auto
        case "mesa": self = .mesa
        default:
            let prefix = "egl-device:"
            if text.hasPrefix(prefix), let n = Int(text.dropFirst(prefix.count)), n >= 0 {
                self = .eglDevice(n)
            } else {
                throw RenderError.gpu("unknown device \"\(text)\": expected auto, mesa or egl-device:N")
            }
        }
    }

    public var description: String {
        switch self {
        case .auto: return "auto"
        case .mesa: return "mesa"
        case .eglDevice(let n): return "egl-device:\(n)"
        }
    }
}

/// One device reported by `eglQueryDevicesEXT`.
///
/// On a machine with only Mesa: `EGLDeviceInfo(index: 0, isSoftware: true, drmDeviceFile: nil, …)`.
public struct EGLDeviceInfo: Sendable, Equatable, CustomStringConvertible {
    /// Position in the `eglQueryDevicesEXT` list (the N of `egl-device:N`).
    public var index: Int
    /// The device's extension string, split.
    public var extensions: [String]
    /// True when the device is a software rasterizer (EGL_MESA_device_software).
    public var isSoftware: Bool
    /// The DRM device node (EGL_EXT_device_drm), when the driver says.
    public var drmDeviceFile: String?
    /// The driver's renderer name (EGL_EXT_device_persistent_id's EGL_RENDERER_EXT), when the driver says.
    public var renderer: String?

    public var description: String {
        var s = "egl-device:\(index) \(isSoftware ? "software" : "hardware")"
        if let renderer { s += " renderer \"\(renderer)\"" }
        if let drmDeviceFile { s += " drm \(drmDeviceFile)" }
        s += " [\(extensions.joined(separator: " "))]"
        return s
    }
}

/// Names of EGL error codes, so failures carry the words a driver manual uses.
enum EGLErrorName {
    /// `name(0x3001)` → "EGL_NOT_INITIALIZED".
    static func name(_ code: EGLint) -> String {
        switch code {
        case EGL_SUCCESS: return "EGL_SUCCESS"
        case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
        case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
        case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
        case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
        case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
        case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
        case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
        case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
        case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
        case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
        case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
        case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
        case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
        case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST"
        case 0x322B: return "EGL_BAD_DEVICE_EXT"
        default: return String(format: "EGL error 0x%04X", Int(code))
        }
    }

    /// The error of the last failed EGL call: `"eglInitialize failed: EGL_NOT_INITIALIZED"`.
    static func failure(_ call: String, _ detail: String = "") -> RenderError {
        let code = eglGetError()
        return .gpu("\(call) failed: \(name(code))\(detail.isEmpty ? "" : " (\(detail))")")
    }
}

/// EGL's client side: the extension entry points and the displays they open.
enum EGLPlatform {
    typealias QueryDevices = @convention(c) (EGLint, UnsafeMutablePointer<EGLDeviceEXT?>?,
                                             UnsafeMutablePointer<EGLint>?) -> EGLBoolean
    typealias QueryDeviceString = @convention(c) (EGLDeviceEXT?, EGLint) -> UnsafePointer<CChar>?
    typealias GetPlatformDisplay = @convention(c) (EGLenum, UnsafeMutableRawPointer?,
                                                   UnsafePointer<EGLint>?) -> EGLDisplay?

    /// Mesa's surfaceless platform (EGL_MESA_platform_surfaceless).
    static let platformSurfacelessMESA: EGLenum = 0x31DD
    /// EGL_EXT_platform_device.
    static let platformDeviceEXT: EGLenum = 0x313F
    static let drmDeviceFileEXT: EGLint = 0x3233
    static let rendererEXT: EGLint = 0x335F

    private static func proc<T>(_ name: String, as type: T.Type) -> T? {
        guard let p = eglGetProcAddress(name) else { return nil }
        return unsafeBitCast(p, to: type)
    }

    /// The client extensions (EGL_NO_DISPLAY's extension string); empty when EGL itself is missing.
    static func clientExtensions() -> Set<String> {
        guard let s = eglQueryString(nil, EGL_EXTENSIONS) else {
            _ = eglGetError()  // clear the EGL_BAD_DISPLAY of an EGL without client extensions
            return []
        }
        return Set(String(cString: s).split(separator: " ").map(String.init))
    }

    /// Every EGL device with its handle; empty when device enumeration is not available.
    static func devices() throws -> [(handle: EGLDeviceEXT?, info: EGLDeviceInfo)] {
        let client = clientExtensions()
        guard client.contains("EGL_EXT_device_enumeration") || client.contains("EGL_EXT_device_base"),
              let query = proc("eglQueryDevicesEXT", as: QueryDevices.self),
              let queryString = proc("eglQueryDeviceStringEXT", as: QueryDeviceString.self) else { return [] }
        var count: EGLint = 0
        guard query(0, nil, &count) == EGLBoolean(EGL_TRUE) else { throw EGLErrorName.failure("eglQueryDevicesEXT") }
        guard count > 0 else { return [] }
        var handles = [EGLDeviceEXT?](repeating: nil, count: Int(count))
        guard query(count, &handles, &count) == EGLBoolean(EGL_TRUE) else {
            throw EGLErrorName.failure("eglQueryDevicesEXT")
        }
        return handles.prefix(Int(count)).enumerated().map { i, h in
            func string(_ name: EGLint) -> String? {
                guard let s = queryString(h, name) else { _ = eglGetError(); return nil }
                return String(cString: s)
            }
            let exts = (string(EGL_EXTENSIONS) ?? "").split(separator: " ").map(String.init)
            let info = EGLDeviceInfo(index: i, extensions: exts,
                                     isSoftware: exts.contains("EGL_MESA_device_software"),
                                     drmDeviceFile: exts.contains("EGL_EXT_device_drm") ? string(drmDeviceFileEXT) : nil,
                                     renderer: exts.contains("EGL_EXT_device_persistent_id") ? string(rendererEXT) : nil)
            return (h, info)
        }
    }

    /// Opens (and initialises) the display `selection` names; `chosen` says which one it was in words.
    static func openDisplay(_ selection: GLESDeviceSelection) throws -> (display: EGLDisplay, chosen: String, isSoftwareDevice: Bool) {
        let client = clientExtensions()
        guard !client.isEmpty else {
            throw RenderError.gpu("no working EGL: the EGL client extension string is empty (is libEGL with Mesa installed? apt install libegl-mesa0 libgl1-mesa-dri); the reference backend still works")
        }
        guard let getPlatformDisplay = proc("eglGetPlatformDisplayEXT", as: GetPlatformDisplay.self) else {
            throw RenderError.gpu("no working EGL: eglGetPlatformDisplayEXT is missing (EGL_EXT_platform_base); the reference backend still works")
        }
        func surfaceless() throws -> (EGLDisplay, String, Bool) {
            guard client.contains("EGL_MESA_platform_surfaceless") else {
                throw RenderError.gpu("no working EGL: EGL_MESA_platform_surfaceless is not offered by this EGL (client extensions: \(client.sorted().joined(separator: " "))); the reference backend still works")
            }
            guard let d = getPlatformDisplay(platformSurfacelessMESA, nil, nil) else {
                throw EGLErrorName.failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA)")
            }
            return (d, "Mesa surfaceless", true)
        }
        func device(_ handle: EGLDeviceEXT?, _ info: EGLDeviceInfo) throws -> (EGLDisplay, String, Bool) {
            guard client.contains("EGL_EXT_platform_device") else {
                throw RenderError.gpu("egl-device:\(info.index) needs EGL_EXT_platform_device, which this EGL lacks")
            }
            guard let d = getPlatformDisplay(platformDeviceEXT, handle, nil) else {
                throw EGLErrorName.failure("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, device \(info.index))")
            }
            return (d, "egl-device:\(info.index)", info.isSoftware)
        }

        let opened: (EGLDisplay, String, Bool)
        switch selection {
        case .mesa:
            opened = try surfaceless()
        case .eglDevice(let n):
            let all = try devices()
            guard n < all.count else {
                throw RenderError.gpu("egl-device:\(n) does not exist: eglQueryDevicesEXT lists \(all.count) device\(all.count == 1 ? "" : "s")")
            }
            opened = try device(all[n].handle, all[n].info)
        case .auto:
            // A hardware device that fails to initialise (driver present, GPU gone) falls through to
            // the next one and finally to llvmpipe, so `auto` works wherever Mesa does.
            var found: (EGLDisplay, String, Bool)?
            if client.contains("EGL_EXT_platform_device") {
                for (h, info) in (try? devices()) ?? [] where !info.isSoftware {
                    if let d = try? device(h, info), (try? DisplayRegistry.retain(d.0)) != nil {
                        DisplayRegistry.release(d.0)
                        found = d
                        break
                    }
                }
            }
            if let found {
                opened = found
            } else {
                do {
                    let d = try surfaceless()
                    try DisplayRegistry.retain(d.0)
                    return d
                } catch let RenderError.gpu(why) where !why.hasPrefix("no working EGL") {
                    throw RenderError.gpu("no working EGL: no hardware EGL device, and Mesa's surfaceless platform failed (\(why)); the reference backend still works")
                }
            }
        }
        try DisplayRegistry.retain(opened.0)
        return (opened.0, opened.1, opened.2)
    }
}

/// Reference counts of initialised displays (see the note at the top of the file).
enum DisplayRegistry {
    nonisolated(unsafe) private static var counts: [UnsafeMutableRawPointer: Int] = [:]
    private static let lock = NSLock()

    /// Initialises `display` on first use.
    static func retain(_ display: EGLDisplay) throws {
        lock.lock()
        defer { lock.unlock() }
        if let n = counts[display] {
            counts[display] = n + 1
            return
        }
        var major: EGLint = 0, minor: EGLint = 0
        guard eglInitialize(display, &major, &minor) == EGLBoolean(EGL_TRUE) else {
            throw EGLErrorName.failure("eglInitialize")
        }
        counts[display] = 1
    }

    /// Terminates `display` when its last user lets go.
    static func release(_ display: EGLDisplay) {
        lock.lock()
        defer { lock.unlock() }
        guard let n = counts[display] else { return }
        if n > 1 {
            counts[display] = n - 1
        } else {
            counts[display] = nil
            eglTerminate(display)
        }
    }
}
