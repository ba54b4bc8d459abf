//! A slot's copy of a routine: the body of `main` or of a start routine with its locals
//! and labels renamed apart, its parameters declared and assigned (from the thread's
//! argument, or `main`'s from the model), and its returns (and `pthread_once` routines'
//! returns) made jumps to its end.

use super::constants::is_constant;
use ladr_c::diag::Result;
use ladr_c::syntax::build::*;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, end_label};
use ladr_ir::program::{Cut, CutKind, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;
use std::convert::Infallible;

/// The prototype of a function definition (its address may still be used).
pub(super) fn prototype(f: &Node<FunctionDefinition>) -> Node<ExternalDeclaration> {
    let span = f.span;
    let specifiers = f
        .node
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::Function(_)))
        .cloned()
        .collect();
    node(
        ExternalDeclaration::Declaration(declare(
            specifiers,
            f.node.declarator.clone(),
            None,
            span,
        )),
        span,
    )
}

/// Parameter names and declarations of a function definition.
pub(super) fn parameters(f: &FunctionDefinition) -> Vec<(String, ParameterDeclaration)> {
    let mut out = vec![];
    for d in &f.declarator.node.derived {
        if let DerivedDeclarator::Function(fd) = &d.node {
            for p in &fd.node.parameters {
                if let Some(decl) = &p.node.declarator {
                    if let Some(n) = declarator_name(&decl.node) {
                        out.push((n.to_string(), p.node.clone()));
                    }
                }
            }
        }
    }
    out
}

/// A copy of `f`'s body for slot `k`: locals and labels renamed, parameters declared and
/// assigned from the thread argument, returns turned into jumps to the end.
pub(super) fn clone_routine(
    p: &mut Program,
    f: &FunctionDefinition,
    k: usize,
) -> Result<Node<Statement>> {
    let span = f.statement.span;
    let params = parameters(f);
    let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    let mut body = f.statement.clone();
    let mut r = Copier::new(&mut p.names, Rename::All);
    r.labels_on_demand = true;
    for n in &names {
        r.param(n);
    }
    r.body(&mut body);
    let renamed: Vec<(String, String)> = names
        .iter()
        .map(|n| (n.clone(), r.outer(n).unwrap_or(n).to_string()))
        .collect();
    let mut items: Vec<Node<BlockItem>> = vec![];
    for ((_, new), (_, pd)) in renamed.iter().zip(params.iter()) {
        let mut decl = pd.declarator.clone().expect("named parameter");
        if let Some(i) = declarator_name_mut(&mut decl.node) {
            i.name = new.clone();
        }
        params_to_pointers(&mut decl.node);
        items.push(decl_item(declare(pd.specifiers.clone(), decl, None, span)));
    }
    if k == 0 {
        main_arguments(p, &renamed, &body, f.declarator.span, &mut items);
    }
    // Only the first parameter of a start routine receives the argument.
    if k > 0 {
        if let Some((_, new)) = renamed.first() {
            let tn = type_name(&[typeof_expr(ident(new, span), span)], 0, span);
            let arg = abi::per_slot(abi::ARG, k, span);
            items.push(item(expr_stmt(assign(
                ident(new, span),
                cast(tn, arg, span),
                span,
            ))));
        }
    }
    let Ok(()) = visit_mut::stmt(&mut ReturnRewriter { slot: k }, &mut body);
    items.push(item(body));
    let end = end_label(k);
    if k == 0 {
        // Falling off `main` ends the process: no later context may run.
        items.push(item(assume(int(0, span), span)));
    }
    items.push(item(labeled(&end, empty_stmt(span), span)));
    Ok(block(items, span))
}

/// `main(argc, argv[, envp])` gets its arguments from the model (`__ladr_main_args`):
/// `argc` is 1 to 4, `argv` holds that many strings of nondeterministic characters.
/// Longer command lines are not explored: an `arguments` cut when `main` reads them.
fn main_arguments(
    p: &mut Program,
    params: &[(String, String)],
    body: &Node<Statement>,
    span: Span,
    items: &mut Vec<Node<BlockItem>>,
) {
    let values = [
        call(abi::MAIN_ARGS, vec![], span),
        ident(abi::ARGV, span),
        addr(index(ident(abi::ARGV, span), int(4, span), span), span),
    ];
    for ((_, name), value) in params.iter().zip(values) {
        items.push(item(expr_stmt(assign(ident(name, span), value, span))));
    }
    let names: Vec<&str> = params.iter().map(|(_, n)| n.as_str()).collect();
    if ladr_c::syntax::walk::mentions(body, &names) {
        p.cuts.push(Cut {
            kind: CutKind::Arguments,
            span,
        });
    }
}

/// Array and function parameters become pointers.
pub(super) fn params_to_pointers(d: &mut Declarator) {
    if let Some(last) = d.derived.last_mut() {
        match &last.node {
            DerivedDeclarator::Array(_) => {
                last.node = DerivedDeclarator::Pointer(vec![]);
            }
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => {
                let span = last.span;
                let inner = std::mem::replace(
                    d,
                    Declarator {
                        kind: node(DeclaratorKind::Abstract, span),
                        derived: vec![],
                        extensions: vec![],
                    },
                );
                let fun = inner.derived.clone();
                let kind = inner.kind;
                *d = Declarator {
                    kind: node(
                        DeclaratorKind::Declarator(Box::new(node(
                            Declarator {
                                kind,
                                derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                                extensions: vec![],
                            },
                            span,
                        ))),
                        span,
                    ),
                    derived: fun,
                    extensions: inner.extensions,
                };
            }
            _ => {}
        }
    }
}

/// What becomes of a thread's exit value `e` (of `return e;` or `pthread_exit(e)`): slot
/// k > 0 stores it for `pthread_join`, `__ladr_retval[k] = (void *)(e);`; in slot 0 it is
/// only evaluated, `e;` (its reads are data accesses), unless it is a constant.
pub(super) fn exit_value(slot: usize, e: Node<Expression>, span: Span) -> Option<Node<Statement>> {
    if slot > 0 {
        Some(expr_stmt(assign(
            abi::per_slot(abi::RETVAL, slot, span),
            cast(type_name(&[TypeSpecifier::Void], 1, span), e, span),
            span,
        )))
    } else if is_constant(&e.node, &HashSet::new()) {
        None
    } else {
        Some(expr_stmt(e))
    }
}

/// `return e;` → `__ladr_retval[k] = (void *)(e); goto __ladr_endK;` (in main: `goto` to the
/// process end, which is followed by the `assume(0)`).
struct ReturnRewriter {
    slot: usize,
}

impl VisitorMut for ReturnRewriter {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Return(e) = &mut s.node {
            let span = s.span;
            let mut stmts = vec![];
            if let Some(e) = e.take() {
                stmts.extend(exit_value(self.slot, *e, span));
            }
            let target = if self.slot == 0 {
                // `return` from main = `exit`: the process ends here.
                stmts.push(assume(int(0, span), span));
                end_label(0)
            } else {
                end_label(self.slot)
            };
            stmts.push(goto(&target, span));
            *s = block_of(stmts, span);
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// `return;` in a `pthread_once` routine → `goto end`.
pub(super) struct OnceReturns {
    pub(super) end: String,
}

impl VisitorMut for OnceReturns {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Return(_) = s.node {
            *s = goto(&self.end, s.span);
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// The function a start-routine argument names: `f`, `&f`, `(T) f`.
pub(crate) fn routine_name(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            routine_name(&u.node.operand.node)
        }
        Expression::Cast(c) => routine_name(&c.node.expression.node),
        _ => None,
    }
}
