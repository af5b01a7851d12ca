// What this process has loaded of the resources a first frame may need outside GL, counted where each is
// loaded: every one is loaded once, on the first frame that needs it (docs/performance.md, "#31 start-up
// resources"). `canvas-gl render --timings` prints the counts; tests read them around a render.
import Foundation

package enum ResourceLoads {
    package struct Counts: Sendable, Equatable {
        /// fontconfig's configuration and font caches (FcInit): 0 or 1.
        package var fontconfigLoads = 0
        /// Fallback lists sorted (FcFontSort), one per font request whose primary face lacked a character.
        package var fontSorts = 0
        /// Font files opened (FreeType and HarfBuzz faces), the icon font of system images included.
        package var facesOpened = 0
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var counts = Counts()

    /// The counts so far in this process.
    package static var current: Counts { lock.withLock { counts } }

    package static func note(_ field: WritableKeyPath<Counts, Int>) {
        lock.withLock { counts[keyPath: field] += 1 }
    }
}
