//! [`yield_now`]: give the worker to other tasks once.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

/// Yields once: the task goes to the back of its worker's FIFO run queue and the worker
/// runs what is queued ahead of it first.
pub fn yield_now() -> YieldNow {
    YieldNow { yielded: false }
}

/// The future of [`yield_now`].
#[derive(Debug)]
#[must_use = "futures do nothing unless awaited"]
pub struct YieldNow {
    yielded: bool,
}

impl Future for YieldNow {
    type Output = ();

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        if self.yielded {
            return Poll::Ready(());
        }
        self.yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    }
}
