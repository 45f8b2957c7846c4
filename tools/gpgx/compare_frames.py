#!/usr/bin/env python3
"""Runs a ROM with an input script in Genesis Plus GX (stable-retro) and in our emulator in
lockstep and compares every frame: pixels and 64 KiB of work RAM.

Usage (from the repository root; ROM and frames are never written to the repository):

    cargo build --release -p megadrive --example dump_frames
    python3 tools/gpgx/compare_frames.py /root/roms/s2-revb.bin \
        ../shared/scripts/boot-to-ehz1.txt 1500 \
        --ours target/release/examples/dump_frames

Reports how many frames are pixel-identical and how many have identical work RAM, the
first pixel difference (frame, x, y, both RGB values) and the first RAM difference, and for
Sonic 2 the frames on which Game_Mode ($FFF600) changes on each side and Sonic's position
($FFB008/$FFB00C) on the last frame. `--png DIR` writes both pictures of the first
differing frame (for looking at, not for committing: they are frames of the game).

Frame numbering is stable-retro's: its `RetroEmulator` runs one frame when it loads the game
(src/retro.cpp), so its k-th `step()` emulates the (k+1)-th frame after power-on with script
frame k; `dump_frames` runs one frame without input first to count the same way. Pixels:
stable-retro widens Genesis Plus GX's RGB565 by shifting (r << 3, g << 2, b << 3), as
`megadrive::vdp::render::to_rgb888` does; it always hands out 320x224, so only our width
(256 in H32) is compared. Work RAM: stable-retro keeps it in little-endian words, swapped
back to 68000 byte order here.
"""

import argparse
import subprocess
import sys

import numpy as np

from gpgx import button_mask, held_at, load, parse_script, retro

RAM = 0x10000



def read_exact(pipe, n):
    data = pipe.read(n)
    if len(data) != n:
        raise SystemExit(f"our emulator stopped early ({len(data)} of {n} bytes)")
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rom")
    ap.add_argument("script")
    ap.add_argument("frames", type=int)
    ap.add_argument("--ours", default="target/release/examples/dump_frames",
                    help="our dump_frames binary")
    ap.add_argument("--png", help="directory for the first differing frame's two pictures")
    ap.add_argument("--no-sonic2", action="store_true", help="skip the Sonic 2 RAM figures")
    args = ap.parse_args()

    inputs = parse_script(open(args.script).read())
    ours = subprocess.Popen([args.ours, args.rom, args.script, str(args.frames)],
                            stdout=subprocess.PIPE)
    emu = load(args.rom)
    gd = retro.data.GameData()
    emu.configure_data(gd)

    same_pixels = same_ram = 0
    first_pixel = first_ram = None
    modes = {"gpgx": [], "ours": []}
    last_mode = {"gpgx": 0, "ours": 0}
    runs = []  # (first frame, last frame, identical?) runs of pixel results
    for f in range(1, args.frames + 1):
        emu.set_button_mask(button_mask(held_at(inputs, f - 1)), 0)
        emu.step()
        ref = emu.get_screen()
        block = gd.memory.blocks[0xFF0000]
        ref_ram = np.frombuffer(block, dtype=np.uint8).reshape(-1, 2)[:, ::-1].reshape(-1)

        w, h = np.frombuffer(read_exact(ours.stdout, 4), dtype="<u2")
        pix = np.frombuffer(read_exact(ours.stdout, int(w) * int(h) * 3),
                            dtype=np.uint8).reshape(h, w, 3)
        ram = np.frombuffer(read_exact(ours.stdout, RAM), dtype=np.uint8)

        if h != ref.shape[0] or w > ref.shape[1]:
            same = False
            diff_at = (0, 0)
        else:
            d = np.any(pix != ref[:, :w], axis=2)
            same = not d.any()
            diff_at = None if same else tuple(int(v) for v in np.argwhere(d)[0][::-1])
        if same:
            same_pixels += 1
        elif first_pixel is None:
            x, y = diff_at
            first_pixel = (f, x, y, tuple(int(v) for v in ref[y, x]) if y < ref.shape[0] else None,
                           tuple(int(v) for v in pix[y, x]), (int(w), int(h)),
                           int(np.count_nonzero(d)) if h == ref.shape[0] else None)
            if args.png:
                from PIL import Image
                Image.fromarray(np.ascontiguousarray(ref[:, :w])).save(f"{args.png}/gpgx-{f}.png")
                Image.fromarray(np.ascontiguousarray(pix)).save(f"{args.png}/ours-{f}.png")
        if runs and runs[-1][2] == same:
            runs[-1][1] = f
        else:
            runs.append([f, f, same])
        if np.array_equal(ram, ref_ram):
            same_ram += 1
        elif first_ram is None:
            a = int(np.argmax(ram != ref_ram))
            first_ram = (f, 0xFF0000 + a, int(ref_ram[a]), int(ram[a]))
        for side, r in (("gpgx", ref_ram), ("ours", ram)):
            if r[0xF600] != last_mode[side]:
                modes[side].append((f, int(r[0xF600])))
                last_mode[side] = int(r[0xF600])
        if f == args.frames:
            pos = {side: (int(r[0xB008]) << 8 | int(r[0xB009]), int(r[0xB00C]) << 8 | int(r[0xB00D]))
                   for side, r in (("gpgx", ref_ram), ("ours", ram))}
    ours.stdout.close()
    ours.wait()

    n = args.frames
    print(f"pixel-identical frames: {same_pixels} of {n}")
    print(f"work-RAM-identical frames: {same_ram} of {n}")
    if first_pixel:
        f, x, y, a, b, size, count = first_pixel
        print(f"first pixel difference: frame {f} at x {x} y {y}: Genesis Plus GX {a}, ours {b}"
              f" (ours {size[0]}x{size[1]}; {count} pixels differ in that frame)")
    if first_ram:
        f, a, r, o = first_ram
        print(f"first RAM difference: frame {f} at ${a:06X}: Genesis Plus GX ${r:02X}, ours ${o:02X}")
    print("runs: " + ", ".join(f"{a}-{b} {'same' if s else 'DIFF'}" for a, b, s in runs))
    if not args.no_sonic2:
        for side in ("gpgx", "ours"):
            print(f"{side}: Game_Mode " + ", ".join(f"${m:02X} at {f}" for f, m in modes[side])
                  + f"; frame {n}: x {pos[side][0]} y {pos[side][1]}")
    return 0 if same_pixels == n else 1


if __name__ == "__main__":
    sys.exit(main())
