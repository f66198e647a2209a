//! The evaluation's pattern values: what a point is worth to a colour, from the line patterns a stone there would
//! make, separately for the side to move and the side waiting (an open three of the side to move is nearly a win,
//! the waiting side's is a threat to answer), per colour and win rule.
//!
//! On top of the features' values, a colour may have a *shape* adjustment per combination of four line patterns
//! (its shape, say `four+open-three+two`), fitted where the games show that a combination is worth more or less
//! than its features add up to, as Rapfi's classical evaluation keeps one value per combination.
//!
//! The values are fitted to game results (`tabula-cli fit-gomoku`, Texel's method) and kept in
//! `games/data/gomoku-values.toml`, which is embedded in the binaries and checked when first used. Fives are not
//! fitted: a five point decides the position before values count, and its fixed value keeps it first in move
//! ordering.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::WinRule;
use super::patterns::Pattern;

/// The number of fitted features: eight line patterns and seven combinations of lines.
pub const FEATURES: usize = 15;

/// The features' names, in index order, as the values file lists them.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "one",
    "two",
    "open-two",
    "three",
    "open-three",
    "four",
    "double-four",
    "open-four",
    "four-four",
    "four-three",
    "four-two",
    "three-three",
    "open-three-two",
    "three-two",
    "two-two",
];

/// The index of the first combination feature: a point counts at most one, the strongest its lines make.
pub const COMBINATIONS: usize = 8;

/// The fixed value of a point that completes a five.
pub const FIVE: i32 = 20_000;

/// The largest value a fitted feature may have, so that a sum over the board stays far from the win scores.
pub const LIMIT: i32 = 10_000;

/// Whose turn it is, as a colour's values see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The colour is to move.
    ToMove = 0,
    /// The other colour is to move.
    Waiting = 1,
}

/// The values a colour gets in one role.
pub type Row = [i32; FEATURES];

/// Shape adjustments by shape name ([`shape_name`]): what a point with that combination of line patterns is worth
/// beyond its features' values. Shapes not listed adjust nothing.
pub type Shapes = BTreeMap<String, i32>;

/// Situation values by situation name ([`situation_name`]): what the side to move's threat situation is worth to
/// it. Situations not listed are worth nothing.
pub type Situations = BTreeMap<String, i32>;

/// One colour's values: when it is to move and when it waits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct ColorValues {
    /// The values while this colour is to move.
    pub to_move: Row,
    /// The values while the other colour is to move.
    pub waiting: Row,
    /// The shape adjustments while this colour is to move.
    #[serde(default, skip_serializing_if = "Shapes::is_empty")]
    pub to_move_shapes: Shapes,
    /// The shape adjustments while the other colour is to move.
    #[serde(default, skip_serializing_if = "Shapes::is_empty")]
    pub waiting_shapes: Shapes,
    /// The values of the threat situations ([`SITUATION_FACTS`]) while this colour is to move.
    #[serde(default, skip_serializing_if = "Situations::is_empty")]
    pub situations: Situations,
}

impl ColorValues {
    /// The values of one role: 0 to move, 1 waiting.
    #[must_use]
    pub fn role(&self, role: usize) -> &Row {
        if role == 0 { &self.to_move } else { &self.waiting }
    }

    /// The shape adjustments of one role: 0 to move, 1 waiting.
    #[must_use]
    pub fn shapes(&self, role: usize) -> &Shapes {
        if role == 0 { &self.to_move_shapes } else { &self.waiting_shapes }
    }

    /// The value of a point with these line patterns in `role`: its fives, its features and its shape's
    /// adjustment.
    #[must_use]
    pub fn point_value(&self, role: Role, lines: &[Pattern; 4]) -> i32 {
        let adjustment =
            shape(lines).map_or(0, |s| self.shapes(role as usize).get(&shape_name(s)).copied().unwrap_or(0));
        point_value(self.role(role as usize), lines) + adjustment
    }
}

/// The values of both colours under one win rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleValues {
    /// Black's (the first player's) values.
    pub black: ColorValues,
    /// White's values.
    pub white: ColorValues,
}

impl RuleValues {
    /// The hand-set values the fits start from, the same for both colours: the side to move's worth five quarters
    /// of the waiting side's.
    #[must_use]
    pub fn hand_set() -> RuleValues {
        let waiting = [2, 12, 12, 50, 180, 220, 3_000, 3_000, 3_000, 1_500, 0, 700, 0, 0, 0];
        let to_move = waiting.map(|v| (v * 5 + 2) / 4);
        let color = ColorValues {
            to_move,
            waiting,
            to_move_shapes: Shapes::new(),
            waiting_shapes: Shapes::new(),
            situations: Situations::new(),
        };
        RuleValues { black: color.clone(), white: color }
    }

    /// A colour's values by slot (0 Black, 1 White).
    #[must_use]
    pub fn color(&self, slot: usize) -> &ColorValues {
        if slot == 0 { &self.black } else { &self.white }
    }

    /// A colour's values by slot, to change.
    pub fn color_mut(&mut self, slot: usize) -> &mut ColorValues {
        if slot == 0 { &mut self.black } else { &mut self.white }
    }
}

/// Every rule's values, as the values file holds them (keyed by [`WinRule::id`]).
pub type ValuesFile = BTreeMap<String, RuleValues>;

/// A values file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValuesError {
    /// Not TOML of the expected shape.
    #[error("{0}")]
    Syntax(String),
    /// A rule is missing.
    #[error("no values for the rule `{0}`")]
    Missing(&'static str),
    /// A section names no known rule.
    #[error("unknown rule `{0}` (known: freestyle, exact-five, renju, caro)")]
    Unknown(String),
    /// A value beyond [`LIMIT`].
    #[error("{rule}: the value of {feature} is {value}, beyond ±{LIMIT}")]
    Range {
        /// The rule.
        rule: String,
        /// The feature's name.
        feature: &'static str,
        /// The value found.
        value: i32,
    },
    /// A situation value that names no situation, or beyond [`LIMIT`].
    #[error("{rule}: the situation `{situation}` ({problem})")]
    Situation {
        /// The rule.
        rule: String,
        /// The situation's name as found.
        situation: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A shape adjustment that names no shape, or beyond [`LIMIT`].
    #[error("{rule}: the shape `{shape}` ({problem})")]
    Shape {
        /// The rule.
        rule: String,
        /// The shape's name as found.
        shape: String,
        /// What is wrong with it.
        problem: String,
    },
}

/// Reads and checks a values file: every rule present, every value within [`LIMIT`].
pub fn parse(text: &str) -> Result<ValuesFile, ValuesError> {
    let file: ValuesFile = toml::from_str(text).map_err(|e| ValuesError::Syntax(e.to_string()))?;
    for rule in file.keys() {
        if !WinRule::ALL.iter().any(|r| r.id() == rule) {
            return Err(ValuesError::Unknown(rule.clone()));
        }
    }
    for rule in WinRule::ALL {
        let values = file.get(rule.id()).ok_or(ValuesError::Missing(rule.id()))?;
        for color in [&values.black, &values.white] {
            for (i, &value) in color.to_move.iter().chain(&color.waiting).enumerate() {
                if value.abs() > LIMIT {
                    let feature = FEATURE_NAMES[i % FEATURES];
                    return Err(ValuesError::Range { rule: rule.id().into(), feature, value });
                }
            }
            for (name, &value) in color.to_move_shapes.iter().chain(&color.waiting_shapes) {
                let problem = if parse_shape(name).is_none() {
                    "not a shape: line patterns from one to open-four joined by `+`, strongest first".to_string()
                } else if value.abs() > LIMIT {
                    format!("adjusted by {value}, beyond ±{LIMIT}")
                } else {
                    continue;
                };
                return Err(ValuesError::Shape { rule: rule.id().into(), shape: name.clone(), problem });
            }
            for (name, &value) in &color.situations {
                let problem = if parse_situation(name).is_none() {
                    format!(
                        "not a situation: `none` or facts from {} joined by `+`, in that order",
                        SITUATION_FACTS.join(", ")
                    )
                } else if value.abs() > LIMIT {
                    format!("valued {value}, beyond ±{LIMIT}")
                } else {
                    continue;
                };
                return Err(ValuesError::Situation { rule: rule.id().into(), situation: name.clone(), problem });
            }
        }
    }
    Ok(file)
}

/// Writes a values file, with a header that says what it is and how it was made.
pub fn format(file: &ValuesFile, made_by: &str) -> Result<String, String> {
    let mut text = format!(
        "# Gomoku pattern values per rule, colour and role, in the feature order\n# {}.\n# {made_by}\n\n",
        FEATURE_NAMES.join(", ")
    );
    text.push_str(&toml::to_string(file).map_err(|e| format!("cannot write the values: {e}"))?);
    Ok(text)
}

/// The values file the engine plays with.
static EMBEDDED: &str = include_str!("../../data/gomoku-values.toml");

/// The embedded values of `rule`; the hand-set values if the embedded file were unusable (a test keeps it usable).
#[must_use]
pub fn embedded(rule: WinRule) -> &'static RuleValues {
    static FILE: OnceLock<Option<ValuesFile>> = OnceLock::new();
    static HAND: OnceLock<RuleValues> = OnceLock::new();
    FILE.get_or_init(|| parse(EMBEDDED).ok())
        .as_ref()
        .and_then(|file| file.get(rule.id()))
        .unwrap_or_else(|| HAND.get_or_init(RuleValues::hand_set))
}

/// The line-pattern feature of one line, if it has one.
fn line_feature(line: Pattern) -> Option<usize> {
    match line {
        Pattern::Dead | Pattern::Five | Pattern::Overline => None,
        other => Some(other as usize - 1),
    }
}

/// A combination of lines a point makes, as Rapfi's classical evaluation and move scores tell them apart; the
/// strongest that applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combination {
    /// Two fours (on two lines).
    FourFour = 0,
    /// A four with an open three.
    FourThree,
    /// A four with a lesser three or a two.
    FourTwo,
    /// Two open threes.
    ThreeThree,
    /// An open three with a three or an open two.
    OpenThreeTwo,
    /// A closed three with a three or an open two.
    ThreeTwo,
    /// Two open twos.
    TwoTwo,
}

/// The strongest combination the four lines of a point make, if any.
#[must_use]
pub fn combination(lines: &[Pattern; 4]) -> Option<Combination> {
    let count = |p: Pattern| lines.iter().filter(|&&l| l == p).count();
    let fours = lines.iter().filter(|l| l.is_four()).count();
    let (open_threes, threes, open_twos, twos) =
        (count(Pattern::OpenThree), count(Pattern::Three), count(Pattern::OpenTwo), count(Pattern::Two));
    Some(if fours >= 2 {
        Combination::FourFour
    } else if fours == 1 && open_threes >= 1 {
        Combination::FourThree
    } else if fours == 1 && threes + open_twos + twos >= 1 {
        Combination::FourTwo
    } else if open_threes >= 2 {
        Combination::ThreeThree
    } else if open_threes == 1 && threes + open_twos >= 1 {
        Combination::OpenThreeTwo
    } else if threes >= 1 && threes + open_twos >= 2 {
        Combination::ThreeTwo
    } else if open_twos >= 2 {
        Combination::TwoTwo
    } else {
        return None;
    })
}

/// Adds the features of one point (the four line patterns a stone there makes) to `counts`: each line's
/// pattern, and the strongest [`combination`] of lines.
pub fn add_features(lines: &[Pattern; 4], counts: &mut [i32; FEATURES]) {
    for &line in lines {
        if let Some(feature) = line_feature(line) {
            counts[feature] += 1;
        }
    }
    if let Some(c) = combination(lines) {
        counts[COMBINATIONS + c as usize] += 1;
    }
}

/// The number of shape indices ([`shape`]): four line kinds of nine (the first nine of [`Pattern::ALL`], dead to
/// open four; an overline counts as dead) in base 9.
pub const SHAPES: usize = 9 * 9 * 9 * 9;

/// The shape of a point: its four line patterns as a multiset, in `0..SHAPES`. `None` where a line makes a five
/// (the five decides, nothing to adjust) or every line is dead.
#[must_use]
pub fn shape(lines: &[Pattern; 4]) -> Option<usize> {
    let mut codes = [0usize; 4];
    for (code, &line) in codes.iter_mut().zip(lines) {
        *code = match line {
            Pattern::Five => return None,
            Pattern::Overline => 0,
            other => other as usize,
        };
    }
    codes.sort_unstable_by(|a, b| b.cmp(a));
    let index = codes.iter().fold(0, |i, &c| i * 9 + c);
    (index != 0).then_some(index)
}

/// The four line patterns of a shape, strongest first.
#[must_use]
pub fn shape_lines(shape: usize) -> [Pattern; 4] {
    [3, 2, 1, 0].map(|d| Pattern::ALL[shape / 9usize.pow(d) % 9])
}

/// A shape's name in the values file: its live line patterns, strongest first, joined by `+`.
#[must_use]
pub fn shape_name(shape: usize) -> String {
    let names: Vec<&str> =
        shape_lines(shape).iter().filter(|&&l| l != Pattern::Dead).map(|&l| pattern_name(l)).collect();
    names.join("+")
}

/// Reads a shape's name ([`shape_name`]); `None` unless it is one.
#[must_use]
pub fn parse_shape(name: &str) -> Option<usize> {
    let parts: Vec<&str> = name.split('+').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut lines = [Pattern::Dead; 4];
    for (line, part) in lines.iter_mut().zip(&parts) {
        *line = *Pattern::ALL[1..9].iter().find(|&&k| pattern_name(k) == *part)?;
    }
    let index = shape(&lines)?;
    (shape_name(index) == name).then_some(index)
}

/// A live line pattern's name, as the feature names spell it.
fn pattern_name(line: Pattern) -> &'static str {
    line_feature(line).map_or("dead", |f| FEATURE_NAMES[f])
}

/// The facts of a threat situation, from the side to move's view, in bit order: whether the opponent has an open
/// four to make, whether the side to move has a four that makes a three or a two besides, any four, an open three
/// with another three or open two, an open three, and the same for the opponent. Rapfi's classical evaluation
/// values the side to move's threats this way, beside its point values: whoever moves first with a threat can use
/// it, which point values summed over the board cannot tell.
pub const SITUATION_FACTS: [&str; 9] = [
    "their-open-four",
    "own-four-plus",
    "own-four",
    "own-three-plus",
    "own-open-three",
    "their-four-plus",
    "their-four",
    "their-three-plus",
    "their-open-three",
];

/// The number of threat situations: every combination of the [`SITUATION_FACTS`].
pub const SITUATIONS: usize = 1 << SITUATION_FACTS.len();

/// A situation's name in the values file: its facts joined by `+`, or `none`.
#[must_use]
pub fn situation_name(situation: usize) -> String {
    let facts: Vec<&str> =
        SITUATION_FACTS.iter().enumerate().filter(|(i, _)| situation & 1 << i != 0).map(|(_, &f)| f).collect();
    if facts.is_empty() { "none".into() } else { facts.join("+") }
}

/// Reads a situation's name ([`situation_name`]); `None` unless it is one.
#[must_use]
pub fn parse_situation(name: &str) -> Option<usize> {
    let mut situation = 0;
    if name != "none" {
        for fact in name.split('+') {
            situation |= 1 << SITUATION_FACTS.iter().position(|&f| f == fact)?;
        }
    }
    (situation < SITUATIONS && situation_name(situation) == name).then_some(situation)
}

/// The value of a point with these line patterns in one role, from the features alone (no shape adjustment).
#[must_use]
pub fn point_value(row: &Row, lines: &[Pattern; 4]) -> i32 {
    let mut counts = [0; FEATURES];
    add_features(lines, &mut counts);
    let fives = lines.iter().filter(|&&l| l == Pattern::Five).count() as i32;
    fives * FIVE + counts.iter().zip(row).map(|(c, v)| c * v).sum::<i32>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_values_are_usable_and_a_bad_file_says_why() {
        let file = parse(EMBEDDED).expect("the embedded values file");
        assert_eq!(file.len(), WinRule::ALL.len());
        let again = parse(&format(&file, "test").expect("format")).expect("written values read back");
        assert_eq!(again, file);
        let mut broken = file.clone();
        broken.get_mut("caro").expect("caro").white.waiting[4] = LIMIT + 1;
        let error = parse(&format(&broken, "test").expect("format")).expect_err("out of range");
        assert!(error.to_string().contains("open-three"), "{error}");
        broken.remove("caro");
        assert_eq!(parse(&format(&broken, "test").expect("format")), Err(ValuesError::Missing("caro")));
        assert!(matches!(parse("[freestyle]\nblack = 3\n"), Err(ValuesError::Syntax(_))));
    }

    #[test]
    fn every_shape_has_a_name_that_reads_back_and_other_names_are_refused() {
        let mut named = 0;
        for s in 0..SHAPES {
            let lines = shape_lines(s);
            if shape(&lines) == Some(s) {
                named += 1;
                assert_eq!(parse_shape(&shape_name(s)), Some(s), "{}", shape_name(s));
            }
        }
        assert_eq!(named, 494, "the multisets of four of nine line kinds, less the all-dead one");
        let lines = [Pattern::Two, Pattern::Overline, Pattern::Four, Pattern::Two];
        assert_eq!(shape(&lines).map(shape_name).as_deref(), Some("four+two+two"));
        assert_eq!(shape(&[Pattern::Five, Pattern::One, Pattern::Dead, Pattern::Dead]), None);
        for bad in ["", "dead", "two+four", "five", "one+one+one+one+one", "four+", "open four"] {
            assert_eq!(parse_shape(bad), None, "{bad}");
        }
        let mut file = parse(EMBEDDED).expect("the embedded values file");
        file.get_mut("renju").expect("renju").white.waiting_shapes.insert("two+four".into(), 5);
        let error = parse(&format(&file, "test").expect("format")).expect_err("a bad shape");
        assert!(error.to_string().contains("renju: the shape `two+four` (not a shape"), "{error}");
        fn shapes(file: &mut ValuesFile) -> &mut Shapes {
            &mut file.get_mut("renju").expect("renju").white.waiting_shapes
        }
        shapes(&mut file).clear();
        shapes(&mut file).insert("four+two".into(), LIMIT + 1);
        let error = parse(&format(&file, "test").expect("format")).expect_err("too large");
        assert!(error.to_string().contains("beyond"), "{error}");
        shapes(&mut file).insert("four+two".into(), -7);
        let again = parse(&format(&file, "test").expect("format")).expect("a good shape");
        assert_eq!(again["renju"].white.waiting_shapes["four+two"], -7);
    }

    #[test]
    fn every_situation_has_a_name_that_reads_back_and_other_names_are_refused() {
        for s in 0..SITUATIONS {
            assert_eq!(parse_situation(&situation_name(s)), Some(s), "{}", situation_name(s));
        }
        assert_eq!(situation_name(0), "none");
        assert_eq!(situation_name(0b1_0000_0101), "their-open-four+own-four+their-open-three");
        for bad in ["", "own-four+their-open-four", "own-four+own-four", "own-five", "none+own-four"] {
            assert_eq!(parse_situation(bad), None, "{bad}");
        }
        let mut file = parse(EMBEDDED).expect("the embedded values file");
        file.get_mut("caro").expect("caro").black.situations.insert("own-four+their-open-four".into(), 5);
        let error = parse(&format(&file, "test").expect("format")).expect_err("a bad situation");
        assert!(
            error.to_string().contains("caro: the situation `own-four+their-open-four` (not a situation"),
            "{error}"
        );
    }

    #[test]
    fn the_hand_set_values_are_the_old_point_values() {
        let row = RuleValues::hand_set().black.waiting;
        let lines = [Pattern::OpenThree, Pattern::OpenThree, Pattern::Two, Pattern::Dead];
        assert_eq!(point_value(&row, &lines), 180 + 180 + 12 + 700);
        let lines = [Pattern::OpenTwo, Pattern::Three, Pattern::OpenTwo, Pattern::Dead];
        assert_eq!(point_value(&row, &lines), 12 + 50 + 12, "a closed three and open twos: no hand-set bonus");
        let lines = [Pattern::Four, Pattern::OpenThree, Pattern::Five, Pattern::One];
        assert_eq!(point_value(&row, &lines), 220 + 180 + FIVE + 2 + 1_500);
    }
}
