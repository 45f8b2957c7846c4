| Constant data: palettes, the 1-bit font, name-table entry sets and sprite lists. The
| patterns themselves are generated at run time (gen_tiles) or by assembler expressions.

        .balign 2

| Palette 0: primaries and mixes on a dark blue backdrop (colour 0), so transparency is
| never confused with black. Palettes 1-3 are ramps from formulas, so every colour index
| of every palette is different from its neighbours.
palettes:
        RGB     0, 0, 2
        RGB     7, 0, 0
        RGB     0, 7, 0
        RGB     0, 0, 7
        RGB     7, 7, 0
        RGB     7, 0, 7
        RGB     0, 7, 7
        RGB     7, 7, 7
        RGB     3, 3, 3
        RGB     7, 3, 0
        RGB     3, 7, 3
        RGB     3, 3, 7
        RGB     5, 1, 1
        RGB     1, 5, 1
        RGB     1, 1, 5
        RGB     6, 6, 6
        .set    i, 0
        .rept   16
        RGB     i, i>>1, 7-(i>>1)
        .set    i, i + 1
        .endr
        .set    i, 0
        .rept   16
        RGB     7-(i>>1), i, i*3
        .set    i, i + 1
        .endr
        .set    i, 0
        .rept   16
        RGB     i*5, i*3, 7-i
        .set    i, i + 1
        .endr

| The palette the DMA scene loads into palette 2 by CRAM DMA.
pal_dma:
        .set    i, 0
        .rept   16
        RGB     i*3, 7-i, i>>1
        .set    i, i + 1
        .endr

| Backdrop colour per H-int band (raster scene).
raster_colours:
        .set    i, 0
        .rept   16
        RGB     i>>1, (i*5)>>1, 7-(i>>1)
        .set    i, i + 1
        .endr

| 8x8 hex digits, 1 bit per pixel, most significant bit leftmost.
font:
        dc.b    0x3C, 0x66, 0x6E, 0x76, 0x66, 0x66, 0x3C, 0x00   | 0
        dc.b    0x18, 0x38, 0x18, 0x18, 0x18, 0x18, 0x7E, 0x00   | 1
        dc.b    0x3C, 0x66, 0x06, 0x0C, 0x30, 0x60, 0x7E, 0x00   | 2
        dc.b    0x3C, 0x66, 0x06, 0x1C, 0x06, 0x66, 0x3C, 0x00   | 3
        dc.b    0x0C, 0x1C, 0x3C, 0x6C, 0x7E, 0x0C, 0x0C, 0x00   | 4
        dc.b    0x7E, 0x60, 0x7C, 0x06, 0x06, 0x66, 0x3C, 0x00   | 5
        dc.b    0x3C, 0x60, 0x7C, 0x66, 0x66, 0x66, 0x3C, 0x00   | 6
        dc.b    0x7E, 0x06, 0x0C, 0x18, 0x30, 0x30, 0x30, 0x00   | 7
        dc.b    0x3C, 0x66, 0x66, 0x3C, 0x66, 0x66, 0x3C, 0x00   | 8
        dc.b    0x3C, 0x66, 0x66, 0x3E, 0x06, 0x0C, 0x38, 0x00   | 9
        dc.b    0x18, 0x3C, 0x66, 0x66, 0x7E, 0x66, 0x66, 0x00   | A
        dc.b    0x7C, 0x66, 0x66, 0x7C, 0x66, 0x66, 0x7C, 0x00   | B
        dc.b    0x3C, 0x66, 0x60, 0x60, 0x60, 0x66, 0x3C, 0x00   | C
        dc.b    0x78, 0x6C, 0x66, 0x66, 0x66, 0x6C, 0x78, 0x00   | D
        dc.b    0x7E, 0x60, 0x60, 0x7C, 0x60, 0x60, 0x7E, 0x00   | E
        dc.b    0x7E, 0x60, 0x60, 0x7C, 0x60, 0x60, 0x60, 0x00   | F

| Plane A entries: gradient and frame tiles with every flip, digits, transparent cells
| (so plane B shows through) and some high-priority cells.
table_a:
        ENT     T_GRAD, 0
        ENT     0
        ENT     T_GRAD, 1, 0, 1, 0
        ENT     T_DIGIT+1, 2
        ENT     T_FRAME, 3, 1
        ENT     0
        ENT     T_GRAD, 2, 1, 0, 1
        ENT     T_DIGIT+8, 0, 0, 1, 1
        ENT     T_DIAG, 1
        ENT     T_GRAD, 3, 0, 1, 1
        ENT     0
        ENT     T_DIGBOX+10, 1
        ENT     T_FRAME, 0, 0, 1, 1
        ENT     T_HSTRIPE, 2, 1
        ENT     T_DIGIT+3, 3, 0, 1, 0
        ENT     0
        ENT     T_GRAD, 0, 1, 1, 0
        ENT     T_CHECK, 2
        ENT     T_DIGBOX+5, 3, 1, 0, 1
        ENT     0
        ENT     T_DIAG, 0, 1, 1, 0
        ENT     T_GRAD, 1, 0, 0, 1
        ENT     T_DIGIT+15, 1, 1
        ENT     T_FRAME, 2, 0, 1, 0
        ENT     0
        ENT     T_DIGBOX+2, 0
        ENT     T_GRAD, 2
        ENT     0
        ENT     T_DIGIT+12, 2, 0, 0, 1
        ENT     T_FRAME, 1, 1, 0, 1
        ENT     T_GRAD, 3, 1, 1, 1
        ENT     0

| Plane B entries: solid colours 1-15 cycling through the four palettes, every fifth a
| checker. No priority bits.
table_b:
        .set    i, 0
        .rept   32
        .if     (i % 5) == 4
        ENT     T_CHECK, (i/5)&3
        .else
        ENT     1+(i%15), (i/8)&3
        .endif
        .set    i, i + 1
        .endr

| Window entries: boxed digits in palette 2 with stripes every third cell.
table_w:
        .set    i, 0
        .rept   32
        .if     (i % 3) == 2
        ENT     T_HSTRIPE, 2
        .else
        ENT     T_DIGBOX+(i&15), 2, 0, (i>>4)&1, 0
        .endif
        .set    i, i + 1
        .endr

| DMA scene plane B: like table_b but all in palette 2 (the one loaded by CRAM DMA).
table_d:
        .set    i, 0
        .rept   32
        ENT     1+(i%15), 2
        .set    i, i + 1
        .endr

| Raster scene plane B: mostly transparent (diagonals, stripes, empty) so the backdrop
| bands show, with a few solid cells to see the H-scroll change per band.
table_r:
        .set    i, 0
        .rept   32
        .if     (i % 4) == 0
        ENT     T_DIAG, 0
        .elseif (i % 4) == 1
        ENT     0
        .elseif (i % 4) == 2
        ENT     T_HSTRIPE, 1
        .else
        ENT     1+(i%15), 3
        .endif
        .set    i, i + 1
        .endr

| VSRAM image for the DMA scene: 20 (plane A, plane B) pairs.
vsram_dma:
        .set    i, 0
        .rept   20
        dc.w    (i * 7) & 31, -(i * 2)
        .set    i, i + 1
        .endr

| Patterns 64-67 for 68000 -> VRAM DMA: pixel (x, y) of pattern k is (k * 4 + x + y) mod 16.
dma_tiles:
        .set    k, 0
        .rept   4
        .set    y, 0
        .rept   8
        .set    v, 0
        .set    x, 0
        .rept   8
        .set    v, (v << 4) + ((k * 4 + x + y) & 15)
        .set    x, x + 1
        .endr
        dc.l    v
        .set    y, y + 1
        .endr
        .set    k, k + 1
        .endr

| Plane A row 2 for the DMA scene: patterns 64-67 in palettes 0-3.
dma_row:
        .set    i, 0
        .rept   32
        ENT     T_DMA+(i&3), (i>>2)&3
        .set    i, i + 1
        .endr

| Sprite lists: (y, size, attribute, x) records, screen coordinates, ended by $7FFF.
        .macro  SPR y, w, h, attr, x
        dc.w    (\y), ((((\w) - 1) << 2) + ((\h) - 1)), (\attr), (\x)
        .endm

sprites_rows12:
        SPR     8, 1, 1, T_DIGBOX, 8
        SPR     8, 2, 1, T_DIGBOX + HF + PAL1, 48
        SPR     8, 3, 1, T_DIGBOX + VF + PAL2, 88
        SPR     8, 4, 1, T_DIGBOX + HF + VF + PAL3, 128
        SPR     8, 1, 2, T_DIGBOX + PRI, 168
        SPR     8, 2, 2, T_DIGBOX + HF + PAL1 + PRI, 208
        SPR     8, 3, 2, T_DIGBOX + VF + PAL2 + PRI, 248
        SPR     8, 4, 2, T_DIGBOX + HF + VF + PAL3 + PRI, 288
        SPR     32, 1, 3, T_DIGBOX, 8
        SPR     32, 2, 3, T_DIGBOX + HF + PAL1, 48
        SPR     32, 3, 3, T_DIGBOX + VF + PAL2, 88
        SPR     32, 4, 3, T_DIGBOX + HF + VF + PAL3, 128
        SPR     32, 1, 4, T_DIGBOX + PRI, 168
        SPR     32, 2, 4, T_DIGBOX + HF + PAL1 + PRI, 208
        SPR     32, 3, 4, T_DIGBOX + VF + PAL2 + PRI, 248
        SPR     32, 4, 4, T_DIGBOX + HF + VF + PAL3 + PRI, 288
        dc.w    0x7FFF

sprites_rest:
        | y 88 continued: three 4-cell sprites take the line past 40 cells.
        SPR     88, 4, 1, T_DIGBOX + PAL2, 200
        SPR     88, 4, 1, T_DIGBOX + PAL2, 240
        SPR     88, 4, 1, T_DIGBOX + PAL3, 280
        | y 104: overlaps, earlier sprite first; in the open and across the band.
        SPR     104, 2, 2, T_DIGBOX + PAL1, 40
        SPR     104, 2, 2, (T_DIGBOX+4) + PAL2 + PRI, 48
        SPR     104, 2, 2, T_DIGBOX + PAL1, 140
        SPR     104, 2, 2, (T_DIGBOX+4) + PAL2 + PRI, 148
        | y 128: visible sprite, then an x = 0 mask, then sprites that must be masked.
        SPR     128, 1, 1, T_DIGBOX + PAL1, 16
        SPR     128, 1, 1, T_DIGBOX+1, -128
        SPR     128, 2, 1, (T_DIGBOX+2) + PAL2, 60
        SPR     128, 2, 1, (T_DIGBOX+2) + PAL3, 200
        | y 144: the x = 0 sprite is the first on its lines.
        SPR     144, 1, 1, T_DIGBOX+1, -128
        SPR     144, 2, 1, (T_DIGBOX+2) + PAL2, 60
        | y 168 / 188: across the high-priority band at priority 0, then 1.
        SPR     168, 4, 2, T_DIGBOX + PAL3, 136
        SPR     188, 4, 2, T_DIGBOX + PAL3 + PRI, 136
        | y 210: clipped at the left and right edges.
        SPR     210, 2, 2, T_DIGBOX + PAL1 + PRI, -8
        SPR     210, 2, 2, T_DIGBOX + PAL2 + PRI, 312
        dc.w    0x7FFF

| Shadow/highlight scene. Tiles 21-24 are solid colour 14 and 25-28 solid 15 (2x2 sprites).
        .equ    T_OP14, 21
        .equ    T_OP15, 25
sprites_shadow:
        | Over high-priority plane A (normal) at y 40, low-priority plane A (shadowed) at
        | y 112, high-priority plane B at y 176; highlight at x 176, shadow at x 200.
        SPR     40, 2, 2, T_OP14 + PAL3, 176
        SPR     40, 2, 2, T_OP15 + PAL3, 200
        SPR     112, 2, 2, T_OP14 + PAL3, 176
        SPR     112, 2, 2, T_OP15 + PAL3, 200
        SPR     176, 2, 2, T_OP14 + PAL3, 176
        SPR     176, 2, 2, T_OP15 + PAL3, 200
        | Over low-priority plane B (shadowed): operators at priority 0 and 1.
        SPR     40, 2, 2, T_OP14 + PAL3, 40
        SPR     40, 2, 2, T_OP15 + PAL3, 64
        SPR     72, 2, 2, T_OP14 + PAL3 + PRI, 40
        SPR     72, 2, 2, T_OP15 + PAL3 + PRI, 64
        | Normal sprites: palette 3 digits (colour 15 glyphs are shadow operators), the same
        | at priority 1, and palette 2 colour 14 (not an operator outside palette 3).
        SPR     112, 2, 2, T_DIGBOX + PAL3, 40
        SPR     112, 2, 2, T_DIGBOX + PAL3 + PRI, 72
        SPR     144, 2, 2, T_OP14 + PAL2, 40
        SPR     144, 2, 2, T_OP15 + PAL2, 64
        | A highlight operator listed before an overlapping normal sprite, over both planes.
        SPR     40, 2, 2, T_OP14 + PAL3, 264
        SPR     48, 2, 2, T_DIGBOX + PAL1, 272
        SPR     112, 2, 2, T_OP14 + PAL3, 264
        SPR     120, 2, 2, T_DIGBOX + PAL1 + PRI, 272
        dc.w    0x7FFF

| DMA scene sprites: the DMA'd patterns as a 2x2 sprite, and the copied one.
sprites_dma:
        SPR     160, 2, 2, T_DMA + PAL1, 200
        SPR     160, 1, 1, (T_DMA+5) + PAL3, 240
        SPR     160, 1, 1, (T_DMA+4) + PAL3 + HF, 256
        dc.w    0x7FFF

        .balign 2
