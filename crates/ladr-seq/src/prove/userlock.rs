//! Lock functions the program builds itself from atomic sections (issue 30), as the Linux
//! driver models of SV-COMP do:
//!
//! * an *acquire* `void lock(T *p) { atomic_begin(); assume(p->f == 0); p->f = 1;
//!   atomic_end(); }` blocks until field `f` is 0 and sets it, in one atomic step;
//! * a *release* `void unlock(T *p) { [atomic_begin();] p->f = 0; [atomic_end();] }`.
//!
//! A call `lock(&m)` then acquires the lock `m` of the proof and `unlock(&m)` releases it.
//! Exclusion holds while at most one thread holds `m` and a held `m` has `m.f != 0`. The
//! walk keeps the rest of that invariant ([`super::scan::FnRun::user_loose`]): a release
//! by a thread not holding `m`, or a thread created while its creator holds `m` (what
//! `main` wrote while alone is unknown), makes `m` no lock. Here, for the whole program:
//! no atomic section (nor `__VERIFIER_atomic_*` function) writes a member named `f` but
//! to a nonzero constant, writes through a pointer or a struct value, or calls a function
//! of the program or a library function with arguments; no `__atomic_*`/`__sync_*`
//! builtin and no `_Atomic` type appears; `f` is no member of a union nor a bit-field.
//! Any other write of `f` is not atomic: when it may run while another thread acquires or
//! releases `m`, the proof judges it a race on `m`'s memory — the accesses of the lock
//! functions count as holding no lock but the atomic section. The functions must be
//! called by name only (their address is never taken).

use ladr_c::syntax::build::{callee_name, declarator_name};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec, Walk};
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What a call of a recognised lock function does to the lock its argument names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Acquire,
    Release,
}

/// The recognised lock functions of `unit`, by name (`targets`: the functions whose
/// address is taken; `overlapping_fields`: members sharing memory with another).
pub fn user_locks(
    unit: &TranslationUnit,
    bodies: &HashMap<String, &FunctionDefinition>,
    targets: &BTreeSet<String>,
    overlapping_fields: &HashSet<String>,
) -> HashMap<String, Role> {
    let assumes: HashSet<&str> = bodies
        .iter()
        .filter(|(_, f)| is_assume_function(f))
        .map(|(n, _)| n.as_str())
        .collect();
    let mut found: HashMap<String, (Role, String)> = HashMap::new();
    for (name, f) in bodies {
        if targets.contains(name) || name.starts_with(abi::ATOMIC_PREFIX) {
            continue;
        }
        if let Some(r) = shape(f, &assumes) {
            found.insert(name.clone(), r);
        }
    }
    if found.is_empty() {
        return HashMap::new();
    }
    let fields: HashSet<String> = found.values().map(|r| r.1.clone()).collect();
    let mut check = Check {
        fields: &fields,
        bad_fields: HashSet::new(),
        all_bad: false,
        atomic_function: false,
        whole_function: false,
        sections: HashMap::new(),
        assumes: &assumes,
        bodies,
        lock_functions: found.keys().cloned().collect(),
    };
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => {
                let Ok(()) = visit::declaration(&mut check, d);
            }
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => {
                let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                if found.contains_key(name) {
                    continue;
                }
                // Sections opened and closed in one block are followed item by item;
                // any other: the whole function counts as atomic.
                check.whole_function =
                    name.starts_with(abi::ATOMIC_PREFIX) || !sections_in_blocks(&f.node);
                check.atomic_function = check.whole_function;
                check.sections.clear();
                let Ok(()) = visit::function(&mut check, f);
            }
        }
    }
    if check.all_bad {
        return HashMap::new();
    }
    found
        .into_iter()
        .filter(|(_, (_, field))| {
            // A member of a union or a bit-field shares its memory with another member.
            !check.bad_fields.contains(field) && !overlapping_fields.contains(field)
        })
        .map(|(n, (role, _))| (n, role))
        .collect()
}

/// The statements of a body, through nested `{ … }`; none: a declaration or another kind.
fn statements(s: &Node<Statement>) -> Option<Vec<&Node<Expression>>> {
    let Statement::Compound(items) = &s.node else {
        return None;
    };
    if let [BlockItem::Statement(inner)] =
        items.as_slice().iter().map(|i| &i.node).collect::<Vec<_>>()[..]
    {
        if matches!(inner.node, Statement::Compound(_)) {
            return statements(inner);
        }
    }
    items
        .iter()
        .map(|i| match &i.node {
            BlockItem::Statement(st) => match &st.node {
                Statement::Expression(Some(e)) => Some(&**e),
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// The one parameter's name of `f`, returning `void`.
fn single_parameter(f: &FunctionDefinition) -> Option<&str> {
    let returns_void = f
        .specifiers
        .iter()
        .any(|s| matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void));
    returns_void.then(|| single_parameter_any(f)).flatten()
}

fn call_of<'e>(e: &'e Node<Expression>, name: &str) -> Option<&'e [Node<Expression>]> {
    match &e.node {
        Expression::Call(c) if callee_name(&c.node) == Some(name) => Some(&c.node.arguments),
        _ => None,
    }
}

/// `p->f` of parameter `p`: `f`.
fn field_of<'e>(e: &'e Node<Expression>, p: &str) -> Option<&'e str> {
    let Expression::Member(m) = &e.node else {
        return None;
    };
    let Expression::Identifier(i) = &m.node.expression.node else {
        return None;
    };
    (m.node.operator.node == MemberOperator::Indirect && i.node.name == p)
        .then_some(m.node.identifier.node.name.as_str())
}

fn integer(e: &Node<Expression>) -> Option<u64> {
    match &e.node {
        Expression::Constant(c) => match &c.node {
            Constant::Integer(i) if i.base == IntegerBase::Decimal => i.number.parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

/// `p->f = value`: `f`.
fn sets<'e>(e: &'e Node<Expression>, p: &str, value: u64) -> Option<&'e str> {
    let Expression::BinaryOperator(b) = &e.node else {
        return None;
    };
    if b.node.operator.node != BinaryOperator::Assign || integer(&b.node.rhs) != Some(value) {
        return None;
    }
    field_of(&b.node.lhs, p)
}

/// The role and lock field of `f` when it has an acquire's or a release's shape.
fn shape(f: &FunctionDefinition, assumes: &HashSet<&str>) -> Option<(Role, String)> {
    let p = single_parameter(f)?;
    let body = statements(&f.statement)?;
    match body.as_slice() {
        [begin, assume, set, end] => {
            call_of(begin, abi::ATOMIC_BEGIN)?;
            call_of(end, abi::ATOMIC_END)?;
            let field = sets(set, p, 1)?;
            let Expression::Call(c) = &assume.node else {
                return None;
            };
            let name = callee_name(&c.node)?;
            let direct = matches!(name, "__VERIFIER_assume" | "__CPROVER_assume");
            if !(direct || assumes.contains(name)) {
                return None;
            }
            let [cond] = c.node.arguments.as_slice() else {
                return None;
            };
            let Expression::BinaryOperator(b) = &cond.node else {
                return None;
            };
            let tests = b.node.operator.node == BinaryOperator::Equals
                && integer(&b.node.rhs) == Some(0)
                && field_of(&b.node.lhs, p) == Some(field);
            tests.then(|| (Role::Acquire, field.to_string()))
        }
        [begin, set, end] => {
            call_of(begin, abi::ATOMIC_BEGIN)?;
            call_of(end, abi::ATOMIC_END)?;
            Some((Role::Release, sets(set, p, 0)?.to_string()))
        }
        [set] => Some((Role::Release, sets(set, p, 0)?.to_string())),
        _ => None,
    }
}

/// `void assume(int c) { if (!c) { __CPROVER_assume(0); } }` (or `abort()`): it returns
/// only when `c` holds.
fn is_assume_function(f: &FunctionDefinition) -> bool {
    let Some(p) = single_parameter_any(f) else {
        return false;
    };
    let Statement::Compound(items) = &f.statement.node else {
        return false;
    };
    let [item] = items.as_slice() else {
        return false;
    };
    let BlockItem::Statement(s) = &item.node else {
        return false;
    };
    let Statement::If(i) = &s.node else {
        return false;
    };
    let negates = matches!(&i.node.condition.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Negate
            && matches!(&u.node.operand.node, Expression::Identifier(x) if x.node.name == p));
    let stops = statements(&i.node.then_statement).is_some_and(|body| {
        body.first().is_some_and(|e| {
            call_of(e, "abort").is_some()
                || ["__CPROVER_assume", "__VERIFIER_assume"].iter().any(|n| {
                    call_of(e, n).is_some_and(|a| a.len() == 1 && integer(&a[0]) == Some(0))
                })
        })
    });
    negates && stops && i.node.else_statement.is_none()
}

/// The one parameter of `f` (any return type).
fn single_parameter_any(f: &FunctionDefinition) -> Option<&str> {
    let [d] = f.declarator.node.derived.as_slice() else {
        return None;
    };
    let DerivedDeclarator::Function(fd) = &d.node else {
        return None;
    };
    let [p] = fd.node.parameters.as_slice() else {
        return None;
    };
    declarator_name(&p.node.declarator.as_ref()?.node)
}

fn sections_in_blocks(f: &FunctionDefinition) -> bool {
    struct Find(bool);
    impl Visitor for Find {
        type Error = std::convert::Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Self::Error> {
            if let Statement::Compound(items) = &s.node {
                let mut open = false;
                for i in items {
                    match section_mark(i) {
                        Some(true) if !open => open = true,
                        Some(false) if open => open = false,
                        Some(_) => self.0 = false,
                        None => {}
                    }
                }
                if open {
                    self.0 = false;
                }
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
            // A section mark not a statement of its own.
            if let Expression::Call(c) = &e.node {
                for a in &c.node.arguments {
                    if call_of(a, abi::ATOMIC_BEGIN).is_some()
                        || call_of(a, abi::ATOMIC_END).is_some()
                    {
                        self.0 = false;
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut find = Find(true);
    let Ok(()) = visit::stmt(&mut find, &f.statement);
    find.0
}

/// A block item that is `atomic_begin();` (true) or `atomic_end();` (false).
fn section_mark(i: &Node<BlockItem>) -> Option<bool> {
    let BlockItem::Statement(s) = &i.node else {
        return None;
    };
    let Statement::Expression(Some(e)) = &s.node else {
        return None;
    };
    if call_of(e, abi::ATOMIC_BEGIN).is_some() {
        return Some(true);
    }
    call_of(e, abi::ATOMIC_END).map(|_| false)
}

/// The whole-program check of the writes of lock fields.
struct Check<'c> {
    fields: &'c HashSet<String>,
    /// Lock fields written other than by the lock functions.
    bad_fields: HashSet<String>,
    /// Something may write any lock field.
    all_bad: bool,
    /// The item walked may be inside an atomic section.
    atomic_function: bool,
    /// The function walked counts as atomic throughout.
    whole_function: bool,
    /// The block items of the function walked inside an atomic section, by address.
    sections: HashMap<usize, bool>,
    assumes: &'c HashSet<&'c str>,
    bodies: &'c HashMap<String, &'c FunctionDefinition>,
    lock_functions: HashSet<String>,
}

impl Check<'_> {
    /// A lock field a member expression names.
    fn lock_field(&self, e: &Node<Expression>) -> Option<String> {
        match &e.node {
            Expression::Member(m) if self.fields.contains(&m.node.identifier.node.name) => {
                Some(m.node.identifier.node.name.clone())
            }
            _ => None,
        }
    }

    /// A write of `lhs` (to `rhs`, when a plain assignment).
    fn write(&mut self, lhs: &Node<Expression>, rhs: Option<&Node<Expression>>) {
        if !self.atomic_function {
            return;
        }
        if let Some(f) = self.lock_field(lhs) {
            if rhs.and_then(integer).is_none_or(|v| v == 0) {
                self.bad_fields.insert(f);
            }
            return;
        }
        // A named variable or member: in an atomic section, only given a value that is
        // surely no struct (a struct may hold a lock field).
        let named = match &lhs.node {
            Expression::Identifier(_) => true,
            Expression::Member(m) => {
                m.node.operator.node == MemberOperator::Indirect
                    || matches!(m.node.expression.node, Expression::Identifier(_))
            }
            _ => false,
        };
        let scalar = rhs.is_none_or(|r| match &r.node {
            Expression::Constant(_) => true,
            Expression::Call(c) => {
                callee_name(&c.node).is_some_and(|n| n.starts_with("__VERIFIER_nondet"))
            }
            Expression::BinaryOperator(b) => !matches!(
                b.node.operator.node,
                BinaryOperator::Index | BinaryOperator::Assign
            ),
            Expression::UnaryOperator(u) => u.node.operator.node != UnaryOperator::Indirection,
            _ => false,
        });
        let plain = named && scalar;
        if self.atomic_function && !plain {
            self.all_bad = true;
        }
    }
}

impl Visitor for Check<'_> {
    type Error = std::convert::Infallible;
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
        match &e.node {
            Expression::BinaryOperator(b) if is_assign_op(&b.node.operator.node) => {
                let plain = b.node.operator.node == BinaryOperator::Assign;
                self.write(&b.node.lhs, plain.then_some(&*b.node.rhs));
            }
            Expression::UnaryOperator(u) if is_inc_dec(&u.node.operator.node) => {
                self.write(&u.node.operand, None)
            }
            Expression::Call(c) => match callee_name(&c.node) {
                Some(n) if n.starts_with("__atomic_") || n.starts_with("__sync_") => {
                    self.all_bad = true
                }
                Some(n) if self.lock_functions.contains(n) || self.assumes.contains(n) => {}
                Some(n) if n.starts_with("__VERIFIER_") || n.starts_with("__CPROVER_") => {}
                Some(n) if !self.bodies.contains_key(n) && c.node.arguments.is_empty() => {}
                _ => {
                    // Inside an atomic section a call may write anything atomically.
                    if self.atomic_function {
                        self.all_bad = true;
                    }
                }
            },
            _ => {}
        }
        Ok(Walk::Descend)
    }

    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Self::Error> {
        if let Statement::Compound(items) = &s.node {
            let outer = self.atomic_function;
            let mut open = outer;
            for i in items {
                match section_mark(i) {
                    Some(true) => open = true,
                    Some(false) => open = outer,
                    None => {}
                }
                self.sections.insert(i as *const _ as usize, open);
            }
        }
        Ok(Walk::Descend)
    }

    fn block_item(&mut self, i: &Node<BlockItem>) -> Result<Walk, Self::Error> {
        if let Some(&open) = self.sections.get(&(i as *const _ as usize)) {
            self.atomic_function = open;
        }
        Ok(Walk::Descend)
    }

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Self::Error> {
        if d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
        }) {
            self.all_bad = true;
        }
        Ok(Walk::Descend)
    }

    fn type_name(&mut self, t: &Node<TypeName>) -> Result<Walk, Self::Error> {
        if t.node.specifiers.iter().any(|s| {
            matches!(&s.node, SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
        }) {
            self.all_bad = true;
        }
        Ok(Walk::Descend)
    }

    fn type_specifier(&mut self, t: &Node<TypeSpecifier>) -> Result<Walk, Self::Error> {
        match &t.node {
            TypeSpecifier::Atomic(_) => self.all_bad = true,
            TypeSpecifier::Struct(s) => {
                for d in s.node.declarations.iter().flatten() {
                    if let StructDeclaration::Field(f) = &d.node {
                        if f.node.specifiers.iter().any(|s| {
                            matches!(&s.node, SpecifierQualifier::TypeQualifier(q) if q.node == TypeQualifier::Atomic)
                        }) {
                            self.all_bad = true;
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(Walk::Descend)
    }
}
