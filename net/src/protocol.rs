//! The messages of Tabula's network protocol, one per line, and how they are written and read.

use tabula_core::Player;
use tabula_games::{GameKind, MatchSpec};

/// The protocol version in `HELLO`; peers with another version are refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line either side accepts, in bytes; a longer one is refused and discarded.
pub const MAX_LINE: usize = 4096;

/// One protocol message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// Host to guest, first: version, game, rule set, board size, and the guest's colour.
    Hello {
        /// The host's protocol version.
        version: u32,
        /// The game, rule set and board size.
        spec: MatchSpec,
        /// The colour the guest plays.
        guest: Player,
    },
    /// Guest to host: the guest accepts the game.
    Welcome {
        /// The guest's protocol version.
        version: u32,
    },
    /// Host to guest: the whole move list of the game, after `HELLO` or when the guest asks with `RESYNC`.
    Sync(Vec<String>),
    /// Guest to host: please send `SYNC`.
    Resync,
    /// Guest to host: the guest's move, not yet in effect.
    Move(String),
    /// Host to guest: a move in effect, as the `ply`-th move of the game.
    Moved {
        /// The number of moves after this one.
        ply: usize,
        /// The move in standard notation.
        notation: String,
    },
    /// Either side: may I take back my last move?
    UndoRequest,
    /// Either side: yes to the other's undo request.
    UndoAccept,
    /// Either side: no to the other's undo request.
    UndoDecline,
    /// Host to guest: moves were taken back; the game now has `ply` moves.
    Undone {
        /// The number of moves left.
        ply: usize,
    },
    /// Either side: I resign.
    Resign,
    /// Host to guest: this colour resigned.
    Resigned(Player),
    /// Either side: shall we start a new game?
    NewGameOffer,
    /// Either side: yes to a new game.
    NewGameAccept,
    /// Either side: no new game.
    NewGameDecline,
    /// Either side: a chat line.
    Chat(String),
    /// Either side: are you there?
    Ping,
    /// Either side: I am here.
    Pong,
    /// Either side: your last line was refused, and why.
    Error(String),
    /// Either side: I am leaving.
    Bye,
}

fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

fn colour(text: &str) -> Result<Player, String> {
    match text.to_ascii_lowercase().as_str() {
        "black" => Ok(Player::First),
        "white" => Ok(Player::Second),
        other => Err(format!("expected black or white, got '{other}'")),
    }
}

/// A number of the type the field holds; one too large for it is refused, never cut down.
fn number<T: TryFrom<u64>>(text: Option<&str>, what: &str) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("missing {what}"))?;
    let n: u64 = text.parse().map_err(|_| format!("{what} must be a number, got '{text}'"))?;
    T::try_from(n).map_err(|_| format!("{what} {text} is too large"))
}

/// A single move in notation: one word of letters, digits and nothing else.
fn notation(text: Option<&str>) -> Result<String, String> {
    let text = text.ok_or("missing move")?;
    if text.is_empty() || text.len() > 8 || !text.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("'{text}' is not a move"));
    }
    Ok(text.to_ascii_lowercase())
}

impl Message {
    /// The message as one line, without the newline.
    #[must_use]
    pub fn to_line(&self) -> String {
        match self {
            Message::Hello { version, spec, guest } => format!(
                "HELLO {version} {} {} {} {}",
                spec.game.id(),
                spec.rule_set,
                spec.board_size.map_or_else(|| "default".to_string(), |s| s.to_string()),
                colour_name(*guest)
            ),
            Message::Welcome { version } => format!("WELCOME {version}"),
            Message::Sync(moves) if moves.is_empty() => "SYNC".to_string(),
            Message::Sync(moves) => format!("SYNC {}", moves.join(" ")),
            Message::Resync => "RESYNC".into(),
            Message::Move(m) => format!("MOVE {m}"),
            Message::Moved { ply, notation } => format!("MOVED {ply} {notation}"),
            Message::UndoRequest => "UNDO-REQUEST".into(),
            Message::UndoAccept => "UNDO-ACCEPT".into(),
            Message::UndoDecline => "UNDO-DECLINE".into(),
            Message::Undone { ply } => format!("UNDONE {ply}"),
            Message::Resign => "RESIGN".into(),
            Message::Resigned(p) => format!("RESIGNED {}", colour_name(*p)),
            Message::NewGameOffer => "NEWGAME-OFFER".into(),
            Message::NewGameAccept => "NEWGAME-ACCEPT".into(),
            Message::NewGameDecline => "NEWGAME-DECLINE".into(),
            Message::Chat(text) => format!("CHAT {}", one_line(text)),
            Message::Ping => "PING".into(),
            Message::Pong => "PONG".into(),
            Message::Error(text) => format!("ERROR {}", one_line(text)),
            Message::Bye => "BYE".into(),
        }
    }

    /// Reads one line; the error says what was wrong with it.
    pub fn parse(line: &str) -> Result<Message, String> {
        if line.len() > MAX_LINE {
            return Err(format!("line too long ({} bytes, at most {MAX_LINE})", line.len()));
        }
        let line = line.trim_end_matches(['\r', '\n']);
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let mut args = rest.split_whitespace();
        let message = match word {
            "HELLO" => {
                let version = number(args.next(), "version")?;
                let game_id = args.next().ok_or("missing game")?;
                let game = GameKind::from_id(game_id).ok_or_else(|| format!("unknown game '{game_id}'"))?;
                let rule_set = args.next().ok_or("missing rule set")?.to_string();
                let board_size = match args.next().ok_or("missing board size")? {
                    "default" => None,
                    size => Some(number(Some(size), "board size")?),
                };
                let guest = colour(args.next().ok_or("missing the guest's colour")?)?;
                Message::Hello { version, spec: MatchSpec { game, rule_set, board_size }, guest }
            }
            "WELCOME" => Message::Welcome { version: number(args.next(), "version")? },
            "SYNC" => {
                let moves = rest.split_whitespace().map(|m| notation(Some(m))).collect::<Result<Vec<_>, _>>()?;
                return Ok(Message::Sync(moves));
            }
            "RESYNC" => Message::Resync,
            "MOVE" => Message::Move(notation(args.next())?),
            "MOVED" => Message::Moved { ply: number(args.next(), "ply")?, notation: notation(args.next())? },
            "UNDO-REQUEST" => Message::UndoRequest,
            "UNDO-ACCEPT" => Message::UndoAccept,
            "UNDO-DECLINE" => Message::UndoDecline,
            "UNDONE" => Message::Undone { ply: number(args.next(), "ply")? },
            "RESIGN" => Message::Resign,
            "RESIGNED" => Message::Resigned(colour(args.next().ok_or("missing colour")?)?),
            "NEWGAME-OFFER" => Message::NewGameOffer,
            "NEWGAME-ACCEPT" => Message::NewGameAccept,
            "NEWGAME-DECLINE" => Message::NewGameDecline,
            "CHAT" => return Ok(Message::Chat(rest.to_string())),
            "PING" => Message::Ping,
            "PONG" => Message::Pong,
            "ERROR" => return Ok(Message::Error(rest.to_string())),
            "BYE" => Message::Bye,
            "" => return Err("empty line".into()),
            other => return Err(format!("unknown message '{}'", other.chars().take(40).collect::<String>())),
        };
        match args.next() {
            Some(extra) => {
                Err(format!("unexpected '{}' at the end of {word}", extra.chars().take(40).collect::<String>()))
            }
            None => Ok(message),
        }
    }
}

/// Text made safe for one line: line breaks become spaces, and it is cut to fit the line limit.
fn one_line(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let mut cut = flat.len().min(MAX_LINE - 16);
    while !flat.is_char_boundary(cut) {
        cut -= 1;
    }
    flat[..cut].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_round_trips() {
        let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "renju".into(), board_size: Some(15) };
        let messages = [
            Message::Hello { version: 1, spec, guest: Player::Second },
            Message::Hello { version: 1, spec: MatchSpec::default_for(GameKind::Othello), guest: Player::First },
            Message::Welcome { version: 1 },
            Message::Sync(vec![]),
            Message::Sync(vec!["f5".into(), "pass".into()]),
            Message::Resync,
            Message::Move("h8".into()),
            Message::Moved { ply: 3, notation: "i9".into() },
            Message::UndoRequest,
            Message::UndoAccept,
            Message::UndoDecline,
            Message::Undone { ply: 1 },
            Message::Resign,
            Message::Resigned(Player::First),
            Message::NewGameOffer,
            Message::NewGameAccept,
            Message::NewGameDecline,
            Message::Chat("good luck, have fun".into()),
            Message::Ping,
            Message::Pong,
            Message::Error("not your turn".into()),
            Message::Bye,
        ];
        for m in messages {
            assert_eq!(Message::parse(&m.to_line()), Ok(m.clone()), "{}", m.to_line());
        }
    }

    #[test]
    fn bad_lines_are_explained() {
        assert!(Message::parse("MOVE").unwrap_err().contains("missing move"));
        assert!(Message::parse("MOVE h8; rm -rf").unwrap_err().contains("not a move"));
        assert!(Message::parse("MOVED x h8").unwrap_err().contains("ply must be a number"));
        assert!(Message::parse("HELLO 1 chess std default black").unwrap_err().contains("unknown game"));
        assert!(Message::parse("HELLO 1 gomoku renju 15 green").unwrap_err().contains("black or white"));
        assert!(Message::parse("WELCOME 4294967297").unwrap_err().contains("too large"));
        assert!(Message::parse("PING now").unwrap_err().contains("unexpected"));
        assert!(Message::parse("FLY").unwrap_err().contains("unknown message"));
        assert!(Message::parse(&"A".repeat(MAX_LINE + 1)).unwrap_err().contains("too long"));
        let chat = Message::Chat("two\nlines".into()).to_line();
        assert!(!chat.contains('\n'));
    }
}
