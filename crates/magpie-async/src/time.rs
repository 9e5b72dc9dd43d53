//! Time: [`sleep`] and [`timeout`] on async-io's [`Timer`], which async-io's own thread
//! (or a `block_on` caller) drives; the workers never block on timers.

use core::fmt;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use async_io::Timer;
use pin_project_lite::pin_project;

/// Waits for `duration`; the timer resolves to the [`Instant`](std::time::Instant) at
/// which it fired.
pub fn sleep(duration: Duration) -> Timer {
    Timer::after(duration)
}

/// Runs `future` for at most `duration`: resolves to its output, or to [`Elapsed`]
/// (and drops the future) if the time runs out first.
///
/// ```
/// use std::time::Duration;
/// let rt = magpie_async::Builder::new().worker_threads(1).build().unwrap();
/// rt.block_on(async {
///     let quick = magpie_async::timeout(Duration::from_secs(5), async { 7 }).await;
///     assert_eq!(quick, Ok(7));
///     let slow = magpie_async::sleep(Duration::from_secs(5));
///     assert!(magpie_async::timeout(Duration::from_millis(10), slow).await.is_err());
/// });
/// ```
pub fn timeout<F: Future>(duration: Duration, future: F) -> Timeout<F> {
    Timeout {
        future,
        timer: Timer::after(duration),
        duration,
    }
}

pin_project! {
    /// The future of [`timeout`].
    #[derive(Debug)]
    #[must_use = "futures do nothing unless awaited"]
    pub struct Timeout<F> {
        #[pin]
        future: F,
        timer: Timer,
        duration: Duration,
    }
}

impl<F: Future> Future for Timeout<F> {
    type Output = Result<F::Output, Elapsed>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        // The future first: a future that is ready when the time runs out still wins.
        if let Poll::Ready(out) = this.future.poll(cx) {
            return Poll::Ready(Ok(out));
        }
        match Pin::new(this.timer).poll(cx) {
            Poll::Ready(_) => Poll::Ready(Err(Elapsed(*this.duration))),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The error of [`timeout`]: the future did not finish within the duration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Elapsed(Duration);

impl Elapsed {
    /// The duration that ran out.
    pub fn duration(&self) -> Duration {
        self.0
    }
}

impl fmt::Display for Elapsed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "deadline of {:?} elapsed", self.0)
    }
}

impl std::error::Error for Elapsed {}
