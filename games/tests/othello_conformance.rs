//! What the generic conformance test (`tests/tests/conformance.rs`) cannot know about Othello, over random playouts
//! of every rule set: the legal-move markers, the order of the flips, the final score under each goal, and how
//! search scores read.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use tabula_core::random::{self, SeededRng};
use tabula_core::{Game, GameResult, Player};
use tabula_games::othello::{Othello, variants};
use tabula_games::{BoardGame, Cell, MoveError};

fn playout(game: &Othello, rng: &mut SeededRng) {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    loop {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        let Some(outcome) = game.outcome(&state) else {
            let markers: BTreeSet<Cell> = game.markers(&state).into_iter().map(|(c, _)| c).collect();
            let placements: BTreeSet<Cell> = moves.iter().filter_map(|&m| game.cell_of(m)).collect();
            assert_eq!(markers, placements, "markers are the legal placements");
            let mv = *moves.choose(rng).expect("a live state has a legal move");
            let report = game.describe_move(&state, mv);
            if let Some(p) = report.placed {
                let distances: Vec<usize> =
                    report.flipped.iter().map(|c| c.x.abs_diff(p.x).max(c.y.abs_diff(p.y))).collect();
                assert!(distances.windows(2).all(|w| w[0] <= w[1]), "flips ordered outward: {distances:?}");
            }
            game.make(&mut state, mv);
            continue;
        };
        let (black, white) = (state.discs(Player::First).count_ones(), state.discs(Player::Second).count_ones());
        let margin = outcome.margin.expect("Othello keeps score");
        match outcome.result {
            GameResult::Draw => assert_eq!((black, margin), (white, 0)),
            GameResult::Win(w) => {
                let (mine, theirs) = if w == Player::First { (black, white) } else { (white, black) };
                assert!(margin > 0);
                match game.rules().goal {
                    variants::Goal::MostDiscs => assert!(mine > theirs),
                    variants::Goal::FewestDiscs => assert!(mine < theirs),
                }
                let empties = game.empties(&state) as i32;
                assert_eq!(margin, (mine as i32 - theirs as i32).abs() + empties, "empties go to the winner");
            }
        }
        return;
    }
}

#[test]
fn random_playouts_mark_flip_and_score_as_the_rules_say() {
    let mut rng = random::seeded(0x0DDB_1A5E_5BAD_5EED);
    for set in variants::rule_sets() {
        let game = Othello::from_rule_set(set.id).expect("rule set");
        let games = if game.size() == 10 { 300 } else { 1000 };
        for _ in 0..games {
            playout(&game, &mut rng);
        }
    }
}

#[test]
fn illegal_clicks_say_why() {
    let game = Othello::default();
    let start = game.initial_state();
    assert_eq!(game.move_at(&start, Cell::new(3, 3)), Err(MoveError::Illegal("occupied".into())));
    assert_eq!(game.move_at(&start, Cell::new(0, 0)), Err(MoveError::Illegal("no discs to flip".into())));
    assert_eq!(game.move_at(&start, Cell::new(8, 0)), Err(MoveError::OffBoard));
    assert!(game.move_at(&start, Cell::new(5, 4)).is_ok(), "f5 is legal");
    assert!(game.pass_move(&start).is_none());
    let free = Othello::from_rule_set("reversi").expect("rule set");
    let empty = free.initial_state();
    assert!(free.move_at(&empty, Cell::new(0, 0)).unwrap_err().to_string().contains("centre"));
    let mut moves = Vec::new();
    free.legal_moves(&empty, &mut moves);
    assert_eq!(moves.len(), 4, "the free start offers the four centre squares");
}

#[test]
fn end_reasons_name_how_the_game_ended() {
    use tabula_games::othello::notation::parse_board;
    let game = Othello::default();
    let wipe = parse_board(&game, &format!("{}{} O", "X".repeat(5), "-".repeat(59))).expect("board");
    assert_eq!(game.end_reason(&wipe).as_deref(), Some("wipe-out"));
    let full = parse_board(&game, &format!("{}{} X", "X".repeat(33), "O".repeat(31))).expect("board");
    assert_eq!(game.end_reason(&full).as_deref(), Some("board full"));
    // Black on a1, White on c1 with b1 between them empty: nobody can flip anything.
    let stuck = parse_board(&game, &format!("X-O{} X", "-".repeat(61))).expect("board");
    assert_eq!(game.end_reason(&stuck).as_deref(), Some("both passed"));
    let outcome = game.outcome(&stuck).expect("over");
    assert_eq!((outcome.result, outcome.margin), (GameResult::Draw, Some(0)));
}

#[test]
fn scores_read_in_discs_where_the_evaluation_counts_discs() {
    let standard = Othello::default();
    assert_eq!(standard.describe_score(80, false), "+0.8 discs", "the learned evaluation, in hundredths of a disc");
    assert_eq!(standard.describe_score(-250, false), "-2.5 discs");
    assert_eq!(standard.describe_score(6, true), "+6 discs", "an exact search's final margin");
    assert_eq!(standard.describe_score(tabula_core::score::mate_in(3), false), "win in 3");
    // 6x6 keeps the hand-set evaluation, whose unit is not a disc.
    let small = Othello::from_rule_set("othello-6x6").expect("rule set");
    assert_eq!(small.describe_score(80, false), "+80");
    assert_eq!(small.describe_score(-4, true), "-4 discs");
}
