// The Unicode algorithms the text engine runs on a paragraph's scalars, from ICU (libicuuc, Sources/CICU):
// UAX #14 line break opportunities (`lineBreakOpportunities`) and UAX #9 bidi levels and reordering
// (`BidiParagraph`). The engine and the conformance tests (UnicodeConformanceTests: the standard's
// LineBreakTest.txt and BidiCharacterTest.txt) call these same functions.
//
// ICU works on UTF-16; these functions take and answer in Unicode scalars (the engine's unit), converting
// offsets both ways. A value that is not a scalar (a surrogate code point, or above U+10FFFF) is read as
// U+FFFD, as a Swift String would have it.
import CICU

package enum UnicodeAlgorithms {
    /// The Unicode version of ICU's data ("15.0" for Debian 12's ICU 72).
    package static let unicodeVersion: String = {
        var buffer = [CChar](repeating: 0, count: 32)
        cicu_unicode_version(&buffer)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    /// UAX #14 by ICU's line rules (root locale): element i (0 ≤ i ≤ count) is whether a line may begin at scalar i.
    /// The ends count as opportunities (i = 0 and i = count are always true), hard breaks as well as soft.
    ///
    /// `lineBreakOpportunities(Array("ab cd".unicodeScalars.map(\.value)))` → [true, false, false, true, false, true]
    /// (a line may start at "c").
    package static func lineBreakOpportunities(_ scalars: [UInt32]) throws -> [Bool] {
        let text = UTF16Text(scalars)
        var flags = [UInt8](repeating: 0, count: text.units.count + 1)
        let status = text.units.withUnsafeBufferPointer { units in
            flags.withUnsafeMutableBufferPointer {
                cicu_line_breaks(units.baseAddress, Int32(units.count), $0.baseAddress)
            }
        }
        try check(status, "ubrk_open(UBRK_LINE)")
        return text.perScalar(flags, count: scalars.count + 1).map { $0 != 0 }
    }

    /// Throws for an ICU status > 0 (a failure; < 0 is a warning).
    package static func check(_ status: Int32, _ operation: String) throws {
        if status > 0 {
            throw TextError.unicode("\(operation): \(String(cString: cicu_error_name(status)))")
        }
    }
}

/// A paragraph's UAX #9 embedding levels, resolved by ICU's ubidi.
///
/// `BidiParagraph(scalars of "abc אבג", direction: .auto)` → paragraph level 0, levels [0, 0, 0, 0, 1, 1, 1];
/// `BidiParagraph.visualOrder(levels:)` of those → [0, 1, 2, 3, 6, 5, 4].
package struct BidiParagraph {
    package enum Direction: Equatable {
        /// The first strong character's direction, left-to-right when there is none (rules P2–P3).
        case auto
        case leftToRight
        case rightToLeft
    }

    /// 0 (left-to-right) or 1 (right-to-left).
    package let paragraphLevel: UInt8
    /// One per scalar, rules X1–I2 and L1 applied (trailing whitespace at the paragraph level). A character
    /// that rule X9 removes (embedding controls, BN) gets the level ICU gives it: its neighbour's.
    package let levels: [UInt8]

    package init(_ scalars: [UInt32], direction: Direction) throws {
        let requested: UInt8
        switch direction {
        case .auto: requested = cicu_bidi_default_ltr()
        case .leftToRight: requested = 0
        case .rightToLeft: requested = 1
        }
        guard !scalars.isEmpty else {
            paragraphLevel = direction == .rightToLeft ? 1 : 0
            levels = []
            return
        }
        let text = UTF16Text(scalars)
        var unitLevels = [UInt8](repeating: 0, count: text.units.count)
        var level: UInt8 = 0
        let status = text.units.withUnsafeBufferPointer { units in
            unitLevels.withUnsafeMutableBufferPointer {
                cicu_bidi_levels(units.baseAddress, Int32(units.count), requested, $0.baseAddress, &level)
            }
        }
        try UnicodeAlgorithms.check(status, "ubidi_setPara")
        paragraphLevel = level
        levels = text.perScalar(unitLevels, count: scalars.count)
    }

    /// Rule L2: the logical indices of `levels`' elements in visual order, left to right (the highest level's
    /// sequences reversed first, down to the lowest odd level).
    ///
    /// `visualOrder(levels: [0, 1, 1, 2, 2, 1, 0])` → [0, 5, 3, 4, 2, 1, 6].
    package static func visualOrder(levels: [UInt8]) -> [Int] {
        guard !levels.isEmpty else { return [] }
        var map = [Int32](repeating: 0, count: levels.count)
        levels.withUnsafeBufferPointer { l in
            map.withUnsafeMutableBufferPointer { cicu_bidi_reorder_visual(l.baseAddress, Int32(l.count), $0.baseAddress) }
        }
        return map.map(Int.init)
    }
}

/// Scalars as UTF-16 for ICU, with each scalar's unit offset (and the end's: `unitOffset[count]`); nil offsets
/// when every scalar is one unit (the common case: then unit i is scalar i).
private struct UTF16Text {
    var units: [UInt16] = []
    var unitOffset: [Int]?

    init(_ scalars: [UInt32]) {
        units.reserveCapacity(scalars.count)
        var offsets: [Int] = []
        for (i, value) in scalars.enumerated() {
            if value >= 0x10000 && value <= 0x10FFFF {
                if offsets.isEmpty { offsets = Array(0...i) } else { offsets.append(units.count) }
                let w = value - 0x10000
                units.append(UInt16(0xD800 + (w >> 10)))
                units.append(UInt16(0xDC00 + (w & 0x3FF)))
                continue
            }
            if !offsets.isEmpty { offsets.append(units.count) }
            units.append(value < 0xD800 || (value > 0xDFFF && value < 0x10000) ? UInt16(value) : 0xFFFD)
        }
        if !offsets.isEmpty {
            offsets.append(units.count)
            unitOffset = offsets
        }
    }

    /// `perUnit`'s values at each scalar's first unit (and, when `perUnit` has one more, at the end).
    func perScalar<T>(_ perUnit: [T], count: Int) -> [T] {
        guard let unitOffset else { return perUnit.count == count ? perUnit : Array(perUnit.prefix(count)) }
        return (0..<count).map { perUnit[unitOffset[$0]] }
    }
}
