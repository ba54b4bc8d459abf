//! `passes::dataonly` with CBMC: a race found with a set-up loop made one step is reported
//! when the values the step gives decide nothing (the array is data-only), and the
//! race-free twin stays "no race" with the stores of the data-only array dropped; the same
//! for a heap block (by allocation site), and a heap block whose contents decide a branch
//! or an index keeps its stores.

use crate::{free, racy};

/// `a[k] = a[k + 1] + 1` by two threads after `main` filled `a` in a loop of 1000: the
/// loop is one step, the array data-only, the race reported on its lines; with disjoint
/// elements (`a[2k] = a[2k + 1] + 1`) no race within the bounds.
#[test]
fn setup_loop_race_is_reported_when_the_values_decide_nothing() {
    racy("dataonly_setup_racy.c", (5, 5));
    free("dataonly_setup_free.c");
}

/// DataRaceBench's indirect-access shape on the heap: a block of 2026 doubles filled by a
/// set-up loop, `xa1[k] += …; xa2[k] += …` through two pointers 12 elements apart. The
/// stores into the block (data-only) ran CBMC out of time at 2/2 before the heap was
/// sliced; threads 12 and 0 meet at `base[12]`, threads 1 and 0 never meet.
#[test]
fn setup_loop_over_a_data_only_heap_block() {
    racy("dataonly_heap_setup_racy.c", (8, 9));
    free("dataonly_heap_setup_free.c");
}

/// Heap contents that decide a branch or an index keep their stores: dropped, the
/// `calloc` block would read all zeros (the branch never taken: the race on `x` lost; both
/// threads at `a[0]`: a race that is not there).
#[test]
fn heap_contents_that_decide_keep_their_stores() {
    racy("dataonly_heap_decides_racy.c", (8, 8));
    racy("dataonly_heap_index_racy.c", (7, 7));
    free("dataonly_heap_index_free.c");
}

/// A dropped store keeps the reads of its place: `c[j] += 1.0` into a data-only array
/// still reads `j` to find the element, and that read races with another thread's write
/// of `j`. The rewrite kept the value's reads but dropped the place's, and answered "no
/// race" (DataRaceBench's DRB111: the read of `j` in `c[j] += …` against `j++`). The twin's
/// other thread only reads `j`.
#[test]
fn a_dropped_store_keeps_the_reads_of_its_place() {
    racy("dataonly_index_racy.c", (4, 8));
    free("dataonly_index_free.c");
}
