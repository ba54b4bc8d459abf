//! Swarm instances: one bound pair's sequential program split into `n` programs that
//! together check exactly what it checks (the idea of the tiling paper, `002_…`: many small
//! instances of one verification task run in parallel, a bug found by any of them).
//!
//! The split is on the context `C1` that ends with the first racing access. The driver of
//! `lazy` guesses it once, `drcx = nondet; assume(drcx < K·N)`, before any context runs,
//! and nothing else writes `drcx`. Instance `i` of `n` keeps only the guesses in its part
//! `S_i` of `[0, K·N)` ([`part`]): contiguous ranges whose union is `[0, K·N)` and which do
//! not overlap.
//!
//! Coverage (why the instances' answers combine to the unsplit answer): every execution
//! of the unsplit program picks exactly one value `c` of `drcx` at its start, and from
//! then on it runs exactly as the same execution of the instance whose part holds `c` (the
//! instance differs only in the assumption on `drcx`, or in `drcx = c` where its part is
//! the one value `c`, which is the same as `nondet` followed by `assume(drcx == c)`). So the
//! executions of the unsplit program are the disjoint union of the instances' executions,
//! and the race assertion fails in the unsplit program iff it fails in some instance: a
//! race found by any instance is a race of the bound pair, and "no race" for the bound pair
//! needs "no race" from every instance. (An instance whose part lies beyond the contexts of
//! the running slots simply finds nothing.)
//!
//! An instance with one value of `drcx` assigns the constant instead of assuming it: CBMC
//! then folds `cx <= drcx + N-1` and `cx == drcx` in every context, drops the contexts after
//! C2's round and the race flags' code before C1, so the instance's formula is smaller
//! than the unsplit one (a range is only an assumption, which CBMC's solver uses but its
//! simplifier does not).
//!
//! Architecture invariant: a pure function on the program `lazy` made; it names the
//! driver's variables through `ladr_ir::abi` only.

use ladr_c::diag::{Error, ErrorKind, Result};
use ladr_c::syntax::build::*;
use ladr_ir::abi;
use ladr_ir::program::Program;
use lang_c::ast::*;
use lang_c::span::Span;

/// The number of values of `drcx`: K rounds times N slots (the contexts C1 can be).
pub fn contexts(p: &Program, rounds: u32) -> u64 {
    rounds.max(1) as u64 * p.slots.len() as u64
}

/// How many instances a split into `wanted` gives for `p`: at most one per context.
pub fn instances(p: &Program, rounds: u32, wanted: u32) -> u32 {
    (wanted.max(1) as u64).min(contexts(p, rounds).max(1)) as u32
}

/// The values of `drcx` instance `i` of `n` keeps, out of `0..contexts`: the `i`-th of `n`
/// contiguous ranges, sizes differing by at most one. The ranges for `i = 0..n` are
/// disjoint and their union is `0..contexts`.
pub fn part(contexts: u64, n: u32, i: u32) -> std::ops::Range<u64> {
    let (n, i) = (n.max(1) as u64, i as u64);
    let lo = contexts * i / n;
    let hi = contexts * (i + 1) / n;
    lo..hi
}

/// Restricts the sequential program `p` (after `lazy`, with `rounds` rounds) to instance
/// `i` of `n` (see the module doc). `n` should come from [`instances`].
pub fn restrict(mut p: Program, rounds: u32, n: u32, i: u32) -> Result<Program> {
    let total = contexts(&p, rounds);
    let range = part(total, n, i);
    let s = Span::none();
    let internal = |m: &str| Error::new(ErrorKind::Internal, format!("swarm: {m}"));
    let main = p
        .unit
        .0
        .iter_mut()
        .find_map(|d| match &mut d.node {
            ExternalDeclaration::FunctionDefinition(f)
                if function_name(&f.node) == Some("main") =>
            {
                Some(f)
            }
            _ => None,
        })
        .ok_or_else(|| internal("the sequential program has no driver `main`"))?;
    let Statement::Compound(items) = &mut main.node.statement.node else {
        return Err(internal("the driver's body is not a block"));
    };
    // `drcx = __VERIFIER_nondet_uint();`
    let at = items
        .iter()
        .position(|it| {
            let BlockItem::Statement(st) = &it.node else {
                return false;
            };
            let Statement::Expression(Some(e)) = &st.node else {
                return false;
            };
            let Expression::BinaryOperator(b) = &e.node else {
                return false;
            };
            b.node.operator.node == BinaryOperator::Assign
                && ident_name(&b.node.lhs) == Some(abi::DRCX)
        })
        .ok_or_else(|| internal("the driver does not guess the context C1"))?;
    if range.end - range.start == 1 {
        items[at] = item(expr_stmt(assign(
            ident(abi::DRCX, s),
            int(range.start, s),
            s,
        )));
    } else {
        let within = and(
            binop(
                BinaryOperator::LessOrEqual,
                int(range.start, s),
                ident(abi::DRCX, s),
                s,
            ),
            binop(
                BinaryOperator::Less,
                ident(abi::DRCX, s),
                int(range.end, s),
                s,
            ),
            s,
        );
        items.insert(at + 1, item(assume(within, s)));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_are_disjoint_and_cover_every_context() {
        for contexts in [1u64, 2, 5, 6, 9, 64] {
            for n in 1..=contexts as u32 {
                let mut next = 0;
                for i in 0..n {
                    let r = part(contexts, n, i);
                    assert_eq!(r.start, next, "{contexts} contexts, {n} parts");
                    assert!(r.end > r.start, "part {i} of {n} is empty");
                    next = r.end;
                }
                assert_eq!(next, contexts);
            }
        }
    }
}
