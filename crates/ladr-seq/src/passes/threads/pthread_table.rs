//! The table of modelled pthread and semaphore calls: each statement `[lv =] f(args);`
//! that calls one ([`PthreadCall`]) becomes the model's statements, by family (threads,
//! locks, condition variables, barriers, keys, semaphores, `pthread_once`); the pthread
//! functions without effect ladr tracks keep only their arguments' reads, and the others
//! (C11 threads not mapped, `fork`, any other `pthread_*`/`sem_*`) are unsupported.
//! With `--malloc-may-fail`, a statement calling an allocation function gets its failure
//! ([`SlotRewriter::allocation_may_fail`]).

use super::constants::is_constant;
use super::keys::destructor_function;
use super::rewriter::{top_call, SlotRewriter};
use super::routines::{exit_value, OnceReturns};
use super::{MAX_KEYS, MAX_SLOTS};
use crate::model::library;
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_c::syntax::constant;
use ladr_c::syntax::copy::{Copier, Rename};
use ladr_c::syntax::walk::visit_mut;
use ladr_ir::abi::{self, end_label, slot_function};
use ladr_ir::program::{Cut, CutKind, Slot};
use lang_c::ast::*;
use lang_c::span::{Node, Span};
use std::collections::HashSet;

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
    // `inline` made it a check of a pending request when the program cancels.
    "pthread_testcancel",
    "sched_yield",
    "pthread_setname_np",
    "pthread_setcancelstate",
    "pthread_setcanceltype",
    "pthread_sigmask",
];

/// Prefixes of pthread functions that need no model (attribute objects).
const NO_EFFECT_PREFIX: &[&str] = &[
    "pthread_attr_",
    "pthread_mutexattr_",
    "pthread_condattr_",
    "pthread_rwlockattr_",
    "pthread_barrierattr_",
];

/// A statement `[lv =] f(args);` that calls function `f` ([`top_call`]), as the families
/// of modelled calls see it.
pub(super) struct PthreadCall<'s> {
    /// The lvalue the result is assigned to, if any.
    lv: Option<&'s Node<Expression>>,
    /// The call.
    call: &'s CallExpression,
    /// `f`.
    name: &'s str,
    /// The call's arguments.
    args: &'s [Node<Expression>],
    /// The call's span.
    call_span: Span,
    /// The statement's span.
    span: Span,
    /// The calling slot (the model's argument that names the thread).
    slot: u64,
}

impl PthreadCall<'_> {
    /// Argument `i`; a call with fewer is unsupported.
    fn arg(&self, i: usize) -> Result<Node<Expression>> {
        self.args.get(i).cloned().ok_or_else(|| {
            Error::unsupported(
                self.call_span,
                format!("`{}` with too few arguments", self.name),
            )
        })
    }

    /// `lv = e;`, or `e;` when the statement has no lvalue.
    fn with_lv(&self, e: Node<Expression>) -> Node<Statement> {
        match self.lv {
            Some(l) => expr_stmt(assign(l.clone(), e, self.span)),
            None => expr_stmt(e),
        }
    }

    /// A call of the model's function for `f` (`__ladr_f(args)`).
    fn model(&self, f: &str, args: Vec<Node<Expression>>) -> Node<Expression> {
        call(&abi::model_function(f), args, self.call_span)
    }
}

/// The statements a family of modelled calls makes of a call; `None`: not one of the
/// family's functions.
type Rewritten = Result<Option<Vec<Node<Statement>>>>;

/// A family of modelled calls ([`SlotRewriter::rewrite`] tries them in order).
type Family<'a> = fn(&mut SlotRewriter<'a>, &PthreadCall<'_>) -> Rewritten;

impl<'a> SlotRewriter<'a> {
    /// The statements that replace statement `s` when it calls a pthread or semaphore
    /// function the model covers (or an allocation function that may fail); `None`: `s`
    /// stays (its calls in expressions are rewritten as the walk goes on).
    pub(super) fn rewrite(&mut self, s: &Node<Statement>) -> Rewritten {
        let Some((lv, ce, cspan)) = top_call(&s.node) else {
            return Ok(None);
        };
        let Some(name) = callee_name(ce) else {
            return Ok(None);
        };
        let site = PthreadCall {
            lv,
            call: ce,
            name,
            args: &ce.arguments,
            call_span: cspan,
            span: s.span,
            slot: self.slot as u64,
        };
        let failure = library::allocation_failure(name).filter(|_| !self.defs.contains_key(name));
        if let Some(failure) = failure.filter(|_| self.malloc_may_fail) {
            return self.allocation_may_fail(&site, failure);
        }
        // The explicit names of the families are disjoint; `unmodelled`, which matches by
        // prefix, comes last.
        let families: [Family<'a>; 8] = [
            Self::threads,
            Self::locks,
            Self::conditions,
            Self::barriers,
            Self::keys,
            Self::semaphores,
            Self::once,
            Self::unmodelled,
        ];
        for family in families {
            if let Some(out) = family(self, &site)? {
                return Ok(Some(out));
            }
        }
        Ok(None)
    }

    /// With `--malloc-may-fail`, a statement calling an allocation function `site.name`
    /// (whose `failure` is [`library::allocation_failure`]'s) that the program does not
    /// define.
    fn allocation_may_fail(
        &mut self,
        site: &PthreadCall<'_>,
        failure: library::AllocationFailure,
    ) -> Rewritten {
        let (span, cspan) = (site.span, site.call_span);
        // `{ _Bool t; t = __VERIFIER_nondet_bool(); if (t) lv = 0; else lv = f(...); }`:
        // an allocation fails (a null pointer, `realloc`'s block kept; `posix_memalign`
        // returns ENOMEM and writes nothing) or succeeds.
        let failed = match (failure, site.lv) {
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
        let mut c = node(
            Expression::Call(Box::new(node(site.call.clone(), cspan))),
            cspan,
        );
        visit_mut::expr(self, &mut c)?;
        let succeeded = expr_stmt(match site.lv {
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
        Ok(Some(vec![block(items, span)]))
    }

    /// Threads: `pthread_create` ([`SlotRewriter::create`]), `pthread_join`
    /// ([`PthreadCall::join`]), `pthread_exit`, `pthread_self`, `pthread_equal`,
    /// `pthread_atfork`.
    fn threads(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let (span, cspan, k) = (site.span, site.call_span, site.slot);
        Ok(Some(match site.name {
            "pthread_create" => self.create(site)?,
            "pthread_join" => site.join()?,
            // Its handlers run only around `fork`, which ladr refuses: registering them
            // does nothing to the threads.
            "pthread_atfork" => vec![site.with_lv(int(0, cspan))],
            "pthread_self" => vec![site.with_lv(int(k, cspan))],
            "pthread_equal" => vec![site.with_lv(eq(site.arg(0)?, site.arg(1)?, cspan))],
            "pthread_exit" => {
                let mut v: Vec<_> = exit_value(self.slot, site.arg(0)?, span)
                    .into_iter()
                    .collect();
                v.push(goto(&end_label(self.slot), span));
                v
            }
            _ => return Ok(None),
        }))
    }

    /// `pthread_create`: a new slot running the start routine, created by this one; past
    /// [`MAX_SLOTS`] slots or `--max-threads` threads, or a routine nested in itself more
    /// than `--unwind` times, the executions that create it are cut.
    fn create(&mut self, site: &PthreadCall<'_>) -> Result<Vec<Node<Statement>>> {
        let (span, cspan) = (site.span, site.call_span);
        let routine = self.routine(&site.arg(2)?.node);
        let Some(routine) = routine.filter(|r| self.defs.contains_key(r)) else {
            return Err(Error::unsupported(
                site.args[2].span,
                "a start routine that is not a function defined in the program",
            )
            .note("ladr needs to know statically which function each pthread_create starts"));
        };
        let same = self.chain.iter().filter(|r| **r == routine).count() as u32;
        // Slot 0 is `main`: `max_threads` threads more.
        let bounded = self
            .max_threads
            .is_some_and(|n| self.slots.len() > n as usize);
        Ok(
            if self.slots.len() >= MAX_SLOTS || same > self.unwind || bounded {
                // The thread budget cut it: `threads` is stated whatever else the cut is
                // (SV-COMP mode never answers `true` past it).
                if bounded && same > 0 && same <= self.unwind {
                    self.p.cuts.push(Cut {
                        kind: CutKind::Threads,
                        span: cspan,
                    });
                }
                self.p.cuts.push(Cut {
                    // A routine that creates itself again (a recursive task tree) cut by
                    // the thread budget is nesting too: every execution in which such a
                    // tree completes is cut, not only some interleavings.
                    kind: if same > self.unwind || (bounded && same > 0) {
                        CutKind::ThreadNesting
                    } else if bounded {
                        CutKind::Threads
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
                vec![site.with_lv(site.model(
                    "pthread_create",
                    vec![site.arg(0)?, int(nk as u64, cspan), site.arg(3)?],
                ))]
            },
        )
    }

    /// Mutexes, spin locks and read-write locks.
    fn locks(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let (cspan, k, name) = (site.call_span, site.slot, site.name);
        Ok(Some(match site.name {
            "pthread_mutex_lock"
            | "pthread_spin_lock"
            | "pthread_mutex_trylock"
            | "pthread_spin_trylock"
            | "pthread_mutex_unlock" => {
                vec![site.with_lv(site.model(name, vec![site.arg(0)?, int(k, cspan)]))]
            }
            "pthread_mutex_timedlock" => {
                vec![site.with_lv(
                    site.model("pthread_mutex_trylock", vec![site.arg(0)?, int(k, cspan)]),
                )]
            }
            "pthread_spin_unlock" | "pthread_mutexattr_init" => {
                vec![site.with_lv(site.model(name, vec![site.arg(0)?]))]
            }
            "pthread_mutex_init" | "pthread_mutexattr_settype" => {
                vec![site.with_lv(site.model(name, vec![site.arg(0)?, site.arg(1)?]))]
            }
            "pthread_spin_init" | "pthread_rwlock_init" => {
                vec![site.with_lv(site.model("pthread_spin_init", vec![site.arg(0)?]))]
            }
            "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_tryrdlock"
            | "pthread_rwlock_trywrlock"
            | "pthread_rwlock_unlock" => {
                vec![site.with_lv(site.model(name, vec![site.arg(0)?]))]
            }
            _ => return Ok(None),
        }))
    }

    /// Condition variables: a wait releases the mutex and takes it again (a signal needs
    /// no model: `NO_EFFECT`).
    fn conditions(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let (cspan, k) = (site.call_span, site.slot);
        Ok(Some(match site.name {
            "pthread_cond_wait" => vec![
                expr_stmt(site.model("pthread_mutex_unlock", vec![site.arg(1)?, int(k, cspan)])),
                site.with_lv(site.model("pthread_mutex_lock", vec![site.arg(1)?, int(k, cspan)])),
            ],
            // A timed wait also returns at its time limit (ETIMEDOUT), the mutex taken
            // again: either result, so the code after a timeout is explored (it returned 0
            // only, hiding the races of that branch).
            "pthread_cond_timedwait" | "pthread_cond_clockwait" => {
                let mut v = vec![
                    expr_stmt(
                        site.model("pthread_mutex_unlock", vec![site.arg(1)?, int(k, cspan)]),
                    ),
                    expr_stmt(site.model("pthread_mutex_lock", vec![site.arg(1)?, int(k, cspan)])),
                ];
                if site.lv.is_some() {
                    v.push(site.with_lv(site.model("pthread_cond_timed_result", vec![])));
                }
                v
            }
            _ => return Ok(None),
        }))
    }

    /// Barriers.
    fn barriers(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        Ok(Some(match site.name {
            "pthread_barrier_init" => {
                vec![site
                    .with_lv(site.model("pthread_barrier_init", vec![site.arg(0)?, site.arg(2)?]))]
            }
            "pthread_barrier_wait" => vec![
                expr_stmt(site.model("pthread_barrier_arrive", vec![site.arg(0)?])),
                site.with_lv(site.model("pthread_barrier_leave", vec![site.arg(0)?])),
            ],
            _ => return Ok(None),
        }))
    }

    /// Thread-specific keys: `pthread_key_create` ([`SlotRewriter::key_create`]), the
    /// calling thread's value, `pthread_key_delete`.
    fn keys(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let (cspan, k) = (site.call_span, site.slot);
        Ok(Some(match site.name {
            "pthread_key_create" => self.key_create(site)?,
            "pthread_setspecific" => vec![site.with_lv(site.model(
                "pthread_setspecific",
                vec![site.arg(0)?, site.arg(1)?, int(k, cspan)],
            ))],
            "pthread_getspecific" => {
                vec![site
                    .with_lv(site.model("pthread_getspecific", vec![site.arg(0)?, int(k, cspan)]))]
            }
            "pthread_key_delete" => {
                vec![site.with_lv(site.model("pthread_key_delete", vec![site.arg(0)?]))]
            }
            _ => return Ok(None),
        }))
    }

    /// `pthread_key_create(&k, d)`: `k = __ladr_pthread_key_create();` (or `_dtor(n)`, the
    /// destructor's number), the key stored by the calling thread.
    fn key_create(&mut self, site: &PthreadCall<'_>) -> Result<Vec<Node<Statement>>> {
        let (span, cspan) = (site.span, site.call_span);
        // Each site runs at most once in the bounded program, so the number of sites
        // bounds the number of keys: the model's table never runs out.
        *self.key_sites += 1;
        if *self.key_sites > MAX_KEYS {
            return Err(Error::unsupported(
                cspan,
                format!("more than {MAX_KEYS} pthread_key_create calls in the bounded program"),
            ));
        }
        let destructor = site.arg(1)?;
        let mut v = vec![];
        let dtor = if constant::is_null_pointer_constant(&destructor.node) {
            None
        } else if destructor_function(&destructor.node, &self.dtor_values, self.defs).is_none()
            && !self.dtors.is_empty()
        {
            Some(self.destructor_number(&destructor, &mut v, cspan))
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
            Some(int(n as u64 + 1, cspan))
        };
        // The key is stored by the calling thread: a data write to `*key`.
        let target = match site.arg(0)?.node {
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
                *u.node.operand
            }
            e => deref(node(e, site.args[0].span), site.args[0].span),
        };
        let create = match dtor {
            None => site.model("pthread_key_create", vec![]),
            Some(d) => site.model("pthread_key_create_dtor", vec![d]),
        };
        v.push(expr_stmt(assign(target, create, span)));
        if site.lv.is_some() {
            v.push(site.with_lv(int(0, cspan)));
        }
        Ok(v)
    }

    /// The number of the destructor a pointer `d` holds (issue 27 item 14): `d == f1 ? 1 :
    /// d == f2 ? 2 : … : 0` over every destructor the program may name (`keys`: the
    /// functions whose address is taken, `free`). When the program takes the address of a
    /// function without a body, a pointer to it is not explored: `__CPROVER_assume` pushed
    /// to `v`, a `key-destructors` cut.
    fn destructor_number(
        &mut self,
        d: &Node<Expression>,
        v: &mut Vec<Node<Statement>>,
        span: Span,
    ) -> Node<Expression> {
        let mut number = int(0, span);
        let mut known = eq(d.clone(), int(0, span), span);
        for (i, f) in self.dtors.iter().enumerate().rev() {
            let is_f = eq(d.clone(), ident(&f.name, span), span);
            number = cond(is_f.clone(), int(i as u64 + 1, span), number, span);
            known = or(is_f, known, span);
        }
        if self.dtor_pointers_known {
            return number;
        }
        v.push(assume(known, span));
        if !self
            .p
            .cuts
            .iter()
            .any(|c| c.kind == CutKind::KeyDestructors && c.span == span)
        {
            self.p.cuts.push(Cut {
                kind: CutKind::KeyDestructors,
                span,
            });
        }
        number
    }

    /// Semaphores.
    fn semaphores(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let cspan = site.call_span;
        Ok(Some(match site.name {
            "sem_init" => {
                vec![site.with_lv(site.model("pthread_sem_init", vec![site.arg(0)?, site.arg(2)?]))]
            }
            "sem_wait" => vec![site.with_lv(site.model("pthread_sem_wait", vec![site.arg(0)?]))],
            // A wait with a time limit returns -1 at the limit when the semaphore is still 0
            // (no synchronisation then), or takes it: `sem_trywait` whenever it runs, as
            // `pthread_mutex_timedlock` is `trylock` (waiting is a schedule in which the
            // thread runs later). It was `sem_wait`, which never times out, hiding the races
            // after a timed-out wait.
            "sem_trywait" | "sem_timedwait" | "sem_clockwait" => {
                vec![site.with_lv(site.model("pthread_sem_trywait", vec![site.arg(0)?]))]
            }
            "sem_post" => vec![site.with_lv(site.model("pthread_sem_post", vec![site.arg(0)?]))],
            "sem_destroy" => vec![site.with_lv(int(0, cspan))],
            _ => return Ok(None),
        }))
    }

    /// `pthread_once(&once, f)`: `f`'s body, run by the first thread that gets there.
    fn once(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        if site.name != "pthread_once" {
            return Ok(None);
        }
        let (span, cspan) = (site.span, site.call_span);
        let routine = self.routine(&site.arg(1)?.node);
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
        Ok(Some(vec![block(
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
                    site.model("pthread_once", vec![site.arg(0)?]),
                    tspan,
                ))),
                item(if_stmt(
                    ident(&t, tspan),
                    block_of(
                        vec![
                            body,
                            labeled(&end, empty_stmt(tspan), tspan),
                            expr_stmt(site.model("pthread_once_done", vec![site.arg(0)?])),
                        ],
                        tspan,
                    ),
                    None,
                    tspan,
                )),
                item(site.with_lv(int(0, tspan))),
            ],
            span,
        )]))
    }

    /// The pthread functions no model covers: those that change nothing ladr tracks keep
    /// their arguments' reads (`pthread_cancel` is a request for the slot); C11 threads that
    /// `normalise` did not map
    /// (a call through a pointer), processes and any other `pthread_*` or `sem_*` function
    /// are unsupported.
    fn unmodelled(&mut self, site: &PthreadCall<'_>) -> Rewritten {
        let (span, cspan, name) = (site.span, site.call_span, site.name);
        Ok(Some(match site.name {
            // A request for the slot (`model/cancel.c`): `inline` made the cancellation
            // points act on it.
            "pthread_cancel" => {
                vec![site.with_lv(site.model("pthread_cancel", vec![site.arg(0)?]))]
            }
            "pthread_setcancelstate" if self.cancels => vec![site.with_lv(site.model(
                "pthread_setcancelstate",
                vec![site.arg(0)?, site.arg(1)?, int(site.slot, cspan)],
            ))],
            n if NO_EFFECT.contains(&n) || NO_EFFECT_PREFIX.iter().any(|p| n.starts_with(p)) => {
                // The arguments are still evaluated (`pthread_detach(t)` reads `t`).
                let mut v: Vec<_> = site
                    .args
                    .iter()
                    .filter(|e| !is_constant(&e.node, &HashSet::new()) && !is_address_of_name(e))
                    .map(|e| expr_stmt(e.clone()))
                    .collect();
                if site.lv.is_some() {
                    v.push(site.with_lv(int(0, cspan)));
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
                    "ladr maps each direct call of a C11 thread function to its POSIX \
                     counterpart; this one is reached another way (through a function \
                     pointer), and ignoring it would check the program without its threads, \
                     or its locks",
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
        }))
    }
}

impl PthreadCall<'_> {
    /// `pthread_join(t, out)`: the model's join, and the exit value stored through `out`
    /// by the joining thread (a data write in the user's code).
    fn join(&self) -> Result<Vec<Node<Statement>>> {
        let cspan = self.call_span;
        // The joining thread stores the exit value: a data write in the user's code.
        let tid = self.arg(0)?;
        let out = self.arg(1)?;
        let value = index(ident(abi::RETVAL, cspan), tid.clone(), cspan);
        let mut v = vec![self.with_lv(self.model("pthread_join", vec![tid]))];
        match out.node {
            e if constant::is_null_pointer_constant(&e) => {}
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Address => {
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
        Ok(v)
    }
}

/// Is `n` a function of C11's `<threads.h>` that creates, joins or synchronises threads
/// (C11 7.26: `thrd_*` but `thrd_sleep`/`thrd_yield`, `mtx_*`, `cnd_*`, `call_once`,
/// `tss_*`)?
fn is_c11_thread_function(n: &str) -> bool {
    let thread = n.starts_with("thrd_") && !matches!(n, "thrd_sleep" | "thrd_yield");
    thread || n == "call_once" || ["mtx_", "cnd_", "tss_"].iter().any(|p| n.starts_with(p))
}

/// `&x`: an address, no access.
fn is_address_of_name(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::UnaryOperator(u)
        if u.node.operator.node == UnaryOperator::Address
            && matches!(u.node.operand.node, Expression::Identifier(_)))
}
