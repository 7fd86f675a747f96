extension IndicatorSpec {
    /// A canonical text of every field, the same for equal specs and
    /// different for different ones: the cache's key (and the ETag's source).
    ///
    /// `v1;png;dots;p5;c2;007affff;007aff4d;00000000;s8;g8;m4;x1;ltr;solid;k1;circle;w-;h-;v7;r0.5;l-`:
    /// colours as `rrggbbaa`, lengths in their shortest decimal form (`7.50`
    /// and `7.5` agree), `-` for an absent `width`, `height` or `labels`, and
    /// labels as `<UTF-8 byte count>:<text>` each, so no text can be mistaken
    /// for a separator. Bump the version when the drawing of a spec changes.
    public var cacheKey: String {
        var key: [UInt8] = Array("v1".utf8)
        key.reserveCapacity(128)
        func field(_ text: String) {
            key.append(UInt8(ascii: ";"))
            key.append(contentsOf: text.utf8)
        }
        field(format.rawValue)
        field(style.rawValue)
        field("p\(pages)")
        field("c\(current)")
        field(color.hex)
        field(inactive.hex)
        field(background.hex)
        field("s" + DecimalText.format(size))
        field("g" + DecimalText.format(spacing))
        field("m" + DecimalText.format(padding))
        field("x\(scale)")
        field(direction.rawValue)
        field(fill.rawValue)
        field("k" + DecimalText.format(stroke))
        field(shape.rawValue)
        field("w" + (width.map(DecimalText.format) ?? "-"))
        field("h" + (height.map(DecimalText.format) ?? "-"))
        field("v\(visible)")
        field("r" + DecimalText.format(progress))
        field("l" + (labels == nil ? "-" : ""))
        for label in labels ?? [] {
            key.append(contentsOf: "\(label.utf8.count):".utf8)
            key.append(contentsOf: label.utf8)
        }
        return String(decoding: key, as: UTF8.self)
    }
}
