import Foundation
import PagedotsCore
import PagedotsDecode
import Testing
import TestSupport
@testable import PagedotsService

/// The page at `/`: self-contained, allowed to run by its own CSP, with a
/// control for every parameter of the table and live examples of every style.
/// (What it does in a browser is checked by `scripts/check-page`.)
@Suite struct BuilderPageTests {
    let html = BuilderPage.html
    /// The page without its script (whose strings hold snippets of HTML).
    var markup: String {
        html.replacingOccurrences(of: #"<script>[\s\S]*</script>"#, with: "", options: .regularExpression)
    }

    /// Every match of a regular expression's first group.
    func captures(_ pattern: String, in text: String) throws -> [String] {
        let expression = try NSRegularExpression(pattern: pattern)
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
            Range($0.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func hasAControlForEveryParameter() throws {
        let light = try captures(#"<(?:input|select) id="p-([a-z]+)""#, in: markup)
        #expect(light.sorted() == Parameter.all.map(\.name.rawValue).sorted())
        for parameter in Parameter.all {
            #expect(html.contains("data-default=\"\(parameter.defaultText)\""), "\(parameter.name)")
        }
    }

    @Test func eachControlSaysWhenItsParameterIsUsed() throws {
        let boxes = try captures(#"<div class="field[^"]*" ([^>]*)><label for="p-transition""#, in: markup)
        #expect(boxes == [#"data-styles="dots pill bar scroll progress fraction" data-formats="gif apng" data-effects="slide worm fade""#])
        #expect(html.contains("use.effects.split(' ').includes(text('effect') || 'slide')"))
    }

    @Test func everyControlIsPlacedInOneGroup() {
        let groups = Set(ParameterName.allCases.map(BuilderPage.group(of:)))
        #expect(groups == Set(BuilderPage.Group.allCases))
    }

    @Test func theInitialValuesAndTheExamplesAreValid() throws {
        let initial = BuilderPage.initialValues.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: "&")
        #expect(throws: Never.self) { try IndicatorQuery.parse(query: Substring(initial)) }
        for query in Style.allCases.map(BuilderPage.example(of:)) + Shape.allCases.map(BuilderPage.example(of:)) {
            #expect(throws: Never.self, "\(query)") { try IndicatorQuery.parse(query: Substring(query)) }
        }
    }

    @Test func theGalleryShowsEveryStyleAndShape() {
        for style in Style.allCases {
            #expect(html.contains("alt=\"style=\(style.rawValue)\""))
        }
        for shape in Shape.allCases {
            #expect(html.contains("alt=\"shape=\(shape.rawValue)\""))
        }
    }

    @Test func isSelfContained() throws {
        let links = try captures(#"(?:src|href|srcset)="([^"]*)""#, in: markup)
        #expect(!links.isEmpty)
        for link in links {
            #expect(link.hasPrefix("/"), "\(link)")
            #expect(!link.hasPrefix("//"), "\(link)")
        }
        // The CSP allows only the hashed <script> and <style>: no inline handlers or style attributes.
        #expect(try captures(#"\s(on[a-z]+|style)="#, in: markup).isEmpty)
        #expect(html.components(separatedBy: "<script").count == 2)
        #expect(html.components(separatedBy: "<style").count == 2)
    }

    @Test func cspHashesAreThoseOfTheInlineScriptAndStyle() throws {
        // The SHA-256 of the empty string, as CSP spells it.
        #expect(BuilderPage.sha256Source("") == "sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        let script = try #require(try captures(#"<script>([\s\S]*?)</script>"#, in: html).first)
        let style = try #require(try captures(#"<style>([\s\S]*?)</style>"#, in: html).first)
        #expect(BuilderPage.contentSecurityPolicy.contains("script-src '\(BuilderPage.sha256Source(script))'"))
        #expect(BuilderPage.contentSecurityPolicy.contains("style-src '\(BuilderPage.sha256Source(style))'"))
        #expect(BuilderPage.contentSecurityPolicy.hasPrefix("default-src 'none'; img-src 'self' blob:; connect-src 'self'"))
    }

    @Test func servedWithItsHeadersAndEveryExampleImageIsServed() throws {
        let server = try ServerProcess()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("/")
        let page = try client.readResponse()
        #expect(page.status == 200)
        #expect(page.header("content-type") == "text/html; charset=utf-8")
        #expect(page.header("content-security-policy") == BuilderPage.contentSecurityPolicy)
        #expect(page.header("cache-control") == BuilderPage.cacheControl)
        #expect(page.text == html)
        let sources = try captures(#"<img src="([^"]*)""#, in: markup).map { $0.replacingOccurrences(of: "&amp;", with: "&") }
        #expect(sources.count == Style.allCases.count + Shape.allCases.count)
        for source in sources {
            client.request(source)
            let image = try client.readResponse()
            #expect(image.status == 200, "\(source)")
            #expect(image.header("content-type") == "image/png", "\(source)")
        }
    }

    @Test func theThemeControlsComeFromTheTableAndEveryThemeHasASnippet() throws {
        let theme = try #require(try captures(#"<fieldset><legend>Theme</legend>([\s\S]*?)</fieldset>"#, in: markup).first)
        #expect(try captures(#"<(?:input|select) id="p-([a-z]+)""#, in: theme) == ["theme", "darkcolor", "darkinactive", "darkbg"])
        #expect(theme.contains(#"<option value="auto">auto</option>"#))
        for id in ["preview", "preview-dark", "img-snippet", "picture-snippet", "github-snippet", "auto-url"] {
            #expect(markup.contains("id=\"\(id)\""), "\(id)")
        }
        #expect(html.contains("'#gh-light-mode-only'") && html.contains("'#gh-dark-mode-only'"))
        #expect(html.contains("themed('auto', 'svg')"))
    }

    @Test func theAnimationControlsHaveAGroupOfTheirOwnAndTheEmailSnippetANote() throws {
        let group = try #require(try captures(#"<fieldset><legend>Animation</legend>([\s\S]*?)</fieldset>"#, in: markup).first)
        let names = try captures(#"<(?:input|select) id="p-([a-z]+)""#, in: group)
        #expect(names == ["dwell", "transition", "effect", "loop", "fps", "matte"])
        // Only animated formats use them, so the script hides the whole group for PNG and SVG.
        for parameter in Parameter.all where names.contains(parameter.name.rawValue) {
            #expect(parameter.use.formats?.allSatisfy(\.isAnimated) == true, "\(parameter.name)")
        }
        #expect(html.contains("set.hidden = [...set.querySelectorAll('.field')].every((box) => box.hidden);"))
        #expect(markup.contains(#"<div id="animation-note" class="note" data-formats="gif apng" hidden>"#))
        #expect(markup.contains("Outlook for Windows shows only the first frame"))
        #expect(markup.contains("<code>dwell</code> = the carousel's time per slide"))
    }

    /// The Carousel section's markup.
    func carouselSection() throws -> String {
        try #require(try captures(#"<section id="carousel"[^>]*>([\s\S]*?)</section>"#, in: markup).first)
    }

    @Test("The Carousel section: slide files or a carousel GIF, or their URLs, the carousel's options, shown from a blob: URL")
    func theCarouselSection() throws {
        let section = try carouselSection()
        #expect(section.contains(#"<input id="c-carousel" type="file" accept="image/gif">"#))
        // Files or URLs: a choice of two, whose boxes the script shows; the URLs' start hidden.
        #expect(section.contains(#"<input type="radio" name="c-from" id="c-from-files" value="files" checked>"#))
        #expect(section.contains(#"<input type="radio" name="c-from" id="c-from-urls" value="urls">"#))
        #expect(try captures(#"<div class="field[^"]*" data-from="urls" hidden><label for="([a-z-]+)""#, in: section) == ["c-urls", "c-carousel-url"])
        #expect(section.contains(#"<textarea id="c-urls" rows="4" spellcheck="false""#))
        // The table's Carousel group, with "fit under" before the budget, then the carousel's format; none in the builder's form.
        let options = try captures(#"<(?:input|select) id="([pc]-[a-z]+)""#, in: section)
            .filter { !["c-slides", "c-carousel", "c-budgeted"].contains($0) }
        let carouselGroup = Parameter.all.filter { BuilderPage.group(of: $0.name) == .carousel }.map(\.name.rawValue)
        #expect(carouselGroup == ["change", "place", "inset", "backdrop", "fit", "slidesize", "budget"])
        #expect(options == carouselGroup.map { "p-" + $0 } + ["c-format"])
        let builder = try #require(try captures(#"<form id="builder"[^>]*>([\s\S]*?)</form>"#, in: markup).first)
        #expect(carouselGroup.allSatisfy { !builder.contains("id=\"p-\($0)\"") })
        #expect(section.contains(#"<option value="fade">fade</option><option value="push">push</option><option value="cut" selected>cut</option>"#))
        for id in ["c-make", "c-result", "c-status", "c-error", "c-size", "c-points", "c-encoding", "c-download", "c-img-snippet", "c-img-note", "c-curl"] {
            #expect(section.contains("id=\"\(id)\""), "\(id)")
        }
        #expect(html.contains("fetch(request.path, request.init)"))
        #expect(html.contains("path, init: { method: 'POST', body }"))
        #expect(html.contains("URL.createObjectURL(blob)"))
        // blob: for images only; fetch() stays same-origin.
        let sources = BuilderPage.contentSecurityPolicy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(sources.filter { $0.contains("blob:") } == ["img-src 'self' blob:"])
        #expect(sources.contains("connect-src 'self'"))
    }

    @Test("Slide files take every format the decoders read, named from ImageKind, never by hand")
    func theSlideFormatsComeFromImageKind() throws {
        let section = try carouselSection()
        #expect(section.contains("<input id=\"c-slides\" type=\"file\" accept=\"\(ImageKind.acceptHeader)\" multiple>"))
        #expect(ImageKind.acceptHeader.split(separator: ",").count == ImageKind.allCases.count)
        let hints = try captures(#"<small>([^<]*)</small>"#, in: section).filter { $0.contains("JPEG") }
        #expect(hints == ["2 to 20 \(ImageKind.allNames) files, in order", "2 to 20, one per line, in order, each a \(ImageKind.allNames) image"])
        #expect(ImageKind.allCases.allSatisfy { ImageKind.allNames.contains($0.name) })
        #expect(!html.contains("PNG, JPEG or GIF"))
    }

    @Test("\"fit under 1 MB\" is ticked, before a budget of 1M; slidesize and budget show an example of their syntax")
    func theBudgetIsTickedAndTheSizesShowTheirSyntax() throws {
        let section = try carouselSection()
        let budgetField = try #require(try captures(#"(<div class="field"[^>]*><label for="p-budget">[\s\S]*?</div>)"#, in: section).first)
        #expect(budgetField.contains(#"value="1M" placeholder="e.g. 1M or 750k">"#))
        #expect(section.contains(#"<input id="c-budgeted" type="checkbox" checked><span>fit under <span id="c-budget-words"></span></span>"#))
        let tick = try #require(section.range(of: "id=\"c-budgeted\""))
        let budget = try #require(section.range(of: "id=\"p-budget\""))
        #expect(tick.lowerBound < budget.lowerBound)
        // The budget goes into the query only while ticked, for a GIF (the service refuses it with APNG).
        #expect(html.contains("const budgetUsed = () => budgeted.checked && $('c-format').value === 'gif';"))
        #expect(html.contains(".filter((field) => (field.name !== 'budget' || budgetUsed())"))
        let slidesize = try #require(try captures(#"(<div class="field"[^>]*><label for="p-slidesize">[\s\S]*?</div>)"#, in: section).first)
        #expect(slidesize.contains(#"type="text" spellcheck="false" value="" placeholder="e.g. 600x300">"#))
        #expect(slidesize.contains("(points); by default the first slide&#39;s size, scaled down to at most 600 points wide</small>"))
    }

    @Test("Slide URLs make the GET URL, percent-encoded in order, which is also the <img>'s src; the size comes from X-Carousel-Size")
    func slideURLsMakeTheGetURLAndTheSnippet() {
        #expect(html.contains("const sourceURL = (url) => encodeURIComponent(url).replace(/'/g, '%27');"))
        #expect(html.contains("slides.map((url) => 'slide=' + sourceURL(url))"))
        #expect(html.contains("const path = '/carousel.' + format + '?' + sources.concat(carouselQuery(format, Boolean(gif))).join('&');"))
        #expect(html.contains("src: absolute(path),"))
        #expect(html.contains("src: 'https://your-host.example/' + carouselFileName(format),"))
        #expect(html.contains("response.headers.get('x-carousel-size')"))
        #expect(html.contains("points.split('x').map((side) => Math.round(Number(side)))"))
        #expect(html.contains("response.headers.get('x-carousel-encoding')"))
    }
}
