import CClipper
import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// Path boolean operations (`Path+Boolean.swift`, Clipper through `Geometry/PathBoolean.swift`): result areas
/// against analytic areas (circles) and an exact-per-scanline oracle of the inputs' membership (stars, rounded
/// rects, polygons, shared edges, nesting), both fill rules; line clipping by length; degenerate, huge and
/// non-finite input; renders on every backend with known pixels.
final class PathBooleanTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: an exact answer's rounding may land on either side of a half.
    static let rounding = 1

    static let green = PixelRGBA8(r: 52, g: 199, b: 89, a: 255)
    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)

    // MARK: Oracles

    enum Op: CaseIterable { case union, intersection, subtracting, symmetricDifference }

    static func apply(_ op: Op, _ a: Path, _ b: Path, eoFill: Bool) -> Path {
        switch op {
        case .union: return a.union(b, eoFill: eoFill)
        case .intersection: return a.intersection(b, eoFill: eoFill)
        case .subtracting: return a.subtracting(b, eoFill: eoFill)
        case .symmetricDifference: return a.symmetricDifference(b, eoFill: eoFill)
        }
    }

    static func keeps(_ op: Op, _ inA: Bool, _ inB: Bool) -> Bool {
        switch op {
        case .union: return inA || inB
        case .intersection: return inA && inB
        case .subtracting: return inA && !inB
        case .symmetricDifference: return inA != inB
        }
    }

    /// The area a straight-edged result encloses: its contours' signed areas summed. Clipper's holes run against
    /// their outer contours, so the sum is the region's area with one sign.
    static func area(_ p: Path) -> Double {
        let polys = Flatten.fill(p, transform: .identity)
        var sum = 0.0
        for c in 0 ..< polys.contourCount {
            let r = polys.contourRange(c)
            for i in r {
                let a = polys.points[i], b = polys.points[i + 1 < r.upperBound ? i + 1 : r.lowerBound]
                sum += a.x * b.y - b.x * a.y
            }
        }
        return abs(sum) / 2
    }

    /// Total length of a path's lines (results of the line operations are straight).
    static func length(_ p: Path) -> Double {
        var total = 0.0, start = CGPoint.zero, pen = CGPoint.zero
        for e in p.elements {
            switch e {
            case .move(let q): start = q; pen = q
            case .line(let q): total += hypot(q.x - pen.x, q.y - pen.y); pen = q
            case .closeSubpath: total += hypot(start.x - pen.x, start.y - pen.y); pen = start
            default: XCTFail("curve in a line result")
            }
        }
        return total
    }

    /// The oracle's flattening, ten times finer than the operations' 0.05: its own area error (≤ tolerance ×
    /// outline length) stays a tenth of the result's.
    static let oracleFlattening = 0.005
    /// Scanline spacing of the oracle. Each scanline's covered length is exact for the finely flattened inputs;
    /// the midpoint sum over scanlines is exact where the covered length is linear in y, and errs only in the bands
    /// holding a vertex or a crossing, by at most the band height times the horizontal extent of the edges there:
    /// in all, at most `scanlineStep` × the outline length.
    static let scanlineStep = 0.025

    /// Areas of all four operations under both fill rules, `[eoFill][op]`, by scanlines across the inputs'
    /// exact-per-scanline membership; and the outlines' total length, for the tolerance.
    static func oracle(_ a: Path, _ b: Path) -> (areas: [[Double]], outline: Double) {
        struct Edge { var x0, y0, x1, y1: Double; var tag: Int }
        var edges: [Edge] = []
        var outline = 0.0
        for (tag, p) in [a, b].enumerated() {
            let polys = Flatten.fill(p, transform: .identity, tolerance: oracleFlattening)
            for c in 0 ..< polys.contourCount {
                let r = polys.contourRange(c)
                for i in r {
                    let p0 = polys.points[i], p1 = polys.points[i + 1 < r.upperBound ? i + 1 : r.lowerBound]
                    outline += hypot(p1.x - p0.x, p1.y - p0.y)
                    if p0.y != p1.y { edges.append(Edge(x0: p0.x, y0: p0.y, x1: p1.x, y1: p1.y, tag: tag)) }
                }
            }
        }
        edges.sort { min($0.y0, $0.y1) < min($1.y0, $1.y1) }
        var areas = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 2)
        guard let minY = edges.map({ min($0.y0, $0.y1) }).min(), let maxY = edges.map({ max($0.y0, $0.y1) }).max()
        else { return (areas, outline) }
        var next = 0
        var active: [Edge] = []
        var crossings: [(x: Double, tag: Int, dir: Int)] = []
        var y = (minY / scanlineStep).rounded(.down) * scanlineStep + scanlineStep / 2
        while y < maxY {
            while next < edges.count, min(edges[next].y0, edges[next].y1) <= y { active.append(edges[next]); next += 1 }
            active.removeAll { max($0.y0, $0.y1) < y }
            crossings.removeAll(keepingCapacity: true)
            for e in active where (e.y0 <= y) != (e.y1 <= y) {
                crossings.append((e.x0 + (y - e.y0) * (e.x1 - e.x0) / (e.y1 - e.y0), e.tag, e.y1 > e.y0 ? 1 : -1))
            }
            crossings.sort { $0.x < $1.x }
            var w = [0, 0]
            var prev = -Double.infinity
            for c in crossings {
                if prev > -Double.infinity, c.x > prev {
                    for (eo, rule) in [false, true].enumerated() {
                        let inA = rule ? w[0] & 1 != 0 : w[0] != 0, inB = rule ? w[1] & 1 != 0 : w[1] != 0
                        for (k, op) in Op.allCases.enumerated() where keeps(op, inA, inB) {
                            areas[eo][k] += (c.x - prev) * scanlineStep
                        }
                    }
                }
                w[c.tag] += c.dir
                prev = c.x
            }
            y += scanlineStep
        }
        return (areas, outline)
    }

    /// Area error of a straight-edged result from Clipper's integer grid alone: coordinates below 128 are on a
    /// 2⁻²¹ grid (`PathBoolean.scaleExponent`), every vertex within half a step, so an outline of ≤ 1000 units
    /// moves at most 1000 × 2⁻²¹ ≈ 5·10⁻⁴ units².
    static let grid = 1e-3

    /// Allowed area difference for inputs whose outlines total `outline` units: the result's chords lie within
    /// `Flatten.tolerance` of the curves (an area of at most that times the curved length), plus the oracle's own
    /// flattening and scanline errors (see their constants), plus 0.01 units² for Clipper's 2⁻²⁹-relative grid.
    static func tolerance(outline: Double) -> Double {
        outline * (Flatten.tolerance + oracleFlattening + scanlineStep) + 0.01
    }

    // MARK: Shapes

    static func circle(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
        Path(ellipseIn: CGRect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r))
    }

    /// The star polygon {n/k} (self-intersecting for k ≥ 2): its centre has winding k.
    static func star(_ cx: Double, _ cy: Double, _ r: Double, n: Int, k: Int, rotation: Double = 0) -> Path {
        Path { p in
            p.addLines((0 ..< n).map { i in
                let t = rotation + 2 * Double.pi * Double(i * k % n) / Double(n)
                return CGPoint(x: cx + r * sin(t), y: cy - r * cos(t))
            })
            p.closeSubpath()
        }
    }

    /// A simple, generally concave polygon: `n` points at random radii, in angle order.
    static func blob(_ g: inout FormulaTestRandom, _ cx: Double, _ cy: Double, _ r: Double, n: Int) -> Path {
        Path { p in
            p.addLines((0 ..< n).map { i in
                let t = 2 * Double.pi * Double(i) / Double(n), rr = r * g.double(0.4, 1)
                return CGPoint(x: cx + rr * cos(t), y: cy + rr * sin(t))
            })
            p.closeSubpath()
        }
    }

    static func randomShape(_ g: inout FormulaTestRandom) -> Path {
        let cx = g.double(30, 70), cy = g.double(30, 70), r = g.double(10, 30)
        switch g.next() % 5 {
        case 0: return circle(cx, cy, r)
        case 1:
            return Path(roundedRect: CGRect(x: cx - r, y: cy - r * 0.7, width: 2 * r, height: 1.4 * r),
                        cornerRadius: g.double(0, r * 0.6), style: g.next() % 2 == 0 ? .circular : .continuous)
        case 2:
            let n = [5, 7, 8, 9][Int(g.next() % 4)]
            return star(cx, cy, r, n: n, k: n == 8 ? 3 : 2 + Int(g.next() % 2), rotation: g.double(0, 1))
        case 3: return blob(&g, cx, cy, r, n: 6 + Int(g.next() % 10))
        default:
            // A rect traced the other way round, so that winding rules meet both orientations.
            var p = Path()
            p.addLines([CGPoint(x: cx - r, y: cy - r), CGPoint(x: cx - r, y: cy + r), CGPoint(x: cx + r, y: cy + r),
                        CGPoint(x: cx + r, y: cy - r)])
            p.closeSubpath()
            return p
        }
    }

    // MARK: Area conformance

    /// Analytic areas of circle pairs: overlapping, nested, tangent-near and apart; 4 operations × 2 rules.
    func testCirclePairsMatchAnalyticAreas() {
        var g = FormulaTestRandom(seed: 32)
        var cases = 0, worst = 0.0
        for i in 0 ..< 30 {
            let r1 = g.double(8, 35), r2 = g.double(8, 35)
            // Distances from nested (0) through overlapping to apart (beyond r1 + r2).
            let d = Double(i % 10) / 9 * (r1 + r2) * 1.1, angle = g.double(0, 2 * .pi)
            let a = Self.circle(50, 50, r1), b = Self.circle(50 + d * cos(angle), 50 + d * sin(angle), r2)
            let lens = Self.lensArea(r1, r2, d)
            let a1 = Double.pi * r1 * r1, a2 = Double.pi * r2 * r2
            let expected: [Op: Double] = [.union: a1 + a2 - lens, .intersection: lens, .subtracting: a1 - lens,
                                          .symmetricDifference: a1 + a2 - 2 * lens]
            // The four-cubic circle lies outside the true one by up to 2.8·10⁻⁴ r; the chords inside it by up to
            // the flattening tolerance: each costs at most that width times the circumference.
            let tolerance = 2 * Double.pi * (r1 * (Flatten.tolerance + GeometryTolerance.quarterCubicRadialError * r1)
                + r2 * (Flatten.tolerance + GeometryTolerance.quarterCubicRadialError * r2)) + 0.01
            for eo in [false, true] {
                for op in Op.allCases {
                    let got = Self.area(Self.apply(op, a, b, eoFill: eo))
                    worst = max(worst, abs(got - expected[op]!) / tolerance)
                    XCTAssertEqual(got, expected[op]!, accuracy: tolerance, "case \(i) \(op) eo=\(eo) d=\(d) r=\(r1),\(r2)")
                    cases += 1
                }
            }
        }
        XCTAssertEqual(cases, 240)
        print("PathBooleanTests: circle pairs, worst error \(worst) of the tolerance")
    }

    /// Area of the intersection of two circles of radii r1, r2 whose centres are d apart.
    static func lensArea(_ r1: Double, _ r2: Double, _ d: Double) -> Double {
        if d >= r1 + r2 { return 0 }
        if d <= abs(r1 - r2) { return Double.pi * min(r1, r2) * min(r1, r2) }
        let a = r1 * r1 * acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1))
        let b = r2 * r2 * acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2))
        let c = 0.5 * ((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)).squareRoot()
        return a + b - c
    }

    /// Stars, rounded rects, concave polygons, reversed rects and circles, random and in the arranged cases
    /// (shared edges, identical shapes, one inside another), against the scanline oracle: 4 operations × 2 rules.
    func testGeneratedShapesMatchScanlineOracle() {
        var g = FormulaTestRandom(seed: 2026)
        var pairs: [(String, Path, Path)] = [
            ("shared edge", Path(CGRect(x: 10, y: 10, width: 40, height: 50)), Path(CGRect(x: 50, y: 20, width: 30, height: 50))),
            ("identical", Self.star(50, 50, 40, n: 5, k: 2), Self.star(50, 50, 40, n: 5, k: 2)),
            ("star in circle", Self.circle(50, 50, 45), Self.star(50, 50, 40, n: 7, k: 3)),
            ("circle in star's centre", Self.star(50, 50, 45, n: 5, k: 2), Self.circle(50, 50, 8)),
            ("rounded rect in rect", Path(CGRect(x: 5, y: 5, width: 90, height: 90)),
             Path(roundedRect: CGRect(x: 20, y: 30, width: 60, height: 40), cornerRadius: 12)),
            ("collinear overlap", Path(CGRect(x: 10, y: 10, width: 50, height: 30)), Path(CGRect(x: 30, y: 10, width: 50, height: 30))),
        ]
        for i in 0 ..< 22 { pairs.append(("random \(i)", Self.randomShape(&g), Self.randomShape(&g))) }
        var cases = 0, worst = 0.0
        for (name, a, b) in pairs {
            let (expected, outline) = Self.oracle(a, b)
            let tolerance = Self.tolerance(outline: outline)
            for (eoIndex, eo) in [false, true].enumerated() {
                for (k, op) in Op.allCases.enumerated() {
                    let result = Self.apply(op, a, b, eoFill: eo)
                    XCTAssertEqual(Self.area(result), expected[eoIndex][k], accuracy: tolerance, "\(name) \(op) eo=\(eo)")
                    worst = max(worst, abs(Self.area(result) - expected[eoIndex][k]) / tolerance)
                    cases += 1
                }
            }
        }
        XCTAssertEqual(cases, 224)
        print("PathBooleanTests: generated shapes, worst error \(worst) of the tolerance")
    }

    /// The arranged cases' areas are known exactly too: the scanline oracle is checked against them.
    func testOracleAgreesWithKnownAreas() {
        let (shared, _) = Self.oracle(Path(CGRect(x: 10, y: 10, width: 40, height: 50)), Path(CGRect(x: 50, y: 20, width: 30, height: 50)))
        XCTAssertEqual(shared[0][0], 2000 + 1500, accuracy: 1e-6)
        XCTAssertEqual(shared[0][1], 0, accuracy: 1e-6)
        // A {5/2} star of radius R: non-zero fills the centre pentagon (winding 2), even-odd leaves it empty.
        let r = 40.0
        let (star, _) = Self.oracle(Self.star(50, 50, r, n: 5, k: 2), Path())
        let inner = r * sin(.pi / 10) / sin(7 * .pi / 10)           // the pentagon's circumradius
        let pentagon = 2.5 * inner * inner * sin(2 * .pi / 5)
        let points = 5 * 0.5 * r * inner * sin(.pi / 5) * 2 - pentagon // ten triangles centre→tip→notch, less the pentagon
        // The oracle's stated bound for straight outlines: scanline step × outline length (10 × 2R sin 72°).
        let bound = 10 * 2 * r * sin(2 * .pi / 5) * Self.scanlineStep
        XCTAssertEqual(star[0][0], points + pentagon, accuracy: bound)
        XCTAssertEqual(star[1][0], points, accuracy: bound)
        XCTAssertEqual(Self.area(Self.star(50, 50, r, n: 5, k: 2).normalized(eoFill: true)), points, accuracy: Self.grid)
        XCTAssertEqual(Self.area(Self.star(50, 50, r, n: 5, k: 2).normalized(eoFill: false)), points + pentagon, accuracy: Self.grid)
    }

    /// Filled results are non-overlapping outer contours and holes: both rules fill the same region.
    func testResultsFillTheSameByEitherRule() {
        let ring = Self.circle(50, 50, 40).symmetricDifference(Self.circle(50, 50, 20))
        let (areas, _) = Self.oracle(ring, Path())
        XCTAssertEqual(areas[0][0], areas[1][0], accuracy: 1)
        XCTAssertEqual(areas[0][0], Double.pi * (1600 - 400), accuracy: Self.tolerance(outline: 2 * .pi * 60))
        XCTAssertTrue(ring.contains(CGPoint(x: 50, y: 80)))
        XCTAssertFalse(ring.contains(CGPoint(x: 50, y: 50)))
        XCTAssertFalse(ring.contains(CGPoint(x: 50, y: 50), eoFill: true))
        ring.forEach { e in
            if case .curve = e { XCTFail("curve in a boolean result") }
        }
    }

    // MARK: Lines

    /// A chord through a circle: inside by `lineIntersection`, the two outer pieces by `lineSubtraction`.
    func testLineAgainstCircleByLength() {
        let r = 30.0, d = 0.3 * r
        let line = Path { $0.move(to: CGPoint(x: 0, y: 50 + d)); $0.addLine(to: CGPoint(x: 100, y: 50 + d)) }
        let circle = Self.circle(50, 50, r)
        let chord = 2 * (r * r - d * d).squareRoot()
        // A radial error δ of the flattened circle moves where the line meets it by δ · r / √(r² − d²) along the
        // line: δ up to the flattening tolerance plus the four-cubic circle's 2.8·10⁻⁴ r.
        let shift = (Flatten.tolerance + GeometryTolerance.quarterCubicRadialError * r) * r / (r * r - d * d).squareRoot()
        let inside = line.lineIntersection(circle)
        XCTAssertEqual(Self.length(inside), chord, accuracy: 2 * shift)
        XCTAssertEqual(Self.length(line.lineSubtraction(circle)), 100 - chord, accuracy: 2 * shift)
        XCTAssertEqual(inside.elements.filter { if case .move = $0 { return true } else { return false } }.count, 1)
        XCTAssertEqual(line.lineSubtraction(circle).elements.filter { if case .move = $0 { return true } else { return false } }.count, 2)
    }

    /// A closed outline wholly inside stays closed; one crossing the edge is cut into open pieces by length.
    func testClosedOutlineClipping() {
        let square = Path(CGRect(x: 40, y: 40, width: 20, height: 20))
        let big = Path(CGRect(x: 0, y: 0, width: 100, height: 100))
        let kept = square.lineIntersection(big)
        XCTAssertEqual(Self.length(kept), 80, accuracy: 1e-6)
        XCTAssertEqual(kept.elements.last, .closeSubpath)
        XCTAssertTrue(square.lineSubtraction(big).isEmpty)
        // Half the square (x ≥ 50) inside: its right side and two half sides, 40 units, open.
        let half = Path(CGRect(x: 50, y: 0, width: 50, height: 100))
        let cut = square.lineIntersection(half)
        XCTAssertEqual(Self.length(cut), 40, accuracy: 1e-6)
        XCTAssertNotEqual(cut.elements.last, .closeSubpath)
        XCTAssertEqual(Self.length(square.lineSubtraction(half)), 40, accuracy: 1e-6)
        // Even-odd: a line across a ring is inside it twice.
        var ring = Self.circle(50, 50, 40)
        ring.addPath(Self.circle(50, 50, 20))
        let line = Path { $0.move(to: CGPoint(x: 0, y: 50)); $0.addLine(to: CGPoint(x: 100, y: 50)) }
        let shift = 2 * (Flatten.tolerance + GeometryTolerance.quarterCubicRadialError * 40)
        XCTAssertEqual(Self.length(line.lineIntersection(ring, eoFill: true)), 40, accuracy: 2 * shift)
        XCTAssertEqual(Self.length(line.lineIntersection(ring, eoFill: false)), 80, accuracy: 2 * shift)
    }

    // MARK: Degenerate, huge and non-finite input

    func testDegenerateOperands() {
        let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(Self.area(square.union(Path())), 100, accuracy: 1e-9)
        XCTAssertTrue(square.intersection(Path()).isEmpty)
        XCTAssertEqual(Self.area(square.subtracting(Path())), 100, accuracy: 1e-9)
        XCTAssertTrue(Path().union(Path()).isEmpty)
        let point = Path { $0.move(to: CGPoint(x: 5, y: 5)); $0.closeSubpath() }
        XCTAssertTrue(point.union(point).isEmpty)
        XCTAssertEqual(Self.area(square.subtracting(point)), 100, accuracy: 1e-9)
        // Zero area: a line, and a rect of zero height, enclose nothing.
        let line = Path { $0.move(to: .zero); $0.addLine(to: CGPoint(x: 10, y: 10)) }
        XCTAssertTrue(line.union(Path(CGRect(x: 0, y: 3, width: 10, height: 0))).isEmpty)
        XCTAssertEqual(Self.area(square.subtracting(line)), 100, accuracy: 1e-9)
        XCTAssertTrue(Path().lineIntersection(square).isEmpty)
        XCTAssertTrue(point.lineIntersection(square).isEmpty)
        XCTAssertEqual(Self.length(line.lineSubtraction(Path())), 200.squareRoot(), accuracy: 1e-9)
    }

    func testNonFiniteOperandsGiveEmptyPaths() {
        let square = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
        for bad in [CGFloat.nan, .infinity, -.infinity] {
            let p = Path { $0.move(to: .zero); $0.addLine(to: CGPoint(x: bad, y: 5)); $0.addLine(to: CGPoint(x: 0, y: 9)) }
            let q = Path { $0.move(to: .zero); $0.addCurve(to: CGPoint(x: 9, y: 0), control1: CGPoint(x: 1, y: bad),
                                                             control2: CGPoint(x: 5, y: 5)) }
            for bad in [p, q] {
                for op in Op.allCases {
                    XCTAssertTrue(Self.apply(op, square, bad, eoFill: false).isEmpty, "\(op)")
                    XCTAssertTrue(Self.apply(op, bad, square, eoFill: true).isEmpty, "\(op)")
                }
                XCTAssertTrue(bad.normalized().isEmpty)
                XCTAssertTrue(bad.lineIntersection(square).isEmpty)
                XCTAssertTrue(square.lineSubtraction(bad).isEmpty)
                XCTAssertTrue(CGPath(path: bad).flattened(threshold: 0.1).isEmpty)
                XCTAssertEqual(CGPath(path: bad).componentsSeparated().count, 0)
            }
        }
    }

    /// An operand that would flatten past `PathBoolean.maxPoints` gives an empty path, promptly: 4097 huge
    /// cubics of 4096 lines each.
    func testOperandBeyondThePointBoundGivesEmptyPath() {
        var p = Path()
        p.move(to: .zero)
        for i in 0 ... PathBoolean.maxPoints / Flatten.maxSegmentsPerCurve {
            let s = CGFloat(i % 2 == 0 ? 1e9 : -1e9)
            p.addCurve(to: CGPoint(x: CGFloat(i), y: 0), control1: CGPoint(x: 0, y: s), control2: CGPoint(x: s, y: 0))
        }
        p.closeSubpath()
        XCTAssertNil(PathBoolean.contours(of: p))
        XCTAssertTrue(p.union(Path(CGRect(x: 0, y: 0, width: 10, height: 10))).isEmpty)
        // Below the bound each such curve flattens to its 4096 lines.
        var q = Path()
        q.move(to: .zero)
        for i in 0 ..< 8 { q.addCurve(to: CGPoint(x: CGFloat(i), y: 0), control1: CGPoint(x: 0, y: 1e9), control2: CGPoint(x: 1e9, y: 0)) }
        XCTAssertEqual(PathBoolean.contours(of: q)?.first?.points.count, 1 + 8 * Flatten.maxSegmentsPerCurve)
        XCTAssertEqual(PathBoolean.pointCount(q, tolerance: Flatten.tolerance), 1 + 8 * Flatten.maxSegmentsPerCurve)
    }

    /// The sweep's work on shapes counted by hand: a square has one beam with its two sides active, and its top
    /// edge meets both (4); a bowtie's diagonals cross once in its one beam of four edges (5); two squares side by
    /// side, beams of 2 and 4 edges plus the horizontals: 2 at y = 0, 4 at y = 5 (the second square's top meets
    /// its own sides and the first's), none at y = 10, where every edge ends.
    func testSweepWorkCountsActiveEdgesAndCrossings() {
        func work(_ rings: [[(Double, Double)]]) -> Int {
            SweepWork.work(rings.map { (points: $0.map { DevicePoint(x: $0.0, y: $0.1) }, closed: true) })
        }
        XCTAssertEqual(work([[(0, 0), (10, 0), (10, 10), (0, 10)]]), 4)
        XCTAssertEqual(work([[(0, 0), (10, 10), (10, 0), (0, 10)]]), 5)
        XCTAssertEqual(work([[(0, 0), (10, 0), (10, 10), (0, 10)], [(20, 5), (30, 5), (30, 10), (20, 10)]]), 2 + 4 + 2 + 4)
        XCTAssertEqual(work([]), 0)
        XCTAssertTrue(SweepWork.fits([(points: [DevicePoint(x: 0, y: 0), DevicePoint(x: 10, y: 10), DevicePoint(x: 10, y: 0),
                                               DevicePoint(x: 0, y: 10)], closed: true)], limit: 5))
        XCTAssertFalse(SweepWork.fits([(points: [DevicePoint(x: 0, y: 0), DevicePoint(x: 10, y: 10), DevicePoint(x: 10, y: 0),
                                                DevicePoint(x: 0, y: 10)], closed: true)], limit: 4))
    }

    /// Two self-intersecting scribbles of 20 000 random segments each cross each other tens of millions of times
    /// (Clipper ran for minutes and past 2 GB on them): past `PathBoolean.maxSweepWork` every operation gives an
    /// empty path, promptly. 300-segment scribbles, well under the bound, still combine.
    func testScribblesBeyondTheSweepBoundGiveEmptyPath() {
        var rng = FormulaTestRandom(seed: 20_000)
        func scribble(_ n: Int) -> Path {
            var p = Path()
            p.move(to: CGPoint(x: rng.double(0, 1000), y: rng.double(0, 1000)))
            for _ in 1 ..< n { p.addLine(to: CGPoint(x: rng.double(0, 1000), y: rng.double(0, 1000))) }
            p.closeSubpath()
            return p
        }
        let a = scribble(20_000), b = scribble(20_000)
        XCTAssertTrue(a.union(b).isEmpty)
        XCTAssertTrue(a.lineSubtraction(b).isEmpty)
        let small = scribble(300), other = scribble(300)
        let both = small.union(other)
        XCTAssertFalse(both.isEmpty)
        // The union of two scribbles in the 1000-unit square covers most of it, and no more than all of it.
        let area = Self.area(both)
        XCTAssertGreaterThan(abs(area), 0.5e6)
        XCTAssertLessThanOrEqual(abs(area), 1e6 + 1)
    }

    /// 10³⁰⁰ fits the grid (the scale is a power of two chosen from the operands), with relative precision.
    func testHugeCoordinates() {
        let big = 1e300
        let a = Path(CGRect(x: 0, y: 0, width: big, height: big))
        let b = Path(CGRect(x: big / 2, y: 0, width: big, height: big))
        // Areas measured after scaling back to units (10⁶⁰⁰ has no Double); the grid's relative step is 2⁻²⁸.
        let unit = CGAffineTransform(scaleX: 1 / big, y: 1 / big)
        XCTAssertEqual(Self.area(a.union(b).applying(unit)), 1.5, accuracy: 1e-8)
        XCTAssertEqual(Self.area(a.intersection(b).applying(unit)), 0.5, accuracy: 1e-8)
        // Coordinates near Double's largest: curves and all, no crash or hang; the result stays finite.
        let huge = Self.circle(0, 0, 1e307)
        let r = huge.union(Self.circle(1e307, 0, 1e307))
        XCTAssertTrue(r.isFinite)
        XCTAssertFalse(r.isEmpty)
        // A unit square beside a 10¹⁵ one falls below the grid's step and vanishes; the large one survives.
        let mixed = Path(CGRect(x: 0, y: 0, width: 1, height: 1)).union(Path(CGRect(x: 1e15, y: 0, width: 1e15, height: 1e15)))
        XCTAssertEqual(Self.area(mixed.applying(CGAffineTransform(scaleX: 1e-15, y: 1e-15))), 1, accuracy: 1e-8)
    }

    /// Random element soups (every element kind, repeated points, closes without moves, coordinates from 10⁻³⁰⁰
    /// to 10³⁰⁰ and the odd NaN; the set identities checked below 10³⁰⁰, where areas fit a Double): no crash or hang, every result finite, and the areas ordered as sets are:
    /// A ∩ B ≤ A ≤ A ∪ B, and A ∪ B = (A − B) + (A ∩ B) + (B − A).
    func testRandomPathsKeepSetIdentities() {
        var g = FormulaTestRandom(seed: 7)
        func coordinate(_ g: inout FormulaTestRandom, scale: Double) -> CGFloat {
            switch g.next() % 300 {
            case 0: return .nan
            case 1 ..< 20: return 0.5 * scale              // repeated points
            default: return g.double(-1, 1) * scale
            }
        }
        func soup(_ g: inout FormulaTestRandom, scale: Double) -> Path {
            var p = Path()
            for _ in 0 ..< 3 + Int(g.next() % 12) {
                func pt(_ g: inout FormulaTestRandom) -> CGPoint { CGPoint(x: coordinate(&g, scale: scale), y: coordinate(&g, scale: scale)) }
                switch g.next() % 6 {
                case 0: p.move(to: pt(&g))
                case 1, 2: p.addLine(to: pt(&g))
                case 3: p.addQuadCurve(to: pt(&g), control: pt(&g))
                case 4: p.addCurve(to: pt(&g), control1: pt(&g), control2: pt(&g))
                default: p.closeSubpath()
                }
            }
            return p
        }
        var checked = 0
        // At 10³⁰⁰ every curve flattens to 4096 lines (`Flatten.maxSegmentsPerCurve`): a tenth of a second a case
        // in a debug build, so few of those.
        for i in 0 ..< 70 {
            let scale = [1e-300, 1e-3, 1, 100, 1e300][i % 5]
            let a = soup(&g, scale: scale), b = soup(&g, scale: scale)
            let eo = i % 2 == 1
            let results = Op.allCases.map { Self.apply($0, a, b, eoFill: eo) }
            for r in results { XCTAssertTrue(r.isFinite, "case \(i)") }
            _ = a.lineIntersection(b, eoFill: eo)
            _ = a.lineSubtraction(b, eoFill: eo)
            guard a.isFinite, b.isFinite, scale < 1e300 else { continue }
            // Areas in units of scale², where the grid's relative step 2⁻²⁸ bounds each vertex's move.
            let unit = CGAffineTransform(scaleX: 1 / scale, y: 1 / scale)
            let u = Self.area(results[0].applying(unit)), n = Self.area(results[1].applying(unit))
            let d = Self.area(results[2].applying(unit)), na = Self.area(a.normalized(eoFill: eo).applying(unit))
            let back = Self.area(b.subtracting(a, eoFill: eo).applying(unit))
            let slack = 1e-5  // 2⁻²⁸ × outlines of up to ~100 units of length at unit scale, with room
            XCTAssertLessThanOrEqual(n, na + slack, "case \(i)")
            XCTAssertLessThanOrEqual(na, u + slack, "case \(i)")
            XCTAssertEqual(u, d + n + back, accuracy: slack, "case \(i)")
            checked += 1
        }
        XCTAssertGreaterThan(checked, 40)
    }

    /// The differential fuzzer's paths (`scripts/fuzz.py --seed 32 --print-scene I`, I < 40: element soups,
    /// degenerate subpaths, wild transforms up to 10³⁰⁰), drawn and clip paths in canvas space, each combined
    /// with the next by every operation: no crash or hang, every result finite. `GPUCANVAS_FUZZ_SCENES` names a
    /// folder of scene files to use instead.
    func testFuzzerPathsCombineWithoutFailure() throws {
        try TestTier.requireThorough()
        var scenes: [Data] = []
        if let dir = ProcessInfo.processInfo.environment["GPUCANVAS_FUZZ_SCENES"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir).sorted() where name.hasSuffix(".json") {
                scenes.append(try Data(contentsOf: URL(fileURLWithPath: dir).appendingPathComponent(name)))
            }
        } else {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            for i in 0 ..< 40 {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                p.arguments = ["python3", root.appendingPathComponent("scripts/fuzz.py").path, "--seed", "32",
                               "--print-scene", "\(i)"]
                let pipe = Pipe()
                p.standardOutput = pipe
                try p.run()
                scenes.append(pipe.fileHandleForReading.readDataToEndOfFile())
                p.waitUntilExit()
            }
        }
        var paths: [Path] = []
        func collect(_ layer: RecordedLayer) {
            for item in layer.items {
                switch item {
                case .draw(let d):
                    paths.append(d.path.applying(d.transform))
                    for case .path(let p, let t, _, _) in d.state.clips { paths.append(p.applying(t)) }
                case .layer(let l): collect(l.content)
                }
            }
        }
        var loaded = 0
        for data in scenes {
            // A scene the loader refuses is the loader's business (the fuzzer also writes malformed ones).
            guard let scene = try? Scene(jsonData: data) else { continue }
            loaded += 1
            collect(scene.recording.root)
        }
        XCTAssertGreaterThan(loaded, scenes.count / 2)
        for (i, (a, b)) in zip(paths, paths.dropFirst()).enumerated() {
            for eo in [false, true] {
                for op in Op.allCases { XCTAssertTrue(Self.apply(op, a, b, eoFill: eo).isFinite, "pair \(i) \(op)") }
                XCTAssertTrue(a.lineIntersection(b, eoFill: eo).isFinite, "pair \(i)")
                XCTAssertTrue(a.lineSubtraction(b, eoFill: eo).isFinite, "pair \(i)")
            }
        }
        print("PathBooleanTests: \(paths.count) fuzzer paths from \(loaded) scenes combined")
    }

    /// The shim catches what Clipper throws: coordinates beyond its 2⁶² − 1 range are a status, not a crash
    /// (the grid scaling never produces them; this is the shim's own guard).
    func testShimReportsOutOfRangeCoordinates() {
        let xy: [Int64] = [0, 0, Int64.max, 0, 0, Int64.max]
        let counts: [Int32] = [3]
        var result: OpaquePointer?
        let status = cclipper_execute(CClipperUnion, xy, counts, 1, 0, nil, nil, 0, 0, &result)
        XCTAssertEqual(status, CClipperRangeError)
        XCTAssertNil(result)
        // In range, the same triangle is one component of area 2⁶⁰ / 2.
        let ok: [Int64] = [0, 0, 1 << 30, 0, 0, 1 << 30]
        XCTAssertEqual(cclipper_execute(CClipperUnion, ok, counts, 1, 0, nil, nil, 0, 0, &result), CClipperOK)
        if let r = result {
            XCTAssertEqual(cclipper_contour_count(r), 1)
            XCTAssertEqual(cclipper_point_count(r, 0), 3)
            cclipper_free(r)
        }
    }

    // MARK: CGPath

    func testCGPathOperations() {
        let a = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let b = CGPath(rect: CGRect(x: 5, y: 5, width: 10, height: 10), transform: nil)
        XCTAssertEqual(Self.area(Path(a.union(b))), 175, accuracy: 1e-9)
        XCTAssertEqual(Self.area(Path(a.intersection(b))), 25, accuracy: 1e-9)
        XCTAssertEqual(Self.area(Path(a.subtracting(b))), 75, accuracy: 1e-9)
        XCTAssertEqual(Self.area(Path(a.symmetricDifference(b, using: .evenOdd))), 150, accuracy: 1e-9)
        let line = CGMutablePath()
        line.move(to: CGPoint(x: -5, y: 2))
        line.addLine(to: CGPoint(x: 15, y: 2))
        XCTAssertEqual(Self.length(Path(line.lineIntersection(a))), 10, accuracy: 1e-9)
        XCTAssertEqual(Self.length(Path(line.lineSubtraction(a))), 10, accuracy: 1e-9)
        // A five-pointed star filled non-zero is one component. (Even-odd, its points meet at single vertices,
        // which Clipper may keep joined or apart: no count is promised there.)
        let star = CGPath(path: Self.star(50, 50, 40, n: 5, k: 2))
        XCTAssertEqual(star.componentsSeparated(using: .winding).count, 1)
        // Two apart circles, and a ring with an island in its hole: the island is a component of its own.
        let scattered = CGMutablePath()
        scattered.addEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
        scattered.addEllipse(in: CGRect(x: 20, y: 0, width: 10, height: 10))
        scattered.addEllipse(in: CGRect(x: 100, y: 0, width: 90, height: 90))
        scattered.addEllipse(in: CGRect(x: 115, y: 15, width: 60, height: 60))
        scattered.addEllipse(in: CGRect(x: 135, y: 35, width: 20, height: 20))
        let pieces = scattered.componentsSeparated(using: .evenOdd)
        XCTAssertEqual(pieces.count, 4)
        XCTAssertEqual(pieces.map { Self.area(Path($0)) }.reduce(0, +), Self.area(Path(scattered.normalized(using: .evenOdd))),
                       accuracy: Self.grid)
        XCTAssertEqual(pieces.map { Path($0).elements.filter { $0 == .closeSubpath }.count }.sorted(), [1, 1, 1, 2])
        XCTAssertEqual(Self.area(Path(star.normalized(using: .evenOdd))), Self.area(Self.star(50, 50, 40, n: 5, k: 2).normalized()), accuracy: Self.grid)
        // A ring is one component holding two contours.
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: 0, y: 0, width: 80, height: 80))
        ring.addEllipse(in: CGRect(x: 20, y: 20, width: 40, height: 40))
        let parts = ring.componentsSeparated(using: .evenOdd)
        XCTAssertEqual(parts.count, 1)
        XCTAssertEqual(parts.first.map { Path($0).elements.filter { $0 == .closeSubpath }.count }, 2)
    }

    func testFlattenedKeepsStructureWithinThreshold() {
        let r = 40.0, threshold = 0.1
        let circle = CGPath(ellipseIn: CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r), transform: nil)
        let flat = Path(circle.flattened(threshold: threshold))
        var lines = 0, pen = CGPoint.zero
        for e in flat.elements {
            switch e {
            case .quadCurve, .curve: XCTFail("curve left")
            case .move(let p): pen = p
            case .line(let p):
                lines += 1
                // Every vertex on the (four-cubic) circle; every chord's midpoint within the threshold of it.
                XCTAssertEqual(hypot(p.x, p.y), r, accuracy: GeometryTolerance.quarterCubicRadialError * r)
                let mid = hypot((p.x + pen.x) / 2, (p.y + pen.y) / 2)
                XCTAssertLessThanOrEqual(r - mid, threshold + GeometryTolerance.quarterCubicRadialError * r)
                pen = p
            case .closeSubpath: break
            }
        }
        XCTAssertGreaterThan(lines, 16)
        XCTAssertEqual(flat.elements.last, .closeSubpath)
        // A zero or NaN threshold is the finest flattening: bounded, not endless.
        XCTAssertEqual(Path(circle.flattened(threshold: 0)).elements.count, 4 * Flatten.maxSegmentsPerCurve + 2)
        XCTAssertEqual(Path(circle.flattened(threshold: .nan)).elements.count, 4 * Flatten.maxSegmentsPerCurve + 2)
    }

    // MARK: Rendering

    /// A square with a round hole, and a star normalized even-odd: known pixels on every backend.
    func testRenderedResultsOnEveryBackend() throws {
        let img = try render(100, 50) { ctx, _ in
            let holed = Path(CGRect(x: 0, y: 0, width: 50, height: 50))
                .subtracting(Path(ellipseIn: CGRect(x: 15, y: 15, width: 20, height: 20)))
            ctx.fill(holed, with: .color(.green))
            ctx.fill(Self.star(75, 25, 24, n: 5, k: 2).normalized(eoFill: true), with: .color(.green))
        }
        assertPixel(img, 3, 3, Self.green)
        assertPixel(img, 25, 25, Self.clear)   // the hole
        assertPixel(img, 25, 12, Self.green)   // just outside the hole
        assertPixel(img, 75, 25, Self.clear)   // the star's centre pentagon, even-odd
        assertPixel(img, 75, 6, Self.green)    // the top point
        assertPixel(img, 60, 45, Self.clear)   // between the lower points
    }

    // MARK: Performance

    /// Two 1000-segment paths: the union's area against the oracle, and the times of the four operations, on
    /// 1000 lines and on 1000 cubics (docs/performance.md).
    func testThousandSegmentPaths() {
        func median(_ body: () -> Void) -> Double {
            var times: [Double] = []
            for _ in 0 ..< 15 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                body()
                times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            return times.sorted()[times.count / 2]
        }
        func wavyCubics(_ cx: Double, _ phase: Double) -> Path {
            Path { p in
                let n = 1000
                func at(_ t: Double, bulge: Double = 0) -> CGPoint {
                    let r = 30 + 4 * sin(17 * t + phase) + bulge
                    return CGPoint(x: cx + r * cos(t), y: 50 + r * sin(t))
                }
                p.move(to: at(0))
                for i in 0 ..< n {
                    let t0 = 2 * Double.pi * Double(i) / Double(n), dt = 2 * Double.pi / Double(n)
                    // Scallops bulging 0.75 units outwards: each flattens to a few lines at 0.05.
                    p.addCurve(to: at(t0 + dt), control1: at(t0 + dt / 3, bulge: 1), control2: at(t0 + 2 * dt / 3, bulge: 1))
                }
                p.closeSubpath()
            }
        }
        func wavy(_ cx: Double, _ phase: Double) -> Path {
            Path { p in
                p.addLines((0 ..< 1000).map { i in
                    let t = 2 * Double.pi * Double(i) / 1000, r = 30 + 4 * sin(17 * t + phase)
                    return CGPoint(x: cx + r * cos(t), y: 50 + r * sin(t))
                })
                p.closeSubpath()
            }
        }
        for (name, a, b) in [("lines", wavy(40, 0), wavy(60, 1)), ("cubics", wavyCubics(40, 0), wavyCubics(60, 1))] {
            let times = Op.allCases.map { op in median { _ = Self.apply(op, a, b, eoFill: false) } }
            print("PathBooleanTests: 1000 \(name) × 2, median ms union/intersection/subtracting/xor:",
                  times.map { String(format: "%.2f", $0) }.joined(separator: " / "))
            // Where the union's time goes: flattening both, then Clipper with the grid conversions.
            let ca = PathBoolean.contours(of: a)!, cb = PathBoolean.contours(of: b)!
            let flatten = median { _ = PathBoolean.contours(of: a); _ = PathBoolean.contours(of: b) }
            let clipper = median { _ = PathBoolean.run(CClipperUnion, subject: ca, clip: cb, evenOdd: false, lines: false) }
            let swept = (ca + cb).map { (points: $0.points, closed: true) }
            let check = median { _ = SweepWork.fits(swept, limit: PathBoolean.maxSweepWork) }
            print("PathBooleanTests: 1000 \(name): \(ca[0].points.count) + \(cb[0].points.count) points, flattening",
                  String(format: "%.2f ms, Clipper and the grid %.2f ms, of which the sweep-work check %.2f ms (work %d)",
                         flatten, clipper, check, SweepWork.work(swept)))
        }
        let a = wavy(40, 0), b = wavy(60, 1)
        let (expected, outline) = Self.oracle(a, b)
        XCTAssertEqual(Self.area(a.union(b)), expected[0][0], accuracy: Self.tolerance(outline: outline))
    }
}
