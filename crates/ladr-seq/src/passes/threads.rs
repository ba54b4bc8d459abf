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
//! * `pthread_cancel` is unsupported: a cancelled thread stops at its next cancellation
//!   point and runs cleanup handlers, and `pthread_join` then returns `PTHREAD_CANCELED`;
//!   treating it as a no-op could hide races (code after a join that only cancellation lets
//!   return), and "may stop at any visible point" would need the cleanup handlers too.
//!   Hence `pthread_testcancel` has no effect.
//! * Each slot has its own `errno`: `__errno_location()` (glibc's `errno` is
//!   `(*__errno_location ())`) becomes `__ladr___errno_location(k)` (`model/libc.c`); C
//!   library functions CBMC does not model (`ffs`, …) become calls of `model/libc.c`; other
//!   functions without a body whose results are used are `Program::assumptions`.
//! * A pthread call must be a whole statement (`f(..);` / `lv = f(..);`, normal form N3);
//!   under `sizeof` / `__typeof__` it is not evaluated and stays.

use crate::model::library;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::names::Names;
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::visit_mut::{self, VisitorMut};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi::{self, end_label, slot_function};
use ladr_ir::program::{AssumedResult, Assumption, Cut, CutKind, Options, Program, Slot};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::convert::Infallible;

/// At most this many slots; deeper or wider thread creation is cut. The model's per-slot
/// tables (`model/pthread.c`) have this many rows.
pub const MAX_SLOTS: usize = 64;

/// At most this many `pthread_key_create` sites in the bounded program (the columns of the
/// model's `__ladr_specific` table); more is an unsupported-construct error.
pub const MAX_KEYS: usize = 16;

/// The model's C source: the pthread model and the C library functions CBMC does not model
/// (`model/libc.c`, [`crate::model::library::libc_model`]).
pub const MODEL_SOURCE: &str = concat!(
    include_str!("../model/pthread.c"),
    include_str!("../model/libc.c")
);

/// The length of the pthread model's part of [`MODEL_SOURCE`]: the rest, `model/libc.c`,
/// is added only to programs that use it (so it changes nothing for the others, CBMC's
/// choice of counterexample included).
const PTHREAD_SOURCE_LEN: usize = include_str!("../model/pthread.c").len();

/// The string functions' models (`model/string.c`), added to programs that call one.
pub const STRING_MODEL_SOURCE: &str = include_str!("../model/string.c");

/// The key destructors' model (`model/keys.c`), added to programs that create a key with a
/// destructor.
pub const KEYS_MODEL_SOURCE: &str = include_str!("../model/keys.c");

/// The key destructors' model parsed.
pub fn keys_model_unit() -> TranslationUnit {
    ladr_c::origin::builtin_unit(KEYS_MODEL_SOURCE, "<ladr keys model>")
        .expect("the embedded keys model parses")
}

/// The string functions' models parsed.
pub fn string_model_unit() -> TranslationUnit {
    ladr_c::origin::builtin_unit(STRING_MODEL_SOURCE, "<ladr string model>")
        .expect("the embedded string model parses")
}

/// The model parsed once per run.
pub fn model_unit() -> TranslationUnit {
    ladr_c::origin::builtin_unit(MODEL_SOURCE, "<ladr pthread model>")
        .expect("the embedded pthread model parses")
}

pub fn run(mut p: Program, opts: &Options) -> Result<Program> {
    let channels = calls_any(&p.unit, &library::CHANNEL_MAKERS);
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
    let returns_value = returns_value(&others);
    let mut tls = ThreadStorage::new(&others);
    let enumerators = enumerators(&others, &defs);
    let main = defs
        .get("main")
        .ok_or_else(|| {
            Error::new(
                ladr_c::diag::ErrorKind::Unsupported,
                "the program has no `main` function",
            )
        })?
        .clone();

    let pointer_globals = function_pointer_globals(&others, &defs);
    let dtors = destructors(&defs, &pointer_globals, &declared)?;

    let mut slots: Vec<Slot> = vec![Slot {
        index: 0,
        function: slot_function(0),
        routine: "main".into(),
        created_at: None,
        parent: None,
    }];
    // (slot, body, routine nesting chain)
    let mut queue: VecDeque<(usize, Node<Statement>, Vec<String>)> = VecDeque::new();
    let mut main_body = clone_routine(&mut p, &main, 0)?;
    if !dtors.is_empty() && ladr_c::syntax::walk::mentions(&main.statement, &["pthread_exit"]) {
        // Only `pthread_exit` reaches main's end label (a return or falling off the end
        // is followed by `assume(0)`): the main thread exits and its destructors run.
        let span = main_body.span;
        let exit = run_destructors(&mut p, &defs, &dtors, 0)?;
        main_body = block(vec![item(main_body), item(exit)], span);
    }
    queue.push_back((0, main_body, vec!["main".into()]));
    let mut bodies: Vec<Option<Node<Statement>>> = vec![None];
    let mut statics: Vec<Node<Declaration>> = vec![];

    let mut key_sites = 0;
    let mut libc_used = false;
    while let Some((k, mut body, chain)) = queue.pop_front() {
        let once = ladr_ir::analysis::assigned_once(&body);
        let mut ctx = SlotCtx {
            slot: k,
            defs: &defs,
            p: &mut p,
            slots: &mut slots,
            new: vec![],
            chain: &chain,
            unwind: opts.unwind,
            key_sites: &mut key_sites,
            dtors: &dtors,
            dtor_values: function_values(&once, &pointer_globals, &declared, &defs),
            malloc_may_fail: opts.malloc_may_fail,
            constants: once_constants(&once, &enumerators),
            routines: once
                .iter()
                .filter_map(|(n, rhs)| {
                    let f = routine_name(&rhs.node).filter(|f| defs.contains_key(*f))?;
                    Some((n.clone(), f.to_string()))
                })
                .collect(),
            returns_value: &returns_value,
            discarded: None,
            libc_call: None,
            libc_used: false,
            channels,
        };
        visit_mut::stmt(&mut ctx, &mut body)?;
        libc_used |= ctx.libc_used;
        let new = std::mem::take(&mut ctx.new);
        for (nk, routine) in new {
            let def = &defs[&routine];
            let mut b = clone_routine(&mut p, def, nk)?;
            if !dtors.is_empty() {
                let span = b.span;
                let exit = run_destructors(&mut p, &defs, &dtors, nk)?;
                b = block(vec![item(b), item(exit)], span);
            }
            let mut c = chain.clone();
            c.push(routine);
            bodies.push(None);
            queue.push_back((nk, b, c));
        }
        let mut body = body;
        tls.rename(&mut p.names, k, &mut body);
        let autos = make_locals_static(&mut body, &mut statics, &enumerators, &mut p.names)?;
        p.thread_locals.extend(autos);
        bodies[k] = Some(body);
    }

    p.thread_locals.extend(tls.instances());
    let mut unit = tls.declare_copies(others);
    // `char __ladr_libc_strtok;`: the hidden state of the C library functions called.
    let groups: std::collections::BTreeSet<&str> = p
        .libc_calls
        .values()
        .filter_map(|f| library::libc_state(f).map(|(g, _)| g))
        .collect();
    for g in groups {
        let d = simple_decl(
            &[TypeSpecifier::Char],
            &abi::libc_state(g),
            None,
            false,
            None,
            Span::none(),
        );
        unit.push(node(ExternalDeclaration::Declaration(d), Span::none()));
    }
    let mut model = model_unit();
    if !libc_used {
        let end = ladr_c::origin::BUILTIN_BASE + PTHREAD_SOURCE_LEN;
        model.0.retain(|ext| ext.span.start < end);
    }
    unit.extend(model.0);
    if !dtors.is_empty() {
        unit.extend(keys_model_unit().0);
    }
    let string_models: Vec<String> = library::STRING_MODELS
        .iter()
        .map(|f| abi::model_function(f))
        .collect();
    let string_models: Vec<&str> = string_models.iter().map(String::as_str).collect();
    if bodies
        .iter()
        .flatten()
        .any(|b| ladr_c::syntax::walk::mentions(b, &string_models))
    {
        unit.extend(string_model_unit().0);
    }
    unit.extend(
        statics
            .into_iter()
            .map(|d| node(ExternalDeclaration::Declaration(d.clone()), d.span)),
    );
    // The functions `inline` kept as calls that the slots call (directly or through other
    // kept functions): shared by every slot that calls them (they touch no shared object
    // and have only automatic locals, so one definition serves all).
    let mut called: HashSet<&str> = HashSet::new();
    let mut todo: Vec<&Node<Statement>> = bodies.iter().flatten().collect();
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
    for name in p.kept.iter().filter(|k| called.contains(k.as_str())) {
        if let Some(f) = defs.get(name) {
            let span = f.declarator.span;
            unit.push(node(
                ExternalDeclaration::FunctionDefinition(node(f.clone(), span)),
                span,
            ));
        }
    }
    for (k, b) in bodies.into_iter().enumerate() {
        let b = b.expect("every slot has a body");
        unit.push(function_def(&slot_function(k), TypeSpecifier::Void, b));
    }
    p.unit.0 = unit;
    crate::hygiene::rename_apart(&mut p.unit, &mut p.names);
    p.slots = slots;
    Ok(p)
}

/// The names a statement uses as identifier expressions.
fn identifiers(s: &Node<Statement>) -> HashSet<String> {
    struct Ids(HashSet<String>);
    impl Visitor for Ids {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Expression::Identifier(i) = &e.node {
                self.0.insert(i.node.name.clone());
            }
            Ok(Walk::Descend)
        }
    }
    let mut ids = Ids(HashSet::new());
    let Ok(()) = visit::stmt(&mut ids, s);
    ids.0
}

/// A function named as a key destructor (`pthread_key_create(&k, d)`).
struct Destructor {
    name: String,
    /// Its `pthread_key_create` sites in the bounded program.
    sites: usize,
    /// Whether every site is in `main` (which runs once): then at most `sites` keys have
    /// this destructor; a site elsewhere may run in several threads.
    only_main: bool,
    /// The first site's destructor argument.
    span: Span,
}

/// The destructors of the program's `pthread_key_create` sites, in order of first site
/// (`main` first, then the other functions by name). A destructor that calls
/// `pthread_setspecific` (POSIX would run destructors again) or `pthread_exit` is
/// unsupported.
fn destructors(
    defs: &HashMap<String, FunctionDefinition>,
    pointer_globals: &HashMap<String, String>,
    file_scope: &HashSet<String>,
) -> Result<Vec<Destructor>> {
    struct Sites<'a> {
        defs: &'a HashMap<String, FunctionDefinition>,
        in_main: bool,
        /// The function each variable of the function walked holds ([`function_values`]).
        values: HashMap<String, String>,
        out: Vec<Destructor>,
    }
    impl Visitor for Sites<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Expression::Call(c) = &e.node {
                if callee_name(&c.node) == Some("pthread_key_create") && c.node.arguments.len() == 2
                {
                    let d = &c.node.arguments[1];
                    // A function the program defines, or the C library's `free`.
                    if let Some(n) = destructor_function(&d.node, &self.values, self.defs) {
                        let n = n.as_str();
                        match self.out.iter_mut().find(|x| x.name == n) {
                            Some(x) => {
                                x.sites += 1;
                                x.only_main &= self.in_main;
                            }
                            None => self.out.push(Destructor {
                                name: n.to_string(),
                                sites: 1,
                                only_main: self.in_main,
                                span: d.span,
                            }),
                        }
                    }
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut names: Vec<&String> = defs.keys().collect();
    names.sort_by_key(|n| (n.as_str() != "main", n.as_str()));
    let mut v = Sites {
        defs,
        in_main: false,
        values: HashMap::new(),
        out: vec![],
    };
    for n in names {
        v.in_main = n == "main";
        let body = &defs[n].statement;
        let once = ladr_ir::analysis::assigned_once(body);
        v.values = function_values(&once, pointer_globals, file_scope, defs);
        let Ok(()) = visit::stmt(&mut v, body);
    }
    for d in &v.out {
        let Some(def) = defs.get(&d.name) else {
            continue;
        };
        let body = &def.statement;
        if ladr_c::syntax::walk::mentions(body, &["pthread_setspecific", "pthread_exit"]) {
            return Err(Error::unsupported(
                d.span,
                "a key destructor that calls pthread_setspecific or pthread_exit",
            )
            .note("POSIX runs destructors again while values are set; ladr runs them once"));
        }
    }
    Ok(v.out)
}

/// The function a key destructor argument names: `f`, `&f`, `(T) f`, or a variable that
/// holds one function all along (`values`: a helper's parameter after inlining, a function
/// pointer global), when the program defines it or it is `free`.
fn destructor_function(
    d: &Expression,
    values: &HashMap<String, String>,
    defs: &HashMap<String, FunctionDefinition>,
) -> Option<String> {
    let n = routine_name(d)?;
    let f = values.get(n).map_or(n, String::as_str);
    known_destructor(f, defs).then(|| f.to_string())
}

/// A function a key destructor may be: one the program defines, or the C library's `free`.
fn known_destructor(f: &str, defs: &HashMap<String, FunctionDefinition>) -> bool {
    defs.contains_key(f) || f == "free"
}

/// The variables of a body that hold one function all along: its locals written once, by
/// `f`, `&f` or `(T) f` for a function `f` the program defines or `free` (`once`:
/// [`ladr_ir::analysis::assigned_once`], which counts `&x` as a write; file-scope names
/// are not its locals, and another function may write them), with the function pointer
/// globals ([`function_pointer_globals`]).
fn function_values(
    once: &HashMap<String, Node<Expression>>,
    pointer_globals: &HashMap<String, String>,
    file_scope: &HashSet<String>,
    defs: &HashMap<String, FunctionDefinition>,
) -> HashMap<String, String> {
    let mut out = pointer_globals.clone();
    for (n, rhs) in once {
        if file_scope.contains(n) {
            continue;
        }
        if let Some(f) = routine_name(&rhs.node) {
            let f = pointer_globals.get(f).map_or(f, String::as_str);
            if known_destructor(f, defs) {
                out.insert(n.clone(), f.to_string());
            }
        }
    }
    out
}

/// File-scope variables defined once with a function as initialiser (`void (*d)(void *) =
/// release;`, a function the program defines or `free`) that nothing writes: no
/// assignment, increment or `&d` in any function or initialiser. They hold that function
/// all along.
fn function_pointer_globals(
    others: &[Node<ExternalDeclaration>],
    defs: &HashMap<String, FunctionDefinition>,
) -> HashMap<String, String> {
    let mut out: HashMap<String, String> = HashMap::new();
    let mut seen: HashSet<String> = HashSet::new();
    for ext in others {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        if has_storage(&d.node, StorageClassSpecifier::Typedef) {
            continue;
        }
        for id in &d.node.declarators {
            let Some(n) = declarator_name(&id.node.declarator.node) else {
                continue;
            };
            let f = match &id.node.initializer {
                Some(i) => match &i.node {
                    Initializer::Expression(e) => routine_name(&e.node)
                        .filter(|f| known_destructor(f, defs))
                        .map(str::to_string),
                    Initializer::List(_) => None,
                },
                None => None,
            };
            match f {
                Some(f) if !seen.contains(n) => {
                    out.insert(n.to_string(), f);
                }
                _ if id.node.initializer.is_some() => {
                    out.remove(n);
                }
                _ => {}
            }
            seen.insert(n.to_string());
        }
    }
    if !out.is_empty() {
        let mut w = ladr_c::syntax::walk::WrittenNames::default();
        for f in defs.values() {
            let Ok(()) = visit::stmt(&mut w, &f.statement);
        }
        for ext in others {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                let Ok(()) = visit::declaration(&mut w, d);
            }
        }
        out.retain(|n, _| !w.0.contains(n));
    }
    out
}

/// What slot `k` runs after its start routine returns or calls `pthread_exit` (slot 0:
/// after `main` calls `pthread_exit`): for
/// each destructor `d` (numbered from 1), `sites` times `v = __ladr_pthread_key_take(d, k); if (v)
/// { d's body on v }`. When a site is outside `main`, more keys may have `d`: those
/// executions are not explored (`__CPROVER_assume` that none is left, a `key-destructors`
/// cut).
fn run_destructors(
    p: &mut Program,
    defs: &HashMap<String, FunctionDefinition>,
    dtors: &[Destructor],
    k: usize,
) -> Result<Node<Statement>> {
    let mut items = vec![];
    for (i, d) in dtors.iter().enumerate() {
        let span = d.span;
        let def = defs.get(&d.name);
        let take = || {
            call(
                &abi::model_function("pthread_key_take"),
                vec![int(i as u64 + 1, span), int(k as u64, span)],
                span,
            )
        };
        let void_ptr = || type_name(&[TypeSpecifier::Void], 1, span);
        for _ in 0..d.sites {
            let v = p.names.local("value");
            items.push(decl_item(typeof_decl(
                &v,
                cast(void_ptr(), int(0, span), span),
                false,
                span,
            )));
            items.push(item(expr_stmt(assign(ident(&v, span), take(), span))));
            let Some(def) = def else {
                // `free`: a call of the library function, which `race` sees as a write.
                let free = expr_stmt(call(&d.name, vec![ident(&v, span)], span));
                items.push(item(if_stmt(ident(&v, span), free, None, span)));
                continue;
            };
            let mut c = Copier::new(&mut p.names, Rename::All);
            let mut body_items = vec![];
            for (pname, pd) in parameters(def).iter().take(1) {
                let new = c.param(pname);
                let mut decl = pd.declarator.clone().expect("named parameter");
                if let Some(id) = declarator_name_mut(&mut decl.node) {
                    id.name = new.clone();
                }
                params_to_pointers(&mut decl.node);
                body_items.push(decl_item(declare(pd.specifiers.clone(), decl, None, span)));
                body_items.push(item(expr_stmt(assign(
                    ident(&new, span),
                    ident(&v, span),
                    span,
                ))));
            }
            let end = c.names.label("dtor_end");
            c.returns = Some((None, end.clone()));
            c.fresh_labels(&def.statement.node);
            let mut body = def.statement.clone();
            c.body(&mut body);
            let used_end = c.used_end;
            body_items.push(item(body));
            if used_end {
                body_items.push(item(labeled(&end, empty_stmt(span), span)));
            }
            items.push(item(if_stmt(
                ident(&v, span),
                block(body_items, span),
                None,
                span,
            )));
        }
        if !d.only_main {
            let w = p.names.temp();
            items.push(decl_item(typeof_decl(
                &w,
                cast(void_ptr(), int(0, span), span),
                false,
                span,
            )));
            items.push(item(expr_stmt(assign(ident(&w, span), take(), span))));
            items.push(item(assume(eq(ident(&w, span), int(0, span), span), span)));
            if !p
                .cuts
                .iter()
                .any(|c| c.kind == CutKind::KeyDestructors && c.span == span)
            {
                p.cuts.push(Cut {
                    kind: CutKind::KeyDestructors,
                    span,
                });
            }
        }
    }
    Ok(block(items, Span::none()))
}

/// What a function declared at file scope returns.
#[derive(Clone, Copy, Default)]
struct Returns {
    /// A value (its type is not `void`).
    value: bool,
    /// A pointer to an object (not `void *`, not a function pointer).
    object: bool,
    /// A pointer to a struct the program never completes (`DIR *`, glibc's
    /// `struct __dirstream`): `sizeof` of its pointee is an error, and the program cannot
    /// look inside it, so a fresh object of one byte stands for it.
    opaque: bool,
}

/// The struct (or union) tag a type specifier names, directly or through a typedef.
fn struct_tag<'a>(
    t: &'a TypeSpecifier,
    typedefs: &HashMap<&'a str, &'a TypeSpecifier>,
) -> Option<(&'a str, bool)> {
    match t {
        TypeSpecifier::Struct(st) => st
            .node
            .identifier
            .as_ref()
            .map(|i| (i.node.name.as_str(), st.node.declarations.is_some())),
        TypeSpecifier::TypedefName(n) => typedefs
            .get(n.node.name.as_str())
            .and_then(|t| struct_tag(t, &HashMap::new())),
        _ => None,
    }
}

/// What each function declared at file scope returns.
fn returns_value(decls: &[Node<ExternalDeclaration>]) -> HashMap<String, Returns> {
    let mut out = HashMap::new();
    // Typedefs of one type specifier, and the struct tags the program completes.
    let mut typedefs: HashMap<&str, &TypeSpecifier> = HashMap::new();
    let mut complete: HashSet<&str> = HashSet::new();
    for ext in decls {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let types: Vec<&TypeSpecifier> = d
            .node
            .specifiers
            .iter()
            .filter_map(|s| match &s.node {
                DeclarationSpecifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            })
            .collect();
        for t in &types {
            if let Some((tag, true)) = struct_tag(t, &HashMap::new()) {
                complete.insert(tag);
            }
        }
        if is_typedef(&d.node) && types.len() == 1 {
            for id in &d.node.declarators {
                if id.node.declarator.node.derived.is_empty() {
                    if let Some(n) = declarator_name(&id.node.declarator.node) {
                        typedefs.insert(n, types[0]);
                    }
                }
            }
        }
    }
    for ext in decls {
        let ExternalDeclaration::Declaration(d) = &ext.node else {
            continue;
        };
        let void = d.node.specifiers.iter().any(|s| {
            matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
        });
        for id in &d.node.declarators {
            let dd = &id.node.declarator.node;
            if !is_function_declarator(dd) {
                continue;
            }
            let Some(name) = declarator_name(dd) else {
                continue;
            };
            // `void *f(void)` returns a pointer; `T *f(void)` (T not void, or `void **`) a
            // pointer to an object.
            let pointers = dd
                .derived
                .iter()
                .take_while(|x| matches!(x.node, DerivedDeclarator::Pointer(_)))
                .count();
            let object = matches!(dd.kind.node, DeclaratorKind::Identifier(_))
                && pointers > 0
                && (!void || pointers > 1);
            let opaque = object
                && pointers == 1
                && d.node.specifiers.iter().any(|s| {
                    matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t)
                        if struct_tag(&t.node, &typedefs)
                            .is_some_and(|(tag, _)| !complete.contains(tag)))
                });
            out.insert(
                name.to_string(),
                Returns {
                    value: !void || pointers > 0,
                    object,
                    opaque,
                },
            );
        }
    }
    out
}

/// The prototype of a function definition (its address may still be used).
fn prototype(f: &Node<FunctionDefinition>) -> Node<ExternalDeclaration> {
    let span = f.span;
    let specifiers = f
        .node
        .specifiers
        .iter()
        .filter(|s| !matches!(s.node, DeclarationSpecifier::Function(_)))
        .cloned()
        .collect();
    node(
        ExternalDeclaration::Declaration(declare(
            specifiers,
            f.node.declarator.clone(),
            None,
            span,
        )),
        span,
    )
}

/// Parameter names and declarations of a function definition.
fn parameters(f: &FunctionDefinition) -> Vec<(String, ParameterDeclaration)> {
    let mut out = vec![];
    for d in &f.declarator.node.derived {
        if let DerivedDeclarator::Function(fd) = &d.node {
            for p in &fd.node.parameters {
                if let Some(decl) = &p.node.declarator {
                    if let Some(n) = declarator_name(&decl.node) {
                        out.push((n.to_string(), p.node.clone()));
                    }
                }
            }
        }
    }
    out
}

/// A copy of `f`'s body for slot `k`: locals and labels renamed, parameters declared and
/// assigned from the thread argument, returns turned into jumps to the end.
fn clone_routine(p: &mut Program, f: &FunctionDefinition, k: usize) -> Result<Node<Statement>> {
    let span = f.statement.span;
    let params = parameters(f);
    let names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
    let mut body = f.statement.clone();
    let mut r = Copier::new(&mut p.names, Rename::All);
    r.labels_on_demand = true;
    for n in &names {
        r.param(n);
    }
    r.body(&mut body);
    let renamed: Vec<(String, String)> = names
        .iter()
        .map(|n| (n.clone(), r.outer(n).unwrap_or(n).to_string()))
        .collect();
    let mut items: Vec<Node<BlockItem>> = vec![];
    for ((_, new), (_, pd)) in renamed.iter().zip(params.iter()) {
        let mut decl = pd.declarator.clone().expect("named parameter");
        if let Some(i) = declarator_name_mut(&mut decl.node) {
            i.name = new.clone();
        }
        params_to_pointers(&mut decl.node);
        items.push(decl_item(declare(pd.specifiers.clone(), decl, None, span)));
    }
    if k == 0 {
        main_arguments(p, &renamed, &body, f.declarator.span, &mut items);
    }
    // Only the first parameter of a start routine receives the argument.
    if k > 0 {
        if let Some((_, new)) = renamed.first() {
            let tn = type_name(&[typeof_expr(ident(new, span), span)], 0, span);
            let arg = abi::per_slot(abi::ARG, k, span);
            items.push(item(expr_stmt(assign(
                ident(new, span),
                cast(tn, arg, span),
                span,
            ))));
        }
    }
    let Ok(()) = visit_mut::stmt(&mut ReturnRewriter { slot: k }, &mut body);
    items.push(item(body));
    let end = end_label(k);
    if k == 0 {
        // Falling off `main` ends the process: no later context may run.
        items.push(item(assume(int(0, span), span)));
    }
    items.push(item(labeled(&end, empty_stmt(span), span)));
    Ok(block(items, span))
}

/// `main(argc, argv[, envp])` gets its arguments from the model (`__ladr_main_args`):
/// `argc` is 1 to 4, `argv` holds that many strings of nondeterministic characters.
/// Longer command lines are not explored: an `arguments` cut when `main` reads them.
fn main_arguments(
    p: &mut Program,
    params: &[(String, String)],
    body: &Node<Statement>,
    span: Span,
    items: &mut Vec<Node<BlockItem>>,
) {
    let values = [
        call(abi::MAIN_ARGS, vec![], span),
        ident(abi::ARGV, span),
        addr(index(ident(abi::ARGV, span), int(4, span), span), span),
    ];
    for ((_, name), value) in params.iter().zip(values) {
        items.push(item(expr_stmt(assign(ident(name, span), value, span))));
    }
    let names: Vec<&str> = params.iter().map(|(_, n)| n.as_str()).collect();
    if ladr_c::syntax::walk::mentions(body, &names) {
        p.cuts.push(Cut {
            kind: CutKind::Arguments,
            span,
        });
    }
}

/// Array and function parameters become pointers.
fn params_to_pointers(d: &mut Declarator) {
    if let Some(last) = d.derived.last_mut() {
        match &last.node {
            DerivedDeclarator::Array(_) => {
                last.node = DerivedDeclarator::Pointer(vec![]);
            }
            DerivedDeclarator::Function(_) | DerivedDeclarator::KRFunction(_) => {
                let span = last.span;
                let inner = std::mem::replace(
                    d,
                    Declarator {
                        kind: node(DeclaratorKind::Abstract, span),
                        derived: vec![],
                        extensions: vec![],
                    },
                );
                let fun = inner.derived.clone();
                let kind = inner.kind;
                *d = Declarator {
                    kind: node(
                        DeclaratorKind::Declarator(Box::new(node(
                            Declarator {
                                kind,
                                derived: vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                                extensions: vec![],
                            },
                            span,
                        ))),
                        span,
                    ),
                    derived: fun,
                    extensions: inner.extensions,
                };
            }
            _ => {}
        }
    }
}

/// What becomes of a thread's exit value `e` (of `return e;` or `pthread_exit(e)`): slot
/// k > 0 stores it for `pthread_join`, `__ladr_retval[k] = (void *)(e);`; in slot 0 it is
/// only evaluated, `e;` (its reads are data accesses), unless it is a constant.
fn exit_value(slot: usize, e: Node<Expression>, span: Span) -> Option<Node<Statement>> {
    if slot > 0 {
        Some(expr_stmt(assign(
            abi::per_slot(abi::RETVAL, slot, span),
            cast(type_name(&[TypeSpecifier::Void], 1, span), e, span),
            span,
        )))
    } else if is_constant(&e.node, &HashSet::new()) {
        None
    } else {
        Some(expr_stmt(e))
    }
}

/// `&x`: an address, no access.
fn is_address_of_name(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Address
            && matches!(u.node.operand.node, Expression::Identifier(_)))
}

/// `return e;` → `__ladr_retval[k] = (void *)(e); goto __ladr_endK;` (in main: `goto` to the
/// process end, which is followed by the `assume(0)`).
struct ReturnRewriter {
    slot: usize,
}

impl VisitorMut for ReturnRewriter {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Return(e) = &mut s.node {
            let span = s.span;
            let mut stmts = vec![];
            if let Some(e) = e.take() {
                stmts.extend(exit_value(self.slot, *e, span));
            }
            let target = if self.slot == 0 {
                // `return` from main = `exit`: the process ends here.
                stmts.push(assume(int(0, span), span));
                end_label(0)
            } else {
                end_label(self.slot)
            };
            stmts.push(goto(&target, span));
            *s = block_of(stmts, span);
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

/// Moves every declaration of a slot body to `statics`, made `static` (values must survive
/// between contexts). Returns the names of the formerly automatic locals. A typedef of the
/// body moves with them (the locals declared with it need it at file scope), renamed to a
/// fresh name so that the copies of one routine in several slots, and other functions'
/// typedefs of the same name, do not clash.
fn make_locals_static(
    body: &mut Node<Statement>,
    statics: &mut Vec<Node<Declaration>>,
    enumerators: &HashSet<String>,
    names: &mut Names,
) -> Result<Vec<String>> {
    rename_local_typedefs(body, names)?;
    struct Hoist<'a> {
        out: &'a mut Vec<Node<Declaration>>,
        enumerators: &'a HashSet<String>,
        autos: Vec<String>,
    }
    impl Hoist<'_> {
        fn autos_of(&mut self, d: &Node<Declaration>) {
            self.autos.extend(
                d.node
                    .declarators
                    .iter()
                    .filter_map(|id| declarator_name(&id.node.declarator.node).map(str::to_string)),
            );
        }
    }
    impl VisitorMut for Hoist<'_> {
        type Error = Error;
        fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
            let Statement::Compound(items) = &mut s.node else {
                return Ok(Walk::Descend);
            };
            let mut kept = vec![];
            for mut it in std::mem::take(items) {
                let BlockItem::Declaration(d) = &mut it.node else {
                    visit_mut::block_item(self, &mut it)?;
                    kept.push(it);
                    continue;
                };
                if is_typedef(&d.node) {
                    // Renamed apart by `rename_local_typedefs`.
                    self.out.push(d.clone());
                    continue;
                }
                if is_typedef_or_extern(&d.node) {
                    // Extern declarations stay where they are.
                    kept.push(it);
                    continue;
                }
                let was_static = make_static(d, self.enumerators)?;
                if type_has_statement_expression(&d.node) {
                    // `__typeof__(({ ... }))` (a temporary of a statement expression) is
                    // only valid inside a function: made static where it is.
                    self.autos_of(d);
                    kept.push(it);
                    continue;
                }
                if was_static {
                    // One object for all slots: `inline` hoists every static local to
                    // file scope before any body is copied.
                    return Err(Error::unsupported(
                        d.span,
                        "a static local left in a thread body (ladr bug: `inline` hoists them)",
                    ));
                }
                self.autos_of(d);
                self.out.push(d.clone());
            }
            *items = kept;
            Ok(Walk::Skip)
        }
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
            // Statement expressions keep their own declarations.
            Ok(match e.node {
                Expression::Statement(_) => Walk::Skip,
                _ => Walk::Descend,
            })
        }
    }
    let mut h = Hoist {
        out: statics,
        enumerators,
        autos: vec![],
    };
    visit_mut::stmt(&mut h, body)?;
    Ok(h.autos)
}

fn is_typedef(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::Typedef)
    })
}

/// Gives every typedef declared in `body` (outside statement expressions) a fresh name, and
/// its uses in `body` that name. Two typedefs of one name in one body are unsupported.
fn rename_local_typedefs(body: &mut Node<Statement>, names: &mut Names) -> Result<()> {
    struct Find<'a> {
        names: &'a mut Names,
        map: HashMap<String, String>,
    }
    impl VisitorMut for Find<'_> {
        type Error = Error;
        fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk> {
            if !is_typedef(&d.node) {
                return Ok(Walk::Descend);
            }
            for id in &mut d.node.declarators {
                let Some(old) = declarator_name(&id.node.declarator.node).map(str::to_string)
                else {
                    continue;
                };
                if self.map.contains_key(&old) {
                    return Err(Error::unsupported(
                        d.span,
                        format!("two local typedefs named `{old}` in one thread"),
                    ));
                }
                let new = self.names.local(&old);
                rename_declarator(&mut id.node.declarator.node, &new);
                self.map.insert(old, new);
            }
            Ok(Walk::Descend)
        }
        fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
            Ok(match e.node {
                Expression::Statement(_) => Walk::Skip,
                _ => Walk::Descend,
            })
        }
    }
    struct Use<'a>(&'a HashMap<String, String>);
    impl VisitorMut for Use<'_> {
        type Error = Infallible;
        fn type_specifier(
            &mut self,
            t: &mut Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            if let TypeSpecifier::TypedefName(n) = &mut t.node {
                if let Some(new) = self.0.get(&n.node.name) {
                    n.node.name = new.clone();
                }
            }
            Ok(Walk::Descend)
        }
    }
    let mut f = Find {
        names,
        map: HashMap::new(),
    };
    visit_mut::stmt(&mut f, body)?;
    if !f.map.is_empty() {
        let Ok(()) = visit_mut::stmt(&mut Use(&f.map), body);
    }
    Ok(())
}

/// Renames the identifier a declarator declares.
fn rename_declarator(d: &mut Declarator, new: &str) {
    match &mut d.kind.node {
        DeclaratorKind::Identifier(i) => i.node.name = new.to_string(),
        DeclaratorKind::Declarator(inner) => rename_declarator(&mut inner.node, new),
        DeclaratorKind::Abstract => {}
    }
}

/// True if a declaration's specifiers contain a GNU statement expression (in `__typeof__`).
fn type_has_statement_expression(d: &Declaration) -> bool {
    struct Finder;
    impl Visitor for Finder {
        /// Found one.
        type Error = ();
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, ()> {
            match e.node {
                Expression::Statement(_) => Err(()),
                _ => Ok(Walk::Descend),
            }
        }
    }
    d.specifiers
        .iter()
        .any(|s| visit::decl_specifier(&mut Finder, s).is_err())
}

/// `name(...)`: declares a function (not a pointer to one).
fn is_function_declarator(d: &Declarator) -> bool {
    matches!(
        d.derived.last().map(|x| &x.node),
        Some(DerivedDeclarator::Function(_)) | Some(DerivedDeclarator::KRFunction(_))
    ) && matches!(d.kind.node, DeclaratorKind::Identifier(_))
}

fn is_typedef_or_extern(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if matches!(sc.node, StorageClassSpecifier::Typedef | StorageClassSpecifier::Extern))
    }) || d
        .declarators
        .iter()
        .all(|id| is_function_declarator(&id.node.declarator.node))
        && !d.declarators.is_empty()
}

/// Makes `d` static; returns whether it already was.
fn make_static(d: &mut Node<Declaration>, enumerators: &HashSet<String>) -> Result<bool> {
    let was_static = d.node.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc) if sc.node == StorageClassSpecifier::Static)
    });
    d.node.specifiers.retain(|s| {
        !matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if matches!(sc.node, StorageClassSpecifier::Auto | StorageClassSpecifier::Register | StorageClassSpecifier::Static))
    });
    // A top-level `const` on an automatic local would make its assignments invalid.
    if !was_static {
        d.node.specifiers.retain(|s| {
            !matches!(&s.node, DeclarationSpecifier::TypeQualifier(q) if q.node == TypeQualifier::Const)
        });
    }
    for id in &mut d.node.declarators {
        if !was_static {
            bound_vla(&mut id.node.declarator, enumerators);
        }
        if !was_static && id.node.initializer.is_some() {
            // Normal form N4 leaves only constant initialisers here (e.g. `char s[] = "..";`),
            // which mean the same for a static in a bounded, once-run body.
        }
    }
    let span = d.span;
    d.node
        .specifiers
        .insert(0, storage(StorageClassSpecifier::Static, span));
    Ok(was_static)
}

/// Elements given to a variable-length array local of a thread when it becomes static.
/// A bounded program runs loops at most `--max-unwind` (default 100) times, so indices
/// beyond this are out of the array's bounds in the executions ladr explores anyway, unless
/// computed from large values; `sizeof` such an array is this capacity, not its length.
pub const VLA_CAPACITY: u64 = 256;

/// Gives every variable-length array dimension of `d` the constant [`VLA_CAPACITY`] (a
/// static cannot have a variable length). The length expression had no side effects
/// (`normalise` hoists them), so dropping it changes nothing else.
fn bound_vla(d: &mut Node<Declarator>, enumerators: &HashSet<String>) {
    if let DeclaratorKind::Declarator(inner) = &mut d.node.kind.node {
        bound_vla(inner, enumerators);
    }
    for dd in &mut d.node.derived {
        if let DerivedDeclarator::Array(a) = &mut dd.node {
            if let ArraySize::VariableExpression(e) = &mut a.node.size {
                if !is_constant(&e.node, enumerators) {
                    let span = e.span;
                    **e = int(VLA_CAPACITY, span);
                }
            }
        }
    }
}

/// `e` if it reads a local of `constants`: its value there, as [`folded`] puts it.
fn constant_read(
    e: &Node<Expression>,
    constants: &HashMap<String, Node<Expression>>,
) -> Option<Node<Expression>> {
    let x = ident_name(e)?;
    Some(folded(x, constants.get(x)?.clone(), e.span))
}

/// The ladr-named locals of a slot body assigned exactly once (`once`) whose value is a
/// constant expression once the values of other such locals are put in for their reads,
/// with that expression: after `n = 600; size = n + 2200;` (an inlined allocator's
/// parameters) `size` holds `(__typeof__(n))(600) + 2200`. A read replaced keeps its
/// variable's type ([`folded`]).
fn once_constants(
    once: &HashMap<String, Node<Expression>>,
    enumerators: &HashSet<String>,
) -> HashMap<String, Node<Expression>> {
    struct Subst<'a>(&'a HashMap<String, Node<Expression>>);
    impl VisitorMut for Subst<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Some(v) = constant_read(e, self.0) {
                *e = v;
                return Ok(Walk::Skip);
            }
            Ok(Walk::Descend)
        }
    }
    let mut names: Vec<&String> = once
        .keys()
        .filter(|n| n.starts_with(ladr_c::syntax::names::PREFIX))
        .collect();
    names.sort();
    let mut known: HashMap<String, Node<Expression>> = HashMap::new();
    loop {
        let mut grew = false;
        for n in &names {
            if known.contains_key(*n) {
                continue;
            }
            let mut v = once[*n].clone();
            let Ok(()) = visit_mut::expr(&mut Subst(&known), &mut v);
            if is_constant(&v.node, enumerators) {
                known.insert((*n).clone(), v);
                grew = true;
            }
        }
        if !grew {
            return known;
        }
    }
}

/// An integer constant expression ([`ladr_c::syntax::constant`]) whose names are
/// `enumerators`.
fn is_constant(e: &Expression, enumerators: &HashSet<String>) -> bool {
    constant::is_constant(e, &constant::Env::enumerators(enumerators))
}

/// Every enumeration constant declared in the program (at file scope or in a function).
fn enumerators(
    others: &[Node<ExternalDeclaration>],
    defs: &HashMap<String, FunctionDefinition>,
) -> HashSet<String> {
    #[derive(Default)]
    struct E(HashSet<String>);
    impl Visitor for E {
        type Error = Infallible;
        fn type_specifier(
            &mut self,
            t: &Node<TypeSpecifier>,
        ) -> std::result::Result<Walk, Infallible> {
            if let TypeSpecifier::Enum(en) = &t.node {
                for e in &en.node.enumerators {
                    self.0.insert(e.node.identifier.node.name.clone());
                }
            }
            Ok(Walk::Descend)
        }
    }
    // A function's specifiers too: an enum may be defined in its return type.
    fn function(v: &mut E, f: &FunctionDefinition) -> std::result::Result<(), Infallible> {
        for s in &f.specifiers {
            visit::decl_specifier(v, s)?;
        }
        visit::declarator(v, &f.declarator)?;
        for d in &f.declarations {
            visit::declaration(v, d)?;
        }
        visit::stmt(v, &f.statement)
    }
    let mut v = E::default();
    for ext in others {
        let Ok(()) = match &ext.node {
            ExternalDeclaration::Declaration(d) => visit::declaration(&mut v, d),
            ExternalDeclaration::StaticAssert(_) => Ok(()),
            ExternalDeclaration::FunctionDefinition(f) => function(&mut v, &f.node),
        };
    }
    for f in defs.values() {
        let Ok(()) = function(&mut v, f);
    }
    v.0
}

/// Rewrites the pthread calls of one slot body.
struct SlotCtx<'a> {
    slot: usize,
    defs: &'a HashMap<String, FunctionDefinition>,
    p: &'a mut Program,
    slots: &'a mut Vec<Slot>,
    /// New slots created in this body: (slot, routine).
    new: Vec<(usize, String)>,
    chain: &'a [String],
    unwind: u32,
    /// `pthread_key_create` sites seen so far, in all slots.
    key_sites: &'a mut usize,
    /// The key destructors (numbered from 1 in the model).
    dtors: &'a [Destructor],
    /// `Options::malloc_may_fail`.
    malloc_may_fail: bool,
    /// The body's locals assigned once, by a constant expression (a size that an
    /// inlined `external_alloc(sizeof(struct s))` passes to `malloc`), also one made of
    /// other such locals, with it ([`once_constants`]); "constant" as the `malloc` size
    /// test below has it.
    constants: HashMap<String, Node<Expression>>,
    /// Locals assigned once, with a function the program defines: a start routine (or
    /// once-routine) passed through a parameter of a helper (`spawn(worker, arg)`), known
    /// once the helper is inlined.
    routines: HashMap<String, String>,
    /// Variables that hold one function all along ([`function_values`]): a key destructor
    /// passed through a helper's parameter or a function pointer global.
    dtor_values: HashMap<String, String>,
    /// Whether each function declared at file scope returns a value (not `void`); a callee
    /// not listed (a function pointer variable) invents no assumption here.
    returns_value: &'a HashMap<String, Returns>,
    /// The span of the call whose statement discards its result (`f(x);`).
    discarded: Option<Span>,
    /// The call whose statement is being walked after its hidden-state access was put in
    /// front of it ([`SlotCtx::libc_state_access`]).
    libc_call: Option<Span>,
    /// A call was turned into one of `model/libc.c`.
    libc_used: bool,
    /// The program makes byte channels (`pipe`, `socketpair`): its descriptor I/O goes
    /// through the model ([`library::channel_io`]).
    channels: bool,
}

/// Does the unit call one of `names`?
fn calls_any(unit: &TranslationUnit, names: &[&str]) -> bool {
    struct F<'a>(&'a [&'a str]);
    impl Visitor for F<'_> {
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
    visit::unit(&mut F(names), unit).is_err()
}

/// A pthread call at the top of a statement: `[lv =] f(args);`.
fn top_call(s: &Statement) -> Option<(Option<&Node<Expression>>, &CallExpression, Span)> {
    let Statement::Expression(Some(e)) = s else {
        return None;
    };
    match &e.node {
        Expression::Call(c) => Some((None, &c.node, c.span)),
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Assign => {
            match &b.node.rhs.node {
                Expression::Call(c) => Some((Some(&*b.node.lhs), &c.node, c.span)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The function a start-routine argument names: `f`, `&f`, `(T) f`.
pub(crate) fn routine_name(e: &Expression) -> Option<&str> {
    match e {
        Expression::Identifier(i) => Some(&i.node.name),
        Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
            routine_name(&u.node.operand.node)
        }
        Expression::Cast(c) => routine_name(&c.node.expression.node),
        _ => None,
    }
}

/// pthread functions that need no model: they succeed and change no state ladr tracks.
const NO_EFFECT: &[&str] = &[
    "pthread_detach",
    "pthread_cond_signal",
    "pthread_cond_broadcast",
    "pthread_cond_init",
    "pthread_cond_destroy",
    "pthread_mutex_destroy",
    "pthread_rwlock_destroy",
    "pthread_spin_destroy",
    "pthread_barrier_destroy",
    "pthread_yield",
    // No thread is ever cancelled (`pthread_cancel` is unsupported).
    "pthread_testcancel",
    "sched_yield",
    "pthread_setname_np",
    "pthread_setcancelstate",
    "pthread_setcanceltype",
    "pthread_sigmask",
];

const NO_EFFECT_PREFIX: &[&str] = &[
    "pthread_attr_",
    "pthread_mutexattr_",
    "pthread_condattr_",
    "pthread_rwlockattr_",
    "pthread_barrierattr_",
];

impl SlotCtx<'_> {
    /// The function a start-routine argument names: directly (`worker`, `&worker`, a cast)
    /// or through a local assigned it once (an inlined helper's parameter).
    fn routine(&self, e: &Expression) -> Option<String> {
        let name = routine_name(e)?;
        Some(
            self.routines
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string()),
        )
    }

    fn rewrite(&mut self, s: &Node<Statement>) -> Result<Option<Vec<Node<Statement>>>> {
        let Some((lv, ce, cspan)) = top_call(&s.node) else {
            return Ok(None);
        };
        let Some(name) = callee_name(ce) else {
            return Ok(None);
        };
        let span = s.span;
        let k = self.slot as u64;
        let a = &ce.arguments;
        let arg = |i: usize| -> Result<Node<Expression>> {
            a.get(i).cloned().ok_or_else(|| {
                Error::unsupported(cspan, format!("`{name}` with too few arguments"))
            })
        };
        let with_lv = |e: Node<Expression>| -> Node<Statement> {
            match lv {
                Some(l) => expr_stmt(assign(l.clone(), e, span)),
                None => expr_stmt(e),
            }
        };
        let model =
            |f: &str, args: Vec<Node<Expression>>| call(&abi::model_function(f), args, cspan);
        let failure = library::allocation_failure(name).filter(|_| !self.defs.contains_key(name));
        if let Some(failure) = failure.filter(|_| self.malloc_may_fail) {
            // `{ _Bool t; t = __VERIFIER_nondet_bool(); if (t) lv = 0; else lv = f(...); }`:
            // an allocation fails (a null pointer, `realloc`'s block kept; `posix_memalign`
            // returns ENOMEM and writes nothing) or succeeds.
            let failed = match (failure, lv) {
                (_, None) if failure == library::AllocationFailure::Null => {
                    return Ok(None); // the result is not used: failing changes nothing
                }
                (_, None) => None,
                (library::AllocationFailure::Null, Some(lv)) => {
                    Some(expr_stmt(assign(lv.clone(), int(0, span), span)))
                }
                (library::AllocationFailure::ErrorNumber, Some(lv)) => Some(expr_stmt(assign(
                    lv.clone(),
                    int(library::ENOMEM, span),
                    span,
                ))),
            };
            let mut c = node(Expression::Call(Box::new(node(ce.clone(), cspan))), cspan);
            visit_mut::expr(self, &mut c)?;
            let succeeded = expr_stmt(match lv {
                Some(lv) => assign(lv.clone(), c, span),
                None => c,
            });
            let t = self.p.names.temp();
            let bool_ty = [TypeSpecifier::Bool];
            let branch = match failed {
                Some(failed) => if_stmt(ident(&t, span), failed, Some(succeeded), span),
                None => if_stmt(not(ident(&t, span), span), succeeded, None, span),
            };
            let items = vec![
                decl_item(simple_decl(&bool_ty, &t, None, false, None, span)),
                item(expr_stmt(assign(
                    ident(&t, span),
                    call(abi::NONDET_BOOL, vec![], span),
                    span,
                ))),
                item(branch),
            ];
            return Ok(Some(vec![block(items, span)]));
        }
        let out: Vec<Node<Statement>> = match name {
            "pthread_create" => {
                let routine = self.routine(&arg(2)?.node);
                let Some(routine) = routine.filter(|r| self.defs.contains_key(r)) else {
                    return Err(Error::unsupported(
                        a[2].span,
                        "a start routine that is not a function defined in the program",
                    )
                    .note(
                        "ladr needs to know statically which function each pthread_create starts",
                    ));
                };
                let same = self.chain.iter().filter(|r| **r == routine).count() as u32;
                if self.slots.len() >= MAX_SLOTS || same > self.unwind {
                    self.p.cuts.push(Cut {
                        kind: if same > self.unwind {
                            CutKind::ThreadNesting
                        } else {
                            CutKind::ThreadCount
                        },
                        span: cspan,
                    });
                    vec![assume(int(0, span), span)]
                } else {
                    let nk = self.slots.len();
                    self.slots.push(Slot {
                        index: nk,
                        function: slot_function(nk),
                        routine: routine.clone(),
                        created_at: Some(cspan),
                        parent: Some(self.slot),
                    });
                    self.new.push((nk, routine));
                    vec![with_lv(model(
                        "pthread_create",
                        vec![arg(0)?, int(nk as u64, cspan), arg(3)?],
                    ))]
                }
            }
            "pthread_join" => {
                // The joining thread stores the exit value: a data write in the user's code.
                let tid = arg(0)?;
                let out = arg(1)?;
                let value = index(ident(abi::RETVAL, cspan), tid.clone(), cspan);
                let mut v = vec![with_lv(model("pthread_join", vec![tid]))];
                match out.node {
                    e if constant::is_null_pointer_constant(&e) => {}
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        let target = *u.node.operand;
                        let ty = type_name(&[typeof_expr(target.clone(), cspan)], 0, cspan);
                        v.push(expr_stmt(assign(target, cast(ty, value, cspan), cspan)));
                    }
                    e => {
                        let p = node(e, out.span);
                        let slot = deref(
                            cast(
                                type_name(&[TypeSpecifier::Void], 2, cspan),
                                p.clone(),
                                cspan,
                            ),
                            cspan,
                        );
                        v.push(if_stmt(
                            p,
                            expr_stmt(assign(slot, value, cspan)),
                            None,
                            cspan,
                        ));
                    }
                }
                v
            }
            "pthread_mutex_lock"
            | "pthread_spin_lock"
            | "pthread_mutex_trylock"
            | "pthread_spin_trylock"
            | "pthread_mutex_unlock" => {
                vec![with_lv(model(name, vec![arg(0)?, int(k, cspan)]))]
            }
            "pthread_mutex_timedlock" => {
                vec![with_lv(model(
                    "pthread_mutex_trylock",
                    vec![arg(0)?, int(k, cspan)],
                ))]
            }
            "pthread_spin_unlock" | "pthread_mutexattr_init" => {
                vec![with_lv(model(name, vec![arg(0)?]))]
            }
            "pthread_mutex_init" | "pthread_mutexattr_settype" => {
                vec![with_lv(model(name, vec![arg(0)?, arg(1)?]))]
            }
            "pthread_spin_init" | "pthread_rwlock_init" => {
                vec![with_lv(model("pthread_spin_init", vec![arg(0)?]))]
            }
            "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_tryrdlock"
            | "pthread_rwlock_trywrlock"
            | "pthread_rwlock_unlock" => {
                vec![with_lv(model(name, vec![arg(0)?]))]
            }
            "pthread_cond_wait" | "pthread_cond_timedwait" => vec![
                expr_stmt(model("pthread_mutex_unlock", vec![arg(1)?, int(k, cspan)])),
                with_lv(model("pthread_mutex_lock", vec![arg(1)?, int(k, cspan)])),
            ],
            "pthread_barrier_init" => {
                vec![with_lv(model(
                    "pthread_barrier_init",
                    vec![arg(0)?, arg(2)?],
                ))]
            }
            "pthread_barrier_wait" => vec![
                expr_stmt(model("pthread_barrier_arrive", vec![arg(0)?])),
                with_lv(model("pthread_barrier_leave", vec![arg(0)?])),
            ],
            "pthread_key_create" => {
                // Each site runs at most once in the bounded program, so the number of sites
                // bounds the number of keys: the model's table never runs out.
                *self.key_sites += 1;
                if *self.key_sites > MAX_KEYS {
                    return Err(Error::unsupported(
                        cspan,
                        format!(
                            "more than {MAX_KEYS} pthread_key_create calls in the bounded program"
                        ),
                    ));
                }
                let destructor = arg(1)?;
                let dtor = if constant::is_null_pointer_constant(&destructor.node) {
                    None
                } else {
                    let n = destructor_function(&destructor.node, &self.dtor_values, self.defs)
                        .and_then(|n| self.dtors.iter().position(|d| d.name == n));
                    let Some(n) = n else {
                        return Err(Error::unsupported(
                            destructor.span,
                            "a pthread_key_create destructor that is neither a function defined \
                             in the program nor `free`, nor a variable that holds one all along",
                        )
                        .note(
                            "destructors run when a thread exits; ladr will not ignore their \
                             accesses",
                        ));
                    };
                    Some(n + 1)
                };
                // The key is stored by the calling thread: a data write to `*key`.
                let target = match arg(0)?.node {
                    Expression::UnaryOperator(u)
                        if u.node.operator.node == UnaryOperator::Address =>
                    {
                        *u.node.operand
                    }
                    e => deref(node(e, a[0].span), a[0].span),
                };
                let create = match dtor {
                    None => model("pthread_key_create", vec![]),
                    Some(d) => model("pthread_key_create_dtor", vec![int(d as u64, cspan)]),
                };
                let mut v = vec![expr_stmt(assign(target, create, span))];
                if lv.is_some() {
                    v.push(with_lv(int(0, cspan)));
                }
                v
            }
            "pthread_setspecific" => vec![with_lv(model(
                "pthread_setspecific",
                vec![arg(0)?, arg(1)?, int(k, cspan)],
            ))],
            "pthread_getspecific" => vec![with_lv(model(
                "pthread_getspecific",
                vec![arg(0)?, int(k, cspan)],
            ))],
            "pthread_key_delete" => vec![with_lv(model("pthread_key_delete", vec![arg(0)?]))],
            "pthread_cancel" => {
                return Err(Error::unsupported(cspan, "pthread_cancel").note(
                    "a cancelled thread stops at its next cancellation point and runs its \
                     cleanup handlers; ladr does not model that, and ignoring the call could \
                     hide races (e.g. after a join that only a cancellation lets return)",
                ));
            }
            "sem_init" => vec![with_lv(model("pthread_sem_init", vec![arg(0)?, arg(2)?]))],
            "sem_wait" => vec![with_lv(model("pthread_sem_wait", vec![arg(0)?]))],
            // A wait with a time limit returns -1 at the limit when the semaphore is still 0
            // (no synchronisation then), or takes it: `sem_trywait` whenever it runs, as
            // `pthread_mutex_timedlock` is `trylock` (waiting is a schedule in which the
            // thread runs later). It was `sem_wait`, which never times out, hiding the races
            // after a timed-out wait.
            "sem_trywait" | "sem_timedwait" | "sem_clockwait" => {
                vec![with_lv(model("pthread_sem_trywait", vec![arg(0)?]))]
            }
            "sem_post" => vec![with_lv(model("pthread_sem_post", vec![arg(0)?]))],
            "sem_destroy" => vec![with_lv(int(0, cspan))],
            // Its handlers run only around `fork`, which ladr refuses: registering them
            // does nothing to the threads.
            "pthread_atfork" => vec![with_lv(int(0, cspan))],
            "pthread_self" => vec![with_lv(int(k, cspan))],
            "pthread_equal" => vec![with_lv(eq(arg(0)?, arg(1)?, cspan))],
            "pthread_exit" => {
                let mut v: Vec<_> = exit_value(self.slot, arg(0)?, span).into_iter().collect();
                v.push(goto(&end_label(self.slot), span));
                v
            }
            "pthread_once" => {
                let routine = self.routine(&arg(1)?.node);
                let Some(def) = routine.and_then(|r| self.defs.get(&r)) else {
                    return Err(Error::unsupported(
                        cspan,
                        "pthread_once with a routine that is not a function defined in the program",
                    ));
                };
                let mut body = def.statement.clone();
                let mut r = Copier::new(&mut self.p.names, Rename::All);
                r.labels_on_demand = true;
                r.body(&mut body);
                let end = self.p.names.label("once_end");
                let Ok(()) = visit_mut::stmt(&mut OnceReturns { end: end.clone() }, &mut body);
                visit_mut::stmt(self, &mut body)?;
                let t = self.p.names.temp();
                let tspan = cspan;
                vec![block(
                    vec![
                        decl_item(simple_decl(
                            &[TypeSpecifier::Int],
                            &t,
                            None,
                            false,
                            None,
                            tspan,
                        )),
                        item(expr_stmt(assign(
                            ident(&t, tspan),
                            model("pthread_once", vec![arg(0)?]),
                            tspan,
                        ))),
                        item(if_stmt(
                            ident(&t, tspan),
                            block_of(
                                vec![
                                    body,
                                    labeled(&end, empty_stmt(tspan), tspan),
                                    expr_stmt(model("pthread_once_done", vec![arg(0)?])),
                                ],
                                tspan,
                            ),
                            None,
                            tspan,
                        )),
                        item(with_lv(int(0, tspan))),
                    ],
                    span,
                )]
            }
            n if NO_EFFECT.contains(&n) || NO_EFFECT_PREFIX.iter().any(|p| n.starts_with(p)) => {
                // The arguments are still evaluated (`pthread_detach(t)` reads `t`).
                let mut v: Vec<_> = a
                    .iter()
                    .filter(|e| !is_constant(&e.node, &HashSet::new()) && !is_address_of_name(e))
                    .map(|e| expr_stmt(e.clone()))
                    .collect();
                if lv.is_some() {
                    v.push(with_lv(int(0, cspan)));
                }
                if v.is_empty() {
                    v.push(empty_stmt(span));
                }
                v
            }
            n if is_c11_thread_function(n) => {
                return Err(Error::unsupported(
                    cspan,
                    format!("the C11 <threads.h> function `{n}`"),
                )
                .note(
                    "ladr models POSIX threads only; ignoring C11 threads would check a \
                     program without its threads, or its locks (write it with <pthread.h>)",
                ));
            }
            "fork" | "vfork" | "clone" | "clone3" | "posix_spawn" | "posix_spawnp" | "daemon" => {
                return Err(Error::unsupported(cspan, format!("`{name}`")).note(
                    "a child process has its own copy of memory: ladr checks the threads of \
                     one process and would take the child's accesses for a thread's",
                ));
            }
            n if n.starts_with("pthread_") || n.starts_with("sem_") => {
                return Err(Error::unsupported(
                    cspan,
                    format!("the pthread function `{n}`"),
                ));
            }
            _ => return Ok(None),
        };
        Ok(Some(out))
    }
}

impl SlotCtx<'_> {
    /// For a statement calling an MT-Unsafe C library function that has no body in the
    /// program (`[lv =] strtok(…);`, [`library::libc_state`]): the access of its hidden
    /// state, a statement at the call's span that writes (`__ladr_libc_strtok = 0;`) or
    /// reads (`__ladr_libc_environ;`) the object standing for it, recorded in
    /// [`Program::libc_calls`], and the call's span. An ordinary access of a global: the
    /// later passes make it visible, find it race-free (only read, one thread's, under one
    /// mutex) or instrument it like any other.
    fn libc_state_access(&mut self, s: &Node<Statement>) -> Option<(Node<Statement>, Span)> {
        let (_, c, cspan) = top_call(&s.node)?;
        let n = callee_name(c)?;
        let (group, effect) = library::libc_state(n)?;
        if self.libc_call == Some(cspan) || self.defs.contains_key(n) {
            return None;
        }
        self.p.libc_calls.insert(cspan.into(), n.to_string());
        let object = ident(&abi::libc_state(group), cspan);
        let access = match effect {
            library::Effect::Write => assign(object, int(0, cspan), cspan),
            library::Effect::Read => object,
        };
        Some((expr_stmt(access), cspan))
    }
}

/// Is `n` a function of C11's `<threads.h>` that creates, joins or synchronises threads
/// (C11 7.26: `thrd_*` but `thrd_sleep`/`thrd_yield`, `mtx_*`, `cnd_*`, `call_once`,
/// `tss_*`)?
fn is_c11_thread_function(n: &str) -> bool {
    let thread = n.starts_with("thrd_") && !matches!(n, "thrd_sleep" | "thrd_yield");
    thread || n == "call_once" || ["mtx_", "cnd_", "tss_"].iter().any(|p| n.starts_with(p))
}

/// `return;` in a `pthread_once` routine → `goto end`.
struct OnceReturns {
    end: String,
}

impl VisitorMut for OnceReturns {
    type Error = Infallible;
    fn stmt(&mut self, s: &mut Node<Statement>) -> std::result::Result<Walk, Infallible> {
        if let Statement::Return(_) = s.node {
            *s = goto(&self.end, s.span);
            return Ok(Walk::Skip);
        }
        Ok(Walk::Descend)
    }
    fn expr(&mut self, _e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
        Ok(Walk::Skip)
    }
}

impl VisitorMut for SlotCtx<'_> {
    type Error = Error;
    // Operands of `sizeof`, `_Alignof` and `__typeof__` are not evaluated: a pthread call
    // there (`__typeof__(pthread_self()) t;`, a temporary of `normalise`) stays as it is.
    const UNEVALUATED: bool = false;

    fn stmt(&mut self, s: &mut Node<Statement>) -> Result<Walk> {
        if let Some((access, cspan)) = self.libc_state_access(s) {
            // `{ __ladr_libc_strtok = 0; w = strtok(l, " "); }`, the call rewritten as any.
            self.libc_call = Some(cspan);
            let walked = visit_mut::stmt(self, s);
            self.libc_call = None;
            walked?;
            let span = s.span;
            let call = std::mem::replace(s, empty_stmt(span));
            *s = block_of(vec![access, call], span);
            return Ok(Walk::Skip);
        }
        // A call whose result is discarded invents nothing the program uses.
        if let Some((None, _, cspan)) = top_call(&s.node) {
            self.discarded = Some(cspan);
        }
        match self.rewrite(s)? {
            Some(mut stmts) => {
                let span = s.span;
                *s = if stmts.len() == 1 {
                    stmts.pop().unwrap()
                } else {
                    block_of(stmts, span)
                };
                Ok(Walk::Skip)
            }
            None => Ok(Walk::Descend),
        }
    }

    // Only declarators and initialisers: the specifiers' expressions are not evaluated
    // here (`__typeof__`) or are constants (enumerators, bit-field widths).
    fn declaration(&mut self, d: &mut Node<Declaration>) -> Result<Walk> {
        for id in &mut d.node.declarators {
            visit_mut::declarator(self, &mut id.node.declarator)?;
            if let Some(i) = &mut id.node.initializer {
                visit_mut::initializer(self, i)?;
            }
        }
        Ok(Walk::Skip)
    }

    fn type_name(&mut self, _t: &mut Node<TypeName>) -> Result<Walk> {
        Ok(Walk::Skip)
    }

    fn expr(&mut self, e: &mut Node<Expression>) -> Result<Walk> {
        if let Expression::Call(c) = &mut e.node {
            if let Some(n) = callee_name(&c.node).map(str::to_string) {
                let n = n.as_str();
                if n.starts_with("pthread_") || n.starts_with("sem_") {
                    return Err(Error::unsupported(
                        c.span,
                        format!("a call of `{n}` inside an expression"),
                    ));
                }
                // Each thread's own errno; C library functions ladr models.
                if n == library::ERRNO_LOCATION {
                    *c.node.callee = ident(&abi::model_function(n), c.node.callee.span);
                    c.node.arguments.push(int(self.slot as u64, c.span));
                    self.libc_used = true;
                    return Ok(Walk::Descend);
                }
                if library::libc_model(n) || (self.channels && library::channel_io(n)) {
                    *c.node.callee = ident(&abi::model_function(n), c.node.callee.span);
                    self.libc_used = true;
                    return Ok(Walk::Descend);
                }
                // Allocation functions CBMC does not model: the one that does their job
                // (an alignment that is not a constant is still evaluated).
                if let Some(to) =
                    library::allocation_alias(n).filter(|_| !self.defs.contains_key(n))
                {
                    let span = c.span;
                    let args = std::mem::take(&mut c.node.arguments);
                    let mut args = args.into_iter();
                    let (Some(first), Some(second)) = (args.next(), args.next()) else {
                        return Err(Error::unsupported(
                            span,
                            format!("`{n}` with too few arguments"),
                        ));
                    };
                    c.node.arguments = if to == "realloc" {
                        let Some(size) = args.next() else {
                            return Err(Error::unsupported(
                                span,
                                format!("`{n}` with too few arguments"),
                            ));
                        };
                        vec![first, binop(BinaryOperator::Multiply, second, size, span)]
                    } else if is_constant(&first.node, &HashSet::new()) {
                        vec![second]
                    } else {
                        vec![comma(vec![first, second], span)]
                    };
                    *c.node.callee = ident(to, c.node.callee.span);
                    return self.expr(e);
                }
                // C library string functions whose CBMC model loops: the model's bounded
                // ones (`model/string.c`).
                if library::has_model(n) && !self.defs.contains_key(n) {
                    let span = c.node.callee.span;
                    *c.node.callee = ident(&abi::model_function(n), span);
                    return Ok(Walk::Descend);
                }
                let returns = self.returns_value.get(n).copied().unwrap_or_default();
                if self.discarded != Some(c.span)
                    && !self.defs.contains_key(n)
                    && returns.value
                    && library::invents_result(n)
                {
                    let result = if returns.object {
                        AssumedResult::FreshObject
                    } else {
                        AssumedResult::AnyValue
                    };
                    if !self.p.assumptions.iter().any(|a| a.function == n) {
                        self.p.assumptions.push(Assumption {
                            function: n.to_string(),
                            span: c.span,
                            result,
                        });
                    }
                    if returns.object {
                        // `(__typeof__(f(a))) __ladr_fresh_object(sizeof(*(__typeof__(f(a))) 0))`
                        let span = e.span;
                        let ty = || type_name(&[typeof_expr(e.clone(), span)], 0, span);
                        let size = if returns.opaque {
                            int(1, span)
                        } else {
                            size_of_val(deref(cast(ty(), int(0, span), span), span), span)
                        };
                        *e = cast(ty(), call(abi::FRESH_OBJECT, vec![size], span), span);
                        self.libc_used = true;
                        return Ok(Walk::Skip);
                    }
                }
                // Heap objects of a non-constant size: see `__ladr_malloc` in the model.
                // A size in a local assigned a constant once is that constant.
                let sizes = size_arguments(n);
                for (i, a) in c.node.arguments.iter_mut().enumerate() {
                    if sizes.contains(&i) {
                        if let Some(v) = constant_read(a, &self.constants) {
                            *a = v;
                        }
                    }
                }
                let args = &c.node.arguments;
                if !sizes.is_empty()
                    && !sizes.iter().all(|&i| {
                        args.get(i)
                            .is_some_and(|a| is_constant(&a.node, &HashSet::new()))
                    })
                {
                    let model = abi::model_function(n);
                    let span = c.node.callee.span;
                    *c.node.callee = ident(&model, span);
                    // `__ladr_malloc` and `__ladr_calloc` are the pthread model's; the others
                    // `model/libc.c`'s.
                    self.libc_used |= !matches!(n, "malloc" | "calloc");
                    self.p.cuts.push(Cut {
                        kind: CutKind::HeapSize,
                        span: c.span,
                    });
                }
            }
        }
        Ok(Walk::Descend)
    }
}

/// The arguments of allocation function `f` that give the size of the object it allocates
/// (none for other functions). A size that is not a constant makes the call one of the
/// model's (`__ladr_malloc`, `__ladr_calloc` in `model/pthread.c`, the others in
/// `model/libc.c`), whose objects have 128
/// bytes: CBMC's own models allocate objects of that symbolic size, on which CBMC 6.6
/// crashes (mpmc.c of sysprog21/concurrent-programs: `posix_memalign(&p, align, size)` in an
/// inlined helper).
fn size_arguments(f: &str) -> &'static [usize] {
    match f {
        "malloc" | "valloc" => &[0],
        "calloc" => &[0, 1],
        // (`aligned_alloc` and `memalign` are `malloc` by now: `library::allocation_alias`.)
        "posix_memalign" => &[2],
        "realloc" => &[1],
        _ => &[],
    }
}

/// `_Thread_local` objects declared at file scope (`__thread` is read as `_Thread_local`;
/// `inline` has already hoisted `static _Thread_local` locals to file scope). Each thread has
/// its own instance, so each slot gets its own object: slot 0 (`main`) keeps the user's
/// object and name, slot k > 0 gets `__ladr_<n>_<name>` the first time its code names the
/// object (so `names::original_name` gives the user's name back for reports). A pointer to
/// a slot's instance still reaches that instance from other threads, as in C.
struct ThreadStorage {
    vars: HashSet<String>,
    /// (slot > 0, user name) → that slot's copy.
    copies: BTreeMap<(usize, String), String>,
}

fn is_thread_storage(d: &Declaration) -> bool {
    d.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::ThreadLocal)
    })
}

fn drop_thread_storage(d: &mut Declaration) {
    d.specifiers.retain(|s| {
        !matches!(&s.node, DeclarationSpecifier::StorageClass(sc)
            if sc.node == StorageClassSpecifier::ThreadLocal)
    });
}

impl ThreadStorage {
    fn new(unit: &[Node<ExternalDeclaration>]) -> ThreadStorage {
        let mut vars = HashSet::new();
        for ext in unit {
            if let ExternalDeclaration::Declaration(d) = &ext.node {
                if is_thread_storage(&d.node) {
                    vars.extend(d.node.declarators.iter().filter_map(|id| {
                        declarator_name(&id.node.declarator.node).map(str::to_string)
                    }));
                }
            }
        }
        ThreadStorage {
            vars,
            copies: BTreeMap::new(),
        }
    }

    /// Makes slot `slot`'s code use its own instances. Every identifier in a slot body that
    /// names a thread-storage object means the file-scope one: `clone_routine` renamed every
    /// local apart, and block-scope `extern` declarations of such objects are renamed here.
    fn rename(&mut self, names: &mut Names, slot: usize, body: &mut Node<Statement>) {
        struct R<'a> {
            ts: &'a mut ThreadStorage,
            names: &'a mut Names,
            slot: usize,
        }
        impl R<'_> {
            fn copy(&mut self, name: &str) -> String {
                if self.slot == 0 {
                    return name.to_string();
                }
                let names = &mut *self.names;
                self.ts
                    .copies
                    .entry((self.slot, name.to_string()))
                    .or_insert_with(|| names.local(name))
                    .clone()
            }
        }
        impl VisitorMut for R<'_> {
            type Error = Infallible;
            fn expr(&mut self, e: &mut Node<Expression>) -> std::result::Result<Walk, Infallible> {
                if let Expression::Identifier(i) = &mut e.node {
                    if self.ts.vars.contains(&i.node.name) {
                        i.node.name = self.copy(&i.node.name);
                    }
                }
                Ok(Walk::Descend)
            }
            fn declaration(
                &mut self,
                d: &mut Node<Declaration>,
            ) -> std::result::Result<Walk, Infallible> {
                if has_storage(&d.node, StorageClassSpecifier::Extern) {
                    let mut any = false;
                    for id in &mut d.node.declarators {
                        if let Some(i) = declarator_name_mut(&mut id.node.declarator.node) {
                            if self.ts.vars.contains(&i.name) {
                                i.name = self.copy(&i.name.clone());
                                any = true;
                            }
                        }
                    }
                    if any {
                        // It now names a plain object (declared at file scope below).
                        drop_thread_storage(&mut d.node);
                    }
                }
                Ok(Walk::Descend)
            }
        }
        if self.vars.is_empty() {
            return;
        }
        let mut r = R {
            ts: self,
            names,
            slot,
        };
        let Ok(()) = visit_mut::stmt(&mut r, body);
    }

    /// Every instance: the user's objects (slot 0) and the slots' copies.
    fn instances(&self) -> impl Iterator<Item = String> + '_ {
        self.vars.iter().chain(self.copies.values()).cloned()
    }

    /// The file-scope declarations with each thread-storage declaration replaced by slot 0's
    /// (the same without `_Thread_local`) followed by the slots' copies, one declaration
    /// each: `[static|extern] __typeof__(name) __ladr_<n>_name [= init];` (`__typeof__`
    /// names the type even when the original declaration defines a struct).
    fn declare_copies(
        &self,
        unit: Vec<Node<ExternalDeclaration>>,
    ) -> Vec<Node<ExternalDeclaration>> {
        let mut out = vec![];
        for mut ext in unit {
            let ExternalDeclaration::Declaration(d) = &mut ext.node else {
                out.push(ext);
                continue;
            };
            if !is_thread_storage(&d.node) {
                out.push(ext);
                continue;
            }
            drop_thread_storage(&mut d.node);
            let d = d.clone();
            out.push(ext);
            let keep: Vec<Node<DeclarationSpecifier>> = d
                .node
                .specifiers
                .iter()
                .filter(|s| {
                    matches!(
                        s.node,
                        DeclarationSpecifier::StorageClass(_)
                            | DeclarationSpecifier::Alignment(_)
                            | DeclarationSpecifier::Extension(_)
                    )
                })
                .cloned()
                .collect();
            for ((_, orig), copy) in &self.copies {
                for init_decl in &d.node.declarators {
                    let decl = &init_decl.node.declarator;
                    if declarator_name(&decl.node) != Some(orig.as_str()) {
                        continue;
                    }
                    let span = init_decl.span;
                    let mut specifiers = keep.clone();
                    specifiers.push(spec(typeof_expr(ident(orig, span), span), span));
                    let declarator = node(
                        Declarator {
                            kind: node(DeclaratorKind::Identifier(id(copy, span)), span),
                            derived: vec![],
                            extensions: decl.node.extensions.clone(),
                        },
                        decl.span,
                    );
                    let copy_decl = Declaration {
                        specifiers,
                        declarators: vec![node(
                            InitDeclarator {
                                declarator,
                                initializer: init_decl.node.initializer.clone(),
                            },
                            span,
                        )],
                    };
                    out.push(node(
                        ExternalDeclaration::Declaration(node(copy_decl, d.span)),
                        d.span,
                    ));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
