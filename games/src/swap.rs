//! Swap openings: one person places the first stones of both colours and the other then chooses a colour, so an
//! opener who places too strong a start gets the worse side (Gomoku's Swap and Swap2, the rule of the Gomoku world
//! championships and of Gomocup's swap tournaments).
//!
//! A procedure speaks of persons, not colours: the *opener* sits at Black when the game starts and the *responder*
//! at White. Until the colours are settled the procedure says who places the next stone, of whichever colour the
//! game's turn gives, and who must choose; afterwards each colour's player moves as in any game. The choices made
//! are kept beside the moves ([`Decision`]), so that undo, redo and saves treat them like moves.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabula_core::{Level, Player, SearchResult};

use crate::board::BoardGame;
use crate::engine::Engine;

/// A swap opening procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Procedure {
    /// The opener places three stones (Black, White, Black); the responder then plays White or takes Black.
    Swap,
    /// The opener places three stones; the responder plays White, takes Black, or places two more stones (White,
    /// Black) and leaves the choice of colour to the opener.
    Swap2,
}

/// A player of a swap opening, by role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Person {
    /// Who places the first three stones: seated at Black when the game starts.
    Opener,
    /// Who answers them: seated at White when the game starts.
    Responder,
}

impl Person {
    /// The index of the person's seat in a [`crate::setup::GameSetup`]: 0 the opener (the form's Black), 1 the
    /// responder.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Person::Opener => 0,
            Person::Responder => 1,
        }
    }
}

/// What a person may choose when a procedure asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Play Black from here.
    Black,
    /// Play White from here.
    White,
    /// Place two more stones (White, then Black) and let the opener choose the colour (Swap2 only).
    PlaceTwo,
}

impl Choice {
    /// The stable identifier used in saves.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Choice::Black => "black",
            Choice::White => "white",
            Choice::PlaceTwo => "place-two",
        }
    }

    /// The choice with this identifier.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Choice> {
        [Choice::Black, Choice::White, Choice::PlaceTwo].into_iter().find(|c| c.id() == id)
    }

    /// What the choice does, as a button says it.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Choice::Black => "Play Black",
            Choice::White => "Play White",
            Choice::PlaceTwo => "Place two more stones",
        }
    }
}

/// A choice made, and with how many stones on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Decision {
    /// Stones on the board when it was made.
    pub ply: usize,
    /// What was chosen.
    pub choice: Choice,
}

/// What the procedure waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// This person places the next stone (of the colour whose turn it is).
    Place(Person),
    /// This person chooses one of these.
    Choose(Person, &'static [Choice]),
    /// The colours are settled: each colour's player moves.
    Play,
}

/// A choice the procedure does not allow now.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SwapError {
    /// Nothing is to be chosen now.
    #[error("no choice is due now: {0}")]
    NotNow(&'static str),
    /// Not one of the choices offered.
    #[error("{} is not one of the choices now ({})", .choice.label(), .offered.iter().map(|c| c.label()).collect::<Vec<_>>().join(", "))]
    NotOffered {
        /// What was asked for.
        choice: Choice,
        /// What may be chosen.
        offered: &'static [Choice],
    },
}

/// The stones the opener places before the first choice.
const OPENING_STONES: usize = 3;
/// Stones on the board after Swap2's two more.
const AFTER_TWO_MORE: usize = 5;

const SWAP_CHOICES: &[Choice] = &[Choice::White, Choice::Black];
const SWAP2_CHOICES: &[Choice] = &[Choice::White, Choice::Black, Choice::PlaceTwo];
const FINAL_CHOICES: &[Choice] = &[Choice::Black, Choice::White];

impl Procedure {
    /// What the procedure waits for with `ply` stones on the board after the decisions `made`.
    #[must_use]
    pub fn step(self, ply: usize, made: &[Decision]) -> Step {
        match (self, made) {
            (_, []) if ply < OPENING_STONES => Step::Place(Person::Opener),
            (Procedure::Swap, []) => Step::Choose(Person::Responder, SWAP_CHOICES),
            (Procedure::Swap2, []) => Step::Choose(Person::Responder, SWAP2_CHOICES),
            (Procedure::Swap2, [first]) if first.choice == Choice::PlaceTwo => {
                if ply < AFTER_TWO_MORE {
                    Step::Place(Person::Responder)
                } else {
                    Step::Choose(Person::Opener, FINAL_CHOICES)
                }
            }
            _ => Step::Play,
        }
    }

    /// Checks that `choice` may be made now.
    pub fn check(self, ply: usize, made: &[Decision], choice: Choice) -> Result<(), SwapError> {
        match self.step(ply, made) {
            Step::Choose(_, offered) if offered.contains(&choice) => Ok(()),
            Step::Choose(_, offered) => Err(SwapError::NotOffered { choice, offered }),
            Step::Place(Person::Opener) => Err(SwapError::NotNow("the opener is placing the first three stones")),
            Step::Place(Person::Responder) => Err(SwapError::NotNow("the responder is placing two more stones")),
            Step::Play => Err(SwapError::NotNow("the colours are settled")),
        }
    }

    /// Whether the decisions `made` gave the opener White (and the responder Black).
    #[must_use]
    pub fn swapped(self, made: &[Decision]) -> bool {
        let mut chooser = Person::Responder;
        let mut swapped = false;
        for d in made {
            match d.choice {
                Choice::PlaceTwo => chooser = Person::Opener,
                Choice::Black => swapped = chooser == Person::Responder,
                Choice::White => swapped = chooser == Person::Opener,
            }
        }
        swapped
    }

    /// Who acts now: places the next stone, chooses, or (once the colours are settled) holds the colour `to_move`.
    #[must_use]
    pub fn actor(self, ply: usize, made: &[Decision], to_move: Player) -> Person {
        match self.step(ply, made) {
            Step::Place(person) | Step::Choose(person, _) => person,
            Step::Play => self.holder(made, to_move),
        }
    }

    /// Who holds `colour` after the decisions `made` (before any, the opener holds Black).
    #[must_use]
    pub fn holder(self, made: &[Decision], colour: Player) -> Person {
        match (colour, self.swapped(made)) {
            (Player::First, false) | (Player::Second, true) => Person::Opener,
            _ => Person::Responder,
        }
    }
}

/// An advantage (from -1, lost, to 1, won) within which a position counts as balanced when a program decides.
pub const BALANCED: f32 = 0.2;

/// A program's choice from `offered`, given the `advantage` of the colour `to_move` in the position as its search
/// judges it: take the colour with the better prospect, or, where it may and the position is balanced, place two
/// more stones and hand the choice back.
#[must_use]
pub fn decide(offered: &[Choice], to_move: Player, advantage: f32) -> Choice {
    if offered.contains(&Choice::PlaceTwo) && advantage.abs() < BALANCED {
        return Choice::PlaceTwo;
    }
    let better = if advantage >= 0.0 { to_move } else { to_move.opponent() };
    if better == Player::First { Choice::Black } else { Choice::White }
}

/// Moves weighed for each opening stone a program places.
const STONE_LINES: usize = 6;

/// The level a program places one opening stone with: `level`'s search shared among the lines it weighs.
fn stone_level(level: &Level) -> Level {
    Level { time_ms: level.time_ms.map(|t| (t / STONE_LINES as u64).max(1)), randomness: 0, ..level.clone() }
}

/// How much further from even than the most balanced move an opening stone may leave the position, in advantage.
const STONE_SPREAD: f32 = 0.1;

/// The opening stone a program places in `state` for a swap procedure: of the best few moves at `level`, one that
/// leaves the position closest to even (within [`STONE_SPREAD`], chosen by `seed`, so that openings vary), since
/// the other player will choose a colour after it.
pub fn opening_stone<G: BoardGame>(
    engine: &mut Engine<G>,
    state: &G::State,
    level: &Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> Option<SearchResult<G::Move>> {
    let lines = engine.think_lines(state, &stone_level(level), seed, stop, STONE_LINES, &mut |_| {});
    let game = engine.game();
    let balance = |r: &SearchResult<G::Move>| game.advantage(r.score, r.exact).abs();
    let mut lines: Vec<_> = lines.into_iter().filter(|r| r.best_move.is_some()).collect();
    let best = lines.iter().map(balance).fold(f32::INFINITY, f32::min);
    lines.retain(|r| balance(r) <= best + STONE_SPREAD);
    let pick = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % lines.len().max(1);
    (!lines.is_empty()).then(|| lines.swap_remove(pick))
}

/// A program's choice among `offered` in `state` after a search at `level` ([`decide`]), with the search.
pub fn program_choice<G: BoardGame>(
    engine: &mut Engine<G>,
    state: &G::State,
    offered: &[Choice],
    level: &Level,
    seed: u64,
    stop: Option<Arc<AtomicBool>>,
) -> (Choice, SearchResult<G::Move>) {
    let result = engine.think(state, level, seed, stop, &mut |_| {});
    let game = engine.game();
    let choice = decide(offered, game.side_to_move(state), game.advantage(result.score, result.exact));
    (choice, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ply: usize, choice: Choice) -> Decision {
        Decision { ply, choice }
    }

    #[test]
    fn swap_the_opener_places_three_then_the_responder_chooses_a_colour() {
        let p = Procedure::Swap;
        for ply in 0..3 {
            assert_eq!(p.step(ply, &[]), Step::Place(Person::Opener), "stone {}", ply + 1);
            assert_eq!(p.actor(ply, &[], if ply % 2 == 0 { Player::First } else { Player::Second }), Person::Opener);
            assert!(p.check(ply, &[], Choice::Black).is_err(), "no choice before the third stone");
        }
        assert_eq!(p.step(3, &[]), Step::Choose(Person::Responder, &[Choice::White, Choice::Black]));
        assert!(matches!(p.check(3, &[], Choice::PlaceTwo), Err(SwapError::NotOffered { .. })));
        // Staying White: the responder places the fourth stone and the colours are as they started.
        let stay = [at(3, Choice::White)];
        assert_eq!(p.step(3, &stay), Step::Play);
        assert!(!p.swapped(&stay));
        assert_eq!(p.actor(3, &stay, Player::Second), Person::Responder);
        assert_eq!(p.actor(4, &stay, Player::First), Person::Opener);
        // Taking Black: the opener now plays White, and so the fourth stone.
        let take = [at(3, Choice::Black)];
        assert!(p.swapped(&take));
        assert_eq!(p.actor(3, &take, Player::Second), Person::Opener);
        assert_eq!(p.actor(4, &take, Player::First), Person::Responder);
        assert!(p.check(3, &take, Choice::White).is_err(), "one choice only");
    }

    #[test]
    fn swap2_two_more_stones_hand_the_choice_back_to_the_opener() {
        let p = Procedure::Swap2;
        assert_eq!(p.step(3, &[]), Step::Choose(Person::Responder, SWAP2_CHOICES));
        let two = [at(3, Choice::PlaceTwo)];
        assert_eq!(p.step(3, &two), Step::Place(Person::Responder), "the fourth stone, White's");
        assert_eq!(p.step(4, &two), Step::Place(Person::Responder), "the fifth, Black's");
        assert!(p.check(4, &two, Choice::Black).is_err());
        assert_eq!(p.step(5, &two), Step::Choose(Person::Opener, &[Choice::Black, Choice::White]));
        assert!(p.check(5, &two, Choice::PlaceTwo).is_err(), "only once");
        // The opener keeps Black: the responder plays White's sixth stone.
        let keep = [at(3, Choice::PlaceTwo), at(5, Choice::Black)];
        assert_eq!(p.step(5, &keep), Step::Play);
        assert!(!p.swapped(&keep));
        assert_eq!(p.actor(5, &keep, Player::Second), Person::Responder);
        // The opener takes White and plays the sixth stone.
        let white = [at(3, Choice::PlaceTwo), at(5, Choice::White)];
        assert!(p.swapped(&white));
        assert_eq!(p.actor(5, &white, Player::Second), Person::Opener);
        assert_eq!(p.holder(&white, Player::First), Person::Responder);
        // Or the responder simply takes Black at once.
        assert!(p.swapped(&[at(3, Choice::Black)]));
        assert_eq!(p.step(3, &[at(3, Choice::Black)]), Step::Play);
    }

    #[test]
    fn a_program_takes_the_better_colour_or_hands_a_balanced_position_back() {
        assert_eq!(decide(SWAP_CHOICES, Player::Second, 0.5), Choice::White);
        assert_eq!(decide(SWAP_CHOICES, Player::Second, -0.5), Choice::Black);
        assert_eq!(decide(SWAP_CHOICES, Player::Second, 0.05), Choice::White, "Swap has no third way");
        assert_eq!(decide(SWAP2_CHOICES, Player::Second, 0.05), Choice::PlaceTwo);
        assert_eq!(decide(SWAP2_CHOICES, Player::Second, -0.6), Choice::Black);
        assert_eq!(decide(FINAL_CHOICES, Player::Second, -0.05), Choice::Black);
        assert_eq!(Choice::from_id(Choice::PlaceTwo.id()), Some(Choice::PlaceTwo));
        assert_eq!(Choice::from_id("red"), None);
    }
}
