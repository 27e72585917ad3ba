#!/usr/bin/env python3
"""sdk.py check — holds the Cocoa WebKit shim (Tests/WebKitShim/Shim) to the SDK facts recorded in
sdk.tsv beside this file, read from WebKit's public headers (and, for UIKit, AppKit and Foundation,
Apple's documentation): every public declaration of the shim is either a recorded symbol or marked
as the shim's own ("Not SDK API" in its documentation), and for each recorded one

- its `#if` guards hold on exactly the platforms the header declares it on (iOS, macOS, visionOS),
  and on Linux, where the shim runs, when both iOS and macOS have it;
- its `@available` states each version the table gives above the package's minimums, and states no
  version, and no unavailability, that the table does not hold;
- a protocol requirement has a default (the shim's stand-in for `@optional`) exactly when the header
  makes it optional;
- it is `@MainActor` exactly when the header's declaration (or its type) is WK_SWIFT_UI_ACTOR, and
  each completion block is `@MainActor` exactly when the header's block is;
- a property's optionality is the header's nullability (`?` nullable, `!` null_unspecified);
- no comment of the shim states an availability (`ios(…)`, `macos(…)`): the table holds them;
- the selectors the Apple host lists as the delegate methods it passes on are the table's.

`sdk.py table SYMBOL…` prints the rows of the symbols named, for a reader.
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, '..', 'Shim')
TABLE = os.path.join(HERE, 'sdk.tsv')
PACKAGE = os.path.join(HERE, '..', '..', '..', 'Package.swift')
PLATFORMS = ('ios', 'macos', 'visionos')
SWIFT_PLATFORM = {'ios': 'iOS', 'macos': 'macOS', 'visionos': 'visionOS'}
OWN = re.compile(r'Not SDK API')


def version(text):
    return tuple(int(part) for part in text.split('.'))


def minimums():
    """The package's minimum iOS and macOS, from Package.swift's platforms."""
    text = open(PACKAGE).read()
    found = {}
    for name, key in (('iOS', 'ios'), ('macOS', 'macos')):
        match = re.search(r'\.%s\(\.v(\d+)(?:_(\d+))?\)' % name, text)
        found[key] = (int(match.group(1)), int(match.group(2) or 0))
    found['visionos'] = None
    return found


def read_table():
    rows = {}
    with open(TABLE, newline='') as handle:
        lines = [line for line in handle if line.strip() and not line.startswith('#')]
    for row in csv.DictReader(lines, delimiter='\t'):
        rows.setdefault(row['symbol'], []).append(row)
    return rows


# MARK: Reading the shim

def strip_strings(line):
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', line)


def labels(signature):
    """The argument labels of a `func` or `init` signature: `f(_:label:)`."""
    start = signature.index('(')
    depth, end = 0, start
    for index in range(start, len(signature)):
        if signature[index] in '([':
            depth += 1
        elif signature[index] in ')]':
            depth -= 1
            if depth == 0:
                end = index
                break
    inner = signature[start + 1:end]
    params, depth, current = [], 0, ''
    for char in inner:
        if char in '([<' and not current.endswith('-'):
            depth += 1
        elif char in ')]>' and not current.endswith('-'):
            depth -= 1
        if char == ',' and depth == 0:
            params.append(current)
            current = ''
        else:
            current += char
    if current.strip():
        params.append(current)
    names = []
    for param in params:
        head = param.split(':', 1)[0].split()
        names.append(head[0] if head else '_')
    return '(' + ''.join(name + ':' for name in names) + ')'


class Declaration:
    def __init__(self, file, line, kind, name, container, text, attributes, doc, guards, in_protocol, in_extension):
        self.file, self.line, self.kind, self.name = file, line, kind, name
        self.container, self.text, self.attributes, self.doc = container, text, attributes, doc
        self.guards, self.in_protocol, self.in_extension = guards, in_protocol, in_extension

    @property
    def symbol(self):
        return (self.container + '.' if self.container else '') + self.name

    def where(self):
        return '%s:%d' % (os.path.relpath(self.file, os.path.join(HERE, '..', '..', '..')), self.line)


DECL = re.compile(
    r'^(?P<mods>(?:(?:public|open|private\(set\)|package|internal|private|fileprivate|final|override|required|convenience|'
    r'nonisolated|static|class|weak|@discardableResult|@MainActor|@objc)\s+)*)'
    r'(?P<kind>func|var|let|init\??|class|struct|enum|protocol|extension|case|typealias)\b\s*(?P<rest>.*)')


def read_shim():
    """Every declaration of the shim's files, with its container, attributes, doc comment and the
    `#if` conditions it sits in (the file-wide `#if !canImport(WebKit)` left out)."""
    declarations = []
    for name in sorted(os.listdir(SHIM)):
        if name.endswith('.swift'):
            declarations += read_file(os.path.join(SHIM, name))
    return declarations


def read_file(path):
    lines = open(path).read().split('\n')
    found = []
    guards = []          # a stack of condition lists: each `#if` pushes, `#else`/`#elseif` negate
    scopes = []          # (depth at which the scope's body lives, name, is protocol, is extension, own)
    depth = 0
    doc, attributes = [], []
    index = 0
    while index < len(lines):
        raw = lines[index]
        stripped = raw.strip()
        line_number = index + 1
        index += 1
        if stripped.startswith('#if '):
            guards.append([stripped[4:].strip()])
            continue
        if stripped.startswith('#elseif '):
            guards[-1] = ['!(%s)' % condition for condition in guards[-1]] + [stripped[8:].strip()]
            guards[-1] = [' && '.join(guards[-1])]
            continue
        if stripped == '#else':
            guards[-1] = ['!(%s)' % ' && '.join(guards[-1])]
            continue
        if stripped == '#endif':
            guards.pop()
            continue
        if stripped.startswith('///'):
            doc.append(stripped[3:].strip())
            continue
        if stripped.startswith('//') or not stripped:
            if not stripped.startswith('//'):
                doc, attributes = [], []
            continue
        text = strip_strings(stripped)
        # Attributes on lines of their own.
        while text.startswith('@') and not DECL.match(text):
            match = re.match(r'(@\w+(?:\([^)]*\))?)\s*(.*)', text)
            attributes.append(match.group(1))
            text = match.group(2)
        if not text:
            continue
        # A signature that spans lines: joined until its parentheses close.
        while text.count('(') > text.count(')') and index < len(lines):
            text += ' ' + strip_strings(lines[index].strip())
            index += 1
        match = DECL.match(text)
        if match and scopes_allow(scopes, depth):
            kind = match.group('kind').rstrip('?')
            rest = match.group('rest')
            mods = match.group('mods')
            inline_attributes = re.findall(r'@\w+(?:\([^)]*\))?', mods)
            own = any(OWN.search(line) for line in doc)
            scope = scopes[-1] if scopes and scopes[-1][0] == depth else None
            container = scope[1] if scope else ''
            in_protocol = bool(scope and scope[2])
            in_extension = bool(scope and scope[3])
            public = bool(re.search(r'\b(public|open)\b', mods)) or in_protocol
            conditions = [g for group in guards for g in group if g != '!canImport(WebKit)']
            if kind in ('class', 'struct', 'enum', 'protocol', 'extension'):
                type_name = re.match(r'[\w.`]+', rest).group(0).strip('`')
                full = type_name if kind == 'extension' else (container + '.' + type_name if container else type_name)
                if kind != 'extension' and public and kind != 'class' or (kind == 'class' and public):
                    found.append(Declaration(path, line_number, kind, full.split('.')[-1], '.'.join(full.split('.')[:-1]),
                                             text, attributes + inline_attributes, doc, conditions, False, False))
                if '{' in text:
                    scopes.append((depth + 1, full, kind == 'protocol', kind == 'extension', own or (scope is not None and scope[4])))
            elif public and kind != 'typealias':
                if kind == 'case':
                    for case in re.findall(r'`?(\w+)`?\s*(?:=\s*[-\w]+)?\s*(?:,|$)', rest.split('//')[0]):
                        found.append(Declaration(path, line_number, 'case', case, container, text, attributes + inline_attributes,
                                                 doc, conditions, in_protocol, in_extension))
                else:
                    name = re.match(r'`?(\w+)`?', rest).group(1) if kind in ('func', 'var', 'let') else 'init'
                    if kind in ('func', 'init'):
                        signature = rest if kind == 'func' else 'init' + rest[rest.index('('):] if '(' in rest else rest
                        name = name + labels(signature)
                    decl = Declaration(path, line_number, kind, name, container, text, attributes + inline_attributes,
                                       doc, conditions, in_protocol, in_extension)
                    decl.own = own or bool(scope and scope[4])
                    found.append(decl)
            for decl in found[-1:]:
                if not hasattr(decl, 'own'):
                    decl.own = own or bool(scope and scope[4])
        depth += text.count('{') - text.count('}')
        while scopes and depth < scopes[-1][0]:
            scopes.pop()
        doc, attributes = [], []
    return found


def scopes_allow(scopes, depth):
    """Declarations count only at a type's own level, not inside a function's body."""
    return not scopes or scopes[-1][0] == depth or depth == 0


# MARK: Conditions

def holds(condition, platform):
    """Whether a Swift `#if` condition holds on `platform` (ios, macos, visionos or linux)."""
    names = {'iOS': 'ios', 'macOS': 'macos', 'visionOS': 'visionos', 'Linux': 'linux'}
    text = re.sub(r'os\((\w+)\)', lambda m: 'True' if names.get(m.group(1)) == platform else 'False', condition)
    text = re.sub(r'canImport\(\w+\)', 'False', text)
    text = re.sub(r'compiler\([^)]*\)', 'True', text)
    text = re.sub(r'\b(KEYSTONE_\w+)\b', 'True', text)
    text = text.replace('&&', ' and ').replace('||', ' or ').replace('!', ' not ')
    return bool(eval(text, {'True': True, 'False': False}))


def availability(attributes):
    """The platforms an `@available` list names: {platform: version or 'unavailable'}."""
    stated = {}
    for attribute in attributes:
        match = re.match(r'@available\((.*)\)$', attribute)
        if not match:
            continue
        parts = [part.strip() for part in match.group(1).split(',')]
        if len(parts) >= 2 and parts[1] == 'unavailable':
            key = {v: k for k, v in SWIFT_PLATFORM.items()}.get(parts[0])
            if key:
                stated[key] = 'unavailable'
            continue
        for part in parts:
            found = re.match(r'(iOS|macOS|visionOS) (\d+(?:\.\d+)*)$', part)
            if found:
                stated[{v: k for k, v in SWIFT_PLATFORM.items()}[found.group(1)]] = found.group(2)
    return stated


# MARK: The check

def check():
    table = read_table()
    floors = minimums()
    declarations = read_shim()
    by_symbol = {}
    for decl in declarations:
        by_symbol.setdefault(decl.symbol, []).append(decl)
    problems = []
    types = {decl.symbol: decl for decl in declarations if decl.kind in ('class', 'struct', 'enum', 'protocol')}

    def row_for(decl):
        rows = table.get(decl.symbol)
        if not rows:
            return None
        return rows[0]

    for decl in declarations:
        if decl.own or decl.in_extension and decl.container in types and types[decl.container].kind == 'protocol' and decl.kind == 'func':
            continue
        if decl.kind == 'init' and decl.name == 'init()' and 'override' in decl.text:
            continue
        row = row_for(decl)
        if row is None:
            problems.append('%s: %s is not in sdk.tsv (record it from the header, or mark it "Not SDK API")' % (decl.where(), decl.symbol))
            continue
        stated = availability(decl.attributes)
        for platform in PLATFORMS:
            fact = row[platform]
            present = fact != 'absent'
            if holds(' && '.join('(%s)' % g for g in decl.guards) or 'True', platform) != present:
                problems.append('%s: %s is declared %s on %s, where %s says %s' % (
                    decl.where(), decl.symbol, 'present' if not present else 'absent', SWIFT_PLATFORM[platform],
                    row['header'], 'it is absent' if not present else fact))
            said = stated.get(platform)
            if said is not None and said != fact and not (said != 'unavailable' and fact not in ('unavailable', 'absent', 'unannotated', '=ios')
                                                         and fact[0].isdigit() and version(said) == version(fact)):
                problems.append('%s: %s states %s %s; %s says %s' % (
                    decl.where(), decl.symbol, SWIFT_PLATFORM[platform], said, row['header'], fact))
            if said is None and fact[:1].isdigit() and floors.get(platform) and version(fact) > floors[platform]:
                container = types.get(decl.container)
                inherited = container and availability(container.attributes).get(platform)
                if inherited != fact:
                    problems.append('%s: %s needs @available(%s %s, …) (%s)' % (
                        decl.where(), decl.symbol, SWIFT_PLATFORM[platform], fact, row['header']))
            if said is None and fact == 'unavailable':
                problems.append('%s: %s needs @available(%s, unavailable) (%s)' % (decl.where(), decl.symbol, SWIFT_PLATFORM[platform], row['header']))
        on_both = row['ios'] != 'absent' and row['macos'] != 'absent'
        if on_both and not holds(' && '.join('(%s)' % g for g in decl.guards) or 'True', 'linux'):
            problems.append('%s: %s is on iOS and macOS but not declared on Linux, where the shim runs' % (decl.where(), decl.symbol))
        actor = row['actor']
        main = actor.startswith('main')
        container = types.get(decl.container)
        isolated = '@MainActor' in decl.attributes or (container is not None and '@MainActor' in container.attributes)
        if decl.kind in ('class', 'protocol', 'func', 'var', 'init') and 'nonisolated' not in decl.text and main != isolated:
            problems.append('%s: %s is %s@MainActor; %s says %s' % (decl.where(), decl.symbol, '' if isolated else 'not ', row['header'], actor))
        if decl.kind == 'func':
            blocks = re.findall(r'block=(\w+)', actor)
            closures = re.findall(r'@escaping\s+((?:@\w+\s+)*)\(', decl.text)
            for wanted, closure in zip(blocks, closures):
                if (wanted == 'main') != ('@MainActor' in closure):
                    problems.append('%s: %s: its block is %s@MainActor; %s says %s' % (
                        decl.where(), decl.symbol, '' if '@MainActor' in closure else 'not ', row['header'], wanted))
        if decl.in_protocol and row['optional'] in ('optional', 'required'):
            defaults = [d for d in by_symbol.get(decl.symbol, []) if d.in_extension]
            if (row['optional'] == 'optional') != bool(defaults):
                problems.append('%s: %s is %s in %s, and the shim %s a default' % (
                    decl.where(), decl.symbol, row['optional'], row['header'], 'has' if defaults else 'has no'))
        if decl.kind == 'var' and ' weak ' not in ' ' + decl.text:
            # (Swift imports a weak property as an optional whatever the header says.)
            nullability = row['nullability'].rstrip('*')
            declared_type = re.search(r':\s*([^={]+)', decl.text.split(' var ', 1)[-1])
            if declared_type and nullability in ('nonnull', 'nullable', 'null_unspecified'):
                swift_type = declared_type.group(1).strip()
                marker = {'nullable': '?', 'null_unspecified': '!', 'nonnull': ''}[nullability]
                ends = '?' if swift_type.endswith('?') else '!' if swift_type.endswith('!') else ''
                if ends != marker:
                    problems.append('%s: %s is `%s`; %s says %s' % (decl.where(), decl.symbol, swift_type, row['header'], nullability))
    for name in sorted(os.listdir(SHIM)):
        if not name.endswith('.swift'):
            continue
        for number, line in enumerate(open(os.path.join(SHIM, name)), 1):
            comment = line.split('//', 1)[1] if '//' in line else ''
            if re.search(r'\b(ios|macos|visionos)\(\d|\b(iOS|macOS|visionOS) \d', comment):
                problems.append('Tests/WebKitShim/Shim/%s:%d: a comment states an availability: sdk.tsv holds them' % (name, number))
    # The host's lists of the delegate methods it passes on name selectors of the table.
    host_delegates = os.path.join(HERE, '..', '..', '..', 'Sources', 'KeystoneWebKit', 'HostDelegates.swift')
    text = open(host_delegates).read()
    for name, protocol in (('passedOnToUI', 'WKUIDelegate.'), ('passedOnToNavigation', 'WKNavigationDelegate.')):
        listed = re.search(r'static let %s: Set<String> = \[(.*?)\]' % name, text, re.S)
        if not listed:
            problems.append('HostDelegates.swift: no %s list' % name)
            continue
        known = {row['selector'] for rows in table.values() for row in rows if row['symbol'].startswith(protocol)}
        for selector in re.findall(r'"([^"]+)"', listed.group(1)):
            if selector not in known:
                problems.append('HostDelegates.swift: %s names %s, which is no %s method in sdk.tsv' % (name, selector, protocol.rstrip('.')))
    for problem in problems:
        print('sdk.py: ' + problem, file=sys.stderr)
    recorded = sum(1 for decl in declarations if not decl.own and decl.symbol in table)
    if problems:
        print('sdk.py: %d problems' % len(problems), file=sys.stderr)
        return 1
    print('sdk.py: the shim\'s %d SDK declarations agree with sdk.tsv (%d rows)' % (recorded, sum(len(r) for r in table.values())))
    return 0


def show(symbols):
    table = read_table()
    for symbol in symbols:
        for row in table.get(symbol, []):
            print('\t'.join('%s=%s' % (key, value) for key, value in row.items()))


if __name__ == '__main__':
    if len(sys.argv) >= 2 and sys.argv[1] == 'check':
        sys.exit(check())
    if len(sys.argv) >= 3 and sys.argv[1] == 'table':
        show(sys.argv[2:])
        sys.exit(0)
    print(__doc__)
    sys.exit(2)
