//! Taking a branching vertex out of the branching classes when the classes below
//! `kmin` prove that it cannot extend them to a clique of `kmin` vertices, by unit
//! propagation over the colour classes as in MaxCLQ (Li & Quan, AAAI 2010, "An
//! efficient branch-and-bound algorithm based on MaxSAT for the maximum clique
//! problem"). Its shortest proofs are BBMCX's infra-chromatic triplets (San Segundo et
//! al. 2015): `v` has a single neighbour `q` in a class `Ci`, and a class `Cj` holds no
//! common neighbour of `v` and `q`; longer chains of forced vertices prove more.
//!
//! On success the classes the proof used are frozen: a clique has at most `s` vertices
//! in the union of `v` and the `s` classes of its proof, and no class takes part in two
//! proofs, so the low classes with every absorbed vertex still hold no clique of more
//! than `kmin - 1` vertices.

use super::colouring::{Adjacency, LowClasses};

/// What unit propagation knows of a class.
#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// More than one of its vertices is still possible.
    Open,
    /// One vertex is left, waiting in the queue to be assigned.
    Queued,
    /// Its last vertex is assigned.
    Used,
}

/// Words reused by every propagation on a thread.
#[derive(Default)]
pub(super) struct Propagation {
    /// The vertices of the unfrozen low classes adjacent to every assigned vertex.
    alive: Vec<u64>,
    /// The vertices the last assignment took out of `alive`.
    excluded: Vec<u64>,
    /// The step at which each class was last tested.
    seen: Vec<u32>,
    /// The assigned vertices in order, each with its class (`v` first, classless).
    assigned: Vec<(u32, u32)>,
    /// Classes left with one vertex, with it, in the order found.
    queue: Vec<(u32, u32)>,
    state: Vec<State>,
    /// Which assigned vertices the proof needs.
    needed: Vec<bool>,
}

/// `v`'s entry in [`Propagation::assigned`]: it has no class.
const NO_CLASS: u32 = u32::MAX;

/// Unit propagation from `v`: assume the clique takes `v` and one vertex of every
/// unfrozen low class; a class left with one common neighbour of the assigned vertices
/// forces it, and a class left with none is a conflict. On a conflict the classes the
/// proof used (the conflict's class and, recursively, the classes of the assignments
/// that emptied it) are frozen and their number returned; 0 if propagation ends
/// without one. `singles` are the unfrozen classes where `v` has a single neighbour,
/// with that neighbour: the first units.
///
/// An assignment looks only at the classes that lost a vertex to it, found from the
/// vertices it excludes, so a propagation costs a few words per step rather than a
/// pass over every class.
pub(super) fn absorb<const W: usize>(
    adjacency: &Adjacency,
    low: &mut LowClasses<'_>,
    frozen: &mut [bool],
    v: usize,
    singles: &[(u32, u32)],
    scratch: &mut Propagation,
) -> usize {
    let words = adjacency.width::<W>();
    let Propagation {
        alive,
        excluded,
        assigned,
        queue,
        state,
        seen,
        ..
    } = scratch;
    let nv = adjacency.row::<W>(v);
    alive.clear();
    alive.extend(
        nv[..words]
            .iter()
            .zip(&low.open[..words])
            .map(|(n, o)| n & o),
    );
    excluded.clear();
    excluded.resize(words, 0);
    assigned.clear();
    assigned.push((v as u32, NO_CLASS));
    state.clear();
    state.resize(frozen.len(), State::Open);
    seen.clear();
    seen.resize(frozen.len(), 0);
    queue.clear();
    for &(k, q) in singles {
        state[k as usize] = State::Queued;
        queue.push((k, q));
    }
    let mut next = 0;
    let mut conflict = None;
    'propagate: while let Some(&(k, q)) = queue.get(next) {
        next += 1;
        state[k as usize] = State::Used;
        assigned.push((q, k));
        let step = next as u32;
        let nq = adjacency.row::<W>(q as usize);
        for ((x, a), n) in excluded.iter_mut().zip(alive.iter_mut()).zip(&nq[..words]) {
            *x = *a & !n;
            *a &= n;
        }
        for (i, &word) in excluded.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                let w = i * 64 + rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let j = low.class_of[w] as usize;
                // `q` itself is excluded; the classes used before keep their vertex.
                if state[j] == State::Used || seen[j] == step {
                    continue;
                }
                seen[j] = step;
                match low.single_common(j, alive) {
                    Err(0) => {
                        conflict = Some(j);
                        break 'propagate;
                    }
                    Ok(u) if state[j] == State::Open => {
                        state[j] = State::Queued;
                        queue.push((j as u32, u as u32));
                    }
                    _ => {}
                }
            }
        }
    }
    conflict.map_or(0, |j| freeze_proof::<W>(adjacency, low, frozen, j, scratch))
}

/// Freezes the classes of the proof that class `empty` has no common neighbour of
/// the assigned vertices, and returns their number.
fn freeze_proof<const W: usize>(
    adjacency: &Adjacency,
    low: &mut LowClasses<'_>,
    frozen: &mut [bool],
    empty: usize,
    scratch: &mut Propagation,
) -> usize {
    let Propagation {
        assigned, needed, ..
    } = scratch;
    needed.clear();
    needed.resize(assigned.len(), false);
    mark_excluders::<W>(adjacency, low, empty, None, assigned, needed);
    low.freeze(frozen, empty);
    let mut count = 1;
    // An assigned vertex was forced because the assignments before it excluded the
    // rest of its class: those are needed too.
    for at in (1..assigned.len()).rev() {
        if needed[at] {
            let (a, k) = assigned[at];
            mark_excluders::<W>(adjacency, low, k as usize, Some(a), &assigned[..at], needed);
            low.freeze(frozen, k as usize);
            count += 1;
        }
    }
    count
}

/// For every vertex of class `k` but `except`, marks in `needed` the first of
/// `assigned` that is not its neighbour (one exists: the class had no other vertex
/// left when it was forced or found empty). Word by word: each assigned vertex takes
/// the class's vertices it excludes that no earlier one did.
fn mark_excluders<const W: usize>(
    adjacency: &Adjacency,
    low: &LowClasses<'_>,
    k: usize,
    except: Option<u32>,
    assigned: &[(u32, u32)],
    needed: &mut [bool],
) {
    let class = low.class(k);
    for i in low.nonempty_words(k) {
        let mut rest = class[i];
        if let Some(a) = except.filter(|&a| a as usize / 64 == i) {
            rest &= !(1 << (a % 64));
        }
        for (at, &(a, _)) in assigned.iter().enumerate() {
            if rest == 0 {
                break;
            }
            let excluded = rest & !adjacency.row::<W>(a as usize)[i];
            if excluded != 0 {
                needed[at] = true;
                rest &= !excluded;
            }
        }
        debug_assert_eq!(rest, 0, "class {k} has a vertex no assignment excludes");
    }
}

#[cfg(test)]
mod tests {
    use super::super::colouring::{colour, Adjacency};
    use super::super::{Bitset, Graph};

    /// A proof of three classes that the triangle test alone cannot find. Greedy
    /// colouring makes the classes {a, x}, {b, y}, {c} and puts `v` fourth. `v` has the
    /// single neighbour `a` in the first class and `c` in the third; every pair of
    /// them has a common neighbour in each other class, so no triplet of two classes
    /// and `v` is triangle-free. Propagation: `a` excludes `y`, forcing `b`; `c`
    /// excludes `b`, emptying the second class.
    #[test]
    fn propagation_absorbs_a_vertex_through_a_chain_of_forced_vertices() {
        let (a, x, b, y, c, v) = (0, 1, 2, 3, 4, 5);
        let mut g = Graph::new(6);
        for (p, q) in [
            (v, a),
            (v, b),
            (v, y),
            (v, c),
            (a, b),
            (a, c),
            (y, c),
            (x, b),
            (x, y),
        ] {
            g.add_edge(p, q);
        }
        let adjacency = Adjacency::new(&g);
        let all = Bitset::full(6);
        let colour_of_v = |infra| {
            let coloured = colour(&adjacency, &all, 4, infra, true);
            coloured.iter().find(|&&(u, _)| u as usize == v).unwrap().1
        };
        assert_eq!(colour_of_v(false), 4, "Re-NUMBER alone cannot move v");
        assert_eq!(colour_of_v(true), 3, "v is absorbed below kmin");
    }
}
