//! The accesses of an expression (C11 5.1.2.4: reads and writes of memory locations), as
//! the static race proof counts them: a variable named, or whatever a pointer may point to
//! (`*p`, `p->f`, `p[i]` with a pointer `p`, a library call's pointer arguments); where an
//! address is taken (`&x`, an array decaying), and the calls: defined functions (call
//! sites), `pthread_create` (start routines), locks, atomic builtins, and the C library
//! (`model::library`). Anything not understood is a give-up, never a guess.

use super::decls::Tri;
use super::decls::VarId;
use super::fields::prepend;
use super::heap::NodeId;
use super::pure::{keeps_no_pointer, prints, sync_objects};
use super::scan::{CreateSite, Scan, Target};
use super::userlock::Role;
use super::{Lock, Path, Step};
use crate::model::library::{self, Args, Effect};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;

/// How an expression is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Read,
    Write,
    /// Read and written (`x++`, `x += e`).
    Both,
    /// Its address is taken (`&e`).
    Address,
    /// Named as the object of a synchronisation function (`pthread_mutex_lock(&m)`): no
    /// access of data and no escape, but its subexpressions are read.
    Sync,
}

/// Functions that end the thread or the program (or the execution, for CBMC).
const NO_RETURN: &[&str] = &[
    "exit",
    "_exit",
    "_Exit",
    "abort",
    "pthread_exit",
    "__assert_fail",
    "__VERIFIER_error",
    "reach_error",
];

/// Non-local jumps: control flow the lockset cannot follow.
const JUMPS: &[&str] = &[
    "setjmp",
    "_setjmp",
    "__sigsetjmp",
    "sigsetjmp",
    "longjmp",
    "_longjmp",
    "siglongjmp",
    "__longjmp_chk",
];

/// What a lock function does to its first argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LockEffect {
    /// Holds it exclusively.
    Exclusive,
    /// Holds it shared (an rwlock read-locked).
    Shared,
    /// Releases it (or initialises or destroys it).
    Release,
}

/// Lock functions (first argument) and what they do.
fn lock_effect(name: &str) -> Option<LockEffect> {
    match name {
        "pthread_mutex_lock" | "pthread_spin_lock" | "pthread_rwlock_wrlock" => {
            Some(LockEffect::Exclusive)
        }
        "pthread_rwlock_rdlock" => Some(LockEffect::Shared),
        "pthread_mutex_unlock"
        | "pthread_spin_unlock"
        | "pthread_rwlock_unlock"
        | "pthread_mutex_init"
        | "pthread_spin_init"
        | "pthread_rwlock_init"
        | "pthread_mutex_destroy"
        | "pthread_spin_destroy"
        | "pthread_rwlock_destroy" => Some(LockEffect::Release),
        _ => None,
    }
}

pub(super) fn strip_casts(e: &Node<Expression>) -> &Node<Expression> {
    match &e.node {
        Expression::Cast(c) => strip_casts(&c.node.expression),
        _ => e,
    }
}

fn is_constant(e: &Node<Expression>) -> bool {
    matches!(
        strip_casts(e).node,
        Expression::Constant(_) | Expression::StringLiteral(_)
    )
}

/// The value of a constant index (`[4]`), if it is a plain non-negative integer.
pub(super) fn constant_index(e: &Node<Expression>) -> Option<u64> {
    let Expression::Constant(c) = &strip_casts(e).node else {
        return None;
    };
    let Constant::Integer(i) = &c.node else {
        return None;
    };
    let digits = i.number.as_ref();
    match i.base {
        IntegerBase::Decimal => digits.parse().ok(),
        IntegerBase::Hexadecimal => u64::from_str_radix(digits, 16).ok(),
        IntegerBase::Octal => u64::from_str_radix(digits, 8).ok(),
        IntegerBase::Binary => u64::from_str_radix(digits, 2).ok(),
    }
}

pub(super) fn is_zero(e: &Node<Expression>) -> bool {
    match &strip_casts(e).node {
        Expression::Constant(c) => {
            matches!(&c.node, Constant::Integer(i) if i.number.trim_start_matches('0').is_empty())
        }
        _ => false,
    }
}

impl<'d, 'a> Scan<'d, 'a> {
    pub fn read(&mut self, e: &'a Node<Expression>) {
        self.expr(e, Mode::Read);
    }

    pub fn expr_statement(&mut self, e: &'a Node<Expression>) {
        self.read(e);
    }

    /// An access through a pointer whose points-to node is `node`; `fresh`: the pointer
    /// is a local holding a block no other thread can reach yet.
    fn deref(&mut self, mode: Mode, atomic: bool, offset: usize, node: Option<NodeId>) {
        self.deref_fresh(mode, atomic, offset, node, false)
    }

    fn deref_fresh(
        &mut self,
        mode: Mode,
        atomic: bool,
        offset: usize,
        node: Option<NodeId>,
        fresh: bool,
    ) {
        self.fresh_access = fresh;
        match mode {
            Mode::Read => self.access(Target::Deref(node), false, atomic, offset),
            Mode::Write | Mode::Both => self.access(Target::Deref(node), true, atomic, offset),
            Mode::Address | Mode::Sync => {}
        }
        self.fresh_access = false;
    }

    fn named(&mut self, id: usize, mode: Mode, atomic: bool, offset: usize) {
        match mode {
            Mode::Read => {
                if self.deref_base != Some(id) {
                    self.decls.bare_reads.insert(id);
                }
                self.fresh_read(id);
                self.access(Target::Var(id), false, atomic, offset)
            }
            Mode::Write | Mode::Both => {
                self.access(Target::Var(id), true, atomic, offset);
                self.fresh_written(id);
            }
            Mode::Address => {
                // Its address taken: never a fresh holder (`escaped`), and no longer now.
                self.fresh_read(id);
                if self.record {
                    self.run.address_taken.insert(id);
                }
            }
            Mode::Sync => {}
        }
    }

    /// Is `e` an array object: surely, surely not, maybe.
    pub(super) fn array_kind(&self, e: &Node<Expression>) -> Tri {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(v) => self.decls.vars[v].array,
                None => Tri::Maybe,
            },
            Expression::Member(_) => Tri::Maybe,
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                Tri::Maybe
            }
            _ => Tri::No,
        }
    }

    pub fn expr(&mut self, e: &'a Node<Expression>, mode: Mode) {
        let at = e.span.start;
        // The steps an enclosing member or index applies: only the chain down to the
        // pointer passes them on.
        let outer = std::mem::take(&mut self.outer);
        match &e.node {
            Expression::Identifier(i) => self.identifier(&i.node.name, mode, at),
            Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => {}
            Expression::Member(_) | Expression::BinaryOperator(_) if self.named_part(e, mode) => {}
            Expression::Member(m) => {
                if m.node.operator.node == MemberOperator::Direct {
                    let field = &m.node.identifier.node.name;
                    if mode == Mode::Read && self.decls.ir.field_depth(field) != Some(0) {
                        // An array member decays to an address inside the object.
                        self.expr(&m.node.expression, Mode::Address);
                    }
                    self.outer = prepend(Step::Field(field.clone()), outer);
                    self.expr(&m.node.expression, mode);
                } else {
                    let member = m.node.identifier.node.name.as_str();
                    if !self.through_pointer(&m.node.expression, Some(member), mode, at) {
                        let n = self.pointer_node(Some(&m.node.expression));
                        let fresh = self.is_fresh(&m.node.expression);
                        let path = prepend(Step::Field(member.to_string()), outer);
                        self.deref_part = self
                            .typed_part(&m.node.expression, path)
                            .map(|(p, t)| (p, Some(t)));
                        self.deref_fresh(mode, false, at, n, fresh);
                        self.deref_part = None;
                    }
                }
            }
            Expression::Call(c) => self.call(&c.node, at),
            Expression::UnaryOperator(u) => self.unary(&u.node, mode, at, outer),
            Expression::Cast(c) => self.expr(&c.node.expression, mode),
            Expression::BinaryOperator(b) => self.binary(&b.node, mode, at, outer),
            Expression::Conditional(c) => {
                self.read(&c.node.condition);
                self.expr(&c.node.then_expression, mode);
                self.expr(&c.node.else_expression, mode);
            }
            Expression::Comma(es) => {
                let n = es.len();
                for (k, x) in es.iter().enumerate() {
                    self.expr(x, if k + 1 == n { mode } else { Mode::Read });
                }
            }
            Expression::VaArg(v) => {
                self.read(&v.node.va_list);
                let n = self.pointer_node(None);
                self.deref(Mode::Read, false, at, n);
            }
            // A literal read as a copied value: its initialisers' reads (`literal.rs`).
            Expression::CompoundLiteral(c)
                if mode == Mode::Read && self.copied_literal(&c.node.type_name.node) =>
            {
                for it in &c.node.initializer_list {
                    self.initializer(&it.node.initializer.node);
                }
            }
            Expression::CompoundLiteral(_) => self.give_up("a compound literal", at),
            Expression::GenericSelection(_) => self.give_up("a generic selection", at),
            Expression::Statement(_) => self.give_up("a statement expression", at),
        }
    }

    fn identifier(&mut self, name: &str, mode: Mode, at: usize) {
        match self.lookup(name) {
            Some(v) => {
                let var = &self.decls.vars[v];
                let (array, atomic) = (var.array, var.atomic);
                if mode == Mode::Read && array != Tri::No {
                    // An array decays to its address (if it is one).
                    self.named(v, Mode::Address, false, at);
                    if array == Tri::Yes {
                        return;
                    }
                }
                self.named(v, mode, atomic, at);
            }
            None if self.decls.functions.contains(name) => {
                if self.library_arguments {
                    self.give_up(
                        format!("the address of function `{name}` is passed to a function without a body"),
                        at,
                    )
                } else if self.record {
                    self.run.function_addresses.insert(name.to_string());
                }
            }
            // An enumerator.
            None => {}
        }
    }

    /// `outer`: the steps an enclosing member or index applies to `*p`.
    fn unary(&mut self, u: &'a UnaryOperatorExpression, mode: Mode, at: usize, outer: Path) {
        let op = &u.operand;
        match u.operator.node {
            UnaryOperator::Address => self.expr(op, Mode::Address),
            UnaryOperator::Indirection => {
                let errno = matches!(&strip_casts(op).node, Expression::Call(c)
                    if ladr_c::syntax::build::callee_name(&c.node) == Some(library::ERRNO_LOCATION));
                if let Some(v) = self.owner(op) {
                    return self.owned_element(v, Step::Index(Some(0)), mode, at, op);
                }
                if errno {
                    self.read(op);
                } else if !self.through_pointer(op, None, mode, at) {
                    let n = self.pointer_node(Some(op));
                    let fresh = self.is_fresh(op);
                    self.deref_part = self.typed_part(op, outer).map(|(p, t)| (p, Some(t)));
                    self.deref_fresh(mode, false, at, n, fresh);
                    self.deref_part = None;
                }
            }
            UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement
            | UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement => {
                self.heap_shift(op);
                self.expr(op, Mode::Both)
            }
            _ => self.read(op),
        }
    }

    /// `outer`: the steps an enclosing member or index applies to `b` (an element).
    fn binary(&mut self, b: &'a BinaryOperatorExpression, mode: Mode, at: usize, outer: Path) {
        match b.operator.node {
            BinaryOperator::Index => {
                self.read(&b.rhs);
                if self.fresh_slot(mode, at, &b.lhs) {
                    return;
                }
                if let Some(v) = self.owner(&b.lhs) {
                    let index = self.index_step(&b.rhs);
                    return self.owned_element(v, index, mode, at, &b.lhs);
                }
                // `p[i]` of a pointer `p` decays to an address inside `*p`, not `p`'s.
                let decays = mode == Mode::Read
                    && !matches!(&b.lhs.node, Expression::Identifier(i)
                    if self.lookup(&i.node.name).is_some_and(|v| {
                        let var = &self.decls.vars[v];
                        var.depth == Some(1) || var.array == Tri::No
                    }));
                if decays {
                    // The element may be an array, decaying to an address inside the object.
                    self.array_object(&b.lhs, Mode::Address);
                }
                match self.array_kind(&b.lhs) {
                    Tri::Yes => self.array_object(&b.lhs, mode),
                    Tri::Maybe => {
                        let depth = self.array_member(&b.lhs);
                        if depth == Some(1) {
                            // An element of a member every struct declares as an array
                            // of one dimension: that element of the member.
                            let index = Step::Index(constant_index(&b.rhs));
                            self.outer = prepend(index, outer);
                        }
                        self.array_object(&b.lhs, mode);
                        // An element of an array member lies in the member accessed
                        // above: no pointer is followed (nor any address made).
                        if depth.is_none() || mode == Mode::Address {
                            let n = self.index_pointer_node(&b.lhs, &b.rhs);
                            self.deref(mode, false, at, n);
                        }
                        if mode == Mode::Address {
                            self.read(&b.lhs);
                        }
                    }
                    Tri::No => {
                        let n = self.index_pointer_node(&b.lhs, &b.rhs);
                        let fresh = self.is_fresh(&b.lhs);
                        self.deref_part = self.based_element(&b.lhs, &b.rhs);
                        self.deref_fresh(mode, false, at, n, fresh);
                        self.deref_part = None;
                        let skip = self.fresh_index_base(&b.lhs, mode);
                        let outer = std::mem::replace(&mut self.fresh_skip, skip);
                        self.read(&b.lhs);
                        self.fresh_skip = outer;
                    }
                }
            }
            BinaryOperator::Assign => {
                let (copy, fresh) = self.fresh_assignment(&b.lhs, &b.rhs);
                let outer = std::mem::replace(&mut self.fresh_copy, copy);
                self.read(&b.rhs);
                self.fresh_copy = outer;
                self.heap_assign(&b.lhs, &b.rhs);
                if let Expression::Identifier(_) = &b.lhs.node {
                    self.assigned = self.element_address(&b.rhs);
                    self.assigned_index = self.argument_source(&b.rhs);
                }
                self.expr(&b.lhs, Mode::Write);
                self.assigned = None;
                self.assigned_index = None;
                if let Some(v) = fresh {
                    self.lock(Lock::Fresh(v));
                }
            }
            BinaryOperator::AssignMultiply
            | BinaryOperator::AssignDivide
            | BinaryOperator::AssignModulo
            | BinaryOperator::AssignPlus
            | BinaryOperator::AssignMinus
            | BinaryOperator::AssignShiftLeft
            | BinaryOperator::AssignShiftRight
            | BinaryOperator::AssignBitwiseAnd
            | BinaryOperator::AssignBitwiseXor
            | BinaryOperator::AssignBitwiseOr => {
                self.read(&b.rhs);
                self.heap_assign(&b.lhs, &b.rhs);
                self.heap_shift(&b.lhs);
                self.expr(&b.lhs, Mode::Both);
            }
            _ => {
                self.read(&b.lhs);
                self.read(&b.rhs);
            }
        }
    }

    /// The global `e` names, when it owns its blocks ([`super::owned`]).
    fn owner(&self, e: &Node<Expression>) -> Option<VarId> {
        let Expression::Identifier(i) = &e.node else {
            return None;
        };
        self.lookup(&i.node.name)
            .filter(|v| self.decls.owned.contains(v))
    }

    /// Element `index` of the block owner `v` points to (`v[i]`, `*v`), used as `mode`;
    /// `base` (the pointer) is read.
    fn owned_element(
        &mut self,
        v: VarId,
        index: Step,
        mode: Mode,
        at: usize,
        base: &'a Node<Expression>,
    ) {
        let write = match mode {
            Mode::Read => Some(false),
            Mode::Write | Mode::Both => Some(true),
            Mode::Address | Mode::Sync => None,
        };
        if let Some(write) = write {
            self.access_part(Target::Owned(v), vec![index], write, false, at);
        }
        self.read(base);
    }

    /// `a` indexed (`a[i]`) as the array object it may be: no decay.
    fn array_object(&mut self, a: &'a Node<Expression>, mode: Mode) {
        match &a.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(v) => self.named(v, mode, false, a.span.start),
                None => self.identifier(&i.node.name, mode, a.span.start),
            },
            _ => self.expr(a, mode),
        }
    }

    /// What a pointer argument points to, used as `mode` by the callee.
    fn pointee(&mut self, arg: &'a Node<Expression>, mode: Mode, atomic: bool) {
        let a = strip_casts(arg);
        match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.lvalue(&u.node.operand, mode, atomic)
            }
            Expression::StringLiteral(_) | Expression::Constant(_) => {}
            _ => match self.array_kind(a) {
                Tri::Yes => self.array_object(a, mode),
                Tri::Maybe => {
                    self.array_object(a, mode);
                    let n = self.pointer_node(Some(a));
                    self.deref(mode, atomic, a.span.start, n);
                }
                Tri::No => {
                    let n = self.pointer_node(Some(a));
                    self.deref(mode, atomic, a.span.start, n);
                    self.read(a);
                }
            },
        }
    }

    /// `lv` accessed as a whole as `mode` (atomically when `atomic`).
    fn lvalue(&mut self, lv: &'a Node<Expression>, mode: Mode, atomic: bool) {
        if let (true, Expression::Identifier(i)) = (atomic, &lv.node) {
            if let Some(v) = self.lookup(&i.node.name) {
                return self.named(v, mode, true, lv.span.start);
            }
        }
        if atomic {
            // `&x.f`, `&a[i]`, `&*p` of an atomic builtin: atomic too, as a deref.
            if let Expression::UnaryOperator(u) = &lv.node {
                if u.node.operator.node == UnaryOperator::Indirection {
                    let n = self.pointer_node(Some(&u.node.operand));
                    self.deref(mode, true, lv.span.start, n);
                    return self.read(&u.node.operand);
                }
            }
        }
        self.expr(lv, mode);
    }

    pub(super) fn sync_argument(&mut self, arg: &'a Node<Expression>) {
        let a = strip_casts(arg);
        match &a.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                self.expr(&u.node.operand, Mode::Sync)
            }
            _ => self.read(a),
        }
    }

    /// `e` as a part of a named variable: members (`.f`) and elements of the variable
    /// when it surely is an array (`a[i][j]`, up to its known depth), with the index
    /// expressions read on the way. None: not such a part (a pointer is followed).
    pub fn part(
        &self,
        e: &'a Node<Expression>,
    ) -> Option<(VarId, Path, Vec<&'a Node<Expression>>)> {
        match &e.node {
            Expression::Identifier(i) => Some((self.lookup(&i.node.name)?, vec![], vec![])),
            Expression::Member(m) if m.node.operator.node == MemberOperator::Indirect => {
                // `p->f` of an element pointer: `a[…].f` (`super::element`).
                let (a, p) = self.element_pointer_member(&m.node)?;
                let field = Step::Field(m.node.identifier.node.name.clone());
                Some((a, vec![Step::Index(None), field], vec![p]))
            }
            Expression::Member(m) if m.node.operator.node == MemberOperator::Direct => {
                let (v, mut path, indices) = self.part(&m.node.expression)?;
                path.push(Step::Field(m.node.identifier.node.name.clone()));
                Some((v, path, indices))
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                // `p[i]` of a pointer that can only hold an array's start: its element.
                let alias = match &b.node.lhs.node {
                    Expression::Identifier(i) => self
                        .lookup(&i.node.name)
                        .and_then(|p| self.decls.array_aliases.get(&p).copied()),
                    _ => None,
                };
                let (v, mut path, mut indices) = match alias {
                    Some(a) => (a, vec![], vec![]),
                    None => self.part(&b.node.lhs)?,
                };
                let var = &self.decls.vars[v];
                // Only elements of the variable's own array dimensions: past them, or
                // after a member, `[i]` may follow a pointer.
                let within = var.array == Tri::Yes
                    && path.iter().all(|s| matches!(s, Step::Index(_)))
                    && var.depth.is_some_and(|d| path.len() < d);
                if !within {
                    return None;
                }
                path.push(Step::Index(constant_index(&b.node.rhs)));
                indices.push(&b.node.rhs);
                Some((v, path, indices))
            }
            _ => None,
        }
    }

    /// A read or write of a part of a named variable (`s.f`, `a[2]`, `a[i].f`): an access
    /// of that part only. False when `e` is not one (or is the whole variable).
    fn named_part(&mut self, e: &'a Node<Expression>, mode: Mode) -> bool {
        let write = match mode {
            Mode::Read => false,
            Mode::Write | Mode::Both => true,
            Mode::Address | Mode::Sync => return false,
        };
        let Some((v, path, indices)) = self.part(e) else {
            return false;
        };
        if path.is_empty() {
            return false;
        }
        let cut = self.rows_cut(&path, &indices);
        for i in indices {
            self.read(i);
        }
        let var = &self.decls.vars[v];
        let may_be_array = match path.last() {
            Some(Step::Field(f)) => self.decls.ir.field_depth(f.as_str()) != Some(0),
            _ => var.depth.is_none_or(|d| path.len() < d),
        };
        if mode == Mode::Read && may_be_array {
            // An array part decays to an address inside the object.
            self.named(v, Mode::Address, false, e.span.start);
        }
        self.key = self.element_key(e);
        let path = self.own_path(e, path);
        let mut path = self.iteration_path(e, path);
        path.truncate(cut);
        self.access_part(Target::Var(v), path, write, false, e.span.start);
        self.key = None;
        true
    }

    fn call(&mut self, c: &'a CallExpression, at: usize) {
        let name = match &c.callee.node {
            Expression::Identifier(i) if self.lookup(&i.node.name).is_none() => {
                i.node.name.as_str()
            }
            _ => {
                self.read(&c.callee);
                for a in &c.arguments {
                    self.read(a);
                }
                return self.call_indirect(&c.arguments, at);
            }
        };
        if self.decls.bodies.contains_key(name) {
            let fresh = self.fresh_arguments(name, &c.arguments);
            for (k, a) in c.arguments.iter().enumerate() {
                let kept = fresh.iter().find(|(j, _)| *j == k).map(|(_, v)| *v);
                let outer = std::mem::replace(&mut self.fresh_copy, kept);
                self.read(a);
                self.fresh_copy = outer;
            }
            self.element_arguments(name, &c.arguments);
            self.heap_call_defined(name, &c.arguments, at);
            self.fresh_params = fresh.iter().map(|(k, _)| *k).collect();
            self.call_defined(name);
            if let Some(role) = self.decls.user_locks.get(name).copied() {
                self.user_lock(role, &c.arguments);
            }
            return;
        }
        let outer = std::mem::replace(&mut self.library_arguments, true);
        self.heap_library(name, &c.arguments, at);
        self.library_call(name, &c.arguments, at);
        self.library_arguments = outer;
        if NO_RETURN.contains(&name)
            || (name == "__CPROVER_assume" && c.arguments.first().is_some_and(is_zero))
        {
            self.state = None;
        }
    }

    /// A call of library function `name` (its points-to effects: [`Scan::heap_library`]).
    pub(super) fn library_call(&mut self, name: &str, args: &'a [Node<Expression>], at: usize) {
        let arg = |k: usize| args.get(k);
        if super::pure::value_only(name) {
            for a in args {
                self.read(a);
            }
            return;
        }
        if name == "pthread_detach" || name == "pthread_attr_setdetachstate" {
            self.run.detaches = true;
        }
        if name == "pthread_create" {
            if let (true, Some(held)) = (self.record, &self.state) {
                self.run.held_at_create.extend(held.iter().cloned());
            }
            if let Some(a) = arg(0) {
                self.pointee(a, Mode::Write, false);
            }
            if let Some(a) = arg(1) {
                self.sync_argument(a);
            }
            match arg(2).map(strip_casts) {
                Some(r) => self.start_routine(r, at, arg(3)),
                None => self.give_up("`pthread_create` without a start routine", at),
            }
            if let Some(a) = arg(3) {
                self.read(a);
            }
            return;
        }
        if name == "pthread_once" && self.pthread_once(args) {
            return;
        }
        if name == "pthread_join" {
            if let Some(a) = arg(0) {
                self.read(a);
            }
            if let Some(a) = arg(1).filter(|a| !is_zero(a)) {
                self.pointee(a, Mode::Write, false);
            }
            return;
        }
        if let Some(lock) = lock_effect(name) {
            let l = arg(0).and_then(|a| self.lock_named(a));
            for a in args {
                self.sync_argument(a);
            }
            let reinit = name.ends_with("_init") || name.ends_with("_destroy");
            if reinit && self.record && !self.solo && self.state.is_some() {
                match (&mut self.run.reinitialised, &l) {
                    (Some(set), Some(l)) => {
                        set.insert(l.clone());
                    }
                    (r, _) => *r = None,
                }
            }
            return match (lock, l) {
                (LockEffect::Exclusive, Some(l)) => self.lock(l),
                (LockEffect::Shared, Some(Lock::Mutex(v, path))) => {
                    self.lock(Lock::Shared(v, path))
                }
                (LockEffect::Exclusive | LockEffect::Shared, _) => {}
                (LockEffect::Release, l) => self.unlock(l),
            };
        }
        if let Some(op) = name.strip_prefix("sem_") {
            if matches!(op, "wait" | "post" | "init" | "destroy") {
                return self.semaphore(op, args);
            }
        }
        if name == abi::ATOMIC_BEGIN {
            return self.lock(Lock::Atomic);
        }
        if name == abi::ATOMIC_END {
            return self.unlock(Some(Lock::Atomic));
        }
        if sync_objects(name) {
            return self.sync_call(name, args);
        }
        if name == "dlsym" || name == "dlvsym" {
            // A function pointer the program does not take from a function of its own.
            return self.give_up(format!("`{name}`"), at);
        }
        if JUMPS.contains(&name) {
            return self.give_up(format!("`{name}` (a non-local jump)"), at);
        }
        if name.starts_with("pthread_") {
            self.may_call_back(name, args, at);
            // Thread-specific data, cancellation, `pthread_self`: their pointer
            // arguments may be kept and handed back.
            for a in args {
                self.read(a);
            }
            return;
        }
        if name == "__CPROVER_havoc_object" {
            if let Some(a) = arg(0) {
                self.pointee(a, Mode::Write, false);
            }
            return;
        }
        if name.starts_with("__CPROVER_") || name.starts_with("__VERIFIER_") {
            for a in args {
                self.read(a);
            }
            return;
        }
        if let Some(effect) = library::atomic_builtin(name) {
            for (k, a) in args.iter().enumerate() {
                match (k, effect) {
                    (0, Some(eff)) => self.pointee(a, mode_of(eff), true),
                    _ => self.effect_argument(name, k, a),
                }
            }
            return;
        }
        if let Some((group, eff)) = library::libc_state(name) {
            self.access(Target::Libc(group), eff == Effect::Write, false, at);
        }
        if library::effects(name).is_some() {
            for (k, a) in args.iter().enumerate() {
                self.effect_argument(name, k, a);
            }
            return;
        }
        if prints(name) {
            for a in args {
                if self.surely_arithmetic(a) {
                    self.read(a);
                } else {
                    self.pointee(a, Mode::Read, false);
                }
            }
            return;
        }
        // A function without a body the proof does not know: it may read and write
        // through every pointer argument and keep it, and call a function the program
        // gave it (a key destructor, a signal handler, `pthread_once`'s routine).
        self.may_call_back(name, args, at);
        for a in args {
            self.read(a);
            if !(is_constant(a) || self.surely_arithmetic(a)) {
                let n = self.pointer_node(Some(a));
                self.deref(Mode::Write, false, a.span.start, n);
            }
        }
    }

    /// `sem_wait`, `sem_post`, `sem_init`, `sem_destroy` (`op`): a semaphore is a lock of
    /// the proof, held from a `sem_wait` to its `sem_post`, when its count never exceeds 1:
    /// every `sem_init` gives it 0 or 1 while `main` runs alone and every `sem_post` is
    /// made by a thread that holds it (then count + holders stays at most 1). Any other
    /// post or init makes it no lock (as a mutex initialised while threads run).
    fn semaphore(&mut self, op: &str, args: &'a [Node<Expression>]) {
        let l = args.first().and_then(|a| self.lock_of(a));
        for a in args {
            self.sync_argument(a);
        }
        let held = match (&l, &self.state) {
            (Some(l), Some(locks)) => locks.contains(l),
            _ => false,
        };
        let loose = match op {
            "wait" => {
                if let Some(l) = l {
                    self.lock(l);
                }
                return;
            }
            "post" => !held,
            "init" => {
                let value = args.get(2).and_then(constant_index);
                !self.solo || !matches!(value, Some(0 | 1))
            }
            _ => !self.solo,
        };
        if loose && self.record && self.state.is_some() {
            match (&mut self.run.reinitialised, &l) {
                (Some(set), Some(l)) => {
                    set.insert(l.clone());
                }
                (r, _) => *r = None,
            }
        }
        if op == "post" {
            self.unlock(l);
        }
    }

    /// A call of a lock function of the program's own ([`super::userlock`]): an acquire
    /// locks the lock its argument names; a release unlocks it, and makes it no lock of
    /// the proof when the thread may not hold it (as a `sem_post`).
    fn user_lock(&mut self, role: Role, args: &'a [Node<Expression>]) {
        let l = args.first().and_then(|a| self.lock_of(a));
        match role {
            Role::Acquire => {
                if let Some(l) = l {
                    if self.record {
                        self.run.user_acquired.insert(l.clone());
                    }
                    self.lock(l);
                }
            }
            Role::Release => {
                let held = match (&l, &self.state) {
                    (Some(l), Some(locks)) => locks.contains(l),
                    _ => false,
                };
                if !held && self.record && self.state.is_some() {
                    match (&mut self.run.user_loose, &l) {
                        (Some(set), Some(l)) => {
                            set.insert(l.clone());
                        }
                        (r, _) => *r = None,
                    }
                }
                self.unlock(l);
            }
        }
    }

    /// Library function `name` may call back any function whose address the program
    /// takes and hands it through an argument (a pointer to a function, or to a struct
    /// holding one), when and in whichever thread it likes: the proof cannot follow
    /// that. Arithmetic arguments hand it none.
    fn may_call_back(&mut self, name: &str, args: &[Node<Expression>], at: usize) {
        if args
            .iter()
            .all(|a| is_constant(a) || self.surely_arithmetic(a))
        {
            return;
        }
        let targets = self.decls.function_targets.as_ref();
        if let Some(f) = targets.and_then(|t| t.iter().next()) {
            let why =
                format!("`{name}` may call a function whose address the program takes (`{f}`, …)");
            self.give_up(why, at);
        }
    }

    /// Argument `k` of library function `name` with known effects.
    fn effect_argument(&mut self, name: &str, k: usize, a: &'a Node<Expression>) {
        if !keeps_no_pointer(name) {
            // The address may come back (the result) or be stored: it escapes.
            self.read(a);
        }
        let effects = library::effects(name).unwrap_or(&[]);
        let mine: Vec<Effect> = effects
            .iter()
            .filter(|(sel, _)| match sel {
                Args::At(i) => *i == k,
                Args::From(i) => k >= *i,
            })
            .map(|(_, e)| *e)
            .collect();
        if mine.is_empty() {
            return self.read(a);
        }
        for e in mine {
            self.pointee(a, mode_of(e), false);
        }
    }

    /// The start routine `r` of a create given `argument`.
    fn start_routine(
        &mut self,
        r: &'a Node<Expression>,
        at: usize,
        argument: Option<&'a Node<Expression>>,
    ) {
        let r = match &r.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                strip_casts(&u.node.operand)
            }
            _ => r,
        };
        match &r.node {
            Expression::Identifier(i)
                if self.lookup(&i.node.name).is_none()
                    && self.decls.bodies.contains_key(&i.node.name) =>
            {
                if self.record {
                    self.run.creates.push(CreateSite {
                        routine: i.node.name.clone(),
                    });
                }
                self.heap_create(&i.node.name, argument);
            }
            _ => {
                self.read(r);
                self.give_up("a start routine that is not a defined function's name", at)
            }
        }
    }

    /// An expression whose value surely is no pointer: constants, arithmetic variables
    /// and arithmetic on them.
    pub(super) fn surely_arithmetic(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Constant(_) | Expression::SizeOfTy(_) | Expression::SizeOfVal(_) => true,
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(v) => self.decls.vars[v].arithmetic,
                None => !self.decls.functions.contains(&i.node.name),
            },
            Expression::UnaryOperator(u) => {
                matches!(
                    u.node.operator.node,
                    UnaryOperator::Minus
                        | UnaryOperator::Plus
                        | UnaryOperator::Complement
                        | UnaryOperator::Negate
                ) && self.surely_arithmetic(&u.node.operand)
            }
            Expression::BinaryOperator(b) => {
                !matches!(b.node.operator.node, BinaryOperator::Index)
                    && self.surely_arithmetic(&b.node.lhs)
                    && self.surely_arithmetic(&b.node.rhs)
            }
            _ => false,
        }
    }
}

fn mode_of(e: Effect) -> Mode {
    match e {
        Effect::Read => Mode::Read,
        Effect::Write => Mode::Write,
    }
}
