//! Sonic's state: his object (the SST at `MainCharacter`, $FFB000) and the globals his code reads and
//! writes, each with the game's width and signedness (spec §2).

/// Joypad bits of `Ctrl_1_Held`/`Ctrl_1_Press` (spec §1.2).
pub mod buttons {
    /// Up.
    pub const UP: u8 = 0x01;
    /// Down.
    pub const DOWN: u8 = 0x02;
    /// Left.
    pub const LEFT: u8 = 0x04;
    /// Right.
    pub const RIGHT: u8 = 0x08;
    /// B.
    pub const B: u8 = 0x10;
    /// C.
    pub const C: u8 = 0x20;
    /// A.
    pub const A: u8 = 0x40;
    /// Start.
    pub const START: u8 = 0x80;
    /// Any jump button: A, B or C.
    pub const ABC: u8 = A | B | C;
}

/// Bits of `status` ($22).
pub mod status {
    /// Facing left (x flip).
    pub const FACING_LEFT: u8 = 0x01;
    /// In the air.
    pub const IN_AIR: u8 = 0x02;
    /// Rolling or spinning (curled up).
    pub const ROLLING: u8 = 0x04;
    /// Standing on an object.
    pub const ON_OBJECT: u8 = 0x08;
    /// Jumped from a roll (air control locked).
    pub const ROLLJUMPING: u8 = 0x10;
    /// Pushing a wall.
    pub const PUSHING: u8 = 0x20;
    /// Under water.
    pub const UNDERWATER: u8 = 0x40;
}

/// Animation IDs (`anim`, $1C) of `SonicAniData` (s2.asm L38656).
pub mod anim {
    /// Walk (also Run: Sonic_Animate picks the script by speed).
    pub const WALK: u8 = 0x00;
    /// Run (only ever written to `prev_anim` to force a restart).
    pub const RUN: u8 = 0x01;
    /// Roll.
    pub const ROLL: u8 = 0x02;
    /// Roll, fast (same bytes as Roll).
    pub const ROLL2: u8 = 0x03;
    /// Push.
    pub const PUSH: u8 = 0x04;
    /// Wait (standing; foot tapping; lying down).
    pub const WAIT: u8 = 0x05;
    /// Balance (facing the edge).
    pub const BALANCE: u8 = 0x06;
    /// Look up.
    pub const LOOK_UP: u8 = 0x07;
    /// Duck.
    pub const DUCK: u8 = 0x08;
    /// Spin dash.
    pub const SPINDASH: u8 = 0x09;
    /// Blink (leaving the wait animation).
    pub const BLINK: u8 = 0x0A;
    /// Get up (leaving the lying-down wait animation).
    pub const GET_UP: u8 = 0x0B;
    /// Balance 2 (further over the edge).
    pub const BALANCE2: u8 = 0x0C;
    /// Stop (skid).
    pub const STOP: u8 = 0x0D;
    /// Death.
    pub const DEATH: u8 = 0x18;
    /// Balance 3 (back to the edge).
    pub const BALANCE3: u8 = 0x1D;
    /// Balance 4 (back to the edge, further over; turns around).
    pub const BALANCE4: u8 = 0x1E;
}

/// Sonic's routine numbers (`routine`, $24).
pub mod routine {
    /// `Obj01_Init`.
    pub const INIT: u8 = 0;
    /// `Obj01_Control`: normal play.
    pub const CONTROL: u8 = 2;
    /// `Obj01_Hurt`.
    pub const HURT: u8 = 4;
    /// `Obj01_Dead`.
    pub const DEAD: u8 = 6;
    /// `Obj01_Gone`.
    pub const GONE: u8 = 8;
}

/// Everything the model carries from one frame to the next.
///
/// The first block is Sonic's object (offsets from $FFB000); the second the globals. Field names are
/// the disassembly's. The 28 compared fields of a trace are listed in [`FIELDS`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SonicState {
    // --- Sonic's SST ---
    /// $08: x position, whole pixels (with `x_sub` a 16.16 unsigned position).
    pub x_pos: u16,
    /// $0A: x subpixel.
    pub x_sub: u16,
    /// $0C: y position, whole pixels, down positive.
    pub y_pos: u16,
    /// $0E: y subpixel.
    pub y_sub: u16,
    /// $10: x velocity, 8.8 px/frame.
    pub x_vel: i16,
    /// $12: y velocity, 8.8 px/frame, down positive.
    pub y_vel: i16,
    /// $14: ground speed along the surface, 8.8.
    pub inertia: i16,
    /// $16: half height ($13 standing, $0E rolling).
    pub y_radius: u8,
    /// $17: half width (9 standing, 7 rolling).
    pub x_radius: u8,
    /// $1A: sprite frame (not compared).
    pub mapping_frame: u8,
    /// $1B: index into the animation script.
    pub anim_frame: u8,
    /// $1C: animation ID.
    pub anim: u8,
    /// $1D: last animation Sonic_Animate saw.
    pub prev_anim: u8,
    /// $1E: animation frame countdown.
    pub anim_frame_duration: u8,
    /// $22: status bits, see [`status`].
    pub status: u8,
    /// $24: routine, see [`routine`].
    pub routine: u8,
    /// $26: surface angle (256 = full turn).
    pub angle: u8,
    /// $27: tumble angle (0 here).
    pub flip_angle: u8,
    /// $2A: object control (0 here; bit 0 would skip the mode routine, bit 7 touch response).
    pub obj_control: u8,
    /// $2B: secondary status (bit 7 sliding; 0 here).
    pub status_secondary: u8,
    /// $2E: frames of left/right lock.
    pub move_lock: u16,
    /// $30: invulnerability frames after a hit.
    pub invulnerable_time: u16,
    /// $36: copy of `Primary_Angle` at the end of the frame.
    pub next_tilt: u8,
    /// $37: copy of `Secondary_Angle` at the end of the frame.
    pub tilt: u8,
    /// $38: stick to convex surfaces (0 here).
    pub stick_to_convex: u8,
    /// $39: spin dash charging (alias `pinball_mode`).
    pub spindash_flag: u8,
    /// $3A: spin dash charge, 0..$800.
    pub spindash_counter: u16,
    /// $3C: 1 after a jump until landing.
    pub jumping: u8,
    /// $3E: solidity bit tested by floor probes ($0C = path 1 top).
    pub top_solid_bit: u8,
    /// $3F: solidity bit tested by wall/ceiling probes ($0D = path 1 left/right/bottom).
    pub lrb_solid_bit: u8,

    // --- globals ---
    /// `Ctrl_1` held (written by `ReadJoypads`).
    pub ctrl_1_held: u8,
    /// `Ctrl_1` pressed (held and not held the previous frame).
    pub ctrl_1_pressed: u8,
    /// `Ctrl_1_Logical` held: what Sonic reads.
    pub ctrl_held: u8,
    /// `Ctrl_1_Logical` pressed.
    pub ctrl_pressed: u8,
    /// `Primary_Angle` ($FFF768): sensor angle scratch, persistent.
    pub primary_angle: u8,
    /// `Secondary_Angle` ($FFF76A): sensor angle scratch, persistent.
    pub secondary_angle: u8,
    /// `Sonic_Look_delay_counter` ($FFF66C).
    pub look_delay: u16,
    /// `Camera_Y_pos_bias` ($FFEED8), default $60.
    pub camera_bias: u16,
    /// `Sonic_top_speed` ($FFF760).
    pub top_speed: u16,
    /// `Sonic_acceleration` ($FFF762).
    pub acceleration: u16,
    /// `Sonic_deceleration` ($FFF764).
    pub deceleration: u16,
    /// `Camera_Min_X_pos` (EHZ1: 0).
    pub camera_min_x: u16,
    /// `Camera_Max_X_pos` (EHZ1: $29A0).
    pub camera_max_x: u16,
    /// `Camera_Max_Y_pos` (EHZ1: $320; the death line is 224 below it).
    pub camera_max_y: u16,
    /// `Control_Locked` (0: the pad is copied to `Ctrl_1_Logical`).
    pub control_locked: bool,
    /// `Horiz_scroll_delay_val` ($FFEED0): written at spin dash release (camera code then changes
    /// it the same frame in the game; not compared).
    pub horiz_scroll_delay: u16,
}

impl Default for SonicState {
    fn default() -> Self {
        Self::at(0x60, 0x28F, false)
    }
}

impl SonicState {
    /// The state the reference traces start from (traces/README.md, "How they were recorded"):
    /// Sonic standing at (x, y), facing left or right, everything else as written at the boundary.
    pub fn at(x: u16, y: u16, facing_left: bool) -> Self {
        SonicState {
            x_pos: x,
            x_sub: 0,
            y_pos: y,
            y_sub: 0,
            x_vel: 0,
            y_vel: 0,
            inertia: 0,
            y_radius: 0x13,
            x_radius: 9,
            mapping_frame: 0,
            anim_frame: 0,
            anim: anim::WAIT,
            prev_anim: anim::WAIT,
            anim_frame_duration: 0,
            status: if facing_left { status::FACING_LEFT } else { 0 },
            routine: routine::CONTROL,
            angle: 0,
            flip_angle: 0,
            obj_control: 0,
            status_secondary: 0,
            move_lock: 0,
            invulnerable_time: 0,
            next_tilt: 0xFF,
            tilt: 0xFF,
            stick_to_convex: 0,
            spindash_flag: 0,
            spindash_counter: 0,
            jumping: 0,
            top_solid_bit: 0x0C,
            lrb_solid_bit: 0x0D,
            ctrl_1_held: 0,
            ctrl_1_pressed: 0,
            ctrl_held: 0,
            ctrl_pressed: 0,
            primary_angle: 0xFF,
            secondary_angle: 0xFF,
            look_delay: 0,
            camera_bias: 0x60,
            top_speed: 0x600,
            acceleration: 0xC,
            deceleration: 0x80,
            camera_min_x: 0,
            camera_max_x: 0x29A0,
            camera_max_y: 0x320,
            control_locked: false,
            horiz_scroll_delay: 0,
        }
    }

    /// Test a status bit.
    #[inline]
    pub fn has(&self, bit: u8) -> bool {
        self.status & bit != 0
    }

    /// Set a status bit.
    #[inline]
    pub fn set(&mut self, bit: u8) {
        self.status |= bit;
    }

    /// Clear a status bit.
    #[inline]
    pub fn clear(&mut self, bit: u8) {
        self.status &= !bit;
    }

    /// The 32-bit x position (`x_pos:x_sub`).
    #[inline]
    pub fn x32(&self) -> u32 {
        (self.x_pos as u32) << 16 | self.x_sub as u32
    }

    /// The 32-bit y position (`y_pos:y_sub`).
    #[inline]
    pub fn y32(&self) -> u32 {
        (self.y_pos as u32) << 16 | self.y_sub as u32
    }

    /// Store a 32-bit x position.
    #[inline]
    pub fn set_x32(&mut self, v: u32) {
        self.x_pos = (v >> 16) as u16;
        self.x_sub = v as u16;
    }

    /// Store a 32-bit y position.
    #[inline]
    pub fn set_y32(&mut self, v: u32) {
        self.y_pos = (v >> 16) as u16;
        self.y_sub = v as u16;
    }

    /// The compared fields, in [`FIELDS`] order, as the trace writes them (unsigned for u8/u16,
    /// signed for s16).
    pub fn trace_values(&self) -> [i32; FIELD_COUNT] {
        [
            self.x_pos as i32,
            self.x_sub as i32,
            self.y_pos as i32,
            self.y_sub as i32,
            self.x_vel as i32,
            self.y_vel as i32,
            self.inertia as i32,
            self.y_radius as i32,
            self.x_radius as i32,
            self.anim_frame as i32,
            self.anim as i32,
            self.prev_anim as i32,
            self.anim_frame_duration as i32,
            self.look_delay as i32,
            self.status as i32,
            self.routine as i32,
            self.angle as i32,
            self.move_lock as i32,
            self.next_tilt as i32,
            self.tilt as i32,
            self.spindash_flag as i32,
            self.spindash_counter as i32,
            self.jumping as i32,
            self.ctrl_held as i32,
            self.ctrl_pressed as i32,
            self.primary_angle as i32,
            self.secondary_angle as i32,
            self.camera_bias as i32,
        ]
    }

    /// A state whose compared fields are `values` ([`FIELDS`] order, range-checked) and whose hidden
    /// state is that of [`SonicState::at`]. This is how a trace's `initial` becomes a model state:
    /// the globals not in the trace (speeds $600/$C/$80, camera limits, solidity bits) are the
    /// values the recording wrote. `ctrl_1_held` is taken from `ctrl_held` (no lock).
    pub fn from_trace_values(values: &[i32; FIELD_COUNT]) -> Result<Self, String> {
        let mut s = SonicState::at(0, 0, false);
        for (i, (&v, spec)) in values.iter().zip(FIELD_SPECS.iter()).enumerate() {
            let ok = match spec.1 {
                FieldType::U8 => (0..=0xFF).contains(&v),
                FieldType::U16 => (0..=0xFFFF).contains(&v),
                FieldType::S16 => (-0x8000..=0x7FFF).contains(&v),
            };
            if !ok {
                return Err(format!(
                    "field {} = {} out of range for {}",
                    FIELDS[i],
                    v,
                    spec.1.name()
                ));
            }
        }
        let v = values;
        s.x_pos = v[0] as u16;
        s.x_sub = v[1] as u16;
        s.y_pos = v[2] as u16;
        s.y_sub = v[3] as u16;
        s.x_vel = v[4] as i16;
        s.y_vel = v[5] as i16;
        s.inertia = v[6] as i16;
        s.y_radius = v[7] as u8;
        s.x_radius = v[8] as u8;
        s.anim_frame = v[9] as u8;
        s.anim = v[10] as u8;
        s.prev_anim = v[11] as u8;
        s.anim_frame_duration = v[12] as u8;
        s.look_delay = v[13] as u16;
        s.status = v[14] as u8;
        s.routine = v[15] as u8;
        s.angle = v[16] as u8;
        s.move_lock = v[17] as u16;
        s.next_tilt = v[18] as u8;
        s.tilt = v[19] as u8;
        s.spindash_flag = v[20] as u8;
        s.spindash_counter = v[21] as u16;
        s.jumping = v[22] as u8;
        s.ctrl_held = v[23] as u8;
        s.ctrl_pressed = v[24] as u8;
        s.ctrl_1_held = s.ctrl_held;
        s.ctrl_1_pressed = s.ctrl_pressed;
        s.primary_angle = v[25] as u8;
        s.secondary_angle = v[26] as u8;
        s.camera_bias = v[27] as u16;
        Ok(s)
    }
}

/// How a compared field is stored in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// Unsigned byte.
    U8,
    /// Unsigned word.
    U16,
    /// Signed word.
    S16,
}

impl FieldType {
    /// `u8`, `u16` or `s16`.
    pub fn name(self) -> &'static str {
        match self {
            FieldType::U8 => "u8",
            FieldType::U16 => "u16",
            FieldType::S16 => "s16",
        }
    }

    /// Hex digits to show a value of this type.
    pub fn hex_digits(self) -> usize {
        match self {
            FieldType::U8 => 2,
            _ => 4,
        }
    }
}

/// Number of compared fields.
pub const FIELD_COUNT: usize = 28;

/// The compared fields with their types (formats.md §3), in trace order.
pub const FIELD_SPECS: [(&str, FieldType); FIELD_COUNT] = [
    ("x_pos", FieldType::U16),
    ("x_sub", FieldType::U16),
    ("y_pos", FieldType::U16),
    ("y_sub", FieldType::U16),
    ("x_vel", FieldType::S16),
    ("y_vel", FieldType::S16),
    ("inertia", FieldType::S16),
    ("y_radius", FieldType::U8),
    ("x_radius", FieldType::U8),
    ("anim_frame", FieldType::U8),
    ("anim", FieldType::U8),
    ("prev_anim", FieldType::U8),
    ("anim_frame_duration", FieldType::U8),
    ("look_delay", FieldType::U16),
    ("status", FieldType::U8),
    ("routine", FieldType::U8),
    ("angle", FieldType::U8),
    ("move_lock", FieldType::U16),
    ("next_tilt", FieldType::U8),
    ("tilt", FieldType::U8),
    ("spindash_flag", FieldType::U8),
    ("spindash_counter", FieldType::U16),
    ("jumping", FieldType::U8),
    ("ctrl_held", FieldType::U8),
    ("ctrl_pressed", FieldType::U8),
    ("primary_angle", FieldType::U8),
    ("secondary_angle", FieldType::U8),
    ("camera_bias", FieldType::U16),
];

/// The compared field names, in trace order.
pub const FIELDS: [&str; FIELD_COUNT] = {
    let mut n = [""; FIELD_COUNT];
    let mut i = 0;
    while i < FIELD_COUNT {
        n[i] = FIELD_SPECS[i].0;
        i += 1;
    }
    n
};
