//! Othello perft: the bitboard move generator against published counts and against a plain square-by-square
//! implementation on the 6x6 and 10x10 boards.

use tabula_core::{Game, Player};
use tabula_games::othello::{Othello, notation};

/// The published counts from `shared/data/othello-perft.txt`, as (depth, leaves).
fn published_counts() -> Vec<(u32, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/othello-perft.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut fields = l.split_whitespace();
            let depth = fields.next().and_then(|d| d.parse().ok()).expect("depth");
            let leaves = fields.next().and_then(|d| d.parse().ok()).expect("leaves");
            (depth, leaves)
        })
        .collect()
}

#[test]
fn perft_from_the_start_matches_the_published_counts_to_depth_9() {
    let game = Othello::default();
    let start = game.initial_state();
    let counts = published_counts();
    assert!(counts.len() >= 9, "the data file lists depths 1-9 at least");
    for &(depth, leaves) in counts.iter().filter(|(d, _)| *d <= 9) {
        assert_eq!(game.perft(&start, depth), leaves, "perft({depth})");
    }
}

#[test]
fn generic_perft_agrees_with_the_bitboard_fast_path() {
    let game = Othello::default();
    let start = game.initial_state();
    let counts = published_counts();
    for &(depth, leaves) in counts.iter().filter(|(d, _)| *d <= 6) {
        let generic = Othello::from_rule_set("othello").expect("rule set");
        // Through the Game trait one ply down, then summed: exercises make/unmake and pass handling.
        let mut moves = Vec::new();
        generic.legal_moves(&start, &mut moves);
        let mut total = 0;
        for mv in moves {
            let mut s = start.clone();
            generic.make(&mut s, mv);
            total += generic.perft(&s, depth - 1);
        }
        assert_eq!(total, leaves, "perft({depth}) via make");
    }
    assert_eq!(game.perft(&start, 0), 1);
}

#[test]
fn a_finished_position_counts_one_leaf_at_every_depth() {
    let game = Othello::default();
    // A wipe-out: Black only, White to move.
    let board = format!("{}{} O", "X".repeat(20), "-".repeat(44));
    let pos = notation::parse_board(&game, &board).expect("valid board");
    assert!(game.outcome(&pos).is_some());
    // A full board.
    let full = notation::parse_board(&game, &format!("{}{} X", "X".repeat(40), "O".repeat(24))).expect("full");
    for depth in 0..6 {
        assert_eq!(game.perft(&pos, depth), 1);
        assert_eq!(game.perft(&full, depth), 1);
    }
}

/// A plain Othello on an array of cells, independent of the bitboards: for cross-checking other board sizes.
struct Plain {
    n: i32,
}

impl Plain {
    fn flips(&self, cells: &[Option<Player>], me: Player, x: i32, y: i32) -> Vec<usize> {
        let mut all = Vec::new();
        if cells[(y * self.n + x) as usize].is_some() {
            return all;
        }
        for dy in -1..=1 {
            for dx in -1..=1 {
                if (dx, dy) == (0, 0) {
                    continue;
                }
                let mut run = Vec::new();
                let (mut cx, mut cy) = (x + dx, y + dy);
                while cx >= 0 && cy >= 0 && cx < self.n && cy < self.n {
                    let i = (cy * self.n + cx) as usize;
                    match cells[i] {
                        Some(p) if p == me => {
                            all.extend(run.iter().copied());
                            break;
                        }
                        Some(_) => run.push(i),
                        None => break,
                    }
                    cx += dx;
                    cy += dy;
                }
            }
        }
        all
    }

    fn moves(&self, cells: &[Option<Player>], me: Player) -> Vec<(i32, i32, Vec<usize>)> {
        let mut list = Vec::new();
        for y in 0..self.n {
            for x in 0..self.n {
                let f = self.flips(cells, me, x, y);
                if !f.is_empty() {
                    list.push((x, y, f));
                }
            }
        }
        list
    }

    fn perft(&self, cells: &mut Vec<Option<Player>>, me: Player, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.moves(cells, me);
        if moves.is_empty() {
            if self.moves(cells, me.opponent()).is_empty() {
                return 1;
            }
            return self.perft(cells, me.opponent(), depth - 1);
        }
        let mut total = 0;
        for (x, y, f) in moves {
            let before = cells.clone();
            cells[(y * self.n + x) as usize] = Some(me);
            for i in f {
                cells[i] = Some(me);
            }
            total += self.perft(cells, me.opponent(), depth - 1);
            *cells = before;
        }
        total
    }

    fn start(&self) -> Vec<Option<Player>> {
        let n = self.n;
        let c = n / 2;
        let mut cells = vec![None; (n * n) as usize];
        cells[((c - 1) * n + c - 1) as usize] = Some(Player::Second);
        cells[(c * n + c) as usize] = Some(Player::Second);
        cells[((c - 1) * n + c) as usize] = Some(Player::First);
        cells[(c * n + c - 1) as usize] = Some(Player::First);
        cells
    }
}

#[test]
fn six_by_six_and_ten_by_ten_perft_agree_with_a_plain_implementation() {
    for (set, n, depth) in [("othello-6x6", 6, 8), ("grand-othello", 10, 6), ("othello", 8, 6)] {
        let game = Othello::from_rule_set(set).expect("rule set");
        let plain = Plain { n };
        let start = game.initial_state();
        for d in 1..=depth {
            let expected = plain.perft(&mut plain.start(), Player::First, d);
            assert_eq!(game.perft(&start, d), expected, "{set} perft({d})");
        }
    }
}
