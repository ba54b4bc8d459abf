//! `passes::dataonly` with CBMC: a race found with a set-up loop made one step is reported
//! when the values the step gives decide nothing (the array is data-only), and the
//! race-free twin stays "no race" with the stores of the data-only array dropped.

use crate::{free, racy};

/// `a[k] = a[k + 1] + 1` by two threads after `main` filled `a` in a loop of 1000: the
/// loop is one step, the array data-only, the race reported on its lines; with disjoint
/// elements (`a[2k] = a[2k + 1] + 1`) no race within the bounds.
#[test]
fn setup_loop_race_is_reported_when_the_values_decide_nothing() {
    racy("dataonly_setup_racy.c", (5, 5));
    free("dataonly_setup_free.c");
}
