//! The settings screen: animation speed, markers, coordinates, theme, default level, computer pace, search
//! threads, and the external engines the player registers (each tried on request).

use std::collections::HashMap;
use std::path::PathBuf;

use iced::widget::{Toggler, button, column, row, scrollable, text, text_input, toggler};
use iced::{Element, Fill, Length, Padding};
use tabula_core::Levels;
use tabula_games::engine::MAX_THREADS;
use tabula_games::external::{EngineSpec, Protocol};

use crate::focus::Focus;
use crate::screen::widgets::{card, heading, page, pick, stepped_slider};
use crate::settings::{AnimationSpeed, Settings, ThemeChoice};

/// A change on the settings screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Flip animation speed.
    Animation(AnimationSpeed),
    /// Othello legal-move markers on or off.
    LegalMarkers(bool),
    /// Renju forbidden-point markers on or off.
    ForbiddenMarkers(bool),
    /// Gomoku move numbers on or off.
    MoveNumbers(bool),
    /// Board coordinates on or off.
    Coordinates(bool),
    /// Light or dark.
    Theme(ThemeChoice),
    /// The level new games start with.
    DefaultLevel(String),
    /// The least time per computer move, in milliseconds.
    Pace(u64),
    /// The bell on a refused move on or off.
    Sound(bool),
    /// The computer's search threads (0: every core but one).
    Threads(usize),
    /// The time an external engine is given per move, in milliseconds.
    EngineTime(u32),
    /// The engine hints come from, by name; empty for Tabula's own search.
    HintEngine(String),
    /// The engine form's name field.
    EngineName(String),
    /// The engine form's protocol.
    EngineProtocol(Protocol),
    /// The engine form's command line (the program and its arguments).
    EngineCommand(String),
    /// The engine form's working folder.
    EngineFolder(String),
    /// Register the engine the form describes (replacing one of the same name).
    SaveEngine,
    /// Fill the form from the registered engine of this name.
    EditEngine(String),
    /// Forget the registered engine of this name.
    RemoveEngine(String),
    /// Ask the registered engine of this name for a move, to see that it works.
    TryEngine(String),
    /// What trying an engine gave: its name and the words to show.
    Tried(String, String),
    /// Back to the home screen (no change).
    Back,
}

/// What a settings message asks of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Only the screen changed (the engine form being typed in).
    Nothing,
    /// The settings changed: save them and apply them.
    Changed,
    /// Try this engine.
    Try(EngineSpec),
}

/// The engine being registered or edited on the Engines card, and what trying each engine gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineForm {
    /// The name it will be chosen by.
    pub name: String,
    /// What it speaks.
    pub protocol: Protocol,
    /// The program and its arguments, as a shell would split them.
    pub command: String,
    /// The folder it runs in; empty for the app's own.
    pub folder: String,
    /// Why the last Save was refused.
    pub problem: Option<String>,
    /// The result of the last try of each engine, by name.
    pub tried: HashMap<String, String>,
}

impl Default for EngineForm {
    fn default() -> Self {
        EngineForm {
            name: String::new(),
            protocol: Protocol::Pbrain,
            command: String::new(),
            folder: String::new(),
            problem: None,
            tried: HashMap::new(),
        }
    }
}

impl EngineForm {
    /// The engine the form describes, or what is wrong with it.
    pub fn spec(&self) -> Result<EngineSpec, String> {
        let name = self.name.trim();
        if name.is_empty() {
            return Err("Give the engine a name.".into());
        }
        let words = shell_words::split(&self.command).map_err(|e| format!("The command cannot be read: {e}."))?;
        let Some((program, args)) = words.split_first() else {
            return Err("Give the command that starts the engine.".into());
        };
        let folder = self.folder.trim();
        let folder = (!folder.is_empty()).then(|| PathBuf::from(folder));
        if let Some(folder) = &folder
            && !folder.is_dir()
        {
            return Err(format!("There is no folder {}.", folder.display()));
        }
        let program = PathBuf::from(program);
        // A bare name is looked up on the PATH when the engine starts; a path can be checked now.
        if program.components().count() > 1 {
            let at = match &folder {
                Some(folder) if program.is_relative() => folder.join(&program),
                _ => program.clone(),
            };
            if !at.is_file() {
                return Err(format!("There is no program {}.", at.display()));
            }
        }
        Ok(EngineSpec { name: name.to_string(), protocol: self.protocol, program, args: args.to_vec(), folder })
    }

    /// Fills the form from a registered engine.
    fn edit(&mut self, spec: &EngineSpec) {
        let mut words = vec![spec.program.display().to_string()];
        words.extend(spec.args.iter().cloned());
        self.name.clone_from(&spec.name);
        self.protocol = spec.protocol;
        self.command = shell_words::join(words);
        self.folder = spec.folder.as_ref().map(|f| f.display().to_string()).unwrap_or_default();
        self.problem = None;
    }
}

/// A choice of search threads in the drop-down list: a count, or 0 for the automatic choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadChoice(pub usize);

impl std::fmt::Display for ThreadChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            0 => match tabula_games::engine::default_threads() {
                1 => f.write_str("Automatic (1 thread)"),
                n => write!(f, "Automatic ({n} threads)"),
            },
            1 => f.write_str("1 thread"),
            n => write!(f, "{n} threads"),
        }
    }
}

/// The choices offered: automatic, then one thread per core up to the machine's cores (and the saved count, if
/// it came from a larger machine), at most the engine's limit.
fn thread_choices(saved: usize) -> Vec<ThreadChoice> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    (0..=cores.max(saved).min(MAX_THREADS)).map(ThreadChoice).collect()
}

/// Applies a change to `settings` or to the engine form, and says what the app is to do.
pub fn update(settings: &mut Settings, form: &mut EngineForm, msg: Msg) -> Outcome {
    match msg {
        Msg::EngineName(name) => (form.name, form.problem) = (name, None),
        Msg::EngineProtocol(protocol) => (form.protocol, form.problem) = (protocol, None),
        Msg::EngineCommand(command) => (form.command, form.problem) = (command, None),
        Msg::EngineFolder(folder) => (form.folder, form.problem) = (folder, None),
        Msg::Tried(name, words) => {
            form.tried.insert(name, words);
        }
        Msg::EditEngine(name) => {
            if let Some(spec) = settings.engine(&name) {
                form.edit(spec);
            }
        }
        Msg::TryEngine(name) => {
            let Some(spec) = settings.engine(&name) else { return Outcome::Nothing };
            form.tried.insert(name, "Trying…".into());
            return Outcome::Try(spec.clone());
        }
        Msg::SaveEngine => match form.spec() {
            Ok(spec) => {
                form.tried.remove(&spec.name);
                match settings.engines.iter_mut().find(|e| e.name == spec.name) {
                    Some(old) => *old = spec,
                    None => settings.engines.push(spec),
                }
                *form = EngineForm { tried: std::mem::take(&mut form.tried), ..EngineForm::default() };
                return Outcome::Changed;
            }
            Err(problem) => form.problem = Some(problem),
        },
        Msg::RemoveEngine(name) => {
            settings.engines.retain(|e| e.name != name);
            if settings.hint_engine == name {
                settings.hint_engine.clear();
            }
            form.tried.remove(&name);
            return Outcome::Changed;
        }
        Msg::Back => {}
        msg => {
            apply(settings, msg);
            return Outcome::Changed;
        }
    }
    Outcome::Nothing
}

/// Applies a change of a plain setting.
fn apply(settings: &mut Settings, msg: Msg) {
    match msg {
        Msg::Animation(speed) => settings.animation = speed,
        Msg::LegalMarkers(on) => settings.legal_markers = on,
        Msg::ForbiddenMarkers(on) => settings.forbidden_markers = on,
        Msg::MoveNumbers(on) => settings.move_numbers = on,
        Msg::Coordinates(on) => settings.coordinates = on,
        Msg::Theme(theme) => settings.theme = theme,
        Msg::DefaultLevel(name) => settings.default_level = name,
        Msg::Pace(ms) => settings.computer_pace_ms = ms,
        Msg::Sound(on) => settings.sound = on,
        Msg::Threads(n) => settings.search_threads = n,
        Msg::EngineTime(ms) => settings.engine_move_ms = u64::from(ms),
        Msg::HintEngine(name) => settings.hint_engine = name,
        _ => {}
    }
}

fn labelled<'a>(label: &'a str, control: impl Into<Element<'a, Msg>>) -> Element<'a, Msg> {
    row![text(label).size(16).width(Length::Fixed(260.0)), control.into()].align_y(iced::Center).into()
}

/// A labelled drop-down list; one stop of the focus ring, called by its label.
fn list<'a, T: ToString + PartialEq + Clone + 'a>(
    focus: &Focus<Msg>,
    label: &'a str,
    options: Vec<T>,
    selected: T,
    on_select: impl Fn(T) -> Msg + Copy + 'a,
) -> Element<'a, Msg> {
    labelled(label, pick(focus, label, options, Some(selected), on_select, Length::Shrink))
}

/// A labelled on/off switch; one stop of the focus ring, called by its label.
fn switch<'a>(
    focus: &Focus<Msg>,
    label: &'a str,
    switch: Toggler<'a, Msg>,
    on: bool,
    on_toggle: impl Fn(bool) -> Msg + Copy + 'a,
) -> Element<'a, Msg> {
    labelled(label, focus.choice(label, &[false, true], Some(&on), on_toggle, switch.on_toggle(on_toggle)))
}

/// Where hints come from, in the drop-down list: an engine's name, or empty for Tabula's own search.
#[derive(Clone, Debug, PartialEq, Eq)]
struct HintSource(String);

impl std::fmt::Display for HintSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.as_str() {
            "" => f.write_str("Tabula's own search"),
            name => f.write_str(name),
        }
    }
}

/// The Engines card: the registered engines with their last try, the time they get and where hints come from,
/// and the form that registers one.
fn engines_card<'a>(focus: &Focus<Msg>, settings: &'a Settings, form: &'a EngineForm) -> Element<'a, Msg> {
    let mut body = column![
        heading("Engines"),
        text(
            "Other programs that speak the Gomocup (pbrain) or NBoard protocol. A registered engine is chosen like a \
             level on the New game screen; it runs in its own process."
        )
        .size(13),
    ]
    .spacing(10);
    if settings.engines.is_empty() {
        body = body.push(text("No engine registered yet.").size(14));
    }
    for spec in &settings.engines {
        let name = spec.name.clone();
        let mut command = vec![spec.program.display().to_string()];
        command.extend(spec.args.iter().cloned());
        let folder = spec.folder.as_ref().map(|f| format!(" · in {}", f.display())).unwrap_or_default();
        let mut about = column![
            text(spec.name.as_str()).size(16),
            text(format!("{} · {}{folder}", spec.protocol, shell_words::join(command))).size(12),
        ]
        .spacing(2)
        .width(Fill);
        if let Some(words) = form.tried.get(&spec.name) {
            about = about.push(text(words.as_str()).size(12));
        }
        let small = |label: &'a str, msg: Msg| {
            focus.button(&format!("{label} {name}"), button(text(label).size(13)).padding([3, 8]), Some(msg))
        };
        body = body.push(
            row![
                about,
                small("Try", Msg::TryEngine(name.clone())),
                small("Edit", Msg::EditEngine(name.clone())),
                small("Remove", Msg::RemoveEngine(name.clone())),
            ]
            .spacing(6)
            .align_y(iced::Center),
        );
    }
    let time_ms = (settings.engine_move_ms.clamp(100, 10_000) as u32) / 100 * 100;
    let time = stepped_slider(
        focus,
        "Time per engine move",
        100..=10_000,
        100,
        time_ms,
        Msg::EngineTime,
        Length::Fixed(200.0),
    );
    body = body.push(labelled(
        "Time per engine move",
        row![time, text(format!("{:.1} s", settings.engine_move_ms as f64 / 1000.0)).size(15)]
            .spacing(10)
            .align_y(iced::Center),
    ));
    let mut sources = vec![HintSource(String::new())];
    sources.extend(settings.engines.iter().map(|e| HintSource(e.name.clone())));
    let source = HintSource(settings.hint_engine.clone());
    body = body.push(list(focus, "Hints and reviews from", sources, source, |s: HintSource| Msg::HintEngine(s.0)));
    let field = |name: &'static str, id: &'static str, hint: &'a str, value: &'a str, on: fn(String) -> Msg| {
        labelled(name, focus.text_field(name, id, text_input(hint, value).on_input(on).on_submit(Msg::SaveEngine)))
    };
    body = body.push(heading("Register an engine"));
    body = body.push(field("Name", "engine-name", "for example Rapfi", &form.name, Msg::EngineName));
    body = body.push(list(focus, "Protocol", Protocol::ALL.to_vec(), form.protocol, Msg::EngineProtocol));
    let command_hint = "the program and its arguments, e.g. /opt/rapfi/pbrain-rapfi";
    body = body.push(field("Command", "engine-command", command_hint, &form.command, Msg::EngineCommand));
    let folder_hint = "optional: the folder it runs in";
    body = body.push(field("Folder", "engine-folder", folder_hint, &form.folder, Msg::EngineFolder));
    let save =
        focus.button("Save engine", button(text("Save engine").size(15)).padding([6, 14]), Some(Msg::SaveEngine));
    body = body.push(save);
    if let Some(problem) = &form.problem {
        body = body.push(text(problem.as_str()).style(text::danger));
    }
    card(body).width(Fill).into()
}

/// The settings screen; `problem` reports a file that could not be read or written.
pub fn view<'a>(
    focus: &Focus<Msg>,
    settings: &'a Settings,
    engines: &'a EngineForm,
    levels: &'a Levels,
    problem: Option<&'a str>,
) -> Element<'a, Msg> {
    let level_names: Vec<String> = levels.all().iter().map(|l| l.name.clone()).collect();
    let toggle = |label, on, to: fn(bool) -> Msg| switch(focus, label, toggler(on), on, to);
    let animation = AnimationSpeed::ALL.to_vec();
    let board = card(
        column![
            heading("Board"),
            list(focus, "Flip animation", animation, settings.animation, Msg::Animation),
            toggle("Othello legal-move markers", settings.legal_markers, Msg::LegalMarkers),
            toggle("Renju forbidden-point markers", settings.forbidden_markers, Msg::ForbiddenMarkers),
            toggle("Gomoku move numbers", settings.move_numbers, Msg::MoveNumbers),
            toggle("Coordinates", settings.coordinates, Msg::Coordinates),
        ]
        .spacing(12),
    )
    .width(Fill);
    let theme = list(focus, "Theme", ThemeChoice::ALL.to_vec(), settings.theme, Msg::Theme);
    let level = settings.default_level.clone();
    let level = list(focus, "Default computer level", level_names, level, Msg::DefaultLevel);
    let pace_ms = settings.computer_pace_ms.min(2000) as u32 / 100 * 100;
    let pace = stepped_slider(
        focus,
        "Least time per computer move",
        0..=2000,
        100,
        pace_ms,
        move |v| Msg::Pace(u64::from(v)),
        Length::Fixed(200.0),
    );
    let threads = list(
        focus,
        "Computer's search threads",
        thread_choices(settings.search_threads),
        ThreadChoice(settings.search_threads),
        |t: ThreadChoice| Msg::Threads(t.0),
    );
    let bell = toggler(settings.sound).label("terminal bell, no audio device needed");
    let general = card(
        column![
            heading("General"),
            theme,
            level,
            labelled(
                "Least time per computer move",
                row![pace, text(format!("{:.1} s", settings.computer_pace_ms as f64 / 1000.0)).size(15)]
                    .spacing(10)
                    .align_y(iced::Center),
            ),
            threads,
            switch(focus, "Bell on a refused move", bell, settings.sound, Msg::Sound),
        ]
        .spacing(12),
    )
    .width(Fill);
    let engines = engines_card(focus, settings, engines);
    let mut content =
        column![board, general, engines, text("Settings are saved as you change them.").size(13)].spacing(16);
    if let Some(problem) = problem {
        content = content.push(text(problem).style(text::danger));
    }
    // In a short window the settings scroll, so that every one stays reachable; the scrollbar gets its own margin.
    let content = content.padding(Padding::ZERO.right(14));
    page(focus, "Settings", Msg::Back, scrollable(content).height(Fill))
}
