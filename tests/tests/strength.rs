//! A stronger level beats a weaker one over a short series of colour-swapped games: the levels mean something.

use std::sync::atomic::AtomicBool;

use tabula_games::arena::{Contender, SeriesConfig, SeriesSummary, run_series};
use tabula_games::{BoardGame, GameKind, GameVisitor, MatchSpec, config};

struct Series(SeriesConfig);

impl GameVisitor for Series {
    type Output = SeriesSummary;
    fn visit<G: BoardGame>(self, game: G) -> SeriesSummary {
        run_series(&game, &self.0, &AtomicBool::new(false), &|_, _| {})
    }
}

fn series(spec: MatchSpec, strong: &str, weak: &str, opening_plies: usize) -> SeriesSummary {
    let levels = config::default_levels();
    let config = SeriesConfig {
        openings: 4,
        balanced: false,
        opening_plies,
        players: [strong, weak].map(|name| Contender::Level(levels.get(name).expect("level").clone())),
        seed: 11,
        threads: 2,
        table_megabytes: 4,
        shard: None,
    };
    spec.visit(Series(config)).expect("rule set")
}

#[test]
fn medium_beats_beginner_at_othello_6x6() {
    let spec = MatchSpec { game: GameKind::Othello, rule_set: "othello-6x6".into(), board_size: None };
    let s = series(spec, "Medium", "Beginner", 2);
    assert_eq!(s.games, 8);
    let (score, _) = s.level_a_score();
    assert!(score > 0.6, "Medium scored only {score} against Beginner: {s:?}");
}

#[test]
fn easy_beats_beginner_at_gomoku_9x9() {
    let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: Some(9) };
    let s = series(spec, "Easy", "Beginner", 2);
    assert_eq!(s.games, 8);
    let (score, _) = s.level_a_score();
    assert!(score > 0.6, "Easy scored only {score} against Beginner: {s:?}");
}
