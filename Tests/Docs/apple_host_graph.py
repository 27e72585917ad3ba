"""apple_host_graph.py IN OUT — KeystoneWebKit's symbol graph, made on Linux from the graph of the
target that builds the Apple host's files on the Cocoa WebKit shim (Tests/WebKitShim): the module is
renamed, and only the host's own symbols (and their relationships) are kept."""
import json
import sys

graph = json.load(open(sys.argv[1]))
graph["module"]["name"] = "KeystoneWebKit"
kept = [s for s in graph["symbols"] if "/KeystoneWebKit/" in s.get("location", {}).get("uri", "")]
ids = {s["identifier"]["precise"] for s in kept}
graph["symbols"] = kept
graph["relationships"] = [r for r in graph["relationships"] if r["source"] in ids]
json.dump(graph, open(sys.argv[2], "w"))
