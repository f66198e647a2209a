//! `tabula-cli solve`: exact solutions of Othello positions from an `.obf` file, checked against its answers.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use tabula_core::{Game, Limits, SearchOptions, Searcher};
use tabula_games::othello::{Move, Othello, OthelloEval, Position, notation};

/// Arguments of `solve`.
#[derive(clap::Args)]
pub struct Args {
    /// The `.obf` file: one position per line (`<board> <side>; <move>:<score>; ...`), `%` starts a comment.
    file: PathBuf,
    /// The number shown for the first position (the FFO suite file starts at 40).
    #[arg(long, default_value_t = 1)]
    first: usize,
    /// The searcher's transposition table size, in megabytes (at most half the machine's memory).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    hash_mb: u64,
    /// The endgame solver's own table size, in megabytes (rounded down to a power of two; at most half the
    /// machine's memory).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=4096))]
    solver_mb: u32,
    /// Search threads, sharing both tables.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=tabula_games::engine::MAX_THREADS as i64))]
    threads: u16,
}

/// One position of the file with its expected best moves and score.
struct Problem {
    line: usize,
    position: Position,
    best: Vec<Move>,
    score: i32,
}

/// Reads an `.obf` file; errors name the file, line and what was wrong.
fn parse_file(game: &Othello, name: &str, text: &str) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('%') || content.starts_with('#') {
            continue;
        }
        let error = |message: String| format!("{name}:{line}: {message}");
        let mut fields = content.split(';').map(str::trim).filter(|f| !f.is_empty());
        let board = fields.next().unwrap_or_default();
        let position = notation::parse_board(game, board).map_err(|e| error(format!("board: {e}")))?;
        let mut best = Vec::new();
        let mut score = None;
        for field in fields {
            let (mv, value) =
                field.split_once(':').ok_or_else(|| error(format!("expected `move:score`, found `{field}`")))?;
            let mv = notation::parse_square(game.size(), mv).map_err(|e| error(format!("move `{mv}`: {e}")))?;
            let value: i32 =
                value.trim().parse().map_err(|_| error(format!("score `{}` is not a number", value.trim())))?;
            if score.is_some_and(|s| s != value) {
                return Err(error(format!("listed moves have different scores ({} and {value})", score.unwrap_or(0))));
            }
            if !game.is_legal(&position, mv) {
                return Err(error(format!("listed move {} is not legal in the position", game.format_move(mv))));
            }
            score = Some(value);
            best.push(mv);
        }
        let score = score.ok_or_else(|| error("no `move:score` answers after the board".to_string()))?;
        problems.push(Problem { line, position, best, score });
    }
    Ok(problems)
}

/// Checks that a table of `megabytes` leaves this machine room (at most half its memory, where the system says).
fn fits_in_memory(flag: &str, megabytes: u64) -> Result<(), String> {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb / 1024)
    });
    match total {
        Some(total) if megabytes > total / 2 => {
            Err(format!("{flag} {megabytes} is more than half of this machine's {total} MB of memory"))
        }
        _ => Ok(()),
    }
}

/// Solves each position and prints `number best score nodes seconds ok|WRONG`, then the totals.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    fits_in_memory("--hash-mb", args.hash_mb)?;
    fits_in_memory("--solver-mb", u64::from(args.solver_mb))?;
    let name = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).map_err(|e| format!("{name}: {e}"))?;
    let game = Othello::default();
    let problems = parse_file(&game, &name, &text)?;
    let options = SearchOptions { exact: true, ..SearchOptions::default() };
    let (mut passed, mut failed) = (0, 0);
    let (mut all_nodes, mut all_seconds) = (0u64, 0.0);
    say!("number best score nodes seconds nodes/s result");
    for (i, problem) in problems.iter().enumerate() {
        // 16-byte entries: 2^16 of them per megabyte.
        let evaluator = OthelloEval::exact(&game, args.solver_mb.ilog2() + 16);
        let mut searcher = Searcher::new(&game, args.hash_mb as usize);
        searcher.set_threads(usize::from(args.threads));
        let clock = Instant::now();
        let result = searcher.search(&game, &evaluator, &problem.position, &Limits::default(), &options, &mut |_| {});
        let seconds = clock.elapsed().as_secs_f64();
        let ok = result.score == problem.score && result.best_move.is_some_and(|m| problem.best.contains(&m));
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
        all_nodes += result.nodes;
        all_seconds += seconds;
        let best = result.best_move.map_or_else(|| "-".to_string(), |m| game.format_move(m));
        let verdict = if ok {
            "ok".to_string()
        } else {
            let expected: Vec<_> = problem.best.iter().map(|&m| game.format_move(m)).collect();
            format!("WRONG (line {}: expected {} {:+})", problem.line, expected.join("/"), problem.score)
        };
        say!(
            "{} {best} {:+} {} {seconds:.3} {:.0} {verdict}",
            args.first + i,
            result.score,
            result.nodes,
            result.nodes as f64 / seconds.max(1e-9)
        );
    }
    say!("total: {all_nodes} nodes, {all_seconds:.3} s, {:.0} nodes/s", all_nodes as f64 / all_seconds.max(1e-9));
    say!("{passed} passed, {failed} failed");
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;";

    #[test]
    fn reads_positions_and_skips_comments() {
        let game = Othello::default();
        let text = format!("% comment\n\n{FFO_40}\n");
        let problems = parse_file(&game, "t.obf", &text).expect("valid file");
        assert_eq!(problems.len(), 1);
        assert_eq!((problems[0].line, problems[0].score), (3, 38));
        assert_eq!(game.format_move(problems[0].best[0]), "a2");
    }

    #[test]
    fn malformed_lines_name_file_and_line() {
        let game = Othello::default();
        let cases = [
            (FFO_40.replace("O--O", "O--Q"), "t.obf:2: board: at character 4"),
            (FFO_40.replace("A2:+38", "A2+38"), "t.obf:2: expected `move:score`"),
            (FFO_40.replace("A2:+38", "A2:many"), "t.obf:2: score `many` is not a number"),
            (FFO_40.replace("A2:+38", "Z2:+38"), "t.obf:2: move `Z2`"),
            (FFO_40.replace("A2:+38", "H8:+38"), "t.obf:2: listed move h8 is not legal"),
            (FFO_40.replace("; A2:+38;", ""), "t.obf:2: no `move:score` answers"),
        ];
        for (line, expected) in cases {
            let err = parse_file(&game, "t.obf", &format!("% header\n{line}\n")).err().unwrap_or_default();
            assert!(err.starts_with(expected), "{err}");
        }
    }
}
