//! `tabula-cli solve` refuses table sizes the machine cannot give, with a message instead of a panic or an abort.

use std::process::Command;

fn solve(hash_mb: &str) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula-cli"))
        .args(["solve", concat!(env!("CARGO_MANIFEST_DIR"), "/../testdata/ffo-40-59.obf"), "--hash-mb", hash_mb])
        .output()
        .expect("run tabula-cli solve");
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn table_sizes_are_checked() {
    for size in ["18446744073709551615", "17592186044416", "0"] {
        let (ok, said) = solve(size);
        assert!(!ok && said.contains("--hash-mb") && !said.contains("panicked"), "{size}: {said}");
    }
    let (ok, said) = solve("1000000");
    assert!(!ok && said.contains("more than half of this machine's"), "{said}");
}
