/// Maps the row coordinates in which every style is laid out to the canvas.
///
/// A style lays its row out left to right: `u` runs along the row (x of the
/// `ltr` image), `v` across it (y of the `ltr` image). The transform then
/// applies `direction` (`rtl` mirrors `u`, `ttb` swaps the axes, `btt` swaps
/// them and mirrors `u`) and moves the row into the centre of the canvas.
/// It maps boxes, not outlines: shapes are then built upright in the mapped
/// boxes, so a star or a heart is never turned or mirrored.
struct DirectionTransform {
    let direction: Direction
    /// The row's length along `u`, padding included.
    let rowLength: Double
    /// Where the row's top-left corner lands on the canvas.
    let origin: Point

    /// The canvas box of a box given in row coordinates (`x` along, `y` across the row).
    func rect(_ row: Rect) -> Rect {
        let mirroredU = rowLength - row.x - row.width
        switch direction {
        case .ltr:
            return Rect(x: origin.x + row.x, y: origin.y + row.y, width: row.width, height: row.height)
        case .rtl:
            return Rect(x: origin.x + mirroredU, y: origin.y + row.y, width: row.width, height: row.height)
        case .ttb:
            return Rect(x: origin.x + row.y, y: origin.y + row.x, width: row.height, height: row.width)
        case .btt:
            return Rect(x: origin.x + row.y, y: origin.y + mirroredU, width: row.height, height: row.width)
        }
    }
}
