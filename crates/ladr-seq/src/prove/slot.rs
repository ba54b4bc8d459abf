//! Per-thread slots of a block (issue 30): `B = malloc(…)` in `main`, then
//! `for (i = 0; i < N; i++) pthread_create(&t[i], 0, f, &B[i]);`, and `f` touches only
//! `*p` and `p->m` of a local `p = arg`: each instance its own element of the block
//! (SV-COMP's `per-thread-array-ptr`).
//!
//! The accesses through `p` are of the object [`Target::Slot`]`(B)` at path
//! [`Step::Own`] (no longer of all memory reached through pointers), so two instances of
//! `f` touch different elements ([`super::disjoint`]). Sound only when nothing else can
//! reach the block while threads run:
//! * `f` is an indexed routine (`disjoint::thread_keys`: one create, uncalled, its
//!   parameter untouched, no labels), the create at top level of a counted loop of `main`
//!   passing exactly `&B[i]` of its counter `i`;
//! * `B` is a local of `main` declared once, at top level, as a pointer to a type spelled
//!   with keywords or one tag the program defines once (a typedef name may be an array),
//!   whose address is never taken; it occurs in the loop only in that create, before it only in solo
//!   statements `B = malloc(…)` / `calloc` (or `normalise`'s temporary of one) and
//!   elsewhere only in solo statements (where `main` runs alone), as `B[k]` or `free(B)`:
//!   its value, and so the block, is never copied anywhere;
//! * `p` is a local of `f` of the same pointer type, declared at top level of its body
//!   with the next statement `p = arg;` (or `p = (T *)arg;`), each of whose writes is
//!   such, whose address is never taken, and which is only ever read as `*p` or `p->m`.

use super::access::Mode;
use super::decls::{Decls, VarId};
use super::scan::{Scan, Target};
use super::threads::MainFacts;
use super::Step;
use ladr_c::syntax::build::declarator_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashMap;
use std::convert::Infallible;

/// `B` of the create argument `&B[i]` (possibly cast to a pointer), `i` exactly the
/// counter.
pub fn slot_argument<'e>(arg: &'e Node<Expression>, i: &str) -> Option<&'e str> {
    slot_parts(arg).filter(|(_, k)| *k == i).map(|(b, _)| b)
}

/// (`B`, `k`) of a create argument `&B[k]`, possibly cast to a pointer.
fn slot_parts(arg: &Node<Expression>) -> Option<(&str, &str)> {
    let mut e = arg;
    while let Expression::Cast(c) = &e.node {
        e = &c.node.expression;
    }
    let Expression::UnaryOperator(u) = &e.node else {
        return None;
    };
    let Expression::BinaryOperator(b) = &u.node.operand.node else {
        return None;
    };
    let (Expression::Identifier(block), Expression::Identifier(k)) =
        (&b.node.lhs.node, &b.node.rhs.node)
    else {
        return None;
    };
    let fits = u.node.operator.node == UnaryOperator::Address
        && b.node.operator.node == BinaryOperator::Index;
    fits.then_some((block.node.name.as_str(), k.node.name.as_str()))
}

/// The pointee type of a declaration `T *x` as text, when `T` is spelled with keywords
/// only or is one struct or union tag the program defines once.
fn pointee_type(
    decls: &Decls,
    specs: &[Node<DeclarationSpecifier>],
    d: &Declarator,
) -> Option<String> {
    let pointer = matches!(d.kind.node, DeclaratorKind::Identifier(_))
        && matches!(d.derived.as_slice(), [x] if matches!(x.node, DerivedDeclarator::Pointer(_)));
    if !pointer {
        return None;
    }
    let mut words = vec![];
    for s in specs {
        let DeclarationSpecifier::TypeSpecifier(t) = &s.node else {
            continue;
        };
        words.push(match &t.node {
            // A typedef name may be an array type: `*p` would decay.
            TypeSpecifier::Struct(st) => {
                let kind = ladr_c::syntax::build::struct_keyword(&st.node.kind.node);
                format!("{kind} {}", st.node.identifier.as_ref()?.node.name)
            }
            k if ladr_c::syntax::build::is_arithmetic_keyword(k) => format!("{k:?}"),
            _ => return None,
        });
    }
    words.sort();
    let text = words.join(" ");
    (!words.is_empty() && !decls.redefined_tags.contains(&text)).then_some(text)
}

/// How `main`'s item uses the name `b`.
#[derive(Default)]
struct Uses<'n> {
    name: &'n str,
    /// Every occurrence of the name as an expression.
    all: usize,
    /// `b[…]` not under `&`, `free(b)`.
    element_or_free: usize,
    /// `&b[…]`, declarations of the name.
    other: usize,
}

impl Visitor for Uses<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = false;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        let is_b = |x: &Node<Expression>| is_named(x, self.name);
        match &e.node {
            Expression::Identifier(_) if is_b(e) => self.all += 1,
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index && is_b(&b.node.lhs) =>
            {
                self.element_or_free += 1
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                if matches!(&u.node.operand.node, Expression::BinaryOperator(b)
                    if b.node.operator.node == BinaryOperator::Index && is_b(&b.node.lhs))
                {
                    self.other += 1;
                }
            }
            Expression::Call(c)
                if ladr_c::syntax::build::callee_name(&c.node) == Some("free")
                    && matches!(c.node.arguments.as_slice(), [a] if is_b(a)) =>
            {
                self.element_or_free += 1
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Infallible> {
        if declarator_name(&d.node) == Some(self.name) {
            self.other += 1;
        }
        Ok(Walk::Descend)
    }
}

/// Is `e` the identifier `name`?
pub(super) fn is_named(e: &Node<Expression>, name: &str) -> bool {
    matches!(&e.node, Expression::Identifier(i) if i.node.name == name)
}

/// The declarations of `items` that declare one local of `locals` with no initialiser and
/// whose next item assigns it (`T x; x = e;`): the declaration, its declarator and the
/// variable.
pub(super) fn declared_then_assigned<'a>(
    items: &'a [Node<BlockItem>],
    locals: &HashMap<usize, VarId>,
) -> Vec<(&'a Node<Declaration>, &'a Declarator, VarId)> {
    let mut out = vec![];
    for pair in items.windows(2) {
        let BlockItem::Declaration(d) = &pair[0].node else {
            continue;
        };
        let [x] = d.node.declarators.as_slice() else {
            continue;
        };
        let decl = &x.node.declarator.node;
        let Some(&v) = locals.get(&(decl as *const Declarator as usize)) else {
            continue;
        };
        let name = declarator_name(decl).unwrap_or_default();
        if x.node.initializer.is_none() && assignment(&pair[1]).is_some_and(|(y, _)| y == name) {
            out.push((d, decl, v));
        }
    }
    out
}

fn uses<'n>(item: &Node<BlockItem>, name: &'n str) -> Uses<'n> {
    let mut u = Uses {
        name,
        ..Uses::default()
    };
    let _ = visit::block_item(&mut u, item);
    u
}

/// `x = e;` as (`x`, `e`).
fn assignment(item: &Node<BlockItem>) -> Option<(&str, &Node<Expression>)> {
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    let Expression::Identifier(x) = &b.node.lhs.node else {
        return None;
    };
    (b.node.operator.node == BinaryOperator::Assign).then_some((x.node.name.as_str(), &b.node.rhs))
}

fn fresh_block(e: &Node<Expression>) -> bool {
    let mut e = e;
    while let Expression::Cast(c) = &e.node {
        e = &c.node.expression;
    }
    matches!(&e.node, Expression::Call(c)
        if matches!(ladr_c::syntax::build::callee_name(&c.node), Some("malloc" | "calloc")))
}

/// Is item `j` of `body` `b = malloc(…);`, or `b = t;` right after `t = malloc(…);` with
/// `t` named nowhere else in `main` (`normalise`'s temporary)?
fn allocates(body: &[Node<BlockItem>], j: usize, b: &str) -> bool {
    let Some((x, rhs)) = assignment(&body[j]) else {
        return false;
    };
    if x != b {
        return false;
    }
    if fresh_block(rhs) {
        return true;
    }
    let Expression::Identifier(t) = &rhs.node else {
        return false;
    };
    let t = t.node.name.as_str();
    let named: usize = body.iter().map(|it| uses(it, t).all).sum();
    j > 0 && named == 2 && assignment(&body[j - 1]).is_some_and(|(y, e)| y == t && fresh_block(e))
}

/// The statements of the create loop `item` (`{ int i; i = 0; while (…) {…} }` or the
/// `while` itself), nested blocks that declare nothing opened, before its create of
/// `&b[i]`, that are `b[i] = e;` with `b` not in `e`: their `b[i]`. None: another
/// statement names `b`, or no such create is found.
fn fresh_writes<'i>(item: &'i Node<BlockItem>, b: &str) -> Option<Vec<&'i Node<Expression>>> {
    fn flat(items: &[Node<BlockItem>]) -> Vec<&Node<BlockItem>> {
        let mut out = vec![];
        for it in items {
            match &it.node {
                BlockItem::Statement(s) => match &s.node {
                    Statement::Compound(inner)
                        if inner
                            .iter()
                            .all(|x| matches!(x.node, BlockItem::Statement(_))) =>
                    {
                        out.extend(flat(inner))
                    }
                    _ => out.push(it),
                },
                _ => out.push(it),
            }
        }
        out
    }
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let w = match &s.node {
        Statement::Compound(items) => match &items.last()?.node {
            BlockItem::Statement(w) => w,
            _ => return None,
        },
        _ => s,
    };
    let Statement::While(w) = &w.node else {
        return None;
    };
    let Statement::Compound(body) = &w.node.statement.node else {
        return None;
    };
    let mut out: Vec<(&Node<Expression>, &str)> = vec![];
    for it in flat(body) {
        let u = uses(it, b);
        if u.all == 0 {
            continue;
        }
        if u.other == 1 && u.all == 1 {
            // The create (the caller checked it is the only `&b[…]`): the writes before it,
            // of its element.
            let k = create_slot(it)?.1;
            return out
                .iter()
                .all(|(_, i)| *i == k)
                .then(|| out.into_iter().map(|(e, _)| e).collect());
        }
        let (lhs, rhs) = match &it.node {
            BlockItem::Statement(s) => match &s.node {
                Statement::Expression(Some(e)) => match &e.node {
                    Expression::BinaryOperator(x)
                        if x.node.operator.node == BinaryOperator::Assign =>
                    {
                        (&x.node.lhs, &x.node.rhs)
                    }
                    _ => return None,
                },
                _ => return None,
            },
            _ => return None,
        };
        let index = match &lhs.node {
            Expression::BinaryOperator(x)
                if x.node.operator.node == BinaryOperator::Index && is_named(&x.node.lhs, b) =>
            {
                match &x.node.rhs.node {
                    Expression::Identifier(i) => Some(i.node.name.as_str()),
                    _ => None,
                }
            }
            _ => None,
        };
        let rhs_free = {
            let mut r = Uses {
                name: b,
                ..Uses::default()
            };
            let _ = visit::expr(&mut r, rhs);
            r.all == 0
        };
        match index {
            Some(i) if rhs_free && u.all == 1 => out.push((lhs, i)),
            _ => return None,
        }
    }
    None
}

/// The slot argument of the create statement `item` (`pthread_create(…, &b[k]);`).
fn create_slot(item: &Node<BlockItem>) -> Option<(&str, &str)> {
    let BlockItem::Statement(s) = &item.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let call = match &e.node {
        Expression::Call(c) => c,
        Expression::BinaryOperator(x) if x.node.operator.node == BinaryOperator::Assign => {
            match &x.node.rhs.node {
                Expression::Call(c) => c,
                _ => return None,
            }
        }
        _ => return None,
    };
    if ladr_c::syntax::build::callee_name(&call.node) != Some("pthread_create") {
        return None;
    }
    slot_parts(call.node.arguments.get(3)?)
}

/// The block local `b` of `main` (its [`VarId`] and pointee type) when nothing but the
/// create of item `create` (and writes of the element it hands over, before it: their
/// `b[i]` offsets are stored) and `main`'s solo statements name it.
fn block_of(
    decls: &Decls,
    facts: &MainFacts,
    body: &[Node<BlockItem>],
    locals: &HashMap<usize, VarId>,
    (b, create): (&str, usize),
) -> Option<(VarId, String, Vec<usize>)> {
    let mut found = None;
    for it in body {
        let BlockItem::Declaration(d) = &it.node else {
            continue;
        };
        for x in &d.node.declarators {
            let decl = &x.node.declarator.node;
            if declarator_name(decl) == Some(b) && x.node.initializer.is_none() {
                let v = *locals.get(&(decl as *const Declarator as usize))?;
                found = Some((v, pointee_type(decls, &d.node.specifiers, decl)?));
            }
        }
    }
    let (v, ty) = found?;
    let declared: usize = body.iter().map(|it| uses(it, b).other).sum();
    // One declaration (its `&b[…]` would be counted too: none allowed but the create's).
    // Every occurrence of `b` is checked below: `&b` is none of them (the walk's
    // `escaped` also counts `b[k]` read as maybe decaying, which `b`'s element type rules
    // out).
    if declared != 2 {
        return None;
    }
    let mut fresh: Vec<usize> = vec![];
    for (j, it) in body.iter().enumerate() {
        let u = uses(it, b);
        let solo = facts.solo.get(j).copied().unwrap_or(false);
        let fine = match u.all {
            0 => true,
            _ if j == create => {
                let writes = fresh_writes(it, b)?;
                fresh = writes.iter().map(|x| x.span.start).collect();
                u.all == 1 + fresh.len() && u.other == 1
            }
            1 if j < create && solo && allocates(body, j, b) => true,
            _ => solo && u.other == 0 && u.all == u.element_or_free,
        };
        let declaration = matches!(it.node, BlockItem::Declaration(_)) && u.all == 0;
        if !fine && !declaration {
            return None;
        }
    }
    Some((v, ty, fresh))
}

/// The slot pointers of the slotted routines (`p` → the block local `B`), stored in
/// `decls`; after `disjoint::thread_keys`.
pub fn slot_pointers(
    decls: &mut Decls,
    facts: &MainFacts,
    main_body: &[Node<BlockItem>],
    locals: &HashMap<usize, VarId>,
) {
    for (r, (b, create)) in &facts.slotted {
        if !decls.index_routines.contains_key(r) {
            continue;
        }
        let Some((block, ty, fresh)) = block_of(decls, facts, main_body, locals, (b, *create))
        else {
            continue;
        };
        let Some(&f) = decls.bodies.get(r) else {
            continue;
        };
        // The argument is named once: in the slot pointer's assignment (a copy of it
        // elsewhere could reach the next slot unseen).
        let param = decls.vars.iter().find(|v| {
            v.parameter && v.position == Some(0) && v.function.as_deref() == Some(r.as_str())
        });
        let Some(param) = param.map(|v| v.name.clone()) else {
            continue;
        };
        let mut named = Uses {
            name: &param,
            ..Uses::default()
        };
        let _ = visit::stmt(&mut named, &f.statement);
        if named.all != 1 {
            continue;
        }
        let Statement::Compound(items) = &f.statement.node else {
            continue;
        };
        for (d, decl, p) in declared_then_assigned(items, locals) {
            let var = &decls.vars[p];
            let fits = var.automatic
                && !var.parameter
                && pointee_type(decls, &d.node.specifiers, decl).as_ref() == Some(&ty)
                && !decls.escaped.contains(&p)
                && !decls.bare_reads.contains(&p)
                && decls.index_writes.get(&p) == Some(&Some(super::disjoint::FROM_ARGUMENT));
            if fits {
                decls.slot_pointers.insert(p, block);
                decls
                    .fresh_sites
                    .extend(fresh.iter().map(|&at| (at, block)));
            }
        }
    }
}

impl<'a> Scan<'_, 'a> {
    /// `B[i]` (at offset `at`) written by `main` before the create that hands it over:
    /// an access of the next thread's element. False when it is not one.
    pub fn fresh_slot(&mut self, mode: Mode, at: usize, base: &'a Node<Expression>) -> bool {
        let Some(&block) = self.decls.fresh_sites.get(&at) else {
            return false;
        };
        if let Mode::Write | Mode::Both = mode {
            let write = true;
            self.access_part(Target::Slot(block), vec![Step::Fresh], write, false, at);
        } else if mode == Mode::Read {
            self.access_part(Target::Slot(block), vec![Step::Fresh], false, false, at);
        }
        self.read(base);
        true
    }

    /// The slot pointer `e` names, with its block, if it is one.
    pub fn slot_pointer(&self, e: &Node<Expression>) -> Option<(VarId, VarId)> {
        let Expression::Identifier(i) = &e.node else {
            return None;
        };
        let p = self.lookup(&i.node.name)?;
        Some((p, *self.decls.slot_pointers.get(&p)?))
    }

    /// `*base` or `base->member` used as `mode`: reads `base`, and records the access of
    /// the thread's own element of a block when `base` is a slot pointer and the access
    /// touches the memory (not `&p->m`, not an array member decaying). Only such a read of
    /// `base` is one as the pointer of a dereference. True when recorded.
    pub fn through_pointer(
        &mut self,
        base: &'a Node<Expression>,
        member: Option<&str>,
        mode: Mode,
        at: usize,
    ) -> bool {
        let write = match mode {
            Mode::Read => Some(false),
            Mode::Write | Mode::Both => Some(true),
            Mode::Address | Mode::Sync => None,
        };
        let whole = member.is_none_or(|m| self.decls.ir.field_depth(m) == Some(0));
        let plain = write.filter(|_| whole);
        let outer = self.deref_base.take();
        if plain.is_some() {
            if let Expression::Identifier(i) = &base.node {
                self.deref_base = self.lookup(&i.node.name);
            }
        }
        self.read(base);
        self.deref_base = outer;
        let (Some(write), Some((_, block))) = (plain, self.slot_pointer(base)) else {
            return false;
        };
        let mut path = vec![Step::Own];
        path.extend(member.map(|m| Step::Field(m.to_string())));
        self.access_part(Target::Slot(block), path, write, false, at);
        true
    }
}
