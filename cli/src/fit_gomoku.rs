//! `tabula-cli fit-gomoku`: fits the Gomoku pattern values to the engine's own games (see
//! `tabula_games::gomoku::fitting`) and writes the values file the engine embeds.

use std::path::PathBuf;
use std::process::ExitCode;

use indicatif::{ProgressBar, ProgressStyle};
use tabula_core::Level;
use tabula_games::files;
use tabula_games::gomoku::fitting::{self, Fit, SelfPlay};
use tabula_games::gomoku::values::{self, RuleValues, ValuesFile};
use tabula_games::gomoku::{Gomoku, WinRule};

/// Arguments of `fit-gomoku`.
#[derive(clap::Args)]
pub struct Args {
    /// Rules to fit, comma-separated (default: all); the others keep their values.
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    /// Self-play games per rule.
    #[arg(long, default_value_t = 2_000)]
    games: usize,
    /// The search depth of the self-play games.
    #[arg(long, default_value_t = 3)]
    depth: u32,
    /// Root moves within this many points of the best may be chosen, so that games differ.
    #[arg(long, default_value_t = 100)]
    randomness: i32,
    /// Stones of each random opening (with `--suite`, random stones after the suite's).
    #[arg(long, default_value_t = 3)]
    opening: usize,
    /// Start the games from the rule's balanced opening suite (in turn), then `--opening` random stones.
    #[arg(long)]
    suite: bool,
    /// Adam steps (passes over all samples).
    #[arg(long, default_value_t = 400)]
    steps: usize,
    /// Adam's step size, in value units.
    #[arg(long, default_value_t = 4.0)]
    rate: f64,
    /// Fit a value per shape (combination of four line patterns) on top of the features' values.
    #[arg(long)]
    shapes: bool,
    /// Fit a value per threat situation (which fours and threes each side has) for the side to move.
    #[arg(long)]
    situations: bool,
    /// With `--shapes` or `--situations`, the pull of their values towards nothing (comma-separated to try several: the one
    /// with the lowest loss on the held-back games is kept).
    #[arg(long, value_delimiter = ',', default_value = "1e-7")]
    shape_pull: Vec<f64>,
    /// Start from the hand-set values instead of the embedded ones (the self-play games use them too).
    #[arg(long)]
    from_hand: bool,
    /// The seed of the openings and the randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the available cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Also write the self-play games to this file (with one rule), so that later fits can reuse them.
    #[arg(long, conflicts_with = "load_games")]
    save_games: Option<PathBuf>,
    /// Fit to the games in this file (written by `--save-games`, with one rule) instead of playing new ones: the
    /// options of the self-play are then unused.
    #[arg(long)]
    load_games: Option<PathBuf>,
    /// The values file to write (every rule: the fitted ones and the others as embedded).
    #[arg(long)]
    out: PathBuf,
}

fn bar(len: u64, what: &str) -> Result<ProgressBar, String> {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{prefix:>12}} [{{bar:30}}] {{pos}}/{{len}} {what}, {{elapsed}} (eta {{eta}})"
        ))
        .map_err(|e| e.to_string())?
        .progress_chars("=> "),
    );
    Ok(bar)
}

/// Plays, fits and writes.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    let rules: Vec<WinRule> = if args.rules.is_empty() {
        WinRule::ALL.to_vec()
    } else {
        args.rules
            .iter()
            .map(|id| {
                WinRule::ALL
                    .into_iter()
                    .find(|r| r.id() == id)
                    .ok_or_else(|| format!("unknown rule `{id}` (known: freestyle, exact-five, renju, caro)"))
            })
            .collect::<Result<_, _>>()?
    };
    if args.games == 0 || args.steps == 0 {
        return Err("--games and --steps must be at least 1".into());
    }
    if rules.len() != 1 && (args.save_games.is_some() || args.load_games.is_some()) {
        return Err("--save-games and --load-games need exactly one rule in --rules".into());
    }
    let level = Level { randomness: args.randomness, ..Level::custom(args.depth) };
    if let Some(problem) = level.problem() {
        return Err(format!("--depth or --randomness: {problem}"));
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let mut file: ValuesFile =
        WinRule::ALL.iter().map(|&r| (r.id().to_string(), values::embedded(r).clone())).collect();
    let mut notes = Vec::new();
    for rule in rules {
        let mut game = Gomoku::new(15, rule).map_err(|e| e.to_string())?;
        if args.from_hand {
            game = game.with_values(RuleValues::hand_set());
        }
        let start = game.values().clone();
        let played = if let Some(path) = &args.load_games {
            let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            fitting::parse_games(&game, &text).map_err(|e| format!("{}: {e}", path.display()))?
        } else {
            let spec = SelfPlay {
                games: args.games,
                opening: args.opening,
                suite: args.suite,
                level: level.clone(),
                seed: args.seed,
                threads,
            };
            let games = bar(args.games as u64, "games")?;
            games.set_prefix(rule.name());
            let played = fitting::self_play(&game, &spec, &|| games.inc(1));
            games.finish_and_clear();
            played
        };
        if let Some(path) = &args.save_games {
            files::write_atomic(path, fitting::format_games(&game, &played))?;
            say!("wrote the games to {}", path.display());
        }
        let samples = fitting::samples(&game, &played);
        // Every tenth game is held back to measure the fit on games it has not seen.
        let (held, train): (Vec<_>, Vec<_>) = samples.into_iter().partition(|s| s.game % 10 == 9);
        let extras = args.shapes || args.situations;
        let pulls = if extras { args.shape_pull.clone() } else { vec![0.0] };
        let mut best: Option<(f64, f64, RuleValues)> = None;
        for &shape_pull in &pulls {
            let steps = bar(args.steps as u64, "steps")?;
            steps.set_prefix(rule.name());
            let fit = Fit {
                steps: args.steps,
                rate: args.rate,
                pull: 0.0,
                shapes: args.shapes,
                situations: args.situations,
                shape_pull,
            };
            let fitted = fitting::fit(&start, &train, &fit, &|_| steps.inc(1));
            steps.finish_and_clear();
            let held_loss = fitting::loss(&fitted, &held);
            if extras {
                say!("{}: pull {shape_pull:e}: held-back loss {held_loss:.4}", rule.id());
            }
            if best.as_ref().is_none_or(|(loss, _, _)| held_loss < *loss) {
                best = Some((held_loss, shape_pull, fitted));
            }
        }
        let (held_after, shape_pull, fitted) = best.ok_or("--shape-pull needs at least one value")?;
        let (before, after) = (fitting::loss(&start, &train), fitting::loss(&fitted, &train));
        let held_before = fitting::loss(&start, &held);
        let shapes = if extras { format!(", pull {shape_pull:e}") } else { String::new() };
        let note = format!(
            "{}: {} samples from {} games, loss {before:.4} -> {after:.4}; every tenth game held back ({} samples): \
             loss {held_before:.4} -> {held_after:.4}{shapes}",
            rule.id(),
            train.len(),
            played.len(),
            held.len(),
        );
        say!("{note}");
        notes.push(note);
        file.insert(rule.id().to_string(), fitted);
    }
    let self_play = match &args.load_games {
        Some(path) => format!("--load-games {}", path.display()),
        None => format!(
            "--games {} --depth {} --randomness {} --opening {}{} --seed {}",
            args.games,
            args.depth,
            args.randomness,
            args.opening,
            if args.suite { " --suite" } else { "" },
            args.seed
        ),
    };
    let extras =
        format!("{}{}", if args.shapes { " --shapes" } else { "" }, if args.situations { " --situations" } else { "" });
    let pulls = if extras.is_empty() {
        String::new()
    } else {
        format!(" --shape-pull {}", args.shape_pull.iter().map(|p| format!("{p:e}")).collect::<Vec<_>>().join(","))
    };
    let made_by = format!(
        "Made by: tabula-cli fit-gomoku {self_play} --steps {} --rate {}{}{extras}{pulls} (the rules not listed kept \
         their values)\n# {}",
        args.steps,
        args.rate,
        if args.from_hand { " --from-hand" } else { "" },
        notes.join("\n# ")
    );
    files::write_atomic(&args.out, values::format(&file, &made_by)?)?;
    say!("wrote {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}
