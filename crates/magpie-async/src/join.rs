//! [`JoinHandle`]: the awaitable result of a spawned task, and [`JoinError`], why a task
//! produced no value (it panicked, or it was cancelled by `abort` or runtime shutdown).

use crate::scheduler::{CatchDrop, Shared};
use core::fmt;
use std::any::Any;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// What a task's future resolves to inside the runtime: its value or its panic payload,
/// in a [`CatchDrop`]: async-task drops the output of a task nobody awaits (detached, or
/// aborted while running) inside its `abort_on_panic`, where a value whose destructor
/// panics would abort the process.
pub(crate) type TaskOutput<T> = CatchDrop<Result<T, Box<dyn Any + Send + 'static>>>;

/// Why a task did not produce its value. `Send + Sync` and an [`Error`](std::error::Error),
/// so `?` turns it into `io::Error::other(..)`, `Box<dyn Error + Send + Sync>` or anyhow's
/// error like any other.
pub struct JoinError {
    repr: Repr,
}

enum Repr {
    Cancelled,
    Panic {
        payload: Payload,
        /// The payload's text when it is a `&str` or `String` (what `panic!` makes).
        message: Option<String>,
    },
}

/// A panic payload, reachable only by value.
struct Payload(Box<dyn Any + Send + 'static>);

// SAFETY: `Payload` has no method taking `&self`, so a shared reference to it gives no
// access to the (possibly `!Sync`) payload; it is only ever moved out (tokio's
// `SyncWrapper` argument).
unsafe impl Sync for Payload {}

impl JoinError {
    pub(crate) fn cancelled() -> Self {
        Self {
            repr: Repr::Cancelled,
        }
    }

    pub(crate) fn panic(payload: Box<dyn Any + Send + 'static>) -> Self {
        let message = payload
            .downcast_ref::<&'static str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned());
        Self {
            repr: Repr::Panic {
                payload: Payload(payload),
                message,
            },
        }
    }

    /// The task was cancelled: [`JoinHandle::abort`] or the runtime shut down first.
    pub fn is_cancelled(&self) -> bool {
        matches!(self.repr, Repr::Cancelled)
    }

    /// The task panicked.
    pub fn is_panic(&self) -> bool {
        matches!(self.repr, Repr::Panic { .. })
    }

    /// The panic payload, for `std::panic::resume_unwind`; gives `self` back if the
    /// task was cancelled instead.
    pub fn try_into_panic(self) -> Result<Box<dyn Any + Send + 'static>, JoinError> {
        match self.repr {
            Repr::Panic { payload, .. } => Ok(payload.0),
            Repr::Cancelled => Err(self),
        }
    }

    fn panic_message(&self) -> Option<&str> {
        match &self.repr {
            Repr::Panic { message, .. } => message.as_deref(),
            Repr::Cancelled => None,
        }
    }
}

impl fmt::Debug for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Cancelled => f.write_str("JoinError::Cancelled"),
            Repr::Panic { .. } => f
                .debug_tuple("JoinError::Panic")
                .field(&self.panic_message().unwrap_or("<non-string payload>"))
                .finish(),
        }
    }
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.repr {
            Repr::Cancelled => f.write_str("task was cancelled"),
            Repr::Panic { .. } => match self.panic_message() {
                Some(msg) => write!(f, "task panicked: {msg}"),
                None => f.write_str("task panicked"),
            },
        }
    }
}

impl std::error::Error for JoinError {}

/// An owned permission to await a spawned task's result.
///
/// Awaiting it gives `Ok(value)`, or a [`JoinError`] if the task panicked or was
/// cancelled. Dropping it detaches the task: the task keeps running.
pub struct JoinHandle<T> {
    state: State<T>,
}

type Cancelling<T> = Pin<Box<dyn Future<Output = Option<TaskOutput<T>>> + Send>>;

enum State<T> {
    Running(async_task::FallibleTask<TaskOutput<T>, Arc<Shared>>),
    /// `abort` was called: async-task's `cancel` future, polled once already (which
    /// marks the task cancelled); it resolves once the task's future has been dropped.
    Cancelling(Cancelling<T>),
    /// `abort` found the task already finished: its output, handed out by the next poll.
    Finished(Option<TaskOutput<T>>),
    Done,
}

impl<T: Send + 'static> JoinHandle<T> {
    /// Cancels the task: it is never polled again, and its future is dropped by a worker,
    /// not by this call: an idle task is scheduled once more so that a worker drops its
    /// future when it takes it (as soon as a worker is free); a running one is dropped
    /// right after its current poll. (While the runtime shuts down, the thread dropping
    /// it drops the future.) Awaiting this handle then resolves once the future has
    /// been dropped, to a cancelled [`JoinError`]; a task that finished before the abort
    /// keeps its result.
    pub fn abort(&mut self) {
        if let State::Running(task) = std::mem::replace(&mut self.state, State::Done) {
            let mut cancel: Cancelling<T> = Box::pin(task.cancel());
            // The first poll runs `cancel`'s body up to its first await: it marks the
            // task cancelled (and schedules it, so a worker drops its future).
            let waker = std::task::Waker::from(Arc::new(NoopWake));
            self.state = match cancel.as_mut().poll(&mut Context::from_waker(&waker)) {
                Poll::Ready(output) => State::Finished(output),
                Poll::Pending => State::Cancelling(cancel),
            };
        }
    }
}

impl<T> JoinHandle<T> {
    pub(crate) fn new(task: async_task::Task<TaskOutput<T>, Arc<Shared>>) -> Self {
        Self {
            state: State::Running(task.fallible()),
        }
    }

    /// Whether the task has finished (completed, panicked or been cancelled).
    ///
    /// After [`abort`](JoinHandle::abort) this is true at once, although a worker may
    /// still be in the future's current poll (tokio's stays false until the future has
    /// been dropped): to know that the future and what it holds are gone, await the
    /// handle.
    pub fn is_finished(&self) -> bool {
        match &self.state {
            State::Running(task) => task.is_finished(),
            State::Cancelling(_) | State::Finished(_) | State::Done => true,
        }
    }
}

impl<T> Future for JoinHandle<T> {
    type Output = Result<T, JoinError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let polled = match &mut self.state {
            State::Running(task) => Pin::new(task).poll(cx),
            State::Cancelling(cancel) => cancel.as_mut().poll(cx),
            State::Finished(output) => Poll::Ready(output.take()),
            State::Done => return Poll::Ready(Err(JoinError::cancelled())),
        };
        let out = match polled {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Some(output)) => output.into_inner().map_err(JoinError::panic),
            Poll::Ready(None) => Err(JoinError::cancelled()),
        };
        self.state = State::Done;
        Poll::Ready(out)
    }
}

// The handle never pins a `T`: a finished output is only moved out.
impl<T> Unpin for JoinHandle<T> {}

/// The waker of `abort`'s first poll: the real one is registered when the handle is
/// awaited.
struct NoopWake;

impl std::task::Wake for NoopWake {
    fn wake(self: Arc<Self>) {}
}

impl<T> Drop for JoinHandle<T> {
    fn drop(&mut self) {
        if let State::Running(task) = std::mem::replace(&mut self.state, State::Done) {
            task.detach();
        }
    }
}

impl<T> fmt::Debug for JoinHandle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JoinHandle")
            .field("finished", &self.is_finished())
            .finish()
    }
}
