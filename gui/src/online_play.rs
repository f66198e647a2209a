//! A network game in the app: the forms that start one, the connection, and the game the play screen shows,
//! rebuilt from the moves the connection reports. Moves and answers the player makes go through the connection.

use tabula_games::save_file::MatchFactory;
use tabula_games::setup::{GameSetup, Seat};

use crate::online::Online;
use crate::screen::online::{Forms, Msg};
use crate::screen::play::{self, Play};
use crate::settings::Settings;

/// The forms and the network game, if one is on.
#[derive(Default)]
pub struct OnlinePlay {
    /// The Host and Join forms.
    pub forms: Forms,
    online: Option<Online>,
}

/// What an online message asks of the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Nothing more.
    None,
    /// A connection was opened: the game on the play screen gives way to the network game.
    Started,
    /// The network game changed: show it as it stands.
    Changed,
    /// Back to the home screen.
    Back,
}

/// What becomes of a play-screen message in a network game.
#[derive(Debug)]
pub enum Forward {
    /// Sent through the connection (or refused, with the reason in the status line): show the game as it stands.
    Sent,
    /// Not about the shared game: the play screen handles it as in any game.
    Local(play::Msg),
    /// Not possible in a network game (redo, hints, reviews, pause, opening another game).
    Ignored,
}

impl OnlinePlay {
    /// The network game, if one is on.
    #[must_use]
    pub fn online(&self) -> Option<&Online> {
        self.online.as_ref()
    }

    /// Whether a network game is on.
    #[must_use]
    pub fn is_on(&self) -> bool {
        self.online.is_some()
    }

    /// The online screen opens: no old complaint, this machine's addresses fresh.
    pub fn open_forms(&mut self) {
        self.forms.error = None;
        self.forms.addresses = crate::online::local_addresses();
    }

    /// Ends the network game, telling the other player.
    pub fn leave(&mut self) {
        if let Some(mut online) = self.online.take() {
            online.leave();
        }
    }

    /// Resigns the network game.
    pub fn resign(&mut self) {
        if let Some(online) = &mut self.online {
            online.resign();
        }
    }

    /// Handles a message of the online screen, its chat panel or its controls.
    pub fn update(&mut self, msg: Msg) -> Step {
        let forms = &mut self.forms;
        match msg {
            Msg::Form(change) => {
                let _ = forms.game.update(change);
            }
            Msg::Colour(colour) => forms.colour = colour,
            Msg::Port(port) => forms.port = port,
            Msg::Reach(reach) => forms.reach = reach,
            Msg::Address(address) => forms.address = address,
            Msg::Host => {
                let Ok(port) = forms.port.trim().parse::<u16>() else {
                    forms.error = Some(format!("'{}' is not a port number", forms.port.trim()));
                    return Step::None;
                };
                let spec = forms.game.setup().spec;
                match Online::host(spec, forms.colour.opponent(), port, forms.reach) {
                    Ok(online) => {
                        forms.error = None;
                        self.start(online);
                        return Step::Started;
                    }
                    Err(e) => forms.error = Some(e),
                }
            }
            Msg::Join => {
                if forms.address.trim().is_empty() {
                    forms.error = Some("Type the host's address and port.".into());
                    return Step::None;
                }
                forms.error = None;
                let online = Online::join(&forms.address);
                self.start(online);
                return Step::Started;
            }
            Msg::Back => return Step::Back,
            msg => return self.connection(msg),
        }
        Step::None
    }

    /// A message about the connection: polling it, the chat, questions and answers.
    fn connection(&mut self, msg: Msg) -> Step {
        let Some(online) = &mut self.online else { return Step::None };
        match msg {
            Msg::Poll if online.poll() => return Step::Changed,
            Msg::Draft(draft) => online.draft = draft,
            Msg::SendChat => online.send_chat(),
            Msg::AskUndo => online.request_undo(),
            Msg::Answer(accept) => {
                if let Err(e) = online.answer(accept) {
                    online.note(e);
                }
                return Step::Changed;
            }
            Msg::OfferNewGame => online.offer_new_game(),
            Msg::Reconnect => {
                if let Err(e) = online.reconnect() {
                    online.note(e);
                }
            }
            Msg::Poll
            | Msg::Form(_)
            | Msg::Colour(_)
            | Msg::Port(_)
            | Msg::Reach(_)
            | Msg::Address(_)
            | Msg::Host
            | Msg::Join
            | Msg::Back => {}
        }
        Step::None
    }

    fn start(&mut self, online: Online) {
        self.leave();
        self.online = Some(online);
    }

    /// Makes `play` show the network game as it stands: the same game, moves and resignation. `true` when it is a
    /// game `play` did not show before (the play screen should come up).
    pub fn mirror(&self, play: &mut Option<Play>, factory: MatchFactory, settings: &Settings) -> bool {
        let Some(online) = &self.online else { return false };
        let Some((spec, me, moves, resigned)) = online.state() else { return false };
        let fresh = || -> Option<Play> {
            let game = factory(&spec).ok()?;
            let setup = GameSetup { spec: spec.clone(), seats: [Seat::Human, Seat::Human] };
            let mut play = Play::new(setup, game);
            play.remote = Some(me.opponent());
            Some(play)
        };
        let same_game = play.as_ref().is_some_and(|p| p.setup.spec == spec && p.remote == Some(me.opponent()));
        if !same_game {
            *play = fresh();
        }
        let Some(play) = play else { return !same_game };
        let have = play.game.move_list();
        let mut replayed = moves.starts_with(&have);
        if replayed {
            for m in &moves[have.len()..] {
                match play.game.play_notation(m) {
                    Ok(report) => play.after_move(&report, settings),
                    Err(_) => {
                        replayed = false;
                        break;
                    }
                }
            }
        }
        if !replayed && let Some(mut rebuilt) = fresh() {
            for m in &moves {
                if rebuilt.game.play_notation(m).is_err() {
                    break;
                }
            }
            rebuilt.status = play.status.take();
            *play = rebuilt;
        }
        play.resigned = resigned;
        play.paused = !online.ready();
        play.recorded = true;
        play.refresh();
        !same_game
    }

    /// A play-screen message in the network game: moves, passes, undo requests and resignations go through the
    /// connection.
    pub fn forward(&mut self, play: &mut Play, msg: play::Msg, settings: &Settings) -> Forward {
        let Some(online) = &mut self.online else { return Forward::Local(msg) };
        let result = match msg {
            play::Msg::Clicked(cell) => {
                if play.viewing.is_some() {
                    return Forward::Ignored;
                }
                if let Err(reason) = play.game.check_cell(cell) {
                    play.refuse(cell, &reason.to_string(), settings);
                    return Forward::Ignored;
                }
                online.play(Some(cell))
            }
            play::Msg::Pass => online.play(None),
            play::Msg::Undo => {
                online.request_undo();
                Ok(())
            }
            play::Msg::Resign => {
                online.resign();
                Ok(())
            }
            play::Msg::Redo
            | play::Msg::Choose(_)
            | play::Msg::Hint
            | play::Msg::MoveNow
            | play::Msg::TogglePause
            | play::Msg::OpenLoad
            | play::Msg::Review
            | play::Msg::Values => return Forward::Ignored,
            play::Msg::View(_)
            | play::Msg::ViewLive
            | play::Msg::OpenSave
            | play::Msg::NewGame
            | play::Msg::Keyboard
            | play::Msg::Leave
            | play::Msg::AskResign
            | play::Msg::Online(_) => return Forward::Local(msg),
        };
        match result {
            Ok(()) => play.status = None,
            Err(reason) => play.status = Some(format!("Not now: {reason}")),
        }
        Forward::Sent
    }
}
