//! The shared objects and the verdict on each (rule 7 of [`super`]): which accesses touch
//! which object (an access through a pointer touches every object whose address is taken
//! and all memory no variable names), and whether any two of them may race.

use super::decls::{Decls, VarId};
use super::heap::{Obj, PointsTo};
use super::scan::{RawAccess, Target};
use super::threads::MainFacts;
use super::{AccessNote, Lock, Locks, ObjectProof, Path, Step};
use ladr_ir::program::Proved;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// An object of the proof.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Object {
    Var(VarId),
    /// Heap blocks, the library's memory, literals: what only pointers reach.
    Unnamed,
    Libc(&'static str),
    /// The blocks a global that owns them has pointed to.
    Owned(VarId),
    /// The block a local of `main` holds, one element per thread ([`super::slot`]).
    Slot(VarId),
    /// The blocks of one allocation site ([`super::heap`]).
    Site(usize),
}

/// What accesses through pointers may touch.
pub struct Memory<'m> {
    /// Every variable whose address is taken.
    pub address_taken: &'m HashSet<VarId>,
    pub points_to: PointsTo,
}

impl<'m> Memory<'m> {
    /// Solves the points-to the walks generated ([`super::heap::points_to`]).
    pub fn of(decls: &mut Decls, address_taken: &'m HashSet<VarId>) -> Self {
        Memory {
            address_taken,
            points_to: super::heap::points_to(decls, address_taken),
        }
    }
}

/// An access as the pairs see it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Use {
    write: bool,
    atomic: bool,
    locks: Locks,
    threads: BTreeSet<String>,
    /// A named access of a per-call or per-thread object (its own call's, its own
    /// thread's).
    own: bool,
    function: String,
    offset: usize,
    /// The part of the variable accessed (empty: all of it).
    path: Path,
    /// Its phase of each barrier whose participant made it ([`super::barrier`]).
    phases: Vec<(VarId, usize)>,
    /// Its place among the OpenMP team barriers and `single` blocks
    /// ([`super::team_barrier`]).
    team_place: super::team_barrier::Place,
}

/// May the parts `a` and `b` of one variable overlap? Not when, at the first step where
/// they differ, they name two members that share no memory or two constant indices; nor
/// at an index that is each instance's own ([`Step::Own`]) when one routine made both
/// (`same_routine`: two of its instances, or one in program order).
///
/// Past an index that may be equal in both, the next steps still index arrays of one
/// type: two threads' iteration indices there ([`Step::Iter`], the same loop and the same
/// offset) still tell the elements apart. Paths whose later row indices may leave their
/// rows were cut before their run of indices ([`super::bounds`]).
///
/// Two indices of one value every thread read alike ([`Step::Inv`], of a variable in
/// `stable`) are equal at equal offsets and different at different ones.
fn may_overlap(
    a: &[Step],
    b: &[Step],
    (decls, stable): (&Decls, &HashSet<VarId>),
    same_routine: bool,
) -> bool {
    let index = |s: &Step| {
        matches!(
            s,
            Step::Index(_)
                | Step::Own
                | Step::Fresh
                | Step::Iter(..)
                | Step::Inv(..)
                | Step::Table(..)
                | Step::Window(..)
        )
    };
    // Elements of one array of one element type, at a start every thread read alike: on
    // to the indices. Any other base, or a base against another path: maybe.
    match (a.first(), b.first()) {
        (Some(Step::Base(g, s)), Some(Step::Base(h, t)))
            if g == h && s == t && stable.contains(g) =>
        {
            return may_overlap(&a[1..], &b[1..], (decls, stable), same_routine);
        }
        // Two starts `k` and `k'` elements into one array ([`super::origin`]): the
        // elements counted from its start.
        (Some(Step::Base(g, s)), Some(Step::Base(h, t)))
            if s == t && stable.contains(g) && stable.contains(h) =>
        {
            let origins = &decls.base_origins;
            if let (Some((r, k, u)), Some((q, l, _))) = (origins.get(g), origins.get(h)) {
                // One origin, offsets in elements of the type the accesses index.
                if r == q && u == s {
                    let from_start = |p: &[Step], k: i64| -> Vec<Step> {
                        let mut p = p[1..].to_vec();
                        if let Some(first) = p.first_mut() {
                            *first = super::origin::shifted(first, k);
                        }
                        p
                    };
                    let (a, b) = (from_start(a, *k), from_start(b, *l));
                    return may_overlap(&a, &b, (decls, stable), same_routine);
                }
            }
            return true;
        }
        (Some(Step::Base(..)), _) | (_, Some(Step::Base(..))) => return true,
        _ => {}
    }
    let mut equal_so_far = true;
    for (x, y) in a.iter().zip(b) {
        if !equal_so_far {
            match (x, y) {
                _ if super::affine::iterations_apart(x, y, stable) => return false,
                _ if super::window::windows_apart(x, y) => return false,
                _ if super::table::tables_apart(x, y, &decls.tables) => return false,
                _ if index(x) && index(y) => continue,
                _ => return true,
            }
        }
        match (x, y) {
            (Step::Inv(g, c), Step::Inv(h, d)) if g == h && stable.contains(g) => {
                if c != d {
                    return false;
                }
            }
            (Step::Own, Step::Own) if same_routine => return false,
            (Step::Own, Step::Fresh) | (Step::Fresh, Step::Own) => return false,
            // Two threads at once run different iterations ([`super::worksharing`]).
            _ if super::affine::iterations_apart(x, y, stable) => return false,
            _ if super::window::windows_apart(x, y) => return false,
            _ if super::table::tables_apart(x, y, &decls.tables) => return false,
            (Step::Field(f), Step::Field(g)) if f != g => {
                let shared = &decls.overlapping_fields;
                return shared.contains(f) || shared.contains(g);
            }
            (Step::Index(Some(i)), Step::Index(Some(j))) if i != j => return false,
            (Step::Field(f), Step::Field(g)) if f == g => {}
            (Step::Index(Some(i)), Step::Index(Some(j))) if i == j => {}
            // Two indices that may be equal: maybe, unless a later step tells them apart.
            _ if index(x) && index(y) => equal_so_far = false,
            // A member against an index (a cast path): maybe.
            _ => return true,
        }
    }
    // One is a prefix of the other.
    true
}

/// Do `a` and `b` first differ at two offsets of one value every thread read alike, with
/// no later iteration index of one loop that tells them apart as well?
fn invariant_apart(a: &Path, b: &Path) -> bool {
    let Some(k) = a.iter().zip(b).position(|(x, y)| x != y) else {
        return false;
    };
    let later_iteration = a[k..]
        .iter()
        .zip(&b[k..])
        .any(|(x, y)| x == y && matches!(x, Step::Iter(..) | Step::Window(..)));
    matches!((&a[k], &b[k]), (Step::Inv(g, _), Step::Inv(h, _)) if g == h) && !later_iteration
}

/// The name of the memory reached through pointers the points-to does not tell apart.
pub const UNNAMED: &str = "memory reached through pointers (heap blocks, the C library's)";

/// Judges every shared object; and the safe ones the bounded program names alike.
pub fn judge(
    decls: &Decls,
    accesses: &[(RawAccess, String)],
    memory: &Memory,
    threads_of: &dyn Fn(&str) -> BTreeSet<String>,
    (facts, phases): (&MainFacts, &super::barrier::Phases),
) -> (Vec<ObjectProof>, Proved) {
    let address_taken = memory.address_taken;
    let pt = &memory.points_to;
    let mut uses: BTreeMap<Object, BTreeSet<Use>> = BTreeMap::new();
    // Accesses through a pointer the points-to does not follow, through one it does.
    let mut derefs: BTreeSet<Use> = BTreeSet::new();
    let mut known: BTreeSet<Use> = BTreeSet::new();
    let mut solo_derefs = false;
    let site_types = site_types(accesses, pt);
    let shifted = shifted(decls, pt, &site_types);
    // Is `o` surely of type `t` at its start whenever a pointer declared `t *` reaches
    // it, and no pointer may point into it off its start?
    let typed = |o: &Obj, t: &str| of_type(decls, &site_types, o, t) && !shifted.contains(o);
    for (a, function) in accesses {
        let mut u = Use {
            write: a.write,
            atomic: a.atomic,
            locks: a.locks.clone(),
            threads: threads_of(function),
            own: false,
            function: function.clone(),
            offset: a.offset,
            path: a.path.clone(),
            phases: phases.of(function, a.item),
            team_place: a.team_place,
        };
        let object = match a.target {
            Target::Var(v) => {
                let var = &decls.vars[v];
                // A local named in another function (an array alias, `super::alias`) is
                // the object of the call that declared it, not of the accessing thread.
                let own_function = var.function.as_deref() == Some(function.as_str());
                let private = var.thread_local || var.automatic && own_function;
                if private && !address_taken.contains(&v) {
                    continue;
                }
                u.own = private;
                Object::Var(v)
            }
            // A block no other thread can reach yet: no race.
            Target::Deref(_) if a.fresh => continue,
            Target::Deref(node) => {
                // The whole object, unless the target is surely of the pointee's type.
                u.path = Path::new();
                let Some(targets) = pt.targets(node) else {
                    solo_derefs |= a.solo;
                    if !a.solo {
                        derefs.insert(u);
                    }
                    continue;
                };
                for o in targets {
                    let mut u = u.clone();
                    if let Some(t) = &a.pointee {
                        if typed(o, t) {
                            u.path = a.path.clone();
                        }
                    }
                    // An element of an array at a base every thread read alike: kept for
                    // every object (another path never tells it apart, `may_overlap`).
                    if matches!(a.path.first(), Some(Step::Base(..))) {
                        u.path = a.path.clone();
                    }
                    let object = match *o {
                        Obj::Var(v) => Object::Var(v),
                        Obj::Site(s) => {
                            // Each block of a private site is its allocating thread's.
                            u.own = pt.private.contains(&s);
                            Object::Site(s)
                        }
                        Obj::Unnamed | Obj::Unknown => Object::Unnamed,
                    };
                    let entry = uses.entry(object).or_default();
                    if !a.solo {
                        entry.insert(u);
                    }
                }
                if !a.solo {
                    known.insert(u);
                }
                continue;
            }
            Target::Libc(g) => Object::Libc(g),
            Target::Owned(v) => Object::Owned(v),
            Target::Slot(v) => Object::Slot(v),
        };
        // An object accessed only while `main` runs alone is listed, with no use.
        let entry = uses.entry(object).or_default();
        if !a.solo {
            entry.insert(u);
        }
    }
    // A variable whose address the walks saw taken where the points-to did not: every
    // access through a pointer may touch it.
    for &v in address_taken {
        if !pt.addressed.contains(&v) && !known.is_empty() {
            uses.entry(Object::Var(v))
                .or_default()
                .extend(known.iter().cloned());
        }
    }
    if !derefs.is_empty() || solo_derefs {
        for &v in address_taken {
            uses.entry(Object::Var(v))
                .or_default()
                .extend(derefs.iter().cloned());
        }
        // An unknown pointer reaches no private site: its blocks' addresses never left
        // what the points-to follows.
        for &s in pt.sites.keys() {
            if !pt.private.contains(&s) {
                uses.entry(Object::Site(s))
                    .or_default()
                    .extend(derefs.iter().cloned());
            }
        }
        uses.entry(Object::Unnamed).or_default().extend(derefs);
    }
    // The variables written only while no other thread may run, their address never
    // taken: every thread alive at once read one value of them (`Step::Inv`).
    let stable: HashSet<VarId> = decls
        .globals
        .values()
        .copied()
        .filter(|g| !address_taken.contains(g))
        .filter(|g| {
            uses.iter()
                .filter(|(o, _)| matches!(o, Object::Var(v) if v == g))
                .all(|(_, us)| us.iter().all(|u| !u.write))
        })
        .collect();
    let mut proved = Proved::default();
    let mut out: Vec<ObjectProof> = vec![];
    for (o, us) in uses {
        let v = verdict((decls, &stable), &pt.sites, &o, &us, facts);
        if v.safe {
            note_proved(decls, &o, &us, &mut proved);
        }
        out.push(v);
    }
    out.sort_by(|a, b| (a.safe, &a.name).cmp(&(b.safe, &b.name)));
    (out, proved)
}

/// Is `o` of type `t` (at its start): a variable declared as `t` alone, or a site all of
/// whose accesses through members name `t`?
fn of_type(decls: &Decls, site_types: &BTreeMap<usize, Option<String>>, o: &Obj, t: &str) -> bool {
    match o {
        Obj::Var(v) => decls.vars[*v].plain.as_deref() == Some(t),
        Obj::Site(s) => site_types.get(s).is_some_and(|x| x.as_deref() == Some(t)),
        Obj::Unnamed | Obj::Unknown => false,
    }
}

/// The objects a pointer may point into off their start: those of inner values, and
/// those an arithmetic member moved may point to when the member may lie in an object
/// not surely of its type or shifted itself ([`PointsTo::member_shifts`]): to a fixpoint.
fn shifted(
    decls: &Decls,
    pt: &PointsTo,
    site_types: &BTreeMap<usize, Option<String>>,
) -> HashSet<Obj> {
    let mut out = pt.inner_objects.clone();
    loop {
        let before = out.len();
        for (objects, values, t) in &pt.member_shifts {
            let sure = objects
                .iter()
                .all(|o| of_type(decls, site_types, o, t) && !out.contains(o));
            if !sure {
                out.extend(values.iter().copied());
            }
        }
        if out.len() == before {
            return out;
        }
    }
}

/// The type each site is accessed at through members (none: two types), by every access
/// through a pointer declared as a pointer to one tag or typedef name with a part
/// ([`RawAccess::pointee`]), solo and fresh ones too.
fn site_types(accesses: &[(RawAccess, String)], pt: &PointsTo) -> BTreeMap<usize, Option<String>> {
    let mut out: BTreeMap<usize, Option<String>> = BTreeMap::new();
    for (a, _) in accesses {
        let (Target::Deref(node), Some(t)) = (a.target, &a.pointee) else {
            continue;
        };
        for o in pt.targets(node).into_iter().flatten() {
            if let Obj::Site(s) = o {
                let entry = out.entry(*s).or_insert_with(|| Some(t.clone()));
                if entry.as_ref() != Some(t) {
                    *entry = None;
                }
            }
        }
    }
    out
}

/// Records safe object `o` (with its uses `us`) for the bounded check, when the bounded
/// program names it as the proof does: a file-scope variable by its name, the C library's
/// state by `abi::libc_state`. Locals are copied and renamed by `inline` and `threads`,
/// heap blocks have no name: they stay instrumented. An object with an atomic access (or
/// `_Atomic` as a whole) is recorded as one to keep visible: atomic accesses of it need
/// not commute with other threads' (two atomic writes, or a release).
fn note_proved(decls: &Decls, o: &Object, us: &BTreeSet<Use>, proved: &mut Proved) {
    match o {
        Object::Var(v) => {
            let var = &decls.vars[*v];
            if var.function.is_some() || var.automatic || var.thread_local {
                return;
            }
            if var.atomic || us.iter().any(|u| u.atomic) {
                proved.visible.insert(var.name.clone());
            } else {
                proved.plain.insert(var.name.clone());
            }
        }
        Object::Libc(group) => {
            proved.visible.insert(ladr_ir::abi::libc_state(group));
        }
        Object::Unnamed | Object::Owned(_) | Object::Slot(_) | Object::Site(_) => {}
    }
}

fn name_of(decls: &Decls, sites: &BTreeMap<usize, String>, o: &Object) -> String {
    match o {
        Object::Var(v) => {
            let var = &decls.vars[*v];
            let name = ladr_c::syntax::names::original_name(&var.name);
            match &var.function {
                Some(f) => format!("{name} (local of {f})"),
                None => name.to_string(),
            }
        }
        Object::Unnamed => UNNAMED.into(),
        Object::Site(at) => format!(
            "heap blocks allocated in `{}` (the call at byte {at})",
            sites.get(at).map_or("?", |f| f.as_str())
        ),
        Object::Libc(g) => format!("the C library's state of `{g}`"),
        Object::Slot(v) => format!(
            "{}[…] (the block this local of main holds, one element per thread)",
            ladr_c::syntax::names::original_name(&decls.vars[*v].name)
        ),
        Object::Owned(v) => format!(
            "{}[…] (heap blocks only it points to)",
            ladr_c::syntax::names::original_name(&decls.vars[*v].name)
        ),
    }
}

/// May two thread instances, one running `a`'s roots and one `b`'s, run together?
fn parallel(a: &BTreeSet<String>, b: &BTreeSet<String>, facts: &MainFacts) -> bool {
    let routine = |r: &str| facts.routines.get(r);
    for x in a {
        for y in b {
            if x == y {
                // Two instances of one root: only if it is created many times.
                if x != "main" && routine(x).is_none_or(|r| r.many) {
                    return true;
                }
            } else if x == "main" || y == "main" {
                return true;
            } else {
                match (routine(x), routine(y)) {
                    (Some(p), Some(q)) if p.phases.is_disjoint(&q.phases) => {}
                    _ => return true,
                }
            }
        }
    }
    false
}

fn note(u: &Use) -> AccessNote {
    AccessNote {
        offset: u.offset,
        write: u.write,
        function: u.function.clone(),
    }
}

/// What kept an object's pairs apart.
#[derive(Default)]
struct Seen {
    /// A pair that may run in parallel, left to atomicity and locks.
    parallel: bool,
    disjoint: bool,
    /// … at a thread's own index.
    own: bool,
    /// … at a worksharing loop's iteration index.
    iteration: bool,
    /// … at an index of a chunk claimed under a lock.
    chunk: bool,
    /// … at an index of a value every thread read alike.
    invariant: bool,
    barrier: bool,
    team_barrier: bool,
}

/// The rule that kept every pair that may run together apart, when none was left to
/// atomicity and locks.
fn apart(seen: &Seen) -> Option<(&'static str, &'static str)> {
    Some(if seen.parallel {
        return None;
    } else if seen.own {
        (
            "disjoint-index",
            "threads created in one loop, each given its own counter value, touch only the element of their own index (or different members or constant indices)",
        )
    } else if seen.invariant {
        (
            "invariant-index",
            "accesses that may run in parallel are at different offsets from one value every thread read alike (a variable written only while no other thread runs), or of different iterations of one worksharing loop, or touch different members or constant indices",
        )
    } else if seen.chunk && !seen.iteration {
        (
            "chunks",
            "accesses that may run in parallel are at one index of a chunk each thread claimed from one counter under one lock, chunks that never overlap (or touch different members or constant indices)",
        )
    } else if seen.iteration || seen.chunk {
        (
            "worksharing",
            "accesses that may run in parallel are of one worksharing loop's iterations at indices α·i + β of its loop variable (or in tiles [α·i + l, α·i + h] of it) that no two iterations share, and two threads never run one iteration at once (or touch different members or constant indices)",
        )
    } else if seen.disjoint {
        (
            "disjoint",
            "accesses that may run in parallel touch different members or constant indices",
        )
    } else if seen.barrier {
        (
            "barrier",
            "accesses of threads that may run together lie in different phases of a barrier all of whose participants the proof counts",
        )
    } else if seen.team_barrier {
        (
            "team-barrier",
            "accesses of one OpenMP team's threads that may run together lie in different phases of its barriers, or in one `single` block, which one thread of the team runs",
        )
    } else {
        (
            "one-thread",
            "no two thread instances that may run together access it",
        )
    })
}

fn verdict(
    (decls, stable): (&Decls, &HashSet<VarId>),
    sites: &BTreeMap<usize, String>,
    o: &Object,
    us: &BTreeSet<Use>,
    facts: &MainFacts,
) -> ObjectProof {
    let name = name_of(decls, sites, o);
    let list: Vec<&Use> = us.iter().collect();
    let mut seen = Seen::default();
    for (i, a) in list.iter().enumerate() {
        for b in &list[i..] {
            // Two iterations of one `simd` loop of one thread ([`super::lanes`]).
            let lanes = (a.write || b.write)
                && a.function == b.function
                && decls.lanes.conflict(a.offset, b.offset);
            if lanes {
                return ObjectProof {
                    name,
                    safe: false,
                    rule: "unproved",
                    reason: format!(
                        "a {} and a {} in two iterations of one `simd` loop in `{}` may touch one element",
                        kind(a.write),
                        kind(b.write),
                        a.function
                    ),
                    pair: Some((note(a), note(b))),
                };
            }
            if !(a.write || b.write) || (a.own && b.own) || !parallel(&a.threads, &b.threads, facts)
            {
                continue;
            }
            if super::barrier::ordered(&a.phases, &b.phases) {
                seen.barrier = true;
                continue;
            }
            // One team routine's accesses in two phases of its team's barriers, or in one
            // `single` block.
            if a.function == b.function && super::team_barrier::ordered(a.team_place, b.team_place)
            {
                seen.team_barrier = true;
                continue;
            }
            if !may_overlap(&a.path, &b.path, (decls, stable), a.function == b.function) {
                seen.disjoint = true;
                seen.invariant |= invariant_apart(&a.path, &b.path);
                seen.own |= a.path.contains(&Step::Own);
                for s in &a.path {
                    if let Step::Iter(id, ..) | Step::Window(id, ..) = s {
                        let chunk = decls.chunk_ids.contains(id);
                        seen.chunk |= chunk;
                        seen.iteration |= !chunk;
                    }
                }
                continue;
            }
            seen.parallel = true;
            if (a.atomic && b.atomic) || super::exclusive(&a.locks, &b.locks) {
                continue;
            }
            return ObjectProof {
                name,
                safe: false,
                rule: "unproved",
                reason: format!(
                    "a {} in `{}` and a {} in `{}` may run in parallel, not both atomic and with no common lock",
                    kind(a.write),
                    a.function,
                    kind(b.write),
                    b.function
                ),
                pair: Some((note(a), note(b))),
            };
        }
    }
    let (rule, reason) = if list.is_empty() {
        (
            "main-alone",
            "accessed only while `main` runs alone".to_string(),
        )
    } else if list.iter().all(|u| !u.write) {
        (
            "read-only",
            "only read while other threads may run".to_string(),
        )
    } else if let Some((rule, reason)) = apart(&seen) {
        (rule, reason.to_string())
    } else if let Some(l) = common_lock(&list) {
        match l {
            Lock::Mutex(m, path) | Lock::Shared(m, path) => (
                "lock",
                format!(
                    "every access while threads run holds `{}{}`",
                    ladr_c::syntax::names::original_name(&decls.vars[m].name),
                    path_text(&path)
                ),
            ),
            Lock::Atomic => (
                "atomic-section",
                "every access while threads run is in an atomic section".into(),
            ),
            Lock::InElement(a, path) | Lock::Element(a, _, path) => (
                "element-lock",
                format!(
                    "every access while threads run is to an element `{0}[…]` and holds that element's mutex `{0}[…]{1}`",
                    ladr_c::syntax::names::original_name(&decls.vars[a].name),
                    path_text(&path)
                ),
            ),
            Lock::Fresh(_) | Lock::FreshParam(_) | Lock::Guarded(..) | Lock::Compare(..) => {
                unreachable!("never recorded with an access")
            }
            Lock::OnceRunning(o, path, routine) | Lock::OnceDone(o, path, routine) => (
                "once",
                format!(
                    "every access while threads run is in `{routine}`, run at most once by `pthread_once(&{}{}, {routine})`",
                    ladr_c::syntax::names::original_name(&decls.vars[o].name),
                    path_text(&path)
                ),
            ),
        }
    } else if list.iter().all(|u| u.atomic) {
        ("atomic", "every access while threads run is atomic".into())
    } else if let Some((m, path)) = common_rwlock(&list) {
        (
            "rwlock",
            format!(
                "every access while threads run holds the rwlock `{}{}`, and every conflicting pair holds it written by one of them",
                ladr_c::syntax::names::original_name(&decls.vars[m].name),
                path_text(&path)
            ),
        )
    } else {
        (
            "per-pair",
            "every conflicting pair holds a common lock, is atomic or cannot run in parallel"
                .into(),
        )
    };
    ObjectProof {
        name,
        safe: true,
        rule,
        reason,
        pair: None,
    }
}

/// A lock every use holds exclusively (a read-locked rwlock excludes no other reader).
fn common_lock(list: &[&Use]) -> Option<Lock> {
    let mut common = list.first()?.locks.clone();
    for u in list {
        common.retain(|l| {
            u.locks.contains(l)
                && !matches!(
                    l,
                    Lock::Shared(..)
                        | Lock::OnceDone(..)
                        | Lock::Fresh(_)
                        | Lock::FreshParam(_)
                        | Lock::Guarded(..)
                        | Lock::Compare(..)
                )
        });
    }
    common.into_iter().next()
}

/// An rwlock every use holds, read- or write-locked.
fn common_rwlock(list: &[&Use]) -> Option<(super::decls::VarId, Path)> {
    let held = |u: &Use| -> BTreeSet<(super::decls::VarId, Path)> {
        u.locks
            .iter()
            .filter_map(|l| match l {
                Lock::Mutex(v, p) | Lock::Shared(v, p) => Some((*v, p.clone())),
                Lock::Atomic
                | Lock::Element(..)
                | Lock::InElement(..)
                | Lock::OnceRunning(..)
                | Lock::OnceDone(..)
                | Lock::Fresh(_)
                | Lock::FreshParam(_)
                | Lock::Guarded(..)
                | Lock::Compare(..) => None,
            })
            .collect()
    };
    let mut common = held(list.first()?);
    for u in list {
        common = common.intersection(&held(u)).cloned().collect();
    }
    let any_shared = |l: &(super::decls::VarId, Path)| {
        list.iter()
            .any(|u| u.locks.contains(&Lock::Shared(l.0, l.1.clone())))
    };
    common.into_iter().find(any_shared)
}

fn kind(write: bool) -> &'static str {
    if write {
        "write"
    } else {
        "read"
    }
}

/// `.f[2]`: a path as C writes it.
fn path_text(path: &Path) -> String {
    path.iter()
        .map(|s| match s {
            Step::Field(f) => format!(".{f}"),
            Step::Index(Some(i)) => format!("[{i}]"),
            Step::Index(None) => "[…]".to_string(),
            Step::Own => "[own index]".to_string(),
            Step::Fresh => "[the next thread's index]".to_string(),
            Step::Iter(..) => "[the iteration's index]".to_string(),
            Step::Table(..) => "[the iteration's table entry]".to_string(),
            Step::Window(..) => "[an index in the iteration's window]".to_string(),
            Step::Inv(..) => "[a value every thread read alike]".to_string(),
            Step::Base(..) => "(an element at a start every thread read alike)".to_string(),
        })
        .collect()
}
