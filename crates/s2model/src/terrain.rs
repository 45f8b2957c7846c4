//! An act's own terrain as data: the level layout and 128 × 128 chunks as the game holds them in RAM
//! after the level loads, both collision indexes, and the game's collision arrays and angle map.
//! The model never carries these bytes; the harness reads them from the user's ROM and RAM and may
//! cache them (`docs/terrain-format.md` describes the file this module reads and writes).

use crate::level::Level;

/// `Level_Layout`: 16 rows of $100 bytes, the foreground's 128 chunk ids then the background's.
pub const LAYOUT_BYTES: usize = 0x1000;
/// `Chunk_Table`: 256 chunks of 8 × 8 block words.
pub const CHUNK_WORDS: usize = 256 * 64;
/// `Primary_Collision` then `Secondary_Collision`: $300 bytes each, one collision ID per block.
pub const COLLISION_INDEX_BYTES: usize = 0x300;
/// `ColArrayVertical` / `ColArrayHorizontal`: 256 collision IDs × 16 columns (rows).
pub const COLLISION_ARRAY_BYTES: usize = 0x1000;
/// `ColCurveMap`: one angle byte per collision ID.
pub const ANGLE_MAP_BYTES: usize = 0x100;

/// The file's magic and the version this build reads and writes.
pub const FILE_MAGIC: &[u8; 8] = b"S2LTERRN";
/// Version 1: the layout of `docs/terrain-format.md`.
pub const FILE_VERSION: u16 = 1;

const HEADER_BYTES: usize = 8 + 2 + 2 + 20 + 8;
const FILE_BYTES: usize = HEADER_BYTES
    + LAYOUT_BYTES
    + 2 * CHUNK_WORDS
    + 2 * COLLISION_INDEX_BYTES
    + 2 * COLLISION_ARRAY_BYTES
    + ANGLE_MAP_BYTES;

/// The act's camera boundaries when the level has loaded (`Camera_Min_X_pos` … `Camera_Max_Y_pos`),
/// which `Sonic_LevelBound` holds Sonic inside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// `Camera_Min_X_pos`.
    pub min_x: u16,
    /// `Camera_Max_X_pos`.
    pub max_x: u16,
    /// `Camera_Min_Y_pos`.
    pub min_y: u16,
    /// `Camera_Max_Y_pos`.
    pub max_y: u16,
}

/// A collision-layer switcher (object $03, `Obj03`) from the act's object layout: its position,
/// subtype and the layout's x-flip bit (an x-flipped switcher changes no layer).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathSwapper {
    /// x position.
    pub x: u16,
    /// y position (the layout word's low 12 bits).
    pub y: u16,
    /// Subtype: bits 0–1 the half-size ($20 << n), bit 2 horizontal (watches y), bits 3/4 the
    /// layer set when crossed rightwards/leftwards (downwards/upwards), bit 7 grounded only.
    pub subtype: u8,
    /// The layout's x-flip bit (render_flags bit 0).
    pub x_flip: bool,
}

/// One act's collision world, exactly as the game's collision routines read it.
#[derive(Clone, PartialEq, Eq)]
pub struct Terrain {
    /// `Current_Zone` (0 = Emerald Hill).
    pub zone: u8,
    /// `Current_Act` (0 = act 1).
    pub act: u8,
    /// SHA-1 of the ROM the data came from.
    pub rom_sha1: [u8; 20],
    /// The act's boundaries after loading.
    pub bounds: Bounds,
    /// The act's path swappers (object $03) in layout order.
    pub swappers: Vec<PathSwapper>,
    layout: Box<[u8]>,
    chunks: Box<[u16]>,
    collision: Box<[u8]>,
    heights: Box<[u8]>,
    widths: Box<[u8]>,
    angles: Box<[u8]>,
}

impl std::fmt::Debug for Terrain {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Terrain {{ zone: {}, act: {}, bounds: {:?} }}",
            self.zone, self.act, self.bounds
        )
    }
}

/// The raw tables a [`Terrain`] is made of, each the exact size of the game's.
pub struct TerrainParts<'a> {
    /// `Level_Layout`, $1000 bytes.
    pub layout: &'a [u8],
    /// `Chunk_Table`, $8000 bytes (big-endian words).
    pub chunk_bytes: &'a [u8],
    /// `Primary_Collision`, $300 bytes.
    pub primary: &'a [u8],
    /// `Secondary_Collision`, $300 bytes.
    pub secondary: &'a [u8],
    /// `ColArrayVertical`, $1000 bytes.
    pub heights: &'a [u8],
    /// `ColArrayHorizontal`, $1000 bytes.
    pub widths: &'a [u8],
    /// `ColCurveMap`, $100 bytes.
    pub angles: &'a [u8],
}

fn sized<'a>(what: &str, b: &'a [u8], n: usize) -> Result<&'a [u8], String> {
    if b.len() == n {
        Ok(b)
    } else {
        Err(format!("{what}: {} bytes, expected {n}", b.len()))
    }
}

impl Terrain {
    /// A terrain from the game's tables (each checked for its size).
    pub fn from_parts(
        zone: u8,
        act: u8,
        rom_sha1: [u8; 20],
        bounds: Bounds,
        p: &TerrainParts<'_>,
    ) -> Result<Terrain, String> {
        let chunk_bytes = sized("Chunk_Table", p.chunk_bytes, 2 * CHUNK_WORDS)?;
        let mut collision = Vec::with_capacity(2 * COLLISION_INDEX_BYTES);
        collision.extend_from_slice(sized(
            "Primary_Collision",
            p.primary,
            COLLISION_INDEX_BYTES,
        )?);
        collision.extend_from_slice(sized(
            "Secondary_Collision",
            p.secondary,
            COLLISION_INDEX_BYTES,
        )?);
        Ok(Terrain {
            zone,
            act,
            rom_sha1,
            bounds,
            swappers: Vec::new(),
            layout: sized("Level_Layout", p.layout, LAYOUT_BYTES)?.into(),
            chunks: chunk_bytes
                .chunks_exact(2)
                .map(|w| u16::from_be_bytes([w[0], w[1]]))
                .collect(),
            collision: collision.into(),
            heights: sized("ColArrayVertical", p.heights, COLLISION_ARRAY_BYTES)?.into(),
            widths: sized("ColArrayHorizontal", p.widths, COLLISION_ARRAY_BYTES)?.into(),
            angles: sized("ColCurveMap", p.angles, ANGLE_MAP_BYTES)?.into(),
        })
    }

    /// The foreground chunk id at pixel (x, y), `Find_Tile`'s layout read: byte
    /// ((2y) & $F00) + ((x >> 7) & $7F) of `Level_Layout` (rows wrap every 2048 px, columns every
    /// 16384 px).
    #[inline]
    pub fn chunk_id_at(&self, x: u16, y: u16) -> u8 {
        self.layout[((y as usize * 2) & 0xF00) + ((x as usize >> 7) & 0x7F)]
    }

    /// The block word at cell (col, row) of chunk `id`.
    #[inline]
    pub fn chunk_word(&self, id: u8, col: usize, row: usize) -> u16 {
        self.chunks[id as usize * 64 + (row & 7) * 8 + (col & 7)]
    }

    /// `Level_Layout` as in RAM.
    pub fn layout(&self) -> &[u8] {
        &self.layout
    }

    /// "zone-act" as a file stem, e.g. `ehz1` for Emerald Hill Act 1, `z05a2` for others.
    pub fn stem(zone: u8, act: u8) -> String {
        match zone {
            0 => format!("ehz{}", act + 1),
            z => format!("z{z:02}a{}", act + 1),
        }
    }

    /// The file form (`docs/terrain-format.md`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_BYTES);
        out.extend_from_slice(FILE_MAGIC);
        out.extend_from_slice(&FILE_VERSION.to_be_bytes());
        out.push(self.zone);
        out.push(self.act);
        out.extend_from_slice(&self.rom_sha1);
        for v in [
            self.bounds.min_x,
            self.bounds.max_x,
            self.bounds.min_y,
            self.bounds.max_y,
        ] {
            out.extend_from_slice(&v.to_be_bytes());
        }
        out.extend_from_slice(&self.layout);
        for w in self.chunks.iter() {
            out.extend_from_slice(&w.to_be_bytes());
        }
        out.extend_from_slice(&self.collision);
        out.extend_from_slice(&self.heights);
        out.extend_from_slice(&self.widths);
        out.extend_from_slice(&self.angles);
        debug_assert_eq!(out.len(), FILE_BYTES);
        out.extend_from_slice(&(self.swappers.len() as u16).to_be_bytes());
        for p in &self.swappers {
            out.extend_from_slice(&p.x.to_be_bytes());
            out.extend_from_slice(&p.y.to_be_bytes());
            out.push(p.subtype);
            out.push(p.x_flip as u8);
        }
        out
    }

    /// Read the file form; errors say what is wrong (the caller names the file).
    pub fn from_bytes(b: &[u8]) -> Result<Terrain, String> {
        if b.len() < 10 || &b[..8] != FILE_MAGIC {
            return Err("not an s2lab terrain file (bad magic)".into());
        }
        let version = u16::from_be_bytes([b[8], b[9]]);
        if version != FILE_VERSION {
            return Err(format!(
                "terrain file version {version}, this build reads {FILE_VERSION}"
            ));
        }
        if b.len() < FILE_BYTES + 2 {
            return Err(format!(
                "terrain file is {} bytes, version 1 needs at least {}",
                b.len(),
                FILE_BYTES + 2
            ));
        }
        let n = u16::from_be_bytes([b[FILE_BYTES], b[FILE_BYTES + 1]]) as usize;
        if b.len() != FILE_BYTES + 2 + 6 * n {
            return Err(format!(
                "terrain file is {} bytes, {n} path swappers make it {}",
                b.len(),
                FILE_BYTES + 2 + 6 * n
            ));
        }
        let swappers = b[FILE_BYTES + 2..]
            .chunks_exact(6)
            .map(|r| PathSwapper {
                x: u16::from_be_bytes([r[0], r[1]]),
                y: u16::from_be_bytes([r[2], r[3]]),
                subtype: r[4],
                x_flip: r[5] != 0,
            })
            .collect();
        let w = |o: usize| u16::from_be_bytes([b[o], b[o + 1]]);
        let mut sha = [0u8; 20];
        sha.copy_from_slice(&b[12..32]);
        let bounds = Bounds {
            min_x: w(32),
            max_x: w(34),
            min_y: w(36),
            max_y: w(38),
        };
        let mut o = HEADER_BYTES;
        let mut take = |n: usize| {
            let s = &b[o..o + n];
            o += n;
            s
        };
        let layout = take(LAYOUT_BYTES);
        let chunk_bytes = take(2 * CHUNK_WORDS);
        let primary = take(COLLISION_INDEX_BYTES);
        let secondary = take(COLLISION_INDEX_BYTES);
        let heights = take(COLLISION_ARRAY_BYTES);
        let widths = take(COLLISION_ARRAY_BYTES);
        let angles = take(ANGLE_MAP_BYTES);
        let mut t = Terrain::from_parts(
            b[10],
            b[11],
            sha,
            bounds,
            &TerrainParts {
                layout,
                chunk_bytes,
                primary,
                secondary,
                heights,
                widths,
                angles,
            },
        )?;
        t.swappers = swappers;
        Ok(t)
    }
}

impl Level for Terrain {
    /// `Find_Tile` (s2.asm L43366–43398): layout byte ((2y) & $F00) + ((x >> 7) & $7F) gives the
    /// chunk; the word at (y & $70) + ((x >> 3) & $E) inside its $80 bytes is the block word.
    #[inline]
    fn block_word_at(&self, x: u16, y: u16) -> u16 {
        let id = self.chunk_id_at(x, y);
        self.chunk_word(id, (x as usize >> 4) & 7, (y as usize >> 4) & 7)
    }

    /// The game indexes `Collision_addr` with the full 10-bit block index; the two $300-byte
    /// indexes are adjacent in RAM, so a primary index past $2FF reads the secondary one. Past the
    /// secondary index lies RAM that is not collision data (no EHZ block reaches it): 0 here.
    #[inline]
    fn collision_id(&self, block: u16, secondary: bool) -> u8 {
        let i = block as usize + if secondary { COLLISION_INDEX_BYTES } else { 0 };
        self.collision.get(i).copied().unwrap_or(0)
    }

    #[inline]
    fn column_height(&self, id: u8, col: u16) -> i8 {
        self.heights[id as usize * 16 + (col as usize & 15)] as i8
    }

    #[inline]
    fn row_width(&self, id: u8, row: u16) -> i8 {
        self.widths[id as usize * 16 + (row as usize & 15)] as i8
    }

    #[inline]
    fn curve_angle(&self, id: u8) -> u8 {
        self.angles[id as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hand-built terrain: chunk 1 holds block 5 (flags $3000) at its cell (2, 3) and block 6 with
    /// X flip at (7, 7); the layout puts chunk 1 at chunk column 3, chunk row 2.
    fn sample() -> Terrain {
        let mut layout = vec![0u8; LAYOUT_BYTES];
        layout[2 * 0x100 + 3] = 1;
        layout[2 * 0x100 + 0x80 + 3] = 9; // background: never read by Find_Tile's foreground row
        let mut chunks = vec![0u8; 2 * CHUNK_WORDS];
        let put = |c: &mut Vec<u8>, id: usize, col: usize, row: usize, w: u16| {
            let o = 2 * (id * 64 + row * 8 + col);
            c[o..o + 2].copy_from_slice(&w.to_be_bytes());
        };
        put(&mut chunks, 1, 2, 3, 0x3005);
        put(&mut chunks, 1, 7, 7, 0x3406);
        let mut primary = vec![0u8; COLLISION_INDEX_BYTES];
        primary[5] = 0x21;
        let secondary = vec![0x22u8; COLLISION_INDEX_BYTES];
        let heights: Vec<u8> = (0..COLLISION_ARRAY_BYTES).map(|i| (i % 17) as u8).collect();
        let widths: Vec<u8> = (0..COLLISION_ARRAY_BYTES).map(|i| (i % 13) as u8).collect();
        let angles: Vec<u8> = (0..ANGLE_MAP_BYTES).map(|i| i as u8 ^ 0x55).collect();
        Terrain::from_parts(
            0,
            1,
            [7; 20],
            Bounds {
                min_x: 0,
                max_x: 0x2A00,
                min_y: 0,
                max_y: 0x400,
            },
            &TerrainParts {
                layout: &layout,
                chunk_bytes: &chunks,
                primary: &primary,
                secondary: &secondary,
                heights: &heights,
                widths: &widths,
                angles: &angles,
            },
        )
        .unwrap()
    }

    #[test]
    fn find_tile_addresses_like_the_game() {
        let t = sample();
        // Chunk column 3 = x 384..511, chunk row 2 = y 256..383; cell (2, 3) = x 416.., y 304..
        assert_eq!(t.block_word_at(416, 304), 0x3005);
        assert_eq!(t.block_word_at(431, 319), 0x3005);
        assert_eq!(t.block_word_at(432, 304), 0);
        assert_eq!(t.block_word_at(384 + 7 * 16, 256 + 7 * 16), 0x3406);
        // y wraps every 2048 px: 2048 + 304 reads the same row.
        assert_eq!(t.block_word_at(416, 2048 + 304), 0x3005);
        assert_eq!(t.collision_id(5, false), 0x21);
        assert_eq!(t.collision_id(5, true), 0x22);
        // Past the primary index: the adjacent secondary one.
        assert_eq!(t.collision_id(0x300, false), 0x22);
        assert_eq!(t.collision_id(0x3FF, true), 0);
        assert_eq!(t.column_height(2, 3), ((2 * 16 + 3) % 17) as i8);
        assert_eq!(t.curve_angle(0x21), 0x21 ^ 0x55);
    }

    #[test]
    fn file_round_trip_and_errors() {
        let mut t = sample();
        t.swappers = vec![PathSwapper {
            x: 0x1234,
            y: 0x345,
            subtype: 0x8D,
            x_flip: true,
        }];
        let b = t.to_bytes();
        assert_eq!(b.len(), FILE_BYTES + 2 + 6);
        assert!(Terrain::from_bytes(&b).unwrap() == t);
        assert!(
            Terrain::from_bytes(&b[..100])
                .unwrap_err()
                .contains("bytes")
        );
        let mut v = b.clone();
        v[9] = 2;
        assert!(Terrain::from_bytes(&v).unwrap_err().contains("version 2"));
        assert!(
            Terrain::from_bytes(b"nonsense")
                .unwrap_err()
                .contains("magic")
        );
    }
}
