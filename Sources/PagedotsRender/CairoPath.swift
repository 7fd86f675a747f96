import CCairo
import PagedotsCore

/// Moves paths between `PagedotsCore.Path` and a Cairo context.
enum CairoPath {
    /// Path coordinates are drawn rounded to 1/100 point, the precision the
    /// SVG writes, so that the PNG and the SVG give the same outlines (Cairo
    /// samples coverage on a grid, and a shift of 1/200 point can move an
    /// edge pixel by a whole step of it).
    static let decimals = 2
    /// 10 to the power `decimals`: derived, so the PNG and the SVG cannot round differently.
    private static let resolution = (0..<decimals).reduce(1.0) { power, _ in power * 10 }

    /// `value` at the precision of the drawn paths.
    static func rounded(_ value: Double) -> Double {
        hundredths(value) / resolution
    }

    /// `value` in whole steps of the drawn paths' precision (1/100 point).
    static func hundredths(_ value: Double) -> Double {
        (value * resolution).rounded()
    }

    /// Replaces the context's current path with `path`, rounded to 1/100 point.
    static func set(_ path: PagedotsCore.Path, on context: OpaquePointer) {
        cairo_new_path(context)
        func r(_ value: Double) -> Double { rounded(value) }
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(context, r(p.x), r(p.y))
            case .line(let p): cairo_line_to(context, r(p.x), r(p.y))
            case .curve(let c1, let c2, let p): cairo_curve_to(context, r(c1.x), r(c1.y), r(c2.x), r(c2.y), r(p.x), r(p.y))
            case .close: cairo_close_path(context)
            }
        }
    }

    /// The context's current path, in user space, without the moves that
    /// start no segment (Cairo puts one after every `close`): they draw nothing.
    static func copy(from context: OpaquePointer) -> PagedotsCore.Path {
        guard let copied = cairo_copy_path(context) else { return PagedotsCore.Path() }
        defer { cairo_path_destroy(copied) }
        let cairoPath = copied.pointee
        guard cairoPath.status == CAIRO_STATUS_SUCCESS, let data = cairoPath.data else { return PagedotsCore.Path() }
        var elements: [PathElement] = []
        var index = 0
        while index < Int(cairoPath.num_data) {
            let header = data[index].header
            func point(_ offset: Int) -> Point { Point(x: data[index + offset].point.x, y: data[index + offset].point.y) }
            if case .move? = elements.last, header.type == CAIRO_PATH_MOVE_TO {
                elements.removeLast()
            }
            switch header.type {
            case CAIRO_PATH_MOVE_TO: elements.append(.move(point(1)))
            case CAIRO_PATH_LINE_TO: elements.append(.line(point(1)))
            case CAIRO_PATH_CURVE_TO: elements.append(.curve(point(1), point(2), point(3)))
            default: elements.append(.close)
            }
            index += Int(header.length)
        }
        if case .move? = elements.last { elements.removeLast() }
        return PagedotsCore.Path(elements)
    }
}
