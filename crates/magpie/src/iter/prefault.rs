//! Maps the pages of an output buffer just ahead of the writes that fill them.
//!
//! A parallel `collect` into fresh memory spends most of its time in page faults, one
//! per 4 KiB page first written (about 60 % of a 10 M item `map + collect` on Linux, for
//! rayon and magpie alike). Each leaf of an in-place collect therefore writes its part in
//! chunks of [`CHUNK_BYTES`] and asks the kernel to map each chunk's pages in one call
//! (`MADV_POPULATE_WRITE`, Linux 5.14) right before writing it: one system call instead
//! of 64 traps, and the pages are still in cache when the items land. The call changes
//! no contents; where it fails (older kernels, other systems, Miri) the writes fault the
//! pages in as before.
//!
//! Huge pages (`MADV_HUGEPAGE`) were tried first: 1.8× rayon when collects follow each
//! other closely, but 0.7× after a pause of a few seconds on a VM whose balloon reports
//! free 2 MiB blocks to the host, which then faults them back in page by page.

/// Bytes written between two populate calls (a few items under Miri, so that its tests
/// reach the chunked loop).
#[cfg(not(miri))]
const CHUNK_BYTES: usize = 256 << 10;
#[cfg(miri)]
const CHUNK_BYTES: usize = 64;
/// Leaves with fewer bytes than this write without populating first.
const MIN_BYTES: usize = 2 * CHUNK_BYTES;

/// The number of `T`s a leaf writes between two [`populate`] calls, for a leaf of `len`
/// items: all of them when the leaf is small (then [`populate`] is not called).
pub(super) fn chunk_len<T>(len: usize) -> usize {
    let size = std::mem::size_of::<T>().max(1);
    if len.saturating_mul(size) < MIN_BYTES {
        len.max(1)
    } else {
        (CHUNK_BYTES / size).max(1)
    }
}

/// The system's page size, read once.
#[cfg(all(target_os = "linux", not(miri)))]
fn page_size() -> usize {
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
    static PAGE: AtomicUsize = AtomicUsize::new(0);
    // Relaxed: a plain cache of a constant; racing first callers store the same value.
    match PAGE.load(Relaxed) {
        0 => {
            // SAFETY: sysconf reads a configuration value; no memory is passed.
            let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            let size = usize::try_from(size)
                .ok()
                .filter(|s| s.is_power_of_two())
                .unwrap_or(4096);
            PAGE.store(size, Relaxed);
            size
        }
        size => size,
    }
}

/// Maps, writable and without changing their contents, the pages that start inside the
/// `count` items at `chunk` and end before `leaf_end`. `Ok` also when there is no whole
/// page to map; an error only means the writes will fault those pages in themselves.
///
/// # Safety
/// `chunk` and `leaf_end` point into, or one past the end of, one allocation that this
/// process may write, and `chunk <= leaf_end`. Only pages wholly between the two are
/// touched, whatever `count` is.
pub(super) unsafe fn populate<T>(
    chunk: *mut T,
    count: usize,
    leaf_end: *mut T,
) -> std::io::Result<()> {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        let page = page_size();
        let first = (chunk as usize).next_multiple_of(page);
        let end = (chunk as usize + count * std::mem::size_of::<T>())
            .next_multiple_of(page)
            .min(leaf_end as usize & !(page - 1));
        if end > first {
            // SAFETY: `[first, end)` is whole pages that start at or after `chunk` and
            // end at or before `leaf_end`, inside the caller's writable allocation (the
            // contract above). MADV_POPULATE_WRITE neither frees nor changes memory; it
            // only maps pages not yet mapped.
            let rc = unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    end - first,
                    libc::MADV_POPULATE_WRITE,
                )
            };
            if rc != 0 {
                return Err(std::io::Error::last_os_error());
            }
        }
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    let _ = (chunk, count, leaf_end);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_leaves_write_in_one_batch_large_ones_in_chunks() {
        assert_eq!(chunk_len::<u64>(0), 1);
        assert_eq!(chunk_len::<u64>(3), 3);
        assert_eq!(chunk_len::<u64>(MIN_BYTES / 8 - 1), MIN_BYTES / 8 - 1);
        assert_eq!(chunk_len::<u64>(MIN_BYTES / 8), CHUNK_BYTES / 8);
        assert_eq!(chunk_len::<[u8; 24]>(MIN_BYTES), CHUNK_BYTES / 24);
        assert_eq!(chunk_len::<()>(usize::MAX), CHUNK_BYTES);
        assert_eq!(chunk_len::<[u8; 1 << 20]>(4), 1);
    }

    /// Pages of a fresh mapping become resident (`mincore`) exactly where `populate`
    /// was asked: whole pages from the chunk's start, clipped at the leaf's end.
    #[cfg(all(target_os = "linux", not(miri)))]
    #[test]
    fn populate_maps_whole_pages_of_the_chunk_only() {
        const PAGES: usize = 16;
        let page = page_size();
        // SAFETY: a fresh private anonymous mapping, unmapped below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                PAGES * page,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        assert_ne!(base, libc::MAP_FAILED);
        let resident = || {
            let mut v = [0u8; PAGES];
            // SAFETY: `base` is a mapping of PAGES pages; `v` has one byte per page.
            assert_eq!(
                unsafe { libc::mincore(base, PAGES * page, v.as_mut_ptr()) },
                0
            );
            v.map(|b| b & 1 == 1)
        };
        assert_eq!(resident(), [false; PAGES]);
        let bytes = base.cast::<u8>();
        // SAFETY: offsets inside the mapping.
        let (leaf_end, chunk) = unsafe { (bytes.add(12 * page + 7), bytes.add(2 * page + 5)) };
        // The chunk [2 pages + 5, 6 pages + 5): pages 3..7 start inside it.
        // SAFETY: both inside the writable mapping, chunk first.
        match unsafe { populate(chunk, 4 * page, leaf_end) } {
            Err(e) if e.raw_os_error() == Some(libc::EINVAL) => {
                println!("SKIPPED: this kernel has no MADV_POPULATE_WRITE (before 5.14)");
                // SAFETY: the mapping made above, no longer used.
                unsafe { libc::munmap(base, PAGES * page) };
                return;
            }
            result => result.unwrap(),
        }
        let expect: [bool; PAGES] = std::array::from_fn(|p| (3..7).contains(&p));
        assert_eq!(resident(), expect);
        // A chunk running past the leaf's end stops at its last whole page (12).
        // SAFETY: as above (page 10 lies before the leaf's end).
        unsafe { populate(bytes.add(10 * page), 5 * page, leaf_end) }.unwrap();
        let expect: [bool; PAGES] =
            std::array::from_fn(|p| (3..7).contains(&p) || (10..12).contains(&p));
        assert_eq!(resident(), expect);
        // SAFETY: the mapping made above, no longer used.
        unsafe { libc::munmap(base, PAGES * page) };
    }
}
