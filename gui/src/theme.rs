//! Colours: the iced theme for the widgets and the palettes the boards are painted with.

use iced::Color;
use iced::Theme;

use crate::settings::ThemeChoice;
use tabula_games::descriptor::Material;
use tabula_games::registry::GameKind;

/// The iced theme for a choice.
#[must_use]
pub fn iced_theme(choice: ThemeChoice) -> Theme {
    match choice {
        ThemeChoice::Light => Theme::Light,
        ThemeChoice::Dark => Theme::Dark,
    }
}

/// The colour of the keyboard focus ring: deep orange on the light theme, amber on the dark one, apart from the
/// blue of the buttons in both.
#[must_use]
pub fn focus_colour(theme: &Theme) -> Color {
    if theme.extended_palette().is_dark { rgb(0xFF, 0xB3, 0x00) } else { rgb(0xE6, 0x51, 0x00) }
}

/// The style of the play screen's notices (an illegal click, a pass): amber, but dark enough on the light theme's
/// grey panel (and light enough on the dark one's) to read easily, which the theme's own warning colour is not.
#[must_use]
pub fn notice_text(theme: &Theme) -> iced::widget::text::Style {
    let colour = if theme.extended_palette().is_dark { rgb(0xFF, 0xC1, 0x6B) } else { rgb(0x8A, 0x4B, 0x00) };
    iced::widget::text::Style { color: Some(colour) }
}

/// The colours of a board and its pieces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardPalette {
    /// The board's surface.
    pub surface: Color,
    /// The frame around the playing area, where the coordinates are.
    pub frame: Color,
    /// Grid lines.
    pub grid: Color,
    /// Coordinate labels.
    pub label: Color,
    /// Black stones and discs.
    pub black: Color,
    /// White stones and discs.
    pub white: Color,
    /// The outline of pieces.
    pub outline: Color,
    /// The last-move marker.
    pub last_move: Color,
    /// Legal-move dots (light on the board, unlike its dark star points).
    pub legal: Color,
    /// Forbidden-point crosses.
    pub forbidden: Color,
    /// The winning line.
    pub winning: Color,
    /// The hinted move.
    pub hint: Color,
}

const fn rgb(r: u8, g: u8, b: u8) -> Color {
    Color::from_rgb8(r, g, b)
}

/// The palette of `game`'s board in the given theme, by what the board is made of (wood or green baize).
#[must_use]
pub fn board_palette(game: GameKind, theme: ThemeChoice) -> BoardPalette {
    let dark = theme == ThemeChoice::Dark;
    let (surface, frame, grid, label) = match (game.descriptor().look.material, dark) {
        (Material::Wood, false) => {
            (rgb(0xE3, 0xB8, 0x6C), rgb(0xC8, 0x98, 0x4E), rgb(0x5A, 0x3E, 0x1B), rgb(0x4A, 0x30, 0x12))
        }
        (Material::Wood, true) => {
            (rgb(0xB0, 0x86, 0x48), rgb(0x8A, 0x66, 0x34), rgb(0x3A, 0x27, 0x10), rgb(0xF0, 0xDD, 0xB8))
        }
        (Material::Baize, false) => {
            (rgb(0x2E, 0x8B, 0x57), rgb(0x1E, 0x5E, 0x3B), rgb(0x14, 0x45, 0x2A), rgb(0xE8, 0xF5, 0xE9))
        }
        (Material::Baize, true) => {
            (rgb(0x23, 0x6B, 0x43), rgb(0x15, 0x40, 0x28), rgb(0x0C, 0x2E, 0x1B), rgb(0xC8, 0xE6, 0xC9))
        }
    };
    BoardPalette {
        surface,
        frame,
        grid,
        label,
        black: rgb(0x1C, 0x1C, 0x1E),
        white: rgb(0xF7, 0xF7, 0xF2),
        outline: rgb(0x10, 0x10, 0x10),
        last_move: rgb(0xE5, 0x39, 0x35),
        // Light, so that the legal moves cannot be taken for the board's dark star points.
        legal: Color { a: 0.55, ..rgb(0xF7, 0xF7, 0xF2) },
        forbidden: rgb(0xD3, 0x2F, 0x2F),
        winning: rgb(0xFF, 0xC1, 0x07),
        hint: rgb(0x29, 0x79, 0xFF),
    }
}

/// The bundled font everything is written in (the machine may have no fonts of its own).
pub const UI_FONT: iced::Font = iced::Font::with_name("Fira Sans");
