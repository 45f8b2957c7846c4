#!/usr/bin/env python3
"""Rewrite BlastEm's gen_test_hv.s68 (vasm Motorola syntax) for GNU as (m68k-linux-gnu-as).

Only what that file uses: `;` comments, `.local` labels scoped to the last global label,
labels without colons, rept/endr, rsset/rs.x, align, incbin, `(An, d)` operands.
"""
import re
import sys

SIZES = {"b": 1, "w": 2, "l": 4}


def main(src, dst):
    out = [".text"]
    scope, rs = "top", 0
    for raw in open(src).read().splitlines():
        line = raw
        # Strip ; comments outside strings.
        in_str = False
        for i, ch in enumerate(line):
            if ch == '"':
                in_str = not in_str
            elif ch == ";" and not in_str:
                line = line[:i]
                break
        line = line.rstrip()
        if not line.strip():
            continue
        m = re.match(r"^([A-Za-z_.][\w.]*):?(\s+.*|)$", line)
        label, rest = (m.group(1), m.group(2).strip()) if m and not line[0].isspace() else (None, line.strip())
        # rs counters (addresses in the top 32 KiB: written negative so `.w` takes them).
        mm = re.match(r"^rs\.([bwl])\s+(\d+)$", rest)
        if mm:
            value = rs - (1 << 32) if rs >= 0xFFFF8000 else rs
            out.append(f"{label} = {value}")
            rs += SIZES[mm.group(1)] * int(mm.group(2))
            continue
        if label:
            if label.startswith("."):
                label = scope + "_" + label[1:]
            else:
                scope = label
        mm = re.match(r"^rsset\s+\$([0-9A-Fa-f]+)$", rest)
        if mm:
            rs = int(mm.group(1), 16)
            continue
        if label:
            out.append(label + ":")
        if not rest:
            continue
        op, _, args = rest.partition(" ")
        args = args.strip()
        lop = op.lower()
        if lop == "rept":
            out.append(f".rept {args}")
            continue
        if lop == "endr":
            out.append(".endr")
            continue
        if lop == "align":
            out.append(f".balign {1 << int(args)}")
            continue
        if lop == "incbin":
            out.append(f'.incbin "{args}"')
            continue
        if lop == "dc.b" and '"' in args:
            # gas's dc.b takes no strings.
            for part in re.findall(r'"[^"]*"|[^,\s][^,]*', args):
                part = part.strip()
                if part.startswith('"'):
                    out.append(f"\t.ascii {part}")
                else:
                    out.append(f"\t.byte {part}")
            continue
        # Scoped local label references.
        args = re.sub(r"(?<![\w.)])\.([A-Za-z_]\w*)", lambda x: scope + "_" + x.group(1), args)
        # (An, d) -> d(An)
        args = re.sub(r"\((a[0-7]),\s*(-?\w+)\)", r"\2(\1)", args, flags=re.I)
        # $hex -> 0xhex
        args = re.sub(r"\$([0-9A-Fa-f]+)", r"0x\1", args)
        args = args.replace("#(", "#(")
        out.append(f"\t{op} {args}")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
