//! Othello notation: transcripts and board strings round-trip, and malformed text gives located errors and never
//! panics.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use tabula_core::{Game, Player, random};
use tabula_games::othello::{Move, Othello, notation, variants};

/// Plays a random game with a fixed seed and returns its moves (passes included).
fn random_game(game: &Othello, seed: u64, max_moves: usize) -> Vec<Move> {
    let mut rng = random::seeded(seed);
    let mut state = game.initial_state();
    let mut played = Vec::new();
    let mut moves = Vec::new();
    while played.len() < max_moves && game.outcome(&state).is_none() {
        moves.clear();
        game.legal_moves(&state, &mut moves);
        let mv = *moves.choose(&mut rng).expect("a live position has a move");
        game.make(&mut state, mv);
        played.push(mv);
    }
    played
}

#[test]
fn transcripts_and_board_strings_round_trip_for_every_rule_set() {
    for set in variants::rule_sets() {
        let game = Othello::from_rule_set(set.id).expect("rule set");
        for seed in 0..100 {
            let moves = random_game(&game, seed, 200);
            let text = notation::format_transcript(&game, &moves);
            let (read, position) = notation::parse_transcript(&game, &text).expect("own transcript reads back");
            assert_eq!(read, moves, "{} transcript {text}", set.id);
            let shouting = notation::parse_transcript(&game, &text.to_uppercase()).expect("any case");
            assert_eq!(shouting.0, moves);
            let board = notation::format_board(&game, &position);
            assert_eq!(notation::parse_board(&game, &board), Ok(position.clone()), "{board}");
        }
    }
}

#[test]
fn transcripts_accept_blanks_and_explicit_passes() {
    let game = Othello::default();
    let (moves, _) = notation::parse_transcript(&game, " F5 d6\tc3 ").expect("valid");
    assert_eq!(moves.len(), 3);
    assert_eq!(game.format_move(moves[0]), "f5");
    // A random game with a pass in it, written with explicit passes.
    let moves = (0..1000).map(|seed| random_game(&game, seed, 200)).find(|m| m.contains(&Move::PASS)).expect("a pass");
    let spaced: Vec<String> = moves.iter().map(|&m| game.format_move(m)).collect();
    let (read, _) = notation::parse_transcript(&game, &spaced.join(" ")).expect("explicit passes");
    assert_eq!(read, moves);
    // Some programs write a pass as `--`.
    let dashed = spaced.iter().map(|m| if m == "pass" { "--" } else { m }).collect::<String>();
    assert_eq!(notation::parse_transcript(&game, &dashed).expect("passes as --").0, moves);
}

#[test]
fn the_ffo_board_string_reads_with_star_and_dot() {
    let game = Othello::default();
    let text = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    let pos = notation::parse_board(&game, text).expect("FFO #40");
    assert_eq!(pos.side(), Player::First);
    assert_eq!(game.empties(&pos), 20);
    let starred = text.replace('X', "*").replace('-', ".");
    let again = notation::parse_board(&game, &starred.replace(" *", " X")).expect("star and dot");
    assert_eq!(again, pos);
    assert_eq!(notation::format_board(&game, &pos), text);
}

#[test]
fn malformed_text_names_the_place() {
    let game = Othello::default();
    let err = notation::parse_transcript(&game, "f5d6z9").expect_err("bad column");
    assert_eq!(err.position, 5, "{err}");
    let err = notation::parse_transcript(&game, "f5 f5").expect_err("occupied");
    assert_eq!(err.position, 4, "{err}");
    assert!(err.message.contains("move 2") && err.message.contains("occupied"), "{err}");
    let err = notation::parse_transcript(&game, "f5a1").expect_err("no flips");
    assert!(err.message.contains("no discs to flip"), "{err}");
    let err = notation::parse_transcript(&game, "f5d9").expect_err("row off the board");
    assert_eq!(err.position, 4, "{err}");
    let err = notation::parse_transcript(&game, "f5d").expect_err("missing row");
    assert_eq!(err.position, 4, "{err}");
    assert!(err.to_string().starts_with("at character 4"), "{err}");

    let good = "-".repeat(27) + "OX" + "------" + "XO" + &"-".repeat(27);
    assert!(notation::parse_board(&game, &format!("{good} X")).is_ok());
    let err = notation::parse_board(&game, &format!("{}Q{} X", &good[..10], &good[11..])).expect_err("bad square");
    assert_eq!(err.position, 11, "{err}");
    assert!(err.message.contains("square 11"), "{err}");
    let err = notation::parse_board(&game, &good[..60]).expect_err("short");
    assert!(err.message.contains("found 60"), "{err}");
    assert!(notation::parse_board(&game, &good).expect_err("no side").message.contains("side to move"));
    let err = notation::parse_board(&game, &format!("{good} Z")).expect_err("bad side");
    assert_eq!(err.position, 66, "{err}");
    let err = notation::parse_board(&game, &format!("{good} X O")).expect_err("trailing");
    assert_eq!(err.position, 68, "{err}");

    assert_eq!(notation::parse_square(8, "PASS"), Ok(Move::PASS));
    assert_eq!(notation::parse_square(10, "j10").map(|m| notation::format_move(10, m)), Ok("j10".to_string()));
    assert!(notation::parse_square(8, "i1").is_err());
    assert!(notation::parse_square(8, "a10").is_err());
    assert!(notation::parse_square(8, "a1x").is_err());
    assert!(game.parse_move(&game.initial_state(), "pass").is_err(), "pass with moves available");
}

proptest! {
    #[test]
    fn random_text_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..120)) {
        let text = String::from_utf8_lossy(&bytes);
        for game in [Othello::default(), Othello::from_rule_set("grand-othello").expect("rule set")] {
            let _ = notation::parse_transcript(&game, &text);
            let _ = notation::parse_board(&game, &text);
            let _ = notation::parse_square(game.size(), &text);
            let _ = game.parse_move(&game.initial_state(), &text);
        }
    }

    #[test]
    fn near_miss_transcripts_never_panic(s in "[a-jA-J0-9 ]{0,40}") {
        let _ = notation::parse_transcript(&Othello::default(), &s);
        let _ = notation::parse_transcript(&Othello::from_rule_set("othello-6x6").expect("rule set"), &s);
    }
}
