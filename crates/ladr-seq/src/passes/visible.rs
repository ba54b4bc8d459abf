//! `visible` — number the visible statements of every slot (DESIGN §5–6, LaDR paper §2).
//!
//! Each slot function's body is flattened into a list of [`Item`]s: labels, plain
//! statements, and visible statements numbered `0..size` in program order. Visible are: the
//! slot's first statement (an empty one is added), every statement that may access shared
//! memory ([`ladr_ir::analysis::Vars`]), every pthread-model call and assumption, each atomic section as a
//! whole, and the exit (an empty statement after the slot's end label, label `size-1`).
//!
//! An `if` whose branches contain visible statements is lowered to jumps so that every
//! visible statement is at the top level of the list (the `lazy` pass guards each one and
//! may jump to it):
//! ```text
//! if (c) { x = 1; } else { y = 2; }   →   if (!(c)) goto E;   (visible if c is shared)
//!                                           x = 1;              (visible, label n)
//!                                           goto D;
//!                                         E: y = 2;             (visible, label n+1)
//!                                         D: ;
//! ```
//! Needs: `threads` (slot functions `__ladr_threadK`, locals hoisted, no returns).
//! Guarantees: `Program::code[k]` holds slot k's items; the slot functions are removed from
//! the unit (`lazy` writes them again).

use crate::normal_form::{havoced_var, is_atomic_section};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::names;
use ladr_c::syntax::query::{any_expr, Operands};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, end_label, slot_function};
use ladr_ir::analysis::Vars;
use ladr_ir::program::{Item, Options, Program, SlotCode};
use lang_c::ast::*;
use lang_c::span::Node;

pub fn run(mut p: Program, _opts: &Options) -> Result<Program> {
    let mut vars = Vars::new(&p.unit, &p.thread_locals);
    // A thread's own memory behind its private pointers (`ladr_ir::confined`).
    vars.confine(&p.unit);
    // What the static proof shows race-free, with accesses that commute with every other
    // thread's step: no reason for a context switch (`docs/decisions/static.md`).
    vars.set_proved_plain(p.proved.plain.clone());
    let mut code = vec![SlotCode::default(); p.slots.len()];
    let mut kept = vec![];
    for ext in std::mem::take(&mut p.unit.0) {
        let slot = match &ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                let name = function_name(&f.node).unwrap_or("");
                (0..p.slots.len()).find(|k| slot_function(*k) == name)
            }
            _ => None,
        };
        match (slot, ext.node) {
            (Some(k), ExternalDeclaration::FunctionDefinition(f)) => {
                let mut fl = Flattener {
                    vars: &vars,
                    names: &mut p.names,
                    items: vec![],
                    next: 0,
                };
                let span = f.node.statement.span;
                fl.push_visible(empty_stmt(span), false);
                fl.flatten(f.node.statement)?;
                // The exit: label size-1, after the end label that returns jump to.
                let end = end_label(k);
                let at_end = fl
                    .items
                    .iter()
                    .rposition(|i| matches!(i, Item::Label(l, _) if *l == end));
                if at_end.is_none() {
                    fl.items.push(Item::Label(end, span));
                }
                fl.push_visible(empty_stmt(span), false);
                let mut c = SlotCode {
                    size: fl.next,
                    items: fl.items,
                };
                merge_first(&mut c);
                code[k] = c;
            }
            (_, other) => kept.push(Node::new(other, ext.span)),
        }
    }
    p.unit.0 = kept;
    p.code = code;
    p.vars = vars;
    Ok(p)
}

struct Flattener<'a> {
    vars: &'a Vars,
    names: &'a mut names::Names,
    items: Vec<Item>,
    next: u32,
}

impl Flattener<'_> {
    fn push_visible(&mut self, stmt: Node<Statement>, atomic: bool) {
        self.items.push(Item::Visible {
            label: self.next,
            stmt,
            atomic,
        });
        self.next += 1;
    }

    fn flatten(&mut self, s: Node<Statement>) -> Result<()> {
        let span = s.span;
        match s.node {
            Statement::Compound(items) => {
                if is_atomic_section(&items) {
                    let inner: Vec<_> = items[1..items.len() - 1].to_vec();
                    self.push_visible(block(inner, span), true);
                    return Ok(());
                }
                for it in items {
                    match it.node {
                        BlockItem::Declaration(d) => self.items.push(Item::Decl(d)),
                        BlockItem::StaticAssert(_) => {}
                        BlockItem::Statement(st) => self.flatten(st)?,
                    }
                }
            }
            Statement::Labeled(l) => match l.node.label.node {
                Label::Identifier(i) => {
                    self.items.push(Item::Label(i.node.name, span));
                    self.flatten(*l.node.statement)?;
                }
                _ => return Err(Error::unsupported(
                    span,
                    "a case label outside a switch (internal: normalise should have removed it)",
                )),
            },
            Statement::If(i) => {
                let IfStatement {
                    condition,
                    then_statement,
                    else_statement,
                } = i.node;
                let branches_visible = self.is_visible_stmt(&then_statement)
                    || else_statement
                        .as_ref()
                        .is_some_and(|e| self.is_visible_stmt(e));
                if !branches_visible {
                    let stmt = Node::new(
                        Statement::If(Node::new(
                            IfStatement {
                                condition,
                                then_statement,
                                else_statement,
                            },
                            span,
                        )),
                        span,
                    );
                    self.push_stmt(stmt);
                    return Ok(());
                }
                let else_label = self.names.label("else");
                let jump = if_stmt(not(*condition, span), goto(&else_label, span), None, span);
                self.push_stmt(jump);
                self.flatten(*then_statement)?;
                match else_statement {
                    Some(e) => {
                        let done = self.names.label("endif");
                        self.items.push(Item::Plain(goto(&done, span)));
                        self.items.push(Item::Label(else_label, span));
                        self.flatten(*e)?;
                        self.items.push(Item::Label(done, span));
                    }
                    None => self.items.push(Item::Label(else_label, span)),
                }
            }
            Statement::Expression(None) => {}
            Statement::Expression(_) | Statement::Goto(_) | Statement::Asm(_) => {
                self.push_stmt(s);
            }
            Statement::Return(_) => return Err(Error::unsupported(
                span,
                "a return statement in a thread body (internal: threads should have removed it)",
            )),
            Statement::Switch(_)
            | Statement::While(_)
            | Statement::DoWhile(_)
            | Statement::For(_)
            | Statement::Break
            | Statement::Continue => return Err(Error::unsupported(
                span,
                "a loop or switch in the bounded program (internal: unwind should have removed it)",
            )),
        }
        Ok(())
    }

    fn push_stmt(&mut self, s: Node<Statement>) {
        if self.is_visible_stmt(&s) {
            self.push_visible(s, false);
        } else {
            self.items.push(Item::Plain(s));
        }
    }

    fn is_visible_stmt(&self, s: &Node<Statement>) -> bool {
        may_switch(self.vars, s)
    }
}

/// True if a context switch may happen before `s` or inside it: it may access shared
/// memory (by `vars`), calls the pthread model or a library function that reads or writes
/// data through its arguments, assumes something of more than the thread's own values
/// ([`local_assumption`]), or is an atomic section. The one test of visibility:
/// `visible` labels such statements, and `inline` keeps a function as a call only if no
/// statement of its body is one.
pub fn may_switch(vars: &Vars, s: &Node<Statement>) -> bool {
    visit::stmt(&mut Finder { vars }, s).is_err() || proved_with_call(vars, s)
}

/// Is `__CPROVER_assume(c)` with these arguments about the thread's own values only: `c`
/// accesses nothing shared and names no object but the slot's locals (no global, no model
/// state another thread changes)? Waiting cannot make it hold, so where it fails the thread
/// stops for good: `lazy` writes that stop in place (`if (!c)`: the context ends, the thread
/// is never scheduled again, no join of it returns) instead of a visible statement whose
/// context may end before it — the same executions, without a label. `assume(0)` of an
/// `assert`'s failure, the exit test of a cut loop, an `assume_abort_if_not` of nondet
/// locals.
pub fn local_assumption(vars: &Vars, args: &[Node<Expression>]) -> bool {
    let [c] = args else {
        return false;
    };
    visit::expr(&mut Finder { vars }, c).is_ok()
        && !any_expr(c, Operands::Evaluated, |e| match &e.node {
            Expression::Identifier(i) => {
                let n = &i.node.name;
                !vars.is_thread_local(n) && (vars.is_variable(n) || names::is_internal(n))
            }
            Expression::Call(_) | Expression::Statement(_) => true,
            _ => false,
        })
}

/// Does `s` name an object the static proof made unshared ([`Vars::set_proved_plain`]) and
/// call a function (other than for a nondeterministic value)? Then it stays visible, as
/// it was before the proof: the call may synchronise or block (the model's byte channels:
/// `close(sv[1])` ends a reader's wait), and `race` reads only visible statements as
/// releases and acquires.
fn proved_with_call(vars: &Vars, s: &Node<Statement>) -> bool {
    vars.has_proved_plain()
        && any_expr(
            s,
            Operands::All,
            |e| matches!(&e.node, Expression::Identifier(i) if vars.is_proved_plain(&i.node.name)),
        )
        && any_expr(s, Operands::All, |e| match &e.node {
            Expression::Call(c) => {
                !callee_name(&c.node).is_some_and(|n| n.starts_with(abi::NONDET_PREFIX))
            }
            _ => false,
        })
}

/// Makes the slot's first visible statement label 0, with the plain statements before it
/// (the argument copy, say) in front of it: `[0: ;] plain… [1: s]` → `[0: { plain…; s }]`.
/// Otherwise a thread's first context would always begin with the empty label 0, and a
/// race whose second access is the first statement of a thread (a context C2 that starts
/// the thread) could not be found. Not done when a goto target lies in between.
pub(crate) fn merge_first(c: &mut SlotCode) {
    let Some(Item::Visible { stmt, .. }) = c.items.first() else {
        return;
    };
    if !matches!(stmt.node, Statement::Expression(None)) {
        return;
    }
    let Some(pos) = c
        .items
        .iter()
        .skip(1)
        .position(|i| !matches!(i, Item::Plain(_) | Item::Decl(_)))
    else {
        return;
    };
    let pos = pos + 1;
    if !matches!(c.items[pos], Item::Visible { .. }) {
        return;
    }
    let mut rest = c.items.split_off(pos);
    let prefix = c.items.split_off(1);
    let Item::Visible { stmt, atomic, .. } = rest.remove(0) else {
        unreachable!("checked above")
    };
    let span = stmt.span;
    let mut body = vec![];
    c.items.clear();
    for it in prefix {
        match it {
            Item::Plain(p) => body.push(p),
            other => c.items.push(other),
        }
    }
    body.push(stmt);
    c.items.push(Item::Visible {
        label: 0,
        stmt: block_of(body, span),
        atomic,
    });
    for it in &mut rest {
        if let Item::Visible { label, .. } = it {
            *label -= 1;
        }
    }
    c.items.extend(rest);
    c.size -= 1;
}

/// Is this a call of the pthread model?
pub fn is_model_call(name: &str) -> bool {
    abi::is_model_pthread_function(name)
}

/// Finds anything that makes a statement visible (the walk stops at the first).
struct Finder<'a> {
    vars: &'a Vars,
}

impl Finder<'_> {
    /// Does a library call with these `effects` access no data through `args`: each pointer
    /// it reads or writes through points at its thread's own memory or a string literal
    /// (`ladr_ir::confined`)? Its race instrumentation (`race::calls`) is then empty too.
    fn no_data_through(
        &self,
        effects: &[(crate::model::library::Args, crate::model::library::Effect)],
        args: &[Node<Expression>],
    ) -> bool {
        effects.iter().all(|&(sel, _)| {
            crate::model::library::selected(sel, args.len())
                .all(|i| self.vars.points_at_no_data(&args[i].node))
        })
    }
}

impl Visitor for Finder<'_> {
    /// Found one.
    type Error = ();
    // What `sizeof`, `_Alignof` and `__typeof__` name is not accessed.
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
        match &e.node {
            Expression::Identifier(_) | Expression::Member(_)
                if self.vars.is_proved_atomic(&e.node) =>
            {
                Err(())
            }
            Expression::Identifier(i) if self.vars.is_shared_var(&i.node.name) => Err(()),
            Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Indirection
                    && !self.vars.points_into_own_thread(&u.node.operand.node) =>
            {
                Err(())
            }
            Expression::Member(m)
                if m.node.operator.node == MemberOperator::Indirect
                    && !self.vars.points_into_own_thread(&m.node.expression.node) =>
            {
                Err(())
            }
            Expression::BinaryOperator(b)
                if b.node.operator.node == BinaryOperator::Index
                    && self.vars.array_depth(&b.node.lhs.node) == 0
                    && !self.vars.points_into_own_thread(&b.node.lhs.node) =>
            {
                Err(())
            }
            Expression::Call(c) => {
                match callee_name(&c.node) {
                    // Assumptions block like a lock: a context must be able to end before
                    // one (e.g. the `assume(0)` where `main` returns).
                    // But one of the thread's own values only: it can never hold later if
                    // it fails now, so failing stops the thread there (`lazy`), no label.
                    Some(abi::ASSUME) if local_assumption(self.vars, &c.node.arguments) => {
                        Ok(Walk::Skip)
                    }
                    Some(n) if is_model_call(n) || n == abi::ATOMIC_BEGIN || n == abi::ASSUME => {
                        Err(())
                    }
                    // Library calls that read or write through their arguments (also through
                    // ladr's models of them), and atomic builtins (through any pointer, a
                    // private local one too).
                    // `normalise` havocs an uninitialised local where it is declared: the
                    // object is new there, so that is no access another thread could see.
                    _ if havoced_var(&e.node).is_some_and(|n| self.vars.is_thread_local(n)) => {
                        Ok(Walk::Skip)
                    }
                    Some(n) if crate::model::library::atomic_builtin(n).is_some() => Err(()),
                    // Unless each pointer they access through points at no data (the
                    // thread's own memory, a string literal): then only the arguments'
                    // own values matter.
                    Some(n) => match crate::model::library::effects(abi::modelled_function(n)) {
                        Some(effects) if !self.no_data_through(effects, &c.node.arguments) => {
                            Err(())
                        }
                        _ => Ok(Walk::Descend),
                    },
                    // Calls of unknown functions: their arguments are what matters.
                    None => Ok(Walk::Descend),
                }
            }
            _ => Ok(Walk::Descend),
        }
    }

    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, ()> {
        match &s.node {
            Statement::Compound(items) if is_atomic_section(items) => Err(()),
            _ => Ok(Walk::Descend),
        }
    }
}
