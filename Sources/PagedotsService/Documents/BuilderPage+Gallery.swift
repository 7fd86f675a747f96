import PagedotsCore

/// The gallery at the top of the page: every style and every shape, drawn
/// live by this service. A click loads the example into the builder.
extension BuilderPage {
    /// An example query that shows what a style is for.
    static func example(of style: Style) -> String {
        switch style {
        case .dots: "pages=5&current=2"
        case .pill: "pages=5&current=2&style=pill"
        case .bar: "pages=3&current=1&style=bar&labels=Home,Feed,Profile"
        case .scroll: "pages=20&current=9&style=scroll"
        case .progress: "pages=5&current=2&style=progress&progress=0.6"
        }
    }

    /// An example query for a shape.
    static func example(of shape: Shape) -> String {
        "pages=5&current=2&shape=\(shape.rawValue)&size=10&color=FF2D55"
    }

    static var gallery: String {
        let styles = Style.allCases.map { figure(query: example(of: $0), caption: "style=\($0.rawValue)") }
        let shapes = Shape.allCases.map { figure(query: example(of: $0), caption: "shape=\($0.rawValue)") }
        return """
        <section id="gallery" aria-labelledby="gallery-title">
        <h2 id="gallery-title">Styles</h2>
        <div class="gallery">\(styles.joined())</div>
        <h2>Shapes</h2>
        <div class="gallery">\(shapes.joined())</div>
        </section>
        """
    }

    /// A live example: the 1x image, with the 2x and 3x ones for sharper screens.
    private static func figure(query: String, caption: String) -> String {
        let source = "/indicator?" + query
        let sources = (2...3).map { "\(source)&scale=\($0) \($0)x" }.joined(separator: ", ")
        return """
        <figure><button type="button" class="use" data-query="\(query.escapedForHTML)" title="Open in the builder">\
        <img src="\(source.escapedForHTML)" srcset="\(sources.escapedForHTML)" alt="\(caption)"></button>\
        <figcaption><code>\(caption)</code></figcaption></figure>
        """
    }
}
