//! Deferred cancellation and cleanup handlers (issue 27), in `nonlocal`'s second walk.
//!
//! glibc's `pthread_cleanup_push(f, a)` saves a jump buffer (`__sigsetjmp_cancel`, a
//! `setjmp` site of the body) and registers it (`__pthread_register_cancel(&buf)`);
//! cancelling runs the handlers by jumping to the innermost buffer, whose code calls `f(a)`
//! and `__pthread_unwind_next(&buf)`, which jumps to the next one or ends the thread. Here:
//! * `__pthread_register_cancel(b)` → `((int *)(b))[1] = top; top = *(int *)(b);`: the
//!   innermost handler's site is `top` (0: none), the one it hides is kept in its buffer;
//! * `__pthread_unregister_cancel(b)` → `top = ((int *)(b))[1];`;
//! * `__pthread_unwind_next(b)` → `top = ((int *)(b))[1];` then the unwinding: `if (top)`
//!   jump to site `top` with 1, else `pthread_exit(exit)`;
//! * `pthread_exit(v)` in a body that registers handlers → `exit = v;` and the unwinding
//!   (POSIX runs the handlers at `pthread_exit` too);
//! * when the program calls `pthread_cancel`, each cancellation point (POSIX XSH 2.9.5.2:
//!   `pthread_testcancel`, `pthread_join`, `sem_wait`, `sleep`, `read`, …) checks first
//!   whether the thread has a pending request it has not disabled
//!   (`__ladr_pthread_canceled(pthread_self())`, `model/cancel.c`), and if so sets `exit`
//!   to `PTHREAD_CANCELED` and unwinds; a condition wait checks after it, once the mutex is
//!   taken again (POSIX: the handlers run with the mutex held). At a function that may be
//!   a cancellation point (`printf`, `fopen`, `pthread_rwlock_rdlock`, …) a pending request
//!   is acted on or not, nondeterministically. A request that comes while
//!   the thread blocks is acted on by a schedule in which the thread reaches the check
//!   after the request.
//!
//! Asynchronous cancellation (`pthread_setcanceltype` to anything but
//! `PTHREAD_CANCEL_DEFERRED`) in a program that cancels is a located "unsupported" error.

use super::{call_of, Jumps};
use ladr_c::diag::{Error, Result};
use ladr_c::syntax::build::*;
use ladr_ir::abi;
use lang_c::ast::*;
use lang_c::span::{Node, Span};

/// glibc's cleanup-handler functions (the expansions of `pthread_cleanup_push`/`_pop`).
pub(super) const CLEANUP: &[&str] = &[
    "__pthread_register_cancel",
    "__pthread_register_cancel_defer",
    "__pthread_unregister_cancel",
    "__pthread_unregister_cancel_restore",
    "__pthread_unwind_next",
];

/// The functions that register a handler.
pub(super) const REGISTER: &[&str] = &[
    "__pthread_register_cancel",
    "__pthread_register_cancel_defer",
];

/// Cancellation points acted on when the call starts (POSIX XSH 2.9.5.2, the functions
/// that are cancellation points).
const POINTS: &[&str] = &[
    "pthread_testcancel",
    "pthread_join",
    "sem_wait",
    "sem_timedwait",
    "sem_clockwait",
    "sleep",
    "usleep",
    "nanosleep",
    "clock_nanosleep",
    "pause",
    "sigsuspend",
    "sigwait",
    "sigtimedwait",
    "sigwaitinfo",
    "read",
    "readv",
    "pread",
    "write",
    "writev",
    "pwrite",
    "open",
    "openat",
    "creat",
    "close",
    "fsync",
    "fdatasync",
    "accept",
    "connect",
    "recv",
    "recvfrom",
    "recvmsg",
    "send",
    "sendto",
    "sendmsg",
    "poll",
    "select",
    "pselect",
    "wait",
    "waitpid",
    "waitid",
    "system",
    "tcdrain",
    "msgrcv",
    "msgsnd",
    "mq_receive",
    "mq_send",
    "mq_timedreceive",
    "mq_timedsend",
];

/// Cancellation points acted on when the call returns (the mutex taken again).
const POINTS_AFTER: &[&str] = &[
    "pthread_cond_wait",
    "pthread_cond_timedwait",
    "pthread_cond_clockwait",
];

/// Functions that may be cancellation points (POSIX XSH 2.9.5.2, "may occur": stdio,
/// files, directories, the rwlock functions, …): whether a pending request is acted on at
/// one is the implementation's choice (glibc acts where the call reaches a cancellable
/// system call, as `printf` does when it flushes), so either is a possible execution.
const OPTIONAL_POINTS: &[&str] = &[
    "printf",
    "fprintf",
    "dprintf",
    "vprintf",
    "vfprintf",
    "vdprintf",
    "puts",
    "fputs",
    "putc",
    "fputc",
    "putchar",
    "fwrite",
    "fread",
    "fgets",
    "fgetc",
    "getc",
    "getchar",
    "getline",
    "getdelim",
    "scanf",
    "fscanf",
    "ungetc",
    "fopen",
    "fdopen",
    "freopen",
    "fclose",
    "fflush",
    "fseek",
    "fseeko",
    "ftell",
    "ftello",
    "rewind",
    "fgetpos",
    "fsetpos",
    "perror",
    "tmpfile",
    "remove",
    "rename",
    "unlink",
    "mkdir",
    "mkstemp",
    "stat",
    "lstat",
    "fstat",
    "lseek",
    "ioctl",
    "fcntl",
    "opendir",
    "readdir",
    "closedir",
    "getcwd",
    "syslog",
    "openlog",
    "closelog",
    "strerror",
    "localtime",
    "localtime_r",
    "mktime",
    "strftime",
    "tzset",
    "getaddrinfo",
    "getnameinfo",
    "gethostname",
    "getpwnam",
    "getpwuid",
    "getgrnam",
    "getgrgid",
    "popen",
    "pclose",
    "pthread_rwlock_rdlock",
    "pthread_rwlock_wrlock",
    "pthread_rwlock_timedrdlock",
    "pthread_rwlock_timedwrlock",
    "semop",
    "sync",
];

/// The variables of a body's cleanup handlers.
pub(super) struct Cleanup {
    /// `int`: the site of the innermost handler's buffer, 0 for none.
    top: String,
    /// `void *`: the thread's exit value while its handlers run.
    exit: String,
}

impl Cleanup {
    /// `int top; void *exit; top = 0;`
    pub(super) fn declarations(&self, span: Span) -> Vec<Node<BlockItem>> {
        vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                &self.top,
                None,
                false,
                None,
                span,
            )),
            decl_item(declaration(
                vec![spec(TypeSpecifier::Void, span)],
                &self.exit,
                vec![node(DerivedDeclarator::Pointer(vec![]), span)],
                None,
                span,
            )),
            item(expr_stmt(assign(
                ident(&self.top, span),
                int(0, span),
                span,
            ))),
        ]
    }
}

/// `((int *)(b))[i]`: the buffer's int `i` (0: its site, 1: the handler it hides).
fn buffer_int(b: &Node<Expression>, i: u64, span: Span) -> Node<Expression> {
    let p = cast(type_name(&[TypeSpecifier::Int], 1, span), b.clone(), span);
    index(p, int(i, span), span)
}

/// `(void *)-1`, glibc's `PTHREAD_CANCELED`.
fn canceled(span: Span) -> Node<Expression> {
    cast(
        type_name(&[TypeSpecifier::Void], 1, span),
        unop(UnaryOperator::Minus, int(1, span), span),
        span,
    )
}

impl Jumps<'_> {
    /// The body's cleanup variables (made on first use).
    fn cleanup_vars(&mut self) -> (String, String) {
        if self.cleanup.is_none() {
            self.cleanup = Some(Cleanup {
                top: self.names.temp(),
                exit: self.names.temp(),
            });
        }
        let c = self.cleanup.as_ref().expect("made above");
        (c.top.clone(), c.exit.clone())
    }

    /// `exit = v;` and the unwinding: to the innermost handler, or `pthread_exit(v)`.
    fn unwind(&mut self, v: Option<Node<Expression>>, span: Span) -> Result<Node<Statement>> {
        let (top, exit) = self.cleanup_vars();
        let mut stmts = vec![];
        if let Some(v) = v {
            stmts.push(expr_stmt(assign(ident(&exit, span), v, span)));
        }
        let end = expr_stmt(call("pthread_exit", vec![ident(&exit, span)], span));
        if self.sites.is_empty() {
            stmts.push(end);
        } else {
            let to_handler = self.dispatch(&ident(&top, span), &int(1, span), span)?;
            stmts.push(if_stmt(ident(&top, span), to_handler, Some(end), span));
        }
        Ok(block_of(stmts, span))
    }

    /// What replaces statement `s` when it registers, removes or runs a cleanup handler,
    /// exits a thread that has handlers, or is a cancellation point (module doc).
    pub(super) fn cancellation(&mut self, s: &Node<Statement>) -> Result<Option<Node<Statement>>> {
        let span = s.span;
        for f in CLEANUP {
            let Some((_, args, cspan)) = call_of(&s.node, &[f]) else {
                continue;
            };
            let Some(b) = args.first() else {
                return Err(Error::unsupported(cspan, format!("`{f}` without a buffer")));
            };
            let (top, _) = self.cleanup_vars();
            let hidden = expr_stmt(assign(ident(&top, span), buffer_int(b, 1, span), span));
            return Ok(Some(match *f {
                "__pthread_register_cancel" | "__pthread_register_cancel_defer" => block_of(
                    vec![
                        expr_stmt(assign(buffer_int(b, 1, span), ident(&top, span), span)),
                        expr_stmt(assign(ident(&top, span), buffer_int(b, 0, span), span)),
                    ],
                    span,
                ),
                "__pthread_unwind_next" => block_of(vec![hidden, self.unwind(None, span)?], span),
                _ => hidden,
            }));
        }
        if let Some((_, args, _)) = call_of(&s.node, &["pthread_exit"]) {
            if self.handlers {
                let v = args.first().cloned().unwrap_or_else(|| int(0, span));
                return Ok(Some(self.unwind(Some(v), span)?));
            }
            return Ok(None);
        }
        if !self.cancel {
            return Ok(None);
        }
        if let Some((_, args, cspan)) = call_of(&s.node, &["pthread_setcanceltype"]) {
            let deferred = args.first().is_some_and(|a| match &a.node {
                Expression::Identifier(i) => i.node.name == "PTHREAD_CANCEL_DEFERRED",
                e => ladr_c::syntax::constant::value(e, &Default::default()) == Some(0),
            });
            if !deferred {
                return Err(Error::unsupported(
                    cspan,
                    "asynchronous cancellation (`pthread_setcanceltype`)",
                )
                .note(
                    "ladr models deferred cancellation, acted on at cancellation points; an \
                     asynchronous one may stop the thread anywhere",
                ));
            }
            return Ok(None);
        }
        let after = call_of(&s.node, POINTS_AFTER).is_some();
        let optional = call_of(&s.node, OPTIONAL_POINTS).is_some();
        if !after && !optional && call_of(&s.node, POINTS).is_none() {
            return Ok(None);
        }
        let check = self.check(optional, span)?;
        let stmts = if after {
            vec![s.clone(), check]
        } else {
            vec![check, s.clone()]
        };
        Ok(Some(block_of(stmts, span)))
    }

    /// `{ unsigned long s; int c; s = pthread_self(); c = __ladr_pthread_canceled(s); if (c)
    /// <unwind with PTHREAD_CANCELED> }`; at an `optional` point the request is acted on
    /// or not (`if (c) c = __VERIFIER_nondet_bool();` before the test).
    fn check(&mut self, optional: bool, span: Span) -> Result<Node<Statement>> {
        let (slot, canceled_now) = (self.names.temp(), self.names.temp());
        let act = if self.handlers {
            self.unwind(Some(canceled(span)), span)?
        } else {
            expr_stmt(call("pthread_exit", vec![canceled(span)], span))
        };
        let mut items = vec![
            decl_item(simple_decl(
                &[TypeSpecifier::Unsigned, TypeSpecifier::Long],
                &slot,
                None,
                false,
                None,
                span,
            )),
            decl_item(simple_decl(
                &[TypeSpecifier::Int],
                &canceled_now,
                None,
                false,
                None,
                span,
            )),
            item(expr_stmt(assign(
                ident(&slot, span),
                call("pthread_self", vec![], span),
                span,
            ))),
            item(expr_stmt(assign(
                ident(&canceled_now, span),
                call(
                    &abi::model_function("pthread_canceled"),
                    vec![ident(&slot, span)],
                    span,
                ),
                span,
            ))),
        ];
        if optional {
            let maybe = call(abi::NONDET_BOOL, vec![], span);
            let choose = expr_stmt(assign(ident(&canceled_now, span), maybe, span));
            items.push(item(if_stmt(
                ident(&canceled_now, span),
                choose,
                None,
                span,
            )));
        }
        items.push(item(if_stmt(ident(&canceled_now, span), act, None, span)));
        Ok(block(items, span))
    }
}
