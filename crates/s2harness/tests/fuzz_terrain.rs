//! `s2lab fuzz --kind terrain`: a short campaign on Emerald Hill's own acts finds no divergence
//! between the model on the act's terrain and the game, and a seed gives the same scenarios
//! again, whatever the thread count (ROM-gated).

mod common;

use s2harness::fuzz::terrain::{TerrainActs, TerrainVerdict, run_terrain_campaign, scenario};
use s2harness::fuzz::{FuzzConfig, Kind};
use s2harness::game::Game;
use s2harness::store;

#[test]
fn a_short_terrain_campaign_agrees_and_a_seed_repeats_it() {
    let roms = common::available_roms();
    let Some((path, _)) = roms.iter().find(|(_, k)| k.id == "revb").or(roms.first()) else {
        println!(
            "{}",
            common::skip_message("a_short_terrain_campaign_agrees_and_a_seed_repeats_it")
        );
        return;
    };
    let rom = store::read_rom(path).unwrap();
    let acts = TerrainActs::prepare(&Game::boot(&rom).unwrap(), &rom).unwrap();
    let mut cfg = FuzzConfig::new(1, Some(6));
    cfg.kinds = vec![Kind::Terrain];
    let campaign = run_terrain_campaign(&acts, &cfg, &|_| {});
    assert_eq!(campaign.runs.len(), 6);
    let bad: Vec<String> = campaign
        .runs
        .iter()
        .filter(|r| !matches!(r.verdict, TerrainVerdict::Identical))
        .map(|r| format!("{}: {:?}", r.scenario.name, r.record().failure))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    println!(
        "{} terrain runs, {} frames, all equal",
        campaign.runs.len(),
        campaign.frames
    );
    // Both acts are drawn, and the campaign's scenarios are the seed's, on one thread too.
    let acts_seen: std::collections::BTreeSet<u8> =
        campaign.runs.iter().map(|r| r.scenario.act).collect();
    assert_eq!(acts_seen.len(), 2, "acts drawn: {acts_seen:?}");
    cfg.threads = 1;
    let again = run_terrain_campaign(&acts, &cfg, &|_| {});
    for (a, b) in campaign.runs.iter().zip(&again.runs) {
        assert_eq!(a.scenario, b.scenario);
        assert_eq!(a.scenario, scenario(1, a.index, &acts));
    }
    assert_ne!(scenario(2, 0, &acts), scenario(1, 0, &acts));
}
