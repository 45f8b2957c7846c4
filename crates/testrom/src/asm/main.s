| s2lab test ROM: a deterministic sequence of VDP/IO scenes for pixel-exact comparison of
| our emulator with Genesis Plus GX.
|
| Timing model (what makes golden frame N always the same picture):
| - A frame runs from the first line of V-blank to the last active line (as Genesis Plus GX
|   emulates it). The 68000 leaves reset late in frame 1 (HV counter $9F00), and init is
|   short enough to enable the V-int before frame 2 starts, so the first V-int opens
|   frame 2 and frame_count = N - 1 during frame N.
| - The scene shown is (frame_count / SCENE_FRAMES) mod NUM_SCENES. A scene's setup starts
|   in the V-blank where the scene begins, blanks the display while it rebuilds VRAM, and
|   may take a frame or two; goldens are taken well after that.
| - Per-frame scene updates are pure functions of t = frame_count - scene_start, never
|   incremental, so a setup that overruns a frame cannot shift later pictures.

        .include "defs.inc"

        .section .text
        .org    0

| ---------------------------------------------------------------------------------------
| 68000 vectors. Anything unexpected lands in `fault`, which paints the backdrop red so a
| crash is visible in a frame instead of silently freezing the picture.
vectors:
        dc.l    0x00FFFE00          | initial SSP: top of work RAM, below nothing we use
        dc.l    reset               | initial PC
        .rept   22
        dc.l    fault               | bus/address error, illegal, zero divide, ... traps
        .endr
        dc.l    fault               | 24 spurious interrupt
        dc.l    ignore_irq          | 25 level 1 (unused)
        dc.l    ignore_irq          | 26 level 2: external (pad TH) interrupt, never enabled
        dc.l    ignore_irq          | 27 level 3 (unused)
        dc.l    hint_handler        | 28 level 4: H-int
        dc.l    ignore_irq          | 29 level 5 (unused)
        dc.l    vint_handler        | 30 level 6: V-int
        dc.l    ignore_irq          | 31 level 7 (unused)
        .rept   32
        dc.l    fault               | TRAP #n and reserved vectors
        .endr

| ---------------------------------------------------------------------------------------
| Cartridge header. The checksum ($18E) and ROM end ($1A4) are patched by build.rs after
| padding; the region is "U" only so that auto-detecting emulators pick NTSC (60 Hz,
| 262 lines), the timing the goldens were recorded with.
        .org    0x100
        .ascii  "SEGA MEGA DRIVE "
        .ascii  "(C)S2LB 2025.JAN"
        .ascii  "S2LAB TEST ROM: PLANES SCROLL WINDOW SPRITES DMA"
        .ascii  "S2LAB TEST ROM: PLANES SCROLL WINDOW SPRITES DMA"
        .ascii  "GM 00000000-00"
        dc.w    0                   | checksum, patched by build.rs
        .ascii  "J               "  | I/O support: 3-button pad
        dc.l    0x00000000          | ROM start
        dc.l    0x0000FFFF          | ROM end, patched by build.rs
        dc.l    0x00FF0000          | RAM start
        dc.l    0x00FFFFFF          | RAM end
        .ascii  "            "      | no external RAM
        .ascii  "            "      | modem
        .ascii  "                                        "
        .ascii  "U               "

| ---------------------------------------------------------------------------------------
        .org    0x200
        .global reset
reset:
        move.w  #0x2700, sr         | no interrupts until the VDP is in a known state
        | Diagnostics only, never displayed: where in the frame the 68000 left reset and
        | the VDP status then (V-int pending?), kept in registers until RAM is cleared.
        move.w  0xC00008, d6
        move.w  VDP_CTRL, d7

        | TMSS: consoles with a version number other than 0 lock the VDP until "SEGA" is
        | written here. Emulators without TMSS report version 0; the write is harmless anyway.
        move.b  IO_VERSION, d0
        andi.b  #0x0F, d0
        beq.s   1f
        move.l  #0x53454741, TMSS_PORT
1:
        | Hold the Z80 in reset for the whole run: the ROM has no sound program, and a Z80
        | running whatever is in its RAM would make bus timing depend on that RAM.
        move.w  #0x0100, Z80_BUSREQ
        move.w  #0x0000, Z80_RESET

        | Silence the four PSG channels (attenuation 15); audio is not compared but this
        | keeps the ROM pleasant to run.
        move.b  #0x9F, PSG_PORT
        move.b  #0xBF, PSG_PORT
        move.b  #0xDF, PSG_PORT
        move.b  #0xFF, PSG_PORT

        | Reading the status port cancels a half-written control-port command.
        move.w  VDP_CTRL, d0
        bsr     load_regs

        | Our variables and sprite buffer: cleared so nothing reads power-on RAM.
        lea     RAM, a0
        move.w  #((RAM_USED_END - RAM) / 4) - 1, d0
        moveq   #0, d1
2:      move.l  d1, (a0)+
        dbra    d0, 2b
        move.w  #-1, cur_scene
        move.w  d6, hv_at_reset
        move.w  d7, status_at_reset

        | Pad port 1: TH is the only output; idle high so the first read sees a settled pad.
        move.b  #0x40, IO_CTRL1
        move.b  #0x40, IO_DATA1

        move.w  #0x2000, sr         | V-int on (VDP reg 1 bit 5 was set by load_regs)

| ---------------------------------------------------------------------------------------
| Main loop: once per V-blank, either set up the scene that starts now or run the current
| scene's per-frame update.
main_loop:
        tst.b   vflag
        beq.s   main_loop
        clr.b   vflag

        move.l  frame_count, d0
        divu.w  #SCENE_FRAMES, d0   | frame counts stay far below 32 * 65536
        andi.l  #0xFFFF, d0
        divu.w  #NUM_SCENES, d0
        swap    d0                  | scene = (frame / SCENE_FRAMES) mod NUM_SCENES
        cmp.w   cur_scene, d0
        beq.s   3f

        move.w  d0, cur_scene
        move.l  frame_count, scene_start
        add.w   d0, d0
        add.w   d0, d0
        lea     scene_setups, a0
        movea.l (a0, d0.w), a0
        jsr     (a0)
        bra.s   main_loop

3:      add.w   d0, d0
        add.w   d0, d0
        lea     scene_frames, a0
        movea.l (a0, d0.w), a0
        move.l  frame_count, d0
        sub.l   scene_start, d0     | d0 = t, frames since the scene started
        jsr     (a0)
        bra.s   main_loop

| ---------------------------------------------------------------------------------------
| V-int (level 6). Counts frames and samples the pad. It writes to the VDP only while the
| raster scene runs, when the main loop never does (reading the HV counter is harmless).
vint_handler:
        move.w  0xC00008, hv_at_vint    | first thing: how late in the line the V-int was taken
        movem.l d0-d1/a0, -(sp)
        addq.l  #1, frame_count
        bsr     read_pad
        tst.b   hint_active
        beq.s   1f
        bsr     raster_frame_reset
1:      st      vflag
        movem.l (sp)+, d0-d1/a0
        rte

| H-int (level 4): the raster scene's per-band change of backdrop colour and plane B
| H-scroll. The VDP raises it after the line counter (reg 10) underflows, during H-blank,
| so the new values apply from the next line on.
hint_handler:
        movem.l d0/a0, -(sp)
        move.w  band, d0
        addq.w  #1, d0
        move.w  d0, band
        andi.w  #15, d0
        add.w   d0, d0
        lea     raster_colours, a0
        CRAM_W  0
        move.w  (a0, d0.w), VDP_DATA
        VRAM_W  (VRAM_HSCROLL+2)
        lsl.w   #2, d0              | band * 8 pixels
        move.w  d0, VDP_DATA
        movem.l (sp)+, d0/a0
        rte

ignore_irq:
        rte

fault:
        move.w  #0x2700, sr
        VDPREG  7, 0x00
        CRAM_W  0
        move.w  #0x000E, VDP_DATA   | backdrop bright red
        VDPREG  1, 0x44             | display on, everything else off
1:      bra.s   1b

| ---------------------------------------------------------------------------------------
| 3-button pad protocol: with TH high the pad drives ?1CBRLDU, with TH low ?0SA00DU
| (active low). The nops give the pad's multiplexer time to settle after TH changes, as
| real pads need; TH is left high so the next read starts from the idle state.
read_pad:
        lea     IO_DATA1, a0
        move.b  #0x40, (a0)
        nop
        nop
        move.b  (a0), d0
        move.b  #0x00, (a0)
        nop
        nop
        move.b  (a0), d1
        move.b  #0x40, (a0)
        move.b  d0, pad_th1
        move.b  d1, pad_th0
        rts

        .include "vdp.s"
        .include "scenes.s"
        .include "data.s"

        .global rom_code_end
rom_code_end:
