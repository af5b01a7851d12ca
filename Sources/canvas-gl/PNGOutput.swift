// Writing PNG files for the tool.
//
// Interim: `RasterImage.writePNG(to:)` (libpng, Imaging/) is being written on another branch; until it lands
// this writes a valid, uncompressed PNG (zlib "stored" blocks) itself. `savePNG` is the one place to switch.
import GPUCanvas

/// Writes `image` as an 8-bit RGBA PNG with straight alpha; errors name the file.
func savePNG(_ image: RasterImage, to path: String) throws {
    let data = encodeStoredPNG(image)
    do {
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        throw CLIError("cannot write \(path): \((error as NSError).localizedDescription)")
    }
}

/// Fails before any rendering when `path`'s folder does not exist, so a long render is not wasted.
func checkWritable(_ path: String) throws {
    let dir = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
        throw CLIError("cannot write \(path): the folder \(dir) does not exist")
    }
}

private func encodeStoredPNG(_ image: RasterImage) -> Data {
    // Raw scanlines: filter byte 0, then straight-alpha RGBA.
    let rowBytes = image.width * 4
    var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * image.height)
    image.pixels.withUnsafeBufferPointer { src in
        for y in 0 ..< image.height {
            var o = y * (rowBytes + 1) + 1
            for x in 0 ..< image.width {
                let i = (y * image.width + x) * 4
                let a = Int(src[i + 3])
                for c in 0 ..< 3 {
                    raw[o + c] = a == 0 ? 0 : UInt8(min(255, (Int(src[i + c]) * 255 + a / 2) / a))
                }
                raw[o + 3] = UInt8(a)
                o += 4
            }
        }
    }
    var zlib: [UInt8] = [0x78, 0x01]
    var offset = 0
    repeat {
        let n = min(65535, raw.count - offset)
        let last: UInt8 = offset + n == raw.count ? 1 : 0
        zlib += [last, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
        zlib += raw[offset ..< offset + n]
        offset += n
    } while offset < raw.count
    var s1: UInt32 = 1, s2: UInt32 = 0
    for b in raw { s1 = (s1 + UInt32(b)) % 65521; s2 = (s2 + s1) % 65521 }
    zlib += be32((s2 << 16) | s1)

    var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    func chunk(_ type: String, _ body: [UInt8]) {
        let typed = Array(type.utf8) + body
        png += be32(UInt32(body.count)) + typed + be32(crc32(typed))
    }
    chunk("IHDR", be32(UInt32(image.width)) + be32(UInt32(image.height)) + [8, 6, 0, 0, 0])
    chunk("IDAT", zlib)
    chunk("IEND", [])
    return Data(png)
}

private func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        crc ^= UInt32(b)
        for _ in 0 ..< 8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
