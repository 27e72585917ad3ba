"""bytes-table.py — the bytes rows of scripts/bench.sh: reads the lines bytes.html (the raw floor)
and bytes-keystone.html (Keystone) printed, each prefixed with its side and run, and prints one
table: for each direction and size, the best run's median of Keystone's bytes, of the floor's
custom scheme and of Keystone's JSON path (base64 in JSON), with Keystone's ratio to the floor and
its speed-up over the JSON path. For reading only: it decides nothing.

    python3 Tests/Benchmark/bytes-table.py SAMPLES"""
import re
import sys

best = {}
for line in open(sys.argv[1], encoding="utf-8"):
    match = re.match(r"^(floor|keystone):\d+\t(.*?)\t(\d+) MB\tmedian ([\d.]+) ms", line)
    if not match:
        continue
    side, way, size, median = match.group(1), match.group(2), int(match.group(3)), float(match.group(4))
    key = (way, size)
    best[key] = min(best.get(key, median), median)

print("way | size | Keystone, bytes | floor, custom scheme | ratio to floor | Keystone, JSON (base64) | speed-up over JSON")
print("--- | --- | --- | --- | --- | --- | ---")
for direction in ("page to native", "native to page"):
    for size in (1, 8, 64):
        bytes_ = best.get((f"keystone bytes, {direction}", size))
        floor = best.get((f"scheme, {direction}", size))
        json = best.get((f"keystone JSON, {direction}", size))
        if bytes_ is None:
            continue
        floor_text, ratio = (f"{floor:.0f} ms", f"{bytes_ / floor:.2f}") if floor else ("-", "-")
        json_text, speedup = (f"{json:.0f} ms", f"{json / bytes_:.1f}x") if json else ("past the message limit", "-")
        print(f"{direction} | {size} MB | {bytes_:.0f} ms | {floor_text} | {ratio} | {json_text} | {speedup}")
