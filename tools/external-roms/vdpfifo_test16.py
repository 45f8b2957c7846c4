#!/usr/bin/env python3
"""Prints the results of VDPFIFOTesting's test 16 "FIFO Wait States" as s2lab leaves them in
work RAM: per sub-test the first status and the first full / neither / empty status seen
(FFFF: never), beside the values the ROM expects (the hardware's, stored in the ROM).

Usage (from the repository root, after `cargo build --release -p megadrive --example dump_frames`):

    python3 tools/external-roms/vdpfifo_test16.py /path/to/roms [hardware]

`hardware` runs s2lab in its hardware timing profile. The ROM writes, after the test's
80-character description (ROM $ED10), ten groups of four words; they are found by looking for
that description in work RAM at frame 1079 (the test 16 page of vdpfifo-pages.txt).
"""

import os
import subprocess
import sys

FRAME = 1079
DESC_AT, DESC_LEN = 0xED10, 80
# The hardware's results as the ROM's own expectation table gives them (see README.md).
EXPECTED = ["0100 0100 0000 0200"] * 6 + ["0100 FFFF FFFF 0200", "0100 0100 0000 0200",
                                          "0200 0100 0000 0200", "0000 0100 0000 0200"]


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[1] in ("-h", "--help") or sys.argv[2:] not in ([], ["hardware"]):
        raise SystemExit(__doc__)
    folder = sys.argv[1]
    extra = sys.argv[2:3]
    rom = os.path.join(folder, "VDPFIFOTesting.bin")
    script = os.path.join(folder, "vdpfifo-pages.txt")
    ours = "target/release/examples/dump_frames"
    for need, what in ((rom, "the test ROM (tools/external-roms/build.sh makes it)"),
                       (script, "its page script"),
                       (ours, "cargo build --release -p megadrive --example dump_frames")):
        if not os.path.isfile(need):
            raise SystemExit(f"{need}: missing ({what})")
    desc = open(rom, "rb").read()[DESC_AT:DESC_AT + DESC_LEN]
    p = subprocess.Popen([ours, rom, script, str(FRAME)] + extra, stdout=subprocess.PIPE)
    ram = b""
    for _ in range(FRAME):
        head = p.stdout.read(4)
        w, h = head[0] | head[1] << 8, head[2] | head[3] << 8
        p.stdout.read(w * h * 3)
        ram = p.stdout.read(0x10000)
    p.wait()
    at = ram.find(desc)
    if at < 0:
        raise SystemExit(f"{rom}: test 16's results not found in work RAM at frame {FRAME}")
    res = ram[at + DESC_LEN:at + DESC_LEN + 80]
    passed = 0
    for t in range(10):
        got = " ".join(f"{res[t * 8 + 2 * k] << 8 | res[t * 8 + 2 * k + 1]:04X}" for k in range(4))
        ok = got == EXPECTED[t]
        passed += ok
        print(f"{t + 1:2}  s2lab {got}  hardware {EXPECTED[t]}  {'same' if ok else 'DIFFERS'}")
    print(f"{passed} of 10 sub-tests as on hardware")
    return 0 if passed == 10 else 1


if __name__ == "__main__":
    sys.exit(main())
