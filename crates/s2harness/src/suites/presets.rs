//! Hand-written scenarios: Sonic 2's own moves (§7.1), the flat-ground presets built from them
//! (§7.2), stage presets (§7.3) and pit falls.

use s2model::script::{format_script, parse_script};
use s2model::{CellRect, Scenario};

use super::{FLOOR_ROW, FLOOR_Y, STAGE_CELLS, cell_centre};

/// The eleven moves (twelve scripts: the spin dash has two), each as (name, script, note).
/// Scripts are written facing right; the presets mirror them.
pub const MOVES: [(&str, &str, &str); 12] = [
    (
        "walk-right",
        ".*10 R*250 .*150 .*60",
        "7.1.1 from rest to top speed ($600 after 128 frames), hold, release: friction to 0, idle",
    ),
    (
        "walk-left",
        ".*10 L*250 .*150 .*60",
        "7.1.2 the same to the left, starting facing right (turn at once from rest)",
    ),
    (
        "skid",
        "R*180 L*50 .*40 L*180 R*50 .*40 R*96 L*40 .*60 R*95 L*40 .*60 L*64 R*40 .*60 L*63 R*40 .*60",
        "7.1.3 skid from +/-$600, and from $480/$474 (the >= $400 test) and -$300/-$2F4 (<= -$301)",
    ),
    (
        "jump-standing",
        ".*5 C*40 .*40 A .*60 B*2 .*60 C*5 .*60 A*10 .*60 B*16 .*60 C*24 .*60",
        "7.1.4 standing jump: full hold, tap (-$400 cap), releases after 2, 5, 10, 16, 24 frames",
    ),
    (
        "jump-air-control",
        "R*100 RC*20 LC*20 C*10 R*40 .*60 L*120 LC*15 RC*25 .*60 R*30 RA*4 L*30 .*60",
        "7.1.5 running jumps with air control both ways and a mid-air reversal",
    ),
    (
        "roll",
        "R*80 D*60 .*60 R*90 D*3 L*30 .*60 L*90 D*3 R*30 .*60 R*40 D*150 .*30 D*20 R*5 D*30",
        "7.1.6 roll (needs |inertia| >= $80), hold/release Down, brake both ways, roll to a stop",
    ),
    (
        "rolljump",
        "R*100 D*3 C*30 R*20 .*40 R*12 D*2 C*30 .*40 L*12 D*2 C*30 .*40 L*100 D*3 LC*10 RC*20 .*40",
        "7.1.7 roll-jump: air control locked, lands 5 px high; slow variants both ways",
    ),
    (
        "spindash-right",
        "D*5 DC D*20 .*60 D*3 DC D DA D DB D DC D DA D*10 .*60 D*2 DC DC DC D*8 .*60",
        "7.1.8 spin dash facing right: no extra press, five presses, presses on consecutive frames",
    ),
    (
        "spindash-gaps",
        "D*3 DC D*4 DC D*20 .*60 D*3 DC D*16 DC D*16 DC D*10 .*60 L*3 D*3 DC D*4 DA D*30 .*60",
        "7.1.8 spin dash with 4- and 16-frame gaps (decay 1/32), then facing left",
    ),
    (
        "look",
        "U*200 .*30 D*200 .*30 UD*60 .*30 U*100 D*100 .*60",
        "7.1.9 look up and crouch ($78 delay, bias to $C8 / $08 and back by 2), Up+Down together",
    ),
    (
        "idle",
        ".*200 R*10 .*1100 L*10 .*200 C .*30 .*1100 D*10 .*30",
        "7.1.10 idle: Blink (3 frames ignored), GetUp (5 ignored), a jump during the skip, Down at the trigger",
    ),
    (
        "edge-cases",
        "LR*30 R*100 LR*30 .*30 R L R L R L R L R L R L R L R L R L R L .*30 C .*2 C C C .*40 R*60 RC*90 R*30 .*60",
        "7.1.11 Left+Right at rest and at speed, alternating L/R, consecutive presses, jump held through landing",
    ),
];

/// Swaps Left and Right in held bytes.
fn mirror(frames: &[u8]) -> Vec<u8> {
    use s2model::state::buttons::{LEFT, RIGHT};
    frames
        .iter()
        .map(|&b| {
            let lr = b & (LEFT | RIGHT);
            let swapped =
                (if lr & LEFT != 0 { RIGHT } else { 0 }) | (if lr & RIGHT != 0 { LEFT } else { 0 });
            (b & !(LEFT | RIGHT)) | swapped
        })
        .collect()
}

fn script(text: &str) -> Vec<u8> {
    parse_script(text).unwrap_or_else(|e| panic!("preset script {text:?}: {e}"))
}

fn flat_floor() -> Vec<CellRect> {
    vec![CellRect {
        x: 0,
        y: FLOOR_ROW,
        w: STAGE_CELLS,
        h: 2,
    }]
}

fn scenario(
    name: &str,
    solid: Vec<CellRect>,
    x: u16,
    left: bool,
    input: Vec<u8>,
    note: &str,
) -> Scenario {
    let mut sc = Scenario::new(name, solid, x, FLOOR_Y - 20, left, input);
    sc.note = Some(note.to_string());
    sc
}

/// The moves on a flat floor, facing right, from rest.
pub fn moves() -> Vec<Scenario> {
    MOVES
        .iter()
        .enumerate()
        .map(|(i, (name, text, note))| {
            scenario(
                &format!("move{:02}-{name}", i + 1),
                flat_floor(),
                3000,
                false,
                script(text),
                note,
            )
        })
        .collect()
}

/// Run-up lengths for the presets: none, $168 (30 frames of $C) and $348 (70 frames).
const RUN_UPS: [usize; 3] = [0, 30, 70];

/// Every move after each run-up, facing right and mirrored facing left; plus the left clamp.
pub fn flat_presets() -> Vec<Scenario> {
    use s2model::state::buttons::RIGHT;
    let mut out = Vec::new();
    for (i, (name, text, _)) in MOVES.iter().enumerate() {
        for run_up in RUN_UPS {
            for left in [false, true] {
                let mut frames = vec![RIGHT; run_up];
                frames.extend(script(text));
                let (frames, x, facing) = if left {
                    (mirror(&frames), 8000, "left")
                } else {
                    (frames, 3000, "right")
                };
                out.push(scenario(
                    &format!("flat-move{:02}-{name}-{facing}-runup{run_up}", i + 1),
                    flat_floor(),
                    x,
                    left,
                    frames,
                    &format!(
                        "7.2 move {} facing {facing} after a {run_up}-frame run-up",
                        i + 1
                    ),
                ));
            }
        }
    }
    let clamps = [
        (
            "flat-clamp-walk",
            200,
            "L*200 .*60",
            "walk left into the level's left clamp at x = $10",
        ),
        (
            "flat-clamp-run",
            700,
            "L*250 .*60 R*10 L*40",
            "run into the left clamp at top speed",
        ),
        (
            "flat-clamp-roll",
            700,
            "L*110 D*5 .*80",
            "roll into the left clamp",
        ),
        (
            "flat-clamp-jump",
            500,
            "L*80 LC*30 L*40 .*30",
            "jump into the left clamp",
        ),
        (
            "flat-clamp-spindash",
            300,
            "D*3 DC DC DC D*3 .*120",
            "spin dash into the left clamp facing left",
        ),
    ];
    for (name, x, text, note) in clamps {
        out.push(scenario(
            name,
            flat_floor(),
            x,
            true,
            script(text),
            &format!("7.2 {note}"),
        ));
    }
    out
}

fn rect(x: u16, y: u16, w: u16, h: u16) -> CellRect {
    CellRect { x, y, w, h }
}

/// (name, solid cells, Sonic's x, facing left, script, note).
type StagePreset = (
    &'static str,
    Vec<CellRect>,
    u16,
    bool,
    &'static str,
    &'static str,
);

/// Stage presets (§7.3 a–k). Floors are on row 43 unless stated; Sonic stands on the floor.
pub fn stage_presets() -> Vec<Scenario> {
    let floor = rect(0, FLOOR_ROW, STAGE_CELLS, 2);
    let list: Vec<StagePreset> = vec![
        (
            "stage-a1-wall-walk",
            vec![floor, rect(60, 40, 1, 3)],
            cell_centre(50),
            false,
            "R*60 .*20 R*40 .*30 L*20 .*20",
            "a: walk into a 3-cell wall, push, back off",
        ),
        (
            "stage-a2-wall-run-roll",
            vec![floor, rect(80, 41, 2, 2)],
            cell_centre(30),
            false,
            "R*100 .*40 L*40 .*10 R*50 D*3 .*60 D*3 DC DC D*3 .*60",
            "a: run, roll and spin dash into a 2-cell wall",
        ),
        (
            "stage-a3-wall-left",
            vec![floor, rect(40, 42, 1, 1)],
            cell_centre(70),
            true,
            "L*80 .*20 L*30 D*3 .*40",
            "a: a 1-cell wall from the right, walking and rolling",
        ),
        (
            "stage-b-step",
            vec![floor, rect(60, 42, 8, 1)],
            cell_centre(50),
            false,
            "R*40 .*10 RC*20 R*40 .*10 R*60 .*30",
            "b: step onto a 1-cell block: blocked, jump on, walk off",
        ),
        (
            "stage-c-gap-block",
            vec![floor, rect(60, 41, 6, 1), rect(90, 38, 6, 1)],
            cell_centre(50),
            false,
            "R*60 .*40 R*10 RC*30 .*30 R*80 C*20 .*40",
            "c: walk under a block with a 1-cell gap; jump into undersides",
        ),
        (
            "stage-d-low-ceiling",
            // Row 40 overlaps Sonic's head (no room: the first jump is refused) but not his
            // centre; row 39 leaves 9 px (the second jump, after a short walk, bumps at once).
            // They were rows 41 and 40 at cells 60 and 90: Sonic started inside the first
            // block and never reached the second.
            vec![floor, rect(56, 40, 8, 1), rect(64, 39, 12, 1)],
            cell_centre(62),
            false,
            "C*10 .*20 R*30 .*20 C*10 .*30 R*40 .*20",
            "d: ceilings with too little room to jump, and just enough",
        ),
        (
            "stage-e1-platform",
            vec![floor, rect(60, 38, 10, 1)],
            cell_centre(54),
            false,
            "R*20 RC*30 R*20 .*60 R*8 .*120 R*30 .*60",
            "e: jump onto a platform 5 cells up, balance, walk off",
        ),
        (
            "stage-e2-platform-balance-left",
            vec![floor, rect(60, 40, 4, 1)],
            cell_centre(66),
            true,
            "LC*30 .*60 L*6 .*90 R*4 .*90 L*30 .*40",
            "e: land on a low platform, balance on both edges",
        ),
        (
            "stage-f-pit-edge",
            vec![rect(0, FLOOR_ROW, 60, 2), rect(70, FLOOR_ROW, 600, 2)],
            60 * 16 + 2,
            false,
            ".*60 L*3 .*60 R*2 .*60 L*10 .*30",
            "f: start on a pit edge: balance facing both ways",
        ),
        (
            "stage-h-small-pits",
            vec![
                rect(0, FLOOR_ROW, 60, 2),
                rect(61, FLOOR_ROW, 20, 2),
                rect(83, FLOOR_ROW, 600, 2),
            ],
            cell_centre(40),
            false,
            "R*200 .*40 L*200",
            "h: run over a 1-cell and a 2-cell pit and back",
        ),
        (
            "stage-i-roll-off-ledge",
            // The ledge at the floor row Sonic stands on, the ground 4 cells below, Sonic close
            // enough to its edge to roll off. (The ledge was at rows 40-44 with Sonic at cell 40:
            // he started inside it and stopped 230 px short of its edge.)
            vec![rect(0, FLOOR_ROW, 70, 5), rect(70, FLOOR_ROW + 4, 600, 2)],
            cell_centre(60),
            false,
            "R*60 D*3 .*60 .*30",
            "i: roll off a ledge 4 cells high (lands unrolled)",
        ),
        (
            "stage-j-air-walls",
            vec![floor, rect(80, 34, 2, 9), rect(110, 36, 6, 1)],
            cell_centre(66),
            false,
            "RC*30 .*40 L*20 .*20 RC*20 .*40 L*60 .*10 R*40 RC*20 .*60",
            "j: jump into a tall pillar from each side; an overhang while rising",
        ),
        (
            "stage-k-corner",
            vec![floor, rect(70, 40, 4, 1), rect(90, 39, 3, 1)],
            cell_centre(58),
            false,
            "R*20 RC*25 R*10 .*60 R*20 RC*12 .*60",
            "k: land on block corners with one foot",
        ),
    ];
    list.into_iter()
        .map(|(name, solid, x, left, text, note)| {
            scenario(name, solid, x, left, script(text), &format!("7.3{note}"))
        })
        .collect()
}

/// Pit falls: walk, run, jump and roll into pits wide enough that Sonic cannot clear them. Each
/// must end with Sonic killed on the first frame after his centre passes row 1024 ($400).
pub fn pit_falls() -> Vec<Scenario> {
    // (kind, pit width in cells, start distance in cells from the pit edge, script facing right)
    let kinds: [(&str, u16, u16, &str); 9] = [
        ("walk", 8, 1, "R*45 .*300"),
        ("walk", 12, 2, "R*60 .*300"),
        ("run", 14, 40, "R*400"),
        ("run", 22, 60, "R*400"),
        ("jump", 16, 16, "R*60 RC*40 .*300"),
        ("jump", 26, 40, "R*120 RA*30 R*300"),
        ("roll", 12, 20, "R*100 D*3 .*300"),
        ("roll", 16, 30, "R*150 D*3 .*300"),
        ("spindash", 20, 4, "D*3 DC DC DC D*3 .*200"),
    ];
    let mut out = Vec::new();
    let mut n = 1;
    for (kind, width, distance, text) in kinds {
        for left in [false, true] {
            let frames = script(text);
            // The pit sits in the middle of the act so neither floor end is near.
            let pit = 300u16;
            let solid = vec![
                rect(0, FLOOR_ROW, pit, 2),
                rect(pit + width, FLOOR_ROW, STAGE_CELLS - pit - width, 2),
            ];
            let (x, frames, facing) = if left {
                (cell_centre(pit + width + distance), mirror(&frames), "left")
            } else {
                (cell_centre(pit - 1 - distance), frames, "right")
            };
            out.push(scenario(
                &format!("pit{n:02}-{kind}-{facing}-w{width}"),
                solid,
                x,
                left,
                frames,
                &format!(
                    "pit fall ({kind} {facing}): pit cells {pit}..{}, floor row {FLOOR_ROW}",
                    pit + width - 1
                ),
            ));
            n += 1;
        }
    }
    out
}

/// The compact script of a scenario, for writing it out.
pub fn script_text(sc: &Scenario) -> String {
    format_script(&sc.input)
}
