//! The app's logic driven through `update`, without a window, on the small test game.

use rand::Rng;
use rand::seq::IndexedRandom;
use tabula_core::{Player, random};
use tabula_games::{Cell, Marker};

use crate::app::{App, Message, Route, Screen};
use crate::computer::AiRunner;
use crate::screen::{new_game, play, saved_games, settings as settings_screen, statistics};
use crate::storage::test_dir::TempDir;
use crate::test_game;
use tabula_games::registry::GameKind;

fn app(dir: &TempDir) -> App {
    let mut app =
        App::new(dir.paths(), tabula_games::config::default_levels(), test_game::factory, AiRunner::Queued(Vec::new()));
    let _ = app.update(Message::Settings(settings_screen::Msg::Pace(0)));
    app
}

fn start(app: &mut App) {
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    assert_eq!(app.screen(), Screen::NewGame);
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    assert_eq!(app.screen(), Screen::Play);
}

fn click(app: &mut App, x: usize, y: usize) {
    let _ = app.update(Message::Play(play::Msg::Clicked(Cell::new(x, y))));
}

fn answer(app: &mut App) -> usize {
    let answers = app.run_queued_searches();
    let n = answers.len();
    for message in answers {
        let _ = app.update(message);
    }
    n
}

fn ply(app: &App) -> usize {
    app.play().expect("a game").game.ply()
}

#[test]
fn human_moves_the_computer_answers_and_undo_returns_to_the_human() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    assert!(app.play().expect("game").human_to_move());
    click(&mut app, 1, 1);
    assert_eq!(ply(&app), 1);
    assert!(app.play().expect("game").thinking.is_some(), "the computer thinks");
    assert_eq!(answer(&mut app), 1);
    assert_eq!(ply(&app), 2, "the computer answered");
    assert!(app.play().expect("game").analysis.is_some());
    let _ = app.update(Message::Play(play::Msg::Undo));
    assert_eq!(ply(&app), 0, "undo takes back the computer's answer and the human's move");
    assert!(app.play().expect("game").human_to_move());
    let _ = app.update(Message::Play(play::Msg::Redo));
    assert_eq!(ply(&app), 2, "redo replays up to the human's turn");
}

#[test]
fn a_stale_computer_answer_is_dropped() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    click(&mut app, 0, 0);
    let stale = app.run_queued_searches();
    assert_eq!(stale.len(), 1);
    let _ = app.update(Message::Play(play::Msg::Undo));
    assert_eq!(ply(&app), 0);
    for message in stale {
        let _ = app.update(message);
    }
    assert_eq!(ply(&app), 0, "the answer to the undone position is ignored");
    assert!(app.play().expect("game").human_to_move());
}

#[test]
fn an_illegal_click_changes_nothing_but_says_why() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    click(&mut app, 1, 1);
    answer(&mut app);
    let before = app.play().expect("game").game.current();
    click(&mut app, 1, 1);
    let play = app.play().expect("game");
    assert_eq!(play.game.current(), before);
    assert!(play.status.as_deref().is_some_and(|s| s.contains("occupied")), "{:?}", play.status);
    assert_eq!(app.run_queued_searches().len(), 0, "no search was started");
}

#[test]
fn a_finished_game_counts_in_the_statistics_once() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    while !app.play().expect("game").is_over() {
        let snapshot = app.play().expect("game").game.current();
        let free = (0..9).map(|i| Cell::new(i % 3, i / 3)).find(|&c| snapshot.stone(c).is_none()).expect("a free cell");
        click(&mut app, free.x, free.y);
        answer(&mut app);
    }
    let records = &app.statistics().records;
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].games(), 1);
    assert_eq!(records[0].wins, 0, "the computer does not lose three in a row");
    let on_disk = std::fs::read_to_string(dir.paths().statistics()).expect("statistics written");
    assert!(on_disk.contains("Medium"), "{on_disk}");
    assert!(!dir.paths().current_game().exists(), "a finished game is not offered as Continue");
    let _ = app.update(Message::Play(play::Msg::Undo));
    let _ = app.update(Message::Play(play::Msg::Redo));
    answer(&mut app);
    assert_eq!(app.statistics().records[0].games(), 1, "replaying the end does not count twice");
    let _ = app.update(Message::Play(play::Msg::OpenSave));
    for msg in [saved_games::Msg::Name("finished".into()), saved_games::Msg::Save] {
        let _ = app.update(Message::SavedGames(msg));
    }
    let path = dir.paths().saves().join("finished.toml");
    let _ = app.update(Message::SavedGames(saved_games::Msg::Open(path)));
    assert_eq!(app.screen(), Screen::Play);
    assert!(app.play().expect("game").is_over());
    assert_eq!(app.statistics().records[0].games(), 1, "loading a finished game does not count it again");
}

#[test]
fn resigning_counts_as_a_loss() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    let _ = app.update(Message::Play(play::Msg::Resign));
    let play = app.play().expect("game");
    assert!(play.is_over());
    assert_eq!(play.outcome().map(|o| o.result), Some(tabula_core::GameResult::Win(Player::Second)));
    assert_eq!(app.statistics().records[0].losses, 1);
}

#[test]
fn save_and_open_by_name_and_a_malformed_file_changes_nothing() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    click(&mut app, 0, 0);
    answer(&mut app);
    let saves = |app: &mut App, msg| {
        let _ = app.update(Message::SavedGames(msg));
    };
    let _ = app.update(Message::Play(play::Msg::OpenSave));
    assert_eq!(app.screen(), Screen::SavedGames);
    assert!(app.saved_games().save_name.as_deref().is_some_and(|n| n.starts_with("Othello 2")), "a fresh name");
    saves(&mut app, saved_games::Msg::Name("my game".into()));
    saves(&mut app, saved_games::Msg::Save);
    let path = dir.paths().saves().join("my game.toml");
    assert!(path.exists());
    saves(&mut app, saved_games::Msg::Save);
    let notice = app.saved_games().notice.clone();
    assert!(notice.as_ref().is_some_and(|n| n.as_ref().is_err_and(|e| e.contains("already"))), "{notice:?}");
    let saved = app.play().expect("game").game.move_list();
    saves(&mut app, saved_games::Msg::Back);
    assert_eq!(app.screen(), Screen::Play, "back to the game it was opened from");

    let bad = dir.paths().saves().join("bad.toml");
    std::fs::write(&bad, "format = 1\ngame = \"othello\"\nrule_set = \"othello\"\nmoves = [\"a1\", \"a1\"]\n[black]\nplayer = \"human\"\n[white]\nplayer = \"human\"\n").expect("write");
    click(&mut app, 2, 2);
    answer(&mut app);
    let before = app.play().expect("game").game.move_list();
    let _ = app.update(Message::Play(play::Msg::OpenLoad));
    let entries = app.saved_games().entries.clone().expect("listed");
    let listed = entries.iter().find(|e| e.name == "bad").expect("the broken file is listed");
    assert!(listed.what.as_ref().is_err_and(|e| e.contains("move 2 (a1)")), "{:?}", listed.what);
    saves(&mut app, saved_games::Msg::Open(bad));
    assert_eq!(app.screen(), Screen::SavedGames, "nothing opened");
    assert_eq!(app.play().expect("game").game.move_list(), before, "the game is unchanged");
    saves(&mut app, saved_games::Msg::Path(dir.path().join("missing.txt").display().to_string()));
    saves(&mut app, saved_games::Msg::Import);
    let notice = app.saved_games().notice.clone();
    assert!(notice.as_ref().is_some_and(|n| n.as_ref().is_err_and(|e| e.contains("cannot read"))), "{notice:?}");

    saves(&mut app, saved_games::Msg::Open(path));
    assert_eq!(app.screen(), Screen::Play);
    assert_eq!(app.play().expect("game").game.move_list(), saved, "the saved game is back");
}

#[test]
fn saved_games_are_renamed_and_deleted_from_the_list() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    let saves = |app: &mut App, msg| {
        let _ = app.update(Message::SavedGames(msg));
    };
    let _ = app.update(Message::Play(play::Msg::OpenSave));
    saves(&mut app, saved_games::Msg::Name("one".into()));
    saves(&mut app, saved_games::Msg::Save);
    let one = dir.paths().saves().join("one.toml");
    saves(&mut app, saved_games::Msg::Rename(one.clone()));
    saves(&mut app, saved_games::Msg::RenameTo("two".into()));
    saves(&mut app, saved_games::Msg::ConfirmRename(true));
    let two = dir.paths().saves().join("two.toml");
    assert!(!one.exists() && two.exists());
    let names = |app: &App| -> Vec<String> {
        app.saved_games().entries.clone().expect("listed").into_iter().map(|e| e.name).collect()
    };
    assert_eq!(names(&app), ["two"]);
    saves(&mut app, saved_games::Msg::Delete(two.clone()));
    saves(&mut app, saved_games::Msg::ConfirmDelete(false));
    assert!(two.exists(), "kept when the answer is no");
    saves(&mut app, saved_games::Msg::Delete(two.clone()));
    saves(&mut app, saved_games::Msg::ConfirmDelete(true));
    assert!(!two.exists());
    assert!(names(&app).is_empty());
}

#[test]
fn continue_resumes_the_autosaved_game_after_a_restart() {
    let dir = TempDir::create();
    let mut first = app(&dir);
    start(&mut first);
    click(&mut first, 1, 1);
    answer(&mut first);
    let moves = first.play().expect("game").game.move_list();
    drop(first);
    let mut second = app(&dir);
    let _ = second.update(Message::Go(Route::Continue));
    assert_eq!(second.screen(), Screen::Play);
    assert_eq!(second.play().expect("game").game.move_list(), moves);
}

#[test]
fn a_settings_change_cancels_the_search_and_its_answer_is_dropped() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    click(&mut app, 1, 1);
    let stale = app.run_queued_searches();
    let _ = app.update(Message::Settings(settings_screen::Msg::MoveNumbers(true)));
    let restarted = app.play().expect("game").thinking.as_ref().map(|t| t.generation);
    assert!(restarted.is_some(), "the computer starts again");
    for message in stale {
        let _ = app.update(message);
    }
    assert_eq!(ply(&app), 1, "the cancelled answer is not played");
    assert_eq!(app.play().expect("game").thinking.as_ref().map(|t| t.generation), restarted);
    assert_eq!(answer(&mut app), 1);
    assert_eq!(ply(&app), 2, "the new search answers");
    assert!(app.settings().move_numbers);
    let saved = std::fs::read_to_string(dir.paths().settings()).expect("settings saved");
    assert!(saved.contains("move_numbers = true"), "{saved}");
}

fn othello_app(dir: &TempDir) -> App {
    let mut app = App::new(
        dir.paths(),
        tabula_games::config::default_levels(),
        tabula_games::registry::new_match,
        AiRunner::Queued(Vec::new()),
    );
    let _ = app.update(Message::Settings(settings_screen::Msg::Pace(0)));
    app
}

#[test]
fn othello_against_the_computer_plays_answers_flips_and_undoes() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    assert_eq!(app.form().game, GameKind::Othello);
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    assert_eq!(app.screen(), Screen::Play);
    click(&mut app, 0, 0);
    assert_eq!(ply(&app), 0, "a1 flips nothing");
    assert!(app.play().expect("game").status.is_some());
    click(&mut app, 5, 4);
    assert_eq!(app.play().expect("game").game.move_list(), ["f5"]);
    assert!(app.play().expect("game").animation.is_some(), "the flipped disc turns over");
    assert_eq!(answer(&mut app), 1);
    assert_eq!(ply(&app), 2, "the computer answered");
    let snapshot = app.play().expect("game").game.current();
    assert_eq!(snapshot.counts.iter().sum::<usize>(), 6);
    let _ = app.update(Message::Play(play::Msg::Undo));
    assert_eq!(ply(&app), 0);
    let _ = app.update(Message::Play(play::Msg::Hint));
    assert_eq!(answer(&mut app), 1);
    let play = app.play().expect("game");
    assert!(play.hint.is_some(), "the hint marks a move");
    assert_eq!(play.game.ply(), 0, "a hint plays nothing");
}

#[test]
fn move_now_makes_a_deep_search_answer_at_once() {
    use crate::screen::new_game;
    use tabula_games::setup::LevelChoice;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let deep = LevelChoice::Custom(14);
    let _ = app.update(Message::NewGame(new_game::Msg::Level(Player::Second, deep)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    click(&mut app, 5, 4);
    let play_screen = app.play().expect("game");
    assert!(play::turn_line(play_screen, &play_screen.game.current()).contains("thinking"));
    let _ = app.update(Message::Play(play::Msg::MoveNow));
    let answers = app.run_queued_searches();
    let depth = answers.iter().find_map(|m| match m {
        Message::AiFinished(f) => f.analysis.as_ref().map(|a| a.depth),
        _ => None,
    });
    assert!(depth.is_some_and(|d| d < 14), "told to move now, the search stops early: {depth:?}");
    for m in answers {
        let _ = app.update(m);
    }
    assert_eq!(ply(&app), 2, "and its move is played, not dropped");
    // Without a search running, Move now does nothing.
    let _ = app.update(Message::Play(play::Msg::MoveNow));
    assert_eq!(ply(&app), 2);
    assert!(app.run_queued_searches().is_empty());
}

#[test]
fn comparing_rule_sets_shows_where_an_overline_stops_winning() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Gomoku)));
    let _ = app.update(Message::NewGame(crate::screen::new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    // Black fills a6 b6 c6 e6 f6, then g6 ... a line of six through d6 after the last move.
    let black = [(0, 9), (1, 9), (2, 9), (4, 9), (5, 9), (3, 9)];
    let white = [(0, 0), (2, 0), (4, 0), (6, 0), (8, 0)];
    for i in 0..black.len() {
        click(&mut app, black[i].0, black[i].1);
        if i < white.len() {
            click(&mut app, white[i].0, white[i].1);
        }
    }
    let _ = app.update(Message::Go(Route::Compare));
    for id in ["freestyle", "exact-five"] {
        let _ = app.update(Message::Compare(crate::screen::compare::Msg::Toggle(id.into(), true)));
    }
    let _ = app.update(Message::Compare(crate::screen::compare::Msg::Replay));
    let replays = &app.comparison().replays;
    assert!(replays.len() >= 2, "{replays:?}");
    let results: Vec<_> = replays.iter().map(|r| (r.rule_set.as_str(), r.result)).collect();
    assert!(results.iter().any(|(_, r)| *r == Some(tabula_core::GameResult::Win(Player::First))), "{results:?}");
    assert!(results.iter().any(|(_, r)| r.is_none()), "an overline does not win everywhere: {results:?}");
}

#[test]
fn a_series_starts_for_the_chosen_rule_sets_and_stops_on_request() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::Compare));
    let _ = app.update(Message::Compare(crate::screen::compare::Msg::Game(GameKind::Othello)));
    let _ = app.update(Message::Compare(crate::screen::compare::Msg::Toggle("reversi".into(), false)));
    let _ = app.update(Message::Compare(crate::screen::compare::Msg::RunSeries));
    let run = app.comparison().series.as_ref().expect("a series runs");
    let progress = run.progress();
    assert_eq!(progress.rows.len(), GameKind::Othello.rule_sets().len() - 1);
    assert_eq!(progress.fraction(), 0.0);
    let generation = run.generation;
    let _ = app.update(Message::Compare(crate::screen::compare::Msg::StopSeries));
    assert!(app.comparison().series.is_none());
    assert!(app.comparison().series_result.is_some());
    let _ = app.update(Message::SeriesFinished(generation, crate::series::Progress::default()));
    assert_eq!(
        app.comparison().series_result.as_ref().map(|p| p.rows.len()),
        Some(progress.rows.len()),
        "a stopped series' late answer is ignored"
    );
}

#[test]
fn the_keyboard_moves_the_cursor_places_undoes_and_steps_through_moves() {
    use crate::keys::Shortcut;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::NewGame(crate::screen::new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    let key = |app: &mut App, k: Shortcut| {
        let _ = app.update(Message::Key(k));
    };
    key(&mut app, Shortcut::Cursor(1, 0));
    assert_eq!(app.play().expect("game").cursor, Some(Cell::new(4, 4)), "the first press shows the cursor");
    key(&mut app, Shortcut::Place);
    assert_eq!(ply(&app), 0, "e5 is occupied");
    assert!(app.play().expect("game").status.is_some());
    key(&mut app, Shortcut::Cursor(1, 0));
    key(&mut app, Shortcut::Place);
    assert_eq!(app.play().expect("game").game.move_list(), ["f5"]);
    for _ in 0..20 {
        key(&mut app, Shortcut::Cursor(1, 0));
    }
    assert_eq!(app.play().expect("game").cursor, Some(Cell::new(7, 4)), "the cursor stops at the edge");
    key(&mut app, Shortcut::Cursor(-2, 1));
    key(&mut app, Shortcut::Cursor(-2, 0));
    key(&mut app, Shortcut::Place);
    assert_eq!(app.play().expect("game").game.move_list(), ["f5", "d6"]);
    key(&mut app, Shortcut::Back);
    assert_eq!(app.play().expect("game").viewing, Some(1));
    key(&mut app, Shortcut::First);
    assert_eq!(app.play().expect("game").viewing, Some(0));
    key(&mut app, Shortcut::Last);
    assert_eq!(app.play().expect("game").viewing, None);
    key(&mut app, Shortcut::Undo);
    assert_eq!(ply(&app), 1);
    key(&mut app, Shortcut::Redo);
    assert_eq!(ply(&app), 2);
}

#[test]
fn a_pass_is_announced_and_played_on_request() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::NewGame(crate::screen::new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    let mut rng = random::seeded(12_345);
    for _ in 0..5000 {
        let play = app.play().expect("game");
        if play.is_over() {
            let _ = app.update(Message::Play(play::Msg::NewGame));
            let _ = app.update(Message::NewGame(new_game::Msg::Start));
            continue;
        }
        if play.game.must_pass() {
            let snapshot = play.game.current();
            let line = play::turn_line(play, &snapshot);
            assert!(line.contains("must pass"), "{line}");
            let mover = play.game.to_move();
            let _ = app.update(Message::Play(play::Msg::Pass));
            let play = app.play().expect("game");
            assert_eq!(play.game.move_list().last().map(String::as_str), Some("pass"));
            let status = play.status.clone().unwrap_or_default();
            assert!(status.contains(tabula_games::setup::colour_name(mover)) && status.contains("passes"), "{status}");
            return;
        }
        let legal: Vec<Cell> = play
            .game
            .current()
            .markers
            .iter()
            .filter(|(_, m)| *m == tabula_games::Marker::Legal)
            .map(|(c, _)| *c)
            .collect();
        let cell = *legal.choose(&mut rng).expect("a live game has a legal cell");
        click(&mut app, cell.x, cell.y);
    }
    panic!("no pass in 5000 random moves");
}

fn press(app: &mut App, key: iced::keyboard::Key, modifiers: iced::keyboard::Modifiers) {
    let shortcut = crate::keys::shortcut(&key, modifiers).expect("a key with a meaning");
    let _ = app.update(Message::Key(shortcut));
}

fn named(key: iced::keyboard::key::Named) -> iced::keyboard::Key {
    iced::keyboard::Key::Named(key)
}

fn character(c: &str) -> iced::keyboard::Key {
    iced::keyboard::Key::Character(c.into())
}

fn two_humans_othello(dir: &TempDir) -> App {
    let mut app = othello_app(dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::NewGame(crate::screen::new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    app
}

#[test]
fn real_key_presses_play_undo_redo_and_step_through_the_moves() {
    use iced::keyboard::Modifiers;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    press(&mut app, character("d"), Modifiers::empty());
    press(&mut app, named(Named::ArrowRight), Modifiers::empty());
    press(&mut app, named(Named::Enter), Modifiers::empty());
    assert_eq!(app.play().expect("game").game.move_list(), ["f5"]);
    press(&mut app, character("a"), Modifiers::empty());
    press(&mut app, character("a"), Modifiers::empty());
    press(&mut app, character("s"), Modifiers::empty());
    press(&mut app, named(Named::Space), Modifiers::empty());
    assert_eq!(app.play().expect("game").game.move_list(), ["f5", "d6"]);
    press(&mut app, character("z"), Modifiers::CTRL);
    assert_eq!(ply(&app), 1);
    press(&mut app, character("Z"), Modifiers::CTRL | Modifiers::SHIFT);
    assert_eq!(ply(&app), 2, "Ctrl+Shift+Z redoes");
    press(&mut app, named(Named::ArrowLeft), Modifiers::ALT);
    assert_eq!(app.play().expect("game").viewing, Some(1));
    press(&mut app, character("["), Modifiers::empty());
    assert_eq!(app.play().expect("game").viewing, Some(0));
    press(&mut app, character("]"), Modifiers::empty());
    assert_eq!(app.play().expect("game").viewing, Some(1));
    press(&mut app, named(Named::End), Modifiers::empty());
    assert_eq!(app.play().expect("game").viewing, None);
    press(&mut app, named(Named::Home), Modifiers::empty());
    assert_eq!(app.play().expect("game").viewing, Some(0));
}

#[test]
fn an_illegal_key_placement_changes_nothing_flashes_and_says_why() {
    use iced::keyboard::Modifiers;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    press(&mut app, named(Named::ArrowUp), Modifiers::empty());
    for _ in 0..5 {
        press(&mut app, named(Named::ArrowUp), Modifiers::empty());
    }
    let before = app.play().expect("game").game.current();
    press(&mut app, named(Named::Enter), Modifiers::empty());
    let play = app.play().expect("game");
    assert_eq!(play.game.current(), before, "nothing changed");
    assert_eq!(play.flash.map(|f| f.cell), Some(Cell::new(4, 0)), "the cell blinks");
    let status = play.status.clone().expect("a reason");
    assert!(status.starts_with("e1:") && status.len() > 4, "{status}");
    let _ = app.update(Message::Tick(std::time::Instant::now() + std::time::Duration::from_secs(2)));
    assert!(app.play().expect("game").flash.is_none(), "the blinking ends");
}

#[test]
fn escape_and_resign_ask_first() {
    use crate::app::Question;
    use iced::keyboard::Modifiers;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    press(&mut app, named(Named::Escape), Modifiers::empty());
    assert_eq!(app.screen(), Screen::Home, "nothing to lose before the first move");
    let _ = app.update(Message::Go(Route::Continue));
    click(&mut app, 5, 4);
    press(&mut app, named(Named::Escape), Modifiers::empty());
    assert_eq!((app.screen(), app.question()), (Screen::Play, Some(Question::Leave)));
    press(&mut app, named(Named::Escape), Modifiers::empty());
    assert_eq!((app.screen(), app.question()), (Screen::Play, None), "Esc cancels the question");
    let _ = app.update(Message::Play(play::Msg::AskResign));
    let _ = app.update(Message::Answer(false));
    assert!(!app.play().expect("game").is_over(), "no means no");
    let _ = app.update(Message::Play(play::Msg::AskResign));
    press(&mut app, named(Named::Enter), Modifiers::empty());
    assert!(app.play().expect("game").is_over(), "Enter confirms");
    press(&mut app, named(Named::Escape), Modifiers::empty());
    assert_eq!(app.screen(), Screen::Home, "a finished game is left without asking");
}

#[test]
fn the_keyboard_help_opens_from_the_game_and_lists_every_binding() {
    use iced::keyboard::Modifiers;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    press(&mut app, named(Named::F1), Modifiers::empty());
    assert_eq!(app.screen(), Screen::Keyboard);
    let rows = crate::screen::keyboard::rows();
    assert_eq!(rows.len(), crate::keys::BINDINGS.len());
    for binding in crate::keys::BINDINGS {
        for chord in binding.chords {
            assert!(rows.iter().any(|(keys, _)| keys.contains(&chord.label())), "{}", chord.label());
        }
    }
    press(&mut app, named(Named::Escape), Modifiers::empty());
    assert_eq!(app.screen(), Screen::Play, "back to the game it was opened from");
}

fn online(app: &mut App, msg: crate::screen::online::Msg) {
    let _ = app.update(Message::Online(msg));
}

/// Polls both apps until `done` holds (at most about five seconds).
fn pump(host: &mut App, guest: &mut App, done: impl Fn(&App, &App) -> bool) {
    for _ in 0..500 {
        online(host, crate::screen::online::Msg::Poll);
        online(guest, crate::screen::online::Msg::Poll);
        if done(host, guest) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    panic!("the two apps did not get there");
}

#[test]
fn two_apps_play_chat_and_survive_a_dropped_connection_over_loopback() {
    use crate::online::{ChatLine, Link};
    use crate::screen::new_game::Msg as FormMsg;
    use crate::screen::online::Msg;
    use crate::screen::play::Play;
    let (host_dir, guest_dir) = (TempDir::create(), TempDir::create());
    let (mut host, mut guest) = (othello_app(&host_dir), othello_app(&guest_dir));
    let _ = host.update(Message::Go(Route::Online));
    online(&mut host, Msg::Form(FormMsg::Game(GameKind::Othello)));
    online(&mut host, Msg::Port("0".into()));
    online(&mut host, Msg::Host);
    assert_eq!(host.screen(), Screen::Play, "the host sees the board while waiting");
    let port = host.online().expect("hosting").address.clone();
    online(&mut guest, Msg::Address(format!("127.0.0.1:{port}")));
    online(&mut guest, Msg::Join);
    pump(&mut host, &mut guest, |h, g| h.online().is_some_and(|o| o.ready()) && g.play().is_some());
    assert_eq!(guest.screen(), Screen::Play);
    assert_eq!(guest.play().expect("game").remote, Some(Player::First), "the host plays Black");

    click(&mut guest, 5, 4);
    assert_eq!(ply(&guest), 0, "not the guest's turn");
    click(&mut host, 5, 4);
    assert_eq!(ply(&host), 1);
    pump(&mut host, &mut guest, |_, g| ply(g) == 1);
    click(&mut guest, 0, 0);
    assert!(guest.play().expect("game").flash.is_some(), "an illegal move blinks on the guest's side too");
    click(&mut guest, 3, 5);
    pump(&mut host, &mut guest, |h, g| ply(h) == 2 && ply(g) == 2);
    assert_eq!(host.play().expect("game").game.move_list(), ["f5", "d6"]);

    online(&mut guest, Msg::Draft("nice opening".into()));
    online(&mut guest, Msg::SendChat);
    pump(&mut host, &mut guest, |h, _| {
        h.online().is_some_and(|o| o.chat.contains(&ChatLine::Theirs("nice opening".into())))
    });

    online(&mut guest, Msg::AskUndo);
    pump(&mut host, &mut guest, |h, _| h.online().is_some_and(|o| o.asked.is_some()));
    online(&mut host, Msg::Answer(true));
    pump(&mut host, &mut guest, |h, g| ply(h) == 1 && ply(g) == 1);
    click(&mut guest, 3, 5);
    pump(&mut host, &mut guest, |h, g| ply(h) == 2 && ply(g) == 2);

    let _ = guest.update(Message::Play(play::Msg::Leave));
    assert_eq!(guest.question(), Some(crate::app::Question::LeaveOnline), "leaving an online game asks first");
    let _ = guest.update(Message::Answer(true));
    assert_eq!(guest.screen(), Screen::Home);
    pump(&mut host, &mut guest, |h, _| h.online().is_some_and(|o| matches!(o.link, Link::Dropped(_))));
    assert_eq!(ply(&host), 2, "the host keeps the game");
    assert!(host.play().expect("game").paused);
    let words = play::turn_line(host.play().expect("game"), &host.play().expect("game").game.current());
    assert!(words.starts_with("Paused"), "{words}");
    assert!(host_dir.paths().current_game().exists(), "and it is autosaved");
    click(&mut host, 2, 3);
    assert_eq!(ply(&host), 2, "the game is paused while the guest is away");

    online(&mut host, Msg::Reconnect);
    online(&mut guest, Msg::Address(format!("127.0.0.1:{port}")));
    online(&mut guest, Msg::Join);
    pump(&mut host, &mut guest, |h, g| {
        h.online().is_some_and(|o| o.ready()) && g.play().is_some_and(|p| p.game.ply() == 2)
    });
    assert_eq!(guest.play().expect("game").game.move_list(), ["f5", "d6"], "the guest picks up where it stopped");
    assert!(!host.play().expect("game").paused, "the game goes on");

    let _ = guest.update(Message::Play(play::Msg::AskResign));
    let _ = guest.update(Message::Answer(true));
    pump(&mut host, &mut guest, |h, g| {
        h.play().is_some_and(|p| p.resigned == Some(Player::Second)) && g.play().is_some_and(Play::is_over)
    });
    online(&mut host, Msg::OfferNewGame);
    pump(&mut host, &mut guest, |_, g| g.online().is_some_and(|o| o.asked.is_some()));
    online(&mut guest, Msg::Answer(true));
    pump(&mut host, &mut guest, |h, g| ply(h) == 0 && ply(g) == 0 && !h.play().is_some_and(Play::is_over));
}

fn tab(app: &mut App) {
    press(app, named(iced::keyboard::key::Named::Tab), iced::keyboard::Modifiers::empty());
}

fn shift_tab(app: &mut App) {
    press(app, named(iced::keyboard::key::Named::Tab), iced::keyboard::Modifiers::SHIFT);
}

fn key(app: &mut App, key: iced::keyboard::key::Named) {
    press(app, named(key), iced::keyboard::Modifiers::empty());
}

/// Presses Tab until `name` has the focus.
fn tab_to(app: &mut App, name: &str) {
    for _ in 0..40 {
        if app.focused() == Some(name) {
            return;
        }
        tab(app);
    }
    panic!("Tab never reached {name}; the ring is {:?}", stop_names(app));
}

fn stop_names(app: &App) -> Vec<String> {
    app.focus_stops().into_iter().map(|s| s.name).collect()
}

#[test]
fn tab_walks_the_home_screen_in_order_round_the_ring_and_enter_presses() {
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = app(&dir);
    assert_eq!(app.focused(), None, "no focus before the first Tab");
    let menu =
        ["Saved games", "Play online", "Statistics", "Compare rule sets", "Rules", "Keyboard", "Settings", "Quit"];
    let expected: Vec<&str> = ["Play Gomoku", "Play Othello"].into_iter().chain(menu).collect();
    assert_eq!(stop_names(&app), expected, "the cards left to right, then the menu; Continue is disabled");
    tab(&mut app);
    assert_eq!(app.focused(), Some("Play Gomoku"));
    tab(&mut app);
    assert_eq!(app.focused(), Some("Play Othello"));
    shift_tab(&mut app);
    shift_tab(&mut app);
    assert_eq!(app.focused(), Some("Quit"), "Shift+Tab goes round to the end");
    tab(&mut app);
    assert_eq!(app.focused(), Some("Play Gomoku"), "and Tab round to the start");
    key(&mut app, Named::Enter);
    assert_eq!((app.screen(), app.form().game), (Screen::NewGame, GameKind::Gomoku));
    assert_eq!(app.focused(), None, "a new screen starts without focus");
}

#[test]
fn on_the_new_game_form_the_arrows_change_the_focused_choice_and_enter_starts() {
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let names = stop_names(&app);
    assert_eq!(names[..2], ["Game", "Rule set"]);
    assert_eq!(names[names.len() - 3..], ["Start game", "Set up a position", "Back"], "{names:?}");
    tab(&mut app);
    assert_eq!(app.focused(), Some("Game"));
    key(&mut app, Named::ArrowRight);
    assert_eq!(app.form().game, GameKind::Othello, "Othello is the last option: the arrow stops");
    key(&mut app, Named::ArrowLeft);
    assert_eq!(app.form().game, GameKind::Gomoku);
    assert_eq!(app.focused(), Some("Game"), "the focus stays on the choice");
    key(&mut app, Named::ArrowRight);
    assert_eq!(app.form().game, GameKind::Othello);
    tab_to(&mut app, "White player");
    assert!(app.form().computer[1]);
    key(&mut app, Named::Space);
    assert!(!app.form().computer[1], "Space picks the next option, round to the first");
    assert!(!stop_names(&app).contains(&"White level".to_string()), "a human has no level");
    tab_to(&mut app, "Black player");
    key(&mut app, Named::ArrowRight);
    assert!(app.form().computer[0], "the computer plays Black");
    assert_eq!(app.focused(), Some("Black player"));
    tab(&mut app);
    assert_eq!(app.focused(), Some("Black level"), "the new level list comes next");
    tab_to(&mut app, "Start game");
    key(&mut app, Named::Enter);
    assert_eq!(app.screen(), Screen::Play);
    assert!(app.play().expect("game").setup.seats[0].is_computer());
}

#[test]
fn a_question_keeps_the_focus_in_its_buttons_and_enter_answers_with_the_focused_one() {
    use crate::app::Question;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    click(&mut app, 5, 4);
    key(&mut app, Named::Escape);
    assert_eq!(app.question(), Some(Question::Leave));
    assert_eq!(stop_names(&app), ["Leave", "Cancel"], "the board and panel under the question are out of the ring");
    tab(&mut app);
    tab(&mut app);
    assert_eq!(app.focused(), Some("Cancel"));
    tab(&mut app);
    assert_eq!(app.focused(), Some("Leave"), "round within the question");
    shift_tab(&mut app);
    key(&mut app, Named::Enter);
    assert_eq!((app.screen(), app.question()), (Screen::Play, None), "Enter on Cancel stays");
    assert_eq!(ply(&app), 1);
    assert_eq!(app.focused(), None);
    key(&mut app, Named::Escape);
    tab(&mut app);
    assert_eq!(app.focused(), Some("Leave"));
    key(&mut app, Named::Space);
    assert_eq!(app.screen(), Screen::Home, "Space on Leave leaves");
}

#[test]
fn in_a_game_the_keys_go_to_the_board_or_to_the_focused_control() {
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    let names = stop_names(&app);
    assert_eq!(names.first().map(String::as_str), Some("board"), "the board comes first");
    assert_eq!(names.last().map(String::as_str), Some("Menu"));
    tab(&mut app);
    assert_eq!(app.focused(), Some("board"));
    key(&mut app, Named::ArrowRight);
    key(&mut app, Named::ArrowRight);
    key(&mut app, Named::Enter);
    assert_eq!(app.play().expect("game").game.move_list(), ["f5"], "with the board focused, Enter places");
    tab_to(&mut app, "Undo");
    key(&mut app, Named::ArrowLeft);
    assert_eq!(app.play().expect("game").cursor, Some(Cell::new(4, 4)), "the arrows still move the cursor");
    key(&mut app, Named::Enter);
    assert_eq!(ply(&app), 0, "with Undo focused, Enter undoes");
    assert_eq!(app.focused(), Some("Redo"), "Undo is disabled now; the focus moves on to its neighbour");
    key(&mut app, Named::Escape);
    assert_eq!((app.screen(), app.question(), app.focused()), (Screen::Play, None, None), "Esc: keys to the board");
    key(&mut app, Named::ArrowRight);
    key(&mut app, Named::Space);
    assert_eq!(app.play().expect("game").game.move_list(), ["f5"], "Space places at the cursor again");
    tab_to(&mut app, "Moves");
    key(&mut app, Named::ArrowLeft);
    assert_eq!(app.play().expect("game").viewing, Some(0), "the arrows step through the moves");
    assert_eq!(app.focused(), Some("Moves"), "though Back to game appeared above it");
    key(&mut app, Named::ArrowRight);
    assert_eq!(app.play().expect("game").viewing, None);
}

#[test]
fn ctrl_s_opens_the_saved_games_and_enter_on_save_saves() {
    use iced::keyboard::Modifiers;
    use iced::keyboard::key::Named;
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    click(&mut app, 5, 4);
    press(&mut app, character("s"), Modifiers::CTRL);
    assert_eq!(app.screen(), Screen::SavedGames);
    assert_eq!(stop_names(&app), ["Name", "Save", "Path", "Import", "Export", "Back"]);
    tab(&mut app);
    assert_eq!(app.focused(), Some("Name"));
    tab(&mut app);
    key(&mut app, Named::Enter);
    let notice = app.saved_games().notice.clone();
    assert!(notice.as_ref().is_some_and(|n| n.as_ref().is_ok_and(|s| s.starts_with("Saved as"))), "{notice:?}");
    assert_eq!(app.saved_games().entries.as_ref().map(Vec::len), Ok(1), "the list shows it");
    key(&mut app, Named::Escape);
    assert_eq!(app.screen(), Screen::Play, "Esc goes back to the game");
}

#[test]
fn a_mouse_click_or_another_screen_takes_the_focus_away() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    tab(&mut app);
    assert!(app.focused().is_some());
    let _ = app.update(Message::MousePressed);
    assert_eq!(app.focused(), None, "a click hides the focus");
    tab(&mut app);
    tab(&mut app);
    assert_eq!(app.focused(), Some("Play Othello"), "Tab starts again at the first control");
    let _ = app.update(Message::Go(Route::Settings));
    assert_eq!(app.focused(), None, "another screen starts without focus");
    tab_to(&mut app, "Theme");
    key(&mut app, iced::keyboard::key::Named::ArrowRight);
    assert_eq!(app.settings().theme, crate::settings::ThemeChoice::Dark, "a focused list steps with the arrows");
    key(&mut app, iced::keyboard::key::Named::Escape);
    assert_eq!(app.screen(), Screen::Home, "Esc still goes back from a page");
}

#[test]
fn every_screen_has_a_ring_of_uniquely_named_controls_with_back_last() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let pages = [Route::Statistics, Route::Rules, Route::Settings, Route::Compare, Route::Keyboard, Route::Online];
    for route in pages.into_iter().chain([Route::NewGame(GameKind::Gomoku)]) {
        let _ = app.update(Message::Go(route.clone()));
        let names = stop_names(&app);
        assert_eq!(names.last().map(String::as_str), Some("Back"), "{route:?}: {names:?}");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{route:?}: {names:?}");
    }
    let _ = app.update(Message::Go(Route::Statistics));
    let _ = app.update(Message::Statistics(statistics::Msg::AskReset));
    assert_eq!(stop_names(&app), ["Yes, reset", "Keep them", "Back"]);
}

#[test]
fn a_series_runs_at_the_picked_level_and_length_kept_across_games() {
    use crate::screen::compare::Msg;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::Compare));
    let _ = app.update(Message::Compare(Msg::SeriesGames(20)));
    let _ = app.update(Message::Compare(Msg::SeriesLevel("Beginner".into())));
    let _ = app.update(Message::Compare(Msg::Game(GameKind::Othello)));
    assert_eq!(app.comparison().series_games, 20, "switching games keeps the series length");
    assert_eq!(app.comparison().series_level.as_deref(), Some("Beginner"));
    let _ = app.update(Message::Compare(Msg::RunSeries));
    let run = app.comparison().series.as_ref().expect("a series runs");
    assert_eq!(run.progress().games_each, 20);
}

/// Random play through `update`, as an impatient player clicks: cells (legal or not), pass, undo, redo, hints,
/// stepping through the moves, resigning, new games and the computer's answers arriving late, for both games.
/// Nothing may panic, the view must build at every step, and the board must agree with its move count.
#[test]
fn random_clicks_and_commands_never_break_a_game() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let mut rng = random::seeded(0x5EED_1234_ABCD_0001);
    let mut next = move |n: u64| rng.random_range(0..n) as usize;
    for game in [GameKind::Othello, GameKind::Gomoku] {
        let _ = app.update(Message::Go(Route::NewGame(game)));
        let _ = app.update(Message::NewGame(new_game::Msg::Start));
        for step in 0..1500 {
            let now = app.play().map(|p| p.game.current());
            let size = now.as_ref().map_or(8, |s| s.size.0) as u64;
            let legal: Vec<Cell> =
                now.iter().flat_map(|s| &s.markers).filter(|m| m.1 == Marker::Legal).map(|m| m.0).collect();
            let message = match next(24) {
                0..=5 if !legal.is_empty() => Message::Play(play::Msg::Clicked(legal[next(legal.len() as u64)])),
                0..=11 => Message::Play(play::Msg::Clicked(Cell::new(next(size), next(size)))),
                12 => Message::Play(play::Msg::Pass),
                13 if next(3) == 0 => Message::Play(play::Msg::Undo),
                14 => Message::Play(play::Msg::Redo),
                15 => Message::Play(play::Msg::Hint),
                16 => Message::Play(play::Msg::View(next(70))),
                17 => Message::Play(play::Msg::ViewLive),
                18 if next(40) == 0 => Message::Play(play::Msg::Resign),
                19 if next(40) == 0 => Message::Play(play::Msg::NewGame),
                20 if next(40) == 0 => Message::NewGame(new_game::Msg::Start),
                _ => {
                    answer(&mut app);
                    continue;
                }
            };
            let _ = app.update(message);
            let _ = app.view();
            if let Some(play) = app.play() {
                let now = play.game.current();
                let stones = now.stones.iter().filter(|s| s.is_some()).count();
                assert_eq!(stones, now.counts[0] + now.counts[1], "{game:?} step {step}");
                assert!(play.shown_ply() <= play.game.ply(), "{game:?} step {step}");
            }
        }
    }
}

#[test]
fn back_from_the_new_game_form_returns_to_where_it_was_opened() {
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    // The play screen's New game button.
    let _ = app.update(Message::Play(play::Msg::NewGame));
    assert_eq!(app.screen(), Screen::NewGame);
    let _ = app.update(Message::Go(Route::Back));
    assert_eq!(app.screen(), Screen::Play, "Back returns to the game the form was opened from");
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Gomoku)));
    let _ = app.update(Message::Go(Route::Back));
    assert_eq!(app.screen(), Screen::Play);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    key(&mut app, iced::keyboard::key::Named::Escape);
    assert_eq!(app.screen(), Screen::Play, "and so does Escape");
    // From the home screen, Back goes home.
    let _ = app.update(Message::Go(Route::Home));
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::Go(Route::Back));
    assert_eq!(app.screen(), Screen::Home);
}

#[test]
fn a_review_judges_every_position_and_the_computer_s_moves_are_judged_as_they_come() {
    let dir = TempDir::create();
    let mut app = app(&dir);
    start(&mut app);
    click(&mut app, 1, 1);
    answer(&mut app);
    click(&mut app, 2, 2);
    answer(&mut app);
    let judged = |app: &App| app.play().expect("game").evaluations.iter().filter(|e| e.is_some()).count();
    assert_eq!(judged(&app), 2, "the computer judged the two positions it moved from");
    let _ = app.update(Message::Play(play::Msg::Review));
    assert!(app.play().expect("game").reviewing);
    let mut steps = 0;
    while answer(&mut app) > 0 {
        steps += 1;
        assert!(steps <= 10, "the review ends");
    }
    let play = app.play().expect("game");
    assert!(!play.reviewing);
    assert_eq!(judged(&app), 5, "all five positions, the current one included: {:?}", play.evaluations);
    assert_eq!(steps, 3, "only the positions not judged yet are searched");
    assert!(play.status.as_deref().is_some_and(|s| s.starts_with("Review done")), "{:?}", play.status);
    assert!(play.human_to_move(), "the review played no move");
}

#[test]
fn values_are_written_on_the_best_moves_squares_until_the_position_changes() {
    let dir = TempDir::create();
    let mut app = two_humans_othello(&dir);
    let _ = app.update(Message::Play(play::Msg::Values));
    assert_eq!(answer(&mut app), 1, "one search finds every line");
    let values = app.play().expect("game").values.clone();
    assert_eq!(values.len(), 4, "the four opening moves: {values:?}");
    let cells: std::collections::HashSet<_> = values.iter().map(|(c, _)| *c).collect();
    assert_eq!(cells.len(), 4, "each move once");
    assert!(values.iter().all(|(_, v)| v.starts_with('+') || v.starts_with('-') || v == "0"), "{values:?}");
    let lines = &app.play().expect("game").value_lines;
    assert_eq!(lines.len(), 4, "the lines behind them, for the panel");
    assert!(lines.iter().zip(&values).all(|(l, (c, _))| l.cell == Some(*c)), "in the same order, best first");
    let (cell, _) = values[0];
    let _ = app.update(Message::Play(play::Msg::Clicked(cell)));
    let play = app.play().expect("game");
    assert!(play.values.is_empty() && play.value_lines.is_empty(), "a move clears them");
}

#[test]
fn a_registered_engine_plays_a_side_and_its_illegal_move_stops_the_game_with_its_name() {
    use tabula_games::setup::Seat;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let stubborn = "sh -c 'while read l; do case $l in ping*) echo \"pong ${l#ping }\";; \
                    go) echo \"=== F5\";; esac; done'";
    for msg in [
        settings_screen::Msg::EngineName("Stubborn".into()),
        settings_screen::Msg::EngineProtocol(tabula_games::external::Protocol::NBoard),
        settings_screen::Msg::EngineCommand(stubborn.into()),
        settings_screen::Msg::SaveEngine,
    ] {
        let _ = app.update(Message::Settings(msg));
    }
    let saved = crate::settings::Settings::load(&dir.paths().settings()).0;
    assert_eq!(saved.engines.len(), 1, "the engine is kept in the settings file");
    assert_eq!(saved.engines[0].args[1].matches("===").count(), 1, "the command is split as a shell would");
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    for msg in [
        new_game::Msg::Computer(Player::First, true),
        new_game::Msg::Engine(Player::First, "Stubborn".into()),
        new_game::Msg::Computer(Player::Second, false),
        new_game::Msg::Start,
    ] {
        let _ = app.update(Message::NewGame(msg));
    }
    assert_eq!(app.screen(), Screen::Play);
    assert_eq!(app.play().expect("game").setup.seats[0], Seat::Engine("Stubborn".into()));
    assert_eq!(answer(&mut app), 1);
    let play = app.play().expect("game");
    assert_eq!(play.game.move_list(), ["f5"], "the engine opened");
    assert_eq!(play.analysis.as_ref().and_then(|(_, a)| a.external.clone()).expect("its answer").engine, "Stubborn");
    assert!(play.evaluations.iter().all(Option::is_none), "an answer without an evaluation judges nothing");
    click(&mut app, 5, 5);
    assert_eq!(answer(&mut app), 1);
    let play = app.play().expect("game");
    assert_eq!(play.game.ply(), 2, "f5 again is not played");
    let status = play.status.clone().unwrap_or_default();
    assert!(status.starts_with("Stubborn played f5, which is not legal here: occupied."), "{status}");
    assert!(play.paused && !play.computer_to_move(), "the game waits for the player");
    let _ = app.update(Message::Settings(settings_screen::Msg::RemoveEngine("Stubborn".into())));
    let _ = app.update(Message::Play(play::Msg::TogglePause));
    let status = app.play().expect("game").status.clone().unwrap_or_default();
    assert!(status.starts_with("No engine called Stubborn is registered"), "{status}");
    let _ = app.update(Message::Play(play::Msg::NewGame));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    assert_eq!(app.screen(), Screen::NewGame, "the form refuses a seat for a missing engine");
    assert_eq!(app.form_error(), Some("No engine called Stubborn is registered (Settings, Engines)."));
}

#[test]
fn the_engine_form_refuses_what_cannot_start_and_edits_what_it_saved() {
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let send = |app: &mut App, msg| {
        let _ = app.update(Message::Settings(msg));
    };
    send(&mut app, settings_screen::Msg::SaveEngine);
    assert_eq!(app.engine_form().problem.as_deref(), Some("Give the engine a name."));
    send(&mut app, settings_screen::Msg::EngineName("Edax".into()));
    send(&mut app, settings_screen::Msg::EngineCommand("/no/such/edax -q".into()));
    send(&mut app, settings_screen::Msg::SaveEngine);
    assert_eq!(app.engine_form().problem.as_deref(), Some("There is no program /no/such/edax."));
    send(&mut app, settings_screen::Msg::EngineCommand("edax 'unclosed".into()));
    send(&mut app, settings_screen::Msg::SaveEngine);
    let problem = app.engine_form().problem.clone().unwrap_or_default();
    assert!(problem.starts_with("The command cannot be read"), "{problem}");
    send(&mut app, settings_screen::Msg::EngineCommand("edax -n 2".into()));
    send(&mut app, settings_screen::Msg::SaveEngine);
    assert_eq!(app.engine_form().problem, None);
    assert_eq!(app.engine_form().name, "", "the form is cleared for the next engine");
    send(&mut app, settings_screen::Msg::EditEngine("Edax".into()));
    assert_eq!((app.engine_form().name.as_str(), app.engine_form().command.as_str()), ("Edax", "edax -n 2"));
    send(&mut app, settings_screen::Msg::HintEngine("Edax".into()));
    send(&mut app, settings_screen::Msg::RemoveEngine("Edax".into()));
    let saved = crate::settings::Settings::load(&dir.paths().settings()).0;
    assert!(saved.engines.is_empty() && saved.hint_engine.is_empty(), "gone, and no longer giving hints");
}

#[test]
fn a_series_against_an_engine_plays_only_the_rule_sets_its_protocol_tells() {
    use crate::screen::compare::Msg;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    for msg in [
        settings_screen::Msg::EngineName("Edax".into()),
        settings_screen::Msg::EngineProtocol(tabula_games::external::Protocol::NBoard),
        settings_screen::Msg::EngineCommand("edax".into()),
        settings_screen::Msg::SaveEngine,
    ] {
        let _ = app.update(Message::Settings(msg));
    }
    let _ = app.update(Message::Go(Route::Compare));
    let _ = app.update(Message::Compare(Msg::Game(GameKind::Othello)));
    let _ = app.update(Message::Compare(Msg::SeriesOpponent("Edax".into())));
    let _ = app.update(Message::Compare(Msg::RunSeries));
    let run = app.comparison().series.as_ref().expect("a series runs");
    let rows: Vec<String> = run.progress().rows.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(rows, ["Othello"], "NBoard tells standard 8x8 Othello only");
    assert_eq!(app.comparison().series_skipped.len(), GameKind::Othello.rule_sets().len() - 1);
    let _ = app.update(Message::Compare(Msg::StopSeries));
    let _ = app.update(Message::Compare(Msg::SeriesOpponent(String::new())));
    let _ = app.update(Message::Compare(Msg::RunSeries));
    assert!(app.comparison().series_skipped.is_empty(), "the level against itself plays every rule set");
}

#[test]
fn the_hint_engine_reviews_a_game_when_it_gives_evaluations_and_says_so_when_it_does_not() {
    use tabula_games::external::Protocol;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let judge = "sh -c 'while read l; do case $l in ping*) echo \"pong ${l#ping }\";; go) echo \"=== F5/2.0\";; \
                 esac; done'";
    let silent = "sh -c 'while read l; do case $l in START*) echo OK;; BEGIN) echo 0,0;; esac; done'";
    for (name, protocol, command) in [("Judge", Protocol::NBoard, judge), ("Silent", Protocol::Pbrain, silent)] {
        for msg in [
            settings_screen::Msg::EngineName(name.into()),
            settings_screen::Msg::EngineProtocol(protocol),
            settings_screen::Msg::EngineCommand(command.into()),
            settings_screen::Msg::SaveEngine,
        ] {
            let _ = app.update(Message::Settings(msg));
        }
    }
    for (game, engine) in [(GameKind::Othello, "Judge"), (GameKind::Gomoku, "Silent")] {
        let _ = app.update(Message::Settings(settings_screen::Msg::HintEngine(engine.into())));
        let _ = app.update(Message::Go(Route::NewGame(game)));
        let _ = app.update(Message::NewGame(new_game::Msg::Computer(Player::Second, false)));
        let _ = app.update(Message::NewGame(new_game::Msg::Start));
        let _ = app.update(Message::Play(play::Msg::Review));
        assert_eq!(answer(&mut app), 1, "{engine} judges the start");
        let play = app.play().expect("game");
        let status = play.status.clone().unwrap_or_default();
        if engine == "Judge" {
            assert!(play.evaluations.first().copied().flatten().is_some(), "the start is judged");
            assert!(status.starts_with("Review done"), "{status}");
        } else {
            assert!(play.evaluations.iter().all(Option::is_none));
            assert!(status.starts_with("Silent gives no evaluations, so it cannot review a game"), "{status}");
        }
        assert!(!play.reviewing);
    }
}

#[test]
fn the_side_to_move_uses_its_time_a_flag_loses_and_a_pause_stops_both_clocks() {
    use crate::screen::new_game::{ClockKind, Msg};
    use std::time::{Duration, Instant};
    let dir = TempDir::create();
    let mut app = app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    for msg in [Msg::Clock(ClockKind::PerMove), Msg::MoveSeconds(5), Msg::Computer(Player::Second, false), Msg::Start] {
        let _ = app.update(Message::NewGame(msg));
    }
    let secs = Duration::from_secs;
    let t0 = Instant::now();
    let _ = app.update(Message::Tick(t0));
    let clock = app.play().and_then(|p| p.clock.clone()).expect("a clock");
    assert_eq!(clock.running(), Some(Player::First));
    let _ = app.update(Message::Tick(t0 + secs(4)));
    assert!(!app.play().expect("game").is_over(), "Black has a second left");
    click(&mut app, 1, 1);
    let _ = app.update(Message::Tick(t0 + secs(4)));
    let play = app.play().expect("game");
    assert_eq!(play.clock.as_ref().map(|c| c.left(Player::First, t0 + secs(4))), Some(secs(5)), "full again");
    assert_eq!(play.clock.as_ref().and_then(tabula_games::clock::Clock::running), Some(Player::Second));
    let _ = app.update(Message::Tick(t0 + secs(6)));
    let play = app.play().expect("game");
    assert_eq!(play.outcome().map(|o| o.result), Some(tabula_core::GameResult::Win(Player::First)));
    assert_eq!(play.status.as_deref(), Some("White's time ran out."));
    let _ = app.update(Message::Play(play::Msg::Undo));
    assert_eq!(ply(&app), 1, "a lost flag is not taken back");

    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::NewGame(Msg::Start));
    let t1 = Instant::now();
    let _ = app.update(Message::Tick(t1));
    let _ = app.update(Message::Play(play::Msg::TogglePause));
    let _ = app.update(Message::Tick(t1 + secs(60)));
    let play = app.play().expect("game");
    assert!(!play.is_over(), "paused: no clock runs");
    assert_eq!(play.clock.as_ref().and_then(tabula_games::clock::Clock::running), None);
}

#[test]
fn a_series_at_two_levels_plays_each_rule_set_at_both() {
    use crate::screen::compare::Msg;
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::Compare));
    let _ = app.update(Message::Compare(Msg::Game(GameKind::Gomoku)));
    let _ = app.update(Message::Compare(Msg::Toggle("caro".into(), false)));
    for id in ["exact-five", "freestyle-swap", "freestyle-swap2", "swap2", "renju-taraguchi-10"] {
        let _ = app.update(Message::Compare(Msg::Toggle(id.into(), false)));
    }
    let _ = app.update(Message::Compare(Msg::SeriesLevel("Beginner".into())));
    let _ = app.update(Message::Compare(Msg::SeriesSecondLevel("Hard".into())));
    let _ = app.update(Message::Compare(Msg::RunSeries));
    let run = app.comparison().series.as_ref().expect("a series runs");
    let rows: Vec<String> = run.progress().rows.iter().map(|(name, _)| name.clone()).collect();
    assert_eq!(rows, ["Freestyle · Beginner", "Freestyle · Hard", "Renju · Beginner", "Renju · Hard"]);
    let _ = app.update(Message::Compare(Msg::StopSeries));
    let _ = app.update(Message::Compare(Msg::SeriesSecondLevel("Beginner".into())));
    let _ = app.update(Message::Compare(Msg::RunSeries));
    let rows = app.comparison().series.as_ref().expect("a series runs").progress().rows.len();
    assert_eq!(rows, 2, "the same level twice is one level");
}

#[test]
fn continue_brings_back_the_clock_with_the_time_each_side_had() {
    use crate::screen::new_game::{ClockKind, Msg};
    let dir = TempDir::create();
    let mut first = app(&dir);
    let _ = first.update(Message::Go(Route::NewGame(GameKind::Othello)));
    for msg in [Msg::Clock(ClockKind::PerGame), Msg::GameMinutes(2), Msg::IncrementSeconds(0), Msg::Start] {
        let _ = first.update(Message::NewGame(msg));
    }
    click(&mut first, 1, 1);
    answer(&mut first);
    let now = std::time::Instant::now();
    let black_left = first.play().and_then(|p| p.clock.as_ref()).map(|c| c.left(Player::First, now));
    drop(first);
    let mut second = app(&dir);
    let _ = second.update(Message::Go(Route::Continue));
    let clock = second.play().and_then(|p| p.clock.clone()).expect("the clock comes back");
    let left = clock.left(Player::First, std::time::Instant::now());
    let before = black_left.expect("Black's time");
    assert!(left <= std::time::Duration::from_secs(120) && left + std::time::Duration::from_secs(1) >= before);
    assert_eq!(clock.running(), None, "it starts again with the first tick");
}

#[test]
fn a_game_saved_by_name_on_the_clock_opens_on_the_clock() {
    use crate::screen::new_game::{ClockKind, Msg};
    let dir = TempDir::create();
    let mut app = app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    for msg in [Msg::Clock(ClockKind::PerMove), Msg::MoveSeconds(7), Msg::Start] {
        let _ = app.update(Message::NewGame(msg));
    }
    click(&mut app, 1, 1);
    answer(&mut app);
    let _ = app.update(Message::Play(play::Msg::OpenSave));
    let _ = app.update(Message::SavedGames(saved_games::Msg::Name("timed".into())));
    let _ = app.update(Message::SavedGames(saved_games::Msg::Save));
    let path = dir.paths().saves().join("timed.toml");
    let text = std::fs::read_to_string(&path).expect("saved");
    assert!(text.contains("[clock]\nper_move_ms = 7000"), "{text}");
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Othello)));
    let _ = app.update(Message::NewGame(Msg::Clock(ClockKind::Off)));
    let _ = app.update(Message::NewGame(Msg::Start));
    assert!(app.play().expect("game").clock.is_none());
    let _ = app.update(Message::Play(play::Msg::OpenLoad));
    let _ = app.update(Message::SavedGames(saved_games::Msg::Open(path)));
    let clock = app.play().and_then(|p| p.clock.clone()).expect("the clock comes back");
    assert_eq!(clock.control(), tabula_games::clock::TimeControl::PerMove(std::time::Duration::from_secs(7)));
}

#[test]
fn a_game_starts_from_a_position_set_up_by_hand_and_its_save_keeps_it() {
    use crate::screen::setup::{Brush, Msg};
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Gomoku)));
    let _ = app.update(Message::NewGame(new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::SetUp));
    assert_eq!(app.screen(), Screen::Setup);
    let names = stop_names(&app);
    assert_eq!(names.last().map(String::as_str), Some("Back"), "{names:?}");
    for msg in [
        Msg::Clicked(Cell::new(7, 7)),
        Msg::Brush(Brush::White),
        Msg::Clicked(Cell::new(8, 7)),
        Msg::Brush(Brush::Black),
        Msg::Clicked(Cell::new(7, 8)),
        Msg::ToMove(Player::Second),
        Msg::Play,
    ] {
        let _ = app.update(Message::Setup(msg));
    }
    assert_eq!(app.screen(), Screen::Play);
    let play = app.play().expect("a game");
    assert_eq!((play.game.ply(), play.game.to_move()), (0, Player::Second));
    assert_eq!(play.game.current().stones.iter().flatten().count(), 3);
    click(&mut app, 9, 9);
    let _ = app.update(Message::Go(Route::Home));
    let mut second = othello_app(&dir);
    let _ = second.update(Message::Go(Route::Continue));
    let back = second.play().expect("the autosave");
    assert_eq!(back.game.current().stones.iter().flatten().count(), 4, "the set-up stones and the move");
    assert!(back.game.set_up_start().is_some());
}

#[test]
fn a_swap2_game_the_computer_opens_asks_the_human_and_follows_the_choice() {
    use tabula_games::setup::{LevelChoice, Seat};
    use tabula_games::swap::{Choice, Step};
    let dir = TempDir::create();
    let mut app = othello_app(&dir);
    let _ = app.update(Message::Go(Route::NewGame(GameKind::Gomoku)));
    let _ = app.update(Message::NewGame(new_game::Msg::RuleSet("freestyle-swap2".into())));
    let _ = app.update(Message::NewGame(new_game::Msg::Computer(Player::First, true)));
    let _ = app.update(Message::NewGame(new_game::Msg::Level(Player::First, LevelChoice::Custom(2))));
    let _ = app.update(Message::NewGame(new_game::Msg::Computer(Player::Second, false)));
    let _ = app.update(Message::NewGame(new_game::Msg::Start));
    assert_eq!(app.screen(), Screen::Play);
    // The computer, seated first, places the three opening stones, Black, White, Black.
    for stone in 1..=3 {
        assert_eq!(answer(&mut app), 1, "opening stone {stone}");
    }
    let play = app.play().expect("game");
    assert_eq!(play.game.ply(), 3);
    assert!(matches!(play.game.swap_step(), Step::Choose(..)));
    assert!(play.human_to_move() && play.thinking.is_none(), "the human chooses");
    click(&mut app, 0, 0);
    assert_eq!(ply(&app), 3, "no stone before the choice");
    // Taking Black: the computer now plays White and answers at once.
    let _ = app.update(Message::Play(play::Msg::Choose(Choice::Black)));
    let play = app.play().expect("game");
    assert_eq!(play.human_colour(), Some(Player::First));
    assert_eq!(play.seat_of(Player::Second), &Seat::Computer(LevelChoice::Custom(2)));
    assert_eq!(answer(&mut app), 1);
    assert_eq!(ply(&app), 4, "the computer played White's fourth stone");
    assert!(app.play().expect("game").human_to_move());
    // Undo goes back to the human's choice, not to a stone the computer placed.
    let _ = app.update(Message::Play(play::Msg::Undo));
    let play = app.play().expect("game");
    assert_eq!((play.game.ply(), play.game.decisions().len()), (3, 0));
    assert!(play.human_to_move());
}
