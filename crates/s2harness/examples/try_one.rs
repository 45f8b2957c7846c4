fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rom = s2harness::store::read_rom(std::path::Path::new(&args[1])).unwrap();
    let t = std::time::Instant::now();
    let game = s2harness::game::Game::boot(&rom).unwrap();
    eprintln!("booted in {} frames, {:?}", game.boot_frames, t.elapsed());
    for sc_path in &args[2..] {
        let sc = s2model::Scenario::load(std::path::Path::new(sc_path)).unwrap();
        let t = std::time::Instant::now();
        match game.run(&sc) {
            Ok(trace) => {
                let reference = sc_path.replace(".scenario.json", ".trace.jsonl.gz");
                let r = s2model::Trace::read(std::path::Path::new(&reference)).unwrap();
                let d = s2model::diff(&r, &trace);
                eprintln!(
                    "{} frames in {:?}: equal={} {}",
                    trace.frames.len(),
                    t.elapsed(),
                    d.is_equal(),
                    if d.is_equal() {
                        String::new()
                    } else {
                        format!("{d}")
                    }
                );
            }
            Err(e) => eprintln!("{}: {e}", sc.name),
        }
    }
}
