//! The UTS splittable random number generator: a node's state is a SHA-1 digest and
//! each child's state is the hash of its parent's state and its index, so any subtree
//! can be generated anywhere without communication.

use sha1::{Digest, Sha1};

/// A node's 20-byte SHA-1 state.
pub(super) type RngState = [u8; 20];

/// The root's state: SHA-1 of 16 zero bytes followed by `seed` as 4 big-endian bytes.
pub(super) fn root_state(seed: i32) -> RngState {
    let mut input = [0; 20];
    input[16..].copy_from_slice(&seed.to_be_bytes());
    digest(&input)
}

/// The state of child `index`: SHA-1 of the parent's state followed by `index` as 4
/// big-endian bytes.
pub(super) fn child_state(parent: &RngState, index: u32) -> RngState {
    let mut input = [0; 24];
    input[..20].copy_from_slice(parent);
    input[20..].copy_from_slice(&index.to_be_bytes());
    digest(&input)
}

/// The state's uniform number in `[0, 1)`: its last 4 bytes, big-endian, without the
/// sign bit, divided by 2³¹.
pub(super) fn uniform(state: &RngState) -> f64 {
    let last = u32::from_be_bytes([state[16], state[17], state[18], state[19]]);
    f64::from(last & 0x7fff_ffff) / 2_147_483_648.0
}

fn digest(input: &[u8]) -> RngState {
    let mut state = [0; 20];
    state.copy_from_slice(&Sha1::digest(input));
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_state_is_the_sha1_of_the_padded_seed() {
        // SHA-1 of 20 zero bytes.
        let zero = root_state(0);
        assert_eq!(&zero[..4], &[0x67, 0x68, 0x03, 0x3e]);
        assert_ne!(root_state(1), zero);
        assert_ne!(child_state(&zero, 0), child_state(&zero, 1));
    }

    #[test]
    fn uniform_ignores_the_sign_bit() {
        let mut state = [0; 20];
        state[16] = 0x80;
        assert_eq!(uniform(&state), 0.0);
        state[16..].copy_from_slice(&[0xff; 4]);
        assert!(uniform(&state) < 1.0);
    }
}
