//! Reading text lines from peers and managers with bounded memory: a line longer than the limit is skipped to its
//! end without being kept, so a hostile or broken writer cannot make the reader hold more than one line.

use std::io::{BufRead, Read};

/// What one read gives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A complete line, without its line break (`\n` or `\r\n`); invalid UTF-8 is replaced.
    Text(String),
    /// A line longer than the limit, discarded; its length in bytes.
    TooLong(usize),
    /// The input ended in the middle of a line: what there was of it.
    Unfinished(String),
    /// The input ended (or failed) at a line boundary.
    End,
}

/// Reads one line of at most `max` bytes from `reader`.
pub fn read_line(reader: &mut impl BufRead, max: usize) -> Line {
    let mut buffer = Vec::new();
    match reader.by_ref().take(max as u64 + 1).read_until(b'\n', &mut buffer) {
        Ok(0) | Err(_) => return Line::End,
        Ok(_) => {}
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        if buffer.last() == Some(&b'\r') {
            buffer.pop();
        }
        return Line::Text(String::from_utf8_lossy(&buffer).into_owned());
    }
    if buffer.len() <= max {
        return Line::Unfinished(String::from_utf8_lossy(&buffer).into_owned());
    }
    let mut skipped = buffer.len();
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => return Line::TooLong(skipped),
            Ok(chunk) => chunk,
        };
        if let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            reader.consume(end + 1);
            return Line::TooLong(skipped + end);
        }
        let n = chunk.len();
        skipped += n;
        reader.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_long_lines_and_unfinished_ends() {
        let long = "x".repeat(300);
        let text = format!("PING\r\n{long}\nCHAT h\u{e9}\nPARTI");
        let mut reader = std::io::BufReader::with_capacity(16, text.as_bytes());
        assert_eq!(read_line(&mut reader, 100), Line::Text("PING".into()));
        assert_eq!(read_line(&mut reader, 100), Line::TooLong(300));
        assert_eq!(read_line(&mut reader, 100), Line::Text("CHAT h\u{e9}".into()));
        assert_eq!(read_line(&mut reader, 100), Line::Unfinished("PARTI".into()));
        assert_eq!(read_line(&mut reader, 100), Line::End);
    }
}
