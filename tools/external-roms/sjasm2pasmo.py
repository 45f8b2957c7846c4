#!/usr/bin/env python3
"""Rewrite testpico's z80_test.s80 (sjasm 0.42 dialect) into plain Z80 source that pasmo assembles.

Only the constructs that file uses: sjasm macros with @N / named parameters, numeric local labels
(`0` ... `jp nz,0b`), labels without colons, BLOCK, and the `op a, x` spelling of 8-bit ALU ops.
"""
import re
import sys

ALU = ("xor", "and", "or", "cp", "sub")


def main(src, dst):
    # `end` is a label there but a directive in pasmo.
    lines = [re.sub(r"\bend\b", "lbl_end", l) for l in open(src).read().splitlines()]
    macros, out, i = {}, [], 0
    while i < len(lines):
        line = lines[i].split(";")[0].rstrip()
        m = re.match(r"^macro\s+(\w+)\s*(.*)$", line.strip(), re.I)
        if m:
            body = []
            i += 1
            while not lines[i].strip().lower().startswith("endmacro"):
                body.append(lines[i].split(";")[0].rstrip())
                i += 1
            macros[m.group(1)] = (m.group(2).split(), body)
            i += 1
            continue
        out.append(line)
        i += 1
    # Expand macros (one level is all the file needs, but loop anyway).
    expanded, serial = [], 0
    for line in out:
        words = line.split(None, 1)
        if line[:1].isspace() and words and words[0] in macros:
            params, body = macros[words[0]]
            args = [a.strip() for a in words[1].split(",")] if len(words) > 1 else []
            serial += 1
            for b in body:
                if params and params[0].isdigit():
                    for n, a in enumerate(args, 1):
                        b = b.replace("@%d" % n, a)
                else:
                    for p, a in zip(params, args):
                        b = re.sub(r"\b%s\b" % re.escape(p), a, b)
                expanded.append(b)
        else:
            expanded.append(line)
    # Numeric local labels -> unique names.
    defs = []  # (line index, number, name)
    for n, line in enumerate(expanded):
        m = re.match(r"^(\d+)(\s|$)", line)
        if m:
            defs.append((n, m.group(1), "L_%d_%s" % (n, m.group(1))))
    result = []
    for n, line in enumerate(expanded):
        m = re.match(r"^(\d+)(\s.*|)$", line)
        if m:
            name = next(d[2] for d in defs if d[0] == n)
            line = name + ":" + m.group(2)

        def ref(mm):
            num, way = mm.group(1), mm.group(2)
            if way == "b":
                cands = [d for d in defs if d[1] == num and d[0] <= n]
                return cands[-1][2]
            cands = [d for d in defs if d[1] == num and d[0] > n]
            return cands[0][2]

        line = re.sub(r"\b(\d+)([bf])\b", ref, line)
        m = re.match(r"^([A-Za-z_]\w*)(\s.*|)$", line)
        if m and m.group(1).upper() not in ("ORG",):
            line = m.group(1) + ":" + m.group(2)
        s = line.strip()
        mm = re.match(r"^(\w+)\s+(.*)$", s)
        if mm:
            op, args = mm.group(1).lower(), mm.group(2)
            if op == "block":
                line = "  DS " + args
            elif op in ALU and re.match(r"^a\s*,", args, re.I):
                line = "  %s %s" % (op, args.split(",", 1)[1].strip())
            elif op == "jp" and args.strip().lower() in ("ix", "iy", "hl"):
                line = "  jp (%s)" % args.strip()
            elif op == "add" and "," not in args:
                line = "  add a, " + args
        result.append(line)
    open(dst, "w").write("\n".join(result) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
