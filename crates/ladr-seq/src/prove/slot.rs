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
        && b.node.operator.node == BinaryOperator::Index
        && k.node.name == i;
    fits.then_some(block.node.name.as_str())
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

fn is_named(e: &Node<Expression>, name: &str) -> bool {
    matches!(&e.node, Expression::Identifier(i) if i.node.name == name)
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

/// The block local `b` of `main` (its [`VarId`] and pointee type) when nothing but the
/// create of item `create` and `main`'s solo statements name it.
fn block_of(
    decls: &Decls,
    facts: &MainFacts,
    body: &[Node<BlockItem>],
    locals: &HashMap<usize, VarId>,
    (b, create): (&str, usize),
) -> Option<(VarId, String)> {
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
    for (j, it) in body.iter().enumerate() {
        let u = uses(it, b);
        let solo = facts.solo.get(j).copied().unwrap_or(false);
        let fine = match u.all {
            0 => true,
            _ if j == create => u.all == 1 && u.other == 1,
            1 if j < create && solo && allocates(body, j, b) => true,
            _ => solo && u.other == 0 && u.all == u.element_or_free,
        };
        let declaration = matches!(it.node, BlockItem::Declaration(_)) && u.all == 0;
        if !fine && !declaration {
            return None;
        }
    }
    Some((v, ty))
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
        let Some((block, ty)) = block_of(decls, facts, main_body, locals, (b, *create)) else {
            continue;
        };
        let Some(f) = decls.bodies.get(r) else {
            continue;
        };
        let Statement::Compound(items) = &f.statement.node else {
            continue;
        };
        for pair in items.windows(2) {
            let BlockItem::Declaration(d) = &pair[0].node else {
                continue;
            };
            let [x] = d.node.declarators.as_slice() else {
                continue;
            };
            let decl = &x.node.declarator.node;
            let Some(&p) = locals.get(&(decl as *const Declarator as usize)) else {
                continue;
            };
            let name = declarator_name(decl).unwrap_or_default();
            let assigned_next = assignment(&pair[1]).is_some_and(|(y, _)| y == name);
            let var = &decls.vars[p];
            let fits = x.node.initializer.is_none()
                && assigned_next
                && var.automatic
                && !var.parameter
                && pointee_type(decls, &d.node.specifiers, decl).as_ref() == Some(&ty)
                && !decls.escaped.contains(&p)
                && !decls.bare_reads.contains(&p)
                && decls.index_writes.get(&p) == Some(&Some(super::disjoint::FROM_ARGUMENT));
            if fits {
                decls.slot_pointers.insert(p, block);
            }
        }
    }
}

impl<'a> Scan<'_, 'a> {
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
