//! Difficulty levels as data: named search settings read from TOML.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::search::{Limits, SearchOptions};

/// A named difficulty level: how deep and how long the computer thinks, and how much it varies its play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// The name shown to players ("Beginner", "Expert").
    pub name: String,
    /// The deepest search iteration.
    pub depth: u32,
    /// The most time per move, in milliseconds; unlimited if absent.
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// Root moves scoring within this margin of the best may be chosen at random; 0 always plays the best.
    #[serde(default)]
    pub randomness: i32,
    /// Games that know how many moves remain (Othello: empty squares) are solved exactly from this many on.
    #[serde(default)]
    pub exact_empties: Option<u32>,
    /// The most nodes per move; unlimited if absent. On one thread a node-limited level plays the same moves on
    /// any machine, where a time limit depends on its speed and load.
    #[serde(default)]
    pub nodes: Option<u64>,
}

impl Level {
    /// The deepest search a level with a time limit may ask for.
    pub const MAX_DEPTH: u32 = 60;
    /// The deepest search a level without a time limit may ask for: deeper ones would not finish in a game.
    pub const MAX_UNTIMED_DEPTH: u32 = 16;
    /// The most empty squares an exact solve without a time limit may start from (with one, a solve that
    /// cannot finish falls back to the ordinary search, so any count up to a board's squares is safe).
    pub const MAX_UNTIMED_EXACT_EMPTIES: u32 = 20;
    /// The most empty squares any exact solve may start from (the largest board's squares).
    pub const MAX_EXACT_EMPTIES: u32 = 100;
    /// The longest time per move a level may give, in milliseconds (an hour).
    pub const MAX_TIME_MS: u64 = 3_600_000;
    /// The widest random margin, in evaluation units.
    pub const MAX_RANDOMNESS: i32 = 100_000;
    /// The most nodes per move a level may give.
    pub const MAX_NODES: u64 = 1_000_000_000_000;

    /// What is wrong with this level's numbers, naming the field and its bounds, if anything.
    #[must_use]
    pub fn problem(&self) -> Option<String> {
        let name = &self.name;
        let timed = self.time_ms.is_some();
        let (max_depth, max_empties) = if timed {
            (Level::MAX_DEPTH, Level::MAX_EXACT_EMPTIES)
        } else {
            (Level::MAX_UNTIMED_DEPTH, Level::MAX_UNTIMED_EXACT_EMPTIES)
        };
        let untimed = if timed { "" } else { " without a `time_ms`" };
        if !(1..=max_depth).contains(&self.depth) {
            return Some(format!(
                "level `{name}`: field `depth` must be from 1 to {max_depth}{untimed}, not {}",
                self.depth
            ));
        }
        if let Some(t) = self.time_ms
            && !(1..=Level::MAX_TIME_MS).contains(&t)
        {
            return Some(format!("level `{name}`: field `time_ms` must be from 1 to {}, not {t}", Level::MAX_TIME_MS));
        }
        if !(0..=Level::MAX_RANDOMNESS).contains(&self.randomness) {
            let max = Level::MAX_RANDOMNESS;
            return Some(format!(
                "level `{name}`: field `randomness` must be from 0 to {max}, not {}",
                self.randomness
            ));
        }
        if let Some(n) = self.nodes
            && !(1..=Level::MAX_NODES).contains(&n)
        {
            return Some(format!("level `{name}`: field `nodes` must be from 1 to {}, not {n}", Level::MAX_NODES));
        }
        if let Some(e) = self.exact_empties
            && e > max_empties
        {
            return Some(format!(
                "level `{name}`: field `exact_empties` must be at most {max_empties}{untimed}, not {e}"
            ));
        }
        None
    }

    /// A level that searches to `depth` with no time limit and no randomness ("Custom").
    #[must_use]
    pub fn custom(depth: u32) -> Level {
        Level {
            name: format!("Custom (depth {depth})"),
            depth,
            time_ms: None,
            randomness: 0,
            exact_empties: None,
            nodes: None,
        }
    }

    /// The search limits of this level: its depth, time and nodes (the caller adds a stop flag where it has one).
    #[must_use]
    pub fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.depth),
            time: self.time_ms.map(Duration::from_millis),
            nodes: self.nodes,
            ..Limits::default()
        }
    }

    /// The search options of this level with the given seed for its randomness.
    #[must_use]
    pub fn options(&self, seed: u64) -> SearchOptions {
        SearchOptions {
            randomness: self.randomness,
            seed,
            late_move_reductions: true,
            extensions: true,
            futility: true,
            ..SearchOptions::default()
        }
    }
}

/// An ordered list of levels, weakest first.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Levels {
    levels: Vec<Level>,
}

/// A configuration file that could not be used: which file, where in it, and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {message}", location(*.line, *.column))]
pub struct ConfigError {
    /// The file (or "built-in defaults").
    pub file: String,
    /// The 1-based line of the problem, when known.
    pub line: Option<usize>,
    /// The 1-based column of the problem, when known.
    pub column: Option<usize>,
    /// What was wrong, naming the field.
    pub message: String,
}

fn location(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

impl ConfigError {
    /// Builds an error for `file` from a TOML error, with the line and column of its span in `text`.
    #[must_use]
    pub fn from_toml(file: &str, text: &str, error: &toml::de::Error) -> ConfigError {
        let message = error.message().trim().to_string();
        let Some(span) = error.span() else {
            return ConfigError { file: file.to_string(), line: None, column: None, message };
        };
        let before = &text[..span.start.min(text.len())];
        let line = before.matches('\n').count() + 1;
        let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
        let source_line = text.lines().nth(line - 1).unwrap_or("").trim();
        let message = if source_line.is_empty() { message } else { format!("{message} (in `{source_line}`)") };
        ConfigError { file: file.to_string(), line: Some(line), column: Some(column), message }
    }
}

#[derive(Deserialize)]
struct LevelsSection {
    #[serde(default)]
    levels: Vec<Level>,
}

impl Levels {
    /// Reads the `[[levels]]` tables of a TOML document (other tables are ignored). `file` names the source in
    /// errors.
    pub fn parse(text: &str, file: &str) -> Result<Levels, ConfigError> {
        let section: LevelsSection = toml::from_str(text).map_err(|e| ConfigError::from_toml(file, text, &e))?;
        let levels = Levels { levels: section.levels };
        levels.validate(file, text)?;
        Ok(levels)
    }

    fn validate(&self, file: &str, text: &str) -> Result<(), ConfigError> {
        for (i, level) in self.levels.iter().enumerate() {
            let problem = if level.name.trim().is_empty() {
                Some("field `name` must not be empty".to_string())
            } else if let Some(problem) = level.problem() {
                Some(problem)
            } else if self.levels[..i].iter().any(|l| l.name.eq_ignore_ascii_case(&level.name)) {
                Some(format!("level `{}` is defined twice", level.name))
            } else {
                None
            };
            if let Some(message) = problem {
                let line = find_level_line(text, &level.name);
                return Err(ConfigError { file: file.to_string(), line, column: None, message });
            }
        }
        Ok(())
    }

    /// These levels with `overrides` applied: a level of the same name is replaced, a new name is added.
    #[must_use]
    pub fn merged(mut self, overrides: Levels) -> Levels {
        for level in overrides.levels {
            match self.levels.iter_mut().find(|l| l.name.eq_ignore_ascii_case(&level.name)) {
                Some(existing) => *existing = level,
                None => self.levels.push(level),
            }
        }
        self
    }

    /// The level of that name (case-insensitive).
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Level> {
        self.levels.iter().find(|l| l.name.eq_ignore_ascii_case(name))
    }

    /// All levels, weakest first.
    #[must_use]
    pub fn all(&self) -> &[Level] {
        &self.levels
    }

    /// The strongest (last) level.
    #[must_use]
    pub fn hardest(&self) -> Option<&Level> {
        self.levels.last()
    }
}

/// The line of the `name = "..."` entry of a level, for error messages.
fn find_level_line(text: &str, name: &str) -> Option<usize> {
    text.lines().position(|l| l.contains("name") && l.contains(&format!("\"{name}\""))).map(|i| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
[ui]
theme = "dark"

[[levels]]
name = "Easy"
depth = 2
randomness = 30

[[levels]]
name = "Hard"
depth = 6
time_ms = 1000
exact_empties = 12
"#;

    #[test]
    fn parses_levels_and_ignores_other_tables() {
        let levels = Levels::parse(SAMPLE, "sample.toml").expect("valid");
        assert_eq!(levels.all().len(), 2);
        let hard = levels.get("hard").expect("case-insensitive lookup");
        assert_eq!((hard.depth, hard.time_ms, hard.exact_empties), (6, Some(1000), Some(12)));
        assert_eq!(levels.hardest().map(|l| l.name.as_str()), Some("Hard"));
        assert_eq!(hard.limits().time, Some(Duration::from_millis(1000)));
    }

    #[test]
    fn wrong_type_names_file_line_and_field() {
        let text = "[[levels]]\nname = \"Easy\"\ndepth = \"deep\"\n";
        let err = Levels::parse(text, "user.toml").expect_err("bad type");
        assert_eq!(err.file, "user.toml");
        assert_eq!(err.line, Some(3));
        let shown = err.to_string();
        assert!(shown.starts_with("user.toml:3:"), "{shown}");
        assert!(shown.contains("depth"), "{shown}");
    }

    #[test]
    fn missing_and_unknown_fields_are_errors() {
        let missing = Levels::parse("[[levels]]\nname = \"X\"\n", "f.toml").expect_err("missing depth");
        assert!(missing.to_string().contains("depth"), "{missing}");
        let unknown = Levels::parse("[[levels]]\nname = \"X\"\ndepth = 1\ndeph = 2\n", "f.toml").expect_err("typo");
        assert!(unknown.to_string().contains("deph"), "{unknown}");
        assert_eq!(unknown.line, Some(4));
    }

    #[test]
    fn invalid_values_are_rejected_with_line() {
        let err = Levels::parse("[[levels]]\nname = \"Zero\"\ndepth = 0\n", "f.toml").expect_err("depth 0");
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("depth"));
        let dup = "[[levels]]\nname = \"A\"\ndepth = 1\n[[levels]]\nname = \"a\"\ndepth = 2\n";
        assert!(Levels::parse(dup, "f.toml").expect_err("duplicate").message.contains("twice"));
        let bounds = [
            ("depth = 1000\ntime_ms = 500", "from 1 to 60"),
            ("depth = 17", "from 1 to 16 without a `time_ms`"),
            ("depth = 4\nexact_empties = 64", "at most 20 without a `time_ms`"),
            ("depth = 4\ntime_ms = 900\nexact_empties = 101", "at most 100"),
            ("depth = 4\ntime_ms = 0", "`time_ms` must be from 1"),
            ("depth = 4\nrandomness = -1", "`randomness` must be from 0"),
            ("depth = 4\nnodes = 0", "`nodes` must be from 1"),
        ];
        for (fields, bound) in bounds {
            let text = format!("[[levels]]\nname = \"Wild\"\n{fields}\n");
            let err = Levels::parse(&text, "f.toml").expect_err(fields);
            assert!(err.message.contains(bound), "{fields}: {}", err.message);
        }
        let timed = "[[levels]]\nname = \"Deep\"\ndepth = 40\ntime_ms = 5000\nexact_empties = 64\n";
        assert!(Levels::parse(timed, "f.toml").is_ok(), "a time limit makes a deep level safe");
        let counted =
            Levels::parse("[[levels]]\nname = \"Fixed\"\ndepth = 9\nnodes = 50000\n", "f.toml").expect("valid");
        assert_eq!(counted.all()[0].limits().nodes, Some(50_000), "a node limit reaches the search");
        let syntax = Levels::parse("[[levels]\n", "f.toml").expect_err("syntax");
        assert_eq!(syntax.line, Some(1));
    }

    #[test]
    fn overrides_replace_and_extend() {
        let base = Levels::parse(SAMPLE, "a").expect("valid");
        let user =
            Levels::parse("[[levels]]\nname = \"easy\"\ndepth = 3\n[[levels]]\nname = \"Insane\"\ndepth = 12\n", "b")
                .expect("valid");
        let merged = base.merged(user);
        let names: Vec<_> = merged.all().iter().map(|l| (l.name.as_str(), l.depth)).collect();
        assert_eq!(names, vec![("easy", 3), ("Hard", 6), ("Insane", 12)]);
    }
}
