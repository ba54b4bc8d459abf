//! Thread-specific keys' destructors: which functions the program's `pthread_key_create`
//! sites name as destructors (directly, through a helper's parameter or through a function
//! pointer global), and the code that runs them when a thread exits
//! ([`run_destructors`], after the slot's end label).

use super::routines::{parameters, params_to_pointers, routine_name};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::walk::visit::{self, Visitor};
use ladr_c::syntax::walk::Walk;
use ladr_ir::abi;
use ladr_ir::program::{Cut, CutKind, Program};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};
use std::convert::Infallible;

/// A function named as a key destructor (`pthread_key_create(&k, d)`).
pub(super) struct Destructor {
    pub(super) name: String,
    /// Its `pthread_key_create` sites in the bounded program.
    pub(super) sites: usize,
    /// Whether every site is in `main` (which runs once): then at most `sites` keys have
    /// this destructor; a site elsewhere may run in several threads.
    pub(super) only_main: bool,
    /// The first site's destructor argument.
    pub(super) span: Span,
    /// Whether it calls `pthread_setspecific`: POSIX runs the destructors again while a
    /// value is set (up to `PTHREAD_DESTRUCTOR_ITERATIONS` times); ladr runs them once and
    /// cuts the executions in which a destructor left a value set.
    pub(super) resets: bool,
}

/// The destructors of the program's `pthread_key_create` sites, in order of first site
/// (`main` first, then the other functions by name). A destructor that calls
/// `pthread_exit` is unsupported; one that calls `pthread_setspecific` runs once, and the
/// executions in which it leaves a value set (POSIX would run the destructors again) are
/// cut ([`run_destructors`]).
pub(super) fn destructors(
    defs: &HashMap<String, FunctionDefinition>,
    others: &[Node<ExternalDeclaration>],
    pointer_globals: &HashMap<String, String>,
    file_scope: &HashSet<String>,
) -> Result<Vec<Destructor>> {
    struct KeyCreateSites<'a> {
        defs: &'a HashMap<String, FunctionDefinition>,
        /// The functions a destructor held in a pointer may be ([`pointer_candidates`]).
        candidates: Vec<String>,
        in_main: bool,
        /// The function each variable of the function walked holds ([`function_values`]).
        values: HashMap<String, String>,
        out: Vec<Destructor>,
    }
    impl Visitor for KeyCreateSites<'_> {
        type Error = Infallible;
        const UNEVALUATED: bool = false;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            if let Expression::Call(c) = &e.node {
                if callee_name(&c.node) == Some("pthread_key_create") && c.node.arguments.len() == 2
                {
                    let d = &c.node.arguments[1];
                    // A function the program defines, or the C library's `free`; a pointer
                    // may hold any of the candidates.
                    let names = match destructor_function(&d.node, &self.values, self.defs) {
                        Some(n) => vec![n],
                        None if constant::is_null_pointer_constant(&d.node) => vec![],
                        None => self.candidates.clone(),
                    };
                    for n in names {
                        match self.out.iter_mut().find(|x| x.name == n) {
                            Some(x) => {
                                x.sites += 1;
                                x.only_main &= self.in_main;
                            }
                            None => self.out.push(Destructor {
                                name: n,
                                sites: 1,
                                only_main: self.in_main,
                                span: d.span,
                                resets: false,
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
    let mut v = KeyCreateSites {
        defs,
        candidates: pointer_candidates(defs, others, file_scope),
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
    for d in &mut v.out {
        let Some(def) = defs.get(&d.name) else {
            continue;
        };
        let body = &def.statement;
        if exits(body) {
            return Err(
                Error::unsupported(d.span, "a key destructor that calls pthread_exit")
                    .note("the thread is already exiting when its destructors run"),
            );
        }
        d.resets = sets_values(body);
    }
    Ok(v.out)
}

/// The functions a key destructor held in a pointer (`table.destroy`, a helper's parameter
/// given several functions) may be: every function the program defines with one parameter
/// whose name is used other than as a callee (its address is taken), and `free` when it is
/// declared; by name. The key's creation compares the pointer with each
/// (`pthread_table`'s `key_create`).
fn pointer_candidates(
    defs: &HashMap<String, FunctionDefinition>,
    others: &[Node<ExternalDeclaration>],
    file_scope: &HashSet<String>,
) -> Vec<String> {
    let taken = taken_functions(defs, others, &|f| defs.contains_key(f));
    let mut out: Vec<String> = taken
        .into_iter()
        .filter(|f| {
            let def = &defs[f];
            parameters(def).len() == 1 && returns_void(def) && !exits(&def.statement)
        })
        .collect();
    if file_scope.contains("free") {
        out.push("free".into());
    }
    out.sort();
    out
}

/// Can a function pointer hold only functions the program defines or `free` (so a
/// destructor pointer is always one of [`pointer_candidates`] or another defined function,
/// which is no destructor's type)? No when the address of another function without a
/// body is taken (`functions`: every function declared at file scope).
pub(super) fn pointers_reach_only_definitions(
    defs: &HashMap<String, FunctionDefinition>,
    others: &[Node<ExternalDeclaration>],
    functions: &HashSet<&str>,
) -> bool {
    let external = |f: &str| functions.contains(f) && !defs.contains_key(f) && f != "free";
    taken_functions(defs, others, &external).is_empty()
}

/// The names `wanted` accepts that the program uses other than as a callee (a function
/// whose address is taken), in its function bodies and file-scope initialisers.
fn taken_functions(
    defs: &HashMap<String, FunctionDefinition>,
    others: &[Node<ExternalDeclaration>],
    wanted: &dyn Fn(&str) -> bool,
) -> HashSet<String> {
    struct Taken<'a> {
        wanted: &'a dyn Fn(&str) -> bool,
        out: HashSet<String>,
    }
    impl Visitor for Taken<'_> {
        type Error = Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> std::result::Result<Walk, Infallible> {
            match &e.node {
                Expression::Identifier(i) if (self.wanted)(&i.node.name) => {
                    self.out.insert(i.node.name.clone());
                }
                Expression::Call(c) if matches!(c.node.callee.node, Expression::Identifier(_)) => {
                    for a in &c.node.arguments {
                        visit::expr(self, a)?;
                    }
                    return Ok(Walk::Skip);
                }
                _ => {}
            }
            Ok(Walk::Descend)
        }
    }
    let mut t = Taken {
        wanted,
        out: HashSet::new(),
    };
    for f in defs.values() {
        let Ok(()) = visit::stmt(&mut t, &f.statement);
    }
    for ext in others {
        if let ExternalDeclaration::Declaration(d) = &ext.node {
            let Ok(()) = visit::declaration(&mut t, d);
        }
    }
    t.out
}

/// Does `f` return `void` (a destructor's type, `void (*)(void *)`)?
fn returns_void(f: &FunctionDefinition) -> bool {
    let void = f.specifiers.iter().any(|s| {
        matches!(&s.node, DeclarationSpecifier::TypeSpecifier(t) if t.node == TypeSpecifier::Void)
    });
    let pointer = f
        .declarator
        .node
        .derived
        .iter()
        .any(|d| matches!(d.node, DerivedDeclarator::Pointer(_)));
    void && !pointer
}

/// Does a destructor's body set a key's value again (a second round of destructors, which
/// ladr cuts)?
fn sets_values(body: &Node<Statement>) -> bool {
    ladr_c::syntax::walk::mentions(body, &["pthread_setspecific"])
}

/// Does a destructor's body exit the thread? A destructor named directly that does is
/// unsupported; a candidate of a pointer ([`pointer_candidates`]) that does is left out
/// (an execution that has it is cut).
fn exits(body: &Node<Statement>) -> bool {
    ladr_c::syntax::walk::mentions(body, &["pthread_exit"])
}

/// The function a key destructor argument names: `f`, `&f`, `(T) f`, or a variable that
/// holds one function all along (`values`: a helper's parameter after inlining, a function
/// pointer global), when the program defines it or it is `free`.
pub(super) fn destructor_function(
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
pub(super) fn function_values(
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
pub(super) fn function_pointer_globals(
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
pub(super) fn run_destructors(
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
        // Another key with this destructor (a site outside `main` may run in several
        // threads), or a value the destructor set again: cut, not run.
        if !d.only_main || d.resets {
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
