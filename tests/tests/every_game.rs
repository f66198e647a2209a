//! Every game and rule set through the one interface the front ends use: random games played by cell, undone to
//! the start, and a computer move, so a game that breaks the shared contract fails here. (The rules' own contract,
//! make and unmake, hashes and legal moves on every board size, is `conformance.rs`'s.)

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::seq::IndexedRandom;
use tabula_core::{GameResult, Player, random};
use tabula_games::{Cell, GameKind, Marker, MatchSpec, config, new_match, swap};
use tabula_tests::rule_sets;

/// Every rule set at its default size, and at its smallest where it offers several.
fn specs() -> Vec<MatchSpec> {
    rule_sets()
        .into_iter()
        .flat_map(|(game, id)| {
            let sizes = game.board_sizes(id);
            let mut chosen = vec![None];
            if sizes.len() > 1 {
                chosen.push(sizes.first().copied());
            }
            chosen.into_iter().map(move |size| MatchSpec { game, rule_set: id.to_string(), board_size: size })
        })
        .collect()
}

#[test]
fn random_games_by_cell_end_properly_and_undo_to_the_start() {
    let mut rng = random::seeded(7);
    for spec in specs() {
        for game_number in 0..6 {
            let mut m = new_match(&spec).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
            let start = m.current();
            let mut plies = 0;
            while !m.is_over() {
                if let swap::Step::Choose(_, offered) = m.swap_step() {
                    let choice = *offered.choose(&mut rng).expect("a choice");
                    m.choose(choice).expect("an offered choice is allowed");
                    assert!(m.choose(choice).is_err(), "{spec:?}: a choice is made once");
                    continue;
                }
                let (w, h) = m.board_size();
                let allowed: Vec<Cell> = (0..h)
                    .flat_map(|y| (0..w).map(move |x| Cell::new(x, y)))
                    .filter(|&c| m.check_cell(c).is_ok())
                    .collect();
                if let swap::Step::Offer(..) = m.swap_step() {
                    let cell = *allowed.choose(&mut rng).expect("a cell to offer");
                    m.choose(swap::Choice::Mark(cell)).expect("a checked cell can be offered");
                    assert!(m.choose(swap::Choice::Mark(cell)).is_err(), "{spec:?}: a stone is offered once");
                    if let swap::Step::Offer(..) = m.swap_step() {
                        assert!(m.play_cell(cell).is_err(), "{spec:?}: no stone while the offers are marked");
                    }
                    continue;
                }
                if m.must_pass() {
                    let report = m.pass().expect("a forced pass is legal");
                    assert!(report.placed.is_none());
                } else {
                    let legal = allowed;
                    assert!(!legal.is_empty(), "{spec:?} game {game_number}: a live game without a legal cell");
                    let before = m.current();
                    let cell = *legal.choose(&mut rng).expect("a legal cell");
                    let report = m.play_cell(cell).expect("a checked cell is playable");
                    assert_eq!(report.placed, Some(cell));
                    assert_eq!(report.player, Some(before.to_move));
                    let after = m.current();
                    assert_eq!(after.stone(cell), Some(before.to_move));
                    for f in &report.flipped {
                        assert_eq!(before.stone(*f), Some(before.to_move.opponent()), "{spec:?}: flipped {f:?}");
                        assert_eq!(after.stone(*f), Some(before.to_move), "{spec:?}: flipped {f:?}");
                    }
                    let changed = before.stones.iter().zip(&after.stones).filter(|(a, b)| a != b).count();
                    assert_eq!(changed, 1 + report.flipped.len(), "{spec:?}: only the placed and flipped cells change");
                    if after.outcome.is_some()
                        && matches!(after.outcome.map(|o| o.result), Some(GameResult::Win(_)))
                        && spec.game == GameKind::Gomoku
                    {
                        assert!(report.winning_line.len() >= 5, "{spec:?}: a Gomoku win shows its line");
                        assert!(report.winning_line.contains(&cell));
                    }
                }
                plies += 1;
                assert!(plies <= w * h * 2, "{spec:?}: the game does not end");
            }
            let end = m.current();
            assert!(end.end_reason.is_some(), "{spec:?}: a finished game says why");
            assert_eq!(m.move_list().len(), plies);
            assert!(m.play_cell(Cell::new(0, 0)).is_err(), "no move after the end");
            let decisions = m.decisions();
            while m.undo() {}
            assert_eq!(m.current(), start, "{spec:?}: undoing every move restores the start");
            assert!(m.decisions().is_empty(), "{spec:?}: and every choice");
            while m.redo() {}
            assert_eq!(m.current(), end, "{spec:?}: redoing every move restores the end");
            assert_eq!(m.decisions(), decisions, "{spec:?}: and the choices");
        }
    }
}

#[test]
fn markers_are_what_they_say() {
    for spec in specs() {
        let m = new_match(&spec).expect("match");
        let snap = m.current();
        for (cell, marker) in &snap.markers {
            match marker {
                Marker::Legal => assert!(m.check_cell(*cell).is_ok(), "{spec:?}: {cell:?} marked legal"),
                Marker::Forbidden => assert!(m.check_cell(*cell).is_err(), "{spec:?}: {cell:?} marked forbidden"),
                Marker::Offered => {
                    let marks = swap::Procedure::marks(&m.decisions());
                    assert!(marks.contains(cell), "{spec:?}: {cell:?} marked offered");
                }
            }
        }
        if spec.game == GameKind::Othello {
            assert!(!snap.markers.is_empty(), "{spec:?}: Othello marks the legal moves");
        }
    }
}

#[test]
fn the_computer_answers_in_every_game_with_a_legal_move() {
    // Three moves each, searched on one, two and three threads.
    let levels = config::default_levels();
    let level = levels.get("Easy").expect("an Easy level");
    for spec in specs() {
        let mut m = new_match(&spec).expect("match");
        for threads in 1..=3 {
            if m.is_over() {
                break;
            }
            let job = m.think_job(level, 3, threads, Arc::new(AtomicBool::new(false)));
            let mut depths = Vec::new();
            let answer = job(&mut |a| depths.push(a.depth)).expect("a live game has a move");
            assert!(!depths.is_empty(), "{spec:?}: progress is reported");
            if let Some(choice) = answer.choice {
                m.choose(choice).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
                continue;
            }
            match answer.cell {
                Some(cell) => m.play_cell(cell).unwrap_or_else(|e| panic!("{spec:?}: {}: {e}", answer.notation)),
                None => m.pass().expect("the computer passes only when it must"),
            };
        }
    }
}

#[test]
fn a_stopped_search_still_answers() {
    let levels = config::default_levels();
    let hardest = levels.hardest().expect("levels");
    for &game in GameKind::ALL {
        let m = new_match(&MatchSpec::default_for(game)).expect("match");
        let job = m.think_job(hardest, 1, 2, Arc::new(AtomicBool::new(true)));
        let answer = job(&mut |_| {}).expect("a move even when stopped at once");
        let cell = answer.cell.expect("no pass at the start");
        assert!(m.check_cell(cell).is_ok(), "{game:?}: {cell:?}");
        assert_eq!(m.to_move(), Player::First);
    }
}

#[test]
fn every_game_puts_its_scores_on_one_scale_from_a_sure_loss_to_a_sure_win() {
    use tabula_core::score;
    for &game in GameKind::ALL {
        let m = new_match(&MatchSpec::default_for(game)).expect("match");
        assert_eq!(m.advantage(score::mate_in(5), false), 1.0, "{game:?}: a proven win");
        assert_eq!(m.advantage(score::mated_in(4), false), -1.0, "{game:?}: a proven loss");
        assert_eq!(m.advantage(0, false), 0.0, "{game:?}: even");
        let (small, large) = (m.advantage(200, false), m.advantage(2000, false));
        assert!(0.0 < small && small < large && large <= 1.0, "{game:?}: {small} {large}");
        assert_eq!(m.advantage(-200, false), -small, "{game:?}: symmetric");
    }
    let othello = new_match(&MatchSpec::default_for(GameKind::Othello)).expect("match");
    assert_eq!(othello.advantage(3200, false), 0.5, "Othello's evaluation is in hundredths of a disc: 32 of 64");
    assert_eq!(othello.advantage(64, true), 1.0, "an exact score is in discs");
}
