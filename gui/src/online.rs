//! Network play from the app's side: the link to the other player (listening, connecting, connected or
//! dropped), the host's referee or the guest's mirror, and the chat. Nothing here blocks the interface: the
//! host's listener never waits, the guest connects on a thread, and the app polls for arrivals.

use std::io::ErrorKind;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream, ToSocketAddrs, UdpSocket};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::time::{Duration, Instant};

use tabula_core::Player;
use tabula_games::Cell;
use tabula_games::registry::MatchSpec;
use tabula_net::connection::{FLOOD_LINES, SendError};
use tabula_net::{Connection, Guest, GuestEvent, HostEvent, Incoming, Message, Referee};

/// The port a host listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7878;

/// How often a quiet connection is asked whether the other side is still there.
const PING_EVERY: Duration = Duration::from_secs(10);

/// How long a connection may stay silent (not even answering a ping) before it counts as dropped.
const SILENCE_LIMIT: Duration = Duration::from_secs(35);

/// How long a new connection has to complete the handshake (answer the host's `HELLO` with `WELCOME`) before the
/// host closes it; until then it does not hold the game's seat.
pub const HANDSHAKE_LIMIT: Duration = Duration::from_secs(5);

/// How many connections may be completing the handshake at once; more are closed at once.
pub const CANDIDATES: usize = 4;

/// How many chat lines are kept; older ones scroll away.
pub const CHAT_KEEP: usize = 500;

/// Which side of the game this app is.
pub enum Role {
    /// The host owns and referees the game.
    Host(Referee),
    /// The guest mirrors the host's game.
    Guest(Guest),
}

/// The host's listening socket and the connections still completing the handshake.
pub struct Listener {
    socket: TcpListener,
    candidates: Vec<Candidate>,
}

/// A connection that has not said `WELCOME` yet.
struct Candidate {
    conn: Connection,
    peer: SocketAddr,
    since: Instant,
}

/// The state of the connection.
pub enum Link {
    /// The host waits for the guest.
    Listening(Listener),
    /// The guest is connecting.
    Connecting(Receiver<Result<TcpStream, String>>),
    /// Both sides talk.
    Connected(Connection),
    /// The connection ended, and why; the game waits for a reconnection.
    Dropped(String),
}

/// A line in the chat panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChatLine {
    /// Written here.
    Mine(String),
    /// Written by the other player.
    Theirs(String),
    /// Something that happened (joined, refused, declined).
    Note(String),
}

/// A question the other player asked, waiting for this side's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// May they take back their last move?
    Undo,
    /// Shall we start a new game?
    NewGame,
}

/// An online game in progress.
pub struct Online {
    /// Host or guest.
    pub role: Role,
    /// The connection.
    pub link: Link,
    /// The host's port, or the address the guest connects to.
    pub address: String,
    /// Who may join, for a host.
    pub reach: Reach,
    /// The chat so far.
    pub chat: Vec<ChatLine>,
    /// The chat line being typed.
    pub draft: String,
    /// The other player's question waiting for an answer.
    pub asked: Option<Asked>,
    /// Whether the guest has accepted the game (host) or the host has announced it (guest).
    pub joined: bool,
    /// Whether the two sides were ever connected (a guest whose first attempt failed was not).
    ever_connected: bool,
    last_heard: Instant,
    last_sent: Instant,
}

/// Which machines may join a hosted game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    /// Only this computer (the loopback interface): nothing is exposed to the network.
    #[default]
    ThisComputer,
    /// Any machine that can reach this one: every network interface.
    Network,
}

impl Reach {
    fn interface(self) -> Ipv4Addr {
        match self {
            Reach::ThisComputer => Ipv4Addr::LOCALHOST,
            Reach::Network => Ipv4Addr::UNSPECIFIED,
        }
    }
}

fn listen(port: u16, reach: Reach) -> Result<Listener, String> {
    let socket =
        TcpListener::bind((reach.interface(), port)).map_err(|e| format!("cannot listen on port {port}: {e}"))?;
    socket.set_nonblocking(true).map_err(|e| e.to_string())?;
    Ok(Listener { socket, candidates: Vec::new() })
}

fn connect(address: String) -> Receiver<Result<TcpStream, String>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let result = address
            .to_socket_addrs()
            .map_err(|e| format!("{address}: {e}"))
            .and_then(|mut addrs| addrs.next().ok_or_else(|| format!("{address}: no such address")))
            .and_then(|addr| {
                TcpStream::connect_timeout(&addr, Duration::from_secs(8)).map_err(|e| format!("{address}: {e}"))
            });
        let _ = tx.send(result);
    });
    rx
}

/// The addresses others may reach this machine at: the one on the way to the internet (found without sending
/// anything) and the loopback address.
#[must_use]
pub fn local_addresses() -> Vec<IpAddr> {
    let mut found = Vec::new();
    if let Ok(socket) = UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0))
        && socket.connect((Ipv4Addr::new(8, 8, 8, 8), 53)).is_ok()
        && let Ok(addr) = socket.local_addr()
        && !addr.ip().is_unspecified()
    {
        found.push(addr.ip());
    }
    found.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
    found
}

impl Online {
    /// Hosts a game of `spec` on `port` (0 picks a free one) for the machines `reach` allows, the guest playing
    /// `guest`.
    pub fn host(spec: MatchSpec, guest: Player, port: u16, reach: Reach) -> Result<Online, String> {
        let referee = Referee::new(spec, guest)?;
        let listener = listen(port, reach)?;
        let port = listener.socket.local_addr().map_err(|e| e.to_string())?.port();
        let mut online = Online::new(Role::Host(referee), Link::Listening(listener), port.to_string());
        online.reach = reach;
        Ok(online)
    }

    /// Joins the game hosted at `address` (`host:port`).
    #[must_use]
    pub fn join(address: &str) -> Online {
        let address = address.trim().to_string();
        Online::new(Role::Guest(Guest::new()), Link::Connecting(connect(address.clone())), address)
    }

    fn new(role: Role, link: Link, address: String) -> Online {
        let now = Instant::now();
        Online {
            role,
            link,
            address,
            reach: Reach::default(),
            chat: Vec::new(),
            draft: String::new(),
            asked: None,
            joined: false,
            ever_connected: false,
            last_heard: now,
            last_sent: now,
        }
    }

    /// Whether moves can be made: connected, and the game agreed on.
    #[must_use]
    pub fn ready(&self) -> bool {
        matches!(self.link, Link::Connected(_)) && self.joined
    }

    /// The game, this side's colour, the moves and who resigned, once the game is known.
    #[must_use]
    pub fn state(&self) -> Option<(MatchSpec, Player, Vec<String>, Option<Player>)> {
        match &self.role {
            Role::Host(referee) => {
                Some((referee.spec().clone(), referee.host(), referee.game().move_list(), referee.resigned()))
            }
            Role::Guest(guest) => {
                let game = guest.game()?;
                Some((guest.spec()?.clone(), guest.colour()?, game.move_list(), guest.resigned()))
            }
        }
    }

    /// A line for the status of the connection.
    #[must_use]
    pub fn link_words(&self) -> String {
        match (&self.link, &self.role) {
            (Link::Listening(_), _) => match self.reach {
                Reach::ThisComputer => {
                    format!("Waiting for the other player on port {} (only from this computer)…", self.address)
                }
                Reach::Network => format!("Waiting for the other player on port {}…", self.address),
            },
            (Link::Connecting(_), _) => format!("Connecting to {}…", self.address),
            (Link::Connected(_), _) if !self.joined => "Connected; agreeing on the game…".into(),
            (Link::Connected(_), Role::Host(_)) => "Connected: you host.".into(),
            (Link::Connected(_), Role::Guest(_)) => format!("Connected to {}.", self.address),
            (Link::Dropped(why), Role::Guest(_)) if !self.ever_connected => {
                format!("Could not connect to {} ({why}).", self.address)
            }
            (Link::Dropped(why), _) => format!("Connection lost ({why}); the game is paused."),
        }
    }

    /// Adds a note to the chat.
    pub fn note(&mut self, text: impl Into<String>) {
        self.say(ChatLine::Note(text.into()));
    }

    /// Adds a line to the chat, letting the oldest go beyond [`CHAT_KEEP`].
    fn say(&mut self, line: ChatLine) {
        if self.chat.len() >= CHAT_KEEP {
            self.chat.drain(..=self.chat.len() - CHAT_KEEP);
        }
        self.chat.push(line);
    }

    fn send(&mut self, messages: &[Message]) {
        if let Link::Connected(conn) = &self.link {
            self.last_sent = Instant::now();
            // A closed connection is reported by its reader, with the reason (closed by the peer, or a flood).
            if let Err(e @ SendError::NotReading) = conn.send_all(messages) {
                conn.close();
                self.link = Link::Dropped(e.to_string());
                self.joined = false;
            }
        }
    }

    /// Keeps a quiet connection alive, and gives up on one that has been silent too long.
    fn keep_alive(&mut self) -> bool {
        let Link::Connected(conn) = &self.link else { return false };
        if self.last_heard.elapsed() > SILENCE_LIMIT {
            conn.close();
            self.link = Link::Dropped("no answer for a while".into());
            self.joined = false;
            return true;
        }
        if self.last_sent.elapsed() > PING_EVERY && self.last_heard.elapsed() > PING_EVERY {
            self.send(&[Message::Ping]);
        }
        false
    }

    /// Takes what arrived; `true` when something may have changed the game or the chat.
    pub fn poll(&mut self) -> bool {
        match &self.link {
            Link::Listening(_) => self.poll_listener(),
            Link::Connecting(rx) => match rx.try_recv() {
                Ok(Ok(stream)) => {
                    self.last_heard = Instant::now();
                    self.link = match Connection::new(stream) {
                        Ok(conn) => {
                            self.ever_connected = true;
                            Link::Connected(conn)
                        }
                        Err(e) => Link::Dropped(e.to_string()),
                    };
                    true
                }
                Ok(Err(e)) => {
                    self.link = Link::Dropped(e);
                    true
                }
                Err(TryRecvError::Empty) => false,
                Err(TryRecvError::Disconnected) => {
                    self.link = Link::Dropped("the connection attempt failed".into());
                    true
                }
            },
            Link::Connected(conn) => {
                let mut arrivals = Vec::new();
                while arrivals.len() < 64
                    && let Some(incoming) = conn.receive(Duration::ZERO)
                {
                    let end = incoming.is_end();
                    arrivals.push(incoming);
                    if end {
                        break;
                    }
                }
                let changed = !arrivals.is_empty();
                if changed {
                    self.last_heard = Instant::now();
                }
                for incoming in arrivals {
                    self.arrive(incoming);
                }
                self.keep_alive() || changed
            }
            Link::Dropped(_) => false,
        }
    }

    /// Takes new connections, greets them and waits for their `WELCOME`; the first to say it takes the seat.
    fn poll_listener(&mut self) -> bool {
        let (Link::Listening(listener), Role::Host(referee)) = (&mut self.link, &mut self.role) else { return false };
        let mut notes = Vec::new();
        loop {
            match listener.socket.accept() {
                Ok((stream, peer)) if listener.candidates.len() < CANDIDATES => {
                    match stream.set_nonblocking(false).and_then(|()| Connection::new(stream)) {
                        Ok(conn) => {
                            let _ = conn.send_all(&referee.greeting());
                            listener.candidates.push(Candidate { conn, peer, since: Instant::now() });
                        }
                        Err(e) => notes.push(format!("A connection from {peer} failed: {e}")),
                    }
                }
                // Too many half-open connections at once: this one is closed as it is dropped.
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                Err(e) => {
                    self.link = Link::Dropped(e.to_string());
                    return true;
                }
            }
        }
        let mut joined = None;
        listener.candidates.retain(|candidate| {
            if joined.is_some() {
                return true;
            }
            while let Some(incoming) = candidate.conn.receive(Duration::ZERO) {
                let Incoming::Line(line) = incoming else { return false };
                let reply = match Message::parse(&line) {
                    Ok(Message::Ping) => Message::Pong,
                    Ok(Message::Welcome { .. }) => {
                        let (replies, event) = referee.handle_line(&line);
                        let _ = candidate.conn.send_all(&replies);
                        if event == Some(HostEvent::Joined) {
                            joined = Some(candidate.peer);
                        }
                        return event == Some(HostEvent::Joined);
                    }
                    Ok(Message::Bye) => return false,
                    Ok(_) => Message::Error("say WELCOME first".into()),
                    Err(reason) => Message::Error(reason),
                };
                if candidate.conn.send(&reply).is_err() {
                    return false;
                }
            }
            candidate.since.elapsed() < HANDSHAKE_LIMIT
        });
        let changed = !notes.is_empty() || joined.is_some();
        for note in notes {
            self.note(note);
        }
        if let Some(peer) = joined {
            let Link::Listening(listener) = &mut self.link else { return true };
            let index = listener.candidates.iter().position(|c| c.peer == peer).unwrap_or(0);
            let conn = listener.candidates.swap_remove(index).conn;
            self.link = Link::Connected(conn);
            self.ever_connected = true;
            self.last_heard = Instant::now();
            self.note(format!("{peer} connected."));
            self.host_event(HostEvent::Joined);
        }
        changed
    }

    fn arrive(&mut self, incoming: Incoming) {
        let line = match incoming {
            Incoming::Line(line) => line,
            Incoming::TooLong(n) => {
                if let Role::Host(referee) = &mut self.role {
                    let (replies, _) = referee.handle_oversized(n);
                    self.send(&replies);
                }
                self.note(format!("Refused a line of {n} bytes."));
                return;
            }
            Incoming::Closed => {
                self.link = Link::Dropped("the other side closed the connection".into());
                self.joined = false;
                return;
            }
            Incoming::Stalled => {
                self.link = Link::Dropped("the other side stopped reading".into());
                self.joined = false;
                return;
            }
            Incoming::Flooded => {
                self.link = Link::Dropped(format!("the other side sent more than {FLOOD_LINES} lines in a second"));
                self.joined = false;
                return;
            }
        };
        match &mut self.role {
            Role::Host(referee) => {
                let (replies, event) = referee.handle_line(&line);
                self.send(&replies);
                if let Some(event) = event {
                    self.host_event(event);
                }
            }
            Role::Guest(guest) => {
                let (replies, event) = guest.handle_line(&line);
                self.send(&replies);
                if let Some(event) = event {
                    self.guest_event(event);
                }
            }
        }
    }

    fn host_event(&mut self, event: HostEvent) {
        match event {
            HostEvent::Joined => {
                self.joined = true;
                self.note("The other player joined.");
            }
            HostEvent::GuestMoved(_) => {}
            HostEvent::Chat(text) => self.say(ChatLine::Theirs(text)),
            HostEvent::UndoRequested => self.asked = Some(Asked::Undo),
            HostEvent::UndoAnswered(yes) => self.note(if yes { "Undo accepted." } else { "Undo declined." }),
            HostEvent::Resigned(_) => self.note("The other player resigned."),
            HostEvent::NewGameOffered => self.asked = Some(Asked::NewGame),
            HostEvent::NewGameAnswered(yes) => {
                self.note(if yes { "A new game starts." } else { "New game declined." });
            }
            HostEvent::Refused(reason) => self.note(format!("Refused the other side's line: {reason}")),
            HostEvent::Left => self.left(),
        }
    }

    fn guest_event(&mut self, event: GuestEvent) {
        match event {
            GuestEvent::Started { .. } => self.joined = true,
            GuestEvent::Synced | GuestEvent::Moved(_) | GuestEvent::Undone => {}
            GuestEvent::Chat(text) => self.say(ChatLine::Theirs(text)),
            GuestEvent::UndoRequested => self.asked = Some(Asked::Undo),
            GuestEvent::UndoAnswered(yes) => self.note(if yes { "Undo accepted." } else { "Undo declined." }),
            GuestEvent::Resigned(p) => {
                let mine = self.state().is_some_and(|(_, me, ..)| me == p);
                if !mine {
                    self.note("The other player resigned.");
                }
            }
            GuestEvent::NewGameOffered => self.asked = Some(Asked::NewGame),
            GuestEvent::NewGameAnswered(yes) => {
                self.note(if yes { "A new game starts." } else { "New game declined." });
            }
            GuestEvent::Refused(reason) => self.note(format!("The host refused: {reason}")),
            GuestEvent::Left => self.left(),
        }
    }

    fn left(&mut self) {
        if let Link::Connected(conn) = &self.link {
            conn.close();
        }
        self.link = Link::Dropped("the other player left".into());
        self.joined = false;
    }

    /// Plays this side's move on `cell` (a pass when `None`); the game changes when the host has applied it.
    pub fn play(&mut self, cell: Option<Cell>) -> Result<(), String> {
        if !self.ready() {
            return Err("the game is paused until the other player is connected".into());
        }
        let messages = match &mut self.role {
            Role::Host(referee) => referee.play_local(cell)?,
            Role::Guest(guest) => vec![guest.play(cell)?],
        };
        self.send(&messages);
        Ok(())
    }

    /// Asks the other player to let this side take back its last move.
    pub fn request_undo(&mut self) {
        let messages = match &mut self.role {
            Role::Host(referee) => referee.request_undo(),
            Role::Guest(_) => vec![Message::UndoRequest],
        };
        self.send(&messages);
        self.note("You asked to take back your move.");
    }

    /// Answers the other player's question.
    pub fn answer(&mut self, accept: bool) -> Result<(), String> {
        let Some(asked) = self.asked.take() else { return Ok(()) };
        let messages = match (&mut self.role, asked) {
            (Role::Host(referee), Asked::Undo) => referee.answer_undo(accept),
            (Role::Host(referee), Asked::NewGame) => referee.answer_new_game(accept)?,
            (Role::Guest(guest), Asked::Undo) => vec![guest.answer_undo(accept)],
            (Role::Guest(guest), Asked::NewGame) => vec![guest.answer_new_game(accept)],
        };
        self.send(&messages);
        Ok(())
    }

    /// Resigns this side's game.
    pub fn resign(&mut self) {
        let messages = match &mut self.role {
            Role::Host(referee) => referee.resign(),
            Role::Guest(_) => vec![Message::Resign],
        };
        self.send(&messages);
    }

    /// Offers the other player a new game with the same settings.
    pub fn offer_new_game(&mut self) {
        let messages = match &mut self.role {
            Role::Host(referee) => referee.offer_new_game(),
            Role::Guest(_) => vec![Message::NewGameOffer],
        };
        self.send(&messages);
        self.note("You offered a new game.");
    }

    /// Sends the chat line being typed.
    pub fn send_chat(&mut self) {
        let text = self.draft.trim().to_string();
        if text.is_empty() {
            return;
        }
        self.draft.clear();
        self.send(&[Message::Chat(text.clone())]);
        self.say(ChatLine::Mine(text));
    }

    /// After a dropped connection: the host listens again, the guest connects again.
    pub fn reconnect(&mut self) -> Result<(), String> {
        if !matches!(self.link, Link::Dropped(_)) {
            return Ok(());
        }
        self.joined = false;
        self.link = match &self.role {
            Role::Host(_) => {
                Link::Listening(listen(self.address.parse().map_err(|_| "bad port".to_string())?, self.reach)?)
            }
            Role::Guest(_) => Link::Connecting(connect(self.address.clone())),
        };
        Ok(())
    }

    /// Says goodbye and closes the connection.
    pub fn leave(&mut self) {
        self.send(&[Message::Bye]);
        if let Link::Connected(conn) = &self.link {
            conn.close();
        }
        self.link = Link::Dropped("you left".into());
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};

    use tabula_games::registry::GameKind;

    use super::*;

    fn hosting() -> (Online, SocketAddr) {
        let spec = MatchSpec::default_for(GameKind::Gomoku);
        let online = Online::host(spec, Player::Second, 0, Reach::ThisComputer).expect("host");
        let Link::Listening(listener) = &online.link else { panic!("not listening") };
        let addr = listener.socket.local_addr().expect("address");
        (online, addr)
    }

    /// Polls `online` until `done` holds, at most `limit`; the slowest poll.
    fn poll_until(online: &mut Online, limit: Duration, done: impl Fn(&Online) -> bool) -> Duration {
        let start = Instant::now();
        let mut slowest = Duration::ZERO;
        while !done(online) {
            assert!(start.elapsed() < limit, "not there after {limit:?}: {}", online.link_words());
            let t = Instant::now();
            online.poll();
            slowest = slowest.max(t.elapsed());
            std::thread::sleep(Duration::from_millis(5));
        }
        slowest
    }

    #[test]
    fn a_host_listens_on_this_computer_only_unless_told() {
        let (online, addr) = hosting();
        assert!(addr.ip().is_loopback(), "{addr}");
        assert!(online.link_words().contains("only from this computer"));
    }

    #[test]
    fn a_peer_that_floods_and_never_reads_neither_stalls_nor_bloats_the_host() {
        let (mut host, addr) = hosting();
        let mut peer = TcpStream::connect(addr).expect("connect");
        peer.write_all(b"WELCOME 1\n").expect("welcome");
        poll_until(&mut host, Duration::from_secs(5), Online::ready);
        // Every bad move is answered with an error the peer never reads, at up to the host's poll rate.
        let flood = std::thread::spawn(move || {
            let line = format!("MOVE z99 {}\n", "x".repeat(3000));
            while peer.write_all(line.as_bytes()).is_ok() {}
        });
        let slowest = poll_until(&mut host, Duration::from_secs(20), |o| matches!(o.link, Link::Dropped(_)));
        assert!(slowest < Duration::from_millis(200), "a poll took {slowest:?}");
        assert!(host.chat.len() <= CHAT_KEEP);
        let Role::Host(referee) = &host.role else { panic!("host") };
        assert!(referee.log().len() <= tabula_net::referee::LOG_KEEP);
        let words = host.link_words();
        assert!(words.contains("lines in a second") || words.contains("reading"), "{words}");
        flood.join().expect("flood");
    }

    #[test]
    fn half_open_and_silent_peers_do_not_keep_the_guest_out() {
        let (mut host, addr) = hosting();
        drop(TcpStream::connect(addr).expect("connect and close"));
        let mut pinger = TcpStream::connect(addr).expect("pinger");
        pinger.write_all(b"PING\nPING\n").expect("ping");
        let silent = TcpStream::connect(addr).expect("silent");
        host.poll();
        assert!(matches!(host.link, Link::Listening(_)), "{}", host.link_words());
        let mut guest = Online::join(&addr.to_string());
        let start = Instant::now();
        while !(host.ready() && guest.ready()) {
            assert!(start.elapsed() < Duration::from_secs(4), "{} / {}", host.link_words(), guest.link_words());
            host.poll();
            guest.poll();
            std::thread::sleep(Duration::from_millis(5));
        }
        // The others are closed once the guest has the seat: each read the greeting and then the end.
        for peer in [pinger, silent] {
            peer.set_read_timeout(Some(Duration::from_secs(5))).expect("timeout");
            let lines: Vec<String> = BufReader::new(peer).lines().map_while(Result::ok).collect();
            assert!(lines[0].starts_with("HELLO"), "{lines:?}");
        }
    }

    #[test]
    fn a_peer_that_never_says_welcome_is_closed_after_the_handshake_limit() {
        let (mut host, addr) = hosting();
        let peer = TcpStream::connect(addr).expect("connect");
        let start = Instant::now();
        while start.elapsed() < HANDSHAKE_LIMIT + Duration::from_millis(500) {
            host.poll();
            std::thread::sleep(Duration::from_millis(20));
        }
        peer.set_read_timeout(Some(Duration::from_secs(2))).expect("timeout");
        let lines: Vec<String> = BufReader::new(peer).lines().map_while(Result::ok).collect();
        assert_eq!(lines.len(), 2, "the greeting, then the end: {lines:?}");
        assert!(matches!(host.link, Link::Listening(_)), "still waiting for a guest");
    }

    #[test]
    fn a_guest_that_never_connected_is_told_so_not_that_the_connection_was_lost() {
        // A port nobody listens on: bind one, note it, close it.
        let port = std::net::TcpListener::bind("127.0.0.1:0").expect("bind").local_addr().expect("address").port();
        let mut guest = Online::join(&format!("127.0.0.1:{port}"));
        poll_until(&mut guest, Duration::from_secs(5), |g| matches!(g.link, Link::Dropped(_)));
        let words = guest.link_words();
        assert!(words.starts_with(&format!("Could not connect to 127.0.0.1:{port} (")), "{words}");
        assert!(!words.contains("paused"), "{words}");
    }

    #[test]
    fn the_chat_keeps_its_latest_lines() {
        let (mut host, _) = hosting();
        for i in 0..CHAT_KEEP + 10 {
            host.note(i.to_string());
        }
        assert_eq!(host.chat.len(), CHAT_KEEP);
        assert_eq!(host.chat[0], ChatLine::Note("10".into()));
    }
}
