//! Network play for Tabula: a line protocol over TCP (see `docs/network-protocol.md`), the host that referees
//! every move with the same rules code as local play, the guest that mirrors the host's game, and the
//! connection that carries the lines.
//!
//! The host's game is the only authority: a guest's move takes effect when the host has checked it and sent it
//! back, so the two boards cannot diverge.

pub mod connection;
pub mod guest;
pub mod protocol;
pub mod referee;

pub use connection::{Connection, Incoming};
pub use guest::{Guest, GuestEvent};
pub use protocol::{MAX_LINE, Message, PROTOCOL_VERSION};
pub use referee::{HostEvent, Referee};

use tabula_games::{Match, MatchSpec, new_match};

/// A new game of `spec` for network play, or why it cannot be one: the protocol sends moves only, so a rule set
/// with a swap opening (whose colour choices it cannot tell) is refused, on either side.
pub fn online_match(spec: &MatchSpec) -> Result<Box<dyn Match>, String> {
    let game = new_match(spec).map_err(|e| e.to_string())?;
    if game.swap_step() != tabula_games::swap::Step::Play {
        return Err(format!(
            "network games are played with a free opening, and `{}` has a swap opening: choose another rule set",
            spec.rule_set
        ));
    }
    Ok(game)
}
