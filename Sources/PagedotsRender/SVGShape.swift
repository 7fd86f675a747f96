import PagedotsCore

/// An element that outlines a path: `<circle>`, `<ellipse>` or `<rect>` where
/// the path was built as one (`Path.primitive`), otherwise `<path>`. Edges are
/// rounded to 1/100 point as the PNG rounds the path's points, and what is
/// worked out from them (a centre, a radius, a ring's centre line) is written
/// exactly, in thousandths at most.
struct SVGShape: Hashable, Sendable {
    var tag: String
    /// The geometry attributes, each with a leading space.
    var geometry: String

    /// How to draw a filled path: fill an outline, or stroke a centre line
    /// (a ring `w` wide inside a circle or rounded rectangle is a line `w`
    /// wide centred `w/2` inside its edge).
    enum Filling: Hashable, Sendable {
        case fill(SVGShape)
        case stroke(SVGShape, width: String)
    }

    /// The element that draws `path` filled.
    static func filling(_ path: Path) -> Filling {
        if case .ring(let outline, let width)? = path.primitive, let ring = ring(inside: outline, width: width) {
            return ring
        }
        return .fill(outline(of: path))
    }

    /// The element whose outline is `path`'s (to stroke or clip with).
    static func outline(of path: Path) -> SVGShape {
        switch path.primitive {
        case .ellipse(let rect)?:
            return ellipse(Box(rect))
        case .roundedRect(let box, let radius)?:
            return rect(Box(box), radius: SVGNumber.units(radius, decimals: SVGNumber.shapeDecimals))
        case .ring?, nil:
            return SVGShape(tag: "path", geometry: " d=\"\(SVGPathData.data(for: path))\"")
        }
    }

    /// A box in thousandths of a point, its edges at whole hundredths.
    private struct Box {
        var left, top, right, bottom: Int

        init(left: Int, top: Int, right: Int, bottom: Int) {
            (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        }

        init(_ rect: Rect) {
            func edge(_ value: Double) -> Int { SVGNumber.units(value) * 10 }
            self.init(left: edge(rect.x), top: edge(rect.y), right: edge(rect.x + rect.width), bottom: edge(rect.y + rect.height))
        }

        var width: Int { right - left }
        var height: Int { bottom - top }

        func insetBy(_ inset: Int) -> Box {
            Box(left: left + inset, top: top + inset, right: right - inset, bottom: bottom - inset)
        }
    }

    /// ` name="value"` for a length in thousandths; nothing when it is 0 and 0 is the default.
    private static func attribute(_ name: String, _ thousandths: Int, omitZero: Bool = true) -> String {
        thousandths == 0 && omitZero ? "" : " \(name)=\"\(SVGNumber.text(units: thousandths, decimals: SVGNumber.shapeDecimals))\""
    }

    private static func ellipse(_ box: Box) -> SVGShape {
        let centre = attribute("cx", (box.left + box.right) / 2) + attribute("cy", (box.top + box.bottom) / 2)
        if box.width == box.height {
            return SVGShape(tag: "circle", geometry: centre + attribute("r", box.width / 2, omitZero: false))
        }
        return SVGShape(tag: "ellipse", geometry: centre + attribute("rx", box.width / 2, omitZero: false) + attribute("ry", box.height / 2, omitZero: false))
    }

    private static func rect(_ box: Box, radius: Int) -> SVGShape {
        let geometry = attribute("x", box.left) + attribute("y", box.top)
            + attribute("width", box.width, omitZero: false) + attribute("height", box.height, omitZero: false)
            + attribute("rx", max(radius, 0))
        return SVGShape(tag: "rect", geometry: geometry)
    }

    /// The stroke that draws the ring `width` wide inside `outline`, or nil
    /// where it would not be exact (an ellipse that is not a circle).
    private static func ring(inside outline: PathPrimitive, width: Double) -> Filling? {
        let lineWidth = SVGNumber.units(width) * 10
        let half = lineWidth / 2
        let strokeWidth = SVGNumber.text(units: lineWidth, decimals: SVGNumber.shapeDecimals)
        switch outline {
        case .ellipse(let rect):
            let box = Box(rect)
            guard box.width == box.height, box.width > 2 * lineWidth else { return nil }
            return .stroke(ellipse(box.insetBy(half)), width: strokeWidth)
        case .roundedRect(let rect, let radius):
            let box = Box(rect)
            guard min(box.width, box.height) > 2 * lineWidth else { return nil }
            let inner = SVGNumber.units(radius, decimals: SVGNumber.shapeDecimals) - half
            return .stroke(self.rect(box.insetBy(half), radius: inner), width: strokeWidth)
        case .ring:
            return nil
        }
    }
}
