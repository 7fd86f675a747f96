import PagedotsCore
import PagedotsDecode

/// The builder's Carousel section (docs/carousel.md): the slides as files
/// (or one carousel GIF) or as URLs, the carousel's own options (a budget,
/// "fit under 1 MB", ticked), and the indicator of the builder above. The
/// script posts files as a form to `/carousel.gif` (or `.apng`), or makes
/// the `GET` URL of the slide URLs and fetches it; it plays the answer from
/// a `blob:` URL, with its size in bytes, its `X-Carousel-Size` and
/// `X-Carousel-Encoding`, a link that downloads it, and the `<img>` for
/// email sized from `X-Carousel-Size`.
extension BuilderPage {
    /// The first values of the carousel's own controls: fit under 1 MB
    /// (docs/carousel.md, "Carousel weight").
    static let carouselInitialValues: [ParameterName: String] = [.budget: "1M"]

    /// The carousel's output format, beside its own parameters (the
    /// builder's `format` is the indicator's, which may be a still one).
    static let carouselFormat = """
        <div class="field"><label for="c-format">format</label><select id="c-format">\
        <option value="gif" selected>gif</option><option value="apng">apng</option></select>\
        <small>GIF plays in every email client that animates; APNG keeps full colour</small></div>
        """

    /// Where the slides come from: files the page uploads (`POST`), or
    /// URLs the service fetches (`GET`); the script shows the boxes of the
    /// choice (`data-from`).
    static var slideSources: String {
        """
        <fieldset><legend>Slides</legend>
        <div class="field wide"><span class="choices" role="radiogroup" aria-label="slides from">\
        <label><input type="radio" name="c-from" id="c-from-files" value="files" checked> files, uploaded</label>\
        <label><input type="radio" name="c-from" id="c-from-urls" value="urls"> URLs, fetched by the service</label></span>\
        <small>URLs make a carousel that an email's &lt;img&gt; can point at, drawn when the email is opened \
        (from the sources the service's operator allows)</small></div>
        <div class="field" data-from="files"><label for="c-slides">slides</label>\
        <input id="c-slides" type="file" accept="\(ImageKind.acceptHeader)" multiple>\
        <small>2 to 20 \(ImageKind.allNames) files, in order</small></div>
        <div class="field" data-from="files"><label for="c-carousel">carousel</label><input id="c-carousel" type="file" accept="image/gif">\
        <small>or one animated GIF made elsewhere: its frames and timing are kept, split into the builder's pages</small></div>
        <div class="field wide" data-from="urls" hidden><label for="c-urls">slide URLs</label>\
        <textarea id="c-urls" rows="4" spellcheck="false" placeholder="https://cdn.example.com/p/1.jpg&#10;https://cdn.example.com/p/2.jpg"></textarea>\
        <small>2 to 20, one per line, in order, each a \(ImageKind.allNames) image</small></div>
        <div class="field wide" data-from="urls" hidden><label for="c-carousel-url">carousel URL</label>\
        <input id="c-carousel-url" type="url" spellcheck="false" placeholder="https://cdn.example.com/p/carousel.gif">\
        <small>or the URL of one animated GIF made elsewhere</small></div>
        </fieldset>
        """
    }

    /// "fit under 1 MB" (the script writes the budget's value in words):
    /// ticked, the `budget` control after it goes into a GIF's query.
    static let budgetChoice = """
        <div class="field"><label class="check"><input id="c-budgeted" type="checkbox" checked>\
        <span>fit under <span id="c-budget-words"></span></span></label>\
        <small>email senders keep a GIF under about 1 MB: the service makes it lighter to fit, and says how</small></div>
        """

    /// The carousel's own options: the table's Carousel group, "fit under"
    /// before `budget`, then the format.
    static var carouselOptions: String {
        let fields = Parameter.all.filter { group(of: $0.name) == .carousel }.flatMap { parameter in
            parameter.name == .budget ? [budgetChoice, field(for: parameter)] : [field(for: parameter)]
        }
        return (fields + [carouselFormat]).joined(separator: "\n")
    }

    /// The section: the slides, the options, the button, and where the result shows.
    static var carouselSection: String {
        """
        <section id="carousel" aria-labelledby="carousel-title">
        <h2 id="carousel-title">Carousel</h2>
        <p class="lead">The slides and their indicator in one GIF, in step by construction: pick the slides, \
        and the service draws the indicator set in the builder above over them (choose GIF or APNG there to set \
        <code>dwell</code>, <code>transition</code> and <code>effect</code>).</p>
        <div class="builder">
        <form id="carousel-form" autocomplete="off" novalidate>
        \(slideSources)
        <fieldset><legend>Carousel</legend>
        \(carouselOptions)
        </fieldset>
        <button type="submit" id="c-make">Make the carousel</button>
        </form>
        <div class="result">
        <figure class="preview carousel-result"><img id="c-result" alt="The carousel" hidden><figcaption id="c-caption">no carousel yet</figcaption></figure>
        <p id="c-status" aria-live="polite"></p>
        <p id="c-error" role="alert" hidden></p>
        <dl id="c-facts" class="facts" hidden>
        <dt>size</dt><dd id="c-size"></dd>
        <dt>X-Carousel-Size</dt><dd id="c-points"></dd>
        <dt>X-Carousel-Encoding</dt><dd id="c-encoding"></dd>
        </dl>
        <p><a id="c-download" download="carousel.gif" hidden>Download the carousel</a></p>
        \(output("c-img-snippet", "<img> for email", rows: 4, hint: "width and height are X-Carousel-Size, the carousel's size in points (CSS pixels); say in alt what the slides show"))
        <p id="c-img-note" class="note" hidden></p>
        \(output("c-curl", "The same with curl", rows: 4, hint: "the request the page sent"))
        </div>
        </div>
        </section>
        """
    }

    /// The section's script, run after the builder's (whose `query`, `text`,
    /// `themed`, `absolute`, `escaped` and `$` it uses): the carousel's query
    /// is the builder's indicator, without what a carousel takes from its
    /// slides (`pages`, unless a carousel GIF is sent) or cannot have (a
    /// calendar, `theme=auto`, a still format), at `scale` 2 unless set,
    /// then the options that differ from their defaults (`budget` only while
    /// "fit under" is ticked, for a GIF). Files are posted as a form; slide
    /// URLs are percent-encoded, in order, into the `GET` URL that is
    /// fetched and is also the `<img>`'s `src`.
    static let carouselScript = #"""

    const carouselForm = $('carousel-form');
    const carouselFields = [...carouselForm.querySelectorAll('[data-param]')];
    const budgeted = $('c-budgeted');
    let carouselBlob = null;
    const fromURLs = () => $('c-from-urls').checked;
    const budgetUsed = () => budgeted.checked && $('c-format').value === 'gif';
    const carouselFileName = (format) => 'carousel.' + (format === 'apng' ? 'png' : 'gif');
    function carouselQuery(format, withCarouselGIF) {
      const theme = text('theme') === 'dark' ? 'dark' : 'light';
      const dropped = new Set(['format', 'start', 'every', 'tz', 'scale'].concat(withCarouselGIF ? [] : ['pages']));
      const indicator = query(themed(theme, format)).split('&')
        .filter((pair) => pair !== '' && !dropped.has(pair.split('=')[0]));
      const own = carouselFields
        .filter((field) => (field.name !== 'budget' || budgetUsed())
          && field.value.trim() !== '' && field.value.trim() !== field.dataset.default)
        .map((field) => field.name + '=' + encoded(field, field.value.trim()));
      return indicator.concat(['scale=' + (text('scale') || '2')], own).join('&');
    }

    // The boxes of the chosen slides (files or URLs); the budget for a GIF only, in words beside its tick.
    function showCarouselChoices() {
      const from = fromURLs() ? 'urls' : 'files';
      for (const box of carouselForm.querySelectorAll('[data-from]')) box.hidden = box.dataset.from !== from;
      const budget = $('p-budget');
      for (const control of [budgeted, budget]) control.closest('.field').hidden = $('c-format').value !== 'gif';
      budget.disabled = !budgeted.checked;
      const words = /^(\d+(?:\.\d+)?)([kM]?)$/.exec(budget.value.trim());
      $('c-budget-words').textContent = words ? words[1] + ' ' + { '': 'bytes', k: 'kB', M: 'MB' }[words[2]] : 'the budget';
    }

    // Files: a form posted; the answer is the sender's to host, so the <img>'s src is theirs to fill in.
    function uploadRequest(format) {
      const gif = $('c-carousel').files[0];
      const slides = [...$('c-slides').files];
      if (!gif && slides.length < 2) return { problem: 'Pick 2 to 20 slides, or one carousel GIF.' };
      const path = '/carousel.' + format + '?' + carouselQuery(format, Boolean(gif));
      const body = new FormData();
      if (gif) body.append('carousel', gif);
      else for (const slide of slides) body.append('slide', slide);
      const parts = gif ? ['carousel=@' + gif.name] : slides.map((slide) => 'slide=@' + slide.name);
      return {
        path, init: { method: 'POST', body }, slides: gif ? Number(text('pages')) : slides.length,
        curl: 'curl ' + parts.map((part) => "-F '" + part + "'").join(' ') + " \\\n  '" + absolute(path) + "'",
        src: 'https://your-host.example/' + carouselFileName(format),
        note: 'Replace the src with the address where you host the file: the service keeps nothing (the answer is no-store).',
      };
    }

    // URLs: the GET URL of the slides (each percent-encoded, ' too, for the curl line), which is also the <img>'s src.
    function urlRequest(format) {
      const slides = $('c-urls').value.split('\n').map((line) => line.trim()).filter((line) => line !== '');
      const gif = $('c-carousel-url').value.trim();
      if (!gif && slides.length < 2) return { problem: 'Enter 2 to 20 slide URLs, one per line, or one carousel GIF URL.' };
      const sourceURL = (url) => encodeURIComponent(url).replace(/'/g, '%27');
      const sources = gif ? ['carousel=' + sourceURL(gif)] : slides.map((url) => 'slide=' + sourceURL(url));
      const path = '/carousel.' + format + '?' + sources.concat(carouselQuery(format, Boolean(gif))).join('&');
      return {
        path, init: {}, slides: gif ? Number(text('pages')) : slides.length, curl: "curl '" + absolute(path) + "'",
        src: absolute(path),
        note: 'The src is this carousel\'s URL: the service fetches the slides and draws it when the email is opened, '
          + 'and caches it while its sources are fresh.',
      };
    }

    function carouselFailed(message) {
      $('c-error').textContent = message;
      $('c-error').hidden = false;
      $('c-status').textContent = '';
      for (const id of ['c-result', 'c-facts', 'c-download', 'c-img-note']) $(id).hidden = true;
      $('c-caption').textContent = 'no carousel';
      $('c-img-snippet').value = '';
    }

    // The answer: played from a blob: URL, its bytes, its size in points (the <img>'s, rounded to whole
    // pixels) and what a budget chose, from the headers of this same-origin fetch.
    async function showCarousel(request, format, response) {
      const blob = await response.blob();
      if (carouselBlob) URL.revokeObjectURL(carouselBlob);
      carouselBlob = URL.createObjectURL(blob);
      const image = $('c-result');
      image.onload = () => {
        $('c-caption').textContent = image.naturalWidth + ' × ' + image.naturalHeight + ' pixels, ' + format.toUpperCase();
      };
      Object.assign(image, { src: carouselBlob, hidden: false });
      const points = response.headers.get('x-carousel-size') ?? '';
      const [width, height] = points.split('x').map((side) => Math.round(Number(side)));
      $('c-size').textContent = blob.size.toLocaleString('en-US') + ' bytes';
      $('c-points').textContent = points + ' points';
      $('c-encoding').textContent = response.headers.get('x-carousel-encoding') ?? 'none (no budget)';
      $('c-facts').hidden = false;
      $('c-status').textContent = '';
      Object.assign($('c-download'), { href: carouselBlob, download: carouselFileName(format), hidden: false });
      const alt = 'Carousel of ' + request.slides + ' slides';
      $('c-img-snippet').value = '<img src="' + escaped(request.src) + '" width="' + width + '" height="' + height
        + '" alt="' + escaped(alt) + '">';
      Object.assign($('c-img-note'), { textContent: request.note, hidden: false });
    }

    // The colour picker beside backdrop writes into its text, and starts from it.
    for (const picker of carouselForm.querySelectorAll('[data-picker-for]')) picker.value = pickerColor($(picker.dataset.pickerFor).value);
    carouselForm.addEventListener('input', (event) => {
      const target = event.target;
      if ('pickerFor' in target.dataset) $(target.dataset.pickerFor).value = target.value.slice(1).toUpperCase();
      showCarouselChoices();
    });
    carouselForm.addEventListener('change', showCarouselChoices);
    showCarouselChoices();
    carouselForm.addEventListener('submit', async (event) => {
      event.preventDefault();
      const format = $('c-format').value;
      const request = fromURLs() ? urlRequest(format) : uploadRequest(format);
      if (request.problem) return carouselFailed(request.problem);
      $('c-curl').value = request.curl + ' -o ' + carouselFileName(format);
      $('c-error').hidden = true;
      $('c-status').textContent = fromURLs() ? 'Fetching the slides and drawing…' : 'Drawing…';
      $('c-make').disabled = true;
      try {
        const response = await fetch(request.path, request.init);
        if (!response.ok) return carouselFailed(response.status + ': ' + (await response.text()).trim());
        await showCarousel(request, format, response);
      } catch {
        carouselFailed('the service did not answer');
      } finally {
        $('c-make').disabled = false;
      }
    });

    """#
}
