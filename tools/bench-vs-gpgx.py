#!/usr/bin/env python3
"""s2lab against Genesis Plus GX (stable-retro), side by side: the same ROM, input script and
frame count, alternated in one run, with the speed ratio per s2lab mode.

Usage (from the repository root; the ROM is never written to the repository):

    cargo build --release -p s2lab
    /work/venv-gpgx/bin/python tools/bench-vs-gpgx.py /root/roms/s2-revb.bin [--rounds 3]

Each round runs Genesis Plus GX once (in this process, through stable-retro's RetroEmulator)
and then `s2lab bench --mode M --frames N` once per mode, so every side sees the same machine
load; the figures are the medians over the rounds. Genesis Plus GX always makes pictures and
sound (stable-retro has no switch for either), so its one time is set against each mode:
ratio = Genesis Plus GX's seconds / s2lab's seconds (above 1: s2lab is faster).

What is timed on each side: the frames only. stable-retro runs one frame when it loads the
game (not timed; `tools/gpgx/compare_frames.py` explains the numbering), then N `step()`s with
the script's pad; s2lab times N `run_frame()`s after power-on, taking the sound every frame in
`full` mode (`crates/s2lab/src/cmd/bench.rs`). The input is `tools/bench/sonic2-ehz1.txt`
(3,600 frames: boot, then Emerald Hill Act 1 play).
"""

import argparse
import os
import platform
import re
import statistics
import subprocess
import sys
import time


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "gpgx"))
from gpgx import button_mask, held_at, load, parse_script, retro  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "bench", "sonic2-ehz1.txt")
MODES = ["full", "video", "headless"]
LINE = re.compile(r"console (\w+): (\d+) frames in ([0-9.]+) s")



def gpgx_seconds(rom, masks):
    """Seconds Genesis Plus GX takes for len(masks) frames (loading not timed)."""
    emu = load(rom)
    try:
        start = time.perf_counter()
        for mask in masks:
            emu.set_button_mask(mask, 0)
            emu.step()
        return time.perf_counter() - start
    finally:
        del emu


def s2lab_seconds(binary, rom, mode, frames):
    out = subprocess.run([binary, "bench", "--rom", rom, "--mode", mode, "--frames", str(frames)],
                         check=True, capture_output=True, text=True).stdout
    m = LINE.search(out)
    if not m or m.group(1) != mode or int(m.group(2)) != frames:
        raise SystemExit(f"unexpected s2lab bench output: {out!r}")
    return float(m.group(3))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rom")
    ap.add_argument("--frames", type=int, default=3600)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--modes", default=",".join(MODES), help="comma-separated s2lab modes")
    ap.add_argument("--s2lab", default="target/release/s2lab", help="the s2lab binary")
    args = ap.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            raise SystemExit(f"unknown mode {m!r} ({', '.join(MODES)})")

    held = parse_script(open(SCRIPT).read())
    masks = [button_mask(held_at(held, f)) for f in range(args.frames)]

    times = {"gpgx": [], **{m: [] for m in modes}}
    for r in range(args.rounds):
        times["gpgx"].append(gpgx_seconds(args.rom, masks))
        for m in modes:
            times[m].append(s2lab_seconds(args.s2lab, args.rom, m, args.frames))
        print(f"round {r + 1}: Genesis Plus GX {times['gpgx'][-1]:.3f} s; "
              + ", ".join(f"s2lab {m} {times[m][-1]:.3f} s" for m in modes), flush=True)

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    loadavg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    gpgx = statistics.median(times["gpgx"])
    print(f"machine: {cpu}, {os.cpu_count()} cores, load average {loadavg:.1f} at the end")
    print(f"{args.frames} frames of {os.path.relpath(SCRIPT)}, median of {args.rounds} rounds")
    print(f"Genesis Plus GX (stable-retro {str(getattr(retro, '__version__', '?')).strip()}, pictures and "
          f"sound): {gpgx:.3f} s, {args.frames / gpgx:.0f} frames/s")
    for m in modes:
        t = statistics.median(times[m])
        print(f"s2lab {m:8}: {t:.3f} s, {args.frames / t:.0f} frames/s, "
              f"{gpgx / t:.2f}x Genesis Plus GX")
    return 0


if __name__ == "__main__":
    sys.exit(main())
