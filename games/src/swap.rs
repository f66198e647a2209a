//! Swap openings: one person places the first stones of both colours and the other then chooses a colour, so an
//! opener who places too strong a start gets the worse side (Gomoku's Swap and Swap2, the rule of the Gomoku world
//! championships and of Gomocup's swap tournaments, and Renju's Taraguchi-10, a rule of the RIF: a choice after
//! every one of the first five stones, each inside a growing central square, or ten fifth stones offered).
//!
//! A procedure speaks of persons, not colours: the *opener* sits at Black when the game starts and the *responder*
//! at White. Until the colours are settled the procedure says who places the next stone, of whichever colour the
//! game's turn gives, and who must choose; afterwards each colour's player moves as in any game. The choices made
//! are kept beside the moves ([`Decision`]), so that undo, redo and saves treat them like moves.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabula_core::{Level, Player, SearchResult};

use crate::board::{BoardGame, Cell};
use crate::engine::Engine;

/// A swap opening procedure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Procedure {
    /// The opener places three stones (Black, White, Black); the responder then plays White or takes Black.
    Swap,
    /// The opener places three stones; the responder plays White, takes Black, or places two more stones (White,
    /// Black) and leaves the choice of colour to the opener.
    Swap2,
    /// Renju's Taraguchi-10: Black's first stone on the centre, the next three inside the central 3x3, 5x5 and
    /// 7x7 squares, each placed by whoever holds its colour and followed by the other player's right to swap.
    /// After the fourth, Black's holder swaps or keeps the colours (then the fifth stone goes inside the central
    /// 9x9, and White's holder may swap once more), or offers ten fifth stones, no two alike by the position's
    /// symmetry, of which White's holder picks one and plays on.
    Taraguchi10,
}

/// Where a procedure lets the next stone go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Area {
    /// On any empty cell.
    Anywhere,
    /// Inside the square of this side around the board's centre (1: the centre itself).
    Central(usize),
}

impl Area {
    /// Whether `cell` lies inside the area on a board of `size` (columns, rows).
    #[must_use]
    pub fn contains(self, size: (usize, usize), cell: Cell) -> bool {
        match self {
            Area::Anywhere => true,
            Area::Central(side) => {
                let reach = side / 2;
                cell.x.abs_diff(size.0 / 2) <= reach && cell.y.abs_diff(size.1 / 2) <= reach
            }
        }
    }

    /// The corners (top left, bottom right) of the area on a board of `size`, for the board to shade; `None` for
    /// the whole board.
    #[must_use]
    pub fn corners(self, size: (usize, usize)) -> Option<(Cell, Cell)> {
        let Area::Central(side) = self else { return None };
        let reach = side / 2;
        let (cx, cy) = (size.0 / 2, size.1 / 2);
        let near = Cell::new(cx.saturating_sub(reach), cy.saturating_sub(reach));
        Some((near, Cell::new((cx + reach).min(size.0 - 1), (cy + reach).min(size.1 - 1))))
    }

    /// The area in words, after "the stone goes": for prompts and errors.
    #[must_use]
    pub fn words(self) -> String {
        match self {
            Area::Anywhere => "anywhere".into(),
            Area::Central(1) => "on the centre".into(),
            Area::Central(side) => format!("inside the central {side}x{side} square"),
        }
    }
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
    /// The other person.
    #[must_use]
    pub fn other(self) -> Person {
        match self {
            Person::Opener => Person::Responder,
            Person::Responder => Person::Opener,
        }
    }

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
    /// Offer fifth stones, of which the other player picks one (Taraguchi-10 only).
    Offer,
    /// One of the offered fifth stones, on this cell.
    Mark(Cell),
}

impl Choice {
    /// The stable identifier used in saves (a mark's cell follows it, in the game's notation).
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            Choice::Black => "black",
            Choice::White => "white",
            Choice::PlaceTwo => "place-two",
            Choice::Offer => "offer",
            Choice::Mark(_) => MARK_ID,
        }
    }

    /// The choice with this identifier; a mark, which needs its cell, is not read here.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Choice> {
        [Choice::Black, Choice::White, Choice::PlaceTwo, Choice::Offer].into_iter().find(|c| c.id() == id)
    }

    /// What the choice does, as a button says it.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Choice::Black => "Play Black",
            Choice::White => "Play White",
            Choice::PlaceTwo => "Place two more stones",
            Choice::Offer => "Offer ten fifth stones",
            Choice::Mark(_) => "Offer this fifth stone",
        }
    }
}

/// The id of [`Choice::Mark`], which saves follow with the cell.
pub const MARK_ID: &str = "mark";

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
    /// This person places the next stone (of the colour whose turn it is) in this area.
    Place(Person, Area),
    /// This person chooses one of these.
    Choose(Person, &'static [Choice]),
    /// This person marks the offered stones ([`Choice::Mark`]) until there are this many.
    Offer(Person, usize),
    /// This person picks one of the offered stones as the next move.
    Pick(Person),
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
const FOURTH_CHOICES: &[Choice] = &[Choice::Black, Choice::White, Choice::Offer];

/// The fifth stones Taraguchi-10 offers.
pub const TARAGUCHI_OFFERS: usize = 10;
/// Stones placed one by one inside growing central squares under Taraguchi-10 before the fifth.
const TARAGUCHI_FOURTH: usize = 4;

impl Procedure {
    /// What the procedure waits for with `ply` stones on the board after the decisions `made`.
    #[must_use]
    pub fn step(self, ply: usize, made: &[Decision]) -> Step {
        if self == Procedure::Taraguchi10 {
            return self.taraguchi_step(ply, made);
        }
        match (self, made) {
            (_, []) if ply < OPENING_STONES => Step::Place(Person::Opener, Area::Anywhere),
            (Procedure::Swap, []) => Step::Choose(Person::Responder, SWAP_CHOICES),
            (Procedure::Swap2, []) => Step::Choose(Person::Responder, SWAP2_CHOICES),
            (Procedure::Swap2, [first]) if first.choice == Choice::PlaceTwo => {
                if ply < AFTER_TWO_MORE {
                    Step::Place(Person::Responder, Area::Anywhere)
                } else {
                    Step::Choose(Person::Opener, FINAL_CHOICES)
                }
            }
            _ => Step::Play,
        }
    }

    /// Taraguchi-10's step: after each of the first five stones the holder of the colour to move may swap (after
    /// the fourth, or offer fifth stones); each stone goes inside its central square.
    fn taraguchi_step(self, ply: usize, made: &[Decision]) -> Step {
        let to_move = if ply.is_multiple_of(2) { Player::First } else { Player::Second };
        let mover = self.holder(made, to_move);
        let chosen =
            made.iter().any(|d| d.ply == ply && matches!(d.choice, Choice::Black | Choice::White | Choice::Offer));
        let offered = made.iter().any(|d| d.choice == Choice::Offer);
        match ply {
            0 => Step::Place(mover, Area::Central(1)),
            _ if offered && ply == TARAGUCHI_FOURTH => {
                let marks = made.iter().filter(|d| matches!(d.choice, Choice::Mark(_))).count();
                if marks < TARAGUCHI_OFFERS { Step::Offer(mover, TARAGUCHI_OFFERS) } else { Step::Pick(mover.other()) }
            }
            _ if offered => Step::Play,
            1..=3 if !chosen => Step::Choose(mover, FINAL_CHOICES),
            TARAGUCHI_FOURTH if !chosen => Step::Choose(mover, FOURTH_CHOICES),
            1..=TARAGUCHI_FOURTH => Step::Place(mover, Area::Central(2 * ply + 1)),
            5 if !chosen => Step::Choose(mover, FINAL_CHOICES),
            _ => Step::Play,
        }
    }

    /// Checks that `choice` may be made now, as far as the procedure knows: whether a marked cell is free and
    /// unlike the other marks is the game's to check ([`twins`]).
    pub fn check(self, ply: usize, made: &[Decision], choice: Choice) -> Result<(), SwapError> {
        match self.step(ply, made) {
            Step::Choose(_, offered) if offered.contains(&choice) => Ok(()),
            Step::Choose(_, offered) => Err(SwapError::NotOffered { choice, offered }),
            Step::Offer(..) if matches!(choice, Choice::Mark(_)) => Ok(()),
            Step::Offer(..) => Err(SwapError::NotNow("the offered fifth stones are being marked")),
            Step::Pick(_) => Err(SwapError::NotNow("one of the offered fifth stones is to be played")),
            Step::Place(..) => Err(SwapError::NotNow("a stone of the opening is to be placed")),
            Step::Play => Err(SwapError::NotNow("the colours are settled")),
        }
    }

    /// The cells marked as offered stones so far.
    #[must_use]
    pub fn marks(made: &[Decision]) -> Vec<Cell> {
        made.iter()
            .filter_map(|d| match d.choice {
                Choice::Mark(cell) => Some(cell),
                _ => None,
            })
            .collect()
    }

    /// Whether the decisions `made` gave the opener White (and the responder Black): the last colour chosen
    /// counts, by whoever chose it.
    #[must_use]
    pub fn swapped(self, made: &[Decision]) -> bool {
        let mut swapped = false;
        for (i, d) in made.iter().enumerate() {
            if let (Choice::Black | Choice::White, Step::Choose(chooser, _)) = (d.choice, self.step(d.ply, &made[..i]))
            {
                swapped = (chooser == Person::Opener) != (d.choice == Choice::Black);
            }
        }
        swapped
    }

    /// Who acts now: places the next stone, chooses, or (once the colours are settled) holds the colour `to_move`.
    #[must_use]
    pub fn actor(self, ply: usize, made: &[Decision], to_move: Player) -> Person {
        match self.step(ply, made) {
            Step::Place(person, _) | Step::Choose(person, _) | Step::Offer(person, _) | Step::Pick(person) => person,
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

/// The advantage Black's side must have, by a program's search, for it to offer fifth stones rather than keep
/// the right to swap: offered stones keep Black, and the other player picks the weakest of them.
pub const OFFER_MARGIN: f32 = 0.5;

/// A program's choice from `offered`, given the `advantage` of the colour `to_move` in the position as its search
/// judges it: offer fifth stones where it may and the position is clearly its own, place two more stones and
/// hand the choice back where it may and the position is balanced, otherwise take the colour with the better
/// prospect.
#[must_use]
pub fn decide(offered: &[Choice], to_move: Player, advantage: f32) -> Choice {
    if offered.contains(&Choice::Offer) && advantage > OFFER_MARGIN {
        return Choice::Offer;
    }
    if offered.contains(&Choice::PlaceTwo) && advantage.abs() < BALANCED {
        return Choice::PlaceTwo;
    }
    let better = if advantage >= 0.0 { to_move } else { to_move.opponent() };
    if better == Player::First { Choice::Black } else { Choice::White }
}

/// Moves weighed for each opening stone a program places.
const STONE_LINES: usize = 6;

/// `level`'s search shared among `parts` searches.
fn share(level: &Level, parts: usize) -> Level {
    Level { time_ms: level.time_ms.map(|t| (t / parts.max(1) as u64).max(1)), randomness: 0, ..level.clone() }
}

/// How much further from even than the most balanced move an opening stone may leave the position, in advantage.
const STONE_SPREAD: f32 = 0.1;

/// The legal moves of `state` that place a stone outside `area` or on one of the `cells`: what a program's search
/// leaves out.
fn excluded_moves<G: BoardGame>(game: &G, state: &G::State, area: Area, cells: &[Cell]) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let size = game.board_size();
    moves.retain(|&m| game.cell_of(m).is_none_or(|c| !area.contains(size, c) || cells.contains(&c)));
    moves
}

/// A search result for `mv` alone, when the search found no line inside the area (a position its move
/// generator saw no reason to play there).
fn bare<M>(mv: M) -> SearchResult<M> {
    SearchResult {
        best_move: Some(mv),
        score: 0,
        depth: 0,
        pv: Vec::new(),
        nodes: 0,
        elapsed: std::time::Duration::ZERO,
        stopped: false,
        proven: false,
        exact: false,
    }
}

/// The first legal move inside `area` nearest the board's centre and off `cells`, for when the search found none.
fn nearest_inside<G: BoardGame>(game: &G, state: &G::State, area: Area, cells: &[Cell]) -> Option<G::Move> {
    let (w, h) = game.board_size();
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    moves
        .into_iter()
        .filter_map(|m| game.cell_of(m).map(|c| (c, m)))
        .filter(|&(c, _)| area.contains((w, h), c) && !cells.contains(&c))
        .min_by_key(|&(c, _)| (c.x.abs_diff(w / 2).max(c.y.abs_diff(h / 2)), c))
        .map(|(_, m)| m)
}

/// The cells that `cell` matches under the symmetries of the board (its reflections and rotations) that leave
/// every stone of `state` in place: an offered stone may not be one of another's twins, since the two would
/// give the same game.
#[must_use]
pub fn twins<G: BoardGame>(game: &G, state: &G::State, cell: Cell) -> Vec<Cell> {
    let (w, h) = game.board_size();
    let transforms: [fn(Cell, usize, usize) -> Cell; 8] = [
        |c, _, _| c,
        |c, w, _| Cell::new(w - 1 - c.x, c.y),
        |c, _, h| Cell::new(c.x, h - 1 - c.y),
        |c, w, h| Cell::new(w - 1 - c.x, h - 1 - c.y),
        |c, _, _| Cell::new(c.y, c.x),
        |c, w, h| Cell::new(w - 1 - c.y, h - 1 - c.x),
        |c, w, _| Cell::new(w - 1 - c.y, c.x),
        |c, _, h| Cell::new(c.y, h - 1 - c.x),
    ];
    let cells: Vec<Cell> = (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).collect();
    let mut found: Vec<Cell> = transforms
        .iter()
        .take(if w == h { 8 } else { 4 })
        .filter(|t| cells.iter().all(|&c| game.stone(state, c) == game.stone(state, t(c, w, h))))
        .map(|t| t(cell, w, h))
        .filter(|&c| c != cell)
        .collect();
    found.sort_unstable();
    found.dedup();
    found
}

/// A program taking its part in a swap opening: its engine, the level it plays at, the seed that varies its
/// opening stones, and the flag that stops its searches.
pub struct Program<'a, G: BoardGame> {
    /// The engine that searches.
    pub engine: &'a mut Engine<G>,
    /// The level of its searches (shared among the lines or offers a step weighs).
    pub level: &'a Level,
    /// The seed of its searches and of its pick among balanced stones.
    pub seed: u64,
    /// Stops its searches when set.
    pub stop: Option<Arc<AtomicBool>>,
}

impl<G: BoardGame> Program<'_, G> {
    /// The program's part at `step` of the opening in `state`, after the decisions `made`: a choice (a colour, an
    /// offer, a stone offered) with the search it rests on, or (without a choice) the search whose move is the
    /// stone to place or the offered stone to pick; `None` once the colours are settled or where no move is left.
    pub fn turn(
        &mut self,
        state: &G::State,
        step: Step,
        made: &[Decision],
    ) -> Option<(Option<Choice>, SearchResult<G::Move>)> {
        match step {
            Step::Choose(_, offered) => {
                let (choice, result) = self.choice(state, offered);
                Some((Some(choice), result))
            }
            Step::Place(_, area) => self.opening_stone(state, area).map(|r| (None, r)),
            Step::Offer(..) => {
                let result = self.offer_mark(state, &Procedure::marks(made))?;
                let cell = result.best_move.and_then(|m| self.engine.game().cell_of(m))?;
                Some((Some(Choice::Mark(cell)), result))
            }
            Step::Pick(_) => self.pick_offer(state, &Procedure::marks(made)).map(|r| (None, r)),
            Step::Play => None,
        }
    }

    /// The opening stone the program places in `state` inside `area`: of the best few moves at its level, one that
    /// leaves the position closest to even (within [`STONE_SPREAD`], chosen by the seed, so that openings vary),
    /// since the other player will choose a colour after it.
    pub fn opening_stone(&mut self, state: &G::State, area: Area) -> Option<SearchResult<G::Move>> {
        let game = self.engine.game().clone();
        let outside = excluded_moves(&game, state, area, &[]);
        let level = share(self.level, STONE_LINES);
        let lines =
            self.engine.think_lines(state, &level, self.seed, self.stop.clone(), STONE_LINES, &outside, &mut |_| {});
        let balance = |r: &SearchResult<G::Move>| game.advantage(r.score, r.exact).abs();
        let mut lines: Vec<_> = lines.into_iter().filter(|r| r.best_move.is_some()).collect();
        if lines.is_empty() {
            return nearest_inside(&game, state, area, &[]).map(bare);
        }
        let best = lines.iter().map(balance).fold(f32::INFINITY, f32::min);
        lines.retain(|r| balance(r) <= best + STONE_SPREAD);
        let pick = (self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize % lines.len();
        Some(lines.swap_remove(pick))
    }

    /// The next stone the program offers in `state` beside the `marks` already made: its best move at a share of
    /// its level that is neither marked nor a twin of a mark ([`twins`]), since the other player will pick the
    /// offer worst for it.
    pub fn offer_mark(&mut self, state: &G::State, marks: &[Cell]) -> Option<SearchResult<G::Move>> {
        let game = self.engine.game().clone();
        let taken: Vec<Cell> = marks.iter().flat_map(|&m| std::iter::once(m).chain(twins(&game, state, m))).collect();
        let excluded = excluded_moves(&game, state, Area::Anywhere, &taken);
        let level = share(self.level, TARAGUCHI_OFFERS);
        let result = self.engine.think_excluding(state, &level, self.seed, self.stop.clone(), &excluded, &mut |_| {});
        if result.best_move.is_some() {
            return Some(result);
        }
        nearest_inside(&game, state, Area::Anywhere, &taken).map(bare)
    }

    /// The offered stone the program picks in `state`: the one after which its own search (its level shared among
    /// the offers) likes the position best, with that search's line behind it and its score from the view of the
    /// side to move in `state`.
    pub fn pick_offer(&mut self, state: &G::State, marks: &[Cell]) -> Option<SearchResult<G::Move>> {
        let game = self.engine.game().clone();
        let per_offer = share(self.level, marks.len());
        let mut best: Option<SearchResult<G::Move>> = None;
        for &cell in marks {
            let Ok(mv) = game.move_at(state, cell) else { continue };
            let mut after = state.clone();
            game.make(&mut after, mv);
            let reply = self.engine.think(&after, &per_offer, self.seed, self.stop.clone(), &mut |_| {});
            let pv = std::iter::once(mv).chain(reply.pv.iter().copied()).collect();
            let result = SearchResult { best_move: Some(mv), score: -reply.score, pv, ..reply };
            if best.as_ref().is_none_or(|b| result.score < b.score) {
                best = Some(result);
            }
        }
        best
    }

    /// The program's choice among `offered` in `state` after a search at its level ([`decide`]), with the search.
    pub fn choice(&mut self, state: &G::State, offered: &[Choice]) -> (Choice, SearchResult<G::Move>) {
        let result = self.engine.think(state, self.level, self.seed, self.stop.clone(), &mut |_| {});
        let game = self.engine.game();
        let choice = decide(offered, game.side_to_move(state), game.advantage(result.score, result.exact));
        (choice, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::Game;

    fn at(ply: usize, choice: Choice) -> Decision {
        Decision { ply, choice }
    }

    #[test]
    fn swap_the_opener_places_three_then_the_responder_chooses_a_colour() {
        let p = Procedure::Swap;
        for ply in 0..3 {
            assert_eq!(p.step(ply, &[]), Step::Place(Person::Opener, Area::Anywhere), "stone {}", ply + 1);
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
        assert_eq!(p.step(3, &two), Step::Place(Person::Responder, Area::Anywhere), "the fourth stone, White's");
        assert_eq!(p.step(4, &two), Step::Place(Person::Responder, Area::Anywhere), "the fifth, Black's");
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
    fn taraguchi_10_a_swap_after_each_stone_inside_growing_squares() {
        let p = Procedure::Taraguchi10;
        assert_eq!(p.step(0, &[]), Step::Place(Person::Opener, Area::Central(1)), "Black's first on the centre");
        // After each stone the holder of the colour to move may swap; then that holder places the next stone.
        assert_eq!(p.step(1, &[]), Step::Choose(Person::Responder, FINAL_CHOICES));
        let mut made = vec![at(1, Choice::Black)];
        assert!(p.swapped(&made), "the responder took Black");
        assert_eq!(p.step(1, &made), Step::Place(Person::Opener, Area::Central(3)), "now White's holder");
        assert_eq!(p.step(2, &made), Step::Choose(Person::Responder, FINAL_CHOICES), "Black's holder may swap");
        made.push(at(2, Choice::Black));
        assert_eq!(p.step(2, &made), Step::Place(Person::Responder, Area::Central(5)));
        assert_eq!(p.step(3, &made), Step::Choose(Person::Opener, FINAL_CHOICES));
        made.push(at(3, Choice::Black));
        assert!(!p.swapped(&made), "the opener took Black back");
        assert_eq!(p.step(3, &made), Step::Place(Person::Responder, Area::Central(7)));
        assert_eq!(p.step(4, &made), Step::Choose(Person::Opener, FOURTH_CHOICES), "keep, swap or offer");
        assert!(p.check(4, &made, Choice::PlaceTwo).is_err());
        // Keeping Black: the fifth inside the 9x9, then White's holder may swap once more, then play.
        let mut keep = made.clone();
        keep.push(at(4, Choice::Black));
        assert_eq!(p.step(4, &keep), Step::Place(Person::Opener, Area::Central(9)));
        assert_eq!(p.step(5, &keep), Step::Choose(Person::Responder, FINAL_CHOICES));
        keep.push(at(5, Choice::White));
        assert_eq!(p.step(5, &keep), Step::Play);
        assert_eq!(p.actor(5, &keep, Player::Second), Person::Responder);
        // Offering: ten marks, then White's holder picks one and plays on; no more swaps.
        let mut offer = made.clone();
        offer.push(at(4, Choice::Offer));
        for i in 0..TARAGUCHI_OFFERS {
            assert_eq!(p.step(4, &offer), Step::Offer(Person::Opener, TARAGUCHI_OFFERS), "mark {}", i + 1);
            assert!(p.check(4, &offer, Choice::Black).is_err(), "only marks now");
            offer.push(at(4, Choice::Mark(Cell::new(i, 0))));
        }
        assert!(p.check(4, &offer, Choice::Mark(Cell::new(0, 1))).is_err(), "ten is all");
        assert_eq!(p.step(4, &offer), Step::Pick(Person::Responder));
        assert_eq!(Procedure::marks(&offer).len(), TARAGUCHI_OFFERS);
        assert_eq!(p.step(5, &offer), Step::Play);
        assert!(!p.swapped(&offer));
        assert_eq!(p.actor(5, &offer, Player::Second), Person::Responder);
    }

    #[test]
    fn areas_are_central_squares() {
        let size = (15, 15);
        assert!(Area::Central(1).contains(size, Cell::new(7, 7)));
        assert!(!Area::Central(1).contains(size, Cell::new(7, 8)));
        assert!(Area::Central(3).contains(size, Cell::new(8, 6)));
        assert!(!Area::Central(3).contains(size, Cell::new(9, 7)));
        assert!(Area::Central(9).contains(size, Cell::new(3, 11)) && !Area::Central(9).contains(size, Cell::new(2, 7)));
        assert!(Area::Anywhere.contains(size, Cell::new(0, 14)));
        assert_eq!(Area::Central(5).words(), "inside the central 5x5 square");
        assert_eq!(Area::Central(3).corners(size), Some((Cell::new(6, 6), Cell::new(8, 8))));
        assert_eq!(Area::Anywhere.corners(size), None);
    }

    #[test]
    fn twins_follow_the_symmetries_that_keep_the_stones() {
        let game = crate::gomoku::variants::from_rule_set("renju").expect("renju");
        let mut state = game.initial_state();
        let centre = game.move_at(&state, Cell::new(7, 7)).expect("legal");
        game.make(&mut state, centre);
        // One stone on the centre: all eight images of a cell are twins.
        assert_eq!(twins(&game, &state, Cell::new(8, 6)).len(), 3, "the diagonal neighbours");
        assert_eq!(twins(&game, &state, Cell::new(9, 6)).len(), 7);
        // A second stone beside it leaves the one mirror through the pair.
        let beside = game.move_at(&state, Cell::new(8, 7)).expect("legal");
        game.make(&mut state, beside);
        assert_eq!(twins(&game, &state, Cell::new(9, 6)), [Cell::new(9, 8)]);
        assert!(twins(&game, &state, Cell::new(9, 7)).is_empty(), "on the mirror line");
    }

    #[test]
    fn a_program_takes_the_better_colour_or_hands_a_balanced_position_back() {
        assert_eq!(decide(SWAP_CHOICES, Player::Second, 0.5), Choice::White);
        assert_eq!(decide(SWAP_CHOICES, Player::Second, -0.5), Choice::Black);
        assert_eq!(decide(SWAP_CHOICES, Player::Second, 0.05), Choice::White, "Swap has no third way");
        assert_eq!(decide(SWAP2_CHOICES, Player::Second, 0.05), Choice::PlaceTwo);
        assert_eq!(decide(SWAP2_CHOICES, Player::Second, -0.6), Choice::Black);
        assert_eq!(decide(FINAL_CHOICES, Player::Second, -0.05), Choice::Black);
        assert_eq!(decide(FOURTH_CHOICES, Player::First, 0.8), Choice::Offer, "Black is clearly better");
        assert_eq!(decide(FOURTH_CHOICES, Player::First, 0.3), Choice::Black);
        assert_eq!(decide(FOURTH_CHOICES, Player::First, -0.3), Choice::White);
        assert_eq!(Choice::from_id(Choice::PlaceTwo.id()), Some(Choice::PlaceTwo));
        assert_eq!(Choice::from_id("red"), None);
        assert_eq!(Choice::from_id(MARK_ID), None, "a mark needs its cell");
    }
}
