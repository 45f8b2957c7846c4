#!/usr/bin/env python3
"""Fails when files of crates/megadrive/src import each other, directly or through others.

The file-level import graph: an edge runs from a file to every other file whose module one
of its paths names, in `use` declarations (`pub use` re-exports too) and in paths written in
code (`crate::a::b`, `super::x`, `self::x`, or a path starting at a child module). A path
ends at the deepest module it names, so `crate::sound::Ym2612` is an edge to the file of
`sound` (which re-exports it), and `crate::sound::ym2612::chip::Ym2612` one to `chip`'s.
`mod` declarations build the module tree that paths are resolved in; declaring a module is
not an import of it. Test code is left out: items under `#[cfg(test)]` (so `mod tests;` and
the like, and the files they name) may use the whole crate. Comments, doc links and string
literals are not parsed.

Exit 0 with a one-line summary, or 1 naming each circle with the lines that make it.
Standard library only: `python3 tools/check-module-cycles.py [SRC_DIR]`.
"""

import os
import re
import sys
from collections import defaultdict, deque

DEFAULT_SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "megadrive", "src")


def blank_comments_and_literals(text):
    """Replaces comments, string and char literals with spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)

    def blank(s):
        return "".join("\n" if c == "\n" else " " for c in s)

    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(blank(text[i:j]))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(text[i:j]))
            i = j
        elif re.match(r'b?r#*"', text[i:i + 40]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'(b?r)(#*)"', text[i:])
            end = '"' + m.group(2)
            j = text.find(end, i + len(m.group(0)))
            j = n if j < 0 else j + len(end)
            out.append(blank(text[i:j]))
            i = j
        elif c == '"' or (c == "b" and text.startswith('b"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_"))):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(blank(text[i:j + 1]))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F}') or a lifetime ('a): only the literal is blanked.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\x[0-9a-fA-F]{2}|\\.|[^\\'])'", text[i:])
            if m:
                out.append(blank(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|::|[{}\[\]();,#*!<>]|\S")


def tokenize(text):
    tokens = []
    line = 1
    pos = 0
    for m in TOKEN.finditer(text):
        line += text.count("\n", pos, m.start())
        pos = m.start()
        tokens.append((m.group(0), line))
    return tokens


def is_ident(t):
    return re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", t) is not None


def skip_balanced(tokens, i):
    """From an opening bracket at i, returns the index after its closing one."""
    pairs = {"{": "}", "[": "]", "(": ")"}
    stack = [pairs[tokens[i][0]]]
    i += 1
    while i < len(tokens) and stack:
        t = tokens[i][0]
        if t in pairs:
            stack.append(pairs[t])
        elif stack and t == stack[-1]:
            stack.pop()
        i += 1
    return i


def skip_item(tokens, i):
    """Skips one item starting at i: to its `;` at depth 0, or past its first `{}` block."""
    while i < len(tokens):
        t = tokens[i][0]
        if t == ";":
            return i + 1
        if t == "{":
            return skip_balanced(tokens, i)
        if t in "([":
            i = skip_balanced(tokens, i)
            continue
        i += 1
    return i


def parse_use_tree(tokens, i, prefix, out, line):
    """Parses a use tree at i (after `use` or inside braces); appends full paths to out."""
    path = list(prefix)
    while i < len(tokens):
        t = tokens[i][0]
        if t == "::":
            i += 1
        elif t == "{":
            i += 1
            while i < len(tokens) and tokens[i][0] != "}":
                i = parse_use_tree(tokens, i, path, out, line)
                if i < len(tokens) and tokens[i][0] == ",":
                    i += 1
            return i + 1
        elif t == "*":
            out.append((path, line))
            return i + 1
        elif t == "as":
            i += 2
        elif is_ident(t):
            path.append(t)
            i += 1
        else:
            break
    if path and path != list(prefix):
        # `self` inside braces names the prefix module itself.
        out.append(([p for p in path if p != "self"] if path[-1] == "self" else path, line))
    return i


class Crate:
    def __init__(self, src):
        self.src = os.path.normpath(src)
        self.modules = {}  # module path (tuple) -> file
        self.refs = defaultdict(list)  # file -> [(module path, segments, line)]
        self.test_files = set()

    def rel(self, path):
        return os.path.relpath(path, self.src)

    def child_file(self, file, mod_dir, name):
        for cand in (os.path.join(mod_dir, name + ".rs"), os.path.join(mod_dir, name, "mod.rs")):
            if os.path.exists(cand):
                return cand
        raise SystemExit(f"check-module-cycles: {self.rel(file)}: no file for `mod {name};`")

    def parse(self, file, module, mod_dir):
        self.modules[module] = file
        with open(file, encoding="utf-8") as f:
            tokens = tokenize(blank_comments_and_literals(f.read()))
        # Stack of (module path, directory for its `mod x;` children) for inline modules.
        ctx = [(module, mod_dir)]
        blocks = []  # per open `{`: whether it opened an inline module
        pending_test = False
        i = 0
        while i < len(tokens):
            t, line = tokens[i]
            nxt = tokens[i + 1][0] if i + 1 < len(tokens) else ""
            if t == "#" and nxt in ("[", "!"):
                j = i + 1 if nxt == "[" else i + 2
                end = skip_balanced(tokens, j)
                attr = [tok for tok, _ in tokens[j + 1:end - 1]]
                if attr == ["cfg", "(", "test", ")"]:
                    pending_test = True
                i = end
                continue
            if pending_test and t not in ("pub", "(", ")", "crate", "super", "in"):
                pending_test = False
                if t == "mod" and i + 2 < len(tokens) and tokens[i + 2][0] == ";":
                    cur, cur_dir = ctx[-1]
                    self.test_files.add(self.child_file(file, cur_dir, nxt))
                i = skip_item(tokens, i)
                continue
            if t == "pub" and nxt == "(":
                # Visibility: `pub(crate)`, `pub(in crate::x)` name no import.
                i = skip_balanced(tokens, i + 1)
                continue
            if t == "mod" and is_ident(nxt) and i + 2 < len(tokens):
                cur, cur_dir = ctx[-1]
                after = tokens[i + 2][0]
                if after == ";":
                    child = self.child_file(file, cur_dir, nxt)
                    self.parse(child, cur + (nxt,), os.path.join(os.path.dirname(child), nxt)
                               if not child.endswith("mod.rs") else os.path.dirname(child))
                    i += 3
                    continue
                if after == "{":
                    self.modules[cur + (nxt,)] = file
                    ctx.append((cur + (nxt,), os.path.join(cur_dir, nxt)))
                    blocks.append(True)
                    i += 3
                    continue
            if t == "{":
                blocks.append(False)
            elif t == "}":
                if blocks and blocks.pop():
                    ctx.pop()
            elif t == "use":
                paths = []
                i = parse_use_tree(tokens, i + 1, [], paths, line)
                for p, ln in paths:
                    self.refs[file].append((ctx[-1][0], p, ln))
                continue
            elif is_ident(t) and nxt == "::" and (i == 0 or tokens[i - 1][0] != "::"):
                j, segs = i, []
                while j < len(tokens) and is_ident(tokens[j][0]):
                    segs.append(tokens[j][0])
                    if j + 1 < len(tokens) and tokens[j + 1][0] == "::":
                        j += 2
                    else:
                        j += 1
                        break
                self.refs[file].append((ctx[-1][0], segs, line))
                i = j
                continue
            i += 1

    def resolve(self, module, segs):
        """The file of the deepest module a path names, or None (another crate, a local)."""
        if not segs:
            return None
        if segs[0] == "crate":
            node, rest = (), segs[1:]
        elif segs[0] in ("self", "super"):
            node, rest = module, segs
            while rest and rest[0] in ("self", "super"):
                if rest[0] == "super":
                    node = node[:-1]
                rest = rest[1:]
        elif module + (segs[0],) in self.modules:
            node, rest = module, segs
        else:
            return None
        for s in rest:
            if node + (s,) in self.modules:
                node = node + (s,)
            else:
                break
        return self.modules[node]

    def graph(self):
        edges = defaultdict(dict)  # from -> {to: (line, path)}
        for file, refs in self.refs.items():
            for module, segs, line in refs:
                to = self.resolve(module, segs)
                if to is None or to == file or to in self.test_files:
                    continue
                edges[file].setdefault(to, (line, "::".join(segs)))
        return edges


def strongly_connected(nodes, edges):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        # Iterative Tarjan (the graph is small, but recursion depth is not ours to spend).
        work = [(v, iter(sorted(edges.get(v, {}))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, {})))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def shortest_cycle(start, members, edges):
    prev = {start: None}
    queue = deque([start])
    while queue:
        v = queue.popleft()
        for w in sorted(edges.get(v, {})):
            if w not in members:
                continue
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return list(reversed(path)) + [start]
            if w not in prev:
                prev[w] = v
                queue.append(w)
    return [start, start]


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else DEFAULT_SRC
    crate = Crate(src)
    crate.parse(os.path.join(crate.src, "lib.rs"), (), crate.src)
    edges = crate.graph()
    files = set(crate.modules.values()) - crate.test_files
    circles = [c for c in strongly_connected(files, edges) if len(c) > 1]
    if not circles:
        n_edges = sum(len(v) for v in edges.values())
        print(f"check-module-cycles: {len(files)} files in {os.path.relpath(crate.src)}, "
              f"{n_edges} imports between them, no circle (test code left out)")
        return 0
    for comp in sorted(circles, key=lambda c: (-len(c), sorted(c))):
        members = set(comp)
        names = sorted(crate.rel(f) for f in comp)
        print(f"circle: {len(comp)} files import each other, directly or through others: {', '.join(names)}")
        cycle = shortest_cycle(min(comp, key=crate.rel), members, edges)
        print("  for example: " + " -> ".join(crate.rel(f) for f in cycle))
        for a, b in zip(cycle, cycle[1:]):
            line, path = edges[a][b]
            print(f"    {crate.rel(a)}:{line}: {path}")
    print(f"check-module-cycles: {len(circles)} circle(s) among the files of {os.path.relpath(crate.src)}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
