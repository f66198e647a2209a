//! `tabula-cli nboard` end to end: a session as an Othello GUI would hold it, over pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use rand::seq::IndexedRandom;
use tabula_core::{Game, random};
use tabula_games::othello::{self, Move, Othello};

/// A game from the standard start that contains a pass and is still going: found by seeded random playouts.
fn transcript_with_a_pass(game: &Othello) -> Vec<Move> {
    let mut rng = random::seeded(12345);
    for _ in 0..10_000 {
        let mut state = game.initial_state();
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while game.outcome(&state).is_none() {
            moves.clear();
            game.legal_moves(&state, &mut moves);
            let mv = *moves.choose(&mut rng).expect("a live position has a move");
            game.make(&mut state, mv);
            line.push(mv);
            let passed = line.iter().any(|m: &Move| m.is_pass());
            if passed && !mv.is_pass() && game.remaining_moves(&state).is_some_and(|e| e >= 8) {
                return line;
            }
        }
    }
    panic!("no random game with a pass found");
}

#[test]
fn session_with_a_ggf_game_with_a_pass_hint_and_move() {
    let game = Othello::new(othello::Rules::default());
    let line = transcript_with_a_pass(&game);
    let moves: String = line
        .iter()
        .enumerate()
        .map(|(i, &mv)| {
            let name = othello::notation::format_move(8, mv);
            let name = if mv.is_pass() { "PA".to_string() } else { name.to_ascii_uppercase() };
            format!("{}[{name}//1.0]", if i % 2 == 0 { 'B' } else { 'W' })
        })
        .collect();
    let start = "---------------------------O*------*O--------------------------- *";
    let ggf = format!("(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[5:00]TY[8]BO[8 {start}]{moves};)");
    let mut state = game.initial_state();
    for &mv in &line {
        game.make(&mut state, mv);
    }

    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args(["nboard", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tabula-cli nboard");
    // As NBoard does: a ping only once the hint is in, since a ping abandons whatever is running.
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines().map(|l| l.expect("line"));
    let mut out: Vec<String> = Vec::new();
    let mut read_until = |out: &mut Vec<String>, last: &dyn Fn(&str) -> bool| {
        for line in lines.by_ref() {
            let done = last(&line);
            out.push(line);
            if done {
                return;
            }
        }
        panic!("the engine stopped talking: {out:?}");
    };
    writeln!(stdin, "nboard 2\nset depth 4\nset game {ggf}\nhint 3").expect("write");
    read_until(&mut out, &|l| l == "status");
    writeln!(stdin, "ping 1\ngo").expect("write");
    read_until(&mut out, &|l| l.starts_with("=== "));
    writeln!(stdin, "ping 2\nquit").expect("write");
    read_until(&mut out, &|l| l == "pong 2");
    drop(stdin);
    assert!(child.wait().expect("exit").success());

    assert_eq!(out.first().map(String::as_str), Some("set myname Tabula"), "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("ERROR")), "{out:?}");
    let legal: Vec<String> = {
        let mut m = Vec::new();
        game.legal_moves(&state, &mut m);
        m.iter().map(|&mv| othello::notation::format_move(8, mv).to_ascii_uppercase()).collect()
    };
    let hints: Vec<&String> = out.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), legal.len().min(3), "{out:?}");
    for h in &hints {
        // The principal variation: the hinted move first, then the replies, replayed legally.
        let pv = h.split_whitespace().nth(1).expect("move");
        let mv = &pv[..2];
        assert!(legal.iter().any(|l| l == mv), "hint {mv} is not legal: {legal:?}");
        assert!(pv.len() >= 6 && pv.len().is_multiple_of(2), "depth 4 hints show their line: {h}");
        let mut line = state.clone();
        for square in pv.as_bytes().chunks(2).map(|c| std::str::from_utf8(c).expect("ascii")) {
            let played = if square == "PA" { "pass" } else { square };
            let m = othello::notation::parse_square(8, played).unwrap_or_else(|e| panic!("{h}: {e}"));
            assert!(game.is_legal(&line, m), "{h}: {square} is not legal there");
            game.make(&mut line, m);
        }
    }
    let pong1 = out.iter().position(|l| l == "pong 1").expect("pong 1");
    let answer = out.iter().position(|l| l.starts_with("=== ")).expect("a move");
    let pong2 = out.iter().position(|l| l == "pong 2").expect("pong 2");
    assert!(pong1 < answer && answer < pong2, "answers come in order: {out:?}");
    let mv = out[answer].trim_start_matches("=== ").split('/').next().expect("move");
    assert!(legal.iter().any(|l| l == mv), "move {mv} is not legal: {legal:?}");
    assert!(out[pong1..answer].iter().any(|l| l.starts_with("status")), "status while searching: {out:?}");
}
