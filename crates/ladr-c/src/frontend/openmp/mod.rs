//! OpenMP: `#pragma omp` constructs lowered to POSIX threads, locks, barriers and atomic
//! sections right after parsing, so that every pass after the front end sees an ordinary
//! pthread program (docs/openmp.md says how each construct is modelled and why it is
//! faithful).
//!
//! * [`directive`] reads the pragma lines (lang-c skips them) with their clauses;
//! * each directive is attached by its offset to the statement that follows it (a
//!   stand-alone `barrier` / `flush` to its place in the block);
//! * [`lower`] walks each function with the variables in scope and lowers the constructs
//!   from the innermost out: [`work`] the worksharing loops and `sections`, [`outline`] the
//!   `parallel` regions (a start routine per region, a team of threads), [`loops`]
//!   `collapse`, `linear`, `ordered` and `simd` on top of the worksharing loop,
//!   [`doacross`] `ordered(n)` with its sinks and sources, [`copyprivate`] the broadcast of `single copyprivate`;
//! * the runtime calls (`omp_get_thread_num`, locks, ...) become the team's thread-local
//!   thread number and size, pthread mutexes and constants;
//! * gcc's `<omp.h>` is replaced by [`OMP_H`], declarations of what is modelled.
//!
//! [`task`] lowers explicit tasks (a thread per task, `taskwait`/`taskgroup`/barriers waiting
//! for counts of unfinished tasks, `depend` as waits for completion flags), [`taskloop`] its
//! loop form, [`tasks`] their unit-wide parts.
//!
//! [`lanes`] gives `simd` loops inside a region, `for simd` and `simd safelen` a lane
//! thread. What is not modelled (offload, nested `parallel`, ...) is a located "unsupported" error, never ignored.

mod after;
mod callgraph;
mod chunked;
mod copyprivate;
mod directive;
mod doacross;
mod lanes;
mod loops;
mod lower;
mod outline;
mod static_skip;
mod target;
mod task;
mod taskloop;
mod tasks;
mod teams;
mod vars;
mod work;

use crate::syntax::build::*;
use crate::syntax::constant::{value, Env};
use crate::syntax::names;
use crate::syntax::walk::visit::{self, Visitor};
use crate::syntax::walk::visit_mut::{self, VisitorMut};
use crate::syntax::walk::Walk;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use lower::{Failure, Lowering};
use std::collections::{HashMap, HashSet};

/// The team size of a `parallel` without `num_threads` (nor a constant
/// `omp_set_num_threads`).
pub const DEFAULT_TEAM: usize = 2;

/// A block construct of the program (`parallel for`, `single`, …): where its directive is
/// and the statement it governs, offsets in the parsed text; the answer names the
/// innermost one holding an access.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Construct {
    /// The directive's name words, as written (`parallel for`).
    pub name: String,
    /// Offset of its `#pragma`.
    pub at: usize,
    /// The governed statement's start and end.
    pub body: (usize, usize),
    /// A worksharing loop whose claims take the iteration numbers in order, without
    /// skipping ahead (a monotonic `schedule`, a `!=` test): a thread reaches a later
    /// iteration only after claiming every earlier one, so a cut of its claim loop leaves
    /// later iterations unchecked.
    pub claims_in_order: bool,
    /// Code may follow it while other threads run (a statement after it in its region, a
    /// later region, a loop around it; [`after`]): where the unwinding cuts a worksharing
    /// loop, no execution finishes it, so that code was never checked.
    pub code_after: bool,
    /// A worksharing loop's iteration count, where its bounds and step are constants.
    pub trip: Option<u64>,
    /// A `parallel` team's size where the program fixes it (`num_threads`, a constant
    /// `omp_set_num_threads`; 1 under an `if` clause, its smallest); `None`: `--omp-threads`.
    pub team: Option<u64>,
    /// A `teams` construct whose threads are the initial threads of a league's teams (not
    /// `teams distribute parallel for`, one team of the league's threads).
    pub league: bool,
}

impl Construct {
    /// The innermost construct of `all` whose statement holds offset `at`.
    pub fn innermost(all: &[Construct], at: usize) -> Option<&Construct> {
        all.iter()
            .filter(|c| c.body.0 <= at && at < c.body.1)
            .min_by_key(|c| (c.body.1 - c.body.0, usize::MAX - c.at))
    }
}

/// What [`lower`] found: the team size it chose and the constructs.
#[derive(Clone, Debug, Default)]
pub struct Lowered {
    /// `Some(default_team)` when a `parallel` region's team got that size (see [`lower`]).
    pub omp_threads: Option<usize>,
    pub constructs: Vec<Construct>,
    /// Whether some `simd` loop got a lane ([`lanes`]).
    pub lanes: bool,
    /// With [`Mode::FoldSimd`]: the bodies (start and end offsets) of the `simd` loops
    /// inside a region that stayed plain loops of their thread.
    pub folded_simd: Vec<(usize, usize)>,
}

/// How `simd` loops inside a region are lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// With a lane thread ([`lanes`]): the bounded check's model.
    Lanes,
    /// As plain loops of the thread, their bodies listed in [`Lowered::folded_simd`]: the
    /// static proof's view, which checks the lanes of those loops itself
    /// (`ladr_seq::prove`). Only `simd` without clauses but `simdlen`, `aligned` and
    /// `safelen`; others get their lane.
    FoldSimd,
}

/// What ladr reads instead of gcc's `<omp.h>` (which lang-c cannot parse): the runtime
/// functions that [`lower`] models, and the lock types (a pthread mutex's state).
pub const OMP_H: &str = "typedef struct { int _state[8]; } omp_lock_t;
typedef struct { int _state[8]; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3, omp_sched_auto = 4 } omp_sched_t;
extern void omp_set_num_threads(int);
extern int omp_get_num_threads(void);
extern int omp_get_max_threads(void);
extern int omp_get_thread_num(void);
extern int omp_get_team_num(void);
extern int omp_get_num_teams(void);
extern int omp_get_num_procs(void);
extern int omp_in_parallel(void);
extern void omp_set_dynamic(int);
extern int omp_get_dynamic(void);
extern void omp_set_nested(int);
extern int omp_get_nested(void);
extern void omp_init_lock(omp_lock_t *);
extern void omp_destroy_lock(omp_lock_t *);
extern void omp_set_lock(omp_lock_t *);
extern void omp_unset_lock(omp_lock_t *);
extern int omp_test_lock(omp_lock_t *);
extern void omp_init_nest_lock(omp_nest_lock_t *);
extern void omp_destroy_nest_lock(omp_nest_lock_t *);
extern void omp_set_nest_lock(omp_nest_lock_t *);
extern void omp_unset_nest_lock(omp_nest_lock_t *);
extern int omp_test_nest_lock(omp_nest_lock_t *);
extern double omp_get_wtime(void);
extern double omp_get_wtick(void);
extern int omp_get_level(void);
extern int omp_get_active_level(void);
extern int omp_get_thread_limit(void);
";

/// Replaces the text of every `<omp.h>` included in the preprocessed `pre` (between its
/// line markers) by [`OMP_H`]; the markers after it keep the lines of what follows right.
pub fn replace_omp_header(pre: &str) -> String {
    let mut out = String::with_capacity(pre.len());
    let mut depth_in_omp: Option<usize> = None;
    let mut depth = 0usize;
    for line in pre.split_inclusive('\n') {
        let marker = line.starts_with("# ") && line[2..].starts_with(|c: char| c.is_ascii_digit());
        if marker {
            let flags: Vec<&str> = line
                .rsplit('"')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            if flags.first() == Some(&"1") {
                depth += 1;
                let file = line.split('"').nth(1).unwrap_or("");
                if depth_in_omp.is_none() && file.ends_with("/omp.h") {
                    depth_in_omp = Some(depth);
                    out.push_str(line);
                    out.push_str(OMP_H);
                    continue;
                }
            } else if flags.first() == Some(&"2") {
                if depth_in_omp == Some(depth) {
                    depth_in_omp = None;
                }
                depth = depth.saturating_sub(1);
            }
        }
        if depth_in_omp.is_none() || marker && depth_in_omp.is_none() {
            out.push_str(line);
        }
    }
    out
}

/// Lowers the OpenMP directives of `text` (the text `unit` was parsed from) and the
/// runtime calls of `unit`; a team the program does not size has `default_team` threads.
/// Gives `Some(default_team)` when a `parallel` region's team got that size (neither
/// `num_threads` nor a constant `omp_set_num_threads` sizes it): the team size is then a
/// bound of the check, which the answer states. `original`: the unit as parsed, where the
/// caller kept a copy (read for what follows each construct, [`after`]); `None`: copied
/// here when needed.
pub fn lower(
    unit: &mut TranslationUnit,
    original: Option<&TranslationUnit>,
    text: &str,
    default_team: usize,
) -> Result<Lowered, Failure> {
    lower_with(unit, original, text, default_team, Mode::Lanes)
}

/// [`lower`], with `simd` loops lowered as `mode` says.
pub fn lower_with(
    unit: &mut TranslationUnit,
    original: Option<&TranslationUnit>,
    text: &str,
    default_team: usize,
    mode: Mode,
) -> Result<Lowered, Failure> {
    let dirs = directive::directives(text).map_err(|at| {
        (
            Span::span(at, at + 1),
            "an OpenMP directive ladr cannot read".to_string(),
        )
    })?;
    let calls = runtime_calls(unit);
    if dirs.is_empty() && calls.is_empty() {
        return Ok(Lowered::default());
    }
    let copy;
    let original = match original {
        Some(o) => o,
        None => {
            copy = unit.clone();
            &copy
        }
    };
    let set_by_program = set_num_threads(unit)?;
    let team = set_by_program.unwrap_or(default_team);
    let unsized_team = set_by_program.is_none()
        && dirs.iter().any(|d| {
            d.words.iter().any(|w| w == "parallel") && d.clause("num_threads").is_none()
                || d.words.iter().any(|w| w == "teams") && d.clause("num_teams").is_none()
        });
    let at: Vec<usize> = dirs.iter().map(|d| d.at).collect();
    let mut l = Lowering {
        governing: HashMap::new(),
        before: HashMap::new(),
        at_end: HashMap::new(),
        globals: HashMap::new(),
        team,
        counter: 0,
        new_items: vec![],
        scopes: vec![],
        addressed: HashSet::new(),
        parallel_depth: 0,
        loop_depth: 0,
        section_starts: HashSet::new(),
        declared_locks: HashSet::new(),
        threadprivate: HashSet::new(),
        ordered_loops: vec![],
        declared_turns: HashSet::new(),
        doacross: HashMap::new(),
        doacross_dirs: vec![],
        claims_epoch: None,
        constructs: vec![],
        team_set_by_program: set_by_program.is_some(),
        in_teams: false,
        serial_targets: vec![],
        omp_functions: teams::omp_functions(unit, &at),
        identity_free: static_skip::identity_free(unit, &dirs, &calls),
        regions: vec![],
        posix_threads: target::creates_threads(unit),
        has_tasks: dirs.iter().any(|d| {
            d.words
                .iter()
                .any(|w| ["task", "taskloop", "taskwait", "taskgroup"].contains(&w.as_str()))
        }),
        region_marks: vec![],
        privatised: vec![],
        function_name: String::new(),
        task_routines: vec![],
        lane_arms: vec![],
        lane_frame: None,
        declared_lane_state: false,
        mode,
        folded_simd: vec![],
    };
    attach(unit, dirs, &mut l)?;
    thread_private(unit, &l.threadprivate)?;
    for ext in &unit.0 {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            l.globals.extend(vars::declared(&d.node));
        }
    }
    let mut items = runtime_state();
    if l.has_tasks {
        items.extend(tasks::state());
    }
    for mut ext in std::mem::take(&mut unit.0) {
        if let ExternalDeclaration::FunctionDefinition(f) = &mut ext.node {
            l.function(f)?;
            items.append(&mut l.new_items);
            if l.has_tasks && l.function_name == "main" {
                tasks::main_waits(f);
            }
        }
        items.push(ext);
    }
    unit.0 = items;
    tasks::check_routines(unit, &l.task_routines, &l.threadprivate)?;
    target::serial_only(unit, &l.serial_targets)?;
    let left = l
        .governing
        .values()
        .chain(l.before.values())
        .chain(l.at_end.values())
        .flatten()
        .next();
    if let Some(d) = left {
        return lower::fail(
            d,
            format!("OpenMP `{}` where ladr does not expect it", d.name()),
        );
    }
    rewrite_calls(unit, team)?;
    after::mark_code_after(original, &mut l.constructs, l.has_tasks);
    Ok(Lowered {
        omp_threads: unsized_team.then_some(default_team),
        constructs: l.constructs,
        lanes: l.declared_lane_state,
        folded_simd: l.folded_simd,
    })
}

/// `threadprivate(x)`: the file-scope `x` becomes `_Thread_local` (each thread's copy
/// starts from the initialiser, thread 0's is the original, as OpenMP's).
fn thread_private(unit: &mut TranslationUnit, vars: &HashSet<String>) -> Result<(), Failure> {
    if vars.is_empty() {
        return Ok(());
    }
    let mut found = HashSet::new();
    let mut items = vec![];
    for ext in std::mem::take(&mut unit.0) {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            items.push(ext);
            continue;
        };
        let names: Vec<String> = vars::declared(&d.node)
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        if !names.iter().any(|n| vars.contains(n)) {
            items.push(ext);
            continue;
        }
        // One declaration per declarator, the named ones thread-local.
        for one in &d.node.declarators {
            let mut single = d.clone();
            single.node.declarators = vec![one.clone()];
            let name = declarator_name(&one.node.declarator.node)
                .unwrap_or("")
                .to_string();
            if vars.contains(&name)
                && !has_storage(&single.node, StorageClassSpecifier::ThreadLocal)
            {
                let span = single.span;
                single
                    .node
                    .specifiers
                    .insert(0, storage(StorageClassSpecifier::ThreadLocal, span));
            }
            found.insert(name);
            items.push(node(ExternalDeclaration::Declaration(single), ext.span));
        }
    }
    unit.0 = items;
    match vars.iter().find(|v| !found.contains(*v)) {
        Some(v) => Err((
            Span::none(),
            format!("`threadprivate({v})` of a variable that is not a file-scope one"),
        )),
        None => Ok(()),
    }
}

/// The team's state: thread number and size (thread-local), the barriers, and the atomic
/// section's functions.
fn runtime_state() -> Vec<Node<ExternalDeclaration>> {
    let span = Span::none();
    let local = |name: &str, init: u64| {
        declaration(
            vec![
                storage(StorageClassSpecifier::ThreadLocal, span),
                spec(TypeSpecifier::Int, span),
            ],
            name,
            vec![],
            Some(node(
                Initializer::Expression(Box::new(int(init, span))),
                span,
            )),
            span,
        )
    };
    let decls = vec![
        local(names::OMP_THREAD_NUM, 0),
        local(names::OMP_TEAM_SIZE, 1),
        local(&names::omp("phase", 0), 0),
        simple_decl(
            &[TypeSpecifier::Int],
            &names::omp("arrived", 0),
            None,
            true,
            None,
            span,
        ),
        simple_decl(
            &[TypeSpecifier::Int],
            names::OMP_BARRIER,
            Some(2),
            true,
            None,
            span,
        ),
        // The attribute of a nest lock: the model's mutex type 1, recursive.
        simple_decl(
            &[TypeSpecifier::Int],
            &names::omp("recursive", 0),
            None,
            true,
            Some(int(1, span)),
            span,
        ),
        prototype(TypeSpecifier::Void, "__VERIFIER_atomic_begin"),
        prototype(TypeSpecifier::Void, "__VERIFIER_atomic_end"),
        prototype(TypeSpecifier::Long, names::NONDET_LONG),
    ];
    decls
        .into_iter()
        .map(|d| node(ExternalDeclaration::Declaration(d), span))
        .collect()
}

/// `ret name(void);`
fn prototype(ret: TypeSpecifier, name: &str) -> Node<Declaration> {
    let span = Span::none();
    let f = crate::syntax::build::no_parameters();
    declaration(vec![spec(ret, span)], name, vec![f], None, span)
}

/// Attaches each directive to the statement after it (stand-alone ones to their place).
fn attach(
    unit: &TranslationUnit,
    dirs: Vec<directive::Directive>,
    l: &mut Lowering,
) -> Result<(), Failure> {
    struct Spans {
        starts: Vec<usize>,
        blocks: Vec<(usize, usize)>,
    }
    impl Visitor for Spans {
        type Error = std::convert::Infallible;
        fn stmt(&mut self, s: &Node<Statement>) -> Result<Walk, Self::Error> {
            self.starts.push(s.span.start);
            if matches!(s.node, Statement::Compound(_)) {
                self.blocks.push((s.span.start, s.span.end));
            }
            Ok(Walk::Descend)
        }
    }
    let mut sp = Spans {
        starts: vec![],
        blocks: vec![],
    };
    let Ok(()) = visit::unit(&mut sp, unit);
    sp.starts.sort_unstable();
    for d in dirs {
        let block = sp
            .blocks
            .iter()
            .filter(|(s, e)| *s < d.at && d.at < *e)
            .max_by_key(|(s, _)| *s)
            .copied();
        let Some((bstart, bend)) = block else {
            if d.is(&["threadprivate"]) {
                let names = d
                    .clause("threadprivate")
                    .map(|c| c.vars())
                    .unwrap_or_default();
                l.threadprivate.extend(names);
                continue;
            }
            return lower::fail(&d, format!("OpenMP `{}` outside a function", d.name()));
        };
        let doacross = doacross::is_doacross(&d);
        if doacross {
            l.doacross_dirs.push((d.at, bstart, d.clone()));
        }
        let next = sp
            .starts
            .iter()
            .copied()
            .find(|s| *s >= d.end.min(d.at + 1) && *s > d.at);
        let standalone = doacross
            || ["barrier", "flush", "taskwait", "taskyield"]
                .contains(&d.words.first().map(|w| w.as_str()).unwrap_or(""));
        match next {
            Some(n) if n < bend => {
                let map = if standalone {
                    &mut l.before
                } else {
                    &mut l.governing
                };
                map.entry(n).or_default().push(d);
            }
            _ if standalone => l.at_end.entry(bstart).or_default().push(d),
            _ => {
                return lower::fail(
                    &d,
                    format!("OpenMP `{}` not followed by a statement", d.name()),
                )
            }
        }
    }
    Ok(())
}

/// The OpenMP runtime functions (`omp_…`) the unit calls.
fn runtime_calls(unit: &TranslationUnit) -> HashSet<String> {
    struct U(HashSet<String>);
    impl Visitor for U {
        type Error = std::convert::Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
            if let Expression::Call(c) = &e.node {
                if let Some(n) = callee_name(&c.node).filter(|n| n.starts_with("omp_")) {
                    self.0.insert(n.to_string());
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut u = U(HashSet::new());
    let Ok(()) = visit::unit(&mut u, unit);
    u.0
}

/// The constant of the program's `omp_set_num_threads` calls (all the same constant), if any.
fn set_num_threads(unit: &TranslationUnit) -> Result<Option<usize>, Failure> {
    struct S(Vec<(Span, Option<i128>)>);
    impl Visitor for S {
        type Error = std::convert::Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
            if let Expression::Call(c) = &e.node {
                if callee_name(&c.node) == Some("omp_set_num_threads") {
                    let v = c
                        .node
                        .arguments
                        .first()
                        .and_then(|a| value(&a.node, &Env::none()));
                    self.0.push((e.span, v));
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut s = S(vec![]);
    let Ok(()) = visit::unit(&mut s, unit);
    let mut team = None;
    for (span, v) in s.0 {
        match v {
            Some(n) if (1..=8).contains(&n) && team.is_none_or(|t| t == n as usize) => {
                team = Some(n as usize)
            }
            _ => {
                return Err((
                    span,
                    "`omp_set_num_threads` with an argument that is not one constant from 1 to 8"
                        .into(),
                ))
            }
        }
    }
    Ok(team)
}

/// The runtime calls replaced by the model.
fn rewrite_calls(unit: &mut TranslationUnit, team: usize) -> Result<(), Failure> {
    struct C(usize);
    impl VisitorMut for C {
        type Error = Failure;
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk, Failure> {
            let Expression::Call(c) = &mut e.node else {
                return Ok(Walk::Descend);
            };
            let Some(name) = callee_name(&c.node).map(str::to_string) else {
                return Ok(Walk::Descend);
            };
            if !name.starts_with("omp_") {
                return Ok(Walk::Descend);
            }
            let span = e.span;
            let args = std::mem::take(&mut c.node.arguments);
            let renamed = |to: &str, mut args: Vec<Node<Expression>>, extra: bool| {
                if extra {
                    args.push(int(0, span));
                }
                call(to, args, span)
            };
            let size = || ident(names::OMP_TEAM_SIZE, span);
            *e = match name.as_str() {
                "omp_get_thread_num" => ident(names::OMP_THREAD_NUM, span),
                "omp_get_num_threads" => size(),
                "omp_get_max_threads" | "omp_get_num_procs" | "omp_get_thread_limit" => {
                    int(self.0 as u64, span)
                }
                // Outside a `teams` region (inside one, `teams` rewrote them): a league of one.
                "omp_get_team_num" => int(0, span),
                "omp_get_num_teams" => int(1, span),
                "omp_in_parallel" | "omp_get_level" | "omp_get_active_level" => {
                    binop(BinaryOperator::Greater, size(), int(1, span), span)
                }
                "omp_set_num_threads"
                | "omp_set_dynamic"
                | "omp_set_nested"
                | "omp_get_dynamic"
                | "omp_get_nested"
                | "omp_get_wtime"
                | "omp_get_wtick" => int(0, span),
                "omp_init_lock" => renamed("pthread_mutex_init", args, true),
                "omp_destroy_lock" => renamed("pthread_mutex_destroy", args, false),
                "omp_set_lock" => renamed("pthread_mutex_lock", args, false),
                "omp_unset_lock" => renamed("pthread_mutex_unlock", args, false),
                "omp_init_nest_lock" => {
                    let mut args = args;
                    args.push(addr(ident(&names::omp("recursive", 0), span), span));
                    call("pthread_mutex_init", args, span)
                }
                "omp_destroy_nest_lock" => renamed("pthread_mutex_destroy", args, false),
                "omp_set_nest_lock" => renamed("pthread_mutex_lock", args, false),
                "omp_unset_nest_lock" => renamed("pthread_mutex_unlock", args, false),
                "omp_test_lock" => eq(
                    renamed("pthread_mutex_trylock", args, false),
                    int(0, span),
                    span,
                ),
                _ => {
                    return Err((
                        span,
                        format!("the OpenMP runtime function `{name}` is not modelled"),
                    ))
                }
            };
            Ok(Walk::Descend)
        }
    }
    visit_mut::unit(&mut C(team), unit)
}
