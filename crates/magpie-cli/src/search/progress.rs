//! Progress on stderr for runs longer than a second: elapsed time and nodes so far,
//! redrawn in place on a terminal, one line every few seconds otherwise.

use std::io::{IsTerminal, Write};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use magpie_search::Progress;

/// Runs `search` on this thread while another thread reports `counter` (if `show`).
pub fn while_running<R>(counter: &Progress, show: bool, search: impl FnOnce() -> R) -> R {
    if !show {
        return search();
    }
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        scope.spawn(move || report(counter, &finished));
        let result = search();
        drop(done);
        result
    })
}

fn report(counter: &Progress, finished: &mpsc::Receiver<()>) {
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal {
        Duration::from_secs(1)
    } else {
        Duration::from_secs(5)
    };
    if !matches!(
        finished.recv_timeout(Duration::from_secs(1)),
        Err(mpsc::RecvTimeoutError::Timeout)
    ) {
        return; // finished within a second: no progress shown
    }
    loop {
        let line = format!(
            "searching: {:.0} s, {} nodes",
            start.elapsed().as_secs_f64(),
            counter.nodes()
        );
        let mut err = std::io::stderr().lock();
        // Progress is best effort: a closed stderr must not stop the search.
        let _ = if terminal {
            write!(err, "\r\x1b[K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
        drop(err);
        if !matches!(
            finished.recv_timeout(every),
            Err(mpsc::RecvTimeoutError::Timeout)
        ) {
            break;
        }
    }
    if terminal {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
}
