// Recording → scene document, so any recording (a failing test's, a user's) can be replayed with one command.
//
// Each draw becomes a `copy` scope that sets the draw's transform, opacity and blend mode and then makes one
// `fill` or `stroke` with an `elements` path; a draw with the default state is written without the scope.
// Paints are resolved colours in the working space, so they are written un-premultiplied in the space that
// working space is: `sRGB` for `nonLinear`, `sRGBLinear` for `linear` and `extendedLinear`. Loading such a
// colour multiplies it back in Double and rounds to Float once, which restores the recorded Float exactly
// (the quotient carries 53 bits, the Float 24), so record → encode → load gives an equal recording. The
// components are written with Float precision (`0.23137255`) when that is checked to load back to the same
// colour, else as the full Double quotient.
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
        let items = encode(root, mode: colorMode)
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

/// One command per item of `layer`.
private func encode(_ layer: RecordedLayer, mode: ColorRenderingMode) -> [String] {
    layer.items.map { item in
        switch item {
        case .draw(let d): return encode(d, mode: mode)
        case .layer(let l):
            let inner = "{\"op\": \"layer\", \"commands\": [" + encode(l.content, mode: mode).joined(separator: ", ") + "]}"
            return scoped(inner, transform: .identity, state: l.state, mode: mode)
        }
    }
}

/// `command` inside a `copy` scope that sets up `state` (clips, opacity, blend mode) and `transform`; the
/// command alone when the state is the default.
private func scoped(_ command: String, transform: CGAffineTransform, state: DrawState, mode: ColorRenderingMode) -> String {
    var ops: [String] = []
    for clip in state.clips {
        switch clip {
        case .path(let path, let t, let style, let inverse):
            ops.append(transformOp(t))
            var c = "{\"op\": \"clip\", \"path\": \(encode(path))"
            if style.isEOFilled { c += ", \"eoFill\": true" }
            if !style.isAntialiased { c += ", \"antialiased\": false" }
            if inverse { c += ", \"inverse\": true" }
            ops.append(c + "}")
        case .mask(let layer, let opacity, let inverse):
            var c = "{\"op\": \"clipToLayer\""
            if opacity != 1 { c += ", \"opacity\": \(jsonNumber(opacity))" }
            if inverse { c += ", \"inverse\": true" }
            ops.append(c + ", \"commands\": [" + encode(layer, mode: mode).joined(separator: ", ") + "]}")
        }
    }
    if !transform.isIdentity || !ops.isEmpty { ops.append(transformOp(transform)) }
    if state.opacity != 1 { ops.append("{\"op\": \"opacity\", \"value\": \(jsonNumber(state.opacity))}") }
    if state.blendMode != .normal {
        // `description` is ".name" for the 28 named modes.
        let name = String(state.blendMode.description.dropFirst())
        ops.append("{\"op\": \"blendMode\", \"value\": \(jsonQuoted(name))}")
    }
    if ops.isEmpty { return command }
    return "{\"op\": \"copy\", \"commands\": [" + (ops + [command]).joined(separator: ", ") + "]}"
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
    draw += "}"
    return scoped(draw, transform: d.transform, state: d.state, mode: mode)
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
    }
}

/// A colour as recorded: `{"space": "sRGB", "rgba": [r, g, b, a]}` in its own colour space.
private func encode(_ c: Color) -> String {
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
        return "{\"conicGradient\": \(stops), \"center\": \(point(c)), \"angle\": \(jsonNumber(a0 * 180 / .pi))\(encode(g.options))\(space)}"
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
        body = "\"angularGradient\": \(stops), \"center\": \(unit(c)), \"startAngle\": \(jsonNumber(a0.degrees)), \"endAngle\": \(jsonNumber(a1.degrees))"
    case .elliptical(let c, let f0, let f1):
        body = "\"ellipticalGradient\": \(stops), \"center\": \(unit(c)), \"startRadiusFraction\": \(jsonNumber(f0)), \"endRadiusFraction\": \(jsonNumber(f1))"
    }
    return "{\"style\": {" + body + space + "}}"
}

/// Shortest round-trip text: 300 → "300", 0.1 → "0.1", 1e-300 → "1e-300"; NaN and infinities → "null".
private func jsonNumber(_ v: CGFloat) -> String { jsonNumber(Double(v)) }

private func jsonNumber(_ v: Double) -> String {
    guard v.isFinite else { return "null" }
    if v == v.rounded(), abs(v) < 1e15 { return v == 0 ? "0" : String(Int64(v)) }
    return "\(v)"
}
