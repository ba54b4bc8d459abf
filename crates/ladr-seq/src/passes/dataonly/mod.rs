//! `dataonly` — objects whose contents cannot change the answer (issue 33's slicing;
//! `docs/decisions/data-only.md`).
//!
//! An object is *relevant* when a value read from it may reach something that decides the
//! race question: a branch (`if`, `?:`, `&&`, `||`, a loop test), an assumption or
//! assertion, the address of an access (an index, a pointer dereferenced), the object a
//! CBMC builtin names, a call of a function without a body (its arguments and all they
//! point to), or — transitively — a store into a relevant object. The other objects are
//! *data-only*: every execution's control flow, thread schedule and accessed addresses are
//! the same whatever values they hold. Two uses:
//!
//! 1. The stores into data-only arrays and heap blocks are dropped: the instrumentation of
//!    the access stays and the stored value is still evaluated (its own reads are checked), but CBMC keeps no array contents — a
//!    1000-element array written at a symbolic index cost about a million clauses per
//!    store. Reads of such an array see its initial contents, which are as good as any:
//!    nothing depends on them.
//! 2. A race found with set-up loops made one step (`unwind::solo`, `Program::summaries`)
//!    is a race of the program when every object those steps give arbitrary values is
//!    data-only (`Program::exact_summaries`): the arbitrary values change no branch and no
//!    address, so the program's own run takes the same path to the same two accesses. The
//!    step's `__CPROVER_assume(!(test))` is no use of the values: the loop's own final
//!    values satisfy it whatever the rest of the state.
//!
//! The analysis runs after `race`, on exactly the code CBMC gets before the scheduler: the
//! slots' items (all variables file-scope and uniquely named since `threads`), the kept
//! and model functions (their locals keyed by function). It is flow- and field-insensitive
//! with points-to by inclusion: a cell per variable, one per allocation site (a `malloc`,
//! `calloc` or `__CPROVER_allocate` call: its blocks; `free` reads only the pointer), one
//! for the memory functions without a body hand out (with every site that escaped to
//! one), one for memory the program cannot name (`__CPROVER_havoc_object` of a pointer,
//! nondet pointers), one for literals. Both relevance and points-to grow
//! to a fixpoint over the whole program. Anything it does not understand (a call through a
//! pointer, `asm`, a statement expression, a generic selection) gives up: nothing is
//! data-only.

mod cells;
mod rewrite;
mod set;

use cells::{Cell, Flow, Set, Tri};
use ladr_c::diag::Result;
use ladr_c::syntax::build::{callee_name, declarator_name, parameter_names};
use ladr_c::syntax::walk::{is_assign_op, is_inc_dec};
use ladr_ir::abi;
use ladr_ir::program::{Item, Options, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{BTreeSet, HashMap, HashSet};

/// Functions that only print their arguments: when their result is unused, nothing of the
/// arguments decides anything.
const PRINTS: &[&str] = &[
    "printf", "fprintf", "puts", "fputs", "putchar", "fputc", "putc",
];

/// How many rounds of the fixpoint before giving up (each round walks the program once;
/// relevance and points-to only grow, so they converge; real programs take a handful).
const MAX_ROUNDS: usize = 64;

pub fn run(mut p: Program, _opts: &Options) -> Result<Program> {
    let mut a = Analysis::new(&p);
    a.solve(&p);
    if a.give_up.is_none() {
        let sliceable: HashSet<Cell> = a.cells.sliceable(&a.rel);
        if !sliceable.is_empty() {
            for c in &mut p.code {
                for it in &mut c.items {
                    if let Item::Visible { stmt, .. } | Item::Plain(stmt) = it {
                        rewrite::stmt(&mut a, &sliceable, stmt);
                    }
                }
            }
        }
        p.data_only = a.cells.named_data_only(&a.rel);
        p.exact_summaries = a.summaries_seen.len() == a.summaries.len()
            && a.summary_objects.iter().all(|c| !a.rel.contains(c));
    }
    Ok(p)
}

/// The scope of the code walked: the function whose locals and parameters are its own
/// cells (none: the slots' code, whose variables are all file-scope since `threads`).
pub(super) struct Scope {
    function: Option<String>,
    locals: HashSet<String>,
}

impl Scope {
    fn global() -> Scope {
        Scope {
            function: None,
            locals: HashSet::new(),
        }
    }
}

/// The state of the analysis: cells, points-to, relevance.
pub(super) struct Analysis {
    cells: cells::Cells,
    /// Points-to of each cell.
    pts: Vec<Set>,
    /// Relevant cells.
    rel: HashSet<Cell>,
    changed: bool,
    pub give_up: Option<&'static str>,
    /// Functions with a body: their parameters (arguments beyond them, of a variadic
    /// function, are treated as a library's).
    bodies: HashMap<String, Vec<String>>,
    /// Spans of the set-up loops made one step.
    summaries: HashSet<(usize, usize)>,
    /// The cells the set-up steps give arbitrary values.
    summary_objects: BTreeSet<Cell>,
    /// The set-up steps whose assumption the walk met (one not met: not exact).
    summaries_seen: HashSet<(usize, usize)>,
    /// The allocation sites a function without a body may reach: it may keep their
    /// address and hand it back from any later call.
    escaped: Set,
}

impl Analysis {
    fn new(p: &Program) -> Analysis {
        let mut bodies = HashMap::new();
        for ext in &p.unit.0 {
            if let ExternalDeclaration::FunctionDefinition(f) = &ext.node {
                if let Some(n) = declarator_name(&f.node.declarator.node) {
                    let d = &f.node.declarator.node;
                    bodies.insert(n.to_string(), parameter_names(d));
                }
            }
        }
        Analysis {
            cells: cells::Cells::new(&p.unit, &p.code),
            pts: vec![],
            rel: HashSet::new(),
            changed: false,
            give_up: None,
            bodies,
            summaries: p.summaries.iter().map(|s| (s.start, s.end)).collect(),
            summary_objects: BTreeSet::new(),
            summaries_seen: HashSet::new(),
            escaped: Set::new(),
        }
    }

    /// Walks the program until relevance and points-to stop growing.
    fn solve(&mut self, p: &Program) {
        let scopes: HashMap<String, Scope> = self
            .bodies
            .keys()
            .map(|f| (f.clone(), self.cells.scope(f)))
            .collect();
        for _ in 0..MAX_ROUNDS {
            self.changed = false;
            self.round(p, &scopes);
            if self.give_up.is_some() || !self.changed {
                return;
            }
        }
        self.give_up = Some("no fixpoint");
    }

    /// One walk of the whole program; `scopes`: each function's.
    fn round(&mut self, p: &Program, scopes: &HashMap<String, Scope>) {
        let global = Scope::global();
        for ext in &p.unit.0 {
            match &ext.node {
                ExternalDeclaration::Declaration(d) => self.declaration(&global, &d.node),
                ExternalDeclaration::FunctionDefinition(f) => {
                    let name = declarator_name(&f.node.declarator.node).unwrap_or_default();
                    if let Some(scope) = scopes.get(name) {
                        self.stmt(scope, &f.node.statement);
                    }
                }
                ExternalDeclaration::StaticAssert(_) => {}
            }
        }
        for c in &p.code {
            for it in &c.items {
                match it {
                    Item::Visible { stmt, .. } | Item::Plain(stmt) => self.stmt(&global, stmt),
                    Item::Decl(d) => self.declaration(&global, &d.node),
                    Item::Label(..) => {}
                }
            }
        }
    }

    // ---- the lattice ----

    fn pts_of(&self, set: &Set) -> Set {
        let mut out = Set::new();
        for c in set.iter() {
            if let Some(s) = self.pts.get(c as usize) {
                out.union_with(s);
            }
        }
        out
    }

    fn add_pts(&mut self, c: Cell, addrs: &Set) {
        let i = c as usize;
        if self.pts.len() <= i {
            self.pts.resize(i + 1, Set::new());
        }
        if self.pts[i].union_with(addrs) {
            self.changed = true;
        }
    }

    fn relevant(&mut self, set: &Set) {
        for c in set.iter() {
            if self.rel.insert(c) {
                self.changed = true;
            }
        }
    }

    /// A value that decides something: what it was read from is relevant.
    fn sink(&mut self, f: &Flow) {
        let reads = f.reads.clone();
        self.relevant(&reads);
    }

    /// A store of `f` into each of `targets`.
    fn store(&mut self, targets: &Set, f: &Flow) {
        for t in targets.iter() {
            self.add_pts(t, &f.addrs);
        }
        if targets.iter().any(|t| self.rel.contains(&t)) {
            self.sink(f);
        }
    }

    /// What `set` points to, transitively, with `set` itself.
    fn reachable(&self, set: &Set) -> Set {
        let mut out = set.clone();
        let mut todo: Vec<Cell> = set.iter().collect();
        while let Some(c) = todo.pop() {
            if let Some(s) = self.pts.get(c as usize) {
                for d in s.iter() {
                    if out.insert(d) {
                        todo.push(d);
                    }
                }
            }
        }
        out
    }

    // ---- statements ----

    fn stmt(&mut self, sc: &Scope, s: &Node<Statement>) {
        if self.give_up.is_some() {
            return;
        }
        match &s.node {
            Statement::Labeled(l) => self.stmt(sc, &l.node.statement),
            Statement::Compound(items) => {
                for it in items {
                    match &it.node {
                        BlockItem::Declaration(d) => self.declaration(sc, &d.node),
                        BlockItem::Statement(s) => self.stmt(sc, s),
                        BlockItem::StaticAssert(_) => {}
                    }
                }
            }
            Statement::Expression(Some(e)) => self.effect(sc, e),
            Statement::Expression(None)
            | Statement::Goto(_)
            | Statement::Continue
            | Statement::Break => {}
            Statement::If(i) => {
                let c = self.value(sc, &i.node.condition);
                self.sink(&c);
                self.stmt(sc, &i.node.then_statement);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(sc, e);
                }
            }
            Statement::Switch(w) => {
                let c = self.value(sc, &w.node.expression);
                self.sink(&c);
                self.stmt(sc, &w.node.statement);
            }
            Statement::While(w) => {
                let c = self.value(sc, &w.node.expression);
                self.sink(&c);
                self.stmt(sc, &w.node.statement);
            }
            Statement::DoWhile(w) => {
                self.stmt(sc, &w.node.statement);
                let c = self.value(sc, &w.node.expression);
                self.sink(&c);
            }
            Statement::For(f) => {
                match &f.node.initializer.node {
                    ForInitializer::Expression(e) => self.effect(sc, e),
                    ForInitializer::Declaration(d) => self.declaration(sc, &d.node),
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                }
                if let Some(c) = &f.node.condition {
                    let c = self.value(sc, c);
                    self.sink(&c);
                }
                if let Some(e) = &f.node.step {
                    self.effect(sc, e);
                }
                self.stmt(sc, &f.node.statement);
            }
            Statement::Return(Some(e)) => {
                let f = self.value(sc, e);
                match &sc.function {
                    // A function's result: read where it is called.
                    Some(name) => {
                        let r = self.cells.result(name);
                        self.store(&Set::from([r]), &f);
                    }
                    // A thread's result may be read by its joiner.
                    None => self.sink(&f),
                }
            }
            Statement::Return(None) => {}
            Statement::Asm(_) => self.give_up = Some("asm"),
        }
    }

    fn declaration(&mut self, sc: &Scope, d: &Declaration) {
        for init in &d.declarators {
            let Some(name) = declarator_name(&init.node.declarator.node) else {
                continue;
            };
            if let Some(i) = &init.node.initializer {
                let c = self.cells.var(sc, name);
                self.initializer(sc, c, i);
            }
        }
    }

    fn initializer(&mut self, sc: &Scope, c: Cell, i: &Node<Initializer>) {
        match &i.node {
            Initializer::Expression(e) => {
                let f = self.value(sc, e);
                self.store(&Set::from([c]), &f);
            }
            Initializer::List(items) => {
                for it in items {
                    self.initializer(sc, c, &it.node.initializer);
                }
            }
        }
    }

    // ---- expressions ----

    /// `e` evaluated for its side effects only.
    fn effect(&mut self, sc: &Scope, e: &Node<Expression>) {
        match &e.node {
            Expression::Call(c) => {
                self.call(sc, &c.node, e.span, false);
            }
            Expression::Comma(es) => {
                for e in es.iter() {
                    self.effect(sc, e);
                }
            }
            _ => {
                self.value(sc, e);
            }
        }
    }

    /// `e` evaluated for its value: what the value may be read from and point to.
    pub(super) fn value(&mut self, sc: &Scope, e: &Node<Expression>) -> Flow {
        if self.give_up.is_some() {
            return Flow::default();
        }
        match &e.node {
            Expression::Identifier(i) => {
                if self.cells.is_function(&i.node.name) {
                    return Flow::default();
                }
                let c = self.cells.var(sc, &i.node.name);
                let shape = self.cells.shape(c);
                self.load(Set::from([c]), shape.is_array(0))
            }
            Expression::Constant(_) | Expression::SizeOfTy(_) | Expression::AlignOf(_) => {
                Flow::default()
            }
            Expression::SizeOfVal(_) | Expression::OffsetOf(_) => Flow::default(),
            Expression::StringLiteral(_) => Flow::addrs(Set::from([self.cells.literal])),
            Expression::Member(_) => {
                let (objs, _) = self.place(sc, e, true);
                // A member may be an array (its value then its address): both.
                self.load(objs, Tri::Maybe)
            }
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => {
                    let (objs, f) = self.place(sc, &u.node.operand, false);
                    let mut f = f;
                    f.addrs.union_with(&objs);
                    f
                }
                UnaryOperator::Indirection => {
                    let (objs, _) = self.place(sc, e, true);
                    let shape = self.cells.shape_of(sc, e);
                    self.load(objs, shape)
                }
                ref op if is_inc_dec(op) => {
                    let (objs, _) = self.place(sc, &u.node.operand, true);
                    let f = self.load(objs.clone(), Tri::No);
                    self.store(&objs, &f);
                    f
                }
                _ => self.value(sc, &u.node.operand),
            },
            Expression::Cast(c) => self.value(sc, &c.node.expression),
            Expression::BinaryOperator(b) => {
                let op = &b.node.operator.node;
                if *op == BinaryOperator::Index {
                    let (objs, _) = self.place(sc, e, true);
                    let shape = self.cells.shape_of(sc, e);
                    return self.load(objs, shape);
                }
                if is_assign_op(op) {
                    let (objs, _) = self.place(sc, &b.node.lhs, true);
                    let mut f = self.value(sc, &b.node.rhs);
                    if *op != BinaryOperator::Assign {
                        f.join(self.load(objs.clone(), Tri::No));
                    }
                    self.store(&objs, &f);
                    return f;
                }
                let l = self.value(sc, &b.node.lhs);
                let r = self.value(sc, &b.node.rhs);
                if matches!(op, BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr) {
                    self.sink(&l);
                    self.sink(&r);
                }
                let mut f = l;
                f.join(r);
                f
            }
            Expression::Conditional(c) => {
                let t = self.value(sc, &c.node.condition);
                self.sink(&t);
                let mut f = self.value(sc, &c.node.then_expression);
                f.join(self.value(sc, &c.node.else_expression));
                f
            }
            Expression::Comma(es) => {
                let (last, rest) = es.split_last().expect("a comma has operands");
                for e in rest {
                    self.effect(sc, e);
                }
                self.value(sc, last)
            }
            Expression::Call(c) => self.call(sc, &c.node, e.span, true),
            Expression::CompoundLiteral(c) => {
                let c = &c.node;
                let cell = self.cells.invalid;
                for it in &c.initializer_list {
                    self.initializer(sc, cell, &it.node.initializer);
                }
                Flow::addrs(Set::from([cell]))
            }
            Expression::VaArg(v) => {
                let f = self.value(sc, &v.node.va_list);
                self.sink(&f);
                Flow::addrs(Set::from([self.cells.invalid]))
            }
            Expression::GenericSelection(_) | Expression::Statement(_) => {
                self.give_up = Some("an expression the slicing does not follow");
                Flow::default()
            }
        }
    }

    /// The value of an object of `objs`: its contents, or (an array) its address.
    fn load(&self, objs: Set, array: Tri) -> Flow {
        match array {
            Tri::Yes => Flow::addrs(objs),
            Tri::No => {
                let addrs = self.pts_of(&objs);
                Flow { reads: objs, addrs }
            }
            Tri::Maybe => {
                let mut addrs = self.pts_of(&objs);
                addrs.extend(objs.iter());
                Flow { reads: objs, addrs }
            }
        }
    }

    /// The objects the lvalue `e` designates, and the flow of its address computation.
    /// `access`: the lvalue is read or written, so its address decides which bytes, and the
    /// computation is relevant (returned empty).
    pub(super) fn place(&mut self, sc: &Scope, e: &Node<Expression>, access: bool) -> (Set, Flow) {
        let (objs, f) = match &e.node {
            Expression::Identifier(i) => (
                Set::from([self.cells.var(sc, &i.node.name)]),
                Flow::default(),
            ),
            Expression::Member(m) => match m.node.operator.node {
                MemberOperator::Direct => self.place(sc, &m.node.expression, false),
                MemberOperator::Indirect => {
                    let f = self.value(sc, &m.node.expression);
                    (f.addrs.clone(), f)
                }
            },
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let mut f = self.value(sc, &b.node.lhs);
                let index = self.value(sc, &b.node.rhs);
                // `p[i]` with `p` declared an array or pointer: `i` is an integer and
                // points nowhere; otherwise either may be the pointer (`i[p]`).
                let objs = if self.cells.is_base(sc, &b.node.lhs) {
                    f.addrs.clone()
                } else {
                    let mut o = f.addrs.clone();
                    o.extend(index.addrs.iter());
                    o
                };
                f.join(index);
                (objs, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                let f = self.value(sc, &u.node.operand);
                (f.addrs.clone(), f)
            }
            // A call's or literal's object: memory no variable names.
            _ => {
                let f = self.value(sc, e);
                (Set::from([self.cells.invalid]), f)
            }
        };
        if access {
            self.sink(&f);
            (objs, Flow::default())
        } else {
            (objs, f)
        }
    }

    /// A call; `used`: its value is used.
    fn call(&mut self, sc: &Scope, c: &CallExpression, span: Span, used: bool) -> Flow {
        let Some(name) = callee_name(c) else {
            self.give_up = Some("a call through a pointer");
            return Flow::default();
        };
        let args: Vec<Flow> = c.arguments.iter().map(|a| self.value(sc, a)).collect();
        match name {
            abi::ASSUME | abi::ASSERT | abi::VERIFIER_ASSUME => {
                let step = (span.start, span.end);
                if name == abi::ASSUME && self.summaries.contains(&step) {
                    self.summaries_seen.insert(step);
                } else {
                    args.iter().for_each(|f| self.sink(f));
                }
                Flow::default()
            }
            abi::HAVOC => {
                let targets: Set = args.iter().flat_map(|f| f.addrs.iter()).collect();
                args.iter().for_each(|f| self.sink(f));
                self.store(&targets, &Flow::addrs(Set::from([self.cells.invalid])));
                if self.summaries.contains(&(span.start, span.end)) {
                    self.summary_objects.extend(targets.iter());
                }
                Flow::default()
            }
            abi::ATOMIC_BEGIN | abi::ATOMIC_END => Flow::default(),
            n if abi::PURE_BUILTINS.contains(&n) || n == abi::SAME_OBJECT => {
                // The pointers' values matter, not what they point to.
                args.iter().for_each(|f| self.sink(f));
                Flow::default()
            }
            n if n.starts_with(abi::NONDET_PREFIX) => Flow::addrs(Set::from([self.cells.invalid])),
            // A block of its own per allocation site (the size decides the bounds).
            n if n == "__CPROVER_allocate" || self.allocates(n) => {
                args.iter().for_each(|f| self.sink(f));
                Flow::addrs(Set::from([self.cells.site(span)]))
            }
            // `free` reads the pointer, not the block.
            "free" if !self.bodies.contains_key("free") => {
                args.iter().for_each(|f| self.sink(f));
                Flow::default()
            }
            n if PRINTS.contains(&n) && !used => Flow::default(),
            n if self.bodies.contains_key(n) => {
                let params = self.bodies[n].clone();
                for (k, f) in args.iter().enumerate() {
                    match params.get(k) {
                        Some(p) => {
                            let cell = self.cells.local(n, p);
                            self.store(&Set::from([cell]), f);
                        }
                        None => self.library_argument(f, &args),
                    }
                }
                let r = self.cells.result(n);
                self.load(Set::from([r]), Tri::No)
            }
            _ => {
                // A function without a body: it may branch on its arguments and on all
                // they point to, and store into that memory.
                for f in &args {
                    self.library_argument(f, &args);
                }
                Flow::addrs(self.library_pointers(&args))
            }
        }
    }

    /// Is `name` C's `malloc` or `calloc` (not the program's own), or the model's for a
    /// size that is no constant?
    fn allocates(&self, name: &str) -> bool {
        ["malloc", "calloc"]
            .iter()
            .any(|&a| (name == a && !self.bodies.contains_key(a)) || name == abi::model_function(a))
    }

    /// The pointers a function without a body may give back, through its result or stored
    /// into memory it reaches: the arguments', a block of its own, memory the program
    /// cannot name, and every allocation site that ever escaped to such a function.
    fn library_pointers(&self, args: &[Flow]) -> Set {
        let mut addrs: Set = args.iter().flat_map(|f| f.addrs.iter()).collect();
        addrs.insert(self.cells.heap);
        addrs.insert(self.cells.invalid);
        addrs.union_with(&self.escaped);
        addrs
    }

    /// An argument of a function the analysis cannot see: relevant, with all it reaches,
    /// which may get any of the arguments' pointers or fresh memory.
    fn library_argument(&mut self, f: &Flow, all: &[Flow]) {
        self.sink(f);
        let reach = self.reachable(&f.addrs);
        self.relevant(&reach);
        for c in reach.iter() {
            if self.cells.is_site(c) && self.escaped.insert(c) {
                self.changed = true;
            }
        }
        let addrs = self.library_pointers(all);
        for c in reach.iter() {
            self.add_pts(c, &addrs);
        }
    }
}
