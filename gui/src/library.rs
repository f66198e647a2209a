//! The saved games: Tabula's own files in the saves folder, listed with what a player picks a game by (its name,
//! the game and rule set, when it was saved, how far it got), and saved, renamed and deleted by name. A file that
//! cannot be read stays in the list with the reason, so nothing disappears silently.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use tabula_core::GameResult;
use tabula_games::Match;
use tabula_games::save_file::{MatchFactory, SavedGame};
use tabula_games::setup::{GameSetup, colour_name};

/// A saved game as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The file.
    pub path: PathBuf,
    /// The name the player gave it (the file name without `.toml`).
    pub name: String,
    /// The game and rule set, in words ("Othello · Othello"), or why the file cannot be read.
    pub what: Result<String, String>,
    /// How far the game got: "Black won 40–24 after 60 moves", "move 23, White to move".
    pub progress: String,
    /// When it was last written, as "2026-12-02 03:47" (UTC).
    pub saved: String,
    modified: SystemTime,
}

/// The saved games in `dir`, the newest first; no folder yet means no games.
pub fn list(dir: &Path, factory: MatchFactory) -> Result<Vec<Entry>, String> {
    let read = match fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot list {}: {e}", dir.display())),
    };
    let mut entries: Vec<Entry> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|path| entry(&path, factory))
        .collect();
    entries.sort_by(|a, b| b.modified.cmp(&a.modified).then_with(|| a.name.cmp(&b.name)));
    Ok(entries)
}

fn entry(path: &Path, factory: MatchFactory) -> Entry {
    let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let modified = fs::metadata(path).and_then(|m| m.modified()).unwrap_or(SystemTime::UNIX_EPOCH);
    let read = fs::read_to_string(path)
        .map_err(|e| format!("cannot read it: {e}"))
        .and_then(|text| SavedGame::parse(&text, &name, factory));
    let (what, progress) = match read {
        Ok((saved, game)) => (Ok(describe(&saved.setup)), progress(game.as_ref())),
        Err(e) => (Err(e), String::new()),
    };
    Entry { path: path.to_path_buf(), name, what, progress, saved: utc_minutes(modified), modified }
}

fn describe(setup: &GameSetup) -> String {
    let game = setup.spec.game;
    let rule_set = game.rule_set(&setup.spec.rule_set).map_or_else(|| setup.spec.rule_set.clone(), |r| r.name.into());
    let size = setup.spec.board_size.map(|s| format!(" · {s}×{s}")).unwrap_or_default();
    format!("{} · {rule_set}{size}", game.name())
}

fn progress(game: &dyn Match) -> String {
    let snapshot = game.current();
    let moves = game.ply();
    let Some(outcome) = &snapshot.outcome else {
        return format!("move {}, {} to move", moves + 1, colour_name(snapshot.to_move));
    };
    let score = snapshot.final_score().map(|[a, b]| format!(" {a}–{b}")).unwrap_or_default();
    match outcome.result {
        GameResult::Win(p) => format!("{} won{score} after {moves} moves", colour_name(p)),
        GameResult::Draw => format!("a draw{score} after {moves} moves"),
    }
}

/// The file name for a game called `name`, or why it cannot be one: names are what the list shows, so they
/// must be non-empty and free of path separators and characters that some systems refuse.
pub fn file_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Give the game a name.".into());
    }
    if let Some(bad) = name.chars().find(|c| matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')) {
        return Err(format!("A name cannot contain '{bad}'."));
    }
    if name.starts_with('.') || name.chars().any(char::is_control) {
        return Err("A name cannot start with '.' or hold control characters.".into());
    }
    Ok(format!("{name}.toml"))
}

/// Saves `game` as `name` in `dir`. An existing game of that name is replaced only when `replace` is set, so a
/// save never overwrites another game by accident.
pub fn save(dir: &Path, name: &str, game: &SavedGame, replace: bool) -> Result<PathBuf, String> {
    let path = dir.join(file_name(name)?);
    if path.exists() && !replace {
        return Err(format!("A saved game is called '{}' already.", name.trim()));
    }
    tabula_games::files::write_atomic(&path, game.to_toml())?;
    Ok(path)
}

/// Renames the saved game at `path` to `name`, refusing to replace another game.
pub fn rename(path: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = path.parent().ok_or_else(|| format!("{} is not in a folder", path.display()))?;
    let target = dir.join(file_name(name)?);
    if target == path {
        return Ok(target);
    }
    if target.exists() {
        return Err(format!("A saved game is called '{}' already.", name.trim()));
    }
    fs::rename(path, &target).map_err(|e| format!("cannot rename {}: {e}", path.display()))?;
    Ok(target)
}

/// Deletes the saved game at `path`.
pub fn delete(path: &Path) -> Result<(), String> {
    fs::remove_file(path).map_err(|e| format!("cannot delete {}: {e}", path.display()))
}

/// A name for a new save of a `game` game: the game and the time, like "Othello 2026-12-02 03-47".
#[must_use]
pub fn default_name(game: &str, now: SystemTime) -> String {
    format!("{game} {}", utc_minutes(now).replace(':', "-"))
}

/// `time` as "YYYY-MM-DD HH:MM" in UTC.
fn utc_minutes(time: SystemTime) -> String {
    let secs = time.duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_date(days);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}", rest / 3600, rest % 3600 / 60)
}

/// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::storage::test_dir::TempDir;
    use crate::test_game;
    use tabula_games::registry::{GameKind, MatchSpec};
    use tabula_games::setup::Seat;

    fn saved(moves: &[&str]) -> SavedGame {
        let spec = MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: None };
        let setup = GameSetup { spec, seats: [Seat::Human, Seat::Human] };
        SavedGame {
            setup,
            moves: moves.iter().map(|m| (*m).to_string()).collect(),
            choices: Vec::new(),
            clock: None,
            start: None,
        }
    }

    #[test]
    fn dates_are_utc_calendar_dates() {
        assert_eq!(utc_minutes(SystemTime::UNIX_EPOCH), "1970-01-01 00:00");
        let leap_day = SystemTime::UNIX_EPOCH + Duration::from_secs(951_782_400 + 3 * 3600 + 47 * 60);
        assert_eq!(utc_minutes(leap_day), "2000-02-29 03:47");
        assert_eq!(default_name("Othello", leap_day), "Othello 2000-02-29 03-47");
    }

    #[test]
    fn names_are_checked_before_they_become_files() {
        assert_eq!(file_name("  My game "), Ok("My game.toml".into()));
        assert!(file_name(" ").is_err());
        assert!(file_name("a/b").unwrap_err().contains('/'));
        assert!(file_name(".hidden").is_err());
    }

    #[test]
    fn save_list_rename_and_delete_by_name() {
        let dir = TempDir::create();
        let saves = dir.path().join("saves");
        assert_eq!(list(&saves, test_game::factory), Ok(Vec::new()), "no folder yet: no games");
        let first = save(&saves, "first", &saved(&["a1"]), false).expect("saved");
        assert!(save(&saves, "first", &saved(&[]), false).unwrap_err().contains("already"), "no silent overwrite");
        save(&saves, "first", &saved(&["a1", "b2"]), true).expect("replaced when asked");
        std::fs::write(saves.join("broken.toml"), "format = 1\ngame = 3\n").expect("write");
        std::fs::write(saves.join("notes.txt"), "not a save").expect("write");
        let entries = list(&saves, test_game::factory).expect("listed");
        let names: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names.len(), 2, "{names:?}: only .toml files");
        let good = entries.iter().find(|e| e.name == "first").expect("first");
        assert!(good.what.as_ref().is_ok_and(|w| w.starts_with("Othello")), "{:?}", good.what);
        assert_eq!(good.progress, "move 3, Black to move");
        let broken = entries.iter().find(|e| e.name == "broken").expect("a broken file stays listed");
        assert!(broken.what.is_err());

        let renamed = rename(&first, "second").expect("renamed");
        assert!(!first.exists() && renamed.exists());
        std::fs::write(saves.join("third.toml"), "x").expect("write");
        assert!(rename(&renamed, "third").unwrap_err().contains("already"), "no rename over another game");
        delete(&renamed).expect("deleted");
        assert!(!renamed.exists());
        assert!(delete(&renamed).is_err(), "deleting twice is an error, not a panic");
    }
}
