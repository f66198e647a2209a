//! Every parser and protocol reader against mangled input: seeded random mutations of real lines and files (bytes
//! flipped, cut, spliced, repeated, numbers pushed to their limits). Nothing may panic; each input either reads or
//! is refused with a message. Bounded so that it runs in CI in seconds; deterministic for its seeds.

use std::io::Cursor;

use rand::Rng;
use rand::seq::IndexedRandom;
use tabula_core::Levels;
use tabula_core::random::{self, SeededRng};
use tabula_games::gomoku::datasets::VcfPuzzle;
use tabula_games::gomoku::{Gomoku, WinRule, notation as gomoku_notation, psq};
use tabula_games::othello::{Othello, notation as othello_notation};
use tabula_games::{config, ggf};

/// Inputs per parser.
const CASES: usize = 3000;

const NUMBERS: [&str; 9] = ["0", "-1", "4294967295", "4294967296", "18446744073709551616", "999999", "1e9", "", " "];

/// A random mutation of `sample`.
fn mangle(rng: &mut SeededRng, sample: &str) -> String {
    let mut bytes = sample.as_bytes().to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=bytes.len());
        match rng.random_range(0..7) {
            0 => bytes.truncate(at),
            1 if at < bytes.len() => bytes[at] = rng.random(),
            2 => bytes.splice(at..at, NUMBERS.choose(rng).unwrap_or(&"0").bytes()).for_each(drop),
            3 => {
                let piece: Vec<u8> = bytes[at..].iter().take(rng.random_range(1..40)).copied().collect();
                bytes.splice(at..at, piece.repeat(rng.random_range(1..50))).for_each(drop);
            }
            4 => {
                let marks: [&[u8]; 7] = [b"\n", b"]", b"[", b",", b"\\", b"\r\n", b";)"];
                let mark = marks.choose(rng).copied().unwrap_or(b"\n");
                bytes.splice(at..at, mark.iter().copied()).for_each(drop);
            }
            5 if at < bytes.len() => {
                bytes.remove(at);
            }
            _ => bytes.insert(at.min(bytes.len()), rng.random_range(b' '..=b'~')),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn each_mangled(seed: u64, samples: &[&str], mut check: impl FnMut(&str)) {
    let mut rng = random::seeded(seed);
    for _ in 0..CASES {
        let sample = samples.choose(&mut rng).copied().unwrap_or_default();
        check(&mangle(&mut rng, sample));
    }
}

#[test]
fn game_records_and_notations() {
    let start = "---------------------------O*------*O---------------------------";
    let ggf_game = format!("(;GM[Othello]PB[a\\]b]PW[c]TY[8]BO[8 {start} *]B[f5//1.2]W[d6]B[PA];)");
    each_mangled(1, &[&ggf_game], |text| drop(ggf::parse(text)));
    let psq_game = "Piskvorky 15x15, 11:11, 4\n8,8,0\n9,9,120\n10,8,0\nHuman\nComputer (Hard)\n-1\n";
    each_mangled(2, &[psq_game], |text| drop(psq::parse(text)));
    let othello = Othello::default();
    each_mangled(3, &["f5d6c3d3c4f4 pass e3", start], |text| {
        drop(othello_notation::parse_transcript(&othello, text));
        drop(othello_notation::parse_board(&othello, text));
    });
    let gomoku = Gomoku::new(15, WinRule::Renju).expect("rules");
    each_mangled(4, &["h8 i9 j10 a1 o15"], |text| drop(gomoku_notation::parse_moves(&gomoku, text)));
    let puzzle = "p1\tfreestyle\t15\t3\tblack\t2\th8\th8 a1 i8";
    each_mangled(5, &[puzzle], |text| drop(VcfPuzzle::parse(text)));
}

#[test]
fn configuration_files() {
    each_mangled(6, &[config::DEFAULT_CONFIG], |text| drop(Levels::parse(text, "mangled.toml")));
}

#[test]
fn network_protocol_lines() {
    let lines = [
        "HELLO 1 gomoku renju 15 white",
        "WELCOME 1",
        "SYNC h8 i9 j10",
        "MOVED 3 h8",
        "UNDONE 2",
        "RESIGNED black",
        "CHAT hello there",
        "MOVE f5",
    ];
    each_mangled(7, &lines, |line| drop(tabula_net::Message::parse(line)));
    let mut guest = tabula_net::Guest::new();
    let mut referee = tabula_net::Referee::new(
        tabula_games::MatchSpec::default_for(tabula_games::GameKind::Othello),
        tabula_core::Player::Second,
    )
    .expect("referee");
    each_mangled(8, &lines, |line| {
        drop(referee.handle_line(line));
    });
    let mut rng = random::seeded(9);
    for _ in 0..CASES {
        let sample = lines.choose(&mut rng).copied().unwrap_or_default();
        let line = mangle(&mut rng, sample);
        drop(guest.handle_line(&line));
        drop(referee.handle_line(&line));
    }
}

#[test]
fn engine_protocol_sessions() {
    let pbrain = [
        "START 15",
        "INFO rule 4",
        "INFO timeout_turn 5",
        "BOARD",
        "7,7,1",
        "8,8,2",
        "DONE",
        "TURN 7,8",
        "TAKEBACK 7,8",
        "YXBOARD",
        "RESTART",
        "BEGIN",
        "ABOUT",
        "RECTSTART 15,15",
        "INFO max_memory 1048576",
    ];
    let nboard = [
        "nboard 2",
        "set depth 1",
        "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *];)",
        "move f5",
        "go",
        "hint 2",
        "ping 3",
        "learn",
    ];
    let mut rng = random::seeded(10);
    for _ in 0..60 {
        let mut session = String::from("START 15\nINFO timeout_turn 5\n");
        for _ in 0..rng.random_range(1..30) {
            let line: &str = pbrain.choose(&mut rng).copied().unwrap_or_default();
            let line = if rng.random_bool(0.5) { mangle(&mut rng, line) } else { line.to_string() };
            session.push_str(&line.replace(['\n', '\r'], " "));
            session.push('\n');
        }
        let mut out = Vec::new();
        tabula_cli::pbrain::run(Cursor::new(session.clone()), &mut out).unwrap_or_else(|e| panic!("{e}: {session}"));
        let mut session = String::from("nboard 2\nset depth 1\n");
        for _ in 0..rng.random_range(1..30) {
            let line = nboard.choose(&mut rng).copied().unwrap_or_default();
            let line = if rng.random_bool(0.5) { mangle(&mut rng, line) } else { line.to_string() };
            session.push_str(&line.replace(['\n', '\r'], " ").replace("set depth", "set dept"));
            session.push('\n');
        }
        let mut out = Vec::new();
        tabula_cli::nboard::run(Cursor::new(session.clone()), &mut out, None, 1)
            .unwrap_or_else(|e| panic!("{e}: {session}"));
    }
}
