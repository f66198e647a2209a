//! `tabula-cli train othello DIR`: fits the Othello pattern evaluation to the game collections in `DIR` (WTHOR
//! `wthor/*.wtb` and the logbook `logbook.gam.gz`, as in `shared/data/othello-games/`) and writes the weight file.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use tabula_core::{Game, Player};
use tabula_games::arena::parse_record_line;
use tabula_games::files::write_atomic;
use tabula_games::othello::Othello;
use tabula_games::othello::endgame::Solver;
use tabula_games::othello::notation::parse_transcript;
use tabula_games::othello::patterns::{EMPTIES_PER_STAGE, STAGES};
use tabula_games::othello::records::{GameRecord, read_logbook, read_wthor};
use tabula_games::othello::training::{Fit, Labels, Sample, fit, mean_errors, relabel, samples_of};
use tabula_games::othello::weights::PatternWeights;

/// Arguments of `train`.
#[derive(clap::Args)]
pub struct Args {
    /// The game to train (only `othello` has a learned evaluation).
    game: String,
    /// The folder with `wthor/WTH_YYYY.wtb` files and `logbook.gam.gz`.
    data: PathBuf,
    /// Where to write the weight file (written whole or not at all).
    #[arg(long, default_value = "games/data/othello.weights")]
    out: PathBuf,
    /// WTHOR years held back to measure the fit on games it never saw.
    #[arg(long, value_delimiter = ',', default_value = "2023,2024,2025")]
    hold_out: Vec<u32>,
    /// Positions with this many empties or fewer are labelled with their exact value by the endgame solver.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=20))]
    exact_empties: u32,
    /// Adds positions with this many empties or fewer that are one move, not the one played, away from a played
    /// position, solved exactly (0: none): a search judges mostly positions after moves no expert plays. Held-back
    /// games get none, so their error stays comparable.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    siblings: u32,
    /// Conjugate-gradient iterations per stage.
    #[arg(long, default_value_t = 80)]
    iterations: usize,
    /// The ridge penalty per weight (in discs squared).
    #[arg(long, default_value_t = 5.0)]
    lambda: f64,
    /// Threads for labelling and fitting (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// A folder to keep the labelled positions in (about 270 MB), so that later fits with other `--iterations` or
    /// `--lambda` skip the labelling; a file there is used only for the same `--exact-empties` and `--hold-out`.
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Record files of our own games to train on besides the collections (`tabula-cli arena --game othello
    /// --rules othello --record FILE`): they fill in positions the real games rarely reach, such as those after
    /// random openings. Labelled like the collections' games, never cached.
    #[arg(long, value_delimiter = ',')]
    extra: Vec<PathBuf>,
    /// After the first fit, label the positions above the exact horizon anew with a search this deep of the
    /// fitted weights (mixed with their game labels by `--relabel-mix`), and fit again (0: no second fit).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=6))]
    relabel_depth: u32,
    /// The percentage of the searched value in a relabelled position's label.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=100))]
    relabel_mix: u32,
}

/// Reads the collections, labels and fits, prints the fit per stage and writes the weights.
pub fn run(args: &Args) -> Result<ExitCode, String> {
    if args.game != "othello" {
        return Err(format!("no learned evaluation for '{}': only othello can be trained", args.game));
    }
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let clock = Instant::now();
    let labels = Labels { exact_empties: args.exact_empties, theoretical: true, siblings: args.siblings };
    let held_labels = Labels { siblings: 0, ..labels };
    let years: Vec<String> = args.hold_out.iter().map(u32::to_string).collect();
    let cached = args.cache.as_ref().map(|dir| {
        dir.join(format!("e{}-s{}-h{}-{LABELS_VERSION}.samples", args.exact_empties, args.siblings, years.join("-")))
    });
    let (train, held) = match cached.as_deref().filter(|p| p.exists()) {
        Some(path) => {
            say!("labelled positions from {}", path.display());
            read_samples(path)?
        }
        None => {
            let (train, held) = read_collections(&args.data, &args.hold_out)?;
            say!("{} training games, {} held back (WTHOR {:?})", train.len(), held.len(), args.hold_out);
            let sets = (label(&train, labels, threads, "labelling")?, label(&held, held_labels, threads, "held back")?);
            if let Some(path) = &cached {
                write_atomic(path, samples_bytes(&sets))?;
            }
            sets
        }
    };
    let mut train = train;
    for path in &args.extra {
        let games = read_record_file(path)?;
        say!("{} games of our own from {}", games.len(), path.display());
        train.extend(label(&games, labels, threads, "own games")?);
    }
    say!("{} training positions, {} held back, {:.0} s", train.len(), held.len(), clock.elapsed().as_secs_f64());

    let settings = Fit { iterations: args.iterations, lambda: args.lambda, threads };
    let bar = progress((STAGES * args.iterations) as u64, "fitting");
    let mut weights = fit(&train, settings, &|_, _| bar.inc(1));
    bar.finish_and_clear();
    if args.relabel_depth > 0 {
        let bar = progress(train.len() as u64, "relabelling");
        let (depth, mix) = (args.relabel_depth, args.relabel_mix);
        relabel(&mut train, &weights, depth, mix, args.exact_empties, threads, &|n| bar.inc(n));
        bar.finish_and_clear();
        say!("relabelled at depth {depth} ({mix}% searched), {:.0} s", clock.elapsed().as_secs_f64());
        let bar = progress((STAGES * args.iterations) as u64, "fitting again");
        weights = fit(&train, settings, &|_, _| bar.inc(1));
        bar.finish_and_clear();
    }
    say!("fitted in {:.0} s; mean absolute error in discs per stage:", clock.elapsed().as_secs_f64());
    say!("empties   train  held-back  held-back if guessed even  positions");
    let even = PatternWeights::from_compact(vec![0; weights.compact().len()]);
    let rows =
        mean_errors(&weights, &train).into_iter().zip(mean_errors(&weights, &held)).zip(mean_errors(&even, &held));
    for (s, ((t, h), e)) in rows.enumerate() {
        let show = |e: Option<(f64, usize)>| e.map_or_else(|| "-".to_string(), |(m, _)| format!("{m:.2}"));
        let count = h.map_or(0, |(_, n)| n);
        let (first, last) = (s as u32 * EMPTIES_PER_STAGE + 1, (s as u32 + 1) * EMPTIES_PER_STAGE);
        say!("{first:>2}-{last:<2}  {:>7}  {:>9}  {:>25}  {count:>9}", show(t), show(h), show(e));
    }
    let bytes = weights.to_bytes();
    write_atomic(&args.out, &bytes)?;
    say!("wrote {} ({} bytes)", args.out.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}

/// The games of the WTHOR files and the logbook: those to train on, and the held-back years.
fn read_collections(data: &Path, hold_out: &[u32]) -> Result<(Vec<GameRecord>, Vec<GameRecord>), String> {
    let wthor = data.join("wthor");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&wthor)
        .map_err(|e| format!("{}: {e}", wthor.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no .wtb files", wthor.display()));
    }
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for file in &files {
        let records = read_wthor(file).map_err(|e| e.to_string())?;
        let year = file.file_stem().and_then(|s| s.to_str()).and_then(|s| s.rsplit('_').next()?.parse::<u32>().ok());
        if year.is_some_and(|y| hold_out.contains(&y)) { &mut held } else { &mut train }.extend(records);
    }
    train.extend(read_logbook(&data.join("logbook.gam.gz")).map_err(|e| e.to_string())?);
    Ok((train, held))
}

/// The standard Othello games of an arena record file ([`tabula_games::arena::parse_record_line`]), each played
/// to its end, in a fixed order (by their moves): the weights then depend on which games a file holds, not on the
/// order in which the arena's threads finished them. Errors name the file and line.
fn read_record_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let game = Othello::from_rule_set("othello")?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let place = |problem: String| format!("{}: line {}: {problem}", path.display(), i + 1);
        let (rule_set, _, moves) = parse_record_line(line).map_err(place)?;
        if rule_set != "othello" {
            return Err(place(format!("rule set `{rule_set}`: only standard Othello games train the patterns")));
        }
        let (moves, end) = parse_transcript(&game, moves).map_err(|e| place(e.to_string()))?;
        if game.outcome(&end).is_none() {
            return Err(place("the game does not reach its end".into()));
        }
        let squares: Vec<u8> = moves.iter().filter_map(|m| m.square()).map(|sq| sq as u8).collect();
        let mover_margin = game.final_score(&end);
        let black_margin = if end.side() == Player::First { mover_margin } else { -mover_margin };
        games.push(GameRecord { moves: squares, black_margin, theoretical_margin: None });
    }
    games.sort_by(|a, b| a.moves.cmp(&b.moves));
    Ok(games)
}

/// A batch of games labelled, or the complaint about its first bad game.
type Labelled = Result<Vec<Sample>, String>;

/// The labelled samples of `games`, on `threads` threads (each with its own solver table), in game order. The
/// threads take the games in small batches as they finish the last, so that a slow stretch of the collection
/// (long solves) does not leave the other threads idle.
fn label(games: &[GameRecord], labels: Labels, threads: usize, what: &str) -> Result<Vec<Sample>, String> {
    const BATCH: usize = 256;
    let bar = progress(games.len() as u64, what);
    let batches: Vec<&[GameRecord]> = games.chunks(BATCH).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each batch's samples (or the complaint of its first bad game), once labelled.
    let done: std::sync::Mutex<Vec<Option<Labelled>>> =
        std::sync::Mutex::new((0..batches.len()).map(|_| None).collect());
    let failed = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.max(1))
            .map(|_| {
                scope.spawn(|| {
                    let solver = Solver::new(20);
                    let mut solved = 0;
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(batch) = batches.get(i) else { break };
                        let mut samples = Vec::with_capacity(batch.len() * 60);
                        let result = batch.iter().try_for_each(|game| {
                            samples.extend(samples_of(game, labels, &solver, &mut solved)?);
                            bar.inc(1);
                            Ok::<(), String>(())
                        });
                        done.lock().unwrap_or_else(std::sync::PoisonError::into_inner)[i] =
                            Some(result.map(|()| samples));
                    }
                })
            })
            .collect();
        // Every worker joined (not `any`, which would stop at the first failure), so none panics the scope.
        workers.into_iter().map(|w| w.join()).filter(Result::is_err).count() > 0
    });
    bar.finish_and_clear();
    if failed {
        return Err("a labelling thread failed".into());
    }
    let mut all = Vec::new();
    for part in done.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        all.extend(part.ok_or("a labelling batch was left undone")??);
    }
    Ok(all)
}

fn progress(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style = ProgressStyle::with_template("{msg:>10} [{bar:40}] {pos}/{len} {elapsed_precise} (eta {eta})")
        .map(|s| s.progress_chars("=> "))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(what.to_string());
    bar
}

/// Names the labelling rules in cache file names, so a cache from older rules is never read as current.
const LABELS_VERSION: &str = "l2";

/// Bytes per cached sample: both bitboards and the label.
const SAMPLE_BYTES: usize = 17;

/// The cache file: the training count (u64), then every training and held-back sample.
fn samples_bytes((train, held): &(Vec<Sample>, Vec<Sample>)) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(8 + SAMPLE_BYTES * (train.len() + held.len()));
    bytes.extend_from_slice(&(train.len() as u64).to_le_bytes());
    for s in train.iter().chain(held) {
        bytes.extend_from_slice(&s.player.to_le_bytes());
        bytes.extend_from_slice(&s.opponent.to_le_bytes());
        bytes.push(s.target as u8);
    }
    bytes
}

/// Reads a cache file written by [`samples_bytes`].
fn read_samples(path: &Path) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let broken = || format!("{}: not a sample cache of this version (delete it to label again)", path.display());
    let (count, rest) = bytes.split_first_chunk::<8>().ok_or_else(broken)?;
    let train = usize::try_from(u64::from_le_bytes(*count)).map_err(|_| broken())?;
    if rest.len() % SAMPLE_BYTES != 0 || rest.len() / SAMPLE_BYTES < train {
        return Err(broken());
    }
    let mut samples: Vec<Sample> = rest
        .chunks_exact(SAMPLE_BYTES)
        .map(|c| Sample {
            player: u64::from_le_bytes(c[..8].try_into().unwrap_or_default()),
            opponent: u64::from_le_bytes(c[8..16].try_into().unwrap_or_default()),
            target: c[16] as i8,
        })
        .collect();
    let held = samples.split_off(train);
    Ok((samples, held))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_games::othello::records::replay;

    /// A file of `text` in the temporary folder, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str, text: &str) -> TempFile {
            let path = std::env::temp_dir().join(format!("tabula-train-{name}-{}.txt", std::process::id()));
            std::fs::write(&path, text).expect("write a temporary file");
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// A whole game: the first legal move (or a pass) every time, as a record file's move field.
    fn first_moves_game() -> (String, i32) {
        let game = Othello::from_rule_set("othello").unwrap();
        let mut state = game.initial_state();
        let (mut names, mut squares, mut legal) = (Vec::new(), Vec::new(), Vec::new());
        while game.outcome(&state).is_none() {
            legal.clear();
            game.legal_moves(&state, &mut legal);
            names.push(game.format_move(legal[0]));
            squares.extend(legal[0].square().map(|sq| sq as u8));
            game.make(&mut state, legal[0]);
        }
        (names.join(" "), replay(&squares).unwrap().black_margin)
    }

    #[test]
    fn own_games_read_from_a_record_file_with_their_replayed_margin() {
        let (moves, margin) = first_moves_game();
        let file = TempFile::new("good", &format!("othello\t1-0\t{moves}\n\nothello\t0-1\t{moves}\n"));
        let games = read_record_file(&file.0).unwrap();
        assert_eq!(games.len(), 2);
        assert_ne!(margin, 0, "a decisive game, so that the margin's sign is checked");
        assert_eq!(games[0].black_margin, margin);
        assert_eq!(games[0].moves.len(), moves.split(' ').filter(|m| *m != "pass").count());
        assert_eq!(games[0].theoretical_margin, None);
    }

    #[test]
    fn a_bad_record_line_is_an_error_naming_the_file_and_line() {
        let (moves, _) = first_moves_game();
        for (text, problem) in [
            (format!("othello-6x6\t1-0\t{moves}"), "only standard Othello"),
            ("othello\t1-0\tf5 d6 c3".to_string(), "does not reach its end"),
            ("othello\t1-0\tf5 f5".to_string(), "move 2"),
            ("othello f5".to_string(), "three tab-separated"),
        ] {
            let file = TempFile::new("bad", &format!("othello\t1-0\t{moves}\n{text}\n"));
            let error = read_record_file(&file.0).unwrap_err();
            assert!(error.contains(&format!("{}: line 2: ", file.0.display())), "{error}");
            assert!(error.contains(problem), "{error}");
        }
    }
}
