//! The app's side of the engine protocols: our own brains driven as external engines would be, and fake engines
//! that hang, crash, babble or play illegally, each reported as an error that names the engine.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tabula_games::external::{Connection, EngineError, EngineSpec, Protocol};
use tabula_games::{GameKind, Match, MatchSpec, new_match};

fn spec(name: &str, protocol: Protocol, program: &str, args: &[&str]) -> EngineSpec {
    EngineSpec {
        name: name.into(),
        protocol,
        program: PathBuf::from(program),
        args: args.iter().map(ToString::to_string).collect(),
        folder: None,
    }
}

/// An engine that is a shell script: `script` runs with `sh -c`.
fn script(name: &str, protocol: Protocol, script: &str) -> Arc<Mutex<Connection>> {
    Arc::new(Mutex::new(Connection::new(spec(name, protocol, "sh", &["-c", script]))))
}

fn gomoku(rule_set: &str) -> Box<dyn Match> {
    new_match(&MatchSpec { game: GameKind::Gomoku, rule_set: rule_set.into(), board_size: None }).expect("gomoku")
}

fn othello() -> Box<dyn Match> {
    new_match(&MatchSpec::default_for(GameKind::Othello)).expect("othello")
}

fn ask(game: &dyn Match, connection: &Arc<Mutex<Connection>>, turn_ms: u64) -> Result<String, EngineError> {
    let stop = Arc::new(AtomicBool::new(false));
    game.engine_job(game.ply(), connection.clone(), Duration::from_millis(turn_ms), stop)().map(|a| a.notation)
}

#[test]
fn our_brain_plays_a_gomoku_game_as_an_external_engine_in_one_process() {
    let brain = Arc::new(Mutex::new(Connection::new(spec(
        "pbrain-tabula",
        Protocol::Pbrain,
        env!("CARGO_BIN_EXE_pbrain-tabula"),
        &[],
    ))));
    for rule_set in ["freestyle", "renju"] {
        let mut game = gomoku(rule_set);
        for _ in 0..8 {
            let mv = ask(game.as_ref(), &brain, 200).expect("a move");
            game.play_notation(&mv).expect("a legal move");
        }
        assert_eq!(game.ply(), 8);
        assert!(brain.lock().unwrap().is_running());
    }
}

#[test]
fn our_nboard_engine_plays_othello_as_an_external_engine() {
    let engine = Arc::new(Mutex::new(Connection::new(spec(
        "tabula nboard",
        Protocol::NBoard,
        env!("CARGO_BIN_EXE_tabula-cli"),
        &["nboard"],
    ))));
    let mut game = othello();
    let first = ask(game.as_ref(), &engine, 200).expect("a move");
    assert!(["d3", "c4", "f5", "e6"].contains(&first.as_str()), "{first}");
    game.play_notation(&first).expect("legal");
    for _ in 0..7 {
        let mv = ask(game.as_ref(), &engine, 100).expect("a move");
        game.play_notation(&mv).expect("a legal move");
    }
    assert_eq!(game.ply(), 8);
}

#[test]
fn a_hung_engine_is_stopped_after_its_time_and_grace() {
    let hung = script("Sleepy", Protocol::Pbrain, "while read line; do case $line in START*) echo OK;; esac; done");
    let started = Instant::now();
    let err = ask(gomoku("freestyle").as_ref(), &hung, 100).expect_err("no answer");
    assert!(matches!(err, EngineError::Timeout { .. }), "{err}");
    assert!(err.to_string().starts_with("Sleepy gave no answer within 2.15 s"), "{err}");
    let waited = started.elapsed();
    assert!(waited >= Duration::from_secs(2) && waited < Duration::from_secs(5), "{waited:?}");
    assert!(!hung.lock().unwrap().is_running(), "the hung process was ended");
}

#[test]
fn a_stop_while_an_engine_thinks_ends_the_wait() {
    let hung = script("Sleepy", Protocol::Pbrain, "while read line; do case $line in START*) echo OK;; esac; done");
    let game = gomoku("freestyle");
    let stop = Arc::new(AtomicBool::new(false));
    let job = game.engine_job(0, hung, Duration::from_secs(60), stop.clone());
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let started = Instant::now();
    let err = job().expect_err("stopped");
    stopper.join().unwrap();
    assert!(started.elapsed() < Duration::from_secs(3), "{:?}", started.elapsed());
    assert!(matches!(err, EngineError::Stopped { .. }), "{err}");
}

#[test]
fn a_crash_an_illegal_move_and_nonsense_are_errors_that_name_the_engine() {
    let crash = script("Crashy", Protocol::Pbrain, "read line; exit 3");
    let err = ask(gomoku("freestyle").as_ref(), &crash, 100).expect_err("crashed");
    assert!(matches!(err, EngineError::Exited { .. }), "{err}");

    // Always the centre: legal once, illegal on the occupied point.
    let stubborn = script(
        "Stubborn",
        Protocol::Pbrain,
        "while read line; do case $line in START*) echo OK;; DONE|BEGIN|TURN*) echo 7,7;; esac; done",
    );
    let mut game = gomoku("freestyle");
    let mv = ask(game.as_ref(), &stubborn, 100).expect("the centre");
    game.play_notation(&mv).expect("legal");
    let err = ask(game.as_ref(), &stubborn, 100).expect_err("occupied");
    assert!(matches!(err, EngineError::Illegal { .. }), "{err}");
    assert!(err.to_string().starts_with("Stubborn played h8, which is not legal here"), "{err}");

    let babbler = script(
        "Babbler",
        Protocol::Pbrain,
        "while read line; do case $line in START*) echo OK;; BEGIN) echo hello;; esac; done",
    );
    let err = ask(gomoku("freestyle").as_ref(), &babbler, 100).expect_err("nonsense");
    assert!(matches!(err, EngineError::Protocol { .. }), "{err}");

    let no_such = Arc::new(Mutex::new(Connection::new(spec("Ghost", Protocol::Pbrain, "/no/such/engine", &[]))));
    let err = ask(gomoku("freestyle").as_ref(), &no_such, 100).expect_err("not started");
    assert!(err.to_string().starts_with("Ghost: could not start /no/such/engine"), "{err}");

    let nboard_for_gomoku = script("Othello only", Protocol::NBoard, "cat > /dev/null");
    let err = ask(gomoku("freestyle").as_ref(), &nboard_for_gomoku, 100).expect_err("wrong protocol");
    assert!(matches!(err, EngineError::WrongProtocol { .. }), "{err}");

    // An Othello engine answering a square that is not a legal move.
    let corner = script(
        "Cornered",
        Protocol::NBoard,
        "while read line; do case $line in ping*) echo \"pong ${line#ping }\";; go) echo '=== A1/3.0/0.1';; esac; done",
    );
    let err = ask(othello().as_ref(), &corner, 100).expect_err("a1 is not legal at the start");
    assert!(matches!(err, EngineError::Illegal { .. }), "{err}");
}

#[test]
fn rule_sets_no_protocol_plays_are_refused_before_the_engine_is_asked() {
    let spec = MatchSpec { game: GameKind::Othello, rule_set: "anti-othello".into(), board_size: None };
    let anti = new_match(&spec).expect("anti-Othello");
    let engine = script("Any", Protocol::NBoard, "cat > /dev/null");
    assert_eq!(anti.engine_protocol(), None, "no engine may take a seat");
    let err = ask(anti.as_ref(), &engine, 100).expect_err("anti-Othello is not NBoard's");
    assert!(matches!(err, EngineError::Unplayable { .. }), "{err}");
    assert!(!engine.lock().unwrap().is_running(), "never started");
    assert_eq!(othello().engine_protocol(), Some(Protocol::NBoard));
    assert_eq!(gomoku("renju").engine_protocol(), Some(Protocol::Pbrain));
    assert_eq!(gomoku("caro").engine_protocol(), Some(Protocol::Pbrain), "Gomocup rule 8");
}

#[test]
fn each_protocol_tries_a_new_engine_on_its_standard_game() {
    for (protocol, program) in
        [(Protocol::Pbrain, env!("CARGO_BIN_EXE_pbrain-tabula")), (Protocol::NBoard, env!("CARGO_BIN_EXE_tabula-cli"))]
    {
        let args: &[&str] = if protocol == Protocol::NBoard { &["nboard"] } else { &[] };
        let engine = Arc::new(Mutex::new(Connection::new(spec("ours", protocol, program, args))));
        let game = new_match(&protocol.standard_game()).expect("the standard game");
        assert_eq!(game.engine_protocol(), Some(protocol));
        assert!(ask(game.as_ref(), &engine, 200).is_ok(), "{protocol}");
    }
}

#[test]
fn an_nboard_evaluation_in_discs_becomes_the_othello_score() {
    let engine = script(
        "Confident",
        Protocol::NBoard,
        "while read line; do case $line in ping*) echo \"pong ${line#ping }\";; go) echo '=== F5/3.5/0.1';; esac; done",
    );
    let game = othello();
    let stop = Arc::new(AtomicBool::new(false));
    let analysis = game.engine_job(0, engine, Duration::from_millis(100), stop)().expect("f5 is legal");
    assert_eq!((analysis.notation.as_str(), analysis.score), ("f5", 350));
    assert!(analysis.is_judgement(), "an evaluation was given");
    assert_eq!(analysis.external.expect("an engine's answer").engine, "Confident");
    assert_eq!(game.describe_score(analysis.score, analysis.exact), "+3.5 discs");
}

#[test]
fn a_brain_hears_turn_for_one_move_on_board_otherwise_and_start_for_each_new_game() {
    let dir = std::env::temp_dir().join(format!("tabula-brain-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    // Logs every command word and answers the first free point of the top row.
    let brain = script(
        "Logger",
        Protocol::Pbrain,
        &format!(
            "n=0; while read line; do echo \"${{line%% *}}\" >> {log}; case $line in START*) echo OK; n=0;; \
             BEGIN|TURN*|DONE) echo $n,0; n=$((n+1));; esac; done",
            log = dir.join("log").display()
        ),
    );
    let mut game = gomoku("freestyle");
    let first = ask(game.as_ref(), &brain, 500).expect("a move");
    game.play_notation(&first).expect("legal");
    game.play_notation("h8").expect("legal");
    let second = ask(game.as_ref(), &brain, 500).expect("a move");
    game.play_notation(&second).expect("legal");
    game.play_notation("h9").expect("legal");
    game.play_notation("h10").expect("legal");
    game.play_notation("h11").expect("legal");
    ask(game.as_ref(), &brain, 500).expect("a move");
    ask(gomoku("freestyle").as_ref(), &brain, 500).expect("a move");
    let log = std::fs::read_to_string(dir.join("log")).expect("the log");
    let commands: Vec<&str> = log.lines().filter(|c| !matches!(*c, "INFO" | "DONE") && !c.contains(',')).collect();
    assert_eq!(commands, ["START", "BEGIN", "TURN", "BOARD", "START", "BEGIN"], "{log}");
    std::fs::remove_dir_all(&dir).ok();
}
