//! The statistics screen: wins, draws, losses and win rate per game, rule set and level, with Reset.

use iced::widget::{button, column, row, scrollable, text};
use iced::{Element, Fill, Length};

use crate::focus::Focus;
use crate::screen::widgets::{card, heading, page};
use crate::stats::Statistics;
use tabula_games::registry::GameKind;

/// What the statistics screen asks for.
#[derive(Clone, Debug)]
pub enum Msg {
    /// Ask before resetting.
    AskReset,
    /// Reset (true) or keep the results.
    Reset(bool),
    /// Back to the home screen.
    Back,
}

fn cell<'a>(value: String, width: f32) -> Element<'a, Msg> {
    text(value).size(15).width(Length::Fixed(width)).into()
}

fn table_row<'a>(values: [String; 7]) -> Element<'a, Msg> {
    let widths = [180.0, 160.0, 70.0, 60.0, 60.0, 60.0, 90.0];
    row(values.into_iter().zip(widths).map(|(v, w)| cell(v, w))).into()
}

/// The statistics screen; `confirming` asks before Reset.
pub fn view<'a>(focus: &Focus<Msg>, stats: &'a Statistics, confirming: bool) -> Element<'a, Msg> {
    let mut content = column![].spacing(16);
    for &game in GameKind::ALL {
        let rule_sets = game.rule_sets();
        let mut table = column![
            heading(game.name()),
            table_row(["Rule set", "Level", "Games", "Won", "Drawn", "Lost", "Win rate"].map(String::from)),
        ]
        .spacing(6);
        let records: Vec<_> = stats.for_game(game.id()).collect();
        if records.is_empty() {
            table = table.push(text("No games against the computer yet.").size(14));
        }
        for r in records {
            let rule = rule_sets.iter().find(|s| s.id == r.rule_set).map_or(r.rule_set.clone(), |s| s.name.to_string());
            table = table.push(table_row([
                rule,
                r.level.clone(),
                r.games().to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
                format!("{:.0}%", r.win_rate()),
            ]));
        }
        content = content.push(card(table).width(Fill));
    }
    let reset = if confirming {
        row![
            text("Forget every result?").size(16),
            focus.button("Yes, reset", button("Yes, reset").style(button::danger), Some(Msg::Reset(true))),
            focus.button("Keep them", button("Keep them").style(button::secondary), Some(Msg::Reset(false))),
        ]
        .spacing(12)
        .align_y(iced::Center)
    } else {
        let reset = button("Reset statistics").style(button::danger);
        row![focus.button("Reset statistics", reset, Some(Msg::AskReset))]
    };
    content = content.push(text("Games against the computer count; a draw counts as half a win in the rate.").size(13));
    content = content.push(reset);
    page(focus, "Statistics", Msg::Back, scrollable(content).height(Fill))
}
