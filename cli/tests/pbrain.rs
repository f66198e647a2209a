//! `pbrain-tabula` end to end: the binary spoken to over pipes, as a Gomocup manager would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use tabula_core::{Game, GameResult};
use tabula_games::gomoku::{Gomoku, WinRule};
use tabula_games::{BoardGame, Cell};

/// A running brain with a reader thread, so a hung brain fails the test instead of blocking it.
struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Brain {
    /// The `MESSAGE` lines of a search and then its answer, each within `wait`.
    fn messages_then_answer(&self, wait: Duration) -> (Vec<String>, String) {
        let mut messages = Vec::new();
        loop {
            let line = self.lines.recv_timeout(wait).expect("the search's next line");
            if !line.starts_with("MESSAGE") {
                return (messages, line);
            }
            messages.push(line);
        }
    }

    fn start() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tabula"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start pbrain-tabula");
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Brain { child, stdin: Some(stdin), lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input open");
        writeln!(stdin, "{line}").expect("write to brain");
        stdin.flush().expect("flush");
    }

    /// The next line that is not a MESSAGE or DEBUG line.
    fn answer(&self) -> String {
        loop {
            let line = self.lines.recv_timeout(Duration::from_secs(10)).expect("the brain answers within 10 s");
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return line;
            }
        }
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }

    fn silent_for(&self, wait: Duration) -> bool {
        self.lines.recv_timeout(wait).is_err()
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        if let Some(stdin) = &mut self.stdin {
            let _ = writeln!(stdin, "END");
            let _ = stdin.flush();
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
    }
}

fn point(answer: &str) -> (usize, usize) {
    let (x, y) = answer.split_once(',').unwrap_or_else(|| panic!("expected X,Y, got '{answer}'"));
    (x.trim().parse().expect("x"), y.trim().parse().expect("y"))
}

#[test]
fn two_brains_play_a_whole_game_under_a_referee() {
    let game = Gomoku::new(15, WinRule::Freestyle).expect("rules");
    let mut state = game.initial_state();
    let mut brains = [Brain::start(), Brain::start()];
    for b in &mut brains {
        assert_eq!(b.ask("START 15"), "OK");
        b.send("INFO timeout_turn 150");
        b.send("INFO rule 0");
    }
    let mut answer = brains[0].ask("BEGIN");
    let mut plies = 0;
    loop {
        let (x, y) = point(&answer);
        let mv = game.move_at(&state, Cell::new(x, y)).unwrap_or_else(|e| panic!("ply {plies}: {x},{y}: {e}"));
        game.make(&mut state, mv);
        plies += 1;
        if game.outcome(&state).is_some() || plies >= 225 {
            break;
        }
        answer = brains[plies % 2].ask(&format!("TURN {x},{y}"));
    }
    let outcome = game.outcome(&state).expect("the game ended");
    assert!(matches!(outcome.result, GameResult::Win(_) | GameResult::Draw));
    assert!(plies >= 9, "a win needs at least nine plies, got {plies}");
}

#[test]
fn board_with_a_win_in_one_is_won_and_time_is_kept() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 400");
    brain.send("BOARD");
    for line in ["7,7,1", "7,8,2", "8,7,1", "8,8,2", "9,7,1", "9,8,2", "10,7,1", "11,7,2", "3,3,2"] {
        brain.send(line);
    }
    let asked = Instant::now();
    let answer = brain.ask("DONE");
    assert!(asked.elapsed() < Duration::from_millis(400 + 300), "took {:?}", asked.elapsed());
    assert_eq!(point(&answer), (6, 7), "the only winning point (11,7 is taken)");
}

#[test]
fn takeback_frees_the_point() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    let first = point(&brain.ask("TURN 7,7"));
    assert_ne!(first, (7, 7));
    assert_eq!(brain.ask(&format!("TAKEBACK {},{}", first.0, first.1)), "OK");
    assert_eq!(brain.ask("TAKEBACK 7,7"), "OK");
    assert!(brain.ask("TAKEBACK 7,7").starts_with("ERROR"), "nothing left to take back there");
    let again = point(&brain.ask("TURN 7,7"));
    assert_ne!(again, (7, 7), "7,7 is taken again, the brain answers elsewhere");
}

#[test]
fn renju_black_never_blocks_on_a_forbidden_point() {
    // White threatens five at 8,7 (diagonal 9,8 .. 12,11, the far end closed by Black at 13,12); for Black 8,7 is
    // a double three (6,7 7,7 and 8,5 8,6), so the only block is forbidden.
    let black = [(6, 7), (7, 7), (8, 5), (8, 6), (13, 12)];
    let white = [(9, 8), (10, 9), (11, 10), (12, 11), (0, 14)];
    let game = Gomoku::new(15, WinRule::Renju).expect("rules");
    let state = game.setup(&black, &white, tabula_core::Player::First).expect("position");
    let refusal = game.move_at(&state, Cell::new(8, 7)).expect_err("8,7 must be forbidden for Black");
    assert_eq!(refusal, tabula_games::MoveError::Forbidden("double three"), "{refusal}");

    // Gomocup's Renju bit, and Yixin-Board's number for Renju.
    for rule in ["4", "2"] {
        let mut brain = Brain::start();
        brain.send(&format!("INFO rule {rule}"));
        assert_eq!(brain.ask("START 15"), "OK");
        brain.send("INFO timeout_turn 300");
        brain.send("BOARD");
        for (x, y) in black {
            brain.send(&format!("{x},{y},1"));
        }
        for (x, y) in white {
            brain.send(&format!("{x},{y},2"));
        }
        let (x, y) = point(&brain.ask("DONE"));
        assert_ne!((x, y), (8, 7), "rule {rule}: played the forbidden point");
        assert!(game.move_at(&state, Cell::new(x, y)).is_ok(), "rule {rule}: {x},{y} is not legal for Black");
    }
}

#[test]
fn garbage_and_oversized_lines_get_errors_and_the_brain_goes_on() {
    let mut brain = Brain::start();
    assert!(brain.ask("HELLO there").starts_with("UNKNOWN"));
    assert!(brain.ask("TURN 7,7").starts_with("ERROR"), "no game started");
    assert_eq!(brain.ask("START 15"), "OK");
    assert!(brain.ask("TURN seven,7").starts_with("ERROR"));
    assert!(brain.ask("TURN 15,0").starts_with("ERROR"), "off the board");
    let huge = format!("TURN {}", "9".repeat(200_000));
    let reply = brain.ask(&huge);
    assert!(reply.starts_with("ERROR") && reply.contains("too long"), "{reply}");
    assert!(brain.ask("START 3").starts_with("ERROR"), "board too small");
    assert!(brain.ask("TURN 7,7").starts_with("ERROR"), "and no game until a START that works");
    assert_eq!(brain.ask("START 15"), "OK");
    assert!(brain.ask("RECTSTART 15,20").starts_with("ERROR"));
    brain.send("INFO timeout_turn 100");
    brain.send("INFO no_such_key 5");
    assert!(brain.silent_for(Duration::from_millis(100)), "INFO is not answered");
    assert!(brain.ask("INFO timeout_turn soon").starts_with("ERROR"));
    assert_eq!(brain.ask("RESTART"), "OK");
    let (x, y) = point(&brain.ask("BEGIN"));
    assert!(x < 15 && y < 15);
    assert!(brain.ask("ABOUT").contains("name=\"Tabula\""));
}

#[test]
fn max_memory_is_taken_and_a_refused_board_keeps_the_game() {
    let mut brain = Brain::start();
    brain.send("INFO max_memory 4194304");
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    brain.send("INFO max_memory 0");
    let answer = point(&brain.ask("TURN 7,7"));
    brain.send("BOARD");
    brain.send("1,1,1");
    brain.send("1,1,2");
    assert!(brain.ask("DONE").starts_with("ERROR"), "a point given twice");
    let again = brain.ask(&format!("TURN {},{}", answer.0, answer.1));
    assert!(again.contains("occupied"), "the game before the bad block is kept: {again}");
}

impl Brain {
    /// Whether the process exits within `wait`.
    fn exits_within(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    fn board(&mut self, lines: &[String]) -> String {
        self.send("BOARD");
        for line in lines {
            self.send(line);
        }
        self.ask("DONE")
    }
}

#[test]
fn a_full_board_or_a_decided_one_gets_an_error_and_the_brain_stays_alive() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 7"), "OK");
    // A full 7x7 board without five in a row anywhere: pairs of colours, shifted by two every row.
    let field = |x: usize, y: usize| if (x + 2 * y) % 4 < 2 { 2 } else { 1 };
    let full: Vec<String> = (0..49).map(|i| (i % 7, i / 7)).map(|(x, y)| format!("{x},{y},{}", field(x, y))).collect();
    let answer = brain.board(&full);
    assert!(answer.starts_with("ERROR") && answer.contains("over"), "{answer}");
    assert!(brain.ask("ABOUT").contains("Tabula"), "still listening");
    let five: Vec<String> = (0..5).map(|x| format!("{x},0,2")).chain((0..4).map(|x| format!("{x},1,1"))).collect();
    let answer = brain.board(&five);
    assert!(answer.starts_with("ERROR") && answer.contains("over"), "{answer}");
    assert!(brain.ask("ABOUT").contains("Tabula"), "still listening");
}

#[test]
fn a_malformed_board_line_refuses_the_block_and_keeps_the_position() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    let first = point(&brain.ask("TURN 7,7"));
    let lines = ["7,7,2", "6,6,1", "7,8,2,"].map(String::from);
    let answer = brain.board(&lines);
    assert!(answer.starts_with("ERROR") && answer.contains("7,8,2,"), "{answer}");
    let again = brain.ask(&format!("TURN {},{}", first.0, first.1));
    assert!(again.contains("occupied"), "the position before the block is kept: {again}");
    assert!(brain.ask("DONE").starts_with("ERROR"), "DONE outside a block moves nobody's stone");
}

#[test]
fn yxboard_sets_a_position_without_moving() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    brain.send("yxboard");
    brain.send("7,7,2");
    brain.send("done");
    assert!(brain.silent_for(Duration::from_millis(500)), "no move nobody asked for");
    let answer = brain.ask("TURN 8,8");
    assert_ne!(point(&answer), (7, 7), "7,7 holds the stone yxboard gave");
}

/// The points of a SWAP2BOARD answer, checked to be free on a 15x15 board holding `stones`.
fn swap2_points(answer: &str, stones: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let points: Vec<(usize, usize)> = answer.split_whitespace().map(point).collect();
    let mut seen = stones.to_vec();
    for &p in &points {
        assert!(p.0 < 15 && p.1 < 15 && !seen.contains(&p), "{answer}: {p:?} is off the board or taken");
        seen.push(p);
    }
    points
}

#[test]
fn swap2board_opens_chooses_and_places_as_gomocup_asks() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 300");
    let ask = |brain: &mut Brain, lines: &[&str]| {
        brain.send("SWAP2BOARD");
        lines.iter().for_each(|l| brain.send(l));
        brain.ask("DONE")
    };
    // The empty board: three stones, Black, White, Black.
    let opening = swap2_points(&ask(&mut brain, &[]), &[]);
    assert_eq!(opening.len(), 3);
    // Three stones: SWAP (the brain takes Black), White's move, or two more stones.
    let three = ["7,7,1", "8,7,2", "8,8,1"];
    let answer = ask(&mut brain, &three);
    let taken = [(7, 7), (8, 7), (8, 8)];
    assert!(answer == "SWAP" || [1, 2].contains(&swap2_points(&answer, &taken).len()), "{answer}");
    // Five stones (fields given either way round): SWAP or White's sixth stone.
    let five = ["7,7,2", "8,7,1", "8,8,2", "9,9,1", "6,6,2"];
    let answer = ask(&mut brain, &five);
    let taken = [(7, 7), (8, 7), (8, 8), (9, 9), (6, 6)];
    assert!(answer == "SWAP" || swap2_points(&answer, &taken).len() == 1, "{answer}");
    // After its answer the brain plays on from that position.
    if answer != "SWAP" {
        let next = point(&brain.ask("TURN 10,10"));
        assert!(!taken.contains(&next) && next != (10, 10) && next != point(&answer));
    }
    // Anything else is refused with a reason, and the brain goes on.
    let refusal = ask(&mut brain, &["7,7,1", "8,7,2"]);
    assert!(refusal.starts_with("ERROR") && refusal.contains("0, 3 or 5"), "ERROR, not UNKNOWN: {refusal}");
    let refusal = ask(&mut brain, &["7,7,1", "7,7,2", "8,8,1"]);
    assert!(refusal.starts_with("ERROR") && refusal.contains("twice"), "{refusal}");
    assert_eq!(brain.ask("RESTART"), "OK");
}

#[test]
fn yxnbest_lists_distinct_best_moves_and_answers_the_first_without_playing_it() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 600");
    brain.send("YXBOARD");
    for line in ["7,7,2", "8,8,1", "7,8,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    brain.send("YXNBEST 3");
    let mut lines = Vec::new();
    let answer = loop {
        let line = brain.lines.recv_timeout(Duration::from_secs(10)).expect("an answer");
        if !line.starts_with("MESSAGE") {
            break line;
        }
        lines.push(line);
    };
    assert_eq!(lines.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            assert!(l.starts_with(&format!("MESSAGE ({}) depth ", i + 1)), "{l}");
            l.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next()).expect("a line")
        })
        .collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{firsts:?}");
    let (x, y) = point(&answer);
    assert_ne!((x, y), (7, 7), "an empty point");
    let again = brain.ask(&format!("TURN {x},{y}"));
    assert!(!again.starts_with("ERROR"), "the analysed move was not played on the brain's board: {again}");
}

#[test]
fn positions_that_cannot_be_are_refused() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    point(&brain.ask("BEGIN"));
    assert!(brain.ask("BEGIN").starts_with("ERROR"), "BEGIN once the board has stones");
    assert_eq!(brain.ask("START 20"), "OK");
    let renju = brain.ask("INFO rule 4");
    assert!(renju.starts_with("ERROR") && renju.contains("15"), "{renju}");
    assert!(brain.ask("TURN 7,7").starts_with("ERROR"), "no game under rules it cannot play");
    assert!(brain.ask("RESTART").starts_with("ERROR"), "nor after RESTART");
    assert_eq!(brain.ask("START 15"), "OK", "Renju on 15x15 is fine");
    assert!(brain.ask("INFO rule 4294967300").starts_with("ERROR"), "a rule number too large is refused");
}

#[test]
fn zero_time_means_fast() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 0");
    let start = Instant::now();
    point(&brain.ask("TURN 7,7"));
    assert!(start.elapsed() < Duration::from_secs(1), "timeout_turn 0 took {:?}", start.elapsed());
    brain.send("INFO timeout_turn 10000");
    brain.send("INFO timeout_match 100000");
    brain.send("INFO time_left 0");
    let start = Instant::now();
    point(&brain.ask("TURN 7,9"));
    assert!(start.elapsed() < Duration::from_secs(1), "time_left 0 took {:?}", start.elapsed());
}

#[test]
fn about_and_end_are_answered_during_a_long_think() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 60000");
    brain.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    assert!(brain.ask("ABOUT").contains("Tabula"), "ABOUT before the move");
    assert!(start.elapsed() < Duration::from_secs(1));
    brain.send("END");
    assert!(brain.exits_within(Duration::from_millis(500)), "END stops the search at once");
}

#[test]
fn the_end_of_input_during_a_think_ends_the_process() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 60000");
    brain.send("TURN 7,7");
    drop(brain.stdin.take());
    assert!(brain.exits_within(Duration::from_secs(2)), "still thinking after its input ended");
}

#[test]
fn a_large_table_is_built_off_the_clock() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 100");
    brain.send("INFO max_memory 2147483648");
    let start = Instant::now();
    point(&brain.ask("TURN 7,7"));
    assert!(start.elapsed() < Duration::from_millis(400), "the move took {:?}", start.elapsed());
}

#[test]
fn a_flood_of_commands_during_a_think_is_answered_not_hoarded() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 1500");
    brain.send("TURN 7,7");
    for _ in 0..200 {
        brain.send("TAKEBACK 1,1");
    }
    let mut busy = 0;
    let mut moved = false;
    while !moved {
        let line = brain.answer();
        busy += usize::from(line.starts_with("ERROR busy"));
        moved = line.contains(',') && !line.starts_with("ERROR");
    }
    assert!(busy > 100, "{busy} commands refused while thinking");
}

#[test]
fn yixin_board_extensions() {
    let mut brain = Brain::start();
    brain.send("INFO rule 2");
    assert_eq!(brain.ask("START 15"), "OK");
    // Black to move with a double three at 8,7 (the forbidden-point test's position, smaller): 6,7 7,7 and 8,6 8,8.
    brain.send("YXBOARD");
    for line in ["6,7,1", "7,7,1", "8,6,1", "8,9,1", "0,0,2", "0,2,2", "0,4,2", "0,6,2"] {
        brain.send(line);
    }
    brain.send("DONE");
    let forbid = brain.ask("YXSHOWFORBID");
    assert!(forbid.starts_with("FORBID ") && forbid.ends_with('.'), "{forbid}");
    let points = &forbid["FORBID ".len()..forbid.len() - 1];
    assert!(points.len().is_multiple_of(4), "{forbid}");
    assert!(points.as_bytes().chunks(4).any(|p| p == b"0807"), "8,7 is a double three: {forbid}");
    brain.send("YXSHOWINFO");
    let name = brain.lines.recv_timeout(Duration::from_secs(5)).expect("an answer");
    assert!(name.starts_with("MESSAGE Tabula "), "{name}");
    let threads = brain.lines.recv_timeout(Duration::from_secs(5)).expect("an answer");
    assert_eq!(threads, "MESSAGE INFO MAX_THREAD_NUM 256");
    brain.send("YXHASHCLEAR");
    let said = brain.lines.recv_timeout(Duration::from_secs(5)).expect("an answer");
    assert_eq!(said, "MESSAGE the transposition table is cleared");

    // A long think on two threads, stopped by yxstop, after MESSAGE lines that show the search.
    brain.send("INFO thread_num 2");
    brain.send("INFO timeout_turn 60000");
    brain.send("INFO max_depth 3");
    brain.send("BOARD");
    brain.send("7,7,2");
    brain.send("DONE");
    let (messages, answer) = brain.messages_then_answer(Duration::from_secs(10));
    point(&answer);
    assert!(messages.iter().any(|m| m.starts_with("MESSAGE depth 3 ")), "{messages:?}");
    assert!(!messages.iter().any(|m| m.starts_with("MESSAGE depth 4 ")), "max_depth 3: {messages:?}");
    brain.send("INFO max_depth 40");
    brain.send("TURN 0,14");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    brain.send("YXSTOP");
    point(&brain.answer());
    assert!(start.elapsed() < Duration::from_secs(1), "yxstop took {:?}", start.elapsed());
}

#[test]
fn a_board_sent_during_a_think_waits_whole_for_its_turn() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 60000");
    brain.send("TURN 7,7");
    std::thread::sleep(Duration::from_millis(200));
    for line in ["BOARD", "7,7,2", "8,8,1", "6,6,2", "DONE"] {
        brain.send(line);
    }
    brain.send("YXSTOP");
    let first = brain.answer();
    point(&first);
    std::thread::sleep(Duration::from_millis(200));
    brain.send("YXSTOP");
    let second = brain.answer();
    assert!(![(7, 7), (8, 8), (6, 6)].contains(&point(&second)), "the board's move is on an empty point: {second}");
}

#[test]
fn info_max_node_bounds_each_search() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 60000");
    brain.send("INFO max_node 3000");
    let start = Instant::now();
    brain.send("TURN 7,7");
    let (messages, answer) = brain.messages_then_answer(Duration::from_secs(20));
    point(&answer);
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    // Each finished depth reports its nodes: none past the limit (the search stops at it).
    let nodes: Vec<u64> = messages
        .iter()
        .filter_map(|m| m.split_whitespace().skip_while(|w| *w != "n").nth(1).and_then(|n| n.parse().ok()))
        .collect();
    assert!(!nodes.is_empty() && nodes.iter().all(|&n| n <= 3000), "{messages:?}");
    // 0 lifts the limit again.
    brain.send("INFO max_node 0");
    brain.send("INFO timeout_turn 300");
    brain.send("TURN 9,9");
    point(&brain.answer());
}
