//! A drop-down that Esc closes. iced's pick list leaves its menu open on Esc and lets the key through, so the
//! screen under it took Esc as "back" and left the form with the menu still open. This wrapper notices when its
//! content shows an overlay (the open menu) and then takes Esc itself: it closes the menu by giving the content
//! fresh state, and the key goes no further.

use iced::advanced::layout::{self, Layout};
use iced::advanced::widget::{Operation, Tree, tree};
use iced::advanced::{Clipboard, Shell, Widget, overlay, renderer};
use iced::keyboard::{self, key};
use iced::{Element, Event, Length, Rectangle, Size, Vector, mouse};

/// `content`, whose open menu Esc closes.
pub struct EscapeCloses<'a, M, T, R> {
    content: Element<'a, M, T, R>,
}

impl<'a, M, T, R> EscapeCloses<'a, M, T, R> {
    /// Wraps `content`.
    pub fn new(content: impl Into<Element<'a, M, T, R>>) -> Self {
        EscapeCloses { content: content.into() }
    }
}

/// Whether the content showed an overlay when the widget tree was last walked for one.
#[derive(Default)]
struct Open(bool);

impl<M, T, R: renderer::Renderer> Widget<M, T, R> for EscapeCloses<'_, M, T, R> {
    fn tag(&self) -> tree::Tag {
        tree::Tag::of::<Open>()
    }

    fn state(&self) -> tree::State {
        tree::State::new(Open::default())
    }

    fn children(&self) -> Vec<Tree> {
        vec![Tree::new(&self.content)]
    }

    fn diff(&self, tree: &mut Tree) {
        tree.diff_children(std::slice::from_ref(&self.content));
    }

    fn size(&self) -> Size<Length> {
        self.content.as_widget().size()
    }

    fn layout(&mut self, tree: &mut Tree, renderer: &R, limits: &layout::Limits) -> layout::Node {
        self.content.as_widget_mut().layout(&mut tree.children[0], renderer, limits)
    }

    fn operate(&mut self, tree: &mut Tree, layout: Layout<'_>, renderer: &R, operation: &mut dyn Operation) {
        self.content.as_widget_mut().operate(&mut tree.children[0], layout, renderer, operation);
    }

    fn update(
        &mut self,
        tree: &mut Tree,
        event: &Event,
        layout: Layout<'_>,
        cursor: mouse::Cursor,
        renderer: &R,
        clipboard: &mut dyn Clipboard,
        shell: &mut Shell<'_, M>,
        viewport: &Rectangle,
    ) {
        let escape = matches!(
            event,
            Event::Keyboard(keyboard::Event::KeyPressed { key: keyboard::Key::Named(key::Named::Escape), .. })
        );
        if escape && tree.state.downcast_ref::<Open>().0 {
            tree.children[0] = Tree::new(&self.content);
            tree.state.downcast_mut::<Open>().0 = false;
            shell.capture_event();
            shell.invalidate_layout();
            shell.request_redraw();
            return;
        }
        self.content.as_widget_mut().update(
            &mut tree.children[0],
            event,
            layout,
            cursor,
            renderer,
            clipboard,
            shell,
            viewport,
        );
    }

    fn mouse_interaction(
        &self,
        tree: &Tree,
        layout: Layout<'_>,
        cursor: mouse::Cursor,
        viewport: &Rectangle,
        renderer: &R,
    ) -> mouse::Interaction {
        self.content.as_widget().mouse_interaction(&tree.children[0], layout, cursor, viewport, renderer)
    }

    fn draw(
        &self,
        tree: &Tree,
        renderer: &mut R,
        theme: &T,
        style: &renderer::Style,
        layout: Layout<'_>,
        cursor: mouse::Cursor,
        viewport: &Rectangle,
    ) {
        self.content.as_widget().draw(&tree.children[0], renderer, theme, style, layout, cursor, viewport);
    }

    fn overlay<'b>(
        &'b mut self,
        tree: &'b mut Tree,
        layout: Layout<'b>,
        renderer: &R,
        viewport: &Rectangle,
        translation: Vector,
    ) -> Option<overlay::Element<'b, M, T, R>> {
        let Tree { state, children, .. } = tree;
        let menu = self.content.as_widget_mut().overlay(&mut children[0], layout, renderer, viewport, translation);
        state.downcast_mut::<Open>().0 = menu.is_some();
        menu
    }
}

impl<'a, M: 'a, T: 'a, R: renderer::Renderer + 'a> From<EscapeCloses<'a, M, T, R>> for Element<'a, M, T, R> {
    fn from(widget: EscapeCloses<'a, M, T, R>) -> Element<'a, M, T, R> {
        Element::new(widget)
    }
}

#[cfg(test)]
mod tests {
    use iced::advanced::clipboard;
    use iced::event::Status;
    use iced::widget::pick_list;
    use iced::{Point, Theme, keyboard, mouse};
    use iced_runtime::user_interface::{Cache, UserInterface};

    use super::*;

    const OPTIONS: [&str; 3] = ["Easy", "Medium", "Hard"];

    /// Sends `event` to a pick list (wrapped or not) whose state lives in `cache`; the event's status.
    fn send(wrapped: bool, cache: &mut Cache, event: Event) -> Status {
        let list = pick_list(OPTIONS, Some("Medium"), |s: &str| s.to_string()).width(200);
        let element: Element<'_, String, Theme, iced::Renderer> =
            if wrapped { EscapeCloses::new(list).into() } else { list.into() };
        // The software renderer: iced's null renderer `()` exists only in debug builds.
        let mut renderer = iced::Renderer::new(iced::Font::DEFAULT, iced::Pixels(16.0));
        let mut ui = UserInterface::build(element, Size::new(400.0, 400.0), std::mem::take(cache), &mut renderer);
        let cursor = mouse::Cursor::Available(Point::new(8.0, 8.0));
        let (_, statuses) = ui.update(&[event], cursor, &mut renderer, &mut clipboard::Null, &mut Vec::new());
        *cache = ui.into_cache();
        statuses[0]
    }

    fn escape() -> Event {
        Event::Keyboard(keyboard::Event::KeyPressed {
            key: keyboard::Key::Named(key::Named::Escape),
            modified_key: keyboard::Key::Named(key::Named::Escape),
            physical_key: keyboard::key::Physical::Unidentified(keyboard::key::NativeCode::Unidentified),
            location: keyboard::Location::Standard,
            modifiers: keyboard::Modifiers::default(),
            text: None,
            repeat: false,
        })
    }

    fn click(cache: &mut Cache, wrapped: bool) {
        send(wrapped, cache, Event::Mouse(mouse::Event::ButtonPressed(mouse::Button::Left)));
        send(wrapped, cache, Event::Mouse(mouse::Event::ButtonReleased(mouse::Button::Left)));
    }

    #[test]
    fn esc_closes_an_open_menu_and_goes_no_further() {
        let mut cache = Cache::default();
        assert_eq!(send(true, &mut cache, escape()), Status::Ignored, "with the menu closed Esc passes");
        click(&mut cache, true);
        assert_eq!(send(true, &mut cache, escape()), Status::Captured, "the open menu takes Esc");
        assert_eq!(send(true, &mut cache, escape()), Status::Ignored, "and is closed: the next Esc passes");
    }

    #[test]
    fn a_bare_pick_list_lets_esc_through_with_its_menu_open() {
        let mut cache = Cache::default();
        click(&mut cache, false);
        assert_eq!(send(false, &mut cache, escape()), Status::Ignored, "what the wrapper is for");
    }
}
