//! Compare rule sets: a side-by-side table of the chosen rule sets (generated from the declarations) and the
//! current game's moves replayed under each of them, showing where the outcome changes.

use iced::Task;
use iced::widget::{button, canvas, column, progress_bar, row, scrollable, text};
use iced::{Element, Fill, Length};
use tabula_core::{GameResult, Level, Levels};
use tabula_games::arena::Contender;

use crate::focus::Focus;
use crate::screen::rules::choices_of;
use crate::screen::widgets::{card, heading, page, pick, segmented};
use crate::screen::{length_chart, score_chart};
use crate::series;
use tabula_games::registry::{GameKind, MatchSpec};
use tabula_games::save_file::MatchFactory;
use tabula_games::setup::colour_name;

/// A change on the compare screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// Another game.
    Game(GameKind),
    /// A rule set in or out of the comparison.
    Toggle(String, bool),
    /// Replay the current game under the chosen rule sets.
    Replay,
    /// Start computer-vs-computer series under the chosen rule sets.
    RunSeries,
    /// Stop the series.
    StopSeries,
    /// The level both sides of the series play at, by name.
    SeriesLevel(String),
    /// A second level the series is also played at, by name (empty for none): does the edge depend on strength?
    SeriesSecondLevel(String),
    /// The second side of the series: a registered engine by name, or empty for the same level.
    SeriesOpponent(String),
    /// Games per rule set in the series.
    SeriesGames(usize),
    /// Back to the home screen.
    Back,
}

/// What the compare screen asks of the app, which has the game and the levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Replay the current game under the chosen rule sets.
    Replay,
    /// Start the series.
    RunSeries,
    /// Back to the home screen.
    Back,
}

/// The choices of games per rule set: more games, narrower intervals.
pub const SERIES_GAMES: [usize; 4] = [8, 20, 50, 100];

/// How a game's moves fare under one rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The rule set's name.
    pub rule_set: String,
    /// What happened, in words.
    pub summary: String,
    /// The number of moves that could be played.
    pub played: usize,
    /// The result, if the game ended within the moves.
    pub result: Option<GameResult>,
}

/// The screen's state.
#[derive(Debug)]
pub struct Compare {
    /// The game compared.
    pub game: GameKind,
    /// The rule sets compared, by id.
    pub selected: Vec<String>,
    /// The replays of the last request.
    pub replays: Vec<Replay>,
    /// The moves replayed, and what they came from.
    pub source: Option<String>,
    /// The series running now.
    pub series: Option<series::Run>,
    /// The last finished (or stopped) series.
    pub series_result: Option<series::Progress>,
    /// The level of the next series, by name (`None`: the default level).
    pub series_level: Option<String>,
    /// Games per rule set in the next series.
    pub series_games: usize,
    /// The registered engine that plays the level in the next series, by name (`None`: the level plays itself).
    pub series_opponent: Option<String>,
    /// The chosen rule sets the last series left out, because its engine cannot play them.
    pub series_skipped: Vec<String>,
    /// The second level of the next series, by name (`None`: one level); not with an engine.
    pub series_second_level: Option<String>,
    /// For each row of the last series, its rule set's name and its level's name.
    pub series_rows: Vec<(String, String)>,
}

impl Compare {
    /// The comparison of all of `game`'s rule sets.
    #[must_use]
    pub fn new(game: GameKind) -> Compare {
        Compare {
            game,
            selected: game.rule_sets().iter().map(|r| r.id.to_string()).collect(),
            replays: Vec::new(),
            source: None,
            series: None,
            series_result: None,
            series_level: None,
            series_games: SERIES_GAMES[0],
            series_opponent: None,
            series_skipped: Vec::new(),
            series_second_level: None,
            series_rows: Vec::new(),
        }
    }

    /// Applies a change to the selection, or tells what the app is to do (replays and series need the game and
    /// the levels).
    pub fn update(&mut self, msg: Msg) -> Option<Action> {
        match msg {
            Msg::Game(game) => {
                let (level, second, games) =
                    (self.series_level.take(), self.series_second_level.take(), self.series_games);
                *self = Compare {
                    series_level: level,
                    series_second_level: second,
                    series_games: games,
                    ..Compare::new(game)
                };
            }
            Msg::SeriesSecondLevel(name) => self.series_second_level = (!name.is_empty()).then_some(name),
            Msg::SeriesLevel(name) => self.series_level = Some(name),
            Msg::SeriesOpponent(name) => self.series_opponent = (!name.is_empty()).then_some(name),
            Msg::SeriesGames(games) => self.series_games = games,
            Msg::Toggle(id, true) if !self.selected.contains(&id) => self.selected.push(id),
            Msg::Toggle(id, false) => self.selected.retain(|s| *s != id),
            Msg::StopSeries => {
                self.series_result = self.series.take().map(|run| run.progress());
            }
            Msg::Toggle(..) => {}
            Msg::Replay => return Some(Action::Replay),
            Msg::RunSeries => return Some(Action::RunSeries),
            Msg::Back => return Some(Action::Back),
        }
        None
    }

    /// The level of the series: the one picked here, else Easy, else the weakest of `levels`.
    #[must_use]
    pub fn series_level(&self, levels: &Levels) -> Level {
        let picked = self.series_level.as_deref().and_then(|name| levels.get(name));
        picked
            .or_else(|| levels.get("Easy"))
            .or_else(|| levels.all().first())
            .cloned()
            .unwrap_or_else(|| Level::custom(2))
    }

    /// The chosen rule sets, by name and id.
    fn chosen(&self) -> impl Iterator<Item = tabula_games::RuleSet> + '_ {
        self.game.rule_sets().into_iter().filter(|r| self.selected.iter().any(|s| s == r.id))
    }

    /// Starts a series under the chosen rule sets, numbered `generation`, for each pair of `pairs` (a level
    /// against itself, at one level or two, or a level against an engine); its tallies come back through
    /// `on_done`. An external engine plays only the rule sets its protocol can tell it; nothing starts when no
    /// rule set is left.
    pub fn start_series<M: Send + 'static>(
        &mut self,
        pairs: Vec<[Contender; 2]>,
        generation: u64,
        on_done: fn(u64, series::Progress) -> M,
    ) -> Task<M> {
        let game = self.game;
        let protocol = pairs.iter().flatten().find_map(|p| match p {
            Contender::External { spec, .. } => Some(spec.protocol),
            Contender::Level(_) => None,
        });
        let (specs, skipped): (Vec<(String, MatchSpec)>, Vec<_>) = self
            .chosen()
            .map(|r| (r.name.to_string(), MatchSpec { game, rule_set: r.id.to_string(), board_size: None }))
            .partition(|(_, spec)| protocol.is_none() || spec.engine_protocol() == protocol);
        self.series_skipped = skipped.into_iter().map(|(name, _)| name).collect();
        if specs.is_empty() {
            return Task::none();
        }
        let several = pairs.len() > 1;
        let mut rows = Vec::new();
        self.series_rows.clear();
        for (name, spec) in &specs {
            for players in &pairs {
                let level = players[0].name().to_string();
                let shown = if several { format!("{name} · {level}") } else { name.clone() };
                rows.push(series::Row { name: shown, spec: spec.clone(), players: players.clone() });
                self.series_rows.push((name.clone(), level));
            }
        }
        let (run, task) = series::start(rows, self.series_games, generation, on_done);
        self.series = Some(run);
        self.series_result = None;
        task
    }

    /// The series numbered `generation` finished with `progress` (an older, stopped one is ignored).
    pub fn series_finished(&mut self, generation: u64, progress: series::Progress) {
        if self.series.as_ref().is_some_and(|run| run.generation == generation) {
            self.series = None;
            self.series_result = Some(progress);
        }
    }

    /// Replays `moves`, played under `spec`, under each chosen rule set (on the same board size where the rule set
    /// allows it).
    pub fn replay_game(&mut self, spec: &MatchSpec, moves: &[String], factory: MatchFactory) {
        let game = self.game;
        self.replays = self
            .chosen()
            .map(|r| {
                let sizes = game.board_sizes(r.id);
                let size = spec.board_size.filter(|s| sizes.contains(s));
                let spec = MatchSpec { game, rule_set: r.id.to_string(), board_size: size };
                replay(&spec, r.name, moves, factory)
            })
            .collect();
        self.source = Some(format!("The current game: {} moves.", moves.len()));
    }
}

/// Plays `moves` from the start under `spec` until they run out, the game ends or a move is refused.
#[must_use]
pub fn replay(spec: &MatchSpec, name: &str, moves: &[String], factory: MatchFactory) -> Replay {
    let mut game = match factory(spec) {
        Ok(game) => game,
        Err(e) => return Replay { rule_set: name.into(), summary: e.to_string(), played: 0, result: None },
    };
    for (i, mv) in moves.iter().enumerate() {
        if game.is_over() {
            break;
        }
        if let Err(reason) = game.play_notation(mv) {
            let summary = format!("move {} ({mv}) is not allowed: {reason}", i + 1);
            return Replay { rule_set: name.into(), summary, played: i, result: None };
        }
    }
    let snapshot = game.current();
    let played = game.ply();
    let result = snapshot.outcome.map(|o| o.result);
    let summary = match snapshot.outcome {
        Some(o) => {
            let who = match o.result {
                GameResult::Win(p) => format!("{} wins", colour_name(p)),
                GameResult::Draw => "a draw".into(),
            };
            let reason = snapshot.end_reason.map(|r| format!(" ({r})")).unwrap_or_default();
            format!("over after move {played}: {who}{reason}")
        }
        None => format!("all {played} moves play; the game goes on"),
    };
    Replay { rule_set: name.into(), summary, played, result }
}

/// What the series can be played with: the series' level and the levels to pick from, and the registered
/// engines that play the compared game.
pub struct SeriesChoices {
    /// The level of the series.
    pub level: String,
    /// Every level, by name.
    pub levels: Vec<String>,
    /// The engines that can take the second side, by name.
    pub engines: Vec<String>,
}

/// The compare screen; `can_replay` says whether there is a game of this kind to replay.
pub fn view<'a>(
    focus: &Focus<Msg>,
    compare: &'a Compare,
    can_replay: bool,
    choices: SeriesChoices,
) -> Element<'a, Msg> {
    let games: Vec<(GameKind, String)> = GameKind::ALL.iter().map(|&g| (g, g.name().to_string())).collect();
    let game_row = segmented(focus, "Game", &games, &compare.game, Msg::Game);
    let all = compare.game.rule_sets();
    let picks = row(all.iter().map(|r| {
        let id = r.id.to_string();
        let on = compare.selected.contains(&id);
        let style = if on { button::primary } else { button::secondary };
        let label = format!("{} {}", if on { "✓" } else { "+" }, r.name);
        focus.button(r.name, button(text(label).size(15)).style(style).padding([6, 12]), Some(Msg::Toggle(id, !on)))
    }))
    .spacing(8)
    .wrap()
    .vertical_spacing(8);
    let chosen: Vec<_> = all.iter().filter(|r| compare.selected.iter().any(|s| s == r.id)).collect();
    let col_width = 170.0;
    let header = row![text("").width(Length::Fixed(120.0))]
        .extend(chosen.iter().map(|r| text(r.name).size(16).width(Length::Fixed(col_width)).into()));
    let mut table = column![header].spacing(8);
    for axis in compare.game.axes() {
        let values: Vec<String> = chosen
            .iter()
            .map(|r| {
                choices_of(compare.game, r)
                    .into_iter()
                    .find(|(a, _, _)| a == axis.name)
                    .map(|(_, c, _)| c)
                    .unwrap_or_default()
            })
            .collect();
        let differs = values.windows(2).any(|w| w[0] != w[1]);
        let line = row![text(axis.name).size(15).width(Length::Fixed(120.0))].extend(values.into_iter().map(|v| {
            let t = text(v).size(15).width(Length::Fixed(col_width));
            if differs { t.style(text::primary).into() } else { t.into() }
        }));
        table = table.push(line);
    }
    if chosen.iter().any(|r| r.known_result.is_some()) {
        let known =
            chosen.iter().map(|r| text(r.known_result.unwrap_or("Not solved")).size(13).width(col_width).into());
        table = table.push(row![text("Known result").size(15).width(Length::Fixed(120.0))].extend(known));
    }
    let mut replay_box = column![heading("Replay a game under each rule set")].spacing(8);
    replay_box = replay_box.push(focus.button(
        "Replay the current game",
        button(text("Replay the current game")).padding([6, 12]),
        (can_replay && chosen.len() >= 2).then_some(Msg::Replay),
    ));
    if !can_replay {
        replay_box = replay_box
            .push(text(format!("Start or continue a {} game to replay it here.", compare.game.name())).size(14));
    }
    if let Some(source) = &compare.source {
        replay_box = replay_box.push(text(source.clone()).size(14));
    }
    let first_result = compare.replays.first().map(|r| (r.result, r.played));
    for r in &compare.replays {
        let changed = first_result.is_some_and(|f| f != (r.result, r.played));
        let line = text(format!("{}: {}", r.rule_set, r.summary)).size(15);
        replay_box = replay_box.push(if changed { line.style(text::danger) } else { line });
    }
    if compare.replays.len() >= 2 {
        let same = compare.replays.iter().all(|r| Some((r.result, r.played)) == first_result);
        replay_box = replay_box.push(
            text(if same {
                "The outcome is the same under every rule set."
            } else {
                "The outcome changes (in red) under some rule sets."
            })
            .size(14),
        );
    }
    let cards = column![
        card(column![heading("Rules side by side"), table].spacing(10)).width(Fill),
        card(replay_box).width(Fill),
        card(series_view(focus, compare, chosen.len(), choices)).width(Fill),
    ]
    .spacing(16);
    let content = column![game_row, picks, scrollable(cards).height(Fill)].spacing(16);
    page(focus, "Compare rule sets", Msg::Back, content)
}

/// A choice in a series menu: a level or an engine as shown, or empty for none.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Opponent(String);

impl std::fmt::Display for Opponent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_empty() { "–" } else { &self.0 })
    }
}

fn series_view<'a>(
    focus: &Focus<Msg>,
    compare: &'a Compare,
    chosen: usize,
    choices: SeriesChoices,
) -> Element<'a, Msg> {
    let counts: Vec<(usize, String)> = SERIES_GAMES.iter().map(|&n| (n, n.to_string())).collect();
    let SeriesChoices { level: level_name, levels: level_names, engines } = choices;
    let mut settings = row![
        text("Level").size(15),
        pick(
            focus,
            "Series level",
            level_names.clone(),
            Some(level_name.clone()),
            Msg::SeriesLevel,
            Length::Fixed(150.0)
        ),
    ]
    .spacing(12)
    .align_y(iced::Center);
    if compare.series_opponent.is_none() {
        let others: Vec<Opponent> = std::iter::once(Opponent(String::new()))
            .chain(level_names.iter().filter(|l| **l != level_name).cloned().map(Opponent))
            .collect();
        let picked = Opponent(compare.series_second_level.clone().unwrap_or_default());
        let on_pick = |o: Opponent| Msg::SeriesSecondLevel(o.0);
        settings = settings.push(text("and at").size(15));
        settings = settings.push(pick(focus, "Series second level", others, Some(picked), on_pick, Length::Shrink));
    }
    if !engines.is_empty() {
        let opponents: Vec<Opponent> = std::iter::once(Opponent("The same level".into()))
            .chain(engines.into_iter().map(|e| Opponent(format!("{e} (engine)"))))
            .collect();
        let picked =
            Opponent(compare.series_opponent.as_ref().map_or("The same level".into(), |e| format!("{e} (engine)")));
        let on_pick = |o: Opponent| Msg::SeriesOpponent(o.0.strip_suffix(" (engine)").unwrap_or_default().to_string());
        settings = settings.push(text("against").size(15));
        settings = settings.push(pick(focus, "Series opponent", opponents, Some(picked), on_pick, Length::Shrink));
    }
    let games = row![
        text("Games per rule set").size(15),
        segmented(focus, "Series games", &counts, &compare.series_games, Msg::SeriesGames),
    ]
    .spacing(12)
    .align_y(iced::Center);
    let mut body = column![
        heading("Computer against computer"),
        text(
            "Both sides at the same level, from each rule set's balanced openings (random ones where it has \
             none; a swap opening is played by the programs, and the opener's score is shown), each played with \
             both colours: the first player's score shows the first-move edge the \
             openings leave (50% is fair), with its 95% interval; decided late is the share of won games whose \
             winner was not ahead, by the computer's judgement, until the last fifth of the game. At a second level too, it shows whether the \
             edge depends on strength; against a registered engine, the level's score against it is shown too.",
        )
        .size(14),
        settings,
        games,
    ]
    .spacing(8);
    let progress = match &compare.series {
        Some(run) => {
            body = body.push(focus.button("Series", button(text("Stop")).padding([6, 12]), Some(Msg::StopSeries)));
            Some(run.progress())
        }
        None => {
            body = body.push(focus.button(
                "Series",
                button(text("Run the series")).padding([6, 12]),
                (chosen >= 1).then_some(Msg::RunSeries),
            ));
            compare.series_result.clone()
        }
    };
    if let Some(progress) = progress {
        body = body.push(progress_bar(0.0..=1.0, progress.fraction()));
        let widths = [170.0, 60.0, 100.0, 110.0, 60.0, 170.0, 120.0, 110.0];
        let line = |values: [String; 8]| {
            row(values.into_iter().zip(widths).map(|(v, w)| text(v).size(15).width(Length::Fixed(w)).into()))
        };
        body = body.push(line(
            [
                "Rule set",
                "Games",
                "First wins",
                "Second wins",
                "Draws",
                "First player's score",
                "Average length",
                "Decided late",
            ]
            .map(String::from),
        ));
        for (name, s) in &progress.rows {
            let (score, interval) = s.first_player_score();
            let played = s.games > 0;
            body = body.push(line([
                name.clone(),
                s.games.to_string(),
                s.first_wins.to_string(),
                s.second_wins.to_string(),
                s.draws.to_string(),
                if played { format!("{:.0}% ± {:.0}%", score * 100.0, interval * 100.0) } else { "–".into() },
                if played { format!("{:.1} moves", s.average_length()) } else { "–".into() },
                s.late_share().map_or_else(|| "–".into(), |l| format!("{:.0}%", l * 100.0)),
            ]));
        }
        // Under a swap opening the fairness it is for is between the players, not the colours.
        for (name, s) in &progress.rows {
            if let Some((score, interval)) = s.opener_score() {
                body = body.push(text(format!(
                    "{name}: the opener, who placed the first stones, scored {:.0}% ± {:.0}% ({} games)",
                    score * 100.0,
                    interval * 100.0,
                    s.swap_games
                )));
            }
        }
        body = body.push(chart(compare, &progress, &level_name));
        let lengths = progress
            .rows
            .iter()
            .filter(|(_, s)| s.games > 0)
            .map(|(name, s)| length_chart::Series { name: name.clone(), lengths: s.lengths.clone() })
            .collect();
        body = body.push(text("Game lengths").size(14));
        body = body.push(
            canvas::Canvas::new(length_chart::LengthChart { series: lengths }).width(Fill).height(Length::Fixed(150.0)),
        );
        if let Some(engine) = &compare.series_opponent {
            for (name, s) in progress.rows.iter().filter(|(_, s)| s.games > 0) {
                let (score, interval) = s.level_a_score();
                let why = s.first_forfeit.as_deref().unwrap_or_default();
                let forfeits = match s.forfeits {
                    0 => String::new(),
                    1 => format!(", one lost by the engine's error: {why}"),
                    n => format!(", {n} lost by the engine's errors, the first: {why}"),
                };
                body = body.push(text(format!(
                    "{name}: {level_name} scored {:.0}% ± {:.0}% against {engine} (won {}, lost {}, drew {}{forfeits})",
                    score * 100.0,
                    interval * 100.0,
                    s.level_wins[0],
                    s.level_wins[1],
                    s.draws,
                )).size(14));
            }
        }
    }
    if !compare.series_skipped.is_empty() {
        let skipped = compare.series_skipped.join(", ");
        body = body.push(text(format!("Left out: {skipped} (no engine protocol plays it).")).size(14));
    }
    body.into()
}

/// The series as a bar chart: the first player's score per rule set (and the level's against an engine), each
/// with its 95% interval, against the fair 50%.
fn chart<'a>(compare: &Compare, progress: &series::Progress, level: &str) -> Element<'a, Msg> {
    let against = compare.series_opponent.as_ref();
    let mut levels: Vec<&str> = Vec::new();
    for (_, level) in &compare.series_rows {
        if !levels.contains(&level.as_str()) {
            levels.push(level);
        }
    }
    if levels.len() > 1 && compare.series_rows.len() == progress.rows.len() {
        // One group per rule set, one bar per level.
        let mut groups: Vec<score_chart::Group> = Vec::new();
        for ((rule_set, _), (_, s)) in compare.series_rows.iter().zip(&progress.rows) {
            let score = if s.games > 0 { s.first_player_score() } else { (0.0, 0.0) };
            match groups.iter_mut().find(|g| g.name == *rule_set) {
                Some(group) => group.scores.push((score.0 as f32, score.1 as f32)),
                None => groups.push(score_chart::Group {
                    name: rule_set.clone(),
                    scores: vec![(score.0 as f32, score.1 as f32)],
                }),
            }
        }
        let legend = levels.iter().map(|l| format!("First player at {l}")).collect();
        let chart = score_chart::ScoreChart { groups, legend };
        return canvas::Canvas::new(chart).width(Fill).height(Length::Fixed(190.0)).into();
    }
    let groups = progress
        .rows
        .iter()
        .filter(|(_, s)| s.games > 0)
        .map(|(name, s)| {
            let first = s.first_player_score();
            let mut scores = vec![(first.0 as f32, first.1 as f32)];
            if against.is_some() {
                let level = s.level_a_score();
                scores.push((level.0 as f32, level.1 as f32));
            }
            score_chart::Group { name: name.clone(), scores }
        })
        .collect();
    let mut legend = vec!["First player's score".to_string()];
    if let Some(engine) = against {
        legend.push(format!("{level}'s score against {engine}"));
    }
    let chart = score_chart::ScoreChart { groups, legend };
    canvas::Canvas::new(chart).width(Fill).height(Length::Fixed(190.0)).into()
}
