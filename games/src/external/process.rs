//! An engine's process: started on first use, its output read on a thread of its own so that every wait has a
//! deadline, and ended (killed) on any error or when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use super::{EngineError, EngineSpec};
use crate::board::Cell;

/// How often a wait looks at its stop flag.
const POLL: Duration = Duration::from_millis(20);

/// The longest line read from an engine; a longer one is cut (a hostile engine cannot fill the memory).
const MAX_LINE: usize = 64 * 1024;

/// How long a reply may take, from when it was asked for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wait {
    until: Instant,
    allowed: Duration,
}

impl Wait {
    /// Up to `allowed` from now.
    pub(super) fn new(allowed: Duration) -> Wait {
        Wait { until: Instant::now() + allowed, allowed }
    }
}

/// A registered engine and, once asked, its running process.
#[derive(Debug)]
pub struct Connection {
    spec: EngineSpec,
    live: Option<Live>,
    /// What the protocol has already told the running process (a game's size and rules), so it is said once.
    pub(super) told: Option<String>,
    /// The moves the running process's board holds, when known: a position one move on is told as that move.
    pub(super) known: Option<Vec<Option<Cell>>>,
}

#[derive(Debug)]
struct Live {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Connection {
    /// The engine `spec`, not started yet.
    #[must_use]
    pub fn new(spec: EngineSpec) -> Connection {
        Connection { spec, live: None, told: None, known: None }
    }

    /// How it is started.
    #[must_use]
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    /// Whether its process is running (it may have exited since it was last read).
    #[must_use]
    pub fn is_running(&self) -> bool {
        self.live.is_some()
    }

    /// Starts the process if it is not running; `true` if it was started now.
    pub(super) fn start(&mut self) -> Result<bool, EngineError> {
        if self.live.is_some() {
            return Ok(false);
        }
        let mut command = Command::new(&self.spec.program);
        command.args(&self.spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
        if let Some(folder) = &self.spec.folder {
            command.current_dir(folder);
        }
        let start_error = |reason: String| EngineError::Start {
            name: self.spec.name.clone(),
            program: self.spec.program.display().to_string(),
            reason,
        };
        let mut child = command.spawn().map_err(|e| start_error(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(start_error("no pipes".into()));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match reader.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut bytes) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes).trim().to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        self.live = Some(Live { child, stdin, lines });
        self.told = None;
        self.known = None;
        Ok(true)
    }

    /// Writes one line to the engine.
    pub(super) fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let exited = || EngineError::Exited { name: self.spec.name.clone() };
        let live = self.live.as_mut().ok_or_else(exited)?;
        writeln!(live.stdin, "{line}").and_then(|()| live.stdin.flush()).map_err(|_| exited())
    }

    /// The engine's next non-empty line within `wait`; `stop` ends the wait early.
    pub(super) fn read_line(&mut self, wait: Wait, stop: &AtomicBool) -> Result<String, EngineError> {
        let name = self.spec.name.clone();
        let live = self.live.as_mut().ok_or_else(|| EngineError::Exited { name: name.clone() })?;
        let deadline = wait.until;
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(EngineError::Stopped { name });
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout { name, waited: wait.allowed });
            }
            match live.lines.recv_timeout(POLL.min(deadline - now)) {
                Ok(line) if line.is_empty() => {}
                Ok(line) => return Ok(line),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Exited { name }),
            }
        }
    }

    /// Ends the process (it is started again when next asked).
    pub fn end(&mut self) {
        if let Some(mut live) = self.live.take() {
            let _ = live.child.kill();
            let _ = live.child.wait();
        }
        self.told = None;
        self.known = None;
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.end();
    }
}
