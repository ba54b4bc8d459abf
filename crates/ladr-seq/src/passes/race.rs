//! `race` — the LaDR race instrumentation of visible statements (LaDR paper §4, Figs. 3–4;
//! DESIGN §6).
//!
//! In front of each instrumented visible statement:
//! `P1 = dr0 && !dr1;  P2 = dr1 && !c2_sync;` (in C1; in C2 before a statement that may
//! synchronise). The write with site id of a shared lvalue ℓ adds
//! `P1 && c1_pick == id && (set_field(&ℓ,"w",1), set_field(&ℓ,"wna",1), c1_site = id, 1)`;
//! each read or write adds `P2 && !drd && (get_field(&ℓ,"w") && (drd = 1, first = c1_site,
//! second = id, 1))`. `c1_pick` is arbitrary (`abi::C1_PICK`): one access of C1 sets
//! flags, so the access a race names is the one whose bytes C2 touched (with every access
//! setting flags and `c1_site` the last one's, `return x + y;` racing on `x` was reported
//! on `y`), and CBMC tries each.
//!
//! Synchronisation (C11 5.1.2.4): a visible statement that may synchronise
//! ([`synchronises`]: any call but the relaxed `__atomic_*` builtins and assumptions, a
//! plain operator on an `_Atomic` object, an atomic section, `asm`) starts with
//! `__CPROVER_assume(!(dr0 && !dr1 && c1_site))` (C1 sets no flag before a release of its
//! own) and, after its phase flags, `c2_sync = c2_sync || dr1` (C2 checks nothing after an
//! acquire of its own). Between them C1 may go on after its access and C2 may run before
//! its access, through plain accesses and relaxed atomics, which order nothing: a write
//! published by a relaxed store and read after a relaxed load races. The paper's C1 ends
//! with the access and its C2 begins with one; with every statement synchronising the two
//! agree.
//! Accesses inside atomic sections, of `_Atomic` objects (`Vars::is_atomic`; `x++` on one
//! is one atomic read-modify-write) and by `__atomic_*`/`__sync_*` builtins (through any
//! pointer) set only `w` and check `wna`, so atomic–atomic pairs never race.
//!
//! Beyond the paper, a read of C1 races with a write of C2 the same way: plain reads of an
//! object the lvalue names (`x`, `s.f`, `a[2]`; not through a pointer or at a computed
//! index, which are costly for CBMC) set `r` and record `c1_site`; plain writes of C2 also
//! check `r`. The paper finds such a pair only in the other order, the write first, which
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
//! P2 && !drd && (get_field(&x, "w") && c1_key != 1 && (drd = 1, …))
//! ```
//! Needs: `visible`. Guarantees: `Program::sites[id]` describes access `id` (ids from 1).

use crate::model::library;
use ladr_c::diag::{Error, Result};
use ladr_c::print::expr_to_string;
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{self, has_side_effect, is_assign_op, Walk};
use ladr_ir::abi::{
    self, C1_FREE, C1_KEY, C1_PICK, C1_SITE, C2_SYNC, DRD, FIRST_SITE, P1, P2, SECOND_SITE,
};
use ladr_ir::analysis::{address_target, BitAnchor, Vars};
use ladr_ir::program::{AccessKey, Item, Options, Program, Site};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::BTreeMap;

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
    }];
    let mut code = std::mem::take(&mut p.code);
    let frees = code.iter().any(|c| {
        c.items.iter().any(|it| match it {
            Item::Visible { stmt, .. } => calls_free(stmt),
            _ => false,
        })
    });
    for (slot, c) in code.iter_mut().enumerate() {
        for it in &mut c.items {
            if let Item::Visible {
                label,
                stmt,
                atomic,
            } = it
            {
                let before = sites.len();
                let sync = synchronises(stmt, *atomic, &vars);
                let mut rw = Rewriter {
                    vars: &vars,
                    slot,
                    label: *label,
                    atomic: *atomic,
                    sites: &mut sites,
                    exclusion: exclusion.as_ref(),
                    frees,
                    libc_calls: &p.libc_calls,
                };
                visit_mut::stmt(&mut rw, stmt)?;
                let instrumented = sites.len() > before;
                if instrumented || sync {
                    let span = stmt.span;
                    let mut items: Vec<Node<BlockItem>> = vec![];
                    if sync {
                        items.push(item(c1_ends_before(span)));
                    }
                    if instrumented {
                        items.extend(phase_flags(span).into_iter().map(item));
                    }
                    if sync {
                        items.push(item(c2_ends_after(span)));
                    }
                    items.push(item(stmt.clone()));
                    *stmt = block(items, span);
                }
            }
        }
    }
    p.code = code;
    p.sites = sites;
    p.vars = vars;
    let span = Span::none();
    let mut globals = vec![
        (P1, TypeSpecifier::Bool),
        (P2, TypeSpecifier::Bool),
        (DRD, TypeSpecifier::Bool),
        (C2_SYNC, TypeSpecifier::Bool),
        (C1_PICK, TypeSpecifier::Int),
        (C1_SITE, TypeSpecifier::Int),
        (FIRST_SITE, TypeSpecifier::Int),
        (SECOND_SITE, TypeSpecifier::Int),
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
    if frees {
        // `char *__ladr_c1_free;`
        let d = declaration(
            vec![spec(TypeSpecifier::Char, span)],
            C1_FREE,
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

/// The number of bytes an [`library::Extent`] says, from the call's arguments (`None`: an
/// argument is missing or has side effects), as `(size_t)(n)`.
fn extent_value(
    x: library::Extent,
    args: &[Node<Expression>],
    span: Span,
) -> Option<Node<Expression>> {
    let arg = |i: usize| {
        args.get(i).filter(|a| !has_side_effect(&a.node)).map(|a| {
            cast(
                type_name(&[TypeSpecifier::Unsigned, TypeSpecifier::Long], 0, span),
                a.clone(),
                span,
            )
        })
    };
    match x {
        library::Extent::Arg(i) => arg(i),
        library::Extent::Product(i, j) => {
            Some(binop(BinaryOperator::Multiply, arg(i)?, arg(j)?, span))
        }
    }
}

/// Is `a` a cast to a pointer to an array (`(char (*)[n])p`, [`char_array_pointer`])?
fn is_byte_range(a: &Node<Expression>) -> bool {
    matches!(&a.node, Expression::Cast(c) if c.node.type_name.node.declarator.as_ref().is_some_and(
        |d| d.node.derived.iter().any(|x| matches!(x.node, DerivedDeclarator::Array(_)))))
}

/// `char (*)[n]`: the type of a pointer to `n` bytes.
fn char_array_pointer(n: Node<Expression>, span: Span) -> Node<TypeName> {
    let declarator = node(
        Declarator {
            kind: node(
                DeclaratorKind::Declarator(Box::new(node(
                    Declarator {
                        kind: node(DeclaratorKind::Abstract, span),
                        derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                        extensions: vec![],
                    },
                    span,
                ))),
                span,
            ),
            derived: vec![node(
                DerivedDeclarator::Array(node(
                    ArrayDeclarator {
                        qualifiers: vec![],
                        size: ArraySize::VariableExpression(Box::new(n)),
                    },
                    span,
                )),
                span,
            )],
            extensions: vec![],
        },
        span,
    );
    node(
        TypeName {
            specifiers: vec![node(
                SpecifierQualifier::TypeSpecifier(node(TypeSpecifier::Char, span)),
                span,
            )],
            declarator: Some(declarator),
        },
        span,
    )
}

/// Does `s` call `free` or `realloc` ([`library::frees`])?
fn calls_free(s: &Node<Statement>) -> bool {
    struct F;
    impl Visitor for F {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c)
                    if callee_name(&c.node)
                        .is_some_and(|n| library::frees(abi::modelled_function(n))) =>
                {
                    Err(())
                }
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::stmt(&mut F, s).is_err()
}

/// `P1 = dr0 && !dr1; P2 = dr1 && !c2_sync;`: in C1, any statement's access may be the
/// one that sets flags (a later statement of C1 that may synchronise rules it out,
/// [`c1_ends_before`]); in C2, every access before the first statement that may
/// synchronise ([`c2_ends_after`]) checks them.
fn phase_flags(span: Span) -> Vec<Node<Statement>> {
    let p1 = in_c1(span);
    let p2 = and(ident(abi::DR1, span), not(ident(C2_SYNC, span), span), span);
    vec![
        expr_stmt(assign(ident(P1, span), p1, span)),
        expr_stmt(assign(ident(P2, span), p2, span)),
    ]
}

/// `__CPROVER_assume(!(dr0 && !dr1 && c1_site))`, in front of a statement that may
/// synchronise: C1 sets no flag before such a statement of its own (a release after the
/// access would order it before what another thread does after the matching acquire).
fn c1_ends_before(span: Span) -> Node<Statement> {
    let picked = and(in_c1(span), ident(C1_SITE, span), span);
    assume(not(picked, span), span)
}

/// `dr0 && !dr1`: the context running is C1.
fn in_c1(span: Span) -> Node<Expression> {
    and(
        ident(abi::DR0, span),
        not(ident(abi::DR1, span), span),
        span,
    )
}

/// `c2_sync = c2_sync || dr1;`, in front of a statement that may synchronise (after the
/// phase flags, so that the statement's own accesses are still checked): C2's later
/// accesses may be ordered after C1's by it (an acquire).
fn c2_ends_after(span: Span) -> Node<Statement> {
    expr_stmt(assign(
        ident(C2_SYNC, span),
        or(ident(C2_SYNC, span), ident(abi::DR1, span), span),
        span,
    ))
}

/// Calls that never synchronise: ladr's assumptions, havoc and nondeterministic values.
fn never_synchronises(name: &str) -> bool {
    name == abi::ASSUME
        || name == abi::HAVOC
        || name == "__VERIFIER_assume"
        || name.starts_with(abi::NONDET_PREFIX)
}

/// Is `e` the memory order `__ATOMIC_RELAXED` (0, or stdatomic's `memory_order_relaxed`)?
fn relaxed(e: &Node<Expression>) -> bool {
    match &e.node {
        Expression::Identifier(i) => i.node.name == "memory_order_relaxed",
        Expression::Cast(c) => relaxed(&c.node.expression),
        other => constant::int_literal(other) == Some(0),
    }
}

/// Is `c` an `__atomic_*` builtin whose memory orders are all relaxed (C11 5.1.2.4: a
/// relaxed operation is atomic but orders nothing)? The orders are the last argument, and
/// for a compare-and-exchange the last two.
fn relaxed_atomic(c: &CallExpression) -> bool {
    let Some(name) = callee_name(c) else {
        return false;
    };
    if !name.starts_with("__atomic_") {
        return false;
    }
    let orders = if name.starts_with("__atomic_compare_exchange") {
        2
    } else {
        1
    };
    let args = &c.arguments;
    args.len() >= orders && args[args.len() - orders..].iter().all(relaxed)
}

/// May the visible statement `s` synchronise with another thread (a release or an
/// acquire)? Conservatively yes for an atomic section, inline assembly, an access of an
/// `_Atomic` object by a plain operator (sequentially consistent) and any call but the
/// relaxed `__atomic_*` builtins and [`never_synchronises`]; plain accesses and relaxed
/// atomic operations do not (C11 5.1.2.4), so a race ordered only by them is reported.
fn synchronises(s: &Node<Statement>, atomic_section: bool, vars: &Vars) -> bool {
    struct Sync<'a>(&'a Vars);
    impl Visitor for Sync<'_> {
        /// Found one.
        type Error = ();
        fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
            match &s.node {
                Statement::Asm(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c) if relaxed_atomic(&c.node) => Ok(Walk::Skip),
                Expression::Call(c) if callee_name(&c.node).is_some_and(never_synchronises) => {
                    Ok(Walk::Descend)
                }
                Expression::Call(_) => Err(()),
                // An address is no access.
                Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                    Ok(Walk::Skip)
                }
                Expression::Identifier(_) | Expression::Member(_) => lvalue(self.0, e),
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    lvalue(self.0, e)
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    lvalue(self.0, e)
                }
                _ => Ok(Walk::Descend),
            }
        }
    }
    /// An access of an `_Atomic` object by a plain operator is sequentially consistent.
    fn lvalue(vars: &Vars, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
        if vars.is_atomic(&e.node) {
            Err(())
        } else {
            Ok(Walk::Descend)
        }
    }
    atomic_section || visit::stmt(&mut Sync(vars), s).is_err()
}

/// Is `a` the address of a variable or of a member of one (`&x`, `&s.f.g`): always valid,
/// and never inside an array?
fn names_variable(a: &Node<Expression>) -> bool {
    fn plain(e: &Expression) -> bool {
        match e {
            Expression::Identifier(_) => true,
            Expression::Member(m) => {
                m.node.operator.node == MemberOperator::Direct && plain(&m.node.expression.node)
            }
            _ => false,
        }
    }
    matches!(&a.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Address && plain(&u.node.operand.node))
}

/// The address handed to `__CPROVER_set_field`/`get_field` for the object `*a`: `a`
/// itself, or `(void ***)a` when that object is a pointer, chosen at compile time
/// (`__builtin_choose_expr(__builtin_classify_type(*a) == 5, (void ***)a, a)`; the size
/// of a pointer is the size of any pointer).
///
/// CBMC 6.6's shadow memory takes an address of type `T **`, T no pointer, as unable to
/// point into an object that is an array of non-pointers (a heuristic of
/// `are_types_compatible` against `char **` meeting `char[]`), so the address of a pointer
/// member of a struct in an array (`names[i].str`, `blocks[1].next` in a heap block)
/// matched no object: `set_field` did nothing (a race on it went unseen), `get_field`
/// returned a value from no flag at all (a race whose first access no site of C1 had
/// recorded: "unknown access sites"), or CBMC failed an invariant. An address of type
/// `void ***` is never taken for that case, and for a pointer variable (whose shadow
/// type is a pointer to a non-pointer) the pointed-to type stays a pointer, as CBMC
/// requires there. A variable or a member of one (`&x`, `&s.f`) is no array element, so
/// its address is handed over as it is.
fn shadow_address(a: &Node<Expression>) -> Node<Expression> {
    // A variable or a member of one is no array's element: its address is taken as it is.
    // Nor is a range of bytes (`(char (*)[n])p`, [`char_array_pointer`]) a pointer, though
    // `__builtin_classify_type` would call the array it points to one (it decays).
    if names_variable(a) || is_byte_range(a) {
        return a.clone();
    }
    let span = a.span;
    let object = match &a.node {
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            (*u.node.operand).clone()
        }
        _ => deref(a.clone(), span),
    };
    let is_pointer = eq(
        call(abi::CLASSIFY_TYPE, vec![object], span),
        int(abi::POINTER_TYPE_CLASS, span),
        span,
    );
    let as_pointer = cast(type_name(&[TypeSpecifier::Void], 3, span), a.clone(), span);
    call(
        abi::CHOOSE_EXPR,
        vec![is_pointer, as_pointer, a.clone()],
        span,
    )
}

struct Rewriter<'a> {
    vars: &'a Vars,
    slot: usize,
    label: u32,
    atomic: bool,
    sites: &'a mut Vec<Site>,
    exclusion: Option<&'a Exclusion>,
    /// The program frees blocks: accesses through pointers also check C1's `c1_free`.
    frees: bool,
    /// [`Program::libc_calls`]: which function's call an access of a library function's
    /// hidden state stands for.
    libc_calls: &'a BTreeMap<AccessKey, String>,
}

impl VisitorMut for Rewriter<'_> {
    type Error = Error;
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        match &mut s.node {
            Statement::Expression(Some(e)) => self.acc_top(e)?,
            Statement::If(i) => {
                self.acc_top(&mut i.node.condition)?;
                visit_mut::stmt(self, &mut i.node.then_statement)?;
                if let Some(e) = &mut i.node.else_statement {
                    visit_mut::stmt(self, e)?;
                }
            }
            Statement::Compound(_) | Statement::Labeled(_) => return Ok(Walk::Descend),
            Statement::Asm(a) => {
                if let AsmStatement::GnuExtended(g) = &a.node {
                    let pre = self.asm_accesses(&g.clone());
                    if !pre.is_empty() {
                        let span = s.span;
                        let asm = std::mem::replace(s, empty_stmt(span));
                        let mut items: Vec<_> =
                            pre.into_iter().map(|e| item(expr_stmt(e))).collect();
                        items.push(item(asm));
                        *s = block(items, span);
                    }
                }
            }
            Statement::Goto(_) | Statement::Expression(None) => {}
            _ => {
                return Err(Error::unsupported(
                    s.span,
                    "this statement in a visible statement (internal: not in normal form)",
                ));
            }
        }
        Ok(Walk::Skip)
    }
}

impl Rewriter<'_> {
    fn site(&mut self, e: &Node<Expression>, write: bool, atomic: bool) -> u32 {
        let id = self.sites.len() as u32;
        // The hidden state of a C library function (`threads`): named by the call.
        let libc_state = match &e.node {
            Expression::Identifier(i) if abi::libc_state_group(&i.node.name).is_some() => {
                self.libc_calls.get(&e.span.into()).cloned()
            }
            _ => None,
        };
        let expr = match &libc_state {
            Some(f) => format!("libc's state of `{f}`"),
            None => user_text(e),
        };
        self.sites.push(Site {
            id,
            slot: self.slot,
            label: self.label,
            span: e.span,
            expr,
            write,
            atomic,
            libc_state,
        });
        id
    }

    /// Does the object `e` designates live in shared memory?
    fn storage_shared(&self, e: &Expression) -> bool {
        match e {
            Expression::Identifier(i) => self.vars.is_shared_var(&i.node.name),
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.storage_shared(&m.node.expression.node),
                // `((T)(&s))->f` (a folded pointer) is in `s`'s storage; any other pointer
                // may point anywhere.
                MemberOperator::Indirect => match address_target(&m.node.expression.node) {
                    Some(s) => self.storage_shared(&s.node),
                    None => true,
                },
            },
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Indirection,
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                if self.vars.array_depth(&b.node.lhs.node) > 0 {
                    self.storage_shared(&b.node.lhs.node)
                } else {
                    true
                }
            }
            _ => false,
        }
    }

    /// Is reading/writing `e` a data access to shared memory (and not an array decaying)?
    fn is_access(&self, e: &Expression) -> bool {
        let lvalue = matches!(
            e,
            Expression::Identifier(_) | Expression::Member(_) | Expression::UnaryOperator(_)
        ) || matches!(e, Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index);
        lvalue && self.storage_shared(e) && self.vars.array_depth(e) == 0
    }

    /// The address whose shadow bytes stand for `e` (`&e`; for a bit-field, whose address
    /// cannot be taken, one byte of its memory location as its [`BitAnchor`] says, or the
    /// containing object when that is not known).
    fn address(&self, e: &Node<Expression>) -> Node<Expression> {
        let span = e.span;
        if let Expression::Member(m) = &e.node {
            if let Some(anchor) = self.vars.bit_fields.get(&m.node.identifier.node.name) {
                let arrow = m.node.operator.node == MemberOperator::Indirect;
                let object = (*m.node.expression).clone();
                let whole = if arrow {
                    object.clone()
                } else {
                    addr(object.clone(), span)
                };
                let bytes = |a| cast(type_name(&[TypeSpecifier::Char], 1, span), a, span);
                return match anchor {
                    BitAnchor::Unknown => whole,
                    BitAnchor::Start => bytes(whole),
                    BitAnchor::After(before) => {
                        let before = member(object, before, arrow, span);
                        let size = size_of_val(before.clone(), span);
                        binop(BinaryOperator::Plus, bytes(addr(before, span)), size, span)
                    }
                };
            }
        }
        addr(e.clone(), span)
    }

    /// `P && [r_ok(a, sizeof *a) &&] rest`: an access through a pointer or an index is
    /// flagged only when its address is valid. An out-of-bounds or dangling access is
    /// undefined behaviour, not a data race, and the shadow memory of such an address
    /// holds no meaningful flag (CBMC returns any value), which would be a false alarm.
    fn valid(&self, a: &Node<Expression>, span: Span) -> Option<Node<Expression>> {
        if names_variable(a) {
            return None;
        }
        let size = size_of_val(deref(a.clone(), span), span);
        Some(call(abi::R_OK, vec![a.clone(), size], span))
    }

    /// `P2 && !drd && [valid &&] (get_field(a, "w") && (drd = 1, first = c1_site,
    /// second = id, 1) || …)`: every access checks for a write of C1 (`w`, or `wna` when
    /// atomic), a plain write also for a plain read of C1 (`r`).
    fn check(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        let found = |read: bool| {
            let field = match (read, atomic) {
                (true, _) => abi::FIELD_R,
                (false, false) => abi::FIELD_W,
                (false, true) => abi::FIELD_WNA,
            };
            let get = call(
                abi::GET_FIELD,
                vec![shadow_address(&a), string(field, span)],
                span,
            );
            self.recorded(get, id, span)
        };
        let mut test = found(false);
        if write && !atomic {
            test = or(test, found(true), span);
        }
        let p2 = and(ident(P2, span), not(ident(DRD, span), span), span);
        let mut pre = p2.clone();
        let valid = self.valid(&a, span);
        let through_pointer = valid.is_some();
        if let Some(v) = valid {
            pre = and(pre, v, span);
        }
        let mut checked = and(pre, test, span);
        // A block C1 freed: any access of it through a pointer races with the free (the
        // block is gone, so its shadow memory is no help: the pointer says which block).
        if self.frees && through_pointer {
            let freed = and(
                and(
                    p2,
                    binop(
                        BinaryOperator::NotEquals,
                        ident(C1_FREE, span),
                        int(0, span),
                        span,
                    ),
                    span,
                ),
                call(abi::SAME_OBJECT, vec![a, ident(C1_FREE, span)], span),
                span,
            );
            checked = or(checked, self.recorded(freed, id, span), span);
        }
        checked
    }

    /// An extended `asm` statement accesses the lvalues it names as operands: each output
    /// is written (`+`: also read), each input read (its value; `"m"(*p)` reads `*p`, an
    /// address `&x` reads nothing). The template itself stays (CBMC ignores it). One that
    /// locks (`lock`, `xchg`: x86's atomic read-modify-writes) accesses its memory operands
    /// (constraint `m`) atomically, like the `__atomic_*` builtins; a register operand is
    /// loaded or stored by the compiler's own plain code around the instruction.
    fn asm_accesses(&mut self, g: &GnuExtendedAsmStatement) -> Vec<Node<Expression>> {
        let text = g.template.node.concat();
        let locked = text.contains("lock") || text.contains("xchg");
        let saved = self.atomic;
        let mut pre = vec![];
        for o in &g.outputs {
            let lv = &o.node.variable_name;
            if has_side_effect(&lv.node) {
                continue;
            }
            let constraints = o.node.constraints.node.concat();
            self.atomic = saved || (locked && constraints.contains('m'));
            if constraints.contains('+') {
                pre.push(self.acc(lv.clone()));
            }
            pre.extend(self.write_code(lv));
        }
        for i in &g.inputs {
            let e = &i.node.variable_name;
            if !has_side_effect(&e.node) {
                self.atomic = saved || (locked && i.node.constraints.node.concat().contains('m'));
                pre.push(self.acc(e.clone()));
            }
        }
        self.atomic = saved;
        pre
    }

    /// `found && (drd = 1, first = c1_site, second = id, 1)`, where an excluded pair is not
    /// recorded: `found` also requires `c1_key != k` for each access of key k whose pair
    /// with this one is excluded.
    fn recorded(&self, found: Node<Expression>, id: u32, span: Span) -> Node<Expression> {
        let partners = self.exclusion.map_or(&[][..], |x| x.partners(span));
        let found = partners.iter().fold(found, |g, &k| {
            let differs = binop(
                BinaryOperator::NotEquals,
                ident(C1_KEY, span),
                int(k as u64, span),
                span,
            );
            and(g, differs, span)
        });
        and(found, self.record(id, span), span)
    }

    /// `drd = 1, first = c1_site, second = id, 1`.
    fn record(&self, id: u32, span: Span) -> Node<Expression> {
        comma(
            vec![
                assign(ident(DRD, span), int(1, span), span),
                assign(ident(FIRST_SITE, span), ident(C1_SITE, span), span),
                assign(ident(SECOND_SITE, span), int(id as u64, span), span),
                int(1, span),
            ],
            span,
        )
    }

    /// `free(p)` / `realloc(p, n)`: a write of the whole block `*p`. As C1's last access it
    /// records the block (`c1_free = (char *)p`, checked by C2's accesses through pointers)
    /// instead of setting shadow flags, which on a heap block of symbolic size CBMC
    /// finds costly (measured: 10 s → over 100 s on a task freeing at its end); as C2's
    /// first it checks C1's flags on the block's first byte (and its `c1_free`).
    fn free_accesses(&mut self, p: &Node<Expression>) -> Vec<Node<Expression>> {
        if has_side_effect(&p.node) {
            return vec![];
        }
        let span = p.span;
        let shown = match &p.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                (*u.node.operand).clone()
            }
            _ => deref(p.clone(), span),
        };
        let id = self.site(&shown, true, false);
        let byte = cast(type_name(&[TypeSpecifier::Char], 1, span), p.clone(), span);
        let mut record = vec![
            assign(ident(C1_FREE, span), byte.clone(), span),
            assign(ident(C1_SITE, span), int(id as u64, span), span),
        ];
        if let Some(x) = self.exclusion {
            let k = x.key(span);
            record.push(assign(ident(C1_KEY, span), int(k as u64, span), span));
        }
        record.push(int(1, span));
        vec![
            and(self.picked(id, span), comma(record, span), span),
            self.check(byte, true, false, id, span),
        ]
    }

    /// `P1 && c1_pick == id`: access `id` is C1's picked one ([`abi::C1_PICK`]).
    fn picked(&self, id: u32, span: Span) -> Node<Expression> {
        and(
            ident(P1, span),
            eq(ident(C1_PICK, span), int(id as u64, span), span),
            span,
        )
    }

    fn set(
        &self,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
        id: u32,
        span: Span,
    ) -> Node<Expression> {
        let a0 = a.clone();
        let fields: &[&str] = match (write, atomic) {
            (true, false) => &[abi::FIELD_W, abi::FIELD_WNA],
            (true, true) => &[abi::FIELD_W],
            (false, _) => &[abi::FIELD_R],
        };
        let mut v: Vec<_> = fields
            .iter()
            .map(|f| {
                call(
                    abi::SET_FIELD,
                    vec![shadow_address(&a), string(f, span), int(1, span)],
                    span,
                )
            })
            .collect();
        v.push(assign(ident(C1_SITE, span), int(id as u64, span), span));
        if let Some(x) = self.exclusion {
            let k = x.key(span);
            v.push(assign(ident(C1_KEY, span), int(k as u64, span), span));
        }
        v.push(int(1, span));
        let mut pre = self.picked(id, span);
        if let Some(ok) = self.valid(&a0, span) {
            pre = and(pre, ok, span);
        }
        and(pre, comma(v, span), span)
    }

    /// Flag code for one access of the object at address `a`: its part as the last access of
    /// C1 and its part as the first of C2.
    fn flags(
        &mut self,
        shown: &Node<Expression>,
        a: Node<Expression>,
        write: bool,
        atomic: bool,
    ) -> Vec<Node<Expression>> {
        let id = self.site(shown, write, atomic);
        let span = shown.span;
        let mut v = vec![];
        // A read as C1's last access is flagged only when it is not atomic (an atomic read
        // races only with a plain write, found with the write first) and on an object the
        // lvalue names: setting a flag through a pointer makes CBMC update the shadow of
        // every object the pointer may reach, and at a computed index of a large array it
        // updates a symbolic place, which for reads (many more than writes) costs far more
        // than it finds (measured: 0.4 s → 18 s reading `argv[1][0]`; 7 s → 59 s reading
        // `pool[i]`).
        if write || (!atomic && self.names_object(&shown.node)) {
            v.push(self.set(a.clone(), write, atomic, id, span));
        }
        v.push(self.check(a, write, atomic, id, span));
        v
    }

    /// Does lvalue `e` name its object and place without a pointer or a computed index (`x`,
    /// `s.f`, `a[2]` of an array)?
    fn names_object(&self, e: &Expression) -> bool {
        match e {
            Expression::Identifier(_) => true,
            Expression::Member(m) => {
                m.node.operator.node == MemberOperator::Direct
                    && self.names_object(&m.node.expression.node)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                matches!(b.node.rhs.node, Expression::Constant(_))
                    && self.vars.array_depth(&b.node.lhs.node) > 0
                    && self.names_object(&b.node.lhs.node)
            }
            _ => false,
        }
    }

    /// Flag code for a write of `lv` (also counts as its read for P2).
    fn write_code(&mut self, lv: &Node<Expression>) -> Vec<Node<Expression>> {
        if !self.is_access(&lv.node) {
            return vec![];
        }
        let a = self.address(lv);
        let atomic = self.is_atomic(lv);
        self.flags(lv, a, true, atomic)
    }

    /// Is an access of lvalue `e` atomic: inside an atomic section, or of an `_Atomic`
    /// object (whose `++`, `--` and compound assignments are atomic read-modify-writes, one
    /// access here)?
    fn is_atomic(&self, e: &Node<Expression>) -> bool {
        self.atomic || self.vars.is_atomic(&e.node)
    }

    /// ACC of a whole expression of a visible statement.
    fn acc_top(&mut self, e: &mut Node<Expression>) -> Result<()> {
        if walk_has_statement_expr(e) {
            return Err(Error::unsupported(
                e.span,
                "a statement expression in a statement that accesses shared memory",
            ));
        }
        let old = std::mem::replace(e, int(0, Span::none()));
        *e = self.acc(old);
        Ok(())
    }

    /// ACC: the value of `e` is used.
    fn acc(&mut self, e: Node<Expression>) -> Node<Expression> {
        let span = e.span;
        match e.node {
            Expression::Identifier(_) | Expression::Member(_) => self.read(e),
            Expression::UnaryOperator(ref u) => match u.node.operator.node {
                UnaryOperator::Indirection => self.read(e),
                UnaryOperator::Address => {
                    let Expression::UnaryOperator(u) = e.node else {
                        unreachable!()
                    };
                    addr(self.nacc(*u.node.operand), span)
                }
                ref op if walk::is_inc_dec(op) => {
                    let Expression::UnaryOperator(u) = e.node else {
                        unreachable!()
                    };
                    let mut v = self.write_code(&u.node.operand);
                    let op = u.node.operator.node;
                    v.push(unop(op, self.nacc(*u.node.operand), span));
                    comma(v, span)
                }
                _ => {
                    let Expression::UnaryOperator(u) = e.node else {
                        unreachable!()
                    };
                    let op = u.node.operator.node;
                    unop(op, self.acc(*u.node.operand), span)
                }
            },
            Expression::BinaryOperator(ref b) if b.node.operator.node == BinaryOperator::Index => {
                self.read(e)
            }
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let b = b.node;
                let mut v = self.write_code(&b.lhs);
                let rhs = self.acc(*b.rhs);
                let lhs = self.nacc(*b.lhs);
                v.push(binop(b.operator.node, lhs, rhs, span));
                comma(v, span)
            }
            Expression::BinaryOperator(b) => {
                let b = b.node;
                let l = self.acc(*b.lhs);
                let r = self.acc(*b.rhs);
                binop(b.operator.node, l, r, span)
            }
            Expression::Call(c) => self.call(c.node, span),
            Expression::Cast(c) => {
                let c = c.node;
                let inner = self.acc(*c.expression);
                cast(c.type_name, inner, span)
            }
            Expression::Conditional(c) => {
                let c = c.node;
                let a = self.acc(*c.condition);
                let t = self.acc(*c.then_expression);
                let f = self.acc(*c.else_expression);
                cond(a, t, f, span)
            }
            Expression::Comma(es) => {
                let v = es.into_iter().map(|x| self.acc(x)).collect();
                comma(v, span)
            }
            Expression::CompoundLiteral(mut c) => {
                for it in &mut c.node.initializer_list {
                    self.init_item(it);
                }
                node(Expression::CompoundLiteral(c), span)
            }
            // Not evaluated, or no access of their own.
            _ => e,
        }
    }

    fn init_item(&mut self, it: &mut Node<InitializerListItem>) {
        match &mut it.node.initializer.node {
            Initializer::Expression(x) => {
                let old = std::mem::replace(&mut **x, int(0, Span::none()));
                **x = self.acc(old);
            }
            Initializer::List(items) => {
                for i in items {
                    self.init_item(i);
                }
            }
        }
    }

    /// A read of lvalue `e`: `(check(&e), nacc(e))`.
    fn read(&mut self, e: Node<Expression>) -> Node<Expression> {
        let span = e.span;
        if !self.is_access(&e.node) {
            return self.nacc(e);
        }
        let a = self.address(&e);
        let atomic = self.is_atomic(&e);
        let mut v = self.flags(&e, a, false, atomic);
        v.push(self.nacc(e));
        comma(v, span)
    }

    /// NACC: keep `e` an lvalue designating the same location; instrument what it reads to
    /// find that location (pointers, indices).
    fn nacc(&mut self, e: Node<Expression>) -> Node<Expression> {
        let span = e.span;
        match e.node {
            Expression::Identifier(_) => e,
            Expression::Member(m) => {
                let m = m.node;
                let base = match m.operator.node {
                    MemberOperator::Direct => self.nacc(*m.expression),
                    MemberOperator::Indirect => self.acc(*m.expression),
                };
                member(
                    base,
                    &m.identifier.node.name,
                    m.operator.node == MemberOperator::Indirect,
                    span,
                )
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                deref(self.acc(*u.node.operand), span)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let b = b.node;
                // PRE: an array base is a location, a pointer base a value.
                let base = if self.vars.array_depth(&b.lhs.node) > 0 {
                    self.nacc(*b.lhs)
                } else {
                    self.acc(*b.lhs)
                };
                let i = self.acc(*b.rhs);
                index(base, i, span)
            }
            _ => self.acc(e),
        }
    }

    fn call(&mut self, mut c: CallExpression, span: Span) -> Node<Expression> {
        let name = callee_name(&c).map(str::to_string);
        if let Some(target) = name.as_deref().and_then(library::atomic_builtin) {
            return self.atomic_builtin(name.as_deref().unwrap_or(""), target, c, span);
        }
        // The callee: a named function is no access; a function pointer is read.
        if name.is_none() {
            let callee = std::mem::replace(&mut *c.callee, int(0, Span::none()));
            *c.callee = match callee.node {
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    deref(self.acc(*u.node.operand), callee.span)
                }
                other => self.acc(node(other, callee.span)),
            };
        }
        let library_name = name.as_deref().map(abi::modelled_function);
        let pre = match library_name.and_then(library::effects) {
            _ if library_name.is_some_and(library::frees) && !c.arguments.is_empty() => {
                self.free_accesses(&c.arguments[0])
            }
            Some(effects) => {
                self.library_accesses(library_name.unwrap_or(""), effects, &c.arguments)
            }
            None => vec![],
        };
        c.arguments = std::mem::take(&mut c.arguments)
            .into_iter()
            .map(|a| self.acc(a))
            .collect();
        let call = call_expr(*c.callee, c.arguments, span);
        if pre.is_empty() {
            call
        } else {
            comma(pre.into_iter().chain([call]).collect(), span)
        }
    }

    /// Flag code for what a library call reads and writes through its pointer arguments
    /// ([`library`]): an access of the bytes it covers, `*(char (*)[n])arg`, when their
    /// number `n` ([`library::extent`]) is a constant expression; of the first and the last
    /// byte, `*(char *)arg` and `((char *)arg)[n - 1]` when `n > 0`, when it is not; of the
    /// first byte when it is not known. Arguments with side effects cannot be evaluated
    /// twice and are left out.
    fn library_accesses(
        &mut self,
        name: &str,
        effects: &[(library::Args, library::Effect)],
        args: &[Node<Expression>],
    ) -> Vec<Node<Expression>> {
        let mut out = vec![];
        for &(sel, effect) in effects {
            for i in library::selected(sel, args.len()) {
                let a = &args[i];
                if has_side_effect(&a.node) {
                    continue;
                }
                let span = a.span;
                let shown = match &a.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        (*u.node.operand).clone()
                    }
                    _ => deref(a.clone(), span),
                };
                if !self.storage_shared(&shown.node) {
                    continue;
                }
                let write = effect == library::Effect::Write;
                let bytes = library::extent(name, i).and_then(|x| extent_value(x, args, span));
                match bytes {
                    Some(n) if constant::is_constant(&n.node, &constant::Env::default()) => {
                        let range = cast(char_array_pointer(n, span), a.clone(), span);
                        out.extend(self.flags(&shown, range, write, self.atomic));
                    }
                    Some(n) => {
                        let byte =
                            cast(type_name(&[TypeSpecifier::Char], 1, span), a.clone(), span);
                        out.extend(self.flags(&shown, byte.clone(), write, self.atomic));
                        // `n > 0 && flags of ((char *)a + (n - 1))`
                        let last = binop(
                            BinaryOperator::Plus,
                            byte,
                            binop(BinaryOperator::Minus, n.clone(), int(1, span), span),
                            span,
                        );
                        let positive = binop(BinaryOperator::Greater, n, int(0, span), span);
                        for f in self.flags(&shown, last, write, self.atomic) {
                            out.push(and(positive.clone(), f, span));
                        }
                    }
                    None => {
                        let byte =
                            cast(type_name(&[TypeSpecifier::Char], 1, span), a.clone(), span);
                        out.extend(self.flags(&shown, byte, write, self.atomic));
                    }
                }
            }
        }
        out
    }

    /// `__atomic_*(p, …)` / `__sync_*(p, …)`: an atomic access of `*p` through any pointer
    /// `p` (a read for loads, a write for everything else; none for fences), shown as `x`
    /// for `&x`; the other pointer arguments of the generic forms (`__atomic_load(p, ret,
    /// mo)` writes `*ret`) are plain accesses ([`library::effects`]).
    fn atomic_builtin(
        &mut self,
        name: &str,
        target: Option<library::Effect>,
        mut c: CallExpression,
        span: Span,
    ) -> Node<Expression> {
        let mut pre = vec![];
        if let (Some(effect), Some(p0)) = (target, c.arguments.first()) {
            if !has_side_effect(&p0.node) {
                let shown = match &p0.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        (*u.node.operand).clone()
                    }
                    _ => deref(p0.clone(), p0.span),
                };
                if self.storage_shared(&shown.node) {
                    let write = effect == library::Effect::Write;
                    let a = match &shown.node {
                        Expression::UnaryOperator(_) => p0.clone(),
                        _ => self.address(&shown),
                    };
                    pre.extend(self.flags(&shown, a, write, true));
                }
            }
        }
        if let Some(effects) = library::effects(name) {
            pre.extend(self.library_accesses(name, effects, &c.arguments));
        }
        c.arguments = std::mem::take(&mut c.arguments)
            .into_iter()
            .map(|a| self.acc(a))
            .collect();
        pre.push(call_expr(*c.callee, c.arguments, span));
        comma(pre, span)
    }
}

/// The lvalue as the user wrote it: generated local names mapped back.
fn user_text(e: &Node<Expression>) -> String {
    struct Unname;
    impl VisitorMut for Unname {
        type Error = std::convert::Infallible;
        fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Self::Error> {
            if let Some(v) = ladr_c::syntax::build::folded_var(&e.node) {
                // A read `constprop` replaced by its constant: the variable read.
                let name = ladr_c::syntax::names::original_name(v).to_string();
                e.node = Expression::Identifier(Box::new(Node::new(Identifier { name }, e.span)));
                return Ok(Walk::Skip);
            }
            if let Expression::Identifier(i) = &mut e.node {
                i.node.name = ladr_c::syntax::names::original_name(&i.node.name).to_string();
            }
            Ok(Walk::Descend)
        }
    }
    let mut e = e.clone();
    let Ok(()) = visit_mut::expr(&mut Unname, &mut e);
    expr_to_string(&e.node)
}

fn walk_has_statement_expr(e: &Node<Expression>) -> bool {
    struct F;
    impl Visitor for F {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match e.node {
                Expression::Statement(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::expr(&mut F, e).is_err()
}
