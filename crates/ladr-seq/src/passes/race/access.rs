//! The walk of `race` over a visible statement: the modes ACC and NACC, which lvalues are
//! accesses of shared memory, the numbering of access sites (`Program::sites`) and the
//! address of an access (a bit-field's by its [`BitAnchor`]).

use super::Exclusion;
use ladr_c::diag::{Error, Result};
use ladr_c::print::expr_to_string;
use ladr_c::syntax::build::*;
use ladr_c::syntax::query;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{self, is_assign_op, Walk};
use ladr_ir::abi;
use ladr_ir::analysis::{address_target, BitAnchor, Vars};
use ladr_ir::program::{AccessKey, Site};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::BTreeMap;

/// The instrumentation of one visible statement: its accesses get site ids (numbered on
/// from `sites`) and flag code in place.
pub(super) struct Instrumenter<'a> {
    pub(super) vars: &'a Vars,
    pub(super) slot: usize,
    pub(super) label: u32,
    pub(super) atomic: bool,
    pub(super) sites: &'a mut Vec<Site>,
    pub(super) exclusion: Option<&'a Exclusion>,
    /// The program frees blocks: accesses through pointers also check C1's `c1_free`.
    pub(super) frees: bool,
    /// [`Program::libc_calls`](ladr_ir::program::Program::libc_calls): which function's call
    /// an access of a library function's hidden state stands for.
    pub(super) libc_calls: &'a BTreeMap<AccessKey, String>,
    /// [`Program::vla_rows`](ladr_ir::program::Program::vla_rows).
    pub(super) vla_rows: &'a std::collections::HashMap<String, String>,
}

impl VisitorMut for Instrumenter<'_> {
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

impl Instrumenter<'_> {
    pub(super) fn site(&mut self, e: &Node<Expression>, write: bool, atomic: bool) -> u32 {
        let id = self.sites.len() as u32;
        // The hidden state of a C library function (`threads`): named by the call.
        let libc_state = match &e.node {
            Expression::Identifier(i) if abi::libc_state_group(&i.node.name).is_some() => {
                self.libc_calls.get(&e.span.into()).cloned()
            }
            _ => None,
        };
        let (expr, vars) = match &libc_state {
            Some(f) => (format!("libc's state of `{f}`"), vec![]),
            None => user_text(e, self.vla_rows),
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
            vars,
        });
        id
    }

    /// Does the object `e` designates live in shared memory?
    pub(super) fn storage_shared(&self, e: &Expression) -> bool {
        match e {
            Expression::Identifier(i) => self.vars.is_shared_var(&i.node.name),
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.storage_shared(&m.node.expression.node),
                // `((T)(&s))->f` (a folded pointer) is in `s`'s storage; any other pointer
                // may point anywhere.
                MemberOperator::Indirect => match address_target(&m.node.expression.node) {
                    Some(s) => self.storage_shared(&s.node),
                    // A pointer into its thread's own memory (`ladr_ir::confined`).
                    None => !self.vars.points_into_own_thread(&m.node.expression.node),
                },
            },
            Expression::UnaryOperator(u) => {
                u.node.operator.node == UnaryOperator::Indirection
                    && !self.vars.points_into_own_thread(&u.node.operand.node)
                    // A library call's read of its format string is no access.
                    && !ladr_ir::confined::into_literal(&u.node.operand.node)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                if self.vars.array_depth(&b.node.lhs.node) > 0 {
                    self.storage_shared(&b.node.lhs.node)
                } else {
                    !self.vars.points_into_own_thread(&b.node.lhs.node)
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

    /// The address whose bytes stand for `e` (`&e`; for a bit-field, whose address
    /// cannot be taken, one byte of its memory location as its [`BitAnchor`] says, or the
    /// containing object when that is not known).
    pub(super) fn address(&self, e: &Node<Expression>) -> Node<Expression> {
        let span = e.span;
        if let Expression::Member(m) = &e.node {
            if let Some(anchor) = self.vars.bit_fields.anchor(&m.node) {
                let arrow = m.node.operator.node == MemberOperator::Indirect;
                let object = (*m.node.expression).clone();
                let whole = if arrow {
                    object.clone()
                } else {
                    addr(object.clone(), span)
                };
                let bytes = |a| cast(type_name(&[TypeSpecifier::Char], 1, span), a, span);
                return match &anchor {
                    BitAnchor::Unknown => whole,
                    BitAnchor::Start => bytes(whole),
                    BitAnchor::Offset(k) => {
                        binop(BinaryOperator::Plus, bytes(whole), int(*k, span), span)
                    }
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

    /// Does lvalue `e` name its object and place without a pointer or a computed index (`x`,
    /// `s.f`, `a[2]` of an array)?
    pub(super) fn names_object(&self, e: &Expression) -> bool {
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
    pub(super) fn write_code(&mut self, lv: &Node<Expression>) -> Vec<Node<Expression>> {
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
    pub(super) fn acc(&mut self, e: Node<Expression>) -> Node<Expression> {
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
}

/// The lvalue as the user wrote it: generated local names mapped back, a matrix's element
/// and row indexed by hand (`vla_rows`) as `b[i][j]` and `b[i]`.
/// `e` as C text with the user's names, and the variables it names (user's name, name in
/// the program).
fn user_text(
    e: &Node<Expression>,
    vla_rows: &std::collections::HashMap<String, String>,
) -> (String, Vec<(String, String)>) {
    struct OriginalNames<'a>(
        Vec<(String, String)>,
        &'a std::collections::HashMap<String, String>,
    );
    impl VisitorMut for OriginalNames<'_> {
        type Error = std::convert::Infallible;
        fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Self::Error> {
            if let Some(user) = matrix_view(e, self.1) {
                *e = user;
            }
            if let Some(v) = ladr_c::syntax::build::folded_var(&e.node) {
                // A read `constprop` replaced by its constant: the variable read.
                let name = ladr_c::syntax::names::original_name(v).to_string();
                self.add(name.clone(), v.to_string());
                e.node = Expression::Identifier(Box::new(Node::new(Identifier { name }, e.span)));
                return Ok(Walk::Skip);
            }
            if let Expression::Identifier(i) = &mut e.node {
                let user = ladr_c::syntax::names::original_name(&i.node.name).to_string();
                let name = std::mem::replace(&mut i.node.name, user.clone());
                self.add(user, name);
            }
            Ok(Walk::Descend)
        }
    }
    impl OriginalNames<'_> {
        fn add(&mut self, user: String, name: String) {
            if !self.0.iter().any(|(_, n)| *n == name) {
                self.0.push((user, name));
            }
        }
    }
    let mut e = e.clone();
    let mut names = OriginalNames(vec![], vla_rows);
    let Ok(()) = visit_mut::expr(&mut names, &mut e);
    (expr_to_string(&e.node), names.0)
}

/// `m[(i) * d + (j)]` of a matrix's memory `m` and its row length `d` ([`user_text`]):
/// `m[i][j]`; `m + (i) * d`: `m[i]`.
fn matrix_view(
    e: &Node<Expression>,
    vla_rows: &std::collections::HashMap<String, String>,
) -> Option<Node<Expression>> {
    use ladr_c::syntax::build::{ident_name, index};
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    let store = ident_name(&b.node.lhs)?;
    let row = vla_rows.get(store)?;
    // `(i) * d`: `i`.
    let row_index = |x: &Node<Expression>| match &x.node {
        Expression::BinaryOperator(m)
            if m.node.operator.node == BinaryOperator::Multiply
                && ident_name(&m.node.rhs) == Some(row.as_str()) =>
        {
            Some((*m.node.lhs).clone())
        }
        _ => None,
    };
    let span = e.span;
    match b.node.operator.node {
        BinaryOperator::Index => {
            let Expression::BinaryOperator(p) = &b.node.rhs.node else {
                return None;
            };
            if p.node.operator.node != BinaryOperator::Plus {
                return None;
            }
            let i = row_index(&p.node.lhs)?;
            let rowx = index((*b.node.lhs).clone(), i, span);
            Some(index(rowx, (*p.node.rhs).clone(), span))
        }
        BinaryOperator::Plus => Some(index((*b.node.lhs).clone(), row_index(&b.node.rhs)?, span)),
        _ => None,
    }
}

fn walk_has_statement_expr(e: &Node<Expression>) -> bool {
    query::any_expr(e, query::Operands::All, |e| {
        matches!(e.node, Expression::Statement(_))
    })
}
