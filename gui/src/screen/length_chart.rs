//! How long the games of a series were: for each row, the share of its games in each band of plies, drawn as a
//! line, so rule sets (or levels) can be compared at a glance.

use iced::mouse;
use iced::widget::canvas::{self, Frame, Geometry, Path, Stroke};
use iced::{Color, Point, Rectangle, Renderer, Size, Theme};

use crate::screen::score_chart::{chart_label, plot_area};

/// Plies per band.
pub const BAND: usize = 5;

/// One line: its name and its games' lengths.
pub struct Series {
    /// The row's name.
    pub name: String,
    /// Each game's length in plies.
    pub lengths: Vec<usize>,
}

/// The chart of the series' length distributions.
pub struct LengthChart {
    /// The lines.
    pub series: Vec<Series>,
}

/// Each band's share (0 to 1) of `lengths`, over `bands` bands.
#[must_use]
pub fn shares(lengths: &[usize], bands: usize) -> Vec<f32> {
    let mut counts = vec![0usize; bands];
    for &plies in lengths {
        if let Some(c) = counts.get_mut(plies / BAND) {
            *c += 1;
        }
    }
    let games = lengths.len().max(1) as f32;
    counts.into_iter().map(|c| c as f32 / games).collect()
}

impl<M> canvas::Program<M> for LengthChart {
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
        let label = |frame: &mut Frame, content: String, position: Point| chart_label(frame, content, position, ink);
        let longest = self.series.iter().flat_map(|s| s.lengths.iter().copied()).max().unwrap_or(0);
        let bands = longest / BAND + 1;
        let all: Vec<Vec<f32>> = self.series.iter().map(|s| shares(&s.lengths, bands)).collect();
        let top = all.iter().flatten().copied().fold(0.1_f32, f32::max);
        let x_of = |band: usize| area.x + area.width * (band as f32 + 0.5) / bands as f32;
        let y_of = |share: f32| area.y + area.height * (1.0 - share / top);
        let faint = Stroke::default().with_color(palette.background.strong.color).with_width(1.0);
        frame.stroke(&Path::line(Point::new(area.x, y_of(0.0)), Point::new(area.x + area.width, y_of(0.0))), faint);
        label(&mut frame, format!("{:.0}%", top * 100.0), Point::new(4.0, area.y - 7.0));
        label(&mut frame, "0".into(), Point::new(4.0, y_of(0.0) - 7.0));
        let step = (bands / 8).max(1);
        for band in (0..bands).step_by(step) {
            label(&mut frame, format!("{}", band * BAND), Point::new(x_of(band) - 6.0, area.y + area.height + 4.0));
        }
        let colours = [
            palette.primary.base.color,
            palette.danger.base.color,
            palette.success.base.color,
            palette.secondary.strong.color,
            Color::from_rgb(0.9, 0.55, 0.1),
            Color::from_rgb(0.6, 0.3, 0.8),
        ];
        let mut legend_x = area.x;
        for (k, (series, shares)) in self.series.iter().zip(&all).enumerate() {
            let colour = colours[k % colours.len()];
            let points: Vec<Point> = shares.iter().enumerate().map(|(b, &s)| Point::new(x_of(b), y_of(s))).collect();
            if let Some((first, rest)) = points.split_first() {
                let line = Path::new(|p| {
                    p.move_to(*first);
                    rest.iter().for_each(|&q| p.line_to(q));
                });
                frame.stroke(&line, Stroke::default().with_color(colour).with_width(2.0));
            }
            frame.fill_rectangle(Point::new(legend_x, 6.0), Size::new(12.0, 4.0), colour);
            label(&mut frame, series.name.clone(), Point::new(legend_x + 16.0, 1.0));
            legend_x += 28.0 + 7.0 * series.name.chars().count() as f32;
        }
        label(&mut frame, "plies".into(), Point::new(area.x + area.width - 30.0, area.y + area.height - 16.0));
        vec![frame.into_geometry()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_count_the_games_in_each_band() {
        assert_eq!(shares(&[3, 4, 12, 29], 6), [0.5, 0.0, 0.25, 0.0, 0.0, 0.25]);
        assert_eq!(shares(&[], 2), [0.0, 0.0], "no games, no share");
        assert_eq!(shares(&[100], 2), [0.0, 0.0], "a game past the last band is left out");
    }
}
