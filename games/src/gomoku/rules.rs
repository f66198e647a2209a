//! Gomoku's rules as data: the win rule and the opening rule, each with a name and a description, kept apart so
//! that swap openings can later combine with any win rule.

/// The smallest supported board side.
pub const MIN_SIZE: usize = 7;
/// The largest supported board side (columns `a` to `y`).
pub const MAX_SIZE: usize = 25;
/// The usual board side, and the only one Renju allows.
pub const DEFAULT_SIZE: usize = 15;

/// How a line of stones wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinRule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; an overline does not, for either colour.
    ExactFive,
    /// Black wins with exactly five and may not play overlines, double fours or double threes; White wins with
    /// five or more.
    Renju,
    /// Five or more wins unless the line is closed at both ends by opponent stones.
    Caro,
}

impl WinRule {
    /// Every win rule, in menu order.
    pub const ALL: [WinRule; 4] = [WinRule::Freestyle, WinRule::ExactFive, WinRule::Renju, WinRule::Caro];

    /// The stable identifier used in rule sets and on the command line.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            WinRule::Freestyle => "freestyle",
            WinRule::ExactFive => "exact-five",
            WinRule::Renju => "renju",
            WinRule::Caro => "caro",
        }
    }

    /// The win rule of a Gomocup `INFO rule` bitmask (also the last number of a `.psq` header as Tabula writes it):
    /// 1 exact five, 4 Renju, 8 Caro, otherwise freestyle; 2 (continuous game) is ignored.
    #[must_use]
    pub fn from_gomocup(mask: u32) -> WinRule {
        if mask & 8 != 0 {
            WinRule::Caro
        } else if mask & 4 != 0 {
            WinRule::Renju
        } else if mask & 1 != 0 {
            WinRule::ExactFive
        } else {
            WinRule::Freestyle
        }
    }

    /// This rule's Gomocup bitmask, the inverse of [`WinRule::from_gomocup`].
    #[must_use]
    pub fn gomocup(self) -> u32 {
        match self {
            WinRule::Freestyle => 0,
            WinRule::ExactFive => 1,
            WinRule::Renju => 4,
            WinRule::Caro => 8,
        }
    }

    /// What is known of the rule on 15x15 under perfect play from the empty board, with its source.
    #[must_use]
    pub fn known_result(self) -> Option<&'static str> {
        match self {
            WinRule::Freestyle | WinRule::ExactFive => Some("Solved on 15x15: a first-player win (L. V. Allis, 1994)"),
            WinRule::Renju => Some("Solved: a first-player win (J. Wagner and I. Virag, 2001)"),
            WinRule::Caro => None,
        }
    }

    /// The name shown to players.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            WinRule::Freestyle => "Freestyle",
            WinRule::ExactFive => "Exact five (standard)",
            WinRule::Renju => "Renju",
            WinRule::Caro => "Caro",
        }
    }

    /// The rule in plain words.
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            WinRule::Freestyle => "Five or more stones in a row, in any direction, win.",
            WinRule::ExactFive => {
                "Exactly five stones in a row win; a line of six or more does not win and the game goes on, for \
                 both colours."
            }
            WinRule::Renju => {
                "Black wins only with exactly five and may not play an overline, a double four or a double three; \
                 White has no restriction and wins with five or more. A five beats any forbidden shape. Played on \
                 15 x 15 only."
            }
            WinRule::Caro => {
                "Five or more in a row win unless both ends of the line are closed by opponent stones; the board \
                 edge does not close a line."
            }
        }
    }

    /// The win rule with this identifier (`standard` is accepted for exact five).
    #[must_use]
    pub fn from_id(id: &str) -> Option<WinRule> {
        match id {
            "standard" => Some(WinRule::ExactFive),
            _ => WinRule::ALL.into_iter().find(|r| r.id() == id),
        }
    }
}

/// How the first stones are placed, independent of the win rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpeningRule {
    /// Black starts anywhere and the players alternate from the first move.
    Free,
    /// The first player places three stones, then the second chooses a colour.
    Swap,
    /// The first player places three stones; the second chooses a colour or places two more and lets the first
    /// choose.
    Swap2,
    /// Renju's Taraguchi-10 (RIF): five stones inside growing central squares, a right to swap after each, or ten
    /// fifth stones offered.
    Taraguchi10,
}

impl OpeningRule {
    /// Every opening rule, in menu order.
    pub const ALL: [OpeningRule; 4] =
        [OpeningRule::Free, OpeningRule::Swap, OpeningRule::Swap2, OpeningRule::Taraguchi10];

    /// The stable identifier.
    #[must_use]
    pub fn id(self) -> &'static str {
        match self {
            OpeningRule::Free => "free",
            OpeningRule::Swap => "swap",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Taraguchi10 => "taraguchi-10",
        }
    }

    /// The name shown to players.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            OpeningRule::Free => "Free opening",
            OpeningRule::Swap => "Swap",
            OpeningRule::Swap2 => "Swap2",
            OpeningRule::Taraguchi10 => "Taraguchi-10",
        }
    }

    /// The rule in plain words.
    #[must_use]
    pub fn description(self) -> &'static str {
        match self {
            OpeningRule::Free => "Black plays first, anywhere; then the players alternate.",
            OpeningRule::Swap => {
                "The first player places three stones (two black, one white); the second then chooses to play \
                 White or to take Black. An opener who places too strong a start gets the worse side."
            }
            OpeningRule::Swap2 => {
                "The first player places three stones (two black, one white); the second plays White, takes Black, \
                 or places two more (one of each) and lets the first player choose the colour. The rule of the \
                 Gomoku world championships."
            }
            OpeningRule::Taraguchi10 => {
                "Black's first stone goes on the centre, White's second inside the central 3x3 square, Black's \
                 third inside the 5x5 and White's fourth inside the 7x7; after each, the other player may swap \
                 colours. After the fourth, Black may swap or keep the colours (the fifth stone then goes inside \
                 the 9x9 and White may swap once more), or offer ten fifth stones, no two alike by symmetry, of \
                 which White picks one and plays on. An opening rule of the Renju International Federation."
            }
        }
    }

    /// The swap procedure the rule follows, if any.
    #[must_use]
    pub fn procedure(self) -> Option<crate::swap::Procedure> {
        match self {
            OpeningRule::Free => None,
            OpeningRule::Swap => Some(crate::swap::Procedure::Swap),
            OpeningRule::Swap2 => Some(crate::swap::Procedure::Swap2),
            OpeningRule::Taraguchi10 => Some(crate::swap::Procedure::Taraguchi10),
        }
    }

    /// The opening rule with this identifier.
    #[must_use]
    pub fn from_id(id: &str) -> Option<OpeningRule> {
        OpeningRule::ALL.into_iter().find(|r| r.id() == id)
    }
}
