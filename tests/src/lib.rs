//! Cross-crate tests for Tabula live in `tests/`; this library is empty.
