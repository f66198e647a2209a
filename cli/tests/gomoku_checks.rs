//! End-to-end runs of `check-forbidden` and `check-vcf` on the shared data and on broken files.

use std::process::Command;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata");

fn run(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula-cli")).args(args).output().expect("runs");
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr))
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("tabula-cli-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("writes");
    path.to_string_lossy().into_owned()
}

#[test]
fn shared_fixtures_pass() {
    let (ok, out) = run(&["check-forbidden", &format!("{DATA}/renju-forbidden.txt")]);
    assert!(ok, "{out}");
    assert!(out.contains(" passed, 0 failed"), "{out}");
    let (ok, out) = run(&["check-vcf", &format!("{DATA}/vcf-puzzles.tsv")]);
    assert!(ok, "{out}");
    assert!(out.lines().any(|l| l.starts_with("V043 ok") && l.contains("nodes")), "{out}");
}

#[test]
fn wrong_and_malformed_lines_fail_with_line_numbers() {
    let file = temp_file("forbidden.txt", "# header\nX1\t6,7 7,7 8,5 8,6\t-\t-\thand\nX2\t1,1\n");
    let (ok, out) = run(&["check-forbidden", &file]);
    assert!(!ok);
    assert!(out.contains("X1 WRONG missing [] unexpected [8,7:double-three]"), "{out}");
    assert!(out.contains(":3: malformed line"), "{out}");
    assert!(out.contains("0 passed, 2 failed"), "{out}");
    let file = temp_file("vcf.tsv", "V1\tfreestyle\t15\t1\tblack\t3\t7,7\t7,7\n");
    let (ok, out) = run(&["check-vcf", &file]);
    assert!(!ok);
    assert!(out.contains(":1: malformed line: field 5 (side)"), "{out}");
    let (ok, out) = run(&["check-vcf", "/nonexistent/file.tsv"]);
    assert!(!ok && out.contains("cannot read"), "{out}");
}
