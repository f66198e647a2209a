//! The engine protocols of Tabula's command-line tools, as a library so the binaries and their tests share them.

pub mod nboard;
pub mod pbrain;
