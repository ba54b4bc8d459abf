//! `prove` — a static race analysis of the unbounded program (issue 30): after
//! `normalise`, before `inline`, with no bound on loops, recursion or threads, it either
//! proves that no two accesses of any execution race, or says why it cannot. A proof on a
//! racy program is the worst bug ladr can have: every doubt gives up (`docs/decisions/static.md`).
//!
//! The analysis, in order:
//! 1. every function with a body is walked twice ([`scan`], [`access`]): its calls (a
//!    call through a pointer: of every function whose address is taken, known after the
//!    first walk), its `pthread_create`s (a start routine that is not a defined
//!    function's name gives up), its give-ups (functions handed to the library, asm, …);
//! 2. threads ([`threads`]): `main` and the start routines are the roots; a routine is
//!    created once or many times; `main`'s solo statements and phases;
//! 3. lock summaries: what each function may unlock and surely holds on return (bottom-up;
//!    recursive functions: may unlock anything, hold nothing);
//! 4. entry locksets and solo-ness of every function: the meet over its call sites, to a
//!    fixpoint;
//! 5. the accesses of every function reached from a root, each with its must-lockset, its
//!    solo-ness and its roots;
//! 6. points-to, as coarse as sound: an access through a pointer may touch every object
//!    whose address is taken (or that decays to a pointer) and all memory no variable
//!    names (heap, the library's, literals). No flow needs following: a pointer can only
//!    ever point to such an object. But `P[i]`, `*P` of a global that owns its blocks
//!    ([`owned`]: every value of `P` is a fresh allocation no other pointer keeps) touch
//!    only those blocks, one object;
//! 7. objects: every pair of accesses of a shared object, at least one a write, both not
//!    solo, of two thread instances that may run together (and not in different phases
//!    of one barrier: [`barrier`]), must hold a common lock (an
//!    array element's own mutex for accesses inside that element: [`element`]; a mutex
//!    reached through a pointer to one object, at its start: [`lockptr`]) or be
//!    atomic. Automatic locals and `__thread` variables whose address is never taken are
//!    no shared objects; named accesses of one automatic local are of one call's object.

mod access;
mod affine;
mod alias;
mod asm;
mod barrier;
mod blocks;
mod bounds;
mod chunks;
mod collapse;
mod decls;
mod disjoint;
mod element;
mod exit_test;
mod fields;
mod fresh;
mod guard;
mod heap;
mod invariant;
mod lanes;
mod literal;
mod lockptr;
mod nest;
mod once;
mod origin;
mod owned;
mod pure;
mod scan;
mod slot;
mod splice;
mod table;
mod team_barrier;
mod threads;
mod userlock;
mod values;
mod window;
mod worksharing;

use decls::{Decls, VarId};
use lang_c::ast::*;
use scan::{meet, FnRun, RawAccess, Scan};
use std::collections::{BTreeSet, HashMap, HashSet};

/// One step of a path into a variable: a member (`.f`) or an element (`[i]`, with its
/// index when it is a constant).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    Field(String),
    Index(Option<u64>),
    /// The element of the accessing thread instance's own index: no other instance of
    /// its routine has it ([`disjoint`]).
    Own,
    /// The element of the thread `main` is about to create: `B[i] = …;` before the
    /// create of the slot `&B[i]` in the same round of the loop ([`slot`]). No running
    /// thread has it.
    Fresh,
    /// An index `α·i + β + Σ κ·v` (`.1` = α, `.2` = β, `.3` the `(g, κ)` of locals `v`
    /// holding file-scope `g`'s value, by `g`) of the loop variable `i` of the claim loop
    /// `.0` ([`worksharing`], [`affine`]): two threads that make such an access at once
    /// run different iterations, so two accesses with one such step by two threads touch
    /// different elements (with one α and terms: [`affine::iterations_apart`]).
    Iter(usize, i64, i64, Vec<(VarId, i64)>),
    /// An index `v + c` (`.1` = c) of a local `v` that holds the value file-scope variable
    /// `.0` had when its function read it ([`invariant`]): two threads that make such
    /// accesses at once read one value when `.0` is written only while no other thread
    /// may run, so different offsets are different elements.
    Inv(VarId, i64),
    /// The array of elements of type `.1` (a pointer's arithmetic pointee type, spelled)
    /// that starts where file-scope pointer `.0` pointed when the accessing function read
    /// it: `L[e]` of a local `L = G;` ([`invariant`]). Followed by the index's step. Two
    /// accesses with one such base at once, `G` written only while no other thread may
    /// run, index one array: their indices tell them apart.
    Base(VarId, String),
    /// An index `v + c` (`.2` = c) of a local `v` that holds entry `i` of the constant
    /// table `.1`, `i` the variable of the claim loop `.0` ([`table`]): two threads that
    /// make such accesses at once index two different entries.
    Table(usize, VarId, i64),
    /// An index `j + c` of a counter `j` of a loop `j = α·i + l; while (j <= α·i + h)`
    /// inside the claim loop `.0` of variable `i` (`.1` = α > 0, `.2` = l + c, `.3` = h +
    /// c): its values lie in the window `[α·i + .2, α·i + .3]` of the thread's iteration
    /// `i` ([`window`]): two threads' windows are apart when α exceeds their spans.
    Window(usize, i64, i64, i64),
}

/// The part of a variable an access or a lock names (empty: all of it).
pub type Path = Vec<Step>;

/// A lock of a must-lockset.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lock {
    /// A mutex (spin lock, write-locked rwlock) that is one global variable or a part of
    /// one named by members and constant indices (`&m`, `&s.m`, `&m[4]`): one object.
    Mutex(VarId, Path),
    /// A read-locked rwlock (`pthread_rwlock_rdlock`), named as a [`Lock::Mutex`] is: it
    /// excludes the holders of the same lock as a `Mutex` (write-locked), not other
    /// readers.
    Shared(VarId, Path),
    /// `__VERIFIER_atomic_begin`/`end` sections and `__VERIFIER_atomic_*` functions.
    Atomic,
    /// The mutex at `path` inside the element of array `.0` that the key `.1` names: an
    /// automatic local, not written since the lock and whose address is never taken,
    /// that is the element's index (`&a[i].m`) or a pointer to it (`&p->m`, [`element`]).
    /// Held in a walk's lockset only, never across a call nor in a recorded access.
    Element(VarId, VarId, Path),
    /// Recorded with an access of a part of element `a[…]` of array `.0`, other memory
    /// than the mutex at `path` inside it: the access holds that element's mutex. Two
    /// such accesses that overlap are in one element, so they hold one mutex.
    InElement(VarId, Path),
    /// Held in the routine `.2` of `pthread_once(&o, .2)` for the once-control `o` (one
    /// object, `.0` and `.1`) while it runs from that call ([`once`]).
    OnceRunning(VarId, Path, String),
    /// Held after a `pthread_once(&o, .2)` returned: that routine, if it ran, finished.
    /// It excludes no other holder of itself, only [`Lock::OnceRunning`] of the same.
    OnceDone(VarId, Path, String),
    /// Not a lock: the local `.0` holds a block no other thread can reach yet ([`heap`]).
    /// Held in a walk's lockset only (a must-fact, met as locks are), never recorded.
    Fresh(VarId),
    /// Not a lock: at a call site, the argument at this position is a fresh block the
    /// callee does not let go of; in a callee's entry, that parameter is fresh.
    FreshParam(usize),
    /// Not a lock: when the local `.0` equals `.1` (modulo its width; `.2`) or differs
    /// from it (`!.2`), `.3` is held ([`guard`]). Held in a walk's lockset only, never
    /// recorded.
    Guarded(VarId, i64, bool, Box<Lock>),
    /// Not a lock: the local `.0` equals `.1` (modulo its width; `.2`) or differs from it
    /// (`!.2`; [`guard`]).
    Compare(VarId, i64, bool),
}

impl Lock {
    /// May `self` and `other` be the same lock? Two paths into one variable may name one
    /// mutex (`&m.a` and `&m.a[0]`, union members, a struct and its first member): an
    /// unlock or init of either ends both.
    pub fn may_alias(&self, other: &Lock) -> bool {
        match (self.variable(), other.variable()) {
            (Some(a), Some(b)) => a == b,
            (None, None) => true,
            _ => false,
        }
    }

    /// The variable the lock is a part of (none: the atomic sections).
    fn variable(&self) -> Option<VarId> {
        match self {
            Lock::Mutex(v, _)
            | Lock::Shared(v, _)
            | Lock::Element(v, ..)
            | Lock::InElement(v, _)
            | Lock::OnceRunning(v, ..)
            | Lock::OnceDone(v, ..) => Some(*v),
            Lock::Guarded(.., l) => l.variable(),
            Lock::Atomic | Lock::Fresh(_) | Lock::FreshParam(_) | Lock::Compare(..) => None,
        }
    }
}

pub type Locks = BTreeSet<Lock>;

/// Do two accesses holding `a` and `b` exclude each other? When both hold one lock, at
/// least one of them exclusively (a mutex, or an rwlock write-locked against one read- or
/// write-locked: POSIX lets no reader in while a writer holds it).
pub fn exclusive(a: &Locks, b: &Locks) -> bool {
    a.iter().any(|l| match l {
        Lock::Mutex(v, p) => b.contains(l) || b.contains(&Lock::Shared(*v, p.clone())),
        Lock::Shared(v, p) => b.contains(&Lock::Mutex(*v, p.clone())),
        Lock::Atomic | Lock::InElement(..) => b.contains(l),
        Lock::Element(..) => false,
        Lock::OnceRunning(v, p, f) => {
            b.contains(l) || b.contains(&Lock::OnceDone(*v, p.clone(), f.clone()))
        }
        Lock::OnceDone(v, p, f) => b.contains(&Lock::OnceRunning(*v, p.clone(), f.clone())),
        Lock::Fresh(_) | Lock::FreshParam(_) | Lock::Guarded(..) | Lock::Compare(..) => false,
    })
}
/// A must-lockset; none: unreachable.
pub type State = Option<Locks>;

/// What a call of a function does to its caller's locks.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The locks it may unlock (none: any).
    pub may_unlock: Option<Locks>,
    /// The locks it surely holds on return, having been called with none.
    pub must_acquire: Locks,
}

/// One access, for a reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccessNote {
    /// Byte offset in the parsed text.
    pub offset: usize,
    pub write: bool,
    pub function: String,
}

/// The verdict on one shared object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectProof {
    /// The object as the user names it (`x`, `f: buf`, memory reached through pointers).
    pub name: String,
    pub safe: bool,
    /// The rule that makes it safe (`main-alone`, `read-only`, `one-thread`, `barrier`,
    /// `lock`, `element-lock`, `atomic-section`, `atomic`, `disjoint`, `rwlock`, `per-pair`), or
    /// `unproved`.
    pub rule: &'static str,
    /// Why (a rule for a safe object, the conflict for an unsafe one).
    pub reason: String,
    /// For an unsafe object: the two accesses that may race.
    pub pair: Option<(AccessNote, AccessNote)>,
}

/// The analysis's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proof {
    /// Every pair of accesses of every shared object cannot race.
    pub proved: bool,
    /// Each shared object accessed by a thread, by name.
    pub objects: Vec<ObjectProof>,
    /// What the analysis did not understand, with where (byte offsets).
    pub give_ups: Vec<(String, usize)>,
    /// The safe objects the bounded program can name (file-scope variables, the C
    /// library's states), for a program not proved as a whole: the bounded check leaves
    /// them uninstrumented (`Options::proof_facts`). Empty when the analysis gave up.
    pub proved_objects: ladr_ir::program::Proved,
    /// Functions without a body whose every result the proof takes for a fresh object,
    /// as the bounded check does ([`blocks`]).
    pub assumed_fresh: Vec<String>,
}

impl Proof {
    fn gave_up(why: &str, offset: usize) -> Proof {
        Proof {
            give_ups: vec![(why.to_string(), offset)],
            ..Proof::default()
        }
    }
}

/// Proves the normalised `program` race-free, or says why not.
pub fn prove(program: &ladr_ir::program::Program) -> Proof {
    prove_unit(&program.unit)
}

/// [`prove`] of a program whose `simd` loops inside regions are plain loops of their
/// threads, their bodies at `simd` (spans: `ladr_c::frontend::ProofView`): the proof
/// checks their lanes too ([`lanes`]).
pub fn prove_folded(program: &ladr_ir::program::Program, simd: &[(usize, usize)]) -> Proof {
    prove_views(&program.unit, simd)
}

/// What the analysis learned of the functions.
struct Analysis<'a> {
    bodies: Vec<(String, &'a FunctionDefinition)>,
    runs: HashMap<String, FnRun>,
    reach: HashMap<String, BTreeSet<String>>,
    summaries: HashMap<String, Summary>,
}

/// [`prove`] of a translation unit in normal form.
pub fn prove_unit(unit: &TranslationUnit) -> Proof {
    prove_views(unit, &[])
}

/// [`prove_unit`], with the `simd` bodies of [`prove_folded`].
fn prove_views(unit: &TranslationUnit, simd: &[(usize, usize)]) -> Proof {
    let lowered = asm::as_c(unit);
    let unit = lowered.as_ref().unwrap_or(unit);
    let spliced = splice::splice_main(unit);
    let unit = spliced.as_ref().unwrap_or(unit);
    let proof = prove_main(unit, simd);
    if proof.proved {
        return proof;
    }
    // The blocks as arrays: a view of its own, as the heap's own rules (a block of one
    // element per thread, `slot`) read blocks, not arrays.
    let Some((arrays, assumed)) = blocks::blocks_as_arrays(unit) else {
        return proof;
    };
    match prove_main(&arrays, simd) {
        p if p.proved => Proof {
            assumed_fresh: assumed,
            ..p
        },
        // Neither view proves the program: when the first leaves memory reached through
        // pointers unproved and the arrays view does not (it names each block by its local
        // and tells its elements apart), the explanation is the arrays view's, which says
        // which block and which accesses; what the bounded check leaves uninstrumented
        // stays the first view's (`proved_objects`, of the program it checks).
        p => {
            let lumped = |p: &Proof| {
                p.objects
                    .iter()
                    .any(|o| !o.safe && o.name == objects::UNNAMED)
            };
            let closer = p.give_ups.is_empty() && lumped(&proof) && !lumped(&p);
            match closer {
                true => Proof {
                    objects: p.objects,
                    ..proof
                },
                false => proof,
            }
        }
    }
}

/// The functions each body calls, directly or not.
fn reach_of(
    bodies: &[(String, &FunctionDefinition)],
    runs: &HashMap<String, FnRun>,
) -> HashMap<String, BTreeSet<String>> {
    let callees = |f: &str| -> BTreeSet<String> {
        runs.get(f)
            .map(|r| r.calls.iter().map(|c| c.callee.clone()).collect())
            .unwrap_or_default()
    };
    let mut reach: HashMap<String, BTreeSet<String>> = HashMap::new();
    for (name, _) in bodies {
        let mut seen = BTreeSet::new();
        let mut todo = vec![name.clone()];
        while let Some(f) = todo.pop() {
            for c in callees(&f) {
                if seen.insert(c.clone()) {
                    todo.push(c);
                }
            }
        }
        reach.insert(name.clone(), seen);
    }
    reach
}

/// [`prove_unit`] once the functions `main` calls once are spliced ([`splice`]) (and, in
/// a second view, the blocks it allocates once are arrays: [`blocks`]).
fn prove_main(unit: &TranslationUnit, simd: &[(usize, usize)]) -> Proof {
    let mut decls = Decls::of(unit);
    decls.owned = owned::owned_globals(unit, &decls);
    let mut locals = HashMap::new();
    let Some(&main) = decls.bodies.get("main") else {
        return Proof::gave_up("the program has no `main`", 0);
    };
    let mut bodies: Vec<(String, &FunctionDefinition)> =
        decls.bodies.iter().map(|(k, v)| (k.clone(), *v)).collect();
    bodies.sort_by(|a, b| a.0.cmp(&b.0));
    // 1. Discovery.
    let (runs, mut global_run) = discover(unit, &bodies, &mut decls, &mut locals);
    decls.user_locks = userlock::user_locks(
        unit,
        &decls.bodies,
        decls.function_targets.as_ref().unwrap_or(&BTreeSet::new()),
        &decls.overlapping_fields,
    );
    let reach = reach_of(&bodies, &runs);
    let mut a = Analysis {
        bodies,
        runs,
        reach,
        summaries: HashMap::new(),
    };
    a.name_pointer_locks(&mut decls, main, &locals);
    a.summarise(&mut decls, &mut locals);
    // 2. Threads.
    let creators: HashSet<String> = a
        .runs
        .iter()
        .filter(|(_, r)| !r.creates.is_empty())
        .map(|(f, _)| f.clone())
        .collect();
    let Some(sites) = a.create_sites() else {
        return Proof::gave_up("`main` is started as a thread", 0);
    };
    // `main` may run again, or a join may not wait (of a detached thread): no phases.
    let main_called =
        a.reach.values().any(|r| r.contains("main")) || a.runs.values().any(|r| r.detaches);
    let Statement::Compound(main_items) = &main.statement.node else {
        return Proof::gave_up("`main` has no body", 0);
    };
    let may_create: HashSet<String> = a
        .bodies
        .iter()
        .filter(|(f, _)| creators.contains(f) || a.reach[f].iter().any(|g| creators.contains(g)))
        .map(|(f, _)| f.clone())
        .collect();
    let main_written = threads::main_written_globals(unit);
    let facts = threads::main_facts(
        main_items,
        &may_create,
        main_called,
        (&sites, &main_written),
    );
    disjoint::thread_keys(&mut decls, &facts, &a.reach, (main_items, &locals));
    let team = worksharing::prepare(&mut decls, unit, (main_items, &may_create), &facts);
    let shared = (&decls.bodies, &decls.globals, decls.vars.as_slice());
    decls.chunk_ids = chunks::chunk_indices(unit, shared, main_items, &mut decls.iterations);
    if !simd.is_empty() {
        match lanes::check(unit, simd, &decls.in_bounds) {
            Ok(l) => decls.lanes = l,
            Err((why, at)) => return Proof::gave_up(&why, at),
        }
    }
    let roots: BTreeSet<String> = sites.keys().cloned().chain(["main".into()]).collect();
    // 4. Entry locksets and solo-ness.
    let (entries, solo) = match a.entries(&mut decls, &mut locals, &roots, &facts, &may_create) {
        Ok(x) => x,
        Err(why) => return Proof::gave_up(why, 0),
    };
    // 5. The accesses.
    let mut give_ups = std::mem::take(&mut global_run.give_ups);
    let mut address_taken = std::mem::take(&mut global_run.address_taken);
    let mut accesses: Vec<(RawAccess, String)> = vec![];
    let mut reinitialised: Option<Locks> = Some(Locks::new());
    let mut user = UserLockFacts::default();
    let mut barrier_events: Vec<(barrier::Event, String)> = vec![];
    for (name, f) in &a.bodies {
        let Some(Some(entry)) = entries.get(name) else {
            continue;
        };
        let mut run = a.walk(
            &mut decls,
            &mut locals,
            name,
            f,
            entry.clone(),
            &facts,
            solo.get(name).copied().unwrap_or(false) && !may_create.contains(name),
        );
        user.add(&mut run);
        barrier_events.extend(run.barriers.drain(..).map(|e| (e, name.clone())));
        give_ups.extend(run.give_ups);
        match (&mut reinitialised, run.reinitialised) {
            (Some(all), Some(mine)) => all.extend(mine),
            (r, _) => *r = None,
        }
        address_taken.extend(run.address_taken);
        let lock_function = decls.user_locks.contains_key(name);
        accesses.extend(run.accesses.into_iter().map(|mut x| {
            // The lock's own accesses: protected by no lock but the atomic section, so
            // that every other write of the lock may race with them.
            if lock_function {
                x.locks.retain(|l| *l == Lock::Atomic);
            }
            (x, name.clone())
        }));
    }
    if let Some(bad) = &mut reinitialised {
        bad.extend(user.loose());
    }
    let memory = objects::Memory::of(&mut decls, &address_taken);
    give_ups.extend(lockptr::check(&decls, &memory.points_to));
    if !give_ups.is_empty() {
        give_ups.sort_by_key(|g| g.1);
        give_ups.dedup();
        return Proof {
            give_ups,
            ..Proof::default()
        };
    }
    // A mutex initialised while threads may run protects nothing.
    for (a, _) in &mut accesses {
        match &reinitialised {
            Some(bad) => a.locks.retain(|l| !bad.iter().any(|b| b.may_alias(l))),
            None => a.locks.retain(|l| *l == Lock::Atomic),
        }
    }
    once::drop_written_controls(&mut accesses, &address_taken);
    // 6.–7. Objects and pairs.
    let roots_of = worksharing::thread_zero(&team, &a.runs, roots_of(&roots, &a.reach));
    let threads_of = |f: &str| -> BTreeSet<String> { roots_of.get(f).cloned().unwrap_or_default() };
    let written = written_variables(&accesses, &memory);
    let phases = a.barrier_phases(&decls, &facts, main_called, &barrier_events, &written);
    let (objects, proved_objects) =
        objects::judge(&decls, &accesses, &memory, &threads_of, (&facts, &phases));
    Proof {
        proved: objects.iter().all(|o| o.safe),
        objects,
        proved_objects,
        ..Proof::default()
    }
}

/// The variables a write may touch: by name, or through a pointer that may point to them
/// (one the points-to does not follow: to every variable whose address is taken).
fn written_variables(accesses: &[(RawAccess, String)], memory: &objects::Memory) -> HashSet<VarId> {
    let pt = &memory.points_to;
    let mut out = HashSet::new();
    for (x, _) in accesses.iter().filter(|(x, _)| x.write) {
        match x.target {
            scan::Target::Var(v) => {
                out.insert(v);
            }
            scan::Target::Deref(node) => match pt.targets(node) {
                Some(set) => {
                    out.extend(set.iter().filter_map(|o| match o {
                        heap::Obj::Var(v) => Some(*v),
                        _ => None,
                    }));
                    // Taken where the points-to did not see it: any pointer may reach it.
                    let unseen = memory.address_taken.iter();
                    out.extend(unseen.filter(|v| !pt.addressed.contains(v)));
                }
                None => out.extend(memory.address_taken.iter().copied()),
            },
            _ => {}
        }
    }
    out
}

/// What the walks found of the locks of the program's own lock functions ([`userlock`]).
struct UserLockFacts {
    acquired: Locks,
    /// None: a release of a lock the proof cannot name by a thread that may not hold it.
    released_unheld: Option<Locks>,
    held_at_create: Locks,
}

impl Default for UserLockFacts {
    fn default() -> Self {
        UserLockFacts {
            acquired: Locks::new(),
            released_unheld: Some(Locks::new()),
            held_at_create: Locks::new(),
        }
    }
}

impl UserLockFacts {
    fn add(&mut self, run: &mut FnRun) {
        self.acquired.extend(std::mem::take(&mut run.user_acquired));
        self.held_at_create
            .extend(std::mem::take(&mut run.held_at_create));
        match (&mut self.released_unheld, run.user_loose.take()) {
            (Some(all), Some(mine)) => all.extend(mine),
            (r, _) => *r = None,
        }
    }

    /// The user locks that are no locks: released by a thread that may not hold them, or
    /// held while a thread is created (what its creator wrote while alone is unknown).
    fn loose(self) -> Locks {
        let mut bad = self
            .released_unheld
            .unwrap_or_else(|| self.acquired.clone());
        bad.extend(self.held_at_create.intersection(&self.acquired).cloned());
        bad
    }
}

/// The roots each function runs in, inverted once from what each root reaches (asking
/// every root per access made the judging quadratic in the number of start routines).
fn roots_of<'r>(
    roots: &'r BTreeSet<String>,
    reach: &'r HashMap<String, BTreeSet<String>>,
) -> HashMap<&'r str, BTreeSet<String>> {
    let mut out: HashMap<&str, BTreeSet<String>> = HashMap::new();
    for r in roots {
        let reached = reach.get(r.as_str()).into_iter().flatten();
        for f in std::iter::once(r.as_str()).chain(reached.map(|f| f.as_str())) {
            out.entry(f).or_default().insert(r.clone());
        }
    }
    out
}

/// Walks every function and the globals' initialisers, twice: the first walk finds the
/// functions whose address is taken, the calls through pointers of the second call them;
/// then the element pointers are known ([`element`]).
fn discover<'a>(
    unit: &'a TranslationUnit,
    bodies: &[(String, &'a FunctionDefinition)],
    decls: &mut Decls<'a>,
    locals: &mut HashMap<usize, VarId>,
) -> (HashMap<String, FnRun>, FnRun) {
    let none = HashMap::new();
    let mut runs = HashMap::new();
    let mut global_run = FnRun::default();
    for round in 0..2 {
        runs.clear();
        for (name, f) in bodies {
            let mut s = Scan::new(decls, locals, &none);
            s.function(f, Locks::new(), None, true);
            runs.insert(name.clone(), s.run);
        }
        global_run = {
            let mut s = Scan::new(decls, locals, &none);
            s.global_initializers(unit);
            s.run
        };
        if round == 0 {
            let mut targets: BTreeSet<String> = global_run.function_addresses.clone();
            for r in runs.values() {
                targets.extend(r.function_addresses.iter().cloned());
            }
            decls.function_targets = Some(targets);
        }
    }
    // Every declaration has its variable: the array aliases.
    decls.array_aliases = alias::array_aliases(unit, &decls.globals, locals);
    // Every write and every address taken is seen: the element pointers.
    decls.escaped = runs
        .values()
        .chain([&global_run])
        .flat_map(|r| r.address_taken.iter().copied())
        .collect();
    decls.addresses_known = true;
    let routines: HashSet<&str> = runs
        .values()
        .flat_map(|r| r.creates.iter().map(|c| c.routine.as_str()))
        .collect();
    decls.element_pointers = element::element_pointers(decls, &routines);
    (runs, global_run)
}

mod objects;

impl<'a> Analysis<'a> {
    /// How many creates name each start routine; none when one names `main`, which then
    /// runs beside itself (no phases, no single instances).
    fn create_sites(&self) -> Option<HashMap<String, usize>> {
        let mut sites: HashMap<String, usize> = HashMap::new();
        for r in self.runs.values() {
            for c in &r.creates {
                *sites.entry(c.routine.clone()).or_default() += 1;
            }
        }
        (!sites.contains_key("main")).then_some(sites)
    }

    /// The barrier phases ([`barrier`]) of the events the final walks recorded.
    fn barrier_phases(
        &self,
        decls: &Decls<'a>,
        facts: &threads::MainFacts,
        main_called: bool,
        events: &[(barrier::Event, String)],
        written: &HashSet<VarId>,
    ) -> barrier::Phases {
        barrier::phases(&barrier::Program {
            bodies: &decls.bodies,
            facts,
            reach: &self.reach,
            main_called,
            events,
            written,
        })
    }

    /// Lock summaries, callees first; recursive functions pessimistic.
    fn summarise(&mut self, decls: &mut Decls<'a>, locals: &mut HashMap<usize, VarId>) {
        let mut done: HashSet<String> = HashSet::new();
        let names: Vec<String> = self.bodies.iter().map(|b| b.0.clone()).collect();
        let bodies: HashMap<String, &'a FunctionDefinition> = self.bodies.iter().cloned().collect();
        for name in &names {
            let mut stack = vec![(name.clone(), false)];
            while let Some((f, expanded)) = stack.pop() {
                if done.contains(&f) {
                    continue;
                }
                let recursive = self.reach.get(&f).is_some_and(|r| r.contains(&f));
                if !expanded && !recursive {
                    stack.push((f.clone(), true));
                    for c in self.runs[&f].calls.iter().map(|c| c.callee.clone()) {
                        if !done.contains(&c) && bodies.contains_key(&c) {
                            stack.push((c, false));
                        }
                    }
                    continue;
                }
                done.insert(f.clone());
                let summary = if recursive {
                    Summary {
                        may_unlock: None,
                        must_acquire: Locks::new(),
                    }
                } else {
                    let mut s = Scan::new(decls, locals, &self.summaries);
                    s.function(bodies[&f], Locks::new(), None, false);
                    Summary {
                        may_unlock: s.run.unlocks.clone(),
                        must_acquire: element::without_keyed(
                            s.run.exit.clone().unwrap_or_default(),
                        ),
                    }
                };
                self.summaries.insert(f, summary);
            }
        }
    }

    /// One walk of `name` from `entry`, recording.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        decls: &mut Decls<'a>,
        locals: &mut HashMap<usize, VarId>,
        name: &str,
        f: &'a FunctionDefinition,
        mut entry: Locks,
        facts: &threads::MainFacts,
        solo: bool,
    ) -> FnRun {
        if name.starts_with(ladr_ir::abi::ATOMIC_PREFIX) {
            entry.insert(Lock::Atomic);
        }
        let mut s = Scan::new(decls, locals, &self.summaries);
        s.solo = solo;
        let top = (name == "main").then_some(facts.solo.as_slice());
        if top.is_some() {
            s.nested_solo = facts.nested_solo.clone();
        }
        s.function(f, entry, top, true);
        s.run
    }

    /// The entry lockset and solo-ness of every function reached from a root: the meet
    /// over its call sites, to a fixpoint.
    #[allow(clippy::type_complexity)]
    fn entries(
        &self,
        decls: &mut Decls<'a>,
        locals: &mut HashMap<usize, VarId>,
        roots: &BTreeSet<String>,
        facts: &threads::MainFacts,
        may_create: &HashSet<String>,
    ) -> Result<(HashMap<String, State>, HashMap<String, bool>), &'static str> {
        let mut entries: HashMap<String, State> = HashMap::new();
        let mut solo: HashMap<String, bool> = HashMap::new();
        let mut solo_reached: HashSet<String> = HashSet::new();
        // The entries of functions reached only by solo calls so far.
        let mut placeholders: HashSet<String> = HashSet::new();
        for r in roots {
            entries.insert(r.clone(), Some(Locks::new()));
            solo.insert(r.clone(), r == "main");
        }
        for _ in 0..200 {
            let mut changed = false;
            for (name, f) in &self.bodies {
                let Some(Some(entry)) = entries.get(name).cloned() else {
                    continue;
                };
                let alone = solo.get(name).copied().unwrap_or(false) && !may_create.contains(name);
                let run = self.walk(decls, locals, name, f, entry, facts, alone);
                for c in run.calls {
                    // A call made while `main` runs alone races with nothing: its locks do
                    // not weaken the callee's entry (but it reaches the callee).
                    let mut old = entries.get(&c.callee).cloned().flatten();
                    if !c.solo && placeholders.remove(&c.callee) {
                        old = None;
                    }
                    let new = if c.solo {
                        solo_reached.insert(c.callee.clone());
                        old.clone()
                    } else {
                        meet(&old, &Some(c.locks))
                    };
                    if new != old {
                        entries.insert(c.callee.clone(), new);
                        changed = true;
                    }
                    let was = solo.get(&c.callee).copied();
                    let now = was.unwrap_or(true) && c.solo;
                    if was != Some(now) {
                        solo.insert(c.callee.clone(), now);
                        changed = true;
                    }
                }
            }
            // Reached only by solo calls: walked from no lock, alone.
            for f in &solo_reached {
                if entries.get(f).cloned().flatten().is_none() {
                    placeholders.insert(f.clone());
                    entries.insert(f.clone(), Some(Locks::new()));
                    changed = true;
                }
            }
            if !changed {
                return Ok((entries, solo));
            }
        }
        Err("the entry locksets reach no fixpoint")
    }
}

impl<'a> Scan<'_, 'a> {
    /// The initialisers of globals: where they take addresses (no access: they run before
    /// `main`).
    pub fn global_initializers(&mut self, unit: &'a TranslationUnit) {
        self.record = true;
        self.state = None;
        for ext in &unit.0 {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                for init in &d.node.declarators {
                    if let Some(i) = &init.node.initializer {
                        self.initializer(&i.node);
                        let name =
                            ladr_c::syntax::build::declarator_name(&init.node.declarator.node);
                        if let Some(&g) = name.and_then(|n| self.decls.globals.get(n)) {
                            self.heap_init(g, &i.node);
                        }
                    }
                }
            }
        }
    }
}
