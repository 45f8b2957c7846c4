#!/usr/bin/env bash
# Fetches and builds the third-party test programs that tools/external-roms/run.py compares,
# into OUT (never into the repository). See README.md beside this script for the sources and
# their licences.
#
#   tools/external-roms/build.sh OUT [MIRRORS]
#
# MIRRORS: a folder holding bare clones as OWNER+NAME/repo (used instead of cloning when
# present). Needs: git, python3, gcc-m68k-linux-gnu + binutils-m68k-linux-gnu, pasmo, gcc.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: build.sh OUT [MIRRORS]}
mirrors=${2:-}
mkdir -p "$out/src" "$out/roms"
out=$(cd "$out" && pwd)

# export REPO PATH DEST: the repository's files under PATH into DEST.
export_tree() {
    local repo=$1 path=$2 dest=$3 gitdir
    gitdir="$mirrors/${repo/\//+}/repo"
    if [[ -n $mirrors && -d $gitdir ]]; then
        # (a snapshot may lack unrelated large blobs: git names them on stderr)
        git --git-dir="$gitdir" archive HEAD "$path" 2>/dev/null | tar -x -C "$dest"
    else
        local tmp
        tmp=$(mktemp -d)
        git clone --quiet --depth 1 "https://github.com/$repo" "$tmp/r"
        (cd "$tmp/r" && git archive HEAD "$path") | tar -x -C "$dest"
        rm -rf "$tmp"
    fi
}

# notaz's testpico (Unlicense). The Z80 helper is written for sjasm: rewritten for pasmo. The
# 32X SH-2 program needs an SH cross compiler: an empty stand-in (no 32X here; the 32X tests
# are skipped and the program prints "bad 0x3c0 tab").
rm -rf "$out/src/testpico"
export_tree notaz/megadrive testpico "$out/src"
(
    cd "$out/src/testpico"
    python3 "$here/sjasm2pasmo.py" z80_test.s80 z80_pasmo.asm
    pasmo z80_pasmo.asm z80_test.bin80
    : >sh2_test.binsh
    # Debian's m68k libgcc is built for the 68020 (BSR.L in __divsi3): our 68000 helpers.
    m68k-linux-gnu-gcc -c -O2 -m68000 -fomit-frame-pointer -o div68k.o "$here/div68k.c"
    make -s -o z80_test.bin80 -o sh2_test.binsh CROSS=m68k-linux-gnu- SUFFIX=notaz \
        LDLIBS=div68k.o >/dev/null 2>&1
    cp testpico-notaz.bin "$out/roms/testpico.bin"
)

# Nemesis's VDPFIFOTesting, as GerbilSoft's gens-gs-ii test suite ships it (gzip in a C array).
rm -rf "$out/src/gens"
mkdir -p "$out/src/gens"
export_tree GerbilSoft/gens-gs-ii src/libgens/tests/VdpFIFOTesting_data.c "$out/src/gens"
python3 - "$out/src/gens/src/libgens/tests/VdpFIFOTesting_data.c" "$out/roms/VDPFIFOTesting.bin" <<'EOF'
import gzip, re, sys
s = open(sys.argv[1]).read()
body = s[s.index("{", s.index("test_vdpfifotesting_rom")) + 1:]
body = body[:body.index("}")]
open(sys.argv[2], "wb").write(gzip.decompress(bytes(int(x, 16) for x in re.findall(r"0x[0-9A-Fa-f]+", body))))
EOF

# BlastEm's gen_test_hv.s68 (GPL-3.0), rewritten for GNU as. Its font is generated from an
# image in BlastEm's build; testpico's font stands in (tile colour 15 mapped to 1).
rm -rf "$out/src/blastem"
mkdir -p "$out/src/blastem"
export_tree libretro/blastem gen_test_hv.s68 "$out/src/blastem"
(
    cd "$out/src/blastem"
    python3 - "$out/src/testpico/font.bin" font.tiles <<'EOF'
import sys
d = open(sys.argv[1], "rb").read()
m = lambda n: 1 if n == 15 else n
open(sys.argv[2], "wb").write(bytes(m(b >> 4) << 4 | m(b & 15) for b in d))
EOF
    python3 "$here/vasm2gas.py" gen_test_hv.s68 gen_test_hv.S
    m68k-linux-gnu-as -m68000 --register-prefix-optional -o gen_test_hv.o gen_test_hv.S
    m68k-linux-gnu-ld -Ttext=0 -e 0 --oformat=binary -o gen_test_hv.raw gen_test_hv.o
    python3 -c "import sys; d=open('gen_test_hv.raw','rb').read(); open(sys.argv[1],'wb').write(d + b'\xff' * (65536 - len(d)))" \
        "$out/roms/gen_test_hv.bin"
)

# Andreas Dietrich's SGDK demos (MIT), prebuilt in their repository.
for demo in console fading-test scaling sega-logo wobble; do
    rm -rf "$out/src/dietrich"
    mkdir -p "$out/src/dietrich"
    export_tree a-dietrich/SEGA-Genesis-Demos "$demo/out/$demo.bin" "$out/src/dietrich"
    cp "$out/src/dietrich/$demo/out/$demo.bin" "$out/roms/sgdk-$demo.bin"
done

cp "$here/manifest.txt" "$here/vdpfifo-pages.txt" "$out/roms/"
echo "built into $out/roms"
