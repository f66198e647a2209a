//! `tabula-cli openings` on a tiny budget: the suite file it writes, and a folder it cannot write to.

use std::process::{Command, Output};

/// `tabula-cli openings` with `args`.
fn openings(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabula-cli")).arg("openings").args(args).output().expect("run tabula-cli")
}

#[test]
fn a_finished_run_writes_the_suite_without_the_unfinished_mark() {
    let dir = std::env::temp_dir().join(format!("tabula-openings-{}", std::process::id()));
    let out = openings(&[
        "--rules",
        "freestyle",
        "--plies",
        "3",
        "--count",
        "2",
        "--depth",
        "2",
        "--margin",
        "5000",
        "--out",
        dir.to_str().expect("utf-8 path"),
    ]);
    assert!(out.status.success(), "openings failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(dir.join("gomoku-freestyle-15.txt")).expect("the suite file");
    std::fs::remove_dir_all(&dir).expect("clean up");
    assert!(text.starts_with("# 2 openings of 3 moves"), "{text}");
    assert!(!text.contains("Unfinished"), "{text}");
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 2, "{text}");
}

#[test]
fn a_folder_that_cannot_be_made_is_reported_before_any_search() {
    let file = std::env::temp_dir().join(format!("tabula-openings-file-{}", std::process::id()));
    std::fs::write(&file, "not a folder").expect("write a plain file");
    let target = file.join("suites");
    // Deep enough that the search alone would take far longer than a test: the error must come first.
    let started = std::time::Instant::now();
    let out = openings(&[
        "--rules",
        "freestyle",
        "--plies",
        "5",
        "--count",
        "200",
        "--depth",
        "12",
        "--out",
        target.to_str().expect("utf-8 path"),
    ]);
    let seconds = started.elapsed().as_secs_f64();
    std::fs::remove_file(&file).expect("clean up");
    assert!(!out.status.success(), "writing under a plain file should fail");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot write") && stderr.contains("gomoku-freestyle-15.txt"), "{stderr}");
    assert!(seconds < 30.0, "the error came only after {seconds:.1} s");
}
