#!/usr/bin/env python3
"""The rooms (folders) of each module under Sources and which refer to which, by the names of the
types each room declares at top level and the code of another room of the same module uses
(comments and string literals left out). Two rooms that refer to each other are one room in two
folders: the script names each such pair and fails. Files at the top of a module (its front door)
belong to no room; a module without folders has no rooms."""
import collections
import os
import re
import sys

SOURCES = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'Sources')
DECLARATION = re.compile(
    r'^(?:@\w+(?:\([^)]*\))?\s+)*(?:public |package |private |fileprivate |internal )?(?:final )?'
    r'(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)', re.M)


def code(text):
    """`text` without its comments and string literals, which name types without using them."""
    text = re.sub(r'//.*', '', text)
    return re.sub(r'"(?:[^"\\\n]|\\.)*"', '""', text)


def rooms(root):
    found = {}
    for room in sorted(os.listdir(root)):
        path = os.path.join(root, room)
        if not os.path.isdir(path) or room.endswith('.docc') or room == 'Resources':
            continue
        texts = []
        for directory, _, files in os.walk(path):
            texts += [open(os.path.join(directory, f), encoding='utf-8').read() for f in sorted(files) if f.endswith('.swift')]
        found[room] = texts
    return found


def check(module):
    """The pairs of `module`'s rooms that refer to each other, each printed."""
    found = rooms(os.path.join(SOURCES, module))
    owner = {}
    for room, texts in found.items():
        for text in texts:
            for name in DECLARATION.findall(text):
                owner.setdefault(name, room)
    uses = collections.defaultdict(dict)
    for room, texts in found.items():
        body = code('\n'.join(texts))
        for name, other in owner.items():
            if other != room and re.search(r'\b' + re.escape(name) + r'\b', body):
                uses[room].setdefault(other, []).append(name)
    cycles = [(a, b) for a in sorted(found) for b in sorted(found) if a < b and b in uses[a] and a in uses[b]]
    for a, b in cycles:
        print(f'rooms: {module}: {a} and {b} refer to each other ({", ".join(sorted(uses[a][b])[:3])} / {", ".join(sorted(uses[b][a])[:3])})')
    return len(found), len(cycles)


def main():
    modules = sorted(m for m in os.listdir(SOURCES) if os.path.isdir(os.path.join(SOURCES, m)))
    rooms_found = pairs = 0
    for module in modules:
        found, cycles = check(module)
        rooms_found += found
        pairs += cycles
    print(f'rooms: {rooms_found} rooms in {len(modules)} modules, {pairs} pairs that refer to each other')
    return 1 if pairs else 0


if __name__ == '__main__':
    sys.exit(main())
