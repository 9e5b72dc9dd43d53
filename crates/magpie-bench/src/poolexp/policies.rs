//! The victim policies the pool experiment runs: every one of [`magpie::policy::NAMES`],
//! built by name with its default settings.

use magpie::policy::VictimPolicy;

use crate::BenchError;

/// The baseline policy's name (uniformly random victim).
pub const RANDOM: &str = "random";

/// Names of every policy, in magpie's order.
pub fn names() -> Vec<&'static str> {
    magpie::policy::NAMES.to_vec()
}

/// The policy called `name`.
pub fn get(name: &str) -> Result<Box<dyn VictimPolicy>, BenchError> {
    magpie::policy::by_name(name).map_err(|e| BenchError::Invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_builds_its_policy() {
        assert!(names().contains(&RANDOM));
        for n in names() {
            assert_eq!(get(n).unwrap().name(), n);
        }
        assert!(get("no-such-policy").is_err());
    }
}
