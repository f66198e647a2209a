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
