| VDP helpers shared by the scenes. Register use: each routine saves what it clobbers
| except d0 where documented.

| Default register set: H40, mode 5, display OFF (so a scene builds VRAM unseen and at full
| VDP access speed), V-int and DMA on, the VRAM layout from defs.inc, 64x32 planes,
| full-screen scroll, no window, auto-increment 2.
load_regs:
        movem.l d0/a0-a1, -(sp)
        lea     reg_defaults, a0
        lea     VDP_CTRL, a1
        moveq   #((reg_defaults_end - reg_defaults) / 2) - 1, d0
1:      move.w  (a0)+, (a1)
        dbra    d0, 1b
        movem.l (sp)+, d0/a0-a1
        rts

reg_defaults:
        dc.w    0x8004              | 0: H-int off, full palette (bit 2)
        dc.w    0x8134              | 1: display off, V-int on, DMA on, mode 5
        dc.w    0x8200 + (VRAM_PLANE_A >> 10)
        dc.w    0x8300 + (VRAM_WINDOW >> 10)
        dc.w    0x8400 + (VRAM_PLANE_B >> 13)
        dc.w    0x8500 + (VRAM_SPRITES >> 9)
        dc.w    0x8600
        dc.w    0x8700              | 7: backdrop = palette 0 colour 0
        dc.w    0x8800
        dc.w    0x8900
        dc.w    0x8AFF              | 10: H-int counter
        dc.w    0x8B00              | 11: full-screen H and V scroll, ext int off
        dc.w    0x8C81              | 12: H40, no shadow/highlight, no interlace
        dc.w    0x8D00 + (VRAM_HSCROLL >> 10)
        dc.w    0x8E00
        dc.w    0x8F02              | 15: auto-increment 2
        dc.w    0x9001              | 16: 64x32 cell planes
        dc.w    0x9100              | 17: window H position 0 (none)
        dc.w    0x9200              | 18: window V position 0 (none)
reg_defaults_end:

| Display on (reg 1 bit 6) with V-int, DMA and mode 5 kept.
display_on:
        VDPREG  1, 0x74
        rts

| d0.w = VRAM address -> control port set to write there. Clobbers d0.
vram_write_d0:
        move.l  d1, -(sp)
        moveq   #0, d1
        move.w  d0, d1
        andi.w  #0x3FFF, d1
        ori.w   #0x4000, d1
        swap    d1
        rol.w   #2, d0              | A15 A14 to bits 1 0 of the second word
        andi.w  #3, d0
        move.w  d0, d1
        move.l  d1, VDP_CTRL
        move.l  (sp)+, d1
        rts

| Zeroes VRAM $A800-$FFFF: sprite table, H-scroll table, window and both planes. The
| patterns below $A800 are rewritten by gen_tiles, so after this every byte a scene can
| show is defined by the ROM.
clear_tables:
        movem.l d0-d1/a0, -(sp)
        VRAM_W  VRAM_SPRITES
        lea     VDP_DATA, a0
        moveq   #0, d1
        move.w  #((0x10000 - VRAM_SPRITES) / 4) - 1, d0
1:      move.l  d1, (a0)
        dbra    d0, 1b
        | VSRAM: 40 entries (20 two-cell columns x 2 planes).
        VSRAM_W 0
        moveq   #39, d0
2:      move.w  d1, (a0)
        dbra    d0, 2b
        movem.l (sp)+, d0-d1/a0
        rts

| CRAM: the four palettes from palettes (data.s).
load_palettes:
        movem.l d0/a0-a1, -(sp)
        CRAM_W  0
        lea     palettes, a0
        lea     VDP_DATA, a1
        moveq   #63, d0
1:      move.w  (a0)+, (a1)
        dbra    d0, 1b
        movem.l (sp)+, d0/a0-a1
        rts

| Generates patterns 0..63 (see defs.inc). All procedural: solid tiles, a gradient whose
| rows and columns are all different (so H and V flips are distinguishable), stripes, a
| checker and the hex digits expanded from the 1-bit font in data.s.
gen_tiles:
        movem.l d0-d7/a0-a1, -(sp)
        VRAM_W  0
        lea     VDP_DATA, a0

        | 0..15: tile c is colour c everywhere (tile 0 transparent).
        moveq   #0, d2              | colour
1:      move.w  d2, d1
        mulu.w  #0x1111, d1
        move.w  d1, d0
        swap    d1
        move.w  d0, d1              | d1 = c * $11111111
        moveq   #7, d3
2:      move.l  d1, (a0)
        dbra    d3, 2b
        addq.w  #1, d2
        cmpi.w  #16, d2
        bne.s   1b

        | 16: gradient. Row y = rol($02468ACE, 4y), plus 1 per nibble in the lower half.
        move.l  #0x02468ACE, d1
        moveq   #0, d3
3:      move.l  d1, d0
        cmpi.w  #4, d3
        blt.s   4f
        addi.l  #0x11111111, d0     | even nibbles + 1: no carries
4:      move.l  d0, (a0)
        rol.l   #4, d1
        addq.w  #1, d3
        cmpi.w  #8, d3
        bne.s   3b

        | 17: frame. Colour 15 border, transparent inside, one colour-1 dot at (2,2) so a
        | flipped frame is distinguishable from an unflipped one.
        move.l  #0xFFFFFFFF, (a0)
        move.l  #0xF000000F, (a0)
        move.l  #0xF010000F, (a0)
        moveq   #3, d3
5:      move.l  #0xF000000F, (a0)
        dbra    d3, 5b
        move.l  #0xFFFFFFFF, (a0)

        | 18: diagonal stripes, colour 15 where (x - y) mod 4 = 0.
        move.l  #0xF000F000, d1
        moveq   #7, d3
6:      move.l  d1, (a0)
        ror.l   #4, d1
        dbra    d3, 6b

        | 19: 4x4 checker of colours 9 and 10.
        moveq   #3, d3
7:      move.l  #0x9999AAAA, (a0)
        dbra    d3, 7b
        moveq   #3, d3
8:      move.l  #0xAAAA9999, (a0)
        dbra    d3, 8b

        | 20: horizontal stripes, odd rows colour 3.
        moveq   #3, d3
9:      move.l  #0x00000000, (a0)
        move.l  #0x33333333, (a0)
        dbra    d3, 9b

        | 21..24: solid colour 14, 25..28: solid colour 15, so 2x2 sprites can be made of
        | one colour (the shadow/highlight operators); 29..31 transparent.
        move.l  #0xEEEEEEEE, d1
        moveq   #(4 * 8) - 1, d3
10:     move.l  d1, (a0)
        dbra    d3, 10b
        moveq   #-1, d1
        moveq   #(4 * 8) - 1, d3
18:     move.l  d1, (a0)
        dbra    d3, 18b
        moveq   #0, d1
        moveq   #(3 * 8) - 1, d3
19:     move.l  d1, (a0)
        dbra    d3, 19b

        | 32..47: digits on transparent; 48..63: digits on colour 1 + (digit mod 8).
        moveq   #0, d5              | 0 = transparent set, 1 = boxed set
11:     lea     font, a1
        moveq   #0, d6              | digit
12:     moveq   #0, d4              | background colour nibble
        tst.w   d5
        beq.s   13f
        move.w  d6, d4
        andi.w  #7, d4
        addq.w  #1, d4
13:     moveq   #7, d7              | rows
14:     move.b  (a1)+, d2
        moveq   #0, d1
        moveq   #7, d3              | pixels
15:     lsl.l   #4, d1
        add.b   d2, d2              | next pixel bit into carry
        bcc.s   16f
        ori.b   #0x0F, d1
        bra.s   17f
16:     or.b    d4, d1
17:     dbra    d3, 15b
        move.l  d1, (a0)
        dbra    d7, 14b
        addq.w  #1, d6
        cmpi.w  #16, d6
        bne.s   12b
        addq.w  #1, d5
        cmpi.w  #2, d5
        bne.s   11b

        movem.l (sp)+, d0-d7/a0-a1
        rts

| Fills a 64x32 name table. d0.w = table VRAM address, a1 = 32 entries,
| entry(col, row) = a1[(col * d2 + row * d3) mod 32]. With d2 and d3 chosen coprime to 32
| the picture has no short period, so a scroll error cannot land on an identical picture.
fill_plane:
        movem.l d0-d7/a0, -(sp)
        bsr     vram_write_d0
        lea     VDP_DATA, a0
        moveq   #0, d5              | row * d3
        moveq   #31, d7
1:      move.w  d5, d4
        moveq   #63, d6
2:      move.w  d4, d1
        andi.w  #31, d1
        add.w   d1, d1
        move.w  (a1, d1.w), (a0)
        add.w   d2, d4
        dbra    d6, 2b
        add.w   d3, d5
        dbra    d7, 1b
        movem.l (sp)+, d0-d7/a0
        rts

| Fills a rectangle of a 64-cell-wide name table with one entry.
| d0.w = table address, d1 = col, d2 = row, d3 = width, d4 = height, d5 = entry.
fill_rect:
        movem.l d0-d7/a0, -(sp)
        lea     VDP_DATA, a0
        lsl.w   #7, d2              | row * 128 bytes
        add.w   d2, d0
        add.w   d1, d0
        add.w   d1, d0
        move.w  d0, d7
        subq.w  #1, d4
        subq.w  #1, d3
1:      move.w  d7, d0
        bsr     vram_write_d0
        move.w  d3, d6
2:      move.w  d5, (a0)
        dbra    d6, 2b
        addi.w  #128, d7
        dbra    d4, 1b
        movem.l (sp)+, d0-d7/a0
        rts

| Writes d1.b as two hex digit entries at VRAM d0.w, attribute bits in d2.w.
print_hex8:
        movem.l d0-d3, -(sp)
        bsr     vram_write_d0
        move.b  d1, d3
        lsr.b   #4, d3
        bsr.s   1f
        move.b  d1, d3
        bsr.s   1f
        movem.l (sp)+, d0-d3
        rts
1:      andi.w  #15, d3
        addi.w  #T_DIGIT, d3
        or.w    d2, d3
        move.w  d3, VDP_DATA
        rts

| Writes d1.w as four hex digit entries at VRAM d0.w, attribute bits in d2.w.
print_hex16:
        movem.l d0-d1, -(sp)
        ror.w   #8, d1
        bsr     print_hex8
        addq.w  #4, d0
        ror.w   #8, d1
        bsr     print_hex8
        movem.l (sp)+, d0-d1
        rts

| Writes the 8 bits of d1.b, most significant first, as digit-0/digit-1 entries at VRAM
| d0.w; set bits in palette 2, clear bits in palette 0.
print_bits8:
        movem.l d0-d3, -(sp)
        bsr     vram_write_d0
        moveq   #7, d3
1:      move.w  #T_DIGIT, d2
        btst    d3, d1
        beq.s   2f
        move.w  #(T_DIGIT + 1) + PAL2, d2
2:      move.w  d2, VDP_DATA
        dbra    d3, 1b
        movem.l (sp)+, d0-d3
        rts

| ---------------------------------------------------------------------------------------
| Sprite list builder. Sprites are appended in display (link) order; the n-th lands in
| slot n * spr_mul mod 80, so with spr_mul = 7 the link chain jumps around the table and
| only a VDP that follows the links shows the right order. Slot 0 always comes first, as
| the VDP starts there.

spr_reset:
        movem.l d0/a0, -(sp)
        lea     spr_buf, a0
        move.w  #(80 * 8 / 4) - 1, d0
1:      clr.l   (a0)+
        dbra    d0, 1b
        clr.w   spr_count
        clr.w   spr_prev
        move.w  #7, spr_mul
        movem.l (sp)+, d0/a0
        rts

| d0 = y, d1 = size, d2 = attribute (tile | flags), d3 = x, all in screen coordinates
| (the +128 offset is added here). x = -128 gives hardware x 0: a masking sprite.
spr_add:
        movem.l d0-d5/a0, -(sp)
        move.w  spr_count, d4
        mulu.w  spr_mul, d4
        divu.w  #80, d4
        swap    d4                  | d4.w = slot
        lea     spr_buf, a0
        tst.w   spr_count
        beq.s   1f
        move.w  spr_prev, d5
        lsl.w   #3, d5
        move.b  d4, 3(a0, d5.w)     | previous sprite links to this one
1:      move.w  d4, spr_prev
        lsl.w   #3, d4
        bsr.s   spr_store
        addq.w  #1, spr_count
        movem.l (sp)+, d0-d5/a0
        rts

| Stores sprite fields d0-d3 at spr_buf + d4.w (byte offset), link 0.
spr_store:
        addi.w  #128, d0
        move.w  d0, 0(a0, d4.w)
        lsl.w   #8, d1
        move.w  d1, 2(a0, d4.w)
        move.w  d2, 4(a0, d4.w)
        addi.w  #128, d3
        move.w  d3, 6(a0, d4.w)
        rts

| A sprite written into table slot d4.w without linking it: the VDP must never show it.
spr_put_unlinked:
        movem.l d0-d4/a0, -(sp)
        lea     spr_buf, a0
        lsl.w   #3, d4
        bsr.s   spr_store
        movem.l (sp)+, d0-d4/a0
        rts

| Copies spr_buf to the VRAM sprite table by CPU (the DMA scene tests DMA separately).
spr_upload:
        movem.l d0/a0-a1, -(sp)
        VRAM_W  VRAM_SPRITES
        lea     spr_buf, a0
        lea     VDP_DATA, a1
        move.w  #(80 * 8 / 4) - 1, d0
1:      move.l  (a0)+, (a1)
        dbra    d0, 1b
        movem.l (sp)+, d0/a0-a1
        rts

| ---------------------------------------------------------------------------------------
| DMA helpers.

| Sets the DMA length registers 19/20 from d1.w.
dma_length:
        move.l  d2, -(sp)
        move.w  #0x9300, d2
        move.b  d1, d2
        move.w  d2, VDP_CTRL
        move.w  d1, d2
        lsr.w   #8, d2
        ori.w   #0x9400, d2
        move.w  d2, VDP_CTRL
        move.l  (sp)+, d2
        rts

| Writes the control long in d0 as two words, the second (the one that starts the DMA)
| read from RAM: on hardware the 68000's bus cycle right after a DMA trigger must not be
| an instruction fetch from ROM, so the well-known practice is to issue it from RAM data.
dma_trigger:
        move.l  d0, dma_cmd
        move.w  dma_cmd, VDP_CTRL
        move.w  dma_cmd + 2, VDP_CTRL
        rts

| Waits until the VDP reports no DMA in progress (status bit 1). The number of status
| reads it took is kept in dma_polls: the readouts scene shows it, a measure of fill speed.
dma_wait:
        movem.l d0-d1, -(sp)
        moveq   #0, d1
1:      addq.w  #1, d1
        move.w  VDP_CTRL, d0
        btst    #1, d0
        bne.s   1b
        move.w  d1, dma_polls
        movem.l (sp)+, d0-d1
        rts

| 68000 -> VDP DMA. a0 = source (even, ROM or RAM), d1.w = length in words, d0.l = the
| write command for the destination with CD5 (bit 7 of the second word) set.
dma_68k:
        movem.l d0-d3, -(sp)
        bsr     dma_length
        move.l  a0, d2
        lsr.l   #1, d2              | source registers hold the word address
        move.w  #0x9500, d3
        move.b  d2, d3
        move.w  d3, VDP_CTRL
        lsr.l   #8, d2
        move.w  #0x9600, d3
        move.b  d2, d3
        move.w  d3, VDP_CTRL
        lsr.l   #8, d2
        move.w  #0x9700, d3
        move.b  d2, d3
        andi.b  #0x7F, d3           | bit 7 clear: 68000 source
        move.w  d3, VDP_CTRL
        bsr     dma_trigger
        movem.l (sp)+, d0-d3
        rts

| VRAM fill. d0.w = destination, d1.w = length in bytes, d2.w = data word written to the
| data port, d3.w = auto-increment. The data-port write starts the fill; the VDP then
| writes the data's high byte at each (address ^ 1) for the length.
dma_fill:
        movem.l d0-d4, -(sp)
        move.w  #0x8F00, d4
        move.b  d3, d4
        move.w  d4, VDP_CTRL
        bsr     dma_length
        VDPREG  23, 0x80
        bsr     vram_write_d0_cmd
        ori.w   #0x0080, d0         | CD5: DMA
        bsr     dma_trigger
        move.w  d2, VDP_DATA
        bsr     dma_wait
        VDPREG  15, 2
        movem.l (sp)+, d0-d4
        rts

| VRAM copy. d0.w = destination, d1.w = length in bytes, d2.w = source byte address.
dma_copy:
        movem.l d0-d4, -(sp)
        VDPREG  15, 1
        bsr     dma_length
        move.w  #0x9500, d4
        move.b  d2, d4
        move.w  d4, VDP_CTRL
        move.w  d2, d4
        lsr.w   #8, d4
        ori.w   #0x9600, d4
        move.w  d4, VDP_CTRL
        VDPREG  23, 0xC0
        bsr     vram_write_d0_cmd
        andi.l  #0x3FFF0003, d0     | CD1-0 = 00 ...
        ori.w   #0x00C0, d0         | ... CD5-4 = 11: VRAM copy
        bsr     dma_trigger
        bsr     dma_wait
        VDPREG  15, 2
        movem.l (sp)+, d0-d4
        rts

| d0.w = VRAM address -> d0.l = the VRAM write command long (not sent).
vram_write_d0_cmd:
        move.l  d1, -(sp)
        moveq   #0, d1
        move.w  d0, d1
        andi.w  #0x3FFF, d1
        ori.w   #0x4000, d1
        swap    d1
        rol.w   #2, d0
        andi.w  #3, d0
        move.w  d0, d1
        move.l  d1, d0
        move.l  (sp)+, d1
        rts
