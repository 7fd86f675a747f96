import HTTPServer
import PagedotsCore

/// The HTML page served at `/`: a gallery of the styles (live images from
/// this service) and a builder whose controls are made from the parameter
/// table, with live previews in the light and the dark theme (animated for
/// GIF and APNG), and the URL,
/// `<img>`, `<picture>`, GitHub README and `theme=auto` SVG snippets to copy. One self-contained document, made once at start-up: its only
/// script and style are inline, allowed by their hashes in the
/// `Content-Security-Policy`, and everything else it loads is same-origin.
enum BuilderPage {
    /// The page changes only with a new version: caches may keep it a while.
    static let cacheControl = "public, max-age=300"

    /// The whole document.
    static let html: String = document(style: stylesheet, script: pageScript)

    /// The builder's script, then the carousel section's.
    private static let pageScript = script + carouselScript

    /// Nothing but this origin, and only this page's own script and style;
    /// `blob:` images for the carousel the page made (fetched from this origin).
    static let contentSecurityPolicy = [
        "default-src 'none'",
        "img-src 'self' blob:",
        "connect-src 'self'",
        "script-src '\(sha256Source(pageScript))'",
        "style-src '\(sha256Source(stylesheet))'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The `200` that serves the page.
    static var response: HTTPResponse {
        HTTPResponse(
            status: 200,
            headers: [
                HTTPHeaderField("Content-Type", "text/html; charset=utf-8"),
                HTTPHeaderField("Cache-Control", cacheControl),
                HTTPHeaderField("Content-Security-Policy", contentSecurityPolicy),
                HTTPHeaderField("X-Content-Type-Options", "nosniff"),
                HTTPHeaderField("Referrer-Policy", "no-referrer"),
            ],
            body: Array(html.utf8),
            label: Route.page.rawValue
        )
    }

    /// The query the builder starts from (the README's first example): the controls'
    /// first values, where they differ from the defaults.
    static let initialValues: [ParameterName: String] = [.pages: "5", .current: "2", .style: "pill", .scale: "2"]

    private static func document(style: String, script: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pagedots: page indicator images</title>
        <link rel="icon" href="/indicator.svg?pages=3&amp;current=1&amp;size=10&amp;spacing=3&amp;padding=1">
        <style>\(style)</style>
        </head>
        <body>
        <header>
        <h1>pagedots</h1>
        <p>Page indicators (the dots under a carousel) as images from a URL, for <code>&lt;img&gt;</code> tags in web pages and HTML email. Pick a style, set the parameters, copy the snippet.</p>
        <nav><a href="/openapi.json">OpenAPI</a> · <a href="/metrics">metrics</a> · <a href="/healthz">health</a></nav>
        </header>
        <main>
        \(gallery)
        <section id="build" aria-labelledby="build-title">
        <h2 id="build-title">Builder</h2>
        <div class="builder">
        <form id="builder" autocomplete="off">
        \(controls)
        </form>
        <div class="result">
        <div class="previews">
        <figure class="preview light"><img id="preview" alt="Preview" hidden><figcaption>light</figcaption></figure>
        <figure class="preview dark"><img id="preview-dark" alt="Dark-mode preview" hidden><figcaption>dark</figcaption></figure>
        </div>
        <p id="size" aria-live="polite">Drawing…</p>
        <p id="error" role="alert" hidden></p>
        \(output("url", "URL", rows: 3, hint: "the image itself; add it to any <img> or CSS"))
        \(output("img-snippet", "<img> for email", rows: 4, hint: "width and height in CSS pixels, so a 2x image shows at its size in Outlook"))
        \(animationNote)
        \(output("picture-snippet", "<picture> for the web: light and dark", rows: 8, hint: "the dark image where the viewer's colour scheme is dark; clients that do not know prefers-color-scheme show the <img>"))
        \(output("github-snippet", "GitHub README: light and dark", rows: 7, hint: "GitHub shows the #gh-light-mode-only image in its light theme and the #gh-dark-mode-only one in its dark theme"))
        \(output("auto-url", "SVG that follows the colour scheme", rows: 3, hint: "theme=auto: one SVG that switches to the dark colours itself (not for email: Gmail and Outlook show no SVG)"))
        </div>
        </div>
        </section>
        \(carouselSection)
        </main>
        <script>\(script)</script>
        </body>
        </html>

        """
    }

    /// Beside the `<img>` snippet while an animated format is chosen (the
    /// script shows it for the formats in `data-formats`): what email
    /// clients that do not play it show, and how to keep in step with a
    /// carousel GIF (docs/animation.md).
    static var animationNote: String {
        let formats = ImageFormat.allCases.filter(\.isAnimated).map(\.rawValue).joined(separator: " ")
        return """
        <div id="animation-note" class="note" data-formats="\(formats)" hidden>\
        <p>Outlook for Windows shows only the first frame: the still image of page <span data-page></span>, \
        so the indicator is right there too. APNG plays in fewer clients than GIF: Gmail on the web and on Android \
        show its first frame.</p>\
        <p>In step with a carousel GIF: the same number of pages, <code>dwell</code> = the carousel's time per slide \
        (ms), and <code>current</code> = the slide it starts on. Both start when the email opens, and every cycle \
        lasts pages × dwell.</p></div>
        """
    }

    /// A read-only text to copy, with its label and button.
    static func output(_ id: String, _ label: String, rows: Int, hint: String) -> String {
        """
        <div class="output"><div class="head"><label for="\(id)">\(label.escapedForHTML)</label>\
        <button type="button" data-copy="\(id)">Copy</button></div><small>\(hint.escapedForHTML)</small>
        <textarea id="\(id)" rows="\(rows)" readonly spellcheck="false"></textarea></div>
        """
    }

    /// `sha256-<base64>` of a script or style, as CSP writes a hash source.
    static func sha256Source(_ text: String) -> String {
        let digest = Digest.sha256(Array(text.utf8))
        // Standard base64 is base64url with two other letters, padded.
        var base64 = String(Base64URL.encode(digest).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return "sha256-" + base64
    }
}

extension String {
    /// The text with `&`, `<`, `>`, `"` and `'` written as character references.
    var escapedForHTML: String {
        var text = ""
        for character in self {
            switch character {
            case "&": text += "&amp;"
            case "<": text += "&lt;"
            case ">": text += "&gt;"
            case "\"": text += "&quot;"
            case "'": text += "&#39;"
            default: text.append(character)
            }
        }
        return text
    }
}
