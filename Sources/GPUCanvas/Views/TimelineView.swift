// `TimelineView` and its schedules, driven by the view graph's clock: a frame at time t sees the date
// `startDate + t`, and the timeline's content is built with the schedule's last entry at or before that date.
// The built-in schedules compute that entry in closed form (no accumulated floating-point steps), so a frame
// at a given t always sees the same date.

/// How a schedule is asked for entries (SwiftUI lowers the rate in low-power modes; here always `.normal`).
public enum TimelineScheduleMode: Hashable, Sendable {
    case normal, lowFrequency
}

/// A sequence of dates at which a `TimelineView` updates.
public protocol TimelineSchedule {
    associatedtype Entries: Sequence where Entries.Element == Date
    func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries
}

/// Schedules whose entry at or before a date is known without walking the entries.
protocol ClosedFormSchedule {
    /// The last entry at or before `date` of the entries from `start` (the first entry when none is).
    func entry(atOrBefore date: Date, start: Date) -> Date
}

/// The entries every display frame, no more often than `minimumInterval`; `paused` stops at the start.
public struct AnimationTimelineSchedule: TimelineSchedule, ClosedFormSchedule, Sendable {
    public let minimumInterval: Double?
    public let paused: Bool
    public init(minimumInterval: Double? = nil, paused: Bool = false) {
        self.minimumInterval = minimumInterval
        self.paused = paused
    }

    /// Every frame of the renderer: here the entries are `start + k·interval` (1/60 s when no minimum is given).
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> PeriodicTimelineSchedule.Entries {
        PeriodicTimelineSchedule(from: startDate, by: minimumInterval ?? 1.0 / 60).entries(from: startDate, mode: mode)
    }

    func entry(atOrBefore date: Date, start: Date) -> Date {
        if paused { return start }
        // Without a minimum interval every frame is an entry: the frame's own date.
        guard let step = minimumInterval, step > 0 else { return max(date, start) }
        return PeriodicTimelineSchedule.boundary(atOrBefore: date, start: start, step: step)
    }
}

/// Entries at `startDate + k·interval`.
public struct PeriodicTimelineSchedule: TimelineSchedule, ClosedFormSchedule, Sendable {
    let startDate: Date
    let interval: TimeInterval
    public init(from startDate: Date, by interval: TimeInterval) {
        self.startDate = startDate
        self.interval = interval
    }

    public struct Entries: Sequence, IteratorProtocol, Sendable {
        var upcoming: Date
        let interval: TimeInterval
        public mutating func next() -> Date? {
            defer { upcoming = upcoming.addingTimeInterval(interval) }
            return upcoming
        }
    }

    /// The most recent boundary at or before the view's start, then every interval.
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries {
        Entries(upcoming: Self.boundary(atOrBefore: startDate, start: self.startDate, step: interval), interval: interval)
    }

    func entry(atOrBefore date: Date, start: Date) -> Date {
        Self.boundary(atOrBefore: date, start: startDate, step: interval)
    }

    /// `start + k·step` for the largest k with the result ≤ date (k ≥ 0); a hair of tolerance
    /// (`boundaryTolerance` of a step) keeps t = 0.12 on the 0.06 grid at k = 2, not 1.
    static func boundary(atOrBefore date: Date, start: Date, step: TimeInterval) -> Date {
        guard step > 0, step.isFinite else { return start }
        let elapsed = date.timeIntervalSince(start)
        guard elapsed > 0 else { return start }
        let k = (elapsed / step + boundaryTolerance).rounded(.down)
        return start.addingTimeInterval(k * step)
    }

    /// The fraction of a step a date may fall short of a boundary and still count as on it (float error).
    static let boundaryTolerance = 1e-9
}

/// An entry at the start of every minute.
public struct EveryMinuteTimelineSchedule: TimelineSchedule, ClosedFormSchedule, Sendable {
    public init() {}

    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> PeriodicTimelineSchedule.Entries {
        PeriodicTimelineSchedule.Entries(upcoming: minuteStart(startDate), interval: 60)
    }

    func entry(atOrBefore date: Date, start: Date) -> Date { minuteStart(date) }

    /// The start of the minute holding `date` (minutes counted from the reference date, as UTC minutes are).
    private func minuteStart(_ date: Date) -> Date {
        Date(timeIntervalSinceReferenceDate: (date.timeIntervalSinceReferenceDate / 60).rounded(.down) * 60)
    }
}

/// Exactly the given dates.
public struct ExplicitTimelineSchedule<Entries: Sequence>: TimelineSchedule where Entries.Element == Date {
    let dates: Entries
    public init(_ dates: Entries) { self.dates = dates }
    public func entries(from startDate: Date, mode: TimelineScheduleMode) -> Entries { dates }
}

extension TimelineSchedule where Self == AnimationTimelineSchedule {
    /// Every frame.
    public static var animation: AnimationTimelineSchedule { AnimationTimelineSchedule() }
    /// Every frame, at most every `minimumInterval` seconds; `paused` holds the first date.
    public static func animation(minimumInterval: Double? = nil, paused: Bool = false) -> AnimationTimelineSchedule {
        AnimationTimelineSchedule(minimumInterval: minimumInterval, paused: paused)
    }
}

extension TimelineSchedule where Self == PeriodicTimelineSchedule {
    /// `startDate + k·interval`.
    public static func periodic(from startDate: Date, by interval: TimeInterval) -> PeriodicTimelineSchedule {
        PeriodicTimelineSchedule(from: startDate, by: interval)
    }
}

extension TimelineSchedule where Self == EveryMinuteTimelineSchedule {
    /// The start of every minute.
    public static var everyMinute: EveryMinuteTimelineSchedule { EveryMinuteTimelineSchedule() }
}

extension TimelineSchedule {
    /// Exactly `dates`; before the first the first is shown, after the last the last.
    public static func explicit<S: Sequence>(_ dates: S) -> ExplicitTimelineSchedule<S> where Self == ExplicitTimelineSchedule<S> {
        ExplicitTimelineSchedule(dates)
    }
}

/// A view rebuilt at the dates of a schedule; its content receives the current entry's date.
///
/// ```swift
/// TimelineView(.periodic(from: start, by: 1)) { context in
///     Text("\(Int(context.date.timeIntervalSince(start)))")
/// }
/// ```
public struct TimelineView<Schedule: TimelineSchedule, Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let schedule: Schedule
    let content: (TimelineViewDefaultContext) -> Content

    public init(_ schedule: Schedule, @ViewBuilder content: @escaping (TimelineViewDefaultContext) -> Content) {
        self.schedule = schedule
        self.content = content
    }

    /// What the content closure receives.
    public struct Context {
        /// How often the view updates.
        public enum Cadence: Comparable, Sendable {
            case live, seconds, minutes
        }
        /// The date of the current entry.
        public let date: Date
        /// Always `.live` here: offline rendering has no reduced-rate modes.
        public let cadence: Cadence
        /// Asks for the content to be rebuilt: every frame rebuilds it anyway here.
        public func invalidateTimelineContent() {}
    }

    /// The last entry at or before the frame's date (the first entry when the frame is before all of them).
    func entryDate(frameDate: Date, start: Date) -> Date {
        if let closed = schedule as? any ClosedFormSchedule { return closed.entry(atOrBefore: frameDate, start: start) }
        var chosen: Date?
        var iterator = schedule.entries(from: start, mode: .normal).makeIterator()
        // A custom schedule is walked; this many entries at most, so an endless one ends.
        for _ in 0..<TimelineViewLimits.maxWalkedEntries {
            guard let d = iterator.next() else { break }
            if d > frameDate { if chosen == nil { chosen = d }; break }
            chosen = d
        }
        return chosen ?? start
    }

    func makeNode(_ builder: NodeBuilder, _ environment: ViewEnvironment, _ path: ViewPath) -> ViewNode {
        let date = entryDate(frameDate: builder.date, start: builder.graph.startDate)
        let context = TimelineViewDefaultContext(date: date, cadence: .live)
        return builder.build(content(context), environment, path.appending("timeline"))
    }
}

enum TimelineViewLimits {
    /// Entries of a custom (not closed-form) schedule walked per frame.
    static let maxWalkedEntries = 100_000
}

/// The context every `TimelineView` content closure receives, whatever the schedule (SwiftUI's spelling).
public typealias TimelineViewDefaultContext = TimelineView<EveryMinuteTimelineSchedule, Never>.Context

extension ExplicitTimelineSchedule: ClosedFormSchedule {
    func entry(atOrBefore date: Date, start: Date) -> Date {
        var chosen: Date?
        var first: Date?
        for d in dates {
            if first == nil { first = d }
            if d <= date, chosen.map({ d >= $0 }) ?? true { chosen = d }
        }
        return chosen ?? first ?? start
    }
}
