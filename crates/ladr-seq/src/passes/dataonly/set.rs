//! The sets of cells `dataonly`'s analysis computes with: bit sets, because points-to sets
//! of unwound list code are dense (hundreds of cells each, re-joined at every expression
//! of every round), where ordered trees made the analysis quadratic with a large factor.

use super::cells::Cell;
use bit_set::BitSet;

/// A set of cells.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Set(BitSet);

impl Set {
    pub fn new() -> Set {
        Set::default()
    }

    /// Adds `c`; whether it was new.
    pub fn insert(&mut self, c: Cell) -> bool {
        self.0.insert(c as usize)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = Cell> + '_ {
        self.0.iter().map(|c| c as Cell)
    }

    /// Adds every cell of `other`; whether any was new.
    pub fn union_with(&mut self, other: &Set) -> bool {
        if other.0.is_subset(&self.0) {
            return false;
        }
        self.0.union_with(&other.0);
        true
    }
}

impl<const N: usize> From<[Cell; N]> for Set {
    fn from(cells: [Cell; N]) -> Set {
        cells.into_iter().collect()
    }
}

impl FromIterator<Cell> for Set {
    fn from_iter<I: IntoIterator<Item = Cell>>(it: I) -> Set {
        let mut s = Set::new();
        s.extend(it);
        s
    }
}

impl Extend<Cell> for Set {
    fn extend<I: IntoIterator<Item = Cell>>(&mut self, it: I) {
        for c in it {
            self.insert(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_reports_growth_only_when_a_cell_is_new() {
        let mut a = Set::from([1, 70]);
        assert!(!a.union_with(&Set::from([70])));
        assert!(a.union_with(&Set::from([3, 200])));
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![1, 3, 70, 200]);
        assert!(Set::new().is_empty());
    }
}
