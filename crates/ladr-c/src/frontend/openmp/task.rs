//! Explicit tasks: `task`, `taskwait`, `taskgroup`, `taskloop`, `depend`.
//!
//! A deferred task is a thread created at the task construct, its start routine the
//! task's body (`__omp_taskN`), its data environment handed over in a heap block made at
//! creation (each encounter its own block: a task created in a loop reads its own values):
//!
//! ```text
//! #pragma omp task        { void **env = malloc(...); int *nums = malloc(...);
//! body(x, y)                env[3] = &x;                          // x shared
//!                           { T *c = malloc(sizeof y); *c = y; env[4] = c; }  // y firstprivate
//!                           env[0] = &children; env[1] = group; env[2] = nums;
//!                           nums[0] = team size; nums[1] = level; nums[3..] = -1;
//!                           atomic { nums[2] = flag; children++; live[level]++; (*group)++; }
//!                           depend: nums[3..] = earlier siblings it waits for; record it
//!                           pthread_create(&tid, 0, __omp_taskN, env); }
//! ```
//!
//! The task's thread waits for its predecessors' completion flags, runs the body, and at
//! its end (atomically) sets its flag and counts itself out of its parent's children, the
//! team's live tasks and its taskgroup. The synchronisation points wait, in an atomic
//! section, for a count to be zero (`__CPROVER_assume`, as the model's mutex lock waits):
//! `taskwait` for the current task's children (a thread-local count: each task is its own
//! thread, each implicit task a team thread), the end of a `taskgroup` for its count (the
//! group of a task is inherited by the tasks it creates: descendants), a barrier and the
//! end of a `parallel` region for the team's live tasks, the end of `main` for every task.
//!
//! docs/openmp.md says why this is faithful and what is refused.

use super::directive::Directive;
use super::lower::{atomic_section, dspan, fail, Lowering, R};
use super::outline::{expression, routine_def, Uses};
use super::vars::{Form, Var};
use crate::syntax::build::*;
use crate::syntax::names;
use crate::syntax::walk::visit_mut;
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::{HashMap, HashSet};

/// Entries of a task's table of its children's dependences (thread-local); a child that
/// finds it full is not recorded, so later siblings do not wait for it (more executions,
/// never fewer).
const DEPS: usize = 4;
/// Predecessors a task waits for (more are not waited for: more executions).
const PREDS: usize = 4;
/// Completion flags; a task created after they are used up has none (nothing waits for it).
const FLAGS: u64 = 16;
/// Hand-over slots of a task construct: tasks created there that have not yet read their
/// hand-over (a further creation waits until one has).
const SLOTS: usize = 2;

/// How a task sees a variable of the enclosing function.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Sharing {
    Shared,
    First,
    Private,
}

/// A variable a task uses: its name, declaration and form in the task (`None`: private).
type Capture = (String, Var, Option<Form>);

/// The kind of a `depend` item: 1 `in`, 2 `out`/`inout`.
const DEP_IN: u64 = 1;
const DEP_OUT: u64 = 2;

fn set(lhs: Node<Expression>, rhs: Node<Expression>, span: Span) -> Node<Statement> {
    expr_stmt(assign(lhs, rhs, span))
}

fn plus(a: Node<Expression>, n: i64, span: Span) -> Node<Expression> {
    if n >= 0 {
        binop(BinaryOperator::Plus, a, int(n as u64, span), span)
    } else {
        binop(BinaryOperator::Minus, a, int((-n) as u64, span), span)
    }
}

fn minus_one(span: Span) -> Node<Expression> {
    unop(UnaryOperator::Minus, int(1, span), span)
}

/// `void *name` (a pointer declaration of `void`), optionally thread-local / initialised.
fn void_pointer(
    name: &str,
    pointers: usize,
    thread_local: bool,
    init: Option<Node<Expression>>,
    span: Span,
) -> Node<Declaration> {
    let mut specs = vec![];
    if thread_local {
        specs.push(storage(StorageClassSpecifier::ThreadLocal, span));
    }
    specs.push(spec(TypeSpecifier::Void, span));
    let derived = (0..pointers)
        .map(|_| node(DerivedDeclarator::Pointer(vec![]), span))
        .collect();
    declaration(
        specs,
        name,
        derived,
        init.map(|e| node(Initializer::Expression(Box::new(e)), span)),
        span,
    )
}

/// `int *name = init;`
fn int_pointer(name: &str, init: Node<Expression>, span: Span) -> Node<Declaration> {
    declaration(
        vec![spec(TypeSpecifier::Int, span)],
        name,
        vec![node(DerivedDeclarator::Pointer(vec![]), span)],
        Some(node(Initializer::Expression(Box::new(init)), span)),
        span,
    )
}

/// The file-scope state of tasks (declared only in programs with tasks).
pub fn task_state() -> Vec<Node<Declaration>> {
    let span = Span::none();
    let tl_int = |name: &str| {
        declaration(
            vec![
                storage(StorageClassSpecifier::ThreadLocal, span),
                spec(TypeSpecifier::Int, span),
            ],
            name,
            vec![],
            None,
            span,
        )
    };
    let mut decls = vec![
        tl_int(&names::omp("children", 0)),
        tl_int(&names::omp("level", 0)),
        tl_int(&names::omp("dep_n", 0)),
        declaration(
            vec![
                storage(StorageClassSpecifier::ThreadLocal, span),
                spec(TypeSpecifier::Int, span),
            ],
            &names::omp("group", 0),
            vec![node(DerivedDeclarator::Pointer(vec![]), span)],
            None,
            span,
        ),
        simple_decl(
            &[TypeSpecifier::Int],
            &names::omp("live", 0),
            Some(2),
            true,
            None,
            span,
        ),
        simple_decl(
            &[TypeSpecifier::Int],
            &names::omp("flags", 0),
            Some(FLAGS),
            true,
            None,
            span,
        ),
        simple_decl(
            &[TypeSpecifier::Int],
            &names::omp("made", 0),
            None,
            true,
            None,
            span,
        ),
    ];
    for j in 0..DEPS {
        decls.push(void_pointer(
            &names::omp(&format!("dep_addr{j}"), 0),
            1,
            true,
            None,
            span,
        ));
        decls.push(tl_int(&names::omp(&format!("dep_kind{j}"), 0)));
        decls.push(tl_int(&names::omp(&format!("dep_task{j}"), 0)));
    }
    decls
}

/// `atomic { assume(live[level] == 0); }`: every task of the level has finished.
pub fn tasks_finished(level: u64, span: Span) -> Vec<Node<Statement>> {
    let live = index(ident(&names::omp("live", 0), span), int(level, span), span);
    atomic_section(vec![assume(eq(live, int(0, span), span), span)], span)
}

/// A `depend` clause's items: (address expression, kind).
fn dependences(d: &Directive) -> R<Vec<(Node<Expression>, u64)>> {
    let mut out = vec![];
    for c in d.clauses.iter().filter(|c| c.name == "depend") {
        let args = c.args.clone().unwrap_or_default();
        let Some((kind, list)) = args.split_once(':') else {
            return fail(d, "`depend` without a dependence type");
        };
        let kind = match kind.trim() {
            "in" => DEP_IN,
            "out" | "inout" => DEP_OUT,
            other => {
                return fail(
                    d,
                    format!("the dependence type `{other}` of `depend` is not modelled"),
                )
            }
        };
        for item in split_top(list) {
            let e = expression(d, &item, "depend")?;
            let span = e.span;
            out.push((addr(e, span), kind));
        }
    }
    Ok(out)
}

/// Whether task `d` is undeferred (`!c` of `if(c)`, `c` of `final(c)`), evaluated at the
/// encounter; `None` without those clauses.
fn undeferred(d: &Directive, span: Span) -> R<Option<Node<Expression>>> {
    let mut undeferred = None;
    for (clause, negate) in [("if", true), ("final", false)] {
        if let Some(text) = d.clause(clause).and_then(|c| c.args.clone()) {
            let text = text.trim();
            let text = text
                .strip_prefix("task")
                .and_then(|t| t.trim_start().strip_prefix(':'))
                .unwrap_or(text);
            let c = expression(d, text, clause)?;
            let c = if negate { not(c, span) } else { c };
            undeferred = Some(match undeferred {
                None => c,
                Some(u) => or(u, c, span),
            });
        }
    }
    Ok(undeferred)
}

/// The hand-over into slot `k` of task construct `t`: the bookkeeping (the parent's count
/// of children, the group, the team size and level, the flag, the predecessors) and the
/// captured variables (a pointer to a shared one, the value of a firstprivate one).
fn fill_slots(
    t: usize,
    k: &str,
    flag: &str,
    preds: &[String],
    captures: &[Capture],
    span: Span,
) -> Node<Statement> {
    let g = |n: &str| ident(&names::omp(n, 0), span);
    let mut chain = None;
    for slot in (0..SLOTS).rev() {
        let cap = |what: &str| ident(&format!("{}_{what}{slot}", names::omp("cap", t)), span);
        let mut fill = vec![
            set(cap("parent"), addr(g("children"), span), span),
            set(cap("group"), g("group"), span),
            set(cap("size"), ident(names::OMP_TEAM_SIZE, span), span),
            set(cap("level"), g("level"), span),
            set(cap("flag"), ident(flag, span), span),
        ];
        for (p, pred) in preds.iter().enumerate() {
            fill.push(set(cap(&format!("pred{p}")), ident(pred, span), span));
        }
        for (n, _, form) in captures {
            let value = match form {
                Some(Form::Pointer) => addr(ident(n, span), span),
                Some(_) => ident(n, span),
                None => continue,
            };
            fill.push(set(cap(&format!("v_{n}")), value, span));
        }
        chain = Some(if_stmt(
            eq(ident(k, span), int(slot as u64, span), span),
            block_of(fill, span),
            chain,
            span,
        ));
    }
    chain.unwrap_or_else(|| empty_stmt(span))
}

/// `list` split at its top-level commas.
fn split_top(list: &str) -> Vec<String> {
    let mut items = vec![];
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in list.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(ch);
    }
    items.push(cur);
    items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

impl Lowering {
    /// How task `d` sees the enclosing function's local `n` (OpenMP's rules for tasks: the
    /// clauses, `default`, shared where the enclosing context shares it with the whole
    /// team — a local declared outside the innermost `parallel` region and not made
    /// private by a construct inside it, or a `static` one — else firstprivate).
    fn sharing_of(&self, d: &Directive, n: &str) -> R<Sharing> {
        if d.vars_of("shared").iter().any(|v| v == n) {
            return Ok(Sharing::Shared);
        }
        if d.vars_of("firstprivate").iter().any(|v| v == n) {
            return Ok(Sharing::First);
        }
        if d.vars_of("private").iter().any(|v| v == n) {
            return Ok(Sharing::Private);
        }
        match d
            .clause("default")
            .and_then(|c| c.args.as_deref())
            .map(str::trim)
        {
            Some("shared") => return Ok(Sharing::Shared),
            Some("firstprivate") => return Ok(Sharing::First),
            Some("private") => return Ok(Sharing::Private),
            _ => {}
        }
        // A local with static storage is one object for every thread and task that runs
        // the function: shared in the enclosing context, so shared in the task.
        if self
            .scopes
            .iter()
            .rev()
            .find_map(|s| s.get(n))
            .is_some_and(|v| v.static_storage)
        {
            return Ok(Sharing::Shared);
        }
        let Some(&(scopes, privatised)) = self.region_marks.last() else {
            if self.function_name == "main" {
                return fail(
                    d,
                    format!(
                        "a task outside a `parallel` region of `main` using its local `{n}` \
                         without a data-sharing clause"
                    ),
                );
            }
            return Ok(Sharing::First);
        };
        let declared_at = self.scopes.iter().rposition(|s| s.contains_key(n));
        let made_private = self.privatised[privatised..]
            .iter()
            .any(|names| names.iter().any(|v| v == n));
        match declared_at {
            Some(at) if at < scopes && !made_private => Ok(Sharing::Shared),
            _ => Ok(Sharing::First),
        }
    }

    /// `task`: see the module header.
    pub fn task(&mut self, d: &Directive, mut body: Node<Statement>) -> R<Node<Statement>> {
        self.no_clauses(
            d,
            &[
                "private",
                "firstprivate",
                "shared",
                "default",
                "depend",
                "if",
                "final",
                "untied",
                "priority",
            ],
        )?;
        let span = dspan(d);
        let t = self.fresh();
        // The locals the body uses, and the file-scope variables it makes private.
        let mut locals: HashMap<String, Var> = HashMap::new();
        for s in &self.scopes {
            locals.extend(s.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        for n in d
            .vars_of("private")
            .into_iter()
            .chain(d.vars_of("firstprivate"))
        {
            if let std::collections::hash_map::Entry::Vacant(e) = locals.entry(n) {
                let Some(v) = self.globals.get(e.key()) else {
                    return fail(d, format!("`{}` is not a variable ladr knows", e.key()));
                };
                e.insert(v.clone());
            }
        }
        for n in d.vars_of("shared") {
            if !locals.contains_key(&n) && !self.globals.contains_key(&n) {
                return fail(d, format!("`{n}` is not a variable ladr knows"));
            }
        }
        for g in &self.threadprivate {
            if mentions(&body, g) {
                return fail(
                    d,
                    format!("a task using the `threadprivate` variable `{g}` (its thread is not modelled)"),
                );
            }
        }
        let is_captured = |n: &str| locals.contains_key(n);
        let mut uses = Uses::new(&is_captured);
        let Ok(()) = visit_mut::stmt(&mut uses, &mut body);
        let mut captures = vec![];
        let mut deref = HashSet::new();
        for n in uses.used.keys() {
            let var = locals[n].clone();
            let sharing = self.sharing_of(d, n)?;
            let form = match sharing {
                Sharing::Shared if var.is_array() => {
                    if uses.sized.contains(n) {
                        return fail(d, format!("`sizeof` of the array `{n}` shared by a task"));
                    }
                    if !var.element_pointer_ok() {
                        return fail(
                            d,
                            format!("the variable-length array `{n}` shared by a task"),
                        );
                    }
                    Some(Form::Element)
                }
                Sharing::Shared => {
                    deref.insert(n.clone());
                    Some(Form::Pointer)
                }
                Sharing::First if var.is_array() => {
                    return fail(
                        d,
                        format!("a firstprivate copy of the array `{n}` in a task"),
                    );
                }
                Sharing::First => Some(Form::Same),
                Sharing::Private if var.is_vla() => {
                    return fail(
                        d,
                        format!("a private copy of the variable-length array `{n}`"),
                    );
                }
                Sharing::Private => None,
            };
            captures.push((n.clone(), var, form));
        }
        if !deref.is_empty() {
            uses.deref = deref;
            uses.used.clear();
            let Ok(()) = visit_mut::stmt(&mut uses, &mut body);
        }
        let routine = names::omp_task(t);
        self.task_routines.push((routine.clone(), span));
        self.hand_over_objects(t, &captures, span);
        self.task_routine(t, &captures, body, span);
        self.creation(d, t, &captures)
    }

    /// The hand-over objects of task construct `t`: `SLOTS` copies of each (one per task
    /// created and not yet started), the slots' busy flags and the creation count.
    fn hand_over_objects(&mut self, t: usize, captures: &[Capture], span: Span) {
        let mut caps: Vec<(String, Var, Form)> = vec![];
        let int_var = |pointer: bool| {
            let decl = if pointer {
                int_pointer("v", int(0, span), span)
            } else {
                simple_decl(&[TypeSpecifier::Int], "v", None, false, None, span)
            };
            super::vars::declared(&decl.node).pop().unwrap().1
        };
        let book = [
            ("parent", int_var(true), Form::Same),
            ("group", int_var(true), Form::Same),
            ("size", int_var(false), Form::Same),
            ("level", int_var(false), Form::Same),
            ("flag", int_var(false), Form::Same),
        ];
        for (what, var, form) in book {
            caps.push((what.to_string(), var, form));
        }
        for p in 0..PREDS {
            caps.push((format!("pred{p}"), int_var(false), Form::Same));
        }
        for (n, var, form) in captures {
            if let Some(form) = form {
                caps.push((format!("v_{n}"), var.clone(), *form));
            }
        }
        for (what, var, form) in &caps {
            for k in 0..SLOTS {
                let name = format!("{}_{what}{k}", names::omp("cap", t));
                self.new_items.push(node(
                    ExternalDeclaration::Declaration(var.declare(
                        &name,
                        *form,
                        None,
                        true,
                        Span::none(),
                    )),
                    Span::none(),
                ));
            }
        }
        self.global(
            &[TypeSpecifier::Int],
            &names::omp("busy", t),
            Some(SLOTS as u64),
        );
        self.global(&[TypeSpecifier::Long], &names::omp("seq", t), None);
    }

    /// The encountering task's code: a free hand-over slot, the counts, the dependences,
    /// the hand-over, the creation, and for an undeferred task (`if(0)`, `final(1)`) the
    /// wait for its end.
    fn creation(&mut self, d: &Directive, t: usize, captures: &[Capture]) -> R<Node<Statement>> {
        let span = dspan(d);
        let tid = names::omp("tid", t);
        let k = names::omp("slot", t);
        let flag = names::omp("flag", t);
        let busy = || ident(&names::omp("busy", t), span);
        let seq = || ident(&names::omp("seq", t), span);
        let g = |n: &str| ident(&names::omp(n, 0), span);
        let local_int =
            |name: &str, init: Option<Node<Expression>>| super::lanes::int_decl(name, init, span);
        let mut items = vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Unsigned, TypeSpecifier::Long],
                &tid,
                None,
                false,
                None,
                span,
            )),
            decl_item(simple_decl(
                &[TypeSpecifier::Long],
                &k,
                None,
                false,
                None,
                span,
            )),
            local_int(&flag, None),
        ];
        let preds: Vec<String> = (0..PREDS)
            .map(|p| names::omp(&format!("pred{p}_"), t))
            .collect();
        for p in &preds {
            items.push(local_int(p, Some(minus_one(span))));
        }
        let undeferred = undeferred(d, span)?;
        let undeferred_name = names::omp("undeferred", t);
        let is_undeferred = undeferred.is_some();
        if let Some(u) = undeferred {
            items.push(local_int(&undeferred_name, Some(u)));
        }
        let live = || index(g("live"), g("level"), span);
        let group = || deref(g("group"), span);
        let has_flag = binop(BinaryOperator::Less, g("made"), int(FLAGS, span), span);
        let slot_busy = || index(busy(), ident(&k, span), span);
        let mut stmts = atomic_section(
            vec![
                set(
                    ident(&k, span),
                    binop(BinaryOperator::Modulo, seq(), int(SLOTS as u64, span), span),
                    span,
                ),
                set(seq(), plus(seq(), 1, span), span),
                // A slot whose task has not read its hand-over yet is waited for.
                assume(not(slot_busy(), span), span),
                set(slot_busy(), int(1, span), span),
                set(
                    ident(&flag, span),
                    cond(has_flag.clone(), g("made"), minus_one(span), span),
                    span,
                ),
                if_stmt(
                    has_flag,
                    set(g("made"), plus(g("made"), 1, span), span),
                    None,
                    span,
                ),
                set(g("children"), plus(g("children"), 1, span), span),
                set(live(), plus(live(), 1, span), span),
                if_stmt(
                    g("group"),
                    set(group(), plus(group(), 1, span), span),
                    None,
                    span,
                ),
            ],
            span,
        );
        stmts.extend(self.depend(d, t, &flag, &preds)?);
        stmts.push(fill_slots(t, &k, &flag, &preds, captures, span));
        let arg = cast(
            type_name(&[TypeSpecifier::Void], 1, span),
            ident(&k, span),
            span,
        );
        stmts.push(expr_stmt(call(
            "pthread_create",
            vec![
                addr(ident(&tid, span), span),
                int(0, span),
                ident(&names::omp_task(t), span),
                arg,
            ],
            span,
        )));
        if is_undeferred {
            let wait = atomic_section(
                vec![assume(index(g("flags"), ident(&flag, span), span), span)],
                span,
            );
            let has = binop(
                BinaryOperator::GreaterOrEqual,
                ident(&flag, span),
                int(0, span),
                span,
            );
            stmts.push(if_stmt(
                and(ident(&undeferred_name, span), has, span),
                block_of(wait, span),
                None,
                span,
            ));
        }
        items.extend(stmts.into_iter().map(item));
        Ok(block(items, span))
    }

    /// `depend`: the predecessors among the earlier siblings recorded in the encountering
    /// task's table (an `out`/`inout` item after any earlier item on the same address, an
    /// `in` item after earlier `out`/`inout` ones) into `preds`, then the new task's items
    /// recorded with its completion flag `flag`.
    fn depend(
        &mut self,
        d: &Directive,
        t: usize,
        flag: &str,
        preds: &[String],
    ) -> R<Vec<Node<Statement>>> {
        let deps = dependences(d)?;
        if deps.is_empty() {
            return Ok(vec![]);
        }
        let span = dspan(d);
        let g = |n: &str| ident(&names::omp(n, 0), span);
        let gj = |n: &str, j: usize| ident(&names::omp(&format!("{n}{j}"), 0), span);
        let np = names::omp("preds", t);
        let mut items = vec![decl_item(simple_decl(
            &[TypeSpecifier::Int],
            &np,
            None,
            false,
            Some(int(0, span)),
            span,
        ))];
        let mut addrs = vec![];
        for (k, (address, kind)) in deps.into_iter().enumerate() {
            let a = names::omp(&format!("item{k}_"), t);
            items.push(decl_item(void_pointer(&a, 1, false, Some(address), span)));
            addrs.push((a, kind));
        }
        for (a, kind) in &addrs {
            for j in 0..DEPS {
                let recorded = binop(BinaryOperator::Less, int(j as u64, span), g("dep_n"), span);
                let same = eq(gj("dep_addr", j), ident(a, span), span);
                let mut test = and(recorded, same, span);
                if *kind == DEP_IN {
                    test = and(test, eq(gj("dep_kind", j), int(DEP_OUT, span), span), span);
                }
                // The predecessor goes into the first free one of `preds` (none left: it
                // is not waited for).
                let mut chain = None;
                for (p, pred) in preds.iter().enumerate().rev() {
                    chain = Some(if_stmt(
                        eq(ident(&np, span), int(p as u64, span), span),
                        set(ident(pred, span), gj("dep_task", j), span),
                        chain,
                        span,
                    ));
                }
                let mut then = vec![];
                then.extend(chain);
                then.push(set(ident(&np, span), plus(ident(&np, span), 1, span), span));
                items.push(item(if_stmt(test, block_of(then, span), None, span)));
            }
        }
        for (a, kind) in &addrs {
            for j in 0..DEPS {
                let here = and(
                    eq(g("dep_n"), int(j as u64, span), span),
                    binop(
                        BinaryOperator::GreaterOrEqual,
                        ident(flag, span),
                        int(0, span),
                        span,
                    ),
                    span,
                );
                items.push(item(if_stmt(
                    here,
                    block_of(
                        vec![
                            set(gj("dep_addr", j), ident(a, span), span),
                            set(gj("dep_kind", j), int(*kind, span), span),
                            set(gj("dep_task", j), ident(flag, span), span),
                            set(g("dep_n"), int(j as u64 + 1, span), span),
                        ],
                        span,
                    ),
                    None,
                    span,
                )));
            }
        }
        Ok(vec![block(items, span)])
    }

    /// `void *__omp_taskN(void *arg)`: the hand-over read (the slot freed), the
    /// predecessors waited for, the body, the end counted.
    fn task_routine(&mut self, t: usize, captures: &[Capture], body: Node<Statement>, span: Span) {
        let arg = names::omp("arg", t);
        let k = names::omp("slot", t);
        let g = |n: &str| ident(&names::omp(n, 0), span);
        let mine = |what: &str| names::omp(&format!("my_{what}"), t);
        // The value of hand-over object `what` of slot k.
        let read = |what: &str| {
            let mut e = ident(
                &format!("{}_{what}{}", names::omp("cap", t), SLOTS - 1),
                span,
            );
            for slot in (0..SLOTS - 1).rev() {
                e = cond(
                    eq(ident(&k, span), int(slot as u64, span), span),
                    ident(&format!("{}_{what}{slot}", names::omp("cap", t)), span),
                    e,
                    span,
                );
            }
            e
        };
        let long_of = cast(
            type_name(&[TypeSpecifier::Long], 0, span),
            ident(&arg, span),
            span,
        );
        let local_int = |name: &str, init: Node<Expression>| {
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                name,
                None,
                false,
                Some(init),
                span,
            ))
        };
        let mut items = vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Long],
                &k,
                None,
                false,
                Some(long_of),
                span,
            )),
            decl_item(int_pointer(&mine("parent"), read("parent"), span)),
            decl_item(int_pointer(&mine("group"), read("group"), span)),
            local_int(&mine("level"), read("level")),
            local_int(&mine("flag"), read("flag")),
        ];
        for p in 0..PREDS {
            items.push(local_int(
                &mine(&format!("pred{p}")),
                read(&format!("pred{p}")),
            ));
        }
        items.push(item(set(
            ident(names::OMP_TEAM_SIZE, span),
            read("size"),
            span,
        )));
        items.push(item(set(g("level"), ident(&mine("level"), span), span)));
        items.push(item(set(g("group"), ident(&mine("group"), span), span)));
        for (n, var, form) in captures {
            let init = form.map(|_| read(&format!("v_{n}")));
            items.push(decl_item(var.declare(
                n,
                form.unwrap_or(Form::Same),
                init,
                false,
                span,
            )));
        }
        let busy = index(ident(&names::omp("busy", t), span), ident(&k, span), span);
        items.extend(
            atomic_section(vec![set(busy, int(0, span), span)], span)
                .into_iter()
                .map(item),
        );
        for p in 0..PREDS {
            let pred = ident(&mine(&format!("pred{p}")), span);
            let flag = index(g("flags"), pred.clone(), span);
            let wait = atomic_section(vec![assume(flag, span)], span);
            items.push(item(if_stmt(
                binop(BinaryOperator::GreaterOrEqual, pred, int(0, span), span),
                block_of(wait, span),
                None,
                span,
            )));
        }
        items.push(item(body));
        let my_flag = || ident(&mine("flag"), span);
        let live = || index(g("live"), ident(&mine("level"), span), span);
        let parent_count = || deref(ident(&mine("parent"), span), span);
        let group_count = || deref(ident(&mine("group"), span), span);
        let end = atomic_section(
            vec![
                if_stmt(
                    binop(
                        BinaryOperator::GreaterOrEqual,
                        my_flag(),
                        int(0, span),
                        span,
                    ),
                    set(index(g("flags"), my_flag(), span), int(1, span), span),
                    None,
                    span,
                ),
                set(live(), plus(live(), -1, span), span),
                set(parent_count(), plus(parent_count(), -1, span), span),
                if_stmt(
                    ident(&mine("group"), span),
                    set(group_count(), plus(group_count(), -1, span), span),
                    None,
                    span,
                ),
            ],
            span,
        );
        items.extend(end.into_iter().map(item));
        items.push(item(ret(Some(int(0, span)), span)));
        self.new_items
            .push(routine_def(&names::omp_task(t), &arg, block(items, span)));
    }

    /// `taskwait`: the current task's children have finished.
    pub fn taskwait(&mut self, d: &Directive) -> R<Vec<Node<Statement>>> {
        if let Some(c) = d.clauses.first() {
            return fail(
                d,
                format!("the clause `{}` of `taskwait` is not modelled", c.name),
            );
        }
        let span = dspan(d);
        let children = ident(&names::omp("children", 0), span);
        Ok(atomic_section(
            vec![assume(eq(children, int(0, span), span), span)],
            span,
        ))
    }

    /// `taskgroup`: `{ int g = 0; int *saved = group; group = &g; body;
    /// atomic { assume(g == 0); } group = saved; }`.
    pub fn taskgroup(&mut self, d: &Directive, body: Node<Statement>) -> R<Node<Statement>> {
        if let Some(c) = d.clauses.first() {
            return fail(
                d,
                format!("the clause `{}` of `taskgroup` is not modelled", c.name),
            );
        }
        let span = dspan(d);
        let n = self.fresh();
        let count = names::omp("taskgroup", n);
        let saved = names::omp("outer_group", n);
        let group = || ident(&names::omp("group", 0), span);
        let mut items = vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                &count,
                None,
                false,
                Some(int(0, span)),
                span,
            )),
            decl_item(int_pointer(&saved, group(), span)),
            item(set(group(), addr(ident(&count, span), span), span)),
            item(body),
        ];
        let wait = atomic_section(
            vec![assume(eq(ident(&count, span), int(0, span), span), span)],
            span,
        );
        items.extend(wait.into_iter().map(item));
        items.push(item(set(group(), ident(&saved, span), span)));
        Ok(block(items, span))
    }
}

/// Whether `s` names `n` anywhere.
fn mentions(s: &Node<Statement>, n: &str) -> bool {
    use crate::syntax::walk::visit::{self, Visitor};
    use crate::syntax::walk::Walk;
    struct M<'a>(&'a str, bool);
    impl Visitor for M<'_> {
        type Error = std::convert::Infallible;
        fn expr(&mut self, e: &Node<Expression>) -> Result<Walk, Self::Error> {
            if ident_name(e) == Some(self.0) {
                self.1 = true;
            }
            Ok(Walk::Descend)
        }
    }
    let mut m = M(n, false);
    let Ok(()) = visit::stmt(&mut m, s);
    m.1
}
