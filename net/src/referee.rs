//! The host's side: the one authoritative game, every guest line checked against the rules and the turn.

use tabula_core::{GameResult, Player};
use tabula_games::{Cell, Match, MatchSpec};

use crate::online_match;

use crate::protocol::{Message, PROTOCOL_VERSION};

/// What happened, for the host's user interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostEvent {
    /// The guest accepted the game.
    Joined,
    /// The guest's move was checked and played.
    GuestMoved(String),
    /// The guest wrote in the chat.
    Chat(String),
    /// The guest asks to take back their last move; answer with [`Referee::answer_undo`].
    UndoRequested,
    /// The guest answered the host's undo request (and, if yes, the moves are taken back).
    UndoAnswered(bool),
    /// A player resigned.
    Resigned(Player),
    /// The guest offers a new game; answer with [`Referee::answer_new_game`].
    NewGameOffered,
    /// The guest answered the host's offer (and, if yes, a new game started).
    NewGameAnswered(bool),
    /// A guest line was refused; the reason was sent back and logged.
    Refused(String),
    /// The guest said goodbye.
    Left,
}

/// How many refusals the log keeps: a guest sending bad lines for ever must not grow the host's memory.
pub const LOG_KEEP: usize = 200;

/// The host's game and the state of the conversation about it.
pub struct Referee {
    spec: MatchSpec,
    guest: Player,
    game: Box<dyn Match>,
    joined: bool,
    undo_asked_by: Option<Player>,
    new_game_asked_by: Option<Player>,
    resigned: Option<Player>,
    log: Vec<String>,
}

impl Referee {
    /// A new game of `spec` in which the guest plays `guest`.
    pub fn new(spec: MatchSpec, guest: Player) -> Result<Referee, String> {
        let game = online_match(&spec)?;
        Ok(Referee {
            spec,
            guest,
            game,
            joined: false,
            undo_asked_by: None,
            new_game_asked_by: None,
            resigned: None,
            log: Vec::new(),
        })
    }

    /// The game as it stands.
    #[must_use]
    pub fn game(&self) -> &dyn Match {
        self.game.as_ref()
    }

    /// The game, rule set and board size.
    #[must_use]
    pub fn spec(&self) -> &MatchSpec {
        &self.spec
    }

    /// The host's colour.
    #[must_use]
    pub fn host(&self) -> Player {
        self.guest.opponent()
    }

    /// Who resigned, if anyone.
    #[must_use]
    pub fn resigned(&self) -> Option<Player> {
        self.resigned
    }

    /// The winner once the game is decided, by the board or by resignation.
    #[must_use]
    pub fn result(&self) -> Option<GameResult> {
        match self.resigned {
            Some(p) => Some(GameResult::Win(p.opponent())),
            None => self.game.current().outcome.map(|o| o.result),
        }
    }

    /// The last [`LOG_KEEP`] refused guest lines with their reasons, oldest first.
    #[must_use]
    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// What the host sends when a guest connects (or reconnects): the game and its moves so far.
    #[must_use]
    pub fn greeting(&self) -> Vec<Message> {
        vec![
            Message::Hello { version: PROTOCOL_VERSION, spec: self.spec.clone(), guest: self.guest },
            Message::Sync(self.game.move_list()),
        ]
    }

    fn is_live(&self) -> bool {
        self.resigned.is_none() && !self.game.is_over()
    }

    fn moved(&self) -> Message {
        let notation = self.game.move_list().last().cloned().unwrap_or_default();
        Message::Moved { ply: self.game.ply(), notation }
    }

    /// The host plays on `cell` (or passes when `cell` is `None`); the message tells the guest.
    pub fn play_local(&mut self, cell: Option<Cell>) -> Result<Vec<Message>, String> {
        if !self.is_live() {
            return Err("the game is over".into());
        }
        if self.game.to_move() != self.host() {
            return Err("it is your opponent's turn".into());
        }
        match cell {
            Some(c) => self.game.play_cell(c).map_err(|e| e.to_string())?,
            None => self.game.pass().map_err(|e| e.to_string())?,
        };
        Ok(vec![self.moved()])
    }

    /// The host asks to take back their last move.
    pub fn request_undo(&mut self) -> Vec<Message> {
        self.undo_asked_by = Some(self.host());
        vec![Message::UndoRequest]
    }

    /// The host answers the guest's undo request.
    pub fn answer_undo(&mut self, accept: bool) -> Vec<Message> {
        if self.undo_asked_by.take() != Some(self.guest) {
            return Vec::new();
        }
        if accept && self.take_back(self.guest) {
            vec![Message::UndoAccept, Message::Undone { ply: self.game.ply() }]
        } else {
            vec![Message::UndoDecline]
        }
    }

    /// The host resigns.
    pub fn resign(&mut self) -> Vec<Message> {
        if !self.is_live() {
            return Vec::new();
        }
        self.resigned = Some(self.host());
        vec![Message::Resigned(self.host())]
    }

    /// The host offers a new game.
    pub fn offer_new_game(&mut self) -> Vec<Message> {
        self.new_game_asked_by = Some(self.host());
        vec![Message::NewGameOffer]
    }

    /// The host answers the guest's offer of a new game.
    pub fn answer_new_game(&mut self, accept: bool) -> Result<Vec<Message>, String> {
        if self.new_game_asked_by.take() != Some(self.guest) {
            return Ok(Vec::new());
        }
        if !accept {
            return Ok(vec![Message::NewGameDecline]);
        }
        self.restart()?;
        Ok(vec![Message::NewGameAccept, Message::Sync(Vec::new())])
    }

    /// A chat line from the host.
    #[must_use]
    pub fn chat(&self, text: &str) -> Vec<Message> {
        vec![Message::Chat(text.to_string())]
    }

    fn restart(&mut self) -> Result<(), String> {
        self.game = online_match(&self.spec)?;
        self.resigned = None;
        self.undo_asked_by = None;
        Ok(())
    }

    /// Takes back moves until `player` is to move again with one of their moves undone.
    fn take_back(&mut self, player: Player) -> bool {
        let mut undone = false;
        while let Some(last_mover) = self.last_mover() {
            self.game.undo();
            undone |= last_mover == player;
            if undone && self.game.to_move() == player {
                break;
            }
        }
        self.resigned = None;
        undone
    }

    fn last_mover(&self) -> Option<Player> {
        let ply = self.game.ply();
        (ply > 0).then(|| self.game.snapshot(ply - 1).to_move)
    }

    fn refuse(&mut self, line: &str, reason: String) -> (Vec<Message>, Option<HostEvent>) {
        let shown: String = line.chars().take(80).collect();
        if self.log.len() == LOG_KEEP {
            self.log.remove(0);
        }
        self.log.push(format!("refused '{shown}': {reason}"));
        (vec![Message::Error(reason.clone())], Some(HostEvent::Refused(reason)))
    }

    /// Refuses a line the connection discarded for being longer than the protocol allows.
    pub fn handle_oversized(&mut self, length: usize) -> (Vec<Message>, Option<HostEvent>) {
        let reason = format!("line too long ({length} bytes, at most {})", crate::protocol::MAX_LINE);
        self.refuse("(oversized line)", reason)
    }

    /// Handles one line from the guest: the messages to send back and what happened.
    pub fn handle_line(&mut self, line: &str) -> (Vec<Message>, Option<HostEvent>) {
        let message = match Message::parse(line) {
            Ok(m) => m,
            Err(reason) => return self.refuse(line, reason),
        };
        if !self.joined && !matches!(message, Message::Welcome { .. } | Message::Ping | Message::Bye) {
            return self.refuse(line, "say WELCOME first".into());
        }
        match message {
            Message::Welcome { version } if version == PROTOCOL_VERSION => {
                self.joined = true;
                (Vec::new(), Some(HostEvent::Joined))
            }
            Message::Welcome { version } => self.refuse(
                line,
                format!("protocol version {version} is not supported (this host speaks {PROTOCOL_VERSION})"),
            ),
            Message::Resync => (vec![Message::Sync(self.game.move_list())], None),
            Message::Move(notation) => {
                if !self.is_live() {
                    return self.refuse(line, "the game is over".into());
                }
                if self.game.to_move() != self.guest {
                    return self.refuse(line, "it is not your turn".into());
                }
                match self.game.play_notation(&notation) {
                    Ok(_) => (vec![self.moved()], Some(HostEvent::GuestMoved(notation))),
                    Err(reason) => self.refuse(line, reason.to_string()),
                }
            }
            Message::UndoRequest => {
                if self.game.ply() == 0 {
                    return self.refuse(line, "there is no move to take back".into());
                }
                self.undo_asked_by = Some(self.guest);
                (Vec::new(), Some(HostEvent::UndoRequested))
            }
            Message::UndoAccept | Message::UndoDecline => {
                if self.undo_asked_by != Some(self.host()) {
                    return self.refuse(line, "no undo was requested".into());
                }
                self.undo_asked_by = None;
                let accepted = message == Message::UndoAccept && self.take_back(self.host());
                let reply = if accepted { vec![Message::Undone { ply: self.game.ply() }] } else { Vec::new() };
                (reply, Some(HostEvent::UndoAnswered(accepted)))
            }
            Message::Resign => {
                if !self.is_live() {
                    return self.refuse(line, "the game is over".into());
                }
                self.resigned = Some(self.guest);
                (vec![Message::Resigned(self.guest)], Some(HostEvent::Resigned(self.guest)))
            }
            Message::NewGameOffer => {
                self.new_game_asked_by = Some(self.guest);
                (Vec::new(), Some(HostEvent::NewGameOffered))
            }
            Message::NewGameAccept | Message::NewGameDecline => {
                if self.new_game_asked_by != Some(self.host()) {
                    return self.refuse(line, "no new game was offered".into());
                }
                self.new_game_asked_by = None;
                if message == Message::NewGameDecline {
                    return (Vec::new(), Some(HostEvent::NewGameAnswered(false)));
                }
                match self.restart() {
                    Ok(()) => (vec![Message::Sync(Vec::new())], Some(HostEvent::NewGameAnswered(true))),
                    Err(reason) => self.refuse(line, reason),
                }
            }
            Message::Chat(text) => (Vec::new(), Some(HostEvent::Chat(text))),
            Message::Ping => (vec![Message::Pong], None),
            Message::Pong | Message::Error(_) => (Vec::new(), None),
            Message::Bye => (Vec::new(), Some(HostEvent::Left)),
            Message::Hello { .. }
            | Message::Sync(_)
            | Message::Moved { .. }
            | Message::Undone { .. }
            | Message::Resigned(_) => self.refuse(line, "only the host sends that".into()),
        }
    }
}
