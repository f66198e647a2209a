//! The solver on several threads (young brothers wait): a split node's remaining moves shared with idle helpers.

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering};

#[cfg(target_arch = "x86_64")]
use super::x86;
use super::{Context, Solver, portable};

/// A node whose remaining moves several threads search: the next move to hand out, the best value so far (the
/// shared alpha) and whether a cutoff (or the caller) ended the node.
pub(super) struct Split<'a> {
    pub(super) moves: &'a [(usize, u64, i32)],
    pub(super) next: AtomicUsize,
    pub(super) alpha: AtomicI32,
    pub(super) beta: i32,
    pub(super) abort: AtomicBool,
}
impl Solver {
    /// Solves with up to `threads` threads (at least one) from the next solve on; not while a solve runs.
    pub fn set_threads(&self, threads: usize) {
        self.idle.store(threads.max(1) - 1, Ordering::Relaxed);
    }

    /// Takes up to `most` idle helper threads for a split node; `release` gives them back.
    pub(super) fn reserve(&self, most: usize) -> usize {
        let mut idle = self.idle.load(Ordering::Relaxed);
        loop {
            let take = idle.min(most);
            if take == 0 {
                return 0;
            }
            match self.idle.compare_exchange_weak(idle, idle - take, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return take,
                Err(now) => idle = now,
            }
        }
    }

    pub(super) fn release(&self, helpers: usize) {
        self.idle.fetch_add(helpers, Ordering::Relaxed);
    }

    /// Searches the remaining moves of a split node with `helpers` more threads, the caller's own among them;
    /// returns the best value found and its move. A stop the caller asks for stops every thread.
    pub(super) fn split(
        &self,
        ctx: &mut Context,
        p: u64,
        o: u64,
        work: &Split,
        helpers: usize,
    ) -> (i32, Option<usize>) {
        let anti = ctx.anti;
        let base = ctx.nodes;
        let mut caller_stopped = false;
        let (best, nodes) = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..helpers)
                .map(|_| {
                    scope.spawn(|| {
                        let mut stop = |_| work.abort.load(Ordering::Relaxed);
                        let mut own = Context::new(anti, &mut stop);
                        let best = self.split_worker(&mut own, p, o, work);
                        (best, own.nodes)
                    })
                })
                .collect();
            let parent = &mut *ctx.should_stop;
            let mut stop = |nodes| {
                if !work.abort.load(Ordering::Relaxed) && parent(base + nodes) {
                    caller_stopped = true;
                    work.abort.store(true, Ordering::Relaxed);
                }
                work.abort.load(Ordering::Relaxed)
            };
            let mut own = Context::new(anti, &mut stop);
            let mut best = self.split_worker(&mut own, p, o, work);
            let mut nodes = own.nodes;
            for handle in handles {
                let (theirs, their_nodes) = handle.join().expect("a solver thread panicked");
                nodes += their_nodes;
                if theirs.0 > best.0 {
                    best = theirs;
                }
            }
            (best, nodes)
        });
        ctx.nodes += nodes;
        if caller_stopped {
            ctx.stopped = true;
            ctx.next_poll = 0;
        }
        best
    }

    /// One thread's share of a split node, in the fastest tier the CPU allows.
    pub(super) fn split_worker(&self, ctx: &mut Context, p: u64, o: u64, work: &Split) -> (i32, Option<usize>) {
        #[cfg(target_arch = "x86_64")]
        if crate::othello::bitboard::has_x86_features() {
            // SAFETY: the CPU has every feature the `x86` tiers were compiled for.
            return unsafe { x86::split_worker(self, ctx, p, o, work) };
        }
        portable::split_worker(self, ctx, p, o, work)
    }
}
