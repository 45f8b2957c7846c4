#!/usr/bin/env python3
"""Records the golden frames of s2lab's test ROM with Genesis Plus GX (stable-retro).

Usage (from the repository root):

    python3 -m venv /root/venv-retro && /root/venv-retro/bin/pip install stable-retro pillow
    cargo run -p testrom --bin write-testrom -- /tmp/testrom.md
    /root/venv-retro/bin/python tools/goldens/record.py /tmp/testrom.md crates/testrom/goldens

It loads the ROM into stable-retro's `genesis_plus_gx` core with the low-level
`RetroEmulator` API (no game integration needed: the core is chosen by the `.md` extension),
steps frames from power-on and writes each golden frame as an RGB PNG plus `manifest.json`,
which lists the frames, the scene each shows, the pad input the recording used and the
command and versions that recorded them. `crates/testrom/tests/goldens.rs` replays the same
input in our emulator and compares pixel-exact.

Frame numbering: frame N is the N-th frame Genesis Plus GX emulates after power-on (one
`retro_run`, which starts at the first line of vertical blanking and ends after the last
active line), the same span of emulated time as our N-th `Machine::run_frame()`. Note that
stable-retro's `RetroEmulator` constructor already runs one frame (src/retro.cpp: "otherwise
you get a segfault when you try to get screen for the first time"), so frame N is the
picture after the (N - 1)-th `step()`. The input for frame N is set with `set_button_mask`
before the step that emulates it (frame 1 runs with no buttons).

Pixel format: Genesis Plus GX hands stable-retro RGB565 frames; `get_screen()` widens them to
RGB888 by shifting (r8 = r5 << 3, g8 = g6 << 2, b8 = b5 << 3, no low-bit replication).
stable-retro also fixes the Genesis screen at 320x224 whatever the core reports, copying
320 pixels per row at the core's pitch: in H32 only the left 256 columns are the frame, the
rest is stale memory of the core's bitmap, so H32 goldens are cropped to 256 columns.
"""

import argparse
import hashlib
import json
import os
import shlex
import sys
from importlib import metadata

import numpy as np
from PIL import Image

try:
    import stable_retro as retro
except ImportError:  # older releases only have the deprecated name
    import retro

# stable-retro's Genesis button order (retro.get_system_info('Genesis')['buttons']).
BUTTONS = ["B", "A", "MODE", "START", "UP", "DOWN", "LEFT", "RIGHT", "C", "Y", "X", "Z"]

SCENE_FRAMES = 32
SCENES = [
    "planes_full_scroll",
    "line_hscroll_2cell_vscroll",
    "cell_hscroll",
    "window_left_top",
    "window_right_bottom",
    "sprites_h40",
    "shadow_highlight",
    "h32",
    "dma",
    "hint_raster",
    "pad",
    "timing_readouts",
    "irq_latency",
    "z80_vdp_writes",
]

# What each scene checks (the full story is in the comments of src/asm/scenes.s).
CHECKS = {
    "planes_full_scroll": "64x32 planes, pattern flips and palettes, plane priority, "
    "transparency, full-screen H/V scroll moving every frame (two goldens: frame alignment)",
    "line_hscroll_2cell_vscroll": "per-line H-scroll with per-2-cell V-scroll (reg 11 = $07), "
    "including the partly scrolled leftmost column",
    "cell_hscroll": "per-8-line H-scroll (reg 11 = $02) over a per-line table",
    "window_left_top": "window left 10 cells + top 4 rows, plane A scrolled by 5 (window "
    "column bug)",
    "window_right_bottom": "window right from cell 24 + bottom from row 18",
    "sprites_h40": "all 16 sizes, flips, priorities, link list out of table order, 20 per "
    "line, 320-pixel dot overflow, sprite-sprite overlap, x = 0 masking, edge clipping, an "
    "unlinked sprite",
    "shadow_highlight": "shadow/highlight mode with palette 3 colour 14/15 operator sprites "
    "over high- and low-priority planes",
    "h32": "256-pixel mode, 16 sprites per line (cropped to 256 columns)",
    "dma": "68000->CRAM, ->VSRAM, ->VRAM from ROM and RAM, VRAM fill (increments 1 and 2, odd "
    "length), VRAM copy",
    "hint_raster": "H-int every 16 lines changing backdrop colour and plane B H-scroll",
    "pad": "3-button TH protocol read shown in hex and bits; A+C+START+RIGHT held from "
    "frame 337",
    "timing_readouts": "CPU-measured numbers shown in hex: HV counter and VDP status at "
    "reset, fill duration, HV counter around a 68000 DMA, HV counter at V-int entry, status "
    "in V-blank",
    "irq_latency": "probes shown in hex: the Z80 reading the VDP data port at $7F00/$7F01, "
    "the 68000 taking an interrupt one instruction after the write that enables it (status "
    "reads around it, H-int/V-int counts), a latched H-int whose acknowledge clears a V-int "
    "enabled one instruction later",
    "z80_vdp_writes": "the Z80 writing VDP registers, CRAM and VRAM at $7F00-$7F07 (backdrop, "
    "colour and four plane cells) and the PSG at $7F11; readouts: its done marker, a data-port "
    "read right after six VRAM writes, the FIFO/DMA status bits after that read and right after "
    "an 8-word 68000 > VRAM DMA in active lines",
}

# Pad input: buttons held on port 1 for frames first..last (inclusive). The pad scene runs
# frames 321-352; pressing from its 17th frame gives goldens before and after the press, and
# frame 337 checks that input set before a frame is read by that frame's V-int.
INPUT = [{"first": 337, "last": 352, "port": 0, "buttons": ["A", "C", "START", "RIGHT"]}]

# The golden frames. Scene s (see the ROM's main.s) is set up in the V-blank at the start
# of frame 32 s + 1 and shown until frame 32 s + 32; static scenes are taken 16 frames in.
GOLDENS = [10, 26] + [SCENE_FRAMES * s + 17 for s in range(1, 10)] + [336, 337, 345, 369, 370,
                                                                      401, 433]
# (369 and 370: the V-int HV readout jitters with the main loop's phase, so both are kept.)
# Width of the real picture where it is narrower than stable-retro's fixed 320.
H32_SCENES = {"h32"}


def scene_of(frame):
    # frame_count (the ROM's V-int counter) is frame - 1 during frame `frame`.
    return SCENES[((frame - 1) // SCENE_FRAMES) % len(SCENES)]


def button_mask(frame):
    mask = np.zeros(len(BUTTONS), dtype=np.uint8)
    for entry in INPUT:
        if entry["port"] == 0 and entry["first"] <= frame <= entry["last"]:
            for b in entry["buttons"]:
                mask[BUTTONS.index(b)] = 1
    return mask


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rom", help="the test ROM, with a .md extension")
    ap.add_argument("out", help="directory for the PNGs and manifest.json")
    args = ap.parse_args()
    if not args.rom.endswith(".md"):
        sys.exit("stable-retro picks the Genesis core by extension: name the ROM *.md")

    os.makedirs(args.out, exist_ok=True)
    emu = retro.RetroEmulator(args.rom)
    width, height = emu.get_resolution()
    last = max(GOLDENS)
    frames = []
    # The constructor emulated frame 1; each step() emulates the next one.
    for frame in range(2, last + 1):
        emu.set_button_mask(button_mask(frame), 0)
        emu.step()
        if frame not in GOLDENS:
            continue
        screen = np.asarray(emu.get_screen())
        assert screen.shape == (height, width, 3) and screen.dtype == np.uint8
        scene = scene_of(frame)
        if scene in H32_SCENES:
            screen = screen[:, :256, :]
        name = f"frame{frame:04d}_{scene}.png"
        Image.fromarray(np.ascontiguousarray(screen), "RGB").save(
            os.path.join(args.out, name), optimize=True
        )
        frames.append(
            {
                "frame": frame,
                "scene": scene,
                "file": name,
                "width": int(screen.shape[1]),
                "height": int(screen.shape[0]),
            }
        )
        print(f"frame {frame}: {scene} -> {name}")

    with open(args.rom, "rb") as f:
        rom_sha1 = hashlib.sha1(f.read()).hexdigest()
    manifest = {
        "about": "Golden frames of s2lab's test ROM (crates/testrom) recorded with Genesis "
        "Plus GX through stable-retro; compared pixel-exact by crates/testrom/tests/goldens.rs.",
        "recorded_with": {
            "command": "cargo run -p testrom --bin write-testrom -- /tmp/testrom.md && "
            + " ".join(
                shlex.quote(a)
                for a in ["/root/venv-retro/bin/python", "tools/goldens/record.py", "/tmp/testrom.md", args.out]
            ),
            "stable_retro": metadata.version("stable-retro"),
            "core": "genesis_plus_gx (vendored by stable-retro), default core options",
            "python": sys.version.split()[0],
            "rom_sha1": rom_sha1,
        },
        "frame_numbering": "frame N = the N-th frame Genesis Plus GX emulates from power-on "
        "(retro_run: first line of V-blank to last active line), which is our N-th "
        "Machine::run_frame(). stable-retro's RetroEmulator constructor runs frame 1 itself, "
        "so frame N is the picture after N - 1 step() calls; the input for frame N is set "
        "before the step that emulates it. In the ROM, the V-int frame counter is N - 1 "
        "during frame N (the 68000 leaves reset late in frame 1, so frame 1 has no V-int).",
        "pixel_format": "RGB888 PNG as returned by stable-retro get_screen(): Genesis Plus GX "
        "renders RGB565 (4-bit levels widened by bit replication), stable-retro widens to 8 "
        "bits by shifting only: r8 = r5 << 3, g8 = g6 << 2, b8 = b5 << 3 (megadrive::vdp::"
        "render::to_rgb888 produces the same). stable-retro always returns 320x224 for the "
        "Genesis; H32 frames are cropped to their real 256 columns (the rest is stale memory).",
        "scene_frames": SCENE_FRAMES,
        "scenes": [
            {
                "index": i,
                "name": name,
                "frames": [SCENE_FRAMES * i + 1, SCENE_FRAMES * i + SCENE_FRAMES],
                "checks": CHECKS[name],
            }
            for i, name in enumerate(SCENES)
        ],
        "pads": "Genesis Plus GX default: 6-button pads in both ports (the ROM reads them with "
        "the 3-button TH protocol, which a 6-button pad answers the same way)",
        "input": INPUT,
        "goldens": frames,
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
