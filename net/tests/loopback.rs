//! Two peers on loopback: whole games of each kind with chat and an accepted undo, a hostile guest the host
//! survives with its game intact, and peers that never read or flood.

use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use rand::seq::IndexedRandom;
use tabula_core::{Player, random};
use tabula_games::{Cell, GameKind, Match, MatchSpec};
use tabula_net::connection::{FLOOD_LINES, SendError, WRITE_TIMEOUT};
use tabula_net::referee::LOG_KEEP;
use tabula_net::{Connection, Guest, GuestEvent, HostEvent, Incoming, Message, Referee};

const WAIT: Duration = Duration::from_secs(5);

fn pair() -> (TcpListener, Connection, Connection) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("address");
    let guest = Connection::new(TcpStream::connect(addr).expect("connect")).expect("guest connection");
    let (stream, _) = listener.accept().expect("accept");
    let host = Connection::new(stream).expect("host connection");
    (listener, host, guest)
}

/// The host reads one arrival and answers it.
fn host_step(conn: &Connection, referee: &mut Referee) -> Option<HostEvent> {
    let (replies, event) = match conn.receive(WAIT).expect("the guest sends something") {
        Incoming::Line(line) => referee.handle_line(&line),
        Incoming::TooLong(n) => referee.handle_oversized(n),
        Incoming::Closed | Incoming::Flooded | Incoming::Stalled => return None,
    };
    conn.send_all(&replies).expect("send");
    event
}

/// The guest reads one line and answers it.
fn guest_step(conn: &Connection, guest: &mut Guest) -> Option<GuestEvent> {
    match conn.receive(WAIT).expect("the host sends something") {
        Incoming::Line(line) => {
            let (replies, event) = guest.handle_line(&line);
            conn.send_all(&replies).expect("send");
            event
        }
        other => panic!("guest got {other:?}"),
    }
}

fn legal_cells(game: &dyn Match) -> Vec<Cell> {
    let (w, h) = game.board_size();
    (0..h).flat_map(|y| (0..w).map(move |x| Cell::new(x, y))).filter(|&c| game.check_cell(c).is_ok()).collect()
}

fn connect(spec: MatchSpec) -> (TcpListener, Connection, Connection, Referee, Guest) {
    let (listener, host_conn, guest_conn) = pair();
    let mut referee = Referee::new(spec.clone(), Player::Second).expect("referee");
    let mut guest = Guest::new();
    host_conn.send_all(&referee.greeting()).expect("greet");
    assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Started { spec, colour: Player::Second }));
    assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Synced));
    assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::Joined));
    (listener, host_conn, guest_conn, referee, guest)
}

fn play_whole_game(spec: MatchSpec) {
    let (_listener, host_conn, guest_conn, mut referee, mut guest) = connect(spec);
    host_conn.send_all(&referee.chat("good luck")).expect("chat");
    assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Chat("good luck".into())));
    guest_conn.send(&Message::Chat("you too".into())).expect("chat");
    assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::Chat("you too".into())));

    let mut rng = random::seeded(99);
    let mut undo_done = false;
    while referee.result().is_none() {
        let game = referee.game();
        let choice = legal_cells(game).choose(&mut rng).copied();
        if game.to_move() == referee.host() {
            let sent = referee.play_local(choice).expect("host move");
            host_conn.send_all(&sent).expect("send");
            assert!(matches!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Moved(_))));
        } else {
            let request = guest.play(choice).expect("guest move is legal locally");
            guest_conn.send(&request).expect("send");
            assert!(matches!(host_step(&host_conn, &mut referee), Some(HostEvent::GuestMoved(_))));
            assert!(matches!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Moved(_))));
            if !undo_done && referee.game().ply() >= 4 && referee.result().is_none() {
                // The guest asks to take its move back; the host agrees.
                let before = referee.game().ply();
                guest_conn.send(&Message::UndoRequest).expect("send");
                assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::UndoRequested));
                host_conn.send_all(&referee.answer_undo(true)).expect("send");
                assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::UndoAnswered(true)));
                assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Undone));
                assert_eq!(referee.game().ply(), before - 1);
                assert_eq!(referee.game().to_move(), Player::Second, "the guest is to move again");
                undo_done = true;
            }
        }
        let mirror = guest.game().expect("mirror");
        assert_eq!(mirror.move_list(), referee.game().move_list(), "the boards never diverge");
    }
    assert!(undo_done);
    assert_eq!(guest.game().expect("mirror").current(), referee.game().current());
    assert!(referee.log().is_empty(), "nothing was refused: {:?}", referee.log());
}

#[test]
fn a_whole_gomoku_game_with_chat_and_undo() {
    play_whole_game(MatchSpec { game: GameKind::Gomoku, rule_set: "renju".into(), board_size: None });
}

#[test]
fn a_whole_othello_game_with_chat_and_undo() {
    play_whole_game(MatchSpec::default_for(GameKind::Othello));
}

#[test]
fn the_host_survives_a_hostile_guest_with_its_game_intact() {
    let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle".into(), board_size: None };
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("address");
    let mut referee = Referee::new(spec, Player::Second).expect("referee");
    let mut hostile = TcpStream::connect(addr).expect("connect");
    let host_conn = Connection::new(listener.accept().expect("accept").0).expect("host");
    host_conn.send_all(&referee.greeting()).expect("greet");

    let mut refusals = 0;
    let mut expect_refusal =
        |host_conn: &Connection, referee: &mut Referee, what: &str| match host_step(host_conn, referee) {
            Some(HostEvent::Refused(reason)) => {
                refusals += 1;
                reason
            }
            other => panic!("{what}: expected a refusal, got {other:?}"),
        };
    hostile.write_all(b"\x00\xff garbage \x01\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "garbage").contains("unknown message"));
    hostile.write_all(b"MOVE h8\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "before welcome").contains("WELCOME"));
    hostile.write_all(b"WELCOME 1\n").expect("write");
    assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::Joined));
    hostile.write_all(b"MOVE h8\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "out of turn").contains("not your turn"));
    host_conn.send_all(&referee.play_local(Some(Cell::new(7, 7))).expect("host plays h8")).expect("send");
    hostile.write_all(b"MOVE h8\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "occupied").contains("occupied"));
    hostile.write_all(b"MOVE z99\n").expect("write");
    expect_refusal(&host_conn, &mut referee, "off the board");
    hostile.write_all(b"MOVED 2 i9\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "host-only").contains("only the host"));
    hostile.write_all(b"UNDO-ACCEPT\n").expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "unasked answer").contains("no undo"));
    hostile.write_all(format!("CHAT {}\n", "x".repeat(100_000)).as_bytes()).expect("write");
    assert!(expect_refusal(&host_conn, &mut referee, "oversized").contains("too long"));
    hostile.write_all(b"PING\n").expect("write");
    assert_eq!(host_step(&host_conn, &mut referee), None, "PING is answered without an event");
    let before = referee.game().move_list();
    hostile.write_all(b"MOVE i").expect("write");
    drop(hostile);
    assert_eq!(host_conn.receive(WAIT), Some(Incoming::Closed), "a cut line is dropped with the connection");
    assert_eq!(referee.game().move_list(), before, "the game is intact");
    assert_eq!(referee.game().move_list(), ["h8"]);
    assert_eq!(refusals, 8);
    assert_eq!(referee.log().len(), 8, "every refusal is logged");

    // The guest reconnects and gets the game so far.
    let guest_conn = Connection::new(TcpStream::connect(addr).expect("reconnect")).expect("guest");
    let host_conn = Connection::new(listener.accept().expect("accept").0).expect("host");
    let mut guest = Guest::new();
    host_conn.send_all(&referee.greeting()).expect("greet");
    assert!(matches!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Started { .. })));
    assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Synced));
    assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::Joined));
    assert_eq!(guest.game().expect("mirror").move_list(), ["h8"]);
    let request = guest.play(Some(Cell::new(8, 6))).expect("legal");
    guest_conn.send(&request).expect("send");
    assert_eq!(host_step(&host_conn, &mut referee), Some(HostEvent::GuestMoved("i9".into())));
    assert!(matches!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Moved(_))));
}

#[test]
fn a_guest_out_of_step_asks_for_the_whole_game() {
    let spec = MatchSpec::default_for(GameKind::Othello);
    let (_listener, host_conn, guest_conn, mut referee, mut guest) = connect(spec);
    // A MOVED with a wrong ply number (as after a lost line) is not guessed at: the guest asks for SYNC.
    host_conn.send(&Message::Moved { ply: 5, notation: "f5".into() }).expect("send");
    assert_eq!(guest_step(&guest_conn, &mut guest), None);
    assert_eq!(host_step(&host_conn, &mut referee), None, "RESYNC is answered with SYNC");
    assert_eq!(guest_step(&guest_conn, &mut guest), Some(GuestEvent::Synced));
    assert_eq!(guest.game().expect("mirror").ply(), 0);
}

#[test]
fn sending_to_a_peer_that_never_reads_never_waits() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let _deaf = TcpStream::connect(listener.local_addr().expect("address")).expect("connect");
    let host = Connection::new(listener.accept().expect("accept").0).expect("host");
    let line = Message::Chat("x".repeat(4000));
    let start = Instant::now();
    let mut sent = 0;
    let refusal = loop {
        match host.send(&line) {
            Ok(()) => sent += 1,
            Err(e) => break e,
        }
        assert!(sent < 1_000_000, "the queue never filled");
    };
    assert!(matches!(refusal, SendError::NotReading), "{refusal}");
    assert!(start.elapsed() < Duration::from_secs(2), "sending waited {:?} for {sent} lines", start.elapsed());
    // Once the socket's buffers are full too and a write has waited too long, the connection is given up.
    let end = loop {
        for _ in 0..50 {
            let _ = host.send(&line);
        }
        if let Some(incoming) = host.receive(Duration::from_millis(5)) {
            break incoming;
        }
        assert!(start.elapsed() < WRITE_TIMEOUT * 6, "still connected");
    };
    assert_eq!(end, Incoming::Stalled);
}

#[test]
fn a_flooding_peer_is_cut_off_and_the_refusal_log_stays_bounded() {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let mut flooder = TcpStream::connect(listener.local_addr().expect("address")).expect("connect");
    let conn = Connection::new(listener.accept().expect("accept").0).expect("host");
    let writer = std::thread::spawn(move || {
        let lines = "NONSENSE\n".repeat(10 * FLOOD_LINES);
        let _ = flooder.write_all(lines.as_bytes());
    });
    let mut referee = Referee::new(MatchSpec::default_for(GameKind::Gomoku), Player::Second).expect("referee");
    let mut lines = 0;
    let end = loop {
        match conn.receive(WAIT).expect("the flood goes on or ends") {
            Incoming::Line(line) => {
                lines += 1;
                let _ = referee.handle_line(&line);
            }
            other => break other,
        }
    };
    assert_eq!(end, Incoming::Flooded);
    assert_eq!(lines, FLOOD_LINES, "every line up to the limit was read");
    assert_eq!(referee.log().len(), LOG_KEEP);
    writer.join().expect("writer");
}

#[test]
fn a_swap_opening_is_refused_by_host_and_guest_alike() {
    let spec = MatchSpec { game: GameKind::Gomoku, rule_set: "freestyle-swap2".into(), board_size: None };
    let refusal = Referee::new(spec.clone(), Player::Second).err().expect("a refusal");
    assert!(refusal.contains("swap opening"), "{refusal}");
    // A host that sends one anyway gets an error back, and the guest starts no game.
    let mut guest = Guest::new();
    let hello = Message::Hello { version: tabula_net::PROTOCOL_VERSION, spec, guest: Player::Second };
    let (replies, event) = guest.handle_line(&hello.to_line());
    assert_eq!(event, None);
    assert!(matches!(&replies[..], [Message::Error(reason)] if reason.contains("swap opening")), "{replies:?}");
}
