//! Inline assembly with operands, as the C the proof reads (`docs/decisions/static.md`,
//! "Inline assembly with operands"). GCC's extended `asm` reads and writes memory only
//! through its operands unless it clobbers `"memory"` (GCC's manual, "Extended Asm": the
//! compiler assumes nothing else is touched), so for the proof
//!
//! ```c
//! asm("bt %2,%1; sbb %0,%0" : "=r" (old) : "m" (*addr), "Ir" (nr));
//! ```
//!
//! is `{ *addr; nr; old = __VERIFIER_nondet_int(); }`: each input operand's expression is
//! read (an `"m"` operand is its memory), each output operand written with a value the
//! proof does not know (`"+…"`: read, then written), in that order. Every rule then sees
//! the writes as assignments (an element lock's key, a block's owner, an index: an output
//! is never one the rules trust). Assembly that clobbers `"memory"` may touch anything and
//! still stops the proof, unless it is inert ([`super::pure::inert_asm`]); basic `asm`
//! without operands is left as it is (inert or a stop).

use super::pure::text_of;
use ladr_c::syntax::build::{assign, block, call, expr_stmt, item};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::convert::Infallible;

/// `unit` with every extended `asm` that has operands and no `"memory"` clobber made C
/// (module doc); `None` when it has none.
pub fn as_c(unit: &TranslationUnit) -> Option<TranslationUnit> {
    if !has_operand_asm(unit) {
        return None;
    }
    let mut lowered = unit.clone();
    let _ = visit_mut::unit(&mut Lower, &mut lowered);
    Some(lowered)
}

/// Does `unit` hold an extended `asm` this pass rewrites?
fn has_operand_asm(unit: &TranslationUnit) -> bool {
    use ladr_c::syntax::walk::visit::{self, Visitor};
    struct Find(bool);
    impl Visitor for Find {
        type Error = Infallible;
        const UNEVALUATED: bool = true;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
            self.0 |= matches!(&s.node, Statement::Asm(a) if rewritten(&a.node).is_some());
            Ok(Walk::Descend)
        }
    }
    let mut f = Find(false);
    let _ = visit::unit(&mut f, unit);
    f.0
}

/// The extended `asm` this pass rewrites: operands, and no `"memory"` clobber.
fn rewritten(a: &AsmStatement) -> Option<&GnuExtendedAsmStatement> {
    match a {
        AsmStatement::GnuExtended(g) => {
            let operands = !(g.outputs.is_empty() && g.inputs.is_empty());
            let memory = g
                .clobbers
                .iter()
                .any(|c| text_of(&c.node).as_deref() == Some("memory"));
            (operands && !memory).then_some(g)
        }
        _ => None,
    }
}

struct Lower;

impl VisitorMut for Lower {
    type Error = Infallible;
    const UNEVALUATED: bool = true;
    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk, Infallible> {
        let Statement::Asm(a) = &s.node else {
            return Ok(Walk::Descend);
        };
        let Some(g) = rewritten(&a.node) else {
            return Ok(Walk::Skip);
        };
        let span = s.span;
        let nondet = format!("{}int", abi::NONDET_PREFIX);
        let mut items = vec![];
        let read = |e: &Node<Expression>| item(expr_stmt(e.clone()));
        for op in &g.inputs {
            items.push(read(&op.node.variable_name));
        }
        for op in &g.outputs {
            let lvalue = &op.node.variable_name;
            // A read too when read-write (or its constraint cannot be read).
            if text_of(&op.node.constraints.node).is_none_or(|t| t.contains('+')) {
                items.push(read(lvalue));
            }
            let value = call(&nondet, vec![], span);
            items.push(item(expr_stmt(assign(lvalue.clone(), value, span))));
        }
        *s = block(items, span);
        Ok(Walk::Skip)
    }
}
