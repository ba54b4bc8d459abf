//! The occurrences of variables for `racefree`: each read, write, escape of the address,
//! thread id written by a create and lock argument ([`Event`]), in a piece of code
//! ([`Occurrences`]) and summed up per variable over the whole program ([`Summary`]).

use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use ladr_ir::analysis::{address_target, Vars};
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::HashSet;
use std::convert::Infallible;

/// What a lock function does to its lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LockOp {
    Acquire,
    Try,
    Release,
    Init,
}

pub(super) fn lock_op(function: &str) -> Option<LockOp> {
    if !abi::is_model_function(function) {
        return None;
    }
    Some(match abi::modelled_function(function) {
        "pthread_mutex_lock" | "pthread_spin_lock" => LockOp::Acquire,
        "pthread_mutex_trylock" | "pthread_spin_trylock" => LockOp::Try,
        "pthread_mutex_unlock" | "pthread_spin_unlock" => LockOp::Release,
        "pthread_mutex_init" | "pthread_spin_init" => LockOp::Init,
        _ => return None,
    })
}

pub(super) fn is_model(function: &str, f: &str) -> bool {
    abi::is_model_function(function) && abi::modelled_function(function) == f
}

/// One occurrence of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Event {
    Read,
    Write,
    ReadWrite,
    /// Its address goes somewhere (`&x`, an array used as a pointer, an `asm` operand): any
    /// pointer may reach it.
    Escape,
    /// `&t` as the thread-id argument of a create of the model: written by the model.
    Tid,
    /// `__CPROVER_havoc_object(&x)`: written with any value.
    Havoc,
    /// `&m` as the lock argument of a lock function.
    Lock(LockOp),
    /// `&x.f`, `&x[i]` (a part of `x`) as the lock argument of a lock function: the model
    /// touches only that mutex, so neither a data access nor an escape of `x`.
    LockPart,
    /// Pointer `p` read only to form `&p->f` as the lock argument of a lock function.
    LockBase,
}

impl Event {
    pub(super) fn is_write(self) -> bool {
        matches!(
            self,
            Event::Write | Event::ReadWrite | Event::Tid | Event::Havoc
        )
    }
}

/// Everything about one variable's occurrences, wherever they are.
#[derive(Default)]
pub(super) struct Summary {
    pub(super) escaped: bool,
    /// Accessed outside the slots' code (in a function that is no slot).
    pub(super) outside: bool,
    /// Written other than by a create or a havoc of `main`.
    other_writes: bool,
    /// Read, written or havocked.
    data: bool,
    /// The lock argument of a lock function.
    lock: bool,
    /// Read (as data: not only as `&p->f` for a lock function).
    read: bool,
    /// The pointer variables its address (or a part's) is assigned to: `p = &x[i];`.
    pub(super) stored_in: HashSet<String>,
}

impl Summary {
    pub(super) fn add(&mut self, slot: Option<usize>, ev: Event, outside: bool) {
        self.outside |= outside;
        match ev {
            Event::Escape => self.escaped = true,
            Event::Lock(_) => self.lock = true,
            Event::LockPart | Event::LockBase => {}
            _ => {
                self.data = true;
                self.read |= matches!(ev, Event::Read | Event::ReadWrite);
                let creating = matches!(ev, Event::Tid | Event::Havoc) && slot == Some(0);
                if ev.is_write() && !creating {
                    self.other_writes = true;
                }
            }
        }
    }

    /// A thread-id object whose value the analysis may follow.
    pub(super) fn tid_only(&self) -> bool {
        !self.escaped && !self.outside && !self.other_writes && !self.lock
    }

    /// A mutex the analysis may follow.
    pub(super) fn lock_only(&self) -> bool {
        !self.escaped && !self.outside && !self.data && self.lock && self.stored_in.is_empty()
    }

    /// A pointer through which what it was assigned cannot be reached: a private variable
    /// used only to lock a mutex it points to (`p = &a[i]; lock(&p->m);`), or not read.
    pub(super) fn dead_end(&self, private: bool) -> bool {
        private && !self.escaped && !self.outside && !self.read && self.stored_in.is_empty()
    }
}

/// The occurrences of variables in a piece of code (not in `sizeof`, `_Alignof`,
/// `__typeof__`).
pub(super) struct Occurrences<'a> {
    shapes: &'a Vars,
    pub(super) events: Vec<(String, Event)>,
    /// `p = &x…;`: (x, p).
    pub(super) stores: Vec<(String, String)>,
    pub(super) asm: bool,
}

/// An lvalue within a variable's own storage (`x`, `x.f`, `x[i]` of an array `x`): the
/// variable, the array depth of the lvalue (`None`: not known), the index expressions.
struct Storage<'e> {
    var: &'e str,
    depth: Option<usize>,
    indices: Vec<&'e Node<Expression>>,
}

impl<'a> Occurrences<'a> {
    pub(super) fn new(shapes: &'a Vars) -> Self {
        Occurrences {
            shapes,
            events: vec![],
            stores: vec![],
            asm: false,
        }
    }

    fn ev(&mut self, var: &str, ev: Event) {
        self.events.push((var.to_string(), ev));
    }

    fn storage<'e>(&mut self, e: &'e Expression) -> Option<Storage<'e>> {
        match e {
            Expression::Identifier(i) => {
                let n = i.node.name.as_str();
                self.shapes.is_variable(n).then(|| Storage {
                    var: n,
                    depth: self.shapes.object_depth(n),
                    indices: vec![],
                })
            }
            Expression::Member(m) => {
                let mut s = match m.node.operator.node {
                    MemberOperator::Direct => self.storage(&m.node.expression.node)?,
                    // `((T)(&s))->f`: a pointer `constprop` folded points into `s`.
                    MemberOperator::Indirect => {
                        self.storage(&address_target(&m.node.expression.node)?.node)?
                    }
                };
                s.depth = self.shapes.field_depth(&m.node.identifier.node.name);
                Some(s)
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let s = self.storage(&b.node.lhs.node)?;
                self.element(s, Some(&b.node.rhs))
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let s = self.storage(&u.node.operand.node)?;
                self.element(s, None)
            }
            _ => None,
        }
    }

    /// `s[i]` / `*s`: an element of an array `s`; through a pointer `s` it is no longer in
    /// the variable's storage (the variable is read); not knowing which is an escape.
    fn element<'e>(
        &mut self,
        mut s: Storage<'e>,
        index: Option<&'e Node<Expression>>,
    ) -> Option<Storage<'e>> {
        match s.depth {
            Some(0) => None,
            Some(d) => {
                s.depth = Some(d - 1);
                s.indices.extend(index);
                Some(s)
            }
            None => {
                self.ev(s.var, Event::Escape);
                None
            }
        }
    }

    fn visit_all(&mut self, es: &[&Node<Expression>]) {
        for e in es {
            let Ok(()) = visit::expr(self, e);
        }
    }

    /// `&e` as an argument the model writes (`Tid`, `Havoc`) or locks (`Lock`): the event
    /// if `e` is a variable's storage (its indices visited), `None` otherwise.
    fn special(&mut self, arg: &Node<Expression>, ev: Event) -> bool {
        let Expression::UnaryOperator(u) = &arg.node else {
            return false;
        };
        if u.node.operator.node != UnaryOperator::Address {
            return false;
        }
        if let Event::Lock(_) = ev {
            // A lock the analysis follows is a whole named variable; a part of a variable is
            // no access of its data, and a pointer read only to lock through it leads
            // nowhere else.
            let operand = &u.node.operand.node;
            if let Expression::Identifier(i) = operand {
                if !self.shapes.is_variable(&i.node.name) {
                    return false;
                }
                self.ev(&i.node.name, ev);
                return true;
            }
            if let Some(s) = self.storage(operand) {
                self.ev(s.var, Event::LockPart);
                let indices = s.indices;
                self.visit_all(&indices);
                return true;
            }
            if let Some(p) = lock_base(operand) {
                if self.shapes.is_variable(p) {
                    self.ev(p, Event::LockBase);
                    return true;
                }
            }
            return false;
        }
        let Some(s) = self.storage(&u.node.operand.node) else {
            return false;
        };
        self.ev(s.var, ev);
        let indices = s.indices;
        self.visit_all(&indices);
        true
    }
}

impl Visitor for Occurrences<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let Some(s) = self.storage(&b.node.lhs.node) else {
                    return Ok(Walk::Descend);
                };
                let ev = if b.node.operator.node == BinaryOperator::Assign {
                    Event::Write
                } else {
                    Event::ReadWrite
                };
                self.ev(s.var, ev);
                let mut rest = s.indices;
                // `p = &x…;` into a scalar `p`: where `x` goes depends on `p`'s uses.
                let stored = match (&b.node.lhs.node, b.node.operator.node.clone()) {
                    (Expression::Identifier(p), BinaryOperator::Assign) => {
                        address_target(&b.node.rhs.node).and_then(|t| {
                            let x = self.storage(&t.node)?;
                            Some((p.node.name.clone(), x))
                        })
                    }
                    _ => None,
                };
                match stored {
                    Some((p, x)) => {
                        self.stores.push((x.var.to_string(), p));
                        rest.extend(x.indices);
                    }
                    None => rest.push(&b.node.rhs),
                }
                self.visit_all(&rest);
                Ok(Walk::Skip)
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                let Some(s) = self.storage(&u.node.operand.node) else {
                    return Ok(Walk::Descend);
                };
                self.ev(s.var, Event::ReadWrite);
                self.visit_all(&s.indices);
                Ok(Walk::Skip)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                let Some(s) = self.storage(&u.node.operand.node) else {
                    return Ok(Walk::Descend);
                };
                self.ev(s.var, Event::Escape);
                self.visit_all(&s.indices);
                Ok(Walk::Skip)
            }
            Expression::Call(c) => {
                let name = callee_name(&c.node).unwrap_or("");
                let args = &c.node.arguments;
                let ev = if name == abi::HAVOC {
                    Some(Event::Havoc)
                } else if is_model(name, "pthread_create") {
                    Some(Event::Tid)
                } else {
                    lock_op(name).map(Event::Lock)
                };
                match (ev, args.first()) {
                    (Some(ev), Some(first)) if self.special(first, ev) => {
                        let rest: Vec<_> = args[1..].iter().collect();
                        self.visit_all(&rest);
                        Ok(Walk::Skip)
                    }
                    _ => Ok(Walk::Descend),
                }
            }
            Expression::Identifier(_) | Expression::Member(_) => self.read(e),
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.read(e)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.read(e)
            }
            _ => Ok(Walk::Descend),
        }
    }

    fn stmt(&mut self, s: &Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Asm(a) = &s.node {
            self.asm = true;
            if let AsmStatement::GnuExtended(g) = &a.node {
                let operands: Vec<_> = g
                    .outputs
                    .iter()
                    .chain(&g.inputs)
                    .map(|o| &o.node.variable_name)
                    .collect();
                for e in operands {
                    match self.storage(&e.node) {
                        Some(st) => {
                            self.ev(st.var, Event::Escape);
                            self.visit_all(&st.indices);
                        }
                        None => self.visit_all(&[e]),
                    }
                }
            }
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
}

impl Occurrences<'_> {
    /// An lvalue whose value is used: a read of a variable's storage, or an escape when it
    /// is (or may be) an array, which becomes a pointer.
    fn read(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
        let Some(s) = self.storage(&e.node) else {
            return Ok(Walk::Descend);
        };
        let ev = if s.depth == Some(0) {
            Event::Read
        } else {
            Event::Escape
        };
        self.ev(s.var, ev);
        self.visit_all(&s.indices);
        Ok(Walk::Skip)
    }
}

/// `p` of a lock argument `&p->f` (`&p->f.g`): the pointer variable read to form it.
fn lock_base(e: &Expression) -> Option<&str> {
    match e {
        Expression::Member(m) => match m.node.operator.node {
            MemberOperator::Direct => lock_base(&m.node.expression.node),
            MemberOperator::Indirect => ident_name(&m.node.expression),
        },
        _ => None,
    }
}
