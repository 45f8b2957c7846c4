"""What every tool that drives Genesis Plus GX through stable-retro shares: the import, the
pad's button order, input scripts (docs/formats.md section 1) as per-frame button masks, and
loading a cartridge image."""

import os
import shutil
import tempfile

import numpy as np

try:
    import stable_retro as retro
except ImportError:  # older releases only have the deprecated name
    import retro

# stable-retro's Genesis button order (retro.get_system_info('Genesis')['buttons']).
BUTTONS = ["B", "A", "MODE", "START", "UP", "DOWN", "LEFT", "RIGHT", "C", "Y", "X", "Z"]
LETTER = {"U": "UP", "D": "DOWN", "L": "LEFT", "R": "RIGHT", "A": "A", "B": "B", "C": "C",
          "S": "START"}


def parse_script(text):
    """One string of held letters per frame (docs/formats.md section 1)."""
    out = []
    for line in text.splitlines():
        line = line.split("#")[0]
        for tok in line.split():
            held, _, n = tok.partition("*")
            out += ["" if held == "." else held] * (int(n) if n else 1)
    return out


def button_mask(held):
    """stable-retro's button mask for one frame's held letters."""
    mask = np.zeros(len(BUTTONS), dtype=np.uint8)
    for c in held:
        mask[BUTTONS.index(LETTER[c])] = 1
    return mask


def held_at(inputs, i):
    """The letters held on frame index i (0-based) of a parsed script: none past its end."""
    return inputs[i] if i < len(inputs) else ""


def load(rom):
    """A RetroEmulator running `rom`; stable-retro picks the core by the file's extension, so
    it loads a temporary .md copy. The constructor has already run one frame."""
    with tempfile.TemporaryDirectory() as tmp:
        md = os.path.join(tmp, "rom.md")
        shutil.copyfile(rom, md)
        return retro.RetroEmulator(md)
