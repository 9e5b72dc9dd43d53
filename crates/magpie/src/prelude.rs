//! `use magpie::prelude::*;` brings the parallel-iterator traits into scope:
//! `par_iter()`, `par_iter_mut()`, `into_par_iter()`, `par_bridge()`, `par_extend()`,
//! the slice views (`par_chunks()`, `par_windows()`, ...) and sorts (`par_sort()`,
//! `par_sort_by_key()`, ...), `par_drain()`, the string sources (`par_chars()`,
//! `par_lines()`, ...) and every adaptor and consumer (see [`crate::iter`]).

pub use crate::iter::{
    FromParallelIterator, IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelBridge, ParallelDrainRange, ParallelExtend,
    ParallelIterator, ParallelSlice, ParallelSliceMut, ParallelString,
};
