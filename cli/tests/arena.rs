//! `tabula-cli arena` on a tiny budget: a well-formed table, JSON and CSV.

use std::process::{Command, Output};

/// `tabula-cli arena` with `args`, on the built-in levels whatever the user's own file says.
fn run_arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .arg("arena")
        .args(args)
        .env("TABULA_CONFIG", concat!(env!("CARGO_MANIFEST_DIR"), "/../config/default.toml"))
        .output()
        .expect("run tabula-cli arena")
}

/// What a successful run prints.
fn arena(args: &[&str]) -> String {
    let out = run_arena(args);
    assert!(out.status.success(), "arena failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The output of a run whose arguments are the words of `line`.
fn arena_words(line: &str) -> String {
    arena(&line.split_whitespace().collect::<Vec<_>>())
}

/// What a run that must fail says on stderr.
fn arena_error(args: &[&str]) -> String {
    let out = run_arena(args);
    assert!(!out.status.success(), "{args:?} should fail");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn json_has_a_row_per_rule_set_with_consistent_counts() {
    let text = arena_words("--game othello --rules othello-6x6,anti-othello --level Beginner --games 2 --quiet --json");
    let rows: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let rows = rows.as_array().expect("an array");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["rule_set"], "Othello 6x6");
    assert_eq!(rows[1]["rule_set"], "Anti-Othello");
    for row in rows {
        let n = |k: &str| row[k].as_u64().unwrap_or_else(|| panic!("{k} in {row}"));
        assert_eq!(n("games"), 2);
        assert_eq!(n("first_wins") + n("second_wins") + n("draws"), 2);
        let score = row["first_score"].as_f64().expect("score");
        assert!((0.0..=1.0).contains(&score));
        assert!(row["average_plies"].as_f64().expect("plies") > 4.0);
    }
}

#[test]
fn table_and_csv_for_two_levels() {
    let table = arena(&[
        "--game",
        "gomoku",
        "--rules",
        "freestyle",
        "--size",
        "9",
        "--levels",
        "Beginner,2",
        "--games",
        "2",
        "--quiet",
    ]);
    let lines: Vec<&str> = table.lines().collect();
    assert!(lines[0].starts_with("rule set") && lines[0].contains("A wins"), "{table}");
    assert!(lines[1].starts_with("Freestyle"), "{table}");
    assert!(lines.last().is_some_and(|l| l.starts_with("A = Beginner, B = Custom")), "{table}");
    let csv = arena(&[
        "--game", "gomoku", "--rules", "caro", "--size", "9", "--level", "1", "--games", "2", "--quiet", "--csv",
    ]);
    let rows: Vec<Vec<&str>> = csv.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(rows[0].len(), rows[1].len());
    assert_eq!(rows[1][0], "Caro");
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    for args in [
        &["--game", "chess"][..],
        &["--game", "gomoku", "--rules", "nonsense"],
        &["--game", "gomoku", "--level", "Godlike"],
        &["--game", "gomoku", "--rules", "renju", "--size", "19"],
        &["--game", "gomoku", "--levels", "Easy"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tabula-cli")).arg("arena").args(args).output().expect("run");
        assert!(!out.status.success(), "{args:?} should fail");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("tabula-cli:") || err.contains("error"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn a_missing_named_config_and_an_unbounded_level_are_errors() {
    let run = |config: &str, level: &str| {
        Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
            .args(["arena", "--game", "othello", "--level", level, "--games", "2"])
            .env("TABULA_CONFIG", config)
            .output()
            .expect("run tabula-cli arena")
    };
    let missing = run("/nonexistent/tabula-test-config.toml", "2");
    assert!(!missing.status.success());
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(said.contains("/nonexistent/tabula-test-config.toml") && said.contains("does not exist"), "{said}");
    let deep = run(concat!(env!("CARGO_MANIFEST_DIR"), "/../config/default.toml"), "999");
    assert!(!deep.status.success());
    let said = String::from_utf8_lossy(&deep.stderr);
    assert!(said.contains("from 1 to 16"), "{said}");
}

#[test]
fn a_record_file_holds_every_game_replayable_to_its_result() {
    use tabula_core::{Game, GameResult, Player};
    use tabula_games::othello::{Othello, notation};
    let path = std::env::temp_dir().join(format!("tabula-arena-record-{}.txt", std::process::id()));
    let file = path.to_str().expect("a UTF-8 temporary path");
    arena(&[
        "--game", "othello", "--rules", "othello", "--level", "Beginner", "--games", "4", "--quiet", "--record", file,
    ]);
    let text = std::fs::read_to_string(&path).expect("the record file");
    let _ = std::fs::remove_file(&path);
    let game = Othello::from_rule_set("othello").expect("standard Othello");
    assert_eq!(text.lines().count(), 4, "{text}");
    for line in text.lines() {
        let (rule_set, result, moves) = tabula_games::arena::parse_record_line(line).expect("a record line");
        assert_eq!(rule_set, "othello");
        let (_, end) = notation::parse_transcript(&game, moves).expect("legal moves");
        let outcome = game.outcome(&end).expect("each game is played to its end");
        let expected = match outcome.result {
            GameResult::Win(Player::First) => "1-0",
            GameResult::Win(Player::Second) => "0-1",
            GameResult::Draw => "1/2-1/2",
        };
        assert_eq!(result, expected, "{line}");
    }
}

#[test]
fn a_record_file_is_in_series_order_whatever_the_threads_finish_first() {
    let run = |threads: &str| {
        let path = std::env::temp_dir().join(format!("tabula-arena-order-{}-{threads}.txt", std::process::id()));
        let file = path.to_str().expect("a UTF-8 temporary path");
        arena(&[
            "--game",
            "othello",
            "--rules",
            "othello",
            "--level",
            "Easy",
            "--games",
            "12",
            "--opening",
            "6",
            "--seed",
            "5",
            "--threads",
            threads,
            "--quiet",
            "--record",
            file,
        ]);
        let text = std::fs::read_to_string(&path).expect("the record file");
        let _ = std::fs::remove_file(&path);
        text
    };
    let one = run("1");
    assert_eq!(one.lines().count(), 12);
    assert_eq!(run("2"), one, "two threads write the games in the order one thread plays them");
}

#[test]
fn an_external_engine_plays_b_and_its_errors_lose_its_games() {
    let brain = env!("CARGO_BIN_EXE_pbrain-tabula");
    let args = ["--game", "gomoku", "--rules", "freestyle", "--level", "Beginner", "--games", "2", "--quiet", "--json"];
    let text = arena(&[&args[..], &["--engine", brain, "--engine-time", "100", "--engine-name", "Ours"]].concat());
    let rows: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let row = &rows[0];
    assert_eq!((row["level_a"].as_str(), row["level_b"].as_str()), (Some("Beginner"), Some("Ours")));
    assert_eq!(row["games"], 2);
    assert_eq!(row["forfeits"], 0, "{row}");
    // An engine that quits at once loses every game, each by forfeit; the series goes on to its end.
    let text = arena(&[&args[..], &["--engine", "sh -c 'exit 0'", "--engine-name", "Quitter"]].concat());
    let rows: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let row = &rows[0];
    assert_eq!((row["forfeits"].as_u64(), row["level_a_wins"].as_u64()), (Some(2), Some(2)), "{row}");
}

#[test]
fn an_external_engine_needs_rule_sets_its_protocol_plays() {
    let err = arena_error(&["--game", "othello", "--rules", "othello,anti-othello", "--engine", "edax", "--quiet"]);
    assert!(err.contains("no engine protocol plays Anti-Othello"), "{err}");
}

#[test]
fn shards_merge_into_the_whole_series() {
    let dir = std::env::temp_dir().join(format!("tabula-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let base = ["--game", "othello", "--rules", "othello-6x6,othello", "--level", "Beginner", "--games", "6"];
    let base = [&base[..], &["--opening", "4", "--seed", "5", "--quiet", "--json"]].concat();
    let whole = arena(&base);
    let mut files = Vec::new();
    for part in ["1/2", "2/2"] {
        let file = dir.join(format!("part-{}.json", &part[..1])).display().to_string();
        arena(&[&base[..], &["--shard", part, "--out", &file]].concat());
        files.push(file);
    }
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let merged = arena(&[&["merge"][..], &files, &["--json"]].concat());
    let rows = |text: &str| -> Vec<serde_json::Value> {
        let mut rows: Vec<serde_json::Value> = serde_json::from_str(text).expect("JSON");
        for row in &mut rows {
            row.as_object_mut().expect("a row").remove("average_move_ms");
        }
        rows
    };
    assert_eq!(rows(&merged), rows(&whole), "the parts add up to the series, game for game");
    assert_eq!(rows(&whole)[0]["games"], 6);

    let err = arena_error(&["merge", files[0], files[0]]);
    assert!(err.contains("part 1/2 is given twice"), "{err}");
    let other = dir.join("other.json").display().to_string();
    let base_other = [&base[..5], &["Easy", "--games", "6", "--opening", "4", "--quiet"]].concat();
    arena(&[&base_other[..], &["--shard", "2/2", "--out", &other]].concat());
    let err = arena_error(&["merge", files[0], &other]);
    assert!(err.contains("part of another series"), "{err}");
    let out = run_arena(&["merge", files[1]]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("parts 1 of the series are missing"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_plot_draws_every_rule_set_and_both_players() {
    let path = std::env::temp_dir().join(format!("tabula-plot-{}.svg", std::process::id()));
    let file = path.display().to_string();
    arena(&[
        "--game",
        "othello",
        "--rules",
        "othello-6x6,anti-othello",
        "--levels",
        "Beginner,Easy",
        "--games",
        "2",
        "--opening",
        "4",
        "--quiet",
        "--plot",
        &file,
    ]);
    let svg = std::fs::read_to_string(&path).expect("the plot");
    assert!(svg.starts_with("<svg"), "{}", &svg[..svg.len().min(200)]);
    for text in ["Othello 6x6", "Anti-Othello", "Beginner against Easy", "score of Beginner", "game length, plies"] {
        assert!(svg.contains(text), "{text} is not drawn");
    }
    std::fs::remove_file(&path).ok();
}

#[test]
fn several_levels_play_each_rule_set_at_each() {
    let text = arena_words(
        "--game othello --rules othello-6x6,anti-othello --level Beginner,1 --games 2 --opening 4 --quiet --json",
    );
    let rows: Vec<serde_json::Value> = serde_json::from_str(&text).expect("JSON");
    let names: Vec<&str> = rows.iter().filter_map(|r| r["rule_set"].as_str()).collect();
    assert_eq!(
        names,
        [
            "Othello 6x6 · Beginner",
            "Othello 6x6 · Custom (depth 1)",
            "Anti-Othello · Beginner",
            "Anti-Othello · Custom (depth 1)"
        ]
    );
    assert!(rows.iter().all(|r| r["level_a"] == r["level_b"] && r["games"] == 2), "{text}");
}
