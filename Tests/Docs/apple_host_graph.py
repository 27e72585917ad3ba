"""apple_host_graph.py IN OUT — KeystoneWebKit's symbol graph, made on Linux from the graph of the
target that type-checks the Apple host's files against a declarations-only WebKit: the module is
renamed, and the stand-in's own symbols and their relationships are left out."""
import json
import sys

graph = json.load(open(sys.argv[1]))
graph["module"]["name"] = "KeystoneWebKit"
kept = [s for s in graph["symbols"] if "WebKitStandIn.swift" not in s.get("location", {}).get("uri", "")]
ids = {s["identifier"]["precise"] for s in kept}
graph["symbols"] = kept
graph["relationships"] = [r for r in graph["relationships"] if r["source"] in ids]
json.dump(graph, open(sys.argv[2], "w"))
