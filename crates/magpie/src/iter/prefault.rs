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
//! other closely, but 0.6× after a pause of a few seconds on a VM whose balloon reports
//! free 2 MiB blocks to the host, which then faults them back in page by page.

/// Bytes written between two populate calls (a few items under Miri, so that its tests
/// reach the chunked loop).
#[cfg(not(miri))]
const CHUNK_BYTES: usize = 256 << 10;
#[cfg(miri)]
const CHUNK_BYTES: usize = 64;
/// Leaves with fewer bytes than this write without populating first.
const MIN_BYTES: usize = 2 * CHUNK_BYTES;
#[cfg(all(target_os = "linux", not(miri)))]
const PAGE: usize = 4096;

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

/// Maps the pages that start inside the `count` items at `chunk` and end inside the
/// leaf's items `[leaf, leaf_end)`, writable, without changing their contents.
pub(super) fn populate<T>(chunk: *mut T, count: usize, leaf: *mut T, leaf_end: *mut T) {
    #[cfg(all(target_os = "linux", not(miri)))]
    {
        let up = |a: usize| a.next_multiple_of(PAGE);
        let first = up(chunk as usize).max(up(leaf as usize));
        let end = up(chunk as usize + count * std::mem::size_of::<T>())
            .min(leaf_end as usize & !(PAGE - 1));
        if end > first {
            // SAFETY: `[first, end)` is whole pages inside the leaf's part of the output
            // buffer, memory of this process. MADV_POPULATE_WRITE neither frees nor
            // changes memory, only maps what is not yet mapped; a failure (EINVAL before
            // Linux 5.14) leaves the pages to be faulted in by the writes.
            unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    end - first,
                    libc::MADV_POPULATE_WRITE,
                )
            };
        }
    }
    #[cfg(not(all(target_os = "linux", not(miri))))]
    let _ = (chunk, count, leaf, leaf_end);
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
    /// was asked, rounded inward to whole pages of the leaf.
    #[cfg(all(target_os = "linux", not(miri)))]
    #[test]
    fn populate_maps_whole_pages_of_the_chunk_only() {
        const PAGES: usize = 16;
        // SAFETY: a fresh private anonymous mapping, unmapped below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                PAGES * PAGE,
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
                unsafe { libc::mincore(base, PAGES * PAGE, v.as_mut_ptr()) },
                0
            );
            v.map(|b| b & 1 == 1)
        };
        assert_eq!(resident(), [false; PAGES]);
        let bytes = base.cast::<u8>();
        // SAFETY: offsets inside the mapping.
        let (leaf, leaf_end, chunk) = unsafe {
            (
                bytes.add(100),
                bytes.add(12 * PAGE + 7),
                bytes.add(2 * PAGE + 5),
            )
        };
        // The chunk [2 pages + 5, 6 pages + 5): pages 3..7 start inside it.
        populate(chunk, 4 * PAGE, leaf, leaf_end);
        let expect: [bool; PAGES] = std::array::from_fn(|p| (3..7).contains(&p));
        assert_eq!(resident(), expect);
        // A chunk running past the leaf's end stops at its last whole page (12).
        // SAFETY: inside the mapping.
        populate(unsafe { bytes.add(10 * PAGE) }, 5 * PAGE, leaf, leaf_end);
        let expect: [bool; PAGES] =
            std::array::from_fn(|p| (3..7).contains(&p) || (10..12).contains(&p));
        assert_eq!(resident(), expect);
        // SAFETY: the mapping made above, no longer used.
        unsafe { libc::munmap(base, PAGES * PAGE) };
    }
}
