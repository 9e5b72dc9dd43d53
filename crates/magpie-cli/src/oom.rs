//! Running out of memory as an error message and exit status 3, not an abort.
//!
//! A search's memory grows with its tree: the frontier of a breadth of tasks, and the
//! path of a deep tree (kept on stacks that grow on demand onto the heap, see
//! `magpie_search`'s engine). When the operating system refuses memory, Rust's default
//! is to print `memory allocation of N bytes failed` and abort with SIGABRT (a core
//! dump, exit 134). The `magpie` binary instead says what happened and exits with
//! status [`EXIT_OUT_OF_MEMORY`]:
//!
//! * heap allocations go through [`Allocator`], the system allocator that turns a
//!   refused allocation into [`out_of_memory`];
//! * a stack segment that cannot be mapped makes `stacker` panic; [`install_panic_hook`]
//!   recognises that panic and reports it the same way.
//!
//! Linux overcommits memory by default: the kernel may then kill the process (SIGKILL)
//! instead of refusing an allocation. `ulimit -v KB` (RLIMIT_AS) turns that into a
//! refusal, and so into this error.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a run that ran out of memory.
pub const EXIT_OUT_OF_MEMORY: i32 = 3;

/// The system allocator, reporting refused allocations through [`out_of_memory`].
pub struct Allocator;

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so
// `System`'s guarantees hold; a null result never returns (it ends the process).
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `GlobalAlloc::alloc`'s contract, forwarded as is.
        let ptr = unsafe { System.alloc(layout) };
        if ptr.is_null() {
            out_of_memory(Some(layout.size()));
        }
        ptr
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as in `alloc`.
        let ptr = unsafe { System.alloc_zeroed(layout) };
        if ptr.is_null() {
            out_of_memory(Some(layout.size()));
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from `System` with `layout`; the caller upholds the rest.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new.is_null() {
            out_of_memory(Some(new_size));
        }
        new
    }
}

/// Prints that memory ran out (without allocating) and exits with
/// [`EXIT_OUT_OF_MEMORY`]: `requested` is the refused heap allocation's size, `None`
/// for a stack segment.
///
/// It writes with `write(2)` from a stack buffer and leaves with `_exit`: the
/// allocator cannot be used any more, and exit handlers could need it.
pub fn out_of_memory(requested: Option<usize>) -> ! {
    static REPORTING: AtomicBool = AtomicBool::new(false);
    if REPORTING.swap(true, Ordering::Relaxed) {
        // Another thread is reporting and will end the process: wait for it, so that
        // its message is printed whole and once.
        loop {
            std::thread::park();
        }
    }
    let mut message = StackText::<320>::new();
    message.push("magpie: error: out of memory (");
    match requested {
        Some(size) => {
            message.push("an allocation of ");
            message.push_number(size);
            message.push(" bytes was refused");
        }
        None => message.push("a stack segment for a deep search path could not be mapped"),
    }
    message.push(
        "): the search needs more memory than this machine or its \
         ulimit gives; try a smaller instance, fewer threads or another coordination\n",
    );
    let bytes = message.as_bytes();
    // SAFETY: `bytes` is a live buffer of `bytes.len()` bytes; `_exit` has no
    // preconditions and ends the process without running handlers that might allocate.
    unsafe {
        libc::write(2, bytes.as_ptr().cast(), bytes.len());
        libc::_exit(EXIT_OUT_OF_MEMORY)
    }
}

/// Reports `stacker`'s panic for a stack segment it could not map as running out of
/// memory; every other panic goes to the default hook.
pub fn install_panic_hook() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let text = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if is_stack_allocation_failure(text) {
            out_of_memory(None);
        }
        default(info);
    }));
}

/// Whether a panic message is `stacker`'s for a stack it could not allocate
/// (`mmap failed to allocate stack: ...`, `unable to allocate stack`).
fn is_stack_allocation_failure(message: &str) -> bool {
    message.contains("failed to allocate stack") || message.contains("unable to allocate stack")
}

/// A fixed-capacity text buffer on the stack (truncates past `N` bytes).
struct StackText<const N: usize> {
    bytes: [u8; N],
    len: usize,
}

impl<const N: usize> StackText<N> {
    fn new() -> Self {
        Self {
            bytes: [0; N],
            len: 0,
        }
    }

    fn push(&mut self, text: &str) {
        for &b in text.as_bytes() {
            if self.len == N {
                return;
            }
            self.bytes[self.len] = b;
            self.len += 1;
        }
    }

    fn push_number(&mut self, mut n: usize) {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // The digits are ASCII.
        self.push(std::str::from_utf8(&digits[i..]).unwrap_or("?"));
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_truncation() {
        let mut t = StackText::<16>::new();
        t.push("n=");
        t.push_number(0);
        t.push(",");
        t.push_number(18_446_744_073_709_551_615);
        assert_eq!(t.as_bytes(), b"n=0,184467440737");
    }

    #[test]
    fn recognises_stackers_messages() {
        assert!(is_stack_allocation_failure(
            "mmap failed to allocate stack: Cannot allocate memory (os error 12)"
        ));
        assert!(is_stack_allocation_failure("unable to allocate stack"));
        assert!(!is_stack_allocation_failure("index out of bounds"));
    }
}
