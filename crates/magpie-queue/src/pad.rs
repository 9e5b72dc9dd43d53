//! Cache-line padding, so that data written by different threads never shares a line.

use core::ops::{Deref, DerefMut};

/// Aligns and pads `T` to 128 bytes: two 64-byte lines, because Intel's adjacent-line
/// prefetcher pulls lines in pairs and would otherwise recreate false sharing.
#[derive(Debug, Default)]
#[repr(align(128))]
pub(crate) struct CachePadded<T>(pub(crate) T);

impl<T> Deref for CachePadded<T> {
    type Target = T;
    #[inline(always)]
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> DerefMut for CachePadded<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.0
    }
}
