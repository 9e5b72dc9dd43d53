//! A queue node: a `next` link followed by `slots` item slots, in one allocation.
//!
//! The slot count depends on `size_of::<T>()` (see
//! [`TwoLockQueue::SLOTS_PER_NODE`](super::TwoLockQueue::SLOTS_PER_NODE)), which stable
//! Rust cannot put in an array type, so the node is a header with a zero-length trailing
//! array and the allocation is sized at run time. Nodes are created and destroyed only
//! through [`Node::alloc`] and [`Node::free`], which must be given the same slot count.

use core::mem::MaybeUninit;
use core::ptr::{self, addr_of_mut};
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};

use crate::sync::{AtomicPtr, UnsafeCell};

/// One item slot; initialised exactly when its index lies in `[pop index, push index)`.
type Slot<T> = UnsafeCell<MaybeUninit<T>>;

/// Header of a node; `slots` is really `[Slot<T>; n]` for the `n` given to `alloc`.
#[repr(C)]
pub(super) struct Node<T> {
    /// The next node of the queue (or of the node cache's stack), null at the tail.
    pub(super) next: AtomicPtr<Node<T>>,
    slots: [Slot<T>; 0],
}

impl<T> Node<T> {
    fn layout(slots: usize) -> Layout {
        // `slots` lies at an offset <= size_of::<Self>() (it is the last field, of size 0).
        let bytes = core::mem::size_of::<Slot<T>>()
            .checked_mul(slots)
            .and_then(|s| s.checked_add(core::mem::size_of::<Self>()))
            .expect("node size overflows usize");
        Layout::from_size_align(bytes, core::mem::align_of::<Self>()).expect("node layout")
    }

    /// Allocates a node with `slots` empty slots and a null `next`.
    pub(super) fn alloc(slots: usize) -> *mut Node<T> {
        let layout = Self::layout(slots);
        // SAFETY: the layout is non-zero-sized (it contains the `next` pointer).
        let node = unsafe { alloc(layout) }.cast::<Node<T>>();
        if node.is_null() {
            handle_alloc_error(layout);
        }
        // SAFETY: `node` is a fresh allocation of `layout`, valid for writes of the header
        // and of `slots` slots after it; the pointers keep the allocation's provenance.
        unsafe {
            addr_of_mut!((*node).next).write(AtomicPtr::new(ptr::null_mut()));
            let first = Self::slot_ptr(node, 0);
            for i in 0..slots {
                first.add(i).write(UnsafeCell::new(MaybeUninit::uninit()));
            }
        }
        node
    }

    /// Frees a node without dropping any item in it.
    ///
    /// # Safety
    ///
    /// `node` came from `alloc(slots)` with the same `slots`, is not used afterwards, and
    /// its items have been moved out or are meant to be leaked.
    pub(super) unsafe fn free(node: *mut Node<T>, slots: usize) {
        // SAFETY: per the contract the header and `slots` cells are initialised and
        // unaliased; dropping the cells drops no `T` (they hold `MaybeUninit`), it only
        // releases loom's bookkeeping under `--cfg loom`.
        unsafe {
            ptr::drop_in_place(addr_of_mut!((*node).next));
            ptr::drop_in_place(ptr::slice_from_raw_parts_mut(
                Self::slot_ptr(node, 0),
                slots,
            ));
            dealloc(node.cast(), Self::layout(slots));
        }
    }

    /// # Safety
    ///
    /// `node` is a live node with more than `i` slots.
    #[inline(always)]
    unsafe fn slot_ptr(node: *mut Node<T>, i: usize) -> *mut Slot<T> {
        // SAFETY: per the contract, slot `i` lies inside the node's allocation.
        unsafe { addr_of_mut!((*node).slots).cast::<Slot<T>>().add(i) }
    }

    /// Moves `value` into slot `i`.
    ///
    /// # Safety
    ///
    /// `node` is a live node with more than `i` slots, slot `i` is empty, and the caller
    /// has exclusive access to it (it holds the push lock and has not published index `i`).
    #[inline(always)]
    pub(super) unsafe fn write(node: *mut Node<T>, i: usize, value: T) {
        // SAFETY: per the contract the slot exists and nobody else accesses it.
        unsafe { (*Self::slot_ptr(node, i)).with_mut(|s| (*s).write(value)) };
    }

    /// Moves the item out of slot `i`, leaving it empty.
    ///
    /// # Safety
    ///
    /// `node` is a live node with more than `i` slots, slot `i` is full, its write
    /// happens-before this call, and the caller has exclusive access to it (it holds the
    /// pop lock, or owns the queue).
    #[inline(always)]
    pub(super) unsafe fn take(node: *mut Node<T>, i: usize) -> T {
        // SAFETY: per the contract the slot exists, is initialised and is ours.
        unsafe { (*Self::slot_ptr(node, i)).with_mut(|s| (*s).assume_init_read()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::Ordering;

    #[test]
    fn alloc_write_take_free() {
        for slots in [1, 2, 3, 16] {
            let n = Node::<String>::alloc(slots);
            // SAFETY: fresh node of `slots` slots; each slot written then taken once.
            unsafe {
                assert!((*n).next.load(Ordering::Relaxed).is_null());
                for i in 0..slots {
                    Node::write(n, i, i.to_string());
                }
                for i in 0..slots {
                    assert_eq!(Node::take(n, i), i.to_string());
                }
                Node::free(n, slots);
            }
        }
    }

    #[test]
    fn over_aligned_items() {
        #[repr(align(64))]
        struct Big(u8);
        let n = Node::<Big>::alloc(3);
        // SAFETY: as above.
        unsafe {
            Node::write(n, 2, Big(9));
            let b = Node::take(n, 2);
            assert_eq!(b.0, 9);
            assert_eq!(&b as *const Big as usize % 64, 0);
            Node::free(n, 3);
        }
    }
}
