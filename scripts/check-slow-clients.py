#!/usr/bin/env python3
"""Slow clients against a running-from-here pagedots: slowhttptest's three attacks.

Usage: check-slow-clients.py BINARY PORT OUT_DIR

Starts BINARY on 127.0.0.1:PORT with short deadlines (--header-timeout 2,
--send-timeout 3, --idle-timeout 2) so that the run takes a few minutes, then
for each attack
  - slowloris (-H): 1,000 connections, 50 a second, each sending its
    request head a header line a second, forever,
  - slow body (-B): the same with a POST whose body comes a line a second,
  - slow read (-X): ten pipelined requests for a 235 KB SVG each (1000
    outlined hearts: more than the socket buffers of both ends hold on
    loopback; the solid hearts, 143 KB since the SVG is written lean, are
    not enough), read 1 KB a
    second through a receive window of at most 16 bytes, 200 connections,
    10 a second (slowhttptest sees the server's reset only once it has read
    what its socket still holds),
runs slowhttptest (its CSV report in OUT_DIR) while a normal client asks for a
cached image every 10 ms on a keep-alive connection, and /metrics is read every
half second. Checks, for each attack: every request of the normal client
succeeded, its p99 stayed under a second; slowhttptest never found the service
unavailable; the attacking connections were closed by the deadlines (in
slowhttptest's report, and in the server's counters: the 408s for slowloris and
slow body, the open connections for slow read). Prints the figures, then
`N passed, N failed`; exits 1 if a check failed.
"""
import csv
import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

BINARY, PORT, OUT = sys.argv[1], int(sys.argv[2]), sys.argv[3]
BASE = f"http://127.0.0.1:{PORT}"
NORMAL = "/indicator?pages=5&current=2"
BIG = "/indicator.svg?pages=1000&shape=heart&size=4&spacing=0&fill=outline&stroke=0.5"
HEADER_TIMEOUT, SEND_TIMEOUT = 2, 3
ATTACK_SECONDS = 30
results = []


def check(what, condition):
    results.append(bool(condition))
    print(("ok: " if condition else "FAILED: ") + what, flush=True)


def metrics():
    with urllib.request.urlopen(BASE + "/metrics", timeout=5) as response:
        samples = {}
        for line in response.read().decode().splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                samples[name] = float(value)
        return samples


TIMEOUTS_408 = 'pagedots_requests_total{route="other",status="408"}'


class Sampler(threading.Thread):
    """/metrics every half second: open connections and 408s sent."""

    def __init__(self):
        super().__init__(daemon=True)
        self.samples, self.running = [], True

    def run(self):
        start = time.monotonic()
        while self.running:
            values = metrics()
            self.samples.append((time.monotonic() - start, values.get("pagedots_open_connections", 0), values.get(TIMEOUTS_408, 0)))
            time.sleep(0.5)


class NormalClient(threading.Thread):
    """A cached image every 10 ms on one keep-alive connection, for `seconds`
    or until `stop`; any failure counts."""

    def __init__(self, seconds):
        super().__init__(daemon=True)
        self.seconds, self.latencies, self.failures = seconds, [], 0
        self.stop = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        end = time.monotonic() + self.seconds
        while time.monotonic() < end and not self.stop.is_set():
            start = time.monotonic()
            try:
                connection.request("GET", NORMAL)
                response = connection.getresponse()
                body = response.read()
                if response.status != 200 or len(body) != int(response.getheader("Content-Length")):
                    raise ValueError(f"status {response.status}")
                self.latencies.append((time.monotonic() - start) * 1000)
            except (OSError, ValueError, http.client.HTTPException):
                self.failures += 1
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
            time.sleep(max(0.0, 0.01 - (time.monotonic() - start)))
        connection.close()

    def summary(self):
        ordered = sorted(self.latencies)
        p99 = ordered[int(len(ordered) * 0.99) - 1] if ordered else float("inf")
        return (f"{len(self.latencies)} requests ok, {self.failures} failed; p50 {statistics.median(ordered):.2f} ms, "
                f"p99 {p99:.2f} ms, max {ordered[-1]:.2f} ms"), p99


def report(prefix):
    """slowhttptest's CSV: seconds, closed, pending, connected, service available (0 when not)."""
    with open(prefix + ".csv") as file:
        rows = [[int(value) for value in row] for row in list(csv.reader(file))[1:] if row]
    return rows


def attack(name, arguments, connections):
    print(f"\n== {name}: slowhttptest {' '.join(arguments)}", flush=True)
    before = metrics().get(TIMEOUTS_408, 0)
    sampler, client = Sampler(), NormalClient(ATTACK_SECONDS)
    sampler.start()
    prefix = os.path.join(OUT, name)
    with open(prefix + ".out", "w") as output:
        attacker = subprocess.Popen(
            ["timeout", str(ATTACK_SECONDS + 30), "slowhttptest", *arguments, "-c", str(connections),
             "-l", str(ATTACK_SECONDS), "-p", "3", "-g", "-o", prefix],
            stdout=output, stderr=subprocess.STDOUT)
        time.sleep(0.5)  # let the attack begin before the normal client measures (a check script, not a test)
        client.start()
        attacker.wait()
    # The normal client is measured while the attack runs, and no longer.
    client.stop.set()
    client.join()
    time.sleep(1)
    sampler.running = False
    sampler.join()
    rows = report(prefix)
    text, p99 = client.summary()
    print(f"normal client during the attack: {text}")
    # Its last status block (colours taken out): closed, and how the test ended.
    status = re.sub(r"\x1b\[[0-9;]*m", "", open(prefix + ".out").read())
    ended = re.findall(r"Exit status:\s*(.*)", status)[-1].strip()
    ended_second = int(re.findall(r"Test ended on (\d+)", status)[-1])
    first_close = next((second for second, count, *_ in rows if count > 0), ended_second)
    print(f"slowhttptest: {connections} connections, at most {max(row[3] for row in rows)} connected at once; "
          f"the first closed in second {first_close}; the test ended in second {ended_second}: \"{ended}\"")
    peak_open = max(sample[1] for sample in sampler.samples)
    last_open = sampler.samples[-1][1]
    sent_408 = sampler.samples[-1][2] - before
    print(f"server: open connections at most {peak_open:.0f}, {last_open:.0f} at the end; {sent_408:.0f} 408s sent")
    check(f"{name}: every request of the normal client succeeded", client.failures == 0 and client.latencies)
    check(f"{name}: the normal client's p99 stayed under 1 s ({p99:.1f} ms)", p99 < 1000)
    check(f"{name}: slowhttptest never found the service unavailable", all(row[4] > 0 for row in rows))
    check(f"{name}: slowhttptest saw every attacking connection closed before the {ATTACK_SECONDS} s attack ended "
          f"(\"No open connections left\" in second {ended_second})", ended == "No open connections left")
    return first_close, sent_408, peak_open, last_open


def main():
    os.makedirs(OUT, exist_ok=True)
    server = subprocess.Popen(
        ["timeout", "900", BINARY, "serve", "--host", "127.0.0.1", "--port", str(PORT),
         "--header-timeout", str(HEADER_TIMEOUT), "--send-timeout", str(SEND_TIMEOUT), "--idle-timeout", "2"],
        stdout=open(os.path.join(OUT, "access.log"), "w"), stderr=open(os.path.join(OUT, "server.log"), "w"))
    try:
        for _ in range(100):
            try:
                metrics()
                break
            except OSError:
                time.sleep(0.05)
        for path in (NORMAL, BIG):
            urllib.request.urlopen(BASE + path, timeout=10).read()
        alone = NormalClient(5)
        alone.start()
        alone.join()
        print(f"normal client alone: {alone.summary()[0]}")

        for name, arguments in (("slowloris", ["-H"]), ("slow-body", ["-B", "-s", "8192"])):
            # 50 new connections a second for 20 s, each held until the server ends it.
            first_close, sent_408, _, _ = attack(name, [*arguments, "-r", "50", "-i", "1", "-x", "10", "-u", BASE + NORMAL], 1000)
            check(f"{name}: the server answered each attacking connection 408 at the header timeout ({sent_408:.0f} sent)",
                  sent_408 >= 1000)
            check(f"{name}: none was closed before the {HEADER_TIMEOUT} s header timeout (first in second {first_close})",
                  first_close >= HEADER_TIMEOUT)

        first_close, _, peak_open, last_open = attack(
            "slow-read", ["-X", "-r", "10", "-k", "10", "-n", "1", "-w", "1", "-y", "16", "-z", "1024", "-u", BASE + BIG], 200)
        check(f"slow read: the attacking connections were open on the server together ({peak_open:.0f} at most), "
              f"then reset by the send timeout ({last_open:.0f} open at the end)", peak_open >= 20 and last_open <= 2)
        check(f"slow read: none was closed before the {SEND_TIMEOUT} s send timeout (first in second {first_close})",
              first_close >= SEND_TIMEOUT)
    finally:
        server.terminate()
        server.wait()
    failed = results.count(False)
    print(f"\n{results.count(True)} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
