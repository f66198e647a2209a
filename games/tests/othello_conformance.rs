//! Conformance over random playouts for every Othello rule set: make/unmake, the incremental hash, legal moves,
//! move reports and outcomes must agree with each other and with a fresh look at the board.

use std::collections::BTreeSet;

use tabula_core::{Game, GameResult, Player};
use tabula_games::othello::{Move, Othello, variants};
use tabula_games::{BoardGame, Cell};

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn board_cells(game: &Othello) -> Vec<Cell> {
    let (w, h) = game.board_size();
    (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).collect()
}

fn playout(game: &Othello, rng: &mut Rng, cells: &[Cell]) {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    loop {
        assert_eq!(game.hash(&state), game.recompute_hash(&state), "incremental hash drifted");
        moves.clear();
        game.legal_moves(&state, &mut moves);
        let outcome = game.outcome(&state);
        assert_eq!(outcome, game.outcome(&state), "outcome is stable");
        let Some(outcome) = outcome else {
            assert!(!moves.is_empty(), "a live state has a legal move");
            assert!(game.end_reason(&state).is_none());
            let markers: BTreeSet<Cell> = game.markers(&state).into_iter().map(|(c, _)| c).collect();
            let placements: BTreeSet<Cell> = moves.iter().filter_map(|&m| game.cell_of(m)).collect();
            assert_eq!(markers, placements, "markers are the legal placements");
            assert_eq!(game.pass_move(&state).is_some(), moves == [Move::PASS]);
            let mv = moves[rng.below(moves.len())];
            check_move(game, &mut state, mv, cells);
            continue;
        };
        assert!(moves.is_empty(), "a finished game has no moves");
        assert!(game.end_reason(&state).is_some());
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

fn check_move(game: &Othello, state: &mut <Othello as Game>::State, mv: Move, cells: &[Cell]) {
    assert!(game.is_legal(state, mv));
    let text = game.format_move(mv);
    assert_eq!(game.parse_move(state, &text), Ok(mv), "{text} reads back");
    if let Some(cell) = game.cell_of(mv) {
        assert_eq!(game.move_at(state, cell), Ok(mv));
    }
    let before = state.clone();
    let mover = game.side_to_move(state);
    let report = game.describe_move(&before, mv);
    let undo = game.make(state, mv);
    assert_ne!(game.side_to_move(state), mover);
    assert_eq!(game.hash(state), game.recompute_hash(state), "hash after {text}");

    let changed: BTreeSet<Cell> =
        cells.iter().copied().filter(|&c| game.stone(&before, c) != game.stone(state, c)).collect();
    let mut reported: BTreeSet<Cell> = report.flipped.iter().copied().collect();
    assert_eq!(reported.len(), report.flipped.len(), "no flip reported twice");
    assert_eq!(report.player, Some(mover));
    assert_eq!(report.placed, game.cell_of(mv));
    for &c in &report.flipped {
        assert_eq!(game.stone(&before, c), Some(mover.opponent()));
        assert_eq!(game.stone(state, c), Some(mover));
    }
    if let Some(p) = report.placed {
        reported.insert(p);
        assert_eq!(game.stone(state, p), Some(mover));
        let distances: Vec<usize> = report.flipped.iter().map(|c| c.x.abs_diff(p.x).max(c.y.abs_diff(p.y))).collect();
        assert!(distances.windows(2).all(|w| w[0] <= w[1]), "flips ordered outward: {distances:?}");
    }
    assert_eq!(changed, reported, "reported changes are exactly the changed squares after {text}");

    let after = state.clone();
    game.unmake(state, mv, undo);
    assert_eq!(*state, before, "unmake(make(s)) == s after {text}");
    game.make(state, mv);
    assert_eq!(*state, after);
}

#[test]
fn random_playouts_conform_for_every_rule_set() {
    let mut rng = Rng(0x0DDB_1A5E_5BAD_5EED);
    for set in variants::rule_sets() {
        let game = Othello::from_rule_set(set.id).expect("rule set");
        let cells = board_cells(&game);
        let games = if game.size() == 10 { 300 } else { 1000 };
        for _ in 0..games {
            playout(&game, &mut rng, &cells);
        }
    }
}

#[test]
fn illegal_clicks_say_why() {
    let game = Othello::default();
    let start = game.initial_state();
    assert_eq!(game.move_at(&start, Cell::new(3, 3)), Err("occupied".to_string()));
    assert_eq!(game.move_at(&start, Cell::new(0, 0)), Err("no discs to flip".to_string()));
    assert_eq!(game.move_at(&start, Cell::new(8, 0)), Err("outside the board".to_string()));
    assert!(game.move_at(&start, Cell::new(5, 4)).is_ok(), "f5 is legal");
    assert!(game.pass_move(&start).is_none());
    let free = Othello::from_rule_set("reversi").expect("rule set");
    let empty = free.initial_state();
    assert!(free.move_at(&empty, Cell::new(0, 0)).unwrap_err().contains("centre"));
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
