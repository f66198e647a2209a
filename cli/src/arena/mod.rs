//! `tabula-cli arena`: computer-versus-computer series to compare rule sets, to compare two levels, or to measure
//! a level against an external engine (a Gomocup brain or an NBoard engine); a series can be spread over machines
//! in shards and merged ([`shard`]).

mod plot;
mod shard;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use tabula_core::{Level, Levels};
use tabula_games::arena::{Contender, GameRecord, SeriesConfig, SeriesSummary, run_series};
use tabula_games::external::EngineSpec;
use tabula_games::files::write_atomic;
use tabula_games::{BoardGame, GameKind, GameVisitor, MatchSpec, config};

/// Arguments of `arena`.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    /// Combine the shards of a series instead of playing one.
    #[command(subcommand)]
    command: Option<Command>,
    /// The game: gomoku or othello.
    #[arg(long, required = true)]
    game: Option<String>,
    /// Rule sets to compare, comma-separated (default: all of the game's).
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    /// The board size, where the rule sets allow a choice.
    #[arg(long)]
    size: Option<usize>,
    /// The level of both sides (a name from the configuration, or a search depth); several, comma-separated,
    /// play each rule set at each level (does the first player's edge depend on strength?).
    #[arg(long, default_value = "Easy")]
    level: String,
    /// Black's level, to pit two levels against each other (colours alternate between games).
    #[arg(long)]
    black_level: Option<String>,
    /// White's level (see --black-level).
    #[arg(long)]
    white_level: Option<String>,
    /// Two levels A,B that play each other with colours alternating.
    #[arg(long, value_delimiter = ',', num_args = 1..)]
    levels: Vec<String>,
    /// Games per rule set (rounded up to an even number: each opening is played with both colour assignments).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Random openings of this many plies, instead of the rule set's balanced suite (where there is none: 4 plies
    /// for Gomoku, 6 for Othello).
    #[arg(long)]
    opening: Option<usize>,
    /// The seed for openings and the levels' randomness. Series of depth-limited levels (Beginner, Easy, or a
    /// depth) replay exactly; levels with a time limit stop on the clock, so their games depend on the machine's
    /// speed and load.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: the available cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    csv: bool,
    /// Hide the progress bar.
    #[arg(long)]
    quiet: bool,
    /// Write every game to this file, one line each: rule set, result and moves, tab-separated (written whole
    /// when the series ends).
    #[arg(long)]
    record: Option<PathBuf>,
    /// An external engine that plays B against --level (A): the program and its arguments, as a shell would split
    /// them. Gomoku engines speak the Gomocup pbrain protocol, Othello engines NBoard. A crash, a hang past its
    /// time and grace, or an illegal move loses the game.
    #[arg(long, conflicts_with_all = ["black_level", "white_level", "levels"])]
    engine: Option<String>,
    /// The folder the engine runs in.
    #[arg(long, requires = "engine")]
    engine_folder: Option<PathBuf>,
    /// The engine's name in the results (default: its program's file name).
    #[arg(long, requires = "engine")]
    engine_name: Option<String>,
    /// The engine's time per move, in milliseconds.
    #[arg(long, default_value_t = 1000, requires = "engine")]
    engine_time: u64,
    /// Play only part K of N of the series (the openings whose index leaves K-1 divided by N), for spreading one
    /// series over N machines; `arena merge` combines the parts' `--out` files.
    #[arg(long, requires = "out")]
    shard: Option<shard::Shard>,
    /// Write the series' games as JSON that `arena merge` reads.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Draw the results as SVG: the first player's score per rule set with its 95% interval (and player A's,
    /// for two players), and the distribution of game lengths.
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// What `arena` does besides playing.
#[derive(clap::Subcommand)]
enum Command {
    /// Combines the `--out` files of a series' shards and prints the whole series' results.
    Merge(MergeArgs),
}

/// Arguments of `arena merge`.
#[derive(clap::Args)]
struct MergeArgs {
    /// The shard files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    csv: bool,
    /// Draw the results as SVG (see `arena --plot`).
    #[arg(long)]
    plot: Option<PathBuf>,
}

/// One rule set's results, as printed.
#[derive(Serialize)]
struct Row {
    rule_set: String,
    level_a: String,
    level_b: String,
    games: usize,
    first_wins: usize,
    second_wins: usize,
    draws: usize,
    first_score: f64,
    first_score_ci95: f64,
    level_a_wins: usize,
    level_b_wins: usize,
    level_a_score: f64,
    level_a_score_ci95: f64,
    average_plies: f64,
    average_move_ms: f64,
    forfeits: usize,
    /// The share of the won games (judged by our engine) whose winner was not ahead until the last fifth.
    decided_late: Option<f64>,
    known_result: Option<&'static str>,
    /// Under a swap opening, the score of the player who placed the first stones, with its 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    opener_score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    opener_score_ci95: Option<f64>,
    /// The rule set's own name (the row's may add its level).
    #[serde(skip)]
    rules: String,
}

/// A level by configured name, or a plain search depth.
pub(crate) fn find_level(levels: &Levels, name: &str) -> Result<Level, String> {
    if let Ok(depth) = name.trim().parse::<u32>() {
        let level = Level::custom(depth);
        return match level.problem() {
            Some(_) => Err(format!(
                "a depth must be from 1 to {} (a level has no time limit), not {depth}",
                Level::MAX_UNTIMED_DEPTH
            )),
            None => Ok(level),
        };
    }
    levels.get(name).cloned().ok_or_else(|| {
        let known: Vec<&str> = levels.all().iter().map(|l| l.name.as_str()).collect();
        format!("unknown level `{name}` (known: {}, or a depth)", known.join(", "))
    })
}

/// The external engine `args` name, for the rule sets to be played: each must be one its protocol plays.
fn external(args: &Args, command: &str, specs: &[MatchSpec]) -> Result<Contender, String> {
    let words = shell_words::split(command).map_err(|e| format!("--engine: {e}"))?;
    let Some((program, engine_args)) = words.split_first() else {
        return Err("--engine: give the program that starts the engine".into());
    };
    let protocols: Vec<_> = specs.iter().map(MatchSpec::engine_protocol).collect();
    let Some(Some(protocol)) = protocols.first().copied() else {
        let rules = specs.first().map(MatchSpec::rule_set_name).unwrap_or_default();
        return Err(format!("no engine protocol plays {rules}"));
    };
    if let Some(spec) = specs.iter().zip(&protocols).find_map(|(spec, p)| (*p != Some(protocol)).then_some(spec)) {
        return Err(format!("no engine protocol plays {}", spec.rule_set_name()));
    }
    let program = PathBuf::from(program);
    let name = args.engine_name.clone().unwrap_or_else(|| {
        program.file_name().map_or_else(|| program.display().to_string(), |n| n.to_string_lossy().into_owned())
    });
    let spec = EngineSpec { name, protocol, program, args: engine_args.to_vec(), folder: args.engine_folder.clone() };
    Ok(Contender::External { spec, turn: Duration::from_millis(args.engine_time.max(1)) })
}

/// Finished games with the places of their rule set and of the game in the series.
type Games = Mutex<Vec<(usize, usize, GameRecord)>>;

struct Series<'a> {
    config: SeriesConfig,
    bar: &'a ProgressBar,
    /// The rule set's place, and where its finished games go.
    place: usize,
    games: &'a Games,
}

impl GameVisitor for Series<'_> {
    type Output = SeriesSummary;
    fn visit<G: BoardGame>(self, game: G) -> SeriesSummary {
        let stop = AtomicBool::new(false);
        run_series(&game, &self.config, &stop, &|number, g| {
            if let Some(forfeit) = &g.forfeit {
                self.bar.suspend(|| eprintln!("game {}: {forfeit}; that side loses", number + 1));
            }
            self.games.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push((self.place, number, g.clone()));
            self.bar.inc(1);
        })
    }
}

/// One row of the results: a rule set played by a pair of players, and the name it is shown under.
struct Plan {
    spec: MatchSpec,
    players: [Contender; 2],
    name: String,
}

/// The pairs of players the arguments ask for: two levels, or each `--level` against itself or the engine.
fn pairs(args: &Args, levels: &Levels, specs: &[MatchSpec]) -> Result<Vec<[Contender; 2]>, String> {
    let level = |name: &str| find_level(levels, name).map(Contender::Level);
    match (&args.black_level, &args.white_level, args.levels.as_slice()) {
        (_, _, [a, b]) => Ok(vec![[level(a)?, level(b)?]]),
        (_, _, [_, ..]) => Err("--levels takes exactly two levels, A,B".into()),
        (Some(black), Some(white), []) => Ok(vec![[level(black)?, level(white)?]]),
        (None, None, []) => {
            let opponent = args.engine.as_deref().map(|command| external(args, command, specs)).transpose()?;
            args.level
                .split(',')
                .map(str::trim)
                .filter(|name| !name.is_empty())
                .map(|name| {
                    let own = level(name)?;
                    Ok([own.clone(), opponent.clone().unwrap_or(own)])
                })
                .collect()
        }
        _ => Err("give both --black-level and --white-level".into()),
    }
}

/// Plays the series (or merges shards) and prints one row per rule set and pair of players.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    if let Some(Command::Merge(merge)) = &args.command {
        return run_merge(merge);
    }
    let game = GameKind::parse(args.game.as_deref().unwrap_or_default())?;
    let levels = config::load_levels().map_err(|e| e.to_string())?;
    let rule_sets: Vec<String> = if args.rules.is_empty() {
        game.rule_sets().iter().map(|s| s.id.to_string()).collect()
    } else {
        args.rules.clone()
    };
    let specs: Vec<MatchSpec> = rule_sets
        .iter()
        .map(|rule_set| MatchSpec { game, rule_set: rule_set.clone(), board_size: args.size })
        .collect();
    let pairs = pairs(args, &levels, &specs)?;
    let plans: Vec<Plan> = specs
        .iter()
        .flat_map(|spec| {
            pairs.iter().map(|players| {
                let name = match pairs.len() {
                    1 => spec.rule_set_name(),
                    _ => format!("{} · {}", spec.rule_set_name(), players[0].name()),
                };
                Plan { spec: spec.clone(), players: players.clone(), name }
            })
        })
        .collect();
    let openings = args.games.div_ceil(2).max(1);
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let shard = args.shard.unwrap_or(shard::Shard { k: 1, n: 1 });
    let mine = (0..openings).filter(|i| i % shard.n == shard.k - 1).count();
    let bar = if args.quiet { ProgressBar::hidden() } else { ProgressBar::new((mine * 2 * plans.len()) as u64) };
    bar.set_style(
        ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} games, {elapsed} (eta {eta})")
            .map_err(|e| e.to_string())?
            .progress_chars("=> "),
    );
    let mut results = Vec::new();
    let games = Mutex::new(Vec::new());
    for (place, plan) in plans.iter().enumerate() {
        bar.set_prefix(plan.name.clone());
        let config = SeriesConfig {
            openings,
            balanced: args.opening.is_none(),
            opening_plies: args.opening.unwrap_or(game.descriptor().arena_opening_plies),
            players: plan.players.clone(),
            seed: args.seed,
            threads,
            table_megabytes: 16,
            shard: args.shard.map(|s| (s.k, s.n)),
        };
        let summary = plan.spec.visit(Series { config, bar: &bar, place, games: &games })?;
        results.push(summary);
    }
    bar.finish_and_clear();
    // In series order, whatever order the threads finished in, so that a seed gives the same files.
    let mut games = games.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    games.sort_unstable_by_key(|(place, number, _)| (*place, *number));
    if let Some(path) = &args.record {
        let lines = games.iter().map(|(place, _, g)| g.to_line(&plans[*place].spec.rule_set));
        let mut text = lines.collect::<Vec<_>>().join("\n");
        text.push('\n');
        write_atomic(path, text)?;
    }
    let ids: Vec<shard::RowId> = plans
        .iter()
        .map(|plan| shard::RowId {
            rule_set: plan.spec.rule_set.clone(),
            name: plan.name.clone(),
            players: plan.players.clone().map(|p| p.name().to_string()),
        })
        .collect();
    if let Some(path) = &args.out {
        let series = shard::SeriesId {
            game: game.id().to_string(),
            rows: ids.clone(),
            size: args.size,
            games: openings * 2,
            opening: args.opening,
            seed: args.seed,
        };
        shard::write(path, &series, shard, &games)?;
    }
    let lengths: Vec<Vec<usize>> = (0..plans.len())
        .map(|place| games.iter().filter(|(p, _, _)| *p == place).map(|(_, _, g)| g.plies).collect())
        .collect();
    if let Some(path) = &args.plot {
        draw(path, game.name(), &ids, &results, lengths)?;
    }
    let rows: Vec<Row> = plans.iter().zip(&ids).zip(&results).map(|((plan, id), s)| row(&plan.spec, id, s)).collect();
    let versus =
        args.black_level.is_some() || !args.levels.is_empty() || plans.iter().any(|p| p.players[0] != p.players[1]);
    let printed = report(&rows, versus, args.json, args.csv);
    let timed = plans.iter().flat_map(|p| &p.players).find(|p| p.level().is_none_or(|l| l.time_ms.is_some()));
    if let Some(timed) = timed {
        eprintln!(
            "note: {} plays on the clock, so the same seed may give other games on a faster or busier machine; \
             depth-limited levels replay exactly",
            timed.name()
        );
    }
    printed
}

/// Combines shard files and prints the whole series, saying which parts were missing.
fn run_merge(args: &MergeArgs) -> Result<ExitCode, String> {
    let merged = shard::merge(&args.files)?;
    if !merged.missing.is_empty() {
        let parts: Vec<String> = merged.missing.iter().map(ToString::to_string).collect();
        eprintln!(
            "note: parts {} of the series are missing; the results are those of the parts given",
            parts.join(", ")
        );
    }
    let game = GameKind::parse(&merged.series.game)?;
    let size = merged.series.size;
    let rows: Vec<Row> = merged
        .series
        .rows
        .iter()
        .zip(&merged.rows)
        .map(|(id, s)| row(&MatchSpec { game, rule_set: id.rule_set.clone(), board_size: size }, id, s))
        .collect();
    let versus = merged.series.rows.iter().any(|id| id.players[0] != id.players[1]);
    if let Some(path) = &args.plot {
        draw(path, game.name(), &merged.series.rows, &merged.rows, merged.lengths.clone())?;
    }
    report(&rows, versus, args.json, args.csv)
}

/// Draws the series' plot: `ids` name each row and its players, `results` are their tallies, `lengths` their
/// games' lengths.
fn draw(
    path: &std::path::Path,
    game: &str,
    ids: &[shard::RowId],
    results: &[SeriesSummary],
    lengths: Vec<Vec<usize>>,
) -> Result<(), String> {
    let games = results.first().map_or(0, |s| s.games);
    let same = ids.windows(2).all(|w| w[0].players == w[1].players);
    let versus = ids.iter().any(|id| id.players[0] != id.players[1]);
    let title = match ids.first() {
        Some(id) if same && versus => {
            format!("{game}: {} against {}, {games} games each", id.players[0], id.players[1])
        }
        Some(id) if same => format!("{game}: {} against itself, {games} games each", id.players[0]),
        _ => format!("{game}: {games} games each"),
    };
    let series: Vec<plot::Series> = ids
        .iter()
        .zip(results)
        .zip(lengths)
        .map(|((id, summary), lengths)| plot::Series { name: &id.name, summary, lengths })
        .collect();
    let player_a = match ids.first() {
        Some(id) if same => id.players[0].clone(),
        _ => "player A".to_string(),
    };
    plot::write(path, &title, &series, versus.then_some(player_a.as_str()))
}

/// Prints the rows as a table, JSON or CSV.
fn report(rows: &[Row], versus: bool, json: bool, csv: bool) -> Result<ExitCode, String> {
    let mut out = std::io::stdout().lock();
    let printed = if json {
        serde_json::to_writer_pretty(&mut out, rows).map_err(std::io::Error::from).and_then(|()| writeln!(out))
    } else if csv {
        print_csv(&mut out, rows)
    } else {
        print_table(&mut out, rows, versus)
    };
    match printed {
        // A reader that stopped early (`| head`) is not an error of ours.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot print the results: {e}")),
        _ => Ok(ExitCode::SUCCESS),
    }
}

fn row(spec: &MatchSpec, id: &shard::RowId, s: &SeriesSummary) -> Row {
    let (first_score, first_score_ci95) = s.first_player_score();
    let (level_a_score, level_a_score_ci95) = s.level_a_score();
    Row {
        rule_set: id.name.clone(),
        level_a: id.players[0].clone(),
        level_b: id.players[1].clone(),
        games: s.games,
        first_wins: s.first_wins,
        second_wins: s.second_wins,
        draws: s.draws,
        first_score,
        first_score_ci95,
        level_a_wins: s.level_wins[0],
        level_b_wins: s.level_wins[1],
        level_a_score,
        level_a_score_ci95,
        average_plies: s.average_length(),
        average_move_ms: ms(s.average_move_time()),
        forfeits: s.forfeits,
        decided_late: s.late_share(),
        known_result: spec.known_result(),
        opener_score: s.opener_score().map(|o| o.0),
        opener_score_ci95: s.opener_score().map(|o| o.1),
        rules: spec.rule_set_name(),
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn print_table(out: &mut impl Write, rows: &[Row], versus: bool) -> std::io::Result<()> {
    let width = rows.iter().map(|r| r.rule_set.len()).max().unwrap_or(8).max(8);
    write!(out, "{:<width$}  games  1st wins  2nd wins  draws  1st score (95% CI)", "rule set")?;
    if versus {
        write!(out, "  A wins  B wins  A score (95% CI)")?;
    }
    writeln!(out, "  avg plies  ms/move  forfeits  decided late")?;
    for r in rows {
        write!(
            out,
            "{:<width$}  {:>5}  {:>8}  {:>8}  {:>5}  {:>6.1}% ± {:>4.1}%   ",
            r.rule_set,
            r.games,
            r.first_wins,
            r.second_wins,
            r.draws,
            100.0 * r.first_score,
            100.0 * r.first_score_ci95
        )?;
        if versus {
            write!(
                out,
                "  {:>6}  {:>6}  {:>6.1}% ± {:>4.1}% ",
                r.level_a_wins,
                r.level_b_wins,
                100.0 * r.level_a_score,
                100.0 * r.level_a_score_ci95
            )?;
        }
        let late = r.decided_late.map_or_else(|| "–".to_string(), |l| format!("{:.0}%", 100.0 * l));
        writeln!(out, "  {:>9.1}  {:>7.1}  {:>8}  {late:>12}", r.average_plies, r.average_move_ms, r.forfeits)?;
    }
    if let Some(r) = rows.first()
        && versus
    {
        writeln!(out, "A = {}, B = {}", r.level_a, r.level_b)?;
    }
    for r in rows {
        if let (Some(score), Some(ci)) = (r.opener_score, r.opener_score_ci95) {
            let (score, ci) = (100.0 * score, 100.0 * ci);
            writeln!(out, "opener: {}: {score:.1}% ± {ci:.1}% (the player who placed the first stones)", r.rule_set)?;
        }
    }
    let mut told: Vec<&str> = Vec::new();
    for r in rows {
        if let Some(known) = r.known_result
            && !told.contains(&r.rules.as_str())
        {
            writeln!(out, "known: {}: {known}", r.rules)?;
            told.push(&r.rules);
        }
    }
    Ok(())
}

fn print_csv(out: &mut impl Write, rows: &[Row]) -> std::io::Result<()> {
    writeln!(
        out,
        "rule_set,level_a,level_b,games,first_wins,second_wins,draws,first_score,first_score_ci95,level_a_wins,\
         level_b_wins,level_a_score,level_a_score_ci95,average_plies,average_move_ms,forfeits,decided_late,known_result,\
         opener_score,opener_score_ci95"
    )?;
    for r in rows {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{:.4},{:.4},{},{},{:.4},{:.4},{:.2},{:.3},{},{},{},{},{}",
            csv_field(&r.rule_set),
            csv_field(&r.level_a),
            csv_field(&r.level_b),
            r.games,
            r.first_wins,
            r.second_wins,
            r.draws,
            r.first_score,
            r.first_score_ci95,
            r.level_a_wins,
            r.level_b_wins,
            r.level_a_score,
            r.level_a_score_ci95,
            r.average_plies,
            r.average_move_ms,
            r.forfeits,
            r.decided_late.map_or_else(String::new, |l| format!("{l:.4}")),
            csv_field(r.known_result.unwrap_or_default()),
            r.opener_score.map_or_else(String::new, |o| format!("{o:.4}")),
            r.opener_score_ci95.map_or_else(String::new, |o| format!("{o:.4}")),
        )?;
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}
