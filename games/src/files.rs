//! Writing files atomically (a temporary file renamed over the target), so a crash never leaves half a file
//! behind: saves, settings and statistics in the app, weight files from the trainer.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::time::{Duration, SystemTime};

/// A temporary file older than this was left by a writer that crashed, and is removed by the next write.
const STALE_AFTER: Duration = Duration::from_secs(60);

/// Writes `contents` to `path` atomically: into a temporary file in the same directory, flushed to disk, then
/// renamed over `path`, and the directory flushed so the rename survives a power cut. Missing parent directories
/// are created, and temporaries that crashed writers left for the same file are removed.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    let describe = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(describe)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    remove_stale_temporaries(dir, &name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(contents.as_ref())?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        sync_directory(dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map_err(describe)
}

/// Removes `.{name}.*.tmp` files in `dir` not touched for [`STALE_AFTER`]: a live writer's file is younger.
fn remove_stale_temporaries(dir: &Path, name: &str) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    let prefix = format!(".{name}.");
    let now = SystemTime::now();
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let ours = file.strip_prefix(&prefix).and_then(|rest| rest.strip_suffix(".tmp"));
        if !ours.is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())) {
            continue;
        }
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age > STALE_AFTER));
        if old {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Flushes a directory's entries (the rename) to disk where the system allows it.
fn sync_directory(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    fs::File::open(dir)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_replaces_the_file_and_sweeps_what_crashed_writers_left() {
        let dir = std::env::temp_dir().join(format!("tabula-files-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("stats.toml");
        let stale = dir.join(".stats.toml.12345.tmp");
        let fresh = dir.join(".stats.toml.67890.tmp");
        let other = dir.join(".settings.toml.12345.tmp");
        for file in [&stale, &fresh, &other] {
            fs::write(file, "half").unwrap();
        }
        let long_ago = SystemTime::now() - Duration::from_secs(3600);
        for file in [&stale, &other] {
            fs::File::options().write(true).open(file).unwrap().set_modified(long_ago).unwrap();
        }
        write_atomic(&path, "games = 1").unwrap();
        write_atomic(&path, "games = 2").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "games = 2");
        assert!(!stale.exists(), "a crashed writer's temporary is removed");
        assert!(fresh.exists(), "a live writer's is not");
        assert!(other.exists(), "nor another file's");
        let left: Vec<_> = fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 3, "{left:?}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
