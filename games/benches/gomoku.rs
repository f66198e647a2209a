//! Gomoku engine speed: `cargo bench -p tabula-games --bench gomoku`. Prints, per rule, the nodes per second and the
//! depth reached in one second on fixed midgame positions, then the time of the VCF check on the shared puzzles.

use std::time::Instant;

use tabula_core::{Game, Searcher};
use tabula_games::gomoku::datasets::VcfPuzzle;
use tabula_games::gomoku::notation::parse_moves;
use tabula_games::gomoku::{Gomoku, GomokuEvaluator, WinRule};

/// Midgame openings (15 x 15), playable under every rule.
const POSITIONS: [&str; 3] = [
    "h8 i9 h10 i8 j9 g7 h6 h9",
    "h8 h7 i7 g9 j8 j6 g8 k9 i9 f8",
    "h8 i7 g7 i9 i8 j8 g9 g8 f8 h10 e9 d10 f10 f9 e11 d12",
];

fn main() {
    let levels = tabula_games::config::default_levels();
    let expert = levels.get("Expert").expect("the default configuration has Expert");
    println!(
        "search at the Expert level ({}: depth {}, {} ms)",
        expert.name,
        expert.depth,
        expert.time_ms.unwrap_or(0)
    );
    let mut signature = 0u64;
    for rule in WinRule::ALL {
        let game = Gomoku::new(15, rule).expect("rules");
        for (i, text) in POSITIONS.iter().enumerate() {
            let (_, state) = parse_moves(&game, text).expect("valid position");
            let mut searcher = Searcher::new(&game, 64);
            let limits = expert.limits();
            let result = searcher.search(&game, &GomokuEvaluator, &state, &limits, &expert.options(0), &mut |_| {});
            let nps = result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-9);
            let best = result.best_move.map_or_else(|| "-".to_string(), |m| game.format_move(m));
            signature = signature.rotate_left(7) ^ result.nodes;
            println!(
                "{:<10} position {} depth {:>2} nodes {:>9} {:>9.0} nodes/s {:>6.3} s best {best} score {}",
                rule.id(),
                i + 1,
                result.depth,
                result.nodes,
                nps,
                result.elapsed.as_secs_f64(),
                tabula_core::score::format_score(result.score)
            );
        }
    }
    println!("signature {signature:016x}");

    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/vcf-puzzles.tsv"))
        .expect("shared puzzles");
    let start = Instant::now();
    let (mut passed, mut total, mut nodes) = (0, 0, 0);
    for line in text.lines() {
        if let Ok(Some(puzzle)) = VcfPuzzle::parse(line) {
            let check = puzzle.check();
            total += 1;
            nodes += check.nodes;
            passed += usize::from(check.verdict.is_ok());
        }
    }
    println!("check-vcf: {passed}/{total} puzzles in {:.3} s, {nodes} nodes", start.elapsed().as_secs_f64());
}
