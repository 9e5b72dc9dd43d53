//! A small, fast, non-cryptographic random number generator for victim selection.
//!
//! Each worker owns one; policies receive it by `&mut`. It implements
//! [`rand_core::RngCore`] so it can drive [`magpie_queue::Stealer::sample`].

/// xorshift64* (Vigna 2016): one multiply per draw, period 2^64 − 1.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`; a zero seed is replaced (xorshift has a zero fixed point).
    pub fn new(seed: u64) -> Self {
        // splitmix64 finaliser spreads nearby seeds (worker indices) apart.
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Self(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_bits(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform integer in `0..n` (`n > 0`), by Lemire's multiply-shift.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        (((self.next_bits() >> 32) * n as u64) >> 32) as usize
    }

    /// A uniform index in `0..n` other than `me` (`n >= 2`).
    #[inline]
    pub fn other_than(&mut self, me: usize, n: usize) -> usize {
        debug_assert!(n >= 2 && me < n);
        let v = self.below(n - 1);
        if v >= me {
            v + 1
        } else {
            v
        }
    }
}

impl rand_core::RngCore for Rng {
    fn next_u32(&mut self) -> u32 {
        (self.next_bits() >> 32) as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.next_bits()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.next_bits().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = Rng::new(7);
        let mut seen = [0usize; 5];
        for _ in 0..10_000 {
            seen[rng.below(5)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 1_500), "{seen:?}");
    }

    #[test]
    fn other_than_never_returns_me() {
        let mut rng = Rng::new(1);
        for _ in 0..10_000 {
            assert_ne!(rng.other_than(2, 4), 2);
        }
        assert_eq!(Rng::new(0).other_than(0, 2), 1);
    }

    #[test]
    fn zero_seed_is_not_stuck() {
        let mut rng = Rng::new(0);
        let a = rng.next_bits();
        assert_ne!(a, rng.next_bits());
    }
}
