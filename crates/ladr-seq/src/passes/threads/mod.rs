//! `threads` — one function per thread slot, pthread calls replaced by the model (DESIGN §3–4).
//!
//! Needs a bounded program (after `inline` and `unwind`: no loops, no calls of defined
//! functions). Every `pthread_create` site found in the bounded `main`, then — in slot
//! order — in the slots it creates, becomes a new slot with its own copy of the start
//! routine. A start routine created at two sites (or at one site unwound twice) gets two
//! slots and two copies.
//!
//! ```text
//! void *w(void *a) { int v; v = x; return 0; }        static void *__ladr_3_a;
//! int main() { pthread_t t;                            static int __ladr_4_v;
//!   pthread_create(&t, 0, w, 0); ... }         →       void __ladr_thread1(void) {
//!                                                        __ladr_3_a = __ladr_arg[1];
//!                                                        __ladr_4_v = x; ...
//!                                                        __ladr_retval[1] = 0; goto __ladr_end1; ...
//!                                                        __ladr_end1: ; }
//!                                                      void __ladr_thread0(void) { ...
//!                                                        __ladr_pthread_create(&t, 1, 0); ... }
//! ```
//!
//! Guarantees: the unit holds the user's global declarations, prototypes for the user's
//! functions (their addresses may be compared; none for `main`), the pthread model
//! (`model/pthread.c`) and one `void __ladr_threadK(void)` per slot, in slot order; `main`
//! is gone. Each slot's locals are declared `static` (at file scope; in place when their
//! type is `__typeof__` of a statement expression) and renamed apart; its parameters are
//! assigned from `__ladr_arg[K]`. Returns and `pthread_exit` jump to the slot's end label
//! `__ladr_endK` (slot k > 0 first stores the exit value in `__ladr_retval[k]` for
//! `pthread_join`; slot 0 only evaluates it); in slot 0, falling off the end or `return` is
//! followed by `__CPROVER_assume(0)` (the process ends; DESIGN §5), while `pthread_exit`
//! skips it. `Program::slots` describes the slots; `Program::thread_locals` names every
//! object that belongs to one slot (its locals and its thread-storage instances).
//!
//! Objects and threads:
//! * `static` locals are one object for all threads: `inline` hoisted them to file scope
//!   (renamed, initialiser kept) before any body is copied; one reaching this pass is an
//!   error, never a per-slot copy.
//! * `_Thread_local` / `__thread` objects have one instance per thread (`ThreadStorage`):
//!   slot 0 keeps the user's object, slot k gets `__typeof__(x) __ladr_<n>_x` with the same
//!   initialiser, and its code is rewritten to use it.
//! * pthread keys: the model numbers keys as they are created and keeps one value per slot
//!   and key; `pthread_key_create(&k, NULL)` becomes `k = __ladr_pthread_key_create();` in
//!   the user's code (a data write); more than [`MAX_KEYS`] create sites are unsupported.
//!   A destructor (a function the program defines, or `free`; `model/keys.c`, added only
//!   then) runs at the exit of every thread — `main`'s too when it calls `pthread_exit`
//!   (its return ends the process, which runs no destructor) — for each key with a
//!   non-NULL value, which is set to NULL first (`run_destructors`): a copy of its body
//!   after the slot's end label, so its accesses race like any other. One pass: a
//!   destructor that calls `pthread_setspecific` is unsupported.
//! * `pthread_cancel` marks a request for the slot (`model/cancel.c`, added then); `inline`
//!   made the cancellation points act on it (running the cleanup handlers and exiting with
//!   `PTHREAD_CANCELED`), and `pthread_setcancelstate` disables it per slot.
//! * Each slot has its own `errno`: `__errno_location()` (glibc's `errno` is
//!   `(*__errno_location ())`) becomes `__ladr___errno_location(k)` (`model/libc.c`); C
//!   library functions CBMC does not model (`ffs`, …) become calls of `model/libc.c`; other
//!   functions without a body whose results are used are `Program::assumptions`.
//! * A pthread call must be a whole statement (`f(..);` / `lv = f(..);`, normal form N3);
//!   under `sizeof` / `__typeof__` it is not evaluated and stays.
//!
//! Modules: this one runs the pass ([`run`]: the program taken apart, the slots found and
//! rewritten one by one, the unit put together again). `rewriter` walks one slot's
//! body, handing each statement that calls a pthread or semaphore function to
//! `pthread_table` (the modelled calls, by family) and each other call to
//! `library_calls` (the C library's models, invented results, heap sizes). `routines`
//! copies a routine for a slot, `keys` finds the key destructors and runs them at a
//! thread's exit, `storage` gives each slot its thread-storage instances, `locals`
//! makes a slot's locals `static`, and `constants` knows the constant expressions.

mod constants;
mod keys;
mod library_calls;
mod locals;
mod pthread_table;
pub(crate) mod returns;
mod rewriter;
mod routines;
mod storage;
mod vla;

use crate::model::library;
use constants::{enumerators, once_constants};
use keys::{
    destructors, function_pointer_globals, function_values, pointers_reach_only_definitions,
    run_destructors, Destructor,
};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut;
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, slot_function};
use ladr_ir::program::{CutKind, Options, Program, Slot};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use locals::make_locals_static;
use returns::{returns_value, Returns};
use rewriter::SlotRewriter;
use routines::{clone_routine, prototype};
use std::collections::{HashMap, HashSet, VecDeque};
use std::convert::Infallible;
use storage::ThreadStorage;

pub use locals::VLA_CAPACITY;
pub(crate) use routines::routine_name;

/// At most this many slots; deeper or wider thread creation is cut. The model's per-slot
/// tables (`model/pthread.c`) have this many rows.
pub const MAX_SLOTS: usize = 64;

/// At most this many `pthread_key_create` sites in the bounded program (the columns of the
/// model's `__ladr_specific` table); more is an unsupported-construct error.
pub const MAX_KEYS: usize = 16;

/// The model's C source: the pthread model and the C library functions CBMC does not model
/// (`model/libc.c`, [`crate::model::library::libc_model`]).
pub const MODEL_SOURCE: &str = concat!(
    include_str!("../../model/pthread.c"),
    include_str!("../../model/libc.c")
);

/// The length of the pthread model's part of [`MODEL_SOURCE`]: the rest, `model/libc.c`,
/// is added only to programs that use it (so it changes nothing for the others, CBMC's
/// choice of counterexample included).
const PTHREAD_SOURCE_LEN: usize = include_str!("../../model/pthread.c").len();

/// The string functions' models (`model/string.c`), added to programs that call one.
pub const STRING_MODEL_SOURCE: &str = include_str!("../../model/string.c");

/// The key destructors' model (`model/keys.c`), added to programs that create a key with a
/// destructor.
pub const KEYS_MODEL_SOURCE: &str = include_str!("../../model/keys.c");

/// Deferred cancellation's model (`model/cancel.c`), added to programs that call
/// `pthread_cancel`.
pub const CANCEL_MODEL_SOURCE: &str = include_str!("../../model/cancel.c");

/// The cancellation model parsed.
pub fn cancel_model_unit() -> TranslationUnit {
    ladr_c::frontend::builtin_unit(CANCEL_MODEL_SOURCE, "<ladr cancel model>")
        .expect("the embedded cancel model parses")
}

/// The key destructors' model parsed.
pub fn keys_model_unit() -> TranslationUnit {
    ladr_c::frontend::builtin_unit(KEYS_MODEL_SOURCE, "<ladr keys model>")
        .expect("the embedded keys model parses")
}

/// The string functions' models parsed.
pub fn string_model_unit() -> TranslationUnit {
    ladr_c::frontend::builtin_unit(STRING_MODEL_SOURCE, "<ladr string model>")
        .expect("the embedded string model parses")
}

/// The model parsed once per run.
pub fn model_unit() -> TranslationUnit {
    ladr_c::frontend::builtin_unit(MODEL_SOURCE, "<ladr pthread model>")
        .expect("the embedded pthread model parses")
}

/// Runs the pass (module doc): one function per slot, pthread calls replaced by the model.
pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let channels = calls_any(&p.unit, &library::CHANNEL_MAKERS);
    let cancels = calls_any(&p.unit, &["pthread_cancel"]);
    let UserUnit {
        defs,
        others,
        declared,
    } = split_unit(&mut p);
    let mut tls = ThreadStorage::new(&others);
    let mut facts = ProgramFacts::gather(defs, declared, &others, channels)?;
    facts.cancels = cancels;
    let SlotBodies {
        slots,
        bodies,
        statics,
        libc_used,
    } = rewrite_slots(&mut p, opts, &facts, &mut tls)?;

    p.thread_locals.extend(tls.instances());
    let mut unit = tls.declare_copies(others);
    unit.extend(libc_state_declarations(&p));
    unit.extend(models(libc_used, !facts.dtors.is_empty(), &bodies));
    if facts.cancels {
        unit.extend(cancel_model_unit().0);
    }
    unit.extend(
        statics
            .into_iter()
            .map(|d| node(ExternalDeclaration::Declaration(d.clone()), d.span)),
    );
    unit.extend(kept_functions(&p, &facts.defs, &bodies));
    for (k, b) in bodies.into_iter().enumerate() {
        unit.push(function_def(&slot_function(k), TypeSpecifier::Void, b));
    }
    p.unit.0 = unit;
    crate::hygiene::rename_apart(&mut p.unit, &mut p.names);
    p.slots = slots;
    Ok(p)
}

/// The user's translation unit taken apart ([`split_unit`]).
struct UserUnit {
    /// The function definitions by name, `main` among them.
    defs: HashMap<String, FunctionDefinition>,
    /// Every other external declaration, in order, with a prototype in place of each
    /// definition but `main`'s, and without `main`'s own prototypes.
    others: Vec<Node<ExternalDeclaration>>,
    /// The names the file-scope declarations declare (a definition after a prototype gets
    /// no second prototype).
    declared: HashSet<String>,
}

/// Takes the program's unit apart into its function definitions and the rest
/// ([`UserUnit`]); `p.unit` is left empty.
fn split_unit(p: &mut Program) -> UserUnit {
    let mut defs: HashMap<String, FunctionDefinition> = HashMap::new();
    let mut others = vec![];
    let mut declared: HashSet<String> = HashSet::new();
    for ext in std::mem::take(&mut p.unit.0) {
        match ext.node {
            ExternalDeclaration::FunctionDefinition(f) => {
                let name = function_name(&f.node).unwrap_or_default().to_string();
                if name != "main" && !declared.contains(&name) {
                    others.push(prototype(&f));
                }
                defs.insert(name, f.node);
            }
            _ => {
                let mut ext = ext;
                if let ExternalDeclaration::Declaration(d) = &mut ext.node {
                    // `main` is gone (it is slot 0; `lazy` defines a new `main`): drop its
                    // prototypes, which may not match `int main(void)`.
                    let before = d.node.declarators.len();
                    d.node.declarators.retain(|id| {
                        declarator_name(&id.node.declarator.node) != Some("main")
                            || !is_function_declarator(&id.node.declarator.node)
                    });
                    if before > 0 && d.node.declarators.is_empty() {
                        continue;
                    }
                    declared.extend(d.node.declarators.iter().filter_map(|id| {
                        declarator_name(&id.node.declarator.node).map(str::to_string)
                    }));
                }
                others.push(ext)
            }
        }
    }
    UserUnit {
        defs,
        others,
        declared,
    }
}

/// What the pass learns of the whole program before it rewrites any slot.
struct ProgramFacts {
    /// The function definitions by name, `main` among them.
    defs: HashMap<String, FunctionDefinition>,
    /// The names declared at file scope ([`UserUnit::declared`]).
    declared: HashSet<String>,
    /// The function pointer globals ([`function_pointer_globals`]).
    pointer_globals: HashMap<String, String>,
    /// The key destructors ([`destructors`]).
    dtors: Vec<Destructor>,
    /// A destructor pointer holds one of them or no destructor
    /// ([`pointers_reach_only_definitions`]).
    dtor_pointers_known: bool,
    /// Every enumeration constant ([`enumerators`]).
    enumerators: HashSet<String>,
    /// What each function declared at file scope returns ([`returns_value`]).
    returns_value: HashMap<String, Returns>,
    /// The program makes byte channels (`pipe`, `socketpair`).
    channels: bool,
    /// The program calls `pthread_cancel` (`model/cancel.c`).
    cancels: bool,
}

impl ProgramFacts {
    /// The facts of the program whose definitions are `defs` and other external
    /// declarations `others`. A program without `main` is unsupported.
    fn gather(
        defs: HashMap<String, FunctionDefinition>,
        declared: HashSet<String>,
        others: &[Node<ExternalDeclaration>],
        channels: bool,
    ) -> Result<ProgramFacts> {
        let returns_value = returns_value(others);
        let enumerators = enumerators(others, &defs);
        if !defs.contains_key("main") {
            return Err(Error::new(
                ladr_c::diag::ErrorKind::Unsupported,
                "the program has no `main` function (a library: name the functions its threads call with `--entry FUNCTION`, docs/library-mode.md)",
            ));
        }
        let pointer_globals = function_pointer_globals(others, &defs);
        let dtors = destructors(&defs, others, &pointer_globals, &declared)?;
        let functions: HashSet<&str> = returns_value.keys().map(String::as_str).collect();
        let dtor_pointers_known = pointers_reach_only_definitions(&defs, others, &functions);
        Ok(ProgramFacts {
            defs,
            declared,
            pointer_globals,
            dtors,
            dtor_pointers_known,
            enumerators,
            returns_value,
            channels,
            cancels: false,
        })
    }
}

/// The slots and their rewritten bodies ([`rewrite_slots`]).
struct SlotBodies {
    slots: Vec<Slot>,
    /// Slot k's body at index k.
    bodies: Vec<Node<Statement>>,
    /// The slots' locals, made `static` ([`make_locals_static`]).
    statics: Vec<Node<Declaration>>,
    /// A call was turned into one of `model/libc.c`.
    libc_used: bool,
}

/// Every slot's body, rewritten: slot 0 runs `main`; the `pthread_create` sites found in
/// a slot's body (main's first, then in slot order) become new slots, each with its own
/// copy of the start routine. Each body's pthread calls become the model's, its
/// thread-storage objects its own instances and its locals `static`.
fn rewrite_slots(
    p: &mut Program,
    opts: &Options,
    facts: &ProgramFacts,
    tls: &mut ThreadStorage,
) -> Result<SlotBodies> {
    let mut slots: Vec<Slot> = vec![Slot {
        index: 0,
        function: slot_function(0),
        routine: "main".into(),
        created_at: None,
        parent: None,
    }];
    // (slot, body, routine nesting chain)
    let mut queue: VecDeque<(usize, Node<Statement>, Vec<String>)> = VecDeque::new();
    queue.push_back((0, main_body(p, facts)?, vec!["main".into()]));
    let mut bodies: Vec<Option<Node<Statement>>> = vec![None];
    let mut statics: Vec<Node<Declaration>> = vec![];

    let mut key_sites = 0;
    let mut libc_used = false;
    while let Some((k, mut body, chain)) = queue.pop_front() {
        let once = ladr_ir::analysis::assigned_once(&body);
        let defs = &facts.defs;
        let mut rewriter = SlotRewriter {
            slot: k,
            defs,
            p: &mut *p,
            slots: &mut slots,
            new: vec![],
            chain: &chain,
            unwind: opts.unwind,
            max_threads: opts.max_threads,
            key_sites: &mut key_sites,
            dtors: &facts.dtors,
            dtor_pointers_known: facts.dtor_pointers_known,
            dtor_values: function_values(&once, &facts.pointer_globals, &facts.declared, defs),
            malloc_may_fail: opts.malloc_may_fail,
            heap_block: opts.heap_block,
            constants: once_constants(&once, &facts.enumerators),
            routines: once
                .iter()
                .filter_map(|(n, rhs)| {
                    let f = routine_name(&rhs.node).filter(|f| defs.contains_key(*f))?;
                    Some((n.clone(), f.to_string()))
                })
                .collect(),
            returns_value: &facts.returns_value,
            discarded: None,
            libc_call: None,
            libc_used: false,
            channels: facts.channels,
            cancels: facts.cancels,
        };
        let creation_cuts = |p: &Program| {
            p.cuts
                .iter()
                .filter(|c| {
                    matches!(
                        c.kind,
                        CutKind::Threads | CutKind::ThreadNesting | CutKind::ThreadCount
                    )
                })
                .count()
        };
        let cut_before = creation_cuts(rewriter.p);
        visit_mut::stmt(&mut rewriter, &mut body)?;
        if creation_cuts(rewriter.p) > cut_before {
            // A creation beyond the budget is `assume(0)` now: what follows it is dead
            // (in a loop of `main` creating a team per round: the later rounds' copies).
            super::unwind::prune_dead(&mut body);
        }
        libc_used |= rewriter.libc_used;
        let new = std::mem::take(&mut rewriter.new);
        for (nk, routine) in new {
            let b = thread_body(p, facts, &routine, nk)?;
            let mut c = chain.clone();
            c.push(routine);
            bodies.push(None);
            queue.push_back((nk, b, c));
        }
        let mut body = body;
        tls.rename(&mut p.names, k, &mut body);
        let matrices = p.vla_rows.len();
        let autos = make_locals_static(
            &mut body,
            &mut statics,
            &facts.enumerators,
            &mut p.names,
            &mut p.vla_rows,
        )?;
        // A matrix kept as its lengths and memory allocates it with `model/libc.c`'s
        // `__ladr_vla`.
        libc_used |= p.vla_rows.len() > matrices;
        p.thread_locals.extend(autos.iter().cloned());
        p.automatic_locals.extend(autos);
        bodies[k] = Some(body);
    }
    let bodies = bodies
        .into_iter()
        .map(|b| b.expect("every slot has a body"))
        .collect();
    Ok(SlotBodies {
        slots,
        bodies,
        statics,
        libc_used,
    })
}

/// Slot 0's body: a copy of `main`'s, followed by the key destructors when `main` calls
/// `pthread_exit`.
fn main_body(p: &mut Program, facts: &ProgramFacts) -> Result<Node<Statement>> {
    let main = &facts.defs["main"];
    let mut main_body = clone_routine(p, main, 0)?;
    if !facts.dtors.is_empty() && ladr_c::syntax::walk::mentions(&main.statement, &["pthread_exit"])
    {
        // Only `pthread_exit` reaches main's end label (a return or falling off the end
        // is followed by `assume(0)`): the main thread exits and its destructors run.
        let span = main_body.span;
        let exit = run_destructors(p, &facts.defs, &facts.dtors, 0)?;
        main_body = block(vec![item(main_body), item(exit)], span);
    }
    Ok(main_body)
}

/// Slot `k`'s body when it runs `routine`: a copy of the routine's, followed by the key
/// destructors when the program has any.
fn thread_body(
    p: &mut Program,
    facts: &ProgramFacts,
    routine: &str,
    k: usize,
) -> Result<Node<Statement>> {
    let def = &facts.defs[routine];
    let mut b = clone_routine(p, def, k)?;
    if !facts.dtors.is_empty() {
        let span = b.span;
        let exit = run_destructors(p, &facts.defs, &facts.dtors, k)?;
        b = block(vec![item(b), item(exit)], span);
    }
    Ok(b)
}

/// `char __ladr_libc_strtok;`: the hidden state of the C library functions called.
fn libc_state_declarations(p: &Program) -> Vec<Node<ExternalDeclaration>> {
    let groups: std::collections::BTreeSet<&str> = p
        .libc_calls
        .values()
        .filter_map(|f| library::libc_state(f).map(|(g, _)| g))
        .collect();
    let mut out = vec![];
    for g in groups {
        let d = simple_decl(
            &[TypeSpecifier::Char],
            &abi::libc_state(g),
            None,
            false,
            None,
            Span::none(),
        );
        out.push(node(ExternalDeclaration::Declaration(d), Span::none()));
    }
    out
}

/// The models the slots need: the pthread model (with `model/libc.c` when a call was
/// turned into one of its functions, `libc_used`), the key destructors' model when a key
/// has a destructor, and the string functions' models when a slot calls one.
fn models(
    libc_used: bool,
    has_destructors: bool,
    bodies: &[Node<Statement>],
) -> Vec<Node<ExternalDeclaration>> {
    let mut out = vec![];
    let mut model = model_unit();
    if !libc_used {
        let end = ladr_c::origin::BUILTIN_BASE + PTHREAD_SOURCE_LEN;
        model.0.retain(|ext| ext.span.start < end);
    }
    out.extend(model.0);
    if has_destructors {
        out.extend(keys_model_unit().0);
    }
    let string_models: Vec<String> = library::STRING_MODELS
        .iter()
        .map(|f| abi::model_function(f))
        .collect();
    let string_models: Vec<&str> = string_models.iter().map(String::as_str).collect();
    if bodies
        .iter()
        .any(|b| ladr_c::syntax::walk::mentions(b, &string_models))
    {
        out.extend(string_model_unit().0);
    }
    out
}

/// The functions `inline` kept as calls that the slots call (directly or through other
/// kept functions): shared by every slot that calls them (they touch no shared object
/// and have only automatic locals, so one definition serves all).
fn kept_functions(
    p: &Program,
    defs: &HashMap<String, FunctionDefinition>,
    bodies: &[Node<Statement>],
) -> Vec<Node<ExternalDeclaration>> {
    let mut called: HashSet<&str> = HashSet::new();
    let mut todo: Vec<&Node<Statement>> = bodies.iter().collect();
    while let Some(b) = todo.pop() {
        for name in identifiers(b) {
            if let Some(k) = p.kept.get(&name) {
                if called.insert(k.as_str()) {
                    if let Some(f) = defs.get(k) {
                        todo.push(&f.statement);
                    }
                }
            }
        }
    }
    let mut out = vec![];
    for name in p.kept.iter().filter(|k| called.contains(k.as_str())) {
        if let Some(f) = defs.get(name) {
            let span = f.declarator.span;
            out.push(node(
                ExternalDeclaration::FunctionDefinition(node(f.clone(), span)),
                span,
            ));
        }
    }
    out
}

/// The names a statement uses as identifier expressions.
fn identifiers(s: &Node<Statement>) -> HashSet<String> {
    struct IdentifierCollector(HashSet<String>);
    impl Visitor for IdentifierCollector {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Expression::Identifier(i) = &e.node {
                self.0.insert(i.node.name.clone());
            }
            Ok(Walk::Descend)
        }
    }
    let mut ids = IdentifierCollector(HashSet::new());
    let Ok(()) = visit::stmt(&mut ids, s);
    ids.0
}

/// Does the unit call one of `names`?
fn calls_any(unit: &TranslationUnit, names: &[&str]) -> bool {
    struct CallFinder<'a>(&'a [&'a str]);
    impl Visitor for CallFinder<'_> {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match &e.node {
                Expression::Call(c)
                    if callee_name(&c.node).is_some_and(|n| self.0.contains(&n)) =>
                {
                    Err(())
                }
                _ => Ok(Walk::Descend),
            }
        }
    }
    visit::unit(&mut CallFinder(names), unit).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ladr_c::syntax::constant;

    #[test]
    fn model_tables_match_the_bounds() {
        assert!(MODEL_SOURCE.contains(&format!("{}[{MAX_SLOTS}][{MAX_KEYS}];", abi::SPECIFIC)));
        let m = model_unit();
        let end = ladr_c::origin::BUILTIN_BASE + PTHREAD_SOURCE_LEN;
        assert!(
            m.0.iter().any(|e| e.span.start >= end),
            "libc.c's declarations come last"
        );
        string_model_unit();
    }

    #[test]
    fn null_pointer_constants() {
        let parse = |s: &str| {
            let (_, unit, _) =
                ladr_c::frontend::parse_text(&format!("void *x = {s};"), "t.c").unwrap();
            let ExternalDeclaration::Declaration(d) = &unit.0[0].node else {
                panic!()
            };
            let Some(Initializer::Expression(e)) = d.node.declarators[0]
                .node
                .initializer
                .as_ref()
                .map(|i| &i.node)
            else {
                panic!()
            };
            constant::is_null_pointer_constant(&e.node)
        };
        assert!(parse("0"));
        assert!(parse("((void *)0)"));
        assert!(parse("(void (*)(void *))0x0"));
        assert!(!parse("1"));
        assert!(!parse("(void *)x"));
    }
}
