//! Thread locals whose addresses never leave their thread ([`confine`]): a slot's local
//! array or struct whose address goes only into the slot's own private pointers, and those
//! pointers, which point only at such objects, string literals or blocks the slot allocated
//! itself. No other thread can reach what they designate, so `*p`, `p[i]` and `p->f` of
//! such a pointer, and every access of such an object, are no data accesses (the inlined
//! callee's `int *runLength` parameter pointing at its caller's `int runLength[178]`).
//!
//! A flow graph over names, after `threads` (each slot's locals are renamed apart, so a
//! name is one object of one thread). Every occurrence of a candidate is read in its
//! context:
//! * a private pointer (a scalar thread local whose address is never taken) may be
//!   dereferenced, compared, tested, stepped (`p++`, `p += n`) and assigned to another
//!   private pointer (an edge); used as any other value (a call's argument, stored into
//!   memory or into another variable, returned) it **escapes**;
//! * a thread local array or struct may be accessed by name; its address (`&o`, `&o.f`,
//!   `o` decaying) may go into a private pointer (an edge) or be compared; anywhere else it
//!   escapes;
//! * a private pointer assigned anything else (a global pointer, a value loaded from
//!   memory, a call's result other than an allocation, an integer other than 0, a
//!   parameter) is **tainted**: it may point anywhere.
//!
//! Then an object or pointer whose value flows into an escaping pointer escapes too
//! (backwards along the edges), and a pointer that may receive an escaping object's or a
//! tainted pointer's value is tainted (forwards). What is left is confined. The C
//! library's `memset`, `memcpy`, `strlen`, `free`, … do not keep their arguments: passed
//! to them in a statement of its own (the result unused), a pointer does not escape.
//! Every doubt escapes or taints: a confined name only removes instrumentation that could
//! never flag a race.

use crate::abi;
use crate::analysis::Vars;
use ladr_c::syntax::build::{callee_name, declarator_name, parameter_names};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// The thread locals no other thread can reach, and the private pointers that point only
/// at such memory.
#[derive(Clone, Debug, Default)]
pub struct Confined {
    /// Arrays, structs and address-taken scalars of a slot whose address stays in it.
    pub objects: HashSet<String>,
    /// Private pointers whose every value points into the slot's confined memory.
    pub pointers: HashSet<String>,
}

/// The confined objects and pointers of `unit` (after `threads`), with `vars` its facts.
pub fn confine(unit: &TranslationUnit, vars: &Vars) -> Confined {
    let names = declared(unit);
    let mut g = Graph {
        vars,
        pointers: names.pointers,
        constants: names.constants,
        edges: vec![],
        escaped: HashSet::new(),
        tainted: HashSet::new(),
        allocations: 0,
    };
    let Ok(()) = visit::unit(&mut g, unit);
    // Parameters get their values from callers (a slot's from `__ladr_arg`, assigned in
    // its body; a kept or model function's from anywhere).
    for ext in &unit.0 {
        if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
            g.tainted.extend(parameter_names(&f.node.declarator.node));
        }
    }
    g.close();
    let candidates = vars.thread_locals().iter();
    let mut out = Confined::default();
    for n in candidates {
        if g.escaped.contains(n) || g.tainted.contains(n) || !vars.is_variable(n) {
            continue;
        }
        if vars.is_private(n) {
            // Only a declared pointer: `k[g]` is `g[k]`, and `k` an integer local.
            if g.pointers.contains(n) {
                out.pointers.insert(n.clone());
            }
        } else {
            out.objects.insert(n.clone());
        }
    }
    out
}

impl Vars {
    /// Finds the thread locals whose addresses stay in their thread and the pointers that
    /// point only at them ([`crate::confined::confine`]; `unit` after `threads`, whose
    /// slots' locals are renamed apart): from now on they are not shared, nor is `*p`.
    pub fn confine(&mut self, unit: &TranslationUnit) {
        self.confined = crate::confined::confine(unit, self);
    }

    /// Does pointer expression `e` (a private pointer, under casts) point only into memory
    /// of its own thread ([`Vars::confine`])? Then `*e`, `e[i]` and `e->f` are no data
    /// accesses.
    pub fn points_into_own_thread(&self, e: &Expression) -> bool {
        match e {
            Expression::Identifier(i) => self.confined.pointers.contains(&i.node.name),
            Expression::Cast(c) => self.points_into_own_thread(&c.node.expression.node),
            _ => false,
        }
    }

    /// Is what pointer `e` points at no data (a library call's argument): its thread's own
    /// memory (a confined pointer or array, stepped or cast) or a string literal, which is
    /// never written?
    pub fn points_at_no_data(&self, e: &Expression) -> bool {
        match stepped_base(e) {
            Expression::Identifier(i) => {
                let n = &i.node.name;
                self.confined.pointers.contains(n)
                    || self.confined.objects.contains(n)
                        && self.object_depth(n).is_some_and(|d| d > 0)
            }
            Expression::StringLiteral(_) => true,
            _ => false,
        }
    }
}

/// Does pointer `e` point into a string literal (`(char *)"…" + k`)? A literal is never
/// written (that is undefined), so reading it races with nothing.
pub fn into_literal(e: &Expression) -> bool {
    matches!(stepped_base(e), Expression::StringLiteral(_))
}

/// The pointer `e` steps from, under casts and `+ k` / `- k` offsets (`(char *)p + 1` →
/// `p`).
fn stepped_base(e: &Expression) -> &Expression {
    match e {
        Expression::Cast(c) => stepped_base(&c.node.expression.node),
        Expression::BinaryOperator(b)
            if matches!(
                b.node.operator.node,
                BinaryOperator::Plus | BinaryOperator::Minus
            ) =>
        {
            stepped_base(&b.node.lhs.node)
        }
        other => other,
    }
}

/// Where a value goes.
#[derive(Clone, Copy)]
enum Mode<'a> {
    /// Anywhere: stored, passed, returned (an address used so escapes).
    Value,
    /// Nowhere: a statement's value, a test, a comparison's operand.
    Discard,
    /// Dereferenced: the base of `*e`, `e[i]`, `e->f`.
    Root,
    /// Assigned to the private pointer named.
    Flow(&'a str),
}

struct Graph<'v> {
    vars: &'v Vars,
    /// Variables declared as pointers (`T *p`, not through a typedef).
    pointers: HashSet<String>,
    /// Objects declared `const` (no pointer declarator: `static const char t[] = …`):
    /// writing one is undefined, so a pointer into one only reads, and reads race with
    /// nothing.
    constants: HashSet<String>,
    /// (from, to): the value of `from` (a pointer's, or an object's address) goes into `to`.
    edges: Vec<(String, String)>,
    escaped: HashSet<String>,
    tainted: HashSet<String>,
    /// Allocation calls met (each its own node).
    allocations: usize,
}

/// Library functions that keep no pointer argument and return a number (or nothing).
const RETURNS_NUMBER: &[&str] = &[
    "memcmp", "bzero", "strlen", "strnlen", "strcmp", "strncmp", "free",
];

/// Library functions that keep no pointer argument and return their first.
const RETURNS_FIRST: &[&str] = &[
    "memset", "memcpy", "memmove", "strcpy", "strncpy", "strcat", "strncat",
];

/// Functions whose result is a new block (or a new opaque object) of the calling thread.
fn allocates(name: &str) -> bool {
    matches!(
        abi::modelled_function(name),
        "malloc" | "calloc" | "strdup" | "strndup"
    ) || name == abi::FRESH_BLOCK
        || name == abi::FRESH_OBJECT
}

impl Graph<'_> {
    fn is_candidate(&self, n: &str) -> bool {
        self.vars.is_thread_local(n)
    }

    fn edge(&mut self, from: &str, to: &str) {
        self.edges.push((from.to_string(), to.to_string()));
    }

    fn taint(&mut self, mode: Mode) {
        if let Mode::Flow(q) = mode {
            self.tainted.insert(q.to_string());
        }
    }

    /// The address of (or the pointer value in) candidate `n` used in `mode`.
    fn address(&mut self, n: &str, mode: Mode) {
        match mode {
            Mode::Value => {
                self.escaped.insert(n.to_string());
            }
            Mode::Flow(q) => self.edge(n, q),
            Mode::Discard | Mode::Root => {}
        }
    }

    /// Escapes backwards along the edges, taints forwards.
    fn close(&mut self) {
        let mut into: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut out_of: HashMap<&str, Vec<&str>> = HashMap::new();
        for (a, b) in &self.edges {
            into.entry(b).or_default().push(a);
            out_of.entry(a).or_default().push(b);
        }
        let mut work: Vec<String> = self.escaped.iter().cloned().collect();
        let mut escaped = self.escaped.clone();
        while let Some(n) = work.pop() {
            for a in into.get(n.as_str()).into_iter().flatten() {
                if escaped.insert(a.to_string()) {
                    work.push(a.to_string());
                }
            }
        }
        let mut tainted: HashSet<String> = self.tainted.union(&escaped).cloned().collect();
        let mut work: Vec<String> = tainted.iter().cloned().collect();
        while let Some(n) = work.pop() {
            for b in out_of.get(n.as_str()).into_iter().flatten() {
                if tainted.insert(b.to_string()) {
                    work.push(b.to_string());
                }
            }
        }
        self.escaped = escaped;
        self.tainted = tainted;
    }

    /// Is `e` surely a pointer value (so `e + n` steps it)?
    fn pointerish(&self, e: &Expression) -> bool {
        match e {
            Expression::Identifier(i) => {
                self.pointers.contains(&i.node.name)
                    || self.vars.object_depth(&i.node.name).is_some_and(|d| d > 0)
            }
            Expression::StringLiteral(_) => true,
            Expression::Cast(c) => self.pointerish(&c.node.expression.node),
            Expression::UnaryOperator(u) => u.node.operator.node == UnaryOperator::Address,
            _ => false,
        }
    }

    fn scan(&mut self, e: &Expression, mode: Mode) {
        match e {
            Expression::Identifier(i) => {
                let n = &i.node.name;
                if self.constants.contains(n) && self.vars.object_depth(n).is_some_and(|d| d > 0) {
                    return; // a constant array's address
                }
                if !self.is_candidate(n) {
                    return self.taint(mode);
                }
                if self.vars.is_private(n) {
                    return self.address(n, mode);
                }
                match self.vars.object_depth(n) {
                    // An array decays to its address.
                    Some(d) if d > 0 => self.address(n, mode),
                    // A value read by name (not an address).
                    Some(_) => self.taint(mode),
                    None => {
                        self.address(n, mode);
                        self.taint(mode);
                    }
                }
            }
            Expression::Constant(c) => {
                let zero = matches!(&c.node, Constant::Integer(i)
                    if i.number.chars().all(|ch| ch == '0'));
                if !zero {
                    self.taint(mode);
                }
            }
            Expression::StringLiteral(_) => {}
            Expression::Member(_) | Expression::BinaryOperator(_) if is_lvalue_access(e) => {
                self.loaded(e, mode)
            }
            Expression::UnaryOperator(u) => self.unary(u, mode),
            Expression::BinaryOperator(b) => self.binary(b, mode),
            Expression::Cast(c) => self.scan(&c.node.expression.node, mode),
            Expression::Conditional(c) => {
                self.scan(&c.node.condition.node, Mode::Discard);
                self.scan(&c.node.then_expression.node, mode);
                self.scan(&c.node.else_expression.node, mode);
            }
            Expression::Comma(es) => {
                let last = es.len().saturating_sub(1);
                for (k, x) in es.iter().enumerate() {
                    self.scan(&x.node, if k == last { mode } else { Mode::Discard });
                }
            }
            Expression::Call(c) => self.call(&c.node, mode),
            Expression::Statement(s) => {
                let Ok(()) = visit::stmt(self, s);
                // The value of the last statement goes where the expression's goes.
                if let Statement::Compound(items) = &s.node {
                    if let Some(BlockItem::Statement(last)) = items.last().map(|i| &i.node) {
                        if let Statement::Expression(Some(x)) = &last.node {
                            self.scan(&x.node, mode);
                        }
                    }
                }
            }
            Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => {}
            other => {
                // Compound literals, `va_arg`, generic selections, …: every operand used
                // anywhere, the value unknown.
                let mut inner = Everything(self);
                let Ok(()) = visit::expr_children(&mut inner, other);
                self.taint(mode);
            }
        }
    }

    /// An lvalue read as a value (`o.f`, `p->f`, `a[i]`): the value loaded is unknown,
    /// unless the lvalue is an array, which decays to its address.
    fn loaded(&mut self, e: &Expression, mode: Mode) {
        if self.vars.array_depth(e) > 0 && !matches!(mode, Mode::Discard) {
            self.address_of(e, mode);
        } else {
            self.taint(mode);
            self.lvalue(e);
        }
    }

    /// `&e` used in `mode`.
    fn address_of(&mut self, e: &Expression, mode: Mode) {
        match e {
            Expression::Identifier(i) => {
                let n = &i.node.name;
                if self.is_candidate(n) {
                    self.address(n, mode);
                } else if !self.constants.contains(n) {
                    self.taint(mode);
                }
            }
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.address_of(&m.node.expression.node, mode),
                MemberOperator::Indirect => self.scan(&m.node.expression.node, mode),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.scan(&b.node.rhs.node, Mode::Value);
                if self.vars.array_depth(&b.node.lhs.node) > 0 {
                    self.address_of(&b.node.lhs.node, mode);
                } else {
                    self.scan(&b.node.lhs.node, mode);
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.scan(&u.node.operand.node, mode)
            }
            other => {
                self.scan(other, Mode::Value);
                self.taint(mode);
            }
        }
    }

    /// An lvalue accessed (read or written), not its address: its indices are values, the
    /// pointers it goes through are dereferenced.
    fn lvalue(&mut self, e: &Expression) {
        match e {
            Expression::Identifier(_) => {}
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.lvalue(&m.node.expression.node),
                MemberOperator::Indirect => self.scan(&m.node.expression.node, Mode::Root),
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                self.scan(&b.node.rhs.node, Mode::Value);
                if self.vars.array_depth(&b.node.lhs.node) > 0 {
                    self.lvalue(&b.node.lhs.node);
                } else {
                    self.scan(&b.node.lhs.node, Mode::Root);
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.scan(&u.node.operand.node, Mode::Root)
            }
            other => self.scan(other, Mode::Value),
        }
    }

    fn unary(&mut self, u: &Node<UnaryOperatorExpression>, mode: Mode) {
        let operand = &u.node.operand.node;
        match u.node.operator.node {
            UnaryOperator::Address => self.address_of(operand, mode),
            UnaryOperator::Indirection => {
                if self
                    .vars
                    .array_depth(&Expression::UnaryOperator(Box::new(u.clone())))
                    > 0
                    && !matches!(mode, Mode::Discard)
                {
                    self.scan(operand, mode);
                } else {
                    self.taint(mode);
                    self.scan(operand, Mode::Root);
                }
            }
            UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement
            | UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement => match operand {
                // Stepping a pointer keeps it where it was; its value goes on.
                Expression::Identifier(_) => self.scan(operand, mode),
                _ => {
                    self.lvalue(operand);
                    self.taint(mode);
                }
            },
            UnaryOperator::Negate => {
                self.scan(operand, Mode::Discard);
                self.taint(mode);
            }
            _ => {
                self.scan(operand, Mode::Value);
                self.taint(mode);
            }
        }
    }

    fn binary(&mut self, b: &Node<BinaryOperatorExpression>, mode: Mode) {
        use BinaryOperator as B;
        let (l, r) = (&b.node.lhs.node, &b.node.rhs.node);
        match b.node.operator.node {
            B::Assign => {
                match l {
                    Expression::Identifier(i) if self.vars.is_private(&i.node.name) => {
                        self.scan(r, Mode::Flow(&i.node.name))
                    }
                    _ => {
                        self.lvalue(l);
                        self.scan(r, Mode::Value);
                    }
                }
                if !matches!(mode, Mode::Discard) {
                    self.scan(l, mode);
                }
            }
            B::AssignPlus | B::AssignMinus if matches!(l, Expression::Identifier(_)) => {
                self.scan(r, Mode::Value);
                self.scan(l, mode);
            }
            B::Plus | B::Minus => {
                let (lp, rp) = (self.pointerish(l), self.pointerish(r));
                match (lp, rp) {
                    // A difference of two pointers: a number, no address.
                    (true, true) => {
                        self.scan(l, Mode::Discard);
                        self.scan(r, Mode::Discard);
                        self.taint(mode);
                    }
                    (true, false) => {
                        self.scan(l, mode);
                        self.scan(r, Mode::Value);
                    }
                    (false, true) => {
                        self.scan(r, mode);
                        self.scan(l, Mode::Value);
                    }
                    // An integer constant is the offset.
                    (false, false) if matches!(r, Expression::Constant(_)) => {
                        self.scan(l, mode);
                        self.scan(r, Mode::Value);
                    }
                    (false, false) if matches!(l, Expression::Constant(_)) => {
                        self.scan(r, mode);
                        self.scan(l, Mode::Value);
                    }
                    // Unknown which is the pointer: each may be; so both go on.
                    (false, false) => {
                        self.scan(l, mode);
                        self.scan(r, mode);
                    }
                }
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals
            | B::LogicalAnd
            | B::LogicalOr => {
                self.scan(l, Mode::Discard);
                self.scan(r, Mode::Discard);
                self.taint(mode);
            }
            _ => {
                if is_compound_assign(&b.node.operator.node) {
                    self.lvalue(l);
                } else {
                    self.scan(l, Mode::Value);
                }
                self.scan(r, Mode::Value);
                self.taint(mode);
            }
        }
    }

    fn call(&mut self, c: &CallExpression, mode: Mode) {
        let name = callee_name(c);
        if name == Some(abi::HAVOC) {
            return;
        }
        if name.is_none() {
            self.scan(&c.callee.node, Mode::Value);
        }
        let name = name.unwrap_or("");
        let library = abi::modelled_function(name);
        let first = RETURNS_FIRST.contains(&library);
        let keeps_nothing =
            first || RETURNS_NUMBER.contains(&library) || matches!(library, "strdup" | "strndup");
        for (k, a) in c.arguments.iter().enumerate() {
            let m = match (keeps_nothing, first && k == 0) {
                (true, true) => mode,
                (true, false) => Mode::Discard,
                (false, _) => Mode::Value,
            };
            self.scan(&a.node, m);
        }
        if first {
            // The result is the first argument, scanned in `mode` above.
        } else if allocates(name) {
            if let Mode::Flow(q) = mode {
                // A new block: its own node, so that its escape (through any pointer it
                // went into) taints every pointer it went into.
                self.allocations += 1;
                let node = format!("{} {}", name, self.allocations);
                self.edge(&node, q);
            }
        } else {
            self.taint(mode);
        }
    }
}

fn is_compound_assign(op: &BinaryOperator) -> bool {
    ladr_c::syntax::walk::is_assign_op(op) && *op != BinaryOperator::Assign
}

/// A member access or an index (an lvalue read as a value).
fn is_lvalue_access(e: &Expression) -> bool {
    match e {
        Expression::Member(_) => true,
        Expression::BinaryOperator(b) => b.node.operator.node == BinaryOperator::Index,
        _ => false,
    }
}

impl Visitor for Graph<'_> {
    type Error = Infallible;
    const UNEVALUATED: bool = false;

    /// An expression of its own (a statement's, a condition, a `for` step): its value goes
    /// nowhere.
    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        self.scan(&e.node, Mode::Discard);
        Ok(Walk::Skip)
    }

    fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Infallible> {
        match &s.node {
            Statement::Return(Some(e)) => {
                self.scan(&e.node, Mode::Value);
                Ok(Walk::Skip)
            }
            // An `asm` operand may be anything the assembly does with it.
            Statement::Asm(_) => {
                let Ok(()) = visit::stmt_children(&mut Everything(self), &s.node);
                Ok(Walk::Skip)
            }
            _ => Ok(Walk::Descend),
        }
    }

    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        for id in &d.node.declarators {
            let Some(init) = &id.node.initializer else {
                continue;
            };
            let name = declarator_name(&id.node.declarator.node).unwrap_or("");
            match &init.node {
                Initializer::Expression(e) if self.vars.is_private(name) => {
                    self.scan(&e.node, Mode::Flow(name))
                }
                Initializer::Expression(e) => self.scan(&e.node, Mode::Value),
                Initializer::List(_) => {
                    let mut inner = Everything(self);
                    let Ok(()) = visit::initializer(&mut inner, init);
                }
            }
        }
        Ok(Walk::Skip)
    }
}

/// Every expression under a node used anywhere (an initialiser list's, a compound
/// literal's operands).
struct Everything<'g, 'v>(&'g mut Graph<'v>);

impl Visitor for Everything<'_, '_> {
    type Error = Infallible;
    const UNEVALUATED: bool = false;

    fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Infallible> {
        self.0.scan(&e.node, Mode::Value);
        Ok(Walk::Skip)
    }
}

/// Names by their declarations.
#[derive(Default)]
struct Declared {
    /// Declared as pointers (a pointer declarator, no array of them).
    pointers: HashSet<String>,
    /// Objects declared `const` without a pointer declarator (`const char t[]`).
    constants: HashSet<String>,
}

impl Visitor for Declared {
    type Error = Infallible;
    const UNEVALUATED: bool = false;
    fn declaration(&mut self, d: &Node<Declaration>) -> Result<Walk, Infallible> {
        let constant = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeQualifier(q)
                if q.node == TypeQualifier::Const)
        });
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            let Some(n) = declarator_name(dd) else {
                continue;
            };
            if crate::analysis::is_pointer_declarator(dd) {
                self.pointers.insert(n.to_string());
            } else if constant && !crate::analysis::has_pointer(dd) {
                self.constants.insert(n.to_string());
            }
        }
        Ok(Walk::Descend)
    }
}

/// The pointers and the constant objects of `unit`.
fn declared(unit: &TranslationUnit) -> Declared {
    let mut v = Declared::default();
    let Ok(()) = visit::unit(&mut v, unit);
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The confined names of `src`, whose `locals` stand for one slot's thread locals.
    fn confined(src: &str, locals: &[&str]) -> Confined {
        let (_, unit, _) = ladr_c::frontend::parse_text(src, "t.c").expect("parses");
        let vars = Vars::new(&unit, &locals.iter().map(|s| s.to_string()).collect());
        confine(&unit, &vars)
    }

    fn sorted(s: &HashSet<String>) -> Vec<&str> {
        let mut v: Vec<&str> = s.iter().map(String::as_str).collect();
        v.sort();
        v
    }

    const LOCALS: &[&str] = &["a", "s", "p", "q", "r", "n", "b"];

    #[test]
    fn a_local_array_passed_to_an_inlined_callee_stays_in_its_thread() {
        let c = confined(
            "int g; int a[8]; int *p; int *q; int n;
             void t(void) { p = a; q = p + 2; *q = 1; p[n] = g; n = q - p; if (p == q) g = 1; }",
            LOCALS,
        );
        assert_eq!(sorted(&c.objects), ["a"]);
        // `n` holds a number (a difference of two pointers), not an address.
        assert_eq!(sorted(&c.pointers), ["p", "q"]);
    }

    #[test]
    fn an_address_that_leaves_the_thread_takes_every_pointer_to_it_along() {
        // Stored in a global: `a` escapes, and so `p` and `q` may point at shared memory.
        let c = confined(
            "int *g; int a[8]; int *p; int *q;
             void t(void) { p = &a[1]; q = p; g = q; }",
            LOCALS,
        );
        assert!(c.objects.is_empty() && !c.pointers.contains("p"));
        // Passed to a function (that might keep it), or returned.
        for body in ["f(q);", "return q;", "g = (int *)(long)q;", "*g = q;"] {
            let src = format!(
                "int **gg; int *g; void f(int *); int a[8]; int *p; int *q;
                 int *t(void) {{ p = a; q = p; {} return 0; }}",
                body.replace("*g = q", "*gg = q")
            );
            let c = confined(&src, LOCALS);
            assert!(!c.objects.contains("a"), "{body}");
            assert!(
                !c.pointers.contains("p") && !c.pointers.contains("q"),
                "{body}"
            );
        }
    }

    #[test]
    fn a_pointer_given_anything_else_may_point_anywhere() {
        for rhs in ["g", "*pp", "s.f", "f()", "(int *)4096", "b[0]"] {
            let src = format!(
                "struct S {{ int *f; }} s; int *g; int **pp; int *b[2]; int *f(void); int a[8];
                 int *p; void t(void) {{ p = a; p = {rhs}; *p = 1; }}"
            );
            let c = confined(&src, LOCALS);
            assert!(!c.pointers.contains("p"), "{rhs}");
            // `a`'s address went only into `p`, which does not escape.
            assert!(c.objects.contains("a"), "{rhs}");
        }
        // A parameter gets its value from the caller.
        let c = confined("void t(int *p) { *p = 1; }", LOCALS);
        assert!(c.pointers.is_empty());
    }

    #[test]
    fn blocks_the_thread_allocates_literals_and_constant_tables_stay_with_it() {
        let c = confined(
            "void *malloc(unsigned long); void *memset(void *, int, unsigned long);
             void free(void *); unsigned long strlen(const char *);
             static const char table[4] = {1, 2, 3, 4};
             char *p; char *q; char *r; unsigned long n;
             void t(void) { p = malloc(8); memset(p, 0, 8); q = \"abc\"; n = strlen(q);
                            r = table; r = p; free(p); }",
            &["p", "q", "r", "n"],
        );
        assert_eq!(sorted(&c.pointers), ["p", "q", "r"]);
        // A block whose pointer escapes: every pointer it went into may point at shared
        // memory (another thread may have the block now).
        let c = confined(
            "void *malloc(unsigned long); char *g; char *p; char *q;
             void t(void) { p = malloc(8); q = p; g = p; }",
            &["p", "q"],
        );
        assert!(c.pointers.is_empty());
        // `memcpy`'s result is its destination: used, it goes on.
        let c = confined(
            "void *memcpy(void *, const void *, unsigned long); char *g; char a[4]; char *p;
             void t(void) { p = a; g = memcpy(p, \"x\", 1); }",
            &["a", "p"],
        );
        assert!(c.pointers.is_empty() && c.objects.is_empty());
    }

    #[test]
    fn a_struct_read_by_value_stays_and_one_whose_address_goes_to_a_call_escapes() {
        let c = confined(
            "struct S { int x; int y[2]; } s, g; void f(struct S *); int *p;
             void t(void) { g = s; s.x = 1; p = s.y; *p = 2; }",
            LOCALS,
        );
        assert_eq!(sorted(&c.objects), ["s"]);
        assert_eq!(sorted(&c.pointers), ["p"]);
        let c = confined(
            "struct S { int x; } s; void f(struct S *); void t(void) { f(&s); }",
            LOCALS,
        );
        assert!(c.objects.is_empty());
        // An `asm` operand may do anything with it.
        let c = confined(
            "int a[2]; void t(void) { __asm__(\"\" : : \"r\"(a)); }",
            LOCALS,
        );
        assert!(c.objects.is_empty());
    }
}
