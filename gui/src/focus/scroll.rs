//! Scrolling the focused control into view. The ring gives the focused control's container the id
//! [`FOCUSED`]; [`reveal`] finds that container (or [`reveal_container`] another one) and the scrollable around
//! it, and scrolls the scrollable the least that shows the whole control. A second pass over the same tree finds that scrollable again by its
//! place in walking order, so scrollables need no id. It handles the innermost scrollable around the control,
//! vertically, and assumes the scrollable is anchored at the top (iced's default).

use iced::Task;
use iced::advanced::widget::operation::{Outcome, Scrollable};
use iced::advanced::widget::{Id, Operation, operate};
use iced::widget::operation::AbsoluteOffset;
use iced::{Rectangle, Vector};

/// The widget id of the focused control's ring.
pub const FOCUSED: Id = Id::new("tabula-focused");

/// Room kept between the focused control and the edge of the visible part, in logical pixels.
const MARGIN: f32 = 8.0;

/// A task that scrolls the focused control into view, if it lies in a scrollable and out of sight.
pub fn reveal<T: Send + 'static>() -> Task<T> {
    reveal_container(FOCUSED)
}

/// A task that scrolls the container with the id `target` into view, if it lies in a scrollable and out of sight.
pub fn reveal_container<T: Send + 'static>(target: Id) -> Task<T> {
    operate(Find { target, seen: 0, entering: None, around: None, found: None }).discard()
}

/// The vertical offset that shows all of `target` plus [`MARGIN`] in a scrollable at `bounds`, whose content
/// lies at `content` (unscrolled) and is scrolled by `offset`; the least change from `offset`, the top of a
/// target taller than the scrollable, and `None` when no scroll is needed.
fn offset_to_show(bounds: Rectangle, content: Rectangle, offset: f32, target: Rectangle) -> Option<f32> {
    let top = target.y - content.y - MARGIN;
    let bottom = target.y + target.height - content.y + MARGIN;
    let wanted = if top < offset || bottom - top > bounds.height {
        top
    } else if bottom > offset + bounds.height {
        bottom - bounds.height
    } else {
        return None;
    };
    let wanted = wanted.clamp(0.0, (content.height - bounds.height).max(0.0));
    ((wanted - offset).abs() >= 0.5).then_some(wanted)
}

/// A scrollable met while walking the widget tree: its place in walking order and where it stands.
#[derive(Clone, Copy, Debug)]
struct Viewport {
    index: usize,
    bounds: Rectangle,
    content: Rectangle,
    translation: Vector,
}

/// The first pass: finds the target container and the innermost scrollable around it.
#[derive(Debug)]
struct Find {
    /// The id of the container to show.
    target: Id,
    /// How many scrollables the walk has met.
    seen: usize,
    /// The scrollable just met; the next `traverse` walks its content.
    entering: Option<Viewport>,
    /// The innermost scrollable whose content is being walked.
    around: Option<Viewport>,
    found: Option<(Viewport, Rectangle)>,
}

impl Operation for Find {
    fn traverse(&mut self, operate: &mut dyn FnMut(&mut dyn Operation)) {
        let outer = self.around;
        if let Some(entered) = self.entering.take() {
            self.around = Some(entered);
        }
        operate(self);
        self.around = outer;
    }

    fn container(&mut self, id: Option<&Id>, bounds: Rectangle) {
        if id == Some(&self.target)
            && let Some(around) = self.around
        {
            self.found.get_or_insert((around, bounds));
        }
    }

    fn scrollable(
        &mut self,
        _id: Option<&Id>,
        bounds: Rectangle,
        content: Rectangle,
        translation: Vector,
        _state: &mut dyn Scrollable,
    ) {
        self.entering = Some(Viewport { index: self.seen, bounds, content, translation });
        self.seen += 1;
    }

    fn finish(&self) -> Outcome<()> {
        let Some((viewport, target)) = self.found else { return Outcome::None };
        match offset_to_show(viewport.bounds, viewport.content, viewport.translation.y, target) {
            Some(y) => Outcome::Chain(Box::new(ScrollNth { index: viewport.index, seen: 0, y })),
            None => Outcome::None,
        }
    }
}

/// The second pass, over the same tree: scrolls the `index`-th scrollable to `y`.
#[derive(Debug)]
struct ScrollNth {
    index: usize,
    seen: usize,
    y: f32,
}

impl Operation for ScrollNth {
    fn traverse(&mut self, operate: &mut dyn FnMut(&mut dyn Operation)) {
        operate(self);
    }

    fn scrollable(
        &mut self,
        _id: Option<&Id>,
        _bounds: Rectangle,
        _content: Rectangle,
        _translation: Vector,
        state: &mut dyn Scrollable,
    ) {
        if self.seen == self.index {
            state.scroll_to(AbsoluteOffset { x: None, y: Some(self.y) });
        }
        self.seen += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iced::widget::operation::RelativeOffset;

    /// A scrollable 100 high at y = 50, over content 400 high.
    fn show(offset: f32, top: f32, height: f32) -> Option<f32> {
        let bounds = Rectangle { x: 0.0, y: 50.0, width: 300.0, height: 100.0 };
        let content = Rectangle { height: 400.0, ..bounds };
        offset_to_show(bounds, content, offset, Rectangle { x: 10.0, y: 50.0 + top, width: 80.0, height })
    }

    #[test]
    fn a_control_in_sight_does_not_scroll() {
        assert_eq!(show(0.0, 20.0, 30.0), None);
        assert_eq!(show(200.0, 230.0, 50.0), None);
    }

    #[test]
    fn a_control_above_scrolls_up_to_its_top() {
        assert_eq!(show(200.0, 150.0, 30.0), Some(150.0 - MARGIN));
        assert_eq!(show(200.0, 190.0, 30.0), Some(190.0 - MARGIN), "partly hidden above");
        assert_eq!(show(100.0, 4.0, 30.0), Some(0.0), "not past the start");
    }

    #[test]
    fn a_control_below_scrolls_down_to_its_bottom() {
        assert_eq!(show(0.0, 250.0, 30.0), Some(280.0 + MARGIN - 100.0));
        assert_eq!(show(0.0, 80.0, 30.0), Some(110.0 + MARGIN - 100.0), "partly hidden below");
        assert_eq!(show(0.0, 370.0, 28.0), Some(300.0), "not past the end");
    }

    #[test]
    fn a_control_taller_than_the_scrollable_shows_its_top() {
        assert_eq!(show(0.0, 150.0, 180.0), Some(150.0 - MARGIN));
        assert_eq!(show(150.0 - MARGIN, 150.0, 180.0), None, "already at its top");
        assert_eq!(show(200.0, 150.0, 180.0), Some(150.0 - MARGIN), "from below its top");
    }

    /// A scrollable's state that records where it was scrolled to.
    #[derive(Default)]
    struct Scrolled(Option<f32>);

    impl Scrollable for Scrolled {
        fn snap_to(&mut self, _: RelativeOffset<Option<f32>>) {}
        fn scroll_to(&mut self, offset: AbsoluteOffset<Option<f32>>) {
            self.0 = offset.y;
        }
        fn scroll_by(&mut self, _: AbsoluteOffset, _: Rectangle, _: Rectangle) {}
    }

    /// Walks a tree like iced's widgets do: two scrollables side by side, then a control outside them; the
    /// focused control at `target` (content y) is in the scrollable numbered `place`, or outside them (2).
    /// Returns where each scrollable was scrolled to.
    fn walk(place: usize, target: f32) -> [Option<f32>; 2] {
        let bounds = Rectangle { x: 0.0, y: 0.0, width: 300.0, height: 100.0 };
        let content = Rectangle { height: 400.0, ..bounds };
        let control = Rectangle { x: 0.0, y: target, width: 80.0, height: 30.0 };
        let focused = FOCUSED;
        let id = |i: usize| (i == place).then_some(&focused);
        let mut states = [Scrolled::default(), Scrolled::default()];
        let tree = |op: &mut dyn Operation, states: &mut [Scrolled; 2]| {
            op.container(None, content);
            op.traverse(&mut |op| {
                for (i, state) in states.iter_mut().enumerate() {
                    op.scrollable(None, bounds, content, Vector::ZERO, state);
                    op.traverse(&mut |op| op.container(id(i), control));
                }
                op.container(id(2), control);
            });
        };
        let mut find = Find { target: FOCUSED, seen: 0, entering: None, around: None, found: None };
        tree(&mut find, &mut states);
        if let Outcome::Chain(mut next) = find.finish() {
            tree(next.as_mut(), &mut states);
            assert!(matches!(next.finish(), Outcome::None));
        }
        states.map(|s| s.0)
    }

    #[test]
    fn only_the_scrollable_around_the_focused_control_scrolls() {
        let down = Some(280.0 + MARGIN - 100.0);
        assert_eq!(walk(1, 250.0), [None, down]);
        assert_eq!(walk(0, 250.0), [down, None]);
        assert_eq!(walk(2, 250.0), [None, None], "outside every scrollable");
        assert_eq!(walk(1, 20.0), [None, None], "in sight");
    }
}
