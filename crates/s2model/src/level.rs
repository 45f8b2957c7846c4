//! What the collision scans ask of a level: the block word at a pixel (`Find_Tile`) and the
//! collision data behind it (the block's collision ID through the index `Collision_addr` points at,
//! the ID's column heights, row widths and angle). A flat [`crate::Stage`] and an act's own
//! [`crate::Terrain`] both answer it, so every sensor routine is written once.

/// The level as `FindFloor`/`FindWall` (s2.asm L43414–43840) read it.
pub trait Level {
    /// `Find_Tile` (s2.asm L43366–43398) and the read of the block word at pixel (x, y):
    /// index bits 0–9, X flip bit 10, Y flip bit 11, solidity bits 12–15
    /// (path 1 top, path 1 left/right/bottom, path 2 top, path 2 left/right/bottom).
    fn block_word_at(&self, x: u16, y: u16) -> u16;

    /// `move.b (a2,d0.w),d0` with a2 = `Collision_addr`: the collision ID of block index `block`
    /// (0–$3FF) in the primary index (`Primary_Collision`) or, when `secondary`, the secondary one.
    /// The sensor entry points choose the secondary index exactly when `top_solid_bit` is not $C
    /// (the first lines of `AnglePos`, s2.asm L43007–43011, and the same in each entry point).
    fn collision_id(&self, block: u16, secondary: bool) -> u8;

    /// `ColArrayVertical[id·16 + col]`: the height of column `col` (0–15) of collision ID `id`,
    /// signed (negative heights hang from the block's top).
    fn column_height(&self, id: u8, col: u16) -> i8;

    /// `ColArrayHorizontal[id·16 + row]`: the width of row `row` (0–15) of collision ID `id`.
    fn row_width(&self, id: u8, row: u16) -> i8;

    /// `ColCurveMap[id]`: the angle byte of collision ID `id` (odd: "flat, keep the cardinal angle").
    fn curve_angle(&self, id: u8) -> u8;
}
