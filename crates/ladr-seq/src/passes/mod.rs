//! The passes, one per module, in pipeline order (see `ARCHITECTURE.md`).
//!
//! Order and why:
//! 1. [`normalise`] first: every later pass relies on its normal form (below).
//! 2. [`inline`] before `unwind`, so loops inside called functions are unwound per call site
//!    and recursion is cut at depth U.
//! 3. [`unwind`] makes every function loop-free.
//! 4. `threads` after both, so each `pthread_create` site in the bounded program (also one
//!    produced by unwinding a loop) becomes its own slot with its own copy of the routine.
//! 5. `visible`, `racefree`, `race`, `lazy` build the sequential program from the slots
//!    (`lazy` with two helpers: `block_locals` declares locals in blocks, `unused` leaves out
//!    what nothing names);
//!    `racefree` after `visible` (it reads the slots' items in order) and before `race`
//!    (which instruments what it leaves visible and shared); [`dataonly`] after `race`, so
//!    that it sees the instrumentation's uses of addresses and drops only the stores, never
//!    the accesses' checks.
//!
//! # Normal form (established by `normalise`)
//! * N1 no `switch`, `for`, `do`, `break`, `continue`; loops are `while (c) S`.
//! * N2 conditions of `if`/`while` and `return` values have no side effects.
//! * N3 an expression statement has at most one side effect, at its top:
//!   `lv = e;` `lv op= e;` `lv++;` (and the other increments) `f(a..);` `lv = f(a..);`
//!   (after `threads` also `lv = (T) f(a..);`, the fresh object of an assumed result),
//!   with `lv`, `e`, `f`, `a..` free of side effects (no assignment, increment, call or
//!   statement expression inside them, except under `sizeof`).
//! * N4 local declarations have no initialiser except `static` ones; an uninitialised
//!   automatic local is followed by `__CPROVER_havoc_object(&x);` where it is declared, or,
//!   when the next statement of its block that mentions it is `x = e;`, by that assignment.
//!   Exceptions: a local array may keep a constant initialiser (list or string literal);
//!   temporaries `__ladr_t*` get no havoc (they are always assigned before being read).
//! * N5 `__VERIFIER_atomic_begin(); … __VERIFIER_atomic_end();` sections and inlined
//!   `__VERIFIER_atomic_*` bodies are one compound statement whose first statement is
//!   `__VERIFIER_atomic_begin();` and last `__VERIFIER_atomic_end();`.
//! * N6 SV-COMP error functions are `__CPROVER_assume(0);` / `__CPROVER_assume(e);`,
//!   `__VERIFIER_assume(e)` is `__CPROVER_assume(e)`.
//!
//! A call of a pure CBMC builtin (`abi::PURE_BUILTINS`: `__CPROVER_r_ok`, `__CPROVER_w_ok`,
//! `__CPROVER_POINTER_OFFSET`, `__CPROVER_OBJECT_SIZE`) is no side effect for N2/N3
//! (`unwind`'s fill-loop guard tests them in an `if`).
//!
//! # Bounded program (established by `unwind`)
//! * Loop: no `while`, `do`, `for`.
//! * BackwardGoto: no `goto` to a label earlier in the function's text.
//! * CallOfDefinedFunction: no call of a function with a body, except `main` and the names
//!   `inline` keeps (`normal_form::kept_call`), the functions in which no context switch can
//!   happen (`Program::kept`, which call only each other and builtins), the model's
//!   functions and (from `lazy`'s driver) the slot functions.
//!
//! # What holds after which pass
//! Checked by [`crate::invariants`] (the `holds` column of `pipeline::PASSES`) after every pass in debug builds
//! and with `--check-ir`. The code checked is every function body of the unit except the
//! pthread model's functions (`abi::is_model_function`: hand-written C in `model/pthread.c`
//! with initialised locals, nondet calls in conditions and the constant-bound `for` loops
//! of `__ladr_main_args`, which no pass rewrites, flattens or instruments), and after
//! `visible` each slot's items in `Program::code`.
//!
//! | after     | N1 N4 N5 N6 | N2 N3  | Loop BackwardGoto | CallOfDefinedFunction |
//! |-----------|-------------|--------|-------------------|-----------------------|
//! | normalise | yes         | yes    | no                | no                    |
//! | inline    | yes         | yes    | no                | yes                   |
//! | unwind    | yes         | yes    | yes               | yes                   |
//! | threads   | yes         | yes    | yes               | yes                   |
//! | visible   | yes         | yes    | yes               | yes                   |
//! | racefree  | yes         | yes    | yes               | yes                   |
//! | race      | yes         | **no** | yes               | yes                   |
//! | dataonly  | yes         | **no** | yes               | yes                   |
//! | lazy      | yes         | **no** | yes               | yes                   |
//!
//! `race` puts its flag code — assignments of `__ladr_*` flags and
//! `__CPROVER_same_object`/`__CPROVER_POINTER_OFFSET` tests in comma and `&&` expressions — into
//! visible statements and their conditions, so N2 and N3 stop holding there by design.

pub mod block_locals;
pub mod constprop;
pub mod dataonly;
pub mod inline;
pub mod lazy;
pub mod normalise;
pub mod race;
pub mod racefree;
pub mod threads;
pub mod unused;
pub mod unwind;
pub mod visible;
