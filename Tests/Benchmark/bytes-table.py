"""bytes-table.py — the bytes rows of scripts/bench.sh: reads the lines bytes.html (the raw floor)
and bytes-keystone.html (Keystone) printed, each prefixed with its side and run, and prints one
table: for each direction and size, the best run's median of Keystone's bytes, of the floor's
custom scheme and of Keystone's JSON path (base64 in JSON), with Keystone's ratio to the floor and
its speed-up over the JSON path; with CHART, also writes those times as an SVG chart (log scale).
For reading only: it decides nothing.

    python3 Tests/Benchmark/bytes-table.py SAMPLES [CHART]"""
import math
import re
import sys

best = {}
for line in open(sys.argv[1], encoding="utf-8"):
    match = re.match(r"^(floor|keystone|scheme):\d+\t(.*?)\t(\d+) MB\tmedian ([\d.]+) ms", line)
    if not match:
        continue
    side, way, size, median = match.group(1), match.group(2), int(match.group(3)), float(match.group(4))
    # Keystone's page run again through the byte scheme (a host without the extension).
    key = ("through the scheme: " + way if side == "scheme" else way, size)
    best[key] = min(best.get(key, median), median)

def beside(ms, other):
    """`other`'s time and `ms`'s ratio to it, or dashes where `other` was not measured."""
    return (f"{other:.0f} ms", f"{ms / other:.2f}") if other else ("-", "-")


def over_json(ms, json):
    """The JSON path's time and `ms`'s speed-up over it; past the message limit where it has none."""
    return (f"{json:.0f} ms", f"{json / ms:.1f}x") if json else ("past the message limit", "-")


# Native to page, the GTK host moves Swift's bytes through its web-process extension: its floor is
# the same mechanism with nothing else (floor.c's floorExtension), beside the custom scheme.
print("way | size | Keystone, bytes | floor, custom scheme | ratio to it | floor, extension | ratio to it | Keystone, JSON (base64) | speed-up over JSON")
print("--- | --- | --- | --- | --- | --- | --- | --- | ---")
for direction in ("page to native", "native to page"):
    for size in (1, 8, 64):
        bytes_ = best.get((f"keystone bytes, {direction}", size))
        floor = best.get((f"scheme, {direction}", size))
        extension = best.get((f"extension, {direction}", size))
        json = best.get((f"keystone JSON, {direction}", size))
        if bytes_ is None:
            continue
        floor_text, ratio = beside(bytes_, floor)
        extension_text, extension_ratio = beside(bytes_, extension)
        json_text, speedup = over_json(bytes_, json)
        print(f"{direction} | {size} MB | {bytes_:.0f} ms | {floor_text} | {ratio} | {extension_text} | {extension_ratio} | {json_text} | {speedup}")

def sized_table(header, row):
    """A table of `header` (its cells), a row for each size that `row(size)` gives cells for."""
    print()
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for size in (1, 8, 64):
        cells = row(size)
        if cells:
            print(" | ".join(cells))


def timed(way, size):
    return best.get((way, size))


def compared(header, direction, main, others, digits=0):
    """A table of `main`'s time for each size beside each of `others`: (way, "ratio") for the
    way's time and `main`'s ratio to it, (way, "time") for its time alone, (way, "json") for the
    JSON path's time and `main`'s speed-up over it."""
    def row(size):
        ms = timed(main, size)
        if ms is None:
            return None
        cells = [direction, f"{size} MB", f"{ms:.{digits}f} ms"]
        for way, kind in others:
            other = timed(way, size)
            cells += over_json(ms, other) if kind == "json" else beside(ms, other)[: 1 if kind == "time" else 2]
        return cells
    sized_table(header, row)


# The page's bytes to Swift through the GTK host's web-process extension, which reads only what a
# ticket admits, beside the byte scheme a host without the extension uses (at 8 MB the extension
# should be no slower), and beside Swift's bytes to the page through the extension (at 64 MB, within
# 1.5x of it).
compared(["page to native", "size", "Keystone, extension", "Keystone, byte scheme", "ratio to it", "native to page, extension", "ratio to it"],
         "page to native", "keystone bytes, page to native",
         [("through the scheme: keystone bytes, page to native", "ratio"), ("keystone bytes, native to page", "ratio")])

# Swift's bytes into a buffer the page lends (`invoke`'s `into`): beside a new array, the floor's
# extension and base64 in JSON.
compared(["native to page, into a page buffer", "size", "Keystone, into the buffer", "Keystone, new array", "floor, extension", "ratio to it",
          "Keystone, JSON (base64)", "speed-up over JSON"],
         "native to page", "keystone bytes into a page buffer, native to page",
         [("keystone bytes, native to page", "time"), ("extension, native to page", "ratio"), ("keystone JSON, native to page", "json")], digits=1)

# Bytes inside a value beside a name (`bench.describe`): beside the bytes alone (`bench.count`'s
# raw path) and beside the same value with base64 in JSON.
compared(["value with bytes, page to native", "size", "Keystone, parts", "Keystone, bytes alone", "ratio to bytes alone", "Keystone, JSON (base64)",
          "speed-up over JSON"],
         "page to native", "keystone value, page to native",
         [("keystone bytes, page to native", "ratio"), ("keystone value JSON, page to native", "json")])


# The memory rows, each run's as it was printed: a 64 MB transfer's peak as a multiple of the
# payload, and a 1 GB stream's growth and time.
memory = [line.rstrip("\n").split("\t", 1) for line in open(sys.argv[1], encoding="utf-8")
          if re.match(r"^keystone:\d+\t.*\t(64 MB\tpeak memory|1 GB\t|512 MB\tpeak memory)", line)]
if memory:
    print()
    for run, row in sorted(memory, key=lambda entry: (entry[1].split("\t")[:2], entry[0])):
        print(f"{run.split(':')[1]}: " + " | ".join(row.split("\t")))

if len(sys.argv) > 2:
    # One group of bars per direction and size: Keystone's bytes (blue), the floor's scheme (grey),
    # Keystone's JSON path (orange), on a log scale from 1 ms to 10 s.
    series = [("Keystone, bytes", "keystone bytes, {}", "#2f6fd6"), ("floor, custom scheme", "scheme, {}", "#999"),
              ("Keystone, JSON (base64)", "keystone JSON, {}", "#e08a2c")]
    rows = [(direction, size) for direction in ("page to native", "native to page") for size in (1, 8, 64)]
    left, width, bar, gap = 170, 560, 12, 14
    height = 60 + len(rows) * (len(series) * bar + gap) + 40

    def x(ms):
        return left + width * min(max(math.log10(max(ms, 1.0)) / 4.0, 0.0), 1.0)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 150}" height="{height}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="20" font-size="14" font-weight="bold">Moving bytes: time per transfer, log scale (best run of 3, median of its rounds)</text>']
    for index, (name, _, colour) in enumerate(series):
        out.append(f'<rect x="{10 + index * 200}" y="32" width="12" height="12" fill="{colour}"/><text x="{26 + index * 200}" y="43">{name}</text>')
    top = 60
    for decade, label in enumerate(["1 ms", "10 ms", "100 ms", "1 s", "10 s"]):
        at = left + width * decade / 4
        out.append(f'<line x1="{at}" y1="{top - 6}" x2="{at}" y2="{height - 34}" stroke="#ddd"/>')
        out.append(f'<text x="{at}" y="{height - 20}" text-anchor="middle" fill="#555">{label}</text>')
    y = top
    for direction, size in rows:
        out.append(f'<text x="{left - 8}" y="{y + bar * 1.8}" text-anchor="end">{direction.replace(" to ", " → ")}, {size} MB</text>')
        for name, key, colour in series:
            ms = best.get((key.format(direction), size))
            if ms is not None:
                out.append(f'<rect x="{left}" y="{y}" width="{x(ms) - left:.1f}" height="{bar - 2}" fill="{colour}"/>')
                out.append(f'<text x="{x(ms) + 4:.1f}" y="{y + bar - 3}" fill="#333">{ms:.0f} ms</text>')
            y += bar
        y += gap
    out.append("</svg>")
    with open(sys.argv[2], "w", encoding="utf-8") as chart:
        chart.write("\n".join(out) + "\n")
