//! Game clocks: a time control (per move, or per game with an increment), each side's time left, the side whose
//! time ran out, and the share of it a program may spend on a move. Time comes in as `Instant`s from the caller,
//! so the clock runs on the app's time and on a fake one in tests alike.

use std::fmt;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tabula_core::Player;

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TimeControl {
    /// Every move within this time.
    PerMove(Duration),
    /// The whole game within `base`, plus `increment` for every move made.
    PerGame {
        /// The time at the start.
        base: Duration,
        /// What each move adds after it is made (Fischer).
        increment: Duration,
    },
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::PerMove(t) => write!(f, "{} a move", span_words(t)),
            TimeControl::PerGame { base, increment } if increment.is_zero() => write!(f, "{} a game", span_words(base)),
            TimeControl::PerGame { base, increment } => {
                write!(f, "{} a game + {} a move", span_words(base), span_words(increment))
            }
        }
    }
}

/// A span in words: whole minutes as minutes, anything else in seconds.
fn span_words(t: Duration) -> String {
    match t.as_secs() {
        s if s >= 60 && s % 60 == 0 && t.subsec_millis() == 0 => format!("{} min", s / 60),
        _ if t.subsec_millis() == 0 => format!("{} s", t.as_secs()),
        _ => format!("{:.1} s", t.as_secs_f64()),
    }
}

/// Time as a clock shows it: `m:ss`, `h:mm:ss` from an hour, tenths under ten seconds.
#[must_use]
pub fn clock_text(t: Duration) -> String {
    let secs = t.as_secs();
    if secs < 10 {
        return format!("0:0{}.{}", secs, t.subsec_millis() / 100);
    }
    match secs / 3600 {
        0 => format!("{}:{:02}", secs / 60, secs % 60),
        h => format!("{h}:{:02}:{:02}", secs / 60 % 60, secs % 60),
    }
}

/// Both sides' clocks under a time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Time left of each side, as of the last start or stop.
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Player, Instant)>,
    /// The side whose time ran out.
    flag: Option<Player>,
}

impl Clock {
    /// Both clocks full and stopped.
    #[must_use]
    pub fn new(control: TimeControl) -> Clock {
        let full = match control {
            TimeControl::PerMove(t) => t,
            TimeControl::PerGame { base, .. } => base,
        };
        Clock { control, left: [full; 2], running: None, flag: None }
    }

    /// The clocks of a game saved with `left` on each side's clock, stopped.
    #[must_use]
    pub fn resume(control: TimeControl, left: [Duration; 2]) -> Clock {
        let flag = Player::BOTH.into_iter().find(|p| left[p.index()].is_zero());
        Clock { control, left, running: None, flag }
    }

    /// The time control.
    #[must_use]
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `player`'s clock at `now` (stopping the other's, which keeps what it has left). Nothing runs after a
    /// flag.
    pub fn start(&mut self, player: Player, now: Instant) {
        self.stop(now);
        if self.flag.is_none() {
            self.running = Some((player, now));
        }
    }

    /// Stops the running clock at `now` (a pause, or the end of the game).
    pub fn stop(&mut self, now: Instant) {
        if let Some((player, since)) = self.running.take() {
            let spent = now.saturating_duration_since(since);
            let left = &mut self.left[player.index()];
            *left = left.saturating_sub(spent);
            if left.is_zero() {
                self.flag = Some(player);
            }
        }
    }

    /// `player` made a move at `now`: its clock stops (with the increment added, or full again for the next move),
    /// and the opponent's starts. A move made after the time ran out does not count: the flag stands.
    pub fn moved(&mut self, player: Player, now: Instant) {
        self.stop(now);
        if self.flag.is_some() {
            return;
        }
        let left = &mut self.left[player.index()];
        match self.control {
            TimeControl::PerMove(t) => *left = t,
            TimeControl::PerGame { increment, .. } => *left += increment,
        }
        self.running = Some((player.opponent(), now));
    }

    /// Which side, if any, runs now.
    #[must_use]
    pub fn running(&self) -> Option<Player> {
        self.running.map(|(player, _)| player)
    }

    /// The time `player` has left at `now`.
    #[must_use]
    pub fn left(&self, player: Player, now: Instant) -> Duration {
        let stored = self.left[player.index()];
        match self.running {
            Some((runner, since)) if runner == player => stored.saturating_sub(now.saturating_duration_since(since)),
            _ => stored,
        }
    }

    /// The side whose time has run out by `now`, if one has (its clock is stopped then).
    pub fn flag(&mut self, now: Instant) -> Option<Player> {
        if let Some((player, _)) = self.running
            && self.left(player, now).is_zero()
        {
            self.stop(now);
        }
        self.flag
    }

    /// The side whose time ran out, as last seen.
    #[must_use]
    pub fn flagged(&self) -> Option<Player> {
        self.flag
    }

    /// The most a program playing `player` should spend on this move, at `now`, with about `moves_left` of its own
    /// moves to come: per move, the move's time less a margin for the answer to arrive; per game, an equal share
    /// of the time left plus most of the increment, never more than a third of what is left.
    #[must_use]
    pub fn budget(&self, player: Player, now: Instant, moves_left: usize) -> Duration {
        let left = self.left(player, now);
        let margin = (left / 20).clamp(Duration::from_millis(50), Duration::from_millis(500));
        let usable = left.saturating_sub(margin);
        let share = match self.control {
            TimeControl::PerMove(_) => usable,
            TimeControl::PerGame { increment, .. } => {
                (usable / moves_left.max(1) as u32 + increment * 4 / 5).min(usable / 3)
            }
        };
        share.max(Duration::from_millis(10))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn a_game_clock_runs_for_the_side_to_move_and_adds_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::PerGame { base: 60 * S, increment: 2 * S });
        clock.start(Player::First, t0);
        assert_eq!(clock.left(Player::First, t0 + 10 * S), 50 * S);
        assert_eq!(clock.left(Player::Second, t0 + 10 * S), 60 * S, "White's clock waits");
        clock.moved(Player::First, t0 + 10 * S);
        assert_eq!(clock.left(Player::First, t0 + 30 * S), 52 * S, "50 left, plus 2");
        assert_eq!(clock.left(Player::Second, t0 + 30 * S), 40 * S);
        assert_eq!(clock.running(), Some(Player::Second));
        clock.stop(t0 + 30 * S);
        assert_eq!(clock.left(Player::Second, t0 + 90 * S), 40 * S, "a pause stops both clocks");
        clock.start(Player::Second, t0 + 90 * S);
        assert_eq!(clock.flag(t0 + 129 * S), None);
        assert_eq!(clock.flag(t0 + 131 * S), Some(Player::Second), "White's 40 s ran out");
        assert_eq!(clock.left(Player::Second, t0 + 200 * S), Duration::ZERO);
        assert_eq!(clock.running(), None);
        clock.moved(Player::Second, t0 + 140 * S);
        assert_eq!(clock.flagged(), Some(Player::Second), "a move after the flag does not save the game");
        clock.start(Player::First, t0 + 141 * S);
        assert_eq!(clock.running(), None, "nothing runs after a flag");
    }

    #[test]
    fn a_resumed_clock_keeps_what_each_side_had_left() {
        let t0 = Instant::now();
        let control = TimeControl::PerGame { base: 60 * S, increment: Duration::ZERO };
        let clock = Clock::resume(control, [12 * S, 40 * S]);
        assert_eq!((clock.left(Player::First, t0), clock.left(Player::Second, t0)), (12 * S, 40 * S));
        assert_eq!((clock.running(), clock.flagged()), (None, None));
        assert_eq!(Clock::resume(control, [Duration::ZERO, S]).flagged(), Some(Player::First), "a lost flag stands");
    }

    #[test]
    fn a_move_clock_is_full_again_for_every_move() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::PerMove(5 * S));
        clock.start(Player::First, t0);
        clock.moved(Player::First, t0 + 4 * S);
        assert_eq!(clock.left(Player::First, t0 + 4 * S), 5 * S);
        assert_eq!(clock.left(Player::Second, t0 + 6 * S), 3 * S);
        assert_eq!(clock.flag(t0 + 9 * S + Duration::from_millis(1)), Some(Player::Second));
    }

    #[test]
    fn a_program_spends_a_share_of_its_time_and_keeps_a_margin() {
        let t0 = Instant::now();
        let per_move = Clock::new(TimeControl::PerMove(2 * S));
        assert_eq!(per_move.budget(Player::First, t0, 30), Duration::from_millis(1900));
        let game = Clock::new(TimeControl::PerGame { base: 300 * S, increment: Duration::ZERO });
        let budget = game.budget(Player::First, t0, 30);
        assert!(budget > 9 * S && budget < 10 * S, "{budget:?}");
        let blitz = Clock::new(TimeControl::PerGame { base: 3 * S, increment: 2 * S });
        let budget = blitz.budget(Player::Second, t0, 30);
        assert!(budget <= S, "at most a third of what is left: {budget:?}");
        let mut flagged = Clock::new(TimeControl::PerMove(S));
        flagged.start(Player::First, t0);
        assert_eq!(flagged.budget(Player::First, t0 + 2 * S, 10), Duration::from_millis(10), "never nothing");
    }

    #[test]
    fn clocks_read_as_players_expect() {
        assert_eq!(clock_text(Duration::from_millis(9_450)), "0:09.4");
        assert_eq!(clock_text(75 * S), "1:15");
        assert_eq!(clock_text(3_725 * S), "1:02:05");
        assert_eq!(TimeControl::PerMove(5 * S).to_string(), "5 s a move");
        let blitz = TimeControl::PerGame { base: 300 * S, increment: 3 * S };
        assert_eq!(blitz.to_string(), "5 min a game + 3 s a move");
        let sudden = TimeControl::PerGame { base: 90 * S, increment: Duration::ZERO };
        assert_eq!(sudden.to_string(), "90 s a game");
    }
}
