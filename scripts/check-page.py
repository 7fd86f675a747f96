#!/usr/bin/env python3
"""The builder page in headless Chromium (Selenium, Debian's chromium-driver).

Usage: check-page.py BASE_URL SCREENSHOT.png PRESETS_BASE_URL URLS_BASE_URL ORIGIN_URL

Loads BASE_URL/ from a running pagedots, changes controls as a person would,
and checks that the previews (light and dark) and the snippets follow (the
<img>, the <picture> and GitHub pair with their dark images, the theme=auto
SVG), that a bad combination shows the service's 400 line instead of a
broken image, and that the page logs nothing to the console but the 400s it
was made to cause; that choosing GIF or APNG shows the animation's controls,
plays the animation in the previews (images that load) and notes beside the
email snippet what Outlook for Windows shows and how to keep in step with a
carousel GIF; that a calendar URL (start, every) hides current and says
which page shows now and when that changes (both servers' clocks stand at
2025-03-03T10:00Z); and, on PRESETS_BASE_URL (a server with presets), that
choosing a preset sets the controls and the URL names it and adds only what
differs; that the Carousel section, "fit under 1 MB" ticked by default (and
set to 300 kB), uploads three slides as a form, plays the answer from a
blob: URL with its size in bytes, its X-Carousel-Size and
X-Carousel-Encoding, offers it for download (an animated GIF within the
budget that Pillow decodes, the same bytes as the same POST
made without the browser), writes the <img> for email with its width and
height and a src to replace, leaves the budget out when unticked and for
APNG, and shows the service's 400 line for a bad option; and that slide
URLs are refused with the service's 403 line by BASE_URL (which allows no
source), and on URLS_BASE_URL (which allows ORIGIN_URL, a loopback origin
serving docs/examples/carousel) make the GET URL, whose carousel is the
POST's, with a fractional X-Carousel-Size rounded in the <img>, whose src
is that GET URL.
Ends with a screenshot of the page as it first appears. Prints one line per check
and `N passed, N failed`; exits 1 if anything failed.
"""
import base64
import html
import io
import os
import shutil
import sys
import tempfile
import urllib.parse
import urllib.request
import uuid

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait
from PIL import Image

BASE, SCREENSHOT, PRESETS_BASE, URLS_BASE, ORIGIN = (sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3].rstrip("/"),
                                                     sys.argv[4].rstrip("/"), sys.argv[5].rstrip("/"))
SLIDES = [os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "examples", "carousel", name)
          for name in ("flat-spring.png", "flat-summer.png", "flat-autumn.png")]
results = []


def check(what, condition):
    results.append(bool(condition))
    print(("ok: " if condition else "FAILED: ") + what, flush=True)


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                     "--window-size=1280,1000", "--force-device-scale-factor=1", "--lang=en-US"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_page_load_timeout(20)
    return driver


driver = start_browser()
wait = WebDriverWait(driver, 10)
find = lambda element_id: driver.find_element(By.ID, element_id)
value = lambda element_id: find(element_id).get_attribute("value")


def wait_for(what, condition, seconds=10):
    """Waits up to `seconds` for condition(driver); records the check either way."""
    try:
        WebDriverWait(driver, seconds).until(lambda d: condition(d))
        check(what, True)
    except TimeoutException:
        check(what + " (timed out)", False)


def type_into(name, text):
    field = find("p-" + name)
    if not text:
        # Emptied with keys, so that the page hears an input event (clear() fires none).
        field.send_keys(Keys.CONTROL + "a", Keys.BACKSPACE)
        return
    field.clear()
    field.send_keys(text)


def animation_group():
    return driver.find_element(By.XPATH, "//fieldset[legend='Animation']")


def previews_loaded(part):
    """Both previews show an image whose URL has `part` and that has loaded (naturalWidth > 0)."""
    return driver.execute_script(
        "return ['preview', 'preview-dark'].every((id) => { const i = document.getElementById(id);"
        " return !i.hidden && i.src.includes(arguments[0]) && i.complete && i.naturalWidth > 0; })", part)


def posted(url, files):
    """The body and headers of a POST of `files` as slide parts to `url`, made without the browser."""
    boundary = uuid.uuid4().hex
    body = b"".join(f'--{boundary}\r\nContent-Disposition: form-data; name="slide"; filename="{os.path.basename(name)}"\r\n'
                    f"Content-Type: image/png\r\n\r\n".encode() + open(name, "rb").read() + b"\r\n" for name in files)
    request = urllib.request.Request(url, data=body + f"--{boundary}--\r\n".encode(), method="POST",
                                     headers={"Content-Type": "multipart/form-data; boundary=" + boundary})
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.read(), response.headers


def fetched(url):
    """The body of a GET of `url`, made without the browser."""
    with urllib.request.urlopen(url, timeout=120) as response:
        return response.read()


def carousel_shown():
    """The carousel plays in the page from a blob: URL."""
    return driver.execute_script("const i = document.getElementById('c-result');"
                                 " return !i.hidden && i.src.startsWith('blob:') && i.complete && i.naturalWidth > 0")


def carousel_pixels():
    return driver.execute_script("const i = document.getElementById('c-result'); return [i.naturalWidth, i.naturalHeight]")


def text_of(element_id):
    return find(element_id).text


def preview_width():
    return driver.execute_script("return document.getElementById('preview').naturalWidth")


try:
    driver.get(BASE + "/")
    wait_for("the first preview draws and the snippets are written", lambda d: value("img-snippet"))
    check("the URL is the default example, a 2x pill on page 3 of 5",
          value("url") == BASE + "/indicator?pages=5&current=2&style=pill&scale=2")
    check("the <img> snippet is 88x16 CSS pixels with 'Page 3 of 5'",
          'width="88" height="16" alt="Page 3 of 5"' in value("img-snippet"))
    check("the 2x preview is 176 image pixels wide", preview_width() == 176)
    picture = value("picture-snippet")
    check("the <picture> snippet's dark source is the theme=dark image, its <img> the light one",
          '<source srcset="' + BASE + '/indicator?pages=5&amp;current=2&amp;style=pill&amp;theme=dark&amp;scale=2" '
          'media="(prefers-color-scheme: dark)">' in picture
          and '<img src="' + BASE + '/indicator?pages=5&amp;current=2&amp;style=pill&amp;scale=2" width="88"' in picture)
    github = value("github-snippet").split("\n")
    check("the GitHub snippet is the light image #gh-light-mode-only and the dark one #gh-dark-mode-only",
          len(github) == 2 and '&amp;scale=2#gh-light-mode-only" width="88" height="16"' in github[0]
          and '&amp;theme=dark&amp;scale=2#gh-dark-mode-only" width="88" height="16"' in github[1])
    check("the SVG that follows the colour scheme is format=svg&theme=auto, without scale",
          value("auto-url") == BASE + "/indicator?pages=5&current=2&style=pill&theme=auto&format=svg")
    auto = driver.execute_script("return fetch(arguments[0]).then((r) => r.text())", value("auto-url"))
    check("and it holds its dark colours under prefers-color-scheme: dark",
          "@media (prefers-color-scheme:dark)" in auto and "#0a84ff" in auto and 'fill="#007aff"' in auto)
    previews = driver.execute_script(
        "return ['preview', 'preview-dark'].map((id) => [document.getElementById(id).src, document.getElementById(id).naturalWidth])")
    check("the previews are the light image and the theme=dark one, both drawn",
          "theme=" not in previews[0][0] and "&theme=dark&" in previews[1][0]
          and previews[0][1] == 176 and previews[1][1] == 176)
    check("the dark colours' controls show in the light theme (the dark image uses them)",
          find("p-darkcolor").is_displayed() and find("p-darkbg").is_displayed())
    gallery = driver.execute_script(
        "return [...document.querySelectorAll('#gallery img')].map(i => i.complete && i.naturalWidth > 0)")
    check(f"all {len(gallery)} gallery images load", len(gallery) == 12 and all(gallery))

    type_into("current", "4")
    wait_for("current=4: the URL follows", lambda d: "current=4" in value("url"))
    wait_for("current=4: the alt text says 'Page 5 of 5'", lambda d: 'alt="Page 5 of 5"' in value("img-snippet"))

    Select(find("p-style")).select_by_value("dots")
    wait_for("style=dots (the default) leaves style out of the URL", lambda d: "style=" not in value("url"))
    wait_for("dots: the snippet is 80x16 CSS pixels", lambda d: 'width="80" height="16"' in value("img-snippet"))

    type_into("scale", "3")
    wait_for("scale=3: the preview is 240 image pixels wide", lambda d: preview_width() == 240)
    check("scale=3: the snippet stays 80 CSS pixels wide", 'width="80" height="16"' in value("img-snippet"))

    type_into("color", "ff2d55")
    wait_for("a typed colour goes into the URL", lambda d: "color=ff2d55" in value("url"))
    check("and into its colour picker",
          driver.execute_script("return document.querySelector('[data-picker-for=p-color]').value") == "#ff2d55")

    Select(find("p-style")).select_by_value("scroll")
    wait_for("style=scroll shows its 'visible' control", lambda d: find("p-visible").is_displayed())
    check("and hides bar's 'labels'", not find("p-labels").is_displayed())

    Select(find("p-fill")).select_by_value("outline")
    wait_for("fill=outline shows its 'stroke' control", lambda d: find("p-stroke").is_displayed())
    type_into("stroke", "9")
    wait_for("a bad value shows the service's 400 line",
             lambda d: find("error").is_displayed() and find("error").text.startswith("400: stroke: must be"))
    check("instead of a broken preview", not find("preview").is_displayed())
    check("and no snippet to copy", value("img-snippet") == "")

    type_into("stroke", "2")
    wait_for("fixing it brings the preview back", lambda d: find("preview").is_displayed() and not find("error").is_displayed())

    driver.find_element(By.CSS_SELECTOR, 'button.use[data-query*="style=bar"]').click()
    wait_for("a gallery example loads into the builder",
             lambda d: "style=bar&labels=Home,Feed,Profile" in value("url") and 'alt="Page 2 of 3"' in value("img-snippet"))

    driver.find_element(By.CSS_SELECTOR, 'button[data-copy="url"]').click()
    wait_for("the copy button answers", lambda d: d.find_element(By.CSS_SELECTOR, 'button[data-copy="url"]').text == "Copied")

    driver.get(BASE + "/#pages=7&current=3&style=progress&progress=0.7&scale=2")
    wait_for("a #query in the address sets the builder", lambda d: 'alt="Page 4 of 7"' in value("img-snippet"))

    type_into("darkcolor", "ff9f0a")
    wait_for("a dark colour goes into the dark images' URLs",
             lambda d: "&amp;theme=dark&amp;darkcolor=ff9f0a&amp;scale=2\"" in value("picture-snippet")
             and "&amp;theme=dark&amp;darkcolor=ff9f0a&amp;scale=2#gh-dark-mode-only" in value("github-snippet")
             and value("auto-url").endswith("&theme=auto&darkcolor=ff9f0a&format=svg"))
    check("but not into the light image's", "darkcolor" not in value("url") and "darkcolor" not in value("img-snippet"))
    Select(find("p-theme")).select_by_value("dark")
    wait_for("theme=dark: the URL and the <img> are the dark image",
             lambda d: value("url").endswith("&theme=dark&darkcolor=ff9f0a&scale=2") and "theme=dark" in value("img-snippet"))
    Select(find("p-theme")).select_by_value("auto")
    wait_for("theme=auto with PNG shows the service's 400 line",
             lambda d: find("error").is_displayed() and find("error").text.startswith("400: theme: must be light or dark for a png image"))
    Select(find("p-format")).select_by_value("svg")
    wait_for("with format=svg it draws, and the URL is the SVG that switches",
             lambda d: find("preview").is_displayed() and value("url").endswith("&theme=auto&darkcolor=ff9f0a&format=svg"))

    # The format choice: an animated format shows the animation's group, plays in the previews and notes the rules for email.
    driver.get(BASE + "/#pages=4&current=1&style=pill&scale=2")
    wait_for("a still image hides the Animation group and the email note",
             lambda d: 'alt="Page 2 of 4"' in value("img-snippet") and not animation_group().is_displayed()
             and not find("animation-note").is_displayed())
    check("the format choice offers PNG, SVG, GIF and APNG",
          [option.get_attribute("value") for option in Select(find("p-format")).options] == ["png", "svg", "gif", "apng"])
    Select(find("p-format")).select_by_value("gif")
    wait_for("format=gif: the URL and the previews are the GIF, and both load",
             lambda d: value("url").endswith("&scale=2&format=gif") and previews_loaded("format=gif"))
    check("the Animation group shows with dwell, transition, effect, loop, fps and matte",
          animation_group().is_displayed()
          and all(find("p-" + name).is_displayed() for name in ("dwell", "transition", "effect", "loop", "fps", "matte")))
    note = find("animation-note").text
    check("beside the email snippet: Outlook for Windows shows the first frame, the still image of page 2",
          find("animation-note").is_displayed() and "Outlook for Windows shows only the first frame" in note and "page 2" in note)
    check("and how to keep in step with a carousel GIF", "same number of pages" in note and "dwell" in note and "current" in note)
    type_into("dwell", "1500")
    wait_for("dwell=1500 goes into the URL and the preview plays it",
             lambda d: value("url").endswith("&scale=2&format=gif&dwell=1500") and previews_loaded("dwell=1500"))
    Select(find("p-format")).select_by_value("apng")
    wait_for("format=apng: the previews are the APNG, and both load",
             lambda d: value("url").endswith("&scale=2&format=apng&dwell=1500") and previews_loaded("format=apng"))
    check("matte (GIF only) hides for APNG", not find("p-matte").is_displayed() and find("p-dwell").is_displayed())
    Select(find("p-format")).select_by_value("png")
    wait_for("back to PNG: the animation's group and note hide, and dwell leaves the URL",
             lambda d: value("url") == BASE + "/indicator?pages=4&current=1&style=pill&scale=2"
             and not animation_group().is_displayed() and not find("animation-note").is_displayed())

    # The calendar: the page comes from the clock (2025-03-03T10:00Z; day 3 began at 09:00 Berlin time).
    check("without presets, the Preset group is hidden",
          not driver.find_element(By.XPATH, "//fieldset[legend='Preset']").is_displayed())
    driver.get(BASE + "/#pages=7&start=2025-03-01T09:00&every=1d&tz=Europe/Berlin&style=pill")
    wait_for("a calendar URL: start, every and tz in the URL, current left out",
             lambda d: value("url") == BASE + "/indicator?pages=7&start=2025-03-01T09:00&every=1d&tz=Europe/Berlin&style=pill")
    check("the current control hides (the clock chooses the page)", not find("p-current").is_displayed())
    wait_for("the calendar line says page 3 of 7 is current now and when caches ask again",
             lambda d: find("calendar-status").is_displayed()
             and find("calendar-status").text.startswith("Now page 3 of 7 (current=2). Caches ask again at ")
             and "in 22 h 0 min" in find("calendar-status").text)
    check("the alt text names no page", 'alt="Page indicator of 7 pages"' in value("img-snippet"))
    type_into("start", "2025-02-01")
    wait_for("after the last page: the image no longer changes",
             lambda d: find("calendar-status").text.startswith("Now page 7 of 7 (current=6). That is the last page"))
    type_into("every", "1y")
    wait_for("a bad every shows the service's 400 line",
             lambda d: find("error").is_displayed() and find("error").text.startswith("400: every: must be")
             and not find("calendar-status").is_displayed())
    type_into("start", "")
    type_into("every", "")
    wait_for("without start, current is back and the calendar line hides",
             lambda d: find("p-current").is_displayed() and not find("calendar-status").is_displayed()
             and value("url") == BASE + "/indicator?pages=7&tz=Europe/Berlin&style=pill" and find("preview").is_displayed())

    # Presets, on the server that has them.
    driver.get(PRESETS_BASE + "/")
    wait_for("with presets, the Preset group offers them",
             lambda d: driver.find_element(By.XPATH, "//fieldset[legend='Preset']").is_displayed()
             and [o.get_attribute("value") for o in Select(find("preset-choice")).options] == ["", "advent", "brand"])
    Select(find("preset-choice")).select_by_value("brand")
    wait_for("choosing brand: the URL names it and adds only the page",
             lambda d: value("url") == PRESETS_BASE + "/indicator?preset=brand&pages=5&current=2" and previews_loaded("preset=brand"))
    check("and the controls show the preset's colour", value("p-color") == "ff2d55")
    type_into("color", "34c759")
    wait_for("a colour of one's own overrides the preset's", lambda d: value("url").endswith("?preset=brand&pages=5&current=2&color=34c759"))
    driver.get(PRESETS_BASE + "/#preset=advent&style=bar")
    wait_for("a #query that names a calendar preset: its page now, from the clock",
             lambda d: value("url") == PRESETS_BASE + "/indicator?preset=advent&style=bar"
             and find("calendar-status").text.startswith("Now page 1 of 24 (current=0). Caches ask again at ")
             and "when the page changes or the calendar starts" in find("calendar-status").text)

    # The Carousel section: three slides, the builder's pill on page 2 of 3, fading every second.
    driver.get(BASE + "/#pages=3&current=1&style=pill&scale=2&format=gif&dwell=1000")
    wait_for("the builder draws the carousel's indicator", lambda d: 'alt="Page 2 of 3"' in value("img-snippet"))
    check('"fit under 1 MB" is ticked by default, with budget 1M',
          find("c-budgeted").is_selected() and value("p-budget") == "1M"
          and driver.find_element(By.CSS_SELECTOR, "label.check").text == "fit under 1 MB")
    slidesize = find("p-slidesize")
    check("slidesize is among the carousel's options, empty, with an example of its syntax",
          slidesize.is_displayed() and value("p-slidesize") == "" and slidesize.get_attribute("placeholder") == "e.g. 600x300")
    check("the slide files accept every format the service reads",
          find("c-slides").get_attribute("accept") == "image/png,image/jpeg,image/gif,image/webp,image/heic,image/avif")
    find("c-slides").send_keys(SLIDES[0])
    find("c-make").click()
    wait_for("one slide: the section asks for 2 to 20", lambda d: find("c-error").text == "Pick 2 to 20 slides, or one carousel GIF.")
    # WebDriver adds files to a multiple input's choice: start again with none.
    driver.refresh()
    wait.until(lambda d: 'alt="Page 2 of 3"' in value("img-snippet"))
    find("c-slides").send_keys("\n".join(SLIDES))
    Select(find("p-change")).select_by_value("fade")
    # A budget these fades do not fit as they are (about 470 kB), so that the service chooses what to lighten.
    budget = find("p-budget")
    budget.clear()
    budget.send_keys("300k")
    wait_for('the tick says "fit under 300 kB"', lambda d: driver.find_element(By.CSS_SELECTOR, "label.check").text == "fit under 300 kB")
    find("c-make").click()
    wait_for("three slides posted: the carousel plays in the page from a blob: URL", lambda d: carousel_shown(), seconds=120)
    path = "/carousel.gif?current=1&style=pill&dwell=1000&scale=2&change=fade&budget=300k"
    check("the request is the builder's indicator, without pages or format, change=fade and budget=300k",
          value("c-curl") == "curl -F 'slide=@flat-spring.png' -F 'slide=@flat-summer.png' -F 'slide=@flat-autumn.png' \\\n  '"
          + BASE + path + "' -o carousel.gif")
    posted_bytes, posted_headers = posted(BASE + path, SLIDES)
    encoding = posted_headers["X-Carousel-Encoding"]
    check(f"X-Carousel-Encoding is shown as the service sent it: {encoding}", encoding and text_of("c-encoding") == encoding)
    check("X-Carousel-Size is shown: 600x300 points", posted_headers["X-Carousel-Size"] == "600x300"
          and text_of("c-points") == "600x300 points")
    chosen_scale = float(encoding.split(";")[0].removeprefix("scale="))
    check(f"the result is shown at 600 x 300 points at the chosen scale, {chosen_scale}",
          carousel_pixels() == [round(600 * chosen_scale), round(300 * chosen_scale)]
          and text_of("c-caption") == f"{round(600 * chosen_scale)} × {round(300 * chosen_scale)} pixels, GIF")
    check("the <img> for email: a src to replace, width and height from X-Carousel-Size, an alt",
          value("c-img-snippet") == '<img src="https://your-host.example/carousel.gif" width="600" height="300" alt="Carousel of 3 slides">'
          and find("c-img-note").is_displayed() and text_of("c-img-note").startswith("Replace the src with the address where you host"))
    link = find("c-download")
    check("the download link is the shown image, named carousel.gif",
          link.is_displayed() and link.get_attribute("href") == find("c-result").get_attribute("src")
          and link.get_attribute("download") == "carousel.gif")
    # The link clicked as a person would: Chromium saves the file (a blob: URL is not fetched by the page).
    folder = tempfile.mkdtemp(prefix="check-page-")
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": folder})
    link.click()
    saved = os.path.join(folder, "carousel.gif")
    wait_for("the link downloads carousel.gif", lambda d: os.path.exists(saved)
             and not any(name.endswith(".crdownload") for name in os.listdir(folder)), seconds=30)
    downloaded = open(saved, "rb").read() if os.path.exists(saved) else b""
    shutil.rmtree(folder)
    check(f"the size shown is the download's, {len(downloaded):,} bytes, within the budget",
          text_of("c-size") == f"{len(downloaded):,} bytes" and 0 < len(downloaded) <= 300_000)
    with Image.open(io.BytesIO(downloaded)) as gif:
        frames, duration = gif.n_frames, 0
        for n in range(frames):
            gif.seek(n)
            duration += gif.info["duration"]
        check(f"the download decodes (Pillow) as an animated GIF, {frames} frames over 3 x 1000 ms (got {duration} ms)",
              gif.format == "GIF" and list(gif.size) == carousel_pixels() and frames > 3 and duration == 3000)
    check("the same bytes as the same POST made without the browser", downloaded == posted_bytes)
    # Unticked, no budget: the service says nothing of an encoding.
    find("c-budgeted").click()
    Select(find("p-change")).select_by_value("cut")
    find("c-make").click()
    wait_for("unticked: no budget in the request, and no X-Carousel-Encoding",
             lambda d: "budget" not in value("c-curl") and text_of("c-encoding") == "none (no budget)" and carousel_shown(), seconds=120)
    find("c-budgeted").click()
    Select(find("c-format")).select_by_value("apng")
    check("for APNG (GIF only) the budget and its tick hide",
          not find("c-budgeted").is_displayed() and not find("p-budget").is_displayed())
    Select(find("c-format")).select_by_value("gif")
    inset = find("p-inset")
    inset.clear()
    inset.send_keys("999")
    find("c-make").click()
    wait_for("a bad option shows the service's 400 line", lambda d: find("c-error").is_displayed()
             and find("c-error").text.startswith("400: inset: must be") and not find("c-facts").is_displayed()
             and value("c-img-snippet") == "", seconds=60)

    # Slide URLs, on a server that allows no source: its 403 line.
    urls = [ORIGIN + "/" + os.path.basename(name) for name in SLIDES]
    driver.get(BASE + "/#pages=3&current=1&style=pill&scale=2")
    wait.until(lambda d: 'alt="Page 2 of 3"' in value("img-snippet"))
    find("c-from-urls").click()
    wait_for("choosing URLs shows the URL boxes and hides the files",
             lambda d: find("c-urls").is_displayed() and find("c-carousel-url").is_displayed() and not find("c-slides").is_displayed())
    find("c-urls").send_keys(urls[0])
    find("c-make").click()
    wait_for("one URL: the section asks for 2 to 20",
             lambda d: find("c-error").text == "Enter 2 to 20 slide URLs, one per line, or one carousel GIF URL.")
    find("c-urls").send_keys("\n" + "\n".join(urls[1:]) + "\n")
    find("c-make").click()
    wait_for("a server that allows no source shows its 403 line",
             lambda d: find("c-error").is_displayed() and find("c-error").text.startswith("403: slide: URL slides are not enabled"))

    # Slide URLs from the loopback origin: the GET URL, drawn as the POST of the same files; a band of 15.5 points.
    driver.get(URLS_BASE + "/#pages=3&current=1&style=pill&size=7.5&scale=2")
    wait.until(lambda d: 'alt="Page 2 of 3"' in value("img-snippet"))
    find("c-from-urls").click()
    find("c-urls").send_keys("\n".join(urls))
    Select(find("p-place")).select_by_value("below")
    find("c-make").click()
    wait_for("slide URLs: the carousel plays in the page", lambda d: carousel_shown(), seconds=120)
    query = "current=1&style=pill&size=7.5&scale=2&place=below&budget=1M"
    get_path = "/carousel.gif?" + "&".join("slide=" + urllib.parse.quote(url, safe="") for url in urls) + "&" + query
    check("the request is a GET of the slide URLs, percent-encoded, in order, then the query",
          value("c-curl") == "curl '" + URLS_BASE + get_path + "' -o carousel.gif")
    check("X-Carousel-Size has a fraction (a 15.5-point band): 600x315.5", text_of("c-points") == "600x315.5 points")
    snippet = value("c-img-snippet")
    check("the <img>'s src is the GET URL, its width and height X-Carousel-Size rounded: 600 x 316",
          snippet == '<img src="' + html.escape(URLS_BASE + get_path) + '" width="600" height="316" alt="Carousel of 3 slides">'
          and text_of("c-img-note").startswith("The src is this carousel's URL"))
    got = fetched(URLS_BASE + get_path)
    check(f"the size shown is the GET's, {len(got):,} bytes", text_of("c-size") == f"{len(got):,} bytes")
    check("the GET's carousel is the POST's of the same files", got == posted(URLS_BASE + "/carousel.gif?" + query, SLIDES)[0])
    shown = driver.execute_async_script(
        "const done = arguments[arguments.length - 1]; const i = new Image();"
        " i.onload = () => done(i.naturalWidth); i.onerror = () => done(0); i.src = arguments[0];", html.unescape(snippet.split('"')[1]))
    check(f"the snippet's src draws in an <img> ({shown} pixels wide)", shown == carousel_pixels()[0])

    # Nothing in the console but the 400s and the 403 caused on purpose (Chromium reports them as network errors).
    entries = driver.get_log("browser")
    deliberate = (("stroke=9", "400"), ("theme=auto", "400"), ("every=1y", "400"), ("inset=999", "400"), ("?slide=", "403"))
    unexpected = [entry for entry in entries
                  if not any(cause in entry["message"] and status in entry["message"] for cause, status in deliberate)
                  and entry["level"] in ("SEVERE", "WARNING")]
    for entry in unexpected:
        print("  console:", entry["level"], entry["message"][:300])
    check(f"no console errors or warnings ({len(entries)} entries, all from the deliberate 400s and 403)", not unexpected)

    driver.get(BASE + "/")
    wait.until(lambda d: value("img-snippet"))
    size = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
    clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1}
    shot = driver.execute_cdp_cmd("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True, "clip": clip})
    with open(SCREENSHOT, "wb") as file:
        file.write(base64.b64decode(shot["data"]))
    print(f"screenshot: {SCREENSHOT} ({size['width']:.0f}x{size['height']:.0f})")
finally:
    driver.quit()

passed = sum(results)
print(f"{passed} passed, {len(results) - passed} failed")
sys.exit(0 if results and all(results) else 1)
