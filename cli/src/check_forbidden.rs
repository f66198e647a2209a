//! `check-forbidden FILE`: computes the Renju forbidden points of every position in the file and compares them with
//! the expected ones, one line per position, then a summary; the exit status is non-zero on any failure.

use std::path::Path;
use std::process::ExitCode;

use tabula_games::gomoku::datasets::ForbiddenCase;

/// Runs the check on `path`.
pub fn run(path: &Path) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let (mut passed, mut failed) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        match ForbiddenCase::parse(line) {
            Ok(None) => {}
            Ok(Some(case)) => match case.check() {
                Ok(()) => {
                    passed += 1;
                    say!("{} ok", case.id);
                }
                Err(diff) => {
                    failed += 1;
                    say!("{} WRONG {diff}", case.id);
                }
            },
            Err(e) => {
                failed += 1;
                say!("{}:{}: malformed line: {e}", path.display(), i + 1);
            }
        }
    }
    say!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
