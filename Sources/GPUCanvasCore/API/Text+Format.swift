// `Text(_:style:)` for dates and `Text(_:format:)` for values with a Foundation format style, in US English
// (the locale SwiftUI's environment has on a US device). Dates are shown in UTC: a server has no user time
// zone, and the same date gives the same picture on every machine.
import Foundation

extension Text {
    /// How `Text(_:style:)` shows a date.
    public struct DateStyle: Hashable, Sendable {
        package enum Kind: Hashable, Sendable { case date, time }
        package let kind: Kind
        /// The date in the long style: "June 3, 2019".
        public static let date = DateStyle(kind: .date)
        /// The time without seconds: "11:23 AM".
        public static let time = DateStyle(kind: .time)
    }

    /// The locale and time zone dates and formats are shown in.
    package static let formatLocale = Locale(identifier: "en_US")
    package static let formatTimeZone = TimeZone(identifier: "UTC")!

    /// A date shown in `style`: `Text(date, style: .date)` → "June 3, 2019".
    public init(_ date: Date, style: DateStyle) {
        let f = DateFormatter()
        f.locale = Text.formatLocale
        f.timeZone = Text.formatTimeZone
        switch style.kind {
        case .date:
            f.dateStyle = .long
            f.timeStyle = .none
        case .time:
            f.dateStyle = .none
            f.timeStyle = .short
        }
        self.init(verbatim: f.string(from: date))
    }

    /// A value formatted by `format` in US English: `Text(0.25, format: .percent)` → "25%",
    /// `Text(1234.5, format: .number)` → "1,234.5".
    public init<F: FormatStyle>(_ input: F.FormatInput, format: F) where F.FormatInput: Equatable, F.FormatOutput == String {
        self.init(verbatim: format.locale(Text.formatLocale).format(input))
    }

    /// A date range shown as "start – end" in the long date style.
    public init(_ dates: ClosedRange<Date>) {
        let f = DateIntervalFormatter()
        f.locale = Text.formatLocale
        f.timeZone = Text.formatTimeZone
        f.dateStyle = .medium
        f.timeStyle = .none
        self.init(verbatim: f.string(from: dates.lowerBound, to: dates.upperBound))
    }
}
