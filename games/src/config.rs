//! The configuration: built-in defaults from `config/default.toml`, overridden by the user's file.

use std::path::PathBuf;

use tabula_core::{ConfigError, Levels};

/// The built-in configuration, embedded at build time.
pub const DEFAULT_CONFIG: &str = include_str!("../../config/default.toml");

/// The environment variable that names a configuration file to use instead of the one in the user's config
/// directory.
pub const CONFIG_ENV: &str = "TABULA_CONFIG";

/// The user's configuration directory for Tabula (`~/.config/tabula` on Linux), if the platform has one.
#[must_use]
pub fn config_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "tabula").map(|d| d.config_dir().to_path_buf())
}

/// The user's data directory for Tabula (saves, statistics), if the platform has one.
#[must_use]
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "tabula").map(|d| d.data_dir().to_path_buf())
}

/// The user's configuration file: `$TABULA_CONFIG`, else `config.toml` in [`config_dir`].
#[must_use]
pub fn user_config_path() -> Option<PathBuf> {
    std::env::var_os(CONFIG_ENV).map(PathBuf::from).or_else(|| config_dir().map(|d| d.join("config.toml")))
}

/// The built-in difficulty levels.
#[must_use]
pub fn default_levels() -> Levels {
    Levels::parse(DEFAULT_CONFIG, "built-in config/default.toml")
        .unwrap_or_else(|e| panic!("the embedded default configuration is invalid: {e}"))
}

/// The difficulty levels: the defaults with the user's file applied, if it exists. A file that exists but cannot
/// be read or parsed is an error naming the file, line and field, and so is a `TABULA_CONFIG` that names no file.
pub fn load_levels() -> Result<Levels, ConfigError> {
    let defaults = default_levels();
    let Some(path) = user_config_path() else { return Ok(defaults) };
    let name = path.display().to_string();
    if !path.exists() {
        if std::env::var_os(CONFIG_ENV).is_some() {
            // A file the user named on purpose: not finding it is an error, not a reason to use the defaults.
            let message = format!("{CONFIG_ENV} names this file, but it does not exist");
            return Err(ConfigError { file: name, line: None, column: None, message });
        }
        return Ok(defaults);
    }
    let text = std::fs::read_to_string(&path).map_err(|e| ConfigError {
        file: name.clone(),
        line: None,
        column: None,
        message: e.to_string(),
    })?;
    Ok(defaults.merged(Levels::parse(&text, &name)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_have_named_levels_weakest_first() {
        let levels = default_levels();
        let names: Vec<&str> = levels.all().iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["Beginner", "Easy", "Medium", "Hard", "Expert", "Master"]);
        assert!(levels.all().windows(2).all(|w| w[0].depth <= w[1].depth));
    }
}
