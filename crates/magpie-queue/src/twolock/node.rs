//! A queue node: a `next` link followed by item slots, in one allocation.
//!
//! The slot count depends on `size_of::<T>()` (see
//! [`TwoLockQueue::SLOTS_PER_NODE`](super::TwoLockQueue::SLOTS_PER_NODE)), which stable
//! Rust cannot put in an array type, so the node is a header with zero-length trailing
//! arrays and the allocation is sized at run time from a [`Shape`]. With
//! [`Publication::SlotStamps`](super::Publication::SlotStamps) each slot is a
//! [`Stamped`] pair (stamp, then item: both on one cache line), otherwise a bare item.
//! Nodes are created and destroyed only through [`Node::alloc`] and [`Node::free`], which
//! must be given the same shape.

use core::mem::MaybeUninit;
use core::ptr::{self, addr_of_mut};
use std::alloc::{alloc, dealloc, handle_alloc_error, Layout};

use crate::sync::{AtomicPtr, AtomicUsize, Ordering, UnsafeCell};

/// One item slot; initialised exactly when its index lies in `[pop index, push index)`.
type Slot<T> = UnsafeCell<MaybeUninit<T>>;

/// A slot with its publication stamp: the queue index last written into the slot (0 in a
/// fresh node, where index 0 is never used).
#[repr(C)]
struct Stamped<T> {
    stamp: AtomicUsize,
    value: Slot<T>,
}

/// How many slots a node has and whether they carry stamps; fixed per queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shape {
    pub(super) slots: usize,
    pub(super) stamped: bool,
}

/// Header of a node; the slots follow it: really `[Slot<T>; n]` (at `plain`) or
/// `[Stamped<T>; n]` (at `stamped`) for the shape given to `alloc`.
#[repr(C)]
pub(super) struct Node<T> {
    /// The next node of the queue (or of the node cache's stack), null at the tail.
    pub(super) next: AtomicPtr<Node<T>>,
    plain: [Slot<T>; 0],
    stamped: [Stamped<T>; 0],
}

impl<T> Node<T> {
    fn layout(shape: Shape) -> Layout {
        let stride = if shape.stamped {
            core::mem::size_of::<Stamped<T>>()
        } else {
            core::mem::size_of::<Slot<T>>()
        };
        // Both slot arrays start at an offset <= size_of::<Self>() (they are the last
        // fields, of size 0), and the header's alignment covers both element types.
        let bytes = stride
            .checked_mul(shape.slots)
            .and_then(|s| s.checked_add(core::mem::size_of::<Self>()))
            .expect("node size overflows usize");
        Layout::from_size_align(bytes, core::mem::align_of::<Self>()).expect("node layout")
    }

    /// Allocates a node of the given shape: empty slots, zero stamps and a null `next`.
    pub(super) fn alloc(shape: Shape) -> *mut Node<T> {
        let layout = Self::layout(shape);
        // SAFETY: the layout is non-zero-sized (it contains the `next` pointer).
        let node = unsafe { alloc(layout) }.cast::<Node<T>>();
        if node.is_null() {
            handle_alloc_error(layout);
        }
        // SAFETY: `node` is a fresh allocation of `layout`, valid for writes of the header
        // and of `shape.slots` slots after it; the pointers keep the allocation's
        // provenance.
        unsafe {
            addr_of_mut!((*node).next).write(AtomicPtr::new(ptr::null_mut()));
            for i in 0..shape.slots {
                if shape.stamped {
                    Self::stamped_ptr(node, i).write(Stamped {
                        stamp: AtomicUsize::new(0),
                        value: UnsafeCell::new(MaybeUninit::uninit()),
                    });
                } else {
                    Self::plain_ptr(node, i).write(UnsafeCell::new(MaybeUninit::uninit()));
                }
            }
        }
        node
    }

    /// Frees a node without dropping any item in it.
    ///
    /// # Safety
    ///
    /// `node` came from `alloc(shape)` with the same `shape`, is not used afterwards, and
    /// its items have been moved out or are meant to be leaked.
    pub(super) unsafe fn free(node: *mut Node<T>, shape: Shape) {
        // SAFETY: per the contract the header and `shape.slots` slots are initialised and
        // unaliased; dropping them drops no `T` (items are `MaybeUninit`), it only
        // releases loom's bookkeeping under `--cfg loom`.
        unsafe {
            ptr::drop_in_place(addr_of_mut!((*node).next));
            if shape.stamped {
                let first = Self::stamped_ptr(node, 0);
                ptr::drop_in_place(ptr::slice_from_raw_parts_mut(first, shape.slots));
            } else {
                let first = Self::plain_ptr(node, 0);
                ptr::drop_in_place(ptr::slice_from_raw_parts_mut(first, shape.slots));
            }
            dealloc(node.cast(), Self::layout(shape));
        }
    }

    /// # Safety
    ///
    /// `node` is a live unstamped node with more than `i` slots.
    #[inline(always)]
    unsafe fn plain_ptr(node: *mut Node<T>, i: usize) -> *mut Slot<T> {
        // SAFETY: per the contract, slot `i` lies inside the node's allocation.
        unsafe { addr_of_mut!((*node).plain).cast::<Slot<T>>().add(i) }
    }

    /// # Safety
    ///
    /// `node` is a live stamped node with more than `i` slots.
    #[inline(always)]
    unsafe fn stamped_ptr(node: *mut Node<T>, i: usize) -> *mut Stamped<T> {
        // SAFETY: per the contract, slot `i` lies inside the node's allocation.
        unsafe { addr_of_mut!((*node).stamped).cast::<Stamped<T>>().add(i) }
    }

    /// # Safety
    ///
    /// `node` is a live node of a shape with `stamped` and more than `i` slots.
    #[inline(always)]
    unsafe fn slot_ptr(node: *mut Node<T>, i: usize, stamped: bool) -> *mut Slot<T> {
        if stamped {
            // SAFETY: per the contract; the field pointer keeps the slot's provenance.
            unsafe { addr_of_mut!((*Self::stamped_ptr(node, i)).value) }
        } else {
            // SAFETY: per the contract.
            unsafe { Self::plain_ptr(node, i) }
        }
    }

    /// Moves `value` into slot `i`.
    ///
    /// # Safety
    ///
    /// `node` is a live node of a shape with `stamped` and more than `i` slots, slot `i`
    /// is empty, and the caller has exclusive access to it (it holds the push lock and has
    /// not published index `i`).
    #[inline(always)]
    pub(super) unsafe fn write(node: *mut Node<T>, i: usize, stamped: bool, value: T) {
        // SAFETY: per the contract the slot exists and nobody else accesses it.
        unsafe { (*Self::slot_ptr(node, i, stamped)).with_mut(|s| (*s).write(value)) };
    }

    /// Moves the item out of slot `i`, leaving it empty.
    ///
    /// # Safety
    ///
    /// `node` is a live node of a shape with `stamped` and more than `i` slots, slot `i`
    /// is full, its write happens-before this call, and the caller has exclusive access to
    /// it (it holds the pop lock, or owns the queue).
    #[inline(always)]
    pub(super) unsafe fn take(node: *mut Node<T>, i: usize, stamped: bool) -> T {
        // SAFETY: per the contract the slot exists, is initialised and is ours.
        unsafe { (*Self::slot_ptr(node, i, stamped)).with_mut(|s| (*s).assume_init_read()) }
    }

    /// Stores `index` into slot `i`'s stamp.
    ///
    /// # Safety
    ///
    /// `node` is a live stamped node with more than `i` slots.
    #[inline(always)]
    pub(super) unsafe fn set_stamp(node: *mut Node<T>, i: usize, index: usize, order: Ordering) {
        // SAFETY: per the contract the slot exists; the stamp is atomic.
        unsafe { (*Self::stamped_ptr(node, i)).stamp.store(index, order) }
    }

    /// Loads slot `i`'s stamp.
    ///
    /// # Safety
    ///
    /// `node` is a live stamped node with more than `i` slots.
    #[inline(always)]
    pub(super) unsafe fn stamp(node: *mut Node<T>, i: usize, order: Ordering) -> usize {
        // SAFETY: per the contract the slot exists; the stamp is atomic.
        unsafe { (*Self::stamped_ptr(node, i)).stamp.load(order) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::Ordering;

    #[test]
    fn alloc_write_take_free() {
        for slots in [1, 2, 3, 16] {
            for stamped in [false, true] {
                let shape = Shape { slots, stamped };
                let n = Node::<String>::alloc(shape);
                // SAFETY: fresh node of `shape`; each slot written then taken once, stamps
                // touched only when the shape has them.
                unsafe {
                    assert!((*n).next.load(Ordering::Relaxed).is_null());
                    for i in 0..slots {
                        Node::write(n, i, stamped, i.to_string());
                        if stamped {
                            assert_eq!(Node::stamp(n, i, Ordering::Relaxed), 0);
                            Node::set_stamp(n, i, i + 7, Ordering::Relaxed);
                        }
                    }
                    for i in 0..slots {
                        if stamped {
                            assert_eq!(Node::stamp(n, i, Ordering::Relaxed), i + 7);
                        }
                        assert_eq!(Node::take(n, i, stamped), i.to_string());
                    }
                    Node::free(n, shape);
                }
            }
        }
    }

    #[test]
    fn over_aligned_items() {
        #[repr(align(64))]
        struct Big(u8);
        for stamped in [false, true] {
            let shape = Shape { slots: 3, stamped };
            let n = Node::<Big>::alloc(shape);
            // SAFETY: as above.
            unsafe {
                Node::write(n, 2, stamped, Big(9));
                let b = Node::take(n, 2, stamped);
                assert_eq!(b.0, 9);
                assert_eq!(&b as *const Big as usize % 64, 0);
                Node::free(n, shape);
            }
        }
    }
}
