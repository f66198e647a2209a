//! A protocol connection over TCP: lines out, and lines in on a reader thread with bounded memory.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Mutex;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::protocol::{MAX_LINE, Message};

/// What arrives from the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A complete line, without its newline.
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes, discarded; its length so far.
    TooLong(usize),
    /// The connection ended (a partial last line is dropped).
    Closed,
}

/// One side of a connection.
pub struct Connection {
    writer: Mutex<TcpStream>,
    inbox: Receiver<Incoming>,
}

impl Connection {
    /// Wraps a connected stream and starts reading it.
    pub fn new(stream: TcpStream) -> std::io::Result<Connection> {
        stream.set_nodelay(true)?;
        let reader = stream.try_clone()?;
        let (tx, inbox) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            loop {
                let incoming = read_line(&mut reader);
                let closed = incoming == Incoming::Closed;
                if tx.send(incoming).is_err() || closed {
                    return;
                }
            }
        });
        Ok(Connection { writer: Mutex::new(stream), inbox })
    }

    /// Sends one message.
    pub fn send(&self, message: &Message) -> std::io::Result<()> {
        let mut writer = self.writer.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        writeln!(writer, "{}", message.to_line())?;
        writer.flush()
    }

    /// Sends several messages in order.
    pub fn send_all(&self, messages: &[Message]) -> std::io::Result<()> {
        messages.iter().try_for_each(|m| self.send(m))
    }

    /// The next arrival, waiting at most `timeout`; `None` if nothing came.
    #[must_use]
    pub fn receive(&self, timeout: Duration) -> Option<Incoming> {
        match self.inbox.recv_timeout(timeout) {
            Ok(incoming) => Some(incoming),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Incoming::Closed),
        }
    }

    /// Closes both directions; the reader thread sees the end and stops.
    pub fn close(&self) {
        let writer = self.writer.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let _ = writer.shutdown(Shutdown::Both);
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes; a longer one is skipped to its end without being kept.
fn read_line(reader: &mut impl BufRead) -> Incoming {
    let mut buffer = Vec::new();
    match reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', &mut buffer) {
        Ok(0) | Err(_) => return Incoming::Closed,
        Ok(_) => {}
    }
    if buffer.last() == Some(&b'\n') {
        buffer.pop();
        if buffer.last() == Some(&b'\r') {
            buffer.pop();
        }
        return Incoming::Line(String::from_utf8_lossy(&buffer).into_owned());
    }
    if buffer.len() <= MAX_LINE {
        // The stream ended in the middle of a line.
        return Incoming::Closed;
    }
    let mut skipped = buffer.len();
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) | Err(_) => return Incoming::Closed,
            Ok(chunk) => chunk,
        };
        if let Some(end) = chunk.iter().position(|&b| b == b'\n') {
            reader.consume(end + 1);
            return Incoming::TooLong(skipped + end);
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
    fn lines_long_lines_and_partial_ends() {
        let long = "x".repeat(MAX_LINE * 3);
        let text = format!("PING\r\n{long}\nCHAT hi\nPARTI");
        let mut reader = BufReader::new(text.as_bytes());
        assert_eq!(read_line(&mut reader), Incoming::Line("PING".into()));
        assert_eq!(read_line(&mut reader), Incoming::TooLong(MAX_LINE * 3));
        assert_eq!(read_line(&mut reader), Incoming::Line("CHAT hi".into()));
        assert_eq!(read_line(&mut reader), Incoming::Closed);
    }
}
