"""What the Python benchmarks under bench/ share: the release binary started
on a loopback port, its memory and metrics, wrk, paced clients that time
each request (bench/fairness, bench/flood), and APNG files decoded frame by
frame as the APNG specification composites them."""

import multiprocessing
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# PAGEDOTS=path runs a benchmark on another binary (an A/B against an older build).
BINARY = os.environ.get("PAGEDOTS") or os.path.join(ROOT, ".build", "release", "pagedots")


def build_release():
    """Builds the release binary (quietly unless it fails); nothing when PAGEDOTS names one."""
    if os.environ.get("PAGEDOTS"):
        return
    result = subprocess.run(["swift", "build", "-c", "release", "--product", "pagedots"],
                            cwd=ROOT, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("build failed:\n" + result.stdout + result.stderr)


def require(tool, package):
    if shutil.which(tool) is None:
        sys.exit(f"{tool} is needed: apt-get install {package}")


class Server:
    """`pagedots serve` (of `binary`) on 127.0.0.1 and `port` (default: $PD_PORT,
    else a free one; or the `--port` among `arguments`), killed after `limit`
    seconds at the latest."""

    def __init__(self, *arguments, limit=600, binary=BINARY, port=None):
        port = port if port is not None else int(os.environ.get("PD_PORT", "0"))
        self.process = subprocess.Popen(
            ["timeout", "-s", "KILL", str(limit), binary, "serve", "--host", "127.0.0.1", "--port", str(port), *arguments],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if not match:
            self.process.kill()
            sys.exit("pagedots did not start: " + line)
        self.port = int(match.group(1))
        self.pid = self.server_pid()

    def server_pid(self):
        """The pid of pagedots itself (the child of `timeout`)."""
        for _ in range(100):
            children = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True, text=True).stdout.split()
            if children:
                return int(children[0])
            time.sleep(0.01)
        sys.exit("cannot find the pagedots process")

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def memory(self):
        """VmRSS and VmHWM (peak RSS) in KiB, from /proc."""
        values = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                name, _, rest = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    values[name] = int(rest.split()[0])
        return values

    def metrics(self):
        """/metrics samples by name (labels included in the name)."""
        import urllib.request
        with urllib.request.urlopen(self.url("/metrics"), timeout=10) as response:
            text = response.read().decode()
        samples = {}
        for line in text.splitlines():
            if line and not line.startswith("#"):
                name, _, value = line.rpartition(" ")
                samples[name] = float(value)
        return samples

    def signal(self, number=signal.SIGTERM):
        os.kill(self.pid, number)

    def wait(self):
        """Waits for the exit; returns the exit status."""
        self.process.wait()
        return self.process.returncode

    def errors(self):
        """What the server wrote to stderr after its first line (after it exited)."""
        return self.process.stderr.read()

    def stop(self):
        if self.process.poll() is None:
            self.signal()
            self.wait()


def wrk(url, connections, seconds, threads=2, script=None, script_arguments=(), until=None):
    """Runs wrk under nice for `seconds`, or until `until()` (polled 5 times a
    second) is true, when it is interrupted as Ctrl-C would (wrk then reports
    as usual); returns requests, requests/s, latency percentiles (ms) and errors."""
    command = ["nice", "-n", "5", "wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--latency"]
    if script:
        command += ["-s", script]
    command.append(url)
    if script_arguments:
        command += ["--", *map(str, script_arguments)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    deadline = time.monotonic() + seconds + 60
    while process.poll() is None and until is not None and time.monotonic() < deadline:
        if until():
            process.send_signal(signal.SIGINT)
            break
        time.sleep(0.2)
    output = process.communicate(timeout=max(1, deadline - time.monotonic()))[0]
    result = {"output": output}
    match = re.search(r"(\d+) requests in", output)
    result["requests"] = int(match.group(1)) if match else 0
    match = re.search(r"Requests/sec:\s+([\d.]+)", output)
    result["rate"] = float(match.group(1)) if match else 0.0
    for percentile in ("50", "99"):
        match = re.search(rf"\s{percentile}%\s+([\d.]+)(us|ms|s)\b", output)
        if match:
            factor = {"us": 0.001, "ms": 1.0, "s": 1000.0}[match.group(2)]
            result["p" + percentile] = float(match.group(1)) * factor
    match = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    result["non2xx"] = int(match.group(1)) if match else 0
    match = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    result["socket_errors"] = sum(map(int, match.groups())) if match else 0
    return result


def wrk_until_counted(server, counter, count, seconds, script, script_arguments, connections=32, threads=2):
    """wrk with `script` until the server's /metrics counter `counter` has
    grown by `count` (e.g. that many cache misses), or for `seconds`;
    returns wrk's figures."""
    target = server.metrics().get(counter, 0) + count
    return wrk(server.url("/"), connections, seconds, threads=threads, script=script,
               script_arguments=script_arguments, until=lambda: server.metrics().get(counter, 0) >= target)


def mib(kib):
    return kib / 1024.0


def print_table(header, rows, left=(0, 1, -1)):
    """Rows of strings under the header, in columns as wide as their widest
    cell: the columns numbered in `left` (negative from the end) flush left,
    the rest flush right."""
    widths = [max(len(row[i]) for row in rows + [header]) for i in range(len(header))]
    left = {i % len(header) for i in left}
    for row in [header] + rows:
        print("  ".join(c.ljust(widths[i]) if i in left else c.rjust(widths[i]) for i, c in enumerate(row)).rstrip())


# APNG files, decoded as the APNG specification composites them (Pillow
# decodes each frame's region; the compositing is done here, since Pillow's
# own blends with a mask and gets translucent pixels wrong).

def png_chunks(path):
    """(name, body) of every chunk of a PNG file."""
    with open(path, "rb") as file:
        data = file.read()
    offset = 8
    while offset < len(data):
        length = int.from_bytes(data[offset:offset + 4], "big")
        yield data[offset + 4:offset + 8], data[offset + 8:offset + 8 + length]
        offset += 12 + length


def apng_frame_count(path):
    """acTL's frame count (0 when the file has none)."""
    return next((int.from_bytes(body[0:4], "big") for name, body in png_chunks(path) if name == b"acTL"), 0)


def _region_png(kind, width, height, rest, stream):
    """A still PNG of one frame's region: the file's IHDR (at the region's size), PLTE, tRNS, the frame's zlib stream."""
    def chunk(name, body):
        return len(body).to_bytes(4, "big") + name + body + zlib.crc32(name + body).to_bytes(4, "big")
    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + kind
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + b"".join(chunk(n, b) for n, b in rest) + chunk(b"IDAT", stream) + chunk(b"IEND", b"")


def _over(source, destination):
    """The APNG specification's OVER on straight-alpha RGBA arrays, rounded to
    nearest; exact where an alpha is 0 or 255."""
    import numpy
    sa = source[..., 3:4].astype(numpy.int64)
    da = destination[..., 3:4].astype(numpy.int64)
    out = sa * 255 + da * (255 - sa)
    safe = numpy.maximum(out, 1)
    color = (source[..., :3] * sa * 255 + destination[..., :3] * da * (255 - sa) + out // 2) // safe
    blended = numpy.concatenate([color, (out + 127) // 255], axis=-1).astype(numpy.uint8)
    blended = numpy.where((sa == 255) | (da == 0), source, blended)
    return numpy.where(sa == 0, destination, blended)


def _merge(frames, pixels, ms):
    """Appends a frame, or lengthens the last one if it shows the same."""
    if frames and frames[-1][0] == pixels:
        frames[-1][1] += ms
    else:
        frames.append([pixels, ms])


def _visible(canvas):
    """RGBA bytes with every fully transparent pixel made transparent black."""
    import numpy
    return numpy.where(canvas[..., 3:4] == 0, 0, canvas).astype(numpy.uint8).tobytes()


def apng_shown(path):
    """The frames an APNG shows, as [RGBA bytes, ms]: composited as the APNG
    specification says, consecutive equal ones merged, fully transparent
    pixels alike."""
    import io
    import numpy
    from PIL import Image
    width = height = kind = None
    rest, controls = [], []
    for name, body in png_chunks(path):
        if name == b"IHDR":
            width, height, kind = int.from_bytes(body[0:4], "big"), int.from_bytes(body[4:8], "big"), body[8:]
        elif name in (b"PLTE", b"tRNS"):
            rest.append((name, body))
        elif name == b"fcTL":
            controls.append([body, b""])
        elif name == b"IDAT" and controls:
            controls[-1][1] += body
        elif name == b"fdAT":
            controls[-1][1] += body[4:]
    canvas = numpy.zeros((height, width, 4), numpy.uint8)
    frames, previous = [], None
    for number, (control, stream) in enumerate(controls):
        w, h, x, y = (int.from_bytes(control[i:i + 4], "big") for i in (4, 8, 12, 16))
        num, den = int.from_bytes(control[20:22], "big"), int.from_bytes(control[22:24], "big") or 100
        dispose, blend = control[24], control[25]
        if previous:
            pw, ph, px, py, pdispose, saved = previous
            if pdispose == 2 and number == 1:
                pdispose = 1  # PREVIOUS on the first frame means BACKGROUND
            if pdispose == 1:
                canvas[py:py + ph, px:px + pw] = 0
            elif pdispose == 2:
                canvas[py:py + ph, px:px + pw] = saved
        saved = canvas[y:y + h, x:x + w].copy()
        with Image.open(io.BytesIO(_region_png(kind, w, h, rest, stream))) as region:
            pixels = numpy.asarray(region.convert("RGBA"), numpy.uint8).reshape(h, w, 4)
        canvas[y:y + h, x:x + w] = pixels if blend == 0 else _over(pixels, canvas[y:y + h, x:x + w])
        previous = (w, h, x, y, dispose, saved)
        _merge(frames, _visible(canvas), num * 1000 / den)
    return frames


def raw_frames(rgba_path, delays_path, width, height):
    """Frames given as raw RGBA one after the other and their delays in ms,
    one a line, as `apng_shown` gives them (merged, transparent pixels alike)."""
    import numpy
    data = numpy.fromfile(rgba_path, numpy.uint8)
    with open(delays_path) as file:
        delays = [int(x) for x in file.read().split()]
    frames = []
    for n, ms in enumerate(delays):
        _merge(frames, _visible(data[n * width * height * 4:(n + 1) * width * height * 4].reshape(height, width, 4)), ms)
    return frames


def read_response(sock, buffer):
    """Reads one response from `sock` (Content-Length framed); returns (status, rest of buffer)."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buffer += chunk
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(buffer) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        buffer += chunk
    return int(head.split(b" ")[1]), buffer[length:]


def paced(port, seconds, gap, target, results):
    """One keep-alive connection sending `target(n)` every `gap` seconds on a
    fixed schedule (a late request goes at once, the schedule is kept);
    puts (latencies in ms, statuses) in `results`."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    latencies, statuses, buffer = [], {}, b""
    start = time.perf_counter()
    count = int(seconds / gap)
    for n in range(count):
        delay = start + n * gap - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        sent = time.perf_counter()
        sock.sendall(target(n))
        status, buffer = read_response(sock, buffer)
        latencies.append((time.perf_counter() - sent) * 1000)
        statuses[status] = statuses.get(status, 0) + 1
    sock.close()
    results.put((latencies, statuses))


def start_paced(port, seconds, gap, target):
    results = multiprocessing.Queue()
    process = multiprocessing.Process(target=paced, args=(port, seconds, gap, target, results))
    process.start()
    return process, results


def finish(started):
    process, results = started
    latencies, statuses = results.get()
    process.join()
    return latencies, statuses


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p / 100))]


def describe(name, latencies, statuses):
    total = sum(statuses.values())
    ok = statuses.get(200, 0)
    return (f"{name:36} {total:5} requests, {100 * ok / total:6.2f} % 200 ({statuses}), "
            f"p50 {percentile(latencies, 50):7.3f} ms, p99 {percentile(latencies, 99):7.3f} ms")


def lua_file(text):
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(text)
    return script.name


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
