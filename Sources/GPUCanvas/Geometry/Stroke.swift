/// The stroker: a path and a `StrokeStyle` → closed device-space contours whose non-zero fill is the stroke.
/// (Being written: see issue 3. This placeholder draws nothing.)
enum Stroker {
    static func outline(_ path: Path, style: StrokeStyle, transform: CGAffineTransform,
                        tolerance: Double = Flatten.tolerance) -> Polygons {
        Polygons()
    }
}
