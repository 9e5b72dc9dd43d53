//! `use magpie::prelude::*;` brings the parallel-iterator traits into scope:
//! `par_iter()`, `par_iter_mut()`, `into_par_iter()`, `par_chunks()`,
//! `par_chunks_mut()`, `par_sort()`, `par_sort_unstable()` and every adaptor and
//! consumer (see [`crate::iter`]).

pub use crate::iter::{
    FromParallelIterator, IndexedParallelIterator, IntoParallelIterator, IntoParallelRefIterator,
    IntoParallelRefMutIterator, ParallelIterator, ParallelSlice, ParallelSliceMut,
};
