#!/usr/bin/env python3
"""trace.py TRACE DIR — turns a Keystone trace (JSON lines, `Tracing` / `keystone-demo --trace`)
into DIR/trace.json, in the Trace Event format Perfetto and Chrome's tracing load, and
DIR/timeline.html, a page that draws the same timeline with no network access.

Tracks: a process per page (web view), a thread per frame (the main frame, each subframe
document), and per page a track of its page loads, one of its byte transfers, one of its durable
calls and one of the marks its page made of its own work (`dsBridge.mark`). Each call from the page
is a slice from its arrival until its answer, or, for an asynchronous call answered through its
callback, until the message that ends it; each transfer a slice of its own; each durable call a
slice from its start (`begun`) to the end of its run (`ended`), paired in order by page, origin and
method; each mark a slice from its begin to its end (an instant when never ended); messages to the
page, the other durable steps and page-load steps are instants. The runtime's own `_dsb.mark` calls,
which carry the marks, are not drawn as calls.

`trace.py --check DIR/trace.json` checks a Trace Event file: required fields, complete slices with
a duration, one process per page named, and every thread named."""
import html
import json
import os
import sys

MAIN, LOADS, TRANSFERS, DURABLE, MARKS = 0, 1 << 40, (1 << 40) + 1, (1 << 40) + 2, (1 << 40) + 3
ENDS = {"result", "failure", "noResult", "completion", "release"}


def us(ms):
    return round(ms * 1000, 3)


def convert(records):
    events, threads, pages = [], {}, set()
    # The messages that end an async call's callback, by its page, page load, document and name: an
    # end can be written before the call's own record, which waits for the call's answer.
    ends = {}
    for record in records:
        if record["kind"] == "message" and record.get("step") in ENDS and (record.get("step") != "result" or record.get("outcome") == "ok"):
            key = (record["page"], record.get("pageLoad"), record.get("document"), record.get("callback"))
            ends.setdefault(key, []).append(record)
    load_began = {}
    # Durable calls running, by page, origin and method: each `begun` until the `ended` after it.
    durable_begun = {}
    # Marks begun and not yet ended, by page, page load, document and span.
    marks_begun = {}

    def thread(page, tid, name):
        pages.add(page)
        threads[(page, tid)] = name
        return tid

    for record in records:
        page, kind, time = record["page"], record["kind"], record["time"]
        document = record.get("document")
        frame = thread(page, MAIN, "main frame") if document is None else thread(page, document, f"frame document {document}")
        args = {k: v for k, v in record.items() if k not in ("kind", "time", "page", "duration", "value")}
        if kind == "call" and record.get("name") == "_dsb.mark":
            continue
        if kind == "call":
            duration = record.get("duration", 0)
            event = {"name": record.get("name") or "(name past its limit)", "cat": "call", "ph": "X", "ts": us(time - duration),
                     "dur": us(duration), "pid": page, "tid": frame, "args": args}
            events.append(event)
            key = (page, record.get("pageLoad"), document, record.get("callback"))
            if record.get("outcome") in ("accepted", "ticket") and key in ends:
                later = [end for end in ends[key] if end["time"] >= time - duration]
                if later:
                    end = min(later, key=lambda end: end["time"])
                    event["dur"] = max(0.0, us(end["time"]) - event["ts"])
                    event["args"]["ended"] = end["step"]
        elif kind == "message":
            step = record.get("step")
            events.append({"name": f"to page: {step}" + (f" {record['name']}" if record.get("name") else ""), "cat": "message", "ph": "i",
                           "s": "t", "ts": us(time), "pid": page, "tid": frame, "args": args})
        elif kind == "transfer":
            duration = record.get("duration", 0)
            events.append({"name": f"bytes: {record.get('step')}", "cat": "transfer", "ph": "X", "ts": us(time - duration), "dur": us(duration),
                           "pid": page, "tid": thread(page, TRANSFERS, "byte transfers"), "args": args})
        elif kind == "durable":
            tid = thread(page, DURABLE, "durable calls")
            step, key = record.get("step"), (page, record.get("origin"), record.get("name"))
            if step == "begun":
                durable_begun.setdefault(key, []).append(record)
            elif step == "ended" and durable_begun.get(key):
                begun = durable_begun[key].pop(0)
                events.append({"name": f"durable {record.get('name')}", "cat": "durable", "ph": "X", "ts": us(begun["time"]),
                               "dur": us(time - begun["time"]), "pid": page, "tid": tid, "args": args})
            else:
                events.append({"name": f"durable {step}" + (f" {record['name']}" if record.get("name") else ""), "cat": "durable",
                               "ph": "i", "s": "t", "ts": us(time), "pid": page, "tid": tid, "args": args})
        elif kind == "mark":
            tid = thread(page, MARKS, "page marks")
            key = (page, record.get("pageLoad"), document, record.get("span"))
            if record.get("step") == "begin":
                marks_begun[key] = record
            elif key in marks_begun:
                begun = marks_begun.pop(key)
                events.append({"name": begun.get("name") or "mark", "cat": "mark", "ph": "X", "ts": us(begun["time"]),
                               "dur": max(0.0, us(time - begun["time"])), "pid": page, "tid": tid, "args": args})
        elif kind == "pageLoad":
            tid = thread(page, LOADS, "page loads")
            load = record.get("pageLoad")
            step = record.get("step")
            if step == "began":
                load_began[(page, load)] = time
            elif step == "ended" and (page, load) in load_began:
                began = load_began.pop((page, load))
                events.append({"name": f"page load {load}", "cat": "pageLoad", "ph": "X", "ts": us(began), "dur": us(time - began),
                               "pid": page, "tid": tid, "args": args})
            else:
                events.append({"name": f"page load {load} {step}", "cat": "pageLoad", "ph": "i", "s": "t", "ts": us(time), "pid": page,
                               "tid": tid, "args": args})
    for (page, *_), begun in marks_begun.items():
        events.append({"name": begun.get("name") or "mark", "cat": "mark", "ph": "i", "s": "t", "ts": us(begun["time"]), "pid": page,
                       "tid": MARKS, "args": {k: v for k, v in begun.items() if k not in ("kind", "time", "page")}})
    for (page, *_), runs in durable_begun.items():
        for begun in runs:
            events.append({"name": f"durable begun {begun.get('name')}", "cat": "durable", "ph": "i", "s": "t", "ts": us(begun["time"]),
                           "pid": page, "tid": DURABLE, "args": {k: v for k, v in begun.items() if k not in ("kind", "time", "page")}})
    end = max([e["ts"] + e.get("dur", 0) for e in events], default=0)
    for (page, load), began in load_began.items():
        events.append({"name": f"page load {load}", "cat": "pageLoad", "ph": "X", "ts": us(began), "dur": max(0.0, end - us(began)),
                       "pid": page, "tid": LOADS, "args": {"pageLoad": load, "step": "current"}})
    for page in sorted(pages):
        events.append({"name": "process_name", "ph": "M", "pid": page, "tid": 0, "args": {"name": f"page {page}"}})
        events.append({"name": "process_sort_index", "ph": "M", "pid": page, "tid": 0, "args": {"sort_index": page}})
    for (page, tid), name in sorted(threads.items()):
        events.append({"name": "thread_name", "ph": "M", "pid": page, "tid": tid, "args": {"name": name}})
    return {"traceEvents": events, "displayTimeUnit": "ms"}


def check(trace):
    """The problems of a Trace Event file, as lines."""
    problems = []
    events = trace.get("traceEvents") if isinstance(trace, dict) else None
    if not isinstance(events, list):
        return ["no traceEvents list"]
    named_pages, named_threads, used = set(), set(), set()
    for index, event in enumerate(events):
        for field in ("name", "ph", "pid", "tid"):
            if field not in event:
                problems.append(f"event {index} has no {field}")
        phase = event.get("ph")
        if phase == "M":
            if event.get("name") == "process_name":
                named_pages.add(event["pid"])
            if event.get("name") == "thread_name":
                named_threads.add((event["pid"], event["tid"]))
            continue
        if not isinstance(event.get("ts"), (int, float)):
            problems.append(f"event {index} has no time")
        if phase == "X" and not (isinstance(event.get("dur"), (int, float)) and event["dur"] >= 0):
            problems.append(f"slice {index} ({event.get('name')}) has no duration")
        if phase in ("B", "E"):
            problems.append(f"event {index} is a begin or end, not a complete slice")
        used.add((event.get("pid"), event.get("tid")))
    for pid, tid in sorted(used):
        if pid not in named_pages:
            problems.append(f"page {pid} has no track name")
        if (pid, tid) not in named_threads:
            problems.append(f"track {tid} of page {pid} has no name")
    return problems


TIMELINE = """<!doctype html>
<meta charset="utf-8">
<title>Keystone timeline</title>
<style>
body { font: 12px system-ui, sans-serif; margin: 0; }
header { padding: 8px 12px; border-bottom: 1px solid #ccc; }
.page { border-bottom: 2px solid #888; }
.page > h2 { font-size: 13px; margin: 4px 12px; }
.track { position: relative; height: 22px; border-top: 1px solid #eee; }
.track > .label { position: absolute; left: 0; width: 160px; padding: 3px 12px; color: #555; white-space: nowrap; overflow: hidden; }
.lane { position: absolute; left: 184px; right: 12px; top: 0; bottom: 0; }
.slice, .instant { position: absolute; top: 3px; height: 15px; overflow: hidden; white-space: nowrap; font-size: 10px; line-height: 15px; }
.slice { background: #6a9be8; color: #fff; min-width: 2px; border-radius: 2px; }
.slice.transfer { background: #e8a56a; } .slice.pageLoad { background: #bbb; color: #222; }
.slice.error { background: #d9534f; }
.instant { width: 2px; background: #333; }
.instant.durable { background: #8a4fd9; } .slice.durable { background: #8a4fd9; }
.slice.mark { background: #4fae6a; } .instant.mark { background: #2e7d43; }
</style>
<header><b>Keystone timeline</b> — <span id="summary"></span></header>
<main id="timeline"></main>
<script type="application/json" id="trace">__TRACE__</script>
<script>
(function () {
  var trace = JSON.parse(document.getElementById('trace').textContent);
  var events = trace.traceEvents, names = {}, tracks = {};
  events.forEach(function (e) {
    if (e.ph === 'M' && e.name === 'process_name') names['p' + e.pid] = e.args.name;
    if (e.ph === 'M' && e.name === 'thread_name') names[e.pid + '/' + e.tid] = e.args.name;
  });
  var timed = events.filter(function (e) { return e.ph !== 'M'; });
  var start = Math.min.apply(null, timed.map(function (e) { return e.ts; }).concat([0]));
  var end = Math.max.apply(null, timed.map(function (e) { return e.ts + (e.dur || 0); }).concat([start + 1]));
  function at(ts) { return ((ts - start) / (end - start) * 100) + '%'; }
  var root = document.getElementById('timeline');
  timed.forEach(function (e) {
    var key = e.pid + '/' + e.tid;
    if (!tracks[key]) {
      var page = document.getElementById('page-' + e.pid);
      if (!page) {
        page = document.createElement('section');
        page.className = 'page'; page.id = 'page-' + e.pid;
        var title = document.createElement('h2'); title.textContent = names['p' + e.pid] || ('page ' + e.pid);
        page.appendChild(title); root.appendChild(page);
      }
      var track = document.createElement('div'); track.className = 'track';
      var label = document.createElement('div'); label.className = 'label'; label.textContent = names[key] || String(e.tid);
      var lane = document.createElement('div'); lane.className = 'lane';
      track.appendChild(label); track.appendChild(lane); page.appendChild(track);
      tracks[key] = lane;
    }
    var mark = document.createElement('div');
    mark.className = (e.ph === 'X' ? 'slice ' : 'instant ') + e.cat + (e.args && e.args.outcome === 'error' ? ' error' : '');
    mark.style.left = at(e.ts);
    if (e.ph === 'X') { mark.style.width = 'calc(' + ((e.dur || 0) / (end - start) * 100) + '% + 2px)'; mark.textContent = e.name; }
    mark.title = e.name + (e.ph === 'X' ? ' (' + ((e.dur || 0) / 1000).toFixed(2) + ' ms)' : '') + '\\n' + JSON.stringify(e.args || {});
    tracks[key].appendChild(mark);
  });
  var calls = timed.filter(function (e) { return e.cat === 'call'; }).length;
  document.getElementById('summary').textContent = calls + ' calls, ' + Object.keys(tracks).length + ' tracks, ' + ((end - start) / 1000).toFixed(1) + ' ms';
  // Opened by keystone-demo, whose host gives it the bridge: the page checks what it drew.
  if (window.dsBridge && window._dswk) {
    var drawn = document.querySelectorAll('.slice.call').length;
    var pages = document.querySelectorAll('section.page').length;
    var expected = new Set(timed.map(function (e) { return e.pid; })).size;
    console.log((drawn === calls && calls > 0 ? 'ok' : 'not ok') + ' - the timeline draws one slice per call (' + drawn + ' of ' + calls + ')');
    console.log((pages === expected ? 'ok' : 'not ok') + ' - the timeline draws one section per page (' + pages + ' of ' + expected + ')');
    console.log('e2e: ' + ((drawn === calls && calls > 0) + (pages === expected)) + ' passed, ' + ((drawn !== calls || calls === 0) + (pages !== expected)) + ' failed');
    window.close();
  }
})();
</script>
"""


def main():
    if sys.argv[1:2] == ["--check"] and len(sys.argv) == 3:
        problems = check(json.load(open(sys.argv[2], encoding="utf-8")))
        for problem in problems:
            print(f"trace: {problem}")
        print(f"trace: {sys.argv[2]} is a Trace Event file" if not problems else f"trace: {len(problems)} problems")
        sys.exit(1 if problems else 0)
    if len(sys.argv) != 3:
        sys.exit("usage: trace.py TRACE DIR | trace.py --check TRACE.json")
    records = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    trace = convert(records)
    os.makedirs(sys.argv[2], exist_ok=True)
    with open(os.path.join(sys.argv[2], "trace.json"), "w", encoding="utf-8") as out:
        json.dump(trace, out)
    # The data is JSON inside a script element: `</` never appears in it as written.
    embedded = json.dumps(trace).replace("</", "<\\/")
    with open(os.path.join(sys.argv[2], "timeline.html"), "w", encoding="utf-8") as out:
        out.write(TIMELINE.replace("__TRACE__", embedded))
    print(f"trace: {len(records)} records → {os.path.join(sys.argv[2], 'trace.json')} and timeline.html")


if __name__ == "__main__":
    main()
