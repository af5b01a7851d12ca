// APNG: the three animation chunks of the APNG specification (acTL, fcTL, fdAT) written around PNG frames
// that libpng encodes.
//
// APNG is a chunk layout, not a codec: an animated PNG is an ordinary PNG (signature, IHDR, IDAT, IEND) with an
// `acTL` chunk (frame count, loop count) before the first IDAT, an `fcTL` chunk (size, offset, delay,
// disposal) before each frame's data, and every frame after the first carried in `fdAT` chunks, which are
// IDAT chunks with a sequence number in front. So each frame is compressed by libpng exactly as a still PNG
// (`pngData(compression: .fast)`, in parallel on the worker threads), and the writer moves its IDAT payload
// into the file under the right chunk header. Nothing is compressed or filtered here; zlib's crc32 checks
// each chunk. Debian's libpng has no APNG writer (the patch was dropped in 1.6.37-4), and ffmpeg's apng
// muxer measured 3–10× slower here: docs/DESIGN-NOTES.md, "Animation export".
//
// The frame count in acTL is written as 0 at first and patched in `finish` (the file is a temporary regular
// file, so it can be rewritten in place), so an NDJSON stream of unknown length works too.
import CGLES

/// An animated PNG: every frame whole (no cropping or frame differencing), shown for 1/fps seconds, looping
/// forever. Read by browsers, Pillow, ffmpeg; viewers without APNG support show frame 0.
public final class APNGDestination: FrameDestination, @unchecked Sendable {
    public let url: URL
    public let compression: PNGCompression
    /// Times the animation plays; 0 loops forever.
    public let loopCount: Int
    public var name: String { url.path }

    private var file: UnsafeMutablePointer<FILE>?
    private var temporary = ""
    private var sequence: UInt32 = 0
    private var framesWritten = 0
    private var acTLOffset = 0
    private var delay: (numerator: UInt16, denominator: UInt16) = (1, 30)
    private var width = 0, height = 0

    public init(url: URL, compression: PNGCompression = .fast, loopCount: Int = 0) {
        self.url = url
        self.compression = compression
        self.loopCount = loopCount
    }

    public func begin(width: Int, height: Int, framesPerSecond: Double, frameCount: Int?) throws {
        try checkFileDestination(url.path)
        self.width = width
        self.height = height
        delay = Self.frameDelay(framesPerSecond: framesPerSecond)
        temporary = temporaryPath(beside: url.path)
        guard let f = fopen(temporary, "w+") else {
            throw ExportError.destinationUnwritable(path: url.path, reason: readableReason(errno: errno))
        }
        file = f
    }

    /// The frame delay as the fraction fcTL stores (two 16-bit numbers): 30 fps → 1/30 s, 29.97 → 100/2997.
    static func frameDelay(framesPerSecond fps: Double) -> (numerator: UInt16, denominator: UInt16) {
        if fps == fps.rounded(), fps >= 1, fps <= 65535 { return (1, UInt16(fps)) }
        // Hundredths of a frame rate, reduced to fit 16 bits.
        var numerator = 100.0, denominator = (fps * 100).rounded()
        while denominator > 65535 { numerator /= 2; denominator = (denominator / 2).rounded() }
        return (UInt16(max(1, numerator.rounded())), UInt16(max(1, denominator)))
    }

    public func encode(_ image: RasterImage, frame: FrameTime) throws -> Data {
        try image.pngData(compression: compression)
    }

    public func write(_ encoded: Data, frame: FrameTime) throws {
        let png = [UInt8](encoded)
        let chunks = try Self.chunks(of: png)
        if framesWritten == 0 {
            try put(Array(png[0 ..< 8]))  // the PNG signature
            guard let ihdr = chunks.first(where: { $0.type == "IHDR" }) else {
                throw ExportError.frameFailed(frame: frame, reason: "internal: libpng wrote no IHDR")
            }
            try putChunk("IHDR", Array(png[ihdr.data]))
            // The colour chunks libpng wrote before the image data (sRGB) apply to every frame.
            for chunk in chunks.prefix(while: { $0.type != "IDAT" }) where chunk.type != "IHDR" {
                try putChunk(chunk.type, Array(png[chunk.data]))
            }
            acTLOffset = ftell(file)
            try putChunk("acTL", Self.be32(0) + Self.be32(UInt32(loopCount)))
        }
        try putChunk("fcTL", frameControl())
        for chunk in chunks where chunk.type == "IDAT" {
            if framesWritten == 0 {
                try putChunk("IDAT", Array(png[chunk.data]))
            } else {
                try putChunk("fdAT", Self.be32(nextSequence()) + Array(png[chunk.data]))
            }
        }
        framesWritten += 1
    }

    public func finish() throws {
        guard let file else { return }
        try putChunk("IEND", [])
        // The real frame count into acTL, then its CRC.
        guard fseek(file, acTLOffset, SEEK_SET) == 0 else { throw unwritable(errno) }
        try putChunk("acTL", Self.be32(UInt32(framesWritten)) + Self.be32(UInt32(loopCount)))
        guard fflush(file) == 0, fsync(fileno(file)) == 0 else { throw unwritable(errno) }
        let closed = fclose(file)
        self.file = nil
        guard closed == 0 else { throw unwritable(errno) }
        try moveIntoPlace(temporary, url.path)
    }

    public func abort() {
        if let file { fclose(file) }
        file = nil
        if !temporary.isEmpty { unlink(temporary) }
    }

    // MARK: Chunks

    /// fcTL: sequence, width, height, x and y offset (0), delay, dispose (none), blend (source: the frame
    /// replaces the canvas, transparent pixels included).
    private func frameControl() -> [UInt8] {
        Self.be32(nextSequence()) + Self.be32(UInt32(width)) + Self.be32(UInt32(height)) + Self.be32(0) + Self.be32(0)
            + Self.be16(delay.numerator) + Self.be16(delay.denominator) + [0, 0]
    }

    private func nextSequence() -> UInt32 {
        defer { sequence += 1 }
        return sequence
    }

    /// A chunk: length, type, data, CRC-32 of type and data (zlib's crc32).
    private func putChunk(_ type: String, _ data: [UInt8]) throws {
        let typeBytes = Array(type.utf8)
        var crc = crc32(0, typeBytes, UInt32(typeBytes.count))
        crc = data.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, UInt32($0.count)) }
        try put(Self.be32(UInt32(data.count)) + typeBytes)
        try put(data)
        try put(Self.be32(UInt32(crc)))
    }

    private func put(_ bytes: [UInt8]) throws {
        guard let file else { throw ExportError.destinationUnwritable(path: url.path, reason: "internal: written before begin") }
        guard bytes.isEmpty || fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw unwritable(errno) }
    }

    private func unwritable(_ code: Int32) -> ExportError {
        .destinationUnwritable(path: url.path, reason: readableReason(errno: code))
    }

    /// The chunks of a PNG libpng wrote: type and the byte range of the data.
    static func chunks(of png: [UInt8]) throws -> [(type: String, data: Range<Int>)] {
        var out: [(String, Range<Int>)] = []
        var at = 8
        while at + 12 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            let type = String(decoding: png[at + 4 ..< at + 8], as: UTF8.self)
            let start = at + 8
            guard start + length + 4 <= png.count else {
                throw ImageError.encodingFailed("internal: a PNG chunk \(type) runs past the end of libpng's output")
            }
            out.append((type, start ..< start + length))
            at = start + length + 4
        }
        return out
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
}
