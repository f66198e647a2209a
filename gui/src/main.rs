//! `tabula`: the desktop app.

use tabula_gui::app::App;
use tabula_gui::theme::UI_FONT;

fn main() -> iced::Result {
    iced::application(App::boot, App::update, App::view)
        .title(App::title)
        .theme(App::theme)
        .subscription(App::subscription)
        .default_font(UI_FONT)
        .window_size((1180.0, 820.0))
        .centered()
        .run()
}
