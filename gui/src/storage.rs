//! Where the app keeps its files, and writing them atomically (a temporary file renamed over the target), so a
//! crash never leaves half a file behind.

use std::fs;
use std::path::{Path, PathBuf};

/// The directories the app reads and writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paths {
    /// Settings live here (`~/.config/tabula`).
    pub config: PathBuf,
    /// Statistics, saves and the autosaved game live here (`~/.local/share/tabula`).
    pub data: PathBuf,
}

impl Paths {
    /// The user's platform directories, falling back to `./tabula-data` where the platform has none.
    #[must_use]
    pub fn from_platform() -> Paths {
        let fallback = PathBuf::from("tabula-data");
        Paths {
            config: tabula_games::config::config_dir().unwrap_or_else(|| fallback.clone()),
            data: tabula_games::config::data_dir().unwrap_or(fallback),
        }
    }

    /// The settings file.
    #[must_use]
    pub fn settings(&self) -> PathBuf {
        self.config.join("settings.toml")
    }

    /// The statistics file.
    #[must_use]
    pub fn statistics(&self) -> PathBuf {
        self.data.join("statistics.toml")
    }

    /// The autosaved unfinished game, offered as Continue.
    #[must_use]
    pub fn current_game(&self) -> PathBuf {
        self.data.join("current-game.toml")
    }

    /// The folder offered for saves.
    #[must_use]
    pub fn saves(&self) -> PathBuf {
        self.data.join("saves")
    }
}

pub use tabula_games::files::write_atomic;

/// Reads a TOML file of the app's own (settings, statistics): a missing file gives the defaults; one that cannot
/// be read or parsed gives the defaults and the problem, and is first moved aside, so that the next save (which
/// needs the same folder rights as the move) never overwrites what the user had.
pub fn load_toml<T: serde::de::DeserializeOwned + Default>(path: &Path) -> (T, Option<String>) {
    let problem = match fs::read(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (T::default(), None),
        Err(e) => e.to_string(),
        Ok(bytes) => match String::from_utf8(bytes) {
            Err(_) => "it is not UTF-8 text".to_string(),
            Ok(text) => match toml::from_str(&text) {
                Ok(value) => return (value, None),
                Err(e) => {
                    let e = tabula_core::ConfigError::from_toml("", &text, &e);
                    let line = e.line.map_or_else(String::new, |n| format!("line {n}: "));
                    format!("{line}{}", e.message)
                }
            },
        },
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let aside = path.with_file_name(format!("{name}.broken-{stamp}"));
    let kept = match fs::rename(path, &aside) {
        Ok(()) => format!("it was kept as {}", aside.display()),
        Err(e) => format!("moving it aside failed too ({e})"),
    };
    (T::default(), Some(format!("{} could not be read ({problem}); {kept}, and the defaults are used", path.display())))
}

/// Reads a text file, or `None` if it does not exist; other failures are errors naming the file.
pub fn read_optional(path: &Path) -> Result<Option<String>, String> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

#[cfg(test)]
pub mod test_dir {
    //! Private temporary directories for tests, removed when dropped.

    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fresh directory under the system temp dir.
    pub struct TempDir(PathBuf);

    impl TempDir {
        /// Creates a new empty directory.
        pub fn create() -> TempDir {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let n = COUNTER.fetch_add(1, Ordering::Relaxed);
            let path = std::env::temp_dir().join(format!("tabula-gui-test-{}-{n}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).expect("create temp dir");
            TempDir(path)
        }

        /// The directory.
        pub fn path(&self) -> &Path {
            &self.0
        }

        /// App paths inside this directory.
        pub fn paths(&self) -> super::Paths {
            super::Paths { config: self.0.join("config"), data: self.0.join("data") }
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_dir::TempDir;
    use super::*;

    #[test]
    fn atomic_write_creates_dirs_replaces_and_leaves_no_temp() {
        let dir = TempDir::create();
        let path = dir.path().join("a/b/file.toml");
        write_atomic(&path, "one").expect("first write");
        write_atomic(&path, "two").expect("second write");
        assert_eq!(read_optional(&path).expect("read"), Some("two".to_string()));
        let names: Vec<_> = fs::read_dir(path.parent().expect("parent"))
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert_eq!(read_optional(&dir.path().join("missing")).expect("missing is fine"), None);
    }
}
