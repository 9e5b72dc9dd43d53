//! How ranks reach each other: [`Transport`], with MPI ([`MpiTransport`], feature
//! `mpi`) for real runs and in-process channels ([`local_world`]) for tests and for
//! trying the protocol without OpenMPI.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Barrier};

/// Point-to-point byte messages between the ranks of one run. Messages from one rank
/// to another arrive in the order they were sent (MPI's non-overtaking rule).
pub trait Transport {
    /// This rank's number, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Starts sending `bytes` to rank `to`; never waits for the receiver.
    fn send(&mut self, to: usize, bytes: Vec<u8>);
    /// A message that has arrived, with its sender, if any; never waits.
    fn try_receive(&mut self) -> Option<(usize, Vec<u8>)>;
    /// Waits until every send started so far has completed.
    fn flush(&mut self);
    /// Waits until every rank has called `barrier` (call it only where every rank
    /// will, or this rank waits forever).
    fn barrier(&mut self);
}

/// One rank of an in-process world (see [`local_world`]).
#[derive(Debug)]
pub struct LocalTransport {
    rank: usize,
    peers: Vec<Sender<(usize, Vec<u8>)>>,
    inbox: Receiver<(usize, Vec<u8>)>,
    everyone: Arc<Barrier>,
}

/// `ranks` connected in-process transports, one per rank (move each to its thread).
pub fn local_world(ranks: usize) -> Vec<LocalTransport> {
    let (senders, receivers): (Vec<_>, Vec<_>) = (0..ranks).map(|_| channel()).unzip();
    let everyone = Arc::new(Barrier::new(ranks));
    receivers
        .into_iter()
        .enumerate()
        .map(|(rank, inbox)| LocalTransport {
            rank,
            peers: senders.clone(),
            inbox,
            everyone: Arc::clone(&everyone),
        })
        .collect()
}

impl Transport for LocalTransport {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.peers.len()
    }

    fn send(&mut self, to: usize, bytes: Vec<u8>) {
        // A peer that already ended drops nothing we still need: the protocol sends
        // to a rank only while it waits for the end of the run.
        let _ = self.peers[to].send((self.rank, bytes));
    }

    fn try_receive(&mut self) -> Option<(usize, Vec<u8>)> {
        self.inbox.try_recv().ok()
    }

    fn flush(&mut self) {}

    fn barrier(&mut self) {
        self.everyone.wait();
    }
}

#[cfg(feature = "mpi")]
pub use self::mpi_transport::MpiTransport;

#[cfg(feature = "mpi")]
mod mpi_transport {
    use mpi::collective::CommunicatorCollectives;
    use mpi::environment::Universe;
    use mpi::point_to_point::{Destination, MatchedReceiveVec, Source};
    use mpi::request::{Request, StaticScope};
    use mpi::topology::{Communicator, SimpleCommunicator};
    use mpi::Threading;

    use super::Transport;
    use crate::error::DistError;

    /// A started send and its buffer (a leaked box, freed once the send completes).
    type PendingSend = (Request<'static, [u8], StaticScope>, *mut [u8]);

    /// The MPI world as a [`Transport`]: non-blocking sends (`MPI_Isend`) whose
    /// buffers live until the send completes, and probing receives.
    pub struct MpiTransport {
        world: SimpleCommunicator,
        /// Sends under way and the buffers they read.
        pending: Vec<PendingSend>,
        /// Finalizes MPI when dropped, after the fields above.
        _universe: Universe,
    }

    impl std::fmt::Debug for MpiTransport {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("MpiTransport")
                .field("rank", &self.world.rank())
                .field("pending", &self.pending.len())
                .finish()
        }
    }

    impl MpiTransport {
        /// Initializes MPI (funneled: every MPI call comes from this thread, which
        /// must run the searches' communication loops) and connects to its world.
        /// MPI is finalized when the transport is dropped.
        pub fn init() -> Result<Self, DistError> {
            let (universe, threading) =
                mpi::initialize_with_threading(Threading::Funneled).ok_or(DistError::MpiInit)?;
            if threading < Threading::Funneled {
                return Err(DistError::MpiInit);
            }
            Ok(Self {
                world: universe.world(),
                pending: Vec::new(),
                _universe: universe,
            })
        }

        /// Frees the buffers of completed sends.
        fn reap(&mut self, wait: bool) {
            let mut still = Vec::with_capacity(self.pending.len());
            for (request, buffer) in self.pending.drain(..) {
                let done = if wait {
                    request.wait();
                    None
                } else {
                    request.test().err()
                };
                match done {
                    Some(request) => still.push((request, buffer)),
                    // SAFETY: `buffer` came from `Box::into_raw` in `send`, and the only
                    // reader, the request, has completed and is gone.
                    None => drop(unsafe { Box::from_raw(buffer) }),
                }
            }
            self.pending = still;
        }
    }

    impl Transport for MpiTransport {
        fn rank(&self) -> usize {
            self.world.rank() as usize
        }

        fn size(&self) -> usize {
            self.world.size() as usize
        }

        fn send(&mut self, to: usize, bytes: Vec<u8>) {
            let buffer = Box::into_raw(bytes.into_boxed_slice());
            // SAFETY: the buffer stays allocated and unaliased until `reap` sees the
            // send complete; only the request reads it meanwhile.
            let view: &'static [u8] = unsafe { &*buffer };
            let request = self
                .world
                .process_at_rank(to as i32)
                .immediate_send(StaticScope, view);
            self.pending.push((request, buffer));
            if self.pending.len() > 64 {
                self.reap(false);
            }
        }

        fn try_receive(&mut self) -> Option<(usize, Vec<u8>)> {
            let probed = self.world.any_process().immediate_matched_probe()?;
            let (bytes, status) = probed.matched_receive_vec::<u8>();
            Some((status.source_rank() as usize, bytes))
        }

        fn flush(&mut self) {
            self.reap(true);
        }

        fn barrier(&mut self) {
            self.world.barrier();
        }
    }

    impl Drop for MpiTransport {
        fn drop(&mut self) {
            self.reap(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_sent_before_a_barrier_are_there_after_it() {
        let handles: Vec<_> = local_world(3)
            .into_iter()
            .map(|mut transport| {
                std::thread::spawn(move || {
                    let me = transport.rank();
                    for to in (0..transport.size()).filter(|&to| to != me) {
                        transport.send(to, vec![me as u8]);
                    }
                    transport.barrier();
                    let mut from: Vec<usize> =
                        std::iter::from_fn(|| transport.try_receive().map(|(r, _)| r)).collect();
                    from.sort_unstable();
                    (me, from)
                })
            })
            .collect();
        for handle in handles {
            let (me, from) = handle.join().unwrap();
            let others: Vec<usize> = (0..3).filter(|&r| r != me).collect();
            assert_eq!(from, others, "rank {me}");
        }
    }
}
