//! The optional sound on a refused move: the terminal bell. It needs no audio device or library, and it is
//! written from a short-lived thread so a stalled terminal can never block the interface.

use std::io::Write;

/// Rings the terminal bell; any failure is ignored.
pub fn ring() {
    std::thread::spawn(|| {
        let mut err = std::io::stderr();
        let _ = err.write_all(b"\x07").and_then(|()| err.flush());
    });
}
