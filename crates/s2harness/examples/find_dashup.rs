use s2harness::store;
use s2harness::terrain_run::move_jobs;
use s2model::terrain_scenario::run_terrain_scenario;
fn main() {
    let rom = store::read_rom(std::path::Path::new("/root/roms/s2-revb.bin")).unwrap();
    let field = |n: &str| s2model::state::FIELDS.iter().position(|f| *f == n).unwrap();
    let (angle, status, xv, inertia) = (
        field("angle"),
        field("status"),
        field("x_vel"),
        field("inertia"),
    );
    for act in 0..2u8 {
        let t = s2harness::terrain_cache::terrain_for(&rom, act).unwrap();
        for j in move_jobs(&t) {
            if !j.scenario.name.contains("dashup") {
                continue;
            }
            let m = run_terrain_scenario(&j.scenario, &t);
            let mut up = 0;
            let mut maxa = 0u8;
            for f in &m.frames {
                if f.values[status] & 2 != 0 {
                    continue;
                }
                let a = f.values[angle] as u8;
                let right = f.values[xv] > 0;
                let uphill = if right {
                    (0xC8..=0xF4).contains(&a)
                } else {
                    (0x0C..=0x38).contains(&a)
                };
                if uphill && f.values[inertia].abs() > 0x400 {
                    up += 1;
                    maxa = maxa.max(if right { a.wrapping_neg() } else { a });
                }
            }
            if up > 15 {
                println!(
                    "{} up {} steepest {:#x}: {}",
                    j.scenario.name,
                    up,
                    maxa,
                    j.scenario.to_json()
                );
            }
        }
    }
}
