//! One function's body, walked in the normal form of `normalise` (while + goto, one side
//! effect per statement): the must-lockset before every statement (a fixpoint over the
//! loops and the gotos), and, when recording, every access with the locks held, every call
//! of a defined function, every `pthread_create` and every construct the proof does not
//! understand. Expressions are read by [`super::access`].

use super::decls::{Decls, VarId};
use super::team_barrier::Place;
use super::{Lock, Locks, Path, State, Summary};
use ladr_c::syntax::build::declarator_name;
use lang_c::ast::*;
use lang_c::span::Node;
use std::collections::{BTreeSet, HashMap, HashSet};

/// What an access touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A variable, by name.
    Var(VarId),
    /// Whatever a pointer may point to: the pointer's node of the points-to
    /// ([`super::heap`]; none: any object).
    Deref(Option<super::heap::NodeId>),
    /// The blocks a global that owns them has pointed to (`P[i]`, `*P`).
    Owned(VarId),
    /// The hidden state of an MT-Unsafe C library function group.
    Libc(&'static str),
    /// The block a local of `main` holds, one element per thread ([`super::slot`]).
    Slot(VarId),
}

/// One access as the walk saw it.
#[derive(Clone, Debug)]
pub struct RawAccess {
    pub target: Target,
    /// The part of a named variable accessed (empty: all of it, or no variable).
    pub path: Path,
    pub write: bool,
    pub atomic: bool,
    pub locks: Locks,
    /// Made while `main` runs alone.
    pub solo: bool,
    /// Through a local that holds a block no other thread can reach yet ([`super::heap`]).
    pub fresh: bool,
    /// Through a variable declared as a pointer to this one tag or typedef name: `path`
    /// is the part of the object pointed to that is accessed (`q->f.g`: `.f.g`), for
    /// the objects that are surely of that type at their start ([`super::objects`]).
    pub pointee: Option<String>,
    pub offset: usize,
    /// The top-level item of the walked function's body the access is made in (none: in
    /// a declaration of parameters or outside the body's block): its barrier phase
    /// ([`super::barrier`]).
    pub item: Option<usize>,
    /// Its place among the OpenMP team barriers and `single` blocks, when a team routine
    /// made it in a straight-line item ([`super::team_barrier`]).
    pub team_place: Place,
}

/// A call of a function with a body.
#[derive(Clone, Debug)]
pub struct CallSite {
    pub callee: String,
    pub locks: Locks,
    pub solo: bool,
}

/// A `pthread_create` with its start routine.
#[derive(Clone, Debug)]
pub struct CreateSite {
    pub routine: String,
}

/// What one walk of a function found.
#[derive(Debug, Default)]
pub struct FnRun {
    pub accesses: Vec<RawAccess>,
    pub calls: Vec<CallSite>,
    pub creates: Vec<CreateSite>,
    /// The locks held on return (none: it never returns).
    pub exit: State,
    /// The mutexes it may unlock itself (none: an unlock it cannot name).
    pub unlocks: Option<BTreeSet<Lock>>,
    /// Why the proof gives up, with where.
    pub give_ups: Vec<(String, usize)>,
    /// Variables whose address is taken (or that decay to a pointer).
    pub address_taken: HashSet<VarId>,
    /// The function has labels.
    pub labels: bool,
    /// It calls `pthread_detach` (a join of a detached thread need not wait for it).
    pub detaches: bool,
    /// Functions whose address it takes (not passed to a library function).
    pub function_addresses: BTreeSet<String>,
    /// Mutexes initialised or destroyed while other threads may run, semaphores that may
    /// count past 1 (none: one it cannot name): no longer locks of the proof (`racefree`
    /// rules so too for mutexes).
    pub reinitialised: Option<BTreeSet<Lock>>,
    /// Locks acquired by the program's own lock functions ([`super::userlock`]).
    pub user_acquired: BTreeSet<Lock>,
    /// Of those, the ones released where the thread may not hold them (none: one it
    /// cannot name).
    pub user_loose: Option<BTreeSet<Lock>>,
    /// The locks held at a `pthread_create`.
    pub held_at_create: BTreeSet<Lock>,
    /// Its `pthread_barrier_init`, `_wait` and `_destroy` calls ([`super::barrier`]).
    pub barriers: Vec<super::barrier::Event>,
}

/// The walker of one function.
pub struct Scan<'d, 'a> {
    pub decls: &'d mut Decls<'a>,
    /// Locals declared so far, by the address of their declarator (stable over walks).
    pub locals: &'d mut HashMap<usize, VarId>,
    pub summaries: &'d HashMap<String, Summary>,
    pub scopes: Vec<HashMap<String, VarId>>,
    pub state: State,
    pub record: bool,
    pub solo: bool,
    pub run: FnRun,
    /// Reading the arguments of a function without a body: a function's address taken
    /// there may be called by the library at any time (a signal handler, `atexit`).
    pub library_arguments: bool,
    /// The function walked.
    pub function: String,
    /// The array whose element's address the assignment walked gives its variable
    /// ([`super::element`]).
    pub assigned: Option<VarId>,
    /// The width of `(T)arg` the assignment walked gives its variable
    /// ([`super::disjoint`]).
    pub assigned_index: Option<u32>,
    /// The variable read as the pointer of a `*p` or `p->m` ([`super::slot`]).
    pub deref_base: Option<VarId>,
    /// The element key of the named part accessed ([`super::element`]).
    pub key: Option<VarId>,
    /// The variable read as the pointer of a `p[i]` (or `*p`, `p->m`): no leak of a
    /// fresh block; the one read as a copy's source or a call's argument: no leak for
    /// the walk (the copy is fresh too, the callee keeps it), a leak for a parameter
    /// ([`super::heap`]).
    pub fresh_skip: Option<VarId>,
    pub fresh_copy: Option<VarId>,
    /// The positions of the next call's fresh arguments.
    pub fresh_params: Vec<usize>,
    /// The access being recorded is through a fresh local.
    pub fresh_access: bool,
    /// The member and index steps an enclosing expression applies to the object the
    /// expression walked now names (`q->f.g`: `.g` while `q->f` is walked); taken by
    /// every [`Scan::expr`] (a step left out only widens the part).
    pub outer: Path,
    /// The part of the object pointed to, and the pointer's declared pointee, of the
    /// access through a pointer being recorded.
    pub deref_part: Option<(Path, Option<String>)>,
    /// The top-level item of the function's body being walked.
    pub item: Option<usize>,
    /// The team barrier place of the item being walked ([`super::team_barrier`]).
    pub team_place: Place,
    /// `main`'s items inside team blocks and nests (by address): whether each runs alone
    /// ([`super::nest`]).
    pub nested_solo: HashMap<usize, bool>,
    gotos: HashMap<String, State>,
    labels_in: HashMap<String, State>,
    returns: State,
}

/// The meet of two must-locksets (none: unreachable, the neutral element).
pub fn meet(a: &State, b: &State) -> State {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut both: Locks = x.intersection(y).cloned().collect();
            super::guard::meet_guards(x, y, &mut both);
            Some(both)
        }
    }
}

impl<'d, 'a> Scan<'d, 'a> {
    pub fn new(
        decls: &'d mut Decls<'a>,
        locals: &'d mut HashMap<usize, VarId>,
        summaries: &'d HashMap<String, Summary>,
    ) -> Self {
        Scan {
            decls,
            locals,
            summaries,
            scopes: vec![],
            state: None,
            record: false,
            solo: false,
            run: FnRun {
                unlocks: Some(BTreeSet::new()),
                reinitialised: Some(BTreeSet::new()),
                user_loose: Some(BTreeSet::new()),
                ..FnRun::default()
            },
            library_arguments: false,
            function: String::new(),
            assigned: None,
            assigned_index: None,
            deref_base: None,
            key: None,
            fresh_skip: None,
            fresh_copy: None,
            fresh_params: vec![],
            fresh_access: false,
            outer: Path::new(),
            deref_part: None,
            item: None,
            team_place: Place::default(),
            nested_solo: HashMap::new(),
            gotos: HashMap::new(),
            labels_in: HashMap::new(),
            returns: None,
        }
    }

    pub fn give_up(&mut self, why: impl Into<String>, offset: usize) {
        if self.record {
            self.run.give_ups.push((why.into(), offset));
        }
    }

    /// Walks function `f` from the locks `entry`; `top_solo`: for `main`, whether each of
    /// its body's top-level items runs alone. The fixpoint over the labels runs without
    /// recording; the last walk records when `record`.
    pub fn function(
        &mut self,
        f: &'a FunctionDefinition,
        entry: Locks,
        top_solo: Option<&[bool]>,
        record: bool,
    ) {
        let name = declarator_name(&f.declarator.node)
            .unwrap_or_default()
            .to_string();
        self.function = name.clone();
        self.labels_in.clear();
        for round in 0.. {
            let last = round > 0 && {
                let gotos = std::mem::take(&mut self.gotos);
                let stable = gotos == self.labels_in;
                self.labels_in = gotos;
                stable
            };
            if round > 64 {
                self.record = true;
                self.give_up(
                    "the locksets at the labels reach no fixpoint",
                    f.statement.span.start,
                );
                return;
            }
            self.record = last && record;
            self.gotos.clear();
            self.returns = None;
            self.team_place = Place::default();
            self.scopes = vec![self.parameters(&name, f)];
            self.state = Some(self.fresh_entry(&name, &entry));
            match &f.statement.node {
                Statement::Compound(items) => {
                    self.scopes.push(HashMap::new());
                    for (i, item) in items.iter().enumerate() {
                        if let Some(flags) = top_solo {
                            self.solo = flags.get(i).copied().unwrap_or(false);
                        }
                        self.item = Some(i);
                        self.block_item(item);
                    }
                    self.item = None;
                    self.team_place = Place::default();
                    self.scopes.pop();
                }
                _ => self.statement(&f.statement),
            }
            if last {
                self.run.exit = meet(&self.returns, &self.state);
                return;
            }
        }
    }

    fn parameters(&mut self, function: &str, f: &'a FunctionDefinition) -> HashMap<String, VarId> {
        let mut scope = HashMap::new();
        for d in &f.declarator.node.derived {
            if let DerivedDeclarator::Function(fd) = &d.node {
                for (k, p) in fd.node.parameters.iter().enumerate() {
                    if let Some(decl) = &p.node.declarator {
                        let key = &decl.node as *const Declarator as usize;
                        let id = match self.locals.get(&key) {
                            Some(&id) => Some(id),
                            None => {
                                self.decls
                                    .local(function, &p.node.specifiers, &decl.node, true)
                            }
                        };
                        if let (Some(id), Some(n)) = (id, declarator_name(&decl.node)) {
                            self.decls.vars[id].position = Some(k);
                            self.decls.params.insert((function.to_string(), k), id);
                            self.heap_parameter(function, k, id);
                            self.locals.insert(key, id);
                            scope.insert(n.to_string(), id);
                        }
                    }
                }
                break;
            }
            if let DerivedDeclarator::KRFunction(ids) = &d.node {
                if !ids.is_empty() {
                    self.record = true;
                    self.give_up("a K&R function definition", f.declarator.span.start);
                }
                break;
            }
        }
        scope
    }

    pub fn statement(&mut self, s: &'a Node<Statement>) {
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(HashMap::new());
                for item in items {
                    self.block_item(item);
                }
                self.scopes.pop();
            }
            Statement::Expression(Some(e)) => self.guarded_expr_statement(e),
            Statement::Expression(None) => {}
            Statement::If(i) => {
                self.read(&i.node.condition);
                let test = self.guard_test(&i.node.condition);
                let before = self.state.clone();
                self.state = super::guard::enter(before.clone(), test, true);
                self.statement(&i.node.then_statement);
                let then =
                    std::mem::replace(&mut self.state, super::guard::enter(before, test, false));
                if let Some(e) = &i.node.else_statement {
                    self.statement(e);
                }
                self.state = meet(&then, &self.state);
            }
            Statement::While(w) => self.while_loop(&w.node),
            Statement::Labeled(l) => {
                self.run.labels = true;
                match &l.node.label.node {
                    Label::Identifier(id) => {
                        let incoming = self.labels_in.get(&id.node.name).cloned().flatten();
                        self.state = meet(&self.state, &incoming);
                    }
                    _ => self.give_up("a `case` label outside the normal form", s.span.start),
                }
                self.statement(&l.node.statement);
            }
            Statement::Goto(l) => {
                let old = self.gotos.get(&l.node.name).cloned().flatten();
                self.gotos
                    .insert(l.node.name.clone(), meet(&old, &self.state));
                self.state = None;
            }
            Statement::Return(e) => {
                if let Some(e) = e {
                    self.read(e);
                    self.heap_return(e);
                }
                self.returns = meet(&self.returns, &self.state);
                self.state = None;
            }
            Statement::Asm(a) if super::pure::inert_asm(&a.node) => {}
            Statement::Asm(_) => self.give_up("inline assembly", s.span.start),
            _ => self.give_up("a statement outside the normal form", s.span.start),
        }
    }

    fn while_loop(&mut self, w: &'a WhileStatement) {
        let record = self.record;
        let entry = self.state.clone();
        let mut head = entry.clone();
        self.record = false;
        let mut stable = false;
        for _ in 0..64 {
            self.state = head.clone();
            self.read(&w.expression);
            self.statement(&w.statement);
            let next = meet(&entry, &self.state);
            if next == head {
                stable = true;
                break;
            }
            head = next;
        }
        if !stable {
            self.give_up(
                "the locksets of a loop reach no fixpoint",
                w.expression.span.start,
            );
        }
        self.record = record;
        self.state = head.clone();
        self.read(&w.expression);
        self.statement(&w.statement);
        self.state = head;
    }

    fn block_item(&mut self, item: &'a Node<BlockItem>) {
        if let Some(&solo) = self.nested_solo.get(&(item as *const _ as usize)) {
            self.solo = solo;
        }
        if let Some(&place) = self.decls.team_places.get(&(item as *const _ as usize)) {
            self.team_place = place;
        }
        match &item.node {
            BlockItem::Statement(s) => self.statement(s),
            BlockItem::Declaration(d) => self.declaration(&d.node),
            BlockItem::StaticAssert(_) => {}
        }
    }

    fn declaration(&mut self, d: &'a Declaration) {
        let typedef = ladr_c::syntax::build::is_typedef(d);
        for init in &d.declarators {
            let decl = &init.node.declarator.node;
            if typedef || ladr_c::syntax::build::is_function_declarator(decl) {
                continue;
            }
            self.array_sizes(decl);
            if ladr_c::syntax::build::has_storage(d, StorageClassSpecifier::Extern) {
                // A block-scope `extern`: the global of that name.
                let name = declarator_name(decl).unwrap_or_default();
                match self.decls.globals.get(name).copied() {
                    Some(g) => {
                        if let Some(scope) = self.scopes.last_mut() {
                            scope.insert(name.to_string(), g);
                        }
                    }
                    None => self.give_up("a block-scope `extern` of no global", init.span.start),
                }
                continue;
            }
            let key = decl as *const Declarator as usize;
            let function = self.function.clone();
            let id = match self.locals.get(&key) {
                Some(&id) => Some(id),
                None => self.decls.local(&function, &d.specifiers, decl, false),
            };
            let Some(id) = id else { continue };
            self.typeof_variable(&d.specifiers, decl, id);
            self.locals.insert(key, id);
            if let Some(n) = declarator_name(decl) {
                if let Some(scope) = self.scopes.last_mut() {
                    scope.insert(n.to_string(), id);
                }
            }
            // A new object: no held element lock has it as key, no fact is about it.
            self.forget_key(id);
            super::guard::forget(&mut self.state, id);
            if let Some(i) = &init.node.initializer {
                self.heap_init(id, &i.node);
                // A static local's initialiser runs before `main`: only its addresses count.
                self.initializer(&i.node);
                if self.decls.vars[id].automatic {
                    if let Initializer::Expression(e) = &i.node {
                        self.assigned = self.element_address(e);
                        self.assigned_index = self.argument_source(e);
                    }
                    self.access(Target::Var(id), true, false, init.span.start);
                    self.assigned = None;
                    self.assigned_index = None;
                    if let Initializer::Expression(e) = &i.node {
                        self.guard_assigned(id, e);
                    }
                }
            }
        }
    }

    fn array_sizes(&mut self, d: &'a Declarator) {
        for x in &d.derived {
            if let DerivedDeclarator::Array(a) = &x.node {
                if let ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) =
                    &a.node.size
                {
                    self.read(e);
                }
            }
        }
        if let DeclaratorKind::Declarator(inner) = &d.kind.node {
            self.array_sizes(&inner.node);
        }
    }

    pub fn initializer(&mut self, i: &'a Initializer) {
        match i {
            Initializer::Expression(e) => self.read(e),
            Initializer::List(items) => {
                for it in items {
                    self.initializer(&it.node.initializer.node);
                }
            }
        }
    }

    /// `__typeof__(v) x;` (`normalise`'s temporaries): `x` has `v`'s type, looked up in
    /// scope: its array and arithmetic facts (not `_Atomic`, which `typeof` may drop).
    fn typeof_variable(&mut self, specs: &[Node<DeclarationSpecifier>], d: &Declarator, id: VarId) {
        if !d.derived.is_empty() || !matches!(d.kind.node, DeclaratorKind::Identifier(_)) {
            return;
        }
        let [only] = specs
            .iter()
            .filter(|s| matches!(s.node, DeclarationSpecifier::TypeSpecifier(_)))
            .collect::<Vec<_>>()[..]
        else {
            return;
        };
        let DeclarationSpecifier::TypeSpecifier(t) = &only.node else {
            return;
        };
        let TypeSpecifier::TypeOf(t) = &t.node else {
            return;
        };
        let TypeOf::Expression(e) = &t.node else {
            return;
        };
        if super::guard::returns_int(self, e) {
            // `normalise`'s temporary of a call of a lock function: an `int`.
            let var = &mut self.decls.vars[id];
            var.arithmetic = true;
            var.wide_integer = true;
            var.longs = 0;
            return;
        }
        let Expression::Identifier(i) = &e.node else {
            return;
        };
        let Some(v) = self.lookup(&i.node.name) else {
            return;
        };
        let of = self.decls.vars[v].clone();
        let var = &mut self.decls.vars[id];
        var.array = of.array;
        var.arithmetic = of.arithmetic;
        var.depth = of.depth;
        var.scalar_pointee = of.scalar_pointee;
        var.wide_integer = of.wide_integer;
        var.longs = of.longs;
    }

    /// Resolves a name to the variable in scope.
    pub fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name).copied())
            .or_else(|| self.decls.globals.get(name).copied())
    }

    /// Records an access at the current state (nothing in unreachable code).
    pub fn access(&mut self, target: Target, write: bool, atomic: bool, offset: usize) {
        self.access_part(target, Path::new(), write, atomic, offset)
    }

    /// Records an access of the part `path` of `target`.
    pub fn access_part(
        &mut self,
        target: Target,
        path: Path,
        write: bool,
        atomic: bool,
        offset: usize,
    ) {
        if let (true, Target::Var(v)) = (write, target) {
            super::guard::forget(&mut self.state, v);
            let given = self.assigned.take().filter(|_| path.is_empty());
            self.wrote(v, given);
            let index = self.assigned_index.take().filter(|_| path.is_empty());
            self.wrote_index(v, index);
        }
        let (path, pointee) = match (target, self.deref_part.take()) {
            (Target::Deref(_), Some((part, pointee))) if path.is_empty() => (part, pointee),
            _ => (path, None),
        };
        if !self.record {
            return;
        }
        if let Some(locks) = &self.state {
            self.run.accesses.push(RawAccess {
                locks: self.recorded_locks(target, &path, self.key, locks),
                target,
                path,
                pointee,
                write,
                atomic,
                solo: self.solo,
                fresh: self.fresh_access,
                offset,
                item: self.item,
                team_place: self.team_place,
            });
        }
    }

    /// A call through a function pointer: a call of any function whose address the
    /// program takes, the locks after it those held after every one of them.
    pub fn call_indirect(&mut self, args: &'a [Node<Expression>], at: usize) {
        let arguments = args.len();
        let Some(mut targets) = self.decls.function_targets.clone() else {
            // The discovery's first walk: the targets are not known yet.
            return;
        };
        // A call with other arguments than the function's parameters is undefined.
        targets.retain(|f| self.decls.callable_with(f, arguments));
        if targets.is_empty() {
            return self.give_up("a call through a function pointer that points to no function whose address is taken", at);
        }
        let before = self.state.clone();
        let mut after: State = None;
        for f in &targets {
            if !self.decls.bodies.contains_key(f) && super::pure::indirect_target(f) {
                // A library function with known effects: followed as a direct call.
                self.state = before.clone();
                let outer = std::mem::replace(&mut self.library_arguments, true);
                self.heap_library(f, args, at);
                self.library_call(f, args, at);
                self.library_arguments = outer;
                after = meet(&after, &self.state);
                continue;
            }
            if !self.decls.bodies.contains_key(f) {
                self.give_up(
                    format!(
                        "a call through a function pointer that may call `{f}`, which has no body"
                    ),
                    at,
                );
                continue;
            }
            self.state = before.clone();
            self.heap_call_defined(f, args, at);
            self.call_defined(f);
            after = meet(&after, &self.state);
        }
        self.state = after;
    }

    /// A call of the defined function `callee`: its call site, then its summary.
    pub fn call_defined(&mut self, callee: &str) {
        let fresh = std::mem::take(&mut self.fresh_params);
        if let (true, Some(locks)) = (self.record, &self.state) {
            let mut locks = super::element::without_keyed(locks.clone());
            locks.extend(fresh.into_iter().map(Lock::FreshParam));
            self.run.calls.push(CallSite {
                callee: callee.to_string(),
                locks,
                solo: self.solo,
            });
        }
        let summary = self.summaries.get(callee);
        let Some(locks) = &mut self.state else { return };
        match summary {
            Some(s) => {
                match &s.may_unlock {
                    Some(set) => locks.retain(|l| !set.iter().any(|u| u.may_alias(l))),
                    None => locks.retain(|l| *l == Lock::Atomic),
                }
                locks.extend(s.must_acquire.iter().cloned());
            }
            None => locks.retain(|l| *l == Lock::Atomic),
        }
        match (&mut self.run.unlocks, summary.map(|s| &s.may_unlock)) {
            (Some(mine), Some(Some(theirs))) => mine.extend(theirs.iter().cloned()),
            (unlocks, _) => *unlocks = None,
        }
    }

    pub fn lock(&mut self, l: Lock) {
        if let Some(locks) = &mut self.state {
            locks.insert(l);
        }
    }

    /// An unlock (or an init) of `l`; none: of a mutex the proof cannot name.
    pub fn unlock(&mut self, l: Option<Lock>) {
        match l {
            Some(l) => {
                if let Some(u) = &mut self.run.unlocks {
                    u.insert(l.clone());
                }
                if let Some(locks) = &mut self.state {
                    locks.retain(|held| !held.may_alias(&l));
                }
            }
            None => {
                self.run.unlocks = None;
                if let Some(locks) = &mut self.state {
                    locks.retain(|l| *l == Lock::Atomic);
                }
            }
        }
    }
}
