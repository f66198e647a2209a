//! The rules screen, generated from the games' declarations: every rule set in plain words with the choices it
//! makes, every option explained, and a diagram of the starting position.

use iced::widget::canvas::{Cache, Canvas};
use iced::widget::{column, row, scrollable, text};
use iced::{Element, Fill, Length};
use tabula_games::Snapshot;

use crate::board_canvas::BoardView;
use crate::focus::Focus;
use crate::screen::play::board_options;
use crate::screen::widgets::{card, heading, page, segmented};
use crate::settings::Settings;
use tabula_games::registry::GameKind;

/// What the rules screen asks for.
#[derive(Clone, Debug)]
pub enum Msg {
    /// Show another game's rules.
    Game(GameKind),
    /// Back to the home screen.
    Back,
}

/// The rules screen's state: the game shown and its start diagram.
pub struct Rules {
    /// The game shown.
    pub game: GameKind,
    /// The starting position of its default rule set, when the game can be started.
    pub diagram: Option<Snapshot>,
    /// The diagram's static drawing.
    pub cache: Cache,
}

impl Rules {
    /// The rules of `game`; `start` is its starting position, if available.
    #[must_use]
    pub fn new(game: GameKind, start: Option<Snapshot>) -> Rules {
        Rules { game, diagram: start, cache: Cache::new() }
    }
}

/// The choice a rule set makes on an axis, as (axis name, choice name, description).
#[must_use]
pub fn choices_of(game: GameKind, rule_set: &tabula_games::RuleSet) -> Vec<(String, String, String)> {
    game.axes()
        .iter()
        .filter_map(|axis| {
            let chosen = rule_set.choices.iter().find(|(a, _)| *a == axis.id).map(|(_, c)| *c);
            let choice = match chosen {
                Some(id) => axis.choices.iter().find(|c| c.id == id),
                None => axis.choices.get(axis.default),
            }?;
            Some((axis.name.to_string(), choice.name.to_string(), choice.description.to_string()))
        })
        .collect()
}

/// The rules screen.
pub fn view<'a>(focus: &Focus<Msg>, rules: &'a Rules, settings: &'a Settings) -> Element<'a, Msg> {
    let games: Vec<(GameKind, String)> = GameKind::ALL.iter().map(|&g| (g, g.name().to_string())).collect();
    let game = rules.game;
    let mut sets = column![heading("Rule sets")].spacing(12);
    for rule_set in game.rule_sets() {
        let mut body = column![text(rule_set.name).size(19), text(rule_set.description).size(15)].spacing(6);
        for (axis, choice, _) in choices_of(game, &rule_set) {
            body = body.push(text(format!("• {axis}: {choice}")).size(14));
        }
        sets = sets.push(card(body).width(Fill));
    }
    let mut options = column![heading("Options")].spacing(8);
    for axis in game.axes() {
        let mut body = column![text(axis.name).size(17)].spacing(4);
        for choice in &axis.choices {
            body = body.push(text(format!("{} — {}", choice.name, choice.description)).size(14));
        }
        options = options.push(card(body).width(Fill));
    }
    let mut side = column![].spacing(8).width(Length::Fixed(260.0));
    if let Some(snapshot) = &rules.diagram {
        let picture =
            Canvas::new(BoardView::<Msg>::picture(snapshot.clone(), board_options(game, settings), &rules.cache))
                .width(Length::Fixed(250.0))
                .height(Length::Fixed(250.0));
        side = side.push(picture).push(text("The starting position of the default rule set.").size(13));
    }
    let body = row![scrollable(column![sets, options].spacing(16).padding([0, 12])).height(Fill).width(Fill), side]
        .spacing(16);
    let content = column![segmented(focus, "Game", &games, &game, Msg::Game), body].spacing(14);
    page(focus, "Rules", Msg::Back, content)
}
