//! `race` — the LaDR race instrumentation of visible statements (LaDR paper §4, Figs. 3–4;
//! DESIGN §6).
//!
//! In front of each instrumented visible statement:
//! `P1 = dr0 && !dr1;  P2 = dr1 && !c2_sync;` (in C1; in C2 before a statement that may
//! synchronise). The write with site id of a shared lvalue ℓ adds
//! `P1 && c1_pick == id && (c1_addr = &ℓ, c1_begin = offset, c1_end = offset + size,
//! c1_w = 1, c1_wna = 1, c1_site = id, 1)`; each read or write adds `P2 && !drd && (c1_w &&
//! overlaps(&ℓ) && (drd = 1, first = c1_site, second = id, 1))`, `overlaps` comparing its
//! object and bytes with C1's (`shadow`; DESIGN §6 kept a shadow-memory flag per byte instead,
//! docs/decisions/one-address.md). An address that is not a variable's (`&a[i][j]`,
//! `&p->f`) is computed once in front of the access's code, `(__ladr_at = (void *)&ℓ,
//! __ladr_at_begin = offset, __ladr_at_end = begin + size, 1)`, and the code tests and
//! records those (`shadow::Place`). `c1_pick` is arbitrary (`abi::C1_PICK`): one access of
//! C1 records, so the access a race names is the one whose bytes C2 touched (with every
//! access setting flags and `c1_site` the last one's, `return x + y;` racing on `x` was
//! reported on `y`), and CBMC tries each.
//!
//! Synchronisation (C11 5.1.2.4): a visible statement that may be a release
//! ([`synchronisation`]: any call but the `__atomic_*` builtins with constant orders and
//! assumptions, a plain operator on an `_Atomic` object, an atomic section, `asm`, and the
//! builtins whose order releases) starts with
//! `__CPROVER_assume(!(dr0 && !dr1 && c1_site))` (C1 sets no flag before a release of its
//! own); one that may be an acquire (the same, with the builtins whose order acquires)
//! has, after its phase flags, `c2_sync = c2_sync || dr1` (C2 checks nothing after an
//! acquire of its own). Between them C1 may go on after its access and C2 may run before
//! its access, through plain accesses and relaxed atomics, which order nothing: a write
//! published by a relaxed store and read after a relaxed load races. The paper's C1 ends
//! with the access and its C2 begins with one; with every statement synchronising the two
//! agree.
//! Accesses inside atomic sections, of `_Atomic` objects (`Vars::is_atomic`; `x++` on one
//! is one atomic read-modify-write) and by `__atomic_*`/`__sync_*` builtins (through any
//! pointer) set only `c1_w` and check `c1_wna`, so atomic–atomic pairs never race.
//!
//! Beyond the paper, a read of C1 races with a write of C2 the same way: plain reads of an
//! object the lvalue names (`x`, `s.f`, `a[2]`; not through a pointer or at a computed
//! index, which were costly with shadow memory) set `c1_r` and record `c1_site`; plain
//! writes of C2 also check `c1_r`. The paper finds such a pair only in the other order, the write first, which
//! costs a round when the reader runs in an earlier slot than the writer (a read by `main`
//! after a join-like wait). Pairs with an atomic access are still found write first only.
//!
//! The expression modes of the paper: `acc` (the value is used: instrument the access),
//! `nacc` (only the location matters: instrument the sub-expressions, keep an lvalue), and
//! WSE, which is the original expression itself — normal form (N3) guarantees that lvalues
//! and operands have no side effects, so they can be repeated inside the flag code. The PRE
//! mode is `nacc` on an array base. Instrumentation sits in place, in comma expressions, so
//! `&&`, `||` and `?:` keep their short-circuit: a right operand's accesses are checked only
//! when it is evaluated.
//! ```text
//! x = y + 1;   →   __ladr_P1 = …; __ladr_P2 = …;
//!                  (P1 && (set(&x,…), …)), (P2 && … get(&x,…) …), x = ((P2 && … get(&y,…) …), y) + 1;
//! ```
//! Excluded pairs (`Options::exclude`, to find further races after one was reported): each
//! excluded access gets a key k ≥ 1 (0: none), C1's code records it beside the site
//! (`c1_key = k`), and C2's check of an access whose pair with the
//! access of key k is excluded adds `c1_key != k` before recording the race, so that
//! pair is never recorded and CBMC looks for another. Without exclusions nothing of this is
//! emitted.
//! ```text
//! P2 && !drd && (c1_w && overlaps(&x) && c1_key != 1 && (drd = 1, …))
//! ```
//! Needs: `visible`. Guarantees: `Program::sites[id]` describes access `id` (ids from 1).
//!
//! The pass by concern: `access` walks a visible statement in the modes above and
//! numbers its access sites; `shadow` builds each access's flag code (C1's record of its
//! one address, C2's check, the recording of a race); `calls` the accesses of library calls, `free`,
//! the `__atomic_*` builtins and `asm` operands; `sync` which statements may synchronise
//! and the phase flags around them.

mod access;
mod calls;
mod shadow;
mod sync;

use access::Instrumenter;
use calls::calls_free;
use ladr_c::diag::Result;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{
    AT, AT_BEGIN, AT_END, C1_ADDR, C1_BEGIN, C1_END, C1_FREE, C1_KEY, C1_PICK, C1_R, C1_SITE, C1_W,
    C1_WNA, C2_SYNC, DRD, FIRST_SITE, P1, P2, RELEASED, SECOND_SITE,
};
use ladr_ir::program::{AccessKey, Item, Options, Program, Site};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::BTreeMap;
use sync::{c1_ends_before, c2_ends_after, phase_flags, released_after, synchronisation};

/// The excluded pairs of `Options::exclude` as keys: each excluded access's number (from 1,
/// in order of first mention) and, for each, the numbers of the accesses it must not be
/// reported with.
struct Exclusion {
    keys: BTreeMap<AccessKey, u32>,
    partners: BTreeMap<AccessKey, Vec<u32>>,
}

impl Exclusion {
    fn new(pairs: &[[AccessKey; 2]]) -> Option<Exclusion> {
        if pairs.is_empty() {
            return None;
        }
        let mut keys = BTreeMap::new();
        for a in pairs.iter().flatten() {
            let next = keys.len() as u32 + 1;
            keys.entry(*a).or_insert(next);
        }
        let mut partners: BTreeMap<AccessKey, Vec<u32>> = BTreeMap::new();
        for [a, b] in pairs {
            for (x, y) in [(a, b), (b, a)] {
                let v = partners.entry(*x).or_default();
                if !v.contains(&keys[y]) {
                    v.push(keys[y]);
                }
            }
        }
        Some(Exclusion { keys, partners })
    }

    /// The key of an access at `span` (0: not excluded with any other).
    fn key(&self, span: Span) -> u32 {
        self.keys.get(&span.into()).copied().unwrap_or(0)
    }

    /// The keys of the accesses an access at `span` is excluded with.
    fn partners(&self, span: Span) -> &[u32] {
        self.partners.get(&span.into()).map_or(&[], Vec::as_slice)
    }
}

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let vars = std::mem::take(&mut p.vars);
    let exclusion = Exclusion::new(&opts.exclude);
    let mut sites = vec![Site {
        id: 0,
        slot: 0,
        label: 0,
        span: Span::none(),
        expr: String::new(),
        write: false,
        atomic: false,
        libc_state: None,
        vars: vec![],
    }];
    let mut code = std::mem::take(&mut p.code);
    let frees = code.iter().any(|c| {
        c.items.iter().any(|it| match it {
            Item::Visible { stmt, .. } => calls_free(stmt),
            _ => false,
        })
    });
    for (slot, c) in code.iter_mut().enumerate() {
        let size = c.size;
        for it in &mut c.items {
            if let Item::Visible {
                label,
                stmt,
                atomic,
            } = it
            {
                let before = sites.len();
                let mut sync = synchronisation(stmt, *atomic, &vars);
                // The slot's last visible statement ends the thread, which releases: a
                // join of it (or the end of the program) acquires.
                sync.release |= *label + 1 == size;
                // A thread's first visible statement starts it, which acquires what its
                // creation released (before the statement's own accesses).
                let started = slot > 0 && *label == 0;
                let mut instrumenter = Instrumenter {
                    vars: &vars,
                    slot,
                    label: *label,
                    atomic: *atomic,
                    sites: &mut sites,
                    exclusion: exclusion.as_ref(),
                    frees,
                    libc_calls: &p.libc_calls,
                    vla_rows: &p.vla_rows,
                };
                visit_mut::stmt(&mut instrumenter, stmt)?;
                let instrumented = sites.len() > before;
                if instrumented || sync.release || sync.acquire || started {
                    let span = stmt.span;
                    let mut items: Vec<Node<BlockItem>> = vec![];
                    if sync.release {
                        items.push(item(c1_ends_before(span)));
                    }
                    if started {
                        items.push(item(c2_ends_after(span)));
                    }
                    if instrumented {
                        items.extend(phase_flags(span).into_iter().map(item));
                    }
                    if sync.acquire && !started {
                        items.push(item(c2_ends_after(span)));
                    }
                    if sync.release {
                        items.push(item(released_after(span)));
                    }
                    items.push(item(stmt.clone()));
                    *stmt = block(items, span);
                }
            }
        }
    }
    p.code = code;
    pad_zero_width_bit_fields(&mut p);
    p.sites = sites;
    p.vars = vars;
    let span = Span::none();
    let mut globals = vec![
        (P1, TypeSpecifier::Bool),
        (P2, TypeSpecifier::Bool),
        (DRD, TypeSpecifier::Bool),
        (C2_SYNC, TypeSpecifier::Bool),
        (RELEASED, TypeSpecifier::Bool),
        (C1_PICK, TypeSpecifier::Int),
        (C1_SITE, TypeSpecifier::Int),
        (FIRST_SITE, TypeSpecifier::Int),
        (SECOND_SITE, TypeSpecifier::Int),
        (C1_W, TypeSpecifier::Bool),
        (C1_WNA, TypeSpecifier::Bool),
        (C1_R, TypeSpecifier::Bool),
    ];
    if exclusion.is_some() {
        globals.push((C1_KEY, TypeSpecifier::Int));
    }
    let decls = globals
        .into_iter()
        .map(|(name, ty)| simple_decl(&[ty], name, None, false, None, span));
    for d in decls {
        p.unit
            .0
            .push(node(ExternalDeclaration::Declaration(d), span));
    }
    // `long long __ladr_c1_begin, __ladr_c1_end, __ladr_at_begin, __ladr_at_end;`
    for name in [C1_BEGIN, C1_END, AT_BEGIN, AT_END] {
        let ty = [TypeSpecifier::Long, TypeSpecifier::Long];
        let d = simple_decl(&ty, name, None, false, None, span);
        p.unit
            .0
            .push(node(ExternalDeclaration::Declaration(d), span));
    }
    // `void *__ladr_c1_addr, *__ladr_at;` and, with frees, `char *__ladr_c1_free;`
    let free = frees.then_some((C1_FREE, TypeSpecifier::Char));
    for (name, pointee) in [(C1_ADDR, TypeSpecifier::Void), (AT, TypeSpecifier::Void)]
        .into_iter()
        .chain(free)
    {
        let d = declaration(
            vec![spec(pointee, span)],
            name,
            vec![node(DerivedDeclarator::Pointer(vec![]), span)],
            None,
            span,
        );
        p.unit
            .0
            .push(node(ExternalDeclaration::Declaration(d), span));
    }
    Ok(p)
}

/// Every zero-width bit-field of the program replaced by the padding that keeps its layout
/// ([`ladr_ir::bit_fields::pad_zero_width`]), now that the race flags are placed.
pub(crate) fn pad_zero_width_bit_fields(p: &mut Program) {
    struct Pad;
    impl VisitorMut for Pad {
        type Error = std::convert::Infallible;
        fn type_specifier(
            &mut self,
            t: &mut Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Self::Error> {
            if let TypeSpecifier::Struct(st) = &mut t.node {
                ladr_ir::bit_fields::pad_zero_width(&mut st.node);
            }
            Ok(Walk::Descend)
        }
    }
    let Ok(()) = visit_mut::unit(&mut Pad, &mut p.unit);
    for c in &mut p.code {
        for it in &mut c.items {
            let Ok(()) = match it {
                Item::Visible { stmt, .. } | Item::Plain(stmt) => visit_mut::stmt(&mut Pad, stmt),
                Item::Decl(d) => visit_mut::declaration(&mut Pad, d),
                Item::Label(..) => Ok(()),
            };
        }
    }
}
