//! Readers and checkers for the shared Gomoku test data: Renju forbidden-point fixtures and VCF puzzles. The CLI's
//! `check-forbidden` and `check-vcf` and the test suite share them.

use std::collections::BTreeSet;
use std::time::Instant;

use tabula_core::Player;

use super::vcf::VcfSolver;
use super::{Forbidden, Gomoku, GomokuState, WinRule};
use crate::board::{BoardGame, Marker};

/// A point as `(x, y)`: column from the left, row from the top, 0-based.
pub type Xy = (usize, usize);

/// A fixture line that could not be read: the 1-based TAB-separated field and what was wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("field {field} ({name}): {message}")]
pub struct FieldError {
    /// The 1-based field number.
    pub field: usize,
    /// The field's name in the file header.
    pub name: &'static str,
    /// What was wrong.
    pub message: String,
}

fn field_error(field: usize, name: &'static str, message: impl Into<String>) -> FieldError {
    FieldError { field, name, message: message.into() }
}

/// Splits a data line into exactly `names.len()` TAB-separated fields; `None` for blank and comment lines.
fn fields<'a>(line: &'a str, names: &[&'static str]) -> Result<Option<Vec<&'a str>>, FieldError> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let parts: Vec<&str> = line.split('\t').collect();
    if parts.len() != names.len() {
        let message = format!("expected {} TAB-separated fields, found {}", names.len(), parts.len());
        let (field, name) = match names.get(parts.len()) {
            Some(missing) => (parts.len() + 1, *missing),
            None => (names.len() + 1, "extra field"),
        };
        return Err(field_error(field, name, message));
    }
    Ok(Some(parts))
}

/// Reads `x,y` (0-based) below `limit`.
fn parse_xy(text: &str, limit: usize) -> Option<Xy> {
    let (x, y) = text.split_once(',')?;
    let (x, y) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
    (x < limit && y < limit).then_some((x, y))
}

/// Reads a space-separated list of points, `-` for none.
fn parse_points(text: &str, limit: usize, field: usize, name: &'static str) -> Result<Vec<Xy>, FieldError> {
    if text.trim() == "-" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|t| {
            parse_xy(t, limit).ok_or_else(|| field_error(field, name, format!("bad point `{t}` (x,y below {limit})")))
        })
        .collect()
}

/// One position of `renju-forbidden.txt`: stones, Black to move, and the expected forbidden points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForbiddenCase {
    /// The fixture's name.
    pub id: String,
    /// Black stones.
    pub black: Vec<Xy>,
    /// White stones.
    pub white: Vec<Xy>,
    /// The forbidden points and their kinds.
    pub forbidden: Vec<(Xy, Forbidden)>,
}

const FORBIDDEN_FIELDS: [&str; 5] = ["id", "black stones", "white stones", "forbidden points", "tags"];

impl ForbiddenCase {
    /// Reads one line of the file; `Ok(None)` for comments and blank lines.
    pub fn parse(line: &str) -> Result<Option<ForbiddenCase>, FieldError> {
        let Some(f) = fields(line, &FORBIDDEN_FIELDS)? else {
            return Ok(None);
        };
        let black = parse_points(f[1], 15, 2, FORBIDDEN_FIELDS[1])?;
        let white = parse_points(f[2], 15, 3, FORBIDDEN_FIELDS[2])?;
        let forbidden = if f[3].trim() == "-" {
            Vec::new()
        } else {
            f[3].split_whitespace()
                .map(|t| {
                    let bad = || field_error(4, FORBIDDEN_FIELDS[3], format!("bad entry `{t}` (expected x,y:kind)"));
                    let (xy, kind) = t.split_once(':').ok_or_else(bad)?;
                    Ok((parse_xy(xy, 15).ok_or_else(bad)?, Forbidden::from_id(kind).ok_or_else(bad)?))
                })
                .collect::<Result<_, FieldError>>()?
        };
        Ok(Some(ForbiddenCase { id: f[0].to_string(), black, white, forbidden }))
    }

    /// The position, Black to move on a 15 x 15 Renju board; `None` if stones overlap.
    #[must_use]
    pub fn state(&self, game: &Gomoku) -> Option<GomokuState> {
        game.setup(&self.black, &self.white, Player::First)
    }

    /// Computes the forbidden points and compares: `Ok(())` if they agree, else the differences in words.
    pub fn check(&self) -> Result<(), String> {
        let game = Gomoku::new(15, WinRule::Renju).map_err(|e| e.to_string())?;
        let state = self.state(&game).ok_or("two stones on one point")?;
        let found: BTreeSet<(Xy, &str)> = game
            .markers(&state)
            .into_iter()
            .filter(|(_, m)| *m == Marker::Forbidden)
            .filter_map(|(c, _)| {
                let mv = game.move_xy(c.x, c.y)?;
                let kind = game.forbidden(state.board(), mv.index(), super::patterns::BLACK)?;
                Some(((c.x, c.y), kind.id()))
            })
            .collect();
        let expected: BTreeSet<(Xy, &str)> = self.forbidden.iter().map(|&(xy, k)| (xy, k.id())).collect();
        if found == expected {
            return Ok(());
        }
        let show = |set: BTreeSet<&(Xy, &str)>| {
            set.into_iter().map(|((x, y), k)| format!("{x},{y}:{k}")).collect::<Vec<_>>().join(" ")
        };
        let missing = show(expected.difference(&found).collect());
        let extra = show(found.difference(&expected).collect());
        Err(format!("missing [{missing}] unexpected [{extra}]"))
    }
}

/// One puzzle of `vcf-puzzles.tsv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VcfPuzzle {
    /// The puzzle's name.
    pub id: String,
    /// The win rule.
    pub rule: WinRule,
    /// The board side.
    pub size: usize,
    /// The attacker (side to move).
    pub side: Player,
    /// Attacker moves of the shortest VCF.
    pub vcf_len: u32,
    /// Every first move of a shortest VCF.
    pub first_moves: Vec<Xy>,
    /// The game so far, Black first.
    pub moves: Vec<Xy>,
}

const VCF_FIELDS: [&str; 8] = ["id", "rule", "size", "ply", "side", "vcf_len", "first_moves", "moves"];

/// What checking one puzzle found.
#[derive(Clone, Debug)]
pub struct VcfCheck {
    /// `Ok` with a summary if the solver agrees, `Err` with the difference.
    pub verdict: Result<String, String>,
    /// Solver nodes.
    pub nodes: u64,
    /// Seconds spent solving.
    pub seconds: f64,
}

impl VcfPuzzle {
    /// Reads one line of the file; `Ok(None)` for comments and blank lines.
    pub fn parse(line: &str) -> Result<Option<VcfPuzzle>, FieldError> {
        let Some(f) = fields(line, &VCF_FIELDS)? else {
            return Ok(None);
        };
        let rule =
            WinRule::from_id(f[1]).ok_or_else(|| field_error(2, VCF_FIELDS[1], format!("unknown rule `{}`", f[1])))?;
        let size: usize = f[2]
            .parse()
            .ok()
            .filter(|s| (super::MIN_SIZE..=super::MAX_SIZE).contains(s))
            .ok_or_else(|| field_error(3, VCF_FIELDS[2], format!("bad board size `{}`", f[2])))?;
        let ply: usize = f[3].parse().map_err(|_| field_error(4, VCF_FIELDS[3], format!("bad number `{}`", f[3])))?;
        let side = match f[4] {
            "black" => Player::First,
            "white" => Player::Second,
            other => return Err(field_error(5, VCF_FIELDS[4], format!("expected black or white, found `{other}`"))),
        };
        // A win cannot take more of the attacker's moves than the board has points.
        let longest = (size * size) as u32;
        let vcf_len = f[5].parse().ok().filter(|n| (1..=longest).contains(n)).ok_or_else(|| {
            field_error(6, VCF_FIELDS[5], format!("bad length `{}` (a number from 1 to {longest})", f[5]))
        })?;
        let first_moves = parse_points(f[6], size, 7, VCF_FIELDS[6])?;
        let moves = parse_points(f[7], size, 8, VCF_FIELDS[7])?;
        if moves.len() != ply {
            return Err(field_error(8, VCF_FIELDS[7], format!("{} moves but ply is {ply}", moves.len())));
        }
        if ply.is_multiple_of(2) != (side == Player::First) {
            return Err(field_error(5, VCF_FIELDS[4], format!("side does not match ply {ply}")));
        }
        Ok(Some(VcfPuzzle { id: f[0].to_string(), rule, size, side, vcf_len, first_moves, moves }))
    }

    /// The rules and the position after the recorded moves.
    pub fn position(&self) -> Result<(Gomoku, GomokuState), String> {
        let game = Gomoku::new(self.size, self.rule).map_err(|e| e.to_string())?;
        let moves: Vec<_> = self.moves.iter().filter_map(|&(x, y)| game.move_xy(x, y)).collect();
        let state = game.play_all(&moves).map_err(|i| format!("move {} ({:?}) is not legal", i + 1, self.moves[i]))?;
        if state.outcome.is_some() {
            return Err("the game is already over".to_string());
        }
        Ok((game, state))
    }

    /// Runs the VCF solver and compares with the expected length and first moves.
    #[must_use]
    pub fn check(&self) -> VcfCheck {
        let (game, state) = match self.position() {
            Ok(p) => p,
            Err(e) => return VcfCheck { verdict: Err(e), nodes: 0, seconds: 0.0 },
        };
        let start = Instant::now();
        let mut solver = VcfSolver::new(&game);
        let found = solver.solve(&state, self.vcf_len.max(1) + 2, true);
        let seconds = start.elapsed().as_secs_f64();
        let nodes = solver.nodes();
        let show = |moves: &[Xy]| moves.iter().map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ");
        let verdict = match found {
            None => Err(format!("no VCF found within {} moves (expected {})", self.vcf_len + 2, self.vcf_len)),
            Some(win) => {
                let firsts: Vec<Xy> = win.first_moves.iter().map(|&m| game.xy(m)).collect();
                if win.length != self.vcf_len {
                    Err(format!("length {} (expected {}), first moves {}", win.length, self.vcf_len, show(&firsts)))
                } else if firsts.iter().all(|f| self.first_moves.contains(f)) {
                    Ok(format!("length {}, first moves {}", win.length, show(&firsts)))
                } else {
                    Err(format!("first moves {} (expected among {})", show(&firsts), show(&self.first_moves)))
                }
            }
        };
        VcfCheck { verdict, nodes, seconds }
    }
}
