//! The guest's side: a mirror of the host's game that changes only when the host says so.

use tabula_core::Player;
use tabula_games::{Cell, Match, MatchSpec};

use crate::online_match;

use crate::protocol::{Message, PROTOCOL_VERSION};

/// What happened, for the guest's user interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GuestEvent {
    /// The host announced the game; the guest plays `colour`.
    Started {
        /// The game, rule set and board size.
        spec: MatchSpec,
        /// The guest's colour.
        colour: Player,
    },
    /// The whole game was (re)loaded from the host's move list.
    Synced,
    /// A move took effect (the guest's own, confirmed, or the host's).
    Moved(String),
    /// The host wrote in the chat.
    Chat(String),
    /// The host asks to take back their last move; answer with [`Guest::answer_undo`].
    UndoRequested,
    /// The host answered the guest's undo request.
    UndoAnswered(bool),
    /// Moves were taken back.
    Undone,
    /// A player resigned.
    Resigned(Player),
    /// The host offers a new game; answer with [`Guest::answer_new_game`].
    NewGameOffered,
    /// The host answered the guest's offer.
    NewGameAnswered(bool),
    /// The host refused the guest's last line, saying why.
    Refused(String),
    /// The host said goodbye.
    Left,
}

/// The guest's copy of the game.
#[derive(Default)]
pub struct Guest {
    spec: Option<MatchSpec>,
    colour: Option<Player>,
    game: Option<Box<dyn Match>>,
    resigned: Option<Player>,
}

impl Guest {
    /// A guest waiting for the host's `HELLO`.
    #[must_use]
    pub fn new() -> Guest {
        Guest::default()
    }

    /// The mirrored game, once the host announced it.
    #[must_use]
    pub fn game(&self) -> Option<&dyn Match> {
        self.game.as_deref()
    }

    /// The game, rule set and board size, once the host announced them.
    #[must_use]
    pub fn spec(&self) -> Option<&MatchSpec> {
        self.spec.as_ref()
    }

    /// The guest's colour, once known.
    #[must_use]
    pub fn colour(&self) -> Option<Player> {
        self.colour
    }

    /// Who resigned, if anyone.
    #[must_use]
    pub fn resigned(&self) -> Option<Player> {
        self.resigned
    }

    /// The request to play on `cell` (or pass when `None`), checked locally first; the move takes effect when the
    /// host confirms it with `MOVED`.
    pub fn play(&self, cell: Option<Cell>) -> Result<Message, String> {
        let game = self.game.as_ref().ok_or("no game yet")?;
        if self.resigned.is_some() || game.is_over() {
            return Err("the game is over".into());
        }
        if Some(game.to_move()) != self.colour {
            return Err("it is your opponent's turn".into());
        }
        match cell {
            Some(c) => game.cell_notation(c).map(Message::Move).map_err(|e| e.to_string()),
            None if game.must_pass() => Ok(Message::Move("pass".into())),
            None => Err("you have a move; passing is not allowed".into()),
        }
    }

    /// The guest's answer to the host's undo request.
    #[must_use]
    pub fn answer_undo(&self, accept: bool) -> Message {
        if accept { Message::UndoAccept } else { Message::UndoDecline }
    }

    /// The guest's answer to the host's offer of a new game.
    #[must_use]
    pub fn answer_new_game(&self, accept: bool) -> Message {
        if accept { Message::NewGameAccept } else { Message::NewGameDecline }
    }

    fn replay(&mut self, moves: &[String]) -> Result<(), String> {
        let spec = self.spec.as_ref().ok_or("SYNC before HELLO")?;
        let mut game = online_match(spec)?;
        for (i, m) in moves.iter().enumerate() {
            game.play_notation(m).map_err(|e| format!("move {} ({m}) of the host's game: {e}", i + 1))?;
        }
        self.game = Some(game);
        self.resigned = None;
        Ok(())
    }

    /// Handles one line from the host: the messages to send back and what happened. A move or undo that does
    /// not fit the mirrored game asks the host for the whole game again instead of guessing.
    pub fn handle_line(&mut self, line: &str) -> (Vec<Message>, Option<GuestEvent>) {
        let message = match Message::parse(line) {
            Ok(m) => m,
            Err(reason) => return (vec![Message::Error(reason)], None),
        };
        match message {
            Message::Hello { version, spec, guest } => {
                if version != PROTOCOL_VERSION {
                    let reason =
                        format!("protocol version {version} is not supported (this guest speaks {PROTOCOL_VERSION})");
                    return (vec![Message::Error(reason)], None);
                }
                if let Err(reason) = online_match(&spec) {
                    return (vec![Message::Error(reason)], None);
                }
                self.spec = Some(spec.clone());
                self.colour = Some(guest);
                self.game = None;
                (
                    vec![Message::Welcome { version: PROTOCOL_VERSION }],
                    Some(GuestEvent::Started { spec, colour: guest }),
                )
            }
            Message::Sync(moves) => match self.replay(&moves) {
                Ok(()) => (Vec::new(), Some(GuestEvent::Synced)),
                Err(reason) => (vec![Message::Error(reason)], None),
            },
            Message::Moved { ply, notation } => {
                let Some(game) = self.game.as_mut() else { return (vec![Message::Resync], None) };
                if ply != game.ply() + 1 || game.play_notation(&notation).is_err() {
                    return (vec![Message::Resync], None);
                }
                (Vec::new(), Some(GuestEvent::Moved(notation)))
            }
            Message::Undone { ply } => {
                let Some(game) = self.game.as_mut() else { return (vec![Message::Resync], None) };
                if ply > game.ply() {
                    return (vec![Message::Resync], None);
                }
                while game.ply() > ply {
                    game.undo();
                }
                self.resigned = None;
                (Vec::new(), Some(GuestEvent::Undone))
            }
            Message::Resigned(p) => {
                self.resigned = Some(p);
                (Vec::new(), Some(GuestEvent::Resigned(p)))
            }
            Message::UndoRequest => (Vec::new(), Some(GuestEvent::UndoRequested)),
            Message::UndoAccept => (Vec::new(), Some(GuestEvent::UndoAnswered(true))),
            Message::UndoDecline => (Vec::new(), Some(GuestEvent::UndoAnswered(false))),
            Message::NewGameOffer => (Vec::new(), Some(GuestEvent::NewGameOffered)),
            Message::NewGameAccept => (Vec::new(), Some(GuestEvent::NewGameAnswered(true))),
            Message::NewGameDecline => (Vec::new(), Some(GuestEvent::NewGameAnswered(false))),
            Message::Chat(text) => (Vec::new(), Some(GuestEvent::Chat(text))),
            Message::Ping => (vec![Message::Pong], None),
            Message::Pong => (Vec::new(), None),
            Message::Error(reason) => (Vec::new(), Some(GuestEvent::Refused(reason))),
            Message::Bye => (Vec::new(), Some(GuestEvent::Left)),
            Message::Welcome { .. } | Message::Resync | Message::Move(_) | Message::Resign => {
                (vec![Message::Error("only the guest sends that".into())], None)
            }
        }
    }
}
