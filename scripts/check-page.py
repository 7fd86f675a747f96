#!/usr/bin/env python3
"""The builder page in headless Chromium (Selenium, Debian's chromium-driver).

Usage: check-page.py BASE_URL SCREENSHOT.png

Loads BASE_URL/ from a running pagedots, changes controls as a person would,
and checks that the preview image and the snippets follow, that a bad
combination shows the service's 400 line instead of a broken image, and that
the page logs nothing to the console but the 400 it was made to cause. Ends
with a screenshot of the page as it first appears. Prints one line per check
and `N passed, N failed`; exits 1 if anything failed.
"""
import base64
import sys

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

BASE, SCREENSHOT = sys.argv[1].rstrip("/"), sys.argv[2]
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


def wait_for(what, condition):
    """Waits up to 10 s for condition(driver); records the check either way."""
    try:
        wait.until(lambda d: condition(d))
        check(what, True)
    except TimeoutException:
        check(what + " (timed out)", False)


def type_into(name, text):
    field = find("p-" + name)
    field.clear()
    field.send_keys(text)


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
    check("the <picture> snippet has a dark source with color=FFFFFF",
          'media="(prefers-color-scheme: dark)"' in value("picture-snippet")
          and "color=FFFFFF" in value("picture-snippet"))
    gallery = driver.execute_script(
        "return [...document.querySelectorAll('#gallery img')].map(i => i.complete && i.naturalWidth > 0)")
    check(f"all {len(gallery)} gallery images load", len(gallery) == 11 and all(gallery))

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

    # Nothing in the console but the 400 caused on purpose (Chromium reports it as a network error).
    entries = driver.get_log("browser")
    unexpected = [entry for entry in entries
                  if not ("stroke=9" in entry["message"] and "400" in entry["message"])
                  and entry["level"] in ("SEVERE", "WARNING")]
    for entry in unexpected:
        print("  console:", entry["level"], entry["message"][:300])
    check(f"no console errors or warnings ({len(entries)} entries, all from the deliberate 400)", not unexpected)

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
