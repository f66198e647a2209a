//! A bar chart of scores with their 95% intervals, one group of bars per rule set, against the fair 50%: the
//! comparison screen's series at a glance.

use iced::mouse;
use iced::widget::canvas::{self, Frame, Geometry, Path, Stroke, Text};
use iced::{Color, Pixels, Point, Rectangle, Renderer, Size, Theme};

/// One group: a rule set's name and its scores (0 to 1) with the half-widths of their intervals, one per kind of
/// bar.
pub struct Group {
    /// The rule set's name.
    pub name: String,
    /// Each bar's score and interval half-width.
    pub scores: Vec<(f32, f32)>,
}

/// The chart: its groups and the legend of each kind of bar.
pub struct ScoreChart {
    /// The groups, left to right.
    pub groups: Vec<Group>,
    /// What each kind of bar shows.
    pub legend: Vec<String>,
}

/// Room for the axis labels on the left and the names below.
const LEFT: f32 = 44.0;
const BOTTOM: f32 = 22.0;
/// Room for the legend above.
const TOP: f32 = 22.0;

/// The plotting area inside a chart of `size`: room for the axis labels on the left, the legend above and the
/// names below (the length chart shares it).
pub fn plot_area(size: Size) -> Rectangle {
    Rectangle::new(
        Point::new(LEFT, TOP),
        Size::new((size.width - LEFT - 8.0).max(1.0), (size.height - TOP - BOTTOM).max(1.0)),
    )
}

/// Bar `kind` of `kinds` in group `group` of `groups`, for `score` (0 to 1), inside `area`.
fn bar(area: Rectangle, group: usize, groups: usize, kind: usize, kinds: usize, score: f32) -> Rectangle {
    let slot = area.width / groups.max(1) as f32;
    let width = slot * 0.7 / kinds.max(1) as f32;
    let x = area.x + slot * group as f32 + slot * 0.15 + width * kind as f32;
    let height = area.height * score.clamp(0.0, 1.0);
    Rectangle::new(Point::new(x, area.y + area.height - height), Size::new(width, height))
}

/// A chart's small text (ticks, legends) at `position`, in `ink`: the score and length charts write alike.
pub fn chart_label(frame: &mut Frame, content: String, position: Point, ink: Color) {
    frame.fill_text(Text { content, position, color: ink, size: Pixels(12.0), ..Text::default() });
}

/// The y of `score` (0 to 1) inside `area`.
fn y_of(area: Rectangle, score: f32) -> f32 {
    area.y + area.height * (1.0 - score.clamp(0.0, 1.0))
}

impl<M> canvas::Program<M> for ScoreChart {
    type State = ();

    fn draw(
        &self,
        _state: &(),
        renderer: &Renderer,
        theme: &Theme,
        bounds: Rectangle,
        _: mouse::Cursor,
    ) -> Vec<Geometry> {
        let palette = theme.extended_palette();
        let mut frame = Frame::new(renderer, bounds.size());
        let area = plot_area(bounds.size());
        let ink = palette.background.base.text;
        let faint = Stroke::default().with_color(palette.background.strong.color).with_width(1.0);
        let label = |frame: &mut Frame, content: String, position: Point| chart_label(frame, content, position, ink);
        for tick in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let y = y_of(area, tick);
            let line = Path::line(Point::new(area.x, y), Point::new(area.x + area.width, y));
            frame.stroke(&line, if tick == 0.5 { faint.with_width(2.0) } else { faint });
            label(&mut frame, format!("{:.0}%", tick * 100.0), Point::new(4.0, y - 7.0));
        }
        let colours = [palette.primary.base.color, palette.danger.base.color, palette.success.base.color];
        let kinds = self.legend.len().max(1);
        for (i, group) in self.groups.iter().enumerate() {
            for (k, &(score, half)) in group.scores.iter().enumerate() {
                let rect = bar(area, i, self.groups.len(), k, kinds, score);
                frame.fill_rectangle(rect.position(), rect.size(), colours[k % colours.len()]);
                let x = rect.x + rect.width / 2.0;
                let (low, high) = (y_of(area, score - half), y_of(area, score + half));
                let whisker = Stroke::default().with_color(ink).with_width(1.5);
                frame.stroke(&Path::line(Point::new(x, low), Point::new(x, high)), whisker);
                for end in [low, high] {
                    frame.stroke(&Path::line(Point::new(x - 4.0, end), Point::new(x + 4.0, end)), whisker);
                }
            }
            let slot = area.width / self.groups.len().max(1) as f32;
            label(
                &mut frame,
                group.name.clone(),
                Point::new(area.x + slot * i as f32 + 4.0, area.y + area.height + 4.0),
            );
        }
        let mut x = area.x;
        for (k, name) in self.legend.iter().enumerate() {
            frame.fill_rectangle(Point::new(x, 5.0), Size::new(12.0, 12.0), colours[k % colours.len()]);
            label(&mut frame, name.clone(), Point::new(x + 16.0, 4.0));
            x += 24.0 + 7.0 * name.chars().count() as f32;
        }
        vec![frame.into_geometry()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_stand_in_their_group_and_reach_their_score() {
        let area = plot_area(Size::new(444.0, 144.0));
        assert_eq!((area.x, area.y, area.width, area.height), (44.0, 22.0, 392.0, 100.0));
        let first = bar(area, 0, 2, 0, 2, 0.5);
        let second = bar(area, 0, 2, 1, 2, 1.0);
        assert_eq!((first.height, second.height), (50.0, 100.0));
        assert_eq!(first.y + first.height, area.y + area.height, "bars stand on the axis");
        assert!(first.x + first.width <= second.x + 1e-3, "side by side");
        let other_group = bar(area, 1, 2, 0, 2, 0.5);
        assert!(other_group.x >= area.x + area.width / 2.0, "the next group in the right half");
        assert_eq!(y_of(area, 1.5), area.y, "a score past 100% stays on the chart");
    }
}
