//! `lazy` — lazy sequentialization (Lazy-CSeq; LaDR paper §3; DESIGN §5) with the LaDR
//! driver (DESIGN §6).
//!
//! Each slot's items become `void __ladr_threadK(void)`: before visible statement L goes
//! `__ladr_lK_L: if (pc[K] > L || L >= cs[K]) goto __ladr_lK_{L+1};`, so exactly the visible
//! statements in `[pc, cs)` run and an ending context hops label by label to the end.
//! A real forward jump (a user or generated `goto`) from the segment of label a to a target
//! whose next label is b > a+1 skips labels; the context must not end among them, or the
//! next context would resume in code this execution never reached. DESIGN §5 prunes such
//! guesses with `assume(cs >= b)`; ladr instead moves the switch point to the target,
//! `if (cs[K] < b) cs[K] = b;`, which keeps the executions where the context ends right
//! after label a (its last statement then is a, so its write can still be C1's last access)
//! and otherwise means the same.
//!
//! The driver `main` runs K rounds of all slots in order, guessing each context's end, and
//! tracks C1/C2 with `dr0..dr2` exactly as DESIGN §6 writes it, unrolled (no loop):
//! ```text
//! if (active[t] && !dr2 && cx <= drcx + N-1) {
//!   cs[t] = nondet; assume(pc[t] <= cs[t] && cs[t] <= size[t]); if (cx == drcx) dr0 = 1;
//!   __ladr_thread_t(); if (dr1 && cs[t] > pc[t]) dr2 = 1; if (cx == drcx) dr1 = 1; pc[t] = cs[t];
//! }
//! ```
//! and ends with `__CPROVER_assert(!drd, "data race")`.
//! A slot's automatic local that no context switch separates from its other mentions is
//! declared in a block around them instead of at file scope (`block_locals`), so that CBMC
//! does not merge it at the slot's later join points.
//! The prefix probe (`Options::prefix`) cuts each slot after its first N visible
//! statements ([`prefix_of`]): the thread then waits for ever.
//! Last, the file-scope functions, objects and typedefs that nothing kept names are left
//! out (`unused`).
//! Needs: `visible` and `race`. Guarantees: a complete sequential C program.

use super::block_locals::{self, LocalBlock};
use super::unused;
use ladr_c::diag::Result;
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, slot_function, visible_label, CONTEXT, DRD};
use ladr_ir::program::{Item, Options, Program, SlotCode};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::borrow::Cow;
use std::collections::HashMap;
use std::convert::Infallible;

/// The definitions of the scheduler's state for the `p.slots.len()` slots: program
/// counters, context-switch points, active flags, arguments and return values, sizes, the
/// context the driver runs, and the race flags (or, for the vacuity query, the flag that a
/// thread started).
fn scheduler_globals(p: &Program, opts: &Options) -> Vec<Node<Declaration>> {
    let n = p.slots.len();
    let none = Span::none();
    // Scheduler state.
    let mut globals = vec![
        simple_decl(
            &[TypeSpecifier::Unsigned, TypeSpecifier::Int],
            abi::PC,
            Some(n as u64),
            false,
            None,
            none,
        ),
        simple_decl(
            &[TypeSpecifier::Unsigned, TypeSpecifier::Int],
            abi::CS,
            Some(n as u64),
            false,
            None,
            none,
        ),
        simple_decl(
            &[TypeSpecifier::Bool],
            abi::ACTIVE,
            Some(n as u64),
            false,
            None,
            none,
        ),
        declaration(
            vec![spec(TypeSpecifier::Void, none)],
            abi::ARG,
            vec![
                node(DerivedDeclarator::Pointer(vec![]), none),
                array_of(n as u64),
            ],
            None,
            none,
        ),
        declaration(
            vec![spec(TypeSpecifier::Void, none)],
            abi::RETVAL,
            vec![
                node(DerivedDeclarator::Pointer(vec![]), none),
                array_of(n as u64),
            ],
            None,
            none,
        ),
        simple_decl(
            &[TypeSpecifier::Unsigned, TypeSpecifier::Int],
            abi::NSLOTS,
            None,
            false,
            Some(int(n as u64, none)),
            none,
        ),
    ];
    let sizes: Vec<Node<InitializerListItem>> = p
        .code
        .iter()
        .map(|c| {
            node(
                InitializerListItem {
                    designation: vec![],
                    initializer: Box::new(node(
                        Initializer::Expression(Box::new(int(c.size as u64, none))),
                        none,
                    )),
                },
                none,
            )
        })
        .collect();
    globals.push(declaration(
        vec![
            spec(TypeSpecifier::Unsigned, none),
            spec(TypeSpecifier::Int, none),
        ],
        abi::SIZE,
        vec![array_of(n as u64)],
        Some(node(Initializer::List(sizes), none)),
        none,
    ));
    // The context the driver runs (r·N + t), for the report's round numbers.
    globals.push(simple_decl(
        &[TypeSpecifier::Unsigned, TypeSpecifier::Int],
        CONTEXT,
        None,
        false,
        None,
        none,
    ));
    let flags: &[&str] = if opts.vacuity_query {
        &[abi::THREAD_STARTED]
    } else {
        &abi::DR_FLAGS
    };
    for f in flags {
        globals.push(simple_decl(
            &[TypeSpecifier::Bool],
            f,
            None,
            false,
            None,
            none,
        ));
    }
    globals
}

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let n = p.slots.len();
    let none = Span::none();
    let k = opts.rounds.max(1) as u64;
    let mut globals = scheduler_globals(&p, opts);
    // The model declares the scheduler arrays `extern` with unknown size; CBMC's shadow
    // memory crashes on such incomplete declarations (CBMC 6.6 invariant "number of literals
    // in the literal map shall equal the bitvector width"), so the definitions take their
    // place.
    for ext in &mut p.unit.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            let name = d
                .node
                .declarators
                .first()
                .and_then(|i| declarator_name(&i.node.declarator.node))
                .unwrap_or("");
            if let Some(i) = globals.iter().position(|g| {
                declarator_name(&g.node.declarators[0].node.declarator.node) == Some(name)
            }) {
                ext.node = ExternalDeclaration::Declaration(globals.remove(i));
            }
        }
    }
    for g in globals {
        p.unit
            .0
            .push(node(ExternalDeclaration::Declaration(g), none));
    }
    // The vacuity query stops `main` at its top-level creates: no blocks there.
    let plan = (!opts.vacuity_query).then(|| block_locals::plan(&p));
    if let Some(plan) = &plan {
        p.unit.0.retain(|ext| match &ext.node {
            ExternalDeclaration::Declaration(d) => !matches!(d.node.declarators.as_slice(),
                [id] if declarator_name(&id.node.declarator.node)
                    .is_some_and(|n| plan.moved.contains(n))),
            _ => true,
        });
    }
    let code = std::mem::take(&mut p.code);
    // The prefix probe's slots (`Options::prefix`); the joins still wait for the real sizes.
    let run_code: Cow<[SlotCode]> = match opts.prefix {
        Some(n) => Cow::Owned(code.iter().map(|c| prefix_of(c, n)).collect()),
        None => Cow::Borrowed(&code),
    };
    for (slot, c) in run_code.iter().enumerate() {
        let blocks = plan.as_ref().map_or(&[][..], |pl| &pl.blocks[slot][..]);
        let mut f = slot_body(slot, c, blocks);
        if opts.vacuity_query && slot == 0 {
            stop_at_creates(&mut f, n);
        }
        p.unit
            .0
            .push(function_def(&slot_function(slot), TypeSpecifier::Void, f));
    }
    p.unit.0.push(if opts.vacuity_query {
        vacuity_driver(n, &run_code)
    } else {
        driver(n, k, &run_code)
    });
    p.code = code;
    unused::drop_unused(&mut p.unit);
    Ok(p)
}

/// Slot code `c` cut after its first `n` visible statements (`Options::prefix`): the items
/// before visible label `n`, then only the labels (goto targets) and declarations after
/// it (the rest empty statements), and `n` as the size its contexts end at. The slot's
/// real size stays in `__ladr_size`, which a join waits for, so the thread never ends: it
/// waits for ever at label `n`, an execution of the program cut short (its contexts end
/// there: the driver's guesses stay within `n`, a jump past it moves the switch point to
/// `n`, and a failed assumption of the prefix stops the thread as always). A slot of at
/// most `n` visible statements is unchanged.
fn prefix_of(c: &SlotCode, n: u32) -> SlotCode {
    if c.size <= n {
        return c.clone();
    }
    // Dropped items become empty statements: `block_locals`' plan counts items.
    let mut cut = false;
    let items = c
        .items
        .iter()
        .map(|it| {
            cut |= matches!(it, Item::Visible { label, .. } if *label >= n);
            match it {
                Item::Label(..) | Item::Decl(_) => it.clone(),
                _ if !cut => it.clone(),
                _ => Item::Plain(empty_stmt(Span::none())),
            }
        })
        .collect();
    SlotCode { items, size: n }
}

fn array_of(n: u64) -> Node<DerivedDeclarator> {
    let none = Span::none();
    node(
        DerivedDeclarator::Array(node(
            ArrayDeclarator {
                qualifiers: vec![],
                size: ArraySize::VariableExpression(Box::new(int(n, none))),
            },
            none,
        )),
        none,
    )
}

/// The simulation function body of one slot; the items of each of `blocks` in a block that
/// declares its locals (a visible first item's guard before it).
fn slot_body(slot: usize, c: &SlotCode, blocks: &[LocalBlock]) -> Node<Statement> {
    // For each item index: the last visible label at or before it; for each user label: the
    // first visible label at or after it.
    let mut last_before = Vec::with_capacity(c.items.len());
    let mut cur = 0u32;
    for it in &c.items {
        if let Item::Visible { label, .. } = it {
            cur = *label;
        }
        last_before.push(cur);
    }
    let mut next_at: HashMap<String, u32> = HashMap::new();
    let mut next = c.size;
    for it in c.items.iter().rev() {
        match it {
            Item::Visible { label, .. } => next = *label,
            Item::Label(l, _) => {
                next_at.insert(l.clone(), next);
            }
            _ => {}
        }
    }
    let mut out: Vec<Node<BlockItem>> = vec![];
    let mut blocks = blocks.iter().peekable();
    // The enclosing output while a block is open, and the block's last item.
    let mut open: Option<(Vec<Node<BlockItem>>, usize)> = None;
    for (i, it) in c.items.iter().enumerate() {
        let mut jumps = Jumps {
            slot,
            from: last_before[i],
            next_at: &next_at,
        };
        match it {
            Item::Visible { label, stmt, .. } => {
                let span = stmt.span;
                let l = *label as u64;
                let guard = if_stmt(
                    or(
                        binop(
                            BinaryOperator::Greater,
                            abi::per_slot(abi::PC, slot, span),
                            int(l, span),
                            span,
                        ),
                        binop(
                            BinaryOperator::GreaterOrEqual,
                            int(l, span),
                            abi::per_slot(abi::CS, slot, span),
                            span,
                        ),
                        span,
                    ),
                    goto(&visible_label(slot, label + 1), span),
                    None,
                    span,
                );
                out.push(item(labeled(&visible_label(slot, *label), guard, span)));
                open_block(&mut out, &mut open, &mut blocks, i);
                let mut s = stmt.clone();
                let Ok(()) = visit_mut::stmt(&mut jumps, &mut s);
                out.push(item(s));
            }
            Item::Plain(s) => {
                open_block(&mut out, &mut open, &mut blocks, i);
                let mut s = s.clone();
                let Ok(()) = visit_mut::stmt(&mut jumps, &mut s);
                let Ok(()) = visit_mut::stmt(&mut Stops { slot, size: c.size }, &mut s);
                out.push(item(s));
            }
            Item::Label(l, span) => {
                open_block(&mut out, &mut open, &mut blocks, i);
                out.push(item(labeled(l, empty_stmt(*span), *span)))
            }
            Item::Decl(d) => out.push(decl_item(d.clone())),
        }
        if let Some((outer, _)) = open.take_if(|(_, end)| *end == i) {
            let inner = std::mem::replace(&mut out, outer);
            out.push(item(block(inner, Span::none())));
        }
    }
    let none = Span::none();
    out.push(item(labeled(
        &visible_label(slot, c.size),
        empty_stmt(none),
        none,
    )));
    block(out, none)
}

/// Opens the block that starts at item `i`, if one does: its declarations go first (each but
/// a temporary's followed by its havoc, normal form N4), the enclosing output is kept in
/// `open` until the block's last item.
fn open_block(
    out: &mut Vec<Node<BlockItem>>,
    open: &mut Option<(Vec<Node<BlockItem>>, usize)>,
    blocks: &mut std::iter::Peekable<std::slice::Iter<'_, LocalBlock>>,
    i: usize,
) {
    if let Some(b) = blocks.next_if(|b| b.start == i) {
        // The declarations and their havocs are generated lines: CBMC's steps for them
        // (the declared value, the havoc) are no steps of the user's (the trace shows the
        // local's first assignment).
        let none = Span::none();
        let mut inner: Vec<_> = b
            .decls
            .iter()
            .map(|d| decl_item(Node::new(d.node.clone(), none)))
            .collect();
        // N4: an uninitialised local other than a temporary is havoced where declared.
        for d in &b.decls {
            let Some(name) = declarator_name(&d.node.declarators[0].node.declarator.node) else {
                continue;
            };
            if !ladr_c::syntax::names::is_temporary(name) {
                let x = ident(name, none);
                inner.push(item(expr_stmt(call(abi::HAVOC, vec![addr(x, none)], none))));
            }
        }
        *open = Some((std::mem::replace(out, inner), b.end));
    }
}

/// The vacuity query's `main`: after each statement that may create a thread, the query's
/// assertion, and an execution that created one stops there
/// (`assert(!started, …); assume(!started);`). The assertion at the end of the driver
/// would fail for it all the same; stopped, CBMC's symbolic execution skips the rest of
/// `main` for it (goblint's 28-race_reach_77: `main` locks `&a[i].mutex` with `i` any index
/// after its creates, and the query went from over 60 s to under 1 s).
fn stop_at_creates(body: &mut Node<Statement>, n: usize) {
    let Statement::Compound(items) = &mut body.node else {
        return;
    };
    let create = abi::model_function("pthread_create");
    let old = std::mem::take(items);
    for it in old {
        let creates = matches!(&it.node, BlockItem::Statement(st)
            if ladr_c::syntax::walk::mentions(st, &[create.as_str()]));
        items.push(it);
        if creates {
            let s = Span::none();
            items.push(item(expr_stmt(assign(
                ident(abi::THREAD_STARTED, s),
                started(n, s),
                s,
            ))));
            items.push(item(vacuity_assertion(s)));
            items.push(item(assume(not(ident(abi::THREAD_STARTED, s), s), s)));
        }
    }
}

/// `active[1] || … || active[N-1]`: some thread has been created.
fn started(n: usize, s: Span) -> Node<Expression> {
    (1..n)
        .map(|t| abi::per_slot(abi::ACTIVE, t, s))
        .reduce(|a, b| or(a, b, s))
        .unwrap_or_else(|| int(0, s))
}

/// The vacuity query's one property: `__CPROVER_assert(!started, "main creates no thread")`.
fn vacuity_assertion(s: Span) -> Node<Statement> {
    expr_stmt(call(
        abi::ASSERT,
        vec![
            not(ident(abi::THREAD_STARTED, s), s),
            string("main creates no thread", s),
        ],
        s,
    ))
}

/// Makes each assumption of a plain statement (`visible::local_assumption`: of the thread's
/// own values, so no label; or one of `main` before it creates a thread) the thread's stop
/// where it fails: `if (!(c)) { assume(cs[K] < size); active[K] = 0; goto end; }`. The
/// context ends there and the thread is never scheduled again; its `pc` stays below its
/// size, so no join of it returns. The executions are those of a visible assumption whose
/// context ended before it for good.
struct Stops {
    slot: usize,
    size: u32,
}

impl VisitorMut for Stops {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        let Statement::Expression(Some(e)) = &s.node else {
            return Ok(Walk::Descend);
        };
        let Expression::Call(c) = &e.node else {
            return Ok(Walk::Skip);
        };
        let ([cond], Some(abi::ASSUME)) = (c.node.arguments.as_slice(), callee_name(&c.node))
        else {
            return Ok(Walk::Skip);
        };
        let span = s.span;
        let (slot, size) = (self.slot, u64::from(self.size));
        let stop = block_of(
            vec![
                expr_stmt(call(
                    abi::ASSUME,
                    vec![binop(
                        BinaryOperator::Less,
                        abi::per_slot(abi::CS, slot, span),
                        int(size, span),
                        span,
                    )],
                    span,
                )),
                expr_stmt(assign(
                    abi::per_slot(abi::ACTIVE, slot, span),
                    int(0, span),
                    span,
                )),
                goto(&visible_label(slot, self.size), span),
            ],
            span,
        );
        *s = if_stmt(not(cond.clone(), span), stop, None, span);
        Ok(Walk::Skip)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// Adds `if (cs[K] < b) cs[K] = b;` before every goto that skips visible labels.
struct Jumps<'a> {
    slot: usize,
    from: u32,
    next_at: &'a HashMap<String, u32>,
}

impl VisitorMut for Jumps<'_> {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Goto(l) = &s.node {
            if let Some(&b) = self.next_at.get(&l.node.name) {
                if b > self.from + 1 {
                    let span = s.span;
                    let cs = || abi::per_slot(abi::CS, self.slot, span);
                    let adjust = if_stmt(
                        binop(BinaryOperator::Less, cs(), int(b as u64, span), span),
                        expr_stmt(assign(cs(), int(b as u64, span), span)),
                        None,
                        span,
                    );
                    let g = s.clone();
                    *s = block_of(vec![adjust, g], span);
                }
            }
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// The guessed end of slot `t`'s context: `cs[t] = nondet; assume(pc[t] <= cs[t] &&
/// cs[t] <= size[t]);`.
fn guess_context(t: usize, size: u32, s: Span) -> [Node<Statement>; 2] {
    [
        expr_stmt(assign(
            abi::per_slot(abi::CS, t, s),
            call(abi::NONDET_UINT, vec![], s),
            s,
        )),
        assume(
            and(
                binop(
                    BinaryOperator::LessOrEqual,
                    abi::per_slot(abi::PC, t, s),
                    abi::per_slot(abi::CS, t, s),
                    s,
                ),
                binop(
                    BinaryOperator::LessOrEqual,
                    abi::per_slot(abi::CS, t, s),
                    int(size as u64, s),
                    s,
                ),
                s,
            ),
            s,
        ),
    ]
}

/// The driver of the vacuity query (`Options::vacuity_query`): one context of `main`,
/// then `__CPROVER_assert(!(active[1] || … || active[N-1]), …)`, which fails when `main`
/// creates a thread in some execution within the bounds. That is the question for every
/// round: a created thread is created by `main` or by a thread `main` created, and until
/// `main` creates its first thread no other slot is active, so `main`'s contexts up to
/// there run back to back, as one context can. Executions are closed under ending a
/// context early, so a `pthread_create` that some execution reaches fails the assertion
/// whatever that execution does later.
fn vacuity_driver(n: usize, code: &[SlotCode]) -> Node<ExternalDeclaration> {
    let s = Span::none();
    let mut st: Vec<Node<BlockItem>> = vec![item(expr_stmt(assign(
        abi::per_slot(abi::ACTIVE, 0, s),
        int(1, s),
        s,
    )))];
    st.push(item(expr_stmt(assign(ident(CONTEXT, s), int(0, s), s))));
    for g in guess_context(0, code[0].size, s) {
        st.push(item(g));
    }
    st.push(item(expr_stmt(call(&slot_function(0), vec![], s))));
    st.push(item(expr_stmt(assign(
        ident(abi::THREAD_STARTED, s),
        started(n, s),
        s,
    ))));
    st.push(item(vacuity_assertion(s)));
    st.push(item(ret(Some(int(0, s)), s)));
    function_def("main", TypeSpecifier::Int, block(st, s))
}

/// The round-robin driver with the LaDR phase flags.
fn driver(n: usize, k: u64, code: &[SlotCode]) -> Node<ExternalDeclaration> {
    let s = Span::none();
    let mut st: Vec<Node<BlockItem>> = vec![];
    // Which access of C1 sets flags (`abi::C1_PICK`, a site id, declared by `race`).
    st.push(item(expr_stmt(assign(
        ident(abi::C1_PICK, s),
        call(abi::NONDET_UINT, vec![], s),
        s,
    ))));
    let drcx = abi::DRCX;
    st.push(decl_item(simple_decl(
        &[TypeSpecifier::Unsigned, TypeSpecifier::Int],
        drcx,
        None,
        false,
        None,
        s,
    )));
    st.push(item(expr_stmt(assign(
        ident(drcx, s),
        call(abi::NONDET_UINT, vec![], s),
        s,
    ))));
    st.push(item(assume(
        binop(
            BinaryOperator::Less,
            ident(drcx, s),
            int(k * n as u64, s),
            s,
        ),
        s,
    )));
    st.push(item(expr_stmt(assign(
        abi::per_slot(abi::ACTIVE, 0, s),
        int(1, s),
        s,
    ))));
    let flag = |f: &str| ident(f, s);
    let set = |f: &str| expr_stmt(assign(ident(f, s), int(1, s), s));
    for r in 0..k {
        for (t, c) in code.iter().enumerate() {
            let cx = r * n as u64 + t as u64;
            let cx_is_c1 = || eq(int(cx, s), ident(drcx, s), s);
            let within = binop(
                BinaryOperator::LessOrEqual,
                int(cx, s),
                binop(
                    BinaryOperator::Plus,
                    ident(drcx, s),
                    int(n as u64 - 1, s),
                    s,
                ),
                s,
            );
            let guess = guess_context(t, c.size, s);
            let cond_ = and(
                and(abi::per_slot(abi::ACTIVE, t, s), not(flag(abi::DR2), s), s),
                within,
                s,
            );
            let body = vec![
                expr_stmt(assign(ident(CONTEXT, s), int(cx, s), s)),
                guess[0].clone(),
                guess[1].clone(),
                if_stmt(cx_is_c1(), set(abi::DR0), None, s),
                expr_stmt(call(&slot_function(t), vec![], s)),
                if_stmt(
                    and(
                        flag(abi::DR1),
                        binop(
                            BinaryOperator::Greater,
                            abi::per_slot(abi::CS, t, s),
                            abi::per_slot(abi::PC, t, s),
                            s,
                        ),
                        s,
                    ),
                    set(abi::DR2),
                    None,
                    s,
                ),
                if_stmt(cx_is_c1(), set(abi::DR1), None, s),
                expr_stmt(assign(
                    abi::per_slot(abi::PC, t, s),
                    abi::per_slot(abi::CS, t, s),
                    s,
                )),
            ];
            st.push(item(if_stmt(cond_, block_of(body, s), None, s)));
        }
    }
    st.push(item(expr_stmt(call(
        abi::ASSERT,
        vec![not(ident(DRD, s), s), string("data race", s)],
        s,
    ))));
    st.push(item(ret(Some(int(0, s)), s)));
    function_def("main", TypeSpecifier::Int, block(st, s))
}
