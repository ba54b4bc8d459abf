//! Reads in the sizes of variably modified types, read into temporaries before the block
//! item that evaluates them ([`VlaReads`]).

use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::{Queue, Walk};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

/// Reads in the sizes of variably modified types (`int a[g];`, `sizeof(int[g])`, a cast to
/// `int (*)[g]`), which C evaluates: a size that reads a global object or through a pointer
/// is read into a temporary before the block item, `__typeof__(g) t; t = g;`, and the type
/// uses `t`, so `race` sees the read. Such a size in a loop's condition, step or
/// initialiser (read again on every iteration) is unsupported.
pub(super) struct VlaReads<'a> {
    pub(super) names: &'a mut Names,
    pub(super) globals: &'a HashSet<String>,
    pub(super) queue: Queue,
}

/// True if evaluating `e` reads memory other than locals: a global object, `*p`, `a[i]`,
/// `p->f`.
fn reads_memory(e: &Node<Expression>, globals: &HashSet<String>) -> bool {
    struct MemoryReads<'a> {
        globals: &'a HashSet<String>,
        found: bool,
    }
    impl Visitor for MemoryReads<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            match &e.node {
                Expression::Identifier(i) if self.globals.contains(&i.node.name) => {
                    self.found = true
                }
                Expression::UnaryOperator(u)
                    if u.node.operator.node == UnaryOperator::Indirection =>
                {
                    self.found = true
                }
                Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                    self.found = true
                }
                Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => {
                    self.found = true
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut reads = MemoryReads {
        globals,
        found: false,
    };
    let Ok(()) = visit::expr(&mut reads, e);
    reads.found
}

/// The array sizes of `d` (not of its parameters) that read memory.
fn vla_sizes_mut<'d>(
    d: &'d mut Node<Declarator>,
    globals: &HashSet<String>,
) -> Vec<&'d mut Node<Expression>> {
    let mut out = vec![];
    if d.node.derived.iter().any(|x| {
        matches!(
            x.node,
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_)
        )
    }) {
        return out;
    }
    for dd in &mut d.node.derived {
        if let DerivedDeclarator::Array(a) = &mut dd.node {
            if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                &mut a.node.size
            {
                if reads_memory(e, globals) {
                    out.push(&mut **e);
                }
            }
        }
    }
    out
}

impl VlaReads<'_> {
    /// Refuses a variably modified type whose size reads memory in `e`.
    fn refuse_in(&self, e: &Node<Expression>, what: &str) -> Result<()> {
        struct FirstVlaSize<'a> {
            globals: &'a HashSet<String>,
            span: Option<Span>,
        }
        impl VisitorMut for FirstVlaSize<'_> {
            type Error = Infallible;
            fn declarator(
                &mut self,
                d: &mut Node<Declarator>,
            ) -> std::result::Result<Walk, Infallible> {
                if let Some(e) = vla_sizes_mut(d, self.globals).first() {
                    self.span = Some(e.span);
                }
                Ok(Walk::Descend)
            }
        }
        let mut first = FirstVlaSize {
            globals: self.globals,
            span: None,
        };
        let mut e = e.clone();
        let Ok(()) = visit_mut::expr(&mut first, &mut e);
        match first.span {
            Some(span) => Err(Error::unsupported(
                span,
                format!("a variable array size that reads memory in a loop's {what}"),
            )),
            None => Ok(()),
        }
    }
}

impl VisitorMut for VlaReads<'_> {
    type Error = Error;
    fn queue(&mut self) -> Option<&mut Queue> {
        Some(&mut self.queue)
    }
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        match &mut s.node {
            Statement::While(w) => {
                self.refuse_in(&w.node.expression, "condition")?;
                visit_mut::stmt(self, &mut w.node.statement)?;
            }
            Statement::DoWhile(w) => {
                self.refuse_in(&w.node.expression, "condition")?;
                visit_mut::stmt(self, &mut w.node.statement)?;
            }
            Statement::For(f) => {
                for e in [&f.node.condition, &f.node.step].into_iter().flatten() {
                    self.refuse_in(e, "condition or step")?;
                }
                if let ForInitializer::Expression(e) = &f.node.initializer.node {
                    self.refuse_in(e, "initialiser")?;
                }
                if let ForInitializer::Declaration(d) = &f.node.initializer.node {
                    for id in &d.node.declarators {
                        let mut dd = id.node.declarator.clone();
                        if let Some(e) = vla_sizes_mut(&mut dd, self.globals).first() {
                            return Err(Error::unsupported(
                                e.span,
                                "a variable array size that reads memory in a loop's initialiser",
                            ));
                        }
                    }
                }
                visit_mut::stmt(self, &mut f.node.statement)?;
            }
            _ => return Ok(Walk::Descend),
        }
        Ok(Walk::Skip)
    }
    fn declarator(&mut self, d: &mut Node<Declarator>) -> Result<Walk> {
        let globals = self.globals;
        for e in vla_sizes_mut(d, globals) {
            let span = e.span;
            let t = self.names.temp();
            let v = std::mem::replace(e, ident(&t, span));
            self.queue
                .insert_before(decl_item(typeof_decl(&t, v.clone(), false, span)));
            self.queue
                .insert_stmt_before(expr_stmt(assign(ident(&t, span), v, span)));
        }
        Ok(Walk::Descend)
    }
}
