#!/usr/bin/env python3
"""Run an s2lab scenario on the real Sonic 2 ROM in MAME 0.251 and write its trace.

Usage:
  tools/mame/s2trace.py --rom ROM SCENARIO.scenario.json -o TRACE.trace.jsonl[.gz]
                        [--compare REFERENCE.trace.jsonl.gz] [--mame PATH] [--keep-temp]

Parses the scenario (formats.md §2) and its input script (§1), builds the stage's chunks and layout
bytes, writes a small Lua config and runs MAME's genesis driver headless with tools/mame/s2trace.lua,
which applies the recording recipe of traces/README.md and writes the trace (§3). The output is
written atomically (temporary file + rename); a name ending in .gz is gzip-compressed. With
--compare, the new trace is compared with a reference (§4; see compare.py) and the exit status is 1
if they differ. The ROM revision is identified by SHA-1 against roms.toml (Rev 00, Rev A, Rev B).
A scenario with a "setup" key (`s2lab claims --export`: RAM writes, placed objects, watched values) is
run as s2harness game/measure.rs runs a measurement (README.md, "Measurements").
Standard library only (Python 3.11+ for tomllib).
"""
import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compare  # noqa: E402

SOURCE = "mame 0.251"
FIELDS = compare.COMPARED + ["level_frame"]
TERRAIN_FIELDS = compare.COMPARED + compare.LAYER + ["level_frame"]
# The x at which an act's level events start moving its boundaries (terrain-format.md §2, the
# event_line stop; s2model::terrain_scenario::event_line): EHZ1, EHZ2.
EVENT_LINE = {0: 0x28A0, 1: 0x2780}
BUTTON_BITS = {"U": 0x01, "D": 0x02, "L": 0x04, "R": 0x08, "A": 0x40, "B": 0x10, "C": 0x20, "S": 0x80}
BUTTON_ORDER = "UDLRABCS"          # how `input` is written in a trace
START_LFC = 122                    # Level_frame_counter at the setup boundary, as in the reference traces
# A measurement (a scenario with "setup") starts where s2harness's runs start, at B_0 (Game::boot: control
# free, 30 more frames, the next boundary), whose Level_frame_counter is 31 in both acts on all three revisions.
MEASURE_START_LFC = 31
STAGE_W_CELLS, STAGE_H_CELLS = 688, 128


class ScriptError(ValueError):
    pass


# ---- input script (formats.md §1) ------------------------------------------------------------------------
TOKEN = re.compile(r"^([^*]*)(?:\*(.*))?$")


def parse_script(text):
    """Expands an input script into a list of held-button bytes (one per frame)."""
    held = []
    for lineno, line in enumerate(text.split("\n"), 1):
        line = line.split("#", 1)[0]
        for m in re.finditer(r"\S+", line):
            tok, col = m.group(0), m.start() + 1
            where = f"line {lineno}, col {col}"
            buttons, count = TOKEN.match(tok).groups()
            if buttons == ".":
                value = 0
            elif buttons:
                value = 0
                for ch in buttons:
                    if ch not in BUTTON_BITS:
                        raise ScriptError(f"{where}: unknown button {ch!r} in {tok!r}")
                    if value & BUTTON_BITS[ch]:
                        raise ScriptError(f"{where}: button {ch!r} twice in {tok!r}")
                    value |= BUTTON_BITS[ch]
            else:
                raise ScriptError(f"{where}: no buttons in {tok!r}")
            if count is None:
                n = 1
            elif re.fullmatch(r"[0-9]+", count) and int(count) > 0:
                n = int(count)
            else:
                raise ScriptError(f"{where}: bad count {count!r} in {tok!r}")
            held.extend([value] * n)
    return held


def input_str(held):
    s = "".join(b for b in BUTTON_ORDER if held & BUTTON_BITS[b])
    return s or "."


# ---- stage (formats.md §2, traces/README.md step 2) ------------------------------------------------------
def build_stage(stage):
    """Returns (chunks [(id, 64 words)], layout [(offset, id)], lo, hi)."""
    block = stage.get("block", 60)
    if not (0 <= block < 0x400):
        raise ValueError(f"stage.block {block} out of range")
    cells = set()
    for rect in stage.get("solid", []):
        if len(rect) != 4:
            raise ValueError(f"stage.solid entry {rect!r}: want [cell_x, cell_y, width, height]")
        cx, cy, w, h = rect
        if w <= 0 or h <= 0 or cx < 0 or cy < 0 or cx + w > STAGE_W_CELLS or cy + h > STAGE_H_CELLS:
            raise ValueError(f"stage.solid entry {rect!r} outside {STAGE_W_CELLS}x{STAGE_H_CELLS} cells")
        for x in range(cx, cx + w):
            for y in range(cy, cy + h):
                cells.add((x, y))
    if not cells:
        raise ValueError("stage has no solid cells")
    word = 0x3000 | block
    patterns = {}
    for x, y in cells:
        words = patterns.setdefault((x >> 3, y >> 3), [0] * 64)
        words[(y & 7) * 8 + (x & 7)] = word
    ids, chunks, layout = {}, [], []
    for (chx, chy) in sorted(patterns, key=lambda c: (c[1], c[0])):
        key = tuple(patterns[(chx, chy)])
        if key not in ids:
            ids[key] = len(ids) + 1
            if ids[key] > 0xF7:
                raise ValueError("stage needs more than 247 distinct 128x128 chunks")
            chunks.append((ids[key], list(key)))
        layout.append((chy * 0x100 + chx, ids[key]))
    lo = min(x for x, _ in cells) * 16
    hi = (max(x for x, _ in cells) + 1) * 16
    return chunks, layout, lo, hi


def terrain_of(sc, path):
    """Format 2 (terrain-format.md §2): the act (0 or 1) and Sonic's start speeds; None for format 1."""
    if sc.get("format") != 2:
        return None
    stage = sc.get("stage", {})
    if stage.get("kind") != "terrain" or stage.get("zone") != "ehz" or stage.get("act") not in (1, 2):
        raise ValueError(f"{path}: stage: want kind \"terrain\", zone \"ehz\", act 1 or 2")
    sonic = sc["sonic"]
    speeds = {}
    for k in ("x_vel", "y_vel", "inertia"):
        v = int(sonic.get(k, 0))
        if not -0x8000 <= v <= 0x7FFF:
            raise ValueError(f"{path}: sonic.{k}: {v} is outside -32768..=32767")
        speeds[k] = v
    air = sonic.get("air", False)
    if not isinstance(air, bool):
        raise ValueError(f"{path}: sonic.air: expected true or false")
    return {"act": stage["act"] - 1, "air": air, **speeds}


def load_scenario(path):
    with open(path, encoding="utf-8") as f:
        sc = json.load(f)
    if sc.get("format") not in (1, 2):
        raise ValueError(f"{path}: scenario format {sc.get('format')!r}, want 1 or 2 (terrain)")
    terrain_of(sc, path)
    if "input" in sc:
        text = sc["input"]
    elif "input_file" in sc:
        with open(os.path.join(os.path.dirname(os.path.abspath(path)), sc["input_file"]), encoding="utf-8") as f:
            text = f.read()
    else:
        raise ValueError(f"{path}: no input or input_file")
    held = parse_script(text)
    if "frames" in sc:
        n = int(sc["frames"])
        held = (held + [0] * n)[:n]
    if "setup" in sc:
        sc["setup"] = parse_setup(sc["setup"], path, terrain=sc.get("format") == 2)
    return sc, held


# ---- measurement setup (`s2lab claims --export`; s2harness game/measure.rs) -------------------------------
# Keys a frame line already has: a watched value must not take one of these names.
LINE_KEYS = {"frame", "input"} | set(TERRAIN_FIELDS)


def parse_setup(setup, path, *, terrain):
    """Validates a scenario's "setup" (writes, objects, watch) and returns it normalized:
    writes [(addr, size, value)], objects [{id, subtype, x, y, flips}], watch [(name, addr, size, signed)]."""
    where = f"{path}: setup"
    if not isinstance(setup, dict):
        raise ValueError(f"{where}: expected an object with writes, objects, watch")
    unknown = set(setup) - {"writes", "objects", "watch"}
    if unknown:
        raise ValueError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")

    def ram(addr, size, at):
        if not isinstance(addr, int) or not 0xFF0000 <= addr or addr + size > 0x1000000 \
                or (size > 1 and addr % 2):
            raise ValueError(f"{at}: {addr!r} is not a{'n even' if size > 1 else ''} work RAM address")

    writes = []
    for i, w in enumerate(setup.get("writes", [])):
        at = f"{where}.writes[{i}]"
        if not (isinstance(w, list) and len(w) == 3 and all(isinstance(x, int) for x in w)):
            raise ValueError(f"{at}: want [addr, size, value], got {w!r}")
        addr, size, value = w
        if size not in (1, 2, 4):
            raise ValueError(f"{at}: size {size}, want 1, 2 or 4")
        ram(addr, size, at)
        if not 0 <= value < 1 << (8 * size):
            raise ValueError(f"{at}: value {value} does not fit in {size} byte(s) unsigned")
        writes.append((addr, size, value))
    objects = []
    for i, o in enumerate(setup.get("objects", [])):
        at = f"{where}.objects[{i}]"
        if not isinstance(o, dict) or set(o) - {"id", "subtype", "x", "y", "flip_x", "flip_y"}:
            raise ValueError(f"{at}: want {{id, subtype, x, y, flip_x, flip_y}}, got {o!r}")
        try:
            oid, sub, x, y = (int(o[k]) for k in ("id", "subtype", "x", "y"))
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{at}: id, subtype, x and y must be integers") from None
        if not (0 < oid <= 0xFF and 0 <= sub <= 0xFF and 0 <= x <= 0xFFFF and 0 <= y <= 0xFFFF):
            raise ValueError(f"{at}: id/subtype/x/y out of range in {o!r}")
        flips = int(bool(o.get("flip_x", False))) | int(bool(o.get("flip_y", False))) << 1
        objects.append({"id": oid, "subtype": sub, "x": x, "y": y, "flips": flips})
    if objects and terrain:
        raise ValueError(f"{where}.objects: objects can be placed on flat stages only (on an act's terrain "
                         "every object but the path swappers is removed after each frame)")
    watch = []
    for i, w in enumerate(setup.get("watch", [])):
        at = f"{where}.watch[{i}]"
        if not (isinstance(w, list) and len(w) == 4 and isinstance(w[0], str) and isinstance(w[1], int)
                and w[2] in (1, 2, 4) and isinstance(w[3], bool)):
            raise ValueError(f"{at}: want [name, addr, size 1|2|4, signed], got {w!r}")
        name, addr, size, signed = w
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in LINE_KEYS \
                or name in (x[0] for x in watch):
            raise ValueError(f"{at}: {name!r} is not a free key for a frame line")
        ram(addr, size, at)
        watch.append((name, addr, size, signed))
    return {"writes": writes, "objects": objects, "watch": watch}


# ---- ROM ------------------------------------------------------------------------------------------------
def rom_info(rom_path, roms_toml):
    h = hashlib.sha1()
    with open(rom_path, "rb") as f:
        for blk in iter(lambda: f.read(1 << 16), b""):
            h.update(blk)
    sha1 = h.hexdigest()
    with open(roms_toml, "rb") as f:
        known = tomllib.load(f)["rom"]
    for rom in known:
        if rom["sha1"] == sha1:
            return sha1, rom
    raise ValueError(f"{rom_path}: SHA-1 {sha1} is not a known Sonic 2 ROM (see {roms_toml})")


# ---- Lua config -------------------------------------------------------------------------------------------
def lua_str(s):
    return '"' + "".join(c if (c.isascii() and c.isalnum()) or c in " -_.,:/+=()[]{}" else "\\%03d" % ord(c)
                         for c in s.encode("utf-8").decode("latin-1")) + '"'


def write_config(path, *, sc, held, rom_sha1, symbols, out_path, status_path):
    terrain = terrain_of(sc, path)
    if terrain:
        chunks, layout, lo, hi = [], [], 0, 0x10000
    else:
        chunks, layout, lo, hi = build_stage(sc["stage"])
    sonic = sc["sonic"]
    facing = sonic.get("facing", "right")
    if facing not in ("left", "right"):
        raise ValueError(f"sonic.facing {facing!r}")
    lines = ["return {"]
    lines.append(f"  scenario_json = {lua_str(json.dumps(str(sc['name'])))},")
    lines.append(f"  source = {lua_str(SOURCE)},")
    lines.append(f"  rom_sha1 = {lua_str(rom_sha1)},")
    fields = TERRAIN_FIELDS if terrain else FIELDS
    lines.append("  fields_json = " + lua_str(",".join(json.dumps(f) for f in fields)) + ",")
    if terrain:
        lines.append(f"  terrain = {{ act = {terrain['act']}, x_vel = {terrain['x_vel']}, y_vel = {terrain['y_vel']},"
                     f" inertia = {terrain['inertia']}, air = {str(terrain['air']).lower()},"
                     f" event_line = {EVENT_LINE[terrain['act']]} }},")
    lines.append(f"  out_path = {lua_str(out_path)},")
    lines.append(f"  status_path = {lua_str(status_path)},")
    lines.append(f"  start_lfc = {MEASURE_START_LFC if 'setup' in sc else START_LFC},")
    lines.append("  boot_timeout = 3000,")
    lines.append(f"  sonic = {{ x = {int(sonic['x'])}, y = {int(sonic['y'])}, left = {str(facing == 'left').lower()} }},")
    lines.append(f"  floor_lo = {lo}, floor_hi = {hi},")
    setup = sc.get("setup")
    if setup is not None:
        # a measurement (s2harness game/measure.rs): writes and objects after Sonic, watched values
        lines.append("  setup = {")
        lines.append("    writes = {" + ",".join(f"{{{a},{n},{v}}}" for a, n, v in setup["writes"]) + "},")
        lines.append("    objects = {" + ",".join(
            f"{{id={o['id']},subtype={o['subtype']},x={o['x']},y={o['y']},flips={o['flips']}}}"
            for o in setup["objects"]) + "},")
        lines.append("    watch = {" + ",".join(
            f"{{{lua_str(n)},{a},{z},{str(sg).lower()}}}" for n, a, z, sg in setup["watch"]) + "},")
        lines.append("  },")
    lines.append("  held = {" + ",".join(str(h) for h in held) + "},")
    lines.append("  inputs = {" + ",".join(lua_str(input_str(h)) for h in held) + "},")
    lines.append("  chunks = {")
    for cid, words in chunks:
        lines.append(f"    {{ id = {cid}, words = {{" + ",".join(str(w) for w in words) + "} },")
    lines.append("  },")
    lines.append("  layout = {" + ",".join(f"{{{off},{cid}}}" for off, cid in layout) + "},")
    lines.append("  sym = {")
    for name, value in symbols.items():
        if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) and isinstance(value, int):
            lines.append(f"    {name} = {value},")
    lines.append("  },")
    lines.append("}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return lo, hi


def find_mame(explicit):
    for cand in ([explicit] if explicit else []) + [shutil.which("mame"), "/usr/games/mame"]:
        if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
            return cand
    raise FileNotFoundError("MAME not found (apt-get install mame; or pass --mame PATH)")


def run_mame(mame, rom, config, workdir, timeout):
    os.makedirs(os.path.join(workdir, "roms"), exist_ok=True)
    cmd = [
        mame, "genesis", "-cart", os.path.abspath(rom),
        "-rompath", os.path.join(workdir, "roms"),
        "-homepath", workdir, "-cfg_directory", os.path.join(workdir, "cfg"),
        "-nvram_directory", os.path.join(workdir, "nvram"), "-state_directory", os.path.join(workdir, "sta"),
        "-snapshot_directory", os.path.join(workdir, "snap"), "-diff_directory", os.path.join(workdir, "diff"),
        "-video", "none", "-sound", "none", "-nothrottle", "-window", "-nomaximize",
        "-skip_gameinfo", "-noreadconfig", "-nonvram_save",
        "-autoboot_script", os.path.join(HERE, "s2trace.lua"),
    ]
    env = dict(os.environ, S2TRACE_CONFIG=config, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    p = subprocess.run(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario")
    ap.add_argument("--rom", required=True, help="Sonic 2 ROM (Rev 00, Rev A or Rev B; identified by SHA-1)")
    ap.add_argument("-o", "--output", required=True, help="trace to write (.jsonl, or .jsonl.gz)")
    ap.add_argument("--compare", metavar="REFERENCE", help="compare the new trace with this one")
    ap.add_argument("--mame", help="MAME binary (default: mame on PATH, or /usr/games/mame)")
    ap.add_argument("--roms-toml", default=os.path.join(REPO, "roms.toml"), help="ROM symbol table")
    ap.add_argument("--timeout", type=float, help="seconds before MAME is killed (default 300 + frames / 5)")
    ap.add_argument("--keep-temp", action="store_true", help="keep the MAME work directory")
    args = ap.parse_args(argv)

    try:
        sc, held = load_scenario(args.scenario)
        sha1, rom = rom_info(args.rom, args.roms_toml)
        mame = find_mame(args.mame)
    except (OSError, ValueError) as e:
        print(f"s2trace: {e}", file=sys.stderr)
        return 2

    out = os.path.abspath(args.output)
    workdir = tempfile.mkdtemp(prefix="s2trace-mame-")
    t0 = time.monotonic()
    try:
        config = os.path.join(workdir, "config.lua")
        raw = os.path.join(workdir, "trace.jsonl")
        status_path = os.path.join(workdir, "status")
        write_config(config, sc=sc, held=held, rom_sha1=sha1, symbols=rom["symbols"],
                     out_path=raw, status_path=status_path)
        try:
            timeout = args.timeout or 300 + len(held) / 5
            rc, log = run_mame(mame, args.rom, config, workdir, timeout)
        except subprocess.TimeoutExpired:
            print(f"s2trace: MAME did not finish within {timeout:.0f} s", file=sys.stderr)
            return 2
        status = open(status_path).read().strip() if os.path.exists(status_path) else None
        if status != "ok":
            print(f"s2trace: {sc['name']}: {status or f'MAME exited ({rc}) without a result'}", file=sys.stderr)
            print(log[-3000:], file=sys.stderr)
            return 2
        with open(raw, encoding="utf-8") as f:
            json.loads(f.readline())        # the header must parse
        tmp = out + f".tmp{os.getpid()}"
        if out.endswith(".gz"):
            with open(raw, "rb") as src, gzip.open(tmp, "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copyfile(raw, tmp)
        os.replace(tmp, out)
    finally:
        if args.keep_temp:
            print(f"s2trace: work directory {workdir}", file=sys.stderr)
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    header, frames = compare.load(out)
    print(f"{sc['name']}: {len(frames)} frames, stop {header['stop']}, {time.monotonic() - t0:.1f} s -> {args.output}")
    if args.compare:
        return 0 if compare.compare(out, args.compare) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
