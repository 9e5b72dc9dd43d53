//! The clique search's bound: greedy colour classes, MCS's Re-NUMBER and (in
//! [`absorb`](super::absorb)) the infra-chromatic / MaxSAT rule, on plain words.
//!
//! Colouring runs at every node and is nearly all of a node's cost, so it works on a
//! flat adjacency matrix ([`Adjacency`]) and on per-thread scratch words that are
//! reused from node to node: one allocation per node (the result), none inside.

use std::cell::RefCell;

use super::absorb::{absorb, Propagation};
use super::bitset::{intersects, single_common, single_common_in, Bitset};
use super::graph::Graph;

/// The adjacency matrix as rows of `words` 64-bit words, one row per vertex.
#[derive(Clone, Debug)]
pub(super) struct Adjacency {
    words: usize,
    rows: Vec<u64>,
}

impl Adjacency {
    pub(super) fn new(graph: &Graph) -> Self {
        let words = graph.order().div_ceil(64);
        let mut rows = Vec::with_capacity(words * graph.order());
        for v in 0..graph.order() {
            rows.extend_from_slice(graph.neighbours(v).words());
        }
        Self { words, rows }
    }

    /// The number of words per row: `W`, or the stored width when `W` is 0 (see
    /// [`colour`]).
    #[inline(always)]
    pub(super) fn width<const W: usize>(&self) -> usize {
        if W == 0 {
            self.words
        } else {
            W
        }
    }

    #[inline(always)]
    pub(super) fn row<const W: usize>(&self, v: usize) -> &[u64] {
        let words = self.width::<W>();
        &self.rows[v * words..(v + 1) * words]
    }
}

/// A candidate with its colour: `(vertex, colour)`, colours from 1.
pub(super) type Coloured = (u32, u32);

/// Marks a vertex of a branching class that moved into a class below `kmin`.
const MOVED: u32 = u32::MAX;

/// Words reused by every colouring on a thread.
#[derive(Default)]
struct Scratch {
    uncoloured: Vec<u64>,
    colourable: Vec<u64>,
    /// The classes below `kmin`, `words` each.
    low: Vec<u64>,
    /// For each low class, which of its words are non-zero (bit `i`: word `i`), so
    /// that the tests against a class skip its empty words: a class of a dense graph
    /// holds a few vertices in a few of the row's words. All ones for rows of more
    /// than 64 words.
    occupied: Vec<u64>,
    frozen: Vec<bool>,
    /// The unfrozen low classes where the vertex being renumbered has exactly one
    /// neighbour, with that neighbour: `(class, neighbour)`.
    singles: Vec<(u32, u32)>,
    /// The vertices of the other classes, class by class, ascending in each.
    high: Vec<u32>,
    /// Where each of those classes ends in `high`.
    high_ends: Vec<usize>,
    absorbed: Vec<u32>,
    /// The low class of each vertex in one (others: stale).
    class_of: Vec<u32>,
    /// The vertices of the unfrozen low classes.
    open: Vec<u64>,
    propagation: Propagation,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Greedy colouring of `candidates` in vertex (search) order, class by class, then
/// MCS's Re-NUMBER (Tomita et al. 2010): a vertex of colour `kmin` or more (one that
/// would be branched on) moves into a class below `kmin` if it has no neighbour
/// there, or if its single neighbour `q` there can move up into another class below
/// `kmin` that has no neighbour of `q`. Classes left empty are dropped.
///
/// With `infra`, a vertex `v` that Re-NUMBER cannot move is also taken out of the
/// branching classes when unit propagation over the classes below `kmin` proves that
/// no clique takes `v` and one vertex of each of some `s` of them ([`absorb`]: BBMCX's
/// infra-chromatic triplets, San Segundo et al. 2015, are its shortest proofs). A
/// clique then has at most `s` vertices in `v` and those classes, so the classes below
/// `kmin` with the absorbed vertices still hold no clique of more than `kmin - 1`
/// vertices; each class takes part in one proof at most and is not changed afterwards.
///
/// Returns the vertices ordered by colour (1-based; absorbed vertices get the colour
/// `kmin - 1`); a clique among the candidates of colour at most `c` has at most `c`
/// vertices. `kmin` ≤ 1 colours without either rule. Without `with_low_classes` the
/// vertices of colour below `kmin` are left out (a search never branches on them);
/// the colours of the others are the same.
pub(super) fn colour(
    adjacency: &Adjacency,
    candidates: &Bitset,
    kmin: usize,
    infra: bool,
    with_low_classes: bool,
) -> Vec<Coloured> {
    // Rows of up to 8 words get a copy of the loops with the width as a constant,
    // which the compiler unrolls (a graph of up to 512 vertices).
    let classes: ClassesFn = match adjacency.words {
        1 => classes::<1>,
        2 => classes::<2>,
        3 => classes::<3>,
        4 => classes::<4>,
        5 => classes::<5>,
        6 => classes::<6>,
        7 => classes::<7>,
        8 => classes::<8>,
        _ => classes::<0>,
    };
    SCRATCH.with(|scratch| {
        let scratch = &mut *scratch.borrow_mut();
        let low = classes(adjacency, candidates.words(), kmin, infra, scratch);
        emit(adjacency.words, low, with_low_classes, scratch)
    })
}

/// [`classes`] for one row width.
type ClassesFn = fn(&Adjacency, &[u64], usize, bool, &mut Scratch) -> usize;

/// The classes of [`colour`] in `scratch`, with rows of `W` words (0: as many as
/// `adjacency` says): greedy classes, then Re-NUMBER (and the infra-chromatic rule)
/// when some classes are below `kmin`. Returns the number of low classes.
fn classes<const W: usize>(
    adjacency: &Adjacency,
    candidates: &[u64],
    kmin: usize,
    infra: bool,
    scratch: &mut Scratch,
) -> usize {
    let low = greedy_classes::<W>(adjacency, candidates, kmin.saturating_sub(1), scratch);
    if low > 0 {
        renumber_all::<W>(adjacency, low, infra, scratch);
    }
    low
}

/// Colours `candidates` greedily: the first `low_wanted` classes go to
/// `scratch.low` as words, the rest to `scratch.high` as vertex lists. Returns the
/// number of low classes made.
fn greedy_classes<const W: usize>(
    adjacency: &Adjacency,
    candidates: &[u64],
    low_wanted: usize,
    scratch: &mut Scratch,
) -> usize {
    let words = adjacency.width::<W>();
    let Scratch {
        uncoloured,
        colourable,
        low,
        occupied,
        high,
        high_ends,
        absorbed,
        class_of,
        ..
    } = scratch;
    class_of.resize(words * 64, 0);
    // Fixed-length copies below (a call to memcpy for a few words otherwise).
    uncoloured.resize(words, 0);
    uncoloured.copy_from_slice(&candidates[..words]);
    colourable.resize(words, 0);
    low.clear();
    occupied.clear();
    high.clear();
    high_ends.clear();
    absorbed.clear();
    let mut classes = 0;
    // Words before `start` are empty in `uncoloured`, hence in every `colourable`.
    let mut start = 0;
    loop {
        while start < words && uncoloured[start] == 0 {
            start += 1;
        }
        if start == words {
            return classes.min(low_wanted);
        }
        let is_low = classes < low_wanted;
        if is_low {
            low.resize(low.len() + words, 0);
            occupied.push(if words > 64 { u64::MAX } else { 0 });
        }
        colourable[..words].copy_from_slice(&uncoloured[..words]);
        let mut i = start;
        while i < words {
            let word = colourable[i];
            if word == 0 {
                i += 1;
                continue;
            }
            let bit = word & word.wrapping_neg();
            let v = i * 64 + word.trailing_zeros() as usize;
            uncoloured[i] &= !bit;
            colourable[i] &= !bit;
            let row = adjacency.row::<W>(v);
            if W == 0 {
                for (c, n) in colourable[i..].iter_mut().zip(&row[i..]) {
                    *c &= !n;
                }
            } else {
                // All `W` words (those before `i` are empty anyway): a fixed-length
                // loop the compiler unrolls and vectorises.
                for (c, n) in colourable[..W].iter_mut().zip(&row[..W]) {
                    *c &= !n;
                }
            }
            if is_low {
                low[classes * words + i] |= bit;
                occupied[classes] |= word_bit(i);
                class_of[v] = classes as u32;
            } else {
                high.push(v as u32);
            }
        }
        if !is_low {
            high_ends.push(high.len());
        }
        classes += 1;
    }
}

/// Re-NUMBER (and with `infra` the absorbing rule) for every vertex of the
/// branching classes, in class order.
fn renumber_all<const W: usize>(
    adjacency: &Adjacency,
    low: usize,
    infra: bool,
    scratch: &mut Scratch,
) {
    let words = adjacency.width::<W>();
    let Scratch {
        low: classes,
        occupied,
        frozen,
        singles,
        high,
        absorbed,
        propagation,
        class_of,
        open,
        ..
    } = scratch;
    frozen.clear();
    frozen.resize(low, false);
    open.clear();
    open.resize(words, 0);
    for class in classes[..low * words].chunks_exact(words) {
        for (o, c) in open.iter_mut().zip(class) {
            *o |= c;
        }
    }
    let mut unfrozen = low;
    for slot in high.iter_mut() {
        let v = *slot as usize;
        let mut low = LowClasses {
            words,
            classes: &mut classes[..],
            occupied: &mut occupied[..],
            class_of: &mut class_of[..],
            open: &mut open[..],
        };
        if let Some(k1) = renumber::<W>(adjacency, &mut low, frozen, v, singles) {
            low.insert(k1, v);
            *slot = MOVED;
        } else if infra && unfrozen >= 2 {
            let used = absorb::<W>(adjacency, &mut low, frozen, v, singles, propagation);
            if used > 0 {
                unfrozen -= used;
                absorbed.push(*slot);
                *slot = MOVED;
            }
        }
    }
}

/// Finds a low class that `v` can join, moving at most one vertex of it up into
/// another low class; returns the class's index (the caller inserts `v`). Frozen
/// classes are left as they are. On failure `singles` holds the classes where `v`
/// has a single neighbour, for [`absorb`].
fn renumber<const W: usize>(
    adjacency: &Adjacency,
    low: &mut LowClasses<'_>,
    frozen: &[bool],
    v: usize,
    singles: &mut Vec<(u32, u32)>,
) -> Option<usize> {
    let nv = adjacency.row::<W>(v);
    singles.clear();
    for k1 in (0..frozen.len()).filter(|&k| !frozen[k]) {
        match low.single_common(k1, nv) {
            Err(0) => return Some(k1),
            Ok(q) => {
                let nq = adjacency.row::<W>(q);
                let free = |k2: &usize| !frozen[*k2] && !low.intersects(*k2, nq);
                if let Some(k2) = (k1 + 1..frozen.len()).find(free) {
                    low.remove(k1, q);
                    low.insert(k2, q);
                    return Some(k1);
                }
                singles.push((k1 as u32, q as u32));
            }
            Err(_) => {}
        }
    }
    None
}

/// The low classes as words, with the masks of their non-empty words.
pub(super) struct LowClasses<'s> {
    pub(super) words: usize,
    pub(super) classes: &'s mut [u64],
    pub(super) occupied: &'s mut [u64],
    /// The class of each vertex of a low class (others: stale).
    pub(super) class_of: &'s mut [u32],
    /// The vertices of the unfrozen classes.
    pub(super) open: &'s mut [u64],
}

/// The bit of word `i` in an `occupied` mask (none past 64 words, whose masks are
/// all ones).
#[inline(always)]
fn word_bit(i: usize) -> u64 {
    1u64.checked_shl(i as u32).unwrap_or(0)
}

/// The numbers of the set bits of `mask`, lowest first.
#[inline(always)]
pub(super) fn set_bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let i = mask.trailing_zeros() as usize;
        mask &= mask.wrapping_sub(1);
        (i < 64).then_some(i)
    })
}

impl LowClasses<'_> {
    #[inline(always)]
    pub(super) fn class(&self, k: usize) -> &[u64] {
        &self.classes[k * self.words..(k + 1) * self.words]
    }

    #[inline(always)]
    fn insert(&mut self, k: usize, v: usize) {
        self.classes[k * self.words + v / 64] |= 1 << (v % 64);
        self.occupied[k] |= word_bit(v / 64);
        self.class_of[v] = k as u32;
        self.open[v / 64] |= 1 << (v % 64);
    }

    #[inline(always)]
    fn remove(&mut self, k: usize, v: usize) {
        let word = &mut self.classes[k * self.words + v / 64];
        *word &= !(1 << (v % 64));
        if *word == 0 {
            self.occupied[k] &= !word_bit(v / 64);
        }
        self.open[v / 64] &= !(1 << (v % 64));
    }

    /// [`single_common`] of class `k` and `row`, over the class's non-empty words.
    #[inline(always)]
    pub(super) fn single_common(&self, k: usize, row: &[u64]) -> Result<usize, usize> {
        if self.words > 64 {
            return single_common(self.class(k), row);
        }
        single_common_in(self.class(k), row, set_bits(self.occupied[k]))
    }

    /// Freezes class `k`: no vertex moves into or out of it any more.
    pub(super) fn freeze(&mut self, frozen: &mut [bool], k: usize) {
        frozen[k] = true;
        for (o, c) in self.open.iter_mut().zip(&self.classes[k * self.words..]) {
            *o &= !c;
        }
    }

    /// The numbers of class `k`'s non-empty words (some may be empty past 64 words).
    #[inline(always)]
    pub(super) fn nonempty_words(&self, k: usize) -> impl Iterator<Item = usize> {
        let all = if self.words > 64 { self.words } else { 0 };
        set_bits(self.occupied[k])
            .take(if all > 0 { 0 } else { 64 })
            .chain(0..all)
    }

    /// Whether class `k` meets `row`.
    #[inline(always)]
    fn intersects(&self, k: usize, row: &[u64]) -> bool {
        if self.words > 64 {
            return intersects(self.class(k), row);
        }
        let class = self.class(k);
        set_bits(self.occupied[k]).any(|i| class[i] & row[i] != 0)
    }
}

/// The candidates in colour order: the low classes (if asked) with the absorbed
/// vertices after the last of them, then the non-empty branching classes.
fn emit(words: usize, low: usize, with_low_classes: bool, scratch: &Scratch) -> Vec<Coloured> {
    let mut out = Vec::with_capacity(if with_low_classes {
        low * 4 + scratch.high.len()
    } else {
        scratch.high.len()
    });
    let mut colour = low as u32; // every low class is non-empty
    if with_low_classes {
        for (k, class) in scratch.low.chunks_exact(words).enumerate() {
            for (i, &word) in class.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    out.push(((i * 64) as u32 + rest.trailing_zeros(), k as u32 + 1));
                    rest &= rest - 1;
                }
            }
        }
        out.extend(scratch.absorbed.iter().map(|&v| (v, colour)));
    }
    let mut begin = 0;
    for &end in &scratch.high_ends {
        let class = &scratch.high[begin..end];
        begin = end;
        if class.iter().any(|&v| v != MOVED) {
            colour += 1;
            out.extend(class.iter().filter(|&&v| v != MOVED).map(|&v| (v, colour)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{colour, Adjacency, Bitset, Coloured, Graph};

    fn split(coloured: Vec<Coloured>) -> (Vec<usize>, Vec<usize>) {
        coloured
            .into_iter()
            .map(|(v, c)| (v as usize, c as usize))
            .unzip()
    }

    /// The largest clique among `vertices` (brute force for small sets).
    fn omega(g: &Graph, vertices: &[usize]) -> usize {
        fn grow(g: &Graph, clique: &mut Vec<usize>, rest: &[usize]) -> usize {
            let mut best = clique.len();
            for (i, &v) in rest.iter().enumerate() {
                if clique.iter().all(|&u| g.has_edge(u, v)) {
                    clique.push(v);
                    best = best.max(grow(g, clique, &rest[i + 1..]));
                    clique.pop();
                }
            }
            best
        }
        grow(g, &mut Vec::new(), vertices)
    }

    /// Re-NUMBER keeps a proper colouring of exactly the candidates, with no more
    /// colours than the plain greedy colouring; with the infra-chromatic rule as well,
    /// the candidates of colour at most `c` still hold no clique of more than `c`.
    #[test]
    fn colourings_bound_the_cliques_of_every_prefix() {
        let mut next = super::super::test_rng();
        let mut absorbing_rounds = 0;
        for round in 0..300 {
            let infra = round % 2 == 0;
            let n = 5 + (next() % 28) as usize;
            let density = 3 + next() % 7;
            let mut g = Graph::new(n);
            for u in 0..n {
                for v in u + 1..n {
                    if next() % 10 < density {
                        g.add_edge(u, v);
                    }
                }
            }
            let mut candidates = Bitset::full(n);
            for v in 0..n {
                if next() % 5 == 0 {
                    candidates.remove(v);
                }
            }
            let adjacency = Adjacency::new(&g);
            let (_, plain) = split(colour(&adjacency, &candidates, 0, false, true));
            let kmin = (next() % (plain.last().copied().unwrap_or(0) as u64 + 2)) as usize;
            let full = colour(&adjacency, &candidates, kmin, infra, true);
            // Without the low classes: the same branching vertices and colours.
            let branching = colour(&adjacency, &candidates, kmin, infra, false);
            let low = full.iter().filter(|&&(_, c)| (c as usize) < kmin).count();
            assert_eq!(branching[..], full[low..], "round {round}");
            let (order, colours) = split(full);
            let mut sorted = order.clone();
            sorted.sort_unstable();
            assert_eq!(
                sorted,
                candidates.iter().collect::<Vec<_>>(),
                "round {round}"
            );
            assert!(colours.windows(2).all(|w| w[0] <= w[1] && w[1] <= w[0] + 1));
            assert!(colours.last() <= plain.last(), "round {round}");
            for (i, &c) in colours.iter().enumerate() {
                if colours.get(i + 1) != Some(&c) {
                    assert!(
                        omega(&g, &order[..=i]) <= c,
                        "round {round}: prefix up to colour {c}"
                    );
                }
            }
            let mut proper = true;
            for (i, &u) in order.iter().enumerate() {
                for (j, &v) in order.iter().enumerate().skip(i + 1) {
                    proper &= colours[i] != colours[j] || !g.has_edge(u, v);
                }
            }
            // Only absorbed vertices share a colour with a neighbour.
            assert!(proper || infra, "round {round}");
            absorbing_rounds += usize::from(!proper);
        }
        assert!(absorbing_rounds > 0, "the infra-chromatic rule never fired");
    }
}
