//! The Othello flip animation: each flipped disc turns over about its vertical axis, seen edge-on half way, the
//! turn spreading outward from the placed disc.

use std::time::{Duration, Instant};

use tabula_core::Player;
use tabula_games::{Cell, MoveReport};

/// Discs turning over after one move.
#[derive(Clone, Debug, PartialEq)]
pub struct FlipAnimation {
    started: Instant,
    flip_time: Duration,
    /// Each flipped cell with the delay before it starts turning.
    flips: Vec<(Cell, Duration)>,
    /// The colour the discs had.
    from: Player,
}

/// How far a disc has turned, for drawing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiscPose {
    /// The colour showing.
    pub colour: Player,
    /// The disc's apparent width as a fraction of its diameter: 1 face-on, 0 edge-on.
    pub width: f32,
}

impl FlipAnimation {
    /// The animation of `report`'s flips starting at `now`, one disc taking `flip_time`, or `None` if nothing
    /// flipped.
    #[must_use]
    pub fn new(report: &MoveReport, flip_time: Duration, now: Instant) -> Option<FlipAnimation> {
        let placed = report.placed?;
        let mover = report.player?;
        if report.flipped.is_empty() {
            return None;
        }
        let stagger = flip_time.mul_f32(0.45);
        let flips = report
            .flipped
            .iter()
            .map(|&cell| {
                let distance = placed.x.abs_diff(cell.x).max(placed.y.abs_diff(cell.y)).max(1);
                (cell, stagger * (distance as u32 - 1))
            })
            .collect();
        Some(FlipAnimation { started: now, flip_time, flips, from: mover.opponent() })
    }

    /// The pose of the disc on `cell` at `now`, or `None` when `cell` is not turning (any more).
    #[must_use]
    pub fn pose(&self, cell: Cell, now: Instant) -> Option<DiscPose> {
        let &(_, delay) = self.flips.iter().find(|(c, _)| *c == cell)?;
        let elapsed = now.saturating_duration_since(self.started);
        let t = elapsed.saturating_sub(delay).as_secs_f32() / self.flip_time.as_secs_f32();
        if t >= 1.0 {
            return None;
        }
        let angle = t * std::f32::consts::PI;
        let colour = if t < 0.5 { self.from } else { self.from.opponent() };
        Some(DiscPose { colour, width: angle.cos().abs() })
    }

    /// Whether every disc has finished turning at `now`.
    #[must_use]
    pub fn is_done(&self, now: Instant) -> bool {
        let longest = self.flips.iter().map(|(_, d)| *d).max().unwrap_or_default() + self.flip_time;
        now.saturating_duration_since(self.started) >= longest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> MoveReport {
        MoveReport {
            player: Some(Player::First),
            placed: Some(Cell::new(2, 2)),
            flipped: vec![Cell::new(3, 2), Cell::new(4, 2), Cell::new(2, 3)],
            winning_line: vec![],
        }
    }

    #[test]
    fn discs_turn_edge_on_half_way_and_spread_outward() {
        let start = Instant::now();
        let time = Duration::from_millis(400);
        let anim = FlipAnimation::new(&report(), time, start).expect("flips");
        let near = anim.pose(Cell::new(3, 2), start).expect("turning");
        assert_eq!(near, DiscPose { colour: Player::Second, width: 1.0 });
        let mid = anim.pose(Cell::new(3, 2), start + time / 2).expect("turning");
        assert!(mid.width < 0.05, "{mid:?}");
        let late = anim.pose(Cell::new(3, 2), start + time.mul_f32(0.75)).expect("turning");
        assert_eq!(late.colour, Player::First);
        let far = anim.pose(Cell::new(4, 2), start + time.mul_f32(0.3)).expect("waiting");
        assert_eq!(far, DiscPose { colour: Player::Second, width: 1.0 }, "the farther disc starts later");
        assert_eq!(anim.pose(Cell::new(0, 0), start), None);
        assert!(!anim.is_done(start + time));
        assert!(anim.is_done(start + time * 2));
    }

    #[test]
    fn nothing_to_animate_without_flips() {
        let mut quiet = report();
        quiet.flipped.clear();
        assert_eq!(FlipAnimation::new(&quiet, Duration::from_millis(100), Instant::now()), None);
    }
}

/// A refused move: the cell blinks red a few times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IllegalFlash {
    /// The refused cell.
    pub cell: Cell,
    started: Instant,
}

impl IllegalFlash {
    /// How long the blinking lasts.
    pub const DURATION: Duration = Duration::from_millis(900);

    /// A flash of `cell` starting at `now`.
    #[must_use]
    pub fn new(cell: Cell, now: Instant) -> IllegalFlash {
        IllegalFlash { cell, started: now }
    }

    /// How strongly the cell shows at `now`, from 0 to 1: three blinks fading out.
    #[must_use]
    pub fn strength(&self, now: Instant) -> f32 {
        let t = now.saturating_duration_since(self.started).as_secs_f32() / IllegalFlash::DURATION.as_secs_f32();
        if t >= 1.0 {
            return 0.0;
        }
        let blink = (t * 3.0 * std::f32::consts::PI).cos().abs();
        blink * (1.0 - t * 0.5)
    }

    /// Whether the blinking has ended at `now`.
    #[must_use]
    pub fn is_done(&self, now: Instant) -> bool {
        now.saturating_duration_since(self.started) >= IllegalFlash::DURATION
    }
}
