#!/usr/bin/env python3
"""The rooms (folders) of each module under Sources and which refer to which, by the names of the
types each room declares at top level and the code of another room of the same module uses
(comments and string literals left out). Rooms that refer to each other, directly or around a
loop, are one room in several folders: the script names each such loop and fails. Files at the top of a module (its front door)
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
    loops = [group for group in strongly_connected(sorted(found), uses) if len(group) > 1]
    for group in loops:
        edges = [f'{a} → {b} ({", ".join(sorted(uses[a][b])[:2])})' for a in group for b in group if b in uses[a]]
        print(f'rooms: {module}: {", ".join(group)} refer to each other around a loop: {"; ".join(edges)}')
    return len(found), len(loops)


def strongly_connected(nodes, uses):
    """The groups of `nodes` that reach each other through `uses` (Tarjan's algorithm), each sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(uses[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            groups.append(sorted(group))

    for node in nodes:
        if node not in index:
            visit(node)
    return groups


def main():
    modules = sorted(m for m in os.listdir(SOURCES) if os.path.isdir(os.path.join(SOURCES, m)))
    rooms_found = loops = 0
    for module in modules:
        found, looped = check(module)
        rooms_found += found
        loops += looped
    print(f'rooms: {rooms_found} rooms in {len(modules)} modules, {loops} groups of rooms that refer to each other')
    return 1 if loops else 0


if __name__ == '__main__':
    sys.exit(main())
