//! `tabula`: the desktop app.

use std::process::ExitCode;

use tabula_gui::app::App;
use tabula_gui::theme::UI_FONT;

fn main() -> ExitCode {
    if let Some(missing) = missing_display() {
        eprintln!("tabula: {missing}");
        return ExitCode::FAILURE;
    }
    let result = iced::application(App::boot, App::update, App::view)
        .title(App::title)
        .theme(App::theme)
        .subscription(App::subscription)
        .default_font(UI_FONT)
        .window_size((1180.0, 820.0))
        .centered()
        .run();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tabula: the window could not be opened: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Why no window can open, on systems whose windows come from X11 or Wayland: neither display is set (a server
/// or a terminal without a desktop), which the windowing library would otherwise report as a panic.
fn missing_display() -> Option<&'static str> {
    let unix_desktop = cfg!(all(unix, not(target_os = "macos"), not(target_os = "ios"), not(target_os = "android")));
    let set = |name| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    (unix_desktop && !set("DISPLAY") && !set("WAYLAND_DISPLAY")).then_some(
        "no display to open a window on (neither DISPLAY nor WAYLAND_DISPLAY is set): run it in a desktop session, \
         or under a virtual X server such as Xvfb",
    )
}
