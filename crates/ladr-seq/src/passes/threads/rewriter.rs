//! The rewriter of one slot's body ([`SlotRewriter`]): a walk that hands each statement
//! calling a pthread or semaphore function to the table of modelled calls
//! ([`super::pthread_table`]) and each other call in an expression to the C library's
//! models ([`super::library_calls`]).

use super::keys::Destructor;
use super::returns::Returns;
use super::routines::routine_name;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::program::{Program, Slot};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashMap;

/// Rewrites the pthread calls of one slot body.
pub(super) struct SlotRewriter<'a> {
    pub(super) slot: usize,
    pub(super) defs: &'a HashMap<String, FunctionDefinition>,
    pub(super) p: &'a mut Program,
    pub(super) slots: &'a mut Vec<Slot>,
    /// New slots created in this body: (slot, routine).
    pub(super) new: Vec<(usize, String)>,
    pub(super) chain: &'a [String],
    pub(super) unwind: u32,
    /// `Options::max_threads`.
    pub(super) max_threads: Option<u32>,
    /// `pthread_key_create` sites seen so far, in all slots.
    pub(super) key_sites: &'a mut usize,
    /// The key destructors (numbered from 1 in the model).
    pub(super) dtors: &'a [Destructor],
    /// A destructor pointer holds one of `dtors` or no destructor (no cut needed).
    pub(super) dtor_pointers_known: bool,
    /// `Options::malloc_may_fail`.
    pub(super) malloc_may_fail: bool,
    /// `Options::heap_block`: passed to the model's allocation functions.
    pub(super) heap_block: u32,
    /// The body's locals assigned once, by a constant expression (a size that an
    /// inlined `external_alloc(sizeof(struct s))` passes to `malloc`), also one made of
    /// other such locals, with it ([`super::constants::once_constants`]); "constant" as
    /// the `malloc` size test ([`SlotRewriter::heap_size`]) has it.
    pub(super) constants: HashMap<String, Node<Expression>>,
    /// Locals assigned once, with a function the program defines: a start routine (or
    /// once-routine) passed through a parameter of a helper (`spawn(worker, arg)`), known
    /// once the helper is inlined.
    pub(super) routines: HashMap<String, String>,
    /// Variables that hold one function all along ([`super::keys::function_values`]): a key
    /// destructor passed through a helper's parameter or a function pointer global.
    pub(super) dtor_values: HashMap<String, String>,
    /// Whether each function declared at file scope returns a value (not `void`); a callee
    /// not listed (a function pointer variable) invents no assumption here.
    pub(super) returns_value: &'a HashMap<String, Returns>,
    /// The span of the call whose statement discards its result (`f(x);`).
    pub(super) discarded: Option<Span>,
    /// The call whose statement is being walked after its hidden-state access was put in
    /// front of it ([`SlotRewriter::libc_state_access`]).
    pub(super) libc_call: Option<Span>,
    /// A call was turned into one of `model/libc.c`.
    pub(super) libc_used: bool,
    /// The program makes byte channels (`pipe`, `socketpair`): its descriptor I/O goes
    /// through the model ([`crate::model::library::channel_io`]).
    pub(super) channels: bool,
    /// The program calls `pthread_cancel` (`model/cancel.c` is added).
    pub(super) cancels: bool,
}

/// A pthread call at the top of a statement: `[lv =] f(args);`.
pub(super) fn top_call(
    s: &Statement,
) -> Option<(Option<&Node<Expression>>, &CallExpression, Span)> {
    let Statement::Expression(Some(e)) = s else {
        return None;
    };
    match &e.node {
        Expression::Call(c) => Some((None, &c.node, c.span)),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            match &b.node.rhs.node {
                Expression::Call(c) => Some((Some(&*b.node.lhs), &c.node, c.span)),
                _ => None,
            }
        }
        _ => None,
    }
}

impl SlotRewriter<'_> {
    /// The function a start-routine argument names: directly (`worker`, `&worker`, a cast)
    /// or through a local assigned it once (an inlined helper's parameter).
    pub(super) fn routine(&self, e: &Expression) -> Option<String> {
        let name = routine_name(e)?;
        Some(
            self.routines
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string()),
        )
    }
}

impl VisitorMut for SlotRewriter<'_> {
    type Error = Error;
    // Operands of `sizeof`, `_Alignof` and `__typeof__` are not evaluated: a pthread call
    // there (`__typeof__(pthread_self()) t;`, a temporary of `normalise`) stays as it is.
    const UNEVALUATED: bool = false;

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        if let Some((access, cspan)) = self.libc_state_access(s) {
            // `{ __ladr_libc_strtok = 0; w = strtok(l, " "); }`, the call rewritten as any.
            self.libc_call = Some(cspan);
            let walked = visit_mut::stmt(self, s);
            self.libc_call = None;
            walked?;
            let span = s.span;
            let call = std::mem::replace(s, empty_stmt(span));
            *s = block_of(vec![access, call], span);
            return Ok(Walk::Skip);
        }
        // A call whose result is discarded invents nothing the program uses.
        if let Some((None, _, cspan)) = top_call(&s.node) {
            self.discarded = Some(cspan);
        }
        match self.rewrite(s)? {
            Some(mut stmts) => {
                let span = s.span;
                *s = if stmts.len() == 1 {
                    stmts.pop().unwrap()
                } else {
                    block_of(stmts, span)
                };
                Ok(Walk::Skip)
            }
            None => Ok(Walk::Descend),
        }
    }

    // Only declarators and initialisers: the specifiers' expressions are not evaluated
    // here (`__typeof__`) or are constants (enumerators, bit-field widths).
    fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk> {
        for id in &mut d.node.declarators {
            visit_mut::declarator(self, &mut id.node.declarator)?;
            if let Some(i) = &mut id.node.initializer {
                visit_mut::initializer(self, i)?;
            }
        }
        Ok(Walk::Skip)
    }

    fn type_name(&mut self, _t: &mut Node<TypeName>) -> Result<Walk> {
        Ok(Walk::Skip)
    }

    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
        if let Expression::Call(c) = &mut e.node {
            if let Some(n) = callee_name(&c.node).map(str::to_string) {
                let n = n.as_str();
                if n.starts_with("pthread_") || n.starts_with("sem_") {
                    return Err(Error::unsupported(
                        c.span,
                        format!("a call of `{n}` inside an expression"),
                    ));
                }
                return self.library_call(e, n);
            }
        }
        Ok(Walk::Descend)
    }
}
