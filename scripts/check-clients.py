#!/usr/bin/env python3
"""Real HTTP clients, nobody's here, against two release pagedots servers.

Usage: check-clients.py HIT_PORT MISS_PORT OUT_DIR

HIT_PORT serves from its cache (the URLs are asked once before); MISS_PORT
runs with --cache-mb 0, so every request there draws its image. Against each:
  ab -k (HTTP/1.0 keep-alive), h2load --h1 (one request at a time, then 8
  pipelined per connection), siege, curl --http1.0 (several URLs, one process),
  Python's http.client (keep-alive; and pipelined: http.client cannot send
  pipelined requests itself, so 50 requests are written at once on a raw
  socket and http.client.HTTPResponse parses the 50 answers from it in turn),
  urllib3 (a pool of keep-alive connections from 8 threads; urllib3 has no
  pipelining), and headless Chromium loading a page of 200 <img> with
  distinct URLs, each of which must be decoded (naturalWidth > 0).
Every request must succeed with a well-formed response (a status line, a
Content-Length that the body matches). Prints one line per check, then
`N passed, N failed`; exits 1 if a check failed.
"""
import http.client
import os
import re
import socket
import subprocess
import sys
import threading

import urllib3

HIT_PORT, MISS_PORT, OUT = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
PATH = "/indicator?pages=5&current=2&scale=2"
# The paths each client asks for (all are asked once of the hit server first).
CURL_PATHS = [f"/indicator?pages={2 + index % 20}&current=1&scale=2" for index in range(100)]
KEEP_ALIVE_PATHS = [f"/indicator?pages={2 + index % 30}&current=1" for index in range(200)]
PIPELINED_PATHS = [f"/indicator?pages={2 + index % 30}&current=1&color={index:06x}" for index in range(50)]
POOL_PATHS = [f"/indicator?pages={2 + index % 40}&current=1" for index in range(400)]
PAGE_PATHS = [f"/indicator?pages={3 + index % 40}&current={index % 3}&color={index:06x}&scale=2" for index in range(200)]
results = []


def check(what, condition, detail=""):
    results.append(bool(condition))
    print(("ok: " if condition else "FAILED: ") + what + (f" ({detail})" if detail else ""), flush=True)


def run(name, command):
    """Runs a client; its output goes to OUT/name.txt and is returned."""
    result = subprocess.run(["timeout", "120", *command], capture_output=True, text=True, errors="replace")
    text = result.stdout + result.stderr
    with open(os.path.join(OUT, name + ".txt"), "w") as file:
        file.write(" ".join(command) + "\n" + text)
    return result.returncode, text


def number(pattern, text, default=-1):
    match = re.search(pattern, text)
    return int(float(match.group(1))) if match else default


def ab(kind, port, requests=2000):
    code, text = run(f"ab-{kind}", ["ab", "-k", "-n", str(requests), "-c", "8", f"http://127.0.0.1:{port}{PATH}"])
    complete, failed = number(r"Complete requests:\s+(\d+)", text), number(r"Failed requests:\s+(\d+)", text)
    non2xx = number(r"Non-2xx responses:\s+(\d+)", text, 0)
    keep_alive = number(r"Keep-Alive requests:\s+(\d+)", text)
    check(f"ab -k (HTTP/1.0 keep-alive), {kind}: {requests} requests, none failed, all 200, kept alive",
          code == 0 and complete == requests and failed == 0 and non2xx == 0 and keep_alive == requests,
          f"complete {complete}, failed {failed}, non-2xx {non2xx}, keep-alive {keep_alive}")


def h2load(kind, port, pipelined, requests=2000):
    code, text = run(f"h2load-{kind}-m{pipelined}",
                     ["h2load", "--h1", "-n", str(requests), "-c", "8", "-m", str(pipelined), f"http://127.0.0.1:{port}{PATH}"])
    match = re.search(r"requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout", text)
    ok2xx = number(r"status codes: (\d+) 2xx", text)
    done = match and int(match.group(4)) == requests and match.group(5) == match.group(6) == match.group(7) == "0"
    check(f"h2load --h1 -m {pipelined} ({'pipelined' if pipelined > 1 else 'one at a time'}), {kind}: {requests} succeeded, all 2xx",
          code == 0 and done and ok2xx == requests, match.group(0) if match else text[-200:])


def siege(kind, port):
    code, text = run(f"siege-{kind}", ["siege", "-b", "-q", "-c", "8", "-r", "100", f"http://127.0.0.1:{port}{PATH}"])
    transactions = number(r'"transactions":\s+(\d+)', text, number(r"Transactions:\s+(\d+)", text))
    failed = number(r'"failed_transactions":\s+(\d+)', text, number(r"Failed transactions:\s+(\d+)", text))
    check(f"siege -c 8 -r 100, {kind}: 800 transactions, none failed", code == 0 and transactions == 800 and failed == 0,
          f"transactions {transactions}, failed {failed}")


def curl10(kind, port, count=100):
    urls = [f"http://127.0.0.1:{port}{path}" for path in CURL_PATHS[:count]]
    # -o for each URL: curl's -o applies to one.
    code, text = run(f"curl-http1.0-{kind}", ["curl", "--http1.0", "-s", "-w", "%{http_code} %{size_download} %header{content-length}\\n",
                                              *(part for url in urls for part in (url, "-o", "/dev/null"))])
    lines = text.split("\n")[:count]
    good = [line for line in lines if re.fullmatch(r"200 (\d+) \1", line)]
    check(f"curl --http1.0, {kind}: {count} URLs in one process, all 200 with the body Content-Length says",
          code == 0 and len(good) == count, f"{len(good)} good")


class Borrowed:
    """Gives http.client.HTTPResponse the one buffered reader of a socket, so
    that consecutive responses can be parsed from it (a response closes its
    reader when its body is read: here that does nothing)."""

    def __init__(self, reader):
        self.reader = reader

    def makefile(self, mode):
        return self

    def close(self):
        pass

    def __getattr__(self, name):
        return getattr(self.reader, name)


def http_client(kind, port, count=200):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    good = 0
    for path in KEEP_ALIVE_PATHS[:count]:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        good += response.status == 200 and len(body) == int(response.getheader("Content-Length")) and not response.will_close
    connection.close()
    check(f"http.client keep-alive, {kind}: {count} requests on one connection, all 200 and whole", good == count, f"{good} good")

    # Pipelined: 50 requests written at once, 50 answers parsed in order.
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        paths = PIPELINED_PATHS
        raw.sendall(b"".join(f"GET {path} HTTP/1.1\r\nHost: check\r\n\r\n".encode() for path in paths))
        reader = raw.makefile("rb")
        good = 0
        for _ in paths:
            response = http.client.HTTPResponse(Borrowed(reader))
            response.begin()
            body = response.read()
            good += response.status == 200 and len(body) == int(response.getheader("Content-Length"))
    check(f"http.client parsing 50 pipelined answers (raw socket), {kind}: all 200 and whole, in order", good == 50, f"{good} good")


def urllib3_pool(kind, port, threads=8, each=50):
    pool = urllib3.HTTPConnectionPool("127.0.0.1", port, maxsize=threads, block=True, retries=False, timeout=30)
    good = []

    def work(worker):
        ok = 0
        for index in range(each):
            response = pool.request("GET", POOL_PATHS[worker * each + index])
            ok += response.status == 200 and len(response.data) == int(response.headers["Content-Length"])
        good.append(ok)

    workers = [threading.Thread(target=work, args=(worker,)) for worker in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    check(f"urllib3, {threads} threads on a pool of keep-alive connections (no pipelining in urllib3), {kind}: "
          f"{threads * each} requests all 200 and whole", sum(good) == threads * each, f"{sum(good)} good")


def chromium(kind, port):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    page = os.path.abspath(os.path.join(OUT, f"page-{kind}.html"))
    with open(page, "w") as file:
        file.write("<!doctype html><title>200 images</title>\n")
        for path in PAGE_PATHS:
            file.write(f'<img src="http://127.0.0.1:{port}{path}">\n')
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.set_page_load_timeout(60)
        driver.get("file://" + page)
        WebDriverWait(driver, 60).until(lambda d: d.execute_script(
            "return [...document.images].every(i => i.complete)"))
        decoded = driver.execute_script("return [...document.images].filter(i => i.naturalWidth > 0).length")
    finally:
        driver.quit()
    check(f"Chromium, a page of 200 distinct <img>, {kind}: every image decoded (naturalWidth > 0)", decoded == 200, f"{decoded} decoded")


def main():
    os.makedirs(OUT, exist_ok=True)
    warm = http.client.HTTPConnection("127.0.0.1", HIT_PORT, timeout=30)
    for path in {PATH, *CURL_PATHS, *KEEP_ALIVE_PATHS, *PIPELINED_PATHS, *POOL_PATHS, *PAGE_PATHS}:
        warm.request("GET", path)
        warm.getresponse().read()
    warm.close()
    for kind, port in (("hits", HIT_PORT), ("misses", MISS_PORT)):
        ab(kind, port)
        h2load(kind, port, 1)
        h2load(kind, port, 8)
        siege(kind, port)
        curl10(kind, port)
        http_client(kind, port)
        urllib3_pool(kind, port)
        chromium(kind, port)
    failed = results.count(False)
    print(f"\n{results.count(True)} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
