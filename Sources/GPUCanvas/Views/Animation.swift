// `Animation`: a timing curve with a duration, delay, speed and repetition, evaluated as a pure function of the
// time since the animated change (`state(at:)`), so a frame at t is the same every run.

/// How an animated change moves from the old value to the new one over time.
///
/// `Animation.easeInOut(duration: 1).state(at: 0.5).progress` → 0.5; `.linear(duration: 1)
/// .repeatForever(autoreverses: true)` is at 0.25 after 0.25 s and after 1.75 s.
public struct Animation: Equatable, Sendable, CustomStringConvertible {
    enum Curve: Equatable, Sendable {
        /// A cubic Bézier timing curve from (0, 0) to (1, 1) through the two control points.
        case bezier(CGFloat, CGFloat, CGFloat, CGFloat)
        /// A damped spring's step response: `response` is the undamped period, `damping` ζ (1: critical).
        case spring(response: Double, damping: Double)
    }
    let curve: Curve
    /// One run's length in seconds, before `speed`.
    let duration: Double
    var delaySeconds: Double = 0
    var speedFactor: Double = 1
    /// Runs in all; nil repeats forever.
    var runs: Int? = 1
    var autoreverses = false

    init(curve: Curve, duration: Double) {
        self.curve = curve
        self.duration = duration
    }

    /// SwiftUI's default duration of the timing-curve animations.
    static let defaultDuration = 0.35

    public static func linear(duration: TimeInterval) -> Animation { Animation(curve: .bezier(0, 0, 1, 1), duration: duration) }
    public static var linear: Animation { linear(duration: defaultDuration) }
    public static func easeIn(duration: TimeInterval) -> Animation { Animation(curve: .bezier(0.42, 0, 1, 1), duration: duration) }
    public static var easeIn: Animation { easeIn(duration: defaultDuration) }
    public static func easeOut(duration: TimeInterval) -> Animation { Animation(curve: .bezier(0, 0, 0.58, 1), duration: duration) }
    public static var easeOut: Animation { easeOut(duration: defaultDuration) }
    public static func easeInOut(duration: TimeInterval) -> Animation {
        Animation(curve: .bezier(0.42, 0, 0.58, 1), duration: duration)
    }
    public static var easeInOut: Animation { easeInOut(duration: defaultDuration) }

    /// A custom cubic Bézier timing curve (control points in the unit square).
    public static func timingCurve(_ c0x: Double, _ c0y: Double, _ c1x: Double, _ c1y: Double,
                                   duration: TimeInterval = 0.35) -> Animation {
        Animation(curve: .bezier(CGFloat(c0x), CGFloat(c0y), CGFloat(c1x), CGFloat(c1y)), duration: duration)
    }

    /// The default animation: here `easeInOut` over 0.35 s (SwiftUI's before iOS 17; it is now a spring).
    public static var `default`: Animation { easeInOut }

    /// A damped spring, approximated by the closed-form step response of a mass on a spring with period
    /// `response` and damping ratio `dampingFraction` (≥ 1 is taken as critical damping); it is finished once
    /// its envelope is below `Animation.springSettleFraction`. `blendDuration` is ignored.
    public static func spring(response: Double = 0.55, dampingFraction: Double = 0.825,
                              blendDuration: Double = 0) -> Animation {
        let zeta = min(max(dampingFraction, 0.01), 1)
        let omega = 2 * Double.pi / max(response, 1e-3)
        let settle = log(1 / springSettleFraction) / (zeta * omega)
        return Animation(curve: .spring(response: max(response, 1e-3), damping: zeta), duration: settle)
    }
    public static var spring: Animation { spring() }

    /// A spring is finished when its oscillation's envelope falls below this fraction of the change.
    static let springSettleFraction = 0.001

    /// The same animation starting `delay` seconds after the change.
    public func delay(_ delay: Double) -> Animation { var a = self; a.delaySeconds += delay; return a }

    /// The same animation run `speed` times as fast (the delay is not scaled).
    public func speed(_ speed: Double) -> Animation { var a = self; a.speedFactor *= speed; return a }

    /// The animation run `repeatCount` times, every other run backwards when `autoreverses`.
    public func repeatCount(_ repeatCount: Int, autoreverses: Bool = true) -> Animation {
        var a = self
        a.runs = max(1, repeatCount)
        a.autoreverses = autoreverses
        return a
    }

    /// The animation run forever, every other run backwards when `autoreverses`.
    public func repeatForever(autoreverses: Bool = true) -> Animation {
        var a = self
        a.runs = nil
        a.autoreverses = autoreverses
        return a
    }

    /// Where the animation is `elapsed` seconds after the change: progress 0 shows the old value, 1 the new
    /// one (a spring overshoots past 1). Finished animations show the new value.
    func state(at elapsed: Double) -> (progress: Double, isFinished: Bool) {
        let tau = (elapsed - delaySeconds) * speedFactor
        guard tau > 0 else { return (0, false) }
        guard duration > 0, duration.isFinite else { return (1, true) }
        let run = (tau / duration).rounded(.down)
        if let runs, run >= Double(runs) { return (1, true) }
        var u = tau / duration - run
        if autoreverses, Int(run.truncatingRemainder(dividingBy: 2)) == 1 { u = 1 - u }
        return (value(at: u), false)
    }

    /// The curve's value at the fraction `u` (0…1) of one run.
    func value(at u: Double) -> Double {
        switch curve {
        case .bezier(let x1, let y1, let x2, let y2):
            return Double(Animation.cubicBezier(x1, y1, x2, y2, at: CGFloat(u)))
        case .spring(let response, let zeta):
            let t = u * duration
            let omega = 2 * Double.pi / response
            if zeta >= 1 { return 1 - exp(-omega * t) * (1 + omega * t) }
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * omega * t) * (cos(wd * t) + zeta * omega / wd * sin(wd * t))
        }
    }

    /// y of the timing curve at x = `x`: x(s) is solved for s by bisection (x is monotonic in s for control
    /// points in the unit square), 40 halvings giving s to 1e-12.
    static func cubicBezier(_ x1: CGFloat, _ y1: CGFloat, _ x2: CGFloat, _ y2: CGFloat, at x: CGFloat) -> CGFloat {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func bez(_ a: CGFloat, _ b: CGFloat, _ s: CGFloat) -> CGFloat {
            let r = 1 - s
            return 3 * r * r * s * a + 3 * r * s * s * b + s * s * s
        }
        var lo: CGFloat = 0, hi: CGFloat = 1
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if bez(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return bez(y1, y2, (lo + hi) / 2)
    }

    public var description: String {
        var s: String
        switch curve {
        case .bezier(0, 0, 1, 1): s = "linear(duration: \(duration))"
        case .bezier(0.42, 0, 1, 1): s = "easeIn(duration: \(duration))"
        case .bezier(0, 0, 0.58, 1): s = "easeOut(duration: \(duration))"
        case .bezier(0.42, 0, 0.58, 1): s = "easeInOut(duration: \(duration))"
        case .bezier(let a, let b, let c, let d): s = "timingCurve(\(a), \(b), \(c), \(d), duration: \(duration))"
        case .spring(let r, let z): s = "spring(response: \(r), dampingFraction: \(z))"
        }
        if delaySeconds != 0 { s += ".delay(\(delaySeconds))" }
        if speedFactor != 1 { s += ".speed(\(speedFactor))" }
        if let runs, runs != 1 { s += ".repeatCount(\(runs), autoreverses: \(autoreverses))" }
        if runs == nil { s += ".repeatForever(autoreverses: \(autoreverses))" }
        return s
    }
}
