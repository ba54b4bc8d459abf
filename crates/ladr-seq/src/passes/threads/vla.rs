//! Matrices with rows of a variable length, in a slot body made static
//! (`docs/decisions/passes.md`, "Variable-length arrays"). A static cannot have a variable
//! length, and giving every length [`super::VLA_CAPACITY`] elements keeps the elements of a
//! one-dimensional array where they were, but not those of `double b[n][m]`: with rows of 256
//! elements `b[1][2]` is no longer `(&b[0][0])[5]` nor `b[2][-1]`, so races through the
//! array's memory (a pointer to its first element, a row overrun, DataRaceBench's DRB015)
//! were missed, with no bound stated. Such a local is kept as its row length and its memory,
//! statics of the slot, and indexed by hand (CBMC 6.6 loses the length of a
//! variable-length type in a cast):
//!
//! * `T b[e0][e1]` (`e1` not a constant) becomes `b_d0 = e0; b_d1 = e1; b' =
//!   __ladr_vla(b_d0 * b_d1 * sizeof *b');` where it was declared (`T *b'`, a fresh static
//!   named after `b`; the lengths `unsigned int`), assumed to have at most 2^31 elements (no
//!   stack holds more), so that an element's index is exact in 32 bits and never meets
//!   another element's (a false race of DRB015 with `n` near 2^28 when lengths were 64-bit
//!   and unbounded);
//! * a pointer to such rows, `T (*p)[e1]` (the OpenMP lowering's capture of a matrix),
//!   becomes `p_d1 = e1;` where it was declared (`T *p'`), and `p = v` stores `p' = v`;
//! * then `x[i][j]` is `x'[(i) * x_d1 + (j)]` (which `race` reports as `x[i][j]`,
//!   `Program::vla_rows`), a row `x[i]` (or `*x`) is `(x' + (i) * x_d1)`, `sizeof b` is
//!   `b_d0 * b_d1 * sizeof *b'` (a row's `x_d1 * sizeof *x'`), and `x` alone only where its
//!   value is all that counts (assigned, cast, passed to a function; `&b` passed too): the
//!   address of its first element.
//!
//! Any other use (`b + 1`, `&b`, `p++`), a third dimension of a variable length, or any other
//! declarator with a variable length after its first is "unsupported" (exit 2): never a
//! silent change of layout.

use super::constants::is_constant;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

/// The most elements a matrix with rows of a variable length is taken to have (2^31: 16 GiB
/// of `double`s, more than any thread's stack).
const MAX_ELEMENTS: u64 = 1 << 31;

/// How the uses of one rewritten local read.
pub(super) struct Use {
    /// The static holding the memory (`b'`) or the pointer's value (`p'`), `T *`.
    store: String,
    /// The static holding the row length.
    row: String,
    /// For an array, the static holding its number of rows (`sizeof b`).
    rows: Option<String>,
}

fn variable(x: &Node<DerivedDeclarator>, enumerators: &HashSet<String>) -> bool {
    matches!(&x.node, DerivedDeclarator::Array(a)
        if matches!(&a.node.size, ArraySize::VariableExpression(e) if !is_constant(&e.node, enumerators)))
}

/// Does `d` have a length that is not a constant after its first? (`T b[n][m]`: `m`; `T
/// (*p)[m]`: `m`, a pointer's pointee being all "after".)
fn variable_layout(d: &Declarator, enumerators: &HashSet<String>) -> bool {
    let outer = d.derived.iter().skip(1).any(|x| variable(x, enumerators));
    let inner = match &d.kind.node {
        DeclaratorKind::Declarator(i) => {
            variable_layout(&i.node, enumerators)
                || d.derived.first().is_some_and(|x| variable(x, enumerators))
        }
        _ => false,
    };
    outer || inner
}

/// The length expression of an array derived declarator.
fn length(x: &Node<DerivedDeclarator>) -> Option<&Node<Expression>> {
    match &x.node {
        DerivedDeclarator::Array(a) => match &a.node.size {
            ArraySize::VariableExpression(e) => Some(e),
            _ => None,
        },
        _ => None,
    }
}

/// A declarator rewritten: its name, how its uses read, the statements that declare it.
pub(super) type Rewritten = (String, Use, Vec<Node<Statement>>);

/// A declarator's name, its number of rows (an array's) and its row length.
type Shape<'d> = (&'d str, Option<&'d Node<Expression>>, &'d Node<Expression>);

/// The two shapes rewritten (module doc): `T b[e0][e1]`, or `T (*p)[e1]`: the name, the
/// number of rows of an array, the row length.
fn shape(d: &Declarator) -> Option<Shape<'_>> {
    match (&d.kind.node, d.derived.as_slice()) {
        (DeclaratorKind::Identifier(i), [r, c]) => {
            Some((&i.node.name, Some(length(r)?), length(c)?))
        }
        (DeclaratorKind::Declarator(inner), [c]) => {
            match (&inner.node.kind.node, inner.node.derived.as_slice()) {
                (DeclaratorKind::Identifier(i), [p])
                    if matches!(p.node, DerivedDeclarator::Pointer(_)) =>
                {
                    Some((&i.node.name, None, length(c)?))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// For a declaration of one variable-layout declarator (module doc): the statics it needs
/// (pushed to `statics`), the statements that take its place, and how its uses read.
/// `None` when no declarator of `d` has a variable layout.
pub(super) fn rewrite(
    d: &Node<Declaration>,
    enumerators: &HashSet<String>,
    names: &mut Names,
    statics: &mut Vec<Node<Declaration>>,
) -> Result<Option<Rewritten>> {
    let variable =
        |id: &Node<InitDeclarator>| variable_layout(&id.node.declarator.node, enumerators);
    if !d.node.declarators.iter().any(variable) {
        return Ok(None);
    }
    let unsupported = || {
        Error::unsupported(
            d.span,
            "a variable-length array whose rows have a variable length, other than a local \
             `T a[n][m]` or `T (*p)[m]` declared alone",
        )
    };
    let [id] = d.node.declarators.as_slice() else {
        return Err(unsupported());
    };
    let (name, rows_len, row_len) = shape(&id.node.declarator.node).ok_or_else(unsupported)?;
    if id.node.initializer.is_some() {
        return Err(unsupported());
    }
    let span = d.span;
    let ulong = [TypeSpecifier::Unsigned, TypeSpecifier::Long];
    // Lengths as `unsigned int`: index arithmetic in 32 bits.
    let uint = [TypeSpecifier::Unsigned, TypeSpecifier::Int];
    let mut stmts = vec![];
    let mut dim = |k: &str, e: &Node<Expression>, stmts: &mut Vec<Node<Statement>>| {
        let n = names.local(&format!("{name}_{k}"));
        statics.push(simple_decl(&uint, &n, None, true, None, span));
        stmts.push(expr_stmt(assign(ident(&n, span), e.clone(), span)));
        n
    };
    let rows = rows_len.map(|e| dim("d0", e, &mut stmts));
    let row = dim("d1", row_len, &mut stmts);
    // Named after the local: a race on its memory names `b[(i) * b_d1 + (j)]`.
    let store = names.local(name);
    // `T *store`, the declaration's specifiers (its storage classes were dropped).
    let mut specs: Vec<_> = d
        .node
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::StorageClass(_)))
        .cloned()
        .collect();
    specs.insert(0, storage(StorageClassSpecifier::Static, span));
    let pointer = vec![node(DerivedDeclarator::Pointer(vec![]), span)];
    statics.push(declaration(specs, &store, pointer, None, span));
    let u = Use { store, row, rows };
    if let Some(rows) = &u.rows {
        // At most `MAX_ELEMENTS` elements (a larger array has no executions: no stack
        // holds it), so an element's index `(i) * b_d1 + (j)` is exact in 32 bits and never
        // meets another element's (64-bit products of lengths made CBMC's formulas too hard
        // for DataRaceBench's DRB015): `b_d0 <= M && b_d1 <= M && (unsigned long) b_d0 *
        // b_d1 <= M`.
        let at_most = |e: Node<Expression>| {
            binop(
                BinaryOperator::LessOrEqual,
                e,
                int(MAX_ELEMENTS, span),
                span,
            )
        };
        let wide = cast(type_name(&ulong, 0, span), ident(rows, span), span);
        let product = binop(BinaryOperator::Multiply, wide, ident(&u.row, span), span);
        let lengths = and(
            at_most(ident(rows, span)),
            at_most(ident(&u.row, span)),
            span,
        );
        stmts.push(assume(and(lengths, at_most(product), span), span));
        let size = whole_size(&u, span);
        stmts.push(expr_stmt(assign(
            ident(&u.store, span),
            call(abi::VLA_MEMORY, vec![size], span),
            span,
        )));
    }
    Ok(Some((name.to_string(), u, stmts)))
}

impl Use {
    /// The names of its memory's static and of its row length's (`Program::vla_rows`).
    pub(super) fn view(&self) -> (String, String) {
        (self.store.clone(), self.row.clone())
    }
}

/// `rows * row * sizeof *store`: an array's bytes.
fn whole_size(u: &Use, span: Span) -> Node<Expression> {
    let rows = u.rows.as_deref().unwrap_or_default();
    let elems = binop(
        BinaryOperator::Multiply,
        ident(rows, span),
        ident(&u.row, span),
        span,
    );
    let elem = size_of_val(deref(ident(&u.store, span), span), span);
    binop(BinaryOperator::Multiply, elems, elem, span)
}

/// `(i) * row`: the first element of row `i`, as an offset.
fn row_start(u: &Use, i: Node<Expression>, span: Span) -> Node<Expression> {
    binop(BinaryOperator::Multiply, i, ident(&u.row, span), span)
}

/// Rewrites every use of the locals of `uses` in `body` (module doc).
pub(super) fn rewrite_uses(body: &mut Node<Statement>, uses: &HashMap<String, Use>) -> Result<()> {
    if uses.is_empty() {
        return Ok(());
    }
    struct Uses<'a>(&'a HashMap<String, Use>);
    impl<'a> Uses<'a> {
        fn named<'e>(&self, e: &'e Node<Expression>) -> Option<(&'e str, &'a Use)> {
            let n = ident_name(e)?;
            self.0.get(n).map(|u| (n, u))
        }
        /// `x[i]` of a rewritten `x`: `i`.
        fn row_of<'e>(&self, e: &'e Node<Expression>) -> Option<(&'a Use, &'e Node<Expression>)> {
            let Expression::BinaryOperator(b) = &e.node else {
                return None;
            };
            if b.node.operator.node != BinaryOperator::Index {
                return None;
            }
            let (_, u) = self.named(&b.node.lhs)?;
            Some((u, &b.node.rhs))
        }
    }
    impl VisitorMut for Uses<'_> {
        type Error = Error;
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
            let span = e.span;
            let refused = |n: &str| {
                Error::unsupported(
                    span,
                    format!(
                        "this use of `{}`, whose rows have a variable length (only its elements, \
                         rows, size and value are supported)",
                        ladr_c::syntax::names::original_name(n)
                    ),
                )
            };
            let new = match &e.node {
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    if let Some((u, i)) = self.row_of(&b.node.lhs) {
                        // `x[i][j]`: `store[(i) * row + (j)]`.
                        let at = binop(
                            BinaryOperator::Plus,
                            row_start(u, i.clone(), span),
                            (*b.node.rhs).clone(),
                            span,
                        );
                        Some(index(ident(&u.store, span), at, span))
                    } else if let Some((u, i)) = self.row_of(e) {
                        // A row `x[i]`: `(store + (i) * row)`.
                        Some(binop(
                            BinaryOperator::Plus,
                            ident(&u.store, span),
                            row_start(u, i.clone(), span),
                            span,
                        ))
                    } else {
                        None
                    }
                }
                Expression::UnaryOperator(x)
                    if x.node.operator.node == UnaryOperator::Indirection =>
                {
                    self.named(&x.node.operand)
                        .map(|(_, u)| ident(&u.store, span))
                }
                Expression::SizeOfVal(x) => {
                    let row = match &x.node.0.node {
                        Expression::UnaryOperator(d)
                            if d.node.operator.node == UnaryOperator::Indirection =>
                        {
                            self.named(&d.node.operand).map(|(_, u)| u)
                        }
                        _ => self.row_of(&x.node.0).map(|(u, _)| u),
                    };
                    match (self.named(&x.node.0), row) {
                        (Some((_, u)), _) if u.rows.is_some() => Some(whole_size(u, span)),
                        (Some((n, _)), _) => return Err(refused(n)),
                        // `sizeof b[i]`, `sizeof *p`: a row's bytes.
                        (None, Some(u)) => Some(binop(
                            BinaryOperator::Multiply,
                            ident(&u.row, span),
                            size_of_val(deref(ident(&u.store, span), span), span),
                            span,
                        )),
                        (None, None) => None,
                    }
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
                    match self.named(&b.node.lhs) {
                        Some((_, u)) if u.rows.is_none() => {
                            let mut rhs = (*b.node.rhs).clone();
                            self.value(&mut rhs)?;
                            Some(assign(ident(&u.store, span), rhs, span))
                        }
                        Some((n, _)) => return Err(refused(n)),
                        // `v = x`: the row's address.
                        None => self.named(&b.node.rhs).map(|(_, u)| {
                            assign((*b.node.lhs).clone(), ident(&u.store, span), span)
                        }),
                    }
                }
                Expression::Cast(c) => self
                    .named(&c.node.expression)
                    .map(|(_, u)| cast(c.node.type_name.clone(), ident(&u.store, span), span)),
                // Any other use of the name itself (`b + 1`, `&b`, `p++`).
                Expression::Identifier(_) => match self.named(e) {
                    Some((n, _)) => return Err(refused(n)),
                    None => None,
                },
                _ => None,
            };
            if let Some(mut n) = new {
                // Uses inside the new expression's parts (an index naming another matrix).
                visit_mut::expr(self, &mut n)?;
                *e = n;
                return Ok(Walk::Skip);
            }
            if let Expression::Call(c) = &mut e.node {
                // An argument: its value.
                for a in &mut c.node.arguments {
                    self.value(a)?;
                }
                visit_mut::expr(self, &mut c.node.callee)?;
                return Ok(Walk::Skip);
            }
            Ok(Walk::Descend)
        }
    }
    impl Uses<'_> {
        /// `e` where only its value counts: a rewritten `x` is the row's address.
        fn value(&mut self, e: &mut Node<Expression>) -> Result<()> {
            // `&b` of an array: the same address (`__CPROVER_havoc_object(&b)`).
            let address = match &e.node {
                Expression::UnaryOperator(x) if x.node.operator.node == UnaryOperator::Address => {
                    self.named(&x.node.operand)
                        .filter(|(_, u)| u.rows.is_some())
                }
                _ => None,
            };
            if let Some((_, u)) = self.named(e).or(address) {
                *e = ident(&u.store, e.span);
                return Ok(());
            }
            visit_mut::expr(self, e)
        }
    }
    visit_mut::stmt(&mut Uses(uses), body)?;
    Ok(())
}
