//! Applications written on the framework.

pub mod clique;
