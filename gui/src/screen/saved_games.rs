//! Saved games: the player's saves listed by name, game, date and progress (open, rename, delete), the current
//! game saved under a name, and other formats (Othello transcripts and GGF, Piskvork's psq) imported or exported
//! through a path.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use iced::widget::{button, column, container, row, scrollable, text, text_input};
use iced::{Element, Fill, Length};
use tabula_games::Match;
use tabula_games::clock::Clock;
use tabula_games::exchange;
use tabula_games::save_file::{MatchFactory, SavedGame};
use tabula_games::setup::GameSetup;

use crate::focus::Focus;
use crate::library::{self, Entry};
use crate::screen::widgets::{action, card, heading, page};
use crate::storage;

/// The screen's state.
#[derive(Debug)]
pub struct SavedGames {
    /// The games in the saves folder, newest first, or why the folder cannot be read.
    pub entries: Result<Vec<Entry>, String>,
    /// The name typed for saving the current game; `None` when there is no game to save.
    pub save_name: Option<String>,
    /// The game being renamed, and the name typed.
    pub renaming: Option<(PathBuf, String)>,
    /// The game whose deletion waits for a yes.
    pub deleting: Option<PathBuf>,
    /// The path typed for importing or exporting another format.
    pub path: String,
    /// What the last action did (`Ok`) or why it failed.
    pub notice: Option<Result<String, String>>,
}

/// A change on the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// The name for saving the current game.
    Name(String),
    /// Save the current game under the name.
    Save,
    /// Open a saved game.
    Open(PathBuf),
    /// Start renaming a saved game.
    Rename(PathBuf),
    /// The new name typed.
    RenameTo(String),
    /// Rename (true) or leave the name as it was.
    ConfirmRename(bool),
    /// Ask before deleting a saved game.
    Delete(PathBuf),
    /// Delete (true) or keep the game asked about.
    ConfirmDelete(bool),
    /// The path for importing or exporting.
    Path(String),
    /// Read the game at the path.
    Import,
    /// Write the current game to the path, in the format its extension names.
    Export,
    /// Back to where the screen was opened from.
    Back,
}

/// A game read from a file, to play or study.
pub struct Opened {
    /// Who plays what.
    pub setup: GameSetup,
    /// The game with its moves.
    pub game: Box<dyn Match>,
    /// Its clocks, if it was saved on the clock.
    pub clock: Option<Clock>,
    /// What to say of it ("Opened 'name'").
    pub status: String,
}

/// What the screen asks of the app.
pub enum Action {
    /// Nothing more.
    None,
    /// Play or study this game, read from the file named; it takes the current game's place.
    Open(Box<Opened>),
    /// Back to where the screen was opened from.
    Back,
}

/// What the screen works with: the saves folder, how games start, and the game on the play screen.
pub struct Context<'a> {
    /// The saves folder.
    pub dir: &'a Path,
    /// Starts the games of the files read.
    pub factory: MatchFactory,
    /// The current game, which Save and Export write.
    pub current: Option<(&'a GameSetup, &'a dyn Match)>,
    /// The current game's clocks, which Save keeps.
    pub clock: Option<&'a Clock>,
}

impl Default for SavedGames {
    /// No games listed yet (the screen lists them when it opens).
    fn default() -> SavedGames {
        SavedGames {
            entries: Ok(Vec::new()),
            save_name: None,
            renaming: None,
            deleting: None,
            path: String::new(),
            notice: None,
        }
    }
}

impl SavedGames {
    /// The screen over `context.dir`, offering to save the current game under a fresh name.
    #[must_use]
    pub fn open(context: &Context<'_>) -> SavedGames {
        let save_name =
            context.current.map(|(setup, _)| library::default_name(setup.spec.game.name(), SystemTime::now()));
        SavedGames { entries: library::list(context.dir, context.factory), save_name, ..SavedGames::default() }
    }

    fn refresh(&mut self, context: &Context<'_>) {
        self.entries = library::list(context.dir, context.factory);
    }

    /// Handles a change; files are read and written here, and every failure becomes the notice.
    pub fn update(&mut self, msg: Msg, context: &Context<'_>) -> Action {
        let done = match msg {
            Msg::Name(name) => {
                self.save_name = Some(name);
                return Action::None;
            }
            Msg::Save => {
                let (Some(name), Some((setup, game))) = (&self.save_name, context.current) else { return Action::None };
                let name = name.clone();
                let saved = SavedGame::of(setup, game).with_clock(context.clock, std::time::Instant::now());
                library::save(context.dir, &name, &saved, false).map(|_| format!("Saved as '{}'.", name.trim()))
            }
            Msg::Open(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                let read = std::fs::read_to_string(&path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))
                    .and_then(|text| SavedGame::parse(&text, &name, context.factory));
                match read {
                    Ok((saved, game)) => {
                        let status = format!("Opened '{name}'");
                        return Action::Open(Box::new(Opened { setup: saved.setup, game, clock: saved.clock, status }));
                    }
                    Err(e) => Err(e),
                }
            }
            Msg::Rename(path) => {
                let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                self.renaming = Some((path, name));
                return Action::None;
            }
            Msg::RenameTo(name) => {
                if let Some((_, typed)) = &mut self.renaming {
                    *typed = name;
                }
                return Action::None;
            }
            Msg::ConfirmRename(false) => {
                self.renaming = None;
                return Action::None;
            }
            Msg::ConfirmRename(true) => {
                let Some((path, name)) = self.renaming.take() else { return Action::None };
                let renamed = library::rename(&path, &name).map(|_| format!("Renamed to '{}'.", name.trim()));
                if renamed.is_err() {
                    self.renaming = Some((path, name));
                }
                renamed
            }
            Msg::Delete(path) => {
                self.deleting = Some(path);
                return Action::None;
            }
            Msg::ConfirmDelete(yes) => {
                let Some(path) = self.deleting.take() else { return Action::None };
                if !yes {
                    return Action::None;
                }
                library::delete(&path).map(|()| "Deleted.".to_string())
            }
            Msg::Path(path) => {
                self.path = path;
                return Action::None;
            }
            Msg::Import => match self.import(context.factory) {
                Ok((setup, game, source)) => {
                    let status = format!("Imported {source}");
                    return Action::Open(Box::new(Opened { setup, game, clock: None, status }));
                }
                Err(e) => Err(e),
            },
            Msg::Export => self.export(context.current),
            Msg::Back => return Action::Back,
        };
        self.notice = Some(done);
        self.refresh(context);
        Action::None
    }

    fn typed_path(&self) -> Result<PathBuf, String> {
        let typed = self.path.trim();
        if typed.is_empty() {
            return Err("Type the path of a file.".into());
        }
        Ok(PathBuf::from(typed))
    }

    fn import(&self, factory: MatchFactory) -> Result<(GameSetup, Box<dyn Match>, String), String> {
        let path = self.typed_path()?;
        let source = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {source}: {e}"))?;
        let (setup, game) = exchange::import(exchange::Format::of(&path), &text, &source, factory)?;
        Ok((setup, game, source))
    }

    fn export(&self, current: Option<(&GameSetup, &dyn Match)>) -> Result<String, String> {
        let Some((setup, game)) = current else { return Err("There is no game to export.".into()) };
        let path = self.typed_path()?;
        let text = exchange::export(exchange::Format::of(&path), setup, game)?;
        storage::write_atomic(&path, &text)?;
        Ok(format!("Exported to {}.", path.display()))
    }
}

/// The saved-games screen.
pub fn view<'a>(focus: &Focus<Msg>, screen: &'a SavedGames) -> Element<'a, Msg> {
    let mut content = column![].spacing(14);
    if let Some(name) = &screen.save_name {
        let field = text_input("a name for this game", name).on_input(Msg::Name).on_submit(Msg::Save).size(15);
        content = content.push(
            card(
                column![
                    heading("Save this game"),
                    row![focus.text_field("Name", "saves-name", field), narrow(action(focus, "Save", Some(Msg::Save)))]
                        .spacing(8)
                        .align_y(iced::Center),
                ]
                .spacing(8),
            )
            .width(Fill),
        );
    }
    if let Some(notice) = &screen.notice {
        content = content.push(match notice {
            Ok(done) => text(done.clone()).size(15).style(crate::theme::notice_text),
            Err(problem) => text(problem.clone()).size(15).style(text::danger),
        });
    }
    let list: Element<'a, Msg> = match &screen.entries {
        Err(problem) => text(problem.clone()).style(text::danger).into(),
        Ok(entries) if entries.is_empty() => text("No saved games yet.").size(15).into(),
        Ok(entries) => column(entries.iter().map(|e| entry_view(focus, screen, e))).spacing(8).into(),
    };
    content = content.push(card(column![heading("Saved games"), list].spacing(10)).width(Fill));
    let path = text_input("a file path, e.g. /home/me/game.ggf", &screen.path).on_input(Msg::Path).size(15);
    let exports = screen.save_name.is_some().then_some(Msg::Export);
    content = content.push(
        card(
            column![
                heading("Other formats"),
                text(".txt: Othello transcript (f5d6…) · .ggf: Othello GGF · .psq: Gomoku (Piskvork) · .toml: Tabula")
                    .size(13),
                focus.text_field("Path", "saves-path", path),
                row![narrow(action(focus, "Import", Some(Msg::Import))), narrow(action(focus, "Export", exports))]
                    .spacing(8),
            ]
            .spacing(8),
        )
        .width(Fill),
    );
    page(focus, "Saved games", Msg::Back, scrollable(content.padding(iced::Padding::ZERO.right(14))).height(Fill))
}

/// A button of a fixed, modest width.
fn narrow(button: Element<'_, Msg>) -> Element<'_, Msg> {
    container(button).width(Length::Fixed(130.0)).into()
}

fn entry_view<'a>(focus: &Focus<Msg>, screen: &'a SavedGames, entry: &'a Entry) -> Element<'a, Msg> {
    let mut about = column![text(&entry.name).size(17)].spacing(2).width(Fill);
    about = match &entry.what {
        Ok(what) => about.push(text(format!("{what} · {} · saved {}", entry.progress, entry.saved)).size(13)),
        Err(problem) => about.push(text(format!("Cannot be opened: {problem}")).size(13).style(text::danger)),
    };
    let small = |label: &'a str, named: String, msg: Option<Msg>| {
        focus.button(&named, button(text(label).size(14)).padding([4, 10]), msg)
    };
    let controls: Element<'a, Msg> = match (&screen.renaming, &screen.deleting) {
        (Some((path, typed)), _) if *path == entry.path => {
            let field =
                text_input("new name", typed).on_input(Msg::RenameTo).on_submit(Msg::ConfirmRename(true)).size(14);
            row![
                container(focus.text_field("New name", "saves-rename", field)).width(Length::Fixed(200.0)),
                small("Rename", "Confirm rename".into(), Some(Msg::ConfirmRename(true))),
                small("Cancel", "Cancel rename".into(), Some(Msg::ConfirmRename(false))),
            ]
            .spacing(6)
            .align_y(iced::Center)
            .into()
        }
        (_, Some(path)) if *path == entry.path => row![
            text("Delete it?").size(14),
            small("Delete", "Confirm delete".into(), Some(Msg::ConfirmDelete(true))),
            small("Keep", "Keep".into(), Some(Msg::ConfirmDelete(false))),
        ]
        .spacing(6)
        .align_y(iced::Center)
        .into(),
        _ => row![
            small("Open", format!("Open {}", entry.name), entry.what.is_ok().then(|| Msg::Open(entry.path.clone()))),
            small("Rename", format!("Rename {}", entry.name), Some(Msg::Rename(entry.path.clone()))),
            small("Delete", format!("Delete {}", entry.name), Some(Msg::Delete(entry.path.clone()))),
        ]
        .spacing(6)
        .into(),
    };
    row![about, controls].spacing(12).align_y(iced::Center).into()
}
