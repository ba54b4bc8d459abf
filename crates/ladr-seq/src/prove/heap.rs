//! Points-to by allocation site (issue 30, `docs/decisions/static.md`, "Heap objects by
//! allocation site"): every `malloc`/`calloc`/`realloc`/… call is an abstract object, one
//! for all the blocks it ever returns (a site run many times: blocks that may alias each
//! other, judged as one object). Inclusion constraints (Andersen's analysis), flow- and
//! context-insensitive, field-insensitive for the pointer values an object holds:
//! `p = &x`, `p = q`, `p = *q`, `*p = q`, arguments to parameters, returns to calls, a
//! thread's argument to its routine's parameter. The walks ([`super::scan`], recording)
//! generate them; [`Graph::solve`] computes what each pointer may point to.
//!
//! Never a guess: a value the constraints do not follow (a function without a body, a
//! `va_arg`, what a library function may have stored, a pointer read from memory an
//! unknown pointer reaches) is [`Obj::Unknown`], and an access through a pointer that may
//! be unknown (or that points to nothing the analysis saw) touches every object, as
//! before. Anything stored through an unknown pointer may be in every object.
//!
//! A site is *private* when no block of it can reach another thread instance: its
//! addresses are held only in automatic locals and `__thread` variables whose address is
//! never taken, parameters, returns and private blocks — never in a global, an object
//! whose address is taken, a thread's argument or return value, or memory an unknown
//! pointer may reach. Each block of a private site is touched only by the thread
//! instance that allocated it.

use super::decls::VarId;
use super::scan::Scan;
use crate::model::library::{self, Args, Effect};
use lang_c::ast::*;
use lang_c::span::Node as Ast;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// A node of the constraint graph: something that holds pointer values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Node {
    /// A variable's value (all of it: its members and elements alike).
    Var(VarId),
    /// The contents of the blocks of an allocation site (by the call's offset).
    Site(usize),
    Ret(String),
    Param(String, usize),
    /// The value of an expression (by its address in the syntax tree, and a tag).
    Temp(usize, u8),
    /// What is stored where an unknown pointer points: may be in every object.
    Wild,
    /// What another thread instance may get hold of (a thread's argument, its result).
    Escaped,
    /// A value the analysis does not follow.
    Unknown,
    /// No pointer.
    Empty,
}

/// What a pointer may point to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Obj {
    Var(VarId),
    /// The blocks of the allocation at this offset.
    Site(usize),
    /// String literals and memory of the C library: no variable and no site.
    Unnamed,
    /// Anything.
    Unknown,
}

pub type NodeId = u32;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Constraint {
    Addr(NodeId, Obj),
    /// `dst ⊇ src`.
    Copy(NodeId, NodeId),
    /// `dst ⊇ *ptr`.
    Load(NodeId, NodeId),
    /// `*ptr ⊇ src`.
    Store(NodeId, NodeId),
}

/// The constraints the walks generated.
#[derive(Clone, Default, Debug)]
pub struct Graph {
    ids: HashMap<Node, NodeId>,
    nodes: Vec<Node>,
    constraints: HashSet<Constraint>,
    /// Values that may point inside an object, off its start (`&x.f`, `p + 1`, an array
    /// decaying, `p++`): the objects they may point into are *shifted*
    /// ([`PointsTo::exact`], [`super::lockptr`]).
    inner: BTreeSet<NodeId>,
    /// The allocation sites: offset, function.
    pub sites: BTreeMap<usize, String>,
    /// Arithmetic members moved (`p->f++`, `v.f += k`) of objects of a known type: the
    /// node of the objects, the value moved, the type ([`PointsTo::member_shifts`]).
    pub(super) member_shifts: BTreeSet<(NodeId, NodeId, String)>,
}

/// The solution.
#[derive(Default, Debug)]
pub struct PointsTo {
    pts: Vec<BTreeSet<Obj>>,
    /// Sites whose blocks never reach another thread instance.
    pub private: BTreeSet<usize>,
    /// Variables whose address the constraints saw taken.
    pub addressed: HashSet<VarId>,
    pub sites: BTreeMap<usize, String>,
    /// Variables a pointer may point into off their start: an inner value may point into
    /// them, or code the analysis does not see may reach them (from *Wild*, through
    /// every object's contents).
    pub shifted: HashSet<VarId>,
    /// The variables and sites inner values other than [`PointsTo::member_shifts`]' may
    /// point into, or code the analysis does not see may reach.
    pub inner_objects: HashSet<Obj>,
    /// Each arithmetic member moved of an object of a known type `T`: the objects it
    /// may lie in, those its value may point to, `T` ([`super::fields`]; `shifted`
    /// counts them all, [`super::objects`] only where an object may not be a `T`).
    pub member_shifts: Vec<(Vec<Obj>, Vec<Obj>, String)>,
}

impl PointsTo {
    /// The objects an access through the pointer `n` may touch; none: any object.
    pub fn targets(&self, n: Option<NodeId>) -> Option<&BTreeSet<Obj>> {
        let set = self.pts.get(n? as usize)?;
        (!set.is_empty() && !set.contains(&Obj::Unknown)).then_some(set)
    }

    /// The one variable every value of the pointer `n` points to the start of: `n` may
    /// point to nothing else (no site, no unknown object), and no value anywhere points
    /// inside that variable off its start.
    pub fn exact(&self, n: NodeId) -> Option<VarId> {
        let set = self.pts.get(n as usize)?;
        match set.iter().collect::<Vec<_>>()[..] {
            [Obj::Var(v)] if !self.shifted.contains(v) => Some(*v),
            _ => None,
        }
    }

    /// May the pointer `n` point to nothing but the start of `v`?
    pub fn only(&self, n: NodeId, v: VarId) -> bool {
        let set = self.pts.get(n as usize);
        !self.shifted.contains(&v) && set.is_none_or(|s| s.iter().all(|o| *o == Obj::Var(v)))
    }
}

impl Graph {
    fn id(&mut self, n: Node) -> NodeId {
        if let Some(&i) = self.ids.get(&n) {
            return i;
        }
        let i = self.nodes.len() as NodeId;
        if n == Node::Unknown {
            self.constraints.insert(Constraint::Addr(i, Obj::Unknown));
        }
        self.nodes.push(n.clone());
        self.ids.insert(n, i);
        i
    }

    fn add(&mut self, c: Constraint) {
        self.constraints.insert(c);
    }

    /// Solves the constraints; `address_taken`: every variable whose address the walks
    /// saw taken (what a store through an unknown pointer may reach); `shared`: a
    /// variable another thread instance may reach (a global, a static, one whose address
    /// is taken).
    pub fn solve(
        &mut self,
        address_taken: &HashSet<VarId>,
        shared: &dyn Fn(VarId) -> bool,
    ) -> PointsTo {
        let wild = self.id(Node::Wild);
        for &v in address_taken {
            let n = self.id(Node::Var(v));
            self.add(Constraint::Copy(n, wild));
        }
        for &s in self.sites.clone().keys() {
            let n = self.id(Node::Site(s));
            self.add(Constraint::Copy(n, wild));
        }
        // Every object has its contents node (a variable whose value no walk wrote).
        let named: Vec<VarId> = self
            .constraints
            .iter()
            .filter_map(|c| match c {
                Constraint::Addr(_, Obj::Var(v)) => Some(*v),
                _ => None,
            })
            .collect();
        for v in named {
            self.id(Node::Var(v));
        }
        let constraints: Vec<Constraint> = self.constraints.iter().cloned().collect();
        let mut pts: Vec<BTreeSet<Obj>> = vec![BTreeSet::new(); self.nodes.len()];
        let mut contents: HashMap<Obj, NodeId> = HashMap::new();
        for (k, n) in self.nodes.iter().enumerate() {
            match n {
                Node::Var(v) => {
                    contents.insert(Obj::Var(*v), k as NodeId);
                }
                Node::Site(s) => {
                    contents.insert(Obj::Site(*s), k as NodeId);
                }
                _ => {}
            }
        }
        let mut addressed = HashSet::new();
        for c in &constraints {
            if let Constraint::Addr(n, o) = c {
                pts[*n as usize].insert(*o);
                if let Obj::Var(v) = o {
                    addressed.insert(*v);
                }
            }
        }
        // Where a store through `o` lands, what a load through it gives.
        let store_node = |o: &Obj| contents.get(o).copied().unwrap_or(wild);
        let mut changed = true;
        while changed {
            changed = false;
            for c in &constraints {
                let mut flow = |dst: NodeId, add: BTreeSet<Obj>, pts: &mut Vec<BTreeSet<Obj>>| {
                    let d = &mut pts[dst as usize];
                    let before = d.len();
                    d.extend(add);
                    changed |= d.len() != before;
                };
                match c {
                    Constraint::Addr(..) => {}
                    Constraint::Copy(d, s) => {
                        let add = pts[*s as usize].clone();
                        flow(*d, add, &mut pts);
                    }
                    Constraint::Load(d, p) => {
                        let mut add = BTreeSet::new();
                        for o in &pts[*p as usize] {
                            match contents.get(o) {
                                Some(&n) => add.extend(pts[n as usize].iter().copied()),
                                None => {
                                    add.insert(Obj::Unknown);
                                }
                            }
                        }
                        flow(*d, add, &mut pts);
                    }
                    Constraint::Store(p, s) => {
                        let targets: Vec<NodeId> =
                            pts[*p as usize].iter().map(store_node).collect();
                        let add = pts[*s as usize].clone();
                        for t in targets {
                            flow(t, add.clone(), &mut pts);
                        }
                    }
                }
            }
        }
        let private = self.private_sites(&pts, shared);
        let (mut shifted, shifted_sites) = self.shifted(&pts, &contents, wild);
        let inner_objects: HashSet<Obj> = shifted
            .iter()
            .map(|v| Obj::Var(*v))
            .chain(shifted_sites.iter().map(|s| Obj::Site(*s)))
            .collect();
        let member_shifts = super::fields::member_shifts(&self.member_shifts, &pts, &mut shifted);
        PointsTo {
            pts,
            private,
            addressed,
            sites: self.sites.clone(),
            shifted,
            inner_objects,
            member_shifts,
        }
    }

    /// The variables (and sites) an inner value may point into, and those code the
    /// analysis does not see may reach: what *Wild* points to and, transitively, what
    /// their contents do.
    fn shifted(
        &self,
        pts: &[BTreeSet<Obj>],
        contents: &HashMap<Obj, NodeId>,
        wild: NodeId,
    ) -> (HashSet<VarId>, HashSet<usize>) {
        let mut out = HashSet::new();
        let mut sites = HashSet::new();
        let mut add = |o: &Obj| match o {
            Obj::Var(v) => {
                out.insert(*v);
            }
            Obj::Site(s) => {
                sites.insert(*s);
            }
            Obj::Unnamed | Obj::Unknown => {}
        };
        for &n in &self.inner {
            for o in &pts[n as usize] {
                add(o);
            }
        }
        let mut seen: HashSet<Obj> = HashSet::new();
        let mut todo: Vec<Obj> = pts[wild as usize].iter().copied().collect();
        while let Some(o) = todo.pop() {
            if !seen.insert(o) {
                continue;
            }
            add(&o);
            if let Some(&c) = contents.get(&o) {
                todo.extend(pts[c as usize].iter().copied());
            }
        }
        (out, sites)
    }

    /// The sites no shared node may point to (to a fixpoint: a block a shared block
    /// points to is shared). `shared`: a variable other thread instances may reach.
    fn private_sites(
        &self,
        pts: &[BTreeSet<Obj>],
        shared: &dyn Fn(VarId) -> bool,
    ) -> BTreeSet<usize> {
        let mut private: BTreeSet<usize> = self.sites.keys().copied().collect();
        loop {
            let before = private.len();
            for (k, n) in self.nodes.iter().enumerate() {
                let is_shared = match n {
                    Node::Var(v) => shared(*v),
                    Node::Site(s) => !private.contains(s),
                    Node::Wild | Node::Escaped | Node::Unknown => true,
                    Node::Ret(_) | Node::Param(..) | Node::Temp(..) | Node::Empty => false,
                };
                if is_shared {
                    for o in &pts[k] {
                        if let Obj::Site(s) = o {
                            private.remove(s);
                        }
                    }
                }
            }
            if private.len() == before {
                return private;
            }
        }
    }
}

/// Solves the constraints the walks generated: a shared variable is a global or static
/// (not `__thread`) or one whose address is taken.
pub fn points_to(decls: &mut super::decls::Decls, address_taken: &HashSet<VarId>) -> PointsTo {
    let graph = std::mem::take(&mut decls.heap);
    solve_for(graph, decls, address_taken)
}

/// [`points_to`] of the constraints generated so far, which stay in `decls`.
pub fn points_to_now(decls: &super::decls::Decls, address_taken: &HashSet<VarId>) -> PointsTo {
    solve_for(decls.heap.clone(), decls, address_taken)
}

fn solve_for(
    mut graph: Graph,
    decls: &super::decls::Decls,
    address_taken: &HashSet<VarId>,
) -> PointsTo {
    let shared = |v: VarId| {
        let var = &decls.vars[v];
        address_taken.contains(&v) || !(var.automatic || var.thread_local)
    };
    graph.solve(address_taken, &shared)
}

/// The tag of a call's result node (keyed by the call's offset).
const CALL: u8 = 200;

/// Allocators: each call is a site.
pub(super) const ALLOCATORS: &[&str] = &[
    "malloc",
    "calloc",
    "aligned_alloc",
    "memalign",
    "valloc",
    "strdup",
    "strndup",
    "alloca",
    "__builtin_alloca",
];

/// Library functions whose result is a pointer into their first argument (or it).
const RETURNS_FIRST: &[&str] = &[
    "memcpy",
    "memmove",
    "memset",
    "strcpy",
    "strncpy",
    "strcat",
    "strncat",
    "stpcpy",
    "fgets",
    "strchr",
    "strrchr",
    "strstr",
    "strpbrk",
    "memchr",
    "__builtin_expect",
    "__builtin_expect_with_probability",
    "__builtin_assume_aligned",
];

/// Of those, the ones whose result may point inside the argument, off its start.
const RETURNS_INSIDE: &[&str] = &["stpcpy", "strchr", "strrchr", "strstr", "strpbrk", "memchr"];

/// Library functions that store no pointer value where they write (bytes of a value:
/// zeros; `free` ends the block, whose contents no defined program reads again), or copy
/// the source's contents (`memcpy`).
const STORES_NO_POINTER: &[&str] = &["memset", "bzero", "explicit_bzero", "free"];
const COPIES: &[&str] = &[
    "memcpy", "memmove", "strcpy", "strncpy", "stpcpy", "strcat", "strncat",
];

/// Library functions that return no pointer and keep none of their arguments.
fn returns_no_pointer(name: &str) -> bool {
    super::pure::keeps_no_pointer(name)
        || super::pure::prints(name)
        || matches!(
            name,
            "pthread_self" | "pthread_equal" | "__builtin_prefetch" | "free" | "rand" | "random"
        )
        || (name.starts_with("__VERIFIER_nondet_") && !name.contains("pointer"))
        || (name.starts_with("__CPROVER_") && name != "__CPROVER_havoc_object")
        || name.starts_with("__VERIFIER_atomic")
        || name == "__VERIFIER_assume"
}

impl<'a> Scan<'_, 'a> {
    fn hnode(&mut self, n: Node) -> NodeId {
        self.decls.heap.id(n)
    }

    fn hadd(&mut self, c: Constraint) {
        self.decls.heap.add(c);
    }

    pub(super) fn temp(&mut self, e: &Ast<Expression>, tag: u8) -> NodeId {
        self.hnode(Node::Temp(e as *const Ast<Expression> as usize, tag))
    }

    fn union(&mut self, e: &Ast<Expression>, tag: u8, parts: &[NodeId]) -> NodeId {
        let t = self.temp(e, tag);
        for &p in parts {
            self.hadd(Constraint::Copy(t, p));
        }
        t
    }

    fn unknown(&mut self) -> NodeId {
        self.hnode(Node::Unknown)
    }

    /// The values of `n` may point inside an object, off its start.
    fn inner(&mut self, n: NodeId) -> NodeId {
        self.decls.heap.inner.insert(n);
        n
    }

    /// `e++`, `e--`, `e += k`, `e -= k`, …: the value `e` holds moves.
    pub fn heap_shift(&mut self, e: &'a Ast<Expression>) {
        if !self.record {
            return;
        }
        if let Some((base, t)) = self.typed_member(e) {
            // Moving an arithmetic member of an object of a known type: deferred
            // ([`PointsTo::member_shifts`]).
            let loaded = self.value(e);
            self.decls.heap.member_shifts.insert((base, loaded, t));
            return;
        }
        let v = self.value(e);
        self.inner(v);
    }

    fn empty(&mut self) -> NodeId {
        self.hnode(Node::Empty)
    }

    /// The pointer an access through `base` follows (none: not recording; an unknown
    /// pointer when `base` is none).
    pub fn pointer_node(&mut self, base: Option<&'a Ast<Expression>>) -> Option<NodeId> {
        if !self.record {
            return None;
        }
        Some(match base {
            Some(b) => self.value(b),
            None => self.unknown(),
        })
    }

    /// The pointer `lhs[rhs]` follows.
    pub fn index_pointer_node(
        &mut self,
        lhs: &'a Ast<Expression>,
        rhs: &'a Ast<Expression>,
    ) -> Option<NodeId> {
        if !self.record {
            return None;
        }
        Some(self.index_value(lhs, rhs))
    }

    fn index_value(&mut self, lhs: &'a Ast<Expression>, rhs: &'a Ast<Expression>) -> NodeId {
        let l = self.value(lhs);
        if constant_value(rhs) {
            return l;
        }
        let r = self.value(rhs);
        self.union(lhs, 1, &[l, r])
    }

    /// `lhs = rhs` (or `lhs op= rhs`).
    pub fn heap_assign(&mut self, lhs: &'a Ast<Expression>, rhs: &'a Ast<Expression>) {
        if !self.record {
            return;
        }
        let v = self.value(rhs);
        self.store_into(lhs, v);
    }

    /// The value `v` stored into the lvalue `lhs`.
    fn store_into(&mut self, lhs: &'a Ast<Expression>, v: NodeId) {
        let target = self.address(lhs);
        self.hadd(Constraint::Store(target, v));
    }

    /// A declaration's (or a global's) initialiser.
    pub fn heap_init(&mut self, id: VarId, init: &'a Initializer) {
        if !self.record {
            return;
        }
        let n = self.hnode(Node::Var(id));
        self.init_into(n, init);
    }

    pub(super) fn init_into(&mut self, n: NodeId, init: &'a Initializer) {
        match init {
            Initializer::Expression(e) => {
                let v = self.value(e);
                self.hadd(Constraint::Copy(n, v));
            }
            Initializer::List(items) => {
                for it in items {
                    self.init_into(n, &it.node.initializer.node);
                }
            }
        }
    }

    pub fn heap_return(&mut self, e: &'a Ast<Expression>) {
        if !self.record {
            return;
        }
        let v = self.value(e);
        let r = self.hnode(Node::Ret(self.function.clone()));
        self.hadd(Constraint::Copy(r, v));
    }

    pub fn heap_parameter(&mut self, function: &str, k: usize, id: VarId) {
        if !self.record {
            return;
        }
        let p = self.hnode(Node::Param(function.to_string(), k));
        let v = self.hnode(Node::Var(id));
        self.hadd(Constraint::Copy(v, p));
    }

    /// A call of the defined function `name` at offset `at`.
    pub fn heap_call_defined(&mut self, name: &str, args: &'a [Ast<Expression>], at: usize) {
        if !self.record {
            return;
        }
        for (k, a) in args.iter().enumerate() {
            let v = self.value(a);
            let p = self.hnode(Node::Param(name.to_string(), k));
            self.hadd(Constraint::Copy(p, v));
            if !self.fixed_arity(name, k) {
                // A variadic argument: `va_arg` gives an unknown pointer.
                let wild = self.hnode(Node::Wild);
                self.hadd(Constraint::Copy(wild, v));
            }
        }
        let r = self.hnode(Node::Ret(name.to_string()));
        let res = self.hnode(Node::Temp(at, CALL));
        self.hadd(Constraint::Copy(res, r));
    }

    /// Is argument `k` of `name` one of its declared parameters (not a variadic one)?
    fn fixed_arity(&self, name: &str, k: usize) -> bool {
        matches!(self.decls.arity.get(name), Some(Some((n, _))) if k < *n)
    }

    /// `pthread_create(…, routine, arg)`.
    pub fn heap_create(&mut self, routine: &str, arg: Option<&'a Ast<Expression>>) {
        if !self.record {
            return;
        }
        let escaped = self.hnode(Node::Escaped);
        let ret = self.hnode(Node::Ret(routine.to_string()));
        self.hadd(Constraint::Copy(escaped, ret));
        if let Some(a) = arg {
            let v = self.value(a);
            let p = self.hnode(Node::Param(routine.to_string(), 0));
            self.hadd(Constraint::Copy(p, v));
            self.hadd(Constraint::Copy(escaped, v));
        }
    }

    /// A call of library function `name` at `at`: its result and what it stores.
    pub fn heap_library(&mut self, name: &str, args: &'a [Ast<Expression>], at: usize) {
        if !self.record || name == "pthread_create" {
            return;
        }
        let res = self.hnode(Node::Temp(at, CALL));
        let arg = |k: usize| args.get(k);
        let sync = super::pure::sync_objects(name);
        if ALLOCATORS.contains(&name)
            || matches!(name, "realloc" | "reallocarray" | "posix_memalign")
        {
            self.decls.heap.sites.insert(at, self.function.clone());
            let site = self.hnode(Node::Temp(at, CALL + 1));
            self.hadd(Constraint::Addr(site, Obj::Site(at)));
            if name == "posix_memalign" {
                if let Some(a) = arg(0) {
                    self.store_through(a, site);
                }
            } else {
                self.hadd(Constraint::Copy(res, site));
            }
            if name.starts_with("realloc") {
                if let Some(a) = arg(0) {
                    let v = self.value(a);
                    self.hadd(Constraint::Copy(res, v));
                }
            }
            return;
        }
        // What a joined thread returned, and what a havoc writes: any value.
        let any_value_into = match name {
            "pthread_join" => Some(1),
            "__CPROVER_havoc_object" => Some(0),
            _ => None,
        };
        if let Some(k) = any_value_into {
            if name == "__CPROVER_havoc_object"
                && args.first().is_some_and(|a| self.local_address(a))
            {
                // N4's havoc of an uninitialised local: an indeterminate value, which no
                // defined program uses as an address (C11 6.2.4p6, J.2); no pointer, as
                // `__VERIFIER_nondet_int()` gives none.
                return;
            }
            if let Some(a) = arg(k) {
                let u = self.unknown();
                self.store_through(a, u);
            }
            return;
        }
        if name == "pthread_exit" {
            if let Some(a) = arg(0) {
                let v = self.value(a);
                let escaped = self.hnode(Node::Escaped);
                self.hadd(Constraint::Copy(escaped, v));
            }
            return;
        }
        if sync || name == "__VERIFIER_atomic_begin" || name == "__VERIFIER_atomic_end" {
            return;
        }
        if library::atomic_builtin(name).is_some() {
            // Values flow between every argument and what they point to.
            let x = self.hnode(Node::Temp(at, CALL + 2));
            let vals: Vec<NodeId> = args.iter().map(|a| self.value(a)).collect();
            for &v in &vals {
                self.hadd(Constraint::Copy(x, v));
                self.hadd(Constraint::Load(x, v));
            }
            for &v in &vals {
                self.hadd(Constraint::Store(v, x));
            }
            // `__atomic_fetch_add(&p, 8, …)` moves a pointer.
            self.inner(x);
            self.hadd(Constraint::Copy(res, x));
            return;
        }
        if RETURNS_FIRST.contains(&name) {
            if let Some(a) = arg(0) {
                let v = self.value(a);
                self.hadd(Constraint::Copy(res, v));
                if RETURNS_INSIDE.contains(&name) {
                    self.inner(v);
                }
            }
        }
        if let Some(effects) = library::effects(name) {
            let wild = self.hnode(Node::Wild);
            for (k, a) in args.iter().enumerate() {
                let mine = effects.iter().filter(|(sel, _)| match sel {
                    Args::At(i) => *i == k,
                    Args::From(i) => k >= *i,
                });
                let v = self.value(a);
                for (_, e) in mine {
                    match e {
                        Effect::Read => self.hadd(Constraint::Load(wild, v)),
                        Effect::Write if STORES_NO_POINTER.contains(&name) => {}
                        Effect::Write if COPIES.contains(&name) => {
                            if let Some(src) = arg(1) {
                                let s = self.value(src);
                                let t = self.hnode(Node::Temp(at, CALL + 3));
                                // Bytes copied: a pointer's may land in an integer,
                                // whose moves are not followed (`member_shifts`).
                                self.inner(t);
                                self.hadd(Constraint::Load(t, s));
                                self.hadd(Constraint::Store(v, t));
                            }
                        }
                        Effect::Write => {
                            let u = self.unknown();
                            self.hadd(Constraint::Store(v, u));
                        }
                    }
                }
                if !super::pure::keeps_no_pointer(name) && !RETURNS_FIRST.contains(&name) {
                    self.hadd(Constraint::Copy(wild, v));
                }
            }
            if !RETURNS_FIRST.contains(&name) && !returns_no_pointer(name) {
                let u = self.unknown();
                self.hadd(Constraint::Copy(res, u));
            }
            return;
        }
        if returns_no_pointer(name) {
            for a in args {
                let v = self.value(a);
                let wild = self.hnode(Node::Wild);
                self.hadd(Constraint::Load(wild, v));
            }
            return;
        }
        if RETURNS_FIRST.contains(&name) {
            return;
        }
        // A function the analysis does not know: it may store anything through its
        // arguments, keep them, and return anything.
        let u = self.unknown();
        let wild = self.hnode(Node::Wild);
        self.hadd(Constraint::Copy(res, u));
        for a in args {
            let v = self.value(a);
            self.hadd(Constraint::Copy(wild, v));
            self.hadd(Constraint::Store(v, u));
        }
    }

    /// Is `a` `&x` of an automatic local `x`?
    fn local_address(&self, a: &Ast<Expression>) -> bool {
        let Expression::UnaryOperator(u) = &super::access::strip_casts(a).node else {
            return false;
        };
        let Expression::Identifier(i) = &u.node.operand.node else {
            return false;
        };
        u.node.operator.node == UnaryOperator::Address
            && self
                .lookup(&i.node.name)
                .is_some_and(|v| self.decls.vars[v].automatic)
    }

    /// `*a = v` for the pointer value of `a`.
    fn store_through(&mut self, a: &'a Ast<Expression>, v: NodeId) {
        let p = self.value(a);
        self.hadd(Constraint::Store(p, v));
    }

    /// The objects the lvalue `e` lies in (what `&e` points to).
    pub(super) fn address(&mut self, e: &'a Ast<Expression>) -> NodeId {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(v) => {
                    let t = self.temp(e, 2);
                    self.hadd(Constraint::Addr(t, Obj::Var(v)));
                    t
                }
                // A function's address: no data.
                None => self.empty(),
            },
            Expression::Member(m) => {
                if m.node.operator.node == MemberOperator::Direct {
                    self.address(&m.node.expression)
                } else {
                    self.value(&m.node.expression)
                }
            }
            Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Index => {
                let (lhs, rhs) = (&b.node.lhs, &b.node.rhs);
                // A member no struct declares as an array is a pointer: its elements
                // lie outside the object that holds it.
                let kind = match (&lhs.node, self.array_kind(lhs)) {
                    (Expression::Member(m), super::decls::Tri::Maybe)
                        if self.decls.ir.field_depth(&m.node.identifier.node.name) == Some(0) =>
                    {
                        super::decls::Tri::No
                    }
                    // A member every struct declares as an array: its element lies in the
                    // object that holds it, and no address inside that object is made.
                    (Expression::Member(m), super::decls::Tri::Maybe)
                        if self
                            .decls
                            .ir
                            .field_depth(&m.node.identifier.node.name)
                            .is_some_and(|d| d > 0) =>
                    {
                        super::decls::Tri::Yes
                    }
                    (_, k) => k,
                };
                match kind {
                    super::decls::Tri::Yes => self.address(lhs),
                    super::decls::Tri::Maybe => {
                        let a = self.address(lhs);
                        let p = self.index_value(lhs, rhs);
                        self.union(e, 3, &[a, p])
                    }
                    super::decls::Tri::No => self.index_value(lhs, rhs),
                }
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Indirection => {
                self.value(&u.node.operand)
            }
            Expression::Cast(c) => self.address(&c.node.expression),
            Expression::StringLiteral(_) => {
                let t = self.temp(e, 2);
                self.hadd(Constraint::Addr(t, Obj::Unnamed));
                t
            }
            _ => self.unknown(),
        }
    }

    /// The pointer values expression `e` may have.
    fn value(&mut self, e: &'a Ast<Expression>) -> NodeId {
        match &e.node {
            Expression::Identifier(i) => match self.lookup(&i.node.name) {
                Some(v) => {
                    let var = self.hnode(Node::Var(v));
                    // An array decays to its first element's address.
                    match self.decls.vars[v].array {
                        super::decls::Tri::No => var,
                        super::decls::Tri::Yes => {
                            let a = self.address(e);
                            self.inner(a)
                        }
                        super::decls::Tri::Maybe => {
                            let a = self.address(e);
                            self.inner(a);
                            self.union(e, 4, &[var, a])
                        }
                    }
                }
                None => self.empty(),
            },
            Expression::Constant(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => self.empty(),
            Expression::StringLiteral(_) => self.address(e),
            Expression::Member(m) => {
                let field = &m.node.identifier.node.name;
                let decays = self.decls.ir.field_depth(field) != Some(0);
                self.loaded(e, decays)
            }
            Expression::BinaryOperator(b) => self.binary_value(e, &b.node),
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Address => {
                    let a = self.address(&u.node.operand);
                    // `&x` is `x`'s start; `&x.f`, `&a[i]`, `&p->f`, `&*p` may not be.
                    match &u.node.operand.node {
                        Expression::Identifier(_) => a,
                        _ => self.inner(a),
                    }
                }
                UnaryOperator::Indirection => {
                    let decays = !self.scalar_pointer(&u.node.operand);
                    self.loaded(e, decays)
                }
                UnaryOperator::Negate => self.empty(),
                _ => {
                    let v = self.value(&u.node.operand);
                    self.inner(v)
                }
            },
            Expression::Cast(c) => {
                let v = self.value(&c.node.expression);
                if !super::fields::integer_cast(&c.node.type_name.node) {
                    v
                } else {
                    // A pointer converted to an integer (or to a typedef name): its
                    // moves as a number are not followed (`member_shifts`).
                    self.inner(v)
                }
            }
            Expression::Call(_) => self.hnode(Node::Temp(e.span.start, CALL)),
            Expression::Conditional(c) => {
                let t = self.value(&c.node.then_expression);
                let f = self.value(&c.node.else_expression);
                self.union(e, 5, &[t, f])
            }
            Expression::Comma(es) => match es.last() {
                Some(x) => self.value(x),
                None => self.empty(),
            },
            Expression::CompoundLiteral(c) => self.literal_value(e, &c.node),
            _ => self.unknown(),
        }
    }

    /// The value of the lvalue `e` read: what its objects hold, and (`decays`) its own
    /// address when it may be an array.
    fn loaded(&mut self, e: &'a Ast<Expression>, decays: bool) -> NodeId {
        let a = self.address(e);
        let t = self.temp(e, 6);
        self.hadd(Constraint::Load(t, a));
        if decays {
            // An array member decays to an address inside the object.
            let d = self.temp(e, 8);
            self.hadd(Constraint::Copy(d, a));
            self.inner(d);
            self.hadd(Constraint::Copy(t, d));
        }
        t
    }

    /// Is `e` a variable declared as a pointer to an arithmetic type?
    fn scalar_pointer(&self, e: &Ast<Expression>) -> bool {
        matches!(&e.node, Expression::Identifier(i)
            if self.lookup(&i.node.name).is_some_and(|v| self.decls.vars[v].scalar_pointee))
    }

    fn binary_value(&mut self, e: &'a Ast<Expression>, b: &'a BinaryOperatorExpression) -> NodeId {
        use BinaryOperator as B;
        match b.operator.node {
            B::Index => {
                let one_dimension = matches!(&b.lhs.node, Expression::Identifier(i)
                    if self.lookup(&i.node.name).is_some_and(|v| self.decls.vars[v].depth == Some(1)));
                let decays = !one_dimension && !self.scalar_pointer(&b.lhs);
                self.loaded(e, decays)
            }
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals
            | B::LogicalAnd
            | B::LogicalOr => self.empty(),
            B::Assign => self.value(&b.rhs),
            _ => {
                let mut parts = vec![];
                for x in [&b.lhs, &b.rhs] {
                    // An integer variable may hold a pointer cast to it: followed.
                    if !constant_value(x) {
                        parts.push(self.value(x));
                    }
                }
                let u = self.union(e, 7, &parts);
                self.inner(u)
            }
        }
    }
}

/// A value no pointer can hide in: constants and `sizeof`, and arithmetic on them.
fn constant_value(e: &Ast<Expression>) -> bool {
    match &e.node {
        Expression::Constant(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => true,
        Expression::Cast(c) => constant_value(&c.node.expression),
        Expression::UnaryOperator(u) => {
            matches!(
                u.node.operator.node,
                UnaryOperator::Minus | UnaryOperator::Plus | UnaryOperator::Complement
            ) && constant_value(&u.node.operand)
        }
        Expression::BinaryOperator(b) => {
            b.node.operator.node != BinaryOperator::Index
                && constant_value(&b.node.lhs)
                && constant_value(&b.node.rhs)
        }
        _ => false,
    }
}
