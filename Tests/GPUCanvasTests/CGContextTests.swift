import XCTest
@testable import GPUCanvas
@testable import GPUCanvasCore

/// `GraphicsContext.withCGContext` and `CGContext`: CG calls record exactly what the equivalent
/// GraphicsContext calls record (so both backends draw the same bytes for them), the CG state stack, the
/// current path's CoreGraphics semantics, even-odd clips, gradients and their options, shadows, alpha, blend
/// modes, images and colours. Pixels on the reference; every GLES form equal to it within the default bar.
final class CGContextTests: XCTestCase, ComparesBackends {
    /// One 8-bit step: coverage and colours are exact in both backends, the final rounding may differ by one.
    static let rounding = 1

    static let clear = PixelRGBA8(r: 0, g: 0, b: 0, a: 0)
    static let red = PixelRGBA8(r: 255, g: 0, b: 0, a: 255)
    static let blue = PixelRGBA8(r: 0, g: 0, b: 255, a: 255)
    static let black = PixelRGBA8(r: 0, g: 0, b: 0, a: 255)

    /// Asserts that `cg` and `gc` record the same display list on a `w × h` canvas, and that every backend
    /// draws the two recordings to the same bytes (and draws something).
    func assertSameRecording(_ w: CGFloat, _ h: CGFloat, file: StaticString = #filePath, line: UInt = #line,
                             cg: (CGContext) -> Void, gc: (inout GraphicsContext) -> Void) {
        let a = Recording(size: CGSize(width: w, height: h)) { ctx, _ in ctx.withCGContext { cg($0) } }
        let b = Recording(size: CGSize(width: w, height: h)) { ctx, _ in gc(&ctx) }
        XCTAssertEqual(a, b, "CG:\n\(a)\nGraphicsContext:\n\(b)", file: file, line: line)
        XCTAssertGreaterThan(a.drawCount, 0, file: file, line: line)
        do {
            for (name, renderer) in try renderers() {
                let pa = try renderer.render(a), pb = try renderer.render(b)
                let differing = zip(pa.pixels, pb.pixels).filter { $0 != $1 }.count
                XCTAssertEqual(differing, 0, "\(name): bytes that differ", file: file, line: line)
                XCTAssertTrue(pa.pixels.contains { $0 != 0 }, "\(name) drew nothing", file: file, line: line)
            }
        } catch {
            XCTFail("\(error)", file: file, line: line)
        }
    }

    // MARK: Same recording as GraphicsContext

    func testFillsAndStrokesRecordAsGraphicsContextCalls() {
        let r = CGRect(x: 4, y: 6, width: 20, height: 10)
        assertSameRecording(32, 32, cg: { cg in
            cg.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            cg.fill(r)
            cg.setFillColor(gray: 0.5, alpha: 0.5)
            cg.fillEllipse(in: r.offsetBy(dx: 0, dy: 12))
        }, gc: { ctx in
            ctx.fill(Path(r), with: .color(Color(red: 1, green: 0, blue: 0)))
            ctx.fill(Path(ellipseIn: r.offsetBy(dx: 0, dy: 12)), with: .color(Color(white: 0.5, opacity: 0.5)))
        })
        // A built path stroked with the whole pen.
        assertSameRecording(32, 32, cg: { cg in
            cg.setStrokeColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
            cg.setLineWidth(3)
            cg.setLineCap(.round)
            cg.setLineJoin(.bevel)
            cg.setMiterLimit(4)
            cg.setLineDash(phase: 2, lengths: [6, 3])
            cg.move(to: CGPoint(x: 2, y: 2))
            cg.addLine(to: CGPoint(x: 30, y: 2))
            cg.addQuadCurve(to: CGPoint(x: 30, y: 30), control: CGPoint(x: 20, y: 16))
            cg.strokePath()
        }, gc: { ctx in
            var p = Path()
            p.move(to: CGPoint(x: 2, y: 2))
            p.addLine(to: CGPoint(x: 30, y: 2))
            p.addQuadCurve(to: CGPoint(x: 30, y: 30), control: CGPoint(x: 20, y: 16))
            ctx.stroke(p, with: .color(Color(red: 0, green: 0, blue: 1)),
                       style: StrokeStyle(lineWidth: 3, lineCap: .round, lineJoin: .bevel, miterLimit: 4,
                                          dash: [6, 3], dashPhase: 2))
        })
        // fillStroke: the fill, then the stroke; the CTM as GraphicsContext's transform.
        assertSameRecording(32, 32, cg: { cg in
            cg.translateBy(x: 3, y: 4)
            cg.rotate(by: 0.25)
            cg.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
            cg.drawPath(using: .eoFillStroke)
        }, gc: { ctx in
            ctx.translateBy(x: 3, y: 4)
            ctx.rotate(by: .radians(0.25))
            let p = Path(CGRect(x: 0, y: 0, width: 10, height: 10))
            ctx.fill(p, with: .color(Color(white: 0)), style: FillStyle(eoFill: true))
            ctx.stroke(p, with: .color(Color(white: 0)), lineWidth: 1)
        })
    }

    /// State set on the GraphicsContext before the call (transform, opacity, clip) applies to CG drawing.
    func testGraphicsContextStateAppliesToCGDrawing() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.translateBy(x: 20, y: 0)
            ctx.opacity = 0.5
            ctx.clip(to: Path(CGRect(x: 0, y: 0, width: 10, height: 20)))
            ctx.withCGContext { cg in
                cg.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 20, height: 20))
            }
        }
        assertPixel(img, 25, 10, PixelRGBA8(r: 0, g: 0, b: 128, a: 128))   // translated, at half opacity
        assertPixel(img, 5, 10, Self.clear)                                   // not translated away
        assertPixel(img, 35, 10, Self.clear)                                  // clipped
        XCTAssertEqual(img.pixel(x: 25, y: 10).a, 128)
    }

    // MARK: The state stack and the current path

    func testSaveRestoreUndoesColourCTMAndClip() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.withCGContext { cg in
                cg.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.saveGState()
                cg.translateBy(x: 20, y: 0)
                cg.clip(to: CGRect(x: 0, y: 0, width: 10, height: 20))
                cg.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 20, height: 10))      // red, x 20–30 (clipped), top half
                cg.restoreGState()
                cg.fill(CGRect(x: 0, y: 10, width: 20, height: 10))     // blue, x 0–20, bottom half, unclipped
                cg.restoreGState()                                       // nothing saved: ignored
                cg.fill(CGRect(x: 30, y: 10, width: 10, height: 10))
            }
        }
        assertPixel(img, 25, 5, Self.red)
        assertPixel(img, 35, 5, Self.clear)       // outside the saved clip
        assertPixel(img, 5, 15, Self.blue)        // restored colour and CTM
        assertPixel(img, 35, 15, Self.blue)       // restored clip: nothing clips x 30–40
        assertPixel(img, 5, 5, Self.clear)
    }

    /// CoreGraphics maps path points by the CTM when they are added, and the path is not part of the graphics
    /// state: a rect added under a translation stays there after the CTM changes and after a restore.
    func testCurrentPathKeepsTheCTMItWasBuiltUnder() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.withCGContext { cg in
                cg.saveGState()
                cg.translateBy(x: 20, y: 0)
                cg.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
                cg.restoreGState()
                cg.scaleBy(x: 2, y: 2)
                XCTAssertFalse(cg.isPathEmpty)
                // In the new user space the rect is at (10, 0)–(15, 5).
                XCTAssertEqual(cg.boundingBoxOfPath, CGRect(x: 10, y: 0, width: 5, height: 5))
                cg.fillPath()
                XCTAssertTrue(cg.isPathEmpty)
                cg.fillPath()   // an empty path draws nothing
            }
        }
        assertPixel(img, 25, 5, Self.black)
        assertPixel(img, 35, 5, Self.clear)
        assertPixel(img, 25, 15, Self.clear)
    }

    /// A stroke's width is in the user space of the stroke call (scaled 2×: 4 units are 8 pixels).
    func testStrokeWidthIsInTheStrokeCallsUserSpace() throws {
        let img = try render(40, 40) { ctx, _ in
            ctx.withCGContext { cg in
                cg.move(to: CGPoint(x: 0, y: 10))
                cg.addLine(to: CGPoint(x: 40, y: 10))
                cg.scaleBy(x: 2, y: 2)
                cg.setLineWidth(4)
                cg.strokePath()
            }
        }
        assertPixel(img, 20, 7, Self.black)    // y 6–14
        assertPixel(img, 20, 13, Self.black)
        assertPixel(img, 20, 4, Self.clear)
        assertPixel(img, 20, 15, Self.clear)
    }

    func testEvenOddClip() throws {
        let img = try render(30, 30) { ctx, _ in
            ctx.withCGContext { cg in
                cg.addEllipse(in: CGRect(x: 0, y: 0, width: 30, height: 30))
                cg.addEllipse(in: CGRect(x: 8, y: 8, width: 14, height: 14))
                cg.clip(using: .evenOdd)
                cg.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 30, height: 30))
            }
        }
        assertPixel(img, 15, 15, Self.clear)   // the hole
        assertPixel(img, 4, 15, Self.red)      // the ring
        assertPixel(img, 1, 1, Self.clear)     // outside the outer circle
        // With the winding rule the same two circles (same direction) clip to the whole disc.
        let winding = try render(30, 30) { ctx, _ in
            ctx.withCGContext { cg in
                cg.addEllipse(in: CGRect(x: 0, y: 0, width: 30, height: 30))
                cg.addEllipse(in: CGRect(x: 8, y: 8, width: 14, height: 14))
                cg.clip()
                cg.fill(CGRect(x: 0, y: 0, width: 30, height: 30))
            }
        }
        assertPixel(winding, 15, 15, Self.black)
    }

    // MARK: Gradients

    static let redToBlue = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                      colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                               CGColor(red: 0, green: 0, blue: 1, alpha: 1)],
                                      locations: [0, 1])!

    /// Without options the gradient stops at its start and end lines; with both it pads; with both it is
    /// exactly `fill(clip rect, .linearGradient)`.
    func testLinearGradientOptions() throws {
        let bare = try render(40, 10) { ctx, _ in
            ctx.withCGContext { cg in
                cg.drawLinearGradient(Self.redToBlue, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 30, y: 0), options: [])
            }
        }
        assertPixel(bare, 5, 5, Self.clear)
        assertPixel(bare, 35, 5, Self.clear)
        XCTAssertEqual(bare.pixel(x: 20, y: 5).a, 255)
        XCTAssertGreaterThan(bare.pixel(x: 11, y: 5).r, 200)
        XCTAssertGreaterThan(bare.pixel(x: 29, y: 5).b, 200)

        let before = try render(40, 10) { ctx, _ in
            ctx.withCGContext { cg in
                cg.drawLinearGradient(Self.redToBlue, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 30, y: 0),
                                      options: .drawsBeforeStartLocation)
            }
        }
        assertPixel(before, 5, 5, Self.red)
        assertPixel(before, 35, 5, Self.clear)

        let padded = try render(40, 10) { ctx, _ in
            ctx.withCGContext { cg in
                cg.drawLinearGradient(Self.redToBlue, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 30, y: 0),
                                      options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
            }
        }
        assertPixel(padded, 5, 5, Self.red)
        assertPixel(padded, 35, 5, Self.blue)

        assertSameRecording(40, 10, cg: { cg in
            cg.clip(to: CGRect(x: 5, y: 0, width: 30, height: 10))
            cg.drawLinearGradient(Self.redToBlue, start: CGPoint(x: 10, y: 0), end: CGPoint(x: 30, y: 0),
                                  options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        }, gc: { ctx in
            ctx.clip(to: Path(CGRect(x: 5, y: 0, width: 30, height: 10)))
            ctx.fill(Path(ctx.clipBoundingRect),
                     with: .linearGradient(Gradient(colors: [Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 0, blue: 1)]),
                                           startPoint: CGPoint(x: 10, y: 0), endPoint: CGPoint(x: 30, y: 0)))
        })
    }

    /// Concentric radial gradient from r 5 to r 15: without options only the ring between the circles is
    /// drawn; `drawsBeforeStartLocation` fills the inner disc with the start colour, `drawsAfterEndLocation`
    /// the outside with the end colour.
    func testRadialGradientOptions() throws {
        func draw(_ options: CGGradientDrawingOptions) throws -> RasterImage {
            try render(40, 40) { ctx, _ in
                ctx.withCGContext { cg in
                    cg.drawRadialGradient(Self.redToBlue, startCenter: CGPoint(x: 20, y: 20), startRadius: 5,
                                          endCenter: CGPoint(x: 20, y: 20), endRadius: 15, options: options)
                }
            }
        }
        let bare = try draw([])
        assertPixel(bare, 20, 20, Self.clear)   // inside the start circle
        assertPixel(bare, 2, 2, Self.clear)     // outside the end circle
        XCTAssertEqual(bare.pixel(x: 30, y: 20).a, 255)   // r = 10.5: in the ring
        let both = try draw([.drawsBeforeStartLocation, .drawsAfterEndLocation])
        assertPixel(both, 20, 20, Self.red)
        assertPixel(both, 2, 2, Self.blue)
        let after = try draw(.drawsAfterEndLocation)
        assertPixel(after, 20, 20, Self.clear)
        assertPixel(after, 2, 2, Self.blue)
    }

    /// The hull of two circles that do not contain each other holds both and the tangent segments between.
    func testTwoCircleHull() {
        let hull = CGContext.hull(CGPoint(x: 0, y: 0), 2, CGPoint(x: 10, y: 0), 4)
        XCTAssertTrue(hull.contains(CGPoint(x: -1.9, y: 0)))
        XCTAssertTrue(hull.contains(CGPoint(x: 13.9, y: 0)))
        XCTAssertTrue(hull.contains(CGPoint(x: 5, y: 2.9)))    // between the circles, under the tangent
        XCTAssertFalse(hull.contains(CGPoint(x: 0, y: 3)))     // above the small circle
        XCTAssertEqual(hull.boundingRect.maxX, 14, accuracy: 1e-9)
        // One circle inside the other: the larger one.
        XCTAssertEqual(CGContext.hull(.zero, 10, CGPoint(x: 1, y: 0), 2), Path(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20)))
    }

    // MARK: Shadow, alpha, blend mode, clear

    /// The shadow's offset and blur are in the space of the `withCGContext` call, not the CTM (scaled 2×, the
    /// 6-unit offset is still 6 pixels); CG's default colour is black at 1/3 alpha.
    func testShadowIgnoresTheCTM() throws {
        let img = try render(40, 20) { ctx, _ in
            ctx.withCGContext { cg in
                cg.scaleBy(x: 2, y: 2)
                cg.setShadow(offset: CGSize(width: 6, height: 0), blur: 0)
                cg.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.fill(CGRect(x: 2, y: 2, width: 5, height: 5))      // pixels 4–14
            }
        }
        assertPixel(img, 8, 8, Self.blue)
        assertPixel(img, 17, 8, PixelRGBA8(r: 0, g: 0, b: 0, a: 85))   // shadow 10–20, 1/3 black
        assertPixel(img, 22, 8, Self.clear)
        // A nil colour turns it off again.
        let off = try render(40, 20) { ctx, _ in
            ctx.withCGContext { cg in
                cg.setShadow(offset: CGSize(width: 6, height: 0), blur: 0, color: CGColor(gray: 0, alpha: 1))
                cg.setShadow(offset: CGSize(width: 6, height: 0), blur: 0, color: nil)
                cg.fill(CGRect(x: 4, y: 4, width: 10, height: 10))
            }
        }
        assertPixel(off, 17, 8, Self.clear)
    }

    /// Shadows record as the GraphicsContext shadow filter with radius = blur / 2.
    func testShadowIsTheShadowFilter() {
        assertSameRecording(30, 30, cg: { cg in
            cg.setShadow(offset: CGSize(width: 3, height: 4), blur: 6, color: CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))
            cg.fill(CGRect(x: 5, y: 5, width: 10, height: 10))
        }, gc: { ctx in
            ctx.addFilter(.shadow(color: Color(red: 1, green: 0, blue: 0, opacity: 0.5), radius: 3, x: 3, y: 4))
            ctx.fill(Path(CGRect(x: 5, y: 5, width: 10, height: 10)), with: .color(Color(white: 0)))
        })
    }

    func testAlphaBlendModeAndClear() throws {
        let img = try render(30, 10) { ctx, _ in
            ctx.withCGContext { cg in
                cg.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 30, height: 10))
                cg.setAlpha(0.5)
                cg.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.fill(CGRect(x: 0, y: 0, width: 10, height: 10))       // half blue over red
                cg.setAlpha(1)
                cg.setBlendMode(.multiply)
                cg.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
                cg.fill(CGRect(x: 10, y: 0, width: 10, height: 10))      // red × green = black
                cg.setBlendMode(.normal)
                cg.clear(CGRect(x: 20, y: 0, width: 10, height: 10))
            }
        }
        assertPixel(img, 5, 5, PixelRGBA8(r: 128, g: 0, b: 128, a: 255))
        assertPixel(img, 15, 5, Self.black)
        assertPixel(img, 25, 5, Self.clear)
    }

    func testBlendModesMapByName() {
        XCTAssertEqual(CGBlendMode.allCases.count, GraphicsContext.BlendMode.names.count)
        for mode in CGBlendMode.allCases {
            XCTAssertEqual(mode.blendMode.description, ".\(mode)")
        }
    }

    /// `setShouldAntialias(false)`: a fill on half-pixel edges covers whole pixels or none.
    func testAntialiasingOffGivesHardEdges() throws {
        let img = try render(10, 10) { ctx, _ in
            ctx.withCGContext { cg in
                cg.setShouldAntialias(false)
                cg.fill(CGRect(x: 2.5, y: 2.5, width: 5, height: 5))
            }
        }
        for x in 0 ..< 10 { XCTAssert([0, 255].contains(img.pixel(x: x, y: 5).a), "x \(x): \(img.pixel(x: x, y: 5))") }
        let smooth = try render(10, 10) { ctx, _ in
            ctx.withCGContext { cg in cg.fill(CGRect(x: 2.5, y: 2.5, width: 5, height: 5)) }
        }
        assertPixel(smooth, 2, 5, PixelRGBA8(r: 0, g: 0, b: 0, a: 128))
    }

    // MARK: Images

    /// Two pixels, red over blue: drawn by CG the first row lands at the rect's maxY (upside down on this
    /// y-down canvas, as in any flipped CoreGraphics context).
    func testDrawImageUsesCoreGraphicsRowOrder() throws {
        let image = CGImage(RasterImage(width: 1, height: 2, pixels: [255, 0, 0, 255, 0, 0, 255, 255]))
        XCTAssertEqual(image.width, 1)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(image.bytesPerRow, 4)
        XCTAssertEqual(image.bitsPerComponent, 8)
        let img = try render(10, 20) { ctx, _ in
            ctx.withCGContext { cg in
                cg.interpolationQuality = .none
                cg.draw(image, in: CGRect(x: 0, y: 0, width: 10, height: 20))
            }
        }
        assertPixel(img, 5, 3, Self.blue)
        assertPixel(img, 5, 16, Self.red)
        // SwiftUI's Image from the CGImage is upright.
        let upright = try render(10, 20) { ctx, _ in
            ctx.draw(Image(decorative: image, scale: 1).interpolation(.none), in: CGRect(x: 0, y: 0, width: 10, height: 20))
        }
        assertPixel(upright, 5, 3, Self.red)
        // Turned by an orientation when the Image is made: `.down` is 180°.
        let turned = try render(10, 20) { ctx, _ in
            ctx.draw(Image(image, scale: 1, orientation: .down, label: Text("two pixels")).interpolation(.none),
                     in: CGRect(x: 0, y: 0, width: 10, height: 20))
        }
        assertPixel(turned, 5, 3, Self.blue)
    }

    // MARK: Colours

    func testCGColorComponentsAndBridges() {
        let c = CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.25)
        XCTAssertEqual(c.components, [1, 0.5, 0, 0.25])
        XCTAssertEqual(c.numberOfComponents, 4)
        XCTAssertEqual(c.alpha, 0.25)
        XCTAssertEqual(c.copy(alpha: 1)?.components, [1, 0.5, 0, 1])
        XCTAssertEqual(Color(cgColor: c), Color(red: 1, green: 0.5, blue: 0, opacity: 0.25))
        XCTAssertEqual(Color(cgColor: CGColor(gray: 0.5, alpha: 1)), Color(white: 0.5))
        XCTAssertEqual(CGColor.white.components, [1, 1])
        XCTAssertEqual(CGColor.clear.alpha, 0)
        XCTAssertEqual(Color(cgColor: Color(.displayP3, red: 1, green: 0, blue: 0).cgColor!),
                       Color(.displayP3, red: 1, green: 0, blue: 0))
        let linear = CGColorSpace(name: CGColorSpace.linearSRGB)!
        var components: [CGFloat] = [0.2, 0.4, 0.6, 1]
        let lc = CGColor(colorSpace: linear, components: &components)!
        XCTAssertEqual(Color(cgColor: lc), Color(.sRGBLinear, red: 0.2, green: 0.4, blue: 0.6))
        XCTAssertEqual(lc.colorSpace?.name, CGColorSpace.linearSRGB)
        XCTAssertEqual(CGColorSpaceCreateDeviceGray().numberOfComponents, 1)
        XCTAssertEqual(CGColorSpaceCreateDeviceRGB().numberOfComponents, 3)
        XCTAssertNil(CGColorSpace(name: "kCGColorSpaceGenericCMYK"))
    }

    // MARK: CoreGraphics code inside a canvas

    /// Ordinary CoreGraphics drawing code run through `withCGContext`: a saved and restored CTM, an
    /// arc-built path filled and stroked, line segments, an ellipse stroke; the same pixels on every backend.
    func testCoreGraphicsRoutineInsideCanvas() throws {
        @Sendable func badge(_ cg: CGContext, at centre: CGPoint) {
            cg.saveGState()
            cg.translateBy(x: centre.x, y: centre.y)
            cg.setFillColor(red: 1, green: 0.8, blue: 0, alpha: 1)
            cg.setStrokeColor(red: 0, green: 0, blue: 0, alpha: 1)
            cg.setLineWidth(2)
            cg.move(to: .zero)
            cg.addArc(center: .zero, radius: 12, startAngle: 0, endAngle: 1.5 * .pi, clockwise: false)
            cg.closePath()
            cg.drawPath(using: .fillStroke)
            cg.restoreGState()
        }
        let img = try render(80, 40) { ctx, size in
            ctx.withCGContext { cg in
                badge(cg, at: CGPoint(x: 20, y: 20))
                badge(cg, at: CGPoint(x: 60, y: 20))
                cg.setStrokeColor(red: 0, green: 0, blue: 1, alpha: 1)
                cg.strokeLineSegments(between: [CGPoint(x: 0, y: 38), CGPoint(x: 80, y: 38), CGPoint(x: 40, y: 0)])
                cg.strokeEllipse(in: CGRect(x: 36, y: 16, width: 8, height: 8))
            }
        }
        // The fill: 3/4 of a disc, the quarter from −90° to 0° (up-right on screen) left out.
        assertPixel(img, 14, 26, PixelRGBA8(r: 255, g: 204, b: 0, a: 255))
        assertPixel(img, 26, 14, Self.clear)
        assertPixel(img, 54, 26, PixelRGBA8(r: 255, g: 204, b: 0, a: 255))
        // The outline, 2 wide, along the left edge of the disc (x = 8 at the centre line).
        assertPixel(img, 8, 20, Self.black)
        // The segment along y = 38 (pixels 37.5–38.5: half of rows 37 and 38); the odd point is ignored.
        assertPixel(img, 40, 37, PixelRGBA8(r: 0, g: 0, b: 128, a: 128))
        assertPixel(img, 40, 2, Self.clear)
        // The stroked ellipse's left edge at x = 36.
        XCTAssertGreaterThan(img.pixel(x: 36, y: 20).b, 100)
    }

    /// An empty `withCGContext` body records nothing; a CGContext kept past the closure draws nothing.
    func testEmptyBodyAndEscapedContext() {
        nonisolated(unsafe) var kept: CGContext?
        let r = Recording(size: CGSize(width: 10, height: 10)) { ctx, _ in
            ctx.withCGContext { _ in }
            ctx.withCGContext { kept = $0 }
            kept?.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        }
        XCTAssertEqual(r.drawCount, 0)
    }
}
