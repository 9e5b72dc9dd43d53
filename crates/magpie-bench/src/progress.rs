//! Progress bars on stderr (`indicatif`), drawn only when stderr is a terminal so
//! redirected output stays clean; tables are printed after a bar is cleared.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar of `total` steps labelled `what`, on stderr (hidden when it is not a terminal).
pub fn bar(what: &str, total: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed}, eta {eta})",
        )
        .expect("valid progress template")
        .progress_chars("=> "),
    );
    bar.set_prefix(what.to_string());
    bar
}
