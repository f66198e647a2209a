//! Series spread over machines: `arena --shard K/N --out FILE` plays part K of N of a series and writes its games
//! as JSON; `arena merge FILES` checks that the parts belong to one series and combines them into its tallies.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use tabula_core::{GameResult, Player};
use tabula_games::arena::{GameRecord, SeriesSummary};
use tabula_games::files::write_atomic;

/// The version of the shard files this build writes and reads.
const FORMAT: u32 = 1;

/// Part `k` of `n` of a series (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// Which part.
    pub k: usize,
    /// Of how many.
    pub n: usize,
}

impl FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let (k, n) = text.split_once('/').ok_or_else(|| format!("`{text}` is not K/N, such as 2/8"))?;
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| format!("`{text}` is not K/N, such as 2/8"));
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 || k == 0 || k > n {
            return Err(format!("in {k}/{n}, K must be from 1 to N"));
        }
        Ok(Shard { k, n })
    }
}

/// One row of a series: a rule set played by a pair of players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowId {
    /// The rule set's id.
    pub rule_set: String,
    /// The name the row is shown under.
    pub name: String,
    /// Player A and player B.
    pub players: [String; 2],
}

/// What makes games parts of the same series: everything but the part.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeriesId {
    /// The game's id.
    pub game: String,
    /// The rows, in order.
    pub rows: Vec<RowId>,
    /// The board size asked for.
    pub size: Option<usize>,
    /// Games per rule set in the whole series.
    pub games: usize,
    /// Random openings of this many plies, or the balanced suites.
    pub opening: Option<usize>,
    /// The seed.
    pub seed: u64,
}

/// One game as a shard file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Game {
    /// The row's place in [`SeriesId::rows`].
    row: usize,
    /// Its number in the rule set's series.
    number: usize,
    first_level: usize,
    result: String,
    plies: usize,
    engine_moves: usize,
    thinking_ms: u64,
    moves: Vec<String>,
    forfeit: Option<String>,
    #[serde(default)]
    decided_at: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opener: Option<usize>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: u32,
    series: SeriesId,
    shard: Shard,
    games: Vec<Game>,
}

fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::Win(Player::First) => "1-0",
        GameResult::Win(Player::Second) => "0-1",
        GameResult::Draw => "1/2-1/2",
    }
}

/// Writes part `shard` of `series`: its games, each with its row's place and its number in the series.
pub fn write(path: &Path, series: &SeriesId, shard: Shard, games: &[(usize, usize, GameRecord)]) -> Result<(), String> {
    let games = games
        .iter()
        .map(|(row, number, g)| Game {
            row: *row,
            number: *number,
            first_level: g.first_level,
            result: result_text(g.result).into(),
            plies: g.plies,
            engine_moves: g.engine_moves,
            thinking_ms: u64::try_from(g.thinking.as_millis()).unwrap_or(u64::MAX),
            moves: g.moves.clone(),
            forfeit: g.forfeit.clone(),
            decided_at: g.decided_at,
            opener: g.opener,
        })
        .collect();
    let file = File { format: FORMAT, series: series.clone(), shard, games };
    let text = serde_json::to_string_pretty(&file).map_err(|e| e.to_string())?;
    write_atomic(path, text + "\n")
}

/// The merged series: its identity, each rule set's name and tallies, and the parts that were missing.
pub struct Merged {
    /// What the series is.
    pub series: SeriesId,
    /// Each row's tallies.
    pub rows: Vec<SeriesSummary>,
    /// The parts of N not among the files.
    pub missing: Vec<usize>,
    /// Each row's game lengths, in plies.
    pub lengths: Vec<Vec<usize>>,
}

/// Reads the shard files and combines them. Files of different series, a part given twice, a game outside its
/// part or malformed JSON are errors naming the file.
pub fn merge(paths: &[PathBuf]) -> Result<Merged, String> {
    let mut first: Option<(SeriesId, usize)> = None;
    let mut seen: Vec<usize> = Vec::new();
    let mut rows: Vec<SeriesSummary> = Vec::new();
    let mut lengths: Vec<Vec<usize>> = Vec::new();
    for path in paths {
        let name = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{name}: {e}"))?;
        let file: File = serde_json::from_str(&text).map_err(|e| format!("{name}: {e}"))?;
        if file.format != FORMAT {
            return Err(format!("{name}: format {} is not supported (this build reads {FORMAT})", file.format));
        }
        let Shard { k, n } = file.shard;
        match &first {
            None => {
                rows = vec![SeriesSummary::default(); file.series.rows.len()];
                lengths = vec![Vec::new(); rows.len()];
                first = Some((file.series.clone(), n));
            }
            Some((series, parts)) if *series != file.series || *parts != n => {
                return Err(format!("{name}: part of another series than {}", paths[0].display()));
            }
            Some(_) => {}
        }
        if k == 0 || k > n || seen.contains(&k) {
            return Err(format!("{name}: part {k}/{n} is given twice or does not exist"));
        }
        seen.push(k);
        for (i, game) in file.games.iter().enumerate() {
            let record = record(game).map_err(|e| format!("{name}: game {}: {e}", i + 1))?;
            let row = rows.get_mut(game.row).ok_or_else(|| format!("{name}: game {}: no such row", i + 1))?;
            if (game.number / 2) % n != k - 1 {
                return Err(format!("{name}: game {} is not in part {k}/{n}", i + 1));
            }
            row.add(&record);
            lengths[game.row].push(record.plies);
        }
    }
    let (series, parts) = first.ok_or("give the shard files to merge")?;
    let missing = (1..=parts).filter(|k| !seen.contains(k)).collect();
    Ok(Merged { series, rows, missing, lengths })
}

fn record(game: &Game) -> Result<GameRecord, String> {
    let result = match game.result.as_str() {
        "1-0" => GameResult::Win(Player::First),
        "0-1" => GameResult::Win(Player::Second),
        "1/2-1/2" => GameResult::Draw,
        other => return Err(format!("result `{other}` is not 1-0, 0-1 or 1/2-1/2")),
    };
    if game.first_level > 1 {
        return Err(format!("first_level {} is not 0 or 1", game.first_level));
    }
    Ok(GameRecord {
        first_level: game.first_level,
        result,
        plies: game.plies,
        engine_moves: game.engine_moves,
        thinking: Duration::from_millis(game.thinking_ms),
        moves: game.moves.clone(),
        forfeit: game.forfeit.clone(),
        decided_at: game.decided_at,
        opener: game.opener.filter(|&o| o < 2),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!("2/8".parse::<Shard>(), Ok(Shard { k: 2, n: 8 }));
        assert!("0/8".parse::<Shard>().unwrap_err().contains("from 1 to N"));
        assert!("9/8".parse::<Shard>().is_err());
        assert!("2-8".parse::<Shard>().unwrap_err().contains("K/N"));
    }

    #[test]
    fn a_game_keeps_its_opener_through_a_shard_file() {
        let g = GameRecord {
            first_level: 1,
            result: GameResult::Win(Player::First),
            plies: 9,
            engine_moves: 9,
            thinking: Duration::from_millis(5),
            moves: vec!["h8".into()],
            forfeit: None,
            decided_at: Some(3),
            opener: Some(0),
        };
        let game = |g: &GameRecord| Game {
            row: 0,
            number: 0,
            first_level: g.first_level,
            result: result_text(g.result).into(),
            plies: g.plies,
            engine_moves: g.engine_moves,
            thinking_ms: 5,
            moves: g.moves.clone(),
            forfeit: None,
            decided_at: g.decided_at,
            opener: g.opener,
        };
        let text = serde_json::to_string(&game(&g)).expect("json");
        let back: Game = serde_json::from_str(&text).expect("read");
        assert_eq!(record(&back), Ok(g.clone()));
        let free = GameRecord { opener: None, ..g };
        let text = serde_json::to_string(&game(&free)).expect("json");
        assert!(!text.contains("opener"), "a free opening writes no opener: {text}");
        assert_eq!(record(&serde_json::from_str(&text).expect("read")), Ok(free));
    }
}
