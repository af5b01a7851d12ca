// byte-identity SCENES_DIR [FORM…] → one line per (scene, backend): `<sha256>  <scene> <backend>`.
//
// The backends are the reference and the eight GLES forms the conformance suite runs (the same names as
// Tests/ConformanceTests' `GLESForm`). The digest covers `WxH\n` and the image's RGBA8 bytes.
import Foundation
import GPUCanvas

let forms: [(String, GLESOptions)] = [
    ("raster-atlas", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas)),
    ("raster-atlas-r8", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false)),
    ("raster-atlas-r16f", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, coverageFormat: .r16f)),
    ("raster-atlas-r32f", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, coverageFormat: .r32f)),
    ("gpu-tessellation", GLESOptions(device: .mesa, pathStrategy: .gpuTessellation)),
    ("raster-atlas-copy", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, blendRoute: .destinationCopy)),
    ("raster-atlas-r8-copy", GLESOptions(device: .mesa, pathStrategy: .rasterAtlas, paintAtlas: false,
                                         blendRoute: .destinationCopy)),
    ("gpu-tessellation-copy", GLESOptions(device: .mesa, pathStrategy: .gpuTessellation,
                                          blendRoute: .destinationCopy)),
]

/// coreutils' sha256sum over `data` (no hashing library is among the package's dependencies).
func sha256(_ data: Data) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(data)
    try input.fileHandleForWriting.close()
    let digest = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: digest.prefix(64), as: UTF8.self)
}

let args = CommandLine.arguments.dropFirst()
guard let dir = args.first else {
    FileHandle.standardError.write("usage: byte-identity SCENES_DIR [BACKEND…]\n".data(using: .utf8)!)
    exit(2)
}
let wanted = Set(args.dropFirst())
let names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }
    .map { String($0.dropLast(5)) }.sorted()

var backends: [(String, CanvasRenderer)] = []
if wanted.isEmpty || wanted.contains("reference") { backends.append(("reference", try CanvasRenderer(backend: .reference))) }
for (name, options) in forms where wanted.isEmpty || wanted.contains(name) {
    backends.append((name, try CanvasRenderer(backend: .gles(options))))
}

for (backend, renderer) in backends {
    for name in names {
        let line: String
        do {
            let scene = try Scene.load(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(name + ".json"))
            let image = try renderer.render(scene.recording, scale: scene.scale)
            line = try sha256("\(image.width)x\(image.height)\n".data(using: .utf8)! + Data(image.pixels))
        } catch {
            line = "error: \(error)".replacingOccurrences(of: "\n", with: " ")
        }
        print("\(line)  \(name) \(backend)")
    }
}
