//! Unit tests of the BWoS queues, small enough for Miri.

mod drops;
mod fifo;
mod lifo;
