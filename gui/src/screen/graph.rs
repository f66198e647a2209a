//! The evaluation graph of a game: the computer's judgement of each position from the first player's view, one
//! point per move, with the position shown marked; a click shows that position. Mistakes are the steep falls.

use iced::mouse;
use iced::widget::canvas::{self, Event, Frame, Geometry, Path, Stroke};
use iced::{Color, Point, Rectangle, Renderer, Theme};
use tabula_core::Player;

/// The graph over a game's judged positions.
pub struct Graph<'a, M> {
    /// Each position's side to move and the first player's share of a sure win (-1 to 1), where judged.
    pub values: &'a [Option<(Player, f32)>],
    /// The positions of the game (moves played + 1): the graph's width.
    pub positions: usize,
    /// The position shown on the board.
    pub shown: usize,
    /// The moves marked as mistakes, by their ply (1 for the first move): drawn as red points after them.
    pub mistakes: Vec<usize>,
    /// The message that shows a position.
    pub on_pick: fn(usize) -> M,
}

impl<M> Graph<'_, M> {
    /// The x of position `ply` in a graph `width` wide.
    fn x(&self, ply: usize, width: f32) -> f32 {
        let last = self.positions.saturating_sub(1).max(1) as f32;
        ply as f32 / last * width
    }

    /// The position nearest to `x` in a graph `width` wide.
    fn ply_at(&self, x: f32, width: f32) -> usize {
        let last = self.positions.saturating_sub(1).max(1) as f32;
        ((x / width.max(1.0) * last).round().max(0.0) as usize).min(self.positions.saturating_sub(1))
    }
}

/// The y of `value` (1 at the top) in a graph `height` high.
fn y(value: f32, height: f32) -> f32 {
    (1.0 - value.clamp(-1.0, 1.0)) / 2.0 * height
}

impl<M: Clone> canvas::Program<M> for Graph<'_, M> {
    type State = ();

    fn update(
        &self,
        _state: &mut (),
        event: &Event,
        bounds: Rectangle,
        cursor: mouse::Cursor,
    ) -> Option<canvas::Action<M>> {
        match event {
            Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)) => {
                let at = cursor.position_in(bounds)?;
                Some(canvas::Action::publish((self.on_pick)(self.ply_at(at.x, bounds.width))).and_capture())
            }
            _ => None,
        }
    }

    fn draw(
        &self,
        _state: &(),
        renderer: &Renderer,
        theme: &Theme,
        bounds: Rectangle,
        _: mouse::Cursor,
    ) -> Vec<Geometry> {
        let palette = theme.extended_palette();
        let (w, h) = (bounds.width, bounds.height);
        let mut frame = Frame::new(renderer, bounds.size());
        frame.fill_rectangle(Point::ORIGIN, bounds.size(), palette.background.base.color);
        let faint = Stroke::default().with_color(palette.background.strong.color).with_width(1.0);
        frame.stroke(&Path::line(Point::new(0.0, y(0.0, h)), Point::new(w, y(0.0, h))), faint);
        let shown = self.x(self.shown, w);
        frame.stroke(&Path::line(Point::new(shown, 0.0), Point::new(shown, h)), faint.with_width(2.0));
        let line = Stroke::default().with_color(palette.primary.strong.color).with_width(2.0);
        let points: Vec<Point> = self
            .values
            .iter()
            .enumerate()
            .filter_map(|(ply, v)| v.map(|(_, value)| Point::new(self.x(ply, w), y(value, h))))
            .collect();
        if points.len() > 1 {
            frame.stroke(
                &Path::new(|p| {
                    p.move_to(points[0]);
                    points[1..].iter().for_each(|&q| p.line_to(q));
                }),
                line,
            );
        }
        for &point in &points {
            frame.fill(&Path::circle(point, 2.0), Color { a: 0.9, ..palette.primary.strong.color });
        }
        for &ply in &self.mistakes {
            if let Some(Some((_, value))) = self.values.get(ply) {
                frame.fill(&Path::circle(Point::new(self.x(ply, w), y(*value, h)), 3.5), palette.danger.strong.color);
            }
        }
        vec![frame.into_geometry()]
    }

    fn mouse_interaction(&self, _state: &(), bounds: Rectangle, cursor: mouse::Cursor) -> mouse::Interaction {
        if cursor.is_over(bounds) { mouse::Interaction::Pointer } else { mouse::Interaction::default() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_map_to_the_width_and_back() {
        let graph = Graph::<usize> { values: &[], positions: 61, shown: 0, mistakes: Vec::new(), on_pick: |p| p };
        assert_eq!(graph.x(0, 300.0), 0.0);
        assert_eq!(graph.x(60, 300.0), 300.0);
        assert_eq!(graph.ply_at(150.0, 300.0), 30);
        assert_eq!(graph.ply_at(-5.0, 300.0), 0, "clamped at the left");
        assert_eq!(graph.ply_at(400.0, 300.0), 60, "and at the right");
        assert_eq!((y(1.0, 80.0), y(0.0, 80.0), y(-1.0, 80.0)), (0.0, 40.0, 80.0), "Black winning at the top");
    }
}
