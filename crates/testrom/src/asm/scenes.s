| The scenes. Each has a setup (run once, in the V-blank where the scene starts, display
| off) and a per-frame routine (run in every later V-blank, d0.l = frames since the scene
| started). The order here is the order on screen; crates/testrom/goldens/manifest.json
| names them with the same numbers.

        .equ    NUM_SCENES, 14

scene_setups:
        dc.l    sc_planes_setup         | 0
        dc.l    sc_linescroll_setup     | 1
        dc.l    sc_cellscroll_setup     | 2
        dc.l    sc_window_lt_setup      | 3
        dc.l    sc_window_rb_setup      | 4
        dc.l    sc_sprites_setup        | 5
        dc.l    sc_shadow_setup         | 6
        dc.l    sc_h32_setup            | 7
        dc.l    sc_dma_setup            | 8
        dc.l    sc_raster_setup         | 9
        dc.l    sc_pad_setup            | 10
        dc.l    sc_readouts_setup       | 11
        dc.l    sc_irq_setup            | 12
        dc.l    sc_z80w_setup           | 13
scene_frames:
        dc.l    sc_planes_frame
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    frame_none
        dc.l    sc_pad_frame
        dc.l    sc_readouts_frame
        dc.l    frame_none
        dc.l    frame_none

frame_none:
        rts

| Common start of every setup: back to the default VDP state with the display off, every
| table cleared, palettes and patterns rewritten (the DMA scene changes both), and an empty
| sprite list.
scene_begin:
        move.w  #0x2700, sr         | the raster scene's interrupts must not see half a change
        clr.b   hint_active
        VDPREG  0, 0x04
        move.w  #0x2000, sr
        bsr     load_regs
        bsr     clear_tables
        bsr     load_palettes
        bsr     gen_tiles
        bsr     spr_reset
        rts

| The standard pair of planes: B a field of solid tiles in all four palettes (low
| priority), A the gradient/digit/frame mix with transparent cells, flips and a few
| high-priority cells.
std_planes:
        move.w  #VRAM_PLANE_B, d0
        lea     table_b, a1
        moveq   #1, d2
        moveq   #3, d3
        bsr     fill_plane
        move.w  #VRAM_PLANE_A, d0
        lea     table_a, a1
        moveq   #3, d2
        moveq   #5, d3
        bsr     fill_plane
        rts

| Writes the full-screen scroll values: d1 = plane A H, d2 = plane B H, d3 = plane A V,
| d4 = plane B V.
set_full_scroll:
        VRAM_W  VRAM_HSCROLL
        move.w  d1, VDP_DATA
        move.w  d2, VDP_DATA
        VSRAM_W 0
        move.w  d3, VDP_DATA
        move.w  d4, VDP_DATA
        rts

| ---------------------------------------------------------------------------------------
| Scene 0, planes and full-screen scroll. Checks: name-table fetch for 64x32 planes,
| pattern decoding with H/V flips and palettes, plane A over plane B, high-priority cells,
| transparency to the backdrop, and full-screen H and V scroll of both planes (moving:
| A by (3t, 2t), B by (-t, -t/2) pixels, so two goldens in this scene also check that our
| frame N is GPGX's frame N).
sc_planes_setup:
        bsr     scene_begin
        bsr     std_planes
        bra     display_on

sc_planes_frame:
        move.w  d0, d1
        mulu.w  #3, d1
        move.w  d0, d2
        neg.w   d2
        move.w  d0, d3
        add.w   d3, d3
        move.w  d0, d4
        asr.w   #1, d4
        neg.w   d4
        bra     set_full_scroll

| Shared by scenes 1 and 2: a per-line H-scroll table (A: a 64-pixel sawtooth offset by
| -32, B: -line/2) and a two-cell V-scroll table (A: 5i - 20, B: 3 (i mod 4) - i) for the 20
| columns of H40.
scroll_tables:
        VRAM_W  VRAM_HSCROLL
        lea     VDP_DATA, a0
        moveq   #0, d0              | line
1:      move.w  d0, d1
        mulu.w  #3, d1
        andi.w  #63, d1
        subi.w  #32, d1
        move.w  d1, (a0)
        move.w  d0, d1
        lsr.w   #1, d1
        neg.w   d1
        move.w  d1, (a0)
        addq.w  #1, d0
        cmpi.w  #224, d0
        bne.s   1b
        VSRAM_W 0
        moveq   #0, d0              | column pair
2:      move.w  d0, d1
        mulu.w  #5, d1
        subi.w  #20, d1
        move.w  d1, (a0)
        move.w  d0, d1
        andi.w  #3, d1
        mulu.w  #3, d1
        sub.w   d0, d1
        move.w  d1, (a0)
        addq.w  #1, d0
        cmpi.w  #20, d0
        bne.s   2b
        rts

| Scene 1, per-line H-scroll with per-two-cell V-scroll (reg 11 = $07). Checks: one
| H-scroll entry pair per line, a V-scroll entry per 16-pixel column, and the partly
| visible leftmost column that fine H-scroll exposes under column V-scroll.
sc_linescroll_setup:
        bsr     scene_begin
        bsr     std_planes
        bsr     scroll_tables
        VDPREG  11, 0x07
        bra     display_on

| Scene 2, per-cell H-scroll (reg 11 = $02) over the same per-line table, full-screen
| V-scroll. Checks: only the entry of each 8-line band's first line is used.
sc_cellscroll_setup:
        bsr     scene_begin
        bsr     std_planes
        bsr     scroll_tables
        VSRAM_W 0                   | full-screen V-scroll: A 4, B -4 (entries 0 and 1)
        move.w  #4, VDP_DATA
        move.w  #-4, VDP_DATA
        VDPREG  11, 0x02
        bra     display_on

| Window content shared by scenes 3 and 4.
window_fill:
        move.w  #VRAM_WINDOW, d0
        lea     table_w, a1
        moveq   #1, d2
        moveq   #7, d3
        bra     fill_plane

| Scene 3, window at the left (10 cells, reg 17 = $05) and top (4 rows, reg 18 = $04).
| Plane A is scrolled by (5, 3) pixels. Checks: the window replaces plane A in the union of
| both regions, ignores scroll, and the column after a left window with an H-scroll that
| is not a multiple of 16 (the hardware fetches it wrongly; GPGX models this).
sc_window_lt_setup:
        bsr     scene_begin
        bsr     std_planes
        bsr     window_fill
        moveq   #5, d1
        moveq   #-6, d2
        moveq   #3, d3
        moveq   #0, d4
        bsr     set_full_scroll
        VDPREG  17, 0x05
        VDPREG  18, 0x04
        bra     display_on

| Scene 4, window at the right (from cell 24, reg 17 = $8C) and bottom (from row 18,
| reg 18 = $92). Same planes and scroll as scene 3.
sc_window_rb_setup:
        bsr     scene_begin
        bsr     std_planes
        bsr     window_fill
        moveq   #5, d1
        moveq   #-6, d2
        moveq   #3, d3
        moveq   #0, d4
        bsr     set_full_scroll
        VDPREG  17, 0x8C
        VDPREG  18, 0x92
        bra     display_on

| Appends sprites from a list of (y, size, attribute, x) records ended by y = $7FFF.
spr_list:
        movem.l d0-d3/a0, -(sp)
1:      move.w  (a0)+, d0
        cmpi.w  #0x7FFF, d0
        beq.s   2f
        move.w  (a0)+, d1
        move.w  (a0)+, d2
        move.w  (a0)+, d3
        bsr     spr_add
        bra.s   1b
2:      movem.l (sp)+, d0-d3/a0
        rts

| Scene 5, sprites in H40. Plane B is the solid field; plane A is empty except a
| high-priority band of diagonal stripes over x = 144..175. Rows, top to bottom:
| - y 8 and 32: all 16 sizes, each flip combination, four palettes, priority 0 then 1
|   (cells are column-major and flips mirror the whole sprite, not each cell);
| - y 72: 22 sprites on one line: only the first 20 in link order are drawn;
| - y 88: 13 sprites 42 cells wide in all: drawing stops at 320 pixels (dot overflow),
|   mid-way through the last sprite;
| - y 104: overlapping sprites: the earlier one in the list wins even against a later
|   sprite with the priority bit, also where the earlier one is behind the plane band;
| - y 128: an x = 0 sprite after a visible sprite masks the later sprites of its lines;
| - y 144: an x = 0 sprite that is the first on its lines;
| - y 168 / 188: 4x2 sprites across the band at priority 0 and 1;
| - y 210: sprites clipped by the left and right screen edges, and an unlinked sprite
|   that must not be drawn.
| The links jump around the table (slot = 7n mod 80), so only a VDP that follows the link
| chain gets the order right.
sc_sprites_setup:
        bsr     scene_begin
        move.w  #VRAM_PLANE_B, d0
        lea     table_b, a1
        moveq   #1, d2
        moveq   #3, d3
        bsr     fill_plane
        move.w  #VRAM_PLANE_A, d0
        moveq   #18, d1
        moveq   #0, d2
        moveq   #4, d3
        moveq   #32, d4
        move.w  #T_DIAG + PAL1 + PRI, d5
        bsr     fill_rect

        lea     sprites_rows12, a0
        bsr     spr_list
        | y 72: 22 1x1 sprites, x = 4 + 14k, digits, palette k mod 4.
        moveq   #0, d5
1:      moveq   #72, d0
        moveq   #0, d1
        move.w  d5, d2
        andi.w  #15, d2
        addi.w  #T_DIGBOX, d2
        move.w  d5, d3
        andi.w  #3, d3
        ror.w   #3, d3              | palette bits 14-13
        or.w    d3, d2
        move.w  d5, d3
        mulu.w  #14, d3
        addq.w  #4, d3
        bsr     spr_add
        addq.w  #1, d5
        cmpi.w  #22, d5
        bne.s   1b
        | y 88: ten 3x1 sprites at x = 10k, then three 4x1.
        moveq   #0, d5
2:      moveq   #88, d0
        SIZE    3, 1
        move.w  d5, d2
        addi.w  #T_DIGBOX + PAL1, d2
        move.w  d5, d3
        mulu.w  #10, d3
        bsr     spr_add
        addq.w  #1, d5
        cmpi.w  #10, d5
        bne.s   2b
        lea     sprites_rest, a0
        bsr     spr_list
        | The ghost: slot 45 is where sprite n = 75 would go, far past the chain's end.
        move.w  #210, d0
        SIZE    4, 1
        move.w  #T_DIGBOX + PAL3 + PRI, d2
        moveq   #40, d3
        moveq   #45, d4
        bsr     spr_put_unlinked
        bsr     spr_upload
        bra     display_on

| Scene 6, shadow/highlight (reg 12 bit 3). Plane B: the solid field at low priority
| (shadowed) with high-priority white rows 20-27 (normal). Plane A: a checker at cells
| 20-39, high priority in rows 4-11 (normal), low in rows 12-19 (shadowed). Sprites of
| palette 3 colour 14 (highlight) and 15 (shadow) act as operators on what is beneath
| them, at both sprite priorities, over each kind of plane pixel; normal sprites of
| palettes 2 and 3 (palette 3's digits contain colour 15, an operator) and a normal
| sprite beneath an earlier operator sprite. Checks GPGX's shadow/highlight table.
sc_shadow_setup:
        bsr     scene_begin
        move.w  #VRAM_PLANE_B, d0
        lea     table_b, a1
        moveq   #1, d2
        moveq   #3, d3
        bsr     fill_plane
        moveq   #0, d1
        moveq   #20, d2
        moveq   #40, d3
        moveq   #8, d4
        move.w  #7 + PRI, d5
        bsr     fill_rect
        move.w  #VRAM_PLANE_A, d0
        moveq   #20, d1
        moveq   #4, d2
        moveq   #20, d3
        moveq   #8, d4
        move.w  #T_CHECK + PAL1 + PRI, d5
        bsr     fill_rect
        moveq   #12, d2
        move.w  #T_CHECK + PAL1, d5
        bsr     fill_rect
        lea     sprites_shadow, a0
        bsr     spr_list
        bsr     spr_upload
        VDPREG  12, 0x89
        bra     display_on

| Scene 7, H32 (reg 12 = $00): 256-pixel lines, the 32-cell pattern fetch, and the H32
| sprite limits (16 per line, so 2 of the 18 sprites at y 100 are dropped; 64 in the
| table, so the list is sequential here).
sc_h32_setup:
        bsr     scene_begin
        move.w  #1, spr_mul
        bsr     std_planes
        moveq   #3, d1
        moveq   #-2, d2
        moveq   #1, d3
        moveq   #0, d4
        bsr     set_full_scroll
        moveq   #0, d5
1:      moveq   #100, d0
        moveq   #0, d1
        move.w  d5, d2
        andi.w  #15, d2
        addi.w  #T_DIGBOX + PAL2, d2
        move.w  d5, d3
        mulu.w  #14, d3
        addq.w  #4, d3
        bsr     spr_add
        addq.w  #1, d5
        cmpi.w  #18, d5
        bne.s   1b
        moveq   #40, d0
        SIZE    4, 4
        move.w  #T_DIGBOX + HF + PAL1, d2
        move.w  #200, d3
        bsr     spr_add
        bsr     spr_upload
        VDPREG  12, 0x00
        bra     display_on

| Writes the long d1 eight times at VRAM d0.w: a whole pattern.
tile_long:
        movem.l d0/d2, -(sp)
        bsr     vram_write_d0
        moveq   #7, d2
1:      move.l  d1, VDP_DATA
        dbra    d2, 1b
        movem.l (sp)+, d0/d2
        rts

| Scene 8, DMA. Every kind of transfer, each shown by what it leaves on screen:
| - 68000 -> CRAM: palette 2 replaced (plane B is drawn in palette 2);
| - 68000 -> VSRAM: 20 column V-scroll pairs (2-cell V-scroll mode);
| - 68000 (ROM) -> VRAM: patterns 64-67 and plane A row 2;
| - 68000 (RAM) -> VRAM: the sprite table from the work-RAM buffer;
| - VRAM fill: pattern 68 (increment 1, 32 bytes), 70 (increment 2 over a solid pattern)
|   and 71 (increment 1, 31 bytes, over a solid pattern): which byte of the data word is
|   used and where the fill starts and stops;
| - VRAM copy: pattern 64 -> 69, and plane A row 2 -> row 4.
| Rows 6 and 8 of plane A show patterns 68-71, written by the CPU.
sc_dma_setup:
        bsr     scene_begin
        VDPREG  11, 0x04
        move.w  #VRAM_PLANE_B, d0
        lea     table_d, a1
        moveq   #1, d2
        moveq   #3, d3
        bsr     fill_plane

        lea     pal_dma, a0
        moveq   #16, d1
        move.l  #0xC0400080, d0     | CRAM write $40 + DMA
        bsr     dma_68k
        lea     vsram_dma, a0
        moveq   #40, d1
        move.l  #0x40000090, d0     | VSRAM write 0 + DMA
        bsr     dma_68k
        lea     dma_tiles, a0
        moveq   #64, d1
        move.w  #T_DMA * 32, d0
        bsr     vram_write_d0_cmd
        ori.w   #0x0080, d0
        bsr     dma_68k
        lea     dma_row, a0
        moveq   #32, d1
        move.w  #VRAM_PLANE_A + 2 * 128, d0
        bsr     vram_write_d0_cmd
        ori.w   #0x0080, d0
        bsr     dma_68k

        lea     sprites_dma, a0
        bsr     spr_list
        lea     spr_buf, a0
        move.w  #80 * 8 / 2, d1
        move.w  #VRAM_SPRITES, d0
        bsr     vram_write_d0_cmd
        ori.w   #0x0080, d0
        bsr     dma_68k

        move.w  #(T_DMA + 4) * 32, d0
        moveq   #32, d1
        move.w  #0x6B00, d2
        moveq   #1, d3
        bsr     dma_fill
        move.w  #(T_DMA + 6) * 32, d0
        move.l  #0x33333333, d1
        bsr     tile_long
        moveq   #16, d1
        move.w  #0x9F00, d2
        moveq   #2, d3
        bsr     dma_fill
        move.w  #(T_DMA + 7) * 32, d0
        move.l  #0x55555555, d1
        bsr     tile_long
        moveq   #31, d1
        move.w  #0xC4E2, d2
        moveq   #1, d3
        bsr     dma_fill

        move.w  #(T_DMA + 5) * 32, d0
        moveq   #32, d1
        move.w  #T_DMA * 32, d2
        bsr     dma_copy
        move.w  #VRAM_PLANE_A + 4 * 128, d0
        moveq   #64, d1
        move.w  #VRAM_PLANE_A + 2 * 128, d2
        bsr     dma_copy

        | Rows 6 and 8: 68, 70, 71 and 69, each four cells wide.
        move.w  #VRAM_PLANE_A, d0
        moveq   #2, d1
        moveq   #6, d2
        moveq   #4, d3
        moveq   #2, d4
        move.w  #T_DMA + 4, d5
        bsr     fill_rect
        moveq   #8, d1
        move.w  #T_DMA + 6, d5
        bsr     fill_rect
        moveq   #14, d1
        move.w  #T_DMA + 7, d5
        bsr     fill_rect
        moveq   #2, d1
        moveq   #9, d2
        move.w  #T_DMA + 5 + PAL1, d5
        bsr     fill_rect
        bra     display_on

| Scene 9, H-int raster effect. H-int every 16 lines (reg 10 = 15); each one changes the
| backdrop colour and plane B's full-screen H-scroll (band * 8 pixels), the V-int restores
| both for the next frame. Plane A is empty and plane B mostly transparent so the backdrop
| bands show. Checks the line the H-int fires on (counter reload at the top of the frame,
| underflow every 16th line) and that changes made in H-blank apply from the next line.
sc_raster_setup:
        bsr     scene_begin
        move.w  #VRAM_PLANE_B, d0
        lea     table_r, a1
        moveq   #1, d2
        moveq   #3, d3
        bsr     fill_plane
        VDPREG  10, 15
        bsr     display_on
        move.w  #0x2700, sr
        bsr     raster_frame_reset
        st      hint_active
        VDPREG  0, 0x14             | H-int on
        move.w  #0x2000, sr
        rts

| Called from the V-int while the raster scene runs: back to band 0 for the next frame.
raster_frame_reset:
        clr.w   band
        CRAM_W  0
        move.w  raster_colours, VDP_DATA
        VRAM_W  (VRAM_HSCROLL+2)
        move.w  #0, VDP_DATA
        rts

| Scene 10, pad read. Shows port 1 as read with TH = 1 and TH = 0 (hex at cell (8, 10)
| and (8, 12), bits from cell 12). Nothing pressed reads $7F / $33 on GPGX (bit 7 is the
| data register's latch). The recording presses buttons from the 16th frame of the scene:
| see manifest.json.
sc_pad_setup:
        bsr     scene_begin
        move.w  #VRAM_PLANE_B, d0
        moveq   #0, d1
        moveq   #8, d2
        moveq   #40, d3
        moveq   #7, d4
        move.w  #T_CHECK + PAL2, d5
        bsr     fill_rect
        bsr     sc_pad_frame
        bra     display_on

sc_pad_frame:
        move.b  pad_th1, d1
        move.w  #VRAM_PLANE_A + 10 * 128 + 8 * 2, d0
        move.w  #PAL1, d2
        bsr     print_hex8
        move.w  #VRAM_PLANE_A + 10 * 128 + 12 * 2, d0
        bsr     print_bits8
        move.b  pad_th0, d1
        move.w  #VRAM_PLANE_A + 12 * 128 + 8 * 2, d0
        bsr     print_hex8
        move.w  #VRAM_PLANE_A + 12 * 128 + 12 * 2, d0
        bsr     print_bits8
        rts

| Scene 11, timing readouts: numbers the CPU measured, shown in hex so that a timing
| difference becomes a pixel difference. Row by row (label digit, then the value):
| 0: HV counter at the 68000's first instruction (where in the frame reset ends);
| 1: VDP status at that instruction (bits 15-10 are not driven by the VDP: Genesis Plus GX
|    returns the upper bits of the next instruction word, as the 68000's prefetch does);
| 2: status reads until an 8 KiB VRAM fill ends (display off): the fill rate;
| 3, 4: HV counter just before and after a 1 KiB 68000 -> VRAM DMA (display off), which
|    freezes the 68000 for the transfer;
| 5: HV counter at V-int entry, this frame;
| 6: VDP status read in V-blank, this frame.
sc_readouts_setup:
        bsr     scene_begin
        move.w  #0x4000, d0
        move.w  #0x2000, d1
        move.w  #0x0000, d2
        moveq   #1, d3
        bsr     dma_fill
        lea     0, a0               | the vectors and code: any fixed ROM bytes will do
        move.w  #512, d1
        move.w  #0x6000, d0
        bsr     vram_write_d0_cmd
        ori.w   #0x0080, d0
        move.w  0xC00008, hv_dma_before
        bsr     dma_68k
        move.w  0xC00008, hv_dma_after
        | Label digits 0-6 down column 4, palette 2.
        moveq   #0, d3
1:      move.w  d3, d0
        addq.w  #4, d0
        lsl.w   #8, d0              | row (4 + n) * 256: every other cell row
        addi.w  #VRAM_PLANE_A + 4 * 2, d0
        bsr     vram_write_d0
        move.w  d3, d1
        addi.w  #T_DIGIT + PAL2, d1
        move.w  d1, VDP_DATA
        addq.w  #1, d3
        cmpi.w  #7, d3
        bne.s   1b
        lea     readouts_fixed, a1
        moveq   #0, d3
2:      movea.l (a1)+, a0
        move.w  (a0), d1
        bsr     readout_at
        addq.w  #1, d3
        cmpi.w  #5, d3
        bne.s   2b
        bsr     sc_readouts_frame
        bra     display_on

| The RAM words shown in rows 0-4.
readouts_fixed:
        dc.l    hv_at_reset, status_at_reset, dma_polls, hv_dma_before, hv_dma_after

| Shows d1.w in readout row d3.
readout_at:
        movem.l d0-d2, -(sp)
        move.w  d3, d0
        addq.w  #4, d0
        lsl.w   #8, d0
        addi.w  #VRAM_PLANE_A + 6 * 2, d0
        move.w  #PAL1, d2
        bsr     print_hex16
        movem.l (sp)+, d0-d2
        rts

sc_readouts_frame:
        move.w  VDP_CTRL, d1
        move.w  d1, -(sp)
        move.w  hv_at_vint, d1
        moveq   #5, d3
        bsr     readout_at
        move.w  (sp)+, d1
        moveq   #6, d3
        bsr     readout_at
        rts

| Scene 12, interrupt latency and the Z80's view of the VDP data port. Three probes run
| before the scene is drawn, then their results are shown as readouts (rows 0-8):
| 0: the bytes the Z80 reads at $7F00 then $7F01 with the VDP set to read VRAM $0100, which
|    holds $1122 $3344: each byte read is a data-port read of the next word, so $11 then $44;
| 1-5: at line 226 with V-int pending but disabled and H-int pending: status (F set), the
|    H-int taken, status again (F set), then `move.w` enabling V-int followed by two
|    `move.l` status reads: the first still sees F (the 68000 takes the interrupt only after
|    the instruction following the enabling write), the second does not;
| 6: H-ints and V-ints in that probe (one each);
| 7, 8: enabling H-int then V-int in the next instruction, interrupts unmasked: the 68000
|    takes the H-int it latched, whose acknowledge clears the V-int (the VDP acknowledges
|    V-int first), then the still-pending H-int again: two H-ints, no V-int, F clear after.
| These are the expectations of notaz's testpico ("z80 vdp read", "irq ack h-v",
| "irq ack h-v 2"), measured on hardware by its author; the probes are ours.
sc_irq_setup:
        move.w  #0x2700, sr
        clr.b   hint_active
        bsr     load_regs
        bsr     probe_z80_vdp_read
        bsr     probe_irq_h_v
        bsr     probe_irq_h_v_2
        VDPREG  0, 0x04
        VDPREG  10, 0xFF
        VDPREG  1, 0x34
        bsr     scene_begin
        lea     irq_readouts, a1
        moveq   #0, d3
1:      movea.l (a1)+, a0
        move.w  (a0), d1
        bsr     readout_at
        addq.w  #1, d3
        cmpi.w  #9, d3
        bne.s   1b
        bra     display_on

irq_readouts:
        dc.l    probe_z80, probe_hv_s0, probe_hv_s1, probe_hv_l1, probe_hv_l1 + 2
        dc.l    probe_hv_l2, probe_hv_n, probe_hv2_s0, probe_hv2_n

| The Z80 copies the bytes at $7F00 and $7F01 to $1100-$1101, then spins.
z80_vdp_read_program:
        dc.b    0x3A, 0x00, 0x7F    | ld a, ($7F00)
        dc.b    0x32, 0x00, 0x11    | ld ($1100), a
        dc.b    0x3A, 0x01, 0x7F    | ld a, ($7F01)
        dc.b    0x32, 0x01, 0x11    | ld ($1101), a
        dc.b    0x18, 0xFE          | jr $
z80_vdp_read_program_end:
        .balign 2

probe_z80_vdp_read:
        | The 68000 reaches Z80 RAM only with the Z80 out of reset and its bus granted.
        move.w  #0x0100, Z80_BUSREQ
        move.w  #0x0100, Z80_RESET
1:      btst    #0, Z80_BUSREQ
        bne.s   1b
        lea     z80_vdp_read_program, a0
        lea     0xA00000, a1
        moveq   #(z80_vdp_read_program_end - z80_vdp_read_program) - 1, d0
2:      move.b  (a0)+, (a1)+
        dbra    d0, 2b
        move.b  #0x5A, 0xA01100
        move.b  #0x5A, 0xA01101
        VRAM_W  0x0100
        move.l  #0x11223344, VDP_DATA
        move.l  #0x01000000, VDP_CTRL   | read VRAM $0100
        | A reset pulse with the bus released starts the program at address 0.
        move.w  #0x0000, Z80_RESET
        move.w  #0x0000, Z80_BUSREQ
        moveq   #10, d0
3:      dbra    d0, 3b
        move.w  #0x0100, Z80_RESET
        move.w  #200, d0
4:      dbra    d0, 4b
        move.w  #0x0100, Z80_BUSREQ
5:      btst    #0, Z80_BUSREQ
        bne.s   5b
        move.b  0xA01100, d0
        lsl.w   #8, d0
        move.b  0xA01101, d0
        move.w  d0, probe_z80
        move.w  #0x0000, Z80_RESET      | held in reset again, as for every other scene
        rts

| Waits (interrupts masked) for line 100, then line 226, with the H-int counter at 0 so
| that H-int is pending from the active lines.
wait_line_226:
        VDPREG  10, 0x00
1:      cmpi.b  #100, 0xC00008
        bne.s   1b
2:      cmpi.b  #226, 0xC00008
        bne.s   2b
        rts

probe_irq_h_v:
        VDPREG  1, 0x14             | V-int off (display off, DMA on, mode 5)
        move.w  band, d6
        move.l  frame_count, d7
        bsr     wait_line_226
        move.w  VDP_CTRL, probe_hv_s0
        VDPREG  0, 0x14             | H-int on: taken once interrupts are unmasked
        move.w  #0x2000, sr
        move.w  #66, d0
1:      dbra    d0, 1b
        move.w  VDP_CTRL, probe_hv_s1
        lea     VDP_CTRL, a0
        move.w  #0x8134, d0
        move.w  d0, (a0)            | V-int on, with V-int pending
        move.l  (a0), d1
        move.l  (a0), d2
        move.w  #0x2700, sr
        move.l  d1, probe_hv_l1
        move.l  d2, probe_hv_l2
        VDPREG  0, 0x04
        VDPREG  1, 0x14
        | falls through: the counts
        move.w  band, d0
        sub.w   d6, d0
        lsl.w   #8, d0
        move.l  frame_count, d1
        sub.l   d7, d1
        move.b  d1, d0
        move.w  d0, probe_hv_n
        rts

probe_irq_h_v_2:
        move.w  band, d6
        move.l  frame_count, d7
        bsr     wait_line_226
        move.w  VDP_CTRL, probe_hv2_s0
        move.w  #0x2000, sr
        move.w  #0x8014, VDP_CTRL   | H-int on (pending): the 68000 latches level 4
        move.w  #0x8134, VDP_CTRL   | V-int on (pending) in the very next instruction
        moveq   #1, d0
1:      dbra    d0, 1b
        move.w  #0x2700, sr
        move.w  VDP_CTRL, probe_hv2_s1
        VDPREG  0, 0x04
        move.w  band, d0
        sub.w   d6, d0
        lsl.w   #8, d0
        move.l  frame_count, d1
        sub.l   d7, d1
        move.b  d1, d0
        move.w  d0, probe_hv2_n
        rts

| Scene 13: the Z80 writing the VDP and the PSG at $7F00-$7F11, and two FIFO probes.
| The Z80's writes are byte-wide; the VDP takes each as a word with the byte in both halves
| (genvdp.txt, "Z80 access"), so a control byte $A7 is the register write $A7A7 (reg 7 =
| $A7: backdrop palette 2 colour 7), $CE then $00 is the CRAM write command $CECE $0000
| (CRAM address $CE: palette 2 colour 7), a data byte $0E writes the colour $0E0E (magenta),
| $40 then $03 is the VRAM write command $4040 $0303 ($C040: plane A row 0 column 32) and the
| data bytes $20, $28, $10, $08 write the cells $2020 (digit 0, palette 1), $2828 (digit 8,
| palette 1), $1010 (the gradient, v-flipped) and $0808 (solid colour 8, h-flipped). It then
| sets PSG channel 0's tone to $0FE and its attenuation to 15 through $7F11 and leaves $A5
| at $1100. The FIFO probes run with the display on, in active lines, interrupts masked:
| 1. six VRAM writes, a VRAM read command and a data-port read, then a status read: on
|    hardware the read waits until the writes have drained (Nemesis's VDPFIFOTesting, test
|    16, sub-test 7: from then on the status shows the FIFO empty); the word read is the
|    first one written ($1111).
| 2. a 68000 > VRAM DMA of 8 words, then a status read: on hardware the 68000 gets its bus
|    back when the last word is in the FIFO, which is then full (sub-test 9).
| Readouts (rows 0-3): the Z80's marker, the word read, and both statuses masked to the
| FIFO and DMA bits ($0302). What the statuses show in the hardware timing profile is
| checked by crates/testrom/tests/z80_vdp_writes.rs; the golden (Genesis Plus GX) pins the
| Genesis Plus GX 1.7 profile.
sc_z80w_setup:
        move.w  #0x2700, sr
        clr.b   hint_active
        bsr     scene_begin
        move.w  #0x2700, sr
        bsr     probe_z80_vdp_write
        bsr     probe_fifo
        move.w  #0x2000, sr
        lea     z80w_readouts, a1
        moveq   #0, d3
1:      movea.l (a1)+, a0
        move.w  (a0), d1
        cmpi.w  #2, d3
        blo.s   2f
        andi.w  #0x0302, d1
2:      bsr     readout_at
        addq.w  #1, d3
        cmpi.w  #4, d3
        bne.s   1b
        bra     display_on

z80w_readouts:
        dc.l    probe_z80w, probe_rd_data, probe_rd_status, probe_dma_status

z80_vdp_write_program:
        dc.b    0x3E, 0xA7          | ld a, $A7
        dc.b    0x32, 0x04, 0x7F    | ld ($7F04), a     reg 7 = $A7
        dc.b    0x3E, 0xCE          | ld a, $CE
        dc.b    0x32, 0x04, 0x7F    | ld ($7F04), a     CRAM write $CE ...
        dc.b    0xAF                | xor a
        dc.b    0x32, 0x04, 0x7F    | ld ($7F04), a     ... second word $0000
        dc.b    0x3E, 0x0E          | ld a, $0E
        dc.b    0x32, 0x00, 0x7F    | ld ($7F00), a     colour $0E0E
        dc.b    0x3E, 0x40          | ld a, $40
        dc.b    0x32, 0x04, 0x7F    | ld ($7F04), a     VRAM write $C040 ...
        dc.b    0x3E, 0x03          | ld a, $03
        dc.b    0x32, 0x04, 0x7F    | ld ($7F04), a     ... second word $0303
        dc.b    0x3E, 0x20          | ld a, $20
        dc.b    0x32, 0x00, 0x7F    | ld ($7F00), a
        dc.b    0x3E, 0x28          | ld a, $28
        dc.b    0x32, 0x01, 0x7F    | ld ($7F01), a     (odd address: the same port)
        dc.b    0x3E, 0x10          | ld a, $10
        dc.b    0x32, 0x02, 0x7F    | ld ($7F02), a     (mirror)
        dc.b    0x3E, 0x08          | ld a, $08
        dc.b    0x32, 0x00, 0x7F    | ld ($7F00), a
        dc.b    0x3E, 0x8E          | ld a, $8E
        dc.b    0x32, 0x11, 0x7F    | ld ($7F11), a     PSG: channel 0 tone, low bits $E
        dc.b    0x3E, 0x0F          | ld a, $0F
        dc.b    0x32, 0x11, 0x7F    | ld ($7F11), a     PSG: tone high bits $0F
        dc.b    0x3E, 0x9F          | ld a, $9F
        dc.b    0x32, 0x11, 0x7F    | ld ($7F11), a     PSG: channel 0 attenuation 15
        dc.b    0x3E, 0xA5          | ld a, $A5
        dc.b    0x32, 0x00, 0x11    | ld ($1100), a
        dc.b    0x18, 0xFE          | jr $
z80_vdp_write_program_end:
        .balign 2

probe_z80_vdp_write:
        move.w  #0x0100, Z80_BUSREQ
        move.w  #0x0100, Z80_RESET
1:      btst    #0, Z80_BUSREQ
        bne.s   1b
        lea     z80_vdp_write_program, a0
        lea     0xA00000, a1
        moveq   #(z80_vdp_write_program_end - z80_vdp_write_program) - 1, d0
2:      move.b  (a0)+, (a1)+
        dbra    d0, 2b
        move.b  #0x5A, 0xA01100
        | A reset pulse with the bus released starts the program at address 0; the 68000
        | leaves the VDP alone meanwhile (the command latch is shared).
        move.w  #0x0000, Z80_RESET
        move.w  #0x0000, Z80_BUSREQ
        moveq   #10, d0
3:      dbra    d0, 3b
        move.w  #0x0100, Z80_RESET
        move.w  #600, d0
4:      dbra    d0, 4b
        move.w  #0x0100, Z80_BUSREQ
5:      btst    #0, Z80_BUSREQ
        bne.s   5b
        moveq   #0, d0
        move.b  0xA01100, d0
        move.w  d0, probe_z80w
        move.w  #0x0000, Z80_RESET      | held in reset again, as for every other scene
        move.w  VDP_CTRL, d0            | a status read ends any half-written command
        rts

probe_fifo:
        VDPREG  1, 0x54             | display on, V-int off, DMA on, mode 5
1:      cmpi.b  #100, 0xC00008
        bne.s   1b
        VRAM_W  0x9000
        move.w  #0x1111, VDP_DATA
        move.w  #0x2222, VDP_DATA
        move.w  #0x3333, VDP_DATA
        move.w  #0x4444, VDP_DATA
        move.w  #0x5555, VDP_DATA
        move.w  #0x6666, VDP_DATA
        move.l  #0x10000002, VDP_CTRL   | read VRAM $9000
        move.w  VDP_DATA, d0
        move.w  VDP_CTRL, d1
        move.w  d0, probe_rd_data
        move.w  d1, probe_rd_status
2:      cmpi.b  #110, 0xC00008
        bne.s   2b
        moveq   #8, d1              | 8 words from dma_words (as dma_68k, inline so that
        bsr     dma_length          | the status read follows the trigger at once)
        lea     dma_words, a0
        move.l  a0, d2
        lsr.l   #1, d2
        move.w  #0x9500, d3
        move.b  d2, d3
        move.w  d3, VDP_CTRL
        lsr.l   #8, d2
        move.w  #0x9600, d3
        move.b  d2, d3
        move.w  d3, VDP_CTRL
        move.w  #0x9700, VDP_CTRL   | ROM below $20000: 68000 source, bits 23-17 zero
        move.l  #(0x40000080 + (0x1000 << 16) + 2), dma_cmd    | VRAM $9000, DMA
        move.w  dma_cmd, VDP_CTRL
        move.w  dma_cmd + 2, VDP_CTRL
        move.w  VDP_CTRL, d1
        move.w  d1, probe_dma_status
        VDPREG  1, 0x34             | display off again for the rest of the setup
        rts

        .balign 2
dma_words:
        dc.w    0x0101, 0x0202, 0x0303, 0x0404, 0x0505, 0x0606, 0x0707, 0x0808
