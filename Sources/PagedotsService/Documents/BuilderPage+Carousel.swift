import PagedotsCore

/// The builder's Carousel section (docs/carousel.md): the slide files (or
/// one carousel GIF), the carousel's own options, and the indicator of the
/// builder above; the script posts them as a form to `/carousel.gif` (or
/// `.apng`) and plays the answer from a `blob:` URL, with its size in bytes
/// and a link that downloads it.
extension BuilderPage {
    /// The carousel's output format, beside its own parameters (the
    /// builder's `format` is the indicator's, which may be a still one).
    static let carouselFormat = """
        <div class="field"><label for="c-format">format</label><select id="c-format">\
        <option value="gif" selected>gif</option><option value="apng">apng</option></select>\
        <small>GIF plays in every email client that animates; APNG keeps full colour</small></div>
        """

    /// The section: the files, the options, the button, and where the result shows.
    static var carouselSection: String {
        """
        <section id="carousel" aria-labelledby="carousel-title">
        <h2 id="carousel-title">Carousel</h2>
        <p class="lead">The slides and their indicator in one GIF, in step by construction: pick the slides, \
        and the service draws the indicator set in the builder above over them (choose GIF or APNG there to set \
        <code>dwell</code>, <code>transition</code> and <code>effect</code>). Nothing is kept: the result is yours to host.</p>
        <div class="builder">
        <form id="carousel-form" autocomplete="off" novalidate>
        <fieldset><legend>Slides</legend>
        <div class="field"><label for="c-slides">slides</label><input id="c-slides" type="file" accept="image/png,image/jpeg,image/gif" multiple>\
        <small>2 to 20 PNG, JPEG or GIF files, in order; the carousel is the first one's size</small></div>
        <div class="field"><label for="c-carousel">carousel</label><input id="c-carousel" type="file" accept="image/gif">\
        <small>or one animated GIF made elsewhere: its frames and timing are kept, split into the builder's pages</small></div>
        </fieldset>
        <fieldset><legend>Carousel</legend>
        \((Parameter.all.filter { group(of: $0.name) == .carousel }.map(field(for:)) + [carouselFormat]).joined(separator: "\n"))
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

    /// The section's script, run after the builder's (whose `query`, `text`,
    /// `themed` and `$` it uses): the carousel's query is the builder's
    /// indicator, without what a carousel takes from its slides (`pages`,
    /// unless a carousel GIF is sent) or cannot have (a calendar, `theme=auto`,
    /// a still format), at `scale` 2 unless set, then the options that differ
    /// from their defaults.
    static let carouselScript = #"""

    const carouselForm = $('carousel-form');
    const carouselFields = [...carouselForm.querySelectorAll('[data-param]')];
    let carouselBlob = null;
    function carouselQuery(format, withCarouselGIF) {
      const theme = text('theme') === 'dark' ? 'dark' : 'light';
      const dropped = new Set(['format', 'start', 'every', 'tz', 'scale'].concat(withCarouselGIF ? [] : ['pages']));
      const indicator = query(themed(theme, format)).split('&')
        .filter((pair) => pair !== '' && !dropped.has(pair.split('=')[0]));
      const own = carouselFields.filter((field) => field.value.trim() !== '' && field.value.trim() !== field.dataset.default)
        .map((field) => field.name + '=' + encoded(field, field.value.trim()));
      return indicator.concat(['scale=' + (text('scale') || '2')], own).join('&');
    }
    function carouselFailed(message) {
      $('c-error').textContent = message;
      $('c-error').hidden = false;
      $('c-size').textContent = '';
    }
    // The colour picker beside backdrop writes into its text, and starts from it.
    for (const picker of carouselForm.querySelectorAll('[data-picker-for]')) picker.value = pickerColor($(picker.dataset.pickerFor).value);
    carouselForm.addEventListener('input', (event) => {
      const target = event.target;
      if ('pickerFor' in target.dataset) $(target.dataset.pickerFor).value = target.value.slice(1).toUpperCase();
    });
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
