//! `tabula-cli openings`: generates a balanced opening suite per rule set (see `tabula_games::openings`), the data
//! behind the arena's default openings.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use tabula_core::{Level, Score};
use tabula_games::openings::{KeptOpening, SuiteSpec, format_opening, generate};
use tabula_games::{BoardGame, GameKind, GameVisitor, MatchSpec, files};

/// Arguments of `openings`.
#[derive(clap::Args)]
pub struct Args {
    /// The game: gomoku or othello.
    #[arg(long, default_value = "gomoku")]
    game: String,
    /// Rule sets, comma-separated (default: all of the game's).
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    /// The board size, where the rule sets allow a choice.
    #[arg(long)]
    size: Option<usize>,
    /// Moves in each opening.
    #[arg(long, default_value_t = 3)]
    plies: usize,
    /// Openings per rule set.
    #[arg(long, default_value_t = 200)]
    count: usize,
    /// The depth of the search that judges each opening.
    #[arg(long, default_value_t = 8)]
    depth: u32,
    /// The largest absolute value (side to move's view) an opening may have.
    #[arg(long, default_value_t = 300)]
    margin: Score,
    /// The seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The folder to write `<game>-<rule set>-<size>.txt` files into.
    #[arg(long)]
    out: PathBuf,
}

struct Suite<'a> {
    args: &'a Args,
    rule_set: &'a str,
    /// The file's name before the board width: `<game>-<rule set>`.
    stem: String,
    spec: SuiteSpec,
    bar: &'a ProgressBar,
}

impl Suite<'_> {
    /// The suite file's text: a header saying how it was made, then one opening a line; `done` is false while the
    /// search goes on, and the header says so, so that a run stopped early leaves a readable, honest file.
    fn text<G: BoardGame>(&self, game: &G, found: &[KeptOpening<G::Move>], tried: usize, done: bool) -> String {
        let mut text = format!(
            "# {} openings of {} moves kept from {tried} tried: the mean of the depth-{} search's last two \
             iterations is within ±{} for the side to move.\n",
            found.len(),
            self.spec.plies,
            self.spec.level.depth,
            self.spec.margin
        );
        if !done {
            let _ = writeln!(text, "# Unfinished: the run was still looking for {} openings.", self.spec.count);
        }
        let _ = writeln!(
            text,
            "# Made by: tabula-cli openings --game {} --rules {}{} --plies {} --count {} --depth {} --margin {} \
             --seed {} --out {}",
            self.args.game,
            self.rule_set,
            self.args.size.map_or_else(String::new, |s| format!(" --size {s}")),
            self.args.plies,
            self.args.count,
            self.args.depth,
            self.args.margin,
            self.args.seed,
            self.args.out.display()
        );
        for (opening, value) in found {
            let _ = writeln!(text, "{}  # {value:+}", format_opening(game, opening));
        }
        text
    }
}

impl GameVisitor for Suite<'_> {
    /// The file written and the openings found.
    type Output = Result<(PathBuf, usize), String>;

    fn visit<G: BoardGame>(self, game: G) -> Result<(PathBuf, usize), String> {
        let path = self.args.out.join(format!("{}-{}.txt", self.stem, game.board_size().0));
        // Written before the search, so a file that cannot be written is reported at once, not after hours.
        files::write_atomic(&path, self.text(&game, &[], 0, false))?;
        let mut tried = 0;
        let mut saved = Ok(());
        let found = generate(&game, &self.spec, |found, kept| {
            tried += 1;
            if kept {
                self.bar.inc(1);
                if saved.is_ok() {
                    saved = files::write_atomic(&path, self.text(&game, found, tried, false));
                }
            }
        });
        saved?;
        files::write_atomic(&path, self.text(&game, &found, tried, true))?;
        Ok((path, found.len()))
    }
}

/// Generates and writes one suite per rule set.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let game = GameKind::parse(&args.game)?;
    let level = Level::custom(args.depth);
    if let Some(problem) = level.problem() {
        return Err(format!("--depth: {problem}"));
    }
    if args.plies == 0 || args.count == 0 {
        return Err("--plies and --count must be at least 1".into());
    }
    let rule_sets: Vec<String> = if args.rules.is_empty() {
        game.rule_sets().iter().map(|s| s.id.to_string()).collect()
    } else {
        args.rules.clone()
    };
    for rule_set in &rule_sets {
        let spec = MatchSpec { game, rule_set: rule_set.clone(), board_size: args.size };
        let bar = ProgressBar::new(args.count as u64);
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} openings, {elapsed} (eta {eta})")
                .map_err(|e| e.to_string())?
                .progress_chars("=> "),
        );
        bar.set_prefix(spec.rule_set_name());
        let suite = SuiteSpec {
            plies: args.plies,
            count: args.count,
            tries: args.count.saturating_mul(50),
            level: level.clone(),
            margin: args.margin,
            seed: args.seed,
        };
        let (path, found) =
            spec.visit(Suite { args, rule_set, stem: format!("{}-{rule_set}", game.id()), spec: suite, bar: &bar })??;
        bar.finish_and_clear();
        say!("{}: wrote {found} openings to {}", spec.rule_set_name(), path.display());
        if found < args.count {
            say!(
                "{}: only {found} of the {} asked for: the distinct {}-move openings within ±{} ran out (more \
                 --plies or a wider --margin find more)",
                spec.rule_set_name(),
                args.count,
                args.plies,
                args.margin
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
