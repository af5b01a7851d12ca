// `Image(systemName:)`: SF Symbols names drawn with a freely licensed icon font.
//
// Design note. SF Symbols are Apple's and cannot ship here. A system image is a glyph of Material Design Icons
// (Debian's fonts-materialdesignicons-webfont: the font under the SIL OFL 1.1, the icons under CC BY; credited in
// the README), chosen by the table below, which
// maps each supported SF Symbols name onto an MDI glyph name; the font is asked for the glyph by that name
// (its glyph-name table, through FreeType), so the table holds no codepoints. The glyph's outline (the text
// engine's `FontFace.outline`, FreeType, unhinted) is recorded as a filled path: a system image goes through
// the coverage, clipping, filters and compositing of any filled path, on both backends, and its shading is the
// fill. There is no second rasterizer and no pixel cache.
//
// Decisions (docs/api-status.md, "Image(systemName:)"; the name table is docs/system-images.md):
// - A system image is a template image: `context.resolve(Image(systemName: "house.fill"))` has shading
//   `.foreground`; setting `shading` (`.color(.red)`, a gradient) fills the glyph with it.
// - Size. MDI draws on a 24-unit grid (2 units of margin, baseline 3 units up from the bottom); the glyph's em is
//   drawn at 24/17 × the environment's font size, so at the default body size (17 pt) the grid is 24 pt and
//   a full-width icon is 20 pt wide, about an SF symbol's size at body. `ResolvedImage.size` is the image box
//   at that size (`SystemSymbol.layoutBox`: the grid's full width, the ink's height plus one grid unit above and
//   below; house.fill: 24 × 19.02 pt, SF Symbols' about 23.6 × 19.3), so icons drawn one width apart keep a
//   margin between them; `baseline` is the distance from the box's top down to the font's baseline.
//   `draw(_:at:anchor:)` places the box; `draw(_:in:)` stretches it to the rect.
// - `.fill` names map to filled glyphs where the set has them; names whose outline form the set lacks (house,
//   phone, camera, …) map to the filled glyph too (the table says which).
// - An unknown name, or a font that is not installed, gives an image that draws nothing, with `size` .zero
//   (SwiftUI draws nothing and logs); `SystemImages.isSupported(_:)` says beforehand whether a name draws.
//   The same on both backends: nothing is recorded.
// - A symbol has no pixels: used as `tiledImage` or written into a scene file as pixels, it is an error naming
//   the symbol ("system image \"house.fill\" has no pixels: it is drawn as a glyph outline").
import Foundation

/// The supported SF Symbols names and where their glyphs come from.
public enum SystemImages {
    /// The icon font: Material Design Icons, from Debian's fonts-materialdesignicons-webfont.
    public static let fontPath = "/usr/share/fonts/truetype/materialdesignicons-webfont/materialdesignicons-webfont.ttf"

    /// SF Symbols name → Material Design Icons glyph name. docs/system-images.md lists the same table.
    package static let glyphNames: [String: String] = [
        "house": "home",
        "house.fill": "home",
        "circle": "checkbox-blank-circle-outline",
        "circle.fill": "checkbox-blank-circle",
        "square": "checkbox-blank-outline",
        "square.fill": "checkbox-blank",
        "triangle": "triangle-outline",
        "triangle.fill": "triangle",
        "star": "star-outline",
        "star.fill": "star",
        "star.leadinghalf.filled": "star-half",
        "heart": "heart-outline",
        "heart.fill": "heart",
        "gear": "settings",
        "gearshape": "settings",
        "gearshape.fill": "settings",
        "trash": "delete",
        "trash.fill": "delete",
        "person": "account-outline",
        "person.fill": "account",
        "person.circle": "account-circle",
        "person.circle.fill": "account-circle",
        "person.2": "account-multiple-outline",
        "person.2.fill": "account-multiple",
        "checkmark": "check",
        "checkmark.circle": "check-circle-outline",
        "checkmark.circle.fill": "check-circle",
        "xmark": "close",
        "xmark.circle": "close-circle-outline",
        "xmark.circle.fill": "close-circle",
        "plus": "plus",
        "plus.circle": "plus-circle-outline",
        "plus.circle.fill": "plus-circle",
        "minus": "minus",
        "minus.circle": "minus-circle-outline",
        "minus.circle.fill": "minus-circle",
        "magnifyingglass": "magnify",
        "bell": "bell-outline",
        "bell.fill": "bell",
        "bell.slash": "bell-off",
        "envelope": "email-outline",
        "envelope.fill": "email",
        "envelope.open": "email-open-outline",
        "envelope.open.fill": "email-open",
        "phone": "phone",
        "phone.fill": "phone",
        "camera": "camera",
        "camera.fill": "camera",
        "photo": "image",
        "photo.fill": "image",
        "folder": "folder-outline",
        "folder.fill": "folder",
        "doc": "file-outline",
        "doc.fill": "file",
        "doc.text": "file-document",
        "doc.text.fill": "file-document",
        "note.text": "note-text",
        "calendar": "calendar",
        "clock": "clock",
        "clock.fill": "clock",
        "alarm": "alarm",
        "timer": "timer",
        "lock": "lock-outline",
        "lock.fill": "lock",
        "lock.open": "lock-open-outline",
        "lock.open.fill": "lock-open",
        "key": "key",
        "cloud": "cloud-outline",
        "cloud.fill": "cloud",
        "sun.max": "weather-sunny",
        "sun.max.fill": "white-balance-sunny",
        "moon": "weather-night",
        "moon.fill": "weather-night",
        "bolt": "flash",
        "bolt.fill": "flash",
        "play": "play",
        "play.fill": "play",
        "play.circle": "play-circle-outline",
        "play.circle.fill": "play-circle",
        "pause": "pause",
        "pause.fill": "pause",
        "pause.circle": "pause-circle-outline",
        "pause.circle.fill": "pause-circle",
        "stop": "stop",
        "stop.fill": "stop",
        "stop.circle": "stop-circle-outline",
        "stop.circle.fill": "stop-circle",
        "arrow.up": "arrow-up",
        "arrow.down": "arrow-down",
        "arrow.left": "arrow-left",
        "arrow.right": "arrow-right",
        "arrow.clockwise": "refresh",
        "chevron.up": "chevron-up",
        "chevron.down": "chevron-down",
        "chevron.left": "chevron-left",
        "chevron.right": "chevron-right",
        "info.circle": "information-outline",
        "info.circle.fill": "information",
        "exclamationmark.triangle": "alert-outline",
        "exclamationmark.triangle.fill": "alert",
        "exclamationmark.circle": "alert-circle-outline",
        "exclamationmark.circle.fill": "alert-circle",
        "questionmark.circle": "help-circle-outline",
        "questionmark.circle.fill": "help-circle",
        "cart": "cart-outline",
        "cart.fill": "cart",
        "map": "map",
        "map.fill": "map",
        "mappin": "map-marker",
        "mappin.circle": "map-marker-circle",
        "location": "navigation",
        "location.fill": "navigation",
        "paperplane": "send",
        "paperplane.fill": "send",
        "bookmark": "bookmark-outline",
        "bookmark.fill": "bookmark",
        "flag": "flag-outline",
        "flag.fill": "flag",
        "tag": "tag-outline",
        "tag.fill": "tag",
        "pencil": "pencil",
        "square.and.arrow.up": "export",
        "square.and.arrow.down": "download",
        "square.and.pencil": "pencil-box-outline",
        "ellipsis": "dots-horizontal",
        "line.3.horizontal": "menu",
        "line.horizontal.3": "menu",
        "wifi": "wifi",
        "wifi.slash": "wifi-off",
        "battery.100": "battery",
        "battery.75": "battery-70",
        "battery.50": "battery-50",
        "battery.25": "battery-20",
        "battery.0": "battery-outline",
        "eye": "eye",
        "eye.fill": "eye",
        "eye.slash": "eye-off",
        "square.grid.2x2": "view-grid",
        "list.bullet": "view-list",
        "link": "link",
        "globe": "earth",
        "music.note": "music-note",
        "video": "video",
        "video.fill": "video",
        "mic": "microphone",
        "mic.fill": "microphone",
        "speaker.wave.3": "volume-high",
        "speaker.slash": "volume-off",
        "printer": "printer",
        "gift": "gift",
        "car": "car",
        "airplane": "airplane",
        "bubble.left": "message-outline",
        "bubble.left.fill": "message",
        "hand.thumbsup.fill": "thumb-up",
        "slider.horizontal.3": "tune",
        "power": "power",
        "scope": "crosshairs",
        "safari": "compass",
        "target": "target",
        // Added for issue #30: the symbols most used in apps (cards, charts, lists, media, weather, devices).
        "arrow.up.right": "arrow-top-right",
        "arrow.down.left": "arrow-bottom-left",
        "arrow.counterclockwise": "rotate-left",
        "arrow.left.arrow.right": "swap-horizontal",
        "arrow.up.arrow.down": "swap-vertical",
        "chevron.up.chevron.down": "unfold-more",
        "person.3": "account-multiple",
        "person.badge.plus": "account-plus",
        "person.crop.circle": "account-circle",
        "person.crop.circle.fill": "account-circle",
        "person.crop.square": "account-box",
        "bag": "shopping",
        "bag.fill": "shopping",
        "creditcard": "credit-card",
        "creditcard.fill": "credit-card",
        "dollarsign.circle": "currency-usd",
        "eurosign.circle": "currency-eur",
        "chart.bar": "chart-bar",
        "chart.bar.fill": "chart-bar",
        "chart.pie": "chart-pie",
        "chart.pie.fill": "chart-pie",
        "chart.line.uptrend.xyaxis": "chart-line",
        "cloud.rain": "weather-rainy",
        "cloud.snow": "weather-snowy",
        "cloud.bolt": "weather-lightning",
        "cloud.sun": "weather-partlycloudy",
        "cloud.fog": "weather-fog",
        "wind": "weather-windy",
        "moon.stars": "weather-night",
        "sunrise": "weather-sunset-up",
        "sunset": "weather-sunset-down",
        "umbrella": "umbrella",
        "thermometer": "thermometer",
        "drop": "water",
        "drop.fill": "water",
        "flame": "fire",
        "flame.fill": "fire",
        "leaf": "leaf",
        "leaf.fill": "leaf",
        "building.2": "domain",
        "briefcase": "briefcase",
        "briefcase.fill": "briefcase",
        "book": "book",
        "book.fill": "book",
        "books.vertical": "library-books",
        "graduationcap": "school",
        "cup.and.saucer": "coffee",
        "cart.badge.plus": "cart-plus",
        "hand.thumbsup": "thumb-up-outline",
        "hand.thumbsdown": "thumb-down-outline",
        "hand.thumbsdown.fill": "thumb-down",
        "bubble.left.and.bubble.right": "forum",
        "message": "message",
        "message.fill": "message",
        "doc.on.doc": "content-copy",
        "doc.on.clipboard": "clipboard",
        "clipboard": "clipboard",
        "paperclip": "paperclip",
        "scissors": "content-cut",
        "archivebox": "archive",
        "archivebox.fill": "archive",
        "tray": "inbox",
        "tray.fill": "inbox",
        "externaldrive": "harddisk",
        "server.rack": "server",
        "desktopcomputer": "desktop-mac",
        "laptopcomputer": "laptop",
        "iphone": "cellphone",
        "ipad": "tablet",
        "applewatch": "watch",
        "tv": "television",
        "gamecontroller": "gamepad-variant",
        "headphones": "headphones",
        "keyboard": "keyboard",
        "printer.fill": "printer",
        "qrcode": "qrcode",
        "barcode": "barcode",
        "qrcode.viewfinder": "qrcode-scan",
        "lightbulb": "lightbulb-outline",
        "lightbulb.fill": "lightbulb",
        "battery.100.bolt": "battery-charging",
        "shield": "shield-outline",
        "shield.fill": "shield",
        "hourglass": "timer-sand",
        "stopwatch": "timer",
        "calendar.badge.plus": "calendar-plus",
        "arrow.up.circle": "arrow-up-bold-circle-outline",
        "arrow.down.circle": "arrow-down-bold-circle-outline",
        "arrow.up.circle.fill": "arrow-up-bold-circle",
        "arrow.down.circle.fill": "arrow-down-bold-circle",
        "arrow.right.circle": "arrow-right-bold-circle-outline",
        "arrow.left.circle": "arrow-left-bold-circle-outline",
        "arrow.right.circle.fill": "arrow-right-bold-circle",
        "arrow.left.circle.fill": "arrow-left-bold-circle",
        "icloud.and.arrow.down": "cloud-download",
        "icloud.and.arrow.up": "cloud-upload",
        "repeat": "repeat",
        "shuffle": "shuffle",
        "forward.fill": "fast-forward",
        "backward.fill": "rewind",
        "forward.end.fill": "skip-next",
        "backward.end.fill": "skip-previous",
        "speaker.wave.2": "volume-medium",
        "speaker.wave.1": "volume-low",
        "film": "filmstrip",
        "photo.on.rectangle": "image-multiple",
        "bell.badge": "bell-ring",
        "at": "at",
        "number": "pound",
        "percent": "percent",
        "plus.square": "plus-box",
        "minus.square": "minus-box",
        "xmark.square": "close-box",
        "checkmark.square": "checkbox-marked",
        "checkmark.square.fill": "checkbox-marked",
        "list.dash": "format-list-bulleted",
        "list.number": "format-list-numbers",
        "text.alignleft": "format-align-left",
        "text.aligncenter": "format-align-center",
        "text.alignright": "format-align-right",
        "bold": "format-bold",
        "italic": "format-italic",
        "underline": "format-underline",
        "strikethrough": "format-strikethrough",
        "textformat": "format-text",
        "paintbrush": "brush",
        "paintpalette": "palette",
        "eyedropper": "eyedropper",
        "crop": "crop",
        "wand.and.stars": "auto-fix",
        "ruler": "ruler",
        "wrench": "wrench",
        "wrench.and.screwdriver": "wrench",
        "cpu": "chip",
        "memorychip": "memory",
        "antenna.radiowaves.left.and.right": "access-point",
        "network": "lan",
        "figure.walk": "walk",
        "bicycle": "bike",
        "bus": "bus",
        "tram": "tram",
        "ferry": "ferry",
        "fuelpump": "gas-station",
        "pawprint": "paw",
        "ant": "bug",
        "ladybug": "bug",
        "globe.americas": "earth",
        "location.north": "navigation",
        "flag.checkered": "flag-checkered",
        "trophy": "trophy",
        "trophy.fill": "trophy",
        "crown": "crown",
        "gift.fill": "gift",
        "birthday.cake": "cake-variant",
        "ticket": "ticket",
        "touchid": "fingerprint",
        "phone.arrow.up.right": "phone-outgoing",
        "phone.down": "phone-hangup",
        "video.slash": "video-off",
        "mic.slash": "microphone-off",
        "bell.slash.fill": "bell-off",
        "questionmark": "help",
        "exclamationmark": "exclamation",
        "info": "information-variant",
        "xmark.octagon": "close-octagon",
        "nosign": "block-helper",
        "square.stack": "layers",
        "square.stack.3d.up": "layers",
        "rectangle.stack": "layers",
        "arrow.triangle.2.circlepath": "sync",
        "arrow.uturn.left": "undo",
        "arrow.uturn.right": "redo",
        "arrowshape.turn.up.left": "reply",
        "arrowshape.turn.up.right": "share",
        "arrow.up.left.and.arrow.down.right": "arrow-expand",
        "plus.magnifyingglass": "magnify-plus",
        "minus.magnifyingglass": "magnify-minus",
        "line.3.horizontal.decrease": "filter-variant",
        "line.3.horizontal.decrease.circle": "filter",
        "gauge": "gauge",
        "speedometer": "speedometer",
        "waveform": "pulse",
        "pills": "pill",
        "eyeglasses": "glasses",
        "tshirt": "tshirt-crew",
        "star.circle": "star-circle",
    ]

    /// Every SF Symbols name in the table, sorted.
    public static var supportedNames: [String] { glyphNames.keys.sorted() }

    /// True when `Image(systemName: name)` draws something: the name is in the table and the icon font has
    /// its glyph.
    public static func isSupported(_ name: String) -> Bool { symbol(named: name) != nil }

    /// The MDI glyph name `name` maps to, nil for a name not in the table.
    public static func glyphName(for name: String) -> String? { glyphNames[name] }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var symbols: [String: SystemSymbol?] = [:]

    /// The symbol for `name`, looked up once per name; nil for an unknown name or a missing font or glyph.
    package static func symbol(named name: String) -> SystemSymbol? {
        lock.lock()
        if let known = symbols[name] { lock.unlock(); return known }
        lock.unlock()
        var found: SystemSymbol?
        if let glyphName = glyphNames[name],
           let face = try? TextEngine.shared.loadFace(path: fontPath),
           let glyph = face.glyph(named: glyphName) {
            let outline = face.outline(glyph: glyph)
            let ink = outline.boundingRect
            if !ink.isNull, ink.width > 0, ink.height > 0 {
                found = SystemSymbol(name: name, glyphName: glyphName, outline: outline, inkBounds: ink,
                                     bounds: SystemSymbol.layoutBox(ink: ink, unitsPerEm: CGFloat(face.unitsPerEm)),
                                     unitsPerEm: CGFloat(face.unitsPerEm))
            }
        }
        lock.lock()
        symbols[name] = .some(found)
        lock.unlock()
        return found
    }

    /// The glyph's em, in points, for a font of `pointSize`: MDI's 24-unit grid at 24 pt for 17 pt body text.
    package static func emSize(forFontSize pointSize: CGFloat) -> CGFloat { pointSize * 24 / 17 }
}

/// A system image's glyph: its outline in font units (y up), the outline's ink box, and the image's box.
package struct SystemSymbol: Sendable, Equatable {
    package var name: String
    package var glyphName: String
    package var outline: Path
    package var inkBounds: CGRect
    /// The image's box in font units (`layoutBox`): what `size` measures and `draw(_:in:)` stretches.
    package var bounds: CGRect
    package var unitsPerEm: CGFloat

    /// The image's box around `ink`, as an SF symbol's image box holds its ink with a margin: across, the icon
    /// grid's full width (MDI's 24 units, its 2-unit margins included, or the ink where it is wider); up and
    /// down, the ink and one grid unit each side. house.fill at body size: 24 × 19.02 pt (SF Symbols' is about
    /// 23.6 × 19.3). The margins keep icons drawn one `size.width` apart from touching, as the seeds' three
    /// houses are.
    package static func layoutBox(ink: CGRect, unitsPerEm em: CGFloat) -> CGRect {
        let unit = em / 24
        let x0 = min(0, ink.minX), x1 = max(em, ink.maxX)
        return CGRect(x: x0, y: ink.minY - unit, width: x1 - x0, height: ink.height + 2 * unit)
    }

    /// Where the ink lands when the image box is stretched over `rect` (y down).
    package func inkRect(in rect: CGRect) -> CGRect {
        let sx = rect.width / bounds.width, sy = rect.height / bounds.height
        return CGRect(x: rect.minX + (inkBounds.minX - bounds.minX) * sx, y: rect.minY + (bounds.maxY - inkBounds.maxY) * sy,
                      width: inkBounds.width * sx, height: inkBounds.height * sy)
    }

    /// The outline mapped so that its image box fills `rect` (y flipped: the font's y is up).
    package func path(in rect: CGRect) -> Path {
        let sx = rect.width / bounds.width, sy = rect.height / bounds.height
        let t = CGAffineTransform(a: sx, b: 0, c: 0, d: -sy,
                                  tx: rect.minX - bounds.minX * sx, ty: rect.minY + bounds.maxY * sy)
        return outline.applying(t)
    }
}

/// Why a system image has no pixels (for the uses that need pixels: `tiledImage`, scene image data).
package struct SystemImageError: Error, CustomStringConvertible {
    package var name: String
    package var description: String { "system image \"\(name)\" has no pixels: it is drawn as a glyph outline" }
}

extension Image {
    /// An SF Symbols name, drawn with the icon font's glyph (see the note at the top of the file). An unknown
    /// name draws nothing; `SystemImages.isSupported(_:)` tells.
    public init(systemName name: String) {
        self.init(content: ImageContent(.failure(SystemImageError(name: name)), source: "system image \"\(name)\"",
                                        systemName: name),
                  scale: 1)
        renderingMode = .template
    }

    /// The glyph of a system image (nil for other images and for unknown names).
    package var symbol: SystemSymbol? { content.systemName.flatMap { SystemImages.symbol(named: $0) } }
}
