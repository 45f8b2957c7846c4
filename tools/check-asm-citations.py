#!/usr/bin/env python3
"""Checks the disassembly line citations in the model's sources and docs.

Every citation of the form `Label` ... (s2.asm L<start>[–<end>]) or `Label` (L<start>...) must start
at the line where `Label:` is defined in s2.asm (sonicretro/s2disasm at the commit the docs name,
34fc7f1; `git show 34fc7f1:s2.asm` in a clone). Citations of a part of a routine ("the part of",
"the rest of", "shared by", "lines of") start inside it and are not checked. Run from the
repository root.

    python3 tools/check-asm-citations.py PATH/TO/s2.asm

Exits 1 and lists each citation whose label is elsewhere.
"""
import glob
import re
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        asm = open(sys.argv[1], encoding="latin-1").read().split("\n")
    except OSError as e:
        print(f"{sys.argv[1]}: {e.strerror}", file=sys.stderr)
        return 2
    labels = {}
    for number, line in enumerate(asm, 1):
        m = re.match(r"^([A-Za-z_][\w.]*):", line)
        if m:
            labels.setdefault(m.group(1), number)
    files = sorted(glob.glob("crates/s2model/src/**/*.rs", recursive=True))
    files += ["docs/physics.md", "docs/terrain-format.md", "crates/s2model/NOTES.md"]
    cite = re.compile(r"\((?:s2\.asm )?L(\d{3,5})")
    bad = checked = 0
    for path in files:
        text = open(path, encoding="utf-8").read()
        for m in cite.finditer(text):
            # The labels named before the parenthesis, back to the previous one or the
            # paragraph's start: a citation of `A` / `B` (L..) starts at one of them. One that
            # cites a part of a routine ("the part of", "the rest of", "shared by", "lines of")
            # starts inside it.
            before = text[: m.start()]
            before = before[max(before.rfind(")"), before.rfind("\n\n")) + 1 :]
            if re.search(r"part of|rest of|shared by|lines of", before, re.IGNORECASE):
                continue
            named = [n for n in re.findall(r"`([A-Za-z_]\w*)`", before) if n in labels]
            if not named:
                continue
            checked += 1
            start = int(m.group(1))
            if all(labels[n] != start for n in named):
                bad += 1
                number = text.count("\n", 0, m.start()) + 1
                where = ", ".join(f"`{n}` at L{labels[n]}" for n in named)
                print(f"{path}:{number}: cited at L{start}, defined: {where}")
    print(f"{checked} citations checked, {bad} off their label")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
