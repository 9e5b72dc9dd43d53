//! Held–Karp penalties: integer city weights `π` that tighten spanning-tree bounds.
//!
//! With `w'(i, j) = d(i, j) + π_i + π_j`, any tour or path `F` has
//! `d(F) = w'(F) − Σ_i π_i · deg_F(i)`, so a minimum spanning structure under `w'`
//! minus the penalties of the degrees `F` must have is a lower bound for every `π`.
//! Subgradient ascent on the root's 1-tree picks a `π` that makes the bound tight
//! near the root; the search reuses it at every node.

/// The total weight of a minimum spanning tree of `cities` under `weight` (Prim,
/// `O(k²)`), calling `on_edge` for each tree edge.
pub(super) fn spanning_tree(
    cities: &[usize],
    weight: impl Fn(usize, usize) -> i64,
    mut on_edge: impl FnMut(usize, usize),
) -> i64 {
    let Some((&first, rest)) = cities.split_first() else {
        return 0;
    };
    // (city, cheapest edge into the tree, the tree city at its other end)
    let mut outside: Vec<(usize, i64, usize)> =
        rest.iter().map(|&c| (c, weight(first, c), first)).collect();
    let mut total = 0;
    while let Some(at) = (0..outside.len()).min_by_key(|&i| outside[i].1) {
        let (joined, cost, parent) = outside.swap_remove(at);
        total += cost;
        on_edge(joined, parent);
        for (city, key, attached) in &mut outside {
            let through = weight(joined, *city);
            if through < *key {
                *key = through;
                *attached = joined;
            }
        }
    }
    total
}

/// The Lagrangian value of the minimum 1-tree (a spanning tree of cities `1..n`
/// plus the two cheapest edges at city 0, the one edge twice with two cities) under
/// penalties `pi`, and each city's degree in it.
fn one_tree(n: usize, distance: &impl Fn(usize, usize) -> u64, pi: &[i64]) -> (i64, Vec<i64>) {
    let weight = |i: usize, j: usize| distance(i, j) as i64 + pi[i] + pi[j];
    let mut degrees = vec![0i64; n];
    let others: Vec<usize> = (1..n).collect();
    let mut total = spanning_tree(&others, weight, |a, b| {
        degrees[a] += 1;
        degrees[b] += 1;
    });
    let mut from_zero: Vec<(i64, usize)> = others.iter().map(|&j| (weight(0, j), j)).collect();
    from_zero.sort_unstable();
    // With two cities the only tour uses its one edge twice, and so does the 1-tree:
    // with a single edge at city 0 the bound would grow with the penalties unchecked.
    for &(w, j) in from_zero.iter().cycle().take(2) {
        total += w;
        degrees[0] += 1;
        degrees[j] += 1;
    }
    (total - 2 * pi.iter().sum::<i64>(), degrees)
}

/// Penalties for `n` cities by subgradient ascent on the 1-tree bound, given the
/// length `upper` of a known tour, and the lower bound on every tour they give.
/// The number of iterations shrinks with `n²` so that large instances stay cheap;
/// zero penalties (the plain 1-tree bound) are the start.
pub(super) fn held_karp_penalties(
    n: usize,
    distance: impl Fn(usize, usize) -> u64,
    upper: u64,
) -> (Vec<i64>, i64) {
    const WORK: usize = 20_000_000;
    let iterations = (WORK / (n * n).max(1)).min(300);
    let mut pi = vec![0.0f64; n];
    let mut best = (i64::MIN, vec![0i64; n]);
    let mut scale = 2.0;
    let mut stalled = 0;
    for _ in 0..iterations {
        let rounded: Vec<i64> = pi.iter().map(|p| p.round() as i64).collect();
        let (value, degrees) = one_tree(n, &distance, &rounded);
        if value > best.0 {
            best = (value, rounded);
            stalled = 0;
        } else {
            stalled += 1;
            if stalled == 10 {
                scale /= 2.0;
                stalled = 0;
            }
        }
        let norm: i64 = degrees.iter().map(|d| (d - 2) * (d - 2)).sum();
        let gap = upper as f64 - value as f64;
        if norm == 0 || gap <= 0.0 || scale < 1e-3 {
            break; // the 1-tree is a tour, or as good as the known tour
        }
        let step = scale * gap / norm as f64;
        for (p, d) in pi.iter_mut().zip(&degrees) {
            *p += step * (d - 2) as f64;
        }
    }
    (best.1, best.0)
}
