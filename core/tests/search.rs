//! The searcher against plain minimax on toy games, its limits, and the toy games' make/unmake.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use proptest::prelude::*;
use support::placement::{Placement, PlacementEval};
use support::random_tree::{RandomEval, RandomTree};
use support::tictactoe::{LineCounter, TicTacToe};
use tabula_core::score::{self, Score};
use tabula_core::{Evaluator, Game, GameResult, Limits, SearchOptions, SearchResult, Searcher};

/// Plain negamax without pruning: the value of every root move, and quiescence when asked.
fn minimax<G: Game, E: Evaluator<G>>(g: &G, e: &E, s: &mut G::State, depth: i32, ply: u32, quiesce: bool) -> Score {
    if let Some(o) = g.outcome(s) {
        return match o.result {
            GameResult::Draw => 0,
            GameResult::Win(w) if w == g.side_to_move(s) => score::mate_in(ply),
            GameResult::Win(_) => score::mated_in(ply),
        };
    }
    let mut moves = Vec::new();
    if depth <= 0 {
        let stand = e.evaluate(g, s);
        if !quiesce {
            return stand;
        }
        e.noisy_moves(g, s, &mut moves);
        return moves.into_iter().fold(stand, |best, mv| {
            let u = g.make(s, mv);
            let v = -minimax(g, e, s, 0, ply + 1, quiesce);
            g.unmake(s, mv, u);
            best.max(v)
        });
    }
    e.search_moves(g, s, &mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let u = g.make(s, mv);
            let v = -minimax(g, e, s, depth - 1, ply + 1, quiesce);
            g.unmake(s, mv, u);
            v
        })
        .max()
        .expect("live node has moves")
}

/// The root value and the set of best root moves by plain minimax.
fn oracle<G: Game, E: Evaluator<G>>(g: &G, e: &E, s: &G::State, depth: i32, quiesce: bool) -> (Score, Vec<G::Move>) {
    let mut s = s.clone();
    let mut moves = Vec::new();
    e.search_moves(g, &s, &mut moves);
    let scored: Vec<(G::Move, Score)> = moves
        .into_iter()
        .map(|mv| {
            let u = g.make(&mut s, mv);
            let v = -minimax(g, e, &mut s, depth - 1, 1, quiesce);
            g.unmake(&mut s, mv, u);
            (mv, v)
        })
        .collect();
    let best = scored.iter().map(|x| x.1).max().expect("moves");
    (best, scored.into_iter().filter(|x| x.1 == best).map(|x| x.0).collect())
}

/// Every combination of the searcher's pruning and ordering options.
fn option_combinations() -> Vec<SearchOptions> {
    let mut all = Vec::new();
    for bits in 0..32u32 {
        all.push(SearchOptions {
            transposition_table: bits & 1 != 0,
            pvs: bits & 2 != 0,
            aspiration: (bits & 4 != 0).then_some(30),
            killers: bits & 8 != 0,
            history: bits & 16 != 0,
            quiescence: false,
            ..SearchOptions::default()
        });
    }
    all
}

/// One search by a fresh single-threaded searcher with a small table.
fn search_once<G: Game, E: Evaluator<G>>(
    g: &G,
    e: &E,
    s: &G::State,
    limits: &Limits,
    o: &SearchOptions,
) -> SearchResult<G::Move> {
    Searcher::new(g, 1).search(g, e, s, limits, o, &mut |_| {})
}

fn search<G: Game, E: Evaluator<G>>(
    g: &G,
    e: &E,
    s: &G::State,
    limits: &Limits,
    o: &SearchOptions,
) -> (Score, G::Move) {
    let r = search_once(g, e, s, limits, o);
    (r.score, r.best_move.expect("a move"))
}

/// Every option combination against plain minimax on the random trees of `seeds`, searched `depth(seed)` deep;
/// returns how many searches were checked.
fn check_random_trees(
    seeds: std::ops::Range<u64>,
    tree: impl Fn(u64) -> RandomTree,
    depth: impl Fn(u64) -> i32,
) -> usize {
    let combos = option_combinations();
    let mut checked = 0;
    for seed in seeds {
        let tree = tree(seed);
        let root = tree.initial_state();
        if tree.outcome(&root).is_some() {
            continue;
        }
        let depth = depth(seed);
        let (value, best) = oracle(&tree, &RandomEval, &root, depth, false);
        for o in &combos {
            let (score, mv) = search(&tree, &RandomEval, &root, &Limits::depth(depth as u32), o);
            assert_eq!(score, value, "seed {seed} depth {depth} {o:?}");
            assert!(best.contains(&mv), "seed {seed}: move {mv} not among best {best:?} with {o:?}");
            checked += 1;
        }
    }
    checked
}

#[test]
fn alpha_beta_equals_minimax_on_random_trees() {
    let checked = check_random_trees(
        0..240,
        |seed| RandomTree { seed, max_branching: 5, height: 9 },
        |seed| 1 + (seed % 5) as i32,
    );
    assert!(checked > 200 * 32, "too few positions checked: {checked}");
}

/// Wide nodes: the searcher picks the first moves of a long list one by one and sorts the rest later.
#[test]
fn excluding_root_moves_gives_the_next_lines_as_minimax_ranks_them() {
    let mut checked = 0;
    for seed in 0..40u64 {
        let tree = RandomTree { seed: seed + 70_000, max_branching: 6, height: 9 };
        let root = tree.initial_state();
        if tree.outcome(&root).is_some() {
            continue;
        }
        let mut s = root.clone();
        let mut moves = Vec::new();
        RandomEval.search_moves(&tree, &s, &mut moves);
        let mut ranked: Vec<(Score, _)> = moves
            .iter()
            .map(|&mv| {
                let u = tree.make(&mut s, mv);
                let v = -minimax(&tree, &RandomEval, &mut s, 3, 1, false);
                tree.unmake(&mut s, mv, u);
                (v, mv)
            })
            .collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        let mut searcher = Searcher::new(&tree, 1);
        let mut excluded = Vec::new();
        let options = SearchOptions { quiescence: false, ..SearchOptions::default() };
        for (k, &(value, _)) in ranked.iter().enumerate() {
            let r = searcher.search_excluding(
                &tree,
                &RandomEval,
                &root,
                &Limits::depth(4),
                &options,
                &excluded,
                &mut |_| {},
            );
            let mv = r.best_move.expect("a move is left");
            assert_eq!(r.score, value, "seed {seed}: line {} scores as minimax's {}th best", k + 1, k + 1);
            assert!(!excluded.contains(&mv), "seed {seed}: an excluded move came back");
            excluded.push(mv);
            checked += 1;
        }
        let r =
            searcher.search_excluding(&tree, &RandomEval, &root, &Limits::depth(4), &options, &excluded, &mut |_| {});
        assert_eq!(r.best_move, None, "seed {seed}: every move excluded");
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn the_last_move_left_by_exclusion_is_searched_as_deep_as_the_others_on_the_clock() {
    let tree = (0..200u64)
        .map(|seed| RandomTree { seed: seed + 90_000, max_branching: 4, height: 12 })
        .find(|t| {
            let mut moves = Vec::new();
            t.legal_moves(&t.initial_state(), &mut moves);
            moves.len() >= 2
        })
        .expect("a tree with a choice at the root");
    let root = tree.initial_state();
    let mut moves = Vec::new();
    tree.legal_moves(&root, &mut moves);
    let limits = Limits { depth: Some(6), time: Some(Duration::from_secs(30)), ..Limits::default() };
    let options = SearchOptions { quiescence: false, ..SearchOptions::default() };
    let r = Searcher::new(&tree, 1).search_excluding(
        &tree,
        &RandomEval,
        &root,
        &limits,
        &options,
        &moves[1..],
        &mut |_| {},
    );
    assert_eq!(r.best_move, Some(moves[0]));
    assert_eq!(r.depth, 6, "not cut short as a forced move");
}

#[test]
fn alpha_beta_equals_minimax_on_wide_random_trees() {
    let wide = |seed| RandomTree { seed: seed + 50_000, max_branching: 30, height: 5 };
    let checked = check_random_trees(0..60, wide, |seed| 1 + (seed % 3) as i32);
    assert!(checked > 50 * 32, "too few positions checked: {checked}");
}

#[test]
fn alpha_beta_equals_minimax_with_transpositions() {
    let combos = option_combinations();
    for seed in 0..120u64 {
        let game = Placement { seed, cells: 8, height: 8 };
        let root = game.initial_state();
        let depth = 2 + (seed % 4) as i32;
        let (value, best) = oracle(&game, &PlacementEval, &root, depth, false);
        for o in &combos {
            let (score, mv) = search(&game, &PlacementEval, &root, &Limits::depth(depth as u32), o);
            assert_eq!(score, value, "seed {seed} depth {depth} {o:?}");
            assert!(best.contains(&mv), "seed {seed}: move {mv} not among best {best:?} with {o:?}");
        }
    }
}

#[test]
fn quiescence_equals_minimax_with_quiescence() {
    for seed in 0..200u64 {
        let tree = RandomTree { seed: seed + 10_000, max_branching: 4, height: 8 };
        let root = tree.initial_state();
        if tree.outcome(&root).is_some() {
            continue;
        }
        let depth = 1 + (seed % 4) as i32;
        let (value, best) = oracle(&tree, &RandomEval, &root, depth, true);
        for o in option_combinations().into_iter().step_by(5) {
            let o = SearchOptions { quiescence: true, ..o };
            let (score, mv) = search(&tree, &RandomEval, &root, &Limits::depth(depth as u32), &o);
            assert_eq!(score, value, "seed {seed} depth {depth} {o:?}");
            assert!(best.contains(&mv), "seed {seed}: {mv} not in {best:?}");
        }
    }
}

/// [`RandomEval`] with every move noisy: quiescence past the horizon would search the whole tree.
struct AllNoisy;

impl Evaluator<RandomTree> for AllNoisy {
    fn evaluate(&self, g: &RandomTree, n: &support::random_tree::Node) -> Score {
        RandomEval.evaluate(g, n)
    }

    fn noisy_moves(&self, g: &RandomTree, n: &support::random_tree::Node, moves: &mut Vec<u8>) {
        g.legal_moves(n, moves);
    }
}

/// A depth-limited search, which has no clock, ends even when quiescence could follow noisy moves through
/// millions of lines: each horizon node spends at most its quiescence budget.
#[test]
fn quiescence_keeps_to_its_node_budget() {
    let tree = RandomTree { seed: 1, max_branching: 16, height: 60 };
    let root = tree.initial_state();
    let safety = Limits { depth: Some(2), nodes: Some(2_000_000), ..Limits::default() };
    let unbounded = SearchOptions { quiescence_nodes: u64::MAX, ..SearchOptions::default() };
    assert!(search_once(&tree, &AllNoisy, &root, &safety, &unbounded).stopped, "the tree is too small to show it");
    for budget in [0u64, 50, 1_000] {
        let options = SearchOptions { quiescence_nodes: budget, ..SearchOptions::default() };
        let r = search_once(&tree, &AllNoisy, &root, &safety, &options);
        assert!(!r.stopped && r.depth == 2, "budget {budget}: stopped at depth {}", r.depth);
        // Two iterations with at most 16 + 256 horizon nodes, each searched at most a few times (aspiration
        // and null-window re-searches); each spends its budget and one more node per move it tries.
        let bound = 4 * (16 + 256) * (budget + 16 + 1);
        assert!(r.nodes <= bound, "budget {budget}: {} nodes, more than {bound}", r.nodes);
    }
}

#[test]
fn tic_tac_toe_is_a_proven_draw() {
    let game = TicTacToe::default();
    let mut searcher = Searcher::new(&game, 4);
    let r = searcher.search(
        &game,
        &LineCounter,
        &game.initial_state(),
        &Limits::default(),
        &SearchOptions::default(),
        &mut |_| {},
    );
    assert_eq!(r.score, 0);
    assert!(r.proven, "a full-width search must see every line to the end");
    assert!(r.depth <= 9);
}

#[test]
fn tic_tac_toe_finds_the_fastest_win() {
    let game = TicTacToe::default();
    // X to move: wins at once on 2 (top row), though other moves also win later.
    let cases = [("XX. OO. ...", 1, vec![2u8]), ("X.. .O. ..X", 0, vec![]), ("X.O .X. ..O", 0, vec![])];
    for (text, fastest, winning) in cases {
        let board = game.position(text);
        let (value, best) = oracle(&game, &LineCounter, &board, 9, false);
        for o in option_combinations() {
            let (score, mv) = search(&game, &LineCounter, &board, &Limits::default(), &o);
            assert_eq!(score, value, "{text} with {o:?}");
            assert!(best.contains(&mv), "{text}: {mv} not among {best:?}");
        }
        if fastest > 0 {
            assert_eq!(value, score::mate_in(fastest), "{text}");
            assert_eq!(best, winning, "{text}");
        }
    }
    // A win in three plies (X forks): the search must prefer it over slower wins.
    let fork = game.position("X.. .O. ..X");
    let (value, _) = oracle(&game, &LineCounter, &fork, 9, false);
    let (score, _) = search(&game, &LineCounter, &fork, &Limits::default(), &SearchOptions::default());
    assert_eq!(score, value);
}

#[test]
fn every_tic_tac_toe_position_matches_minimax() {
    let game = TicTacToe::default();
    let mut stack = vec![game.initial_state()];
    let mut seen = std::collections::HashSet::new();
    let mut checked = 0;
    while let Some(s) = stack.pop() {
        if !seen.insert(s.hash) || game.outcome(&s).is_some() {
            continue;
        }
        if checked % 7 == 0 {
            let (value, best) = oracle(&game, &LineCounter, &s, 9, false);
            let (score, mv) = search(&game, &LineCounter, &s, &Limits::default(), &SearchOptions::default());
            assert_eq!(score, value, "{s:?}");
            assert!(best.contains(&mv));
        }
        checked += 1;
        let mut moves = Vec::new();
        game.legal_moves(&s, &mut moves);
        for mv in moves {
            let mut child = s.clone();
            game.make(&mut child, mv);
            stack.push(child);
        }
    }
    assert!(checked > 4000, "{checked}");
}

fn big_tree() -> RandomTree {
    RandomTree { seed: 99, max_branching: 12, height: 60 }
}

#[test]
fn time_limit_is_kept() {
    let tree = big_tree();
    for budget in [20u64, 150] {
        let limits = Limits { time: Some(Duration::from_millis(budget)), ..Limits::default() };
        let start = Instant::now();
        let mut searcher = Searcher::new(&tree, 1);
        let r =
            searcher.search(&tree, &RandomEval, &tree.initial_state(), &limits, &SearchOptions::default(), &mut |_| {});
        let took = start.elapsed();
        assert!(took < Duration::from_millis(budget + 30), "budget {budget} ms took {took:?}");
        assert!(r.best_move.is_some());
        assert!(r.depth >= 1);
    }
}

/// Limits with a stop flag that another thread sets after 50 ms; the thread answers when it did.
fn stopped_in_50_ms() -> (Limits, std::thread::JoinHandle<Instant>) {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits { stop: Some(stop.clone()), ..Limits::default() };
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        Instant::now()
    });
    (limits, stopper)
}

#[test]
fn stop_flag_ends_the_search_from_another_thread() {
    let tree = big_tree();
    let (limits, stopper) = stopped_in_50_ms();
    let mut searcher = Searcher::new(&tree, 1);
    let r = searcher.search(&tree, &RandomEval, &tree.initial_state(), &limits, &SearchOptions::default(), &mut |_| {});
    let ended = Instant::now();
    let stopped_at = stopper.join().expect("stopper thread");
    assert!(r.stopped);
    assert!(
        ended.duration_since(stopped_at) < Duration::from_millis(30),
        "took {:?}",
        ended.duration_since(stopped_at)
    );
    assert!(r.best_move.is_some());
}

#[test]
fn node_limit_holds() {
    let tree = big_tree();
    for limit in [1u64, 100, 5_000, 60_000] {
        let limits = Limits { nodes: Some(limit), ..Limits::default() };
        let mut searcher = Searcher::new(&tree, 1);
        let r =
            searcher.search(&tree, &RandomEval, &tree.initial_state(), &limits, &SearchOptions::default(), &mut |_| {});
        assert!(r.nodes <= limit + 1, "limit {limit}: {} nodes", r.nodes);
        assert!(r.stopped);
        assert!(r.best_move.is_some());
    }
}

/// An exact solver that would take [`SLOW_SOLVE`] at every node: it counts nodes in steps of a hundred, asking
/// each time whether to stop, and then returns [`FAKE_SCORE`] whether or not it was stopped.
struct SlowSolver;

const SLOW_SOLVE: Duration = Duration::from_secs(2);
const FAKE_SCORE: Score = 4_321;

impl Evaluator<RandomTree> for SlowSolver {
    fn evaluate(&self, g: &RandomTree, n: &support::random_tree::Node) -> Score {
        RandomEval.evaluate(g, n)
    }

    fn solve_exactly(
        &self,
        _g: &RandomTree,
        _n: &mut support::random_tree::Node,
        _alpha: Score,
        _beta: Score,
        nodes: &mut u64,
        should_stop: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Score> {
        let start = Instant::now();
        while start.elapsed() < SLOW_SOLVE {
            *nodes += 100;
            if should_stop(*nodes) {
                break;
            }
        }
        Some(FAKE_SCORE)
    }
}

/// The stop flag, the time limit and the node limit reach into the evaluator's exact solver, and what a stopped
/// solver returns is not taken for a result.
#[test]
fn limits_stop_the_exact_solver() {
    let tree = big_tree();
    let exact = SearchOptions { exact: true, ..SearchOptions::default() };
    let stop = Arc::new(AtomicBool::new(false));
    let cases = [
        Limits { stop: Some(stop.clone()), ..Limits::default() },
        Limits { time: Some(Duration::from_millis(50)), ..Limits::default() },
        Limits { nodes: Some(100_000), ..Limits::default() },
    ];
    for limits in cases {
        let stopper = limits.stop.clone().map(|stop| {
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            })
        });
        let start = Instant::now();
        let mut searcher = Searcher::new(&tree, 1);
        let r = searcher.search(&tree, &SlowSolver, &tree.initial_state(), &limits, &exact, &mut |_| {});
        let took = start.elapsed();
        if let Some(t) = stopper {
            t.join().expect("stopper thread");
        }
        assert!(took < Duration::from_millis(500), "{limits:?} took {took:?}");
        assert!(r.stopped && !r.proven, "{limits:?}");
        assert_ne!(r.score.abs(), FAKE_SCORE, "{limits:?}: a stopped solve's score was trusted");
        assert!(r.best_move.is_some());
        assert!(limits.nodes.is_none_or(|n| r.nodes >= n && r.nodes <= n + 100), "{limits:?}: {} nodes", r.nodes);
    }
}

#[test]
fn depth_callback_reports_each_iteration() {
    let tree = big_tree();
    let mut seen = Vec::new();
    let mut searcher = Searcher::new(&tree, 1);
    let r = searcher.search(
        &tree,
        &RandomEval,
        &tree.initial_state(),
        &Limits::depth(5),
        &SearchOptions::default(),
        &mut |i| seen.push((i.depth, i.pv.len(), i.nodes)),
    );
    assert_eq!(seen.iter().map(|s| s.0).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5]);
    assert!(seen.windows(2).all(|w| w[0].2 <= w[1].2), "node counts grow");
    assert!(seen.iter().all(|s| s.1 >= 1));
    assert_eq!(r.pv.first().copied(), r.best_move);
}

#[test]
fn randomness_varies_among_near_best_moves_only() {
    let tree = RandomTree { seed: 5, max_branching: 8, height: 20 };
    let root = tree.initial_state();
    let depth = 3;
    let (_, best) = oracle(&tree, &RandomEval, &root, depth, false);
    let mut values = std::collections::HashMap::new();
    let mut moves = Vec::new();
    tree.legal_moves(&root, &mut moves);
    let mut s = root.clone();
    for mv in moves {
        let u = tree.make(&mut s, mv);
        values.insert(mv, -minimax(&tree, &RandomEval, &mut s, depth - 1, 1, false));
        tree.unmake(&mut s, mv, u);
    }
    let top = values.values().copied().max().expect("moves");
    let margin = 400;
    let mut chosen = std::collections::HashSet::new();
    for seed in 0..40 {
        let o = SearchOptions { randomness: margin, seed, ..SearchOptions::default() };
        let (score, mv) = search(&tree, &RandomEval, &root, &Limits::depth(depth as u32), &o);
        assert_eq!(score, top);
        assert!(values[&mv] >= top - margin, "seed {seed} chose {mv} worth {} (best {top})", values[&mv]);
        chosen.insert(mv);
    }
    let eligible = values.values().filter(|v| **v >= top - margin).count();
    assert!(eligible > 1, "the test position must offer a choice");
    assert!(chosen.len() > 1, "randomness never varied the move; best {best:?}");
    let same = (0..3).map(|_| {
        search(
            &tree,
            &RandomEval,
            &root,
            &Limits::depth(3),
            &SearchOptions { randomness: margin, seed: 7, ..SearchOptions::default() },
        )
        .1
    });
    assert_eq!(same.collect::<std::collections::HashSet<_>>().len(), 1, "a seed replays the same choice");
}

proptest! {
    #[test]
    fn make_unmake_restores_state_and_hash(choices in proptest::collection::vec(0usize..9, 0..9)) {
        let game = TicTacToe::default();
        let mut s = game.initial_state();
        let mut history = Vec::new();
        for c in choices {
            let mut moves = Vec::new();
            game.legal_moves(&s, &mut moves);
            if moves.is_empty() { break; }
            let mv = moves[c % moves.len()];
            let before = s.clone();
            game.make(&mut s, mv);
            prop_assert_eq!(s.hash, game.full_hash(&s));
            history.push((mv, before));
        }
        while let Some((mv, before)) = history.pop() {
            game.unmake(&mut s, mv, ());
            prop_assert_eq!(&s, &before);
            prop_assert_eq!(s.hash, game.full_hash(&s));
        }
    }

    #[test]
    fn random_tree_make_unmake_round_trips(seed in 0u64..1000, path in proptest::collection::vec(0u8..6, 0..12)) {
        let tree = RandomTree { seed, max_branching: 6, height: 12 };
        let mut s = tree.initial_state();
        let mut undo = Vec::new();
        for m in path {
            let mut moves = Vec::new();
            tree.legal_moves(&s, &mut moves);
            if moves.is_empty() { break; }
            let mv = moves[m as usize % moves.len()];
            undo.push((mv, s.clone(), tree.make(&mut s, mv)));
        }
        while let Some((mv, before, token)) = undo.pop() {
            tree.unmake(&mut s, mv, token);
            prop_assert_eq!(&s, &before);
        }
    }
}

/// [`RandomEval`] that calls every move quiet or every move forcing, so reductions or extensions apply everywhere.
struct Marking {
    quiet: bool,
    forcing: bool,
}

impl Evaluator<RandomTree> for Marking {
    fn evaluate(&self, g: &RandomTree, n: &<RandomTree as Game>::State) -> Score {
        RandomEval.evaluate(g, n)
    }
    fn move_score(&self, g: &RandomTree, n: &<RandomTree as Game>::State, mv: u8) -> i32 {
        RandomEval.move_score(g, n, mv)
    }
    fn is_quiet(&self, _g: &RandomTree, _n: &<RandomTree as Game>::State, _mv: u8) -> bool {
        self.quiet
    }
    fn is_forcing(&self, _g: &RandomTree, _n: &<RandomTree as Game>::State, _mv: u8) -> bool {
        self.forcing
    }
}

/// Late-move reductions change nothing where the evaluator calls no move quiet, and where it calls every move quiet
/// they search fewer nodes and still answer with a legal move.
#[test]
fn late_move_reductions_apply_only_to_quiet_moves() {
    let reduced = SearchOptions { late_move_reductions: true, ..SearchOptions::default() };
    let mut fewer = 0;
    for seed in 0..30u64 {
        let tree = RandomTree { seed: seed + 70_000, max_branching: 30, height: 8 };
        let root = tree.initial_state();
        if tree.outcome(&root).is_some() {
            continue;
        }
        let limits = Limits::depth(6);
        let plain = search_once(&tree, &RandomEval, &root, &limits, &SearchOptions::default());
        let inert = search_once(&tree, &RandomEval, &root, &limits, &reduced);
        assert_eq!((inert.nodes, inert.score, inert.best_move), (plain.nodes, plain.score, plain.best_move));
        let quiet = search_once(&tree, &Marking { quiet: true, forcing: false }, &root, &limits, &reduced);
        let mut moves = Vec::new();
        tree.legal_moves(&root, &mut moves);
        assert!(moves.contains(&quiet.best_move.expect("a move")), "seed {seed}");
        fewer += usize::from(quiet.nodes < plain.nodes);
    }
    assert!(fewer >= 25, "reductions saved nodes in only {fewer} of 30 trees");
}

/// [`RandomEval`] with a futility margin of `per_ply` times the depth.
struct Futile {
    per_ply: Score,
}

impl Evaluator<RandomTree> for Futile {
    fn evaluate(&self, g: &RandomTree, n: &support::random_tree::Node) -> Score {
        RandomEval.evaluate(g, n)
    }

    fn futility_margin(&self, _g: &RandomTree, _n: &support::random_tree::Node, depth: i32) -> Option<Score> {
        Some(self.per_ply * depth)
    }
}

/// Futility pruning changes nothing where the evaluator gives no margin, or one no evaluation can exceed (the
/// random evaluations lie within ±1000, so minimax still holds); with a small margin it saves nodes and still
/// answers with a legal move.
#[test]
fn futility_pruning_cuts_only_within_the_evaluators_margin() {
    let futile = SearchOptions { futility: true, ..SearchOptions::default() };
    let mut fewer = 0;
    for seed in 0..30u64 {
        let tree = RandomTree { seed: seed + 80_000, max_branching: 12, height: 8 };
        let root = tree.initial_state();
        if tree.outcome(&root).is_some() {
            continue;
        }
        let depth = 2 + (seed % 4) as i32;
        let limits = Limits::depth(depth as u32);
        let plain = search_once(&tree, &RandomEval, &root, &limits, &SearchOptions::default());
        let inert = search_once(&tree, &RandomEval, &root, &limits, &futile);
        assert_eq!((inert.nodes, inert.score, inert.best_move), (plain.nodes, plain.score, plain.best_move));
        let wide = Futile { per_ply: 3_000 };
        let (value, best) = oracle(&tree, &wide, &root, depth, true);
        let wide = search_once(&tree, &wide, &root, &limits, &futile);
        assert_eq!(wide.score, value, "seed {seed}");
        assert!(best.contains(&wide.best_move.expect("a move")), "seed {seed}");
        let narrow = search_once(&tree, &Futile { per_ply: 0 }, &root, &limits, &futile);
        let mut moves = Vec::new();
        tree.legal_moves(&root, &mut moves);
        assert!(moves.contains(&narrow.best_move.expect("a move")), "seed {seed}");
        fewer += usize::from(narrow.nodes < plain.nodes);
    }
    assert!(fewer >= 20, "futility pruning saved nodes in only {fewer} of 30 trees");
}

/// On the clock, a position with one move is answered after the first iteration instead of using the time.
#[test]
fn a_forced_move_on_the_clock_takes_one_iteration() {
    let tree = big_tree();
    let forced = (0..500u64)
        .map(|seed| RandomTree { seed, ..tree })
        .find(|t| {
            let mut moves = Vec::new();
            t.legal_moves(&t.initial_state(), &mut moves);
            moves.len() == 1
        })
        .expect("a tree whose root has one move");
    let limits = Limits { time: Some(Duration::from_secs(5)), ..Limits::default() };
    let r = search_once(&forced, &RandomEval, &forced.initial_state(), &limits, &SearchOptions::default());
    assert_eq!((r.depth, r.best_move), (1, Some(0)));
    assert!(r.elapsed < Duration::from_secs(1), "{:?}", r.elapsed);
}

/// Extensions change nothing where the evaluator calls no move forcing; where every move is, lines are extended
/// only within twice the nominal depth of the root, so the search finishes with lines of at most three times it.
#[test]
fn extensions_deepen_forcing_lines_within_bounds() {
    let extended = SearchOptions { extensions: true, ..SearchOptions::default() };
    let tree = RandomTree { seed: 81, max_branching: 3, height: 40 };
    let root = tree.initial_state();
    let limits = Limits::depth(4);
    let plain = search_once(&tree, &RandomEval, &root, &limits, &SearchOptions::default());
    let inert = search_once(&tree, &RandomEval, &root, &limits, &extended);
    assert_eq!((inert.nodes, inert.score, inert.best_move), (plain.nodes, plain.score, plain.best_move));
    let deep = search_once(&tree, &Marking { quiet: false, forcing: true }, &root, &limits, &extended);
    assert!(deep.nodes > plain.nodes, "{} vs {}", deep.nodes, plain.nodes);
    assert!(deep.pv.len() > plain.pv.len() && deep.pv.len() <= 12, "{:?}", deep.pv);
}

/// With helper threads the table holds results of other depths, so a depth-limited value may differ from
/// minimax's; a search that sees every line to its end must still find the game's value and a best move, on
/// trees and on a game full of transpositions.
#[test]
fn parallel_search_equals_minimax_when_it_sees_every_end() {
    for threads in [2, 3] {
        for seed in 0..40u64 {
            let tree = RandomTree { seed: seed + 70_000, max_branching: 5, height: 7 };
            let game = Placement { seed, cells: 8, height: 8 };
            let mut checks = Vec::new();
            for o in [SearchOptions::default(), SearchOptions { aspiration: None, ..SearchOptions::default() }] {
                let mut searcher = Searcher::new(&tree, 1);
                searcher.set_threads(threads);
                let root = tree.initial_state();
                let r = searcher.search(&tree, &RandomEval, &root, &Limits::depth(7), &o, &mut |_| {});
                checks.push((oracle(&tree, &RandomEval, &root, 7, false), r));
            }
            let mut searcher = Searcher::new(&game, 1);
            searcher.set_threads(threads);
            let root = game.initial_state();
            let r = searcher.search(
                &game,
                &PlacementEval,
                &root,
                &Limits::depth(8),
                &SearchOptions::default(),
                &mut |_| {},
            );
            let (value, best) = oracle(&game, &PlacementEval, &root, 8, false);
            assert_eq!(r.score, value, "placement seed {seed}, {threads} threads");
            assert!(best.contains(&r.best_move.expect("a move")) && r.proven, "placement seed {seed}");
            for ((value, best), r) in checks {
                if tree.outcome(&tree.initial_state()).is_none() {
                    assert_eq!(r.score, value, "tree seed {seed}, {threads} threads");
                    assert!(best.contains(&r.best_move.expect("a move")) && r.proven, "tree seed {seed}");
                }
            }
        }
    }
}

/// A searcher set back to one thread searches exactly as one that never had helpers: same nodes, score and line.
#[test]
fn one_thread_searches_as_the_single_threaded_searcher() {
    let tree = big_tree();
    let root = tree.initial_state();
    let mut fresh = Searcher::new(&tree, 1);
    let mut resized = Searcher::new(&tree, 1);
    resized.set_threads(4);
    assert_eq!(resized.threads(), 4);
    resized.set_threads(1);
    for depth in [3, 5] {
        let limits = Limits::depth(depth);
        let a = fresh.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |_| {});
        let b = resized.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |_| {});
        assert_eq!((a.nodes, a.score, a.pv), (b.nodes, b.score, b.pv), "depth {depth}");
    }
}

/// With helpers, the node limit bounds every thread's nodes together, the time limit and the stop flag still end
/// the search, and the reported nodes include the helpers'.
#[test]
fn parallel_search_keeps_its_limits() {
    let tree = big_tree();
    let root = tree.initial_state();
    let mut searcher = Searcher::new(&tree, 1);
    searcher.set_threads(2);
    let limit = 50_000;
    let limits = Limits { nodes: Some(limit), ..Limits::default() };
    let r = searcher.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |_| {});
    assert!(r.stopped && r.best_move.is_some());
    // Each thread may overshoot by the nodes it has not yet added to the shared count.
    assert!(r.nodes >= limit && r.nodes <= limit + 2 * 256 + 2, "{} nodes", r.nodes);

    // Whichever thread completes the depth limit first ends the search with its answer.
    for depth in [1, 4, 7] {
        let mut reported = Vec::new();
        let limits = Limits::depth(depth);
        let r = searcher.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |info| {
            reported.push(info.depth);
        });
        assert_eq!((r.depth, r.stopped, r.pv.first().copied()), (depth, false, r.best_move), "depth {depth}");
        assert_eq!(reported.last(), Some(&depth), "the answering iteration is reported: {reported:?}");
    }

    let limits = Limits { time: Some(Duration::from_millis(100)), ..Limits::default() };
    let start = Instant::now();
    let mut main_nodes = 0;
    let r = searcher.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |info| {
        main_nodes = info.nodes;
    });
    assert!(start.elapsed() < Duration::from_millis(150), "took {:?}", start.elapsed());
    assert!(r.depth >= 1 && r.nodes >= main_nodes);

    let (limits, stopper) = stopped_in_50_ms();
    let r = searcher.search(&tree, &RandomEval, &root, &limits, &SearchOptions::default(), &mut |_| {});
    let late = Instant::now().duration_since(stopper.join().expect("stopper thread"));
    assert!(r.stopped && r.best_move.is_some() && late < Duration::from_millis(30), "took {late:?}");
}

/// The random trees of `seeds` (eight moves at most per node, `height` plies) whose root is not already over,
/// with their roots.
fn live_trees(
    seeds: std::ops::Range<u64>,
    height: u32,
) -> impl Iterator<Item = (u64, RandomTree, support::random_tree::Node)> {
    seeds.filter_map(move |seed| {
        let tree = RandomTree { seed, max_branching: 8, height };
        let root = tree.initial_state();
        tree.outcome(&root).is_none().then_some((seed, tree, root))
    })
}

/// [`RandomEval`] that also notes, in order, which root children (ply 1) the search expands, and where each
/// iteration ended.
#[derive(Default)]
struct RootWatcher {
    seen: std::sync::Mutex<Vec<Option<u64>>>,
}

impl Evaluator<RandomTree> for RootWatcher {
    fn evaluate(&self, g: &RandomTree, n: &support::random_tree::Node) -> Score {
        RandomEval.evaluate(g, n)
    }

    fn search_moves(&self, g: &RandomTree, n: &support::random_tree::Node, moves: &mut Vec<u8>) {
        if n.ply == 1 {
            self.seen.lock().expect("lock").push(Some(n.hash));
        }
        g.legal_moves(n, moves);
    }

    fn move_score(&self, g: &RandomTree, n: &support::random_tree::Node, mv: u8) -> i32 {
        RandomEval.move_score(g, n, mv)
    }
}

#[test]
fn each_iteration_searches_the_previous_best_root_move_first() {
    let mut checked = 0;
    for (seed, tree, root) in live_trees(0..40, 12) {
        let watcher = RootWatcher::default();
        let mut bests = Vec::new();
        Searcher::new(&tree, 1).search(
            &tree,
            &watcher,
            &root,
            &Limits::depth(5),
            &SearchOptions::default(),
            &mut |info| {
                watcher.seen.lock().expect("lock").push(None);
                bests.push(info.pv[0]);
            },
        );
        let seen = watcher.seen.into_inner().expect("lock");
        // The first child expanded after iteration k ended is the child of iteration k's best move.
        let firsts: Vec<u64> =
            seen.split(Option::is_none).skip(1).filter_map(|it| it.first().copied().flatten()).collect();
        for (k, first) in firsts.iter().enumerate() {
            let mut child = root.clone();
            tree.make(&mut child, bests[k]);
            if tree.outcome(&child).is_some() {
                // A finished game is scored, not expanded.
                continue;
            }
            assert_eq!(*first, child.hash, "seed {seed}: iteration {} began elsewhere than {}", k + 2, bests[k]);
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} iterations checked");
}

#[test]
fn an_iteration_cut_short_answers_a_root_move_it_proved_better() {
    let mut switched = 0;
    for (seed, tree, root) in live_trees(0..150, 14) {
        for limit in [2_000u64, 5_000, 10_000, 20_000, 40_000] {
            let limits = Limits { nodes: Some(limit), ..Limits::default() };
            let mut last = None;
            let r = Searcher::new(&tree, 1).search(
                &tree,
                &RandomEval,
                &root,
                &limits,
                &SearchOptions::default(),
                &mut |i| {
                    last = Some(i.pv[0]);
                },
            );
            let (Some(previous), Some(answer)) = (last, r.best_move) else { continue };
            if answer == previous {
                continue;
            }
            // Without transpositions, the cut iteration's values are minimax values to its depth.
            let value = |mv| {
                let mut child = root.clone();
                tree.make(&mut child, mv);
                -minimax(&tree, &RandomEval, &mut child, r.depth as i32, 1, true)
            };
            assert!(
                value(answer) > value(previous),
                "seed {seed}, {limit} nodes: {answer} ({}) is not better than {previous} ({}) at depth {} + 1; {:?}",
                value(answer),
                value(previous),
                r.depth,
                {
                    let mut moves = Vec::new();
                    tree.legal_moves(&root, &mut moves);
                    moves.into_iter().map(|m| (m, value(m))).collect::<Vec<_>>()
                }
            );
            switched += 1;
        }
    }
    assert!(switched >= 10, "only {switched} searches answered from a cut iteration");
}
