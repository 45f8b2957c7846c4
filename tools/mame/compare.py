#!/usr/bin/env python3
"""Compare two s2lab traces (formats.md §4).

Usage: tools/mame/compare.py A.trace.jsonl[.gz] B.trace.jsonl[.gz]

Two traces agree when they have the same frames and, on every frame and in `initial`, every field of
the formats.md §3 table is equal (extra fields such as level_frame are not compared). A disagreement
report names the first differing frame, every differing field with both values (decimal and hex), and
the inputs of the ten frames before it. Exit status 0 = agree, 1 = differ, 2 = error.
"""
import gzip
import json
import sys

COMPARED = [
    "x_pos", "x_sub", "y_pos", "y_sub", "x_vel", "y_vel", "inertia", "y_radius", "x_radius",
    "anim_frame", "anim", "prev_anim", "anim_frame_duration", "look_delay", "status", "routine",
    "angle", "move_lock", "next_tilt", "tilt", "spindash_flag", "spindash_counter", "jumping",
    "ctrl_held", "ctrl_pressed", "primary_angle", "secondary_angle", "camera_bias",
]
# Optional compared fields (formats.md §3): Sonic's collision layer, compared when both traces carry them.
LAYER = ["top_solid_bit", "lrb_solid_bit"]
WORDS = {"x_pos", "x_sub", "y_pos", "y_sub", "x_vel", "y_vel", "inertia", "look_delay", "move_lock",
         "spindash_counter", "camera_bias"}


def load(path):
    """Returns (header, [frame dicts])."""
    with open(path, "rb") as f:
        magic = f.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [line for line in f if line.strip()]
    if not lines:
        raise ValueError(f"{path}: empty trace")
    header = json.loads(lines[0])
    frames = [json.loads(line) for line in lines[1:]]
    return header, frames


def fmt(field, v):
    """A value in decimal and hex ($XX for u8 fields, $XXXX for 16-bit ones; signed as two's complement)."""
    if not isinstance(v, int):
        return "missing" if v is None else repr(v)
    if field in WORDS:
        return f"{v} (${v & 0xFFFF:04X})"
    return f"{v} (${v & 0xFF:02X})"


def diff_fields(a, b, layer=False):
    return [f for f in COMPARED + (LAYER if layer else []) if a.get(f) != b.get(f)]


def carries_layer(header):
    return all(f in header.get("fields", []) for f in LAYER)


def compare(path_a, path_b, out=sys.stdout):
    """Prints a report; returns True when the traces agree."""
    ha, fa = load(path_a)
    hb, fb = load(path_b)
    names = (path_a, path_b)
    ok = True
    layer = carries_layer(ha) and carries_layer(hb)
    d = diff_fields(ha.get("initial", {}), hb.get("initial", {}), layer)
    if d:
        print("initial differs:", file=out)
        for f in d:
            print(f"  {f}: {fmt(f, ha['initial'].get(f))} vs {fmt(f, hb['initial'].get(f))}", file=out)
        return False
    n = min(len(fa), len(fb))
    for i in range(n):
        a, b = fa[i], fb[i]
        d = diff_fields(a, b, layer)
        if a.get("frame") != b.get("frame"):
            d = ["frame"] + d
        if a.get("input") != b.get("input"):
            d = ["input"] + d
        if d:
            print(f"first difference at frame {a.get('frame', i)}:", file=out)
            for f in d:
                print(f"  {f}: {fmt(f, a.get(f))} vs {fmt(f, b.get(f))}", file=out)
            before = [fa[j].get("input") for j in range(max(0, i - 10), i)]
            print(f"  inputs of the {len(before)} frames before: {' '.join(before) or '(none)'}", file=out)
            return False
    if len(fa) != len(fb):
        print(f"frame counts differ: {len(fa)} ({names[0]}) vs {len(fb)} ({names[1]}); "
              f"stop {ha.get('stop')!r} vs {hb.get('stop')!r}", file=out)
        return False
    if ha.get("stop") != hb.get("stop"):
        print(f"note: stop differs: {ha.get('stop')!r} vs {hb.get('stop')!r}", file=out)
    print(f"agree: {len(fa)} frames and initial, {len(COMPARED) + (len(LAYER) if layer else 0)} fields",
          file=out)
    return ok


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        return 0 if compare(argv[1], argv[2]) else 1
    except (OSError, ValueError) as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
