//! Tiles of a worksharing loop (`prove/window.rs`: an inner loop over `[α·i + l, α·i + h]`
//! of the loop's variable `i`, apart for two iterations when `α > h - l`) and the lanes of
//! a `simd` loop inside a region (`prove/lanes.rs`: two iterations of one thread's loop
//! touch different elements); racy programs built to fool the rules are not proved.

use crate::prove::{assert_none_proved, proof_of_source};

/// `main` with `double a[64][64], b[64][64]` and a `parallel for` over tiles `t` of 16
/// rows whose inner loop over the tile's rows `r` (from `LO`, while `r <= HI`) is
/// preceded by `PRAGMA` and runs `BODY` for each column `c`; `s` and `p` are private to
/// the thread.
fn tiled(pragma: &str, lo: &str, hi: &str, body: &str) -> String {
    format!(
        "double a[64][64], b[64][64];\nint main(void) {{\n  int n = 64, t, r, c, s;\n  double (*p)[64];\n\
         #pragma omp parallel for private(r, c, s, p)\n  for (t = 0; t <= (n - 1) / 16; t++) {{\n    \
         for (c = 1; c <= n - 1; c++) {{\n{pragma}\n      \
         for (r = {lo}; r <= {hi}; r++) {{\n        {body}\n      }}\n    }}\n  }}\n  \
         return 0;\n}}\n"
    )
}

const MIN_HI: &str = "(16 * t + 15 < n - 1 ? 16 * t + 15 : n - 1)";

#[test]
fn tiles_and_simd_lanes_are_proved_apart() {
    for (pragma, body) in [
        ("", "a[r][c] = a[r][c] - a[r][c - 1];"),
        (
            "#pragma omp simd",
            "a[r][c] = a[r][c] - a[r][c - 1] * b[r][c];",
        ),
        // the tile as a column of rows: the row is shared, the column the tile's
        ("#pragma omp simd", "a[c][r] = a[c - 1][r] + b[c][r];"),
        // a scalar each iteration declares
        ("#pragma omp simd", "double x = b[r][c]; a[r][c] = x * x;"),
    ] {
        let src = tiled(pragma, "16 * t", MIN_HI, body);
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
    for (guard, lo, hi) in [
        // a start above the tile's (`max`) stays within it
        ("", "(1 > 16 * t ? 1 : 16 * t)", MIN_HI),
        // a constant start, in the tiles of `t <= 2` only: within the third tile
        ("      if (t <= 2)", "40", "16 * t + 15"),
        // a constant end, in the tiles of `t >= 3` only
        ("      if (t >= 3)", "16 * t", "50"),
    ] {
        let src = tiled(guard, lo, hi, "a[r][c] = 1;");
        let p = proof_of_source(&src);
        assert!(p.proved, "{src}\n{:#?}", ladr_report::proof::lines(&p));
    }
}

#[test]
fn racy_tiles_and_lanes_are_not_proved() {
    let racy = [
        // 17 rows a tile of 16: the last row is the next tile's first
        (
            "overlap",
            tiled("", "16 * t", "16 * t + 16", "a[r][c] = 1;"),
        ),
        // the next row: another tile's at the tile's end
        (
            "next-row",
            tiled("", "16 * t", MIN_HI, "a[r + 1][c] = a[r][c];"),
        ),
        // a column past its row: a[r][64] is a[r + 1][0], the next tile's at its end
        (
            "past-the-row",
            tiled("", "16 * t", MIN_HI, "a[r][c + 63] = 1;"),
        ),
        // a constant start that reaches into the third tile from the fourth
        (
            "constant-start",
            tiled("      if (t <= 3)", "40", "16 * t + 15", "a[r][c] = 1;"),
        ),
        // a constant end that reaches from the third tile into the fourth
        (
            "constant-end",
            tiled("      if (t >= 2)", "16 * t", "50", "a[r][c] = 1;"),
        ),
        // the lanes: the next iteration's row
        (
            "simd-next-row",
            tiled(
                "#pragma omp simd",
                "16 * t",
                MIN_HI,
                "a[r + 1][c] = a[r][c];",
            ),
        ),
        // the lanes: one element for all iterations
        (
            "simd-one-element",
            tiled(
                "#pragma omp simd",
                "16 * t",
                MIN_HI,
                "a[16 * t][c] += b[r][c];",
            ),
        ),
        // the lanes: a scalar of the thread
        (
            "simd-scalar",
            tiled(
                "#pragma omp simd",
                "16 * t",
                MIN_HI,
                "s = a[r][c]; b[r][c] = s;",
            ),
        ),
        // the lanes: a pointer into `a`, one row on
        (
            "simd-alias",
            tiled(
                "      p = a + 1;\n#pragma omp simd",
                "16 * t",
                MIN_HI,
                "p[r][c] = a[r][c];",
            ),
        ),
        // the lanes: a pointer the iteration declares
        (
            "simd-declared-pointer",
            tiled(
                "#pragma omp simd",
                "16 * t",
                MIN_HI,
                "double (*q)[64] = a + 1; q[r][c] = a[r][c];",
            ),
        ),
        // the lanes: a column past its row
        (
            "simd-past-the-row",
            tiled(
                "#pragma omp simd",
                "16 * t",
                MIN_HI,
                "a[c][r + 64] = a[c][r];",
            ),
        ),
    ];
    let racy: Vec<(&str, &str)> = racy.iter().map(|(n, s)| (*n, s.as_str())).collect();
    assert_none_proved("", &racy);
}
