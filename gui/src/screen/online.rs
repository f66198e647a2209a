//! Playing over the network: the Host and Join forms, and the chat panel and controls the play screen shows
//! in an online game.

use iced::widget::{button, column, container, row, scrollable, text, text_input};
use iced::{Element, Fill, Length};
use tabula_core::Player;
use tabula_games::registry::GameKind;

use crate::focus::Focus;
use crate::keys::Shortcut;
use crate::online::{Asked, ChatLine, DEFAULT_PORT, Link, Online, Reach};
use crate::screen::new_game::{self, Form};
use crate::screen::play::{self, Play, keyed};
use crate::screen::widgets::{action, card, heading, page, pick, segmented};
use tabula_games::setup::{LevelChoice, colour_name};

/// A change on the online screen or in an online game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Msg {
    /// The game, rule set or board size to host.
    Form(new_game::Msg),
    /// The colour the host plays.
    Colour(Player),
    /// The port to listen on.
    Port(String),
    /// Who may join.
    Reach(Reach),
    /// Start hosting.
    Host,
    /// The address to join.
    Address(String),
    /// Join the game at the address.
    Join,
    /// Check the connection for arrivals.
    Poll,
    /// The chat line being typed.
    Draft(String),
    /// Send the chat line.
    SendChat,
    /// Ask the other player to take back this side's last move.
    AskUndo,
    /// Answer the other player's question.
    Answer(bool),
    /// Offer a new game.
    OfferNewGame,
    /// Connect again after the connection dropped.
    Reconnect,
    /// Back to the home screen.
    Back,
}

/// What the Host and Join forms hold.
#[derive(Clone, Debug)]
pub struct Forms {
    /// The game to host.
    pub game: Form,
    /// The host's colour.
    pub colour: Player,
    /// The port, as typed.
    pub port: String,
    /// Who may join: this computer only unless the user opens the game to the network.
    pub reach: Reach,
    /// The address to join, as typed.
    pub address: String,
    /// A problem with the last attempt.
    pub error: Option<String>,
    /// This machine's addresses, to tell the other player.
    pub addresses: Vec<std::net::IpAddr>,
}

impl Default for Forms {
    fn default() -> Forms {
        Forms {
            game: Form::new(GameKind::Gomoku, LevelChoice::Named("Medium".into())),
            colour: Player::First,
            port: DEFAULT_PORT.to_string(),
            reach: Reach::ThisComputer,
            address: format!("127.0.0.1:{DEFAULT_PORT}"),
            error: None,
            addresses: Vec::new(),
        }
    }
}

/// The online screen: host a game or join one. `status` describes a connection being made.
pub fn view<'a>(focus: &Focus<Msg>, forms: &'a Forms, status: Option<String>) -> Element<'a, Msg> {
    let form = &forms.game;
    let games: Vec<(GameKind, String)> = GameKind::ALL.iter().map(|&g| (g, g.name().to_string())).collect();
    let sizes = form.game.board_sizes(&form.rule_set);
    let colours: Vec<(Player, String)> = Player::BOTH.iter().map(|&p| (p, colour_name(p).to_string())).collect();
    let reaches = [(Reach::ThisComputer, "This computer".to_string()), (Reach::Network, "Network".to_string())];
    let addresses = forms
        .addresses
        .iter()
        .filter(|ip| forms.reach == Reach::Network || ip.is_loopback())
        .map(|ip| format!("{ip}:{}", forms.port.trim()))
        .collect::<Vec<_>>()
        .join("   ");
    let exposure = match forms.reach {
        Reach::ThisComputer => "Only programs on this computer can connect; nothing is open to the network.",
        Reach::Network => "Anyone who can reach this computer can connect while you wait for your opponent.",
    };
    let labelled = |label, control: Element<'a, Msg>| {
        row![text(label).size(15).width(Length::Fixed(108.0)), control].align_y(iced::Center)
    };
    let form_msg = Msg::Form;
    let on_size = move |s| form_msg(new_game::Msg::BoardSize(s));
    let port = text_input("7878", &forms.port).on_input(Msg::Port).on_submit(Msg::Host).width(Length::Fixed(120.0));
    let host = card(
        column![
            heading("Host a game"),
            segmented(focus, "Game", &games, &form.game, move |g| form_msg(new_game::Msg::Game(g))),
            labelled("Rule set", new_game::rule_set_pick(focus, form, move |r| form_msg(new_game::Msg::RuleSet(r)))),
            labelled("Board size", pick(focus, "Board size", sizes, Some(form.board_size), on_size, Length::Shrink)),
            labelled("You play", segmented(focus, "You play", &colours, &forms.colour, Msg::Colour)),
            labelled("Port", focus.text_field("Port", "online-port", port)),
            labelled("Who can join", segmented(focus, "Who can join", &reaches, &forms.reach, Msg::Reach)),
            text(exposure).size(14),
            text(format!("Tell the other player one of: {addresses}")).size(14),
            action(focus, "Host", Some(Msg::Host)),
        ]
        .spacing(12),
    )
    .width(Fill);
    let address = text_input("192.168.1.20:7878", &forms.address).on_input(Msg::Address).on_submit(Msg::Join);
    let join = card(
        column![
            heading("Join a game"),
            text("The host's address and port").size(15),
            focus.text_field("Address", "online-address", address),
            action(focus, "Join", Some(Msg::Join)),
        ]
        .spacing(12),
    )
    .width(Fill);
    let mut content = column![row![host, join].spacing(16)].spacing(12);
    if let Some(status) = status {
        content = content.push(text(status).size(15));
    }
    if let Some(error) = &forms.error {
        content = content.push(text(error.clone()).size(15).style(text::danger));
    }
    page(focus, "Play online", Msg::Back, content)
}

/// The chat panel and the state of the connection, in place of the computer's analysis.
pub fn panel<'a>(focus: &Focus<Msg>, online: &'a Online) -> Element<'a, Msg> {
    let lines = column(online.chat.iter().map(|line| {
        let (who, words, style): (&str, &str, fn(&iced::Theme) -> text::Style) = match line {
            ChatLine::Mine(t) => ("you: ", t, text::default),
            ChatLine::Theirs(t) => ("them: ", t, text::primary),
            ChatLine::Note(t) => ("", t, text::secondary),
        };
        text(format!("{who}{words}")).size(14).style(style).into()
    }))
    .spacing(2);
    let mut body = column![
        text(online.link_words()).size(14),
        text("Chat").size(14),
        container(scrollable(lines).anchor_bottom().height(Length::Fixed(140.0)).width(Fill)),
        row![
            focus.text_field(
                "Chat",
                "online-chat",
                text_input("say something", &online.draft).on_input(Msg::Draft).on_submit(Msg::SendChat).size(14)
            ),
            focus.button("Send", button(text("Send").size(14)).padding([4, 10]), Some(Msg::SendChat)),
        ]
        .spacing(6),
    ]
    .spacing(6);
    if let Some(asked) = online.asked {
        let question = match asked {
            Asked::Undo => "The other player asks to take back their move.",
            Asked::NewGame => "The other player offers a new game.",
        };
        body = body.push(text(question).size(14)).push(
            row![action(focus, "Accept", Some(Msg::Answer(true))), action(focus, "Decline", Some(Msg::Answer(false)))]
                .spacing(6),
        );
    }
    if matches!(online.link, Link::Dropped(_)) {
        body = body.push(action(focus, "Reconnect", Some(Msg::Reconnect)));
    }
    body.into()
}

/// The controls of an online game.
pub fn controls<'a>(focus: &Focus<play::Msg>, play: &'a Play, online: &'a Online) -> Element<'a, play::Msg> {
    let msg = play::Msg::Online;
    let live = online.ready() && !play.is_over();
    let first = row![
        keyed(focus, "Ask to undo", Shortcut::Undo, (live && play.game.ply() > 0).then(|| msg(Msg::AskUndo))),
        action(focus, "Resign", live.then_some(play::Msg::AskResign)),
    ]
    .spacing(6);
    let second = row![
        keyed(focus, "Offer new game", Shortcut::NewGame, online.ready().then(|| msg(Msg::OfferNewGame))),
        keyed(focus, "Save", Shortcut::Save, Some(play::Msg::OpenSave)),
        keyed(focus, "Leave", Shortcut::Menu, Some(play::Msg::Leave)),
    ]
    .spacing(6);
    column![first, second].spacing(6).into()
}
