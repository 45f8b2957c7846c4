#!/usr/bin/env python3
"""Runs a folder of third-party Mega Drive test programs in s2lab and in Genesis Plus GX
(stable-retro) and prints, for each, how the chosen frames compare: same, N pixels differ, or
a whole-frame lag (our frame k equals Genesis Plus GX's frame k-1 or k+1).

Usage (from the repository root; the images are never written to the repository):

    cargo build --release -p megadrive --example dump_frames
    /work/venv-gpgx/bin/python tools/external-roms/run.py /path/to/roms \\
        [--ours target/release/examples/dump_frames] [--png OUTDIR] [--timing hardware]

The folder holds the images (.bin/.md/.gen) and optionally `manifest.txt`, one image a line:

    FILE  FRAMES  [SCRIPT]  [CHECK...]

FRAMES: frames to run; SCRIPT: an input script (shared/docs/formats.md section 1; `-` for
none) relative to the folder; CHECK: the frames to compare (default: every 60th and the last).
Images not in the manifest run 600 frames with no input.

Frames are numbered as in tools/gpgx/compare_frames.py: stable-retro runs one frame when it
loads a game, so its k-th step() is our k-th frame after `dump_frames`' own first frame.
"""

import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np


sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "gpgx"))
from compare_frames import RAM, read_exact  # noqa: E402
from gpgx import button_mask, held_at, load, parse_script  # noqa: E402

EXTS = (".bin", ".md", ".gen", ".smd")


def manifest(folder):
    entries = {}
    path = os.path.join(folder, "manifest.txt")
    if os.path.exists(path):
        for n, line in enumerate(open(path), 1):
            line = line.split("#")[0].split()
            if not line:
                continue
            try:
                frames = int(line[1])
                checks = [int(v) for v in line[3:]]
            except (IndexError, ValueError):
                raise SystemExit(f"{path}: line {n}: expected FILE FRAMES [SCRIPT] [CHECK...]")
            script = line[2] if len(line) > 2 and line[2] != "-" else None
            entries[line[0]] = (frames, script, checks)
    for name in sorted(os.listdir(folder)):
        if name.lower().endswith(EXTS) and name not in entries:
            entries[name] = (600, None, [])
    return entries


def run_one(folder, name, frames, script, checks, ours_bin, png, extra=()):
    extra = list(extra)
    rom = os.path.join(folder, name)
    if not os.path.exists(rom):
        raise SystemExit(f"{rom}: listed in manifest.txt but missing")
    script_path = os.path.join(folder, script) if script else None
    with tempfile.TemporaryDirectory() as tmp:
        if script_path is None:
            script_path = os.path.join(tmp, "empty.txt")
            open(script_path, "w").close()
        inputs = parse_script(open(script_path).read())
        ours = subprocess.Popen([ours_bin, rom, script_path, str(frames)] + extra,
                                stdout=subprocess.PIPE)
        emu = load(rom)
        checks = sorted(set(c for c in (checks or list(range(60, frames + 1, 60)) + [frames])
                            if 1 <= c <= frames))
        want = set()
        for c in checks:
            want.update((c - 1, c, c + 1))
        ref, mine = {}, {}
        for f in range(1, frames + 2):
            emu.set_button_mask(button_mask(held_at(inputs, f - 1)), 0)
            emu.step()
            if f in want:
                ref[f] = emu.get_screen().copy()
            if f <= frames:
                w, h = np.frombuffer(read_exact(ours.stdout, 4), dtype="<u2")
                pix = np.frombuffer(read_exact(ours.stdout, int(w) * int(h) * 3),
                                    dtype=np.uint8).reshape(h, w, 3)
                read_exact(ours.stdout, RAM)
                if f in want:
                    mine[f] = pix
        ours.stdout.close()
        ours.wait()
        del emu

    def differ(a, b):
        if b is None or a.shape[0] != b.shape[0] or a.shape[1] > b.shape[1]:
            return None
        return int(np.count_nonzero(np.any(a != b[:, :a.shape[1]], axis=2)))

    results = []
    for c in checks:
        d = differ(mine[c], ref.get(c))
        if d == 0:
            results.append((c, "same"))
            continue
        if differ(mine[c], ref.get(c - 1)) == 0 and c > 1:
            results.append((c, "lag: ours = GPGX frame k-1"))
        elif differ(mine[c], ref.get(c + 1)) == 0:
            results.append((c, "ahead: ours = GPGX frame k+1"))
        elif d is None:
            results.append((c, f"size differs (ours {mine[c].shape[1]}x{mine[c].shape[0]})"))
        else:
            results.append((c, f"{d} pixels differ"))
        if png:
            from PIL import Image
            base = os.path.join(png, f"{os.path.splitext(name)[0]}-{c}")
            Image.fromarray(np.ascontiguousarray(mine[c])).save(base + "-ours.png")
            if c in ref:
                Image.fromarray(np.ascontiguousarray(ref[c])).save(base + "-gpgx.png")
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder")
    ap.add_argument("--ours", default="target/release/examples/dump_frames")
    ap.add_argument("--png", help="directory for both pictures of each differing checked frame")
    ap.add_argument("--only", help="run only this image")
    ap.add_argument("--timing", choices=["gpgx-1.7", "hardware"], default="gpgx-1.7",
                    help="s2lab's timing profile (default: Genesis Plus GX 1.7, as the table)")
    args = ap.parse_args()
    if not os.path.isdir(args.folder):
        raise SystemExit(f"{args.folder}: not a folder")
    if args.png:
        os.makedirs(args.png, exist_ok=True)
    print("| image | frames | checked | same | result (frame: verdict) |")
    print("| --- | --- | --- | --- | --- |")
    all_same = True
    for name, (frames, script, checks) in manifest(args.folder).items():
        if args.only and name != args.only:
            continue
        extra = ["hardware"] if args.timing == "hardware" else []
        res = run_one(args.folder, name, frames, script, checks, args.ours, args.png, extra)
        same = sum(1 for _, v in res if v == "same")
        all_same &= same == len(res)
        odd = "; ".join(f"{c}: {v}" for c, v in res if v != "same") or "all same"
        print(f"| {name} | {frames} | {len(res)} | {same} | {odd} |", flush=True)
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
