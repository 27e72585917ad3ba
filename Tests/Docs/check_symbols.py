"""check_symbols.py GRAPHS MODULE… — every public symbol of each module has a doc comment of its
own, and every top-level symbol is curated in a topic group of the module's landing page
(MODULE.docc/MODULE.md in the module's folder: Sources/MODULE, or Sources/Interfaces and
Sources/Evaluator for KeystoneInterfaces and KeystoneEvaluator). Compiler-synthesized members (Hashable's, a memberwise
initializer's) are skipped. Prints each miss and exits 1 if there is any."""
import glob
import json
import re
import sys

graphs, modules = sys.argv[1], sys.argv[2:]
misses = []
for module in modules:
    symbols = json.load(open(f"{graphs}/{module}.symbols.json"))["symbols"]
    # What the module adds to other modules' types (MODULE@OTHER.symbols.json) needs comments too.
    extensions = [s for path in glob.glob(f"{graphs}/{module}@*.symbols.json") for s in json.load(open(path))["symbols"]]
    for symbol in symbols + extensions:
        if symbol["accessLevel"] not in ("public", "open") or "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        if not symbol.get("docComment", {}).get("lines"):
            misses.append(f"{module}: {'.'.join(symbol['pathComponents'])} has no doc comment")
    catalogs = glob.glob(f"Sources/*/{module}.docc/{module}.md")
    landing = open(catalogs[0]).read()
    topics = landing[landing.index("## Topics"):] if "## Topics" in landing else ""
    curated = set(re.findall(r"``(?:[A-Za-z]+/)?([A-Za-z]+)``", topics))
    for name in sorted({s["pathComponents"][0] for s in symbols if len(s["pathComponents"]) == 1}):
        if name not in curated:
            misses.append(f"{module}: {name} is in no topic group of {module}.md")
for miss in misses:
    print(miss)
print(f"doc comments and topics: {len(misses)} missing")
sys.exit(1 if misses else 0)
