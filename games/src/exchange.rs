//! Other programs' game files, through the game-independent [`Match`] interface: Othello transcripts (`f5d6c3`,
//! `.txt`) and GGF (`.ggf`, via `crate::ggf`), and Piskvork's `.psq` for Gomoku. Our own format is in
//! [`crate::save_file`]; the file's extension picks the format.

use std::path::Path;

use tabula_core::{Game, Player};

use crate::gomoku::WinRule;
use crate::gomoku::psq;
use crate::othello::{Othello, notation};
use crate::registry::{GameKind, MatchSpec};
use crate::{Cell, Match, StartPosition, ggf};

use crate::save_file::{MatchFactory, SavedGame};
use crate::setup::{GameSetup, Seat};

/// A file format the app reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Tabula's own TOML (`.toml`).
    Tabula,
    /// An Othello move transcript such as `f5d6c3` (`.txt`).
    Transcript,
    /// The Generic Game Format of Othello servers (`.ggf`).
    Ggf,
    /// Piskvork's Gomoku game file (`.psq`).
    Psq,
}

impl Format {
    /// The format a path's extension names; Tabula's own for anything else.
    #[must_use]
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("txt") => Format::Transcript,
            Some("ggf") => Format::Ggf,
            Some("psq") => Format::Psq,
            _ => Format::Tabula,
        }
    }

    /// The game a foreign format belongs to.
    fn game(self) -> Option<GameKind> {
        match self {
            Format::Tabula => None,
            Format::Transcript | Format::Ggf => Some(GameKind::Othello),
            Format::Psq => Some(GameKind::Gomoku),
        }
    }
}

/// The text of `game` in `format`, or why it cannot be written in it.
pub fn export(format: Format, setup: &GameSetup, game: &dyn Match) -> Result<String, String> {
    if let Some(kind) = format.game()
        && kind != setup.spec.game
    {
        return Err(format!("{format:?} files hold {} games", kind.name()));
    }
    let moves = game.move_list();
    let (w, _) = game.board_size();
    match format {
        Format::Tabula => Ok(SavedGame::of(setup, game).to_toml()),
        Format::Transcript | Format::Psq if game.set_up_start().is_some() => Err(format!(
            "a {format:?} file cannot hold a game from a position set up by hand: export GGF or save it in Tabula's \
             format"
        )),
        Format::Transcript => Ok(moves.iter().filter(|m| *m != "pass").cloned().collect::<String>()),
        Format::Ggf => {
            let start = game.snapshot(0);
            let board = start
                .stones
                .iter()
                .map(|s| match s.map(|p| p.index()) {
                    Some(0) => '*',
                    Some(_) => 'O',
                    None => '-',
                })
                .collect();
            let players = setup.seats.clone().map(|s| Some(s.describe()));
            let game = ggf::GgfGame {
                size: w,
                board,
                black_to_move: start.to_move == Player::First,
                moves,
                players,
                time_ms: None,
                move_ms: Vec::new(),
            };
            Ok(ggf::format(&game))
        }
        Format::Psq => {
            let rule = WinRule::from_id(&setup.spec.rule_set)
                .ok_or_else(|| format!("a .psq file cannot say the rule set `{}`", setup.spec.rule_set))?;
            let moves = (1..=game.ply())
                .filter_map(|ply| game.snapshot(ply).last_move.and_then(|m| m.placed))
                .map(|cell| (cell.x, cell.y))
                .collect();
            let players = setup.seats.clone().map(|s| Some(s.describe()));
            Ok(psq::format(&psq::PsqGame { size: w, rule, moves, players }))
        }
    }
}

/// Reads a file's text in `format` into a game; `source` names the file in errors. The players are those the file
/// names as Tabula writes them ("Human", "Computer (Hard)"), humans otherwise.
pub fn import(
    format: Format,
    text: &str,
    source: &str,
    factory: MatchFactory,
) -> Result<(GameSetup, Box<dyn Match>), String> {
    let fail = |message: String| format!("{source}: {message}");
    let humans = |spec: MatchSpec| GameSetup { spec, seats: [Seat::Human, Seat::Human] };
    let seated = |spec: MatchSpec, players: &[Option<String>; 2]| GameSetup {
        spec,
        seats: players.clone().map(|p| p.and_then(|p| Seat::from_description(&p)).unwrap_or(Seat::Human)),
    };
    match format {
        Format::Tabula => SavedGame::parse(text, source, factory).map(|(saved, game)| (saved.setup, game)),
        Format::Transcript => {
            let spec = othello_spec(8);
            let rules = Othello::from_rule_set(&spec.rule_set).map_err(fail)?;
            let (moves, _) = notation::parse_transcript(&rules, text).map_err(|e| fail(e.to_string()))?;
            let mut game = factory(&spec).map_err(|e| fail(e.to_string()))?;
            for mv in moves {
                game.play_notation(&rules.format_move(mv)).map_err(|e| fail(e.to_string()))?;
            }
            Ok((humans(spec), game))
        }
        Format::Ggf => {
            let record = ggf::parse(text).map_err(|e| fail(e.to_string()))?;
            let spec = othello_spec(record.size);
            let mut game = factory(&spec).map_err(|e| fail(e.to_string()))?;
            let start = export(Format::Ggf, &humans(spec.clone()), game.as_ref())?;
            let expected = ggf::parse(&start).map_err(|e| fail(e.to_string()))?;
            if record.board != expected.board || !record.black_to_move {
                // A game from another position: the board is set up first.
                let stones = stones_of(record.board.chars(), record.size);
                let to_move = if record.black_to_move { Player::First } else { Player::Second };
                game.restart_from(&StartPosition { stones, to_move }).map_err(fail)?;
            }
            for (i, mv) in record.moves.iter().enumerate() {
                let mv = if mv.eq_ignore_ascii_case("pa") { "pass" } else { mv.as_str() };
                game.play_notation(mv).map_err(|e| fail(format!("move {} ({mv}): {e}", i + 1)))?;
            }
            Ok((seated(spec, &record.players), game))
        }
        Format::Psq => {
            let record = psq::parse(text).map_err(|e| fail(e.to_string()))?;
            let spec =
                MatchSpec { game: GameKind::Gomoku, rule_set: record.rule.id().into(), board_size: Some(record.size) };
            let mut game = factory(&spec).map_err(|e| fail(e.to_string()))?;
            for (i, &(x, y)) in record.moves.iter().enumerate() {
                game.play_cell(Cell::new(x, y))
                    .map_err(|e| fail(format!("move {} ({},{}): {e}", i + 1, x + 1, y + 1)))?;
            }
            Ok((seated(spec, &record.players), game))
        }
    }
}

fn othello_spec(size: usize) -> MatchSpec {
    let rule_set = match size {
        6 => "othello-6x6",
        10 => "grand-othello",
        _ => "othello",
    };
    MatchSpec { game: GameKind::Othello, rule_set: rule_set.into(), board_size: None }
}

/// The stones of a board written one character per cell, row by row, `width` to a row: `x`, `X` or `*` Black,
/// `o` or `O` White, anything else empty.
fn stones_of(cells: impl Iterator<Item = char>, width: usize) -> Vec<(Cell, Player)> {
    let width = width.max(1);
    cells
        .enumerate()
        .filter_map(|(i, c)| match c {
            'x' | 'X' | '*' => Some((Cell::new(i % width, i / width), Player::First)),
            'o' | 'O' => Some((Cell::new(i % width, i / width), Player::Second)),
            _ => None,
        })
        .collect()
}

/// A position from pasted text, for the setup board of `spec`'s game: a board, one character per cell row by row
/// from the top (`x`, `X` or `*` Black, `o` or `O` White, `.` or `-` empty; blanks ignored), optionally followed
/// by the side to move (as Othello's board string: `X`/`*` Black, `O` White); or a game in a format of the
/// game's files (GGF, psq) or a list of moves (`f5d6c3`, `h8 i9 h9`), whose position at its end is taken.
pub fn read_position(spec: &MatchSpec, text: &str, factory: MatchFactory) -> Result<StartPosition, String> {
    let mut game = factory(spec).map_err(|e| e.to_string())?;
    let (w, h) = game.board_size();
    let compact: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let is_cell = |c: &char| "xXoO*.-".contains(*c);
    if (compact.len() == w * h || compact.len() == w * h + 1) && compact[..w * h].iter().all(is_cell) {
        let to_move = match compact.get(w * h) {
            None | Some('x' | 'X' | '*' | 'b' | 'B') => Player::First,
            Some('o' | 'O' | 'w' | 'W') => Player::Second,
            Some(other) => return Err(format!("the side to move `{other}` is not X or O")),
        };
        return Ok(StartPosition { stones: stones_of(compact[..w * h].iter().copied(), w), to_move });
    }
    let end_of = |game: &dyn Match| game.current().position();
    let trimmed = text.trim_start();
    let format = if trimmed.starts_with("(;") {
        Some(Format::Ggf)
    } else if trimmed.starts_with("Piskvorky") {
        Some(Format::Psq)
    } else {
        None
    };
    if let Some(format) = format {
        let (_, read) = import(format, text, "the pasted text", factory)?;
        return Ok(end_of(read.as_ref()));
    }
    // A list of moves, separated or not: the longest notation that plays each time.
    let words: Vec<&str> =
        text.split(|c: char| c.is_whitespace() || c == ',' || c == ';').filter(|w| !w.is_empty()).collect();
    for word in words {
        let mut rest = word;
        while !rest.is_empty() {
            let played = (1..=rest.len().min(4))
                .rev()
                .filter(|&n| rest.is_char_boundary(n))
                .find(|&n| game.play_notation(&rest[..n]).is_ok());
            match played {
                Some(n) => rest = &rest[n..],
                None => {
                    let reason = game.play_notation(rest).err().map(|e| e.to_string()).unwrap_or_default();
                    return Err(format!(
                        "neither a board of {w}x{h} cells (x, o and .) nor a game: move {} (`{rest}`): {reason}",
                        game.ply() + 1
                    ));
                }
            }
        }
    }
    Ok(end_of(game.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_match;

    use crate::setup::LevelChoice;

    fn othello(moves: &[&str]) -> (GameSetup, Box<dyn Match>) {
        let spec = othello_spec(8);
        let mut game = new_match(&spec).expect("othello");
        for mv in moves {
            game.play_notation(mv).expect("legal");
        }
        (GameSetup { spec, seats: [Seat::Human, Seat::Human] }, game)
    }

    #[test]
    fn formats_follow_the_extension() {
        assert_eq!(Format::of(Path::new("a/b.GGF")), Format::Ggf);
        assert_eq!(Format::of(Path::new("x.psq")), Format::Psq);
        assert_eq!(Format::of(Path::new("x.txt")), Format::Transcript);
        assert_eq!(Format::of(Path::new("x.toml")), Format::Tabula);
        assert_eq!(Format::of(Path::new("x")), Format::Tabula);
    }

    #[test]
    fn othello_transcript_and_ggf_round_trip() {
        let (setup, game) = othello(&["f5", "d6", "c3", "d3", "c4"]);
        let transcript = export(Format::Transcript, &setup, game.as_ref()).expect("export");
        assert_eq!(transcript, "f5d6c3d3c4");
        let (_, back) = import(Format::Transcript, "F5 d6c3\nd3 c4", "t.txt", new_match).expect("import");
        assert_eq!(back.move_list(), game.move_list());
        let text = export(Format::Ggf, &setup, game.as_ref()).expect("export");
        assert!(text.starts_with("(;GM[Othello]"), "{text}");
        let (_, back) = import(Format::Ggf, &text, "g.ggf", new_match).expect("import");
        assert_eq!(back.move_list(), game.move_list());
        let seats = [Seat::Computer(LevelChoice::Custom(5)), Seat::Engine("Edax 4.4".into())];
        let text = export(Format::Ggf, &GameSetup { seats: seats.clone(), ..setup }, game.as_ref()).expect("export");
        let (back, _) = import(Format::Ggf, &text, "g.ggf", new_match).expect("import");
        assert_eq!(back.seats, seats, "the players come back");
    }

    #[test]
    fn a_set_up_othello_game_goes_through_ggf_and_not_into_a_transcript() {
        let spec = MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: None };
        let setup = GameSetup { spec: spec.clone(), seats: [Seat::Human, Seat::Human] };
        let mut game = new_match(&spec).expect("othello");
        let stones =
            vec![(Cell::new(2, 2), Player::First), (Cell::new(3, 3), Player::Second), (Cell::new(4, 4), Player::First)];
        game.restart_from(&StartPosition { stones, to_move: Player::Second }).expect("a position");
        let mv = game.current().markers.first().map(|(c, _)| *c).expect("a move");
        game.play_cell(mv).expect("legal");
        let text = export(Format::Ggf, &setup, game.as_ref()).expect("export");
        assert!(text.contains(" O]"), "White to move in BO: {text}");
        let (_, back) = import(Format::Ggf, &text, "g.ggf", new_match).expect("import");
        assert_eq!(back.current(), game.current());
        let err = export(Format::Transcript, &setup, game.as_ref()).expect_err("no transcript");
        assert!(err.contains("set up by hand"), "{err}");
    }

    #[test]
    fn a_position_is_read_from_a_board_a_game_or_a_move_list() {
        let othello = MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: None };
        let board = "x.......".to_string() + &".".repeat(48) + "......oo" + " O";
        let start = read_position(&othello, &board, new_match).expect("a board");
        assert_eq!(start.to_move, Player::Second);
        assert_eq!(
            start.stones,
            [(Cell::new(0, 0), Player::First), (Cell::new(6, 7), Player::Second), (Cell::new(7, 7), Player::Second)]
        );
        let after = read_position(&othello, "f5d6c3", new_match).expect("a transcript");
        assert_eq!((after.stones.len(), after.to_move), (7, Player::Second));
        let gomoku = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: None };
        let moves = read_position(&gomoku, "h8 i9, h9", new_match).expect("a move list");
        assert_eq!((moves.stones.len(), moves.to_move), (3, Player::Second));
        let err = read_position(&gomoku, "h8 h8", new_match).expect_err("occupied");
        assert!(err.starts_with("neither a board of 15x15 cells (x, o and .) nor a game: move 2 (`h8`)"), "{err}");
        let mut game = new_match(&othello).expect("othello");
        game.play_notation("f5").expect("legal");
        let setup = GameSetup { spec: othello.clone(), seats: [Seat::Human, Seat::Human] };
        let ggf = export(Format::Ggf, &setup, game.as_ref()).expect("GGF");
        assert_eq!(read_position(&othello, &ggf, new_match).expect("GGF").stones.len(), 5);
    }

    #[test]
    fn bad_files_name_the_problem() {
        let err = import(Format::Transcript, "f5 d6 zz", "t.txt", new_match).err().expect("bad");
        assert!(err.starts_with("t.txt: at character 7: column `z` is off the board"), "{err}");
        let err = import(Format::Transcript, "f5f5", "t.txt", new_match).err().expect("illegal");
        assert!(err.contains("move 2: f5 is not legal"), "{err}");
        let err = import(Format::Psq, "Gomoku 15x15\n", "p.psq", new_match).err().expect("header");
        assert!(err.contains("line 1"), "{err}");
        assert!(import(Format::Ggf, "(;GM[Othello];)", "g.ggf", new_match).is_err());
    }

    #[test]
    fn psq_round_trips_a_gomoku_game() {
        let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: Some(15) };
        let mut game = new_match(&spec).expect("gomoku");
        for (x, y) in [(7, 7), (8, 8), (6, 6), (0, 14)] {
            game.play_cell(Cell::new(x, y)).expect("legal");
        }
        let setup = GameSetup { spec, seats: [Seat::Human, Seat::Human] };
        let text = export(Format::Psq, &setup, game.as_ref()).expect("export");
        assert!(text.starts_with("Piskvorky 15x15") && text.contains("1,15,0") && text.ends_with("-1\n"), "{text}");
        let (_, back) = import(Format::Psq, &text, "p.psq", new_match).expect("import");
        assert_eq!(back.move_list(), game.move_list());
        let renju = MatchSpec { game: GameKind::Gomoku, rule_set: "renju".into(), board_size: Some(15) };
        let seats = [Seat::Human, Seat::Computer(LevelChoice::Named("Hard".into()))];
        let setup = GameSetup { spec: renju, seats };
        let text = export(Format::Psq, &setup, new_match(&setup.spec).expect("renju").as_ref()).expect("export");
        let (back, _) = import(Format::Psq, &text, "p.psq", new_match).expect("import");
        assert_eq!(back, setup, "the rule set and the players come back");
        let broken = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,x,0\n10,10,0\n-1\n";
        let err = import(Format::Psq, broken, "p.psq", new_match).err().expect("a bad line in the middle");
        assert!(err.contains("line 3"), "{err}");
        assert!(export(Format::Ggf, &setup, game.as_ref()).is_err(), "GGF holds Othello games");
    }
}
