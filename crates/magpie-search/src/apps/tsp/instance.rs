//! [`TspInstance`]: a symmetric TSP as a full matrix of integer distances.

use super::distance::CoordinateDistance;

/// The largest number of cities accepted (the matrix takes `4·n²` bytes).
pub const MAX_CITIES: usize = 5_000;

/// A symmetric travelling-salesman instance on cities `0..cities()` (city `i` is
/// node `i + 1` of a TSPLIB file), with integer distances.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TspInstance {
    name: String,
    cities: usize,
    /// Row-major `cities × cities`, symmetric, zero diagonal.
    weights: Vec<u32>,
}

impl TspInstance {
    /// The instance with `weights` (row-major `n × n`, symmetric; the diagonal is
    /// ignored), unchecked beyond the size.
    pub(super) fn from_weights(name: String, cities: usize, mut weights: Vec<u32>) -> Self {
        debug_assert_eq!(weights.len(), cities * cities);
        for i in 0..cities {
            weights[i * cities + i] = 0;
        }
        Self {
            name,
            cities,
            weights,
        }
    }

    /// The instance with distance matrix `rows`; `None` unless it is square,
    /// symmetric and has 2 to [`MAX_CITIES`] cities. The diagonal is ignored.
    ///
    /// ```
    /// use magpie_search::apps::tsp::TspInstance;
    ///
    /// let triangle = TspInstance::from_matrix(&[vec![0, 3, 4], vec![3, 0, 5], vec![4, 5, 0]]);
    /// assert_eq!(triangle.unwrap().tour_length(&[0, 2, 1]), Some(12));
    /// assert!(TspInstance::from_matrix(&[vec![0, 3], vec![4, 0]]).is_none());
    /// ```
    pub fn from_matrix(rows: &[Vec<u32>]) -> Option<Self> {
        let n = rows.len();
        if !(2..=MAX_CITIES).contains(&n) || rows.iter().any(|row| row.len() != n) {
            return None;
        }
        let symmetric = (0..n).all(|i| (0..i).all(|j| rows[i][j] == rows[j][i]));
        symmetric.then(|| Self::from_weights(String::new(), n, rows.concat()))
    }

    /// The instance of points `coordinates` under `distance`; `None` unless there
    /// are 2 to [`MAX_CITIES`] points and every distance is in range.
    ///
    /// ```
    /// use magpie_search::apps::tsp::{CoordinateDistance, TspInstance};
    ///
    /// let square = [(0.0, 0.0), (0.0, 10.0), (10.0, 10.0), (10.0, 0.0)];
    /// let instance = TspInstance::from_coordinates(CoordinateDistance::Euc2d, &square).unwrap();
    /// assert_eq!(instance.distance(0, 2), 14);
    /// ```
    pub fn from_coordinates(
        distance: CoordinateDistance,
        coordinates: &[(f64, f64)],
    ) -> Option<Self> {
        Self::from_points(String::new(), distance, coordinates).ok()
    }

    /// Like [`from_coordinates`](Self::from_coordinates), reporting the first pair
    /// (0-based) whose distance is out of range.
    pub(super) fn from_points(
        name: String,
        distance: CoordinateDistance,
        coordinates: &[(f64, f64)],
    ) -> Result<Self, (usize, usize)> {
        let n = coordinates.len();
        if !(2..=MAX_CITIES).contains(&n) {
            return Err((0, 0));
        }
        let mut weights = vec![0; n * n];
        for i in 0..n {
            for j in 0..i {
                let d = distance
                    .distance(coordinates[i], coordinates[j])
                    .ok_or((j, i))?;
                weights[i * n + j] = d;
                weights[j * n + i] = d;
            }
        }
        Ok(Self::from_weights(name, n, weights))
    }

    /// The instance's `NAME` (empty if none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The number of cities.
    pub fn cities(&self) -> usize {
        self.cities
    }

    /// The distance between cities `i` and `j` (panics if either is out of range).
    pub fn distance(&self, i: usize, j: usize) -> u64 {
        u64::from(self.weights[i * self.cities + j])
    }

    /// The length of the closed tour visiting `tour` in order; `None` unless `tour`
    /// is a permutation of all the cities.
    pub fn tour_length(&self, tour: &[usize]) -> Option<u64> {
        if tour.len() != self.cities {
            return None;
        }
        let mut seen = vec![false; self.cities];
        for &city in tour {
            if std::mem::replace(seen.get_mut(city)?, true) {
                return None;
            }
        }
        let closing = self.distance(tour[tour.len() - 1], tour[0]);
        Some(
            closing
                + tour
                    .windows(2)
                    .map(|w| self.distance(w[0], w[1]))
                    .sum::<u64>(),
        )
    }
}
