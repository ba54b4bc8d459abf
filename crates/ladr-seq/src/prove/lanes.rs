//! The lanes of `simd` loops inside a region (issue 31; `docs/decisions/static.md`,
//! "SIMD lanes in the proof"). The bounded check gives such a loop a lane thread
//! (`ladr_c::frontend::openmp::lanes`): any two iterations of one thread's loop may run
//! at once, on that thread's objects. The proof reads the program with those loops left
//! plain loops of their thread (`ProofView`): every pair of accesses of two threads is
//! judged as usual, and this module checks the one pair the plain loop hides, two
//! iterations of one loop run by one thread.
//!
//! A `simd` body (found by its span, inside `j = …; while (…) { body; j++; }`) passes
//! when
//!  * it calls nothing, takes no address, and neither jumps nor is jumped into;
//!  * it writes only scalars it declares itself (one per iteration) and elements
//!    `x[e0]…[ek]` of a name `x` it neither declares nor writes (so `j`, moved only by
//!    the loop, is one value per iteration, and `x` one value for all);
//!  * each such element written and each element `x[f0]…[fk]` of the same `x` it reads or
//!    writes differ in two iterations `j ≠ j'`: at some position `p` both indices are
//!    `j + β` of one `β`, and every index at a position from `max(p, 1)` on is known
//!    within its row ([`super::bounds`]), so the elements differ at `p` and no later index
//!    moves them back.
//!
//! Accesses of two different names, or not of that form, may be of one object: the
//! objects' judge ([`super::objects`]) takes any pair of them in one `simd` body, at
//! least one a write, to one object for a race ([`Lanes::conflict`]).

use super::affine::linear;
use ladr_c::syntax::build::declarator_name;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

/// What the judge needs of the `simd` bodies.
#[derive(Clone, Debug, Default)]
pub struct Lanes {
    /// The bodies' spans.
    bodies: Vec<(usize, usize)>,
    /// The elements `x[…]` the bodies access, by offset: `x`.
    chains: HashMap<usize, String>,
}

impl Lanes {
    fn body_of(&self, offset: usize) -> Option<usize> {
        self.bodies
            .iter()
            .position(|(s, e)| *s <= offset && offset < *e)
    }

    /// May the accesses at offsets `a` and `b` of one function, one of them a write,
    /// touch one element in two iterations of one `simd` loop? Not outside a loop, nor
    /// in two elements of one name (checked by [`check`]).
    pub(super) fn conflict(&self, a: usize, b: usize) -> bool {
        let Some(l) = self.body_of(a) else {
            return false;
        };
        if self.body_of(b) != Some(l) {
            return false;
        }
        match (self.chains.get(&a), self.chains.get(&b)) {
            (Some(x), Some(y)) => x != y,
            _ => true,
        }
    }
}

/// An element access `x[e0]…[ek]` in a body: each index by its address, with its `β`
/// when it is `j + β` of the loop's counter `j`.
struct Chain {
    offset: usize,
    base: Option<String>,
    indices: Vec<(usize, Option<i64>)>,
    write: bool,
}

/// What a body holds.
struct Body<'j> {
    j: &'j str,
    declared: HashSet<String>,
    chains: Vec<Chain>,
    /// The first thing the rules refuse, with its offset.
    refused: Option<(String, usize)>,
}

impl Body<'_> {
    fn refuse(&mut self, why: &str, at: usize) {
        self.refused.get_or_insert((why.to_string(), at));
    }

    /// `x[e0]…[ek]`: `x` (if a name) and the indices in order.
    fn chain(&self, e: &Node<Expression>) -> (Option<String>, Vec<(usize, Option<i64>)>) {
        let (base, indices) = super::bounds::index_chain(e);
        let indices = indices
            .into_iter()
            .map(|i| {
                (
                    i as *const Node<Expression> as usize,
                    lane_offset(i, self.j),
                )
            })
            .collect();
        let name = super::worksharing::name_of(base).map(str::to_string);
        (name, indices)
    }

    /// The written lvalue `lv`: a scalar the body declares, or an element of a name.
    fn written(&mut self, lv: &Node<Expression>) {
        match &lv.node {
            Expression::Identifier(i) if self.declared.contains(&i.node.name) => {}
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                if let Some(c) = self.chains.iter_mut().find(|c| c.offset == lv.span.start) {
                    c.write = true;
                }
            }
            _ => self.refuse(
                "a `simd` loop writes what its iterations share",
                lv.span.start,
            ),
        }
    }
}

impl Visitor for Body<'_> {
    type Error = std::convert::Infallible;
    const UNEVALUATED: bool = false;
    fn declarator(&mut self, d: &Node<Declarator>) -> Result<Walk, Self::Error> {
        if let Some(n) = declarator_name(&d.node) {
            self.declared.insert(n.to_string());
        }
        if !d.node.derived.is_empty() {
            self.refuse("a `simd` loop declares a pointer or an array", d.span.start);
        }
        Ok(Walk::Descend)
    }
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Self::Error> {
        if super::worksharing::jumps(&s.node) {
            self.refuse("a `simd` loop jumps", s.span.start);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
        match &e.node {
            Expression::Call(_) => self.refuse("a `simd` loop calls a function", e.span.start),
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.refuse("a `simd` loop takes an address", e.span.start)
            }
            // The whole chain once; its indices are walked for chains of their own.
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index
                    && !self.chains.iter().any(|c| c.offset == e.span.start) =>
            {
                let (base, indices) = self.chain(e);
                self.chains.push(Chain {
                    offset: e.span.start,
                    base,
                    indices,
                    write: false,
                });
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// The writes of a body, after its chains are known.
struct Writes<'b, 'j>(&'b mut Body<'j>);

impl Visitor for Writes<'_, '_> {
    type Error = std::convert::Infallible;
    const UNEVALUATED: bool = false;
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                self.0.written(&b.node.lhs)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.0.written(&u.node.operand)
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}

/// `j + β` of the counter `j`: β.
fn lane_offset(e: &Node<Expression>, j: &str) -> Option<i64> {
    let (names, b) = linear(e)?;
    (names.len() == 1 && names.get(j) == Some(&1)).then_some(b)
}

/// Do two accesses of one name's elements differ in two iterations (module doc)?
fn lane_apart(w: &Chain, c: &Chain, in_bounds: &HashSet<usize>) -> bool {
    let n = w.indices.len();
    n == c.indices.len()
        && (0..n).any(|p| {
            let (a, b) = (w.indices[p].1, c.indices[p].1);
            let within = |q: usize| {
                in_bounds.contains(&w.indices[q].0) && in_bounds.contains(&c.indices[q].0)
            };
            a.is_some() && a == b && (p.max(1)..n).all(within)
        })
}

/// `j++;` (or `++j;`, `j += 1;`, `j = j + 1;`): `j`.
fn incremented(i: &Node<BlockItem>) -> Option<&str> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    let target = match &e.node {
        Expression::UnaryOperator(u) => &u.node.operand,
        Expression::BinaryOperator(b) => &b.node.lhs,
        _ => return None,
    };
    let j = super::worksharing::name_of(target)?;
    super::bounds::increments(i, j).then_some(j)
}

/// Finds the `simd` bodies in the loops `while (…) { …; body; …; j++; }` and checks
/// each.
struct Find<'s> {
    simd: &'s [(usize, usize)],
    in_bounds: &'s HashSet<usize>,
    found: HashSet<(usize, usize)>,
    lanes: Lanes,
    refused: Option<(String, usize)>,
}

impl Visitor for Find<'_> {
    type Error = std::convert::Infallible;
    const UNEVALUATED: bool = true;
    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Self::Error> {
        let Statement::While(w) = &s.node else {
            return Ok(Walk::Descend);
        };
        let Statement::Compound(items) = &w.node.statement.node else {
            return Ok(Walk::Descend);
        };
        let Some(j) = items.last().and_then(incremented) else {
            return Ok(Walk::Descend);
        };
        for i in &items[..items.len() - 1] {
            if let BlockItem::Statement(b) = &i.node {
                let span = (b.span.start, b.span.end);
                if self.simd.contains(&span) {
                    self.found.insert(span);
                    if let Err(why) = self.body(j, b) {
                        self.refused.get_or_insert(why);
                    }
                }
            }
        }
        Ok(Walk::Descend)
    }
}

impl Find<'_> {
    /// Checks one body of the loop of counter `j` (module doc).
    fn body(&mut self, j: &str, b: &Node<Statement>) -> Result<(), (String, usize)> {
        let mut body = Body {
            j,
            declared: HashSet::new(),
            chains: vec![],
            refused: None,
        };
        let _ = visit::stmt(&mut body, b);
        let _ = visit::stmt(&mut Writes(&mut body), b);
        if let Some(why) = body.refused {
            return Err(why);
        }
        for w in body.chains.iter().filter(|c| c.write) {
            let Some(x) = &w.base else {
                return Err((
                    "a `simd` loop writes what its iterations share".into(),
                    w.offset,
                ));
            };
            if body.declared.contains(x) {
                return Err((
                    "a `simd` loop writes through a name it declares".into(),
                    w.offset,
                ));
            }
            let same = body.chains.iter().filter(|c| c.base.as_ref() == Some(x));
            for c in same {
                if !lane_apart(w, c, self.in_bounds) {
                    let why =
                        format!("two iterations of a `simd` loop may access one element of `{x}`");
                    return Err((why, w.offset));
                }
            }
        }
        for c in body.chains {
            if let Some(x) = c.base.filter(|x| !body.declared.contains(x)) {
                self.lanes.chains.insert(c.offset, x);
            }
        }
        Ok(())
    }
}

/// Checks the `simd` bodies `simd` (spans) of `unit` (module doc): what the judge needs,
/// or why not.
pub(super) fn check(
    unit: &TranslationUnit,
    simd: &[(usize, usize)],
    in_bounds: &HashSet<usize>,
) -> Result<Lanes, (String, usize)> {
    let mut find = Find {
        simd,
        in_bounds,
        found: HashSet::new(),
        lanes: Lanes {
            bodies: simd.to_vec(),
            chains: HashMap::new(),
        },
        refused: None,
    };
    let _ = visit::unit(&mut find, unit);
    if let Some(why) = find.refused {
        return Err(why);
    }
    if let Some(&(start, _)) = simd.iter().find(|s| !find.found.contains(s)) {
        return Err((
            "a `simd` loop of a shape the proof does not read".into(),
            start,
        ));
    }
    Ok(find.lanes)
}
