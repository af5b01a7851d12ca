import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `TimelineView` and its schedules on the injected clock: the entry a frame at time t sees is the schedule's
/// last entry at or before `startDate + t`; S14's clock drawn by a second hand at chosen dates.
final class ViewTimelineTests: XCTestCase {
    /// The last date a timeline's content was built with.
    final class SeenDate {
        var date: Date?
        func record(_ context: TimelineViewDefaultContext) -> Color {
            date = context.date
            XCTAssertEqual(context.cadence, .live)
            return Color.red
        }
    }

    /// Same as `ViewRenderingTests.rounding`: both backends cover the same geometry.
    static let rounding = 2
    let start = Date(timeIntervalSinceReferenceDate: 1000)

    /// The date the content of `TimelineView(schedule)` receives in a frame at `t`.
    func entryDate<S: TimelineSchedule>(_ schedule: S, at t: TimeInterval, start: Date? = nil) -> Date {
        let seen = SeenDate()
        let view = TimelineView(schedule) { context in
            seen.record(context)
        }
        _ = ViewGraph(root: AnyView(view), startDate: start ?? self.start).tree(at: t)
        return seen.date!
    }

    func testAnimationScheduleStepsByItsMinimumInterval() {
        let s = AnimationTimelineSchedule.animation(minimumInterval: 0.06)
        XCTAssertEqual(entryDate(s, at: 0), start)
        XCTAssertEqual(entryDate(s, at: 0.13).timeIntervalSince(start), 0.12, accuracy: 1e-9)
        XCTAssertEqual(entryDate(s, at: 0.12).timeIntervalSince(start), 0.12, accuracy: 1e-9)
        XCTAssertEqual(entryDate(s, at: 0.1199).timeIntervalSince(start), 0.06, accuracy: 1e-9)
        XCTAssertEqual(entryDate(.animation, at: 0.1234).timeIntervalSince(start), 0.1234, accuracy: 1e-9)
        XCTAssertEqual(entryDate(.animation(minimumInterval: 0.06, paused: true), at: 5), start)
    }

    func testPeriodicEveryMinuteAndExplicitSchedules() {
        // A start in the past: the most recent boundary.
        XCTAssertEqual(entryDate(.periodic(from: start.addingTimeInterval(-10), by: 3), at: 0), start.addingTimeInterval(-1))
        XCTAssertEqual(entryDate(.periodic(from: start.addingTimeInterval(-10), by: 3), at: 2.5), start.addingTimeInterval(2))
        XCTAssertEqual(entryDate(.periodic(from: start.addingTimeInterval(5), by: 3), at: 0), start.addingTimeInterval(5))
        // 1000 s after the reference date is 16 min 40 s: the minute started at 960 s.
        XCTAssertEqual(entryDate(.everyMinute, at: 0), Date(timeIntervalSinceReferenceDate: 960))
        XCTAssertEqual(entryDate(.everyMinute, at: 25), Date(timeIntervalSinceReferenceDate: 1020))
        let dates = [start.addingTimeInterval(1), start.addingTimeInterval(2), start.addingTimeInterval(4)]
        XCTAssertEqual(entryDate(.explicit(dates), at: 0.5), dates[0])
        XCTAssertEqual(entryDate(.explicit(dates), at: 3), dates[1])
        XCTAssertEqual(entryDate(.explicit(dates), at: 99), dates[2])
    }

    /// A schedule of the user's own is walked to the last entry at or before the frame's date.
    func testCustomScheduleIsWalked() {
        struct HalfSeconds: TimelineSchedule {
            func entries(from startDate: Date, mode: TimelineScheduleMode) -> [Date] {
                (0..<10).map { startDate.addingTimeInterval(Double($0) * 0.5) }
            }
        }
        XCTAssertEqual(entryDate(HalfSeconds(), at: 1.3), start.addingTimeInterval(1))
        XCTAssertEqual(entryDate(HalfSeconds(), at: 100), start.addingTimeInterval(4.5))
    }

    /// S14 in this test's words: a gray face canvas and, in a `TimelineView`, a canvas drawing a red second hand
    /// from the centre, 0.4 × the width long, at seconds × 6° − 90°.
    struct Clock: View {
        var body: some View {
            ZStack {
                Canvas { context, size in
                    context.stroke(Path(ellipseIn: CGRect(origin: .zero, size: size).insetBy(dx: 4, dy: 4)),
                                   with: .color(.gray), lineWidth: 4)
                }
                TimelineView(.animation(minimumInterval: 0.06)) { timeline in
                    Canvas { context, size in
                        let centre = CGPoint(x: size.width / 2, y: size.height / 2)
                        let seconds = timeline.date.timeIntervalSinceReferenceDate.truncatingRemainder(dividingBy: 60)
                        let angle = Angle.degrees(seconds * 6 - 90)
                        var hand = Path()
                        hand.move(to: centre)
                        hand.addLine(to: CGPoint(x: centre.x + cos(angle.radians) * size.width * 0.4,
                                                 y: centre.y + sin(angle.radians) * size.width * 0.4))
                        context.stroke(hand, with: .color(.red), lineWidth: 2)
                    }
                }
            }
        }
    }

    func testClockSecondHandPointsAtTheDatesSecond() throws {
        let red = ViewTesting.pixel(.red)
        let gray = ViewTesting.pixel(.gray)
        let size = CGSize(width: 200, height: 200)
        let clear = ViewTesting.transparent
        // Start at 15 s past the minute: the hand points right (0°).
        let at15 = try ViewTesting.render(Clock(), size: size, startDate: Date(timeIntervalSinceReferenceDate: 15))
        ViewTesting.assertPixel(at15, 150, 100, red, tolerance: Self.rounding)
        ViewTesting.assertPixel(at15, 100, 50, clear, tolerance: Self.rounding)
        ViewTesting.assertPixel(at15, 4, 100, gray, tolerance: Self.rounding)      // the face, left edge
        // 30 s later: 45 s, the hand points left (180°).
        let at45 = try ViewTesting.render(Clock(), size: size, time: 30, startDate: Date(timeIntervalSinceReferenceDate: 15))
        ViewTesting.assertPixel(at45, 50, 100, red, tolerance: Self.rounding)
        ViewTesting.assertPixel(at45, 150, 100, clear, tolerance: Self.rounding)
        // 0 s: straight up.
        let at0 = try ViewTesting.render(Clock(), size: size, time: 45, startDate: Date(timeIntervalSinceReferenceDate: 15))
        ViewTesting.assertPixel(at0, 100, 50, red, tolerance: Self.rounding)
        // Setting the start date afterwards starts the graph over at that date.
        let r = ImageRenderer(content: Clock())
        r.proposedSize = ProposedViewSize(size)
        r.startDate = Date(timeIntervalSinceReferenceDate: 45)
        ViewTesting.assertPixel(try r.render(with: CanvasRenderer(backend: .reference)), 50, 100, red, tolerance: Self.rounding)
    }

    /// Frames between two entries of the 0.06 s schedule are identical; the next entry differs.
    func testClockFramesHoldBetweenEntriesAndRepeatExactly() throws {
        let reference = try CanvasRenderer(backend: .reference)
        func frame(_ t: Double) throws -> RasterImage {
            let r = ImageRenderer(content: Clock(), startDate: Date(timeIntervalSinceReferenceDate: 7))
            r.proposedSize = ProposedViewSize(width: 200, height: 200)
            return try r.render(at: t, with: reference)
        }
        let a = try frame(0.13)
        XCTAssertEqual(a, try frame(0.13))
        XCTAssertEqual(a, try frame(0.12))
        XCTAssertEqual(a, try frame(0.179))
        XCTAssertNotEqual(a, try frame(0.18 + 0.5))
    }
}
