//! Writing files atomically (a temporary file renamed over the target), so a crash never leaves half a file
//! behind: saves, settings and statistics in the app, weight files from the trainer.

use std::fs;
use std::io::Write;
use std::path::Path;

/// Writes `contents` to `path` atomically: into a temporary file in the same directory, flushed to disk, then
/// renamed over `path`. Missing parent directories are created.
pub fn write_atomic(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), String> {
    let describe = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(describe)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "file".into());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = fs::File::create(&temp)?;
        file.write_all(contents.as_ref())?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result.map_err(describe)
}
