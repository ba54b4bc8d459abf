//! N5: `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` grouped into one compound
//! statement, early exits of a section moved behind it.

use super::{stmt_item, Items};
use crate::normal_form::called;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names::Names;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// True for `return …;` and `goto …;`.
fn is_jump(it: Option<&Node<BlockItem>>) -> bool {
    matches!(it.map(|i| &i.node), Some(BlockItem::Statement(s))
        if matches!(s.node, Statement::Return(_) | Statement::Goto(_)))
}

/// Wraps `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` into one compound statement
/// (N5). Declarations inside the section move in front of it, so they stay in scope after it.
/// An early exit `__VERIFIER_atomic_end(); return e;` (or `goto`) in a nested block of the
/// section becomes `flag = k; goto section_end;`, and the jump moves behind the section as
/// `if (flag == k) return e;` (`e` was evaluated after the end marker in C too).
pub(super) fn group_atomic(items: Items, span: Span, names: &mut Names) -> Result<Items> {
    if !items
        .iter()
        .any(|i| matches!(called(i), Some(abi::ATOMIC_BEGIN | abi::ATOMIC_END)))
    {
        return Ok(items);
    }
    let mut out = vec![];
    let mut section: Option<(Items, Items)> = None; // (moved declarations, statements)
    let mut items = items.into_iter().peekable();
    while let Some(it) = items.next() {
        match (called(&it), &mut section) {
            (Some(abi::ATOMIC_BEGIN), None) => section = Some((vec![], vec![it])),
            (Some(abi::ATOMIC_BEGIN), Some(_)) => {
                return Err(Error::unsupported(
                    it.span,
                    "nested `__VERIFIER_atomic_begin`",
                ))
            }
            (Some(abi::ATOMIC_END), Some(_)) => {
                let (decls, mut body) = section.take().unwrap();
                out.extend(decls);
                let flag = names.temp();
                let done = names.label("atomic_exit");
                let mut exits = vec![];
                for b in body.iter_mut().skip(1) {
                    if let BlockItem::Statement(s) = &mut b.node {
                        rewrite_exits(s, &flag, &done, &mut exits);
                    }
                }
                if exits.is_empty() {
                    body.push(it);
                    out.push(stmt_item(block(body, span)));
                    continue;
                }
                out.push(decl_item(simple_decl(
                    &[TypeSpecifier::Int],
                    &flag,
                    None,
                    false,
                    None,
                    span,
                )));
                out.push(stmt_item(expr_stmt(assign(
                    ident(&flag, span),
                    int(0, span),
                    span,
                ))));
                body.push(stmt_item(labeled(&done, empty_stmt(span), span)));
                body.push(it);
                out.push(stmt_item(block(body, span)));
                for (k, jump) in exits.into_iter().enumerate() {
                    let js = jump.span;
                    out.push(stmt_item(if_stmt(
                        eq(ident(&flag, js), int(k as u64 + 1, js), js),
                        jump,
                        None,
                        js,
                    )));
                }
            }
            (Some(abi::ATOMIC_END), None) if is_jump(items.peek()) => {
                // an early exit of a section opened in an enclosing block; that block's
                // grouping rewrites it (or reports it when there is none)
                out.push(it);
            }
            (Some(abi::ATOMIC_END), None) => {
                return Err(Error::unsupported(
                    it.span,
                    "`__VERIFIER_atomic_end` without `__VERIFIER_atomic_begin` in the same block",
                ))
            }
            (_, Some((decls, body))) => {
                if matches!(it.node, BlockItem::Declaration(_)) {
                    decls.push(it);
                } else {
                    body.push(it);
                }
            }
            (_, None) => out.push(it),
        }
    }
    if let Some((_, body)) = section {
        return Err(Error::unsupported(
            body[0].span,
            "`__VERIFIER_atomic_begin` without `__VERIFIER_atomic_end` in the same block",
        ));
    }
    Ok(out)
}

/// See [`group_atomic`]: rewrites `__VERIFIER_atomic_end(); jump` pairs nested in `s`.
fn rewrite_exits(
    s: &mut Node<Statement>,
    flag: &str,
    done: &str,
    exits: &mut Vec<Node<Statement>>,
) {
    match &mut s.node {
        Statement::Compound(items) => {
            let mut k = 0;
            while k < items.len() {
                if called(&items[k]) == Some(abi::ATOMIC_END) && is_jump(items.get(k + 1)) {
                    let sp = items[k].span;
                    let jump = std::mem::replace(&mut items[k + 1], stmt_item(goto(done, sp)));
                    if let BlockItem::Statement(j) = jump.node {
                        exits.push(j);
                    }
                    items[k] = stmt_item(expr_stmt(assign(
                        ident(flag, sp),
                        int(exits.len() as u64, sp),
                        sp,
                    )));
                    k += 2;
                    continue;
                }
                if let BlockItem::Statement(st) = &mut items[k].node {
                    rewrite_exits(st, flag, done, exits);
                }
                k += 1;
            }
        }
        Statement::If(i) => {
            rewrite_exits(&mut i.node.then_statement, flag, done, exits);
            if let Some(e) = &mut i.node.else_statement {
                rewrite_exits(e, flag, done, exits);
            }
        }
        Statement::While(w) => rewrite_exits(&mut w.node.statement, flag, done, exits),
        Statement::Labeled(l) => rewrite_exits(&mut l.node.statement, flag, done, exits),
        _ => {}
    }
}
