//! The board on a canvas, drawn from a [`Snapshot`]: grid or squares, coordinates, pieces, markers, the last move,
//! the winning line, a hint, move numbers, the hover preview and the flip animation. It scales with its space.

use std::f32::consts::TAU;
use std::time::Instant;

use iced::alignment::Vertical;
use iced::mouse;
use iced::widget::canvas::{self, Cache, Event, Frame, Geometry, LineCap, Path, Stroke, Text, path::arc};
use iced::widget::text::Alignment;
use iced::{Color, Point, Radians, Rectangle, Renderer, Size, Theme, Vector};
use tabula_core::Player;
use tabula_games::{Cell, Marker, Snapshot};

use crate::animation::{FlipAnimation, IllegalFlash};
use crate::theme::{BoardPalette, UI_FONT};

/// How pieces sit on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// Stones on the intersections of a grid (Gomoku).
    Intersections,
    /// Discs inside squares (Othello).
    Squares,
}

/// How coordinates are labelled along the edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coordinates {
    /// Row 1 is the bottom row (Gomoku) instead of the top row (Othello).
    pub rows_from_bottom: bool,
}

/// What the board shows besides the pieces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardOptions {
    /// Grid or squares.
    pub style: BoardStyle,
    /// Colours.
    pub palette: BoardPalette,
    /// Edge labels, if shown.
    pub coordinates: Option<Coordinates>,
    /// Show legal-move markers.
    pub legal_markers: bool,
    /// Show forbidden-point markers.
    pub forbidden_markers: bool,
}

/// One frame of the board: what to draw and what a click does.
pub struct BoardView<'a, M> {
    /// The position.
    pub snapshot: Snapshot,
    /// Style, colours and markers.
    pub options: BoardOptions,
    /// Move numbers per cell, row by row, when they are shown.
    pub numbers: Option<&'a [Option<usize>]>,
    /// The colour of the hover preview when a human may click now.
    pub preview: Option<Player>,
    /// A suggested move to highlight.
    pub hint: Option<Cell>,
    /// The keyboard cursor, when shown.
    pub cursor: Option<Cell>,
    /// Discs turning over.
    pub animation: Option<&'a FlipAnimation>,
    /// A refused move blinking.
    pub flash: Option<IllegalFlash>,
    /// The time the animation is drawn at.
    pub now: Instant,
    /// The cached static board (surface, grid, labels).
    pub cache: &'a Cache,
    /// The message a click on a cell sends.
    pub on_click: Option<fn(Cell) -> M>,
    /// Short texts written on cells (the values of moves).
    pub labels: &'a [(Cell, String)],
}

/// Where the board sits inside the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Top-left corner of cell (0, 0).
    pub origin: Point,
    /// The side of one cell.
    pub cell: f32,
    /// Columns and rows.
    pub size: (usize, usize),
    /// The margin around the cells (room for coordinates).
    pub margin: f32,
}

impl Layout {
    /// The largest board of `size` cells that fits `bounds`, centred.
    #[must_use]
    pub fn fit(bounds: Size, size: (usize, usize), coordinates: bool) -> Layout {
        let margin_cells = if coordinates { 0.62 } else { 0.3 };
        let (w, h) = (size.0.max(1) as f32, size.1.max(1) as f32);
        let cell = (bounds.width / (w + 2.0 * margin_cells)).min(bounds.height / (h + 2.0 * margin_cells)).max(1.0);
        let margin = cell * margin_cells;
        let origin = Point::new((bounds.width - cell * w) / 2.0, (bounds.height - cell * h) / 2.0);
        Layout { origin, cell, size, margin }
    }

    /// The centre of `cell`.
    #[must_use]
    pub fn centre(&self, cell: Cell) -> Point {
        Point::new(self.origin.x + (cell.x as f32 + 0.5) * self.cell, self.origin.y + (cell.y as f32 + 0.5) * self.cell)
    }

    /// The cell under `point`, if any.
    #[must_use]
    pub fn cell_at(&self, point: Point) -> Option<Cell> {
        let x = (point.x - self.origin.x) / self.cell;
        let y = (point.y - self.origin.y) / self.cell;
        if x < 0.0 || y < 0.0 {
            return None;
        }
        let (x, y) = (x as usize, y as usize);
        (x < self.size.0 && y < self.size.1).then_some(Cell::new(x, y))
    }
}

/// The canvas state: the cell under the mouse.
#[derive(Debug, Default)]
pub struct Hover {
    cell: Option<Cell>,
    seen_move: bool,
}

impl<'a, M> BoardView<'a, M> {
    /// A board that only shows a position: no coordinates, markers of interaction or clicks (home cards, rules
    /// diagrams).
    #[must_use]
    pub fn picture(snapshot: Snapshot, options: BoardOptions, cache: &'a Cache) -> Self {
        BoardView::plain(snapshot, BoardOptions { coordinates: None, ..options }, cache, None)
    }

    /// A board showing a position as `options` say, with no move in progress (no hint, cursor, animation or
    /// labels); `on_click` hears the clicked cell, if clicks count (the setup board).
    #[must_use]
    pub fn plain(snapshot: Snapshot, options: BoardOptions, cache: &'a Cache, on_click: Option<fn(Cell) -> M>) -> Self {
        BoardView {
            snapshot,
            options,
            numbers: None,
            preview: None,
            hint: None,
            cursor: None,
            animation: None,
            flash: None,
            now: Instant::now(),
            cache,
            on_click,
            labels: &[],
        }
    }

    fn layout(&self, bounds: Size) -> Layout {
        Layout::fit(bounds, self.snapshot.size, self.options.coordinates.is_some())
    }

    /// Whether a click on `cell` could be a move (empty, and legal where the position marks legal moves).
    fn playable(&self, cell: Cell) -> bool {
        if self.snapshot.stone(cell).is_some() || self.snapshot.outcome.is_some() {
            return false;
        }
        let marked = |m: Marker| self.snapshot.markers.iter().any(|&(c, k)| c == cell && k == m);
        let has_legal = self.snapshot.markers.iter().any(|&(_, k)| k == Marker::Legal);
        !marked(Marker::Forbidden) && (!has_legal || marked(Marker::Legal))
    }

    fn draw_static(&self, frame: &mut Frame, layout: &Layout) {
        let p = &self.options.palette;
        let (w, h) = layout.size;
        let board =
            Size::new(layout.cell * w as f32 + 2.0 * layout.margin, layout.cell * h as f32 + 2.0 * layout.margin);
        let corner = Point::new(layout.origin.x - layout.margin, layout.origin.y - layout.margin);
        frame.fill(&Path::rounded_rectangle(corner, board, (layout.cell * 0.12).into()), p.frame);
        let play = Size::new(layout.cell * w as f32, layout.cell * h as f32);
        let grid = Stroke::default().with_color(p.grid).with_width((layout.cell * 0.035).max(1.0));
        match self.options.style {
            BoardStyle::Squares => {
                frame.fill_rectangle(layout.origin, play, p.surface);
                for i in 0..=w {
                    let x = layout.origin.x + i as f32 * layout.cell;
                    frame.stroke(
                        &Path::line(Point::new(x, layout.origin.y), Point::new(x, layout.origin.y + play.height)),
                        grid,
                    );
                }
                for j in 0..=h {
                    let y = layout.origin.y + j as f32 * layout.cell;
                    frame.stroke(
                        &Path::line(Point::new(layout.origin.x, y), Point::new(layout.origin.x + play.width, y)),
                        grid,
                    );
                }
                if w == 8 && h == 8 {
                    for (x, y) in [(2, 2), (6, 2), (2, 6), (6, 6)] {
                        let at = Point::new(
                            layout.origin.x + x as f32 * layout.cell,
                            layout.origin.y + y as f32 * layout.cell,
                        );
                        frame.fill(&Path::circle(at, layout.cell * 0.07), p.grid);
                    }
                }
            }
            BoardStyle::Intersections => {
                frame.fill(&Path::rounded_rectangle(corner, board, (layout.cell * 0.12).into()), p.surface);
                let first = layout.centre(Cell::new(0, 0));
                let last = layout.centre(Cell::new(w - 1, h - 1));
                for i in 0..w {
                    let x = layout.centre(Cell::new(i, 0)).x;
                    frame.stroke(&Path::line(Point::new(x, first.y), Point::new(x, last.y)), grid);
                }
                for j in 0..h {
                    let y = layout.centre(Cell::new(0, j)).y;
                    frame.stroke(&Path::line(Point::new(first.x, y), Point::new(last.x, y)), grid);
                }
                for (x, y) in star_points(w, h) {
                    frame.fill(&Path::circle(layout.centre(Cell::new(x, y)), layout.cell * 0.1), p.grid);
                }
            }
        }
        if let Some(coordinates) = self.options.coordinates {
            let size = (layout.cell * 0.36).clamp(8.0, 18.0);
            let label = |content: String, position: Point| Text {
                content,
                position,
                color: p.label,
                size: size.into(),
                font: UI_FONT,
                align_x: Alignment::Center,
                align_y: Vertical::Center,
                ..Text::default()
            };
            for x in 0..w {
                let c = layout.centre(Cell::new(x, 0));
                let letter = column_letter(x);
                frame.fill_text(label(letter.clone(), Point::new(c.x, layout.origin.y - layout.margin / 2.0)));
                frame.fill_text(label(letter, Point::new(c.x, layout.origin.y + play.height + layout.margin / 2.0)));
            }
            for y in 0..h {
                let c = layout.centre(Cell::new(0, y));
                let number = if coordinates.rows_from_bottom { h - y } else { y + 1 };
                frame.fill_text(label(number.to_string(), Point::new(layout.origin.x - layout.margin / 2.0, c.y)));
                frame.fill_text(label(
                    number.to_string(),
                    Point::new(layout.origin.x + play.width + layout.margin / 2.0, c.y),
                ));
            }
        }
    }

    fn draw_pieces(&self, frame: &mut Frame, layout: &Layout, hover: Option<Cell>) {
        let p = &self.options.palette;
        let snap = &self.snapshot;
        let radius = layout.cell * if self.options.style == BoardStyle::Squares { 0.40 } else { 0.45 };
        if let Some((near, far)) = snap.area {
            // The square a swap opening's next stone must go in, shaded under the pieces.
            let half = Vector::new(layout.cell * 0.5, layout.cell * 0.5);
            let (top_left, bottom_right) = (layout.centre(near) - half, layout.centre(far) + half);
            let size = iced::Size::new(bottom_right.x - top_left.x, bottom_right.y - top_left.y);
            frame.fill_rectangle(top_left, size, Color { a: 0.18, ..p.hint });
        }
        let last = snap.last_move.as_ref();
        let winning = last.map(|m| m.winning_line.as_slice()).unwrap_or_default();
        if winning.len() >= 2 {
            let mut ends: Vec<Cell> = winning.to_vec();
            ends.sort();
            let (a, b) = (layout.centre(ends[0]), layout.centre(ends[ends.len() - 1]));
            let glow = Stroke::default()
                .with_color(Color { a: 0.75, ..p.winning })
                .with_width(radius * 1.2)
                .with_line_cap(LineCap::Round);
            frame.stroke(&Path::line(a, b), glow);
        }
        for y in 0..snap.size.1 {
            for x in 0..snap.size.0 {
                let cell = Cell::new(x, y);
                let centre = layout.centre(cell);
                let pose = self.animation.and_then(|a| a.pose(cell, self.now));
                if let Some(pose) = pose {
                    draw_piece(frame, p, centre, Vector::new(radius * pose.width.max(0.06), radius), pose.colour, 1.0);
                } else if let Some(player) = snap.stone(cell) {
                    draw_piece(frame, p, centre, Vector::new(radius, radius), player, 1.0);
                    if winning.contains(&cell) {
                        let ring = Stroke::default().with_color(p.winning).with_width(layout.cell * 0.08);
                        frame.stroke(&Path::circle(centre, radius * 0.98), ring);
                    }
                    if let Some(n) = self.numbers.and_then(|ns| ns.get(y * snap.size.0 + x).copied().flatten()) {
                        let is_last = last.and_then(|m| m.placed) == Some(cell);
                        let colour = match player {
                            _ if is_last => p.last_move,
                            Player::First => p.white,
                            Player::Second => p.black,
                        };
                        frame.fill_text(Text {
                            content: n.to_string(),
                            position: centre,
                            color: colour,
                            size: (radius * if n >= 100 { 0.8 } else { 1.0 }).into(),
                            font: UI_FONT,
                            align_x: Alignment::Center,
                            align_y: Vertical::Center,
                            ..Text::default()
                        });
                    }
                }
            }
        }
        if let Some(cell) = last.and_then(|m| m.placed)
            && self.numbers.is_none()
        {
            frame.fill(&Path::circle(layout.centre(cell), radius * 0.22), p.last_move);
        }
        for &(cell, marker) in &snap.markers {
            let centre = layout.centre(cell);
            match marker {
                Marker::Legal if self.options.legal_markers => {
                    frame.fill(&Path::circle(centre, layout.cell * 0.12), p.legal);
                }
                Marker::Forbidden if self.options.forbidden_markers => {
                    let d = layout.cell * 0.18;
                    let stroke = Stroke::default()
                        .with_color(p.forbidden)
                        .with_width(layout.cell * 0.07)
                        .with_line_cap(LineCap::Round);
                    frame.stroke(&Path::line(centre + Vector::new(-d, -d), centre + Vector::new(d, d)), stroke);
                    frame.stroke(&Path::line(centre + Vector::new(-d, d), centre + Vector::new(d, -d)), stroke);
                }
                Marker::Offered => {
                    let stroke = Stroke::default().with_color(p.hint).with_width(layout.cell * 0.08);
                    frame.stroke(&Path::circle(centre, layout.cell * 0.3), stroke);
                }
                _ => {}
            }
        }
        for (i, (cell, label)) in self.labels.iter().enumerate() {
            // The best move's value in the hint colour, the others in the labels' colour, on a light disc.
            let centre = layout.centre(*cell);
            frame.fill(&Path::circle(centre, layout.cell * 0.3), Color { a: 0.85, ..Color::WHITE });
            frame.fill_text(Text {
                content: label.clone(),
                position: centre,
                color: if i == 0 { p.hint } else { Color::from_rgb(0.15, 0.15, 0.15) },
                size: (layout.cell * if label.len() > 3 { 0.24 } else { 0.3 }).into(),
                font: UI_FONT,
                align_x: Alignment::Center,
                align_y: Vertical::Center,
                ..Text::default()
            });
        }
        if let Some(cell) = self.hint {
            let stroke = Stroke::default().with_color(p.hint).with_width(layout.cell * 0.08);
            frame.stroke(&Path::circle(layout.centre(cell), radius * 0.9), stroke);
        }
        if let Some(cell) = self.cursor {
            let c = layout.centre(cell);
            let half = layout.cell * 0.47;
            let stroke = Stroke::default().with_color(p.hint).with_width((layout.cell * 0.06).max(1.5));
            let square = Path::rounded_rectangle(
                c - Vector::new(half, half),
                Size::new(2.0 * half, 2.0 * half),
                (layout.cell * 0.1).into(),
            );
            frame.stroke(&square, stroke);
        }
        if let Some(flash) = self.flash {
            let strength = flash.strength(self.now);
            let half = layout.cell * 0.5;
            let c = layout.centre(flash.cell);
            let red = Color { a: 0.75 * strength, ..Color::from_rgb(0.86, 0.1, 0.1) };
            frame.fill_rectangle(c - Vector::new(half, half), Size::new(2.0 * half, 2.0 * half), red);
        }
        if let Some(player) = self.preview {
            for cell in [hover, self.cursor].into_iter().flatten().filter(|&c| self.playable(c)) {
                draw_piece(frame, p, layout.centre(cell), Vector::new(radius, radius), player, 0.5);
            }
        }
    }
}

fn draw_piece(frame: &mut Frame, p: &BoardPalette, centre: Point, radii: Vector, player: Player, alpha: f32) {
    let ellipse = |c: Point, r: Vector| {
        Path::new(|b| {
            b.ellipse(arc::Elliptical {
                center: c,
                radii: r,
                rotation: Radians(0.0),
                start_angle: Radians(0.0),
                end_angle: Radians(TAU),
            });
        })
    };
    let shadow = Vector::new(radii.y * 0.06, radii.y * 0.1);
    frame.fill(&ellipse(centre + shadow, radii), Color { a: 0.35 * alpha, ..Color::BLACK });
    let (fill, shine) = match player {
        Player::First => (p.black, Color { a: 0.18 * alpha, ..Color::WHITE }),
        Player::Second => (p.white, Color { a: 0.6 * alpha, ..Color::WHITE }),
    };
    frame.fill(&ellipse(centre, radii), Color { a: alpha, ..fill });
    if radii.x > radii.y * 0.5 {
        let offset = Vector::new(-radii.x * 0.3, -radii.y * 0.3);
        frame.fill(&ellipse(centre + offset, Vector::new(radii.x * 0.35, radii.y * 0.3)), shine);
    }
    let outline =
        Stroke::default().with_color(Color { a: 0.6 * alpha, ..p.outline }).with_width((radii.y * 0.05).max(0.8));
    frame.stroke(&ellipse(centre, radii), outline);
}

/// The traditional star points of a Go-style grid.
fn star_points(w: usize, h: usize) -> Vec<(usize, usize)> {
    if w < 9 || h < 9 {
        return Vec::new();
    }
    let edge = if w >= 13 { 3 } else { 2 };
    let xs = [edge, w / 2, w - 1 - edge];
    let ys = [edge, h / 2, h - 1 - edge];
    let mut points: Vec<(usize, usize)> = xs.iter().flat_map(|&x| ys.iter().map(move |&y| (x, y))).collect();
    if w.is_multiple_of(2) || h.is_multiple_of(2) || w < 13 {
        points.retain(|&(x, y)| (x == w / 2) == (y == h / 2));
    }
    points
}

/// The letter of column `x` (`a`, `b`, ...).
#[must_use]
pub fn column_letter(x: usize) -> String {
    char::from_u32('a' as u32 + x as u32).map(String::from).unwrap_or_else(|| x.to_string())
}

impl<M: Clone> canvas::Program<M> for BoardView<'_, M> {
    type State = Hover;

    fn update(
        &self,
        state: &mut Hover,
        event: &Event,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> Option<canvas::Action<M>> {
        let layout = self.layout(bounds.size());
        // Events can arrive in batches when the app is busy; the position of each move event, not the cursor at
        // the end of the batch, tells which cell a later press in the same batch is on.
        let cell = match event {
            Event::Mouse(mouse::Event::CursorMoved { position }) => bounds
                .contains(*position)
                .then(|| layout.cell_at(Point::ORIGIN + (*position - bounds.position())))
                .flatten(),
            Event::Mouse(mouse::Event::ButtonPressed(_)) if state.seen_move => state.cell,
            _ => cursor.position_in(bounds).and_then(|p| layout.cell_at(p)),
        };
        match event {
            Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)) => {
                let on_click = self.on_click?;
                cell.map(|c| canvas::Action::publish(on_click(c)).and_capture())
            }
            Event::Mouse(mouse::Event::CursorMoved { .. }) | Event::Mouse(mouse::Event::CursorLeft) => {
                state.seen_move = !matches!(event, Event::Mouse(mouse::Event::CursorLeft));
                let changed = cell != state.cell;
                state.cell = cell;
                changed.then(canvas::Action::request_redraw)
            }
            _ => None,
        }
    }

    fn draw(
        &self,
        state: &Hover,
        renderer: &Renderer,
        _theme: &Theme,
        bounds: Rectangle,
        _cursor: mouse::Cursor,
    ) -> Vec<Geometry> {
        let layout = self.layout(bounds.size());
        let board = self.cache.draw(renderer, bounds.size(), |frame| self.draw_static(frame, &layout));
        let mut frame = Frame::new(renderer, bounds.size());
        // The software renderer repaints only the bounds of changed shapes, which leaves slivers of strokes and
        // shadows behind; an invisible shape over the whole board makes every frame repaint the board.
        frame.fill_rectangle(Point::ORIGIN, bounds.size(), Color::TRANSPARENT);
        self.draw_pieces(&mut frame, &layout, state.cell);
        vec![board, frame.into_geometry()]
    }

    fn mouse_interaction(&self, state: &Hover, _bounds: Rectangle, _cursor: mouse::Cursor) -> mouse::Interaction {
        match state.cell {
            Some(cell) if self.preview.is_some() && self.on_click.is_some() && self.playable(cell) => {
                mouse::Interaction::Pointer
            }
            _ => mouse::Interaction::default(),
        }
    }
}

/// A single stone or disc, for the side panel and menus.
pub struct StoneIcon {
    player: Player,
    palette: BoardPalette,
}

impl StoneIcon {
    /// An icon of `player`'s piece, `size` pixels across.
    pub fn view<'a, M: 'a>(player: Player, palette: BoardPalette, size: f32) -> iced::Element<'a, M> {
        canvas::Canvas::new(StoneIcon { player, palette }).width(size).height(size).into()
    }
}

impl<M> canvas::Program<M> for StoneIcon {
    type State = ();

    fn draw(
        &self,
        _state: &(),
        renderer: &Renderer,
        _theme: &Theme,
        bounds: Rectangle,
        _cursor: mouse::Cursor,
    ) -> Vec<Geometry> {
        let mut frame = Frame::new(renderer, bounds.size());
        let r = bounds.width.min(bounds.height) * 0.42;
        let centre = frame.center();
        draw_piece(&mut frame, &self.palette, centre, Vector::new(r, r), self.player, 1.0);
        vec![frame.into_geometry()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_maps_cells_both_ways_and_fits() {
        let layout = Layout::fit(Size::new(600.0, 400.0), (8, 8), true);
        assert!(layout.cell * 8.0 + 2.0 * layout.margin <= 400.0 + 1e-3);
        for cell in [Cell::new(0, 0), Cell::new(7, 7), Cell::new(3, 5)] {
            assert_eq!(layout.cell_at(layout.centre(cell)), Some(cell));
        }
        assert_eq!(layout.cell_at(Point::new(1.0, 1.0)), None);
        assert_eq!(layout.cell_at(Point::new(599.0, 200.0)), None);
    }

    #[test]
    fn star_points_of_a_15_board() {
        let points = star_points(15, 15);
        assert_eq!(points.len(), 9);
        assert!(points.contains(&(7, 7)) && points.contains(&(3, 11)));
        assert_eq!(column_letter(7), "h");
    }
}
