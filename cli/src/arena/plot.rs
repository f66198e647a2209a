//! `arena --plot FILE.svg`: the series as a picture. Above, the first player's score per rule set with its 95%
//! interval (and, for two players, A's score), against the fair 50%; below, how long the games were, per rule set.

use std::path::Path;

use plotters::prelude::*;
use tabula_games::arena::SeriesSummary;

/// One rule set's results: its name, its tallies and the length of each game in plies.
pub struct Series<'a> {
    /// The rule set's name.
    pub name: &'a str,
    /// Its tallies.
    pub summary: &'a SeriesSummary,
    /// Every game's length.
    pub lengths: Vec<usize>,
}

/// The grid's colour: solid, as some SVG renderers ignore opacity.
const GRID: RGBColor = RGBColor(225, 225, 225);

/// A kind of bar: its legend, its colour and the score with its interval it shows.
type Bar = (String, RGBColor, fn(&SeriesSummary) -> (f64, f64));

/// Plies per bar of the length histogram.
const BIN: usize = 5;

/// Draws the series as SVG into `path` (written atomically); `player_a` names player A when the two players
/// differ (their scores are drawn too).
pub fn write(path: &Path, title: &str, series: &[Series], player_a: Option<&str>) -> Result<(), String> {
    let mut svg = String::new();
    draw(&mut svg, title, series, player_a).map_err(|e| format!("cannot draw {}: {e}", path.display()))?;
    tabula_games::files::write_atomic(path, svg)
}

fn draw(
    svg: &mut String,
    title: &str,
    series: &[Series],
    player_a: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, (960, 760)).into_drawing_area();
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 22))?;
    let (top, bottom) = root.split_vertically(400);
    scores(&top, series, player_a)?;
    lengths(&bottom, series)?;
    root.present()?;
    Ok(())
}

/// The scores with their intervals, one group of bars per rule set (centred on the rule set's number, where the
/// axis writes its name).
fn scores<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[Series],
    player_a: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let names: Vec<&str> = series.iter().map(|s| s.name).collect();
    let n = names.len() as f64;
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(-0.5..n - 0.5, 0.0..100.0)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .x_labels(names.len() + 1)
        .x_label_formatter(&|x| {
            let i = x.round();
            let named = (x - i).abs() < 1e-6 && i >= 0.0;
            if named { names.get(i as usize).map_or_else(String::new, ToString::to_string) } else { String::new() }
        })
        .y_desc("score, %")
        .draw()?;
    let fair = [(-0.5, 50.0), (n - 0.5, 50.0)];
    chart
        .draw_series(LineSeries::new(fair, BLACK.mix(0.5)))?
        .label("fair: 50%")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 16, y)], BLACK.mix(0.5)));
    let bars: Vec<Bar> = match player_a {
        Some(a) => vec![
            ("first player".into(), RGBColor(70, 110, 200), SeriesSummary::first_player_score),
            (format!("score of {a}"), RGBColor(210, 90, 60), SeriesSummary::level_a_score),
        ],
        None => vec![("first player".into(), RGBColor(70, 110, 200), SeriesSummary::first_player_score)],
    };
    let width = 0.7 / bars.len() as f64;
    for (k, (label, colour, score)) in bars.into_iter().enumerate() {
        let left = |i: usize| i as f64 - 0.35 + width * k as f64;
        let values: Vec<(f64, f64)> =
            series.iter().map(|s| score(s.summary)).map(|(m, h)| (100.0 * m, 100.0 * h)).collect();
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &(mean, _))| Rectangle::new([(left(i), 0.0), (left(i) + width, mean)], colour.filled())),
            )?
            .label(label)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], colour.filled()));
        chart.draw_series(values.iter().enumerate().map(|(i, &(mean, half))| {
            let middle = left(i) + width / 2.0;
            ErrorBar::new_vertical(middle, (mean - half).max(0.0), mean, (mean + half).min(100.0), BLACK, 8)
        }))?;
    }
    chart.configure_series_labels().border_style(BLACK.mix(0.3)).background_style(WHITE).draw()?;
    Ok(())
}

/// How long the games were: per rule set, the share of its games in each band of [`BIN`] plies.
fn lengths<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>>
where
    DB::ErrorType: 'static,
{
    let longest = series.iter().flat_map(|s| s.lengths.iter().copied()).max().unwrap_or(0);
    let bins = longest / BIN + 1;
    let shares: Vec<Vec<f64>> = series
        .iter()
        .map(|s| {
            let mut counts = vec![0usize; bins];
            for &plies in &s.lengths {
                counts[plies / BIN] += 1;
            }
            let games = s.lengths.len().max(1) as f64;
            counts.into_iter().map(|c| 100.0 * c as f64 / games).collect()
        })
        .collect();
    let top = shares.iter().flatten().copied().fold(10.0, f64::max);
    let mut chart = ChartBuilder::on(area)
        .margin(16)
        .x_label_area_size(36)
        .y_label_area_size(56)
        .build_cartesian_2d(0.0..(bins * BIN) as f64, 0.0..top * 1.1)?;
    chart
        .configure_mesh()
        .bold_line_style(GRID)
        .light_line_style(TRANSPARENT)
        .x_desc("game length, plies")
        .y_desc("games, %")
        .draw()?;
    for (k, (s, share)) in series.iter().zip(&shares).enumerate() {
        let colour = Palette99::pick(k).to_rgba();
        let points = share.iter().enumerate().map(|(b, &v)| ((b * BIN) as f64 + BIN as f64 / 2.0, v));
        chart
            .draw_series(LineSeries::new(points, colour.stroke_width(2)))?
            .label(s.name)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2)));
    }
    chart.configure_series_labels().border_style(BLACK.mix(0.3)).background_style(WHITE).draw()?;
    Ok(())
}
