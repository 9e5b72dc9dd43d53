//! Ticket spinlock (paper IV.D, `TicketLock`): FIFO-fair among waiters.

use super::backoff::Backoff;
use super::PopLock;
use crate::sync::{AtomicUsize, Ordering};

/// A ticket spinlock: each locker draws a ticket and waits until it is served, so waiters
/// enter in arrival order (no starvation).
///
/// Waiters back off and then `yield_now`, which matters doubly here: with more threads
/// than cores the next ticket holder may be preempted, and everybody behind it waits.
#[derive(Debug, Default)]
pub struct TicketLock {
    next: AtomicUsize,
    serving: AtomicUsize,
}

/// Guard of a [`TicketLock`]; serves the next ticket on drop.
#[derive(Debug)]
#[must_use = "the lock is released as soon as the guard is dropped"]
pub struct TicketGuard<'a> {
    lock: &'a TicketLock,
    ticket: usize,
}

// SAFETY: tickets are unique (`fetch_add`), and only the thread whose ticket equals
// `serving` proceeds until its guard advances `serving`; the Release store / Acquire load
// pair on `serving` orders consecutive critical sections.
unsafe impl PopLock for TicketLock {
    type Guard<'a> = TicketGuard<'a>;

    fn new() -> Self {
        Self {
            next: AtomicUsize::new(0),
            serving: AtomicUsize::new(0),
        }
    }

    #[inline]
    fn lock(&self) -> TicketGuard<'_> {
        // Relaxed: drawing a ticket only needs uniqueness; ordering comes from `serving`.
        let ticket = self.next.fetch_add(1, Ordering::Relaxed);
        let mut backoff = Backoff::prompt();
        // Acquire: pairs with the Release store in `TicketGuard::drop` that serves our
        // ticket, so the previous holder's critical section happens-before ours.
        while self.serving.load(Ordering::Acquire) != ticket {
            backoff.snooze();
        }
        TicketGuard { lock: self, ticket }
    }
}

impl Drop for TicketGuard<'_> {
    #[inline]
    fn drop(&mut self) {
        // Release: pairs with the Acquire load in `TicketLock::lock` of the next ticket.
        self.lock
            .serving
            .store(self.ticket.wrapping_add(1), Ordering::Release);
    }
}
