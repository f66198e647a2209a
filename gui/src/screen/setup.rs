//! The setup board: a position put together by hand (place and remove stones or discs, choose the side to move) or
//! pasted (a board, a game, a move list), checked by the game's rules, then played from with the new-game form's
//! players and clock.

use iced::widget::canvas::{self, Cache};
use iced::widget::{button, column, container, row, text, text_input};
use iced::{Element, Fill, Length};
use tabula_core::Player;
use tabula_games::registry::MatchSpec;
use tabula_games::save_file::MatchFactory;
use tabula_games::{Cell, Match, StartPosition, exchange};

use crate::board_canvas::BoardView;
use crate::focus::Focus;
use crate::screen::play::board_options;
use crate::screen::widgets::{card, heading, page, segmented};
use crate::settings::Settings;

/// What a click on the board puts there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Brush {
    /// A black stone or disc.
    Black,
    /// A white one.
    White,
    /// Nothing: clears the cell.
    Erase,
}

/// A change on the setup board, or a way out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// A click on a cell: the brush's stone there, or the cell cleared when it already holds it.
    Clicked(Cell),
    /// Another brush.
    Brush(Brush),
    /// Who moves first from the position.
    ToMove(Player),
    /// An empty board.
    Clear,
    /// The rule set's own start.
    Standard,
    /// The paste field.
    Paste(String),
    /// Read the paste field as a position.
    ReadPaste,
    /// Play from the position.
    Play,
    /// Back to the new-game form.
    Back,
}

/// What the setup board asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Start the game from this position.
    Play(StartPosition),
    /// Back to the new-game form.
    Back,
}

/// The setup board's state.
pub struct SetupBoard {
    /// The game and rule set, from the new-game form.
    pub spec: MatchSpec,
    /// The position as the rules hold it.
    pub game: Box<dyn Match>,
    /// What a click puts.
    pub brush: Brush,
    /// The paste field.
    pub paste: String,
    /// What was wrong with the last change or paste.
    pub error: Option<String>,
    /// The static board drawing.
    pub cache: Cache,
    factory: MatchFactory,
}

impl SetupBoard {
    /// A setup board for `spec`, starting from the rule set's own start.
    pub fn new(spec: MatchSpec, factory: MatchFactory) -> Result<SetupBoard, String> {
        let game = factory(&spec).map_err(|e| e.to_string())?;
        Ok(SetupBoard {
            spec,
            game,
            brush: Brush::Black,
            paste: String::new(),
            error: None,
            cache: Cache::new(),
            factory,
        })
    }

    /// The position now.
    #[must_use]
    pub fn position(&self) -> StartPosition {
        self.game.current().position()
    }

    /// Sets the board to `start`, or says why the rules refuse it (the board keeps its position).
    fn set(&mut self, start: &StartPosition) {
        match (self.factory)(&self.spec).map_err(|e| e.to_string()).and_then(|mut game| {
            game.restart_from(start)?;
            Ok(game)
        }) {
            Ok(game) => {
                self.game = game;
                self.error = None;
                self.cache.clear();
            }
            Err(e) => self.error = Some(e),
        }
    }

    /// Applies a change, or tells what the app is to do.
    pub fn update(&mut self, msg: Msg) -> Option<Action> {
        match msg {
            Msg::Clicked(cell) => {
                let mut start = self.position();
                let had = start.stones.iter().position(|(c, _)| *c == cell);
                let old = had.map(|i| start.stones.remove(i).1);
                let put = match self.brush {
                    Brush::Black => Some(Player::First),
                    Brush::White => Some(Player::Second),
                    Brush::Erase => None,
                };
                if let Some(player) = put.filter(|p| old != Some(*p)) {
                    start.stones.push((cell, player));
                }
                self.set(&start);
            }
            Msg::Brush(brush) => self.brush = brush,
            Msg::ToMove(player) => {
                let start = StartPosition { to_move: player, ..self.position() };
                self.set(&start);
            }
            Msg::Clear => {
                let start = StartPosition { stones: Vec::new(), to_move: Player::First };
                self.set(&start);
            }
            Msg::Standard => match (self.factory)(&self.spec) {
                Ok(game) => {
                    self.game = game;
                    self.error = None;
                    self.cache.clear();
                }
                Err(e) => self.error = Some(e.to_string()),
            },
            Msg::Paste(text) => self.paste = text,
            Msg::ReadPaste => match exchange::read_position(&self.spec, &self.paste, self.factory) {
                Ok(start) => self.set(&start),
                Err(e) => self.error = Some(e),
            },
            Msg::Play => {
                if self.game.is_over() {
                    self.error = Some("This position is already decided: change it to play from it.".into());
                    return None;
                }
                return Some(Action::Play(self.position()));
            }
            Msg::Back => return Some(Action::Back),
        }
        None
    }
}

/// The setup board: the board to click on, the brushes, the side to move, the paste field and Play.
pub fn view<'a>(focus: &Focus<Msg>, board: &'a SetupBoard, settings: &'a Settings) -> Element<'a, Msg> {
    let snapshot = board.game.current();
    let to_move = snapshot.to_move;
    let options = board_options(board.spec.game, settings);
    let view = BoardView::plain(snapshot, options, &board.cache, Some(Msg::Clicked as fn(Cell) -> Msg));
    let canvas: Element<'a, Msg> = canvas::Canvas::new(view).width(Fill).height(Fill).into();
    let brushes =
        [(Brush::Black, "Black"), (Brush::White, "White"), (Brush::Erase, "Erase")].map(|(b, l)| (b, l.to_string()));
    let sides = [(Player::First, "Black"), (Player::Second, "White")].map(|(p, l)| (p, l.to_string()));
    let small =
        |label: &'a str, msg: Msg| focus.button(label, button(text(label).size(14)).padding([5, 10]), Some(msg));
    let paste = text_input("a board (x, o, .), a game or a move list", &board.paste)
        .on_input(Msg::Paste)
        .on_submit(Msg::ReadPaste)
        .size(14);
    let mut panel = column![
        heading(board.spec.rule_set_name()),
        text("Click to place; a click on the same colour clears the cell.").size(13),
        row![
            text("Place").size(15).width(Length::Fixed(70.0)),
            segmented(focus, "Place", &brushes, &board.brush, Msg::Brush)
        ]
        .align_y(iced::Center),
        row![
            text("To move").size(15).width(Length::Fixed(70.0)),
            segmented(focus, "To move", &sides, &to_move, Msg::ToMove)
        ]
        .align_y(iced::Center),
        row![small("Empty board", Msg::Clear), small("Rule set's start", Msg::Standard)].spacing(8),
        focus.text_field("Paste", "setup-paste", paste),
        small("Read the pasted position", Msg::ReadPaste),
    ]
    .spacing(10);
    if let Some(error) = &board.error {
        panel = panel.push(text(error.as_str()).size(14).style(text::danger));
    }
    let play = button(text("Play from here").size(18).center().width(Fill)).padding([8, 16]).width(Fill);
    panel = panel.push(focus.button("Play from here", play, Some(Msg::Play)));
    let panel = card(panel).width(Length::Fixed(320.0));
    let body = row![container(focus.board(canvas)).width(Fill).height(Fill), panel].spacing(12).height(Fill);
    page(focus, "Set up a position", Msg::Back, body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_games::registry::GameKind;

    fn board(game: GameKind) -> SetupBoard {
        SetupBoard::new(MatchSpec::default_for(game), tabula_games::registry::new_match).expect("a board")
    }

    #[test]
    fn clicks_place_and_clear_and_the_side_to_move_is_chosen() {
        let mut setup = board(GameKind::Gomoku);
        setup.update(Msg::Clicked(Cell::new(7, 7)));
        setup.update(Msg::Brush(Brush::White));
        setup.update(Msg::Clicked(Cell::new(8, 8)));
        setup.update(Msg::Clicked(Cell::new(7, 7)));
        let start = setup.position();
        assert_eq!(start.stones, [(Cell::new(7, 7), Player::Second), (Cell::new(8, 8), Player::Second)], "replaced");
        setup.update(Msg::Clicked(Cell::new(8, 8)));
        assert_eq!(setup.position().stones.len(), 1, "a click on the same colour clears");
        setup.update(Msg::ToMove(Player::Second));
        assert_eq!(setup.position().to_move, Player::Second);
        assert_eq!(setup.update(Msg::Play), Some(Action::Play(setup.position())));
    }

    #[test]
    fn a_pasted_position_replaces_the_board_and_a_bad_one_says_why() {
        let mut setup = board(GameKind::Othello);
        setup.update(Msg::Paste("f5 d6 c3".into()));
        setup.update(Msg::ReadPaste);
        assert_eq!((setup.position().stones.len(), setup.error.as_deref()), (7, None));
        setup.update(Msg::Paste("f5 zz".into()));
        setup.update(Msg::ReadPaste);
        assert!(setup.error.as_deref().is_some_and(|e| e.contains("move 2")), "{:?}", setup.error);
        assert_eq!(setup.position().stones.len(), 7, "the board keeps its position");
        setup.update(Msg::Clear);
        assert!(setup.position().stones.is_empty());
        assert_eq!(setup.update(Msg::Play), None, "an empty Othello board is decided: nobody can move");
        assert!(setup.error.as_deref().is_some_and(|e| e.contains("already decided")));
        setup.update(Msg::Standard);
        assert_eq!(setup.position().stones.len(), 4);
    }
}
