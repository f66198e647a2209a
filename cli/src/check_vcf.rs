//! `check-vcf FILE`: runs the VCF solver on every puzzle of the file; a puzzle passes when the shortest win found
//! has exactly the expected length and starts with a listed move. One line per puzzle with nodes and seconds, then
//! a summary; the exit status is non-zero on any failure.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use tabula_games::gomoku::datasets::VcfPuzzle;

/// Runs the check on `path`.
pub fn run(path: &Path) -> Result<ExitCode, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let start = Instant::now();
    let (mut passed, mut failed) = (0, 0);
    for (i, line) in text.lines().enumerate() {
        match VcfPuzzle::parse(line) {
            Ok(None) => {}
            Ok(Some(puzzle)) => {
                let check = puzzle.check();
                let (word, detail) = match check.verdict {
                    Ok(summary) => {
                        passed += 1;
                        ("ok", summary)
                    }
                    Err(diff) => {
                        failed += 1;
                        ("WRONG", diff)
                    }
                };
                say!("{} {word} {detail} ({} nodes, {:.3} s)", puzzle.id, check.nodes, check.seconds);
            }
            Err(e) => {
                failed += 1;
                say!("{}:{}: malformed line: {e}", path.display(), i + 1);
            }
        }
    }
    say!("{passed} passed, {failed} failed ({:.2} s)", start.elapsed().as_secs_f64());
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
