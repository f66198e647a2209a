//! Engines no one here wrote, driven over their own protocols: a Gomocup `pbrain` brain for Gomoku, an NBoard
//! engine for Othello. Each runs in its own process; a crash, a hang, a garbled line or an illegal move is an
//! [`EngineError`] naming the engine, never a panic or a frozen caller.

mod nboard;
mod pbrain;
mod process;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::{BoardGame, Cell, MoveError};
use crate::registry::{GameKind, MatchSpec};
pub use process::Connection;
use process::Wait;

/// The protocol an engine speaks, which also fixes the game it plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// The Gomocup brain protocol (`START`, `BOARD`, `x,y`), as Piskvork and Yixin-Board speak it.
    Pbrain,
    /// The NBoard protocol (`nboard 2`, `set game GGF`, `go`, `=== move`).
    NBoard,
}

impl Protocol {
    /// Both protocols, for menus.
    pub const ALL: [Protocol; 2] = [Protocol::Pbrain, Protocol::NBoard];

    /// The standard game this protocol plays (freestyle Gomoku on 15x15, 8x8 Othello): what a newly registered
    /// engine is tried on.
    #[must_use]
    pub fn standard_game(self) -> MatchSpec {
        match self {
            Protocol::Pbrain => {
                MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: Some(15) }
            }
            Protocol::NBoard => MatchSpec { game: GameKind::Othello, rule_set: "othello".into(), board_size: Some(8) },
        }
    }
}

impl std::fmt::Display for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Protocol::Pbrain => "Gomocup pbrain (Gomoku)",
            Protocol::NBoard => "NBoard (Othello)",
        })
    }
}

/// An engine registered by the player: how to start it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineSpec {
    /// The name it is chosen by.
    pub name: String,
    /// What it speaks.
    pub protocol: Protocol,
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// The folder it runs in (its weights and configuration are often found relative to it).
    #[serde(default)]
    pub folder: Option<PathBuf>,
}

/// How a game's rule set is told to an engine, when an engine protocol can play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineRules {
    /// A Gomocup brain with this `INFO rule` bitmask.
    Gomocup(u32),
    /// An NBoard engine (standard 8x8 Othello).
    NBoard,
}

impl EngineRules {
    /// The protocol an engine needs for these rules.
    #[must_use]
    pub fn protocol(self) -> Protocol {
        match self {
            EngineRules::Gomocup(_) => Protocol::Pbrain,
            EngineRules::NBoard => Protocol::NBoard,
        }
    }
}

/// A position to ask an engine about: the rules, the board and the moves from the start (`None` a pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnginePosition {
    /// How the rule set is told to the engine.
    pub rules: EngineRules,
    /// Columns and rows.
    pub size: (usize, usize),
    /// The moves from the start position, first player first.
    pub moves: Vec<Option<Cell>>,
}

/// An engine's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineMove {
    /// Where it plays; `None` for a pass.
    pub cell: Option<Cell>,
    /// Its evaluation from its own view, in its own unit (NBoard: discs), when it gave one.
    pub eval: Option<f64>,
}

/// What went wrong with an external engine; each names the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("{name}: could not start {program}: {reason}")]
    Start {
        /// The engine.
        name: String,
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// The engine speaks another protocol than these rules need.
    #[error("{name} speaks {speaks:?}, this game needs {needs:?}")]
    WrongProtocol {
        /// The engine.
        name: String,
        /// What it speaks.
        speaks: Protocol,
        /// What the game needs.
        needs: Protocol,
    },
    /// The process ended (crashed or quit).
    #[error("{name} stopped running")]
    Exited {
        /// The engine.
        name: String,
    },
    /// No answer in time; the process was ended.
    #[error("{name} gave no answer within {} s; it was stopped", .waited.as_secs_f32())]
    Timeout {
        /// The engine.
        name: String,
        /// How long it was given.
        waited: Duration,
    },
    /// It was asked to stop before it answered.
    #[error("{name} was stopped before it answered")]
    Stopped {
        /// The engine.
        name: String,
    },
    /// A move the rules do not allow.
    #[error("{name} played {mv}, which is not legal here: {reason}")]
    Illegal {
        /// The engine.
        name: String,
        /// The move, in the game's notation or as a cell.
        mv: String,
        /// Why it is not legal.
        reason: String,
    },
    /// The game cannot be told to this engine (its rule set or start position has no place in the protocol).
    #[error("{name} cannot play this game: {reason}")]
    Unplayable {
        /// The engine.
        name: String,
        /// Why.
        reason: String,
    },
    /// A line that is not what the protocol allows here.
    #[error("{name} answered {line:?}: {problem}")]
    Protocol {
        /// The engine.
        name: String,
        /// The line.
        line: String,
        /// What was wrong with it.
        problem: String,
    },
}

/// How long past the turn's time an engine may take before it is taken for hung: managers allow for start-up and
/// loaded machines too.
#[must_use]
pub fn grace(turn: Duration) -> Duration {
    Duration::from_secs(2) + turn / 2
}

impl Connection {
    /// Asks the engine for its move in `position`, with `turn` to think. `stop` set while it thinks ends the wait
    /// (the engine is asked to stop, and ended if it does not answer at once). After an error the process is ended;
    /// the next request starts it again.
    pub fn best_move(
        &mut self,
        position: &EnginePosition,
        turn: Duration,
        stop: &AtomicBool,
    ) -> Result<EngineMove, EngineError> {
        let needs = position.rules.protocol();
        if self.spec().protocol != needs {
            return Err(EngineError::WrongProtocol {
                name: self.spec().name.clone(),
                speaks: self.spec().protocol,
                needs,
            });
        }
        let answer = match needs {
            Protocol::Pbrain => pbrain::best_move(self, position, turn, stop),
            Protocol::NBoard => nboard::best_move(self, position, turn, stop),
        };
        if answer.is_err() {
            self.end();
        }
        answer
    }
}

/// Asks the engine on `connection` for its move in `state`, reached by `moves` from the start of `game`, where
/// `rules` tell the rule set to the engine (`None`: no protocol can, and the engine is not asked). The move is
/// checked against the rules (an illegal one ends the process); the answer is the move and the engine's
/// evaluation, if it gave one.
pub(crate) fn ask<G: BoardGame>(
    game: &G,
    rules: Option<EngineRules>,
    state: &G::State,
    moves: &[G::Move],
    connection: &mut Connection,
    turn: Duration,
    stop: &AtomicBool,
) -> Result<(G::Move, Option<f64>), EngineError> {
    let name = connection.spec().name.clone();
    let Some(rules) = rules else {
        let reason = "no engine protocol plays this rule set from this start".to_string();
        return Err(EngineError::Unplayable { name, reason });
    };
    let position =
        EnginePosition { rules, size: game.board_size(), moves: moves.iter().map(|&mv| game.cell_of(mv)).collect() };
    let answer = connection.best_move(&position, turn, stop)?;
    let mv = match answer.cell {
        Some(cell) => game.move_at(state, cell),
        None => game.pass_move(state).ok_or(MoveError::NoPass),
    };
    mv.map(|mv| (mv, answer.eval)).map_err(|e| {
        connection.end();
        let mv = answer.cell.map_or_else(|| "a pass".to_string(), |c| game.cell_name(c));
        EngineError::Illegal { name, mv, reason: e.to_string() }
    })
}
