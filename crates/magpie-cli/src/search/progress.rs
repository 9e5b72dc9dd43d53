//! Progress of a search on stderr: an `indicatif` spinner with the elapsed time and the
//! nodes explored so far. It appears after a second (short searches stay silent) and
//! only when stderr is a terminal, so `--json` output and CI logs carry no progress.

use std::sync::mpsc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
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
    let running = |wait| {
        matches!(
            finished.recv_timeout(wait),
            Err(mpsc::RecvTimeoutError::Timeout)
        )
    };
    if !running(Duration::from_secs(1)) {
        return; // finished within a second: no progress shown
    }
    let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    spinner.set_style(
        ProgressStyle::with_template("{spinner} searching: {elapsed} {msg}")
            .expect("valid progress template"),
    );
    loop {
        spinner.set_message(format!("{} nodes", counter.nodes()));
        spinner.tick();
        if !running(Duration::from_millis(200)) {
            break;
        }
    }
    spinner.finish_and_clear();
}
