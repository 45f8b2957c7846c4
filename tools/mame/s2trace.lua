-- s2trace.lua: run one s2lab scenario on the real Sonic 2 ROM in MAME 0.251 (genesis driver) and write
-- its trace in the project's trace format (shared docs formats.md §3).
--
-- Normally started by tools/mame/s2trace.py, which parses the scenario and input script and writes a
-- small Lua config file; its path comes in the environment variable S2TRACE_CONFIG. The config returns
-- a table (see s2trace.py, write_config) with the ROM revision's symbols, the per-frame held buttons,
-- the stage's chunks and layout bytes, Sonic's start, and the output and status file paths.
--
-- Recipe (traces/README.md "How they were recorded"):
--   boot, select Sonic alone (Player_option = 1 on the title screen), press Start, Emerald Hill 1;
--   frame boundary = the game's main loop writing 8 to Vint_routine (a write tap); at the boundary whose
--   Level_frame_counter is cfg.start_lfc (122, as in the reference traces) clear objects and rings, build
--   the stage, write Sonic and the globals, sample `initial`; every later boundary is one script frame:
--   sample, check (no lag, Ctrl_1_Logical, flags), stop conditions.
--   MAME applies a new pad value only at its own frame update, which comes after the V-int that reads
--   the pad, so script frame k's buttons are set at boundary k-1 (frame 0's at the boundary before setup).
--
-- A measurement (cfg.setup, from a scenario's "setup" key as `s2lab claims --export` writes it) is run
-- as s2harness game/measure.rs run_measurement: after Sonic is placed, the RAM writes in order, then
-- the objects in free dynamic slots; the watched values are sampled before frame 0 (header
-- "initial_watch") and after every frame (extra keys on the frame line); the per-frame checks are
-- only measure.rs's (no lag, Ctrl_1_Logical, no debug mode or pause, Game_Mode $0C). It starts where
-- the harness's runs start (B_0: control free, 30 frames, the next boundary: Level_frame_counter 31,
-- cfg.start_lfc), not at 122; for act 2, act 1's B_0 loads it and act 2's B_0 is the start.

local cfg = dofile(assert(os.getenv("S2TRACE_CONFIG"), "S2TRACE_CONFIG not set"))
local S = cfg.sym
local machine = manager.machine
local space = machine.devices[":maincpu"].spaces["program"]

local function r8(a) return space:read_u8(a) end
local function r16(a) return space:read_u16(a) end
local function r32(a) return space:read_u32(a) end
local function w8(a, v) space:write_u8(a, v) end
local function w16(a, v) space:write_u16(a, v) end
local function w32(a, v) space:write_u32(a, v) end

-- pad (3-button pad in control port 1)
local padport = assert(machine.ioport.ports[":ctrl1:mdpad:PAD"], "no :ctrl1:mdpad:PAD port")
local BUTTONS = {
  { 0x01, "P1 Up" }, { 0x02, "P1 Down" }, { 0x04, "P1 Left" }, { 0x08, "P1 Right" },
  { 0x10, "P1 B" }, { 0x20, "P1 C" }, { 0x40, "P1 A" }, { 0x80, "P1 Start" },
}
for _, b in ipairs(BUTTONS) do b[3] = assert(padport.fields[b[2]], "no pad field " .. b[2]) end
local function set_pad(held)
  for _, b in ipairs(BUTTONS) do
    if held & b[1] ~= 0 then b[3]:set_value(1) else b[3]:set_value(0) end
  end
end

-- status / output ---------------------------------------------------------------------------------------
local finished = false
-- the write tap must stay referenced for the whole run: a tap whose handler object is garbage-collected
-- is removed silently (the run would then hang), so it lives in a global
s2trace_tap = nil
local function finish(status)
  if finished then return end
  finished = true
  local f = assert(io.open(cfg.status_path, "w"))
  f:write(status, "\n")
  f:close()
  machine:exit()
end

local function fail(msg)
  emu.print_error("s2trace: " .. msg)
  finish("error: " .. msg)
end

-- trace fields (formats.md §3), in order ---------------------------------------------------------------
local obj = S.MainCharacter
local FIELDS = {
  { "x_pos", obj + S.x_pos, 16 }, { "x_sub", obj + S.x_pos + 2, 16 },
  { "y_pos", obj + S.y_pos, 16 }, { "y_sub", obj + S.y_pos + 2, 16 },
  { "x_vel", obj + S.x_vel, -16 }, { "y_vel", obj + S.y_vel, -16 }, { "inertia", obj + S.inertia, -16 },
  { "y_radius", obj + S.y_radius, 8 }, { "x_radius", obj + S.x_radius, 8 },
  { "anim_frame", obj + S.anim_frame, 8 }, { "anim", obj + S.anim, 8 }, { "prev_anim", obj + S.prev_anim, 8 },
  { "anim_frame_duration", obj + S.anim_frame_duration, 8 },
  { "look_delay", S.Sonic_Look_delay_counter, 16 },
  { "status", obj + S.status, 8 }, { "routine", obj + S.routine, 8 }, { "angle", obj + S.angle, 8 },
  { "move_lock", obj + S.move_lock, 16 }, { "next_tilt", obj + S.next_tilt, 8 }, { "tilt", obj + S.tilt, 8 },
  { "spindash_flag", obj + S.spindash_flag, 8 }, { "spindash_counter", obj + S.spindash_counter, 16 },
  { "jumping", obj + S.jumping, 8 },
  { "ctrl_held", S.Ctrl_1_Logical, 8 }, { "ctrl_pressed", S.Ctrl_1_Logical + 1, 8 },
  { "primary_angle", S.Primary_Angle, 8 }, { "secondary_angle", S.Secondary_Angle, 8 },
  { "camera_bias", S.Camera_Y_pos_bias, 16 },
}
-- terrain scenarios (format 2) also record Sonic's collision layer (formats.md §3, optional fields)
local T = cfg.terrain
if T then
  FIELDS[#FIELDS + 1] = { "top_solid_bit", obj + S.top_solid_bit, 8 }
  FIELDS[#FIELDS + 1] = { "lrb_solid_bit", obj + S.lrb_solid_bit, 8 }
end
FIELDS[#FIELDS + 1] = { "level_frame", S.Level_frame_counter, 16 }

local function read_field(f)
  local kind = f[3]
  if kind == 8 then return r8(f[2]) end
  local v = r16(f[2])
  if kind == -16 and v >= 0x8000 then v = v - 0x10000 end
  return v
end

-- a measurement's watched values: { name, addr, size (1, 2, 4), signed }
local SETUP = cfg.setup
local WATCH = SETUP and SETUP.watch or {}

-- The boundary is the main loop's write of VintID_Level to Vint_routine, and the tap runs before the
-- write lands: a watched value that covers Vint_routine reads it as written (the harness samples after).
local function read_watch(w)
  local addr, size, signed = w[2], w[3], w[4]
  local v, bits = 0, 8 * size
  if addr <= S.Vint_routine and S.Vint_routine < addr + size then
    for a = addr, addr + size - 1 do v = (v << 8) | (a == S.Vint_routine and S.VintID_Level or r8(a)) end
  elseif size == 1 then v = r8(addr)
  elseif size == 2 then v = r16(addr)
  else v = (r16(addr) << 16) | r16(addr + 2) end
  if signed and v >= (1 << (bits - 1)) then v = v - (1 << bits) end
  return v
end

local function watch_json()
  local parts = {}
  for i, w in ipairs(WATCH) do parts[i] = string.format('"%s":%d', w[1], read_watch(w)) end
  return table.concat(parts, ",")
end

local function sample_json()
  local parts = {}
  for i, f in ipairs(FIELDS) do parts[i] = string.format('"%s":%d', f[1], read_field(f)) end
  if #WATCH > 0 then parts[#parts + 1] = watch_json() end
  return table.concat(parts, ",")
end

-- the recipe ------------------------------------------------------------------------------------------------
local function zero_range(lo, hi_excl)
  for a = lo, hi_excl - 1, 4 do w32(a, 0) end
end

local function clamp(v, lo, hi) if v < lo then return lo elseif v > hi then return hi else return v end end

local function clear_objects()
  -- objects: every slot but Sonic's; keep the dust object (Sonic_Dust, $40 bytes)
  zero_range(S.Sidekick, S.Dynamic_Object_RAM_End)
  zero_range(S.LevelOnly_Object_RAM, S.Sonic_Dust)
  zero_range(S.Sonic_Dust + 0x40, S.LevelOnly_Object_RAM_End)
  for _, a in ipairs({ S.Obj_load_addr_right, S.Obj_load_addr_left, S.Obj_load_addr_right_P2,
                       S.Obj_load_addr_left_P2 }) do
    w32(a, S.Objects_Null)
  end
  -- rings: mark every record from Ring_Positions+6 collected, up to the terminator
  local a = S.Ring_Positions + 6
  while a + 6 <= S.Ring_Positions_End and r16(a + 2) ~= 0xFFFF do
    w16(a, 0xFFFF)
    a = a + 6
  end
end

local function setup()
  clear_objects()
  -- stage: clear the foreground half of the 16 layout rows, then chunks and layout bytes
  for row = 0, 15 do zero_range(S.Level_Layout + row * 0x100, S.Level_Layout + row * 0x100 + 0x80) end
  for _, c in ipairs(cfg.chunks) do
    local base = S.Chunk_Table + c.id * 0x80
    for i = 1, 64 do w16(base + (i - 1) * 2, c.words[i]) end
  end
  for _, l in ipairs(cfg.layout) do w8(S.Level_Layout + l[1], l[2]) end
  place_sonic()
end

-- Sonic standing at the scenario's start, and the globals, as the flat stages write them
function place_sonic()
  local function o8(off, v) w8(obj + off, v) end
  local function o16(off, v) w16(obj + off, v) end
  o8(S.routine, 2)
  o8(S.status, cfg.sonic.left and 1 or 0)
  o8(S.angle, 0)
  o16(S.x_pos, cfg.sonic.x); o16(S.x_pos + 2, 0)
  o16(S.y_pos, cfg.sonic.y); o16(S.y_pos + 2, 0)
  o16(S.x_vel, 0); o16(S.y_vel, 0); o16(S.inertia, 0)
  o8(S.y_radius, 0x13); o8(S.x_radius, 9)
  o8(S.anim, 5); o8(S.prev_anim, 5); o8(S.anim_frame, 0); o8(S.anim_frame_duration, 0)
  o8(S.flip_angle, 0); o8(S.air_left, 0x1E); o8(S.flip_turned, 0); o8(S.obj_control, 0)
  o8(S.status_secondary, 0); o8(S.flips_remaining, 0); o8(S.flip_speed, 4)
  o16(S.move_lock, 0)
  o16(S.invulnerable_time, 0); o16(S.invincibility_time, 0); o16(S.speedshoes_time, 0)
  o8(S.next_tilt, 0xFF); o8(S.tilt, 0xFF); o8(S.stick_to_convex, 0)
  o8(S.spindash_flag, 0); o16(S.spindash_counter, 0)
  o8(S.jumping, 0); o8(S.interact, 0)
  o8(S.top_solid_bit, 0x0C); o8(S.lrb_solid_bit, 0x0D)
  -- globals
  w8(S.Primary_Angle, 0xFF); w8(S.Secondary_Angle, 0xFF)
  w16(S.Sonic_Look_delay_counter, 0)
  w16(S.Camera_Y_pos_bias, 0x60)
  w16(S.Sonic_top_speed, 0x600); w16(S.Sonic_acceleration, 0xC); w16(S.Sonic_deceleration, 0x80)
  w32(S.Timer, 0)
  w32(S.Camera_X_pos, clamp(cfg.sonic.x - 0xA0, 0, 0x29A0) << 16)
  w32(S.Camera_Y_pos, clamp(cfg.sonic.y - 0x60, 0, 0x320) << 16)
end

-- the act's boundaries: Camera_Min_X_pos, Camera_Max_X_pos, Camera_Min_Y_pos, Camera_Max_Y_pos
local function bounds()
  return { r16(S.Camera_Min_X_pos), r16(S.Camera_Max_X_pos), r16(S.Camera_Min_Y_pos), r16(S.Camera_Max_Y_pos) }
end
local start_bounds = nil

-- terrain scenarios (terrain-format.md §2, s2harness game/terrain.rs run_terrain): the act's own terrain
-- kept; objects and rings removed; the object manager restarted (Obj_placement_routine 0: ObjectsManager_Init
-- loads what lies around the camera at the end of frame 0); Sonic placed, with the scenario's speeds and
-- in_air; the camera on him, clamped to the act's boundaries
local function setup_terrain()
  clear_objects()
  w8(S.Obj_placement_routine, 0)
  place_sonic()
  w16(obj + S.x_vel, T.x_vel & 0xFFFF); w16(obj + S.y_vel, T.y_vel & 0xFFFF)
  w16(obj + S.inertia, T.inertia & 0xFFFF)
  if T.air then w8(obj + S.status, r8(obj + S.status) | 2) end
  start_bounds = bounds()
  local b = start_bounds
  w32(S.Camera_X_pos, clamp(cfg.sonic.x - 0xA0, b[1], b[2]) << 16)
  w32(S.Camera_Y_pos, clamp(cfg.sonic.y - 0x60, b[3], b[4]) << 16)
end

-- every freshly loaded dynamic object other than a path swapper (object $03) is deleted before it runs
local function keep_only_swappers()
  for slot = S.Dynamic_Object_RAM, S.Dynamic_Object_RAM_End - 1, 0x40 do
    local id = r8(slot)
    if id ~= 0 and id ~= 3 then zero_range(slot, slot + 0x40) end
  end
end

-- a measurement's writes (in order) and objects, after Sonic is placed (s2harness game/measure.rs
-- run_measurement, place_objects): each object goes into the next slot of Dynamic_Object_RAM whose id
-- is 0 (the free slots are found before any is filled), with id, subtype, x_pos, y_pos, and the flips
-- (flip_x | flip_y << 1) in render_flags and status
local function apply_setup()
  for _, w in ipairs(SETUP.writes) do
    if w[2] == 1 then w8(w[1], w[3]) elseif w[2] == 2 then w16(w[1], w[3]) else w32(w[1], w[3]) end
  end
  if #SETUP.objects == 0 then return end
  local free = {}
  for slot = S.Dynamic_Object_RAM, S.Dynamic_Object_RAM_End - 1, 0x40 do
    if r8(slot) == 0 then free[#free + 1] = slot end
  end
  for i, o in ipairs(SETUP.objects) do
    local slot = free[i]
    if not slot then error(string.format("objects[%d]: no free object slot left", i - 1)) end
    w8(slot + S.id, o.id)
    w8(slot + S.subtype, o.subtype)
    w16(slot + S.x_pos, o.x)
    w16(slot + S.y_pos, o.y)
    w8(slot + S.render_flags, o.flips)
    w8(slot + S.status, o.flips)
  end
end

-- per-frame checks (traces/README.md step 3)
local function check(k, prev_lfc, prev_vrc)
  local lfc, vrc = r16(S.Level_frame_counter), r32(S.Vint_runcount)
  if lfc ~= (prev_lfc + 1) & 0xFFFF then
    return string.format("Level_frame_counter %d after %d (lag)", lfc, prev_lfc)
  end
  if vrc ~= (prev_vrc + 1) & 0xFFFFFFFF then
    return string.format("Vint_runcount %d after %d (lag)", vrc, prev_vrc)
  end
  local held = cfg.held[k + 1]
  local before = (k > 0) and cfg.held[k] or 0
  local want = (held << 8) | (held & ~before & 0xFF)
  local got = r16(S.Ctrl_1_Logical)
  if got ~= want then
    return string.format("Ctrl_1_Logical $%04X, script wants $%04X", got, want)
  end
  local flags
  if SETUP then
    -- a measurement keeps only measure.rs check_measured_frame's flags (bytes, as it reads them)
    flags = { { "Debug_placement_mode", r8(S.Debug_placement_mode) }, { "Game_paused", r8(S.Game_paused) } }
  else
    flags = {
      { "Current_Boss_ID", r8(S.Current_Boss_ID) }, { "Debug_placement_mode", r16(S.Debug_placement_mode) },
      { "Game_paused", r16(S.Game_paused) }, { "Water_flag", r8(S.Water_flag) },
      { "Control_Locked", r8(S.Control_Locked) }, { "Ring_count", r16(S.Ring_count) },
    }
  end
  for _, fl in ipairs(flags) do
    if fl[2] ~= 0 then return string.format("%s = %d", fl[1], fl[2]) end
  end
  local gm = r8(S.Game_Mode)
  if gm ~= S.GameModeID_Level then return string.format("Game_Mode $%02X", gm) end
  return nil, lfc, vrc
end

-- run ------------------------------------------------------------------------------------------------------
local N = #cfg.held
local lines = {}        -- frame lines
local initial = nil
local initial_watch = nil
local phase = "boot"    -- boot -> level -> run -> done
local k = -1            -- frames recorded so far - 1
local prev_lfc, prev_vrc
local stop = nil
local boot_frames = 0
local start_pressed_at = nil
local since_boundary = 0   -- MAME frames since the last boundary, during the run

local function write_trace()
  local header = string.format(
    '{"format":1,"scenario":%s,"source":"%s","rom_sha1":"%s","fields":[%s],"initial":{%s},'
      .. '"frames":%d,"stop":"%s"',
    cfg.scenario_json, cfg.source, cfg.rom_sha1, cfg.fields_json, initial, #lines, stop)
  if SETUP then header = header .. string.format(',"initial_watch":{%s}', initial_watch) end
  if T then
    header = header .. "}"
  else
    header = header .. string.format(',"floor_x":[%d, %d]}', cfg.floor_lo, cfg.floor_hi)
  end
  local f = assert(io.open(cfg.out_path, "w"))
  f:write(header, "\n")
  for _, l in ipairs(lines) do f:write(l, "\n") end
  f:close()
end

local act_seen_restart, act_ready_at = false, nil
local act2_loaded = false  -- a measurement in act 2: the act has restarted, its own boundaries count
local act_frames = 0     -- MAME frames in the act-2 load (phase "act")
local act_settled = 0    -- boundaries seen once act 2 has settled (phase "act2")

local function start_run(lfc)
  if r8(S.Level_started_flag) ~= 1 or r8(S.Control_Locked) ~= 0 then
    return fail("no control at Level_frame_counter " .. lfc)
  end
  if r16(S.Ctrl_1_Logical) ~= 0 then return fail("pad not idle before the run") end
  if SETUP and T and r16(S.Current_ZoneAndAct) ~= T.act then return fail("the game is not in act " .. (T.act + 1)) end
  if T then setup_terrain() else setup() end
  if SETUP then apply_setup() end
  initial = sample_json()
  initial_watch = watch_json()
  prev_lfc, prev_vrc = lfc, r32(S.Vint_runcount)
  set_pad(N > 1 and cfg.held[2] or 0)          -- script frame 1
  phase = "run"
  if N == 0 then stop = "end"; write_trace(); phase = "done"; finish("ok") end
end

local function boundary()
  if phase == "act" then return end
  if phase == "act2" then
    -- act 2 has loaded and settled: one boundary to set frame 0's pad, the next is the setup
    act_settled = act_settled + 1
    if act_settled == 1 then
      set_pad(N > 0 and cfg.held[1] or 0)
    else
      return start_run(r16(S.Level_frame_counter))
    end
    return
  end
  if phase == "level" then
    if r8(S.Game_Mode) ~= S.GameModeID_Level then return end
    local lfc = r16(S.Level_frame_counter)
    if T and T.act == 1 and not act2_loaded and lfc == cfg.start_lfc then
      -- Emerald Hill 2, as s2harness Game::in_act loads it: at a frame boundary the act goes into
      -- Current_ZoneAndAct and Level_Inactive_flag is set, so Level_MainLoop restarts Level
      w16(S.Current_ZoneAndAct, 1)
      w8(S.Last_star_pole_hit, 0)
      w16(S.Level_Inactive_flag, 1)
      phase = "act"
      return
    end
    if T and T.act == 1 and not act2_loaded then return end
    if lfc == cfg.start_lfc - 1 then
      set_pad(N > 0 and cfg.held[1] or 0)          -- script frame 0, one boundary early
    elseif lfc == cfg.start_lfc then
      return start_run(lfc)
    elseif lfc > cfg.start_lfc then
      return fail("missed the start boundary")
    end
  elseif phase == "run" then
    since_boundary = 0
    k = k + 1
    if T then keep_only_swappers() end
    local err, lfc, vrc = check(k, prev_lfc, prev_vrc)
    if err then return fail(string.format("frame %d: %s", k, err)) end
    prev_lfc, prev_vrc = lfc, vrc
    lines[#lines + 1] = string.format('{"frame":%d,"input":"%s",%s}', k, cfg.inputs[k + 1], sample_json())
    local x = r16(obj + S.x_pos)
    if r8(obj + S.routine) == 6 then
      stop = "dead"
    elseif T and x >= T.event_line then
      stop = "event_line"
    elseif T and SETUP then
      -- a measurement on terrain (measure.rs): stops dead, event_line, end; no boundary check
      if k == N - 1 then stop = "end" end
    elseif T then
      local b = bounds()
      for i = 1, 4 do
        if b[i] ~= start_bounds[i] then
          return fail(string.format("frame %d: a level event moved the act's boundaries", k))
        end
      end
      if k == N - 1 then stop = "end" end
    elseif (cfg.floor_lo > 0 and x < cfg.floor_lo + 160) or x > cfg.floor_hi - 160 then
      stop = "floor_end"
    elseif k == N - 1 then
      stop = "end"
    end
    if stop then
      set_pad(0)
      phase = "done"
      write_trace()
      return finish("ok")
    end
    set_pad(cfg.held[k + 3] or 0)                  -- script frame k+2, one boundary early
  end
end

s2trace_tap = space:install_write_tap(S.Vint_routine, S.Vint_routine | 1, "s2trace_vint", function(offset, data, mask)
  if finished then return end
  -- byte write to the even address: the value is in the high byte lane
  local v
  if S.Vint_routine & 1 == 0 then
    if mask & 0xFF00 == 0 then return end
    v = (data >> 8) & 0xFF
  else
    if mask & 0x00FF == 0 then return end
    v = data & 0xFF
  end
  if v == S.VintID_Level then
    local ok, err = pcall(boundary)
    if not ok then fail("lua error: " .. tostring(err)) end
  end
end)

-- boot: SEGA screen, title screen (Sonic alone), Start -------------------------------------------------
local machine_frames = 0
emu.register_frame_done(function()
  if finished then return end
  machine_frames = machine_frames + 1
  -- watchdog: boot takes about 1,100 frames, the run one frame per script frame
  if machine_frames > cfg.boot_timeout + N + 600 then
    return fail(string.format("watchdog: no result after %d MAME frames (phase %s, frame %d)",
                              machine_frames, phase, k))
  end
  if phase == "run" then
    -- a level frame is one MAME frame; no boundary for several frames means lag, pause or a stopped game
    since_boundary = since_boundary + 1
    if since_boundary > 3 then
      return fail(string.format("frame %d: no frame boundary for %d MAME frames (Game_Mode $%02X, Game_paused %d)",
                                k + 1, since_boundary, r8(S.Game_Mode), r16(S.Game_paused)))
    end
  end
  if phase == "act" then
    -- s2harness Game::in_act: the level restarts (Level_started_flag 0), then runs until it has started
    -- and Sonic has control, then 30 more frames
    act_frames = act_frames + 1
    if act_frames > cfg.boot_timeout then return fail("act 2 did not load") end
    if not act_seen_restart then
      if r8(S.Level_started_flag) == 0 then
        act_seen_restart = true
        if SETUP then
          -- a measurement starts at act 2's B_0 (s2harness Game::in_act): from here act 2's boundaries
          -- are counted in phase "level" as act 1's are (pad at start_lfc - 1, setup at start_lfc)
          act2_loaded = true
          phase = "level"
        end
      end
    elseif not act_ready_at then
      if r8(S.Game_Mode) == S.GameModeID_Level and r8(S.Level_started_flag) == 1 and r8(S.Control_Locked) == 0 then
        act_ready_at = act_frames
      end
    elseif act_frames >= act_ready_at + 30 then
      if r16(S.Current_ZoneAndAct) ~= 1 then return fail("the game is not in act 2 after loading it") end
      phase = "act2"
    end
    return
  end
  if phase ~= "boot" then return end
  boot_frames = boot_frames + 1
  if boot_frames > cfg.boot_timeout then return fail("boot: no level after " .. boot_frames .. " frames") end
  local gm = r8(S.Game_Mode)
  if start_pressed_at then
    if boot_frames == start_pressed_at + 1 then set_pad(0) end
    if gm == S.GameModeID_Level and boot_frames > start_pressed_at + 1 then phase = "level" end
  elseif gm == S.GameModeID_TitleScreen then
    w16(S.Player_option, 1)
    w8(S.Title_screen_option, 0)
    if r8(S.IntroSonic + 0x2F) ~= 0 then
      set_pad(0x80)
      start_pressed_at = boot_frames
    end
  end
end)

set_pad(0)
