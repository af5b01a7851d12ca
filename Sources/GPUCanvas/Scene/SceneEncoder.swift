// Recording → scene document, so any recording (a failing test's, a user's) can be replayed with one command.
//
// The layer tree is written as scopes. A run of consecutive items that share a clip goes into one `copy` scope
// that adds the clip (`transform` then `clip`, or `clipToLayer` with the mask's commands); each draw with a
// transform other than the one in force, or an opacity or blend mode, goes into a `copy` scope that sets them
// and then makes one `fill` or `stroke` with an `elements` path; a `drawLayer` becomes a `layer` command (in a
// scope when it has an opacity or blend mode), whose content starts with the transform in force, as the
// closure's did. Writing each clip once for the run it clips is what keeps a `clipToLayer` mask's draws, and
// the draws after it, at their numbers on load.
//
// Solid paints are resolved colours in the working space, so they are written un-premultiplied in the space
// that working space is: `sRGB` for `nonLinear`, `sRGBLinear` for `linear` and `extendedLinear`. Loading such a
// colour multiplies it back in Double and rounds to Float once, which restores the recorded Float exactly
// (the quotient carries 53 bits, the Float 24), so record → encode → load gives an equal recording. The
// components are written with Float precision (`0.23137255`) when that is checked to load back to the same
// colour, else as the full Double quotient. Gradients keep their `Color`s: a named colour is written by its
// name, any other in its own space with its own components. Angles are written in degrees, spelled so that
// `.degrees(d)` gives back the recorded radians.
//
// Images become `resources.images` entries (`image0`, … one per distinct `Image`, as `pngBase64`, whose
// decoding gives back the recorded premultiplied pixels exactly); a `draw(_:in:)` or `draw(_:at:)` becomes an
// `image` op with the rect read back from the recorded path and mapping, a `tiledImage` paint the
// `tiledImage` shading whose origin, unit source rect and scale are solved to give back the recorded mapping
// exactly. Both are checked by recording them again through the API before they are written.
//
// Numbers are written in Swift's shortest round-trip form, integers without a fraction. JSON cannot hold NaN
// or infinities: a recording that contains them (a closure that drew with NaN coordinates) has them written as
// `null`, and loading that document fails with an error naming the spot.

extension Recording {
    /// The scene document (`gpucanvas-scene/1`) that replays this recording at `scale`.
    ///
    /// ```swift
    /// let rec = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
    ///     ctx.fill(Path(CGRect(x: 0, y: 0, width: 5, height: 5)), with: .color(.red))
    /// }
    /// rec.sceneJSON(scale: 2)
    /// // {"format": "gpucanvas-scene/1", "size": [10, 10], "scale": 2, …, "commands": [
    /// //   {"op": "fill", "path": {"elements": [["m", 0, 0], …, ["z"]]}, "shading": {"color": {"space": "sRGB", "rgba": [1, 0.23137255, 0.1882353, 1]}}}
    /// // ]}
    /// ```
    public func sceneJSON(scale: CGFloat = 1) -> String {
        var out = "{\n"
        out += "  \"format\": \"gpucanvas-scene/1\",\n"
        out += "  \"size\": [\(jsonNumber(size.width)), \(jsonNumber(size.height))],\n"
        out += "  \"scale\": \(jsonNumber(scale)),\n"
        out += "  \"colorMode\": \"\(colorModeName(colorMode))\",\n"
        out += "  \"opaque\": \(isOpaque),\n"
        let images = SceneImages()
        let items = encode(root.items[...], depth: 0, current: .identity, mode: colorMode, images: images)
        if !images.entries.isEmpty {
            out += "  \"resources\": {\"images\": {\n"
            out += images.entries.enumerated().map { "    \"image\($0.offset)\": \($0.element.json)" }.joined(separator: ",\n")
            out += "\n  }},\n"
        }
        out += "  \"commands\": ["
        out += items.isEmpty ? "]\n}\n" : "\n    " + items.joined(separator: ",\n    ") + "\n  ]\n}\n"
        return out
    }
}

private func colorModeName(_ m: ColorRenderingMode) -> String {
    switch m {
    case .nonLinear: return "nonLinear"
    case .linear: return "linear"
    case .extendedLinear: return "extendedLinear"
    }
}

/// The commands that record `items` again, run on a context whose transform is `current` and which already
/// holds the first `depth` clips of every item's clip stack.
///
/// Consecutive items that share a clip share one `copy` scope that adds it, so a clip or a `clipToLayer` mask
/// that clips several draws is written, and recorded on load, once: a mask's draws keep their numbers, and the
/// draws after it theirs.
private func encode(_ items: ArraySlice<RecordedItem>, depth: Int, current: CGAffineTransform,
                    mode: ColorRenderingMode, images: SceneImages) -> [String] {
    var out: [String] = []
    var i = items.startIndex
    while i < items.endIndex {
        // A text draw call with several fills records one draw per fill; its first part writes the call.
        if case .draw(let d) = items[i], case .text(let t) = d.geometry, t.part > 0 { i += 1; continue }
        let clips = items[i].state.clips
        guard clips.count > depth else {
            out.append(encode(items[i], current: current, mode: mode, images: images))
            i += 1
            continue
        }
        let clip = clips[depth]
        var j = i + 1
        while j < items.endIndex, items[j].state.clips.count > depth, items[j].state.clips[depth] == clip { j += 1 }
        var ops: [String] = []
        var inner = current
        switch clip {
        case .path(let path, let t, let style, let inverse):
            if t != inner { ops.append(transformOp(t)); inner = t }
            var c = "{\"op\": \"clip\", \"path\": \(encode(path))"
            if style.isEOFilled { c += ", \"eoFill\": true" }
            if !style.isAntialiased { c += ", \"antialiased\": false" }
            if inverse { c += ", \"inverse\": true" }
            ops.append(c + "}")
        case .mask(let layer, let opacity, let inverse):
            // The mask's context starts with the transform in force and no clip.
            var c = "{\"op\": \"clipToLayer\""
            if opacity != 1 { c += ", \"opacity\": \(jsonNumber(opacity))" }
            if inverse { c += ", \"inverse\": true" }
            let content = encode(layer.items[...], depth: 0, current: inner, mode: mode, images: images)
            ops.append(c + ", \"commands\": [" + content.joined(separator: ", ") + "]}")
        }
        ops += encode(items[i ..< j], depth: depth + 1, current: inner, mode: mode, images: images)
        out.append("{\"op\": \"copy\", \"commands\": [" + ops.joined(separator: ", ") + "]}")
        i = j
    }
    return out
}

/// One item whose clips are already in force: a draw, or a `layer` whose content starts with the transform
/// in force (as `drawLayer`'s does).
private func encode(_ item: RecordedItem, current: CGAffineTransform, mode: ColorRenderingMode,
                    images: SceneImages) -> String {
    switch item {
    case .draw(let d):
        return scoped(encode(d, mode: mode, images: images), transform: d.transform, state: d.state, current: current)
    case .layer(let l):
        let content = encode(l.content.items[...], depth: 0, current: current, mode: mode, images: images)
        let layer = "{\"op\": \"layer\", \"commands\": [" + content.joined(separator: ", ") + "]}"
        return scoped(layer, transform: current, state: l.state, current: current)
    }
}

/// `command` inside a `copy` scope that sets `transform` (when it is not `current`), the opacity and the blend
/// mode; the command alone when there is nothing to set.
private func scoped(_ command: String, transform: CGAffineTransform, state: DrawState,
                    current: CGAffineTransform) -> String {
    var ops: [String] = []
    // Filters in the order they were added, each under the transform in force when it was (their sizes live
    // in that user space).
    var t = current
    for f in state.filters {
        if f.transform != t { ops.append(transformOp(f.transform)); t = f.transform }
        ops.append(filterOp(f))
    }
    if transform != t { ops.append(transformOp(transform)) }
    if state.opacity != 1 { ops.append("{\"op\": \"opacity\", \"value\": \(jsonNumber(state.opacity))}") }
    if state.blendMode != .normal {
        // `description` is ".name" for the 28 named modes.
        let name = String(state.blendMode.description.dropFirst())
        ops.append("{\"op\": \"blendMode\", \"value\": \(jsonQuoted(name))}")
    }
    if ops.isEmpty { return command }
    return "{\"op\": \"copy\", \"commands\": [" + (ops + [command]).joined(separator: ", ") + "]}"
}

private extension RecordedItem {
    var state: DrawState {
        switch self {
        case .draw(let d): return d.state
        case .layer(let l): return l.state
        }
    }
}

/// `{"op": "filter", "filter": {...}}`, with `"linearColor": true` when the option is set.
private func filterOp(_ f: RecordedFilter) -> String {
    let body: String
    switch f.filter.kind {
    case .colorMatrix(let m, let premultiplied):
        let numbers = m.entries.map { jsonNumber(Double($0)) }.joined(separator: ", ")
        body = premultiplied ? "{\"colorMatrix\": {\"matrix\": [\(numbers)], \"premultiplied\": true}}" : "{\"colorMatrix\": [\(numbers)]}"
    case .colorMultiply(let c): body = "{\"colorMultiply\": \(encode(c))}"
    case .alphaMultiply(let c): body = "{\"alphaMultiply\": \(encode(c))}"
    case .hueRotation(let a): body = "{\"hueRotation\": \(degrees(a.radians))}"
    case .saturation(let v): body = "{\"saturation\": \(jsonNumber(v))}"
    case .brightness(let v): body = "{\"brightness\": \(jsonNumber(v))}"
    case .contrast(let v): body = "{\"contrast\": \(jsonNumber(v))}"
    case .colorInvert(let v): body = "{\"colorInvert\": \(jsonNumber(v))}"
    case .grayscale(let v): body = "{\"grayscale\": \(jsonNumber(v))}"
    case .luminanceToAlpha: body = "{\"luminanceToAlpha\": true}"
    case .alphaThreshold(let lo, let hi, let c):
        body = "{\"alphaThreshold\": {\"min\": \(jsonNumber(lo)), \"max\": \(jsonNumber(hi)), \"color\": \(encode(c))}}"
    case .blur(let r, let o):
        var names: [String] = []
        if o.contains(.opaque) { names.append("\"opaque\"") }
        if o.contains(.dithersResult) { names.append("\"dithersResult\"") }
        body = "{\"blur\": {\"radius\": \(jsonNumber(r))" + (names.isEmpty ? "" : ", \"options\": [\(names.joined(separator: ", "))]") + "}}"
    case .shadow(let c, let r, let x, let y, let mode, let o):
        var names: [String] = []
        for (option, name) in [(GraphicsContext.ShadowOptions.shadowAbove, "shadowAbove"), (.shadowOnly, "shadowOnly"),
                               (.invertsAlpha, "invertsAlpha"), (.disablesGroup, "disablesGroup")] where o.contains(option) {
            names.append("\"\(name)\"")
        }
        var s = "{\"shadow\": {\"color\": \(encode(c)), \"radius\": \(jsonNumber(r)), \"x\": \(jsonNumber(x)), \"y\": \(jsonNumber(y))"
        if mode != .normal { s += ", \"blendMode\": \(jsonQuoted(String(mode.description.dropFirst())))" }
        if !names.isEmpty { s += ", \"options\": [\(names.joined(separator: ", "))]" }
        body = s + "}}"
    case .projectionTransform(let m):
        body = "{\"projectionTransform\": [" + [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33]
            .map(jsonNumber).joined(separator: ", ") + "]}"
    }
    return "{\"op\": \"filter\", \"filter\": \(body)" + (f.options.contains(.linearColor) ? ", \"linearColor\": true}" : "}")
}

private func transformOp(_ t: CGAffineTransform) -> String {
    "{\"op\": \"transform\", \"value\": [" + [t.a, t.b, t.c, t.d, t.tx, t.ty].map(jsonNumber).joined(separator: ", ") + "]}"
}

private func encode(_ d: DrawCommand, mode: ColorRenderingMode, images: SceneImages) -> String {
    var draw: String
    switch d.geometry {
    case .fill(let path, let style):
        if case .image(let paint) = d.paint, !paint.tiled,
           let op = imageOp(paint, path: path, style: style, mode: mode, images: images) {
            return op
        }
        draw = "{\"op\": \"fill\", \"path\": \(encode(path)), \"shading\": \(encode(d.paint, mode: mode, images: images))"
        if style.isEOFilled { draw += ", \"eoFill\": true" }
        if !style.isAntialiased { draw += ", \"antialiased\": false" }
    case .stroke(let path, let style):
        draw = "{\"op\": \"stroke\", \"path\": \(encode(path)), \"shading\": \(encode(d.paint, mode: mode, images: images))"
        draw += ", \"lineWidth\": \(jsonNumber(style.lineWidth))"
        if style.lineCap != .butt { draw += ", \"lineCap\": \"\(style.lineCap)\"" }
        if style.lineJoin != .miter { draw += ", \"lineJoin\": \"\(style.lineJoin)\"" }
        if style.miterLimit != 10 { draw += ", \"miterLimit\": \(jsonNumber(style.miterLimit))" }
        if !style.dash.isEmpty {
            draw += ", \"dash\": [" + style.dash.map(jsonNumber).joined(separator: ", ") + "]"
        }
        if style.dashPhase != 0 { draw += ", \"dashPhase\": \(jsonNumber(style.dashPhase))" }
    case .text(let t):
        // Part of a `Text.Layout`, moved by a renderer: no text op says that, the glyphs' outlines do.
        if t.isLayoutPart {
            var outlines = d
            outlines.geometry = .fill(t.outlines, FillStyle())
            return encode(outlines, mode: mode, images: images)
        }
        return textOp(t.call, mode: mode, images: images)
    }
    return draw + "}"
}

/// A text draw call: `{"op": "text", "text": "Hi" | [span…], "shading": …, "at": [x, y], "anchor": [ux, uy]}`.
private func textOp(_ call: TextCall, mode: ColorRenderingMode, images: SceneImages) -> String {
    let runs = call.text.runs
    var op = "{\"op\": \"text\", \"text\": "
    if runs.count == 1, let spanKeys = Optional(spanAttributes(runs[0], mode: mode, images: images)), spanKeys.isEmpty {
        op += jsonQuoted(runs[0].string)
    } else {
        op += "[" + runs.map { r in
            (["\"string\": \(jsonQuoted(r.string))"] + spanAttributes(r, mode: mode, images: images))
                .joined(separator: ", ").wrappedInBraces
        }.joined(separator: ", ") + "]"
    }
    if call.shading != .foreground { op += ", \"shading\": " + encode(call.shading, mode: mode, images: images) }
    switch call.placement {
    case .at(let p, let anchor):
        op += ", \"at\": [\(jsonNumber(p.x)), \(jsonNumber(p.y))]"
        if anchor != .center { op += ", \"anchor\": [\(jsonNumber(anchor.x)), \(jsonNumber(anchor.y))]" }
    case .in(let r):
        op += ", \"in\": [\(jsonNumber(r.minX)), \(jsonNumber(r.minY)), \(jsonNumber(r.width)), \(jsonNumber(r.height))]"
    }
    return op + "}"
}

/// The keys of a text span other than its string, as `"key": value` pieces.
private func spanAttributes(_ r: Text.Run, mode: ColorRenderingMode, images: SceneImages) -> [String] {
    var keys: [String] = []
    if let f = r.font { keys.append("\"font\": " + encode(f)) }
    if let s = r.foreground { keys.append("\"shading\": " + encode(s, mode: mode, images: images)) }
    if let w = r.weight { keys.append("\"weight\": \(jsonNumber(w.value))") }
    if let d = r.design { keys.append("\"design\": \"\(d)\"") }
    if r.italic { keys.append("\"italic\": true") }
    if r.monospaced { keys.append("\"monospaced\": true") }
    if r.monospacedDigit { keys.append("\"monospacedDigit\": true") }
    if let k = r.kerning { keys.append("\"kerning\": \(jsonNumber(k))") }
    if let k = r.tracking { keys.append("\"tracking\": \(jsonNumber(k))") }
    if let k = r.baselineOffset { keys.append("\"baselineOffset\": \(jsonNumber(k))") }
    if r.underline == true { keys.append("\"underline\": " + (r.underlineColor.map(encode) ?? "true")) }
    if r.strikethrough == true { keys.append("\"strikethrough\": " + (r.strikethroughColor.map(encode) ?? "true")) }
    return keys
}

/// `{"family": "DejaVu Sans", "size": 17, "weight": 700}`, `{"style": "headline"}`, `{"file": "/f.ttf", "size": 9}`.
private func encode(_ f: Font) -> String {
    var keys: [String] = []
    switch f.base {
    case .system(let size, let design):
        keys.append("\"size\": \(jsonNumber(size))")
        if let design { keys.append("\"design\": \"\(design)\"") }
    case .textStyle(let style, let design):
        keys.append("\"style\": \"\(style)\"")
        if let design { keys.append("\"design\": \"\(design)\"") }
    case .custom(let name, let size, _):
        keys.append("\"family\": \(jsonQuoted(name)), \"size\": \(jsonNumber(size))")
    case .file(let path, let size):
        keys.append("\"file\": \(jsonQuoted(path)), \"size\": \(jsonNumber(size))")
    }
    if let w = f.weight { keys.append("\"weight\": \(jsonNumber(w.value))") }
    if f.isItalic { keys.append("\"italic\": true") }
    if f.isMonospaced { keys.append("\"monospaced\": true") }
    if f.isMonospacedDigit { keys.append("\"monospacedDigit\": true") }
    return keys.joined(separator: ", ").wrappedInBraces
}

/// A shading as given to a text call or run (not yet bound to a draw's paint).
private func encode(_ s: GraphicsContext.Shading, mode: ColorRenderingMode, images: SceneImages) -> String {
    switch s.kind {
    case .color(let c): return "{\"color\": \(encode(c))}"
    case .foreground: return "\"foreground\""
    case .gradient(let g): return encode(g)
    case .style(let u): return encode(u)
    case .palette(let levels): return "{\"palette\": [" + levels.map { encode($0, mode: mode, images: images) }.joined(separator: ", ") + "]}"
    case .tiledImage(let t): return encode(.image(t.paint), mode: mode, images: images)
    case .backdrop: return "\"backdrop\""
    case .meshGradient(let m): return encode(m)
    }
}

private extension String {
    var wrappedInBraces: String { "{" + self + "}" }
}

private func encode(_ path: Path) -> String {
    var parts: [String] = []
    parts.reserveCapacity(path.elements.count)
    for e in path.elements {
        switch e {
        case .move(let p): parts.append("[\"m\", \(jsonNumber(p.x)), \(jsonNumber(p.y))]")
        case .line(let p): parts.append("[\"l\", \(jsonNumber(p.x)), \(jsonNumber(p.y))]")
        case .quadCurve(let p, let c):
            parts.append("[\"q\", \(jsonNumber(c.x)), \(jsonNumber(c.y)), \(jsonNumber(p.x)), \(jsonNumber(p.y))]")
        case .curve(let p, let c1, let c2):
            parts.append("[\"c\", \(jsonNumber(c1.x)), \(jsonNumber(c1.y)), \(jsonNumber(c2.x)), \(jsonNumber(c2.y)), "
                         + "\(jsonNumber(p.x)), \(jsonNumber(p.y))]")
        case .closeSubpath: parts.append("[\"z\"]")
        }
    }
    return "{\"elements\": [" + parts.joined(separator: ", ") + "]}"
}

private func encode(_ paint: Paint, mode: ColorRenderingMode, images: SceneImages) -> String {
    switch paint {
    case .solid(let c):
        let space: Color.RGBColorSpace = mode == .nonLinear ? .sRGB : .sRGBLinear
        let a = Double(c.a)
        var rgba = a == 0 ? [0, 0, 0, 0] : [Double(c.r) / a, Double(c.g) / a, Double(c.b) / a, a]
        // The Float-precision spelling (0.23137255 rather than 0.23137255012989044) when it loads back to the
        // same premultiplied colour, which it almost always does; otherwise the exact Double quotient.
        let short = rgba.map { Double("\(Float($0))") ?? $0 }
        if Color(space, red: short[0], green: short[1], blue: short[2], opacity: short[3]).premultiplied(in: mode) == c {
            rgba = short
        }
        let name = space == .sRGB ? "sRGB" : "sRGBLinear"
        return "{\"color\": {\"space\": \"\(name)\", \"rgba\": [" + rgba.map(jsonNumber).joined(separator: ", ") + "]}}"
    case .gradient(let g):
        return encode(g)
    case .styleGradient(let g):
        return encode(g)
    case .backdrop:
        return "\"backdrop\""
    case .meshGradient(let m):
        return encode(m)
    case .image(let i):
        // A context records a tiled image paint only for `.tiledImage`; a clamped one only for `draw(_:in:)`,
        // which `encode(_ d:)` writes as an `image` op. Anything else has no scene spelling: the key below makes
        // loading the document fail at this spot rather than draw something else.
        if i.tiled, let shading = tiledImageShading(i, images: images) { return shading }
        return "{\"imageNotEncoded\": true}"
    }
}

/// `{"meshGradient": {...}}`, every key written (resolved colours as the `Color`s they record as).
private func encode(_ m: MeshGradient) -> String {
    func p(_ v: SIMD2<Float>) -> String { "[\(jsonNumber(CGFloat(v.x))), \(jsonNumber(CGFloat(v.y)))]" }
    let locations: String
    switch m.locations {
    case .points(let ps): locations = "\"points\": [" + ps.map(p).joined(separator: ", ") + "]"
    case .bezierPoints(let bs):
        locations = "\"bezierPoints\": [" + bs.map {
            "{\"position\": \(p($0.position)), \"leading\": \(p($0.leadingControlPoint)), \"top\": \(p($0.topControlPoint)), "
                + "\"trailing\": \(p($0.trailingControlPoint)), \"bottom\": \(p($0.bottomControlPoint))}"
        }.joined(separator: ", ") + "]"
    }
    return "{\"meshGradient\": {\"width\": \(m.width), \"height\": \(m.height), \(locations), \"colors\": ["
        + m.colorList.map(encode).joined(separator: ", ") + "], \"background\": \(encode(m.background)), "
        + "\"smoothsColors\": \(m.smoothsColors), \"colorSpace\": \"\(m.colorSpace.isPerceptual ? "perceptual" : "device")\"}}"
}

/// A colour as recorded: a SwiftUI name (`"red"`) for a named colour, which loads back with its name, else
/// `{"space": "sRGB", "rgba": [r, g, b, a]}` in its own colour space, which loads back with the same components.
private func encode(_ c: Color) -> String {
    if let name = c.name, Color.named[name] == c { return jsonQuoted(name) }
    let name: String
    switch c.space {
    case .sRGB: name = "sRGB"
    case .sRGBLinear: name = "sRGBLinear"
    case .displayP3: name = "displayP3"
    }
    return "{\"space\": \"\(name)\", \"rgba\": [" + [c.red, c.green, c.blue, c.alpha].map(jsonNumber).joined(separator: ", ") + "]}"
}

private func encode(stops: [Gradient.Stop]) -> String {
    "{\"stops\": [" + stops.map { "[\(jsonNumber($0.location)), \(encode($0.color))]" }.joined(separator: ", ") + "]}"
}

private func encode(_ options: GraphicsContext.GradientOptions) -> String {
    var names: [String] = []
    if options.contains(.repeat) { names.append("\"repeat\"") }
    if options.contains(.mirror) { names.append("\"mirror\"") }
    if options.contains(.linearColor) { names.append("\"linearColor\"") }
    return names.isEmpty ? "" : ", \"options\": [" + names.joined(separator: ", ") + "]"
}

private func point(_ p: CGPoint) -> String { "[\(jsonNumber(p.x)), \(jsonNumber(p.y))]" }
private func unit(_ p: UnitPoint) -> String { "[\(jsonNumber(p.x)), \(jsonNumber(p.y))]" }

/// A gradient shading (`gradientToUser` is identity for every shading a context can record).
private func encode(_ g: GradientShading) -> String {
    let stops = encode(stops: g.stops)
    let space = g.colorSpace == .perceptual ? ", \"colorSpace\": \"perceptual\"" : ""
    switch g.geometry {
    case .linear(let s, let e):
        return "{\"linearGradient\": \(stops), \"start\": \(point(s)), \"end\": \(point(e))\(encode(g.options))\(space)}"
    case .radial(let c0, let r0, let c1, let r1):
        if c0 == c1 {
            return "{\"radialGradient\": \(stops), \"center\": \(point(c0)), \"startRadius\": \(jsonNumber(r0)), "
                + "\"endRadius\": \(jsonNumber(r1))\(encode(g.options))\(space)}"
        }
        return "{\"radialGradient\": \(stops), \"startCenter\": \(point(c0)), \"startRadius\": \(jsonNumber(r0)), "
            + "\"endCenter\": \(point(c1)), \"endRadius\": \(jsonNumber(r1))\(encode(g.options))\(space)}"
    case .conic(let c, let a0, _):
        return "{\"conicGradient\": \(stops), \"center\": \(point(c)), \"angle\": \(degrees(a0))\(encode(g.options))\(space)}"
    }
}

/// A UnitPoint style: `{"style": {"linearGradient": G, "startPoint": U, "endPoint": U}}` and its siblings.
private func encode(_ g: UnitGradient) -> String {
    let stops = encode(stops: g.gradient.stops)
    let space = g.colorSpace == .perceptual ? ", \"colorSpace\": \"perceptual\"" : ""
    let body: String
    switch g.geometry {
    case .linear(let s, let e):
        body = "\"linearGradient\": \(stops), \"startPoint\": \(unit(s)), \"endPoint\": \(unit(e))"
    case .radial(let c, let r0, let r1):
        body = "\"radialGradient\": \(stops), \"center\": \(unit(c)), \"startRadius\": \(jsonNumber(r0)), \"endRadius\": \(jsonNumber(r1))"
    case .angular(let c, let a0, let a1):
        // One full turn is written as SwiftUI spells it, with equal angles, so that it loads back exactly.
        let start = degrees(a0.radians)
        let end = a1 == a0 + .degrees(360) ? start : degrees(a1.radians)
        body = "\"angularGradient\": \(stops), \"center\": \(unit(c)), \"startAngle\": \(start), \"endAngle\": \(end)"
    case .elliptical(let c, let f0, let f1):
        body = "\"ellipticalGradient\": \(stops), \"center\": \(unit(c)), \"startRadiusFraction\": \(jsonNumber(f0)), \"endRadiusFraction\": \(jsonNumber(f1))"
    }
    return "{\"style\": {" + body + space + "}}"
}

/// An angle in degrees that loads back (`Angle.degrees(d)`) to exactly `radians`: the shortest such spelling
/// among the Doubles next to the plain conversion, so `.degrees(30)` is written 30, not 29.999999999999996.
/// An angle made in radians need not be any Double's degrees × π/180; it gets the plain conversion, which
/// loads back within an ulp or two.
private func degrees(_ radians: Double) -> String {
    let plain = Angle(radians: radians).degrees
    guard plain.isFinite else { return jsonNumber(plain) }
    var best: String?
    var d = plain
    for _ in 0 ..< 8 { d = d.nextDown }
    for _ in 0 ... 16 {
        if Angle(degrees: d).radians == radians {
            let text = jsonNumber(d)
            if best == nil || text.count < best!.count { best = text }
        }
        d = d.nextUp
    }
    return best ?? jsonNumber(plain)
}

/// Shortest round-trip text: 300 → "300", 0.1 → "0.1", 1e-300 → "1e-300"; NaN and infinities → "null".
private func jsonNumber(_ v: CGFloat) -> String { jsonNumber(Double(v)) }

private func jsonNumber(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return v == 0 ? "0" : String(Int64(v)) }
    return "\(v)"
}

// MARK: - Images

/// The images a document's commands name, in the order they are first met: `resources.images` entries
/// `image0`, `image1`, … One entry per distinct `Image` value (pixels, scale, rendering mode and
/// interpolation), however many draws or `Image` copies share it.
private final class SceneImages {
    var entries: [(image: Image, json: String)] = []

    /// The entry name of `image`, adding an entry on first use.
    func name(for image: Image) -> String {
        if let k = entries.firstIndex(where: { $0.image.content === image.content && $0.image == image })
            ?? entries.firstIndex(where: { $0.image == image }) {
            return "image\(k)"
        }
        entries.append((image, entry(image)))
        return "image\(entries.count - 1)"
    }

    /// `{"pngBase64": "…", "scale": 2, "template": true, "interpolation": "none"}`. The PNG holds the
    /// premultiplied pixels exactly (`RasterImage.pngData()` → decode is the identity on them). An image
    /// that could not be read has no pixels to write: its entry is `{"unreadable": "<why>"}`, which loading
    /// rejects at that spot.
    private func entry(_ image: Image) -> String {
        let data: Data
        do {
            data = try image.content.result.get().pngData()
        } catch {
            let why = image.content.source.map { "\($0): " } ?? ""
            let words = "\(error)"
            return "{\"unreadable\": \(jsonQuoted(words.hasPrefix(why) ? words : why + words))}"
        }
        var json = "{\"pngBase64\": \"\(data.base64EncodedString())\""
        if image.scale != 1 { json += ", \"scale\": \(jsonNumber(image.scale))" }
        if image.renderingMode == .template { json += ", \"template\": true" }
        switch image.interpolation {
        case .none: json += ", \"interpolation\": \"none\""
        case .low: json += ", \"interpolation\": \"low\""
        case .medium: json += ", \"interpolation\": \"medium\""
        case .high: break
        }
        return json + "}"
    }
}

/// A `draw(_:in:style:)` as the `image` op that records it again: `{"op": "image", "image": "image0", "in":
/// RECT}` (plus `eoFill`, `antialiased`, and a template image's `shading`). The recording holds `Path(rect)`
/// and the image pixels → rect mapping; the rect is read back from them and checked by recording the draw
/// again, so the op loads back to the same geometry and paint. nil when no rect does (a paint a context does
/// not record).
private func imageOp(_ paint: ImagePaint, path: Path, style: FillStyle, mode: ColorRenderingMode,
                     images: SceneImages) -> String? {
    var tint = ""
    if paint.image.renderingMode == .template {
        guard let t = paint.tint else { return nil }
        tint = ", \"shading\": " + encode(t, mode: mode, images: images)
    } else if paint.tint != nil {
        return nil
    }
    var rect: CGRect
    if case .success = paint.image.content.result {
        guard let r = placementRect(paint, path: path, style: style) else { return nil }
        rect = r
    } else {
        // The entry is written `unreadable`, so loading fails there; the rect is only for the reader.
        rect = path.boundingRect
        if rect.isNull { rect = .zero }
    }
    var op = "{\"op\": \"image\", \"image\": \"\(images.name(for: paint.image))\", \"in\": "
        + "[\(jsonNumber(rect.minX)), \(jsonNumber(rect.minY)), \(jsonNumber(rect.width)), \(jsonNumber(rect.height))]"
    if style.isEOFilled { op += ", \"eoFill\": true" }
    if !style.isAntialiased { op += ", \"antialiased\": false" }
    return op + tint + "}"
}

/// The rect `r` for which `draw(image, in: r, style: style)` records `path` and `paint`'s placement.
private func placementRect(_ paint: ImagePaint, path: Path, style: FillStyle) -> CGRect? {
    guard case .success(let pixels) = paint.image.content.result else { return nil }
    let w = CGFloat(pixels.width), h = CGFloat(pixels.height)
    let t = paint.imageToUser
    guard t.b == 0, t.c == 0, paint.sourceRect == CGRect(x: 0, y: 0, width: w, height: h),
          path.elements.count == 5, case .move(let p0) = path.elements[0], case .line(let p1) = path.elements[1],
          case .line(let p2) = path.elements[2] else { return nil }
    // `Path(r)` starts at (minX, minY), then (maxX, minY), (maxX, maxY); the mapping is
    // (r.width / w, r.height / h) with its origin at (minX, minY). The width is the one both agree on.
    guard p0.x == t.tx, p0.y == t.ty else { return nil }
    let width = nearby([t.a * w, p1.x - p0.x]) { $0 / w == t.a && p0.x + $0 == p1.x }
    let height = nearby([t.d * h, p2.y - p0.y]) { $0 / h == t.d && p0.y + $0 == p2.y }
    guard let width, let height else { return nil }
    let rect = CGRect(x: p0.x, y: p0.y, width: width, height: height)
    // The draw again, through the API the loader calls.
    let image = paint.image.renderingMode(.original)
    let again = Recording(size: CGSize(width: 1, height: 1)) { ctx, _ in ctx.draw(image, in: rect, style: style) }
    guard case .draw(let d)? = again.root.items.first, d.geometry == .fill(path, style),
          case .image(let p) = d.paint, p.imageToUser == t, p.sourceRect == paint.sourceRect else { return nil }
    return rect
}

/// A tiled image paint as the `tiledImage` shading that records it again: the paint holds the source rect in
/// image pixels and the pixels → user mapping; the shading takes the source rect in unit coordinates, an
/// origin and a scale. Each is solved for the value that gives back the recorded one exactly, and the whole
/// is checked through `Shading.tiledImage`. nil when no such shading is found.
private func tiledImageShading(_ paint: ImagePaint, images: SceneImages) -> String? {
    guard paint.tint == nil, case .success(let pixels) = paint.image.content.result else { return nil }
    let w = CGFloat(pixels.width), h = CGFloat(pixels.height)
    let t = paint.imageToUser, src = paint.sourceRect
    guard t.b == 0, t.c == 0, t.a == t.d else { return nil }
    let k = t.a
    guard let ux = nearby([src.minX / w], { $0 * w == src.minX }),
          let uy = nearby([src.minY / h], { $0 * h == src.minY }),
          let uw = nearby([src.width / w], { $0 * w == src.width }),
          let uh = nearby([src.height / h], { $0 * h == src.height }),
          let scale = nearby([k * paint.image.scale], { $0 / paint.image.scale == k }),
          let ox = nearby([t.tx + src.minX * k], { $0 - src.minX * k == t.tx }),
          let oy = nearby([t.ty + src.minY * k], { $0 - src.minY * k == t.ty }) else { return nil }
    let unit = CGRect(x: ux, y: uy, width: uw, height: uh)
    let origin = CGPoint(x: ox, y: oy)
    guard case .tiledImage(let again) = GraphicsContext.Shading.tiledImage(paint.image, origin: origin, sourceRect: unit,
                                                                            scale: scale).kind,
          again.paint == paint else { return nil }
    var json = "{\"tiledImage\": \"\(images.name(for: paint.image))\""
    if origin != .zero { json += ", \"origin\": [\(jsonNumber(ox)), \(jsonNumber(oy))]" }
    if unit != CGRect(x: 0, y: 0, width: 1, height: 1) {
        json += ", \"sourceRect\": [" + [ux, uy, uw, uh].map(jsonNumber).joined(separator: ", ") + "]"
    }
    if scale != 1 { json += ", \"scale\": \(jsonNumber(scale))" }
    return json + "}"
}

/// The value with the shortest spelling among those within 8 ulps of each guess for which `holds` is true;
/// nil when there is none.
private func nearby(_ guesses: [CGFloat], _ holds: (CGFloat) -> Bool) -> CGFloat? {
    var best: (value: CGFloat, text: String)?
    for guess in guesses where guess.isFinite {
        var v = guess
        for _ in 0 ..< 8 { v = v.nextDown }
        for _ in 0 ... 16 {
            if holds(v) {
                let text = jsonNumber(v)
                if best == nil || text.count < best!.text.count { best = (v, text) }
            }
            v = v.nextUp
        }
    }
    return best?.value
}
