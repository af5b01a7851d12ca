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
        out += "  \"commands\": ["
        let items = encode(root.items[...], depth: 0, current: .identity, mode: colorMode)
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
                    mode: ColorRenderingMode) -> [String] {
    var out: [String] = []
    var i = items.startIndex
    while i < items.endIndex {
        let clips = items[i].state.clips
        guard clips.count > depth else {
            out.append(encode(items[i], current: current, mode: mode))
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
            let content = encode(layer.items[...], depth: 0, current: inner, mode: mode)
            ops.append(c + ", \"commands\": [" + content.joined(separator: ", ") + "]}")
        }
        ops += encode(items[i ..< j], depth: depth + 1, current: inner, mode: mode)
        out.append("{\"op\": \"copy\", \"commands\": [" + ops.joined(separator: ", ") + "]}")
        i = j
    }
    return out
}

/// One item whose clips are already in force: a draw, or a `layer` whose content starts with the transform
/// in force (as `drawLayer`'s does).
private func encode(_ item: RecordedItem, current: CGAffineTransform, mode: ColorRenderingMode) -> String {
    switch item {
    case .draw(let d):
        return scoped(encode(d, mode: mode), transform: d.transform, state: d.state, current: current)
    case .layer(let l):
        let content = encode(l.content.items[...], depth: 0, current: current, mode: mode)
        let layer = "{\"op\": \"layer\", \"commands\": [" + content.joined(separator: ", ") + "]}"
        return scoped(layer, transform: current, state: l.state, current: current)
    }
}

/// `command` inside a `copy` scope that sets `transform` (when it is not `current`), the opacity and the blend
/// mode; the command alone when there is nothing to set.
private func scoped(_ command: String, transform: CGAffineTransform, state: DrawState,
                    current: CGAffineTransform) -> String {
    var ops: [String] = []
    if transform != current { ops.append(transformOp(transform)) }
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

private func transformOp(_ t: CGAffineTransform) -> String {
    "{\"op\": \"transform\", \"value\": [" + [t.a, t.b, t.c, t.d, t.tx, t.ty].map(jsonNumber).joined(separator: ", ") + "]}"
}

private func encode(_ d: DrawCommand, mode: ColorRenderingMode) -> String {
    var draw: String
    switch d.geometry {
    case .fill(let path, let style):
        draw = "{\"op\": \"fill\", \"path\": \(encode(path)), \"shading\": \(encode(d.paint, mode: mode))"
        if style.isEOFilled { draw += ", \"eoFill\": true" }
        if !style.isAntialiased { draw += ", \"antialiased\": false" }
    case .stroke(let path, let style):
        draw = "{\"op\": \"stroke\", \"path\": \(encode(path)), \"shading\": \(encode(d.paint, mode: mode))"
        draw += ", \"lineWidth\": \(jsonNumber(style.lineWidth))"
        if style.lineCap != .butt { draw += ", \"lineCap\": \"\(style.lineCap)\"" }
        if style.lineJoin != .miter { draw += ", \"lineJoin\": \"\(style.lineJoin)\"" }
        if style.miterLimit != 10 { draw += ", \"miterLimit\": \(jsonNumber(style.miterLimit))" }
        if !style.dash.isEmpty {
            draw += ", \"dash\": [" + style.dash.map(jsonNumber).joined(separator: ", ") + "]"
        }
        if style.dashPhase != 0 { draw += ", \"dashPhase\": \(jsonNumber(style.dashPhase))" }
    }
    return draw + "}"
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

private func encode(_ paint: Paint, mode: ColorRenderingMode) -> String {
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
    case .image:
        // Scene files name images in `resources`; an image drawn from code is not written out (yet). The key
        // below makes loading the document fail at this spot rather than draw something else.
        return "{\"imageNotEncoded\": true}"
    }
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
