import PagedotsCore

/// The builder's Carousel section (docs/carousel.md): the slide files (or
/// one carousel GIF), the carousel's own options, and the indicator of the
/// builder above; the script posts them as a form to `/carousel.gif` (or
/// `.apng`) and plays the answer from a `blob:` URL, with its size in bytes
/// and a link that downloads it.
extension BuilderPage {
    /// One of the carousel's own controls: `change`, `place`, `inset`, `backdrop`, `fit`.
    struct CarouselOption {
        enum Kind {
            case choice([String])
            case decimal(ClosedRange<Int>)
            case color
        }

        var name: String
        var kind: Kind
        var initial: String
        var hint: String
    }

    /// The carousel's options as SPEC.md's "Carousels" lists them, with the
    /// service's defaults, and the output format.
    static let carouselOptions: [CarouselOption] = [
        CarouselOption(name: "change", kind: .choice(["cut", "fade", "push"]), initial: "cut",
                       hint: "how one slide gives way to the next during transition; fade and push cost a whole frame per step"),
        CarouselOption(name: "place", kind: .choice(["over", "below", "above"]), initial: "over",
                       hint: "the indicator over the slides, or in a band of its own below or above them"),
        CarouselOption(name: "inset", kind: .decimal(0...200), initial: "12",
                       hint: "points between the indicator and the slides' edge, with place=over"),
        CarouselOption(name: "backdrop", kind: .color, initial: "transparent",
                       hint: "a capsule behind the indicator, with place=over"),
        CarouselOption(name: "fit", kind: .choice(["cover", "contain"]), initial: "cover",
                       hint: "a slide of another size than the first: cropped to cover it, or fitted inside it on matte"),
        CarouselOption(name: "format", kind: .choice(["gif", "apng"]), initial: "gif",
                       hint: "GIF plays in every email client that animates; APNG keeps full colour"),
    ]

    /// The section: the files, the options, the button, and where the result shows.
    static var carouselSection: String {
        """
        <section id="carousel" aria-labelledby="carousel-title">
        <h2 id="carousel-title">Carousel</h2>
        <p class="lead">The slides and their indicator in one GIF, in step by construction: pick the slides, \
        and the service draws the indicator set in the builder above over them (choose GIF or APNG there to set \
        <code>dwell</code>, <code>transition</code> and <code>effect</code>). Nothing is kept: the result is yours to host.</p>
        <div class="builder">
        <form id="carousel-form" autocomplete="off">
        <fieldset><legend>Slides</legend>
        <div class="field"><label for="c-slides">slides</label><input id="c-slides" type="file" accept="image/png,image/jpeg,image/gif" multiple>\
        <small>2 to 20 PNG, JPEG or GIF files, in order; the carousel is the first one's size</small></div>
        <div class="field"><label for="c-carousel">carousel</label><input id="c-carousel" type="file" accept="image/gif">\
        <small>or one animated GIF made elsewhere: its frames and timing are kept, split into the builder's pages</small></div>
        </fieldset>
        <fieldset><legend>Options</legend>
        \(carouselOptions.map(carouselField).joined(separator: "\n"))
        </fieldset>
        <button type="submit" id="c-make">Make the carousel</button>
        </form>
        <div class="result">
        <figure class="preview carousel-result"><img id="c-result" alt="The carousel" hidden><figcaption id="c-caption">no carousel yet</figcaption></figure>
        <p id="c-size" aria-live="polite"></p>
        <p id="c-error" role="alert" hidden></p>
        <p><a id="c-download" download="carousel.gif" hidden>Download the carousel</a></p>
        \(output("c-curl", "The same with curl", rows: 4, hint: "the request the page sent, with your file names"))
        </div>
        </div>
        </section>
        """
    }

    /// One labelled control of the carousel's options (`c-NAME`, `data-carousel`).
    private static func carouselField(_ option: CarouselOption) -> String {
        let common = "id=\"c-\(option.name)\" name=\"\(option.name)\" data-carousel data-default=\"\(option.initial)\""
        let control = switch option.kind {
        case .choice(let words):
            "<select \(common)>" + words.map { "<option value=\"\($0)\"\($0 == option.initial ? " selected" : "")>\($0)</option>" }.joined() + "</select>"
        case .decimal(let range):
            "<input \(common) type=\"number\" inputmode=\"decimal\" min=\"\(range.lowerBound)\" max=\"\(range.upperBound)\" step=\"any\" value=\"\(option.initial)\">"
        case .color:
            "<input \(common) data-color type=\"text\" spellcheck=\"false\" value=\"\(option.initial)\" placeholder=\"\(option.initial)\">"
        }
        return "<div class=\"field\"><label for=\"c-\(option.name)\">\(option.name)</label>\(control)<small>\(option.hint.escapedForHTML)</small></div>"
    }

    /// The section's script, run after the builder's (whose `query`, `text`,
    /// `themed` and `$` it uses): the carousel's query is the builder's
    /// indicator, without what a carousel takes from its slides (`pages`,
    /// unless a carousel GIF is sent) or cannot have (a calendar, `theme=auto`,
    /// a still format), at `scale` 2 unless set, then the options that differ
    /// from their defaults.
    static let carouselScript = #"""

    const carouselForm = $('carousel-form');
    const carouselFields = [...carouselForm.querySelectorAll('[data-carousel]')];
    let carouselBlob = null;
    function carouselQuery(format, withCarouselGIF) {
      const theme = text('theme') === 'dark' ? 'dark' : 'light';
      const dropped = new Set(['format', 'start', 'every', 'tz', 'scale'].concat(withCarouselGIF ? [] : ['pages']));
      const indicator = query(themed(theme, format)).split('&')
        .filter((pair) => pair !== '' && !dropped.has(pair.split('=')[0]));
      const own = carouselFields.filter((field) => field.name !== 'format' && field.value.trim() !== ''
        && field.value.trim() !== field.dataset.default).map((field) => field.name + '=' + encoded(field, field.value.trim()));
      return indicator.concat(['scale=' + (text('scale') || '2')], own).join('&');
    }
    function carouselFailed(message) {
      $('c-error').textContent = message;
      $('c-error').hidden = false;
      $('c-size').textContent = '';
    }
    carouselForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const gif = $('c-carousel').files[0];
      const slides = [...$('c-slides').files];
      if (!gif && slides.length < 2) return carouselFailed('Pick 2 to 20 slides, or one carousel GIF.');
      const format = $('c-format').value;
      const path = '/carousel.' + format + '?' + carouselQuery(format, Boolean(gif));
      const body = new FormData();
      if (gif) body.append('carousel', gif);
      else for (const slide of slides) body.append('slide', slide);
      const parts = gif ? ['carousel=@' + gif.name] : slides.map((slide) => 'slide=@' + slide.name);
      $('c-curl').value = 'curl ' + parts.map((part) => "-F '" + part + "'").join(' ') + " \\\n  '" + absolute(path) + "' -o carousel." + format;
      $('c-error').hidden = true;
      $('c-size').textContent = 'Drawing…';
      $('c-make').disabled = true;
      try {
        const response = await fetch(path, { method: 'POST', body });
        if (!response.ok) return carouselFailed(response.status + ': ' + (await response.text()).trim());
        const blob = await response.blob();
        if (carouselBlob) URL.revokeObjectURL(carouselBlob);
        carouselBlob = URL.createObjectURL(blob);
        const image = $('c-result');
        image.onload = () => {
          $('c-caption').textContent = image.naturalWidth + ' × ' + image.naturalHeight + ' pixels, ' + format.toUpperCase();
        };
        Object.assign(image, { src: carouselBlob, hidden: false });
        $('c-size').textContent = blob.size.toLocaleString('en-US') + ' bytes';
        Object.assign($('c-download'), { href: carouselBlob, download: 'carousel.' + (format === 'apng' ? 'png' : 'gif'), hidden: false });
      } catch {
        carouselFailed('the service did not answer');
      } finally {
        $('c-make').disabled = false;
      }
    });

    """#
}
