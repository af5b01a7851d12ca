// The inline Markdown of `Text` string literals: SwiftUI parses a `LocalizedStringKey` (a literal or an
// interpolation, not a `String` value) as inline Markdown, so `Text("**bold** and *italic*")` shows "bold"
// in bold and "italic" in italics. The parser is cmark, the CommonMark reference library (libcmark-dev).
//
// Styles, as SwiftUI's: strong → bold, emphasis → italic, code → monospaced, a link → its text in the accent
// colour (blue). Text with none of the inline markup characters is taken as it is (no parse). Deviations:
// cmark is CommonMark without GitHub's extensions, so `~~strike~~` stays as written; a line starting with
// block syntax (`# `, `- `, `1. `, `> `) in a literal that also holds inline markup loses its marker.
import CMark

extension Text {
    /// The runs of `markdown`'s inline Markdown: one run per stretch of text with one set of styles.
    ///
    /// `Text.markdownRuns("a **b**")` → runs "a " (regular) and "b" (bold).
    package static func markdownRuns(_ markdown: String) -> [Run] {
        guard markdown.contains(where: { Self.markdownTriggers.contains($0) }) else { return [Run(string: markdown)] }
        let bytes = Array(markdown.utf8)
        guard let document = bytes.withUnsafeBufferPointer({ buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    cmark_parse_document($0, bytes.count, CMARK_OPT_DEFAULT)
                }
            } ?? nil
        }) else { return [Run(string: markdown)] }
        defer { cmark_node_free(document) }

        var runs: [Run] = []
        var bold = 0, italic = 0, code = false, link = 0
        var blocks = 0
        func append(_ string: String) {
            var run = Run(string: string)
            if bold > 0 { run.weight = .bold }
            if italic > 0 { run.italic = true }
            if code { run.monospaced = true }
            if link > 0 { run.foreground = .color(Self.linkColor) }
            if let last = runs.last, last.sameStyle(as: run) {
                runs[runs.count - 1].string += string
            } else {
                runs.append(run)
            }
        }
        guard let iterator = cmark_iter_new(document) else { return [Run(string: markdown)] }
        defer { cmark_iter_free(iterator) }
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let entering = event == CMARK_EVENT_ENTER
            let literal = { cmark_node_get_literal(node).map { String(cString: $0) } ?? "" }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_HTML_INLINE: append(literal())
            case CMARK_NODE_CODE:
                code = true
                append(literal())
                code = false
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: append("\n")
            case CMARK_NODE_STRONG: bold += entering ? 1 : -1
            case CMARK_NODE_EMPH: italic += entering ? 1 : -1
            case CMARK_NODE_LINK: link += entering ? 1 : -1
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING, CMARK_NODE_CODE_BLOCK:
                // Blocks after the first start on a new line; a code block keeps its text.
                if entering {
                    if blocks > 0 { append("\n") }
                    blocks += 1
                    if cmark_node_get_type(node) == CMARK_NODE_CODE_BLOCK {
                        code = true
                        append(literal().hasSuffix("\n") ? String(literal().dropLast()) : literal())
                        code = false
                    }
                }
            default: break
            }
        }
        // CommonMark trims a paragraph's leading and trailing spaces; SwiftUI keeps them.
        let leading = String(markdown.prefix(while: { $0 == " " || $0 == "\t" }))
        let trailing = String(markdown.reversed().prefix(while: { $0 == " " || $0 == "\t" }).reversed())
        if !leading.isEmpty, !runs.isEmpty { runs[0].string = leading + runs[0].string }
        if !trailing.isEmpty, !runs.isEmpty { runs[runs.count - 1].string += trailing }
        return runs.isEmpty ? [Run(string: "")] : runs
    }

    /// Characters without which a string has no inline Markdown.
    package static let markdownTriggers: Set<Character> = ["*", "_", "`", "[", "\\", "<", "&"]

    /// SwiftUI's default accent colour, which links are drawn in.
    package static let linkColor = Color.blue
}

extension Text.Run {
    /// Same attributes (not the same string): adjacent runs like this merge.
    package func sameStyle(as other: Text.Run) -> Bool {
        var a = self, b = other
        a.string = ""
        b.string = ""
        return a == b
    }
}
