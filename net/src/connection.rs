//! A protocol connection over TCP, safe against a peer that misbehaves: lines in on a reader thread and lines out on
//! a writer thread, each through a bounded queue, so that sending never blocks the caller, a peer that stops
//! reading is dropped instead of stalling us, and one that floods us is cut off instead of filling our memory.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::time::{Duration, Instant};

use tabula_games::lines::{self, Line};

use crate::protocol::{MAX_LINE, Message};

/// Lines waiting to be read by the caller; when it is full the reader waits, and TCP slows the peer down.
const INBOX_LINES: usize = 256;

/// Lines waiting to be written; a peer that lets this many pile up is not reading, and is dropped.
const OUTBOX_LINES: usize = 256;

/// How long one write may wait for a peer that does not read before the connection is given up.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// More lines than this within one second is a flood: the connection is closed.
pub const FLOOD_LINES: usize = 400;

/// What arrives from the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incoming {
    /// A complete line, without its newline.
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes, discarded; its length so far.
    TooLong(usize),
    /// The peer sent more than [`FLOOD_LINES`] lines within a second; the connection was closed.
    Flooded,
    /// The peer did not read what was sent for [`WRITE_TIMEOUT`]; the connection was closed.
    Stalled,
    /// The connection ended (a partial last line is dropped).
    Closed,
}

impl Incoming {
    /// Whether this is the connection's last arrival.
    #[must_use]
    pub fn is_end(&self) -> bool {
        matches!(self, Incoming::Closed | Incoming::Flooded | Incoming::Stalled)
    }
}

/// Why a message could not be sent.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    /// The peer has not read what was sent before: [`OUTBOX_LINES`] lines wait.
    #[error("the other side is not reading ({OUTBOX_LINES} lines wait unread)")]
    NotReading,
    /// The connection is closed.
    #[error("the connection is closed")]
    Closed,
}

/// What the writer thread is asked to do.
enum Outgoing {
    /// Write this line.
    Line(String),
    /// Close the connection once everything queued before is written.
    Close,
}

/// One side of a connection.
pub struct Connection {
    stream: TcpStream,
    outbox: SyncSender<Outgoing>,
    inbox: Receiver<Incoming>,
}

impl Connection {
    /// Wraps a connected stream and starts its reader and writer threads.
    pub fn new(stream: TcpStream) -> std::io::Result<Connection> {
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let reader = stream.try_clone()?;
        let mut writer = stream.try_clone()?;
        let stalled = Arc::new(AtomicBool::new(false));
        let writer_stalled = Arc::clone(&stalled);
        let (tx, inbox) = mpsc::sync_channel(INBOX_LINES);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(reader);
            let mut flood = FloodGuard::default();
            loop {
                let mut incoming = read_line(&mut reader);
                if incoming == Incoming::Closed && stalled.load(Ordering::Relaxed) {
                    incoming = Incoming::Stalled;
                } else if incoming != Incoming::Closed && flood.is_flooding(Instant::now()) {
                    incoming = Incoming::Flooded;
                    let _ = reader.get_ref().shutdown(Shutdown::Both);
                }
                let end = incoming.is_end();
                if tx.send(incoming).is_err() || end {
                    return;
                }
            }
        });
        let (outbox, pending) = mpsc::sync_channel(OUTBOX_LINES);
        std::thread::spawn(move || {
            for outgoing in pending {
                let Outgoing::Line(line) = outgoing else { break };
                if let Err(e) = writer.write_all(line.as_bytes()).and_then(|()| writer.flush()) {
                    // A peer that does not read within the timeout, or a broken connection.
                    let timed_out = matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut);
                    writer_stalled.store(timed_out, Ordering::Relaxed);
                    break;
                }
            }
            // Ending both directions lets the reader see the end too.
            let _ = writer.shutdown(Shutdown::Both);
        });
        Ok(Connection { stream, outbox, inbox })
    }

    /// Queues one message for sending; never waits for the peer.
    pub fn send(&self, message: &Message) -> Result<(), SendError> {
        match self.outbox.try_send(Outgoing::Line(format!("{}\n", message.to_line()))) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(SendError::NotReading),
            Err(TrySendError::Disconnected(_)) => Err(SendError::Closed),
        }
    }

    /// Queues several messages in order.
    pub fn send_all(&self, messages: &[Message]) -> Result<(), SendError> {
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

    /// Closes both directions once what was queued is written (at once if the peer is not reading); the reader
    /// and writer threads see the end and stop.
    pub fn close(&self) {
        if self.outbox.try_send(Outgoing::Close).is_err() {
            let _ = self.stream.shutdown(Shutdown::Both);
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

/// Counts the lines of the current second.
#[derive(Default)]
struct FloodGuard {
    second: Option<Instant>,
    lines: usize,
}

impl FloodGuard {
    /// Counts one line arriving at `now`: whether the second it falls in has had more than [`FLOOD_LINES`].
    fn is_flooding(&mut self, now: Instant) -> bool {
        match self.second {
            Some(start) if now.duration_since(start) < Duration::from_secs(1) => self.lines += 1,
            _ => (self.second, self.lines) = (Some(now), 1),
        }
        self.lines > FLOOD_LINES
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes; a cut last line is dropped with the connection.
fn read_line(reader: &mut impl BufRead) -> Incoming {
    match lines::read_line(reader, MAX_LINE) {
        Line::Text(text) => Incoming::Line(text),
        Line::TooLong(n) => Incoming::TooLong(n),
        Line::Unfinished(_) | Line::End => Incoming::Closed,
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

    #[test]
    fn more_than_the_flood_limit_within_a_second_is_a_flood() {
        let mut guard = FloodGuard::default();
        let start = Instant::now();
        assert!((0..FLOOD_LINES).all(|_| !guard.is_flooding(start)));
        assert!(guard.is_flooding(start + Duration::from_millis(900)));
        // A new second starts a new count.
        assert!(!guard.is_flooding(start + Duration::from_millis(1000)));
    }
}
